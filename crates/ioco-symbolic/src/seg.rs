//! Switch coverage: the symbolic execution graph (thesis Def. 4.14, TAP19 Def. 14) and test
//! purposes by breadth-first search (thesis Def. 4.16, TAP19 §4). Their execution (**thesis
//! Alg. 6 = TAP19 Alg. 1**) is a selection of the one tester: `ioco_exec::engine::purpose_seg`,
//! and the coverage run `ioco_exec::coverage`.
//!
//! [`select_purposes`] explores the SEG breadth first up to a depth bound. An edge `s —r→ s'`
//! exists when `φ_r[m] ∧ η` is `sat` or `unknown` (the benefit of the doubt, Def. 4.12);
//! edges kept on `unknown` are marked doubtful. For every switch, the first (shortest) path
//! ending in it is a purpose, replaced by a later path without doubtful edges if one is found
//! (the tweak of note §2.9: TAP19 Ex. 17's `r0 r1 r2` is the doubtful path). All switches on a
//! purpose's path count as covered (a priori coverage, TAP19 L255); purposes whose paths are
//! prefixes of others are dropped; purposes run longest first (TAP19 L384). Switches not
//! covered are reported by name, with the reason: guard unsatisfiable in every state, or not
//! reached within the bound.

use crate::solver::{Checker, SatResult};
use crate::system::{Move, SwitchId, SymState, System};
use crate::term::{SymVar, Term, T};
use std::collections::{BTreeSet, HashMap, VecDeque};

/// A test purpose `(r0 … rn, η)`.
#[derive(Clone, Debug)]
pub struct Purpose {
    /// The moves of the path.
    pub path: Vec<Move>,
    /// The path condition of the SEG state the path reaches (parameters `name@i`).
    pub pc: T,
    /// The switch this purpose was selected for.
    pub target: SwitchId,
    /// Some edge of the path was kept on `unknown`.
    pub doubtful: bool,
}

impl Purpose {
    /// The switches on the path.
    pub fn switches(&self) -> BTreeSet<SwitchId> {
        self.path
            .iter()
            .flat_map(|m| m.parts.iter().copied())
            .collect()
    }
}

/// Why a switch has no purpose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Uncovered {
    /// Its guard is unsatisfiable for all values of variables and parameters.
    Unsatisfiable,
    /// Not reached within the depth bound (or the node budget).
    Unreached,
}

/// The result of purpose selection.
#[derive(Clone, Debug)]
pub struct Selection {
    /// Purposes, longest first.
    pub purposes: Vec<Purpose>,
    /// Switches not covered, with their names and reasons.
    pub uncovered: Vec<(SwitchId, String, Uncovered)>,
    /// Number of switches.
    pub total: usize,
    /// SEG nodes explored.
    pub seg_nodes: usize,
    /// Depth bound used.
    pub depth: usize,
}

impl Selection {
    /// A priori switch coverage `|⋃ switches of the purposes| / |R|`.
    pub fn apriori(&self) -> f64 {
        let covered: BTreeSet<SwitchId> = self.purposes.iter().flat_map(|p| p.switches()).collect();
        self.share(covered.len())
    }

    /// The share of all switches that `covered` switches are (1 for a model without switches).
    pub fn share(&self, covered: usize) -> f64 {
        if self.total == 0 {
            1.0
        } else {
            covered as f64 / self.total as f64
        }
    }
}

struct Node {
    state: SymState,
    parent: Option<(usize, Move)>,
    doubtful: bool,
}

fn path_to(nodes: &[Node], mut i: usize) -> Vec<Move> {
    let mut path = Vec::new();
    while let Some((p, m)) = &nodes[i].parent {
        path.push(m.clone());
        i = *p;
    }
    path.reverse();
    path
}

