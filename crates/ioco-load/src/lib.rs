//! # ioco-load
//!
//! Loading: from the files a user names to what the engine runs. It is the one crate above
//! both the front ends (`ioco-txs`, `ioco-lang`) and the systems under test (`ioco-exec`), so
//! that neither knows the other:
//! * [`cnect`]: a TorXakis `CNECTDEF` to the socket configuration of `ioco-exec`'s TorXakis
//!   adapter, so that `ioco test MODEL.txs` reaches the system under test as TorXakis does;
//! * [`engine`]: which engine tests a model, chosen once, by what runs;
//! * [`timing`]: the quiescence time-outs of a session over an LTS, from the model's
//!   `@timeout`s and the user's overrides.

pub mod cnect;
pub mod engine;
pub mod timing;
