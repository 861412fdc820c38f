//! Symbolic test purposes as a [`Selection`] (seed 004 §5, Table 3): the [`Steering`] of
//! `ioco-stg` chooses inputs inside the strengthened guards and follows every step the
//! specification accepted; **Pass** at accept, **Inconclusive** at refuse, when an output
//! leaves `coreach^α`, when no input keeps accept reachable and the system stays quiescent,
//! when the tracking is ambiguous, or at the step bound. Fail comes from the specification
//! (the symbolic tracker) only. A steering purpose ([`crate::Product::steering`], a TorXakis
//! `GOAL` without `HIT`) has no accept: a run that stays inside it up to the step bound passes,
//! as a run without purpose does; an output it does not offer ends the run Inconclusive.

use crate::online::Steering;
use crate::Domain;
use ioco_engine::select::{Choice, Event, Selection, Stop};
use ioco_symbolic::engine::Symbolic;
use ioco_symbolic::online::{label, GateValue};
use rand_chacha::ChaCha8Rng;

/// The steering of a symbolic test graph.
pub struct SteeredData<'a, D> {
    steering: Steering<'a, D>,
    /// The product transition of the input chosen last.
    pending: Option<usize>,
    quiet_without_input: bool,
}

impl<'a, D: Domain> SteeredData<'a, D> {
    /// Steer by `steering`.
    pub fn new(steering: Steering<'a, D>) -> Self {
        SteeredData {
            steering,
            pending: None,
            quiet_without_input: false,
        }
    }

    /// Pass at accept, Inconclusive at refuse or out of `coreach^α`.
    fn verdict_here(&self) -> Option<Stop> {
        let s = &self.steering;
        if s.accepted() {
            return Some(Stop::Pass(Some("accept reached".into())));
        }
        if s.refused() {
            return Some(Stop::Inconclusive(format!(
                "refused by the test purpose at {}",
                s.location()
            )));
        }
        if !s.may_accept() {
            return Some(Stop::Inconclusive(format!(
                "accept can no longer be reached from {} with these values",
                s.location()
            )));
        }
        None
    }
}

impl<D: Domain> Selection<Symbolic<'_>> for SteeredData<'_, D> {
    fn start(&mut self) {
        self.steering.restart();
        self.pending = None;
        self.quiet_without_input = false;
    }

    fn choose(
        &mut self,
        spec: &mut Symbolic<'_>,
        _: usize,
        rng: &mut ChaCha8Rng,
    ) -> Choice<GateValue> {
        if let Some(stop) = self.verdict_here() {
            return Choice::Stop(stop);
        }
        let oracle = &mut *spec.spec;
        match self
            .steering
            .choose_input_with(&mut oracle.checker, &mut oracle.picker, rng)
        {
            Some((t, gate, args)) => {
                self.pending = Some(t);
                Choice::Give((gate, args))
            }
            None if self.quiet_without_input => Choice::Stop(Stop::Inconclusive(format!(
                "at {} the system is quiescent and no input keeps accept reachable",
                self.steering.location()
            ))),
            None => Choice::Observe,
        }
    }

    fn after(&mut self, spec: &mut Symbolic<'_>, event: Event<'_, GateValue>) -> Option<Stop> {
        match event {
            Event::Gave((_, args)) => {
                self.quiet_without_input = false;
                let t = self.pending.take()?;
                if let Err(e) = self.steering.fire(t, args) {
                    return Some(Stop::Inconclusive(e));
                }
            }
            Event::Quiescence => self.quiet_without_input = true,
            Event::Output((gate, args)) => {
                self.quiet_without_input = false;
                let text = label(&spec.spec.sys.spec, gate, args, "!");
                let ts = self.steering.matching(gate, args);
                if ts.is_empty() && self.steering.steering() {
                    return Some(Stop::Inconclusive(format!(
                        "{text} at {} is not offered by the test purpose (TorXakis: the goal is missed)",
                        self.steering.location()
                    )));
                }
                let [t] = ts[..] else {
                    return Some(Stop::Inconclusive(format!(
                        "{text} matches {} transitions of the product at {}: the tracking \
                         needs a deterministic specification",
                        ts.len(),
                        self.steering.location()
                    )));
                };
                if !self.steering.stays_inside(t, args) {
                    return Some(Stop::Inconclusive(format!(
                        "{text} at {} leaves the states that can reach accept",
                        self.steering.location()
                    )));
                }
                if let Err(e) = self.steering.fire(t, args) {
                    return Some(Stop::Inconclusive(e));
                }
            }
        }
        self.verdict_here()
    }

    fn at_bound(&mut self, _: &mut Symbolic<'_>, depth: usize) -> Stop {
        self.verdict_here().unwrap_or_else(|| {
            if self.steering.steering() {
                return Stop::Pass(Some(format!(
                    "{depth} steps steered by the test purpose, which has no accept (as \
                     TorXakis's `test {depth}` with a goal without `HIT`)"
                )));
            }
            Stop::Inconclusive(format!(
                "step bound {depth} reached before accept (at {})",
                self.steering.location()
            ))
        })
    }
}
