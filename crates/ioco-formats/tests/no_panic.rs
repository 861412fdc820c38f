//! Bad input never panics: random bytes and mutated valid files go to every reader, and every
//! error renders (its span lies within the source).

use ioco_formats::{aut, dot, json, FormatError};
use miette::{GraphicalReportHandler, GraphicalTheme};
use proptest::prelude::*;

const AUT: &str =
    "des (0, 4, 3)\n(0, \"coin?\", 1)\n(1, tea!, 2)\n(2, \"tau\", 0)\n(0, delta, 0)\n";
const DOT_MEALY: &str = "digraph g {\n__start0 [label=\"\" shape=\"none\"];\ns0 [label=\"s0|x\"];\ns1 [label=\"s1|y\"];\ns0 -> s1 [label=\"a / b\"];\ns1 -> s0 [label=<c | d<br />e &amp; f>];\n/* c */ s1 -> s1 [label=\"g\"];\n__start0 -> s0;\n}\n";
const DOT_LTS: &str = "digraph lts {\n  __start0 -> s0;\n  s0 -> s1 -> s2 [label=\"a?\"];\n  s2 -> s0 [label=\"b!\"]; // x\n  s2 -> s2 [label=tau];\n}\n";
const JSON: &str = "{\"format\":\"ioco-lts/1\",\"inputs\":[\"a\"],\"outputs\":[\"b\"],\"states\":[\"x\",\"y\"],\"initial\":[\"x\"],\"transitions\":[[\"x\",\"a\",1],[1,\"b!\",\"x\"],[0,\"tau\",0]]}";

fn check(r: Result<(), FormatError>) {
    if let Err(e) = r {
        let mut out = String::new();
        GraphicalReportHandler::new_themed(GraphicalTheme::none())
            .render_report(&mut out, &e)
            .unwrap();
        if let (Some((a, z)), Some(src)) = (e.shown_span(), e.source_text()) {
            assert!(a <= z && z <= src.len());
        }
        let _ = e.to_string();
    }
}

fn all(src: &str) {
    check(aut::parse(src, "f.aut").map(|_| ()));
    check(dot::parse(src, "f.dot").map(|_| ()));
    check(dot::parse_lts(src, "f.dot").map(|_| ()));
    check(dot::parse_mealy(src, "f.dot").map(|_| ()));
    check(json::read_lts(src, "f.json").map(|_| ()));
}

/// Edits: (position fraction, delete length, inserted text).
fn mutate(base: &str, edits: &[(f64, usize, String)]) -> String {
    let mut s = base.as_bytes().to_vec();
    for (p, del, ins) in edits {
        let at = ((s.len() as f64) * p) as usize;
        let at = at.min(s.len());
        let end = (at + del).min(s.len());
        s.splice(at..end, ins.bytes());
    }
    String::from_utf8_lossy(&s).into_owned()
}

fn edits() -> impl Strategy<Value = Vec<(f64, usize, String)>> {
    prop::collection::vec(
        (
            0.0..1.0f64,
            0usize..6,
            "[\\(\\),\" ?!/|<>\\[\\]{};=0-9a-z\\n\\\\δ-]{0,4}",
        ),
        1..5,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        all(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn mutated_aut_never_panics(e in edits()) { all(&mutate(AUT, &e)); }

    #[test]
    fn mutated_dot_mealy_never_panics(e in edits()) { all(&mutate(DOT_MEALY, &e)); }

    #[test]
    fn mutated_dot_lts_never_panics(e in edits()) { all(&mutate(DOT_LTS, &e)); }

    #[test]
    fn mutated_json_never_panics(e in edits()) { all(&mutate(JSON, &e)); }
}

#[test]
fn the_seeds_are_valid() {
    aut::parse(AUT, "f.aut").unwrap();
    assert!(matches!(
        dot::parse(DOT_MEALY, "f.dot").unwrap(),
        ioco_formats::Model::Mealy(_)
    ));
    assert!(matches!(
        dot::parse(DOT_LTS, "f.dot").unwrap(),
        ioco_formats::Model::Lts(_)
    ));
    json::read_lts(JSON, "f.json").unwrap();
}
