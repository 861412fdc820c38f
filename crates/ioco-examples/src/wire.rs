//! The line-based wire format every example system under test speaks, and a driver for it.
//!
//! Each input arrives on stdin as one line holding the label name (`water`). The program answers
//! with zero or more lines on stdout, each an output label name (`coffee`), flushed at once.
//! With acknowledgements on (`--ack` or `IOCO_ACK=1`) the program prints the marker line
//! [`QUIET_MARKER`] each time it has finished reacting and waits for input — once at start-up
//! (after any spontaneous output) and once after every input line, including lines it ignores —
//! so a tester observes quiescence (δ) without waiting for a timeout. An unknown input line is
//! ignored: no output, the state does not change (the program is input-enabled).
//!
//! The control line [`RESET_LINE`] (`#reset`; labels never start with `#`) puts the program back
//! into its initial state as if it had just started (start-up effects included), so a tester can
//! reset it without starting a new process.
//!
//! [`listen`] serves the same format over TCP instead of stdin/stdout (as TorXakis's SUTs do):
//! every connection gets a fresh machine, so a tester resets by reconnecting. [`connect`] is the
//! other way round, for a tester that listens (`ioco test --listen`): the program connects,
//! and connects again with a fresh machine whenever the tester closes the connection.

use std::io::{BufRead, Write};

/// The line a program prints, with acknowledgements on, when it has finished reacting.
pub const QUIET_MARKER: &str = "#quiet";

/// The line that resets the program to its initial state.
pub const RESET_LINE: &str = "#reset";

/// The environment variable that turns acknowledgements on when set to `1` (or `true`).
pub const ACK_ENV: &str = "IOCO_ACK";

/// What a system under test does in reaction to an input (or at start-up).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// Print an output label.
    Output(&'static str),
    /// Print a line that is not a label of the interface.
    Garbage(&'static str),
    /// Print this line (an output with data, built at run time: `coffee 120`).
    Line(String),
    /// Panic (the process exits with status 101 and a message on stderr).
    Crash(&'static str),
    /// Stop responding: never read input or write output again, but stay alive.
    Hang,
    /// Print this output label endlessly.
    Flood(&'static str),
}

/// A system under test as a state machine that the [`serve`] driver runs over the wire format.
pub trait Machine {
    /// The input labels the program understands; any other line is ignored.
    fn inputs(&self) -> &'static [&'static str];
    /// What the program does on start-up, before reading any input.
    fn start(&mut self) -> Vec<Effect> {
        Vec::new()
    }
    /// React to one input (always a line [`Machine::accepts`]).
    fn react(&mut self, input: &str) -> Vec<Effect>;
    /// Whether an input line (trimmed) is understood; others are ignored. Default: it is one
    /// of [`Machine::inputs`]. Machines with data ([`crate::data`]) parse the line.
    fn accepts(&self, line: &str) -> bool {
        self.inputs().contains(&line)
    }
}

/// The command-line options every example program shares (flattened into each program's
/// own clap arguments).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct WireArgs {
    /// Print `#quiet` after every reaction (explicit quiescence).
    #[arg(long, env = "IOCO_ACK", value_parser = clap::builder::FalseyValueParser::new())]
    pub ack: bool,
    /// Serve over TCP instead of stdin/stdout: listen at ADDR (a bare port means
    /// 127.0.0.1:PORT; 0 picks a free port, printed as `listening on ADDR` on stderr). Every
    /// connection gets a fresh machine.
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<String>,
    /// Serve over TCP as a client of a tester that listens (`ioco test --listen`): connect to
    /// ADDR (a bare port means 127.0.0.1:PORT), and connect again with a fresh machine whenever
    /// the tester closes the connection; exit when the tester is gone.
    #[arg(long, value_name = "ADDR", conflicts_with = "listen")]
    pub connect: Option<String>,
}

/// Whether acknowledgements were asked for in the environment ([`ACK_ENV`]).
pub fn ack_from_env() -> bool {
    std::env::var(ACK_ENV)
        .map(|v| matches!(v.trim(), "1" | "true" | "yes"))
        .unwrap_or(false)
}

/// Run `machine` over `input`/`output` until the input ends (or the machine crashes or hangs).
///
/// Returns `Ok(())` at end of input, or the I/O error that stopped it (e.g. a closed pipe).
/// [`Effect::Crash`] panics; [`Effect::Hang`] sleeps forever; [`Effect::Flood`] writes until the
/// pipe closes. [`RESET_LINE`] restores the machine as it was passed in.
pub fn serve<M: Machine + Clone>(
    machine: &mut M,
    ack: bool,
    input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    let initial = machine.clone();
    let effects = machine.start();
    perform(&effects, &mut output)?;
    if ack {
        line(&mut output, QUIET_MARKER)?;
    }
    let mut input = input;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        // Bytes that are not UTF-8 make an unknown line, ignored like any other.
        let l = String::from_utf8_lossy(&buf);
        let name = l.trim();
        if name == RESET_LINE {
            *machine = initial.clone();
            let effects = machine.start();
            perform(&effects, &mut output)?;
        } else if machine.accepts(name) {
            let effects = machine.react(name);
            perform(&effects, &mut output)?;
        }
        if ack {
            line(&mut output, QUIET_MARKER)?;
        }
    }
    Ok(())
}

