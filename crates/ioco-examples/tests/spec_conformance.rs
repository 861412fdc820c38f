//! The bundled specifications against the machines behind the example programs, decided with
//! `ioco_model::compare` on the LTS of each mode (`ioco_examples::explore`): every correct mode
//! conforms, and every faulty mode has the shortest counterexample its documentation names.

use ioco_examples::{explore, Coffee, CoffeeMode, Queue, QueueMode};
use ioco_model::{compare, CompareOptions, Lts};
use std::path::PathBuf;

fn spec(rel: &str) -> Lts {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel);
    let src = std::fs::read_to_string(&path).unwrap();
    ioco_formats::aut::parse(&src, rel).unwrap_or_else(|e| panic!("{e}"))
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
fn coffee_modes_against_the_thesis_spec() {
    let spec = spec("examples/coffee/coffee.aut");
    assert_eq!(spec.num_states(), 6);
    let expected = [
        (CoffeeMode::Correct, "conforms"),
        (CoffeeMode::WrongOutput, "button? · coffee! [error!]"),
        (
            CoffeeMode::Tea,
            "water? pad? button? · tea! [coffee! error!]",
        ),
        (
            CoffeeMode::Silent,
            "water? pad? button? · δ [coffee! error!]",
        ),
        (CoffeeMode::Spontaneous, "ε · coffee! [δ]"),
        (CoffeeMode::RefusePad, "water? pad? · error! [δ]"),
        (
            CoffeeMode::Crash,
            "water? pad? button? · δ [coffee! error!]",
        ),
        (CoffeeMode::Hang, "water? pad? button? · δ [coffee! error!]"),
        (
            CoffeeMode::Garbage,
            "water? pad? button? · Here is your coffee :-)! [coffee! error!]",
        ),
        (
            CoffeeMode::Flood,
            "water? pad? button? coffee! · coffee! [δ]",
        ),
    ];
    assert_eq!(expected.len(), CoffeeMode::ALL.len());
    for (mode, want) in expected {
        let imp = explore(Coffee::new(mode), 1000).unwrap();
        assert_eq!(verdict(&imp, &spec), want, "mode {}", mode.name());
    }
}

#[test]
fn queue_modes_against_the_generated_spec() {
    let spec = spec("examples/queue/queue.aut");
    assert_eq!(spec.num_states(), 18);
    let expected = [
        (QueueMode::Correct, "conforms"),
        (QueueMode::Lifo, "enq_0? enq_1? deq? · out_1! [out_0!]"),
        (QueueMode::Drop, "enq_0? enq_0? enq_0? · δ [full!]"),
        (QueueMode::Dup, "enq_0? deq? out_0! deq? · out_0! [empty!]"),
        (QueueMode::Small, "enq_0? enq_0? · full! [δ]"),
        (QueueMode::Large, "enq_0? enq_0? enq_0? · δ [full!]"),
        (QueueMode::Crash, "deq? · δ [empty!]"),
        (QueueMode::Hang, "enq_0? enq_0? enq_0? · δ [full!]"),
    ];
    assert_eq!(expected.len(), QueueMode::ALL.len());
    for (mode, want) in expected {
        let imp = explore(Queue::new(mode), 1000).unwrap();
        assert_eq!(verdict(&imp, &spec), want, "mode {}", mode.name());
    }
}

#[test]
fn correct_coffee_machine_uses_both_allowed_outputs_and_is_finite() {
    // Every third brew says error: both outputs of s3 occur, so the LTS has cups 0, 1, 2.
    let imp = explore(Coffee::new(CoffeeMode::Correct), 1000).unwrap();
    let names = imp.state_names().unwrap();
    assert_eq!(names.iter().filter(|n| n.contains("Ready")).count(), 3);
    assert!(imp.is_deterministic());
    let a = imp.alphabet();
    for o in ["coffee", "error"] {
        let l = a.lookup(o).unwrap();
        assert!(
            imp.transitions().any(|(_, x, _)| x == l),
            "{o} never produced"
        );
    }
}

#[test]
fn queue_spec_generator_output_is_committed() {
    // The committed queue.aut is what gen_queue_aut.py writes (skip when python3 is missing).
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = std::env::temp_dir().join(format!("queue-{}.aut", std::process::id()));
    let status = std::process::Command::new("python3")
        .arg(root.join("examples/queue/gen_queue_aut.py"))
        .arg(&out)
        .status();
    match status {
        Ok(s) if s.success() => {
            let fresh = std::fs::read_to_string(&out).unwrap();
            let _ = std::fs::remove_file(&out);
            let committed = std::fs::read_to_string(root.join("examples/queue/queue.aut")).unwrap();
            assert_eq!(fresh, committed, "re-run examples/queue/gen_queue_aut.py");
        }
        _ => eprintln!("note: python3 not available, generator freshness not checked"),
    }
}
