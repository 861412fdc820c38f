//! # ioco-learn
//!
//! Active automata learning of Mealy machines with L# (Vaandrager, Garhewal, Rot, Wißmann,
//! TACAS 2022), with equivalence queries answered by this project's complete test suites
//! (`ioco-fsm`: hybrid-ADS, H, Wp, ... with `k` extra states), optionally preceded by seeded
//! random words. For a system with at most `n + k` states (`n`: the states learned), the
//! learned machine is equivalent to it.
//!
//! One algorithm per file: [`tree`] (observation tree, apartness), [`cache`] (output queries
//! through the tree: cache, counting, budget, nondeterminism, adaptive queries), [`lsharp`]
//! (the L# rules, hypotheses, counterexample processing), [`equivalence`] (the oracle),
//! [`sul`] (the system-under-learning trait and a Mealy machine played in process),
//! [`adapter`] (a system reached through `ioco-exec`'s adapters: processes, TCP, with outputs
//! until quiescence as one output), [`lts`] (a learned machine with quiescence as an LTS, an
//! ioco specification), [`moore`] (the Moore machine of a learned machine of a Moore system:
//! outputs on states), [`compare`] (equivalence of two machines by input and output names),
//! [`stop`] (ending a session from outside, e.g. on Ctrl-C, with the hypothesis so far).
//!
//! ```
//! use ioco_learn::{learn, Options, Sul, SulError};
//!
//! /// A component to learn: a turnstile that counts coins modulo 3.
//! struct Counter(u32);
//! impl Sul for Counter {
//!     fn reset(&mut self) -> Result<(), SulError> {
//!         self.0 = 0;
//!         Ok(())
//!     }
//!     fn step(&mut self, input: &str) -> Result<String, SulError> {
//!         Ok(match input {
//!             "coin" => {
//!                 self.0 = (self.0 + 1) % 3;
//!                 if self.0 == 0 { "open".into() } else { "wait".into() }
//!             }
//!             _ => format!("count {}", self.0),
//!         })
//!     }
//! }
//!
//! let learned = learn(Counter(0), &["coin", "show"], &Options::default()).unwrap();
//! assert!(learned.verified);
//! assert_eq!(learned.machine.num_states(), 3);
//! assert!(learned.stats.symbols > 0);
//! ```

pub mod adapter;
pub mod cache;
pub mod compare;
pub mod equivalence;
pub mod lsharp;
pub mod lts;
pub mod moore;
pub mod stop;
pub mod sul;
pub mod tree;

pub use cache::{Budget, Stats};
pub use equivalence::Oracle;
pub use ioco_fsm::Method;
pub use sul::{MealySul, Sul, SulError, QUIESCENCE};

use ioco_model::Mealy;
use serde::Serialize;
use std::fmt;

/// Why learning stopped without a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LearnError {
    /// The system failed.
    Sul(SulError),
    /// The same input word gave two different output words.
    Nondeterministic {
        /// The inputs.
        inputs: Vec<String>,
        /// The outputs first observed.
        first: Vec<String>,
        /// The outputs observed now.
        second: Vec<String>,
    },
    /// The same input word gave two output words of which one is the other with outputs
    /// missing at its end, and quiescence is observed by a time-out: an answer came late.
    Late {
        /// The inputs.
        inputs: Vec<String>,
        /// The outputs first observed.
        first: Vec<String>,
        /// The outputs observed now.
        second: Vec<String>,
        /// The quiescence time-out.
        timeout: std::time::Duration,
    },
    /// The cache file could not be read or written.
    Cache(String),
    /// The oracle's suite could not be generated.
    Oracle(ioco_fsm::FsmError),
    /// A budget ran out (handled by [`learn`]: the hypothesis so far is returned, unverified).
    Budget(String),
    /// Nothing to learn with.
    NoInputs,
}

