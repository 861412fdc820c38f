//! Strings in the symbolic engine: Z3's strings and regular expressions, values picked from
//! models (real strings that satisfy the guards), refutation, escaping both ways, and the
//! TorXakis LuckyPeople port (examples/torxakis/lucky-people.ioco).
mod common;
use common::load;
use ioco_lang::ast::BinOp;
use ioco_lang::ir::{Builtin, Defs, Type, Value};
use ioco_lang::regex::Regex;
use ioco_symbolic::solver::{SatResult, Solver};
use ioco_symbolic::term::{domain_constraint, instantiate, value_in_type, SymVar, Term, T};
use ioco_symbolic::{Checker, Z3Solver};
use std::sync::Arc;

fn v(name: &str, ty: Type) -> SymVar {
    SymVar {
        name: name.into(),
        ty,
    }
}

fn bin(op: BinOp, a: T, b: T) -> T {
    Arc::new(Term::Binary(op, a, b))
}

fn s(x: &str) -> T {
    Term::val(Value::str(x))
}

fn re(src: &str) -> Arc<Regex> {
    Arc::new(Regex::parse(src).unwrap())
}

fn solve(defs: &Arc<Defs>, fs: &[T], vars: &[SymVar]) -> Option<Vec<Value>> {
    let mut z = Z3Solver::new(defs.clone());
    z.push();
    for f in fs {
        z.assert(f);
    }
    match z.check() {
        SatResult::Sat => Some(z.model(vars).unwrap()),
        SatResult::Unsat => None,
        SatResult::Unknown(why) => panic!("unknown: {why}"),
    }
}

#[test]
fn strings_round_trip_through_z3() {
    let defs = Arc::new(Defs::default());
    let x = v("x", Type::STRING);
    for text in [
        "",
        "abc",
        "é ü",
        "a\"b\\c\n\t",
        "\u{1}\u{7f}",
        "\u{1F600}",
        "\\u{41}",
    ] {
        let m = solve(
            &defs,
            &[Term::eq(Term::sym(x.clone()), s(text))],
            std::slice::from_ref(&x),
        );
        assert_eq!(m, Some(vec![Value::str(text)]), "{text:?}");
    }
}

#[test]
fn operations_in_z3() {
    let defs = Arc::new(Defs::default());
    let x = v("x", Type::STRING);
    let y = v("y", Type::STRING);
    let (tx, ty) = (Term::sym(x.clone()), Term::sym(y.clone()));
    // x ++ y == "hello", len(x) == 2, at(y, 0) == "l"
    let m = solve(
        &defs,
        &[
            Term::eq(bin(BinOp::Concat, tx.clone(), ty.clone()), s("hello")),
            Term::eq(Term::len(tx.clone()), Term::int(2)),
            Term::eq(
                Arc::new(Term::Builtin(Builtin::At, vec![ty.clone(), Term::int(0)])),
                s("l"),
            ),
        ],
        &[x.clone(), y.clone()],
    )
    .unwrap();
    assert_eq!(m, vec![Value::str("he"), Value::str("llo")]);
    // takeWhileNot("@", x) == "12" && dropWhile("@", dropWhileNot("@", x)) == "34" && len(x) == 6
    let tw = |b: Builtin, cs: &str, t: T| Arc::new(Term::Builtin(b, vec![s(cs), t]));
    let m = solve(
        &defs,
        &[
            Term::eq(tw(Builtin::TakeWhileNot, "@", tx.clone()), s("12")),
            Term::eq(
                tw(
                    Builtin::DropWhile,
                    "@",
                    tw(Builtin::DropWhileNot, "@", tx.clone()),
                ),
                s("34"),
            ),
            Term::eq(Term::len(tx.clone()), Term::int(6)),
        ],
        std::slice::from_ref(&x),
    )
    .unwrap();
    assert_eq!(m, vec![Value::str("12@@34")]);
    // takeWhile("ab", x) == "ab" && len(x) == 3 && x matches /.*a/: x = "ab" + c, c not in {a,b}
    let m = solve(
        &defs,
        &[
            Term::eq(tw(Builtin::TakeWhile, "ab", tx.clone()), s("ab")),
            Term::eq(Term::len(tx.clone()), Term::int(3)),
        ],
        std::slice::from_ref(&x),
    )
    .unwrap();
    let got = m[0].as_str().unwrap().to_string();
    assert!(
        got.starts_with("ab") && !got.ends_with(['a', 'b']),
        "{got:?}"
    );
}

