//! The worked examples of the thesis (ch. 1–3) and the journal paper, as fixtures
//! (`/work/shared/notes/thesis-ch1-3-ncomplete-adg.md` §4, `ncomplete-journal-and-test-purposes.md`
//! §A3). Tags: [TEXT] fully given by the text, [RECON] reconstructed, [SUBST] substitute.

mod common;
use common::*;
use ioco_complete::access::{access_sequences, traces_upto};
use ioco_complete::adg::{build_adg, check_def_3_15, metrics, AdgOptions};
use ioco_complete::alg1::compat_fixpoint;
use ioco_complete::ccs::Terms;
use ioco_complete::compat::{Compat, Strategy};
use ioco_complete::distgraph::dg_exists;
use ioco_complete::equiv::Equiv;
use ioco_complete::merge::merge;
use ioco_complete::splitting::{NonEnabling, SplitOptions, SplittingGraph};
use ioco_complete::{n_complete, NCompleteOptions, Sa};
use ioco_model::{compare, CompareOptions, InputCompletion, Lts};

fn pairs_by_name(sa: &Sa, c: &Compat) -> Vec<(String, String)> {
    c.pairs()
        .into_iter()
        .filter(|(p, q)| p != q)
        .map(|(p, q)| {
            let (a, b) = (
                sa.state_names[p as usize].clone(),
                sa.state_names[q as usize].clone(),
            );
            if a < b {
                (a, b)
            } else {
                (b, a)
            }
        })
        .collect()
}

fn names(v: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<_> = v
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    v.sort();
    v
}

/// F1 [TEXT+EXT]: thesis Fig. 3.1, the running example of ch. 3.
fn f1() -> Lts {
    lts(
        &[
            ("1", "a", "3"),
            ("1", "x", "1"),
            ("1", "y", "1"),
            ("2", "a", "4"),
            ("2", "x", "4"),
            ("3", "x", "4"),
            ("4", "y", "2"),
        ],
        &["a"],
    )
}

#[test]
fn f1_compatibility_ranks_and_alg1_rounds() {
    let l = f1();
    let sa = Sa::from_lts(&l).unwrap();
    let c = Compat::compute(&sa);
    let mut got = pairs_by_name(&sa, &c);
    got.sort();
    assert_eq!(got, names(&[("2", "3")]));
    // S‖S: 16 states, 6 valid (Ex. 3.11): 4 diagonal + (2,3),(3,2).
    assert_eq!(4 + 2 * c.compatible_pairs(), 6);
    let s = |n| st(&l, n);
    // Ranks and strategies of thesis Alg. 2 (notes §4 F1, derived).
    assert_eq!(c.rank(s("2"), s("4")), Some(0));
    assert_eq!(c.rank(s("3"), s("4")), Some(0));
    assert_eq!(c.rank(s("1"), s("2")), Some(1));
    assert_eq!(
        c.strategy(s("1"), s("2")),
        Some(Strategy::Input(
            sa.local(l.alphabet().lookup("a").unwrap()).unwrap()
        ))
    );
    assert_eq!(c.rank(s("1"), s("4")), Some(2));
    assert_eq!(c.strategy(s("1"), s("4")), Some(Strategy::Wait));
    assert_eq!(c.rank(s("1"), s("3")), Some(3));
    // Alg. 1: (2,4),(3,4) in round 1; (1,2) round 2 via a; (1,4) round 3; (1,3) round 4.
    let (c1, rounds) = compat_fixpoint(&sa);
    assert_eq!(rounds, 4);
    assert_eq!(c1.pairs(), c.pairs());
    assert_eq!(c1.rank(s("2"), s("4")), Some(1));
    assert_eq!(c1.rank(s("1"), s("2")), Some(2));
    assert!(matches!(
        c1.strategy(s("1"), s("2")),
        Some(Strategy::Input(_))
    ));
    assert_eq!(c1.rank(s("1"), s("4")), Some(3));
    assert_eq!(c1.rank(s("1"), s("3")), Some(4));
    // No two distinct states equivalent.
    assert_eq!(Equiv::compute(&sa).equivalent_pairs(), 0);
}

#[test]
fn f1_splitting_graph_and_adg() {
    let l = f1();
    let sa = Sa::from_lts(&l).unwrap();
    let c = Compat::compute(&sa);
    let mut terms = Terms::new();
    let g = SplittingGraph::build(&sa, &c, &mut terms, &thesis_split()).unwrap();
    assert!(g.complete);
    let node = |set: &[&str]| {
        let mut v: Vec<u32> = set.iter().map(|n| st(&l, n)).collect();
        v.sort();
        g.find(&v).unwrap_or_else(|| panic!("node {set:?} missing"))
    };
    let w = |set: &[&str]| {
        terms
            .render(&sa, g.nodes[node(set)].witness.unwrap(), 1000)
            .unwrap()
    };
    // Ex. 3.27.
    assert_eq!(w(&["1", "2", "3", "4"]), "x.0 + y.0");
    assert_eq!(w(&["1", "2", "3"]), "a.(x.0 + y.0)");
    assert_eq!(w(&["1", "4"]), "x.0 + y.a.(x.0 + y.0)");
    assert_eq!(w(&["1", "3"]), "x.(x.0 + y.a.(x.0 + y.0)) + y.0");
    assert!(g.nodes[node(&["2", "3"])].children.is_empty());
    assert_eq!(g.len(), 8);
    // Ex. 3.32: the ADG.
    let adg = build_adg(&sa, &c, &thesis_adg()).unwrap();
    assert_eq!(
        adg.terms.render(&sa, adg.root, 1000).unwrap(),
        "x.(x.0 + y.a.(x.0 + y.0)) + y.a.(x.0 + y.0)"
    );
    let (m, left) = metrics(&sa, &c, &adg, &AdgOptions::default());
    assert!(
        left.undistinguished.is_empty() && left.unseparated.is_empty(),
        "the ADG distinguishes every incompatible pair"
    );
    assert_eq!(m.undistinguished_pairs, 0);
    assert_eq!(m.incompatible_pairs, 10);
    assert_eq!(m.depth, 4);
    assert_eq!(m.splitting_graph_nodes, 8);
    // Observations per state (notes §4 F1): 1: xx, xyax, yax; 2,3: xyay; 4: yay → the
    // leaves xyay holds {2,3}; 5 observations, 6 state-leaf incidences... (yay holds 4 only).
    assert_eq!(m.observations, 5);
    assert!((m.average_leaf_size - 6.0 / 5.0).abs() < 1e-9);
}

