//! Multi-actions in the symbolic engine through the binary (issue #16, TorXakis DisPro12): a
//! step of one visible gate and hidden gates (`Acquire?(id) | Job?(j, x)` with `Acquire`
//! hidden) is tested against a simulated implementation — Pass against itself, Fail against a
//! mutant. Multi-labels (`@sync`: several visible gates in one step) are tested by both engines
//! with the same verdicts and the same bytes on the wire, and recorded runs with them replay
//! and shrink.

mod common;
use common::{ioco, root, write};
use predicates::prelude::*;

const MODEL: &str = "crates/ioco-symbolic/tests/models/multi-hidden.ioco";

#[test]
fn a_multi_action_with_hidden_gates_passes_against_itself_and_fails_against_a_mutant() {
    ioco()
        .args([
            "test", MODEL, "--sim", MODEL, "--steps", "100", "--runs", "5", "--seed", "3",
        ])
        .timeout(std::time::Duration::from_secs(300))
        .assert()
        .success()
        .stdout(predicate::str::contains("PASS"));
    // the mutant: Finish gives x + 3 instead of x + 1
    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read_to_string(root().join(MODEL)).unwrap();
    let mutant = src.replace("=x + 1) | Release", "=x + 3) | Release");
    assert_ne!(src, mutant);
    let m = write(dir.path(), "mutant.ioco", &mutant);
    ioco()
        .args(["test", MODEL, "--sim"])
        .arg(&m)
        .args(["--steps", "100", "--runs", "5", "--seed", "3"])
        .timeout(std::time::Duration::from_secs(300))
        .assert()
        .failure()
        .stdout(predicate::str::contains("FAIL").and(predicate::str::contains("Finish")));
}

#[test]
fn multi_labels_are_tested_by_the_symbolic_engine() {
    let dir = tempfile::tempdir().unwrap();
    let m = write(
        dir.path(),
        "m.ioco",
        "@sync(a | b)\nmodel M {\n  input a, b\n  output c\n  init s\n  s -- a? | b? --> t\n  t -- c! --> s\n}\n",
    );
    let json = dir.path().join("r.json");
    ioco()
        .arg("test")
        .arg(&m)
        .arg("--sim")
        .arg(&m)
        .args([
            "--engine", "symbolic", "--steps", "10", "--seed", "3", "--json",
        ])
        .arg(&json)
        .assert()
        .success();
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let trace = r["runs"][0]["trace"].to_string();
    assert!(trace.contains("\"a?|b?\""), "{trace}");
}

/// DisPro12 (TorXakis issue #330): the dispatcher's `Acquire ? jobid | Job ? job` with the
/// hidden job-id manager, tested symbolically against itself.
#[test]
fn dispro12_is_tested_symbolically() {
    let Some(spec) =
        common::corpus_file("torxakis/examps/DispatchProcess/spec/DisPro12-unique-id.txs")
    else {
        return;
    };
    let spec = spec.as_str();
    ioco()
        .args([
            "test", spec, "--sim", spec, "--steps", "100", "--runs", "2", "--seed", "7",
        ])
        .timeout(std::time::Duration::from_secs(600))
        .assert()
        .success()
        .stdout(predicate::str::contains("PASS"));
}

const CONTROL_LOOP: &str = "examples/torxakis/control-loop.ioco";

