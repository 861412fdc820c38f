//! Concrete semantics of a [`Spec`] (thesis Def. 4.5–4.8: `⟦S⟧`, semantic states `(l, ϑ)`,
//! `enab`, `succ`), composed on the fly (tutorial Def. 4.5 hiding, Def. 4.6 parallel
//! composition), for models whose gate parameters range over finite types.
//!
//! [`Semantics`] is the small interface an explorer or an online tester needs: an initial
//! state and the labelled successors of a state. [`Composed`] implements it for any spec,
//! without building the product: a composition with 10^6 reachable states can be tested online
//! by asking only for the states visited.
//!
//! ## Labels
//! A gate value `(λ, w̄)` becomes the label `λ` when λ has no parameters and `λ(w1,w2,...)`
//! otherwise, values written as in [`crate::ir::Value::display`]: `coffee(100)`, `enq(-1)`,
//! `flag(true)`, `act(Plus(1,2))`, `color(Red)` — no spaces. The direction is that of the gate in
//! the spec's interface.
//!
//! ## Choosing parameter values
//! For each switch parameter in order: if the guard has a conjunct `p == e` (or `e == p`) where
//! `e` reads no later parameter (this is what `gate!(=e)` produces), the value is computed;
//! otherwise every value of the parameter's type is tried, which requires a finite type (`bool`,
//! `int[lo..hi]`, enumerations, non-recursive data types over finite types). Assigning a value
//! outside a variable's range, integer overflow and reading the wrong constructor's field are
//! errors ([`SemError`]) with the switch's location, never silently skipped.

use crate::ast::BinOp;
use crate::ir::{Composition, Defs, Direction, Env, Expr, ExprKind, Spec, Type, Value};
use crate::span::Span;
use crate::Diagnostic;
use ioco_model::{Alphabet, Label, LabelKind};
use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;
use std::hash::Hash;
use std::sync::Arc;

/// An LTS given by its successor function.
pub trait Semantics {
    /// A state.
    type State: Clone + Eq + Hash;
    /// The initial states.
    fn initial(&self) -> Vec<Self::State>;
    /// The outgoing transitions of a state (τ is [`Label::TAU`]).
    fn successors(&self, s: &Self::State) -> Result<Vec<(Label, Self::State)>, SemError>;
    /// The labels (gate values) known so far. Gates whose parameter values cannot be enumerated
    /// in advance add their labels as they are discovered.
    fn alphabet(&self) -> Alphabet;
    /// A readable name of a state.
    fn describe(&self, s: &Self::State) -> String;
}

/// An error of the concrete semantics (infinite domain, overflow, range violation, ...).
#[derive(Clone, Debug, PartialEq)]
pub struct SemError {
    /// What went wrong.
    pub message: String,
    /// Where (a switch, a gate or an expression).
    pub span: Span,
    /// How to fix it.
    pub help: Option<String>,
}

impl SemError {
    /// As a diagnostic (attach it to the sources to render it).
    pub fn into_diagnostic(self) -> Diagnostic {
        Diagnostic::error("ioco::semantics", self.message, self.span, "here").maybe_help(self.help)
    }
}

/// A state of a composition, flat: for each automaton in [`Spec::automata`] order, its
/// location (as `Value::Int`) followed by its variables' values.
pub type State = Box<[Value]>;

/// One move of a subtree: its action and the slots of the state it writes.
type Move = (Act, Vec<(u32, Value)>);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Act {
    Tau,
    Vis(u32, Vec<Value>),
}

enum Node {
    Leaf(usize, Vec<u32>),
    Par(Vec<u32>, Box<Node>, Box<Node>),
    Hide(Vec<u32>, Box<Node>),
    Rename(HashMap<u32, u32>, Box<Node>),
}

/// How a switch parameter gets its values.
enum Plan {
    Compute(Expr),
    Enumerate(Arc<[Value]>),
    Infinite(String),
}