#[test]
fn f1_access_sequences_and_trace_counts() {
    let l = f1();
    let sa = Sa::from_lts(&l).unwrap();
    let acc = access_sequences(&sa);
    let show = |n: &str| sa.show(acc[st(&l, n) as usize].as_ref().unwrap());
    assert_eq!(show("1"), "ε");
    assert_eq!(show("3"), "a?");
    assert_eq!(show("4"), "a? x!");
    assert_eq!(show("2"), "a? x! y!");
    // |P(S,n)| / |P+(S,n)| = 4/11, 11/26, 26/58, 58/124 for n = 2..5.
    let cnt = |n: usize| traces_upto(&sa, n).len();
    assert_eq!(
        [cnt(1), cnt(2), cnt(3), cnt(4), cnt(5)],
        [4, 11, 26, 58, 124]
    );
    let est = ioco_complete::estimate(&l, 3).unwrap();
    assert_eq!(est.access_sequences, 26.0);
}

/// Thesis Alg. 4 as printed: input splits copy the non-enabling states into every child.
fn thesis_split() -> SplitOptions {
    SplitOptions {
        non_enabling: NonEnabling::EveryChild,
        ..Default::default()
    }
}

fn thesis_adg() -> AdgOptions {
    AdgOptions {
        non_enabling: NonEnabling::EveryChild,
        ..Default::default()
    }
}

/// F1 with the default construction: the non-enabling state 3 of the input split of
/// {1,2,3} becomes a child of its own, the graph is smaller and the ADG the same.
#[test]
fn f1_own_child_split() {
    let l = f1();
    let sa = Sa::from_lts(&l).unwrap();
    let c = Compat::compute(&sa);
    let mut terms = Terms::new();
    let g = SplittingGraph::build(&sa, &c, &mut terms, &SplitOptions::default()).unwrap();
    assert!(g.complete && !g.budget_reached);
    let set = |v: &[&str]| {
        let mut s: Vec<u32> = v.iter().map(|n| st(&l, n)).collect();
        s.sort();
        s
    };
    let n123 = g.find(&set(&["1", "2", "3"])).unwrap();
    let mut kids: Vec<Vec<u32>> = g.nodes[n123]
        .children
        .iter()
        .map(|&c| g.nodes[c].set.clone())
        .collect();
    kids.sort();
    let mut want = vec![set(&["1"]), set(&["2"]), set(&["3"])];
    want.sort();
    assert_eq!(kids, want);
    // Ex. 3.27's {1,3} and {2,3} are not needed: 8 → 7 nodes.
    assert_eq!(g.len(), 7);
    let adg = build_adg(&sa, &c, &AdgOptions::default()).unwrap();
    assert_eq!(
        adg.terms.render(&sa, adg.root, 1000).unwrap(),
        "x.(x.0 + y.a.(x.0 + y.0)) + y.a.(x.0 + y.0)"
    );
}

/// F3 [TEXT]: the family S_n with exactly 2^(n−1) splitting-graph nodes (Lemma 3.31).
fn s_n(n: usize) -> Lts {
    let mut edges: Vec<(String, String, String)> = Vec::new();
    edges.push((n.to_string(), format!("o{n}"), "1".to_string()));
    for s in 1..n {
        for x in 1..n {
            if x != s {
                edges.push((s.to_string(), format!("o{x}"), (s + 1).to_string()));
            }
        }
    }
    // state 1 first
    edges.sort_by_key(|e| e.0 != "1");
    let e: Vec<(&str, &str, &str)> = edges
        .iter()
        .map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str()))
        .collect();
    lts(&e, &[])
}

#[test]
fn f3_exponential_splitting_graph() {
    for (n, depth) in [(3usize, 1usize), (4, 3), (5, 4), (6, 5), (7, 6), (8, 7)] {
        let l = s_n(n);
        let sa = Sa::from_lts(&l).unwrap();
        let c = Compat::compute(&sa);
        assert_eq!(c.compatible_pairs(), 0, "all states pairwise incompatible");
        let adg = build_adg(&sa, &c, &AdgOptions::default()).unwrap();
        assert_eq!(adg.graph.len(), 1 << (n - 1), "S_{n}: 2^(n-1) nodes");
        let (m, _) = metrics(&sa, &c, &adg, &AdgOptions::default());
        assert_eq!(m.depth, depth, "S_{n}: ADG depth");
        assert_eq!(m.undistinguished_pairs, 0);
    }
}

