//! The one tester of [`ioco_engine`] (tutorial Alg. 2), with the specifications and selections
//! that still live in this crate: the symbolic engine over an STS with data ([`symbolic`]),
//! the purposes' steering ([`purpose_lts`], [`purpose_sts`], [`purpose_seg`]), and systems
//! under test with data as a [`Sut`] ([`Data`]). The seams, the loop and the explicit engine
//! are `ioco_engine`'s, re-exported here.

pub use ioco_engine::{alg2, explicit, replay};
pub mod purpose_lts;
pub mod purpose_seg;
pub mod purpose_sts;
mod sut;
pub mod symbolic;

pub use ioco_engine::Timed;
pub use ioco_engine::{run, Ended};
pub use ioco_engine::{Choice, Event, Selection, Stop};
pub use ioco_engine::{Obs, Sent, Sut, SutError};
pub use ioco_engine::{Quiet, Refusal, Specification};
pub use sut::Data;
