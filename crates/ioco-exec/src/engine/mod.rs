//! The one tester of [`ioco_engine`] (tutorial Alg. 2), its seams and its explicit engine,
//! re-exported, with the symbolic engine of `ioco-symbolic` ([`symbolic`]: an STS with data,
//! over the one [`Sut`] interface, with gate values) and its switch-coverage purposes
//! ([`purpose_seg`]). The purposes' steering over an LTS and over a symbolic test graph live in
//! their theory crates (`ioco_games::steered`, `ioco_stg::steered`).

pub use ioco_engine::Timed;
pub use ioco_engine::{alg2, explicit, replay, rules};
pub use ioco_engine::{run, Ended};
pub use ioco_engine::{Choice, Event, Selection, Stop};
pub use ioco_engine::{Observation, Sent, Sut, SutError};
pub use ioco_engine::{Quiet, Refusal, Specification};
pub use ioco_symbolic::engine as symbolic;
pub use ioco_symbolic::purpose_seg;
