//! How a system under test is reached, as plain data ([`System`]), and the one place where
//! such a description becomes the systems of a session: [`System::labels`] for a model over
//! labels (the explicit engine), [`System::gate_values`] for a model with data (the symbolic
//! engine). A front end (the CLI, a library user, a configuration file) only describes the
//! system; which adapter it is, what is checked before the first run, which system is shared
//! between runs and which is made anew for each are decided here.
//!
//! A description is serialisable (serde; JSON in the tests) except for [`System::Sim`], whose
//! model is already loaded (an [`Lts`] or a [`Spec`]: models are read by the loading crates
//! above this one, not here, and are not plain data).
//!
//! What is checked once, before any run, so that a wrong description is one clear error and not
//! an Error verdict per run: the mapping and the wire format against the model's labels
//! (process and TCP), a `CNECTDEF` against the model's gates (TorXakis sockets), an HTTP map
//! against the gates, that the simulator can simulate a model with data; a listening socket is
//! bound now, and its address returned ([`Built::listening`]) for the caller to announce.

use crate::data::{DataAdapter, DataTarget};
use crate::http::{HttpMap, HttpSut};
use crate::labels::Labels;
use crate::process::{ProcessAdapter, ProcessConfig};
use crate::sim::{SimOptions, Simulator};
use crate::tcp::{TcpAdapter, TcpConfig, TcpMode};
use crate::txs::{TxsAdapter, TxsLabels, TxsSocketConfig};
use crate::{Sut, SutError};
use ioco_lang::ir::Spec;
use ioco_model::{Alphabet, Lts};
use ioco_symbolic::online::GateValue;
use serde::{Deserialize, Serialize};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A system under test and how it is reached (see the module documentation).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum System {
    /// A program over its standard input and output, started anew for each run (or reset with
    /// a line, as its configuration says).
    Process(ProcessConfig),
    /// The wire format over TCP: connect to the system (with a server program started for
    /// each run, when the configuration names one) or listen for it (one system, served to one
    /// run at a time: the port is bound once).
    Tcp(TcpConfig),
    /// TorXakis's sockets (a `CNECTDEF`), over the model's gates.
    Txs {
        /// The sockets, encodings and decodings.
        config: TxsSocketConfig,
        /// How long to wait for an output before concluding quiescence.
        timeout: Duration,
    },
    /// A service over HTTP with JSON bodies.
    Http {
        /// The base URL (`http://127.0.0.1:8080`).
        url: String,
        /// Which request each input is, which output each response.
        map: HttpMap,
        /// How long to wait for a response (and, without one, the quiescence time-out).
        timeout: Duration,
    },
    /// A model simulated as the system (for experiments and mutants). Not serialisable: the
    /// model is loaded by the caller (this crate reads no model files).
    #[serde(skip)]
    Sim(Simulated),
}

/// The model a [`System::Sim`] simulates.
#[derive(Clone, Debug)]
pub enum Simulated {
    /// An LTS, over labels ([`Simulator`], its choices seeded by the session).
    Lts {
        /// The implementation model.
        model: Arc<Lts>,
        /// Its quiescence policy and race probability.
        options: SimOptions,
    },
    /// A model with data, over gate values (`ioco_symbolic::online::SpecSut` with the Z3
    /// solver, its choices seeded per run): needs this crate's feature `z3`.
    Data {
        /// The implementation model.
        model: Arc<Spec>,
    },
}

/// The systems of a session over labels, one per worker (the argument: the worker's index).
pub type LabelFactory = Box<dyn Fn(usize) -> Result<Box<dyn Sut + Send>, SutError> + Send + Sync>;

/// The systems of a session over gate values, one per run (the argument: the run's seed).
pub type GateValueFactory =
    Box<dyn Fn(u64) -> Result<Box<dyn Sut<GateValue>>, String> + Send + Sync>;

/// A factory of systems, with the address a listening system was bound to.
pub struct Built<F> {
    /// Makes the systems.
    pub factory: F,
    /// [`System::Tcp`] listening: where the system must connect (the port the system chose
    /// when port 0 was asked for). The caller says so; this crate prints nothing.
    pub listening: Option<SocketAddr>,
}

/// Why a [`System`] cannot be built for a model, by the part of the description at fault (so
/// that the caller can name its source: a file, an option).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SystemError {
    /// The configuration does not fit the model (a mapping naming no label, a `CNECTDEF` not
    /// matching the gates), or a port cannot be bound.
    Config(String),
    /// The HTTP map does not fit the model's gates.
    HttpMap(String),
    /// The simulated model cannot be simulated.
    Model(String),
}

