//! Suspension automata: τ-closure, quiescence δ, and the subset construction det(δ(A))
//! (tutorial Def. 4.3, 4.9 and Ex. 4.11; thesis Def. 2.5 "suspension automaton").
//!
//! δ is added to the *states* of the LTS first and determinisation comes second (tutorial
//! Ex. 4.11: the other order loses observations such as "after a? we may see δ").
//!
//! [`Suspension`] builds the automaton lazily: a suspension state is a τ-closed set of LTS
//! states, interned on first sight, and its successors are computed once, on demand, and
//! memoised. Online testing of a huge LTS therefore explores only what the run visits.
//! [`SuspensionAutomaton`] explores everything, for the analyses that need the whole automaton.
//!
//! Invariants:
//! * a suspension state's set is non-empty, sorted and τ-closed;
//! * state 0 is the τ-closure of the initial states;
//! * successors are sorted by label and deterministic (one target per label);
//! * a δ-successor exists iff some state of the set is quiescent under the policy, and it is the
//!   τ-closure of the quiescent states of the set (so δ·δ = δ).

use crate::label::{Alphabet, Label, LabelKind};
use crate::lts::{Lts, LtsBuilder, QuiescencePolicy, State};
use hashbrown::HashTable;
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};

/// A state of a suspension automaton.
pub type SaState = u32;

const UNEXPANDED: u32 = u32::MAX;

/// The suspension automaton of an LTS, built on demand.
#[derive(Clone, Debug)]
pub struct Suspension<'a> {
    lts: &'a Lts,
    policy: QuiescencePolicy,
    // Interned sets, in an arena: set q is set_data[set_off[q]..set_off[q+1]].
    set_data: Vec<State>,
    set_off: Vec<u32>,
    table: HashTable<SaState>,
    // The deterministic fast path: the suspension state of the singleton {s}, per LTS state
    // (UNEXPANDED: not yet seen). Singletons are never hashed nor compared; in a deterministic
    // LTS without τ every suspension state is one.
    single: Vec<SaState>,
    // Successors, in an arena: (start, len) per state, start == UNEXPANDED if not expanded yet.
    succ_span: Vec<(u32, u32)>,
    succ_data: Vec<(Label, SaState)>,
    // Scratch space for closures.
    mark: Vec<u32>,
    epoch: u32,
    stack: Vec<State>,
    buf: Vec<State>,
    pairs: Vec<(Label, State)>,
    quiescent: Vec<State>,
    seed: Vec<State>,
    succ: Vec<(Label, SaState)>,
}

fn hash_set(s: &[State]) -> u64 {
    let mut h = FxHasher::default();
    s.hash(&mut h);
    h.finish()
}

impl<'a> Suspension<'a> {
    /// Start the lazy suspension automaton of `lts` under `policy`. Only the initial state is
    /// computed.
    pub fn new(lts: &'a Lts, policy: QuiescencePolicy) -> Self {
        let mut s = Suspension {
            lts,
            policy,
            set_data: Vec::new(),
            set_off: vec![0],
            table: HashTable::new(),
            single: vec![UNEXPANDED; lts.num_states()],
            succ_span: Vec::new(),
            succ_data: Vec::new(),
            mark: vec![0; lts.num_states()],
            epoch: 0,
            stack: Vec::new(),
            buf: Vec::new(),
            pairs: Vec::new(),
            quiescent: Vec::new(),
            seed: Vec::new(),
            succ: Vec::new(),
        };
        let init = lts.initial().to_vec();
        let q0 = s.close_and_intern(&init);
        debug_assert_eq!(q0, 0);
        s
    }

