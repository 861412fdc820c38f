//! A reader that goes away (`ioco show … | head`, `ioco test … 2>&1 | head -2`) closes ioco's
//! standard output or error: the rest of the text is dropped, never a panic (exit code 101),
//! and the exit code still tells the verdict.

mod common;

use common::root;
use std::process::{Command, Stdio};

/// Run ioco with both output pipes closed by the reader at once, before ioco writes (or, if it
/// is faster, after a first write into the pipe buffer: the exit code is the same either way).
fn with_closed_pipes(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ioco"))
        .args(args)
        .current_dir(root())
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ioco starts");
    drop(child.stdout.take());
    drop(child.stderr.take());
    let status = child.wait().expect("ioco ends");
    (status.code(), format!("{status:?}"))
}

#[test]
fn a_long_output_into_a_closed_pipe_still_exits_zero() {
    // 100 KiB of DOT: more than a pipe buffer holds, so a write surely fails.
    let Some(model) = common::corpus_file("mealy-aalpy/TCP/tcp_server_bsd_trans.dot") else {
        return;
    };
    let (code, status) = with_closed_pipes(&["show", &model, "--suspension"]);
    assert_eq!(code, Some(0), "{status}");
}

#[test]
fn verdicts_survive_a_closed_pipe() {
    // a failing test run: the report cannot be written, the exit code is still 1
    let (code, status) = with_closed_pipes(&[
        "test",
        "examples/coffee/coffee.ioco",
        "--sim",
        "examples/models/coffee-bug.aut",
        "--runs",
        "200",
        "--keep-going",
        "--seed",
        "1",
    ]);
    assert_eq!(code, Some(1), "{status}");
    // an error (the SUT cannot be started): the message cannot be written, the code is 2
    let (code, status) = with_closed_pipes(&[
        "test",
        "examples/coffee/coffee.ioco",
        "--sut",
        "/nonexistent/sut",
    ]);
    assert_eq!(code, Some(2), "{status}");
}
