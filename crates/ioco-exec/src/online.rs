//! Online (on-the-fly) ioco testing: tutorial Alg. 2 (P1:L488-521).
//!
//! Each run starts from a reset SUT and the initial state of the specification's lazy
//! suspension automaton (shared by all runs of a worker, so it is built once). At each step a
//! [`Strategy`] chooses to observe or to stimulate with an input the specification enables
//! (input-minimal, Def. 6.7); an output or δ the specification does not allow ends the run with
//! Fail, and a run that reaches its depth bound passes. The input/output race of Alg. 2 is the
//! adapter's [`Sent::Raced`]: the pending output is processed instead of the input. Soundness
//! (Thm. 8.1): a Fail is only given after a suspension trace of the specification followed by an
//! observation outside out(σ), or under the exit rule of [`crate::engine::rules`].
//!
//! Runs are independent and reproducible: run k uses the seed
//! [`ioco_gen::derive_seed`]`(seed, k)` for its choices (and for the simulator's). With
//! `jobs = N`, N workers (scoped threads, one SUT instance each) take runs k ≡ w (mod N) in
//! order, so a given (seed, jobs) pair gives the same runs (the coverage-guided strategy looks
//! at its own worker's coverage).
//!
//! Quiescence is observed by a timeout chosen per observation ([`crate::timeouts`]: the largest
//! own timeout of the states the specification may be in, of the outputs it allows there and
//! of the input just given; else [`OnlineOptions::quiescence_timeout`]), or at once where the
//! adapter has an explicit acknowledgement (the quiescence marker).
//!
//! Cost per step: the trace is kept as label indices that move into the run's result when it
//! ends, beside a table of the labels' texts made once per worker ([`crate::Trace`]); the
//! specification is tracked through a per-worker table of the suspension states visited (one
//! record per state: inputs, out-set, successors), so a step of the tester is a few array
//! reads.

use crate::adapter::inproc::{Component, InProcess};
use crate::adapter::{Sut, SutError};
use crate::engine::explicit::{Explicit, Strategic};
use crate::engine::{self, Ended};
use crate::result::{CoverageSummary, RunResult, RunVerdict, Summary};
use crate::tester::Tester;
use ioco_gen::strategy::{derive_seed, Strategy};
use ioco_gen::Coverage;
use ioco_model::Lts;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub use crate::options::{OnlineOptions, Progress, RunCallback, Traces};
use crate::session::{drive, Plan, SetupFailed};

/// One online run (Alg. 2, [`crate::engine::alg2`]) with `tester`'s specification against
/// `adapter`, choices by `strategy`.
///
/// Generic over the system: where the caller knows its type (the simulator, an in-process
/// component: [`run_online_with`], [`test_component`]) its calls inline into Alg. 2's loop;
/// `dyn Sut` (a process, a socket: one system call per step anyway) is one of the types.
pub fn online_run<U: Sut + ?Sized>(
    tester: &mut Tester<'_>,
    strategy: &mut dyn Strategy,
    adapter: &mut U,
    opts: &OnlineOptions,
    k: usize,
    deadline: Option<Instant>,
) -> RunResult {
    let seed = derive_seed(opts.seed, k as u64);
    let mut r = RunResult::new(k, seed);
    let t0 = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut spec = Explicit { tester, opts };
    let mut times = Vec::new();
    let end = match engine::alg2::start(&mut spec, adapter, seed, opts.retries) {
        Err(e) => e,
        Ok(()) => {
            let mut sel = Strategic::new(strategy, opts.relation);
            if opts.step_times {
                let mut timed = engine::Timed::new(adapter);
                let end = engine::run(
                    &mut spec, &mut sel, &mut timed, opts.depth, deadline, &mut rng,
                );
                times = timed.at_ms;
                end
            } else {
                engine::run(&mut spec, &mut sel, adapter, opts.depth, deadline, &mut rng)
            }
        }
    };
    end.write(&mut r);
    r.trace = tester.take_trace_for(r.verdict, opts.traces);
    // a run may end with one more look at the system (the last reaction settling,
    // `engine::alg2`), which writes no step when it sees quiescence
    times.truncate(r.trace.len());
    if times.len() == r.trace.len() {
        r.step_ms = times;
    }
    r.steps = tester.steps;
    r.quiescence = crate::result::Established::from_counts(adapter.established());
    r.stderr = adapter.stderr_tail();
    r.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
    r
}

