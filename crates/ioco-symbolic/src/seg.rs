//! Switch coverage: the symbolic execution graph (thesis Def. 4.14, TAP19 Def. 14), test
//! purposes by breadth-first search (thesis Def. 4.16, TAP19 §4), and their execution with
//! on-the-fly data selection (**thesis Alg. 6 = TAP19 Alg. 1**).
//!
//! - [`select_purposes`] explores the SEG breadth first up to a depth bound. An edge `s —r→ s'`
//!   exists when `φ_r[m] ∧ η` is `sat` or `unknown` (the benefit of the doubt, Def. 4.12);
//!   edges kept on `unknown` are marked doubtful. For every switch, the first (shortest) path
//!   ending in it is a purpose, replaced by a later path without doubtful edges if one is found
//!   (the tweak of note §2.9: TAP19 Ex. 17's `r0 r1 r2` is the doubtful path). All switches on a
//!   purpose's path count as covered (a priori coverage, TAP19 L255); purposes whose paths are
//!   prefixes of others are dropped; purposes run longest first (TAP19 L384). Switches not
//!   covered are reported by name, with the reason: guard unsatisfiable in every state, or not
//!   reached within the bound.
//! - [`run_purpose`] is Alg. 6: inputs are chosen **as late as possible** from the purpose's
//!   path condition `η` after substituting every value chosen or observed so far
//!   (`η[tmap(P ↦ w̄)]`, with `P = p̄@i`), with a fall-back to the current guard when `η` is
//!   unknown; an output that fits the purpose's switch narrows `η` (unsat → Inconclusive: the
//!   SUT legally left the purpose); an output allowed by another branch of the candidate set
//!   `C` (pairs of semantic and symbolic states) is Inconclusive; anything else is Fail.
//!   Extensions: observed quiescence (Fail only when every state of `C` provably expects an
//!   output), races (an output before an input is judged against `C`), τ moves, and one
//!   final observation after a purpose that ends with an input (judged against `C`; without
//!   it, BRP mutants whose fault shows in the response to the purpose's last input survive).
//! - A posteriori coverage counts the purposes that ended in Pass with `|C| = 1`
//!   (conservative, thesis L7422) and, liberally, every Pass.

use crate::online::{label as gate_label, DataSut, Observed, Sent, SutError};
use crate::pick::Picker;
use crate::solver::{Checker, SatResult};
use crate::system::{Move, State, SwitchId, SymState, System};
use crate::term::{render, SymVar, Term, T};
use crate::tracker::{check_gate_value, quiescence, Quiescence};
use ioco_lang::ir::{Direction, Value};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt;

/// A test purpose `(r0 … rn, η)`.
#[derive(Clone, Debug)]
pub struct Purpose {
    /// The moves of the path.
    pub path: Vec<Move>,
    /// The path condition of the SEG state the path reaches (parameters `name@i`).
    pub pc: T,
    /// The switch this purpose was selected for.
    pub target: SwitchId,
    /// Some edge of the path was kept on `unknown`.
    pub doubtful: bool,
}

impl Purpose {
    /// The switches on the path.
    pub fn switches(&self) -> BTreeSet<SwitchId> {
        self.path
            .iter()
            .flat_map(|m| m.parts.iter().copied())
            .collect()
    }
}

/// Why a switch has no purpose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Uncovered {
    /// Its guard is unsatisfiable for all values of variables and parameters.
    Unsatisfiable,
    /// Not reached within the depth bound (or the node budget).
    Unreached,
}

/// The result of purpose selection.
#[derive(Clone, Debug)]
pub struct Selection {
    /// Purposes, longest first.
    pub purposes: Vec<Purpose>,
    /// Switches not covered, with their names and reasons.
    pub uncovered: Vec<(SwitchId, String, Uncovered)>,
    /// Number of switches.
    pub total: usize,
    /// SEG nodes explored.
    pub seg_nodes: usize,
    /// Depth bound used.
    pub depth: usize,
}

