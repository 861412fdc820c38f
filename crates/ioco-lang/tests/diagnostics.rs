//! Rendered diagnostics (miette, ASCII, no colour), snapshot-tested with insta: each bad input
//! must say where (file:line:col and a labelled snippet), what, and how to fix it.

use ioco_lang::{parse_str, render_plain};

fn errors(src: &str) -> String {
    match parse_str("test.ioco", src) {
        Ok(m) if !m.warnings().is_empty() => render_plain(m.warnings()),
        Ok(_) => panic!("no diagnostics"),
        Err(d) => {
            assert!(!d.is_empty());
            render_plain(&d)
        }
    }
}

const HEAD: &str = "model CoffeeMachine {
  input water(ml: int), pad, button
  output coffee(ml: int), error
  var total: int = 0
  init idle
";

fn coffee(body: &str) -> String {
    format!("{}{}\n}}\n", HEAD, body)
}

#[test]
fn unknown_gate_did_you_mean() {
    insta::assert_snapshot!(errors(&coffee("  idle -- watr?(w) --> idle")));
}

#[test]
fn direction_mismatch_points_at_declaration() {
    insta::assert_snapshot!(errors(&coffee("  idle -- water!(w) --> idle")));
}

#[test]
fn assignment_type_mismatch_points_at_declaration() {
    insta::assert_snapshot!(errors(&coffee(
        "  idle -- pad? { total = total > 3 } --> idle"
    )));
}

#[test]
fn operator_type_mismatch_labels_both_operands() {
    insta::assert_snapshot!(errors(&coffee(
        "  idle -- water?(w) [w > 0 && total] --> idle"
    )));
}

#[test]
fn several_parse_errors_in_one_run() {
    insta::assert_snapshot!(errors(&coffee(
        "  idle -> water?(w) --> idle\n  idle -- pad --> idle\n  idle -- button? [total = 1] --> idle\n  idle -- error! --> idle"
    )));
}

#[test]
fn missing_init() {
    insta::assert_snapshot!(errors("model M {\n  input a\n  s0 -- a? --> s0\n}\n"));
}

#[test]
fn unknown_variable_in_update() {
    insta::assert_snapshot!(errors(&coffee("  idle -- water?(w) { totl = w } --> idle")));
}

#[test]
fn gate_arity() {
    insta::assert_snapshot!(errors(&coffee(
        "  idle -- water? --> idle\n  idle -- pad?(x) --> idle"
    )));
}

#[test]
fn binder_shadows_variable() {
    insta::assert_snapshot!(errors(&coffee("  idle -- coffee!(total) --> idle")));
}

#[test]
fn unknown_attribute() {
    insta::assert_snapshot!(errors(
        "@timout(5s)\nmodel M {\n  input a\n  init s\n  s -- a? --> s\n}\n"
    ));
}

#[test]
fn unclosed_model() {
    insta::assert_snapshot!(errors("model M {\n  input a\n  init s\n  s -- a? --> s\n"));
}

#[test]
fn unknown_type_with_hint() {
    insta::assert_snapshot!(errors(
        "model M {\n  input a(x: Int)\n  init s\n  s -- a?(x) --> s\n}\n"
    ));
}

#[test]
fn sync_gate_missing_on_one_side() {
    insta::assert_snapshot!(errors(
        "model A {\n  output a, b\n  init s\n  s -- a! --> s\n  s -- b! --> s\n}\nmodel B {\n  input a\n  init s\n  s -- a? --> s\n}\nsystem S { A |[a, b]| B }\n"
    ));
}

#[test]
fn missing_import() {
    insta::assert_snapshot!(errors(
        "import \"does-not-exist.ioco\"\nmodel M {\n  input a\n  init s\n  s -- a? --> s\n}\n"
    ));
}

#[test]
fn bad_characters() {
    insta::assert_snapshot!(errors(&coffee(
        "  idle -- water?(w) [w > 0 & total < 5] --> idle"
    )));
}

#[test]
fn typo_in_target_location_warns() {
    insta::assert_snapshot!(errors("model M {\n  input a\n  output b\n  init idle\n  idle -- a? --> busy\n  busy -- b! --> idel\n}\n"));
}

#[test]
fn unknown_constructor_and_field() {
    insta::assert_snapshot!(errors(
        "type Op = Plus { p1: int, p2: int } | Minus { m1: int, m2: int }\nmodel M {\n  input act(o: Op)\n  var r: int = 0\n  init s\n  s -- act?(o) [o is Plsu] { r = o.p3 } --> s\n}\n"
    ));
}

#[test]
fn infinite_domain_when_translating() {
    let m = parse_str(
        "coffee.ioco",
        &coffee("  idle -- water?(w) [w > 0] { total = total + w } --> idle"),
    )
    .unwrap();
    let err = ioco_lang::translate::to_lts(m.entry().unwrap(), &Default::default()).unwrap_err();
    let mut d = err.into_diagnostic();
    d.attach(&m.sources);
    insta::assert_snapshot!(render_plain(&[d]));
}

#[test]
fn range_overflow_at_run_time() {
    let src = "model M {\n  input inc\n  var n: int[0..2] = 0\n  init s\n  s -- inc? { n = n + 1 } --> s\n}\n";
    let m = parse_str("counter.ioco", src).unwrap();
    let err = ioco_lang::translate::to_lts(m.entry().unwrap(), &Default::default()).unwrap_err();
    let mut d = err.into_diagnostic();
    d.attach(&m.sources);
    insta::assert_snapshot!(render_plain(&[d]));
}

#[test]
fn every_diagnostic_has_a_location() {
    let d = parse_str(
        "x.ioco",
        "model M {\n  input a\n  s0 -- b? --> s0\n  s0 -- a! --> s0\n}\n",
    )
    .unwrap_err();
    assert!(d.len() >= 3);
    for x in &d {
        assert!(x.location.starts_with("x.ioco:"), "{}", x.location);
    }
}

#[test]
fn tau_in_a_multi_action() {
    insta::assert_snapshot!(errors(&coffee("  idle -- pad? | tau --> idle")));
}

#[test]
fn exit_has_no_target() {
    insta::assert_snapshot!(errors(&coffee("  idle -- exit --> idle")));
}

#[test]
fn gate_twice_in_a_multi_action() {
    insta::assert_snapshot!(errors(&coffee(
        "  idle -- water?(a) | pad? | water?(b) --> idle"
    )));
}

#[test]
fn left_of_enable_never_exits() {
    insta::assert_snapshot!(errors(
        "model Loop { output a  init s  s -- a! --> s }\nmodel Once { output b  init s  s -- b! --> t  t -- exit }\nsystem S { Loop >>> Once }\n"
    ));
}

#[test]
fn sync_set_mixes_inputs_and_outputs() {
    insta::assert_snapshot!(errors(&format!(
        "@sync(error | pad)\n{}  idle -- error! | pad? --> idle\n}}\n",
        HEAD
    )));
}

#[test]
fn multi_action_of_a_lone_model_needs_sync() {
    insta::assert_snapshot!(errors(&coffee("  idle -- error! | coffee!(c) --> idle")));
}

#[test]
fn data_type_without_finite_value() {
    insta::assert_snapshot!(errors(
        "type S = Mk { s: S }\ntype L = Cons { hd: int, tl: L } | Nil\nmodel M {\n  input a(x: S)\n  init s\n  s -- a?(x) --> s\n}\n"
    ));
}
