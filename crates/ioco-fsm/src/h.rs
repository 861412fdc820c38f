//! The H-method (R. Dorofeeva, K. El-Fakih, N. Yevtushenko, "An improved conformance testing
//! method", FORTE 2005; the `m ≥ n` conditions as in Dorofeeva, El-Fakih, Maag, Cavalli,
//! Yevtushenko, "FSM-based conformance testing methods: a survey annotated with experimental
//! evaluation", IST 2010, Sec. 3.5).
//!
//! The suite is a prefix tree that contains `Q·I^{≤k+1}` and in which the following pairs of
//! words `(u, v)` reaching different specification states are *separated* (the tree holds
//! `u·γ` and `v·γ` for some `γ` on which the two states give different outputs):
//! 1. every two words of the state cover `Q`;
//! 2. every word `α·β` (`α` its longest prefix in `Q`, `β ≠ ε`, `|β| ≤ k+1`) and every word of `Q`;
//! 3. every two words `α·β₁`, `α·β₂` with `β₁` a proper non-empty prefix of `β₂`.
//!
//! Unlike W/Wp/HSI, separating sequences are chosen *on the fly*: a pair already separated by
//! the tree costs nothing; otherwise the candidate `γ` that adds the fewest symbols to the tree
//! is taken, among the precomputed separator of the two states and continuations of paths
//! already in the tree below `u` or `v` (a bounded search). The tests are the leaves.

use crate::access::AccessTree;
use crate::prepare::Prepared;
use ioco_model::Mealy;

/// How many node pairs the "already separated?" search may visit.
const CHECK_BUDGET: usize = 256;
/// How many tree nodes below `u` (and below `v`) are tried as starts of a separator.
const CANDIDATE_BUDGET: usize = 16;

struct Trie {
    child: Vec<Vec<(u32, u32)>>,
    state: Vec<u32>,
}

impl Trie {
    fn get(&self, v: u32, a: u32) -> Option<u32> {
        self.child[v as usize]
            .iter()
            .find(|c| c.0 == a)
            .map(|c| c.1)
    }

    fn add(&mut self, v: u32, a: u32, state: u32) -> u32 {
        if let Some(c) = self.get(v, a) {
            return c;
        }
        let c = self.child.len() as u32;
        self.child.push(Vec::new());
        self.state.push(state);
        self.child[v as usize].push((a, c));
        c
    }

    fn insert(&mut self, m: &Mealy, mut v: u32, word: &[u32]) {
        for &a in word {
            match m.step(self.state[v as usize], a) {
                Some((t, _)) => v = self.add(v, a, t),
                None => return,
            }
        }
    }

    /// Length of the longest prefix of `word` present below `v`.
    fn common(&self, mut v: u32, word: &[u32]) -> usize {
        for (i, &a) in word.iter().enumerate() {
            match self.get(v, a) {
                Some(c) => v = c,
                None => return i,
            }
        }
        word.len()
    }

    /// Whether the tree already holds `u·γ`, `v·γ` with `γ` separating their states.
    fn separated(&self, m: &Mealy, u: u32, v: u32) -> bool {
        let mut stack = vec![(u, v)];
        let mut visited = 0;
        while let Some((x, y)) = stack.pop() {
            visited += 1;
            if visited > CHECK_BUDGET {
                return false;
            }
            let (sx, sy) = (self.state[x as usize], self.state[y as usize]);
            for &(a, cx) in &self.child[x as usize] {
                if let Some(cy) = self.get(y, a) {
                    let o1 = m.step(sx, a).map(|p| p.1);
                    let o2 = m.step(sy, a).map(|p| p.1);
                    if o1 != o2 {
                        return true;
                    }
                    if self.state[cx as usize] != self.state[cy as usize] {
                        stack.push((cx, cy));
                    }
                }
            }
        }
        false
    }