fn line(output: &mut impl Write, text: &str) -> std::io::Result<()> {
    writeln!(output, "{text}")?;
    output.flush()
}

fn perform(effects: &[Effect], output: &mut impl Write) -> std::io::Result<()> {
    for e in effects {
        match e {
            Effect::Output(l) | Effect::Garbage(l) => line(output, l)?,
            Effect::Line(l) => line(output, l)?,
            Effect::Crash(msg) => panic!("{msg}"),
            Effect::Hang => loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            },
            Effect::Flood(l) => loop {
                line(output, l)?;
            },
        }
    }
    Ok(())
}

/// The entry point of the example binaries: run `machine` over stdin/stdout. A closed stdout
/// (the tester went away) ends the program quietly with status 0.
pub fn run_stdio<M: Machine + Clone>(machine: &mut M, ack: bool) {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    match serve(machine, ack, stdin.lock(), stdout.lock()) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}

/// `7890` means `127.0.0.1:7890` (loopback); anything else is used as given.
pub fn listen_address(s: &str) -> String {
    if s.parse::<u16>().is_ok() {
        format!("127.0.0.1:{s}")
    } else {
        s.to_string()
    }
}

/// Serve `machine` over TCP at `addr` (see [`listen_address`]): print `listening on ADDR` to
/// stderr once bound (port 0 picks a free port), then give every connection its own copy of
/// the machine in its own thread, until the process is killed. A crash ends that connection
/// only; a hang blocks that connection only.
pub fn listen<M: Machine + Clone + Send + 'static>(
    machine: M,
    ack: bool,
    addr: &str,
) -> std::io::Result<()> {
    let listener = std::net::TcpListener::bind(listen_address(addr))?;
    eprintln!("listening on {}", listener.local_addr()?);
    for conn in listener.incoming() {
        let Ok(stream) = conn else { continue };
        let m = machine.clone();
        std::thread::spawn(move || serve_stream(m, ack, stream));
    }
    Ok(())
}

/// Serve one TCP connection with `machine` until it closes (or the machine crashes).
fn serve_stream<M: Machine + Clone>(mut machine: M, ack: bool, stream: std::net::TcpStream) {
    let _ = stream.set_nodelay(true);
    let Ok(read) = stream.try_clone() else { return };
    let _ = serve(
        &mut machine,
        ack,
        std::io::BufReader::new(read),
        std::io::BufWriter::new(stream),
    );
}

/// Serve `machine` as a TCP client of the tester at `addr` (see [`listen_address`]): every
/// connection gets its own copy of the machine, in its own thread; when the tester closes it
/// (its reset), connect again. Returns when a connection fails: `Ok` once at least one
/// connection was served (the tester went away), else the error. A crash ends that
/// connection only; a hang blocks the program (it never connects again).
pub fn connect<M: Machine + Clone + Send + 'static>(
    machine: M,
    ack: bool,
    addr: &str,
) -> std::io::Result<()> {
    let addr = listen_address(addr);
    let mut served = false;
    loop {
        let stream = match std::net::TcpStream::connect(&addr) {
            Ok(s) => s,
            Err(_) if served => return Ok(()),
            Err(e) => return Err(e),
        };
        served = true;
        let m = machine.clone();
        let conn = std::thread::spawn(move || serve_stream(m, ack, stream));
        // a panic (Effect::Crash) has closed the connection: connect again
        let _ = conn.join();
    }
}

