//! Values passed on `EXIT` to `>>> ACCEPT ? x IN .. NI`: computed at import and substituted
//! (TorXakis semantics: the exit is an internal step passing them); what cannot be determined
//! at import is reported with its place and a hint.

use ioco_lang::translate::{to_lts, Options};
use ioco_model::{Lts, QuiescencePolicy, SuspensionAutomaton};
use std::collections::BTreeSet;

fn model(body: &str) -> String {
    format!(
        "CHANDEF C ::= Ch :: Int; Ch2 :: Int ENDDEF\n{body}\n\
         MODELDEF M ::= CHAN IN CHAN OUT Ch, Ch2 BEHAVIOUR p[Ch, Ch2](5) ENDDEF\n"
    )
}

/// The suspension traces of the entry model up to `n` labels (quiescence left out).
fn traces(src: &str, n: usize) -> BTreeSet<Vec<String>> {
    let m = ioco_txs::load_str("m.txs", src)
        .unwrap_or_else(|d| panic!("{}", ioco_lang::render_plain(&d)));
    let info = &m.lowered.models[0];
    let spec = m.model.spec(&info.ioco_name).expect("the model");
    let lts: Lts = to_lts(spec, &Options::default()).expect("finite");
    let sa = SuspensionAutomaton::build(&lts, QuiescencePolicy::default()).lts;
    let mut out = BTreeSet::new();
    let mut todo = vec![(sa.initial()[0], Vec::<String>::new())];
    while let Some((s, t)) = todo.pop() {
        out.insert(t.clone());
        if t.len() == n {
            continue;
        }
        for e in sa.edges(s) {
            let l = sa.alphabet().name(e.label).to_string();
            if l == "delta" {
                continue;
            }
            let mut t2 = t.clone();
            t2.push(l);
            todo.push((e.target, t2));
        }
    }
    out
}

fn error(src: &str) -> String {
    match ioco_txs::load_str("m.txs", src) {
        Ok(_) => panic!("loaded: {src}"),
        Err(d) => ioco_lang::render_plain(&d),
    }
}

#[test]
fn exit_values_are_passed_to_accept() {
    // sequential: the value exited with, changed on the way
    let t = traces(
        &model(
            "PROCDEF p[A, B :: Int](v :: Int) ::=\n\
               (A ! v >-> EXIT ! v * 2) >>> ACCEPT ? w IN B ! w + 1 >-> STOP NI\n\
             ENDDEF",
        ),
        3,
    );
    let all: Vec<&Vec<String>> = t.iter().filter(|x| x.len() == 2).collect();
    assert_eq!(all.len(), 1, "{t:?}");
    assert!(all[0][0].contains('5') && all[0][1].contains("11"), "{t:?}");
    assert!(t.iter().all(|x| x.len() <= 2), "stops after B: {t:?}");
    // parallel: the exits synchronise, `!` meets `?` on each position
    let t = traces(
        &model(
            "PROCDEF p[A, B :: Int](v :: Int) ::=\n\
               (A ! v >-> EXIT ! v ? x :: Int ||| B ! 7 >-> EXIT ? y :: Int ! 3)\n\
               >>> ACCEPT ? w0 ? w1 IN A ! w0 + w1 >-> STOP NI\n\
             ENDDEF",
        ),
        3,
    );
    let three: Vec<&Vec<String>> = t.iter().filter(|x| x.len() == 3).collect();
    assert_eq!(three.len(), 2, "both orders of the two outputs: {t:?}");
    for x in three {
        assert!(x[2].contains('8') && x[2].starts_with("Ch"), "{x:?}");
    }
}

#[test]
fn a_loop_passing_its_start_values_is_a_loop() {
    let t = traces(
        &model(
            "PROCDEF p[A, B :: Int](v :: Int) ::=\n\
               (A ! v >-> EXIT ! v) >>> ACCEPT ? w IN p[A, B](w) NI\n\
             ENDDEF",
        ),
        4,
    );
    let four: Vec<&Vec<String>> = t.iter().filter(|x| x.len() == 4).collect();
    assert_eq!(four.len(), 1, "{t:?}");
    assert!(four[0].iter().all(|l| l.contains('5')), "{t:?}");
}

