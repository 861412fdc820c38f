//! Nothing tested is never a Pass (issue: verdicts at the edges, item 4): a suite with no test
//! case, or a session that executed no run, is an error; estimates print no negative zero.

mod common;

use common::{ioco, write};
use predicates::prelude::*;
use predicates::str::contains;

#[test]
fn an_empty_suite_is_an_error_not_a_pass() {
    let dir = tempfile::tempdir().unwrap();
    let spec = write(dir.path(), "spec.aut", "des (0, 1, 1)\n(0, \"a?\", 0)\n");
    let imp = write(
        dir.path(),
        "impl.aut",
        "des (0, 2, 2)\n(0, \"a?\", 1)\n(1, \"x!\", 0)\n",
    );
    // A suite with no test case (hand-written: n-complete suites observe, below).
    let suite = write(
        dir.path(),
        "s.json",
        r#"{"format": "ioco-suite/1", "method": "n-complete", "parameters": {}, "role": "conformance", "tests": []}"#,
    );
    // It passed with 0 runs (exit 0).
    ioco()
        .arg("run")
        .arg(&spec)
        .arg(&suite)
        .arg("--sim")
        .arg(&imp)
        .assert()
        .code(2)
        .stderr(contains("no test was executed"))
        .stdout(contains("PASS").not());
    // A session of no run.
    ioco()
        .arg("test")
        .arg(&spec)
        .arg("--sim")
        .arg(&imp)
        .args(["--runs", "0"])
        .assert()
        .code(2)
        .stderr(contains("--runs 0: a session of no run tests nothing"))
        .stdout(contains("PASS").not());
}

/// #35 item 1: a specification with no output allows only δ, and δ is an observation: its
/// n-complete suite observes (it had no test case, as every state was taken for chaos), and
/// fails the implementation that `compare` finds non-conforming after `a? · x!`.
#[test]
fn a_specification_without_outputs_gets_an_observing_n_complete_suite() {
    let dir = tempfile::tempdir().unwrap();
    let spec = write(dir.path(), "spec.aut", "des (0, 1, 1)\n(0, \"a?\", 0)\n");
    let imp = write(
        dir.path(),
        "impl.aut",
        "des (0, 2, 2)\n(0, \"a?\", 1)\n(1, \"x!\", 0)\n",
    );
    ioco().arg("compare").arg(&spec).arg(&imp).assert().code(1);
    let suite = dir.path().join("s.json");
    ioco()
        .arg("gen")
        .arg(&spec)
        .args(["--method", "n-complete", "--n", "2", "-o"])
        .arg(&suite)
        .assert()
        .code(0)
        .stderr(contains("the suite has no test case").not())
        .stderr(contains("-0.000e0").not());
    let text = std::fs::read_to_string(&suite).unwrap();
    assert!(text.contains("after ε: observe"), "{text}");
    ioco()
        .arg("run")
        .arg(&spec)
        .arg(&suite)
        .arg("--sim")
        .arg(&imp)
        .assert()
        .code(1)
        .stdout(contains("FAIL"));
    // The quiescent implementation conforms and passes.
    let good = write(dir.path(), "good.aut", "des (0, 1, 1)\n(0, \"a?\", 0)\n");
    ioco()
        .arg("run")
        .arg(&spec)
        .arg(&suite)
        .arg("--sim")
        .arg(&good)
        .assert()
        .code(0);
}
