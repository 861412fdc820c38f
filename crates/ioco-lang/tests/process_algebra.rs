//! TorXakis's process-algebra constructs (multi-actions, `@sync`, `exit`, `>>>`, loops) on the
//! ports of TorXakis models that need them: ParallelSync, SeqEnable, Match, MatchInt,
//! DispatchProcess and ControlLoop (examples/torxakis/). Each test checks a semantic property
//! derived by hand from the TorXakis model: state counts, traces that must or must not be
//! possible, outputs after a trace, and ioco against hand-made implementations.

use ioco_lang::ir::Spec;
use ioco_lang::translate::{to_lts, Options};
use ioco_lang::{parse_file, Model};
use ioco_model::{
    compare, Alphabet, CompareOptions, InputCompletion, Label, LabelKind, Lts, LtsBuilder,
    QuiescencePolicy, Suspension,
};
use std::path::PathBuf;

fn load(file: &str) -> Model {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/torxakis")
        .join(file);
    match parse_file(&p) {
        Ok(m) => {
            assert!(
                m.warnings().is_empty(),
                "{}",
                ioco_lang::render_plain(m.warnings())
            );
            m
        }
        Err(d) => panic!("{}", ioco_lang::render_plain(&d)),
    }
}

fn spec<'a>(m: &'a Model, name: &str) -> &'a Spec {
    m.spec(name).unwrap_or_else(|| panic!("no spec {}", name))
}

fn lts(m: &Model, name: &str) -> Lts {
    to_lts(spec(m, name), &Options::default()).unwrap()
}

fn labels(l: &Lts, names: &[&str]) -> Vec<Label> {
    names
        .iter()
        .map(|n| {
            l.alphabet()
                .lookup(n)
                .unwrap_or_else(|| panic!("no label {}", n))
        })
        .collect()
}

/// The outputs (and δ) after a trace, as sorted display names; `None` if the trace is not one
/// of the model.
fn out_after(l: &Lts, trace: &[&str]) -> Option<Vec<String>> {
    let t = labels(l, trace);
    let mut sa = Suspension::new(l, QuiescencePolicy::Stable);
    let q = sa.run(&t)?;
    let mut out: Vec<String> = sa.out(q).iter().map(|x| l.alphabet().display(*x)).collect();
    out.sort();
    Some(out)
}

fn is_trace(l: &Lts, trace: &[&str]) -> bool {
    trace.iter().all(|n| l.alphabet().lookup(n).is_some()) && out_after(l, trace).is_some()
}

