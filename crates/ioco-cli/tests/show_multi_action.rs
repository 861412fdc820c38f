//! `ioco show MODEL.ioco` draws the model's LTS: a multi-action step (`a? | b?`, visible when
//! listed in `@sync`) is one edge labelled with all its gates (`a|b?`); with a hidden gate
//! (TorXakis's Match: `H | MyInB` with `H` hidden) only the visible gates remain.

mod common;

use common::{ioco, root, write};

fn show(model: &std::path::Path) -> String {
    let out = ioco().arg("show").arg(model).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{:?}", out);
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_multi_action_edge_shows_all_its_gates() {
    let dir = tempfile::tempdir().unwrap();
    let m = write(
        dir.path(),
        "m.ioco",
        "@sync(a | b)\nmodel M {\n  input a, b\n  output c\n  init s\n  s -- a? | b? --> t\n  t -- c! --> s\n}\n",
    );
    let dot = show(&m);
    assert!(dot.contains("\"s\" -> \"t\" [label=\"a|b?\"];"), "{dot}");
    assert!(dot.contains("\"t\" -> \"s\" [label=\"c!\"];"), "{dot}");
    // the TorXakis port with @sync: the first step is the output multi-action POut|POut3
    let dot = show(&root().join("examples/torxakis/parallel-sync.ioco"));
    assert!(dot.contains("[label=\"POut|POut3!\"]"), "{dot}");
    // Match: InA | InB synchronised with the hidden H shows as the input MyInBInt alone
    let dot = show(&root().join("examples/torxakis/match.ioco"));
    assert!(dot.contains("[label=\"MyInBInt("), "{dot}");
    assert!(!dot.contains("H|") && !dot.contains("|MyInB"), "{dot}");
}
