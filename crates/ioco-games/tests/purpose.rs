//! Test purposes (seed 004 Table 2) on a finite version of the paper's running example
//! (Figs 1–5, rebuilt in the note §B3): two inputs a(p1), a(p2) with values in 0..=9, then
//! OK(p2−p1) when |p2−p1| ≤ 2, else NOK(p2−p1); End! may end it early. The purpose accepts the
//! first OK(2) after x = p1 ≥ 6 and refuses NOK and every other OK.

mod common;
use common::*;
use ioco_games::*;
use ioco_gen::{TestCase, Verdict};
use ioco_model::{
    Alphabet, Label, LabelKind, Lts, LtsBuilder, QuiescencePolicy, SuspensionAutomaton,
};

fn diff_label(ok: bool, d: i32) -> String {
    let n = if d < 0 {
        format!("m{}", -d)
    } else {
        d.to_string()
    };
    format!("{}{n}", if ok { "OK" } else { "NOK" })
}

/// The specification LTS; `mutant`: Cmp(6,8) says OK(1) instead of OK(2).
fn spec(mutant: bool) -> Lts {
    let mut names = vec![
        "Idle".to_string(),
        "RecX".into(),
        "End".into(),
        "WaitX".into(),
    ];
    let rec_y = |x: u32| 4 + x;
    let cmp = |x: u32, y: u32| 14 + 10 * x + y;
    names.extend((0..10).map(|x| format!("RecY{x}")));
    for x in 0..10 {
        for y in 0..10 {
            names.push(format!("Cmp{x}_{y}"));
        }
    }
    let mut b = LtsBuilder::new(Alphabet::new());
    b.add_states(names.len());
    b.add_initial(0);
    b.add(0, "Start", LabelKind::Input, 1).unwrap();
    b.add(0, "End", LabelKind::Output, 2).unwrap();
    b.add(1, "End", LabelKind::Output, 2).unwrap();
    for x in 0..10 {
        b.add(1, &format!("a{x}"), LabelKind::Input, rec_y(x))
            .unwrap();
        for y in 0..10 {
            b.add(rec_y(x), &format!("a{y}"), LabelKind::Input, cmp(x, y))
                .unwrap();
            let mut d = y as i32 - x as i32;
            if mutant && (x, y) == (6, 8) {
                d = 1;
            }
            if d.abs() <= 2 {
                b.add(cmp(x, y), &diff_label(true, d), LabelKind::Output, 3)
                    .unwrap();
            } else {
                b.add(cmp(x, y), &diff_label(false, d), LabelKind::Output, 2)
                    .unwrap();
            }
        }
    }
    // Make sure every OK/NOK label exists (the purpose mentions them all).
    for d in -9i32..=9 {
        let ok = d.abs() <= 2;
        b.alphabet_mut()
            .intern(&diff_label(ok, d), LabelKind::Output)
            .unwrap();
    }
    b.set_state_names(names);
    b.build().unwrap()
}

fn purpose() -> Purpose {
    let mut b = LtsBuilder::new(Alphabet::new());
    let names = ["wait", "hi", "lo", "accept", "refuse"];
    b.add_states(names.len());
    b.add_initial(0);
    for x in 0..10 {
        b.add(
            0,
            &format!("a{x}"),
            LabelKind::Input,
            if x >= 6 { 1 } else { 2 },
        )
        .unwrap();
    }
    for d in -9i32..=9 {
        let l = diff_label(d.abs() <= 2, d);
        b.add(1, &l, LabelKind::Output, if d == 2 { 3 } else { 4 })
            .unwrap();
        b.add(2, &l, LabelKind::Output, 4).unwrap();
    }
    b.set_state_names(names.iter().map(|s| s.to_string()).collect());
    Purpose::from_lts(b.build().unwrap()).unwrap()
}

fn sa_of(l: &Lts) -> Lts {
    SuspensionAutomaton::build(l, QuiescencePolicy::Stable).lts
}

fn pstate(p: &PurposeProduct, spec_sa: &Lts, s: &str, tp: &str) -> u32 {
    let tp_idx = ["wait", "hi", "lo", "accept", "refuse"]
        .iter()
        .position(|x| *x == tp)
        .unwrap() as u32;
    let s = st(spec_sa, &format!("{{{s}}}"));
    p.pairs.iter().position(|&x| x == (s, tp_idx)).unwrap() as u32
}

