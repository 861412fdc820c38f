//! Online execution of a symbolic test graph against a system with data (seed 004 §5,
//! L850-877; notes §B2.3): the tester's state is concrete (the product location and the values
//! of all variables), outputs are judged, inputs are **controlled**: their values are chosen
//! inside the strengthened guard `G ∧ K_t` (the abstract value bounds each parameter; every
//! candidate is checked against the exact guards of the specification and the purpose).
//!
//! Verdicts:
//! * **Fail** only from the conformance oracle of `ioco-symbolic` ([`SymbolicSpec`]: an output
//!   or quiescence the specification does not allow, judged by the solver); the steering never
//!   gives Fail on its own, so it is as sound as the oracle;
//! * **Pass** when the product reaches an accept location;
//! * **Inconclusive** at a refuse location, when an output leaves `coreach^α` (rule Inconc of
//!   Table 3), when no input keeps accept reachable and the system stays quiescent, at the
//!   step bound, or when the concrete tracking is ambiguous (the paper assumes deterministic
//!   specifications: two switches enabled by one event end the run without a verdict).

use crate::domain::Domain;
use crate::select::TestGraph;
use ioco_lang::ir::{Automaton, Defs, Direction, Env, Value};
use ioco_lang::Model;
use ioco_symbolic::online::{label, DataSut, GateValue, Observed, Sent, SutError, Verdict};
use ioco_symbolic::{Step, SymbolicSpec};

/// The concrete state of the tester.
struct Tracker<'a, D> {
    g: &'a TestGraph<D>,
    a: &'a Automaton,
    b: &'a Automaton,
    defs: &'a Defs,
    loc: usize,
    avals: Vec<Value>,
    bvals: Vec<Value>,
}

impl<D: Domain> Tracker<'_, D> {
    fn purpose_env_vars(&self) -> Vec<Value> {
        self.bvals
            .iter()
            .enumerate()
            .map(
                |(i, v)| match self.g.product.observes.get(i).copied().flatten() {
                    Some(j) => self.avals[j].clone(),
                    None => v.clone(),
                },
            )
            .collect()
    }

    fn holds(&self, e: &ioco_lang::ir::Expr, vars: &[Value], params: &[Value]) -> bool {
        let env = Env {
            vars,
            params,
            locals: &[],
        };
        self.defs.eval(e, &env).ok().and_then(|v| v.as_bool()) == Some(true)
    }

    /// The product transitions from the current location that `gate(args)` fires.
    fn matching(&self, gate: &str, args: &[Value]) -> Vec<usize> {
        let p = &self.g.product;
        let bvars = self.purpose_env_vars();
        let pl = p.locations[self.loc].purpose;
        p.transitions_on(self.loc, gate)
            .into_iter()
            .filter(|&t| {
                let tr = &p.transitions[t];
                let s = &self.a.switches[tr.spec_switch];
                if !self.holds(&s.guard, &self.avals, args) {
                    return false;
                }
                match tr.purpose_switch {
                    Some(k) => self.holds(&self.b.switches[k].guard, &bvars, args),
                    None => !self.b.switches.iter().any(|s| {
                        s.from == pl
                            && s.gate
                                .is_some_and(|h| self.b.gates[h as usize].name == gate)
                            && self.holds(&s.guard, &bvars, args)
                    }),
                }
            })
            .collect()
    }

    /// The abstract point of the current variables and `args`.
    fn point(&self, args: &[Value]) -> Option<Vec<i64>> {
        let p = &self.g.product;
        let mut pt = vec![0; p.num_dims()];
        for (i, d) in p.spec_var_dims.iter().enumerate() {
            if let Some(d) = d {
                pt[*d] = self.avals[i].as_int()?;
            }
        }
        for (i, d) in p.purpose_var_dims.iter().enumerate() {
            if let (Some(d), None) = (d, p.observes.get(i).copied().flatten()) {
                pt[*d] = self.bvals[i].as_int()?;
            }
        }
        for (i, v) in args.iter().enumerate() {
            if let Some(x) = v.as_int() {
                pt[p.param_dim(i)] = x;
            }
        }
        Some(pt)
    }

    /// Fire transition `t` with `args`.
    fn fire(&mut self, t: usize, args: &[Value]) -> Result<(), String> {
        let tr = &self.g.product.transitions[t];
        let env_a = Env {
            vars: &self.avals,
            params: args,
            locals: &[],
        };
        let mut na = self.avals.clone();
        for (v, e) in &self.a.switches[tr.spec_switch].assign {
            na[*v as usize] = self.defs.eval(e, &env_a).map_err(|e| e.message)?;
        }
        if let Some(k) = tr.purpose_switch {
            let bvars = self.purpose_env_vars();
            let env_b = Env {
                vars: &bvars,
                params: args,
                locals: &[],
            };
            let mut nb = self.bvals.clone();
            for (v, e) in &self.b.switches[k].assign {
                nb[*v as usize] = self.defs.eval(e, &env_b).map_err(|e| e.message)?;
            }
            self.bvals = nb;
        }
        self.avals = na;
        self.loc = tr.to;
        Ok(())
    }

    /// An input transition and its values inside the strengthened guard, if any.
    fn choose_input(&self) -> Option<(usize, String, Vec<Value>)> {
        let p = &self.g.product;
        let pt = self.point(&[])?;
        for (t, tr) in p.transitions.iter().enumerate() {
            let Some((gate, Direction::Input)) = &tr.gate else {
                continue;
            };
            if tr.from != self.loc || self.g.kept[t].is_empty() {
                continue;
            }
            let gi = self.a.gate(gate)? as usize;
            if self.a.gates[gi].params.iter().any(|(_, ty)| {
                !matches!(
                    ty,
                    ioco_lang::ir::Type::Int | ioco_lang::ir::Type::Range(..)
                )
            }) {
                continue;
            }
            let found = self.g.choose_input(t, &pt[..p.nvars], |ps| {
                let args: Vec<Value> = ps.iter().map(|&x| Value::Int(x)).collect();
                self.a.gates[gi]
                    .params
                    .iter()
                    .zip(&args)
                    .all(|((_, ty), v)| self.defs.contains(*ty, v))
                    && self.matching(gate, &args) == vec![t]
            });
            if let Some(ps) = found {
                return Some((t, gate.clone(), ps.into_iter().map(Value::Int).collect()));
            }
        }
        None
    }
}

