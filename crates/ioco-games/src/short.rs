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
//! Two min-cost reachability games, one after the other: J is the value of the game in which
//! a joker costs 1 and a plain move 0 (Def. 6.11's nested fixpoint computes it); M is the
//! value, over the strategies that are J-optimal from *every* state (subgame-perfect), of the
//! game in which every move costs 1 and the system plays against the tester except at the
//! joker moves. Jokers first, then moves: the thesis' "short joker strategies" (§6.9). Along
//! every helped play of the strategy (J, M) decreases lexicographically at every move, so the
//! test case built from it terminates (Lemma 6.32 unchanged). (M is the worst case over *all*
//! successors of a plain move, also those of lower J: the moves of a helped play.)
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
//! **Prices** ([`priced_joker_game`], the thesis' future work): a joker move may cost
//! differently when the system helps by choosing its output (Player 2; [`Prices::output`])
//! or by letting the tester's input win a race against its outputs (Player 3;
//! [`Prices::successor`]; an output winning the race against the input costs both). The
//! jokers are then the least total price C, a min-cost reachability game whose costs differ,
//! solved by a generalised Dijkstra search with a binary heap (O(arena · log arena)); the
//! moves follow as above with "J(t) < J(q)" read as "C(t) + price ≤ C(q)".
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
    let idx = Index::new(arena, &Prices::UNIT);
    let (moves, strategy, help) = moves_phase(arena, &idx, &base.jrank, &Prices::UNIT);
    Solution {
        jrank: base.jrank,
        arank: moves.clone(),
        strategy,
        help,
        moves,
        levels: base.levels,
    }
}

/// Prices of the system's help (the thesis' future work, L11683–L11690: "different prices for
/// jokers, e.g. the cost for choosing the action of Player 2 may be different than the cost
/// for choosing a state from the possible moves available to Player 3").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Prices {
    /// Player 2 helps: the system produces the output (or δ) the tester asks for.
    pub output: u32,
    /// Player 3 helps: the system lets the tester's input win the race against its outputs
    /// (nondeterministic and output-eager arenas); an output that should win the race against
    /// the input costs both prices.
    pub successor: u32,
}

impl Prices {
    /// One joker, whoever helps: [`short_joker_game`].
    pub const UNIT: Prices = Prices {
        output: 1,
        successor: 1,
    };
}

/// The price of asking for successor `t` of action `i` (the cheapest way `t` is among the
/// action's successors); `None` if it is not one.
pub fn help_price(arena: &Arena, i: usize, t: u32, prices: &Prices) -> Option<u32> {
    let wait = matches!(arena.action_move(i), crate::arena::Move::Wait);
    let mut best: Option<u32> = None;
    for &p in arena.parts_of(i) {
        let price = if p & GROUP_BIT != 0 {
            let g = (p & !GROUP_BIT) as usize;
            let members =
                &arena.group_members[arena.group_off[g] as usize..arena.group_off[g + 1] as usize];
            if !members.contains(&t) {
                continue;
            }
            part_price(wait, true, prices)
        } else {
            if p != t {
                continue;
            }
            part_price(wait, false, prices)
        };
        best = Some(best.map_or(price, |b| b.min(price)));
    }
    best
}

/// The price of a helped successor that is a group member (an output) or a direct part, of
/// θ (`wait`) or of an input. With unit prices every joker costs 1.
#[inline]
fn part_price(wait: bool, group: bool, prices: &Prices) -> u32 {
    if *prices == Prices::UNIT {
        return 1;
    }
    match (wait, group) {
        (true, _) => prices.output,
        (false, false) => prices.successor,
        (false, true) => prices.output.saturating_add(prices.successor),
    }
}

/// Priced joker games (the thesis' future work): the least total price of the help the
/// tester needs, then the fewest moves. The price C(q) is the least fixpoint of
/// `C(q) = min over a of  max C(t)  (plain)  or  min C(t) + price(a, t)  (joker)`, computed by
/// a generalised Dijkstra search (a binary heap, since prices differ: O(arena · log)); then
/// the moves as in [`short_joker_game`], with "J(t) < J(q)" read as
/// "C(t) + price ≤ C(q)". `jrank` holds C; with [`Prices::UNIT`] it is the J-Rank and the
/// result is [`short_joker_game`]'s.
pub fn priced_joker_game(arena: &Arena, prices: &Prices) -> Solution {
    let idx = Index::new(arena, prices);
    let c = costs_phase(arena, &idx, prices);
    let (moves, strategy, help) = moves_phase(arena, &idx, &c, prices);
    let levels = c.iter().filter(|&&x| x != NONE).max().map_or(0, |&m| m + 1);
    Solution {
        jrank: c,
        arank: moves.clone(),
        strategy,
        help,
        moves,
        levels,
    }
}

