//! Example systems under test for ioco: the coffee machine of the thesis' introduction
//! ([`coffee`]) and a bounded FIFO queue after TorXakis's Queue example ([`queue`]), each with a
//! correct mode and faulty modes, runnable as the binaries `coffee-sut` and `queue-sut` over
//! the line-based wire format of [`wire`]. [`explore`] turns a machine into an LTS, so that
//! tests can check the bundled specifications against the correct modes with
//! `ioco_model::compare`.
//!
//! With data ([`data`]: `gate arg1 arg2` lines or JSON lines): the coffee machine of
//! `examples/coffee/coffee-sts.ioco` ([`coffee_sts`], binary `coffee-sts-sut`) and the
//! Bounded Retransmission Protocol sender of `examples/brp/brp.ioco` ([`brp`], binary
//! `brp-sut`), and the BRP sender as the Automata Wiki describes it, the model of the TAP19
//! experiment (`examples/brp/brp-sender.ioco`, [`brp_sender`], binary `brp-sender-sut`), for
//! the symbolic engine.
//!
//! TorXakis's examples over their `.txs` socket protocols ([`txs`], binary `txs-sut`), and
//! TorXakis's ControlLoop, a system with outputs only ([`control_loop`], binary
//! `control-loop-sut`).

pub mod brp;
pub mod brp_sender;
pub mod coffee;
pub mod coffee_sts;
pub mod control_loop;
pub mod data;
pub mod explore;
pub mod queue;
pub mod txs;
pub mod wire;

pub use coffee::{Coffee, CoffeeMode};
pub use explore::{explore, ExploreError};
pub use queue::{Queue, QueueMode};
pub use wire::{serve, Effect, Machine};
