//! Shared helpers of the end-to-end tests: loading the bundled specifications, running
//! ioco-exec's online tester against a real SUT process, recording every process started so
//! that the tests can check none is left behind, and checking a failing run against the model
//! of the mode (`ioco_examples::explore`).
#![allow(dead_code)]

use ioco_examples::CoffeeMode;
use ioco_exec::{Observation, OnlineOptions, RunResult, RunVerdict, Sent, Summary, Sut, SutError};
use ioco_model::compare::is_suspension_trace;
use ioco_model::{Label, LabelKind, Lts, QuiescencePolicy};
use ioco_sut::process::{ProcessAdapter, ProcessConfig, ResetMode};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The faulty coffee machines that fail without a timeout: (mode, observed, allowed, end of the
/// failing trace).
#[allow(clippy::type_complexity)]
pub const COFFEE_FAULTS: &[(CoffeeMode, &str, &[&str], &[&str])] = &[
    (
        CoffeeMode::WrongOutput,
        "coffee!",
        &["error!"],
        &["button?", "coffee!"],
    ),
    (
        CoffeeMode::Tea,
        "tea",
        &["coffee!", "error!"],
        &["pad?", "button?", "tea!"],
    ),
    (
        CoffeeMode::Silent,
        "δ",
        &["coffee!", "error!"],
        &["pad?", "button?", "δ"],
    ),
    (CoffeeMode::Spontaneous, "coffee!", &["δ"], &["coffee!"]),
    (
        CoffeeMode::RefusePad,
        "error!",
        &["δ"],
        &["water?", "pad?", "error!"],
    ),
    (
        CoffeeMode::Crash,
        "exit",
        &["coffee!", "error!"],
        &["pad?", "button?"],
    ),
    (
        CoffeeMode::Garbage,
        "Here is your coffee :-)",
        &["coffee!", "error!"],
        &["pad?", "button?", "Here is your coffee :-)!"],
    ),
    (
        CoffeeMode::Flood,
        "coffee!",
        &["δ"],
        &["button?", "coffee!", "coffee!"],
    ),
];

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn spec(rel: &str) -> Lts {
    let src = std::fs::read_to_string(root().join(rel)).unwrap();
    ioco_formats::aut::parse(&src, rel).unwrap_or_else(|e| panic!("{e}"))
}

/// A process adapter that records the pid of every process it starts.
struct Recording {
    inner: ProcessAdapter,
    pids: Arc<Mutex<Vec<u32>>>,
}

impl Recording {
    fn note(&self) {
        if let Some(p) = self.inner.pid() {
            let mut v = self.pids.lock().unwrap();
            if v.last() != Some(&p) {
                v.push(p);
            }
        }
    }
}

impl Sut for Recording {
    fn reset(&mut self) -> Result<(), SutError> {
        let r = self.inner.reset();
        self.note();
        r
    }
    fn send(&mut self, input: Label) -> Result<Sent, SutError> {
        let r = self.inner.send(input);
        self.note();
        r
    }
    fn observe(&mut self, timeout: Option<Duration>) -> Result<Observation, SutError> {
        let r = self.inner.observe(timeout);
        self.note();
        r
    }
    fn close(&mut self) -> Result<(), SutError> {
        self.inner.close()
    }
    fn stderr_tail(&mut self) -> Option<String> {
        self.inner.stderr_tail()
    }
}

/// What one online session did.
pub struct Session {
    pub summary: Summary,
    /// Every SUT process started.
    pub pids: Vec<u32>,
    pub elapsed: Duration,
}

impl Session {
    pub fn first_failure(&self) -> &RunResult {
        self.summary
            .first_failure()
            .unwrap_or_else(|| panic!("no failing run:\n{}", ioco_report_text(&self.summary)))
    }

    /// No SUT process started by the session is still alive (or a zombie).
    pub fn assert_no_process_left(&self) {
        assert!(!self.pids.is_empty(), "no process was started");
        for p in &self.pids {
            let stat = std::fs::read_to_string(format!("/proc/{p}/stat"));
            if let Ok(stat) = stat {
                // A recycled pid of another program is fine; our SUT is not.
                let cmd = std::fs::read_to_string(format!("/proc/{p}/cmdline")).unwrap_or_default();
                assert!(
                    !(cmd.contains("coffee") || cmd.contains("queue")),
                    "SUT process {p} left behind: {stat}"
                );
            }
        }
    }
}

pub fn ioco_report_text(s: &Summary) -> String {
    ioco_report::text::render(
        s,
        &ioco_report::text::TextOptions {
            verbose: true,
            ..Default::default()
        },
    )
}

/// Options for sessions against SUTs that acknowledge quiescence with `#quiet`: the timeout only
/// matters for a SUT that stops responding, so it is generous (a loaded machine must not turn
/// a slow answer into quiescence).
pub fn options(runs: usize, depth: usize, seed: u64) -> OnlineOptions {
    OnlineOptions {
        runs,
        depth,
        seed,
        quiescence_timeout: Duration::from_secs(5),
        stop_on_failure: true,
        ..Default::default()
    }
}

/// Run ioco-exec's online tester against the program `argv` (with `--ack` added), restarting it
/// before every run.
pub fn session(spec: &Lts, argv: &[&str], opts: &OnlineOptions) -> Session {
    session_with(spec, argv, opts, ResetMode::Restart)
}

/// [`session`] with a choice of reset: restart, or the `#reset` line.
pub fn session_with(spec: &Lts, argv: &[&str], opts: &OnlineOptions, reset: ResetMode) -> Session {
    let pids = Arc::new(Mutex::new(Vec::new()));
    let mut cfg = ProcessConfig::from_command_line("placeholder").unwrap();
    cfg.argv = argv.iter().map(|s| s.to_string()).collect();
    cfg.argv.push("--ack".into());
    cfg.wire.marker = Some("#quiet".into());
    cfg.settle = Duration::from_secs(5);
    cfg.reset = reset;
    let t0 = Instant::now();
    let summary = ioco_exec::run_online(spec, opts, |_| {
        Ok(Box::new(Recording {
            inner: ProcessAdapter::new(spec.alphabet(), cfg.clone())?,
            pids: Arc::clone(&pids),
        }) as Box<dyn Sut + Send>)
    })
    .unwrap();
    let elapsed = t0.elapsed();
    let pids = pids.lock().unwrap().clone();
    Session {
        summary,
        pids,
        elapsed,
    }
}

/// The labels of a written trace (`water?`, `coffee!`, `δ`, a garbage line `text!`) in `lts`'s
/// alphabet; `None` when a label is unknown there.
pub fn labels(lts: &Lts, trace: &ioco_exec::Trace) -> Option<Vec<Label>> {
    let a = lts.alphabet();
    trace
        .iter()
        .map(|t| {
            if t == "δ" {
                return Some(Label::DELTA);
            }
            let (name, kind) = if let Some(n) = t.strip_suffix('?') {
                (n, LabelKind::Input)
            } else {
                (t.strip_suffix('!').unwrap_or(t), LabelKind::Output)
            };
            a.lookup(name).filter(|&l| a.kind(l) == kind)
        })
        .collect()
}

/// The run's trace is a behaviour of `model` (the LTS of the mode the program ran in): the real
/// program did what its model says.
pub fn assert_trace_of(model: &Lts, r: &RunResult) {
    let ls = labels(model, &r.trace)
        .unwrap_or_else(|| panic!("trace {:?} uses labels the model lacks", r.trace));
    assert!(
        is_suspension_trace(model, QuiescencePolicy::default(), &ls),
        "trace {:?} is not a suspension trace of the mode's model",
        r.trace
    );
}

/// Check a failing session: verdict Fail, and the failing run's trace is a behaviour of the
/// mode's model (for an exit, the trace ends before the failing observation and the model's dead
/// state stands for the ended process). With shrinking on, the shrunk run fails with the same
/// observation, is a behaviour of the model, and has no fewer inputs than the shortest
/// counterexample `compare` finds on the model. Returns the failing run.
pub fn check_run<'s>(s: &'s Session, model: &Lts, spec: &Lts) -> &'s RunResult {
    assert_eq!(
        s.summary.verdict,
        RunVerdict::Fail,
        "{}",
        ioco_report_text(&s.summary)
    );
    let r = s.first_failure();
    let f = r.failure.as_ref().expect("a Fail has a failure");
    assert!(!f.allowed.contains(&f.observed), "{f:?}");
    assert_trace_of(model, r);
    if let Some(sh) = &r.shrunk {
        let sf = sh.failure.as_ref().expect("the shrunk run fails");
        assert_eq!(sf.observed, f.observed, "shrunk {:?}", sh.trace);
        let cex = ioco_model::compare(model, spec, &Default::default())
            .unwrap()
            .counterexample
            .expect("the mode does not conform");
        let a = spec.alphabet();
        let shortest = cex.trace.iter().filter(|&&l| a.is_input(l)).count();
        // Delta debugging gives a 1-minimal input sequence: never shorter than the shortest
        // counterexample (that would be unsound), never longer than the original.
        assert!(
            shortest <= sh.inputs.len() && sh.inputs.len() <= r.inputs().len(),
            "shrunk to {:?} from {:?}, the shortest counterexample is {}",
            sh.inputs,
            r.inputs(),
            a.display_trace(&cex.trace)
        );
        let ls = labels(model, &sh.trace).expect("labels of the model");
        assert!(is_suspension_trace(model, QuiescencePolicy::default(), &ls));
    }
    r
}

