//! # ioco-complete
//!
//! Complete test suites for deterministic suspension automata (van den Bos' thesis, ch. 2–3;
//! journal "n-Complete test suites for IOCO", SQJ 2018):
//!
//! * relations: compatibility `⋈` with the tester's strategies ([`compat`], thesis Alg. 2 on
//!   `S‖S`; [`alg1`] is thesis Alg. 1, kept as a cross-check), invalid states
//!   ([`validity`]), equivalence `≈` on the demonic completion ([`equiv`]), merges
//!   ([`merge`]), pairwise distinguishing graphs, characterisation sets and harmonised
//!   identifiers ([`distgraph`]), access sequences ([`access`]);
//! * suites: the n-complete suite `T(S, n)` with nested merge suites ([`suite`], [`n_complete`]),
//!   its size [`estimate`], and the unconditional suite `U(S, n)` ([`unconditional`]);
//! * adaptive distinguishing graphs (thesis ch. 3): CCS terms ([`ccs`]), splitting graphs
//!   ([`splitting`], Alg. 3/4; by default the states an input split's input is not enabled in
//!   form a child of their own instead of joining every child, and the construction stops at
//!   a budget with an incomplete graph), ADG extraction and the metrics of Table 3.2 ([`adg`]), and the
//!   `adg` suite: access sequences followed by ADG identifiers ([`adg_suite`]), with residual
//!   adaptive experiments for the pairs the ADG leaves ([`residual`]; not in the thesis).
//!
//! Input: a deterministic suspension automaton as an [`Lts`], e.g.
//! `ioco_model::SuspensionAutomaton::build(&lts, policy).lts` (deterministic, explicit δ).
//!
//! ```
//! use ioco_model::{Alphabet, LtsBuilder, LabelKind::*};
//! // Thesis Fig. 3.1 (fixture F1).
//! let mut b = LtsBuilder::new(Alphabet::new());
//! b.add_states(4); b.add_initial(0);
//! for (s, l, k, t) in [(0,"a",Input,2),(0,"x",Output,0),(0,"y",Output,0),(1,"a",Input,3),
//!                      (1,"x",Output,3),(2,"x",Output,3),(3,"y",Output,1)] {
//!     b.add(s, l, k, t).unwrap();
//! }
//! let sa = b.build().unwrap();
//! let a = ioco_complete::analyze(&sa).unwrap();
//! // 2 ⋈ 3: one unordered pair, two ordered ones (thesis Table 3.2 counts ordered pairs).
//! assert_eq!(a.compatible_pairs, 2);
//! assert!((a.compatible_percent - 100.0 * 2.0 / 12.0).abs() < 1e-9);
//! assert_eq!(a.adg.as_ref().unwrap().term, "x.(x.0 + y.a.(x.0 + y.0)) + y.a.(x.0 + y.0)");
//! let suite = ioco_complete::n_complete(&sa, 2, &Default::default()).unwrap();
//! assert!(suite.num_tests() > 0);
//! ```

pub mod access;
pub mod adg;
pub mod alg1;
pub mod analysis;
pub mod budget;
pub mod ccs;
pub mod compat;
pub mod compat_local;
pub mod distgraph;
pub mod equiv;
pub mod exact;
pub mod merge;
pub mod residual;
pub mod sa;
pub mod splitting;
pub mod suite;
pub(crate) mod tree;
pub mod unconditional;
pub mod validity;
pub mod write;

pub use adg::{AdgMetrics, AdgOptions, Pairwise};
pub use analysis::Analysis;
pub use sa::Sa;
pub use suite::{NCompleteOptions, SizeEstimate};

use ioco_gen::Suite;
use ioco_model::Lts;

/// Errors of this crate.
#[derive(Clone, Debug, PartialEq)]
pub enum CompleteError {
    /// The input is not a deterministic, non-blocking suspension automaton.
    NotSuspensionAutomaton(String),
    /// The suite would be too large.
    TooLarge {
        /// The `n` asked for.
        n: usize,
        /// Estimated number of test cases.
        estimated: f64,
        /// The limit.
        limit: u64,
        /// The largest `n` whose suite fits the limit, if any.
        feasible_n: Option<usize>,
    },
    /// The splitting graph reached its budget (only with `fail_at_budget`).
    SplittingGraphTooLarge {
        /// The nodes built.
        limit: usize,
    },
    /// The exact ADG search ([`exact`]) passed its bound on configurations or memory.
    ExactSearchTooLarge {
        /// Configurations built.
        configurations: usize,
        /// Their memory (bytes, estimated).
        bytes: usize,
    },
    /// The nested suites of `T(S, n)` need merged automata whose state pairs, with those of
    /// the automata already prepared, pass the budget ([`budget`]).
    MergesTooLarge {
        /// States of the automata prepared and of the merge that passed the budget.
        states: usize,
        /// Their state pairs.
        pairs: u64,
        /// The limit on pairs.
        limit: u64,
    },
    /// The suspension automaton has more state pairs than the budget ([`budget`]).
    TooManyPairs {
        /// States of the suspension automaton.
        states: usize,
        /// Its unordered pairs of distinct states.
        pairs: u64,
        /// Memory the pairwise relations would take.
        bytes: u64,
        /// The limit on pairs.
        limit: u64,
    },
}

