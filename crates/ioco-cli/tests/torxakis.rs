//! TorXakis models (`.txs`, issue #16) through the installed binary: `check`, `translate`,
//! `test` against a simulated implementation, and the errors for what cannot be imported.

mod common;
use common::{ioco, root};
use predicates::prelude::*;

/// A file of TorXakis's corpus (`torxakis/` in the public corpus), once [`have_corpus`] said
/// it is here.
fn corpus(rel: &str) -> String {
    let c = ioco_testkit::locate_corpus().expect("have_corpus() was asked first");
    common::from_root(&c.join("torxakis").join(rel))
}

/// `ioco` run in TorXakis's corpus folder (after [`have_corpus`]), for a message that names a
/// corpus file: `examps/…` is as short wherever the corpus is (messages wrap at 80 columns).
fn ioco_in_corpus() -> assert_cmd::Command {
    let mut c = ioco();
    c.current_dir(ioco_testkit::locate_corpus().unwrap().join("torxakis"));
    c
}

/// Whether the public corpus is here; if not, the calling test is recorded as skipped (it
/// returns at once; under `IOCO_NO_SKIP=1` a failure instead).
fn have_corpus() -> bool {
    ioco_testkit::corpus().is_some()
}

#[test]
fn a_torxakis_model_checks_and_names_its_entry() {
    if !have_corpus() {
        return;
    }
    ioco()
        .args(["check", &corpus("examps/Queue/Queue.txs")])
        .assert()
        .success()
        .stdout(predicate::str::contains("specification:     Queue"))
        .stdout(predicate::str::contains("In?(p1: QueueOp) Out!(p1: int)"));
    // --entry picks another MODELDEF of the file
    ioco()
        .args([
            "check",
            &corpus("examps/Queue/Queue.txs"),
            "--entry",
            "Lossy",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("specification:     Lossy"));
    ioco()
        .args([
            "check",
            &corpus("examps/Queue/Queue.txs"),
            "--entry",
            "Nope",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("`Nope` (--entry)"))
        .stderr(predicate::str::contains(
            "the MODELDEFs of these files: Lossy, Queue",
        ));
}

#[test]
fn files_loaded_together_as_torxakis_does() {
    if !have_corpus() {
        return;
    }
    // a purposes file alone lacks the model's definitions: the error says to load both
    ioco()
        .args(["check", &corpus("examps/Adder/AdderPurposes.txs")])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("AdderPurposes.txs:"))
        .stderr(predicate::str::contains("--with FILE"));
    ioco()
        .args([
            "check",
            &corpus("examps/Adder/Adder.txs"),
            "--with",
            &corpus("examps/Adder/AdderPurposes.txs"),
        ])
        .assert()
        .success();
}

#[test]
fn what_cannot_be_imported_is_named_with_its_place_and_a_hint() {
    if !have_corpus() {
        return;
    }
    // a process that creates processes through a synchronised composition (a new memory per
    // round, each in every step): the whole file's only model
    ioco()
        .args([
            "check",
            &corpus("examps/ReadWriteConflict/ReadWriteAdvanced.txs"),
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("ReadWriteAdvanced.txs:50:15"))
        .stderr(predicate::str::contains("creates processes"))
        .stderr(predicate::str::contains("help:"));
    // one MODELDEF of several: left out with a warning, the others load
    let dir = tempfile::tempdir().unwrap();
    let two = dir.path().join("two.txs");
    let mut text =
        std::fs::read_to_string(root().join(corpus("test/sqatt/data/bench/Hiding/Hiding.txs")))
            .unwrap();
    text.push_str(
        "\nPROCDEF stopped [A] () ::= A >-> STOP ||| stopped [A] () ENDDEF\n\
         MODELDEF Stopped ::= CHAN IN CHAN OUT MyOut BEHAVIOUR stopped [MyOut] () ENDDEF\n",
    );
    std::fs::write(&two, text).unwrap();
    let with = corpus("test/sqatt/data/bench/Sequence/SingleActionSequence.txs");
    ioco()
        .args(["check", two.to_str().unwrap(), "--with", &with])
        .assert()
        .success()
        .stderr(predicate::str::contains("MODELDEF Stopped is left out"))
        .stderr(predicate::str::contains("creates processes"));
    // ... and an error with --deny-warnings
    ioco()
        .args([
            "check",
            "--deny-warnings",
            two.to_str().unwrap(),
            "--with",
            &with,
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("MODELDEF Stopped is left out"));
    // the Match and MatchInt of that file, left out before (processes that create processes
    // and a composition started with a value received), load
    ioco()
        .args([
            "check",
            "--deny-warnings",
            &corpus("test/sqatt/data/bench/Hiding/Hiding.txs"),
            "--with",
            &with,
            "--entry",
            "MatchInt",
        ])
        .assert()
        .success();
}

#[test]
fn bad_txs_input_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &[u8], &str)] = &[
        (
            "truncated.txs",
            b"PROCDEF p [ A ] ( ) ::= A >-> ",
            "truncated.txs:1:",
        ),
        ("binary.txs", b"\xff\xfe\x00garbage", "not valid UTF-8"),
        (
            "unknown.txs",
            b"CHANDEF C ::= A :: Int ENDDEF\nMODELDEF M ::= CHAN IN A CHAN OUT BEHAVIOUR A ? x [[ f(x) ]] >-> STOP ENDDEF\n",
            "unknown function `f`",
        ),
        (
            "recursion.txs",
            b"CHANDEF C ::= A ENDDEF\nPROCDEF p [ A ] ( ) ::= p [ A ] ( ) ENDDEF\nMODELDEF M ::= CHAN IN A CHAN OUT BEHAVIOUR p [ A ] ( ) ENDDEF\n",
            "unguarded recursion",
        ),
    ];
    for (name, text, want) in cases {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        ioco()
            .args(["check", p.to_str().unwrap()])
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(*want));
    }
    ioco()
        .args(["check", dir.path().join("missing.txs").to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read"));
}

#[test]
fn translated_models_check_and_keep_their_behaviour() {
    if !have_corpus() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for rel in [
        "examps/Queue/Queue.txs",
        "examps/Adder/AdderStAut.txs",
        "examps/DispatchProcess/spec/DisPro04-hide.txs",
        "test/sqatt/data/bench/Choice/Choice.txs",
    ] {
        let out = dir.path().join("t.ioco");
        ioco()
            .args(["translate", &corpus(rel), "-o", out.to_str().unwrap()])
            .assert()
            .success();
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.contains("// from the"), "{rel}: origins named");
        ioco()
            .args(["check", out.to_str().unwrap()])
            .assert()
            .success();
    }
    // a finite one: the translation and the .txs are the same model
    let out = dir.path().join("d4.ioco");
    ioco()
        .args([
            "translate",
            &corpus("examps/DispatchProcess/spec/DisPro04-hide.txs"),
            "-o",
            out.to_str().unwrap(),
        ])
        .assert()
        .success();
    for (a, b) in [
        (
            out.to_str().unwrap().to_string(),
            corpus("examps/DispatchProcess/spec/DisPro04-hide.txs"),
        ),
        (
            corpus("examps/DispatchProcess/spec/DisPro04-hide.txs"),
            out.to_str().unwrap().to_string(),
        ),
    ] {
        let o = ioco()
            .args(["show", &a, "--suspension", "--format", "aut"])
            .output()
            .unwrap();
        let p = ioco()
            .args(["show", &b, "--suspension", "--format", "aut"])
            .output()
            .unwrap();
        assert!(o.status.success() && p.status.success());
        assert_eq!(
            String::from_utf8_lossy(&o.stdout).lines().count(),
            String::from_utf8_lossy(&p.stdout).lines().count()
        );
    }
    // translate reads only .txs
    ioco()
        .args(["translate", "examples/coffee/coffee.ioco"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("reads TorXakis .txs files"));
}

/// A queue written with processes instead of QueueStAut.txs's state automaton, with `Value`
/// taken from the front (`FRONT`) or, in the mutant, from the back (a stack).
const QUEUE_PROC: &str = r#"
TYPEDEF IntList ::= Nil | Cons { hd :: Int; tl :: IntList } ENDDEF
FUNCDEF add ( x :: Int; l :: IntList ) :: IntList
  ::= IF isNil(l) THEN Cons(x,Nil) ELSE Cons(hd(l),add(x,tl(l))) FI
ENDDEF
PROCDEF q [ Enq, Value :: Int; Deq ] ( buf :: IntList ) ::=
       Enq ? x >-> q [Enq, Value, Deq] (PUT)
    ## Deq >-> (    [[ isNil(buf) ]] =>> q [Enq, Value, Deq] (buf)
                 ## [[ not(isNil(buf)) ]] =>> Value ! hd(buf) >-> q [Enq, Value, Deq] (tl(buf))
               )
