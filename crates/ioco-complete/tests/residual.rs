//! The `adg` suite with residual experiments ([`ioco_complete::residual`]) on random sparse
//! specifications (quiescent states enabling 30–80 % of the inputs): it is sound (passes the
//! specification and random conforming implementations, checked against `compare`) and
//! complete in the sense of harmonised identifiers: every incompatible pair `(s, t)` of
//! tested states is separated by two of its tests, one after `s`'s access sequence and one
//! after `t`'s, that run the same experiment (same inputs after the same outputs, inputs
//! enabled by both states) until an output only one state allows, where the other's test
//! fails. The check reads the suite's test trees only, not the construction.

mod common;
use common::run_suite;
use common::sparse::random_sa;
use ioco_complete::access::access_sequences;
use ioco_complete::compat::Compat;
use ioco_complete::equiv::Equiv;
use ioco_complete::{adg_suite, AdgOptions, Pairwise, Sa};
use ioco_gen::{Suite, TestCase, Verdict};
use ioco_model::{compare, CompareOptions, InputCompletion, Lts, LtsBuilder};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn label_of(sa: &Sa, display: &str) -> u16 {
    sa.display.iter().position(|d| d == display).unwrap() as u16
}

/// The part of `t` after following `w` (inputs applied, outputs observed), if `t` follows it.
fn walk<'a>(sa: &Sa, t: &'a TestCase, w: &[u16]) -> Option<&'a TestCase> {
    let Some((&mu, rest)) = w.split_first() else {
        return Some(t);
    };
    let d = &sa.display[mu as usize];
    let next = match t {
        TestCase::Stimulate { input, after, .. } if input == d => after,
        TestCase::Observe { .. } => t.branch(d)?,
        _ => return None,
    };
    walk(sa, next, rest)
}

/// Does `t` (run from `s`) fail when `s`'s run observes `x` (which `s` does not allow)?
fn fails_on(t: &TestCase, x: &str) -> bool {
    match t {
        TestCase::Observe {
            branches,
            otherwise,
        } => match branches.iter().find(|b| b.label == x) {
            Some(b) => matches!(
                b.then,
                TestCase::Leaf {
                    verdict: Verdict::Fail,
                    ..
                }
            ),
            None => *otherwise == Verdict::Fail,
        },
        _ => false,
    }
}

/// Do the experiments `x` (from `s`) and `y` (from `t`) separate `s` and `t`?
fn separate(sa: &Sa, x: &TestCase, s: u32, y: &TestCase, t: u32) -> bool {
    match (x, y) {
        (
            TestCase::Stimulate {
                input: a,
                after: xa,
                ..
            },
            TestCase::Stimulate {
                input: b,
                after: yb,
                ..
            },
        ) if a == b => {
            let l = label_of(sa, a);
            match (sa.step(s, l), sa.step(t, l)) {
                (Some(s2), Some(t2)) => separate(sa, xa, s2, yb, t2),
                _ => false,
            }
        }
        (TestCase::Observe { .. }, TestCase::Observe { .. }) => {
            for (o, s2) in sa.outs(s) {
                let d = &sa.display[o as usize];
                match sa.step(t, o) {
                    Some(t2) => match (x.branch(d), y.branch(d)) {
                        (Some(x2), Some(y2)) if separate(sa, x2, s2, y2, t2) => {}
                        _ => return false,
                    },
                    None if fails_on(y, d) => {}
                    None => return false,
                }
            }
            sa.outs(t)
                .filter(|&(o, _)| sa.step(s, o).is_none())
                .all(|(o, _)| fails_on(x, &sa.display[o as usize]))
        }
        _ => false,
    }
}

type Pair = (u32, u32);

