//! Property tests of the model core against an independent, naive reading of the definitions
//! (tutorial Def. 4.2, 4.7, 4.9, 6.1): state sets, τ-closure and δ computed directly on the LTS
//! (δ with the divergence semantics of `ioco_model::divergence`).

use ioco_model::{
    compare, Alphabet, CompareOptions, Label, LabelKind, Lts, LtsBuilder, QuiescencePolicy,
    Suspension, SuspensionAutomaton,
};
use proptest::prelude::*;
use std::collections::BTreeSet;

const INPUTS: [&str; 2] = ["a", "b"];
const OUTPUTS: [&str; 2] = ["x", "y"];

/// A random LTS over inputs a,b and outputs x,y with τ; `n` states, state 0 initial.
fn arb_lts(max_states: usize, with_tau: bool) -> impl Strategy<Value = Lts> {
    (1..=max_states).prop_flat_map(move |n| {
        let kinds = if with_tau { 5 } else { 4 };
        prop::collection::vec((0..n as u32, 0..kinds, 0..n as u32), 0..n * 3).prop_map(move |es| {
            let mut a = Alphabet::new();
            for i in INPUTS {
                a.input(i).unwrap();
            }
            for o in OUTPUTS {
                a.output(o).unwrap();
            }
            let mut b = LtsBuilder::new(a);
            b.add_states(n);
            b.add_initial(0);
            for (s, k, t) in es {
                let l = match k {
                    0 => b.alphabet().lookup("a").unwrap(),
                    1 => b.alphabet().lookup("b").unwrap(),
                    2 => b.alphabet().lookup("x").unwrap(),
                    3 => b.alphabet().lookup("y").unwrap(),
                    _ => Label::TAU,
                };
                b.add_transition(s, l, t);
            }
            b.build().unwrap()
        })
    })
}

fn closure(l: &Lts, set: &BTreeSet<u32>) -> BTreeSet<u32> {
    let mut out = set.clone();
    loop {
        let mut grew = false;
        for &s in out.clone().iter() {
            for t in l.successors(s, Label::TAU) {
                grew |= out.insert(t);
            }
        }
        if !grew {
            return out;
        }
    }
}

/// Stable (no output, no τ), or on a τ-cycle from which no output is reachable by τ-steps (the
/// divergence semantics of `ioco_model::divergence`), read naively from the closures.
fn quiescent(l: &Lts, s: u32) -> bool {
    let has_output = |s: u32| {
        l.edges(s)
            .iter()
            .any(|e| l.alphabet().kind(e.label) == LabelKind::Output)
    };
    let stable = !has_output(s) && !l.edges(s).iter().any(|e| e.label.is_tau());
    let after_tau: BTreeSet<u32> = l.successors(s, Label::TAU).collect();
    let on_cycle = closure(l, &after_tau).contains(&s);
    let silent = !closure(l, &BTreeSet::from([s])).into_iter().any(has_output);
    stable || (on_cycle && silent)
}

/// reach(S, x) for x visible or δ, on closed sets.
fn reach(l: &Lts, set: &BTreeSet<u32>, x: Label) -> BTreeSet<u32> {
    let mut next = BTreeSet::new();
    for &s in set {
        if x == Label::DELTA {
            if quiescent(l, s) {
                next.insert(s);
            }
        } else {
            next.extend(l.successors(s, x));
        }
    }
    closure(l, &next)
}

fn out(l: &Lts, set: &BTreeSet<u32>) -> BTreeSet<String> {
    let mut o = BTreeSet::new();
    for &s in set {
        if quiescent(l, s) {
            o.insert("δ".to_string());
        }
        for e in l.edges(s) {
            if l.alphabet().kind(e.label) == LabelKind::Output {
                o.insert(l.alphabet().name(e.label).to_string());
            }
        }
    }
    o
}

fn label_in(l: &Lts, name: &str) -> Label {
    if name == "δ" {
        Label::DELTA
    } else {
        l.alphabet().lookup(name).unwrap()
    }
}

