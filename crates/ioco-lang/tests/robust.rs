//! Robustness and formatter properties:
//! - the formatter's output parses to the same model (same IR up to source positions), is a
//!   fixed point, and keeps every comment — on every example file and on generated models;
//! - random token streams and mutated example files never panic: they load, or fail with
//!   located diagnostics; finite ones translate or fail with a located error.

use ioco_lang::translate::{to_lts, Options};
use ioco_lang::{format, parse_str};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn examples() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "ioco") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Debug rendering of the checked program without source positions.
fn ir_of(name: &str, src: &str, dir: Option<&Path>) -> String {
    let prev = std::env::current_dir().unwrap();
    let _guard = dir; // imports are resolved relative to the current directory for parse_str
    let m = match dir {
        Some(d) => {
            let tmp = d.join(format!(".fmt-test-{}-{}.tmp", std::process::id(), name));
            std::fs::write(&tmp, src).unwrap();
            let r = ioco_lang::parse_file(&tmp);
            std::fs::remove_file(&tmp).unwrap();
            r
        }
        None => parse_str(name, src),
    };
    let _ = prev;
    let m = m.unwrap_or_else(|d| panic!("{}\n{}", src, ioco_lang::render_plain(&d)));
    strip_spans(&format!("{:?}", m.program.specs))
}

fn strip_spans(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("Span {") {
        out.push_str(&rest[..i]);
        let j = rest[i..].find('}').unwrap();
        rest = &rest[i + j + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn formatting_examples_preserves_models_and_comments() {
    for p in examples() {
        let src = std::fs::read_to_string(&p).unwrap();
        let out = format(&src).unwrap_or_else(|d| panic!("{}: {:?}", p.display(), d));
        assert_eq!(
            format(&out).unwrap(),
            out,
            "not idempotent: {}",
            p.display()
        );
        let dir = p.parent().unwrap();
        let name = p.file_name().unwrap().to_str().unwrap();
        assert_eq!(
            ir_of(name, &src, Some(dir)),
            ir_of(name, &out, Some(dir)),
            "{}",
            p.display()
        );
        for line in src.lines() {
            if let Some(i) = line.find("//") {
                let c = line[i..].trim_end();
                assert!(out.contains(c), "{}: lost comment {:?}", p.display(), c);
            }
        }
    }
}

fn int_expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("v".to_string()),
        (0i64..6).prop_map(|x| x.to_string()),
        Just("-1".to_string())
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{} + {}", a, b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({} - {})", a, b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{}*{}", a, b)),
            inner.clone().prop_map(|a| format!("-({})", a)),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| format!("(if v > 2 then {} else {})", a, b)),
        ]
    })
}

fn bool_expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("true".to_string()),
        (int_expr(), int_expr()).prop_map(|(a, b)| format!("{} < {}", a, b)),
        (int_expr(), int_expr()).prop_map(|(a, b)| format!("{} == {}", a, b)),
    ];
    leaf.prop_recursive(2, 8, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{} && {}", a, b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({} || {})", a, b)),
            inner.clone().prop_map(|a| format!("!({})", a)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{} => {}", a, b)),
        ]
    })
}

fn switch() -> impl Strategy<Value = String> {
    let action = prop_oneof![
        Just("a?".to_string()),
        Just("b?(p)".to_string()),
        Just("c!".to_string()),
        Just("d!(q)".to_string()),
        int_expr().prop_map(|e| format!("b?(={})", e)),
        Just("tau".to_string()),
        Just("a? | d!(q)".to_string()),
        Just("b?(p) | c!".to_string()),
    ];
    (
        0..3usize,
        action,
        proptest::option::of(bool_expr()),
        proptest::option::of(int_expr()),
        0..3usize,
    )
        .prop_map(|(f, a, g, u, t)| {
            let mut s = format!("l{} -- {}", f, a);
            if let Some(g) = g {
                s.push_str(&format!(" [{}]", g));
            }
            if let Some(u) = u {
                s.push_str(&format!(" {{ v = {} }}", u));
            }
            s.push_str(&format!(" --> l{}", t));
            s
        })
}

fn model() -> impl Strategy<Value = String> {
    let sep = prop_oneof![
        Just(" ".to_string()),
        Just("\n  ".to_string()),
        Just("\n\n  ".to_string()),
        Just("  // note\n".to_string()),
        Just(" /* c */ ".to_string()),
    ];
    proptest::collection::vec((switch(), sep), 1..6).prop_map(|sws| {
        let mut s = String::from(
            "// generated\nmodel G {\n  input a, b(x: int[0..2])\n  output c, d(y: bool)\n  var v: int = 0\n  init l0\n  l2 -- exit\n",
        );
        for (sw, sep) in sws {
            s.push_str("  ");
            s.push_str(&sw);
            s.push_str(&sep);
            s.push('\n');
        }
        s.push_str("}\n\n@sync(c | d)\nsystem S { G >>> S }\n\nsystem T { (G ||| G) >>> G[a -> e] }\n");
        s
    })
}

