//! End to end: ioco-exec's online tester against the real `coffee-sut` binary, every mode.
//! The correct machine never fails; every faulty one is caught with the expected
//! counterexample; crash, hang, garbage and flood end in a verdict in bounded time with no
//! process left behind.

mod common;

use common::*;
use ioco_examples::{explore, Coffee, CoffeeMode};
use ioco_exec::RunVerdict;
use ioco_sut::process::ResetMode;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_coffee-sut");
const SPEC: &str = "examples/coffee/coffee.aut";

#[test]
fn correct_machine_never_fails() {
    let spec = spec(SPEC);
    for seed in [1, 2] {
        let s = session(&spec, &[BIN, "--mode", "correct"], &options(30, 50, seed));
        assert_eq!(s.summary.runs.len(), 30);
        assert_eq!(
            s.summary.verdict,
            RunVerdict::Pass,
            "{}",
            ioco_report_text(&s.summary)
        );
        // Random walks of 50 steps visit every state and transition of the six-state machine.
        let c = &s.summary.coverage;
        assert_eq!((c.states_visited, c.states_total), (6, 6));
        assert_eq!((c.transitions_visited, c.transitions_total), (9, 9));
        s.assert_no_process_left();
    }
}

#[test]
fn every_fault_is_caught_with_the_expected_counterexample() {
    let spec = spec(SPEC);
    for &(mode, observed, allowed, suffix) in COFFEE_FAULTS {
        let mut opts = options(50, 50, 7);
        opts.shrink = true;
        let s = session(&spec, &[BIN, "--mode", &mode.name()], &opts);
        let model = explore(Coffee::new(mode), 1000).unwrap();
        check_failure(&s, &model, &spec, observed, allowed, suffix);
        s.assert_no_process_left();
        let r = s.first_failure();
        if mode == CoffeeMode::Spontaneous {
            assert_eq!(r.trace, ["coffee!"]);
        }
        if mode == CoffeeMode::Crash {
            let err = r.stderr.as_deref().unwrap_or_default();
            assert!(err.contains("boiler exploded"), "stderr: {err}");
        }
    }
}

#[test]
fn bug_numbers_are_aliases_of_the_faulty_modes() {
    let spec = spec(SPEC);
    // --bug 3 is `silent`.
    let s = session(&spec, &[BIN, "--bug", "3"], &options(50, 50, 7));
    let model = explore(Coffee::new(CoffeeMode::Silent), 1000).unwrap();
    check_failure(
        &s,
        &model,
        &spec,
        "δ",
        &["coffee!", "error!"],
        &["button?", "δ"],
    );
}

/// Regression: when a run ends right after an input, that input's `#quiet` is still on its way;
/// the reset must wait for it *and* for the reset's own `#quiet`, or the latter is taken as the δ
/// after the next input (a false Fail of the correct machine).
#[test]
fn reset_line_keeps_one_process_for_all_runs() {
    let spec = spec(SPEC);
    let reset = ResetMode::Line("#reset".into());
    let s = session_with(&spec, &[BIN], &options(30, 50, 3), reset.clone());
    assert_eq!(
        s.summary.verdict,
        RunVerdict::Pass,
        "{}",
        ioco_report_text(&s.summary)
    );
    assert_eq!(s.summary.runs.len(), 30);
    assert_eq!(s.pids.len(), 1, "one process for all runs");
    s.assert_no_process_left();
    // Faults are still found, and shrinking replays through resets.
    let mut opts = options(50, 50, 7);
    opts.shrink = true;
    let s = session_with(&spec, &[BIN, "--mode", "silent"], &opts, reset);
    let model = explore(Coffee::new(CoffeeMode::Silent), 1000).unwrap();
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

#[test]
fn hanging_machine_is_quiescent_after_the_timeout_and_killed() {
    let spec = spec(SPEC);
    let mut opts = options(50, 50, 7);
    // No `#quiet` comes after the hang: quiescence is concluded by this timeout (long enough
    // for every other answer on a loaded CI machine; only the one hang waits it out).
    opts.quiescence_timeout = Duration::from_millis(1000);
    let s = session(&spec, &[BIN, "--mode", "hang"], &opts);
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
    // Bounded: one timeout for the failing observation, not one per step.
    assert!(s.elapsed < Duration::from_secs(60), "took {:?}", s.elapsed);
}

#[test]
fn reports_of_a_real_failing_session() {
    // The README demo: the silent machine, shrunk, reported in every format.
    let spec = spec(SPEC);
    let mut opts = options(50, 50, 7);
    opts.shrink = true;
    let s = session(&spec, &[BIN, "--mode", "silent"], &opts);
    let text = ioco_report::text::render(&s.summary, &Default::default());
    assert!(text.starts_with("FAIL: "), "{text}");
    assert!(
        text.contains("  observed  δ\n  allowed   coffee! error!\n"),
        "{text}"
    );
    assert!(
        text.contains("  shrunk    δ water? δ pad? δ button? δ  (3 inputs,"),
        "{text}"
    );
    // the coverage counts the shrink replays too, and says so
    assert!(text.contains(" shrink replays): states "), "{text}");

    let dir = std::env::temp_dir().join(format!("ioco-examples-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    use ioco_report::{Destination::File, Format};
    let files = vec![
        (Format::Json, File(dir.join("run.json"))),
        (Format::Junit, File(dir.join("junit.xml"))),
        (Format::Markdown, File(dir.join("report.md"))),
    ];
    ioco_report::write_reports(&ioco_report::Results::new(&s.summary), &files, None).unwrap();
    let back =
        ioco_report::from_json(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
    assert_eq!(back, s.summary);
    let xml = std::fs::read_to_string(dir.join("junit.xml")).unwrap();
    let fails = s.summary.count(RunVerdict::Fail);
    assert_eq!(fails, 1);
    assert!(xml.contains(r#"failures="1""#), "{xml}");
    assert_eq!(
        xml.matches("<testcase ").count(),
        s.summary.runs.len(),
        "one testcase per run"
    );
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.starts_with("# ioco test report: **FAIL**"), "{md}");
    assert!(md.contains("Shrunk to 3 inputs"), "{md}");
    std::fs::remove_dir_all(&dir).unwrap();
}
