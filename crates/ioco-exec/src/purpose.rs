//! Online testing steered by a finite test purpose (seed 004 §2 and §5: the product S × TP,
//! coreachability of accept; thesis ch. 6 joker strategies): at every step the solved product
//! [`ioco_games::PurposeProduct`] advises an input that keeps accept reachable (fewest
//! cooperations of the system, then fewest moves), or to wait; this module connects it to an
//! [`Adapter`] and turns each run into a [`RunResult`]:
//! * **Pass**: the trace reached an accept state of the purpose;
//! * **Inconclusive**: a refuse state was reached, the purpose can no longer be accepted, or
//!   the step bound was used up before accept;
//! * **Fail**: an output (or quiescence) the specification does not allow; a SUT that exits
//!   where the specification requires an output or still offers inputs (the rule of
//!   [`crate::tester`]).
//!
//! With data, [`run_purpose_data`] runs the symbolic counterpart (`ioco_stg::online`: inputs
//! chosen inside the strengthened guards, conformance judged by `ioco-symbolic`) the same way.

use crate::adapter::{Adapter, AdapterError, Observation, Sent};
use crate::{Failure, RunResult, RunVerdict};
use ioco_games::{Advice, PurposeProduct, Step};
use ioco_gen::Verdict;
use ioco_model::{Label, State};
use std::time::{Duration, Instant};

/// The settings of a purpose session (`timeout` and `retries` concern the label-level
/// adapter; with data the system under test has its own).
#[derive(Clone, Debug)]
pub struct PurposeRunOptions {
    /// Number of runs.
    pub runs: usize,
    /// Steps per run before Inconclusive.
    pub depth: usize,
    /// Quiescence time-out of an observation.
    pub timeout: Duration,
    /// Attempts to reset the SUT before a run is an Error.
    pub retries: usize,
    /// Go on after a Fail or an Error.
    pub keep_going: bool,
    /// Start no run after this instant.
    pub deadline: Option<Instant>,
}

/// The runs of a purpose session against one adapter: run `k` uses the seed
/// `derive_seed(seed, k)`; stops after a Fail or Error unless `keep_going`, and at the deadline.
pub fn run_purpose(
    prod: &PurposeProduct,
    adapter: &mut dyn Adapter,
    seed: u64,
    opts: &PurposeRunOptions,
) -> Vec<RunResult> {
    let mut runs = Vec::new();
    for k in 0..opts.runs {
        if opts.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let run_seed = ioco_gen::strategy::derive_seed(seed, k as u64);
        let r = steer(
            prod,
            adapter,
            k,
            run_seed,
            opts.depth,
            opts.timeout,
            opts.retries,
        );
        let stop = matches!(r.verdict, RunVerdict::Fail | RunVerdict::Error) && !opts.keep_going;
        runs.push(r);
        if stop {
            break;
        }
    }
    runs
}

fn verdict(v: Verdict) -> RunVerdict {
    match v {
        Verdict::Pass => RunVerdict::Pass,
        Verdict::Fail => RunVerdict::Fail,
        _ => RunVerdict::Inconclusive,
    }
}

/// The outputs (and δ) the product allows at `q`, as written.
fn allowed(prod: &PurposeProduct, q: State) -> Vec<String> {
    let a = prod.lts.alphabet();
    prod.lts
        .edges(q)
        .iter()
        .filter(|e| e.label == Label::DELTA || a.is_output(e.label))
        .map(|e| a.display(e.label))
        .collect()
}

/// One run steered by the purpose product against `adapter` (run `k`, seed `seed`).
pub fn steer(
    prod: &PurposeProduct,
    adapter: &mut dyn Adapter,
    k: usize,
    seed: u64,
    depth: usize,
    timeout: Duration,
    retries: usize,
) -> RunResult {
    let t0 = Instant::now();
    let mut r = RunResult::new(k, seed);
    r.test = Some("purpose".into());
    adapter.set_seed(seed);
    let mut reset = adapter.reset();
    for attempt in 0..retries {
        if reset.is_ok() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10 << attempt.min(6)));
        reset = adapter.reset();
    }
    if let Err(e) = reset {
        r.verdict = RunVerdict::Error;
        r.error = Some(format!("could not reset the SUT: {e}"));
        return r;
    }
    let alpha = prod.lts.alphabet();
    let mut q: State = 0;
    let end: (RunVerdict, String) = loop {
        if r.steps >= depth {
            break (
                RunVerdict::Inconclusive,
                format!(
                    "step bound {depth} reached before accept (at {})",
                    prod.lts.state_name(q)
                ),
            );
        }
        let x = match prod.advise(q) {
            Advice::Stop(v, why) => break (verdict(v), why),
            Advice::Stimulate(a) => match adapter.send(a) {
                Ok(Sent::Accepted) => a,
                Ok(Sent::Raced(x)) => x,
                Err(e) => break exit_rule(prod, q, e, &mut r),
            },
            Advice::Observe => match adapter.observe(timeout) {
                Ok(Observation::Output(x)) => x,
                Ok(Observation::Quiescent) => Label::DELTA,
                Err(e) => break exit_rule(prod, q, e, &mut r),
            },
        };
        r.steps += 1;
        r.trace.push(alpha.display(x));
        match prod.step(q, x) {
            Step::Continue(t) => q = t,
            Step::Stop(v, why) => {
                if v == Verdict::Fail {
                    let allowed = allowed(prod, q);
                    r.failure = Some(Failure {
                        observed: alpha.display(x),
                        allowed,
                        reason: why.clone(),
                    });
                }
                break (verdict(v), why);
            }
        }
    };
    r.verdict = end.0;
    match end.0 {
        RunVerdict::Error => r.error = Some(end.1),
        RunVerdict::Pass => r.note = Some(format!("accept reached: {}", end.1)),
        RunVerdict::Inconclusive => r.note = Some(end.1),
        RunVerdict::Fail => {}
    }
    r.stderr = adapter.stderr_tail();
    r.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
    r
}

