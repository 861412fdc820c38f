//! `ioco test --purpose` and `ioco gen --purpose` end to end, with purposes written in the
//! modelling language (examples/purposes/) and the real example coffee machine
//! (examples/coffee/coffee_sut.py, the same machine and modes as the Rust `coffee-sut`),
//! correct and faulty. The SUT tests are skipped, and the skip counted, when `python3` is missing.

mod common;

use common::{ioco, summary, write};
use predicates::str::contains;

/// Labels as a run's trace holds them.
fn strs(labels: &[&str]) -> ioco_exec::Trace {
    labels.iter().collect()
}

const SPEC: &str = "examples/coffee/coffee.ioco";
const BREW: &str = "examples/purposes/coffee-brew.ioco";
const TWICE: &str = "examples/purposes/coffee-twice.ioco";

fn have_python() -> bool {
    let ok = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        // counted by scripts/test.sh (a failure under IOCO_NO_SKIP=1)
        ioco_testkit::skip("python3 is not available: the coffee SUT is not run");
    }
    ok
}

fn purpose_test(mode: &str, purpose: &str, json: &std::path::Path) -> assert_cmd::assert::Assert {
    let sut = format!("python3 examples/coffee/coffee_sut.py --mode {mode} --ack");
    ioco()
        .args(["test", SPEC, "--purpose", purpose, "--cmd", &sut])
        .args(["--quiescence-marker", "#quiet", "--timeout", "2000"])
        .args(["--runs", "3", "--depth", "20", "--seed", "7", "--json"])
        .arg(json)
        .assert()
}

#[test]
fn the_correct_machine_is_steered_to_accept() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("s.json");
    purpose_test("correct", BREW, &json)
        .code(0)
        .stderr(contains("accept reached in 3 of 3 run(s)"));
    let s = summary(&json);
    assert_eq!(s.mode, "purpose");
    assert_eq!(s.parameters["purpose"], BREW);
    assert!(s.parameters["strategy"]
        .as_str()
        .unwrap()
        .contains("towards accept"));
    for r in &s.runs {
        assert_eq!(r.verdict, ioco_exec::RunVerdict::Pass);
        // The steering chooses exactly the inputs that lead to a coffee.
        assert_eq!(r.trace, strs(&["water?", "pad?", "button?", "coffee!"]));
        assert!(r.note.as_deref().unwrap().starts_with("accept reached"));
    }
}

#[test]
fn faulty_machines_fail_on_the_way_to_the_purpose() {
    if !have_python() {
        return;
    }
    for (mode, observed) in [("tea", "tea"), ("silent", "δ"), ("refuse-pad", "error!")] {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("s.json");
        purpose_test(mode, BREW, &json)
            .code(1)
            .stdout(contains("FAIL"));
        let s = summary(&json);
        let f = s.first_failure().expect("a failing run");
        assert_eq!(
            f.failure.as_ref().unwrap().observed.trim_end_matches('!'),
            observed.trim_end_matches('!'),
            "{mode}"
        );
    }
}

#[test]
fn a_refused_purpose_is_inconclusive_not_fail() {
    // An implementation that (conformingly) always answers `error` to the button: the purpose
    // refuses every run.
    let dir = tempfile::tempdir().unwrap();
    let imp = write(
        dir.path(),
        "errors.ioco",
        "model Errors { input water, pad, button  output coffee, error  init s0\n\
         s0 -- water? --> s1  s1 -- pad? --> s2  s2 -- button? --> s3  s3 -- error! --> s0\n\
         s0 -- button? --> e0  e0 -- error! --> s0  s1 -- button? --> e1  e1 -- error! --> s0\n\
         s0 -- pad? --> s0  s1 -- water? --> s1  s2 -- water? --> s2  s2 -- pad? --> s2\n\
         s0 -- water? --> s1 }\n",
    );
    let json = dir.path().join("s.json");
    ioco()
        .args(["test", SPEC, "--purpose", BREW, "--sim"])
        .arg(&imp)
        .args(["--runs", "2", "--seed", "1", "--json"])
        .arg(&json)
        .assert()
        .code(3)
        .stderr(contains("accept reached in 0 of 2 run(s)"))
        .stderr(contains("INCONCLUSIVE"));
    // Inconclusive is not Pass: its own exit code, 0 or 1 only when asked for.
    for (as_, code) in [("pass", 0), ("fail", 1), ("own", 3)] {
        ioco()
            .args(["test", SPEC, "--purpose", BREW, "--sim"])
            .arg(&imp)
            .args(["--runs", "2", "--seed", "1", "--inconclusive", as_])
            .assert()
            .code(code);
    }
    let s = summary(&json);
    assert_eq!(s.verdict, ioco_exec::RunVerdict::Inconclusive);
    assert!(
        s.runs[0].note.as_deref().unwrap().contains("refuse"),
        "{:?}",
        s.runs[0]
    );
}

