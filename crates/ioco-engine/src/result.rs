//! Results of test runs: what one run observed ([`RunResult`]) and what a batch of runs
//! amounts to ([`Summary`]). Both are serde-serialisable; the JSON is the file format of
//! `ioco test --json`, the input of `ioco replay`, and what `ioco-report` renders.
//!
//! Labels are written as users write them: `water?`, `coffee!`, and `δ` for quiescence.
//!
//! ```json
//! { "run": 3, "seed": 1234, "verdict": "fail",
//!   "trace": ["coin?", "δ"],
//!   "failure": { "observed": "δ", "allowed": ["coffee!", "tea!"],
//!                "reason": "quiescence where the specification requires an output" },
//!   "steps": 2, "duration_ms": 401.2 }
//! ```

use crate::trace::Trace;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The verdict of one run (or of a whole summary).
///
/// Combine verdicts with [`RunVerdict::worst`]: Fail > Error > Inconclusive > Pass (a batch
/// with one failing run fails even if another run broke).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RunVerdict {
    /// No non-conformance observed.
    Pass,
    /// The run ended without a verdict on conformance (e.g. a test purpose was left).
    Inconclusive,
    /// Non-conformance observed: the implementation is not ioco the specification.
    Fail,
    /// The run could not be carried out (the SUT could not be started, wrote bytes that are not
    /// a line of text, exited where that is no ioco evidence, the adapter broke, ...).
    Error,
}

impl RunVerdict {
    fn rank(self) -> u8 {
        match self {
            RunVerdict::Pass => 0,
            RunVerdict::Inconclusive => 1,
            RunVerdict::Error => 2,
            RunVerdict::Fail => 3,
        }
    }

    /// Combine two verdicts: Fail dominates Error dominates Inconclusive dominates Pass.
    pub fn worst(self, other: RunVerdict) -> RunVerdict {
        if other.rank() > self.rank() {
            other
        } else {
            self
        }
    }

    /// The exit code convention of the CLI: 0 pass, 1 fail, 2 error, 3 inconclusive (never
    /// the code of a Pass).
    pub fn exit_code(self) -> i32 {
        match self {
            RunVerdict::Pass => 0,
            RunVerdict::Fail => 1,
            RunVerdict::Error => 2,
            RunVerdict::Inconclusive => 3,
        }
    }
}

impl std::fmt::Display for RunVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RunVerdict::Pass => "pass",
            RunVerdict::Inconclusive => "inconclusive",
            RunVerdict::Fail => "fail",
            RunVerdict::Error => "error",
        })
    }
}

/// Why a run failed: the observation that left the specification.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Failure {
    /// What was observed at the failing point: an output `coffee!`, `δ`, the raw line of an
    /// output the model does not know (e.g. `"garbage"`), or `exit` for a SUT that exited.
    pub observed: String,
    /// out(spec after σ) at the failing point (outputs and possibly `δ`), sorted. Empty when the
    /// failure is not about outputs.
    pub allowed: Vec<String>,
    /// A sentence for humans.
    pub reason: String,
}

/// The result of shrinking a failing run (delta debugging over its inputs).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Shrunk {
    /// The inputs that still make the SUT fail, in order (`coin?`, ...).
    pub inputs: Vec<String>,
    /// The trace of the failing replay of those inputs (inputs, outputs and `δ`).
    pub trace: Trace,
    /// The failure seen at the end of that replay.
    pub failure: Option<Failure>,
    /// How many replays shrinking took.
    pub replays: usize,
    /// Why shrinking stopped before it was done (a budget spent, an interrupt): the inputs
    /// still fail, but a shorter sequence may exist. `None`: ddmin ran to its end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
}

