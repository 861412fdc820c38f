//! Online testing with data: TAP19's implementations (note §3.8) and soundness against the
//! spec simulated as a system (property test: a conforming system never gets Fail).
#[path = "../../ioco-symbolic/tests/common/mod.rs"]
mod common;
use common::{load, tap19_sut, Tap19Mode};
use ioco_exec::engine::symbolic::run_online;
use ioco_exec::{OnlineOptions, RunResult, RunVerdict};
use ioco_symbolic::online::SpecSut;
use ioco_symbolic::tracker::SymbolicSpec;
use ioco_symbolic::UnknownSolver;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn verdict(mode: Tap19Mode, seed: u64, steps: usize) -> (RunResult, Vec<String>) {
    let mut t =
        SymbolicSpec::with_z3(load("../ioco-symbolic/tests/models/tap19.ioco", None)).unwrap();
    let mut sut = tap19_sut(mode);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let run = run_online(
        &mut t,
        &mut sut,
        &OnlineOptions {
            depth: steps,
            ..OnlineOptions::default()
        },
        &mut rng,
    );
    let trace = run.trace.to_strings();
    (run, trace)
}

#[test]
fn correct_tap19_passes() {
    for seed in 0..10 {
        let (v, trace) = verdict(Tap19Mode::Correct, seed, 100);
        assert_eq!(v.verdict, RunVerdict::Pass, "seed {}: {:?}", seed, trace);
    }
}

#[test]
fn tap19_mutants_fail() {
    for mode in [
        Tap19Mode::EchoPlusOne,
        Tap19Mode::StoreNotAdd,
        Tap19Mode::DoneEarly,
        Tap19Mode::NeverDone,
    ] {
        let mut failed = 0;
        for seed in 0..10 {
            let (v, trace) = verdict(mode, seed, 100);
            assert!(
                v.verdict != RunVerdict::Inconclusive,
                "{:?} seed {}: {:?} {:?}",
                mode,
                seed,
                v,
                trace
            );
            if v.verdict == RunVerdict::Fail {
                failed += 1;
            }
        }
        assert!(
            failed >= 8,
            "{:?} killed in only {} of 10 runs",
            mode,
            failed
        );
    }
}

#[test]
fn fail_messages_explain() {
    let (v, trace) = verdict(Tap19Mode::EchoPlusOne, 1, 100);
    assert_eq!(v.verdict, RunVerdict::Fail);
    let why = v.why();
    assert!(why.contains("p == x"), "{}", why);
    assert!(trace.last().unwrap().starts_with("outX!("));
}

#[test]
fn unknown_solver_gives_inconclusive_not_fail() {
    for mode in [
        Tap19Mode::EchoPlusOne,
        Tap19Mode::NeverDone,
        Tap19Mode::Correct,
    ] {
        for seed in 0..5 {
            let mut t = SymbolicSpec::new(
                load("../ioco-symbolic/tests/models/tap19.ioco", None),
                Box::new(UnknownSolver),
            )
            .unwrap();
            let mut sut = tap19_sut(mode);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let run = run_online(&mut t, &mut sut, &OnlineOptions::default(), &mut rng);
            assert!(run.verdict != RunVerdict::Fail, "{:?}", run);
        }
    }
}

