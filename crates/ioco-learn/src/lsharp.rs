//! L# (Vaandrager, Garhewal, Rot, Wißmann, "A New Approach for Active Automata Learning Based
//! on Apartness", TACAS 2022, Algorithm 1) for Mealy machines.
//!
//! The learner keeps a *basis* B (tree nodes pairwise apart: the states found) and a *frontier*
//! F (the children of basis nodes not in the basis), each frontier node with its *candidates*:
//! the basis nodes it is not apart from. The rules, applied in this order until one applies:
//! - **promotion** (R1): a frontier node apart from every basis node joins the basis;
//! - **extension** (R2): a basis node with an input not yet observed gets it, followed by an
//!   adaptive distinguishing sequence over the basis (L# with ADS, §4);
//! - **separation** (R3): a frontier node with two or more candidates gets an adaptive
//!   query that tells them apart;
//! - **equivalence** (R4): every frontier node has exactly one candidate: the hypothesis
//!   (states B, transitions into the basis or to the frontier node's candidate) is checked
//!   against the tree, then by the equivalence oracle ([`crate::equivalence`]).
//!
//! A counterexample is processed by binary search over the tree (`ProcCounterEx`, §3.3):
//! keeping the invariant "the node reached by σ is apart from the basis node of the
//! hypothesis state reached by σ", σ is shortened (towards its frontier prefix) until the node
//! it reaches is in the frontier, where the apartness found removes a candidate.

use crate::cache::Cache;
use crate::equivalence::{Oracle, Source};
use crate::tree::Node;
use crate::{Event, LearnError};
use ioco_model::Mealy;
use std::collections::{BTreeMap, HashMap};

/// A frontier node's candidates and when they were last checked.
struct Frontier {
    cands: Vec<Node>,
    checked: u64,
}

/// The state of L#.
pub struct LSharp<'a> {
    /// The system and the observation tree.
    pub cache: Cache<'a>,
    basis: Vec<Node>,
    basis_index: HashMap<Node, u32>,
    frontier: BTreeMap<Node, Frontier>,
}

impl<'a> LSharp<'a> {
    /// A learner with the root as its only basis node.
    pub fn new(cache: Cache<'a>) -> Self {
        let root = cache.tree.root();
        LSharp {
            cache,
            basis: vec![root],
            basis_index: HashMap::from([(root, 0)]),
            frontier: BTreeMap::new(),
        }
    }

    /// The number of basis nodes (states found so far).
    pub fn states(&self) -> usize {
        self.basis.len()
    }

    /// Add the children of basis nodes that are new to the frontier, and drop the candidates
    /// that became apart (only for nodes whose subtrees grew since their last check).
    fn sync(&mut self) {
        let tree = &self.cache.tree;
        let k = tree.num_inputs() as u32;
        let epoch = tree.epoch();
        for &b in &self.basis {
            for i in 0..k {
                if let Some(c) = tree.child(b, i) {
                    if !self.basis_index.contains_key(&c) && !self.frontier.contains_key(&c) {
                        let cands = self
                            .basis
                            .iter()
                            .copied()
                            .filter(|&q| !tree.apart(c, q))
                            .collect();
                        self.frontier.insert(
                            c,
                            Frontier {
                                cands,
                                checked: epoch,
                            },
                        );
                    }
                }
            }
        }
        for (&f, e) in self.frontier.iter_mut() {
            if e.checked == epoch {
                continue;
            }
            let since = e.checked;
            if tree.modified(f) > since || e.cands.iter().any(|&c| tree.modified(c) > since) {
                e.cands.retain(|&c| !tree.apart(f, c));
            }
            e.checked = epoch;
        }
    }

    /// Rule R1: the first frontier node with no candidate joins the basis.
    fn promote(&mut self) -> bool {
        let Some(f) = self
            .frontier
            .iter()
            .find(|(_, e)| e.cands.is_empty())
            .map(|(&f, _)| f)
        else {
            return false;
        };
        self.frontier.remove(&f);
        self.basis_index.insert(f, self.basis.len() as u32);
        self.basis.push(f);
        let tree = &self.cache.tree;
        for (&g, e) in self.frontier.iter_mut() {
            if !tree.apart(g, f) {
                e.cands.push(f);
            }
        }
        true
    }

