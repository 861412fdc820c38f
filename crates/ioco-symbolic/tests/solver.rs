//! Every solver call the crate relies on, against the linked Z3 (the z3 crate is pinned; a call
//! missing in the system's libz3 would fail to link or here).
mod common;
use common::{int, load};
use ioco_lang::ast::BinOp;
use ioco_lang::ir::{Defs, Type, Value};
use ioco_symbolic::solver::{var_is, SatResult, Solver};
use ioco_symbolic::term::{domain_constraint, SymVar, Term};
use ioco_symbolic::{Checker, Z3Solver};
use proptest::prelude::*;
use std::sync::Arc;
use std::time::Duration;

fn v(name: &str, ty: Type) -> SymVar {
    SymVar {
        name: name.into(),
        ty,
    }
}

fn bin(op: BinOp, a: Arc<Term>, b: Arc<Term>) -> Arc<Term> {
    Arc::new(Term::Binary(op, a, b))
}

#[test]
fn version_push_pop_check_model_timeout() {
    let defs = Arc::new(Defs::default());
    let mut s = Z3Solver::new(defs);
    assert!(s.name().starts_with("z3 4."), "{}", s.name());
    s.set_timeout(Duration::from_millis(500));
    let x = v("x", Type::Int);
    let b = v("b", Type::Bool);
    s.push();
    s.assert(&bin(BinOp::Gt, Term::sym(x.clone()), Term::int(150)));
    s.assert(&var_is(&b, Value::Bool(true)));
    assert_eq!(s.check(), SatResult::Sat);
    let m = s.model(&[x.clone(), b.clone()]).unwrap();
    assert!(m[0].as_int().unwrap() > 150);
    assert_eq!(m[1], Value::Bool(true));
    s.push();
    s.assert(&bin(BinOp::Lt, Term::sym(x.clone()), Term::int(100)));
    assert_eq!(s.check(), SatResult::Unsat);
    s.pop();
    assert_eq!(s.check(), SatResult::Sat);
    s.pop();
    // a range type's domain constraint
    let r = v("r", Type::Range(3, 5));
    s.push();
    s.assert(&domain_constraint(&Defs::default(), &r));
    s.assert(&bin(BinOp::Gt, Term::sym(r.clone()), Term::int(4)));
    assert_eq!(s.check(), SatResult::Sat);
    assert_eq!(s.model(&[r]).unwrap(), vec![int(5)]);
    s.pop();
}

#[test]
fn datatypes_and_functions() {
    // the TorXakis adder: Operation = Plus{p1,p2} | Minus{m1,m2}, overflow(x) a function
    let spec = load("../../examples/torxakis/adder.ioco", Some("Adder"));
    let defs = spec.defs.clone();
    let a = &spec.automata[0];
    let sw = &a.switches[1]; // Minus
    let opn = v("opn@0", sw.params[0].1);
    let g = ioco_symbolic::term::instantiate(
        &defs,
        &sw.guard,
        &[Term::int(0)],
        &[Term::sym(opn.clone())],
    );
    let mut ck = Checker::new(Box::new(Z3Solver::new(defs.clone())));
    // a Minus with m1 - m2 = 7 and m1 > 2^31 - 10
    let Type::Adt(t) = opn.ty else { panic!() };
    let x = Term::sym(opn.clone());
    let m1 = Arc::new(Term::Field(x.clone(), t, 1, 0));
    let m2 = Arc::new(Term::Field(x, t, 1, 1));
    let phi = Term::and_all([
        g.clone(),
        bin(BinOp::Eq, bin(BinOp::Sub, m1.clone(), m2), Term::int(7)),
        bin(BinOp::Gt, m1, Term::int(2147483647 - 10)),
    ]);
    let w = ck
        .values(&defs, &phi, std::slice::from_ref(&opn), &[])
        .unwrap();
    let Value::Adt(_, 1, f) = &w[0] else {
        panic!("{:?}", w)
    };
    let (a1, a2) = (f[0].as_int().unwrap(), f[1].as_int().unwrap());
    assert_eq!(a1 - a2, 7);
    assert!(a1 > 2147483637 && a1 <= 2147483647, "{}", a1);
    // overflow: no Minus whose operand exceeds 32 bits
    let too_big = Term::and(
        g,
        bin(
            BinOp::Gt,
            Arc::new(Term::Field(Term::sym(opn), t, 1, 0)),
            Term::int(2147483647),
        ),
    );
    assert_eq!(ck.sat(&defs, &too_big), SatResult::Unsat);
    // the memo table answers the same question again without the solver
    let calls = ck.stats.solver_calls;
    assert_eq!(ck.sat(&defs, &too_big), SatResult::Unsat);
    assert_eq!(ck.stats.solver_calls, calls);
    assert_eq!(ck.stats.cache_hits, 1);
}

