//! No process outlives `ioco`: not a SUT's daemonised grandchild (`setsid`, which leaves the
//! SUT's process group), and not the SUT of a tester killed with SIGKILL (which can run no
//! clean-up). Linux guarantees; see `ioco_sut::process`.

#![cfg(target_os = "linux")]

mod common;

use common::{gone, marked_by, root};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A coffee machine in sh (answers without a marker) that first appends `$$` of a child in a
/// session of its own (`setsid`) to `pidfile`, or its own pid when `daemon` is false (and then
/// stays when its input ends).
fn sut(pidfile: &Path, daemon: bool) -> String {
    // Without a daemon, the SUT outlives the end of its input (`exec sleep`): only a kill
    // ends it.
    let end = if daemon { "" } else { "exec sleep 600" };
    let start = if daemon {
        format!(
            "setsid sh -c \"echo \\$\\$ >> {}; exec sleep 600\" &",
            pidfile.display()
        )
    } else {
        format!("echo $$ >> {};", pidfile.display())
    };
    format!(
        "sh -c '{start} s=0; while IFS= read -r l; do case \"$s:$l\" in \
         0:water) s=1;; 1:pad) s=2;; 2:button) s=0; echo coffee;; \
         0:button|1:button) s=0; echo error;; esac; done; {end}'"
    )
}

fn wait_for(what: &str, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// What /proc says of `pid` (for a failure message).
fn describe(pid: &str) -> String {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
    let token = env
        .split(|&b| b == 0)
        .find(|v| v.starts_with(b"IOCO_SUT_TOKEN="))
        .map(|v| String::from_utf8_lossy(v).into_owned());
    format!(
        "pid {pid}: stat {stat:?}, cmdline {:?}, token {token:?}",
        String::from_utf8_lossy(&cmd)
    )
}

fn pids(pidfile: &Path) -> Vec<String> {
    std::fs::read_to_string(pidfile)
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn daemonised_grandchildren_of_the_sut_are_killed() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("daemons");
    let mut ioco = Command::new(env!("CARGO_BIN_EXE_ioco"))
        .args(["test", "examples/coffee/coffee.ioco", "--sut"])
        .arg(sut(&pidfile, true))
        .args([
            "--runs",
            "5",
            "--steps",
            "4",
            "--seed",
            "1",
            "--timeout",
            "300",
        ])
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = ioco.id();
    let status = ioco.wait().unwrap();
    assert!(matches!(status.code(), Some(0 | 1)), "{status:?}");
    // Every daemon that got to write its pid, and every process with the mark of one of this
    // tester's SUTs, is gone once ioco has exited.
    for d in pids(&pidfile) {
        wait_for(&format!("the daemon to be gone ({})", describe(&d)), || {
            gone(&d)
        });
    }
    let left = marked_by(pid);
    wait_for(
        &format!(
            "no marked process left ({:?})",
            left.iter()
                .map(|p| describe(&p.to_string()))
                .collect::<Vec<_>>()
        ),
        || marked_by(pid).is_empty(),
    );
    assert!(
        !pids(&pidfile).is_empty(),
        "the SUT should have started a daemon"
    );
}

#[test]
fn the_sut_dies_with_a_tester_killed_by_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("sut");
    let mut ioco = Command::new(env!("CARGO_BIN_EXE_ioco"))
        .args(["test", "examples/coffee/coffee.ioco", "--sut"])
        .arg(sut(&pidfile, false))
        .args(["--runs", "1", "--steps", "10000000", "--seed", "1"])
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for("the SUT to start", || !pids(&pidfile).is_empty());
    let sut = pids(&pidfile)[0].clone();
    assert!(!gone(&sut));
    ioco.kill().unwrap(); // SIGKILL: no handler runs in ioco
    ioco.wait().unwrap();
    wait_for("the SUT to die with its tester", || gone(&sut));
}
