//! TorXakis's sockets (`CNECTDEF`): a system under test reached as TorXakis reaches it, so a
//! `.txs` model is tested against its own SUT unchanged.
//!
//! A [`TxsSocketConfig`] is what a `CNECTDEF` says:
//! * the side ([`TxsSide`]): `CLIENTSOCK` (the tester connects, the SUT listens) or
//!   `SERVERSOCK` (the tester listens, the SUT connects);
//! * the sockets ([`TxsSocket`]): one TCP connection per distinct `HOST`/`PORT`; several
//!   channels may share one (Adder's `Action` out and `Result` in are both on 7890);
//! * per model input gate (a `CHAN OUT` of the `CNECTDEF`: out of TorXakis, into the SUT) its
//!   `ENCODE` ([`TxsEncode`]): the socket it is written to and how its values become the line;
//! * per socket at most one `DECODE` ([`TxsDecode`]): the model output gate (a `CHAN IN`) a
//!   line read there becomes, and how the line becomes the gate's values.
//!
//! ## Filling it from a `CNECTDEF`
//! ```text
//! CNECTDEF Sut ::= CLIENTSOCK                                       side: Client
//!   CHAN OUT Action HOST "localhost" PORT 7890                      socket 0 = localhost:7890
//!   ENCODE   Action ? opn -> ! toString(opn)                        TxsEncode::to_string("Action", 0)
//!   CHAN IN  Result HOST "localhost" PORT 7890                      (the same socket 0)
//!   DECODE   Result ! fromString(s) <- ? s                          sockets[0].decode = TxsDecode::new("Result")
//! ```
//! An `ENCODE` expression is a concatenation (`++`) of [`TxsPart`]s: string literals and
//! constant functions (`separator`, evaluated by the front end) are [`TxsPart::Text`];
//! `toString(x)` of a parameter, or of a field of it (`toString(sex(p))`, and a String
//! field without `toString`, `firstName(p)`), is a [`TxsPart::Value`] (the field path as
//! (constructor, field) indices). A gate without data (`ENCODE Up -> ! "up"`) is one text
//! part. `toXml(x)` is [`TxsPart::Xml`] and `fromXml(s)` [`TxsDecode::xml`]
//! ([`ioco_lang::txs_xml`]: `<TorXakisMsg><Plus><p1>4</p1><p2>7</p2></Plus></TorXakisMsg>`).
//!
//! In terms of `ioco_txs::ast::CnectDef` (TorXakis requires an ENCODE for every `CHAN OUT`
//! and a DECODE for every `CHAN IN`, so there is no default to invent):
//! * `kind` → [`TxsSocketConfig::side`];
//! * each `CnectChan` → [`TxsSocketConfig::socket`]`(host, port)` (the same index for a
//!   repeated HOST/PORT); remember the channel name's socket;
//! * each `Encode` → a [`TxsEncode`]: `gate` = `offer.gate`, `socket` = the socket of `chan`
//!   (or of the `CnectChan` named like `offer.gate`), `parts` = the operands of the `++`
//!   chain of `value`: `Str(s)` and String constants → [`TxsPart::Text`]; `toString(e)` or a
//!   String-sorted `e`, where `e` is an offer variable `? x` (its position among the `?`
//!   items is `arg`) under accessor calls (`sex(p)`: the constructor and field of `sex`) →
//!   [`TxsPart::Value`]; `toXml(e)` likewise → [`TxsPart::Xml`];
//! * each `Decode` → `sockets[socket of chan].decode`: no `!` item, or one
//!   `! fromString(s)`, → [`TxsDecode::new`]; `! fromXml(s)` → [`TxsDecode::xml`]; several
//!   `!` items of the `takeWhileNot` /
//!   `dropWhile` form → [`TxsDecode::split`] with the separator's value;
//! * the model to test is the one a `CLIENTSOCK` (or `SERVERSOCK`) CNECTDEF whose `CHAN OUT`s
//!   are the model's inputs connects (`Sim` CNECTDEFs connect a simulated model the other way
//!   round, and are refused by [`TxsAdapter::new`]: their ENCODEs are on output gates).
//!
//! A `DECODE` with one value (`! fromString(s)`) reads the whole line as a value of the gate's
//! sort ([`ioco_lang::txs_text::from_string`]: TorXakis's value syntax). One without values
//! (`DECODE Stopped <- ? s`) turns any line into the gate. With several values, the one form
//! the TorXakis examples use is the split at a separator: value k is
//! `fromString(takeWhileNot(sep, r_k))` where `r_0 = s` and
//! `r_{k+1} = dropWhile(sep, dropWhileNot(sep, r_k))`, the last value taking the whole rest
//! ([`TxsDecode::separators`] is `sep`: a set of characters, as TorXakis's `takeWhileNot`
//! reads it).
//!
//! Several channels on one socket: TorXakis opens one connection per pair of a `CHAN OUT`
//! and a `CHAN IN` with the same HOST/PORT (and one for each unpaired channel), each with its
//! one DECODE; a line is decoded by the DECODE of the connection it came on, never by trying
//! several. All the TorXakis examples have at most one channel of each direction per
//! HOST/PORT, which is [`TxsSocketConfig::socket`]'s one socket. Two `CHAN IN`s on one
//! HOST/PORT would be two [`TxsSocket`]s with the same host and port (two connections, on
//! the client side, as TorXakis makes them).
//!
//! ## Semantics (as TorXakis's `SocketWorld`)
//! * Client side: the sockets are connected in order at each reset (each tried again until
//!   [`TxsSocketConfig::connect_timeout`], so a SUT still starting up is waited for, and one
//!   that never listens is a clear start error, never a hang). Server side: every port is
//!   bound when the adapter is made and each reset accepts one connection on each.
//! * Only sockets with a `DECODE` are read (TorXakis reads no other); a line is one output.
//! * Before an input, the adapter waits [`TxsSocketConfig::io_time`] for an output in flight,
//!   as TorXakis's `putSocket` waits its `ioTime`: an output that comes first is recorded
//!   first and the input is not given ([`Sent::Raced`]). Where only quiescence is allowed
//!   ([`Sut::expect_quiet`]) any output is a Fail, so unless quiescence is established
//!   since the last input or output it waits the whole quiescence time-out of the
//!   specification's state ([`Sut::settle_timeout`]) instead: an output later than the
//!   `ioTime` is judged where it belongs, not after the next input. An input on another
//!   socket than the previous input is always at least `io_time` after it: a SUT reading its
//!   sockets in parallel would otherwise see the two in either order (MovingArm's `Stop` then
//!   `Up` on two ports).
//! * Quiescence is a time-out (the one [`Sut::observe`] is given); TorXakis has no marker.
//! * Reset between runs: close every connection, then connect (accept) again. A connection
//!   closed by the SUT is [`SutError::Exited`] ("closed the connection on host:port").
//! * A line that does not decode to a value of the gate's sort is an output the model does
//!   not allow ([`SutError::UnknownOutput`], a Fail), except an integer beyond 64 bits, which ioco
//!   cannot judge (an error); bytes that are not a line of UTF-8 text are an error.
//!
//! Ports: [`TxsSocketConfig::ports`] maps a `.txs` port to the port really used
//! (`7890=41234`, see [`parse_port_map`]), for tests and parallel workers that must not use
//! the fixed ports of the model; a port mapped to 0 on the server side is an ephemeral port
//! ([`TxsAdapter::local_addrs`] tells which).

