//! TorXakis processes that create processes, and compositions started with values computed
//! at run time (issue #16: ControlLoop, the `Dynamic` micro-benchmarks), through the
//! installed binary: they load, they are tested, and the bag of pending processes is exact.

mod common;
use common::{ioco, root};
use predicates::prelude::*;

/// A file of TorXakis's corpus (`torxakis/` in the public corpus), once [`have_corpus`] said
/// it is here.
fn corpus(rel: &str) -> String {
    let c = ioco_testkit::locate_corpus().expect("have_corpus() was asked first");
    common::from_root(&c.join("torxakis").join(rel))
}

/// Whether the public corpus is here; if not, the calling test is recorded as skipped (it
/// returns at once; under `IOCO_NO_SKIP=1` a failure instead).
fn have_corpus() -> bool {
    ioco_testkit::corpus().is_some()
}

fn test_sim(spec: &str, sim: &str, seed: &str) -> (i32, String) {
    let out = ioco()
        .args([
            "test", spec, "--sim", sim, "--steps", "40", "--runs", "8", "--seed", seed,
        ])
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// `p ::= In >-> (Out ||| p)` keeps one pending `Out` per `In`: it is the counter written by
/// hand below, in both directions (each passes as the other's implementation), and a process
/// that creates two `Out`s per `In` fails.
#[test]
fn created_processes_are_a_bag_as_exact_as_a_counter() {
    if !have_corpus() {
        return;
    }
    let txs = corpus("test/sqatt/data/bench/Dynamic/nonDistinguishing.txs");
    let dir = tempfile::tempdir().unwrap();
    let counter = dir.path().join("counter.ioco");
    std::fs::write(
        &counter,
        "model Counter {\n  input In\n  output Out\n  var k: int = 0\n  init s\n  location s\n  \
         s -- In? { k = k + 1 } --> s\n  s -- Out! [k > 0] { k = k - 1 } --> s\n}\n",
    )
    .unwrap();
    let counter = counter.to_str().unwrap();
    for (spec, sim) in [
        (&txs[..], counter),
        (counter, &txs[..]),
        (&txs[..], &txs[..]),
    ] {
        let (code, out) = test_sim(spec, sim, "4");
        assert_eq!(code, 0, "{spec} against {sim}:\n{out}");
        assert!(out.contains("PASS"), "{out}");
    }
    let two = dir.path().join("two.txs");
    let text = std::fs::read_to_string(root().join(&txs)).unwrap();
    std::fs::write(&two, text.replace("( Out ||| p", "( Out ||| Out ||| p")).unwrap();
    let (code, out) = test_sim(&txs, two.to_str().unwrap(), "4");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL"), "{out}");
}

/// `p(n) ::= In >-> (Out ! n ||| p(n + 1))`: the pending outputs carry their values; an
/// implementation that outputs `n + 1` fails.
#[test]
fn created_processes_keep_their_values() {
    if !have_corpus() {
        return;
    }
    let txs = corpus("test/sqatt/data/bench/Dynamic/distinguishByValue.txs");
    let (code, out) = test_sim(&txs, &txs, "6");
    assert_eq!(code, 0, "{out}");
    let dir = tempfile::tempdir().unwrap();
    let off = dir.path().join("off.txs");
    let text = std::fs::read_to_string(root().join(&txs)).unwrap();
    std::fs::write(&off, text.replace("( Out ! n |||", "( Out ! n+1 |||")).unwrap();
    let (code, out) = test_sim(&txs, off.to_str().unwrap(), "6");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL"), "{out}");
}

/// ControlLoop (`measure` creates a pending report per material; `produceLoop` is a
/// composition started with the id just read, looping through `>>> ACCEPT`) loads: one model
/// per process, the pending reports in a bag.
#[test]
fn control_loop_loads() {
    if !have_corpus() {
        return;
    }
    let txs = corpus("examps/ControlLoop/ControlLoopModel.txs");
    ioco()
        .args(["check", &txs])
        .assert()
        .success()
        .stdout(predicate::str::contains("produce"))
        .stdout(predicate::str::contains("pending: Pending_measure"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cl.ioco");
    ioco()
        .args(["translate", &txs, "-o", out.to_str().unwrap()])
        .assert()
        .success();
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("remove_Pending_measure_0"), "{text}");
    ioco()
        .args(["check", out.to_str().unwrap()])
        .assert()
        .success();
}

/// A list that grows at every step cannot be unfolded into an LTS: the translation stops with
/// an error (it used to exhaust the stack).
#[test]
fn values_that_grow_without_bound_end_the_translation() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("grow.ioco");
    std::fs::write(
        &m,
        "type P = NoP | P0 { rest: P }\n\nmodel M {\n  input In\n  var pending: P = NoP\n  \
         init s\n  location s\n  s -- In? { pending = P0(pending) } --> s\n}\n",
    )
    .unwrap();
    ioco()
        .args(["compare", m.to_str().unwrap(), m.to_str().unwrap()])
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("grows without bound"));
}

