//! Slow starts never give false Fails (issue #13 item 6): no input is given before the system
//! is ready — its start-up quiescence marker (waited for up to --startup-timeout, default
//! 30 s), its --ready-line banner, or, in time-out mode on Linux, until /proc shows it blocked
//! reading its input (at most --startup-grace, default 5 s). A marker twice for one reaction is
//! a protocol error (exit 2), not a Fail.

mod common;
use common::{example_bin, ioco};
use predicates::str::contains;
use std::time::Duration;

const COFFEE: &str = "examples/coffee/coffee.ioco";

fn slow(delay: &str, args: &str) -> String {
    format!(
        "sh -c 'sleep {delay}; exec {} {args}'",
        example_bin("coffee-sut")
    )
}

#[test]
fn a_slow_start_in_time_out_mode_is_no_fail() {
    // Before: FAIL `button? δ` with the default time-out (the first input waited in the pipe
    // while the shell slept, so the answer came after the time-out).
    ioco()
        .args([
            "test",
            COFFEE,
            "--sut",
            &slow("1", ""),
            "--runs",
            "2",
            "--seed",
            "1",
        ])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(0);
}

#[test]
fn a_wrapper_waiting_on_a_pipe_of_its_own_is_not_taken_for_the_system() {
    // A wrapper script (a pyenv shim does this) that waits on a command substitution is asleep
    // reading a pipe, but not the system's input: the first input must wait for the system.
    // Before: the input went out while the shell waited, and the answer came after the
    // time-out (FAIL `button? δ` and the like).
    let sut = format!(
        "sh -c 'x=$(sleep 3; echo ready); exec {}'",
        example_bin("coffee-sut")
    );
    ioco()
        .args(["test", COFFEE, "--sut", &sut])
        .args(["--runs", "2", "--steps", "8", "--seed", "2"])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(0);
}

#[test]
fn a_slow_start_with_a_marker_waits_for_the_start_up_marker() {
    // Before: FAIL, the owed start-up marker was read as δ after the first input.
    ioco()
        .args(["test", COFFEE, "--sut", &slow("2", "--ack")])
        .args([
            "--quiescence-marker",
            "#quiet",
            "--runs",
            "2",
            "--seed",
            "1",
        ])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(0);
    // ... and says so when the marker does not come in time
    ioco()
        .args(["test", COFFEE, "--sut", &slow("5", "--ack")])
        .args([
            "--quiescence-marker",
            "#quiet",
            "--runs",
            "1",
            "--startup-timeout",
            "1s",
        ])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(2)
        .stdout(contains("not ready after 1 s"));
}

#[test]
fn a_banner_before_the_ready_line_is_not_an_output() {
    let sut = format!(
        "sh -c 'echo booting; sleep 1; echo \"ready to serve\"; exec {}'",
        example_bin("coffee-sut")
    );
    ioco()
        .args([
            "test",
            COFFEE,
            "--sut",
            &sut,
            "--ready-line",
            "ready to serve",
        ])
        .args(["--runs", "2", "--seed", "1"])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(0);
    // without it, `booting` is a line that is no output of the model
    ioco()
        .args(["test", COFFEE, "--sut", &sut, "--runs", "1", "--seed", "1"])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(1)
        .stdout(contains("booting"));
}

#[test]
fn two_markers_for_one_reaction_are_a_protocol_error() {
    // answers like the machine (error after a button is always allowed), with a marker too many
    let sut = r##"sh -c 'echo "#quiet"; while read l; do [ "$l" = button ] && echo error; printf "#quiet\n#quiet\n"; done'"##;
    ioco()
        .args([
            "test",
            COFFEE,
            "--sut",
            sut,
            "--quiescence-marker",
            "#quiet",
        ])
        .args(["--runs", "1", "--seed", "1", "--strategy", "uniform"])
        .timeout(Duration::from_secs(120))
        .assert()
        .code(2)
        .stdout(contains("marker came twice"));
}