/// Naive bounded ioco: all suspension traces of the spec up to length `k`.
fn naive_ioco(imp: &Lts, spec: &Lts, k: usize) -> bool {
    let names: Vec<&str> = INPUTS
        .iter()
        .chain(OUTPUTS.iter())
        .copied()
        .chain(["δ"])
        .collect();
    let mut frontier = vec![(
        closure(imp, &imp.initial().iter().copied().collect()),
        closure(spec, &spec.initial().iter().copied().collect()),
    )];
    for depth in 0..=k {
        let mut next = Vec::new();
        for (i, s) in &frontier {
            if !out(imp, i).is_subset(&out(spec, s)) {
                return false;
            }
            if depth == k {
                continue;
            }
            for n in &names {
                let s2 = reach(spec, s, label_in(spec, n));
                let i2 = reach(imp, i, label_in(imp, n));
                if !s2.is_empty() && !i2.is_empty() {
                    next.push((i2, s2));
                }
            }
        }
        next.sort();
        next.dedup();
        frontier = next;
    }
    true
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// `compare` agrees with the naive definition. Random models are small (≤ 4 states), so
    /// suspension automata have ≤ 16 states and product pairs ≤ 256: traces of length 12 reach
    /// every pair that the BFS can reach... not necessarily, so we only check the implication
    /// "naive finds a violation ⇒ compare does", and that compare's counterexample is real.
    #[test]
    fn compare_matches_the_definition(spec in arb_lts(4, true), imp0 in arb_lts(4, true)) {
        let imp = imp0.angelic_completion();
        let c = compare(&imp, &spec, &CompareOptions::default()).unwrap();
        if !naive_ioco(&imp, &spec, 6) {
            prop_assert!(!c.conforms());
        }
        if let Some(cex) = &c.counterexample {
            // Replay the witness naively: σ is a spec trace, reachable in impl, and the observed
            // output is in out(impl after σ) but not in out(spec after σ).
            let mut s = closure(&spec, &spec.initial().iter().copied().collect());
            let mut i = closure(&imp, &imp.initial().iter().copied().collect());
            for &l in &cex.trace {
                let name = if l == Label::DELTA { "δ".to_string() } else { spec.alphabet().name(l).to_string() };
                s = reach(&spec, &s, label_in(&spec, &name));
                i = reach(&imp, &i, label_in(&imp, &name));
                prop_assert!(!s.is_empty() && !i.is_empty());
            }
            let observed = cex.observed.trim_end_matches('!').to_string();
            prop_assert!(out(&imp, &i).contains(&observed));
            prop_assert!(!out(&spec, &s).contains(&observed));
        }
    }

    /// The suspension automaton's out sets are the naive ones along random traces.
    #[test]
    fn lazy_suspension_matches_naive(l in arb_lts(5, true), word in prop::collection::vec(0usize..5, 0..8)) {
        let names = ["a", "b", "x", "y", "δ"];
        let mut sus = Suspension::new(&l, QuiescencePolicy::Stable);
        let mut q = Some(sus.initial());
        let mut set = closure(&l, &l.initial().iter().copied().collect());
        for w in word {
            let Some(cur) = q else { break };
            let expect: BTreeSet<String> = out(&l, &set);
            let got: BTreeSet<String> = sus.out(cur).iter().map(|&x| if x == Label::DELTA { "δ".into() } else { l.alphabet().name(x).to_string() }).collect();
            prop_assert_eq!(got, expect);
            prop_assert_eq!(sus.set(cur).iter().copied().collect::<BTreeSet<_>>(), set.clone());
            let lab = label_in(&l, names[w]);
            set = reach(&l, &set, lab);
            q = sus.step(cur, lab);
            prop_assert_eq!(q.is_none(), set.is_empty());
        }
    }

    /// Tutorial Lemma A.1: det(δ(spec)) completed angelically conforms to spec.
    #[test]
    fn angelic_completion_of_the_suspension_automaton_conforms(spec in arb_lts(5, true)) {
        let sa = SuspensionAutomaton::build(&spec, QuiescencePolicy::Stable);
        let imp = sa.lts.angelic_completion();
        let c = compare(&imp, &spec, &CompareOptions::default()).unwrap();
        prop_assert!(c.conforms(), "{:?}", c.counterexample);
    }

    /// The mutant of the proof of tutorial Prop. 6.5: follow a spec trace σ and add an output
    /// the spec does not allow after σ; the result is not ioco.
    #[test]
    fn mutant_with_an_extra_output_does_not_conform(spec in arb_lts(4, true), word in prop::collection::vec(0usize..5, 0..6)) {
        let sa = SuspensionAutomaton::build(&spec, QuiescencePolicy::Stable);
        let det = sa.lts.angelic_completion();
        // walk σ in det
        let names = ["a", "b", "x", "y", "δ"];
        let mut q = 0u32;
        for w in word {
            let l = label_in(&det, names[w]);
            if let Some(t) = det.successors(q, l).next() { q = t; }
        }
        let allowed: Vec<Label> = det.edges(q).iter().map(|e| e.label).filter(|&l| det.alphabet().kind(l).is_observable_output()).collect();
        let extra = OUTPUTS.iter().map(|o| det.alphabet().lookup(o).unwrap()).find(|l| !allowed.contains(l));
        if let Some(extra) = extra {
            let mut b = det.clone().into_builder();
            b.add_transition(q, extra, q);
            let mutant = b.build().unwrap();
            let c = compare(&mutant, &spec, &CompareOptions::default()).unwrap();
            prop_assert!(!c.conforms());
        }
    }
}
