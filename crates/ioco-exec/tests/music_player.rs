//! The tutorial's music player (note §3.4) against its seven implementations, run through the
//! model simulator: online testing and stored suites never fail the conforming ones, and catch
//! every non-conforming one.

use ioco_exec::{run_online, run_suite, OnlineOptions, RunVerdict, Traces};
use ioco_gen::fixtures::music_player;
use ioco_gen::{generate_random, StrategySpec};
use ioco_model::{Lts, QuiescencePolicy};
use ioco_sut::sim::{SimOptions, Simulator};
use ioco_sut::Sut;
use std::sync::Arc;

fn sim_factory(
    imp: &Lts,
    spec: &Lts,
) -> impl Fn(usize) -> Result<Box<dyn Sut + Send>, ioco_exec::SutError> + Sync {
    let imp = Arc::new(imp.clone());
    let alpha = spec.alphabet().clone();
    move |_| {
        Ok(Box::new(Simulator::new(
            Arc::clone(&imp),
            &alpha,
            SimOptions::default(),
        )) as Box<dyn Sut + Send>)
    }
}

#[test]
fn online_testing_separates_conforming_from_faulty_players() {
    let spec = music_player::spec();
    for strategy in [
        StrategySpec::Uniform,
        StrategySpec::Coverage,
        StrategySpec::Weighted(vec![("shuffle?".into(), 3.0), ("δ".into(), 1.0)]),
    ] {
        for (name, imp, conforms) in music_player::implementations() {
            let opts = OnlineOptions {
                runs: if conforms { 300 } else { 200 },
                depth: 12,
                seed: 2024,
                jobs: 2,
                strategy: strategy.clone(),
                ..OnlineOptions::default()
            };
            let s = run_online(&spec, &opts, sim_factory(&imp, &spec)).unwrap();
            if conforms {
                assert_eq!(
                    s.verdict,
                    RunVerdict::Pass,
                    "{name} ({strategy:?}) wrongly failed: {:?}",
                    s.first_failure()
                );
                assert_eq!(s.runs.len(), 300);
                assert_eq!(s.coverage.states_total, 4);
            } else {
                let f = s
                    .first_failure()
                    .unwrap_or_else(|| panic!("{name} ({strategy:?}) not caught"));
                let failure = f.failure.as_ref().unwrap();
                assert!(!failure.allowed.contains(&failure.observed), "{name}");
                assert_eq!(f.trace.last(), Some(failure.observed.as_str()));
            }
        }
    }
}

#[test]
fn catches_the_documented_witnesses() {
    // silent: after shuffle? it stays quiet where a song is required.
    let spec = music_player::spec();
    let imps = music_player::implementations();
    let (_, silent, _) = imps.iter().find(|i| i.0 == "silent").unwrap();
    let opts = OnlineOptions {
        runs: 100,
        depth: 10,
        seed: 1,
        ..OnlineOptions::default()
    };
    let s = run_online(&spec, &opts, sim_factory(silent, &spec)).unwrap();
    let f = s.first_failure().unwrap().failure.clone().unwrap();
    assert_eq!(f.observed, "δ");
    assert_eq!(f.allowed, vec!["playA!".to_string(), "playB!".to_string()]);
    // early: plays before the button: playA! at ε, where only δ is allowed.
    let (_, early, _) = imps.iter().find(|i| i.0 == "early").unwrap();
    let s = run_online(&spec, &opts, sim_factory(early, &spec)).unwrap();
    let f = s.first_failure().unwrap().failure.clone().unwrap();
    assert_eq!(f.observed, "playA!");
}

#[test]
fn stored_random_suites_behave_like_online_testing() {
    let spec = music_player::spec();
    let suite = generate_random(&spec, QuiescencePolicy::Stable, 40, 6, 99);
    for (name, imp, conforms) in music_player::implementations() {
        let opts = OnlineOptions {
            fairness: ioco_exec::fairness::Fairness::default().repeating(5),
            seed: 3,
            stop_on_failure: false,
            ..OnlineOptions::default()
        };
        let s = run_suite(&spec, &suite, &opts, sim_factory(&imp, &spec));
        assert_eq!(s.runs.len(), 40, "{name}");
        assert!(s.runs.iter().all(|r| r.test.is_some()));
        if conforms {
            assert_eq!(
                s.verdict,
                RunVerdict::Pass,
                "{name}: {:?}",
                s.first_failure()
            );
        } else {
            assert_eq!(
                s.verdict,
                RunVerdict::Fail,
                "{name} not caught by the suite"
            );
        }
    }
}

#[test]
fn same_seed_same_runs() {
    let spec = music_player::spec();
    let (_, full, _) = music_player::implementations().remove(1);
    let opts = OnlineOptions {
        runs: 30,
        depth: 15,
        seed: 77,
        jobs: 2,
        strategy: StrategySpec::Coverage,
        ..OnlineOptions::default()
    };
    let a = run_online(&spec, &opts, sim_factory(&full, &spec)).unwrap();
    let b = run_online(&spec, &opts, sim_factory(&full, &spec)).unwrap();
    let traces =
        |s: &ioco_exec::Summary| s.runs.iter().map(|r| r.trace.clone()).collect::<Vec<_>>();
    assert_eq!(traces(&a), traces(&b));
    let c = run_online(
        &spec,
        &OnlineOptions {
            seed: 78,
            ..opts.clone()
        },
        sim_factory(&full, &spec),
    )
    .unwrap();
    assert_ne!(traces(&a), traces(&c));
    // full coverage of the specification by 30 coverage-guided runs
    assert_eq!(a.coverage.transitions_visited, spec.num_transitions());
}

