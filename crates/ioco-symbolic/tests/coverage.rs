//! Symbolic execution and switch coverage on TAP19's running example (Ex. 13, 17, 18; note
//! §3.7–3.8) and on the coffee machine of thesis ch. 1.
mod common;
use common::{int, load, tap19_sut, Tap19Mode};
use ioco_lang::ir::Value;
use ioco_symbolic::online::InProcessSut;
use ioco_symbolic::pick::Picker;
use ioco_symbolic::seg::{
    run_purpose, run_switch_coverage, select_purposes, CoverageOptions, PurposeVerdict, Uncovered,
};
use ioco_symbolic::solver::{SatResult, Solver};
use ioco_symbolic::term::{render, SymVar, T};
use ioco_symbolic::{Checker, System, Z3Solver};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

fn tap19() -> (System, Checker) {
    let spec = load("tests/models/tap19.ioco", None);
    let defs = spec.defs.clone();
    (
        System::new(spec).unwrap(),
        Checker::new(Box::new(Z3Solver::new(defs))),
    )
}

#[test]
fn ex13_symbolic_successors() {
    let (sys, mut ck) = tap19();
    let s0 = sys.initial_symbolic();
    let moves = sys.moves(&s0.locs);
    // from l0: r0 (inX) and r2 (done); r1 leaves l1
    assert_eq!(moves.len(), 2);
    let defs = sys.spec.defs.clone();
    let r0 = moves.iter().find(|m| m.parts == vec![(0, 0)]).unwrap();
    let r2 = moves.iter().find(|m| m.parts == vec![(0, 2)]).unwrap();
    let (s1, g) = sys.sym_succ(&s0, r0);
    assert_eq!(
        sys.spec.automata[0].locations[s1.locs[0] as usize].name,
        "l1"
    );
    assert_eq!(render(&defs, &s1.vars[0][0]), "(0 + p@0)");
    assert_eq!(render(&defs, &g), "((1 <= p@0) && (p@0 <= 10))");
    assert_eq!(ck.sat(&defs, &s1.pc), SatResult::Sat);
    // r2 at S0: 0 > 15 ∧ True is unsat (decided by folding, no solver call)
    let (_, g2) = sys.sym_succ(&s0, r2);
    assert_eq!(ck.sat(&defs, &g2), SatResult::Unsat);
    // S2b = r0 r1 r2 is unsat with a real solver (P2 draws it dashed)
    let r1 = sys.moves(&s1.locs)[0].clone();
    let (s2, _) = sys.sym_succ(&s1, &r1);
    let (s2b, _) = sys.sym_succ(&s2, r2);
    assert_eq!(ck.sat(&defs, &s2b.pc), SatResult::Unsat);
}

#[test]
fn ex17_bfs_finds_the_executable_purpose() {
    let (sys, mut ck) = tap19();
    let sel = select_purposes(&sys, &mut ck, 8, 10_000);
    assert_eq!(sel.purposes.len(), 1, "{:?}", sel.purposes);
    let p = &sel.purposes[0];
    let names: Vec<u32> = p.path.iter().map(|m| m.parts[0].1).collect();
    assert_eq!(names, vec![0, 1, 0, 1, 2]);
    assert!(!p.doubtful);
    assert_eq!(sel.apriori(), 1.0);
    assert!(sel.uncovered.is_empty());
    // η(S5) has 15 integer solutions; the first input p@0 lies in [6, 10]
    let defs = sys.spec.defs.clone();
    let p0 = SymVar::at("p", 0, ioco_lang::ir::Type::Int);
    let p2 = SymVar::at("p", 2, ioco_lang::ir::Type::Int);
    let mut count = 0;
    for a in -2..=12 {
        for b in -2..=12 {
            let t = T::clone(&p.pc);
            let t = ioco_symbolic::term::Term::subst(&t, &defs, &|v: &SymVar| {
                if *v == p0 {
                    Some(int(a))
                } else if *v == p2 {
                    Some(int(b))
                } else {
                    None
                }
            });
            if ck.sat(&defs, &t) == SatResult::Sat {
                count += 1;
                assert!((6..=10).contains(&a));
            }
        }
    }
    assert_eq!(count, 15);
}

fn run_tap19(mode: Tap19Mode, seed: u64) -> (PurposeVerdict, Vec<String>) {
    let (sys, mut ck) = tap19();
    let sel = select_purposes(&sys, &mut ck, 8, 10_000);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut sut = tap19_sut(mode);
    let run = run_purpose(
        &sys,
        &mut ck,
        &mut Picker::default(),
        &sel.purposes[0],
        &mut sut,
        &mut rng,
    );
    (run.verdict, run.trace)
}

