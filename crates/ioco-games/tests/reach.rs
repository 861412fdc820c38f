//! Reachability games on the thesis' fixtures (Ch. 5: MP3 player Fig. 5.2, printer Fig. 5.3 /
//! test case Fig. 5.4) and goal parsing.

mod common;
use common::*;
use ioco_games::*;
use ioco_gen::{Branch, TestCase, Verdict};

fn pass(reason: &str) -> TestCase {
    TestCase::leaf_because(Verdict::Pass, reason)
}

#[test]
fn mp3_label_quit_is_winnable_exactly_under_ie_and_if() {
    // From q0: play? (q1, mixed), then quit?: under IE the input wins the race with song!.
    // Under ND/OE song! loops in q1 and q3 forever, so quit? cannot be forced (Thm 5.16:
    // IE ⇔ IF and OE ⇔ ND).
    let sa = mp3();
    let goal = Goal::parse("label:quit?", &sa).unwrap();
    for a in [Assumption::InputEager, Assumption::InputFair] {
        let r = reach(&sa, &goal, a).unwrap();
        assert_eq!(r.moves, 2, "{a}");
        let suite = r.clone().into_suite();
        assert_eq!(suite.method, "reach");
        assert_eq!(suite.parameters["moves"], 2);
        let q0 = st(&sa, "q0");
        let q1 = st(&sa, "q1");
        let play = sa.alphabet().lookup("play").unwrap();
        let quit = sa.alphabet().lookup("quit").unwrap();
        assert!(
            matches!(r.strategy.moves[q0 as usize], Some(Move::Input(l)) if l == play || l == sa.alphabet().lookup("repeat").unwrap())
        );
        assert_eq!(r.strategy.moves[q1 as usize], Some(Move::Input(quit)));
        r.test.validate().unwrap();
    }
    for (a, j) in [
        (Assumption::Nondeterministic, Some(1)),
        (Assumption::OutputEager, None),
    ] {
        let e = reach(&sa, &goal, a).unwrap_err();
        let GameError::NotWinnable {
            jokers,
            explanation,
            ..
        } = &e
        else {
            panic!("{e}")
        };
        // ND: the system must let quit? win once; OE: quit? is never taken in q1/q3.
        assert_eq!(*jokers, j, "{a}");
        assert!(explanation.contains("song!"), "{explanation}");
        let msg = e.to_string();
        assert!(
            msg.contains(if j.is_some() {
                "joker"
            } else {
                "outputs first"
            }),
            "{msg}"
        );
    }
}

#[test]
fn mp3_end_of_playlist_cannot_be_forced_and_the_error_says_why() {
    let sa = mp3();
    let goal = Goal::parse("label:endPlayList!", &sa).unwrap();
    for a in Assumption::ALL {
        let e = reach(&sa, &goal, a).unwrap_err();
        let msg = e.to_string();
        // q0 is quiescent and every input leads to a state where song! can loop.
        assert!(msg.contains("from q0"), "{msg}");
        assert!(msg.contains("song!"), "{msg}");
    }
    // The joker game: ask the system once to end the playlist.
    let j = joker(&sa, &goal).unwrap();
    assert_eq!(j.jokers, 1);
    assert_eq!(j.moves, 2);
    assert!(j.joker_states.contains(&st(&sa, "q1")));
}

#[test]
fn mp3_state_goal_is_forced_under_every_assumption() {
    // q3 via repeat? (q0 → q2, quiescent) then play? (q2 → q3): no races at all.
    let sa = mp3();
    let goal = Goal::parse("state:q3", &sa).unwrap();
    for a in Assumption::ALL {
        let r = reach(&sa, &goal, a).unwrap();
        assert_eq!(r.moves, 2, "{a}");
        r.test.validate().unwrap();
        if matches!(a, Assumption::InputEager | Assumption::InputFair) {
            // play? then repeat? (through the mixed q1) is as short when inputs win races;
            // the outputs that may overtake repeat? are listed, never Fail.
            continue;
        }
        let expected = TestCase::Stimulate {
            input: "repeat?".into(),
            after: Box::new(TestCase::Stimulate {
                input: "play?".into(),
                after: Box::new(pass("goal reached: state q3")),
                branches: vec![],
                otherwise: Verdict::Fail,
            }),
            branches: vec![],
            otherwise: Verdict::Fail,
        };
        assert_eq!(r.test, expected, "{a}");
    }
}

