//! Labelled transition systems with inputs and outputs (tutorial Def. 4.1; thesis Def. 2.1).
//!
//! Storage is compact and index based: states are `u32`, the transition relation is kept in
//! compressed sparse rows (CSR) with each state's edges sorted by `(label, target)`, so
//! "successors of `s` under `a`" is a binary search and never a hash lookup on a string.
//!
//! An [`Lts`] has a non-empty *set* of initial states (tutorial Def. 4.1). τ is
//! [`Label::TAU`]. An `Lts` may already contain explicit δ transitions ([`Label::DELTA`]), e.g. when
//! it was read from a file that writes them or when it is a suspension automaton; see
//! [`Lts::has_explicit_delta`].

use crate::label::{Alphabet, Label, LabelKind};
use serde::{Deserialize, Serialize};

/// A state index.
pub type State = u32;

/// One outgoing transition.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub struct Edge {
    /// The action.
    pub label: Label,
    /// The target state.
    pub target: State,
}

/// When a state counts as quiescent. See ARCHITECTURE.md, "Quiescence and divergence".
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum QuiescencePolicy {
    /// Tretmans' classic definition (and TorXakis's, JTorX's): a state is quiescent when it
    /// enables no output **and no τ** (it is *stable*). A τ-cycle from which an output is
    /// reachable by τ-steps is assumed to be left (strong fairness, tutorial P1:L295); one from
    /// which none is reachable is quiescent, as a tester's time-out sees it
    /// ([`crate::divergence`]).
    #[default]
    Stable,
    /// The tutorial's Def. 4.7: a state is quiescent when it enables no output; τ is ignored,
    /// so a state whose only moves are τ (e.g. on a τ-loop) is quiescent.
    NoOutput,
}

/// A labelled transition system.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lts {
    alphabet: Alphabet,
    initial: Vec<State>,
    /// `offsets[s]..offsets[s+1]` indexes `edges` for state `s`; length `num_states + 1`.
    offsets: Vec<u32>,
    edges: Vec<Edge>,
    /// Optional human names of states (from a file), indexed by state.
    names: Option<Vec<String>>,
    /// Whether quiescence is explicit: the LTS is a QLTS (tutorial Def. 4.8) whose δ
    /// transitions say exactly where quiescence may be observed. True when some transition is
    /// labelled δ or the builder was told so ([`LtsBuilder::set_explicit_delta`]).
    explicit_delta: bool,
    /// Per state: silently divergent ([`crate::divergence`]), computed on first use.
    #[serde(skip)]
    silent: Silent,
}

/// The silently divergent states of an [`Lts`], computed once; never part of its identity.
#[derive(Clone, Debug, Default)]
struct Silent(std::sync::OnceLock<Vec<bool>>);

impl PartialEq for Silent {
    fn eq(&self, _: &Silent) -> bool {
        true // derived from the rest of the LTS
    }
}

impl Eq for Silent {}

impl Lts {
    /// The label table.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// The number of states.
    #[inline]
    pub fn num_states(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The number of transitions (τ and explicit δ included).
    #[inline]
    pub fn num_transitions(&self) -> usize {
        self.edges.len()
    }

    /// The initial states (non-empty, sorted, no duplicates).
    #[inline]
    pub fn initial(&self) -> &[State] {
        &self.initial
    }

    /// All states.
    pub fn states(&self) -> impl Iterator<Item = State> {
        0..self.num_states() as State
    }

    /// The outgoing edges of `s`, sorted by `(label, target)`.
    #[inline]
    pub fn edges(&self, s: State) -> &[Edge] {
        let a = self.offsets[s as usize] as usize;
        let b = self.offsets[s as usize + 1] as usize;
        &self.edges[a..b]
    }

    /// All transitions as `(source, label, target)`.
    pub fn transitions(&self) -> impl Iterator<Item = (State, Label, State)> + '_ {
        self.states()
            .flat_map(move |s| self.edges(s).iter().map(move |e| (s, e.label, e.target)))
    }

    /// The edges of `s` labelled `l` (a sub-slice, found by binary search).
    #[inline]
    pub fn edges_with(&self, s: State, l: Label) -> &[Edge] {
        let es = self.edges(s);
        let lo = es.partition_point(|e| e.label < l);
        let hi = lo + es[lo..].partition_point(|e| e.label == l);
        &es[lo..hi]
    }

