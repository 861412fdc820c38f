//! Attractors with ranks and memoryless attracting strategies (thesis Def. 6.7–6.8, Thm 6.9;
//! the linear-time counter algorithm follows thesis Ch. 3 Alg. 2, L4122–L4200).
//!
//! CPre1(X) = {q | ∃a ∈ Γ1(q) ∀x ∈ Γ2(q): Moves(q,a,x) ⊆ X}; Attr⁰ = R,
//! Attr^{k+1} = Attr^k ∪ CPre1(Attr^k); A-Rank(q) = min{k | q ∈ Attr^k}; WinReg = Attr(R).
//!
//! **Algorithm.** Every action keeps a counter of its parts that are not yet in the set, every
//! group a counter of its members not yet in the set (see [`crate::arena`]). A position that
//! enters the set decrements the counters of the parts and groups it occurs in; an action whose
//! counter reaches 0 forces the play into the set, and its owner enters with that action as its
//! strategy. The worklist is FIFO, so ranks come out in non-decreasing order and a position
//! entering while a position of rank r is processed has rank r+1 = 1 + the highest rank among
//! the successors of its witness action: every successor of the strategy's move has a strictly
//! lower rank (an *attracting* strategy, Def. 6.8). Each part and group member is decremented
//! once, so the cost is O(arena size) = O(|T|) for an SA arena. For memory locality each
//! rank's block of the worklist is sorted by index before it is processed (the positions of
//! one rank may be processed in any order); that adds O(k log k) per block of k positions,
//! about 2% of the time on 10^6 transitions, and changes only which of several equally ranked
//! witness actions is kept.
//!
//! The same engine runs the nested fixpoint of joker games ([`mod@crate::joker`]): it keeps its
//! counters across levels and also collects Pre(X) (cooperative predecessors) as positions
//! enter.

use crate::arena::{Arena, GROUP_BIT};

/// "Not in the set" / "no action".
pub const NONE: u32 = u32::MAX;

/// The result of an attractor or joker computation on an [`Arena`].
#[derive(Clone, Debug)]
pub struct Solution {
    /// J-Rank per position: the number of jokers needed (always 0 for a plain attractor);
    /// [`NONE`] outside the set.
    pub jrank: Vec<u32>,
    /// The attractor rank per position inside its joker level (thesis Def. 6.7's A-Rank for
    /// level 0; the per-level rank of the note's erratum to Def. 6.18 for higher levels).
    pub arank: Vec<u32>,
    /// The strategy: the action index (into the arena) per position in the set; [`NONE`] for
    /// goal positions.
    pub strategy: Vec<u32>,
    /// Joker states (thesis Def. 6.14): the position the tester asks the system to help it to
    /// (a helping move, Def. 6.15), [`NONE`] elsewhere.
    pub help: Vec<u32>,
    /// An upper bound on the number of moves to the goal when the strategy is played and the
    /// system helps at every joker state (the attractor rank for a plain attractor).
    pub moves: Vec<u32>,
    /// The number of joker levels computed (1 for a plain attractor).
    pub levels: u32,
}

impl Solution {
    /// True when position `p` is in the set (the attractor, or Joker(R)).
    pub fn contains(&self, p: u32) -> bool {
        self.jrank[p as usize] != NONE
    }

    /// True when `p` is a joker state.
    pub fn is_joker_state(&self, p: u32) -> bool {
        self.help[p as usize] != NONE
    }

    /// The lexicographic rank (J-Rank, A-Rank) of `p`, `None` outside the set.
    pub fn rank(&self, p: u32) -> Option<(u32, u32)> {
        self.contains(p)
            .then(|| (self.jrank[p as usize], self.arank[p as usize]))
    }

    /// The number of positions in the set.
    pub fn size(&self) -> usize {
        self.jrank.iter().filter(|&&r| r != NONE).count()
    }
}

