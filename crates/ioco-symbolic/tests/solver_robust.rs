//! Robustness of the solver layer: time-outs, definitions Z3 cannot take, ill-typed terms,
//! division by zero and overflow. None of them panics, and none turns into a Fail: the
//! answer is `unknown`, and the tracker's verdict Inconclusive (TAP19 Thm. 19).
use ioco_lang::ast::BinOp;
use ioco_lang::ir::{AdtDef, CtorDef, Defs, Type, Value};
use ioco_symbolic::solver::{SatResult, Solver};
use ioco_symbolic::term::{SymVar, Term, T};
use ioco_symbolic::tracker::{Quiescence, Step};
use ioco_symbolic::{Checker, SymbolicSpec, Z3Solver};
use std::sync::Arc;
use std::time::Duration;

fn spec(src: &str) -> Arc<ioco_lang::ir::Spec> {
    let model = ioco_lang::parse_str("m.ioco", src).unwrap_or_else(|d| panic!("{:?}", d));
    Arc::new(model.entry().expect("entry").clone())
}

fn sym(name: &str, ty: Type) -> T {
    Term::sym(SymVar {
        name: name.into(),
        ty,
    })
}

fn bin(op: BinOp, a: T, b: T) -> T {
    Arc::new(Term::Binary(op, a, b))
}

fn cube(x: T) -> T {
    bin(BinOp::Mul, x.clone(), bin(BinOp::Mul, x.clone(), x))
}

/// `x³ + y³ = z³` with positive integers (no solution; Z3 cannot prove it).
fn fermat3() -> T {
    let (x, y, z) = (
        sym("x", Type::Int),
        sym("y", Type::Int),
        sym("z", Type::Int),
    );
    Term::and_all([
        bin(BinOp::Gt, x.clone(), Term::int(0)),
        bin(BinOp::Gt, y.clone(), Term::int(0)),
        bin(BinOp::Gt, z.clone(), Term::int(0)),
        bin(BinOp::Eq, bin(BinOp::Add, cube(x), cube(y)), cube(z)),
    ])
}

#[test]
fn a_hard_nonlinear_check_times_out_as_unknown() {
    let mut s = Z3Solver::new(Arc::new(Defs::default()));
    s.set_timeout(Duration::from_millis(50));
    s.assert(&fermat3());
    // (without the time-out honoured, this check runs for many minutes)
    let r = s.check();
    assert!(matches!(r, SatResult::Unknown(_)), "{:?}", r);
    // the fast path does not answer in Z3's place
    let defs = Defs::default();
    let mut ck = Checker::new(Box::new(Z3Solver::new(Arc::new(Defs::default()))));
    ck.set_timeout(Duration::from_millis(50));
    assert!(matches!(ck.sat(&defs, &fermat3()), SatResult::Unknown(_)));
    assert_eq!(ck.stats.unknowns, 1);
    assert_eq!(ck.stats.quick, 0);
}

#[test]
fn observed_quiescence_with_an_undecidable_output_guard_is_inconclusive() {
    // the spec is quiescent (no cubes add up), but the solver cannot know: never Fail
    let mut t = SymbolicSpec::with_z3(spec(
        "model M {\n  output o(x: int, y: int, z: int)\n  init s\n\
         s -- o!(x, y, z) [x > 0 && y > 0 && z > 0 && x * x * x + y * y * y == z * z * z] --> s\n}\n",
    ))
    .unwrap();
    t.checker.set_timeout(Duration::from_millis(50));
    let q = t.states()[0].clone();
    assert!(matches!(t.quiescence(&q), Quiescence::Unknown(_)));
    match t.after_quiescence() {
        Step::Inconclusive(m) => assert!(m.contains("cannot decide"), "{}", m),
        other => panic!("{:?}", other),
    }
    // an output is judged by evaluation alone: 1 + 1 != 1 is a Fail
    let mut t = SymbolicSpec::with_z3(t.sys.spec.clone()).unwrap();
    assert!(matches!(
        t.after_output("o", &[Value::Int(1), Value::Int(1), Value::Int(1)]),
        Step::Fail(_)
    ));
}

#[test]
fn division_by_zero_in_a_guard_is_a_model_error_not_a_fail() {
    // at d = 0 the guard `x == 10 / d` is an evaluation error; in SMT-LIB `10 div 0` is some
    // number, so Z3 says sat: the witness is checked by evaluation and the state's quiescence
    // stays unknown
    let mut t = SymbolicSpec::with_z3(spec(
        "model M {\n  output o(x: int)\n  var d: int = 0\n  init s\n  location s\n\
         s -- o!(x) [x == 10 / d] --> s\n}\n",
    ))
    .unwrap();
    let q = t.states()[0].clone();
    match t.quiescence(&q) {
        Quiescence::Unknown(m) => assert!(m.contains("division by zero"), "{}", m),
        other => panic!("{:?}", other),
    }
    assert!(matches!(t.after_quiescence(), Step::Inconclusive(_)));
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
    assert_eq!(t.choose_output(&mut rng), None);
    match t.after_output("o", &[Value::Int(5)]) {
        Step::Inconclusive(m) => assert!(m.contains("division by zero"), "{}", m),
        other => panic!("{:?}", other),
    }
}