/// One run: one online test, one stored test case, or one replay.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct RunResult {
    /// Index of the run in its batch (0-based).
    pub run: usize,
    /// The seed of this run (derived from the master seed and `run`); replaying with it
    /// repeats the run against a deterministic SUT.
    pub seed: u64,
    /// The name of the stored test case, when the run executed one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<String>,
    /// The verdict.
    pub verdict: RunVerdict,
    /// Everything that happened, in order: inputs `water?`, outputs `coffee!`, quiescence `δ`.
    /// For a Fail, the last element is the failing observation. Stored as label indices into
    /// a table of texts made once per tester (a step costs no allocation, see [`Trace`]); in
    /// JSON a list of strings.
    pub trace: Trace,
    /// For a Fail: what was observed and what was allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
    /// For an Error: what went wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The shrunk failing trace, when shrinking was asked for and found something shorter or
    /// equal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shrunk: Option<Shrunk>,
    /// A remark for humans (e.g. "distinguished" in a distinguishing suite, "time budget
    /// used up", a replay that diverged from its recording).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The tail of the SUT's standard error (child processes only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    /// Number of steps (stimuli plus observations, δ included) taken.
    pub steps: usize,
    /// When each step of `trace` was seen, in milliseconds since the run started (recorded
    /// when a report that shows it is asked for, `--html`; empty otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub step_ms: Vec<f32>,
    /// How the δ observed from the system in this run were established (a δ after δ, which
    /// asks the system nothing, is not counted).
    #[serde(default, skip_serializing_if = "Established::is_empty")]
    pub quiescence: Established,
    /// Wall-clock time of the run, in milliseconds.
    pub duration_ms: f64,
    /// The number of states the specification may be in at the end of the run, where the
    /// session needs it (a purpose run with data: 1 means the state reached is certain, which
    /// the conservative a posteriori switch coverage counts, thesis L7422). Not written: the
    /// reports say it in `note`.
    #[serde(skip)]
    pub candidates: Option<usize>,
}

/// How many δ were established by each means (`crate::timeouts`: δ is recorded only when
/// quiescence is established).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Established {
    /// By the system's quiescence marker.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub marker: u32,
    /// By observing the process: it provably could not write without new input
    /// (`adapter::quiescence`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub process: u32,
    /// By a whole quiescence time-out without output.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub timeout: u32,
    /// By the Mealy hypothesis (`--mealy`, or a Mealy model): every input is answered by
    /// exactly one output, so after that output the system waits for input.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub mealy: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Established {
    /// None counted.
    pub fn is_empty(&self) -> bool {
        *self == Established::default()
    }

    /// From an adapter's counts (marker, process, time-out, Mealy hypothesis).
    pub fn from_counts([marker, process, timeout, mealy]: [u32; 4]) -> Established {
        Established {
            marker,
            process,
            timeout,
            mealy,
        }
    }

    /// Add `other`'s counts.
    pub fn add(&mut self, other: Established) {
        self.marker += other.marker;
        self.process += other.process;
        self.timeout += other.timeout;
        self.mealy += other.mealy;
    }

    /// `12 by the process, 3 by time-out` (empty when none).
    pub fn describe(&self) -> String {
        let parts: Vec<String> = [
            (self.marker, "by the marker"),
            (self.process, "by the process"),
            (self.timeout, "by time-out"),
            (self.mealy, "by the Mealy hypothesis (one output per input)"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, how)| format!("{n} {how}"))
        .collect();
        parts.join(", ")
    }
}

/// Why a run ended with `verdict`: a Fail's reason, an Error's or an Inconclusive's
/// explanation; empty for a Pass (whose note, if any, is no reason). The one text of
/// [`RunResult::why`] and [`crate::Ended::why`].
pub(crate) fn why<'a>(
    verdict: RunVerdict,
    failure: Option<&'a Failure>,
    error: Option<&'a str>,
    note: Option<&'a str>,
) -> &'a str {
    match verdict {
        RunVerdict::Pass => "",
        RunVerdict::Fail => failure.map_or("", |f| f.reason.as_str()),
        RunVerdict::Error => error.unwrap_or(""),
        RunVerdict::Inconclusive => note.unwrap_or(""),
    }
}

impl RunResult {
    /// A fresh result for run `run` with `seed`, verdict Pass and an empty trace.
    pub fn new(run: usize, seed: u64) -> RunResult {
        RunResult {
            run,
            seed,
            test: None,
            verdict: RunVerdict::Pass,
            trace: Trace::new(),
            failure: None,
            error: None,
            shrunk: None,
            note: None,
            stderr: None,
            steps: 0,
            step_ms: Vec::new(),
            quiescence: Established::default(),
            duration_ms: 0.0,
            candidates: None,
        }
    }

