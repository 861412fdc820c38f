//! `--shard K/N` on `ioco test` and `ioco run`, and merging the shards' results with
//! `ioco report A.json B.json … --json all.json`: the N shards of a session with one seed run
//! exactly the runs (and suite tests) of the unsharded session.

mod common;

use common::{example_bin, ioco};
use predicates::str::contains;
use std::path::Path;

/// run index, seed, verdict and trace of every run of a result file.
fn runs(path: &Path) -> Vec<(u64, u64, String, String)> {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["run"].as_u64().unwrap(),
                r["seed"].as_u64().unwrap(),
                r["verdict"].as_str().unwrap().to_string(),
                r["trace"].to_string(),
            )
        })
        .collect()
}

fn session(dir: &Path, name: &str, cmd: &[&str], shard: Option<&str>) -> std::path::PathBuf {
    let out = dir.join(name);
    let mut c = ioco();
    c.args(cmd)
        .args(["--seed", "5", "--keep-going", "--json"])
        .arg(&out);
    if let Some(s) = shard {
        c.args(["--shard", s]);
    }
    let done = c.assert().get_output().clone();
    let code = done.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "{code:?}: {}",
        String::from_utf8_lossy(&done.stderr)
    );
    out
}

/// For a suite the seed of a test's result is that of its last try, and how many tries a test
/// takes depends on the evidence of the whole session (thesis §2.7.4): compared without it.
fn without_seed(r: Vec<(u64, u64, String, String)>) -> Vec<(u64, String, String)> {
    r.into_iter().map(|(k, _, v, t)| (k, v, t)).collect()
}

fn shards_equal_the_whole(cmd: &[&str], seeds: bool) {
    let dir = tempfile::tempdir().unwrap();
    let whole = session(dir.path(), "whole.json", cmd, None);
    let parts: Vec<_> = (1..=3)
        .map(|k| {
            session(
                dir.path(),
                &format!("s{k}.json"),
                cmd,
                Some(&format!("{k}/3")),
            )
        })
        .collect();
    // shard 2 of 3 has runs 1, 4, 7, …
    assert!(
        runs(&parts[1]).iter().all(|r| r.0 % 3 == 1),
        "{:?}",
        runs(&parts[1])
    );
    let merged = dir.path().join("merged.json");
    let code = ioco()
        .arg("report")
        .arg("merge")
        .args(&parts)
        .arg("--json")
        .arg(&merged)
        .output()
        .expect("ioco runs")
        .status
        .code();
    if seeds {
        assert_eq!(runs(&merged), runs(&whole));
    } else {
        assert_eq!(without_seed(runs(&merged)), without_seed(runs(&whole)));
    }
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&merged).unwrap()).unwrap();
    assert_eq!(v["parameters"]["shards"], "1/3, 2/3, 3/3", "{v}");
    // the merge exits with the merged verdict, as `ioco test` does
    let whole: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&whole).unwrap()).unwrap();
    assert_eq!(v["verdict"], whole["verdict"]);
    let expected = match v["verdict"].as_str() {
        Some("pass") => 0,
        Some("fail") => 1,
        other => panic!("verdict {other:?}"),
    };
    assert_eq!(code, Some(expected), "{v}");
}

#[test]
fn three_shards_of_online_runs_are_the_whole_session() {
    shards_equal_the_whole(
        &[
            "test",
            "examples/models/coffee.aut",
            "--sim",
            "examples/models/coffee-bug.aut",
            "--runs",
            "14",
            "--timeout",
            "30",
        ],
        true,
    );
}

#[test]
fn three_shards_of_a_suite_are_the_whole_suite() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.json");
    ioco()
        .args([
            "gen",
            "examples/models/music-spec.aut",
            "--method",
            "n-complete",
            "--n",
            "1",
            "-o",
        ])
        .arg(&suite)
        .assert()
        .code(0);
    let s = suite.display().to_string();
    // a simulated mutant that answers as the model says, never racing (some tests pass, some
    // fail)
    shards_equal_the_whole(
        &[
            "run",
            "examples/models/music-spec.aut",
            &s,
            "--sim",
            "examples/models/music-early.aut",
            "--race",
            "0",
            "--timeout",
            "30",
        ],
        false,
    );
}