#[test]
fn ex18_execution_of_tp_a() {
    for seed in 0..8 {
        let (v, trace) = run_tap19(Tap19Mode::Correct, seed);
        assert_eq!(v, PurposeVerdict::Pass { candidates: 1 }, "{:?}", trace);
        assert_eq!(trace.len(), 5);
        // the first input lies in [6, 10]; with 6 the second is forced to 10
        let first: i64 = trace[0]
            .trim_start_matches("inX?(")
            .trim_end_matches(')')
            .parse()
            .unwrap();
        assert!((6..=10).contains(&first), "{:?}", trace);
        if first == 6 {
            assert_eq!(trace[2], "inX?(10)");
            assert_eq!(trace[3], "outX!(16)");
        }
        assert_eq!(trace[4], "done!");
    }
}

#[test]
fn fixtures_3_8_mutants() {
    for seed in 0..4 {
        // echo x+1: Fail at iteration 1 (Ex. 18 case 2)
        let (v, trace) = run_tap19(Tap19Mode::EchoPlusOne, seed);
        assert!(matches!(v, PurposeVerdict::Fail(_)), "{:?}", v);
        assert_eq!(trace.len(), 2);
        // x := p: outX!(p2) where the sum was expected, Fail at iteration 3
        let (v, trace) = run_tap19(Tap19Mode::StoreNotAdd, seed);
        assert!(matches!(v, PurposeVerdict::Fail(_)), "{:?}", v);
        assert_eq!(trace.len(), 4, "{:?}", trace);
        // done! at x > 5 preempts the second input: Fail
        let (v, trace) = run_tap19(Tap19Mode::DoneEarly, seed);
        match v {
            PurposeVerdict::Fail(why) => assert!(why.contains("x > 15"), "{}", why),
            other => panic!("{:?}", other),
        }
        assert_eq!(trace[2], "done!");
        // never done!: quiescence at (l0, 16) is a Fail
        let (v, trace) = run_tap19(Tap19Mode::NeverDone, seed);
        assert!(matches!(v, PurposeVerdict::Fail(_)), "{:?}", v);
        assert_eq!(trace.last().unwrap(), "δ");
    }
}

/// Z3, except that any formula about a parameter of step 1 or later is `unknown` (the solver
/// TAP19 Ex. 15/17 assumes for the dashed edge).
struct Doubting {
    inner: Z3Solver,
    doubt: Vec<bool>,
}

impl Solver for Doubting {
    fn name(&self) -> String {
        "doubting z3".into()
    }
    fn push(&mut self) {
        self.inner.push();
        let d = *self.doubt.last().unwrap();
        self.doubt.push(d);
    }
    fn pop(&mut self) {
        self.inner.pop();
        self.doubt.pop();
    }
    fn assert(&mut self, t: &T) {
        if t.vars().iter().any(|v| !v.name.ends_with("@0")) {
            *self.doubt.last_mut().unwrap() = true;
        }
        self.inner.assert(t);
    }
    fn check(&mut self) -> SatResult {
        if *self.doubt.last().unwrap() {
            SatResult::Unknown("doubting".into())
        } else {
            self.inner.check()
        }
    }
    fn model(&mut self, vars: &[SymVar]) -> Option<Vec<Value>> {
        self.inner.model(vars)
    }
    fn set_timeout(&mut self, t: Duration) {
        self.inner.set_timeout(t)
    }
}

#[test]
fn ex17_18_tp_b_with_an_unknown_solver_is_inconclusive() {
    let spec = load("tests/models/tap19.ioco", None);
    let defs = spec.defs.clone();
    let sys = System::new(spec).unwrap();
    let mut ck = Checker::new(Box::new(Doubting {
        inner: Z3Solver::new(defs),
        doubt: vec![false],
    }));
    let sel = select_purposes(&sys, &mut ck, 5, 10_000);
    // the shortest (doubtful) path to r2 is r0 r1 r2: 100% a priori coverage
    assert_eq!(sel.purposes.len(), 1);
    let p = &sel.purposes[0];
    assert!(p.doubtful);
    assert_eq!(
        p.path.iter().map(|m| m.parts[0].1).collect::<Vec<_>>(),
        vec![0, 1, 2]
    );
    assert_eq!(sel.apriori(), 1.0);
    // execution: line 12 falls back on the guard 1 ≤ p ≤ 10; η becomes unsat: Inconclusive
    // before anything is sent; a posteriori coverage 0%
    let mut sut = tap19_sut(Tap19Mode::Correct);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let run = run_purpose(&sys, &mut ck, &mut Picker::default(), p, &mut sut, &mut rng);
    assert!(
        matches!(run.verdict, PurposeVerdict::Inconclusive(_)),
        "{:?}",
        run.verdict
    );
    assert!(run.trace.is_empty());
    // and the whole coverage run: never Fail, even for a faulty system
    let mut bad = tap19_sut(Tap19Mode::EchoPlusOne);
    let rep = run_switch_coverage(
        &sys,
        &mut ck,
        &mut Picker::default(),
        &mut bad,
        &CoverageOptions {
            depth: 5,
            ..Default::default()
        },
        &mut rng,
    );
    assert!(rep.fail.is_none(), "{}", rep);
    assert_eq!(rep.aposteriori(), 0.0);
}