#[test]
fn a_purpose_that_cannot_be_met_is_an_error_that_says_why() {
    ioco()
        .args(["test", SPEC, "--purpose", TWICE, "--sim", SPEC])
        .assert()
        .code(2)
        .stderr(contains("cannot be met"))
        .stderr(contains("coffee-twice.ioco"));
    ioco()
        .args(["gen", SPEC, "--purpose", TWICE])
        .assert()
        .code(2)
        .stderr(contains("cannot be met"));
}

#[test]
fn gen_takes_a_purpose_in_the_modelling_language_without_method() {
    let dir = tempfile::tempdir().unwrap();
    let tc = dir.path().join("tc.json");
    ioco()
        .args(["gen", SPEC, "--purpose", BREW, "-o"])
        .arg(&tc)
        .assert()
        .code(0);
    let suite: ioco_gen::Suite =
        serde_json::from_str(&std::fs::read_to_string(&tc).unwrap()).unwrap();
    assert_eq!(suite.method, "purpose");
    let text = std::fs::read_to_string(&tc).unwrap();
    assert!(text.contains("\"pass\"") && text.contains("\"inconclusive\""));
    // The test case runs against the simulated specification without Fail.
    ioco()
        .args(["run", SPEC])
        .arg(&tc)
        .args(["--sim", SPEC])
        .assert()
        .code(0);
}

#[test]
fn a_purpose_with_an_unknown_label_is_an_error_with_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "tea.ioco",
        "model P { input water  output tea  init w  w -- tea! --> accept }\n",
    );
    ioco()
        .args(["gen", SPEC, "--purpose"])
        .arg(&p)
        .assert()
        .code(2)
        .stderr(contains("tea"));
}

// ---- Specifications with data: symbolic purposes (seed 004 Table 3, ioco-stg) ----

const STG_SPEC: &str = "examples/purposes/stg/spec.ioco";
const STG_PURPOSE: &str = "examples/purposes/stg/purpose.ioco";

/// The comparator of seed 004's running example as a shell program (wire format `gate args`,
/// `#quiet` after every reaction); OK carries p2 − p1 + `off`.
fn comparator(off: i64) -> String {
    format!(
        "sh -c 's=0; echo \"#quiet\"; while read -r g v; do case \"$s:$g\" in \
         0:Start) s=1;; 1:a) x=$v; s=2;; \
         2:a) d=$((v-x)); s=3; if [ $d -ge -2 ] && [ $d -le 2 ]; then echo \"OK $((d+{off}))\"; \
         else echo \"NOK $d\"; fi;; esac; echo \"#quiet\"; done'"
    )
}

fn stg_test(off: i64, json: &std::path::Path) -> assert_cmd::assert::Assert {
    ioco()
        .args([
            "test",
            STG_SPEC,
            "--purpose",
            STG_PURPOSE,
            "--cmd",
            &comparator(off),
        ])
        .args(["--quiescence-marker", "#quiet", "--timeout", "2000"])
        .args(["--runs", "2", "--seed", "4", "--json"])
        .arg(json)
        .assert()
}

