//! A model as the system under test: any [`Lts`] simulated with seeded random choices, for
//! experiments, mutants and the soundness property test.
//!
//! The simulator is in one concrete state at a time (not a set). Its behaviour:
//! * [`Adapter::observe`]: it takes random spontaneous moves: τ (then continues), an output
//!   (returned), or δ when the state is quiescent under the [`QuiescencePolicy`] (or has an
//!   explicit δ transition, which it follows). A state with τ moves and no output is quiescent
//!   only under [`QuiescencePolicy::NoOutput`]; under `Stable` the simulator moves on by τ. After
//!   [`SimOptions::max_tau`] τ-steps in a row it reports quiescence (a divergence ended by a
//!   time-out, tutorial P1:L295).
//! * [`Adapter::send`]: if the state enables an output, with probability
//!   [`SimOptions::race`] the output "was faster" and is returned as [`Sent::Raced`]; otherwise
//!   the input is taken (a random target among several). An input the model does not enable is
//!   ignored (angelic completion, tutorial Lemma A.1: how a program that discards unexpected input
//!   behaves).
//! * [`Adapter::reset`]: a random initial state.
//!
//! Labels are matched by name with the specification's alphabet; an output of the
//! implementation model that the specification does not know is reported as
//! [`AdapterError::UnknownOutput`].

use super::{Adapter, AdapterError, Observation, Sent};
use ioco_model::{Alphabet, Label, LabelKind, Lts, QuiescencePolicy, State};
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
    /// Implementation label → specification label (outputs).
    to_spec: Vec<Option<Label>>,
    state: State,
    rng: ChaCha8Rng,
    /// Per state: where its moves start in `moves`, and how many outputs, spontaneous moves
    /// (outputs, τ, δ) and input edges it has. `moves` holds, per state, the outputs, then τ and
    /// δ, then the input edges: one record and one stretch of memory per step.
    table: Vec<(u32, u32, u32, u32)>,
    moves: Vec<(Label, State)>,
}

impl Simulator {
    /// Simulate `imp`, speaking the labels of `spec_alphabet`.
    pub fn new(imp: impl Into<Arc<Lts>>, spec_alphabet: &Alphabet, opts: SimOptions) -> Simulator {
        let imp = imp.into();
        let to_imp = spec_alphabet.translation_to(imp.alphabet());
        let to_spec = imp.alphabet().translation_to(spec_alphabet);
        let state = imp.initial()[0];
        // Precompute every state's moves: outputs, τ and δ (explicit or by policy), inputs.
        let lts = &*imp;
        let mut table = Vec::with_capacity(lts.num_states());
        let mut moves = Vec::new();
        for s in lts.states() {
            let edges = lts.edges(s);
            let start = moves.len();
            let of = |want: &[LabelKind]| {
                edges
                    .iter()
                    .filter(|e| want.contains(&lts.alphabet().kind(e.label)))
                    .map(|e| (e.label, e.target))
                    .collect::<Vec<_>>()
            };
            moves.extend(of(&[LabelKind::Output]));
            let n_out = moves.len() - start;
            moves.extend(of(&[LabelKind::Internal, LabelKind::Quiescence]));
            if !lts.has_explicit_delta() && lts.is_quiescent(s, opts.policy) {
                moves.push((Label::DELTA, s));
            }
            let n_spont = moves.len() - start;
            moves.extend(of(&[LabelKind::Input]));
            let n_in = moves.len() - start - n_spont;
            table.push((start as u32, n_out as u32, n_spont as u32, n_in as u32));
        }
        Simulator {
            imp,
            opts,
            to_imp,
            to_spec,
            state,
            rng: ChaCha8Rng::seed_from_u64(0),
            table,
            moves,
        }
    }

    /// The current state of the implementation model.
    pub fn state(&self) -> State {
        self.state
    }

    fn output(&self, l: Label) -> Result<Label, AdapterError> {
        self.to_spec[l.index()].ok_or_else(|| AdapterError::UnknownOutput {
            line: self.imp.alphabet().name(l).to_string(),
        })
    }
}

impl Adapter for Simulator {
    fn reset(&mut self) -> Result<(), AdapterError> {
        let init = self.imp.initial();
        self.state = init[self.rng.random_range(0..init.len())];
        Ok(())
    }

    fn send(&mut self, input: Label) -> Result<Sent, AdapterError> {
        let (start, n_out, n_spont, n_in) = self.table[self.state as usize];
        let start = start as usize;
        if n_out > 0 && self.rng.random_bool(self.opts.race.clamp(0.0, 1.0)) {
            let k = self.rng.random_range(0..n_out as usize);
            let (l, t) = self.moves[start + k];
            self.state = t;
            return Ok(Sent::Raced(self.output(l)?));
        }
        let Some(a) = self.to_imp.get(input.index()).copied().flatten() else {
            return Ok(Sent::Accepted); // an input the implementation does not know: ignored
        };
        let ins = &self.moves[start + n_spont as usize..start + (n_spont + n_in) as usize];
        let lo = ins.iter().take_while(|m| m.0 < a).count();
        let n = ins[lo..].iter().take_while(|m| m.0 == a).count();
        match n {
            0 => {} // not enabled: ignored (angelic completion)
            1 => self.state = ins[lo].1,
            n => self.state = ins[lo + self.rng.random_range(0..n)].1,
        }
        Ok(Sent::Accepted)
    }

    fn observe(&mut self, _timeout: Duration) -> Result<Observation, AdapterError> {
        for _ in 0..=self.opts.max_tau {
            let (start, _, n_spont, _) = self.table[self.state as usize];
            let start = start as usize;
            let (l, t) = match n_spont {
                0 => return Ok(Observation::Quiescent),
                1 => self.moves[start],
                n => self.moves[start + self.rng.random_range(0..n as usize)],
            };
            self.state = t;
            if l == Label::DELTA {
                return Ok(Observation::Quiescent);
            }
            if !l.is_tau() {
                return Ok(Observation::Output(self.output(l)?));
            }
        }
        Ok(Observation::Quiescent)
    }

    fn close(&mut self) -> Result<(), AdapterError> {
        Ok(())
    }

    fn set_seed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_5eed_5eed_5eed);
    }
}