#[test]
fn tap19_coverage_report() {
    let (sys, mut ck) = tap19();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut sut = tap19_sut(Tap19Mode::Correct);
    let rep = run_switch_coverage(
        &sys,
        &mut ck,
        &mut Picker::default(),
        &mut sut,
        &CoverageOptions::default(),
        &mut rng,
    );
    assert!(rep.fail.is_none());
    assert_eq!(rep.aposteriori(), 1.0);
    assert_eq!(rep.steps, 5);
    let text = rep.to_string();
    assert!(
        text.contains("a priori switch coverage 100.0%, a posteriori 100.0%"),
        "{}",
        text
    );
}

#[test]
fn unreachable_and_unsatisfiable_switches_are_named() {
    let src = "model U {\n  input a(n: int)\n  output b, c\n  var k: int = 0\n  init s\n  location s, t, u\n  s -- a?(n) [n > 0] { k = k + 1 } --> t\n  t -- b! [k > 100] --> s\n  t -- c! [k < 0 && k > 0] --> u\n  t -- b! --> s\n}\n";
    let model = ioco_lang::parse_str("u.ioco", src).unwrap();
    let spec = std::sync::Arc::new(model.entry().unwrap().clone());
    let defs = spec.defs.clone();
    let sys = System::new(spec).unwrap();
    let mut ck = Checker::new(Box::new(Z3Solver::new(defs)));
    let sel = select_purposes(&sys, &mut ck, 6, 10_000);
    assert_eq!(sel.uncovered.len(), 2, "{:?}", sel.uncovered);
    let (_, name, why) = &sel.uncovered[0];
    assert!(name.contains("b! [k > 100]"), "{}", name);
    assert_eq!(*why, Uncovered::Unreached);
    let (_, name, why) = &sel.uncovered[1];
    assert!(name.contains("c!"), "{}", name);
    assert_eq!(*why, Uncovered::Unsatisfiable);
    assert_eq!(sel.apriori(), 0.5);
}

#[derive(Clone)]
struct Coffee {
    loc: u8,
    t: i64,
}

/// The coffee machine of Fig. 1.3: `serve(t)` is the amount of coffee for t ml of water.
fn coffee_sut(serve: fn(i64) -> i64) -> InProcessSut<Coffee> {
    InProcessSut::new(
        Coffee { loc: 0, t: 0 },
        move |s: &mut Coffee, g: &str, a: &[Value]| match (s.loc, g) {
            (0, "water") => {
                let w = a[0].as_int().unwrap();
                if w > 0 {
                    s.t += w;
                    if s.t >= 150 {
                        s.loc = 1;
                    }
                }
                vec![]
            }
            (1, "pad") => {
                s.loc = 2;
                vec![]
            }
            (2, "button") => {
                let c = serve(s.t);
                s.t = 0;
                s.loc = 0;
                vec![("coffee".into(), vec![Value::Int(c)])]
            }
            (0, "button") | (1, "button") => {
                s.loc = 0;
                vec![("error".into(), vec![])]
            }
            _ => vec![],
        },
        |_| None,
    )
}

#[test]
fn coffee_switch_coverage() {
    let spec = load("tests/models/coffee-fig13.ioco", None);
    let defs = spec.defs.clone();
    let sys = System::new(spec).unwrap();
    let mut ck = Checker::new(Box::new(Z3Solver::new(defs)));
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let opts = CoverageOptions {
        depth: 6,
        ..Default::default()
    };
    let mut good = coffee_sut(|t| t - 20);
    let rep = run_switch_coverage(
        &sys,
        &mut ck,
        &mut Picker::default(),
        &mut good,
        &opts,
        &mut rng,
    );
    assert!(rep.fail.is_none(), "{}", rep);
    assert_eq!(rep.selection.apriori(), 1.0, "{}", rep);
    assert!(rep.selection.uncovered.is_empty());
    // the system never gives error! after the button in s2: that purpose is Inconclusive
    // (legal deviation), so a posteriori coverage is below a priori
    assert!(rep.aposteriori() < 1.0, "{}", rep);
    assert!(rep.aposteriori() > 0.5, "{}", rep);
    // too little coffee is caught
    let mut bad = coffee_sut(|t| t - 51);
    let rep = run_switch_coverage(
        &sys,
        &mut ck,
        &mut Picker::default(),
        &mut bad,
        &opts,
        &mut rng,
    );
    let (_, why) = rep.fail.as_ref().expect("fail");
    assert!(why.contains("c >= t - 50"), "{}", why);
}
