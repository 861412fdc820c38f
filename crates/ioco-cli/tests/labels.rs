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

/// Issue #19 item 2: AALpy's JSSE server answers the input `ApplicationData` with the output
/// `ApplicationData`. Loading the model used to rename the output `ApplicationData_out`, so the
/// model's own suite failed the model (with `--sim`, and over a real process on both wires).
/// Inputs and outputs are two namespaces now: the names stay as written.
#[test]
fn an_output_that_shares_its_name_with_an_input_keeps_it() {
    let Some(model) = common::corpus_file("mealy-aalpy/TLS/JSSE_1.8.0_25_server_regular.dot")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("s.json");
    ioco()
        .arg("gen")
        .arg(&model)
        .args(["--method", "hads", "-o"])
        .arg(&suite)
        .assert()
        .code(0);
    let text = std::fs::read_to_string(&suite).unwrap();
    assert!(text.contains("\"ApplicationData!\""), "{text}");
    assert!(!text.contains("_out"), "{text}");
    ioco()
        .arg("run")
        .arg(&model)
        .arg(&suite)
        .arg("--sim")
        .arg(&model)
        .assert()
        .code(0);
    // the machine played by a real child process, on plain lines and on JSON lines
    let json = dir.path().join("m.json");
    ioco()
        .arg("show")
        .arg(&model)
        .args(["--format", "json", "-o"])
        .arg(&json)
        .assert()
        .code(0);
    let play = |m: &std::path::Path, json_lines: bool| {
        let mut c = ioco();
        c.arg("run").arg(&model).arg(&suite).args([
            "--quiescence-marker",
            "#quiet",
            "--reset-line",
            "#reset",
            "--sut",
            &format!(
                "python3 examples/models/lts_player.py {} --ack{}",
                m.display(),
                if json_lines { " --json" } else { "" }
            ),
        ]);
        if json_lines {
            c.arg("--json-lines");
        }
        c.timeout(std::time::Duration::from_secs(600));
        c
    };
    play(&json, false).assert().code(0);
    play(&json, true).assert().code(0);
    // and the suite still kills a machine that answers something else where the model says
    // `ApplicationData!`
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    for t in v["transitions"].as_array_mut().unwrap() {
        if t[1] == "ApplicationData!" {
            t[1] = "ConnectionClosed!".into();
        }
    }
    let mutant = dir.path().join("mutant.json");
    std::fs::write(&mutant, serde_json::to_string(&v).unwrap()).unwrap();
    play(&mutant, false)
        .assert()
        .code(1)
        .stdout(contains("ConnectionClosed!"));
}