const TOKENS: &[&str] = &[
    "model",
    "system",
    "type",
    "fn",
    "import",
    "input",
    "output",
    "var",
    "init",
    "location",
    "tau",
    "hide",
    "in",
    "if",
    "then",
    "else",
    "true",
    "false",
    "int",
    "bool",
    "is",
    "x",
    "M",
    "a",
    "s0",
    "42",
    "500ms",
    "\"f.ioco\"",
    "--",
    "-->",
    "->",
    "=>",
    "?",
    "!",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ";",
    ":",
    "..",
    ".",
    "@",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "&&",
    "||",
    "|||",
    "|",
    ">>>",
    "exit",
    "@sync",
    "\n",
    "//c\n",
    "/*",
    "é",
    "#",
    "99999999999999999999",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn formatter_round_trips_generated_models(src in model()) {
        let before = ir_of("g.ioco", &src, None);
        let out = format(&src).unwrap();
        prop_assert_eq!(format(&out).unwrap(), out.clone());
        prop_assert_eq!(before, ir_of("g.ioco", &out, None));
        prop_assert!(out.contains("// generated"));
    }

    #[test]
    fn random_token_streams_never_panic(toks in proptest::collection::vec(proptest::sample::select(TOKENS), 0..60)) {
        let src = toks.join(" ");
        match parse_str("r.ioco", &src) {
            Ok(m) => {
                if let Some(s) = m.entry() {
                    let _ = to_lts(s, &Options { max_states: 500, max_values: 100, state_names: true, ..Options::default() });
                }
            }
            Err(d) => {
                prop_assert!(!d.is_empty());
                for x in &d {
                    prop_assert!(x.location.starts_with("r.ioco:"));
                }
                let _ = ioco_lang::render_plain(&d);
            }
        }
        let _ = format(&src);
    }

    #[test]
    fn mutated_examples_never_panic(file in 0usize..32, edits in proptest::collection::vec((any::<u16>(), 0u8..3, proptest::sample::select(TOKENS)), 1..4)) {
        let files = examples();
        let p = &files[file % files.len()];
        let mut src = std::fs::read_to_string(p).unwrap();
        for (pos, kind, tok) in edits {
            let mut i = pos as usize % (src.len() + 1);
            while !src.is_char_boundary(i) { i -= 1; }
            match kind {
                0 => src.insert_str(i, tok),
                1 => { let mut j = (i + tok.len()).min(src.len()); while !src.is_char_boundary(j) { j -= 1; } src.replace_range(i..j, ""); }
                _ => { let mut j = (i + 1).min(src.len()); while !src.is_char_boundary(j) { j -= 1; } src.replace_range(i..j, tok); }
            }
        }
        match parse_str("m.ioco", &src) {
            Ok(m) => {
                for s in &m.program.specs {
                    let _ = to_lts(s, &Options { max_states: 2_000, max_values: 200, state_names: false, ..Options::default() });
                }
            }
            Err(d) => {
                prop_assert!(!d.is_empty());
                let _ = ioco_lang::render_plain(&d);
            }
        }
        let _ = format(&src);
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!(
        "model M {{ input a init s s -- a? [{}true{}] --> s }}",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    assert!(parse_str("d.ioco", &deep).is_err());
    let deep = format!(
        "model M {{ input a init s s -- a? [{}true] --> s }}",
        "!".repeat(5000)
    );
    assert!(parse_str("d.ioco", &deep).is_err());
}

#[test]
fn example_files_are_formatted() {
    for p in examples() {
        let src = std::fs::read_to_string(&p).unwrap();
        assert_eq!(
            format(&src).unwrap(),
            src,
            "{} is not formatted (run the formatter)",
            p.display()
        );
    }
}

/// The regression corpus: tricky inputs (and any input that ever crashed the front end) in
/// `tests/corpus/`. Each must load or fail with located diagnostics, format or fail, and
/// translate or fail, without a panic.
#[test]
fn regression_corpus_never_panics() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut n = 0;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for p in files {
        let src = std::fs::read_to_string(&p).unwrap();
        n += 1;
        match parse_str("c.ioco", &src) {
            Ok(m) => {
                for s in &m.program.specs {
                    let _ = to_lts(
                        s,
                        &Options {
                            max_states: 2_000,
                            max_values: 200,
                            state_names: true,
                            ..Options::default()
                        },
                    );
                }
            }
            Err(d) => {
                assert!(!d.is_empty(), "{}", p.display());
                for x in &d {
                    assert!(
                        x.location.starts_with("c.ioco:"),
                        "{}: {}",
                        p.display(),
                        x.location
                    );
                }
                let _ = ioco_lang::render_plain(&d);
            }
        }
        if let Ok(out) = format(&src) {
            assert_eq!(format(&out).unwrap(), out, "{}", p.display());
        }
    }
    assert!(n >= 10, "only {} corpus files", n);
}
