//! The example programs by hand: what they print for given input lines, their options, and
//! their errors (the equivalent of `printf 'water\npad\nbutton\n' | coffee-sut --ack`).

use std::io::Write;
use std::process::{Command, Output, Stdio};

const COFFEE: &str = env!("CARGO_BIN_EXE_coffee-sut");
const QUEUE: &str = env!("CARGO_BIN_EXE_queue-sut");

fn run(bin: &str, args: &[&str], env: &[(&str, &str)], input: &str) -> Output {
    let mut cmd = Command::new(bin);
    cmd.args(args)
        .env_remove("IOCO_ACK")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn coffee_answers_line_by_line_with_acknowledgements() {
    let o = run(COFFEE, &["--ack"], &[], "water\npad\nbutton\nfoo\nbutton\n");
    assert!(o.status.success());
    assert_eq!(
        stdout(&o),
        "#quiet\n#quiet\n#quiet\ncoffee\n#quiet\n#quiet\nerror\n#quiet\n"
    );
    // IOCO_ACK=1 is the same as --ack; without either there are no markers.
    let e = run(COFFEE, &[], &[("IOCO_ACK", "1")], "water\npad\nbutton\n");
    assert_eq!(stdout(&e), "#quiet\n#quiet\n#quiet\ncoffee\n#quiet\n");
    let p = run(
        COFFEE,
        &[],
        &[],
        "water\npad\nbutton\nbutton\n\r\nwater\r\n",
    );
    assert_eq!(stdout(&p), "coffee\nerror\n");
}

#[test]
fn every_third_cup_is_an_error_and_reset_restarts() {
    let brew = "water\npad\nbutton\n";
    let o = run(COFFEE, &[], &[], &brew.repeat(4));
    assert_eq!(stdout(&o), "coffee\ncoffee\nerror\ncoffee\n");
    let o = run(
        COFFEE,
        &["--mode", "spontaneous"],
        &[],
        "water\n#reset\npad\n",
    );
    assert_eq!(stdout(&o), "coffee\ncoffee\n");
}

#[test]
fn faulty_modes_by_name_and_number() {
    let o = run(COFFEE, &["--bug", "1"], &[], "button\n");
    assert_eq!(stdout(&o), "coffee\n");
    let o = run(
        COFFEE,
        &["--mode", "refuse-pad"],
        &[],
        "water\npad\nbutton\n",
    );
    assert_eq!(stdout(&o), "error\nerror\n");
    let o = run(COFFEE, &["--mode", "garbage"], &[], "water\npad\nbutton\n");
    assert_eq!(stdout(&o), "Here is your coffee :-)\n");
    let o = run(
        COFFEE,
        &["--mode", "crash"],
        &[],
        "water\npad\nbutton\nwater\n",
    );
    assert_eq!(o.status.code(), Some(101));
    assert!(String::from_utf8_lossy(&o.stderr).contains("boiler exploded"));
}

#[test]
fn flood_stops_when_the_reader_goes_away() {
    let mut child = Command::new(COFFEE)
        .args(["--mode", "flood"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"water\npad\nbutton\n")
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut buf = [0u8; 4096];
    let n = std::io::Read::read(&mut out, &mut buf).unwrap();
    assert!(buf[..n].starts_with(b"coffee\n"));
    drop(out); // the pipe closes: the program ends quietly
    let st = child.wait().unwrap();
    assert!(st.success(), "{st}");
}

#[test]
fn bad_options_are_errors_with_status_2_and_help_lists_the_modes() {
    let o = run(COFFEE, &["--mode", "decaf"], &[], "");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("possible values") && err.contains("wrong-output"),
        "{err}"
    );
    let o = run(COFFEE, &["--bug", "10"], &[], "");
    assert_eq!(o.status.code(), Some(2));
    let o = run(COFFEE, &["--bug", "2", "--mode", "tea"], &[], "");
    assert_eq!(o.status.code(), Some(2));
    let help = stdout(&run(COFFEE, &["--help"], &[], ""));
    for m in ioco_examples::CoffeeMode::ALL {
        assert!(
            help.contains(&format!("- {}:", m.name())),
            "{m:?} missing in\n{help}"
        );
    }
    let help = stdout(&run(QUEUE, &["--help"], &[], ""));
    for m in ioco_examples::QueueMode::ALL {
        assert!(
            help.contains(&format!("- {}:", m.name())),
            "{m:?} missing in\n{help}"
        );
    }
}

#[test]
fn queue_is_fifo_bounded_and_answers_empty_and_full() {
    let o = run(QUEUE, &[], &[], "enq_0\nenq_1\nenq_1\ndeq\ndeq\ndeq\n");
    assert_eq!(stdout(&o), "full\nout_0\nout_1\nempty\n");
    let o = run(
        QUEUE,
        &["--mode", "lifo", "--ack"],
        &[],
        "enq_0\nenq_1\ndeq\n",
    );
    assert_eq!(stdout(&o), "#quiet\n#quiet\n#quiet\nout_1\n#quiet\n");
    let o = run(QUEUE, &["--bug", "6"], &[], "enq_0\ndeq\ndeq\n");
    assert_eq!(stdout(&o), "out_0\n");
    assert_eq!(o.status.code(), Some(101));
}

#[test]
fn python_machine_speaks_the_same_wire_format() {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/coffee/coffee_sut.py"
    );
    let Ok(o) = Command::new("python3").arg("--version").output() else {
        eprintln!("note: python3 is not available; the Python SUT is not tested");
        return;
    };
    assert!(o.status.success());
    let input = "water\npad\nbutton\nfoo\nbutton\n";
    let rust = run(COFFEE, &["--ack"], &[], input);
    let py = run("python3", &[script, "--ack"], &[], input);
    assert_eq!(stdout(&py), stdout(&rust));
    for mode in [
        "spontaneous",
        "wrong-output",
        "refuse-pad",
        "garbage",
        "silent",
        "tea",
    ] {
        let input = "button\nwater\npad\nbutton\nwater\npad\nbutton\n#reset\nbutton\n";
        let rust = run(COFFEE, &["--ack", "--mode", mode], &[], input);
        let py = run("python3", &[script, "--ack", "--mode", mode], &[], input);
        assert_eq!(stdout(&py), stdout(&rust), "mode {mode}");
    }
    let py = run(
        "python3",
        &[script, "--bug", "6"],
        &[],
        "water\npad\nbutton\n",
    );
    assert_eq!(py.status.code(), Some(1));
    let py = run("python3", &[script, "--mode", "decaf"], &[], "");
    assert_eq!(py.status.code(), Some(2));
}