#[test]
fn regular_expressions_in_z3_agree_with_the_matcher() {
    let defs = Arc::new(Defs::default());
    let x = v("x", Type::STRING);
    let tx = Term::sym(x.clone());
    let cases = [
        "[A-Z][0-9]{2}[a-z]+",
        "[A-Z]{2}[0-9][a-z]*",
        "[A-Z]{1,3}",
        "[\\t\\r\\n -]*x",
        "(ab|c)+d?",
        "[^a-z]{3}",
        "\\d{2,}\\.\\w",
        "a{0}b+",
        "x{3,}",
        ".é",
    ];
    for c in cases {
        let r = re(c);
        // a model of `x matches /c/` (longer than 1) is matched by the explicit matcher
        let m = solve(
            &defs,
            &[
                Term::matches(tx.clone(), r.clone()),
                bin(BinOp::Ge, Term::len(tx.clone()), Term::int(2)),
            ],
            std::slice::from_ref(&x),
        )
        .unwrap_or_else(|| panic!("{c}: unsat"));
        let got = m[0].as_str().unwrap();
        assert!(r.is_match(got), "{c}: z3 gave {got:?}");
        // and a string the matcher refuses is refuted by Z3
        let bad = format!("{got}\u{0}");
        assert!(!r.is_match(&bad));
        assert!(
            solve(
                &defs,
                &[
                    Term::matches(tx.clone(), r.clone()),
                    Term::eq(tx.clone(), s(&bad))
                ],
                std::slice::from_ref(&x)
            )
            .is_none(),
            "{c}: {bad:?}"
        );
    }
}

#[test]
fn lucky_people_picks_valid_names_and_refutes_invalid_ones() {
    let spec = load(
        "../../examples/torxakis/lucky-people.ioco",
        Some("LuckyPeople"),
    );
    let defs = spec.defs.clone();
    let a = &spec.automata[0];
    let sw = &a.switches[0];
    let p = v("p@0", sw.params[0].1);
    let vars: Vec<T> = a.vars.iter().map(|x| Term::val(x.init.clone())).collect();
    let guard = instantiate(&defs, &sw.guard, &vars, &[Term::sym(p.clone())]);
    let mut checker = Checker::new(Box::new(Z3Solver::new(defs.clone())));
    let name = re("[A-Z][a-z]*");
    for _ in 0..3 {
        let got = checker
            .values(&defs, &guard, std::slice::from_ref(&p), &[])
            .unwrap();
        let Value::Adt(_, _, fields) = &got[0] else {
            panic!("{got:?}")
        };
        for f in &fields[1..3] {
            let text = f.as_str().unwrap();
            assert!(name.is_match(text), "{text:?} is not a name");
        }
        let shown = got[0].display(&defs).to_string();
        assert!(shown.starts_with("Person("), "{shown}");
    }
    // a first name that does not match the expression is refuted
    let Type::Adt(t) = sw.params[0].1 else {
        panic!()
    };
    let first = Arc::new(Term::Field(Term::sym(p.clone()), t, 0, 1));
    for bad in ["alice", "A1", ""] {
        let phi = Term::and(guard.clone(), Term::eq(first.clone(), s(bad)));
        assert_eq!(checker.sat(&defs, &phi), SatResult::Unsat, "{bad:?}");
    }
    let phi = Term::and(guard.clone(), Term::eq(first.clone(), s("Alice")));
    assert_eq!(checker.sat(&defs, &phi), SatResult::Sat);
}

#[test]
fn refined_string_types_constrain_picked_values() {
    let spec = load("../../examples/torxakis/lucky-people.ioco", Some("Greeter"));
    let defs = spec.defs.clone();
    let a = &spec.automata[0];
    let sw = &a.switches[0];
    let ty = sw.params[0].1;
    assert_eq!(defs.type_name(ty), "string[1..12] /[A-Z][a-z]*/");
    let x = v("x@0", ty);
    let guard = instantiate(&defs, &sw.guard, &[], &[Term::sym(x.clone())]);
    let mut checker = Checker::new(Box::new(Z3Solver::new(defs.clone())));
    let hint = Term::eq(Term::len(Term::sym(x.clone())), Term::int(5));
    let got = checker
        .values(&defs, &guard, std::slice::from_ref(&x), &[hint])
        .unwrap();
    let text = got[0].as_str().unwrap();
    assert_eq!(text.chars().count(), 5, "{text:?}");
    assert!(value_in_type(&defs, ty, &got[0]), "{text:?}");
    // the domain alone: no 13-character name, no lower-case start
    let d = domain_constraint(&defs, &x);
    let too_long = Term::eq(Term::len(Term::sym(x.clone())), Term::int(13));
    assert_eq!(
        checker.sat(&defs, &Term::and(d.clone(), too_long)),
        SatResult::Unsat
    );
    let lower = Term::eq(Term::sym(x.clone()), s("ann"));
    assert_eq!(checker.sat(&defs, &Term::and(d, lower)), SatResult::Unsat);
}