/// The ControlLoop port (`@sync(ProduceReport | MeasureReport)`) against itself passes with
/// both engines; against a mutant whose corrections have the wrong sign it fails with both,
/// the counterexample going through the multi-label to the correction.
#[test]
fn control_loop_passes_and_its_mutant_fails_with_both_engines() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(root().join(CONTROL_LOOP)).unwrap();
    let mutated = text.replace("sgn(c.cValue) == sign", "sgn(c.cValue) == -sign");
    assert_ne!(text, mutated);
    let mutant = write(dir.path(), "mutant.ioco", &mutated);
    for engine in ["explicit", "symbolic"] {
        let json = dir.path().join(format!("{engine}.json"));
        ioco()
            .args([
                "test",
                CONTROL_LOOP,
                "--sim",
                CONTROL_LOOP,
                "--engine",
                engine,
            ])
            .args(["--runs", "4", "--steps", "60", "--seed", "2", "--json"])
            .arg(&json)
            .assert()
            .success();
        let s = common::summary(&json);
        assert!(
            s.runs
                .iter()
                .any(|r| r.trace.iter().any(|l| l.contains("MeasureReport")
                    && l.contains("|")
                    && l.contains("ProduceReport"))),
            "{engine}: no multi-label in {:?}",
            s.runs[0].trace
        );
        ioco()
            .args(["test", CONTROL_LOOP, "--sim"])
            .arg(&mutant)
            .args([
                "--engine", engine, "--runs", "4", "--steps", "60", "--seed", "2",
            ])
            .arg("--json")
            .arg(&json)
            .assert()
            .code(1);
        let s = common::summary(&json);
        let r = s.first_failure().expect("a failing run");
        let f = r.failure.as_ref().unwrap();
        assert!(f.observed.starts_with("Correction"), "{engine}: {f:?}");
        assert!(
            r.trace.iter().any(|l| l.contains('|')),
            "{engine}: {:?}",
            r.trace
        );
    }
}

/// A multi-label with bounded data: input `a|b`, output `c|d`.
const PAIRS: &str = "@sync(a | b, c | d)
model M {
  input a(x: int[0..3]), b(y: int[0..3])
  output c(u: int[0..6]), d(v: bool)
  var s: int[0..6] = 0
  init idle
  idle -- a?(x) | b?(y) [x <= y] { s = x + y } --> busy
  busy -- c!(=s) | d!(=s > 3) --> idle
}
";

/// Reads `a X | b Y` (or `{"label":"a|b","args":[X,Y]}`), logs the line, answers `c S | d B`;
/// `swap` writes the parts the other way round (the same multi-label), `bug` says `d true`
/// for a sum of 3.
const PAIRS_SUT: &str = r##"import sys, json
mode, bug, log = sys.argv[1], sys.argv[2], sys.argv[3]
out = open(log, "a")
print("#quiet", flush=True)
for line in sys.stdin:
    out.write(line); out.flush()
    if mode == "json":
        r = json.loads(line)
        assert r["label"] == "a|b", line
        x, y = r["args"]
    else:
        p, q = line.strip().split(" | ")
        _, x = p.split(); _, y = q.split()
        x, y = int(x), int(y)
    s = x + y
    big = s > 3 if bug != "bug" else s >= 3
    if mode == "json":
        print(json.dumps({"label": "c|d", "args": [s, big]}), flush=True)
    elif bug == "swap":
        print(f"d {'true' if big else 'false'} | c {s}", flush=True)
    else:
        print(f"c {s} | d {'true' if big else 'false'}", flush=True)
    print("#quiet", flush=True)
"##;

