//! Running stored test suites ([`ioco_gen::Suite`] of [`TestCase`] trees) against a SUT, as in
//! note §2.4: a leaf ends with its verdict; an observe node waits for an output or δ and follows
//! the matching branch (or its `otherwise` verdict); a stimulate node gives its input unless an
//! output races ahead (then that output's branch is followed).
//!
//! Every step goes through the tester's rules of [`ioco_engine::rules`], the ones Alg. 2 follows
//! (δ after δ, time-outs, settling before an input where only δ is allowed, the race, the last
//! look before a Pass, the exit rule): the test case only says what to do next and judges the
//! steps it allows.
//!
//! * Nested suites with [`SuiteRole::Distinguishing`] (thesis Def. 2.37's merge suites): their
//!   `fail` means "distinguished", and such a run is reported as Pass with the note
//!   "distinguished" — unless the observed trace leaves the outer specification through an
//!   output or δ (tutorial Def. 6.2), which is a real non-conformance and stays Fail.
//! * Nondeterministic SUTs: a test is run again while one of its choice points has a branch it
//!   wants and has not seen, up to a budget (the rule of [`crate::fairness`], thesis §2.7.4; at
//!   least `fairness.at_least` times, stopping at the first Fail): other outputs get a chance
//!   (fairness, tutorial P1:L326-328), and a test whose access sequence the implementation never
//!   follows counts as executed only once the branch it wants is absent with the confidence
//!   asked for.
//! * The specification is tracked along ([`Along`]) for coverage and for the rules (time-outs,
//!   where only δ is allowed, the exit rule).

use crate::adapter::{Sut, SutError};
use crate::engine::explicit::Explicit;
use crate::engine::{Ended, Quiet, Refusal, Specification};
use crate::fairness::{Branches, ChoicePoint, Tries};
use crate::online::{pool_with, summarise, OnlineOptions};
use crate::result::{Failure, RunResult, RunVerdict, Summary};
use crate::tester::Tester;
use ioco_engine::rules::{self, Rules, Seen};
use ioco_gen::stream::StreamedTest;
use ioco_gen::{derive_seed, Suite, SuiteRole, TestCase, Verdict};
use ioco_model::{Label, Lts};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Mutex;
use std::time::{Duration, Instant};

fn verdict(v: Verdict) -> RunVerdict {
    match v {
        Verdict::Pass => RunVerdict::Pass,
        Verdict::Fail => RunVerdict::Fail,
        Verdict::Inconclusive => RunVerdict::Inconclusive,
    }
}

/// The observations a node accepts (branches not leading straight to fail), for messages.
fn accepted(branches: &[ioco_gen::Branch]) -> Vec<String> {
    branches
        .iter()
        .filter(|b| {
            !matches!(
                b.then,
                TestCase::Leaf {
                    verdict: Verdict::Fail,
                    ..
                }
            )
        })
        .map(|b| b.label.clone())
        .collect()
}

/// Follow `label` from a node with `branches`/`otherwise`.
#[allow(clippy::result_large_err)] // once per test, not per step
fn follow<'t>(
    node: &'t TestCase,
    label: &str,
    otherwise: Verdict,
    branches: &[ioco_gen::Branch],
) -> Result<&'t TestCase, Ended> {
    match node.branch(label) {
        Some(n) => Ok(n),
        None => Err(leaf_end(
            verdict(otherwise),
            Some(Failure {
                observed: label.to_string(),
                allowed: accepted(branches),
                reason: format!(
                    "{label} is not among the observations the test allows ({})",
                    accepted(branches).join(", ")
                ),
            }),
        )),
    }
}

/// The end at a leaf with verdict `v`: a Fail with `failure`, an Inconclusive with its reason
/// as the note (e.g. "the system did not help at joker state 2"), a Pass.
fn leaf_end(v: RunVerdict, failure: Option<Failure>) -> Ended {
    Ended {
        verdict: v,
        note: failure
            .as_ref()
            .filter(|_| v == RunVerdict::Inconclusive)
            .map(|f| f.reason.clone()),
        failure: failure.filter(|_| v == RunVerdict::Fail),
        error: None,
    }
}

/// Execute one test case once.
pub fn run_test(
    tester: &mut Tester<'_>,
    adapter: &mut dyn Sut,
    opts: &OnlineOptions,
    test: &TestCase,
    run: usize,
    seed: u64,
) -> RunResult {
    run_test_at(tester, adapter, opts, test, run, seed, &mut Vec::new())
}