    /// Rule R2: a basis node's missing input, followed by an adaptive query over the basis.
    fn extend(&mut self) -> Result<bool, LearnError> {
        let k = self.cache.tree.num_inputs() as u32;
        for &b in &self.basis {
            for i in 0..k {
                if self.cache.tree.child(b, i).is_none() {
                    let mut w = self.cache.tree.access(b);
                    w.push(i);
                    let basis = self.basis.clone();
                    self.cache.adaptive(&w, &basis)?;
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Rule R3: an adaptive query telling apart the candidates of a frontier node that has
    /// several.
    fn separate(&mut self) -> Result<bool, LearnError> {
        let Some((f, cands)) = self
            .frontier
            .iter()
            .find(|(_, e)| e.cands.len() > 1)
            .map(|(&f, e)| (f, e.cands.clone()))
        else {
            return Ok(false);
        };
        let w = self.cache.tree.access(f);
        let before = self.cache.tree.len();
        self.cache.adaptive(&w, &cands)?;
        if self.cache.tree.len() == before {
            // The tree knew the adaptive query's answers already and still leaves several
            // candidates: follow a witness of the first two (it separates them from f).
            let sep = self
                .cache
                .tree
                .witness(cands[0], cands[1])
                .expect("basis nodes are pairwise apart");
            let mut w = w;
            w.extend(sep);
            self.cache.query(&w)?;
        }
        Ok(true)
    }

    /// The hypothesis of the current basis and frontier. With `complete`, every frontier node
    /// must have exactly one candidate and every basis node every input (rule R4); otherwise
    /// (a budget ran out) a transition without an observation or a candidate is left out.
    pub fn hypothesis(&self) -> Mealy {
        let tree = &self.cache.tree;
        let k = tree.num_inputs() as u32;
        let mut h = Mealy::new(
            self.basis.len(),
            self.cache.inputs().to_vec(),
            self.cache.outputs().to_vec(),
            0,
        );
        for (s, &b) in self.basis.iter().enumerate() {
            for i in 0..k {
                let (Some(c), Some(o)) = (tree.child(b, i), tree.output(b, i)) else {
                    continue;
                };
                let target = match self.basis_index.get(&c) {
                    Some(&t) => Some(t),
                    None => self
                        .frontier
                        .get(&c)
                        .and_then(|e| e.cands.first())
                        .map(|q| self.basis_index[q]),
                };
                if let Some(t) = target {
                    h.set(s as u32, i, t, o);
                }
            }
        }
        h
    }

    /// A word of the tree on which `h` gives another output (at its last input), if any.
    fn inconsistency(&self, h: &Mealy) -> Option<Vec<u32>> {
        let tree = &self.cache.tree;
        let k = tree.num_inputs() as u32;
        let mut stack = vec![(tree.root(), h.initial)];
        while let Some((n, q)) = stack.pop() {
            for i in 0..k {
                let (Some(c), Some(o)) = (tree.child(n, i), tree.output(n, i)) else {
                    continue;
                };
                match h.step(q, i) {
                    Some((t, p)) if p == o => stack.push((c, t)),
                    _ => return Some(tree.access(c)),
                }
            }
        }
        None
    }

    /// The hypothesis state reached by `word`.
    fn state_of(h: &Mealy, word: &[u32]) -> u32 {
        h.run_from(h.initial, word)
            .map(|p| p.0)
            .unwrap_or(h.initial)
    }

    /// `ProcCounterEx` (§3.3): `cex` is in the tree and `h` differs from it at its last input.
    fn process(&mut self, h: &Mealy, cex: &[u32]) -> Result<(), LearnError> {
        let root = self.cache.tree.root();
        // σ without its last input: the node it reaches is apart from the basis node of
        // h's state, witnessed by that input.
        let mut sigma = cex[..cex.len() - 1].to_vec();
        loop {
            let tree = &self.cache.tree;
            let r = tree.walk(root, &sigma).expect("σ is in the tree");
            if self.basis_index.contains_key(&r) || self.frontier.contains_key(&r) {
                return Ok(());
            }
            let q = self.basis[Self::state_of(h, &sigma) as usize];
            // ρ: the prefix of σ that reaches the frontier
            let mut n = root;
            let mut rho = 0;
            while self.basis_index.contains_key(&n) {
                n = tree.child(n, sigma[rho]).expect("σ is in the tree");
                rho += 1;
            }
            let Some(eta) = tree.witness(r, q) else {
                // cannot happen by the invariant; stop rather than loop
                return Ok(());
            };
            let half = (rho + sigma.len()) / 2;
            let (s1, s2) = sigma.split_at(half);
            let q1 = self.basis[Self::state_of(h, s1) as usize];
            let mut moved = tree.access(q1);
            moved.extend_from_slice(s2);
            let mut w = moved.clone();
            w.extend_from_slice(&eta);
            self.cache.query(&w)?;
            let tree = &self.cache.tree;
            let r2 = tree.walk(root, &moved).expect("just queried");
            sigma = if tree.apart(r2, q) {
                moved
            } else {
                s1.to_vec()
            };
        }
    }

    /// Run L# until the oracle finds no counterexample; `on` hears of every hypothesis and
    /// counterexample.
    pub fn run(&mut self, oracle: &Oracle, on: &mut dyn FnMut(Event)) -> Result<Mealy, LearnError> {
        let mut round = 0u64;
        loop {
            self.sync();
            if self.promote() {
                continue;
            }
            if self.extend()? || self.separate()? {
                continue;
            }
            let h = self.hypothesis();
            if let Some(cex) = self.inconsistency(&h) {
                on(Event::Counterexample {
                    round,
                    source: Source::Tree.name(),
                    word: self.cache.names(&cex),
                });
                self.process(&h, &cex)?;
                continue;
            }
            self.cache.stats.hypotheses += 1;
            on(Event::Hypothesis {
                round,
                states: h.num_states(),
                stats: self.cache.stats(),
            });
            match oracle.find(&mut self.cache, &h, round, on)? {
                None => return Ok(h),
                Some((cex, source)) => {
                    on(Event::Counterexample {
                        round,
                        source: source.name(),
                        word: self.cache.names(&cex),
                    });
                    round += 1;
                    self.process(&h, &cex)?;
                }
            }
        }
    }

    /// The best model of the tree so far (after a budget ran out): promotions need no query,
    /// so they are made; transitions not yet observed or not yet identified are left out.
    pub fn best_effort(&mut self) -> Mealy {
        self.sync();
        while self.promote() {}
        self.hypothesis()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::Budget;
    use crate::system::System;

    /// A counter modulo `n` over inputs `inc` and `look`: `look` says `zero` only at 0, so
    /// telling the states apart needs words up to length n.
    fn counter(n: u32) -> Mealy {
        let mut m = Mealy::new(
            n as usize,
            vec!["inc".into(), "look".into()],
            vec!["ok".into(), "zero".into(), "other".into()],
            0,
        );
        for s in 0..n {
            m.set(s, 0, (s + 1) % n, 0);
            m.set(s, 1, s, if s == 0 { 1 } else { 2 });
        }
        m
    }

    /// With `n - 1` extra states the suite is complete whatever the hypothesis (it has at least
    /// one state), so the counter is learned exactly, random words or not: the guarantee.
    #[test]
    fn the_basis_stays_pairwise_apart_and_the_hypothesis_is_the_counter() {
        for n in [1, 2, 5, 9] {
            let m = counter(n);
            let system = System::mealy(m.clone(), &m.inputs).unwrap();
            let cache = Cache::new(system, Budget::default(), 1);
            let mut l = LSharp::new(cache);
            let mut events = 0;
            let oracle = Oracle {
                extra_states: n as usize - 1,
                random_words: 0,
                ..Oracle::default()
            };
            let h = l.run(&oracle, &mut |_| events += 1).unwrap();
            assert_eq!(h.num_states(), n as usize);
            assert!(h.is_complete());
            assert_eq!(crate::compare::difference(&m, &h), None);
            let t = &l.cache.tree;
            for (a, &x) in l.basis.iter().enumerate() {
                for &y in &l.basis[a + 1..] {
                    assert!(t.apart(x, y), "basis nodes {x} and {y}");
                }
            }
            // every frontier node is identified with exactly one basis node
            assert!(l.frontier.values().all(|e| e.cands.len() == 1));
            assert!(events >= 1);
        }
    }
}
