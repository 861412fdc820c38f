//! # ioco-exec
//!
//! Execution: adapters to systems under test, online testing (tutorial Alg. 2), running stored
//! test cases, replay and shrinking, and the result types ([`result`]).

pub mod result;

pub use result::{CoverageSummary, Failure, RunResult, RunVerdict, Shrunk, Summary};
