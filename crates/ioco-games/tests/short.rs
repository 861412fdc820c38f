//! Short joker strategies (issue #18 item 3): the fewest jokers, then the fewest moves over
//! the whole game ([`short_joker_game`]), on the TCP case of thesis Table 6.1 and against the
//! least fixpoint of its definition on random suspension automata.

mod common;
use common::*;
use ioco_games::random::{random_sa, RandomShape};
use ioco_games::*;
use ioco_model::Lts;
use proptest::prelude::*;

/// The TCP suspension automaton of thesis Fig. 6.5, rebuilt from Table 6.1 and §6.8 (the figure
/// is lost; reconstruction, also `examples/models/tcp-table6.1.aut` with ☺ = state 0). Every
/// row of Table 6.1 comes out of it (joker sets, attractor sets, strategy actions), the joker
/// states are 7, 8, 9, 16, 26, state 5 (the connection reset) cannot reach ☺ and so is in no
/// row, two jokers are needed, the thesis' strategies take 11 moves, and passiveOpen? in
/// state 1 or FIN? in state 13 take 10 (FIN?: 4 moves to joker state 26, then 1; CLOSE?: 2 to
/// joker state 16, then 4). Labels and outputs are plausible TCP names, not the figure's.
pub fn tcp() -> Lts {
    lts(&[
        ("1", "activeOpen?", "4"),
        ("1", "passiveOpen?", "3"),
        ("3", "TCB!", "2"),
        ("2", "TCB!", "11"),
        ("4", "SYN!", "6"),
        ("6", "TCB!", "7"),
        ("6", "SYN!", "8"),
        ("7", "SYNACK?", "12"),
        ("7", "RST!", "5"),
        ("8", "ACK?", "23"),
        ("8", "RST!", "5"),
        ("9", "CLOSE?", "14"),
        ("9", "ACK?", "16"),
        ("9", "RST!", "5"),
        ("10", "SYNACK!", "9"),
        ("11", "SYN?", "10"),
        ("12", "ACK!", "13"),
        ("12", "FIN!", "14"),
        ("13", "CLOSE?", "15"),
        ("13", "FIN?", "14"),
        ("14", "ACK!", "24"),
        ("15", "FIN!", "16"),
        ("16", "ACK?", "17"),
        ("16", "FIN?", "21"),
        ("16", "RST!", "5"),
        ("17", "FIN?", "18"),
        ("18", "ACK!", "19"),
        ("19", "TCB!", "☺"),
        ("20", "ACK!", "19"),
        ("20", "TCB!", "☺"),
        ("21", "FIN!", "20"),
        ("22", "ACK!", "16"),
        ("22", "FIN!", "26"),
        ("23", "ACK!", "24"),
        ("23", "FIN!", "22"),
        ("24", "CLOSE?", "25"),
        ("25", "FIN!", "26"),
        ("26", "ACK?", "☺"),
        ("26", "RST!", "5"),
        ("1", "δ", "1"),
        ("11", "δ", "11"),
        ("13", "δ", "13"),
        ("17", "δ", "17"),
        ("24", "δ", "24"),
        ("5", "δ", "5"),
        ("☺", "δ", "☺"),
    ])
}

fn state(sa: &Lts, name: &str) -> u32 {
    sa.states().find(|&q| sa.state_name(q) == name).unwrap()
}

