//! The game arena of a suspension automaton (thesis Def. 5.11 / 6.23) with the moves of the
//! test assumptions (thesis Def. 5.12: input-eager, output-eager, nondeterministic; Def. 5.14–5.15
//! input-fair), plus explicit arenas for hand-made games (thesis Def. 6.1, e.g. G_{a∨b}).
//!
//! Positions are the SA states plus one virtual sink ☺ (`win`): a transition whose label is a
//! goal label leads to ☺, so "the label was executed" is an ordinary reachability goal. The tags
//! (q,1)/(q,2) of Def. 5.11 enable the same moves (L11007–L11019), so solving works on Q only;
//! `stop?`/⊥ is never a way to win and is left out (it is the leaf of every test case).
//!
//! **Storage (linear size).** An action of Player 1 (an input `a?` or θ, "wait") is stored as a
//! list of *parts*; the action forces the play into a set X iff every part is in X. A part is a
//! target position or a *group*: the group of state q holds the targets of q's outputs (δ
//! excluded), shared by all actions of q. Under ND an input `a?` in q has parts
//! `[T(q,a), outputs(q)]` instead of `1 + |out(q)|` separate successors, so the arena has
//! O(|T|) size for any assumption and the attractor runs in linear time.
//!
//! Player-1 moves per assumption (q an SA state, Moves of Def. 5.12 read as "successor sets"):
//! * θ (all assumptions, when out(q) ≠ ∅): `{T(q,x) | x ∈ out(q)}`, δ included.
//! * IE and IF: `a?` → `{T(q,a)}` (the input always wins the race).
//! * ND: `a?` → `{T(q,a)} ∪ {T(q,x) | x ∈ out(q) \ δ}`.
//! * OE: `a?` is only taken when the system cannot output: in a state that may be quiescent
//!   (δ ∈ out(q)) the successors are as under ND; in a state with outputs and no δ the input
//!   "vanishes" (never executed) and is not offered.
//!
//! IF is solved as IE (thesis Thm 5.16: IE winnable ⇔ IF winnable); its test cases differ (an
//! output that races ahead of the input is a retry, see [`crate::strategy`]).

use crate::goal::Goal;
use ioco_model::{Alphabet, Label, Lts, State};
use std::fmt;
use std::str::FromStr;

/// How an input/output conflict is settled (thesis §5.3, Def. 5.12, 5.14).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Assumption {
    /// IE: a proposed input always wins; mixed states are controllable.
    InputEager,
    /// OE: the system always outputs unless δ is an option; inputs of output states vanish.
    OutputEager,
    /// ND: either the input or an output may happen (classical ioco).
    #[default]
    Nondeterministic,
    /// IF: ND, but an input proposed again and again in a state is eventually taken.
    InputFair,
}

impl Assumption {
    /// All four, in the order IE, OE, ND, IF.
    pub const ALL: [Assumption; 4] = [
        Assumption::InputEager,
        Assumption::OutputEager,
        Assumption::Nondeterministic,
        Assumption::InputFair,
    ];

    /// The long name used on the command line: `input-eager`, `output-eager`,
    /// `nondeterministic`, `input-fair`.
    pub fn name(self) -> &'static str {
        match self {
            Assumption::InputEager => "input-eager",
            Assumption::OutputEager => "output-eager",
            Assumption::Nondeterministic => "nondeterministic",
            Assumption::InputFair => "input-fair",
        }
    }

    /// The assumption whose game decides winnability (Thm 5.16: IF is solved as IE).
    pub fn solved_as(self) -> Assumption {
        match self {
            Assumption::InputFair => Assumption::InputEager,
            a => a,
        }
    }
}

impl fmt::Display for Assumption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Assumption {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "ie" | "input-eager" => Ok(Assumption::InputEager),
            "oe" | "output-eager" => Ok(Assumption::OutputEager),
            "nd" | "nondeterministic" | "non-deterministic" => Ok(Assumption::Nondeterministic),
            "if" | "input-fair" => Ok(Assumption::InputFair),
            _ => Err(format!(
                "unknown test assumption `{s}`; expected one of input-eager (ie), output-eager (oe), \
                 nondeterministic (nd), input-fair (if)"
            )),
        }
    }
}

/// A Player-1 action: offer an input, or wait (θ) for an output or quiescence.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Move {
    /// Offer this input.
    Input(Label),
    /// θ: offer nothing, observe an output or δ.
    Wait,
}

impl Move {
    /// As users write it: `a?` or `θ`.
    pub fn display(self, alphabet: &Alphabet) -> String {
        match self {
            Move::Input(l) => alphabet.display(l),
            Move::Wait => "θ".to_string(),
        }
    }
}

