//! The tester's rules for one step against a system under test, written once: how an input is
//! given and an output or quiescence observed (tutorial Alg. 2, P1:L488-521: "observe an output,
//! possibly δ", the atomic give with its race, L521), how long an observation waits, and how a
//! system that exits, breaks or writes something that is no output ends a run. Both ways of
//! running a test go through [`Rules`]: Alg. 2's loop ([`crate::alg2::run`]: online runs,
//! replays, purposes, switch coverage, shrinking, with or without data) and the execution of a
//! stored test case (tutorial Def. 5.1/5.8 with the race of Alg. 2; `ioco_exec::suite`), where
//! the test case, not a selection, says what to do next and which observations it accepts.
//!
//! The rules:
//! * **δ after δ** (tutorial Def. 6.4): an observation right after δ is δ again; it is answered
//!   without asking the system (no time-out) and not recorded twice.
//! * **Time-outs**: an observation waits the specification's quiescence time-out
//!   ([`Specification::timeout`], the rule of [`crate::timeouts`]); a system that answers at
//!   once ([`Sut::timed`] false: a simulator, an in-process component) is given none, and no
//!   hints.
//! * **Settling before an input**: where the specification allows only quiescence, the system
//!   is told so and for how long it may still be reacting ([`Sut::expect_quiet`],
//!   [`Sut::settle_timeout`], said when they change), so that an output still on its way races
//!   ahead of the input ([`Sent::Raced`]) and is judged in the state it belongs to.
//! * **The race** (Alg. 2's atomic give): an output that comes first is recorded instead of the
//!   input, which is not given.
//! * **The last look** ([`Rules::settle`]): a run that would pass right after an input or an
//!   output, where the specification allows only quiescence, looks once more, so that a late
//!   output there is a Fail, as a later input would have made it.
//! * **Judging**: every step goes to the [`Specification`], which records it; an output or δ
//!   it refuses ends the run with its Fail (a δ that rests on a time-out says so, and what to
//!   raise), or Inconclusive where it cannot tell; a line that is no output of the model is a
//!   Fail.
//! * **The exit rule** ([`sut_error`], below): a system that exits, crashes or breaks.
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
//!   required (solver unknown): **Inconclusive**; where the trace has left the specification
//!   (a test case that goes on after an input the specification does not enable): **Error**.
//!
//! A system that cannot be reset or breaks (bytes that are not a line, an I/O error) ends the
//! run with **Error**, never Fail.
//!
//! Cost: [`Rules`] is a few words on the caller's stack and its steps inline into the caller's
//! loop (no allocation, no `dyn` call beyond the system's own).

use crate::result::{Failure, RunResult, RunVerdict};
use crate::select::Stop;
use crate::spec::{Quiet, Refusal, Specification};
use crate::sut::{Observation, Sent, Sut, SutError};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

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

    /// How a selection's stop ends the run.
    pub fn stop(s: Stop) -> Ended {
        match s {
            Stop::Pass(note) => Ended::pass(note),
            Stop::Inconclusive(why) => Ended::inconclusive(why),
        }
    }

    /// How the specification's refusal ends the run.
    pub fn refusal(r: Refusal) -> Ended {
        match r {
            Refusal::Fail(f) => Ended::fail(f),
            Refusal::Inconclusive(why) => Ended::inconclusive(why),
        }
    }

    /// Why: a Fail's reason, an Error's or an Inconclusive's explanation; empty for a Pass
    /// (whose note, if any, is no reason).
    pub fn why(&self) -> &str {
        crate::result::why(
            self.verdict,
            self.failure.as_ref(),
            self.error.as_deref(),
            self.note.as_deref(),
        )
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

/// What a step saw, already recorded in the specification (which accepted it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seen<A> {
    /// The system took the input.
    Gave,
    /// The system produced this output (observed, or raced ahead of an input, which was then
    /// not given).
    Output(A),
    /// The system was quiescent (established, or δ after δ).
    Quiescence,
}

