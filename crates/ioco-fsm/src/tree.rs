//! Splitting trees: partition refinement that records, for every split block, a word that
//! splits it (Lee & Yannakakis 1994, "Testing finite-state machines: state identification and
//! verification", Sec. 3; Smetsers, Moerman & Jansen 2016, "Minimal separating sequences for
//! all pairs of states", the splitting tree of Def. 6).
//!
//! A node is a block of states with, if it is split, a word σ whose output sequences
//! partition the block into the children. The lowest common ancestor `v` of two leaves gives a
//! separating sequence `σ(v)` for every pair of states across those leaves, so
//! `{σ(v) | v a proper ancestor of leaf(s)}` is a *harmonised* family of state identifiers
//! (each pair's separator occurs in both identifiers), and all σ together form a
//! characterisation set W.
//!
//! Two modes:
//! - [`Mode::Separating`]: any word that splits a block (a plain input whose outputs differ, or
//!   `a·σ(v)` where the images under `a` are split by an existing node `v`). On a complete
//!   machine the leaves are then exactly the classes of equivalent states.
//! - [`Mode::Adaptive`]: only *valid* inputs (Lee & Yannakakis' condition: no two states of the
//!   block with the same output go to the same state, and the input is defined on the whole
//!   block), so the tree yields an adaptive distinguishing sequence when every leaf is a single
//!   state (LY Thm. 3.2: if some block cannot be split validly, no complete ADS exists).
//!
//! Blocks are refined in passes that only apply the shortest available splitting word, which
//! keeps the σ short (not always minimal); among the shortest, the word whose children have the
//! lowest weighted size estimate (see `best_split`), so that the states suites reach most often
//! get short identifiers.

use ioco_model::Mealy;
use std::collections::BTreeMap;

/// Which splits are allowed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Any splitting word (W/HSI separators, minimisation).
    Separating,
    /// Only valid inputs (Lee–Yannakakis, for adaptive distinguishing sequences).
    Adaptive,
}

/// A node of the splitting tree.
#[derive(Clone, Debug)]
pub struct Node {
    /// The block (sorted).
    pub states: Vec<u32>,
    /// Parent node (`u32::MAX` for the root).
    pub parent: u32,
    /// Children (empty for a leaf).
    pub children: Vec<u32>,
    /// The splitting word (empty for a leaf).
    pub sigma: Vec<u32>,
    /// Depth (root 0).
    pub depth: u32,
}

/// A splitting tree over the states of a Mealy machine.
#[derive(Clone, Debug)]
pub struct SplittingTree {
    /// Nodes; 0 is the root (all states).
    pub nodes: Vec<Node>,
    /// The leaf that holds each state.
    pub leaf_of: Vec<u32>,
    /// `(parent, depth)` of every node, compact for [`SplittingTree::lca`] (which the
    /// H-method calls millions of times).
    up: Vec<(u32, u32)>,
}

impl SplittingTree {
    /// Refine the partition of all states of `m` as far as `mode` allows.
    pub fn build(m: &Mealy, mode: Mode) -> SplittingTree {
        let n = m.num_states();
        let mut t = SplittingTree {
            nodes: vec![Node {
                states: (0..n as u32).collect(),
                parent: u32::MAX,
                children: Vec::new(),
                sigma: Vec::new(),
                depth: 0,
            }],
            leaf_of: vec![0; n],
            up: vec![(u32::MAX, 0)],
        };
        // How often suites reach each state: 1 + its in-degree.
        let mut weight = vec![1.0f64; n];
        for s in 0..n as u32 {
            for a in 0..m.num_inputs() as u32 {
                if let Some((t, _)) = m.step(s, a) {
                    weight[t as usize] += 1.0;
                }
            }
        }
        let mut limit = 1usize;
        loop {
            let mut leaves: Vec<u32> = (0..t.nodes.len() as u32)
                .filter(|&v| t.nodes[v as usize].children.is_empty())
                .filter(|&v| t.nodes[v as usize].states.len() > 1)
                .collect();
            if leaves.is_empty() {
                break;
            }
            // Largest blocks first (Lee–Yannakakis' order).
            leaves.sort_by_key(|&v| std::cmp::Reverse(t.nodes[v as usize].states.len()));
            let mut progress = false;
            let mut shortest = usize::MAX;
            for v in leaves {
                if let Some(sigma) = t.best_split(m, v, mode, &weight) {
                    if sigma.len() <= limit {
                        t.apply(m, v, sigma);
                        progress = true;
                    } else {
                        shortest = shortest.min(sigma.len());
                    }
                }
            }
            if !progress {
                if shortest == usize::MAX {
                    break;
                }
                limit = shortest;
            }
        }
        t
    }

