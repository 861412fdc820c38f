//! The options of online testing and of running suites and replays ([`OnlineOptions`]), with
//! the per-run callback ([`Progress`]) and which traces are kept ([`Traces`]): read by the
//! engine's explicit specification, by replay and shrinking, and by the session runners of
//! `ioco_exec::online` and `ioco_exec::suite` (a file of their own, so that none of them imports
//! another for its options).

use crate::result::RunResult;
use crate::timeouts::Timeouts;
use ioco_gen::strategy::StrategySpec;
use ioco_model::QuiescencePolicy;
use std::sync::Arc;
use std::time::Duration;

/// What [`Progress`] calls after every finished run.
pub type RunCallback = std::sync::Arc<dyn Fn(&RunResult) + Send + Sync>;

/// A callback after every finished run (e.g. to drive a progress bar), shared by all workers.
#[derive(Clone, Default)]
pub struct Progress(pub Option<RunCallback>);

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Progress(Some)"
        } else {
            "Progress(None)"
        })
    }
}

/// Options of online testing, the one set for every session: explicit (`ioco_exec::online`,
/// `ioco_exec::suite`, `ioco_exec::replay`) and with data (`ioco_exec::data_session`, the
/// symbolic engine's runs, replays and shrinking in `ioco_symbolic::engine`, switch coverage).
/// Each engine reads the fields that concern it; the strategy, the relation, fairness, retries,
/// `traces` and `step_times` are the explicit engine's.
#[derive(Clone, Debug)]
pub struct OnlineOptions {
    /// Quiescence policy of the specification.
    pub policy: QuiescencePolicy,
    /// Number of runs.
    pub runs: usize,
    /// Maximal number of steps (stimuli and observations) per run.
    pub depth: usize,
    /// Master seed.
    pub seed: u64,
    /// How long to wait for an output before concluding quiescence, where no state or label
    /// has a timeout of its own (see [`crate::timeouts`]).
    pub quiescence_timeout: Duration,
    /// Per-state and per-label timeouts of the specification, overriding
    /// `quiescence_timeout` (the max rule of [`crate::timeouts`]); `None`: none.
    pub timeouts: Option<Arc<Timeouts>>,
    /// Wall-clock budget for the whole batch (runs not started in time are skipped; a run in
    /// progress stops, with the verdict so far).
    pub time_budget: Option<Duration>,
    /// Stop after the first failing (or erroneous) run.
    pub stop_on_failure: bool,
    /// Parallel SUT instances.
    pub jobs: usize,
    /// Choice strategy.
    pub strategy: StrategySpec,
    /// Attempts to reset (restart) the SUT before a run is an Error.
    pub retries: usize,
    /// Shrink failing runs (delta debugging over their inputs).
    pub shrink: bool,
    /// The bounds and the progress of shrinking ([`crate::shrinking`]).
    pub shrinking: crate::shrinking::ShrinkOptions,
    /// The probability of observing where an input could be given (the uniform strategy; the
    /// symbolic engine gives an input with probability `1 − observe`).
    pub observe: f64,
    /// The relation tested for (online, explicit engine): under uioco the strategies give only
    /// inputs that extend a Utrace of the specification ([`ioco_model::uioco`]).
    pub relation: ioco_model::Relation,
    /// Stored suites: how often a test is run again when the implementation did not follow it
    /// or took only some of its branches ([`crate::fairness`]).
    pub fairness: crate::fairness::Fairness,
    /// Called after every run.
    pub progress: Progress,
    /// Which runs keep their trace in the [`RunResult`].
    pub traces: Traces,
    /// Which runs the session's [`Summary`](crate::Summary) keeps (the others are counted).
    pub keep: crate::result::Keep,
    /// Note when each step was seen ([`RunResult::step_ms`](crate::RunResult::step_ms)), for
    /// reports that show it.
    pub step_times: bool,
    /// Run only this shard's runs (or suite tests) ([`crate::shard`]).
    pub shard: Option<crate::shard::Shard>,
}

/// Which runs keep their trace in their [`RunResult`].
///
/// A kept trace ([`crate::Trace`]) costs no work when the run ends and 4 bytes per step for as
/// long as the result lives (the labels' texts are shared). For long in-process sessions whose
/// passing runs nobody reads (a `cargo test` of a component running millions of steps),
/// `Failures` keeps memory flat: a passing run's trace is dropped and its buffer reused by the
/// next run; the steps are still counted in [`RunResult::steps`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Traces {
    /// Every run (the reports' format; the default).
    #[default]
    All,
    /// Only runs that did not pass; a passing run's trace is empty.
    Failures,
}

impl Default for OnlineOptions {
    fn default() -> Self {
        OnlineOptions {
            policy: QuiescencePolicy::default(),
            runs: 100,
            depth: 50,
            seed: 0,
            quiescence_timeout: Duration::from_millis(200),
            timeouts: None,
            time_budget: None,
            stop_on_failure: true,
            jobs: 1,
            strategy: StrategySpec::Uniform,
            retries: 2,
            shrink: false,
            shrinking: crate::shrinking::ShrinkOptions::default(),
            fairness: crate::fairness::Fairness::default(),
            relation: ioco_model::Relation::Ioco,
            observe: 0.5,
            progress: Progress::default(),
            traces: Traces::All,
            keep: crate::result::Keep::All,
            step_times: false,
            shard: None,
        }
    }
}

impl OnlineOptions {
    pub fn strategy_name(&self) -> &'static str {
        match self.strategy {
            StrategySpec::Uniform => "uniform",
            StrategySpec::Weighted(_) => "weighted",
            StrategySpec::Coverage => "coverage",
        }
    }
}
