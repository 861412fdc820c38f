//! Bounded at scale (#35): diagnostics are capped per kind, so a file with thousands of the
//! same error is reported in linear memory and time.

mod common;

use common::{ioco, write};
use predicates::str::contains;

/// 3 000 repeated locations and 3 000 switches to undeclared ones: at most
/// `MAX_PER_KIND` (20) diagnostics of each kind, then "… and N more", and the count of all.
#[test]
fn diagnostics_are_capped_per_kind() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("model M {\n  input a\n  output b\n  init l0\n");
    for _ in 0..3000 {
        text.push_str("  location l0\n");
    }
    for i in 0..3000 {
        text.push_str(&format!("  l0 -- a? --> l{}\n", i % 7));
    }
    text.push_str("}\n");
    let f = write(dir.path(), "dup.ioco", &text);
    let out = ioco().arg("check").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("is declared twice").count(), 20 + 1, "{err}");
    assert!(
        err.contains("… and 2979 more errors of this kind (ioco::check::duplicate)"),
        "{err}"
    );
    assert!(
        err.contains("… and 2551 more errors of this kind (ioco::check::unknown)"),
        "{err}"
    );
    assert!(err.contains("5570 errors in"), "{err}");
    assert!(
        err.contains("only the first 20 errors of each kind are shown"),
        "{err}"
    );
    // a bounded report: about 45 diagnostics, not 5 570
    assert!(err.len() < 64 * 1024, "{} bytes of diagnostics", err.len());
    // `ioco fmt` of a file with as many parse errors is capped too
    let mut bad = String::new();
    for _ in 0..3000 {
        bad.push_str("model { }\n");
    }
    let g = write(dir.path(), "bad.ioco", &bad);
    ioco()
        .arg("fmt")
        .arg(&g)
        .assert()
        .code(2)
        .stderr(contains("more errors of this kind"));
}

/// The TorXakis front end caps its diagnostics as the `.ioco` one does (#35 item 5, with
/// `ioco_lang::cap_per_kind`): a `.txs` file defining one process 3 000 times gives 20
/// "defined twice" errors and "… and 2979 more" (which names the first left out), not 2 999
/// snippets (1.4 MB of text).
#[test]
fn txs_diagnostics_are_capped_per_kind() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("CHANDEF Chans ::= A :: Int ENDDEF\n");
    for _ in 0..3000 {
        text.push_str("PROCDEF p [ A :: Int ] ( ) ::= A ?x >-> STOP ENDDEF\n");
    }
    text.push_str("MODELDEF M ::= CHAN IN A CHAN OUT BEHAVIOUR p [ A ] ( ) ENDDEF\n");
    let f = write(dir.path(), "dup.txs", &text);
    let out = ioco().arg("check").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("is defined twice").count(), 20 + 1, "{err}");
    assert!(
        err.contains("… and 2979 more errors of this kind (ioco::txs::duplicate)"),
        "{err}"
    );
    assert!(err.contains("2999 errors in"), "{err}");
    assert!(err.contains("dup.txs:3:9"), "{err}");
    assert!(err.len() < 64 * 1024, "{} bytes of diagnostics", err.len());
}

/// A FIFO with no writer is refused at once (#35 item 6): reading it would block forever. The
/// test ends either way: the command is killed after a generous time-out, which fails it.
#[test]
fn a_fifo_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["m.aut", "m.ioco"] {
        let fifo = dir.path().join(name);
        let ok = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success();
        assert!(ok, "mkfifo");
        ioco()
            .arg("check")
            .arg(&fifo)
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(contains("is a FIFO (named pipe), not a regular file"));
    }
}

/// A SUT that writes `coffee!` is told that the `!` is the problem (#35 item 6).
#[test]
fn a_marker_written_by_the_sut_is_named_as_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let spec = write(
        dir.path(),
        "cof.aut",
        "des (0, 2, 2)\n(0, \"coin?\", 1)\n(1, \"coffee!\", 0)\n",
    );
    ioco()
        .arg("test")
        .arg(&spec)
        .args(["--sut", "sh -c 'while read l; do echo coffee!; done'"])
        .args(["--runs", "1", "--steps", "4"])
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .code(1)
        .stdout(contains("the `!` is the problem"))
        .stdout(contains("(`coffee`)"));
}

/// The model `(a|b)* a (a|b)^k` followed by an output: its suspension automaton has 2^(k+1)
/// sets of states (the last k+1 inputs are remembered).
fn exploding(k: usize) -> String {
    let mut t = vec![
        "(0,\"a?\",0)".to_string(),
        "(0,\"b?\",0)".into(),
        "(0,\"a?\",1)".into(),
    ];
    for i in 1..=k {
        t.push(format!("({i},\"a?\",{})", i + 1));
        t.push(format!("({i},\"b?\",{})", i + 1));
    }
    t.push(format!("({},\"x!\",0)", k + 1));
    t.push(format!("({},\"a?\",0)", k + 1));
    t.push(format!("({},\"b?\",0)", k + 1));
    format!("des (0,{},{})\n{}\n", t.len(), k + 2, t.join("\n"))
}

/// `compare` is bounded in memory, not only in pairs (#35 item 2): a model whose suspension
/// automaton explodes ends with exit 2 at `--max-memory`, naming the bound and how to raise
/// it, before the memory is spent; below the bound the same comparison conforms.
#[test]
fn compare_stops_at_its_memory_bound() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "explode.aut", &exploding(14));
    ioco()
        .args(["compare", "--max-memory", "1"])
        .arg(&f)
        .arg(&f)
        .assert()
        .code(2)
        .stderr(contains("gave up at the memory bound of 1 MiB"))
        .stderr(contains("raise --max-memory"));
    ioco()
        .arg("compare")
        .arg(&f)
        .arg(&f)
        .assert()
        .code(0)
        .stdout(contains("conforms"))
        .stdout(contains("32768 state pairs"));
}
