//! TorXakis users, all the way (issue #34), through the installed binary: `--entry` and
//! `--cnect` choose the model and its connection together, a TorXakis SUT is started per run
//! and reached through the file's `CNECTDEF`, TorXakis's defaults, composed purposes.

mod common;
use common::{ioco, outcome, KillOnDrop};
use std::io::BufRead;
use std::process::Stdio;

/// A file of TorXakis's corpus, or `None` when the corpus is not here (the test is recorded
/// as skipped and returns).
fn corpus(rel: &str) -> Option<String> {
    common::corpus_file(&format!("torxakis/{rel}"))
}

/// `txs-sut EXAMPLE --port 0 --mode MODE` (our systems for TorXakis's examples), serving
/// sessions until it is dropped, and the `--txs-ports` map from the `.txs` ports (in the order
/// the example lists them) to the ports it listens on.
fn txs_sut(example: &str, mode: &str, txs_ports: &[u16]) -> (KillOnDrop, String) {
    let mut child = KillOnDrop(
        std::process::Command::new(common::example_bin("txs-sut"))
            .args([example, "--port", "0", "--mode", mode])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap(),
    );
    let mut out = std::io::BufReader::new(child.0.stdout.take().unwrap());
    let mut map = Vec::new();
    for p in txs_ports {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        let port = line
            .trim()
            .rsplit(':')
            .next()
            .unwrap_or_default()
            .to_string();
        assert!(port.parse::<u16>().is_ok(), "txs-sut said {line:?}");
        map.push(format!("{p}={port}"));
    }
    (child, map.join(","))
}

/// The two-models-two-connections file (`examples/torxakis/two-models.txs`): the second
/// model is tested through the second CNECTDEF, whether `--entry`, `--cnect` or both name
/// them; a CNECTDEF that does not connect the model named is a clear error that says which
/// model it connects.
#[test]
fn entry_and_cnect_choose_the_model_and_its_connection_together() {
    let file = "examples/torxakis/two-models.txs";
    for mode in ["correct", "wrong"] {
        let (_sut, map) = txs_sut("adder", mode, &[7890]);
        let map = map.replace("7890=", "7002=");
        for choice in [
            &["--entry", "Second", "--cnect", "Sut2"][..],
            &["--cnect", "Sut2"],
            &["--entry", "Second"],
        ] {
            let (code, out) = outcome(
                ioco()
                    .args(["test", file])
                    .args(choice)
                    .args(["--txs-ports", &map, "--runs", "2", "--steps", "12"])
                    .args(["--seed", "4", "--timeout", "300"])
                    .timeout(std::time::Duration::from_secs(300)),
            );
            let want = if mode == "correct" { 0 } else { 1 };
            assert_eq!(code, want, "{choice:?} against the {mode} adder:\n{out}");
            assert!(out.contains("sut: the CNECTDEF Sut2 of"), "{out}");
        }
    }
    let (code, out) = outcome(ioco().args([
        "test", file, "--entry", "First", "--cnect", "Sut2", "--runs", "1",
    ]));
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("CNECTDEF Sut2 (ENCODE Action; DECODE")
            && out.contains("does not connect")
            && out.contains("--entry Second"),
        "{out}"
    );
    // a simulator's connection is named as such
    let adder = match corpus("examps/Adder/Adder.txs") {
        Some(a) => a,
        None => return,
    };
    let (code, out) = outcome(ioco().args(["test", &adder, "--cnect", "Sim"]));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("connection of TorXakis's simulator"), "{out}");
    // --cnect is for a .txs model
    let (code, out) = outcome(ioco().args([
        "test",
        "examples/torxakis/adder.ioco",
        "--cnect",
        "Sut3",
        "--runs",
        "1",
    ]));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("not a .txs file"), "{out}");
}

/// TorXakis's "Parallel Adders": `ioco test Adder.txs --entry Adder3 --cnect Sut3` against
/// three adders passes, and fails against a faulty one; `--cnect Sut3` alone picks `Adder3`.
#[test]
fn three_adders_through_sut3() {
    let Some(adder) = corpus("examps/Adder/Adder.txs") else {
        return;
    };
    for (mode, choice, want) in [
        ("correct", &["--entry", "Adder3", "--cnect", "Sut3"][..], 0),
        ("correct", &["--cnect", "Sut3"], 0),
        ("wrong", &["--entry", "Adder3", "--cnect", "Sut3"], 1),
    ] {
        let (_sut, map) = txs_sut("adder3", mode, &[7891, 7892, 7893]);
        let (code, out) = outcome(
            ioco()
                .args(["test", &adder])
                .args(choice)
                .args(["--txs-ports", &map, "--runs", "3", "--steps", "20"])
                .args(["--seed", "2", "--timeout", "300"])
                .timeout(std::time::Duration::from_secs(300)),
        );
        assert_eq!(code, want, "{choice:?} against the {mode} adders:\n{out}");
        assert!(out.contains("sut: the CNECTDEF Sut3 of"), "{out}");
    }
}

/// `Adder.java` (examples/torxakis: TorXakis's Adder as TorXakis runs it, one connection and
/// exit) compiled into `dir`; `None` (recorded as a skip) without a JDK.
fn java_adder(dir: &std::path::Path) -> Option<String> {
    if std::process::Command::new("javac")
        .arg("-version")
        .output()
        .is_err()
    {
        ioco_testkit::skip("no JDK (javac) on this machine");
        return None;
    }
    let st = std::process::Command::new("javac")
        .arg("-d")
        .arg(dir)
        .arg(common::root().join("examples/torxakis/Adder.java"))
        .status()
        .unwrap();
    assert!(st.success());
    Some(format!("java -cp {} Adder", dir.display()))
}