/// F4 [RECON]: no ADG exists (thesis Fig. 3.5).
#[test]
fn f4_no_adg() {
    let l = lts(
        &[
            ("1", "y", "2"),
            ("3", "y", "2"),
            ("1", "a", "1"),
            ("2", "a", "1"),
            ("2", "b", "3"),
            ("3", "b", "3"),
            ("3", "a", "2"),
            ("1", "b", "2"),
            ("2", "x", "2"),
        ],
        &["a", "b"],
    );
    let sa = Sa::from_lts(&l).unwrap();
    let c = Compat::compute(&sa);
    assert_eq!(c.compatible_pairs(), 0);
    assert!(
        !dg_exists(&sa, &[0, 1, 2]),
        "no distinguishing graph for {{1,2,3}}"
    );
    for (p, q) in [(0, 1), (0, 2), (1, 2)] {
        assert!(
            dg_exists(&sa, &[p, q]),
            "pairwise graphs exist (Lemma 2.29)"
        );
    }
    let adg = build_adg(&sa, &c, &AdgOptions::default()).unwrap();
    assert_eq!(adg.terms.render(&sa, adg.root, 100).unwrap(), "x.0 + y.0");
    let (m, left) = metrics(&sa, &c, &adg, &AdgOptions::default());
    assert_eq!(left.unseparated, vec![(st(&l, "1"), st(&l, "3"))]);
    assert_eq!(
        left.undistinguished.into_iter().collect::<Vec<_>>(),
        vec![(st(&l, "1"), st(&l, "3"))]
    );
    assert_eq!(m.undistinguished_pairs, 2);
}