ENDDEF
CHANDEF C ::= Enq, Value :: Int; Deq ENDDEF
MODELDEF Queue ::= CHAN IN Enq, Deq CHAN OUT Value BEHAVIOUR q [Enq, Value, Deq] (Nil) ENDDEF
"#;

#[test]
fn a_txs_model_tests_a_simulated_implementation() {
    if !have_corpus() {
        return;
    }
    let spec = corpus("examps/Queue/QueueStAut.txs");
    let dir = tempfile::tempdir().unwrap();
    let queue = dir.path().join("queue.txs");
    std::fs::write(&queue, QUEUE_PROC.replace("PUT", "add(x, buf)")).unwrap();
    let stack = dir.path().join("stack.txs");
    std::fs::write(&stack, QUEUE_PROC.replace("PUT", "Cons(x, buf)")).unwrap();
    for sut in [&spec, &queue.display().to_string()] {
        ioco()
            .args([
                "test", &spec, "--sim", sut, "--steps", "60", "--runs", "10", "--seed", "7",
            ])
            .timeout(std::time::Duration::from_secs(300))
            .assert()
            .success()
            .stdout(predicate::str::contains("PASS"));
    }
    ioco()
        .args([
            "test",
            &spec,
            "--sim",
            stack.to_str().unwrap(),
            "--steps",
            "60",
            "--runs",
            "20",
            "--seed",
            "7",
        ])
        .timeout(std::time::Duration::from_secs(300))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("FAIL"));
}

