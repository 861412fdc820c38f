//! What `ioco test`, `ioco run` and `ioco replay` share: how to reach the system under test
//! ([`SutArgs`], the adapters' factory), where to write reports ([`ReportArgs`]), the seed, and
//! the quiescence timeouts of a session ([`Timing`], [`load_timed`]).

use super::{Outcome, PolicyArg};
use crate::load::Loader;
use ioco_exec::data_session::DataFactory;
use ioco_exec::SutError;
use ioco_exec::{OnlineOptions, RunVerdict, Summary};
use ioco_lang::ir::Spec;
use ioco_model::Lts;
use ioco_report::{Destination, Format as ReportFormat, Results};
use ioco_sut::http::HttpMap;
use ioco_sut::process::{ProcessConfig, ResetMode};
use ioco_sut::sim::{SimOptions, Simulator};
use ioco_sut::system::{Built, Simulated, System, SystemError};
use ioco_sut::tcp::{ServerConfig, TcpConfig, TcpMode, PORT_PLACEHOLDER};
use ioco_sut::wire::{Format, Mapping, WireConfig};
use ioco_symbolic::online::SpecTimeouts;
use miette::{miette, IntoDiagnostic, Result};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How to reach the system under test (shared by `test`, `run`, `replay`).
#[derive(clap::Args, Clone, Debug)]
pub struct SutArgs {
    /// Run this command line as the SUT (split like a shell would; no shell runs unless you
    /// write `sh -c '...'`). With --tcp: a server started anew for each run, connected to once
    /// its port accepts (within --startup-timeout); `{port}` in it and in the address is a
    /// free port chosen per start. (`--cmd` is an older name of this option.)
    #[arg(long = "sut", alias = "cmd", value_name = "COMMAND", group = "sut")]
    pub cmd: Option<String>,
    /// Connect to the SUT at HOST:PORT (reconnecting for each run). With --sut: the server to
    /// start for each run listens there.
    #[arg(long, value_name = "HOST:PORT", conflicts_with_all = ["listen", "sim"])]
    pub tcp: Option<String>,
    /// Test the HTTP/JSON service at this base URL (`http://127.0.0.1:8080`): each input a
    /// request, each response an output, as the map given with --map says (docs/http.md).
    #[arg(long, value_name = "URL", group = "sut", conflicts_with_all = ["tcp", "listen", "sim"])]
    pub http: Option<String>,
    /// Listen on PORT (loopback; or ADDR:PORT) and let the SUT connect, anew for each run
    /// unless --reset-line. `ioco: listening on ADDR` on stderr says where (0: a free port).
    #[arg(long, value_name = "PORT", group = "sut")]
    pub listen: Option<String>,
    /// With --tcp or --listen: how long to wait for the connection (ms, or with a unit: 10s).
    #[arg(long, value_name = "MS", default_value = "10s", value_parser = parse_duration_arg)]
    pub connect_timeout: std::time::Duration,
    /// With --listen: the address bound (the port `0` asked the system for), for the report.
    #[arg(skip)]
    pub bound: std::sync::OnceLock<String>,
    /// The model is a `.ioco` data model: labels `g(1,2)` are gate `g` with values on the wire
    /// (`g 1 2`), as with the symbolic engine (set by [`SutArgs::for_model`]).
    #[arg(skip)]
    pub gate_values: std::sync::OnceLock<bool>,
    /// The model tested (set by [`SutArgs::for_model`]): a `.txs` model without a SUT option
    /// is tested through its `CNECTDEF`.
    #[arg(skip)]
    pub model: std::sync::OnceLock<PathBuf>,
    /// Whether that model is a Mealy machine (read once, by [`SutArgs::mealy_hypothesis`]).
    #[arg(skip)]
    pub model_is_mealy: std::sync::OnceLock<bool>,
    /// With a TorXakis model: the CNECTDEF to reach the SUT with (default: the first
    /// CLIENTSOCK one that fits the model).
    #[arg(long, value_name = "NAME")]
    pub cnect: Option<String>,
    /// The CNECTDEF the SUT is reached through (set by [`SutArgs::txs_connection`]), for the
    /// report.
    #[arg(skip)]
    pub cnect_used: std::sync::OnceLock<String>,
    /// With a TorXakis model's CNECTDEF: use other ports than the file's, `TXSPORT=PORT,...`
    /// (e.g. `7890=41234`).
    #[arg(long, value_name = "MAP")]
    pub txs_ports: Option<String>,
    /// Simulate this model as the SUT (for experiments and mutants).
    #[arg(
        long,
        visible_alias = "simulate",
        value_name = "IMPL_MODEL",
        group = "sut"
    )]
    pub sim: Option<PathBuf>,
    /// The line the SUT prints when it has finished reacting and waits for input (e.g. #quiet).
    #[arg(long, value_name = "LINE")]
    pub quiescence_marker: Option<String>,
    /// How quiescence (δ) is established: `auto`, the marker when one is given, else (Linux,
    /// a system ioco starts with --sut) as soon as the process provably cannot write without
    /// new input (every thread waits for its input or for the system itself, no output unread),
    /// else a whole time-out without output; `process` insists on the process; `timeout`
    /// waits the whole time-out every time; `marker` needs --quiescence-marker. Whatever the
    /// process does not prove falls back to the time-out, never to an early δ.
    #[arg(long, value_enum, value_name = "HOW", default_value_t = QuiescenceArg::Auto)]
    pub quiescence: QuiescenceArg,
    /// Milliseconds without output after which the SUT counts as quiescent (overrides the
    /// model's own `@timeout`). Default: the model's `@timeout`, else 1000 ms, or 2000 ms with a
    /// `--quiescence-marker` (a SUT that prints its marker ends the wait early, so a long wait
    /// costs nothing and guards against a slow or loaded machine) or a TorXakis model (`.txs`:
    /// TorXakis's `Sut_deltaTime`).
    #[arg(long, value_name = "MS")]
    pub timeout: Option<u64>,
    /// Quiescence timeout of a gate (a label name for .aut/DOT/JSON models), overriding the
    /// model's `@timeout`: `coffee=2000` (ms, or with a unit: 2s, 500ms); repeatable.
    #[arg(long, value_name = "GATE=MS")]
    pub timeout_gate: Vec<String>,
    /// Quiescence timeout of a location (`Model.location` or `location`; a state name for
    /// .aut/DOT/JSON models), overriding the model's `@timeout`: `brewing=1500`; repeatable.
    #[arg(long, value_name = "LOCATION=MS")]
    pub timeout_location: Vec<String>,
    /// The Mealy hypothesis: the system answers every input with exactly one output line (and
    /// writes none at start-up), so quiescence after that line is established without waiting.
    /// On by default for a Mealy model (a DOT Mealy file), off with a quiescence marker. A
    /// second output, or none within the time-out, is a Fail where the model allows none (or
    /// requires one).
    #[arg(long)]
    pub mealy: bool,
    /// Speak JSON lines ({"label": ..., "args": [...]}) instead of plain label lines.
    #[arg(long)]
    pub json_lines: bool,
    /// A JSON file mapping model labels to wire strings ({"coin": "COIN", ...}); with --http,
    /// gates to requests and responses to gates (docs/http.md).
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// Reset the SUT between runs by sending this line instead of restarting it.
    #[arg(long, value_name = "LINE")]
    pub reset_line: Option<String>,
    /// After starting the SUT, wait at most this long for it to be ready before the first
    /// input: its start-up quiescence marker, or its --ready-line (ms, or with a unit: 30s).
    /// One budget for all the starts of a run (--retries): a SUT that is never ready costs a
    /// run this long, and a line on standard error every 5 s says what ioco waits for.
    #[arg(long, value_name = "MS", default_value = "30s", value_parser = parse_duration_arg)]
    pub startup_timeout: std::time::Duration,
    /// A line the SUT prints when it is ready (a banner, e.g. `listening`): nothing is sent
    /// before it, and lines before it are not outputs.
    #[arg(long, value_name = "LINE")]
    pub ready_line: Option<String>,
    /// Without a quiescence marker, where the model allows outputs: before each input, wait this
    /// long for an answer still on its way (ms, or with a unit; at least twice the longest
    /// answer time seen, up to 500 ms), so that it is not recorded after the input. (Where the
    /// model allows only quiescence, an input waits until quiescence is established: the
    /// process seen waiting, or a whole time-out.) TorXakis sockets: also the least time
    /// between inputs on two sockets.
    #[arg(long, value_name = "MS", default_value = "50ms", value_parser = parse_duration_arg)]
    pub io_time: std::time::Duration,
    /// Without a marker or a ready line (Linux): wait at most this long after a start until
    /// the SUT blocks reading its input, as /proc shows (ms, or with a unit: 5s; 0: off).
    #[arg(long, value_name = "MS", default_value = "5s", value_parser = parse_duration_arg)]
    pub startup_grace: std::time::Duration,
    /// Attempts to (re)start the SUT before a run is an error (within one --startup-timeout
    /// for them all).
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub retries: usize,
    /// With --sim: probability that an enabled output races ahead of an input.
    #[arg(long, value_name = "P", default_value_t = 0.25)]
    pub race: f64,
    /// When a state is quiescent.
    #[arg(long, value_enum, default_value_t = PolicyArg::Stable)]
    pub policy: PolicyArg,
}

