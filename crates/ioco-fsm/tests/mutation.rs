//! Mutation testing of the complete-test-suite methods: every mutant with at most `n + k`
//! states that is not equivalent to the (minimal) specification must fail some test of each
//! method's suite for `k` extra states. Mutants: output faults, transfer faults, and mutants
//! with real extra states (a path of the specification unfolded into copies, a fault on the
//! last copy). Equivalence is decided by product BFS ([`ioco_fsm::equivalence`]).

mod common;

use common::*;
use ioco_fsm::equivalence::{distinguishing_word, first_killing_test};
use ioco_fsm::{generate, Method};
use ioco_model::Mealy;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Lee & Yannakakis' distinguishable machine (the hybrid-ADS example), built by hand.
fn ly_machine() -> Mealy {
    let mut m = Mealy::new(
        6,
        vec!["a".into(), "b".into()],
        vec!["0".into(), "1".into()],
        0,
    );
    for s in 0..6u32 {
        m.set(s, 0, (s + 1) % 6, s % 2);
        m.set(s, 1, if s == 0 { 0 } else { (s + 1) % 6 }, 0);
    }
    m
}

/// AALpy's coffee machine, built by hand.
fn coffee() -> Mealy {
    let mut m = Mealy::new(
        2,
        vec!["coin".into(), "button".into()],
        vec!["beep".into(), "init".into(), "coffee".into()],
        0,
    );
    m.set(0, 0, 1, 0);
    m.set(0, 1, 0, 1);
    m.set(1, 0, 1, 0);
    m.set(1, 1, 0, 2);
    m
}

fn specs() -> Vec<Mealy> {
    let mut v = vec![ly_machine(), coffee()];
    for seed in 0..24u64 {
        let n = 3 + (seed % 4) as usize;
        let ni = 2 + (seed % 2) as usize;
        let no = 2 + ((seed / 2) % 2) as usize;
        v.push(minimal(&random_machine(seed, n, ni, no, 0.0)));
    }
    v
}

/// Assert that every inequivalent mutant is killed; returns (inequivalent, checked) counts.
fn check_all(spec: &Mealy, mutants: &[Mealy], method: Method, k: usize) -> usize {
    let suite = generate(spec, method, k).unwrap();
    let mut inequivalent = 0;
    for mutant in mutants {
        let Some(cex) = distinguishing_word(spec, mutant) else {
            continue;
        };
        inequivalent += 1;
        assert!(
            first_killing_test(&suite.words, spec, mutant).is_some(),
            "{method} k={k} misses a mutant (counterexample {cex:?})\nspec {spec:?}\nmutant {mutant:?}\nsuite {:?}",
            suite.words
        );
    }
    inequivalent
}

#[test]
fn every_single_fault_mutant_is_killed_with_k0() {
    for spec in specs() {
        let mutants = all_plain_mutants(&spec);
        for method in Method::ALL {
            let killed = check_all(&spec, &mutants, method, 0);
            assert!(killed > 0);
        }
    }
}

#[test]
fn every_one_extra_state_mutant_is_killed_with_k1() {
    for spec in specs() {
        let mutants = all_one_extra_state_mutants(&spec);
        assert!(mutants
            .iter()
            .all(|m| m.num_states() == spec.num_states() + 1));
        for method in Method::ALL {
            check_all(&spec, &mutants, method, 1);
        }
    }
}

/// The extra-state mutants are meaningful: suites for k = 0 miss some of them (so the k = 1
/// test above really exercises the infixes), while the k = 1 suites kill them all.
#[test]
fn k0_suites_miss_some_extra_state_mutants() {
    for method in Method::ALL {
        let mut survivors = 0;
        for spec in specs() {
            let suite = generate(&spec, method, 0).unwrap();
            for mutant in all_one_extra_state_mutants(&spec) {
                if distinguishing_word(&spec, &mutant).is_some()
                    && first_killing_test(&suite.words, &spec, &mutant).is_none()
                {
                    survivors += 1;
                }
            }
        }
        assert!(
            survivors > 0,
            "{method}: no k=0 survivor among the extra-state mutants"
        );
    }
}

fn random_case(
    seed: u64,
    n: usize,
    ni: usize,
    no: usize,
    k: usize,
    partial: f64,
) -> Result<(), TestCaseError> {
    let raw = random_machine(seed, n, ni, no, partial);
    let Ok(prepared) = ioco_fsm::prepare::prepare(&raw) else {
        // Compatible states in a partial machine: rejected by design (tested elsewhere).
        return Ok(());
    };
    let spec = prepared.machine;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mutants: Vec<Mealy> = (0..24)
        .map(|_| {
            let mut m = random_mutant(&spec, k, &mut rng);
            complete_randomly(&mut m, &mut rng);
            m
        })
        .collect();
    for method in Method::ALL {
        let suite = generate(&spec, method, k).unwrap();
        let suite_raw = generate(&raw, method, k).unwrap();
        prop_assert_eq!(suite.info.minimal, spec.num_states());
        check_prefix_free_and_covering(&spec, &suite.words, k)?;
        for mutant in &mutants {
            prop_assert!(mutant.num_states() <= spec.num_states() + k);
            if let Some(cex) = distinguishing_word(&spec, mutant) {
                prop_assert!(
                    first_killing_test(&suite.words, &spec, mutant).is_some(),
                    "seed {} {} k={} misses a mutant (cex {:?})\nspec {:?}\nmutant {:?}",
                    seed,
                    method,
                    k,
                    cex,
                    spec,
                    mutant
                );
                // The suite of the unminimised machine works as well.
                prop_assert!(first_killing_test(&suite_raw.words, &spec, mutant).is_some());
            }
        }
    }
    Ok(())
}

