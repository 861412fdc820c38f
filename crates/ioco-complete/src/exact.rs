//! Exact adaptive distinguishing graphs for small automata (thesis Def. 3.21, with test cases
//! of Def. 3.12 and 3.15 and distinguishing of Def. 3.18), for checking Thm 3.36 and Ex. 3.37
//! (issue #18 item 4): a bounded breadth-first search that finds an ADG iff one exists, and
//! [`check_adg`], which decides whether a given CCS term is an ADG.
//!
//! **Configurations.** Running a test case from every state of `Q` at once, after an
//! observation σ the state of the run is the set `C = Q after σ` of current states and the
//! set `N` of pairs of current states that still *need* separating: `(r, r′)` is in `N` when
//! some incompatible origins `q ⋈̸ q′` reached `r` and `r′` by σ. A pair of `N` that meets
//! in one state, or reaches two compatible states, can never be separated any more (a test
//! case for two compatible states always has a common observation: follow every input, and a
//! common output with compatible successors, Def. 3.8), so such a step is *dead*. A
//! configuration with `N = ∅` is a leaf (everything is distinguished).
//!
//! **Moves** (Def. 3.12, 3.15): an *input state* applies one input `a` enabled in every state
//! of `C` (the test case must be one for every state still running); an *output state*
//! observes every output of `C`. A move is possible when none of its children is dead.
//!
//! **Search.** All configurations reachable from `(Q, {incompatible pairs})` are built
//! breadth first, at most [`ExactOptions::max_configurations`] of them taking at most
//! [`ExactOptions::max_bytes`] (past either the search stops with
//! [`CompleteError::ExactSearchTooLarge`]). An ADG exists iff the initial
//! configuration is in the least fixpoint "`N = ∅`, or some move has all children winning",
//! computed as an attractor (one counter per move); the ADG is read off the attractor's
//! witnesses, whose children have lower ranks, so it is acyclic and its depth is the rank.
//! Time and memory: linear in the configurations and their moves.

use crate::ccs::{TermId, Terms};
use crate::compat::Compat;
use crate::sa::Sa;
use crate::CompleteError;
use rustc_hash::FxHashMap;

/// Options of [`exact_adg`].
#[derive(Clone, Debug)]
pub struct ExactOptions {
    /// Stop with an error past this many configurations.
    pub max_configurations: usize,
    /// Stop with an error past this many bytes of stored configurations (their state and
    /// pair lists, counted twice: in the table and in the index).
    pub max_bytes: usize,
}

impl Default for ExactOptions {
    fn default() -> Self {
        ExactOptions {
            max_configurations: 200_000,
            max_bytes: 256 << 20,
        }
    }
}

/// Bytes a stored configuration takes (list contents, in the table and in the index).
fn config_bytes(c: &Config) -> usize {
    2 * (c.0.len() * 4 + c.1.len() * 8 + 64)
}

/// A configuration: current states (sorted) and the pairs of them still to separate
/// (sorted, `r < r′`).
type Config = (Vec<u32>, Vec<(u32, u32)>);

/// One step of every current state on `mu`; `None` when the step is dead (a pair of `N`
/// meets or becomes compatible).
fn step(sa: &Sa, compat: &Compat, c: &Config, mu: u16) -> Option<Config> {
    let mut cur: Vec<u32> = c.0.iter().filter_map(|&q| sa.step(q, mu)).collect();
    cur.sort_unstable();
    cur.dedup();
    let mut need = Vec::new();
    for &(p, q) in &c.1 {
        if let (Some(p2), Some(q2)) = (sa.step(p, mu), sa.step(q, mu)) {
            if compat.compatible(p2, q2) {
                return None;
            }
            need.push((p2.min(q2), p2.max(q2)));
        }
    }
    need.sort_unstable();
    need.dedup();
    Some((cur, need))
}

