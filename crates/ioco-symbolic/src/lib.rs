//! # ioco-symbolic: symbolic transition systems and SMT-backed testing
//!
//! Gives the STS intermediate representation of `ioco-lang` ([`ioco_lang::ir`]) its semantics
//! with data (thesis ch. 4, TAP19 = van den Bos & Tretmans, "Coverage-based testing with
//! symbolic transition systems"):
//!
//! - [`term`]: symbolic terms with step-indexed parameters (`w@3` instead of primes);
//! - [`solver`]: the three-valued solver interface (sat/unsat/unknown, models, push/pop,
//!   time-outs), a memoising [`solver::Checker`], and [`solver::UnknownSolver`];
//! - [`quick`]: difference-logic formulas decided without the solver (the fast path of
//!   [`solver::Checker`]);
//! - [`sample`]: values for guards outside that fragment by sampling, repair and evaluation
//!   (the fast path of value choice; a value found is a witness of satisfiability);
//! - [`z3solver`]: the Z3 back end (system libz3 via the `z3` crate; cargo feature `z3`, on by
//!   default: without it the crate has no solver of its own and needs no Z3);
//! - [`system`]: the flattened switches of a composition, concrete and symbolic steps;
//! - [`pick`]: value selection that finds bugs (random, boundary, growing, model);
//! - [`tracker`]: the online tracker [`SymbolicSpec`] (candidate states, input choice,
//!   output/quiescence verdicts; quiescence of STS states defined there);
//! - [`online`]: the online test loop over the engine's `Sut` with gate values, replay and shrinking, the
//!   value syntax of the line wire format ([`online::parse_value`]); real programs are driven
//!   by `ioco_sut::data`;
//! - [`draw`]: a summary of an STS and its drawing as DOT or JSON (for `ioco check`/`show`);
//! - [`seg`]: symbolic execution graph, switch-coverage test purposes and their execution
//!   (TAP19 Alg. 1 = thesis Alg. 6), a priori and a posteriori coverage.
//!
//! Soundness: an `unknown` solver answer never produces Fail (TAP19 Thm. 19).
//!
//! ## Semantics of errors in the data language
//!
//! - **Integers** are `i64`. **Overflow** (`+ - *`, negation, `i64::MIN / -1`) and **division
//!   or modulo by zero** are evaluation errors (`/` and `%` are Euclidean, as SMT-LIB's `div`
//!   and `mod`). Terms keep such an operation unfolded, and the solver (unbounded integers,
//!   `x div 0` some number) may call a guard satisfiable only through it; every witness that
//!   matters for a verdict is therefore re-checked by evaluation.
//! - A guard or an assignment whose evaluation fails at the current state is a **model
//!   error**: observing that gate there is **Inconclusive**, with the message (e.g. "model
//!   error in `M: s -- o!(x) [x == 10 / d] --> s`: division by zero"). Quiescence of a state
//!   whose only output witness fails evaluation is *unknown*, so observed quiescence there is
//!   Inconclusive, never Fail. An assignment outside a variable's range is a model error too.
//! - **Solver trouble** is `unknown`, never a panic: time-outs (default
//!   [`z3solver::DEFAULT_TIMEOUT`] per check, [`solver::Checker::set_timeout`]), recursion
//!   deeper than the inlining bound, ill-typed hand-built terms, and data types Z3 cannot
//!   declare (no constructor, or no finite value such as `type S = Mk { s: S }`: then
//!   [`SymbolicSpec::with_z3`] and [`Z3Solver::try_new`] return the error, [`Z3Solver::new`] a
//!   solver that answers `unknown` with the reason). A missing `libz3` is a link-time error of
//!   the binary; without Z3, [`solver::UnknownSolver`] gives Inconclusive instead of verdicts
//!   that need the solver (outputs are still judged by evaluation).
//! - **Ill-typed guards** cannot reach this crate: `ioco-lang` type-checks models; for terms
//!   built by hand, see the previous point.
//! - **Unsatisfiable initial conditions** do not exist as such: initial values are constants
//!   checked against their types by `ioco-lang`. A state in which no switch is enabled is
//!   quiescent (and inputs there are not specified: Inconclusive).
//!
//! ## Performance
//!
//! [`solver::Checker`] memoises satisfiability per formula, pools models per question, and
//! decides difference-logic formulas itself ([`quick`]): on the TorXakis data
//! micro-benchmarks (`benches/stepper.rs`) no Z3 check is left, about 3 ms of CPU per 100 steps
//! (TorXakis issue #850: 1.25 s to 17 s). Values for guards outside the difference-logic
//! fragment (strings, regular expressions, data types, products) are first searched for by
//! [`sample`] (sampling and repair, checked by evaluation): DispatchProcess's DisPro12
//! (TorXakis issue #330) takes 10 000 steps without a Z3 call, in about 6 s instead of 111 s.

pub mod draw;
pub mod engine;
pub mod online;
pub mod pick;
pub mod purpose_seg;
pub mod quick;
pub mod sample;
pub mod seg;
pub mod solver;
pub mod system;
pub mod term;
pub mod tracker;
#[cfg(feature = "z3")]
pub mod z3solver;

pub use solver::{Checker, SatResult, Solver, SolverStats, UnknownSolver};
pub use system::{Move, State, SymState, System};
pub use tracker::{Quiescence, Step, SymbolicSpec};
#[cfg(feature = "z3")]
pub use z3solver::Z3Solver;