    /// The `l`-successors of `s`.
    pub fn successors(&self, s: State, l: Label) -> impl Iterator<Item = State> + '_ {
        self.edges_with(s, l).iter().map(|e| e.target)
    }

    /// True when `s` has an `l`-transition.
    #[inline]
    pub fn enables(&self, s: State, l: Label) -> bool {
        !self.edges_with(s, l).is_empty()
    }

    /// The distinct labels enabled in `s` (τ included), in label order.
    pub fn enabled(&self, s: State) -> impl Iterator<Item = Label> + '_ {
        let es = self.edges(s);
        es.iter()
            .enumerate()
            .filter(move |(i, e)| *i == 0 || es[i - 1].label != e.label)
            .map(|(_, e)| e.label)
    }

    /// The name of a state: its name from the file if there was one, else its index.
    pub fn state_name(&self, s: State) -> String {
        match &self.names {
            Some(n) => n[s as usize].clone(),
            None => s.to_string(),
        }
    }

    /// State names from the file, if any.
    pub fn state_names(&self) -> Option<&[String]> {
        self.names.as_deref()
    }

    /// True when `s` enables some output (δ excluded).
    pub fn has_output(&self, s: State) -> bool {
        self.edges(s)
            .iter()
            .any(|e| self.alphabet.kind(e.label) == LabelKind::Output)
    }

    /// True when `s` enables τ.
    #[inline]
    pub fn has_tau(&self, s: State) -> bool {
        // τ is label 0 and edges are sorted by label: the first edge says it
        self.edges(s).first().is_some_and(|e| e.label == Label::TAU)
    }

    /// Quiescence of a single state under `policy` (tutorial Def. 4.7; Tretmans' stable form,
    /// where a state on a τ-cycle from which no output is reachable by τ-steps is quiescent too:
    /// [`crate::divergence`]). In an LTS with explicit δ transitions, a state is quiescent iff
    /// it has a δ transition.
    pub fn is_quiescent(&self, s: State, policy: QuiescencePolicy) -> bool {
        if self.has_explicit_delta() {
            return self.enables(s, Label::DELTA);
        }
        match policy {
            QuiescencePolicy::Stable => {
                !self.has_output(s) && (!self.has_tau(s) || self.is_silently_divergent(s))
            }
            QuiescencePolicy::NoOutput => !self.has_output(s),
        }
    }

    /// True when `s` lies on a τ-cycle from which no output is reachable by τ-steps
    /// ([`crate::divergence`]).
    pub fn is_silently_divergent(&self, s: State) -> bool {
        self.silent
            .0
            .get_or_init(|| crate::divergence::silently_divergent(self))
            .get(s as usize)
            .copied()
            .unwrap_or(false)
    }

    /// True when quiescence is explicit (a QLTS, tutorial Def. 4.8): δ transitions say where
    /// quiescence may be observed, and a state without one is never quiescent. Suspension
    /// automata are always explicit, even when no state of them is quiescent.
    pub fn has_explicit_delta(&self) -> bool {
        self.explicit_delta
    }

    /// Number of τ transitions.
    pub fn num_tau(&self) -> usize {
        self.edges.iter().filter(|e| e.label.is_tau()).count()
    }

    /// States in which some input is not enabled, with the first missing input
    /// (tutorial P1:L151: inputs must be enabled *directly*, not after τ).
    pub fn input_enabledness_violations(&self) -> Vec<(State, Label)> {
        let inputs: Vec<Label> = self.alphabet.inputs().collect();
        let mut out = Vec::new();
        for s in self.states() {
            if let Some(&a) = inputs.iter().find(|&&a| !self.enables(s, a)) {
                out.push((s, a));
            }
        }
        out
    }

    /// For each state, the inputs it enables weakly (tutorial Def. 4.3's input-enabled IOTS:
    /// `s =a=>`, after internal steps): the inputs in alphabet order, and one bit set per
    /// state over their positions (`words` 64-bit words each). The sets flow backwards along
    /// τ-edges until nothing changes: O(τ-edges × words) per change, so linear in practice.
    fn weak_inputs(&self) -> (Vec<Label>, usize, Vec<u64>) {
        let inputs: Vec<Label> = self.alphabet.inputs().collect();
        let words = inputs.len().div_ceil(64).max(1);
        let n = self.num_states();
        let mut position = vec![u32::MAX; self.alphabet.len() + 1];
        for (i, a) in inputs.iter().enumerate() {
            if a.index() < position.len() {
                position[a.index()] = i as u32;
            }
        }
        let mut bits = vec![0u64; n * words];
        let mut tau_pred: Vec<Vec<State>> = vec![Vec::new(); n];
        for s in self.states() {
            for e in self.edges(s) {
                if e.label.is_tau() {
                    tau_pred[e.target as usize].push(s);
                } else if let Some(&i) = position.get(e.label.index()) {
                    if i != u32::MAX {
                        bits[s as usize * words + i as usize / 64] |= 1 << (i % 64);
                    }
                }
            }
        }
        let mut todo: Vec<State> = self
            .states()
            .filter(|&t| !tau_pred[t as usize].is_empty())
            .collect();
        let mut queued = vec![false; n];
        for &t in &todo {
            queued[t as usize] = true;
        }
        while let Some(t) = todo.pop() {
            queued[t as usize] = false;
            for &p in &tau_pred[t as usize] {
                let mut changed = false;
                for w in 0..words {
                    let from = bits[t as usize * words + w];
                    let to = &mut bits[p as usize * words + w];
                    if *to | from != *to {
                        *to |= from;
                        changed = true;
                    }
                }
                if changed && !queued[p as usize] {
                    queued[p as usize] = true;
                    todo.push(p);
                }
            }
        }
        (inputs, words, bits)
    }

    /// The (state, input) pairs where the input is not enabled even after internal steps
    /// (`not s =a=>`): what makes the LTS not an input-enabled IOTS (tutorial Def. 4.3).
    pub fn weak_input_enabledness_violations(&self) -> Vec<(State, Label)> {
        let (inputs, words, bits) = self.weak_inputs();
        let mut out = Vec::new();
        for s in self.states() {
            for (i, &a) in inputs.iter().enumerate() {
                if bits[s as usize * words + i / 64] & (1 << (i % 64)) == 0 {
                    out.push((s, a));
                }
            }
        }
        out
    }

    /// Angelic completion of the weakly missing inputs: an input that a state does not
    /// enable even after internal steps becomes a self-loop there. Unlike
    /// [`Lts::angelic_completion`], a state that reaches the input through τ is left as it is
    /// (a self-loop there would add behaviour: the input taken before the internal step).
    pub fn weak_angelic_completion(&self) -> Lts {
        let mut b = self.clone().into_builder();
        for (s, a) in self.weak_input_enabledness_violations() {
            b.add_transition(s, a, s);
        }
        b.build().expect("completion keeps a valid LTS")
    }

    /// Input-enabled: every state enables every input directly.
    pub fn is_input_enabled(&self) -> bool {
        self.input_enabledness_violations().is_empty()
    }

    /// Deterministic (tutorial P1:L151): one initial state, no τ, at most one successor per label.
    pub fn is_deterministic(&self) -> bool {
        self.initial.len() == 1
            && self.states().all(|s| {
                let es = self.edges(s);
                es.iter().all(|e| !e.label.is_tau())
                    && es.windows(2).all(|w| w[0].label != w[1].label)
            })
    }

    /// States reachable from the initial states by any path.
    pub fn reachable(&self) -> Vec<bool> {
        let mut seen = vec![false; self.num_states()];
        let mut stack: Vec<State> = self.initial.clone();
        for &s in &self.initial {
            seen[s as usize] = true;
        }
        while let Some(s) = stack.pop() {
            for e in self.edges(s) {
                if !seen[e.target as usize] {
                    seen[e.target as usize] = true;
                    stack.push(e.target);
                }
            }
        }
        seen
    }

    /// A builder holding this LTS (alphabet, states, transitions, names, δ-explicitness), to
    /// derive a modified copy.
    pub fn into_builder(self) -> LtsBuilder {
        let mut b = LtsBuilder::new(self.alphabet.clone());
        b.add_states(self.num_states());
        for (s, l, t) in self.transitions() {
            b.add_transition(s, l, t);
        }
        for &i in &self.initial {
            b.add_initial(i);
        }
        b.names = self.names;
        b.explicit_delta = self.explicit_delta;
        b
    }

    /// Angelic completion (tutorial Lemma A.1; thesis "angelic completion"): every input that
    /// is not enabled in a state becomes a self-loop. The result is input-enabled.
    pub fn angelic_completion(&self) -> Lts {
        let inputs: Vec<Label> = self.alphabet.inputs().collect();
        let mut b = self.clone().into_builder();
        for s in self.states() {
            for &a in &inputs {
                if !self.enables(s, a) {
                    b.add_transition(s, a, s);
                }
            }
        }
        b.build().expect("completion keeps a valid LTS")
    }

    /// Demonic completion X(S) (thesis Def. 2.10): every missing input goes to a fresh chaos
    /// state χ, which has self-loops for every input, every output and δ. Returns the completed
    /// LTS and χ. Intended for suspension automata (explicit δ); χ gets a δ self-loop so that it
    /// allows quiescence too.
    pub fn demonic_completion(&self) -> (Lts, State) {
        let inputs: Vec<Label> = self.alphabet.inputs().collect();
        let mut b = self.clone().into_builder();
        let chaos = b.add_state();
        if let Some(names) = b.names.as_mut() {
            names.push("χ".to_string());
        }
        for s in self.states() {
            for &a in &inputs {
                if !self.enables(s, a) {
                    b.add_transition(s, a, chaos);
                }
            }
        }
        for l in self.alphabet.visible() {
            b.add_transition(chaos, l, chaos);
        }
        b.add_transition(chaos, Label::DELTA, chaos);
        (b.build().expect("completion keeps a valid LTS"), chaos)
    }
}