/// A part of an action: a target position or a group (encoded with the top bit).
pub(crate) type Part = u32;
pub(crate) const GROUP_BIT: u32 = 1 << 31;

/// A game arena in linear-size form (see the module docs).
#[derive(Clone, Debug)]
pub struct Arena {
    alphabet: Alphabet,
    names: Vec<String>,
    pub(crate) goal: Vec<bool>,
    /// Actions of position p: `act_off[p]..act_off[p+1]`.
    pub(crate) act_off: Vec<u32>,
    pub(crate) act_move: Vec<Move>,
    pub(crate) act_owner: Vec<u32>,
    /// Parts of action i: `part_off[i]..part_off[i+1]`.
    pub(crate) part_off: Vec<u32>,
    pub(crate) parts: Vec<Part>,
    /// Members of group g: `group_off[g]..group_off[g+1]`.
    pub(crate) group_off: Vec<u32>,
    pub(crate) group_members: Vec<u32>,
    /// The ☺ position of label goals, if the arena has one.
    win: Option<u32>,
}

impl Arena {
    /// The arena of a suspension automaton (deterministic, explicit δ; thesis Def. 5.11) for
    /// a goal and an assumption. Position `q < sa.num_states()` is SA state `q`; the last
    /// position is ☺, reached by executing a goal label.
    pub fn of_sa(sa: &Lts, goal: &Goal, assume: Assumption) -> Arena {
        let n = sa.num_states();
        let win = n as u32;
        let alpha = sa.alphabet();
        let mut b = RawBuilder::new(n + 1);
        let is_goal_label = |l: Label| goal.labels.contains(&l);
        let retarget = |l: Label, t: State| if is_goal_label(l) { win } else { t };
        let assume = assume.solved_as();
        for q in 0..n as State {
            if goal.states.get(q as usize).copied().unwrap_or(false) {
                b.goal[q as usize] = true;
                b.end_position();
                continue;
            }
            let mut has_out = false;
            let mut delta_target = None;
            let mut members = Vec::new();
            for e in sa.edges(q) {
                if e.label == Label::DELTA {
                    delta_target = Some(retarget(e.label, e.target));
                } else if alpha.is_output(e.label) {
                    has_out = true;
                    members.push(retarget(e.label, e.target));
                }
            }
            let g = b.add_group(&members);
            let quiet = delta_target.is_some() || !has_out;
            if has_out || delta_target.is_some() {
                let mut ps = vec![g | GROUP_BIT];
                if let Some(d) = delta_target {
                    ps.push(d);
                }
                b.add_action(Move::Wait, &ps);
            }
            for e in sa.edges(q) {
                if !alpha.is_input(e.label) {
                    continue;
                }
                let t = retarget(e.label, e.target);
                match assume {
                    Assumption::InputEager | Assumption::InputFair => {
                        b.add_action(Move::Input(e.label), &[t])
                    }
                    Assumption::Nondeterministic => {
                        b.add_action(Move::Input(e.label), &[t, g | GROUP_BIT])
                    }
                    Assumption::OutputEager => {
                        if quiet {
                            b.add_action(Move::Input(e.label), &[t, g | GROUP_BIT])
                        }
                    }
                }
            }
            b.end_position();
        }
        b.goal[n] = true;
        b.end_position();
        let mut names: Vec<String> = (0..n as State).map(|q| sa.state_name(q)).collect();
        names.push("☺".to_string());
        b.finish(alpha.clone(), names, Some(win))
    }

    /// The number of positions.
    pub fn num_positions(&self) -> usize {
        self.goal.len()
    }

    /// The number of Player-1 actions over all positions.
    pub fn num_actions(&self) -> usize {
        self.act_move.len()
    }

    /// The size of the arena: actions plus parts plus group members (the attractor's cost).
    pub fn size(&self) -> usize {
        self.act_move.len() + self.parts.len() + self.group_members.len()
    }

    /// The name of a position.
    pub fn name(&self, p: u32) -> &str {
        &self.names[p as usize]
    }

    /// The alphabet the moves are written in.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// True when `p` is a goal position (a goal state or ☺).
    pub fn is_goal(&self, p: u32) -> bool {
        self.goal[p as usize]
    }

    /// The ☺ position of an SA arena.
    pub fn win(&self) -> Option<u32> {
        self.win
    }

    /// The action indices of position `p`.
    pub fn actions(&self, p: u32) -> std::ops::Range<usize> {
        self.act_off[p as usize] as usize..self.act_off[p as usize + 1] as usize
    }

    /// The move of action `i`.
    pub fn action_move(&self, i: usize) -> Move {
        self.act_move[i]
    }

