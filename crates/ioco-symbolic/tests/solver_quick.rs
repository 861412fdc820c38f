//! The difference-logic fast path (`ioco_symbolic::quick`) against Z3 on random formulas:
//! whenever it answers, Z3 gives the same answer, and its models satisfy the formulas.
use ioco_lang::ast::{BinOp, UnOp};
use ioco_lang::ir::{Defs, Type, Value};
use ioco_symbolic::quick::{decide, Quick, BUDGET};
use ioco_symbolic::solver::{SatResult, Solver};
use ioco_symbolic::term::{domain_constraint, SymVar, Term, T};
use ioco_symbolic::{Checker, Z3Solver};
use proptest::prelude::*;
use std::sync::Arc;

fn var(name: &str, ty: Type) -> SymVar {
    SymVar {
        name: name.into(),
        ty,
    }
}

fn ints() -> Vec<SymVar> {
    vec![
        var("x", Type::Int),
        var("y", Type::Int),
        var("z", Type::Int),
        var("r", Type::Range(-3, 4)),
    ]
}

fn bools() -> Vec<SymVar> {
    vec![var("b", Type::Bool), var("c", Type::Bool)]
}

/// Integer terms: mostly linear (vars, constants, +, −, negation, constant factors), sometimes
/// not (a product of variables, a division), which the fast path must leave to Z3.
fn int_term() -> impl Strategy<Value = T> {
    let leaf = prop_oneof![
        (-6i64..6).prop_map(Term::int),
        (0usize..4).prop_map(|i| Term::sym(ints()[i].clone())),
        // near the ends of i64: overflow in the evaluator, not in the integers
        prop_oneof![Just(i64::MAX), Just(i64::MIN + 1)].prop_map(Term::int),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            4 => (inner.clone(), inner.clone()).prop_map(|(a, b)| bin(BinOp::Add, a, b)),
            3 => (inner.clone(), inner.clone()).prop_map(|(a, b)| bin(BinOp::Sub, a, b)),
            1 => inner.clone().prop_map(|a| Arc::new(Term::Unary(UnOp::Neg, a))),
            2 => (inner.clone(), -3i64..4).prop_map(|(a, k)| bin(BinOp::Mul, Term::int(k), a)),
            1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| bin(BinOp::Mul, a, b)),
            1 => (inner.clone(), 1i64..4).prop_map(|(a, k)| bin(BinOp::Div, a, Term::int(k))),
        ]
    })
}

fn atom() -> impl Strategy<Value = T> {
    let cmp = prop_oneof![
        Just(BinOp::Lt),
        Just(BinOp::Le),
        Just(BinOp::Gt),
        Just(BinOp::Ge),
        Just(BinOp::Eq),
        Just(BinOp::Ne),
    ];
    prop_oneof![
        6 => (cmp, int_term(), int_term()).prop_map(|(op, a, b)| bin(op, a, b)),
        2 => (0usize..2).prop_map(|i| Term::sym(bools()[i].clone())),
        1 => any::<bool>().prop_map(Term::bool),
    ]
}

fn formula() -> impl Strategy<Value = T> {
    atom().prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            3 => (inner.clone(), inner.clone()).prop_map(|(a, b)| bin(BinOp::And, a, b)),
            3 => (inner.clone(), inner.clone()).prop_map(|(a, b)| bin(BinOp::Or, a, b)),
            1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| bin(BinOp::Implies, a, b)),
            2 => inner.clone().prop_map(|a| Arc::new(Term::Unary(UnOp::Not, a))),
            1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| bin(BinOp::Eq, a, b)),
            1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| bin(BinOp::Ne, a, b)),
            1 => (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| Arc::new(Term::Ite(c, a, b))),
        ]
    })
}

fn bin(op: BinOp, a: T, b: T) -> T {
    Arc::new(Term::Binary(op, a, b))
}

/// Whenever the fast path answers, Z3 says the same, and the model satisfies the formulas.
fn agrees_with_z3(phi: &T) -> Result<(), TestCaseError> {
    let defs = Arc::new(Defs::default());
    let fs = with_domains(&defs, phi);
    match decide(&defs, &fs, BUDGET) {
        None => {}
        Some(Quick::Unsat) => {
            let r = z3(&defs, &fs);
            // Z3 may give up (its time-out, nonlinear terms on a loaded machine): no verdict.
            if !matches!(r, SatResult::Unknown(_)) {
                prop_assert_eq!(r, SatResult::Unsat, "{}", phi);
            }
        }
        Some(Quick::Sat(m)) => {
            // the model satisfies every formula (evaluation with the IR's semantics) …
            for f in &fs {
                let r = Term::subst(f, &defs, &|v: &SymVar| m.get(v).cloned());
                prop_assert_eq!(
                    r.as_const(),
                    Some(&Value::Bool(true)),
                    "{} under {:?}",
                    f,
                    m
                );
            }
            // … and Z3 agrees (unless it gives up: its time-out, on nonlinear terms under
            // load; the model was checked by evaluation above)
            let r = z3(&defs, &fs);
            if !matches!(r, SatResult::Unknown(_)) {
                prop_assert_eq!(r, SatResult::Sat, "{}", phi);
            }
        }
    }
    Ok(())
}

