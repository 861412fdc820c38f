//! Characterisation sets and state identifiers from the separating-sequence engines.
//!
//! - The characterisation set `W` (Chow 1978; Vasilevskii 1973): a set of input words such that
//!   every pair of distinct states gives different outputs on some word of `W`. From the
//!   splitting tree: the splitting words of the internal nodes (at most `n − 1`), then
//!   redundant words dropped (longest first) while all response vectors stay distinct; from the pair
//!   table (partial machines): greedily, adding the shortest separator of each pair that the
//!   words chosen so far do not separate.
//! - State identifiers `W_s ⊆ W` (Fujiwara et al. 1991's identification sets of the
//!   Wp-method): separate `s` from every other state.
//! - Harmonised state identifiers `H_s` (Petrenko, Yevtushenko et al. 1993): for every pair
//!   `s ≠ t`, `H_s` and `H_t` hold words with a common prefix separating `s` and `t`. From the
//!   splitting tree: the words of the ancestors of `s` (each pair's lowest common ancestor is
//!   shared); from the pair table: `{sep(s, t) | t ≠ s}`.
//!
//! All sets are reduced to their maximal words (a word that is a prefix of another adds no
//! observation).

use crate::prepare::Separators;
use ioco_model::Mealy;

/// Whether `w` separates `s` and `t`: defined from both up to a position where outputs differ.
pub fn separates(m: &Mealy, s: u32, t: u32, w: &[u32]) -> bool {
    let (mut p, mut q) = (s, t);
    for &a in w {
        match (m.step(p, a), m.step(q, a)) {
            (Some((p2, o1)), Some((q2, o2))) => {
                if o1 != o2 {
                    return true;
                }
                p = p2;
                q = q2;
            }
            _ => return false,
        }
    }
    false
}

/// Sort, deduplicate and drop words that are proper prefixes of others.
pub fn maximal(mut words: Vec<Vec<u32>>) -> Vec<Vec<u32>> {
    words.sort();
    words.dedup();
    let mut out: Vec<Vec<u32>> = Vec::with_capacity(words.len());
    for i in 0..words.len() {
        if i + 1 < words.len() && words[i + 1].starts_with(&words[i]) {
            continue;
        }
        out.push(std::mem::take(&mut words[i]));
    }
    out
}