/// Shrinking and its bounds (shared by `test` and `replay`).
#[derive(clap::Args, Clone, Debug)]
pub struct ShrinkArgs {
    /// Shrink failing runs (delta debugging over their inputs, then their values).
    #[arg(long)]
    pub shrink: bool,
    /// With --shrink: most replays to shrink one failing run (the shortest failing inputs
    /// found by then are kept, marked not minimal). Default: 100.
    #[arg(long, value_name = "N")]
    pub shrink_budget: Option<usize>,
    /// With --shrink: most time to shrink one failing run (ms, or with a unit: 60s, 5min); as
    /// for --shrink-budget, the shortest failing inputs found by then are kept. Ctrl-C while
    /// shrinking stops it too, and the Fail is reported. Default: 60s.
    #[arg(long, value_name = "TIME", value_parser = parse_duration_arg)]
    pub shrink_time: Option<std::time::Duration>,
    /// With --shrink: how often each candidate is replayed before it counts as not failing (a
    /// nondeterministic system may need more). Default: 1, or 2 for the symbolic engine.
    #[arg(long, value_name = "N")]
    pub shrink_tries: Option<usize>,
}

impl ShrinkArgs {
    /// A bound of the shrinking without `--shrink` bounds nothing: an error, not ignored.
    pub fn check(&self) -> Result<()> {
        if self.shrink {
            return Ok(());
        }
        let given: Vec<&str> = [
            ("--shrink-budget", self.shrink_budget.is_some()),
            ("--shrink-time", self.shrink_time.is_some()),
            ("--shrink-tries", self.shrink_tries.is_some()),
        ]
        .into_iter()
        .filter(|(_, given)| *given)
        .map(|(name, _)| name)
        .collect();
        if given.is_empty() {
            return Ok(());
        }
        Err(miette!(
            help = format!(
                "add --shrink to shrink failing runs within {0}, or leave out {0}",
                given.join(" and ")
            ),
            "{} bound(s) the shrinking of failing runs, which is off without --shrink",
            given.join(" and ")
        ))
    }

    /// The bounds, with progress on standard error ([`super::shrink_watch`]).
    pub fn options(&self, symbolic: bool) -> ioco_exec::shrinking::ShrinkOptions {
        ioco_exec::shrinking::ShrinkOptions {
            replays: self.shrink_budget.unwrap_or(100).max(1),
            time: Some(
                self.shrink_time
                    .unwrap_or(std::time::Duration::from_secs(60)),
            ),
            tries: self
                .shrink_tries
                .unwrap_or(if symbolic { 2 } else { 1 })
                .max(1),
            watch: Some(super::shrink_watch()),
        }
    }
}

