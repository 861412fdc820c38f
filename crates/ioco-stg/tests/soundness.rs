//! Soundness of the over-approximation (seed 004 L610-617: only `coreach^α ⊇ coreach` is
//! needed): on small random STSs with two variables and one parameter, concrete enumeration
//! over bounded values shows that
//! * every state from which accept is reachable (within the bounds) is in coreach^α, and
//! * the strengthened guard `G ∧ K_t` never excludes a step that leads into that set,
//!
//! for every domain; polyhedra are inside the intervals on acyclic products (no widening, where
//! the two are comparable: Theorem 1 of 004, more precision gives a more accurate test case);
//! and the forward simplification (004 Fig. 4) keeps every step of the test case from a state
//! it reaches. The polyhedra and forward properties run with fixed seeds.

use ioco_lang::ir::Direction;
use ioco_stg::coreach::{coreach, strengthen};
use ioco_stg::product::{Location, Product, Transition};
use ioco_stg::reach::reach;
use ioco_stg::{Domain, Interval, LinCons, LinExpr, Octagon, Options, Polyhedra};
use proptest::prelude::*;

const B: i64 = 3;
const LOCS: usize = 3; // plus one accept location

fn lin() -> impl Strategy<Value = LinExpr> {
    (
        prop::collection::vec((0usize..3, -2i64..=2), 0..3),
        -3i64..=3,
    )
        .prop_map(|(ts, c)| {
            let mut e = LinExpr::constant(c);
            for (d, a) in ts {
                e = e.add_scaled(&LinExpr::var(d), a).unwrap();
            }
            e
        })
}

fn transition() -> impl Strategy<Value = Transition> {
    (
        0..LOCS,
        0..=LOCS,
        prop::collection::vec(prop::collection::vec(lin(), 0..3), 1..3),
        prop::collection::vec(prop::option::of(prop::option::weighted(0.85, lin())), 2),
    )
        .prop_map(|(from, to, guard, assign)| Transition {
            from,
            to,
            gate: Some(("a".into(), Direction::Input)),
            arity: 1,
            guard: guard
                .into_iter()
                .map(|c| c.into_iter().map(|expr| LinCons { expr }).collect())
                .collect(),
            assign: assign
                .into_iter()
                .enumerate()
                .filter_map(|(v, a)| a.map(|e| (v, e)))
                .collect(),
            spec_switch: 0,
            purpose_switch: None,
        })
}

fn product() -> impl Strategy<Value = Product> {
    prop::collection::vec(transition(), 1..7).prop_map(|transitions| Product {
        dims: ["x", "y", "p0", "'x", "'y"].map(String::from).to_vec(),
        nvars: 2,
        nparams: 1,
        locations: (0..=LOCS)
            .map(|l| Location {
                name: format!("l{l}"),
                spec: l as u32,
                purpose: 0,
                accept: l == LOCS,
                refuse: false,
                target: l == LOCS,
            })
            .collect(),
        initial: 0,
        init: vec![Some(0), Some(0)],
        transitions,
        spec_var_dims: vec![Some(0), Some(1)],
        purpose_var_dims: Vec::new(),
        observes: Vec::new(),
        steering: false,
    })
}

fn idx(x: i64) -> usize {
    (x + B) as usize
}

/// Concrete successors of (x, y) with parameter p under t (within the bounds).
fn successors(t: &Transition, x: i64, y: i64, p: i64) -> Vec<(i64, i64)> {
    let pt = [x, y, p, 0, 0];
    if !t.guard.iter().any(|c| c.iter().all(|c| c.holds(&pt))) {
        return Vec::new();
    }
    let val = |v: usize, old: i64| -> Vec<i64> {
        match t.assign.iter().find(|a| a.0 == v) {
            None => vec![old],
            Some((_, Some(e))) => e.eval(&pt).into_iter().collect(),
            Some((_, None)) => (-B..=B).collect(),
        }
    };
    let mut out = Vec::new();
    for nx in val(0, x) {
        for ny in val(1, y) {
            if nx.abs() <= B && ny.abs() <= B {
                out.push((nx, ny));
            }
        }
    }
    out
}