impl std::fmt::Display for SystemError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SystemError::Config(e) | SystemError::HttpMap(e) | SystemError::Model(e) => {
                f.write_str(e)
            }
        }
    }
}

impl std::error::Error for SystemError {}

/// The one system of a listening socket, handed to the first run that asks (the port is bound
/// once: a second worker would wait for a second system that never connects).
struct Once<T>(Mutex<Option<T>>);

impl<T> Once<T> {
    fn new(t: T) -> Once<T> {
        Once(Mutex::new(Some(t)))
    }

    fn take(&self) -> Option<T> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// What a second run of a listening system is told.
const LISTEN_ONCE: &str = "--listen serves one SUT: use --jobs 1";

impl System {
    /// The factory of this system for a model over labels with `alphabet`. `data` is the
    /// model's spec with data, for the systems that speak gate values (TorXakis sockets,
    /// HTTP), seen through the labels.
    pub fn labels(
        self,
        alphabet: &Alphabet,
        data: Option<Arc<Spec>>,
    ) -> Result<Built<LabelFactory>, SystemError> {
        let alphabet = alphabet.clone();
        let needs_data = |what: &str| {
            data.clone().ok_or_else(|| {
                SystemError::Config(format!(
                    "{what} speaks gate values: give the model's spec with data as well as its \
                     labels"
                ))
            })
        };
        let factory: LabelFactory = match self {
            System::Http { url, map, timeout } => {
                let spec = needs_data("an HTTP service")?;
                map.check(&spec).map_err(SystemError::HttpMap)?;
                Box::new(move |_| {
                    let http = HttpSut::new(&url, map.clone(), spec.clone(), timeout);
                    Ok(Box::new(Labels::with_spec(http, spec.clone(), &alphabet)) as Box<_>)
                })
            }
            System::Txs { config, timeout } => {
                let spec = needs_data("a CNECTDEF")?;
                // the adapter made to check the configuration serves the first run
                let first = Once::new(
                    TxsAdapter::new(spec.clone(), config.clone()).map_err(SystemError::Config)?,
                );
                Box::new(move |_| {
                    let mut a = match first.take() {
                        Some(a) => a,
                        None => TxsAdapter::new(spec.clone(), config.clone())
                            .map_err(SutError::Start)?,
                    };
                    a.timeout = timeout;
                    Ok(Box::new(TxsLabels::new(a, &alphabet)) as Box<_>)
                })
            }
            System::Process(cfg) => {
                ProcessAdapter::new(&alphabet, cfg.clone()).map_err(config)?;
                Box::new(move |_| Ok(Box::new(ProcessAdapter::new(&alphabet, cfg.clone())?) as _))
            }
            System::Tcp(cfg) if matches!(cfg.mode, TcpMode::Listen(_)) => {
                let a = TcpAdapter::new(&alphabet, cfg).map_err(config)?;
                let listening = a.local_addr();
                let cell = Once::new(a);
                return Ok(Built {
                    factory: Box::new(move |_| {
                        let a = cell
                            .take()
                            .ok_or_else(|| SutError::Start(LISTEN_ONCE.into()))?;
                        Ok(Box::new(a) as Box<_>)
                    }),
                    listening,
                });
            }
            System::Tcp(cfg) => {
                TcpAdapter::new(&alphabet, cfg.clone()).map_err(config)?;
                Box::new(move |_| Ok(Box::new(TcpAdapter::new(&alphabet, cfg.clone())?) as _))
            }
            System::Sim(Simulated::Lts { model, options }) => Box::new(move |_| {
                Ok(Box::new(Simulator::new(Arc::clone(&model), &alphabet, options)) as _)
            }),
            System::Sim(Simulated::Data { .. }) => {
                return Err(SystemError::Model(
                    "a model with data is simulated over gate values, not labels: simulate \
                     its LTS"
                        .into(),
                ))
            }
        };
        Ok(Built {
            factory,
            listening: None,
        })
    }

