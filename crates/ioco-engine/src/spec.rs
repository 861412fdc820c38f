//! The specification seam: what is allowed after the trace so far (tutorial Def. 6.2,
//! out(σ) of the suspension automaton; TAP19 §3 for an STS with data).

use crate::result::Failure;
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// Why the specification does not go along with an observation: the run ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not allowed: evidence of non-conformance (tutorial Def. 6.2).
    Fail(Failure),
    /// The specification cannot tell (the solver answered *unknown*; TAP19 Thm. 19: unknown
    /// never yields Fail).
    Inconclusive(String),
}

/// Whether the specification allows quiescence after the trace so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Quiet {
    /// δ ∈ out(σ).
    Allowed,
    /// δ ∉ out(σ): an output is required.
    Refused,
    /// The specification cannot tell (why).
    Unknown(String),
    /// The trace has left the specification, which says nothing here: a stored test case
    /// goes on after an input the specification does not enable, or after an output it
    /// refuses (the test case judges its own steps). Nothing is required or offered, and a
    /// system's exit is no evidence either way (the exit rule of [`crate::rules`]: Error).
    Outside,
}

/// A specification as the tester sees it: a set of states it may be in after the trace so far
/// (kept inside), moved by the steps the tester records.
///
/// `Action` is an input or output with its values: a `Label` of an LTS, a gate value of an
/// STS. The trace is kept by the specification (it is the trace the states are reached by).
pub trait Specification {
    /// An input or output, with its values.
    type Action: Clone;

    /// Back to the initial states with an empty trace. An error: the model cannot be started.
    fn start(&mut self) -> Result<(), String>;

    /// Whether the specification enables `input` now.
    fn enables(&mut self, input: &Self::Action) -> bool;

    /// Record an input the system under test took (one the selection chose).
    fn give(&mut self, input: &Self::Action) -> Result<(), Refusal>;

    /// Record an output (`Some`) or quiescence (`None`) the system under test showed; a
    /// [`Refusal::Fail`] if the specification does not allow it.
    fn observe(&mut self, output: Option<&Self::Action>) -> Result<(), Refusal>;

    /// Record a line the system wrote that is not an output of the model (`why`: how the
    /// adapter read it) and say why that fails.
    fn garbage(&mut self, line: &str) -> Failure;

    /// Whether quiescence is allowed now (nothing is recorded).
    fn quiet(&mut self) -> Quiet;

    /// Whether quiescence is all the specification allows now (out(σ) = {δ}): any output is
    /// a Fail, so an input waits until the system has settled, and a run that ends after an
    /// input or an output takes one more look (nothing is recorded). Default: not known.
    fn only_quiescence(&mut self) -> bool {
        false
    }

    /// Some input the specification offers now, as written (`water?(100)`), if any.
    fn an_input(&mut self, rng: &mut ChaCha8Rng) -> Option<String>;

    /// The outputs (and δ) allowed now, as written.
    fn allowed(&mut self) -> Vec<String>;

    /// Whether the trace so far holds an output.
    fn wrote_output(&self) -> bool;

    /// The trace so far, as written, for messages.
    fn trace_text(&self) -> String;

    /// How long to wait for an output now before concluding quiescence (the rule of
    /// [`crate::timeouts`]); `None`: the system under test's own time-out.
    fn timeout(&mut self) -> Option<Duration>;
}