    /// The underlying LTS.
    pub fn lts(&self) -> &'a Lts {
        self.lts
    }

    /// The alphabet of the underlying LTS.
    pub fn alphabet(&self) -> &'a Alphabet {
        self.lts.alphabet()
    }

    /// The quiescence policy in use.
    pub fn policy(&self) -> QuiescencePolicy {
        self.policy
    }

    /// The initial suspension state (the τ-closure of the initial states).
    pub fn initial(&self) -> SaState {
        0
    }

    /// The number of suspension states discovered so far.
    pub fn num_discovered(&self) -> usize {
        self.set_off.len() - 1
    }

    /// The bytes this automaton holds on the heap (capacities, so growth by doubling counts):
    /// what a memory bound checks ([`crate::compare`]).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.set_data.capacity() * size_of::<State>()
            + self.set_off.capacity() * size_of::<u32>()
            + self.table.capacity() * (size_of::<SaState>() + 1)
            + self.single.capacity() * size_of::<SaState>()
            + self.succ_span.capacity() * size_of::<(u32, u32)>()
            + self.succ_data.capacity() * size_of::<(Label, SaState)>()
            + self.mark.capacity() * size_of::<u32>()
    }

    /// The τ-closed set of LTS states that `q` stands for.
    #[inline]
    pub fn set(&self, q: SaState) -> &[State] {
        let a = self.set_off[q as usize] as usize;
        let b = self.set_off[q as usize + 1] as usize;
        &self.set_data[a..b]
    }

    /// The successors of `q`, one per enabled label (inputs, outputs and δ), sorted by label.
    pub fn successors(&mut self, q: SaState) -> &[(Label, SaState)] {
        if self.succ_span[q as usize].0 == UNEXPANDED {
            self.expand(q);
        }
        let (a, n) = self.succ_span[q as usize];
        &self.succ_data[a as usize..(a + n) as usize]
    }

    /// The `l`-successor of `q`, if `l` is enabled.
    pub fn step(&mut self, q: SaState, l: Label) -> Option<SaState> {
        let succ = self.successors(q);
        succ.binary_search_by_key(&l, |p| p.0)
            .ok()
            .map(|i| succ[i].1)
    }

    /// Follow a trace from the initial state; `None` if it is not a suspension trace.
    pub fn run(&mut self, trace: &[Label]) -> Option<SaState> {
        let mut q = self.initial();
        for &l in trace {
            q = self.step(q, l)?;
        }
        Some(q)
    }

    /// out(q): the outputs and δ enabled in `q`, sorted (tutorial Def. 4.8 `out`).
    pub fn out(&mut self, q: SaState) -> Vec<Label> {
        let alphabet = self.lts.alphabet();
        self.successors(q)
            .iter()
            .map(|p| p.0)
            .filter(|&l| alphabet.kind(l).is_observable_output())
            .collect()
    }

    /// The inputs enabled in `q`, sorted.
    pub fn inputs(&mut self, q: SaState) -> Vec<Label> {
        let alphabet = self.lts.alphabet();
        self.successors(q)
            .iter()
            .map(|p| p.0)
            .filter(|&l| alphabet.kind(l) == LabelKind::Input)
            .collect()
    }

    /// True when δ may be observed in `q`.
    pub fn is_quiescent(&mut self, q: SaState) -> bool {
        self.step(q, Label::DELTA).is_some()
    }

    fn quiescent_state(&self, s: State) -> bool {
        self.lts.is_quiescent(s, self.policy)
    }

    /// τ-closure of `self.buf` (consumed), then intern.
    fn close_and_intern(&mut self, seed: &[State]) -> SaState {
        if let [s] = seed {
            let q = self.single[*s as usize];
            if q != UNEXPANDED {
                return q; // {s} is τ-closed: it was interned as a singleton
            }
            if !self.lts.has_tau(*s) {
                self.buf.clear();
                self.buf.push(*s);
                return self.intern_buf();
            }
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.epoch = 1;
        }
        let epoch = self.epoch;
        self.buf.clear();
        self.stack.clear();
        for &s in seed {
            if self.mark[s as usize] != epoch {
                self.mark[s as usize] = epoch;
                self.buf.push(s);
                self.stack.push(s);
            }
        }
        while let Some(s) = self.stack.pop() {
            for &t in self.lts.edges_with(s, Label::TAU).iter().map(|e| &e.target) {
                if self.mark[t as usize] != epoch {
                    self.mark[t as usize] = epoch;
                    self.buf.push(t);
                    self.stack.push(t);
                }
            }
        }
        self.buf.sort_unstable();
        self.intern_buf()
    }

    fn intern_buf(&mut self) -> SaState {
        if let [s] = self.buf[..] {
            let q = self.single[s as usize];
            if q != UNEXPANDED {
                return q;
            }
            let q = self.push_set();
            self.single[s as usize] = q;
            return q;
        }
        let h = hash_set(&self.buf);
        let (set_data, set_off) = (&self.set_data, &self.set_off);
        let get = |q: &SaState| {
            let a = set_off[*q as usize] as usize;
            let b = set_off[*q as usize + 1] as usize;
            &set_data[a..b]
        };
        if let Some(&q) = self.table.find(h, |q| get(q) == &self.buf[..]) {
            return q;
        }
        let q = self.push_set();
        let (set_data, set_off) = (&self.set_data, &self.set_off);
        self.table.insert_unique(h, q, |q| {
            let a = set_off[*q as usize] as usize;
            let b = set_off[*q as usize + 1] as usize;
            hash_set(&set_data[a..b])
        });
        q
    }

    /// Appends `self.buf` as a new suspension state; its number.
    fn push_set(&mut self) -> SaState {
        let q = (self.set_off.len() - 1) as SaState;
        self.set_data.extend_from_slice(&self.buf);
        self.set_off.push(self.set_data.len() as u32);
        self.succ_span.push((UNEXPANDED, 0));
        q
    }

    fn expand(&mut self, q: SaState) {
        let explicit_delta = self.lts.has_explicit_delta();
        let mut pairs = std::mem::take(&mut self.pairs);
        let mut quiescent = std::mem::take(&mut self.quiescent);
        let mut seed = std::mem::take(&mut self.seed);
        let mut succ = std::mem::take(&mut self.succ);
        pairs.clear();
        quiescent.clear();
        succ.clear();
        {
            let set = self.set(q);
            let alphabet = self.lts.alphabet();
            for &s in set {
                // quiescence of s (Lts::is_quiescent) from the edges scanned anyway
                let (mut tau, mut output) = (false, false);
                for e in self.lts.edges(s) {
                    if e.label.is_tau() {
                        tau = true;
                    } else {
                        output |= alphabet.kind(e.label) == LabelKind::Output;
                        pairs.push((e.label, e.target));
                    }
                }
                let quiet = match self.policy {
                    QuiescencePolicy::Stable => {
                        !output && (!tau || self.lts.is_silently_divergent(s))
                    }
                    QuiescencePolicy::NoOutput => !output,
                };
                debug_assert!(explicit_delta || quiet == self.quiescent_state(s));
                if !explicit_delta && quiet {
                    quiescent.push(s);
                }
            }
        }
        // A singleton set's edges are already sorted by (label, target).
        if self.set(q).len() > 1 {
            pairs.sort_unstable();
        }
        let mut i = 0;
        while i < pairs.len() {
            let l = pairs[i].0;
            seed.clear();
            while i < pairs.len() && pairs[i].0 == l {
                seed.push(pairs[i].1);
                i += 1;
            }
            let t = self.close_and_intern(&seed);
            succ.push((l, t));
        }
        if !quiescent.is_empty() {
            let t = self.close_and_intern(&quiescent);
            succ.push((Label::DELTA, t));
            succ.sort_unstable_by_key(|p| p.0);
        }
        let start = self.succ_data.len() as u32;
        self.succ_data.extend_from_slice(&succ);
        self.succ_span[q as usize] = (start, succ.len() as u32);
        self.pairs = pairs;
        self.quiescent = quiescent;
        self.seed = seed;
        self.succ = succ;
    }
}

