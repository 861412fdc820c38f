//! `control-loop-sut`'s machine (`ioco_examples::control_loop`, bounded as the hand port)
//! against TorXakis's ControlLoop as hand-ported in `examples/torxakis/control-loop.ioco`,
//! decided with `ioco_model::compare` on the machine's whole LTS: the correct mode conforms,
//! every faulty mode has the counterexample its documentation names.

use ioco_examples::control_loop::{Action, Bounds, ControlLoop, ControlLoopMode};
use ioco_model::{compare, Alphabet, CompareOptions, LabelKind, Lts, LtsBuilder};
use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;

fn spec() -> Lts {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join("examples/torxakis/control-loop.ioco");
    ioco_lang::load_lts(&path).unwrap_or_else(|e| panic!("{e:?}"))
}

/// The explicit engine's name of an action: `Material(0)`,
/// `MeasureReport(MeasureReport(0,1))|ProduceReport(ProduceReport(0,-1))`.
fn label(a: &Action) -> String {
    let mut parts: Vec<String> = a
        .parts()
        .into_iter()
        .map(|(gate, values)| format!("{gate}({})", values.join(",")))
        .collect();
    parts.sort();
    parts.join("|")
}

/// The LTS of every run of `mode`: one state per machine state, a chain of fresh states for a
/// step that prints two lines.
fn lts(mode: ControlLoopMode) -> Lts {
    let mut b = LtsBuilder::new(Alphabet::new());
    let mut ids: HashMap<ControlLoop, u32> = HashMap::new();
    let start = ControlLoop::new(mode, Bounds::BOUNDED);
    let s0 = b.add_state();
    b.add_initial(s0);
    ids.insert(start.clone(), s0);
    let mut queue = VecDeque::from([start]);
    while let Some(m) = queue.pop_front() {
        let s = ids[&m];
        for (actions, next) in m.choices().into_iter().flatten() {
            let t = match ids.get(&next) {
                Some(&t) => t,
                None => {
                    let t = b.add_state();
                    ids.insert(next.clone(), t);
                    queue.push_back(next);
                    t
                }
            };
            let mut from = s;
            for (i, a) in actions.iter().enumerate() {
                let to = if i + 1 == actions.len() {
                    t
                } else {
                    b.add_state()
                };
                b.add(from, &label(a), LabelKind::Output, to).unwrap();
                from = to;
            }
        }
        assert!(ids.len() < 10_000, "too many states");
    }
    b.build().unwrap()
}

/// The shortest counterexample as `trace · observed [allowed]`, or `conforms`.
fn verdict(imp: &Lts, spec: &Lts) -> String {
    let c = compare(imp, spec, &CompareOptions::default()).unwrap();
    match c.counterexample {
        None => "conforms".into(),
        Some(cex) => {
            let a = spec.alphabet();
            let allowed: Vec<String> = cex.allowed.iter().map(|&l| a.display(l)).collect();
            format!(
                "{} · {} [{}]",
                a.display_trace(&cex.trace),
                cex.observed,
                allowed.join(" ")
            )
        }
    }
}

#[test]
fn the_modes_against_the_hand_port() {
    let spec = spec();
    let correct = lts(ControlLoopMode::Correct);
    assert_eq!(verdict(&correct, &spec), "conforms");
    // the hand port is exactly as permissive: spec ioco correct as well (every output the
    // hand port allows, the machine can give)
    assert_eq!(verdict(&spec, &correct), "conforms");
    // after the first reports (values -1 and -1, so the correction must be 0), the other
    // outputs of the iteration are still allowed beside the correction
    let reports = "MeasureReport(MeasureReport(0,-1))|ProduceReport(ProduceReport(0,-1))!";
    let after = "In_Material(0)! In_Material(1)! Out_Material(0)!";
    let expected = [
        (
            ControlLoopMode::WrongSign,
            format!(
                "In_Material(0)! Material(0)! {reports} · Correction(Correction(0,1))! \
                 [Correction(Correction(0,0))! {after}]"
            ),
        ),
        (
            ControlLoopMode::WrongId,
            format!(
                "In_Material(0)! Material(0)! {reports} · Correction(Correction(1,0))! \
                 [Correction(Correction(0,0))! {after}]"
            ),
        ),
        (
            ControlLoopMode::NoCorrection,
            format!(
                "In_Material(0)! Material(0)! In_Material(0)! {reports} Out_Material(0)! · δ \
                 [Correction(Correction(0,0))!]"
            ),
        ),
        (
            ControlLoopMode::EarlyMaterial,
            "In_Material(0)! · Out_Material(0)! [Material(0)!]".to_string(),
        ),
        (
            ControlLoopMode::SplitReports,
            format!("In_Material(0)! Material(0)! · ProduceReport(ProduceReport(0,-1))! [{after} "),
        ),
    ];
    assert_eq!(expected.len() + 1, ControlLoopMode::ALL.len());
    for (mode, want) in expected {
        let got = verdict(&lts(mode), &spec);
        if mode == ControlLoopMode::SplitReports {
            // ... and the nine multi-actions
            assert!(got.starts_with(&want), "{}: {got}", mode.name());
            assert_eq!(got.matches("|ProduceReport(").count(), 9, "{got}");
        } else {
            assert_eq!(got, want, "{}", mode.name());
        }
    }
}
