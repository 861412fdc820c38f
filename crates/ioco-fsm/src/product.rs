//! Streaming generation of suites of the form `{u·h | u ∈ Q·I^{≤k+1}, h ∈ S(u)}` with exact
//! prefix deduplication, without holding the suite in memory.
//!
//! W, Wp, HSI and hybrid-ADS suites all have this shape: the prefixes `U = Q·I^{≤k+1}` (state
//! cover, then every infix of length at most `k+1`, defined words only) and a suffix set `S(u)`
//! that depends on the state `δ(u)` and, for Wp, on the distance `d(u)` of `u` from the state
//! cover. `U` is walked depth first; a candidate `u·h` is kept iff it is not a proper prefix of
//! another candidate and no shallower prefix node produces the same word. Every other
//! candidate that extends `u·h` either comes from an ancestor of `u` (checked against the
//! ancestors' suffix tries) or from a node of `U` inside `u·h` (checked by walking `h` down
//! `U`), so the emitted words are exactly the maximal candidates, each once (the same set a
//! prefix tree would give, as hybrid-ADS's trie does), with memory `O(|Q| + suffix tries)`.

use crate::access::AccessTree;
use crate::prepare::maximal;
use ioco_model::Mealy;
use std::collections::HashMap;

/// A set of suffixes with a prefix tree for "is this a prefix of a member" queries.
#[derive(Clone, Debug)]
pub struct SuffixSet {
    /// The maximal words (no member is a proper prefix of another).
    pub words: Vec<Vec<u32>>,
    children: Vec<Vec<(u32, u32)>>,
    max_len: usize,
}

/// Answer of [`SuffixSet::locate`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Located {
    /// Not a prefix of any member.
    Outside,
    /// A member.
    Member,
    /// A proper prefix of some member.
    Inside,
}

impl SuffixSet {
    /// Build from any words (reduced to the maximal ones; the empty word if none).
    pub fn new(words: Vec<Vec<u32>>) -> SuffixSet {
        let mut words = maximal(words);
        if words.is_empty() {
            words.push(Vec::new());
        }
        let mut children: Vec<Vec<(u32, u32)>> = vec![Vec::new()];
        for w in &words {
            let mut v = 0usize;
            for &a in w {
                v = match children[v].iter().find(|c| c.0 == a) {
                    Some(&(_, c)) => c as usize,
                    None => {
                        let c = children.len();
                        children.push(Vec::new());
                        children[v].push((a, c as u32));
                        c
                    }
                };
            }
        }
        let max_len = words.iter().map(Vec::len).max().unwrap_or(0);
        SuffixSet {
            words,
            children,
            max_len,
        }
    }

    /// Where `x ++ y` lies relative to the members.
    pub fn locate(&self, x: &[u32], y: &[u32]) -> Located {
        if x.len() + y.len() > self.max_len {
            return Located::Outside;
        }
        let mut v = 0usize;
        for &a in x.iter().chain(y) {
            match self.children[v].iter().find(|c| c.0 == a) {
                Some(&(_, c)) => v = c as usize,
                None => return Located::Outside,
            }
        }
        if self.children[v].is_empty() {
            Located::Member
        } else {
            Located::Inside
        }
    }
}

/// The suffix family: `S(u) = near[δ(u)]` if `d(u) ≤ threshold`, else `far[δ(u)]`.
#[derive(Clone, Debug)]
pub struct Family {
    sets: Vec<SuffixSet>,
    near: Vec<u32>,
    far: Vec<u32>,
    threshold: usize,
}

impl Family {
    fn intern(
        m: &Mealy,
        sets: &mut Vec<SuffixSet>,
        index: &mut HashMap<Vec<Vec<u32>>, u32>,
        s: u32,
        words: Vec<Vec<u32>>,
    ) -> u32 {
        // Restrict to defined words: cut each word at its first undefined input from s.
        let cut: Vec<Vec<u32>> = words
            .into_iter()
            .map(|mut w| {
                let mut p = s;
                let mut len = 0;
                for &a in &w {
                    match m.step(p, a) {
                        Some((t, _)) => {
                            p = t;
                            len += 1;
                        }
                        None => break,
                    }
                }
                w.truncate(len);
                w
            })
            .collect();
        let key = maximal(cut);
        if let Some(&i) = index.get(&key) {
            return i;
        }
        let i = sets.len() as u32;
        sets.push(SuffixSet::new(key.clone()));
        index.insert(key, i);
        i
    }

    /// The same suffixes `f(s)` at every distance.
    pub fn uniform(m: &Mealy, f: impl FnMut(u32) -> Vec<Vec<u32>>) -> Family {
        Family::split(m, f, |_| Vec::new(), usize::MAX)
    }

