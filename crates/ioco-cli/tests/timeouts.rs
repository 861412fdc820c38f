//! Quiescence timeouts per gate and per location (`@timeout` in the model, `--timeout-gate`
//! and `--timeout-location` on the command line) end to end, with a real program that is slow
//! on one gate: the coffee machine of examples/coffee in sh, brewing for 2 s before it says
//! `coffee` (no quiescence marker, so quiescence is observed by timeout only).
//!
//! With a 500 ms timeout the tester concludes δ after `button?` where the model requires an
//! output: a false Fail. The model's `@timeout` on the `coffee` gate or on the location `s3`
//! where coffee is brewed, or the same override on the command line, make the tester wait and
//! the machine pass — in `ioco test`, `ioco replay` and `ioco run`. (The margins are 4× and
//! 5×: 500 ms against 2 s, and 10 s against 2 s. The short timeout must also be long enough
//! for the immediate `error` of `sh` under a loaded CI machine: 50 ms once was not, and
//! below 300 ms a shell SUT may miss it.)

mod common;

use common::{ioco, write};
use predicates::str::contains;
use std::path::PathBuf;

const SPEC: &str = "examples/coffee/coffee.ioco";

/// The correct coffee machine, but it takes 2 s to brew.
const SLOW_SUT: &str = "sh -c 's=0; while IFS= read -r l; do case \"$s:$l\" in \
     0:water) s=1;; 1:pad) s=2;; 2:button) s=0; sleep 2; echo coffee;; \
     0:button|1:button) s=0; echo error;; esac; done'";

/// Runs that press the button whenever they can (observing only where no input is enabled),
/// so each run brews.
const RUNS: [&str; 10] = [
    "--runs",
    "2",
    "--steps",
    "8",
    "--seed",
    "1",
    "--strategy",
    "weighted",
    "--weight",
    "δ=0",
];

/// coffee.ioco with `@timeout`s: the model's is 500 ms, `gate_attr` goes before the
/// `output coffee` gate and `location_attr` before the location `s3` (written to `dir/name`).
fn model(dir: &std::path::Path, name: &str, gate_attr: &str, location_attr: &str) -> PathBuf {
    let src = format!(
        "@timeout(500ms)
model Coffee {{
  input water, pad, button
  {gate_attr}
  output coffee
  output error
  {location_attr}
  location s3
  location s0, s1, s2, e0, e1
  init s0
  s0 -- water? --> s1
  s1 -- pad? --> s2
  s2 -- button? --> s3
  s3 -- coffee! --> s0
  s3 -- error! --> s0
  s0 -- button? --> e0
  e0 -- error! --> s0
  s1 -- button? --> e1
  e1 -- error! --> s0
}}
"
    );
    write(dir, name, &src)
}

#[test]
fn slow_gate_fails_with_the_default_timeout_and_its_replay_passes_with_an_override() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("fail.json");
    ioco()
        .args(["test", SPEC, "--cmd", SLOW_SUT, "--timeout", "500"])
        .args(RUNS)
        .arg("--json")
        .arg(&json)
        .assert()
        .code(1)
        .stdout(contains("button? δ"))
        .stdout(contains(
            "quiescence where the specification requires an output (coffee!, error!)",
        ));
    // the recorded false failure, replayed with a longer wait on the coffee gate: not
    // reproduced (exit 3)
    ioco()
        .args(["replay", SPEC])
        .arg(&json)
        .args(["--cmd", SLOW_SUT, "--timeout", "500"])
        .args(["--timeout-gate", "coffee=10s"])
        .assert()
        .code(3)
        .stderr(contains("not reproduced"));
}