/// Both engines write a multi-label input as the same bytes (`a 0 | b 3`, or on JSON lines
/// `{"args":[0,3],"label":"a|b"}`) and read a multi-label output alike: a conforming program
/// passes both, in both formats (its parts in any order on plain lines), a faulty one fails
/// both.
#[test]
fn both_engines_speak_multi_labels_alike_on_the_wire() {
    let dir = tempfile::tempdir().unwrap();
    let m = write(dir.path(), "pairs.ioco", PAIRS);
    let py = write(dir.path(), "pairs.py", PAIRS_SUT);
    let lines = regex_lite(r"a [0-3] \| b [0-3]");
    for engine in ["explicit", "symbolic"] {
        for (mode, flag) in [("lines", None), ("json", Some("--json-lines"))] {
            for (bug, code) in [("ok", 0), ("swap", 0), ("bug", 1)] {
                if mode == "json" && bug == "swap" {
                    continue;
                }
                let log = dir.path().join(format!("{engine}-{mode}-{bug}.log"));
                let sut = format!("python3 {} {mode} {bug} {}", py.display(), log.display());
                let mut cmd = ioco();
                cmd.arg("test")
                    .arg(&m)
                    .args(["--engine", engine, "--sut", &sut])
                    .args(["--quiescence-marker", "#quiet"])
                    .args(["--runs", "3", "--steps", "16", "--seed", "5"]);
                if let Some(f) = flag {
                    cmd.arg(f);
                }
                let out = cmd
                    .timeout(std::time::Duration::from_secs(300))
                    .output()
                    .unwrap();
                assert_eq!(
                    out.status.code(),
                    Some(code),
                    "{engine} {mode} {bug}: {}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                );
                let sent = std::fs::read_to_string(&log).unwrap();
                assert!(!sent.is_empty(), "{engine} {mode} {bug}: nothing sent");
                for l in sent.lines() {
                    if mode == "json" {
                        let v: serde_json::Value = serde_json::from_str(l).unwrap();
                        assert_eq!(v["label"], "a|b", "{l}");
                        assert_eq!(v["args"].as_array().map(Vec::len), Some(2), "{l}");
                        assert!(l.starts_with(r#"{"args":["#), "{l}");
                    } else {
                        assert!(lines(l), "{engine}: `{l}`");
                    }
                }
            }
        }
    }
}

/// `a [0-3] \| b [0-3]` as a whole line, without a regex crate.
fn regex_lite(_: &str) -> impl Fn(&str) -> bool {
    |l: &str| {
        let b = l.as_bytes();
        b.len() == 9
            && l.starts_with("a ")
            && (b'0'..=b'3').contains(&b[2])
            && &l[3..8] == " | b "
            && (b'0'..=b'3').contains(&b[8])
    }
}

/// A failing symbolic run through multi-labels replays (`ioco replay`, either engine) and
/// shrinks; its report shows the multi-labels readably.
#[test]
fn a_symbolic_run_with_multi_labels_replays_and_shrinks() {
    let dir = tempfile::tempdir().unwrap();
    let m = write(dir.path(), "pairs.ioco", PAIRS);
    let py = write(dir.path(), "pairs.py", PAIRS_SUT);
    let log = dir.path().join("log");
    let sut = format!("python3 {} lines bug {}", py.display(), log.display());
    let json = dir.path().join("r.json");
    ioco()
        .arg("test")
        .arg(&m)
        .args([
            "--engine",
            "symbolic",
            "--sut",
            &sut,
            "--quiescence-marker",
            "#quiet",
        ])
        .args(["--runs", "1", "--steps", "30", "--seed", "5", "--json"])
        .arg(&json)
        .assert()
        .code(1);
    let s = common::summary(&json);
    let r = s.first_failure().unwrap();
    let f = r.failure.as_ref().unwrap();
    assert!(f.observed.starts_with("c!(3)|d!(true)"), "{f:?}");
    assert!(
        f.allowed
            .iter()
            .any(|a| a.starts_with("c!(") && a.contains("|d!(")),
        "{f:?}"
    );
    let html = dir.path().join("r.html");
    let shrunk = dir.path().join("s.json");
    ioco()
        .arg("replay")
        .arg(&m)
        .arg(&json)
        .args([
            "--engine",
            "symbolic",
            "--sut",
            &sut,
            "--quiescence-marker",
            "#quiet",
        ])
        .args(["--shrink", "--json"])
        .arg(&shrunk)
        .arg("--html")
        .arg(&html)
        .assert()
        .code(1);
    let s = common::summary(&shrunk);
    let sh = s.runs[0].shrunk.as_ref().expect("shrunk");
    assert_eq!(sh.inputs.len(), 1, "{sh:?}");
    assert!(sh.inputs[0].starts_with("a?(") && sh.inputs[0].contains("|b?("));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("c!(3)|d!(true)"),
        "the report shows the multi-label"
    );
    // the explicit engine replays the same recorded inputs
    ioco()
        .arg("replay")
        .arg(&m)
        .arg(&json)
        .args([
            "--engine",
            "explicit",
            "--sut",
            &sut,
            "--quiescence-marker",
            "#quiet",
        ])
        .assert()
        .code(1);
}

/// Unbounded data (the explicit engine cannot enumerate it): the input pair `a|b` gets values
/// from the solver under the guard over both, the output pair is judged by its guard.
const SUM: &str = "@sync(a | b, c | d)
model M {
  input a(x: int), b(y: int)
  output c(u: int), d(w: int)
  var s: int = 0, t: int = 0
  init idle
  idle -- b?(y) | a?(x) [x + y == 1000 && x > y + 5] { s = x, t = y } --> busy
  busy -- c!(u) | d!(w) [u == s && w > t] --> idle
}
";

#[test]
fn an_unbounded_multi_label_model_passes_symbolically_and_its_mutant_fails() {
    let dir = tempfile::tempdir().unwrap();
    let m = write(dir.path(), "sum.ioco", SUM);
    let mutant = write(
        dir.path(),
        "mutant.ioco",
        &SUM.replace("w > t]", "w > t - 50]"),
    );
    let mut traces = Vec::new();
    for _ in 0..2 {
        let json = dir.path().join("r.json");
        ioco()
            .arg("test")
            .arg(&m)
            .arg("--sim")
            .arg(&m)
            .args(["--runs", "4", "--steps", "30", "--seed", "9", "--json"])
            .arg(&json)
            .assert()
            .success();
        let s = common::summary(&json);
        let t: Vec<Vec<String>> = s
            .runs
            .iter()
            .map(|r| r.trace.iter().map(String::from).collect())
            .collect();
        assert!(t.iter().flatten().any(|l| l.starts_with("a?(")), "{t:?}");
        traces.push(t);
    }
    // same seed, same run
    assert_eq!(traces[0], traces[1]);
    ioco()
        .arg("test")
        .arg(&m)
        .arg("--sim")
        .arg(&mutant)
        .args(["--runs", "10", "--steps", "40", "--seed", "9"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("|d!(").and(predicate::str::contains("w > t")));
    // the explicit engine cannot enumerate the values
    ioco()
        .arg("test")
        .arg(&m)
        .arg("--sim")
        .arg(&m)
        .args(["--engine", "explicit"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("infinite data"));
}

/// `--map` renames the gates of a multi-label on the wire, for both engines and formats
/// (`A 0 | b 3`, `{"label":"A|b",...}`; the output `C 3 | d false`, `{"label":"C|d",...}`).
#[test]
fn both_engines_map_the_gates_of_a_multi_label() {
    let dir = tempfile::tempdir().unwrap();
    let m = write(dir.path(), "pairs.ioco", PAIRS);
    let sut = PAIRS_SUT
        .replace(r#"r["label"] == "a|b""#, r#"r["label"] == "A|b""#)
        .replace(r#""label": "c|d""#, r#""label": "C|d""#)
        .replace("p.split(); _, y", "p.split(); assert _ == \"A\"; _, y")
        .replace("f\"c {s} | d", "f\"C {s} | d");
    let py = write(dir.path(), "pairs.py", &sut);
    let map = write(dir.path(), "map.json", r#"{"a": "A", "c": "C"}"#);
    for engine in ["explicit", "symbolic"] {
        for (mode, flag) in [("lines", None), ("json", Some("--json-lines"))] {
            let log = dir.path().join(format!("{engine}-{mode}.log"));
            let sut = format!("python3 {} {mode} ok {}", py.display(), log.display());
            let mut cmd = ioco();
            cmd.arg("test")
                .arg(&m)
                .args(["--engine", engine, "--sut", &sut, "--map"])
                .arg(&map)
                .args(["--quiescence-marker", "#quiet"])
                .args(["--runs", "2", "--steps", "12", "--seed", "5"]);
            if let Some(f) = flag {
                cmd.arg(f);
            }
            cmd.timeout(std::time::Duration::from_secs(300))
                .assert()
                .success();
            let sent = std::fs::read_to_string(&log).unwrap();
            assert!(
                sent.lines()
                    .all(|l| l.starts_with("A ") || l.contains(r#""label":"A|b""#)),
                "{engine} {mode}: {sent}"
            );
        }
    }
}