impl Selection {
    /// A priori switch coverage `|⋃ switches of the purposes| / |R|`.
    pub fn apriori(&self) -> f64 {
        let covered: BTreeSet<SwitchId> = self.purposes.iter().flat_map(|p| p.switches()).collect();
        ratio(covered.len(), self.total)
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

struct Node {
    state: SymState,
    parent: Option<(usize, Move)>,
    doubtful: bool,
}

fn path_to(nodes: &[Node], mut i: usize) -> Vec<Move> {
    let mut path = Vec::new();
    while let Some((p, m)) = &nodes[i].parent {
        path.push(m.clone());
        i = *p;
    }
    path.reverse();
    path
}

/// Selects purposes for switch coverage by BFS over the SEG up to `depth` (at most `max_nodes`
/// SEG states).
pub fn select_purposes(
    sys: &System,
    checker: &mut Checker,
    depth: usize,
    max_nodes: usize,
) -> Selection {
    let all = sys.switches();
    let defs = sys.spec.defs.clone();
    let mut best: HashMap<SwitchId, (usize, bool)> = HashMap::new(); // switch -> (node, doubtful)
    let mut nodes = vec![Node {
        state: sys.initial_symbolic(),
        parent: None,
        doubtful: false,
    }];
    let mut queue = VecDeque::from([0usize]);
    let done = |best: &HashMap<SwitchId, (usize, bool)>| {
        all.iter().all(|s| best.get(s).is_some_and(|b| !b.1))
    };
    while let Some(i) = queue.pop_front() {
        if done(&best) || nodes.len() >= max_nodes {
            break;
        }
        if nodes[i].state.step >= depth {
            continue;
        }
        let moves = sys.moves(&nodes[i].state.locs);
        for m in moves.iter() {
            let (next, g) = sys.sym_succ(&nodes[i].state, m);
            let f = Term::and(nodes[i].state.pc.clone(), g);
            let r = checker.sat(&defs, &f);
            if r == SatResult::Unsat {
                continue;
            }
            let doubtful = nodes[i].doubtful || matches!(r, SatResult::Unknown(_));
            nodes.push(Node {
                state: next,
                parent: Some((i, m.clone())),
                doubtful,
            });
            let j = nodes.len() - 1;
            for &sw in &m.parts {
                match best.get(&sw) {
                    Some((_, false)) => {}
                    Some((_, true)) if doubtful => {}
                    _ => {
                        best.insert(sw, (j, doubtful));
                    }
                }
            }
            queue.push_back(j);
        }
    }
    // one purpose per switch, in switch order, skipping switches already on a chosen path
    let mut purposes: Vec<Purpose> = Vec::new();
    let mut covered: BTreeSet<SwitchId> = BTreeSet::new();
    for sw in &all {
        if covered.contains(sw) {
            continue;
        }
        if let Some(&(j, doubtful)) = best.get(sw) {
            let p = Purpose {
                path: path_to(&nodes, j),
                pc: nodes[j].state.pc.clone(),
                target: *sw,
                doubtful,
            };
            covered.extend(p.switches());
            purposes.push(p);
        }
    }
    // drop purposes whose path is a prefix of another's
    let paths: Vec<Vec<Move>> = purposes.iter().map(|p| p.path.clone()).collect();
    purposes.retain(|p| {
        !paths
            .iter()
            .any(|q| q.len() > p.path.len() && q[..p.path.len()] == p.path[..])
    });
    purposes.sort_by_key(|p| std::cmp::Reverse(p.path.len()));
    let mut uncovered = Vec::new();
    for sw in &all {
        if covered.contains(sw) {
            continue;
        }
        // is the guard satisfiable at all (variables and parameters free)?
        let a = sys.automaton(sw.0);
        let s = &a.switches[sw.1 as usize];
        let vars: Vec<T> = a
            .vars
            .iter()
            .map(|v| {
                Term::sym(SymVar {
                    name: format!("{}#any", v.name).into(),
                    ty: v.ty,
                })
            })
            .collect();
        let params: Vec<T> = s
            .params
            .iter()
            .map(|(n, ty)| {
                Term::sym(SymVar {
                    name: format!("{}#any", n).into(),
                    ty: *ty,
                })
            })
            .collect();
        let g = crate::term::instantiate(&defs, &s.guard, &vars, &params);
        let why = if checker.sat(&defs, &g) == SatResult::Unsat {
            Uncovered::Unsatisfiable
        } else {
            Uncovered::Unreached
        };
        uncovered.push((*sw, sys.switch_name(*sw), why));
    }
    Selection {
        purposes,
        uncovered,
        total: all.len(),
        seg_nodes: nodes.len(),
        depth,
    }
}

/// The verdict of one purpose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PurposeVerdict {
    /// Completed; `candidates` = `|C|` at the end (1: the reached state is certain).
    Pass {
        /// `|C|`.
        candidates: usize,
    },
    /// Non-conformance, explained.
    Fail(String),
    /// The purpose could not be completed; why.
    Inconclusive(String),
    /// The system could not be tested (not started, broken output, an exit that is no
    /// evidence); why.
    Error(String),
}

/// One execution of a purpose.
#[derive(Clone, Debug)]
pub struct PurposeRun {
    /// The verdict.
    pub verdict: PurposeVerdict,
    /// Labels exchanged (`inX?(6)`, `outX!(6)`, `δ`).
    pub trace: Vec<String>,
    /// For a Fail: what the spec allowed where the failing observation was made (the output
    /// switches of the candidate states with their guards, the variables replaced by their
    /// values: `outX!(x) [x == 6]`, and `δ` when some candidate may be quiescent).
    pub allowed: Vec<String>,
}

type Pair = (State, SymState);

fn tau_close(sys: &System, c: Vec<Pair>, limit: usize) -> Result<Vec<Pair>, String> {
    let mut seen: HashSet<Pair> = HashSet::new();
    let mut out = Vec::new();
    let mut stack = c;
    while let Some(p) = stack.pop() {
        if !seen.insert(p.clone()) {
            continue;
        }
        for m in sys.moves(&p.0.locs).iter().filter(|m| m.gate.is_none()) {
            if sys.enabled(&p.0, m, &[]).map_err(|e| e.message)? {
                let q = sys.succ(&p.0, m, &[]).map_err(|e| e.message)?;
                stack.push((q, sys.sym_succ(&p.1, m).0));
            }
        }
        out.push(p);
        if out.len() > limit {
            return Err(format!("more than {} candidate states", limit));
        }
    }
    Ok(out)
}

/// `step(C, u)`: the pairs reached by the gate value `u` (semantic successors with their SEG
/// successors), τ-closed.
fn step(sys: &System, c: &[Pair], gate: u32, values: &[Value]) -> Result<Vec<Pair>, String> {
    let mut next = Vec::new();
    for (q, s) in c {
        for m in sys.moves(&q.locs).iter().filter(|m| m.gate == Some(gate)) {
            if sys.enabled(q, m, values).map_err(|e| e.message)? {
                next.push((
                    sys.succ(q, m, values).map_err(|e| e.message)?,
                    sys.sym_succ(s, m).0,
                ));
            }
        }
    }
    tau_close(sys, next, 10_000)
}

fn label(sys: &System, gate: &str, values: &[Value], mark: &str) -> String {
    gate_label(&sys.spec.defs, gate, values, mark)
}

/// A system that exited or broke during a purpose: Fail only when every candidate state
/// provably requires an output (the exit is quiescence where none is allowed).
fn sut_error(
    sys: &System,
    checker: &mut Checker,
    c: &[Pair],
    step: usize,
    e: SutError,
    trace: &mut Vec<String>,
) -> PurposeVerdict {
    match e {
        SutError::Broken(why) => PurposeVerdict::Error(why),
        SutError::Exited(status) => {
            let required = !c.is_empty()
                && c.iter().all(|(cq, _)| {
                    matches!(quiescence(sys, checker, cq, step), Quiescence::Active(_))
                });
            if required {
                trace.push("exit".into());
                let states: Vec<String> = c.iter().take(4).map(|p| sys.describe(&p.0)).collect();
                PurposeVerdict::Fail(format!(
                    "the system {} where an output is required ({})",
                    status,
                    states.join("; ")
                ))
            } else {
                PurposeVerdict::Error(format!("the system {}", status))
            }
        }
    }
}

/// Executes a purpose against a system (thesis Alg. 6; see the module documentation).
pub fn run_purpose(
    sys: &System,
    checker: &mut Checker,
    picker: &mut Picker,
    purpose: &Purpose,
    sut: &mut dyn DataSut,
    rng: &mut ChaCha8Rng,
) -> PurposeRun {
    let mut trace = Vec::new();
    let mut c = Vec::new();
    let verdict = run_inner(sys, checker, picker, purpose, sut, rng, &mut trace, &mut c);
    let allowed = if matches!(verdict, PurposeVerdict::Fail(_)) {
        allowed_outputs(sys, checker, &c, trace.len())
    } else {
        Vec::new()
    };
    PurposeRun {
        verdict,
        trace,
        allowed,
    }
}

/// The outputs allowed in the candidate states `c` (see [`PurposeRun::allowed`]).
fn allowed_outputs(sys: &System, checker: &mut Checker, c: &[Pair], step: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut quiet = false;
    for (q, _) in c {
        for m in sys.moves(&q.locs).iter() {
            if sys.direction(m) == Some(Direction::Output) {
                let s = crate::online::describe_output_move(sys, q, m);
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        if !matches!(quiescence(sys, checker, q, step), Quiescence::Active(_)) {
            quiet = true;
        }
    }
    if quiet {
        out.push("δ".into());
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn judge_other_output(
    sys: &System,
    c: &[Pair],
    expected: &str,
    g: &str,
    w: &[Value],
) -> PurposeVerdict {
    let gi = match check_gate_value(sys, g, Direction::Output, w) {
        Ok(gi) => gi,
        Err(e) => return PurposeVerdict::Fail(format!("malformed output: {}", e)),
    };
    match step(sys, c, gi, w) {
        Err(e) => PurposeVerdict::Inconclusive(format!("model error: {}", e)),
        Ok(n) if n.is_empty() => {
            let states: Vec<String> = c.iter().take(4).map(|p| sys.describe(&p.0)).collect();
            let mut why = vec![format!(
                "output {} is not allowed in {{{}}}",
                label(sys, g, w, "!"),
                states.join("; ")
            )];
            for (q, _) in c.iter().take(4) {
                for m in sys.moves(&q.locs).iter().filter(|m| m.gate == Some(gi)) {
                    why.push(format!(
                        "  `{}` violated: {}",
                        sys.switch_name(m.parts[0]),
                        sys.explain(q, m, w)
                    ));
                }
            }
            PurposeVerdict::Fail(why.join("\n"))
        }
        Ok(_) => PurposeVerdict::Inconclusive(format!(
            "the system legally left the purpose: {} instead of {}",
            label(sys, g, w, "!"),
            expected
        )),
    }
}

/// `c`: the candidate set, left as it was when the run ended (a Fail: before the failing
/// observation).
#[allow(clippy::too_many_arguments)]
fn run_inner(
    sys: &System,
    checker: &mut Checker,
    picker: &mut Picker,
    purpose: &Purpose,
    sut: &mut dyn DataSut,
    rng: &mut ChaCha8Rng,
    trace: &mut Vec<String>,
    c: &mut Vec<Pair>,
) -> PurposeVerdict {
    let defs = sys.spec.defs.clone();
    if let Err(e) = sut.reset() {
        return PurposeVerdict::Error(format!("cannot reset the system: {}", e));
    }
    let mut q = sys.initial();
    *c = match tau_close(sys, vec![(q.clone(), sys.initial_symbolic())], 10_000) {
        Ok(c) => c,
        Err(e) => return PurposeVerdict::Inconclusive(e),
    };
    let mut eta = purpose.pc.clone();
    for (i, r) in purpose.path.iter().enumerate() {
        let pvars = sys.param_vars(r, i);
        let subst = |eta: &T, w: &[Value]| {
            Term::subst(eta, &defs, &|v: &SymVar| {
                pvars.iter().position(|p| p == v).map(|k| w[k].clone())
            })
        };
        match sys.direction(r) {
            None => {
                // a τ move of the purpose: follow it in the tracked state
                match sys.enabled(&q, r, &[]) {
                    Ok(true) => q = sys.succ(&q, r, &[]).expect("enabled τ"),
                    _ => {
                        return PurposeVerdict::Inconclusive(
                            "internal step of the purpose not enabled".into(),
                        )
                    }
                }
            }
            Some(Direction::Input) => {
                let gate = sys.spec.gates[r.gate.unwrap() as usize].name.clone();
                let hints = picker.hints(&defs, &eta, &pvars, rng);
                let w = match checker.values(&defs, &eta, &pvars, &hints) {
                    Ok(w) => w,
                    Err(SatResult::Unknown(why)) => {
                        // line 12: fall back on the current guard with concrete variables
                        let params: Vec<T> = pvars.iter().cloned().map(Term::sym).collect();
                        let local = sys.guard_at(&q, r, &params);
                        match checker.values(&defs, &local, &pvars, &hints) {
                            Ok(w) => {
                                if checker.sat(&defs, &subst(&eta, &w)) == SatResult::Unsat {
                                    return PurposeVerdict::Inconclusive(format!(
                                        "path condition unknown ({}) and the values chosen by the guard make it unsat",
                                        why
                                    ));
                                }
                                w
                            }
                            Err(_) => {
                                return PurposeVerdict::Inconclusive(format!(
                                    "no values for {}: the solver says unknown ({})",
                                    gate, why
                                ))
                            }
                        }
                    }
                    Err(_) => {
                        return PurposeVerdict::Inconclusive(format!(
                            "the path condition is unsatisfiable at step {}: {}",
                            i,
                            render(&defs, &eta)
                        ))
                    }
                };
                if sys.enabled(&q, r, &w) != Ok(true) {
                    return PurposeVerdict::Inconclusive(format!(
                        "solver values {:?} do not enable the switch",
                        w
                    ));
                }
                match sut.send(&gate, &w) {
                    Err(e) => return sut_error(sys, checker, c, i, e, trace),
                    Ok(Sent::Raced(g, ow)) => {
                        trace.push(label(sys, &g, &ow, "!"));
                        return judge_other_output(sys, c, &label(sys, &gate, &w, "?"), &g, &ow);
                    }
                    Ok(Sent::RacedMalformed(why)) => {
                        return PurposeVerdict::Fail(format!("malformed output: {}", why))
                    }
                    Ok(Sent::Sent) => {}
                }
                trace.push(label(sys, &gate, &w, "?"));
                eta = subst(&eta, &w);
                q = match sys.succ(&q, r, &w) {
                    Ok(q) => q,
                    Err(e) => {
                        return PurposeVerdict::Inconclusive(format!("model error: {}", e.message))
                    }
                };
                *c = match step(sys, c, r.gate.unwrap(), &w) {
                    Ok(c) => c,
                    Err(e) => return PurposeVerdict::Inconclusive(format!("model error: {}", e)),
                };
            }
            Some(Direction::Output) => {
                let gate = sys.spec.gates[r.gate.unwrap() as usize].name.clone();
                let obs = match sut.observe() {
                    Ok(o) => o,
                    Err(e) => return sut_error(sys, checker, c, i, e, trace),
                };
                match obs {
                    Observed::Malformed(why) => {
                        return PurposeVerdict::Fail(format!("malformed output: {}", why))
                    }
                    Observed::Quiescent => {
                        trace.push("δ".into());
                        let mut unknown = false;
                        for (cq, _) in c.iter() {
                            match quiescence(sys, checker, cq, i) {
                                Quiescence::Quiescent => {
                                    return PurposeVerdict::Inconclusive(format!(
                                        "the system is quiescent, legal in {}, but the purpose expects {}",
                                        sys.describe(cq),
                                        gate
                                    ))
                                }
                                Quiescence::Unknown(_) => unknown = true,
                                Quiescence::Active(_) => {}
                            }
                        }
                        if unknown {
                            return PurposeVerdict::Inconclusive(
                                "quiescence observed; the solver cannot decide whether it is allowed".into(),
                            );
                        }
                        let states: Vec<String> =
                            c.iter().take(4).map(|p| sys.describe(&p.0)).collect();
                        return PurposeVerdict::Fail(format!(
                            "quiescence is not allowed: every candidate state expects an output ({})",
                            states.join("; ")
                        ));
                    }
                    Observed::Output(g, w) => {
                        trace.push(label(sys, &g, &w, "!"));
                        let fits = g == gate
                            && check_gate_value(sys, &g, Direction::Output, &w).is_ok()
                            && sys.enabled(&q, r, &w) == Ok(true);
                        if !fits {
                            return judge_other_output(sys, c, &gate, &g, &w);
                        }
                        eta = subst(&eta, &w);
                        if checker.sat(&defs, &eta) == SatResult::Unsat {
                            // conforming (the output is allowed here) but off the purpose
                            return PurposeVerdict::Inconclusive(format!(
                                "output {} is allowed but makes the purpose unreachable",
                                label(sys, &g, &w, "!")
                            ));
                        }
                        q = match sys.succ(&q, r, &w) {
                            Ok(q) => q,
                            Err(e) => {
                                return PurposeVerdict::Inconclusive(format!(
                                    "model error: {}",
                                    e.message
                                ))
                            }
                        };
                        *c = match step(sys, c, r.gate.unwrap(), &w) {
                            Ok(c) => c,
                            Err(e) => {
                                return PurposeVerdict::Inconclusive(format!("model error: {}", e))
                            }
                        };
                    }
                }
            }
        }
    }
    // extension: a purpose that ends with an input observes the response once more (the
    // faults of a switch's effect show in the next output; an allowed observation passes)
    if purpose
        .path
        .last()
        .is_some_and(|m| sys.direction(m) == Some(Direction::Input))
    {
        match sut.observe() {
            Err(e) => return sut_error(sys, checker, c, purpose.path.len(), e, trace),
            Ok(Observed::Malformed(why)) => {
                return PurposeVerdict::Fail(format!("malformed output: {}", why))
            }
            Ok(Observed::Output(g, w)) => {
                trace.push(label(sys, &g, &w, "!"));
                if let PurposeVerdict::Fail(why) =
                    judge_other_output(sys, c, "the end of the purpose", &g, &w)
                {
                    return PurposeVerdict::Fail(why);
                }
                let gi = sys.gate(&g).expect("a well-formed output");
                *c = step(sys, c, gi, &w).unwrap_or_default();
            }
            Ok(Observed::Quiescent) => {
                trace.push("δ".into());
                let n = purpose.path.len();
                let allowed = c.iter().any(|(cq, _)| {
                    !matches!(quiescence(sys, checker, cq, n), Quiescence::Active(_))
                });
                if !allowed {
                    let states: Vec<String> =
                        c.iter().take(4).map(|p| sys.describe(&p.0)).collect();
                    return PurposeVerdict::Fail(format!(
                        "quiescence is not allowed: every candidate state expects an output ({})",
                        states.join("; ")
                    ));
                }
                c.retain(|(cq, _)| {
                    !matches!(quiescence(sys, checker, cq, n), Quiescence::Active(_))
                });
            }
        }
    }
    PurposeVerdict::Pass {
        candidates: c.len(),
    }
}

/// Options of a switch-coverage run.
#[derive(Clone, Debug)]
pub struct CoverageOptions {
    /// SEG depth bound.
    pub depth: usize,
    /// SEG node budget.
    pub max_nodes: usize,
    /// How many times the whole purpose list is run (new values each round; stops at Fail).
    pub rounds: usize,
}

impl Default for CoverageOptions {
    fn default() -> Self {
        CoverageOptions {
            depth: 12,
            max_nodes: 50_000,
            rounds: 1,
        }
    }
}

/// A switch-coverage test run.
#[derive(Clone, Debug)]
pub struct CoverageReport {
    /// The selection (purposes, uncovered switches).
    pub selection: Selection,
    /// Per purpose execution: (index into the purposes, run).
    pub runs: Vec<(usize, PurposeRun)>,
    /// The first Fail, if any: (purpose index, explanation).
    pub fail: Option<(usize, String)>,
    /// Inputs, outputs and quiescence observations exchanged until the end (or the Fail).
    pub steps: usize,
    /// Names of all switches.
    pub switch_names: Vec<String>,
}

impl CoverageReport {
    fn covered(&self, liberal: bool) -> usize {
        let mut s: BTreeSet<SwitchId> = BTreeSet::new();
        for (i, r) in &self.runs {
            if let PurposeVerdict::Pass { candidates } = r.verdict {
                if liberal || candidates == 1 {
                    s.extend(self.selection.purposes[*i].switches());
                }
            }
        }
        s.len()
    }

    /// A posteriori coverage: switches of purposes that passed with `|C| = 1`.
    pub fn aposteriori(&self) -> f64 {
        ratio(self.covered(false), self.selection.total)
    }

    /// Liberal a posteriori coverage: switches of every passed purpose.
    pub fn aposteriori_liberal(&self) -> f64 {
        ratio(self.covered(true), self.selection.total)
    }
}

impl fmt::Display for CoverageReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (_, name, why) in &self.selection.uncovered {
            let why = match why {
                Uncovered::Unsatisfiable => "its guard is unsatisfiable".to_string(),
                Uncovered::Unreached => {
                    format!("not reached within depth {}", self.selection.depth)
                }
            };
            writeln!(f, "WARNING: switch not covered: {} ({})", name, why)?;
        }
        writeln!(
            f,
            "{} purposes, {} SEG states; a priori switch coverage {:.1}%, a posteriori {:.1}% (liberal {:.1}%)",
            self.selection.purposes.len(),
            self.selection.seg_nodes,
            100.0 * self.selection.apriori(),
            100.0 * self.aposteriori(),
            100.0 * self.aposteriori_liberal()
        )?;
        match &self.fail {
            Some((i, why)) => write!(
                f,
                "FAIL in purpose {} after {} steps:\n{}",
                i, self.steps, why
            ),
            None => write!(f, "no failure in {} steps", self.steps),
        }
    }
}

/// Selects purposes and runs them longest first, `rounds` times, until a Fail.
pub fn run_switch_coverage(
    sys: &System,
    checker: &mut Checker,
    picker: &mut Picker,
    sut: &mut dyn DataSut,
    opts: &CoverageOptions,
    rng: &mut ChaCha8Rng,
) -> CoverageReport {
    let selection = select_purposes(sys, checker, opts.depth, opts.max_nodes);
    let mut report = CoverageReport {
        switch_names: sys
            .switches()
            .into_iter()
            .map(|s| sys.switch_name(s))
            .collect(),
        selection,
        runs: Vec::new(),
        fail: None,
        steps: 0,
    };
    'rounds: for _ in 0..opts.rounds.max(1) {
        for i in 0..report.selection.purposes.len() {
            let run = run_purpose(
                sys,
                checker,
                picker,
                &report.selection.purposes[i],
                sut,
                rng,
            );
            report.steps += run.trace.len();
            let fail = match &run.verdict {
                PurposeVerdict::Fail(why) => Some(why.clone()),
                _ => None,
            };
            report.runs.push((i, run));
            if let Some(why) = fail {
                report.fail = Some((i, why));
                break 'rounds;
            }
        }
    }
    report
}
