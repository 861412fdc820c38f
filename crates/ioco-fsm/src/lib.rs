//! Complete test suites for Mealy machines.
