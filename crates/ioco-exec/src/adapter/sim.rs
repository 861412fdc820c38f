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
    /// Spontaneous moves of every state (outputs first, then τ, then δ), in CSR form:
    /// `moves[off[s]..off[s+1]]`, of which the first `n_out[s]` are outputs.
    off: Vec<u32>,
    moves: Vec<(Label, State)>,
    n_out: Vec<u32>,
}

impl Simulator {
    /// Simulate `imp`, speaking the labels of `spec_alphabet`.
    pub fn new(imp: impl Into<Arc<Lts>>, spec_alphabet: &Alphabet, opts: SimOptions) -> Simulator {
        let imp = imp.into();
        let to_imp = spec_alphabet.translation_to(imp.alphabet());
        let to_spec = imp.alphabet().translation_to(spec_alphabet);
        let state = imp.initial()[0];
        // Precompute every state's spontaneous moves: outputs, τ, δ (explicit or by policy).
        let lts = &*imp;
        let mut off = Vec::with_capacity(lts.num_states() + 1);
        let mut moves = Vec::new();
        let mut n_out = Vec::with_capacity(lts.num_states());
        off.push(0u32);
        for s in lts.states() {
            let kind = |l: Label| lts.alphabet().kind(l);
            let edges = lts.edges(s);
            let before = moves.len();
            moves.extend(
                edges
                    .iter()
                    .filter(|e| kind(e.label) == LabelKind::Output)
                    .map(|e| (e.label, e.target)),
            );
            n_out.push((moves.len() - before) as u32);
            moves.extend(
                edges
                    .iter()
                    .filter(|e| {
                        matches!(kind(e.label), LabelKind::Internal | LabelKind::Quiescence)
                    })
                    .map(|e| (e.label, e.target)),
            );
            if !lts.has_explicit_delta() && lts.is_quiescent(s, opts.policy) {
                moves.push((Label::DELTA, s));
            }
            off.push(moves.len() as u32);
        }
        Simulator {
            imp,
            opts,
            to_imp,
            to_spec,
            state,
            rng: ChaCha8Rng::seed_from_u64(0),
            off,
            moves,
            n_out,
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

    fn moves(&self, s: State) -> &[(Label, State)] {
        &self.moves[self.off[s as usize] as usize..self.off[s as usize + 1] as usize]
    }
}

impl Adapter for Simulator {
    fn reset(&mut self) -> Result<(), AdapterError> {
        let init = self.imp.initial();
        self.state = init[self.rng.random_range(0..init.len())];
        Ok(())
    }

    fn send(&mut self, input: Label) -> Result<Sent, AdapterError> {
        let s = self.state;
        let n_out = self.n_out[s as usize] as usize;
        if n_out > 0 && self.rng.random_bool(self.opts.race.clamp(0.0, 1.0)) {
            let k = self.rng.random_range(0..n_out);
            let (l, t) = self.moves(s)[k];
            self.state = t;
            return Ok(Sent::Raced(self.output(l)?));
        }
        let Some(a) = self.to_imp.get(input.index()).copied().flatten() else {
            return Ok(Sent::Accepted); // an input the implementation does not know: ignored
        };
        let targets = self.imp.edges_with(s, a);
        match targets.len() {
            0 => {}
            1 => self.state = targets[0].target,
            n => self.state = targets[self.rng.random_range(0..n)].target,
        }
        Ok(Sent::Accepted)
    }

    fn observe(&mut self, _timeout: Duration) -> Result<Observation, AdapterError> {
        for _ in 0..=self.opts.max_tau {
            let s = self.state as usize;
            let (a, b) = (self.off[s] as usize, self.off[s + 1] as usize);
            let (l, t) = match b - a {
                0 => return Ok(Observation::Quiescent),
                1 => self.moves[a],
                n => self.moves[a + self.rng.random_range(0..n)],
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
