//! The online tracker on TAP19's running example (Ex. 4, 9, 13; note §3.7–3.8) and the coffee
//! machine of thesis ch. 1 (Fig. 1.3).
mod common;
use common::{int, load};
use ioco_symbolic::tracker::{Quiescence, Step, SymbolicSpec};
use ioco_symbolic::UnknownSolver;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn tap19() -> SymbolicSpec {
    SymbolicSpec::with_z3(load("tests/models/tap19.ioco", None)).unwrap()
}

#[test]
fn ex9_concrete_steps() {
    let mut t = tap19();
    // ((l0,{x↦0}), (inX?,3), (l1,{x↦3})) is a transition
    assert_eq!(t.after_input("inX", &[int(3)]), Step::Ok);
    assert_eq!(t.sys.describe(&t.states()[0]), "l1{x=3}");
    assert_eq!(t.after_output("outX", &[int(3)]), Step::Ok);
    // r2 is not enabled at (l0,{x↦3}) for done!: Fail, explained by the violated guard
    match t.after_output("done", &[]) {
        Step::Fail(why) => {
            assert!(why.contains("x > 15"), "{}", why);
            assert!(why.contains("l0{x=3}"), "{}", why);
        }
        other => panic!("expected Fail, got {:?}", other),
    }
}

#[test]
fn ex18_case2_wrong_echo_fails() {
    let mut t = tap19();
    assert_eq!(t.after_input("inX", &[int(6)]), Step::Ok);
    match t.after_output("outX", &[int(7)]) {
        Step::Fail(why) => assert!(why.contains("p == x"), "{}", why),
        other => panic!("{:?}", other),
    }
}

#[test]
fn malformed_outputs_fail_and_unspecified_inputs_are_inconclusive() {
    let mut t = tap19();
    assert!(matches!(t.after_output("nope", &[]), Step::Fail(_)));
    assert!(matches!(t.after_output("outX", &[]), Step::Fail(_)));
    assert!(matches!(
        t.after_output("outX", &[ioco_lang::ir::Value::Bool(true)]),
        Step::Fail(_)
    ));
    // p = 11 is outside the guard 1 <= p <= 10: the spec says nothing after it
    assert!(matches!(
        t.after_input("inX", &[int(11)]),
        Step::Inconclusive(_)
    ));
}

#[test]
fn quiescence_of_sts_states() {
    let mut t = tap19();
    // l0 with x = 0: no output switch is satisfiable (done needs x > 15, outX leaves l1)
    let q0 = t.states()[0].clone();
    assert_eq!(t.quiescence(&q0), Quiescence::Quiescent);
    assert_eq!(t.after_quiescence(), Step::Ok);
    t.after_input("inX", &[int(9)]);
    // l1 with x = 9: outX!(9) is possible, so δ is a failure with the witness
    let q1 = t.states()[0].clone();
    assert_eq!(
        t.quiescence(&q1),
        Quiescence::Active(Some(("outX".into(), vec![int(9)])))
    );
    match t.after_quiescence() {
        Step::Fail(why) => assert!(why.contains("outX(9)"), "{}", why),
        other => panic!("{:?}", other),
    }
    // l0 with x = 16: done! is possible, quiescence fails (the "never emits done!" SUT of §3.8)
    let mut t = tap19();
    for (i, o) in [(6, 6), (10, 16)] {
        assert_eq!(t.after_input("inX", &[int(i)]), Step::Ok);
        assert_eq!(t.after_output("outX", &[int(o)]), Step::Ok);
    }
    assert!(matches!(t.after_quiescence(), Step::Fail(_)));
    assert_eq!(t.after_output("done", &[]), Step::Ok);
    assert_eq!(t.after_quiescence(), Step::Ok);
}

