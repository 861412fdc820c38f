//! A switch-coverage purpose as a [`Selection`]: **thesis Alg. 6 = TAP19 Alg. 1**, the
//! execution of a path `r0 … rn` of the symbolic execution graph with its path condition `η`
//! (thesis Def. 4.16), over the one tester ([`ioco_engine::alg2`]).
//!
//! Inputs are chosen **as late as possible** from `η` after substituting every value chosen or
//! observed so far (`η[tmap(P ↦ w̄)]`), with a fall-back to the current guard when the solver
//! answers *unknown* on `η` (Alg. 6 line 12). An output (or δ) the specification accepted but
//! that does not follow the path, or that makes `η` unsatisfiable, ends the run
//! **Inconclusive** (the system legally left the purpose). A purpose ending with an input
//! observes once more (the faults of a switch's effect show in the next output), then
//! **Pass**. Fail comes from the specification only (the symbolic tracker), as for every
//! selection.

use crate::engine::Symbolic;
use crate::online::{label, GateValue};
use crate::pick::Picker;
use crate::seg::Purpose;
use crate::solver::{Checker, SatResult};
use crate::system::{Move, State, System};
use crate::term::{render, SymVar, Term, T};
use ioco_engine::select::{Choice, Event, Selection, Stop};
use ioco_lang::ir::{Direction, Value};
use rand_chacha::ChaCha8Rng;

/// The execution of one purpose (see the module documentation).
pub struct SwitchPath<'p> {
    purpose: &'p Purpose,
    /// The next move of the path.
    next: usize,
    /// The path condition with the values so far substituted.
    eta: T,
    /// The state the purpose's path has reached (with the chosen and observed values).
    at: Option<State>,
    /// The input chosen last, not yet taken.
    pending: Option<GateValue>,
    /// The path is done; the final observation is being made.
    ending: bool,
}

impl<'p> SwitchPath<'p> {
    /// Execute `purpose` (its path condition is solved by the specification's solver, values
    /// hinted by its picker).
    pub fn new(purpose: &'p Purpose) -> Self {
        SwitchPath {
            eta: purpose.pc.clone(),
            purpose,
            next: 0,
            at: None,
            pending: None,
            ending: false,
        }
    }

    fn subst(sys: &System, eta: &T, m: &Move, i: usize, w: &[Value]) -> T {
        let pvars = sys.param_vars(m, i);
        Term::subst(eta, &sys.spec.defs, &|v: &SymVar| {
            pvars.iter().position(|p| p == v).map(|k| w[k].clone())
        })
    }

    /// Values for input move `r` (the `i`-th of the path) at state `q`, from `η`.
    #[allow(clippy::too_many_arguments)]
    fn values(
        &self,
        sys: &System,
        checker: &mut Checker,
        picker: &mut Picker,
        q: &State,
        r: &Move,
        i: usize,
        rng: &mut ChaCha8Rng,
    ) -> Result<Vec<Value>, String> {
        let defs = &sys.spec.defs;
        let pvars = sys.param_vars(r, i);
        let hints = picker.hints(defs, &self.eta, &pvars, rng);
        match checker.values(defs, &self.eta, &pvars, &hints) {
            Ok(w) => Ok(w),
            Err(SatResult::Unknown(why)) => {
                // line 12: fall back on the current guard with concrete variables
                let params: Vec<T> = pvars.iter().cloned().map(Term::sym).collect();
                let local = sys.guard_at(q, r, &params);
                let gate = sys.move_gate_name(r);
                let w = checker.values(defs, &local, &pvars, &hints).map_err(|_| {
                    format!("no values for {gate}: the solver says unknown ({why})")
                })?;
                let eta = Self::subst(sys, &self.eta, r, i, &w);
                if checker.sat(defs, &eta) == SatResult::Unsat {
                    return Err(format!(
                        "path condition unknown ({why}) and the values chosen by the guard make \
                         it unsat"
                    ));
                }
                Ok(w)
            }
            Err(_) => Err(format!(
                "the path condition is unsatisfiable at step {i}: {}",
                render(defs, &self.eta)
            )),
        }
    }

