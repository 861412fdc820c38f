//! A SUT over TCP, in the [`super::wire`] format: as a client (`--tcp HOST:PORT`, the SUT
//! listens) or as a server (`--listen PORT`, the SUT connects; bound to loopback unless an
//! address is given).
//!
//! Reset between runs: reconnect (client) or accept the next connection (server), or write a
//! reset line and keep the connection ([`super::process::ResetMode::Line`]). A closed connection
//! is [`SutError::Exited`] with status "closed the connection".
//!
//! One-shot servers (`--sut CMD --tcp HOST:PORT`, like TorXakis's `systart`): with
//! [`TcpConfig::server`], each reset (re)starts the server program in its own process group
//! (killed with it, as a SUT on pipes is: [`super::process`]), waits until the port accepts a
//! connection ([`ServerConfig::startup_timeout`]), and connects. A server that exits before it
//! accepts, or never accepts, is a start error that shows its exit status and last output.
//! [`PORT_PLACEHOLDER`] in the address and the command line is replaced by a free port chosen
//! per start, so that parallel workers do not share a port.

use super::lineio::{spawn_tail, FdLines, LineIo, Stop, Tail};
use super::process::{describe_status, Marked, ResetMode};
use super::wire::{Codec, WireConfig};
use super::{Observation, Sent, Sut, SutError};
use ioco_model::{Alphabet, Label};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Which side connects.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TcpMode {
    /// Connect to the SUT at this address (`localhost:7000`).
    Connect(String),
    /// Listen here (`127.0.0.1:7000`, or a bare port for loopback) and let the SUT connect.
    Listen(String),
}

/// Configuration of a [`TcpAdapter`] (plain data: serialisable, part of a
/// [`crate::system::System`]).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct TcpConfig {
    /// Client or server.
    pub mode: TcpMode,
    /// Wire format.
    pub wire: WireConfig,
    /// Reset between runs.
    pub reset: ResetMode,
    /// Wait for the marker before an input this long (marker mode).
    pub settle: Duration,
    /// How long to wait for a connection (connect or accept).
    pub connect_timeout: Duration,
    /// Without a marker, where outputs are allowed: how long to wait for an answer in flight
    /// before an input.
    pub io_time: Duration,
    /// A server program to start per run (client mode only).
    pub server: Option<ServerConfig>,
    /// With a server program and no marker: establish quiescence by observing the server's
    /// processes and the connection ([`super::quiescence::ProcessProbe::tcp`]) as well as by
    /// the time-out.
    pub process_quiescence: bool,
}

/// A server program started for each run, before connecting to it (see the module
/// documentation).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct ServerConfig {
    /// Program and arguments ([`PORT_PLACEHOLDER`] is replaced).
    pub argv: Vec<String>,
    /// After a start, how long to wait for the port to accept a connection.
    pub startup_timeout: Duration,
}

/// Replaced by a free port chosen per start, in the address and the server's command line.
pub const PORT_PLACEHOLDER: &str = "{port}";

/// A port that was free a moment ago on the loopback interface.
pub(crate) fn free_port() -> Result<u16, SutError> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| SutError::Start(format!("cannot find a free port: {e}")))
}

/// A running server with its output tails (standard output, standard error), in its own
/// process group, killed with it when dropped.
pub(crate) struct Server {
    proc: Marked,
    out: Arc<Tail>,
    err: Arc<Tail>,
}

impl Server {
    /// Start `argv` (its standard input closed, its output kept for messages).
    pub(crate) fn start(argv: &[String]) -> Result<Server, SutError> {
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut proc = Marked::spawn(&mut cmd).map_err(|e| {
            SutError::Start(format!(
                "cannot start the server `{}`: {e} (hint: give a path to an executable, e.g. \
                 ./server, or use sh -c '...')",
                argv[0]
            ))
        })?;
        let out = spawn_tail(proc.child.stdout.take().expect("piped"), 4096);
        let err = spawn_tail(proc.child.stderr.take().expect("piped"), 4096);
        Ok(Server { proc, out, err })
    }

    /// How it ended, with its last output, if it has.
    pub(crate) fn ended(&mut self) -> Option<String> {
        match self.proc.child.try_wait() {
            Ok(Some(st)) => Some(format!("{}; {}", describe_status(st), self.output())),
            _ => None,
        }
    }