    /// The factory of this system for a model with data, `spec` (gate values).
    pub fn gate_values(self, spec: &Arc<Spec>) -> Result<Built<GateValueFactory>, SystemError> {
        let spec = spec.clone();
        let factory: GateValueFactory = match self {
            System::Http { url, map, timeout } => {
                map.check(&spec).map_err(SystemError::HttpMap)?;
                Box::new(move |_| {
                    Ok(Box::new(HttpSut::new(&url, map.clone(), spec.clone(), timeout)) as Box<_>)
                })
            }
            System::Txs { config, timeout } => {
                // the adapter made to check the configuration serves the first run
                let first = Once::new(
                    TxsAdapter::new(spec.clone(), config.clone()).map_err(SystemError::Config)?,
                );
                Box::new(move |_| {
                    let mut a = match first.take() {
                        Some(a) => a,
                        None => TxsAdapter::new(spec.clone(), config.clone())?,
                    };
                    a.timeout = timeout;
                    Ok(Box::new(a) as Box<_>)
                })
            }
            System::Tcp(cfg) if matches!(cfg.mode, TcpMode::Listen(_)) => {
                let timeout = cfg.settle;
                let mut a =
                    DataAdapter::new(spec, DataTarget::Tcp(cfg)).map_err(SystemError::Config)?;
                a.timeout = timeout;
                let listening = a.local_addr();
                let cell = Once::new(a);
                return Ok(Built {
                    factory: Box::new(move |_| {
                        let a = cell.take().ok_or(LISTEN_ONCE)?;
                        Ok(Box::new(a) as Box<_>)
                    }),
                    listening,
                });
            }
            System::Process(cfg) => {
                let timeout = cfg.settle;
                data_adapters(spec, DataTarget::Process(cfg), timeout)?
            }
            System::Tcp(cfg) => {
                let timeout = cfg.settle;
                data_adapters(spec, DataTarget::Tcp(cfg), timeout)?
            }
            System::Sim(Simulated::Data { model }) => sim_data(model)?,
            System::Sim(Simulated::Lts { .. }) => {
                return Err(SystemError::Model(
                    "an LTS is simulated over labels, not gate values: simulate the model with \
                     data"
                        .into(),
                ))
            }
        };
        Ok(Built {
            factory,
            listening: None,
        })
    }
}

/// A process or TCP peer over gate values, one per run; the gates and the mapping are checked
/// now. Over gate values the wait for an output starts as the settling time, until the session
/// gives its own.
fn data_adapters(
    spec: Arc<Spec>,
    target: DataTarget,
    timeout: Duration,
) -> Result<GateValueFactory, SystemError> {
    DataAdapter::new(spec.clone(), target.clone()).map_err(SystemError::Config)?;
    Ok(Box::new(move |_| {
        let mut a = DataAdapter::new(spec.clone(), target.clone())?;
        a.timeout = timeout;
        Ok(Box::new(a) as Box<_>)
    }))
}

fn config(e: SutError) -> SystemError {
    SystemError::Config(e.to_string())
}

/// The simulator of a model with data: a conforming implementation with the solver's choices,
/// seeded per run; the model is checked for the solver once now.
#[cfg(feature = "z3")]
fn sim_data(model: Arc<Spec>) -> Result<GateValueFactory, SystemError> {
    use ioco_symbolic::online::SpecSut;
    use ioco_symbolic::SymbolicSpec;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    SymbolicSpec::with_z3(model.clone()).map_err(SystemError::Model)?;
    Ok(Box::new(move |seed| {
        let sim = SymbolicSpec::with_z3(model.clone())?;
        Ok(Box::new(SpecSut::new(sim, ChaCha8Rng::seed_from_u64(seed ^ 0x5eed))) as Box<_>)
    }))
}

#[cfg(not(feature = "z3"))]
fn sim_data(_model: Arc<Spec>) -> Result<GateValueFactory, SystemError> {
    Err(SystemError::Model(
        "simulating a model with data needs the Z3 solver: build ioco-sut with its feature `z3`"
            .into(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ioco_engine::{OnlineOptions, RunVerdict};
    use ioco_symbolic::engine::run_online;
    use ioco_symbolic::SymbolicSpec;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::path::PathBuf;

    fn root() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    /// TAP19's Example 4 (`inX?(p)` adds `p`, `outX!(x)` says the sum, `done!` past 15).
    fn tap19() -> Arc<Spec> {
        let m = ioco_lang::parse_file(root().join("ioco-symbolic/tests/models/tap19.ioco"))
            .expect("tap19.ioco");
        Arc::new(m.entry().unwrap().clone())
    }

    /// The description of the TAP19 program in `mode`, as JSON: written by hand, as a
    /// configuration file would be (every field of the process configuration).
    fn tap19_json(mode: &str) -> String {
        let script = root().join("ioco-symbolic/tests/suts/tap19.sh");
        serde_json::json!({
            "process": {
                "argv": ["/bin/sh", script.display().to_string(), mode],
                "wire": {
                    "format": "lines", "marker": null, "mapping": {}, "max_line": 65536,
                    "values": false, "gate_values": false, "mealy": false
                },
                "reset": "restart",
                // generous: a slow machine must not turn a late output into quiescence
                "settle": {"secs": 0, "nanos": 400_000_000},
                "stderr_limit": 8192,
                "write_timeout": {"secs": 5, "nanos": 0},
                "startup_timeout": {"secs": 30, "nanos": 0},
                "ready_line": null,
                "startup_grace": {"secs": 5, "nanos": 0},
                "io_time": {"secs": 0, "nanos": 50_000_000},
                "process_quiescence": true,
                "start_tries": 1
            }
        })
        .to_string()
    }

    /// Three runs against the system: their verdicts; each run gave an input.
    fn runs(system: System, seed: u64) -> Vec<RunVerdict> {
        let spec = tap19();
        let built = system.gate_values(&spec).unwrap();
        assert!(built.listening.is_none());
        let opts = OnlineOptions {
            depth: 8,
            quiescence_timeout: Duration::from_millis(400),
            ..OnlineOptions::default()
        };
        (0..3)
            .map(|run| {
                let mut t = SymbolicSpec::with_z3(spec.clone()).unwrap();
                let mut sut = (built.factory)(seed + run).unwrap();
                let mut rng = ChaCha8Rng::seed_from_u64(seed + run);
                let r = run_online(&mut t, &mut *sut, &opts, &mut rng);
                assert!(
                    r.trace.iter().any(|l| l.starts_with("inX?")),
                    "{:?}",
                    r.trace
                );
                r.verdict
            })
            .collect()
    }

    #[test]
    fn a_description_read_from_json_is_a_real_process_under_test() {
        let system: System = serde_json::from_str(&tap19_json("correct")).unwrap();
        // written back, the description is the same plain data
        let again: System = serde_json::from_str(&serde_json::to_string(&system).unwrap()).unwrap();
        assert_eq!(
            serde_json::to_value(&again).unwrap(),
            serde_json::from_str::<serde_json::Value>(&tap19_json("correct")).unwrap()
        );
        let System::Process(cfg) = &again else {
            panic!("{again:?}")
        };
        assert_eq!(cfg.argv[0], "/bin/sh");
        // the program conforms: every run passes
        assert_eq!(runs(again, 1), [RunVerdict::Pass; 3]);
        // the program that adds one too many is caught
        let plus1: System = serde_json::from_str(&tap19_json("plus1")).unwrap();
        assert!(runs(plus1, 1).contains(&RunVerdict::Fail));
    }

    #[test]
    fn a_mapping_that_does_not_fit_the_model_is_refused_before_any_run() {
        let mut cfg = ProcessConfig::from_command_line("/bin/cat").unwrap();
        cfg.wire.mapping.0.insert("nosuch".into(), "X".into());
        let e = System::Process(cfg.clone())
            .gate_values(&tap19())
            .err()
            .expect("refused");
        assert!(
            matches!(&e, SystemError::Config(m) if m.contains("nosuch")),
            "{e}"
        );
        let alphabet = crate::data::gate_alphabet(&tap19()).unwrap();
        let e = System::Process(cfg)
            .labels(&alphabet, None)
            .err()
            .expect("refused");
        assert!(e.to_string().contains("nosuch"), "{e}");
    }

    #[test]
    fn a_listening_system_says_where_and_serves_one_run() {
        let alphabet = crate::data::gate_alphabet(&tap19()).unwrap();
        let system = System::Tcp(TcpConfig::new(TcpMode::Listen("0".into())));
        let built = system.labels(&alphabet, None).unwrap();
        let addr = built.listening.expect("bound");
        assert!(addr.ip().is_loopback() && addr.port() != 0, "{addr}");
        assert!((built.factory)(0).is_ok());
        let second = (built.factory)(1).err().expect("one system");
        assert!(second.to_string().contains("use --jobs 1"), "{second}");
    }

    #[test]
    fn the_simulated_model_is_loaded_by_the_caller_and_not_serialised() {
        let sim = System::Sim(Simulated::Data { model: tap19() });
        assert!(serde_json::to_string(&sim).is_err());
        let alphabet = crate::data::gate_alphabet(&tap19()).unwrap();
        let e = sim.clone().labels(&alphabet, None).err().expect("refused");
        assert!(matches!(e, SystemError::Model(_)), "{e}");
        // an HTTP service over labels needs the model's gates
        let http = System::Http {
            url: "http://127.0.0.1:1".into(),
            map: HttpMap::default(),
            timeout: Duration::from_secs(1),
        };
        assert!(http.labels(&alphabet, None).is_err());
    }

    #[cfg(feature = "z3")]
    #[test]
    fn the_simulator_of_a_model_with_data_conforms() {
        let sim = System::Sim(Simulated::Data { model: tap19() });
        assert_eq!(runs(sim, 5), [RunVerdict::Pass; 3]);
    }
}
