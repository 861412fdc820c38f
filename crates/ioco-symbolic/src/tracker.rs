//! On-the-fly testing with data: the spec side of tutorial Alg. 2 (P1 §7.2) lifted to STSs
//! (thesis Def. 4.5–4.8 semantics, §4.7 quiescence remark), as a tracker.
//!
//! [`SymbolicSpec`] keeps the set `C` of **all** semantic states `(l, ϑ)` of `⟦S⟧` reachable by
//! the observed trace (every candidate when the model is nondeterministic), closed under τ
//! moves. Since the tester chooses every input value and observes every output value, these
//! states are concrete: `enab` and `succ` are plain evaluation, no solver call. The solver is
//! needed for two existential questions only:
//!
//! - **input choice**: is there `w̄` with `φ_r[ϑ](w̄)` for an input switch `r`, and which one
//!   ([`Checker::values`] with the diversity hints of [`crate::pick`]; models are pooled per
//!   question and reused, see [`Checker::values_pooled`]); for a guard outside the
//!   difference-logic fast path, [`crate::sample`] searches first, and a witness it finds
//!   (checked by evaluation) needs neither the satisfiability check nor a model;
//! - **quiescence** (thesis §4.7 / P2 L404, made precise here): a semantic state `q = (l, ϑ)`
//!   is *quiescent* iff no τ move is enabled in `q` and for every output move `r` from `l` the
//!   formula `∃ w̄. φ_r[ϑ](w̄)` is unsatisfiable. Since `ϑ` is concrete, this is one existential
//!   query per output switch (no quantifier alternation), memoised per `(r, ϑ)`. The solver
//!   answer classifies `q` as quiescent (all unsat), not quiescent (one sat, with a witness
//!   output), or unknown.
//!
//! Verdicts ([`Step`]): an output (or quiescence) that no candidate state allows is **Fail**,
//! with the violated guard conjuncts explained. An `unknown` solver answer never produces Fail
//! (TAP19 Thm. 19 / thesis Thm. 4.19): observed quiescence is Fail only if every candidate is
//! *provably* not quiescent; if none is provably quiescent but some are unknown, the verdict is
//! Inconclusive. Outputs are judged by evaluation alone, so they never depend on the solver.
//!
//! **Hidden steps with data.** A τ move on a hidden gate with parameters (DispatchProcess's
//! `hide Job2Proc in dispatcher |[Job2Proc]| processors`) leads from `q` to
//! `succ(q, m, w̄)` for *every* `w̄` with `φ_m[ϑ](w̄)`. The candidate set must hold all of them,
//! so [`hidden_outcomes`] enumerates them: when every parameter is fixed by an equality with
//! an expression over the variables (`h!(=x)`), by evaluation; otherwise with the solver — a
//! model, then a blocking clause, until unsat. The blocking clause says "another successor":
//! it is over the *assigned terms* that read parameters ([`System::assigned_at`]), not over
//! the parameters, so a hidden value that no variable keeps (`h!(y)` with `y` only in the
//! guard) gives one successor, however many values it has. Each model is re-checked by the IR
//! evaluator. The tracker never under-approximates: if the solver answers *unknown*, or there
//! are more than [`MAX_HIDDEN_OUTCOMES`] successors of one move from one state, the step is
//! an error naming the switch, the gate and the bound, which the caller turns into an
//! Inconclusive (never Pass, never Fail). Enumerations are memoised per question. For
//! quiescence, a τ move with parameters is enabled iff `∃ w̄. φ_m[ϑ](w̄)` (with a witness
//! re-checked by evaluation), one query like an output's; unknown counts as "maybe enabled".
//!
//! **Multi-actions.** A visible step that hidden gates take part in (DisPro12's dispatcher:
//! `Acquire ? jobid | Job ? job [[ jobId(job) == jobid ]]` with `Acquire` hidden) is the
//! visible action: its label is the visible gate's values; the hidden parameters are
//! existentially quantified. After the visible values are observed or given, the successors
//! are enumerated exactly as for a hidden step ([`hidden_outcomes`] with the visible values
//! known; `jobId(job) == jobid` fixes the hidden value by evaluation), with the same bound and
//! the same Inconclusive; the move is enabled (input choice, quiescence) iff some values of all
//! its parameters satisfy the guards.
//! A simulated system ([`crate::online::SpecSut`], [`SymbolicSpec::simulate_step`]) keeps the
//! same τ-closed set, so it takes these steps too: its next output is drawn (with its seeded
//! generator) from any state the hidden steps reach.