    /// `near(s)` within distance `threshold` of the state cover, `far(s)` beyond.
    pub fn split(
        m: &Mealy,
        mut near: impl FnMut(u32) -> Vec<Vec<u32>>,
        mut far: impl FnMut(u32) -> Vec<Vec<u32>>,
        threshold: usize,
    ) -> Family {
        let mut sets = Vec::new();
        let mut index = HashMap::new();
        let n = m.num_states() as u32;
        let near: Vec<u32> = (0..n)
            .map(|s| Family::intern(m, &mut sets, &mut index, s, near(s)))
            .collect();
        let far: Vec<u32> = if threshold == usize::MAX {
            near.clone()
        } else {
            (0..n)
                .map(|s| Family::intern(m, &mut sets, &mut index, s, far(s)))
                .collect()
        };
        Family {
            sets,
            near,
            far,
            threshold,
        }
    }

    #[inline]
    fn set(&self, s: u32, d: usize) -> &SuffixSet {
        let i = if d <= self.threshold {
            self.near[s as usize]
        } else {
            self.far[s as usize]
        };
        &self.sets[i as usize]
    }

    fn max_len(&self) -> usize {
        self.sets.iter().map(|s| s.max_len).max().unwrap_or(0)
    }
}

/// A product-form suite ready to be enumerated.
#[derive(Clone, Debug)]
pub struct ProductSuite {
    access: AccessTree,
    family: Family,
    /// Infix bound: prefixes are `Q·I^{≤infix}`.
    infix: usize,
}

impl ProductSuite {
    /// Prefixes `Q·I^{≤infix}` (infix = k+1 for the methods here) and suffixes `family`.
    pub fn new(m: &Mealy, infix: usize, family: Family) -> ProductSuite {
        ProductSuite {
            access: AccessTree::new(m),
            family,
            infix,
        }
    }

    /// Call `f` on every test (maximal candidate), depth first.
    pub fn for_each(&self, m: &Mealy, f: &mut dyn FnMut(&[u32])) {
        let mut it = self.iter(m);
        while let Some(w) = it.next_ref() {
            f(w);
        }
    }

    /// The tests as an iterator (depth first; memory bounded by the prefix depth).
    pub fn iter<'a>(&'a self, m: &'a Mealy) -> ProductIter<'a> {
        ProductIter {
            suite: self,
            m,
            lmax: self.family.max_len(),
            word: Vec::new(),
            states: vec![m.initial],
            dists: vec![0],
            next_input: vec![0],
            next_suffix: vec![0],
            test: Vec::new(),
            done: false,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn keep(
        &self,
        m: &Mealy,
        word: &[u32],
        states: &[u32],
        dists: &[usize],
        h: &[u32],
        k1: usize,
        lmax: usize,
    ) -> bool {
        let depth = word.len();
        // (c) an ancestor u' = word[..i] with word[i..]·h a prefix of (or equal to) a member of
        // S(u'): the shallower copy wins.
        let lo = depth.saturating_sub(lmax);
        for i in lo..depth {
            let set = self.family.set(states[i], dists[i]);
            if set.locate(&word[i..], h) != Located::Outside {
                return false;
            }
        }
        // (b) nodes of U inside u·h.
        let mut s = states[depth];
        let mut d = dists[depth];
        for j in 0..h.len() {
            let a = h[j];
            let (t, _) = m.step(s, a).expect("suffixes are cut to defined words");
            let d2 = if d == 0 && self.access.is_tree_edge(s, a, t) {
                0
            } else {
                d + 1
            };
            if d2 > k1 {
                return true;
            }
            s = t;
            d = d2;
            let rest = &h[j + 1..];
            let set = self.family.set(s, d);
            if rest.is_empty() {
                // u·h is itself a node of U: dropped if anything extends it.
                let has_child =
                    d < k1 && (0..m.num_inputs() as u32).any(|b| m.step(s, b).is_some());
                return !(has_child || set.max_len > 0);
            }
            if set.locate(rest, &[]) == Located::Inside {
                return false;
            }
        }
        // h empty: u itself; extended by any child or nonempty suffix at u (the latter cannot
        // happen: the set is maximal, so ε is a member only when it is the only one).
        if h.is_empty() {
            let has_child = d < k1 && (0..m.num_inputs() as u32).any(|b| m.step(s, b).is_some());
            return !has_child;
        }
        true
    }
}

/// Iterator over the tests of a [`ProductSuite`].
pub struct ProductIter<'a> {
    suite: &'a ProductSuite,
    m: &'a Mealy,
    lmax: usize,
    /// The current prefix u and, per position, the state and distance of u[..i].
    word: Vec<u32>,
    states: Vec<u32>,
    dists: Vec<usize>,
    /// Per depth: next child input and next suffix to consider.
    next_input: Vec<u32>,
    next_suffix: Vec<usize>,
    test: Vec<u32>,
    done: bool,
}

impl ProductIter<'_> {
    /// The next test, borrowed (no allocation).
    pub fn next_ref(&mut self) -> Option<&[u32]> {
        let (suite, m) = (self.suite, self.m);
        let k1 = suite.infix;
        let ni = m.num_inputs() as u32;
        while !self.done {
            let depth = self.word.len();
            let s = self.states[depth];
            let d = self.dists[depth];
            let set = suite.family.set(s, d);
            while self.next_suffix[depth] < set.words.len() {
                let h = &set.words[self.next_suffix[depth]];
                self.next_suffix[depth] += 1;
                if suite.keep(m, &self.word, &self.states, &self.dists, h, k1, self.lmax) {
                    self.test.clear();
                    self.test.extend_from_slice(&self.word);
                    self.test.extend_from_slice(h);
                    return Some(&self.test);
                }
            }
            // Next child.
            let mut pushed = false;
            while self.next_input[depth] < ni {
                let a = self.next_input[depth];
                self.next_input[depth] += 1;
                if let Some((t, _)) = m.step(s, a) {
                    let d2 = if d == 0 && suite.access.is_tree_edge(s, a, t) {
                        0
                    } else {
                        d + 1
                    };
                    if d2 <= k1 {
                        self.word.push(a);
                        self.states.push(t);
                        self.dists.push(d2);
                        self.next_input.push(0);
                        self.next_suffix.push(0);
                        pushed = true;
                        break;
                    }
                }
            }
            if !pushed {
                if depth == 0 {
                    self.done = true;
                } else {
                    self.word.pop();
                    self.states.pop();
                    self.dists.pop();
                    self.next_input.pop();
                    self.next_suffix.pop();
                }
            }
        }
        None
    }
}

