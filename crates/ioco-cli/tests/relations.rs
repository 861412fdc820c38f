//! uioco (issue #13 item 9; van der Bijl, Rensink and Tretmans; JTorX offers it) beside ioco,
//! in `compare`, `test` and the suites, on the example where they differ
//! (`examples/models/uioco-*.aut`): after `a?` the specification is in a state where `b?` gives
//! `x!` or in one that does not specify `b?`; the implementation answers `a? b?` with `y!`. Not
//! ioco (`a?·b?` is a suspension trace), but uioco (`a?·b?` is no Utrace).

mod common;
use common::ioco;
use predicates::str::contains;

const SPEC: &str = "examples/models/uioco-spec.aut";
const IMPL: &str = "examples/models/uioco-impl.aut";

#[test]
fn compare_tells_ioco_from_uioco() {
    ioco()
        .args(["compare", SPEC, IMPL])
        .assert()
        .code(1)
        .stdout(contains("after σ = a? b?"));
    ioco()
        .args(["compare", SPEC, IMPL, "--relation", "uioco"])
        .assert()
        .code(0)
        .stdout(contains("uioco"));
}

#[test]
fn online_testing_and_suites_test_for_the_relation_asked() {
    let sim = ["--sim", IMPL, "--seed", "1"];
    ioco()
        .args(["test", SPEC, "--runs", "50"])
        .args(sim)
        .assert()
        .code(1);
    ioco()
        .args(["test", SPEC, "--runs", "50", "--relation", "uioco"])
        .args(sim)
        .assert()
        .code(0);
    let dir = tempfile::tempdir().unwrap();
    for (relation, code) in [("ioco", 1), ("uioco", 0)] {
        let suite = dir.path().join(format!("{relation}.json"));
        ioco()
            .args(["gen", SPEC, "--method", "n-complete", "--n", "3"])
            .args(["--relation", relation, "-o"])
            .arg(&suite)
            .assert()
            .success();
        ioco()
            .args(["run", SPEC])
            .arg(&suite)
            .args(sim)
            .assert()
            .code(code);
    }
    // the relation of a method that is not built on the suspension automaton
    ioco()
        .args(["gen", SPEC, "--method", "random", "--relation", "uioco"])
        .assert()
        .code(2)
        .stderr(contains("does not apply"));
}

/// uioco's divergent corner (`examples/models/uioco-divergent-spec.aut`): after `a?` the
/// specification may be on the silent τ-cycle 2 ⇄ 4 (quiescent by divergence), where no
/// state takes `b?`. That state refuses `b?` as a stable one would, so `a?·b?` is no Utrace:
/// the implementation answering it with `y!` is uioco, not ioco, in `compare` and `test`.
#[test]
fn a_silently_divergent_state_refuses_inputs_no_tau_reachable_state_takes() {
    let spec = "examples/models/uioco-divergent-spec.aut";
    ioco()
        .args(["compare", spec, IMPL])
        .assert()
        .code(1)
        .stdout(contains("after σ = a? b?"));
    ioco()
        .args(["compare", spec, IMPL, "--relation", "uioco"])
        .assert()
        .code(0);
    let sim = ["--sim", IMPL, "--seed", "1"];
    for (relation, code) in [("ioco", 1), ("uioco", 0)] {
        ioco()
            .args(["test", spec, "--runs", "50", "--relation", relation])
            .args(sim)
            .assert()
            .code(code);
    }
}