impl fmt::Display for LearnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LearnError::Sul(e) => write!(f, "{e}"),
            LearnError::Nondeterministic {
                inputs,
                first,
                second,
            } => write!(
                f,
                "the system is not deterministic: the inputs `{}` gave `{}` once and `{}` \
                 another time; a Mealy machine cannot describe it (check that it starts from \
                 the same state after a reset, and that its quiescence time-out is long enough)",
                inputs.join(" "),
                first.join(" "),
                second.join(" ")
            ),
            LearnError::Late {
                inputs,
                first,
                second,
                timeout,
            } => write!(
                f,
                "an answer came late: the inputs `{}` gave `{}` once and `{}` another time; {}",
                inputs.join(" "),
                first.join(" "),
                second.join(" "),
                adapter::late_hint(*timeout)
            ),
            LearnError::Oracle(e) => write!(f, "the equivalence oracle's suite: {e}"),
            LearnError::Cache(m) => write!(f, "the cache file: {m}"),
            LearnError::Budget(m) => write!(f, "{m}"),
            LearnError::NoInputs => write!(f, "no inputs to learn with"),
        }
    }
}

impl std::error::Error for LearnError {}

/// What happens during learning, for progress and the JSON log.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A hypothesis goes to the equivalence oracle.
    Hypothesis {
        /// The equivalence query's number.
        round: u64,
        /// Its states.
        states: usize,
        /// The costs so far.
        stats: Stats,
    },
    /// An equivalence query is under way (every [`equivalence::PROGRESS_EVERY`] test words).
    Testing {
        /// The equivalence query's number.
        round: u64,
        /// Test words tried so far in this query.
        words: u64,
        /// The costs so far.
        stats: Stats,
    },
    /// A counterexample (from the tree, a random word or the suite).
    Counterexample {
        /// The equivalence query's number.
        round: u64,
        /// `tree`, `random` or `suite`.
        source: &'static str,
        /// Its inputs.
        word: Vec<String>,
    },
}

/// How to learn.
#[derive(Clone, Debug)]
pub struct Options {
    /// The equivalence oracle.
    pub oracle: Oracle,
    /// Limits (resets, time).
    pub budget: Budget,
    /// Run every new word this many times (at least once) and require the same outputs.
    pub repetitions: usize,
    /// The cache file: its runs are added to the tree first, every new run is appended.
    pub cache_file: Option<std::path::PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            oracle: Oracle::default(),
            budget: Budget::default(),
            repetitions: 1,
            cache_file: None,
        }
    }
}

/// A learned machine.
#[derive(Clone, Debug)]
pub struct Learned {
    /// The machine: its outputs are the system's (with quiescence `""`, see [`sul`]).
    pub machine: Mealy,
    /// True when the equivalence oracle passed it; false when a budget ran out first (then the
    /// machine is the hypothesis so far, possibly partial).
    pub verified: bool,
    /// Why it is not verified.
    pub unverified_because: Option<String>,
    /// The costs.
    pub stats: Stats,
}

/// Learn `sul` over `inputs` (see [`learn_with`]).
pub fn learn<S: Sul>(sul: S, inputs: &[&str], opts: &Options) -> Result<Learned, LearnError> {
    let inputs: Vec<String> = inputs.iter().map(|s| s.to_string()).collect();
    learn_with(sul, inputs, opts, &mut |_| {}).map(|(l, _)| l)
}

/// Learn `sul` over `inputs` with L#, telling `on` of every hypothesis and counterexample; the
/// learned machine and the system back. A budget that runs out gives the hypothesis so far,
/// with [`Learned::verified`] false; a failing or nondeterministic system is an error.
pub fn learn_with<S: Sul>(
    sul: S,
    inputs: Vec<String>,
    opts: &Options,
    on: &mut dyn FnMut(Event),
) -> Result<(Learned, S), LearnError> {
    if inputs.is_empty() {
        return Err(LearnError::NoInputs);
    }
    let _active = stop::Active::new();
    let mut cache = cache::Cache::new(sul, inputs, opts.budget, opts.repetitions);
    if let Some(path) = &opts.cache_file {
        cache.open_file(path)?;
    }
    let mut l = lsharp::LSharp::new(cache);
    let run = l.run(&opts.oracle, on);
    l.cache.flush_run()?;
    let (machine, verified, why) = match run {
        Ok(h) => (h, true, None),
        Err(LearnError::Budget(why)) => (l.best_effort(), false, Some(why)),
        Err(e) => return Err(e),
    };
    let stats = l.cache.stats();
    let verified = verified && opts.oracle.method.is_some();
    let why = why.or_else(|| {
        (!verified).then(|| "random words only: no complete suite was run".to_string())
    });
    Ok((
        Learned {
            machine,
            verified,
            unverified_because: why,
            stats,
        },
        l.cache.into_sul(),
    ))
}