impl std::fmt::Display for CompleteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompleteError::NotSuspensionAutomaton(m) => {
                write!(f, "not a deterministic suspension automaton: {m}")
            }
            CompleteError::TooLarge {
                n,
                estimated,
                limit,
                feasible_n,
            } => {
                if estimated.is_finite() {
                    write!(
                        f,
                        "the suite for n = {n} would have about {estimated:.3e} test cases, more \
                         than the limit of {limit}"
                    )?;
                } else {
                    // sizing stops at the limit: the exact count is not known
                    write!(
                        f,
                        "the suite for n = {n} would have more test cases than the limit of \
                         {limit}"
                    )?;
                }
                match feasible_n {
                    Some(m) => write!(f, "; n = {m} is feasible (or raise the limit)"),
                    None => write!(f, "; no n fits the limit (raise the limit)"),
                }
            }
            CompleteError::TooManyPairs {
                states,
                pairs,
                bytes,
                limit,
            } => write!(
                f,
                "the suspension automaton has {states} states: {pairs} state pairs to relate \
                 (about {:.1} GiB), more than the limit of {limit} pairs; hint: raise \
                 --max-pairs, use a smaller model, or test it online (`ioco test`), which \
                 relates no pairs",
                *bytes as f64 / (1u64 << 30) as f64
            ),
            CompleteError::MergesTooLarge {
                states,
                pairs,
                limit,
            } => write!(
                f,
                "the nested suites of the n-complete suite need merged automata of {states} \
                 states in all: {pairs} state pairs to relate (about {:.1} GiB), more than the \
                 limit of {limit} pairs; hint: raise --max-pairs, use a smaller --n, or use \
                 --method adg",
                (*pairs as f64) * 8.0 / (1u64 << 30) as f64
            ),
            CompleteError::SplittingGraphTooLarge { limit } => write!(
                f,
                "the splitting graph reached its budget at {limit} nodes (thesis Lemma 3.31: it \
                 can be exponential); hint: allow an incomplete graph (the default), raise the \
                 budget, or use n-complete suites"
            ),
            CompleteError::ExactSearchTooLarge {
                configurations,
                bytes,
            } => write!(
                f,
                "the exact ADG search stopped at its bound after {configurations} \
                 configurations ({:.1} MiB; configurations are sets of current states with \
                 the pairs still to separate, exponential in the states); it is meant for \
                 small automata: use the splitting-graph ADG instead",
                *bytes as f64 / (1 << 20) as f64
            ),
        }
    }
}

impl std::error::Error for CompleteError {}

/// Analyse a suspension automaton: compatible and equivalent pairs, ADG metrics
/// (thesis Table 3.2).
pub fn analyze(sa: &Lts) -> Result<Analysis, CompleteError> {
    analysis::analyze_with(sa, &AdgOptions::default())
}

/// The n-complete suite `T(S, n)` (thesis Def. 2.37).
pub fn n_complete(sa: &Lts, n: usize, opts: &NCompleteOptions) -> Result<Suite, CompleteError> {
    suite::n_complete_sa(Sa::from_lts(sa)?.within_budget()?, n, opts)
}

/// `T(S, n)` streamed test by test, depth first over the access sequences (nothing is kept
/// in memory but the current path): for suites too large to hold. Returns the estimate; the
/// test limit of `opts` still applies.
pub fn n_complete_stream(
    sa: &Lts,
    n: usize,
    opts: &NCompleteOptions,
    sink: &mut dyn FnMut(suite::Event),
) -> Result<SizeEstimate, CompleteError> {
    let mut g = suite::Generator::new(Sa::from_lts(sa)?.within_budget()?, n, opts);
    let est = g.estimate();
    if est.total_tests > opts.max_tests as f64 {
        return Err(CompleteError::TooLarge {
            n,
            estimated: est.total_tests,
            limit: opts.max_tests,
            feasible_n: None,
        });
    }
    g.check_budget()?;
    g.stream(&est, sink);
    Ok(est)
}

/// The size of `T(S, n)`, estimated without generating it.
pub fn estimate(sa: &Lts, n: usize) -> Result<SizeEstimate, CompleteError> {
    let opts = NCompleteOptions::default();
    // Building the generator relates the states pairwise: within the budget only.
    Ok(suite::Generator::new(Sa::from_lts(sa)?.within_budget()?, n, &opts).estimate())
}

/// The unconditional suite `U(S, n)` (thesis Def. 2.43), refused above `max_tests` tests.
pub fn unconditional_suite(sa: &Lts, n: usize, max_tests: u64) -> Result<Suite, CompleteError> {
    suite::unconditional_sa(Sa::from_lts(sa)?.within_budget()?, n, max_tests)
}

/// Access sequences followed by ADG-based state identifiers (thesis ch. 3).
pub fn adg_suite(sa: &Lts, opts: &AdgOptions) -> Result<Suite, CompleteError> {
    adg::adg_suite_sa(Sa::from_lts(sa)?.within_budget()?, opts)
}

/// The `adg` suite streamed test by test into `sink` (for suites too large to hold); returns
/// the suite's header (method, parameters) without tests.
pub fn adg_suite_stream(
    sa: &Lts,
    opts: &AdgOptions,
    sink: &mut dyn FnMut(ioco_gen::NamedTest),
) -> Result<Suite, CompleteError> {
    adg::adg_suite_stream_sa(Sa::from_lts(sa)?.within_budget()?, opts, sink)
}
