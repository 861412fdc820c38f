//! A `#[test]` as a user writes one: the bundled coffee machine, a real program
//! (`coffee-sut`, built from crates/ioco-examples), against its model
//! (`examples/coffee/coffee.ioco`), with options (seed, runs, steps, jobs, a time-out, a
//! quiescence marker) and the HTML and JSON reports written when it does not conform. The
//! README's example is this file's first test.

use ioco::{Engine, Model, Program, Verdict};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

/// The example programs of crates/ioco-examples, built once into this target directory (the
/// same command as the CLI's tests, so the two share the build).
fn example(name: &str) -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    let dir = BUILT.get_or_init(|| {
        // target/debug/deps/program-HASH → target/debug
        let exe = std::env::current_exe().expect("the test's path");
        let dir = exe.parent().and_then(Path::parent).expect("target/PROFILE");
        let target = dir.parent().expect("target");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut cmd = std::process::Command::new(cargo);
        cmd.args(["build", "-q", "-p", "ioco-examples", "--bins"])
            .env("CARGO_TARGET_DIR", target)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        if dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        let st = cmd.status().expect("cargo build");
        assert!(st.success(), "building the example programs failed");
        dir.to_path_buf()
    });
    dir.join(name)
}

fn coffee_model() -> Model {
    Model::from_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/coffee/coffee.ioco"
    ))
    .expect("the bundled model loads")
}

fn reports() -> PathBuf {
    // a folder of this test binary's own under the target directory
    let exe = std::env::current_exe().expect("the test's path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/PROFILE")
        .join("ioco-reports")
}

#[test]
fn the_coffee_machine_program_conforms() {
    let coffee_sut = example("coffee-sut");
    let model = Model::from_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/coffee/coffee.ioco"
    ))
    .unwrap();
    // the program prints `#quiet` whenever it waits for input: quiescence without waiting
    let machine = Program::new(&coffee_sut)
        .arg("--ack")
        .quiescence_marker("#quiet");
    model
        .test()
        .runs(20)
        .steps(40)
        .seed(7)
        .jobs(2)
        // a slow or loaded machine gets 5 s to answer; the marker ends every wait early
        .timeout(Duration::from_secs(5))
        // when it does not conform: the HTML and JSON reports there, named in the panic
        .report_on_failure(reports())
        .assert_program_conforms(&machine);
}