/// An adapter error at product state `q` as a verdict (the exit rule of `ioco_exec::tester`).
fn exit_rule(
    prod: &PurposeProduct,
    q: State,
    e: AdapterError,
    r: &mut RunResult,
) -> (RunVerdict, String) {
    let alpha = prod.lts.alphabet();
    let allowed = allowed(prod, q);
    let fail = |r: &mut RunResult, observed: String, reason: String| {
        r.failure = Some(Failure {
            observed,
            allowed: allowed.clone(),
            reason: reason.clone(),
        });
        (RunVerdict::Fail, reason)
    };
    match e {
        AdapterError::UnknownOutput { line } => {
            r.steps += 1;
            r.trace.push(format!("{line}!"));
            let why = format!(
                "the SUT wrote `{line}`, which is not an output of the model (allowed: {})",
                allowed.join(", ")
            );
            fail(r, line, why)
        }
        AdapterError::Exited { status } => {
            let quiet_ok = prod.lts.enables(q, Label::DELTA);
            let inputs: Vec<String> = prod
                .lts
                .edges(q)
                .iter()
                .filter(|e| alpha.is_input(e.label))
                .map(|e| alpha.display(e.label))
                .collect();
            let sigma = r.trace.join(" ");
            if !quiet_ok {
                let why = format!(
                    "the SUT {status} after trace {sigma}, where the specification requires an \
                     output ({}): an exited SUT is quiescent",
                    allowed.join(", ")
                );
                fail(r, "exit".into(), why)
            } else if !inputs.is_empty() {
                let why = format!(
                    "the SUT {status} after trace {sigma}, where the specification still \
                     accepts inputs ({}): it stopped accepting inputs",
                    inputs.join(", ")
                );
                fail(r, "exit".into(), why)
            } else {
                (
                    RunVerdict::Error,
                    format!("the SUT {status} after trace {sigma}; no evidence either way"),
                )
            }
        }
        other => (
            RunVerdict::Error,
            format!("after trace {}: {other}", r.trace.join(" ")),
        ),
    }
}

/// The runs of a purpose session with data against one system under test: run `k` is
/// `ioco_stg::online::run` over the symbolic test graph `g` of `spec` × `purpose`, judged by a
/// fresh `oracle()`; it is recorded with the seed `derive_seed(seed, k)`; stops after a Fail or
/// Error unless `keep_going`, and at the deadline. An error is an oracle that cannot be made.
pub fn run_purpose_data<D: ioco_stg::Domain>(
    g: &ioco_stg::TestGraph<D>,
    spec: &ioco_lang::Model,
    purpose: &ioco_lang::Model,
    sut: &mut dyn ioco_symbolic::online::DataSut,
    oracle: impl Fn() -> Result<ioco_symbolic::SymbolicSpec, String>,
    seed: u64,
    opts: &PurposeRunOptions,
) -> Result<Vec<RunResult>, String> {
    let mut runs = Vec::new();
    for k in 0..opts.runs {
        if opts.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let run_seed = ioco_gen::strategy::derive_seed(seed, k as u64);
        let mut oracle = oracle()?;
        let ropts = ioco_stg::online::RunOptions { depth: opts.depth };
        let run = ioco_stg::online::run(g, spec, purpose, sut, &mut oracle, &ropts);
        let mut r = crate::data_run::result_of(
            k,
            run_seed,
            &run.trace,
            &run.verdict,
            run.observed.as_ref(),
            &run.allowed,
        );
        r.test = Some("purpose".into());
        if r.verdict == RunVerdict::Pass {
            r.note = Some("accept reached".into());
        }
        r.stderr = sut.stderr_tail();
        let stop = matches!(r.verdict, RunVerdict::Fail | RunVerdict::Error) && !opts.keep_going;
        runs.push(r);
        if stop {
            break;
        }
    }
    Ok(runs)
}