use crate::pick::{Picker, Strategy};
use crate::sample;
use crate::solver::{Checker, SatResult, Solver};
use crate::system::{Move, State, System};
use crate::term::{value_in_type, SymVar, Term, T};
use ioco_lang::ir::{Direction, Spec, Value};
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// Most successors of one hidden step with data (one τ move with parameters from one state)
/// that the tracker follows; beyond it, the step cannot be tracked exactly and testing stops
/// with Inconclusive (see the module documentation).
pub const MAX_HIDDEN_OUTCOMES: usize = 64;

/// Memo of [`hidden_outcomes`]: (guard instance, parameters, assigned terms) to the witnesses.
pub type HiddenMemo = HashMap<(T, Vec<SymVar>, Vec<T>), Result<Vec<Vec<Value>>, String>>;

/// Most memoised hidden-step enumerations (the table is cleared when full).
const HIDDEN_MEMO_LIMIT: usize = 100_000;

/// How many of the picker's hints input sampling tries (each conjoined to the guard) before it
/// samples the guard alone.
const HINTS_SAMPLED: usize = 3;

/// The outcome of an observation or a stimulus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Allowed by the spec; testing can go on.
    Ok,
    /// Not allowed: a non-conformance, explained.
    Fail(String),
    /// Cannot be judged (solver unknown, model error, input outside the spec); the reason.
    Inconclusive(String),
}

/// Whether a state is quiescent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Quiescence {
    /// No output and no τ is possible.
    Quiescent,
    /// This output (gate and values) or τ (`None`) is possible.
    Active(Option<(String, Vec<Value>)>),
    /// The solver could not decide; the reason.
    Unknown(String),
}

/// The online tracker (see the module documentation).
pub struct SymbolicSpec {
    /// The flattened spec.
    pub sys: System,
    /// The solver with its memo table.
    pub checker: Checker,
    /// Input value selection.
    pub picker: Picker,
    states: Vec<State>,
    steps: usize,
    /// Bound on the candidate set (τ-closure included); exceeding it is an Inconclusive.
    pub max_states: usize,
    hidden: HiddenMemo,
    /// The values last found by sampling, per variable list (where the next search may
    /// start, [`sample::sample`]).
    last_sampled: HashMap<Vec<SymVar>, Vec<Value>>,
}

impl SymbolicSpec {
    /// A tracker for a spec with a solver.
    pub fn new(spec: Arc<Spec>, solver: Box<dyn Solver>) -> Result<SymbolicSpec, String> {
        let sys = System::new(spec)?;
        let mut t = SymbolicSpec {
            sys,
            checker: Checker::new(solver),
            picker: Picker::default(),
            states: Vec::new(),
            steps: 0,
            max_states: 10_000,
            hidden: HiddenMemo::new(),
            last_sampled: HashMap::new(),
        };
        t.reset()?;
        Ok(t)
    }

    /// A tracker with the Z3 back end. `Err` when Z3 cannot be set up for the spec's data
    /// types (see [`crate::z3solver::Z3Solver::try_new`]).
    #[cfg(feature = "z3")]
    pub fn with_z3(spec: Arc<Spec>) -> Result<SymbolicSpec, String> {
        let defs = spec.defs.clone();
        let solver = crate::z3solver::Z3Solver::try_new(defs)?;
        SymbolicSpec::new(spec, Box::new(solver))
    }

    /// Back to the initial state.
    pub fn reset(&mut self) -> Result<(), String> {
        self.steps = 0;
        self.states = self.closure(vec![self.sys.initial()])?;
        Ok(())
    }

    /// The current candidate states (τ-closed, sorted).
    pub fn states(&self) -> &[State] {
        &self.states
    }

    /// Inputs and outputs processed since the reset.
    pub fn steps(&self) -> usize {
        self.steps
    }

    fn closure(&mut self, start: Vec<State>) -> Result<Vec<State>, String> {
        let mut seen: BTreeSet<State> = BTreeSet::new();
        let mut stack = start;
        while let Some(q) = stack.pop() {
            if seen.contains(&q) {
                continue;
            }
            let moves = self.sys.moves(&q.locs);
            for m in moves.iter().filter(|m| m.gate.is_none()) {
                stack.extend(self.tau_successors(&q, m)?);
            }
            seen.insert(q);
            if seen.len() > self.max_states {
                return Err(format!(
                    "more than {} states reachable by τ steps (divergence with data?)",
                    self.max_states
                ));
            }
        }
        Ok(seen.into_iter().collect())
    }

