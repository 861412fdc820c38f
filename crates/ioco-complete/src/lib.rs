//! Complete test suites: n-complete ioco suites, adaptive distinguishing graphs, W/Wp/HSI/H for Mealy machines
