//! Admissible strategies (thesis §6.7, Def. 6.36): Ex. 6.37 on G_{a∨b} (σ1b <d σ1a, the
//! table of the four positional Player 2/3 pairs), the same game as a suspension automaton
//! through the joker method, and the bounds.

mod common;
use common::*;
use ioco_games::*;

/// G_{a∨b} of Fig. 6.1 with its Player-2 actions (x, y, δ), as in Ex. 6.37: positions
/// 1, 2, 3, ☺, ☹; Player-1 actions a (index 0) and b or θ (index 1).
fn g_a_or_b() -> (Concurrent, Vec<bool>, [u32; 5]) {
    let (p1, p2, p3, g, bad) = (0, 1, 2, 3, 4);
    let mut c = Concurrent::new(5);
    c.shape(p1, 2, 1); // a, b; Player 2: δ
    c.moves(p1, 0, 0, &[p2]);
    c.moves(p1, 1, 0, &[p3]);
    c.shape(p2, 2, 2); // a, θ; Player 2: x, y
    c.moves(p2, 0, 0, &[g]);
    c.moves(p2, 0, 1, &[p3]);
    c.moves(p2, 1, 0, &[g]);
    c.moves(p2, 1, 1, &[p3]);
    c.shape(p3, 2, 1); // a, θ; Player 2: x
    c.moves(p3, 0, 0, &[g, bad]); // Player 3 picks ☺ or ☹
    c.moves(p3, 1, 0, &[bad]);
    for p in [g, bad] {
        c.shape(p, 1, 1);
        c.moves(p, 0, 0, &[p]);
    }
    let goal = vec![false, false, false, true, false];
    (c, goal, [p1, p2, p3, g, bad])
}

#[test]
fn ex_6_37_sigma_1b_is_dominated_by_sigma_1a() {
    let (c, goal, [p1, p2, p3, _, _]) = g_a_or_b();
    let r = admissible(&c, &goal, p1, &AdmissibleOptions::default()).unwrap();
    // Ex. 6.37: Players 2 and 3 choose only in states 2 and 3, two ways each: four pairs.
    assert_eq!(r.pairs, 4);
    // σ1a: a in 1, 2 and 3; σ1b: b in 1, a in 3 (state 2 is never visited).
    let s1a = r.find(|_| Some(0)).unwrap();
    let s1b = r.find(|p| Some(if p == p1 { 1 } else { 0 })).unwrap();
    assert_eq!(r.strategies[s1b].action[p2 as usize], None);
    // The table of Ex. 6.37: σ1a wins three of the four pairs, σ1b two.
    assert_eq!(r.strategies[s1a].wins, 3);
    assert_eq!(r.strategies[s1b].wins, 2);
    assert_eq!(r.dominated_by[s1a], None, "σ1a is admissible");
    let d = r.dominated_by[s1b].expect("σ1b <d σ1a");
    assert_eq!(r.strategies[d].action[p1 as usize], Some(0));
    assert_eq!(r.strategies[d].action[p3 as usize], Some(0));
    // Six reduced strategies (1: a or b; 2: a or θ when visited; 3: a or θ); admissible are
    // exactly those playing a in 1 and 3 (in 2, a and θ have the same moves).
    assert_eq!(r.strategies.len(), 6);
    let adm = r.admissible();
    assert_eq!(adm.len(), 2);
    for i in adm {
        let s = &r.strategies[i];
        assert_eq!(
            (s.action[p1 as usize], s.action[p3 as usize], s.wins),
            (Some(0), Some(0), 3)
        );
    }
    // θ in state 3 only reaches ☹: every strategy playing it is dominated.
    for (i, s) in r.strategies.iter().enumerate() {
        if s.action[p3 as usize] == Some(1) {
            assert!(r.dominated_by[i].is_some(), "{s:?}");
        }
    }
}