/// Incompatible pairs of tested (reachable, not chaotic) states, and those the suite
/// separates.
fn separated_pairs(spec: &Lts, suite: &Suite) -> (Vec<Pair>, Vec<Pair>) {
    let mut sa = Sa::from_lts(spec).unwrap();
    let eq = Equiv::compute(&sa);
    for q in 0..sa.n() as u32 {
        sa.chaos[q as usize] = eq.chaotic(q);
    }
    let c = Compat::compute(&sa);
    let acc = access_sequences(&sa);
    let tested: Vec<u32> = (0..sa.n() as u32)
        .filter(|&q| acc[q as usize].is_some() && !sa.chaos[q as usize])
        .collect();
    let exps: Vec<Vec<&TestCase>> = (0..sa.n())
        .map(|q| match &acc[q] {
            Some(w) if !sa.chaos[q] => suite
                .tests
                .iter()
                .filter_map(|t| walk(&sa, &t.test, w))
                .collect(),
            _ => Vec::new(),
        })
        .collect();
    let (mut all, mut sep) = (Vec::new(), Vec::new());
    for (i, &s) in tested.iter().enumerate() {
        for &t in &tested[i + 1..] {
            if c.compatible(s, t) {
                continue;
            }
            all.push((s, t));
            let found = exps[s as usize]
                .iter()
                .any(|x| exps[t as usize].iter().any(|y| separate(&sa, x, s, y, t)));
            if found {
                sep.push((s, t));
            }
        }
    }
    (all, sep)
}

/// A conforming implementation of a random sparse specification: inputs completed (random
/// targets after the unspecified ones), some outputs of each state dropped (one kept).
fn conforming(spec: &Lts, rng: &mut ChaCha8Rng) -> Lts {
    let alpha = spec.alphabet().clone();
    let n = spec.num_states() as u32;
    let mut b = LtsBuilder::new(alpha.clone());
    b.add_states(n as usize);
    b.add_initial(spec.initial()[0]);
    for s in spec.states() {
        let outs: Vec<_> = spec
            .edges(s)
            .iter()
            .filter(|e| !alpha.is_input(e.label))
            .collect();
        let keep = rng.random_range(0..outs.len());
        for (i, e) in outs.iter().enumerate() {
            if i == keep || rng.random_bool(0.6) {
                b.add_transition(s, e.label, e.target);
            }
        }
        for a in alpha.inputs() {
            match spec.edges_with(s, a).first() {
                Some(e) => b.add_transition(s, a, e.target),
                None => b.add_transition(s, a, rng.random_range(0..n)),
            }
        }
    }
    b.build().unwrap()
}

fn conforms(imp: &Lts, spec: &Lts) -> bool {
    let o = CompareOptions {
        completion: InputCompletion::Require,
        ..Default::default()
    };
    compare(imp, spec, &o).unwrap().conforms()
}

/// The suite before residual experiments: a pairwise graph for every pair the ADG leaves.
fn old_opts() -> AdgOptions {
    AdgOptions {
        pairwise: Pairwise::Unseparated,
        residual_rounds: 0,
        max_tests: 10_000_000,
        ..Default::default()
    }
}

fn old_suite(spec: &Lts) -> Suite {
    adg_suite(spec, &old_opts()).unwrap()
}

