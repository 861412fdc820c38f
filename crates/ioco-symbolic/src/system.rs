//! The switches of a composed STS, flattened on demand: thesis Def. 4.3 for one automaton,
//! tutorial Def. 4.5 (hiding) and 4.6 (parallel composition) for a [`Composition`] tree.
//!
//! A [`Move`] is one step of the whole system: one switch of one automaton, or several
//! switches of different automata synchronised on the same gate (they share the gate's
//! parameter values; their guards are conjoined; each updates its own variables). Its gate is a
//! visible gate of the root ([`Spec::gates`]) or τ (`None`: a `tau` switch or a hidden gate).
//! Moves depend only on the locations, so they are computed once per location vector.
//!
//! Limitation: a hidden gate with parameters would make the hidden values unknowns of the
//! tester's state; [`System::new`] rejects such specs with an error naming the gate.

use crate::term::{instantiate, SymVar, Term, T};
use ioco_lang::ir::{
    Automaton, Composition, Defs, Direction, Env, EvalError, Expr, ExprKind, Spec, Type, Value,
};
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write;
use std::sync::Arc;

/// A switch of the system: (automaton index, switch index).
pub type SwitchId = (u32, u32);

/// One step of the system (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Index into [`Spec::gates`], `None` for τ.
    pub gate: Option<u32>,
    /// The synchronised switches.
    pub parts: Vec<SwitchId>,
}

/// A concrete (semantic) state `(l, ϑ)`: one location and valuation per automaton.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    /// Locations.
    pub locs: Box<[u32]>,
    /// Variable values per automaton.
    pub vars: Box<[Box<[Value]>]>,
}

/// A symbolic state `(l, m, η)` (thesis Def. 4.11) with step-indexed parameters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SymState {
    /// Locations.
    pub locs: Box<[u32]>,
    /// Symbolic valuation per automaton.
    pub vars: Vec<Vec<T>>,
    /// Path condition.
    pub pc: T,
    /// Number of steps taken (the index of the next parameters).
    pub step: usize,
}

enum Node {
    Leaf(usize),
    Par(Vec<String>, Box<Node>, Box<Node>),
    Hide(Vec<String>, Box<Node>),
    Rename(HashMap<String, String>, Box<Node>),
}

type MoveCache = HashMap<Box<[u32]>, Arc<Vec<Move>>>;
type RawMove = (Option<String>, Vec<SwitchId>);

/// A spec prepared for symbolic and concrete stepping.
pub struct System {
    /// The spec.
    pub spec: Arc<Spec>,
    root: Node,
    gate_index: HashMap<String, u32>,
    cache: RefCell<MoveCache>,
}

fn build(c: &Composition) -> Node {
    match c {
        Composition::Leaf(i) => Node::Leaf(*i as usize),
        Composition::Par { sync, left, right } => {
            Node::Par(sync.clone(), Box::new(build(left)), Box::new(build(right)))
        }
        Composition::Hide { gates, body } => Node::Hide(gates.clone(), Box::new(build(body))),
        Composition::Rename { map, body } => {
            Node::Rename(map.iter().cloned().collect(), Box::new(build(body)))
        }
    }
}

impl System {
    /// Prepares a spec. `Err` explains what is not supported.
    pub fn new(spec: Arc<Spec>) -> Result<System, String> {
        let root = build(&spec.root);
        let gate_index = spec
            .gates
            .iter()
            .enumerate()
            .map(|(i, g)| (g.name.clone(), i as u32))
            .collect();
        let sys = System {
            spec,
            root,
            gate_index,
            cache: RefCell::new(HashMap::new()),
        };
        sys.check_hidden(&sys.root)?;
        if let Some(a) = sys
            .spec
            .automata
            .iter()
            .find(|a| a.switches.iter().any(|sw| !sw.also.is_empty()))
        {
            return Err(format!(
                "`{}` has multi-actions (`a? | b?`), which the symbolic engine does not support \
                 (hint: test it with the explicit engine, or write the gates as consecutive switches)",
                a.name
            ));
        }
        if !sys.spec.sync.is_empty() {
            return Err(
                "`@sync` multi-actions are not supported by the symbolic engine \
                        (hint: test the model with the explicit engine)"
                    .into(),
            );
        }
        Ok(sys)
    }