/// The outputs (δ included) some state of `set` enables, sorted.
fn outputs(sa: &Sa, set: &[u32]) -> Vec<u16> {
    let mut v: Vec<u16> = set
        .iter()
        .flat_map(|&q| sa.outs(q).map(|(l, _)| l))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The inputs every state of `set` enables, sorted.
fn common_inputs(sa: &Sa, set: &[u32]) -> Vec<u16> {
    let Some((&first, rest)) = set.split_first() else {
        return Vec::new();
    };
    sa.ins(first)
        .map(|(l, _)| l)
        .filter(|&a| rest.iter().all(|&q| sa.step(q, a).is_some()))
        .collect()
}

/// A move of a configuration (one input, or observing every output): its children, with
/// the label leading to each.
struct Move {
    children: Vec<(u16, u32)>,
}

/// Search an adaptive distinguishing graph for all states of `sa` (Def. 3.21). `Ok(None)`:
/// none exists. The ADG is returned as a CCS term in `terms`.
pub fn exact_adg(
    sa: &Sa,
    compat: &Compat,
    terms: &mut Terms,
    opts: &ExactOptions,
) -> Result<Option<TermId>, CompleteError> {
    let n = sa.n() as u32;
    let mut need = Vec::new();
    for q in 1..n {
        for p in 0..q {
            if !compat.compatible(p, q) {
                need.push((p, q));
            }
        }
    }
    let start: Config = ((0..n).collect(), need);
    let mut bytes = config_bytes(&start);
    if bytes > opts.max_bytes {
        return Err(CompleteError::ExactSearchTooLarge {
            configurations: 1,
            bytes,
        });
    }
    let mut ids: FxHashMap<Config, u32> = FxHashMap::default();
    let mut configs: Vec<Config> = Vec::new();
    let mut moves: Vec<Vec<Move>> = Vec::new();
    ids.insert(start.clone(), 0);
    configs.push(start);
    let mut head = 0;
    while head < configs.len() {
        let c = configs[head].clone();
        head += 1;
        let mut ms = Vec::new();
        if !c.1.is_empty() {
            let mut options: Vec<Vec<u16>> = vec![outputs(sa, &c.0)];
            options.extend(common_inputs(sa, &c.0).into_iter().map(|a| vec![a]));
            'm: for labels in options {
                let mut children = Vec::new();
                for mu in labels {
                    let Some(next) = step(sa, compat, &c, mu) else {
                        continue 'm;
                    };
                    let id = match ids.get(&next) {
                        Some(&id) => id,
                        None => {
                            bytes += config_bytes(&next);
                            if configs.len() >= opts.max_configurations || bytes > opts.max_bytes {
                                return Err(CompleteError::ExactSearchTooLarge {
                                    configurations: configs.len(),
                                    bytes,
                                });
                            }
                            let id = configs.len() as u32;
                            ids.insert(next.clone(), id);
                            configs.push(next);
                            id
                        }
                    };
                    children.push((mu, id));
                }
                ms.push(Move { children });
            }
        }
        moves.push(ms);
    }
    // Attractor of the leaves: one counter per move (its children not yet winning).
    let m = configs.len();
    let mut rank = vec![u32::MAX; m];
    let mut witness = vec![u32::MAX; m];
    let mut left: Vec<Vec<u32>> = moves
        .iter()
        .map(|ms| ms.iter().map(|mv| mv.children.len() as u32).collect())
        .collect();
    let mut users: Vec<Vec<(u32, u32)>> = vec![Vec::new(); m];
    for (c, ms) in moves.iter().enumerate() {
        for (k, mv) in ms.iter().enumerate() {
            for &(_, child) in &mv.children {
                users[child as usize].push((c as u32, k as u32));
            }
        }
    }
    let mut queue: Vec<u32> = (0..m as u32)
        .filter(|&c| configs[c as usize].1.is_empty())
        .collect();
    for &c in &queue {
        rank[c as usize] = 0;
    }
    let mut qh = 0;
    while qh < queue.len() {
        let c = queue[qh] as usize;
        qh += 1;
        for &(u, k) in &users[c] {
            let l = &mut left[u as usize][k as usize];
            *l -= 1;
            if *l == 0 && rank[u as usize] == u32::MAX {
                rank[u as usize] = rank[c] + 1;
                witness[u as usize] = k;
                queue.push(u);
            }
        }
    }
    if rank[0] == u32::MAX {
        return Ok(None);
    }
    // Read the ADG off the witnesses (ranks decrease along it).
    let mut memo: FxHashMap<u32, TermId> = FxHashMap::default();
    Ok(Some(term_of(0, &moves, &witness, &rank, terms, &mut memo)))
}

