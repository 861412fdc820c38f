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
//! [`system`] (the system under learning: any [`ioco_engine::Sut`] over labels, with outputs
//! until quiescence as one output; a Mealy machine played in process), [`lts`] (a learned
//! machine with quiescence as an LTS, an ioco specification), [`moore`] (the Moore machine of a
//! learned machine of a Moore system: outputs on states), [`compare`] (equivalence of two
//! machines by input and output names), [`stop`] (ending a session from outside, e.g. on
//! Ctrl-C, with the hypothesis so far).
//!
//! ```
//! use ioco_engine::{Observation, Sent, Sut, SutError};
//! use ioco_learn::{learn, Limits, Names, Options, System};
//! use ioco_model::Label;
//! use std::time::Duration;
//!
//! /// A component to learn: a turnstile that counts coins modulo 3.
//! struct Counter {
//!     coins: u32,
//!     names: Names,
//!     answer: Option<Label>,
//! }
//! impl Sut for Counter {
//!     fn reset(&mut self) -> Result<(), SutError> {
//!         self.coins = 0;
//!         Ok(())
//!     }
//!     fn send(&mut self, input: Label) -> Result<Sent, SutError> {
//!         let answer = match self.names.name(input).as_str() {
//!             "coin" => {
//!                 self.coins = (self.coins + 1) % 3;
//!                 if self.coins == 0 { "open".into() } else { "wait".into() }
//!             }
//!             _ => format!("count {}", self.coins),
//!         };
//!         self.answer = Some(self.names.output(&answer));
//!         Ok(Sent::Accepted)
//!     }
//!     fn observe(&mut self, _: Option<Duration>) -> Result<Observation, SutError> {
//!         Ok(self.answer.take().map_or(Observation::Quiescent, Observation::Output))
//!     }
//!     fn timed(&self) -> bool {
//!         false // answers at once: quiescence is exact
//!     }
//! }
//!
//! let inputs = ["coin".to_string(), "show".to_string()];
//! let system = System::in_process(&inputs, Limits::default(), |names| {
//!     Box::new(Counter { coins: 0, names, answer: None })
//! });
//! let learned = learn(system, &Options::default()).unwrap();
//! assert!(learned.verified);
//! assert_eq!(learned.machine.num_states(), 3);
//! assert!(learned.stats.symbols > 0);
//! ```

pub mod cache;
pub mod compare;
pub mod equivalence;
pub mod lsharp;
pub mod lts;
pub mod moore;
pub mod stop;
pub mod system;
pub mod tree;

pub use cache::{Budget, Stats};
pub use equivalence::Oracle;
pub use ioco_fsm::Method;
pub use system::{Limits, MakeAdapter, Names, System, QUIESCENCE};

use ioco_model::Mealy;
use serde::Serialize;
use std::fmt;

/// Why learning stopped without a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LearnError {
    /// The system failed.
    System(ioco_engine::SutError),
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
            LearnError::System(e) => write!(f, "{e}"),
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
                system::late_hint(*timeout)
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
    /// The machine: its outputs are the system's reactions (with quiescence `""`, see
    /// [`system`]).
    pub machine: Mealy,
    /// True when the equivalence oracle passed it; false when a budget ran out first (then the
    /// machine is the hypothesis so far, possibly partial).
    pub verified: bool,
    /// Why it is not verified.
    pub unverified_because: Option<String>,
    /// The costs.
    pub stats: Stats,
}

/// Learn `system` over its inputs (see [`learn_with`]).
pub fn learn(system: System<'_>, opts: &Options) -> Result<Learned, LearnError> {
    learn_with(system, opts, &mut |_| {}).map(|(l, _)| l)
}

/// Learn `system` over its inputs ([`System::inputs`], in that order) with L#, telling `on` of
/// every hypothesis and counterexample; the learned machine and the system back. A budget that
/// runs out gives the hypothesis so far, with [`Learned::verified`] false; a failing or
/// nondeterministic system is an error.
pub fn learn_with<'a>(
    system: System<'a>,
    opts: &Options,
    on: &mut dyn FnMut(Event),
) -> Result<(Learned, System<'a>), LearnError> {
    if system.inputs().is_empty() {
        return Err(LearnError::NoInputs);
    }
    let _active = stop::Active::new();
    let mut cache = cache::Cache::new(system, opts.budget, opts.repetitions);
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
        l.cache.into_system(),
    ))
}
