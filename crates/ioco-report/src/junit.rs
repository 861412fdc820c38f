//! JUnit XML (the Jenkins/GitLab dialect, written with `quick-junit`): one `<testsuite>` for the
//! session, one `<testcase>` per run. A failing run is a `<failure>` whose message is the reason
//! and whose text holds the trace, the observation, the allowed outputs and the shrunk trace; an
//! erroneous run is an `<error>`; an inconclusive run is `<skipped>`. The trace goes to the
//! test case's `<system-out>`, the SUT's standard error to `<system-err>`. [`write`] writes
//! the report one test case at a time (issue #35).

use crate::Results;
use crate::{param, run_name, trace};
use ioco_engine::result::{RunResult, RunVerdict, Summary};
use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};
use std::io::Write;
use std::time::Duration;

/// Why the XML could not be produced.
pub use quick_junit::SerializeError;

fn time(ms: f64) -> Duration {
    Duration::from_secs_f64((ms / 1000.0).max(0.0))
}

/// The text of a failure: what a CI page shows under the failing test.
fn description(r: &RunResult) -> String {
    let mut d = format!("seed: {}\ntrace: {}\n", r.seed, trace(&r.trace));
    if let Some(f) = &r.failure {
        d += &format!(
            "observed: {}\nallowed: {}\n",
            f.observed,
            if f.allowed.is_empty() {
                "-".to_string()
            } else {
                f.allowed.join(" ")
            }
        );
    }
    if let Some(s) = &r.shrunk {
        d += &format!("shrunk ({} replays): {}\n", s.replays, trace(&s.trace));
        if let Some(w) = &s.stopped {
            d += &format!("shrinking stopped early (not minimal): {w}\n");
        }
    }
    if let Some(n) = &r.note {
        d += &format!("note: {n}\n");
    }
    d
}

fn case(summary: &Summary, r: &RunResult) -> TestCase {
    let status = match r.verdict {
        RunVerdict::Pass => TestCaseStatus::success(),
        RunVerdict::Inconclusive => {
            let mut s = TestCaseStatus::skipped();
            s.set_message(r.note.clone().unwrap_or_else(|| "inconclusive".into()));
            s.set_description(description(r));
            s
        }
        RunVerdict::Fail => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            let msg = match &r.failure {
                Some(f) => format!("{}: observed {}", f.reason, f.observed),
                None => "not ioco".to_string(),
            };
            s.set_message(msg).set_type("ioco");
            s.set_description(description(r));
            s
        }
        RunVerdict::Error => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
            s.set_message(r.error.clone().unwrap_or_else(|| "error".into()))
                .set_type("error");
            s.set_description(description(r));
            s
        }
    };
    let mut c = TestCase::new(run_name(r), status);
    c.set_classname(format!("ioco.{}", summary.mode))
        .set_time(time(r.duration_ms))
        .set_system_out(trace(&r.trace) + "\n")
        .add_property(Property::new("seed", r.seed.to_string()))
        .add_property(Property::new("steps", r.steps.to_string()));
    if let Some(e) = &r.stderr {
        c.set_system_err(e.clone());
    }
    c
}

/// The report of the session's `<testsuite>` with `cases`.
fn report(summary: &Summary, cases: impl IntoIterator<Item = TestCase>) -> Report {
    let mut report = Report::new("ioco");
    let mut suite = TestSuite::new(format!("ioco {}", summary.mode));
    suite.set_time(time(summary.duration_ms));
    suite.add_property(Property::new("seed", summary.seed.to_string()));
    suite.add_property(Property::new("verdict", summary.verdict.to_string()));
    let c = &summary.coverage;
    if crate::has_coverage(c) {
        suite.add_property(Property::new(
            "states-visited",
            format!("{}/{}", c.states_visited, c.states_total),
        ));
        suite.add_property(Property::new(
            "transitions-visited",
            format!("{}/{}", c.transitions_visited, c.transitions_total),
        ));
    }
    for (k, v) in &summary.parameters {
        suite.add_property(Property::new(k.clone(), param(v)));
    }
    suite.add_test_cases(cases);
    report.set_time(time(summary.duration_ms));
    report.add_test_suite(suite);
    report
}

/// The summary as JUnit XML.
pub fn render(summary: &Summary) -> Result<String, SerializeError> {
    report(summary, summary.runs.iter().map(|r| case(summary, r))).to_string()
}

/// The end of every report: the session's suite and the report closed.
const TAIL: &str = "    </testsuite>\n</testsuites>\n";

fn xml_error(e: SerializeError) -> std::io::Error {
    std::io::Error::other(format!("JUnit report: {e}"))
}

/// The results as JUnit XML, written one test case at a time: the bytes of [`render`] of the
/// summary that holds every listed run, without the runs in memory. `quick-junit` writes a
/// whole report from memory; here it writes the session's suite with its counts set and no
/// test cases (the report's head and tail), and each run's test case alone in a report of its
/// own, whose element is copied between them: the same sanitising and escaping as one whole
/// report.
pub fn write(results: &Results<'_>, w: &mut dyn Write) -> std::io::Result<()> {
    let summary = results.summary;
    let mut head = report(summary, []);
    {
        let s = &mut head.test_suites[0];
        s.tests = summary.run_count();
        s.failures = summary.count(RunVerdict::Fail);
        s.errors = summary.count(RunVerdict::Error);
        s.disabled = summary.count(RunVerdict::Inconclusive);
        if !results.every_run() {
            // the test cases listed are those counted
            s.tests = summary.runs.len();
        }
        head.tests = s.tests;
        head.failures = s.failures;
        head.errors = s.errors;
    }
    let head = head.to_string().map_err(xml_error)?;
    let body = head.strip_suffix(TAIL).ok_or_else(|| {
        std::io::Error::other("JUnit report: quick-junit's layout is not the one expected")
    })?;
    w.write_all(body.as_bytes())?;
    results.each_indexed(&mut |_, r| {
        let mut one = Report::new("");
        let mut suite = TestSuite::new("");
        suite.add_test_case(case(summary, r));
        one.add_test_suite(suite);
        let xml = one.to_string().map_err(xml_error)?;
        // the declaration, `<testsuites>` and `<testsuite>` lines, then the test case
        let case = xml
            .splitn(4, '\n')
            .nth(3)
            .and_then(|rest| rest.strip_suffix(TAIL))
            .ok_or_else(|| {
                std::io::Error::other("JUnit report: quick-junit's layout is not the one expected")
            })?;
        w.write_all(case.as_bytes())
    })?;
    w.write_all(TAIL.as_bytes())
}
