//! Multi-labels (`@sync`, TorXakis `SYNC`) in the symbolic engine: a root step with several
//! visible gates that `@sync` lists is one move on a composite gate (`a|b`, the members'
//! parameters concatenated in gate order). Input values of a multi-label are chosen by the
//! solver under the conjoined guards of every part, also with unbounded data the explicit
//! engine cannot enumerate; quiescence and outputs are judged as for one gate. On bounded
//! models the symbolic engine agrees with the explicit one (`ioco_lang::semantics`) on the
//! labels enabled and on δ after random traces, with nondeterminism and τ (property test).
mod common;
use common::int;
use ioco_lang::ir::{Spec, Type, Value};
use ioco_lang::{Composed, Semantics};
use ioco_model::Label;
use ioco_symbolic::term::value_in_type;
use ioco_symbolic::tracker::{Quiescence, Step, SymbolicSpec};
use ioco_symbolic::{System, UnknownSolver};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

fn spec_of(src: &str, name: Option<&str>) -> Arc<Spec> {
    let model = match ioco_lang::parse_str("m.ioco", src) {
        Ok(m) => m,
        Err(d) => panic!("{src}\n{d:?}"),
    };
    Arc::new(match name {
        Some(n) => model.spec(n).expect("spec").clone(),
        None => model.entry().expect("entry").clone(),
    })
}

/// Unbounded inputs taken together, with a guard over both; the output pair repeats them.
const SUM: &str = "@sync(a | b, c | d)
model M {
  input a(x: int), b(y: int)
  output c(u: int), d(w: int)
  var s: int = 0, t: int = 0
  init idle
  idle -- b?(y) | a?(x) [x + y == 1000 && x > y + 5] { s = x, t = y } --> busy
  busy -- c!(u) | d!(w) [u == s && w > t] --> idle
}
";

/// Two processes whose parameters have the same name: `a|b` is a step of both at once.
const TWO: &str = "@sync(a | b, c | d)
system S { P ||| Q }
model P {
  input a(x: int)
  output c(x: int)
  var v: int = 0
  init s0
  s0 -- a?(x) [x > 100] { v = x } --> s1
  s1 -- c!(=v + 1) --> s0
}
model Q {
  input b(x: int)
  output d(x: int)
  var w: int = 0
  init s0
  s0 -- b?(x) [x < -100] { w = x } --> s1
  s1 -- d!(=w - 1) --> s0
}
";

