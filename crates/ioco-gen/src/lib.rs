//! # ioco-gen
//!
//! Test generation.
//!
//! * [`testcase`]: the test-case and suite format shared by every generator and the executor;
//! * [`batch`]: batch test generation, tutorial Alg. 1 with Remark 7.1 ([`generate_random`]);
//! * [`strategy`]: choice strategies for batch and on-the-fly testing (uniform, weighted,
//!   coverage-guided) and the seed derivation of runs;
//! * [`coverage`]: which model states and transitions tests visited;
//! * [`fixtures`]: the tutorial's music player and its implementations, for tests.

pub mod batch;
pub mod coverage;
pub mod fixtures;
pub mod strategy;
pub mod stream;
pub mod testcase;

pub use batch::{generate, generate_random, BatchGenerator, BatchOptions};
pub use coverage::Coverage;
pub use strategy::{
    derive_seed, Choice, CoverageGuided, Situation, Strategy, StrategySpec, Uniform, Weighted,
};
pub use testcase::{Branch, NamedTest, Suite, SuiteRole, TestCase, Verdict, DELTA};