/// [`check_run`], and the failure has exactly this observation, these allowed outputs, and the
/// trace ends with `suffix`; a shrunk run is as short as the shortest counterexample.
pub fn check_failure(
    s: &Session,
    model: &Lts,
    spec: &Lts,
    observed: &str,
    allowed: &[&str],
    suffix: &[&str],
) {
    let r = check_run(s, model, spec);
    let f = r.failure.as_ref().expect("a Fail has a failure");
    assert_eq!(f.observed, observed, "run {:?}", r.trace);
    assert_eq!(f.allowed, allowed, "run {:?}", r.trace);
    // δ observed between the inputs of the suffix does not change it (the last element counts
    // as it is: a failing δ is part of the counterexample)
    let no_delta = |t: Vec<&str>| -> Vec<String> {
        let n = t.len();
        t.into_iter()
            .enumerate()
            .filter(|&(i, l)| l != "δ" || i + 1 == n)
            .map(|(_, l)| l.to_string())
            .collect()
    };
    let trace = no_delta(r.trace.iter().collect());
    let want = no_delta(suffix.to_vec());
    assert!(
        trace.ends_with(&want),
        "trace {:?} should end with {suffix:?}",
        r.trace
    );
    if let Some(sh) = &r.shrunk {
        let cex = ioco_model::compare(model, spec, &Default::default())
            .unwrap()
            .counterexample
            .unwrap();
        let a = spec.alphabet();
        let shortest: Vec<String> = cex
            .trace
            .iter()
            .filter(|&&l| a.is_input(l))
            .map(|&l| a.display(l))
            .collect();
        assert_eq!(sh.inputs, shortest, "shrunk trace {:?}", sh.trace);
    }
}