#[test]
fn the_models_timeout_on_a_gate_or_a_location_makes_the_slow_machine_pass() {
    let dir = tempfile::tempdir().unwrap();
    let on_gate = model(dir.path(), "gate.ioco", "@timeout(10s)", "");
    ioco()
        .arg("test")
        .arg(&on_gate)
        // the model's @timeout(500ms) is the default where it says nothing more specific
        .args(["--cmd", SLOW_SUT])
        .args(RUNS)
        .assert()
        .code(0)
        .stdout(contains("PASS: 2 runs"))
        .stdout(contains("quiescence_timeout_ms=500"))
        .stdout(contains(r#"own_timeouts={"labels":1,"states":0}"#));
    // an explicit --timeout overrides the model's own default
    ioco()
        .arg("test")
        .arg(&on_gate)
        .args(["--cmd", SLOW_SUT, "--timeout", "6000"])
        .args(RUNS)
        .assert()
        .code(0)
        .stdout(contains("quiescence_timeout_ms=6000"));
    let on_location = model(dir.path(), "location.ioco", "", "@timeout(10s)");
    ioco()
        .arg("test")
        .arg(&on_location)
        .args(["--cmd", SLOW_SUT])
        .args(RUNS)
        .assert()
        .code(0)
        .stdout(contains(r#"own_timeouts={"labels":0,"states":1}"#));
    // the command line overrides the model: coffee is back to 500 ms, a false Fail again
    ioco()
        .arg("test")
        .arg(&on_gate)
        .args(["--cmd", SLOW_SUT, "--timeout-gate", "coffee=500"])
        .args(RUNS)
        .assert()
        .code(1)
        .stdout(contains("button? δ"));
}

#[test]
fn command_line_overrides_for_ioco_and_aut_models_in_test_and_run() {
    // a location of a .ioco model, qualified by its model
    ioco()
        .args(["test", SPEC, "--cmd", SLOW_SUT, "--timeout", "500"])
        .args(["--timeout-location", "Coffee.s3=10000"])
        .args(RUNS)
        .assert()
        .code(0);
    // an .aut model: a gate is a label name, a location a state name (s3 is state 3)
    ioco()
        .args(["test", "examples/coffee/coffee.aut", "--cmd", SLOW_SUT])
        .args(["--timeout", "500", "--timeout-location", "3=10s"])
        .args(RUNS)
        .assert()
        .code(0);
    // a stored suite: generated, then run with the default (false Fail) and an override
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.json");
    ioco()
        .args([
            "gen", SPEC, "--method", "random", "--tests", "10", "--depth", "8",
        ])
        // a seed whose suite brews (water? pad? button?) in 4 of its 10 tests
        .args(["--seed", "6", "-o"])
        .arg(&suite)
        .assert()
        .code(0);
    let run = |extra: &[&str]| {
        let mut c = ioco();
        c.args(["run", SPEC])
            .arg(&suite)
            .args(["--cmd", SLOW_SUT, "--timeout", "500", "--seed", "1"])
            // one try per test is enough here (retries are tested in suite_retries.rs)
            .args(["--confidence", "0.5", "--min-branch-probability", "0.5"])
            .args(extra);
        c.assert()
    };
    run(&[]).code(1).stdout(contains("button? δ"));
    run(&["--timeout-gate", "coffee=10000"]).code(0);
}

#[test]
fn unknown_names_and_bad_durations_are_clear_errors() {
    let run = |args: &[&str]| {
        ioco()
            .args(["test", SPEC, "--sim", SPEC, "--runs", "1"])
            .args(args)
            .assert()
            .code(2)
    };
    run(&["--timeout-gate", "cofee=100"])
        .stderr(contains("the model has no gate `cofee`"))
        .stderr(contains("did you mean coffee?"));
    run(&["--timeout-location", "brewing=100"])
        .stderr(contains("the model has no location `brewing`"))
        .stderr(contains("s0"));
    run(&["--timeout-gate", "coffee=fast"]).stderr(contains("`fast` is not a duration"));
    run(&["--timeout-gate", "coffee"]).stderr(contains("no `=`"));
}

/// The slow machine again, now announcing quiescence with `#quiet` (at start-up and after each
/// reaction). Without `--timeout`, a marker makes the default wait 2000 ms (the marker ends it
/// early), so the 0.5 s brew is not mistaken for δ; an explicit short `--timeout` still is.
const SLOW_ACK_SUT: &str =
    "sh -c 's=0; echo \"#quiet\"; while IFS= read -r l; do case \"$s:$l\" in \
     0:water) s=1;; 1:pad) s=2;; 2:button) s=0; sleep 0.5; echo coffee;; \
     0:button|1:button) s=0; echo error;; esac; echo \"#quiet\"; done'";

#[test]
fn with_a_quiescence_marker_the_default_wait_is_long() {
    ioco()
        .args(["test", SPEC, "--cmd", SLOW_ACK_SUT])
        .args(["--quiescence-marker", "#quiet"])
        .args(RUNS)
        .assert()
        .code(0)
        .stdout(contains("PASS: 2 runs"))
        .stdout(contains("quiescence_timeout_ms=2000"));
    ioco()
        .args(["test", SPEC, "--cmd", SLOW_ACK_SUT])
        .args(["--quiescence-marker", "#quiet", "--timeout", "50"])
        .args(RUNS)
        .assert()
        .code(1)
        .stdout(contains("button? δ"));
}
