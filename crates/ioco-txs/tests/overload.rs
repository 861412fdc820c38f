//! Constructors overloaded across types (the same name in two TYPEDEFs): TorXakis chooses by
//! the expected sort; the import does not, and says so at the definition, naming both types.

#[test]
fn a_constructor_in_two_types_is_reported_naming_both() {
    let src = "TYPEDEF A ::= Nothing | Just { a :: Int } ENDDEF\n\
               TYPEDEF B ::= Nothing | Just { b :: Bool } ENDDEF\n\
               CHANDEF C ::= Ch :: A; Ch2 :: B ENDDEF\n\
               PROCDEF p[X :: A; Y :: B]() ::= X ! Just(1) >-> Y ! Nothing >-> STOP ENDDEF\n\
               MODELDEF M ::= CHAN IN CHAN OUT Ch, Ch2 BEHAVIOUR p[Ch, Ch2]() ENDDEF\n";
    let d = match ioco_txs::load_str("m.txs", src) {
        Ok(_) => panic!("overloaded constructors loaded"),
        Err(d) => d,
    };
    let text = ioco_lang::render_plain(&d);
    assert!(
        text.contains("constructor `Nothing` is defined in two types, `A` and `B`"),
        "{text}"
    );
    assert!(
        text.contains("constructor `Just` is defined in two types, `A` and `B`"),
        "{text}"
    );
    assert!(text.contains("m.txs:2:"), "{text}");
    assert!(
        text.contains("help:") && text.contains("rename one"),
        "{text}"
    );
    // one type defining a constructor twice
    let d = ioco_txs::load_str("m.txs", "TYPEDEF A ::= N | N ENDDEF\n").unwrap_err();
    let text = ioco_lang::render_plain(&d);
    assert!(
        text.contains("constructor `N` is defined twice in `A`"),
        "{text}"
    );
}

/// Wheel.txs overloads `Nothing`, `Just`, `Nil` and `Cstr`: reported at the second definition.
#[test]
fn wheel_names_its_overloaded_constructor() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/torxakis/examps/Wheel/Wheel.txs");
    if !root.is_file() {
        eprintln!("skipped: no corpus");
        return;
    }
    let d = ioco_txs::load_files(&[&root]).unwrap_err();
    let first = d.iter().find(|x| x.is_error()).expect("an error");
    assert_eq!(first.code, "ioco::txs::overloaded_constructor");
    assert!(
        first.message.contains(
            "constructor `Nothing` is defined in two types, `MaybeItem` and `MaybeQuality`"
        ),
        "{}",
        first.message
    );
    assert!(
        first.location.ends_with("Wheel.txs:48:26"),
        "{}",
        first.location
    );
}