#[test]
fn tcp_nested_joker_game_is_table_6_1() {
    let sa = tcp();
    let goal = Goal::parse("state:☺", &sa).unwrap();
    let arena = Arena::of_sa(&sa, &goal, Assumption::Nondeterministic);
    let j = joker_game(&arena);
    // Table 6.1, row by row: (joker set, attractor set, added states).
    let rows: [(u32, u32, &[&str]); 14] = [
        (0, 0, &["☺"]),
        (0, 1, &["19"]),
        (0, 2, &["18", "20"]),
        (0, 3, &["17", "21"]),
        (1, 0, &["16", "26"]),
        (1, 1, &["15", "22", "25"]),
        (1, 2, &["13", "24"]),
        (1, 3, &["14", "23"]),
        (1, 4, &["12"]),
        (2, 0, &["7", "8", "9"]),
        (2, 1, &["6", "10"]),
        (2, 2, &["4", "11"]),
        (2, 3, &["1", "2"]),
        (2, 4, &["3"]),
    ];
    let mut listed = 0;
    for (jk, ak, states) in rows {
        for s in states {
            assert_eq!(j.rank(state(&sa, s)), Some((jk, ak)), "state {s}");
            listed += 1;
        }
    }
    // Every state but 5 is in a row; 5 cannot reach ☺.
    let inside = (0..sa.num_states() as u32)
        .filter(|&q| j.contains(q))
        .count();
    assert_eq!(inside, listed);
    assert!(!j.contains(state(&sa, "5")));
    assert_eq!(j.levels, 3);
    let mv = |s: &str| {
        arena
            .action_move(j.strategy[state(&sa, s) as usize] as usize)
            .display(arena.alphabet())
    };
    for (s, a) in [
        ("17", "FIN?"),
        ("26", "ACK?"),
        ("13", "CLOSE?"),
        ("24", "CLOSE?"),
        ("7", "SYNACK?"),
        ("8", "ACK?"),
        ("11", "SYN?"),
        ("1", "activeOpen?"),
        ("19", "θ"),
        ("12", "θ"),
        ("3", "θ"),
    ] {
        assert_eq!(mv(s), a, "state {s}");
    }
    assert!(["ACK?", "FIN?"].contains(&mv("16").as_str()));
    assert!(["CLOSE?", "ACK?"].contains(&mv("9").as_str()));
    let mut jokers: Vec<String> = (0..sa.num_states() as u32)
        .filter(|&q| j.is_joker_state(q))
        .map(|q| sa.state_name(q))
        .collect();
    jokers.sort_by_key(|s| s.parse::<u32>().unwrap());
    assert_eq!(jokers, ["7", "8", "9", "16", "26"]);
    // §6.8: "the two strategies reach state ☺ after 11 moves".
    assert_eq!(j.moves[state(&sa, "1") as usize], 11);
    assert_eq!(j.moves[state(&sa, "13") as usize], 6);
}

#[test]
fn tcp_short_joker_strategy_takes_10_moves() {
    let sa = tcp();
    let goal = Goal::parse("state:☺", &sa).unwrap();
    let arena = Arena::of_sa(&sa, &goal, Assumption::Nondeterministic);
    let nested = joker_game(&arena);
    let s = short_joker_game(&arena);
    // Same jokers everywhere (J-Rank, Def. 6.11), never more moves.
    for q in 0..arena.num_positions() as u32 {
        assert_eq!(s.jrank[q as usize], nested.jrank[q as usize]);
        assert!(s.moves[q as usize] <= nested.moves[q as usize]);
    }
    let q = |n: &str| state(&sa, n) as usize;
    // §6.8: FIN? in 13 (4 moves to joker state 26, then 1) beats CLOSE? (2 to 16, then 4).
    assert_eq!(s.moves[q("13")], 5);
    assert_eq!(
        arena
            .action_move(s.strategy[q("13")] as usize)
            .display(arena.alphabet()),
        "FIN?"
    );
    // Both of the thesis' shorter strategies take 10 moves, and none takes fewer.
    assert_eq!(s.moves[q("1")], 10);
    assert_eq!(s.jrank[q("1")], 2);
    // Through the public API (the default) and with the thesis' per-level construction.
    let r = joker(&sa, &goal).unwrap();
    assert_eq!((r.jokers, r.moves), (2, 10));
    let per_level = GameOptions {
        per_level_moves: true,
        ..Default::default()
    };
    let r = joker_with(&sa, &goal, Assumption::Nondeterministic, &per_level).unwrap();
    assert_eq!((r.jokers, r.moves), (2, 11));
}

