//! Compatibility of chosen pairs, decided on the fly: the attractor of [`crate::compat`]
//! (thesis Alg. 2 on `S‖S`, compatibility thesis Def. 2.15 / Def. 3.8) restricted to the part
//! of `S‖S` that the queried pairs need, for the size estimate of `T(S, n)`
//! ([`crate::suite`]), which only needs the partners of the states its access sequences reach
//! (issue #35: relating all `n(n−1)/2` pairs first took 11 s and 640 MB at 10^4 states).
//!
//! A pair is *invalid* (`p ⋈̸ q`) when it has no common output, when a common input leads to
//! an invalid pair, or when every common output does. Pairs are discovered forwards from the
//! queried ones; a pair found invalid tells its recorded predecessors at once (backwards, with
//! the same per-pair counter of common outputs not yet known invalid as the global
//! computation). Work is saved in two ways, without changing the answer:
//! * a pair is not expanded further once it is invalid (invalidity is final), and its common
//!   inputs are looked at before its outputs, so one invalid input successor ends it;
//! * a discovered pair is only expanded while some pair that needs it is undecided (a queried
//!   pair, or a pair with a predecessor not yet invalid); a pair parked for want of one is
//!   expanded when a new undecided predecessor reaches it.
//!
//! **Why "not invalid" means compatible.** When the work list is empty, let `G` be the
//! expanded pairs that are not invalid. A pair of `G` has a common output (else it was invalid
//! when found), each of its common-input successors is a diagonal pair or not invalid, and so
//! is one of its common-output successors (its counter is not zero). Such a successor was
//! reached from a pair that was never invalid, so it was expanded: it is in `G`. So `G`, with
//! the diagonal, is closed under the conditions of compatibility, and the greatest such
//! relation contains it: every pair of `G` is compatible. A queried pair is always expanded
//! unless invalid, so it is either invalid (a sound verdict: the rules only derive invalidity
//! from pairs without a common output) or in `G`.
//!
//! Ranks and strategies (thesis Lemma 3.7) are not computed here, only whether a pair had no
//! common output at all (rank 0, whose strategy is "wait for an output").

use crate::sa::Sa;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

const INVALID: u8 = 1;
const EXPANDED: u8 = 2;
const QUEUED: u8 = 4;
const QUERIED: u8 = 8;
const RANK0: u8 = 16;
const NONE: u32 = u32::MAX;
/// Marks an output edge in [`Edge::pred`].
const OUT_EDGE: u32 = 1 << 31;

/// One recorded transition of `S‖S`, kept at its target for the backward step.
#[derive(Clone, Copy)]
struct Edge {
    /// The source pair, with [`OUT_EDGE`] set for a common output.
    pred: u32,
    /// The next edge into the same target, or [`NONE`].
    next: u32,
}

/// The part of `S‖S` explored so far, with the pairs known invalid.
#[derive(Default)]
pub struct LocalCompat {
    index: FxHashMap<u64, u32>,
    pairs: Vec<(u32, u32)>,
    flags: Vec<u8>,
    count: Vec<u16>,
    head: Vec<u32>,
    edges: Vec<Edge>,
    queue: VecDeque<u32>,
    invalidated: Vec<u32>,
}

/// The exploration passed its bound on pairs: the caller computes the whole relation instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooManyPairs;

fn key(p: u32, q: u32) -> u64 {
    let (a, b) = if p < q { (p, q) } else { (q, p) };
    (a as u64) << 32 | b as u64
}

impl LocalCompat {
    /// Pairs discovered so far.
    pub fn pairs(&self) -> usize {
        self.pairs.len()
    }

    /// Decide every pair of `queries` (distinct states), exploring at most `max_pairs` pairs
    /// of `S‖S` in all (what earlier calls explored counts and is reused).
    pub fn decide(
        &mut self,
        sa: &Sa,
        queries: &[(u32, u32)],
        max_pairs: usize,
    ) -> Result<(), TooManyPairs> {
        for &(p, q) in queries {
            debug_assert_ne!(p, q);
            let id = self.pair(sa, p, q);
            self.flags[id as usize] |= QUERIED;
            self.wake(id);
        }
        while let Some(id) = self.queue.pop_front() {
            self.flags[id as usize] &= !QUEUED;
            let f = self.flags[id as usize];
            if f & (INVALID | EXPANDED) != 0 || (f & QUERIED == 0 && !self.needed(id)) {
                continue;
            }
            self.expand(sa, id);
            if self.pairs.len() > max_pairs {
                return Err(TooManyPairs);
            }
        }
        Ok(())
    }

