//! Soundness with data-typed gate parameters: on small random `.ioco` specifications whose
//! input carries a value of an algebraic data type and an integer (`act(o: Op, n: int)`), with
//! guards that test constructors and read fields (`o is A && o.a >= 1`, atoms the linear
//! abstraction cannot express and must over-approximate by `true`), and a purpose that picks
//! a constructor, concrete enumeration over bounded values shows, for every domain, that
//! * every concrete state from which accept is reachable (within the explored depth) is in
//!   `coreach^α`, and
//! * the strengthened guard never excludes a concrete step into such a state;
//!
//! and that every input the solver-backed online choice proposes is a step of exactly that
//! product transition, inside its strengthened guard.

use ioco_lang::ir::Value;
use ioco_stg::online::Steering;
use ioco_stg::{analyse, Domain, Interval, Octagon, Polyhedra, TestGraph};
use ioco_symbolic::pick::{Picker, Strategy as PickStrategy};
use ioco_symbolic::{Checker, Z3Solver};
use proptest::prelude::*;
use rand::SeedableRng;
use std::collections::HashMap;
use std::sync::Arc;

const TYPES: &str = "type Op = A { a: int } | B { b: int }\n";
const DEPTH: usize = 4;

fn guard() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("true".to_string()),
        Just("o is A".to_string()),
        Just("o is B".to_string()),
        (-2i64..=2).prop_map(|c| format!("o is A && o.a >= {c}")),
        (-2i64..=2).prop_map(|c| format!("o is B && o.b <= {c}")),
        (-2i64..=2).prop_map(|c| format!("n >= {c}")),
        (-2i64..=2).prop_map(|c| format!("x < {c}")),
        (-2i64..=2).prop_map(|c| format!("!(o is A) && n < {c}")),
    ]
}

fn update() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        (-1i64..=1).prop_map(|k| format!("{{ x = x + {k} }}")),
        Just("{ x = n }".to_string()),
        Just("{ x = x + n }".to_string()),
    ]
}

fn switch() -> impl Strategy<Value = String> {
    (
        0usize..3,
        0usize..3,
        prop::bool::weighted(0.7),
        guard(),
        update(),
        (-2i64..=2),
    )
        .prop_map(|(f, t, input, g, u, c)| {
            if input {
                format!("  l{f} -- act?(o, n) [{g}] {u} --> l{t}\n")
            } else {
                format!("  l{f} -- ok! [x >= {c}] --> l{t}\n")
            }
        })
}

fn spec() -> impl Strategy<Value = String> {
    prop::collection::vec(switch(), 1..6).prop_map(|sw| {
        format!(
            "{TYPES}model S {{\n  input act(o: Op, n: int)\n  output ok\n  var x: int = 0\n  \
             init l0\n{}}}\n",
            sw.concat()
        )
    })
}

fn purpose() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("o is A"),
        Just("o is B"),
        Just("true"),
        Just("o is A && o.a == n")
    ]
    .prop_map(|g| {
        format!(
            "{TYPES}model P {{\n  input act(o: Op, n: int)\n  output ok\n  init w\n  \
             w -- act?(o, n) [{g}] --> v\n  v -- ok! --> accept\n}}\n"
        )
    })
}

/// The bounded concrete events: every `act(o, n)` with small values, and `ok`.
fn events(defs: &ioco_lang::ir::Defs) -> Vec<(&'static str, Vec<Value>)> {
    let op = defs.types.iter().position(|t| t.name == "Op").unwrap() as u32;
    let mut out = vec![("ok", Vec::new())];
    for c in 0..2u32 {
        for v in [-2i64, 0, 2] {
            for n in [-2i64, 0, 2] {
                let o = Value::Adt(op, c, Arc::from(vec![Value::Int(v)]));
                out.push(("act", vec![o, Value::Int(n)]));
            }
        }
    }
    out
}

type Event = (&'static str, Vec<Value>);

/// A steering at the end of `path` (`None`: a step of it is ambiguous or fails).
fn replay<'a, D: Domain>(
    g: &'a TestGraph<D>,
    s: &'a ioco_lang::Model,
    p: &'a ioco_lang::Model,
    path: &[(usize, Vec<Value>)],
) -> Steering<'a, D> {
    let mut st = Steering::new(g, s, p).unwrap();
    for (t, args) in path {
        st.fire(*t, args).unwrap();
    }
    st
}

