//! Resilience of joker strategies (thesis §6.5, Def. 6.36 dominance, Ex. 6.37 and 6.39): the
//! CPre_{2,3} attractor of the losing states ranks how quickly the system (Players 2 and 3
//! together) can force the play out of Joker(R); among joker strategies with the same jokers
//! and moves, prefer the one whose helping play stays farthest from that (the note's §6.4).
//!
//! CPre_{2,3}(X) = {q | ∃x ∈ Γ2(q) ∀a ∈ Γ1(q): Moves(q,a,x) ∩ X ≠ ∅}. Attr_{2,3}⁰ = L (the
//! positions outside Joker(R)); the rank of q is the least k with q ∈ Attr_{2,3}^k (∞ if never).
//! `stop?` is not an action here (the note: with stop? → ⊥ losing, no state would ever be
//! attracted). Computed with one counter per (q, x): the actions a whose Moves(q,a,x) misses X.
//!
//! Thesis Def. 6.36 (admissibility) is not constructive; this ranking is the thesis' hint
//! (L11494–L11513), and the thesis leaves a formal definition of resilience to future work.

use crate::arena::{Arena, Assumption};
use crate::attractor::{Solution, NONE};
use crate::goal::Goal;
use ioco_model::{Label, Lts, State};

/// A concurrent game with explicit Player-2 actions: Moves(q, a, x) per enabled (a, x).
#[derive(Clone, Debug, Default)]
pub struct Concurrent {
    /// Number of Player-1 actions per position.
    actions: Vec<u32>,
    /// (position, action index, Player-2 action index, successors).
    triples: Vec<(u32, u32, u32, Vec<u32>)>,
    /// Number of Player-2 actions per position.
    outs: Vec<u32>,
    /// Per position, the Player-1 actions' labels when built from an SA ([`Concurrent::of_sa`]):
    /// `None` for θ (wait), else the input; empty for hand-made games.
    labels: Vec<Vec<Option<Label>>>,
}

impl Concurrent {
    /// An explicit game with `n` positions; add moves with [`Concurrent::moves`].
    pub fn new(n: usize) -> Self {
        Concurrent {
            actions: vec![0; n],
            triples: Vec::new(),
            outs: vec![0; n],
            labels: Vec::new(),
        }
    }

    /// The number of positions.
    pub fn num_positions(&self) -> usize {
        self.actions.len()
    }

    /// The number of Player-1 and Player-2 actions at `p`.
    pub fn shape_of(&self, p: u32) -> (u32, u32) {
        (self.actions[p as usize], self.outs[p as usize])
    }

