//! Access sequences (state cover) and the transition cover.
//!
//! The state cover `Q` is the breadth-first spanning tree from the initial state: for each
//! state the shortest input word reaching it, ties broken by input order (Chow 1978's
//! "testing tree"; Dorofeeva et al. 2010, Sec. 2). `Q` is prefix-closed. The transition cover
//! is `P = Q ∪ Q·I` restricted to defined words.

use ioco_model::Mealy;

const NONE: u32 = u32::MAX;

/// The breadth-first spanning tree of access sequences.
#[derive(Clone, Debug)]
pub struct AccessTree {
    /// For each state, the tree edge `(parent state, input)` that reaches it (`NONE` for the
    /// initial state).
    pub parent: Vec<(u32, u32)>,
    /// States in breadth-first order.
    pub order: Vec<u32>,
    initial: u32,
}

impl AccessTree {
    /// Build the tree. Unreachable states keep `parent = (NONE, NONE)` and are not in `order`.
    pub fn new(m: &Mealy) -> AccessTree {
        let n = m.num_states();
        let mut parent = vec![(NONE, NONE); n];
        let mut seen = vec![false; n];
        let mut order = vec![m.initial];
        seen[m.initial as usize] = true;
        let mut head = 0;
        while head < order.len() {
            let s = order[head];
            head += 1;
            for a in 0..m.num_inputs() as u32 {
                if let Some((t, _)) = m.step(s, a) {
                    if !seen[t as usize] {
                        seen[t as usize] = true;
                        parent[t as usize] = (s, a);
                        order.push(t);
                    }
                }
            }
        }
        AccessTree {
            parent,
            order,
            initial: m.initial,
        }
    }

    /// The access sequence of `s` (`None` if unreachable).
    pub fn access(&self, s: u32) -> Option<Vec<u32>> {
        let mut w = Vec::new();
        let mut v = s;
        while v != self.initial {
            let (p, a) = self.parent[v as usize];
            if p == NONE {
                return None;
            }
            w.push(a);
            v = p;
        }
        w.reverse();
        Some(w)
    }

    /// Whether `s -a-> t` is an edge of the tree (so `access(s)·a = access(t)`).
    #[inline]
    pub fn is_tree_edge(&self, s: u32, a: u32, t: u32) -> bool {
        t != self.initial && self.parent[t as usize] == (s, a)
    }
}

/// The state cover `Q`: one shortest access sequence per reachable state, in BFS order.
pub fn state_cover(m: &Mealy) -> Vec<Vec<u32>> {
    let t = AccessTree::new(m);
    t.order.iter().filter_map(|&s| t.access(s)).collect()
}

/// The transition cover `P = Q ∪ Q·I` (defined words only).
pub fn transition_cover(m: &Mealy) -> Vec<Vec<u32>> {
    let t = AccessTree::new(m);
    let mut out = Vec::new();
    for &s in &t.order {
        let q = t.access(s).expect("reachable");
        for a in 0..m.num_inputs() as u32 {
            if m.step(s, a).is_some() {
                let mut w = q.clone();
                w.push(a);
                out.push(w);
            }
        }
        out.push(q);
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covers_of_a_small_machine() {
        // 0 -a-> 1, 0 -b-> 0, 1 -a-> 2, 1 -b-> 0, 2 -a-> 2, 2 has no b.
        let mut m = Mealy::new(3, vec!["a".into(), "b".into()], vec!["x".into()], 0);
        m.set(0, 0, 1, 0);
        m.set(0, 1, 0, 0);
        m.set(1, 0, 2, 0);
        m.set(1, 1, 0, 0);
        m.set(2, 0, 2, 0);
        assert_eq!(state_cover(&m), vec![vec![], vec![0], vec![0, 0]]);
        let p = transition_cover(&m);
        assert_eq!(
            p,
            vec![
                vec![],
                vec![0],
                vec![0, 0],
                vec![0, 0, 0],
                vec![0, 1],
                vec![1]
            ]
        );
        let t = AccessTree::new(&m);
        assert!(t.is_tree_edge(0, 0, 1));
        assert!(!t.is_tree_edge(1, 1, 0));
    }
}
