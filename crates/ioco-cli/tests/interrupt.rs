//! An interrupted `ioco test` (Ctrl-C, `kill`, a closed terminal) leaves no process behind:
//! the SUT runs in a process group of its own (so Ctrl-C at the terminal does not reach it),
//! and ioco kills every SUT group before it exits with code 130.

mod common;

use common::{gone, root};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A correct coffee machine in sh that also starts a background child and writes the child's
/// pid to `pidfile` (the grandchild of ioco that must not survive it).
fn sut(pidfile: &Path) -> String {
    format!(
        "sh -c 'sleep 600 & echo $! > {}; s=0; while IFS= read -r l; do case \"$s:$l\" in \
         0:water) s=1;; 1:pad) s=2;; 2:button) s=0; echo coffee;; \
         0:button|1:button) s=0; echo error;; esac; done'",
        pidfile.display()
    )
}

/// Waits until `f` gives a value (generously: the machine may be loaded).
fn wait_for<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        if let Some(x) = f() {
            return x;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn interrupted_by(signal: &str) {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("grandchild.pid");
    let mut ioco = Command::new(env!("CARGO_BIN_EXE_ioco"))
        .args(["test", "examples/coffee/coffee.ioco", "--sut"])
        .arg(sut(&pidfile))
        // one run (one SUT process, never restarted), long enough to be running when the
        // signal comes
        .args(["--runs", "1", "--steps", "10000000", "--seed", "1"])
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = wait_for("the SUT's background child", || {
        let s = std::fs::read_to_string(&pidfile).ok()?;
        let s = s.trim().to_string();
        (!s.is_empty()).then_some(s)
    });
    assert!(!gone(&pid), "the SUT's child should be running now");
    let killed = Command::new("kill")
        .args([signal, &ioco.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = ioco.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
    let mut err = String::new();
    std::io::Read::read_to_string(ioco.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert!(
        err.contains("interrupted; stopped 1 system(s) under test"),
        "{err}"
    );
    wait_for("the SUT's child to be gone", || gone(&pid).then_some(()));
}

#[test]
fn sigint_kills_the_sut_and_its_children() {
    interrupted_by("-INT");
}

#[test]
fn sigterm_kills_the_sut_and_its_children() {
    interrupted_by("-TERM");
}

/// An interrupted session still writes its report files, with the runs finished so far,
/// marked interrupted.
#[test]
fn an_interrupted_session_writes_its_reports() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("report.json");
    let junit = dir.path().join("report.xml");
    let html = dir.path().join("report.html");
    // the SUT notes each start (a run starts it anew), so the test interrupts once runs have
    // finished, however slow the machine
    let starts = dir.path().join("starts");
    let sut = format!(
        "sh -c 'echo started >> {}; exec {} --ack'",
        starts.display(),
        common::example_bin("coffee-sut")
    );
    let mut ioco = Command::new(env!("CARGO_BIN_EXE_ioco"))
        .args(["test", "examples/coffee/coffee.ioco", "--sut", &sut])
        .args([
            "--quiescence-marker",
            "#quiet",
            "--runs",
            "100000000",
            "--steps",
            "5",
        ])
        .args(["--seed", "3", "--keep-going", "--json"])
        .arg(&json)
        .arg("--junit")
        .arg(&junit)
        .arg("--html")
        .arg(&html)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Let some runs finish (the third start means two runs ended), then interrupt.
    wait_for("two runs to finish", || {
        let n = std::fs::read_to_string(&starts).ok()?.lines().count();
        (n >= 3).then_some(())
    });
    let killed = Command::new("kill")
        .args(["-INT", &ioco.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = ioco.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
    let mut err = String::new();
    std::io::Read::read_to_string(ioco.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert!(err.contains("marked interrupted"), "{err}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["parameters"]["interrupted"], true, "{v}");
    assert!(!v["runs"].as_array().unwrap().is_empty(), "{v}");
    assert!(std::fs::read_to_string(&junit)
        .unwrap()
        .contains("<testsuite"));
    // the HTML report too, with the model and the coverage of the runs finished
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("<th>interrupted</th><td><code>true</code>"),
        "{page}"
    );
    assert!(page.contains("class=\"node visited initial\""), "{page}");
}