/// Selects purposes for switch coverage by BFS over the SEG up to `depth` (at most `max_nodes`
/// SEG states).
pub fn select_purposes(
    sys: &System,
    checker: &mut Checker,
    depth: usize,
    max_nodes: usize,
) -> Selection {
    let all = sys.switches();
    let defs = sys.spec.defs.clone();
    let mut best: HashMap<SwitchId, (usize, bool)> = HashMap::new(); // switch -> (node, doubtful)
    let mut nodes = vec![Node {
        state: sys.initial_symbolic(),
        parent: None,
        doubtful: false,
    }];
    let mut queue = VecDeque::from([0usize]);
    let done = |best: &HashMap<SwitchId, (usize, bool)>| {
        all.iter().all(|s| best.get(s).is_some_and(|b| !b.1))
    };
    while let Some(i) = queue.pop_front() {
        if done(&best) || nodes.len() >= max_nodes {
            break;
        }
        if nodes[i].state.step >= depth {
            continue;
        }
        let moves = sys.moves(&nodes[i].state.locs);
        for m in moves.iter() {
            let (next, g) = sys.sym_succ(&nodes[i].state, m);
            let f = Term::and(nodes[i].state.pc.clone(), g);
            let r = checker.sat(&defs, &f);
            if r == SatResult::Unsat {
                continue;
            }
            let doubtful = nodes[i].doubtful || matches!(r, SatResult::Unknown(_));
            nodes.push(Node {
                state: next,
                parent: Some((i, m.clone())),
                doubtful,
            });
            let j = nodes.len() - 1;
            for &sw in &m.parts {
                match best.get(&sw) {
                    Some((_, false)) => {}
                    Some((_, true)) if doubtful => {}
                    _ => {
                        best.insert(sw, (j, doubtful));
                    }
                }
            }
            queue.push_back(j);
        }
    }
    // one purpose per switch, in switch order, skipping switches already on a chosen path
    let mut purposes: Vec<Purpose> = Vec::new();
    let mut covered: BTreeSet<SwitchId> = BTreeSet::new();
    for sw in &all {
        if covered.contains(sw) {
            continue;
        }
        if let Some(&(j, doubtful)) = best.get(sw) {
            let p = Purpose {
                path: path_to(&nodes, j),
                pc: nodes[j].state.pc.clone(),
                target: *sw,
                doubtful,
            };
            covered.extend(p.switches());
            purposes.push(p);
        }
    }
    // drop purposes whose path is a prefix of another's
    let paths: Vec<Vec<Move>> = purposes.iter().map(|p| p.path.clone()).collect();
    purposes.retain(|p| {
        !paths
            .iter()
            .any(|q| q.len() > p.path.len() && q[..p.path.len()] == p.path[..])
    });
    purposes.sort_by_key(|p| std::cmp::Reverse(p.path.len()));
    let mut uncovered = Vec::new();
    for sw in &all {
        if covered.contains(sw) {
            continue;
        }
        // is the guard satisfiable at all (variables and parameters free)?
        let a = sys.automaton(sw.0);
        let s = &a.switches[sw.1 as usize];
        let vars: Vec<T> = a
            .vars
            .iter()
            .map(|v| {
                Term::sym(SymVar {
                    name: format!("{}#any", v.name).into(),
                    ty: v.ty,
                })
            })
            .collect();
        let params: Vec<T> = s
            .params
            .iter()
            .map(|(n, ty)| {
                Term::sym(SymVar {
                    name: format!("{}#any", n).into(),
                    ty: *ty,
                })
            })
            .collect();
        let g = crate::term::instantiate(&defs, &s.guard, &vars, &params);
        let why = if checker.sat(&defs, &g) == SatResult::Unsat {
            Uncovered::Unsatisfiable
        } else {
            Uncovered::Unreached
        };
        uncovered.push((*sw, sys.switch_name(*sw), why));
    }
    Selection {
        purposes,
        uncovered,
        total: all.len(),
        seg_nodes: nodes.len(),
        depth,
    }
}
