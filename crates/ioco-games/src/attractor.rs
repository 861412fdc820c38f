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
//! once, so the cost is O(arena size) = O(|T|) for an SA arena.
//!
//! **Memory.** On large automata the time goes into cache misses, so what is touched at
//! random per reverse edge is kept small: each rank's block of the worklist is sorted by index
//! (linear radix sort) so the reverse index is swept in order; a reverse edge names the action
//! *and its owner*, and an action with a single part needs no counter (the edge completes it);
//! membership and Pre candidacy are bitsets; the 16-byte position records are written once,
//! when the position enters; joker games keep the largest move bound of the entered parts
//! beside each counter instead of re-reading an action's successors when it completes.
//! Dominated actions (an action whose parts include the only part of another action of the
//! same position: under the nondeterministic assumption every input of a state with outputs,
//! against waiting) can never be the first to force the play into the set, so they get no
//! counter at all (see `DOM`).
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
    /// level 0; the per-level rank of the note's erratum to Def. 6.18 for higher levels); in
    /// a [`crate::short::short_joker_game`] solution the moves over the whole game, so that
    /// [`Solution::rank`] is the lexicographic value (jokers, moves).
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
/// bytes, so four positions share a cache line. Outside the set every field is
/// [`NONE`]; the cold helping moves live in [`Engine::help`].
#[derive(Copy, Clone)]
pub(crate) struct Pos {
    pub(crate) jrank: u32,
    pub(crate) arank: u32,
    pub(crate) strategy: u32,
    pub(crate) moves: u32,
}

impl Pos {
    #[inline]
    pub(crate) fn inside(&self) -> bool {
        self.jrank != NONE
    }
}

/// An entry of the reverse index (or of a group's users): an action that has the position (or
/// the group) as a part, with the action's owner, so that completing an action costs no lookup
/// of per-action data; or (with [`GROUP_BIT`]) a group the position belongs to, with the
/// start of the group's users in `owner` ([`NONE`] if it has none). An action with a single
/// counted part carries [`SINGLE`]: the entry itself completes it, and its counter is never
/// touched. The last user of a group carries [`GROUP_BIT`] (users are actions, so the bit is
/// free there), so a group's users are found without an offset table.
#[derive(Copy, Clone, Default)]
struct Use {
    x: u32,
    owner: u32,
}

/// Flag of a [`Use`] whose action has exactly one counted part.
const SINGLE: u32 = 1 << 30;

/// Flag of a [`Use`] whose action is *dominated*: another action of its owner has as its
/// only part a non-empty group that is also a part of this one (under the nondeterministic
/// assumption, an input of a state with outputs: `a? → {T(q,a)} ∪ outputs(q)` against
/// `θ → outputs(q)`). Whenever a dominated action could force the play into the set, the
/// other one does already, with successors of no higher rank and no larger move bound; so it
/// never needs a counter. Plain attractors leave it out of the reverse index altogether;
/// joker games keep its edges, flagged, only to collect Pre candidates.
const DOM: u32 = 1 << 29;

/// The action index of a [`Use`].
const ACTION: u32 = DOM - 1;

/// Group counter flag: a member has entered (for Pre collection).
const TOUCHED: u32 = 1 << 31;

#[inline]
fn bit(set: &[u64], p: u32) -> bool {
    set[p as usize >> 6] & (1 << (p & 63)) != 0
}

#[inline]
fn set_bit(set: &mut [u64], p: u32) {
    set[p as usize >> 6] |= 1 << (p & 63);
}

