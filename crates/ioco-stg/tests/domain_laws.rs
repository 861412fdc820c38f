//! The laws every abstract domain of the analysis must obey (`Domain`, seed 004 Table 3 step 2
//! needs only over-approximation), on random conjunctions of linear constraints over three
//! integer dimensions, checked point by point on the grid [−4, 4]³ (seeded, deterministic):
//! meet with a constraint keeps every point that satisfies it (polyhedra: exactly those),
//! ⊥ only without points, join and widening contain both arguments, forgetting a dimension keeps
//! every point with any value there, `leq`, `entails` and `bounds` agree with the points.

use ioco_stg::{Domain, Interval, LinCons, LinExpr, Octagon, Polyhedra};
use proptest::prelude::*;

const R: i64 = 4;

fn cons() -> impl Strategy<Value = LinCons> {
    (
        prop::collection::vec((0usize..3, -3i64..=3), 1..4),
        -6i64..=6,
    )
        .prop_map(|(ts, c)| {
            let mut e = LinExpr::constant(c);
            for (d, a) in ts {
                e = e.add_scaled(&LinExpr::var(d), a).unwrap();
            }
            LinCons { expr: e }
        })
}

fn conj() -> impl Strategy<Value = Vec<LinCons>> {
    prop::collection::vec(cons(), 0..5)
}

fn grid() -> impl Iterator<Item = [i64; 3]> {
    (-R..=R).flat_map(|x| (-R..=R).flat_map(move |y| (-R..=R).map(move |z| [x, y, z])))
}

fn build<D: Domain>(cs: &[LinCons]) -> D {
    let mut d = D::top(3);
    for c in cs {
        d.meet_cons(c);
    }
    d
}

fn sat(cs: &[LinCons], p: &[i64]) -> bool {
    cs.iter().all(|c| c.holds(p))
}

fn laws<D: Domain>(a: &[LinCons], b: &[LinCons], probe: &LinCons) -> Result<(), TestCaseError> {
    let (da, db) = (build::<D>(a), build::<D>(b));
    let j = da.join(&db);
    let w = da.widen(&j);
    let mut f = da.clone();
    f.forget(1);
    prop_assert!(da.leq(&j) && db.leq(&j), "{}: leq of the join", D::NAME);
    let (lo, hi) = da.bounds(&probe.expr);
    let entailed = da.entails(probe);
    for p in grid() {
        let (in_a, in_b) = (sat(a, &p), sat(b, &p));
        if in_a {
            prop_assert!(da.contains(&p), "{}: meet lost {p:?}", D::NAME);
            prop_assert!(!da.is_bottom());
            prop_assert!(
                j.contains(&p) && w.contains(&p),
                "{}: join/widen {p:?}",
                D::NAME
            );
            for v in -R..=R {
                prop_assert!(
                    f.contains(&[p[0], v, p[2]]),
                    "{}: forget lost {p:?} with y = {v}",
                    D::NAME
                );
            }
        }
        if in_b {
            prop_assert!(
                j.contains(&p) && w.contains(&p),
                "{}: join/widen {p:?}",
                D::NAME
            );
        }
        if da.contains(&p) {
            let v = probe.expr.eval(&p).unwrap();
            prop_assert!(lo.is_none_or(|l| l <= v) && hi.is_none_or(|h| v <= h));
            if entailed {
                prop_assert!(probe.holds(&p), "{}: entails is wrong at {p:?}", D::NAME);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        rng_seed: prop::test_runner::RngSeed::Fixed(2005),
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_domain_obeys_the_laws(a in conj(), b in conj(), probe in cons()) {
        laws::<Interval>(&a, &b, &probe)?;
        laws::<Octagon>(&a, &b, &probe)?;
        laws::<Polyhedra>(&a, &b, &probe)?;
    }

    #[test]
    fn polyhedra_meet_is_exact_on_integer_points(a in conj()) {
        let d = build::<Polyhedra>(&a);
        for p in grid() {
            prop_assert_eq!(d.contains(&p), sat(&a, &p), "{:?}", p);
        }
    }
}