    /// After [`LocalCompat::decide`] on a set containing `{p, q}`: `p ⋈ q`.
    pub fn compatible(&self, p: u32, q: u32) -> bool {
        p == q || self.flags[self.id(p, q) as usize] & INVALID == 0
    }

    /// After [`LocalCompat::decide`] on a set containing `{p, q}`: `p` and `q` have no common
    /// output (incompatible with rank 0, strategy "wait").
    pub fn no_common_output(&self, p: u32, q: u32) -> bool {
        p != q && self.flags[self.id(p, q) as usize] & RANK0 != 0
    }

    fn id(&self, p: u32, q: u32) -> u32 {
        *self
            .index
            .get(&key(p, q))
            .expect("a pair asked about was decided first")
    }

    /// The id of `{p, q}`, discovered now if new (invalid at once without a common output).
    fn pair(&mut self, sa: &Sa, p: u32, q: u32) -> u32 {
        let next = self.pairs.len() as u32;
        let id = *self.index.entry(key(p, q)).or_insert(next);
        if id == next {
            let common = sa.outs(p).filter(|&(l, _)| sa.step(q, l).is_some()).count();
            self.pairs.push((p, q));
            self.count.push(common.min(u16::MAX as usize) as u16);
            self.head.push(NONE);
            if common == 0 {
                self.flags.push(INVALID | RANK0);
            } else {
                self.flags.push(0);
            }
        }
        id
    }

    /// Queue `id` for expansion unless it is decided, expanded or queued.
    fn wake(&mut self, id: u32) {
        let f = &mut self.flags[id as usize];
        if *f & (INVALID | EXPANDED | QUEUED) == 0 {
            *f |= QUEUED;
            self.queue.push_back(id);
        }
    }

    /// Some recorded predecessor of `id` is not invalid.
    fn needed(&self, id: u32) -> bool {
        let mut e = self.head[id as usize];
        while e != NONE {
            let edge = self.edges[e as usize];
            if self.flags[(edge.pred & !OUT_EDGE) as usize] & INVALID == 0 {
                return true;
            }
            e = edge.next;
        }
        false
    }

    /// Record the successors of `id` under its common labels (inputs first), stopping as soon
    /// as `id` is invalid.
    fn expand(&mut self, sa: &Sa, id: u32) {
        let (p, q) = self.pairs[id as usize];
        for outputs in [false, true] {
            let (ep, eq) = (sa.enabled(p), sa.enabled(q));
            let (mut i, mut j) = (0, 0);
            while i < ep.len() && j < eq.len() {
                let ((la, ta), (lb, tb)) = (ep[i], eq[j]);
                if la < lb {
                    i += 1;
                    continue;
                }
                if lb < la {
                    j += 1;
                    continue;
                }
                i += 1;
                j += 1;
                if sa.is_out(la) != outputs || ta == tb {
                    // the other pass, or a diagonal pair (always compatible)
                    continue;
                }
                let s = self.pair(sa, ta, tb);
                if self.flags[s as usize] & INVALID != 0 {
                    self.step_back(id, outputs);
                } else {
                    let e = self.edges.len() as u32;
                    self.edges.push(Edge {
                        pred: id | if outputs { OUT_EDGE } else { 0 },
                        next: self.head[s as usize],
                    });
                    self.head[s as usize] = e;
                    self.wake(s);
                }
                if self.flags[id as usize] & INVALID != 0 {
                    return;
                }
            }
        }
        self.flags[id as usize] |= EXPANDED;
    }

    /// A successor of `id` (under an output when `output`) is invalid: update `id`, and
    /// propagate backwards what becomes invalid.
    fn step_back(&mut self, id: u32, output: bool) {
        if !self.hit(id, output) {
            return;
        }
        self.invalidated.push(id);
        while let Some(s) = self.invalidated.pop() {
            let mut e = self.head[s as usize];
            while e != NONE {
                let edge = self.edges[e as usize];
                let pred = edge.pred & !OUT_EDGE;
                if self.hit(pred, edge.pred & OUT_EDGE != 0) {
                    self.invalidated.push(pred);
                }
                e = edge.next;
            }
        }
    }