    /// Every position the play may go to after action `i` (the union of Moves over Player 2
    /// and Player 3 choices), with repetitions.
    pub fn successors(&self, i: usize) -> Vec<u32> {
        let mut v = Vec::new();
        self.for_each_successor(i, |t| v.push(t));
        v
    }

    /// The parts of action `i` (target positions, and groups with [`GROUP_BIT`]).
    #[inline]
    pub(crate) fn parts_of(&self, i: usize) -> &[Part] {
        &self.parts[self.part_off[i] as usize..self.part_off[i + 1] as usize]
    }

    /// Call `f` on every position the play may go to after action `i`.
    #[inline]
    pub(crate) fn for_each_successor(&self, i: usize, mut f: impl FnMut(u32)) {
        for &p in self.parts_of(i) {
            if p & GROUP_BIT != 0 {
                let g = (p & !GROUP_BIT) as usize;
                for &t in
                    &self.group_members[self.group_off[g] as usize..self.group_off[g + 1] as usize]
                {
                    f(t)
                }
            } else {
                f(p)
            }
        }
    }
}

/// Builds arenas position by position (positions must be finished in order).
pub(crate) struct RawBuilder {
    pub(crate) goal: Vec<bool>,
    act_off: Vec<u32>,
    act_move: Vec<Move>,
    act_owner: Vec<u32>,
    part_off: Vec<u32>,
    parts: Vec<Part>,
    group_off: Vec<u32>,
    group_members: Vec<u32>,
}

impl RawBuilder {
    pub(crate) fn new(n: usize) -> Self {
        RawBuilder {
            goal: vec![false; n],
            act_off: vec![0],
            act_move: Vec::new(),
            act_owner: Vec::new(),
            part_off: vec![0],
            parts: Vec::new(),
            group_off: vec![0],
            group_members: Vec::new(),
        }
    }
    pub(crate) fn add_group(&mut self, members: &[u32]) -> u32 {
        self.group_members.extend_from_slice(members);
        self.group_off.push(self.group_members.len() as u32);
        (self.group_off.len() - 2) as u32
    }
    pub(crate) fn add_action(&mut self, m: Move, parts: &[Part]) {
        self.act_move.push(m);
        self.act_owner.push((self.act_off.len() - 1) as u32);
        self.parts.extend_from_slice(parts);
        self.part_off.push(self.parts.len() as u32);
    }
    pub(crate) fn end_position(&mut self) {
        self.act_off.push(self.act_move.len() as u32);
    }
    pub(crate) fn finish(self, alphabet: Alphabet, names: Vec<String>, win: Option<u32>) -> Arena {
        assert_eq!(
            self.act_off.len(),
            self.goal.len() + 1,
            "every position ended"
        );
        Arena {
            alphabet,
            names,
            goal: self.goal,
            act_off: self.act_off,
            act_move: self.act_move,
            act_owner: self.act_owner,
            part_off: self.part_off,
            parts: self.parts,
            group_off: self.group_off,
            group_members: self.group_members,
            win,
        }
    }
}

/// Builds an explicit arena (thesis Def. 6.1) for games that are not the encoding of one SA,
/// such as G_{a∨b} (thesis Fig. 6.1). Each action lists every position the play may go to
/// (over all Player-2 and Player-3 choices).
#[derive(Clone, Debug, Default)]
pub struct ArenaBuilder {
    alphabet: Alphabet,
    names: Vec<String>,
    goal: Vec<bool>,
    actions: Vec<Vec<(Move, Vec<u32>)>>,
}

impl ArenaBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a position with a name; returns its index.
    pub fn position(&mut self, name: &str) -> u32 {
        self.names.push(name.to_string());
        self.goal.push(false);
        self.actions.push(Vec::new());
        (self.names.len() - 1) as u32
    }

    /// Mark `p` as a goal position.
    pub fn goal(&mut self, p: u32) {
        self.goal[p as usize] = true;
    }

    /// Add action `name` (an input name, or `θ`) at `p`, whose possible successors are
    /// `targets`.
    pub fn action(&mut self, p: u32, name: &str, targets: &[u32]) {
        let m = if name == "θ" || name == "theta" {
            Move::Wait
        } else {
            Move::Input(self.alphabet.input(name).expect("an input name"))
        };
        self.actions[p as usize].push((m, targets.to_vec()));
    }

    /// The arena.
    pub fn build(self) -> Arena {
        let mut b = RawBuilder::new(self.names.len());
        for (p, acts) in self.actions.iter().enumerate() {
            b.goal[p] = self.goal[p];
            for (m, ts) in acts {
                b.add_action(*m, ts);
            }
            b.end_position();
        }
        b.finish(self.alphabet, self.names, None)
    }
}