/// [`run_test`], also listing the choice points the try passed ([`crate::fairness`]).
fn run_test_at(
    tester: &mut Tester<'_>,
    adapter: &mut dyn Sut,
    opts: &OnlineOptions,
    test: &TestCase,
    run: usize,
    seed: u64,
    points: &mut Vec<ChoicePoint>,
) -> RunResult {
    let mut r = RunResult::new(run, seed);
    let t0 = Instant::now();
    let mut spec = Along {
        spec: Explicit { tester, opts },
        tracking: true,
    };
    // (only the exit rule draws from it, and over an LTS it does not)
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let end = match rules::start(&mut spec, adapter, seed, opts.retries) {
        Err(e) => e,
        Ok(()) => exec(&mut spec, adapter, test, points, &mut rng),
    };
    end.write(&mut r);
    r.trace = tester.take_trace_for(r.verdict, opts.traces);
    r.steps = tester.steps;
    r.quiescence = crate::result::Established::from_counts(adapter.established());
    r.stderr = adapter.stderr_tail();
    r.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
    r
}

/// The specification as a test case's execution tracks it: the explicit specification while
/// the trace stays in it. The test case judges its own steps (its branches, `otherwise` and
/// leaves), so a step the specification does not take ends the tracking, not the run; from
/// there on the specification says nothing ([`Quiet::Outside`]), the default time-out
/// applies and no input waits for the system to settle.
struct Along<'t, 'a> {
    spec: Explicit<'t, 'a>,
    /// The trace is still one of the specification.
    tracking: bool,
}

impl Along<'_, '_> {
    /// A step outside the specification: written to the trace only.
    fn outside(&mut self, l: Label) {
        let t = &mut *self.spec.tester;
        t.steps += 1;
        t.trace.push(l.0);
    }
}

impl Specification for Along<'_, '_> {
    type Action = Label;

    fn start(&mut self) -> Result<(), String> {
        self.tracking = true;
        self.spec.start()
    }

    fn enables(&mut self, input: &Label) -> bool {
        self.tracking && self.spec.enables(input)
    }

    #[inline]
    fn give(&mut self, input: &Label) -> Result<(), Refusal> {
        if self.tracking {
            self.tracking = self.spec.tester.input(*input);
        } else {
            self.outside(*input);
        }
        Ok(())
    }

    #[inline]
    fn observe(&mut self, output: Option<&Label>) -> Result<(), Refusal> {
        let x = output.copied().unwrap_or(Label::DELTA);
        if self.tracking {
            self.tracking = self.spec.tester.observe(x).is_ok();
        } else {
            self.outside(x);
        }
        Ok(())
    }

    fn garbage(&mut self, line: &str) -> Failure {
        self.spec.garbage(line)
    }

    fn quiet(&mut self) -> Quiet {
        if self.tracking {
            self.spec.quiet()
        } else {
            Quiet::Outside
        }
    }

    fn only_quiescence(&mut self) -> bool {
        self.tracking && self.spec.only_quiescence()
    }

    fn an_input(&mut self, rng: &mut ChaCha8Rng) -> Option<String> {
        self.spec.an_input(rng)
    }

    fn allowed(&mut self) -> Vec<String> {
        self.spec.allowed()
    }

    fn wrote_output(&self) -> bool {
        self.spec.wrote_output()
    }

    fn trace_text(&self) -> String {
        self.spec.trace_text()
    }

    fn timeout(&mut self) -> Option<Duration> {
        if self.tracking {
            self.spec.timeout()
        } else {
            Some(self.spec.opts.quiescence_timeout)
        }
    }
}

