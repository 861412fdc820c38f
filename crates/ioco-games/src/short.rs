//! Short joker strategies: the fewest jokers, then the fewest moves over the *whole* game
//! (thesis §6.8 and its future work, L11630–L11652 and L11677–L11693; issue #18 item 3).
//!
//! **Definition.** Let J(q) be the J-Rank of thesis Def. 6.11 (the fewest jokers with which the
//! tester reaches R from q). A *joker strategy* (Def. 6.18, with the note's erratum: a move
//! may drop to a lower J-Rank) plays at every q ∈ Joker(R) \ R an action a that is either
//! * a *plain move*: every successor t ∈ Moves(q, a, ·) has J(t) ≤ J(q); or
//! * a *joker move* (q is then a joker state, Def. 6.14): the tester asks the system for one
//!   successor t with J(t) < J(q) (a helping move, Def. 6.15).
//!
//! The *moves* of a strategy from q are the most moves of a helped play from q to R. The
//! thesis builds its joker strategies level by level (nested attractors,
//! [`crate::joker::joker_game`]) and so minimises moves only inside each joker level; in its
//! TCP case (Table 6.1) that takes 11 moves where 10 suffice. Here the moves are minimised
//! over the whole game: the value M is the least fixpoint of
//!
//! ```text
//! M(q) = 0                                                           q ∈ R
//! M(q) = min over actions a of q of
//!          1 + max { M(t) | t ∈ Moves(q,a,·) }        if every such t has J(t) ≤ J(q)
//!          1 + min { M(t) | t ∈ Moves(q,a,·), J(t) < J(q) }     (a joker move)
//! ```
//!
//! so the pair (J(q), M(q)) is the value of q in a min-cost reachability game with
//! lexicographic costs, where a plain move costs (0, 1) and a joker move (1, 1): jokers first,
//! then moves (a priced game in the sense of the thesis' future work, with one price per
//! joker). The strategy is J-Rank optimal from *every* state (subgame-perfect), and along each
//! of its helped plays (J, M) decreases lexicographically at every move, so the test case
//! built from it terminates (Lemma 6.32 unchanged).
//!
//! **Algorithm (linear time).** J comes from the linear nested-attractor engine. M is then a
//! generalised Dijkstra search whose step costs are all 1, so a FIFO queue replaces the
//! priority queue (positions settle in non-decreasing M, like attractor ranks): a settled
//! position t offers its predecessors
//! * a joker move, M(t) + 1, to each owner q of an action with t as a successor and
//!   J(t) < J(q) — the first offer is the least, `min` is the first settled helper;
//! * a plain move, M(t) + 1, when t is the *last* successor of an action to settle (the
//!   counter of the attractor engine reaching 0), if the largest J among its successors is
//!   at most J(q) — the last settled is the `max`.
//!
//! A position settles with its first offer. Each part of an action and each member of a
//! group (the linear-size arena of [`crate::arena`]) is counted down once, so the cost is
//! O(arena size) like the attractor. The outputs of a state form one group shared by all its
//! actions; a joker offer through a group member goes to the group's owner once.
//!
//! The [`Solution`] has `jrank` = J, `arank` = `moves` = M (so [`Solution::rank`] is the
//! lexicographic value (J, M)), `help` set at the states where the strategy plays a joker
//! move, and `levels` as the nested game's.

use crate::arena::{Arena, GROUP_BIT};
use crate::attractor::{Solution, NONE};
use crate::joker::joker_game;