    /// The lowest node holding both leaves `a` and `b`.
    pub fn lca(&self, mut a: u32, mut b: u32) -> u32 {
        while a != b {
            let ((pa, da), (pb, db)) = (self.up[a as usize], self.up[b as usize]);
            if da >= db {
                a = pa;
            } else {
                b = pb;
            }
        }
        a
    }

    /// The separating word of two states (`None` if they share a leaf).
    pub fn separator(&self, s: u32, t: u32) -> Option<&[u32]> {
        let (a, b) = (self.leaf_of[s as usize], self.leaf_of[t as usize]);
        if a == b {
            return None;
        }
        Some(&self.nodes[self.lca(a, b) as usize].sigma)
    }

    /// The σ of the proper ancestors of the leaf of `s`, from the root down: a harmonised
    /// state identifier of `s`.
    pub fn ancestors_sigma(&self, s: u32) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        let mut v = self.nodes[self.leaf_of[s as usize] as usize].parent;
        while v != u32::MAX {
            out.push(self.nodes[v as usize].sigma.clone());
            v = self.nodes[v as usize].parent;
        }
        out.reverse();
        out
    }

    /// Leaves with more than one state.
    pub fn unsplit_blocks(&self) -> Vec<&[u32]> {
        self.nodes
            .iter()
            .filter(|n| n.children.is_empty() && n.states.len() > 1)
            .map(|n| n.states.as_slice())
            .collect()
    }

    /// The word that splits leaf `v` in the given mode, if any: the shortest, and among the
    /// shortest the one with the lowest score `Σ_c W(c)·log2|c|` over the children `c` it
    /// would create, where `W(c)` sums the weights (1 + in-degree) of the states of `c`
    /// (ties: lowest input). The score estimates how many more words the identifiers of the
    /// block's states will need (the depth still to go, weighted by how often suites reach
    /// each state): the first splitting input instead can leave a state that most transitions
    /// reach (a sink) deep in the tree, so that nearly every test carries many words.
    fn best_split(&self, m: &Mealy, v: u32, mode: Mode, weight: &[f64]) -> Option<Vec<u32>> {
        let block = &self.nodes[v as usize].states;
        // (score, input) of the best single input; (score, word) of the best a·σ.
        let mut best_input: Option<(f64, u32)> = None;
        let mut best_word: Option<(f64, Vec<u32>)> = None;
        let mut steps = Vec::with_capacity(block.len());
        let mut keys: Vec<(u32, u32)> = Vec::with_capacity(block.len());
        'inputs: for a in 0..m.num_inputs() as u32 {
            steps.clear();
            for &s in block {
                match m.step(s, a) {
                    Some(p) => steps.push(p),
                    None => continue 'inputs,
                }
            }
            if mode == Mode::Adaptive {
                // Valid: no two states with the same output reach the same state.
                let mut seen: Vec<(u32, u32)> = steps.iter().map(|&(t, o)| (o, t)).collect();
                seen.sort_unstable();
                if seen.windows(2).any(|w| w[0] == w[1]) {
                    continue;
                }
            }
            let same_output = steps.iter().all(|p| p.1 == steps[0].1);
            if !same_output {
                keys.clear();
                keys.extend(steps.iter().zip(block).map(|(p, &s)| (p.1, s)));
                let sc = score(&mut keys, weight);
                if best_input.is_none_or(|(b, _)| sc < b) {
                    best_input = Some((sc, a));
                }
                continue;
            }
            if best_input.is_some() {
                continue;
            }
            let mut u = self.leaf_of[steps[0].0 as usize];
            for &(t, _) in &steps[1..] {
                u = self.lca(u, self.leaf_of[t as usize]);
            }
            let node = &self.nodes[u as usize];
            if node.children.is_empty() {
                continue; // all images in one unsplit block
            }
            let len = node.sigma.len() + 1;
            let best_len = best_word.as_ref().map_or(usize::MAX, |(_, w)| w.len());
            if len > best_len {
                continue;
            }
            // The children of u that the images fall into: one group each.
            let below = node.depth + 1;
            keys.clear();
            keys.extend(steps.iter().zip(block).map(|(&(t, _), &s)| {
                let mut x = self.leaf_of[t as usize];
                while self.nodes[x as usize].depth > below {
                    x = self.nodes[x as usize].parent;
                }
                (x, s)
            }));
            let sc = score(&mut keys, weight);
            if len < best_len || best_word.as_ref().is_some_and(|(b, _)| sc < *b) {
                let mut w = Vec::with_capacity(len);
                w.push(a);
                w.extend_from_slice(&node.sigma);
                best_word = Some((sc, w));
            }
        }
        match best_input {
            Some((_, a)) => Some(vec![a]),
            None => best_word.map(|(_, w)| w),
        }
    }

    fn apply(&mut self, m: &Mealy, v: u32, sigma: Vec<u32>) {
        let mut groups: BTreeMap<Vec<u32>, Vec<u32>> = BTreeMap::new();
        for &s in &self.nodes[v as usize].states {
            let outs = m
                .run_from(s, &sigma)
                .expect("splitting words are defined on their block")
                .1;
            groups.entry(outs).or_default().push(s);
        }
        debug_assert!(groups.len() > 1);
        let depth = self.nodes[v as usize].depth + 1;
        for (_, states) in groups {
            let id = self.nodes.len() as u32;
            for &s in &states {
                self.leaf_of[s as usize] = id;
            }
            self.up.push((v, depth));
            self.nodes.push(Node {
                states,
                parent: v,
                children: Vec::new(),
                sigma: Vec::new(),
                depth,
            });
            self.nodes[v as usize].children.push(id);
        }
        self.nodes[v as usize].sigma = sigma;
    }
}

