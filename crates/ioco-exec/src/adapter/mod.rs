//! Adapters: how the tester talks to a system under test (SUT).
//!
//! An [`Adapter`] speaks in the *specification's* labels ([`Label`]): it gives inputs
//! ([`Adapter::send`]) and observes outputs or quiescence ([`Adapter::observe`]). The input/output
//! race of tutorial Alg. 2 (P1:L521) is part of the contract: when an output is already pending
//! as the tester wants to give an input, `send` does not give the input and returns
//! [`Sent::Raced`] with that output, so it is recorded in the order in which it happened.
//!
//! Implementations:
//! * [`process::ProcessAdapter`]: a child process over stdin/stdout (the wire format of
//!   [`wire`]), in its own process group, killed on drop, reset and error;
//! * [`tcp::TcpAdapter`]: the same wire format over TCP, as client or as server;
//! * [`txs::TxsAdapter`]: TorXakis's sockets (a `CNECTDEF`: several sockets, TorXakis's value
//!   text), with data ([`txs::TxsLabels`] over labels);
//! * [`sim::Simulator`]: any [`ioco_model::Lts`] as the SUT, with seeded choices;
//! * [`inproc::InProcess`]: a Rust component implementing [`inproc::Component`].
//!
//! ## What a misbehaving SUT leads to
//! Errors are [`AdapterError`]s; the runners turn them into verdicts:
//! * a line that is text but not an output of the model ([`AdapterError::UnknownOutput`]) is an
//!   output not allowed anywhere: **Fail**, naming the line;
//! * bytes that are not a line of text (invalid UTF-8, a line over the length cap, a JSON-lines
//!   record that is not JSON, an unterminated line followed by silence) are
//!   [`AdapterError::Malformed`]: **Error**;
//! * a SUT that exits or closes the connection ([`AdapterError::Exited`]): see
//!   [`crate::online`] for the verdict rule (Fail when the specification still requires
//!   something there, Error otherwise).

pub mod http;
pub mod inproc;
pub mod labels;
pub(crate) mod lineio;
pub mod process;
pub mod quiescence;
pub mod sim;
pub mod tcp;
pub mod txs;
pub mod wire;

pub use ioco_engine::adapter::{prefetch, Adapter, AdapterError, Observation, Sent};
