//! `ioco learn`'s rough edges (issue #33, item 4), each on a real process: a system that prints
//! a banner at start-up and after each reset line; Moore machines (`--moore`, the corpus's car
//! alarm); `--cache FILE` (every answer kept, an interrupted learning resumed with no word run
//! twice); messages that say time when a late answer is the cause.

mod common;

use common::{ioco, root};
use ioco_model::Mealy;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use std::path::Path;

const BANNER: &str = "crates/ioco-cli/tests/suts/banner_sut.py";

fn mealy(path: &Path) -> Mealy {
    match ioco_formats::load(path).unwrap() {
        ioco_formats::Model::Mealy(m) => m,
        other => panic!("{}: a {}", path.display(), other.kind()),
    }
}

#[test]
fn a_system_that_greets_after_each_reset_line_is_learned_with_its_banner() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("banner.aut");
    ioco()
        .args([
            "learn",
            "--inputs",
            "a,b",
            "--sut",
            &format!("python3 {BANNER}"),
        ])
        .args(["--quiescence-marker", "__q__", "--reset-line", "__reset__"])
        .args(["--seed", "1", "--timeout", "20000", "-o"])
        .arg(&out)
        .assert()
        .success()
        .stdout(contains("LEARNED: 2 states"));
    let text = std::fs::read_to_string(&out).unwrap();
    // the banner is the start-up output, before the two states
    assert!(text.contains("\"hello!\""), "{text}");
    assert!(text.contains("\"same!\""), "{text}");
    // the learned LTS is a specification the system passes (restarted for each run: the
    // tester drains a reset line's reaction)
    ioco()
        .arg("test")
        .arg(&out)
        .args(["--sut", &format!("python3 {BANNER}")])
        .args(["--quiescence-marker", "__q__"])
        .args(["--runs", "10", "--steps", "10", "--seed", "1"])
        .assert()
        .success();
    // and with the reset line, one process for all runs: the greeting after each reset is the
    // start-up output again (it was drained, and the model's banner then missing: a Fail)
    ioco()
        .arg("test")
        .arg(&out)
        .args(["--sut", &format!("python3 {BANNER}")])
        .args(["--quiescence-marker", "__q__", "--reset-line", "__reset__"])
        .args([
            "--runs",
            "10",
            "--steps",
            "10",
            "--seed",
            "1",
            "--timeout",
            "20000",
        ])
        .assert()
        .success()
        .stdout(contains("Fail").not());
}

#[test]
fn a_late_answer_is_reported_as_late_not_as_nondeterminism() {
    let dir = tempfile::tempdir().unwrap();
    // the first input is answered 3 s late, six times the time-out
    let sut = format!("python3 {BANNER} --late 1 {}", dir.path().display());
    ioco()
        .args(["learn", "--inputs", "a,b", "--sut", &sut])
        .args(["--quiescence-marker", "__q__", "--reset-line", "__reset__"])
        .args(["--seed", "1", "--timeout", "500", "-o"])
        .arg(dir.path().join("never.dot"))
        .assert()
        .code(2)
        .stderr(contains("an answer came late"))
        .stderr(contains("quiescence time-out of"))
        .stderr(contains("500"))
        .stderr(contains("raise --timeout"))
        .stderr(contains("not deterministic").not());
    assert!(!dir.path().join("never.dot").exists());
}

/// The car alarm of the corpus as a Moore system: the player writes the initial state's
/// output `N` at start-up and after each reset, then each input's target state's output.
fn car_alarm_player(dir: &Path) -> Option<(String, String)> {
    let dot = common::corpus_file("mealy-aalpy/car_alarm.dot")?;
    let json = dir.join("car.json");
    ioco()
        .args(["show", &dot, "--format", "json", "-o"])
        .arg(&json)
        .assert()
        .success();
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let n = m["states"].as_array().unwrap().len();
    let initial = m["initial"][0].clone();
    m["states"].as_array_mut().unwrap().push("start".into());
    m["transitions"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!([n, "N!", initial]));
    m["initial"] = serde_json::json!([n]);
    let moore = dir.join("car-moore.json");
    std::fs::write(&moore, m.to_string()).unwrap();
    Some((
        dot,
        format!(
            "python3 examples/models/lts_player.py {} --ack",
            moore.display()
        ),
    ))
}

#[test]
fn the_car_alarm_is_learned_as_a_moore_machine() {
    let dir = tempfile::tempdir().unwrap();
    let Some((dot, sut)) = car_alarm_player(dir.path()) else {
        return;
    };
    let out = dir.path().join("car.dot");
    ioco()
        .args(["learn", "--inputs-from", &dot, "--sut", &sut, "--moore"])
        .args(["--quiescence-marker", "#quiet", "--reset-line", "#reset"])
        .args(["--seed", "1", "--timeout", "20000", "-o"])
        .arg(&out)
        .assert()
        .success()
        .stdout(contains(
            "LEARNED: 6 states (Moore; 5 as a Mealy machine), 2 inputs, 2 outputs",
        ))
        .stdout(contains("(Moore machine)"));
    let text = std::fs::read_to_string(&out).unwrap();
    // outputs on states (AALpy's dialect), the initial state's output N
    assert!(text.contains("s0 [label=\"s0|N\"];"), "{text}");
    assert_eq!(text.matches("|A\"").count(), 2, "{text}");
    assert_eq!(text.matches("|N\"").count(), 4, "{text}");
    // read back (outputs of the states reached), it is the corpus machine
    let original = mealy(&root().join(&dot));
    let got = mealy(&out);
    assert_eq!(ioco_learn::compare::difference(&original, &got), None);
    assert_eq!(ioco_learn::compare::difference(&got, &original), None);
}