use super::lineio::{write_bounded, Event, FdLines, Stop};
use ioco_lang::ir::{Defs, Direction, Gate, Spec, Value};

use ioco_lang::{txs_text, txs_xml};
use ioco_model::Alphabet;
use ioco_symbolic::online::{GateValue, Observation, Sent, Sut, SutError};
use std::collections::{BTreeMap, HashMap};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Which side connects (`CLIENTSOCK` or `SERVERSOCK`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TxsSide {
    /// `CLIENTSOCK`: the tester connects, the SUT listens.
    Client,
    /// `SERVERSOCK`: the tester listens, the SUT connects.
    Server,
}

/// One TCP connection: a `HOST`/`PORT` of the `CNECTDEF`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TxsSocket {
    /// `HOST` (`localhost`).
    pub host: String,
    /// `PORT`, as in the `.txs` (before [`TxsSocketConfig::ports`]).
    pub port: u16,
    /// The `DECODE` of the channel read here, if any.
    pub decode: Option<TxsDecode>,
}

/// A `DECODE`: lines read on a socket become this output gate.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TxsDecode {
    /// The model's output gate.
    pub gate: String,
    /// For a gate with several values: the separator characters the line is split at (see
    /// the module documentation); unused for zero or one value.
    pub separators: String,
    /// `fromXml(s)` instead of `fromString(s)` ([`ioco_lang::txs_xml`]).
    pub xml: bool,
}

impl TxsDecode {
    /// `DECODE gate ! fromString(s) <- ? s` (or `DECODE gate <- ? s` for a gate without data).
    pub fn new(gate: &str) -> TxsDecode {
        TxsDecode {
            gate: gate.to_string(),
            separators: String::new(),
            xml: false,
        }
    }

    /// `DECODE gate ! fromXml(s) <- ? s`.
    pub fn xml(gate: &str) -> TxsDecode {
        TxsDecode {
            xml: true,
            ..TxsDecode::new(gate)
        }
    }

    /// Several values split at `separators`.
    pub fn split(gate: &str, separators: &str) -> TxsDecode {
        TxsDecode {
            separators: separators.to_string(),
            ..TxsDecode::new(gate)
        }
    }
}

/// A piece of an `ENCODE` expression (`e1 ++ e2 ++ ...`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TxsPart {
    /// A string literal or a constant (`"up"`, `separator`).
    Text(String),
    /// `toString` of parameter `arg` of the gate, or of a field of it: `fields` is the path of
    /// (constructor index, field index) accessors (`toString(sex(p))` is one step).
    Value {
        /// Parameter index (`? a ? b`: 0, 1).
        arg: usize,
        /// Field accessors, outermost first.
        fields: Vec<(u32, u32)>,
    },
    /// `toXml` of parameter `arg` or of a field of it ([`ioco_lang::txs_xml`]).
    Xml {
        /// Parameter index.
        arg: usize,
        /// Field accessors, outermost first.
        fields: Vec<(u32, u32)>,
    },
}

/// An `ENCODE`: how an input gate's values become a line, on which socket.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TxsEncode {
    /// The model's input gate.
    pub gate: String,
    /// Index into [`TxsSocketConfig::sockets`].
    pub socket: usize,
    /// The line, concatenated.
    pub parts: Vec<TxsPart>,
}

impl TxsEncode {
    /// `ENCODE gate ? x -> ! toString(x)`.
    pub fn to_string(gate: &str, socket: usize) -> TxsEncode {
        TxsEncode {
            gate: gate.to_string(),
            socket,
            parts: vec![TxsPart::Value {
                arg: 0,
                fields: Vec::new(),
            }],
        }
    }

    /// `ENCODE gate ? x -> ! toXml(x)`.
    pub fn xml(gate: &str, socket: usize) -> TxsEncode {
        TxsEncode {
            gate: gate.to_string(),
            socket,
            parts: vec![TxsPart::Xml {
                arg: 0,
                fields: Vec::new(),
            }],
        }
    }

    /// `ENCODE gate -> ! "text"` (a gate without data).
    pub fn text(gate: &str, socket: usize, text: &str) -> TxsEncode {
        TxsEncode {
            gate: gate.to_string(),
            socket,
            parts: vec![TxsPart::Text(text.to_string())],
        }
    }

    /// `ENCODE gate ? a ? b ... -> ! toString(a) ++ sep ++ toString(b) ++ ...` (`n` values).
    pub fn joined(gate: &str, socket: usize, n: usize, separator: &str) -> TxsEncode {
        let mut parts = Vec::new();
        for arg in 0..n {
            if arg > 0 {
                parts.push(TxsPart::Text(separator.to_string()));
            }
            parts.push(TxsPart::Value {
                arg,
                fields: Vec::new(),
            });
        }
        TxsEncode {
            gate: gate.to_string(),
            socket,
            parts,
        }
    }
}