/// Per-position data, kept together so that a position costs one cache miss, not four; 16
/// bytes, so four positions share a cache line. While a position is outside the set its
/// `strategy` is [`NONE`] or [`CAND`] (already collected as a Pre candidate); the cold
/// helping moves live in [`Engine::help`].
#[derive(Copy, Clone)]
pub(crate) struct Pos {
    pub(crate) jrank: u32,
    pub(crate) arank: u32,
    pub(crate) strategy: u32,
    pub(crate) moves: u32,
}

/// `Pos::strategy` of a position outside the set that is already a Pre candidate.
const CAND: u32 = NONE - 1;

impl Pos {
    #[inline]
    pub(crate) fn inside(&self) -> bool {
        self.jrank != NONE
    }
}

/// Per-action data: the number of parts not yet in the set, and the owner.
#[derive(Copy, Clone)]
struct Act {
    cnt: u32,
    owner: u32,
}

/// Per-group data: the members not yet in the set (with [`TOUCHED`] once a member entered,
/// for Pre collection) and the start of the group's users (actions with the group as a part;
/// they end where the next group's start).
#[derive(Copy, Clone, Default)]
struct Grp {
    left: u32,
    users: u32,
}

const TOUCHED: u32 = 1 << 31;

/// The incremental counter engine shared by [`attractor`] and [`crate::joker::joker_game`].
pub(crate) struct Engine<'a> {
    arena: &'a Arena,
    rev_off: Vec<u32>,
    rev: Vec<u32>,
    users: Vec<u32>,
    act: Vec<Act>,
    /// Per group, plus a sentinel: one cache line serves the counter, the flag and the users.
    grp: Vec<Grp>,
    pub(crate) pos: Vec<Pos>,
    help: Vec<u32>,
    queue: Vec<u32>,
    head: usize,
    /// Scratch space of [`sort_positions`].
    pub(crate) scratch: Vec<u32>,
    /// Pre(X) candidates collected while positions enter (joker games only).
    collect_pre: bool,
    pub(crate) cands: Vec<u32>,
}

impl<'a> Engine<'a> {
    #[inline(never)]
    pub(crate) fn new(arena: &'a Arena, collect_pre: bool) -> Self {
        let n = arena.num_positions();
        let ng = arena.group_off.len() - 1;
        // Reverse index (position -> action and group occurrences) and group users (group ->
        // actions using it), both CSR. One counting pass; then each occurrence is written once,
        // walking backwards with the end offsets as cursors, so no separate `fill` array is
        // touched and the lists keep forward order (actions first, then groups).
        let mut rev_off = vec![0u32; n + 1];
        let mut grp = vec![Grp::default(); ng + 1];
        let mut act: Vec<Act> = Vec::with_capacity(arena.num_actions());
        for (w, &owner) in arena.part_off.windows(2).zip(&arena.act_owner) {
            let mut cnt = 0u32;
            for &p in &arena.parts[w[0] as usize..w[1] as usize] {
                if p & GROUP_BIT == 0 {
                    rev_off[p as usize] += 1;
                    cnt += 1;
                } else {
                    let g = (p & !GROUP_BIT) as usize;
                    grp[g].users += 1;
                    cnt += u32::from(arena.group_off[g + 1] > arena.group_off[g]);
                }
            }
            act.push(Act { cnt, owner });
        }
        for (gr, w) in grp.iter_mut().zip(arena.group_off.windows(2)) {
            gr.left = w[1] - w[0];
        }
        for &t in &arena.group_members {
            rev_off[t as usize] += 1;
        }
        // Inclusive prefix sums: x_off[i] is the end of i's list (and x_off[last] the total).
        let mut sum = 0u32;
        for c in &mut rev_off[..n] {
            sum += *c;
            *c = sum;
        }
        rev_off[n] = sum;
        let mut rev = vec![0u32; sum as usize];
        let mut sum = 0u32;
        for gr in &mut grp[..ng] {
            sum += gr.users;
            gr.users = sum;
        }
        grp[ng].users = sum;
        let mut users = vec![0u32; sum as usize];
        // Backwards: groups (in reverse), then actions (in reverse); each cursor ends at the
        // start of its list.
        for (g, w) in arena.group_off.windows(2).enumerate().rev() {
            for &t in arena.group_members[w[0] as usize..w[1] as usize]
                .iter()
                .rev()
            {
                let c = &mut rev_off[t as usize];
                *c -= 1;
                rev[*c as usize] = g as u32 | GROUP_BIT;
            }
        }
        for (i, w) in arena.part_off.windows(2).enumerate().rev() {
            for &p in arena.parts[w[0] as usize..w[1] as usize].iter().rev() {
                let c = if p & GROUP_BIT == 0 {
                    &mut rev_off[p as usize]
                } else {
                    &mut grp[(p & !GROUP_BIT) as usize].users
                };
                *c -= 1;
                if p & GROUP_BIT == 0 {
                    rev[*c as usize] = i as u32;
                } else {
                    users[*c as usize] = i as u32;
                }
            }
        }
        Engine {
            arena,
            rev_off,
            rev,
            users,
            act,
            grp,
            pos: vec![
                Pos {
                    jrank: NONE,
                    arank: NONE,
                    strategy: NONE,
                    moves: NONE,
                };
                n
            ],
            help: vec![NONE; n],
            queue: Vec::with_capacity(n),
            head: 0,
            scratch: Vec::new(),
            collect_pre,
            cands: Vec::new(),
        }
    }