/// The tester's rules over one run, and the little they remember: whether the last
/// observation was δ, what the system was last told before an input, how many steps were
/// taken. Made per run ([`Rules::new`]), after [`start`].
#[derive(Clone, Debug)]
pub struct Rules {
    /// The system waits real time ([`Sut::timed`]): it gets time-outs and hints.
    timed: bool,
    /// The last observation was δ: observing again gives δ again (tutorial Def. 6.4).
    quiet: bool,
    /// Steps taken (inputs and observations, δ after δ included).
    steps: usize,
    /// The time-out the system was last told to settle for before an input.
    hinted: Option<Duration>,
    /// Whether the system was last told that only quiescence is allowed.
    quiet_hinted: Option<bool>,
}

impl Rules {
    /// The rules for a run against `sut`.
    #[inline]
    pub fn new<A, U: Sut<A> + ?Sized>(sut: &U) -> Rules {
        Rules {
            timed: sut.timed(),
            quiet: false,
            steps: 0,
            hinted: None,
            quiet_hinted: None,
        }
    }

    /// Steps taken so far: inputs and observations, δ after δ included.
    #[inline(always)]
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// Observe an output or quiescence and record it in `spec`: δ after δ without asking the
    /// system; else wait the specification's time-out. `Err`: how the run ends (a refused
    /// observation, a line that is no output, the exit rule).
    #[inline(always)]
    #[allow(clippy::result_large_err)] // inlined into the loop: no copy
    pub fn observe<S, U>(
        &mut self,
        spec: &mut S,
        sut: &mut U,
        rng: &mut ChaCha8Rng,
    ) -> Result<Seen<S::Action>, Ended>
    where
        S: Specification + ?Sized,
        U: Sut<S::Action> + ?Sized,
    {
        if self.quiet {
            // δ after δ: still quiescent, nothing asked, nothing written twice
            self.steps += 1;
            return Ok(Seen::Quiescence);
        }
        let t = if self.timed { spec.timeout() } else { None };
        match sut.observe(t) {
            Ok(Observation::Output(x)) => self.output(spec, x),
            Ok(Observation::Quiescent) => {
                self.steps += 1;
                self.quiet = true;
                match spec.observe(None) {
                    Ok(()) => Ok(Seen::Quiescence),
                    Err(r) => Err(refused_quiescence(r, t)),
                }
            }
            Err(e) => Err(sut_error(spec, e, rng)),
        }
    }

    /// Give `input` (one the specification enables), telling a timed system first whether the
    /// specification allows only quiescence now and its time-out (when they changed), and
    /// record what happened in `spec`: the input, or the output that raced ahead of it.
    #[inline(always)]
    #[allow(clippy::result_large_err)] // inlined into the loop: no copy
    pub fn give<S, U>(
        &mut self,
        spec: &mut S,
        sut: &mut U,
        input: &S::Action,
        rng: &mut ChaCha8Rng,
    ) -> Result<Seen<S::Action>, Ended>
    where
        S: Specification + ?Sized,
        U: Sut<S::Action> + ?Sized,
    {
        if self.timed {
            let quiet = spec.only_quiescence();
            if quiet {
                if let Some(t) = spec.timeout() {
                    if self.hinted != Some(t) {
                        sut.settle_timeout(t);
                        self.hinted = Some(t);
                    }
                }
            }
            if self.quiet_hinted != Some(quiet) {
                sut.expect_quiet(quiet);
                self.quiet_hinted = Some(quiet);
            }
        }
        match sut.send(input.clone()) {
            Ok(Sent::Accepted) => {
                self.steps += 1;
                self.quiet = false;
                match spec.give(input) {
                    Ok(()) => Ok(Seen::Gave),
                    Err(r) => Err(Ended::refusal(r)),
                }
            }
            Ok(Sent::Raced(x)) => self.output(spec, x),
            Err(e) => Err(sut_error(spec, e, rng)),
        }
    }

