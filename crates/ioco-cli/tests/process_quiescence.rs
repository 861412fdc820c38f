//! Quiescence by observing the process (issue #30 item 2): δ as soon as the system provably
//! cannot write without new input, on by default without a marker; whatever cannot be proved
//! falls back to the time-out, never to an early δ. Each case reads from the JSON result how
//! the δ were established (`quiescence`: marker / process / timeout), not how long it took.
//! * single-threaded C (fgets), Python and Rust systems: every δ by the process;
//! * a Python system with a timer thread, and a Java one (a JVM's timed housekeeping threads):
//!   every δ by the time-out, and the verdict is the same (Pass);
//! * a shell script whose worker writes 0.3 s later: the late answer is waited for (Pass);
//! * C with buffered standard output (its answers stay in its own buffer): δ by the process, a
//!   Fail, the same verdict as with whole time-outs;
//! * the late-output system of `late_outputs.rs`: Fail (also there);
//! * one-shot TCP servers that ioco starts (`--sut CMD --tcp 127.0.0.1:{port}`): δ by the
//!   process; answering twice (late, or at once) Fails on every seed; an answer held in the
//!   server's send queue (`TCP_CORK`, sent by a kernel timer with no thread of the server
//!   running) is waited for, 30 runs in a row.

mod common;
use common::{example_bin, ioco};
use std::path::Path;

const SUTS: &str = "crates/ioco-cli/tests/suts";
const COFFEE: &str = "examples/models/coffee.aut";

/// Runs `ioco test` of the coffee model against `sut` with `extra` options; returns the exit
/// code, the total counts of δ by (marker, process, timeout) and the standard output.
fn test(sut: &str, extra: &[&str], dir: &Path) -> (Option<i32>, [u64; 3], String) {
    let (code, n, out, _) = test_traces(sut, extra, dir);
    (code, n, out)
}

/// [`test`], with the traces of the runs too.
fn test_traces(
    sut: &str,
    extra: &[&str],
    dir: &Path,
) -> (Option<i32>, [u64; 3], String, Vec<String>) {
    let json = dir.join("r.json");
    let out = ioco()
        .args(["test", COFFEE, "--sut", sut, "--seed", "5", "--json"])
        .arg(&json)
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&json).unwrap_or_else(|_| panic!("no result: {stdout}")),
    )
    .unwrap();
    let mut n = [0u64; 3];
    let mut traces = Vec::new();
    for r in v["runs"].as_array().unwrap() {
        let t: Vec<&str> = r["trace"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        traces.push(t.join(" "));
        for (k, key) in ["marker", "process", "timeout"].iter().enumerate() {
            n[k] += r["quiescence"][key].as_u64().unwrap_or(0);
        }
    }
    (out.status.code(), n, stdout, traces)
}