fn visible_labels(l: &Lts) -> Vec<String> {
    let mut v: Vec<String> = l
        .transitions()
        .filter(|(_, lab, _)| *lab != Label::TAU)
        .map(|(_, lab, _)| l.alphabet().display(lab))
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn parallel_sync_multi_actions_and_exit() {
    let m = load("parallel-sync.ioco");
    let l = lts(&m, "ParallelSync");
    // the right operand offers only POut|POut3 first: the left does POut and POut3 together
    assert_eq!(out_after(&l, &[]).unwrap(), ["POut|POut3!"]);
    assert!(!is_trace(&l, &["POut"]));
    assert!(l.alphabet().is_output(labels(&l, &["POut|POut3"])[0]));
    // then POut (third process and Head), then the three-way POut2 (while Head exits: τ)
    assert_eq!(out_after(&l, &["POut|POut3"]).unwrap(), ["POut!"]);
    assert_eq!(out_after(&l, &["POut|POut3", "POut"]).unwrap(), ["POut2!"]);
    assert_eq!(
        out_after(&l, &["POut|POut3", "POut", "POut2"]).unwrap(),
        ["POut3!"]
    );
    // the first two processes each owe POut3 (then the second POut), One and Two each take
    // POut3 (then Two POut): depending on who pairs with whom, POut3, POut or both at once
    let t4 = ["POut|POut3", "POut", "POut2", "POut3"];
    assert_eq!(
        out_after(&l, &t4).unwrap(),
        ["POut!", "POut3!", "POut|POut3!"]
    );
    // everybody exits together: the system stops (quiescent, no further step)
    for end in [
        &["POut|POut3", "POut", "POut2", "POut3", "POut|POut3"][..],
        &["POut|POut3", "POut", "POut2", "POut3", "POut3", "POut"][..],
        &["POut|POut3", "POut", "POut2", "POut3", "POut", "POut3"][..],
    ] {
        assert_eq!(out_after(&l, end).unwrap(), ["δ"], "{:?}", end);
    }
    // multi-actions not listed in @sync stay invisible (POut2 never combines)
    assert!(visible_labels(&l)
        .iter()
        .all(|x| !x.contains("POut2|") && !x.contains("|POut2")));
}

#[test]
fn enable_loops() {
    let m = load("enable.ioco");
    // (Act >-> EXIT) >>> seqEnable: act, then the exit as τ back to the start
    let l = lts(&m, "SeqEnable");
    assert_eq!(
        (l.num_states(), l.num_transitions(), l.num_tau()),
        (2, 2, 1)
    );
    assert!(is_trace(&l, &["EAct", "EAct", "EAct"]));
    // (A >-> EXIT ||| B >-> EXIT) >>> loop: both before the next round
    let l = lts(&m, "TwoEnable");
    assert_eq!((l.num_states(), l.num_transitions()), (4, 5));
    assert!(is_trace(&l, &["EA", "EB", "EB", "EA", "EA"]));
    assert!(!is_trace(&l, &["EA", "EA"]));
    assert_eq!(out_after(&l, &["EA"]).unwrap(), ["EB!"]);
    // the data versions: every round outputs the values it started with
    let l = lts(&m, "SeqEnableInt");
    assert_eq!(
        (l.num_states(), l.num_transitions(), l.num_tau()),
        (2, 2, 1)
    );
    assert!(is_trace(&l, &["ECh(31416)", "ECh(31416)", "ECh(31416)"]));
    let l = lts(&m, "SeqEnableTwoInts");
    assert_eq!((l.num_states(), l.num_transitions()), (4, 5));
    assert_eq!(out_after(&l, &[]).unwrap(), ["ECh0(20)!", "ECh1(17)!"]);
    assert!(is_trace(
        &l,
        &["ECh1(17)", "ECh0(20)", "ECh0(20)", "ECh1(17)"]
    ));
    assert!(!is_trace(&l, &["ECh0(20)", "ECh0(20)"]));
}

#[test]
fn match_hidden_partner_of_a_multi_action() {
    let m = load("match.ioco");
    // bag n in 0..2 x match n in 0..2 = 9 states; MyInA: 6, MyInB: bag>0 && match<2: 4,
    // MyOut: match>0: 6
    let l = lts(&m, "Match2");
    assert_eq!(
        (l.num_states(), l.num_transitions(), l.num_tau()),
        (9, 16, 0)
    );
    // {H, MyInB} with H hidden is the input MyInB, possible only once the bag holds something
    let mut sa = Suspension::new(&l, QuiescencePolicy::Stable);
    let init = sa.initial();
    let names = |sa: &mut Suspension, q| {
        let mut v: Vec<String> = sa
            .inputs(q)
            .iter()
            .map(|x| l.alphabet().display(*x))
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(&mut sa, init), ["MyInA?"]);
    let q = sa.run(&labels(&l, &["MyInA"])).unwrap();
    assert_eq!(names(&mut sa, q), ["MyInA?", "MyInB?"]);
    assert_eq!(out_after(&l, &["MyInA", "MyInB"]).unwrap(), ["MyOut!"]);
    assert_eq!(out_after(&l, &["MyInA", "MyInB", "MyOut"]).unwrap(), ["δ"]);

    // MatchInt: only equal values match; each match is output once
    let l = lts(&m, "MatchInt1");
    // bag empty or holding one of 11 values, times the same for the matcher
    assert_eq!(l.num_states(), 12 * 12);
    assert!(is_trace(&l, &["MyInAInt(3)", "MyInBInt(3)", "MyOutInt(3)"]));
    assert!(!is_trace(&l, &["MyInAInt(3)", "MyInBInt(4)"]));
    assert!(!is_trace(&l, &["MyInBInt(3)"]));
    assert_eq!(
        out_after(&l, &["MyInAInt(7)", "MyInBInt(7)"]).unwrap(),
        ["MyOutInt(7)!"]
    );
}

/// An implementation that takes up to `cap` jobs and finishes them one by one (inputs beyond
/// `cap` are ignored by the angelic completion).
fn job_counter(cap: u32) -> Lts {
    let mut b = LtsBuilder::new(Alphabet::new());
    b.add_states(cap as usize + 1);
    b.add_initial(0);
    for k in 0..cap {
        b.add(k, "Job", LabelKind::Input, k + 1).unwrap();
        b.add(k + 1, "Finish", LabelKind::Output, k).unwrap();
    }
    b.build().unwrap()
}

#[test]
fn dispatch_process() {
    let m = load("dispatch-process.ioco");
    assert_eq!(
        (
            lts(&m, "DisPro01").num_states(),
            lts(&m, "DisPro01").num_transitions()
        ),
        (2, 2)
    );
    // dispatcher idle/dispatch x processor idle/busy; Job2Proc needs an idle processor
    let l = lts(&m, "DisPro02");
    assert_eq!((l.num_states(), l.num_transitions()), (4, 5));
    // 2 x 2^3 states; Job? in the 8 idle states, Job2Proc: 3 x 4 (one per idle processor),
    // Finish: 2 x 12 (one per busy processor)
    for name in ["DisPro03", "DisPro04"] {
        let l = lts(&m, name);
        assert_eq!((l.num_states(), l.num_transitions()), (16, 44), "{}", name);
    }
    let spec = lts(&m, "DisPro04");
    assert_eq!(spec.num_tau(), 12);
    // up to 4 jobs in the system (3 processors and the dispatcher); each is finished
    let opts = CompareOptions {
        completion: InputCompletion::Angelic,
        ..CompareOptions::default()
    };
    assert!(compare(&job_counter(4), &spec, &opts).unwrap().conforms());
    // dropping the 4th job: after 4 jobs and 3 finishes it is quiescent, but one is left
    let c = compare(&job_counter(3), &spec, &opts).unwrap();
    let cex = c.counterexample.expect("not ioco");
    assert_eq!(cex.trace.len(), 7);

    // gcd: dispatcher idle or holding one of the 4 valid jobs, each processor idle or busy with
    // one: 5^4 = 625 states; Job 125 x 4, τ 4 x 75, Finish 5 x 300
    for name in ["DisPro07", "DisPro09"] {
        let l = lts(&m, name);
        assert_eq!(
            (l.num_states(), l.num_transitions()),
            (625, 2300),
            "{}",
            name
        );
    }
    let l = lts(&m, "DisPro07");
    assert_eq!(out_after(&l, &["Job(2,2)"]).unwrap(), ["Finish(2)!"]);
    assert_eq!(out_after(&l, &["Job(1,2)"]).unwrap(), ["Finish(1)!"]);
    assert!(!is_trace(&l, &["Job(0,1)"]), "x > 0 is required");
    let l = lts(&m, "DisPro09");
    assert_eq!(
        out_after(&l, &["Job(2,2)"]).unwrap(),
        ["Finish(1,2)!", "Finish(2,2)!", "Finish(3,2)!"]
    );

    // robust: a valid job goes to a processor, an invalid one (odd id, or x = 0) gets Error;
    // dispatcher idle, holding one of the 4 valid jobs (id 2) or answering an error, times 5^3
    let l = lts(&m, "DisPro11");
    assert_eq!(l.num_states(), 6 * 125);
    assert_eq!(
        out_after(&l, &["Job(Job11(1,1,1))"]).unwrap(),
        ["Finish(Error11)!"]
    );
    assert_eq!(
        out_after(&l, &["Job(Job11(2,0,1))"]).unwrap(),
        ["Finish(Error11)!"]
    );
    assert_eq!(
        out_after(&l, &["Job(Job11(2,1,2))"]).unwrap(),
        [
            "Finish(Out11(2,1,1))!",
            "Finish(Out11(2,2,1))!",
            "Finish(Out11(2,3,1))!"
        ]
    );

    // unique ids: Acquire ? jobid | Job ? job, with Acquire hidden and the id manager refusing
    // ids in use; the id is released after the job's Finish
    let l = lts(&m, "DisPro12");
    let j1 = "Job(JobData(1,1,1))";
    let j1b = "Job(JobData(1,2,2))";
    let j2 = "Job(JobData(2,2,2))";
    assert!(is_trace(&l, &[j1]));
    assert!(!is_trace(&l, &[j1, j1b]), "job id 1 is in use");
    assert!(is_trace(&l, &[j1, j2]));
    assert!(is_trace(&l, &[j1, "Finish(JobOut(1,1,1))", j1b]));
    assert!(is_trace(&l, &[j1, "Finish(JobOut(1,2,1))", j1b]));
    assert!(!is_trace(&l, &["Job(JobData(1,0,1))"]), "invalid job");
}

#[test]
fn control_loop() {
    let m = load("control-loop.ioco");
    let l = lts(&m, "ControlLoop");
    // an observer: every gate is an output of the system
    assert_eq!(l.alphabet().inputs().count(), 0);
    assert_eq!(
        out_after(&l, &[]).unwrap(),
        ["In_Material(0)!", "In_Material(1)!"]
    );
    assert_eq!(
        out_after(&l, &["In_Material(1)"]).unwrap(),
        ["Material(1)!"]
    );
    // after the material moves on, the production report and the measurement of the same
    // material can only be seen together (SYNC {ProduceReport | MeasureReport})
    let after = out_after(&l, &["In_Material(1)", "Material(1)"]).unwrap();
    assert!(
        after.contains(&"Out_Material(1)!".to_string()),
        "{:?}",
        after
    );
    let pair = "MeasureReport(MeasureReport(1,0))|ProduceReport(ProduceReport(1,1))";
    assert!(after.contains(&format!("{}!", pair)), "{:?}", after);
    assert!(
        after.iter().all(|x| !x.starts_with("ProduceReport(")),
        "{:?}",
        after
    );
    assert!(visible_labels(&l)
        .iter()
        .all(
            |x| !x.starts_with("ProduceReport(") && !x.starts_with("MeasureReport(")
                || x.contains('|')
        ));
    // the correction has the sign of produced minus measured value
    let t = ["In_Material(1)", "Material(1)", pair];
    let out = out_after(&l, &t).unwrap();
    assert!(
        out.contains(&"Correction(Correction(1,1))!".to_string()),
        "{:?}",
        out
    );
    assert!(
        !out.contains(&"Correction(Correction(1,0))!".to_string()),
        "{:?}",
        out
    );
    assert!(
        !out.contains(&"Correction(Correction(1,-1))!".to_string()),
        "{:?}",
        out
    );
    assert!(
        !out.contains(&"Correction(Correction(0,1))!".to_string()),
        "{:?}",
        out
    );
    // the next material is produced only after the correction
    assert!(!is_trace(
        &l,
        &[
            "In_Material(1)",
            "Material(1)",
            "In_Material(0)",
            "Material(0)"
        ]
    ));
    assert!(is_trace(
        &l,
        &[
            "In_Material(1)",
            "Material(1)",
            "In_Material(0)",
            "Out_Material(1)",
            pair,
            "Correction(Correction(1,1))",
            "Material(0)"
        ]
    ));
}

#[test]
fn loops_restart_their_processes_with_fresh_variables() {
    let src = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/13-loop-with-data.ioco"),
    )
    .unwrap();
    let m = ioco_lang::parse_str("loop.ioco", &src).unwrap();
    // n = 0, 1, 2, then the exit is the τ back to n = 0
    let l = lts(&m, "Loop");
    assert_eq!(
        (l.num_states(), l.num_transitions(), l.num_tau()),
        (3, 3, 1)
    );
    assert!(is_trace(&l, &["tick(0)", "tick(1)", "tick(0)", "tick(1)"]));
    // (Count >>> Count) >>> Nested: the first Count, the second, then both start again
    let l = lts(&m, "Nested");
    assert_eq!(
        (l.num_states(), l.num_transitions(), l.num_tau()),
        (6, 6, 2)
    );
    assert!(is_trace(
        &l,
        &["tick(0)", "tick(1)", "tick(0)", "tick(1)", "tick(0)"]
    ));
    assert!(!is_trace(&l, &["tick(0)", "tick(0)"]));
    // two counters in parallel: the round ends when both have exited
    let l = lts(&m, "Both");
    assert_eq!(
        (l.num_states(), l.num_transitions(), l.num_tau()),
        (9, 13, 1)
    );
    assert!(is_trace(
        &l,
        &["tick(0)", "tick(1)", "tock(0)", "tock(1)", "tock(0)"]
    ));
    assert!(!is_trace(&l, &["tick(0)", "tick(1)", "tick(0)"]));
}