/// The formula with the domain constraints of its variables.
fn with_domains(defs: &Defs, phi: &T) -> Vec<T> {
    let mut fs = vec![phi.clone()];
    for v in phi.vars() {
        let d = domain_constraint(defs, &v);
        if d.as_const().is_none() {
            fs.push(d);
        }
    }
    fs
}

thread_local! {
    /// One solver for all cases (a scope per question).
    static Z3: std::cell::RefCell<Z3Solver> =
        std::cell::RefCell::new(Z3Solver::new(Arc::new(Defs::default())));
}

fn z3(_defs: &Arc<Defs>, fs: &[T]) -> SatResult {
    Z3.with(|s| {
        let mut s = s.borrow_mut();
        s.push();
        for f in fs {
            s.assert(f);
        }
        let r = s.check();
        s.pop();
        r
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn fast_path_agrees_with_z3(phi in formula()) {
        agrees_with_z3(&phi)?;
    }

    #[test]
    fn fast_path_agrees_with_z3_on_difference_formulas(phi in diff_formula()) {
        agrees_with_z3(&phi)?;
    }

    /// A checker with the fast path answers every question as one without it, and its values
    /// satisfy the formula and the hint it reports.
    #[test]
    fn checker_answers_the_same_with_and_without_the_fast_path(
        phi in formula(), hint in atom()
    ) {
        let defs = Arc::new(Defs::default());
        let mut fast = Checker::new(Box::new(Z3Solver::new(defs.clone())));
        let mut slow = Checker::new(Box::new(Z3Solver::new(defs.clone())));
        prop_assert!(fast.quick);
        slow.quick = false;
        let a = fast.sat(&defs, &phi);
        let b = slow.sat(&defs, &phi);
        // Z3 may give up (div/mul), the fast path never answers those: equal when both know
        if !matches!(b, SatResult::Unknown(_)) && !matches!(a, SatResult::Unknown(_)) {
            prop_assert_eq!(&a, &b, "{}", phi);
        }
        let vars: Vec<SymVar> = ints().into_iter().chain(bools()).collect();
        if let Ok(w) = fast.values(&defs, &phi, &vars, std::slice::from_ref(&hint)) {
            let r = Term::subst(&phi, &defs, &|v: &SymVar| {
                vars.iter().position(|x| x == v).map(|i| w[i].clone())
            });
            // a model of the solver can evaluate to an error (overflow): never to false
            prop_assert_ne!(r.as_const(), Some(&Value::Bool(false)), "{} with {:?}", phi, w);
            prop_assert_ne!(b, SatResult::Unsat);
            for (v, x) in vars.iter().zip(&w) {
                prop_assert!(ioco_symbolic::term::value_in_type(&defs, v.ty, x), "{:?} {:?}", v, x);
            }
        } else if a == SatResult::Sat {
            // sat, but no values: only when Z3 was asked and gave up
            prop_assert!(fast.stats.solver_calls > 0 || fast.stats.unknowns > 0);
        }
    }
}

/// Difference-logic formulas: `x op y + c`, `x op c` and boolean variables under the connectives.
fn diff_formula() -> impl Strategy<Value = T> {
    let cmp = prop_oneof![
        Just(BinOp::Lt),
        Just(BinOp::Le),
        Just(BinOp::Gt),
        Just(BinOp::Ge),
        Just(BinOp::Eq),
        Just(BinOp::Ne),
    ];
    let side = prop_oneof![
        (0usize..4).prop_map(|i| Term::sym(ints()[i].clone())),
        ((0usize..4), -5i64..5).prop_map(|(i, c)| bin(
            BinOp::Add,
            Term::sym(ints()[i].clone()),
            Term::int(c)
        )),
    ];
    let atom = prop_oneof![
        4 => (cmp.clone(), side.clone(), side).prop_map(|(op, a, b)| bin(op, a, b)),
        2 => (cmp, 0usize..4, -8i64..8)
            .prop_map(|(op, i, c)| bin(op, Term::sym(ints()[i].clone()), Term::int(c))),
        1 => (0usize..2).prop_map(|i| Term::sym(bools()[i].clone())),
    ];
    atom.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            3 => (inner.clone(), inner.clone()).prop_map(|(a, b)| bin(BinOp::And, a, b)),
            3 => (inner.clone(), inner.clone()).prop_map(|(a, b)| bin(BinOp::Or, a, b)),
            1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| bin(BinOp::Implies, a, b)),
            2 => inner.clone().prop_map(|a| Arc::new(Term::Unary(UnOp::Not, a))),
            1 => (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| Arc::new(Term::Ite(c, a, b))),
        ]
    })
}