#[test]
fn enums_records_and_recursive_functions() {
    let src = "type Color = Red | Green | Blue\n\
               type List = Nil | Cons { hd: int, tl: List }\n\
               fn len(l: List): int = if l is Nil then 0 else 1 + len(l.tl)\n\
               model M {\n  input paint(c: Color), put(l: List)\n  output ok\n  var last: Color = Red\n  init s\n  location s, t\n\
               s -- paint?(c) [c != last && c != Green] { last = c } --> s\n\
               s -- put?(l) [len(l) == 2] --> t\n  t -- ok! --> s\n}\n";
    let model = ioco_lang::parse_str("m.ioco", src).unwrap();
    let spec = Arc::new(model.entry().unwrap().clone());
    let mut t = ioco_symbolic::SymbolicSpec::with_z3(spec).unwrap();
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(2);
    let mut seen_blue = false;
    let mut seen_put = false;
    for _ in 0..30 {
        t.reset().unwrap();
        if let Some((g, w)) = t.choose_input(&mut rng) {
            if g == "paint" {
                // Red is the current color and Green is excluded: only Blue
                assert_eq!(w[0].display(&t.sys.spec.defs).to_string(), "Blue");
                seen_blue = true;
            } else {
                // len(l) == 2 needs two levels of unfolding of a recursive function
                let s = w[0].display(&t.sys.spec.defs).to_string();
                assert!(
                    s.starts_with("Cons(") && s.matches("Cons").count() == 2,
                    "{}",
                    s
                );
                seen_put = true;
            }
        }
    }
    assert!(seen_blue && seen_put);
}

#[test]
fn recursion_beyond_the_inlining_bound_is_unknown() {
    let src = "type List = Nil | Cons { hd: int, tl: List }\n\
               fn len(l: List): int = if l is Nil then 0 else 1 + len(l.tl)\n\
               model M {\n  input put(l: List)\n  init s\n  location s\n  s -- put?(l) [len(l) == 40] --> s\n}\n";
    let model = ioco_lang::parse_str("m.ioco", src).unwrap();
    let spec = Arc::new(model.entry().unwrap().clone());
    let mut t = ioco_symbolic::SymbolicSpec::with_z3(spec).unwrap();
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(2);
    assert_eq!(t.choose_input(&mut rng), None);
    assert!(t.checker.stats.unknowns > 0);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    /// Z3's div/mod agree with the IR evaluator (Euclidean, as SMT-LIB).
    #[test]
    fn division_agrees_with_the_evaluator(a in -50i64..50, b in -7i64..7) {
        prop_assume!(b != 0);
        let defs = Arc::new(Defs::default());
        let mut s = Z3Solver::new(defs);
        let q = v("q", Type::Int);
        let r = v("r", Type::Int);
        s.assert(&var_is(&q, Value::Int(0)));
        s.push();
        let q = v("q2", Type::Int);
        s.assert(&Term::eq(Term::sym(q.clone()), bin(BinOp::Div, Term::int(a), Arc::new(Term::Sym(v("bb", Type::Int))))));
        s.assert(&Term::eq(Term::sym(r.clone()), bin(BinOp::Mod, Term::int(a), Arc::new(Term::Sym(v("bb", Type::Int))))));
        s.assert(&var_is(&v("bb", Type::Int), Value::Int(b)));
        prop_assert_eq!(s.check(), SatResult::Sat);
        let m = s.model(&[q, r]).unwrap();
        prop_assert_eq!(m[0].clone(), Value::Int(a.div_euclid(b)));
        prop_assert_eq!(m[1].clone(), Value::Int(a.rem_euclid(b)));
        s.pop();
    }
}
