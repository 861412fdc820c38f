//! Tutorial Alg. 2 (P1:L488-521), on-the-fly testing, and the verdict policy: the one loop
//! every kind of test runs through (see the [module documentation](super)).
//!
//! Soundness (tutorial Thm. 8.1): Fail is only given by the [`Specification`] (an output or
//! quiescence outside out(σ) after a suspension trace σ of the specification), by a line that
//! is no output of the model, or by the exit rule below; a [`Selection`] can only stop with
//! Pass or Inconclusive.
//!
//! ## The exit rule (a system that exits or crashes)
//! A crash is not an output, and an exited system can neither output nor take inputs:
//! * a system that exits with status 127 or 126 (the shell's "command not found", "not
//!   executable") without having written any output was never started: **Error**
//!   ([`never_started`]);
//! * if the specification, after the trace so far, **requires an output** (δ ∉ out), an
//!   exited system is quiescent where quiescence is not allowed: **Fail**;
//! * else if the specification **offers an input** there, the system stopped accepting inputs,
//!   which violates the input-enabledness of every ioco implementation: **Fail**;
//! * else (δ allowed and no input: the specification itself ends there) the exit is no
//!   evidence either way: **Error**; where the specification cannot tell whether an output is
//!   required (solver unknown): **Inconclusive**.
//!
//! A system that cannot be reset or breaks (bytes that are not a line, an I/O error) ends the
//! run with **Error**, never Fail.

use crate::result::{Failure, RunResult, RunVerdict};
use crate::select::{Choice, Event, Selection, Stop};
use crate::spec::{Quiet, Refusal, Specification};
use crate::sut::{Observation, Sent, Sut, SutError};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    /// The verdict.
    pub verdict: RunVerdict,
    /// For a Fail: what was observed, what was allowed, why.
    pub failure: Option<Failure>,
    /// For an Error: why.
    pub error: Option<String>,
    /// For an Inconclusive, or a Pass with something to say: the note.
    pub note: Option<String>,
}

impl Ended {
    /// Pass, with a note or none.
    pub fn pass(note: Option<String>) -> Ended {
        Ended {
            verdict: RunVerdict::Pass,
            failure: None,
            error: None,
            note,
        }
    }

    /// Fail.
    pub fn fail(f: Failure) -> Ended {
        Ended {
            verdict: RunVerdict::Fail,
            failure: Some(f),
            error: None,
            note: None,
        }
    }

    /// Error.
    pub fn error(why: String) -> Ended {
        Ended {
            verdict: RunVerdict::Error,
            failure: None,
            error: Some(why),
            note: None,
        }
    }

    /// Inconclusive.
    pub fn inconclusive(why: String) -> Ended {
        Ended {
            verdict: RunVerdict::Inconclusive,
            failure: None,
            error: None,
            note: Some(why),
        }
    }

    fn stop(s: Stop) -> Ended {
        match s {
            Stop::Pass(note) => Ended::pass(note),
            Stop::Inconclusive(why) => Ended::inconclusive(why),
        }
    }

    fn refusal(r: Refusal) -> Ended {
        match r {
            Refusal::Fail(f) => Ended::fail(f),
            Refusal::Inconclusive(why) => Ended::inconclusive(why),
        }
    }

    /// Why: a Fail's reason, an Error's or an Inconclusive's explanation; empty for a Pass
    /// (whose note, if any, is no reason).
    pub fn why(&self) -> &str {
        match self.verdict {
            RunVerdict::Pass => "",
            RunVerdict::Fail => self.failure.as_ref().map_or("", |f| f.reason.as_str()),
            RunVerdict::Error => self.error.as_deref().unwrap_or(""),
            RunVerdict::Inconclusive => self.note.as_deref().unwrap_or(""),
        }
    }

    /// Into a [`RunResult`] (texts on one line each: the reports show a line per field).
    pub fn write(self, r: &mut RunResult) {
        r.verdict = self.verdict;
        r.failure = self.failure.map(|mut f| {
            f.reason = one_line(&f.reason);
            f
        });
        r.error = self.error.map(|e| one_line(&e));
        if let Some(n) = self.note {
            r.note = Some(one_line(&n));
        }
    }
}

