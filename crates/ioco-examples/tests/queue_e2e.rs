//! End to end: ioco-exec's online tester against the real `queue-sut` binary, every mode.
//! The correct queue never fails; every faulty one is caught with the expected kind of
//! counterexample; crash and hang end in a verdict in bounded time with no process left behind.

mod common;

use common::*;
use ioco_examples::{explore, Queue, QueueMode};
use ioco_exec::{OnlineOptions, RunResult, RunVerdict};
use ioco_model::Lts;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_queue-sut");
const SPEC: &str = "examples/queue/queue.aut";

#[test]
fn correct_queue_never_fails() {
    let spec = spec(SPEC);
    for seed in [1, 2] {
        let s = session(&spec, &[BIN, "--mode", "correct"], &options(30, 50, seed));
        assert_eq!(s.summary.runs.len(), 30);
        assert_eq!(
            s.summary.verdict,
            RunVerdict::Pass,
            "{}",
            ioco_report_text(&s.summary)
        );
        let c = &s.summary.coverage;
        assert_eq!((c.states_visited, c.states_total), (18, 18), "{c:?}");
        s.assert_no_process_left();
    }
}

/// Test `mode`, check the generic properties of its failure, and hand the failing run to
/// `check` for the mode-specific ones.
fn caught(mode: QueueMode, opts: &OnlineOptions, check: impl Fn(&RunResult, &[String])) {
    let spec: Lts = spec(SPEC);
    let s = session(&spec, &[BIN, "--mode", &mode.name()], opts);
    let model = explore(Queue::new(mode), 1000).unwrap();
    let r = check_run(&s, &model, &spec);
    let f = r.failure.as_ref().unwrap();
    let last_input = r.inputs().last().map(|l| l.to_string()).unwrap_or_default();
    assert!(
        r.trace.len() >= 2 || f.observed == "exit",
        "trace {:?}",
        r.trace
    );
    check(r, &[f.observed.clone(), last_input]);
    s.assert_no_process_left();
}

fn shrinking() -> OnlineOptions {
    let mut o = options(100, 50, 3);
    o.shrink = true;
    o
}

fn allowed(r: &RunResult) -> Vec<&str> {
    r.failure
        .as_ref()
        .unwrap()
        .allowed
        .iter()
        .map(String::as_str)
        .collect()
}

#[test]
fn lifo_answers_with_the_newest_value() {
    caught(QueueMode::Lifo, &shrinking(), |r, ol| {
        // out_x where out_y (y ≠ x) is required, right after a deq.
        assert_eq!(ol[1], "deq?");
        let want = if ol[0] == "out_0!" {
            "out_1!"
        } else {
            "out_0!"
        };
        assert!(ol[0].starts_with("out_"), "{ol:?}");
        assert_eq!(allowed(r), [want]);
    });
}

#[test]
fn drop_loses_values() {
    caught(QueueMode::Drop, &shrinking(), |r, ol| {
        match ol[1].as_str() {
            // Never full: δ where full! is required, or a missing value on deq.
            "deq?" => {
                assert!(ol[0] == "empty!" || ol[0].starts_with("out_"), "{ol:?}");
                assert!(allowed(r)[0].starts_with("out_"), "{:?}", allowed(r));
            }
            _ => {
                assert_eq!(ol[0], "δ");
                assert_eq!(allowed(r), ["full!"]);
            }
        }
    });
}

#[test]
fn dup_delivers_values_twice() {
    caught(QueueMode::Dup, &shrinking(), |r, ol| {
        match (ol[0].as_str(), ol[1].as_str()) {
            // the second copy is delivered on a deq? where empty! (or another value) is required
            (o, "deq?") => {
                assert!(o.starts_with("out_"), "{ol:?}");
                assert!(!allowed(r).contains(&"δ"));
            }
            // or it overtakes the next input, or the copies fill the queue too early
            (o, i) => {
                assert!(i.starts_with("enq_"), "{ol:?}");
                assert!(o.starts_with("out_") || o == "full!", "{ol:?}");
            }
        }
    });
}

#[test]
fn small_capacity_is_full_too_early() {
    caught(QueueMode::Small, &shrinking(), |r, ol| {
        assert!(ol[1].starts_with("enq_"), "{ol:?}");
        assert_eq!(ol[0], "full!");
        assert_eq!(allowed(r), ["δ"]);
    });
}

#[test]
fn large_capacity_is_not_full_when_it_should_be() {
    caught(QueueMode::Large, &shrinking(), |r, ol| {
        assert!(ol[1].starts_with("enq_"), "{ol:?}");
        assert_eq!(ol[0], "δ");
        assert_eq!(allowed(r), ["full!"]);
    });
}

#[test]
fn crash_on_empty_deq_is_a_failure_with_the_exit_status() {
    caught(QueueMode::Crash, &shrinking(), |r, ol| {
        assert_eq!(ol[0], "exit");
        assert_eq!(r.trace.last(), Some("deq?"));
        assert_eq!(allowed(r), ["empty!"]);
        let reason = &r.failure.as_ref().unwrap().reason;
        assert!(reason.contains("exited with status 101"), "{reason}");
        let err = r.stderr.as_deref().unwrap_or_default();
        assert!(err.contains("index out of bounds"), "stderr: {err}");
    });
}

#[test]
fn hang_on_full_enq_is_quiescence_by_timeout() {
    let mut opts = options(100, 50, 3);
    opts.quiescence_timeout = Duration::from_millis(1000);
    let t0 = std::time::Instant::now();
    caught(QueueMode::Hang, &opts, |r, ol| {
        assert!(ol[1].starts_with("enq_"), "{ol:?}");
        assert_eq!(ol[0], "δ");
        assert_eq!(allowed(r), ["full!"]);
        assert_eq!(r.trace.last(), Some("δ"));
    });
    assert!(
        t0.elapsed() < Duration::from_secs(60),
        "took {:?}",
        t0.elapsed()
    );
}
