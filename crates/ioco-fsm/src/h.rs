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

const NONE: u32 = u32::MAX;

struct Trie {
    child: Vec<Vec<(u32, u32)>>,
    state: Vec<u32>,
    /// Nodes that have a child for every input defined in their state (the prefixes at
    /// distance ≤ k from the state cover); nodes beyond the vector are not full.
    full: Vec<bool>,
    /// Scratch space of the candidate search.
    arena: Vec<Entry>,
    /// Scratch space of the separation check.
    stack: Vec<(u32, u32)>,
    /// Class of each state's output row (equal classes: same output on every input); empty
    /// for partial machines.
    row: Vec<u32>,
    /// Output of state `s` on input `a` at `s·ni + a` (`NONE` if undefined).
    out: Vec<u32>,
    ni: usize,
}

/// Outcome of the "already separated?" search.
enum Check {
    Separated,
    /// Exhaustively not separated.
    NotSeparated,
    /// Budget exhausted.
    Unknown,
}

/// A tree node with its specification state and whether it is full.
type Side = (u32, u32, bool);

/// A node of the candidate search: tree node `x` below the start, the matching node `y` below
/// the other start (`NONE` once the path leaves the tree there, after `matched` symbols), the
/// other side's specification state `t`.
#[derive(Copy, Clone)]
struct Entry {
    x: u32,
    y: u32,
    t: u32,
    depth: usize,
    matched: usize,
    parent: u32,
    input: u32,
}

/// The path from the search root to entry `i`.
fn path(arena: &[Entry], mut i: usize) -> Vec<u32> {
    let mut w = Vec::new();
    while arena[i].parent != u32::MAX {
        w.push(arena[i].input);
        i = arena[i].parent as usize;
    }
    w.reverse();
    w
}

/// The cheapest separator found so far: symbols it adds to the tree, then its length.
struct Best {
    cost: usize,
    len: usize,
    word: Vec<u32>,
}

impl Best {
    fn improves(&self, cost: usize, len: usize) -> bool {
        self.word.is_empty() || (cost, len) < (self.cost, self.len)
    }

    fn set(&mut self, cost: usize, len: usize, word: Vec<u32>) {
        self.cost = cost;
        self.len = len;
        self.word = word;
    }
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

    fn is_full(&self, v: u32) -> bool {
        self.full.get(v as usize).copied().unwrap_or(false)
    }

    fn side(&self, v: u32) -> Side {
        (v, self.state[v as usize], self.is_full(v))
    }

    /// Fast check of the first symbol when `v` is full: some input below `u` on which the
    /// states give different outputs (then `v` has that child too). Walks only `u`'s child
    /// list and the two states' rows, not `v`'s children (the pair checks of the H-method are
    /// `|U|·n`; this keeps each to a few cache lines).
    fn first_symbol_separates(&self, u: u32, s: u32, t: u32) -> bool {
        let (rs, rt) = (s as usize * self.ni, t as usize * self.ni);
        self.child[u as usize].iter().any(|&(a, _)| {
            let (o1, o2) = (self.out[rs + a as usize], self.out[rt + a as usize]);
            o1 != o2 && o1 != NONE && o2 != NONE
        })
    }

    /// Whether the tree already holds `u·γ`, `v·γ` with `γ` separating their states
    /// (`s`, `t` the states of `u`, `v`; `fu`, `fv` whether they are full).
    fn separated(&mut self, m: &Mealy, (u, s, fu): Side, (v, t, fv): Side) -> Check {
        if fu && fv && !self.row.is_empty() {
            // Complete machine, both nodes have every input: separated at once iff the output
            // rows differ.
            if self.row[s as usize] != self.row[t as usize] {
                return Check::Separated;
            }
        } else if (fv && self.first_symbol_separates(u, s, t))
            || (fu && self.first_symbol_separates(v, t, s))
        {
            return Check::Separated;
        }
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.push((u, v));
        let found = self.separated_with(m, &mut stack);
        self.stack = stack;
        found
    }

    fn separated_with(&self, m: &Mealy, stack: &mut Vec<(u32, u32)>) -> Check {
        let mut visited = 0;
        while let Some((x, y)) = stack.pop() {
            visited += 1;
            if visited > CHECK_BUDGET {
                return Check::Unknown;
            }
            let (sx, sy) = (self.state[x as usize], self.state[y as usize]);
            for &(a, cx) in &self.child[x as usize] {
                if let Some(cy) = self.get(y, a) {
                    let o1 = m.step(sx, a).map(|p| p.1);
                    let o2 = m.step(sy, a).map(|p| p.1);
                    if o1 != o2 {
                        return Check::Separated;
                    }
                    if self.state[cx as usize] != self.state[cy as usize] {
                        stack.push((cx, cy));
                    }
                }
            }
        }
        Check::NotSeparated
    }

