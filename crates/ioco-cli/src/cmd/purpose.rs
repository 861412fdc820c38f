//! `ioco test MODEL --purpose PURPOSE --cmd ...`: online testing steered towards a test
//! purpose (seed 004 §2 and §5: the product S × TP, coreachability of accept, Pass /
//! Inconclusive / Fail), and the purpose loading shared with `ioco gen --purpose`.
//!
//! The purpose is a model (`.ioco`, `.aut`, ...) whose states named `accept…` are the accept
//! sinks and `refuse…` the refuse sinks; a label a state does not mention leaves it where it
//! is. The engine is [`ioco_games::PurposeProduct`]: at every step it advises an input that
//! keeps accept reachable (fewest cooperations of the system, then fewest moves: the joker
//! strategy of the product, whose joker region is exactly coreach(accept)), or to wait. This
//! module only connects it to the SUT adapter of `ioco-exec`:
//! * **Pass**: the trace reached an accept state of the purpose;
//! * **Inconclusive**: a refuse state was reached, the purpose can no longer be accepted, or
//!   the step bound `--depth` was used up before accept;
//! * **Fail**: an output (or quiescence) the specification does not allow; a SUT that exits
//!   where the specification requires an output or still offers inputs (the rule of
//!   `ioco_exec::tester`).

use super::test::{seed_or_clock, Args};
use super::Outcome;
use crate::load::load_lts;
use ioco_exec::adapter::{Adapter, AdapterError, Observation, Sent};
use ioco_exec::{Failure, RunResult, RunVerdict, Summary};
use ioco_games::{Advice, Purpose, PurposeOptions, PurposeProduct, Step};
use ioco_gen::Verdict;
use ioco_model::{Label, Lts, QuiescencePolicy, State, SuspensionAutomaton};
use miette::{miette, Result};
use std::path::Path;
use std::time::{Duration, Instant};

/// Load a test purpose (any model format; `.ioco` included).
pub fn load_purpose(path: &Path) -> Result<Purpose> {
    let lts = load_lts(path)?;
    Purpose::from_lts(lts).map_err(|e| {
        miette!(
            help = "name the accepting states (locations) `accept…` and the refusing ones \
                    `refuse…`; labels a state does not mention leave it where it is",
            "{}: {e}",
            path.display()
        )
    })
}

/// The solved product of a specification (its suspension automaton) and a purpose.
pub fn product(
    spec: &Lts,
    purpose_path: &Path,
    policy: QuiescencePolicy,
) -> Result<PurposeProduct> {
    let purpose = load_purpose(purpose_path)?;
    let sa = SuspensionAutomaton::build(spec, policy).lts;
    PurposeProduct::build(&sa, &purpose, &PurposeOptions::default()).map_err(|e| {
        miette!(
            help = "check that the purpose's labels are the specification's and that an \
                    accept state can follow a trace of the specification",
            "{}: {e}",
            purpose_path.display()
        )
    })
}

/// Run `ioco test MODEL --purpose FILE`.
pub fn run_test(args: Args, purpose_path: &Path) -> Result<Outcome> {
    let spec = load_lts(&args.model)?;
    let policy: QuiescencePolicy = args.sut.policy.into();
    let prod = product(&spec, purpose_path, policy)?;
    let factory = args.sut.factory(&spec)?;
    let seed = seed_or_clock(args.seed);
    eprintln!(
        "ioco test: seed {seed}; purpose {} ({} product states, {} joker(s) from the start)",
        purpose_path.display(),
        prod.lts.num_states(),
        prod.jokers
    );
    let timeout = Duration::from_millis(args.sut.timeout);
    let t0 = Instant::now();
    let deadline = args
        .time_budget
        .map(|b| Instant::now() + Duration::from_secs_f64(b));
    let mut runs = Vec::new();
    match factory(0) {
        Err(e) => {
            let mut r = RunResult::new(0, seed);
            r.verdict = RunVerdict::Error;
            r.error = Some(format!("could not start the SUT: {e}"));
            runs.push(r);
        }
        Ok(mut adapter) => {
            for k in 0..args.runs {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                let run_seed = ioco_gen::strategy::derive_seed(seed, k as u64);
                let r = steer(
                    &prod,
                    &mut *adapter,
                    k,
                    run_seed,
                    args.depth,
                    timeout,
                    args.sut.retries,
                );
                let stop =
                    matches!(r.verdict, RunVerdict::Fail | RunVerdict::Error) && !args.keep_going;
                runs.push(r);
                if stop {
                    break;
                }
            }
            let _ = adapter.close();
        }
    }
    let accepted = runs
        .iter()
        .filter(|r| r.verdict == RunVerdict::Pass)
        .count();
    let total = runs.len();
    let mut summary = Summary::new("purpose", seed, runs);
    summary.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
    let p = &mut summary.parameters;
    p.insert("model".into(), args.model.display().to_string().into());
    p.insert("sut".into(), args.sut.describe().into());
    p.insert("purpose".into(), purpose_path.display().to_string().into());
    p.insert(
        "strategy".into(),
        "purpose: joker strategy of S × TP towards accept (coreachability steering)".into(),
    );
    p.insert("jokers".into(), prod.jokers.into());
    p.insert("accepted_runs".into(), accepted.into());
    p.insert("runs".into(), args.runs.into());
    p.insert("depth".into(), args.depth.into());
    eprintln!(
        "purpose {}: accept reached in {accepted} of {total} run(s)",
        purpose_path.display()
    );
    args.report.finish(&summary)
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

/// One run steered by the purpose product against `adapter`.
fn steer(
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