/// `control-loop-sut` prints on its own, the lines its machine chooses with the seed (so a
/// test of the machine is a test of the program); `#reset` restarts it; it ends when its input
/// closes, also when it is silent.
#[test]
fn control_loop_prints_on_its_own_resets_and_ends_with_its_input() {
    use ioco_examples::control_loop::{Bounds, ControlLoop, ControlLoopMode, Rng};
    use std::io::BufRead;
    let spawn = |mode: &str| {
        Command::new(env!("CARGO_BIN_EXE_control-loop-sut"))
            .args([
                "--bounded",
                "--seed",
                "4",
                "--pause-ms",
                "1",
                "--mode",
                mode,
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let expected = |mode: ControlLoopMode, n: usize| -> Vec<String> {
        let mut m = ControlLoop::new(mode, Bounds::BOUNDED);
        let mut rng = Rng::new(4);
        (0..n)
            .flat_map(|_| m.step(&mut rng))
            .map(|a| a.line())
            .collect()
    };
    let ends = |mut child: std::process::Child| {
        drop(child.stdin.take());
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            if let Some(st) = child.try_wait().unwrap() {
                assert!(st.success(), "{st:?}");
                return;
            }
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                panic!("control-loop-sut did not end with its input");
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    };
    // the correct mode: 30 lines as the machine says, then it ends with its input
    let mut child = spawn("correct");
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let want = expected(ControlLoopMode::Correct, 30);
    let got: Vec<String> = (&mut out)
        .lines()
        .take(want.len())
        .map(Result::unwrap)
        .collect();
    assert_eq!(got, want);
    assert!(got.iter().any(|l| l.contains(" | ")), "{got:?}");
    ends(child);
    // no-correction falls silent; a reset starts it again
    let mut child = spawn("no-correction");
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let want = expected(ControlLoopMode::NoCorrection, 100);
    assert!(want.len() < 10, "{want:?}");
    let got: Vec<String> = (&mut out)
        .lines()
        .take(want.len())
        .map(Result::unwrap)
        .collect();
    assert_eq!(got, want);
    writeln!(child.stdin.as_mut().unwrap(), "#reset").unwrap();
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert!(line.starts_with("In_Material "), "{line}");
    ends(child);
}

/// The two BRP senders share their options (`ioco_examples::data::MutantArgs`) after their own
/// `--mutant`: the list of mutants, the range of `--mutant`, `--ack`, `--json-lines`.
#[test]
fn the_brp_senders_list_their_mutants_and_speak_plain_or_json_lines() {
    const BRP: &str = env!("CARGO_BIN_EXE_brp-sut");
    const SENDER: &str = env!("CARGO_BIN_EXE_brp-sender-sut");
    for (bin, mutants, req) in [
        (BRP, &ioco_examples::brp::MUTANTS[..], "req 2\n"),
        (
            SENDER,
            &ioco_examples::brp_sender::MUTANTS[..],
            "IREQ 0 1 1\n",
        ),
    ] {
        let listed = stdout(&run(bin, &["--list"], &[], ""));
        let want: String = mutants
            .iter()
            .enumerate()
            .map(|(i, m)| format!("{i}: {m}\n"))
            .collect();
        assert_eq!(listed, want);
        // --mutant takes 0 (correct) up to the last mutant, no further
        let last = (mutants.len() - 1).to_string();
        let beyond = mutants.len().to_string();
        assert!(run(bin, &["--mutant", &last], &[], "").status.success());
        let o = run(bin, &["--mutant", &beyond], &[], "");
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("--mutant"));
        let help = stdout(&run(bin, &["--help"], &[], ""));
        for opt in [
            "--mutant",
            "--ack",
            "--listen",
            "--connect",
            "--json-lines",
            "--list",
        ] {
            assert!(help.contains(opt), "{opt} missing in\n{help}");
        }
        // a request gives the first frame, after the marker with --ack
        let o = stdout(&run(bin, &["--ack"], &[], req));
        assert!(o.starts_with("#quiet\n"), "{o}");
        assert_eq!(o.lines().filter(|l| *l != "#quiet").count(), 1, "{o}");
    }
    let o = stdout(&run(BRP, &[], &[], "req 2\n"));
    assert_eq!(o, "frame 1 false\n");
    let o = stdout(&run(
        BRP,
        &["--json-lines"],
        &[],
        "{\"label\":\"req\",\"args\":[2]}\n",
    ));
    assert_eq!(o, "{\"args\":[1,false],\"label\":\"frame\"}\n");
}
