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
/// Deepest nesting of constructors in a variable's value while a model is unfolded into an
/// LTS: a list that grows at every step (the pending processes of a process that creates
/// processes) ends the translation with an error before its values exhaust the stack.
pub const MAX_VALUE_DEPTH: usize = 1000;

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

/// The gates (by interned name) and values of a multi-action.
type Parts = Vec<(u32, Vec<Value>)>;

/// One move of a subtree: its action and the slots of the state it writes.
type Move = (Act, Vec<(u32, Value)>);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Act {
    Tau,
    Vis(u32, Vec<Value>),
    /// A multi-action: two or more gates with their values, sorted by gate, each gate once.
    Multi(Vec<(u32, Vec<Value>)>),
}

impl Act {
    fn parts(&self) -> Vec<(u32, Vec<Value>)> {
        match self {
            Act::Tau => Vec::new(),
            Act::Vis(g, v) => vec![(*g, v.clone())],
            Act::Multi(ps) => ps.clone(),
        }
    }

    /// The action made of these parts: sorted, equal parts merged; `None` if a gate occurs
    /// twice with different values.
    fn from_parts(mut ps: Vec<(u32, Vec<Value>)>) -> Option<Act> {
        ps.sort();
        ps.dedup();
        Act::strict(ps)
    }

    /// As [`Act::from_parts`] on sorted parts, but a gate occurring twice is always a conflict
    /// (two components cannot both take the same gate in one step unless synchronised).
    fn strict(mut ps: Vec<(u32, Vec<Value>)>) -> Option<Act> {
        ps.sort();
        if ps.windows(2).any(|w| w[0].0 == w[1].0) {
            return None;
        }
        Some(match ps.len() {
            0 => Act::Tau,
            1 => {
                let (g, v) = ps.pop().unwrap_or_default();
                Act::Vis(g, v)
            }
            _ => Act::Multi(ps),
        })
    }

    fn touches(&self, set: &[u32]) -> bool {
        match self {
            Act::Tau => false,
            Act::Vis(g, _) => set.binary_search(g).is_ok(),
            Act::Multi(ps) => ps.iter().any(|(g, _)| set.binary_search(g).is_ok()),
        }
    }

    /// The parts on gates of `set`.
    fn restrict(&self, set: &[u32]) -> Vec<(u32, Vec<Value>)> {
        let mut p = self.parts();
        p.retain(|(g, _)| set.binary_search(g).is_ok());
        p
    }
}

