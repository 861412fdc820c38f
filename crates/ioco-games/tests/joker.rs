//! Joker games: the G_{a∨b} fixture of thesis Ch. 6 (Fig. 6.1, Ex. 6.10–6.19) and cross-checks
//! of the linear algorithms against the naive fixpoints of the definitions.

mod common;
use common::*;
use ioco_games::random::{random_sa, RandomShape};
use ioco_games::*;
use proptest::prelude::*;

/// G_{a∨b} as rebuilt in the note §7.4 (positions 1, 2, 3, ☺, ☹).
fn g_a_or_b() -> (Arena, [u32; 5]) {
    let mut b = ArenaBuilder::new();
    let p1 = b.position("1");
    let p2 = b.position("2");
    let p3 = b.position("3");
    let g = b.position("☺");
    let bad = b.position("☹");
    b.goal(g);
    b.action(p1, "a", &[p2]);
    b.action(p1, "b", &[p3]);
    b.action(p2, "a", &[g, p3]); // (a,x) → ☺, (a,y) → 3
    b.action(p2, "θ", &[g, p3]);
    b.action(p3, "a", &[g, bad]); // Player 3 picks ☺ or ☹
    b.action(p3, "θ", &[bad]);
    b.action(g, "θ", &[g]);
    b.action(bad, "θ", &[bad]);
    (b.build(), [p1, p2, p3, g, bad])
}

#[test]
fn g_a_or_b_attractor_and_joker_sets() {
    let (arena, [p1, p2, p3, g, bad]) = g_a_or_b();
    // Ex. 6.10: Attr({☺}) = {☺}.
    let attr = attractor(&arena);
    assert_eq!(attr.size(), 1);
    assert!(attr.contains(g));
    // Ex. 6.12: Joker¹ = {1, 2, 3, ☺}; ☹ never; J-Rank 1 for 1, 2, 3; level-1 A-Rank 2, 3 = 0,
    // 1 = 1.
    let j = joker_game(&arena);
    assert_eq!(j.rank(g), Some((0, 0)));
    assert_eq!(j.rank(p2), Some((1, 0)));
    assert_eq!(j.rank(p3), Some((1, 0)));
    assert_eq!(j.rank(p1), Some((1, 1)));
    assert_eq!(j.rank(bad), None);
    assert_eq!(j.levels, 2);
    // Thm 6.13: Joker(R) = Reach(R).
    let reach = reachable_goal(&arena);
    for p in 0..5 {
        assert_eq!(j.contains(p), reach[p as usize]);
    }
    // Ex. 6.17: joker states {2, 3}; the helping move of 3 under a is (x, ☺), never ☹.
    let joker_states: Vec<u32> = (0..5).filter(|&p| j.is_joker_state(p)).collect();
    assert_eq!(joker_states, vec![p2, p3]);
    assert_eq!(j.help[p3 as usize], g);
    assert_eq!(j.help[p2 as usize], g);
    // Ex. 6.19: σ(3) = a (θ at 3 only reaches ☹), σ(2) = a, σ(1) ∈ {a, b}.
    let mv = |p: u32| {
        arena
            .action_move(j.strategy[p as usize] as usize)
            .display(arena.alphabet())
    };
    assert_eq!(mv(p3), "a?");
    assert_eq!(mv(p2), "a?");
    assert!(["a?", "b?"].contains(&mv(p1).as_str()));
    // Both joker strategies need one joker and two moves when helped.
    assert_eq!(j.moves[p1 as usize], 2);
}

