//! One observation policy for both engines (issue #20 item 7): the uniform strategy observes
//! with probability 1/2 (`--observe P`) where an input could be given, as the symbolic engine
//! does. Before, it chose uniformly among "observe" and every input: a 64-input model saw no δ in
//! 200 steps.

mod common;
use common::{ioco, summary, write};
use predicates::str::contains;

fn deltas(json: &std::path::Path) -> usize {
    summary(json).runs[0]
        .trace
        .iter()
        .filter(|l| *l == "δ")
        .count()
}

#[test]
fn a_model_with_64_inputs_is_observed_about_half_the_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut aut = String::from("des (0, 64, 1)\n");
    for i in 0..64 {
        aut.push_str(&format!("(0, \"in{i}?\", 0)\n"));
    }
    let m = write(dir.path(), "wide.aut", &aut);
    let json = dir.path().join("s.json");
    let run = |extra: &[&str]| {
        ioco()
            .arg("test")
            .arg(&m)
            .arg("--sim")
            .arg(&m)
            .args(["--runs", "1", "--steps", "200", "--seed", "5", "--json"])
            .arg(&json)
            .args(extra)
            .assert()
            .code(0);
        deltas(&json)
    };
    let half = run(&[]);
    assert!((50..=110).contains(&half), "{half} δ in 200 steps");
    let rare = run(&["--observe", "0.1"]);
    assert!(
        rare < half / 2,
        "{rare} δ with --observe 0.1, {half} by default"
    );
    ioco()
        .arg("test")
        .arg(&m)
        .args(["--sim"])
        .arg(&m)
        .args(["--observe", "2"])
        .assert()
        .code(2)
        .stderr(contains("--observe must be a probability"));
}