#[test]
fn table_2_coreach_inputs_and_inconclusive_outputs() {
    let spec_sa = sa_of(&spec(false));
    let p = PurposeProduct::build(&spec_sa, &purpose(), &PurposeOptions::default()).unwrap();
    let a = p.lts.alphabet();
    let names = |ls: Vec<Label>| ls.into_iter().map(|l| a.display(l)).collect::<Vec<_>>();
    // Fig. 4/5: at RecX only a(p) with p ≥ 6 that can still reach OK(2) within 0..=9 is kept.
    let rec_x = pstate(&p, &spec_sa, "RecX", "wait");
    assert_eq!(names(p.kept_inputs(rec_x)), vec!["a6?", "a7?"]);
    // At RecY only a(x+2) is kept (the relation y = x + 2 of the polyhedra analysis).
    assert_eq!(
        names(p.kept_inputs(pstate(&p, &spec_sa, "RecY6", "hi"))),
        vec!["a8?"]
    );
    assert_eq!(
        names(p.kept_inputs(pstate(&p, &spec_sa, "RecY7", "hi"))),
        vec!["a9?"]
    );
    assert!(!p.in_coreach(pstate(&p, &spec_sa, "RecY8", "hi")));
    assert!(!p.in_coreach(pstate(&p, &spec_sa, "RecY3", "lo")));
    // ?End → inconc from Idle and RecX (Fig. 5).
    let idle = pstate(&p, &spec_sa, "Idle", "wait");
    assert_eq!(names(p.inconclusive_outputs(idle)), vec!["End!"]);
    assert_eq!(names(p.inconclusive_outputs(rec_x)), vec!["End!"]);
    // Under ND the system may end the session twice (End! races Start? and a?): two jokers.
    assert_eq!(p.jokers, 2);
    // Online steering from the initial state.
    assert_eq!(p.advise(0), Advice::Stimulate(a.lookup("Start").unwrap()));
    let Step::Continue(q) = p.step(0, a.lookup("End").unwrap()) else {
        panic!()
    };
    assert!(matches!(
        p.advise(q),
        Advice::Stop(Verdict::Inconclusive, _)
    ));
    assert!(matches!(
        p.step(0, a.lookup("OK2").unwrap()),
        Step::Stop(Verdict::Fail, _)
    ));
    // Under IE the tester can force Pass.
    let ie = PurposeProduct::build(
        &spec_sa,
        &purpose(),
        &PurposeOptions {
            assumption: Assumption::InputEager,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(ie.jokers, 0);
}

#[test]
fn the_test_case_and_its_runs() {
    let spec_lts = spec(false);
    let spec_sa = sa_of(&spec_lts);
    let tc = purpose_test(&spec_sa, &purpose()).unwrap();
    tc.validate().unwrap();
    // Start? [End! → inconc]; a6? [End! → inconc]; a8?; observe OK2! → pass, rest → fail.
    let TestCase::Stimulate {
        input,
        after,
        branches,
        otherwise,
    } = &tc
    else {
        panic!("{tc:?}")
    };
    assert_eq!(input, "Start?");
    assert_eq!(*otherwise, Verdict::Fail);
    assert_eq!(branches.len(), 1);
    assert!(matches!(
        branches[0].then,
        TestCase::Leaf {
            verdict: Verdict::Inconclusive,
            ..
        }
    ));
    let TestCase::Stimulate { input, after, .. } = &**after else {
        panic!()
    };
    assert_eq!(input, "a6?");
    let TestCase::Stimulate {
        input,
        after,
        branches,
        ..
    } = &**after
    else {
        panic!()
    };
    assert_eq!(input, "a8?");
    assert!(branches.is_empty());
    let TestCase::Observe {
        branches,
        otherwise,
    } = &**after
    else {
        panic!()
    };
    assert_eq!(*otherwise, Verdict::Fail);
    assert_eq!(branches.len(), 1);
    assert_eq!(branches[0].label, "OK2!");
    assert!(matches!(
        branches[0].then,
        TestCase::Leaf {
            verdict: Verdict::Pass,
            ..
        }
    ));

    // Against the specification itself (angelically completed): never Fail, Pass reachable,
    // Inconclusive only when End! overtakes.
    let runs = explore(
        &tc,
        &spec_lts,
        QuiescencePolicy::Stable,
        Assumption::Nondeterministic,
        1000,
    );
    assert!(runs.iter().all(|r| r.verdict != Verdict::Fail), "{runs:?}");
    assert!(runs.iter().any(|r| r.verdict == Verdict::Pass));
    assert!(runs
        .iter()
        .filter(|r| r.verdict == Verdict::Inconclusive)
        .all(|r| r.trace.last().unwrap() == "End!"));
    // Input-eager resolution: always Pass.
    let runs = explore(
        &tc,
        &spec_lts,
        QuiescencePolicy::Stable,
        Assumption::InputEager,
        1000,
    );
    assert!(runs.iter().all(|r| r.verdict == Verdict::Pass), "{runs:?}");
    // The mutant answers OK(1) for (6, 8): caught.
    let runs = explore(
        &tc,
        &spec(true),
        QuiescencePolicy::Stable,
        Assumption::InputEager,
        1000,
    );
    assert!(runs.iter().all(|r| r.verdict == Verdict::Fail), "{runs:?}");
}

#[test]
fn purpose_errors() {
    let spec_sa = sa_of(&spec(false));
    // A label the specification does not have.
    let bad = lts(&[("wait", "OK22!", "accept")]);
    let e = PurposeProduct::build(
        &spec_sa,
        &Purpose::from_lts(bad).unwrap(),
        &Default::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("OK22!"), "{e}");
    // No accept state.
    let e = Purpose::from_lts(lts(&[("wait", "OK2!", "done")])).unwrap_err();
    assert!(e.to_string().contains("accept"), "{e}");
    // Nondeterministic purpose.
    let e = Purpose::from_lts(lts(&[
        ("wait", "OK2!", "accept"),
        ("wait", "OK2!", "refuse"),
    ]))
    .unwrap_err();
    assert!(e.to_string().contains("two OK2!-transitions"), "{e}");
    // A purpose that cannot be met: OK(2) right after Start is impossible.
    let never = lts(&[
        ("w", "Start?", "w2"),
        ("w2", "a0?", "refuse"),
        ("w2", "a1?", "refuse"),
        ("w2", "a2?", "refuse"),
        ("w2", "a3?", "refuse"),
        ("w2", "a4?", "refuse"),
        ("w2", "a5?", "refuse"),
        ("w2", "a6?", "refuse"),
        ("w2", "a7?", "refuse"),
        ("w2", "a8?", "refuse"),
        ("w2", "a9?", "refuse"),
        ("w2", "End!", "refuse"),
        ("w2", "OK2!", "accept"),
    ]);
    let e = purpose_test(&spec_sa, &Purpose::from_lts(never).unwrap()).unwrap_err();
    assert!(matches!(e, PurposeError::CannotBeMet(_)), "{e}");
}