#[test]
fn g_a_or_b_resilience_prefers_sigma_1a() {
    // Positions listed 1, 3, 2 so that the plain witness at 1 would be b (3 enters first).
    let mut b = ArenaBuilder::new();
    let p1 = b.position("1");
    let p3 = b.position("3");
    let p2 = b.position("2");
    let g = b.position("☺");
    let bad = b.position("☹");
    b.goal(g);
    b.action(p1, "a", &[p2]);
    b.action(p1, "b", &[p3]);
    b.action(p3, "a", &[g, bad]);
    b.action(p3, "θ", &[bad]);
    b.action(p2, "a", &[g, p3]);
    b.action(p2, "θ", &[g, p3]);
    b.action(g, "θ", &[g]);
    b.action(bad, "θ", &[bad]);
    let arena = b.build();
    let mut j = joker_game(&arena);
    let mv = |j: &Solution, p: u32| {
        arena
            .action_move(j.strategy[p as usize] as usize)
            .display(arena.alphabet())
    };
    assert_eq!(mv(&j, p1), "b?");
    // The concurrent game with Player-2 actions (x, y, δ) of Fig. 6.1.
    let mut c = Concurrent::new(5);
    c.shape(p1, 2, 1);
    c.moves(p1, 0, 0, &[p2]);
    c.moves(p1, 1, 0, &[p3]);
    c.shape(p2, 2, 2);
    c.moves(p2, 0, 0, &[g]);
    c.moves(p2, 0, 1, &[p3]);
    c.moves(p2, 1, 0, &[g]);
    c.moves(p2, 1, 1, &[p3]);
    c.shape(p3, 2, 1);
    c.moves(p3, 0, 0, &[g, bad]);
    c.moves(p3, 1, 0, &[bad]);
    for p in [g, bad] {
        c.shape(p, 1, 1);
        c.moves(p, 0, 0, &[p]);
    }
    // Ex. 6.39: levels {☹}, {3, ☹}, {2, 3, ☹}, {1, 2, 3, ☹}.
    let losing: Vec<bool> = (0..5).map(|p| !j.contains(p)).collect();
    let res = c.attractor23(&losing);
    assert_eq!(
        (
            res[bad as usize],
            res[p3 as usize],
            res[p2 as usize],
            res[p1 as usize]
        ),
        (0, 1, 2, 3)
    );
    assert_eq!(res[g as usize], u32::MAX);
    // σ1a's helping play 1 a 2 a ☺ has minimum rank 2, σ1b's 1 b 3 a ☺ rank 1: σ1a wins.
    let val = prefer_resilient(&arena, &mut j, &res);
    assert_eq!(mv(&j, p1), "a?");
    assert_eq!(val[p1 as usize], 2);
}

#[test]
fn printer_joker_states_and_test() {
    // Goal q4 (printing and scanning at once): under ND each mixed state needs the system to
    // accept the second input before it finishes the first job.
    let sa = printer();
    let goal = Goal::parse("state:q4", &sa).unwrap();
    let r = joker(&sa, &goal).unwrap();
    assert_eq!((r.jokers, r.moves), (1, 2));
    let mut js = r.joker_states.clone();
    js.sort();
    let mut want = vec![st(&sa, "q1"), st(&sa, "q3")];
    want.sort();
    assert_eq!(js, want);
    r.test.validate().unwrap();
    // The test asks for help once: the first input, then the second input where printed! or
    // scanned! may overtake it: that is Inconclusive ("did not help"), not Fail.
    let s = serde_json::to_string(&r.test).unwrap();
    assert!(s.contains("did not help"), "{s}");
    // Under IE the same goal is a sure win: no jokers.
    let ie = joker_with(&sa, &goal, Assumption::InputEager, &Default::default()).unwrap();
    assert_eq!(ie.jokers, 0);
    assert!(ie.joker_states.is_empty() || ie.strategy.rank[0].unwrap().0 == 0);
}

#[test]
fn unreachable_goal_is_an_error() {
    let sa = lts(&[
        ("s0", "a?", "s1"),
        ("s1", "δ", "s1"),
        ("s0", "δ", "s0"),
        ("s2", "b!", "s0"),
    ]);
    let goal = Goal::parse("state:s2", &sa).unwrap();
    let e = joker(&sa, &goal).unwrap_err();
    assert!(matches!(e, GameError::Unreachable { .. }), "{e}");
    let e = reach(&sa, &goal, Assumption::InputEager).unwrap_err();
    assert!(
        e.to_string().contains("no trace of the specification"),
        "{e}"
    );
}

// ---- naive fixpoints of the definitions, for cross-checking ----

fn forces(arena: &Arena, i: usize, set: &[bool]) -> bool {
    arena.successors(i).iter().all(|&t| set[t as usize])
}

/// Attr^k by Def. 6.7 literally; returns ranks.
fn naive_attractor(arena: &Arena, target: &[bool]) -> Vec<Option<u32>> {
    let n = arena.num_positions();
    let mut rank: Vec<Option<u32>> = (0..n).map(|p| target[p].then_some(0)).collect();
    let mut k = 0;
    loop {
        let set: Vec<bool> = rank.iter().map(|r| r.is_some()).collect();
        let new: Vec<u32> = (0..n as u32)
            .filter(|&p| !set[p as usize] && arena.actions(p).any(|i| forces(arena, i, &set)))
            .collect();
        if new.is_empty() {
            return rank;
        }
        k += 1;
        for p in new {
            rank[p as usize] = Some(k);
        }
    }
}

