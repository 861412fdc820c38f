//! Adapters: how the tester talks to a system under test (SUT), each a [`Sut`] (the one
//! interface of `ioco-engine`) over the *specification's* labels ([`Label`]) or, for models
//! with data, over gate values (a gate with its values): it gives inputs ([`Sut::send`]) and
//! observes outputs or quiescence ([`Sut::observe`]). The input/output race of tutorial
//! Alg. 2 (P1:L521) is part of the contract: when an output is already pending as the tester
//! wants to give an input, `send` does not give the input and returns [`Sent::Raced`] with
//! that output, so it is recorded in the order in which it happened.
//!
//! Implementations:
//! * [`process::ProcessAdapter`]: a child process over stdin/stdout (the wire format of
//!   [`wire`]), in its own process group, killed on drop, reset and error;
//! * [`tcp::TcpAdapter`]: the same wire format over TCP, as client or as server;
//! * [`txs::TxsAdapter`]: TorXakis's sockets (a `CNECTDEF`: several sockets, TorXakis's value
//!   text), with data ([`txs::TxsLabels`] over labels);
//! * [`sim::Simulator`]: any [`ioco_model::Lts`] as the SUT, with seeded choices;
//! * [`http::HttpSut`]: a service over HTTP with JSON bodies, as a mapping file says;
//! * [`inproc::InProcess`]: a Rust component implementing [`inproc::Component`];
//! * [`labels::Labels`]: any of them over gate values, seen through the labels of a model
//!   (for the explicit engine);
//! * [`data::DataAdapter`]: a process or TCP peer over gate values (for the symbolic engine).
//!
//! Which of them a session gets is decided in one place, [`system::System`]: a plain,
//! serialisable description of the system (a process, TCP, TorXakis sockets, HTTP, a
//! simulated model) built into the factory of a session's systems, over labels or gate values.
//!
//! ## What a misbehaving SUT leads to
//! Errors are [`SutError`]s; the runners turn them into verdicts:
//! * a line that is text but not an output of the model ([`SutError::UnknownOutput`]) is an
//!   output not allowed anywhere: **Fail**, naming the line;
//! * bytes that are not a line of text (invalid UTF-8, a line over the length cap, a JSON-lines
//!   record that is not JSON, an unterminated line followed by silence) are
//!   [`SutError::Malformed`]: **Error**;
//! * a SUT that exits or closes the connection ([`SutError::Exited`]): see
//!   `ioco_exec::online` for the verdict rule (Fail when the specification still requires
//!   something there, Error otherwise).

pub mod data;
pub mod http;
pub mod inproc;
pub mod labels;
pub(crate) mod lineio;
pub mod process;
pub mod quiescence;
pub mod sim;
pub mod system;
pub mod tcp;
pub mod txs;
pub mod wire;

pub use ioco_engine::{sut::prefetch, Observation, Sent, Sut, SutError};