    /// The full parameter vector of move `r` (the `i`-th of the path) at `q` from its visible
    /// values `w`: `w` itself for an ordinary move; for a multi-action with hidden gates, the
    /// hidden values the guards fix, else some that `η` allows (the purpose follows one of
    /// them; the tracker follows them all, and a system that took another leaves the
    /// purpose, which ends the run Inconclusive).
    fn full(
        &self,
        sys: &System,
        checker: &mut Checker,
        q: &State,
        r: &Move,
        i: usize,
        w: &[Value],
    ) -> Option<Vec<Value>> {
        if !sys.has_hidden_params(r) {
            return Some(w.to_vec());
        }
        if let Some(full) = sys.forced_with(q, r, w) {
            return Some(full);
        }
        let pvars = sys.param_vars(r, i);
        let eta = Term::subst(&self.eta, &sys.spec.defs, &|v: &SymVar| {
            pvars[..w.len()]
                .iter()
                .position(|p| p == v)
                .map(|k| w[k].clone())
        });
        let hidden = checker
            .values(&sys.spec.defs, &eta, &pvars[w.len()..], &[])
            .ok()?;
        Some(w.iter().cloned().chain(hidden).collect())
    }

    fn gate_name<'s>(sys: &'s System, r: &Move) -> &'s str {
        sys.move_gate_name(r)
    }

    fn expected(&self, sys: &System) -> String {
        match self.purpose.path.get(self.next) {
            None => "the end of the purpose".into(),
            Some(r) if r.gate.is_none() => "an internal step".into(),
            Some(r) => Self::gate_name(sys, r).to_string(),
        }
    }
}

impl Selection<Symbolic<'_>> for SwitchPath<'_> {
    fn start(&mut self) {
        self.next = 0;
        self.eta = self.purpose.pc.clone();
        self.at = None;
        self.pending = None;
        self.ending = false;
    }

    fn choose(
        &mut self,
        spec: &mut Symbolic<'_>,
        _: usize,
        rng: &mut ChaCha8Rng,
    ) -> Choice<GateValue> {
        let ss = &mut *spec.spec;
        let (sys, checker, picker) = (&ss.sys, &mut ss.checker, &mut ss.picker);
        let mut q = self.at.take().unwrap_or_else(|| sys.initial());
        let choice = loop {
            let i = self.next;
            let Some(r) = self.purpose.path.get(i) else {
                let ends_with_input = self
                    .purpose
                    .path
                    .last()
                    .is_some_and(|m| sys.direction(m) == Some(Direction::Input));
                break if ends_with_input && !self.ending {
                    self.ending = true;
                    Choice::Observe
                } else {
                    Choice::Stop(Stop::Pass(None))
                };
            };
            match sys.direction(r) {
                // a τ move of the purpose: follow it in the path's state (a hidden step with
                // data with values from `η`: the system may take others, and then leaves the
                // purpose, which ends the run Inconclusive; the tracker follows them all)
                None => {
                    let w = if sys.param_types(r).is_empty() {
                        Vec::new()
                    } else {
                        let pvars = sys.param_vars(r, i);
                        match checker.values(&sys.spec.defs, &self.eta, &pvars, &[]) {
                            Ok(w) => w,
                            Err(why) => {
                                break Choice::Stop(Stop::Inconclusive(format!(
                                    "no values for the hidden step `{}` of the purpose: {why:?}",
                                    sys.switch_name(r.parts[0])
                                )))
                            }
                        }
                    };
                    match sys.enabled(&q, r, &w) {
                        Ok(true) => match sys.succ(&q, r, &w) {
                            Ok(n) => {
                                if !w.is_empty() {
                                    self.eta = Self::subst(sys, &self.eta, r, i, &w);
                                }
                                q = n;
                                self.next += 1;
                            }
                            Err(e) => break Choice::Stop(Stop::Inconclusive(e.message)),
                        },
                        _ => {
                            break Choice::Stop(Stop::Inconclusive(
                                "internal step of the purpose not enabled".into(),
                            ))
                        }
                    }
                }
                Some(Direction::Input) => {
                    let w = match self.values(sys, checker, picker, &q, r, i, rng) {
                        Ok(w) => w,
                        Err(why) => break Choice::Stop(Stop::Inconclusive(why)),
                    };
                    if sys.enabled(&q, r, &w) != Ok(true) {
                        break Choice::Stop(Stop::Inconclusive(format!(
                            "solver values {} do not enable the switch",
                            label(&sys.spec, Self::gate_name(sys, r), &w, "?")
                        )));
                    }
                    // the label carries the visible gate's values only
                    let mut w = w;
                    w.truncate(sys.visible_arity(r));
                    let input = (Self::gate_name(sys, r).to_string(), w);
                    self.pending = Some(input.clone());
                    break Choice::Give(input);
                }
                Some(Direction::Output) => break Choice::Observe,
            }
        };
        self.at = Some(q);
        choice
    }