/// No test is a prefix of another, every test is defined, and every word of `Q·I^{≤k+1}` is a
/// prefix of some test.
fn check_prefix_free_and_covering(
    spec: &Mealy,
    words: &[Vec<u32>],
    k: usize,
) -> Result<(), TestCaseError> {
    let mut sorted = words.to_vec();
    sorted.sort();
    for w in sorted.windows(2) {
        prop_assert!(
            !w[1].starts_with(&w[0]),
            "{:?} is a prefix of {:?}",
            w[0],
            w[1]
        );
    }
    let mut prefixes = std::collections::HashSet::new();
    for w in words {
        prop_assert!(spec.outputs_of(w).is_some());
        for i in 0..=w.len() {
            prefixes.insert(&w[..i]);
        }
    }
    for q in ioco_fsm::access::state_cover(spec) {
        let mut frontier = vec![q];
        for _ in 0..k + 1 {
            let mut next = Vec::new();
            for u in frontier {
                prop_assert!(prefixes.contains(u.as_slice()), "{:?} not covered", u);
                let s = spec.run_from(spec.initial, &u).unwrap().0;
                for a in 0..spec.num_inputs() as u32 {
                    if spec.step(s, a).is_some() {
                        let mut v = u.clone();
                        v.push(a);
                        next.push(v);
                    }
                }
            }
            frontier = next;
        }
        for u in frontier {
            prop_assert!(prefixes.contains(u.as_slice()), "{:?} not covered", u);
        }
    }
    Ok(())
}

/// Implementations are complete: fill undefined transitions at random.
fn complete_randomly(m: &mut Mealy, rng: &mut ChaCha8Rng) {
    use rand::Rng;
    let n = m.num_states() as u32;
    for s in 0..n {
        for a in 0..m.num_inputs() as u32 {
            if m.step(s, a).is_none() {
                let t = rng.random_range(0..n);
                let o = rng.random_range(0..m.outputs.len() as u32);
                m.set(s, a, t, o);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_mutants_with_up_to_k_extra_states_are_killed(
        seed in any::<u64>(), n in 3usize..=6, ni in 2usize..=3, no in 2usize..=3, k in 0usize..=2,
    ) {
        random_case(seed, n, ni, no, k, 0.0)?;
    }

    /// Partial specifications: the suites use defined words only and kill every complete
    /// implementation that differs on a defined word (quasi-equivalence).
    #[test]
    fn partial_specifications(
        seed in any::<u64>(), n in 3usize..=6, ni in 2usize..=3, no in 2usize..=3, k in 0usize..=1,
    ) {
        random_case(seed, n, ni, no, k, 0.25)?;
    }
}

/// The Wp pitfall of LearnLib issue #29: in the second phase, following `r·x` (r a transition,
/// x an infix) by the identifier of the state reached by `r` instead of by `r·x`. That buggy
/// suite misses some mutant with one extra state; the real Wp suite (tested above) does not.
#[test]
fn wp_with_the_identifier_of_the_wrong_state_misses_mutants() {
    let k = 1;
    let mut missed = 0;
    for spec in specs() {
        let p = ioco_fsm::prepare::prepare(&spec).unwrap();
        let m = &p.machine;
        let w = p.seps.characterisation_set(m);
        let acc = ioco_fsm::access::AccessTree::new(m);
        let mut buggy: Vec<Vec<u32>> = Vec::new();
        for &s in &acc.order {
            let q = acc.access(s).unwrap();
            // Phase 1: Q·I^{≤k}·W.
            let mut layer = vec![q.clone()];
            for depth in 0..=k + 1 {
                let mut next = Vec::new();
                for u in &layer {
                    if depth <= k {
                        for x in &w {
                            buggy.push([u.as_slice(), x].concat());
                        }
                    } else {
                        // Phase 2 with the wrong state: the one after the transition q·a.
                        let after_transition = m.run_from(m.initial, &u[..q.len() + 1]).unwrap().0;
                        for x in p.seps.identifier(m, after_transition, &w) {
                            buggy.push([u.as_slice(), &x].concat());
                        }
                    }
                    for a in 0..m.num_inputs() as u32 {
                        next.push([u.as_slice(), &[a]].concat());
                    }
                }
                layer = next;
            }
        }
        let good = generate(m, Method::Wp, k).unwrap();
        for mutant in all_one_extra_state_mutants(m) {
            if distinguishing_word(m, &mutant).is_some() {
                assert!(killed(&good.words, m, &mutant));
                if !killed(&buggy, m, &mutant) {
                    missed += 1;
                }
            }
        }
    }
    assert!(
        missed > 0,
        "the buggy Wp variant should miss some extra-state mutant"
    );
}
