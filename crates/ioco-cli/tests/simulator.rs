//! The simulator takes any move of the implementation model (issue: verdicts you can trust at
//! the edges, item 2): τ-steps before an input too, so a non-conformance that needs them is
//! found, and a model with hidden steps tested against itself passes.

mod common;

use common::{ioco, write};
use predicates::str::contains;

#[test]
fn a_non_conformance_behind_a_tau_step_before_an_input_is_found() {
    let dir = tempfile::tempdir().unwrap();
    // Spec: x! or a? forever. Impl: the same in state 0, but a τ-step to state 1, where a?
    // leads to y!. State 1 has no output and a τ back, so observing never stops there: only
    // a τ-step taken before the input reaches y!. `compare` finds `a? · y!`.
    let spec = write(
        dir.path(),
        "spec.aut",
        "des (0, 2, 1)\n(0, \"x!\", 0)\n(0, \"a?\", 0)\n",
    );
    let imp = write(
        dir.path(),
        "impl.aut",
        "des (0, 6, 3)\n(0, \"x!\", 0)\n(0, \"tau\", 1)\n(0, \"a?\", 0)\n(1, \"tau\", 0)\n(1, \"a?\", 2)\n(2, \"y!\", 0)\n",
    );
    ioco()
        .arg("compare")
        .arg(&spec)
        .arg(&imp)
        .assert()
        .code(1)
        .stdout(contains("y!"));
    ioco()
        .arg("test")
        .arg(&spec)
        .arg("--sim")
        .arg(&imp)
        .args(["--runs", "200", "--steps", "20", "--seed", "11"])
        .assert()
        .code(1)
        .stdout(contains("y!"));
    // The implementation model against itself conforms.
    ioco()
        .arg("test")
        .arg(&imp)
        .arg("--sim")
        .arg(&imp)
        .args(["--runs", "200", "--steps", "20", "--seed", "11"])
        .assert()
        .code(0);
}