/// Where to write reports (shared by `test`, `run`, `replay`).
#[derive(clap::Args, Clone, Debug)]
pub struct ReportArgs {
    /// Write the summary as JSON (the input of `ioco replay`); `-`: to standard output (the
    /// text summary then goes to standard error).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write a JUnit XML report (`-`: to standard output).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write a Markdown report (`-`: to standard output).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Write an HTML report: one self-contained page with the verdict, the model drawn with
    /// the coverage of the runs, the failing run as a sequence chart, the shrunk trace and
    /// every run (`ioco report RESULT.json --html FILE` makes one from saved results).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// List passing runs too.
    #[arg(long, short)]
    pub verbose: bool,
    /// The exit code of an Inconclusive session (no Fail, no Error, but not a Pass): `own`
    /// exits 3, `pass` exits 0, `fail` exits 1.
    #[arg(long, value_enum, value_name = "AS", default_value_t = InconclusiveArg::Own)]
    pub inconclusive: InconclusiveArg,
}

/// `--inconclusive`: how an Inconclusive session exits.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum InconclusiveArg {
    /// Exit 3, its own code.
    #[default]
    Own,
    /// Exit 0, as a Pass.
    Pass,
    /// Exit 1, as a Fail.
    Fail,
}

/// A factory of adapters, one per worker.
pub type Factory = ioco_sut::system::LabelFactory;

impl SutArgs {
    pub(crate) fn wire(&self) -> Result<WireConfig> {
        self.check_quiescence()?;
        let mapping = match &self.map {
            None => Mapping::default(),
            Some(p) => {
                let text = std::fs::read_to_string(p)
                    .map_err(|e| miette!("cannot read {}: {e}", p.display()))?;
                Mapping::from_json(&text).map_err(|e| miette!("{}:{e}", p.display()))?
            }
        };
        Ok(WireConfig {
            format: if self.json_lines {
                Format::JsonLines
            } else {
                Format::Lines
            },
            marker: self.quiescence_marker.clone(),
            mapping,
            gate_values: self.gate_values.get().copied().unwrap_or(false),
            mealy: self.mealy_hypothesis(),
            ..WireConfig::default()
        })
    }

    /// Whether the Mealy hypothesis holds: `--mealy`, or the model is a Mealy machine; not
    /// with a quiescence marker, which says exactly when the system waits.
    pub fn mealy_hypothesis(&self) -> bool {
        self.quiescence_marker.is_none()
            && (self.mealy
                || self.model.get().is_some_and(|p| {
                    *self.model_is_mealy.get_or_init(|| {
                        !crate::load::is_lang(p)
                            && matches!(ioco_formats::load(p), Ok(ioco_formats::Model::Mealy(_)))
                    })
                }))
    }

    /// Note the model the SUT is tested against: a `.ioco` model's labels with values go on
    /// the wire as gate and values, one format for both engines.
    pub fn for_model(&self, path: &std::path::Path) {
        let _ = self.gate_values.set(crate::load::is_lang(path));
        self.set_model(path);
    }

    /// Note the model file (for a `.txs` model's `CNECTDEF`), without choosing a wire format.
    pub fn set_model(&self, path: &std::path::Path) {
        let _ = self.model.set(path.to_path_buf());
    }

    /// The TorXakis socket adapter's configuration from the model's `CNECTDEF`, when the model
    /// is a `.txs` file and no other SUT is given; with the entry spec it is for.
    pub(crate) fn txs_connection(
        &self,
        ld: &Loader,
    ) -> Result<Option<(Arc<ioco_lang::ir::Spec>, ioco_sut::txs::TxsSocketConfig)>> {
        let Some(path) = self.model.get() else {
            return Ok(None);
        };
        if self.tcp.is_some() || self.listen.is_some() || self.sim.is_some() {
            return Ok(None);
        }
        // `--sut CMD` with a port placeholder (or with --cnect): TorXakis's way, the command
        // started for each run and reached through the CNECTDEF; without, a program on
        // standard input and output
        let server = match &self.cmd {
            Some(cmd) if cmd.contains("{port") || self.cnect.is_some() => Some(cmd),
            Some(_) => return Ok(None),
            None => None,
        };
        if !crate::load::is_txs(path) {
            if let Some(c) = &self.cnect {
                return Err(miette!(
                    help =
                        "leave out --cnect, or give the TorXakis model (.txs) the CNECTDEF is in",
                    "--cnect {c} names a CNECTDEF of a TorXakis model, but {} is not a .txs file",
                    path.display()
                ));
            }
            return Ok(None);
        }
        let (m, spec) = ld.txs_entry(path)?;
        let c = ioco_load::cnect::pick(&m.lowered, &spec, self.cnect.as_deref())
            .map_err(|e| miette!("{}: {e}", path.display()))?;
        let _ = self.cnect_used.set(c.name.name.clone());
        let mut cfg = ioco_load::cnect::config(c, &m.lowered, &spec)
            .map_err(|e| miette!("{}: {e}", path.display()))?;
        if let Some(map) = &self.txs_ports {
            cfg.ports = ioco_sut::txs::parse_port_map(map).map_err(|e| miette!("{e}"))?;
        }
        cfg.connect_timeout = self.connect_timeout;
        cfg.io_time = self.io_time;
        if let Some(cmd) = server {
            let argv = ProcessConfig::from_command_line(cmd)
                .map_err(|e| miette!("{e}"))?
                .argv;
            cfg.server = Some(ServerConfig {
                argv,
                startup_timeout: self.startup_timeout,
            });
        }
        Ok(Some((spec, cfg)))
    }

    /// With `--http`: the HTTP map of `--map` (checked against the model when the system is
    /// built), with the model's spec when `load` (for a model over labels).
    fn http_map(&self, load: bool, ld: &Loader) -> Result<(HttpMap, Option<Arc<Spec>>)> {
        let path = self
            .model
            .get()
            .ok_or_else(|| miette!("--http needs a model"))?;
        if !crate::load::is_lang(path) {
            return Err(miette!(
                help = "write the model in .ioco (or .txs): its gates carry the values",
                "--http tests a .ioco or .txs model, not {}",
                path.display()
            ));
        }
        let spec = if load {
            Some(ld.load_spec(path)?)
        } else {
            None
        };
        let map_path = self.map.as_ref().ok_or_else(|| {
            miette!(
                help = "e.g. --map service.json (docs/http.md)",
                "--http needs --map FILE: which request each input is, which output each response"
            )
        })?;
        let text = std::fs::read_to_string(map_path)
            .map_err(|e| miette!("cannot read {}: {e}", map_path.display()))?;
        let map = HttpMap::parse(&text).map_err(|e| miette!("{}: {e}", map_path.display()))?;
        Ok((map, spec))
    }

