//! Property tests: test cases of winning strategies, joker strategies and test purposes never
//! give Fail on a conforming implementation (every implementation choice explored), and a
//! winning strategy's test always reaches the goal on implementations that resolve races as
//! the assumption says.

use ioco_games::random::random_lts;
use ioco_games::*;
use ioco_gen::Verdict;
use ioco_model::{
    compare, Alphabet, CompareOptions, Label, LabelKind, Lts, LtsBuilder, QuiescencePolicy,
    SuspensionAutomaton,
};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const POLICY: QuiescencePolicy = QuiescencePolicy::Stable;

/// The spec with some output transitions dropped (seeded).
fn prune(l: &Lts, seed: u64) -> Lts {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut b = LtsBuilder::new(l.alphabet().clone());
    b.add_states(l.num_states());
    for &i in l.initial() {
        b.add_initial(i);
    }
    for (s, lab, t) in l.transitions() {
        if l.alphabet().is_output(lab) && rng.random_bool(0.35) {
            continue;
        }
        b.add_transition(s, lab, t);
    }
    b.build().unwrap()
}

fn conforms(imp: &Lts, spec: &Lts) -> bool {
    compare(imp, spec, &CompareOptions::default())
        .unwrap()
        .conforms()
}

/// The SA with some outputs dropped; a state left without outputs becomes quiescent.
fn prune_sa(sa: &Lts, seed: u64) -> Lts {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let a = sa.alphabet();
    let mut b = LtsBuilder::new(a.clone());
    b.add_states(sa.num_states());
    b.add_initial(sa.initial()[0]);
    for q in sa.states() {
        let mut kept_out = false;
        let mut had_out = false;
        for e in sa.edges(q) {
            if a.is_output(e.label) {
                had_out = true;
                if rng.random_bool(0.4) {
                    continue;
                }
                kept_out = true;
            }
            b.add_transition(q, e.label, e.target);
        }
        if had_out && !kept_out && !sa.enables(q, Label::DELTA) {
            b.add_transition(q, Label::DELTA, q);
        }
    }
    b.build().unwrap()
}

/// Conforming implementations: the spec, its suspension automaton and pruned variants of
/// both, each kept only when `compare` says it conforms.
fn conforming(spec: &Lts, seed: u64) -> Vec<Lts> {
    let sa = SuspensionAutomaton::build(spec, POLICY).lts;
    let mut v: Vec<Lts> = vec![spec.clone(), sa.angelic_completion()];
    v.extend((0..3).map(|k| prune(spec, seed ^ (k + 1))));
    v.extend((0..3).map(|k| prune_sa(&sa, seed ^ (k + 11)).angelic_completion()));
    v.into_iter().filter(|i| conforms(i, spec)).collect()
}

/// Does the trace (as written) reach the goal on the SA?
fn reaches_goal(sa: &Lts, goal: &Goal, trace: &[String]) -> bool {
    let a = sa.alphabet();
    let mut q = sa.initial()[0];
    if goal.has_state(q) {
        return true;
    }
    for w in trace {
        let l = if w == "δ" {
            Label::DELTA
        } else {
            a.lookup(w.trim_end_matches(['?', '!'])).unwrap()
        };
        if goal.has_label(l) {
            return true;
        }
        q = sa.edges_with(q, l)[0].target;
        if goal.has_state(q) {
            return true;
        }
    }
    false
}

