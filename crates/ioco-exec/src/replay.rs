//! Replaying recorded runs, and shrinking failing ones.
//!
//! * [`replay_trace`] repeats a recorded trace step by step: inputs are given, and wherever
//!   the recording observed (an output or δ) the replay observes once. The verdict comes from
//!   the specification, as in a live run; if the SUT answers differently from the recording
//!   (nondeterminism), the run's `note` says where.
//! * [`replay_inputs`] gives a sequence of inputs with observation in between: before each
//!   input, and at the end, it observes until the SUT is quiescent (at most `depth` steps in
//!   all). Inputs the specification does not enable at that point are skipped (after them
//!   nothing could fail, tutorial Def. 6.2).
//! * [`shrink`] is delta debugging (Zeller's ddmin) over the inputs of a failing run: it keeps
//!   removing chunks of inputs while [`replay_inputs`] of the rest still fails, within a budget
//!   of replays.

use crate::adapter::Sut;
use crate::engine::explicit::Explicit;
use crate::engine::replay::{FollowTrace, Replay};
use crate::engine::{self, Ended};
use crate::options::OnlineOptions;
use crate::result::{RunResult, RunVerdict, Shrunk};
use crate::shrinking::Budget;
use crate::tester::Tester;
use ioco_gen::derive_seed;
use ioco_model::{Label, Lts};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// Parse labels as written (`coin?`, `coffee!`, `δ`) against `spec`'s alphabet: a [`Trace`](crate::Trace)
/// (`&run.trace`) or a list of strings.
pub fn parse_trace<S: AsRef<str>>(
    spec: &Lts,
    trace: impl IntoIterator<Item = S>,
) -> Result<Vec<Label>, String> {
    let a = spec.alphabet();
    trace
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            let s: &str = s.as_ref();
            if s == "δ" || s == "delta" {
                return Ok(Label::DELTA);
            }
            let (bare, want_input) = match (s.strip_suffix('?'), s.strip_suffix('!')) {
                (Some(b), _) => (b, Some(true)),
                (_, Some(b)) => (b, Some(false)),
                _ => (s, None),
            };
            let kind = |w: bool| {
                if w {
                    ioco_model::LabelKind::Input
                } else {
                    ioco_model::LabelKind::Output
                }
            };
            let exact = want_input.and_then(|w| a.lookup_kind(bare, kind(w)));
            // a step as the symbolic engine writes it, the mark after each gate name
            // (`water?(100)`, `a?(1)|b?(2)`): the label `water(100)`, `a(1)|b(2)`
            let moved = || {
                let mut want = None;
                let parts: Vec<String> = crate::adapter::wire::split_multi(s)
                    .into_iter()
                    .map(|p| match p.find(['?', '!']) {
                        Some(i) => {
                            want = Some(p[i..].starts_with('?'));
                            format!("{}{}", &p[..i], &p[i + 1..])
                        }
                        None => p.to_string(),
                    })
                    .collect();
                let w = want?;
                a.lookup_kind(&parts.join("|"), kind(w))
            };
            match exact.or_else(|| a.lookup(bare)).or_else(moved) {
                Some(l) if want_input.is_none_or(|w| w == a.is_input(l)) => Ok(l),
                Some(l) => Err(format!(
                    "step {}: `{s}` has the wrong direction, the model has {}",
                    i + 1,
                    a.display(l)
                )),
                None => Err(format!(
                    "step {}: `{s}` is not a label of the model (hint: write inputs `name?`, \
                     outputs `name!`, quiescence `δ`)",
                    i + 1
                )),
            }
        })
        .collect()
}

fn finish(
    tester: &mut Tester<'_>,
    adapter: &mut dyn Sut,
    end: Ended,
    r: &mut RunResult,
    t0: Instant,
) {
    end.write(r);
    r.trace = tester.take_trace();
    r.steps = tester.steps;
    r.quiescence = crate::result::Established::from_counts(adapter.established());
    r.stderr = adapter.stderr_tail();
    r.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
}

/// Replay a recorded trace (labels of the specification) against the SUT: the
/// [`FollowTrace`] selection of [`crate::engine`] in the one loop.
pub fn replay_trace(
    tester: &mut Tester<'_>,
    adapter: &mut dyn Sut,
    opts: &OnlineOptions,
    recorded: &[Label],
    run: usize,
    seed: u64,
) -> RunResult {
    let mut r = RunResult::new(run, seed);
    let t0 = Instant::now();
    let alphabet = tester.alphabet();
    let mut spec = Explicit { tester, opts };
    let mut sel = FollowTrace::new(recorded, alphabet, opts.depth);
    let end = match engine::alg2::start(&mut spec, adapter, seed, opts.retries) {
        Err(e) => e,
        Ok(()) => {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let depth = opts.depth.max(recorded.len() * 4 + 16);
            engine::run(&mut spec, &mut sel, adapter, depth, None, &mut rng)
        }
    };
    let diverged = sel.diverged.take();
    finish(tester, adapter, end, &mut r, t0);
    if r.note.is_none() {
        r.note = diverged;
    }
    r
}