/// A `CNECTDEF` as the adapter's configuration (see the module documentation; plain data:
/// serialisable, part of a [`crate::system::System`]).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct TxsSocketConfig {
    /// `CLIENTSOCK` or `SERVERSOCK`.
    pub side: TxsSide,
    /// The sockets, each `HOST`/`PORT` once.
    pub sockets: Vec<TxsSocket>,
    /// One per model input gate.
    pub encode: Vec<TxsEncode>,
    /// Port remapping: `.txs` port → port used (see [`parse_port_map`]).
    pub ports: BTreeMap<u16, u16>,
    /// How long connecting (or accepting) all sockets may take at a reset.
    pub connect_timeout: Duration,
    /// Before an input: how long to wait for an output still in flight.
    pub io_time: Duration,
    /// Giving up on a SUT that does not read its input.
    pub write_timeout: Duration,
    /// Longest accepted line, in bytes.
    pub max_line: usize,
    /// Constructors whose name on the wire is not their model name (TorXakis overloads
    /// constructors, `.ioco` renames them): model name → name written and read.
    pub wire_ctors: BTreeMap<String, String>,
    /// The SUT's command, started for each run before connecting (TorXakis's one-shot SUTs
    /// serve one connection): `{port}` in it is replaced by a free port chosen per start for
    /// the CNECTDEF's one `PORT`, `{port:N}` by one for its `PORT N`.
    pub server: Option<super::tcp::ServerConfig>,
}

impl TxsSocketConfig {
    /// An empty configuration with the default times (connect 10 s, I/O time 50 ms).
    pub fn new(side: TxsSide) -> TxsSocketConfig {
        TxsSocketConfig {
            side,
            sockets: Vec::new(),
            encode: Vec::new(),
            ports: BTreeMap::new(),
            connect_timeout: Duration::from_secs(10),
            io_time: Duration::from_millis(50),
            write_timeout: Duration::from_secs(5),
            max_line: 64 * 1024,
            wire_ctors: BTreeMap::new(),
            server: None,
        }
    }

    /// The index of the socket `host:port`, added if it is new.
    pub fn socket(&mut self, host: &str, port: u16) -> usize {
        if let Some(i) = self
            .sockets
            .iter()
            .position(|s| s.host == host && s.port == port)
        {
            return i;
        }
        self.sockets.push(TxsSocket {
            host: host.to_string(),
            port,
            decode: None,
        });
        self.sockets.len() - 1
    }

    /// The port really used for `.txs` port `port`.
    pub fn port(&self, port: u16) -> u16 {
        self.ports.get(&port).copied().unwrap_or(port)
    }
}

/// The port placeholders of a command-line word: `{port}` (None) and `{port:N}` (N).
fn placeholders(word: &str) -> Result<Vec<Option<u16>>, String> {
    let mut found = Vec::new();
    let mut rest = word;
    while let Some(at) = rest.find("{port") {
        rest = &rest[at + 5..];
        if let Some(r) = rest.strip_prefix('}') {
            found.push(None);
            rest = r;
        } else if let Some(r) = rest.strip_prefix(':') {
            let end = r
                .find('}')
                .ok_or_else(|| format!("an unclosed {{port:...}} in `{word}`"))?;
            let n = r[..end].parse::<u16>().map_err(|_| {
                format!(
                    "{{port:{}}} in `{word}`: write {{port:N}} with a PORT N of the CNECTDEF",
                    &r[..end]
                )
            })?;
            found.push(Some(n));
            rest = &r[end + 1..];
        }
    }
    Ok(found)
}

/// `7890=41234,7891=41235` (commas or blanks between entries) → the port map of
/// [`TxsSocketConfig::ports`].
pub fn parse_port_map(text: &str) -> Result<BTreeMap<u16, u16>, String> {
    let mut map = BTreeMap::new();
    for entry in text.split([',', ' ']).filter(|e| !e.is_empty()) {
        let parsed = entry
            .split_once('=')
            .and_then(|(a, b)| Some((a.trim().parse::<u16>().ok()?, b.trim().parse().ok()?)));
        let Some((from, to)) = parsed else {
            return Err(format!(
                "`{entry}` is not a port mapping (hint: TXSPORT=PORT, e.g. 7890=41234)"
            ));
        };
        if map.insert(from, to).is_some() {
            return Err(format!("port {from} is mapped twice"));
        }
    }
    Ok(map)
}

/// Loopback for `localhost` (so that both sides agree on IPv4), else the host as given.
fn bind_host(host: &str) -> &str {
    if host == "localhost" {
        "127.0.0.1"
    } else {
        host
    }
}

