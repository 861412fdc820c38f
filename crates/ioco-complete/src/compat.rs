//! Compatibility of states with witnesses: the attractor on the self-composition `S‖S`
//! (thesis Alg. 2 "compute winning tester" applied to `S‖S`, Lemma 3.10, §3.4 L4368–4390;
//! compatibility itself is thesis Def. 2.15 / Def. 3.8, journal 003 Def. 15).
//!
//! A pair `(p, q)` of `S‖S` is *invalid* (the tester wins: `p ⋈̸ q`) when no common output
//! exists, when some common input leads to an invalid pair, or when every common output leads
//! to an invalid pair. The invalid pairs are found backwards from the blocking pairs with a
//! counter of "common outputs not yet known to be invalid" per pair, so every product
//! transition is touched at most twice: `O(m·n)` on `S‖S`. Product predecessors are not
//! stored: they are the products of the predecessor lists of `S` with the same label.
//!
//! Besides the relation, every incompatible pair gets a *strategy* (a common input, or wait
//! for an output) and a *rank* (the longest play needed to win), thesis Lemma 3.7: the
//! strategy successors have strictly smaller rank, so the strategies form acyclic
//! distinguishing graphs (thesis Lemma 3.20; see [`crate::distgraph`]).
//!
//! Pairs are unordered and stored in triangular arrays (`n(n−1)/2` entries); diagonal pairs
//! are always compatible (the automaton is non-blocking).

use crate::sa::{tri, tri_len, Sa};

/// "Compatible" in the rank array.
const COMPAT: u32 = u32::MAX;
/// The wait-for-an-output strategy (θ).
pub(crate) const WAIT: u16 = u16::MAX;

/// How the tester wins from an incompatible pair.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Strategy {
    /// Apply this common input (local label).
    Input(u16),
    /// Wait for an output (θ): every common output leads to an incompatible pair.
    Wait,
}

/// The compatibility relation of a suspension automaton with strategies and ranks.
#[derive(Clone, Debug)]
pub struct Compat {
    n: usize,
    rank: Vec<u32>,
    strat: Vec<u16>,
}

impl Compat {
    pub(crate) fn from_parts(n: usize, rank: Vec<u32>, strat: Vec<u16>) -> Compat {
        Compat { n, rank, strat }
    }

