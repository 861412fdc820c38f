//! n-complete suites observe (#35 item 1): δ is an observation like any output, and an
//! implementation may show an output the specification's alphabet does not name. So a
//! specification without outputs, or with few, never gets an empty suite when some
//! implementation within the bound does not conform, and the suite fails every such
//! implementation (property test over random specifications with 0 or 1 outputs and random
//! implementations of at most `n` states over a larger output alphabet).

mod common;
use common::{lts, run_suite};
use ioco_complete::equiv::Equiv;
use ioco_complete::{n_complete, CompleteError, NCompleteOptions, Sa};
use ioco_model::{compare, Alphabet, CompareOptions, InputCompletion, Label, Lts, LtsBuilder};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// An alphabet with `inputs` and `outputs` (δ is added as an output label of the automata).
fn alphabet(inputs: &[&str], outputs: &[&str]) -> (Alphabet, Vec<Label>, Vec<Label>) {
    let mut alpha = Alphabet::new();
    let ins = inputs.iter().map(|n| alpha.input(n).unwrap()).collect();
    let mut outs: Vec<Label> = outputs.iter().map(|n| alpha.output(n).unwrap()).collect();
    outs.push(Label::DELTA);
    (alpha, ins, outs)
}

fn build(alpha: &Alphabet, n: usize, trans: &[(u32, Label, u32)]) -> Lts {
    let mut b = LtsBuilder::new(alpha.clone());
    b.add_states(n);
    b.add_initial(0);
    for &(s, l, t) in trans {
        b.add_transition(s, l, t);
    }
    b.build().unwrap()
}

/// A random deterministic, non-blocking automaton over `ins`/`outs` (δ included in `outs`).
fn random(
    rng: &mut ChaCha8Rng,
    n: usize,
    ins: &[Label],
    outs: &[Label],
    input_enabled: bool,
    p_out: f64,
) -> Vec<(u32, Label, u32)> {
    let mut t = Vec::new();
    for s in 0..n as u32 {
        for &a in ins {
            if input_enabled || rng.random_bool(0.6) {
                t.push((s, a, rng.random_range(0..n as u32)));
            }
        }
        let mut any = false;
        for &x in outs {
            if rng.random_bool(p_out) {
                t.push((s, x, rng.random_range(0..n as u32)));
                any = true;
            }
        }
        if !any {
            let x = outs[rng.random_range(0..outs.len())];
            t.push((s, x, rng.random_range(0..n as u32)));
        }
    }
    t
}

/// Whether δ right after δ changes nothing: for every reachable `q -δ-> q' -δ-> q''`, `q'' ≈ q'`
/// (thesis Def. 2.17 equivalence). Every suspension automaton of an LTS has this (after δ the
/// state is quiescent with a δ self-loop, tutorial Def. 4.8); the thesis' SA domain does not
/// require it (thesis L1841–1862). n-complete access sequences never contain δδ (#13 item 8),
/// so a suite is n-complete for the implementations that have it, not for the thesis' whole
/// domain (see `a_second_quiescence_that_changes_state_is_outside_the_domain`). Specifications
/// need not have it: the random ones here often do not, and 6 000 cases with
/// `PROPTEST_CASES=6000` found no miss (the nested suites of their compatible δ states test
/// what a δδ would reach).
fn delta_stable(l: &Lts) -> bool {
    let sa = Sa::from_lts(l).unwrap();
    let Some(d) = sa.local(Label::DELTA) else {
        return true;
    };
    let eq = Equiv::compute(&sa);
    let reach = sa.reachable();
    (0..sa.n() as u32).filter(|&q| reach[q as usize]).all(|q| {
        sa.step(q, d)
            .is_none_or(|t| sa.step(t, d).is_none_or(|t2| eq.equivalent(t, t2)))
    })
}