/// Execute `test` from where both sides are, each step by the tester's [`Rules`].
fn exec(
    spec: &mut Along<'_, '_>,
    sut: &mut dyn Sut,
    test: &TestCase,
    points: &mut Vec<ChoicePoint>,
    rng: &mut ChaCha8Rng,
) -> Ended {
    let alphabet = spec.spec.tester.alphabet();
    let mut rules = Rules::new(sut);
    let mut node = test;
    loop {
        match node {
            TestCase::Leaf { verdict: v, reason } => {
                if *v == Verdict::Pass && spec.tracking {
                    // the specification judges the last look (a late output where only δ
                    // is allowed is a Fail, as at the end of an Alg. 2 run)
                    if let Some(end) = rules.settle(&mut spec.spec, sut, rng) {
                        return end;
                    }
                }
                let v = verdict(*v);
                let tester = &*spec.spec.tester;
                let failure = reason.as_ref().map(|why| Failure {
                    observed: tester.last_text(),
                    allowed: Vec::new(),
                    reason: why.clone(),
                });
                return leaf_end(
                    v,
                    failure.or_else(|| {
                        (v == RunVerdict::Fail).then(|| Failure {
                            observed: tester.last_text(),
                            allowed: Vec::new(),
                            reason: "the test reached a fail leaf".into(),
                        })
                    }),
                );
            }
            TestCase::Observe {
                branches,
                otherwise,
            } => {
                let at = spec.spec.tester.trace.len();
                let x = match rules.observe(spec, sut, rng) {
                    Ok(Seen::Output(x)) => x,
                    Ok(_) => Label::DELTA,
                    Err(end) => return end,
                };
                choice(
                    alphabet,
                    &spec.spec.tester.trace[..at],
                    branches,
                    *otherwise,
                    None,
                    x,
                    points,
                );
                match follow(node, &alphabet.display(x), *otherwise, branches) {
                    Ok(n) => node = n,
                    Err(end) => return end,
                }
            }
            TestCase::Stimulate {
                input,
                after,
                branches,
                otherwise,
            } => {
                let bare = input.strip_suffix('?').unwrap_or(input);
                let Some(a) = alphabet.lookup_kind(bare, ioco_model::LabelKind::Input) else {
                    return Ended::error(format!(
                        "the test gives `{input}`, which is not an input of the model"
                    ));
                };
                let at = spec.spec.tester.trace.len();
                let raced = match rules.give(spec, sut, &a, rng) {
                    Ok(Seen::Output(x)) => Some(x),
                    Ok(_) => None,
                    Err(end) => return end,
                };
                choice(
                    alphabet,
                    &spec.spec.tester.trace[..at],
                    branches,
                    *otherwise,
                    Some(a),
                    raced.unwrap_or(a),
                    points,
                );
                match raced {
                    None => node = after,
                    Some(x) => match follow(node, &alphabet.display(x), *otherwise, branches) {
                        Ok(n) => node = n,
                        Err(end) => return end,
                    },
                }
            }
        }
    }
}

/// True when a branch continues the test (not a fail or inconclusive leaf).
fn continues(t: &TestCase) -> bool {
    !matches!(
        t,
        TestCase::Leaf {
            verdict: Verdict::Fail | Verdict::Inconclusive,
            ..
        }
    )
}

/// Record a choice point: a node with two or more outcomes other than fail (`input`: the input
/// offered by a stimulate node, always wanted; `otherwise` not fail: any other outcome), after
/// the trace `at`, where `taken` was taken.
fn choice(
    alphabet: &ioco_model::Alphabet,
    at: &[u32],
    branches: &[ioco_gen::Branch],
    otherwise: Verdict,
    input: Option<Label>,
    taken: Label,
    points: &mut Vec<ChoicePoint>,
) {
    let possible = branches
        .iter()
        .filter(|b| {
            !matches!(
                b.then,
                TestCase::Leaf {
                    verdict: Verdict::Fail,
                    ..
                }
            )
        })
        .count()
        + usize::from(input.is_some())
        + usize::from(otherwise != Verdict::Fail);
    if possible < 2 {
        return;
    }
    let mut wanted: Vec<u32> = input.map(|a| a.0).into_iter().collect();
    for b in branches.iter().filter(|b| continues(&b.then)) {
        let l = if b.label == ioco_gen::DELTA {
            Some(Label::DELTA)
        } else {
            alphabet.parse(&b.label)
        };
        if let Some(l) = l {
            wanted.push(l.0);
        }
    }
    points.push(ChoicePoint {
        at: at.to_vec(),
        wanted,
        taken: taken.0,
    });
}

/// True when `trace` (labels as written: `a?`, `x!`, `δ`) leaves `spec` through an output or
/// δ: the a^ioco annotation of tutorial Def. 6.2 is fail.
fn leaves_spec_by_output(
    spec: &Lts,
    policy: ioco_model::QuiescencePolicy,
    trace: &crate::Trace,
) -> bool {
    let alphabet = spec.alphabet();
    let mut sus = ioco_model::Suspension::new(spec, policy);
    let mut q = sus.initial();
    for text in trace {
        let l = if text == ioco_gen::DELTA {
            Some(Label::DELTA)
        } else {
            alphabet.parse(text)
        };
        let Some(l) = l else {
            // Not a label of the specification: an unknown output is a violation.
            return !text.ends_with('?');
        };
        match sus.step(q, l) {
            Some(n) => q = n,
            None => return !alphabet.is_input(l),
        }
    }
    false
}