/// F5 [RECON]: Alg. 4 line 17 (add the states not enabling the input) is essential (Ex. 3.28).
#[test]
fn f5_non_enabling_states() {
    let l = lts(
        &[
            ("1", "x", "1"),
            ("2", "x", "2"),
            ("1", "a", "3"),
            ("2", "a", "4"),
            ("3", "z", "4"),
            ("4", "z", "5"),
            ("5", "z", "6"),
            ("6", "z", "3"),
            ("5", "a", "7"),
            ("6", "a", "8"),
            ("7", "x", "8"),
            ("8", "y", "2"),
        ],
        &["a"],
    );
    let sa = Sa::from_lts(&l).unwrap();
    let c = Compat::compute(&sa);
    let set = |v: &[&str]| {
        let mut s: Vec<u32> = v.iter().map(|n| st(&l, n)).collect();
        s.sort();
        s
    };
    let mut terms = Terms::new();
    let faulty = SplitOptions {
        non_enabling: NonEnabling::Dropped,
        ..Default::default()
    };
    let g = SplittingGraph::build(&sa, &c, &mut terms, &faulty).unwrap();
    assert!(!g.complete, "without line 17 the construction gets stuck");
    let stuck = g.find(&set(&["1", "2"])).unwrap();
    assert!(
        g.nodes[stuck].children.is_empty(),
        "{{1,2}} never gets children"
    );
    let n3456 = g.find(&set(&["3", "4", "5", "6"])).unwrap();
    let kids: Vec<Vec<u32>> = g.nodes[n3456]
        .children
        .iter()
        .map(|&c| g.nodes[c].set.clone())
        .collect();
    assert_eq!(kids, vec![set(&["5"]), set(&["6"])]);

    let mut terms = Terms::new();
    let g = SplittingGraph::build(&sa, &c, &mut terms, &thesis_split()).unwrap();
    assert!(g.complete);
    let root_kids: Vec<Vec<u32>> = g.nodes[0]
        .children
        .iter()
        .map(|&c| g.nodes[c].set.clone())
        .collect();
    for k in [
        set(&["1", "2", "7"]),
        set(&["8"]),
        set(&["3", "4", "5", "6"]),
    ] {
        assert!(root_kids.contains(&k));
    }
    let n3456 = g.find(&set(&["3", "4", "5", "6"])).unwrap();
    let kids: Vec<Vec<u32>> = g.nodes[n3456]
        .children
        .iter()
        .map(|&c| g.nodes[c].set.clone())
        .collect();
    assert_eq!(kids, vec![set(&["3", "4", "5"]), set(&["3", "4", "6"])]);
    let n12 = g.find(&set(&["1", "2"])).unwrap();
    let w = terms
        .render(&sa, g.nodes[n12].witness.unwrap(), 1000)
        .unwrap();
    assert!(
        w.starts_with("a.z.z.a."),
        "1 and 2 are separated by azza·(x|y): {w}"
    );
    // The default construction (non-enabling states in a child of their own) also
    // terminates, but its witness for {1,2} separates them only by an input the run from 1
    // does not specify (1 a z reaches 4, which has no a): the default (valid) ADG cannot use
    // it, the pair shares an observation, and the `adg` suite adds the pairwise graph for it.
    let mut terms = Terms::new();
    let g = SplittingGraph::build(&sa, &c, &mut terms, &SplitOptions::default()).unwrap();
    assert!(g.complete);
    let n12 = g.find(&set(&["1", "2"])).unwrap();
    let w = terms
        .render(&sa, g.nodes[n12].witness.unwrap(), 1000)
        .unwrap();
    assert_eq!(w, "a.z.a.(x.0 + y.0 + z.0)");
    let pair = |p: &str, q: &str| {
        let (a, b) = (st(&l, p), st(&l, q));
        (a.min(b), a.max(b))
    };
    let sorted = |mut v: Vec<(u32, u32)>| {
        v.sort_unstable();
        v
    };
    // Compatibilities (by hand): 3 ⋈ 5 and 4 ⋈ 6 (below); every other pair is incompatible.
    // 5/6 differ after `a` (7 -x->, 8 -y->), 4/5 and 3/6 reach 5/6 by `z`, 3/4 reach 4/5.
    let z_pairs = || {
        vec![
            pair("3", "4"),
            pair("3", "6"),
            pair("4", "5"),
            pair("5", "6"),
        ]
    };
    // The default ADG (valid by Def. 3.15), derived by hand: the root splits on output
    // (`x.0 + y.0 + z.0`, a test case for every state). After `x`, {1,2,8}'s LCA is the root
    // again, after `x x` {1,2}'s only LCA is the node {1,2}, whose witness `a z a` is no test
    // case for state 1 (1 a z reaches 4, which has no `a`): the observation ends with 1 and
    // 2 together. After `z`, {3,4,5,6}'s only LCA is its own node, whose witness starts with
    // `a`, which 3 and 4 lack: it ends there too. So 1/2 and the four incompatible pairs of
    // {3,4,5,6} share an observation (5 pairs, 10 ordered), and a valid ADG separates
    // exactly the pairs it distinguishes.
    let adg = build_adg(&sa, &c, &AdgOptions::default()).unwrap();
    assert_eq!(
        adg.terms.render(&sa, adg.root, 1000).unwrap(),
        "x.(x.0 + y.0 + z.0) + y.0 + z.0"
    );
    assert_eq!(check_def_3_15(&sa, &adg.terms, adg.root), None);
    let (m, left) = metrics(&sa, &c, &adg, &AdgOptions::default());
    assert!(m.splitting_graph_complete);
    let mut want = z_pairs();
    want.push(pair("1", "2"));
    assert_eq!(left.unseparated, sorted(want.clone()));
    assert_eq!(
        sorted(left.undistinguished.into_iter().collect()),
        sorted(want)
    );
    assert_eq!(m.undistinguished_pairs, 10);
    assert_eq!(m.unseparated_pairs, 10);
    // Alg. 5 as printed takes those witnesses anyway: it shares no observation (Table 3.2's
    // count), but separates 1/2, 3/4, 3/6 and 5/6 only by an input one state lacks.
    let printed = AdgOptions {
        valid_inputs: false,
        ..AdgOptions::default()
    };
    let adg = build_adg(&sa, &c, &printed).unwrap();
    assert_eq!(
        adg.terms.render(&sa, adg.root, 1000).unwrap(),
        "x.(x.a.z.a.(x.0 + y.0 + z.0) + y.0 + z.0) + y.0 + z.a.(x.0 + y.0 + z.0)"
    );
    assert!(check_def_3_15(&sa, &adg.terms, adg.root).is_some());
    let (m, left) = metrics(&sa, &c, &adg, &printed);
    assert_eq!(
        m.undistinguished_pairs, 0,
        "no shared observation (Table 3.2)"
    );
    assert_eq!(
        left.unseparated,
        vec![
            pair("1", "2"),
            pair("3", "4"),
            pair("3", "6"),
            pair("5", "6")
        ]
    );
    assert_eq!(m.unseparated_pairs, 8);
    // The thesis' graph separates 1 and 2 by an output after a z z a, a test case for both
    // (1 a z z reaches 5, 2 a z z reaches 6, both enable `a`): the valid ADG takes it. After
    // `z` it stops as above, {3,4,5,6} sharing that observation.
    let adg = build_adg(&sa, &c, &thesis_adg()).unwrap();
    assert_eq!(
        adg.terms.render(&sa, adg.root, 1000).unwrap(),
        "x.(x.a.z.z.a.(x.0 + y.0 + z.0) + y.0 + z.0) + y.0 + z.0"
    );
    assert_eq!(check_def_3_15(&sa, &adg.terms, adg.root), None);
    let (m, left) = metrics(&sa, &c, &adg, &AdgOptions::default());
    assert_eq!(m.undistinguished_pairs, 8);
    assert_eq!(left.unseparated, sorted(z_pairs()));
    // As printed, it applies `a` after `z`: 3/4, 3/6 and 5/6 are still only separated by an
    // input one of them lacks (the metrics drop such states).
    let printed = AdgOptions {
        valid_inputs: false,
        ..thesis_adg()
    };
    let adg = build_adg(&sa, &c, &printed).unwrap();
    assert_eq!(
        adg.terms.render(&sa, adg.root, 1000).unwrap(),
        "x.(x.a.z.z.a.(x.0 + y.0 + z.0) + y.0 + z.0) + y.0 + z.a.(x.0 + y.0 + z.0)"
    );
    let (m, left) = metrics(&sa, &c, &adg, &printed);
    assert_eq!(m.undistinguished_pairs, 0);
    assert_eq!(
        left.unseparated,
        vec![pair("3", "4"), pair("3", "6"), pair("5", "6")]
    );
    // Side effect of the reconstruction: 3 ⋈ 5 and 4 ⋈ 6.
    assert!(c.compatible(st(&l, "3"), st(&l, "5")));
    assert!(c.compatible(st(&l, "4"), st(&l, "6")));
}

