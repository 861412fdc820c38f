//! The papercuts of issue #32 (item 3), one test each: what a new user hit in a first hour.

mod common;

use common::ioco;

/// Standard output and error of a finished `ioco` run, with its exit code.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = ioco().args(args).output().expect("ioco runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Papercut 1: the docs say `--sut`; the errors and `--help` say so too (`--cmd` still works).
#[test]
fn the_sut_option_is_named_sut_everywhere() {
    let (code, _, err) = run(&["test", "examples/coffee/coffee.ioco"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("give --sut, --tcp, --listen or --sim"), "{err}");
    assert!(!err.contains("--cmd"), "{err}");
    let (code, help, _) = run(&["test", "--help"]);
    assert_eq!(code, Some(0));
    assert!(help.contains("--sut <COMMAND>"), "{help}");
    assert!(!help.contains("--cmd <"), "{help}");
    // the old name is still accepted
    let (code, out, err) = run(&[
        "test",
        "examples/coffee/coffee.ioco",
        "--cmd",
        "/nonexistent/sut",
        "--runs",
        "1",
    ]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(!err.contains("unexpected argument"), "{err}");
}