/// Everything a batch of runs produced.
pub(crate) struct Pooled {
    pub runs: Vec<RunResult>,
    pub omitted: crate::result::Omitted,
    pub coverage: Option<Coverage>,
    pub suspension_states: usize,
}

/// Run `n` jobs on `opts.jobs` workers; worker w takes k ≡ w (mod jobs), in order (so a
/// worker's runs, and what its strategy learns from them, do not depend on timing).
pub(crate) fn pool<U, F, W>(
    spec: &Lts,
    opts: &OnlineOptions,
    n: usize,
    make_adapter: &F,
    work: &W,
) -> Pooled
where
    U: Sut + Send,
    F: Fn(usize) -> Result<U, SutError> + Sync,
    W: Fn(&mut Tester<'_>, &mut U, usize, Option<Instant>) -> RunResult + Sync,
{
    // this shard's runs (all of them without one)
    let jobs = opts
        .jobs
        .clamp(1, crate::shard::indices(opts.shard, n).len().max(1));
    let next = crate::session::stripe(n, jobs, opts.shard);
    pool_with(spec, opts, jobs, &next, make_adapter, &|t, a, k, (), d| {
        work(t, a, k, d)
    })
}

/// Run the work items `next(worker, previous run)` hands out on `jobs` workers, each with its
/// own tester and system under test ([`crate::session::drive`]); a system that does not start
/// is an Error run. Generic over the system `U` (`Box<dyn Sut + Send>`, or a concrete type
/// whose steps then inline into the work's loop).
pub(crate) fn pool_with<U, I, F, W>(
    spec: &Lts,
    opts: &OnlineOptions,
    jobs: usize,
    next: &(dyn Fn(usize, Option<usize>) -> Option<(usize, I)> + Sync),
    make_adapter: &F,
    work: &W,
) -> Pooled
where
    U: Sut + Send,
    I: Send,
    F: Fn(usize) -> Result<U, SutError> + Sync,
    W: Fn(&mut Tester<'_>, &mut U, usize, I, Option<Instant>) -> RunResult + Sync,
{
    let plan = Plan {
        jobs,
        stop_on_failure: opts.stop_on_failure,
        deadline: opts.time_budget.map(|b| Instant::now() + b),
        progress: &opts.progress,
        keep: opts.keep,
    };
    let seed = opts.seed;
    let as_run = move |k: usize, e: String| {
        let mut r = RunResult::new(k, derive_seed(seed, k as u64));
        Ended::error(format!("could not start the SUT: {e}")).write(&mut r);
        r
    };
    let make = |w: usize, _first: usize| {
        make_adapter(w)
            .map(|a| (Tester::new(spec, opts.policy), a))
            .map_err(|e| e.to_string())
    };
    let gathered: Mutex<(Option<Coverage>, usize)> = Mutex::new((None, 0));
    let finish = |(mut tester, mut adapter): (Tester<'_>, U)| {
        let _ = adapter.close();
        let mut g = gathered.lock().unwrap_or_else(|p| p.into_inner());
        g.1 = g.1.max(tester.num_discovered());
        match &mut g.0 {
            Some(c) => c.merge(tester.coverage()),
            None => g.0 = Some(tester.coverage().clone()),
        }
    };
    let (runs, omitted) = drive(
        &plan,
        next,
        &make,
        &SetupFailed::AsRun(Box::new(as_run)),
        &|(t, a): &mut (Tester<'_>, U), k, item, d| work(t, a, k, item, d),
        &finish,
    )
    .unwrap_or_default();
    let (coverage, suspension_states) = gathered.into_inner().unwrap_or_else(|p| p.into_inner());
    Pooled {
        runs,
        omitted,
        coverage,
        suspension_states,
    }
}

pub(crate) fn summarise(mode: &str, opts: &OnlineOptions, p: Pooled, t0: Instant) -> Summary {
    let mut s = Summary::new(mode, opts.seed, p.runs);
    s.omitted = p.omitted;
    if let Some(c) = p.coverage {
        s.coverage = CoverageSummary {
            states_visited: c.states_covered(),
            states_total: c.num_states(),
            transitions_visited: c.transitions_covered(),
            transitions_total: c.num_transitions(),
            suspension_states: p.suspension_states,
        };
    }
    s.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
    let p = &mut s.parameters;
    p.insert("runs".into(), opts.runs.into());
    p.insert("depth".into(), opts.depth.into());
    p.insert("jobs".into(), opts.jobs.into());
    p.insert(
        "quiescence_timeout_ms".into(),
        (opts.quiescence_timeout.as_millis() as u64).into(),
    );
    if let Some(t) = opts.timeouts.as_deref().filter(|t| !t.is_empty()) {
        let n = |v: &[Option<Duration>]| v.iter().filter(|x| x.is_some()).count();
        p.insert(
            "own_timeouts".into(),
            serde_json::json!({ "states": n(&t.states), "labels": n(&t.labels) }),
        );
    }
    p.insert(
        "policy".into(),
        serde_json::to_value(opts.policy).unwrap_or_default(),
    );
    s
}

/// Online testing of `spec` against SUTs made by `make_adapter(worker)`: `opts.runs` runs on
/// `opts.jobs` workers. Errors only for bad options (an unknown label in the weights).
///
/// Generic over the system `U`: a `Box<dyn Sut + Send>` (any system), or a concrete type
/// (the simulator of `ioco test --sim`), whose steps then inline into Alg. 2's loop.
pub fn run_online<U, F>(
    spec: &Lts,
    opts: &OnlineOptions,
    make_adapter: F,
) -> Result<Summary, String>
where
    U: Sut + Send,
    F: Fn(usize) -> Result<U, SutError> + Sync,
{
    // Validate the strategy once, up front.
    opts.strategy.build_observing(spec, opts.observe)?;
    let t0 = Instant::now();
    let strategies: Vec<Mutex<Box<dyn Strategy>>> = (0..opts.jobs.max(1))
        .map(|_| {
            opts.strategy
                .build_observing(spec, opts.observe)
                .map(Mutex::new)
        })
        .collect::<Result<_, _>>()?;
    // worker w runs the w-th, (w + jobs)-th, … run of its shard, with its own strategy
    let jobs = opts
        .jobs
        .clamp(1, crate::shard::indices(opts.shard, opts.runs).len().max(1));
    let position = |k: usize| opts.shard.map_or(k, |s| k / s.count);
    let work = |t: &mut Tester<'_>, a: &mut U, k: usize, d: Option<Instant>| {
        let mut st = strategies[position(k) % jobs]
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        let mut r = online_run(t, &mut **st, a, opts, k, d);
        if opts.shrink && r.verdict == RunVerdict::Fail {
            crate::replay::shrink_into(t, a, opts, &mut r);
        }
        r
    };
    let p = pool(spec, opts, opts.runs, &make_adapter, &work);
    let mut s = summarise("online", opts, p, t0);
    s.parameters
        .insert("strategy".into(), opts.strategy_name().into());
    Ok(s)
}

/// Online testing against one adapter that need not be `Send` (`opts.jobs` is ignored).
/// Generic over the system, as [`online_run`]: a concrete type's steps inline into the loop.
pub fn run_online_with<U: Sut + ?Sized>(
    spec: &Lts,
    opts: &OnlineOptions,
    adapter: &mut U,
) -> Result<Summary, String> {
    let t0 = Instant::now();
    let mut strategy = opts.strategy.build_observing(spec, opts.observe)?;
    let mut tester = Tester::new(spec, opts.policy);
    let deadline = opts.time_budget.map(|b| Instant::now() + b);
    let mut runs = Vec::new();
    for k in 0..opts.runs {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let mut r = online_run(&mut tester, &mut *strategy, adapter, opts, k, deadline);
        if opts.shrink && r.verdict == RunVerdict::Fail {
            // shrinking replays through `dyn Sut` (not the hot path): `&mut U` is one
            let mut a: &mut U = &mut *adapter;
            crate::replay::shrink_into(&mut tester, &mut a, opts, &mut r);
        }
        let failed = matches!(r.verdict, RunVerdict::Fail | RunVerdict::Error);
        runs.push(r);
        if failed && opts.stop_on_failure {
            break;
        }
    }
    let _ = adapter.close();
    let p = Pooled {
        runs,
        omitted: Default::default(),
        suspension_states: tester.num_discovered(),
        coverage: Some(tester.coverage().clone()),
    };
    let mut s = summarise("online", opts, p, t0);
    s.parameters
        .insert("strategy".into(), opts.strategy_name().into());
    Ok(s)
}

/// Online testing of a Rust [`Component`] in-process (see [`crate::adapter::inproc`]).
///
/// ```
/// use ioco_exec::adapter::inproc::{Action, Component};
/// use ioco_exec::online::{test_component, OnlineOptions};
/// use ioco_exec::RunVerdict;
/// use ioco_model::{Alphabet, LabelKind::{Input, Output}, LtsBuilder};
///
/// // The specification: after coin?, coffee! or tea!; then back.
/// let mut b = LtsBuilder::new(Alphabet::new());
/// b.add_states(2);
/// b.add_initial(0);
/// b.add(0, "coin", Input, 1).unwrap();
/// b.add(1, "coffee", Output, 0).unwrap();
/// b.add(1, "tea", Output, 0).unwrap();
/// let spec = b.build().unwrap();
///
/// // The component: always coffee, and it ignores coins while brewing (none here).
/// struct Machine { coins: u32 }
/// impl Component for Machine {
///     fn reset(&mut self) -> Vec<Action> { self.coins = 0; vec![] }
///     fn input(&mut self, input: &Action) -> Vec<Action> {
///         match input.gate.as_str() {
///             "coin" => { self.coins += 1; vec![Action::label("coffee")] }
///             _ => vec![],
///         }
///     }
/// }
///
/// let opts = OnlineOptions { runs: 50, depth: 20, seed: 7, ..OnlineOptions::default() };
/// let summary = test_component(&spec, Machine { coins: 0 }, &opts).unwrap();
/// assert_eq!(summary.verdict, RunVerdict::Pass);
///
/// // A faulty machine that sometimes gives two drinks for one coin is caught.
/// struct Greedy { n: u32 }
/// impl Component for Greedy {
///     fn reset(&mut self) -> Vec<Action> { self.n = 0; vec![] }
///     fn input(&mut self, _: &Action) -> Vec<Action> {
///         self.n += 1;
///         let (coffee, tea) = (Action::label("coffee"), Action::label("tea"));
///         if self.n % 3 == 0 { vec![coffee, tea] } else { vec![tea] }
///     }
/// }
/// let summary = test_component(&spec, Greedy { n: 0 }, &opts).unwrap();
/// assert_eq!(summary.verdict, RunVerdict::Fail);
/// let failure = summary.first_failure().unwrap().failure.clone().unwrap();
/// assert_eq!(failure.observed, "tea!");
/// ```
pub fn test_component<C: Component>(
    spec: &Lts,
    component: C,
    opts: &OnlineOptions,
) -> Result<Summary, String> {
    let mut a = InProcess::new(spec.alphabet(), component);
    run_online_with(spec, opts, &mut a)
}
