//! Compatibility as a greatest fixpoint with pairwise distinguishing graphs
//! (thesis Alg. 1, L2679–2734; journal 003 Alg. 1, rebuilt in the notes §A2.4; fixpoint
//! characterisation thesis Def. 2.18 / Lemma 2.19).
//!
//! Jacobi iteration: round `i` tests every pair still in `⋈_{i−1}` against `⋈_{i−1}`; a pair
//! leaves when all its common outputs lead out of `⋈_{i−1}` (an *output node*: wait for an
//! output) or, failing that, when some common input does (an *input node*). Output nodes are
//! preferred, as in the thesis. The node of a pair only points to pairs removed in earlier
//! rounds, so the graphs are acyclic and a graph found in round `i` has height ≤ `i`
//! (thesis Lemma 2.33). `O(|Q|⁴·|L|)` in the worst case: kept as an oracle for
//! [`crate::compat`] (property-tested to agree) and for the round numbers of the thesis'
//! examples; [`crate::compat::Compat::compute`] is the fast algorithm.

use crate::compat::{Compat, WAIT};
use crate::sa::{tri, tri_len, Sa};

/// Result of Alg. 1: the relation with per-pair graph nodes; `rank` is the round number.
pub fn compat_fixpoint(sa: &Sa) -> (Compat, usize) {
    let n = sa.n();
    let len = tri_len(n);
    let mut rank = vec![u32::MAX; len];
    let mut strat = vec![WAIT; len];
    let mut round = 0u32;
    loop {
        round += 1;
        let mut found: Vec<(usize, u16)> = Vec::new();
        let in_prev = |rank: &Vec<u32>, p: u32, q: u32| p == q || rank[tri(p, q)] == u32::MAX;
        for q in 1..n as u32 {
            for p in 0..q {
                let i = tri(p, q);
                if rank[i] != u32::MAX {
                    continue;
                }
                // Outputs: every common output leaves ⋈_{i−1}.
                let all_out_leave = sa
                    .outs(p)
                    .filter_map(|(x, t1)| sa.step(q, x).map(|t2| (t1, t2)))
                    .all(|(t1, t2)| !in_prev(&rank, t1, t2));
                if all_out_leave {
                    found.push((i, WAIT));
                    continue;
                }
                let bad_input = sa
                    .ins(p)
                    .find(|&(a, t1)| sa.step(q, a).is_some_and(|t2| !in_prev(&rank, t1, t2)));
                if let Some((a, _)) = bad_input {
                    found.push((i, a));
                }
            }
        }
        if found.is_empty() {
            return (Compat::from_parts(n, rank, strat), round as usize - 1);
        }
        for (i, s) in found {
            rank[i] = round;
            strat[i] = s;
        }
    }
}
