//! Misbehaving systems under test, from the binary: each case ends in its verdict or a clear
//! error, in bounded time, and leaves no process behind (Linux: no process carries the mark of
//! one of this `ioco`'s SUTs once it has exited). The library-level cases (crash, exit rules,
//! hang, garbage, flood, start errors) are in `ioco-exec/tests/process.rs`.

#![cfg(target_os = "linux")]

mod common;

use common::{marked_by, root};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `ioco test examples/coffee/coffee.ioco` against `sut` with `extra` arguments:
/// (exit code, stderr + stdout, wall time). Asserts that no marked process is left.
fn test(sut: &str, extra: &[&str]) -> (i32, String, Duration) {
    let t = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_ioco"))
        .args(["test", "examples/coffee/coffee.ioco", "--sut", sut])
        .args(["--seed", "5"])
        .args(extra)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let out = child.wait_with_output().unwrap();
    let took = t.elapsed();
    let text =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let left = marked_by(pid);
        if left.is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "processes left: {left:?}\n{text}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    (out.status.code().unwrap_or(-1), text, took)
}

/// A bound no case may exceed on a loaded machine (the cases themselves take ~1 s).
const BOUND: Duration = Duration::from_secs(60);

#[test]
fn a_line_of_ten_megabytes_is_an_error_not_a_memory_sink() {
    let sut = "python3 -c 'import sys\nsys.stdin.readline()\nsys.stdout.write(\"x\" * 10_000_000 + \"\\n\")\nsys.stdout.flush()\nsys.stdin.read()'";
    let (code, text, took) = test(sut, &["--runs", "1", "--steps", "5", "--timeout", "500"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("line"), "{text}");
    assert!(
        text.len() < 20_000,
        "the line is not echoed: {} bytes",
        text.len()
    );
    assert!(took < BOUND);
}

#[test]
fn a_partial_line_then_silence_ends_in_a_verdict() {
    // Prints `coff` without a line break after the first input, then waits forever.
    let sut = "python3 -c 'import sys,time\nsys.stdin.readline()\nsys.stdout.write(\"coff\")\nsys.stdout.flush()\ntime.sleep(600)'";
    let (code, text, took) = test(sut, &["--runs", "1", "--steps", "5", "--timeout", "500"]);
    assert!(matches!(code, 1 | 2), "{code}: {text}");
    assert!(took < BOUND);
}

#[test]
fn a_sut_that_closes_its_standard_output_is_judged() {
    // Closes stdout at once but keeps reading: the tester sees the end of its output.
    let sut = "sh -c 'exec >&-; while IFS= read -r l; do :; done'";
    let (code, text, took) = test(sut, &["--runs", "2", "--steps", "5", "--timeout", "500"]);
    assert!(matches!(code, 1 | 2), "{code}: {text}");
    assert!(
        text.contains("standard output") || text.contains("exited"),
        "{text}"
    );
    assert!(took < BOUND);
}

#[test]
fn a_sut_that_closes_its_standard_input_is_said_to_have_closed_its_input() {
    // Closes stdin at once and keeps running with its stdout open: the first input cannot be
    // written, a Fail (it stops accepting inputs: input-enabledness), and the reason names the
    // stream that was closed (#35: it was called its output). 20 steps: should the shell
    // still be starting when the first input is written (a loaded machine), a later input
    // meets the closed pipe.
    let sut = "sh -c 'exec <&-; sleep 600'";
    let (code, text, took) = test(
        sut,
        &[
            "--runs",
            "1",
            "--steps",
            "20",
            "--timeout",
            "300",
            "--quiescence",
            "timeout",
        ],
    );
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("closed its standard input"), "{text}");
    assert!(text.contains("input-enabledness"), "{text}");
    assert!(!text.contains("closed its standard output"), "{text}");
    assert!(took < BOUND);
}

#[test]
fn a_sut_that_ignores_sigterm_is_still_stopped() {
    // Traps SIGTERM and SIGHUP, answers like a correct machine: the run passes, and every
    // restart kills it (SIGKILL cannot be trapped).
    let sut = "sh -c 'trap \"\" TERM HUP INT; s=0; while IFS= read -r l; do case \"$s:$l\" in \
               0:water) s=1;; 1:pad) s=2;; 2:button) s=0; echo coffee;; \
               0:button|1:button) s=0; echo error;; esac; done'";
    let (code, text, took) = test(sut, &["--runs", "3", "--steps", "6", "--timeout", "400"]);
    assert_eq!(code, 0, "{text}");
    assert!(took < BOUND);
}

#[test]
fn a_tcp_server_that_accepts_and_closes_is_an_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let server = std::thread::spawn(move || {
        // Accept a few connections and close each at once.
        listener.set_nonblocking(false).unwrap();
        for _ in 0..3 {
            if let Ok((s, _)) = listener.accept() {
                drop(s);
            }
        }
    });
    let t = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_ioco"))
        .args(["test", "examples/coffee/coffee.ioco", "--tcp", &addr])
        .args([
            "--runs",
            "1",
            "--steps",
            "5",
            "--timeout",
            "500",
            "--seed",
            "1",
        ])
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(matches!(out.status.code(), Some(1 | 2)), "{text}");
    assert!(t.elapsed() < BOUND);
    // Unblock the server thread if ioco connected fewer than three times.
    for _ in 0..3 {
        let _ = std::net::TcpStream::connect(&addr);
    }
    server.join().unwrap();
}

#[test]
fn a_command_that_cannot_start_is_an_error_not_a_fail() {
    // Exit 127 before any output: the program never ran (issue: verdicts at the edges, 6).
    // Inputs written before its exit is seen must not turn that into a Fail.
    for model in [
        "examples/coffee/coffee.ioco",
        "examples/coffee/coffee-sts.ioco",
    ] {
        for _ in 0..3 {
            let out = Command::new(env!("CARGO_BIN_EXE_ioco"))
                .args(["test", model, "--sut", "sh -c 'no-such-command-here'"])
                .args(["--runs", "3", "--seed", "1"])
                .current_dir(root())
                .stdin(Stdio::null())
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{model}: {text}");
            assert!(text.contains("could not be started"), "{model}: {text}");
        }
    }
}
