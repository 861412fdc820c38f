//! libz3 is loaded on the first solver call, not at start-up (issue #19: the process start of
//! a binary that links Z3 made `ioco gen` slower than hybrid-ADS on small machines). Commands
//! that never solve do not load it, and work without it; a data model without a loadable
//! library never passes and says why.
//!
//! The dynamic loader tells which libraries a process loads (`LD_DEBUG=libs`, written to files
//! with `LD_DEBUG_OUTPUT`), so the tests ask it rather than timing anything.

mod common;

use common::{ioco, ioco_data, write};
use predicates::str::contains;
use std::path::Path;

const COFFEE_STS: &str = "examples/coffee/coffee-sts.ioco";

/// Whether this build loads libz3 lazily (x86_64 Linux unless built with IOCO_Z3_EAGER=1).
fn lazy() -> bool {
    ioco_z3_lazy::is_lazy()
}

/// Every library the loader mapped, from the LD_DEBUG files of the processes in `dir`.
fn loaded(dir: &Path) -> String {
    let mut all = String::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        if e.file_name().to_string_lossy().starts_with("ld.") {
            all.push_str(&std::fs::read_to_string(e.path()).unwrap_or_default());
        }
    }
    assert!(all.contains("calling init"), "LD_DEBUG wrote nothing");
    all
}

fn mealy(dir: &Path) -> std::path::PathBuf {
    write(
        dir,
        "m.dot",
        "digraph m {\n  __start0 [label=\"\", shape=none];\n  __start0 -> s0;\n  \
         s0 -> s1 [label=\"a / x\"];\n  s0 -> s0 [label=\"b / y\"];\n  \
         s1 -> s0 [label=\"a / y\"];\n  s1 -> s1 [label=\"b / x\"];\n}\n",
    )
}

#[test]
fn generating_and_running_a_mealy_suite_never_loads_the_solver() {
    if !lazy() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let spec = mealy(dir.path());
    let suite = dir.path().join("s.json");
    let logs = dir.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    ioco()
        .env("LD_DEBUG", "libs")
        .env("LD_DEBUG_OUTPUT", logs.join("ld"))
        .args(["gen"])
        .arg(&spec)
        .args(["--method", "hads", "--extra-states", "1", "-o"])
        .arg(&suite)
        .assert()
        .code(0);
    ioco()
        .env("LD_DEBUG", "libs")
        .env("LD_DEBUG_OUTPUT", logs.join("ld"))
        .arg("run")
        .arg(&spec)
        .arg(&suite)
        .arg("--sim")
        .arg(&spec)
        .assert()
        .code(0);
    let libs = loaded(&logs);
    assert!(!libs.contains("libz3"), "libz3 was loaded:\n{libs}");
    // the control: the same probe sees the libraries that are loaded
    assert!(libs.contains("libc.so"), "{libs}");
}

#[test]
fn a_data_model_loads_the_solver_when_it_needs_it() {
    if !lazy() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    ioco_data()
        .env("LD_DEBUG", "libs")
        .env("LD_DEBUG_OUTPUT", dir.path().join("ld"))
        .args(["test", COFFEE_STS, "--sim", COFFEE_STS])
        .args(["--runs", "2", "--steps", "10", "--seed", "1"])
        .assert()
        .code(0)
        .stdout(contains("PASS"));
    assert!(loaded(dir.path()).contains("libz3"));
}

#[test]
fn without_the_library_explicit_work_goes_on_and_data_work_never_passes() {
    if !lazy() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let spec = mealy(dir.path());
    let suite = dir.path().join("s.json");
    let missing = dir.path().join("no/libz3.so");
    ioco()
        .env(ioco_z3_lazy::LIBRARY_VAR, &missing)
        .args(["gen"])
        .arg(&spec)
        .args(["--method", "w", "-o"])
        .arg(&suite)
        .assert()
        .code(0);
    ioco()
        .env(ioco_z3_lazy::LIBRARY_VAR, &missing)
        .args(["test", "examples/models/music-spec.aut", "--sim"])
        .arg("examples/models/music-spec.aut")
        .args(["--runs", "3", "--seed", "1"])
        .assert()
        .code(0);
    let out = ioco_data()
        .env(ioco_z3_lazy::LIBRARY_VAR, &missing)
        .args(["test", COFFEE_STS, "--sim", COFFEE_STS])
        .args(["--runs", "2", "--steps", "10", "--seed", "1"])
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_ne!(
        out.status.code(),
        Some(0),
        "passed without a solver:\n{text}"
    );
    assert_ne!(
        out.status.code(),
        Some(1),
        "failed without a solver:\n{text}"
    );
    assert!(text.contains("cannot be loaded"), "{text}");
    assert!(text.contains(ioco_z3_lazy::LIBRARY_VAR), "no hint:\n{text}");
}