type LabelTable = (Alphabet, HashMap<u32, HashMap<Vec<Value>, Label>>);

/// The on-the-fly semantics of a spec (see the module documentation).
pub struct Composed<'a> {
    spec: &'a Spec,
    root: Node,
    names: Vec<String>,
    /// per automaton: switches by location; per switch: parameter plans
    by_loc: Vec<Vec<Vec<usize>>>,
    plans: Vec<Vec<Vec<Plan>>>,
    root_gates: HashMap<u32, (usize, Direction)>,
    labels: RefCell<LabelTable>,
    limit: usize,
    /// start of each automaton's slots in a [`State`]
    offsets: Vec<usize>,
}

fn intern(names: &mut Vec<String>, index: &mut HashMap<String, u32>, n: &str) -> u32 {
    if let Some(i) = index.get(n) {
        return *i;
    }
    names.push(n.to_string());
    index.insert(n.to_string(), (names.len() - 1) as u32);
    (names.len() - 1) as u32
}

/// Label name of a gate value.
pub fn label_name(defs: &Defs, gate: &str, values: &[Value]) -> String {
    if values.is_empty() {
        return gate.to_string();
    }
    let vals: Vec<String> = values.iter().map(|v| v.display(defs).to_string()).collect();
    format!("{}({})", gate, vals.join(","))
}

fn cartesian(domains: &[Vec<Value>], limit: usize) -> Option<Vec<Vec<Value>>> {
    let mut out: Vec<Vec<Value>> = vec![Vec::new()];
    for d in domains {
        if out.len().saturating_mul(d.len()) > limit {
            return None;
        }
        out = out
            .iter()
            .flat_map(|t| {
                d.iter().map(move |v| {
                    let mut t = t.clone();
                    t.push(v.clone());
                    t
                })
            })
            .collect();
    }
    Some(out)
}

fn reads_params_from(e: &Expr, from: u32) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        if let ExprKind::Param(j) = x.kind {
            if j >= from {
                found = true;
            }
        }
    });
    found
}

