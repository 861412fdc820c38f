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
//! - [`z3solver`]: the Z3 back end (system libz3 via the `z3` crate);
//! - [`system`]: the flattened switches of a composition, concrete and symbolic steps;
//! - [`pick`]: value selection that finds bugs (random, boundary, growing, model);
//! - [`tracker`]: the online tracker [`SymbolicSpec`] (candidate states, input choice,
//!   output/quiescence verdicts; quiescence of STS states defined there);
//! - [`online`]: the online test loop over a [`online::DataSut`], replay and shrinking, the
//!   value syntax of the line wire format ([`online::parse_value`]); real programs are driven
//!   by `ioco_exec::data`;
//! - [`seg`]: symbolic execution graph, switch-coverage test purposes and their execution
//!   (TAP19 Alg. 1 = thesis Alg. 6), a priori and a posteriori coverage.
//!
//! Soundness: an `unknown` solver answer never produces Fail (TAP19 Thm. 19).

pub mod online;
pub mod pick;
pub mod quick;
pub mod seg;
pub mod solver;
pub mod system;
pub mod term;
pub mod tracker;
pub mod z3solver;

pub use solver::{Checker, SatResult, Solver, SolverStats, UnknownSolver};
pub use system::{Move, State, SymState, System};
pub use tracker::{Quiescence, Step, SymbolicSpec};
pub use z3solver::Z3Solver;