    /// The TCP adapter's configuration for `mode` (client or server), with this command line's
    /// reset and connection time-out, and with `--sut CMD --tcp ADDR` the server to start per
    /// run.
    pub(crate) fn tcp_config(
        &self,
        mode: TcpMode,
        wire: WireConfig,
        settle: std::time::Duration,
    ) -> Result<TcpConfig> {
        let mut cfg = TcpConfig::new(mode);
        cfg.wire = wire;
        cfg.reset = self.reset();
        cfg.settle = settle;
        cfg.connect_timeout = self.connect_timeout;
        cfg.io_time = self.io_time;
        cfg.process_quiescence = matches!(
            self.quiescence,
            QuiescenceArg::Auto | QuiescenceArg::Process
        );
        if let (Some(cmd), Some(_)) = (&self.cmd, &self.tcp) {
            let argv = ProcessConfig::from_command_line(cmd)
                .map_err(|e| miette!("{e}"))?
                .argv;
            cfg.server = Some(ServerConfig {
                argv,
                startup_timeout: self.startup_timeout,
            });
        }
        Ok(cfg)
    }

    /// Refuse `--jobs N` where the workers would share one SUT: `--listen`, or a server
    /// started per run on a fixed port (`{port}` gives each start its own).
    pub(crate) fn check_jobs(&self, jobs: usize) -> Result<()> {
        if jobs <= 1 {
            return Ok(());
        }
        if self.listen.is_some() {
            return Err(miette!(
                help = "use --jobs 1 with --listen",
                "--listen serves one SUT connection at a time"
            ));
        }
        if let (Some(cmd), Some(addr)) = (&self.cmd, &self.tcp) {
            if !addr.contains(PORT_PLACEHOLDER) {
                return Err(miette!(
                    help = format!(
                        "write {PORT_PLACEHOLDER} in the address and the command line (e.g. \
                         --tcp 127.0.0.1:{PORT_PLACEHOLDER} --sut \"./server \
                         {PORT_PLACEHOLDER}\") so that each start gets a free port, or use \
                         --jobs 1"
                    ),
                    "--jobs {jobs} would start `{cmd}` {jobs} times on the same port {addr}"
                ));
            }
        }
        Ok(())
    }

    pub(crate) fn reset(&self) -> ResetMode {
        match &self.reset_line {
            Some(l) => ResetMode::Line(l.clone()),
            None => ResetMode::Restart,
        }
    }

    /// A short description of the SUT, for the report.
    pub fn describe(&self) -> String {
        let sut = self.describe_sut();
        if self.mealy_hypothesis()
            && (self.cmd.is_some() || self.tcp.is_some() || self.listen.is_some())
        {
            format!("{sut} (the Mealy hypothesis: one output line per input)")
        } else {
            sut
        }
    }

    fn describe_sut(&self) -> String {
        if let (Some(c), Some(n), Some(m)) = (&self.cmd, self.cnect_used.get(), self.model.get()) {
            format!(
                "the CNECTDEF {n} of {}, SUT started per run: {c}",
                m.display()
            )
        } else if let (Some(c), Some(a)) = (&self.cmd, &self.tcp) {
            format!("tcp client of {a}, server started per run: {c}")
        } else if let Some(c) = &self.cmd {
            format!("process: {c}")
        } else if let Some(a) = &self.tcp {
            format!("tcp client of {a}")
        } else if let Some(p) = &self.listen {
            format!("tcp server on {}", self.bound.get().unwrap_or(p))
        } else if let Some(u) = &self.http {
            format!("http service at {u}")
        } else if let Some(m) = &self.sim {
            format!("simulated model {}", m.display())
        } else if let Some(m) = self.model.get().filter(|m| crate::load::is_txs(m)) {
            match self.cnect_used.get() {
                Some(c) => format!("the CNECTDEF {c} of {}", m.display()),
                None => format!("the CNECTDEF of {}", m.display()),
            }
        } else {
            "none".into()
        }
    }

    /// The default quiescence timeout in ms: `--timeout`, else 2000 with a quiescence marker
    /// or a TorXakis model (`.txs`: TorXakis's default `Sut_deltaTime`), else 1000 (a model's
    /// `@timeout` comes between the first and the others: [`Timing`]). Ordinary programs
    /// answer within it (a cold JVM needs up to half a second); an answer that comes late
    /// makes later observations wait longer, with a warning.
    pub fn timeout_ms(&self) -> u64 {
        let txs = self.model.get().is_some_and(|m| crate::load::is_txs(m));
        self.timeout.unwrap_or(if txs {
            TXS_DELTA_TIME_MS
        } else if self.quiescence_marker.is_some() {
            2000
        } else {
            1000
        })
    }

    /// The start-up settings of a process SUT.
    /// `--quiescence` against the other options: a clear error where it cannot apply.
    fn check_quiescence(&self) -> Result<()> {
        let marker = self.quiescence_marker.is_some();
        match self.quiescence {
            QuiescenceArg::Auto => Ok(()),
            QuiescenceArg::Marker if !marker => Err(miette!(
                help = "give the line the system prints when it waits for input, e.g. \
                        --quiescence-marker '#quiet'",
                "--quiescence marker needs --quiescence-marker LINE"
            )),
            QuiescenceArg::Marker => Ok(()),
            QuiescenceArg::Timeout | QuiescenceArg::Process if marker => Err(miette!(
                help = "leave out --quiescence-marker, or use --quiescence marker",
                "--quiescence {} does not use the marker given with --quiescence-marker",
                self.quiescence.name()
            )),
            QuiescenceArg::Timeout => Ok(()),
            QuiescenceArg::Process
                if self.cmd.is_none()
                    || !cfg!(all(target_os = "linux", target_arch = "x86_64")) =>
            {
                Err(miette!(
                    help = "use --quiescence timeout (or auto) for this system",
                    "--quiescence process observes a program that ioco starts (--sut CMD, over \
                     its standard input and output or, with --tcp, as a server), on Linux x86_64"
                ))
            }
            QuiescenceArg::Process => Ok(()),
        }
    }