/// `ioco test MODEL.txs ARGS` through the file's CNECTDEF (no SUT option) against our own SUT
/// `txs-sut EXAMPLE --mode MODE SUT_ARGS --port 0`, each of `txs_ports` mapped to the port the
/// SUT printed for it (in the order its documentation lists them): exit code and output. The
/// SUT ends when its standard input closes (its guard kills it in any case).
fn test_through_cnectdef(
    model: &str,
    args: &[&str],
    txs_ports: &[u16],
    example: &str,
    mode: &str,
    sut_args: &[&str],
) -> (i32, String) {
    use std::io::BufRead;
    use std::process::Stdio;
    let mut child = common::KillOnDrop(
        std::process::Command::new(common::example_bin("txs-sut"))
            .args([example, "--port", "0", "--mode", mode])
            .args(sut_args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap(),
    );
    let mut out = std::io::BufReader::new(child.0.stdout.take().unwrap());
    let mut map = Vec::new();
    for txs_port in txs_ports {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        let port: u16 = line
            .trim()
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("txs-sut said {line:?}"));
        map.push(format!("{txs_port}={port}"));
    }
    let out = ioco()
        .args(["test", &corpus(model)])
        .args(args)
        .args(["--txs-ports", &map.join(",")])
        .args(["--steps", "25", "--runs", "6", "--seed", "3"])
        // our SUTs answer at once: ioco's 1000 ms rather than TorXakis's 2000 ms default
        .args(["--timeout", "1000"])
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn txs_models_test_their_own_suts_through_the_cnectdef() {
    if !have_corpus() {
        return;
    }
    for (model, port, example, faults) in [
        (
            "examps/Adder/Adder.txs",
            &[7890][..],
            "adder",
            &["wrong", "missing", "extra"][..],
        ),
        (
            "examps/Echo/Echo.txs",
            &[9999],
            "echo",
            &["wrong", "missing"],
        ),
        ("examps/Point/Point.txs", &[9999], "point", &["wrong"]),
        // Queue.txs's `overflow(x)` is `True` (its range test is commented out), so the model
        // never allows `Enq`: of the queue's faults only an output after `Deq` of the empty
        // queue (`extra`) is observable through this model
        ("examps/Queue/Queue.txs", &[7890], "queue", &["extra"]),
        (
            "examps/StimulusResponse/StimulusResponse.txs",
            &[7890],
            "stimulus-response",
            &["missing", "extra"],
        ),
        (
            "examps/LuckyPeople/spec/LuckyPeople.txs",
            &[7777],
            "lucky-people",
            &["wrong"],
        ),
        // hidden channels with data (Job2Proc) and strings with a regular expression
        (
            "examps/DispatchProcess/spec/DisPro10-data.txs",
            &[7890],
            "dispatch-process",
            &["wrong", "missing"],
        ),
    ] {
        let (code, out) = test_through_cnectdef(model, &[], port, example, "correct", &[]);
        assert_eq!(code, 0, "{model} against the correct {example}:\n{out}");
        assert!(out.contains("sut: the CNECTDEF "), "{out}");
        for mode in faults {
            let (code, out) = test_through_cnectdef(model, &[], port, example, mode, &[]);
            assert_eq!(code, 1, "{model} against {example} --mode {mode}:\n{out}");
            assert!(out.contains("FAIL"), "{out}");
        }
    }
}

#[test]
fn a_cnectdef_that_cannot_be_used_is_a_clear_error() {
    if !have_corpus() {
        return;
    }
    // nobody listens on the mapped port: a start error within the connect time-out
    ioco()
        .args([
            "test",
            &corpus("examps/Adder/Adder.txs"),
            "--txs-ports",
            "7890=1",
            "--connect-timeout",
            "2s",
            "--steps",
            "5",
        ])
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .code(2);
    ioco_in_corpus()
        .args(["test", "examps/Adder/Adder.txs", "--cnect", "Nope"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no CNECTDEF named `Nope`"))
        .stderr(predicate::str::contains("SutConnection"));
    ioco()
        .args([
            "test",
            &corpus("examps/Adder/Adder.txs"),
            "--txs-ports",
            "x",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a port mapping"));
}

/// The imported data models and their hand ports (bounded for the LTS translation in their
/// `@main`, unbounded in the models named here) give the same verdicts: each passes as the
/// other's simulated implementation, symbolically.
#[test]
fn imported_data_models_and_their_ports_simulate_each_other() {
    if !have_corpus() {
        return;
    }
    for (txs, port, entry) in [
        (
            "examps/Queue/QueueStAut.txs",
            "examples/queue/queue.ioco",
            "Queue",
        ),
        (
            "examps/Adder/AdderStAut.txs",
            "examples/torxakis/adder.ioco",
            "Adder",
        ),
        (
            "examps/Adder/Adder.txs",
            "examples/torxakis/adder.ioco",
            "Adder",
        ),
    ] {
        let txs = corpus(txs);
        for (spec, sim) in [(&txs[..], port), (port, &txs[..])] {
            let out = ioco()
                .args([
                    "test", spec, "--sim", sim, "--entry", entry, "--steps", "40", "--runs", "10",
                    "--seed", "11",
                ])
                .timeout(std::time::Duration::from_secs(300))
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{spec} against {sim}:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// DispatchProcess hides a channel with data (`HIDE [ Job2Proc :: Int # Int ]`): the
/// symbolic engine follows the hidden steps, so these models are tested (they were refused:
/// "needs a model with finite data").
#[test]
fn hidden_channels_with_data_are_tested() {
    if !have_corpus() {
        return;
    }
    for f in ["DisPro05-data.txs", "DisPro07-gcd.txs"] {
        let spec = corpus(&format!("examps/DispatchProcess/spec/{f}"));
        ioco()
            .args([
                "test", &spec, "--sim", &spec, "--steps", "50", "--runs", "3", "--seed", "7",
            ])
            .timeout(std::time::Duration::from_secs(600))
            .assert()
            .success()
            .stdout(predicate::str::contains("PASS"));
    }
}

#[test]
fn txs_models_with_several_sockets_and_xml() {
    if !have_corpus() {
        return;
    }
    // MovingArm.txs: six sockets without data (the arm travels 300 ms, so that a Stop can
    // catch it moving); Echo.txs's Xut: toXml / fromXml
    let arm = [9901, 9902, 9903, 9904, 9905, 9906];
    let travel = ["--travel-ms", "300"];
    for (model, args, ports, example, sut_args, faults) in [
        (
            "examps/MovingArms/MovingArm.txs",
            &[][..],
            &arm[..],
            "moving-arm",
            &travel[..],
            &["wrong", "missing"][..],
        ),
        (
            "examps/Echo/Echo.txs",
            &["--cnect", "Xut"][..],
            &[9999][..],
            "echo-xml",
            &[][..],
            &["wrong", "missing", "extra"][..],
        ),
        // three sockets, XML, hidden channels with data, strings, a guarded `=head(queue)`
        (
            "examps/CustomersOrders/CustomersOrders.txs",
            &[][..],
            &[7890, 7891, 7892][..],
            "customers-orders",
            &[][..],
            &["wrong"][..],
        ),
    ] {
        let (code, out) = test_through_cnectdef(model, args, ports, example, "correct", sut_args);
        assert_eq!(code, 0, "{model} against the correct {example}:\n{out}");
        for mode in faults {
            let (code, out) = test_through_cnectdef(model, args, ports, example, mode, sut_args);
            assert_eq!(code, 1, "{model} against {example} --mode {mode}:\n{out}");
            assert!(out.contains("FAIL"), "{out}");
        }
    }
}

/// A session of runs of no step tests nothing: an error (exit 2), not a Pass.
#[test]
fn a_run_of_no_step_is_an_error() {
    for model in ["examples/coffee/coffee.ioco", "examples/queue/queue.ioco"] {
        ioco()
            .args(["test", model, "--sim", model, "--steps", "0"])
            .assert()
            .code(2)
            .stdout(predicate::str::contains("PASS").not())
            .stderr(predicate::str::contains("--steps 0"));
    }
}

/// `--goal` picks the test purpose of the `--purpose` file, `--entry` the specification: with
/// several TorXakis goals the choice is required, a goal name two purposes share must be
/// qualified, and an unknown one is named with `--goal`.
#[test]
fn goal_picks_the_purpose_and_entry_the_specification() {
    if !have_corpus() {
        return;
    }
    let adder = "examps/Adder/Adder.txs";
    let purposes = "examps/Adder/AdderPurposes.txs";
    let run = |goal: Option<&str>| {
        let mut c = ioco_in_corpus();
        c.args(["test", adder, "--with", purposes, "--purpose", adder]);
        if let Some(g) = goal {
            c.args(["--goal", g]);
        }
        c.args(["--sim", adder, "--runs", "1", "--seed", "1"]);
        c.assert()
    };
    run(None).code(2).stderr(
        predicate::str::contains("has 14 test purpose goals")
            .and(predicate::str::contains("Purp4.m6")),
    );
    run(Some("m5")).code(2).stderr(
        predicate::str::contains("purposes have a goal")
            .and(predicate::str::contains("Purp1.m5"))
            .and(predicate::str::contains("Purp4.m5")),
    );
    run(Some("nosuch"))
        .code(2)
        .stderr(predicate::str::contains("`nosuch` (--goal)"));

    // A finite specification with two models and a purpose file with two purposes: --entry
    // and --goal choose independently (each purpose can only be met in its own model).
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("s.ioco");
    std::fs::write(
        &spec,
        "model A { input a output x init s  s -- a? --> t  t -- x! --> s }\n\
         model B { input b output y init s  s -- b? --> t  t -- y! --> s }\n",
    )
    .unwrap();
    let purpose = dir.path().join("p.ioco");
    std::fs::write(
        &purpose,
        "model PA { input a output x init s  s -- a? --> t  t -- x! --> accept }\n\
         model PB { input b output y init s  s -- b? --> t  t -- y! --> accept }\n",
    )
    .unwrap();
    for (entry, goal) in [("A", "PA"), ("B", "PB")] {
        ioco()
            .args(["test"])
            .arg(&spec)
            .args(["--entry", entry, "--purpose"])
            .arg(&purpose)
            .args(["--goal", goal, "--sim"])
            .arg(&spec)
            .args(["--runs", "2", "--seed", "1"])
            .assert()
            .code(0);
    }
    // the wrong pairing cannot reach accept: never a Pass
    ioco()
        .args(["test"])
        .arg(&spec)
        .args(["--entry", "A", "--purpose"])
        .arg(&purpose)
        .args(["--goal", "PB", "--sim"])
        .arg(&spec)
        .args(["--runs", "2", "--seed", "1"])
        .assert()
        .code(predicate::ne(0));
}

/// The Adder's purposes over data types (`Action !Plus(4,7) >-> Result ?r >-> …`, `Action ?x
/// [[ isPlus(x) ]] >-> …`) reach their goal against the model simulated as its own
/// implementation: the inputs of type `Operation` are chosen by the solver inside the goal's
/// guards, the integer analysis over-approximates them.
#[test]
fn adder_purposes_over_data_types_reach_their_goals() {
    if !have_corpus() {
        return;
    }
    let adder = corpus("examps/Adder/Adder.txs");
    let purposes = corpus("examps/Adder/AdderPurposes.txs");
    for goal in ["m1", "m2", "m3", "m4", "m5", "m6"] {
        ioco()
            .args(["test", &adder, "--with", &purposes, "--purpose", &adder])
            .args(["--goal", &format!("Purp1.{goal}"), "--sim", &adder])
            .args(["--runs", "3", "--seed", "1"])
            .assert()
            .code(0)
            .stderr(predicate::str::contains("accept reached in 3 of 3 run(s)"));
    }
}

/// Values passed on `EXIT` to `>>> ACCEPT` (Enable.txs): every MODELDEF loads; the imported
/// models and the hand port (`examples/torxakis/enable.ioco`) simulate each other; a model
/// that passes another value on its exit is told apart.
#[test]
fn exit_values_passed_to_accept_are_tested() {
    if !have_corpus() {
        return;
    }
    let txs = corpus("test/sqatt/data/bench/Enable/Enable.txs");
    ioco()
        .args(["check", "--deny-warnings", &txs])
        .assert()
        .success();
    let port = "examples/torxakis/enable.ioco";
    for entry in ["SeqEnableInt", "SeqEnableTwoInts"] {
        for (spec, sim) in [(&txs[..], port), (port, &txs[..]), (&txs[..], &txs[..])] {
            ioco()
                .args([
                    "test", spec, "--sim", sim, "--entry", entry, "--steps", "30", "--runs", "5",
                    "--seed", "5",
                ])
                .timeout(std::time::Duration::from_secs(300))
                .assert()
                .success()
                .stdout(predicate::str::contains("PASS"));
        }
    }
    // the implementation passes 7 on (and loops with it): its second output differs
    let dir = tempfile::tempdir().unwrap();
    let wrong = dir.path().join("wrong.txs");
    let text = std::fs::read_to_string(root().join(&txs)).unwrap();
    std::fs::write(
        &wrong,
        text.replace("(Ch ! v >-> EXIT ! v)", "(Ch ! v >-> EXIT ! 7)"),
    )
    .unwrap();
    ioco()
        .args([
            "test",
            &txs,
            "--sim",
            wrong.to_str().unwrap(),
            "--entry",
            "SeqEnableInt",
            "--steps",
            "10",
            "--runs",
            "3",
            "--seed",
            "5",
        ])
        .timeout(std::time::Duration::from_secs(300))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("FAIL"));
}

/// Two list types with the same constructors (`Nil`, `Cstr`) and an overloaded `add`, as
/// TorXakis models write them: the import chooses each constructor by the sort the context
/// expects. The imported model and a hand-written `.ioco` model simulate each other; a model
/// that keeps the integers last-in first-out fails against it.
#[test]
fn overloaded_constructors_are_imported_by_their_sort() {
    let dir = tempfile::tempdir().unwrap();
    let txs = dir.path().join("Lists.txs");
    std::fs::write(
        &txs,
        "TYPEDEF IntList ::= Nil | Cstr { hd :: Int; tl :: IntList } ENDDEF\n\
         TYPEDEF BoolList ::= Nil | Cstr { hd :: Bool; tl :: BoolList } ENDDEF\n\
         FUNCDEF add (x :: Int; l :: IntList) :: IntList ::=\n\
         \x20   IF isNil(l) THEN Cstr(x, Nil) ELSE Cstr(hd(l), add(x, tl(l))) FI\n\
         ENDDEF\n\
         FUNCDEF add (x :: Bool; l :: BoolList) :: BoolList ::=\n\
         \x20   IF isNil(l) THEN Cstr(x, Nil) ELSE Cstr(hd(l), add(x, tl(l))) FI\n\
         ENDDEF\n\
         CHANDEF Chans ::= In :: Int; Flag :: Bool; Out :: Int; OutB :: Bool ENDDEF\n\
         PROCDEF store [ In :: Int; Flag :: Bool; Out :: Int; OutB :: Bool ]\n\
         \x20   (is :: IntList; bs :: BoolList) ::=\n\
         \x20       In ? x [[ (x >= 0) /\\ (x < 3) ]] >-> store [In, Flag, Out, OutB] (add(x, is), bs)\n\
         \x20   ##  Flag ? b >-> store [In, Flag, Out, OutB] (is, add(b, bs))\n\
         \x20   ##  [[ isCstr(is) ]] =>> Out ! hd(is) >-> store [In, Flag, Out, OutB] (tl(is), bs)\n\
         \x20   ##  [[ bs <> Nil ]] =>> OutB ! hd(bs) >-> store [In, Flag, Out, OutB] (is, tl(bs))\n\
         ENDDEF\n\
         MODELDEF Model ::= CHAN IN In, Flag CHAN OUT Out, OutB\n\
         \x20   BEHAVIOUR store [In, Flag, Out, OutB] (Nil, Nil)\n\
         ENDDEF\n",
    )
    .unwrap();
    let port = |push_int: &str| {
        format!(
            "type Ints = INil | ICons {{ h: int, t: Ints }}\n\
             type Bools = BNil | BCons {{ h: bool, t: Bools }}\n\
             fn snoc(x: int, l: Ints): Ints = if l is INil then ICons(x, INil) else ICons(l.h, snoc(x, l.t))\n\
             fn bsnoc(x: bool, l: Bools): Bools = if l is BNil then BCons(x, BNil) else BCons(l.h, bsnoc(x, l.t))\n\
             @main\n\
             model Store {{\n\
             \x20 input In(x: int), Flag(b: bool)\n\
             \x20 output Out(x: int), OutB(b: bool)\n\
             \x20 var xs: Ints = INil, bs: Bools = BNil\n\
             \x20 init s\n\
             \x20 s -- In?(x) [x >= 0 && x < 3] {{ xs = {push_int} }} --> s\n\
             \x20 s -- Flag?(b) {{ bs = bsnoc(b, bs) }} --> s\n\
             \x20 s -- Out!(=xs.h) [xs is ICons] {{ xs = xs.t }} --> s\n\
             \x20 s -- OutB!(=bs.h) [bs is BCons] {{ bs = bs.t }} --> s\n\
             }}\n"
        )
    };
    let fifo = dir.path().join("fifo.ioco");
    std::fs::write(&fifo, port("snoc(x, xs)")).unwrap();
    let lifo = dir.path().join("lifo.ioco");
    std::fs::write(&lifo, port("ICons(x, xs)")).unwrap();
    let (txs, fifo, lifo) = (
        txs.to_str().unwrap(),
        fifo.to_str().unwrap(),
        lifo.to_str().unwrap(),
    );
    ioco()
        .args(["translate", txs])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "type BoolList = Nil_BoolList | Cstr_BoolList",
        ))
        .stdout(predicate::str::contains("bs != Nil_BoolList"));
    let run = |spec: &str, sim: &str| {
        ioco()
            .args([
                "test", spec, "--sim", sim, "--steps", "40", "--runs", "10", "--seed", "5",
            ])
            .timeout(std::time::Duration::from_secs(300))
            .output()
            .unwrap()
    };
    for (spec, sim) in [(txs, fifo), (fifo, txs)] {
        let out = run(spec, sim);
        assert!(
            out.status.success(),
            "{spec} against {sim}:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = run(txs, lifo);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Wheel.txs (overloaded constructors, `Command ? next | EXIT ? next2` passing a value
/// received at run time to `ACCEPT`, a dozen processes under `HIDE`) passes against itself
/// simulated; a variant that rotates the grabbers clockwise instead of counter-clockwise
/// fails at the first `CheckInfo` after `Index` that tells them apart.
#[test]
fn wheel_is_tested_from_its_txs() {
    if !have_corpus() {
        return;
    }
    let wheel = corpus("examps/Wheel/Wheel.txs");
    let text = std::fs::read_to_string(root().join(&wheel)).unwrap();
    let ccw = "grabberInfo [ NorthInfo, EastInfo, SouthInfo, Index ] ( east, south, west, north)";
    assert!(text.contains(ccw), "the corpus file changed");
    let dir = tempfile::tempdir().unwrap();
    let cw = dir.path().join("WheelCW.txs");
    std::fs::write(
        &cw,
        text.replace(
            ccw,
            "grabberInfo [ NorthInfo, EastInfo, SouthInfo, Index ] ( west, north, east, south)",
        ),
    )
    .unwrap();
    let run = |sim: &str, runs: &str| {
        ioco()
            .args([
                "test", &wheel, "--sim", sim, "--steps", "60", "--runs", runs, "--seed", "3",
            ])
            .timeout(std::time::Duration::from_secs(600))
            .output()
            .unwrap()
    };
    let out = run(&wheel, "3");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(cw.to_str().unwrap(), "20");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("Index!"), "{stdout}");
    assert!(stdout.contains("observed  CheckInfo!("), "{stdout}");
}

/// A SUT on a TorXakis socket for [`renamed_constructors_travel_under_torxakis_names`]: for
/// each line (a `BoolList` in TorXakis's syntax) it answers the list with `head` in front, as
/// text; a line with a `.ioco` name (`Cstr_BoolList`) gets no answer.
fn list_sut(head: &'static str) -> u16 {
    use std::io::{BufRead, BufReader, Write};
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for conn in l.incoming() {
            let Ok(conn) = conn else { return };
            std::thread::spawn(move || {
                let mut w = conn.try_clone().unwrap();
                for line in BufReader::new(conn).lines() {
                    let Ok(line) = line else { return };
                    if line.contains("_BoolList") {
                        continue;
                    }
                    if writeln!(w, "Cstr({head},{})", line.trim()).is_err() {
                        return;
                    }
                }
            });
        }
    });
    port
}

/// Overloaded constructors over a `CNECTDEF`: the model's second list type has renamed
/// constructors (`Cstr_BoolList`), but the lines written and read carry TorXakis's names
/// (`Cstr(True,Nil)`), so the test passes against a SUT that speaks TorXakis and fails against
/// one that answers with the wrong head.
#[test]
fn renamed_constructors_travel_under_torxakis_names() {
    let dir = tempfile::tempdir().unwrap();
    let txs = dir.path().join("Lists.txs");
    std::fs::write(
        &txs,
        "TYPEDEF IntList ::= Nil | Cstr { hd :: Int; tl :: IntList } ENDDEF\n\
         TYPEDEF BoolList ::= Nil | Cstr { bhd :: Bool; btl :: BoolList } ENDDEF\n\
         FUNCDEF count (l :: BoolList) :: Int ::= IF isNil(l) THEN 0 ELSE 1 + count(btl(l)) FI ENDDEF\n\
         CHANDEF Chans ::= In, Out :: BoolList ENDDEF\n\
         PROCDEF p [In, Out :: BoolList] () ::=\n\
         \x20   In ? l [[ count(l) < 3 ]] >-> Out ! Cstr(False, l) >-> p [In, Out] ()\n\
         ENDDEF\n\
         MODELDEF Model ::= CHAN IN In CHAN OUT Out BEHAVIOUR p [In, Out] () ENDDEF\n\
         CNECTDEF Sut ::= CLIENTSOCK\n\
         \x20   CHAN OUT In HOST \"localhost\" PORT 7777\n\
         \x20   ENCODE In ? l -> ! toString(l)\n\
         \x20   CHAN IN Out HOST \"localhost\" PORT 7777\n\
         \x20   DECODE Out ! fromString(s) <- ? s\n\
         ENDDEF\n",
    )
    .unwrap();
    let run = |port: u16| {
        ioco()
            .args([
                "test",
                txs.to_str().unwrap(),
                "--txs-ports",
                &format!("7777={port}"),
                "--steps",
                "20",
                "--runs",
                "3",
                "--seed",
                "4",
            ])
            .timeout(std::time::Duration::from_secs(300))
            .output()
            .unwrap()
    };
    let out = run(list_sut("False"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0), "{text}");
    let out = run(list_sut("True"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("observed  Out!(Cstr_BoolList(true,"),
        "{text}"
    );
}

/// Disable `[>>` and interrupt `[><` (TorXakis's semantics: a first action of the right side
/// ends the left side, or pauses it until the right side exits) become one model, the product
/// of the parts. The interrupted worker conforms as its hand-written `.ioco` model; a model that
/// forgets where it was interrupted does not; a disable whose right side omits its `Done`
/// fails against the model.
#[test]
fn disable_and_interrupt_are_imported() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let int = write(
        "int.txs",
        "CHANDEF C ::= A, B, Int1, Int2 ENDDEF\n\
         PROCDEF work [A, B] () ::= A >-> B >-> work [A, B] () ENDDEF\n\
         MODELDEF Int ::= CHAN IN A, Int1 CHAN OUT B, Int2\n\
         \x20 BEHAVIOUR work [A, B] () [>< (Int1 >-> Int2 >-> EXIT)\n\
         ENDDEF\n",
    );
    let port = |resume_b: &str| {
        format!(
            "@main\nmodel W {{\n  input A, Int1\n  output B, Int2\n  init s0\n\
             \x20 s0 -- A? --> s1\n  s1 -- B! --> s0\n\
             \x20 s0 -- Int1? --> i0\n  i0 -- Int2! --> s0\n\
             \x20 s1 -- Int1? --> i1\n  i1 -- Int2! --> {resume_b}\n}}\n"
        )
    };
    let good = write("w.ioco", &port("s1"));
    let bad = write("wbad.ioco", &port("s0"));
    ioco()
        .args(["translate", &int])
        .assert()
        .success()
        .stdout(predicate::str::contains("Int1?"))
        .stdout(predicate::str::contains("-- tau --> s1"));
    ioco()
        .args(["compare", &int, &good])
        .assert()
        .success()
        .stdout(predicate::str::contains("conforms"));
    ioco()
        .args(["compare", &int, &bad])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("after σ = A? Int1? Int2!"));
    let job = |right: &str| {
        format!(
            "CHANDEF C ::= A, B, Cancel, Done ENDDEF\n\
             PROCDEF job [A, B, Cancel, Done] () EXIT ::=\n\
             \x20 (A >-> B >-> EXIT) [>> ({right})\n\
             ENDDEF\n\
             PROCDEF jobs [A, B, Cancel, Done] () ::=\n\
             \x20 job [A, B, Cancel, Done] () >>> jobs [A, B, Cancel, Done] ()\n\
             ENDDEF\n\
             MODELDEF Dis ::= CHAN IN A, Cancel CHAN OUT B, Done\n\
             \x20 BEHAVIOUR jobs [A, B, Cancel, Done] ()\n\
             ENDDEF\n"
        )
    };
    let dis = write("dis.txs", &job("Cancel >-> Done >-> EXIT"));
    let dis_bad = write("disbad.txs", &job("Cancel >-> EXIT"));
    // the exit of a `>>>` is an internal step: the model takes its next input only after it,
    // and conforms to itself (input-enabled weakly, tutorial Def. 4.3)
    ioco()
        .args(["compare", &dis, &dis])
        .assert()
        .success()
        .stdout(predicate::str::contains("conforms"));
    ioco()
        .args(["compare", &dis, &dis_bad])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("Cancel?"))
        .stdout(predicate::str::contains("Done!"));
    let run = |sim: &str| {
        ioco()
            .args([
                "test", &dis, "--sim", sim, "--steps", "40", "--runs", "20", "--seed", "6",
            ])
            .timeout(std::time::Duration::from_secs(300))
            .output()
            .unwrap()
    };
    let out = run(&dis);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let out = run(&dis_bad);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("Cancel?"), "{text}");
    assert!(text.contains("allowed   Done!"), "{text}");
}

/// `HIDE` inside a composition started with values computed at run time (a product model):
/// the hidden channel becomes a gate of the model, hidden around its instance. A worker that
/// passes `id + 1` over a hidden channel behaves as the model that outputs `id + 1` directly,
/// in both directions, also with two workers at once (each synchronises only with itself);
/// a worker that passes `id + 2` fails.
#[test]
fn hide_inside_a_composition_started_at_run_time() {
    let dir = tempfile::tempdir().unwrap();
    let model = |name: &str, start: &str, offset: u32| {
        let path = dir.path().join(format!("{name}.txs"));
        std::fs::write(
            &path,
            format!(
                "CHANDEF Chans ::= In :: Int; Out :: Int ENDDEF\n\
                 PROCDEF worker [Out :: Int] (id :: Int) EXIT ::=\n\
                 \x20 HIDE [H :: Int] IN\n\
                 \x20   (H ! (id + {offset}) >-> EXIT) |[H]| (H ? v >-> Out ! v >-> EXIT)\n\
                 \x20 NI\n\
                 ENDDEF\n\
                 PROCDEF loop [In, Out :: Int] () ::=\n\
                 \x20 In ? id [[ (id >= 0) /\\ (id < 3) ]] >-> ({start})\n\
                 ENDDEF\n\
                 MODELDEF Model ::= CHAN IN In CHAN OUT Out BEHAVIOUR loop [In, Out] () ENDDEF\n"
            ),
        )
        .unwrap();
        path.display().to_string()
    };
    let one = model("one", "worker [Out] (id) >>> loop [In, Out] ()", 1);
    let plain = model("plain", "Out ! (id + 1) >-> loop [In, Out] ()", 1);
    let bad = model("bad", "worker [Out] (id) >>> loop [In, Out] ()", 2);
    let two = model(
        "two",
        "(worker [Out] (id) ||| worker [Out] (id + 10)) >>> loop [In, Out] ()",
        1,
    );
    let two_plain = model(
        "two_plain",
        "((Out ! (id + 1) >-> EXIT) ||| (Out ! (id + 11) >-> EXIT)) >>> loop [In, Out] ()",
        1,
    );
    ioco()
        .args(["translate", &one])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "output Out(p1: int), H_hidden(p1: int)",
        ))
        .stdout(predicate::str::contains(
            "system Model { hide H_hidden in loop }",
        ));
    let test = |model: &str, sim: &str| {
        ioco()
            .args(["test", model, "--sim", sim, "--runs", "20", "--steps", "40"])
            .args(["--seed", "5"])
            .timeout(std::time::Duration::from_secs(300))
            .output()
            .unwrap()
    };
    for (m, s) in [
        (&one, &plain),
        (&plain, &one),
        (&two, &two_plain),
        (&two_plain, &two),
    ] {
        let out = test(m, s);
        assert_eq!(out.status.code(), Some(0), "{m} --sim {s}: {out:?}");
    }
    let out = test(&one, &bad);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("observed  Out!("), "{text}");
}

