//! `ioco test`, `ioco run` and `ioco replay` end to end: the coffee machine of
//! examples/coffee against simulated models and shell-script SUTs; exit codes 0/1/2.

mod common;

use common::{ioco, ioco_listening, root, summary, write};
use predicates::str::contains;

const SPEC: &str = "examples/coffee/coffee.aut";

/// The coffee machine in sh, with the `#quiet` marker; `tea` after the third input when
/// `faulty` (a label the model does not know).
fn sh_sut(faulty: bool) -> String {
    let brew = if faulty { "echo tea" } else { "echo coffee" };
    format!(
        "sh -c 's=0; echo \"#quiet\"; while IFS= read -r l; do \
         case \"$s:$l\" in 0:water) s=1;; 1:pad) s=2;; 2:button) s=0; {brew};; \
         0:button|1:button) s=0; echo error;; esac; echo \"#quiet\"; done'"
    )
}

#[test]
fn test_with_a_simulated_conforming_model_passes() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("out.json");
    ioco()
        .args([
            "test", SPEC, "--sim", SPEC, "--runs", "40", "--depth", "15", "--seed", "5",
        ])
        .arg("--json")
        .arg(&json)
        .assert()
        .code(0)
        .stdout(contains("PASS: 40 runs"))
        .stdout(contains("transitions 9/9"));
    let s = summary(&json);
    assert_eq!(s.seed, 5);
    assert_eq!(s.runs.len(), 40);
}

#[test]
fn a_faulty_program_fails_shrinks_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("fail.json");
    ioco()
        .args([
            "test",
            SPEC,
            "--cmd",
            &sh_sut(true),
            "--quiescence-marker",
            "#quiet",
        ])
        .args(["--runs", "50", "--depth", "20", "--seed", "3", "--shrink"])
        .arg("--json")
        .arg(&json)
        .assert()
        .code(1)
        .stdout(contains("FAIL"))
        .stdout(contains("observed  tea"))
        .stdout(contains("shrunk"));
    let s = summary(&json);
    let shrunk = s.first_failure().unwrap().shrunk.clone().unwrap();
    assert_eq!(shrunk.inputs, vec!["water?", "pad?", "button?"]);
    // The recorded failure replays against the faulty program ...
    ioco()
        .args(["replay", SPEC])
        .arg(&json)
        .args(["--cmd", &sh_sut(true), "--quiescence-marker", "#quiet"])
        .assert()
        .code(1)
        .stdout(contains("observed  tea"));
    // ... and is not reproduced by the repaired one (exit 3: not a Pass, the run was a Fail).
    ioco()
        .args(["replay", SPEC])
        .arg(&json)
        .args(["--cmd", &sh_sut(false), "--quiescence-marker", "#quiet"])
        .assert()
        .code(3)
        .stderr(contains("not reproduced"));
}

#[test]
fn stored_suites_run_against_models() {
    let dir = tempfile::tempdir().unwrap();
    let spec = ioco_formats::load(&root().join(SPEC))
        .unwrap()
        .into_lts()
        .unwrap();
    let suite = ioco_gen::generate_random(&spec, ioco_model::QuiescencePolicy::Stable, 30, 8, 1);
    let suite_file = write(
        dir.path(),
        "suite.json",
        &serde_json::to_string(&suite).unwrap(),
    );
    ioco()
        .args(["run", SPEC])
        .arg(&suite_file)
        .args(["--sim", SPEC, "--repetitions", "3", "--seed", "1"])
        .assert()
        .code(0)
        .stdout(contains("PASS: 30 runs"));
    // A mutant: button in the initial state brews coffee.
    let mutant = write(
        dir.path(),
        "mutant.aut",
        &std::fs::read_to_string(root().join(SPEC))
            .unwrap()
            .replace("(4, \"error!\", 0)", "(4, \"coffee!\", 0)"),
    );
    ioco()
        .args(["run", SPEC])
        .arg(&suite_file)
        .arg("--sim")
        .arg(&mutant)
        .args(["--repetitions", "3"])
        .assert()
        .code(1)
        .stdout(contains("observed  coffee!"));
}

#[test]
fn a_program_connecting_to_ioco_listening() {
    // `ioco test --listen 0` says where it listens; `coffee-sut --connect` connects, anew for
    // every run and every replay of the shrinking
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("s.json");
    let json = json.to_str().unwrap();
    let args = |extra: &'static [&'static str]| {
        let mut a = vec![
            "test",
            SPEC,
            "--listen",
            "0",
            "--quiescence-marker",
            "#quiet",
        ];
        a.extend([
            "--runs", "20", "--depth", "20", "--seed", "3", "--json", json,
        ]);
        a.extend(extra);
        a
    };
    let (code, text) = ioco_listening(&args(&[]), "coffee-sut", &["--ack"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("PASS: 20 runs"), "{text}");
    // button? in the initial state brews coffee where only error! is allowed
    let (code, text) = ioco_listening(
        &args(&["--shrink"]),
        "coffee-sut",
        &["--ack", "--mode", "wrong-output"],
    );
    assert_eq!(code, 1, "{text}");
    let s = summary(std::path::Path::new(json));
    let r = s.first_failure().expect("a failing run");
    assert_eq!(r.failure.as_ref().unwrap().observed, "coffee!", "{text}");
    let shrunk = r.shrunk.as_ref().expect("shrunk");
    assert_eq!(shrunk.inputs, vec!["button?"], "{text}");
}

#[test]
fn nobody_connecting_or_listening_is_a_clear_error_in_bounded_time() {
    // --listen with no SUT coming: an error naming the address and the wait, with a hint
    ioco()
        .args([
            "test",
            SPEC,
            "--listen",
            "0",
            "--runs",
            "1",
            "--retries",
            "0",
        ])
        .args(["--connect-timeout", "200ms"])
        .assert()
        .code(2)
        .stdout(contains("no SUT connected to 127.0.0.1:"))
        .stdout(contains("within 200ms"))
        .stdout(contains("--connect-timeout"))
        // the report names the port bound, not the `0` asked for
        .stdout(contains("sut: tcp server on 127.0.0.1:"));
    // --tcp to a port nobody listens on (one just bound and closed again)
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    ioco()
        .args([
            "test",
            SPEC,
            "--tcp",
            &format!("127.0.0.1:{port}"),
            "--runs",
            "1",
        ])
        .args(["--connect-timeout", "1s"])
        .assert()
        .code(2)
        .stdout(contains("cannot connect to 127.0.0.1:"))
        .stdout(contains("is the SUT listening?"));
    ioco()
        .args(["test", SPEC, "--listen", "0", "--connect-timeout", "soon"])
        .assert()
        .code(2)
        .stderr(contains("`soon` is not a duration"));
}

#[test]
fn usage_errors_exit_2_with_a_hint() {
    ioco()
        .args(["test", SPEC, "--runs", "1"])
        .assert()
        .code(2)
        .stderr(contains("no system under test"));
    ioco()
        .args(["test", SPEC, "--cmd", "/nonexistent/sut", "--runs", "3"])
        .assert()
        .code(2)
        .stdout(contains("could not start the SUT"));
    ioco()
        .args([
            "test",
            SPEC,
            "--sim",
            SPEC,
            "--strategy",
            "weighted",
            "--weight",
            "milk?=2",
        ])
        .assert()
        .code(2)
        .stderr(contains("unknown label `milk?`"));
    ioco()
        .args(["run", SPEC, "Cargo.toml", "--sim", SPEC])
        .assert()
        .code(2)
        .stderr(contains("Cargo.toml:1:"));
}
