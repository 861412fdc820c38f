//! Shrinking is bounded in time, shows progress, and Ctrl-C keeps the Fail (issue #20 item 6).
//! Before, ddmin with every δ paying the full time-out ran for more than 15 minutes on a queue
//! fault, silently, and Ctrl-C threw the Fail away.

mod common;
use common::{ioco, root, write};
use predicates::str::contains;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::Duration;

/// An echo of digits that answers its 12th input with a wrong digit (no marker: time-out mode,
/// as with most real programs).
const LATE_FAULT: &str = r#"import sys
n = 0
for line in sys.stdin:
    w = line.split()
    n += 1
    d = int(w[1])
    print("Out", (d + 1) % 10 if n == 12 else d, flush=True)
"#;

fn args(py: &std::path::Path) -> Vec<String> {
    [
        "test",
        "examples/torxakis/echo.ioco",
        "--sut",
        &format!("python3 {}", py.display()),
        "--runs",
        "1",
        "--steps",
        "60",
        "--seed",
        "4",
        // generous: a loaded machine may answer late, and a late answer read as δ would be
        // another failure than the 12th input's (the echo never needs a δ to fail)
        "--timeout",
        "2000",
        "--shrink",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

#[test]
fn a_time_budget_bounds_shrinking_and_the_result_says_it_is_not_minimal() {
    let dir = tempfile::tempdir().unwrap();
    let py = write(dir.path(), "late.py", LATE_FAULT);
    ioco()
        .args(args(&py))
        .args(["--shrink-time", "1s"])
        .timeout(Duration::from_secs(600))
        .assert()
        .code(1)
        .stdout(contains("not minimal: the time budget of 1.0 s was spent"))
        .stdout(contains("--shrink-time"))
        .stderr(contains("shrinking its 12 input(s)"))
        .stderr(contains("stopped early"));
}

#[test]
fn ctrl_c_while_shrinking_keeps_and_reports_the_fail() {
    let dir = tempfile::tempdir().unwrap();
    let py = write(dir.path(), "late.py", LATE_FAULT);
    let json = dir.path().join("r.json");
    let child = Command::new(env!("CARGO_BIN_EXE_ioco"))
        .args(args(&py))
        .args(["--shrink-time", "10min", "--json"])
        .arg(&json)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut guard = common::KillOnDrop(child);
    let child = &mut guard.0;
    // wait (generously) until shrinking has started, then interrupt
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        if err.read_line(&mut line).unwrap() == 0 {
            panic!("ioco ended before shrinking: {seen}");
        }
        seen += &line;
        if line.contains("shrinking its") {
            break;
        }
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let mut rest = String::new();
    err.read_to_string(&mut rest).unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1), "{out}\n{seen}{rest}");
    assert!(rest.contains("interrupted while shrinking"), "{rest}");
    assert!(out.contains("FAIL"), "{out}");
    assert!(out.contains("interrupted (Ctrl-C)"), "{out}");
    // the report file has the Fail too
    let s = common::summary(&json);
    assert_eq!(s.verdict, ioco_exec::RunVerdict::Fail);
}
