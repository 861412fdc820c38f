//! One-shot servers (issue #20 item 4): many real SUTs serve one connection and exit (all of
//! TorXakis's examples do). `--sut CMD --tcp HOST:PORT` starts the server for each run, waits
//! until its port accepts, and connects; `{port}` gives each start a free port, so `--jobs N`
//! works. Before, `--tcp` only reconnected, and run 2 met a dead server: a false δ.

mod common;
use common::{ioco, write};
use predicates::str::contains;
use std::time::Duration;

/// An echo of digits over TCP that serves one connection, then exits.
const ONE_SHOT_ECHO: &str = r#"import socket, sys
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", int(sys.argv[1])))
srv.listen(1)
conn, _ = srv.accept()
f = conn.makefile("rw")
for line in f:
    w = line.split()
    if len(w) == 2 and w[0] == "In":
        f.write("Out %s\n" % w[1])
        f.flush()
"#;

#[test]
fn a_server_that_serves_one_connection_is_started_for_each_run() {
    let dir = tempfile::tempdir().unwrap();
    let py = write(dir.path(), "echo_server.py", ONE_SHOT_ECHO);
    let sut = format!("python3 {} {{port}}", py.display());
    for engine in ["explicit", "symbolic"] {
        ioco()
            .args(["test", "examples/torxakis/echo.ioco", "--engine", engine])
            .args(["--sut", &sut, "--tcp", "127.0.0.1:{port}"])
            .args(["--runs", "4", "--steps", "6", "--seed", "2", "--jobs", "2"])
            .args(["--timeout", "500"])
            .timeout(Duration::from_secs(600))
            .assert()
            .code(0)
            .stdout(contains("server started per run"));
    }
}

#[test]
fn a_fixed_port_is_refused_with_parallel_workers() {
    ioco()
        .args(["test", "examples/torxakis/echo.ioco"])
        .args(["--sut", "python3 server.py", "--tcp", "127.0.0.1:7301"])
        .args(["--runs", "4", "--jobs", "2"])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(2)
        .stderr(contains("same port"))
        .stderr(contains("{port}"));
}

#[test]
fn a_server_that_exits_or_never_listens_is_an_error_that_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let dies = write(
        dir.path(),
        "dies.py",
        "import sys\nprint('cannot open config file', file=sys.stderr)\nsys.exit(3)\n",
    );
    ioco()
        .args(["test", "examples/torxakis/echo.ioco", "--runs", "1"])
        .args(["--sut", &format!("python3 {}", dies.display())])
        .args(["--tcp", "127.0.0.1:{port}"])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(2)
        .stdout(contains("exited with status 3"))
        .stdout(contains("cannot open config file"));
    let mute = write(
        dir.path(),
        "mute.py",
        "import time\nprint('starting', flush=True)\ntime.sleep(60)\n",
    );
    ioco()
        .args(["test", "examples/torxakis/echo.ioco", "--runs", "1"])
        .args(["--sut", &format!("python3 {}", mute.display())])
        .args(["--tcp", "127.0.0.1:{port}", "--startup-timeout", "2s"])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(2)
        .stdout(contains("did not accept a connection"))
        .stdout(contains("--startup-timeout"))
        .stdout(contains("starting"));
}
