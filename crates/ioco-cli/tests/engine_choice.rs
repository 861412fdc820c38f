//! The engine is chosen by what runs (issue #31): a model whose types have infinitely many
//! values but whose values reached are finitely many (the DisPro12 port, with a set of job ids
//! as a recursive type) runs on the explicit engine by default, with the verdicts of the
//! symbolic engine; a model that reaches infinitely many values runs symbolically.

mod common;

use common::{ioco, root, write};
use predicates::str::contains;

const DISPRO: &str = "examples/torxakis/dispatch-process.ioco";

/// `ioco test` of the DisPro12 port against `sim` (a model file), with `extra` arguments:
/// (exit code, stdout).
fn test_dispro(sim: &str, extra: &[&str]) -> (i32, String) {
    let mut args = vec![
        "test", DISPRO, "--entry", "DisPro12", "--sim", sim, "--runs", "30", "--steps", "40",
        "--seed", "11",
    ];
    args.extend_from_slice(extra);
    let out = ioco().args(&args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), stdout)
}

#[test]
fn the_dispro12_port_runs_explicitly_by_default_and_check_says_why() {
    ioco()
        .args(["check", DISPRO, "--entry", "DisPro12"])
        .assert()
        .code(0)
        .stdout(contains(
            "explicit: the types have infinitely many values, but the values reached are finitely \
             many (195 states)",
        ));
    let (code, out) = test_dispro(DISPRO, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("PASS"), "{out}");
    assert!(out.contains("policy=stable"), "the explicit engine: {out}");
    assert!(!out.contains("engine=symbolic"), "{out}");
    let (code, out) = test_dispro(DISPRO, &["--engine", "symbolic"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("engine=symbolic"), "{out}");
}

#[test]
fn both_engines_fail_a_faulty_dispro12() {
    // processors that report x instead of gcd(x, y): wrong for the job (2, 1)
    let text = std::fs::read_to_string(root().join(DISPRO)).unwrap();
    let right = "Finish!(=JobOut(job.jobId, procnum, gcd(job.jx, job.jy)))";
    assert!(text.contains(right));
    let dir = tempfile::tempdir().unwrap();
    let faulty = write(
        dir.path(),
        "faulty.ioco",
        &text.replace(right, "Finish!(=JobOut(job.jobId, procnum, job.jx))"),
    );
    let faulty = faulty.to_str().unwrap();
    for engine in [&[][..], &["--engine", "symbolic"][..]] {
        let (code, out) = test_dispro(faulty, engine);
        assert_eq!(code, 1, "{engine:?}: {out}");
        assert!(out.contains("FAIL"), "{engine:?}: {out}");
        assert!(
            out.contains("observed  Finish"),
            "the wrong output is named: {out}"
        );
    }
}

#[test]
fn a_model_that_reaches_infinitely_many_values_runs_symbolically() {
    let dir = tempfile::tempdir().unwrap();
    // a counter without a bound: its LTS is infinite
    let m = write(
        dir.path(),
        "count.ioco",
        "model Count {\n  input up\n  output n(v: int)\n  var k: int = 0\n  init s\n  \
         s -- up? { k = k + 1 } --> t\n  t -- n!(=k) --> s\n}\n",
    );
    let m = m.to_str().unwrap();
    ioco()
        .args(["check", m])
        .assert()
        .code(0)
        .stdout(contains("test engine:       symbolic"));
    ioco()
        .args([
            "test", m, "--sim", m, "--runs", "2", "--steps", "10", "--seed", "3",
        ])
        .assert()
        .code(0)
        .stdout(contains("engine=symbolic"));
}
