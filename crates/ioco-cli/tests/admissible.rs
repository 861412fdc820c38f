//! `ioco gen --method joker --admissible`: thesis Def. 6.36 (admissible strategies, §6.7) on
//! G_{a∨b} as a suspension automaton (Ex. 6.37: σ1a wins against 3 of the 4 positional
//! system strategies), on a model where the fewest-moves joker strategy is dominated, and on
//! TCP (Table 6.1's model); the admissible strategy's test run against real programs.
mod common;
use common::ioco;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

fn suite_param(path: &std::path::Path, key: &str) -> serde_json::Value {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["parameters"][key].clone()
}

#[test]
fn the_joker_strategy_of_g_a_or_b_is_admissible_and_its_test_runs_against_programs() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("gavb.json");
    ioco()
        .args(["gen", "examples/models/gavb.aut", "--method", "joker"])
        .args(["--goal", "state:3", "--admissible", "-o"])
        .arg(&suite)
        .assert()
        .success()
        .stderr(contains(
            "the joker strategy is admissible (thesis Def. 6.36, positional strategies): it wins \
             against 3 of 4 system strategies; 1 of 5 tester strategies are admissible",
        ))
        .stderr(contains("1 joker(s), at most 2 moves"));
    assert_eq!(suite_param(&suite, "admissible"), true);
    // Real programs (the LTS player): one that helps (x! after a?) passes; one with an output
    // the specification forbids after a? fails; one that never helps is not failed, and is not
    // passed either: the goal was not reached (Inconclusive, as `ioco test --purpose`).
    for (imp, code, verdict) in [
        ("helps", 0, "1 pass"),
        ("bug", 1, "1 fail"),
        ("refuses", 3, "goal not reached"),
    ] {
        let json = dir.path().join(format!("{imp}.json"));
        ioco()
            .args(["show", &format!("examples/models/gavb-{imp}.aut")])
            .args(["--format", "json", "-o"])
            .arg(&json)
            .assert()
            .success();
        ioco()
            .args(["run", "examples/models/gavb.aut"])
            .arg(&suite)
            .arg("--sut")
            .arg(format!(
                "python3 examples/models/lts_player.py {} --ack",
                json.display()
            ))
            .args(["--quiescence-marker", "#quiet", "--seed", "1"])
            .assert()
            .code(code)
            .stdout(contains(verdict));
    }
}

#[test]
fn a_fewest_moves_joker_strategy_can_be_dominated() {
    // b? reaches the joker state 3 in one move (2 moves helped); a? goes through 2, where
    // the system may help too, then to 3 (3 moves helped): b? wins against 2 of the 4
    // positional system strategies, a? against 3, so the joker strategy is not admissible.
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("d.json");
    ioco()
        .args([
            "gen",
            "examples/models/joker-dominated.aut",
            "--method",
            "joker",
        ])
        .args(["--goal", "state:4", "--admissible", "-o"])
        .arg(&suite)
        .assert()
        .success()
        .stderr(contains("the joker strategy is not admissible"))
        .stderr(contains("it wins against 2 of 4 system strategies"))
        .stderr(contains("it is dominated by: {0} ↦ a?"))
        .stderr(contains("(wins against 3)"));
    assert_eq!(suite_param(&suite, "admissible"), false);
    // Without --admissible nothing is decided or recorded.
    ioco()
        .args([
            "gen",
            "examples/models/joker-dominated.aut",
            "--method",
            "joker",
        ])
        .args(["--goal", "state:4", "-o"])
        .arg(&suite)
        .assert()
        .success()
        .stderr(contains("admissible").not());
    assert_eq!(suite_param(&suite, "admissible"), serde_json::Value::Null);
}

#[test]
fn tcp_joker_strategies_are_admissible() {
    // Thesis §6.8's TCP (examples/models/tcp-table6.1.aut): both the 10-move default and the
    // thesis' 11-move nested construction are admissible.
    let dir = tempfile::tempdir().unwrap();
    for extra in [&[][..], &["--per-level-moves"][..]] {
        ioco()
            .args([
                "gen",
                "examples/models/tcp-table6.1.aut",
                "--method",
                "joker",
            ])
            .args(["--goal", "state:0", "--admissible", "-o"])
            .arg(dir.path().join("tcp.json"))
            .args(extra)
            .assert()
            .success()
            .stderr(contains(
                "is admissible (thesis Def. 6.36, positional strategies): it wins against 512 \
                 of 2048 system strategies; 7 of 73 tester strategies are admissible",
            ));
    }
}

#[test]
fn a_winnable_goal_has_an_admissible_joker_strategy() {
    let dir = tempfile::tempdir().unwrap();
    ioco()
        .args(["gen", "examples/models/gavb.aut", "--method", "joker"])
        .args(["--goal", "label:a|label:b", "--admissible", "-o"])
        .arg(dir.path().join("w.json"))
        .assert()
        .success()
        .stderr(contains("it is winning (no joker)"));
}