/// One line for a multi-line explanation.
pub fn one_line(s: &str) -> String {
    if !s.contains('\n') {
        return s.to_string();
    }
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// Bring both sides to their initial states: the specification, and the system under test
/// (`retries` more attempts, backing off, before an Error).
#[allow(clippy::result_large_err)] // once per run, not per step
pub fn start<S, U>(spec: &mut S, sut: &mut U, seed: u64, retries: usize) -> Result<(), Ended>
where
    S: Specification + ?Sized,
    U: Sut<S::Action> + ?Sized,
{
    spec.start()
        .map_err(|e| Ended::error(format!("model error: {e}")))?;
    let mut last = None;
    // once per run, before its starts (a new run for the system: its seed, its start-up budget)
    sut.set_seed(seed);
    for attempt in 0..=retries {
        match sut.reset() {
            Ok(()) => return Ok(()),
            Err(e) => {
                last = Some(e);
                if attempt < retries {
                    std::thread::sleep(Duration::from_millis(10 << attempt.min(6)));
                }
            }
        }
    }
    let e = last.expect("at least one attempt");
    Err(Ended::error(format!("could not reset the SUT: {e}")))
}

/// What the tester saw: an output, quiescence, or something that is no output of the model.
enum Obs<A> {
    Output(A),
    Quiescent,
    Unknown(String),
}

/// Observe, a line that is no output of the model being an observation (a Fail), not an error.
#[inline(always)]
fn look<A, U: Sut<A> + ?Sized>(sut: &mut U, t: Option<Duration>) -> Result<Obs<A>, SutError> {
    match sut.observe(t) {
        Ok(Observation::Output(x)) => Ok(Obs::Output(x)),
        Ok(Observation::Quiescent) => Ok(Obs::Quiescent),
        Err(SutError::UnknownOutput { line }) => Ok(Obs::Unknown(line)),
        Err(e) => Err(e),
    }
}

/// One run of Alg. 2 from where both sides are (see [`start`]): at most `depth` steps (inputs
/// and observations), none begun after `deadline`.
pub fn run<S, L, U>(
    spec: &mut S,
    sel: &mut L,
    sut: &mut U,
    depth: usize,
    deadline: Option<Instant>,
    rng: &mut ChaCha8Rng,
) -> Ended
where
    S: Specification + ?Sized,
    L: Selection<S> + ?Sized,
    U: Sut<S::Action> + ?Sized,
{
    sel.start();
    let mut steps = 0;
    // The last observation was δ: observing again gives δ again (tutorial Def. 6.4, δ after δ),
    // so it is answered without asking the system (no time-out) and not written twice.
    let mut quiet = false;
    // the time-out the system was last told to settle for before an input
    // (`Sut::settle_timeout`); a system that answers at once (a simulator) needs no time-outs
    // and no hints
    let timed = sut.timed();
    let mut hinted = None;
    let mut quiet_hinted = None;
    loop {
        if steps >= depth {
            if timed && !quiet && steps > 0 && spec.only_quiescence() {
                if let Some(end) = settle_last(spec, sut, rng) {
                    return end;
                }
            }
            return Ended::stop(sel.at_bound(spec, depth));
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Ended::pass(Some("stopped early: time budget used up".into()));
        }
        let mut waited = None;
        let observed = match sel.choose(spec, steps, rng) {
            Choice::Stop(s @ Stop::Pass(_))
                if timed && !quiet && steps > 0 && spec.only_quiescence() =>
            {
                return settle_last(spec, sut, rng).unwrap_or_else(|| Ended::stop(s))
            }
            Choice::Stop(s) => return Ended::stop(s),
            Choice::Observe if quiet => {
                steps += 1;
                if let Some(s) = sel.after(spec, Event::Quiescence) {
                    return Ended::stop(s);
                }
                continue;
            }
            Choice::Observe => {
                let t = if timed { spec.timeout() } else { None };
                waited = t;
                match look(sut, t) {
                    Ok(o) => o,
                    Err(e) => return sut_error(spec, e, rng),
                }
            }
            Choice::Give(a) => match send(spec, sut, &a, timed, &mut hinted, &mut quiet_hinted) {
                Ok(Sent::Accepted) => {
                    steps += 1;
                    quiet = false;
                    if let Err(r) = spec.give(&a) {
                        return Ended::refusal(r);
                    }
                    if let Some(s) = sel.after(spec, Event::Gave(&a)) {
                        return Ended::stop(s);
                    }
                    continue;
                }
                Ok(Sent::Raced(o)) => Obs::Output(o),
                Err(SutError::UnknownOutput { line }) => Obs::Unknown(line),
                Err(e) => return sut_error(spec, e, rng),
            },
        };
        steps += 1;
        quiet = matches!(observed, Obs::Quiescent);
        let next = match &observed {
            Obs::Output(x) => spec
                .observe(Some(x))
                .map(|()| sel.after(spec, Event::Output(x))),
            Obs::Quiescent => spec
                .observe(None)
                .map(|()| sel.after(spec, Event::Quiescence))
                .map_err(|r| match (r, waited) {
                    // a Fail that rests on a time-out says so, and what to raise
                    (Refusal::Fail(mut f), Some(t)) => {
                        f.reason = format!(
                            "{} (δ: no output within the quiescence time-out of {} ms, or the \
                             system's quiescence marker; if the system is only slow, raise \
                             --timeout)",
                            f.reason,
                            t.as_millis()
                        );
                        Refusal::Fail(f)
                    }
                    (r, _) => r,
                }),
            Obs::Unknown(line) => return Ended::fail(spec.garbage(line)),
        };
        match next {
            Err(r) => return Ended::refusal(r),
            Ok(Some(s)) => return Ended::stop(s),
            Ok(None) => {}
        }
    }
}

/// Offer `input`, telling the system whether the specification allows only quiescence now
/// and its quiescence time-out, when they changed since it was last told (`hinted`,
/// `quiet_hinted`): there a system that has not settled since its last input or output is given
/// that long to finish its reaction before the input (`Sut::expect_quiet`), so an output still
/// on its way races ahead of the input and is judged in the state it belongs to (a Fail).
#[inline(always)]
fn send<S, U>(
    spec: &mut S,
    sut: &mut U,
    input: &S::Action,
    timed: bool,
    hinted: &mut Option<Duration>,
    quiet_hinted: &mut Option<bool>,
) -> Result<Sent<S::Action>, SutError>
where
    S: Specification + ?Sized,
    U: Sut<S::Action> + ?Sized,
{
    if timed {
        let quiet = spec.only_quiescence();
        if quiet {
            if let Some(t) = spec.timeout() {
                if *hinted != Some(t) {
                    sut.settle_timeout(t);
                    *hinted = Some(t);
                }
            }
        }
        if *quiet_hinted != Some(quiet) {
            sut.expect_quiet(quiet);
            *quiet_hinted = Some(quiet);
        }
    }
    sut.send(input.clone())
}

/// At the end of a run that would pass, where the specification allows only quiescence and
/// quiescence was not established after the last step (an input or an output): one more look, for the system to settle, so that an output
/// still on its way is judged in the state it belongs to, as a later input would have made it
/// (one not allowed there is a Fail; an allowed one is recorded, one step past the bound, and
/// the run ends). Quiescence found here is not recorded. `None`: nothing changes the verdict.
fn settle_last<S, U>(spec: &mut S, sut: &mut U, rng: &mut ChaCha8Rng) -> Option<Ended>
where
    S: Specification + ?Sized,
    U: Sut<S::Action> + ?Sized,
{
    let t = spec.timeout();
    match look(sut, t) {
        Ok(Obs::Quiescent) => None,
        Ok(Obs::Output(x)) => spec.observe(Some(&x)).err().map(Ended::refusal),
        Ok(Obs::Unknown(line)) => Some(Ended::fail(spec.garbage(&line))),
        Err(e) => Some(sut_error(spec, e, rng)),
    }
}

/// The end of a run whose system under test exited or broke (the exit rule above).
pub fn sut_error<S: Specification + ?Sized>(
    spec: &mut S,
    e: SutError,
    rng: &mut ChaCha8Rng,
) -> Ended {
    let status = match e {
        SutError::Exited { status } => status,
        SutError::UnknownOutput { line } => return Ended::fail(spec.garbage(&line)),
        SutError::Broken(why) => {
            return Ended::error(format!("after trace {}: {why}", spec.trace_text()))
        }
        other => return Ended::error(format!("after trace {}: {other}", spec.trace_text())),
    };
    if let Some(why) = never_started(&status, spec.wrote_output()) {
        return Ended::error(why);
    }
    let sigma = spec.trace_text();
    let allowed = spec.allowed();
    let exit = |reason: String, allowed: Vec<String>| {
        Ended::fail(Failure {
            observed: "exit".into(),
            allowed,
            reason,
        })
    };
    match spec.quiet() {
        Quiet::Refused => exit(
            format!(
                "the SUT {status} after trace {sigma}, where the specification requires an \
                 output ({}): an exited SUT is quiescent",
                allowed.join(", ")
            ),
            allowed,
        ),
        Quiet::Unknown(why) => Ended::inconclusive(format!(
            "the SUT {status} after trace {sigma}; whether an output was required there is \
             unknown: {why}"
        )),
        Quiet::Allowed => match spec.an_input(rng) {
            Some(input) => exit(
                format!(
                    "the SUT {status} after trace {sigma}, where the specification still \
                     accepts inputs ({input}): it stopped accepting inputs, which violates \
                     input-enabledness"
                ),
                allowed,
            ),
            None => Ended::error(format!(
                "the SUT {status} after trace {sigma}; the specification allows quiescence and \
                 no input there, so this is no evidence of non-conformance"
            )),
        },
    }
}
/// Why a system that exited with `status` without ever writing an output was never started:
/// the shell's status 127 (command not found) or 126 (not executable). Such an exit is an
/// Error, never a Fail: the program under test never ran (inputs written to it before its
/// exit was seen went nowhere). One rule for both engines.
pub fn never_started(status: &str, wrote_output: bool) -> Option<String> {
    if wrote_output {
        return None;
    }
    let why = match status {
        "exited with status 127" => "command not found",
        "exited with status 126" => "command not executable",
        _ => return None,
    };
    Some(format!(
        "the system under test could not be started: it {status} ({why}) without writing any \
         output (hint: check the command line and the program's path)"
    ))
}