impl<'a> Composed<'a> {
    /// Prepares the semantics. `limit` bounds the number of values enumerated for one gate or
    /// one switch (default in [`crate::translate::Options`]). Gate labels of finite types are
    /// interned at once, in the order of the interface, so label numbers are stable.
    pub fn new(spec: &'a Spec, limit: usize) -> Composed<'a> {
        let mut names = Vec::new();
        let mut index = HashMap::default();
        fn build(
            c: &Composition,
            spec: &Spec,
            names: &mut Vec<String>,
            index: &mut HashMap<String, u32>,
        ) -> Node {
            match c {
                Composition::Leaf(i) => {
                    let a = &spec.automata[*i as usize];
                    Node::Leaf(
                        *i as usize,
                        a.gates
                            .iter()
                            .map(|g| intern(names, index, &g.name))
                            .collect(),
                    )
                }
                Composition::Par { sync, left, right } => {
                    let mut s: Vec<u32> = sync.iter().map(|n| intern(names, index, n)).collect();
                    s.sort_unstable();
                    Node::Par(
                        s,
                        Box::new(build(left, spec, names, index)),
                        Box::new(build(right, spec, names, index)),
                    )
                }
                Composition::Hide { gates, body } => {
                    let mut s: Vec<u32> = gates.iter().map(|n| intern(names, index, n)).collect();
                    s.sort_unstable();
                    Node::Hide(s, Box::new(build(body, spec, names, index)))
                }
                Composition::Rename { map, body } => {
                    let m = map
                        .iter()
                        .map(|(a, b)| (intern(names, index, a), intern(names, index, b)))
                        .collect();
                    Node::Rename(m, Box::new(build(body, spec, names, index)))
                }
            }
        }
        let root = build(&spec.root, spec, &mut names, &mut index);
        let defs = &spec.defs;
        let mut by_loc = Vec::new();
        let mut plans = Vec::new();
        for a in &spec.automata {
            let mut bl = vec![Vec::new(); a.locations.len()];
            let mut ps = Vec::new();
            for (si, s) in a.switches.iter().enumerate() {
                bl[s.from as usize].push(si);
                let conj = s.guard.conjuncts();
                let mut plan = Vec::new();
                for (pi, (pn, pt)) in s.params.iter().enumerate() {
                    let pi = pi as u32;
                    let eq = conj.iter().find_map(|c| match &c.kind {
                        ExprKind::Binary(BinOp::Eq, l, r) => {
                            if matches!(l.kind, ExprKind::Param(j) if j == pi)
                                && !reads_params_from(r, pi)
                            {
                                Some((**r).clone())
                            } else if matches!(r.kind, ExprKind::Param(j) if j == pi)
                                && !reads_params_from(l, pi)
                            {
                                Some((**l).clone())
                            } else {
                                None
                            }
                        }
                        _ => None,
                    });
                    plan.push(match eq {
                        Some(e) => Plan::Compute(e),
                        None => match defs.enumerate(*pt, limit) {
                            Ok(v) => Plan::Enumerate(v.into()),
                            Err(why) => Plan::Infinite(format!(
                                "parameter `{}`: {}",
                                pn.split('#').next().unwrap_or(pn),
                                why
                            )),
                        },
                    });
                }
                ps.push(plan);
            }
            by_loc.push(bl);
            plans.push(ps);
        }
        // root interface and eager labels
        let mut alphabet = Alphabet::new();
        let mut map: HashMap<u32, HashMap<Vec<Value>, Label>> = HashMap::default();
        let mut root_gates = HashMap::default();
        for (gi, g) in spec.gates.iter().enumerate() {
            let id = intern(&mut names, &mut index, &g.name);
            root_gates.insert(id, (gi, g.dir));
            let kind = if g.dir == Direction::Input {
                LabelKind::Input
            } else {
                LabelKind::Output
            };
            let domains: Result<Vec<Vec<Value>>, String> = g
                .params
                .iter()
                .map(|(_, t)| defs.enumerate(*t, limit))
                .collect();
            if let Some(tuples) = domains.ok().and_then(|d| cartesian(&d, limit)) {
                for t in tuples {
                    let name = label_name(defs, &g.name, &t);
                    if let Ok(l) = alphabet.intern(&name, kind) {
                        map.entry(id).or_default().insert(t, l);
                    }
                }
            }
        }
        let mut offsets = Vec::new();
        let mut off = 0;
        for a in &spec.automata {
            offsets.push(off);
            off += 1 + a.vars.len();
        }
        Composed {
            offsets,
            spec,
            root,
            names,
            by_loc,
            plans,
            root_gates,
            labels: RefCell::new((alphabet, map)),
            limit,
        }
    }

    /// The spec.
    pub fn spec(&self) -> &Spec {
        self.spec
    }

    fn leaf_succ(
        &self,
        ai: usize,
        st: &[Value],
        gate_names: &[u32],
        out: &mut Vec<Move>,
    ) -> Result<(), SemError> {
        let a = &self.spec.automata[ai];
        let defs = &*self.spec.defs;
        let loc = st[0].as_int().unwrap_or(0) as usize;
        let vars = &st[1..];
        let base = self.offsets[ai] as u32;
        for &si in &self.by_loc[ai][loc] {
            let sw = &a.switches[si];
            let plan = &self.plans[ai][si];
            // enumerate parameter tuples incrementally
            let mut tuples: Vec<Vec<Value>> = vec![Vec::new()];
            for (pi, p) in plan.iter().enumerate() {
                let mut next = Vec::new();
                for t in &tuples {
                    match p {
                        Plan::Compute(e) => {
                            let env = Env {
                                vars,
                                params: t,
                                locals: &[],
                            };
                            let v = defs.eval(e, &env).map_err(|e| SemError {
                                message: e.message,
                                span: e.span,
                                help: None,
                            })?;
                            if defs.contains(sw.params[pi].1, &v) {
                                let mut t2 = t.clone();
                                t2.push(v);
                                next.push(t2);
                            }
                        }
                        Plan::Enumerate(vals) => {
                            if next.len() + vals.len() * tuples.len() > self.limit {
                                return Err(SemError {
                                    message: format!("switch has more than {} combinations of parameter values", self.limit),
                                    span: sw.span,
                                    help: Some("narrow the parameter types (e.g. `int[0..10]`) or pin values with `=expr`".into()),
                                });
                            }
                            for v in vals.iter() {
                                let mut t2 = t.clone();
                                t2.push(v.clone());
                                next.push(t2);
                            }
                        }
                        Plan::Infinite(why) => {
                            return Err(SemError {
                                message: format!("cannot enumerate the values of {}", why),
                                span: sw.span,
                                help: Some("the translation to an LTS needs finite parameter types: use a range such as `int[0..200]`, pin the value with `gate!(=expr)` or a guard `p == expr`, or test with the symbolic engine".into()),
                            });
                        }
                    }
                }
                tuples = next;
            }
            for t in tuples {
                let env = Env {
                    vars,
                    params: &t,
                    locals: &[],
                };
                let ok = defs.eval(&sw.guard, &env).map_err(|e| SemError {
                    message: e.message,
                    span: e.span,
                    help: None,
                })?;
                if ok != Value::Bool(true) {
                    continue;
                }
                let mut writes = Vec::with_capacity(1 + sw.assign.len());
                writes.push((base, Value::Int(sw.to as i64)));
                for (vi, e) in &sw.assign {
                    let v = defs.eval(e, &env).map_err(|e| SemError {
                        message: e.message,
                        span: e.span,
                        help: None,
                    })?;
                    let var = &a.vars[*vi as usize];
                    if !defs.contains(var.ty, &v) {
                        return Err(SemError {
                            message: format!(
                                "value {} assigned to `{}` is outside `{}`",
                                v.display(defs),
                                var.name,
                                defs.type_name(var.ty)
                            ),
                            span: e.span,
                            help: Some("strengthen the guard so the assignment stays in range, or widen the variable's type".into()),
                        });
                    }
                    writes.push((base + 1 + *vi, v));
                }
                let act = match sw.gate {
                    None => Act::Tau,
                    Some(g) => Act::Vis(gate_names[g as usize], t),
                };
                out.push((act, writes));
            }
        }
        Ok(())
    }

    fn node_succ(&self, n: &Node, st: &[Value], out: &mut Vec<Move>) -> Result<(), SemError> {
        match n {
            Node::Leaf(ai, gn) => {
                let off = self.offsets[*ai];
                let len = 1 + self.spec.automata[*ai].vars.len();
                self.leaf_succ(*ai, &st[off..off + len], gn, out)
            }
            Node::Hide(h, b) => {
                let from = out.len();
                self.node_succ(b, st, out)?;
                for (a, _) in &mut out[from..] {
                    if let Act::Vis(g, _) = a {
                        if h.binary_search(g).is_ok() {
                            *a = Act::Tau;
                        }
                    }
                }
                Ok(())
            }
            Node::Rename(m, b) => {
                let from = out.len();
                self.node_succ(b, st, out)?;
                for (a, _) in &mut out[from..] {
                    if let Act::Vis(g, _) = a {
                        if let Some(n) = m.get(g) {
                            *g = *n;
                        }
                    }
                }
                Ok(())
            }
            Node::Par(sync, l, r) => {
                let synced = |a: &Act| matches!(a, Act::Vis(g, _) if sync.binary_search(g).is_ok());
                if sync.is_empty() {
                    self.node_succ(l, st, out)?;
                    return self.node_succ(r, st, out);
                }
                let mut ls = Vec::new();
                self.node_succ(l, st, &mut ls)?;
                let mut rs = Vec::new();
                self.node_succ(r, st, &mut rs)?;
                let (lsync, lfree): (Vec<Move>, Vec<Move>) =
                    ls.into_iter().partition(|(a, _)| synced(a));
                let (rsync, rfree): (Vec<Move>, Vec<Move>) =
                    rs.into_iter().partition(|(a, _)| synced(a));
                out.extend(lfree);
                out.extend(rfree);
                for (a, lw) in &lsync {
                    for (b, rw) in &rsync {
                        if a == b {
                            let mut w = lw.clone();
                            w.extend(rw.iter().cloned());
                            out.push((a.clone(), w));
                        }
                    }
                }
                Ok(())
            }
        }
    }

    fn label_of(&self, act: &Act) -> Result<Label, SemError> {
        match act {
            Act::Tau => Ok(Label::TAU),
            Act::Vis(g, vals) => {
                if let Some(l) = self
                    .labels
                    .borrow()
                    .1
                    .get(g)
                    .and_then(|m| m.get(vals.as_slice()))
                {
                    return Ok(*l);
                }
                let mut lab = self.labels.borrow_mut();
                let (gi, dir) = self.root_gates.get(g).copied().ok_or_else(|| SemError {
                    message: format!("gate `{}` is not in the interface", self.names[*g as usize]),
                    span: Span::default(),
                    help: None,
                })?;
                let name = label_name(&self.spec.defs, &self.spec.gates[gi].name, vals);
                let kind = if dir == Direction::Input {
                    LabelKind::Input
                } else {
                    LabelKind::Output
                };
                let l = lab.0.intern(&name, kind).map_err(|e| SemError {
                    message: e.to_string(),
                    span: self.spec.gates[gi].span,
                    help: None,
                })?;
                lab.1.entry(*g).or_default().insert(vals.clone(), l);
                Ok(l)
            }
        }
    }

    fn leaf_name(&self, ai: usize, s: &[Value]) -> String {
        let a = &self.spec.automata[ai];
        let loc = s[0].as_int().unwrap_or(0) as usize;
        let mut n = a.locations[loc].name.clone();
        if !a.vars.is_empty() {
            let vs: Vec<String> = a
                .vars
                .iter()
                .zip(s[1..].iter())
                .map(|(v, x)| format!("{}={}", v.name, x.display(&self.spec.defs)))
                .collect();
            n.push('{');
            n.push_str(&vs.join(","));
            n.push('}');
        }
        n
    }

    /// The type of a parameter, for tools that want to know (e.g. the symbolic engine).
    pub fn param_type(&self, automaton: usize, switch: usize, param: usize) -> Type {
        self.spec.automata[automaton].switches[switch].params[param].1
    }
}

impl Semantics for Composed<'_> {
    type State = State;

    fn initial(&self) -> Vec<State> {
        let mut st = Vec::new();
        for a in &self.spec.automata {
            st.push(Value::Int(a.initial as i64));
            st.extend(a.vars.iter().map(|v| v.init.clone()));
        }
        vec![st.into()]
    }

    fn successors(&self, s: &State) -> Result<Vec<(Label, State)>, SemError> {
        let mut moves = Vec::new();
        self.node_succ(&self.root, s, &mut moves)?;
        let mut out = Vec::with_capacity(moves.len());
        for (act, writes) in moves {
            let l = self.label_of(&act)?;
            let mut t = s.clone();
            for (i, v) in writes {
                t[i as usize] = v;
            }
            out.push((l, t));
        }
        Ok(out)
    }

    fn alphabet(&self) -> Alphabet {
        self.labels.borrow().0.clone()
    }

    fn describe(&self, s: &State) -> String {
        let part = |i: usize| {
            let off = self.offsets[i];
            let len = 1 + self.spec.automata[i].vars.len();
            self.leaf_name(i, &s[off..off + len])
        };
        if self.offsets.len() == 1 {
            return part(0);
        }
        let parts: Vec<String> = (0..self.offsets.len()).map(part).collect();
        format!("({})", parts.join(","))
    }
}
