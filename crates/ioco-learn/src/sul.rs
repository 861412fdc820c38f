//! The system under learning (SUL): what the learner asks questions of. A SUL is reset to its
//! initial state and then given inputs one at a time; each input yields one output (the Mealy
//! machine view of the system, as in LearnLib's and AALpy's `SUL`).
//!
//! Outputs are strings. A system observed through quiescence ([`crate::adapter`]) answers an
//! input with its whole reaction: the outputs until it is quiescent, joined by `\n` (a line
//! never holds one), and the empty string for no output at all: δ ([`QUIESCENCE`]).

use ioco_model::Mealy;
use std::collections::HashMap;
use std::fmt;

/// The output of a reaction with no output: quiescence (δ).
pub const QUIESCENCE: &str = "";

/// How a reaction is shown to people: its outputs separated by ` · `, and δ for none.
pub fn show_output(o: &str) -> String {
    if o == QUIESCENCE {
        "δ".to_string()
    } else {
        o.replace('\n', " · ")
    }
}

/// A system under learning failed (could not be started, crashed, wrote garbage).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SulError(pub String);

impl fmt::Display for SulError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SulError {}

/// A system under learning: reset, then one output per input.
///
/// It must be deterministic: the same input word from the initial state always gives the same
/// outputs. The learner checks this wherever it asks a word again and reports a system that is
/// not ([`crate::LearnError::Nondeterministic`]).
pub trait Sul {
    /// Bring the system to its initial state.
    fn reset(&mut self) -> Result<(), SulError>;
    /// Give `input` (one of the learner's inputs) and return the output it produces.
    fn step(&mut self, input: &str) -> Result<String, SulError>;
    /// The time-out after which the system's silence is taken for quiescence, when that is how
    /// it is observed (an answer later than it is seen as δ, then as a different answer):
    /// different answers that look like a late one are then reported as such
    /// ([`crate::LearnError::Late`]). `None` (the default): quiescence is exact.
    fn quiescence_timeout(&self) -> Option<std::time::Duration> {
        None
    }
}

impl<S: Sul + ?Sized> Sul for &mut S {
    fn reset(&mut self) -> Result<(), SulError> {
        (**self).reset()
    }
    fn step(&mut self, input: &str) -> Result<String, SulError> {
        (**self).step(input)
    }
    fn quiescence_timeout(&self) -> Option<std::time::Duration> {
        (**self).quiescence_timeout()
    }
}

impl<S: Sul + ?Sized> Sul for Box<S> {
    fn reset(&mut self) -> Result<(), SulError> {
        (**self).reset()
    }
    fn step(&mut self, input: &str) -> Result<String, SulError> {
        (**self).step(input)
    }
    fn quiescence_timeout(&self) -> Option<std::time::Duration> {
        (**self).quiescence_timeout()
    }
}

/// A Mealy machine played as a SUL, in process (simulations, tests, benchmarks). An input the
/// machine leaves undefined in the current state is ignored: the state stays and the output
/// is quiescence, as a program that discards it would answer (and as
/// `examples/models/lts_player.py` plays it).
#[derive(Clone, Debug)]
pub struct MealySul {
    machine: Mealy,
    index: HashMap<String, u32>,
    state: u32,
}

impl MealySul {
    /// Play `machine` from its initial state.
    pub fn new(machine: Mealy) -> Self {
        let index = machine
            .inputs
            .iter()
            .enumerate()
            .map(|(k, n)| (n.clone(), k as u32))
            .collect();
        let state = machine.initial;
        MealySul {
            machine,
            index,
            state,
        }
    }

    /// The machine played.
    pub fn machine(&self) -> &Mealy {
        &self.machine
    }
}

impl Sul for MealySul {
    fn reset(&mut self) -> Result<(), SulError> {
        self.state = self.machine.initial;
        Ok(())
    }

    fn step(&mut self, input: &str) -> Result<String, SulError> {
        let i = *self
            .index
            .get(input)
            .ok_or_else(|| SulError(format!("`{input}` is not an input of the machine")))?;
        match self.machine.step(self.state, i) {
            Some((t, o)) => {
                self.state = t;
                Ok(self.machine.outputs[o as usize].clone())
            }
            None => Ok(QUIESCENCE.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mealy_machine_as_a_sul() {
        let mut m = Mealy::new(2, vec!["a".into(), "b".into()], vec!["x".into()], 0);
        m.set(0, 0, 1, 0);
        let mut s = MealySul::new(m);
        s.reset().unwrap();
        assert_eq!(s.step("a").unwrap(), "x");
        assert_eq!(s.step("a").unwrap(), QUIESCENCE);
        assert!(s.step("c").unwrap_err().0.contains("not an input"));
        assert_eq!(show_output(""), "δ");
        assert_eq!(show_output("a\nb"), "a · b");
    }
}