#[test]
fn printer_fig_5_4_under_input_eager() {
    // Goal: both jobs running and one finished: {q5, q7}. Under IE the test is Fig. 5.4's t0,
    // t1, t2 (Ex. 5.10); the output printed! that overtakes scan? at t1 is excluded by IE, so
    // it is Inconclusive here, not Fail (the note's erratum to Thm 5.20 step 3: Fail would be
    // unsound), where Fig. 5.4 continues to t3.
    let sa = printer();
    let goal = Goal::parse("state:q5|state:q7", &sa).unwrap();
    let r = reach(&sa, &goal, Assumption::InputEager).unwrap();
    assert_eq!(r.moves, 3);
    let t2 = TestCase::Observe {
        branches: vec![
            Branch {
                label: "printed!".into(),
                then: pass("goal reached: state q5"),
            },
            Branch {
                label: "scanned!".into(),
                then: pass("goal reached: state q7"),
            },
        ],
        otherwise: Verdict::Fail,
    };
    let TestCase::Stimulate {
        input,
        after,
        branches,
        otherwise,
    } = &r.test
    else {
        panic!("{:?}", r.test)
    };
    // t0: print? or scan? (both symmetric); no output races in the quiescent q0.
    assert!(input == "print?" || input == "scan?");
    assert!(branches.is_empty());
    assert_eq!(*otherwise, Verdict::Fail);
    let TestCase::Stimulate {
        after: t1_after,
        branches: t1_br,
        otherwise: t1_other,
        ..
    } = &**after
    else {
        panic!()
    };
    assert_eq!(**t1_after, t2);
    assert_eq!(*t1_other, Verdict::Fail);
    assert_eq!(t1_br.len(), 1);
    assert!(
        matches!(&t1_br[0].then, TestCase::Leaf { verdict: Verdict::Inconclusive, reason: Some(r) } if r.contains("input-eager"))
    );

    // Under ND and OE the goal cannot be forced (printed! may overtake scan?), one joker.
    // Under ND the goal cannot be forced (printed! may overtake scan?): one joker. Under OE
    // scan? is never taken in q3 (nor print? in q1), so q4 is unreachable.
    for (a, j) in [
        (Assumption::Nondeterministic, Some(1)),
        (Assumption::OutputEager, None),
    ] {
        let e = reach(&sa, &goal, a).unwrap_err();
        assert!(
            matches!(e, GameError::NotWinnable { jokers, .. } if jokers == j),
            "{a}: {e}"
        );
    }
    let j = joker(&sa, &goal).unwrap();
    assert_eq!((j.jokers, j.moves), (1, 3));
    assert_eq!(
        j.joker_states,
        vec![st(&sa, "q3"), st(&sa, "q1")]
            .into_iter()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>()
    );
}

#[test]
fn goal_syntax_errors_have_columns_and_hints() {
    let sa = mp3();
    let e = Goal::parse("state:q3|label:endPlaylist", &sa).unwrap_err();
    assert_eq!(e.column, 10);
    assert!(e.message.contains("unknown label"), "{e}");
    assert!(e.hint.as_deref().unwrap().contains("endPlayList!"), "{e}");
    let e = Goal::parse("state:q9", &sa).unwrap_err();
    assert!(e.message.contains("unknown state `q9`"), "{e}");
    assert!(e.to_string().contains("did you mean"), "{e}");
    let e = Goal::parse("stat:q3", &sa).unwrap_err();
    assert!(e.to_string().contains("`state`"), "{e}");
    let e = Goal::parse("label:song?", &sa).unwrap_err();
    assert!(e.to_string().contains("song!"), "{e}");
    let e = Goal::parse("q3", &sa).unwrap_err();
    assert!(e.to_string().contains("state:"), "{e}");
    assert!(Goal::parse("", &sa).is_err());
    let g = Goal::parse(" state:q3 | label:δ ", &sa).unwrap();
    assert_eq!(g.labels, vec![ioco_model::Label::DELTA]);
}

#[test]
fn goal_state_names_of_a_determinised_lts() {
    // s0 -a?-> s1, s0 -a?-> s2, s1 -b!-> s3: the SA has the state {s1,s2}.
    let l = lts(&[("s0", "a?", "s1"), ("s0", "a?", "s2"), ("s1", "b!", "s3")]);
    let sa = ioco_model::SuspensionAutomaton::build(&l, Default::default()).lts;
    let g = Goal::parse("state:{s1,s2}", &sa).unwrap();
    assert_eq!(g.states.iter().filter(|&&b| b).count(), 1);
    // `state:s2` means every SA state that may be in s2: {s1,s2} and {s2}.
    let g = Goal::parse("state:s2", &sa).unwrap();
    assert_eq!(g.states.iter().filter(|&&b| b).count(), 2);
    // b! cannot be forced: after a?, δ is possible (s2 is quiescent).
    let goal = Goal::parse("label:b!", &sa).unwrap();
    let e = reach(&sa, &goal, Assumption::InputEager).unwrap_err();
    assert!(e.to_string().contains("δ"), "{e}");
}

