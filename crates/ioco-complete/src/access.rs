//! Access sequences (thesis Def. 2.37 `P(S, n)` / `P⁺(S, n)`; state cover for the ADG suite,
//! thesis §3.8 "good access sequences are still needed").
//!
//! * [`access_sequences`]: one shortest trace per reachable state, breadth first in label
//!   order (deterministic tie-breaking), not passing through chaos states.
//! * [`traces_upto`]: every trace of length ≤ n (`P(S, n) ∪ P⁺(S, n)`, ε included).

use crate::sa::Sa;
use std::collections::VecDeque;

/// A shortest access sequence per state (`None` when unreachable).
pub fn access_sequences(sa: &Sa) -> Vec<Option<Vec<u16>>> {
    let mut acc: Vec<Option<Vec<u16>>> = vec![None; sa.n()];
    acc[sa.initial as usize] = Some(Vec::new());
    let mut queue = VecDeque::from([sa.initial]);
    while let Some(q) = queue.pop_front() {
        if sa.chaos[q as usize] {
            continue;
        }
        for &(mu, t) in sa.enabled(q) {
            if acc[t as usize].is_none() {
                let mut w = acc[q as usize].clone().unwrap();
                w.push(mu);
                acc[t as usize] = Some(w);
                queue.push_back(t);
            }
        }
    }
    acc
}

/// Every trace of length ≤ `n`, in depth-first label order (not continued from chaos states).
pub fn traces_upto(sa: &Sa, n: usize) -> Vec<Vec<u16>> {
    let mut all = Vec::new();
    fn go(sa: &Sa, q: u32, n: usize, w: &mut Vec<u16>, all: &mut Vec<Vec<u16>>) {
        all.push(w.clone());
        if w.len() == n || sa.chaos[q as usize] {
            return;
        }
        for &(mu, t) in sa.enabled(q) {
            w.push(mu);
            go(sa, t, n, w, all);
            w.pop();
        }
    }
    go(sa, sa.initial, n, &mut Vec::new(), &mut all);
    all
}
