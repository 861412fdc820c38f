//! Thm 3.36 and Ex. 3.37 (issue #18 item 4): the exact ADG search ([`exact_adg`]) against the
//! splitting-graph ADG (thesis Alg. 3–5, line 17 of Alg. 4 as in the thesis), both judged by
//! the definitions ([`check_adg`], Def. 3.12/3.15/3.18/3.21).

mod common;
use common::*;
use ioco_complete::adg::{build_adg, AdgOptions};
use ioco_complete::ccs::Terms;
use ioco_complete::compat::Compat;
use ioco_complete::exact::{check_adg, exact_adg, ExactOptions};
use ioco_complete::splitting::NonEnabling;
use ioco_complete::{CompleteError, Sa};
use ioco_model::{Alphabet, Lts, LtsBuilder, QuiescencePolicy, SuspensionAutomaton};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const STEPS: usize = 1_000_000;

/// The thesis' construction: output splits first, non-enabling states into every child.
fn thesis_opts() -> AdgOptions {
    AdgOptions {
        non_enabling: NonEnabling::EveryChild,
        ..AdgOptions::default()
    }
}

/// (splitting-graph ADG is one by the definitions, exact search finds one); the exact ADG is
/// checked too.
fn both(sa: &Sa) -> (bool, bool) {
    let c = Compat::compute(sa);
    let adg = build_adg(sa, &c, &thesis_opts()).unwrap();
    let split = adg.graph.complete && check_adg(sa, &c, &adg.terms, adg.root, STEPS).is_ok();
    let mut terms = Terms::new();
    let exact = exact_adg(sa, &c, &mut terms, &ExactOptions::default()).unwrap();
    if let Some(t) = exact {
        check_adg(sa, &c, &terms, t, STEPS).unwrap();
    }
    (split, exact.is_some())
}

#[test]
fn fig_3_1_has_an_adg_both_ways() {
    let l = lts(
        &[
            ("1", "a", "3"),
            ("1", "x", "1"),
            ("1", "y", "1"),
            ("2", "a", "4"),
            ("2", "x", "4"),
            ("3", "x", "4"),
            ("4", "y", "2"),
        ],
        &["a"],
    );
    let sa = Sa::from_lts(&l).unwrap();
    assert_eq!(both(&sa), (true, true));
    // The exact ADG is a shortest one: depth 4, as Ex. 3.32's.
    let c = Compat::compute(&sa);
    let mut terms = Terms::new();
    let t = exact_adg(&sa, &c, &mut terms, &ExactOptions::default())
        .unwrap()
        .unwrap();
    assert_eq!(terms.depth(t), 4);
}

#[test]
fn fig_3_5_has_no_adg_both_ways() {
    let l = lts(
        &[
            ("1", "y", "2"),
            ("3", "y", "2"),
            ("1", "a", "1"),
            ("2", "a", "1"),
            ("2", "b", "3"),
            ("3", "b", "3"),
            ("3", "a", "2"),
            ("1", "b", "2"),
            ("2", "x", "2"),
        ],
        &["a", "b"],
    );
    let sa = Sa::from_lts(&l).unwrap();
    assert_eq!(both(&sa), (false, false));
    // The splitting-graph ADG leaves 1 and 3 sharing the observation y (notes F4).
    let c = Compat::compute(&sa);
    let adg = build_adg(&sa, &c, &thesis_opts()).unwrap();
    let e = check_adg(&sa, &c, &adg.terms, adg.root, STEPS).unwrap_err();
    assert!(e.contains("share the observation y"), "{e}");
}