    /// The solution, in per-field vectors.
    #[inline(never)]
    pub(crate) fn solution(&self, levels: u32) -> Solution {
        Solution {
            jrank: self.pos.iter().map(|p| p.jrank).collect(),
            arank: self.pos.iter().map(|p| p.arank).collect(),
            strategy: self
                .pos
                .iter()
                .map(|p| if p.inside() { p.strategy } else { NONE })
                .collect(),
            help: self.help.clone(),
            moves: self.pos.iter().map(|p| p.moves).collect(),
            levels,
        }
    }

    /// Put `p` into the set at rank (level, 0).
    pub(crate) fn seed(&mut self, p: u32, level: u32, strategy: u32, help: u32, moves: u32) {
        let e = &mut self.pos[p as usize];
        debug_assert!(!e.inside());
        e.jrank = level;
        e.arank = 0;
        e.strategy = strategy;
        e.moves = moves;
        self.help[p as usize] = help;
        self.queue.push(p);
    }

    #[inline]
    fn ready(&mut self, action: u32, owner: u32, level: u32, rank: u32) {
        if self.pos[owner as usize].inside() {
            return;
        }
        // In a plain attractor the bound is the rank; with jokers it is 1 + the largest bound
        // among the successors (all of which are already in the set).
        let m = if self.collect_pre {
            let mut m = 0u32;
            let pos = &self.pos;
            self.arena
                .for_each_successor(action as usize, |t| m = m.max(pos[t as usize].moves));
            m
        } else {
            rank - 1
        };
        let e = &mut self.pos[owner as usize];
        e.jrank = level;
        e.arank = rank;
        e.strategy = action;
        e.moves = m.saturating_add(1);
        self.queue.push(owner);
    }

    #[inline]
    fn candidate(&mut self, o: u32) {
        let e = &mut self.pos[o as usize];
        if !e.inside() && e.strategy != CAND {
            e.strategy = CAND;
            self.cands.push(o);
        }
    }