/// Every δ by the process, none by the time-out (a long time-out: a fallback would show).
fn all_by_the_process(sut: &str) {
    let dir = tempfile::tempdir().unwrap();
    let (code, n, out) = test(
        sut,
        &["--runs", "3", "--steps", "30", "--timeout", "5000"],
        dir.path(),
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(
        n[1] > 0 && n[2] == 0,
        "δ by (marker, process, timeout) {n:?}\n{out}"
    );
    assert!(out.contains("quiescence: δ established"), "{out}");
}

#[test]
fn a_rust_system_is_quiescent_by_its_process() {
    all_by_the_process(&example_bin("coffee-sut"));
}

#[test]
fn a_python_system_is_quiescent_by_its_process() {
    all_by_the_process(&format!("python3 {SUTS}/coffee_timer.py --no-timer"));
}

/// Compiles `coffee.c` (a C compiler is on every machine this project builds on: Rust needs
/// one to link).
fn c_coffee(dir: &Path) -> String {
    let exe = dir.join("coffee");
    let st = std::process::Command::new("cc")
        .arg(common::root().join(SUTS).join("coffee.c"))
        .arg("-o")
        .arg(&exe)
        .status()
        .expect("cc");
    assert!(st.success());
    exe.display().to_string()
}

#[test]
fn a_c_system_is_quiescent_by_its_process() {
    let dir = tempfile::tempdir().unwrap();
    all_by_the_process(&c_coffee(dir.path()));
}

/// A timer thread (a timed wait) proves nothing: every δ by the time-out, and a Pass.
#[test]
fn a_timer_thread_falls_back_to_the_time_out() {
    let dir = tempfile::tempdir().unwrap();
    let sut = format!("python3 {SUTS}/coffee_timer.py");
    let (code, n, out) = test(
        &sut,
        &["--runs", "1", "--steps", "6", "--timeout", "300"],
        dir.path(),
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(n[1] == 0 && n[2] > 0, "{n:?}\n{out}");
}

/// A worker started in the background answers 0.3 s after `button`: the answer is waited for.
#[test]
fn a_working_child_is_waited_for() {
    let dir = tempfile::tempdir().unwrap();
    let sut = format!("sh {SUTS}/coffee_worker.sh");
    let (code, n, out, traces) = test_traces(
        &sut,
        &["--runs", "20", "--steps", "20", "--timeout", "5000"],
        dir.path(),
    );
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(n[2], 0, "{n:?}\n{out}");
    // the worker answered in some run, and was waited for
    assert!(
        traces.iter().any(|t| t.contains("pad? button? coffee!")),
        "{traces:?}"
    );
}

/// Answers stuck in the system's own buffer: it waits for input with nothing written, which
/// is quiescence; the verdict is the Fail that whole time-outs give too.
#[test]
fn buffered_output_is_quiescence_as_with_time_outs() {
    let dir = tempfile::tempdir().unwrap();
    let sut = format!("{} buffered", c_coffee(dir.path()));
    for how in ["process", "timeout"] {
        let (code, n, out) = test(
            &sut,
            &[
                "--runs",
                "1",
                "--steps",
                "12",
                "--timeout",
                "400",
                "--quiescence",
                how,
            ],
            dir.path(),
        );
        assert_eq!(code, Some(1), "{how}: {out}");
        assert!(out.contains("observed  δ"), "{out}");
        if how == "process" {
            assert!(n[1] > 0 && n[2] == 0, "{n:?}");
        }
    }
}

/// A JVM keeps threads in timed waits: the time-out decides, and the verdict is a Pass.
#[test]
fn a_java_system_falls_back_to_the_time_out() {
    if std::process::Command::new("javac")
        .arg("-version")
        .output()
        .is_err()
    {
        ioco_testkit::skip("no JDK (javac) on this machine");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let st = std::process::Command::new("javac")
        .arg("-d")
        .arg(dir.path())
        .arg(common::root().join(SUTS).join("CoffeeSut.java"))
        .status()
        .unwrap();
    assert!(st.success());
    let sut = format!("java -cp {} CoffeeSut", dir.path().display());
    let (code, n, out) = test(
        &sut,
        &["--runs", "1", "--steps", "6", "--timeout", "1500"],
        dir.path(),
    );
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(n[1], 0, "a JVM proved quiescent: {n:?}\n{out}");
}

/// The options: `--quiescence marker` needs a marker, `process` a program ioco starts.
#[test]
fn quiescence_options_that_cannot_apply_are_refused() {
    let sim = ioco()
        .args(["test", COFFEE, "--sim", COFFEE, "--quiescence", "process"])
        .output()
        .unwrap();
    assert_eq!(sim.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&sim.stderr).contains("--quiescence process"));
    let marker = ioco()
        .args([
            "test",
            COFFEE,
            "--sut",
            &example_bin("coffee-sut"),
            "--quiescence",
            "marker",
        ])
        .output()
        .unwrap();
    assert_eq!(marker.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&marker.stderr).contains("--quiescence-marker"));
}

/// A one-shot TCP server ioco starts per run (`--sut CMD --tcp 127.0.0.1:{port}`), answering
/// `Out x` to `In x` in `answer` (Python code with `f`, the connection's file, and `w`, the
/// words of the line).
fn echo_server(dir: &Path, answer: &str) -> String {
    let py = common::write(
        dir,
        "server.py",
        &format!(
            "import socket, sys, time\n\
             srv = socket.socket()\n\
             srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n\
             srv.bind(('127.0.0.1', int(sys.argv[1])))\n\
             srv.listen(1)\n\
             conn, _ = srv.accept()\n\
             f = conn.makefile('rw')\n\
             for line in f:\n    \
                 w = line.split()\n    \
                 if len(w) == 2 and w[0] == 'In':\n        \
                     {answer}\n"
        ),
    );
    format!("python3 {} {{port}}", py.display())
}

/// `ioco test` of the echo model against a server started per run; the exit code, the δ by
/// (marker, process, timeout) and the standard output.
fn test_tcp(sut: &str, extra: &[&str], dir: &Path) -> (Option<i32>, [u64; 3], String) {
    let json = dir.join("tcp.json");
    let out = ioco()
        .args([
            "test",
            "examples/torxakis/echo.ioco",
            "--entry",
            "EchoDigits",
        ])
        .args(["--sut", sut, "--tcp", "127.0.0.1:{port}", "--json"])
        .arg(&json)
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&json).unwrap_or_else(|_| panic!("no result: {stdout}")),
    )
    .unwrap();
    let mut n = [0u64; 3];
    for r in v["runs"].as_array().unwrap() {
        for (k, key) in ["marker", "process", "timeout"].iter().enumerate() {
            n[k] += r["quiescence"][key].as_u64().unwrap_or(0);
        }
    }
    (out.status.code(), n, stdout)
}

