//! Strings (docs/language.md §3): literals, `++`, `len`, `at`, the TorXakis `takeWhile`
//! family, `matches /re/`, refined types `string[lo..hi] /re/`, labels, the explicit
//! translation, and the errors for bad input.

use ioco_lang::ir::{Env, Type, Value};
use ioco_lang::translate::{to_lts, Options};
use ioco_lang::{parse_file, parse_str, render_plain};
use std::path::PathBuf;

fn example(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(rel)
}

/// Evaluates a closed expression through a function in a model.
fn eval(expr: &str, ty: &str) -> Value {
    let src = format!("fn f(): {ty} = {expr}\nmodel M {{ input a init s s -- a? --> s }}\n");
    let m = parse_str("t.ioco", &src).unwrap_or_else(|d| panic!("{}", render_plain(&d)));
    let spec = m.spec("M").unwrap();
    let defs = &spec.defs;
    let body = &defs.functions[0].body;
    let env = Env {
        vars: &[],
        params: &[],
        locals: &[],
    };
    defs.eval(body, &env).unwrap()
}

fn errors(src: &str) -> String {
    match parse_str("bad.ioco", src) {
        Ok(_) => panic!("accepted:\n{src}"),
        Err(d) => render_plain(&d),
    }
}

#[test]
fn operations_evaluate() {
    assert_eq!(eval(r#""ab" ++ "c""#, "string"), Value::str("abc"));
    assert_eq!(eval(r#"len("héllo")"#, "int"), Value::Int(5));
    assert_eq!(eval(r#"at("Alice", 0)"#, "string"), Value::str("A"));
    assert_eq!(eval(r#"at("Alice", 9)"#, "string"), Value::str(""));
    assert_eq!(eval(r#"at("Alice", -1)"#, "string"), Value::str(""));
    assert_eq!(
        eval(r#"takeWhileNot("@", "12@34@5")"#, "string"),
        Value::str("12")
    );
    assert_eq!(
        eval(r#"dropWhile("@", dropWhileNot("@", "12@@34"))"#, "string"),
        Value::str("34")
    );
    assert_eq!(
        eval(r#"takeWhile("ab", "abba!ab")"#, "string"),
        Value::str("abba")
    );
    assert_eq!(
        eval(r#""N22s" matches /[A-Z][0-9]{2}[a-z]+/"#, "bool"),
        Value::Bool(true)
    );
    assert_eq!(
        eval(r#""N2s" matches /[A-Z][0-9]{2}[a-z]+/"#, "bool"),
        Value::Bool(false)
    );
    assert_eq!(
        eval(r#""a\"b\\c\n" == "a\"b\\c\n""#, "bool"),
        Value::Bool(true)
    );
    assert_eq!(eval(r#"len("\u{e9}\t")"#, "int"), Value::Int(2));
    assert_eq!(
        eval(r#""x" ++ "y" matches /xy/"#, "bool"),
        Value::Bool(true)
    );
    assert_eq!(
        eval(r#"if true then "a" else "b""#, "string"),
        Value::str("a")
    );
    assert_eq!(eval(r#""a/b" matches /a\/b/"#, "bool"), Value::Bool(true));
}

#[test]
fn values_display_as_quoted_literals() {
    let src = r#"
type JobData = JobData { jobId: int, jobDescription: string, x: int, y: int }
model M {
  output Job(j: JobData)
  init s
  s -- Job!(=JobData(82, "N22s", 45, 78)) --> s
}
"#;
    let m = parse_str("t.ioco", src).unwrap();
    let spec = m.spec("M").unwrap();
    let lts = to_lts(spec, &Options::default()).unwrap();
    let names: Vec<String> = (2..lts.alphabet().len() as u32)
        .map(|l| lts.alphabet().name(ioco_model::Label(l)).to_string())
        .collect();
    assert!(
        names.contains(&r#"Job(JobData(82,"N22s",45,78))"#.to_string()),
        "{names:?}"
    );
    let v = Value::str("a\"b\\\n\u{1}");
    assert_eq!(v.display(&spec.defs).to_string(), r#""a\"b\\\n\u{1}""#);
    let shown = v.display(&spec.defs).to_string();
    let (back, rest) = ioco_lang::ir::unquote(&shown).unwrap();
    assert_eq!((back.as_str(), rest), ("a\"b\\\n\u{1}", ""));
}

#[test]
fn refined_types_are_checked_and_enumerated() {
    let src = r#"
type Code = string[2..2] /[A-B][0-1]/
model M {
  input Pick(c: Code)
  output Echo(c: string)
  var last: Code = "A0"
  init s
  s -- Pick?(c) { last = c } --> t
  t -- Echo!(=last ++ "!") --> s
}
"#;
    let m = parse_str("t.ioco", src).unwrap_or_else(|d| panic!("{}", render_plain(&d)));
    let spec = m.spec("M").unwrap();
    let a = &spec.automata[0];
    assert_eq!(
        spec.defs.type_name(a.vars[0].ty),
        "string[2..2] /[A-B][0-1]/"
    );
    assert!(spec.defs.contains(a.vars[0].ty, &Value::str("B1")));
    assert!(!spec.defs.contains(a.vars[0].ty, &Value::str("C1")));
    assert_eq!(spec.defs.enumerate(a.vars[0].ty, 100).unwrap().len(), 4);
    // states (s, last) and (t, last) for the 4 codes; 4 picks from each s, one echo per t
    let lts = to_lts(spec, &Options::default()).unwrap();
    assert_eq!(lts.num_states(), 8);
    assert_eq!(lts.num_transitions(), 20);
    // a bad initial value
    let e = errors(&src.replace(r#"= "A0""#, r#"= "C0""#));
    assert!(e.contains("C0"), "{e}");
}

#[test]
fn unbounded_strings_cannot_be_enumerated() {
    let src = "model M { input In(s: string) init a a -- In?(s) --> a }";
    let m = parse_str("t.ioco", src).unwrap();
    let e = to_lts(m.spec("M").unwrap(), &Options::default()).unwrap_err();
    assert!(e.message.contains("cannot enumerate"), "{}", e.message);
    assert!(
        e.message.contains("`string` has infinitely many values"),
        "{}",
        e.message
    );
    assert!(e.help.unwrap().contains("string /[A-C]{1,2}/"));
}

#[test]
fn lucky_people_checks() {
    let m = parse_file(example("torxakis/lucky-people.ioco"))
        .unwrap_or_else(|d| panic!("{}", render_plain(&d)));
    let spec = m.spec("LuckyPeople").unwrap();
    // one regular expression, shared by both names and `Name`
    assert_eq!(spec.defs.regexes.len(), 1);
    let person = spec.gates[0].params[0].1;
    assert!(matches!(person, Type::Adt(_)));
    let greeter = m.spec("Greeter").unwrap();
    assert_eq!(
        greeter.defs.type_name(greeter.gates[0].params[0].1),
        "string[1..12] /[A-Z][a-z]*/"
    );
}

#[test]
fn bad_regex_is_an_error_at_its_position() {
    let e = errors("fn f(s: string): bool = s matches /[A-Z/\n");
    assert!(
        e.contains("bad regular expression: unclosed character class"),
        "{e}"
    );
    assert!(e.contains("bad.ioco:1:36"), "{e}");
    assert!(e.contains("close the class with `]`"), "{e}");
    let e = errors("fn f(s: string): bool = s matches /a{3,1}/\n");
    assert!(e.contains("maximum below its minimum"), "{e}");
    let e = errors("type T = string /(ab/\n");
    assert!(e.contains("unclosed group"), "{e}");
    let e = errors("fn f(s: string): bool = s matches /abc\n");
    assert!(e.contains("unclosed regular expression"), "{e}");
    let e = errors("fn f(s: string): bool = s matches 3\n");
    assert!(e.contains("expected a regular expression"), "{e}");
}

#[test]
fn type_errors() {
    let e = errors(r#"fn f(): string = 1 ++ "a""#);
    assert!(
        e.contains("`++` needs two strings, found `int` and `string`"),
        "{e}"
    );
    let e = errors(r#"fn f(): string = "a" + "b""#);
    assert!(e.contains("strings are concatenated with `++`"), "{e}");
    let e = errors(r#"fn f(): bool = 3 matches /a/"#);
    assert!(e.contains("`matches` tests a string"), "{e}");
    let e = errors(r#"fn f(): int = len(3)"#);
    assert!(
        e.contains("argument `s` of built-in `len` must be `string`"),
        "{e}"
    );
    let e = errors(r#"fn f(): string = at("a")"#);
    assert!(e.contains("built-in `at` takes 2 argument(s)"), "{e}");
    let e = errors(r#"fn f(): bool = "a" == 1"#);
    assert!(e.contains("two values of the same type"), "{e}");
    let e = errors("type T = string[3..1]\n");
    assert!(e.contains("bad length range"), "{e}");
    let e = errors("fn f(s: String): bool = true\n");
    assert!(e.contains("the string type is written `string`"), "{e}");
}

#[test]
fn strings_format_back() {
    let src = "type Name = string[1..8] /[A-Z][a-z]*/\nfn f(s: Name): bool = s ++ \"\\n\" matches /[a-z]+\\/x/ && len(s) > 0\n";
    let out = ioco_lang::format(src).unwrap();
    assert_eq!(out, src.replace("\n", "\n\n").trim_end().to_string() + "\n");
    assert_eq!(ioco_lang::format(&out).unwrap(), out);
}