    /// Why: a Fail's reason, an Error's or an Inconclusive's explanation; empty for a Pass
    /// (as [`crate::Ended::why`], by [`why`]).
    pub fn why(&self) -> &str {
        why(
            self.verdict,
            self.failure.as_ref(),
            self.error.as_deref(),
            self.note.as_deref(),
        )
    }

    /// For a Fail: the failing observation (`coffee!(170)`, `δ`, `exit`, a malformed line).
    pub fn observed(&self) -> Option<&str> {
        self.failure.as_ref().map(|f| f.observed.as_str())
    }

    /// For a Fail: what the specification allowed there.
    pub fn allowed(&self) -> &[String] {
        self.failure.as_ref().map_or(&[], |f| &f.allowed)
    }

    /// The inputs of the trace, in order (`coin?`, ...): what a replay sends.
    pub fn inputs(&self) -> Vec<Arc<str>> {
        self.trace
            .shared()
            .filter(|l| l.ends_with('?'))
            .cloned()
            .collect()
    }
}

/// Coverage of the model by a batch of runs: LTS states and transitions visited.
///
/// A state counts as visited when it belonged to the set of states the model could be in
/// (the suspension state) at some point of some run; a transition `s -l-> t` when a step
/// labelled `l` led from a set containing `s` to a set containing `t` (τ-transitions: when
/// both ends were in one visited set). For a deterministic model this is exact.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct CoverageSummary {
    /// States of the model visited.
    pub states_visited: usize,
    /// States of the model.
    pub states_total: usize,
    /// Transitions of the model taken (τ included).
    pub transitions_visited: usize,
    /// Transitions of the model.
    pub transitions_total: usize,
    /// Suspension states (sets of model states) discovered by the runs.
    pub suspension_states: usize,
}

impl CoverageSummary {
    /// Visited states as a fraction in [0, 1] (1 for an empty model).
    pub fn state_ratio(&self) -> f64 {
        ratio(self.states_visited, self.states_total)
    }

    /// Visited transitions as a fraction in [0, 1] (1 for a model without transitions).
    pub fn transition_ratio(&self) -> f64 {
        ratio(self.transitions_visited, self.transitions_total)
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

/// A batch of runs: the result of `ioco test`, `ioco run` or `ioco replay`.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(
    title = "ioco result",
    description = "What `ioco test`, `run` and `replay` write with `--json`: a session and its runs."
)]
pub struct Summary {
    /// What was done: `online`, `suite` or `replay`.
    pub mode: String,
    /// The master seed (the seed of run k is derived from it and k).
    pub seed: u64,
    /// The combined verdict ([`RunVerdict::worst`] over the runs; Pass for no runs).
    pub verdict: RunVerdict,
    /// The runs, in run order.
    pub runs: Vec<RunResult>,
    /// Model coverage over all runs.
    pub coverage: CoverageSummary,
    /// Wall-clock time of the whole batch, in milliseconds.
    pub duration_ms: f64,
    /// Free-form context (model file, SUT command, options), for the record.
    #[serde(default)]
    pub parameters: serde_json::Map<String, serde_json::Value>,
    /// The options of the command that made these results which a replay of one of its runs
    /// needs, as command-line arguments in their order: the system under test and how to talk
    /// to it (`--sut`, `--tcp`, `--listen`, `--http`, `--sim`, `--quiescence-marker`,
    /// `--quiescence`, `--timeout…`, `--mealy`, `--map`, `--json-lines`, TorXakis `--cnect`),
    /// the engine and the model's `--entry`. Empty in results written before it was recorded
    /// (and by the library API); `ioco-report` builds the replay command from it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replay_options: Vec<String>,
    /// Passing runs counted but not kept in `runs` (a session that keeps only the runs that
    /// did not pass, [`Keep::Failures`]: `ioco run` and `ioco test`, whose reports that list
    /// every run read them from a spool, `ioco-report`'s `Spool`). Absent when every run is in
    /// `runs`, as in every results file.
    #[serde(default, skip_serializing_if = "Omitted::is_empty")]
    pub omitted: Omitted,
}

