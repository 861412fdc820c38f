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