    pub(crate) fn startup(&self, cfg: &mut ProcessConfig) {
        cfg.process_quiescence = matches!(
            self.quiescence,
            QuiescenceArg::Auto | QuiescenceArg::Process
        );
        cfg.io_time = self.io_time;
        cfg.startup_timeout = self.startup_timeout;
        cfg.ready_line = self.ready_line.clone();
        cfg.startup_grace = self.startup_grace;
        cfg.start_tries = self.retries + 1;
    }

    /// The system under test the options describe ([`System`]), loading what it needs: the
    /// HTTP map, a `.txs` model's `CNECTDEF`, the model to simulate (as an LTS when `labels`,
    /// else with its data); with the model's spec with data where a system speaking gate values
    /// is seen through the labels of a model (`labels`: the TorXakis sockets, HTTP).
    fn system(&self, labels: bool, ld: &Loader) -> Result<(System, Option<Arc<Spec>>)> {
        let timeout = Duration::from_millis(self.timeout_ms());
        if let Some(url) = &self.http {
            let (map, spec) = self.http_map(labels, ld)?;
            let url = url.clone();
            return Ok((System::Http { url, map, timeout }, spec));
        }
        let wire = self.wire()?;
        let settle = timeout;
        // a .txs model's CNECTDEF (with --sut "CMD {port}": the SUT started for each run)
        if let Some((spec, config)) = self.txs_connection(ld)? {
            return Ok((System::Txs { config, timeout }, Some(spec)));
        }
        if let Some(addr) = &self.tcp {
            let cfg = self.tcp_config(TcpMode::Connect(addr.clone()), wire, settle)?;
            return Ok((System::Tcp(cfg), None));
        }
        if let Some(cmd) = &self.cmd {
            let mut cfg = ProcessConfig::from_command_line(cmd).map_err(|e| miette!("{e}"))?;
            cfg.wire = wire;
            cfg.reset = self.reset();
            cfg.settle = settle;
            self.startup(&mut cfg);
            return Ok((System::Process(cfg), None));
        }
        if let Some(port) = &self.listen {
            let cfg = self.tcp_config(TcpMode::Listen(port.clone()), wire, settle)?;
            return Ok((System::Tcp(cfg), None));
        }
        if let Some(path) = &self.sim {
            let sim = if labels {
                Simulated::Lts {
                    model: Arc::new(ld.load_lts(path)?),
                    options: SimOptions {
                        policy: self.policy.into(),
                        race: self.race,
                        ..SimOptions::default()
                    },
                }
            } else {
                Simulated::Data {
                    model: ld.load_spec(path)?,
                }
            };
            return Ok((System::Sim(sim), None));
        }
        Err(miette!(
            help = "e.g. --sut \"./my-sut --ack\" --quiescence-marker '#quiet'",
            "no system under test: give --sut, --tcp, --listen, --http or --sim"
        ))
    }

    /// The factory of a built system: its error named by its source (the HTTP map, the
    /// simulated model); `ioco: listening on ADDR` where a listening system must connect.
    fn built<F>(&self, built: std::result::Result<Built<F>, SystemError>) -> Result<F> {
        let built = built.map_err(|e| match (&e, &self.map, &self.sim) {
            (SystemError::HttpMap(m), Some(p), _) | (SystemError::Model(m), _, Some(p)) => {
                miette!("{}: {m}", p.display())
            }
            _ => miette!("{e}"),
        })?;
        if let Some(addr) = built.listening {
            // where the SUT must connect (the port, when `--listen 0` picked a free one)
            errln!("ioco: listening on {addr}");
            let _ = self.bound.set(addr.to_string());
        }
        Ok(built.factory)
    }

    /// The systems under test of the SUT options, for `spec` (the symbolic engine's: gate
    /// values).
    pub fn data_factory(&self, spec: &Arc<Spec>, ld: &Loader) -> Result<DataFactory> {
        let (system, _) = self.system(false, ld)?;
        self.built(system.gate_values(spec))
    }

    /// The quiescence time-outs of a session with data: the model's `@timeout`s (model, gates,
    /// locations), `--timeout` overriding the model's, overridden by `--timeout-gate NAME=MS`
    /// and `--timeout-location [MODEL.]LOCATION=MS`; combined by the rule of
    /// `ioco_symbolic::online::SpecTimeouts` (the maximum over what applies).
    pub fn data_timeouts(&self, spec: &Spec) -> Result<Timing> {
        let sut = self;
        let mut t = ioco_exec::Timeouts::of_spec(spec);
        // An explicit `--timeout` overrides the model's own `@timeout`.
        let default = match sut.timeout {
            Some(ms) => Duration::from_millis(ms),
            None => ioco_symbolic::online::model_timeout(spec)
                .unwrap_or(Duration::from_millis(sut.timeout_ms())),
        };
        let split = |opt: &str, g: &str| -> Result<(String, Duration)> {
            let (name, v) = g
                .rsplit_once('=')
                .ok_or_else(|| miette!(help = format!("write {opt} NAME=MS"), "bad {opt} `{g}`"))?;
            let d = parse_ms(v).ok_or_else(|| {
                miette!(
                    help = "milliseconds (2000) or 2s, 500ms",
                    "bad {opt} `{g}`: `{v}` is not a duration"
                )
            })?;
            Ok((name.trim().trim_end_matches(['?', '!']).to_string(), d))
        };
        for g in &sut.timeout_gate {
            let (name, d) = split("--timeout-gate", g)?;
            t.set_gate(spec, &name, d).map_err(|gates| {
                miette!(
                    help = gates,
                    "--timeout-gate `{g}`: the model has no gate `{name}`"
                )
            })?;
        }
        for l in &sut.timeout_location {
            let (name, d) = split("--timeout-location", l)?;
            if !t.set_location(spec, &name, d) {
                return Err(miette!(
                    help = "name a location as LOCATION or MODEL.LOCATION",
                    "--timeout-location `{l}`: the model has no location `{name}`"
                ));
            }
        }
        Ok(Timing {
            default,
            timeouts: Some(Arc::new(t)),
        })
    }