    /// Consider separators that continue paths already in the tree below `x0` (whose state is
    /// `s`; the other side is node `y0` with state `t`): every path `p` below `x0` (bounded
    /// breadth-first search) gives the candidate `p·sep(δ(s,p), δ(t,p))`, or `p` itself when
    /// its last step already separates. Improves `best = (cost, length, word)`.
    fn continuations(&mut self, p: &Prepared, x0: u32, y0: u32, t: u32, best: &mut Best) {
        let m = &p.machine;
        let mut arena = std::mem::take(&mut self.arena);
        arena.clear();
        arena.push(Entry {
            x: x0,
            y: y0,
            t,
            depth: 0,
            matched: 0,
            parent: u32::MAX,
            input: u32::MAX,
        });
        let mut head = 0;
        while head < arena.len() && head < CANDIDATE_BUDGET {
            let e = arena[head];
            head += 1;
            // Once the path has left the tree on the other side, every candidate through it
            // adds at least `depth + 1 - matched` symbols there: prune when that cannot win.
            if e.y == NONE && e.depth + 1 - e.matched > best.cost {
                continue;
            }
            let here = head - 1;
            let s_here = self.state[e.x as usize];
            if e.depth > 0 {
                let sep = p.seps.separator_cow(s_here, e.t);
                let own = e.depth + self.common(e.x, &sep);
                let other = if e.y != NONE {
                    e.depth + self.common(e.y, &sep)
                } else {
                    e.matched
                };
                let len = e.depth + sep.len();
                if best.improves(2 * len - own - other, len) {
                    let mut w = path(&arena, here);
                    w.extend_from_slice(&sep);
                    best.set(2 * len - own - other, len, w);
                }
            }
            for &(a, c) in &self.child[e.x as usize] {
                let (Some((_, o1)), Some((t2, o2))) = (m.step(s_here, a), m.step(e.t, a)) else {
                    continue;
                };
                let yc = if e.y != NONE {
                    self.get(e.y, a).unwrap_or(NONE)
                } else {
                    NONE
                };
                let matched = if yc != NONE {
                    e.depth + 1
                } else if e.y != NONE {
                    e.depth
                } else {
                    e.matched
                };
                if o1 != o2 {
                    let len = e.depth + 1;
                    if best.improves(2 * len - len - matched, len) {
                        let mut w = path(&arena, here);
                        w.push(a);
                        best.set(2 * len - len - matched, len, w);
                    }
                } else if self.state[c as usize] != t2 {
                    arena.push(Entry {
                        x: c,
                        y: yc,
                        t: t2,
                        depth: e.depth + 1,
                        matched,
                        parent: here as u32,
                        input: a,
                    });
                }
            }
        }
        self.arena = arena;
    }

    /// Make sure `u` and `v` are separated, adding the cheapest separator if needed.
    fn separate(&mut self, p: &Prepared, a: Side, b: Side) {
        let m = &p.machine;
        let ((u, s, _), (v, t, _)) = (a, b);
        if s == t {
            return;
        }
        // The least possible (cost, length): a separator already in the tree costs 0, and
        // there is none when the check was exhaustive.
        let least = match self.separated(m, a, b) {
            Check::Separated => return,
            Check::NotSeparated => (1, 1),
            Check::Unknown => (0, 1),
        };
        let sep = p.seps.separator_cow(s, t);
        let len = sep.len();
        let mut best = Best {
            cost: 2 * len - self.common(u, &sep) - self.common(v, &sep),
            len,
            word: sep.into_owned(),
        };
        // Candidates replace `best` only when strictly cheaper: none can when it is least.
        if (best.cost, best.len) > least {
            self.continuations(p, u, v, t, &mut best);
            self.continuations(p, v, u, s, &mut best);
        }
        assert!(!best.word.is_empty(), "minimal machines have separators");
        self.insert(m, u, &best.word);
        self.insert(m, v, &best.word);
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

/// The class of every state's output row (empty for partial machines).
fn output_rows(m: &Mealy) -> Vec<u32> {
    if !m.is_complete() {
        return Vec::new();
    }
    let mut index = std::collections::HashMap::new();
    (0..m.num_states() as u32)
        .map(|s| {
            let row: Vec<Option<u32>> = (0..m.num_inputs() as u32)
                .map(|a| m.step(s, a).map(|p| p.1))
                .collect();
            let next = index.len() as u32;
            *index.entry(row).or_insert(next)
        })
        .collect()
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
        full: Vec::new(),
        arena: Vec::new(),
        stack: Vec::new(),
        row: output_rows(m),
        out: (0..n as u32)
            .flat_map(|s| {
                (0..m.num_inputs() as u32).map(move |a| m.step(s, a).map_or(NONE, |p| p.1))
            })
            .collect(),
        ni: m.num_inputs(),
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
    let mut full = vec![false; trie.child.len()];
    for &(v, d, _) in &unodes {
        full[v as usize] = d <= k;
    }
    trie.full = full;
    // 1. State cover pairs.
    for t in 0..n {
        for s in 0..t {
            trie.separate(p, (q_node[s], s as u32, true), (q_node[t], t as u32, true));
        }
    }
    // 2. and 3.
    for i in 0..unodes.len() {
        let (u, d, mut parent) = unodes[i];
        if d == 0 {
            continue;
        }
        let su = trie.side(u);
        for (t, &q) in q_node.iter().enumerate() {
            trie.separate(p, su, (q, t as u32, true));
        }
        while parent != u32::MAX {
            let (v, dv, pp) = unodes[parent as usize];
            if dv == 0 {
                break;
            }
            trie.separate(p, su, trie.side(v));
            parent = pp;
        }
    }
    params.insert("prefix_nodes".into(), unodes.len().into());
    params.insert("tree_nodes".into(), trie.child.len().into());
    trie.leaves()
}