    /// Refuses a hidden gate with parameters, under any renaming: for each automaton below a
    /// `hide`, its gates are compared by the names they have at the `hide` (`A[d -> h]` hides
    /// `d` when `h` is hidden).
    fn check_hidden(&self, n: &Node) -> Result<(), String> {
        match n {
            Node::Leaf(_) => Ok(()),
            Node::Par(_, a, b) => {
                self.check_hidden(a)?;
                self.check_hidden(b)
            }
            Node::Rename(_, b) => self.check_hidden(b),
            Node::Hide(gates, b) => {
                let mut leaves = Vec::new();
                Self::leaves(b, &HashMap::new(), &mut leaves);
                for (i, names) in leaves {
                    let a = &self.spec.automata[i];
                    for sw in &a.switches {
                        let Some(g) = sw.gate else { continue };
                        let local = &a.gates[g as usize].name;
                        let seen = names.get(local).unwrap_or(local);
                        if gates.contains(seen) && !sw.params.is_empty() {
                            return Err(format!(
                                "hidden gate `{seen}` has parameters: the symbolic engine does not \
                                 track hidden data yet (hint: hide only gates without parameters, \
                                 or test the system without hiding)"
                            ));
                        }
                    }
                }
                self.check_hidden(b)
            }
        }
    }

    /// The automata below `n`, each with the names its gates have above `n` (`above` maps the
    /// names at `n` to the names above it; a gate not in the map keeps its name).
    fn leaves(
        n: &Node,
        above: &HashMap<String, String>,
        out: &mut Vec<(usize, HashMap<String, String>)>,
    ) {
        match n {
            Node::Leaf(i) => out.push((*i, above.clone())),
            Node::Par(_, a, b) => {
                Self::leaves(a, above, out);
                Self::leaves(b, above, out);
            }
            Node::Hide(_, b) => Self::leaves(b, above, out),
            Node::Rename(map, b) => {
                // A name below the renaming becomes map[name], then whatever `above` makes of it.
                let mut composed = HashMap::new();
                for (from, to) in map {
                    composed.insert(from.clone(), above.get(to).unwrap_or(to).clone());
                }
                for (from, to) in above {
                    if !map.contains_key(from) {
                        composed.insert(from.clone(), to.clone());
                    }
                }
                Self::leaves(b, &composed, out);
            }
        }
    }

    /// The data definitions.
    pub fn defs(&self) -> &Defs {
        &self.spec.defs
    }

    /// The automaton of a switch.
    pub fn automaton(&self, i: u32) -> &Automaton {
        &self.spec.automata[i as usize]
    }

    /// Root gate index by name.
    pub fn gate(&self, name: &str) -> Option<u32> {
        self.gate_index.get(name).copied()
    }

    /// Direction of a move (`None` for τ).
    pub fn direction(&self, m: &Move) -> Option<Direction> {
        m.gate.map(|g| self.spec.gates[g as usize].dir)
    }

    /// The parameter types of a move.
    pub fn param_types(&self, m: &Move) -> Vec<Type> {
        let (a, s) = m.parts[0];
        self.automaton(a).switches[s as usize]
            .params
            .iter()
            .map(|p| p.1)
            .collect()
    }

    /// Step-indexed parameter variables of a move (`name@step`).
    pub fn param_vars(&self, m: &Move, step: usize) -> Vec<SymVar> {
        let (a, s) = m.parts[0];
        self.automaton(a).switches[s as usize]
            .params
            .iter()
            .map(|(n, ty)| SymVar::at(n, step, *ty))
            .collect()
    }

    /// All switches, in automaton and source order.
    pub fn switches(&self) -> Vec<SwitchId> {
        let mut out = Vec::new();
        for (ai, a) in self.spec.automata.iter().enumerate() {
            for si in 0..a.switches.len() {
                out.push((ai as u32, si as u32));
            }
        }
        out
    }

    /// A readable name of a switch: `Model: from -- gate? --> to`.
    pub fn switch_name(&self, id: SwitchId) -> String {
        let a = self.automaton(id.0);
        let sw = &a.switches[id.1 as usize];
        let gate = match sw.gate {
            None => "tau".to_string(),
            Some(g) => {
                let gate = &a.gates[g as usize];
                let mark = if gate.dir == Direction::Input {
                    "?"
                } else {
                    "!"
                };
                let ps: Vec<&str> = sw.params.iter().map(|p| p.0.as_str()).collect();
                if ps.is_empty() {
                    format!("{}{}", gate.name, mark)
                } else {
                    format!("{}{}({})", gate.name, mark, ps.join(","))
                }
            }
        };
        let guard = if sw.guard.is_true() {
            String::new()
        } else {
            format!(
                " [{}]",
                render_expr(&self.spec.defs, a, &sw.params, &sw.guard)
            )
        };
        format!(
            "{}: {} -- {}{} --> {}",
            a.name,
            a.locations[sw.from as usize].name,
            gate,
            guard,
            a.locations[sw.to as usize].name
        )
    }