/// The automaton is larger than the limit given to [`SuspensionAutomaton::build_with_limit`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// The limit that was exceeded.
    pub limit: usize,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the suspension automaton has more than {} states",
            self.limit
        )
    }
}

impl std::error::Error for TooLarge {}

/// A fully built suspension automaton: a deterministic LTS with explicit δ transitions, plus
/// the set of original states each of its states stands for.
#[derive(Clone, Debug)]
pub struct SuspensionAutomaton {
    /// The automaton; deterministic, with δ transitions, one initial state (0).
    pub lts: Lts,
    /// For each automaton state, the sorted τ-closed set of original states.
    pub sets: Vec<Vec<State>>,
}

impl SuspensionAutomaton {
    /// Build the whole suspension automaton (breadth-first, so state numbers follow BFS order).
    pub fn build(lts: &Lts, policy: QuiescencePolicy) -> SuspensionAutomaton {
        Self::build_with_limit(lts, policy, usize::MAX).expect("no limit")
    }

    /// As [`build`](Self::build), but give up with [`TooLarge`] past `limit` states.
    pub fn build_with_limit(
        lts: &Lts,
        policy: QuiescencePolicy,
        limit: usize,
    ) -> Result<SuspensionAutomaton, TooLarge> {
        let mut sus = Suspension::new(lts, policy);
        let mut b = LtsBuilder::new(lts.alphabet().clone());
        let mut q = 0u32;
        while (q as usize) < sus.num_discovered() {
            if sus.num_discovered() > limit {
                return Err(TooLarge { limit });
            }
            let succ = sus.successors(q).to_vec();
            for (l, t) in succ {
                b.add_transition(q, l, t);
            }
            q += 1;
        }
        if sus.num_discovered() > limit {
            return Err(TooLarge { limit });
        }
        let n = sus.num_discovered();
        b.ensure_states(n);
        b.add_initial(0);
        let sets: Vec<Vec<State>> = (0..n as SaState).map(|q| sus.set(q).to_vec()).collect();
        let names = sets
            .iter()
            .map(|s| {
                let inner: Vec<String> = s.iter().map(|&x| lts.state_name(x)).collect();
                format!("{{{}}}", inner.join(","))
            })
            .collect();
        b.set_state_names(names);
        b.set_explicit_delta(true);
        Ok(SuspensionAutomaton {
            lts: b.build().expect("suspension automaton is well formed"),
            sets,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::label::LabelKind::{Input as I, Output as O};

    /// Tutorial Ex. 4.11 (reconstructed): s0 -a?-> s1, s0 -a?-> s2, s1 -b!-> s3.
    fn ex_4_11() -> Lts {
        let mut b = LtsBuilder::new(Alphabet::new());
        b.add_states(4);
        b.add_initial(0);
        b.add(0, "a", I, 1).unwrap();
        b.add(0, "a", I, 2).unwrap();
        b.add(1, "b", O, 3).unwrap();
        b.build().unwrap()
    }

    #[test]
    fn delta_before_determinisation_ex_4_11() {
        let l = ex_4_11();
        let a = l.alphabet().lookup("a").unwrap();
        let b = l.alphabet().lookup("b").unwrap();
        let mut s = Suspension::new(&l, QuiescencePolicy::Stable);
        let q1 = s.run(&[a]).unwrap();
        assert_eq!(s.set(q1), &[1, 2]);
        // det(δ(A)) has a?·δ, leading to {s2}
        let q2 = s.step(q1, Label::DELTA).unwrap();
        assert_eq!(s.set(q2), &[2]);
        // ... but not a?·δ·b!
        assert!(s.run(&[a, Label::DELTA, b]).is_none());
        assert_eq!(s.out(q1), vec![Label::DELTA, b]);
        // δ·δ = δ: the δ-successor of a quiescent set is itself
        assert_eq!(s.step(q2, Label::DELTA), Some(q2));
    }

    #[test]
    fn tau_closure_and_policies() {
        // s0 -τ-> s1 -b!-> s0 ; s0 has no output.
        let mut bld = LtsBuilder::new(Alphabet::new());
        bld.add_states(2);
        bld.add_initial(0);
        bld.add_transition(0, Label::TAU, 1);
        bld.add(1, "b", O, 0).unwrap();
        let l = bld.build().unwrap();
        let mut st = Suspension::new(&l, QuiescencePolicy::Stable);
        assert_eq!(st.set(0), &[0, 1]);
        assert!(!st.is_quiescent(0));
        let mut no = Suspension::new(&l, QuiescencePolicy::NoOutput);
        assert!(no.is_quiescent(0));
    }

    #[test]
    fn full_build_is_deterministic_with_delta() {
        let l = ex_4_11();
        let sa = SuspensionAutomaton::build(&l, QuiescencePolicy::Stable);
        assert!(sa.lts.is_deterministic());
        assert!(sa.lts.has_explicit_delta());
        // {0} -a-> {1,2} -b-> {3}, {1,2} -δ-> {2}, {0}: quiescent (δ loop), {2},{3} δ loops
        assert_eq!(sa.lts.num_states(), 4);
        assert_eq!(sa.sets[1], vec![1, 2]);
        assert!(SuspensionAutomaton::build_with_limit(&l, QuiescencePolicy::Stable, 2).is_err());
        // Building the suspension automaton of a suspension automaton changes nothing.
        let again = SuspensionAutomaton::build(&sa.lts, QuiescencePolicy::Stable);
        assert_eq!(again.lts.num_states(), sa.lts.num_states());
        assert_eq!(again.lts.num_transitions(), sa.lts.num_transitions());
    }
}