fn conforms(imp: &Lts, spec: &Lts) -> bool {
    let o = CompareOptions {
        completion: InputCompletion::Require,
        ..Default::default()
    };
    compare(imp, spec, &o).unwrap().conforms()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// For random specifications with no output (`outs = 0`) or one (`outs = 1`), and random
    /// input-enabled implementations of at most `n` states whose outputs include one the
    /// specification never names: the suite is empty only if every such implementation
    /// conforms (never, here: the suite observes after ε), it fails every non-conforming
    /// implementation in which δ after δ changes nothing (`delta_stable`, the domain of
    /// δδ-free access sequences), and it never fails a conforming one (nor any other with a
    /// fail leaf that is no counterexample).
    #[test]
    fn n_complete_observes_where_only_quiescence_is_allowed(
        seed in any::<u64>(), n in 1usize..4, ni in 1usize..3, outs in 0usize..2, p_impl_out in 0.05f64..0.5,
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let inputs = &["a", "b"][..ni];
        let (sa, s_in, s_out) = alphabet(inputs, &["x"][..outs]);
        let spec = build(&sa, n, &random(&mut rng, n, &s_in, &s_out, false, 0.5));
        let (ia, i_in, i_out) = alphabet(inputs, &["x", "z"]);
        let m = rng.random_range(1..=n);
        // mostly quiescent implementations, some of which show an output now and then
        let mut imp_t = random(&mut rng, m, &i_in, &[Label::DELTA], true, 1.0);
        if rng.random_bool(0.7) {
            let s = rng.random_range(0..m as u32);
            let x = i_out[rng.random_range(0..i_out.len() - 1)];
            if !imp_t.iter().any(|e| e.0 == s && e.1 == x) {
                imp_t.push((s, x, rng.random_range(0..m as u32)));
            }
        }
        for s in 0..m as u32 {
            for &x in &i_out[..i_out.len() - 1] {
                if rng.random_bool(p_impl_out) && !imp_t.iter().any(|e| e.0 == s && e.1 == x) {
                    imp_t.push((s, x, rng.random_range(0..m as u32)));
                }
            }
        }
        let imp = build(&ia, m, &imp_t);
        let ok = conforms(&imp, &spec);
        // the domain the suite is complete for: δδ behaves as δ in the implementation (see
        // `delta_stable`; at least three quarters of the non-conforming implementations here)
        let in_domain = delta_stable(&imp);
        for flatten in [false, true] {
            let opts = NCompleteOptions { max_tests: 5_000, flatten_nested: flatten, ..Default::default() };
            let suite = match n_complete(&spec, n, &opts) {
                Ok(s) => s,
                Err(CompleteError::TooLarge { .. }) => return Ok(()),
                Err(e) => panic!("{e}"),
            };
            // An implementation that shows the fresh output `z!` at once does not conform
            // and has one state: the suite is never empty.
            prop_assert!(suite.num_tests() > 0, "empty n-complete suite");
            let r = run_suite(&suite, &imp, &spec);
            prop_assert!(!r.unsound_fail, "a fail leaf without an ioco counterexample");
            if ok {
                prop_assert!(!r.conformance_fail && !r.monitor, "conforming implementation failed (flatten {})", flatten);
            } else if !in_domain {
                // outside the domain only soundness is asserted (above)
            } else if flatten {
                prop_assert!(r.conformance_fail, "non-conforming implementation with ≤ n states passed (flattened)");
            } else {
                prop_assert!(r.conformance_fail || r.monitor, "non-conforming implementation with ≤ n states passed");
            }
        }
    }
}