    fn after(&mut self, spec: &mut Symbolic<'_>, event: Event<'_, GateValue>) -> Option<Stop> {
        let ss = &mut *spec.spec;
        let (sys, checker) = (&ss.sys, &mut ss.checker);
        let defs = &sys.spec.defs;
        let show = |(g, w): &GateValue, mark: &str| label(&sys.spec, g, w, mark);
        if self.ending {
            // the final observation was accepted by the specification
            return Some(Stop::Pass(None));
        }
        let i = self.next;
        let q = self.at.take().unwrap_or_else(|| sys.initial());
        let r = self.purpose.path.get(i)?;
        let (w, expected) = match event {
            Event::Gave(input) => {
                let Some(p) = self.pending.take().filter(|p| p == input) else {
                    return Some(Stop::Inconclusive(format!(
                        "{} was given where the purpose expects {}",
                        show(input, "?"),
                        self.expected(sys)
                    )));
                };
                match self.full(sys, checker, &q, r, i, &p.1) {
                    Some(w) => (w, None),
                    None => {
                        return Some(Stop::Inconclusive(format!(
                            "no values for the hidden gates of {} in the purpose",
                            show(input, "?")
                        )))
                    }
                }
            }
            Event::Output(x @ (g, w)) => {
                let pending = self.pending.take();
                let full = if sys.direction(r) == Some(Direction::Output) {
                    self.full(sys, checker, &q, r, i, w)
                } else {
                    None
                };
                let fits = pending.is_none()
                    && g == Self::gate_name(sys, r)
                    && full
                        .as_ref()
                        .is_some_and(|w| sys.enabled(&q, r, w) == Ok(true));
                if !fits {
                    let expected = match pending {
                        Some(p) => show(&p, "?"),
                        None => self.expected(sys),
                    };
                    return Some(Stop::Inconclusive(format!(
                        "the system legally left the purpose: {} instead of {expected}",
                        show(x, "!")
                    )));
                }
                (full.unwrap_or_default(), Some(show(x, "!")))
            }
            Event::Quiescence => {
                return Some(Stop::Inconclusive(format!(
                    "the system is quiescent, which the specification allows, but the purpose \
                     expects {}",
                    self.expected(sys)
                )))
            }
        };
        self.eta = Self::subst(sys, &self.eta, r, i, &w);
        if let Some(out) = expected {
            if checker.sat(defs, &self.eta) == SatResult::Unsat {
                return Some(Stop::Inconclusive(format!(
                    "output {out} is allowed but makes the purpose unreachable"
                )));
            }
        }
        match sys.succ(&q, r, &w) {
            Ok(n) => self.at = Some(n),
            Err(e) => return Some(Stop::Inconclusive(format!("model error: {}", e.message))),
        }
        self.next += 1;
        None
    }

    fn at_bound(&mut self, _: &mut Symbolic<'_>, depth: usize) -> Stop {
        Stop::Inconclusive(format!(
            "step bound {depth} reached at move {} of {} of the purpose",
            self.next,
            self.purpose.path.len()
        ))
    }
}