#[test]
fn winnable_and_unreachable_games_are_refused() {
    let (c, goal, [_, p2, _, g, bad]) = g_a_or_b();
    let mut won = goal.clone();
    won[p2 as usize] = true;
    let opts = AdmissibleOptions::default();
    assert_eq!(
        admissible(&c, &won, 0, &opts).unwrap_err(),
        AdmissibleError::Winnable
    );
    assert_eq!(
        admissible(&c, &goal, g, &opts).unwrap_err(),
        AdmissibleError::Winnable
    );
    assert_eq!(
        admissible(&c, &goal, bad, &opts).unwrap_err(),
        AdmissibleError::Unreachable
    );
}

/// G_{a∨b} as a suspension automaton: 2 offers the help x! (to the goal) or y! (to 3); in
/// 3 the input a? reaches the goal unless z! (to ☹) wins the race.
fn gavb_sa() -> ioco_model::Lts {
    lts(&[
        ("s1", "δ", "s1"),
        ("s1", "a?", "s2"),
        ("s1", "b?", "s3"),
        ("s2", "x!", "G"),
        ("s2", "y!", "s3"),
        ("s3", "a?", "G"),
        ("s3", "z!", "Bad"),
        ("G", "δ", "G"),
        ("Bad", "δ", "Bad"),
    ])
}

#[test]
fn the_joker_strategy_of_the_sa_is_admissible_and_sigma_1b_is_not() {
    let sa = gavb_sa();
    let goal = Goal::parse("state:G", &sa).unwrap();
    let r = joker(&sa, &goal).unwrap();
    assert_eq!((r.jokers, r.moves), (1, 2));
    let choose = |q: u32| match r.strategy.moves[q as usize] {
        Some(Move::Input(a)) => Some(Some(a)),
        Some(Move::Wait) => Some(None),
        None => None,
    };
    let opts = AdmissibleOptions::default();
    let adm = sa_admissibility(&sa, &goal, Assumption::Nondeterministic, choose, &opts).unwrap();
    assert!(adm.admissible, "{adm:?}");
    assert_eq!((adm.wins, adm.pairs), (3, 4));
    // σ1b: b? in s1 (one joker, two moves too) is dominated by an admissible strategy that
    // plays a? in s1.
    let alpha = sa.alphabet();
    let (a, b) = (alpha.lookup("a").unwrap(), alpha.lookup("b").unwrap());
    let s1 = st(&sa, "s1");
    let s3 = st(&sa, "s3");
    let sigma_1b = |q: u32| {
        if q == s1 {
            Some(Some(b))
        } else if q == s3 {
            Some(Some(a))
        } else {
            Some(None)
        }
    };
    let adm = sa_admissibility(&sa, &goal, Assumption::Nondeterministic, sigma_1b, &opts).unwrap();
    assert!(!adm.admissible);
    assert_eq!(adm.wins, 2);
    let (moves, wins) = adm.dominator.unwrap();
    assert_eq!(wins, 3);
    assert!(moves.contains(&(s1, Some(a))), "{moves:?}");
    assert!(moves.contains(&(s3, Some(a))), "{moves:?}");
}

#[test]
fn a_game_beyond_the_bound_is_a_clear_error() {
    // The printer's goal q4 needs a joker; with a bound of 1 the enumeration is refused and
    // the error states the sizes and a way out.
    let sa = printer();
    let goal = Goal::parse("state:q4", &sa).unwrap();
    let r = joker(&sa, &goal).unwrap();
    let choose = |q: u32| match r.strategy.moves[q as usize] {
        Some(Move::Input(a)) => Some(Some(a)),
        Some(Move::Wait) => Some(None),
        None => None,
    };
    let tiny = AdmissibleOptions { max_work: 1 };
    let e = sa_admissibility(&sa, &goal, Assumption::Nondeterministic, choose, &tiny).unwrap_err();
    assert!(
        matches!(e, AdmissibleError::TooLarge { limit: 1, .. }),
        "{e:?}"
    );
    let msg = e.to_string();
    assert!(msg.contains("too large") && msg.contains("hint"), "{msg}");
    // With the default bound it is decided.
    let adm = sa_admissibility(
        &sa,
        &goal,
        Assumption::Nondeterministic,
        choose,
        &Default::default(),
    )
    .unwrap();
    assert!(adm.wins > 0 && adm.wins <= adm.pairs, "{adm:?}");
}