fn simulate(file: &str, name: Option<&str>, seed: u64, steps: usize) -> RunVerdict {
    let spec = load(file, name);
    let mut t = SymbolicSpec::with_z3(spec.clone()).unwrap();
    let sim = SymbolicSpec::with_z3(spec).unwrap();
    let mut sut = SpecSut::new(sim, ChaCha8Rng::seed_from_u64(seed ^ 0x5eed));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    run_online(
        &mut t,
        &mut sut,
        &OnlineOptions {
            depth: steps,
            ..OnlineOptions::default()
        },
        &mut rng,
    )
    .verdict
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    /// Soundness: the spec itself (a conforming implementation) never gets Fail.
    #[test]
    fn simulated_specs_never_fail(seed in any::<u64>()) {
        for (file, name) in [
            ("../ioco-symbolic/tests/models/tap19.ioco", None),
            ("../ioco-symbolic/tests/models/coffee-fig13.ioco", None),
            ("../../examples/coffee/coffee-sts.ioco", Some("CoffeeMachine")),
            ("../../examples/torxakis/adder.ioco", Some("Adder")),
        ] {
            let v = simulate(file, name, seed, 40);
            prop_assert!(v == RunVerdict::Pass, "{} seed {}: {:?}", file, seed, v);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]
    /// Soundness of switch coverage (thesis Thm. 4.19): the simulated spec never gets Fail.
    #[test]
    fn switch_coverage_never_fails_the_spec(seed in any::<u64>()) {
        use ioco_exec::coverage::{run_switch_coverage, CoverageOptions};
        for file in ["../ioco-symbolic/tests/models/tap19.ioco", "../ioco-symbolic/tests/models/coffee-fig13.ioco", "../../examples/brp/brp.ioco"] {
            let spec = load(file, None);
            let mut cov = SymbolicSpec::with_z3(spec.clone()).unwrap();
            let sim = SymbolicSpec::with_z3(spec.clone()).unwrap();
            let mut sut = SpecSut::new(sim, ChaCha8Rng::seed_from_u64(seed ^ 7));
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let opts = CoverageOptions { depth: 10, ..Default::default() };
            let rep = run_switch_coverage(&mut cov, &mut sut, &opts, None, &mut rng);
            prop_assert!(rep.fail.is_none(), "{}: {}", file, rep);
        }
    }
}

#[test]
fn wire_values() {
    use common::int;
    use ioco_symbolic::online::parse_value;
    let spec = load("../../examples/torxakis/adder.ioco", Some("Adder"));
    let defs = &spec.defs;
    let ty = spec.automata[0].gates[0].params[0].1;
    let v = parse_value(defs, ty, "Minus(5,-3)").unwrap();
    assert_eq!(v.display(defs).to_string(), "Minus(5,-3)");
    assert!(parse_value(defs, ty, "Times(1,2)").is_err());
    assert!(parse_value(defs, ty, "Plus(1)").is_err());
    assert_eq!(
        parse_value(defs, ioco_lang::ir::Type::Range(0, 3), "2"),
        Ok(int(2))
    );
    assert!(parse_value(defs, ioco_lang::ir::Type::Range(0, 3), "4").is_err());
}

#[test]
fn failing_runs_record_what_was_allowed_and_shrink_to_a_failing_replay() {
    use ioco_exec::engine::symbolic::shrink;
    let spec = load("../ioco-symbolic/tests/models/tap19.ioco", None);
    let mut t = SymbolicSpec::with_z3(spec).unwrap();
    let mut sut = tap19_sut(Tap19Mode::EchoPlusOne);
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let opts = OnlineOptions::default();
    let mut s = ioco_exec::engine::symbolic::Symbolic::new(&mut t, Some(&opts));
    let mut sel = ioco_exec::engine::symbolic::Biased::of(&opts);
    let run = s.run(&mut sel, &mut sut, opts.depth, &mut rng);
    assert!(run.verdict == RunVerdict::Fail, "{:?}", run);
    assert!(run.observed().unwrap().starts_with("outX!("));
    assert!(
        run.allowed().iter().any(|a| a.starts_with("outX!(")),
        "{:?}",
        run.allowed()
    );
    assert!(!s.switches.is_empty());
    let inputs = std::mem::take(&mut s.inputs);
    let sh = shrink(
        &mut t,
        &mut sut,
        &run,
        &inputs,
        0,
        &Default::default(),
        None,
        &mut rng,
    )
    .expect("the failure replays");
    assert!(sh.failure.is_some(), "{:?}", sh);
    assert!(!sh.inputs.is_empty() && sh.inputs.len() <= inputs.len());
    // one input suffices: the very first echo is off by one
    assert_eq!(sh.inputs.len(), 1, "{:?}", sh.inputs);
}

#[test]
fn ddmin_finds_a_one_minimal_subsequence() {
    use ioco_symbolic::online::ddmin;
    let items: Vec<u32> = (0..20).collect();
    let mut calls = 0;
    let min = ddmin(items, 1000, |c| {
        calls += 1;
        c.contains(&3) && c.contains(&17)
    });
    assert_eq!(min, vec![3, 17]);
    assert!(calls < 100, "{}", calls);
}

#[test]
fn quiescence_timeouts_follow_the_models_annotations() {
    use ioco_symbolic::online::{model_timeout, SpecTimeouts, Timeouts};
    use std::time::Duration;
    let spec = load(
        "../../examples/coffee/coffee-sts.ioco",
        Some("CoffeeMachine"),
    );
    let t = Timeouts::of_spec(&spec);
    // @timeout(500ms) on the model is the default
    let default = model_timeout(&spec).unwrap();
    assert_eq!(default, Duration::from_millis(500));
    let mut s = SymbolicSpec::with_z3(spec).unwrap();
    assert_eq!(t.wait(&s, None, default), Duration::from_millis(500));
    for (g, v) in [
        ("water", vec![common::int(200)]),
        ("pad", vec![]),
        ("button", vec![]),
    ] {
        assert_eq!(s.after_input(g, &v), ioco_symbolic::Step::Ok);
    }
    // @timeout(2s) on `brewing`
    assert_eq!(t.wait(&s, Some("button"), default), Duration::from_secs(2));
}
