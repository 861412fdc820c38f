//! The session driver, written once for every engine: runs spread over `jobs` workers (each
//! with its own specification tracker and system under test, made when it takes its first
//! run), results collected by run index, and the session's stop rules: after a Fail or an
//! Error (unless asked to go on), at the time budget, and on an interrupt (a run cut short by
//! it has no verdict and is dropped). Which run a worker takes next is the caller's
//! (`next`): online runs go to workers in a fixed stripe (so what a worker's strategy learns
//! does not depend on timing), the tests of a streamed suite as they are read.

use crate::options::Progress;
use crate::result::{Collector, Keep, Omitted, RunResult, RunVerdict};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// How a session runs.
pub struct Plan<'a> {
    /// Workers.
    pub jobs: usize,
    /// Stop after the first Fail or Error.
    pub stop_on_failure: bool,
    /// Start no run after this instant.
    pub deadline: Option<Instant>,
    /// Called with every run the session counts, kept or not (a run that could not start
    /// among them), before it is collected: a report can write runs as they arrive.
    pub progress: &'a Progress,
    /// Which runs are kept (the others are counted).
    pub keep: Keep,
}

/// What to do when a worker cannot be set up (its system under test does not start).
pub enum SetupFailed {
    /// Report an Error run for the run it took (`ioco test` over labels: the session goes on
    /// on the other workers and its verdict is Error).
    AsRun(Box<dyn Fn(usize, String) -> RunResult + Sync>),
    /// End the whole session with the error.
    Abort,
}

/// Drives a session: `next(worker, its previous run)` hands out `(run index, item)`; `make(
/// worker, first run)` sets a worker up; `work` does one run; `finish` takes a worker that is
/// done (in its own thread: what it gathered, closing its system). Returns the results kept
/// ([`Plan::keep`]) sorted by run index and what was counted without keeping, or the first
/// setup error under [`SetupFailed::Abort`].
pub fn drive<I, W, M, R, F>(
    plan: &Plan<'_>,
    next: &(dyn Fn(usize, Option<usize>) -> Option<(usize, I)> + Sync),
    make: &M,
    setup_failed: &SetupFailed,
    work: &R,
    finish: &F,
) -> Result<(Vec<RunResult>, Omitted), String>
where
    I: Send,
    M: Fn(usize, usize) -> Result<W, String> + Sync,
    R: Fn(&mut W, usize, I, Option<Instant>) -> RunResult + Sync,
    F: Fn(W) + Sync,
{
    let jobs = plan.jobs.max(1);
    let stop = AtomicBool::new(false);
    let results = Mutex::new(Collector::new(plan.keep));
    let error: Mutex<Option<String>> = Mutex::new(None);
    let stopped = || {
        stop.load(Ordering::Relaxed)
            || plan.deadline.is_some_and(|d| Instant::now() >= d)
            || crate::shrinking::interrupted()
    };
    let worker = |w: usize| {
        let mut runs = Collector::new(plan.keep);
        let mut state: Option<W> = None;
        let mut prev = None;
        loop {
            if stopped() {
                break;
            }
            let Some((k, item)) = next(w, prev) else {
                break;
            };
            prev = Some(k);
            if state.is_none() {
                match make(w, k) {
                    Ok(s) => state = Some(s),
                    Err(e) => {
                        match setup_failed {
                            SetupFailed::AsRun(as_run) => {
                                let r = as_run(k, e);
                                if let Some(f) = &plan.progress.0 {
                                    f(&r);
                                }
                                runs.add(r)
                            }
                            SetupFailed::Abort => {
                                let mut first = error.lock().unwrap_or_else(|p| p.into_inner());
                                first.get_or_insert(e);
                                stop.store(true, Ordering::Relaxed);
                            }
                        }
                        break;
                    }
                }
            }
            let s = state.as_mut().expect("set up above");
            let r = work(s, k, item, plan.deadline);
            if crate::shrinking::interrupted() && r.verdict != RunVerdict::Fail {
                // cut short by the interrupt (its system was stopped): no verdict
                break;
            }
            if let Some(f) = &plan.progress.0 {
                f(&r);
            }
            if matches!(r.verdict, RunVerdict::Fail | RunVerdict::Error) && plan.stop_on_failure {
                stop.store(true, Ordering::Relaxed);
            }
            runs.add(r);
        }
        results
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .merge(runs);
        if let Some(s) = state {
            finish(s);
        }
    };
    if jobs == 1 {
        worker(0);
    } else {
        std::thread::scope(|s| {
            for w in 0..jobs {
                let worker = &worker;
                s.spawn(move || worker(w));
            }
        });
    }
    if let Some(e) = error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    Ok(results
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .finish())
}

/// The fixed stripe over the runs below `n` of `shard` (all without one): worker `w` of `jobs`
/// takes the shard's `w`-th, `(w + jobs)`-th, … run.
pub fn stripe(
    n: usize,
    jobs: usize,
    shard: Option<crate::shard::Shard>,
) -> impl Fn(usize, Option<usize>) -> Option<(usize, ())> + Sync {
    let jobs = jobs.max(1);
    let (first, step) = shard.map_or((0, 1), |s| (s.index, s.count));
    move |w, prev| {
        let k = prev.map_or(first + w * step, |p| p + jobs * step);
        (k < n).then_some((k, ()))
    }
}