    /// With --sim: the simulators of the implementation model (one per worker), as their own
    /// type, so that `ioco test` runs them through Alg. 2's loop made for it, the simulator's
    /// steps inlined (issue #30 item 4); `None` without --sim. [`SutArgs::factory`] boxes them.
    pub fn simulators(
        &self,
        spec: &Lts,
        ld: &Loader,
    ) -> Result<Option<impl Fn(usize) -> Result<Simulator, SutError> + Sync + use<>>> {
        let Some(path) = &self.sim else {
            return Ok(None);
        };
        // the options' checks of `factory` (`--quiescence process` needs a program, ...)
        self.wire()?;
        let imp = Arc::new(ld.load_lts(path)?);
        let opts = SimOptions {
            policy: self.policy.into(),
            race: self.race,
            ..SimOptions::default()
        };
        let alphabet = spec.alphabet().clone();
        Ok(Some(move |_| {
            Ok(Simulator::new(Arc::clone(&imp), &alphabet, opts))
        }))
    }

    /// The systems under test of the SUT options, for `spec` (the explicit engine's: labels).
    pub fn factory(&self, spec: &Lts, ld: &Loader) -> Result<Factory> {
        let (system, data) = self.system(true, ld)?;
        self.built(system.labels(spec.alphabet(), data))
    }
}

impl ReportArgs {
    /// The file (or `-`) a report format is asked for with.
    pub fn path(&self, format: ReportFormat) -> Option<&std::path::Path> {
        match format {
            ReportFormat::Json => self.json.as_deref(),
            ReportFormat::Junit => self.junit.as_deref(),
            ReportFormat::Markdown => self.markdown.as_deref(),
            ReportFormat::Html => self.html.as_deref(),
        }
    }

    /// The reports asked for, each with where it goes.
    pub fn reports(&self) -> Vec<(ReportFormat, Destination)> {
        ReportFormat::ALL
            .into_iter()
            .filter_map(|f| self.path(f).map(|p| (f, Destination::from_arg(p))))
            .collect()
    }

    /// Refuse, before anything runs, report options that cannot all be written (two of them
    /// to standard output).
    pub fn check(&self) -> Result<()> {
        self.files(None).stdout().map(|_| ())
    }

    fn files(&self, summary: Option<&Summary>) -> ReportFiles<'_> {
        ReportFiles {
            reports: self.reports(),
            model: None,
            results: None,
            command: Some(super::picture::command_line()),
            policy: summary.map(policy_of).unwrap_or_default(),
        }
    }

    /// A line of the summary for humans: on standard output, or on standard error when a
    /// report goes to standard output.
    pub fn say(&self, line: &str) {
        if self.files(None).stdout().unwrap_or(false) {
            errln!("{line}");
        } else {
            outln!("{line}");
        }
    }

    /// Whether the runs keep when each step was seen: for the HTML report, and for the JSON
    /// results, which `ioco report` later turns into one (merged shards, `--keep-going`
    /// sessions).
    pub fn step_times(&self) -> bool {
        self.html.is_some() || self.json.is_some()
    }

    /// Whether a report lists every run of a session of `runs` runs (`--json`, `--junit`,
    /// `--html`, `--verbose`, `--markdown` of at most its table's runs).
    pub fn lists_every_run(&self, runs: usize) -> bool {
        self.verbose
            || ReportFormat::ALL
                .into_iter()
                .any(|f| self.path(f).is_some() && f.lists_every_run(runs))
    }

    /// Which runs a session of `runs` runs keeps in memory (issue #35: memory that does not
    /// grow with the suite): only the runs that did not pass, the passing ones counted — a
    /// report that lists every run reads them back from the command's spool
    /// ([`super::partial_reports`] made it: every run is written there as it ends). Every run
    /// only when such a report is asked for and no spool could be made.
    pub fn keep(&self, runs: usize) -> ioco_exec::Keep {
        if self.lists_every_run(runs) && !super::spooling() {
            ioco_exec::Keep::All
        } else {
            ioco_exec::Keep::Failures
        }
    }

    /// Print the text summary and write the report files; the outcome of the verdict. The
    /// runs a report lists come from the command's spool when the session kept only the
    /// runs that did not pass.
    pub fn finish(&self, summary: &Summary, ld: &Loader) -> Result<Outcome> {
        // the options a replay of a run needs, for the reports' replay command
        let recorded;
        let summary = if summary.replay_options.is_empty() {
            let mut s = summary.clone();
            s.replay_options = replay_options();
            recorded = s;
            &recorded
        } else {
            summary
        };
        use std::io::Write as _;
        let spool = super::spool();
        let results = match &spool {
            Some(s) => Results::spooled(summary, s),
            None => Results::new(summary),
        };
        let files = self.files(Some(summary));
        let to_stdout = files.stdout()?;
        let empty = summary.run_count() == 0;
        let opts = ioco_report::text::TextOptions {
            verbose: self.verbose,
            ..Default::default()
        };
        if empty {
            // no `PASS: 0 runs` line before the error below
        } else if to_stdout {
            // a report on standard output: the summary for humans goes to standard error
            let mut w = std::io::BufWriter::new(std::io::stderr().lock());
            let _ = ioco_report::text::write(&results, &opts, &mut w).and_then(|()| w.flush());
        } else {
            let mut w = std::io::BufWriter::new(std::io::stdout().lock());
            let _ = ioco_report::text::write(&results, &opts, &mut w).and_then(|()| w.flush());
        }
        files.write(&results, ld)?;
        if empty {
            // Nothing was tested: never a Pass (an empty suite, --runs 0, a time budget spent
            // before the first run).
            return Err(miette!(
                help = "a suite needs at least one test and a session at least one run: check \
                        the suite (`ioco gen` says how many tests it wrote), --runs and \
                        --time-budget",
                "no test was executed, so nothing was tested"
            ));
        }
        verdict_outcome(summary, self.inconclusive)
    }
}

/// The outcome (exit code) of a session's verdict, as `ioco test` and `ioco report` exit.
pub fn verdict_outcome(summary: &Summary, inconclusive: InconclusiveArg) -> Result<Outcome> {
    match summary.verdict {
        RunVerdict::Pass => Ok(Outcome::Ok),
        RunVerdict::Inconclusive => {
            let n = summary.count(RunVerdict::Inconclusive);
            errln!(
                "ioco: INCONCLUSIVE ({n} of {} runs): nothing failed, but not everything was \
                 tested (see the notes above; --inconclusive pass|fail sets the exit code)",
                summary.run_count()
            );
            Ok(match inconclusive {
                InconclusiveArg::Own => Outcome::Inconclusive,
                InconclusiveArg::Pass => Outcome::Ok,
                InconclusiveArg::Fail => Outcome::Fail,
            })
        }
        RunVerdict::Fail => Ok(Outcome::Fail),
        RunVerdict::Error => Err(miette!("the test session ended in an error (see above)")),
    }
}