/// `produce(n) ::= In >-> (Chan ! n ||| produce(n + 1))` with `Chan` hidden and synchronised
/// with `communicate(n) ::= Chan ! n | Out >-> communicate(n + 1)`: the pending values are
/// consumed in order, each with a visible `Out` that carries no value (a multi-action whose
/// hidden parameter is enumerated, not read from the wire); skipping a value makes the
/// implementation fall silent where an `Out` is due.
#[test]
fn created_processes_consumed_in_order_through_a_hidden_channel() {
    if !have_corpus() {
        return;
    }
    let txs = corpus("test/sqatt/data/bench/Dynamic/distinguishByOrder.txs");
    let (code, out) = test_sim(&txs, &txs, "3");
    assert_eq!(code, 0, "{out}");
    let dir = tempfile::tempdir().unwrap();
    let skip = dir.path().join("skip.txs");
    let text = std::fs::read_to_string(root().join(&txs)).unwrap();
    let changed = text.replace("communicate[In, Out] (n+1)", "communicate[In, Out] (n+2)");
    assert_ne!(changed, text);
    std::fs::write(&skip, changed).unwrap();
    let out = ioco()
        .args([
            "test",
            &txs,
            "--sim",
            skip.to_str().unwrap(),
            "--steps",
            "40",
            "--runs",
            "20",
            "--seed",
            "3",
        ])
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("FAIL"), "{text}");
}

/// MultipleControlLoops's created processes read records only in part (`recipeId(produceCmd)`,
/// `batchId(correctCmd)`) or send a record built from a value (`! C_MeasureReport(batchInfo)`):
/// the bag keeps the fields read and the step fixes them. Every MODELDEF loads and passes
/// against itself; a monitor that reports under the wrong id fails.
#[test]
fn records_read_in_part_are_kept_in_part() {
    if !have_corpus() {
        return;
    }
    let txs = corpus("examps/ControlLoop/MultipleControlLoops.txs");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("mcl.ioco");
    ioco()
        .args(["translate", &txs, "-o", out.to_str().unwrap()])
        .assert()
        .success();
    let text = std::fs::read_to_string(&out).unwrap();
    // the command kept with its recipe only, the batch at its default
    assert!(
        text.contains("C_ProduceCmd(C_ProductId(0), produceCmd.recipeId)"),
        "{text}"
    );
    for entry in ["SpecProduce", "SpecMeasure", "SpecCorrect", "Spec"] {
        let out = ioco()
            .args([
                "test", &txs, "--entry", entry, "--sim", &txs, "--steps", "40", "--runs", "3",
                "--seed", "3",
            ])
            .timeout(std::time::Duration::from_secs(300))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{entry}:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let original = std::fs::read_to_string(root().join(&txs)).unwrap();
    let report = "Out_Report ! id ? produceReport :: ProduceReport";
    assert!(original.contains(report), "the corpus file changed");
    let bad = dir.path().join("bad.txs");
    std::fs::write(
        &bad,
        original.replace(
            report,
            "Out_Report ! (id + 1) ? produceReport :: ProduceReport",
        ),
    )
    .unwrap();
    let out = ioco()
        .args([
            "test",
            &txs,
            "--entry",
            "SpecProduce",
            "--sim",
            bad.to_str().unwrap(),
            "--steps",
            "40",
            "--runs",
            "10",
            "--seed",
            "3",
        ])
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("observed  Out_ProduceReport!(1,"),
        "{stdout}"
    );
}
