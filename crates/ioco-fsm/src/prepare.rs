//! Preparing a specification for the complete-test-suite methods: keep the reachable part,
//! merge equivalent states (minimisation by partition refinement, Moore 1956 / the splitting
//! tree of [`crate::tree`]), and pick the separating-sequence engine.
//!
//! Complete machines use the splitting tree (`O(n)` separators, harmonised by lowest common
//! ancestors, as hybrid-ADS does). Partial machines (undefined transitions) use the pair table
//! of [`crate::pairs`], whose separators are defined words from both states; states are first
//! merged when they are *strictly* equivalent (same defined inputs, same outputs, recursively),
//! and a pair of states that no defined word separates (compatible but not equivalent states)
//! is rejected with [`FsmError::Incompatible`], since no test can tell them apart.

pub use crate::identifiers::{maximal, separates};
use crate::pairs::PairTable;
use crate::tree::{Mode, SplittingTree};
use crate::FsmError;
use ioco_model::Mealy;

/// Largest partial machine handled (the pair table is quadratic in memory).
pub const MAX_PARTIAL_STATES: usize = 5000;

/// How the machine was reduced before generation.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MachineInfo {
    /// States of the input machine.
    pub states: usize,
    /// States reachable from the initial state.
    pub reachable: usize,
    /// States of the minimal machine the suite is generated for (`n` in "n+k").
    pub minimal: usize,
    /// Classes of equivalent reachable states that were merged (state names), each of size ≥ 2.
    pub merged: Vec<Vec<String>>,
    /// Whether the machine is complete (every input defined in every reachable state).
    pub complete: bool,
}

/// The separating-sequence engine.
#[derive(Clone, Debug)]
pub enum Separators {
    /// Splitting tree (complete machines).
    Tree(SplittingTree),
    /// Pairwise shortest separators (partial machines).
    Pairs(PairTable),
}

/// A reachable, minimal machine with its separators.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The reduced machine (initial state 0, states in breadth-first order).
    pub machine: Mealy,
    /// What was reduced.
    pub info: MachineInfo,
    /// Separators of the reduced machine.
    pub seps: Separators,
}

/// Keep only the states reachable from the initial one (renumbered in BFS order, initial 0).
fn reachable_part(m: &Mealy) -> (Mealy, Vec<u32>) {
    let n = m.num_states();
    let mut num = vec![u32::MAX; n];
    let mut order = vec![m.initial];
    num[m.initial as usize] = 0;
    let mut head = 0;
    while head < order.len() {
        let s = order[head];
        head += 1;
        for a in 0..m.num_inputs() as u32 {
            if let Some((t, _)) = m.step(s, a) {
                if num[t as usize] == u32::MAX {
                    num[t as usize] = order.len() as u32;
                    order.push(t);
                }
            }
        }
    }
    let mut r = Mealy::new(order.len(), m.inputs.clone(), m.outputs.clone(), 0);
    for (i, &s) in order.iter().enumerate() {
        r.state_names[i] = m.state_names[s as usize].clone();
        for a in 0..m.num_inputs() as u32 {
            if let Some((t, o)) = m.step(s, a) {
                r.set(i as u32, a, num[t as usize], o);
            }
        }
    }
    (r, order)
}

/// Merge states with the same class number (classes numbered by first member).
fn quotient(m: &Mealy, class: &[u32], classes: usize) -> Mealy {
    let mut q = Mealy::new(
        classes,
        m.inputs.clone(),
        m.outputs.clone(),
        class[m.initial as usize],
    );
    let mut done = vec![false; classes];
    for s in 0..m.num_states() as u32 {
        let c = class[s as usize];
        if done[c as usize] {
            continue;
        }
        done[c as usize] = true;
        q.state_names[c as usize] = m.state_names[s as usize].clone();
        for a in 0..m.num_inputs() as u32 {
            if let Some((t, o)) = m.step(s, a) {
                q.set(c, a, class[t as usize], o);
            }
        }
    }
    q
}

/// Class numbers from the leaves of a splitting tree, restricted to states `0..n`, numbered by
/// first member; returns (class of each state, number of classes, merged groups).
fn classes_from_tree(t: &SplittingTree, n: usize) -> (Vec<u32>, usize, Vec<Vec<u32>>) {
    let mut class = vec![u32::MAX; n];
    let mut leaf_class = std::collections::HashMap::new();
    let mut groups: Vec<Vec<u32>> = Vec::new();
    for (s, &leaf) in t.leaf_of.iter().enumerate().take(n) {
        let c = *leaf_class.entry(leaf).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() as u32 - 1
        });
        class[s] = c;
        groups[c as usize].push(s as u32);
    }
    let count = groups.len();
    (
        class,
        count,
        groups.into_iter().filter(|g| g.len() > 1).collect(),
    )
}