    /// The successors of `q` by the τ move `m`: at most one without parameters, one per
    /// outcome of a hidden step with data ([`hidden_outcomes`]). `Err` on a model error, or
    /// when a hidden step cannot be followed exactly.
    pub fn tau_successors(&mut self, q: &State, m: &Move) -> Result<Vec<State>, String> {
        let ws = if self.sys.param_types(m).is_empty() {
            let on = self
                .sys
                .enabled(q, m, &[])
                .map_err(|e| self.model_error(&e.message, m))?;
            if on {
                vec![Vec::new()]
            } else {
                Vec::new()
            }
        } else {
            hidden_outcomes(&self.sys, &mut self.checker, &mut self.hidden, q, m, &[])?
        };
        ws.iter()
            .map(|w| {
                self.sys
                    .succ(q, m, w)
                    .map_err(|e| self.model_error(&e.message, m))
            })
            .collect()
    }

    fn model_error(&self, msg: &str, m: &Move) -> String {
        format!(
            "model error in `{}`: {}",
            self.sys.switch_name(m.parts[0]),
            msg
        )
    }

    fn check_values(&self, gate: &str, dir: Direction, values: &[Value]) -> Result<u32, String> {
        check_gate_value(&self.sys, gate, dir, values)
    }

    fn label(&self, gate: &str, values: &[Value]) -> String {
        self.sys.label(gate, values, "")
    }

    /// Successors of every candidate by a gate value; `Err` on a model error.
    fn advance(&mut self, g: u32, values: &[Value]) -> Result<Vec<State>, String> {
        let mut next = Vec::new();
        let states = std::mem::take(&mut self.states);
        let r = self.advance_from(&states, g, values, &mut next);
        self.states = states;
        r?;
        self.closure(next)
    }

    fn advance_from(
        &mut self,
        states: &[State],
        g: u32,
        values: &[Value],
        next: &mut Vec<State>,
    ) -> Result<(), String> {
        for q in states {
            for m in self.sys.moves(&q.locs).iter().filter(|m| m.gate == Some(g)) {
                if self.sys.has_hidden_params(m) {
                    // a multi-action with hidden gates: every successor, for every value of
                    // the hidden parameters its guards allow with these visible values
                    let ws = hidden_outcomes(
                        &self.sys,
                        &mut self.checker,
                        &mut self.hidden,
                        q,
                        m,
                        values,
                    )?;
                    for w in ws {
                        next.push(
                            self.sys
                                .succ(q, m, &w)
                                .map_err(|e| self.model_error(&e.message, m))?,
                        );
                    }
                    continue;
                }
                if self
                    .sys
                    .enabled(q, m, values)
                    .map_err(|e| self.model_error(&e.message, m))?
                {
                    next.push(
                        self.sys
                            .succ(q, m, values)
                            .map_err(|e| self.model_error(&e.message, m))?,
                    );
                }
            }
        }
        Ok(())
    }

    /// Chooses an input enabled in some candidate state, with values from the picker. `None`
    /// when no input is (provably or possibly) enabled.
    pub fn choose_input(&mut self, rng: &mut ChaCha8Rng) -> Option<(String, Vec<Value>)> {
        self.choose_input_on(None, rng)
    }

    /// [`SymbolicSpec::choose_input`] on the gate named `gate` only (any gate: `None`).
    pub fn choose_input_on(
        &mut self,
        gate: Option<&str>,
        rng: &mut ChaCha8Rng,
    ) -> Option<(String, Vec<Value>)> {
        let mut cands: Vec<(usize, Move)> = Vec::new();
        for (i, q) in self.states.iter().enumerate() {
            for m in self.sys.moves(&q.locs).iter() {
                if self.sys.direction(m) == Some(Direction::Input)
                    && self.on_gate(m, gate)
                    && !cands.iter().any(|(j, m2)| m2 == m && self.states[*j] == *q)
                {
                    cands.push((i, m.clone()));
                }
            }
        }
        cands.shuffle(rng);
        for (i, m) in cands {
            let q = &self.states[i];
            let vis = self.sys.visible_arity(&m);
            if let Some(mut vals) = self.sys.forced_params(q, &m) {
                if self.sys.enabled(q, &m, &vals) == Ok(true) {
                    let gate = self.sys.move_gate_name(&m).to_string();
                    vals.truncate(vis);
                    return Some((gate, vals));
                }
                continue;
            }
            let vars = self.sys.param_vars(&m, 0);
            let params: Vec<T> = vars.iter().cloned().map(Term::sym).collect();
            let phi = self.sys.guard_at(q, &m, &params);
            if let Some(vals) = self.pick_values(&phi, &vars, rng) {
                // the model must satisfy the guard under the IR's own semantics
                if self.sys.enabled(&self.states[i], &m, &vals) == Ok(true) {
                    let gate = self.sys.move_gate_name(&m).to_string();
                    // the hidden parameters' values are the spec's business, not the label's
                    let mut vals = vals;
                    vals.truncate(vis);
                    return Some((gate, vals));
                }
            }
        }
        None
    }

