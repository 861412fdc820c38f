//! An n-complete suite (thesis Def. 2.37), **run** against simulated implementations by the
//! suite runner with its fairness rule (`ioco_exec::fairness`, thesis §2.7.4: reset and retry
//! a test the implementation did not follow), fails every non-conforming implementation whose
//! suspension automaton has at most n states, and never fails a conforming one.
//!
//! Random specifications and implementations with nondeterminism and τ-steps (implementations
//! take τ before an input when they like: some faults show only then). Each case runs with its
//! own fixed seed (same seeds, same runs: no flaky outcome), over 160 cases.

use ioco_complete::{n_complete, CompleteError, NCompleteOptions};
use ioco_exec::fairness::Fairness;
use ioco_exec::{run_suite, OnlineOptions, RunVerdict, SutError};
use ioco_model::{
    compare, Alphabet, CompareOptions, InputCompletion, Label, Lts, LtsBuilder, QuiescencePolicy,
    SuspensionAutomaton,
};
use ioco_sut::sim::SimOptions;
use ioco_sut::Sut;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn alphabet() -> (Alphabet, Label, Label, Label) {
    let mut al = Alphabet::new();
    let a = al.input("a").unwrap();
    let x = al.output("x").unwrap();
    let y = al.output("y").unwrap();
    (al, a, x, y)
}

/// A random LTS of `n` states: inputs (all of them when `enabled`), outputs, forward τ-steps
/// (no divergence).
fn random_lts(rng: &mut ChaCha8Rng, n: usize, enabled: bool) -> Lts {
    let (al, a, x, y) = alphabet();
    let mut b = LtsBuilder::new(al);
    b.add_states(n);
    b.add_initial(0);
    for s in 0..n as u32 {
        if enabled || rng.random_bool(0.7) {
            b.add_transition(s, a, rng.random_range(0..n as u32));
            if rng.random_bool(0.2) {
                b.add_transition(s, a, rng.random_range(0..n as u32));
            }
        }
        for o in [x, y] {
            if rng.random_bool(0.35) {
                b.add_transition(s, o, rng.random_range(0..n as u32));
            }
        }
        if (s as usize) + 1 < n && rng.random_bool(0.25) {
            b.add_transition(s, Label::TAU, rng.random_range(s + 1..n as u32));
        }
    }
    b.build().unwrap()
}

/// The specification with its inputs completed where no τ-step leads on (self-loops), then
/// changed once: an output dropped (conforming when another output or quiescence remains), an
/// output added (nondeterministically beside the others), or an edge redirected.
fn derived(rng: &mut ChaCha8Rng, spec: &Lts) -> Lts {
    let (al, a, x, y) = alphabet();
    let n = spec.num_states();
    let mut edges: Vec<(u32, Label, u32)> = Vec::new();
    for s in spec.states() {
        for e in spec.edges(s) {
            edges.push((s, e.label, e.target));
        }
    }
    for s in 0..n as u32 {
        if !edges
            .iter()
            .any(|e| e.0 == s && (e.1 == a || e.1 == Label::TAU))
        {
            edges.push((s, a, s));
        }
    }
    match rng.random_range(0..3) {
        0 => {
            let outs: Vec<usize> = (0..edges.len())
                .filter(|&i| edges[i].1 == x || edges[i].1 == y)
                .collect();
            if !outs.is_empty() {
                edges.remove(outs[rng.random_range(0..outs.len())]);
            }
        }
        1 => {
            let s = rng.random_range(0..n as u32);
            let o = if rng.random_bool(0.5) { x } else { y };
            edges.push((s, o, rng.random_range(0..n as u32)));
        }
        _ => {
            let i = rng.random_range(0..edges.len());
            edges[i].2 = rng.random_range(0..n as u32);
        }
    }
    let mut b = LtsBuilder::new(al);
    b.add_states(n);
    b.add_initial(0);
    for (s, l, t) in edges {
        b.add_transition(s, l, t);
    }
    b.build().unwrap()
}

fn sim_factory(
    imp: Lts,
    spec: &Lts,
) -> impl Fn(usize) -> Result<Box<dyn Sut + Send>, SutError> + Sync {
    ioco_sut::sim::factory(
        imp,
        spec.alphabet(),
        SimOptions {
            race: 0.0,
            ..SimOptions::default()
        },
    )
}

