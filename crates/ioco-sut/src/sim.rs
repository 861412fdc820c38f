//! A model as the system under test: any [`Lts`] simulated with seeded random choices, for
//! experiments, mutants and the soundness property test.
//!
//! The simulator is in one concrete state at a time (not a set). Its behaviour:
//! * [`Sut::observe`]: it takes random spontaneous moves: τ (then continues), an output
//!   (returned), or δ when the state is quiescent under the [`QuiescencePolicy`] (or has an
//!   explicit δ transition, which it follows). A state with τ moves and no output is quiescent
//!   only under [`QuiescencePolicy::NoOutput`]; under `Stable` the simulator moves on by τ. After
//!   [`SimOptions::max_tau`] τ-steps in a row it reports quiescence (a divergence ended by a
//!   time-out, tutorial P1:L295).
//! * [`Sut::send`]: if the state enables an output, with probability
//!   [`SimOptions::race`] the output "was faster" and is returned as [`Sent::Raced`]; otherwise
//!   the input is taken (a random target among several). Before it, the simulator may take
//!   τ-steps (with probability 1/2 where the input is enabled already, always where it is
//!   enabled only after τ-steps): a simulated implementation can take any of its moves. An
//!   input that no τ-path enables is ignored (angelic completion, tutorial Lemma A.1: how a
//!   program that discards unexpected input behaves).
//! * [`Sut::reset`]: a random initial state.
//!
//! Labels are matched by name with the specification's alphabet; an output of the
//! implementation model that the specification does not know is reported as
//! [`SutError::UnknownOutput`].

use super::{Observation, Sent, Sut, SutError};
use ioco_model::{Alphabet, Label, LabelKind, Lts, QuiescencePolicy, State};
use rand::distr::Bernoulli;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::time::Duration;

/// Options of the [`Simulator`].
#[derive(Copy, Clone, Debug)]
pub struct SimOptions {
    /// Quiescence policy of the implementation model.
    pub policy: QuiescencePolicy,
    /// Probability that an enabled output races ahead of an input.
    pub race: f64,
    /// τ-steps in a row after which the simulator reports quiescence.
    pub max_tau: usize,
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            policy: QuiescencePolicy::Stable,
            race: 0.25,
            max_tau: 1000,
        }
    }
}

/// An LTS run as a SUT.
pub struct Simulator {
    imp: Arc<Lts>,
    opts: SimOptions,
    /// Specification label → implementation label (inputs).
    to_imp: Vec<Option<Label>>,
    /// The current state, as the position of its record in `moves`.
    at: u32,
    rng: ChaCha8Rng,
    /// The coin of the input/output race ([`SimOptions::race`]), made once.
    race: Bernoulli,
    /// Per state, one record: `[n_out, n_spont, n_in | TAU_FLAG, (label, target
    /// record)...]` with the outputs first, then τ and δ (the spontaneous moves), then the
    /// input edges, targets given by the position of their record: a step reads one stretch of
    /// memory. Labels are the *specification's* (translated once here, not per step): an
    /// output the specification does not know is `UNKNOWN | implementation label`, an input
    /// it does not know [`NO_INPUT`]. [`TAU_FLAG`]: the state has a τ-move (an input may
    /// first need internal steps, [`Simulator::tau_before`]); without it an input is one look.
    moves: Vec<u32>,
    /// Per state, the position of its record.
    record: Vec<u32>,
}

/// States looked at when searching τ-paths before an input, once one that enables it has been
/// found (until then the search goes on: ignoring an input that internal steps lead to would be
/// behaviour `compare` does not allow).
const MAX_TAU_SEARCH: usize = 256;

/// The words of a record of `moves` before its moves.
const HEAD: usize = 3;
/// In the record's third word: the state has a τ-move.
const TAU_FLAG: u32 = 1 << 31;
/// An output of the implementation the specification does not know: this bit and the
/// implementation's label.
const UNKNOWN: u32 = 1 << 31;
/// An input of the implementation the specification does not know (never given).
const NO_INPUT: u32 = u32::MAX;

