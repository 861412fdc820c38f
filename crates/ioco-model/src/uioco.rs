//! uioco (van der Bijl, Rensink and Tretmans, "Compositional testing with ioco", FATES 2003;
//! JTorX offers it): ioco restricted to the **Utraces** of the specification, the suspension
//! traces `σ1·a?·σ2` in which no state of `s after σ1` refuses the input `a?`. After an input
//! that some reachable specification state does not specify, anything may follow under
//! uioco, as after an input no state specifies under ioco. With nondeterminism and states that
//! are not input-enabled, uioco is the weaker, compositional relation: `i ioco s` implies
//! `i uioco s`, not conversely.
//!
//! **Refusal** ([`refuses`]): the paper's state refuses `a?` when it is *stable* (no τ) and
//! does not enable `a?`: refusals are observed where the system stops, which is where
//! quiescence is. The tool also reads a *silently divergent* state (on a τ-cycle from which
//! no output is reachable by τ-steps, [`crate::divergence`]) as quiescent: the system may loop
//! internally forever and a tester's time-out observes δ. Such a state is a stopping point as
//! much as a stable one, so it refuses `a?` when the system can never take `a?` from it: when
//! **no state τ-reachable from it enables `a?`** (if one does, fairness may bring the system
//! there while the input is offered, and the state does not refuse it). A state on a τ-cycle
//! from which an output is reachable is not quiescent (fairness leaves the cycle) and refuses
//! nothing, as any state with τ in the paper. Without this, a specification state on a silent
//! τ-cycle that cannot take `a?` would leave `a?` specified (an Utrace) where a stable state
//! in its place would not.

use crate::{Label, Lts, State, SuspensionAutomaton};

/// The conformance relation checked.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `i ioco s`: out-inclusion after every suspension trace of `s` (tutorial Def. 6.1).
    #[default]
    Ioco,
    /// `i uioco s`: out-inclusion after every Utrace of `s`.
    Uioco,
}

/// True when state `s` of `spec` refuses input `a`: it is stable (no τ) and does not enable
/// `a`, or it is silently divergent and no state τ-reachable from it enables `a` (see the
/// module documentation).
pub fn refuses(spec: &Lts, s: State, a: Label) -> bool {
    if !spec.has_tau(s) {
        return !spec.enables(s, a);
    }
    if !spec.is_silently_divergent(s) {
        return false;
    }
    // No state τ-reachable from `s` enables `a`.
    let mut seen = rustc_hash::FxHashSet::default();
    seen.insert(s);
    let mut stack = vec![s];
    while let Some(t) = stack.pop() {
        if spec.enables(t, a) {
            return false;
        }
        for e in spec.edges_with(t, Label::TAU) {
            if seen.insert(e.target) {
                stack.push(e.target);
            }
        }
    }
    true
}

/// True when input `a` is underspecified in the τ-closed set of states `set` of `spec`: some
/// state of it refuses `a` ([`refuses`]). Such an input does not extend a Utrace.
pub fn underspecified(spec: &Lts, set: &[State], a: Label) -> bool {
    set.iter().any(|&s| refuses(spec, s, a))
}