#[test]
fn keeping_only_failing_traces_changes_nothing_else() {
    let spec = music_player::spec();
    for (name, imp, _) in music_player::implementations() {
        let opts = OnlineOptions {
            runs: 40,
            depth: 12,
            seed: 5,
            stop_on_failure: false,
            ..OnlineOptions::default()
        };
        let all = run_online(&spec, &opts, sim_factory(&imp, &spec)).unwrap();
        let lean = OnlineOptions {
            traces: Traces::Failures,
            ..opts
        };
        let lean = run_online(&spec, &lean, sim_factory(&imp, &spec)).unwrap();
        assert_eq!(all.verdict, lean.verdict, "{name}");
        assert_eq!(all.coverage, lean.coverage, "{name}");
        for (a, b) in all.runs.iter().zip(&lean.runs) {
            assert_eq!(
                (a.verdict, a.steps, &a.failure),
                (b.verdict, b.steps, &b.failure)
            );
            if a.verdict == RunVerdict::Pass {
                assert!(b.trace.is_empty() && !a.trace.is_empty(), "{name}");
            } else {
                assert_eq!(a.trace, b.trace, "{name}");
            }
        }
    }
}

#[test]
fn distinguishing_suites_never_count_as_non_conformance() {
    use ioco_gen::{Branch, NamedTest, Suite, SuiteRole, TestCase, Verdict};
    let spec = music_player::spec();
    let (_, a_only, _) = music_player::implementations().remove(0);
    // "Does the player play song B after shuffle?": fail means "distinguished" (A-only never
    // plays B), which is no non-conformance.
    let probe = TestCase::Stimulate {
        input: "shuffle?".into(),
        after: Box::new(TestCase::Observe {
            branches: vec![Branch {
                label: "playB!".into(),
                then: TestCase::leaf(Verdict::Pass),
            }],
            otherwise: Verdict::Fail,
        }),
        branches: vec![],
        otherwise: Verdict::Fail,
    };
    let mut inner = Suite::new("merge");
    inner.role = SuiteRole::Distinguishing;
    inner.tests.push(NamedTest {
        name: "b-after-shuffle".into(),
        purpose: None,
        test: probe.clone(),
    });
    let mut outer = Suite::new("manual");
    outer.suites.push(inner);
    let opts = OnlineOptions {
        seed: 1,
        ..OnlineOptions::default()
    };
    let s = run_suite(&spec, &outer, &opts, sim_factory(&a_only, &spec));
    assert_eq!(s.verdict, RunVerdict::Pass);
    assert_eq!(s.runs[0].test.as_deref(), Some("merge.0/b-after-shuffle"));
    assert!(s.runs[0]
        .note
        .as_ref()
        .unwrap()
        .starts_with("distinguished"));
    // The same test in a conformance suite is a Fail.
    let mut plain = Suite::new("manual");
    plain.tests.push(NamedTest {
        name: "b".into(),
        purpose: None,
        test: probe,
    });
    let s = run_suite(&spec, &plain, &opts, sim_factory(&a_only, &spec));
    assert_eq!(s.verdict, RunVerdict::Fail);
    assert_eq!(s.runs[0].failure.as_ref().unwrap().observed, "playA!");
}

#[test]
fn a_spent_time_budget_starts_no_run() {
    let spec = music_player::spec();
    let (_, full, _) = music_player::implementations().remove(1);
    let opts = OnlineOptions {
        runs: 10,
        time_budget: Some(std::time::Duration::ZERO),
        ..OnlineOptions::default()
    };
    let s = run_online(&spec, &opts, sim_factory(&full, &spec)).unwrap();
    assert!(s.runs.is_empty());
    assert_eq!(s.verdict, RunVerdict::Pass);
}

#[test]
fn a_real_counterexample_inside_a_distinguishing_suite_stays_fail() {
    use ioco_gen::{Branch, NamedTest, Suite, SuiteRole, TestCase, Verdict};
    let spec = music_player::spec();
    let early = music_player::implementations()
        .into_iter()
        .find(|(name, _, _)| *name == "early")
        .expect("the `early` implementation")
        .1;
    // Observe at the start: δ is the only thing the specification allows there. `early` may
    // play song A before any button press: that is not "distinguished", it is a
    // non-conformance of the outer specification (tutorial Def. 6.2).
    let probe = TestCase::Observe {
        branches: vec![Branch {
            label: "δ".into(),
            then: TestCase::leaf(Verdict::Pass),
        }],
        otherwise: Verdict::Fail,
    };
    let mut inner = Suite::new("merge");
    inner.role = SuiteRole::Distinguishing;
    inner.tests.push(NamedTest {
        name: "wait".into(),
        purpose: None,
        test: probe,
    });
    let mut outer = Suite::new("manual");
    outer.suites.push(inner);
    let opts = OnlineOptions {
        seed: 3,
        fairness: ioco_exec::fairness::Fairness::default().repeating(20),
        ..OnlineOptions::default()
    };
    let s = run_suite(&spec, &outer, &opts, sim_factory(&early, &spec));
    assert_eq!(s.verdict, RunVerdict::Fail);
}
