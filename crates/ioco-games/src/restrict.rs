//! A test purpose without accept as a restriction of the test: TorXakis's `GOAL` without
//! `HIT` under `test N` (TorXakis user manual, test purposes: a goal runs in parallel with the
//! model, synchronised on every action of its channels; it is *hit* at `HIT`, *missed* at
//! `MISS` or when it cannot take the action that happened, and otherwise keeps constraining
//! the test). A goal that never reaches `HIT` therefore steers towards nothing in particular:
//! it only narrows which inputs the tester may give. The test is the ordinary ioco test of the
//! specification (seed 004 §2: the product S × TP, here without an accept set, so coreach is
//! every state the goal has not left), with the inputs chosen among those the goal offers:
//!
//! * the goal is made deterministic (its τ-closed subsets, [`SuspensionAutomaton`]); an
//!   internal step of the goal (`ISTEP`, a hidden synchronisation) is taken on its own;
//! * at each step the tester gives an input that both the specification and the goal enable,
//!   or observes (the uniform coin of `ioco-gen`, and never two observations in a row where an
//!   input could be given: tutorial Def. 6.4);
//! * an output (or an input) the goal does not offer ends the run **Inconclusive** (the goal is
//!   missed: the trace leaves the purpose); quiescence leaves the goal where it is (a goal
//!   cannot name δ);
//! * a run that reaches its step bound inside the goal **passes**, as a run without purpose
//!   does, and so does a quiescent run where neither the specification nor the goal offers an
//!   input (nothing more can be observed).
//!
//! **Fail** comes from the specification only (the tracker of `ioco-engine`): the goal never
//! changes what conforms. The goal synchronises on every channel of the specification: an
//! action on a channel the goal never uses is one it does not offer.

use crate::purpose::PurposeError;
use ioco_engine::explicit::Explicit;
use ioco_engine::select::{Choice, Event, Selection, Stop};
use ioco_gen::strategy::{self, Uniform};
use ioco_model::{Alphabet, Label, LabelKind, Lts, QuiescencePolicy, State, SuspensionAutomaton};
use rand_chacha::ChaCha8Rng;

/// The largest deterministic goal built (subsets of goal states).
pub const MAX_GOAL_STATES: usize = 1_000_000;

/// A goal without accept, made deterministic, with its labels in the specification's
/// alphabet.
#[derive(Clone, Debug)]
pub struct Restriction {
    /// The deterministic goal (initial state 0; δ is not used).
    goal: Lts,
    /// Per specification label: the goal's label of the same name and kind, `None` when the
    /// goal has none (it never offers it).
    to_goal: Vec<Option<Label>>,
}

impl Restriction {
    /// The restriction of a specification over `spec` by the goal automaton `goal` (any LTS:
    /// τ-steps and nondeterminism allowed). Every label on a goal transition must be a label
    /// of the specification.
    pub fn new(spec: &Alphabet, goal: &Lts) -> Result<Restriction, PurposeError> {
        let ga = goal.alphabet();
        for (_, l, _) in goal.transitions() {
            if l.is_tau() || l == Label::DELTA {
                continue;
            }
            if spec.lookup_kind(ga.name(l), ga.kind(l)).is_none() {
                let hint = match spec.lookup(ga.name(l)) {
                    Some(s) => format!("the specification has {}", spec.display(s)),
                    None => {
                        let names: Vec<String> = spec.visible().map(|x| spec.display(x)).collect();
                        format!("its labels are {}", names.join(", "))
                    }
                };
                return Err(PurposeError::UnknownLabel {
                    label: ga.display(l),
                    hint,
                });
            }
        }
        let det =
            SuspensionAutomaton::build_with_limit(goal, QuiescencePolicy::Stable, MAX_GOAL_STATES)
                .map_err(|e| PurposeError::Invalid(format!("the goal made deterministic: {e}")))?;
        Ok(Restriction {
            goal: det.lts,
            to_goal: spec.translation_to(ga),
        })
    }

    /// The goal's initial state.
    pub fn initial(&self) -> State {
        0
    }

    /// The number of states of the deterministic goal.
    pub fn num_states(&self) -> usize {
        self.goal.num_states()
    }

    /// The goal's state after specification label `l` in goal state `q`; `None` when the goal
    /// does not offer `l` there (it is missed). δ leaves it where it is.
    pub fn step(&self, q: State, l: Label) -> Option<State> {
        if l == Label::DELTA {
            return Some(q);
        }
        let g = self.to_goal.get(l.index()).copied().flatten()?;
        self.goal.edges_with(q, g).first().map(|e| e.target)
    }

    /// True when the goal allows specification label `l` in goal state `q`.
    pub fn allows(&self, q: State, l: Label) -> bool {
        self.step(q, l).is_some()
    }

    /// The goal state's name: the set of goal states it stands for.
    pub fn state_name(&self, q: State) -> String {
        self.goal.state_name(q)
    }
}

/// The test restricted by a goal, as a [`Selection`] of the explicit engine.
pub struct Restricted<'r> {
    restriction: &'r Restriction,
    coin: ioco_gen::strategy::Coin,
    q: State,
    /// The last observation was δ.
    quiet: bool,
}

