//! CCS-fragment terms `F ::= 0 | F + F | μ.F` (thesis Def. 3.3), the witnesses of splitting
//! graphs and the adaptive distinguishing graphs of thesis ch. 3.
//!
//! Terms are hash-consed in an arena ([`Terms`]) and kept normalised as a sorted set of
//! prefixes `μ.F` (`0` is the empty sum), so shared sub-terms are stored once and a term is a
//! DAG; its automaton `A_F` (thesis Ex. 3.4) has the sub-terms as states.

use crate::sa::Sa;
use rustc_hash::FxHashMap;

/// A term in a [`Terms`] arena.
pub type TermId = u32;

/// The arena. Term 0 is `0`.
#[derive(Clone, Debug)]
pub struct Terms {
    nodes: Vec<Vec<(u16, TermId)>>,
    ids: FxHashMap<Vec<(u16, TermId)>, TermId>,
}

impl Default for Terms {
    fn default() -> Self {
        Self::new()
    }
}

impl Terms {
    /// The term `0`.
    pub const ZERO: TermId = 0;

    /// An arena holding `0`.
    pub fn new() -> Self {
        let mut t = Terms {
            nodes: Vec::new(),
            ids: FxHashMap::default(),
        };
        t.intern(Vec::new());
        t
    }

    fn intern(&mut self, mut prefixes: Vec<(u16, TermId)>) -> TermId {
        prefixes.sort_unstable();
        prefixes.dedup();
        if let Some(&id) = self.ids.get(&prefixes) {
            return id;
        }
        let id = self.nodes.len() as TermId;
        self.nodes.push(prefixes.clone());
        self.ids.insert(prefixes, id);
        id
    }

    /// `μ.F`.
    pub fn prefix(&mut self, mu: u16, f: TermId) -> TermId {
        self.intern(vec![(mu, f)])
    }

    /// `F1 + F2 + …`.
    pub fn sum(&mut self, parts: &[TermId]) -> TermId {
        let all: Vec<(u16, TermId)> = parts
            .iter()
            .flat_map(|&p| self.nodes[p as usize].iter().copied())
            .collect();
        self.intern(all)
    }

    /// The prefixes `μ.F` of a term (empty for `0`).
    pub fn prefixes(&self, f: TermId) -> &[(u16, TermId)] {
        &self.nodes[f as usize]
    }

    /// Number of distinct terms.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when only `0` exists.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// Longest path (the depth of the test case).
    pub fn depth(&self, f: TermId) -> usize {
        let mut memo = vec![usize::MAX; self.nodes.len()];
        self.depth_memo(f, &mut memo)
    }

    fn depth_memo(&self, f: TermId, memo: &mut Vec<usize>) -> usize {
        if memo[f as usize] != usize::MAX {
            return memo[f as usize];
        }
        let d = self.nodes[f as usize]
            .iter()
            .map(|&(_, g)| 1 + self.depth_memo(g, memo))
            .max()
            .unwrap_or(0);
        memo[f as usize] = d;
        d
    }

    /// Render with plain label names, e.g. `x.(x.0 + y.0) + y.0`; `None` past `budget` chars.
    pub fn render(&self, sa: &Sa, f: TermId, budget: usize) -> Option<String> {
        let mut s = String::new();
        self.render_into(sa, f, &mut s, budget).then_some(s)
    }

    fn render_into(&self, sa: &Sa, f: TermId, s: &mut String, budget: usize) -> bool {
        let ps = &self.nodes[f as usize];
        if ps.is_empty() {
            s.push('0');
            return s.len() <= budget;
        }
        let mut ps = ps.clone();
        ps.sort_by(|a, b| {
            sa.names[a.0 as usize]
                .cmp(&sa.names[b.0 as usize])
                .then(a.1.cmp(&b.1))
        });
        for (i, &(mu, g)) in ps.iter().enumerate() {
            if i > 0 {
                s.push_str(" + ");
            }
            s.push_str(&sa.names[mu as usize]);
            s.push('.');
            let paren = self.nodes[g as usize].len() > 1;
            if paren {
                s.push('(');
            }
            if !self.render_into(sa, g, s, budget) {
                return false;
            }
            if paren {
                s.push(')');
            }
            if s.len() > budget {
                return false;
            }
        }
        true
    }
}
