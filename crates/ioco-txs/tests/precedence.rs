//! TorXakis has no operator precedence (every infix operator at one level, left to right;
//! TorXakis issue #268). The import reads chains as TorXakis does, and warns where the usual
//! precedences would group a chain otherwise, giving both readings. Parser warnings reach the
//! user: with the model's warnings when it loads, before the errors when it does not.

fn model(guard: &str) -> String {
    format!(
        "CHANDEF C ::= In :: Int; Out :: Int ENDDEF\n\
         PROCDEF p [In, Out :: Int] () ::= In ? x [[ {guard} ]] >-> Out ! x >-> p [In, Out] () ENDDEF\n\
         MODELDEF M ::= CHAN IN In CHAN OUT Out BEHAVIOUR p [In, Out] () ENDDEF\n"
    )
}

fn helps(ds: &[ioco_lang::Diagnostic]) -> Vec<String> {
    ds.iter()
        .filter(|d| d.code == "ioco::txs::parse::no_precedence")
        .map(|d| d.help.clone().unwrap_or_default())
        .collect()
}

#[test]
fn a_chain_the_usual_precedences_group_otherwise_is_read_left_to_right_with_a_warning() {
    // `x + 1 * 2 == 8`: TorXakis's ((x + 1) * 2) == 8, a valid guard
    let m = ioco_txs::load_str("m.txs", &model("x + 1 * 2 == 8")).unwrap();
    let w = helps(&m.model.program.warnings);
    assert_eq!(
        w,
        vec!["it means `((x + 1) * 2) == 8` (as in TorXakis); write `(x + (1 * 2)) == 8` if that is what you mean"]
    );
    let t = ioco_txs::translate::to_ioco(&m);
    assert!(t.contains("[((x_2 + 1) * 2) == 8]"), "{t}");
    // `x >= 0 /\ x < 3` does not type-check when read left to right: the warning comes first
    // and says why
    let ds = match ioco_txs::load_str("m.txs", &model("x >= 0 /\\ x < 3")) {
        Ok(_) => panic!("((x >= 0) /\\ x) < 3 is not a Bool"),
        Err(ds) => ds,
    };
    assert_eq!(ds[0].code, "ioco::txs::parse::no_precedence");
    assert_eq!(
        helps(&ds),
        vec!["it means `((x >= 0) /\\ x) < 3` (as in TorXakis); write `(x >= 0) /\\ (x < 3)` if that is what you mean"]
    );
    assert!(ds.iter().any(|d| d.is_error()));
}

#[test]
fn chains_that_read_the_same_either_way_get_no_warning() {
    for guard in [
        "x * 2 + 1 > 3",
        "(x >= 0) /\\ (x < 3)",
        "(x > 0) /\\ (x < 9) /\\ (x <> 4)",
        "x - 1 - 2 == 0",
        "x == 1",
    ] {
        let m = ioco_txs::load_str("m.txs", &model(guard))
            .unwrap_or_else(|d| panic!("{guard}: {}", ioco_lang::render_plain(&d)));
        assert!(helps(&m.model.program.warnings).is_empty(), "{guard}");
    }
}

#[test]
fn an_integer_beyond_64_bits_is_said_to_be_clamped() {
    let m = ioco_txs::load_str("m.txs", &model("x <= 18446744073709551615")).unwrap();
    assert!(
        m.model
            .program
            .warnings
            .iter()
            .any(|d| d.code == "ioco::txs::parse::int_clamped"),
        "the parser's warning was lost"
    );
}
