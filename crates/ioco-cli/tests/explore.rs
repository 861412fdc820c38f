//! `ioco explore` from a piped script: the bundled coffee machines (an explicit model and one
//! with data), stepping, refusals, going back, and the saved trace run against the real
//! programs with `ioco run` and `ioco replay`.

mod common;

use common::{example_bin, ioco, ioco_data};
use predicates::str::contains;
use std::time::Duration;

#[test]
fn explore_the_coffee_machine_and_run_the_saved_test_case() {
    let dir = tempfile::tempdir().unwrap();
    let test = dir.path().join("explored.json");
    let purpose = dir.path().join("purpose.ioco");
    let script = format!(
        "water?\n# menu entry 2 is pad? after water?\n2\nbutton?\ncoffee!\nsave-purpose {}\nback 1\ntrace\ngoto 3\nsave {}\nquit\nnot reached\n",
        purpose.display(),
        test.display()
    );
    let out = ioco()
        .args(["explore", "examples/coffee/coffee.ioco"])
        .write_stdin(script)
        .timeout(Duration::from_secs(60))
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    // the start: state s0, inputs button? and water?, quiescence allowed
    assert!(
        out.contains("after 0 step(s), in: s0\n  inputs:\n     1  button?\n     2  water?\n  outputs (allowed):\n     3  δ\n"),
        "{out}"
    );
    assert!(
        out.contains("> 2\ntook pad?\nafter 2 step(s), in: s2"),
        "{out}"
    );
    assert!(out.contains("after 3 step(s), in: s3\n  inputs:  none\n  outputs (allowed):\n     1  coffee!\n     2  error!\n"), "{out}");
    // back 1 undoes coffee!; trace shows the three inputs
    assert!(
        out.contains("> trace\n    1  water?\n    2  pad?\n    3  button?\n> goto 3"),
        "{out}"
    );
    assert!(!out.contains("not reached"));
    // the purpose: the four steps in order, then accept; testing with it reaches accept
    let p = std::fs::read_to_string(&purpose).unwrap();
    assert!(
        p.contains("  p0 -- water? --> p1\n  p1 -- pad? --> p2\n  p2 -- button? --> p3\n  p3 -- coffee! --> accept\n"),
        "{p}"
    );
    // the saved test case runs against the real program: the correct machine passes, the
    // silent one fails (quiescence where coffee! or error! is required)
    let ok = format!("{} --ack", example_bin("coffee-sut"));
    ioco()
        .args(["test", "examples/coffee/coffee.ioco", "--purpose"])
        .arg(&purpose)
        .args([
            "--sut",
            &ok,
            "--quiescence-marker",
            "#quiet",
            "--seed",
            "1",
            "--runs",
            "5",
        ])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(0)
        .stdout(contains("accepted_runs=5"));
    ioco()
        .args(["run", "examples/coffee/coffee.ioco"])
        .arg(&test)
        .args(["--sut", &ok, "--quiescence-marker", "#quiet", "--seed", "1"])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(0);
    let mut word = std::fs::read_to_string(&test).unwrap();
    assert!(
        word.contains(
            r#""steps": [
          "water?",
          "pad?",
          "button?"
        ]"#
        ),
        "{word}"
    );
    // with the observation after button? the silent machine fails
    word = word.replace("\"button?\"\n", "\"button?\",\n          \"coffee!\"\n");
    std::fs::write(&test, &word).unwrap();
    let silent = format!("{} --ack --mode silent", example_bin("coffee-sut"));
    ioco()
        .args(["run", "examples/coffee/coffee.ioco"])
        .arg(&test)
        .args([
            "--sut",
            &silent,
            "--quiescence-marker",
            "#quiet",
            "--seed",
            "1",
        ])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(1);
}

#[test]
fn a_refused_step_is_said_with_its_line_and_the_model_stays() {
    let out = ioco()
        .args(["explore", "examples/coffee/coffee.ioco"])
        .write_stdin("water?\nδ\ncoffee!\nteleport?\nback 5\ngoto x\n7\ntrace\n")
        .timeout(Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(contains(
            "<stdin>:3: the specification does not allow coffee! here (allowed: δ)",
        ))
        .stderr(contains("<stdin>:4: `teleport?` is no label of the model"))
        .stderr(contains(
            "<stdin>:5: cannot go back 5 step(s): the trace has 2",
        ))
        .stderr(contains("<stdin>:6: `x` is not a number"))
        .stderr(contains("<stdin>:7: no entry 7 in the menu (1 to 3)"))
        .stderr(contains("5 command(s) of the script failed"))
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("> trace\n    1  water?\n    2  δ\n"), "{out}");
}

#[test]
fn explore_the_coffee_machine_with_data_and_replay_the_trace() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace.json");
    let script = format!(
        "water?\nreset\nwater?(100)\nwater?(60)\npad?\n1\ncoffee!(10)\ncoffee!\ntrace\nsave {}\nsave-purpose p.ioco\n",
        trace.display()
    );
    let assert = ioco_data()
        .args(["explore", "examples/coffee/coffee-sts.ioco", "--seed", "3"])
        .write_stdin(script)
        .timeout(Duration::from_secs(120))
        .assert()
        .code(2);
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(out.contains("after 0 step(s), in: idle{total=0}"), "{out}");
    assert!(out.contains("1  water?(ml: int)  e.g. water?("), "{out}");
    assert!(
        out.contains("took water?(100)\nafter 1 step(s), in: idle{total=100}"),
        "{out}"
    );
    // `water?` without values: the solver chooses a positive amount
    assert!(out.contains("> water?\ntook water?("), "{out}");
    assert!(
        !out.contains("took water?(0)") && !out.contains("took water?(-"),
        "{out}"
    );
    assert!(
        out.contains("took water?(60)\nafter 2 step(s), in: filled{total=160}"),
        "{out}"
    );
    // menu entry 1 in ready is button?
    assert!(
        out.contains("> 1\ntook button?\nafter 4 step(s), in: brewing{total=160}"),
        "{out}"
    );
    // in brewing, the guard of coffee! is shown, a value outside it is refused with the guard
    assert!(out.contains("coffee!(c) [c >= "), "{out}");
    assert!(
        err.contains("<stdin>:7: the specification does not allow coffee!(10) here"),
        "{err}"
    );
    assert!(
        err.contains("violated: `c >= total - 50` is false"),
        "{err}"
    );
    // coffee! without a value: one the guard allows (110 to 160)
    let took: i64 = out
        .split("took coffee!(")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .and_then(|v| v.parse().ok())
        .expect("a coffee! with a value");
    assert!((110..=160).contains(&took), "{out}");
    // the trace replays against the correct program
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    assert_eq!(saved["mode"], "explore");
    let steps = saved["runs"][0]["trace"].as_array().unwrap().len();
    assert_eq!(steps, 5, "{saved}");
    let sut = format!("{} --ack", example_bin("coffee-sts-sut"));
    ioco_data()
        .args(["replay", "examples/coffee/coffee-sts.ioco"])
        .arg(&trace)
        .args(["--sut", &sut, "--quiescence-marker", "#quiet"])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(0);
}