    /// The tester sent this input.
    pub fn after_input(&mut self, gate: &str, values: &[Value]) -> Step {
        let g = match self.check_values(gate, Direction::Input, values) {
            Ok(g) => g,
            Err(e) => return Step::Inconclusive(e),
        };
        match self.advance(g, values) {
            Err(e) => Step::Inconclusive(e),
            Ok(next) if next.is_empty() => Step::Inconclusive(format!(
                "input {} is not specified in the current state(s) {}: the spec says nothing after it",
                self.label(gate, values),
                self.describe_states()
            )),
            Ok(next) => {
                self.states = next;
                self.steps += 1;
                Step::Ok
            }
        }
    }

    /// The system produced this output.
    pub fn after_output(&mut self, gate: &str, values: &[Value]) -> Step {
        let g = match self.check_values(gate, Direction::Output, values) {
            Ok(g) => g,
            Err(e) => {
                return Step::Fail(format!(
                    "output {} is malformed: {}",
                    self.label(gate, values),
                    e
                ))
            }
        };
        match self.advance(g, values) {
            Err(e) => Step::Inconclusive(e),
            Ok(next) if next.is_empty() => Step::Fail(self.explain_output(g, gate, values)),
            Ok(next) => {
                self.states = next;
                self.steps += 1;
                Step::Ok
            }
        }
    }

    fn describe_states(&self) -> String {
        let ds: Vec<String> = self
            .states
            .iter()
            .take(5)
            .map(|q| self.sys.describe(q))
            .collect();
        let more = if self.states.len() > 5 {
            format!(" and {} more", self.states.len() - 5)
        } else {
            String::new()
        };
        format!("{{{}}}{}", ds.join("; "), more)
    }

    fn explain_output(&self, g: u32, gate: &str, values: &[Value]) -> String {
        let mut lines = vec![format!(
            "output {} is not allowed after {} step(s) in {}",
            self.label(gate, values),
            self.steps,
            self.describe_states()
        )];
        for q in &self.states {
            let moves: Vec<Move> = self
                .sys
                .moves(&q.locs)
                .iter()
                .filter(|m| m.gate == Some(g))
                .cloned()
                .collect();
            if moves.is_empty() {
                let outs: BTreeSet<String> = self
                    .sys
                    .moves(&q.locs)
                    .iter()
                    .filter(|m| self.sys.direction(m) == Some(Direction::Output))
                    .map(|m| self.sys.move_gate_name(m).to_string())
                    .collect();
                lines.push(format!(
                    "  in {}: no `{}` switch; output gates there: {}",
                    self.sys.describe(q),
                    gate,
                    if outs.is_empty() {
                        "none (quiescent)".to_string()
                    } else {
                        outs.into_iter().collect::<Vec<_>>().join(", ")
                    }
                ));
            }
            for m in moves {
                if self.sys.has_hidden_params(&m) {
                    let why = match self.sys.forced_with(q, &m, values) {
                        Some(w) => self.sys.explain(q, &m, &w),
                        None => "no values of the hidden gates' parameters satisfy the guards"
                            .to_string(),
                    };
                    lines.push(format!(
                        "  in {}: multi-action `{}` violated: {}",
                        self.sys.describe(q),
                        self.sys.multi_name(&m),
                        why
                    ));
                    continue;
                }
                lines.push(format!(
                    "  in {}: `{}` violated: {}",
                    self.sys.describe(q),
                    self.sys.switch_name(m.parts[0]),
                    self.sys.explain(q, &m, values)
                ));
            }
        }
        lines.join("\n")
    }

    /// Is this state quiescent? (see the module documentation)
    pub fn quiescence(&mut self, q: &State) -> Quiescence {
        quiescence(&self.sys, &mut self.checker, q, self.steps)
    }

