//! TCP adapters on loopback, as client (the SUT listens) and as server (the SUT connects).

use ioco_exec::{run_online_with, OnlineOptions, RunVerdict};
use ioco_model::{Alphabet, LabelKind::*, Lts, LtsBuilder};
use ioco_sut::tcp::{TcpAdapter, TcpConfig, TcpMode};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

fn spec() -> Lts {
    let mut b = LtsBuilder::new(Alphabet::new());
    b.add_states(2);
    b.add_initial(0);
    b.add(0, "coin", Input, 1).unwrap();
    b.add(1, "coffee", Output, 0).unwrap();
    b.build().unwrap()
}

/// Serve one connection: coffee per coin, with the marker; `hang_up_after` coins then close.
fn serve(stream: TcpStream, hang_up_after: Option<usize>) {
    let mut w = stream.try_clone().unwrap();
    let _ = w.write_all(b"#quiet\n");
    let mut coins = 0;
    for line in BufReader::new(stream).lines() {
        let Ok(line) = line else { return };
        if line == "coin" {
            coins += 1;
            if Some(coins) == hang_up_after {
                return;
            }
            if w.write_all(b"coffee\n").is_err() {
                return;
            }
        }
        if w.write_all(b"#quiet\n").is_err() {
            return;
        }
    }
}

fn opts(runs: usize) -> OnlineOptions {
    OnlineOptions {
        runs,
        depth: 12,
        seed: 4,
        // the server always sends the marker, which ends the wait early
        quiescence_timeout: Duration::from_millis(2000),
        ..OnlineOptions::default()
    }
}

#[test]
fn client_mode_reconnects_per_run() {
    let spec = spec();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let runs = 5;
    // Accept with a deadline, so that a failing test cannot leave this thread blocked.
    listener.set_nonblocking(true).unwrap();
    let server = std::thread::spawn(move || {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        let mut served = 0;
        while served < runs && std::time::Instant::now() < deadline {
            match listener.accept() {
                Ok((s, _)) => {
                    s.set_nonblocking(false).unwrap();
                    serve(s, None);
                    served += 1;
                }
                Err(_) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
    });
    let mut cfg = TcpConfig::new(TcpMode::Connect(addr.to_string()));
    cfg.wire.marker = Some("#quiet".into());
    let mut a = TcpAdapter::new(spec.alphabet(), cfg).unwrap();
    let s = run_online_with(&spec, &opts(runs), &mut a).unwrap();
    assert_eq!(s.verdict, RunVerdict::Pass, "{s:#?}");
    assert_eq!(s.runs.len(), runs);
    drop(a);
    server.join().unwrap();
}

#[test]
fn server_mode_and_a_hang_up() {
    let spec = spec();
    let mut cfg = TcpConfig::new(TcpMode::Listen("127.0.0.1:0".into()));
    cfg.wire.marker = Some("#quiet".into());
    let mut a = TcpAdapter::new(spec.alphabet(), cfg).unwrap();
    let addr = a.local_addr().unwrap();
    // The SUT connects (again after each reset) and hangs up at the second coin.
    let sut = std::thread::spawn(move || {
        for _ in 0..3 {
            match TcpStream::connect(addr) {
                Ok(s) => serve(s, Some(2)),
                Err(_) => return,
            }
        }
    });
    let o = OnlineOptions {
        strategy: ioco_gen::StrategySpec::Weighted(vec![("coin?".into(), 5.0)]),
        ..opts(3)
    };
    let s = run_online_with(&spec, &o, &mut a).unwrap();
    let r = s.first_failure().expect("the hang-up is caught");
    let f = r.failure.as_ref().unwrap();
    assert!(f.reason.contains("closed the connection"), "{}", f.reason);
    assert_eq!(f.observed, "exit");
    drop(a);
    sut.join().unwrap();
}

#[test]
fn nobody_listening_is_a_start_error() {
    let spec = spec();
    // Bind then drop to get a port that is (very likely) closed.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut cfg = TcpConfig::new(TcpMode::Connect(format!("127.0.0.1:{port}")));
    cfg.connect_timeout = Duration::from_millis(200);
    let mut a = TcpAdapter::new(spec.alphabet(), cfg).unwrap();
    let s = run_online_with(
        &spec,
        &OnlineOptions {
            runs: 1,
            retries: 0,
            ..opts(1)
        },
        &mut a,
    )
    .unwrap();
    assert_eq!(s.verdict, RunVerdict::Error);
    assert!(s.runs[0].error.as_ref().unwrap().contains("cannot connect"));
}