    /// The initial concrete state.
    pub fn initial(&self) -> State {
        State {
            locs: self.spec.automata.iter().map(|a| a.initial).collect(),
            vars: self
                .spec
                .automata
                .iter()
                .map(|a| a.vars.iter().map(|v| v.init.clone()).collect())
                .collect(),
        }
    }

    /// The initial symbolic state `(l0, m_ini, true)`.
    pub fn initial_symbolic(&self) -> SymState {
        let s = self.initial();
        SymState {
            locs: s.locs.clone(),
            vars: s
                .vars
                .iter()
                .map(|vs| vs.iter().map(|v| Term::val(v.clone())).collect())
                .collect(),
            pc: Term::bool(true),
            step: 0,
        }
    }

    /// Describes a concrete state: `idle{total=0}`.
    pub fn describe(&self, s: &State) -> String {
        let mut out = String::new();
        for (i, a) in self.spec.automata.iter().enumerate() {
            if i > 0 {
                out.push_str(" | ");
            }
            out.push_str(&a.locations[s.locs[i] as usize].name);
            if !a.vars.is_empty() {
                out.push('{');
                for (j, v) in a.vars.iter().enumerate() {
                    if j > 0 {
                        out.push_str(", ");
                    }
                    let _ = write!(out, "{}={}", v.name, s.vars[i][j].display(&self.spec.defs));
                }
                out.push('}');
            }
        }
        out
    }

    /// The moves from these locations (memoised).
    pub fn moves(&self, locs: &[u32]) -> Arc<Vec<Move>> {
        if let Some(m) = self.cache.borrow().get(locs) {
            return m.clone();
        }
        let raw = self.raw_moves(&self.root, locs);
        let moves: Vec<Move> = raw
            .into_iter()
            .filter_map(|(g, parts)| match g {
                None => Some(Move { gate: None, parts }),
                // a gate not in the root interface cannot happen after checking; skip defensively
                Some(name) => self.gate(&name).map(|gi| Move {
                    gate: Some(gi),
                    parts,
                }),
            })
            .collect();
        let moves = Arc::new(moves);
        self.cache.borrow_mut().insert(locs.into(), moves.clone());
        moves
    }

    fn raw_moves(&self, n: &Node, locs: &[u32]) -> Vec<RawMove> {
        match n {
            Node::Leaf(i) => {
                let a = &self.spec.automata[*i];
                a.switches
                    .iter()
                    .enumerate()
                    .filter(|(_, sw)| sw.from == locs[*i])
                    .map(|(si, sw)| {
                        (
                            sw.gate.map(|g| a.gates[g as usize].name.clone()),
                            vec![(*i as u32, si as u32)],
                        )
                    })
                    .collect()
            }
            Node::Par(sync, l, r) => {
                let left = self.raw_moves(l, locs);
                let right = self.raw_moves(r, locs);
                let synced = |g: &Option<String>| g.as_ref().is_some_and(|g| sync.contains(g));
                let mut out: Vec<RawMove> = Vec::new();
                for m in left.iter().chain(right.iter()) {
                    if !synced(&m.0) {
                        out.push(m.clone());
                    }
                }
                for a in left.iter().filter(|m| synced(&m.0)) {
                    for b in right.iter().filter(|m| m.0 == a.0) {
                        let mut parts = a.1.clone();
                        parts.extend(b.1.iter().copied());
                        out.push((a.0.clone(), parts));
                    }
                }
                out
            }
            Node::Hide(gates, b) => self
                .raw_moves(b, locs)
                .into_iter()
                .map(|(g, p)| (g.filter(|g| !gates.contains(g)), p))
                .collect(),
            Node::Rename(map, b) => self
                .raw_moves(b, locs)
                .into_iter()
                .map(|(g, p)| (g.map(|g| map.get(&g).cloned().unwrap_or(g)), p))
                .collect(),
        }
    }

