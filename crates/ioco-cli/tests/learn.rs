//! `ioco learn` end to end (issue #17): corpus Mealy machines learned through a real child
//! process that plays them (`examples/models/lts_player.py`) come out equivalent to the
//! original; the coffee machine learned with quiescence is a specification that its correct
//! mode passes and every faulty mode fails; budgets, nondeterminism and the formats.

mod common;

use common::{example_bin, ioco, root};
use ioco_model::Mealy;
use predicates::str::contains;
use std::path::Path;

fn mealy(path: &Path) -> Mealy {
    match ioco_formats::load(path).unwrap() {
        ioco_formats::Model::Mealy(m) => m,
        other => panic!("{}: a {}", path.display(), other.kind()),
    }
}

/// Learn `dot` through the player over plain or JSON lines; assert exit 0 and equivalence.
fn learn_through_player(dot: &str, json_lines: bool, dir: &Path) {
    let name = Path::new(dot)
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .to_string();
    let model = dir.join(format!("{name}.json"));
    ioco()
        .args(["show", dot, "--format", "json", "-o"])
        .arg(&model)
        .assert()
        .success();
    let learned = dir.join(format!("{name}-learned.dot"));
    let log = dir.join(format!("{name}.jsonl"));
    let mut sut = format!(
        "python3 examples/models/lts_player.py {} --ack",
        model.display()
    );
    let mut cmd = ioco();
    cmd.args([
        "learn",
        "--inputs-from",
        dot,
        "--quiescence-marker",
        "#quiet",
    ])
    .args([
        "--reset-line",
        "#reset",
        "--seed",
        "1",
        "--timeout",
        "20000",
    ])
    .arg("--json-log")
    .arg(&log)
    .arg("-o")
    .arg(&learned);
    if json_lines {
        sut.push_str(" --json");
        cmd.arg("--json-lines");
    }
    let out = cmd.arg("--sut").arg(&sut).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{dot}: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("LEARNED: "), "{stdout}");
    let original = mealy(&root().join(dot));
    let got = mealy(&learned);
    assert_eq!(
        ioco_learn::compare::difference(&original, &got),
        None,
        "{dot}"
    );
    assert_eq!(
        ioco_learn::compare::difference(&got, &original),
        None,
        "{dot}"
    );
    // the log: a start, hypotheses, the end with the costs
    let log = std::fs::read_to_string(&log).unwrap();
    let events: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(events[0]["event"], "start");
    assert_eq!(events[0]["seed"], 1);
    assert!(events.iter().any(|e| e["event"] == "hypothesis"));
    let done = events.last().unwrap();
    assert_eq!(done["event"], "done");
    assert_eq!(done["verified"], true);
    assert_eq!(done["states"], got.num_states());
    assert!(done["stats"]["symbols"].as_u64().unwrap() > 0);
}

#[test]
fn corpus_machines_learned_through_a_real_process_are_equivalent_to_the_originals() {
    let Some(corpus) = ioco_testkit::corpus() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (dot, json) in [
        ("mealy-aalpy/coffee_mealy.dot", false),
        ("mealy-aalpy/Angluin_Mealy.dot", true),
        ("mealy-aalpy/car_alarm.dot", false),
        ("mealy-aalpy/Bluetooth/CC2650.dot", false),
        ("mealy-aalpy/TLS/JSSE_1.8.0_25_server_regular.dot", false),
        ("mealy-aalpy/TCP/TCP_Linux_Client.dot", true),
        (
            "mealy-aalpy/MQTT/mosquitto__two_client_will_retain.dot",
            false,
        ),
    ] {
        let dot = common::from_root(&corpus.join(dot));
        learn_through_player(&dot, json, dir.path());
    }
}

#[test]
fn a_learned_machine_reads_back_and_its_suite_passes_the_system() {
    let dir = tempfile::tempdir().unwrap();
    let learned = dir.path().join("tcp.dot");
    let Some(dot) = common::corpus_file("mealy-aalpy/TCP/tcp_server_bsd_trans.dot") else {
        return;
    };
    let dot = dot.as_str();
    // in process (--sim): the 55-state TCP server
    ioco()
        .args([
            "learn",
            "--sim",
            dot,
            "--inputs-from",
            dot,
            "--seed",
            "5",
            "-o",
        ])
        .arg(&learned)
        .assert()
        .success()
        .stdout(contains("LEARNED: 55 states"));
    let got = mealy(&learned);
    assert_eq!(
        ioco_learn::compare::difference(&mealy(&root().join(dot)), &got),
        None
    );
    // `ioco gen` reads it back; its suite passes the original
    let suite = dir.path().join("suite.json");
    ioco()
        .args(["gen"])
        .arg(&learned)
        .args(["--method", "hads", "--extra-states", "0", "-o"])
        .arg(&suite)
        .assert()
        .success();
    ioco()
        .arg("run")
        .arg(&learned)
        .arg(&suite)
        .args(["--sim", dot])
        .assert()
        .success();
}