/// A one-shot TCP server that ioco starts is observed as a process on pipes is: its thread
/// asleep reading our connection, both ends' queues empty (`/proc/net/tcp`): δ by the process
/// (the time-out may still decide a δ the probe could not prove on a loaded machine), by
/// default and with `--quiescence process`; `--quiescence timeout` uses only the time-out.
#[test]
fn a_one_shot_tcp_server_is_quiescent_by_its_process() {
    let dir = tempfile::tempdir().unwrap();
    let sut = echo_server(dir.path(), "f.write('Out %s\\n' % w[1]); f.flush()");
    for (quiescence, by_process) in [("auto", true), ("process", true), ("timeout", false)] {
        let (code, n, out) = test_tcp(
            &sut,
            &[
                "--runs",
                "2",
                "--steps",
                "10",
                "--seed",
                "4",
                "--timeout",
                "2000",
                "--quiescence",
                quiescence,
            ],
            dir.path(),
        );
        assert_eq!(code, Some(0), "{quiescence}: {out}");
        if by_process {
            assert!(n[1] > 0, "{quiescence}: {n:?}\n{out}");
        } else {
            assert!(n[1] == 0 && n[2] > 0, "{quiescence}: {n:?}\n{out}");
        }
    }
}

/// A TCP server that answers every input twice is caught on every seed, with process
/// quiescence (the default): a second answer 0.3 s later (its thread sleeps: a timed wait, no
/// proof), and a second answer written at once in a second write.
#[test]
fn a_tcp_server_answering_twice_fails() {
    let dir = tempfile::tempdir().unwrap();
    for answer in [
        "f.write('Out %s\\n' % w[1]); f.flush(); time.sleep(0.3); f.write('Out %s\\n' % w[1]); f.flush()",
        "f.write('Out %s\\n' % w[1]); f.flush(); f.write('Out %s\\n' % w[1]); f.flush()",
    ] {
        let sut = echo_server(dir.path(), answer);
        for seed in ["1", "2", "3"] {
            let (code, _, out) = test_tcp(
                &sut,
                &["--runs", "1", "--steps", "10", "--seed", seed, "--timeout", "2000"],
                dir.path(),
            );
            assert_eq!(code, Some(1), "seed {seed}, `{answer}`:\n{out}");
        }
    }
}

/// A server whose answers wait in its own send queue (`TCP_CORK`: the kernel sends a corked
/// partial segment after 0.2 s, with the server's thread already back reading): no thread of
/// the system runs, yet an output is on its way. It is waited for: 30 runs, each a Pass, and
/// the δ after each answer established by the process. (The probe once read both ends' rows
/// of `/proc/net/tcp` in one pass and took the answer, sent by the kernel's timer between
/// the two rows, for δ in about one run in ten: a false Fail. See `ProcessProbe::tcp` and the
/// stress harness `ioco-sut/tests/tcp_probe_stress.rs`.)
#[test]
fn an_answer_held_in_the_servers_send_queue_is_waited_for() {
    let dir = tempfile::tempdir().unwrap();
    let sut = echo_server(
        dir.path(),
        "conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 1); \
         f.write('Out %s\\n' % w[1]); f.flush()",
    );
    let (code, n, out) = test_tcp(
        &sut,
        &[
            "--runs",
            "30",
            "--steps",
            "4",
            "--seed",
            "6",
            "--timeout",
            "1500",
        ],
        dir.path(),
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(n[1] > 0, "{n:?}\n{out}");
}