fn check<D: Domain>(s: &ioco_lang::Model, p: &ioco_lang::Model) -> Result<(), TestCaseError> {
    let g = match analyse::<D>(s, p) {
        Ok(g) => g,
        // the analysis says accept is unreachable: then no concrete run may reach it
        Err(_) => {
            let g = analyse_unchecked::<D>(s, p);
            let explored = explore(&g, s, p)?;
            prop_assert!(
                explored.iter().all(|n| !n.accept),
                "{}: the purpose was declared impossible but accept is reachable",
                D::NAME
            );
            return Ok(());
        }
    };
    let nodes = explore(&g, s, p)?;
    // good: accept reachable in the explored graph
    let mut good: Vec<bool> = nodes.iter().map(|n| n.accept).collect();
    loop {
        let mut changed = false;
        for (i, n) in nodes.iter().enumerate() {
            if !good[i] && n.edges.iter().any(|e| good[e.2]) {
                good[i] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for (i, n) in nodes.iter().enumerate() {
        if !good[i] {
            continue;
        }
        let st = replay(&g, s, p, &n.path);
        prop_assert!(
            st.may_accept(),
            "{}: {} can reach accept but is outside coreach",
            D::NAME,
            st.location()
        );
        for (t, args, j) in &n.edges {
            if good[*j] {
                prop_assert!(
                    st.stays_inside(*t, args),
                    "{}: the strengthened guard of {} excludes a step towards accept ({:?})",
                    D::NAME,
                    st.location(),
                    args
                );
            }
        }
    }
    // the solver-backed choice at the initial state proposes only legal steps
    let defs = s.entry().unwrap().defs.clone();
    let mut checker = Checker::new(Box::new(Z3Solver::new(defs)));
    let mut picker = Picker::new(PickStrategy::Mixed);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let st = Steering::new(&g, s, p).unwrap();
    if let Some((t, gate, args)) = st.choose_input_with(&mut checker, &mut picker, &mut rng) {
        prop_assert_eq!(st.matching(&gate, &args), vec![t]);
        prop_assert!(st.stays_inside(t, &args));
    }
    Ok(())
}

/// The product graph even when the purpose is judged impossible (to cross-check that).
fn analyse_unchecked<D: Domain>(s: &ioco_lang::Model, p: &ioco_lang::Model) -> TestGraph<D> {
    let product = ioco_stg::Product::new(s, p).unwrap();
    let n = product.transitions.len();
    let co = ioco_stg::coreach::coreach::<D>(&product, &ioco_stg::Options::default());
    TestGraph {
        kept: vec![Vec::new(); n],
        unreachable: vec![false; n],
        reach: None,
        coreach: co,
        product,
    }
}

struct Node {
    path: Vec<(usize, Vec<Value>)>,
    accept: bool,
    /// (product transition, arguments, target node)
    edges: Vec<(usize, Vec<Value>, usize)>,
}

/// The concrete steps of `gate(args)` at the steering's state, by the exact semantics of the
/// two models (not by the product): (specification switch, purpose switch or `None` for the
/// purpose's completion).
fn concrete_steps<D: Domain>(
    st: &Steering<'_, D>,
    g: &TestGraph<D>,
    s: &ioco_lang::Model,
    p: &ioco_lang::Model,
    gate: &str,
    args: &[Value],
) -> Vec<(usize, Option<usize>)> {
    let (sa, pa) = (s.entry().unwrap(), p.entry().unwrap());
    let (a, b) = (sa.as_single().unwrap(), pa.as_single().unwrap());
    let loc = g.product.location(st.location()).unwrap();
    let (sl, pl) = (
        g.product.locations[loc].spec,
        g.product.locations[loc].purpose,
    );
    let (avals, bvals) = st.values();
    let holds = |e, vars: &[Value]| {
        let env = ioco_lang::ir::Env {
            vars,
            params: args,
            locals: &[],
        };
        sa.defs.eval(e, &env).ok().and_then(|v| v.as_bool()) == Some(true)
    };
    let on = |aut: &ioco_lang::ir::Automaton, sw: &ioco_lang::ir::Switch, from: u32| {
        sw.from == from && sw.gate.is_some_and(|h| aut.gates[h as usize].name == gate)
    };
    let specs: Vec<usize> = (0..a.switches.len())
        .filter(|&k| on(a, &a.switches[k], sl) && holds(&a.switches[k].guard, avals))
        .collect();
    let mut purposes: Vec<Option<usize>> = (0..b.switches.len())
        .filter(|&k| on(b, &b.switches[k], pl) && holds(&b.switches[k].guard, bvals))
        .map(Some)
        .collect();
    if purposes.is_empty() {
        purposes.push(None);
    }
    let mut out = Vec::new();
    for &k in &specs {
        for &pk in &purposes {
            out.push((k, pk));
        }
    }
    out
}

/// Concrete states reachable within [`DEPTH`] steps, by a breadth-first search keyed by
/// location and variable values; every concrete step must be a transition of the product.
fn explore<D: Domain>(
    g: &TestGraph<D>,
    s: &ioco_lang::Model,
    p: &ioco_lang::Model,
) -> Result<Vec<Node>, TestCaseError> {
    let evs: Vec<Event> = events(&s.entry().unwrap().defs);
    let mut nodes: Vec<Node> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let st = Steering::new(g, s, p).unwrap();
    index.insert(st.key(), 0);
    nodes.push(Node {
        path: Vec::new(),
        accept: st.accepted(),
        edges: Vec::new(),
    });
    let mut frontier = vec![0];
    for _ in 0..DEPTH {
        let mut next = Vec::new();
        for i in frontier {
            if nodes[i].accept {
                continue;
            }
            let path = nodes[i].path.clone();
            let here = replay(g, s, p, &path);
            let loc = g.product.location(here.location()).unwrap();
            for (gate, args) in &evs {
                for (k, pk) in concrete_steps(&here, g, s, p, gate, args) {
                    let t = (0..g.product.transitions.len()).find(|&t| {
                        let tr = &g.product.transitions[t];
                        tr.from == loc && tr.spec_switch == k && tr.purpose_switch == pk
                    });
                    prop_assert!(
                        t.is_some(),
                        "the product lacks the concrete step {gate}{args:?} at {}",
                        here.location()
                    );
                    let t = t.unwrap();
                    let mut st = replay(g, s, p, &path);
                    if st.fire(t, args).is_err() {
                        continue;
                    }
                    let key = st.key();
                    let j = match index.get(&key) {
                        Some(&j) => j,
                        None => {
                            let mut np = path.clone();
                            np.push((t, args.clone()));
                            nodes.push(Node {
                                path: np,
                                accept: st.accepted(),
                                edges: Vec::new(),
                            });
                            index.insert(key, nodes.len() - 1);
                            next.push(nodes.len() - 1);
                            nodes.len() - 1
                        }
                    };
                    nodes[i].edges.push((t, args.clone(), j));
                }
            }
        }
        frontier = next;
    }
    Ok(nodes)
}

trait Key {
    fn key(&self) -> String;
}

impl<D: Domain> Key for Steering<'_, D> {
    fn key(&self) -> String {
        let (a, b) = self.values();
        format!("{} {a:?} {b:?}", self.location())
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    #[test]
    fn data_typed_parameters_are_over_approximated(s in spec(), p in purpose()) {
        let sm = ioco_lang::parse_str("s.ioco", &s).unwrap();
        let pm = ioco_lang::parse_str("p.ioco", &p).unwrap();
        check::<Interval>(&sm, &pm)?;
        check::<Octagon>(&sm, &pm)?;
        check::<Polyhedra>(&sm, &pm)?;
    }
}

/// The reproduction of the issue: a purpose that asks for a `Plus` operation is met by the
/// solver-backed input choice, never by the integer-only search (which skips data types).
#[test]
fn a_data_typed_input_is_chosen_by_the_solver() {
    let t = "type Operation = Plus { p1: int, p2: int } | Minus { m1: int, m2: int }\n";
    let s = ioco_lang::parse_str(
        "s.ioco",
        &format!(
            "{t}model adder {{ input Action(p1: Operation) output Result(p1: int)
             var opn: Operation = Plus(0, 0) init s0
             s0 -- Action?(o) [o is Plus] {{ opn = o }} --> s1
             s0 -- Action?(o) [o is Minus] {{ opn = o }} --> s2
             s2 -- Result!(=opn.m1 - opn.m2) --> s0
             s1 -- Result!(=opn.p1 + opn.p2) --> s0 }}"
        ),
    )
    .unwrap();
    let p = ioco_lang::parse_str(
        "p.ioco",
        &format!(
            "{t}model P {{ input Action(p1: Operation) output Result(p1: int) init s0
             s0 -- Action?(x) [x is Plus && x.p1 == 4] --> s1
             s1 -- Result!(r) --> accept }}"
        ),
    )
    .unwrap();
    let g = analyse::<Octagon>(&s, &p).unwrap();
    let st = Steering::new(&g, &s, &p).unwrap();
    assert_eq!(st.choose_input(), None);
    let defs = s.entry().unwrap().defs.clone();
    if ioco_z3_available() {
        let mut checker = Checker::new(Box::new(Z3Solver::new(defs)));
        let mut picker = Picker::new(PickStrategy::Mixed);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let (t, gate, args) = st
            .choose_input_with(&mut checker, &mut picker, &mut rng)
            .expect("Action(Plus(4, _)) keeps accept reachable");
        assert_eq!(gate, "Action");
        assert_eq!(
            g.product.locations[g.product.transitions[t].to].name,
            "(s1,s1)"
        );
        let Value::Adt(_, c, fields) = &args[0] else {
            panic!("not an Operation: {args:?}")
        };
        assert_eq!((*c, fields[0].clone()), (0, Value::Int(4)));
    }
}

fn ioco_z3_available() -> bool {
    let ok = ioco_z3_lazy::load().is_ok();
    if !ok {
        eprintln!("note: libz3 is not available; the solver-backed choice is not run");
    }
    ok
}
