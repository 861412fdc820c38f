//! Admissible strategies of a test game that has no winning strategy (thesis §6.7,
//! **Def. 6.36**, Ex. 6.37).
//!
//! Def. 6.36: the Player 2 and 3 strategy pairs a Player-1 strategy wins against are
//! WinΣ2,3(σ1, R) = {(σ2, σ3) | Outc(σ1, σ2, σ3) reaches R}; σ1 is *dominated* by σ1′
//! (σ1 <d σ1′) when WinΣ2,3(σ1, R) ⊂ WinΣ2,3(σ1′, R) strictly, and σ1 is *admissible* when no
//! strategy dominates it. The thesis gives no construction ("Definition 6.36 provides no
//! constructive definition", L11449); this file decides the definition exactly, by
//! enumeration, on games small enough for it.
//!
//! **Positional strategies, as Ex. 6.37 counts them.** The example compares σ1a and σ1b of
//! G_{a∨b} over "the four positional Player 2 and 3 strategy pairs" and finds σ1b <d σ1a. Over
//! history-dependent pairs the two would be incomparable: a pair that helps after 1·b·3 and
//! nowhere else beats σ1a (which never sees that history) and loses to σ1b. So Players 2 and
//! 3 play positional strategies here, and so does Player 1 (the thesis' joker strategies are
//! positional). A pair is then a *local choice* per position: Player 2's action x and, for
//! every Player-1 action a, Player 3's pick in Moves(q, a, x).
//!
//! **Reductions** (each keeps the set of admissible strategies exact):
//! * Only positions reachable from q0 matter, and a Player-1 strategy is identified with its
//!   choices at the positions its own plays can reach (strategies that differ elsewhere win
//!   against the same pairs).
//! * Outside Reach(R) = Joker(R) (Thm 6.13) every play loses: nothing to choose there.
//! * In the winning region (the attractor, Def. 6.7–6.8) an admissible strategy plays a
//!   winning strategy: a strategy that reaches a winning position w without winning from it
//!   loses to some positional pair (a lasso through w avoiding R) that the same strategy
//!   with the attractor strategy from w wins against, and it wins against every pair the
//!   first one wins against. All winning strategies win against every pair, so the winning
//!   region counts as won.
//! * Local choices that give every Player-1 action the same successors are one choice.
//!
//! What remains is enumerated: every reduced Player-1 strategy on the positions of
//! Joker(R) ∖ Attr(R) it can reach, against every combination of distinct local choices there
//! (one bit each), and dominance is strict inclusion of these bit sets. The cost is
//! (strategies × pairs × play length); [`AdmissibleOptions::max_work`] bounds it, beyond which
//! [`AdmissibleError::TooLarge`] says how large the game is.

use crate::resilience::Concurrent;
use ioco_model::{Label, Lts, State};
use std::fmt;

/// Where a successor leads in the reduced game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Dest {
    /// The goal or the winning region.
    Won,
    /// Outside Joker(R): the goal cannot be reached any more.
    Lost,
    /// A relevant position (index into `Reduced::pos`).
    At(u32),
}

/// Bounds of [`admissible`].
#[derive(Clone, Copy, Debug)]
pub struct AdmissibleOptions {
    /// The most (Player-1 strategies × Player-2/3 pairs) evaluated.
    pub max_work: u64,
}

impl Default for AdmissibleOptions {
    fn default() -> Self {
        AdmissibleOptions {
            max_work: 200_000_000,
        }
    }
}

/// Why [`admissible`] gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdmissibleError {
    /// Player 1 has a winning strategy from q0: the winning strategies are the admissible
    /// ones (each wins against every pair), use the attractor.
    Winnable,
    /// No play from q0 reaches the goal: every strategy wins against no pair.
    Unreachable,
    /// The strategy given does not play an action of the game at some position.
    NotAStrategy(String),
    /// The exact enumeration would exceed the bound.
    TooLarge {
        /// Reduced Player-1 strategies (saturated at `u64::MAX`).
        strategies: u64,
        /// Positional Player-2/3 pairs up to equivalence (saturated).
        pairs: u64,
        /// The bound.
        limit: u64,
    },
}

