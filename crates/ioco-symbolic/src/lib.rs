//! Symbolic transition systems and SMT-backed testing
