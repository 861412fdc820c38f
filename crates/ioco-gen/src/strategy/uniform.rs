//! Uniform random choice (tutorial Alg. 2's nondeterminism resolved uniformly): observe, or
//! one of the enabled inputs, each with the same probability.

use super::{Choice, Situation, Strategy};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Observe or stimulate, uniformly among the `inputs.len() + 1` options.
#[derive(Copy, Clone, Debug, Default)]
pub struct Uniform;

impl Strategy for Uniform {
    fn choose(&mut self, s: &Situation<'_>, rng: &mut ChaCha8Rng) -> Choice {
        let k = rng.random_range(0..=s.inputs.len());
        if k == s.inputs.len() {
            Choice::Observe
        } else {
            Choice::Stimulate(s.inputs[k])
        }
    }

    fn name(&self) -> &'static str {
        "uniform"
    }
}
