//! Joker games (thesis Ch. 6: Def. 6.11 joker sets and J-Rank, Def. 6.14 joker states,
//! Def. 6.15 helping moves, Def. 6.18 joker strategies, Thm 6.13 Joker(R) = Reach(R)).
//!
//! Pre(X) = {q | ∃a ∃x ∃q′ ∈ Moves(q,a,x): q′ ∈ X} (one joker: the system and Player 3
//! cooperate for one step). Joker⁰ = Attr(R), Joker^{k+1} = Joker^k ∪ Attr(Pre(Joker^k)).
//! J-Rank(q) = the least k with q ∈ Joker^k: the fewest jokers with which the tester reaches R.
//!
//! **Algorithm (linear time).** One attractor engine ([`mod@crate::attractor`]) keeps its counters
//! across levels: level k+1 seeds the states of Pre(Joker^k) \ Joker^k (the joker states of
//! level k+1, per-level rank 0) and propagates; Pre is collected on the fly as positions enter,
//! touching each reverse edge once. The whole nested fixpoint is O(arena size), where the naive
//! nested version is O(|Q|·arena).
//!
//! **Strategy (with the note's erratum to Def. 6.18).** At a joker state the tester plays an
//! action with a helping move, i.e. a possible successor of lower J-Rank; among them it takes
//! the one with the fewest remaining moves, then the one with the fewest successors outside
//! Joker(R). Elsewhere it plays the per-level attractor witness, whose successors all have a
//! *lexicographically* smaller (J-Rank, level A-Rank): the thesis' "J-Rank(q′) = J-Rank(q)"
//! clause is too strict (a move that drops to a lower level is good), and its A-Rank must be
//! the per-level rank. Moves are minimised inside each level only (the thesis' open gap §6.5,
//! e.g. 11 instead of 10 moves in the TCP case); [`Solution::moves`] reports the bound of the
//! strategy that was chosen. [`crate::short`] minimises them over the whole game (the
//! default of [`crate::joker()`]).

use crate::arena::Arena;
use crate::attractor::{Engine, Solution, NONE};

/// Solve the joker game of the arena's goal positions. Positions outside the result's set
/// cannot reach the goal at all (Thm 6.13).
pub fn joker_game(arena: &Arena) -> Solution {
    let mut e = Engine::new(arena, true);
    for p in 0..arena.num_positions() as u32 {
        if arena.is_goal(p) {
            e.seed(p, 0, NONE, NONE, 0);
        }
    }
    e.propagate(0);
    let mut level = 0u32;
    loop {
        let mut cands = std::mem::take(&mut e.cands);
        // Index order: sweep memory instead of hitting it at random.
        crate::attractor::sort_positions(&mut cands, &mut e.scratch);
        let mut seeds = Vec::new();
        for o in cands {
            if e.pos[o as usize].inside() {
                continue;
            }
            // Choose the helping action: all positions in the set now have J-Rank ≤ level.
            let mut best: Option<((u32, u32), u32, u32)> = None; // (score, action, target)
            for i in arena.actions(o) {
                let mut help: Option<u32> = None;
                let mut outside = 0u32;
                let pos = &e.pos;
                arena.for_each_successor(i, |t| {
                    let pt = &pos[t as usize];
                    if pt.inside() {
                        if help.is_none_or(|h| {
                            let ph = &pos[h as usize];
                            (pt.moves, pt.arank) < (ph.moves, ph.arank)
                        }) {
                            help = Some(t);
                        }
                    } else {
                        outside += 1;
                    }
                });
                if let Some(h) = help {
                    let score = (pos[h as usize].moves, outside);
                    if best.is_none_or(|(s, _, _)| score < s) {
                        best = Some((score, i as u32, h));
                    }
                }
            }
            let (_, a, h) = best.expect("a Pre candidate has a move into the set");
            seeds.push((o, a, h));
        }
        if seeds.is_empty() {
            break;
        }
        level += 1;
        for (o, a, h) in seeds {
            let m = e.pos[h as usize].moves.saturating_add(1);
            e.seed(o, level, a, h, m);
        }
        e.propagate(level);
    }
    e.solution(level + 1)
}

/// The positions from which some play reaches a goal position (backward reachability over
/// every possible move), the right-hand side of Thm 6.13; for cross-checking [`joker_game`].
pub fn reachable_goal(arena: &Arena) -> Vec<bool> {
    let n = arena.num_positions();
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for p in 0..n as u32 {
        for i in arena.actions(p) {
            arena.for_each_successor(i, |t| preds[t as usize].push(p));
        }
    }
    let mut seen: Vec<bool> = (0..n as u32).map(|p| arena.is_goal(p)).collect();
    let mut stack: Vec<u32> = (0..n as u32).filter(|&p| seen[p as usize]).collect();
    while let Some(t) = stack.pop() {
        for &p in &preds[t as usize] {
            if !seen[p as usize] {
                seen[p as usize] = true;
                stack.push(p);
            }
        }
    }
    seen
}
