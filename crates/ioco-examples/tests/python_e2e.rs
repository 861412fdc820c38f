//! End to end: the Python coffee machine (`examples/coffee/coffee_sut.py`, same modes as the
//! Rust one) under ioco-exec's online tester. Skipped, with a note, when `python3` is missing.

mod common;

use common::*;
use ioco_examples::{explore, Coffee, CoffeeMode};
use ioco_exec::RunVerdict;
use ioco_sut::process::ResetMode;
use std::time::Duration;

const SPEC: &str = "examples/coffee/coffee.aut";

fn python() -> Option<String> {
    let ok = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        Some(
            root()
                .join("examples/coffee/coffee_sut.py")
                .to_string_lossy()
                .into_owned(),
        )
    } else {
        eprintln!("note: python3 is not available; the Python SUT is not tested");
        None
    }
}

/// Fewer runs than for the Rust SUT: every run starts an interpreter.
#[test]
fn python_correct_machine_never_fails() {
    let Some(script) = python() else { return };
    let spec = spec(SPEC);
    let s = session(
        &spec,
        &["python3", &script, "--mode", "correct"],
        &options(10, 50, 5),
    );
    assert_eq!(
        s.summary.verdict,
        RunVerdict::Pass,
        "{}",
        ioco_report_text(&s.summary)
    );
    assert_eq!(s.summary.runs.len(), 10);
    s.assert_no_process_left();
}

/// The `#reset` line of the Python machine (regression test, like the Rust one).
#[test]
fn python_reset_line_keeps_one_interpreter() {
    let Some(script) = python() else { return };
    let spec = spec(SPEC);
    let s = session_with(
        &spec,
        &["python3", &script],
        &options(30, 50, 5),
        ResetMode::Line("#reset".into()),
    );
    assert_eq!(
        s.summary.verdict,
        RunVerdict::Pass,
        "{}",
        ioco_report_text(&s.summary)
    );
    assert_eq!(s.pids.len(), 1);
    s.assert_no_process_left();
}

#[test]
fn python_faults_are_caught_like_the_rust_ones() {
    let Some(script) = python() else { return };
    let spec = spec(SPEC);
    for &(mode, observed, allowed, suffix) in COFFEE_FAULTS {
        let s = session(
            &spec,
            &["python3", &script, "--mode", &mode.name()],
            &options(50, 50, 7),
        );
        let model = explore(Coffee::new(mode), 1000).unwrap();
        check_failure(&s, &model, &spec, observed, allowed, suffix);
        s.assert_no_process_left();
        if mode == CoffeeMode::Crash {
            let r = s.first_failure();
            assert!(
                r.failure
                    .as_ref()
                    .unwrap()
                    .reason
                    .contains("exited with status 1"),
                "{:?}",
                r.failure
            );
            let err = r.stderr.as_deref().unwrap_or_default();
            assert!(
                err.contains("RuntimeError: boiler exploded"),
                "stderr: {err}"
            );
        }
    }
}

#[test]
fn python_hang_is_quiescence_by_timeout() {
    let Some(script) = python() else { return };
    let spec = spec(SPEC);
    let mut opts = options(50, 50, 7);
    opts.quiescence_timeout = Duration::from_millis(1000);
    let s = session(&spec, &["python3", &script, "--bug", "7"], &opts);
    let model = explore(Coffee::new(CoffeeMode::Hang), 1000).unwrap();
    check_failure(
        &s,
        &model,
        &spec,
        "δ",
        &["coffee!", "error!"],
        &["pad?", "button?", "δ"],
    );
    s.assert_no_process_left();
}
