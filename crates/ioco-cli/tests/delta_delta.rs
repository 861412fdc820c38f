//! δ after δ (issue #13 item 8; tutorial Def. 6.4, canonical form): observing quiescence again
//! right after δ gives no information and costs a full time-out on a real system. Online
//! strategies never do it, and n-complete access sequences never contain δδ.

mod common;
use common::{ioco, summary};

fn no_delta_delta(trace: &[String]) -> bool {
    !trace.windows(2).any(|w| w[0] == "δ" && w[1] == "δ")
}

#[test]
fn online_runs_never_observe_quiescence_twice_in_a_row() {
    let dir = tempfile::tempdir().unwrap();
    for (model, strategy) in [
        ("examples/coffee/coffee.ioco", "uniform"),
        ("examples/coffee/coffee.ioco", "coverage"),
        ("examples/models/ex6.10-impl.aut", "uniform"),
        ("examples/coffee/coffee-sts.ioco", "uniform"),
    ] {
        let json = dir.path().join("s.json");
        ioco()
            .args(["test", model, "--sim", model, "--runs", "40", "--seed", "5"])
            .args(["--strategy", strategy, "--json"])
            .arg(&json)
            .assert()
            .code(0);
        let s = summary(&json);
        let mut deltas = 0;
        for r in &s.runs {
            let t: Vec<String> = r.trace.iter().map(|l| l.to_string()).collect();
            assert!(no_delta_delta(&t), "{model} {strategy}: {t:?}");
            deltas += t.iter().filter(|l| *l == "δ").count();
        }
        assert!(deltas > 0, "{model}: quiescence was observed at all");
    }
}

#[test]
fn n_complete_access_sequences_have_no_delta_delta() {
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
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&suite).unwrap()).unwrap();
    let tests = v["tests"].as_array().unwrap();
    assert!(!tests.is_empty());
    for t in tests {
        let purpose = t["purpose"].as_str().unwrap();
        assert!(!purpose.contains("δ δ"), "{purpose}");
    }
}