/// The least fixpoint of the definition in `ioco_games::short` by value iteration, given J.
fn naive_moves(arena: &Arena, j: &[u32]) -> Vec<u32> {
    const INF: u32 = u32::MAX;
    let n = arena.num_positions();
    let mut m: Vec<u32> = (0..n as u32)
        .map(|p| if arena.is_goal(p) { 0 } else { INF })
        .collect();
    loop {
        let mut changed = false;
        for p in 0..n as u32 {
            if arena.is_goal(p) || j[p as usize] == INF {
                continue;
            }
            let jp = j[p as usize];
            let mut best = INF;
            for i in arena.actions(p) {
                let succ = arena.successors(i);
                if succ.iter().all(|&t| j[t as usize] <= jp) {
                    let worst = succ.iter().map(|&t| m[t as usize]).max().unwrap_or(INF);
                    best = best.min(worst.saturating_add(1));
                }
                let helped = succ
                    .iter()
                    .filter(|&&t| j[t as usize] < jp)
                    .map(|&t| m[t as usize])
                    .min()
                    .unwrap_or(INF);
                best = best.min(helped.saturating_add(1));
            }
            if best < m[p as usize] {
                m[p as usize] = best;
                changed = true;
            }
        }
        if !changed {
            return m;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, rng_seed: prop::test_runner::RngSeed::Fixed(18), ..ProptestConfig::default() })]

    #[test]
    fn short_joker_game_is_the_least_fixpoint(
        seed in any::<u64>(),
        states in 1usize..16,
        p_in in 0.0f64..0.9,
        p_out in 0.0f64..0.7,
        goal_state in 0usize..16,
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
            let nested = joker_game(&arena);
            let s = short_joker_game(&arena);
            prop_assert_eq!(&s.jrank, &nested.jrank);
            let naive = naive_moves(&arena, &s.jrank);
            for p in 0..n as u32 {
                let pi = p as usize;
                prop_assert_eq!(s.moves[pi], naive[pi], "{} pos {}", a, p);
                prop_assert!(s.moves[pi] <= nested.moves[pi]);
                if !s.contains(p) || arena.is_goal(p) {
                    continue;
                }
                // The strategy achieves its value: a joker move to a helper of lower J-Rank,
                // or a plain move whose successors keep the J-Rank and the worst takes
                // one move less; (J, M) decreases along every helped play.
                let succ = arena.successors(s.strategy[pi] as usize);
                let r = s.rank(p).unwrap();
                if s.is_joker_state(p) {
                    let h = s.help[pi];
                    prop_assert!(succ.contains(&h));
                    prop_assert!(s.jrank[h as usize] < s.jrank[pi]);
                    prop_assert_eq!(s.moves[h as usize] + 1, s.moves[pi]);
                } else {
                    for &t in &succ {
                        prop_assert!(s.jrank[t as usize] <= s.jrank[pi]);
                        prop_assert!(s.rank(t).is_some_and(|x| x < r));
                    }
                    let worst = succ.iter().map(|&t| s.moves[t as usize]).max().unwrap();
                    prop_assert_eq!(worst + 1, s.moves[pi]);
                }
            }
            // The resilient choice among equally good actions keeps the bounds.
            let mut s2 = s.clone();
            let losing: Vec<bool> = (0..n as u32).map(|p| !s2.contains(p)).collect();
            let res = Concurrent::of_sa(&sa, &goal, a).attractor23(&losing);
            prefer_resilient(&arena, &mut s2, &res);
            prop_assert_eq!(&s2.moves, &s.moves);
        }
    }
}

