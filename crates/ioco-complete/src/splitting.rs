//! Splitting graphs (thesis Def. 3.22, Alg. 3 "build splitting graph", Alg. 4 "split node",
//! induced splits Def. 3.23, least common ancestors Def. 3.24, splittable leaves Def. 3.25,
//! Lemma 3.26).
//!
//! Nodes are sets of states keyed by bitsets (children are shared, so the graph is a DAG; the
//! children of a node cover it but may overlap). Each internal node has a witness term
//! ([`crate::ccs`]): every observation of the witness is explained by one child.
//!
//! Alg. 3 repeatedly splits a leaf holding an incompatible pair; the leaf with the
//! minimal-rank incompatible pair is always splittable (Lemma 3.26), so leaves are processed
//! in order of that rank. Children contained in another child are dropped (they explain no
//! observation the larger child does not, and the union is unchanged), which keeps the graph
//! small in practice. Splits on output are preferred (as in the thesis' implementation):
//! an output some states lack separates the states enabling it; an output all states have is
//! split by the *induced split* of an LCA of `l after x`. A split on input `a` uses the
//! induced split of an LCA of `l after a` and **adds the states not enabling `a` to every
//! child** (Alg. 4 line 17; without it the construction may never terminate, thesis Ex. 3.28
//! — see [`SplitOptions::add_non_enabling`]). Worst case `2^n` nodes (Lemma 3.31).

use crate::ccs::{TermId, Terms};
use crate::compat::Compat;
use crate::sa::Sa;
use crate::CompleteError;
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Memory the node sets of a splitting graph may take (bytes, estimated): the node limit is
/// lowered so that a graph that keeps growing fails with a clear error well below 1 GiB.
pub const NODE_MEMORY: usize = 640 << 20;

/// Options of the construction.
#[derive(Clone, Debug)]
pub struct SplitOptions {
    /// Give up past this many nodes (or past [`NODE_MEMORY`] of node sets, if fewer).
    pub max_nodes: usize,
    /// Prefer splits on output (the thesis' choice).
    pub output_first: bool,
    /// Alg. 4 line 17: add the states not enabling the input to every child. Turning it off
    /// reproduces the faulty variant of thesis Ex. 3.28 (the construction gets stuck).
    pub add_non_enabling: bool,
}

impl Default for SplitOptions {
    fn default() -> Self {
        SplitOptions {
            max_nodes: 2_000_000,
            output_first: true,
            add_non_enabling: true,
        }
    }
}

/// One node of a splitting graph.
#[derive(Clone, Debug)]
pub struct Node {
    /// The states, sorted.
    pub set: Vec<u32>,
    bits: Vec<u64>,
    /// Children (empty for a leaf).
    pub children: Vec<usize>,
    /// The witness of an internal node.
    pub witness: Option<TermId>,
}

/// A splitting graph; node 0 is the root `Q`.
#[derive(Clone, Debug)]
pub struct SplittingGraph {
    /// The nodes.
    pub nodes: Vec<Node>,
    index: FxHashMap<Vec<u64>, usize>,
    words: usize,
    /// True when every leaf is pairwise compatible (Def. 3.22 "complete").
    pub complete: bool,
}

fn bits_of(set: &[u32], words: usize) -> Vec<u64> {
    let mut b = vec![0u64; words];
    for &q in set {
        b[q as usize / 64] |= 1 << (q % 64);
    }
    b
}

fn has(bits: &[u64], q: u32) -> bool {
    bits[q as usize / 64] >> (q % 64) & 1 == 1
}

fn subset(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & !y == 0)
}