/// Give `inputs` with observation to quiescence before each and at the end (the
/// [`Replay`] selection of [`crate::engine`]), at most `opts.depth` steps.
pub fn replay_inputs(
    tester: &mut Tester<'_>,
    adapter: &mut dyn Sut,
    opts: &OnlineOptions,
    inputs: &[Label],
    run: usize,
    seed: u64,
) -> RunResult {
    let mut r = RunResult::new(run, seed);
    let t0 = Instant::now();
    let mut spec = Explicit { tester, opts };
    let end = match engine::alg2::start(&mut spec, adapter, seed, opts.retries) {
        Err(e) => e,
        Ok(()) => {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut sel = Replay::new(inputs);
            engine::run(&mut spec, &mut sel, adapter, opts.depth, None, &mut rng)
        }
    };
    finish(tester, adapter, end, &mut r, t0);
    r
}

/// Shrink the failing run `r` ([`shrink`]) and record the result in it: `r.shrunk`, or, when
/// the failure does not reproduce, a note that says so and how many replays were tried (issue
/// #13 item 7: shrinking never fails silently).
pub fn shrink_into(
    tester: &mut Tester<'_>,
    adapter: &mut dyn Sut,
    opts: &OnlineOptions,
    r: &mut RunResult,
) {
    let (shrunk, replays, stopped) = shrink_counted(tester, adapter, opts, r);
    if let Some(s) = shrunk {
        r.shrunk = Some(s);
        return;
    }
    let why = match stopped {
        Some(why) => format!("not shrunk: {why} before the failure came again"),
        None if replays > 0 => format!(
            "not shrunk: replaying the run's inputs did not fail again in {replays} replay(s) \
             (a nondeterministic or timing-dependent SUT; try --shrink-tries N to replay each \
             candidate N times)"
        ),
        None => return,
    };
    r.note = Some(match r.note.take() {
        Some(n) => format!("{n}; {why}"),
        None => why,
    });
}

/// Delta debugging over the inputs of the failing run `failed`: the shortest input sequence
/// found whose [`replay_inputs`] still fails on the same observation, or `None` if even the
/// full sequence does not fail so when replayed (a nondeterministic SUT may need several
/// tries: each candidate is tried up to `opts.shrinking.tries` times). Bounded by
/// `opts.shrinking` ([`crate::shrinking`]): when a bound stops it, the shortest sequence found
/// so far is returned with [`Shrunk::stopped`] saying why.
///
/// A replay observes to quiescence around every input, so it may take more steps than the
/// failing run did: replays are bounded by twice the run's steps (plus 16), never by less than
/// `opts.depth`.
pub fn shrink(
    tester: &mut Tester<'_>,
    adapter: &mut dyn Sut,
    opts: &OnlineOptions,
    failed: &RunResult,
) -> Option<Shrunk> {
    shrink_counted(tester, adapter, opts, failed).0
}

/// [`shrink`], the number of replays it made, and why it stopped early.
fn shrink_counted(
    tester: &mut Tester<'_>,
    adapter: &mut dyn Sut,
    opts: &OnlineOptions,
    failed: &RunResult,
) -> (Option<Shrunk>, usize, Option<String>) {
    let spec = tester.spec();
    let Ok(inputs) = parse_trace(spec, failed.inputs()) else {
        return (None, 0, None);
    };
    let opts = &OnlineOptions {
        depth: opts
            .depth
            .max(failed.steps.saturating_mul(2).saturating_add(16)),
        ..opts.clone()
    };
    let mut budget = Budget::new(&opts.shrinking, failed.run, failed.steps, inputs.len());
    let mut best: Option<RunResult> = None;
    let mut test = |cand: &[Label], budget: &mut Budget, best: &mut Option<RunResult>| -> bool {
        for rep in 0..budget.tries() {
            if !budget.take() {
                return false;
            }
            let seed = derive_seed(failed.seed, (budget.replays * 131 + rep) as u64);
            let r = replay_inputs(tester, adapter, opts, cand, failed.run, seed);
            // the same failure: a Fail on the same observation (not another fault)
            let same = |r: &RunResult| {
                r.failure.as_ref().map(|f| &f.observed)
                    == failed.failure.as_ref().map(|f| &f.observed)
            };
            if r.verdict == RunVerdict::Fail && same(&r) {
                budget.replayed(Some(cand.len()));
                *best = Some(r);
                return true;
            }
            budget.replayed(None);
        }
        false
    };
    if !test(&inputs, &mut budget, &mut best) {
        return (None, budget.replays, budget.stopped.clone());
    }
    // ddmin; the budget counts replays and time, so `test` says "no" once it is spent.
    let cur = ioco_symbolic::online::ddmin(inputs, usize::MAX, |cand| {
        test(cand, &mut budget, &mut best)
    });
    let (replays, stopped) = (budget.replays, budget.stopped.clone());
    let Some(best) = best else {
        return (None, replays, stopped);
    };
    let a = spec.alphabet();
    let shrunk = Shrunk {
        inputs: cur.iter().map(|&l| a.display(l)).collect(),
        trace: best.trace,
        failure: best.failure,
        replays,
        stopped: stopped.clone(),
    };
    (Some(shrunk), replays, stopped)
}
