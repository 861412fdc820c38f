//! The label-level interface to a system under test: give inputs ([`Adapter::send`]) and
//! observe outputs or quiescence ([`Adapter::observe`]) in the *specification's* labels. The
//! input/output race of tutorial Alg. 2 (P1:L521) is part of the contract: when an output is
//! already pending as the tester wants to give an input, `send` does not give the input and
//! returns [`Sent::Raced`] with that output, so it is recorded in the order in which it happened.
//!
//! Implementations live in `ioco-exec` (`ioco_exec::adapter`: processes, TCP, TorXakis sockets,
//! the simulator, in-process components); [`crate::Sut`] adapts every `Adapter`.

use ioco_model::Label;
use std::time::Duration;

/// The outcome of [`Adapter::send`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Sent {
    /// The input was given to the SUT.
    Accepted,
    /// An output was already pending, so the input was *not* given; this is that output.
    Raced(Label),
}

/// The outcome of [`Adapter::observe`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Observation {
    /// The SUT produced this output.
    Output(Label),
    /// The SUT was quiescent (time-out, or its quiescence marker).
    Quiescent,
}

/// What can go wrong when talking to a SUT.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum AdapterError {
    /// The SUT could not be started or reached (bad command line, connection refused...).
    Start(String),
    /// The SUT exited, crashed or closed the connection. `status` says how
    /// ("exited with status 3", "was killed by signal 11 (SIGSEGV)", "closed the connection").
    Exited {
        /// How it ended.
        status: String,
    },
    /// The SUT wrote a line of text that is not an output of the model.
    UnknownOutput {
        /// The line (or the JSON label), as written by the SUT.
        line: String,
    },
    /// The SUT wrote something that is not a line of text (invalid UTF-8, too long, not JSON in
    /// JSON-lines mode, an unterminated line followed by silence).
    Malformed(String),
    /// An input could not be delivered in time (the SUT does not read its input).
    Stuck(String),
    /// An input the adapter cannot express (not an input of the model).
    UnknownInput(String),
    /// Any other I/O problem.
    Io(String),
}

impl std::fmt::Display for AdapterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AdapterError::Start(m) => write!(f, "could not start the SUT: {m}"),
            AdapterError::Exited { status } => write!(f, "the SUT {status}"),
            AdapterError::UnknownOutput { line } => {
                write!(
                    f,
                    "the SUT wrote `{line}`, which is not an output of the model"
                )
            }
            AdapterError::Malformed(m) => write!(f, "the SUT wrote malformed output: {m}"),
            AdapterError::Stuck(m) => write!(f, "the SUT is stuck: {m}"),
            AdapterError::UnknownInput(m) => write!(f, "cannot send `{m}`: not an input"),
            AdapterError::Io(m) => write!(f, "I/O error talking to the SUT: {m}"),
        }
    }
}

impl std::error::Error for AdapterError {}

/// A connection to a system under test.
pub trait Adapter {
    /// Bring the SUT to its initial state (restart the process, reconnect, send a reset line,
    /// or go back to an initial model state). Called before every run, including the first.
    fn reset(&mut self) -> Result<(), AdapterError>;

    /// Give `input` (a label of the specification's alphabet), unless an output is already
    /// pending: then return [`Sent::Raced`] with it and do not give the input.
    fn send(&mut self, input: Label) -> Result<Sent, AdapterError>;

    /// Wait at most `timeout` for an output; [`Observation::Quiescent`] if none comes (or if the
    /// SUT announces quiescence with its marker).
    fn observe(&mut self, timeout: Duration) -> Result<Observation, AdapterError>;

    /// Stop the SUT and release everything (no process may be left behind).
    fn close(&mut self) -> Result<(), AdapterError>;

    /// Reseed an adapter with randomness of its own (the simulator), so that run `k` is
    /// reproducible from its seed. Called before [`reset`](Self::reset). Default: nothing.
    fn set_seed(&mut self, _seed: u64) {}

    /// Before an input: whether the specification allows only quiescence now (out(σ) = {δ}).
    /// There a conforming system has nothing on its way and any output is a Fail, so an
    /// adapter that has not seen the system settle since its last input or output (its
    /// quiescence marker, a whole time-out without output, or the process seen waiting for
    /// input) first waits for that, at most [`Adapter::settle_timeout`], and returns an output
    /// that comes meanwhile as [`Sent::Raced`]: a late output is judged in the state it
    /// belongs to (see `crate::timeouts`). Where outputs are allowed, an input may be given
    /// while the system reacts (that is a test too: a `Stop` while an arm moves); time-out
    /// mode then waits only `--io-time` for an answer in flight. It holds for the inputs that
    /// follow until it is said again. Default: nothing.
    fn expect_quiet(&mut self, _quiet: bool) {}

    /// Before an input: the quiescence time-out of the specification's current state, the
    /// longest that [`Adapter::expect_quiet`]'s wait takes (said when it changes; until then
    /// an adapter uses its own default). Default: nothing.
    fn settle_timeout(&mut self, _timeout: Duration) {}

    /// Whether observing waits real time (a time-out or a marker): `false` for systems that
    /// answer at once (the model simulator, in-process components), which the tester then
    /// neither computes time-outs nor gives hints for. Default: `true`.
    fn timed(&self) -> bool {
        true
    }

    /// The last bytes the SUT wrote to its standard error since the last reset (process
    /// adapters); `None` if there are none or the adapter has no such stream.
    fn stderr_tail(&mut self) -> Option<String> {
        None
    }

    /// How many δ were established since this was last asked: by the system's quiescence
    /// marker, by observing the process (`ioco_exec::adapter::quiescence`), by a whole time-out. Default: none
    /// counted.
    fn established(&mut self) -> [u32; 4] {
        [0; 4]
    }
}

impl<A: Adapter + ?Sized> Adapter for Box<A> {
    fn reset(&mut self) -> Result<(), AdapterError> {
        (**self).reset()
    }
    fn send(&mut self, input: Label) -> Result<Sent, AdapterError> {
        (**self).send(input)
    }
    fn observe(&mut self, timeout: Duration) -> Result<Observation, AdapterError> {
        (**self).observe(timeout)
    }
    fn close(&mut self) -> Result<(), AdapterError> {
        (**self).close()
    }
    fn settle_timeout(&mut self, timeout: Duration) {
        (**self).settle_timeout(timeout)
    }
    fn expect_quiet(&mut self, quiet: bool) {
        (**self).expect_quiet(quiet)
    }
    fn timed(&self) -> bool {
        (**self).timed()
    }
    fn set_seed(&mut self, seed: u64) {
        (**self).set_seed(seed)
    }
    fn stderr_tail(&mut self) -> Option<String> {
        (**self).stderr_tail()
    }
    fn established(&mut self) -> [u32; 4] {
        (**self).established()
    }
}

/// A hint to the processor to bring `x` into the cache (model walks over big tables: the
/// simulator and the tester's suspension records ask for their next record early).
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint to the cache; it reads nothing and cannot fault (and
    // the address is that of a live reference anyway).
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}