/// The reverse index of an arena: group users, and per position its occurrences as a direct
/// part of an action or a member of a group.
struct Index {
    guser_off: Vec<u32>,
    gusers: Vec<u32>,
    /// Per group: the cheapest user action to ask an output through, and its price.
    gbest: Vec<(u32, u32)>,
    rev_off: Vec<u32>,
    rev: Vec<u32>,
    /// Counted parts per action.
    cnt: Vec<u32>,
}

impl Index {
    fn new(arena: &Arena, prices: &Prices) -> Index {
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
        let gbest = (0..ng)
            .map(|g| {
                gusers[guser_off[g] as usize..guser_off[g + 1] as usize]
                    .iter()
                    .map(|&i| {
                        let wait =
                            matches!(arena.action_move(i as usize), crate::arena::Move::Wait);
                        (part_price(wait, true, prices), i)
                    })
                    .min()
                    .map_or((NONE, NONE), |(p, i)| (i, p))
            })
            .collect();
        Index {
            guser_off,
            gusers,
            gbest,
            rev_off,
            rev,
            cnt,
        }
    }
}

/// The least priced cost C of every position (see [`priced_joker_game`]): Dijkstra with a
/// heap; a plain action completes when its last part is settled (its max), a joker offer is
/// a settled successor plus its price.
fn costs_phase(arena: &Arena, idx: &Index, prices: &Prices) -> Vec<u32> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = arena.num_positions();
    let mut cost = vec![NONE; n];
    let mut cnt = idx.cnt.clone();
    let mut gleft: Vec<u32> = arena.group_off.windows(2).map(|w| w[1] - w[0]).collect();
    let mut heap: BinaryHeap<Reverse<(u32, u32)>> = BinaryHeap::new();
    for p in 0..n as u32 {
        if arena.is_goal(p) {
            heap.push(Reverse((0, p)));
        }
    }
    while let Some(Reverse((ct, t))) = heap.pop() {
        if cost[t as usize] != NONE {
            continue;
        }
        cost[t as usize] = ct;
        for &u in &idx.rev[idx.rev_off[t as usize] as usize..idx.rev_off[t as usize + 1] as usize] {
            if u & GROUP_BIT == 0 {
                let i = u as usize;
                let o = arena.act_owner[i];
                if cost[o as usize] != NONE {
                    cnt[i] -= 1;
                    continue;
                }
                let wait = matches!(arena.action_move(i), crate::arena::Move::Wait);
                heap.push(Reverse((
                    ct.saturating_add(part_price(wait, false, prices)),
                    o,
                )));
                cnt[i] -= 1;
                if cnt[i] == 0 {
                    heap.push(Reverse((ct, o)));
                }
                continue;
            }
            let g = (u & !GROUP_BIT) as usize;
            let (first, price) = idx.gbest[g];
            if first == NONE {
                continue;
            }
            let o = arena.act_owner[first as usize];
            if cost[o as usize] == NONE {
                heap.push(Reverse((ct.saturating_add(price), o)));
            }
            gleft[g] -= 1;
            if gleft[g] == 0 {
                for &a in &idx.gusers[idx.guser_off[g] as usize..idx.guser_off[g + 1] as usize] {
                    let i = a as usize;
                    cnt[i] -= 1;
                    if cnt[i] == 0 && cost[o as usize] == NONE {
                        heap.push(Reverse((ct, o)));
                    }
                }
            }
        }
    }
    cost
}

/// The fewest moves given the joker costs `j` (see the module docs): a FIFO over the
/// counters; returns (moves, strategy, help).
fn moves_phase(
    arena: &Arena,
    idx: &Index,
    j: &[u32],
    prices: &Prices,
) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let n = arena.num_positions();
    let na = arena.num_actions();
    let ng = idx.guser_off.len() - 1;
    let mut cnt = idx.cnt.clone();
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
        for &u in &idx.rev[idx.rev_off[t as usize] as usize..idx.rev_off[t as usize + 1] as usize] {
            if u & GROUP_BIT == 0 {
                // t is a direct part of action u.
                let i = u as usize;
                let o = arena.act_owner[i];
                let wait = matches!(arena.action_move(i), crate::arena::Move::Wait);
                if jt.saturating_add(part_price(wait, false, prices)) <= j[o as usize] {
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
            let users = &idx.gusers[idx.guser_off[g] as usize..idx.guser_off[g + 1] as usize];
            let (first, price) = idx.gbest[g];
            if first == NONE {
                continue;
            }
            let o = arena.act_owner[first as usize];
            if jt.saturating_add(price) <= j[o as usize] {
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
    (st.moves, st.strategy, st.help)
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
