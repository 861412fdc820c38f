//! The worked examples of the tutorial (notes: ioco-tutorial-and-sts-coverage.md §3) as tests
//! of the model core: suspension automata and `compare`.

use ioco_model::{
    compare, Alphabet, CompareOptions, InputCompletion, Label, LabelKind, Lts, LtsBuilder,
    QuiescencePolicy, Suspension,
};

/// Build an LTS from `(from, "label?"|"label!"|"tau", to)` triples; state 0 is initial.
/// Every label in `inputs`/`outputs` is declared even when unused.
fn lts(inputs: &[&str], outputs: &[&str], edges: &[(u32, &str, u32)]) -> Lts {
    let mut a = Alphabet::new();
    for i in inputs {
        a.input(i).unwrap();
    }
    for o in outputs {
        a.output(o).unwrap();
    }
    let mut b = LtsBuilder::new(a);
    let n = edges.iter().map(|e| e.0.max(e.2)).max().unwrap_or(0) + 1;
    b.add_states(n as usize);
    b.add_initial(0);
    for &(s, l, t) in edges {
        if l == "tau" {
            b.add_transition(s, Label::TAU, t);
        } else if let Some(name) = l.strip_suffix('?') {
            b.add(s, name, LabelKind::Input, t).unwrap();
        } else {
            b.add(s, l.strip_suffix('!').unwrap(), LabelKind::Output, t)
                .unwrap();
        }
    }
    b.build().unwrap()
}

fn names(l: &Lts, labels: &[Label]) -> Vec<String> {
    labels.iter().map(|&x| l.alphabet().display(x)).collect()
}

fn check(imp: &Lts, spec: &Lts, policy: QuiescencePolicy) -> Option<(Vec<String>, String)> {
    let opts = CompareOptions {
        policy,
        ..Default::default()
    };
    let c = compare(imp, spec, &opts).unwrap();
    c.counterexample
        .map(|cex| (names(spec, &cex.trace), cex.observed))
}

#[test]
fn example_6_10_trace_inclusion_is_not_ioco() {
    let spec = lts(&["a"], &["b"], &[(0, "a?", 0), (0, "b!", 0)]);
    let imp = lts(&["a"], &["b"], &[(0, "a?", 0)]);
    assert!(imp.is_input_enabled() && spec.is_input_enabled());
    let (sigma, x) = check(&imp, &spec, QuiescencePolicy::Stable).expect("not ioco");
    assert!(sigma.is_empty(), "witness is ε");
    assert_eq!(x, "δ");
    // out(spec after ε) = {b!}
    let c = compare(&imp, &spec, &CompareOptions::default()).unwrap();
    assert_eq!(names(&spec, &c.counterexample.unwrap().allowed), vec!["b!"]);
    // and the other way round conforms
    assert!(check(&spec, &spec, QuiescencePolicy::Stable).is_none());
}

#[test]
fn remark_6_12_hiding_breaks_ioco_only_with_local_quiescence() {
    // Before hiding: impl s0 -a!-> s0 conforms to spec s0 -a!-> s0, s0 -b!-> s1.
    let spec = lts(&[], &["a", "b"], &[(0, "a!", 0), (0, "b!", 1)]);
    let imp = lts(&[], &["a", "b"], &[(0, "a!", 0)]);
    assert!(check(&imp, &spec, QuiescencePolicy::Stable).is_none());
    // After hiding a! (a! becomes τ): with the tutorial's local quiescence (Def. 4.7) the
    // implementation's τ-loop state is quiescent but the spec's is not: not ioco, witness ε.
    let spec_h = lts(&[], &["b"], &[(0, "tau", 0), (0, "b!", 1)]);
    let imp_h = lts(&[], &["b"], &[(0, "tau", 0)]);
    let (sigma, x) = check(&imp_h, &spec_h, QuiescencePolicy::NoOutput).expect("not ioco");
    assert!(sigma.is_empty());
    assert_eq!(x, "δ");
    // With stable quiescence and the tool's divergence semantics (ioco_model::divergence) the
    // same: the implementation's τ-loop reaches no output, so it is quiescent (a tester's
    // time-out sees δ), while the specification's loop is left for b!. Before, stable
    // quiescence gave out_i(ε) = ∅ and `compare` said ioco while `test --sim` failed.
    let mut s = Suspension::new(&imp_h, QuiescencePolicy::Stable);
    assert_eq!(s.out(0), vec![Label::DELTA]);
    let (sigma, x) = check(&imp_h, &spec_h, QuiescencePolicy::Stable).expect("not ioco");
    assert!(sigma.is_empty());
    assert_eq!(x, "δ");
}

#[test]
fn example_4_11_delta_then_determinise() {
    let a = lts(&["a"], &["b"], &[(0, "a?", 1), (0, "a?", 2), (1, "b!", 3)]);
    let la = a.alphabet().lookup("a").unwrap();
    let lb = a.alphabet().lookup("b").unwrap();
    let mut s = Suspension::new(&a, QuiescencePolicy::Stable);
    assert!(
        s.run(&[la, Label::DELTA]).is_some(),
        "a?·δ is a suspension trace"
    );
    assert!(s.run(&[la, Label::DELTA, lb]).is_none(), "a?·δ·b! is not");
    assert!(s.run(&[la, lb]).is_some());
}

/// The music player of tutorial Ex. 2.1–2.4 (reconstructed in the notes, §3.4).
fn music_spec() -> Lts {
    lts(
        &["shuffle"],
        &["playA", "playB", "done"],
        &[
            (0, "shuffle?", 1),
            (1, "playA!", 2),
            (1, "playB!", 3),
            (2, "done!", 0),
            (2, "shuffle?", 1),
            (3, "done!", 0),
            (3, "shuffle?", 1),
        ],
    )
}

