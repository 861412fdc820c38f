//! Invalid states of an automaton with inputs and outputs (thesis Def. 2.21 / Lemma 3.6,
//! computed by thesis Alg. 2 "compute winning tester", journal 003 Def. 21).
//!
//! `inv` is the least set with: `q ∈ inv` if some enabled input leads into `inv`, or every
//! enabled output leads into `inv` (vacuously when `q` enables no output: blocking). Worklist
//! with a counter of outputs not yet known to be invalid, `O(m)`. Used by the merge (thesis
//! Def. 2.23) on the explicit product of demonic completions.

/// `edges[q]` = `(label, target, is_output)`; returns `invalid[q]`.
pub fn invalid_states(edges: &[Vec<(u16, u32, bool)>]) -> Vec<bool> {
    let n = edges.len();
    let mut pre: Vec<Vec<(u32, bool)>> = vec![Vec::new(); n];
    let mut count = vec![0u32; n];
    for (q, es) in edges.iter().enumerate() {
        for &(_, t, out) in es {
            pre[t as usize].push((q as u32, out));
            if out {
                count[q] += 1;
            }
        }
    }
    let mut inv = vec![false; n];
    let mut work: Vec<u32> = Vec::new();
    for q in 0..n {
        if count[q] == 0 {
            inv[q] = true;
            work.push(q as u32);
        }
    }
    while let Some(t) = work.pop() {
        for &(q, out) in &pre[t as usize] {
            if inv[q as usize] {
                continue;
            }
            if !out {
                inv[q as usize] = true;
                work.push(q);
            } else {
                count[q as usize] -= 1;
                if count[q as usize] == 0 {
                    inv[q as usize] = true;
                    work.push(q);
                }
            }
        }
    }
    inv
}