    /// An output seen: recorded, or the specification's refusal.
    #[inline(always)]
    #[allow(clippy::result_large_err)] // inlined into the loop: no copy
    fn output<S: Specification + ?Sized>(
        &mut self,
        spec: &mut S,
        x: S::Action,
    ) -> Result<Seen<S::Action>, Ended> {
        self.steps += 1;
        self.quiet = false;
        match spec.observe(Some(&x)) {
            Ok(()) => Ok(Seen::Output(x)),
            Err(r) => Err(Ended::refusal(r)),
        }
    }

    /// At the end of a run that would pass: where the system waits real time, the
    /// specification allows only quiescence and quiescence was not established after the last
    /// step (an input or an output), one more look, for the system to settle, so that an
    /// output still on its way is judged in the state it belongs to, as a later input would
    /// have made it (one not allowed there is a Fail; an allowed one is recorded, one step past
    /// the end, and the run ends). Quiescence found here is not recorded. `None`: nothing
    /// changes the verdict.
    pub fn settle<S, U>(&mut self, spec: &mut S, sut: &mut U, rng: &mut ChaCha8Rng) -> Option<Ended>
    where
        S: Specification + ?Sized,
        U: Sut<S::Action> + ?Sized,
    {
        if !self.timed || self.quiet || self.steps == 0 || !spec.only_quiescence() {
            return None;
        }
        let t = spec.timeout();
        match sut.observe(t) {
            Ok(Observation::Quiescent) => None,
            Ok(Observation::Output(x)) => spec.observe(Some(&x)).err().map(Ended::refusal),
            Err(e) => Some(sut_error(spec, e, rng)),
        }
    }
}

/// The end of a run whose δ the specification refused: a Fail that rests on a time-out says
/// so, and what to raise.
#[cold]
#[inline(never)]
fn refused_quiescence(r: Refusal, waited: Option<Duration>) -> Ended {
    match (r, waited) {
        (Refusal::Fail(mut f), Some(t)) => {
            f.reason = format!(
                "{} (δ: no output within the quiescence time-out of {} ms, or the system's \
                 quiescence marker; if the system is only slow, raise --timeout)",
                f.reason,
                t.as_millis()
            );
            Ended::fail(f)
        }
        (r, _) => Ended::refusal(r),
    }
}