impl fmt::Display for AdmissibleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdmissibleError::Winnable => write!(
                f,
                "the tester has a winning strategy: every winning strategy is admissible \
                 (use the reach method)"
            ),
            AdmissibleError::Unreachable => {
                write!(
                    f,
                    "no play reaches the goal: no strategy wins against any system"
                )
            }
            AdmissibleError::NotAStrategy(m) => write!(f, "not a strategy of this game: {m}"),
            AdmissibleError::TooLarge {
                strategies,
                pairs,
                limit,
            } => write!(
                f,
                "admissibility (thesis Def. 6.36) is decided by enumeration and this game is too \
                 large for it: {} tester strategies × {} system strategy pairs exceeds {limit}\n\
                 hint: choose a nearer goal, or rely on the joker method's resilience ranking",
                show_count(*strategies),
                show_count(*pairs)
            ),
        }
    }
}

impl std::error::Error for AdmissibleError {}

fn show_count(n: u64) -> String {
    if n == u64::MAX {
        "more than 2^64".into()
    } else {
        n.to_string()
    }
}

/// A reduced positional Player-1 strategy: the action index per position of the game where
/// it matters (positions of Joker(R) ∖ Attr(R) its plays reach), `None` elsewhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Positional {
    /// Action per position of the [`Concurrent`] game.
    pub action: Vec<Option<u32>>,
    /// How many of the positional Player-2/3 pairs (up to equivalence) it wins against.
    pub wins: u64,
}

/// The admissible strategies of a game, and every reduced strategy with its standing.
#[derive(Clone, Debug)]
pub struct Admissible {
    /// Every reduced Player-1 strategy.
    pub strategies: Vec<Positional>,
    /// Per strategy: `None` if admissible, else the index of an admissible strategy that
    /// dominates it.
    pub dominated_by: Vec<Option<usize>>,
    /// The positional Player-2/3 pairs up to equivalence.
    pub pairs: u64,
    /// The winning-region strategy (the attractor's), per position; `None` outside it.
    pub winning: Vec<Option<u32>>,
}

impl Admissible {
    /// The indices of the admissible strategies.
    pub fn admissible(&self) -> Vec<usize> {
        (0..self.strategies.len())
            .filter(|&i| self.dominated_by[i].is_none())
            .collect()
    }

    /// The reduced strategy that agrees with `choose` (action per position) wherever its
    /// plays go, if `choose` picks an action at each of them.
    pub fn find(&self, choose: impl Fn(u32) -> Option<u32>) -> Option<usize> {
        self.strategies.iter().position(|s| {
            s.action
                .iter()
                .enumerate()
                .all(|(p, a)| a.is_none() || *a == choose(p as u32))
        })
    }
}

/// The game reduced to the positions where choices matter.
struct Reduced {
    /// Game position of each relevant position.
    pos: Vec<u32>,
    /// Per relevant position: its distinct local choices, each the destination per
    /// Player-1 action.
    local: Vec<Vec<Vec<Dest>>>,
    /// Per relevant position: every destination over all choices, per Player-1 action.
    succ: Vec<Vec<Vec<Dest>>>,
}