#[test]
fn symbolic_purpose_steers_the_inputs_to_accept() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("s.json");
    stg_test(0, &json)
        .code(0)
        .stderr(contains("accept reached in 2 of 2 run(s)"));
    let s = summary(&json);
    for r in &s.runs {
        assert_eq!(r.verdict, ioco_exec::RunVerdict::Pass, "{r:?}");
        // a(p1) with p1 ≥ 6, then a(p1 + 2): the strengthened guards of the default analysis
        // (polyhedra with forward reachability on a product this small, issue #36).
        assert_eq!(r.trace, strs(&["Start?", "a?(6)", "a?(8)", "OK!(2)"]));
    }
    assert!(s.parameters["strategy"]
        .as_str()
        .unwrap()
        .contains("polyhedra, forward reachability"));
}

#[test]
fn symbolic_purpose_catches_a_faulty_comparator() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("s.json");
    stg_test(1, &json).code(1).stdout(contains("FAIL"));
    let s = summary(&json);
    let f = s.first_failure().unwrap();
    assert_eq!(f.failure.as_ref().unwrap().observed, "OK!(3)");
}

#[test]
fn gen_writes_the_symbolic_test_graph() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.json");
    ioco()
        .args(["gen", STG_SPEC, "--purpose", STG_PURPOSE, "-o"])
        .arg(&out)
        .assert()
        .code(0)
        .stderr(contains("domain: polyhedra"));
    let g: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(g["format"], "ioco-stg/1");
    let ts = g["transitions"].as_array().unwrap();
    let at = |from: &str, gate: &str| {
        ts.iter()
            .find(|t| t["from"] == from && t["gate"] == gate)
            .unwrap_or_else(|| panic!("{from} {gate}"))
            .clone()
    };
    assert_eq!(at("(RecX,Wait)", "a")["fate"], "keep");
    assert_eq!(at("(RecX,Wait)", "End")["fate"], "inconclusive");
    let guard = at("(RecY,Wait)", "a")["strengthened_guard"][0]
        .as_str()
        .unwrap()
        .to_string();
    assert!(guard.contains("p0") && guard.contains('x'), "{guard}");
}

#[test]
fn gen_with_polyhedra_keeps_the_three_variable_guard_and_forward_reach_deletes() {
    let dir = tempfile::tempdir().unwrap();
    let graph = |args: &[&str], name: &str| -> serde_json::Value {
        let out = dir.path().join(name);
        ioco()
            .args(["gen", STG_SPEC, "--purpose", STG_PURPOSE, "-o"])
            .arg(&out)
            .args(args)
            .assert()
            .code(0);
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap()
    };
    let accepting_ok = |g: &serde_json::Value| -> serde_json::Value {
        g["transitions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["from"] == "(Compare,Wait)" && t["gate"] == "OK" && t["fate"] == "keep")
            .unwrap()
            .clone()
    };
    let p = graph(&["--domain", "polyhedra"], "p.json");
    assert_eq!(p["domain"], "polyhedra");
    assert_eq!(p["forward_reach"], false);
    // The kept OK guard states p = y − x as such (three variables in one constraint).
    let guard = accepting_ok(&p)["strengthened_guard"][0]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        guard.contains("x - y + p0 ≤ 0") && guard.contains("-x + y - p0 ≤ 0"),
        "{guard}"
    );
    let o = graph(&["--domain", "octagon"], "o.json");
    assert_eq!(o["domain"], "octagon");
    let guard = accepting_ok(&o)["strengthened_guard"][0]
        .as_str()
        .unwrap()
        .to_string();
    assert!(!guard.contains("x - y + p0"), "{guard}");
    // --forward-reach: Error, NOK and the refusing OK at Compare never fire (Fig. 4).
    let f = graph(&["--domain", "polyhedra", "--forward-reach"], "f.json");
    assert_eq!(f["forward_reach"], true);
    let at_compare: Vec<&serde_json::Value> = f["transitions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["from"] == "(Compare,Wait)")
        .collect();
    assert_eq!(at_compare.len(), 5);
    let fates: Vec<&str> = at_compare
        .iter()
        .map(|t| t["fate"].as_str().unwrap())
        .collect();
    assert_eq!(
        fates.iter().filter(|f| **f == "keep").count(),
        1,
        "{fates:?}"
    );
    assert_eq!(
        fates.iter().filter(|f| **f == "unreachable").count(),
        4,
        "{fates:?}"
    );
}

#[test]
fn symbolic_purpose_steers_with_polyhedra() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("s.json");
    ioco()
        .args([
            "test",
            STG_SPEC,
            "--purpose",
            STG_PURPOSE,
            "--cmd",
            &comparator(0),
        ])
        .args(["--quiescence-marker", "#quiet", "--timeout", "2000"])
        .args([
            "--runs",
            "2",
            "--seed",
            "4",
            "--domain",
            "polyhedra",
            "--forward-reach",
        ])
        .args(["--json"])
        .arg(&json)
        .assert()
        .code(0)
        .stderr(contains("polyhedra, forward reachability analysis"))
        .stderr(contains("accept reached in 2 of 2 run(s)"));
    let s = summary(&json);
    for r in &s.runs {
        assert_eq!(r.verdict, ioco_exec::RunVerdict::Pass, "{r:?}");
        assert_eq!(r.trace, strs(&["Start?", "a?(6)", "a?(8)", "OK!(2)"]));
    }
    assert!(s.parameters["strategy"]
        .as_str()
        .unwrap()
        .contains("polyhedra"));
}

