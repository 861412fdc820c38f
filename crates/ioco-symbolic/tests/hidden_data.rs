//! Hidden gates with data (issue #16, TorXakis's DispatchProcess): τ steps on a hidden gate
//! with parameters are tracked exactly — every successor, by evaluation when the values are
//! fixed (`h!(=x)`), else by enumerating solver models — or not at all: too many successors
//! (more than `MAX_HIDDEN_OUTCOMES`) or a solver that cannot decide give Inconclusive, never
//! a Fail and never a silently smaller candidate set.
mod common;
use common::{int, load};
use ioco_lang::ir::Value;
use ioco_symbolic::tracker::{Step, SymbolicSpec, MAX_HIDDEN_OUTCOMES};
use ioco_symbolic::UnknownSolver;
use proptest::prelude::*;
use std::sync::Arc;

const MODEL: &str = "tests/models/hidden-data.ioco";

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
fn the_dispatcher_hands_jobs_over_a_hidden_data_gate() {
    let mut t = spec("Dispatch");
    assert_eq!(t.after_input("Job", &[int(3), int(4)]), Step::Ok);
    // the job is with the dispatcher or with either processor (two with s = 7)
    assert!(t.states().len() >= 3, "{:?}", t.states());
    // quiescence is not allowed: every state has a hidden step or an output
    let mut q = spec("Dispatch");
    assert_eq!(q.after_input("Job", &[int(3), int(4)]), Step::Ok);
    let why = fails(q.after_quiescence());
    assert!(why.contains("an internal step"), "{why}");
    // the sum, and nothing else
    let why = fails(spec_after_job("Dispatch", 3, 4).after_output("Finish", &[int(8)]));
    assert!(why.contains("Finish(8)"), "{why}");
    assert_eq!(t.after_output("Finish", &[int(7)]), Step::Ok);
    // two jobs at once: both processors busy, in either order
    assert_eq!(t.after_input("Job", &[int(1), int(1)]), Step::Ok);
    assert_eq!(t.after_input("Job", &[int(5), int(5)]), Step::Ok);
    assert_eq!(t.after_output("Finish", &[int(10)]), Step::Ok);
    assert_eq!(t.after_output("Finish", &[int(2)]), Step::Ok);
    assert_eq!(t.after_quiescence(), Step::Ok);
}

fn spec_after_job(name: &str, x: i64, y: i64) -> SymbolicSpec {
    let mut t = spec(name);
    assert_eq!(t.after_input("Job", &[int(x), int(y)]), Step::Ok);
    t
}

/// The spec `model` against the spec `sim` simulated ([`common::online`]).
fn online(model: &str, sim: &str, seed: u64, steps: usize) -> Step {
    common::online(spec(model), spec(sim), seed, steps)
}

#[test]
fn the_dispatcher_passes_against_itself_and_the_wrong_sum_fails() {
    for seed in 0..5 {
        assert_eq!(
            online("Dispatch", "Dispatch", seed, 60),
            Step::Ok,
            "seed {seed}"
        );
        let why = fails(online("Dispatch", "WrongDispatch", seed, 200));
        assert!(why.contains("Finish"), "{why}");
    }
}

#[test]
fn a_hidden_value_chosen_by_a_guard_is_enumerated() {
    for k in -1..5 {
        let mut t = spec("Choice");
        assert_eq!(t.after_input("Go", &[]), Step::Ok);
        let r = t.after_output("Out", &[int(k)]);
        if (0..3).contains(&k) {
            assert_eq!(r, Step::Ok, "Out({k})");
        } else {
            assert!(fails(r).contains(&format!("Out({k})")));
        }
    }
    // the hidden step is pending or done: never quiescent
    let mut t = spec("Choice");
    assert_eq!(t.after_input("Go", &[]), Step::Ok);
    fails(t.after_quiescence());
    // back in the initial state, quiescence is allowed
    assert_eq!(t.after_output("Out", &[int(2)]), Step::Ok);
    assert_eq!(t.after_quiescence(), Step::Ok);
    assert_eq!(online("Choice", "Choice", 1, 80), Step::Ok);
}

#[test]
fn an_unbounded_hidden_value_that_is_kept_is_inconclusive_never_pass_or_fail() {
    let mut t = spec("Unbounded");
    let why = inconclusive(t.after_input("Go", &[]));
    assert!(
        why.contains(&format!("more than {MAX_HIDDEN_OUTCOMES}")),
        "{why}"
    );
    assert!(why.contains("hidden gate `Pick`"), "{why}");
    assert!(why.contains("MAX_HIDDEN_OUTCOMES"), "{why}");
    // a hidden value that no variable keeps gives one successor
    let mut t = spec("Forgotten");
    assert_eq!(t.after_input("Go", &[]), Step::Ok);
    assert_eq!(t.after_output("Out", &[int(7)]), Step::Ok);
}

#[test]
fn an_unknown_solver_makes_hidden_data_inconclusive_not_fail() {
    let mut t = SymbolicSpec::new(load(MODEL, Some("Choice")), Box::new(UnknownSolver)).unwrap();
    let why = inconclusive(t.after_input("Go", &[]));
    assert!(why.contains("cannot enumerate"), "{why}");
    // values fixed by equalities need no solver
    let mut t = SymbolicSpec::new(load(MODEL, Some("Dispatch")), Box::new(UnknownSolver)).unwrap();
    assert_eq!(t.after_input("Job", &[int(1), int(2)]), Step::Ok);
    assert_eq!(t.after_output("Finish", &[int(3)]), Step::Ok);
}

/// The Choice system with `v` in `lo..hi`, its hidden value kept and echoed.
fn choice_in(lo: i64, hi: i64) -> SymbolicSpec {
    let src = format!(
        "model C {{\n  input Go\n  output Pick(v: int)\n  init i\n  location i, c\n  i -- Go? --> c\n  \
         c -- Pick!(v) [v >= {lo} && v < {hi}] --> i\n}}\n\
         model E {{\n  input Pick(v: int)\n  output Out(v: int)\n  var k: int = 0\n  init w\n  location w, s\n  \
         w -- Pick?(v) {{ k = v }} --> s\n  s -- Out!(=k) --> w\n}}\n\
         system S {{ hide Pick in C |[Pick]| E }}\n"
    );
    let model = ioco_lang::parse_str("choice.ioco", &src).expect("model");
    SymbolicSpec::with_z3(Arc::new(model.entry().expect("entry").clone())).unwrap()
}

#[test]
fn the_bound_is_exact() {
    let n = MAX_HIDDEN_OUTCOMES as i64;
    let mut t = choice_in(0, n);
    assert_eq!(t.after_input("Go", &[]), Step::Ok);
    assert_eq!(t.after_output("Out", &[int(n - 1)]), Step::Ok);
    let mut t = choice_in(0, n + 1);
    inconclusive(t.after_input("Go", &[]));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// For any range of hidden values within the bound, exactly the values in the range are
    /// echoed (no value lost: a lost one would be a false Fail; none added: a missed Fail).
    #[test]
    fn every_hidden_value_and_only_those(lo in -20i64..20, len in 1i64..=12, k in -25i64..40) {
        let mut t = choice_in(lo, lo + len);
        prop_assert_eq!(t.after_input("Go", &[]), Step::Ok);
        let r = t.after_output("Out", &[Value::Int(k)]);
        if lo <= k && k < lo + len {
            prop_assert_eq!(r, Step::Ok);
        } else {
            prop_assert!(matches!(r, Step::Fail(_)), "{:?}", r);
        }
    }
}