/// Run every test of `suite` (nested suites included) against SUTs made by `make_adapter`.
pub fn run_suite<F>(spec: &Lts, suite: &Suite, opts: &OnlineOptions, make_adapter: F) -> Summary
where
    F: Fn(usize) -> Result<Box<dyn Sut + Send>, SutError> + Sync,
{
    let mut flat = ioco_gen::stream::flatten(suite);
    let n = flat.len();
    // the tests move to the runner (each was copied once, by `flatten`)
    let mut source = |each: &mut dyn FnMut(StreamedTest) -> bool| {
        for t in flat.drain(..) {
            if !each(t) {
                break;
            }
        }
        Ok(())
    };
    // the game tests aim at a goal: one never reached is Inconclusive (`fairness`)
    let mut opts = opts.clone();
    opts.fairness = opts.fairness.aiming(Suite::aims_at_goal(&suite.method));
    let mut s = run_suite_streaming(spec, &mut source, n, &opts, make_adapter)
        .expect("an in-memory suite cannot fail to read");
    s.parameters
        .insert("method".into(), suite.method.clone().into());
    s
}

/// Any system under test, as the suite runner's workers hold it.
type AnySut = Box<dyn Sut + Send>;

/// Where the tests of a streamed suite come from: a function that hands every test to its
/// argument in order (stopping when that returns `false`), or says why it could not read them.
pub type TestSource<'a> =
    dyn FnMut(&mut dyn FnMut(StreamedTest) -> bool) -> Result<(), String> + Send + 'a;

/// Run the tests `source` produces, read while they run (issue #19: memory stays that of the
/// tests in flight, whatever the size of the suite); `count` (the number of tests, when known)
/// sizes the worker pool. Test `k` gets the same seeds as in [`run_suite`].
pub fn run_suite_streaming<F>(
    spec: &Lts,
    source: &mut TestSource<'_>,
    count: usize,
    opts: &OnlineOptions,
    make_adapter: F,
) -> Result<Summary, String>
where
    F: Fn(usize) -> Result<Box<dyn Sut + Send>, SutError> + Sync,
{
    let t0 = Instant::now();
    let fair = opts.fairness;
    let session = Branches::default();
    let work =
        |t: &mut Tester<'_>, a: &mut AnySut, k: usize, f: StreamedTest, _d: Option<Instant>| {
            let mut r = repeat(t, &mut **a, opts, &f.test, k, &session);
            r.test = Some(f.name);
            // In a distinguishing suite a fail means "told apart" unless the observed trace is a
            // counterexample of the outer specification itself (tutorial Def. 6.2): that stays Fail.
            let real = r.verdict == RunVerdict::Fail
                && leaves_spec_by_output(t.spec(), opts.policy, &r.trace);
            if f.role == SuiteRole::Distinguishing && r.verdict == RunVerdict::Fail && !real {
                r.verdict = RunVerdict::Pass;
                let what = r.failure.take().map(|f| f.reason).unwrap_or_default();
                r.note = Some(format!(
                "distinguished (a fail in a distinguishing suite is not a non-conformance): {what}"
            ));
            }
            r
        };
    let jobs = opts
        .jobs
        .clamp(1, crate::shard::indices(opts.shard, count).len().max(1));
    // The reader runs beside the workers, a few batches ahead of them; tests go over in
    // batches, so that a suite of many short tests does not pay a thread hand-over per test.
    const BATCH: usize = 64;
    let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<(usize, StreamedTest)>>(2 * jobs);
    let (p, read) = std::thread::scope(|s| {
        let reader = s.spawn(move || {
            let mut k = 0usize;
            let mut batch = Vec::with_capacity(BATCH);
            let mut open = true;
            let shard = opts.shard;
            let r = source(&mut |t| {
                // this shard's tests only, with their indices (and seeds) in the whole suite
                if shard.is_none_or(|s| s.takes(k)) {
                    batch.push((k, t));
                }
                k += 1;
                if batch.len() == BATCH {
                    open = tx
                        .send(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)))
                        .is_ok();
                }
                open
            });
            if open && !batch.is_empty() {
                let _ = tx.send(batch);
            }
            r
        });
        let queue = Mutex::new((rx, std::collections::VecDeque::new()));
        let next = |_: usize, _: Option<usize>| {
            let mut q = queue.lock().unwrap_or_else(|p| p.into_inner());
            if q.1.is_empty() {
                let more = q.0.recv().ok()?;
                q.1.extend(more);
            }
            q.1.pop_front()
        };
        let p = pool_with(spec, opts, jobs, &next, &make_adapter, &work);
        // the workers are done: a reader still waiting to hand over tests stops
        drop(queue);
        let read = reader
            .join()
            .unwrap_or_else(|_| Err("the suite reader panicked".into()));
        (p, read)
    });
    read?;
    let mut s = summarise("suite", opts, p, t0);
    s.parameters.insert("max_tries".into(), fair.budget.into());
    s.parameters.insert("evidence_k".into(), fair.tries.into());
    s.parameters
        .insert("min_branch_probability".into(), fair.min_probability.into());
    Ok(s)
}

