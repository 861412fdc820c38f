//! The public API on the bundled coffee machine with data (examples/coffee/coffee-sts.ioco): a
//! correct component passes; faulty ones fail with the report (wrong value, unknown output,
//! a panic inside the component); a model that does not load is an error with file:line:col.
//! Models with data: the symbolic engine (the feature `symbolic`).
#![cfg(feature = "symbolic")]

use ioco::{Action, Component, Model, Value, Verdict};

const MODEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../examples/coffee/coffee-sts.ioco"
);

#[derive(Clone, Copy, PartialEq)]
enum Fault {
    None,
    TooMuch,
    UnknownGate,
    Panic,
}

struct Machine {
    total: i64,
    state: u8,
    fault: Fault,
}

impl Machine {
    fn new(fault: Fault) -> Machine {
        Machine {
            total: 0,
            state: 0,
            fault,
        }
    }
}

impl Component for Machine {
    fn reset(&mut self) -> Vec<Action> {
        self.total = 0;
        self.state = 0;
        vec![]
    }
    fn input(&mut self, input: &Action) -> Vec<Action> {
        match (input.gate.as_str(), self.state) {
            ("water", 0) => {
                self.total += input.int(0).expect("water has a value");
                if self.total >= 150 {
                    self.state = 1;
                }
                vec![]
            }
            ("pad", 1) => {
                self.state = 2;
                vec![]
            }
            ("button", 2) => {
                let ml = self.total;
                self.total = 0;
                self.state = 0;
                match self.fault {
                    Fault::None => vec![Action::new("coffee", vec![Value::Int(ml)])],
                    Fault::TooMuch => vec![Action::new("coffee", vec![Value::Int(ml + 1)])],
                    Fault::UnknownGate => vec![Action::label("tea")],
                    Fault::Panic => panic!("out of beans"),
                }
            }
            _ => vec![],
        }
    }
}

fn model() -> Model {
    Model::from_file(MODEL).expect("the bundled model loads")
}

#[test]
fn a_correct_machine_conforms() {
    let m = model();
    assert_eq!(m.name(), "CoffeeMachine");
    let report = m
        .test()
        .runs(20)
        .steps(40)
        .seed(3)
        .run(Machine::new(Fault::None))
        .unwrap();
    assert_eq!(report.verdict(), Verdict::Pass, "{report}");
    m.test().seed(9).assert_conforms(Machine::new(Fault::None));
}

#[test]
fn a_wrong_value_fails_with_the_allowed_outputs_the_seed_and_the_shrunk_inputs() {
    let report = model()
        .test()
        .runs(20)
        .steps(40)
        .seed(3)
        .run(Machine::new(Fault::TooMuch))
        .unwrap();
    assert_eq!(report.verdict(), Verdict::Fail, "{report}");
    let text = report.text();
    assert!(text.contains("FAIL"), "{text}");
    assert!(text.contains("seed 3"), "{text}");
    assert!(
        text.contains("coffee!(c) [c >= total - 50 && c <= total]"),
        "{text}"
    );
    assert!(text.contains("shrunk"), "{text}");
    let run = report.summary.first_failure().expect("a failing run");
    assert!(run
        .failure
        .as_ref()
        .unwrap()
        .observed
        .starts_with("coffee!("));
    // the shrunk inputs still reach the fault: water until full, pad, button
    let shrunk = run.shrunk.as_ref().expect("shrunk");
    assert_eq!(shrunk.inputs.last().map(String::as_str), Some("button?"));
}

#[test]
#[should_panic(expected = "does not conform to CoffeeMachine")]
fn assert_conforms_panics_with_the_report() {
    model()
        .test()
        .seed(5)
        .assert_conforms(Machine::new(Fault::TooMuch));
}

#[test]
fn an_output_the_model_does_not_have_fails() {
    let report = model()
        .test()
        .seed(1)
        .run(Machine::new(Fault::UnknownGate))
        .unwrap();
    assert_eq!(report.verdict(), Verdict::Fail, "{report}");
    assert!(report.text().contains("no gate `tea`"), "{report}");
}

#[test]
fn a_panicking_component_ends_its_run_not_the_test() {
    let report = model()
        .test()
        .seed(1)
        .run(Machine::new(Fault::Panic))
        .unwrap();
    assert!(report.is_failure(), "{report}");
    assert!(report.text().contains("out of beans"), "{report}");
}

#[test]
fn a_model_with_errors_is_an_error_with_its_location() {
    let e = match Model::parse("model M {\n  input a\n  init s\n  s -- b? --> s\n}\n") {
        Err(e) => e.to_string(),
        Ok(_) => panic!("a model with an unknown gate loaded"),
    };
    assert!(e.contains("model.ioco:4:"), "{e}");
    assert!(Model::from_file("no/such/file.ioco").is_err());
    assert!(model().select("NoSuchModel").is_err());
    assert_eq!(model().select("CoffeeSmall").unwrap().name(), "CoffeeSmall");
}
