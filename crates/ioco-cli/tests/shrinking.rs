//! Shrinking never fails silently (issue #13 item 7): a replay observes to quiescence around
//! every input, so it may take more steps than the failing run; it is not bounded by `--steps`.

mod common;
use common::{example_bin, ioco, summary};

#[test]
fn a_failure_found_near_the_step_bound_is_still_shrunk() {
    // Before: with --steps 8, seeds 1, 3 and 8 failed and printed no `shrunk` line (the replays
    // ran out of steps before the failure came again).
    let sut = format!("{} --mode silent --ack", example_bin("coffee-sut"));
    let dir = tempfile::tempdir().unwrap();
    for seed in ["1", "3", "8"] {
        let json = dir.path().join(format!("s{seed}.json"));
        let out = ioco()
            .args(["test", "examples/coffee/coffee.ioco", "--sut", &sut])
            .args([
                "--quiescence-marker",
                "#quiet",
                "--steps",
                "8",
                "--runs",
                "20",
            ])
            .args(["--seed", seed, "--shrink", "--json", json.to_str().unwrap()])
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "seed {seed}: {text}");
        assert!(text.contains("shrunk"), "seed {seed}: {text}");
        let s = summary(&json);
        let r = s.first_failure().expect("a failing run");
        let shrunk = r.shrunk.as_ref().expect("shrunk");
        // the silent machine never answers a brew: water? pad? button? (in some order) suffices
        assert!(shrunk.inputs.len() <= 3, "seed {seed}: {:?}", shrunk.inputs);
        assert_eq!(shrunk.failure.as_ref().unwrap().observed, "δ", "{text}");
    }
}

#[test]
fn a_replay_that_does_not_fail_again_is_not_reproduced_and_not_a_pass() {
    // A failure recorded against the faulty machine, replayed against the correct one (as a
    // nondeterministic or repaired system would behave): before, PASS and exit 0.
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("f.json");
    let faulty = format!("{} --mode wrong-output --ack", example_bin("coffee-sut"));
    ioco()
        .args(["test", "examples/coffee/coffee.ioco", "--sut", &faulty])
        .args(["--quiescence-marker", "#quiet", "--seed", "2", "--json"])
        .arg(&json)
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .code(1);
    let correct = format!("{} --ack", example_bin("coffee-sut"));
    for (sut, code) in [(&correct, 3), (&faulty, 1)] {
        let out = ioco()
            .args(["replay", "examples/coffee/coffee.ioco"])
            .arg(&json)
            .args(["--sut", sut, "--quiescence-marker", "#quiet"])
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{sut}: {err}");
        assert_eq!(err.contains("not reproduced"), code == 3, "{err}");
    }
}

#[test]
fn data_values_are_shrunk_too() {
    // The README's data example: before, the shrunk inputs kept `water?(4) water?(146)`; the
    // values are shrunk now (neighbouring inputs of one gate merged, integers towards 0 as far as
    // the failure still comes), so one pour of the 150 ml the fill guard needs is left.
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("s.json");
    let sut = format!("{} --ack --mode wrong-value", example_bin("coffee-sts-sut"));
    ioco()
        .args(["test", "examples/coffee/coffee-sts.ioco", "--sut", &sut])
        .args([
            "--quiescence-marker",
            "#quiet",
            "--steps",
            "100",
            "--seed",
            "7",
        ])
        .args(["--shrink", "--json", json.to_str().unwrap()])
        .timeout(std::time::Duration::from_secs(300))
        .assert()
        .code(1);
    let s = summary(&json);
    let shrunk = s.first_failure().unwrap().shrunk.clone().expect("shrunk");
    assert_eq!(shrunk.inputs, vec!["water?(150)", "pad?", "button?"]);
}