impl Simulator {
    /// Simulate `imp`, speaking the labels of `spec_alphabet`.
    pub fn new(imp: impl Into<Arc<Lts>>, spec_alphabet: &Alphabet, opts: SimOptions) -> Simulator {
        let imp = imp.into();
        let to_imp = spec_alphabet.translation_to(imp.alphabet());
        let to_spec = imp.alphabet().translation_to(spec_alphabet);
        // Precompute every state's moves: outputs, τ and δ (explicit or by policy), inputs.
        let lts = &*imp;
        let kind = |e: &ioco_model::Edge| lts.alphabet().kind(e.label);
        let spont =
            |e: &ioco_model::Edge| matches!(kind(e), LabelKind::Internal | LabelKind::Quiescence);
        let mut record = Vec::with_capacity(lts.num_states());
        let mut lists = Vec::with_capacity(lts.num_states());
        let mut len = 0usize;
        for s in lts.states() {
            let edges = lts.edges(s);
            let mut m: Vec<(Label, State)> = Vec::new();
            m.extend(
                edges
                    .iter()
                    .filter(|e| kind(e) == LabelKind::Output)
                    .map(|e| (e.label, e.target)),
            );
            let n_out = m.len();
            m.extend(
                edges
                    .iter()
                    .filter(|e| spont(e))
                    .map(|e| (e.label, e.target)),
            );
            if !lts.has_explicit_delta() && lts.is_quiescent(s, opts.policy) {
                m.push((Label::DELTA, s));
            }
            let n_spont = m.len();
            m.extend(
                edges
                    .iter()
                    .filter(|e| kind(e) == LabelKind::Input)
                    .map(|e| (e.label, e.target)),
            );
            let n_in = m.len() - n_spont;
            record.push(len as u32);
            len += HEAD + 2 * m.len();
            lists.push((n_out, n_spont, n_in, m));
        }
        // the specification's label of a move (see `moves`)
        let spec_label = |k: usize, l: Label, n_out: usize, n_spont: usize| -> u32 {
            if k >= n_out && k < n_spont {
                return l.0; // τ or δ: the same in every alphabet
            }
            match to_spec[l.index()] {
                Some(x) if k < n_out => x.0,
                None if k < n_out => UNKNOWN | l.0,
                Some(x) if to_imp.get(x.index()) == Some(&Some(l)) => x.0,
                _ => NO_INPUT,
            }
        };
        let mut moves = Vec::with_capacity(len);
        for (n_out, n_spont, n_in, m) in lists {
            let tau = m[n_out..n_spont].iter().any(|(l, _)| l.is_tau());
            let flags = if tau { TAU_FLAG } else { 0 };
            moves.extend([n_out as u32, n_spont as u32, n_in as u32 | flags]);
            for (k, (l, t)) in m.into_iter().enumerate() {
                moves.extend([spec_label(k, l, n_out, n_spont), record[t as usize]]);
            }
        }
        let at = record[imp.initial()[0] as usize];
        Simulator {
            imp,
            opts,
            to_imp,
            at,
            rng: ChaCha8Rng::seed_from_u64(0),
            race: Bernoulli::new(opts.race.clamp(0.0, 1.0)).expect("a probability in [0, 1]"),
            moves,
            record,
        }
    }

    /// The current state of the implementation model (records are laid out in the order of
    /// the states).
    pub fn state(&self) -> State {
        self.record.partition_point(|&r| r <= self.at) as State - 1
    }

    /// The `k`-th move of the current state: (label, target record).
    #[inline]
    fn move_at(&self, k: usize) -> (Label, u32) {
        let i = self.at as usize + HEAD + 2 * k;
        (Label(self.moves[i]), self.moves[i + 1])
    }

    /// The inputs of the state whose record is at `r`: how many.
    #[inline(always)]
    fn n_in(&self, r: usize) -> usize {
        (self.moves[r + 2] & !TAU_FLAG) as usize
    }

    /// Whether the state whose record is at `r` enables input `a` (a specification label).
    fn enables(&self, r: u32, a: Label) -> bool {
        let r = r as usize;
        let (n_spont, n_in) = (self.moves[r + 1] as usize, self.n_in(r));
        self.moves[r + HEAD + 2 * n_spont..r + HEAD + 2 * (n_spont + n_in)]
            .chunks_exact(2)
            .any(|e| e[0] == a.0)
    }