#[test]
fn overflow_in_a_guard_is_a_model_error_not_a_fail() {
    // v + 1 overflows i64: the IR reports it; Z3's witness 2^63 is no i64 value
    let mut t = SymbolicSpec::with_z3(spec(
        "model M {\n  output o(x: int)\n  var v: int = 9223372036854775807\n  init s\n  location s\n\
         s -- o!(x) [x == v + 1] --> s\n}\n",
    ))
    .unwrap();
    let q = t.states()[0].clone();
    assert!(matches!(t.quiescence(&q), Quiescence::Unknown(_)));
    assert!(matches!(t.after_quiescence(), Step::Inconclusive(_)));
    match t.after_output("o", &[Value::Int(i64::MIN)]) {
        Step::Inconclusive(m) => assert!(m.contains("overflow"), "{}", m),
        other => panic!("{:?}", other),
    }
}

#[test]
fn a_data_type_without_finite_values_is_a_clear_error() {
    // Z3 requires well-founded data types (it crashes on `S = Mk { s: S }`); `ioco check`
    // rejects that type, so the definitions are made recursive after checking (a spec built
    // by other means than the checker must still get a clear error)
    let mut s = spec(
        "type S = Mk { s: int }\nmodel M {\n  input a(x: S)\n  init s\n  s -- a?(x) --> s\n}\n",
    );
    let sp = Arc::make_mut(&mut s);
    Arc::make_mut(&mut sp.defs).types[0].ctors[0].fields[0].1 = Type::Adt(0);
    let e = match SymbolicSpec::with_z3(s.clone()) {
        Err(e) => e,
        Ok(_) => panic!("accepted"),
    };
    assert!(e.contains("`S` has no finite values"), "{}", e);
    // the infallible constructor gives a solver that says unknown, with the reason
    let mut z = Z3Solver::new(s.defs.clone());
    assert!(matches!(z.check(), SatResult::Unknown(m) if m.contains("no finite values")));
    let empty = Defs {
        types: vec![AdtDef {
            name: "E".into(),
            ctors: vec![],
            span: ioco_lang::Span::new(0, 0, 0),
        }],
        ..Defs::default()
    };
    assert!(Z3Solver::try_new(Arc::new(empty))
        .err()
        .unwrap()
        .contains("no constructor"));
}

#[test]
fn ill_typed_terms_are_unknown_not_panics() {
    let defs = Arc::new(Defs {
        types: vec![AdtDef {
            name: "L".into(),
            ctors: vec![
                CtorDef {
                    name: "Nil".into(),
                    fields: vec![],
                },
                CtorDef {
                    name: "Cons".into(),
                    fields: vec![("hd".into(), Type::Int), ("tl".into(), Type::Adt(0))],
                },
            ],
            span: ioco_lang::Span::new(0, 0, 0),
        }],
        ..Defs::default()
    });
    let x = sym("x", Type::Int);
    let l = sym("l", Type::Adt(0));
    let cases: Vec<(T, &str)> = vec![
        (
            bin(
                BinOp::Eq,
                Arc::new(Term::Field(x.clone(), 0, 1, 0)),
                Term::int(1),
            ),
            "expected L",
        ),
        (Arc::new(Term::Is(x.clone(), 0, 1)), "expected L"),
        (
            bin(
                BinOp::Eq,
                Arc::new(Term::Ctor(0, 1, vec![Term::int(1)])),
                l.clone(),
            ),
            "takes 2 field(s)",
        ),
        (
            bin(
                BinOp::Eq,
                Arc::new(Term::Ctor(0, 1, vec![Term::bool(true), l.clone()])),
                l.clone(),
            ),
            "expected int",
        ),
        (
            bin(BinOp::Eq, Arc::new(Term::Ctor(0, 5, vec![])), l.clone()),
            "no constructor #5",
        ),
        (Arc::new(Term::Is(l.clone(), 7, 0)), "unknown data type"),
        (
            bin(
                BinOp::Gt,
                bin(BinOp::Add, Term::bool(true), x.clone()),
                Term::int(0),
            ),
            "expected an integer",
        ),
        (x.clone(), "not a boolean"),
        (Arc::new(Term::Call(3, vec![])), "unknown function"),
    ];
    for (t, msg) in cases {
        let mut ck = Checker::new(Box::new(Z3Solver::new(defs.clone())));
        match ck.sat(&defs, &t) {
            SatResult::Unknown(m) => assert!(m.contains(msg), "{}: {}", t, m),
            other => panic!("{}: {:?}", t, other),
        }
    }
}
