//! Uniform random choice (tutorial Alg. 2's nondeterminism resolved at random): observe with a
//! fixed probability, else one of the enabled inputs, each with the same probability.

use super::{Choice, Situation, Strategy};
use ioco_model::Label;
use rand::RngCore;
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
    /// The coin that decides to observe (probability [`Uniform::observe`], clamped to [0, 1]),
    /// made once.
    pub fn coin(&self) -> Coin {
        Coin::new(self.observe)
    }

    /// The choice of [`Uniform`] where `inputs` are enabled, with its `coin`: all it looks at
    /// of a [`Situation`], so a tester that knows its strategy is uniform can choose without
    /// building one (the same draws, so the same runs).
    ///
    /// One draw per choice (none where no input is enabled): a 64-bit number decides
    /// between observing and giving ([`Coin`]) and, where it gives, its low 32 bits pick the
    /// input ([`index`]). Two draws (a coin, then an index) cost the in-process loop a
    /// sixth of its instructions (issue #30 item 4).
    #[inline(always)]
    pub fn pick(coin: &Coin, inputs: &[Label], rng: &mut ChaCha8Rng) -> Choice {
        if inputs.is_empty() {
            return Choice::Observe;
        }
        let x = rng.next_u64();
        if coin.heads(x) {
            Choice::Observe
        } else {
            Choice::Stimulate(inputs[scale(x as u32, inputs.len())])
        }
    }
}

/// A biased coin over one 64-bit draw: heads with probability `p` (exactly, for `p` = 0 and
/// 1; else to within 2^-64).
#[derive(Copy, Clone, Debug)]
pub struct Coin {
    /// Heads when the draw is below this; `None`: always heads (`p` = 1).
    below: Option<u64>,
}

impl Coin {
    /// Heads with probability `p`, clamped to [0, 1] (NaN: 0).
    pub fn new(p: f64) -> Coin {
        let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
        if p >= 1.0 {
            return Coin { below: None };
        }
        // p · 2^64, below 2^64 since p < 1
        Coin {
            below: Some((p * 18_446_744_073_709_551_616.0) as u64),
        }
    }

    /// The side a draw `x` shows.
    #[inline(always)]
    pub fn heads(&self, x: u64) -> bool {
        self.below.is_none_or(|b| x < b)
    }

    /// Toss: one draw.
    #[inline(always)]
    pub fn toss(&self, rng: &mut ChaCha8Rng) -> bool {
        self.heads(rng.next_u64())
    }
}

/// A uniform index below `n` (≥ 1) from one 32-bit draw, by a widening multiplication
/// (Lemire's method without its rejection step: every index within a relative 2^-32 of 1/n,
/// where `random_range`'s rejection costs the hot loop a call and a division).
#[inline(always)]
pub fn index(rng: &mut ChaCha8Rng, n: usize) -> usize {
    scale(rng.next_u32(), n)
}

/// `x` scaled from [0, 2^32) to [0, n).
#[inline(always)]
fn scale(x: u32, n: usize) -> usize {
    debug_assert!(n >= 1 && n <= u32::MAX as usize);
    ((x as u64 * n as u64) >> 32) as usize
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn the_coin_and_the_index_are_fair() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let never = Coin::new(0.0);
        let always = Coin::new(1.0);
        let nan = Coin::new(f64::NAN);
        assert!((0..1000).all(|_| !never.toss(&mut rng) && always.toss(&mut rng)));
        assert!((0..100).all(|_| !nan.toss(&mut rng)));
        assert!(always.heads(u64::MAX) && !never.heads(0));
        let third = Coin::new(1.0 / 3.0);
        let n = 300_000;
        let heads = (0..n).filter(|_| third.toss(&mut rng)).count();
        // 1/3 within 5 standard deviations (σ ≈ 258 here)
        assert!((heads as f64 - n as f64 / 3.0).abs() < 1300.0, "{heads}");
        let mut seen = [0usize; 7];
        for _ in 0..n {
            seen[index(&mut rng, 7)] += 1;
        }
        for c in seen {
            // 1/7 each, within 5 σ (σ ≈ 192)
            assert!((c as f64 - n as f64 / 7.0).abs() < 960.0, "{seen:?}");
        }
        assert_eq!(scale(u32::MAX, 7), 6);
        assert_eq!(scale(0, 7), 0);
        assert_eq!(scale(u32::MAX, 1), 0);
    }

    #[test]
    fn a_pick_gives_each_input_and_observes_as_often_as_the_coin_says() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let coin = Uniform { observe: 0.25 }.coin();
        let inputs = [Label(10), Label(11), Label(12)];
        let mut observed = 0;
        let mut given = [0usize; 3];
        for _ in 0..40_000 {
            match Uniform::pick(&coin, &inputs, &mut rng) {
                Choice::Observe => observed += 1,
                Choice::Stimulate(a) => given[(a.0 - 10) as usize] += 1,
                Choice::Stop => unreachable!("a uniform strategy never stops"),
            }
        }
        assert!((observed as f64 - 10_000.0).abs() < 450.0, "{observed}");
        for g in given {
            assert!((g as f64 - 10_000.0).abs() < 450.0, "{given:?}");
        }
        // no input: observe, and nothing drawn
        let before = rng.clone();
        assert_eq!(Uniform::pick(&coin, &[], &mut rng), Choice::Observe);
        assert_eq!(rng, before);
    }
}
