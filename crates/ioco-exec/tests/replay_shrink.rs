//! Replay of recorded runs (from their JSON) and shrinking of failures by delta debugging.

use ioco_exec::shrinking::{ShrinkEvent, ShrinkOptions};
use ioco_exec::{
    parse_trace, replay_inputs, replay_trace, run_online_with, shrink, OnlineOptions, RunResult,
    RunVerdict, Summary, Tester,
};
use ioco_gen::fixtures::music_player;
use ioco_model::{Alphabet, LabelKind::*, Lts, LtsBuilder, QuiescencePolicy};
use ioco_sut::inproc::{Action, Component, InProcess};
use ioco_sut::sim::{SimOptions, Simulator};
use std::sync::{Arc, Mutex};

/// a? or b?, each answered by ok!; `bad` is an output never allowed.
fn spec() -> Lts {
    let mut b = LtsBuilder::new(Alphabet::new());
    b.add_states(2);
    b.add_initial(0);
    b.add(0, "a", Input, 1).unwrap();
    b.add(0, "b", Input, 1).unwrap();
    b.add(1, "ok", Output, 0).unwrap();
    b.alphabet_mut().output("bad").unwrap();
    b.build().unwrap()
}

/// Answers ok, except for the third b, which gets `bad`.
struct ThirdB(u32);

impl Component for ThirdB {
    fn reset(&mut self) -> Vec<Action> {
        self.0 = 0;
        vec![]
    }
    fn input(&mut self, i: &Action) -> Vec<Action> {
        if i.gate == "b" {
            self.0 += 1;
            if self.0 == 3 {
                return vec![Action::label("bad")];
            }
        }
        vec![Action::label("ok")]
    }
}

#[test]
fn shrinking_finds_the_three_bs() {
    let spec = spec();
    let mut a = InProcess::new(spec.alphabet(), ThirdB(0));
    let opts = OnlineOptions {
        runs: 50,
        depth: 80,
        seed: 9,
        shrink: true,
        shrinking: ShrinkOptions {
            replays: 200,
            ..ShrinkOptions::default()
        },
        ..OnlineOptions::default()
    };
    let s = run_online_with(&spec, &opts, &mut a).unwrap();
    let r = s.first_failure().expect("the third b is found");
    assert_eq!(r.failure.as_ref().unwrap().observed, "bad!");
    let sh = r.shrunk.as_ref().expect("shrunk");
    assert_eq!(sh.inputs, vec!["b?", "b?", "b?"]);
    assert!(r.inputs().len() >= 3);
    assert_eq!(sh.failure.as_ref().unwrap().observed, "bad!");
    assert!(sh.replays >= 1);
    // the shrunk trace: b? ok! b? ok! b? bad! (with δ observations in between)
    let io: Vec<&str> = sh.trace.iter().filter(|&l| l != "δ").collect();
    assert_eq!(io, ["b?", "ok!", "b?", "ok!", "b?", "bad!"]);
}

#[test]
fn replaying_a_recorded_failure_from_json() {
    let spec = spec();
    let mut a = InProcess::new(spec.alphabet(), ThirdB(0));
    let opts = OnlineOptions {
        runs: 50,
        depth: 40,
        seed: 3,
        ..OnlineOptions::default()
    };
    let s = run_online_with(&spec, &opts, &mut a).unwrap();
    let json = serde_json::to_string(&s).unwrap();
    let back: Summary = serde_json::from_str(&json).unwrap();
    let rec: &RunResult = back.first_failure().unwrap();
    let trace = parse_trace(&spec, &rec.trace).unwrap();
    let mut tester = Tester::new(&spec, QuiescencePolicy::Stable);
    let again = replay_trace(&mut tester, &mut a, &opts, &trace, 0, rec.seed);
    assert_eq!(again.verdict, RunVerdict::Fail);
    assert_eq!(again.trace, rec.trace);
    assert_eq!(again.note, None, "a deterministic SUT does not diverge");
    // the inputs alone, with observation in between, fail too
    let inputs = parse_trace(&spec, rec.inputs()).unwrap();
    let r = replay_inputs(&mut tester, &mut a, &opts, &inputs, 0, 1);
    assert_eq!(r.verdict, RunVerdict::Fail);
    // parse errors name the step
    let err = parse_trace(&spec, ["a?", "milk!"]).unwrap_err();
    assert!(err.starts_with("step 2"), "{err}");
    assert!(parse_trace(&spec, ["ok?"])
        .unwrap_err()
        .contains("direction"));
}