/// The `main` of an example program: serve `machine` over TCP as `wire` says (`--listen` or
/// `--connect`; exiting with status 2 when the address cannot be bound or reached) or else over
/// stdin/stdout.
pub fn main_with<M: Machine + Clone + Send + 'static>(mut machine: M, wire: &WireArgs) {
    if let Some(addr) = &wire.listen {
        if let Err(e) = self::listen(machine, wire.ack, addr) {
            eprintln!("error: cannot listen on {addr}: {e}");
            std::process::exit(2);
        }
    } else if let Some(addr) = &wire.connect {
        if let Err(e) = self::connect(machine, wire.ack, addr) {
            eprintln!("error: cannot connect to {addr}: {e}");
            std::process::exit(2);
        }
    } else {
        run_stdio(&mut machine, wire.ack);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone)]
    struct Echo;
    impl Machine for Echo {
        fn inputs(&self) -> &'static [&'static str] {
            &["ping"]
        }
        fn react(&mut self, _: &str) -> Vec<Effect> {
            vec![Effect::Output("pong")]
        }
    }

    /// Counts pings; says `hello` at start-up.
    #[derive(Clone)]
    struct Counter(u8);
    impl Machine for Counter {
        fn inputs(&self) -> &'static [&'static str] {
            &["ping"]
        }
        fn start(&mut self) -> Vec<Effect> {
            vec![Effect::Output("hello")]
        }
        fn react(&mut self, _: &str) -> Vec<Effect> {
            self.0 += 1;
            vec![Effect::Output(if self.0 == 1 { "one" } else { "many" })]
        }
    }

    #[test]
    fn connect_serves_each_connection_afresh_and_ends_when_the_tester_is_gone() {
        let tester = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = tester.local_addr().unwrap().to_string();
        let program = std::thread::spawn(move || connect(Counter(0), true, &addr));
        for _ in 0..2 {
            // a fresh machine each time: `hello` and `one` again
            let (conn, _) = tester.accept().unwrap();
            (&conn).write_all(b"ping\nping\n").unwrap();
            let lines: Vec<String> = std::io::BufReader::new(&conn)
                .lines()
                .take(6)
                .map(Result::unwrap)
                .collect();
            assert_eq!(
                lines,
                ["hello", "#quiet", "one", "#quiet", "many", "#quiet"]
            );
        }
        drop(tester);
        assert!(program.join().unwrap().is_ok());
        // nobody listening at all: an error
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        assert!(connect(Counter(0), true, &port.to_string()).is_err());
    }

    #[test]
    fn bare_ports_listen_on_loopback() {
        assert_eq!(listen_address("7890"), "127.0.0.1:7890");
        assert_eq!(listen_address("[::1]:0"), "[::1]:0");
    }

    #[test]
    fn reset_line_restarts_the_machine_with_its_start_up_effects() {
        let mut out = Vec::new();
        serve(
            &mut Counter(0),
            true,
            &b"ping\nping\n#reset\nping\n"[..],
            &mut out,
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "hello\n#quiet\none\n#quiet\nmany\n#quiet\nhello\n#quiet\none\n#quiet\n"
        );
    }

    #[test]
    fn ack_marks_startup_and_every_line_and_unknown_lines_are_ignored() {
        let mut out = Vec::new();
        serve(
            &mut Echo,
            true,
            &b"ping\nhello\n ping \r\n\xff\xfe\nping"[..],
            &mut out,
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "#quiet\npong\n#quiet\n#quiet\npong\n#quiet\n#quiet\npong\n#quiet\n"
        );
        let mut out = Vec::new();
        serve(&mut Echo, false, &b"ping\nhello\n"[..], &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "pong\n");
    }
}