    /// One successor of `id` is invalid; true when this makes `id` invalid now.
    fn hit(&mut self, id: u32, output: bool) -> bool {
        let i = id as usize;
        if self.flags[i] & INVALID != 0 {
            return false;
        }
        if output {
            self.count[i] -= 1;
            if self.count[i] > 0 {
                return false;
            }
        }
        self.flags[i] |= INVALID;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compat::Compat;
    use ioco_model::{Alphabet, Label, LtsBuilder};

    /// Every pair of random deterministic automata (few outputs, so many pairs need deep
    /// plays or are compatible) is decided as the global attractor decides it, row by row
    /// in a shuffled order, reusing what earlier rows explored.
    #[test]
    fn agrees_with_the_global_relation() {
        let mut seed = 7u64;
        let mut rnd = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        let (mut compatible, mut incompatible) = (0, 0);
        for case in 0..80 {
            let n = 2 + rnd(40) as usize;
            let mut alpha = Alphabet::new();
            let ins = [alpha.input("a").unwrap(), alpha.input("b").unwrap()];
            let outs = [alpha.output("x").unwrap(), alpha.output("y").unwrap()];
            let mut b = LtsBuilder::new(alpha);
            b.add_states(n);
            b.add_initial(0);
            for s in 0..n as u32 {
                for &a in &ins {
                    if rnd(10) < 7 {
                        b.add_transition(s, a, rnd(n as u64) as u32);
                    }
                }
                let mut any = false;
                for &x in &outs {
                    if rnd(10) < 3 {
                        b.add_transition(s, x, rnd(n as u64) as u32);
                        any = true;
                    }
                }
                if !any || rnd(4) == 0 {
                    b.add_transition(s, Label::DELTA, s);
                }
            }
            let sa = Sa::from_lts(&b.build().unwrap()).unwrap();
            let global = Compat::compute(&sa);
            let mut rows: Vec<u32> = (0..n as u32).collect();
            for i in (1..rows.len()).rev() {
                rows.swap(i, rnd(i as u64 + 1) as usize);
            }
            let mut local = LocalCompat::default();
            for p in rows {
                let row: Vec<(u32, u32)> =
                    (0..n as u32).filter(|&q| q != p).map(|q| (p, q)).collect();
                local.decide(&sa, &row, usize::MAX).unwrap();
                for q in 0..n as u32 {
                    let c = global.compatible(p, q);
                    assert_eq!(local.compatible(p, q), c, "case {case}: {p} ⋈ {q}");
                    assert_eq!(
                        local.no_common_output(p, q),
                        global.rank(p, q) == Some(0),
                        "case {case}: rank 0 of {p}, {q}"
                    );
                    if p != q {
                        if c {
                            compatible += 1;
                        } else {
                            incompatible += 1;
                        }
                    }
                }
            }
        }
        // both verdicts occur often enough to mean something
        assert!(
            compatible > 500 && incompatible > 500,
            "{compatible} / {incompatible}"
        );
    }

    /// The bound on explored pairs is an error, not a wrong answer.
    #[test]
    fn stops_at_its_bound() {
        let mut alpha = Alphabet::new();
        let a = alpha.input("a").unwrap();
        let mut b = LtsBuilder::new(alpha);
        let n = 50;
        b.add_states(n);
        b.add_initial(0);
        for s in 0..n as u32 {
            b.add_transition(s, a, (s + 1) % n as u32);
            b.add_transition(s, Label::DELTA, s);
        }
        let sa = Sa::from_lts(&b.build().unwrap()).unwrap();
        // a cycle of compatible pairs: deciding {0, 1} needs the whole orbit of 50 pairs
        let mut local = LocalCompat::default();
        assert_eq!(local.decide(&sa, &[(0, 1)], 10), Err(TooManyPairs));
        let mut local = LocalCompat::default();
        local.decide(&sa, &[(0, 1)], 100).unwrap();
        assert!(local.compatible(0, 1));
        assert_eq!(local.pairs(), 50);
    }
}