fn term_of(
    c: u32,
    moves: &[Vec<Move>],
    witness: &[u32],
    rank: &[u32],
    terms: &mut Terms,
    memo: &mut FxHashMap<u32, TermId>,
) -> TermId {
    if rank[c as usize] == 0 {
        return Terms::ZERO;
    }
    if let Some(&t) = memo.get(&c) {
        return t;
    }
    let mv = &moves[c as usize][witness[c as usize] as usize];
    let mut parts = Vec::new();
    for &(mu, child) in &mv.children {
        let f = term_of(child, moves, witness, rank, terms, memo);
        parts.push(terms.prefix(mu, f));
    }
    let t = terms.sum(&parts);
    memo.insert(c, t);
    t
}

/// Decide whether the CCS term `root` is an adaptive distinguishing graph for all states of
/// `sa` (Def. 3.21): a test case (every node enables one input or outputs only, Def. 3.12),
/// one for every state (an input is enabled in every state running there, an output node has
/// every output they enable, Def. 3.15), that distinguishes every incompatible pair
/// (Def. 3.18: no common observation). Checked on the definitions, by running the term from
/// every state and keeping each state's origin; `Err` says why not. Exponential in the worst
/// case (observations), so for small automata; at most `max_steps` nodes are visited.
pub fn check_adg(
    sa: &Sa,
    compat: &Compat,
    terms: &Terms,
    root: TermId,
    max_steps: usize,
) -> Result<(), String> {
    let run: Vec<(u32, u32)> = (0..sa.n() as u32).map(|q| (q, q)).collect();
    let mut steps = 0usize;
    check(
        sa,
        compat,
        terms,
        root,
        run,
        &mut Vec::new(),
        &mut steps,
        max_steps,
    )
}

#[allow(clippy::too_many_arguments)]
fn check(
    sa: &Sa,
    compat: &Compat,
    terms: &Terms,
    f: TermId,
    run: Vec<(u32, u32)>,
    trace: &mut Vec<u16>,
    steps: &mut usize,
    max_steps: usize,
) -> Result<(), String> {
    *steps += 1;
    if *steps > max_steps {
        return Err(format!("more than {max_steps} nodes visited"));
    }
    let pre = terms.prefixes(f);
    if pre.is_empty() {
        // A leaf: the origins still running share the observation.
        for (i, &(p, _)) in run.iter().enumerate() {
            for &(q, _) in &run[i + 1..] {
                if !compat.compatible(p, q) {
                    return Err(format!(
                        "states {} and {} are incompatible but share the observation {}",
                        sa.state_names[p as usize],
                        sa.state_names[q as usize],
                        sa.show(trace)
                    ));
                }
            }
        }
        return Ok(());
    }
    let inputs = pre.iter().filter(|(l, _)| !sa.is_out(*l)).count();
    if inputs > 0 && pre.len() > 1 {
        return Err(format!(
            "after {} the node enables an input beside other labels",
            sa.show(trace)
        ));
    }
    if inputs == 1 {
        let a = pre[0].0;
        if let Some(&(_, r)) = run.iter().find(|&&(_, r)| sa.step(r, a).is_none()) {
            return Err(format!(
                "after {} state {} does not enable input {}",
                sa.show(trace),
                sa.state_names[r as usize],
                sa.display[a as usize]
            ));
        }
    } else {
        let currents: Vec<u32> = run.iter().map(|&(_, r)| r).collect();
        for x in outputs(sa, &currents) {
            if !pre.iter().any(|&(l, _)| l == x) {
                return Err(format!(
                    "after {} output {} is allowed but not observed",
                    sa.show(trace),
                    sa.display[x as usize]
                ));
            }
        }
    }
    for &(mu, g) in pre {
        let next: Vec<(u32, u32)> = run
            .iter()
            .filter_map(|&(o, r)| sa.step(r, mu).map(|t| (o, t)))
            .collect();
        if next.is_empty() {
            continue;
        }
        trace.push(mu);
        check(sa, compat, terms, g, next, trace, steps, max_steps)?;
        trace.pop();
    }
    Ok(())
}