#[test]
fn replay_notes_divergence_of_a_nondeterministic_sut() {
    // The conforming "full" player chooses playA!/playB! at random: replaying a trace of one
    // seed with other seeds diverges somewhere, but never fails.
    let spec = music_player::spec();
    let (_, full, _) = music_player::implementations().remove(1);
    let mut sim = Simulator::new(full, spec.alphabet(), SimOptions::default());
    let trace = parse_trace(&spec, ["shuffle?", "playA!", "done!", "δ"]).unwrap();
    let mut tester = Tester::new(&spec, QuiescencePolicy::Stable);
    let opts = OnlineOptions::default();
    let mut diverged = 0;
    for seed in 0..20 {
        let r = replay_trace(&mut tester, &mut sim, &opts, &trace, 0, seed);
        assert_eq!(r.verdict, RunVerdict::Pass, "{r:?}");
        if let Some(n) = r.note {
            assert!(n.contains("recorded playA!"), "{n}");
            diverged += 1;
        }
    }
    assert!(diverged > 0 && diverged < 20);
    // shrinking a passing run gives nothing
    let pass = RunResult::new(0, 0);
    assert!(shrink(&mut tester, &mut sim, &opts, &pass).is_none());
}

/// Shrinking is bounded (issue #20 item 6): with a budget of 3 replays the failing run is still
/// reported, its shrunk inputs fail, and they are marked not minimal with the reason; the watch
/// sees the start, every replay and the end.
#[test]
fn a_spent_shrink_budget_keeps_the_shortest_failing_inputs_so_far() {
    let spec = spec();
    let mut a = InProcess::new(spec.alphabet(), ThirdB(0));
    let events: Arc<Mutex<Vec<ShrinkEvent>>> = Arc::default();
    let seen = events.clone();
    let opts = OnlineOptions {
        runs: 50,
        depth: 80,
        seed: 9,
        shrink: true,
        shrinking: ShrinkOptions {
            replays: 3,
            watch: Some(Arc::new(move |e: &ShrinkEvent| {
                seen.lock().unwrap().push(e.clone())
            })),
            ..ShrinkOptions::default()
        },
        ..OnlineOptions::default()
    };
    let s = run_online_with(&spec, &opts, &mut a).unwrap();
    let r = s.first_failure().expect("the third b is found");
    assert_eq!(r.verdict, RunVerdict::Fail);
    let sh = r.shrunk.as_ref().expect("the first replay fails again");
    assert_eq!(sh.replays, 3);
    assert!(sh.inputs.len() <= r.inputs().len());
    assert!(
        sh.stopped
            .as_deref()
            .unwrap()
            .contains("budget of 3 replays"),
        "{sh:?}"
    );
    let ev = events.lock().unwrap();
    assert!(
        matches!(ev.first(), Some(ShrinkEvent::Start { .. })),
        "{ev:?}"
    );
    let replays = ev
        .iter()
        .filter(|e| matches!(e, ShrinkEvent::Replay { .. }))
        .count();
    assert_eq!(replays, 3);
    match ev.last() {
        Some(ShrinkEvent::Done {
            replays, stopped, ..
        }) => {
            assert_eq!(*replays, 3);
            assert!(stopped.is_some());
        }
        e => panic!("{e:?}"),
    }
    // a time budget of zero stops before the first replay: the Fail stands, not shrunk
    let opts = OnlineOptions {
        shrinking: ShrinkOptions {
            time: Some(std::time::Duration::ZERO),
            ..ShrinkOptions::default()
        },
        ..opts
    };
    let s = run_online_with(&spec, &opts, &mut a).unwrap();
    let r = s.first_failure().expect("the third b is found");
    assert_eq!(r.verdict, RunVerdict::Fail);
    assert!(r.shrunk.is_none());
    assert!(
        r.note
            .as_deref()
            .unwrap()
            .contains("not shrunk: the time budget"),
        "{r:?}"
    );
}
