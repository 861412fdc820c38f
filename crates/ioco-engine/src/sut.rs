//! The system-under-test seam: the one interface to every system, for every engine. `A` is
//! what the system's inputs and outputs are: a [`Label`] of an explicit model (the default),
//! or a gate value (a gate name with its values) of a model with data; a label is a gate
//! without values. Give inputs ([`Sut::send`]) and observe outputs or quiescence
//! ([`Sut::observe`]) in the *specification's* actions.
//!
//! The input/output race of tutorial Alg. 2 (P1:L521) is part of the contract: when an output
//! is already pending as the tester wants to give an input, `send` does not give the input and
//! returns [`Sent::Raced`] with that output, so it is recorded in the order in which it
//! happened. A line that is no output of the model is [`SutError::UnknownOutput`] (a Fail, by
//! the verdict policy of [`crate::rules`]).
//!
//! Implementations live in `ioco-sut` (`ioco_sut`: processes, TCP, TorXakis sockets,
//! HTTP, the simulator, in-process components, and `Labels`: any system over gate values seen
//! through the labels of a model), `ioco-symbolic` (the in-process and simulated systems with
//! data of its tests) and `ioco` (typed in-process components).

use ioco_model::Label;
use std::time::Duration;

/// The outcome of [`Sut::send`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Sent<A = Label> {
    /// The input was given to the system.
    Accepted,
    /// An output was already pending, so the input was *not* given; this is that output.
    Raced(A),
}

/// The outcome of [`Sut::observe`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Observation<A = Label> {
    /// The system produced this output.
    Output(A),
    /// The system was quiescent (time-out, or its quiescence marker).
    Quiescent,
}

/// What can go wrong when talking to a system under test.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SutError {
    /// The system could not be started or reached (bad command line, connection refused...).
    Start(String),
    /// The system exited, crashed or closed the connection. `status` says how
    /// ("exited with status 3", "was killed by signal 11 (SIGSEGV)", "closed the connection").
    Exited {
        /// How it ended.
        status: String,
    },
    /// The system wrote something that is not an output of the model: the line as written
    /// (or the JSON label), or for systems with data why it is not an output (a Fail).
    UnknownOutput {
        /// The line, or the explanation.
        line: String,
    },
    /// The system wrote something that is not a line of text (invalid UTF-8, too long, not
    /// JSON in JSON-lines mode, an unterminated line followed by silence).
    Malformed(String),
    /// An input could not be delivered in time (the system does not read its input).
    Stuck(String),
    /// An input the adapter cannot express (not an input of the model).
    UnknownInput(String),
    /// Any other I/O problem.
    Io(String),
    /// Anything else, explained in full.
    Broken(String),
}