/// Per-run start in CNECTDEF mode (item 2): `ioco test Adder.txs --sut "java … Adder {port}"`
/// starts the one-shot Java SUT for every run, with a free port for the CNECTDEF's `PORT
/// 7890` each time (so `--jobs 2` works), and reaches it through the file's encodings: 20 of
/// 20 runs pass against the correct adder; the faulty ones fail.
#[test]
fn a_one_shot_java_sut_is_started_for_each_run_through_the_cnectdef() {
    let Some(adder) = corpus("examps/Adder/Adder.txs") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let Some(java) = java_adder(dir.path()) else {
        return;
    };
    for (mode, runs, want) in [
        ("correct", "20", 0),
        ("wrong", "6", 1),
        ("missing", "6", 1),
        ("extra", "6", 1),
    ] {
        let (code, out) = outcome(
            ioco()
                .args(["test", &adder, "--sut", &format!("{java} {{port}} {mode}")])
                .args(["--runs", runs, "--steps", "8", "--seed", "3", "--jobs", "2"])
                .args(["--timeout", "400"])
                .timeout(std::time::Duration::from_secs(900)),
        );
        assert_eq!(code, want, "the {mode} adder:\n{out}");
        assert!(
            out.contains("sut: the CNECTDEF SutConnection of")
                && out.contains("SUT started per run"),
            "{out}"
        );
        if want == 0 {
            assert!(out.contains("20 runs (20 pass)"), "{out}");
        }
    }
}

/// Many ports: `{port:N}` gives the CNECTDEF's `PORT N` a free port per start (TorXakis's
/// parallel adders, one SUT process serving three sockets once); `{port}` where the CNECTDEF
/// has three ports is an error that says what to write.
#[test]
fn each_port_of_the_cnectdef_gets_its_own_placeholder() {
    let Some(adder) = corpus("examps/Adder/Adder.txs") else {
        return;
    };
    let bin = common::example_bin("txs-sut");
    let sut = format!(
        "{bin} adder3 --once --ports 7891={{port:7891}},7892={{port:7892}},7893={{port:7893}}"
    );
    for (mode, want) in [("correct", 0), ("wrong", 1)] {
        let (code, out) = outcome(
            ioco()
                .args(["test", &adder, "--cnect", "Sut3"])
                .args(["--sut", &format!("{sut} --mode {mode}")])
                .args([
                    "--runs",
                    "4",
                    "--steps",
                    "12",
                    "--seed",
                    "2",
                    "--timeout",
                    "300",
                ])
                .timeout(std::time::Duration::from_secs(600)),
        );
        assert_eq!(code, want, "the {mode} adders:\n{out}");
    }
    let (code, out) = outcome(
        ioco()
            .args(["test", &adder, "--cnect", "Sut3", "--runs", "1"])
            .args(["--sut", &format!("{bin} adder3 --once --port {{port}}")]),
    );
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("{port:N}") && out.contains("7891"), "{out}");
}

/// A one-shot SUT that ioco does not start serves the first run; the second run's refused
/// connection says why, and what to do.
#[test]
fn a_second_connection_refused_says_the_sut_is_one_shot() {
    let Some(adder) = corpus("examps/Adder/Adder.txs") else {
        return;
    };
    let mut child = KillOnDrop(
        std::process::Command::new(common::example_bin("txs-sut"))
            .args(["adder", "--port", "0", "--once"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap(),
    );
    let mut line = String::new();
    std::io::BufReader::new(child.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .trim()
        .rsplit(':')
        .next()
        .unwrap_or_default()
        .to_string();
    let (code, out) = outcome(
        ioco()
            .args(["test", &adder, "--txs-ports", &format!("7890={port}")])
            .args([
                "--runs",
                "2",
                "--steps",
                "4",
                "--seed",
                "1",
                "--timeout",
                "300",
            ])
            .args(["--connect-timeout", "1000"])
            .timeout(std::time::Duration::from_secs(300)),
    );
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains("serve one connection") && out.contains("{port}"),
        "{out}"
    );
}

/// A TorXakis purpose file is read with the model's files, as TorXakis reads them (the Lucky
/// By Gender purpose uses LuckyPeople's types and channels); its GOAL, a process with `>>>`,
/// is not yet one automaton, and the message says what to write instead in TorXakis's terms.
#[test]
fn a_txs_purpose_file_is_read_with_the_models_files() {
    let (Some(model), Some(purpose)) = (
        corpus("examps/LuckyPeople/spec/LuckyPeople.txs"),
        corpus("examps/LuckyPeople/spec/PurposeLuckyByGender.txs"),
    ) else {
        return;
    };
    let (code, out) = outcome(
        ioco()
            .args(["test", &model, "--purpose", &purpose, "--runs", "1"])
            .args(["--sim", &model]),
    );
    assert_eq!(code, 2, "{out}");
    assert!(!out.contains("unknown channel"), "{out}");
    assert!(
        out.contains("luckyByGender") && out.contains(">>>") && out.contains("EXIT"),
        "{out}"
    );
}
