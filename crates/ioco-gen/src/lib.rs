//! Test generation: batch test cases (tutorial Alg. 1), the test-case format, on-the-fly choice strategies
