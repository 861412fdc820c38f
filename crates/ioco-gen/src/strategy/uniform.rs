//! Uniform random choice (tutorial Alg. 2's nondeterminism resolved at random): observe with a
//! fixed probability, else one of the enabled inputs, each with the same probability.

use super::{Choice, Situation, Strategy};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Observe with probability `observe` (one half by default, as the symbolic engine does), else
/// give one of the enabled inputs, uniformly; observe when none is enabled. (Choosing
/// uniformly among "observe" and every input made a model with 64 inputs observe once in 65
/// steps.)
#[derive(Copy, Clone, Debug)]
pub struct Uniform {
    /// The probability of observing when an input could be given.
    pub observe: f64,
}

impl Default for Uniform {
    fn default() -> Uniform {
        Uniform { observe: 0.5 }
    }
}

impl Strategy for Uniform {
    fn choose(&mut self, s: &Situation<'_>, rng: &mut ChaCha8Rng) -> Choice {
        if s.inputs.is_empty() || rng.random_bool(self.observe.clamp(0.0, 1.0)) {
            Choice::Observe
        } else {
            Choice::Stimulate(s.inputs[rng.random_range(0..s.inputs.len())])
        }
    }

    fn name(&self) -> &'static str {
        "uniform"
    }
}