#[test]
fn an_unreachable_symbolic_purpose_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "five.ioco",
        "model P { input Start, a(p: int)  output End, Error(p: int), OK(p: int), NOK(p: int)\n\
         init w  w -- OK!(p) [p == 5] --> accept }\n",
    );
    ioco()
        .args(["gen", STG_SPEC, "--purpose"])
        .arg(&p)
        .assert()
        .code(2)
        .stderr(contains("cannot be met"));
}

#[test]
fn a_purpose_over_the_bounded_queue_is_met_in_order() {
    // examples/queue/queue.ioco has a recursive list variable: the symbolic engine tests it
    // when asked (by default the explicit engine does: the bounded queue reaches finitely
    // many values), against the model itself simulated by the solver.
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("s.json");
    let queue = "examples/queue/queue.ioco";
    // the symbolic engine when asked, the explicit one by default: the same accepts
    for (engine, ins, last) in [
        (
            &["--engine", "symbolic"][..],
            ["Enq?(0)", "Enq?(1)"],
            "Value!(0)",
        ),
        (&[][..], ["Enq(0)?", "Enq(1)?"], "Value(0)!"),
    ] {
        ioco()
            .args([
                "test",
                queue,
                "--purpose",
                "examples/purposes/queue-order.ioco",
            ])
            .args(["--sim", queue, "--runs", "3", "--seed", "2"])
            .args(engine)
            .arg("--json")
            .arg(&json)
            .assert()
            .code(0)
            .stderr(contains("accept reached in 3 of 3 run(s)"));
        for r in &summary(&json).runs {
            let got: Vec<&str> = r.trace.iter().filter(|l| l.starts_with("Enq")).collect();
            assert_eq!(got, ins, "{engine:?}: {:?}", r.trace);
            assert_eq!(r.trace.last(), Some(last));
        }
    }
}

const ADDER_TYPES: &str =
    "type Operation = Plus { p1: int, p2: int } | Minus { m1: int, m2: int }\n";

/// The adder with a data-typed input, `Result` after every operation; `plus_result: false`
/// is the mutant that never answers a `Plus`.
fn adder(plus_result: bool) -> String {
    let back = if plus_result {
        "s1 -- Result!(=opn.p1 + opn.p2) --> s0"
    } else {
        ""
    };
    format!(
        "{ADDER_TYPES}model adder {{
  input Action(p1: Operation)
  output Result(p1: int)
  var opn: Operation = Plus(0, 0)
  init s0
  s0 -- Action?(o) [o is Plus] {{ opn = o }} --> s1
  s0 -- Action?(o) [o is Minus] {{ opn = o }} --> s2
  s2 -- Result!(=opn.m1 - opn.m2) --> s0
  {back}
}}
"
    )
}