impl Iterator for ProductIter<'_> {
    type Item = Vec<u32>;
    fn next(&mut self) -> Option<Vec<u32>> {
        self.next_ref().map(<[u32]>::to_vec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every candidate by brute force, then the maximal ones.
    fn brute(m: &Mealy, infix: usize, fam: &Family) -> Vec<Vec<u32>> {
        let acc = AccessTree::new(m);
        let mut cands = Vec::new();
        let mut frontier: Vec<(Vec<u32>, u32, usize)> = vec![(vec![], m.initial, 0)];
        while let Some((u, s, d)) = frontier.pop() {
            for h in &fam.set(s, d).words {
                let mut w = u.clone();
                w.extend_from_slice(h);
                cands.push(w);
            }
            for a in 0..m.num_inputs() as u32 {
                if let Some((t, _)) = m.step(s, a) {
                    let d2 = if d == 0 && acc.is_tree_edge(s, a, t) {
                        0
                    } else {
                        d + 1
                    };
                    if d2 <= infix {
                        let mut w = u.clone();
                        w.push(a);
                        frontier.push((w, t, d2));
                    }
                }
            }
        }
        maximal(cands)
    }

    #[test]
    fn streaming_dedup_equals_prefix_tree() {
        let mut m = Mealy::new(
            3,
            vec!["a".into(), "b".into()],
            vec!["0".into(), "1".into()],
            0,
        );
        m.set(0, 0, 1, 0);
        m.set(0, 1, 0, 0);
        m.set(1, 0, 2, 0);
        m.set(1, 1, 0, 1);
        m.set(2, 0, 0, 1);
        m.set(2, 1, 2, 0);
        for infix in 0..4 {
            for variant in 0..3 {
                let fam = match variant {
                    0 => Family::uniform(&m, |_| vec![vec![0], vec![1, 0]]),
                    1 => Family::uniform(&m, |s| match s {
                        0 => vec![vec![0, 0]],
                        1 => vec![vec![1], vec![0, 0, 1]],
                        _ => vec![vec![]],
                    }),
                    _ => Family::split(&m, |_| vec![vec![1, 1], vec![0]], |s| vec![vec![s % 2]], 1),
                };
                let p = ProductSuite::new(&m, infix, fam.clone());
                let mut got = Vec::new();
                p.for_each(&m, &mut |w| got.push(w.to_vec()));
                let n = got.len();
                got.sort();
                got.dedup();
                assert_eq!(n, got.len(), "duplicates emitted");
                assert_eq!(
                    got,
                    brute(&m, infix, &fam),
                    "infix {infix} variant {variant}"
                );
            }
        }
    }
}
