//! `ioco test` of TorXakis's ControlLoop (hand port `examples/torxakis/control-loop.ioco`)
//! against `control-loop-sut` (crate `ioco-examples`), a program that only produces outputs:
//! the correct mode passes, every faulty mode fails where its documentation says. Each with the
//! explicit engine (the hand port's data are bounded) and with the engine `ioco` picks itself
//! (the symbolic one once it takes multi-labels, as `Ids` is infinite); the assertions read the
//! gate of a label, whichever engine wrote it (`Correction(Correction(0,1))!`,
//! `Correction!(Correction(0,1))`).
//!
//! The model's reports are the multi-action `ProduceReport ! pr | MeasureReport ! mr`, one wire
//! line (`MeasureReport MeasureReport(0,1) | ProduceReport ProduceReport(0,-1)`).
//!
//! The same SUT is tested from TorXakis's own model, `ControlLoopModel.txs` (unbounded data,
//! the symbolic engine; `measure`'s pending reports in a bag, `produceLoop` a product looping
//! through `>>> ACCEPT`), with the same verdicts; and the hand port, simulated, passes as an
//! implementation of the imported model.

mod common;

use common::{corpus_file, example_bin, ioco, summary};
use ioco_exec::RunVerdict;

const MODEL: &str = "examples/torxakis/control-loop.ioco";

/// TorXakis's model, as TorXakis ships it (in the public corpus).
const TXS: &str = "torxakis/examps/ControlLoop/ControlLoopModel.txs";

/// The engines: `--engine explicit`, and none (ioco's choice).
const ENGINES: [Option<&str>; 2] = [Some("explicit"), None];

/// `ioco test` against `control-loop-sut --bounded --mode MODE --seed SUT_SEED`, with `engine`
/// or ioco's choice: the exit code, the summary and the output.
fn test(mode: &str, sut_seed: u64, engine: Option<&str>) -> (i32, ioco_exec::Summary, String) {
    test_model(MODEL, "--bounded", mode, sut_seed, engine)
}

/// [`test`] of `model` against `control-loop-sut BOUNDED --mode MODE --seed SUT_SEED`.
fn test_model(
    model: &str,
    bounded: &str,
    mode: &str,
    sut_seed: u64,
    engine: Option<&str>,
) -> (i32, ioco_exec::Summary, String) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("s.json");
    let sut = format!(
        "{} {bounded} --mode {mode} --seed {sut_seed}",
        example_bin("control-loop-sut")
    );
    let mut cmd = ioco();
    cmd.args(["test", model, "--sut", &sut])
        .args(["--steps", "40", "--runs", "5", "--seed", "3"])
        // the model is never quiescent: the time-out only matters for a faulty silence, and a
        // loaded machine must not make a late line look like one
        .args(["--timeout", "2000", "--json"])
        .arg(&json);
    if let Some(e) = engine {
        cmd.args(["--engine", e]);
    }
    let out = cmd.output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap(), summary(&json), text)
}

