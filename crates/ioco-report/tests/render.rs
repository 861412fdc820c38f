//! Snapshot tests of every rendering on a constructed session of the coffee machine: a passing
//! run, a failing run with a shrunk trace (the `silent` fault: quiescence after water, pad,
//! button), an erroneous run (a crashing SUT with standard error) and an inconclusive run.

use ioco_engine::result::{CoverageSummary, Failure, RunResult, RunVerdict, Shrunk, Summary};
use ioco_report::{text, Destination::File, Format, ReportFiles, Results};

fn labels<T: FromIterator<String>>(s: &str) -> T {
    s.split_whitespace().map(String::from).collect()
}

fn session() -> Summary {
    let mut pass = RunResult::new(0, 11_400_714_785_074_694_791);
    pass.trace = labels("water? δ pad? δ button? coffee! δ button? error! δ");
    pass.steps = 10;
    pass.duration_ms = 3.25;

    let mut fail = RunResult::new(1, 160_436_817_524_391_133);
    fail.verdict = RunVerdict::Fail;
    fail.trace = labels("button? error! water? δ water? pad? δ button? δ");
    fail.steps = 9;
    fail.duration_ms = 12.5;
    let failure = Failure {
        observed: "δ".into(),
        allowed: vec!["coffee!".into(), "error!".into()],
        reason: "quiescence where the specification requires an output".into(),
    };
    fail.failure = Some(failure.clone());
    fail.shrunk = Some(Shrunk {
        inputs: labels("water? pad? button?"),
        trace: labels("water? pad? button? δ"),
        failure: Some(failure),
        replays: 6,
        stopped: None,
    });

    let mut error = RunResult::new(2, 42);
    error.verdict = RunVerdict::Error;
    error.trace = labels("water? δ pad? δ button?");
    error.steps = 5;
    error.duration_ms = 1520.0;
    error.error = Some("the SUT exited with status 101 after button?".into());
    error.stderr = Some(
        "thread 'main' panicked at src/wire.rs:92:35:\nboiler exploded\nnote: run with `RUST_BACKTRACE=1`\n"
            .into(),
    );

    let mut inconclusive = RunResult::new(3, 7);
    inconclusive.verdict = RunVerdict::Inconclusive;
    inconclusive.test = Some("reach-s3|purpose".into());
    inconclusive.trace = labels("button? error!");
    inconclusive.steps = 2;
    inconclusive.note = Some("left the test purpose".into());

    let mut s = Summary::new("online", 42, vec![pass, fail, error, inconclusive]);
    s.coverage = CoverageSummary {
        states_visited: 5,
        states_total: 6,
        transitions_visited: 7,
        transitions_total: 9,
        suspension_states: 5,
    };
    s.duration_ms = 1600.0;
    s.parameters
        .insert("model".into(), "examples/coffee/coffee.aut".into());
    s.parameters
        .insert("sut".into(), "coffee-sut --mode silent --ack".into());
    s.parameters.insert("depth".into(), 50.into());
    s.parameters.insert("strategy".into(), "uniform".into());
    s
}

#[test]
fn text_summary() {
    let s = session();
    assert_eq!(s.verdict, RunVerdict::Fail);
    insta::assert_snapshot!(text::render(&s, &text::TextOptions::default()));
}

#[test]
fn text_summary_verbose_and_clipped() {
    let opts = text::TextOptions {
        max_runs: 1,
        max_trace: 4,
        verbose: true,
    };
    insta::assert_snapshot!(text::render(&session(), &opts));
}

#[test]
fn text_summary_of_a_passing_session_without_coverage() {
    let mut s = session();
    s.runs.retain(|r| r.verdict == RunVerdict::Pass);
    s.verdict = RunVerdict::Pass;
    s.coverage = CoverageSummary::default();
    s.parameters.clear();
    let t = text::render(&s, &Default::default());
    assert_eq!(
        t,
        "PASS: 1 run (1 pass), online testing, seed 42, 10 steps in 1.60 s\n"
    );
}

#[test]
fn markdown() {
    insta::assert_snapshot!(ioco_report::markdown::render(&session()));
}

#[test]
fn junit() {
    let xml = ioco_report::junit::render(&session()).unwrap();
    insta::assert_snapshot!(xml);
    // It is well-formed JUnit that tools read back: 4 cases, 1 failure, 1 error, 1 skipped.
    let back = quick_junit::Report::deserialize_from_str(&xml).unwrap();
    assert_eq!(back.tests, 4);
    assert_eq!(back.failures, 1);
    assert_eq!(back.errors, 1);
    let suite = &back.test_suites[0];
    assert_eq!(suite.test_cases.len(), 4);
    assert_eq!(suite.disabled, 1);
}

#[test]
fn json_snapshot_and_round_trip() {
    let mut s = session();
    let j = ioco_report::to_json(&s);
    insta::assert_snapshot!(j);
    assert_eq!(ioco_report::from_json(&j).unwrap(), s);
    // Durations measured by a clock read back exactly (no float rounding on the way).
    s.runs[0].duration_ms = 1.9142860000000002;
    s.duration_ms = 48.550162;
    let back = ioco_report::from_json(&ioco_report::to_json(&s)).unwrap();
    assert_eq!(
        back.runs[0].duration_ms.to_bits(),
        s.runs[0].duration_ms.to_bits()
    );
    assert_eq!(back, s);
}

#[test]
fn write_reports_writes_every_requested_file_and_names_the_one_that_fails() {
    let dir = std::env::temp_dir().join(format!("ioco-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let files: ReportFiles = vec![
        (Format::Json, File(dir.join("r.json"))),
        (Format::Junit, File(dir.join("r.xml"))),
        (Format::Markdown, File(dir.join("r.md"))),
    ];
    let s = session();
    ioco_report::write_reports(&Results::new(&s), &files, None).unwrap();
    let j = std::fs::read_to_string(dir.join("r.json")).unwrap();
    assert_eq!(ioco_report::from_json(&j).unwrap(), s);
    assert!(std::fs::read_to_string(dir.join("r.xml"))
        .unwrap()
        .contains("<testsuites"));
    assert!(std::fs::read_to_string(dir.join("r.md"))
        .unwrap()
        .starts_with("# ioco test report"));
    let bad = vec![(Format::Markdown, File(dir.join("no-such-dir").join("r.md")))];
    let e = ioco_report::write_reports(&Results::new(&s), &bad, None).unwrap_err();
    assert!(e.to_string().contains("no-such-dir/r.md"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Shrinking stopped by a bound (issue #20 item 6): every format says the shrunk inputs are not
/// minimal, and why.
#[test]
fn a_shrinking_stopped_early_is_marked_not_minimal() {
    let mut s = session();
    let why = "the time budget of 60.0 s was spent (--shrink-time raises it)";
    for r in &mut s.runs {
        if let Some(sh) = &mut r.shrunk {
            sh.stopped = Some(why.into());
        }
    }
    let text = text::render(&s, &text::TextOptions::default());
    assert!(
        text.contains("not minimal: the time budget of 60.0 s was spent"),
        "{text}"
    );
    let md = ioco_report::markdown::render(&s);
    assert!(md.contains("(not minimal: the time budget"), "{md}");
    let junit = ioco_report::junit::render(&s).unwrap();
    assert!(junit.contains("not minimal"), "{junit}");
    // and it survives the JSON round trip (`ioco replay` reads it)
    let json = serde_json::to_string(&s).unwrap();
    let back: ioco_engine::Summary = serde_json::from_str(&json).unwrap();
    assert_eq!(
        back.runs[1].shrunk.as_ref().unwrap().stopped.as_deref(),
        Some(why)
    );
}