/// Errors from [`LtsBuilder::build`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// No initial state was given.
    NoInitialState,
    /// A transition or initial state names a state that does not exist.
    StateOutOfRange {
        /// The offending state.
        state: State,
        /// The number of states.
        num_states: usize,
    },
    /// A label index is not in the alphabet.
    LabelOutOfRange(Label),
    /// More than `u32::MAX` transitions.
    TooManyTransitions,
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::NoInitialState => write!(f, "the LTS has no initial state"),
            BuildError::StateOutOfRange { state, num_states } => write!(
                f,
                "state {state} does not exist (the LTS has {num_states} states)"
            ),
            BuildError::LabelOutOfRange(l) => {
                write!(f, "label index {} is not in the alphabet", l.0)
            }
            BuildError::TooManyTransitions => write!(f, "more than 2^32 transitions"),
        }
    }
}

impl std::error::Error for BuildError {}

/// Builds an [`Lts`]. Transitions may be added in any order; duplicates are removed.
#[derive(Clone, Debug)]
pub struct LtsBuilder {
    alphabet: Alphabet,
    num_states: usize,
    initial: Vec<State>,
    triples: Vec<(State, Edge)>,
    names: Option<Vec<String>>,
    explicit_delta: bool,
}

impl LtsBuilder {
    /// A builder over `alphabet`, with no states.
    pub fn new(alphabet: Alphabet) -> Self {
        LtsBuilder {
            alphabet,
            num_states: 0,
            initial: Vec::new(),
            triples: Vec::new(),
            names: None,
            explicit_delta: false,
        }
    }

