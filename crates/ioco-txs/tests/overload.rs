//! Constructors overloaded across types (the same name in two TYPEDEFs, as TorXakis's list
//! types all have `Nil` and `Cstr`): the import chooses by the sort the context expects, as
//! TorXakis does, and renames all but the first for `.ioco`; where the context does not tell,
//! it says so and how to write the sort.

const TWO: &str = "TYPEDEF A ::= Nothing | Just { a :: Int } ENDDEF\n\
                   TYPEDEF B ::= Nothing | Just { b :: Bool } ENDDEF\n";

fn translate(src: &str) -> String {
    match ioco_txs::load_str("m.txs", src) {
        Ok(m) => ioco_txs::translate::to_ioco(&m),
        Err(d) => panic!("{}", ioco_lang::render_plain(&d)),
    }
}

#[test]
fn the_expected_sort_chooses_the_constructor() {
    let src = format!(
        "{TWO}CHANDEF C ::= Ch :: A; Ch2 :: B ENDDEF\n\
         FUNCDEF flip (x :: B) :: B ::= IF isNothing(x) THEN Just(True) ELSE Nothing FI ENDDEF\n\
         PROCDEF p[X :: A; Y :: B](y :: B) ::= X ! Just(1) >-> Y ! flip(y) >-> X ! Nothing \
         >-> Y ? v [[ v == Nothing ]] >-> p[X, Y](Just(False)) ENDDEF\n\
         MODELDEF M ::= CHAN IN CHAN OUT Ch, Ch2 BEHAVIOUR p[Ch, Ch2](Nothing) ENDDEF\n"
    );
    let t = translate(&src);
    // the first type keeps the names, the second's are renamed
    assert!(t.contains("type A = Nothing | Just { a: int }"), "{t}");
    assert!(t.contains("type B = Nothing_B | Just_B { b: bool }"), "{t}");
    assert!(
        t.contains("constructor `Nothing` of `B` is `Nothing_B`"),
        "{t}"
    );
    // function result and branches, a test of a parameter
    assert!(
        t.contains("fn flip(x: B): B = if x is Nothing_B then Just_B(true) else Nothing_B"),
        "{t}"
    );
    // gate sorts, comparison with a variable, process arguments
    assert!(t.contains("Ch!(=Just(1))"), "{t}");
    assert!(t.contains("Ch!(=Nothing)"), "{t}");
    assert!(t.contains("v == Nothing_B"), "{t}");
    assert!(t.contains("Just_B(false)"), "{t}");
    assert!(!t.contains("Just(false)"), "{t}");
}

#[test]
fn a_context_that_does_not_tell_is_reported_with_the_sort_to_write() {
    let src = format!(
        "{TWO}CHANDEF C ::= Ch :: Int ENDDEF\n\
         PROCDEF p[X :: Int]() ::= [[ Nothing == Nothing ]] =>> X ! 1 >-> STOP ENDDEF\n\
         MODELDEF M ::= CHAN IN CHAN OUT Ch BEHAVIOUR p[Ch]() ENDDEF\n"
    );
    let d = ioco_txs::load_str("m.txs", &src).unwrap_err();
    let text = ioco_lang::render_plain(&d);
    assert!(
        text.contains("constructor `Nothing` is defined in `A` and `B`"),
        "{text}"
    );
    assert!(text.contains("m.txs:4:"), "{text}");
    assert!(text.contains("`Nothing :: A`"), "{text}");
    // written with its sort, it loads
    let fixed = src.replace(
        "[[ Nothing == Nothing ]]",
        "[[ (Nothing :: B) == Nothing ]]",
    );
    let t = translate(&fixed);
    assert!(t.contains("Nothing_B == Nothing_B"), "{t}");
}

#[test]
fn a_constructor_defined_twice_in_one_type_is_an_error() {
    let d = ioco_txs::load_str("m.txs", "TYPEDEF A ::= N | N ENDDEF\n").unwrap_err();
    let text = ioco_lang::render_plain(&d);
    assert!(
        text.contains("constructor `N` is defined twice in `A`"),
        "{text}"
    );
}

/// Wheel.txs overloads `Nothing`, `Just`, `Nil` and `Cstr` (and the functions `add`), and
/// exits inside multi-actions with values received at run time: it loads.
#[test]
fn wheel_loads() {
    let Some(corpus) = ioco_testkit::corpus() else {
        return;
    };
    let wheel = corpus.join("torxakis/examps/Wheel/Wheel.txs");
    if let Err(d) = ioco_txs::load_files(&[&wheel]) {
        panic!("{}", ioco_lang::render_plain(&d));
    }
}
