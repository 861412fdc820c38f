//! # ioco-engine
//!
//! The one tester: tutorial Alg. 2 (P1:L488-521), written once for every kind of model,
//! every way of choosing what to do next and every system under test, with its run record.
//! It depends on the model and the strategies only: the theory crates plug their
//! specifications and selections into its seams, the execution crate its systems under test.
//!
//! It has two seams, each a small trait:
//! * [`Specification`]: what is allowed after the trace so far — give an input, judge an
//!   output or quiescence (Fail, or Inconclusive when it cannot tell), what was allowed, how
//!   long to wait. Implementations: the lazy suspension automaton of an LTS
//!   ([`explicit::Explicit`]) and the symbolic tracker of an STS with data
//!   (`ioco_exec::engine::symbolic::Symbolic`).
//! * [`Selection`]: what to do next — an input (with its values), wait for an output, or stop
//!   (Pass, or Inconclusive when a test purpose is left); and whether a step just taken ends
//!   the run (a purpose reached accept). Implementations: the random, weighted and
//!   coverage-guided strategies ([`explicit::Strategic`], `Biased` of the symbolic engine),
//!   replay of recorded inputs ([`replay::Replay`]), test purposes (the games' and the
//!   symbolic purposes' steering).
//!
//! and one interface to the system under test, [`Sut`]: send an input (which may race with an
//! output the system produced first), observe an output or quiescence within a time-out, over
//! labels (explicit models) or gate values (models with data).
//!
//! [`alg2::run`] is the loop; each of its steps follows the **tester's rules** of [`rules`]
//! ([`rules::Rules`]: δ after δ, time-outs, settling before an input and after the last step,
//! the race, the exit rule), which the execution of stored test cases (`ioco_exec::suite`)
//! follows too, and the **verdict policy** is written there once: an output or
//! quiescence the specification refuses is Fail; a line that is no output of the model is Fail;
//! a system that exits is judged by the exit rule (Fail where the specification requires an
//! output or still offers an input, else Error; never started — status 127/126 without output —
//! is Error); a broken system is Error; the step bound is Pass (or what the selection says).
//! Fail comes only from the specification, never from the selection, so every selection is as
//! sound as the specification (tutorial Thm. 8.1).
//!
//! Files: [`spec`], [`select`], [`sut`] (the seams), [`rules`] (the tester's rules for one
//! step, and how a run ends), [`alg2`] (the loop),
//! [`timed`] (step times), [`explicit`] (the specification of an LTS and the strategies over
//! it), [`tester`] (the lazy suspension automaton's state of one run), [`replay`] (replay as a
//! selection), [`result`] and [`trace`] (the run record), [`options`], [`timeouts`],
//! [`shrinking`], [`fairness`], [`shard`] (what a session is given).

pub mod alg2;
pub mod explicit;
pub mod fairness;
pub mod options;
pub mod replay;
pub mod result;
pub mod rules;
pub mod select;
pub mod shard;
pub mod shrinking;
pub mod spec;
pub mod sut;
pub mod tester;
pub mod timed;
pub mod timeouts;
pub mod trace;

pub use alg2::run;
pub use options::{OnlineOptions, Progress, Traces};
pub use result::{
    Collector, CoverageSummary, Established, Failure, Keep, Omitted, RunResult, RunVerdict, Shrunk,
    Summary,
};
pub use rules::{Ended, Rules, Seen};
pub use select::{Choice, Event, Selection, Stop};
pub use spec::{Quiet, Refusal, Specification};
pub use sut::{Observation, Sent, Sut, SutError};
pub use tester::Tester;
pub use timed::Timed;
pub use timeouts::Timeouts;
pub use trace::Trace;
