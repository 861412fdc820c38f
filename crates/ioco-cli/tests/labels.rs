//! Labels as users write them, on the wire (issue: labels as users write them, item 1): a
//! plain output line is one label however many blanks it holds, and a line that is not exactly
//! an allowed output is a Fail, never cut to its first word.

mod common;

use common::{ioco, write};
use predicates::str::contains;

fn mealy(dir: &std::path::Path, out: &str) -> std::path::PathBuf {
    write(
        dir,
        "m.dot",
        &format!(
            "digraph m {{\n  __start0 [label=\"\", shape=none];\n  __start0 -> s0;\n  \
             s0 -> s1 [label=\"a / {out}\"];\n  s1 -> s0 [label=\"a / done\"];\n}}\n"
        ),
    )
}

/// A SUT that answers every line with `first`, then `second`, alternately.
fn sut(first: &str, second: &str) -> String {
    format!(
        "sh -c 'n=0; while IFS= read -r l; do if [ $n = 0 ]; then echo \"{first}\"; n=1; \
         else echo \"{second}\"; n=0; fi; done'"
    )
}

#[test]
fn an_answer_with_more_words_than_the_label_fails_a_complete_suite() {
    let dir = tempfile::tempdir().unwrap();
    let spec = mealy(dir.path(), "ok");
    let suite = dir.path().join("s.json");
    ioco()
        .args(["gen"])
        .arg(&spec)
        .args(["--method", "hsi", "--extra-states", "1", "-o"])
        .arg(&suite)
        .assert()
        .code(0);
    // `ok not really` is not `ok`: this passed (exit 0) when lines were cut at a blank.
    ioco()
        .arg("run")
        .arg(&spec)
        .arg(&suite)
        .args(["--sut", &sut("ok not really", "done"), "--timeout", "500"])
        .assert()
        .code(1)
        .stdout(contains("ok not really"));
    ioco()
        .arg("run")
        .arg(&spec)
        .arg(&suite)
        .args(["--sut", &sut("ok", "done"), "--timeout", "500"])
        .assert()
        .code(0);
}

#[test]
fn a_label_with_blanks_and_symbols_is_one_output() {
    let dir = tempfile::tempdir().unwrap();
    let spec = mealy(dir.path(), "ChangeCipherSpec & Finished");
    let suite = dir.path().join("s.json");
    ioco()
        .args(["gen"])
        .arg(&spec)
        .args(["--method", "w", "-o"])
        .arg(&suite)
        .assert()
        .code(0);
    ioco()
        .arg("run")
        .arg(&spec)
        .arg(&suite)
        .args([
            "--sut",
            &sut("ChangeCipherSpec & Finished", "done"),
            "--timeout",
            "500",
        ])
        .assert()
        .code(0);
    ioco()
        .arg("test")
        .arg(&spec)
        .args([
            "--sut",
            &sut("ChangeCipherSpec & Finished", "done"),
            "--timeout",
            "300",
            "--runs",
            "3",
            "--steps",
            "6",
            "--seed",
            "2",
        ])
        .assert()
        .code(0);
}
