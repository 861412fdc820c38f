//! Stress harness of the TCP connection probe ([`ProcessProbe::tcp`], issue #30): a server
//! that holds its answers in its send queue (`TCP_CORK`: the kernel sends a corked partial
//! segment after about 0.2 s, with the server's thread already back reading) is asked
//! `In k` many times; after every input the probe is asked, as `LineIo` asks it, whether the
//! server is quiescent until the answer is read. A "quiet" before the answer is a false δ:
//! the harness prints what the probe saw then (its trace) and counts it.
//!
//! `IOCO_STRESS_RUNS=300 cargo test -p ioco-sut --test tcp_probe_stress -- --ignored
//! --nocapture` runs the long version (runs × 3 exchanges, a new server per run).

#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

use ioco_sut::quiescence::ProcessProbe;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::os::unix::io::AsRawFd;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A one-shot Python server on `port` answering `Out x` to `In x`, corked.
fn server(port: u16) -> Child {
    let code = format!(
        "import socket\n\
         srv = socket.socket()\n\
         srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n\
         srv.bind(('127.0.0.1', {port}))\n\
         srv.listen(1)\n\
         conn, _ = srv.accept()\n\
         f = conn.makefile('rw')\n\
         for line in f:\n    \
             w = line.split()\n    \
             if len(w) == 2 and w[0] == 'In':\n        \
                 conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 1); \
                 f.write('Out %s\\n' % w[1]); f.flush()\n"
    );
    Command::new("python3")
        .args(["-c", &code])
        .stdin(Stdio::null())
        .spawn()
        .expect("python3")
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn pending(fd: i32) -> i32 {
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int through a valid pointer.
    unsafe { libc::ioctl(fd, libc::FIONREAD, &mut n) };
    n
}

/// Whether our end of the connection (local port `ours`) is listed before the server's end
/// in `/proc/net/tcp` (the kernel lists its hash table in bucket order); `None` if either is
/// not found.
fn ours_listed_first(ours: u16, theirs: u16) -> Option<bool> {
    let text = std::fs::read_to_string("/proc/net/tcp").ok()?;
    let at = |local: u16, remote: u16| {
        text.lines().position(|l| {
            let f: Vec<&str> = l.split_ascii_whitespace().collect();
            f.len() > 2
                && f[1].ends_with(&format!(":{local:04X}"))
                && f[2].ends_with(&format!(":{remote:04X}"))
        })
    };
    Some(at(ours, theirs)? < at(theirs, ours)?)
}

/// One run: a new server, `exchanges` inputs; the number of false δ (quiet before the
/// answer), each printed with the probe's trace, and whether our end of the connection is
/// listed before the server's in `/proc/net/tcp`.
fn run(exchanges: usize, log: &mut Vec<String>) -> (usize, Option<bool>) {
    let port = free_port();
    let mut child = server(port);
    let deadline = Instant::now() + Duration::from_secs(20);
    let stream = loop {
        if let Ok(s) = TcpStream::connect(("127.0.0.1", port)) {
            break s;
        }
        assert!(Instant::now() < deadline, "the server did not start");
        std::thread::sleep(Duration::from_millis(5));
    };
    stream.set_nodelay(true).unwrap();
    let fd = stream.as_raw_fd();
    let mut probe = ProcessProbe::tcp(child.id(), fd).expect("a probe");
    let order = ours_listed_first(stream.local_addr().unwrap().port(), port);
    probe.trace(true);
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut w = stream;
    let mut false_quiet = 0;
    for k in 0..exchanges {
        // quiet before the input (as the tester waits for δ where only δ is allowed)
        let end = Instant::now() + Duration::from_secs(20);
        while !probe.quiet() {
            assert!(Instant::now() < end, "never quiet before input {k}");
            std::thread::sleep(Duration::from_millis(1));
        }
        let sent = Instant::now();
        w.write_all(format!("In {k}\n").as_bytes()).unwrap();
        let mut slice = Duration::from_micros(20);
        let mut asked = 0;
        loop {
            if pending(fd) > 0 {
                break;
            }
            asked += 1;
            if probe.quiet() {
                false_quiet += 1;
                let at = sent.elapsed();
                let trace = probe.last_trace().to_string();
                let now = std::fs::read_to_string("/proc/net/tcp").unwrap_or_default();
                log.push(format!(
                    "FALSE QUIET at {at:?} after input {k} (probe asked {asked} times); \
                     FIONREAD now {}\n--- probe saw:\n{trace}--- /proc/net/tcp now:\n{now}",
                    pending(fd)
                ));
                eprintln!("{}", log.last().unwrap());
                break;
            }
            std::thread::sleep(slice);
            slice = (slice * 2).min(Duration::from_millis(5));
            assert!(sent.elapsed() < Duration::from_secs(20), "no answer");
        }
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert_eq!(line, format!("Out {k}\n"));
    }
    let _ = child.kill();
    let _ = child.wait();
    (false_quiet, order)
}

/// The long version (see the module documentation); prints each false δ with what the
/// probe saw.
#[test]
#[ignore]
fn stress_the_probe_with_a_held_answer() {
    let runs: usize = std::env::var("IOCO_STRESS_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300);
    let mut log = Vec::new();
    let mut false_quiet = 0;
    // runs and false δ by the order of the two ends in the table: ours first, theirs first
    let mut by_order = [[0usize; 2]; 2];
    for r in 0..runs {
        let (n, order) = run(3, &mut log);
        if n > 0 {
            eprintln!("run {r}: {n} false quiet, our end listed first: {order:?}");
        }
        if let Some(first) = order {
            let o = usize::from(!first);
            by_order[o][0] += 1;
            by_order[o][1] += n;
        }
        false_quiet += n;
    }
    eprintln!(
        "{runs} runs x 3 exchanges: {false_quiet} false quiet; our end listed first: {} runs, \
         {} false quiet; the server's end first: {} runs, {} false quiet",
        by_order[0][0], by_order[0][1], by_order[1][0], by_order[1][1]
    );
    assert_eq!(false_quiet, 0, "{}", log.join("\n"));
}