/// The problem in miniature: `s0` enables `a` and `b`, `s1` only `a`, `s2` only `b`; `a`
/// separates `s0` from `s1`, `b` separates `s0` from `s2` (`s1 ⋈ s2`: no common input). After
/// δ the ADG is at `{s0, s1, s2}`, where neither input is a test case for every state (Def.
/// 3.15): the default ADG stops there, leaving `s0`/`s1` and `s0`/`s2`; Alg. 5 as printed
/// applies `a`, where `s2` stops: `s0` and `s2` are not separated by an output. Residual
/// experiments separate what is left instead of pairwise graphs: by hand, two for the default
/// (`a` separates `s0`/`s1` but loses `s0`/`s2`, `b` the reverse: one round each), one (`b`)
/// for the printed algorithm.
#[test]
fn residual_experiment_separates_the_pair_the_adg_drops() {
    let spec = common::lts(
        &[
            ("s0", "δ", "s0"),
            ("s0", "a", "t0"),
            ("s0", "b", "u0"),
            ("t0", "x", "s1"),
            ("u0", "x", "s2"),
            ("s1", "δ", "s1"),
            ("s1", "a", "t1"),
            ("t1", "y", "s1"),
            ("s2", "δ", "s2"),
            ("s2", "b", "u2"),
            ("u2", "y", "s2"),
        ],
        &["a", "b"],
    );
    let (s0, s1, s2) = (
        common::st(&spec, "s0"),
        common::st(&spec, "s1"),
        common::st(&spec, "s2"),
    );
    let pairwise = |s: &Suite| {
        s.tests
            .iter()
            .filter(|t| t.purpose.as_deref().unwrap().contains(": distinguish "))
            .count()
    };
    let left_by_adg = |s: &Suite, p: &str| {
        s.tests.iter().any(|t| {
            t.purpose
                .as_deref()
                .unwrap()
                .ends_with(&format!("distinguish {p} from s0 (left by the ADG)"))
        })
    };
    for (valid_inputs, experiments) in [(true, 2), (false, 1)] {
        let old_opts = AdgOptions {
            valid_inputs,
            ..old_opts()
        };
        let old = adg_suite(&spec, &old_opts).unwrap();
        assert!(left_by_adg(&old, "s2"));
        assert_eq!(left_by_adg(&old, "s1"), valid_inputs);
        let opts = AdgOptions {
            valid_inputs,
            ..AdgOptions::default()
        };
        let new = adg_suite(&spec, &opts).unwrap();
        assert_eq!(new.parameters["residual_experiments"], experiments);
        assert_eq!(pairwise(&new), 0);
        // Each experiment costs what the pairwise graph did (it pays off with many pairs).
        assert_eq!(new.tests.len(), old.tests.len());
        let (all, sep_old) = separated_pairs(&spec, &old);
        let (_, sep_new) = separated_pairs(&spec, &new);
        assert!(all.contains(&(s0.min(s2), s0.max(s2))));
        assert!(all.contains(&(s0.min(s1), s0.max(s1))));
        assert_eq!(sep_old, all);
        assert_eq!(sep_new, all);
        let r = run_suite(&new, &spec, &spec);
        assert!(!r.conformance_fail && !r.unsound_fail);
    }
}

/// On a 60-state model with 55 % of the inputs enabled: every incompatible pair separated,
/// by a suite far smaller than with one pairwise graph per pair left by the ADG.
#[test]
fn residual_experiments_replace_most_pairwise_graphs() {
    let spec = random_sa(60, 7, 0.55);
    let old = old_suite(&spec);
    let new = adg_suite(&spec, &AdgOptions::default()).unwrap();
    assert_eq!(new.parameters["pairwise_fallback"], "unseparated");
    assert!(new.parameters["residual_experiments"].as_u64().unwrap() > 0);
    let (all, sep_old) = separated_pairs(&spec, &old);
    let (_, sep_new) = separated_pairs(&spec, &new);
    assert!(!all.is_empty());
    assert_eq!(sep_old, all, "the old suite separates every pair");
    assert_eq!(sep_new, all, "the new suite separates every pair");
    assert!(
        2 * new.tests.len() < old.tests.len(),
        "{} tests vs {} before",
        new.tests.len(),
        old.tests.len()
    );
    let r = run_suite(&new, &spec, &spec);
    assert!(!r.conformance_fail && !r.unsound_fail);
    // The check sees the problem of Alg. 5 as printed: without residual experiments and with
    // pairwise graphs only for the pairs sharing an ADG observation, pairs stay unseparated.
    let weak = |valid_inputs| {
        adg_suite(
            &spec,
            &AdgOptions {
                pairwise: Pairwise::Undistinguished,
                residual_rounds: 0,
                valid_inputs,
                ..Default::default()
            },
        )
        .unwrap()
    };
    let (_, sep_weak) = separated_pairs(&spec, &weak(false));
    assert!(sep_weak.len() < all.len());
    // The default ADG is a test case for every state (Def. 3.15): a pair it does not separate
    // by an output shares an observation, so the Table 3.2 pairs are all there is to cover.
    let (_, sep_weak) = separated_pairs(&spec, &weak(true));
    assert_eq!(sep_weak, all);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Random sparse specifications of 3–30 states: the new suite passes the specification
    /// and two random conforming implementations, and separates every incompatible pair of
    /// tested states, as the suite with pairwise graphs only does.
    #[test]
    fn residual_suite_is_sound_and_separates_every_pair(
        seed in any::<u64>(), n in 3usize..30, p in 0usize..3,
    ) {
        let p_in = [0.3, 0.55, 0.8][p];
        let spec = random_sa(n, seed, p_in);
        check_residual_suite(&spec, &mut ChaCha8Rng::seed_from_u64(seed))?;
    }

    /// Small dense-label specifications (inputs `a`, `b` each enabled with probability 1/2,
    /// outputs `x`, `y`, δ with arbitrary targets): many shared outputs, δ leading anywhere.
    #[test]
    fn residual_suite_on_small_models(seed in any::<u64>(), n in 2usize..9) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let spec = small_sa(&mut rng, n);
        check_residual_suite(&spec, &mut rng)?;
    }
}