fn after(sa: &Sa, set: &[u32], mu: u16) -> Vec<u32> {
    let mut v: Vec<u32> = set.iter().filter_map(|&q| sa.step(q, mu)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The smallest rank of an incompatible pair in `set` (`None`: pairwise compatible).
pub(crate) fn min_rank(compat: &Compat, set: &[u32]) -> Option<u32> {
    let mut best: Option<u32> = None;
    for (i, &p) in set.iter().enumerate() {
        for &q in &set[i + 1..] {
            if let Some(r) = compat.rank(p, q) {
                best = Some(best.map_or(r, |b: u32| b.min(r)));
                if r == 0 {
                    return best;
                }
            }
        }
    }
    best
}

impl SplittingGraph {
    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the graph has no nodes (never: the root always exists).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node with exactly this set of states, if present.
    pub fn find(&self, set: &[u32]) -> Option<usize> {
        self.index.get(&bits_of(set, self.words)).copied()
    }

    /// Least common ancestors of `p` (Def. 3.24): internal nodes containing `p` none of whose
    /// children contains `p`. One traversal from the root.
    pub fn lca(&self, p: &[u32]) -> Vec<usize> {
        let pb = bits_of(p, self.words);
        let (Some(&first), Some(&last)) = (p.first(), p.last()) else {
            return Vec::new();
        };
        let mut result = Vec::new();
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![0usize];
        if !subset(&pb, &self.nodes[0].bits) {
            return result;
        }
        seen[0] = true;
        while let Some(v) = stack.pop() {
            let node = &self.nodes[v];
            if node.children.is_empty() {
                continue;
            }
            let mut descended = false;
            for &c in &node.children {
                let cb = &self.nodes[c].bits;
                // Quick rejection on two states of p before the word-by-word subset test.
                if !has(cb, first) || !has(cb, last) {
                    continue;
                }
                if subset(&pb, cb) {
                    descended = true;
                    if !seen[c] {
                        seen[c] = true;
                        stack.push(c);
                    }
                }
            }
            if !descended {
                result.push(v);
            }
        }
        result.sort_unstable();
        result
    }

    /// One least common ancestor of `p` (any LCA serves Alg. 4): a depth-first descent
    /// through children containing `p` that stops at the first internal node none of whose
    /// children contains `p`. Usually a single root-to-node path, where [`SplittingGraph::lca`]
    /// visits every node containing `p`.
    pub fn lca_one(&self, p: &[u32]) -> Option<usize> {
        let (&first, &last) = (p.first()?, p.last()?);
        let pb = bits_of(p, self.words);
        if !subset(&pb, &self.nodes[0].bits) {
            return None;
        }
        let mut seen: rustc_hash::FxHashSet<usize> = rustc_hash::FxHashSet::default();
        let mut stack = vec![0usize];
        seen.insert(0);
        while let Some(v) = stack.pop() {
            let node = &self.nodes[v];
            if node.children.is_empty() {
                continue;
            }
            let mut descended = false;
            for &c in node.children.iter().rev() {
                let cb = &self.nodes[c].bits;
                if has(cb, first) && has(cb, last) && subset(&pb, cb) {
                    descended = true;
                    if seen.insert(c) {
                        stack.push(c);
                    }
                }
            }
            if !descended {
                return Some(v);
            }
        }
        None
    }

    fn add_node(&mut self, set: Vec<u32>) -> (usize, bool) {
        let bits = bits_of(&set, self.words);
        if let Some(&id) = self.index.get(&bits) {
            return (id, false);
        }
        let id = self.nodes.len();
        self.index.insert(bits.clone(), id);
        self.nodes.push(Node {
            set,
            bits,
            children: Vec::new(),
            witness: None,
        });
        (id, true)
    }

    /// Induced split `Π(l, μ, v)` (Def. 3.23): `{(c before μ) ∩ l | c child of v} \ {∅}`.
    fn induced(&self, sa: &Sa, l: &[u32], mu: u16, v: usize) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        for &c in &self.nodes[v].children {
            let cb = &self.nodes[c].bits;
            let d: Vec<u32> = l
                .iter()
                .copied()
                .filter(|&q| {
                    sa.step(q, mu)
                        .is_some_and(|t| cb[t as usize / 64] >> (t % 64) & 1 == 1)
                })
                .collect();
            if !d.is_empty() {
                out.push(d);
            }
        }
        out
    }

    fn try_output_split(
        &self,
        sa: &Sa,
        terms: &mut Terms,
        l: &[u32],
    ) -> Option<(Vec<Vec<u32>>, TermId)> {
        let mut outs: Vec<u16> = l.iter().flat_map(|&q| sa.outs(q).map(|p| p.0)).collect();
        outs.sort_unstable();
        outs.dedup();
        let mut children = Vec::new();
        let mut parts = Vec::new();
        for x in outs {
            let enabled: Vec<u32> = l
                .iter()
                .copied()
                .filter(|&q| sa.step(q, x).is_some())
                .collect();
            if enabled.len() < l.len() {
                children.push(enabled);
                parts.push(terms.prefix(x, Terms::ZERO));
            } else {
                let p = after(sa, l, x);
                let v = self.lca_one(&p)?;
                children.extend(self.induced(sa, l, x, v));
                let w = self.nodes[v].witness.expect("internal");
                parts.push(terms.prefix(x, w));
            }
        }
        Some((children, terms.sum(&parts)))
    }

    fn try_input_split(
        &self,
        sa: &Sa,
        terms: &mut Terms,
        l: &[u32],
        add_non_enabling: bool,
    ) -> Option<(Vec<Vec<u32>>, TermId)> {
        // Inputs enabled by the most states first (fewer non-enabling states are copied into
        // every child), then in label order.
        let mut ins: Vec<u16> = l.iter().flat_map(|&q| sa.ins(q).map(|p| p.0)).collect();
        ins.sort_unstable();
        let mut counted: Vec<(usize, u16)> = Vec::new();
        for a in ins {
            match counted.last_mut() {
                Some((c, b)) if *b == a => *c += 1,
                _ => counted.push((1, a)),
            }
        }
        counted.sort_by_key(|&(c, a)| (std::cmp::Reverse(c), a));
        for (_, a) in counted {
            let p = after(sa, l, a);
            let Some(v) = self.lca_one(&p) else {
                continue;
            };
            let rest: Vec<u32> = l
                .iter()
                .copied()
                .filter(|&q| sa.step(q, a).is_none())
                .collect();
            let children = self
                .induced(sa, l, a, v)
                .into_iter()
                .map(|mut d| {
                    if add_non_enabling {
                        d.extend_from_slice(&rest);
                        d.sort_unstable();
                    }
                    d
                })
                .collect();
            let w = self.nodes[v].witness.expect("internal");
            return Some((children, terms.prefix(a, w)));
        }
        None
    }

    /// Build a complete splitting graph (Alg. 3). Fails past `max_nodes`, or when no leaf can
    /// be split any more (only possible with the faulty variant of Alg. 4).
    pub fn build(
        sa: &Sa,
        compat: &Compat,
        terms: &mut Terms,
        opts: &SplitOptions,
    ) -> Result<SplittingGraph, CompleteError> {
        let words = sa.n().div_ceil(64).max(1);
        let mut g = SplittingGraph {
            nodes: Vec::new(),
            index: FxHashMap::default(),
            words,
            complete: false,
        };
        // Each node holds its bitset twice (node and index key), its state list and some
        // bookkeeping: stop before the node sets pass NODE_MEMORY, whatever `max_nodes` says.
        let fixed = 16 * words + 96;
        let mut bytes = fixed + 4 * sa.n();
        let root: Vec<u32> = (0..sa.n() as u32).collect();
        g.add_node(root.clone());
        // Leaves holding an incompatible pair, by minimal rank.
        let mut heap: BinaryHeap<Reverse<(u32, usize)>> = BinaryHeap::new();
        if let Some(r) = min_rank(compat, &root) {
            heap.push(Reverse((r, 0)));
        }
        let mut stuck: Vec<(u32, usize)> = Vec::new();
        while let Some(Reverse((r, l))) = heap.pop() {
            let set = g.nodes[l].set.clone();
            let split = if opts.output_first {
                g.try_output_split(sa, terms, &set)
                    .or_else(|| g.try_input_split(sa, terms, &set, opts.add_non_enabling))
            } else {
                g.try_input_split(sa, terms, &set, opts.add_non_enabling)
                    .or_else(|| g.try_output_split(sa, terms, &set))
            };
            let children: Vec<Vec<u32>> = match split {
                Some((ch, w)) if !ch.is_empty() => {
                    g.nodes[l].witness = Some(w);
                    ch
                }
                _ => {
                    stuck.push((r, l));
                    continue;
                }
            };
            // Keep only maximal children: a child contained in another explains no observation
            // the larger one does not (Def. 3.22 only needs some child per observation), and the
            // union is unchanged.
            let mut children = children;
            children.sort_by_key(|c| std::cmp::Reverse(c.len()));
            children.dedup();
            let mut kept: Vec<(Vec<u32>, Vec<u64>)> = Vec::new();
            for c in children {
                let b = bits_of(&c, words);
                if !kept.iter().any(|(_, kb)| subset(&b, kb)) {
                    kept.push((c, b));
                }
            }
            let children: Vec<Vec<u32>> = kept.into_iter().map(|(c, _)| c).collect();
            let mut ids = Vec::new();
            for c in children {
                debug_assert!(!c.is_empty() && c.len() < set.len());
                let len = c.len();
                let (id, fresh) = g.add_node(c);
                if fresh {
                    bytes += fixed + 4 * len;
                }
                if !ids.contains(&id) {
                    ids.push(id);
                }
                if fresh {
                    if let Some(r) = min_rank(compat, &g.nodes[id].set) {
                        heap.push(Reverse((r, id)));
                    }
                }
            }
            ids.sort_unstable();
            g.nodes[l].children = ids;
            if g.nodes.len() > opts.max_nodes || bytes > NODE_MEMORY {
                return Err(CompleteError::SplittingGraphTooLarge {
                    limit: g.nodes.len().min(opts.max_nodes),
                });
            }
            // The graph changed: stuck leaves may be splittable now.
            for s in stuck.drain(..) {
                heap.push(Reverse(s));
            }
        }
        g.complete = stuck.is_empty();
        Ok(g)
    }
}