/// Solve the joker game of the arena's goal positions with the fewest jokers, then the fewest
/// moves over the whole game (see the module docs). Positions outside the result's set cannot
/// reach the goal at all (Thm 6.13).
pub fn short_joker_game(arena: &Arena) -> Solution {
    let base = joker_game(arena);
    let j = &base.jrank;
    let n = arena.num_positions();
    let na = arena.num_actions();
    let ng = arena.group_off.len() - 1;
    // Group users (actions with the group as a part) and the group's owner.
    let mut guser_off = vec![0u32; ng + 1];
    for i in 0..na {
        for &p in arena.parts_of(i) {
            if p & GROUP_BIT != 0 {
                guser_off[(p & !GROUP_BIT) as usize + 1] += 1;
            }
        }
    }
    for g in 0..ng {
        guser_off[g + 1] += guser_off[g];
    }
    let mut fill = guser_off.clone();
    let mut gusers = vec![0u32; guser_off[ng] as usize];
    // Reverse index: position -> occurrences as a direct part (action) or group member.
    let mut rev_off = vec![0u32; n + 1];
    let mut cnt = vec![0u32; na];
    for (i, c) in cnt.iter_mut().enumerate() {
        for &p in arena.parts_of(i) {
            if p & GROUP_BIT != 0 {
                let g = (p & !GROUP_BIT) as usize;
                gusers[fill[g] as usize] = i as u32;
                fill[g] += 1;
                *c += u32::from(arena.group_off[g + 1] > arena.group_off[g]);
            } else {
                rev_off[p as usize + 1] += 1;
                *c += 1;
            }
        }
    }
    for &t in &arena.group_members {
        rev_off[t as usize + 1] += 1;
    }
    for p in 0..n {
        rev_off[p + 1] += rev_off[p];
    }
    let mut fill = rev_off.clone();
    let mut rev = vec![0u32; rev_off[n] as usize];
    for i in 0..na {
        for &p in arena.parts_of(i) {
            if p & GROUP_BIT == 0 {
                rev[fill[p as usize] as usize] = i as u32;
                fill[p as usize] += 1;
            }
        }
    }
    for g in 0..ng {
        let (a, b) = (arena.group_off[g] as usize, arena.group_off[g + 1] as usize);
        for &t in &arena.group_members[a..b] {
            rev[fill[t as usize] as usize] = g as u32 | GROUP_BIT;
            fill[t as usize] += 1;
        }
    }
    let mut gleft: Vec<u32> = arena.group_off.windows(2).map(|w| w[1] - w[0]).collect();
    let mut gmax = vec![0u32; ng];
    let mut amax = vec![0u32; na];

    let mut st = Settle {
        j,
        moves: vec![NONE; n],
        strategy: vec![NONE; n],
        help: vec![NONE; n],
        queue: Vec::with_capacity(n),
    };
    for p in 0..n as u32 {
        if arena.is_goal(p) {
            st.moves[p as usize] = 0;
            st.queue.push(p);
        }
    }
    let mut head = 0;
    while head < st.queue.len() {
        let t = st.queue[head];
        head += 1;
        let (jt, m) = (j[t as usize], st.moves[t as usize] + 1);
        for &u in &rev[rev_off[t as usize] as usize..rev_off[t as usize + 1] as usize] {
            if u & GROUP_BIT == 0 {
                // t is a direct part of action u.
                let i = u as usize;
                let o = arena.act_owner[i];
                if jt < j[o as usize] {
                    st.offer(o, m, u, t);
                }
                cnt[i] -= 1;
                amax[i] = amax[i].max(jt);
                if cnt[i] == 0 && amax[i] <= j[o as usize] {
                    st.offer(o, m, u, NONE);
                }
                continue;
            }
            // t is an output target of the group's owner.
            let g = (u & !GROUP_BIT) as usize;
            let users = &gusers[guser_off[g] as usize..guser_off[g + 1] as usize];
            let Some(&first) = users.first() else {
                continue;
            };
            let o = arena.act_owner[first as usize];
            if jt < j[o as usize] {
                st.offer(o, m, first, t);
            }
            gleft[g] -= 1;
            gmax[g] = gmax[g].max(jt);
            if gleft[g] == 0 {
                for &a in users {
                    let i = a as usize;
                    cnt[i] -= 1;
                    amax[i] = amax[i].max(gmax[g]);
                    if cnt[i] == 0 && amax[i] <= j[o as usize] {
                        st.offer(o, m, a, NONE);
                    }
                }
            }
        }
    }
    Solution {
        jrank: base.jrank.clone(),
        arank: st.moves.clone(),
        strategy: st.strategy,
        help: st.help,
        moves: st.moves,
        levels: base.levels,
    }
}

/// The positions settled so far, with their values and moves.
struct Settle<'a> {
    j: &'a [u32],
    moves: Vec<u32>,
    strategy: Vec<u32>,
    help: Vec<u32>,
    queue: Vec<u32>,
}

impl Settle<'_> {
    /// Settle `o` with its first offer (the least: offers come in non-decreasing order):
    /// action `a`, helped to `h` ([`NONE`] for a plain move).
    #[inline]
    fn offer(&mut self, o: u32, m: u32, a: u32, h: u32) {
        let oi = o as usize;
        if self.moves[oi] == NONE && self.j[oi] != NONE {
            self.moves[oi] = m;
            self.strategy[oi] = a;
            self.help[oi] = h;
            self.queue.push(o);
        }
    }
}