/// The end of a run whose system under test exited, broke or wrote a line that is no output
/// of the model (the exit rule above).
#[cold]
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
    let quiet = spec.quiet();
    let allowed = spec.allowed();
    let exit = |reason: String, allowed: Vec<String>| {
        Ended::fail(Failure {
            observed: "exit".into(),
            allowed,
            reason,
        })
    };
    match quiet {
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
        Quiet::Outside => Ended::error(format!("after trace {sigma}: the SUT {status}")),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explicit::Explicit;
    use crate::options::OnlineOptions;
    use crate::tester::Tester;
    use ioco_model::{Alphabet, Label, LabelKind, Lts, LtsBuilder, QuiescencePolicy};
    use rand::SeedableRng;
    use std::collections::VecDeque;

    /// `0 -coin?-> 1 -coffee!-> 0`: only δ is allowed in 0, coffee! is required in 1.
    fn coffee() -> Lts {
        let mut b = LtsBuilder::new(Alphabet::new());
        b.add_states(2);
        b.add_initial(0);
        b.add(0, "coin", LabelKind::Input, 1).unwrap();
        b.add(1, "coffee", LabelKind::Output, 0).unwrap();
        b.build().unwrap()
    }

    /// A system that answers from a script and notes what it was asked and told.
    struct Scripted {
        timed: bool,
        sends: VecDeque<Result<Sent<Label>, SutError>>,
        observations: VecDeque<Result<Observation<Label>, SutError>>,
        /// What happened: `observe`, `send`, `expect_quiet …`, `settle …`.
        log: Vec<String>,
    }

    impl Scripted {
        fn new(timed: bool) -> Scripted {
            Scripted {
                timed,
                sends: VecDeque::new(),
                observations: VecDeque::new(),
                log: Vec::new(),
            }
        }
    }

    impl Sut<Label> for Scripted {
        fn reset(&mut self) -> Result<(), SutError> {
            Ok(())
        }
        fn send(&mut self, _: Label) -> Result<Sent<Label>, SutError> {
            self.log.push("send".into());
            self.sends.pop_front().expect("a send in the script")
        }
        fn observe(&mut self, t: Option<Duration>) -> Result<Observation<Label>, SutError> {
            self.log.push(format!("observe {t:?}"));
            self.observations
                .pop_front()
                .expect("an observation in the script")
        }
        fn expect_quiet(&mut self, quiet: bool) {
            self.log.push(format!("expect_quiet {quiet}"));
        }
        fn settle_timeout(&mut self, t: Duration) {
            self.log.push(format!("settle {t:?}"));
        }
        fn timed(&self) -> bool {
            self.timed
        }
    }

    fn rng() -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(0)
    }

    #[test]
    fn quiescence_after_quiescence_is_not_asked_for_nor_written_twice() {
        let lts = coffee();
        let opts = OnlineOptions::default();
        let mut tester = Tester::new(&lts, QuiescencePolicy::Stable);
        let mut spec = Explicit {
            tester: &mut tester,
            opts: &opts,
        };
        let mut sut = Scripted::new(true);
        sut.observations.push_back(Ok(Observation::Quiescent));
        let mut rules = Rules::new(&sut);
        let mut r = rng();
        for _ in 0..3 {
            assert_eq!(
                rules.observe(&mut spec, &mut sut, &mut r),
                Ok(Seen::Quiescence)
            );
        }
        assert_eq!(rules.steps(), 3);
        assert_eq!(sut.log.len(), 1, "{:?}", sut.log);
        assert_eq!(spec.tester.trace, [Label::DELTA.0]);
        // the time-out of the state: the default one
        assert_eq!(
            sut.log[0],
            format!("observe {:?}", Some(opts.quiescence_timeout))
        );
    }

    #[test]
    fn hints_are_given_to_a_timed_system_when_they_change_and_a_race_is_an_output() {
        let lts = coffee();
        let (coin, coffee) = (
            lts.alphabet().lookup("coin").unwrap(),
            lts.alphabet().lookup("coffee").unwrap(),
        );
        let opts = OnlineOptions::default();
        let mut tester = Tester::new(&lts, QuiescencePolicy::Stable);
        let mut spec = Explicit {
            tester: &mut tester,
            opts: &opts,
        };
        let mut sut = Scripted::new(true);
        sut.sends.push_back(Ok(Sent::Accepted));
        sut.observations.push_back(Ok(Observation::Output(coffee)));
        sut.sends.push_back(Ok(Sent::Raced(coffee)));
        let mut rules = Rules::new(&sut);
        let mut r = rng();
        assert_eq!(
            rules.give(&mut spec, &mut sut, &coin, &mut r),
            Ok(Seen::Gave)
        );
        assert_eq!(
            rules.observe(&mut spec, &mut sut, &mut r),
            Ok(Seen::Output(coffee))
        );
        // back in 0, where only δ is allowed: the same hints, not said again; a coffee! that
        // races ahead of coin? is an output, refused there
        let end = rules
            .give(&mut spec, &mut sut, &coin, &mut r)
            .expect_err("coffee! is not allowed in 0");
        assert_eq!(end.verdict, RunVerdict::Fail);
        let t = opts.quiescence_timeout;
        assert_eq!(
            sut.log,
            [
                format!("settle {t:?}"),
                "expect_quiet true".into(),
                "send".into(),
                format!("observe {:?}", Some(t)),
                "send".into(),
            ]
        );

        // a system that answers at once gets neither hints nor time-outs
        let mut sut = Scripted::new(false);
        sut.sends.push_back(Ok(Sent::Accepted));
        sut.observations.push_back(Ok(Observation::Output(coffee)));
        spec.start().unwrap();
        let mut rules = Rules::new(&sut);
        rules.give(&mut spec, &mut sut, &coin, &mut r).unwrap();
        rules.observe(&mut spec, &mut sut, &mut r).unwrap();
        assert_eq!(sut.log, ["send", "observe None"]);
        assert_eq!(rules.settle(&mut spec, &mut sut, &mut r), None);
    }

    #[test]
    fn the_last_look_is_taken_only_after_a_step_where_only_quiescence_is_allowed() {
        let lts = coffee();
        let (coin, coffee) = (
            lts.alphabet().lookup("coin").unwrap(),
            lts.alphabet().lookup("coffee").unwrap(),
        );
        let opts = OnlineOptions::default();
        let mut tester = Tester::new(&lts, QuiescencePolicy::Stable);
        let mut spec = Explicit {
            tester: &mut tester,
            opts: &opts,
        };
        let mut r = rng();
        // no step yet: no look
        let mut sut = Scripted::new(true);
        let mut rules = Rules::new(&sut);
        assert_eq!(rules.settle(&mut spec, &mut sut, &mut r), None);
        // after coin?, an output is allowed: no look
        sut.sends.push_back(Ok(Sent::Accepted));
        rules.give(&mut spec, &mut sut, &coin, &mut r).unwrap();
        assert_eq!(rules.settle(&mut spec, &mut sut, &mut r), None);
        assert!(!sut.log.iter().any(|l| l.starts_with("observe")));
        // after coffee!, only δ: a late coffee! is a Fail
        sut.observations.push_back(Ok(Observation::Output(coffee)));
        sut.observations.push_back(Ok(Observation::Output(coffee)));
        rules.observe(&mut spec, &mut sut, &mut r).unwrap();
        let end = rules.settle(&mut spec, &mut sut, &mut r).expect("a Fail");
        assert_eq!(end.verdict, RunVerdict::Fail);
        assert_eq!(end.failure.unwrap().observed, "coffee!");
        // after δ: no look
        spec.start().unwrap();
        let mut rules = Rules::new(&sut);
        sut.observations.push_back(Ok(Observation::Quiescent));
        rules.observe(&mut spec, &mut sut, &mut r).unwrap();
        let asked = sut.log.len();
        assert_eq!(rules.settle(&mut spec, &mut sut, &mut r), None);
        assert_eq!(sut.log.len(), asked);
    }

    #[test]
    fn a_system_that_exits_is_judged_by_the_exit_rule() {
        let lts = coffee();
        let coin = lts.alphabet().lookup("coin").unwrap();
        let opts = OnlineOptions::default();
        let mut tester = Tester::new(&lts, QuiescencePolicy::Stable);
        let mut spec = Explicit {
            tester: &mut tester,
            opts: &opts,
        };
        let mut r = rng();
        let exited = || SutError::Exited {
            status: "exited with status 3".into(),
        };
        // where coffee! is required: Fail
        let mut sut = Scripted::new(true);
        sut.sends.push_back(Ok(Sent::Accepted));
        sut.observations.push_back(Err(exited()));
        let mut rules = Rules::new(&sut);
        rules.give(&mut spec, &mut sut, &coin, &mut r).unwrap();
        let end = rules.observe(&mut spec, &mut sut, &mut r).unwrap_err();
        assert_eq!(end.verdict, RunVerdict::Fail);
        assert!(end.why().contains("requires an output"), "{}", end.why());
        // where coin? is still offered: Fail; never started (127, no output): Error
        spec.start().unwrap();
        sut.sends.push_back(Err(exited()));
        let end = Rules::new(&sut)
            .give(&mut spec, &mut sut, &coin, &mut r)
            .unwrap_err();
        assert_eq!(end.verdict, RunVerdict::Fail);
        assert!(end.why().contains("input-enabledness"), "{}", end.why());
        sut.sends.push_back(Err(SutError::Exited {
            status: "exited with status 127".into(),
        }));
        let end = Rules::new(&sut)
            .give(&mut spec, &mut sut, &coin, &mut r)
            .unwrap_err();
        assert_eq!(end.verdict, RunVerdict::Error);
        // a line that is no output: Fail
        sut.observations
            .push_back(Err(SutError::UnknownOutput { line: "tea".into() }));
        let end = Rules::new(&sut)
            .observe(&mut spec, &mut sut, &mut r)
            .unwrap_err();
        assert_eq!(end.verdict, RunVerdict::Fail);
        assert_eq!(end.failure.unwrap().observed, "tea");
    }
}