#[test]
fn not_a_suspension_automaton_is_an_error() {
    let l = lts(&[("s0", "a?", "s1"), ("s0", "a?", "s2"), ("s1", "b!", "s3")]);
    let goal = Goal::parse("state:s3", &l).unwrap();
    let e = reach(&l, &goal, Assumption::InputEager).unwrap_err();
    assert!(e.to_string().contains("two a?-transitions"), "{e}");
}

#[test]
fn printer_ex_5_21_trace_sets_per_assumption() {
    // Ex. 5.21's σ1: stop when |π| ≥ 4 (3 moves made), else print? if enabled, else scan? if
    // enabled, else θ. Its test case (Thm 5.20) run against the printer itself: the maximal
    // traces (those ending in Pass) are the maximal traces of T_σ1 under each assumption.
    let sa = printer();
    let a = sa.alphabet();
    let (print, scan) = (a.lookup("print").unwrap(), a.lookup("scan").unwrap());
    let sigma = |trace: &[ioco_model::Label], q: u32| {
        if trace.len() >= 3 {
            None
        } else if sa.enables(q, print) {
            Some(Move::Input(print))
        } else if sa.enables(q, scan) {
            Some(Move::Input(scan))
        } else {
            Some(Move::Wait)
        }
    };
    let tc = trace_strategy_test(&sa, 10, &sigma).unwrap();
    tc.validate().unwrap();
    let maximal = |resolve: Assumption| {
        let mut v: Vec<String> =
            explore(&tc, &sa, ioco_model::QuiescencePolicy::Stable, resolve, 100)
                .into_iter()
                .map(|r| {
                    assert_eq!(r.verdict, Verdict::Pass);
                    r.trace.join(" ")
                })
                .collect();
        v.sort();
        v
    };
    assert_eq!(
        maximal(Assumption::Nondeterministic),
        vec![
            "print? printed! δ",
            "print? scan? printed!",
            "print? scan? scanned!"
        ]
    );
    // IE drops print?printed! and print?printed!δ; OE drops print?scan? and its extensions.
    assert_eq!(
        maximal(Assumption::InputEager),
        vec!["print? scan? printed!", "print? scan? scanned!"]
    );
    assert_eq!(maximal(Assumption::OutputEager), vec!["print? printed! δ"]);
    // A strategy that never stops is not finite.
    let forever = |_: &[ioco_model::Label], _: u32| Some(Move::Wait);
    assert!(trace_strategy_test(&sa, 5, &forever)
        .unwrap_err()
        .contains("does not stop"));
}

#[test]
fn online_play_of_a_winning_strategy_reaches_the_goal() {
    // The printer under IE, goal {q5, q7}: play the strategy online against a simulated
    // system (the spec SA) that picks outputs at random (seeded) and never lets outputs race.
    use rand::{Rng, SeedableRng};
    let sa = printer();
    let goal = Goal::parse("state:q5|state:q7", &sa).unwrap();
    let r = reach(&sa, &goal, Assumption::InputEager).unwrap();
    for seed in 0..20u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut q = sa.initial()[0];
        let mut steps = 0;
        let verdict = loop {
            let l = match r.strategy.advise(&sa, q) {
                Advice::Stop(v, _) => break v,
                Advice::Stimulate(a) => a,
                Advice::Observe => {
                    let outs: Vec<_> = sa
                        .edges(q)
                        .iter()
                        .filter(|e| !sa.alphabet().is_input(e.label))
                        .map(|e| e.label)
                        .collect();
                    outs[rng.random_range(0..outs.len())]
                }
            };
            steps += 1;
            match r.strategy.step(&sa, q, l) {
                Step::Continue(t) => q = t,
                Step::Stop(v, _) => break v,
            }
        };
        assert_eq!(verdict, Verdict::Pass, "seed {seed}");
        assert!(steps <= r.moves as usize);
    }
}

#[test]
fn assumption_names_and_large_tests() {
    for a in Assumption::ALL {
        assert_eq!(a.name().parse::<Assumption>().unwrap(), a);
    }
    assert_eq!("IE".parse::<Assumption>().unwrap(), Assumption::InputEager);
    let e = "eager".parse::<Assumption>().unwrap_err();
    assert!(e.contains("input-eager"), "{e}");
    // A test tree larger than the limit is refused with a hint to play online.
    let sa = printer();
    let goal = Goal::parse("state:q5|state:q7", &sa).unwrap();
    let opts = GameOptions {
        max_nodes: 3,
        ..Default::default()
    };
    let e = reach_with(&sa, &goal, Assumption::InputEager, &opts).unwrap_err();
    assert!(matches!(e, GameError::TestTooLarge { limit: 3 }));
    assert!(e.to_string().contains("online"), "{e}");
}