fn goal_for(sa: &Lts, pick: usize) -> Goal {
    let labels: Vec<String> = sa
        .alphabet()
        .visible()
        .map(|l| sa.alphabet().display(l))
        .collect();
    let n = sa.num_states();
    if pick.is_multiple_of(3) && !labels.is_empty() {
        Goal::parse(&format!("label:{}", labels[pick / 3 % labels.len()]), sa).unwrap()
    } else {
        // Not the initial state (0), when there is another one.
        let q = if n > 1 { 1 + pick % (n - 1) } else { 0 };
        Goal::of_states(sa, &[q as u32])
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn winning_tests_are_sound_and_reach_the_goal(
        seed in any::<u64>(), states in 3usize..7, edges in 6usize..18, pick in 0usize..60,
    ) {
        let spec = random_lts(seed, states, 2, 2, edges);
        let sa = SuspensionAutomaton::build(&spec, POLICY).lts;
        let goal = goal_for(&sa, pick);
        let imps = conforming(&spec, seed);
        for a in Assumption::ALL {
            let r = match reach(&sa, &goal, a) {
                Ok(r) => r,
                Err(GameError::NotWinnable { .. }) => continue,
                Err(e) => panic!("{e}"),
            };
            r.test.validate().unwrap();
            prop_assert!(r.test.depth() as u32 <= r.moves);
            for imp in &imps {
                // Sound: no run of a conforming implementation fails, whatever it does.
                let all = explore(&r.test, imp, POLICY, Assumption::Nondeterministic, 5000);
                prop_assert!(all.iter().all(|x| x.verdict != Verdict::Fail), "{a}: {all:?}");
                // Winning: every run resolving races as assumed ends in Pass at the goal
                // (input-fair runs are input-eager ones once fairness has been used).
                let resolve = if a == Assumption::InputFair { Assumption::InputEager } else { a };
                let runs = explore(&r.test, imp, POLICY, resolve, 5000);
                for run in &runs {
                    prop_assert_eq!(run.verdict, Verdict::Pass, "{}: {:?}", a, run);
                    prop_assert!(reaches_goal(&sa, &goal, &run.trace));
                }
            }
        }
    }

    #[test]
    fn joker_tests_are_sound_and_pass_with_a_helping_system(
        seed in any::<u64>(), states in 3usize..7, edges in 6usize..18, pick in 0usize..60,
    ) {
        let spec = random_lts(seed, states, 2, 2, edges);
        let sa = SuspensionAutomaton::build(&spec, POLICY).lts;
        let goal = goal_for(&sa, pick);
        let j = match joker(&sa, &goal) {
            Ok(j) => j,
            Err(GameError::Unreachable { .. }) => return Ok(()),
            Err(e) => panic!("{e}"),
        };
        j.test.validate().unwrap();
        // The implementation that can do everything the spec can (the SA itself, completed).
        let full = sa.angelic_completion();
        prop_assert!(conforms(&full, &spec));
        let runs = explore(&j.test, &full, POLICY, Assumption::Nondeterministic, 5000);
        prop_assert!(runs.iter().all(|x| x.verdict != Verdict::Fail), "{runs:?}");
        prop_assert!(runs.iter().any(|x| x.verdict == Verdict::Pass && reaches_goal(&sa, &goal, &x.trace)), "{runs:?}");
        for imp in conforming(&spec, seed) {
            let runs = explore(&j.test, &imp, POLICY, Assumption::Nondeterministic, 5000);
            prop_assert!(runs.iter().all(|x| x.verdict != Verdict::Fail), "{runs:?}");
        }
        if j.jokers == 0 {
            prop_assert!(reach(&sa, &goal, Assumption::Nondeterministic).is_ok());
        } else {
            prop_assert!(reach(&sa, &goal, Assumption::Nondeterministic).is_err());
        }
    }

    #[test]
    fn purpose_tests_are_sound(
        seed in any::<u64>(), states in 3usize..7, edges in 6usize..18, choice in any::<u64>(),
    ) {
        let spec = random_lts(seed, states, 2, 2, edges);
        let sa = SuspensionAutomaton::build(&spec, POLICY).lts;
        // A random deterministic purpose: from `wait` each label goes to wait, mid, accept or
        // refuse; from `mid` likewise (labels not mentioned stay).
        let mut rng = ChaCha8Rng::seed_from_u64(choice);
        let mut b = LtsBuilder::new(Alphabet::new());
        b.add_states(4);
        b.add_initial(0);
        for s in 0..2u32 {
            for name in ["i0", "i1", "o0", "o1"] {
                let kind = if name.starts_with('i') { LabelKind::Input } else { LabelKind::Output };
                match rng.random_range(0..6) {
                    0 => {}
                    k => b.add(s, name, kind, [0, 1, 1, 2, 3][k - 1]).unwrap(),
                }
            }
        }
        b.set_state_names(vec!["wait".into(), "mid".into(), "accept".into(), "refuse".into()]);
        let tp = Purpose::from_lts(b.build().unwrap()).unwrap();
        let tc = match purpose_test(&sa, &tp) {
            Ok(tc) => tc,
            Err(PurposeError::CannotBeMet(_)) => return Ok(()),
            Err(PurposeError::UnknownLabel { .. }) => return Ok(()), // a label the spec never uses
            Err(e) => panic!("{e}"),
        };
        tc.validate().unwrap();
        for imp in conforming(&spec, seed) {
            let runs = explore(&tc, &imp, POLICY, Assumption::Nondeterministic, 5000);
            prop_assert!(runs.iter().all(|x| x.verdict != Verdict::Fail), "{runs:?}");
        }
        let full = sa.angelic_completion();
        let runs = explore(&tc, &full, POLICY, Assumption::Nondeterministic, 5000);
        prop_assert!(runs.iter().any(|x| x.verdict == Verdict::Pass), "{runs:?}");
    }
}

#[test]
fn a_non_conforming_implementation_can_fail() {
    // Sanity check of the executor: spec s0 -a?-> s1 -b!-> s0; goal b!; an implementation
    // that answers c! instead fails.
    let mut b = LtsBuilder::new(Alphabet::new());
    b.add_states(2);
    b.add_initial(0);
    b.add(0, "a", LabelKind::Input, 1).unwrap();
    b.add(1, "b", LabelKind::Output, 0).unwrap();
    b.alphabet_mut().output("c").unwrap();
    let spec = b.build().unwrap();
    let sa = SuspensionAutomaton::build(&spec, POLICY).lts;
    let goal = Goal::parse("label:b!", &sa).unwrap();
    let r = reach(&sa, &goal, Assumption::Nondeterministic).unwrap();
    let mut b = LtsBuilder::new(Alphabet::new());
    b.add_states(2);
    b.add_initial(0);
    b.add(0, "a", LabelKind::Input, 1).unwrap();
    b.add(1, "c", LabelKind::Output, 0).unwrap();
    let bad = b.build().unwrap();
    let runs = explore(&r.test, &bad, POLICY, Assumption::Nondeterministic, 100);
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].verdict, Verdict::Fail);
    assert_eq!(runs[0].trace, vec!["a?", "c!"]);
}