    /// Separators that continue paths already in the tree below `u` (the other state `t`).
    fn continuations(&self, p: &Prepared, u: u32, t: u32, out: &mut Vec<Vec<u32>>) {
        let m = &p.machine;
        let mut queue = std::collections::VecDeque::from([(u, t, Vec::<u32>::new())]);
        let mut seen = 0;
        while let Some((x, t_here, path)) = queue.pop_front() {
            seen += 1;
            if seen > CANDIDATE_BUDGET {
                break;
            }
            let s_here = self.state[x as usize];
            if !path.is_empty() {
                let mut g = path.clone();
                g.extend(p.seps.separator(s_here, t_here));
                out.push(g);
            }
            for &(a, c) in &self.child[x as usize] {
                let (Some((_, o1)), Some((t2, o2))) = (m.step(s_here, a), m.step(t_here, a)) else {
                    continue;
                };
                let mut g = path.clone();
                g.push(a);
                if o1 != o2 {
                    out.push(g);
                } else if self.state[c as usize] != t2 {
                    queue.push_back((c, t2, g));
                }
            }
        }
    }

    /// Make sure `u` and `v` are separated, adding the cheapest separator if needed.
    fn separate(&mut self, p: &Prepared, u: u32, v: u32) {
        let m = &p.machine;
        let (s, t) = (self.state[u as usize], self.state[v as usize]);
        if s == t || self.separated(m, u, v) {
            return;
        }
        let mut cands = vec![p.seps.separator(s, t)];
        self.continuations(p, u, t, &mut cands);
        self.continuations(p, v, s, &mut cands);
        let cost = |g: &Vec<u32>| (2 * g.len() - self.common(u, g) - self.common(v, g), g.len());
        let best = cands
            .into_iter()
            .filter(|g| !g.is_empty())
            .min_by_key(cost)
            .expect("minimal machines have separators");
        self.insert(m, u, &best);
        self.insert(m, v, &best);
    }

    fn leaves(&self) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        // (node, length of its word, last input)
        let mut stack: Vec<(u32, usize, u32)> = vec![(0, 0, u32::MAX)];
        let mut word: Vec<u32> = Vec::new();
        while let Some((v, len, a)) = stack.pop() {
            if len > 0 {
                word.truncate(len - 1);
                word.push(a);
            }
            let ch = &self.child[v as usize];
            if ch.is_empty() {
                out.push(word.clone());
            }
            for &(b, c) in ch.iter().rev() {
                stack.push((c, len + 1, b));
            }
        }
        out
    }
}

pub(crate) fn generate(
    p: &Prepared,
    k: usize,
    params: &mut serde_json::Map<String, serde_json::Value>,
) -> Vec<Vec<u32>> {
    let m = &p.machine;
    let n = m.num_states();
    let acc = AccessTree::new(m);
    let mut trie = Trie {
        child: vec![Vec::new()],
        state: vec![m.initial],
    };
    // The prefixes Q·I^{≤k+1}: (trie node, distance from Q, index of the parent entry).
    let mut unodes: Vec<(u32, usize, u32)> = vec![(0, 0, u32::MAX)];
    let mut q_node = vec![u32::MAX; n];
    q_node[m.initial as usize] = 0;
    let mut head = 0;
    while head < unodes.len() {
        let (v, d, _) = unodes[head];
        let s = trie.state[v as usize];
        for a in 0..m.num_inputs() as u32 {
            if let Some((t, _)) = m.step(s, a) {
                let d2 = if d == 0 && acc.is_tree_edge(s, a, t) {
                    0
                } else {
                    d + 1
                };
                if d2 <= k + 1 {
                    let c = trie.add(v, a, t);
                    if d2 == 0 {
                        q_node[t as usize] = c;
                    }
                    unodes.push((c, d2, head as u32));
                }
            }
        }
        head += 1;
    }
    // 1. State cover pairs.
    for t in 0..n {
        for s in 0..t {
            trie.separate(p, q_node[s], q_node[t]);
        }
    }
    // 2. and 3.
    for i in 0..unodes.len() {
        let (u, d, mut parent) = unodes[i];
        if d == 0 {
            continue;
        }
        for &q in &q_node {
            trie.separate(p, u, q);
        }
        while parent != u32::MAX {
            let (v, dv, pp) = unodes[parent as usize];
            if dv == 0 {
                break;
            }
            trie.separate(p, u, v);
            parent = pp;
        }
    }
    params.insert("prefix_nodes".into(), unodes.len().into());
    params.insert("tree_nodes".into(), trie.child.len().into());
    trie.leaves()
}