/// Run test `k` under the fairness rule of [`crate::fairness`]: again while one of its choice
/// points is open and the budget lasts; the verdict of the test from its tries.
fn repeat(
    t: &mut Tester<'_>,
    a: &mut dyn Sut,
    opts: &OnlineOptions,
    test: &TestCase,
    k: usize,
    session: &Branches,
) -> RunResult {
    let fair = opts.fairness;
    let mut tries = Tries::default();
    let mut passed: Option<RunResult> = None;
    let mut last: Option<RunResult> = None;
    let mut steps = 0;
    let mut ms = 0.0;
    while tries.count < fair.budget {
        let seed = derive_seed(opts.seed, (k as u64) << 16 | tries.count as u64);
        let mut points = Vec::new();
        let r = run_test_at(t, a, opts, test, k, seed, &mut points);
        tries.add(points, session);
        steps += r.steps;
        ms += r.duration_ms;
        match r.verdict {
            RunVerdict::Fail | RunVerdict::Error => {
                last = Some(r);
                break;
            }
            RunVerdict::Pass => passed = Some(r),
            RunVerdict::Inconclusive => last = Some(r),
        }
        if tries.count >= fair.at_least && tries.open(&fair, session).is_none() {
            break;
        }
    }
    let names = t.names();
    let name = |l: u32| names[l as usize].to_string();
    let seen = tries.describe(&name);
    let mut r = match (last, passed) {
        (Some(r), _) if matches!(r.verdict, RunVerdict::Fail | RunVerdict::Error) => {
            let mut r = r;
            if tries.count > 1 {
                r.note = Some(format!("at try {} of at most {}", tries.count, fair.budget));
            }
            r
        }
        (_, Some(mut r)) => {
            if tries.count > 1 {
                r.note = Some(format!("{} tries; {seen}", tries.count));
            }
            r
        }
        (Some(mut r), None) => {
            match tries.open(&fair, session) {
                // a goal missed is Inconclusive, however well the evidence says the system
                // never takes the branch to it (`fairness`: tests that aim at a goal)
                None if fair.goal && tries.weakest(session).is_some() => {
                    let n = tries.weakest(session).unwrap_or_default();
                    let why = r
                        .note
                        .take()
                        .map(|w| format!(" (last: {w})"))
                        .unwrap_or_default();
                    r.note = Some(format!(
                        "goal not reached: the implementation never took the branch towards the \
                         goal in {n} observation(s) of the session, and gave no output the \
                         specification forbids in {} tries{why}; {seen}",
                        tries.count
                    ));
                }
                // (an Inconclusive reached without a choice point is no branch not taken)
                None if tries.weakest(session).is_some() => {
                    // Every try left the test where the specification allows it, and the
                    // branch it wants is absent with the confidence asked for.
                    let n = tries.weakest(session).unwrap_or_default();
                    r.verdict = RunVerdict::Pass;
                    r.note = Some(format!(
                        "executed under fairness: the implementation never took the branch the test wants in \
                         {n} observation(s) of the session (residual risk {:.2e}, minimum branch \
                         probability {}); {} tries; {seen}",
                        fair.residual(n),
                        fair.min_probability,
                        tries.count
                    ));
                }
                _ => {
                    let why = r.note.take().map(|w| format!(" ({w})")).unwrap_or_default();
                    let goal = if fair.goal { "goal not reached: " } else { "" };
                    r.note = Some(format!(
                        "{goal}the implementation did not follow the test in {} tries{why}; {seen}",
                        tries.count
                    ));
                }
            }
            r
        }
        (None, None) => {
            let mut r = RunResult::new(k, opts.seed);
            Ended::error("no try: the budget of tries is 0".into()).write(&mut r);
            r
        }
    };
    r.steps = steps;
    r.duration_ms = ms;
    r
}
