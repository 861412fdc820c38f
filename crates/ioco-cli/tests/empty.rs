//! Nothing tested is never a Pass (issue: verdicts at the edges, item 4): a suite with no test
//! case, or a session that executed no run, is an error; estimates print no negative zero.

mod common;

use common::{ioco, write};
use predicates::prelude::*;
use predicates::str::contains;

#[test]
fn an_empty_suite_is_an_error_not_a_pass() {
    let dir = tempfile::tempdir().unwrap();
    // A spec with no output: the n-complete suite has no test, though `compare` finds the
    // implementation's `a? · x!`.
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
        .stderr(contains("the suite has no test case"))
        .stderr(contains("-0.000e0").not());
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
