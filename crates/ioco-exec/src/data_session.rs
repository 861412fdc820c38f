//! Online testing with data over many runs (tutorial Alg. 2 over an STS, one
//! `engine::symbolic` run per run, with the engine's one [`OnlineOptions`]), through the one
//! session driver
//! ([`crate::session::drive`]): the runs are spread over `jobs` workers, each with its own
//! tracker and system under test; run `k` uses the seed `derive_seed(seed, k)`; a failing run
//! is shrunk (ddmin over its inputs) when asked; the session stops after a Fail or an Error
//! unless `keep_going`, and at the time budget. Same seed, same runs.

use crate::engine::symbolic::{Biased, Symbolic};
use crate::session::{drive, Plan, SetupFailed};
use crate::{OnlineOptions, RunResult, RunVerdict};
use ioco_lang::ir::Spec;
use ioco_symbolic::online::{GateValue, Sut};
use ioco_symbolic::SymbolicSpec;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The solver of a session: Z3, or with `IOCO_SOLVER=unknown` in the environment a solver
/// that answers `unknown` to everything (a soundness check: the tester must then never give
/// Fail because of the solver, only Pass or Inconclusive).
///
/// Without this crate's `z3` feature (on by default) only the `unknown` solver exists, and a
/// session without `IOCO_SOLVER=unknown` is an error naming the feature.
pub fn solver(spec: &Spec) -> Result<Box<dyn ioco_symbolic::Solver>, String> {
    if std::env::var("IOCO_SOLVER").is_ok_and(|v| v == "unknown") {
        return Ok(Box::new(ioco_symbolic::UnknownSolver));
    }
    #[cfg(feature = "z3")]
    {
        Ok(Box::new(ioco_symbolic::Z3Solver::new(spec.defs.clone())))
    }
    #[cfg(not(feature = "z3"))]
    {
        let _ = spec;
        Err("the symbolic engine needs Z3: build ioco-exec with its `z3` feature".into())
    }
}

/// The online tracker of a spec with [`solver`]; an error says why the symbolic engine does
/// not take the spec.
pub fn tracker(spec: &Arc<Spec>) -> Result<SymbolicSpec, String> {
    SymbolicSpec::new(spec.clone(), solver(spec)?)
}

/// A worker of a session: its tracker, its system under test, the switches its runs took.
type Worker = (SymbolicSpec, Box<dyn Sut<GateValue>>, BTreeSet<(u32, u32)>);

/// A maker of systems under test, one per worker (given the seed of its first run).
pub type DataFactory =
    Box<dyn Fn(u64) -> std::result::Result<Box<dyn Sut<GateValue>>, String> + Sync + Send>;

/// What a session did.
#[derive(Clone, Debug)]
pub struct DataSession {
    /// The runs kept (`OnlineOptions::keep`: every run, or only those that did not pass), by
    /// index.
    pub runs: Vec<RunResult>,
    /// The passing runs not kept (`Keep::Failures`), counted.
    pub omitted: crate::result::Omitted,
    /// The switches of the spec taken by some run.
    pub switches: BTreeSet<(u32, u32)>,
}

impl DataSession {
    /// The switch coverage of the session: (switches of a gate taken, switches of a gate in
    /// `spec`); a τ switch is never seen on the wire, so it is not counted as to do.
    pub fn switch_coverage(&self, spec: &Arc<Spec>) -> (usize, usize) {
        let visible = |&(a, s): &(u32, u32)| {
            spec.automata[a as usize].switches[s as usize]
                .gate
                .is_some()
        };
        let total = ioco_symbolic::System::new(spec.clone())
            .map(|s| s.switches().iter().filter(|w| visible(w)).count())
            .unwrap_or(0);
        let covered = self.switches.iter().filter(|w| visible(w)).count();
        (covered, total)
    }
}

/// Runs a session: `tracker` makes each worker's tracker of `spec`, `factory` its system under
/// test. An error is a worker that could not be set up (tracker or system under test).
///
/// Of `opts` it reads `runs`, `jobs`, `seed`, `depth` (steps per run), `observe` (an input
/// with probability `1 − observe` where one can be given), `quiescence_timeout` and
/// `timeouts` (over STS states, `ioco_symbolic::online::SpecTimeouts`), `time_budget`,
/// `stop_on_failure`, `shrink`, `shrinking`, `progress` and `shard`; the strategy, the
/// relation, fairness, retries, `traces` and `step_times` are the explicit engine's.
pub fn run_data_online<T>(
    spec: &Arc<Spec>,
    tracker: T,
    factory: &DataFactory,
    opts: &OnlineOptions,
) -> Result<DataSession, String>
where
    T: Fn(&Arc<Spec>) -> Result<SymbolicSpec, String> + Sync,
{
    // this shard's runs (all of them without one)
    let jobs = opts
        .jobs
        .clamp(1, crate::shard::indices(opts.shard, opts.runs).len().max(1));
    let seed = opts.seed;
    let plan = Plan {
        jobs,
        stop_on_failure: opts.stop_on_failure,
        deadline: opts.time_budget.map(|b| Instant::now() + b),
        progress: &opts.progress,
        // the caller's choice (issue #35: with `Keep::Failures` the passing runs are counted,
        // their reports written from a spool); switch coverage is gathered by the workers
        keep: opts.keep,
    };
    let switches: Mutex<BTreeSet<(u32, u32)>> = Mutex::new(BTreeSet::new());
    // a worker: its tracker, its system under test (made with the seed of its first run) and
    // the switches its runs took
    let make = |_w: usize, first: usize| -> Result<Worker, String> {
        let tracker = tracker(spec)?;
        let sut = factory(ioco_gen::derive_seed(seed, first as u64))?;
        Ok((tracker, sut, BTreeSet::new()))
    };
    let work = |(tracker, sut, taken): &mut Worker, k: usize, (): (), _d: Option<Instant>| {
        let run_seed = ioco_gen::derive_seed(seed, k as u64);
        let start = Instant::now();
        let mut rng = ChaCha8Rng::seed_from_u64(run_seed);
        let mut s = Symbolic::new(tracker, Some(opts));
        let mut r = s.run(&mut Biased::of(opts), sut.as_mut(), opts.depth, &mut rng);
        taken.extend(s.switches.iter().copied());
        let inputs = std::mem::take(&mut s.inputs);
        (r.run, r.seed) = (k, run_seed);
        if matches!(r.verdict, RunVerdict::Fail | RunVerdict::Error) {
            r.quiescence = crate::result::Established::from_counts(sut.established());
            r.stderr = sut.stderr_tail();
        }
        if r.verdict == RunVerdict::Fail && opts.shrink {
            let mut rng = ChaCha8Rng::seed_from_u64(run_seed ^ 0x5421);
            r.shrunk = crate::engine::symbolic::shrink(
                tracker,
                sut.as_mut(),
                &r,
                &inputs,
                k,
                &opts.shrinking,
                Some(opts),
                &mut rng,
            );
        }
        r.duration_ms = start.elapsed().as_secs_f64() * 1e3;
        r
    };
    let finish = |(_, _, taken): Worker| {
        switches
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend(taken);
    };
    let next = crate::session::stripe(opts.runs, jobs, opts.shard);
    let (runs, omitted) = drive(&plan, &next, &make, &SetupFailed::Abort, &work, &finish)?;
    Ok(DataSession {
        runs,
        omitted,
        switches: switches.into_inner().unwrap_or_else(|p| p.into_inner()),
    })
}