/// F8 [RECON]: the running example of ch. 2 (Fig. 2.1a; Ex. 2.8, 2.32, 2.38, 2.39).
pub fn f8() -> Lts {
    lts(
        &[
            ("1", "a", "2"),
            ("1", "x", "2"),
            ("1", "b", "3"),
            ("2", "a", "4"),
            ("3", "a", "5"),
            ("2", "w", "6"),
            ("3", "w", "6"),
            ("4", "x", "6"),
            ("4", "y", "6"),
            ("5", "y", "6"),
            ("6", "z", "6"),
        ],
        &["a", "b"],
    )
}

#[test]
fn f8_compatibility_merges_and_graphs() {
    let l = f8();
    let sa = Sa::from_lts(&l).unwrap();
    let s = |n| st(&l, n);
    let c = Compat::compute(&sa);
    let mut got = pairs_by_name(&sa, &c);
    got.sort();
    assert_eq!(got, names(&[("2", "3"), ("4", "5")]));
    let e = Equiv::compute(&sa);
    assert!(!e.equivalent(s("2"), s("3")));
    assert!(!e.equivalent(s("4"), s("5")));
    // Alg. 1: round 1 removes every pair but (1,4),(2,3),(4,5); round 2 removes (1,4).
    let (c1, rounds) = compat_fixpoint(&sa);
    assert_eq!(rounds, 2);
    assert_eq!(c1.rank(s("1"), s("4")), Some(2));
    assert_eq!(c1.pairs(), c.pairs());
    // Fig. 2.7: DG(2,6) and DG(1,4) are output nodes; DG(1,4) continues with DG(2,6) after x.
    assert_eq!(c.strategy(s("2"), s("6")), Some(Strategy::Wait));
    assert_eq!(c.strategy(s("1"), s("4")), Some(Strategy::Wait));
    assert_eq!(c.rank(s("1"), s("4")), Some(1));
    // Merges (Ex. 2.38): 2∧3 has 3 states with traces wz⁵ and ayz⁴ (length 6); 4∧5 has 2.
    let m23 = merge(&sa, s("2"), s("3")).unwrap();
    assert_eq!(m23.n(), 3);
    let six: Vec<String> = traces_upto(&m23, 6)
        .into_iter()
        .filter(|t| t.len() == 6)
        .map(|t| m23.show(&t))
        .collect();
    assert_eq!(six, vec!["a? y! z! z! z! z!", "w! z! z! z! z! z!"]);
    let m45 = merge(&sa, s("4"), s("5")).unwrap();
    assert_eq!(m45.n(), 2);
    for m in [&m23, &m45] {
        let cm = Compat::compute(m);
        assert_eq!(
            cm.compatible_pairs(),
            0,
            "no further recursion (L3110–3120)"
        );
    }
    assert!(merge(&sa, s("1"), s("4")).is_none());
    // Ex. 2.39: aax ∈ traces(S), ax ∉ traces(2∧3).
    let a = sa.local(l.alphabet().lookup("a").unwrap()).unwrap();
    let x = sa.local(l.alphabet().lookup("x").unwrap()).unwrap();
    assert!(sa.run(sa.initial, &[a, a, x]).is_some());
    assert!(m23.run(m23.initial, &[a, x]).is_none());
    // Harmonised identifiers (journal note §A3, derived): 13 incompatible pairs;
    // |W(1)| = |W(6)| = 5, |W(2..5)| = 4; DG(1,4) ∈ W(1) ∩ W(4).
    let all: Vec<u32> = (0..6).collect();
    assert_eq!(
        ioco_complete::distgraph::characterisation_set(&c, &all).len(),
        13
    );
    let w = ioco_complete::distgraph::identifiers(&c, &all);
    for (q, size) in [("1", 5), ("6", 5), ("2", 4), ("3", 4), ("4", 4), ("5", 4)] {
        assert_eq!(w[&s(q)].len(), size, "|W({q})|");
    }
    assert!(w[&s("1")].contains(&s("4")) && w[&s("4")].contains(&s("1")));
}