#[test]
fn the_coffee_machine_learned_with_quiescence_is_a_spec_its_faulty_modes_fail() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("coffee.aut");
    let sut = example_bin("coffee-sut");
    ioco()
        .args([
            "learn",
            "--sut",
            &format!("{sut} --ack"),
            "--inputs",
            "water,pad,button",
        ])
        .args([
            "--quiescence-marker",
            "#quiet",
            "--reset-line",
            "#reset",
            "--seed",
            "3",
        ])
        // it counts cups modulo 3: random words before each suite find what a suite for one
        // extra state cannot
        .args(["--random-words", "100", "--timeout", "20000", "-o"])
        .arg(&spec)
        .assert()
        .success()
        .stdout(contains("LEARNED: 9 states"));
    let text = std::fs::read_to_string(&spec).unwrap();
    // quiescence: `pad?` in the initial state is ignored (δ), so it loops on a Mealy state
    assert!(text.contains("(0, \"pad?\", 0)"), "{text}");
    let test = |mode: &str| {
        ioco()
            .arg("test")
            .arg(&spec)
            .args(["--sut", &format!("{sut} --ack --mode {mode}")])
            .args(["--quiescence-marker", "#quiet", "--timeout", "2000"])
            .args(["--runs", "30", "--steps", "40", "--seed", "1"])
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(test("correct"), Some(0));
    // the same as a .ioco model
    let model = dir.path().join("coffee.ioco");
    ioco()
        .args([
            "learn",
            "--sut",
            &format!("{sut} --ack"),
            "--inputs",
            "water,pad,button",
        ])
        .args([
            "--quiescence-marker",
            "#quiet",
            "--reset-line",
            "#reset",
            "--seed",
            "3",
        ])
        // it counts cups modulo 3: random words before each suite find what a suite for one
        // extra state cannot
        .args(["--random-words", "100", "--timeout", "20000", "-o"])
        .arg(&model)
        .assert()
        .success();
    ioco()
        .arg("check")
        .arg(&model)
        .assert()
        .success()
        .stdout(contains("states:            18"));
    let test_ioco = |mode: &str| {
        ioco()
            .arg("test")
            .arg(&model)
            .args(["--sut", &format!("{sut} --ack --mode {mode}")])
            .args([
                "--quiescence-marker",
                "#quiet",
                "--runs",
                "30",
                "--seed",
                "1",
            ])
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(test_ioco("correct"), Some(0));
    assert_eq!(test_ioco("tea"), Some(1));
    for mode in [
        "wrong-output",
        "tea",
        "silent",
        "spontaneous",
        "refuse-pad",
        "crash",
        "hang",
        "garbage",
        "flood",
    ] {
        assert_eq!(test(mode), Some(1), "{mode}");
    }
}

#[test]
fn a_spent_budget_writes_the_hypothesis_so_far_marked_unverified_exit_3() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("partial.dot");
    let Some(dot) = common::corpus_file("mealy-aalpy/TCP/TCP_Linux_Client.dot") else {
        return;
    };
    let dot = dot.as_str();
    ioco()
        .args(["learn", "--sim", dot, "--inputs-from", dot, "--seed", "1"])
        .args(["--max-queries", "40", "-o"])
        .arg(&out)
        .assert()
        .code(3)
        .stdout(contains("UNVERIFIED: "))
        .stderr(contains("NOT verified: the query budget of 40 runs"));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("// UNVERIFIED model"), "{text}");
    // still a model the tool reads
    ioco().arg("check").arg(&out).assert().success();
}

#[test]
fn a_nondeterministic_system_is_reported_with_the_word_never_learned() {
    let dir = tempfile::tempdir().unwrap();
    // answers `even` or `odd` by the number of inputs it read since it started, resets
    // included: the same word gets another answer after a reset
    let sut = common::write(
        dir.path(),
        "flip.py",
        "import sys\nn = 0\nprint('#quiet', flush=True)\nfor line in sys.stdin:\n    \
         if line.strip() != '#reset':\n        n += 1\n        \
         print('even' if n % 2 == 0 else 'odd', flush=True)\n    print('#quiet', flush=True)\n",
    );
    let out = dir.path().join("never.dot");
    ioco()
        .args(["learn", "--inputs", "a", "--quiescence-marker", "#quiet"])
        .args([
            "--reset-line",
            "#reset",
            "--repetitions",
            "2",
            "--seed",
            "1",
            "--sut",
        ])
        .arg(format!("python3 {}", sut.display()))
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(contains("not deterministic"))
        .stderr(contains("`odd` once"));
    assert!(!out.exists());
}

