//! Distinguishing graphs (thesis Def. 2.27, Lemma 2.29 / Lemma 3.20; journal 003 Def. 27),
//! characterisation sets and harmonised state identifiers (thesis Def. 2.31, Lemma 2.33).
//!
//! The pairwise graph of an incompatible pair `{p, q}` is read off the tester's strategy of
//! [`Compat`] (or Alg. 1's nodes): a *wait* node observes every output, a common output leads
//! to the successor pair's node, an output of only one side ends the experiment; an *input*
//! node applies the common input (an output racing ahead: reset and retry, thesis Def. 2.27
//! (b)). Strategy successors have smaller rank, so the graph is **acyclic by construction**
//! and the same graph is used from `p` and from `q`: the family
//! `W(q) = { DG(q, q') | q' ⋈̸ q }` is harmonised.
//!
//! [`dg_exists`] decides whether a distinguishing graph exists for an arbitrary set of states
//! (least fixpoint over sets with injective labels, thesis Def. 2.26; used for Ex. 2.30).

use crate::compat::{Compat, Strategy};
use crate::sa::Sa;
use crate::tree::{pass, Ctx};
use ioco_gen::TestCase;
use rustc_hash::{FxHashMap, FxHashSet};

/// The distinguishing graph of `{p, p2}` run from local state `p` (oracle state `tq`).
pub(crate) fn dg_tree(ctx: &Ctx, compat: &Compat, p: u32, p2: u32, tq: Option<u32>) -> TestCase {
    let local = ctx.local;
    match compat.strategy(p, p2).expect("pair is incompatible") {
        Strategy::Wait => ctx.observe(p, tq, &mut |x, l1, t2| match local.step(p2, x) {
            Some(l2) => dg_tree(ctx, compat, l1, l2, t2),
            None => pass("distinguished"),
        }),
        Strategy::Input(a) => {
            let l1 = local.step(p, a).expect("common input");
            let l2 = local.step(p2, a).expect("common input");
            let t2 = tq.and_then(|t| ctx.top.step(t, a));
            let after = dg_tree(ctx, compat, l1, l2, t2);
            ctx.stimulate(a, p, tq, after)
        }
    }
}

/// Harmonised state identifiers: for each state, the states it must be distinguished from
/// (`W(q)` is the set of graphs `DG(q, q')` for these `q'`), restricted to `states`.
pub fn identifiers(compat: &Compat, states: &[u32]) -> FxHashMap<u32, Vec<u32>> {
    let mut w = FxHashMap::default();
    for &q in states {
        let partners = states
            .iter()
            .copied()
            .filter(|&q2| !compat.compatible(q, q2))
            .collect();
        w.insert(q, partners);
    }
    w
}

/// A characterisation set: one graph (named by its pair `p < q`) per incompatible pair of
/// `states`. With pairwise graphs this is every incompatible pair.
pub fn characterisation_set(compat: &Compat, states: &[u32]) -> Vec<(u32, u32)> {
    let mut v = Vec::new();
    for (i, &p) in states.iter().enumerate() {
        for &q in &states[i + 1..] {
            if !compat.compatible(p, q) {
                v.push((p.min(q), p.max(q)));
            }
        }
    }
    v
}

/// `injective(D, μ)` (thesis Def. 2.26).
pub fn injective(sa: &Sa, set: &[u32], mu: u16) -> bool {
    if !sa.is_out(mu) && !set.iter().all(|&q| sa.step(q, mu).is_some()) {
        return false;
    }
    let mut seen = FxHashSet::default();
    set.iter()
        .filter_map(|&q| sa.step(q, mu))
        .all(|t| seen.insert(t))
}

fn after(sa: &Sa, set: &[u32], mu: u16) -> Vec<u32> {
    let mut v: Vec<u32> = set.iter().filter_map(|&q| sa.step(q, mu)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Does a distinguishing graph (thesis Def. 2.27) exist for `set`? Least fixpoint over the
/// sets reachable from `set` by `after μ` (acyclicity is enforced by the least fixpoint).
pub fn dg_exists(sa: &Sa, set: &[u32]) -> bool {
    let mut root: Vec<u32> = set.to_vec();
    root.sort_unstable();
    root.dedup();
    let mut universe = vec![root.clone()];
    let mut seen: FxHashSet<Vec<u32>> = FxHashSet::default();
    seen.insert(root.clone());
    let mut i = 0;
    while i < universe.len() {
        let d = universe[i].clone();
        for mu in 0..sa.k() as u16 {
            let a = after(sa, &d, mu);
            if a.len() > 1 && seen.insert(a.clone()) {
                universe.push(a);
            }
        }
        i += 1;
    }
    let mut good: FxHashSet<Vec<u32>> = FxHashSet::default();
    let is_good = |good: &FxHashSet<Vec<u32>>, d: &Vec<u32>| d.len() <= 1 || good.contains(d);
    loop {
        let mut changed = false;
        for d in &universe {
            if good.contains(d) {
                continue;
            }
            let outputs_ok = (0..sa.k() as u16)
                .filter(|&x| sa.is_out(x))
                .all(|x| injective(sa, d, x) && is_good(&good, &after(sa, d, x)));
            let input_ok = (0..sa.k() as u16)
                .filter(|&a| !sa.is_out(a))
                .any(|a| injective(sa, d, a) && is_good(&good, &after(sa, d, a)));
            if outputs_ok || input_ok {
                good.insert(d.clone());
                changed = true;
            }
        }
        if !changed {
            return is_good(&good, &root);
        }
    }
}