    /// Compute `⋈` with strategies and ranks (thesis Alg. 2 on `S‖S`).
    pub fn compute(sa: &Sa) -> Compat {
        let n = sa.n();
        let k = sa.k();
        let len = tri_len(n);
        let mut rank = vec![COMPAT; len];
        let mut strat = vec![WAIT; len];
        let mut count = vec![0u16; len];
        // Output masks.
        let words = k.div_ceil(64).max(1);
        let mut mask = vec![0u64; n * words];
        for q in 0..n as u32 {
            for (l, _) in sa.outs(q) {
                mask[q as usize * words + l as usize / 64] |= 1 << (l % 64);
            }
        }
        // Predecessors of S: pre[t] = (label, source), sorted by label.
        let mut off = vec![0u32; n + 1];
        for q in 0..n as u32 {
            for &(_, t) in sa.enabled(q) {
                off[t as usize + 1] += 1;
            }
        }
        for i in 0..n {
            off[i + 1] += off[i];
        }
        let mut fill = off.clone();
        let mut pre = vec![(0u16, 0u32); sa.num_transitions()];
        for q in 0..n as u32 {
            for &(l, t) in sa.enabled(q) {
                pre[fill[t as usize] as usize] = (l, q);
                fill[t as usize] += 1;
            }
        }
        drop(fill);
        for t in 0..n {
            pre[off[t] as usize..off[t + 1] as usize].sort_unstable();
        }
        // Hot membership test: one bit per pair (1.5 MiB for 5 000 states, cache friendly).
        let mut inv = vec![0u64; len.div_ceil(64)];
        let mut queue: Vec<(u32, u32)> = Vec::new();
        for q in 1..n as u32 {
            let mq = &mask[q as usize * words..(q as usize + 1) * words];
            for p in 0..q {
                let mp = &mask[p as usize * words..(p as usize + 1) * words];
                let c: u32 = mp.iter().zip(mq).map(|(a, b)| (a & b).count_ones()).sum();
                let i = tri(p, q);
                count[i] = c as u16;
                if c == 0 {
                    rank[i] = 0;
                    inv[i / 64] |= 1 << (i % 64);
                    queue.push((p, q));
                }
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let (a, b) = queue[head];
            head += 1;
            let ra = rank[tri(a, b)];
            let pa = &pre[off[a as usize] as usize..off[a as usize + 1] as usize];
            let pb = &pre[off[b as usize] as usize..off[b as usize + 1] as usize];
            // Merge join on the label.
            let (mut i, mut j) = (0, 0);
            while i < pa.len() && j < pb.len() {
                let (la, lb) = (pa[i].0, pb[j].0);
                if la < lb {
                    i += 1;
                    continue;
                }
                if lb < la {
                    j += 1;
                    continue;
                }
                let i_end = i + pa[i..].iter().take_while(|e| e.0 == la).count();
                let j_end = j + pb[j..].iter().take_while(|e| e.0 == la).count();
                let output = sa.is_out(la);
                for &(_, s1) in &pa[i..i_end] {
                    for &(_, s2) in &pb[j..j_end] {
                        let idx = tri(s1, s2);
                        if inv[idx / 64] >> (idx % 64) & 1 == 1 {
                            continue;
                        }
                        if !output {
                            rank[idx] = ra + 1;
                            strat[idx] = la;
                            inv[idx / 64] |= 1 << (idx % 64);
                            queue.push((s1, s2));
                        } else {
                            count[idx] -= 1;
                            if count[idx] == 0 {
                                let mut r = 0;
                                for (x, t1) in sa.outs(s1) {
                                    if let Some(t2) = sa.step(s2, x) {
                                        r = r.max(rank[tri(t1, t2)]);
                                    }
                                }
                                rank[idx] = r + 1;
                                strat[idx] = WAIT;
                                inv[idx / 64] |= 1 << (idx % 64);
                                queue.push((s1, s2));
                            }
                        }
                    }
                }
                i = i_end;
                j = j_end;
            }
        }
        Compat { n, rank, strat }
    }

    /// Number of states.
    pub fn n(&self) -> usize {
        self.n
    }

    /// `p ⋈ q`.
    #[inline]
    pub fn compatible(&self, p: u32, q: u32) -> bool {
        p == q || self.rank[tri(p, q)] == COMPAT
    }

    /// The rank of an incompatible pair (thesis Lemma 3.7), `None` when compatible.
    #[inline]
    pub fn rank(&self, p: u32, q: u32) -> Option<u32> {
        if p == q {
            return None;
        }
        let r = self.rank[tri(p, q)];
        (r != COMPAT).then_some(r)
    }

    /// The tester's winning strategy for an incompatible pair.
    #[inline]
    pub fn strategy(&self, p: u32, q: u32) -> Option<Strategy> {
        self.rank(p, q)?;
        Some(match self.strat[tri(p, q)] {
            WAIT => Strategy::Wait,
            l => Strategy::Input(l),
        })
    }

    /// Number of unordered pairs of distinct compatible states.
    pub fn compatible_pairs(&self) -> usize {
        self.rank.iter().filter(|&&r| r == COMPAT).count()
    }

    /// True when every two states of `set` are compatible (`⋈(P)`).
    pub fn all_compatible(&self, set: &[u32]) -> bool {
        set.iter()
            .enumerate()
            .all(|(i, &p)| set[i + 1..].iter().all(|&q| self.compatible(p, q)))
    }

    /// The relation as a sorted list of unordered pairs `p < q` (for comparisons in tests).
    pub fn pairs(&self) -> Vec<(u32, u32)> {
        let mut v = Vec::new();
        for q in 1..self.n as u32 {
            for p in 0..q {
                if self.compatible(p, q) {
                    v.push((p, q));
                }
            }
        }
        v
    }
}