/// The least fixpoint of the priced game (module docs of `ioco_games::short`) by value
/// iteration: the costs C, then the moves M given C.
fn naive_priced(arena: &Arena, prices: &Prices) -> (Vec<u32>, Vec<u32>) {
    const INF: u32 = u32::MAX;
    let n = arena.num_positions();
    let mut c: Vec<u32> = (0..n as u32)
        .map(|p| if arena.is_goal(p) { 0 } else { INF })
        .collect();
    loop {
        let mut changed = false;
        for p in 0..n as u32 {
            if arena.is_goal(p) {
                continue;
            }
            let mut best = INF;
            for i in arena.actions(p) {
                let succ = arena.successors(i);
                best = best.min(succ.iter().map(|&t| c[t as usize]).max().unwrap_or(INF));
                for &t in &succ {
                    let pr = help_price(arena, i, t, prices).unwrap();
                    best = best.min(c[t as usize].saturating_add(pr));
                }
            }
            if best < c[p as usize] {
                c[p as usize] = best;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut m: Vec<u32> = (0..n as u32)
        .map(|p| if arena.is_goal(p) { 0 } else { INF })
        .collect();
    loop {
        let mut changed = false;
        for p in 0..n as u32 {
            if arena.is_goal(p) || c[p as usize] == INF {
                continue;
            }
            let cp = c[p as usize];
            let mut best = INF;
            for i in arena.actions(p) {
                let succ = arena.successors(i);
                if succ.iter().all(|&t| c[t as usize] <= cp) {
                    let worst = succ.iter().map(|&t| m[t as usize]).max().unwrap_or(INF);
                    best = best.min(worst.saturating_add(1));
                }
                for &t in &succ {
                    let pr = help_price(arena, i, t, prices).unwrap();
                    if c[t as usize].saturating_add(pr) <= cp {
                        best = best.min(m[t as usize].saturating_add(1));
                    }
                }
            }
            if best < m[p as usize] {
                m[p as usize] = best;
                changed = true;
            }
        }
        if !changed {
            return (c, m);
        }
    }
}

#[test]
fn tcp_priced_jokers() {
    let sa = tcp();
    let goal = Goal::parse("state:☺", &sa).unwrap();
    let arena = Arena::of_sa(&sa, &goal, Assumption::Nondeterministic);
    let q1 = state(&sa, "1") as usize;
    // Unit prices: the short joker game.
    let unit = priced_joker_game(&arena, &Prices::UNIT);
    let short = short_joker_game(&arena);
    assert_eq!((unit.jrank[q1], unit.moves[q1]), (2, 10));
    assert_eq!(unit.jrank, short.jrank);
    assert_eq!(unit.moves, short.moves);
    // Both jokers on the way from state 1 ask for an input to win the race against RST!
    // (Player 3 helps), so with a successor price of 2 the help costs 4.
    let p = Prices {
        output: 1,
        successor: 2,
    };
    let s = priced_joker_game(&arena, &p);
    let (c, m) = naive_priced(&arena, &p);
    assert_eq!(s.jrank, c);
    assert_eq!(s.moves, m);
    assert_eq!(s.jrank[q1], 4);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, rng_seed: prop::test_runner::RngSeed::Fixed(6), ..ProptestConfig::default() })]

    #[test]
    fn priced_joker_game_is_the_least_fixpoint(
        seed in any::<u64>(),
        states in 1usize..14,
        p_in in 0.0f64..0.9,
        p_out in 0.0f64..0.7,
        goal_state in 0usize..14,
        output in 1u32..4,
        successor in 1u32..4,
    ) {
        let sa = random_sa(seed, &RandomShape { states, inputs: 2, outputs: 2, p_input: p_in, p_output: p_out, window: 0 });
        let goal = Goal::of_states(&sa, &[(goal_state % states) as u32]);
        let prices = Prices { output, successor };
        for a in Assumption::ALL {
            let arena = Arena::of_sa(&sa, &goal, a);
            let s = priced_joker_game(&arena, &prices);
            let (c, m) = naive_priced(&arena, &prices);
            prop_assert_eq!(&s.jrank, &c, "{}", a);
            prop_assert_eq!(&s.moves, &m, "{}", a);
            // The strategy achieves its value.
            for p in 0..arena.num_positions() as u32 {
                let pi = p as usize;
                if !s.contains(p) || arena.is_goal(p) {
                    continue;
                }
                let i = s.strategy[pi] as usize;
                let succ = arena.successors(i);
                if s.is_joker_state(p) {
                    let h = s.help[pi];
                    let pr = help_price(&arena, i, h, &prices).unwrap();
                    prop_assert!(s.jrank[h as usize] + pr <= s.jrank[pi]);
                    prop_assert_eq!(s.moves[h as usize] + 1, s.moves[pi]);
                } else {
                    prop_assert!(succ.iter().all(|&t| s.jrank[t as usize] <= s.jrank[pi]));
                    let worst = succ.iter().map(|&t| s.moves[t as usize]).max().unwrap();
                    prop_assert_eq!(worst + 1, s.moves[pi]);
                }
            }
            // Unit prices: the short joker game.
            let u = priced_joker_game(&arena, &Prices::UNIT);
            let short = short_joker_game(&arena);
            prop_assert_eq!(&u.jrank, &short.jrank);
            prop_assert_eq!(&u.moves, &short.moves);
        }
    }
}
