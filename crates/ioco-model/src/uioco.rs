//! uioco (van der Bijl, Rensink and Tretmans, "Compositional testing with ioco", FATES 2003;
//! JTorX offers it): ioco restricted to the **Utraces** of the specification, the suspension
//! traces `σ1·a?·σ2` in which no state of `s after σ1` refuses the input `a?` (a state refuses
//! it when it can do neither `a?` nor τ). After an input that some reachable specification
//! state does not specify, anything may follow under uioco, as after an input no state
//! specifies under ioco. With nondeterminism and states that are not input-enabled, uioco is
//! the weaker, compositional relation: `i ioco s` implies `i uioco s`, not conversely.

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

/// True when input `a` is underspecified in the τ-closed set of states `set` of `spec`: some
/// state of it refuses `a` (enables neither `a` nor τ). Such an input does not extend a Utrace.
pub fn underspecified(spec: &Lts, set: &[State], a: Label) -> bool {
    set.iter().any(|&s| !spec.has_tau(s) && !spec.enables(s, a))
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
}
