//! The suite runner follows the tester's rules (issue #31): a stored test case run by `ioco run`
//! takes each step by the same rules as Alg. 2 (`ioco_engine::rules`: δ after δ, time-outs,
//! settling before an input and the last look before a Pass where only δ is allowed, the exit
//! rule). Each case runs a stored test (a word) against a real program with `ioco run`, then
//! the same word, as a recorded run, with `ioco replay` (Alg. 2, following the trace): both
//! give the same verdict, the same trace and the same failure.
//!
//! * a coffee machine that brews 0.1 s after `water?`, where only δ is allowed, fails on the
//!   test `water?` (its Pass leaf follows the input, and the last look sees `coffee!`), with a
//!   marker and by observing the process;
//! * a machine played by `sim-sut` with delayed outputs, quiescent twice in a row: δ δ is
//!   observed once, written once, and passes;
//! * a machine that exits, or closes its standard output, where an output is required fails
//!   with `exit` and the same reason.

mod common;
use common::{example_bin, ioco, write};
use serde_json::Value;
use std::path::Path;

const COFFEE: &str = "examples/models/coffee.aut";
const LATEOUT: &str = "crates/ioco-cli/tests/suts/lateout.py";
const QUITS: &str = "crates/ioco-cli/tests/suts/quits.py";

/// What both runs are compared on: verdict, trace, and the failure's observation and reason.
#[derive(Debug, PartialEq)]
struct Seen {
    verdict: String,
    trace: Vec<String>,
    observed: Option<String>,
    reason: Option<String>,
}

/// The one run of the summary at `path`.
fn seen(path: &Path) -> Seen {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1, "{v}");
    let r = &runs[0];
    Seen {
        verdict: r["verdict"].as_str().unwrap().to_string(),
        trace: r["trace"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect(),
        observed: r["failure"]["observed"].as_str().map(str::to_string),
        reason: r["failure"]["reason"].as_str().map(str::to_string),
    }
}

/// Runs `word` against `sut` (with the `options`) as a stored test (`ioco run`) and, as a
/// recorded run, by Alg. 2 (`ioco replay`); asserts that both saw the same, and returns it.
fn both(dir: &Path, name: &str, word: &[&str], sut: &str, options: &[&str]) -> Seen {
    let steps: Vec<String> = word.iter().map(|s| format!("{s:?}")).collect();
    let suite = write(
        dir,
        &format!("{name}.suite.json"),
        &format!(
            "{{\"format\": \"ioco-suite/1\", \"method\": \"by hand\", \"tests\": [{{\"name\": \
             \"{name}\", \"test\": {{\"kind\": \"word\", \"steps\": [{}]}}}}]}}",
            steps.join(", ")
        ),
    );
    let recorded = write(
        dir,
        &format!("{name}.recorded.json"),
        &format!(
            "{{\"run\": 0, \"seed\": 1, \"verdict\": \"pass\", \"trace\": [{}], \"steps\": {}, \
             \"duration_ms\": 0}}",
            steps.join(", "),
            word.len()
        ),
    );
    let by_suite = dir.join(format!("{name}.run.json"));
    let by_alg2 = dir.join(format!("{name}.replay.json"));
    let run = ioco()
        .args(["run", COFFEE])
        .arg(&suite)
        .args(["--sut", sut, "--seed", "1"])
        .args(options)
        .arg("--json")
        .arg(&by_suite)
        .output()
        .unwrap();
    let replay = ioco()
        .args(["replay", COFFEE])
        .arg(&recorded)
        .args(["--sut", sut])
        .args(options)
        .arg("--json")
        .arg(&by_alg2)
        .output()
        .unwrap();
    let text = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
    };
    let (a, b) = (seen(&by_suite), seen(&by_alg2));
    assert_eq!(
        a,
        b,
        "{name}: `ioco run` and `ioco replay` differ\nrun:\n{}\nreplay:\n{}",
        text(&run),
        text(&replay)
    );
    let code = if a.verdict == "pass" { 0 } else { 1 };
    assert_eq!(run.status.code(), Some(code), "{}", text(&run));
    assert_eq!(replay.status.code(), Some(code), "{}", text(&replay));
    a
}

#[test]
fn a_late_output_after_a_tests_last_input_fails_as_in_online_testing() {
    let dir = tempfile::tempdir().unwrap();
    let ways: [(&str, &[&str]); 2] = [
        (" --ack", &["--quiescence-marker", "#quiet"]),
        ("", &["--quiescence", "process"]),
    ];
    for (k, (ack, options)) in ways.into_iter().enumerate() {
        let sut = format!("python3 {LATEOUT} 0.1{ack}");
        let s = both(dir.path(), &format!("late{k}"), &["water?"], &sut, options);
        assert_eq!(s.verdict, "fail", "{s:?}");
        assert_eq!(s.trace, ["water?", "coffee!"], "{s:?}");
        assert_eq!(s.observed.as_deref(), Some("coffee!"), "{s:?}");
    }
}

#[test]
fn quiescence_twice_is_observed_once_as_in_online_testing() {
    let dir = tempfile::tempdir().unwrap();
    let sut = format!(
        "{} {COFFEE} --seed 1 --delay-max 50 --ack",
        example_bin("sim-sut")
    );
    let s = both(
        dir.path(),
        "quiet",
        &["water?", "δ", "δ", "pad?", "δ", "δ"],
        &sut,
        &["--quiescence-marker", "#quiet"],
    );
    assert_eq!(s.verdict, "pass", "{s:?}");
    assert_eq!(s.trace, ["water?", "δ", "pad?", "δ"], "{s:?}");
}

#[test]
fn a_system_that_stops_where_an_output_is_required_fails_as_in_online_testing() {
    let dir = tempfile::tempdir().unwrap();
    for mode in ["exit", "close"] {
        let sut = format!("python3 {QUITS} {mode} --ack");
        let s = both(
            dir.path(),
            mode,
            &["water?", "pad?", "button?", "coffee!"],
            &sut,
            &["--quiescence-marker", "#quiet"],
        );
        assert_eq!(s.verdict, "fail", "{s:?}");
        assert_eq!(s.trace, ["water?", "pad?", "button?"], "{s:?}");
        assert_eq!(s.observed.as_deref(), Some("exit"), "{s:?}");
        let reason = s.reason.unwrap_or_default();
        assert!(
            reason.contains("where the specification requires an output"),
            "{mode}: {reason}"
        );
        let how = if mode == "exit" {
            "exited with status 3"
        } else {
            "closed its standard output"
        };
        assert!(reason.contains(how), "{mode}: {reason}");
    }
}
