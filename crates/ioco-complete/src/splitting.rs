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
//! induced split of an LCA of `l after a`; the states of `l` not enabling `a` go
//! ([`NonEnabling`]):
//!
//! * [`NonEnabling::EveryChild`]: into every child (thesis Alg. 4 line 17). Worst case `2^n`
//!   nodes (Lemma 3.31), and in practice too: when stable states enable few inputs, each input
//!   split copies the non-enabling states into every child (829 k nodes for a random 1 000-state
//!   automaton with 55 % of the inputs enabled, see `benches/RESULTS.md`).
//! * [`NonEnabling::OwnChild`] (the default): into one child of their own. The result is still
//!   a splitting graph (Def. 3.22), by the proof of Lemma 3.29 unchanged: (a) the induced
//!   children are non-empty proper subsets of `enabled(l, a)` or of `l` (the LCA argument), and
//!   `l \ enabled(l, a)` is a proper subset of `l` since `a ∈ in(l)`; (b) they cover `l` (each
//!   enabling state's successor lies in a child of `v`, `v` being the union of its children);
//!   (c) the witness `a.W(v)` is the same; (d) every observation of `a.W(v)` starts with `a`,
//!   so the states producing it all enable `a` and lie in one induced child, as before (the
//!   added states never enable such an observation); (e) there is a child. Lemma 3.26 (a
//!   splittable leaf exists) and Cor. 3.30 (termination) only need Def. 3.22, and Alg. 5
//!   treats the non-enabling states alike either way (the ADG's `a` drops them from `P`).
//!   What changes: states separated only by an input one of them does not enable may end in
//!   different children, where line 17 keeps them together until an output or a commonly
//!   enabled input separates them; the extracted ADG drops such states at that input in both
//!   variants. Measured on the benchmarks: the same Table 3.2 metrics, and the same share of
//!   pairs not separated by an output, within a few hundredths of a percent, with 40–400×
//!   fewer nodes (using line 17 for the first 2 000 nodes only and one child afterwards was
//!   tried and dropped: the copies made early still grow the graph to ~290 k nodes at
//!   5 000 states).
//! * [`NonEnabling::Dropped`]: nowhere — the faulty variant of thesis Ex. 3.28 (the children
//!   need not cover the node, and the construction gets stuck).
//!
//! The construction is *anytime*: past a budget of nodes or of node memory
//! ([`SplitOptions::max_nodes`], [`SplitOptions::max_bytes`]) it stops splitting and returns
//! an incomplete graph ([`SplittingGraph::complete`] false, [`SplittingGraph::budget_reached`]
//! true). Every internal node is still split exactly as Def. 3.22 requires, so witnesses
//! and ADG extraction stay correct; the leaves left with incompatible pairs end ADG
//! observations whose states are not distinguished (counted in the metrics, and covered by
//! pairwise distinguishing graphs in the `adg` suite).

use crate::ccs::{TermId, Terms};
use crate::compat::Compat;
use crate::sa::Sa;
use crate::CompleteError;
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Default budget of node memory (bytes, estimated: about 16 bytes per state of the
/// automaton per node, plus the state lists). With the thesis' rule on the 55 % benchmark
/// models it is reached after 0.4–1.0 s (36 k nodes at 5 000 states, 161 k at 1 000), far
/// within the 5 s / 1 GiB target; the default construction stays far below it everywhere.
pub const NODE_MEMORY: usize = 64 << 20;

/// Default node budget (not binding before [`NODE_MEMORY`] on automata of more than ~100 states).
pub const MAX_NODES: usize = 2_000_000;

/// Where an input split puts the states of the leaf that do not enable the input.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum NonEnabling {
    /// Into every child (thesis Alg. 4 line 17).
    EveryChild,
    /// Into one child of their own (see the module documentation).
    OwnChild,
    /// Nowhere: the faulty variant of thesis Ex. 3.28 (the construction gets stuck).
    Dropped,
}

/// Options of the construction.
#[derive(Clone, Debug)]
pub struct SplitOptions {
    /// Stop splitting past this many nodes.
    pub max_nodes: usize,
    /// Stop splitting past this much node memory (bytes, estimated).
    pub max_bytes: usize,
    /// At the budget: fail with [`CompleteError::SplittingGraphTooLarge`] instead of returning
    /// the incomplete graph.
    pub fail_at_budget: bool,
    /// Prefer splits on output (the thesis' choice).
    pub output_first: bool,
    /// Where input splits put the states not enabling the input.
    pub non_enabling: NonEnabling,
}