#[test]
fn f8_depth_guard_falls_back_to_unconditional() {
    let l = f8();
    let (good, bad) = f8_impls();
    let suite = n_complete(
        &l,
        4,
        &NCompleteOptions {
            max_depth: 0,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(!suite.suites.is_empty());
    assert!(suite
        .suites
        .iter()
        .all(|s| s.method == "unconditional" && s.role == ioco_gen::SuiteRole::Distinguishing));
    let r = run_suite(&suite, &good, &l);
    assert!(!r.conformance_fail && !r.monitor);
    let r = run_suite(&suite, &bad, &l);
    assert!(r.conformance_fail && !r.unsound_fail);
    // The suite is valid JSON in the shared format and survives a round trip.
    let j = serde_json::to_string(&suite).unwrap();
    let back: ioco_gen::Suite = serde_json::from_str(&j).unwrap();
    assert_eq!(back, suite);
    for t in &suite.tests {
        t.test.validate().unwrap();
    }
}

/// Fig. 2.1b: a conforming implementation (2' implements both 2 and 3); Fig. 2.1c-like:
/// non-conforming with counterexample a w z x.
fn f8_impls() -> (Lts, Lts) {
    let good = lts(
        &[
            ("1", "a", "2"),
            ("1", "x", "2"),
            ("1", "b", "2"),
            ("2", "a", "5"),
            ("2", "w", "6"),
            ("2", "b", "2"),
            ("5", "y", "6"),
            ("5", "a", "5"),
            ("5", "b", "5"),
            ("6", "z", "6"),
            ("6", "a", "6"),
            ("6", "b", "6"),
        ],
        &["a", "b"],
    );
    let bad = lts(
        &[
            ("1", "a", "2"),
            ("1", "x", "2"),
            ("1", "b", "2"),
            ("2", "a", "5"),
            ("2", "w", "6"),
            ("2", "b", "2"),
            ("5", "y", "6"),
            ("5", "a", "5"),
            ("5", "b", "5"),
            ("6", "z", "7"),
            ("6", "a", "6"),
            ("6", "b", "6"),
            ("7", "x", "7"),
            ("7", "a", "7"),
            ("7", "b", "7"),
        ],
        &["a", "b"],
    );
    (good, bad)
}

#[test]
fn f8_suite_passes_conforming_and_fails_faulty() {
    let l = f8();
    let (good, bad) = f8_impls();
    let opts = CompareOptions {
        completion: InputCompletion::Require,
        ..Default::default()
    };
    assert!(compare(&good, &l, &opts).unwrap().conforms());
    let cex = compare(&bad, &l, &opts).unwrap().counterexample.unwrap();
    assert_eq!(l.alphabet().display_trace(&cex.trace), "a? w! z!");
    assert_eq!(cex.observed, "x!");
    for flatten in [false, true] {
        let o = NCompleteOptions {
            flatten_nested: flatten,
            ..Default::default()
        };
        let suite = n_complete(&l, 5, &o).unwrap();
        // Nested merge suites T(2∧3, n), T(4∧5, n) are present (or flattened).
        if !flatten {
            assert!(suite
                .suites
                .iter()
                .any(|s| s.parameters["merge"] == "2 ∧ 3"));
            assert!(suite
                .suites
                .iter()
                .any(|s| s.parameters["merge"] == "4 ∧ 5"));
            assert!(
                suite.suites.iter().all(|s| s.suites.is_empty()),
                "recursion stops after one level"
            );
        }
        let r = run_suite(&suite, &good, &l);
        assert!(
            !r.conformance_fail && !r.monitor,
            "conforming implementation passes"
        );
        let r = run_suite(&suite, &bad, &l);
        assert!(r.conformance_fail, "faulty implementation fails");
        assert!(!r.unsound_fail);
    }
}

/// F9 [RECON]: compatibility is not transitive (thesis Fig. 2.2, Ex. 2.17).
#[test]
fn f9_not_transitive() {
    let l = lts(
        &[
            ("1", "x", "2"),
            ("1", "y", "2"),
            ("2", "y", "2"),
            ("3", "x", "2"),
            ("2", "z", "3"),
        ],
        &[],
    );
    let sa = Sa::from_lts(&l).unwrap();
    let c = Compat::compute(&sa);
    let s = |n| st(&l, n);
    assert!(c.compatible(s("1"), s("2")));
    assert!(c.compatible(s("1"), s("3")));
    assert!(!c.compatible(s("2"), s("3")));
}

/// F10 [RECON]: no DG for three mutually incompatible states (thesis Fig. 2.6, Ex. 2.30).
#[test]
fn f10_no_dg_for_three_states() {
    let l = lts(
        &[
            ("1", "z", "1"),
            ("3", "z", "3"),
            ("5", "z", "5"),
            ("1", "a", "2"),
            ("3", "a", "2"),
            ("3", "b", "4"),
            ("5", "b", "4"),
            ("1", "b", "2"),
            ("5", "a", "4"),
            ("2", "x", "1"),
            ("4", "y", "5"),
        ],
        &["a", "b"],
    );
    let sa = Sa::from_lts(&l).unwrap();
    let c = Compat::compute(&sa);
    let (a, b, d) = (st(&l, "1"), st(&l, "3"), st(&l, "5"));
    for (p, q) in [(a, b), (b, d), (a, d)] {
        assert!(!c.compatible(p, q));
        assert!(dg_exists(&sa, &[p, q]));
    }
    let al = sa.local(l.alphabet().lookup("a").unwrap()).unwrap();
    let bl = sa.local(l.alphabet().lookup("b").unwrap()).unwrap();
    assert!(!ioco_complete::distgraph::injective(&sa, &[a, b, d], al));
    assert!(!ioco_complete::distgraph::injective(&sa, &[a, b, d], bl));
    assert!(!dg_exists(&sa, &[a, b, d]));
}

/// F11 [RECON]: states that are not certainly reachable (thesis Fig. 2.8, Ex. 2.36).
#[test]
fn f11_not_certainly_reachable() {
    let s = lts(
        &[
            ("1", "x", "2"),
            ("1", "y", "3"),
            ("2", "w", "2"),
            ("3", "z", "3"),
        ],
        &[],
    );
    let ib = lts(&[("i1", "y", "i2"), ("i2", "z", "i2")], &[]);
    let ic = lts(
        &[("i1", "y", "i2"), ("i2", "z", "i3"), ("i3", "z", "i1")],
        &[],
    );
    let opts = CompareOptions {
        completion: InputCompletion::Require,
        ..Default::default()
    };
    assert!(compare(&ib, &s, &opts).unwrap().conforms());
    let cex = compare(&ic, &s, &opts).unwrap().counterexample.unwrap();
    assert_eq!(
        format!(
            "{} {}",
            s.alphabet().display_trace(&cex.trace),
            cex.observed
        ),
        "y! z! z! y!"
    );
    // T(S,3) reaches the third implementation state through yzz and detects I_c.
    let suite = n_complete(&s, 3, &Default::default()).unwrap();
    let r = run_suite(&suite, &ic, &s);
    assert!(r.conformance_fail && !r.unsound_fail);
    let r = run_suite(&suite, &ib, &s);
    assert!(!r.conformance_fail && !r.monitor);
    // T(S,1) (access sequences of length ≤ 1 only) misses it, as FSM-style P·L^1·W does.
    let small = n_complete(&s, 1, &Default::default()).unwrap();
    assert!(!run_suite(&small, &ic, &s).conformance_fail);
}

/// F14 [RECON]: the coffee machine of ch. 1 with quiescence.
fn coffee() -> Lts {
    lts(
        &[
            ("s0", "water", "s1"),
            ("s1", "pad", "s2"),
            ("s2", "button", "s3"),
            ("s3", "coffee", "s0"),
            ("s3", "error", "s0"),
            ("s0", "button", "e0"),
            ("e0", "error", "s0"),
            ("s1", "button", "e1"),
            ("e1", "error", "s0"),
            ("s0", "δ", "s0"),
            ("s1", "δ", "s1"),
            ("s2", "δ", "s2"),
        ],
        &["water", "pad", "button"],
    )
}

#[test]
fn f14_coffee_machine() {
    let l = coffee();
    let sa = Sa::from_lts(&l).unwrap();
    let c = Compat::compute(&sa);
    let s = |n| st(&l, n);
    for g in [["s3", "e0", "e1"], ["s0", "s1", "s2"]] {
        for p in g {
            for q in g {
                assert!(c.compatible(s(p), s(q)), "{p} ⋈ {q}");
            }
        }
    }
    for p in ["s3", "e0", "e1"] {
        for q in ["s0", "s1", "s2"] {
            assert!(!c.compatible(s(p), s(q)), "{p} ⋈̸ {q}");
            // the only experiment: wait for an output or δ
            assert_eq!(c.strategy(s(p), s(q)), Some(Strategy::Wait));
            assert_eq!(c.rank(s(p), s(q)), Some(0));
        }
    }
    // Implementations of ch. 1 (input-enabled by self-loops).
    let inputs = ["water", "pad", "button"];
    let mk = |extra: &[(&str, &str, &str)]| {
        let mut e: Vec<(&str, &str, &str)> = extra.to_vec();
        let states: Vec<&str> = {
            let mut v: Vec<&str> = e.iter().flat_map(|t| [t.0, t.2]).collect();
            v.dedup();
            v
        };
        let mut all: Vec<&str> = Vec::new();
        for st in states {
            if !all.contains(&st) {
                all.push(st);
            }
        }
        for st in &all {
            for i in inputs {
                if !e.iter().any(|t| t.0 == *st && t.1 == i) {
                    e.push((st, i, st));
                }
            }
        }
        lts(&e, &inputs)
    };
    // Fig. 1.5: never error! after water·pad·button: conforms.
    let fig15 = mk(&[
        ("s0", "water", "s1"),
        ("s1", "pad", "s2"),
        ("s2", "button", "s3"),
        ("s3", "coffee", "s0"),
        ("s0", "button", "e0"),
        ("e0", "error", "s0"),
        ("s1", "button", "e1"),
        ("e1", "error", "s0"),
        ("s0", "δ", "s0"),
        ("s1", "δ", "s1"),
        ("s2", "δ", "s2"),
    ]);
    // Fig. 1.6 left: coffee! after button? in the initial state.
    let fig16l = mk(&[
        ("s0", "water", "s1"),
        ("s1", "pad", "s2"),
        ("s2", "button", "s3"),
        ("s3", "coffee", "s0"),
        ("s0", "button", "e0"),
        ("e0", "coffee", "s0"),
        ("s1", "button", "e1"),
        ("e1", "error", "s0"),
        ("s0", "δ", "s0"),
        ("s1", "δ", "s1"),
        ("s2", "δ", "s2"),
    ]);
    // Fig. 1.6 right: coffee! in the initial state, where only δ is allowed.
    let fig16r = mk(&[
        ("s0", "coffee", "s0"),
        ("s0", "water", "s1"),
        ("s1", "pad", "s2"),
        ("s2", "button", "s3"),
        ("s3", "coffee", "s0"),
        ("s1", "δ", "s1"),
        ("s2", "δ", "s2"),
    ]);
    let opts = CompareOptions {
        completion: InputCompletion::Require,
        ..Default::default()
    };
    assert!(compare(&fig15, &l, &opts).unwrap().conforms());
    assert!(!compare(&fig16l, &l, &opts).unwrap().conforms());
    assert!(!compare(&fig16r, &l, &opts).unwrap().conforms());
    let est = ioco_complete::estimate(&l, 2).unwrap();
    let suite = n_complete(&l, 2, &Default::default()).unwrap();
    assert_eq!(suite.num_tests() as f64, est.total_tests);
    assert!(!run_suite(&suite, &fig15, &l).conformance_fail);
    for bad in [&fig16l, &fig16r] {
        let r = run_suite(&suite, bad, &l);
        assert!(r.conformance_fail && !r.unsound_fail);
    }
    // The `adg` suite: the only experiment is "wait: output or δ" (L1366–1376).
    let a = ioco_complete::analyze(&l).unwrap();
    // 6 unordered pairs, 12 ordered ones (thesis Table 3.2's convention).
    assert_eq!(a.compatible_pairs, 12);
    let adg = a.adg.unwrap();
    assert_eq!(adg.depth, 1);
    assert!(
        adg.term.contains("δ.0") && adg.term.contains("coffee.0") && adg.term.contains("error.0"),
        "{}",
        adg.term
    );
    let suite = ioco_complete::adg_suite(&l, &Default::default()).unwrap();
    assert!(!run_suite(&suite, &fig15, &l).conformance_fail);
    for bad in [&fig16l, &fig16r] {
        let r = run_suite(&suite, bad, &l);
        assert!(r.conformance_fail && !r.unsound_fail);
    }
}

/// Journal Ex. 45 (fixture F9 of the journal note): the |S|·|I|_S bound of U(S,n) is tight.
#[test]
fn ex45_tight_bound() {
    let s = lts(
        &[
            ("1", "x", "2"),
            ("1", "y", "2"),
            ("2", "x", "3"),
            ("2", "y", "3"),
            ("3", "x", "4"),
            ("3", "y", "4"),
            ("4", "y", "1"),
        ],
        &[],
    );
    let i = lts(&[("0", "y", "1"), ("1", "y", "2"), ("2", "x", "0")], &[]);
    let opts = CompareOptions {
        completion: InputCompletion::Require,
        ..Default::default()
    };
    let cex = compare(&i, &s, &opts).unwrap().counterexample.unwrap();
    let word = format!(
        "{} {}",
        s.alphabet().display_trace(&cex.trace),
        cex.observed
    )
    .replace(['!', ' '], "");
    assert_eq!(word, "yyxyyxyyxyyx");
    assert_eq!(word.len(), 4 * 3);
    let sa = Sa::from_lts(&s).unwrap();
    let sigma: Vec<u16> = word[..11]
        .chars()
        .map(|c| {
            sa.local(s.alphabet().lookup(&c.to_string()).unwrap())
                .unwrap()
        })
        .collect();
    assert!(ioco_complete::unconditional::bounded_traces(&sa, 3).contains(&sigma));
    assert!(!ioco_complete::unconditional::bounded_traces(&sa, 2).contains(&sigma));
    assert!(ioco_complete::unconditional::bounded_traces(&sa, 3)
        .iter()
        .all(|t| t.len() < 4 * 3));
    let u3 = ioco_complete::unconditional_suite(&s, 3, 100_000).unwrap();
    assert!(run_suite(&u3, &i, &s).conformance_fail);
    let u2 = ioco_complete::unconditional_suite(&s, 2, 100_000).unwrap();
    assert!(!run_suite(&u2, &i, &s).conformance_fail);
    // T(S,3) is 3-complete too.
    let t3 = n_complete(&s, 3, &Default::default()).unwrap();
    let r = run_suite(&t3, &i, &s);
    assert!((r.conformance_fail || r.monitor) && !r.unsound_fail);
}

#[test]
fn refusal_names_a_feasible_n() {
    let l = coffee();
    let err = n_complete(
        &l,
        30,
        &NCompleteOptions {
            max_tests: 2_000,
            ..Default::default()
        },
    )
    .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("n = 30") && msg.contains("is feasible"),
        "{msg}"
    );
    if let ioco_complete::CompleteError::TooLarge {
        feasible_n: Some(m),
        ..
    } = err
    {
        let s = n_complete(
            &l,
            m,
            &NCompleteOptions {
                max_tests: 2_000,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(s.num_tests() <= 2_000);
    } else {
        panic!("expected TooLarge");
    }
}

#[test]
fn bad_input_is_an_error() {
    let l = lts(&[("1", "a", "2"), ("2", "x", "1")], &["a"]);
    let e = ioco_complete::analyze(&l).unwrap_err().to_string();
    assert!(
        e.contains("blocking") && e.contains("SuspensionAutomaton"),
        "{e}"
    );
}

#[test]
fn streaming_yields_the_same_tests() {
    let l = f8();
    let opts = NCompleteOptions::default();
    let suite = n_complete(&l, 4, &opts).unwrap();
    let mut tests = Vec::new();
    let mut depth = 0i32;
    let mut max_depth = 0;
    let est = ioco_complete::n_complete_stream(&l, 4, &opts, &mut |e| match e {
        ioco_complete::suite::Event::Test(t) => tests.push(t),
        ioco_complete::suite::Event::Begin(_) => {
            depth += 1;
            max_depth = max_depth.max(depth);
        }
        ioco_complete::suite::Event::End => depth -= 1,
    })
    .unwrap();
    assert_eq!(depth, 0);
    assert_eq!(max_depth, 2, "outer suite and one level of merge suites");
    assert_eq!(tests.len(), suite.num_tests());
    assert_eq!(est.total_tests, suite.num_tests() as f64);
    fn all(s: &ioco_gen::Suite, out: &mut Vec<ioco_gen::NamedTest>) {
        out.extend(s.tests.iter().cloned());
        for c in &s.suites {
            all(c, out);
        }
    }
    let mut flat = Vec::new();
    all(&suite, &mut flat);
    let mut a: Vec<String> = flat.iter().map(|t| t.name.clone()).collect();
    let mut b: Vec<String> = tests.iter().map(|t| t.name.clone()).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
}
