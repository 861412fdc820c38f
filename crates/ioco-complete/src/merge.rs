//! Merge of two compatible states `q ∧ q'` (thesis Def. 2.20 parallel composition of the
//! demonic completions, Def. 2.21 invalid states, Def. 2.23 merge; journal 003 Def. 20–23).
//!
//! The reachable part of `X(S)/q ‖ X(S)/q'` is built (a label is enabled when both components
//! enable it; χ enables everything), its invalid states are removed, and the pair `(χ, χ)` is
//! dropped: it is only entered by inputs that neither side specifies, so dropping it leaves the
//! input unspecified, which is equivalent (thesis Ex. 2.38, L3105–3108). The result is a
//! suspension automaton whose conforming implementations are exactly those of both states
//! (thesis Lemma 2.24). `None` when `q ⋈̸ q'` (Lemma 2.22).

use crate::sa::Sa;
use crate::validity::invalid_states;
use rustc_hash::FxHashMap;

const CHI: u32 = u32::MAX;

/// Build `q ∧ q'` as a new automaton whose initial state is `(q, q')`.
pub fn merge(sa: &Sa, q: u32, q2: u32) -> Option<Sa> {
    let k = sa.k() as u16;
    let step = |c: u32, l: u16| -> Option<u32> {
        if c == CHI {
            return Some(CHI);
        }
        match sa.step(c, l) {
            Some(t) => Some(t),
            None if !sa.is_out(l) => Some(CHI),
            None => None,
        }
    };
    let mut ids: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    let mut states: Vec<(u32, u32)> = vec![(q, q2)];
    ids.insert((q, q2), 0);
    let mut edges: Vec<Vec<(u16, u32, bool)>> = Vec::new();
    let mut i = 0;
    while i < states.len() {
        let (a, b) = states[i];
        let mut es = Vec::new();
        if (a, b) != (CHI, CHI) {
            for l in 0..k {
                if let (Some(ta), Some(tb)) = (step(a, l), step(b, l)) {
                    let next = states.len() as u32;
                    let id = *ids.entry((ta, tb)).or_insert_with(|| {
                        states.push((ta, tb));
                        next
                    });
                    es.push((l, id, sa.is_out(l)));
                }
            }
        } else {
            // (χ, χ) allows everything; it is dropped below, mark it valid.
            for l in 0..k {
                es.push((l, i as u32, sa.is_out(l)));
            }
        }
        edges.push(es);
        i += 1;
    }
    let inv = invalid_states(&edges);
    if inv[0] {
        return None;
    }
    let chichi = ids.get(&(CHI, CHI)).copied();
    let keep = |s: u32| !inv[s as usize] && Some(s) != chichi;
    // Renumber the kept states reachable from the initial state.
    let mut new_id = vec![u32::MAX; states.len()];
    let mut order = vec![0u32];
    new_id[0] = 0;
    let mut j = 0;
    while j < order.len() {
        let s = order[j];
        for &(_, t, _) in &edges[s as usize] {
            if keep(t) && new_id[t as usize] == u32::MAX {
                new_id[t as usize] = order.len() as u32;
                order.push(t);
            }
        }
        j += 1;
    }
    let mut trans = Vec::new();
    for &s in &order {
        for &(l, t, _) in &edges[s as usize] {
            if keep(t) {
                trans.push((new_id[s as usize], l, new_id[t as usize]));
            }
        }
    }
    let name = |c: u32| {
        if c == CHI {
            "χ".to_string()
        } else {
            sa.state_names[c as usize].clone()
        }
    };
    let names = order
        .iter()
        .map(|&s| {
            let (a, b) = states[s as usize];
            format!("({},{})", name(a), name(b))
        })
        .collect();
    let n = order.len();
    Some(Sa::from_parts(sa, n, 0, &trans, names, vec![false; n]))
}