/// The incremental counter engine shared by [`attractor`] and [`crate::joker::joker_game`].
///
/// Memory layout (what is touched at random, per reverse-index entry, is kept small, so that
/// it stays in the cache as the automaton grows): the reverse index is read in order (the
/// positions of a rank are processed in index order) and names each action with its owner;
/// "is in the set" and "is a Pre candidate" are bitsets (n/4 bytes for both); only actions
/// with several parts have a counter to decrement; the 16-byte position records are written
/// once per position, when it enters.
pub(crate) struct Engine {
    rev_off: Vec<u32>,
    rev: Vec<Use>,
    /// Per group: the users (actions with the group as a part), each group's list ending
    /// with an entry marked [`GROUP_BIT`].
    users: Vec<Use>,
    /// Per action (at `i * stride`): its parts not yet in the set (only read for actions
    /// without [`SINGLE`]); in joker games followed by the largest `moves` among the parts
    /// that entered, so the bound of a completed action needs no look at its successors.
    cnt: Vec<u32>,
    /// Per group (at `g * stride`): its members not yet in the set, with [`TOUCHED`] once a
    /// member entered; in joker games followed by the largest `moves` among those members.
    gleft: Vec<u32>,
    /// 2 in joker games (counter, largest `moves`), else 1.
    stride: usize,
    pub(crate) pos: Vec<Pos>,
    /// Bitset of the positions in the set (mirrors [`Pos::inside`]).
    inside: Vec<u64>,
    /// Bitset of the positions collected as Pre candidates.
    cand: Vec<u64>,
    help: Vec<u32>,
    queue: Vec<u32>,
    head: usize,
    /// Scratch space of [`sort_positions`].
    pub(crate) scratch: Vec<u32>,
    /// Pre(X) candidates collected while positions enter (joker games only).
    collect_pre: bool,
    pub(crate) cands: Vec<u32>,
}

impl Engine {
    #[inline(never)]
    pub(crate) fn new(arena: &Arena, collect_pre: bool) -> Self {
        let n = arena.num_positions();
        let na = arena.num_actions();
        let ng = arena.group_off.len() - 1;
        assert!(
            n < SINGLE as usize && na < DOM as usize && ng < SINGLE as usize,
            "arena too large for 29-bit indices"
        );
        // Reverse index (position -> action and group occurrences) and group users (group ->
        // actions using it), both CSR. One counting pass; then each occurrence is written once,
        // walking backwards with the end offsets as cursors, so no separate `fill` array is
        // touched and the lists keep forward order (actions first, then groups).
        let mut rev_off = vec![0u32; n + 1];
        let mut guser_off = vec![0u32; ng + 1];
        // Per action its counted parts, with DOM (see there) for a dominated one; plain
        // attractors leave dominated actions out entirely.
        let mut cnt: Vec<u32> = Vec::with_capacity(na);
        for w in arena.act_off.windows(2) {
            let acts = w[0] as usize..w[1] as usize;
            let solo = solo_group(arena, acts.clone());
            for i in acts {
                let ps = arena.parts_of(i);
                let dom = solo.is_some_and(|g| ps.len() > 1 && ps.contains(&g));
                if dom && !collect_pre {
                    cnt.push(DOM);
                    continue;
                }
                let mut c = 0u32;
                for &p in ps {
                    if p & GROUP_BIT == 0 {
                        rev_off[p as usize] += 1;
                        c += 1;
                    } else {
                        let g = (p & !GROUP_BIT) as usize;
                        guser_off[g] += 1;
                        c += u32::from(arena.group_off[g + 1] > arena.group_off[g]);
                    }
                }
                cnt.push(c | if dom { DOM } else { 0 });
            }
        }
        let mut gleft: Vec<u32> = arena.group_off.windows(2).map(|w| w[1] - w[0]).collect();
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
        let mut rev = vec![Use::default(); sum as usize];
        let mut sum = 0u32;
        for c in &mut guser_off[..ng] {
            sum += *c;
            *c = sum;
        }
        guser_off[ng] = sum;
        let mut users = vec![Use::default(); sum as usize];
        // Backwards: groups (in reverse), then actions (in reverse); each cursor ends at the
        // start of its list.
        for (g, w) in arena.group_off.windows(2).enumerate().rev() {
            // A group entry carries the start of the group's users (the end of the previous
            // group's; the users are written below), NONE if it has none.
            let start = if g == 0 { 0 } else { guser_off[g - 1] };
            let u = Use {
                x: g as u32 | GROUP_BIT,
                owner: if guser_off[g] > start { start } else { NONE },
            };
            for &t in arena.group_members[w[0] as usize..w[1] as usize]
                .iter()
                .rev()
            {
                let c = &mut rev_off[t as usize];
                *c -= 1;
                rev[*c as usize] = u;
            }
        }
        for i in (0..na).rev() {
            if cnt[i] & DOM != 0 && !collect_pre {
                continue;
            }
            let u = Use {
                x: i as u32
                    | if cnt[i] & DOM != 0 {
                        DOM
                    } else if cnt[i] == 1 {
                        SINGLE
                    } else {
                        0
                    },
                owner: arena.act_owner[i],
            };
            for &p in arena.parts_of(i).iter().rev() {
                if p & GROUP_BIT == 0 {
                    let c = &mut rev_off[p as usize];
                    *c -= 1;
                    rev[*c as usize] = u;
                } else {
                    let c = &mut guser_off[(p & !GROUP_BIT) as usize];
                    *c -= 1;
                    users[*c as usize] = u;
                }
            }
        }
        // The last user of each group is marked.
        for w in guser_off.windows(2) {
            if w[1] > w[0] {
                users[w[1] as usize - 1].x |= GROUP_BIT;
            }
        }
        let words = n.div_ceil(64);
        let stride = if collect_pre { 2 } else { 1 };
        if collect_pre {
            cnt = cnt.iter().flat_map(|&c| [c, 0]).collect();
            gleft = gleft.iter().flat_map(|&c| [c, 0]).collect();
        }
        Engine {
            rev_off,
            rev,
            users,
            cnt,
            gleft,
            stride,
            pos: vec![
                Pos {
                    jrank: NONE,
                    arank: NONE,
                    strategy: NONE,
                    moves: NONE,
                };
                n
            ],
            inside: vec![0; words],
            cand: if collect_pre {
                vec![0; words]
            } else {
                Vec::new()
            },
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
            strategy: self.pos.iter().map(|p| p.strategy).collect(),
            help: self.help.clone(),
            moves: self.pos.iter().map(|p| p.moves).collect(),
            levels,
        }
    }

