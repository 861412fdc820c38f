//! Mealy machines (the FSM model of the W/Wp/HSI/H/hybrid-ADS literature and of AALpy,
//! LearnLib and hybrid-ADS DOT files), and their reading as an input/output LTS.
//!
//! A Mealy machine has a transition table `δ: S × I → S` and an output table `λ: S × I → O`,
//! stored densely (`state * num_inputs + input`). A missing entry is allowed (partial machine).
//! As an LTS, each `s -i/o-> t` becomes `s -i?-> m -o!-> t` through a fresh intermediate state
//! `m`; the LTS is deterministic, and its stable states are exactly the Mealy states.

use crate::label::{Alphabet, LabelKind};
use crate::lts::{Lts, LtsBuilder, State};
use serde::{Deserialize, Serialize};

const NONE: u32 = u32::MAX;

/// A (possibly partial) deterministic Mealy machine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mealy {
    /// Input symbols, indexed by input number.
    pub inputs: Vec<String>,
    /// Output symbols, indexed by output number.
    pub outputs: Vec<String>,
    /// State names, indexed by state.
    pub state_names: Vec<String>,
    /// The initial state.
    pub initial: u32,
    next: Vec<u32>,
    out: Vec<u32>,
}

impl Mealy {
    /// A machine with `num_states` states and no transitions.
    pub fn new(num_states: usize, inputs: Vec<String>, outputs: Vec<String>, initial: u32) -> Self {
        let k = inputs.len();
        Mealy {
            state_names: (0..num_states).map(|s| format!("s{s}")).collect(),
            inputs,
            outputs,
            initial,
            next: vec![NONE; num_states * k],
            out: vec![NONE; num_states * k],
        }
    }

    /// The number of states.
    pub fn num_states(&self) -> usize {
        self.state_names.len()
    }

    /// The number of inputs.
    pub fn num_inputs(&self) -> usize {
        self.inputs.len()
    }

    /// Set `s -input/output-> t` (indices).
    pub fn set(&mut self, s: u32, input: u32, t: u32, output: u32) {
        let k = self.inputs.len();
        self.next[s as usize * k + input as usize] = t;
        self.out[s as usize * k + input as usize] = output;
    }

    /// The transition of `s` on `input`: `(target, output)`, if defined.
    #[inline]
    pub fn step(&self, s: u32, input: u32) -> Option<(u32, u32)> {
        let k = self.inputs.len();
        let i = s as usize * k + input as usize;
        let t = self.next[i];
        (t != NONE).then(|| (t, self.out[i]))
    }

    /// True when every state has a transition for every input.
    pub fn is_complete(&self) -> bool {
        self.next.iter().all(|&t| t != NONE)
    }

    /// Run an input word from `s`; `None` if some transition is undefined.
    pub fn run_from(&self, mut s: u32, word: &[u32]) -> Option<(u32, Vec<u32>)> {
        let mut outs = Vec::with_capacity(word.len());
        for &i in word {
            let (t, o) = self.step(s, i)?;
            outs.push(o);
            s = t;
        }
        Some((s, outs))
    }

    /// The output word produced by `word` from the initial state.
    pub fn outputs_of(&self, word: &[u32]) -> Option<Vec<u32>> {
        self.run_from(self.initial, word).map(|p| p.1)
    }

    /// Index of an input by name.
    pub fn input_index(&self, name: &str) -> Option<u32> {
        self.inputs.iter().position(|n| n == name).map(|i| i as u32)
    }

    /// The input/output LTS reading: `s -i?-> m -o!-> t` with a fresh `m` per transition.
    /// Mealy states keep their numbers (0..n); intermediate states follow. An input and an
    /// output may share a name (`ApplicationData?` and `ApplicationData!` are two labels).
    pub fn to_lts(&self) -> Result<Lts, crate::label::KindConflict> {
        let mut alphabet = Alphabet::new();
        let ins = self
            .inputs
            .iter()
            .map(|n| alphabet.intern(n, LabelKind::Input))
            .collect::<Result<Vec<_>, _>>()?;
        let outs = self
            .outputs
            .iter()
            .map(|n| alphabet.intern(n, LabelKind::Output))
            .collect::<Result<Vec<_>, _>>()?;
        let mut b = LtsBuilder::new(alphabet);
        let n = self.num_states();
        b.add_states(n);
        b.add_initial(self.initial);
        let mut names = self.state_names.clone();
        for s in 0..n as u32 {
            for i in 0..self.inputs.len() as u32 {
                if let Some((t, o)) = self.step(s, i) {
                    let m: State = b.add_state();
                    names.push(format!(
                        "{}·{}",
                        self.state_names[s as usize], self.inputs[i as usize]
                    ));
                    b.add_transition(s, ins[i as usize], m);
                    b.add_transition(m, outs[o as usize], t);
                }
            }
        }
        b.set_state_names(names);
        Ok(b.build().expect("valid by construction"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mealy_as_lts() {
        let mut m = Mealy::new(2, vec!["a".into()], vec!["x".into(), "y".into()], 0);
        m.set(0, 0, 1, 0);
        m.set(1, 0, 0, 1);
        assert!(m.is_complete());
        assert_eq!(m.outputs_of(&[0, 0, 0]), Some(vec![0, 1, 0]));
        let l = m.to_lts().unwrap();
        assert_eq!(l.num_states(), 4);
        assert!(l.is_deterministic());
        assert!(l.is_quiescent(0, crate::QuiescencePolicy::Stable));
        assert!(!l.is_quiescent(2, crate::QuiescencePolicy::Stable));
    }
}