enum Node {
    Leaf(usize, Vec<u32>),
    /// Synchronised gates, operands, and whether independent steps of the two sides may also
    /// happen together (needed only when an enclosing multi-action may ask for them).
    Par(Vec<u32>, Box<Node>, Box<Node>, bool),
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
    multi_labels: RefCell<HashMap<Parts, Label>>,
    /// `Spec::sync` as sorted gate ids.
    root_sync: Vec<Vec<u32>>,
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
        fn has_multi(c: &Composition, spec: &Spec) -> bool {
            match c {
                Composition::Leaf(i) => spec.automata[*i as usize]
                    .switches
                    .iter()
                    .any(|s| !s.also.is_empty()),
                Composition::Par { left, right, .. } => {
                    has_multi(left, spec) || has_multi(right, spec)
                }
                Composition::Hide { body, .. } | Composition::Rename { body, .. } => {
                    has_multi(body, spec)
                }
            }
        }
        // independent steps of the two sides of a `|[G]|` happen together (TorXakis) only
        // where it can matter: below an operand that has multi-actions, or when the root
        // shows multi-actions
        fn build(
            c: &Composition,
            spec: &Spec,
            names: &mut Vec<String>,
            index: &mut HashMap<String, u32>,
            combine: bool,
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
                    let (ml, mr) = (has_multi(left, spec), has_multi(right, spec));
                    Node::Par(
                        s,
                        Box::new(build(left, spec, names, index, combine || mr)),
                        Box::new(build(right, spec, names, index, combine || ml)),
                        combine,
                    )
                }
                Composition::Hide { gates, body } => {
                    let mut s: Vec<u32> = gates.iter().map(|n| intern(names, index, n)).collect();
                    s.sort_unstable();
                    Node::Hide(s, Box::new(build(body, spec, names, index, combine)))
                }
                Composition::Rename { map, body } => {
                    let m = map
                        .iter()
                        .map(|(a, b)| (intern(names, index, a), intern(names, index, b)))
                        .collect();
                    Node::Rename(m, Box::new(build(body, spec, names, index, combine)))
                }
            }
        }
        let root = build(
            &spec.root,
            spec,
            &mut names,
            &mut index,
            !spec.sync.is_empty(),
        );
        let root_sync = spec
            .sync
            .iter()
            .map(|set| {
                let mut v: Vec<u32> = set
                    .iter()
                    .map(|n| intern(&mut names, &mut index, n))
                    .collect();
                v.sort_unstable();
                v
            })
            .collect();
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
            multi_labels: RefCell::new(HashMap::default()),
            root_sync,
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
                                help: Some(if why.contains("`string") {
                                    "the translation to an LTS needs finite parameter types: give the string a finite regular expression such as `string /[A-C]{1,2}/`, pin the value with `gate!(=expr)` or a guard `p == expr`, or test with the symbolic engine"
                                } else {
                                    "the translation to an LTS needs finite parameter types: use a range such as `int[0..200]`, pin the value with `gate!(=expr)` or a guard `p == expr`, or test with the symbolic engine"
                                }.into()),
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
                    if v.deeper_than(MAX_VALUE_DEPTH) {
                        return Err(SemError {
                            message: format!(
                                "the value assigned to `{}` nests more than {} constructors deep: the data grows without bound",
                                var.name, MAX_VALUE_DEPTH
                            ),
                            span: e.span,
                            help: Some("test the model online with the symbolic engine (`ioco test --engine symbolic`), or bound what it keeps".into()),
                        });
                    }
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
                    Some(g) if sw.also.is_empty() => Act::Vis(gate_names[g as usize], t),
                    Some(g) => {
                        // split the parameter tuple among the gates of the multi-action
                        let mut parts = Vec::with_capacity(1 + sw.also.len());
                        let mut rest = t.as_slice();
                        for gi in std::iter::once(g).chain(sw.also.iter().copied()) {
                            let n = a.gates[gi as usize].params.len().min(rest.len());
                            parts.push((gate_names[gi as usize], rest[..n].to_vec()));
                            rest = &rest[n..];
                        }
                        match Act::strict(parts) {
                            Some(a) => a,
                            None => continue,
                        }
                    }
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
                    match a {
                        Act::Vis(g, _) => {
                            if h.binary_search(g).is_ok() {
                                *a = Act::Tau;
                            }
                        }
                        Act::Multi(ps) => {
                            if ps.iter().any(|(g, _)| h.binary_search(g).is_ok()) {
                                let mut ps = std::mem::take(ps);
                                ps.retain(|(g, _)| h.binary_search(g).is_err());
                                *a = Act::from_parts(ps).unwrap_or(Act::Tau);
                            }
                        }
                        Act::Tau => {}
                    }
                }
                Ok(())
            }
            Node::Rename(m, b) => {
                let from = out.len();
                self.node_succ(b, st, out)?;
                let mut conflict = false;
                for (a, _) in &mut out[from..] {
                    match a {
                        Act::Vis(g, _) => {
                            if let Some(n) = m.get(g) {
                                *g = *n;
                            }
                        }
                        Act::Multi(ps) => {
                            let mut ps = std::mem::take(ps);
                            for (g, _) in &mut ps {
                                if let Some(n) = m.get(g) {
                                    *g = *n;
                                }
                            }
                            // two gates merged by the renaming: one step, if the values agree
                            match Act::from_parts(ps) {
                                Some(x) => *a = x,
                                None => {
                                    *a = Act::Multi(Vec::new());
                                    conflict = true;
                                }
                            }
                        }
                        Act::Tau => {}
                    }
                }
                if conflict {
                    let mut i = from;
                    while i < out.len() {
                        if matches!(&out[i].0, Act::Multi(ps) if ps.is_empty()) {
                            out.remove(i);
                        } else {
                            i += 1;
                        }
                    }
                }
                Ok(())
            }
            Node::Par(sync, l, r, combine) => {
                let synced = |a: &Act| a.touches(sync);
                if sync.is_empty() && !combine {
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
                if *combine {
                    // TorXakis: steps of the two sides outside the synchronisation set may
                    // also happen together, as one multi-action
                    for (a, lw) in lfree.iter().filter(|m| m.0 != Act::Tau) {
                        for (b, rw) in rfree.iter().filter(|m| m.0 != Act::Tau) {
                            let mut ps = a.parts();
                            ps.extend(b.parts());
                            if let Some(x) = Act::strict(ps) {
                                let mut w = lw.clone();
                                w.extend(rw.iter().cloned());
                                out.push((x, w));
                            }
                        }
                    }
                }
                out.extend(lfree);
                out.extend(rfree);
                for (a, lw) in &lsync {
                    for (b, rw) in &rsync {
                        let joint = match (a, b) {
                            (Act::Vis(..), Act::Vis(..)) => (a == b).then(|| a.clone()),
                            // multi-actions: the same synchronised part on both sides
                            _ if a.restrict(sync) == b.restrict(sync) => {
                                let mut ps = a.parts();
                                ps.extend(
                                    b.parts()
                                        .into_iter()
                                        .filter(|(g, _)| sync.binary_search(g).is_err()),
                                );
                                Act::strict(ps)
                            }
                            _ => None,
                        };
                        if let Some(x) = joint {
                            let mut w = lw.clone();
                            w.extend(rw.iter().cloned());
                            out.push((x, w));
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
            Act::Multi(ps) => {
                if let Some(l) = self.multi_labels.borrow().get(ps) {
                    return Ok(*l);
                }
                let mut named = Vec::new();
                let mut dir = Direction::Output;
                for (g, vals) in ps {
                    let (gi, d) = self.root_gates.get(g).copied().ok_or_else(|| SemError {
                        message: format!(
                            "gate `{}` is not in the interface",
                            self.names[*g as usize]
                        ),
                        span: Span::default(),
                        help: None,
                    })?;
                    dir = d;
                    named.push(label_name(&self.spec.defs, &self.spec.gates[gi].name, vals));
                }
                named.sort();
                let kind = if dir == Direction::Input {
                    LabelKind::Input
                } else {
                    LabelKind::Output
                };
                let l = self
                    .labels
                    .borrow_mut()
                    .0
                    .intern(&named.join("|"), kind)
                    .map_err(|e| SemError {
                        message: e.to_string(),
                        span: Span::default(),
                        help: None,
                    })?;
                self.multi_labels.borrow_mut().insert(ps.clone(), l);
                Ok(l)
            }
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
            if let Act::Multi(ps) = &act {
                // the root shows a multi-action only if `@sync` lists its gates
                let gates: Vec<u32> = ps.iter().map(|p| p.0).collect();
                if !self.root_sync.contains(&gates) {
                    continue;
                }
            }
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