    /// The system was observed quiescent (no output within the time-out).
    pub fn after_quiescence(&mut self) -> Step {
        let states = self.states.clone();
        let mut keep = Vec::new();
        let mut unknown = Vec::new();
        let mut active = Vec::new();
        for q in states {
            match self.quiescence(&q) {
                Quiescence::Quiescent => keep.push(q),
                Quiescence::Unknown(r) => unknown.push((q, r)),
                Quiescence::Active(w) => active.push((q, w)),
            }
        }
        if !keep.is_empty() {
            // states whose quiescence is unknown may be quiescent too: keep them (soundness)
            keep.extend(unknown.into_iter().map(|(q, _)| q));
            keep.sort();
            self.states = keep;
            self.steps += 1;
            return Step::Ok;
        }
        if let Some((q, r)) = unknown.first() {
            return Step::Inconclusive(format!(
                "quiescence observed; the solver cannot decide whether {} is quiescent: {}",
                self.sys.describe(q),
                r
            ));
        }
        let mut lines = vec![format!(
            "quiescence is not allowed after {} step(s): every state expects an output",
            self.steps
        )];
        for (q, w) in active {
            let what = match w {
                None => "an internal step".to_string(),
                Some((g, vals)) => format!("e.g. {}", self.label(&g, &vals)),
            };
            lines.push(format!("  in {}: {}", self.sys.describe(&q), what));
        }
        Step::Fail(lines.join("\n"))
    }

    /// One step of a random walk through the spec (TorXakis's `stepper`): an enabled input or
    /// output with values from the picker, applied to the tracker. Returns the label, `None`
    /// when nothing is enabled (or the solver cannot find values).
    pub fn simulate_step(&mut self, rng: &mut ChaCha8Rng) -> Option<String> {
        use rand::Rng;
        let input_first: bool = rng.random();
        for k in 0..2 {
            let pick = if (k == 0) == input_first {
                self.choose_input(rng).map(|(g, w)| (g, w, true))
            } else {
                self.choose_output(rng).map(|(g, w)| (g, w, false))
            };
            if let Some((g, w, is_input)) = pick {
                let r = if is_input {
                    self.after_input(&g, &w)
                } else {
                    self.after_output(&g, &w)
                };
                if r == Step::Ok {
                    let mark = if is_input { "?" } else { "!" };
                    return Some(self.sys.label(&g, &w, mark));
                }
            }
        }
        None
    }

    /// Output gates possible in some candidate state (for diagnostics and simulators).
    pub fn allowed_output_gates(&self) -> Vec<String> {
        let mut out = BTreeSet::new();
        for q in &self.states {
            for m in self.sys.moves(&q.locs).iter() {
                if self.sys.direction(m) == Some(Direction::Output) {
                    out.insert(self.sys.move_gate_name(m).to_string());
                }
            }
        }
        out.into_iter().collect()
    }

    /// Values for `vars` that satisfy `phi` (a move's guard at a concrete state), `None` when
    /// it is unsatisfiable, unknown, or no values were found. The order of the ways:
    ///
    /// 1. without the solver, whether `phi` is satisfiable ([`Checker::sat_without_solver`]:
    ///    constants, the memo table, difference logic); if the fast path of difference logic
    ///    decides it, it also chooses the values ([`Checker::values_pooled`], as always);
    /// 2. else sampling ([`crate::sample`], its values pooled as the solver's are,
    ///    [`Checker::pooled`]): a value found is a witness, checked by
    ///    evaluation, so no satisfiability check is needed (not with the [`Strategy::Model`]
    ///    strategy, which asks for the solver's model, nor when the checker's fast paths are
    ///    off);
    /// 3. else the solver's satisfiability check (if not known), then
    ///    [`Checker::values_pooled`] with the picker's hints.
    fn pick_values(
        &mut self,
        phi: &T,
        vars: &[SymVar],
        rng: &mut ChaCha8Rng,
    ) -> Option<Vec<Value>> {
        let defs = &self.sys.spec.defs;
        let known = self.checker.sat_without_solver(defs, phi);
        match &known {
            Some((SatResult::Sat, _)) | None => {}
            Some(_) => return None,
        }
        let fast = matches!(known, Some((_, true)));
        if !fast && self.checker.quick && self.picker.strategy != Strategy::Model {
            // pooled as the solver's models are: reuse repeats values, as before
            let last = self.last_sampled.get(vars).map(Vec::as_slice);
            let picker = &mut self.picker;
            let found = self.checker.pooled(phi, vars, rng, |ck, rng| {
                // the picker's strategy shapes sampled values as it shapes the solver's: its
                // hints (a sign, a region, a boundary, …) are tried first, each conjoined to
                // the guard, so a value found still satisfies the guard
                let hints = picker.hints(defs, phi, vars, rng);
                let w = hints
                    .into_iter()
                    .take(HINTS_SAMPLED)
                    .find_map(|h| {
                        let guided = Term::and(phi.clone(), h);
                        sample::sample(defs, &guided, vars, last, rng)
                    })
                    .or_else(|| sample::sample(defs, phi, vars, last, rng));
                if w.is_some() {
                    ck.witnessed(phi);
                }
                w.ok_or_else(|| SatResult::Unknown("sampling gave up".into()))
            });
            if let Ok(vals) = found {
                if self.last_sampled.len() >= 1024 {
                    self.last_sampled.clear();
                }
                self.last_sampled.insert(vars.to_vec(), vals.clone());
                return Some(vals);
            }
        }
        if known.is_none() && self.checker.sat_by_solver(defs, phi) != SatResult::Sat {
            return None;
        }
        if vars.is_empty() {
            return Some(Vec::new());
        }
        let picker = &mut self.picker;
        self.checker
            .values_pooled(defs, phi, vars, rng, |rng| {
                picker.hints(defs, phi, vars, rng)
            })
            .ok()
    }