#[test]
fn n_complete_suites_run_with_retries_fail_exactly_the_non_conforming() {
    let policy = QuiescencePolicy::Stable;
    let (mut conforming, mut caught, mut skipped, mut inconclusive) = (0, 0, 0, 0);
    for case in 0..400u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(case);
        let (ns, ni) = (rng.random_range(1..=3), rng.random_range(1..=3));
        let spec = random_lts(&mut rng, ns, false);
        let imp = if rng.random_bool(0.3) {
            random_lts(&mut rng, ni, true)
        } else {
            derived(&mut rng, &spec)
        };
        let sa = SuspensionAutomaton::build(&spec, policy).lts;
        let n = SuspensionAutomaton::build(&imp, policy)
            .lts
            .num_states()
            .max(sa.num_states());
        if n > 4 {
            skipped += 1;
            continue;
        }
        let Ok(cmp) = compare(
            &imp,
            &spec,
            &CompareOptions {
                policy,
                completion: InputCompletion::Require,
                ..Default::default()
            },
        ) else {
            skipped += 1; // not input-enabled
            continue;
        };
        let suite = match n_complete(
            &sa,
            n,
            &NCompleteOptions {
                max_tests: 20_000,
                ..Default::default()
            },
        ) {
            Ok(s) => s,
            Err(CompleteError::TooLarge { .. }) => {
                skipped += 1;
                continue;
            }
            Err(e) => panic!("case {case}: {e}"),
        };
        let opts = OnlineOptions {
            policy,
            seed: case,
            fairness: Fairness::from_confidence(0.999_999, 0.25),
            stop_on_failure: true,
            ..OnlineOptions::default()
        };
        let s = run_suite(&spec, &suite, &opts, sim_factory(imp.clone(), &spec));
        if cmp.conforms() {
            conforming += 1;
            assert_ne!(
                s.verdict,
                RunVerdict::Fail,
                "case {case}: a conforming implementation failed: {:?}",
                s.first_failure()
            );
            if s.verdict == RunVerdict::Inconclusive {
                // A choice point deep in a test, reached too rarely to close it within the
                // budget: honest, never a Pass.
                inconclusive += 1;
            }
        } else {
            caught += 1;
            assert_eq!(
                s.verdict,
                RunVerdict::Fail,
                "case {case}: a non-conforming implementation with at most {n} states passed \
                 (counterexample {:?})",
                cmp.counterexample
            );
        }
    }
    eprintln!(
        "{conforming} conforming ({inconclusive} of them Inconclusive), {caught} non-conforming \
         caught, {skipped} skipped"
    );
    assert!(conforming >= 20 && caught >= 20, "too few cases of a kind");
    assert!(
        inconclusive * 10 <= conforming,
        "{inconclusive} of {conforming} conforming cases ended Inconclusive"
    );
}

/// A specification and an implementation from `(source, label, target)` lists (`a`, `b`
/// inputs; `x`, `y`, `z` outputs).
fn lts(edges: &[(u32, &str, u32)], n: usize) -> Lts {
    let mut al = Alphabet::new();
    for i in ["a", "b"] {
        al.input(i).unwrap();
    }
    for o in ["x", "y", "z"] {
        al.output(o).unwrap();
    }
    let mut b = LtsBuilder::new(al.clone());
    b.add_states(n);
    b.add_initial(0);
    for &(s, l, t) in edges {
        b.add_transition(s, al.lookup(l).unwrap(), t);
    }
    b.build().unwrap()
}