/// The case: `a?` then `b?` and quiescence everywhere, no output. The implementation
/// that shows `x!` at once does not conform; the 3-complete suite observes after ε and fails
/// it (before: no test at all, every state was taken for chaos).
#[test]
fn a_specification_without_outputs_gets_observing_tests() {
    let spec = lts(
        &[
            ("0", "a", "1"),
            ("1", "b", "0"),
            ("0", "δ", "0"),
            ("1", "δ", "1"),
        ],
        &["a", "b"],
    );
    let imp = lts(
        &[
            ("0", "a", "1"),
            ("0", "b", "0"),
            ("0", "x", "0"),
            ("1", "a", "1"),
            ("1", "b", "0"),
            ("1", "δ", "1"),
        ],
        &["a", "b"],
    );
    assert!(!conforms(&imp, &spec));
    let suite = n_complete(&spec, 3, &NCompleteOptions::default()).unwrap();
    assert!(suite.num_tests() > 0);
    let first = &suite.tests[0];
    assert_eq!(first.purpose.as_deref(), Some("after ε: observe"));
    let r = run_suite(&suite, &imp, &spec);
    assert!(r.conformance_fail && !r.unsound_fail);
    // The conforming implementation (quiescent, inputs as specified) passes.
    let good = lts(
        &[
            ("0", "a", "1"),
            ("0", "b", "0"),
            ("1", "a", "1"),
            ("1", "b", "0"),
            ("0", "δ", "0"),
            ("1", "δ", "1"),
        ],
        &["a", "b"],
    );
    assert!(conforms(&good, &spec));
    let r = run_suite(&suite, &good, &spec);
    assert!(!r.conformance_fail && !r.monitor);
}

/// The case the property test found (seed 4110082630748911783, n = 3, ni = 1, outs = 0,
/// p_impl_out ≈ 0.1451): the specification is quiescent forever (`0 -δ-> 1 -δ-> 0`; state 2
/// is unreachable), the implementation `0 -δ-> 1 -δ-> 2` shows `z!` in state 2 only. It does
/// not conform (`δ·δ·z!`) and has 3 states specified by the specification, so by the thesis'
/// Def. 2.35 over its whole SA domain a 3-complete suite would fail it (`P(S, 3)` holds
/// `δ·δ`). Our access sequences never contain δδ (#13 item 8: a second δ right after δ
/// costs a time-out and tells nothing for a suspension automaton of an LTS, where the state
/// after δ is quiescent with a δ self-loop, tutorial Def. 4.8). This implementation is not
/// such an automaton: its second δ leads to a state with an output, which no LTS gives (with
/// the δδ filter of `suite.rs`'s `walk` removed, the suite fails it: that filter is the whole
/// cause). So the
/// suite is n-complete for implementations in which δδ behaves as δ (every real one), and this
/// implementation is outside that domain: the property test's oracle was wrong to expect a
/// Fail here (it now asserts completeness only inside the domain, soundness everywhere). The
/// δ-stable counterpart that shows `z!` after one δ is failed.
#[test]
fn a_second_quiescence_that_changes_state_is_outside_the_domain() {
    let spec = lts(
        &[
            ("0", "δ", "1"),
            ("1", "δ", "0"),
            ("2", "a", "0"),
            ("2", "δ", "2"),
        ],
        &["a"],
    );
    let imp = lts(
        &[
            ("0", "a", "0"),
            ("0", "δ", "1"),
            ("1", "a", "1"),
            ("1", "δ", "2"),
            ("2", "a", "0"),
            ("2", "δ", "2"),
            ("2", "z", "0"),
        ],
        &["a"],
    );
    assert!(!conforms(&imp, &spec), "δ·δ·z! is a counterexample");
    assert!(
        delta_stable(&spec),
        "the specification's δ states are equivalent"
    );
    assert!(
        !delta_stable(&imp),
        "the second δ leads to a state with an output"
    );
    for flatten in [false, true] {
        let opts = NCompleteOptions {
            flatten_nested: flatten,
            ..Default::default()
        };
        let suite = n_complete(&spec, 3, &opts).unwrap();
        assert!(suite.num_tests() > 0);
        // outside the domain: not caught (no test repeats δ), and no unsound fail either
        let r = run_suite(&suite, &imp, &spec);
        assert!(!r.conformance_fail && !r.monitor && !r.unsound_fail);
        // the δ-stable implementation with the same fault after one δ is caught
        let stable = lts(
            &[
                ("0", "a", "0"),
                ("0", "δ", "1"),
                ("1", "a", "1"),
                ("1", "δ", "1"),
                ("1", "z", "0"),
            ],
            &["a"],
        );
        assert!(!conforms(&stable, &spec) && delta_stable(&stable));
        let r = run_suite(&suite, &stable, &spec);
        assert!(r.conformance_fail && !r.unsound_fail);
    }
}
