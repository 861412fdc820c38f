//! The rendered diagnostics of bad input, snapshot-tested (miette's graphical handler, no
//! colours, ASCII), so that a change in what users see is a reviewed change.

use ioco_formats::{aut, dot, json, FormatError};
use miette::{GraphicalReportHandler, GraphicalTheme};

fn render(e: &FormatError) -> String {
    let mut out = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::none())
        .with_width(100)
        .with_links(false)
        .render_report(&mut out, e)
        .unwrap();
    format!("{e}\n\n{out}")
}

macro_rules! snap {
    ($name:ident, $parse:expr, $src:expr) => {
        #[test]
        fn $name() {
            let e = $parse($src).expect_err("the input is bad");
            assert!(e.line > 0 && e.column > 0, "{e}");
            insta::assert_snapshot!(stringify!($name), render(&e));
        }
    };
}

fn a(src: &str) -> Result<(), FormatError> {
    aut::parse(src, "model.aut").map(|_| ())
}
fn d(src: &str) -> Result<(), FormatError> {
    dot::parse(src, "model.dot").map(|_| ())
}
fn dl(src: &str) -> Result<(), FormatError> {
    dot::parse_lts(src, "model.dot").map(|_| ())
}
fn j(src: &str) -> Result<(), FormatError> {
    json::read_lts(src, "model.json").map(|_| ())
}

snap!(aut_missing_header, a, "(0, \"a?\", 1)\n");
snap!(aut_bad_header, a, "des (0, 1 2)\n(0, \"a?\", 1)\n");
snap!(
    aut_too_few_transitions,
    a,
    "des (0, 3, 2)\n(0, \"a?\", 1)\n(1, \"b!\", 0)\n"
);
snap!(
    aut_too_many_transitions,
    a,
    "des (0, 1, 2)\n(0, \"a?\", 1)\n(1, \"b!\", 0)\n"
);
snap!(
    aut_state_out_of_range,
    a,
    "des (0, 2, 2)\n(0, \"a?\", 1)\n(1, \"b!\", 2)\n"
);
snap!(
    aut_unmarked_label,
    a,
    "des (0, 2, 2)\n(0, \"coin?\", 1)\n(1, \"coffee\", 0)\n"
);
snap!(aut_missing_paren, a, "des (0, 1, 2)\n(0, \"a?\", 1\n");
snap!(
    dot_missing_bracket,
    d,
    "digraph g {\n  s0 -> s1 [label=\"a/x\"\n  s1 -> s0 [label=\"a/y\"];\n}\n"
);
snap!(
    dot_unterminated_string,
    d,
    "digraph g {\n  s0 -> s1 [label=\"a/x];\n}\n"
);
snap!(dot_undirected, d, "graph g { a -- b }");
snap!(
    dot_lts_unmarked,
    dl,
    "digraph g {\n  s0 -> s1 [label=\"coin?\"];\n  s1 -> s0 [label=\"tea\"];\n}\n"
);
snap!(
    dot_nondeterministic_mealy,
    d,
    "digraph g {\n  s0 -> s1 [label=\"a/x\"];\n  s0 -> s0 [label=\"a/y\"];\n}\n"
);
snap!(
    dot_mixed_lts_unmarked,
    d,
    "digraph g {\n  s0 -> s1 [label=\"a?\"];\n  s1 -> s0 [label=\"b\"];\n}\n"
);
snap!(
    json_syntax,
    j,
    "{\n  \"format\": \"ioco-lts/1\",\n  \"states\": 2\n  \"initial\": [0]\n}\n"
);
snap!(json_unknown_state, j, "{\n  \"format\": \"ioco-lts/1\",\n  \"states\": [\"idle\", \"busy\"],\n  \"initial\": [\"idle\"],\n  \"transitions\": [[\"idle\", \"go?\", \"bussy\"]]\n}\n");
snap!(json_unmarked_label, j, "{\n  \"format\": \"ioco-lts/1\",\n  \"states\": 2,\n  \"initial\": [0],\n  \"transitions\": [[0, \"go\", 1]]\n}\n");
snap!(
    json_wrong_format,
    j,
    "{\"format\": \"ioco-lts/9\", \"states\": 1, \"initial\": [0], \"transitions\": []}"
);

#[test]
fn unknown_extension_lists_the_supported_ones() {
    let e = ioco_formats::load(std::path::Path::new("model.xyz")).unwrap_err();
    assert!(e.to_string().contains("unknown model format"), "{e}");
    assert!(e
        .hint
        .as_deref()
        .unwrap()
        .contains(".aut, .dot, .gv, .json"));
    let e = ioco_formats::load(std::path::Path::new("model.ioco")).unwrap_err();
    assert!(e.to_string().contains("ioco-lang"), "{e}");
}

/// Inputs and outputs are two namespaces (issue #19 item 2): `a?` and `a!` in one file are two
/// labels, not a conflict.
#[test]
fn aut_input_and_output_of_one_name() {
    let lts = ioco_formats::aut::parse("des (0, 2, 2)\n(0, \"a?\", 1)\n(1, \"a!\", 0)\n", "a.aut")
        .unwrap();
    let a = lts.alphabet();
    let i = a.lookup_kind("a", ioco_model::LabelKind::Input).unwrap();
    let o = a.lookup_kind("a", ioco_model::LabelKind::Output).unwrap();
    assert_ne!(i, o);
    assert_eq!(lts.num_transitions(), 2);
}
