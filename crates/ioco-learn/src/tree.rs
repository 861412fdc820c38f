//! The observation tree of L# (Vaandrager, Garhewal, Rot, Wißmann, TACAS 2022, Def. 3.1) and
//! apartness (Def. 3.3): a prefix tree of the input words asked so far, each edge labelled with
//! the output observed. It is also the membership-query cache: a word whose path is in the tree
//! is answered from it, without the system.
//!
//! Two nodes are *apart* (`p # q`) when some input word is defined (has a path) from both and
//! the outputs along it differ; such a word is a *witness*. Apartness is monotone: the tree only
//! grows, so nodes once apart stay apart.
//!
//! Every node records the epoch at which its subtree last grew ([`ObservationTree::modified`]),
//! so that the learner re-checks a pair of nodes only when one of their subtrees has grown.

use std::collections::VecDeque;

/// No node / no output.
pub const NONE: u32 = u32::MAX;

/// A node of the tree (the root is 0).
pub type Node = u32;

/// The observation tree over `k` inputs; outputs are numbers (the learner interns them).
#[derive(Clone, Debug)]
pub struct ObservationTree {
    k: usize,
    /// `node * k + input` → child.
    succ: Vec<u32>,
    /// `node * k + input` → output on that edge.
    out: Vec<u32>,
    /// node → (parent, input from the parent); the root has `(NONE, NONE)`.
    parent: Vec<(u32, u32)>,
    /// node → epoch at which its subtree last grew.
    modified: Vec<u64>,
    epoch: u64,
}

impl ObservationTree {
    /// A tree with only the root, over `k` inputs.
    pub fn new(k: usize) -> Self {
        ObservationTree {
            k,
            succ: vec![NONE; k],
            out: vec![NONE; k],
            parent: vec![(NONE, NONE)],
            modified: vec![0],
            epoch: 0,
        }
    }

    /// The root (the empty word).
    pub fn root(&self) -> Node {
        0
    }

    /// The number of inputs.
    pub fn num_inputs(&self) -> usize {
        self.k
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// True when the tree is only the root.
    pub fn is_empty(&self) -> bool {
        self.parent.len() == 1
    }

    /// The child of `n` on `input`, if observed.
    #[inline]
    pub fn child(&self, n: Node, input: u32) -> Option<Node> {
        let c = self.succ[n as usize * self.k + input as usize];
        (c != NONE).then_some(c)
    }

    /// The output on the edge from `n` on `input`, if observed.
    #[inline]
    pub fn output(&self, n: Node, input: u32) -> Option<u32> {
        let o = self.out[n as usize * self.k + input as usize];
        (o != NONE).then_some(o)
    }

    /// The epoch at which the subtree of `n` last grew.
    #[inline]
    pub fn modified(&self, n: Node) -> u64 {
        self.modified[n as usize]
    }

    /// The current epoch (grows with every node added).
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Record `n -input/output-> child`; returns the child, new or existing. The caller checks
    /// an existing edge's output first (a different one is nondeterminism).
    pub fn add(&mut self, n: Node, input: u32, output: u32) -> Node {
        let at = n as usize * self.k + input as usize;
        if self.succ[at] != NONE {
            return self.succ[at];
        }
        let c = self.parent.len() as u32;
        self.succ[at] = c;
        self.out[at] = output;
        self.parent.push((n, input));
        self.succ.extend(std::iter::repeat_n(NONE, self.k));
        self.out.extend(std::iter::repeat_n(NONE, self.k));
        self.epoch += 1;
        self.modified.push(self.epoch);
        let mut p = n;
        while p != NONE {
            self.modified[p as usize] = self.epoch;
            p = self.parent[p as usize].0;
        }
        c
    }

    /// The access word of `n` (the inputs from the root).
    pub fn access(&self, n: Node) -> Vec<u32> {
        let mut w = Vec::new();
        let mut p = n;
        while p != 0 {
            let (q, i) = self.parent[p as usize];
            w.push(i);
            p = q;
        }
        w.reverse();
        w
    }

    /// The node reached by `word` from `n`, if the whole path is in the tree.
    pub fn walk(&self, n: Node, word: &[u32]) -> Option<Node> {
        word.iter().try_fold(n, |m, &i| self.child(m, i))
    }

    /// The outputs along `word` from the root, as far as the tree has them.
    pub fn outputs_along(&self, word: &[u32]) -> Vec<u32> {
        let mut outs = Vec::with_capacity(word.len());
        let mut n = self.root();
        for &i in word {
            match (self.child(n, i), self.output(n, i)) {
                (Some(c), Some(o)) => {
                    outs.push(o);
                    n = c;
                }
                _ => break,
            }
        }
        outs
    }

    /// Whether `a` and `b` are apart (Def. 3.3), without building a witness.
    pub fn apart(&self, a: Node, b: Node) -> bool {
        if a == b {
            return false;
        }
        let mut stack = vec![(a, b)];
        while let Some((x, y)) = stack.pop() {
            for i in 0..self.k as u32 {
                let (cx, cy) = (
                    self.succ[x as usize * self.k + i as usize],
                    self.succ[y as usize * self.k + i as usize],
                );
                if cx == NONE || cy == NONE {
                    continue;
                }
                if self.out[x as usize * self.k + i as usize]
                    != self.out[y as usize * self.k + i as usize]
                {
                    return true;
                }
                stack.push((cx, cy));
            }
        }
        false
    }

    /// A shortest witness of `a # b` (breadth-first over the common subtree), or `None` when
    /// they are not apart.
    pub fn witness(&self, a: Node, b: Node) -> Option<Vec<u32>> {
        if a == b {
            return None;
        }
        let mut queue = VecDeque::from([(a, b)]);
        while let Some((x, y)) = queue.pop_front() {
            for i in 0..self.k as u32 {
                let (Some(cx), Some(cy)) = (self.child(x, i), self.child(y, i)) else {
                    continue;
                };
                if self.output(x, i) != self.output(y, i) {
                    // the path from a to x, then i
                    let mut w = Vec::new();
                    let mut p = x;
                    while p != a {
                        let (q, j) = self.parent[p as usize];
                        w.push(j);
                        p = q;
                    }
                    w.reverse();
                    w.push(i);
                    return Some(w);
                }
                queue.push_back((cx, cy));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apartness_and_witnesses() {
        // root -a/0-> 1 -a/0-> 2 -a/1-> 3 ; root -b/0-> 4 -a/0-> 5 -a/0-> 6
        let mut t = ObservationTree::new(2);
        let n1 = t.add(0, 0, 0);
        let n2 = t.add(n1, 0, 0);
        let n3 = t.add(n2, 0, 1);
        let n4 = t.add(0, 1, 0);
        let n5 = t.add(n4, 0, 0);
        let n6 = t.add(n5, 0, 0);
        assert_eq!(t.len(), 7);
        assert_eq!(t.access(n3), vec![0, 0, 0]);
        assert_eq!(t.walk(0, &[1, 0]), Some(n5));
        assert_eq!(t.outputs_along(&[0, 0, 0, 1]), vec![0, 0, 1]);
        // root and 4: a a a gives 0 0 1 from the root, 0 0 ? from 4 (only a a known)
        assert!(!t.apart(0, n4));
        assert!(t.apart(n1, n4)); // a a: 0 1 vs 0 0
        assert_eq!(t.witness(n1, n4), Some(vec![0, 0]));
        assert_eq!(t.witness(n1, n1), None);
        assert!(!t.apart(n3, n6));
        assert!(t.modified(0) >= t.modified(n4) && t.modified(n4) == t.modified(n6));
    }
}