impl Default for SplitOptions {
    fn default() -> Self {
        SplitOptions {
            max_nodes: MAX_NODES,
            max_bytes: NODE_MEMORY,
            fail_at_budget: false,
            output_first: true,
            non_enabling: NonEnabling::OwnChild,
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
    /// True when the construction stopped at its budget (then `complete` is false).
    pub budget_reached: bool,
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

/// The smallest rank of an incompatible pair in `set` (`None`: pairwise compatible), given
/// that it is at least `floor` (the rank of a superset): the search stops at `floor`.
pub(crate) fn min_rank(compat: &Compat, set: &[u32], floor: u32) -> Option<u32> {
    let mut best: Option<u32> = None;
    for (i, &p) in set.iter().enumerate() {
        for &q in &set[i + 1..] {
            if let Some(r) = compat.rank(p, q) {
                best = Some(best.map_or(r, |b: u32| b.min(r)));
                if r <= floor {
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

    /// Check Def. 3.22 (and completeness when claimed): `Q` is the root; every child is a
    /// non-empty proper subset of its parent; every internal node is the union of its children
    /// and has a witness such that, for every observation `σ` of the witness, some child holds
    /// `enabled(v, σ)`. Enumerates witness observations (up to `max_observations` per node):
    /// meant for tests and small automata. The first violation found is the error.
    pub fn validate(
        &self,
        sa: &Sa,
        terms: &Terms,
        compat: &Compat,
        max_observations: usize,
    ) -> Result<(), String> {
        let all: Vec<u32> = (0..sa.n() as u32).collect();
        if self.nodes.first().map(|n| &n.set) != Some(&all) {
            return Err("node 0 is not the set of all states".into());
        }
        for (v, node) in self.nodes.iter().enumerate() {
            if node.children.is_empty() {
                if node.witness.is_some() {
                    return Err(format!("leaf {v} has a witness"));
                }
                if self.complete && !compat.all_compatible(&node.set) {
                    return Err(format!(
                        "complete graph, but leaf {v} has incompatible states"
                    ));
                }
                continue;
            }
            let mut union: Vec<u32> = Vec::new();
            for &c in &node.children {
                let cs = &self.nodes[c].set;
                if cs.is_empty()
                    || cs.len() >= node.set.len()
                    || !subset(&self.nodes[c].bits, &node.bits)
                {
                    return Err(format!("child {c} of {v} is not a non-empty proper subset"));
                }
                union.extend_from_slice(cs);
            }
            union.sort_unstable();
            union.dedup();
            if union != node.set {
                return Err(format!("node {v} is not the union of its children"));
            }
            let Some(w) = node.witness else {
                return Err(format!("internal node {v} has no witness"));
            };
            // Observations of the witness with the states of v enabling them (origins).
            let mut seen = 0usize;
            let mut stack: Vec<(TermId, Vec<(u32, u32)>)> =
                vec![(w, node.set.iter().map(|&q| (q, q)).collect())];
            while let Some((f, alive)) = stack.pop() {
                let ps = terms.prefixes(f);
                if ps.is_empty() {
                    seen += 1;
                    if seen > max_observations {
                        break;
                    }
                    let ok = node
                        .children
                        .iter()
                        .any(|&c| alive.iter().all(|&(o, _)| has(&self.nodes[c].bits, o)));
                    if !ok {
                        let mut o: Vec<u32> = alive.iter().map(|p| p.0).collect();
                        o.sort_unstable();
                        return Err(format!(
                            "node {v}: the states {o:?} enabling an observation of its witness \
                             lie in no single child"
                        ));
                    }
                    continue;
                }
                for &(mu, g) in ps {
                    let next: Vec<(u32, u32)> = alive
                        .iter()
                        .filter_map(|&(o, c)| sa.step(c, mu).map(|t| (o, t)))
                        .collect();
                    stack.push((g, next));
                }
            }
        }
        Ok(())
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
        non_enabling: NonEnabling,
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
            let mut children: Vec<Vec<u32>> = self.induced(sa, l, a, v);
            match non_enabling {
                NonEnabling::EveryChild => {
                    for d in &mut children {
                        d.extend_from_slice(&rest);
                        d.sort_unstable();
                    }
                }
                NonEnabling::OwnChild if !rest.is_empty() => children.push(rest),
                _ => {}
            }
            let w = self.nodes[v].witness.expect("internal");
            return Some((children, terms.prefix(a, w)));
        }
        None
    }

    /// Build a splitting graph (Alg. 3): complete, unless the budget of `opts` stops the
    /// construction first (an error instead if [`SplitOptions::fail_at_budget`]) or no leaf
    /// can be split any more (only with [`NonEnabling::Dropped`]).
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
            budget_reached: false,
        };
        // Each node holds its bitset twice (node and index key), its state list and some
        // bookkeeping.
        let fixed = 16 * words + 96;
        let mut bytes = fixed + 4 * sa.n();
        let root: Vec<u32> = (0..sa.n() as u32).collect();
        g.add_node(root.clone());
        // Leaves holding an incompatible pair, by minimal rank.
        let mut heap: BinaryHeap<Reverse<(u32, usize)>> = BinaryHeap::new();
        if let Some(r) = min_rank(compat, &root, 0) {
            heap.push(Reverse((r, 0)));
        }
        let mut stuck: Vec<(u32, usize)> = Vec::new();
        while let Some(&Reverse((r, l))) = heap.peek() {
            if g.nodes.len() >= opts.max_nodes || bytes >= opts.max_bytes {
                if opts.fail_at_budget {
                    return Err(CompleteError::SplittingGraphTooLarge {
                        limit: g.nodes.len(),
                    });
                }
                g.budget_reached = true;
                break;
            }
            heap.pop();
            let set = g.nodes[l].set.clone();
            let split = if opts.output_first {
                g.try_output_split(sa, terms, &set)
                    .or_else(|| g.try_input_split(sa, terms, &set, opts.non_enabling))
            } else {
                g.try_input_split(sa, terms, &set, opts.non_enabling)
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
                    if let Some(r) = min_rank(compat, &g.nodes[id].set, r) {
                        heap.push(Reverse((r, id)));
                    }
                }
            }
            ids.sort_unstable();
            g.nodes[l].children = ids;
            // The graph changed: stuck leaves may be splittable now.
            for s in stuck.drain(..) {
                heap.push(Reverse(s));
            }
        }
        g.complete = !g.budget_reached && heap.is_empty() && stuck.is_empty();
        Ok(g)
    }
}