#[test]
fn the_solver_chooses_every_value_of_an_input_multi_label_under_the_conjoined_guards() {
    let mut t = SymbolicSpec::with_z3(spec_of(SUM, None)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..12 {
        // quiescent before the input: no output is possible
        assert_eq!(t.after_quiescence(), Step::Ok);
        let (g, w) = t.choose_input(&mut rng).expect("an input");
        assert_eq!(g, "a|b");
        let (x, y) = (w[0].as_int().unwrap(), w[1].as_int().unwrap());
        assert!(x + y == 1000 && x > y + 5, "{w:?}");
        assert_eq!(t.after_input(&g, &w), Step::Ok);
        // an output is due: quiescence is a Fail, explained with the multi-label
        let mut u = SymbolicSpec::with_z3(spec_of(SUM, None)).unwrap();
        assert_eq!(u.after_input(&g, &w), Step::Ok);
        match u.after_quiescence() {
            Step::Fail(why) => assert!(why.contains("c(") && why.contains("|d("), "{why}"),
            other => panic!("{other:?}"),
        }
        // the outputs: `c` must repeat x, `d` exceed y
        let mut v = SymbolicSpec::with_z3(spec_of(SUM, None)).unwrap();
        assert_eq!(v.after_input("a | b", &w), Step::Ok);
        match v.after_output("c|d", &[int(x), int(y)]) {
            Step::Fail(why) => assert!(why.contains("w > t"), "{why}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(t.after_output("c|d", &[int(x), int(y + 1)]), Step::Ok);
    }
    // one gate of the pair alone is no step; neither are values the guards refuse
    let mut t = SymbolicSpec::with_z3(spec_of(SUM, None)).unwrap();
    assert!(matches!(
        t.after_input("a", &[int(1)]),
        Step::Inconclusive(_)
    ));
    assert!(matches!(
        t.after_input("a|b", &[int(500), int(500)]),
        Step::Inconclusive(_)
    ));
    // the wrong number of values is malformed, never a crash
    assert!(matches!(
        t.after_output("c|d", &[int(1)]),
        Step::Fail(why) if why.contains("malformed")
    ));
    // the gate is named as the explicit engine names it, parts in gate order
    assert_eq!(
        t.sys.label("a|b", &[int(503), int(497)], "?"),
        "a?(503)|b?(497)"
    );
    assert_eq!(
        t.sys.label("a|b", &[int(503), int(497)], ""),
        "a(503)|b(497)"
    );
}

#[test]
fn a_multi_label_of_two_processes_keeps_their_parameters_apart() {
    let mut t = SymbolicSpec::with_z3(spec_of(TWO, Some("S"))).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let (g, w) = t.choose_input_on(Some("b|a"), &mut rng).expect("a|b");
    assert_eq!(g, "a|b");
    let (x, y) = (w[0].as_int().unwrap(), w[1].as_int().unwrap());
    assert!(x > 100 && y < -100, "{w:?}");
    assert_eq!(t.after_input(&g, &w), Step::Ok);
    // c, d or both at once
    assert_eq!(t.after_output("c|d", &[int(x + 1), int(y - 1)]), Step::Ok);
    assert_eq!(t.after_quiescence(), Step::Ok);
    // one at a time, too
    assert_eq!(t.after_input("a", &[int(200)]), Step::Ok);
    assert!(matches!(t.after_quiescence(), Step::Fail(_)));
    let mut t = SymbolicSpec::with_z3(spec_of(TWO, Some("S"))).unwrap();
    assert_eq!(t.after_input("a", &[int(200)]), Step::Ok);
    assert!(matches!(
        t.after_output("c|d", &[int(201), int(0)]),
        Step::Fail(_)
    ));
    assert_eq!(t.after_output("c", &[int(201)]), Step::Ok);
}

#[test]
fn an_unknown_solver_never_fails_a_multi_label() {
    let t = SymbolicSpec::new(spec_of(SUM, None), Box::new(UnknownSolver));
    let mut t = t.unwrap();
    assert_eq!(t.after_input("a|b", &[int(503), int(497)]), Step::Ok);
    // quiescence needs the solver (`w > t` has many solutions): Inconclusive, not Fail
    assert!(
        matches!(t.after_quiescence(), Step::Inconclusive(_)),
        "an unknown answer judged δ"
    );
}

#[test]
fn a_sync_set_of_inputs_and_outputs_is_refused() {
    let spec = spec_of(SUM, None);
    let mut bad = (*spec).clone();
    bad.sync = vec![vec!["a".into(), "c".into()]];
    let err = System::new(Arc::new(bad)).err().expect("refused");
    assert!(err.contains("all inputs or all outputs"), "{err}");
    let mut bad = (*spec).clone();
    bad.sync = vec![vec!["a".into(), "zz".into()]];
    let err = System::new(Arc::new(bad)).err().expect("refused");
    assert!(err.contains("`zz`"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Both engines agree on small bounded models with @sync.

const TEMPLATES: [&str; 9] = [
    "a?(x) [G] { v = x }",
    "b?(x) [G]",
    "a?(x) | b?(y) [x + y >= v] { v = y }",
    "c!(x) [x >= v]",
    "c!(=v)",
    "d!",
    "c!(x) | d! [x == v]",
    "tau { v = (v + 1) % 3 }",
    "b?(x) | a?(y) [y > x] { v = y }",
];

const GUARDS: [&str; 3] = ["true", "x <= v", "x != v"];

fn model(name: &str, switches: &[(u8, usize, usize, u8)]) -> String {
    let mut s = format!(
        "model {name} {{\n  input a(x: int[0..2]), b(x: int[0..1])\n  output c(x: int[0..2]), d\n  \
         var v: int[0..2] = 0\n  init l0\n"
    );
    for &(from, t, g, to) in switches {
        let sw = TEMPLATES[t].replace('G', GUARDS[g]);
        s.push_str(&format!("  l{from} -- {sw} --> l{to}\n"));
    }
    s.push_str("}\n");
    s
}

fn system(
    p: &[(u8, usize, usize, u8)],
    q: &[(u8, usize, usize, u8)],
    sync: &str,
    par: &str,
) -> String {
    format!(
        "@sync({sync})\nsystem S {{ P {par} Q }}\n{}{}",
        model("P", p),
        model("Q", q)
    )
}

/// Every value vector of these parameter types (small ranges and booleans).
fn vectors(spec: &Spec, types: &[Type]) -> Vec<Vec<Value>> {
    let mut out = vec![Vec::new()];
    for ty in types {
        let dom: Vec<Value> = (-1..=3)
            .map(Value::Int)
            .chain([Value::Bool(false), Value::Bool(true)])
            .filter(|v| value_in_type(&spec.defs, *ty, v))
            .collect();
        out = out
            .into_iter()
            .flat_map(|w| {
                dom.iter().map(move |v| {
                    let mut w = w.clone();
                    w.push(v.clone());
                    w
                })
            })
            .collect();
    }
    out
}

/// The visible labels enabled in the tracker's states (name → (gate, values, input)) and
/// whether δ is.
#[allow(clippy::type_complexity)]
fn symbolic_out(t: &mut SymbolicSpec) -> (BTreeMap<String, (String, Vec<Value>, bool)>, bool) {
    let mut out = BTreeMap::new();
    let mut quiet = false;
    for q in t.states().to_vec() {
        for m in t.sys.moves(&q.locs).iter() {
            let Some(g) = m.gate else { continue };
            let gate = &t.sys.gates()[g as usize];
            let types: Vec<Type> = gate.params.iter().map(|p| p.1).collect();
            for w in vectors(&t.sys.spec, &types) {
                if t.sys.enabled(&q, m, &w) == Ok(true) {
                    let input = gate.dir == ioco_lang::ir::Direction::Input;
                    let name = t.sys.label(&gate.name, &w, "");
                    out.insert(name, (gate.name.clone(), w, input));
                }
            }
        }
        if t.quiescence(&q) == Quiescence::Quiescent {
            quiet = true;
        }
    }
    (out, quiet)
}

type ExState = ioco_lang::semantics::State;

fn closure(sem: &Composed<'_>, start: Vec<ExState>) -> BTreeSet<Vec<Value>> {
    let mut seen: BTreeSet<Vec<Value>> = BTreeSet::new();
    let mut stack = start;
    while let Some(s) = stack.pop() {
        if !seen.insert(s.to_vec()) {
            continue;
        }
        for (l, t) in sem.successors(&s).unwrap() {
            if l == Label::TAU {
                stack.push(t);
            }
        }
    }
    seen
}

fn explicit_out(sem: &Composed<'_>, states: &BTreeSet<Vec<Value>>) -> (BTreeSet<String>, bool) {
    let mut out = BTreeSet::new();
    let mut quiet = false;
    for s in states {
        let succ = sem.successors(&s.clone().into()).unwrap();
        let a = sem.alphabet();
        let mut active = false;
        for (l, _) in &succ {
            if *l == Label::TAU {
                active = true;
                continue;
            }
            if !a.is_input(*l) {
                active = true;
            }
            out.insert(a.name(*l).to_string());
        }
        quiet |= !active;
    }
    (out, quiet)
}

fn switches() -> impl Strategy<Value = Vec<(u8, usize, usize, u8)>> {
    prop::collection::vec((0u8..3, 0..TEMPLATES.len(), 0..GUARDS.len(), 0u8..3), 1..6)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// On random models of two processes (interleaved or synchronised on some gates) with
    /// multi-actions, τ and nondeterminism, and `@sync` sets, both engines enable the same labels (with the same names: `a(1)|b(0)`) and agree
    /// on δ after every step of a random trace through them.
    #[test]
    fn both_engines_enable_the_same_multi_labels(
        p in switches(),
        q in switches(),
        sync in prop::sample::select(vec!["a | b", "a | b, c | d", "c | d"]),
        par in prop::sample::select(vec!["|||", "|[a]|", "|[b, c]|", "||"]),
        picks in prop::collection::vec(0usize..1000, 8),
    ) {
        let src = system(&p, &q, sync, par);
        let spec = spec_of(&src, Some("S"));
        let sem = Composed::new(&spec, 10_000);
        let mut t = SymbolicSpec::with_z3(spec.clone()).unwrap();
        let mut ex = closure(&sem, sem.initial());
        for (k, pick) in picks.into_iter().enumerate() {
            let (sym, sym_quiet) = symbolic_out(&mut t);
            let (exp, exp_quiet) = explicit_out(&sem, &ex);
            let names: BTreeSet<String> = sym.keys().cloned().collect();
            prop_assert_eq!(&names, &exp, "step {}\n{}", k, src);
            prop_assert_eq!(sym_quiet, exp_quiet, "δ at step {}\n{}", k, src);
            let n = names.len() + usize::from(sym_quiet);
            if n == 0 {
                break;
            }
            let i = pick % n;
            if i == names.len() {
                prop_assert_eq!(t.after_quiescence(), Step::Ok);
                ex.retain(|s| explicit_out(&sem, &BTreeSet::from([s.clone()])).1);
                continue;
            }
            let name = names.iter().nth(i).unwrap().clone();
            let (gate, w, input) = sym[&name].clone();
            let r = if input { t.after_input(&gate, &w) } else { t.after_output(&gate, &w) };
            prop_assert_eq!(r, Step::Ok, "{} at step {}\n{}", name, k, src);
            let a = sem.alphabet();
            let mut next = Vec::new();
            for s in &ex {
                for (l, s2) in sem.successors(&s.clone().into()).unwrap() {
                    if l != Label::TAU && a.name(l) == name {
                        next.push(s2);
                    }
                }
            }
            ex = closure(&sem, next);
        }
    }
}