/// Bounded concrete coreach(accept): `c[l][x][y]`.
fn concrete(p: &Product) -> Vec<Vec<Vec<bool>>> {
    let w = (2 * B + 1) as usize;
    let mut c = vec![vec![vec![false; w]; w]; p.locations.len()];
    for row in c[LOCS].iter_mut() {
        row.iter_mut().for_each(|v| *v = true);
    }
    loop {
        let mut changed = false;
        for t in &p.transitions {
            for x in -B..=B {
                for y in -B..=B {
                    if c[t.from][idx(x)][idx(y)] {
                        continue;
                    }
                    let hit = (-B..=B).any(|q| {
                        successors(t, x, y, q)
                            .iter()
                            .any(|&(nx, ny)| c[t.to][idx(nx)][idx(ny)])
                    });
                    if hit {
                        c[t.from][idx(x)][idx(y)] = true;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return c;
        }
    }
}

fn sound<D: Domain>(p: &Product) -> Result<(), TestCaseError> {
    let c = concrete(p);
    let a = coreach::<D>(p, &Options::default());
    for (l, cl) in c.iter().enumerate() {
        for x in -B..=B {
            for y in -B..=B {
                if cl[idx(x)][idx(y)] {
                    prop_assert!(
                        a.values[l].contains(&[x, y, 0, 0, 0]),
                        "{}: l{l} x={x} y={y} missing from {:?}",
                        D::NAME,
                        a.values[l]
                    );
                }
            }
        }
    }
    for (k, t) in p.transitions.iter().enumerate() {
        let kept = strengthen(p, t, &a.values[t.to]);
        for x in -B..=B {
            for y in -B..=B {
                for q in -B..=B {
                    let good = successors(t, x, y, q)
                        .iter()
                        .any(|&(nx, ny)| c[t.to][idx(nx)][idx(ny)]);
                    if good {
                        prop_assert!(
                            kept.iter().any(|d| d.contains(&[x, y, q, 0, 0])),
                            "{}: transition {k} excludes x={x} y={y} p={q}",
                            D::NAME
                        );
                    }
                }
            }
        }
    }
    Ok(())
}

/// Acyclic products: every transition goes to a later location.
fn acyclic() -> impl Strategy<Value = Product> {
    product().prop_map(|mut p| {
        p.transitions.retain(|t| t.from < t.to);
        p
    })
}

/// Polyhedra ⊆ intervals, pointwise on the grid, for coreach and every strengthened guard.
fn within_intervals(p: &Product) -> Result<(), TestCaseError> {
    let ap = coreach::<Polyhedra>(p, &Options::default());
    let ai = coreach::<Interval>(p, &Options::default());
    for l in 0..p.locations.len() {
        for x in -B..=B {
            for y in -B..=B {
                let pt = [x, y, 0, 0, 0];
                if ap.values[l].contains(&pt) {
                    prop_assert!(ai.values[l].contains(&pt), "l{l} {pt:?}");
                }
            }
        }
    }
    for (k, t) in p.transitions.iter().enumerate() {
        let kp = strengthen(p, t, &ap.values[t.to]);
        let ki = strengthen(p, t, &ai.values[t.to]);
        for x in -B..=B {
            for y in -B..=B {
                for q in -B..=B {
                    let pt = [x, y, q, 0, 0];
                    if kp.iter().any(|d| d.contains(&pt)) {
                        prop_assert!(ki.iter().any(|d| d.contains(&pt)), "t{k} {pt:?}");
                    }
                }
            }
        }
    }
    Ok(())
}

/// The forward simplification: every good step (into concrete coreach) from a state the test
/// case reaches by good steps from (0, 0) stays in `G ∧ K_t ⊓ reach^α`.
fn forward_sound<D: Domain>(p: &Product) -> Result<(), TestCaseError> {
    let c = concrete(p);
    let opts = Options::default();
    let a = coreach::<D>(p, &opts);
    let kept: Vec<Vec<D>> = p
        .transitions
        .iter()
        .map(|t| strengthen(p, t, &a.values[t.to]))
        .collect();
    let r = reach(p, &kept, &opts);
    let w = (2 * B + 1) as usize;
    let mut seen = vec![vec![vec![false; w]; w]; p.locations.len()];
    let mut todo = vec![(p.initial, 0i64, 0i64)];
    seen[p.initial][idx(0)][idx(0)] = true;
    while let Some((l, x, y)) = todo.pop() {
        prop_assert!(
            r[l].contains(&[x, y, 0, 0, 0]),
            "{}: reach misses l{l} x={x} y={y}",
            D::NAME
        );
        for (k, t) in p
            .transitions
            .iter()
            .enumerate()
            .filter(|(_, t)| t.from == l)
        {
            for q in -B..=B {
                for (nx, ny) in successors(t, x, y, q) {
                    if !c[t.to][idx(nx)][idx(ny)] {
                        continue;
                    }
                    let pt = [x, y, q, 0, 0];
                    prop_assert!(
                        kept[k].iter().any(|d| d.meet(&r[l]).contains(&pt)),
                        "{}: simplified transition {k} excludes x={x} y={y} p={q}",
                        D::NAME
                    );
                    if !seen[t.to][idx(nx)][idx(ny)] {
                        seen[t.to][idx(nx)][idx(ny)] = true;
                        todo.push((t.to, nx, ny));
                    }
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 128,
        rng_seed: prop::test_runner::RngSeed::Fixed(4005),
        ..ProptestConfig::default()
    })]

    #[test]
    fn polyhedra_over_approximate_coreach(p in product()) {
        sound::<Polyhedra>(&p)?;
    }

    #[test]
    fn polyhedra_are_inside_intervals_without_loops(p in acyclic()) {
        within_intervals(&p)?;
    }

    #[test]
    fn the_forward_simplification_keeps_every_step_of_the_test_case(p in product()) {
        forward_sound::<Polyhedra>(&p)?;
        forward_sound::<Octagon>(&p)?;
        forward_sound::<Interval>(&p)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn intervals_over_approximate_coreach(p in product()) {
        sound::<Interval>(&p)?;
    }

    #[test]
    fn octagons_over_approximate_coreach(p in product()) {
        sound::<Octagon>(&p)?;
    }
}
