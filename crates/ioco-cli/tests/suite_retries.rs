//! Suite execution retries a test the implementation did not follow (issue #13 item 3, thesis
//! §2.7.4): the README's n-complete coffee example against the correct machine ends Pass (it
//! ended INCONCLUSIVE in 2 056 of 4 866 tests, exit 0), every test that the machine never
//! follows says how often it tried and with what residual risk it counts as executed.

mod common;
use common::{example_bin, ioco, summary};
use ioco_exec::RunVerdict;

#[test]
fn the_readme_n_complete_example_passes_against_the_correct_machine() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.json");
    ioco()
        .args([
            "gen",
            "examples/coffee/coffee.ioco",
            "--method",
            "n-complete",
            "--n",
            "2",
        ])
        .arg("-o")
        .arg(&suite)
        .assert()
        .success();
    let json = dir.path().join("r.json");
    let sut = format!("{} --ack", example_bin("coffee-sut"));
    let out = ioco()
        .args(["run", "examples/coffee/coffee.ioco"])
        .arg(&suite)
        .args([
            "--sut",
            &sut,
            "--quiescence-marker",
            "#quiet",
            "--seed",
            "7",
            "--jobs",
            "2",
        ])
        .args(["--json", json.to_str().unwrap()])
        .timeout(std::time::Duration::from_secs(600))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let s = summary(&json);
    assert_eq!(s.verdict, RunVerdict::Pass);
    assert!(s.runs.iter().all(|r| r.verdict == RunVerdict::Pass));
    let fair: Vec<_> = s
        .runs
        .iter()
        .filter_map(|r| r.note.as_deref())
        .filter(|n| n.starts_with("executed under fairness"))
        .collect();
    // The machine brews at the third button press only after an error: the tests that want
    // `error!` there are never followed, and say so.
    assert!(fair.len() > 1000, "{}", fair.len());
    assert!(fair
        .iter()
        .all(|n| n.contains("(wanted)") && n.contains("residual risk")));
    // A faulty machine still fails the suite.
    let faulty = format!("{} --mode silent --ack", example_bin("coffee-sut"));
    ioco()
        .args(["run", "examples/coffee/coffee.ioco"])
        .arg(&suite)
        .args([
            "--sut",
            &faulty,
            "--quiescence-marker",
            "#quiet",
            "--seed",
            "7",
        ])
        .timeout(std::time::Duration::from_secs(600))
        .assert()
        .code(1);
}

#[test]
fn fairness_parameters_are_checked() {
    ioco()
        .args([
            "run",
            "examples/coffee/coffee.ioco",
            "examples/coffee/coffee.ioco",
        ])
        .args([
            "--sim",
            "examples/coffee/coffee.ioco",
            "--confidence",
            "1.5",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--confidence must be strictly between 0 and 1",
        ));
}
