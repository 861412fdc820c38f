//! Online testing with data over many runs (tutorial Alg. 2 over an STS, one
//! `ioco_symbolic::online::run_online` per run): the runs are spread over `jobs` workers, each
//! with its own tracker and system under test; run `k` uses the seed `derive_seed(seed, k)`; a
//! failing run is shrunk (ddmin over its inputs) when asked; the session stops after a Fail or
//! an Error unless `keep_going`, and at the time budget. Same seed, same runs.

use crate::data_run::to_result;
use crate::{Progress, RunResult, RunVerdict};
use ioco_lang::ir::Spec;
use ioco_symbolic::online::{self, DataSut};
use ioco_symbolic::SymbolicSpec;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A maker of systems under test, one per worker (given the seed of its first run).
pub type DataFactory =
    Box<dyn Fn(u64) -> std::result::Result<Box<dyn DataSut>, String> + Sync + Send>;

/// The settings of a session.
#[derive(Clone, Debug)]
pub struct DataSessionOptions {
    /// Number of runs.
    pub runs: usize,
    /// Workers (each with its own system under test).
    pub jobs: usize,
    /// The master seed.
    pub seed: u64,
    /// Shrink failing runs.
    pub shrink: bool,
    /// The bounds and the progress of shrinking.
    pub shrinking: crate::shrinking::ShrinkOptions,
    /// Go on after a Fail or an Error.
    pub keep_going: bool,
    /// Start no run after this much time.
    pub budget: Option<Duration>,
    /// The options of each run.
    pub online: online::OnlineOptions,
    /// Called after every run.
    pub progress: Progress,
    /// Run only this shard's runs ([`crate::shard`]).
    pub shard: Option<crate::shard::Shard>,
}

/// What a session did.
#[derive(Clone, Debug)]
pub struct DataSession {
    /// The runs, by index.
    pub runs: Vec<RunResult>,
    /// The switches of the spec taken by some run.
    pub switches: BTreeSet<(u32, u32)>,
}

/// Runs a session: `tracker` makes each worker's tracker of `spec`, `factory` its system under
/// test. An error is a worker that could not be set up (tracker or system under test).
pub fn run_data_online<T>(
    spec: &Arc<Spec>,
    tracker: T,
    factory: &DataFactory,
    opts: &DataSessionOptions,
) -> Result<DataSession, String>
where
    T: Fn(&Arc<Spec>) -> Result<SymbolicSpec, String> + Sync,
{
    let (seed, budget, jobs) = (opts.seed, opts.budget, opts.jobs.max(1));
    let (shrink, keep_going) = (opts.shrink, opts.keep_going);
    // this shard's runs (all of them without one)
    let ks = crate::shard::indices(opts.shard, opts.runs);
    let jobs = jobs.min(ks.len().max(1));
    let stop = AtomicBool::new(false);
    let t0 = Instant::now();
    let results: Mutex<Vec<RunResult>> = Mutex::new(Vec::new());
    let switches: Mutex<BTreeSet<(u32, u32)>> = Mutex::new(BTreeSet::new());
    let setup_error: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for w in 0..jobs {
            let (spec, factory, stop, results, setup_error, progress, online, switches, tracker) = (
                spec.clone(),
                factory,
                &stop,
                &results,
                &setup_error,
                &opts.progress,
                &opts.online,
                &switches,
                &tracker,
            );
            let shrinking = &opts.shrinking;
            let ks = &ks;
            scope.spawn(move || {
                let mut tracker = match tracker(&spec) {
                    Ok(t) => t,
                    Err(e) => {
                        *setup_error.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                        return;
                    }
                };
                let mut sut: Option<Box<dyn DataSut>> = None;
                let mut i = w;
                while let Some(&k) = ks.get(i) {
                    if stop.load(Ordering::Relaxed)
                        || budget.is_some_and(|b| t0.elapsed() > b)
                        || crate::shrinking::interrupted()
                    {
                        break;
                    }
                    let run_seed = ioco_gen::derive_seed(seed, k as u64);
                    if sut.is_none() {
                        match factory(run_seed) {
                            Ok(s) => sut = Some(s),
                            Err(e) => {
                                *setup_error.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                                stop.store(true, Ordering::Relaxed);
                                return;
                            }
                        }
                    }
                    let s = sut.as_mut().expect("made above");
                    let start = Instant::now();
                    let mut rng = ChaCha8Rng::seed_from_u64(run_seed);
                    let run = crate::engine::symbolic::run_online(
                        &mut tracker,
                        s.as_mut(),
                        online,
                        &mut rng,
                    );
                    switches
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .extend(run.switches.iter().copied());
                    let mut r = to_result(&run, k, run_seed);
                    if matches!(r.verdict, RunVerdict::Fail | RunVerdict::Error) {
                        r.stderr = s.stderr_tail();
                    }
                    if r.verdict == RunVerdict::Fail && shrink {
                        let mut rng = ChaCha8Rng::seed_from_u64(run_seed ^ 0x5421);
                        if let Some(sh) = crate::engine::symbolic::shrink(
                            &mut tracker,
                            s.as_mut(),
                            &run,
                            k,
                            shrinking,
                            online.timeouts.as_ref(),
                            &mut rng,
                        ) {
                            r.shrunk =
                                Some(crate::data_run::shrunk_result(&spec, &sh, k, run_seed));
                        }
                    }
                    r.duration_ms = start.elapsed().as_secs_f64() * 1e3;
                    if crate::shrinking::interrupted() && r.verdict != RunVerdict::Fail {
                        // cut short by the interrupt (its system was stopped): no verdict
                        break;
                    }
                    if let Some(cb) = &progress.0 {
                        cb(&r);
                    }
                    if matches!(r.verdict, RunVerdict::Fail | RunVerdict::Error) && !keep_going {
                        stop.store(true, Ordering::Relaxed);
                    }
                    results.lock().unwrap_or_else(|p| p.into_inner()).push(r);
                    i += jobs;
                }
            });
        }
    });
    if let Some(e) = setup_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let mut runs = results.into_inner().unwrap_or_else(|p| p.into_inner());
    runs.sort_by_key(|r| r.run);
    Ok(DataSession {
        runs,
        switches: switches.into_inner().unwrap_or_else(|p| p.into_inner()),
    })
}
