//! The adapter-based SUL over an in-process `ioco-exec` component (the same `Sut` contract
//! as a child process): outputs found as they come, reactions of several outputs, quiescence,
//! start-up outputs; the learned model as an ioco specification; nondeterminism; budgets.

use ioco_exec::online::{test_component, OnlineOptions};
use ioco_exec::RunVerdict;
use ioco_learn::{
    learn_with, lts, Budget, LearnError, Limits, MakeAdapter, Options, System, QUIESCENCE,
};
use ioco_sut::inproc::{Action, Component, InProcess};
use ioco_sut::Sut;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

/// Says hello at start-up; `coin` is silent, `button` after a coin gives coffee and change,
/// `button` without one gives error. With `bug`, the second coffee comes without change.
#[derive(Clone)]
struct Vending {
    paid: bool,
    cups: u32,
    bug: bool,
}

impl Component for Vending {
    fn reset(&mut self) -> Vec<Action> {
        self.paid = false;
        self.cups = 0;
        vec![Action::label("hello")]
    }
    fn input(&mut self, input: &Action) -> Vec<Action> {
        match (input.gate.as_str(), self.paid) {
            ("coin", _) => {
                self.paid = true;
                vec![]
            }
            ("button", true) => {
                self.paid = false;
                self.cups += 1;
                if self.bug && self.cups == 2 {
                    vec![Action::label("coffee")]
                } else {
                    vec![Action::label("coffee"), Action::label("change")]
                }
            }
            _ => vec![Action::label("error")],
        }
    }
}

fn maker<C: Component + Clone + Send + 'static>(
    c: C,
    made: Arc<AtomicU32>,
) -> MakeAdapter<'static> {
    Box::new(move |alphabet| {
        made.fetch_add(1, Ordering::SeqCst);
        Ok(Box::new(InProcess::new(alphabet, c.clone())) as Box<dyn Sut>)
    })
}

fn inputs(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

#[test]
fn outputs_are_found_and_the_learned_lts_is_a_spec_the_component_passes_and_a_bug_fails() {
    let made = Arc::new(AtomicU32::new(0));
    let v = Vending {
        paid: false,
        cups: 0,
        bug: false,
    };
    let sul = System::new(
        &inputs(&["coin", "button"]),
        &[],
        maker(v.clone(), made.clone()),
        Limits::default(),
    );
    let (learned, sul) = learn_with(sul, &Options::default(), &mut |_| {}).unwrap();
    assert!(learned.verified);
    assert_eq!(learned.machine.num_states(), 2);
    let mut outs = learned.machine.outputs.clone();
    outs.sort();
    assert_eq!(outs, vec!["", "coffee\nchange", "error"]);
    assert!(outs.contains(&QUIESCENCE.to_string()));
    assert_eq!(sul.startup(), vec!["hello"]);
    // hello, error, coffee, change: each new output remade the adapter once
    assert_eq!(sul.remade, 4);
    assert_eq!(made.load(Ordering::SeqCst), 5);
    assert!(!lts::is_plain(&learned.machine, &sul.startup()));

    let spec = lts::to_lts(&learned.machine, &sul.startup()).unwrap();
    let opts = OnlineOptions {
        runs: 30,
        depth: 20,
        seed: 7,
        ..OnlineOptions::default()
    };
    let pass = test_component(&spec, v.clone(), &opts).unwrap();
    assert_eq!(pass.verdict, RunVerdict::Pass);
    let fail = test_component(&spec, Vending { bug: true, ..v }, &opts).unwrap();
    assert_eq!(fail.verdict, RunVerdict::Fail);
}

/// Answers `a` with `even` or `odd` by the number of inputs since it was made (resets do not
/// reset it): a word asked twice gets two answers.
#[derive(Clone)]
struct Flip(Arc<AtomicU32>);

impl Component for Flip {
    fn reset(&mut self) -> Vec<Action> {
        vec![]
    }
    fn input(&mut self, _: &Action) -> Vec<Action> {
        let n = self.0.fetch_add(1, Ordering::SeqCst);
        vec![Action::label(if n.is_multiple_of(2) {
            "even"
        } else {
            "odd"
        })]
    }
}

#[test]
fn a_nondeterministic_component_is_an_error_naming_the_word() {
    let sul = System::new(
        &inputs(&["a"]),
        &["even".to_string(), "odd".to_string()],
        maker(
            Flip(Arc::new(AtomicU32::new(0))),
            Arc::new(AtomicU32::new(0)),
        ),
        Limits::default(),
    );
    let opts = Options {
        repetitions: 2,
        ..Options::default()
    };
    match learn_with(sul, &opts, &mut |_| {}) {
        Err(LearnError::Nondeterministic {
            inputs,
            first,
            second,
        }) => {
            assert_eq!(inputs, vec!["a"]);
            assert_eq!((first, second), (vec!["even".into()], vec!["odd".into()]));
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("learned a nondeterministic component"),
    }
}

#[test]
fn a_spent_budget_gives_the_hypothesis_so_far_unverified() {
    let Some(corpus) = ioco_testkit::corpus() else {
        return;
    };
    let dot = corpus.join("mealy-aalpy/TCP/TCP_Linux_Client.dot");
    let m = match ioco_formats::load(&dot).unwrap() {
        ioco_formats::Model::Mealy(m) => m,
        _ => unreachable!(),
    };
    let opts = Options {
        budget: Budget {
            max_resets: Some(50),
            max_time: None,
        },
        ..Options::default()
    };
    let system = || System::mealy(m.clone(), &m.inputs).unwrap();
    let (l, _) = learn_with(system(), &opts, &mut |_| {}).unwrap();
    assert!(!l.verified);
    assert_eq!(l.stats.resets, 50);
    assert!(l
        .unverified_because
        .unwrap()
        .contains("query budget of 50 runs"));
    assert!(l.machine.num_states() >= 1 && l.machine.num_states() <= 15);
    // the same seed gives the same run
    let (again, _) = learn_with(system(), &opts, &mut |_| {}).unwrap();
    assert_eq!(again.machine, l.machine);
    assert_eq!(again.stats.symbols, l.stats.symbols);
}