/// One test whose path the implementation leaves half of the time (it answers `a?` with `x!` or
/// `y!`; the test wants `x!`, then checks `b? · z!`), against an implementation that answers
/// `b?` with the wrong `y!` after `a? x!`. Without a retry, a run that sees `y!` first ends
/// Inconclusive and the fault is missed half of the time; with the fairness rule every seed
/// finds it. The same test against a conforming implementation ends Pass, and a test whose
/// wanted branch never comes ends Pass "executed under fairness" once the evidence is in.
#[test]
fn a_test_left_by_nondeterminism_is_run_again_until_it_is_followed() {
    let spec = lts(
        &[
            (0, "a", 1),
            (1, "x", 2),
            (1, "y", 0),
            (2, "b", 3),
            (3, "z", 0),
        ],
        4,
    );
    let faulty = lts(
        &[
            (0, "a", 1),
            (0, "b", 0),
            (1, "x", 2),
            (1, "y", 0),
            (2, "b", 3),
            (2, "a", 2),
            (3, "y", 0),
        ],
        4,
    );
    let good = lts(
        &[
            (0, "a", 1),
            (0, "b", 0),
            (1, "x", 2),
            (1, "y", 0),
            (2, "b", 3),
            (2, "a", 2),
            (3, "z", 0),
        ],
        4,
    );
    let never_x = lts(&[(0, "a", 1), (0, "b", 0), (1, "y", 0)], 2);
    let suite: ioco_gen::Suite = serde_json::from_value(serde_json::json!({
        "format": "ioco-suite/1", "method": "manual", "tests": [{"name": "t", "test":
            {"kind": "stimulate", "input": "a?", "otherwise": "fail", "after":
            {"kind": "observe", "otherwise": "fail", "branches": [
                {"label": "y!", "then": {"kind": "leaf", "verdict": "inconclusive"}},
                {"label": "x!", "then": {"kind": "stimulate", "input": "b?", "otherwise": "fail",
                    "after": {"kind": "observe", "otherwise": "fail", "branches": [
                        {"label": "z!", "then": {"kind": "leaf", "verdict": "pass"}}]}}}]}}}]
    }))
    .unwrap();
    let run = |imp: &Lts, fairness: Fairness, seed: u64| {
        let opts = OnlineOptions {
            seed,
            fairness,
            ..OnlineOptions::default()
        };
        run_suite(&spec, &suite, &opts, sim_factory(imp.clone(), &spec))
    };
    let mut missed_once = 0;
    for seed in 0..20 {
        let s = run(&faulty, Fairness::default(), seed);
        assert_eq!(s.verdict, RunVerdict::Fail, "seed {seed}: {:?}", s.runs);
        assert_eq!(
            s.runs[0].trace.iter().collect::<Vec<_>>(),
            ["a?", "x!", "b?", "y!"]
        );
        if run(&faulty, Fairness::with_tries(1, 0.25), seed).verdict != RunVerdict::Fail {
            missed_once += 1;
        }
        let s = run(&good, Fairness::default(), seed);
        assert_eq!(s.verdict, RunVerdict::Pass, "seed {seed}: {:?}", s.runs);
    }
    assert!(
        missed_once >= 3,
        "one try alone missed the fault {missed_once} times"
    );
    let s = run(&never_x, Fairness::default(), 1);
    assert_eq!(s.verdict, RunVerdict::Pass);
    let note = s.runs[0].note.clone().unwrap();
    assert!(
        note.starts_with("executed under fairness") && note.contains("x! 0 (wanted)"),
        "{note}"
    );
    assert_eq!(s.runs[0].steps, 2 * Fairness::default().tries);
}

/// A test that aims at a goal (a `joker` suite: thesis Lemma 6.32's test of a joker strategy,
/// here G_a∨b's shape: after `a?` the goal is `x!`, `y!` is the system not helping) against an
/// implementation that never helps: every try ends Inconclusive, and the test stays
/// Inconclusive, its note saying the goal was not reached and why (a goal not reached is
/// never Pass), where the same tree in a suite without a goal counts as executed (Pass). An
/// implementation that helps passes.
#[test]
fn a_goal_never_reached_is_inconclusive_not_executed() {
    let spec = lts(&[(0, "a", 1), (1, "x", 2), (1, "y", 0)], 3);
    let never_x = lts(&[(0, "a", 1), (0, "b", 0), (1, "y", 0)], 2);
    let helps = lts(&[(0, "a", 1), (0, "b", 0), (1, "x", 0)], 2);
    let suite = |method: &str| -> ioco_gen::Suite {
        serde_json::from_value(serde_json::json!({
            "format": "ioco-suite/1", "method": method, "tests": [{"name": "joker", "test":
                {"kind": "stimulate", "input": "a?", "otherwise": "fail", "after":
                {"kind": "observe", "otherwise": "fail", "branches": [
                    {"label": "y!", "then": {"kind": "leaf", "verdict": "inconclusive",
                        "reason": "the system did not help at joker state 1 (y! to 0)"}},
                    {"label": "x!", "then": {"kind": "leaf", "verdict": "pass",
                        "reason": "goal reached: x! executed"}}]}}}]
        }))
        .unwrap()
    };
    let opts = OnlineOptions {
        seed: 1,
        ..OnlineOptions::default()
    };
    let run = |method: &str, imp: &Lts| {
        run_suite(
            &spec,
            &suite(method),
            &opts,
            sim_factory(imp.clone(), &spec),
        )
    };
    for method in ioco_gen::Suite::GOAL_METHODS {
        let s = run(method, &never_x);
        assert_eq!(
            s.verdict,
            RunVerdict::Inconclusive,
            "{method}: {:?}",
            s.runs
        );
        let note = s.runs[0].note.clone().unwrap();
        assert!(
            note.starts_with("goal not reached")
                && note.contains("did not help at joker state 1")
                && note.contains("x! 0 (wanted)"),
            "{note}"
        );
        assert_eq!(s.runs[0].steps, 2 * Fairness::default().tries);
        assert_eq!(run(method, &helps).verdict, RunVerdict::Pass);
    }
    let s = run("manual", &never_x);
    assert_eq!(s.verdict, RunVerdict::Pass);
    assert!(s.runs[0]
        .note
        .as_deref()
        .is_some_and(|n| n.starts_with("executed under fairness")));
}