    /// Before input `a`: move by τ-steps to a state that enables `a`, chosen at random among
    /// the τ-reachable ones (at most [`MAX_TAU_SEARCH`] looked at once one enables `a`, the
    /// whole τ-closure if needed to find one); stay where `a` is enabled
    /// already with probability 1/2 (or when no τ-step leads elsewhere). A state from which no
    /// τ-path enables `a` stays (the input is then ignored: angelic completion).
    #[cold]
    #[inline(never)]
    fn tau_before(&mut self, a: Label) {
        let here = self.at;
        if self.enables(here, a) && self.rng.random_bool(0.5) {
            return;
        }
        let mut seen = vec![here];
        // membership by a linear scan while the search is small, a set once it is large
        let mut member: Option<std::collections::HashSet<u32>> = None;
        let mut next = 0;
        let mut found = self.enables(here, a);
        while next < seen.len() && (seen.len() < MAX_TAU_SEARCH || !found) {
            let r = seen[next] as usize;
            next += 1;
            found = found || self.enables(r as u32, a);
            let (n_out, n_spont) = (self.moves[r] as usize, self.moves[r + 1] as usize);
            for k in n_out..n_spont {
                let (l, t) = (
                    Label(self.moves[r + HEAD + 2 * k]),
                    self.moves[r + HEAD + 2 * k + 1],
                );
                if !l.is_tau() {
                    continue;
                }
                if member.is_none() && seen.len() >= MAX_TAU_SEARCH {
                    member = Some(seen.iter().copied().collect());
                }
                let new = match &mut member {
                    Some(m) => m.insert(t),
                    None => !seen.contains(&t),
                };
                if new {
                    seen.push(t);
                }
            }
        }
        let enabling: Vec<u32> = seen.into_iter().filter(|&r| self.enables(r, a)).collect();
        if !enabling.is_empty() {
            self.at = enabling[self.rng.random_range(0..enabling.len())];
        }
    }

    /// The output of a move's label (see `moves`).
    #[inline(always)]
    fn output(&self, l: Label) -> Result<Label, SutError> {
        if l.0 & UNKNOWN == 0 {
            Ok(l)
        } else {
            Err(self.unknown(Label(l.0 & !UNKNOWN)))
        }
    }

    /// [`Sut::send`] where an output of the `n_out` of this state is faster than the input
    /// (the race coin came up): a random one of them.
    #[inline(never)]
    fn race_ahead(&mut self, n_out: usize) -> Result<Sent, SutError> {
        let k = self.rng.random_range(0..n_out);
        let (l, t) = self.move_at(k);
        self.at = t;
        super::prefetch(&self.moves[t as usize]);
        Ok(Sent::Raced(self.output(l)?))
    }

    /// An output of the implementation (its label `l`) the specification does not know.
    #[cold]
    #[inline(never)]
    fn unknown(&self, l: Label) -> SutError {
        SutError::UnknownOutput {
            line: self.imp.alphabet().name(l).to_string(),
        }
    }

    /// [`Sut::observe`] from the state's τ-move `l` on, already taken: more spontaneous moves
    /// until an output or δ (at most [`SimOptions::max_tau`] τ-steps in all).
    #[cold]
    #[inline(never)]
    fn observe_after_tau(&mut self) -> Result<Observation, SutError> {
        for _ in 0..self.opts.max_tau {
            let n_spont = self.moves[self.at as usize + 1] as usize;
            let (l, t) = match n_spont {
                0 => return Ok(Observation::Quiescent),
                1 => self.move_at(0),
                n => {
                    let k = self.rng.random_range(0..n);
                    self.move_at(k)
                }
            };
            self.at = t;
            super::prefetch(&self.moves[t as usize]);
            if l == Label::DELTA {
                return Ok(Observation::Quiescent);
            }
            if !l.is_tau() {
                return Ok(Observation::Output(self.output(l)?));
            }
        }
        Ok(Observation::Quiescent)
    }
}

impl Sut for Simulator {
    fn reset(&mut self) -> Result<(), SutError> {
        let init = self.imp.initial();
        self.at = self.record[init[self.rng.random_range(0..init.len())] as usize];
        Ok(())
    }