impl std::fmt::Display for SutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SutError::Start(m) => write!(f, "could not start the SUT: {m}"),
            SutError::Exited { status } => write!(f, "the SUT {status}"),
            SutError::UnknownOutput { line } => {
                write!(
                    f,
                    "the SUT wrote `{line}`, which is not an output of the model"
                )
            }
            SutError::Malformed(m) => write!(f, "the SUT wrote malformed output: {m}"),
            SutError::Stuck(m) => write!(f, "the SUT is stuck: {m}"),
            SutError::UnknownInput(m) => write!(f, "cannot send `{m}`: not an input"),
            SutError::Io(m) => write!(f, "I/O error talking to the SUT: {m}"),
            SutError::Broken(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for SutError {}

impl From<String> for SutError {
    fn from(s: String) -> SutError {
        SutError::Broken(s)
    }
}

/// How long an observation waits when neither the tester nor the system has a time-out of
/// its own (`Sut::observe(None)` of a system without a default).
pub const DEFAULT_OBSERVE: Duration = Duration::from_millis(200);

/// A system under test.
pub trait Sut<A = Label> {
    /// Bring the system to its initial state (restart the process, reconnect, send a reset
    /// line, or go back to an initial model state). Called before every run, including the
    /// first.
    fn reset(&mut self) -> Result<(), SutError>;

    /// Give `input`, unless an output is already pending: then return [`Sent::Raced`] with it
    /// and do not give the input.
    fn send(&mut self, input: A) -> Result<Sent<A>, SutError>;

    /// Wait at most `timeout` (`None`: the system's own default) for an output;
    /// [`Observation::Quiescent`] if none comes (or if the system announces quiescence with
    /// its marker).
    fn observe(&mut self, timeout: Option<Duration>) -> Result<Observation<A>, SutError>;

    /// Stop the system and release everything (no process may be left behind); the next
    /// [`reset`](Self::reset) starts it anew. Default: nothing to let go of.
    fn close(&mut self) -> Result<(), SutError> {
        Ok(())
    }

    /// Reseed a system with randomness of its own (the simulator), so that run `k` is
    /// reproducible from its seed. Called once per run, before the [`reset`](Self::reset)s
    /// that start it (its tries): a process restores its start-up budget here. Default:
    /// nothing.
    fn set_seed(&mut self, _seed: u64) {}

    /// Before an input: whether the specification allows only quiescence now (out(σ) = {δ}).
    /// There a conforming system has nothing on its way and any output is a Fail, so a
    /// system that has not been seen to settle since its last input or output (its
    /// quiescence marker, a whole time-out without output, or the process seen waiting for
    /// input) first waits for that, at most [`Sut::settle_timeout`], and returns an output
    /// that comes meanwhile as [`Sent::Raced`]: a late output is judged in the state it
    /// belongs to (see `crate::timeouts`). Where outputs are allowed, an input may be given
    /// while the system reacts (that is a test too: a `Stop` while an arm moves); time-out
    /// mode then waits only `--io-time` for an answer in flight. It holds for the inputs that
    /// follow until it is said again. Default: nothing.
    fn expect_quiet(&mut self, _quiet: bool) {}

    /// Before an input: the quiescence time-out of the specification's current state, the
    /// longest that [`Sut::expect_quiet`]'s wait takes (said when it changes; until then
    /// a system uses its own default). Default: nothing.
    fn settle_timeout(&mut self, _timeout: Duration) {}

    /// Whether observing waits real time (a time-out or a marker): `false` for systems that
    /// answer at once (the model simulator, in-process components), which the tester then
    /// neither computes time-outs nor gives hints for. Default: `true`.
    fn timed(&self) -> bool {
        true
    }

    /// The last bytes the system wrote to its standard error since the last reset (process
    /// adapters); `None` if there are none or it has no such stream.
    fn stderr_tail(&mut self) -> Option<String> {
        None
    }

    /// How many δ were established since this was last asked: by the system's quiescence
    /// marker, by observing the process (`ioco_sut::quiescence`), by a whole
    /// time-out, by the Mealy hypothesis. Default: none counted.
    fn established(&mut self) -> [u32; 4] {
        [0; 4]
    }
}

macro_rules! forward {
    () => {
        fn reset(&mut self) -> Result<(), SutError> {
            (**self).reset()
        }
        fn send(&mut self, input: A) -> Result<Sent<A>, SutError> {
            (**self).send(input)
        }
        fn observe(&mut self, timeout: Option<Duration>) -> Result<Observation<A>, SutError> {
            (**self).observe(timeout)
        }
        fn close(&mut self) -> Result<(), SutError> {
            (**self).close()
        }
        fn set_seed(&mut self, seed: u64) {
            (**self).set_seed(seed)
        }
        fn expect_quiet(&mut self, quiet: bool) {
            (**self).expect_quiet(quiet)
        }
        fn settle_timeout(&mut self, timeout: Duration) {
            (**self).settle_timeout(timeout)
        }
        fn timed(&self) -> bool {
            (**self).timed()
        }
        fn stderr_tail(&mut self) -> Option<String> {
            (**self).stderr_tail()
        }
        fn established(&mut self) -> [u32; 4] {
            (**self).established()
        }
    };
}

impl<A, U: Sut<A> + ?Sized> Sut<A> for Box<U> {
    forward!();
}

impl<A, U: Sut<A> + ?Sized> Sut<A> for &mut U {
    forward!();
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