    /// Its last output, for an error message.
    pub(crate) fn output(&self) -> String {
        let wait = Some(Duration::from_millis(200));
        let parts: Vec<String> = [self.err.render(wait), self.out.render(wait)]
            .into_iter()
            .flatten()
            .map(|s| s.trim_end().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        if parts.is_empty() {
            "no output".into()
        } else {
            let lines: Vec<&str> = parts.iter().flat_map(|p| p.lines()).collect();
            format!("its last output: {}", lines.join(" | "))
        }
    }
}

impl TcpConfig {
    /// Defaults for `mode`.
    pub fn new(mode: TcpMode) -> TcpConfig {
        TcpConfig {
            mode,
            wire: WireConfig::default(),
            reset: ResetMode::Restart,
            settle: Duration::from_millis(200),
            connect_timeout: Duration::from_secs(10),
            io_time: Duration::from_millis(50),
            server: None,
            process_quiescence: false,
        }
    }
}

/// A TCP SUT.
pub struct TcpAdapter {
    cfg: TcpConfig,
    codec: Arc<Codec>,
    listener: Option<TcpListener>,
    conn: Option<(TcpStream, LineIo)>,
    server: Option<Server>,
    /// The tester's last [`Sut::settle_timeout`], for the next connection too.
    settle_hint: Option<Duration>,
}

fn listen_addr(s: &str) -> String {
    if s.parse::<u16>().is_ok() {
        format!("127.0.0.1:{s}")
    } else {
        s.to_string()
    }
}

impl TcpAdapter {
    /// An adapter for `cfg`. In server mode the port is bound now (so the SUT can be started
    /// after this returns); the connection is made at the first reset.
    pub fn new(alphabet: &Alphabet, cfg: TcpConfig) -> Result<TcpAdapter, SutError> {
        let codec = Codec::new(alphabet, &cfg.wire).map_err(SutError::Start)?;
        let listener = match &cfg.mode {
            TcpMode::Listen(a) => {
                let addr = listen_addr(a);
                let l = TcpListener::bind(&addr)
                    .map_err(|e| SutError::Start(format!("cannot listen on {addr}: {e}")))?;
                l.set_nonblocking(true)
                    .map_err(|e| SutError::Io(e.to_string()))?;
                Some(l)
            }
            TcpMode::Connect(_) => None,
        };
        Ok(TcpAdapter {
            cfg,
            codec: Arc::new(codec),
            listener,
            conn: None,
            server: None,
            settle_hint: None,
        })
    }

    /// The local address listened on (server mode), e.g. to learn an ephemeral port.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.listener.as_ref().and_then(|l| l.local_addr().ok())
    }

