//! The selection seam: what the tester does next (tutorial Alg. 2's nondeterministic choice
//! between stimulating, observing and stopping; seed 004 §5 for purposes).

use crate::spec::Specification;
use rand_chacha::ChaCha8Rng;

/// How a selection ends a run. A selection never gives Fail: only the specification does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Pass, with a note (`accept reached`) or none.
    Pass(Option<String>),
    /// Inconclusive, with the reason (the purpose was left, accept is out of reach).
    Inconclusive(String),
}

/// The next thing to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice<A> {
    /// Wait for an output or quiescence.
    Observe,
    /// Offer this input (one the specification enables).
    Give(A),
    /// End the run.
    Stop(Stop),
}

/// A step the specification accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<'a, A> {
    /// The system took this input.
    Gave(&'a A),
    /// The system produced this output.
    Output(&'a A),
    /// The system was quiescent.
    Quiescence,
}

/// A way of choosing what to do next.
pub trait Selection<S: Specification + ?Sized> {
    /// Before a run.
    fn start(&mut self) {}

    /// The next thing to do, after `steps` steps.
    fn choose(&mut self, spec: &mut S, steps: usize, rng: &mut ChaCha8Rng) -> Choice<S::Action>;

    /// A step the specification accepted; `Some` ends the run there.
    fn after(&mut self, _spec: &mut S, _event: Event<'_, S::Action>) -> Option<Stop> {
        None
    }

    /// How a run that reached its step bound ends.
    fn at_bound(&mut self, _spec: &mut S, _depth: usize) -> Stop {
        Stop::Pass(None)
    }
}