impl Separators {
    /// A separating sequence of two distinct states, borrowed when the engine stores it.
    pub fn separator_cow(&self, s: u32, t: u32) -> std::borrow::Cow<'_, [u32]> {
        match self {
            Separators::Tree(tree) => {
                std::borrow::Cow::Borrowed(tree.separator(s, t).unwrap_or(&[]))
            }
            Separators::Pairs(p) => std::borrow::Cow::Owned(p.separator(s, t).unwrap_or_default()),
        }
    }

    /// A separating sequence of two distinct states of the prepared machine.
    pub fn separator(&self, s: u32, t: u32) -> Vec<u32> {
        match self {
            Separators::Tree(tree) => tree
                .separator(s, t)
                .map(<[u32]>::to_vec)
                .unwrap_or_default(),
            Separators::Pairs(p) => p.separator(s, t).unwrap_or_default(),
        }
    }

    /// A characterisation set W (every pair of states is separated by some word of W),
    /// reduced to its maximal words.
    pub fn characterisation_set(&self, m: &Mealy) -> Vec<Vec<u32>> {
        match self {
            Separators::Tree(tree) => reduce(
                m,
                maximal(
                    tree.nodes
                        .iter()
                        .filter(|v| !v.children.is_empty())
                        .map(|v| v.sigma.clone())
                        .collect(),
                ),
            ),
            Separators::Pairs(p) => {
                let n = m.num_states() as u32;
                let mut w: Vec<Vec<u32>> = Vec::new();
                for t in 0..n {
                    for s in 0..t {
                        if !w.iter().any(|x| separates(m, s, t, x)) {
                            w.push(p.separator(s, t).unwrap_or_default());
                        }
                    }
                }
                maximal(w)
            }
        }
    }

    /// A harmonised state identifier `H_s`: for all `s ≠ t`, `H_s` and `H_t` share a word that
    /// separates them (Petrenko & Yevtushenko's HSI family).
    pub fn harmonised(&self, m: &Mealy, s: u32) -> Vec<Vec<u32>> {
        match self {
            Separators::Tree(tree) => maximal(tree.ancestors_sigma(s)),
            Separators::Pairs(p) => maximal(
                (0..m.num_states() as u32)
                    .filter(|&t| t != s)
                    .filter_map(|t| p.separator(s, t))
                    .collect(),
            ),
        }
    }

    /// A state identifier `W_s ⊆ W` separating `s` from every other state (Fujiwara et al.'s
    /// Wp-method identification sets): the words of `W` in order, each kept when it separates
    /// `s` from a state no earlier word did.
    pub fn identifier(&self, m: &Mealy, s: u32, w: &[Vec<u32>]) -> Vec<Vec<u32>> {
        let n = m.num_states() as u32;
        let mut todo: Vec<u32> = (0..n).filter(|&t| t != s).collect();
        let mut out = Vec::new();
        for x in w {
            if todo.is_empty() {
                break;
            }
            let before = todo.len();
            todo.retain(|&t| !separates(m, s, t, x));
            if todo.len() < before {
                out.push(x.clone());
            }
        }
        maximal(out)
    }

    /// A state identifier for every state; on partial machines [`Separators::identifier`], on
    /// complete machines a greedy set cover over hashed responses (`O(n²·|W|)` comparisons per
    /// chosen word instead of runs).
    pub fn identifiers(&self, m: &Mealy, w: &[Vec<u32>]) -> Vec<Vec<Vec<u32>>> {
        let n = m.num_states();
        if matches!(self, Separators::Pairs(_)) {
            return (0..n as u32).map(|s| self.identifier(m, s, w)).collect();
        }
        let resp: Vec<Vec<u64>> = (0..n as u32)
            .map(|s| w.iter().map(|x| response_hash(m, s, x)).collect())
            .collect();
        (0..n)
            .map(|s| {
                let mut todo: Vec<usize> = (0..n).filter(|&t| t != s).collect();
                let mut out = Vec::new();
                // Greedy set cover: the word that separates `s` from the most states still to
                // do (first in W on ties). Taking W's words in order instead can keep words
                // that each separate only a few states.
                while !todo.is_empty() {
                    let (j, count) = (0..w.len())
                        .map(|j| {
                            let c = todo.iter().filter(|&&t| resp[t][j] != resp[s][j]).count();
                            (j, c)
                        })
                        .fold((0, 0), |b, x| if x.1 > b.1 { x } else { b });
                    if count == 0 {
                        break; // hash collisions only: the debug assertion below checks
                    }
                    todo.retain(|&t| resp[t][j] == resp[s][j]);
                    out.push(w[j].clone());
                }
                debug_assert!(todo
                    .iter()
                    .all(|&t| w.iter().all(|x| !separates(m, s as u32, t as u32, x))));
                maximal(out)
            })
            .collect()
    }
}

/// A hash of the outputs of `w` from `s` (complete machines). Collisions only make an
/// identifier larger (a word is kept that was not needed), never incomplete: a collision hides a
/// difference, so the state stays to do and a later word is added.
fn response_hash(m: &Mealy, s: u32, w: &[u32]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    m.run_from(s, w).map(|p| p.1).hash(&mut h);
    h.finish()
}

/// Drop words of a characterisation set of a complete machine while the rest still separates
/// every pair (longest words tried first): every state must keep a distinct response vector.
fn reduce(m: &Mealy, mut w: Vec<Vec<u32>>) -> Vec<Vec<u32>> {
    let n = m.num_states();
    let resp: Vec<Vec<Vec<u32>>> = w
        .iter()
        .map(|x| {
            (0..n as u32)
                .map(|s| m.run_from(s, x).map(|p| p.1).unwrap_or_default())
                .collect()
        })
        .collect();
    let mut keep = vec![true; w.len()];
    let mut order: Vec<usize> = (0..w.len()).collect();
    order.sort_by_key(|&j| std::cmp::Reverse(w[j].len()));
    for j in order {
        keep[j] = false;
        let mut sigs: Vec<Vec<&[u32]>> = (0..n)
            .map(|s| {
                (0..w.len())
                    .filter(|&i| keep[i])
                    .map(|i| resp[i][s].as_slice())
                    .collect()
            })
            .collect();
        sigs.sort_unstable();
        if sigs.windows(2).any(|p| p[0] == p[1]) {
            keep[j] = true;
        }
    }
    let mut i = 0;
    w.retain(|_| {
        i += 1;
        keep[i - 1]
    });
    w
}