    // inline: where the loop is made for the simulator (`ioco_exec::run_online_with`, `ioco
    // test --sim`) its steps inline into Alg. 2's loop (issue #30 item 4)
    #[inline]
    fn send(&mut self, input: Label) -> Result<Sent, SutError> {
        let at = self.at as usize;
        let n_out = self.moves[at] as usize;
        if n_out > 0 && self.rng.sample(self.race) {
            return self.race_ahead(n_out);
        }
        // τ before the input: the implementation may take internal steps first, and must
        // where the input is enabled only after them.
        if self.moves[at + 2] & TAU_FLAG != 0 {
            if self.to_imp.get(input.index()).copied().flatten().is_none() {
                return Ok(Sent::Accepted); // an input the implementation does not know: ignored
            }
            self.tau_before(input);
        }
        // (an input the implementation does not know is in no record: ignored below)
        let at = self.at as usize;
        let n_spont = self.moves[at + 1] as usize;
        let n_in = self.n_in(at);
        // The input edges (label, target record), sorted by the implementation's label: the
        // ones labelled `input` are a run from `lo`, `n` long.
        let ins = &self.moves[at + HEAD + 2 * n_spont..at + HEAD + 2 * (n_spont + n_in)];
        let mut edges = ins.chunks_exact(2);
        let Some(lo) = edges.position(|e| e[0] == input.0) else {
            return Ok(Sent::Accepted); // not enabled: ignored (angelic completion)
        };
        // most inputs have one edge: no count, no draw then
        let k = match edges.next() {
            Some(e) if e[0] == input.0 => {
                let n = 2 + edges.take_while(|e| e[0] == input.0).count();
                self.rng.random_range(0..n)
            }
            _ => 0,
        };
        self.at = ins[2 * (lo + k) + 1];
        super::prefetch(&self.moves[self.at as usize]);
        Ok(Sent::Accepted)
    }

    fn timed(&self) -> bool {
        false
    }

    #[inline]
    fn observe(&mut self, _timeout: Option<Duration>) -> Result<Observation, SutError> {
        // the first spontaneous move here; more after a τ-move out of line (the same draws)
        let n_spont = self.moves[self.at as usize + 1] as usize;
        let (l, t) = match n_spont {
            0 => return Ok(Observation::Quiescent),
            1 => self.move_at(0),
            n => {
                let k = self.rng.random_range(0..n);
                self.move_at(k)
            }
        };
        self.at = t;
        super::prefetch(&self.moves[t as usize]);
        if l == Label::DELTA {
            Ok(Observation::Quiescent)
        } else if !l.is_tau() {
            Ok(Observation::Output(self.output(l)?))
        } else {
            self.observe_after_tau()
        }
    }

    fn close(&mut self) -> Result<(), SutError> {
        Ok(())
    }

    fn set_seed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_5eed_5eed_5eed);
    }
}

/// A factory of simulators of `imp` (one per worker), speaking the labels of `spec_alphabet`:
/// what `ioco_exec::run_online` and `ioco_exec::run_suite` take to test a model against a model.
pub fn factory(
    imp: impl Into<Arc<Lts>>,
    spec_alphabet: &Alphabet,
    opts: SimOptions,
) -> impl Fn(usize) -> Result<Box<dyn Sut + Send>, SutError> + Sync {
    let imp = imp.into();
    let alpha = spec_alphabet.clone();
    move |_| Ok(Box::new(Simulator::new(Arc::clone(&imp), &alpha, opts)) as Box<dyn Sut + Send>)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ioco_model::LtsBuilder;

    /// An input enabled only at the end of a τ-path longer than [`MAX_TAU_SEARCH`] is still
    /// taken (the model is input-enabled weakly, and `compare` does not complete it there):
    /// the simulator walks the path, takes `a?` and then outputs `done!`.
    #[test]
    fn an_input_after_a_long_internal_path_is_taken() {
        let n = 3 * MAX_TAU_SEARCH as u32;
        let mut al = Alphabet::new();
        let a = al.input("a").unwrap();
        let done = al.output("done").unwrap();
        let mut b = LtsBuilder::new(al);
        b.add_states(n as usize + 2);
        b.add_initial(0);
        for s in 0..n {
            b.add_transition(s, Label::TAU, s + 1);
        }
        b.add_transition(n, a, n + 1);
        b.add_transition(n + 1, done, n + 1);
        let lts = b.build().unwrap();
        assert!(lts
            .weak_input_enabledness_violations()
            .iter()
            .all(|&(s, _)| s == n + 1));
        let mut sim = Simulator::new(lts.clone(), lts.alphabet(), SimOptions::default());
        for _ in 0..5 {
            sim.reset().unwrap();
            assert_eq!(sim.send(a).unwrap(), Sent::Accepted);
            let seen = sim.observe(Some(Duration::from_millis(1))).unwrap();
            assert_eq!(seen, Observation::Output(done));
        }
    }
}
