//! Bounds and progress of shrinking (issue #20 item 6). Shrinking a failing run replays
//! candidate input sequences (`ioco_exec::replay::shrink`, `ioco_exec::engine::symbolic::shrink`);
//! against a real program every δ of a replay costs a full time-out, so without bounds it ran
//! for more than 15 minutes on one queue fault. A [`Budget`] bounds it by replays
//! ([`ShrinkOptions::replays`]) and by time ([`ShrinkOptions::time`]); when either is spent, the
//! shortest failing sequence found so far is kept and the result says it is not minimal, and why
//! ([`crate::Shrunk::stopped`]).
//!
//! Progress goes to [`ShrinkOptions::watch`] ([`ShrinkEvent`]). [`interrupt`] (the CLI calls it
//! on the first Ctrl-C while shrinking) stops every shrinking in progress the same way: the Fail
//! already found stands and is reported.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What shrinking reports as it goes.
#[derive(Clone, Debug, PartialEq)]
pub enum ShrinkEvent {
    /// Shrinking of run `run` starts: it failed after `steps` steps with `inputs` inputs.
    Start {
        /// The run.
        run: usize,
        /// Its steps.
        steps: usize,
        /// Its inputs.
        inputs: usize,
    },
    /// A replay ended; the shortest failing sequence so far has `best` inputs.
    Replay {
        /// The run.
        run: usize,
        /// Replays so far.
        replays: usize,
        /// Inputs of the shortest failing sequence so far.
        best: usize,
        /// Time since the start.
        elapsed: Duration,
    },
    /// Shrinking of run `run` ended.
    Done {
        /// The run.
        run: usize,
        /// Inputs of the failing run.
        inputs: usize,
        /// Inputs of the shortest failing sequence (`None`: the failure did not come again).
        best: Option<usize>,
        /// Replays made.
        replays: usize,
        /// Time taken.
        elapsed: Duration,
        /// Why it stopped before it was done, if it did.
        stopped: Option<String>,
    },
}

/// Where [`ShrinkEvent`]s go.
pub type ShrinkWatch = Arc<dyn Fn(&ShrinkEvent) + Send + Sync>;

/// How far shrinking may go.
#[derive(Clone)]
pub struct ShrinkOptions {
    /// At most this many replays per failing run.
    pub replays: usize,
    /// At most this long per failing run (a replay in progress is finished).
    pub time: Option<Duration>,
    /// How often each candidate is replayed before it counts as passing (a nondeterministic
    /// system may need more than one replay to fail again).
    pub tries: usize,
    /// Progress.
    pub watch: Option<ShrinkWatch>,
}

impl Default for ShrinkOptions {
    fn default() -> Self {
        ShrinkOptions {
            replays: 100,
            time: Some(Duration::from_secs(60)),
            tries: 1,
            watch: None,
        }
    }
}

impl std::fmt::Debug for ShrinkOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShrinkOptions")
            .field("replays", &self.replays)
            .field("time", &self.time)
            .field("tries", &self.tries)
            .field("watch", &self.watch.is_some())
            .finish()
    }
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static ACTIVE: AtomicUsize = AtomicUsize::new(0);

/// Stop every shrinking in progress, and any later one, keeping what each found (for a Ctrl-C
/// while shrinking). Returns whether some shrinking was in progress.
pub fn interrupt() -> bool {
    INTERRUPTED.store(true, Ordering::SeqCst);
    ACTIVE.load(Ordering::SeqCst) > 0
}

/// Whether some shrinking is in progress.
pub fn active() -> bool {
    ACTIVE.load(Ordering::SeqCst) > 0
}

/// Whether [`interrupt`] was called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Seconds for humans: `850 ms`, `12.5 s`, `3 min 20 s`.
pub fn human(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms < 60_000 {
        format!("{:.1} s", d.as_secs_f64())
    } else {
        format!("{} min {} s", ms / 60_000, (ms % 60_000) / 1000)
    }
}

/// The bounds of one shrinking, counted as it goes.
pub struct Budget<'a> {
    opts: &'a ShrinkOptions,
    run: usize,
    inputs: usize,
    start: Instant,
    /// Replays made.
    pub replays: usize,
    /// Inputs of the shortest failing sequence so far.
    pub best: Option<usize>,
    /// Why it stopped early.
    pub stopped: Option<String>,
}

impl<'a> Budget<'a> {
    /// Shrinking of run `run` (`steps` steps, `inputs` inputs) starts.
    pub fn new(opts: &'a ShrinkOptions, run: usize, steps: usize, inputs: usize) -> Budget<'a> {
        ACTIVE.fetch_add(1, Ordering::SeqCst);
        if let Some(w) = &opts.watch {
            w(&ShrinkEvent::Start { run, steps, inputs });
        }
        Budget {
            opts,
            run,
            inputs,
            start: Instant::now(),
            replays: 0,
            best: None,
            stopped: None,
        }
    }

    /// How often a candidate is tried.
    pub fn tries(&self) -> usize {
        self.opts.tries.max(1)
    }

    /// May one more replay be made? Counts it if so; otherwise notes why not.
    pub fn take(&mut self) -> bool {
        if self.stopped.is_some() {
            return false;
        }
        if interrupted() {
            self.stopped = Some("interrupted (Ctrl-C)".into());
            return false;
        }
        if self.replays >= self.opts.replays.max(1) {
            self.stopped = Some(format!(
                "the budget of {} replays was spent (--shrink-budget N raises it)",
                self.opts.replays.max(1)
            ));
            return false;
        }
        if let Some(t) = self.opts.time {
            if self.start.elapsed() >= t {
                self.stopped = Some(format!(
                    "the time budget of {} was spent (--shrink-time raises it)",
                    human(t)
                ));
                return false;
            }
        }
        self.replays += 1;
        true
    }

    /// A replay ended; `failing` is the length of the candidate when it failed again.
    pub fn replayed(&mut self, failing: Option<usize>) {
        match failing {
            Some(n) => self.best = Some(self.best.map_or(n, |b| b.min(n))),
            // a replay cut short by the interrupt (its system was stopped) proves nothing
            None if interrupted() && self.stopped.is_none() => {
                self.stopped = Some("interrupted (Ctrl-C)".into())
            }
            None => {}
        }
        if let Some(w) = &self.opts.watch {
            w(&ShrinkEvent::Replay {
                run: self.run,
                replays: self.replays,
                best: self.best.unwrap_or(self.inputs),
                elapsed: self.start.elapsed(),
            });
        }
    }
}

impl Drop for Budget<'_> {
    fn drop(&mut self) {
        ACTIVE.fetch_sub(1, Ordering::SeqCst);
        if let Some(w) = &self.opts.watch {
            w(&ShrinkEvent::Done {
                run: self.run,
                inputs: self.inputs,
                best: self.best,
                replays: self.replays,
                elapsed: self.start.elapsed(),
                stopped: self.stopped.clone(),
            });
        }
    }
}