/// The passing runs a [`Summary`] counts without keeping them: what its totals need.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Omitted {
    /// Passing runs not in `runs`.
    pub runs: usize,
    /// Their steps.
    pub steps: usize,
    /// How their δ were established.
    #[serde(default, skip_serializing_if = "Established::is_empty")]
    pub quiescence: Established,
}

impl Omitted {
    /// No run omitted.
    pub fn is_empty(&self) -> bool {
        self.runs == 0
    }
}

/// Which runs a session keeps in its [`Summary`] (issue #35: memory that does not grow with
/// the number of runs).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Keep {
    /// Every run (the default; the CLI keeps them only when a report lists every run and no
    /// spool could be made for them).
    #[default]
    All,
    /// Only the runs that did not pass; a passing run is counted in [`Summary::omitted`]
    /// (its steps and δ) and dropped.
    Failures,
}

/// Collects the runs of a session as they end, keeping what [`Keep`] says: with
/// [`Keep::Failures`] its memory is that of the runs that did not pass, whatever the number
/// of runs.
#[derive(Debug, Default)]
pub struct Collector {
    keep: Keep,
    runs: Vec<RunResult>,
    omitted: Omitted,
}

impl Collector {
    /// An empty collector keeping `keep`.
    pub fn new(keep: Keep) -> Collector {
        Collector {
            keep,
            ..Collector::default()
        }
    }

    /// Take one run.
    pub fn add(&mut self, r: RunResult) {
        if self.keep == Keep::Failures && r.verdict == RunVerdict::Pass {
            self.omitted.runs += 1;
            self.omitted.steps += r.steps;
            self.omitted.quiescence.add(r.quiescence);
        } else {
            self.runs.push(r);
        }
    }

    /// Take the runs of another collector (another worker's).
    pub fn merge(&mut self, other: Collector) {
        self.runs.extend(other.runs);
        self.omitted.runs += other.omitted.runs;
        self.omitted.steps += other.omitted.steps;
        self.omitted.quiescence.add(other.omitted.quiescence);
    }

    /// The runs taken, counted or kept.
    pub fn len(&self) -> usize {
        self.runs.len() + self.omitted.runs
    }

    /// No run taken.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The kept runs sorted by run index, and what was counted without keeping.
    pub fn finish(mut self) -> (Vec<RunResult>, Omitted) {
        self.runs.sort_by_key(|r| r.run);
        (self.runs, self.omitted)
    }
}

impl Summary {
    /// A summary of `runs`; the verdict is computed from them.
    pub fn new(mode: impl Into<String>, seed: u64, runs: Vec<RunResult>) -> Summary {
        let verdict = runs
            .iter()
            .fold(RunVerdict::Pass, |v, r| v.worst(r.verdict));
        Summary {
            mode: mode.into(),
            seed,
            verdict,
            runs,
            coverage: CoverageSummary::default(),
            duration_ms: 0.0,
            parameters: Default::default(),
            replay_options: Vec::new(),
            omitted: Omitted::default(),
        }
    }

    /// Number of runs with verdict `v` (the omitted passing runs included).
    pub fn count(&self, v: RunVerdict) -> usize {
        let omitted = if v == RunVerdict::Pass {
            self.omitted.runs
        } else {
            0
        };
        self.runs.iter().filter(|r| r.verdict == v).count() + omitted
    }

    /// Number of runs, the omitted passing runs included.
    pub fn run_count(&self) -> usize {
        self.runs.len() + self.omitted.runs
    }

    /// How the δ of all runs (the omitted ones included) were established.
    pub fn quiescence(&self) -> Established {
        let mut q = self.omitted.quiescence;
        for r in &self.runs {
            q.add(r.quiescence);
        }
        q
    }

    /// The first failing run, if any.
    pub fn first_failure(&self) -> Option<&RunResult> {
        self.runs.iter().find(|r| r.verdict == RunVerdict::Fail)
    }