mod algebra {
    //! Algebraic laws of the parallel composition with multi-actions, on random small models:
    //! `P |[G]| Q` and `Q |[G]| P` are the same LTS up to state names (ioco both ways, same
    //! size), and `|||` is associative.
    use super::*;
    use proptest::prelude::*;

    fn model(name: &str, sws: &[(u8, u8, u8)]) -> String {
        let mut s = format!("model {} {{\n  output a, b, c\n  init s0\n", name);
        for (from, acts, to) in sws {
            let act = if *acts == 0 {
                "tau".to_string()
            } else {
                ["a!", "b!", "c!"]
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| acts & (1 << i) != 0)
                    .map(|(_, g)| *g)
                    .collect::<Vec<_>>()
                    .join(" | ")
            };
            s.push_str(&format!("  s{} -- {} --> s{}\n", from, act, to));
        }
        s.push_str("  s0 -- a! --> s0\n}\n");
        s
    }

    fn switches() -> impl Strategy<Value = Vec<(u8, u8, u8)>> {
        proptest::collection::vec((0u8..3, 0u8..8, 0u8..3), 1..5)
    }

    fn equivalent(m: &Model, x: &str, y: &str) -> Result<(), TestCaseError> {
        let (lx, ly) = (lts(m, x), lts(m, y));
        prop_assert_eq!(
            (lx.num_states(), lx.num_transitions()),
            (ly.num_states(), ly.num_transitions())
        );
        let opts = CompareOptions::default();
        prop_assert!(compare(&lx, &ly, &opts).unwrap().conforms());
        prop_assert!(compare(&ly, &lx, &opts).unwrap().conforms());
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn parallel_composition_is_commutative(p in switches(), q in switches(), g in 0u8..8, sync in any::<bool>()) {
            let gates: Vec<&str> = ["a", "b", "c"].iter().enumerate().filter(|(i, _)| g & (1 << i) != 0).map(|(_, x)| *x).collect();
            let op = if gates.is_empty() { "|||".to_string() } else { format!("|[{}]|", gates.join(", ")) };
            let attr = if sync { "@sync(a | b, a | c, b | c, a | b | c)\n" } else { "" };
            let src = format!(
                "{}{}{}system PQ {{ P {op} Q }}\n{}system QP {{ Q {op} P }}\n",
                model("P", &p), model("Q", &q), attr, attr, op = op
            );
            let m = ioco_lang::parse_str("law.ioco", &src).map_err(|d| TestCaseError::fail(ioco_lang::render_plain(&d)))?;
            equivalent(&m, "PQ", "QP")?;
        }

        #[test]
        fn interleaving_is_associative(p in switches(), q in switches(), r in switches()) {
            let attr = "@sync(a | b, a | c, b | c, a | b | c)\n";
            let src = format!(
                "{}{}{}{}system L {{ (P ||| Q) ||| R }}\n{}system R3 {{ P ||| (Q ||| R) }}\n",
                model("P", &p), model("Q", &q), model("R", &r), attr, attr
            );
            let m = ioco_lang::parse_str("law.ioco", &src).map_err(|d| TestCaseError::fail(ioco_lang::render_plain(&d)))?;
            equivalent(&m, "L", "R3")?;
        }
    }
}