/// The default `adg` suite of `spec` passes `spec` and two random conforming implementations,
/// is no larger than the suite with pairwise graphs only, and separates every incompatible
/// pair of tested states, as that suite does.
fn check_residual_suite(spec: &Lts, rng: &mut ChaCha8Rng) -> Result<(), TestCaseError> {
    let new = adg_suite(spec, &AdgOptions::default()).unwrap();
    prop_assert_eq!(&new.parameters["pairwise_fallback"], "unseparated");
    for t in &new.tests {
        prop_assert!(t.test.validate().is_ok());
    }
    let r = run_suite(&new, spec, spec);
    prop_assert!(
        !r.conformance_fail && !r.unsound_fail,
        "the specification fails"
    );
    for _ in 0..2 {
        let imp = conforming(spec, rng);
        prop_assert!(conforms(&imp, spec));
        let r = run_suite(&new, &imp, spec);
        prop_assert!(
            !r.conformance_fail && !r.unsound_fail,
            "a conforming implementation fails"
        );
    }
    let old = old_suite(spec);
    prop_assert!(
        new.tests.len() <= old.tests.len(),
        "{} > {}",
        new.tests.len(),
        old.tests.len()
    );
    let (all, sep_old) = separated_pairs(spec, &old);
    let (_, sep_new) = separated_pairs(spec, &new);
    prop_assert_eq!(&sep_old, &all);
    prop_assert_eq!(&sep_new, &all);
    Ok(())
}

/// A random deterministic, non-blocking automaton over inputs `a`, `b` and outputs `x`, `y`, δ.
fn small_sa(rng: &mut ChaCha8Rng, n: usize) -> Lts {
    let mut alpha = ioco_model::Alphabet::new();
    let ins = [alpha.input("a").unwrap(), alpha.input("b").unwrap()];
    let outs = [
        alpha.output("x").unwrap(),
        alpha.output("y").unwrap(),
        ioco_model::Label::DELTA,
    ];
    let mut b = LtsBuilder::new(alpha);
    b.add_states(n);
    b.add_initial(0);
    for s in 0..n as u32 {
        for &a in &ins {
            if rng.random_bool(0.5) {
                b.add_transition(s, a, rng.random_range(0..n as u32));
            }
        }
        let mut any = false;
        for &x in &outs {
            if rng.random_bool(0.45) {
                b.add_transition(s, x, rng.random_range(0..n as u32));
                any = true;
            }
        }
        if !any {
            let x = outs[rng.random_range(0..outs.len())];
            b.add_transition(s, x, rng.random_range(0..n as u32));
        }
    }
    b.build().unwrap()
}