    /// Total steps over all runs (the omitted ones included).
    pub fn total_steps(&self) -> usize {
        self.runs.iter().map(|r| r.steps).sum::<usize>() + self.omitted.steps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_says_why_as_the_end_it_was_written_from() {
        use crate::rules::Ended;
        let failure = Failure {
            observed: "δ".into(),
            allowed: vec!["coffee!".into()],
            reason: "quiescence where an output is required".into(),
        };
        let ends = [
            (Ended::pass(Some("a note, no reason".into())), ""),
            (
                Ended::fail(failure),
                "quiescence where an output is required",
            ),
            (Ended::error("the SUT exited".into()), "the SUT exited"),
            (
                Ended::inconclusive("left the purpose".into()),
                "left the purpose",
            ),
        ];
        for (end, why) in ends {
            assert_eq!(end.why(), why);
            let mut r = RunResult::new(0, 1);
            end.write(&mut r);
            assert_eq!(r.why(), why);
        }
    }

    #[test]
    fn json_round_trip_and_worst() {
        let mut r = RunResult::new(3, 1234);
        r.verdict = RunVerdict::Fail;
        r.trace = ["coin?", "δ"].into_iter().collect();
        r.failure = Some(Failure {
            observed: "δ".into(),
            allowed: vec!["coffee!".into()],
            reason: "quiescence where an output is required".into(),
        });
        let s = Summary::new("online", 7, vec![RunResult::new(0, 1), r]);
        assert_eq!(s.verdict, RunVerdict::Fail);
        assert_eq!(s.count(RunVerdict::Pass), 1);
        let j = serde_json::to_string(&s).unwrap();
        assert!(j.contains("\"verdict\":\"fail\""));
        let back: Summary = serde_json::from_str(&j).unwrap();
        assert_eq!(back, s);
        assert_eq!(back.runs[1].inputs(), vec!["coin?".into()]);
        assert_eq!(RunVerdict::Error.worst(RunVerdict::Fail), RunVerdict::Fail);
        assert_eq!(RunVerdict::Inconclusive.exit_code(), 3);
    }

    fn run(k: usize, v: RunVerdict) -> RunResult {
        let mut r = RunResult::new(k, k as u64);
        r.verdict = v;
        r.steps = 3;
        r.trace = ["coin?", "coffee!", "δ"].into_iter().collect();
        r.quiescence.process = 1;
        r
    }

    /// Issue #35: keeping only the runs that did not pass, a collector holds the failures
    /// whatever the number of runs, and the summary still counts every run, step and δ.
    #[test]
    fn a_collector_of_failures_keeps_only_what_did_not_pass() {
        let n = 100_000;
        let bad = |k: usize| match k % 25_000 {
            7 => Some(RunVerdict::Fail),
            11 => Some(RunVerdict::Inconclusive),
            13 => Some(RunVerdict::Error),
            _ => None,
        };
        // two workers, as a session with --jobs 2 collects
        let mut parts = [
            Collector::new(Keep::Failures),
            Collector::new(Keep::Failures),
        ];
        for k in (0..n).rev() {
            parts[k % 2].add(run(k, bad(k).unwrap_or(RunVerdict::Pass)));
        }
        let [mut c, other] = parts;
        c.merge(other);
        assert_eq!(c.len(), n);
        let (runs, omitted) = c.finish();
        assert_eq!(runs.len(), 12, "4 × (fail, inconclusive, error)");
        assert!(runs.iter().all(|r| r.verdict != RunVerdict::Pass));
        assert!(runs.windows(2).all(|w| w[0].run < w[1].run), "in run order");
        assert_eq!(omitted.runs, n - 12);
        let mut s = Summary::new("suite", 1, runs);
        s.omitted = omitted;
        assert_eq!(s.verdict, RunVerdict::Fail);
        assert_eq!(s.run_count(), n);
        assert_eq!(s.count(RunVerdict::Pass), n - 12);
        assert_eq!(s.count(RunVerdict::Fail), 4);
        assert_eq!(s.total_steps(), 3 * n);
        assert_eq!(s.quiescence().process as usize, n);
        // the counts survive the JSON
        let back: Summary = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        assert_eq!(back, s);
        // keeping every run keeps every run
        let mut all = Collector::new(Keep::All);
        for k in 0..1000 {
            all.add(run(k, RunVerdict::Pass));
        }
        let (runs, omitted) = all.finish();
        assert_eq!((runs.len(), omitted), (1000, Omitted::default()));
    }
}
