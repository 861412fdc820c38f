//! Multi-actions with hidden gates (issue #16, TorXakis's DispatchProcess DisPro12): a step of
//! one visible gate and hidden gates is the visible action; the hidden gates' parameters are
//! existentially quantified — fixed by the guards from the visible values (`jj == id`) or
//! enumerated like a hidden step's — and every successor is tracked, or the step is
//! Inconclusive, never a partial set. Several visible gates in one step are a step only where
//! `@sync` lists them (tests/multi_labels.rs).
mod common;
use common::{int, load};
use ioco_symbolic::tracker::{Step, SymbolicSpec};
use ioco_symbolic::UnknownSolver;
use std::sync::Arc;

const MODEL: &str = "tests/models/multi-hidden.ioco";

fn spec(name: &str) -> SymbolicSpec {
    SymbolicSpec::with_z3(load(MODEL, Some(name))).unwrap()
}

fn fails(s: Step) -> String {
    match s {
        Step::Fail(why) => why,
        other => panic!("expected Fail, got {other:?}"),
    }
}

fn inconclusive(s: Step) -> String {
    match s {
        Step::Inconclusive(why) => why,
        other => panic!("expected Inconclusive, got {other:?}"),
    }
}

#[test]
fn a_job_takes_a_hidden_id_in_the_same_step() {
    let mut t = spec("Jobs");
    assert_eq!(t.after_input("Job", &[int(7), int(1)]), Step::Ok);
    // the id is in use: the manager refuses it, so the input is not specified
    let mut u = spec("Jobs");
    assert_eq!(u.after_input("Job", &[int(7), int(1)]), Step::Ok);
    inconclusive(u.after_input("Job", &[int(7), int(5)]));
    // a negative id is no id: the hidden Acquire has no value, the input is not specified
    inconclusive(spec("Jobs").after_input("Job", &[int(-1), int(1)]));
    // another id is fine; quiescence is not (a hidden dispatch or an output is pending)
    assert_eq!(t.after_input("Job", &[int(8), int(2)]), Step::Ok);
    let why = fails(t.after_quiescence());
    assert!(why.contains("quiescence is not allowed"), "{why}");
    // the outputs: Finish with the job's id and x + 1 (the hidden Release in the same step)
    let why = fails(spec_after("Jobs", &[(7, 1)]).after_output("Finish", &[int(7), int(3)]));
    assert!(why.contains("Finish(7,3)"), "{why}");
    assert_eq!(t.after_output("Finish", &[int(8), int(3)]), Step::Ok);
    assert_eq!(t.after_output("Finish", &[int(7), int(2)]), Step::Ok);
    assert_eq!(t.after_quiescence(), Step::Ok);
    // the id was released with the Finish: it can be used again
    assert_eq!(t.after_input("Job", &[int(7), int(4)]), Step::Ok);
    assert_eq!(t.after_output("Finish", &[int(7), int(5)]), Step::Ok);
}

fn spec_after(name: &str, jobs: &[(i64, i64)]) -> SymbolicSpec {
    let mut t = spec(name);
    for &(j, x) in jobs {
        assert_eq!(t.after_input("Job", &[int(j), int(x)]), Step::Ok);
    }
    t
}

#[test]
fn a_hidden_value_the_guard_does_not_fix_is_enumerated_with_the_visible_one_known() {
    // Ticket?(tt) | Go?(xx) [xx > tt], tt in 0..3 hidden: after Go(2) the ticket is 0 or 1
    for k in -1..4 {
        let mut t = spec("Counted");
        assert_eq!(t.after_input("Go", &[int(2)]), Step::Ok);
        let r = t.after_output("Done", &[int(k), int(2)]);
        if (0..2).contains(&k) {
            assert_eq!(r, Step::Ok, "Done({k},2)");
        } else {
            assert!(fails(r).contains(&format!("Done({k},2)")));
        }
    }
    // Go(0): no ticket below 0, the input is not specified
    inconclusive(spec("Counted").after_input("Go", &[int(0)]));
    // an unknown solver: Inconclusive, never Fail
    let mut t = SymbolicSpec::new(load(MODEL, Some("Counted")), Box::new(UnknownSolver)).unwrap();
    let why = inconclusive(t.after_input("Go", &[int(2)]));
    assert!(why.contains("multi-action"), "{why}");
    // values fixed by the guards need no solver
    let mut t = SymbolicSpec::new(load(MODEL, Some("Jobs")), Box::new(UnknownSolver)).unwrap();
    assert_eq!(t.after_input("Job", &[int(1), int(2)]), Step::Ok);
    assert_eq!(t.after_output("Finish", &[int(1), int(3)]), Step::Ok);
}

/// The spec `model` against the spec `sim` simulated ([`common::online`]).
fn online(model: &str, sim: &str, seed: u64, steps: usize) -> Step {
    common::online(spec(model), spec(sim), seed, steps)
}

#[test]
fn the_jobs_pass_against_themselves_and_the_mutant_fails() {
    for seed in 0..4 {
        assert_eq!(online("Jobs", "Jobs", seed, 80), Step::Ok, "seed {seed}");
        assert_eq!(
            online("Counted", "Counted", seed, 60),
            Step::Ok,
            "seed {seed}"
        );
        let why = fails(online("Jobs", "WrongJobs", seed, 300));
        assert!(why.contains("Finish"), "{why}");
    }
}

#[test]
fn several_visible_gates_in_one_step_need_sync() {
    let src = "@sync(a | b)\nmodel M {\n  input a, b\n  output c\n  init s\n  \
               s -- a? | b? --> t\n  t -- c! --> s\n}\n";
    let model = ioco_lang::parse_str("m.ioco", src).expect("model");
    let mut t = SymbolicSpec::with_z3(Arc::new(model.entry().expect("entry").clone())).unwrap();
    // with @sync, `a|b` is one input; `a` alone is not
    inconclusive(t.after_input("a", &[]));
    assert_eq!(t.after_input("a|b", &[]), Step::Ok);
    assert_eq!(t.after_output("c", &[]), Step::Ok);
    // without @sync, the step is no step of the system (as in the explicit engine): `a` and
    // `b` alone are not inputs there
    let src =
        "model M {\n  input a, b\n  output c\n  init s\n  s -- a? | b? --> t\n  t -- c! --> s\n}\n";
    let model = ioco_lang::parse_str("m.ioco", src).expect("model");
    let mut t = SymbolicSpec::with_z3(Arc::new(model.entry().expect("entry").clone())).unwrap();
    inconclusive(t.after_input("a", &[]));
    assert_eq!(t.after_quiescence(), Step::Ok);
}