#[test]
fn unknown_solver_never_fails() {
    let spec = load("tests/models/tap19.ioco", None);
    let mut t = SymbolicSpec::new(spec, Box::new(UnknownSolver)).unwrap();
    // ground guards are decided by evaluation, without the solver
    assert_eq!(t.after_quiescence(), Step::Ok);
    assert_eq!(t.after_input("inX", &[int(4)]), Step::Ok);
    // at l1 the guard p == x forces the value: decided by evaluation (outX!(4) is due), so
    // quiescence is a genuine Fail even without a solver
    assert!(matches!(t.after_quiescence(), Step::Fail(_)));
    // here the solver must decide ∃c. c > k: unknown → Inconclusive, never Fail
    let src = "model Q {\n  input go(k: int)\n  output out(c: int)\n  var k: int = 0\n  init s\n  location s, t\n  s -- go?(n) { k = n } --> t\n  t -- out!(c) [c > k] --> s\n}\n";
    let spec = std::sync::Arc::new(
        ioco_lang::parse_str("q.ioco", src)
            .unwrap()
            .entry()
            .unwrap()
            .clone(),
    );
    let mut c = SymbolicSpec::new(spec, Box::new(UnknownSolver)).unwrap();
    assert_eq!(c.after_input("go", &[int(5)]), Step::Ok);
    match c.after_quiescence() {
        Step::Inconclusive(why) => assert!(why.contains("unknown"), "{}", why),
        other => panic!("{:?}", other),
    }
    // no input can be chosen without a solver model
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    c.reset().unwrap();
    assert_eq!(c.choose_input(&mut rng), None);
    assert!(c.checker.stats.unknowns > 0);
}

#[test]
fn chosen_inputs_satisfy_guards_and_vary() {
    let mut t = tap19();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..60 {
        t.reset().unwrap();
        let (g, v) = t.choose_input(&mut rng).expect("inX is enabled");
        assert_eq!(g, "inX");
        let p = v[0].as_int().unwrap();
        assert!((1..=10).contains(&p), "{}", p);
        seen.insert(p);
    }
    // the solver's first model alone would give one value (TAP19 mutant 6)
    assert!(seen.len() >= 5, "{:?}", seen);
    // boundary values of the guard are among them
    assert!(seen.contains(&1) || seen.contains(&10), "{:?}", seen);
}

#[test]
fn coffee_fig13_data_nondeterminism() {
    let spec = load("tests/models/coffee-fig13.ioco", None);
    // water?(150) pad? button? coffee!(150) and ... coffee!(100) are both traces (thesis ch. 1)
    for (c, ok) in [(150, true), (100, true), (1000, true), (99, false)] {
        let mut t = SymbolicSpec::with_z3(spec.clone()).unwrap();
        assert_eq!(t.after_input("water", &[int(150)]), Step::Ok);
        assert_eq!(t.after_input("pad", &[]), Step::Ok);
        assert_eq!(t.after_quiescence(), Step::Ok);
        assert_eq!(t.after_input("button", &[]), Step::Ok);
        assert!(
            matches!(t.after_quiescence(), Step::Fail(_)),
            "coffee or error is due"
        );
        let r = t.after_output("coffee", &[int(c)]);
        assert_eq!(r == Step::Ok, ok, "coffee!({}): {:?}", c, r);
        if !ok {
            let Step::Fail(why) = r else { unreachable!() };
            assert!(why.contains("c >= t - 50"), "{}", why);
        }
    }
    // water in portions: 100 then 60 reaches 160 ≥ 150; coffee!(110) is the lowest allowed
    let mut t = SymbolicSpec::with_z3(spec.clone()).unwrap();
    for s in [("water", 100), ("water", 60)] {
        assert_eq!(t.after_input(s.0, &[int(s.1)]), Step::Ok);
    }
    assert_eq!(t.after_input("button", &[]), Step::Ok);
    assert_eq!(t.after_output("error", &[]), Step::Ok);
    // button? in s0 gives error!, and an early coffee! fails
    let mut t = SymbolicSpec::with_z3(spec).unwrap();
    assert_eq!(t.after_input("button", &[]), Step::Ok);
    assert!(matches!(
        t.after_output("coffee", &[int(100)]),
        Step::Fail(_)
    ));
}

#[test]
fn coffee_example_from_the_repository() {
    let spec = load(
        "../../examples/coffee/coffee-sts.ioco",
        Some("CoffeeMachine"),
    );
    let mut t = SymbolicSpec::with_z3(spec).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    // the only input at first is water; the values chosen respect w > 0
    let (g, v) = t.choose_input(&mut rng).unwrap();
    assert_eq!(g, "water");
    assert!(v[0].as_int().unwrap() > 0);
    assert_eq!(t.after_input("water", &[int(200)]), Step::Ok);
    assert_eq!(t.after_input("pad", &[]), Step::Ok);
    assert_eq!(t.after_input("button", &[]), Step::Ok);
    assert!(matches!(
        t.after_output("coffee", &[int(201)]),
        Step::Fail(_)
    ));
    assert_eq!(t.after_output("coffee", &[int(150)]), Step::Ok);
}