/// `Σ_c W(c)·log2|c|` over the groups `c` of `(group key, state)` pairs (sorts `keys`).
fn score(keys: &mut [(u32, u32)], weight: &[f64]) -> f64 {
    keys.sort_unstable();
    let mut total = 0.0;
    let mut i = 0;
    while i < keys.len() {
        let mut j = i;
        let mut w = 0.0;
        while j < keys.len() && keys[j].0 == keys[i].0 {
            w += weight[keys[j].1 as usize];
            j += 1;
        }
        total += w * ((j - i) as f64).log2();
        i = j;
    }
    total
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Lee & Yannakakis' machine of the hybrid-ADS example (6 states, inputs a b).
    pub(crate) fn ly_machine() -> Mealy {
        let mut m = Mealy::new(
            6,
            vec!["a".into(), "b".into()],
            vec!["0".into(), "1".into()],
            0,
        );
        for s in 0..6u32 {
            m.set(s, 0, (s + 1) % 6, s % 2);
            m.set(s, 1, if s == 0 { 0 } else { (s + 1) % 6 }, 0);
        }
        m
    }

    #[test]
    fn separating_tree_splits_everything_and_separators_separate() {
        let m = ly_machine();
        let t = SplittingTree::build(&m, Mode::Separating);
        assert!(t.unsplit_blocks().is_empty());
        for s in 0..6 {
            for u in 0..6 {
                if s != u {
                    let w = t.separator(s, u).unwrap();
                    assert_ne!(m.run_from(s, w).unwrap().1, m.run_from(u, w).unwrap().1);
                }
            }
        }
    }

    #[test]
    fn adaptive_tree_exists_for_ly_machine() {
        let m = ly_machine();
        let t = SplittingTree::build(&m, Mode::Adaptive);
        assert!(t.unsplit_blocks().is_empty(), "{:?}", t.nodes);
    }

    #[test]
    fn equivalent_states_stay_together() {
        let mut m = Mealy::new(3, vec!["a".into()], vec!["x".into(), "y".into()], 0);
        m.set(0, 0, 1, 0);
        m.set(1, 0, 2, 1);
        m.set(2, 0, 1, 1);
        let t = SplittingTree::build(&m, Mode::Separating);
        assert_eq!(t.unsplit_blocks(), vec![&[1u32, 2][..]]);
    }
}