/// The admissible positional strategies of the concurrent game `g` from `q0` with the goal
/// positions `goal` (thesis Def. 6.36 with positional strategies, as Ex. 6.37).
pub fn admissible(
    g: &Concurrent,
    goal: &[bool],
    q0: u32,
    opts: &AdmissibleOptions,
) -> Result<Admissible, AdmissibleError> {
    let n = g.num_positions();
    // Moves grouped per position: moves[p][a][x] = targets.
    let mut moves: Vec<Vec<Vec<Vec<u32>>>> = (0..n as u32)
        .map(|p| {
            let (a, x) = g.shape_of(p);
            vec![vec![Vec::new(); x as usize]; a as usize]
        })
        .collect();
    for (p, a, x, ts) in g.all_moves() {
        moves[p as usize][a as usize][x as usize] = ts.to_vec();
    }
    // Attr(R): ∃a ∀x: Moves(q,a,x) ⊆ W (Def. 6.7–6.8), naive fixpoint (games here are small).
    let mut won = goal.to_vec();
    let mut winning = vec![None; n];
    loop {
        let mut changed = false;
        for p in 0..n {
            if won[p] {
                continue;
            }
            let a = moves[p].iter().position(|per_x| {
                !per_x.is_empty()
                    && per_x
                        .iter()
                        .all(|ts| !ts.is_empty() && ts.iter().all(|&t| won[t as usize]))
            });
            if let Some(a) = a {
                won[p] = true;
                winning[p] = Some(a as u32);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    if won[q0 as usize] {
        return Err(AdmissibleError::Winnable);
    }
    // Joker(R) = positions from which some play reaches R (Thm 6.13).
    let mut coop = goal.to_vec();
    loop {
        let mut changed = false;
        for p in 0..n {
            if !coop[p]
                && moves[p]
                    .iter()
                    .flatten()
                    .flatten()
                    .any(|&t| coop[t as usize])
            {
                coop[p] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    if !coop[q0 as usize] {
        return Err(AdmissibleError::Unreachable);
    }
    // Relevant positions: in Joker(R) ∖ Attr(R), reachable from q0 through such positions.
    let mut index = vec![u32::MAX; n];
    let mut pos = vec![q0];
    index[q0 as usize] = 0;
    let mut i = 0;
    while i < pos.len() {
        let p = pos[i] as usize;
        i += 1;
        for &t in moves[p].iter().flatten().flatten() {
            let tu = t as usize;
            if coop[tu] && !won[tu] && index[tu] == u32::MAX {
                index[tu] = pos.len() as u32;
                pos.push(t);
            }
        }
    }
    let dest = |t: u32| {
        if won[t as usize] {
            Dest::Won
        } else if !coop[t as usize] {
            Dest::Lost
        } else {
            Dest::At(index[t as usize])
        }
    };
    let mut local = Vec::with_capacity(pos.len());
    let mut succ = Vec::with_capacity(pos.len());
    let mut pairs: u64 = 1;
    for &p in &pos {
        let per_a = &moves[p as usize];
        let outs = per_a.first().map_or(0, |v| v.len());
        let mut choices: Vec<Vec<Dest>> = Vec::new();
        for x in 0..outs {
            // Player 3 picks one target per action: the cartesian product.
            let mut partial: Vec<Vec<Dest>> = vec![Vec::new()];
            for ts in per_a.iter().map(|v| &v[x]) {
                let mut next = Vec::new();
                for pre in &partial {
                    for &t in ts {
                        let mut c = pre.clone();
                        c.push(dest(t));
                        next.push(c);
                    }
                }
                partial = next;
                if partial.len() as u64 > opts.max_work {
                    return Err(AdmissibleError::TooLarge {
                        strategies: 1,
                        pairs: u64::MAX,
                        limit: opts.max_work,
                    });
                }
            }
            choices.extend(partial);
        }
        choices.sort();
        choices.dedup();
        let mut s: Vec<Vec<Dest>> = vec![Vec::new(); per_a.len()];
        for c in &choices {
            for (a, d) in c.iter().enumerate() {
                if !s[a].contains(d) {
                    s[a].push(*d);
                }
            }
        }
        pairs = pairs.saturating_mul(choices.len().max(1) as u64);
        local.push(choices);
        succ.push(s);
    }
    let red = Reduced { pos, local, succ };
    let strategies = enumerate(&red, pairs, opts)?;
    // Win bit sets over the pairs (mixed radix over the relevant positions).
    let words = (pairs as usize).div_ceil(64);
    let radix: Vec<u64> = red.local.iter().map(|c| c.len().max(1) as u64).collect();
    let mut sets: Vec<Vec<u64>> = Vec::with_capacity(strategies.len());
    let mut digits = vec![0usize; red.pos.len()];
    let mut seen = vec![false; red.pos.len()];
    for s in &strategies {
        let mut bits = vec![0u64; words];
        digits.iter_mut().for_each(|d| *d = 0);
        for w in 0..pairs {
            seen.iter_mut().for_each(|v| *v = false);
            let mut at = 0usize;
            let wins = loop {
                if seen[at] {
                    break false;
                }
                seen[at] = true;
                let a = s[at].expect("reachable positions have an action") as usize;
                match red.local[at][digits[at]][a] {
                    Dest::Won => break true,
                    Dest::Lost => break false,
                    Dest::At(t) => at = t as usize,
                }
            };
            if wins {
                bits[(w / 64) as usize] |= 1 << (w % 64);
            }
            // next mixed-radix number
            for (d, &r) in digits.iter_mut().zip(&radix) {
                *d += 1;
                if (*d as u64) < r {
                    break;
                }
                *d = 0;
            }
        }
        sets.push(bits);
    }
    let subset = |a: &[u64], b: &[u64]| a.iter().zip(b).all(|(x, y)| x & !y == 0);
    let k = strategies.len();
    let mut dominated_by: Vec<Option<usize>> = vec![None; k];
    let count = |b: &[u64]| b.iter().map(|w| w.count_ones() as u64).sum::<u64>();
    let wins: Vec<u64> = sets.iter().map(|b| count(b)).collect();
    // Visit in decreasing win count: a dominator has strictly more wins, so the first
    // strict superset found among the admissible ones so far is admissible itself.
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(wins[i]));
    let mut maximal: Vec<usize> = Vec::new();
    for &i in &order {
        let dom = maximal
            .iter()
            .copied()
            .find(|&j| wins[j] > wins[i] && subset(&sets[i], &sets[j]));
        match dom {
            Some(j) => dominated_by[i] = Some(j),
            None => maximal.push(i),
        }
    }
    let strategies = strategies
        .into_iter()
        .zip(&wins)
        .map(|(s, &w)| {
            let mut action = vec![None; n];
            for (r, a) in s.into_iter().enumerate() {
                action[red.pos[r] as usize] = a;
            }
            Positional { action, wins: w }
        })
        .collect();
    Ok(Admissible {
        strategies,
        dominated_by,
        pairs,
        winning,
    })
}

/// Every reduced Player-1 strategy: an action at each relevant position its plays can
/// reach (depth-first, choosing the lowest unassigned reachable position next).
fn enumerate(
    red: &Reduced,
    pairs: u64,
    opts: &AdmissibleOptions,
) -> Result<Vec<Vec<Option<u32>>>, AdmissibleError> {
    let m = red.pos.len();
    let mut out = Vec::new();
    let mut cur: Vec<Option<u32>> = vec![None; m];
    let budget = (opts.max_work / pairs.max(1)).max(1);
    let mut stack: Vec<(usize, u32)> = Vec::new(); // (position, next action to try)
                                                   // The next unassigned position reachable under `cur`, if any.
    let next_open = |cur: &[Option<u32>]| -> Option<usize> {
        let mut seen = vec![false; m];
        let mut todo = vec![0usize];
        seen[0] = true;
        let mut open: Option<usize> = None;
        while let Some(p) = todo.pop() {
            match cur[p] {
                None => open = Some(open.map_or(p, |o: usize| o.min(p))),
                Some(a) => {
                    for d in &red.succ[p][a as usize] {
                        if let Dest::At(t) = d {
                            let t = *t as usize;
                            if !seen[t] {
                                seen[t] = true;
                                todo.push(t);
                            }
                        }
                    }
                }
            }
        }
        open
    };
    let actions = |p: usize| red.succ[p].len() as u32;
    match next_open(&cur) {
        None => unreachable!("q0 is relevant and unassigned"),
        Some(p) => stack.push((p, 0)),
    }
    while let Some((p, a)) = stack.pop() {
        if a >= actions(p) {
            cur[p] = None;
            continue;
        }
        cur[p] = Some(a);
        stack.push((p, a + 1));
        match next_open(&cur) {
            Some(q) => stack.push((q, 0)),
            None => {
                out.push(cur.clone());
                if out.len() as u64 > budget {
                    return Err(AdmissibleError::TooLarge {
                        strategies: estimate(red),
                        pairs,
                        limit: opts.max_work,
                    });
                }
            }
        }
    }
    Ok(out)
}

/// An upper bound on the number of reduced strategies (for the error message).
fn estimate(red: &Reduced) -> u64 {
    red.succ
        .iter()
        .fold(1u64, |acc, s| acc.saturating_mul(s.len().max(1) as u64))
}

/// A tester strategy on an SA where it matters: (state, `None` = θ or `Some(input)`).
pub type SaMoves = Vec<(State, Option<Label>)>;

/// The standing of a joker strategy of a suspension automaton under Def. 6.36.
#[derive(Clone, Debug)]
pub struct SaAdmissibility {
    /// Whether the given strategy is admissible.
    pub admissible: bool,
    /// Pairs (positional, up to equivalence) the strategy wins against.
    pub wins: u64,
    /// All pairs.
    pub pairs: u64,
    /// The number of admissible reduced strategies, and of all reduced strategies.
    pub count: (usize, usize),
    /// If dominated: an admissible strategy that dominates it, as (SA state, action) where it
    /// matters (`None` = θ, wait), with the pairs it wins against.
    pub dominator: Option<(SaMoves, u64)>,
}

/// Decide whether the memoryless tester strategy `choose` (the move per SA state: `None`
/// for θ, `Some(input)`) on the suspension automaton `sa` is admissible for reaching
/// `goal` (Def. 6.36, positional), in the concurrent game of [`Concurrent::of_sa`].
pub fn sa_admissibility(
    sa: &Lts,
    goal: &crate::Goal,
    assume: crate::Assumption,
    choose: impl Fn(State) -> Option<Option<Label>>,
    opts: &AdmissibleOptions,
) -> Result<SaAdmissibility, AdmissibleError> {
    let g = Concurrent::of_sa(sa, goal, assume);
    let n = sa.num_states();
    let goal_pos: Vec<bool> = (0..=n as u32)
        .map(|p| p as usize == n || goal.has_state(p))
        .collect();
    let q0 = sa.initial()[0];
    let res = admissible(&g, &goal_pos, q0, opts)?;
    let index_of = |p: u32| -> Option<u32> {
        let want = choose(p)?;
        let (acts, _) = g.shape_of(p);
        (0..acts).find(|&a| g.action_label(p, a) == Some(want))
    };
    let i = res.find(index_of).ok_or_else(|| {
        AdmissibleError::NotAStrategy(
            "it plays no action of the game at some state its plays reach".into(),
        )
    })?;
    let dominator = res.dominated_by[i].map(|j| {
        let s = &res.strategies[j];
        let moves = s
            .action
            .iter()
            .enumerate()
            .filter_map(|(p, a)| {
                a.map(|a| {
                    (
                        p as State,
                        g.action_label(p as u32, a).expect("an SA game has labels"),
                    )
                })
            })
            .collect();
        (moves, s.wins)
    });
    Ok(SaAdmissibility {
        admissible: res.dominated_by[i].is_none(),
        wins: res.strategies[i].wins,
        pairs: res.pairs,
        count: (res.admissible().len(), res.strategies.len()),
        dominator,
    })
}
