//! End to end over TCP (as TorXakis talks to its SUTs): `coffee-sut --listen` serves every
//! connection with a fresh machine; ioco-exec's TCP adapter connects, and reconnects to reset.

mod common;

use common::*;
use ioco_examples::{explore, Coffee, CoffeeMode};
use ioco_exec::{OnlineOptions, RunVerdict, Summary, Sut};
use ioco_model::Lts;
use ioco_sut::tcp::{TcpAdapter, TcpConfig, TcpMode};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_coffee-sut");

/// A SUT server on a free loopback port, killed on drop.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(mode: &str) -> Server {
        let mut child = Command::new(BIN)
            .args(["--mode", mode, "--ack", "--listen", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        err.read_line(&mut line).unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        // Keep draining stderr (panics of connection threads) so the server never blocks on it.
        std::thread::spawn(move || {
            let mut sink = String::new();
            while err.read_line(&mut sink).is_ok_and(|n| n > 0) {}
        });
        Server { child, addr }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn tcp_session(spec: &Lts, server: &Server, opts: &OnlineOptions) -> Summary {
    let mut cfg = TcpConfig::new(TcpMode::Connect(server.addr.clone()));
    cfg.wire.marker = Some("#quiet".into());
    cfg.settle = Duration::from_secs(5);
    ioco_exec::run_online(spec, opts, |_| {
        Ok(Box::new(TcpAdapter::new(spec.alphabet(), cfg.clone())?) as Box<dyn Sut + Send>)
    })
    .unwrap()
}

#[test]
fn correct_machine_over_tcp_never_fails() {
    let spec = spec("examples/coffee/coffee.aut");
    let server = Server::start("correct");
    let s = tcp_session(&spec, &server, &options(30, 50, 11));
    assert_eq!(s.verdict, RunVerdict::Pass, "{}", ioco_report_text(&s));
    assert_eq!(s.runs.len(), 30);
}

#[test]
fn faults_over_tcp_are_caught() {
    let spec = spec("examples/coffee/coffee.aut");
    for (mode, observed) in [
        (CoffeeMode::Silent, "δ"),
        (CoffeeMode::WrongOutput, "coffee!"),
        (CoffeeMode::Crash, "exit"),
        (CoffeeMode::Flood, "coffee!"),
    ] {
        let server = Server::start(&mode.name());
        let mut opts = options(50, 50, 7);
        opts.shrink = true;
        let summary = tcp_session(&spec, &server, &opts);
        let model = explore(Coffee::new(mode), 1000).unwrap();
        let r = summary
            .first_failure()
            .unwrap_or_else(|| panic!("{}", ioco_report_text(&summary)));
        assert_eq!(r.failure.as_ref().unwrap().observed, observed);
        assert_trace_of(&model, r);
        if mode == CoffeeMode::Crash {
            // The connection thread panicked: the connection closed, the server lives on.
            assert!(
                r.failure
                    .as_ref()
                    .unwrap()
                    .reason
                    .contains("closed the connection"),
                "{:?}",
                r.failure
            );
        }
        let sh = r.shrunk.as_ref().expect("shrunk over new connections");
        assert_eq!(
            sh.inputs.len(),
            if mode == CoffeeMode::WrongOutput {
                1
            } else {
                3
            }
        );
    }
}