/// The fast path is not vacuous: it decides every difference-logic formula (within its
/// budget), and a good part of the general random formulas (by relaxing the other atoms).
#[test]
fn fast_path_decides_difference_formulas() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let defs = Defs::default();
    let mut runner = TestRunner::deterministic();
    let count = |runner: &mut TestRunner, s: &BoxedStrategy<T>| {
        let mut decided = 0;
        for _ in 0..300 {
            let phi = s.new_tree(runner).unwrap().current();
            if decide(&defs, &with_domains(&defs, &phi), BUDGET).is_some() {
                decided += 1;
            }
        }
        decided
    };
    let d = count(&mut runner, &diff_formula().boxed());
    assert!(d >= 295, "{} of 300 difference formulas decided", d);
    let g = count(&mut runner, &formula().boxed());
    assert!(g >= 100, "{} of 300 general formulas decided", g);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
    /// Constant folding of terms is the IR's evaluation (overflow and division by zero are
    /// errors there and leave the term unfolded here).
    #[test]
    fn folding_agrees_with_the_evaluator(
        op in prop_oneof![
            Just(BinOp::Add), Just(BinOp::Sub), Just(BinOp::Mul), Just(BinOp::Div),
            Just(BinOp::Mod), Just(BinOp::Lt), Just(BinOp::Le), Just(BinOp::Gt),
            Just(BinOp::Ge), Just(BinOp::Eq), Just(BinOp::Ne)
        ],
        a in prop_oneof![-20i64..20, Just(i64::MAX), Just(i64::MIN), Just(-1)],
        b in prop_oneof![-20i64..20, Just(i64::MAX), Just(i64::MIN), Just(-1), Just(0)],
        neg in any::<bool>(),
    ) {
        use ioco_lang::ir::{Env, Expr, ExprKind};
        let span = ioco_lang::Span::new(0, 0, 0);
        let c = |v: i64| Expr { kind: ExprKind::Const(Value::Int(v)), ty: Type::Int, span };
        let mut e = Expr {
            kind: ExprKind::Binary(op, Box::new(c(a)), Box::new(c(b))),
            ty: Type::Int,
            span,
        };
        let mut t = bin(op, sym("p", Type::Int), sym("q", Type::Int));
        if neg && !matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne) {
            e = Expr { kind: ExprKind::Unary(UnOp::Neg, Box::new(e)), ty: Type::Int, span };
            t = Arc::new(Term::Unary(UnOp::Neg, t));
        }
        let defs = Defs::default();
        let ir = defs.eval(&e, &Env { vars: &[], params: &[], locals: &[] }).ok();
        let folded = Term::subst(&t, &defs, &|v: &SymVar| {
            Some(Value::Int(if &*v.name == "p" { a } else { b }))
        });
        prop_assert_eq!(folded.as_const().cloned(), ir);
    }
}

fn sym(name: &str, ty: Type) -> T {
    Term::sym(var(name, ty))
}

/// The memo table, the model pool and the fast path: how a Sequence10Ints-like question is
/// answered without Z3, and which counters show it.
#[test]
fn checker_counters_show_where_answers_come_from() {
    let defs = Arc::new(Defs::default());
    let mut ck = Checker::new(Box::new(Z3Solver::new(defs.clone())));
    let xs: Vec<SymVar> = (0..10)
        .map(|i| var(&format!("x{}@0", i), Type::Int))
        .collect();
    let chain = Term::and_all(
        xs.windows(2)
            .map(|w| bin(BinOp::Gt, Term::sym(w[0].clone()), Term::sym(w[1].clone()))),
    );
    assert_eq!(ck.sat(&defs, &chain), SatResult::Sat);
    assert_eq!(ck.sat(&defs, &chain), SatResult::Sat);
    assert_eq!((ck.stats.quick, ck.stats.cache_hits), (1, 1));
    // values with a hint, and a variable the formula does not mention (unconstrained)
    let mut vars = xs.clone();
    vars.push(var("free", Type::Bool));
    let hint = bin(BinOp::Eq, Term::sym(xs[4].clone()), Term::int(500));
    let w = ck.values(&defs, &chain, &vars, &[hint]).unwrap();
    assert_eq!(w[4], Value::Int(500));
    assert!(
        w[..10].windows(2).all(|p| p[0].as_int() > p[1].as_int()),
        "{:?}",
        w
    );
    assert_eq!(ck.stats.solver_calls, 0);
    // outside the fragment: Z3 answers
    let sq = bin(
        BinOp::Eq,
        bin(
            BinOp::Mul,
            Term::sym(xs[0].clone()),
            Term::sym(xs[0].clone()),
        ),
        Term::int(49),
    );
    let w = ck.values(&defs, &sq, &xs[..1], &[]).unwrap();
    assert_eq!(w[0].as_int().map(|v| v * v), Some(49));
    assert!(ck.stats.solver_calls > 0);
}
