//! Diverse data values (issue #20 item 3): every input used to be `Plus(0, -2147483648)` or
//! `Minus(0, -2147483648)` (the solver's witness for the fields), so an adder that is wrong only
//! when both operands are positive passed 200 steps. Now every field of every parameter gets a
//! value from the seeded strategy (`--values`); the bug is found within 200 steps by default,
//! the correct adder passes, and the same seed chooses the same values.

mod common;
use common::{ioco_data, summary};
use predicates::str::contains;
use std::time::Duration;

const MODEL: &str = "examples/torxakis/adder32.ioco";

fn adder(mode: &str) -> String {
    format!("python3 examples/torxakis/adder_sut.py --ack --mode {mode}")
}

#[test]
fn the_positive_operands_bug_is_found_within_200_steps_by_default() {
    for seed in ["1", "2", "3"] {
        ioco_data()
            .args(["test", MODEL, "--sut", &adder("positive")])
            .args([
                "--quiescence-marker",
                "#quiet",
                "--runs",
                "1",
                "--steps",
                "200",
            ])
            .args(["--seed", seed])
            .timeout(Duration::from_secs(600))
            .assert()
            .code(1)
            .stdout(contains("Action?(Plus("));
    }
    ioco_data()
        .args(["test", MODEL, "--sut", &adder("correct")])
        .args([
            "--quiescence-marker",
            "#quiet",
            "--runs",
            "3",
            "--steps",
            "200",
        ])
        .args(["--seed", "1"])
        .timeout(Duration::from_secs(600))
        .assert()
        .code(0);
}

#[test]
fn every_field_gets_diverse_values_and_the_seed_fixes_them() {
    let dir = tempfile::tempdir().unwrap();
    let trace = |name: &str, strategy: &str| {
        let json = dir.path().join(name);
        ioco_data()
            .args(["test", MODEL, "--sut", &adder("correct")])
            .args([
                "--quiescence-marker",
                "#quiet",
                "--runs",
                "1",
                "--steps",
                "120",
            ])
            .args(["--seed", "7", "--values", strategy, "--json"])
            .arg(&json)
            .timeout(Duration::from_secs(600))
            .assert()
            .code(0);
        let s = summary(&json);
        s.runs[0]
            .trace
            .to_strings()
            .into_iter()
            .filter(|l| l.starts_with("Action?"))
            .collect::<Vec<_>>()
    };
    for strategy in ["mixed", "random", "small", "partition"] {
        let a = trace("a.json", strategy);
        let b = trace("b.json", strategy);
        assert_eq!(
            a, b,
            "{strategy}: the same seed must choose the same values"
        );
        // operands of both signs, in both fields, and many distinct inputs
        let operands: Vec<(i64, i64)> = a
            .iter()
            .filter_map(|l| {
                let inner = l
                    .split_once('(')?
                    .1
                    .split_once('(')?
                    .1
                    .trim_end_matches(')');
                let (x, y) = inner.split_once(',')?;
                Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
            })
            .collect();
        assert!(operands.len() >= 20, "{strategy}: {a:?}");
        let distinct: std::collections::BTreeSet<_> = operands.iter().collect();
        assert!(distinct.len() * 2 >= operands.len(), "{strategy}: {a:?}");
        assert!(
            operands.iter().any(|&(x, y)| x > 0 && y > 0),
            "{strategy}: {a:?}"
        );
        assert!(operands.iter().any(|&(_, y)| y < 0), "{strategy}: {a:?}");
        assert!(a.iter().any(|l| l.contains("Plus")) && a.iter().any(|l| l.contains("Minus")));
    }
    // the solver's witness alone (what every run used to get): first operand 0, never two
    // positive operands
    let model = trace("m.json", "model");
    assert!(model.len() >= 20, "{model:?}");
    assert!(model.iter().all(|l| l.contains("(0,")), "{model:?}");
}

#[test]
fn an_unknown_value_strategy_is_a_clear_error() {
    ioco_data()
        .args([
            "test",
            MODEL,
            "--sut",
            &adder("correct"),
            "--values",
            "wild",
        ])
        .timeout(Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(contains("unknown value strategy `wild`"))
        .stderr(contains("partition"));
}
