//! Seed 004's running example (Figs 1–6; notes §B3): the product of the comparator
//! specification and the purpose "OK(2) with x ≥ 6", analysed with octagons and intervals.
//! Properties, not printed constants (the paper's Fig 6 and prose disagree on the interval
//! bound, see the note).

use ioco_stg::{analyse, Domain, Interval, LinCons, LinExpr, Octagon, TestGraph};

fn load(name: &str) -> ioco_lang::Model {
    let path = format!(
        "{}/../../examples/purposes/stg/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    ioco_lang::parse_file(&path).unwrap_or_else(|d| panic!("{}", ioco_lang::render_plain(&d)))
}

fn graph<D: Domain>() -> TestGraph<D> {
    analyse::<D>(&load("spec.ioco"), &load("purpose.ioco")).unwrap()
}

/// The dimension called `name`.
fn dim<D>(g: &TestGraph<D>, name: &str) -> usize {
    g.product.dims.iter().position(|d| d == name).unwrap()
}

/// `Σ coeff·dim ≤ bound`.
fn le<D>(g: &TestGraph<D>, terms: &[(&str, i64)], bound: i64) -> LinCons {
    let mut e = LinExpr::constant(-bound);
    for &(n, a) in terms {
        e = e.add_scaled(&LinExpr::var(dim(g, n)), a).unwrap();
    }
    LinCons { expr: e }
}

/// The strengthened guard of the `gate` transition from `loc` (a single disjunct here).
fn kept<D: Domain>(g: &TestGraph<D>, loc: &str, gate: &str) -> Vec<D> {
    let l = g
        .product
        .location(loc)
        .unwrap_or_else(|| panic!("no location {loc}"));
    let ts = g.product.transitions_on(l, gate);
    assert_eq!(ts.len(), 1, "{loc} {gate}");
    g.kept[ts[0]].clone()
}

fn all_entail<D: Domain>(ks: &[D], c: &LinCons) -> bool {
    !ks.is_empty() && ks.iter().all(|k| k.entails(c))
}

#[test]
fn octagons_give_p_at_least_6_then_p_equals_x_plus_2() {
    let g = graph::<Octagon>();
    // RecX: a?(p) is kept only for p ≥ 6.
    let k = kept(&g, "(RecX,Wait)", "a");
    assert!(all_entail(&k, &le(&g, &[("p0", -1)], -6)), "{}", g.render());
    // ... and exactly that: p = 6 and p = 100 are both kept.
    let p = dim(&g, "p0");
    for v in [6, 7, 100] {
        let mut pt = vec![0; g.product.num_dims()];
        pt[p] = v;
        assert!(
            k.iter().any(|k| k.contains(&pt)),
            "p = {v} must stay allowed"
        );
    }
    // RecY: a?(p) is kept only for p = x + 2.
    let k = kept(&g, "(RecY,Wait)", "a");
    assert!(
        all_entail(&k, &le(&g, &[("p0", 1), ("x", -1)], 2)),
        "{}",
        g.render()
    );
    assert!(all_entail(&k, &le(&g, &[("p0", -1), ("x", 1)], -2)));
    assert!(all_entail(&k, &le(&g, &[("x", -1)], -6)));
    // Coreach at Compare: y − x = 2 ∧ x ≥ 6.
    let c = &g.coreach.values[g.product.location("(Compare,Wait)").unwrap()];
    assert!(c.entails(&le(&g, &[("y", 1), ("x", -1)], 2)));
    assert!(c.entails(&le(&g, &[("y", -1), ("x", 1)], -2)));
    assert!(c.entails(&le(&g, &[("x", -1)], -6)));
    // The accepting OK is kept (with p = 2), the refusing OK and NOK are Inconclusive only.
    let compare = g.product.location("(Compare,Wait)").unwrap();
    let oks = g.product.transitions_on(compare, "OK");
    let to_accept: Vec<usize> = oks
        .iter()
        .copied()
        .filter(|&t| g.product.locations[g.product.transitions[t].to].accept)
        .collect();
    assert_eq!(to_accept.len(), 1);
    assert!(all_entail(&g.kept[to_accept[0]], &le(&g, &[("p0", 1)], 2)));
    assert!(all_entail(
        &g.kept[to_accept[0]],
        &le(&g, &[("p0", -1)], -2)
    ));
    for t in g.product.transitions_on(compare, "NOK") {
        assert!(g.kept[t].is_empty());
    }
    // Start and End at Idle: Start is kept (coreach at RecX is ⊤ over x ≥ 6 after a?).
    assert!(!kept(&g, "(Idle,Wait)", "Start").is_empty());
    assert!(kept(&g, "(Idle,Wait)", "End").is_empty());
}

#[test]
fn intervals_keep_p_at_least_6_but_lose_the_relation() {
    let g = graph::<Interval>();
    let k = kept(&g, "(RecX,Wait)", "a");
    assert!(all_entail(&k, &le(&g, &[("p0", -1)], -6)), "{}", g.render());
    let k = kept(&g, "(RecY,Wait)", "a");
    // The prose: a(p) is sent with p ≥ 0 (so no Error) ...
    assert!(all_entail(&k, &le(&g, &[("p0", -1)], 0)), "{}", g.render());
    // ... but p = x + 2 is not captured.
    assert!(!all_entail(&k, &le(&g, &[("p0", 1), ("x", -1)], 2)));
    // Some kept value has p ≠ x + 2.
    let (p, x) = (dim(&g, "p0"), dim(&g, "x"));
    let mut pt = vec![0; g.product.num_dims()];
    pt[x] = 6;
    pt[p] = 20;
    assert!(k.iter().any(|k| k.contains(&pt)));
}

#[test]
fn octagons_are_at_least_as_precise_as_intervals_here() {
    // Theorem 1 of 004 (more precision, more accurate test case), checked pointwise on a grid:
    // every point the octagon keeps, the intervals keep too.
    let (go, gi) = (graph::<Octagon>(), graph::<Interval>());
    assert_eq!(go.product.transitions.len(), gi.product.transitions.len());
    let n = go.product.num_dims();
    let (x, y, p) = (dim(&go, "x"), dim(&go, "y"), dim(&go, "p0"));
    for t in 0..go.product.transitions.len() {
        for vx in -3..10 {
            for vy in -3..12 {
                for vp in -3..12 {
                    let mut pt = vec![0; n];
                    pt[x] = vx;
                    pt[y] = vy;
                    pt[p] = vp;
                    if go.kept[t].iter().any(|k| k.contains(&pt)) {
                        assert!(gi.kept[t].iter().any(|k| k.contains(&pt)), "t{t} {pt:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn online_input_choice_follows_the_strengthened_guards() {
    let g = graph::<Octagon>();
    let rx = g.product.location("(RecX,Wait)").unwrap();
    let t = g.product.transitions_on(rx, "a")[0];
    let v = g.choose_input(t, &[0, 0], |_| true).unwrap();
    assert!(v[0] >= 6);
    let ry = g.product.location("(RecY,Wait)").unwrap();
    let t = g.product.transitions_on(ry, "a")[0];
    let v = g.choose_input(t, &[9, 0], |_| true).unwrap();
    assert_eq!(v, vec![11]);
    // From x = 3 the purpose cannot be met any more: no value is proposed.
    assert_eq!(g.choose_input(t, &[3, 0], |_| true), None);
}

#[test]
fn the_rendered_graph_names_locations_and_fates() {
    let text = graph::<Octagon>().render();
    assert!(text.contains("domain: octagon"));
    assert!(text.contains("(WaitX,accept) [accept: pass]"), "{text}");
    assert!(text.contains("End! -> (Done,Wait): inconclusive"), "{text}");
}