#[test]
fn the_search_stops_at_its_bound_with_an_error() {
    // Thesis Fig. 3.8's S_n: 2^(n-1) splitting-graph nodes; the search passes a small bound.
    let n = 8;
    let mut edges: Vec<(String, String, String)> =
        vec![(n.to_string(), format!("o{n}"), "1".into())];
    for s in 1..n {
        for x in (1..n).filter(|&x| x != s) {
            edges.push((s.to_string(), format!("o{x}"), (s + 1).to_string()));
        }
    }
    edges.sort_by_key(|e| e.0 != "1");
    let e: Vec<(&str, &str, &str)> = edges
        .iter()
        .map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str()))
        .collect();
    let sa = Sa::from_lts(&lts(&e, &[])).unwrap();
    let c = Compat::compute(&sa);
    let opts = ExactOptions {
        max_configurations: 10,
        ..ExactOptions::default()
    };
    let err = exact_adg(&sa, &c, &mut Terms::new(), &opts).unwrap_err();
    assert!(
        matches!(
            err,
            CompleteError::ExactSearchTooLarge {
                configurations: 10,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("after 10 configurations"), "{err}");
    // The memory bound too.
    let opts = ExactOptions {
        max_bytes: 4096,
        ..ExactOptions::default()
    };
    let err = exact_adg(&sa, &c, &mut Terms::new(), &opts).unwrap_err();
    assert!(matches!(err, CompleteError::ExactSearchTooLarge { bytes, .. } if bytes > 4096));
    // Unbounded, it finds the ADG (all states pairwise incompatible; Thm 3.36).
    assert_eq!(both(&sa), (true, true));
}

/// A random LTS over inputs a, b and outputs x, y (some labels with two targets: a
/// nondeterministic model), made a suspension automaton (δ, determinisation).
fn random_model(seed: u64, n: usize, p_nd: f64) -> Sa {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut alpha = Alphabet::new();
    let ins = [alpha.input("a").unwrap(), alpha.input("b").unwrap()];
    let outs = [alpha.output("x").unwrap(), alpha.output("y").unwrap()];
    let mut b = LtsBuilder::new(alpha);
    b.add_states(n);
    b.add_initial(0);
    for s in 0..n as u32 {
        for &l in ins.iter().chain(outs.iter()) {
            let p = if ins.contains(&l) { 0.6 } else { 0.45 };
            if rng.random_bool(p) {
                b.add_transition(s, l, rng.random_range(0..n as u32));
                if rng.random_bool(p_nd) {
                    b.add_transition(s, l, rng.random_range(0..n as u32));
                }
            }
        }
    }
    let lts: Lts = b.build().unwrap();
    let sa = SuspensionAutomaton::build(&lts, QuiescencePolicy::Stable).lts;
    Sa::from_lts(&sa).unwrap()
}

fn no_compatible_pairs(sa: &Sa) -> bool {
    Compat::compute(sa).compatible_pairs() == 0
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, rng_seed: prop::test_runner::RngSeed::Fixed(336), ..ProptestConfig::default() })]

    /// Thm 3.36: without compatible pairs of distinct states, the splitting graph gives an
    /// ADG iff one exists. With compatible pairs only "if it gives one, one exists" holds
    /// (Ex. 3.37).
    #[test]
    fn thm_3_36_splitting_graph_adg_iff_one_exists(seed in any::<u64>(), n in 2usize..7, p_nd in 0.0f64..0.5) {
        let sa = random_model(seed, n, p_nd);
        prop_assume!(sa.n() <= 12);
        let (split, exact) = both(&sa);
        prop_assert!(!split || exact, "the splitting-graph ADG is one, so one exists");
        if no_compatible_pairs(&sa) {
            prop_assert_eq!(split, exact, "Thm 3.36 on {} states", sa.n());
        }
    }
}

/// The property above is not vacuous: over 400 seeded models both outcomes of Thm 3.36 occur.
#[test]
fn thm_3_36_cases_cover_both_outcomes() {
    let mut seen = [[0usize; 2]; 2];
    for seed in 0..400u64 {
        let sa = random_model(seed, 2 + (seed % 5) as usize, 0.25);
        if sa.n() > 12 || !no_compatible_pairs(&sa) {
            continue;
        }
        let (split, exact) = both(&sa);
        seen[split as usize][exact as usize] += 1;
    }
    eprintln!("Thm 3.36 cases (split, exact): {seen:?}");
    assert_eq!(seen[1][0] + seen[0][1], 0, "{seen:?}");
    assert!(seen[1][1] > 0 && seen[0][0] > 0, "{seen:?}");
}

/// Ex. 3.37 [SUBST]: Fig. 3.9 is lost; this automaton (found by the seeded search below,
/// seed 942) has its property: two compatible states (2 ⋈ 3), an ADG (`a.(x.0 + y.0)`: after
/// a, state 1 answers y and states 2, 3 answer x), and the splitting-graph construction finds
/// none, with output splits first (the thesis) or input splits first.
#[test]
fn ex_3_37_an_adg_the_splitting_graph_misses() {
    let l = lts(
        &[
            ("1", "a", "1"),
            ("1", "y", "2"),
            ("2", "a", "3"),
            ("2", "b", "3"),
            ("2", "x", "2"),
            ("2", "y", "2"),
            ("3", "a", "3"),
            ("3", "x", "2"),
        ],
        &["a", "b"],
    );
    let sa = Sa::from_lts(&l).unwrap();
    let c = Compat::compute(&sa);
    assert_eq!(c.pairs(), vec![(1, 2)], "2 ⋈ 3 only");
    let mut terms = Terms::new();
    let t = exact_adg(&sa, &c, &mut terms, &ExactOptions::default())
        .unwrap()
        .unwrap();
    assert_eq!(terms.render(&sa, t, 100).unwrap(), "a.(x.0 + y.0)");
    check_adg(&sa, &c, &terms, t, STEPS).unwrap();
    for output_first in [true, false] {
        let o = AdgOptions {
            output_first,
            ..thesis_opts()
        };
        let adg = build_adg(&sa, &c, &o).unwrap();
        assert!(adg.graph.complete);
        let e = check_adg(&sa, &c, &adg.terms, adg.root, STEPS).unwrap_err();
        assert!(e.contains("incompatible but share the observation"), "{e}");
    }
    assert_eq!(both(&sa), (false, true));
}

/// With compatible pairs the "only if" of Thm 3.36 fails on many models, not one: over 3000
/// seeded random models, some have an ADG the splitting graph misses.
#[test]
fn ex_3_37_is_not_rare() {
    let mut found = 0;
    for seed in 0..3000u64 {
        let sa = random_model(seed, 3 + (seed % 6) as usize, 0.0);
        if sa.n() > 10 || no_compatible_pairs(&sa) {
            continue;
        }
        if both(&sa) == (false, true) {
            found += 1;
        }
    }
    eprintln!("Ex. 3.37 instances among 3000 seeded models: {found}");
    assert!(found >= 5, "{found}");
}