#[test]
fn a_faulty_program_fails_and_writes_the_html_and_json_reports() {
    let silent = Program::new(example("coffee-sut"))
        .args(["--ack", "--mode", "silent"])
        .quiescence_marker("#quiet");
    let dir = reports().join("faulty");
    let _ = std::fs::remove_dir_all(&dir);
    let test = coffee_model()
        .test()
        .runs(20)
        .steps(50)
        .seed(7)
        .timeout(Duration::from_secs(5))
        .report_on_failure(&dir);
    let panic = catch_unwind(AssertUnwindSafe(|| test.assert_program_conforms(&silent)))
        .expect_err("a silent machine does not conform");
    let text = *panic.downcast::<String>().expect("a message");
    assert!(text.contains("does not conform to Coffee"), "{text}");
    assert!(
        text.contains("quiescence where the specification requires"),
        "{text}"
    );
    let html = dir.join("Coffee-seed7.html");
    let json = dir.join("Coffee-seed7.json");
    assert!(
        text.contains(&format!("HTML report: {}", html.display())),
        "{text}"
    );
    let page = std::fs::read_to_string(&html).expect("the HTML report");
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    assert!(page.contains(r#"data-verdict="fail""#));
    // the model's picture with the failing step of the run marked
    assert!(page.contains("<svg"), "no picture of the model");
    assert!(
        page.contains("step failing"),
        "no failing step in the sequence chart"
    );
    // the JSON is the CLI's: `ioco report` and `ioco replay` read it
    let saved = ioco_report::from_json(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(saved.verdict, Verdict::Fail);
    assert_eq!(saved.seed, 7);
    assert_eq!(saved.parameters["engine"], "explicit");
    assert!(saved.first_failure().unwrap().shrunk.is_some(), "shrunk");
    // the replay command of the page names the program and its options, as `ioco test`'s
    assert!(page.contains("ioco replay "), "no replay command");
    assert!(
        page.contains("--quiescence-marker"),
        "no marker in the replay command"
    );
    assert!(
        page.contains("--engine=explicit"),
        "no engine in the replay command"
    );
    assert_eq!(saved.replay_options[0], "--sut");
    assert!(saved.replay_options[1].ends_with("coffee-sut --ack --mode silent"));
}

#[test]
fn run_program_returns_the_report_with_the_clis_json() {
    let silent = Program::command_line(&format!(
        "{} --ack --mode silent",
        example("coffee-sut").display()
    ))
    .unwrap()
    .quiescence_marker("#quiet");
    let test = coffee_model()
        .test()
        .runs(10)
        .steps(30)
        .seed(3)
        .shrink(false);
    let report = test.run_program(&silent).unwrap();
    assert_eq!(report.verdict(), Verdict::Fail, "{report}");
    let back = ioco_report::from_json(&report.to_json()).unwrap();
    assert_eq!(back.runs.len(), report.summary.runs.len());
    assert_eq!(back.verdict, Verdict::Fail);
    // same seed, same runs (the trace is the same with two jobs too)
    let again = test.jobs(2).run_program(&silent).unwrap();
    let trace = |s: &ioco_exec::Summary| s.first_failure().map(|r| r.trace.join(" "));
    assert_eq!(trace(&report.summary), trace(&again.summary));
    // a passing report writes no file and does not panic
    let ok = Program::new(example("coffee-sut"))
        .arg("--ack")
        .quiescence_marker("#quiet");
    let passed = coffee_model().test().runs(3).run_program(&ok).unwrap();
    assert_eq!(passed.verdict(), Verdict::Pass, "{passed}");
    let dir = reports().join("passing");
    let _ = std::fs::remove_dir_all(&dir);
    passed.report_on_failure(&dir);
    assert!(!dir.exists());
    let page = dir.with_extension("html");
    passed.write_html(&page).unwrap();
    assert!(std::fs::read_to_string(&page)
        .unwrap()
        .contains(r#"data-verdict="pass""#));
}

#[test]
fn bad_options_are_errors_that_say_what_to_do() {
    let m = coffee_model();
    let ok = Program::new(example("coffee-sut"));
    let err = |r: Result<ioco::Report, ioco::Error>| match r {
        Err(e) => e.to_string(),
        Ok(r) => panic!("accepted: {r}"),
    };
    let e = err(m
        .test()
        .timeout_gate("cofee", Duration::from_millis(10))
        .run_program(&ok));
    assert!(e.contains("timeout_gate(\"cofee\", ..)"), "{e}");
    assert!(e.contains("coffee"), "{e}");
    let e = err(m
        .test()
        .timeout_location("s9", Duration::from_millis(10))
        .run_program(&ok));
    assert!(e.contains("no location `s9`"), "{e}");
    let e = err(m.test().runs(0).run_program(&ok));
    assert!(e.contains("at least 1"), "{e}");
    let e = err(m.test().engine(Engine::Explicit).jobs(2).run(Nothing));
    assert!(e.contains("run_with"), "{e}");
    // a program that does not start: the verdict Error, as `ioco test` gives it
    let r = m
        .test()
        .run_program(&Program::new("/no/such/program").quiescence_marker("#quiet"))
        .unwrap();
    assert_eq!(r.verdict(), Verdict::Error, "{r}");
    assert!(r.text().contains("/no/such/program"), "{r}");
}

/// A component that never answers.
struct Nothing;
impl ioco::Component for Nothing {
    fn reset(&mut self) -> Vec<ioco::Action> {
        vec![]
    }
    fn input(&mut self, _: &ioco::Action) -> Vec<ioco::Action> {
        vec![]
    }
}

/// With data (the symbolic engine): the coffee machine with amounts of water, a real program
/// too, with a value strategy.
#[cfg(feature = "symbolic")]
#[test]
fn a_data_program_is_tested_with_its_values() {
    let model = Model::from_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/coffee/coffee-sts.ioco"
    ))
    .unwrap();
    assert_eq!(model.engine().0, Engine::Symbolic);
    let sut = |mode: &str| {
        Program::new(example("coffee-sts-sut"))
            .args(["--ack", "--mode", mode])
            .quiescence_marker("#quiet")
    };
    let test = model
        .test()
        .runs(10)
        .steps(60)
        .seed(7)
        .values(ioco::Values::Boundary)
        .timeout(Duration::from_secs(5));
    let ok = test.run_program(&sut("correct")).unwrap();
    assert_eq!(ok.verdict(), Verdict::Pass, "{ok}");
    assert_eq!(ok.summary.parameters["values"], "boundary");
    let bad = test.run_program(&sut("wrong-value")).unwrap();
    assert_eq!(bad.verdict(), Verdict::Fail, "{bad}");
    assert!(bad.text().contains("coffee!("), "{bad}");
    let page = bad.to_html();
    assert!(page.contains("step failing"), "no failing step");
}

/// Without the feature `symbolic` (no Z3): a model without data runs, one with infinite data
/// is an error that names the feature.
#[cfg(not(feature = "symbolic"))]
#[test]
fn without_the_symbolic_feature_a_data_model_is_a_clear_error() {
    let model = Model::from_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/coffee/coffee-sts.ioco"
    ))
    .unwrap();
    let e = match model.test().run(Nothing) {
        Err(e) => e.to_string(),
        Ok(r) => panic!("ran without the symbolic engine: {r}"),
    };
    assert!(e.contains("cargo feature `symbolic`"), "{e}");
    assert!(e.contains("CoffeeMachine"), "{e}");
}