/// (name, implementation, expected counterexample: σ and the observed output)
type Case = (&'static str, Lts, Option<(&'static str, &'static str)>);

fn music_impls() -> Vec<Case> {
    let io = (&["shuffle"][..], &["playA", "playB", "done"][..]);
    let a_only = vec![
        (0, "shuffle?", 1),
        (1, "shuffle?", 1),
        (1, "playA!", 2),
        (2, "done!", 0),
        (2, "shuffle?", 1),
    ];
    let mut early = a_only.clone();
    early.push((0, "playA!", 2));
    let nodone: Vec<_> = a_only
        .iter()
        .copied()
        .filter(|e| *e != (2, "done!", 0))
        .collect();
    vec![
        ("A-only", lts(io.0, io.1, &a_only), None),
        (
            "full",
            lts(
                io.0,
                io.1,
                &[
                    (0, "shuffle?", 1),
                    (1, "shuffle?", 1),
                    (1, "playA!", 2),
                    (1, "playB!", 3),
                    (2, "done!", 0),
                    (2, "shuffle?", 1),
                    (3, "done!", 0),
                    (3, "shuffle?", 1),
                ],
            ),
            None,
        ),
        (
            "silent",
            lts(io.0, io.1, &[(0, "shuffle?", 0)]),
            Some(("shuffle?", "δ")),
        ),
        ("early", lts(io.0, io.1, &early), Some(("", "playA!"))),
        (
            "err",
            lts(
                io.0,
                io.1,
                &[
                    (0, "playA!", 2),
                    (0, "shuffle?", 3),
                    (3, "shuffle?", 3),
                    (2, "done!", 0),
                    (2, "shuffle?", 3),
                ],
            ),
            Some(("", "playA!")),
        ),
        (
            "nodone",
            lts(io.0, io.1, &nodone),
            Some(("shuffle? playA!", "δ")),
        ),
        (
            "double",
            lts(
                io.0,
                io.1,
                &[
                    (0, "shuffle?", 1),
                    (1, "shuffle?", 1),
                    (1, "playA!", 2),
                    (2, "playA!", 4),
                    (4, "done!", 0),
                    (2, "shuffle?", 1),
                    (4, "shuffle?", 1),
                ],
            ),
            Some(("shuffle? playA!", "playA!")),
        ),
    ]
}

#[test]
fn music_player_table() {
    let spec = music_spec();
    for (name, imp, expected) in music_impls() {
        let opts = CompareOptions {
            completion: InputCompletion::Require,
            ..Default::default()
        };
        let got = compare(&imp, &spec, &opts)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .counterexample
            .map(|c| (names(&spec, &c.trace).join(" "), c.observed));
        let expected = expected.map(|(s, x)| (s.to_string(), x.to_string()));
        assert_eq!(got, expected, "implementation {name}");
    }
}

#[test]
fn require_input_enabled_reports_the_state() {
    let spec = music_spec();
    let imp = lts(
        &["shuffle"],
        &["playA"],
        &[
            (0, "shuffle?", 1),
            (1, "playA!", 2),
            (2, "done!", 0),
            (2, "shuffle?", 1),
        ],
    );
    let opts = CompareOptions {
        completion: InputCompletion::Require,
        ..Default::default()
    };
    let err = compare(&imp, &spec, &opts).unwrap_err();
    assert!(err.to_string().contains("state 1"), "{err}");
    // Angelic completion: a self-loop on shuffle? in state 1 conforms (shuffle? then playA!).
    let c = compare(&imp, &spec, &CompareOptions::default()).unwrap();
    assert!(c.conforms());
    assert_eq!(c.completed_inputs, 1);
}

#[test]
fn an_input_and_an_output_of_one_name_are_two_labels() {
    // inputs and outputs are two namespaces (issue #19 item 2): `a!` of the implementation is
    // not the input `a?` of the specification
    let spec = lts(&["a"], &[], &[(0, "a?", 0)]);
    let imp = lts(&[], &["a"], &[(0, "a!", 0)]);
    let c = compare(&imp, &spec, &CompareOptions::default()).unwrap();
    assert!(!c.conforms());
    assert_eq!(c.counterexample.unwrap().observed, "a!");
}

/// An input enabled after an internal step counts as enabled (tutorial Def. 4.3: an
/// input-enabled IOTS has `s =a=>` for every input `a`): completion leaves such a state alone.
/// Completing it with a self-loop would let the input be taken before the internal step, and
/// the model would not conform to itself (`a? b! a?` then quiescent instead of `b!`); this is
/// the shape of a TorXakis `>>>`, whose exit is an internal step.
#[test]
fn an_input_after_an_internal_step_is_enabled() {
    // 0 -a?-> 1 -b!-> 2 -τ-> 3 -a?-> 4 -b!-> 5, and 0, 1, 4, 5 ignore nothing else
    let l = lts(
        &["a"],
        &["b"],
        &[
            (0, "a?", 1),
            (1, "b!", 2),
            (2, "tau", 3),
            (3, "a?", 4),
            (4, "b!", 5),
        ],
    );
    assert_eq!(check(&l, &l, QuiescencePolicy::Stable), None);
    let v: Vec<u32> = l
        .weak_input_enabledness_violations()
        .into_iter()
        .map(|(s, _)| s)
        .collect();
    assert_eq!(v, vec![1, 4, 5], "state 2 reaches a? after τ");
    let c = l.weak_angelic_completion();
    assert_eq!(c.num_transitions(), l.num_transitions() + 3);
    // the strict completion would add a loop at 2, and the model would not conform to itself
    let strict = l.angelic_completion();
    let opts = CompareOptions::default();
    assert!(!compare(&strict, &l, &opts).unwrap().conforms());
}
