//! Uniform random choice (tutorial Alg. 2's nondeterminism resolved at random): observe with a
//! fixed probability, else one of the enabled inputs, each with the same probability.

use super::{Choice, Situation, Strategy};
use ioco_model::Label;
use rand::distr::Bernoulli;
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

impl Uniform {
    /// The coin that decides to observe (probability [`Uniform::observe`], clamped to [0, 1]):
    /// made once, it draws what `rng.random_bool(observe)` draws.
    pub fn coin(&self) -> Bernoulli {
        Bernoulli::new(self.observe.clamp(0.0, 1.0)).expect("a probability in [0, 1]")
    }

    /// The choice of [`Uniform`] where `inputs` are enabled, with its `coin`: all it looks at
    /// of a [`Situation`], so a tester that knows its strategy is uniform can choose without
    /// building one (the same draws, so the same runs).
    #[inline(always)]
    pub fn pick(coin: &Bernoulli, inputs: &[Label], rng: &mut ChaCha8Rng) -> Choice {
        if inputs.is_empty() || rng.sample(coin) {
            Choice::Observe
        } else {
            Choice::Stimulate(inputs[rng.random_range(0..inputs.len())])
        }
    }
}

impl Strategy for Uniform {
    fn choose(&mut self, s: &Situation<'_>, rng: &mut ChaCha8Rng) -> Choice {
        Uniform::pick(&self.coin(), s.inputs, rng)
    }

    fn as_uniform(&self) -> Option<Uniform> {
        Some(*self)
    }

    fn name(&self) -> &'static str {
        "uniform"
    }
}
