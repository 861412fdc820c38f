//! Budgets: how large a pairwise computation may grow before it is refused.
//!
//! Compatibility, equivalence and distinguishing graphs relate every pair of states of the
//! suspension automaton: `n(n−1)/2` pairs, about 8 bytes each in the compatibility arrays
//! alone. An 18-state specification can have a suspension automaton of 2^17 states, whose
//! 8.6·10^9 pairs would need some 70 GB: such a request is refused up front with
//! [`CompleteError::TooManyPairs`], which says how large it was going to be and which option
//! raises the limit, instead of aborting on a failed allocation.

use crate::CompleteError;
use std::sync::atomic::{AtomicU64, Ordering};

/// The default limit on state pairs (`n(n−1)/2`): 5·10^7 pairs, a suspension automaton of
/// about 10 000 states, under 1 GiB for the relations.
pub const DEFAULT_MAX_PAIRS: u64 = 50_000_000;

static MAX_PAIRS: AtomicU64 = AtomicU64::new(DEFAULT_MAX_PAIRS);

/// Set the limit on state pairs for this process (the CLI's `--max-pairs`).
pub fn set_max_pairs(limit: u64) {
    MAX_PAIRS.store(limit, Ordering::Relaxed);
}

/// The limit on state pairs in force.
pub fn max_pairs() -> u64 {
    MAX_PAIRS.load(Ordering::Relaxed)
}

/// Bytes per state pair in the pairwise relations (rank, strategy, counter).
const BYTES_PER_PAIR: u64 = 8;

/// `Ok` when a suspension automaton of `states` states is within the pair budget.
pub(crate) fn check_pairs(states: usize) -> Result<(), CompleteError> {
    let n = states as u64;
    let pairs = n.saturating_mul(n.saturating_sub(1)) / 2;
    let limit = max_pairs();
    if pairs > limit {
        return Err(CompleteError::TooManyPairs {
            states,
            pairs,
            bytes: pairs.saturating_mul(BYTES_PER_PAIR),
            limit,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_automaton_is_refused_with_its_size() {
        assert!(check_pairs(10_000).is_ok());
        let e = check_pairs(1 << 17).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("131072 states"), "{msg}");
        assert!(msg.contains("--max-pairs"), "{msg}");
    }
}