    /// `enab(q, (λ, w̄), m)`: every synchronised guard holds (concrete evaluation).
    pub fn enabled(&self, q: &State, m: &Move, values: &[Value]) -> Result<bool, EvalError> {
        for &(a, s) in &m.parts {
            let sw = &self.automaton(a).switches[s as usize];
            let env = Env {
                vars: &q.vars[a as usize],
                params: values,
                locals: &[],
            };
            if self.spec.defs.eval(&sw.guard, &env)?.as_bool() != Some(true) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// `succ(q, (λ, w̄), m)`: the simultaneous updates of every part. Storing a value outside a
    /// variable's range is an error.
    pub fn succ(&self, q: &State, m: &Move, values: &[Value]) -> Result<State, EvalError> {
        let mut locs = q.locs.clone();
        let mut vars = q.vars.clone();
        for &(a, s) in &m.parts {
            let aut = self.automaton(a);
            let sw = &aut.switches[s as usize];
            let env = Env {
                vars: &q.vars[a as usize],
                params: values,
                locals: &[],
            };
            let mut new = q.vars[a as usize].to_vec();
            for (v, e) in &sw.assign {
                let val = self.spec.defs.eval(e, &env)?;
                let var = &aut.vars[*v as usize];
                if !self.spec.defs.contains(var.ty, &val) {
                    return Err(EvalError {
                        message: format!(
                            "value {} assigned to `{}` is outside its type {}",
                            val.display(&self.spec.defs),
                            var.name,
                            self.spec.defs.type_name(var.ty)
                        ),
                        span: e.span,
                    });
                }
                new[*v as usize] = val;
            }
            vars[a as usize] = new.into();
            locs[a as usize] = sw.to;
        }
        Ok(State { locs, vars })
    }

    /// The guard of a move instantiated at a concrete state with these parameter terms.
    pub fn guard_at(&self, q: &State, m: &Move, params: &[T]) -> T {
        let mut g = Term::bool(true);
        for &(a, s) in &m.parts {
            let sw = &self.automaton(a).switches[s as usize];
            let vars: Vec<T> = q.vars[a as usize]
                .iter()
                .map(|v| Term::val(v.clone()))
                .collect();
            g = Term::and(g, instantiate(&self.spec.defs, &sw.guard, &vars, params));
        }
        g
    }

    /// The guard of a move over a symbolic state with these parameter terms (`φ[m]`).
    pub fn guard_sym(&self, s: &SymState, m: &Move, params: &[T]) -> T {
        let mut g = Term::bool(true);
        for &(a, si) in &m.parts {
            let sw = &self.automaton(a).switches[si as usize];
            g = Term::and(
                g,
                instantiate(&self.spec.defs, &sw.guard, &s.vars[a as usize], params),
            );
        }
        g
    }

    /// The symbolic successor `succ(s, r)` (thesis Def. 4.12) without the satisfiability check:
    /// the parameters of this step are `name@step`; returns the new state and the guard
    /// instance `φ[m]`.
    pub fn sym_succ(&self, s: &SymState, m: &Move) -> (SymState, T) {
        let params: Vec<T> = self
            .param_vars(m, s.step)
            .into_iter()
            .map(Term::sym)
            .collect();
        let g = self.guard_sym(s, m, &params);
        let mut locs = s.locs.clone();
        let mut vars = s.vars.clone();
        for &(a, si) in &m.parts {
            let sw = &self.automaton(a).switches[si as usize];
            for (v, e) in &sw.assign {
                vars[a as usize][*v as usize] =
                    instantiate(&self.spec.defs, e, &s.vars[a as usize], &params);
            }
            locs[a as usize] = sw.to;
        }
        let pc = Term::and(s.pc.clone(), g.clone());
        (
            SymState {
                locs,
                vars,
                pc,
                step: s.step + 1,
            },
            g,
        )
    }

    /// Parameter values forced by equalities in the guards (`p == e` or `e == p` conjuncts
    /// with `e` free of parameters, which is what `gate!(=e)` produces), evaluated at `q`.
    /// `Some` only when every parameter is forced: then enabledness is a matter of evaluation,
    /// no solver needed.
    pub fn forced_params(&self, q: &State, m: &Move) -> Option<Vec<Value>> {
        let n = self.param_types(m).len();
        let mut out: Vec<Option<Value>> = vec![None; n];
        for &(a, s) in &m.parts {
            let sw = &self.automaton(a).switches[s as usize];
            let env = Env {
                vars: &q.vars[a as usize],
                params: &[],
                locals: &[],
            };
            for c in sw.guard.conjuncts() {
                if let ExprKind::Binary(ioco_lang::ast::BinOp::Eq, x, y) = &c.kind {
                    for (p, e) in [(x, y), (y, x)] {
                        if let ExprKind::Param(j) = p.kind {
                            if out[j as usize].is_none() && !reads_params(e) {
                                if let Ok(v) = self.spec.defs.eval(e, &env) {
                                    out[j as usize] = Some(v);
                                }
                            }
                        }
                    }
                }
            }
        }
        out.into_iter().collect()
    }

    /// Explains why a move is not enabled for these values: the false conjuncts of its guards.
    pub fn explain(&self, q: &State, m: &Move, values: &[Value]) -> String {
        let mut out = Vec::new();
        for &(a, s) in &m.parts {
            let aut = self.automaton(a);
            let sw = &aut.switches[s as usize];
            let env = Env {
                vars: &q.vars[a as usize],
                params: values,
                locals: &[],
            };
            for c in sw.guard.conjuncts() {
                match self.spec.defs.eval(c, &env) {
                    Ok(Value::Bool(true)) => {}
                    Ok(_) => out.push(format!(
                        "`{}` is false",
                        render_expr(&self.spec.defs, aut, &sw.params, c)
                    )),
                    Err(e) => out.push(format!(
                        "`{}` fails: {}",
                        render_expr(&self.spec.defs, aut, &sw.params, c),
                        e.message
                    )),
                }
            }
        }
        out.join(", ")
    }
}

fn reads_params(e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        if matches!(x.kind, ExprKind::Param(_)) {
            found = true;
        }
    });
    found
}

