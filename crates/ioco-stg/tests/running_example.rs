//! Seed 004's running example (Figs 1–6; notes §B3): the product of the comparator
//! specification and the purpose "OK(2) with x ≥ 6", analysed with octagons, intervals and
//! polyhedra (the paper's domain, Fig. 4), with and without the forward simplification.
//! Properties, not printed constants (the paper's Fig 6 and prose disagree on the interval
//! bound, see the note).

use ioco_stg::{
    analyse, analyse_with, Domain, Interval, LinCons, LinExpr, Octagon, Options, Polyhedra,
    TestGraph,
};

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

#[test]
fn polyhedra_give_the_papers_fig4() {
    let g = graph::<Polyhedra>();
    let k = kept(&g, "(RecX,Wait)", "a");
    assert!(all_entail(&k, &le(&g, &[("p0", -1)], -6)), "{}", g.render());
    let k = kept(&g, "(RecY,Wait)", "a");
    assert!(all_entail(&k, &le(&g, &[("p0", 1), ("x", -1)], 2)));
    assert!(all_entail(&k, &le(&g, &[("p0", -1), ("x", 1)], -2)));
    assert!(all_entail(&k, &le(&g, &[("x", -1)], -6)));
    let c = &g.coreach.values[g.product.location("(Compare,Wait)").unwrap()];
    assert!(c.entails(&le(&g, &[("y", 1), ("x", -1)], 2)));
    assert!(c.entails(&le(&g, &[("y", -1), ("x", 1)], -2)));
    assert!(c.entails(&le(&g, &[("x", -1)], -6)));
    // Fig. 4's `p = y − x = 2`: the three-variable equation is in the kept guard as such.
    let compare = g.product.location("(Compare,Wait)").unwrap();
    let acc: Vec<usize> = g
        .product
        .transitions_on(compare, "OK")
        .into_iter()
        .filter(|&t| g.product.locations[g.product.transitions[t].to].accept)
        .collect();
    let k = &g.kept[acc[0]];
    assert!(all_entail(k, &le(&g, &[("p0", 1), ("y", -1), ("x", 1)], 0)));
    assert!(all_entail(
        k,
        &le(&g, &[("p0", -1), ("y", 1), ("x", -1)], 0)
    ));
    assert!(all_entail(k, &le(&g, &[("p0", 1)], 2)));
    // The octagon keeps p = 2 and y − x = 2 but cannot state p − y + x ≤ 0 itself.
    let go = graph::<Octagon>();
    assert!(!all_entail(
        &go.kept[acc[0]],
        &le(&go, &[("p0", 1), ("y", -1), ("x", 1)], 0)
    ));
    // Same fates as the octagon graph, transition by transition.
    for t in 0..g.product.transitions.len() {
        assert_eq!(g.fate(t), go.fate(t), "t{t}");
    }
}

#[test]
fn polyhedra_are_at_least_as_precise_as_octagons_here() {
    let (gp, go) = (graph::<Polyhedra>(), graph::<Octagon>());
    let n = gp.product.num_dims();
    let (x, y, p) = (dim(&gp, "x"), dim(&gp, "y"), dim(&gp, "p0"));
    for t in 0..gp.product.transitions.len() {
        for vx in -3..10 {
            for vy in -3..12 {
                for vp in -3..12 {
                    let mut pt = vec![0; n];
                    pt[x] = vx;
                    pt[y] = vy;
                    pt[p] = vp;
                    if gp.kept[t].iter().any(|k| k.contains(&pt)) {
                        assert!(go.kept[t].iter().any(|k| k.contains(&pt)), "t{t} {pt:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn the_forward_simplification_deletes_what_fig4_deletes() {
    let opts = Options {
        forward: true,
        ..Options::default()
    };
    let g: TestGraph<Polyhedra> = analyse_with(&load("spec.ioco"), &load("purpose.ioco"), &opts)
        .unwrap_or_else(|e| panic!("{e}"));
    let text = g.render();
    assert!(
        text.contains("simplified with forward reachability"),
        "{text}"
    );
    let compare = g.product.location("(Compare,Wait)").unwrap();
    // reach^α at Compare: y = x + 2 and x ≥ 6 (inputs are sent inside the guards).
    let r = &g.reach.as_ref().unwrap()[compare];
    assert!(r.entails(&le(&g, &[("y", 1), ("x", -1)], 2)));
    assert!(r.entails(&le(&g, &[("y", -1), ("x", 1)], -2)));
    assert!(r.entails(&le(&g, &[("x", -1)], -6)));
    // Error, NOK and the non-accepting OK never fire at Compare; the accepting OK is kept.
    for (t, tr) in g.product.transitions.iter().enumerate() {
        if tr.from != compare {
            continue;
        }
        let gate = tr.gate.as_ref().unwrap().0.as_str();
        if gate == "OK" && g.product.locations[tr.to].accept {
            assert_eq!(g.fate(t), "keep", "{text}");
        } else {
            assert_eq!(g.fate(t), "unreachable", "{gate}: {text}");
        }
    }
    // Error at RecY needs x < 0, but x ≥ 6 there: deleted too. The inputs keep their guards.
    let recy = g.product.location("(RecY,Wait)").unwrap();
    for t in g.product.transitions_on(recy, "Error") {
        assert_eq!(g.fate(t), "unreachable", "{text}");
    }
    assert_eq!(g.fate(kept_index(&g, "(RecY,Wait)", "a")), "keep");
    // Without the option nothing is unreachable, and every kept point of the simplified
    // graph is kept by the plain one (it only prunes).
    let plain = graph::<Polyhedra>();
    assert!(plain.unreachable.iter().all(|u| !u));
    let n = g.product.num_dims();
    let (x, y, p) = (dim(&g, "x"), dim(&g, "y"), dim(&g, "p0"));
    for t in 0..g.product.transitions.len() {
        for vx in -3..10 {
            for vy in -3..12 {
                for vp in -3..12 {
                    let mut pt = vec![0; n];
                    pt[x] = vx;
                    pt[y] = vy;
                    pt[p] = vp;
                    if g.kept[t].iter().any(|k| k.contains(&pt)) {
                        assert!(plain.kept[t].iter().any(|k| k.contains(&pt)), "t{t} {pt:?}");
                    }
                }
            }
        }
    }
}

fn kept_index<D: Domain>(g: &TestGraph<D>, loc: &str, gate: &str) -> usize {
    let l = g.product.location(loc).unwrap();
    g.product.transitions_on(l, gate)[0]
}
