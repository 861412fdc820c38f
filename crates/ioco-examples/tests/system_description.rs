//! A system under test described as plain data (`ioco_sut::system::System`, as JSON) and built
//! by ioco-sut's one factory: the real `coffee-sut` program, tested over the labels of
//! `examples/coffee/coffee.aut` by ioco-exec's online tester.

mod common;

use common::*;
use ioco_exec::RunVerdict;
use ioco_sut::system::System;

const BIN: &str = env!("CARGO_BIN_EXE_coffee-sut");
const SPEC: &str = "examples/coffee/coffee.aut";

/// The coffee machine in `mode`, acknowledging quiescence with `#quiet`, as a JSON document.
fn coffee(mode: &str) -> String {
    let mut cfg = ioco_sut::process::ProcessConfig::from_command_line("placeholder").unwrap();
    cfg.argv = vec![BIN.into(), "--mode".into(), mode.into(), "--ack".into()];
    cfg.wire.marker = Some("#quiet".into());
    // generous: the marker ends the wait early, a loaded machine must not turn a slow answer
    // into quiescence
    cfg.settle = std::time::Duration::from_secs(5);
    serde_json::to_string_pretty(&System::Process(cfg)).unwrap()
}

fn session(json: &str, seed: u64) -> ioco_exec::Summary {
    let spec = spec(SPEC);
    let system: System = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    let built = system.labels(spec.alphabet(), None).unwrap();
    ioco_exec::run_online(&spec, &options(20, 30, seed), &built.factory).unwrap()
}

#[test]
fn the_coffee_machine_described_in_json_is_tested() {
    let json = coffee("correct");
    // plain data: the program, its wire format, its reset, its time-outs
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["process"]["argv"][0], BIN);
    assert_eq!(v["process"]["wire"]["marker"], "#quiet");
    assert_eq!(v["process"]["reset"], "restart");
    let s = session(&json, 3);
    assert_eq!(s.runs.len(), 20);
    assert_eq!(s.verdict, RunVerdict::Pass, "{}", ioco_report_text(&s));
    // the faulty machine that serves tea, described the same way, is caught
    let s = session(&coffee("tea"), 3);
    assert_eq!(s.verdict, RunVerdict::Fail, "{}", ioco_report_text(&s));
    let r = s.first_failure().unwrap();
    assert!(r.trace.iter().any(|l| l == "tea!"), "{:?}", r.trace);
}