/// One online run steered by a purpose.
#[derive(Clone, Debug)]
pub struct Run {
    /// The verdict (Pass: accept was reached).
    pub verdict: Verdict,
    /// The trace, `a?(6)`, `OK!(2)`, `δ`.
    pub trace: Vec<String>,
    /// The inputs given, with their values, in order.
    pub inputs: Vec<GateValue>,
    /// For a Fail: the failing observation.
    pub observed: Option<String>,
    /// For a Fail: the output gates the specification allowed there.
    pub allowed: Vec<String>,
}

/// Options of [`run`].
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The most steps (inputs and observations) before Inconclusive.
    pub depth: usize,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions { depth: 50 }
    }
}

/// One online run of the test graph `g` (built from `spec` and `purpose`) against `sut`, with
/// `oracle` (a tracker of the same specification) judging conformance.
pub fn run<D: Domain>(
    g: &TestGraph<D>,
    spec: &Model,
    purpose: &Model,
    sut: &mut dyn DataSut,
    oracle: &mut SymbolicSpec,
    opts: &RunOptions,
) -> Run {
    let mut r = Run {
        verdict: Verdict::Pass,
        trace: Vec::new(),
        inputs: Vec::new(),
        observed: None,
        allowed: Vec::new(),
    };
    let (Some(sa), Some(pa)) = (spec.entry(), purpose.entry()) else {
        r.verdict = Verdict::Error("no entry model".into());
        return r;
    };
    let (Some(a), Some(b)) = (sa.as_single(), pa.as_single()) else {
        r.verdict = Verdict::Error("compositions are not supported".into());
        return r;
    };
    let defs: &Defs = &sa.defs;
    let mut tr = Tracker {
        g,
        a,
        b,
        defs,
        loc: g.product.initial,
        avals: a.vars.iter().map(|v| v.init.clone()).collect(),
        bvals: b.vars.iter().map(|v| v.init.clone()).collect(),
    };
    if let Err(e) = oracle.reset() {
        r.verdict = Verdict::Error(e);
        return r;
    }
    if let Err(e) = sut.reset() {
        r.verdict = Verdict::Error(format!("could not reset the system: {e}"));
        return r;
    }
    let mut quiet_without_input = false;
    let verdict = 'run: loop {
        let loc = &g.product.locations[tr.loc];
        if loc.accept {
            break Verdict::Pass;
        }
        if loc.refuse {
            break Verdict::Inconclusive(format!("refused by the test purpose at {}", loc.name));
        }
        if r.trace.len() >= opts.depth {
            break Verdict::Inconclusive(format!(
                "step bound {} reached before accept (at {})",
                opts.depth, loc.name
            ));
        }
        if let Some(pt) = tr.point(&[]) {
            if !g.coreach.values[tr.loc].contains(&pt) {
                break Verdict::Inconclusive(format!(
                    "accept can no longer be reached from {} with these values",
                    loc.name
                ));
            }
        }
        // Control when an input keeps accept reachable, else observe.
        let event = match tr.choose_input() {
            Some((t, gate, args)) => match sut.send(&gate, &args) {
                Ok(Sent::Sent) => {
                    r.trace.push(label(defs, &gate, &args, "?"));
                    r.inputs.push((gate.clone(), args.clone()));
                    match oracle.after_input(&gate, &args) {
                        Step::Ok => {}
                        Step::Fail(w) => break 'run Verdict::Fail(w),
                        Step::Inconclusive(w) => break 'run Verdict::Inconclusive(w),
                    }
                    if let Err(e) = tr.fire(t, &args) {
                        break 'run Verdict::Inconclusive(e);
                    }
                    quiet_without_input = false;
                    continue;
                }
                Ok(Sent::Raced(g, v)) => Observed::Output(g, v),
                Ok(Sent::RacedMalformed(m)) => Observed::Malformed(m),
                Err(e) => break error(e),
            },
            None => {
                if quiet_without_input {
                    break Verdict::Inconclusive(format!(
                        "at {} the system is quiescent and no input keeps accept reachable",
                        loc.name
                    ));
                }
                match sut.observe() {
                    Ok(o) => o,
                    Err(e) => break error(e),
                }
            }
        };
        match event {
            Observed::Quiescent => {
                r.trace.push("δ".into());
                match oracle.after_quiescence() {
                    Step::Ok => quiet_without_input = true,
                    Step::Fail(w) => {
                        r.observed = Some("δ".into());
                        r.allowed = oracle.allowed_output_gates();
                        break Verdict::Fail(w);
                    }
                    Step::Inconclusive(w) => break Verdict::Inconclusive(w),
                }
            }
            Observed::Malformed(m) => {
                r.observed = Some(m.clone());
                break Verdict::Fail(format!("malformed output: {m}"));
            }
            Observed::Output(gate, args) => {
                let text = label(defs, &gate, &args, "!");
                r.trace.push(text.clone());
                match oracle.after_output(&gate, &args) {
                    Step::Ok => {}
                    Step::Fail(w) => {
                        r.observed = Some(text);
                        r.allowed = oracle.allowed_output_gates();
                        break Verdict::Fail(w);
                    }
                    Step::Inconclusive(w) => break Verdict::Inconclusive(w),
                }
                quiet_without_input = false;
                let ts = tr.matching(&gate, &args);
                let [t] = ts[..] else {
                    break Verdict::Inconclusive(format!(
                        "{text} matches {} transitions of the product at {}: the tracking \
                         needs a deterministic specification",
                        ts.len(),
                        loc.name
                    ));
                };
                let inside = tr
                    .point(&args)
                    .is_none_or(|pt| g.kept[t].iter().any(|k| k.contains(&pt)));
                if !inside {
                    break Verdict::Inconclusive(format!(
                        "{text} at {} leaves the states that can reach accept",
                        loc.name
                    ));
                }
                if let Err(e) = tr.fire(t, &args) {
                    break Verdict::Inconclusive(e);
                }
            }
        }
    };
    r.verdict = verdict;
    r
}

fn error(e: SutError) -> Verdict {
    Verdict::Error(e.to_string())
}
