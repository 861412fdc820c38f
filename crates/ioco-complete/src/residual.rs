//! Residual adaptive experiments: a few adaptive experiments, shared by many states, for the
//! incompatible pairs an ADG leaves unseparated, instead of one pairwise distinguishing graph
//! per pair. **Not in the thesis**: a greedy construction on top of its harmonised state
//! identifiers (Def. 2.31: a state only needs experiments against the states it is not yet
//! distinguished from) and of the tester's strategies of Alg. 2 ([`crate::compat`], Lemma 3.7).
//!
//! Why: when quiescent states enable few inputs, one adaptive experiment must apply some input
//! to a set of states some of which do not enable it; those stop there (the input cannot be
//! tested from them) and are *not* separated from the others by an output — 12 % of the
//! incompatible pairs at 55 % of the inputs enabled (`benches/RESULTS.md`, ADG extracted by
//! Alg. 5 as printed). The default ADG, a test case for every state (thesis Def. 3.15),
//! stops before such an input instead, and leaves those pairs sharing an observation.
//! Covering each such pair with its own graph makes the suite grow with `states × pairs per
//! state`.
//!
//! Round `k` builds one experiment `E_k` (a CCS term, thesis Def. 3.3, run like the ADG:
//! [`crate::adg`]) over the pairs `L` still left. It tracks the *live* pairs: pairs of `L`
//! whose current states are still incompatible, both having produced the same trace. At each
//! point it takes one of the live pairs' strategies (an input both enable, or *wait*): the one
//! that loses the fewest live pairs (one state does not enable the input, or a common output
//! leads to compatible states), then the one advancing most pairs (their own strategy).
//! States with no live pair left are dropped. Past [`GUARD_DEPTH`] steps it takes the strategy
//! of a live pair of minimal rank, which terminates: that pair stays live with a smaller rank
//! or is separated, and a branch where it is separated holds fewer states. Pairs lost by `E_k`
//! are left for round `k + 1`. `E_k` is run only from the states of the pairs it separates by
//! an output ([`separates`]: every common trace of both runs ends in an output only one of
//! them produces), so the suite needs it once per access sequence of those states and no
//! pairwise graph for those pairs. Rounds stop when `L` is empty, a round separates no pair,
//! or after the maximal number of rounds; what is left gets pairwise graphs
//! ([`crate::distgraph`]).
//!
//! Each round is worth its tests: every state running `E_k` has a pair separated by it, whose
//! pairwise graph it would have run otherwise.

use crate::ccs::{TermId, Terms};
use crate::compat::{Compat, Strategy};
use crate::sa::Sa;
use rustc_hash::FxHashMap;

/// Steps of greedy choices before the minimal-rank rule (which terminates) takes over.
pub const GUARD_DEPTH: usize = 24;

/// Hard cap on the depth of an experiment (pairs still live there stay unseparated, and are
/// left for the next round); only reached on pathological automata.
const MAX_DEPTH: usize = 256;

/// The experiments of the rounds and the pairs they leave.
#[derive(Clone, Debug, Default)]
pub struct Residual {
    /// Each experiment with the states that run it (sorted): those of the pairs it separates.
    pub experiments: Vec<(TermId, Vec<u32>)>,
    /// Pairs `p < q` of the input separated by no experiment, sorted.
    pub left: Vec<Pair>,
}

/// True when the experiment `f` run from `p` and from `q` separates them by an output: along
/// every trace both runs produce, the experiment goes on, applies an input both enable, and
/// ends in an output only one of them produces.
pub fn separates(sa: &Sa, terms: &Terms, f: TermId, p: u32, q: u32) -> bool {
    if p == q {
        return false;
    }
    let ps = terms.prefixes(f);
    if ps.is_empty() {
        return false;
    }
    if let Some(&(a, g)) = ps.iter().find(|x| !sa.is_out(x.0)) {
        return match (sa.step(p, a), sa.step(q, a)) {
            (Some(p2), Some(q2)) => separates(sa, terms, g, p2, q2),
            _ => false,
        };
    }
    sa.outs(p).all(|(x, p2)| match sa.step(q, x) {
        None => true,
        Some(q2) => match ps.iter().find(|y| y.0 == x) {
            Some(&(_, g)) => separates(sa, terms, g, p2, q2),
            None => false,
        },
    })
}

