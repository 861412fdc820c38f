//! # ioco-exec
//!
//! Execution of ioco tests against real systems.
//!
//! * [`result`]: what runs produce ([`RunResult`], [`Summary`]), serde-serialisable;
//! * [`trace`]: the trace of a run ([`Trace`]), labels as written, stored as indices into a
//!   table of texts shared by the runs of a tester;
//! * [`adapter`]: the crate `ioco-sut` under its old path: the [`Sut`] trait and its
//!   implementations: child process ([`adapter::process`]), TCP ([`adapter::tcp`]), model
//!   simulator ([`adapter::sim`]), in-process Rust components ([`adapter::inproc`]); the wire
//!   format ([`adapter::wire`]);
//! * [`online`]: on-the-fly testing, tutorial Alg. 2 ([`run_online`], [`test_component`]);
//! * [`suite`]: running stored test suites (note §2.4) ([`run_suite`]);
//! * [`replay`]: replaying recorded traces and shrinking failures by delta debugging;
//! * [`data`] (`ioco_sut::data`): processes and TCP peers as systems under test with data
//!   (gate values), for the symbolic engine of `ioco-symbolic`;
//! * [`timeouts`]: how long to wait before concluding quiescence (per state and label);
//! * [`tester`]: the shared bookkeeping of a run over an LTS; the tester's rules for each step
//!   against a SUT, and for misbehaving SUTs, are the engine's ([`engine::rules`]), followed by
//!   online runs and suites alike.
//!
//! Typical use (the CLI does the same):
//!
//! ```no_run
//! use ioco_sut::process::{ProcessAdapter, ProcessConfig};
//! use ioco_sut::Sut;
//! use ioco_exec::online::{run_online, OnlineOptions};
//! # let spec: ioco_model::Lts = unimplemented!();
//! let mut cfg = ProcessConfig::from_command_line("./coffee-machine --faulty").unwrap();
//! cfg.wire.marker = Some("#quiet".into());
//! let opts = OnlineOptions { runs: 200, depth: 30, jobs: 2, seed: 42, ..Default::default() };
//! let summary = run_online(&spec, &opts, |_worker| {
//!     Ok(Box::new(ProcessAdapter::new(spec.alphabet(), cfg.clone())?) as Box<dyn Sut + Send>)
//! })
//! .unwrap();
//! println!("{}", serde_json::to_string_pretty(&summary).unwrap());
//! std::process::exit(summary.verdict.exit_code());
//! ```

/// The systems under test, in their own crate (`ioco-sut`); kept here under their old path.
pub use ioco_sut as adapter;
pub mod coverage;
pub use ioco_sut::data;
pub mod data_session;
pub mod engine;
pub use ioco_engine::{fairness, options, result, shard, shrinking, tester, timeouts, trace};
pub mod explore;
pub mod online;
pub mod purpose;
pub mod replay;
pub mod session;
pub mod sts_suite;
pub mod suite;

pub use adapter::{Observation, Sent, Sut, SutError};
pub use online::{run_online, run_online_with, test_component, OnlineOptions, Progress, Traces};
pub use replay::{parse_trace, replay_inputs, replay_trace, shrink, shrink_into};
pub use result::{
    Collector, CoverageSummary, Established, Failure, Keep, Omitted, RunResult, RunVerdict, Shrunk,
    Summary,
};
pub use suite::{run_suite, run_test};
pub use tester::Tester;
pub use timeouts::Timeouts;
pub use trace::Trace;
