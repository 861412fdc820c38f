//! Divergence: states on a τ-cycle, and the one semantics the tool gives them.
//!
//! The tutorial has no divergence label (notes §1.6): P1:L295 assumes a τ-loop is left
//! eventually (strong fairness), and a real tester ends a divergent run by a time-out and reads
//! quiescence. The tool follows divergent quiescent transition systems (Stokkink, Timmer and
//! Stoelinga, 2013) in the form a time-out sees:
//!
//! * a state on a τ-cycle **from which an output is reachable by τ-steps** is not quiescent
//!   under the `stable` policy: fairness leaves the cycle and the output comes;
//! * a state on a τ-cycle **from which no output is reachable by τ-steps** (*silently
//!   divergent*) is quiescent: the system may loop internally forever, and a tester observes
//!   δ after its time-out.
//!
//! [`crate::Lts::is_quiescent`] applies this under `QuiescencePolicy::Stable`, so the suspension
//! automaton, `compare`, the simulator, the tester and every suite agree (`NoOutput` already
//! counts every state without an output as quiescent).

use crate::{Label, Lts, State};

/// States on a τ-cycle (a τ self-loop or a τ strongly connected component of two or more
/// states), sorted.
pub fn divergent_states(lts: &Lts) -> Vec<State> {
    let all = vec![false; lts.num_states()];
    let mut v: Vec<State> = on_tau_cycle(lts, &all)
        .iter()
        .enumerate()
        .filter(|(_, &d)| d)
        .map(|(s, _)| s as State)
        .collect();
    v.sort_unstable();
    v
}

/// Per state: on a τ-cycle and no output reachable by τ-steps (quiescent by divergence).
pub fn silently_divergent(lts: &Lts) -> Vec<bool> {
    let n = lts.num_states();
    if lts.num_tau() == 0 {
        return vec![false; n];
    }
    on_tau_cycle(lts, &reaches_output(lts))
}

/// Per state: an output is enabled in it or in a state reachable from it by τ-steps.
fn reaches_output(lts: &Lts) -> Vec<bool> {
    let n = lts.num_states();
    let mut rev: Vec<Vec<State>> = vec![Vec::new(); n];
    for s in lts.states() {
        for e in lts.edges_with(s, Label::TAU) {
            rev[e.target as usize].push(s);
        }
    }
    let mut reach = vec![false; n];
    let mut stack: Vec<State> = lts.states().filter(|&s| lts.has_output(s)).collect();
    for &s in &stack {
        reach[s as usize] = true;
    }
    while let Some(t) = stack.pop() {
        for &s in &rev[t as usize] {
            if !reach[s as usize] {
                reach[s as usize] = true;
                stack.push(s);
            }
        }
    }
    reach
}

/// Per state: on a τ-cycle, among the states not `excluded` (Tarjan's strongly connected
/// components, iteratively; the excluded states are closed under τ-predecessors, so a cycle
/// never passes through one).
fn on_tau_cycle(lts: &Lts, excluded: &[bool]) -> Vec<bool> {
    let n = lts.num_states();
    let mut out = vec![false; n];
    let mut index = vec![u32::MAX; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<State> = Vec::new();
    let mut call: Vec<(State, usize)> = Vec::new();
    let mut next = 0u32;
    for root in lts.states() {
        if excluded[root as usize] || index[root as usize] != u32::MAX {
            continue;
        }
        index[root as usize] = next;
        low[root as usize] = next;
        next += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        call.push((root, 0));
        while let Some(&(v, i)) = call.last() {
            let succ = lts.edges_with(v, Label::TAU);
            if i < succ.len() {
                if let Some(top) = call.last_mut() {
                    top.1 += 1;
                }
                let w = succ[i].target;
                if w == v {
                    out[v as usize] = true;
                } else if excluded[w as usize] {
                    // not on a cycle through the included states
                } else if index[w as usize] == u32::MAX {
                    index[w as usize] = next;
                    low[w as usize] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    call.push((w, 0));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
                continue;
            }
            call.pop();
            if let Some(&(u, _)) = call.last() {
                low[u as usize] = low[u as usize].min(low[v as usize]);
            }
            if low[v as usize] == index[v as usize] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w as usize] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    for w in comp {
                        out[w as usize] = true;
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Alphabet, LtsBuilder, QuiescencePolicy};

    fn lts(n: usize, edges: &[(u32, &str, u32)]) -> Lts {
        let mut al = Alphabet::new();
        let a = al.input("a").unwrap();
        let x = al.output("x").unwrap();
        let mut b = LtsBuilder::new(al);
        b.add_states(n);
        b.add_initial(0);
        for &(s, l, t) in edges {
            let l = match l {
                "a" => a,
                "x" => x,
                _ => Label::TAU,
            };
            b.add_transition(s, l, t);
        }
        b.build().unwrap()
    }

    #[test]
    fn a_tau_loop_without_an_output_is_quiescent_one_with_an_output_is_not() {
        // 0 -a-> 1 -τ-> 1: silently divergent
        let l = lts(2, &[(0, "a", 1), (1, "t", 1)]);
        assert_eq!(divergent_states(&l), vec![1]);
        assert_eq!(silently_divergent(&l), vec![false, true]);
        assert!(l.is_quiescent(1, QuiescencePolicy::Stable));
        // 1 -τ-> 2 -τ-> 1, 2 -τ-> 3 -x-> 0: the cycle is left for the output
        let l = lts(
            4,
            &[
                (0, "a", 1),
                (1, "t", 2),
                (2, "t", 1),
                (2, "t", 3),
                (3, "x", 0),
            ],
        );
        assert_eq!(divergent_states(&l), vec![1, 2]);
        assert_eq!(silently_divergent(&l), vec![false; 4]);
        assert!(!l.is_quiescent(1, QuiescencePolicy::Stable));
        // a cycle of three with a τ-tail into it: only the cycle diverges
        let l = lts(
            5,
            &[
                (0, "t", 1),
                (1, "t", 2),
                (2, "t", 3),
                (3, "t", 1),
                (4, "x", 4),
            ],
        );
        assert_eq!(divergent_states(&l), vec![1, 2, 3]);
        assert_eq!(silently_divergent(&l), vec![false, true, true, true, false]);
        assert!(!l.is_quiescent(0, QuiescencePolicy::Stable));
    }
}