impl<'r> Restricted<'r> {
    /// Restrict by `restriction`; where an input could be given, observe with probability
    /// `observe` (the uniform strategy's coin).
    pub fn new(restriction: &'r Restriction, observe: f64) -> Restricted<'r> {
        Restricted {
            restriction,
            coin: Uniform { observe }.coin(),
            q: restriction.initial(),
            quiet: false,
        }
    }
}

impl Selection<Explicit<'_, '_>> for Restricted<'_> {
    fn start(&mut self) {
        self.q = self.restriction.initial();
        self.quiet = false;
    }

    fn choose(
        &mut self,
        spec: &mut Explicit<'_, '_>,
        _: usize,
        rng: &mut ChaCha8Rng,
    ) -> Choice<Label> {
        let inputs: Vec<Label> = spec
            .tester
            .io_now()
            .0
            .iter()
            .copied()
            .filter(|&a| self.restriction.allows(self.q, a))
            .collect();
        if self.quiet {
            return match inputs.len() {
                0 => Choice::Stop(Stop::Pass(Some(
                    "quiescent, and neither the specification nor the goal offers an input: \
                     nothing more to see"
                        .into(),
                ))),
                n => Choice::Give(inputs[ioco_gen::strategy::uniform::index(rng, n)]),
            };
        }
        match Uniform::pick(&self.coin, &inputs, rng) {
            strategy::Choice::Stimulate(a) => Choice::Give(a),
            _ => Choice::Observe,
        }
    }

    fn after(&mut self, spec: &mut Explicit<'_, '_>, event: Event<'_, Label>) -> Option<Stop> {
        let l = match event {
            Event::Gave(&a) | Event::Output(&a) => a,
            Event::Quiescence => Label::DELTA,
        };
        self.quiet = l == Label::DELTA;
        match self.restriction.step(self.q, l) {
            Some(t) => {
                self.q = t;
                None
            }
            None => {
                let a = spec.tester.alphabet();
                let what = if a.kind(l) == LabelKind::Input {
                    "input"
                } else {
                    "output"
                };
                Some(Stop::Inconclusive(format!(
                    "{what} {} at {} is not offered by the test purpose (TorXakis: the goal is \
                     missed)",
                    a.display(l),
                    self.restriction.state_name(self.q)
                )))
            }
        }
    }

    fn at_bound(&mut self, _: &mut Explicit<'_, '_>, depth: usize) -> Stop {
        Stop::Pass(Some(format!(
            "{depth} steps restricted by the goal, which has no accept (as TorXakis's \
             `test {depth}` with a goal without `HIT`)"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ioco_model::{LabelKind::*, LtsBuilder};

    /// A goal with an internal step and a choice it resolves later: `a? ; (τ ; b!) + c!`.
    fn goal() -> Lts {
        let mut b = LtsBuilder::new(Alphabet::new());
        b.add_states(4);
        b.add_initial(0);
        b.add(0, "a", Input, 1).unwrap();
        b.add(1, "tau", Internal, 2).unwrap();
        b.add(2, "b", Output, 0).unwrap();
        b.add(1, "c", Output, 3).unwrap();
        b.build().unwrap()
    }

    fn spec_alphabet() -> Alphabet {
        let mut a = Alphabet::new();
        for (n, k) in [("a", Input), ("x", Input), ("b", Output), ("c", Output)] {
            a.intern(n, k).unwrap();
        }
        a
    }

    #[test]
    fn the_goal_is_followed_through_its_internal_steps_and_missed_off_its_steps() {
        let sa = spec_alphabet();
        let r = Restriction::new(&sa, &goal()).unwrap();
        let l = |n: &str, k| sa.lookup_kind(n, k).unwrap();
        let q0 = r.initial();
        // the goal offers a?, not b! or c!, at the start, nor x?, a channel it never uses
        assert!(r.allows(q0, l("a", Input)));
        assert_eq!(r.step(q0, l("b", Output)), None);
        assert_eq!(r.step(q0, l("x", Input)), None);
        assert_eq!(r.step(q0, Label::DELTA), Some(q0));
        // after a?, both b! (after the goal's τ) and c! are offered
        let q1 = r.step(q0, l("a", Input)).unwrap();
        assert!(!r.allows(q1, l("a", Input)));
        let back = r.step(q1, l("b", Output)).unwrap();
        assert!(r.allows(back, l("a", Input)));
        let end = r.step(q1, l("c", Output)).unwrap();
        // after c! the goal is stuck: every label of it is missed
        assert!(!r.allows(end, l("a", Input)) && !r.allows(end, l("b", Output)));
    }

    #[test]
    fn a_goal_label_the_specification_lacks_is_refused_with_a_hint() {
        let mut sa = Alphabet::new();
        sa.intern("a", Input).unwrap();
        sa.intern("b", Input).unwrap(); // b as an input, the goal's b! is an output
        sa.intern("c", Output).unwrap();
        let e = Restriction::new(&sa, &goal()).unwrap_err();
        let PurposeError::UnknownLabel { label, hint } = e else {
            panic!("{e}")
        };
        assert_eq!(label, "b!");
        assert!(hint.contains("b?"), "{hint}");
    }
}