    /// Chooses an output enabled in some candidate state (for simulating the spec as an SUT).
    pub fn choose_output(&mut self, rng: &mut ChaCha8Rng) -> Option<(String, Vec<Value>)> {
        self.choose_output_on(None, rng)
    }

    /// Whether move `m` is on the gate named `gate` (always, for `None`).
    fn on_gate(&self, m: &Move, gate: Option<&str>) -> bool {
        gate.is_none_or(|g| m.gate.is_some_and(|i| self.sys.gate(g) == Some(i)))
    }

    /// [`SymbolicSpec::choose_output`] on the gate named `gate` only (any gate: `None`).
    pub fn choose_output_on(
        &mut self,
        gate: Option<&str>,
        rng: &mut ChaCha8Rng,
    ) -> Option<(String, Vec<Value>)> {
        let mut cands: Vec<(usize, Move)> = Vec::new();
        for (i, q) in self.states.iter().enumerate() {
            for m in self.sys.moves(&q.locs).iter() {
                if self.sys.direction(m) == Some(Direction::Output) && self.on_gate(m, gate) {
                    cands.push((i, m.clone()));
                }
            }
        }
        cands.shuffle(rng);
        for (i, m) in cands {
            let q = self.states[i].clone();
            let vis = self.sys.visible_arity(&m);
            if let Some(mut vals) = self.sys.forced_params(&q, &m) {
                if self.sys.enabled(&q, &m, &vals) == Ok(true) {
                    vals.truncate(vis);
                    return Some((self.sys.move_gate_name(&m).to_string(), vals));
                }
                continue;
            }
            let vars = self.sys.param_vars(&m, 0);
            let params: Vec<T> = vars.iter().cloned().map(Term::sym).collect();
            let phi = self.sys.guard_at(&q, &m, &params);
            if let Some(mut vals) = self.pick_values(&phi, &vars, rng) {
                if self.sys.enabled(&q, &m, &vals) == Ok(true) {
                    vals.truncate(vis);
                    return Some((self.sys.move_gate_name(&m).to_string(), vals));
                }
            }
        }
        None
    }
}

/// Is the concrete state `q` quiescent (see the module documentation)? The existential
/// queries name their parameters `name@0` whatever the step (`step` is kept for callers), so
/// the same question at the same concrete state hits the memo table.
pub fn quiescence(sys: &System, checker: &mut Checker, q: &State, _step: usize) -> Quiescence {
    let mut unknown: Option<String> = None;
    let moves = sys.moves(&q.locs);
    for m in moves.iter() {
        match sys.direction(m) {
            None if sys.param_types(m).is_empty() => match sys.enabled(q, m, &[]) {
                Ok(true) => return Quiescence::Active(None),
                Ok(false) => {}
                Err(e) => unknown = Some(e.message),
            },
            // a hidden step with data: enabled iff some parameter values satisfy the guards
            None => match some_values(sys, checker, q, m, true) {
                Ok(Some(_)) => return Quiescence::Active(None),
                Ok(None) => {}
                Err(r) => unknown = Some(r),
            },
            Some(Direction::Output) => match some_values(sys, checker, q, m, false) {
                Ok(Some(mut w)) => {
                    w.truncate(sys.visible_arity(m));
                    let gate = sys.move_gate_name(m).to_string();
                    return Quiescence::Active(Some((gate, w)));
                }
                Ok(None) => {}
                Err(r) => unknown = Some(r),
            },
            Some(Direction::Input) => {}
        }
    }
    match unknown {
        Some(r) => Quiescence::Unknown(r),
        None => Quiescence::Quiescent,
    }
}