/// A purpose over a data-typed input parameter: the values of `Operation` are chosen by the
/// solver inside the purpose's guard (`x is Plus`), the analysis over-approximates it.
#[test]
fn a_data_typed_purpose_is_met_and_a_mutant_never_passes() {
    let dir = tempfile::tempdir().unwrap();
    let spec = write(dir.path(), "sa.ioco", &adder(true));
    let mutant = write(dir.path(), "mutant.ioco", &adder(false));
    let purpose = write(
        dir.path(),
        "pa.ioco",
        &format!(
            "{ADDER_TYPES}model P {{
  input Action(p1: Operation)
  output Result(p1: int)
  init s0
  s0 -- Action?(x) [x is Plus] --> s1
  s1 -- Result!(r) --> accept
}}
"
        ),
    );
    let json = dir.path().join("s.json");
    for domain in ["interval", "octagon", "polyhedra"] {
        ioco()
            .arg("test")
            .arg(&spec)
            .arg("--purpose")
            .arg(&purpose)
            .arg("--sim")
            .arg(&spec)
            .args(["--domain", domain, "--runs", "3", "--seed", "1", "--json"])
            .arg(&json)
            .assert()
            .code(0)
            .stderr(contains("accept reached in 3 of 3 run(s)"));
        for r in &summary(&json).runs {
            assert_eq!(r.verdict, ioco_exec::RunVerdict::Pass, "{r:?}");
            let t = r.trace.to_strings();
            assert!(t[0].starts_with("Action?(Plus("), "{r:?}");
            assert!(t[1].starts_with("Result!("), "{r:?}");
        }
    }
    // An implementation that never answers a Plus: quiescence where the spec says Result.
    ioco()
        .arg("test")
        .arg(&spec)
        .arg("--purpose")
        .arg(&purpose)
        .arg("--sim")
        .arg(&mutant)
        .args(["--runs", "3", "--seed", "1", "--json"])
        .arg(&json)
        .assert()
        .code(1)
        .stdout(contains("FAIL"));
    assert!(summary(&json)
        .runs
        .iter()
        .all(|r| r.verdict == ioco_exec::RunVerdict::Fail));
    // A specification that never answers a Plus: the purpose cannot be met, never a Pass
    // (the analysis cannot tell Plus from Minus, so the runs end Inconclusive).
    ioco()
        .arg("test")
        .arg(&mutant)
        .arg("--purpose")
        .arg(&purpose)
        .arg("--sim")
        .arg(&mutant)
        .args(["--runs", "3", "--seed", "1", "--depth", "12", "--json"])
        .arg(&json)
        .assert()
        .code(predicates::ord::ne(0));
    assert!(summary(&json)
        .runs
        .iter()
        .all(|r| r.verdict == ioco_exec::RunVerdict::Inconclusive));
}

/// A string-typed input parameter is chosen by the solver inside the purpose's guard too.
#[test]
fn a_string_typed_purpose_is_met() {
    let dir = tempfile::tempdir().unwrap();
    let spec = write(
        dir.path(),
        "login.ioco",
        "model login {
  input user(name: string)
  output ok(n: int)
  output no
  init s0
  s0 -- user?(u) [u == \"root\"] --> s1
  s0 -- user?(u) [u != \"root\"] --> s2
  s1 -- ok!(=1) --> s0
  s2 -- no! --> s0
}
",
    );
    let purpose = write(
        dir.path(),
        "p.ioco",
        "model P {
  input user(name: string)
  output ok(n: int)
  init w
  w -- user?(u) [u == \"root\"] --> v
  v -- ok!(n) --> accept
}
",
    );
    let json = dir.path().join("s.json");
    ioco()
        .arg("test")
        .arg(&spec)
        .arg("--purpose")
        .arg(&purpose)
        .arg("--sim")
        .arg(&spec)
        .args(["--runs", "2", "--seed", "1", "--json"])
        .arg(&json)
        .assert()
        .code(0)
        .stderr(contains("accept reached in 2 of 2 run(s)"));
    for r in &summary(&json).runs {
        assert_eq!(r.trace.to_strings(), ["user?(\"root\")", "ok!(1)"], "{r:?}");
    }
}
