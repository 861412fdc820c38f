//! Issue #35, reading back: `ioco report` and `ioco replay` read a results file one run at a
//! time (`ioco_report::read`), the passing runs to a spool, not to memory. The reports are
//! those of the session that wrote the file, errors still name file:line:col, and a results
//! file of 200 000 runs is reported in less memory than the file's size.

mod common;

use common::ioco;
use predicates::prelude::PredicateBooleanExt as _;
use predicates::str::contains;
use std::io::Write;
use std::path::Path;

/// `ioco test` of the coffee machine against its buggy simulation: `runs` short runs, some
/// failing, none stopping the session.
fn coffee_bug_session(runs: usize) -> assert_cmd::Command {
    let mut c = ioco();
    c.args([
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
        "--runs",
    ])
    .arg(runs.to_string());
    c
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

/// The reports `ioco report` writes from a session's results file are the session's own
/// (which `crates/ioco-report/tests/spool.rs` shows are those of the whole summary): JSON,
/// JUnit, Markdown, HTML and the verbose text, byte for byte; the shards of a session merge
/// into the same JSON as the whole session's file merged alone.
#[test]
fn reports_from_a_file_read_one_run_at_a_time_are_the_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    let session = |extra: &[&str]| {
        let mut c = coffee_bug_session(90);
        c.args(extra);
        c
    };
    let out = session(&["--verbose"])
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
    let s = common::summary(&p("r.json"));
    let passing = s
        .runs
        .iter()
        .filter(|r| r.verdict == ioco_exec::RunVerdict::Pass)
        .count();
    assert!(passing > 0 && passing < s.runs.len(), "{passing} passing");
    let text = ioco()
        .arg("report")
        .arg(p("r.json"))
        .arg("--verbose")
        .arg("--junit")
        .arg(p("b.xml"))
        .arg("--markdown")
        .arg(p("b.md"))
        .arg("--html")
        .arg(p("b.html"))
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    assert_eq!(
        String::from_utf8(text).unwrap(),
        String::from_utf8(out).unwrap()
    );
    assert!(
        read(&p("a.xml")) == read(&p("b.xml")),
        "the JUnit reports differ"
    );
    assert!(
        read(&p("a.md")) == read(&p("b.md")),
        "the Markdown reports differ"
    );
    // the page of the session names its command line, `ioco report`'s the results' own
    let page = |n: &str| {
        read(&p(n))
            .lines()
            .filter(|l| !l.starts_with("<tr><th>command</th>"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let (a, b) = (page("a.html"), page("b.html"));
    if let Some((x, y)) = a.lines().zip(b.lines()).find(|(x, y)| x != y) {
        panic!("the HTML pages differ:\n{x:.500}\n---\n{y:.500}");
    }
    assert_eq!(a.len(), b.len());
    // only the command line is left out
    assert_eq!(read(&p("a.html")).lines().count(), a.lines().count() + 1);
    assert_eq!(read(&p("b.html")).matches("<tr class=\"run ").count(), 90);
    // the summary alone (its passing runs counted, not spooled): the text of the others
    let alone = |extra: &[&str]| {
        let out = ioco()
            .arg("report")
            .arg(p("r.json"))
            .args(extra)
            .assert()
            .code(1)
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap()
    };
    let x = p("x.xml").display().to_string();
    assert_eq!(alone(&[]), alone(&["--junit", &x]));
    assert!(alone(&[]).starts_with("FAIL: 90 runs ("), "{}", alone(&[]));
    // the JSON written back is the file, and reads back through standard output too
    ioco()
        .arg("report")
        .arg(p("r.json"))
        .arg("--json")
        .arg(p("b.json"))
        .assert()
        .code(1);
    assert!(read(&p("r.json")) == read(&p("b.json")), "the JSON differs");
    let json = ioco()
        .arg("report")
        .arg(p("r.json"))
        .args(["--json", "-"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8(json).unwrap() == read(&p("r.json")));

    // three shards merged: the runs of the whole session, the same JUnit as the whole
    // session's but for its name and times
    for k in 1..=3 {
        session(&["--shard", &format!("{k}/3")])
            .arg("--json")
            .arg(p(&format!("s{k}.json")))
            .assert()
            .code(predicates::ord::eq(0).or(predicates::ord::eq(1)));
    }
    ioco()
        .arg("report")
        .args([p("s1.json"), p("s2.json"), p("s3.json")])
        .arg("--json")
        .arg(p("m.json"))
        .arg("--junit")
        .arg(p("m.xml"))
        .assert()
        .code(1);
    let m = common::summary(&p("m.json"));
    // the runs of the whole session but for the times they took
    let key = |s: &ioco_exec::Summary| {
        s.runs
            .iter()
            .map(|r| (r.run, r.seed, r.verdict, r.trace.clone(), r.failure.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(key(&m), key(&s));
    assert_eq!(m.parameters["shards"], "1/3, 2/3, 3/3");
    let cases = |x: &str| {
        x.lines()
            .filter(|l| l.trim_start().starts_with("<testcase "))
            .map(|l| {
                l.split(' ')
                    .filter(|w| !w.starts_with("time="))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(cases(&read(&p("m.xml"))), cases(&read(&p("a.xml"))));
    assert_eq!(cases(&read(&p("m.xml"))).len(), 90);
    // a shard given twice: refused with merge's message
    ioco()
        .arg("report")
        .args([p("s1.json"), p("s2.json"), p("s1.json")])
        .assert()
        .code(2)
        .stderr(contains("run 0 is in "))
        .stderr(contains("different shards"));
}

/// A file that is not a results file: file:line:col, what is wrong, the hint; as before.
#[test]
fn a_malformed_results_file_is_named_with_its_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        "{\n  \"mode\": \"online\",\n  \"seed\": 1,\n  \"verdict\": \"pass\",\n  \"runs\": [\n    {\"run\": 0, \"seed\": \"x\"}\n  ]\n}\n",
    )
    .unwrap();
    ioco()
        .arg("report")
        .arg(&bad)
        .args(["--junit", "-"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains(format!(
            "{}:6:26: not a result file",
            bad.display()
        )))
        .stderr(contains("expected u64 at line 6 column 26"))
        .stderr(contains("give the JSON written by `ioco test --json`"));
    let cut = dir.path().join("cut.json");
    std::fs::write(&cut, "{\n  \"mode\": \"online\",\n  \"runs\": [").unwrap();
    ioco()
        .arg("report")
        .arg(&cut)
        .assert()
        .code(2)
        .stderr(contains(format!(
            "{}:3:11: not a result file",
            cut.display()
        )))
        .stderr(contains("EOF while parsing"));
    ioco()
        .arg("report")
        .arg(dir.path().join("none.json"))
        .assert()
        .code(2)
        .stderr(contains("cannot read "));
    // replay: the same place, and a run the file does not have
    ioco()
        .args(["replay", "examples/models/coffee.aut"])
        .arg(&bad)
        .args(["--sim", "examples/models/coffee.aut"])
        .assert()
        .code(2)
        .stderr(contains(format!("{}:", bad.display())));
}

/// `ioco replay` picks its run from the file read one run at a time: the first failing run
/// by default, `--run K` another, and says how many runs there are when K is not one.
#[test]
fn replay_finds_its_run_reading_one_run_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path().join("r.json");
    coffee_bug_session(30)
        .arg("--json")
        .arg(&r)
        .assert()
        .code(1);
    let s = common::summary(&r);
    let fail = s.first_failure().expect("a failing run").run;
    let pass = s
        .runs
        .iter()
        .find(|r| r.verdict == ioco_exec::RunVerdict::Pass)
        .expect("a passing run")
        .run;
    let replay = || {
        let mut c = ioco();
        c.args(["replay", "examples/models/coffee.aut"])
            .arg(&r)
            .args(["--sim", "examples/models/coffee-bug.aut", "--timeout", "50"]);
        c
    };
    replay()
        .assert()
        .code(1)
        .stderr(contains(format!("ioco replay: run {fail} (seed ")));
    replay()
        .args(["--run", &pass.to_string()])
        .assert()
        .code(0)
        .stderr(contains(format!("ioco replay: run {pass} (seed ")));
    replay()
        .args(["--run", "77"])
        .assert()
        .code(2)
        .stderr(contains("no run 77 among 30 runs"));
}

/// The peak resident memory of `cmd` in KB (its VmHWM, read while it runs) and its exit code.
fn peak_kb(mut cmd: std::process::Command) -> (u64, Option<i32>) {
    let mut child = cmd
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("ioco starts");
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(s) = std::fs::read_to_string(&status) {
            if let Some(kb) = s
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak = peak.max(kb);
            }
        }
        if let Some(st) = child.try_wait().expect("wait") {
            return (peak, st.code());
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// `ioco report` of a results file of 200 000 runs (40 MB) peaks below the file's size:
/// the file is not read into memory, nor are its passing runs kept. (Reading it whole, as
/// before, took 183 MB with the debug build.)
#[test]
fn a_big_results_file_is_reported_in_less_memory_than_its_size() {
    if !Path::new("/proc/self/status").exists() {
        eprintln!("no /proc: the peak memory cannot be read here");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.json");
    let n = 200_000usize;
    let mut runs = Vec::with_capacity(n);
    for k in 0..n {
        let mut r = ioco_exec::RunResult::new(k, (k as u64).wrapping_mul(7919));
        r.trace = ["coin?", "coffee!", "δ"].into_iter().collect();
        r.steps = 3;
        r.duration_ms = 0.25;
        if k % 1000 == 999 {
            r.verdict = ioco_exec::RunVerdict::Fail;
        }
        runs.push(r);
    }
    let mut s = ioco_exec::Summary::new("online", 5, runs);
    s.parameters
        .insert("model".into(), "examples/models/coffee.aut".into());
    let text = ioco_report::to_json(&s) + "\n";
    drop(s);
    let mut f = std::fs::File::create(&big).unwrap();
    f.write_all(text.as_bytes()).unwrap();
    drop(f);
    let size_kb = text.len() as u64 / 1024;
    drop(text);
    let xml = dir.path().join("x.xml");
    let json = dir.path().join("y.json");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ioco"));
    cmd.current_dir(common::root())
        .arg("report")
        .arg(&big)
        .arg("--junit")
        .arg(&xml)
        .arg("--json")
        .arg(&json);
    let (peak, code) = peak_kb(cmd);
    assert_eq!(code, Some(1), "the verdict of the file: Fail");
    eprintln!("ioco report of {size_kb} KB of results: peak {peak} KB");
    assert!(peak > 0, "the peak was read");
    assert!(
        peak < size_kb,
        "peak {peak} KB, not below the file's {size_kb} KB"
    );
    // the reports list every run: the JSON is the file
    assert!(
        read(&json) == read(&big),
        "the JSON written back is the file"
    );
    let x = read(&xml);
    assert_eq!(x.matches("<testcase ").count(), n);
    assert_eq!(x.matches("<failure").count(), n / 1000);
}