struct Builder<'a> {
    sa: &'a Sa,
    compat: &'a Compat,
    /// Partners `o2 > o` of each origin `o` in the pairs left.
    up: Vec<Vec<u32>>,
    memo: FxHashMap<(Vec<Pair>, bool), TermId>,
}

/// A pair of states.
type Pair = (u32, u32);

/// An action: an input, or `None` for waiting.
type Action = Option<u16>;

impl Builder<'_> {
    /// The live pairs of `alive` (sorted by origin) as pairs of current states.
    fn live(&self, alive: &[Pair]) -> Vec<Pair> {
        let mut v = Vec::new();
        for &(o, c) in alive {
            for &o2 in &self.up[o as usize] {
                if let Ok(i) = alive.binary_search_by_key(&o2, |e| e.0) {
                    let c2 = alive[i].1;
                    if !self.compat.compatible(c, c2) {
                        v.push((c, c2));
                    }
                }
            }
        }
        v
    }

    fn strategy(&self, p: u32, q: u32) -> Action {
        match self
            .compat
            .strategy(p, q)
            .expect("live pairs are incompatible")
        {
            Strategy::Wait => None,
            Strategy::Input(a) => Some(a),
        }
    }

    /// Live pairs the action loses, counted up to `bound` (the count stops there).
    fn lost(&self, live: &[Pair], act: Action, bound: usize) -> usize {
        let sa = self.sa;
        let mut n = 0;
        for &(p, q) in live {
            let gone = match act {
                Some(a) => match (sa.step(p, a), sa.step(q, a)) {
                    (Some(p2), Some(q2)) => self.compat.compatible(p2, q2),
                    _ => true,
                },
                None => sa.outs(p).any(|(x, p2)| {
                    sa.step(q, x)
                        .is_some_and(|q2| self.compat.compatible(p2, q2))
                }),
            };
            n += gone as usize;
            if n >= bound {
                break;
            }
        }
        n
    }

    /// The action: fewest live pairs lost, then most pairs advanced, then the smallest.
    fn choose(&self, live: &[Pair], past_guard: bool) -> Action {
        if past_guard {
            let &(p, q) = live
                .iter()
                .min_by_key(|&&(p, q)| (self.compat.rank(p, q), p, q))
                .expect("live pairs");
            return self.strategy(p, q);
        }
        let mut cands: Vec<(Action, usize)> = Vec::new();
        for &(p, q) in live {
            let s = self.strategy(p, q);
            match cands.iter_mut().find(|c| c.0 == s) {
                Some(c) => c.1 += 1,
                None => cands.push((s, 1)),
            }
        }
        // In tie-break order, so that a later candidate wins only with strictly fewer losses
        // (which lets the count stop at the best so far).
        cands.sort_unstable_by_key(|&(s, progress)| (std::cmp::Reverse(progress), s));
        let mut best = (usize::MAX, None);
        for (s, _) in cands {
            let l = self.lost(live, s, best.0);
            if l < best.0 {
                best = (l, s);
            }
        }
        best.1
    }

    fn build(&mut self, terms: &mut Terms, alive: Vec<Pair>, depth: usize) -> TermId {
        if depth >= MAX_DEPTH {
            return Terms::ZERO;
        }
        let live = self.live(&alive);
        if live.is_empty() {
            return Terms::ZERO;
        }
        // Only states with a live pair go on.
        let mut keep: Vec<u32> = live.iter().flat_map(|&(p, q)| [p, q]).collect();
        keep.sort_unstable();
        keep.dedup();
        let alive: Vec<Pair> = alive
            .into_iter()
            .filter(|e| keep.binary_search(&e.1).is_ok())
            .collect();
        let past = depth >= GUARD_DEPTH;
        let key = (alive, past);
        if let Some(&t) = self.memo.get(&key) {
            return t;
        }
        let alive = &key.0;
        let sa = self.sa;
        let t = match self.choose(&live, past) {
            Some(a) => {
                let next: Vec<Pair> = alive
                    .iter()
                    .filter_map(|&(o, c)| sa.step(c, a).map(|t| (o, t)))
                    .collect();
                let g = self.build(terms, next, depth + 1);
                terms.prefix(a, g)
            }
            None => {
                let mut outs: Vec<u16> = alive
                    .iter()
                    .flat_map(|&(_, c)| sa.outs(c).map(|p| p.0))
                    .collect();
                outs.sort_unstable();
                outs.dedup();
                let mut parts = Vec::with_capacity(outs.len());
                for x in outs {
                    let next: Vec<Pair> = alive
                        .iter()
                        .filter_map(|&(o, c)| sa.step(c, x).map(|t| (o, t)))
                        .collect();
                    let g = self.build(terms, next, depth + 1);
                    parts.push(terms.prefix(x, g));
                }
                terms.sum(&parts)
            }
        };
        self.memo.insert(key, t);
        t
    }
}

