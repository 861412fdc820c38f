//! Multi-actions in the symbolic engine through the binary (issue #16, TorXakis DisPro12): a
//! step of one visible gate and hidden gates (`Acquire?(id) | Job?(j, x)` with `Acquire`
//! hidden) is tested against a simulated implementation — Pass against itself, Fail against a
//! mutant — and a model with multi-labels (`@sync`) is refused by the symbolic engine with a
//! clear message.

mod common;
use common::{ioco, root, write};
use predicates::prelude::*;

const MODEL: &str = "crates/ioco-symbolic/tests/models/multi-hidden.ioco";

#[test]
fn a_multi_action_with_hidden_gates_passes_against_itself_and_fails_against_a_mutant() {
    ioco()
        .args([
            "test", MODEL, "--sim", MODEL, "--steps", "100", "--runs", "5", "--seed", "3",
        ])
        .timeout(std::time::Duration::from_secs(300))
        .assert()
        .success()
        .stdout(predicate::str::contains("PASS"));
    // the mutant: Finish gives x + 3 instead of x + 1
    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read_to_string(root().join(MODEL)).unwrap();
    let mutant = src.replace("=x + 1) | Release", "=x + 3) | Release");
    assert_ne!(src, mutant);
    let m = write(dir.path(), "mutant.ioco", &mutant);
    ioco()
        .args(["test", MODEL, "--sim"])
        .arg(&m)
        .args(["--steps", "100", "--runs", "5", "--seed", "3"])
        .timeout(std::time::Duration::from_secs(300))
        .assert()
        .failure()
        .stdout(predicate::str::contains("FAIL").and(predicate::str::contains("Finish")));
}

#[test]
fn multi_labels_are_tested_by_the_symbolic_engine() {
    let dir = tempfile::tempdir().unwrap();
    let m = write(
        dir.path(),
        "m.ioco",
        "@sync(a | b)\nmodel M {\n  input a, b\n  output c\n  init s\n  s -- a? | b? --> t\n  t -- c! --> s\n}\n",
    );
    let json = dir.path().join("r.json");
    ioco()
        .arg("test")
        .arg(&m)
        .arg("--sim")
        .arg(&m)
        .args(["--engine", "symbolic", "--steps", "10", "--seed", "3", "--json"])
        .arg(&json)
        .assert()
        .success();
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let trace = r["runs"][0]["trace"].to_string();
    assert!(trace.contains("\"a?|b?\""), "{trace}");
}

/// DisPro12 (TorXakis issue #330): the dispatcher's `Acquire ? jobid | Job ? job` with the
/// hidden job-id manager, tested symbolically against itself.
#[test]
fn dispro12_is_tested_symbolically() {
    let spec = "../shared/corpus/torxakis/examps/DispatchProcess/spec/DisPro12-unique-id.txs";
    if !root().join(spec).is_file() {
        return;
    }
    ioco()
        .args([
            "test", spec, "--sim", spec, "--steps", "100", "--runs", "2", "--seed", "7",
        ])
        .timeout(std::time::Duration::from_secs(600))
        .assert()
        .success()
        .stdout(predicate::str::contains("PASS"));
}