/// The parser's warnings reach the user from the binary: Ark's `18446744073709551615` is read
/// as the 64-bit bound (it used to be said nowhere), and a chain of operators that TorXakis
/// reads left to right, unlike the usual precedences, shows both readings before the type
/// error it causes.
#[test]
fn parser_warnings_are_shown() {
    if !have_corpus() {
        return;
    }
    ioco()
        .args(["check", &corpus("examps/Ark/Ark.txs")])
        .assert()
        .success()
        .stderr(predicate::str::contains("ioco::txs::parse::int_clamped"))
        .stderr(predicate::str::contains("Ark.txs:28:73"));
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.txs");
    std::fs::write(
        &m,
        "CHANDEF C ::= In :: Int ENDDEF\n\
         PROCDEF p [In :: Int] () ::= In ? x [[ x >= 0 /\\ x < 3 ]] >-> p [In] () ENDDEF\n\
         MODELDEF M ::= CHAN IN In CHAN OUT BEHAVIOUR p [In] () ENDDEF\n",
    )
    .unwrap();
    let out = ioco()
        .arg("check")
        .arg(&m)
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    let warning = err.find("no_precedence").expect("the warning");
    let error = err.find("ioco::check::type").expect("the type error");
    assert!(warning < error, "{err}");
    assert!(err.contains("(x >= 0) /\\"), "{err}");
}