#[test]
fn bad_arguments_are_clear_errors() {
    ioco()
        .args([
            "learn",
            "--sim",
            "examples/models/coffee.aut",
            "--inputs",
            "coin",
            "-o",
        ])
        .arg("/tmp/never-written.dot")
        .assert()
        .code(2)
        .stderr(contains("needs a Mealy machine"));
    ioco()
        .args(["learn", "--sut", "true", "-o", "x.dot"])
        .assert()
        .code(2)
        .stderr(contains("no inputs to learn with"));
}

#[test]
fn random_words_alone_give_a_model_marked_unverified_exit_3() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("random.dot");
    let Some(dot) = common::corpus_file("mealy-aalpy/coffee_mealy.dot") else {
        return;
    };
    let dot = dot.as_str();
    ioco()
        .args([
            "learn",
            "--sim",
            dot,
            "--inputs-from",
            dot,
            "--oracle",
            "random",
        ])
        .args(["--seed", "1", "-o"])
        .arg(&out)
        .assert()
        .code(3)
        .stdout(contains("UNVERIFIED: 2 states"))
        .stderr(contains("random words only: no complete suite was run"));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("// UNVERIFIED model"), "{text}");
}

#[test]
fn a_system_that_crashes_is_an_error_naming_the_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let sut = example_bin("coffee-sut");
    ioco()
        .args(["learn", "--sut", &format!("{sut} --ack --mode crash")])
        .args([
            "--inputs",
            "water,pad,button",
            "--quiescence-marker",
            "#quiet",
        ])
        // the crash comes after a cup: deep for a one-state hypothesis
        .args([
            "--reset-line",
            "#reset",
            "--seed",
            "3",
            "--random-words",
            "100",
            "-o",
        ])
        .arg(dir.path().join("never.aut"))
        .assert()
        .code(2)
        .stderr(contains("exited with status 101"))
        .stderr(contains("after a reset"));
}

#[test]
fn a_tcp_server_is_learned_like_a_process() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    // the coffee machine serving a fresh machine per connection
    let mut server = common::KillOnDrop(
        std::process::Command::new(example_bin("coffee-sut"))
            .args(["--ack", "--listen", "127.0.0.1:0"])
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut line = String::new();
    std::io::BufReader::new(server.0.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap()
        .to_string();
    let out = dir.path().join("coffee.aut");
    ioco()
        .args(["learn", "--tcp", &addr, "--inputs", "water,pad,button"])
        .args(["--random-words", "100"])
        .args([
            "--quiescence-marker",
            "#quiet",
            "--seed",
            "3",
            "--timeout",
            "20000",
            "-o",
        ])
        .arg(&out)
        .assert()
        .success()
        .stdout(contains("LEARNED: 9 states"));
}

#[test]
fn sigterm_while_learning_writes_the_hypothesis_so_far_exit_130() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let Some(dot) = common::corpus_file("mealy-aalpy/TCP/tcp_server_bsd_trans.dot") else {
        return;
    };
    let dot = dot.as_str();
    let model = dir.path().join("tcp.json");
    ioco()
        .args(["show", dot, "--format", "json", "-o"])
        .arg(&model)
        .assert()
        .success();
    let out = dir.path().join("partial.dot");
    let mut learn = common::KillOnDrop(
        std::process::Command::new(env!("CARGO_BIN_EXE_ioco"))
            .current_dir(root())
            .args([
                "learn",
                "--inputs-from",
                dot,
                "--quiescence-marker",
                "#quiet",
            ])
            .args([
                "--reset-line",
                "#reset",
                "--seed",
                "1",
                "--timeout",
                "20000",
                "--sut",
            ])
            .arg(format!(
                "python3 examples/models/lts_player.py {} --ack",
                model.display()
            ))
            .arg("-o")
            .arg(&out)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    // interrupt once it is learning (the 55-state server takes many hypotheses)
    let mut err = std::io::BufReader::new(learn.0.stderr.take().unwrap());
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        assert!(
            err.read_line(&mut line).unwrap() > 0,
            "ended early:\n{seen}"
        );
        seen.push_str(&line);
        if line.starts_with("ioco: hypothesis 3:") {
            break;
        }
    }
    let pid = learn.0.id().to_string();
    assert!(std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    let status = learn.0.wait().unwrap();
    // the exit code of an interrupt, as `--help` says (#35 item 6), after the hypothesis is saved
    assert_eq!(status.code(), Some(130), "{seen}{rest}");
    assert!(rest.contains("interrupted while learning"), "{rest}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.starts_with("// UNVERIFIED model of ioco learn (L#): learning was interrupted"),
        "{text}"
    );
}