/// Joker^k by Def. 6.11 literally: (J-Rank, level A-Rank).
fn naive_joker(arena: &Arena) -> Vec<Option<(u32, u32)>> {
    let n = arena.num_positions();
    let goal: Vec<bool> = (0..n as u32).map(|p| arena.is_goal(p)).collect();
    let a0 = naive_attractor(arena, &goal);
    let mut r: Vec<Option<(u32, u32)>> = a0.iter().map(|x| x.map(|a| (0, a))).collect();
    let mut level = 0;
    loop {
        let set: Vec<bool> = r.iter().map(|x| x.is_some()).collect();
        let pre: Vec<bool> = (0..n as u32)
            .map(|p| {
                set[p as usize]
                    || arena
                        .actions(p)
                        .any(|i| arena.successors(i).iter().any(|&t| set[t as usize]))
            })
            .collect();
        if pre == set {
            return r;
        }
        level += 1;
        let a = naive_attractor(arena, &pre);
        for p in 0..n {
            if r[p].is_none() {
                if let Some(k) = a[p] {
                    r[p] = Some((level, k));
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn linear_algorithms_match_the_definitions(
        seed in any::<u64>(),
        states in 1usize..14,
        p_in in 0.0f64..0.9,
        p_out in 0.0f64..0.7,
        goal_state in 0usize..14,
        use_label in any::<bool>(),
    ) {
        let sa = random_sa(seed, &RandomShape { states, inputs: 2, outputs: 2, p_input: p_in, p_output: p_out, window: 0 });
        let goal = if use_label {
            Goal::parse("label:o1!", &sa).unwrap()
        } else {
            Goal::of_states(&sa, &[(goal_state % states) as u32])
        };
        for a in Assumption::ALL {
            let arena = Arena::of_sa(&sa, &goal, a);
            let n = arena.num_positions();
            let target: Vec<bool> = (0..n as u32).map(|p| arena.is_goal(p)).collect();
            let attr = attractor(&arena);
            let naive = naive_attractor(&arena, &target);
            for p in 0..n as u32 {
                prop_assert_eq!(attr.rank(p).map(|r| r.1), naive[p as usize], "{} pos {}", a, p);
                // Attracting strategy (Def. 6.8): every successor has a strictly lower rank.
                if let Some((_, r)) = attr.rank(p) {
                    if r > 0 {
                        let i = attr.strategy[p as usize] as usize;
                        for t in arena.successors(i) {
                            prop_assert!(attr.rank(t).is_some_and(|x| x.1 < r));
                        }
                        prop_assert_eq!(attr.moves[p as usize], r);
                    }
                }
            }
            let mut j = joker_game(&arena);
            // The move bound: 1 + that of the helping move at a joker state, else 1 + the
            // largest among the successors of the strategy's action (computed incrementally
            // by the engine, recomputed here from the successors).
            for p in 0..n as u32 {
                if !j.contains(p) || arena.is_goal(p) {
                    continue;
                }
                let want = if j.is_joker_state(p) {
                    j.moves[j.help[p as usize] as usize] + 1
                } else {
                    let succ = arena.successors(j.strategy[p as usize] as usize);
                    1 + succ.iter().map(|&t| j.moves[t as usize]).max().unwrap_or(0)
                };
                prop_assert_eq!(j.moves[p as usize], want, "{} pos {}", a, p);
            }
            let moves_before = j.moves.clone();
            if use_label || goal_state % 2 == 0 {
                // The resilient choice keeps a valid joker strategy with the same bounds.
                let losing: Vec<bool> = (0..n as u32).map(|p| !j.contains(p)).collect();
                let res = Concurrent::of_sa(&sa, &goal, a).attractor23(&losing);
                prefer_resilient(&arena, &mut j, &res);
                prop_assert_eq!(&j.moves, &moves_before);
            }
            let nj = naive_joker(&arena);
            let reach = reachable_goal(&arena);
            for p in 0..n as u32 {
                prop_assert_eq!(j.rank(p), nj[p as usize], "{} pos {}", a, p);
                prop_assert_eq!(j.contains(p), reach[p as usize]); // Thm 6.13
                // Joker strategy (Def. 6.18 with the lexicographic erratum).
                if let Some(r) = j.rank(p) {
                    if arena.is_goal(p) { continue; }
                    let i = j.strategy[p as usize] as usize;
                    let succ = arena.successors(i);
                    if j.is_joker_state(p) {
                        let h = j.help[p as usize];
                        prop_assert!(succ.contains(&h));
                        prop_assert!(j.rank(h).unwrap().0 < r.0);
                    } else {
                        for t in succ {
                            prop_assert!(j.rank(t).is_some_and(|x| x < r));
                        }
                    }
                }
            }
        }
        // Thm 5.16: OE winnable ⇔ ND winnable (here even with equal ranks), IE ⇔ IF.
        let rank_of = |a: Assumption| {
            let arena = Arena::of_sa(&sa, &goal, a);
            let s = attractor(&arena);
            (0..sa.num_states() as u32).map(|q| s.rank(q)).collect::<Vec<_>>()
        };
        prop_assert_eq!(rank_of(Assumption::OutputEager), rank_of(Assumption::Nondeterministic));
        prop_assert_eq!(rank_of(Assumption::InputEager), rank_of(Assumption::InputFair));
    }
}
