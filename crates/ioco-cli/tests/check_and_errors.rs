//! `ioco check`, error reporting and exit codes, and every corpus Mealy machine through
//! `ioco check` and `ioco show --suspension`.

mod common;

use common::{ioco, write};
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use std::path::{Path, PathBuf};

#[test]
fn check_summarises_the_coffee_machine() {
    ioco()
        .args(["check", "examples/models/coffee.aut"])
        .assert()
        .code(0)
        .stdout(contains("states:            6"))
        .stdout(contains("inputs (3):        water? pad? button?"))
        .stdout(contains("quiescent states:  3 (policy stable)"))
        .stdout(contains("input-enabled:     no"));
    let out = ioco()
        .args(["check", "--json", "examples/models/music-spec.aut"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["states"], 4);
    assert_eq!(v["transitions"], 7);
    assert_eq!(v["quiescent_states"], 1);
    assert_eq!(v["deterministic"], true);
    assert_eq!(v["input_enabled"], false); // s1 does not accept shuffle?
    assert_eq!(
        v["outputs"],
        serde_json::json!(["playA!", "playB!", "done!"])
    );
}

/// Input-enabled as the tutorial's Def. 4.3 says, weakly: state 0 takes `go?` only after its
/// internal step, and the model is input-enabled; `compare` agrees (it conforms to itself and
/// completes nothing), and the simulator waits for the internal step (it passes against itself).
#[test]
fn an_input_taken_after_an_internal_step_counts_as_enabled() {
    let dir = tempfile::tempdir().unwrap();
    let m = write(
        dir.path(),
        "weak.aut",
        "des (0, 4, 3)\n(0, \"tau\", 1)\n(1, \"go?\", 2)\n(2, \"done!\", 0)\n(2, \"go?\", 2)\n",
    );
    let m = m.display().to_string();
    ioco().args(["check", &m]).assert().code(0).stdout(contains(
        "input-enabled:     yes, after internal steps (1 state(s) take an input only after",
    ));
    let out = ioco()
        .args(["check", "--json", &m])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["input_enabled"], true);
    assert_eq!(v["states_taking_inputs_after_internal_steps"], 1);
    ioco()
        .args(["compare", "--require-input-enabled", &m, &m])
        .assert()
        .code(0)
        .stdout(contains("conforms"))
        .stdout(contains("angelic").not());
    ioco()
        .args([
            "test", &m, "--sim", &m, "--runs", "10", "--steps", "20", "--seed", "4",
        ])
        .assert()
        .code(0);
}

#[test]
fn check_warns_about_divergence_and_unreachable_states() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "div.aut",
        "des (0, 3, 4)\n(0, \"a?\", 1)\n(1, \"tau\", 2)\n(2, \"tau\", 1)\n",
    );
    ioco()
        .arg("check")
        .arg(&f)
        .assert()
        .code(0)
        .stdout(contains("divergent states:  2"))
        .stdout(contains("unreachable:       1"))
        .stderr(contains("τ-cycle"))
        .stderr(contains("cannot be reached"));
    // under the tutorial policy the divergent states count as quiescent
    let out = ioco()
        .arg("check")
        .arg("--json")
        .args(["--policy", "no-output"])
        .arg(&f)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["quiescent_states"], 4);
    assert_eq!(v["divergent_states"], serde_json::json!(["1", "2"]));
}

#[test]
fn check_validates_explicit_delta() {
    let dir = tempfile::tempdir().unwrap();
    // 0 -δ-> 1, but 1 offers b! and has no δ self-loop: not a QLTS (tutorial Def. 4.8)
    let f = write(
        dir.path(),
        "q.aut",
        "des (0, 3, 2)\n(0, \"delta\", 1)\n(0, \"a?\", 0)\n(1, \"b!\", 0)\n",
    );
    ioco()
        .arg("check")
        .arg(&f)
        .assert()
        .code(0)
        .stdout(contains("explicit δ"))
        .stderr(contains("not well-formed"));
    // a suspension automaton written by `ioco show` is well-formed
    let sa = dir.path().join("sa.aut");
    ioco()
        .args(["show", "--suspension", "--format", "aut", "-o"])
        .arg(&sa)
        .arg("examples/models/music-spec.aut")
        .assert()
        .code(0);
    let out = ioco().arg("check").arg("--json").arg(&sa).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["explicit_delta"], true);
    assert_eq!(v["ill_formed_delta"], serde_json::json!([]));
    assert_eq!(v["deterministic"], true);
}

#[test]
fn bad_input_exits_2_with_a_location_and_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "bad.aut",
        "des (0, 2, 2)\n(0, \"a?\", 1)\n(1, \"coffee\", 0)\n",
    );
    ioco()
        .arg("check")
        .arg(&f)
        .assert()
        .code(2)
        .stderr(contains("bad.aut:3:5"))
        .stderr(contains("has no direction"))
        .stderr(contains("coffee!"));
    ioco()
        .args(["compare", "examples/models/coffee.aut"])
        .arg(&f)
        .assert()
        .code(2)
        .stderr(contains("bad.aut:3:5"));
    ioco()
        .args(["check", "nope.aut"])
        .assert()
        .code(2)
        .stderr(contains("cannot read"));
    ioco()
        .args(["check", "Cargo.toml"])
        .assert()
        .code(2)
        .stderr(contains(".aut, .dot, .gv, .json"));
    ioco().args(["check"]).assert().code(2);
    ioco()
        .args(["compare", "--policy", "eager", "a.aut", "b.aut"])
        .assert()
        .code(2);
}

fn dot_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            dot_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "dot") {
            out.push(p);
        }
    }
}

#[test]
fn every_corpus_mealy_machine_checks_and_shows_its_suspension_automaton() {
    let Some(corpus) = ioco_testkit::corpus() else {
        return;
    };
    let mut files = Vec::new();
    dot_files(&corpus.join("mealy-aalpy"), &mut files);
    dot_files(&corpus.join("hybrid-ads"), &mut files);
    assert!(files.len() >= 29, "{files:?}");
    for f in files {
        let out = ioco().arg("check").arg("--json").arg(&f).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            f.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["kind"], "Mealy machine", "{}", f.display());
        let mealy_states = v["mealy"]["states"].as_u64().unwrap() as usize;
        assert_eq!(
            v["quiescent_states"].as_u64().unwrap() as usize,
            mealy_states,
            "{}",
            f.display()
        );
        assert_eq!(v["deterministic"], true);

        let out = ioco()
            .args(["show", "--suspension"])
            .arg(&f)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            f.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let sa = ioco_formats::dot::parse_lts(&String::from_utf8(out.stdout).unwrap(), "sa.dot")
            .unwrap();
        // A deterministic LTS: its suspension automaton has one state per reachable state, and
        // δ self-loops exactly on the Mealy states.
        assert!(
            sa.is_deterministic() && sa.has_explicit_delta(),
            "{}",
            f.display()
        );
        let with_delta = sa
            .states()
            .filter(|&s| sa.enables(s, ioco_model::Label::DELTA))
            .count();
        assert!(
            with_delta >= 1 && with_delta <= mealy_states,
            "{}",
            f.display()
        );
    }
}
