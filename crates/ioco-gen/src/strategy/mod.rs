//! Choice strategies: what to do next, at one point of a test (tutorial Alg. 1's and Alg. 2's
//! nondeterministic choice between stopping, observing and stimulating with an enabled input).
//!
//! The tutorial leaves the choice open (note §2.5: "a design decision for the tool"). A
//! [`Strategy`] makes it, from a [`Situation`] and a seeded random generator, so that the same
//! seed gives the same choices. The same strategies drive on-the-fly testing (`ioco-exec`) and
//! batch generation ([`crate::batch`]).
//!
//! * [`Uniform`]: observe with probability 1/2 (an option), else an enabled input uniformly
//!   ([`uniform`]);
//! * [`Weighted`]: by user weights per label ([`weighted`]);
//! * [`CoverageGuided`]: prefer actions that take transitions of the model not covered yet
//!   ([`coverage_guided`]).
//!
//! Strategies only ever propose inputs enabled in the specification (input-minimal tests,
//! tutorial Def. 6.7); stopping at the depth bound is the caller's job.

pub mod coverage_guided;
pub mod uniform;
pub mod weighted;

pub use coverage_guided::CoverageGuided;
pub use uniform::{Coin, Uniform};
pub use weighted::Weighted;

use crate::coverage::Coverage;
use ioco_model::{Label, Lts, State};
use rand_chacha::ChaCha8Rng;

/// What to do next.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Choice {
    /// End the test here (verdict pass).
    Stop,
    /// Wait for an output or quiescence.
    Observe,
    /// Offer this input (enabled in the specification).
    Stimulate(Label),
}

/// Where a test is: what a strategy may look at.
#[derive(Copy, Clone, Debug)]
pub struct Situation<'a> {
    /// The specification.
    pub lts: &'a Lts,
    /// The states the specification may be in (a τ-closed suspension state), sorted.
    pub set: &'a [State],
    /// The inputs enabled there, sorted (never empty-checked by the caller: may be empty).
    pub inputs: &'a [Label],
    /// out(set): the outputs and δ allowed there, sorted.
    pub outputs: &'a [Label],
    /// Steps taken so far in this test.
    pub depth: usize,
    /// The model coverage so far (this run and earlier runs of the same worker).
    pub coverage: &'a Coverage,
}

/// A choice strategy. Implementations must be deterministic given the random generator.
pub trait Strategy: Send {
    /// Choose the next action. Must return [`Choice::Stimulate`] only with a label from
    /// `situation.inputs`.
    fn choose(&mut self, situation: &Situation<'_>, rng: &mut ChaCha8Rng) -> Choice;

    /// A short name for reports (`uniform`, `weighted`, `coverage`).
    fn name(&self) -> &'static str;

    /// True when [`Situation::coverage`] must be up to date at every choice (the runner may
    /// otherwise update coverage lazily).
    fn uses_coverage(&self) -> bool {
        false
    }

    /// This strategy, if it is [`Uniform`]: its choice needs only the enabled inputs
    /// ([`Uniform::pick`]), so a tester may skip building the [`Situation`].
    fn as_uniform(&self) -> Option<Uniform> {
        None
    }
}

/// Strategies by name, as the CLI writes them.
#[derive(Clone, Debug, PartialEq)]
pub enum StrategySpec {
    /// [`Uniform`].
    Uniform,
    /// [`Weighted`] with `(label as written, weight)` pairs: `coin?` for an input, `δ` or
    /// `observe` for observing.
    Weighted(Vec<(String, f64)>),
    /// [`CoverageGuided`].
    Coverage,
}

impl StrategySpec {
    /// Build the strategy for a specification.
    pub fn build(&self, lts: &Lts) -> Result<Box<dyn Strategy>, String> {
        self.build_observing(lts, 0.5)
    }

    /// [`StrategySpec::build`], with the probability of observing for [`Uniform`].
    pub fn build_observing(&self, lts: &Lts, observe: f64) -> Result<Box<dyn Strategy>, String> {
        Ok(match self {
            StrategySpec::Uniform => Box::new(Uniform { observe }),
            StrategySpec::Weighted(w) => Box::new(Weighted::new(lts.alphabet(), w)?),
            StrategySpec::Coverage => Box::new(CoverageGuided::default()),
        })
    }
}

/// The seed of run `k` of a batch with master seed `master` (SplitMix64 of both): runs are
/// independent and each is reproducible from its own seed.
pub fn derive_seed(master: u64, k: u64) -> u64 {
    fn mix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    mix(master ^ mix(k.wrapping_add(0x5851_f42d_4c95_7f2d)))
}