    /// Run the worklist to its fixpoint; positions entering get joker level `level`.
    #[inline(never)]
    pub(crate) fn propagate(&mut self, level: u32) {
        let mut block_end = self.head;
        while self.head < self.queue.len() {
            if self.head == block_end {
                // The worklist holds one rank after the other; process each rank's block in
                // index order, so memory is swept instead of hit at random (ranks and the
                // linear number of counter updates are unchanged).
                block_end = self.queue.len();
                sort_positions(&mut self.queue[self.head..block_end], &mut self.scratch);
            }
            let p = self.queue[self.head];
            self.head += 1;
            let r = self.pos[p as usize].arank;
            let (a, b) = (
                self.rev_off[p as usize] as usize,
                self.rev_off[p as usize + 1] as usize,
            );
            for k in a..b {
                let x = self.rev[k];
                if x & GROUP_BIT == 0 {
                    let act = &mut self.act[x as usize];
                    act.cnt -= 1;
                    let (cnt, owner) = (act.cnt, act.owner);
                    if self.collect_pre {
                        self.candidate(owner);
                    }
                    if cnt == 0 {
                        self.ready(x, owner, level, r + 1);
                    }
                } else {
                    let g = (x & !GROUP_BIT) as usize;
                    let gr = &mut self.grp[g];
                    gr.left -= 1;
                    let first = gr.left & TOUCHED == 0;
                    gr.left |= TOUCHED;
                    let done = gr.left == TOUCHED;
                    let (ua, ub) = (self.grp[g].users as usize, self.grp[g + 1].users as usize);
                    if self.collect_pre && first {
                        for u in ua..ub {
                            self.candidate(self.act[self.users[u] as usize].owner);
                        }
                    }
                    if done {
                        for u in ua..ub {
                            let i = self.users[u];
                            let act = &mut self.act[i as usize];
                            act.cnt -= 1;
                            let (cnt, owner) = (act.cnt, act.owner);
                            if cnt == 0 {
                                self.ready(i, owner, level, r + 1);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Sort distinct position indices in linear time: LSD radix sort with 11-bit digits (as many
/// passes as the largest index needs) for long slices, a comparison sort for short ones. A
/// comparison sort here made the whole computation O(n log n) (its share of the instructions
/// grew with the size of the automaton).
pub(crate) fn sort_positions(v: &mut [u32], scratch: &mut Vec<u32>) {
    const BITS: u32 = 11;
    const BUCKETS: usize = 1 << BITS;
    if v.len() < 1024 {
        v.sort_unstable();
        return;
    }
    let max = v.iter().copied().max().unwrap_or(0);
    let passes = (u32::BITS - max.leading_zeros()).div_ceil(BITS);
    scratch.clear();
    scratch.resize(v.len(), 0);
    let mut count = vec![0u32; BUCKETS];
    for pass in 0..passes {
        let shift = pass * BITS;
        let digit = |x: u32| ((x >> shift) as usize) & (BUCKETS - 1);
        let (src, dst): (&[u32], &mut [u32]) = if pass % 2 == 0 {
            (&*v, &mut scratch[..])
        } else {
            (&scratch[..], &mut *v)
        };
        count.fill(0);
        for &x in src {
            count[digit(x)] += 1;
        }
        let mut sum = 0u32;
        for c in &mut count {
            let k = *c;
            *c = sum;
            sum += k;
        }
        for &x in src {
            let c = &mut count[digit(x)];
            dst[*c as usize] = x;
            *c += 1;
        }
    }
    if passes % 2 == 1 {
        v.copy_from_slice(scratch);
    }
}

/// The attractor of the arena's goal positions, with ranks and a memoryless attracting
/// strategy (thesis Def. 6.7–6.8). Linear in [`Arena::size`].
pub fn attractor(arena: &Arena) -> Solution {
    let mut e = Engine::new(arena, false);
    for p in 0..arena.num_positions() as u32 {
        if arena.is_goal(p) {
            e.seed(p, 0, NONE, NONE, 0);
        }
    }
    e.propagate(0);
    e.solution(1)
}

#[cfg(test)]
mod tests {
    use super::sort_positions;

    #[test]
    fn radix_sort_sorts_long_and_short_slices() {
        let mut scratch = Vec::new();
        for (len, modulus) in [
            (10usize, 1u64 << 32),
            (5000, 1 << 32),
            (5000, 3000),
            (70_000, 1 << 20),
        ] {
            // Scrambled values (multiplicative hashing), with duplicates when modulus < len.
            let mut v: Vec<u32> = (0..len as u64)
                .map(|i| ((i * 2_654_435_761) % modulus) as u32)
                .collect();
            let mut want = v.clone();
            want.sort_unstable();
            sort_positions(&mut v, &mut scratch);
            assert_eq!(v, want, "len {len}");
        }
    }
}
