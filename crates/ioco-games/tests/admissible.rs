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

/// A tiny seeded generator (no dependency needed for this cross-check).
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

#[test]
fn admissible_agrees_with_the_definition_on_random_small_games() {
    // Def. 6.36 by brute force: every positional tester strategy against every positional
    // pair (Player 2's action and Player 3's pick for every action), Win sets compared by
    // inclusion. Strategies that do not play the attractor strategy in the winning region are
    // left out of the comparison (the reduction counts that region as won; such strategies are
    // dominated, see the module doc).
    let mut rng = Lcg(7);
    let mut decided = 0;
    for _ in 0..300 {
        let n = 3 + rng.below(3) as usize; // positions 0..n, 0 the goal
        let mut c = Concurrent::new(n);
        let mut moves: Vec<Vec<Vec<Vec<u32>>>> = vec![Vec::new(); n];
        c.shape(0, 1, 1);
        c.moves(0, 0, 0, &[0]);
        moves[0] = vec![vec![vec![0]]];
        for (p, mv) in moves.iter_mut().enumerate().skip(1) {
            let (na, nx) = (1 + rng.below(2) as u32, 1 + rng.below(2) as u32);
            c.shape(p as u32, na, nx);
            *mv = vec![vec![Vec::new(); nx as usize]; na as usize];
            for a in 0..na {
                for x in 0..nx {
                    let mut ts = vec![rng.below(n as u64) as u32];
                    if rng.below(3) == 0 {
                        let t = rng.below(n as u64) as u32;
                        if !ts.contains(&t) {
                            ts.push(t);
                        }
                    }
                    c.moves(p as u32, a, x, &ts);
                    mv[a as usize][x as usize] = ts;
                }
            }
        }
        let goal: Vec<bool> = (0..n).map(|p| p == 0).collect();
        let Ok(r) = admissible(&c, &goal, 1, &AdmissibleOptions::default()) else {
            continue;
        };
        // Local choices per position: (a ↦ target) over all x and picks.
        let local: Vec<Vec<Vec<u32>>> = moves
            .iter()
            .map(|per_a| {
                let mut out = Vec::new();
                for x in 0..per_a[0].len() {
                    let mut partial: Vec<Vec<u32>> = vec![Vec::new()];
                    for ts in per_a.iter().map(|v| &v[x]) {
                        partial = partial
                            .iter()
                            .flat_map(|pre| {
                                ts.iter().map(move |&t| {
                                    let mut c = pre.clone();
                                    c.push(t);
                                    c
                                })
                            })
                            .collect();
                    }
                    out.extend(partial);
                }
                out
            })
            .collect();
        let strategies: Vec<Vec<u32>> = {
            let mut all = vec![Vec::new()];
            for per_a in &moves {
                all = all
                    .iter()
                    .flat_map(|pre: &Vec<u32>| {
                        (0..per_a.len() as u32).map(move |a| {
                            let mut s = pre.clone();
                            s.push(a);
                            s
                        })
                    })
                    .collect();
            }
            all
        };
        let pairs: Vec<Vec<usize>> = {
            let mut all = vec![Vec::new()];
            for l in &local {
                all = all
                    .iter()
                    .flat_map(|pre: &Vec<usize>| {
                        (0..l.len()).map(move |i| {
                            let mut s = pre.clone();
                            s.push(i);
                            s
                        })
                    })
                    .collect();
            }
            all
        };
        let win = |s: &[u32], o: &[usize]| {
            let mut seen = vec![false; n];
            let mut q = 1usize;
            loop {
                if q == 0 {
                    return true;
                }
                if seen[q] {
                    return false;
                }
                seen[q] = true;
                q = local[q][o[q]][s[q] as usize] as usize;
            }
        };
        let sets: Vec<Vec<bool>> = strategies
            .iter()
            .map(|s| pairs.iter().map(|o| win(s, o)).collect())
            .collect();
        let strictly_below = |i: usize, j: usize| {
            sets[i].iter().zip(&sets[j]).all(|(a, b)| !a || *b) && sets[i] != sets[j]
        };
        for (i, s) in strategies.iter().enumerate() {
            let plays_winning = (0..n).all(|p| r.winning[p].is_none_or(|a| a == s[p]));
            if !plays_winning {
                continue;
            }
            let bf = !(0..strategies.len()).any(|j| strictly_below(i, j));
            let k = r.find(|p| Some(s[p as usize])).unwrap();
            assert_eq!(r.dominated_by[k].is_none(), bf, "{moves:?} σ = {s:?}");
            decided += 1;
        }
    }
    assert!(decided > 100, "{decided}");
}
