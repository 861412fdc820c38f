//! Execution: adapters to systems under test, online testing (tutorial Alg. 2), running test cases, verdicts
