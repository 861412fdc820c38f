//! # ioco-gen
//!
//! Test generation. [`testcase`] is the test-case and suite format shared by every generator
//! and by the executor.

pub mod testcase;

pub use testcase::{Branch, NamedTest, Suite, SuiteRole, TestCase, Verdict, DELTA};
