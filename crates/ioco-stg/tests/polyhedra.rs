//! Seed 004's running example without the purpose's `p == 2` (issue #18 item 5), and a
//! three-variable relation that only polyhedra keep.
//!
//! The models are in `examples/purposes/stg/` (`purpose-no-p2.ioco`, `purpose-y.ioco`,
//! `spec3.ioco`, `purpose3.ioco`).
//!
//! * `p == 2` removed, nothing in its place: accept after any OK with x ≥ 6. The exact answer
//!   at RecY is then `x − 2 ≤ p ≤ x + 2` (any |p2 − p1| ≤ 2 gives an OK), not `p = x + 2`;
//!   polyhedra give exactly that, and keep the OK guard's `p = y − x`, which octagons lose.
//! * `p == 2` replaced by the same condition on the observed variables, `y == x + 2`: both
//!   relational domains give `p = x + 2` at RecY.
//! * A three-input comparator, `OK(p)` with `p = x + y − z`: after the purpose's `p == 2`, the
//!   third input must be `z = x + y − 2`, a relation over three variables that only
//!   polyhedra express (octagons keep `x ≥ 6` only).

use ioco_stg::{analyse, Domain, LinCons, LinExpr, Octagon, Polyhedra, TestGraph};

fn load(name: &str) -> ioco_lang::Model {
    let path = format!(
        "{}/../../examples/purposes/stg/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    ioco_lang::parse_file(&path).unwrap_or_else(|d| panic!("{}", ioco_lang::render_plain(&d)))
}

fn spec() -> ioco_lang::Model {
    load("spec.ioco")
}

fn dim<D>(g: &TestGraph<D>, name: &str) -> usize {
    g.product.dims.iter().position(|d| d == name).unwrap()
}

fn le<D>(g: &TestGraph<D>, terms: &[(&str, i64)], bound: i64) -> LinCons {
    let mut e = LinExpr::constant(-bound);
    for &(n, a) in terms {
        e = e.add_scaled(&LinExpr::var(dim(g, n)), a).unwrap();
    }
    LinCons { expr: e }
}

fn kept<D: Domain>(g: &TestGraph<D>, loc: &str, gate: &str, to_accept: bool) -> Vec<D> {
    let l = g.product.location(loc).unwrap();
    let ts: Vec<usize> = g
        .product
        .transitions_on(l, gate)
        .into_iter()
        .filter(|&t| g.product.locations[g.product.transitions[t].to].accept == to_accept)
        .collect();
    assert_eq!(ts.len(), 1, "{loc} {gate}");
    g.kept[ts[0]].clone()
}

fn all_entail<D: Domain>(ks: &[D], c: &LinCons) -> bool {
    !ks.is_empty() && ks.iter().all(|k| k.entails(c))
}

fn kept_at<D: Domain>(ks: &[D], g: &TestGraph<D>, vals: &[(&str, i64)]) -> bool {
    let mut pt = vec![0; g.product.num_dims()];
    for &(n, v) in vals {
        pt[dim(g, n)] = v;
    }
    ks.iter().any(|k| k.contains(&pt))
}

/// `p = y − x`.
fn p_eq<D>(g: &TestGraph<D>) -> [LinCons; 2] {
    [
        le(g, &[("p0", 1), ("y", -1), ("x", 1)], 0),
        le(g, &[("p0", -1), ("y", 1), ("x", -1)], 0),
    ]
}

/// `p = x + y − 2`.
fn z_eq<D>(g: &TestGraph<D>) -> [LinCons; 2] {
    [
        le(g, &[("p0", 1), ("x", -1), ("y", -1)], -2),
        le(g, &[("p0", -1), ("x", 1), ("y", 1)], 2),
    ]
}

#[test]
fn without_p_eq_2_the_exact_band_and_the_three_variable_guard() {
    let tp = load("purpose-no-p2.ioco");
    let gp = analyse::<Polyhedra>(&spec(), &tp).unwrap();
    let go = analyse::<Octagon>(&spec(), &tp).unwrap();
    // RecY: x − 2 ≤ p ≤ x + 2 and x ≥ 6, in both relational domains; all five values kept.
    let k = kept(&gp, "(RecY,Wait)", "a", false);
    assert!(
        all_entail(&k, &le(&gp, &[("p0", 1), ("x", -1)], 2)),
        "{}",
        gp.render()
    );
    assert!(all_entail(&k, &le(&gp, &[("p0", -1), ("x", 1)], 2)));
    assert!(all_entail(&k, &le(&gp, &[("x", -1)], -6)));
    for p in 5..=11 {
        assert_eq!(
            kept_at(&k, &gp, &[("x", 7), ("p0", p)]),
            (5..=9).contains(&p),
            "p = {p}"
        );
    }
    let ko = kept(&go, "(RecY,Wait)", "a", false);
    assert!(all_entail(&ko, &le(&go, &[("p0", 1), ("x", -1)], 2)));
    assert!(all_entail(&ko, &le(&go, &[("p0", -1), ("x", 1)], 2)));
    // Compare, the accepting OK: polyhedra keep p = y − x; octagons keep only its bounds and
    // let OK(0) through after y − x = 2.
    let kp = kept(&gp, "(Compare,Wait)", "OK", true);
    let ko = kept(&go, "(Compare,Wait)", "OK", true);
    for c in p_eq(&gp) {
        assert!(all_entail(&kp, &c));
    }
    for c in p_eq(&go) {
        assert!(!all_entail(&ko, &c));
    }
    let off = [("x", 6), ("y", 8), ("p0", 0)];
    assert!(kept_at(&ko, &go, &off) && !kept_at(&kp, &gp, &off));
    let on = [("x", 6), ("y", 8), ("p0", 2)];
    assert!(kept_at(&ko, &go, &on) && kept_at(&kp, &gp, &on));
}

#[test]
fn p_eq_2_replaced_by_y_eq_x_plus_2_still_gives_p_eq_x_plus_2() {
    let tp = load("purpose-y.ioco");
    let gp = analyse::<Polyhedra>(&spec(), &tp).unwrap();
    let go = analyse::<Octagon>(&spec(), &tp).unwrap();
    let kp = kept(&gp, "(RecY,Wait)", "a", false);
    assert!(
        all_entail(&kp, &le(&gp, &[("p0", 1), ("x", -1)], 2)),
        "{}",
        gp.render()
    );
    assert!(all_entail(&kp, &le(&gp, &[("p0", -1), ("x", 1)], -2)));
    assert!(all_entail(&kp, &le(&gp, &[("x", -1)], -6)));
    let ko = kept(&go, "(RecY,Wait)", "a", false);
    assert!(all_entail(&ko, &le(&go, &[("p0", 1), ("x", -1)], 2)));
    assert!(all_entail(&ko, &le(&go, &[("p0", -1), ("x", 1)], -2)));
    // The accepting OK carries p = y − x = 2 with polyhedra.
    let k = kept(&gp, "(Compare,Wait)", "OK", true);
    assert!(all_entail(
        &k,
        &le(&gp, &[("p0", 1), ("y", -1), ("x", 1)], 0)
    ));
    assert!(all_entail(&k, &le(&gp, &[("p0", -1)], -2)));
}

#[test]
fn a_three_variable_relation_only_polyhedra_keep() {
    let (s3, p3) = (load("spec3.ioco"), load("purpose3.ioco"));
    let gp = analyse::<Polyhedra>(&s3, &p3).unwrap();
    let go = analyse::<Octagon>(&s3, &p3).unwrap();
    // RecZ: the third value must be p = x + y − 2.
    let kp = kept(&gp, "(RecZ,Wait)", "a", false);
    for c in z_eq(&gp) {
        assert!(all_entail(&kp, &c), "{}", gp.render());
    }
    let ko = kept(&go, "(RecZ,Wait)", "a", false);
    for c in z_eq(&go) {
        assert!(!all_entail(&ko, &c), "{}", go.render());
    }
    // Octagons only learn z ≥ y + 4 (from x ≥ 6) and send z = 10 after x = 6, y = 0, after
    // which OK(−4) cannot be OK(2); polyhedra send only z = 4.
    assert!(all_entail(&ko, &le(&go, &[("y", 1), ("p0", -1)], -4)));
    let bad = [("x", 6), ("y", 0), ("p0", 10)];
    assert!(kept_at(&ko, &go, &bad), "{}", go.render());
    assert!(!kept_at(&kp, &gp, &bad), "{}", gp.render());
    let good = [("x", 6), ("y", 0), ("p0", 4)];
    assert!(kept_at(&ko, &go, &good) && kept_at(&kp, &gp, &good));
    // The online choice follows: from x = 6, y = 0 polyhedra propose z = 4.
    let t = gp
        .product
        .transitions_on(gp.product.location("(RecZ,Wait)").unwrap(), "a")[0];
    assert_eq!(gp.choose_input(t, &[6, 0, 0], |_| true), Some(vec![4]));
    // Coreach at Compare: x + y − z = 2 ∧ x ≥ 6.
    let c = &gp.coreach.values[gp.product.location("(Compare,Wait)").unwrap()];
    assert!(c.entails(&le(&gp, &[("x", 1), ("y", 1), ("z", -1)], 2)));
    assert!(c.entails(&le(&gp, &[("x", -1), ("y", -1), ("z", 1)], -2)));
    assert!(c.entails(&le(&gp, &[("x", -1)], -6)));
}