/// The report files of a command; `-` is standard output (for one of them).
pub struct ReportFiles<'a> {
    /// The reports asked for, each with where it goes.
    pub reports: Vec<(ReportFormat, Destination)>,
    /// The model to draw in the HTML report (default: the one the summary names).
    pub model: Option<&'a std::path::Path>,
    /// The results file the HTML report's replay command names (default: `--json`).
    pub results: Option<&'a std::path::Path>,
    /// The command line, for the HTML report.
    pub command: Option<String>,
    /// The quiescence policy, for walking the runs over the model.
    pub policy: ioco_model::QuiescencePolicy,
}

impl ReportFiles<'_> {
    /// Whether a report goes to standard output (an error when more than one would).
    pub fn stdout(&self) -> Result<bool> {
        let named: Vec<&str> = self
            .reports
            .iter()
            .filter(|(_, to)| *to == Destination::Stdout)
            .map(|(f, _)| f.option())
            .collect();
        if named.len() > 1 {
            return Err(miette!(
                help = "write the others to files",
                "only one report can go to standard output (`-`), not {}",
                named.join(" and ")
            ));
        }
        Ok(named.len() == 1)
    }

    /// Write every report asked for (the files first, then the one for standard output), each
    /// streamed from `results`.
    pub fn write(&self, results: &Results<'_>, ld: &Loader) -> Result<()> {
        let cx = self
            .reports
            .iter()
            .any(|(f, _)| *f == ReportFormat::Html)
            .then(|| {
                let json = self
                    .reports
                    .iter()
                    .find(|(f, _)| *f == ReportFormat::Json)
                    .and_then(|(_, to)| to.file());
                let cx = super::picture::context(
                    results,
                    self.model,
                    self.results.or(json),
                    self.command.clone(),
                    self.policy,
                    ld,
                );
                if let Some(why) = &cx.no_graph {
                    errln!("ioco: the HTML report has no picture of the model: {why}");
                }
                cx
            });
        let (files, stdout): (Vec<_>, Vec<_>) = self
            .reports
            .iter()
            .cloned()
            .partition(|(_, to)| *to != Destination::Stdout);
        ioco_report::write_reports(results, &files, cx.as_ref()).into_diagnostic()?;
        ioco_report::write_reports(results, &stdout, cx.as_ref())
            .map_err(|e| miette!("{} report: {}", stdout[0].0.option(), e.message))
    }
}

/// The quiescence policy a summary's runs were judged under (its `policy` parameter, else
/// the default).
pub fn policy_of(summary: &Summary) -> ioco_model::QuiescencePolicy {
    match summary.parameters.get("policy").and_then(|p| p.as_str()) {
        Some("no-output") => ioco_model::QuiescencePolicy::NoOutput,
        _ => ioco_model::QuiescencePolicy::Stable,
    }
}

/// The seed to use: the given one or one from the clock.
pub fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64 % 1_000_000_007)
            .unwrap_or(0)
    })
}

/// Options shared by the commands, from the SUT arguments.
pub fn base_options(sut: &SutArgs, seed: u64) -> OnlineOptions {
    OnlineOptions {
        policy: sut.policy.into(),
        seed,
        quiescence_timeout: Duration::from_millis(sut.timeout_ms()),
        retries: sut.retries,
        ..OnlineOptions::default()
    }
}

/// The quiescence timeouts of a test session: the default and the per-state and per-label
/// ones (`ioco_exec::timeouts`), from the model's `@timeout`s and the command line.
#[derive(Clone, Debug)]
pub struct Timing {
    /// Where no state or label has its own: the model's `@timeout`, else `--timeout`.
    pub default: Duration,
    /// Per state and label (`None` when there are none).
    pub timeouts: Option<Arc<ioco_exec::Timeouts>>,
}

impl Timing {
    /// Put these timeouts into `opts`.
    pub fn apply(&self, opts: &mut OnlineOptions) {
        opts.quiescence_timeout = self.default;
        opts.timeouts = self.timeouts.clone();
    }
}

/// A duration on the command line: milliseconds, or a number with `us`, `ms`, `s` or `min`.
pub(crate) fn parse_ms(text: &str) -> Option<Duration> {
    let t = text.trim();
    let split = t
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let x: f64 = num
        .parse()
        .ok()
        .filter(|x: &f64| x.is_finite() && *x >= 0.0)?;
    let secs = match unit.trim() {
        "" | "ms" => x / 1e3,
        "us" => x / 1e6,
        "s" => x,
        "min" => x * 60.0,
        _ => return None,
    };
    Some(Duration::from_secs_f64(secs))
}

/// Levenshtein distance (for did-you-mean hints on short names).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// A duration on the command line: milliseconds (`2000`) or with a unit (`2s`, `500ms`).
pub(crate) fn parse_duration_arg(s: &str) -> std::result::Result<Duration, String> {
    parse_ms(s).ok_or_else(|| {
        format!("`{s}` is not a duration: milliseconds (2000) or with a unit (2s, 500ms, 1min)")
    })
}

