//! Online testing of a real child process over the line wire format.
mod common;
use common::{int, load};
use ioco_symbolic::online::{run_online, DataSut, Observed, OnlineOptions, Verdict};
use ioco_symbolic::process::{parse_value, ProcessSut};
use ioco_symbolic::SymbolicSpec;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

fn run(mode: &str, seed: u64) -> ioco_symbolic::online::Run {
    let spec = load("tests/models/tap19.ioco", None);
    let mut t = SymbolicSpec::with_z3(spec.clone()).unwrap();
    let script = common::path("tests/suts/tap19.sh").display().to_string();
    let mut sut = ProcessSut::new(
        vec!["/bin/sh".into(), script, mode.into()],
        spec.defs.clone(),
        spec.gates.clone(),
    );
    // generous: a slow machine must not turn a late output into quiescence
    sut.timeout = Duration::from_millis(400);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    run_online(
        &mut t,
        &mut sut,
        &OnlineOptions {
            steps: 14,
            input_bias: 0.6,
        },
        &mut rng,
    )
}

#[test]
fn correct_process_passes_and_faulty_ones_do_not() {
    let r = run("correct", 4);
    assert_eq!(r.verdict, Verdict::Pass, "{:?}", r.trace);
    assert!(
        r.trace.iter().any(|l| l.starts_with("outX!(")),
        "{:?}",
        r.trace
    );
    let r = run("plus1", 4);
    assert!(matches!(r.verdict, Verdict::Fail(_)), "{:?}", r);
    let r = run("garbage", 4);
    match r.verdict {
        Verdict::Fail(why) => assert!(why.contains("malformed"), "{}", why),
        other => panic!("{:?}", other),
    }
    let r = run("crash", 4);
    match r.verdict {
        Verdict::Inconclusive(why) => assert!(
            why.contains("exit status: 3") || why.contains("closed"),
            "{}",
            why
        ),
        other => panic!("{:?}", other),
    }
}

#[test]
fn wire_values() {
    let spec = load("../../examples/torxakis/adder.ioco", Some("Adder"));
    let defs = &spec.defs;
    let ty = spec.automata[0].gates[0].params[0].1;
    let v = parse_value(defs, ty, "Minus(5,-3)").unwrap();
    assert_eq!(v.display(defs).to_string(), "Minus(5,-3)");
    assert!(parse_value(defs, ty, "Times(1,2)").is_err());
    assert!(parse_value(defs, ty, "Plus(1)").is_err());
    assert_eq!(
        parse_value(defs, ioco_lang::ir::Type::Range(0, 3), "2"),
        Ok(int(2))
    );
    assert!(parse_value(defs, ioco_lang::ir::Type::Range(0, 3), "4").is_err());
    // an output line of the wrong shape is malformed
    let sut = ProcessSut::new(vec!["true".into()], spec.defs.clone(), spec.gates.clone());
    assert!(matches!(
        sut.parse_line("Result 1 2"),
        Observed::Malformed(_)
    ));
    assert_eq!(
        sut.parse_line("Result -4"),
        Observed::Output("Result".into(), vec![int(-4)])
    );
    let mut sut = ProcessSut::new(
        vec!["/nonexistent/sut".into()],
        spec.defs.clone(),
        spec.gates.clone(),
    );
    assert!(sut.reset().unwrap_err().contains("cannot start"));
}