/// The gate(s) of a label as either engine writes it: `Correction(Correction(0,1))!` and
/// `Correction!(Correction(0,1))` are `Correction`; a multi-label is its gates joined by `|`
/// (`MeasureReport|ProduceReport`); `δ` is `δ`.
fn gates(label: &str) -> String {
    label
        .split('|')
        .map(|part| part.split(['(', '!', '?']).next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("|")
}

/// The gates of the output observed where the (first failing) run failed.
fn observed(s: &ioco_exec::Summary) -> String {
    let run = s
        .runs
        .iter()
        .find(|r| r.verdict == RunVerdict::Fail)
        .expect("a failing run");
    gates(&run.failure.as_ref().expect("a failure").observed)
}

fn assert_fails(mode: &str, observed_gates: &str) {
    for engine in ENGINES {
        let (code, s, text) = test(mode, 1, engine);
        assert_eq!(s.verdict, RunVerdict::Fail, "{mode}, {engine:?}: {text}");
        assert_eq!(code, 1, "{mode}, {engine:?}: {text}");
        assert_eq!(observed(&s), observed_gates, "{mode}, {engine:?}: {text}");
    }
}

#[test]
fn labels_of_either_engine_name_their_gates() {
    assert_eq!(gates("Correction(Correction(0,1))!"), "Correction");
    assert_eq!(gates("Correction!(Correction(0,1))"), "Correction");
    assert_eq!(
        gates("MeasureReport(MeasureReport(0,1))|ProduceReport(ProduceReport(0,0))!"),
        "MeasureReport|ProduceReport"
    );
    assert_eq!(
        gates("MeasureReport!(MeasureReport(0,1))|ProduceReport!(ProduceReport(0,0))"),
        "MeasureReport|ProduceReport"
    );
    assert_eq!(gates("δ"), "δ");
}

/// Faults seen before the first reports: measure passing material on before it got it, and a
/// production report alone (not in one step with the measurement report).
#[test]
fn faults_before_the_first_multi_action_fail() {
    assert_fails("early-material", "Out_Material");
    assert_fails("split-reports", "ProduceReport");
}

#[test]
fn the_correct_control_loop_passes() {
    for engine in ENGINES {
        for sut_seed in [1, 2] {
            let (code, s, text) = test("correct", sut_seed, engine);
            let what = format!("SUT seed {sut_seed}, {engine:?}: {text}");
            assert_eq!(s.verdict, RunVerdict::Pass, "{what}");
            assert_eq!(code, 0, "{what}");
            assert!(text.contains("PASS: 5 runs"), "{what}");
            // 40 steps each, multi-actions and corrections among them
            for r in &s.runs {
                assert_eq!(r.steps, 40, "{what}");
                let trace: Vec<String> = r.trace.iter().map(gates).collect();
                assert!(
                    trace.iter().any(|g| g == "MeasureReport|ProduceReport"),
                    "{trace:?}"
                );
                assert!(trace.iter().any(|g| g == "Correction"), "{trace:?}");
            }
        }
    }
}

/// Faults after a multi-action: a correction with the wrong sign or for the wrong material,
/// and no correction at all (δ where one is required).
#[test]
fn faults_after_a_multi_action_fail() {
    assert_fails("wrong-sign", "Correction");
    assert_fails("wrong-id", "Correction");
    assert_fails("no-correction", "δ");
}

/// The hand port simulated as the system under test passes (the explicit engine's own
/// multi-labels, no wire).
#[test]
fn the_model_simulated_passes() {
    ioco()
        .args(["test", MODEL, "--sim", MODEL])
        .args(["--steps", "40", "--runs", "5", "--seed", "3"])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("PASS: 5 runs"));
}

/// TorXakis's `ControlLoopModel.txs` itself (no port, no bound: ids 0..=9 and values -9..=9 on
/// the wire, and the bounded ones) tests the SUT: the correct mode passes, every faulty mode
/// fails where the hand port's test says.
#[test]
fn the_txs_model_tests_the_control_loop() {
    let Some(txs) = corpus_file(TXS) else {
        return;
    };
    for bounded in ["", "--bounded"] {
        for sut_seed in [1, 2] {
            let (code, s, text) = test_model(&txs, bounded, "correct", sut_seed, None);
            let what = format!("{bounded} SUT seed {sut_seed}: {text}");
            assert_eq!(s.verdict, RunVerdict::Pass, "{what}");
            assert_eq!(code, 0, "{what}");
            for r in &s.runs {
                let trace: Vec<String> = r.trace.iter().map(gates).collect();
                assert!(
                    trace.iter().any(|g| g == "MeasureReport|ProduceReport"),
                    "{trace:?}"
                );
                assert!(trace.iter().any(|g| g == "Correction"), "{trace:?}");
            }
        }
        for (mode, gate) in [
            ("wrong-sign", "Correction"),
            ("wrong-id", "Correction"),
            ("no-correction", "δ"),
            ("early-material", "Out_Material"),
            ("split-reports", "ProduceReport"),
        ] {
            let (code, s, text) = test_model(&txs, bounded, mode, 1, None);
            let what = format!("{mode} {bounded}: {text}");
            assert_eq!(s.verdict, RunVerdict::Fail, "{what}");
            assert_eq!(code, 1, "{what}");
            assert_eq!(observed(&s), gate, "{what}");
        }
    }
}

/// The imported model and the hand port agree where the port's bounds allow: the port,
/// simulated, is an implementation of the imported model (the other way round, the imported
/// model's unbounded ids leave the port's `int[0..1]`).
#[test]
fn the_hand_port_conforms_to_the_txs_model() {
    let Some(txs) = corpus_file(TXS) else {
        return;
    };
    ioco()
        .args(["test", &txs, "--sim", MODEL])
        .args(["--steps", "60", "--runs", "10", "--seed", "5"])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("PASS: 10 runs"));
}