    /// Put `p` into the set at rank (level, 0).
    pub(crate) fn seed(&mut self, p: u32, level: u32, strategy: u32, help: u32, moves: u32) {
        debug_assert!(!self.pos[p as usize].inside());
        set_bit(&mut self.inside, p);
        let e = &mut self.pos[p as usize];
        e.jrank = level;
        e.arank = 0;
        e.strategy = strategy;
        e.moves = moves;
        self.help[p as usize] = help;
        self.queue.push(p);
    }

    /// Action `action` of `owner` forces the play into the set: the owner enters (unless it
    /// is in already) with rank `rank` and that action as its strategy; `m` is the largest
    /// `moves` among the action's successors (joker games; the bound is then `m + 1`, in a
    /// plain attractor it is the rank).
    #[inline(always)]
    fn ready(&mut self, action: u32, owner: u32, level: u32, rank: u32, m: u32) {
        if bit(&self.inside, owner) {
            return;
        }
        set_bit(&mut self.inside, owner);
        let e = &mut self.pos[owner as usize];
        e.jrank = level;
        e.arank = rank;
        e.strategy = action;
        e.moves = if self.collect_pre {
            m.saturating_add(1)
        } else {
            rank
        };
        self.queue.push(owner);
    }

    /// One of `u`'s parts entered, whose largest `moves` is `m` (joker games): decrement the
    /// action's counter (unless it has a single part) and let its owner enter when it
    /// reaches 0. Collects the owner as a Pre candidate when `pre`.
    #[inline(always)]
    fn part_entered(&mut self, u: Use, level: u32, rank: u32, m: u32, pre: bool) {
        let i = u.x & ACTION;
        if pre {
            self.candidate(u.owner);
        }
        if u.x & DOM != 0 {
            return;
        }
        if u.x & SINGLE != 0 {
            self.ready(i, u.owner, level, rank, m);
            return;
        }
        let k = i as usize * self.stride;
        self.cnt[k] -= 1;
        let m = if self.collect_pre {
            let mx = &mut self.cnt[k + 1];
            *mx = (*mx).max(m);
            *mx
        } else {
            m
        };
        if self.cnt[k] == 0 {
            self.ready(i, u.owner, level, rank, m);
        }
    }