    /// Declare quiescence explicit (see [`Lts::has_explicit_delta`]); implied by any δ edge.
    pub fn set_explicit_delta(&mut self, explicit: bool) {
        self.explicit_delta = explicit;
    }

    /// The alphabet, to intern labels while building.
    pub fn alphabet_mut(&mut self) -> &mut Alphabet {
        &mut self.alphabet
    }

    /// The alphabet.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// Add one state and return it.
    pub fn add_state(&mut self) -> State {
        self.num_states += 1;
        (self.num_states - 1) as State
    }

    /// Add `n` states; returns the first.
    pub fn add_states(&mut self, n: usize) -> State {
        let first = self.num_states;
        self.num_states += n;
        first as State
    }

    /// Ensure at least `n` states exist.
    pub fn ensure_states(&mut self, n: usize) {
        self.num_states = self.num_states.max(n);
    }

    /// The number of states so far.
    pub fn num_states(&self) -> usize {
        self.num_states
    }

    /// The number of transitions added so far (duplicates included).
    pub fn num_transitions(&self) -> usize {
        self.triples.len()
    }

    /// Mark `s` initial.
    pub fn add_initial(&mut self, s: State) {
        self.initial.push(s);
    }

    /// Give states names (must have one per state at build time; missing ones get their index).
    pub fn set_state_names(&mut self, names: Vec<String>) {
        self.names = Some(names);
    }

    /// Reserve room for `n` more transitions.
    pub fn reserve(&mut self, n: usize) {
        self.triples.reserve(n);
    }

    /// Add `s -l-> t`.
    pub fn add_transition(&mut self, s: State, l: Label, t: State) {
        self.triples.push((
            s,
            Edge {
                label: l,
                target: t,
            },
        ));
    }

    /// Intern `name` with `kind` and add `s -name-> t`.
    pub fn add(
        &mut self,
        s: State,
        name: &str,
        kind: LabelKind,
        t: State,
    ) -> Result<(), crate::label::KindConflict> {
        let l = self.alphabet.intern(name, kind)?;
        self.add_transition(s, l, t);
        Ok(())
    }