    /// Every (position, Player-1 action, Player-2 action, Moves) declared.
    pub fn all_moves(&self) -> impl Iterator<Item = (u32, u32, u32, &[u32])> + '_ {
        self.triples
            .iter()
            .map(|(p, a, x, ts)| (*p, *a, *x, ts.as_slice()))
    }

    /// The label of Player-1 action `a` at `p` in a game of an SA: `Some(None)` for θ,
    /// `Some(Some(input))` for an input; `None` for a hand-made game.
    pub fn action_label(&self, p: u32, a: u32) -> Option<Option<Label>> {
        self.labels
            .get(p as usize)
            .and_then(|l| l.get(a as usize))
            .copied()
    }

    /// Declare that `p` has `actions` Player-1 and `outputs` Player-2 actions.
    pub fn shape(&mut self, p: u32, actions: u32, outputs: u32) {
        self.actions[p as usize] = actions;
        self.outs[p as usize] = outputs;
    }

    /// Moves(p, a, x) = `targets` (a, x are indices below the declared counts).
    pub fn moves(&mut self, p: u32, a: u32, x: u32, targets: &[u32]) {
        self.triples.push((p, a, x, targets.to_vec()));
    }

    /// The game of a suspension automaton under an assumption (positions as in
    /// [`Arena::of_sa`]: the SA states, then ☺).
    pub fn of_sa(sa: &Lts, goal: &Goal, assume: Assumption) -> Concurrent {
        let n = sa.num_states();
        let win = n as u32;
        let alpha = sa.alphabet();
        let mut g = Concurrent::new(n + 1);
        g.labels = vec![Vec::new(); n + 1];
        let tgt = |l: Label, t: State| if goal.has_label(l) { win } else { t };
        for q in 0..n as State {
            if goal.has_state(q) {
                continue;
            }
            let outs: Vec<(Label, u32)> = sa
                .edges(q)
                .iter()
                .filter(|e| e.label == Label::DELTA || alpha.is_output(e.label))
                .map(|e| (e.label, tgt(e.label, e.target)))
                .collect();
            let quiet = outs.iter().any(|o| o.0 == Label::DELTA)
                || !outs.iter().any(|o| alpha.is_output(o.0));
            let mut a = 0u32;
            if !outs.is_empty() {
                for (xi, &(_, t)) in outs.iter().enumerate() {
                    g.moves(q, a, xi as u32, &[t]);
                }
                g.labels[q as usize].push(None);
                a += 1;
            }
            for e in sa.edges(q).iter().filter(|e| alpha.is_input(e.label)) {
                let ti = tgt(e.label, e.target);
                let ok = match assume.solved_as() {
                    Assumption::OutputEager => quiet,
                    _ => true,
                };
                if !ok {
                    continue;
                }
                for (xi, &(x, tx)) in outs.iter().enumerate() {
                    let m: Vec<u32> = match assume.solved_as() {
                        Assumption::InputEager | Assumption::InputFair => vec![ti],
                        _ if x == Label::DELTA => vec![ti],
                        Assumption::OutputEager => vec![tx],
                        _ => vec![ti, tx],
                    };
                    g.moves(q, a, xi as u32, &m);
                }
                g.labels[q as usize].push(Some(e.label));
                a += 1;
            }
            g.shape(q, a, outs.len() as u32);
        }
        g
    }

    /// The CPre_{2,3} attractor ranks of `losing` ([`NONE`] where the system cannot force a
    /// loss).
    pub fn attractor23(&self, losing: &[bool]) -> Vec<u32> {
        let n = self.actions.len();
        // cnt[(q, x)]: actions a with Moves(q,a,x) ∩ X = ∅.
        let mut xoff = vec![0usize; n + 1];
        for q in 0..n {
            xoff[q + 1] = xoff[q] + self.outs[q] as usize;
        }
        let mut cnt: Vec<u32> = (0..n)
            .flat_map(|q| std::iter::repeat_n(self.actions[q], self.outs[q] as usize))
            .collect();
        let mut hit = vec![false; self.triples.len()];
        let mut rev: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (i, (_, _, _, ts)) in self.triples.iter().enumerate() {
            for &t in ts {
                rev[t as usize].push(i as u32);
            }
        }
        let mut rank = vec![NONE; n];
        let mut queue: Vec<u32> = Vec::new();
        for (p, &l) in losing.iter().enumerate() {
            if l {
                rank[p] = 0;
                queue.push(p as u32);
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let t = queue[head];
            head += 1;
            for &i in &rev[t as usize] {
                if hit[i as usize] {
                    continue;
                }
                hit[i as usize] = true;
                let (q, _, x, _) = &self.triples[i as usize];
                let c = &mut cnt[xoff[*q as usize] + *x as usize];
                *c -= 1;
                if *c == 0 && rank[*q as usize] == NONE {
                    rank[*q as usize] = rank[t as usize] + 1;
                    queue.push(*q);
                }
            }
        }
        rank
    }
}

/// Among the joker strategy's equally good choices (same jokers, same moves bound), pick at
/// every position the action whose play, helped by the system, keeps the highest minimum
/// resilience rank (Ex. 6.39); returns that value per position ([`NONE`] = ∞).
pub fn prefer_resilient(arena: &Arena, sol: &mut Solution, res: &[u32]) -> Vec<u32> {
    let n = arena.num_positions();
    let mut order: Vec<u32> = (0..n as u32).filter(|&p| sol.contains(p)).collect();
    order.sort_by_key(|&p| sol.rank(p));
    let mut val = vec![NONE; n];
    for p in order {
        let pi = p as usize;
        if arena.is_goal(p) {
            continue;
        }
        let rp = sol.rank(p).unwrap();
        let joker_state = sol.is_joker_state(p);
        let mut best: Option<(u32, usize, u32)> = None; // (value, action, help)
        for i in arena.actions(p) {
            let succ = arena.successors(i);
            let (ok, v, h) = if joker_state {
                let helping = succ.iter().copied().filter(|&t| {
                    sol.rank(t).is_some_and(|r| r.0 < rp.0)
                        && sol.moves[t as usize].saturating_add(1) == sol.moves[pi]
                });
                match helping.max_by_key(|&t| val[t as usize]) {
                    Some(t) => (true, val[t as usize], t),
                    None => (false, 0, NONE),
                }
            } else {
                let all_lower = succ.iter().all(|&t| sol.rank(t).is_some_and(|r| r < rp));
                let m = succ
                    .iter()
                    .map(|&t| sol.moves[t as usize])
                    .max()
                    .unwrap_or(0);
                let v = succ.iter().map(|&t| val[t as usize]).min().unwrap_or(NONE);
                (all_lower && m.saturating_add(1) == sol.moves[pi], v, NONE)
            };
            if ok && best.is_none_or(|(bv, _, _)| v > bv) {
                best = Some((v, i, h));
            }
        }
        if let Some((v, i, h)) = best {
            sol.strategy[pi] = i as u32;
            if joker_state {
                sol.help[pi] = h;
            }
            val[pi] = v.min(res[pi]);
        } else {
            val[pi] = res[pi];
        }
    }
    val
}
