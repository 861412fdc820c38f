//! The system-under-test seam: one interface for every engine (labels are actions without
//! values). The label-level [`Adapter`]s plug in here, and the data-level `DataSut`s of
//! `ioco-symbolic` through `ioco_exec::engine::Data`.

use crate::adapter::{Adapter, AdapterError, Observation, Sent as LabelSent};
use ioco_model::Label;
use std::time::Duration;

/// What an observation saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Obs<A> {
    /// An output of the model.
    Output(A),
    /// Nothing within the time-out (or the quiescence marker).
    Quiescent,
    /// A line that is not an output of the model, as the adapter explains it.
    Unknown(String),
}

/// What became of an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sent<A> {
    /// The system took it.
    Accepted,
    /// The system produced this first; the input was not delivered (tutorial §2.4's race).
    Raced(Obs<A>),
}

/// Why the system under test could not be talked to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SutError {
    /// It exited, crashed or closed the connection: how (`exited with status 101`).
    Exited(String),
    /// Anything else (cannot be reached, bytes that are not a line, an I/O error).
    Broken(String),
}

/// A system under test.
pub trait Sut<A> {
    /// Back to its initial state; `seed` for simulated systems.
    fn reset(&mut self, seed: u64) -> Result<(), SutError>;
    /// Offer an input.
    fn send(&mut self, input: &A) -> Result<Sent<A>, SutError>;
    /// Wait for an output, at most `timeout` (`None`: the system's own) before quiescence.
    fn observe(&mut self, timeout: Option<Duration>) -> Result<Obs<A>, SutError>;
    /// The tail of its standard error since the last reset, if it has one.
    fn stderr_tail(&mut self) -> Option<String> {
        None
    }
    /// Before an input: the quiescence time-out of the specification's current state, which a
    /// system that has not settled since its last input or output is given to settle before
    /// the input (`Adapter::settle_timeout`).
    fn settle_timeout(&mut self, _timeout: Duration) {}
    /// Before an input: the specification allows only quiescence now (out(σ) = {δ}), so the
    /// system must settle first (`Adapter::expect_quiet`).
    fn expect_quiet(&mut self, _quiet: bool) {}
    /// Whether observing waits real time (see `Adapter::timed`): if not, the tester computes no
    /// time-outs and gives no hints.
    fn timed(&self) -> bool {
        true
    }
}

fn label_error(e: AdapterError) -> Result<Obs<Label>, SutError> {
    match e {
        AdapterError::UnknownOutput { line } => Ok(Obs::Unknown(line)),
        AdapterError::Exited { status } => Err(SutError::Exited(status)),
        other => Err(SutError::Broken(other.to_string())),
    }
}

/// A label-level adapter, with the quiescence time-out it uses when the specification has no
/// rule of its own.
impl<T: Adapter + ?Sized> Sut<Label> for T {
    fn reset(&mut self, seed: u64) -> Result<(), SutError> {
        self.set_seed(seed);
        Adapter::reset(self).map_err(|e| SutError::Broken(e.to_string()))
    }

    #[inline]
    fn send(&mut self, input: &Label) -> Result<Sent<Label>, SutError> {
        match Adapter::send(self, *input) {
            Ok(LabelSent::Accepted) => Ok(Sent::Accepted),
            Ok(LabelSent::Raced(x)) => Ok(Sent::Raced(Obs::Output(x))),
            Err(e) => label_error(e).map(Sent::Raced),
        }
    }

    #[inline]
    fn observe(&mut self, timeout: Option<Duration>) -> Result<Obs<Label>, SutError> {
        let t = timeout.unwrap_or(Duration::from_millis(200));
        match Adapter::observe(self, t) {
            Ok(Observation::Output(x)) => Ok(Obs::Output(x)),
            Ok(Observation::Quiescent) => Ok(Obs::Quiescent),
            Err(e) => label_error(e),
        }
    }

    fn stderr_tail(&mut self) -> Option<String> {
        Adapter::stderr_tail(self)
    }

    fn settle_timeout(&mut self, timeout: Duration) {
        Adapter::settle_timeout(self, timeout)
    }

    fn expect_quiet(&mut self, quiet: bool) {
        Adapter::expect_quiet(self, quiet)
    }

    #[inline]
    fn timed(&self) -> bool {
        Adapter::timed(self)
    }
}
