//! Labels are gates without arguments: the label-level coffee machine
//! (examples/coffee/coffee.ioco) tested through the same API.

use ioco::{Action, Component, Model, Verdict};

/// `silent`: no error after a too early button (the fault of `coffee-sut --mode silent`).
struct Coffee {
    state: &'static str,
    silent: bool,
}

impl Component for Coffee {
    fn reset(&mut self) -> Vec<Action> {
        self.state = "s0";
        vec![]
    }
    fn input(&mut self, input: &Action) -> Vec<Action> {
        assert!(input.args.is_empty(), "labels carry no values");
        let (next, out) = match (self.state, input.gate.as_str()) {
            ("s0", "water") => ("s1", None),
            ("s1", "pad") => ("s2", None),
            ("s2", "button") => ("s0", Some("coffee")),
            ("s0" | "s1", "button") if self.silent => (self.state, None),
            ("s0" | "s1", "button") => ("s0", Some("error")),
            (s, _) => (s, None),
        };
        self.state = next;
        out.map(Action::label).into_iter().collect()
    }
}

fn model() -> Model {
    Model::from_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/coffee/coffee.ioco"
    ))
    .unwrap()
}

#[test]
fn a_label_level_machine_conforms() {
    model()
        .test()
        .runs(20)
        .steps(30)
        .seed(2)
        .assert_conforms(Coffee {
            state: "s0",
            silent: false,
        });
}

#[test]
fn a_silent_machine_fails_on_quiescence() {
    let report = model()
        .test()
        .runs(20)
        .steps(30)
        .seed(2)
        .run(Coffee {
            state: "s0",
            silent: true,
        })
        .unwrap();
    assert_eq!(report.verdict(), Verdict::Fail, "{report}");
    let failure = report
        .summary
        .first_failure()
        .and_then(|r| r.failure.clone())
        .unwrap();
    assert_eq!(failure.observed, "δ", "{report}");
    assert!(
        failure.allowed.iter().any(|a| a.starts_with("error!")),
        "{report}"
    );
}