    /// Start the server program (a previous one is killed first) and connect to it once its
    /// port accepts; returns the connection.
    fn start_server(&mut self, template: &str) -> Result<TcpStream, SutError> {
        self.server = None; // kills the previous one
        let cfg = self.cfg.server.clone().expect("a server is configured");
        let uses_port = template.contains(PORT_PLACEHOLDER)
            || cfg.argv.iter().any(|a| a.contains(PORT_PLACEHOLDER));
        let port = if uses_port {
            free_port()?.to_string()
        } else {
            String::new()
        };
        let fill = |s: &str| s.replace(PORT_PLACEHOLDER, &port);
        let addr = fill(template);
        let argv: Vec<String> = cfg.argv.iter().map(|a| fill(a)).collect();
        let mut server = Server::start(&argv)?;
        let addrs: Vec<SocketAddr> = addr
            .to_socket_addrs()
            .map_err(|e| SutError::Start(format!("bad address `{addr}`: {e}")))?
            .collect();
        let deadline = Instant::now() + cfg.startup_timeout;
        loop {
            for a in &addrs {
                if let Ok(s) = TcpStream::connect_timeout(a, Duration::from_millis(200)) {
                    self.server = Some(server);
                    return Ok(s);
                }
            }
            if let Ok(Some(st)) = server.proc.child.try_wait() {
                return Err(SutError::Start(format!(
                    "the server `{}` {} before accepting a connection on {addr}; {}",
                    argv.join(" "),
                    describe_status(st),
                    server.output()
                )));
            }
            if Instant::now() >= deadline {
                let output = server.output();
                server.proc.kill();
                return Err(SutError::Start(format!(
                    "the server `{}` did not accept a connection on {addr} within {:?} \
                     (hint: check the port, or wait longer with --startup-timeout); {output}",
                    argv.join(" "),
                    cfg.startup_timeout
                )));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn connect(&mut self) -> Result<(), SutError> {
        self.drop_conn();
        let stream = match &self.cfg.mode {
            TcpMode::Connect(a) if self.cfg.server.is_some() => {
                let a = a.clone();
                self.start_server(&a)?
            }
            TcpMode::Connect(a) => {
                let addrs: Vec<SocketAddr> = a
                    .to_socket_addrs()
                    .map_err(|e| SutError::Start(format!("bad address `{a}`: {e}")))?
                    .collect();
                let mut last = None;
                let mut got = None;
                for addr in addrs {
                    match TcpStream::connect_timeout(&addr, self.cfg.connect_timeout) {
                        Ok(s) => {
                            got = Some(s);
                            break;
                        }
                        Err(e) => last = Some(e),
                    }
                }
                got.ok_or_else(|| {
                    SutError::Start(format!(
                        "cannot connect to {a}: {} (hint: is the SUT listening?)",
                        last.map(|e| e.to_string()).unwrap_or_default()
                    ))
                })?
            }
            TcpMode::Listen(a) => {
                let l = self.listener.as_ref().expect("bound");
                let deadline = Instant::now() + self.cfg.connect_timeout;
                loop {
                    match l.accept() {
                        Ok((s, _)) => break s,
                        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                            if Instant::now() > deadline {
                                let at = l
                                    .local_addr()
                                    .map(|x| x.to_string())
                                    .unwrap_or_else(|_| listen_addr(a));
                                return Err(SutError::Start(format!(
                                    "no SUT connected to {at} within {:?} (hint: start the \
                                     SUT so that it connects there, or wait longer with \
                                     --connect-timeout)",
                                    self.cfg.connect_timeout
                                )));
                            }
                            std::thread::sleep(Duration::from_millis(5));
                        }
                        Err(e) => return Err(SutError::Start(format!("accept: {e}"))),
                    }
                }
            }
        };
        let io_err = |e: std::io::Error| SutError::Io(e.to_string());
        stream.set_nonblocking(false).map_err(io_err)?;
        stream.set_nodelay(true).map_err(io_err)?;
        stream
            .set_write_timeout(Some(Duration::from_millis(50)))
            .map_err(io_err)?;
        let reader = stream.try_clone().map_err(io_err)?;
        let writer = stream.try_clone().map_err(io_err)?;
        let rx = FdLines::new(Box::new(reader), self.codec.max_line);
        let mut io = LineIo::new(
            Box::new(writer),
            rx,
            Arc::clone(&self.codec),
            self.cfg.settle,
        );
        io.settle_hint = self.settle_hint;
        io.io_time = self.cfg.io_time;
        if let Some(server) = self.server.as_ref() {
            if self.cfg.process_quiescence && !self.codec.has_marker() {
                use std::os::unix::io::AsRawFd;
                io.probe = super::quiescence::ProcessProbe::tcp(
                    server.proc.child.id(),
                    stream.as_raw_fd(),
                );
            }
        }
        self.conn = Some((stream, io));
        Ok(())
    }

    fn drop_conn(&mut self) {
        if let Some((s, _)) = self.conn.take() {
            let _ = s.shutdown(Shutdown::Both);
        }
    }

    fn stopped(&mut self, s: Stop) -> SutError {
        self.drop_conn();
        match s {
            Stop::Eof => SutError::Exited {
                status: "closed the connection".into(),
            },
            Stop::Err(e) => e,
        }
    }

    fn io(&mut self) -> Result<&mut LineIo, SutError> {
        if self.conn.is_none() {
            self.connect()?;
        }
        Ok(&mut self.conn.as_mut().expect("connected").1)
    }
}

impl TcpAdapter {
    /// Give an input already encoded as a wire line (`\n` included; data arguments), with the
    /// race contract of [`Sut::send`] (for [`crate::data`]).
    pub(crate) fn send_line(&mut self, line: &[u8]) -> Result<Sent, SutError> {
        match self.io()?.send_line_with(line, &mut || false) {
            Ok(s) => Ok(s),
            Err(s) => Err(self.stopped(s)),
        }
    }

    /// The raw bytes of the last output line observed (or raced), without `\n`.
    pub(crate) fn last_line(&self) -> &[u8] {
        self.conn
            .as_ref()
            .map(|c| c.1.last_line.as_slice())
            .unwrap_or(&[])
    }
}

impl Sut for TcpAdapter {
    fn reset(&mut self) -> Result<(), SutError> {
        if let (ResetMode::Line(line), Some((_, io))) = (&self.cfg.reset, self.conn.as_mut()) {
            let mut bytes = line.clone().into_bytes();
            bytes.push(b'\n');
            let settle = self.cfg.settle;
            if io.write_line(&bytes).and_then(|_| io.drain(settle)).is_ok() {
                return Ok(());
            }
        }
        self.connect()
    }

    fn send(&mut self, input: Label) -> Result<Sent, SutError> {
        match self.io()?.send(input) {
            Ok(s) => Ok(s),
            Err(s) => Err(self.stopped(s)),
        }
    }

    fn established(&mut self) -> [u32; 4] {
        self.conn
            .as_mut()
            .map_or([0; 4], |(_, io)| std::mem::take(&mut io.established))
    }

    fn expect_quiet(&mut self, quiet: bool) {
        if let Some((_, io)) = self.conn.as_mut() {
            io.quiet_expected = quiet;
        }
    }

    fn settle_timeout(&mut self, timeout: Duration) {
        self.settle_hint = Some(timeout);
        if let Some((_, io)) = self.conn.as_mut() {
            io.settle_hint = Some(timeout);
        }
    }

    fn observe(&mut self, timeout: Option<Duration>) -> Result<Observation, SutError> {
        let timeout = timeout.unwrap_or(ioco_engine::sut::DEFAULT_OBSERVE);
        match self.io()?.observe(timeout) {
            Ok(o) => Ok(o),
            Err(s) => Err(self.stopped(s)),
        }
    }

    fn close(&mut self) -> Result<(), SutError> {
        self.drop_conn();
        self.server = None;
        Ok(())
    }

    fn stderr_tail(&mut self) -> Option<String> {
        self.server.as_ref().and_then(|s| s.err.render(None))
    }
}

impl Drop for TcpAdapter {
    fn drop(&mut self) {
        self.drop_conn();
        self.server = None;
    }
}