/// Some parameter values that enable `m` in `q` under the IR's semantics: `Ok(Some(w̄))`,
/// `Ok(None)` when provably none does, `Err(reason)` when it cannot be decided (solver
/// *unknown*, a witness the IR evaluator rejects, a model error). With `in_types`, values
/// fixed by equalities must also lie in the parameters' types (the solver's domain
/// constraints say the same of its models).
fn some_values(
    sys: &System,
    checker: &mut Checker,
    q: &State,
    m: &Move,
    in_types: bool,
) -> Result<Option<Vec<Value>>, String> {
    if let Some(vals) = sys.forced_params(q, m) {
        if in_types && !in_param_types(sys, m, &vals) {
            return Ok(None);
        }
        return match sys.enabled(q, m, &vals) {
            Ok(true) => Ok(Some(vals)),
            Ok(false) => Ok(None),
            Err(e) => Err(e.message),
        };
    }
    let vars = sys.param_vars(m, 0);
    let params: Vec<T> = vars.iter().cloned().map(Term::sym).collect();
    let phi = sys.guard_at(q, m, &params);
    match checker.sat(&sys.spec.defs, &phi) {
        SatResult::Unsat => Ok(None),
        SatResult::Sat => {
            // the solver's witness must enable the switch under the IR's semantics (in
            // SMT-LIB `x / 0` is some number and integers do not overflow; in the IR both are
            // evaluation errors): only then is the move enabled
            let w = if vars.is_empty() {
                Ok(Vec::new())
            } else {
                checker.values(&sys.spec.defs, &phi, &vars, &[])
            };
            let why = match w {
                Ok(w) => match sys.enabled(q, m, &w) {
                    Ok(true) => return Ok(Some(w)),
                    Ok(false) => "the solver's witness does not satisfy the guard".into(),
                    Err(e) => format!("the solver's witness: {}", e.message),
                },
                Err(r) => format!("no witness: {:?}", r),
            };
            Err(format!("`{}`: {}", sys.switch_name(m.parts[0]), why))
        }
        SatResult::Unknown(r) => Err(format!("`{}`: {}", sys.switch_name(m.parts[0]), r)),
    }
}

fn in_param_types(sys: &System, m: &Move, vals: &[Value]) -> bool {
    let types = sys.param_types(m);
    vals.iter()
        .zip(&types)
        .all(|(v, t)| value_in_type(&sys.spec.defs, *t, v))
}