/// Validate, restrict to the reachable part and minimise.
pub fn prepare(m: &Mealy) -> Result<Prepared, FsmError> {
    if m.num_states() == 0 {
        return Err(FsmError::NoStates);
    }
    if m.initial as usize >= m.num_states() {
        return Err(FsmError::BadInitial {
            initial: m.initial,
            states: m.num_states(),
        });
    }
    if m.num_inputs() == 0 {
        return Err(FsmError::NoInputs);
    }
    for s in 0..m.num_states() as u32 {
        for a in 0..m.num_inputs() as u32 {
            if let Some((t, o)) = m.step(s, a) {
                if t as usize >= m.num_states() || o as usize >= m.outputs.len() {
                    return Err(FsmError::BadTransition {
                        state: m.state_names[s as usize].clone(),
                        input: m.inputs[a as usize].clone(),
                    });
                }
            }
        }
    }
    let (r, _order) = reachable_part(m);
    let complete = r.is_complete();
    let mut info = MachineInfo {
        states: m.num_states(),
        reachable: r.num_states(),
        minimal: 0,
        merged: Vec::new(),
        complete,
    };
    let names = |g: &Vec<u32>| -> Vec<String> {
        g.iter()
            .map(|&s| r.state_names[s as usize].clone())
            .collect()
    };
    if complete {
        let tree = SplittingTree::build(&r, Mode::Separating);
        let (class, count, merged) = classes_from_tree(&tree, r.num_states());
        let (machine, tree) = if merged.is_empty() {
            (r.clone(), tree)
        } else {
            info.merged = merged.iter().map(names).collect();
            let q = quotient(&r, &class, count);
            let t = SplittingTree::build(&q, Mode::Separating);
            (q, t)
        };
        info.minimal = machine.num_states();
        return Ok(Prepared {
            machine,
            info,
            seps: Separators::Tree(tree),
        });
    }
    if r.num_states() > MAX_PARTIAL_STATES {
        return Err(FsmError::TooLarge {
            states: r.num_states(),
            limit: MAX_PARTIAL_STATES,
        });
    }
    // Strict equivalence: complete with a sink that answers every input with a fresh output.
    let n = r.num_states();
    let mut outputs = r.outputs.clone();
    outputs.push("⊥".into());
    let bottom = (outputs.len() - 1) as u32;
    let mut c = Mealy::new(n + 1, r.inputs.clone(), outputs, 0);
    for s in 0..=n as u32 {
        for a in 0..r.num_inputs() as u32 {
            match (s < n as u32).then(|| r.step(s, a)).flatten() {
                Some((t, o)) => c.set(s, a, t, o),
                None => c.set(s, a, n as u32, bottom),
            }
        }
    }
    let tree = SplittingTree::build(&c, Mode::Separating);
    let (class, count, merged) = classes_from_tree(&tree, n);
    let machine = if merged.is_empty() {
        r.clone()
    } else {
        info.merged = merged.iter().map(names).collect();
        quotient(&r, &class, count)
    };
    let table = PairTable::build(&machine);
    let bad = table.inseparable();
    if !bad.is_empty() {
        return Err(FsmError::Incompatible {
            pairs: bad
                .iter()
                .map(|&(p, q)| {
                    (
                        machine.state_names[p as usize].clone(),
                        machine.state_names[q as usize].clone(),
                    )
                })
                .collect(),
        });
    }
    info.minimal = machine.num_states();
    Ok(Prepared {
        machine,
        info,
        seps: Separators::Pairs(table),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreachable_states_are_dropped_and_equivalent_ones_merged() {
        // 0 -a/x-> 1 -a/y-> 2 -a/y-> 1 ; state 3 unreachable. 1 and 2 are equivalent.
        let mut m = Mealy::new(4, vec!["a".into()], vec!["x".into(), "y".into()], 0);
        m.set(0, 0, 1, 0);
        m.set(1, 0, 2, 1);
        m.set(2, 0, 1, 1);
        m.set(3, 0, 0, 0);
        let p = prepare(&m).unwrap();
        assert_eq!(p.info.reachable, 3);
        assert_eq!(p.info.minimal, 2);
        assert_eq!(
            p.info.merged,
            vec![vec!["s1".to_string(), "s2".to_string()]]
        );
        assert_eq!(p.machine.outputs_of(&[0, 0, 0]), Some(vec![0, 1, 1]));
    }

    #[test]
    fn incompatible_partial_machine_is_rejected_with_the_pair() {
        let mut m = Mealy::new(
            2,
            vec!["a".into(), "b".into()],
            vec!["x".into(), "y".into()],
            0,
        );
        m.set(0, 0, 1, 0);
        m.set(1, 0, 1, 0);
        m.set(0, 1, 0, 1);
        let e = prepare(&m).unwrap_err();
        assert!(
            matches!(&e, FsmError::Incompatible { pairs } if pairs == &[("s0".into(), "s1".into())])
        );
        assert!(e.to_string().contains("s0"));
    }

    #[test]
    fn maximal_drops_prefixes() {
        let w = maximal(vec![vec![1], vec![1, 2], vec![0], vec![1, 2], vec![]]);
        assert_eq!(w, vec![vec![0], vec![1, 2]]);
    }
}