#[test]
fn a_left_side_that_never_exits_passes_nothing() {
    // the second process never exits, so neither does the composition: `B ! w` never happens
    let t = traces(
        &model(
            "PROCDEF p[A, B :: Int](v :: Int) ::=\n\
               (A ! v >-> EXIT ! v ||| B ! 1 >-> STOP) >>> ACCEPT ? w IN B ! w >-> STOP NI\n\
             ENDDEF",
        ),
        3,
    );
    assert!(t.iter().all(|x| x.len() <= 2), "{t:?}");
    assert_eq!(t.iter().filter(|x| x.len() == 2).count(), 2, "{t:?}");
}

/// The `.ioco` text of the import.
fn translated(src: &str) -> String {
    let m = ioco_txs::load_str("m.txs", src)
        .unwrap_or_else(|d| panic!("{}", ioco_lang::render_plain(&d)));
    ioco_txs::translate::to_ioco(&m)
}

/// Values known only at run time make the behaviour one model, the product of its parts: the
/// `ACCEPT`ed variable is assigned on the internal exit step.
#[test]
fn exit_values_known_at_run_time_are_bound_on_the_exit_step() {
    // received on a channel
    let t = translated(&model(
        "PROCDEF p[A, B :: Int](v :: Int) ::=\n\
           (A ? x >-> EXIT ! x) >>> ACCEPT ? w IN B ! w >-> STOP NI\n\
         ENDDEF",
    ));
    assert!(t.contains("-- Ch!(x_2) { x = x_2 } -->"), "{t}");
    assert!(t.contains("-- tau { w = x, x = 0 } -->"), "{t}");
    assert!(t.contains("-- Ch2!(=w) { w = 0 } -->"), "{t}");
    // different on two branches: the identical internal steps of the two branches
    let t = translated(&model(
        "PROCDEF p[A, B :: Int](v :: Int) ::=\n\
           (A ! v >-> EXIT ! 1 ## B ! v >-> EXIT ! 2) >>> ACCEPT ? w IN B ! w >-> STOP NI\n\
         ENDDEF",
    ));
    assert!(t.contains("tau { w = 1 }"), "{t}");
    assert!(t.contains("tau { w = 2 }"), "{t}");
    let tr = traces(
        &model(
            "PROCDEF p[A, B :: Int](v :: Int) ::=\n\
           (A ! v >-> EXIT ! 1 ## B ! v >-> EXIT ! 2) >>> ACCEPT ? w IN B ! w >-> STOP NI\n\
         ENDDEF",
        ),
        2,
    );
    let two: BTreeSet<String> = tr
        .iter()
        .filter(|x| x.len() == 2)
        .map(|x| x.join(" "))
        .collect();
    assert_eq!(
        two,
        ["Ch(5) Ch2(1)", "Ch2(5) Ch2(2)"]
            .into_iter()
            .map(String::from)
            .collect(),
        "{tr:?}"
    );
    // two sides exiting with different constants never exit together
    let tr = traces(
        &model(
            "PROCDEF p[A, B :: Int](v :: Int) ::=\n\
           (A ! v >-> EXIT ! 1 ||| B ! v >-> EXIT ! 2) >>> ACCEPT ? w IN B ! w >-> STOP NI\n\
         ENDDEF",
        ),
        3,
    );
    assert!(tr.iter().all(|x| x.len() <= 2), "{tr:?}");
    assert_eq!(tr.iter().filter(|x| x.len() == 2).count(), 2, "{tr:?}");
}

#[test]
fn exit_values_that_are_free_are_reported() {
    let e = error(&model(
        "PROCDEF p[A, B :: Int](v :: Int) ::=\n\
           (A ! v >-> EXIT ? x :: Int ||| B ! v >-> EXIT ? y :: Int) >>> ACCEPT ? w IN B ! w >-> STOP NI\n\
         ENDDEF",
    ));
    assert!(e.contains("free choice") && e.contains("m.txs:3:"), "{e}");
    // an EXIT in a multi-action whose value the constraint does not fix (one it fixes exits
    // after the action: `multi_exit`)
    let e = error(&model(
        "PROCDEF p[A, B :: Int](v :: Int) ::=\n\
           (A ? x | EXIT ? y :: Int [[ y > x ]]) >>> ACCEPT ? w IN B ! w >-> STOP NI\n\
         ENDDEF",
    ));
    assert!(
        e.contains("`EXIT` in a multi-action") && e.contains("m.txs:3:"),
        "{e}"
    );
    // an EXIT with values that no ACCEPT takes stays reported
    let e = error(&model(
        "PROCDEF p[A, B :: Int](v :: Int) ::= A ! v >-> EXIT ! v ENDDEF",
    ));
    assert!(e.contains("`EXIT` with values"), "{e}");
}