/// Rounds of residual experiments (see the module documentation) for `pairs` (`p < q`,
/// incompatible), at most `max_rounds` of them; the terms go into `terms`.
pub fn residual_experiments(
    sa: &Sa,
    compat: &Compat,
    terms: &mut Terms,
    pairs: &[Pair],
    max_rounds: usize,
) -> Residual {
    let mut left: Vec<Pair> = pairs.to_vec();
    left.sort_unstable();
    left.dedup();
    let mut experiments = Vec::new();
    while !left.is_empty() && experiments.len() < max_rounds {
        let mut up = vec![Vec::new(); sa.n()];
        let mut origins = Vec::new();
        for &(p, q) in &left {
            debug_assert!(p < q && !compat.compatible(p, q));
            up[p as usize].push(q);
            origins.push(p);
            origins.push(q);
        }
        origins.sort_unstable();
        origins.dedup();
        let mut b = Builder {
            sa,
            compat,
            up,
            memo: FxHashMap::default(),
        };
        let root = b.build(terms, origins.iter().map(|&q| (q, q)).collect(), 0);
        let (done, rest): (Vec<Pair>, Vec<Pair>) = left
            .iter()
            .partition(|&&(p, q)| separates(sa, terms, root, p, q));
        if done.is_empty() {
            break;
        }
        let mut runners: Vec<u32> = done.iter().flat_map(|&(p, q)| [p, q]).collect();
        runners.sort_unstable();
        runners.dedup();
        experiments.push((root, runners));
        left = rest;
    }
    prune(sa, terms, &mut experiments, pairs);
    Residual { experiments, left }
}

/// Reverse delete: a state stops running an experiment when each of its pairs that the
/// experiment separates is also separated by another experiment both states run. (Rounds
/// assign every pair to the first experiment separating it; later experiments often separate
/// it too.) Experiments are visited in round order (measured: 3 % fewer residual tests at
/// 1 000 states, visiting late rounds first about the same; choosing actions by lost minus
/// advanced pairs instead of lost first was no better).
fn prune(sa: &Sa, terms: &Terms, experiments: &mut Vec<(TermId, Vec<u32>)>, pairs: &[Pair]) {
    let n = sa.n();
    let mut runs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, (_, runners)) in experiments.iter().enumerate() {
        for &q in runners {
            runs[q as usize].push(k);
        }
    }
    // Per pair both of whose states run some experiment: the common experiments separating it.
    let mut cover: Vec<Vec<usize>> = Vec::new();
    let mut of_state: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(p, q) in pairs {
        let common: Vec<usize> = runs[p as usize]
            .iter()
            .filter(|k| runs[q as usize].binary_search(k).is_ok())
            .copied()
            .filter(|&k| separates(sa, terms, experiments[k].0, p, q))
            .collect();
        if common.is_empty() {
            continue;
        }
        of_state[p as usize].push(cover.len());
        of_state[q as usize].push(cover.len());
        cover.push(common);
    }
    for (k, e) in experiments.iter_mut().enumerate() {
        let runners = std::mem::take(&mut e.1);
        let mut kept = Vec::with_capacity(runners.len());
        for q in runners {
            let needed = of_state[q as usize]
                .iter()
                .any(|&i| cover[i].len() == 1 && cover[i][0] == k);
            if needed {
                kept.push(q);
            } else {
                for &i in &of_state[q as usize] {
                    cover[i].retain(|&j| j != k);
                }
            }
        }
        e.1 = kept;
    }
    experiments.retain(|e| !e.1.is_empty());
}