/// The suspension automaton restricted to the Utraces of `spec`: the input edges of an input
/// that some state of the source set refuses are dropped (after them anything may follow, as
/// after an input the automaton does not have). Every generator that reads a suspension
/// automaton then tests for uioco.
pub fn utraces_only(sa: &SuspensionAutomaton, spec: &Lts) -> Lts {
    let alphabet = sa.lts.alphabet();
    let mut b = crate::LtsBuilder::new(alphabet.clone());
    b.ensure_states(sa.lts.num_states());
    for &i in sa.lts.initial() {
        b.add_initial(i);
    }
    for q in sa.lts.states() {
        for e in sa.lts.edges(q) {
            if alphabet.is_input(e.label) && underspecified(spec, &sa.sets[q as usize], e.label) {
                continue;
            }
            b.add_transition(q, e.label, e.target);
        }
    }
    b.set_state_names(sa.lts.states().map(|q| sa.lts.state_name(q)).collect());
    b.set_explicit_delta(true);
    b.build().expect("a restriction of a well-formed automaton")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{compare, Alphabet, CompareOptions, LtsBuilder, QuiescencePolicy};

    /// The example where the relations differ: after `a?` the specification is in `1` (where
    /// `b?` gives `x!`) or in `2` (which does not specify `b?`); the implementation answers
    /// `a? b?` with `y!`. Not ioco (`a?·b?` is a suspension trace with out {x!}), but uioco
    /// (`a?·b?` is no Utrace: state 2 refuses `b?`).
    #[test]
    fn ioco_and_uioco_differ_on_an_input_one_branch_does_not_specify() {
        let mut al = Alphabet::new();
        let a = al.input("a").unwrap();
        let b = al.input("b").unwrap();
        let x = al.output("x").unwrap();
        let y = al.output("y").unwrap();
        let mut sb = LtsBuilder::new(al.clone());
        sb.add_states(5);
        sb.add_initial(0);
        sb.add_transition(0, a, 1);
        sb.add_transition(0, a, 2);
        sb.add_transition(1, b, 3);
        sb.add_transition(3, x, 0);
        let spec = sb.build().unwrap();
        let mut ib = LtsBuilder::new(al);
        ib.add_states(3);
        ib.add_initial(0);
        ib.add_transition(0, a, 1);
        ib.add_transition(1, b, 2);
        ib.add_transition(2, y, 0);
        let imp = ib.build().unwrap();
        let ioco = compare(&imp, &spec, &CompareOptions::default()).unwrap();
        let cex = ioco.counterexample.expect("not ioco");
        assert_eq!(cex.trace, vec![a, b]);
        let u = CompareOptions {
            relation: Relation::Uioco,
            ..Default::default()
        };
        assert!(compare(&imp, &spec, &u).unwrap().conforms());
        // the automaton restricted to Utraces has no b? after a?
        let sa = SuspensionAutomaton::build(&spec, QuiescencePolicy::Stable);
        let ut = utraces_only(&sa, &spec);
        let after_a = sa.lts.successors(0, a).next().unwrap();
        assert!(sa.lts.enables(after_a, b) && !ut.enables(after_a, b));
    }

    /// The uioco example with state 2 on a τ-cycle (2 ⇄ 4) instead of stable, plus
    /// `extra` transitions.
    fn divergent_spec(extra: &[(State, &str, State)]) -> (Lts, Label, Label) {
        let mut al = Alphabet::new();
        let a = al.input("a").unwrap();
        let b = al.input("b").unwrap();
        let x = al.output("x").unwrap();
        al.output("z").unwrap();
        let mut sb = LtsBuilder::new(al.clone());
        sb.add_states(6);
        sb.add_initial(0);
        for (p, l, q) in [
            (0, a, 1),
            (0, a, 2),
            (1, b, 3),
            (3, x, 0),
            (2, Label::TAU, 4),
            (4, Label::TAU, 2),
        ] {
            sb.add_transition(p, l, q);
        }
        for &(p, l, q) in extra {
            let l = if l == "tau" {
                Label::TAU
            } else {
                al.lookup(l).unwrap()
            };
            sb.add_transition(p, l, q);
        }
        (sb.build().unwrap(), a, b)
    }

    /// The implementation of the example above: `a? b?` answered by `y!`.
    fn y_impl(spec: &Lts) -> Lts {
        let mut al = spec.alphabet().clone();
        let (a, b) = (al.lookup("a").unwrap(), al.lookup("b").unwrap());
        let y = al.output("y").unwrap();
        let mut ib = LtsBuilder::new(al);
        ib.add_states(3);
        ib.add_initial(0);
        for (p, l, q) in [(0, a, 1), (1, b, 2), (2, y, 0), (0, b, 0), (1, a, 1)] {
            ib.add_transition(p, l, q);
        }
        ib.build().unwrap()
    }

    /// A silently divergent state refuses an input no τ-reachable state enables: on the
    /// τ-cycle 2 ⇄ 4 (quiescent by divergence) `b?` is as unspecified as in a stable state
    /// without it, so `a?·b?` is no Utrace and `y!` after it is uioco (not ioco).
    #[test]
    fn a_silently_divergent_state_refuses_an_input_no_tau_reachable_state_enables() {
        let (spec, a, b) = divergent_spec(&[]);
        assert!(refuses(&spec, 2, b) && refuses(&spec, 4, b));
        assert!(!refuses(&spec, 1, b) && refuses(&spec, 1, a));
        let imp = y_impl(&spec);
        let ioco = compare(&imp, &spec, &CompareOptions::default()).unwrap();
        assert_eq!(ioco.counterexample.expect("not ioco").trace, vec![a, b]);
        let u = CompareOptions {
            relation: Relation::Uioco,
            ..Default::default()
        };
        assert!(compare(&imp, &spec, &u).unwrap().conforms());
        let sa = SuspensionAutomaton::build(&spec, QuiescencePolicy::Stable);
        let ut = utraces_only(&sa, &spec);
        let after_a = sa.lts.successors(0, a).next().unwrap();
        assert!(sa.lts.enables(after_a, b) && !ut.enables(after_a, b));
    }

    /// It does not refuse when some τ-reachable state enables the input (on the cycle, or a
    /// stable state the cycle can leave to), nor when an output is reachable by τ (then it is
    /// not quiescent: fairness leaves the cycle): `a?·b?` is a Utrace and `y!` is no uioco.
    #[test]
    fn a_divergent_state_does_not_refuse_what_it_may_still_take() {
        let cases: [&[(State, &str, State)]; 3] = [
            &[(4, "b", 3)],
            &[(4, "tau", 5), (5, "b", 3)],
            &[(4, "z", 0)],
        ];
        for extra in cases {
            let (spec, a, b) = divergent_spec(extra);
            assert!(!refuses(&spec, 2, b) && !refuses(&spec, 4, b), "{extra:?}");
            let imp = y_impl(&spec);
            let u = CompareOptions {
                relation: Relation::Uioco,
                ..Default::default()
            };
            let c = compare(&imp, &spec, &u).unwrap();
            assert_eq!(
                c.counterexample.expect("not uioco").trace,
                vec![a, b],
                "{extra:?}"
            );
        }
    }
}
