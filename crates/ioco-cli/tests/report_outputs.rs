//! Report conventions from the binary: `--json -` / `--junit -` / `--markdown -` / `--html -`
//! write to standard output (the text summary then goes to standard error; only one report
//! can), `ioco report` converts saved results the same way, and `--version` names the commit.

mod common;

use common::ioco;
use predicates::str::contains;

fn sim(extra: &[&str]) -> assert_cmd::Command {
    let mut c = ioco();
    c.args([
        "test",
        "examples/models/coffee.aut",
        "--sim",
        "examples/models/coffee-bug.aut",
    ])
    .args(["--runs", "5", "--seed", "3", "--timeout", "50"])
    .args(extra);
    c
}

#[test]
fn a_report_on_standard_output_moves_the_summary_to_standard_error() {
    let out = sim(&["--json", "-"])
        .assert()
        .code(1)
        .stderr(contains("FAIL: "))
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).expect("stdout is the JSON alone");
    assert_eq!(v["verdict"], "fail");
    sim(&["--junit", "-"])
        .assert()
        .code(1)
        .stdout(predicates::str::starts_with("<?xml"))
        .stdout(contains("<failure"));
    sim(&["--html", "-"])
        .assert()
        .code(1)
        .stdout(predicates::str::starts_with("<!DOCTYPE html>"))
        .stdout(contains("class=\"step failing"));
    // two reports cannot share standard output: refused before anything runs
    sim(&["--json", "-", "--markdown", "-"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("only one report can go to standard output"))
        .stderr(contains("--json and --markdown"));
}

#[test]
fn ioco_report_converts_saved_results() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    sim(&["--json"]).arg(&json).assert().code(1);
    let md = ioco()
        .arg("report")
        .arg(&json)
        .args(["--markdown", "-"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let md = String::from_utf8(md).unwrap();
    assert!(md.starts_with("# ioco test report: **FAIL**"), "{md}");
    let junit = dir.path().join("j.xml");
    let html = dir.path().join("r.html");
    ioco()
        .arg("report")
        .arg(&json)
        .arg("--junit")
        .arg(&junit)
        .arg("--html")
        .arg(&html)
        .assert()
        .code(1);
    assert!(std::fs::read_to_string(&junit)
        .unwrap()
        .contains("<failure"));
    let page = std::fs::read_to_string(&html).unwrap();
    // the replay command names the results file it was made from
    assert!(
        page.contains(&format!(
            "examples/models/coffee.aut {} --run",
            json.display()
        )),
        "{page}"
    );
}

#[test]
fn version_names_the_commit_when_built_from_git() {
    let out = ioco()
        .arg("--version")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v = String::from_utf8(out).unwrap();
    assert!(
        v.starts_with(&format!("ioco {}", env!("CARGO_PKG_VERSION"))),
        "{v}"
    );
    let in_git = std::process::Command::new("git")
        .args(["rev-parse", "--short=8", "HEAD"])
        .current_dir(common::root())
        .output()
        .is_ok_and(|o| o.status.success());
    if in_git {
        // `ioco 0.1.0 (1a2b3c4d)` or `(1a2b3c4d-dirty)`
        let hash = v
            .split('(')
            .nth(1)
            .and_then(|r| r.split(')').next())
            .unwrap_or("");
        let hex = hash.trim_end_matches("-dirty");
        assert!(
            hex.len() == 8 && hex.chars().all(|c| c.is_ascii_hexdigit()),
            "{v}"
        );
    }
}

#[test]
fn help_lists_the_exit_codes() {
    ioco()
        .arg("--help")
        .assert()
        .code(0)
        .stdout(contains("Exit codes:\n  0    pass"))
        .stdout(contains("  3    inconclusive"))
        .stdout(contains("  130  interrupted"));
}

/// Issue #35 item 3: a session whose reports list every run keeps only the runs that did not
/// pass and writes every run to a spool as it ends; the reports read them back from it. They
/// are the reports of the whole session: the JSON lists every run in run order and omits
/// none, and the JUnit and Markdown written during the session are those `ioco report` makes
/// from that JSON in memory. The verbose text lists every passing run.
#[test]
fn reports_of_every_run_are_written_from_the_spool() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    let runs = 120;
    let out = ioco()
        .args([
            "test",
            "examples/models/coffee.aut",
            "--sim",
            "examples/models/coffee-bug.aut",
            "--seed",
            "5",
            "--timeout",
            "50",
            "--keep-going",
            "--depth",
            "2",
            "--jobs",
            "2",
            "--verbose",
        ])
        .args(["--runs", &runs.to_string()])
        .arg("--json")
        .arg(p("r.json"))
        .arg("--junit")
        .arg(p("a.xml"))
        .arg("--markdown")
        .arg(p("a.md"))
        .arg("--html")
        .arg(p("a.html"))
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let s = common::summary(&p("r.json"));
    assert_eq!(s.runs.len(), runs);
    assert!(s.omitted.is_empty());
    assert!(
        s.runs.iter().enumerate().all(|(k, r)| r.run == k),
        "run order"
    );
    let passing = s
        .runs
        .iter()
        .filter(|r| r.verdict == ioco_exec::RunVerdict::Pass)
        .count();
    assert!(passing > 0 && passing < runs, "{passing} passing runs");
    assert_eq!(text.matches(" pass (seed ").count(), passing, "{text}");
    ioco()
        .arg("report")
        .arg(p("r.json"))
        .arg("--junit")
        .arg(p("b.xml"))
        .arg("--markdown")
        .arg(p("b.md"))
        .assert()
        .code(1);
    let read = |n: &str| std::fs::read_to_string(p(n)).unwrap();
    assert_eq!(read("a.xml"), read("b.xml"));
    assert_eq!(read("a.xml").matches("<testcase ").count(), runs);
    assert_eq!(read("a.md"), read("b.md"));
    let html = read("a.html");
    assert!(
        html.contains("class=\"step failing"),
        "the failing run is drawn"
    );
    assert_eq!(html.matches("<tr class=\"run ").count(), runs);
}