    #[inline]
    fn candidate(&mut self, o: u32) {
        if !bit(&self.inside, o) && !bit(&self.cand, o) {
            set_bit(&mut self.cand, o);
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
            let (r, mp) = {
                let e = &self.pos[p as usize];
                (e.arank + 1, e.moves)
            };
            let (a, b) = (
                self.rev_off[p as usize] as usize,
                self.rev_off[p as usize + 1] as usize,
            );
            for k in a..b {
                let u = self.rev[k];
                if u.x & GROUP_BIT == 0 {
                    self.part_entered(u, level, r, mp, self.collect_pre);
                    continue;
                }
                let g = (u.x & !GROUP_BIT) as usize * self.stride;
                let left = &mut self.gleft[g];
                *left -= 1;
                let first = *left & TOUCHED == 0;
                *left |= TOUCHED;
                let done = *left == TOUCHED;
                let gm = if self.collect_pre {
                    let mx = &mut self.gleft[g + 1];
                    *mx = (*mx).max(mp);
                    *mx
                } else {
                    0
                };
                if ((self.collect_pre && first) || done) && u.owner != NONE {
                    let start = u.owner as usize;
                    if self.collect_pre && first {
                        for k in start.. {
                            let v = self.users[k];
                            self.candidate(v.owner);
                            if v.x & GROUP_BIT != 0 {
                                break;
                            }
                        }
                    }
                    if done {
                        // Pre was collected when the first member entered.
                        for k in start.. {
                            let v = self.users[k];
                            self.part_entered(v, level, r, gm, false);
                            if v.x & GROUP_BIT != 0 {
                                break;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The first action of `acts` whose only part is a non-empty group (wait, in an SA arena):
/// the other actions having that group as a part are dominated (see [`DOM`]). Further such
/// actions are rare and would only cost a missed shortcut.
#[inline]
fn solo_group(arena: &Arena, acts: std::ops::Range<usize>) -> Option<u32> {
    acts.into_iter().find_map(|i| match *arena.parts_of(i) {
        [g] if g & GROUP_BIT != 0 => {
            let k = (g & !GROUP_BIT) as usize;
            (arena.group_off[k + 1] > arena.group_off[k]).then_some(g)
        }
        _ => None,
    })
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
    use super::{attractor, sort_positions, NONE};
    use crate::arena::{Arena, Move, RawBuilder, GROUP_BIT};
    use crate::joker::joker_game;
    use ioco_model::Alphabet;

    /// Position 0 can only be won by its action `[t, own group {m}]` (a two-part action of
    /// the nondeterministic encoding), since its θ also needs the losing position 3. Goals
    /// `t` and `m` are 1 and 2 in either order, so each of the two events can come first.
    fn pair_arena(t: u32, m: u32) -> Arena {
        let mut b = RawBuilder::new(4);
        b.goal[1] = true;
        b.goal[2] = true;
        let g = b.add_group(&[m]);
        b.add_action(Move::Wait, &[g | GROUP_BIT, 3]);
        b.add_action(Move::Wait, &[t, g | GROUP_BIT]);
        b.end_position();
        for _ in 1..4 {
            b.end_position();
        }
        b.finish(
            Alphabet::default(),
            (0..4).map(|i| format!("p{i}")).collect(),
            None,
        )
    }

    #[test]
    fn dominated_actions_are_the_inputs_of_output_states_under_nd() {
        use crate::random::{random_sa, RandomShape};
        use crate::{Assumption, Goal};
        let shape = RandomShape {
            states: 200,
            inputs: 3,
            outputs: 2,
            p_input: 0.5,
            p_output: 0.4,
            window: 0,
        };
        let sa = random_sa(3, &shape);
        for a in Assumption::ALL {
            let arena = Arena::of_sa(&sa, &Goal::of_states(&sa, &[7]), a);
            // The joker engine keeps dominated actions, flagged in their counters.
            let e = super::Engine::new(&arena, true);
            let dom: Vec<bool> = e
                .cnt
                .iter()
                .step_by(2)
                .map(|&c| c & super::DOM != 0)
                .collect();
            let mut seen = 0;
            for p in 0..sa.num_states() as u32 {
                let has_outputs = sa.edges(p).iter().any(|e| sa.alphabet().is_output(e.label));
                for i in arena.actions(p) {
                    let input = matches!(arena.action_move(i), Move::Input(_));
                    let want = a == Assumption::Nondeterministic && has_outputs && input;
                    assert_eq!(dom[i], want, "{a} position {p} action {i}");
                    seen += usize::from(dom[i]);
                }
            }
            assert_eq!(seen > 0, a == Assumption::Nondeterministic, "{a}");
        }
    }

    #[test]
    fn two_part_actions_complete_whichever_part_comes_last() {
        for (t, m) in [(1, 2), (2, 1)] {
            let arena = pair_arena(t, m);
            for sol in [attractor(&arena), joker_game(&arena)] {
                assert_eq!(sol.rank(0), Some((0, 1)), "t={t}");
                assert_eq!(sol.strategy[0], 1, "t={t}");
                assert_eq!(sol.moves[0], 1, "t={t}");
                assert_eq!(sol.arank[3], NONE);
            }
        }
    }

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
