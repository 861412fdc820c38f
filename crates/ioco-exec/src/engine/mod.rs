//! The one tester: tutorial Alg. 2 (P1:L488-521), written once for every kind of model,
//! every way of choosing what to do next and every system under test.
//!
//! It has two seams, each a small trait:
//! * [`Specification`]: what is allowed after the trace so far — give an input, judge an
//!   output or quiescence (Fail, or Inconclusive when it cannot tell), what was allowed, how
//!   long to wait. Implementations: the lazy suspension automaton of an LTS
//!   ([`explicit::Explicit`]) and the symbolic tracker of an STS with data
//!   ([`symbolic::Symbolic`]).
//! * [`Selection`]: what to do next — an input (with its values), wait for an output, or stop
//!   (Pass, or Inconclusive when a test purpose is left); and whether a step just taken ends
//!   the run (a purpose reached accept). Implementations: the random, weighted and
//!   coverage-guided strategies ([`explicit::Strategic`], [`symbolic::Biased`]), replay of
//!   recorded inputs ([`replay::Replay`]), test purposes ([`purpose_lts::Steered`],
//!   [`purpose_sts::SteeredData`]).
//!
//! and one interface to the system under test, [`Sut`]: send an input (which may race with an
//! output the system produced first), observe an output or quiescence within a time-out.
//!
//! [`alg2::run`] is the loop, and the **verdict policy** is written there once: an output or
//! quiescence the specification refuses is Fail; a line that is no output of the model is Fail;
//! a system that exits is judged by the exit rule (Fail where the specification requires an
//! output or still offers an input, else Error; never started — status 127/126 without output —
//! is Error); a broken system is Error; the step bound is Pass (or what the selection says).
//! Fail comes only from the specification, never from the selection, so every selection is as
//! sound as the specification (tutorial Thm. 8.1).

pub mod alg2;
pub mod explicit;
pub mod purpose_lts;
pub mod purpose_seg;
pub mod purpose_sts;
pub mod replay;
mod select;
mod spec;
mod sut;
pub mod symbolic;
mod timed;

pub use alg2::{run, Ended};
pub use select::{Choice, Event, Selection, Stop};
pub use spec::{Quiet, Refusal, Specification};
pub use sut::{Data, Obs, Sent, Sut, SutError};
pub use timed::Timed;