/// The outcomes of a hidden step with data (a τ move `m` with parameters) from `q`: parameter
/// vectors, one per distinct successor state, that together reach every successor
/// `succ(q, m, w̄)` with `φ_m[ϑ](w̄)` (see the module documentation). Empty when the move is
/// not enabled. `Err` — never a partial answer — when the successors cannot all be found: the
/// solver answers *unknown*, a model fails the IR evaluator, a model error, or more than
/// [`MAX_HIDDEN_OUTCOMES`] successors. Memoised in `memo`.
///
/// `known` fixes the first parameters: the values of the visible gate of a multi-action with
/// hidden gates (module documentation, "Multi-actions"); the outcomes are then the full
/// parameter vectors (`known` followed by hidden values). Empty for a τ move.
pub fn hidden_outcomes(
    sys: &System,
    checker: &mut Checker,
    memo: &mut HiddenMemo,
    q: &State,
    m: &Move,
    known: &[Value],
) -> Result<Vec<Vec<Value>>, String> {
    let defs = &sys.spec.defs;
    let err = |why: String| {
        if known.is_empty() {
            format!(
                "hidden step `{}` (hidden gate `{}`) in {}: {}",
                sys.switch_name(m.parts[0]),
                sys.local_gate_name(m),
                sys.describe(q),
                why
            )
        } else {
            format!(
                "multi-action `{}` with hidden gates, on {}, in {}: {}",
                sys.multi_name(m),
                sys.label(sys.move_gate_name(m), known, ""),
                sys.describe(q),
                why
            )
        }
    };
    // the cheap path: every parameter fixed by an equality (`h!(=x)`)
    if let Some(w) = sys.forced_with(q, m, known) {
        if !in_param_types(sys, m, &w) {
            return Ok(Vec::new());
        }
        return match sys.enabled(q, m, &w) {
            Ok(true) => Ok(vec![w]),
            Ok(false) => Ok(Vec::new()),
            Err(e) => Err(err(format!("model error: {}", e.message))),
        };
    }
    let all = sys.param_vars(m, 0);
    let vars: Vec<SymVar> = all[known.len()..].to_vec();
    let params: Vec<T> = known
        .iter()
        .map(|v| Term::val(v.clone()))
        .chain(vars.iter().cloned().map(Term::sym))
        .collect();
    let phi = sys.guard_at(q, m, &params);
    let targets = sys.assigned_at(q, m, &params);
    let key = (
        phi.clone(),
        vars.clone(),
        targets.iter().map(|t| t.2.clone()).collect::<Vec<T>>(),
    );
    if let Some(r) = memo.get(&key) {
        return r.clone();
    }
    let mut found: Vec<Vec<Value>> = Vec::new();
    let mut cur = phi;
    // each round finds a new successor or ends: at most MAX_HIDDEN_OUTCOMES + 1 rounds
    let r = loop {
        if cur.as_const() == Some(&Value::Bool(false)) {
            break Ok(found);
        }
        let w = match checker.values(defs, &cur, &vars, &[]) {
            Ok(h) => known.iter().cloned().chain(h).collect::<Vec<Value>>(),
            Err(SatResult::Unsat) => break Ok(found),
            Err(SatResult::Unknown(r)) => {
                break Err(err(format!(
                    "the solver cannot enumerate the values of the hidden parameters ({r}), \
                     so the step cannot be followed exactly"
                )))
            }
            Err(SatResult::Sat) => {
                break Err(err(
                    "the solver gave no values for the hidden parameters".into()
                ))
            }
        };
        let label = ioco_lang::semantics::label_name(defs, &sys.local_gate_name(m), &w);
        match sys.enabled(q, m, &w) {
            Ok(true) => {}
            Ok(false) => {
                break Err(err(format!(
                    "the solver's values {label} do not satisfy the guard under the model's \
                     semantics, so the step cannot be followed exactly"
                )))
            }
            Err(e) => break Err(err(format!("model error with {label}: {}", e.message))),
        }
        let next = match sys.succ(q, m, &w) {
            Ok(n) => n,
            Err(e) => break Err(err(format!("model error with {label}: {}", e.message))),
        };
        if found.len() == MAX_HIDDEN_OUTCOMES {
            break Err(err(format!(
                "more than {MAX_HIDDEN_OUTCOMES} parameter values leading to different states \
                 (e.g. {label}); the tracker follows at most {MAX_HIDDEN_OUTCOMES} \
                 (MAX_HIDDEN_OUTCOMES) exactly and never a part of them (hint: bound the hidden \
                 values with a guard or a range type, or test without hiding the gate)"
            )));
        }
        found.push(w);
        // another successor: some assigned term differs from this model's value
        let same = Term::and_all(
            targets
                .iter()
                .map(|(a, v, t)| Term::eq(t.clone(), Term::val(next.vars[*a][*v].clone()))),
        );
        cur = Term::and(cur, Term::negate(same));
    };
    if memo.len() >= HIDDEN_MEMO_LIMIT {
        memo.clear();
    }
    memo.insert(key, r.clone());
    r
}

/// Checks that a gate value is well formed: the gate exists with this direction, the values
/// have its sorts. Returns the gate index.
pub fn check_gate_value(
    sys: &System,
    gate: &str,
    dir: Direction,
    values: &[Value],
) -> Result<u32, String> {
    let Some(g) = sys.gate(gate) else {
        let known: Vec<&str> = sys.gates().iter().map(|g| g.name.as_str()).collect();
        return Err(format!(
            "`{}` is not a gate of the spec (gates: {})",
            gate,
            known.join(", ")
        ));
    };
    let decl = &sys.gates()[g as usize];
    if decl.dir != dir {
        return Err(
            format!("`{}` is an {:?} gate, not an {:?}", gate, decl.dir, dir).to_lowercase(),
        );
    }
    if decl.params.len() != values.len() {
        return Err(format!(
            "`{}` takes {} parameter(s), got {}",
            gate,
            decl.params.len(),
            values.len()
        ));
    }
    for ((name, ty), v) in decl.params.iter().zip(values) {
        if !value_in_type(&sys.spec.defs, *ty, v) {
            return Err(format!(
                "value {} of parameter `{}` of `{}` is not of type {}",
                v.display(&sys.spec.defs),
                name,
                gate,
                sys.spec.defs.type_name(*ty)
            ));
        }
    }
    Ok(g)
}