/// Renders an IR expression with the automaton's variable names and the switch's parameter names.
pub fn render_expr(defs: &Defs, a: &Automaton, params: &[(String, Type)], e: &Expr) -> String {
    let r = |x: &Expr| render_expr(defs, a, params, x);
    match &e.kind {
        ExprKind::Const(v) => v.display(defs).to_string(),
        ExprKind::Var(i) => a.vars[*i as usize].name.clone(),
        ExprKind::Param(i) => params
            .get(*i as usize)
            .map(|p| p.0.clone())
            .unwrap_or_else(|| format!("p{}", i)),
        ExprKind::Local(i) => format!("arg{}", i),
        ExprKind::Unary(op, x) => format!(
            "{}{}",
            if matches!(op, ioco_lang::ast::UnOp::Not) {
                "!"
            } else {
                "-"
            },
            r(x)
        ),
        ExprKind::Binary(op, x, y) => format!(
            "{} {} {}",
            paren(defs, a, params, x, *op),
            op.symbol(),
            paren(defs, a, params, y, *op)
        ),
        ExprKind::If(c, x, y) => format!("if {} then {} else {}", r(c), r(x), r(y)),
        ExprKind::Ctor(t, c, xs) => {
            let name = &defs.types[*t as usize].ctors[*c as usize].name;
            if xs.is_empty() {
                name.clone()
            } else {
                let args: Vec<String> = xs.iter().map(r).collect();
                format!("{}({})", name, args.join(", "))
            }
        }
        ExprKind::Field(x, t, c, f) => format!(
            "{}.{}",
            r(x),
            defs.types[*t as usize].ctors[*c as usize].fields[*f as usize].0
        ),
        ExprKind::Is(x, t, c) => format!(
            "{} is {}",
            r(x),
            defs.types[*t as usize].ctors[*c as usize].name
        ),
        ExprKind::Call(f, xs) => {
            let args: Vec<String> = xs.iter().map(r).collect();
            format!("{}({})", defs.functions[*f as usize].name, args.join(", "))
        }
        ExprKind::Builtin(b, xs) => {
            let args: Vec<String> = xs.iter().map(r).collect();
            format!("{}({})", b.name(), args.join(", "))
        }
        ExprKind::Matches(x, re) => format!(
            "{} matches /{}/",
            r(x),
            defs.regexes
                .get(*re as usize)
                .map(|re| re.source.as_str())
                .unwrap_or("?")
        ),
    }
}

fn paren(
    defs: &Defs,
    a: &Automaton,
    params: &[(String, Type)],
    e: &Expr,
    outer: ioco_lang::ast::BinOp,
) -> String {
    let s = render_expr(defs, a, params, e);
    match &e.kind {
        ExprKind::Binary(op, ..) if op.precedence() <= outer.precedence() => format!("({})", s),
        _ => s,
    }
}