/// `NAME=MS` pairs of a repeatable option, checked against the names the model has.
fn overrides(
    option: &str,
    what: &str,
    given: &[String],
    known: &[String],
) -> Result<std::collections::HashMap<String, Duration>> {
    let mut out = std::collections::HashMap::new();
    for g in given {
        let (name, value) = g.rsplit_once('=').ok_or_else(|| {
            miette!(
                help = format!("write {option} NAME=MS, e.g. {option} coffee=2000"),
                "bad {option} `{g}`: no `=`"
            )
        })?;
        let name = name.trim().trim_end_matches(['?', '!']);
        let d = parse_ms(value).ok_or_else(|| {
            miette!(
                help = "milliseconds (2000) or a duration with a unit: 2s, 500ms, 1min",
                "bad {option} `{g}`: `{value}` is not a duration"
            )
        })?;
        if !known.iter().any(|k| k == name) {
            let mut near: Vec<&String> = known
                .iter()
                .filter(|k| edit_distance(k, name) <= 2.min(name.len() / 2))
                .collect();
            near.truncate(3);
            let hint = if near.is_empty() {
                let mut all: Vec<&str> = known.iter().map(String::as_str).collect();
                all.truncate(20);
                format!("the model's {what}s: {}", all.join(", "))
            } else {
                format!(
                    "did you mean {}?",
                    near.iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            return Err(miette!(
                help = hint,
                "{option} `{g}`: the model has no {what} `{name}`"
            ));
        }
        out.insert(name.to_string(), d);
    }
    Ok(out)
}

/// Load the specification with its quiescence timeouts: a `.ioco` model's `@timeout`s on the
/// model, its gates and its locations, overridden by `--timeout-gate` and
/// `--timeout-location` (for other formats a gate is a label name and a location a state
/// name). The rule that combines them is `ioco_exec::timeouts`'.
pub fn load_timed(path: &std::path::Path, sut: &SutArgs, ld: &Loader) -> Result<(Lts, Timing)> {
    sut.for_model(path);
    let (spec, model) = if crate::load::is_lang(path) {
        let (lts, t) = ld.ioco_lts_timed(path)?;
        (lts, Some(t))
    } else {
        (ld.load_lts(path)?, None)
    };
    let timing = timing_of(&spec, model.as_ref(), sut)?;
    Ok((spec, timing))
}

fn timing_of(
    spec: &Lts,
    model: Option<&ioco_lang::translate::Timing>,
    sut: &SutArgs,
) -> Result<Timing> {
    let mut resolve = |what: &str, known: &[String]| match what {
        "gate" => overrides("--timeout-gate", what, &sut.timeout_gate, known),
        _ => overrides("--timeout-location", what, &sut.timeout_location, known),
    };
    let w = ioco_load::timing::explicit(
        spec,
        model,
        sut.timeout.map(Duration::from_millis),
        Duration::from_millis(sut.timeout_ms()),
        &mut resolve,
    )?;
    Ok(Timing {
        default: w.default,
        timeouts: w.timeouts,
    })
}

/// TorXakis's default `Sut_deltaTime` (ms): how long TorXakis waits for an output before it
/// concludes quiescence; ioco's default for a `.txs` model (docs/torxakis.md §3).
pub const TXS_DELTA_TIME_MS: u64 = 2000;

/// `--quiescence`: how δ is established.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum QuiescenceArg {
    /// The marker if given, else the process where it applies, else the time-out.
    #[default]
    Auto,
    /// By observing the process (falling back to the time-out where it proves nothing).
    Process,
    /// A whole time-out without output, every time.
    Timeout,
    /// The system's quiescence marker.
    Marker,
}

impl QuiescenceArg {
    fn name(self) -> &'static str {
        match self {
            QuiescenceArg::Auto => "auto",
            QuiescenceArg::Process => "process",
            QuiescenceArg::Timeout => "timeout",
            QuiescenceArg::Marker => "marker",
        }
    }
}

/// The options of this process's command line that `ioco replay` needs to replay one of its
/// runs against the same system, as given and in their order: every option of
/// [`SutArgs`] (the system under test and how to talk to it: `--sut`, `--tcp`,
/// `--quiescence-marker`, time-outs, `--mealy`, `--map`, `--json-lines`, `--cnect`, ...),
/// `--engine`/`--symbolic` and the model's `--entry`/`--with`. Recorded in the results
/// (`Summary::replay_options`) for the replay command of the reports.
pub fn replay_options() -> Vec<String> {
    replay_options_of(std::env::args().skip(1))
}

fn replay_options_of(argv: impl Iterator<Item = String>) -> Vec<String> {
    use clap::Args as _;
    let sut = SutArgs::augment_args(clap::Command::new("sut"));
    // (long names with their aliases, short, takes a value)
    let mut kept: Vec<(Vec<String>, Option<char>, bool)> = sut
        .get_arguments()
        .filter(|a| !a.is_positional())
        .map(|a| {
            let mut longs: Vec<String> = a.get_long().into_iter().map(String::from).collect();
            longs.extend(
                a.get_all_aliases()
                    .unwrap_or_default()
                    .into_iter()
                    .map(String::from),
            );
            (longs, a.get_short(), a.get_action().takes_values())
        })
        .collect();
    for (long, value) in [
        ("engine", true),
        ("symbolic", false),
        ("entry", true),
        ("with", true),
    ] {
        kept.push((vec![long.to_string()], None, value));
    }
    let argv: Vec<String> = argv.collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < argv.len() {
        let a = &argv[i];
        i += 1;
        if a == "--" {
            break;
        }
        let found = if let Some(long) = a.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or_default();
            kept.iter()
                .find(|(longs, _, _)| longs.iter().any(|l| l == name))
                .map(|k| (k, long.contains('=')))
        } else if let Some(short) = a.strip_prefix('-').filter(|s| s.chars().count() >= 1) {
            let c = short.chars().next();
            kept.iter()
                .find(|(_, s, _)| s.is_some() && *s == c)
                .map(|k| (k, short.chars().count() > 1))
        } else {
            None
        };
        // an option the replay does not need is left out (with its value, when it is the
        // next argument: values are never taken for options)
        if let Some(((_, _, takes_value), inline)) = found {
            out.push(a.clone());
            if *takes_value && !inline && i < argv.len() {
                out.push(argv[i].clone());
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn replay_options_keep_what_a_replay_needs() {
        let argv = [
            "test",
            "--entry",
            "Main",
            "m.ioco",
            "--sut",
            "./sut --ack",
            "--runs",
            "5",
            "--quiescence-marker",
            "#quiet",
            "--timeout=300",
            "--html",
            "r.html",
            "--mealy",
            "--engine",
            "explicit",
            "--seed",
            "7",
            "--shrink",
            "--timeout-gate",
            "water=20",
        ]
        .map(String::from);
        assert_eq!(
            super::replay_options_of(argv.into_iter()),
            [
                "--entry",
                "Main",
                "--sut",
                "./sut --ack",
                "--quiescence-marker",
                "#quiet",
                "--timeout=300",
                "--mealy",
                "--engine",
                "explicit",
                "--timeout-gate",
                "water=20"
            ]
        );
    }
}