#[test]
fn moore_learning_refuses_what_it_cannot_do() {
    let dir = tempfile::tempdir().unwrap();
    let Some(dot) = common::corpus_file("mealy-aalpy/car_alarm.dot") else {
        return;
    };
    ioco()
        .args([
            "learn",
            "--sim",
            &dot,
            "--inputs-from",
            &dot,
            "--moore",
            "-o",
        ])
        .arg(dir.path().join("x.dot"))
        .assert()
        .code(2)
        .stderr(contains("--moore needs the system's start-up output"));
    ioco()
        .args(["learn", "--inputs", "a", "--sut", "true", "--moore", "-o"])
        .arg(dir.path().join("x.aut"))
        .assert()
        .code(2)
        .stderr(contains("is not a .dot"));
    // a system with no start-up output: the player of the plain (Mealy) car alarm
    let json = dir.path().join("car.json");
    ioco()
        .args(["show", &dot, "--format", "json", "-o"])
        .arg(&json)
        .assert()
        .success();
    ioco()
        .args(["learn", "--inputs-from", &dot, "--moore", "--sut"])
        .arg(format!(
            "python3 examples/models/lts_player.py {} --ack",
            json.display()
        ))
        .args(["--quiescence-marker", "#quiet", "--reset-line", "#reset"])
        .args(["--seed", "1", "--timeout", "20000", "-o"])
        .arg(dir.path().join("never.dot"))
        .assert()
        .code(2)
        .stderr(contains("--moore: the system wrote nothing at start-up"));
    assert!(!dir.path().join("never.dot").exists());
}

/// The runs of a cache file (after its header): inputs with outputs.
fn runs(path: &Path) -> Vec<Vec<(String, String)>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(header["ioco_learn_cache"], 1);
    lines
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let names = |k: &str| {
                v[k].as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap().to_string())
                    .collect::<Vec<_>>()
            };
            names("inputs").into_iter().zip(names("outputs")).collect()
        })
        .collect()
}

fn resets(stdout: &[u8]) -> usize {
    let s = String::from_utf8_lossy(stdout);
    let k = s.find(" resets").unwrap_or_else(|| panic!("{s}"));
    s[..k].rsplit(' ').next().unwrap().parse().unwrap()
}

#[test]
fn an_interrupted_learning_resumes_from_its_cache_with_no_word_run_twice() {
    let dir = tempfile::tempdir().unwrap();
    let Some(dot) = common::corpus_file("mealy-aalpy/TCP/TCP_Linux_Client.dot") else {
        return;
    };
    let json = dir.path().join("tcp.json");
    ioco()
        .args(["show", &dot, "--format", "json", "-o"])
        .arg(&json)
        .assert()
        .success();
    let cache = dir.path().join("tcp.cache");
    let out = dir.path().join("tcp.dot");
    let learn = |budget: &str| {
        ioco()
            .args(["learn", "--inputs-from", &dot, "--sut"])
            .arg(format!(
                "python3 examples/models/lts_player.py {} --ack",
                json.display()
            ))
            .args(["--quiescence-marker", "#quiet", "--reset-line", "#reset"])
            .args(["--seed", "1", "--timeout", "20000", "--max-queries", budget])
            .arg("--cache")
            .arg(&cache)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap()
    };
    // interrupted by its budget: 60 runs, each kept
    let first = learn("60");
    assert_eq!(first.status.code(), Some(3));
    assert_eq!(resets(&first.stdout), 60);
    let before = runs(&cache);
    assert_eq!(before.len(), 60);
    // resumed: learned, and every run on the system is a word the cache did not answer
    let second = learn("1000000");
    assert_eq!(
        second.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    let all = runs(&cache);
    let new = &all[before.len()..];
    assert_eq!(new.len(), resets(&second.stdout));
    assert!(!new.is_empty());
    for (k, run) in new.iter().enumerate() {
        let earlier = &all[..before.len() + k];
        assert!(
            !earlier.iter().any(|e| e.starts_with(run)),
            "the run {run:?} was answered by the cache"
        );
    }
    assert_eq!(
        ioco_learn::compare::difference(&mealy(&root().join(&dot)), &mealy(&out)),
        None
    );
    // a cache made for other inputs is refused, naming the file
    ioco()
        .args(["learn", "--inputs", "x", "--sut", "true", "--cache"])
        .arg(&cache)
        .arg("-o")
        .arg(dir.path().join("never.dot"))
        .assert()
        .code(2)
        .stderr(contains("the cache file:"))
        .stderr(contains("tcp.cache:1"));
}