#[test]
fn bad_shards_and_foreign_results_are_refused() {
    ioco()
        .args([
            "test",
            "examples/models/coffee.aut",
            "--sim",
            "examples/models/coffee.aut",
        ])
        .args(["--shard", "0/3"])
        .assert()
        .code(2)
        .stderr(contains("write K/N with 1 ≤ K ≤ N"));
    let dir = tempfile::tempdir().unwrap();
    let cmd = [
        "test",
        "examples/models/coffee.aut",
        "--sim",
        "examples/models/coffee.aut",
        "--runs",
        "2",
        "--timeout",
        "30",
    ];
    let a = session(dir.path(), "a.json", &cmd, None);
    let mut c = ioco();
    let b = dir.path().join("b.json");
    c.args(cmd)
        .args(["--seed", "6", "--json"])
        .arg(&b)
        .assert()
        .code(0);
    ioco()
        .arg("report")
        .arg(&a)
        .arg(&b)
        .args(["--json", "-"])
        .assert()
        .code(2)
        .stderr(contains("is of another session"));
    ioco()
        .arg("report")
        .arg(&a)
        .arg(&a)
        .args(["--json", "-"])
        .assert()
        .code(2)
        .stderr(contains("run 0 is in"));
}

#[test]
fn a_shard_of_a_data_session_with_its_json_on_standard_output() {
    let sut = format!("{} --ack", example_bin("coffee-sts-sut"));
    let out = common::ioco_data()
        .args(["test", "examples/coffee/coffee-sts.ioco", "--sut", &sut])
        .args([
            "--quiescence-marker",
            "#quiet",
            "--steps",
            "10",
            "--runs",
            "5",
            "--seed",
            "7",
        ])
        .args(["--shard", "2/2", "--json", "-"])
        .assert()
        .code(0)
        .stderr(contains("switch coverage: "))
        .get_output()
        .stdout
        .clone();
    // standard output is the JSON alone
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let ks: Vec<u64> = v["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["run"].as_u64().unwrap())
        .collect();
    assert_eq!(ks, vec![1, 3]);
    assert_eq!(v["parameters"]["shard"], "2/2");
}

/// The variables `--shard auto` reads (cleared first: the test may itself run in a CI job).
const CI_VARS: [&str; 9] = [
    "IOCO_SHARD_INDEX",
    "IOCO_SHARD_TOTAL",
    "CI_NODE_INDEX",
    "CI_NODE_TOTAL",
    "BUILDKITE_PARALLEL_JOB",
    "BUILDKITE_PARALLEL_JOB_COUNT",
    "CIRCLE_NODE_INDEX",
    "CIRCLE_NODE_TOTAL",
    "JOB_COMPLETION_INDEX",
];

/// `ioco test … --shard SHARD --json OUT` with only `vars` of the CI variables set.
fn auto_session(out: &Path, shard: &str, vars: &[(&str, &str)]) -> assert_cmd::assert::Assert {
    let mut c = ioco();
    for v in CI_VARS {
        c.env_remove(v);
    }
    c.envs(vars.iter().copied())
        .args(["test", "examples/models/coffee.aut", "--sim"])
        .args([
            "examples/models/coffee-bug.aut",
            "--runs",
            "12",
            "--seed",
            "5",
        ])
        .args(["--keep-going", "--shard", shard, "--json"])
        .arg(out)
        .assert()
}

/// `--shard auto` in each CI system: the same runs as the `--shard K/N` it names, and the
/// source said on standard error.
#[test]
fn shard_auto_reads_the_ci_variables() {
    let dir = tempfile::tempdir().unwrap();
    let fixed = dir.path().join("fixed.json");
    auto_session(&fixed, "2/3", &[]).code(1);
    for (vars, from) in [
        (
            &[("IOCO_SHARD_INDEX", "2"), ("IOCO_SHARD_TOTAL", "3")][..],
            "from IOCO_SHARD_INDEX/IOCO_SHARD_TOTAL",
        ),
        (
            &[("CI_NODE_INDEX", "2"), ("CI_NODE_TOTAL", "3")],
            "GitLab CI",
        ),
        (
            &[
                ("BUILDKITE_PARALLEL_JOB", "1"),
                ("BUILDKITE_PARALLEL_JOB_COUNT", "3"),
            ],
            "Buildkite",
        ),
        (
            &[("CIRCLE_NODE_INDEX", "1"), ("CIRCLE_NODE_TOTAL", "3")],
            "CircleCI",
        ),
        (
            &[("JOB_COMPLETION_INDEX", "1"), ("IOCO_SHARD_TOTAL", "3")],
            "Kubernetes indexed Job",
        ),
    ] {
        let out = dir.path().join("auto.json");
        auto_session(&out, "auto", vars)
            .code(1)
            .stderr(contains("ioco: --shard auto: shard 2/3"))
            .stderr(contains(from));
        assert_eq!(runs(&out), runs(&fixed), "{vars:?}");
    }
    // no CI variables: an error that says what to set
    let out = dir.path().join("none.json");
    auto_session(&out, "auto", &[])
        .code(2)
        .stderr(contains("IOCO_SHARD_INDEX"))
        .stderr(contains("--shard K/N"));
}