/// The addresses of `host:port`, IPv4 first.
fn resolve(host: &str, port: u16) -> Result<Vec<SocketAddr>, String> {
    let mut addrs: Vec<SocketAddr> = (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {host}:{port}: {e}"))?
        .collect();
    addrs.sort_by_key(|a| !a.is_ipv4());
    Ok(addrs)
}

/// A system under test over TorXakis's sockets, as a [`Sut`] over gate values (see the module
/// documentation). [`TxsLabels`] puts it as a [`Sut`] over labels.
pub struct TxsAdapter {
    spec: Arc<Spec>,
    /// The spec's types with the constructors' names on the wire (`wire_ctors`).
    wire_defs: Arc<Defs>,
    cfg: TxsSocketConfig,
    /// The `ENCODE` of each input gate (index into `cfg.encode`).
    encode: HashMap<String, usize>,
    /// Bound listeners (server side), one per socket.
    listeners: Vec<TcpListener>,
    /// Open connections, one per socket (empty when not connected).
    conns: Vec<TcpStream>,
    /// Readers of the sockets with a `DECODE`, and their socket index.
    readers: Vec<FdLines>,
    reader_socket: Vec<usize>,
    /// A reader has an unterminated line pending.
    partial: Vec<bool>,
    /// How long an observation waits before concluding quiescence.
    pub timeout: Duration,
    /// Quiescence is established since the last input or output (a whole time-out without
    /// output): only then is an input given without waiting first.
    settled: bool,
    /// The quiescence time-out of the specification's current state, as the tester last said
    /// ([`Sut::settle_timeout`]); `None`: [`TxsAdapter::timeout`].
    settle_hint: Option<Duration>,
    /// δ established by a whole time-out since last asked ([`Sut::established`]).
    timeouts: u32,
    /// The specification allows only quiescence now ([`Sut::expect_quiet`]).
    quiet_expected: bool,
    /// The socket and time of the last input written.
    last_input: Option<(usize, Instant)>,
    /// The SUT's process, when ioco starts it ([`TxsSocketConfig::server`]).
    server: Option<super::tcp::Server>,
    /// The ports chosen for this start: the CNECTDEF's port → the port used.
    started: BTreeMap<u16, u16>,
    /// Connections made so far, and whether a line went either way on the current one: a SUT
    /// that refuses or drops a later run's connection before any line is one-shot.
    connections: u32,
    exchanged: bool,
}

impl TxsAdapter {
    /// An adapter for `spec` over `cfg`. Errors: a gate the spec does not have (or of the
    /// wrong direction), an input gate without an `ENCODE`, a part that names no parameter, a
    /// socket index out of range, a port map entry that names no port, a server port that
    /// cannot be bound.
    pub fn new(spec: Arc<Spec>, cfg: TxsSocketConfig) -> Result<TxsAdapter, String> {
        let gate = |name: &str, dir: Direction| -> Result<&Gate, String> {
            let what = match dir {
                Direction::Input => "input",
                Direction::Output => "output",
            };
            spec.gates
                .iter()
                .find(|g| g.name == name && g.dir == dir)
                .ok_or_else(|| {
                    format!("the CNECTDEF names `{name}`, which is no {what} gate of the model")
                })
        };
        let mut encode = HashMap::new();
        for (i, e) in cfg.encode.iter().enumerate() {
            let g = gate(&e.gate, Direction::Input)?;
            if e.socket >= cfg.sockets.len() {
                return Err(format!(
                    "the ENCODE of `{}` names socket {}, there are {}",
                    e.gate,
                    e.socket,
                    cfg.sockets.len()
                ));
            }
            for p in &e.parts {
                if let TxsPart::Value { arg, .. } | TxsPart::Xml { arg, .. } = p {
                    if *arg >= g.params.len() {
                        return Err(format!(
                            "the ENCODE of `{}` uses value {} of {}",
                            e.gate,
                            arg + 1,
                            g.params.len()
                        ));
                    }
                }
            }
            if encode.insert(e.gate.clone(), i).is_some() {
                return Err(format!("`{}` has two ENCODEs", e.gate));
            }
        }
        if let Some(g) = spec
            .gates
            .iter()
            .find(|g| g.dir == Direction::Input && !encode.contains_key(&g.name))
        {
            return Err(format!(
                "the model's input `{}` has no ENCODE in the CNECTDEF (hint: a CHAN OUT {} \
                 with HOST, PORT and ENCODE)",
                g.name, g.name
            ));
        }
        for s in &cfg.sockets {
            if let Some(d) = &s.decode {
                let g = gate(&d.gate, Direction::Output)?;
                if g.params.len() > 1 && d.separators.is_empty() {
                    return Err(format!(
                        "the DECODE of `{}` reads {} values from a line but has no separator",
                        d.gate,
                        g.params.len()
                    ));
                }
            }
        }
        if let Some(p) = cfg
            .ports
            .keys()
            .find(|p| !cfg.sockets.iter().any(|s| s.port == **p))
        {
            return Err(format!(
                "the port map names port {p}, which is no PORT of the CNECTDEF"
            ));
        }
        if let Some(server) = &cfg.server {
            let ports: std::collections::BTreeSet<u16> =
                cfg.sockets.iter().map(|s| s.port).collect();
            for a in &server.argv {
                for n in placeholders(a)? {
                    match n {
                        None if ports.len() != 1 => {
                            let list: Vec<String> = ports.iter().map(u16::to_string).collect();
                            return Err(format!(
                                "the CNECTDEF has the ports {}: write {{port:N}} in the SUT's \
                                 command for each PORT N it serves, not {{port}}",
                                list.join(", ")
                            ));
                        }
                        Some(n) if !ports.contains(&n) => {
                            return Err(format!(
                                "{{port:{n}}} in the SUT's command names no PORT of the CNECTDEF"
                            ));
                        }
                        _ => {}
                    }
                }
            }
        }
        let mut listeners = Vec::new();
        if cfg.side == TxsSide::Server {
            for s in &cfg.sockets {
                let (host, port) = (bind_host(&s.host), cfg.port(s.port));
                let l = TcpListener::bind((host, port))
                    .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
                l.set_nonblocking(true).map_err(|e| e.to_string())?;
                listeners.push(l);
            }
        }
        let wire_defs = if cfg.wire_ctors.is_empty() {
            Arc::clone(&spec.defs)
        } else {
            let mut d = (*spec.defs).clone();
            for c in d.types.iter_mut().flat_map(|t| t.ctors.iter_mut()) {
                if let Some(w) = cfg.wire_ctors.get(&c.name) {
                    c.name.clone_from(w);
                }
            }
            Arc::new(d)
        };
        Ok(TxsAdapter {
            spec,
            wire_defs,
            cfg,
            encode,
            listeners,
            conns: Vec::new(),
            readers: Vec::new(),
            reader_socket: Vec::new(),
            partial: Vec::new(),
            timeout: Duration::from_millis(200),
            settled: false,
            settle_hint: None,
            timeouts: 0,
            quiet_expected: false,
            last_input: None,
            server: None,
            started: BTreeMap::new(),
            connections: 0,
            exchanged: false,
        })
    }

    /// The port used for the CNECTDEF's `port`: the one chosen for this start of the SUT, else
    /// the port map's.
    fn port(&self, port: u16) -> u16 {
        self.started
            .get(&port)
            .copied()
            .unwrap_or_else(|| self.cfg.port(port))
    }

    /// Start the SUT's command (the previous one is killed first), with fresh ports for its
    /// placeholders (client side) or our listening ports (server side).
    fn start_server(&mut self) -> Result<(), SutError> {
        self.server = None;
        self.started.clear();
        let Some(cfg) = self.cfg.server.clone() else {
            return Ok(());
        };
        let mut chosen: BTreeMap<u16, u16> = BTreeMap::new();
        for s in &self.cfg.sockets {
            let used = match self.cfg.side {
                TxsSide::Client => super::tcp::free_port()?,
                TxsSide::Server => self
                    .local_addrs()
                    .get(
                        self.cfg
                            .sockets
                            .iter()
                            .position(|x| x.port == s.port)
                            .unwrap_or(0),
                    )
                    .map(|a| a.port())
                    .unwrap_or(s.port),
            };
            chosen.entry(s.port).or_insert(used);
        }
        let argv: Vec<String> = cfg
            .argv
            .iter()
            .map(|a| {
                let mut a = a.clone();
                for (file, used) in &chosen {
                    a = a.replace(&format!("{{port:{file}}}"), &used.to_string());
                }
                if let Some(used) = chosen.values().next().filter(|_| chosen.len() == 1) {
                    a = a.replace("{port}", &used.to_string());
                }
                a
            })
            .collect();
        // client side: only the ports the command was told are moved; the others stay as in
        // the file (or the port map)
        if self.cfg.side == TxsSide::Client {
            for (file, used) in chosen {
                let named = cfg.argv.iter().any(|a| {
                    a.contains(&format!("{{port:{file}}}"))
                        || (a.contains("{port}") && self.cfg.sockets.len() == 1)
                });
                if named {
                    self.started.insert(file, used);
                }
            }
        }
        self.server = Some(super::tcp::Server::start(&argv)?);
        Ok(())
    }

    /// The local addresses listened on (server side), one per socket, e.g. to learn
    /// ephemeral ports.
    pub fn local_addrs(&self) -> Vec<SocketAddr> {
        self.listeners
            .iter()
            .filter_map(|l| l.local_addr().ok())
            .collect()
    }

    /// `host:port` of socket `i` as used (after the port map), for messages.
    fn addr(&self, i: usize) -> String {
        let s = &self.cfg.sockets[i];
        let port = self.port(s.port);
        if port == s.port {
            format!("{}:{}", s.host, port)
        } else {
            format!("{}:{} (PORT {} of the model)", s.host, port, s.port)
        }
    }

    fn disconnect(&mut self) {
        for c in self.conns.drain(..) {
            let _ = c.shutdown(Shutdown::Both);
        }
        self.readers.clear();
        self.reader_socket.clear();
        self.partial.clear();
    }

    /// Connect (client side) or accept (server side) every socket.
    fn connect(&mut self) -> Result<(), SutError> {
        self.disconnect();
        let mut wait = self.cfg.connect_timeout;
        if let Some(server) = &self.cfg.server {
            wait = wait.max(server.startup_timeout);
            self.start_server()?;
        }
        let deadline = Instant::now() + wait;
        let streams = match self.cfg.side {
            TxsSide::Client => {
                let mut v = Vec::new();
                for i in 0..self.cfg.sockets.len() {
                    v.push(self.connect_one(i, deadline)?);
                }
                v
            }
            TxsSide::Server => self.accept_all(deadline)?,
        };
        let broken = |e: std::io::Error| SutError::Broken(e.to_string());
        for (i, stream) in streams.into_iter().enumerate() {
            stream.set_nodelay(true).map_err(broken)?;
            if self.cfg.sockets[i].decode.is_some() {
                let reader = stream.try_clone().map_err(broken)?;
                self.readers
                    .push(FdLines::new(Box::new(reader), self.cfg.max_line));
                self.reader_socket.push(i);
                self.partial.push(false);
            }
            // the reader makes the socket non-blocking; writes are bounded by write_timeout
            stream.set_nonblocking(true).map_err(broken)?;
            self.conns.push(stream);
        }
        self.settled = false;
        self.last_input = None;
        self.connections += 1;
        self.exchanged = false;
        Ok(())
    }

    /// A start error if the SUT ioco started has exited.
    fn server_ended(&mut self, waiting_for: &str) -> Result<(), SutError> {
        let Some(server) = self.server.as_mut() else {
            return Ok(());
        };
        match server.ended() {
            Some(how) => {
                let argv = self.cfg.server.as_ref().map(|c| c.argv.join(" "));
                Err(SutError::Start(format!(
                    "the SUT `{}` {how}, before {waiting_for}",
                    argv.unwrap_or_default()
                )))
            }
            None => Ok(()),
        }
    }

    fn connect_one(&mut self, i: usize, deadline: Instant) -> Result<TcpStream, SutError> {
        let s = &self.cfg.sockets[i];
        let port = self.port(s.port);
        let addrs = resolve(&s.host, port).map_err(SutError::Broken)?;
        let mut last = String::from("no address");
        loop {
            for a in &addrs {
                let left = deadline.saturating_duration_since(Instant::now());
                let t = left.clamp(Duration::from_millis(1), Duration::from_secs(1));
                match TcpStream::connect_timeout(a, t) {
                    Ok(stream) => return Ok(stream),
                    Err(e) => last = e.to_string(),
                }
            }
            self.server_ended(&format!("accepting a connection on {}", self.addr(i)))?;
            if Instant::now() >= deadline {
                let hint = if self.cfg.server.is_some() {
                    "the SUT was started but does not listen there: check the port in its \
                     command ({port} or {port:N} for the CNECTDEF's PORT N), or wait longer \
                     with --startup-timeout"
                        .to_string()
                } else if self.connections > 0 {
                    "the SUT accepted the connection of an earlier run and refuses this one: \
                     TorXakis's SUTs serve one connection; give its command with --sut \
                     \"CMD {port}\" to start it for each run, or test with --runs 1"
                        .to_string()
                } else {
                    "the CNECTDEF is CLIENTSOCK, so the SUT must listen there; is it running? \
                     (--sut \"CMD {port}\" starts it for each run)"
                        .to_string()
                };
                return Err(SutError::Broken(format!(
                    "could not start the SUT: cannot connect to {} within {} s: {last} \
                     (hint: {hint})",
                    self.addr(i),
                    self.cfg
                        .server
                        .as_ref()
                        .map_or(self.cfg.connect_timeout, |s| s
                            .startup_timeout
                            .max(self.cfg.connect_timeout))
                        .as_secs_f64()
                )));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn accept_all(&mut self, deadline: Instant) -> Result<Vec<TcpStream>, SutError> {
        let mut got: Vec<Option<TcpStream>> = (0..self.listeners.len()).map(|_| None).collect();
        loop {
            for (i, l) in self.listeners.iter().enumerate() {
                if got[i].is_some() {
                    continue;
                }
                match l.accept() {
                    Ok((s, _)) => {
                        s.set_nonblocking(false)
                            .map_err(|e| SutError::Broken(e.to_string()))?;
                        got[i] = Some(s);
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                    Err(e) => return Err(SutError::Broken(format!("accept: {e}"))),
                }
            }
            if got.iter().all(Option::is_some) {
                return Ok(got.into_iter().flatten().collect());
            }
            self.server_ended("connecting to ioco")?;
            if Instant::now() >= deadline {
                let missing: Vec<String> = got
                    .iter()
                    .enumerate()
                    .filter(|(_, g)| g.is_none())
                    .map(|(i, _)| match self.listeners[i].local_addr() {
                        Ok(a) => format!("{a} (PORT {})", self.cfg.sockets[i].port),
                        Err(_) => self.addr(i),
                    })
                    .collect();
                return Err(SutError::Broken(format!(
                    "could not start the SUT: no SUT connected to {} within {} s (hint: the \
                     CNECTDEF is SERVERSOCK, so the SUT must connect there)",
                    missing.join(", "),
                    self.cfg.connect_timeout.as_secs_f64()
                )));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn ensure_connected(&mut self) -> Result<(), SutError> {
        if self.conns.is_empty() {
            self.connect()?;
        }
        Ok(())
    }

    /// The quiescence time-out of an observation that is given none (`Sut::observe(None)`).
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// After a later run's connection is dropped before any line: why, and what to do.
    fn one_shot_hint(&self) -> &'static str {
        if self.connections > 1 && !self.exchanged && self.cfg.server.is_none() {
            " (hint: the SUT served the connection of an earlier run and drops this one: \
             TorXakis's SUTs serve one connection; give its command with --sut \"CMD {port}\" \
             to start it for each run, or test with --runs 1)"
        } else {
            ""
        }
    }

    fn closed(&mut self, socket: usize) -> SutError {
        let e = SutError::Exited {
            status: format!(
                "closed the connection on {}{}",
                self.addr(socket),
                self.one_shot_hint()
            ),
        };
        self.disconnect();
        e
    }

    /// The next line read (socket index, bytes), waiting at most `wait`; `None` when none came.
    fn next_line(&mut self, wait: Duration) -> Result<Option<(usize, Vec<u8>)>, SutError> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match FdLines::recv_any(&mut self.readers, left) {
                Ok((r, ev)) => {
                    let socket = self.reader_socket[r];
                    match ev {
                        Event::Line(bytes) => {
                            self.partial[r] = false;
                            self.exchanged = true;
                            return Ok(Some((socket, bytes)));
                        }
                        Event::Partial => self.partial[r] = true,
                        Event::TooLong(n) => {
                            let e = SutError::Broken(format!(
                                "the SUT wrote malformed output on {}: a line longer than {} \
                                 bytes (at least {n} bytes without a newline)",
                                self.addr(socket),
                                self.cfg.max_line
                            ));
                            self.disconnect();
                            return Err(e);
                        }
                        Event::Eof => return Err(self.closed(socket)),
                        Event::Failed(m) => {
                            let e = SutError::Broken(format!(
                                "I/O error on {}: {m}{}",
                                self.addr(socket),
                                self.one_shot_hint()
                            ));
                            self.disconnect();
                            return Err(e);
                        }
                    }
                }
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                    if let Some(r) = self.partial.iter().position(|p| *p) {
                        if !wait.is_zero() {
                            let e = SutError::Broken(format!(
                                "the SUT wrote malformed output on {}: an unterminated line \
                                 (no newline) followed by {} ms of silence",
                                self.addr(self.reader_socket[r]),
                                wait.as_millis()
                            ));
                            self.disconnect();
                            return Err(e);
                        }
                    }
                    return Ok(None);
                }
            }
        }
    }

    /// The line (with `\n`) and socket of input `gate` with `args`.
    pub fn encode_line(&self, gate: &str, args: &[Value]) -> Result<(usize, Vec<u8>), String> {
        let e = self
            .encode
            .get(gate)
            .map(|i| &self.cfg.encode[*i])
            .ok_or_else(|| format!("`{gate}` is no input gate with an ENCODE"))?;
        let defs = &self.wire_defs;
        let mut line = String::new();
        for p in &e.parts {
            match p {
                TxsPart::Text(t) => line.push_str(t),
                TxsPart::Value { arg, fields } | TxsPart::Xml { arg, fields } => {
                    let mut v = args
                        .get(*arg)
                        .ok_or_else(|| format!("`{gate}` was given {} value(s)", args.len()))?;
                    for (ctor, field) in fields {
                        v = match v {
                            Value::Adt(_, c, fs) if c == ctor => fs
                                .get(*field as usize)
                                .ok_or_else(|| format!("no field {field} in {v:?}"))?,
                            other => {
                                return Err(format!(
                                    "the ENCODE of `{gate}` reads a field of another \
                                     constructor than {}",
                                    txs_text::to_string(defs, other)
                                ))
                            }
                        };
                    }
                    if matches!(p, TxsPart::Xml { .. }) {
                        line.push_str(&txs_xml::to_xml(defs, v));
                    } else {
                        txs_text::write_value(defs, v, &mut line);
                    }
                }
            }
        }
        if line.contains(['\n', '\r']) {
            return Err(format!(
                "the ENCODE of `{gate}` made a text with a line break, which a line protocol \
                 cannot carry: {line:?}"
            ));
        }
        line.push('\n');
        Ok((e.socket, line.into_bytes()))
    }

    /// The output a line read on `socket` is.
    pub fn decode_line(
        &self,
        socket: usize,
        bytes: &[u8],
    ) -> Result<Observation<GateValue>, SutError> {
        let Ok(text) = std::str::from_utf8(bytes) else {
            return Err(SutError::Broken(format!(
                "the SUT wrote malformed output on {}: a line that is not UTF-8 text",
                self.addr(socket)
            )));
        };
        let text = text.strip_suffix('\r').unwrap_or(text);
        let Some(d) = &self.cfg.sockets[socket].decode else {
            return Err(no_output(format!(
                "`{text}` on {}, where no output is read",
                self.addr(socket)
            )));
        };
        let Some(g) = self
            .spec
            .gates
            .iter()
            .find(|g| g.name == d.gate && g.dir == Direction::Output)
        else {
            return Err(no_output(format!("`{text}`: no gate `{}`", d.gate)));
        };
        let n = g.params.len();
        let mut pieces = Vec::with_capacity(n);
        let sep = |c: char| d.separators.contains(c);
        let mut rest = text;
        for k in 0..n {
            if k + 1 == n {
                pieces.push(rest);
            } else {
                let end = rest.find(sep).unwrap_or(rest.len());
                pieces.push(&rest[..end]);
                rest = rest[end..].trim_start_matches(sep);
            }
        }
        let mut values = Vec::with_capacity(n);
        for (k, ((_, ty), piece)) in g.params.iter().zip(&pieces).enumerate() {
            let parsed = if d.xml {
                txs_xml::from_xml(&self.wire_defs, *ty, piece)
            } else {
                txs_text::from_string(&self.wire_defs, *ty, piece)
            };
            match parsed {
                Ok(v) => values.push(v),
                Err(e) => {
                    let which = if n > 1 {
                        format!(" (value {} of {n}: `{piece}`)", k + 1)
                    } else {
                        String::new()
                    };
                    let msg = format!(
                        "`{text}` on {} is no output `{}`{which}: {e}",
                        self.addr(socket),
                        g.name
                    );
                    if e.too_big {
                        return Err(SutError::Broken(format!(
                            "{msg}; it cannot be judged (hint: keep the values within ±{})",
                            i64::MAX
                        )));
                    }
                    return Err(no_output(msg));
                }
            }
        }
        Ok(Observation::Output((g.name.clone(), values)))
    }
}

impl Sut<GateValue> for TxsAdapter {
    fn reset(&mut self) -> Result<(), SutError> {
        self.connect()
    }

    fn send(&mut self, input: GateValue) -> Result<Sent<GateValue>, SutError> {
        let (gate, args) = (input.0.as_str(), &input.1[..]);
        self.ensure_connected()?;
        let (socket, line) = self.encode_line(gate, args).map_err(SutError::Broken)?;
        // an output already there, or still on its way, comes first: unless quiescence is
        // established since the last input or output, wait a whole quiescence time-out for it
        // (TorXakis waits only its ioTime, which can take a late output for quiescence)
        let mut wait = if self.settled {
            Duration::ZERO
        } else if self.quiet_expected {
            self.settle_hint.unwrap_or(self.timeout)
        } else {
            self.cfg.io_time
        };
        // an input on another socket than the last one waits until that one is io_time old:
        // a SUT that reads its sockets in parallel would otherwise take the two in either order
        if let Some((last, at)) = self.last_input {
            if last != socket {
                wait = wait.max(self.cfg.io_time.saturating_sub(at.elapsed()));
            }
        }
        if let Some((s, bytes)) = self.next_line(wait)? {
            self.settled = false;
            return match self.decode_line(s, &bytes)? {
                Observation::Output(x) => Ok(Sent::Raced(x)),
                Observation::Quiescent => unreachable!("a line is no quiescence"),
            };
        }
        let timeout = self.cfg.write_timeout;
        match write_bounded(&mut self.conns[socket], &line, timeout) {
            Ok(()) => {
                self.last_input = Some((socket, Instant::now()));
                self.settled = false;
                Ok(Sent::Accepted)
            }
            Err(Stop::Eof) => Err(self.closed(socket)),
            Err(Stop::Err(e)) => {
                self.disconnect();
                Err(SutError::Broken(e.to_string()))
            }
        }
    }

    fn observe(&mut self, timeout: Option<Duration>) -> Result<Observation<GateValue>, SutError> {
        if let Some(t) = timeout {
            self.timeout = t;
        }
        self.ensure_connected()?;
        match self.next_line(self.timeout)? {
            Some((s, bytes)) => {
                self.settled = false;
                self.decode_line(s, &bytes)
            }
            None => {
                self.settled = true;
                self.timeouts += 1;
                Ok(Observation::Quiescent)
            }
        }
    }

    fn settle_timeout(&mut self, timeout: Duration) {
        self.settle_hint = Some(timeout);
    }

    fn expect_quiet(&mut self, quiet: bool) {
        self.quiet_expected = quiet;
    }

    fn established(&mut self) -> [u32; 4] {
        [0, 0, std::mem::take(&mut self.timeouts), 0]
    }

    fn close(&mut self) -> Result<(), SutError> {
        self.disconnect();
        Ok(())
    }
}

/// A line that is no output of the specification, and why (a Fail).
fn no_output(why: String) -> SutError {
    SutError::UnknownOutput { line: why }
}

impl Drop for TxsAdapter {
    fn drop(&mut self) {
        self.disconnect();
    }
}

/// A [`TxsAdapter`] as a [`Sut`] over labels, for models whose values are enumerated
/// into labels (`Action(Plus(1,2))`).
pub type TxsLabels = super::labels::Labels<TxsAdapter>;

impl TxsLabels {
    /// The adapter for `alphabet`, the labels of the adapter's model with its gate values.
    pub fn new(inner: TxsAdapter, alphabet: &Alphabet) -> TxsLabels {
        let spec = Arc::clone(&inner.spec);
        super::labels::Labels::with_spec(inner, spec, alphabet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ioco_lang::semantics::label_name;

    const SRC: &str = r#"
type Rec = Rec { a: int, b: bool, c: int }
model M {
  input In(r: Rec), Two(x: int, y: int), Go
  output Out(x: int, y: bool, z: int), Done
  init s
  s -- In?(r) --> s
  s -- Two?(x, y) --> s
  s -- Go? --> s
  s -- Out!(x, y, z) --> s
  s -- Done! --> s
}
"#;

    fn spec() -> Arc<Spec> {
        let m = ioco_lang::parse_str("m.ioco", SRC).expect("model");
        Arc::new(m.spec("M").expect("M").clone())
    }

    /// LuckyPeople's kind of ENCODE (fields of a record joined by a separator), a joined
    /// pair, a constant; a split DECODE and one without values.
    fn config() -> TxsSocketConfig {
        let mut cfg = TxsSocketConfig::new(TxsSide::Client);
        let s0 = cfg.socket("localhost", 7000);
        let s1 = cfg.socket("localhost", 7001);
        assert_eq!(cfg.socket("localhost", 7000), s0);
        let field = |f| TxsPart::Value {
            arg: 0,
            fields: vec![(0, f)],
        };
        let at = || TxsPart::Text("@".into());
        cfg.encode.push(TxsEncode {
            gate: "In".into(),
            socket: s0,
            parts: vec![field(0), at(), field(1), at(), field(2)],
        });
        cfg.encode.push(TxsEncode::joined("Two", s0, 2, ","));
        cfg.encode.push(TxsEncode::text("Go", s1, "go"));
        cfg.sockets[s0].decode = Some(TxsDecode::split("Out", "@#"));
        cfg.sockets[s1].decode = Some(TxsDecode::new("Done"));
        cfg
    }

    #[test]
    fn encode_parts_and_split_decode() {
        let a = TxsAdapter::new(spec(), config()).unwrap();
        let rec = Value::Adt(
            0,
            0,
            vec![Value::Int(1), Value::Bool(true), Value::Int(-3)].into(),
        );
        assert_eq!(
            a.encode_line("In", &[rec]).unwrap(),
            (0, b"1@True@-3\n".to_vec())
        );
        let two = [Value::Int(4), Value::Int(-5)];
        assert_eq!(a.encode_line("Two", &two).unwrap(), (0, b"4,-5\n".to_vec()));
        assert_eq!(a.encode_line("Go", &[]).unwrap(), (1, b"go\n".to_vec()));
        let out = |x, y, z| {
            Observation::Output((
                "Out".into(),
                vec![Value::Int(x), Value::Bool(y), Value::Int(z)],
            ))
        };
        // takeWhileNot / dropWhile (dropWhileNot ...): runs of separators, either character
        assert_eq!(a.decode_line(0, b"1@True@-3"), Ok(out(1, true, -3)));
        assert_eq!(a.decode_line(0, b"1@@#false#(-3)\r"), Ok(out(1, false, -3)));
        // the last value is the whole rest
        match a.decode_line(0, b"1@True@-3@4") {
            Err(SutError::UnknownOutput { line: m }) => {
                assert!(m.contains("value 3 of 3: `-3@4`"), "{m}")
            }
            other => panic!("{other:?}"),
        }
        match a.decode_line(0, b"1@True") {
            Err(SutError::UnknownOutput { line: m }) => {
                assert!(m.contains("the end of the line"), "{m}")
            }
            other => panic!("{other:?}"),
        }
        // a gate without values: any line
        for line in [&b"stopped"[..], b"", b"anything at all"] {
            assert_eq!(
                a.decode_line(1, line),
                Ok(Observation::Output(("Done".into(), vec![])))
            );
        }
    }

    #[test]
    fn configurations_that_do_not_fit_the_model_are_refused() {
        let refused = |f: &dyn Fn(&mut TxsSocketConfig)| {
            let mut cfg = config();
            f(&mut cfg);
            TxsAdapter::new(spec(), cfg).err().expect("refused")
        };
        let m = refused(&|c| c.sockets[0].decode = Some(TxsDecode::new("Out")));
        assert!(
            m.contains("reads 3 values from a line but has no separator"),
            "{m}"
        );
        let m = refused(&|c| c.encode[2].gate = "Done".into());
        assert!(m.contains("`Done`, which is no input gate"), "{m}");
        let m = refused(&|c| c.encode[1].socket = 9);
        assert!(m.contains("socket 9"), "{m}");
        let m = refused(&|c| c.encode.push(TxsEncode::to_string("Go", 0)));
        assert!(m.contains("uses value 1 of 0"), "{m}");
        let m = refused(&|c| {
            c.encode.remove(0);
        });
        assert!(m.contains("`In` has no ENCODE"), "{m}");
        let m = refused(&|c| {
            c.ports.insert(7777, 1);
        });
        assert!(m.contains("port 7777, which is no PORT"), "{m}");
        assert_eq!(
            parse_port_map("7000=0 7001=41000").unwrap(),
            BTreeMap::from([(7000, 0), (7001, 41000)])
        );
        assert!(parse_port_map("7000=1,7000=2")
            .unwrap_err()
            .contains("twice"));
    }

    #[test]
    fn xml_encode_and_decode() {
        let mut cfg = config();
        cfg.encode[0] = TxsEncode::xml("In", 0);
        cfg.sockets[0].decode = Some(TxsDecode {
            xml: true,
            ..TxsDecode::split("Out", "@")
        });
        let a = TxsAdapter::new(spec(), cfg).unwrap();
        let rec = Value::Adt(
            0,
            0,
            vec![Value::Int(1), Value::Bool(true), Value::Int(-3)].into(),
        );
        let xml = "<TorXakisMsg><Rec><a>1</a><b>true</b><c>-3</c></Rec></TorXakisMsg>\n";
        assert_eq!(
            a.encode_line("In", &[rec]).unwrap(),
            (0, xml.as_bytes().to_vec())
        );
        let m = |v: &str| format!("<TorXakisMsg>{v}</TorXakisMsg>");
        let line = format!("{}@{}@{}", m("1"), m("false"), m("-3"));
        assert_eq!(
            a.decode_line(0, line.as_bytes()),
            Ok(Observation::Output((
                "Out".into(),
                vec![Value::Int(1), Value::Bool(false), Value::Int(-3)]
            )))
        );
        match a.decode_line(0, b"<TorXakisMsg>1</TorXakisMsg>@1@2") {
            Err(SutError::UnknownOutput { line: m }) => assert!(m.contains("value 2 of 3"), "{m}"),
            other => panic!("{other:?}"),
        }
    }

    /// A constructor the import renamed (TorXakis overloads `Nil`, `.ioco` cannot) is written
    /// and read under its TorXakis name; the model's labels keep the model's name.
    #[test]
    fn renamed_constructors_are_written_and_read_under_their_wire_names() {
        let src = "type A = Nil | Cons { h: int, t: A }\n\
                   type B = Nil_B | Cons_B { h: bool, t: B }\n\
                   model M {\n  input In(b: B)\n  output Out(b: B)\n  init s\n\
                   s -- In?(b) --> s\n  s -- Out!(b) --> s\n}\n";
        let m = ioco_lang::parse_str("m.ioco", src).expect("model");
        let spec = Arc::new(m.spec("M").expect("M").clone());
        let mut cfg = TxsSocketConfig::new(TxsSide::Client);
        let s0 = cfg.socket("localhost", 7000);
        cfg.encode.push(TxsEncode::to_string("In", s0));
        cfg.sockets[s0].decode = Some(TxsDecode::new("Out"));
        cfg.wire_ctors = [("Nil_B", "Nil"), ("Cons_B", "Cons")]
            .into_iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let a = TxsAdapter::new(Arc::clone(&spec), cfg).unwrap();
        let nil = Value::Adt(1, 0, Vec::new().into());
        let one = Value::Adt(1, 1, vec![Value::Bool(true), nil.clone()].into());
        assert_eq!(
            a.encode_line("In", std::slice::from_ref(&one)).unwrap(),
            (0, b"Cons(True,Nil)\n".to_vec())
        );
        assert_eq!(
            a.decode_line(0, b"Cons(True,Nil)"),
            Ok(Observation::Output(("Out".into(), vec![one.clone()])))
        );
        // the model's own name is not a wire name
        assert!(matches!(
            a.decode_line(0, b"Cons_B(True,Nil_B)"),
            Err(SutError::UnknownOutput { .. })
        ));
        // labels keep the model's names
        assert_eq!(
            label_name(&spec.defs, "Out", &[one]),
            "Out(Cons_B(true,Nil_B))"
        );
    }

    #[test]
    fn a_text_with_a_line_break_is_not_sent() {
        let mut cfg = config();
        cfg.encode[2] = TxsEncode::text("Go", 1, "go\nstop");
        let a = TxsAdapter::new(spec(), cfg).unwrap();
        assert!(a.encode_line("Go", &[]).unwrap_err().contains("line break"));
    }
}
