//! Model coverage: which LTS states and transitions a set of runs visited.
//!
//! Runs track a *suspension state*, i.e. the set of LTS states the model may be in after the
//! trace so far (tutorial Remark 7.1). A state is covered when it belongs to a reached set; a
//! transition `s -l-> t` when a step labelled `l` went from a set containing `s` to a set
//! containing `t`; a τ-transition when both of its ends lie in one reached (τ-closed) set.
//! For deterministic models this is exactly the states and transitions taken.

use ioco_model::{Label, Lts, State};

/// Covered states and transitions of one LTS, as bit sets. Transitions are numbered in CSR
/// order: the edges of state 0, then of state 1, ...
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coverage {
    offsets: Vec<u32>,
    states: Vec<u64>,
    transitions: Vec<u64>,
    num_states_covered: usize,
    num_transitions_covered: usize,
    /// Whether the LTS has τ transitions at all (else visiting skips them).
    has_tau: bool,
}

fn get(bits: &[u64], i: usize) -> bool {
    bits[i / 64] >> (i % 64) & 1 == 1
}

/// Set bit `i`; true when it was not set before.
fn set(bits: &mut [u64], i: usize) -> bool {
    let w = &mut bits[i / 64];
    let m = 1u64 << (i % 64);
    let new = *w & m == 0;
    *w |= m;
    new
}

impl Coverage {
    /// Nothing covered yet.
    pub fn new(lts: &Lts) -> Coverage {
        let mut offsets = Vec::with_capacity(lts.num_states() + 1);
        let mut n = 0u32;
        offsets.push(0);
        for s in lts.states() {
            n += lts.edges(s).len() as u32;
            offsets.push(n);
        }
        Coverage {
            offsets,
            states: vec![0; lts.num_states().div_ceil(64)],
            transitions: vec![0; (n as usize).div_ceil(64)],
            num_states_covered: 0,
            num_transitions_covered: 0,
            has_tau: lts.num_tau() > 0,
        }
    }

    /// Number of states of the model.
    pub fn num_states(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Number of transitions of the model.
    pub fn num_transitions(&self) -> usize {
        *self.offsets.last().unwrap() as usize
    }

    /// Number of covered states.
    pub fn states_covered(&self) -> usize {
        self.num_states_covered
    }

    /// Number of covered transitions.
    pub fn transitions_covered(&self) -> usize {
        self.num_transitions_covered
    }

    /// True when state `s` is covered.
    pub fn state(&self, s: State) -> bool {
        get(&self.states, s as usize)
    }

    /// True when the `k`-th edge of state `s` (in [`Lts::edges`] order) is covered.
    pub fn transition(&self, s: State, k: usize) -> bool {
        get(&self.transitions, self.offsets[s as usize] as usize + k)
    }

    /// Number of uncovered edges of `s` labelled `l`.
    pub fn uncovered_edges(&self, lts: &Lts, s: State, l: Label) -> usize {
        let es = lts.edges(s);
        let lo = es.partition_point(|e| e.label < l);
        let base = self.offsets[s as usize] as usize;
        es[lo..]
            .iter()
            .take_while(|e| e.label == l)
            .enumerate()
            .filter(|(k, _)| !get(&self.transitions, base + lo + k))
            .count()
    }

    /// Mark every state of a reached set (and the τ-transitions inside it) covered.
    pub fn visit(&mut self, lts: &Lts, set: &[State]) {
        for &s in set {
            if set_bit(&mut self.states, s as usize) {
                self.num_states_covered += 1;
            }
        }
        if self.has_tau {
            for &s in set {
                self.mark_edges(lts, s, Label::TAU, set);
            }
        }
    }

    /// Record a step `from -l-> to` between two reached sets (both sorted), and visit `to`.
    pub fn step(&mut self, lts: &Lts, from: &[State], l: Label, to: &[State]) {
        for &s in from {
            self.mark_edges(lts, s, l, to);
        }
        self.visit(lts, to);
    }

    fn mark_edges(&mut self, lts: &Lts, s: State, l: Label, to: &[State]) {
        let es = lts.edges(s);
        let lo = if es.len() <= 8 {
            es.iter().take_while(|e| e.label < l).count()
        } else {
            es.partition_point(|e| e.label < l)
        };
        let base = self.offsets[s as usize] as usize + lo;
        for (k, e) in es[lo..].iter().take_while(|e| e.label == l).enumerate() {
            let inside = match to {
                [only] => *only == e.target,
                _ => to.binary_search(&e.target).is_ok(),
            };
            if inside && set_bit(&mut self.transitions, base + k) {
                self.num_transitions_covered += 1;
            }
        }
    }

    /// Add everything `other` covered (both must be of the same LTS).
    pub fn merge(&mut self, other: &Coverage) {
        debug_assert_eq!(self.offsets.len(), other.offsets.len());
        for (a, b) in self.states.iter_mut().zip(&other.states) {
            *a |= *b;
        }
        for (a, b) in self.transitions.iter_mut().zip(&other.transitions) {
            *a |= *b;
        }
        self.num_states_covered = self.states.iter().map(|w| w.count_ones() as usize).sum();
        self.num_transitions_covered = self
            .transitions
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum();
    }
}

fn set_bit(bits: &mut [u64], i: usize) -> bool {
    set(bits, i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ioco_model::{Alphabet, LabelKind, LtsBuilder};

    #[test]
    fn steps_mark_states_and_edges() {
        let mut b = LtsBuilder::new(Alphabet::new());
        b.add_states(3);
        b.add_initial(0);
        b.add(0, "a", LabelKind::Input, 1).unwrap();
        b.add(0, "a", LabelKind::Input, 2).unwrap();
        b.add(1, "x", LabelKind::Output, 0).unwrap();
        b.add_transition(2, Label::TAU, 1);
        let l = b.build().unwrap();
        let a = l.alphabet().lookup("a").unwrap();
        let mut c = Coverage::new(&l);
        assert_eq!(c.num_transitions(), 4);
        c.visit(&l, &[0]);
        assert_eq!(c.uncovered_edges(&l, 0, a), 2);
        c.step(&l, &[0], a, &[1, 2]);
        assert_eq!(c.states_covered(), 3);
        // both a-edges and the τ edge inside {1,2}
        assert_eq!(c.transitions_covered(), 3);
        assert_eq!(c.uncovered_edges(&l, 0, a), 0);
        let mut d = Coverage::new(&l);
        d.merge(&c);
        assert_eq!(d, c);
    }
}