    /// Validate, sort into CSR form and return the LTS.
    pub fn build(mut self) -> Result<Lts, BuildError> {
        if self.initial.is_empty() {
            return Err(BuildError::NoInitialState);
        }
        let n = self.num_states;
        for &s in &self.initial {
            if s as usize >= n {
                return Err(BuildError::StateOutOfRange {
                    state: s,
                    num_states: n,
                });
            }
        }
        let nl = self.alphabet.len();
        for &(s, e) in &self.triples {
            if s as usize >= n {
                return Err(BuildError::StateOutOfRange {
                    state: s,
                    num_states: n,
                });
            }
            if e.target as usize >= n {
                return Err(BuildError::StateOutOfRange {
                    state: e.target,
                    num_states: n,
                });
            }
            if e.label.index() >= nl {
                return Err(BuildError::LabelOutOfRange(e.label));
            }
        }
        if self.triples.len() > u32::MAX as usize {
            return Err(BuildError::TooManyTransitions);
        }
        // Counting sort by source, then sort each row: O(m log d).
        let mut offsets = vec![0u32; n + 1];
        for &(s, _) in &self.triples {
            offsets[s as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut edges = vec![
            Edge {
                label: Label::TAU,
                target: 0
            };
            self.triples.len()
        ];
        for &(s, e) in &self.triples {
            let slot = &mut fill[s as usize];
            edges[*slot as usize] = e;
            *slot += 1;
        }
        drop(fill);
        self.triples = Vec::new();
        // Sort and deduplicate each row, compacting in place.
        let mut write = 0usize;
        let mut new_offsets = vec![0u32; n + 1];
        for s in 0..n {
            let (a, b) = (offsets[s] as usize, offsets[s + 1] as usize);
            let row = &mut edges[a..b];
            row.sort_unstable();
            let mut last: Option<Edge> = None;
            for i in a..b {
                let e = edges[i];
                if last != Some(e) {
                    edges[write] = e;
                    write += 1;
                    last = Some(e);
                }
            }
            new_offsets[s + 1] = write as u32;
        }
        edges.truncate(write);
        edges.shrink_to_fit();
        self.initial.sort_unstable();
        self.initial.dedup();
        let names = self.names.map(|mut v| {
            let len = v.len();
            if len < n {
                v.extend((len..n).map(|i| i.to_string()));
            }
            v.truncate(n);
            v
        });
        let explicit_delta = self.explicit_delta || edges.iter().any(|e| e.label == Label::DELTA);
        Ok(Lts {
            explicit_delta,
            silent: Silent::default(),
            alphabet: self.alphabet,
            initial: self.initial,
            offsets: new_offsets,
            edges,
            names,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Lts {
        let mut b = LtsBuilder::new(Alphabet::new());
        let s0 = b.add_state();
        let s1 = b.add_state();
        b.add_initial(s0);
        b.add(s0, "a", LabelKind::Input, s1).unwrap();
        b.add(s1, "b", LabelKind::Output, s0).unwrap();
        b.add(s1, "b", LabelKind::Output, s0).unwrap();
        b.add_transition(s1, Label::TAU, s1);
        b.build().unwrap()
    }

    #[test]
    fn csr_sorts_and_dedups() {
        let l = small();
        assert_eq!(l.num_states(), 2);
        assert_eq!(l.num_transitions(), 3);
        let b = l.alphabet().lookup("b").unwrap();
        assert_eq!(l.successors(1, b).collect::<Vec<_>>(), vec![0]);
        assert!(l.has_tau(1));
        assert!(!l.is_deterministic());
        assert!(l.is_quiescent(0, QuiescencePolicy::Stable));
        assert!(!l.is_quiescent(1, QuiescencePolicy::NoOutput));
        assert_eq!(l.enabled(1).count(), 2);
    }

    #[test]
    fn out_of_range_is_an_error_not_a_panic() {
        let mut b = LtsBuilder::new(Alphabet::new());
        b.add_state();
        b.add_initial(0);
        b.add_transition(0, Label::TAU, 5);
        assert!(matches!(
            b.build(),
            Err(BuildError::StateOutOfRange { state: 5, .. })
        ));
        let b = LtsBuilder::new(Alphabet::new());
        assert_eq!(b.build().unwrap_err(), BuildError::NoInitialState);
    }

    #[test]
    fn completions() {
        let l = small();
        let a = l.alphabet().lookup("a").unwrap();
        let ang = l.angelic_completion();
        assert!(ang.is_input_enabled());
        assert_eq!(ang.successors(1, a).collect::<Vec<_>>(), vec![1]);
        let (dem, chaos) = l.demonic_completion();
        assert!(dem.is_input_enabled());
        assert_eq!(dem.successors(1, a).collect::<Vec<_>>(), vec![chaos]);
        assert!(dem.enables(chaos, Label::DELTA));
    }
}
