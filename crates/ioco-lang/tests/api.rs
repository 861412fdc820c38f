//! The public entry points: `load_lts` (for the CLI), `parse_file` with imports, evaluation
//! rules of the data language, and instantiation of templates.

use ioco_lang::ir::{Env, Type, Value};
use ioco_lang::parser::parse_expr;
use std::path::PathBuf;

fn example(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(rel)
}

#[test]
fn load_lts_gives_the_entry_point() {
    let lts = ioco_lang::load_lts(example("coffee/coffee.ioco")).unwrap();
    assert_eq!((lts.num_states(), lts.num_transitions()), (6, 9));
    // coffee-sts.ioco: the entry is the `@main` STS, which has no finite LTS; its finite
    // variant CoffeeSmall has one
    let err = ioco_lang::load_lts(example("coffee/coffee-sts.ioco")).unwrap_err();
    assert!(
        format!("{:?}", err).contains("cannot enumerate"),
        "{:?}",
        err
    );
    let m = ioco_lang::parse_file(example("coffee/coffee-sts.ioco")).unwrap();
    assert_eq!(m.entry().unwrap().name, "CoffeeMachine");
    let small = m.spec("CoffeeSmall").unwrap();
    let lts = ioco_lang::translate::to_lts(small, &Default::default()).unwrap();
    assert_eq!(lts.num_states(), 9);
    // imports: hiding.ioco uses models of parallel.ioco, which imports sequence.ioco
    let lts = ioco_lang::load_lts(example("torxakis/hiding.ioco")).unwrap();
    assert_eq!(lts.num_states(), 16);
}

#[test]
fn load_lts_reports_every_error() {
    let dir = std::env::temp_dir().join(format!("ioco-lang-api-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("bad.ioco");
    std::fs::write(
        &p,
        "model M {\n  input a\n  init s\n  s -- b? --> s\n  s -- a! --> s\n}\n",
    )
    .unwrap();
    let report = ioco_lang::load_lts(&p).unwrap_err();
    assert_eq!(report.to_string(), format!("2 errors in {}", p.display()));
    let diag: &dyn miette::Diagnostic = report.as_ref();
    assert_eq!(diag.related().unwrap().count(), 2);
    let p2 = dir.join("inf.ioco");
    std::fs::write(
        &p2,
        "model M {\n  input a(x: int)\n  init s\n  s -- a?(x) --> s\n}\n",
    )
    .unwrap();
    let report = ioco_lang::load_lts(&p2).unwrap_err();
    assert!(report.to_string().contains("infinitely many"), "{}", report);
    assert!(ioco_lang::load_lts(dir.join("missing.ioco")).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

fn eval(src: &str) -> Value {
    let m = ioco_lang::parse_str("e.ioco", &format!("fn f(): int = {}\n", src)).unwrap();
    let d = &m.program.defs;
    d.eval(
        &d.functions[0].body,
        &Env {
            vars: &[],
            params: &[],
            locals: &[],
        },
    )
    .unwrap()
}

/// The smallest integer is written as it prints (`ioco translate` of TorXakis's
/// `isValid_long`); one less is still too large.
#[test]
fn the_smallest_integer_is_a_literal() {
    assert_eq!(eval("-9223372036854775808"), Value::Int(i64::MIN));
    assert_eq!(eval("-9223372036854775808 + 1"), Value::Int(i64::MIN + 1));
    assert_eq!(eval("- 5 * 2"), Value::Int(-10));
    let err = ioco_lang::parse_str("e.ioco", "fn f(): int = -9223372036854775809\n")
        .expect_err("too large");
    assert!(ioco_lang::render_plain(&err).contains("integer literal too large"));
}

#[test]
fn euclidean_division_and_precedence() {
    assert_eq!(eval("-7 / 2"), Value::Int(-4));
    assert_eq!(eval("-7 % 2"), Value::Int(1));
    assert_eq!(eval("7 / -2"), Value::Int(-3));
    assert_eq!(eval("1 + 2 * 3"), Value::Int(7));
    assert_eq!(eval("if 1 < 2 then 10 else 20"), Value::Int(10));
    assert!(parse_expr(0, "a < b < c").is_err());
}

#[test]
fn overflow_and_division_by_zero_are_errors() {
    for src in [
        "9223372036854775807 + 1",
        "1 / 0",
        "-(0 - 9223372036854775807 - 1)",
    ] {
        let m = ioco_lang::parse_str("e.ioco", &format!("fn f(): int = {}\n", src)).unwrap();
        let d = &m.program.defs;
        assert!(
            d.eval(
                &d.functions[0].body,
                &Env {
                    vars: &[],
                    params: &[],
                    locals: &[]
                }
            )
            .is_err(),
            "{}",
            src
        );
    }
}

#[test]
fn templates_are_instantiated_with_values() {
    let m = ioco_lang::parse_file(example("torxakis/sequence.ioco")).unwrap();
    let a = m
        .program
        .instantiate("SequenceData", &[Value::Int(7)])
        .unwrap();
    assert_eq!(a.name, "SequenceData(7)");
    assert!(m.program.instantiate("SequenceData", &[]).is_err());
    assert!(m
        .program
        .instantiate("SequenceData", &[Value::Bool(true)])
        .is_err());
    let enumerated = m.program.defs.enumerate(Type::Range(-1, 1), 10).unwrap();
    assert_eq!(
        enumerated,
        vec![Value::Int(-1), Value::Int(0), Value::Int(1)]
    );
}
