//! The switches of a composed STS, flattened on demand: thesis Def. 4.3 for one automaton,
//! tutorial Def. 4.5 (hiding) and 4.6 (parallel composition) for a [`Composition`] tree.
//!
//! A [`Move`] is one step of the whole system: one switch of one automaton, or several
//! switches of different automata synchronised on the same gate (they share the gate's
//! parameter values; their guards are conjoined; each updates its own variables). Its gate is a
//! visible gate of the root ([`System::gates`]) or τ (`None`: a `tau` switch or a hidden gate).
//! Moves depend only on the locations, so they are computed once per location vector.
//!
//! A hidden gate keeps its parameters: a τ move on it (gate `None`, [`System::param_types`]
//! not empty) is taken with every parameter vector its guards allow; the tracker enumerates
//! the successors ([`crate::tracker`], "Hidden steps with data").
//!
//! **Multi-actions** (`Switch::also`, TorXakis `A ? x | B ? y`) follow `ioco_lang::semantics`:
//! a step is a set of gates with values; in `P |[G]| Q` steps with the same gates of `G`
//! synchronise (their parameters on those gates become one), independent
//! steps of the two sides may happen together where an enclosing multi-action may need them,
//! hiding removes gates from a step (a step of hidden gates only is τ), renaming that merges
//! two gates of a step identifies their parameters. A move whose parts do not simply share one
//! parameter vector carries a [`Layout`]: the visible gate's parameters first, then the hidden
//! ones, which the tracker quantifies existentially (it enumerates their values as for a
//! hidden step).
//!
//! **Multi-labels** (`@sync`, TorXakis `SYNC`). A root step with several visible gates at once
//! is a move only if `@sync` lists exactly its gates (as in `ioco_lang::semantics`); else it is
//! no step. Each `@sync` set is a *composite visible gate* ([`System::gates`]): its index
//! follows the spec's gates (in the order of `Spec::sync`), its name is the
//! member gates' names, sorted and joined by `|` (`MeasureReport|ProduceReport`), its
//! parameters are the members' parameters concatenated in that order, and its direction is
//! theirs ([`System::new`] refuses a set that mixes inputs and outputs or names a gate that is
//! not visible). So a multi-label is one gate index and one value vector like any other move:
//! input choice, quiescence, the tracker and the explanations need nothing else. Its label is
//! the explicit engine's, [`gate_label`]: `MeasureReport(..)|ProduceReport(..)`.

use crate::term::{instantiate, SymVar, Term, T};
use ioco_lang::ir::{
    Automaton, Composition, Defs, Direction, Env, EvalError, Expr, ExprKind, Gate, Spec, Type,
    Value,
};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write;
use std::sync::Arc;

/// A switch of the system: (automaton index, switch index).
pub type SwitchId = (u32, u32);

/// One step of the system (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Index into [`System::gates`] ([`Spec::gates`], then the composite gates of `@sync`),
    /// `None` for τ.
    pub gate: Option<u32>,
    /// The synchronised switches.
    pub parts: Vec<SwitchId>,
    /// The parameters of a move with multi-actions among its parts (`None` for an ordinary
    /// move, whose parts all share the parameters of the first part's switch).
    pub layout: Option<Arc<Layout>>,
}

/// The parameters of a move made with multi-actions (module documentation, "Multi-actions"):
/// the move's parameter vector is the visible gate's parameters (if any), then every hidden
/// parameter; each part reads its switch's parameters from positions of that vector.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The move's parameters: (name, type).
    pub params: Vec<(String, Type)>,
    /// Per part (in the order of [`Move::parts`]): the position in `params` of each parameter
    /// of its switch.
    pub maps: Vec<Vec<u32>>,
    /// How many leading parameters belong to the visible gate (0 for τ).
    pub visible: usize,
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
    /// Synchronised gates, operands, and whether independent steps of the two sides may also
    /// happen together (as in `ioco_lang::semantics`: only below an operand next to one with
    /// multi-actions, where an enclosing multi-action may ask for them).
    Par(Vec<String>, Box<Node>, Box<Node>, bool),
    Hide(Vec<String>, Box<Node>),
    Rename(HashMap<String, String>, Box<Node>),
}

type MoveCache = HashMap<Box<[u32]>, Arc<Vec<Move>>>;

/// A move below the root: the gates it shows at this level (sorted by name, each with the
/// positions of its parameters in `slots`), its switches, and per switch where its
/// parameters are.
#[derive(Clone, Debug)]
struct RawMove {
    acts: Vec<(String, Vec<u32>)>,
    parts: Vec<SwitchId>,
    maps: Vec<Vec<u32>>,
    slots: Vec<(String, Type)>,
}

impl RawMove {
    fn gates(&self) -> impl Iterator<Item = &str> {
        self.acts.iter().map(|a| a.0.as_str())
    }

    fn touches(&self, set: &[String]) -> bool {
        self.gates().any(|g| set.iter().any(|s| s == g))
    }

    /// Both moves in one step: `b`'s parameters follow `a`'s, except that `b`'s parameters
    /// in `same` (pairs `(b position, a position)`) are `a`'s. The shown gates are `a`'s and
    /// `b`'s other than `skip`; `None` if a gate would occur twice.
    fn join(a: &RawMove, b: &RawMove, same: &[(u32, u32)], skip: &[String]) -> Option<RawMove> {
        let mut slots = a.slots.clone();
        let mut remap = Vec::with_capacity(b.slots.len());
        for (i, sl) in b.slots.iter().enumerate() {
            match same.iter().find(|p| p.0 == i as u32) {
                Some(p) => remap.push(p.1),
                None => {
                    remap.push(slots.len() as u32);
                    slots.push(sl.clone());
                }
            }
        }
        let mut acts = a.acts.clone();
        for (g, ps) in &b.acts {
            if skip.contains(g) {
                continue;
            }
            if acts.iter().any(|x| &x.0 == g) {
                return None;
            }
            acts.push((g.clone(), ps.iter().map(|&p| remap[p as usize]).collect()));
        }
        acts.sort();
        let mut parts = a.parts.clone();
        parts.extend(b.parts.iter().copied());
        let mut maps = a.maps.clone();
        maps.extend(
            b.maps
                .iter()
                .map(|m| m.iter().map(|&p| remap[p as usize]).collect()),
        );
        Some(RawMove {
            acts,
            parts,
            maps,
            slots,
        })
    }

    /// Identifies position `from` with position `to` (`from` disappears).
    fn unify(&mut self, from: u32, to: u32) {
        if from == to {
            return;
        }
        let fix = |p: &mut u32| {
            if *p == from {
                *p = to;
            }
            if *p > from {
                *p -= 1;
            }
        };
        for (_, ps) in &mut self.acts {
            ps.iter_mut().for_each(fix);
        }
        for m in &mut self.maps {
            m.iter_mut().for_each(fix);
        }
        self.slots.remove(from as usize);
    }
}

/// A spec prepared for symbolic and concrete stepping.
pub struct System {
    /// The spec.
    pub spec: Arc<Spec>,
    root: Node,
    gate_index: HashMap<String, u32>,
    /// The visible gates: the spec's, then one composite gate per `@sync` set.
    gates: Vec<Gate>,
    cache: RefCell<MoveCache>,
}

/// The visible gates of a spec as the symbolic engine numbers them (module documentation,
/// "Multi-labels"): [`Spec::gates`], then one composite gate per `@sync` set, named by its
/// gates sorted and joined by `|`, with their parameters concatenated in that order, their
/// direction and the longest of their `@timeout`s. `Err` for a set that names a gate the spec
/// does not show or mixes inputs and outputs.
pub fn visible_gates(spec: &Spec) -> Result<Vec<Gate>, String> {
    let mut out = spec.gates.clone();
    for set in &spec.sync {
        let mut names = set.clone();
        names.sort();
        names.dedup();
        let mut members: Vec<&Gate> = Vec::new();
        for n in &names {
            let g = spec.gates.iter().find(|g| &g.name == n).ok_or_else(|| {
                format!(
                    "`@sync({})`: `{n}` is not a visible gate of the system",
                    set.join(" | ")
                )
            })?;
            members.push(g);
        }
        let Some(first) = members.first() else {
            continue;
        };
        if let Some(other) = members.iter().find(|g| g.dir != first.dir) {
            return Err(format!(
                "`@sync({})`: `{}` is an {} but `{}` an {}: a multi-label is all inputs or all \
                 outputs",
                set.join(" | "),
                first.name,
                dir_word(first.dir),
                other.name,
                dir_word(other.dir)
            ));
        }
        let name = names.join("|");
        if out.iter().any(|g| g.name == name) {
            continue;
        }
        out.push(Gate {
            name,
            dir: first.dir,
            params: members.iter().flat_map(|g| g.params.clone()).collect(),
            timeout: members.iter().filter_map(|g| g.timeout).max(),
            span: first.span,
        });
    }
    Ok(out)
}

fn dir_word(d: Direction) -> &'static str {
    match d {
        Direction::Input => "input",
        Direction::Output => "output",
    }
}

/// A gate value as a label, the explicit engine's (`ioco_lang::semantics`) with `mark` (`?`,
/// `!` or nothing) after each gate name: `water?(100)`, `coffee!`, and for a composite gate of
/// `@sync` ([`visible_gates`]) its parts in order, joined by `|`:
/// `MeasureReport!(MeasureReport(1,0))|ProduceReport!(ProduceReport(1,1))`. A name with `|` that
/// is not the gates of the spec with these many values is shown as one gate.
pub fn gate_label(spec: &Spec, gate: &str, values: &[Value], mark: &str) -> String {
    let one = |g: &str, vs: &[Value]| {
        let l = ioco_lang::semantics::label_name(&spec.defs, g, vs);
        match l.find('(') {
            Some(i) if !vs.is_empty() => format!("{}{}{}", &l[..i], mark, &l[i..]),
            _ => format!("{l}{mark}"),
        }
    };
    if gate.contains('|') {
        let arities: Option<Vec<usize>> = gate
            .split('|')
            .map(|n| {
                spec.gates
                    .iter()
                    .find(|g| g.name == n.trim())
                    .map(|g| g.params.len())
            })
            .collect();
        if let Some(ar) = arities.filter(|a| a.iter().sum::<usize>() == values.len()) {
            let mut at = 0;
            let parts: Vec<String> = gate
                .split('|')
                .zip(ar)
                .map(|(n, k)| {
                    let p = one(n.trim(), &values[at..at + k]);
                    at += k;
                    p
                })
                .collect();
            return parts.join("|");
        }
    }
    one(gate, values)
}

fn has_multi(c: &Composition, spec: &Spec) -> bool {
    match c {
        Composition::Leaf(i) => spec.automata[*i as usize]
            .switches
            .iter()
            .any(|s| !s.also.is_empty()),
        Composition::Par { left, right, .. } => has_multi(left, spec) || has_multi(right, spec),
        Composition::Hide { body, .. } | Composition::Rename { body, .. } => has_multi(body, spec),
    }
}

fn build(c: &Composition, spec: &Spec, combine: bool) -> Node {
    match c {
        Composition::Leaf(i) => Node::Leaf(*i as usize),
        Composition::Par { sync, left, right } => {
            let (ml, mr) = (has_multi(left, spec), has_multi(right, spec));
            Node::Par(
                sync.clone(),
                Box::new(build(left, spec, combine || mr)),
                Box::new(build(right, spec, combine || ml)),
                combine,
            )
        }
        Composition::Hide { gates, body } => {
            Node::Hide(gates.clone(), Box::new(build(body, spec, combine)))
        }
        Composition::Rename { map, body } => Node::Rename(
            map.iter().cloned().collect(),
            Box::new(build(body, spec, combine)),
        ),
    }
}

impl System {
    /// Prepares a spec. `Err` explains what is not supported.
    pub fn new(spec: Arc<Spec>) -> Result<System, String> {
        let root = build(&spec.root, &spec, !spec.sync.is_empty());
        let gates = visible_gates(&spec)?;
        let gate_index = gates
            .iter()
            .enumerate()
            .map(|(i, g)| (g.name.clone(), i as u32))
            .collect();
        Ok(System {
            spec,
            root,
            gate_index,
            gates,
            cache: RefCell::new(HashMap::new()),
        })
    }

    /// The data definitions.
    pub fn defs(&self) -> &Defs {
        &self.spec.defs
    }

    /// The automaton of a switch.
    pub fn automaton(&self, i: u32) -> &Automaton {
        &self.spec.automata[i as usize]
    }

    /// Root gate index by name; a composite gate of `@sync` by its gates joined by `|`, in any
    /// order and with blanks or not (`B | A` is `A|B`).
    pub fn gate(&self, name: &str) -> Option<u32> {
        if let Some(&g) = self.gate_index.get(name) {
            return Some(g);
        }
        if !name.contains('|') {
            return None;
        }
        let mut parts: Vec<&str> = name.split('|').map(str::trim).collect();
        parts.sort_unstable();
        self.gate_index.get(&parts.join("|")).copied()
    }

    /// The visible gates (module documentation, "Multi-labels"): [`Spec::gates`], then the
    /// composite gates of `@sync` ([`visible_gates`]). [`Move::gate`] indexes them.
    pub fn gates(&self) -> &[Gate] {
        &self.gates
    }

    /// The name of visible gate `g` (`A|B` for a composite gate).
    pub fn gate_name(&self, g: u32) -> &str {
        self.gates.get(g as usize).map_or("?", |x| x.name.as_str())
    }

    /// The name of the gate of a visible move (`tau` for τ).
    pub fn move_gate_name(&self, m: &Move) -> &str {
        m.gate.map_or("tau", |g| self.gate_name(g))
    }

    /// A gate value as a label ([`gate_label`]): `water?(100)`, `A?(1)|B?(2)`.
    pub fn label(&self, gate: &str, values: &[Value], mark: &str) -> String {
        gate_label(&self.spec, gate, values, mark)
    }

    /// Direction of a move (`None` for τ).
    pub fn direction(&self, m: &Move) -> Option<Direction> {
        m.gate
            .and_then(|g| self.gates.get(g as usize))
            .map(|g| g.dir)
    }

    /// The parameter types of a move (for a multi-action: the visible gate's, then the hidden
    /// ones, [`Layout`]).
    pub fn param_types(&self, m: &Move) -> Vec<Type> {
        if let Some(l) = &m.layout {
            return l.params.iter().map(|p| p.1).collect();
        }
        let (a, s) = m.parts[0];
        self.automaton(a).switches[s as usize]
            .params
            .iter()
            .map(|p| p.1)
            .collect()
    }

    /// How many of a move's parameters are the visible gate's (the values of its label); the
    /// rest are hidden and existentially quantified. All of them for an ordinary visible move,
    /// none for τ.
    pub fn visible_arity(&self, m: &Move) -> usize {
        match (&m.layout, m.gate) {
            (_, None) => 0,
            (Some(l), _) => l.visible,
            (None, Some(_)) => self.param_types(m).len(),
        }
    }

    /// Whether a visible move has hidden parameters too (a multi-action with hidden gates).
    pub fn has_hidden_params(&self, m: &Move) -> bool {
        m.gate.is_some()
            && m.layout
                .as_ref()
                .is_some_and(|l| l.params.len() > l.visible)
    }

    /// The full parameter vector of a move from its visible values: the values themselves for
    /// an ordinary move, with the hidden parameters' values when the guards fix them by
    /// evaluation ([`System::forced_with`]), else `None`.
    pub fn complete<'x>(
        &self,
        q: &State,
        m: &Move,
        values: &'x [Value],
    ) -> Option<Cow<'x, [Value]>> {
        if !self.has_hidden_params(m) {
            return Some(Cow::Borrowed(values));
        }
        self.forced_with(q, m, values).map(Cow::Owned)
    }

    /// The arguments part `k` of a move reads, from the move's parameter vector.
    pub fn part_args<'x, X: Clone>(&self, m: &Move, k: usize, params: &'x [X]) -> Cow<'x, [X]> {
        match &m.layout {
            None => Cow::Borrowed(params),
            Some(l) => Cow::Owned(
                l.maps[k]
                    .iter()
                    .map(|&i| params[i as usize].clone())
                    .collect(),
            ),
        }
    }

    /// Step-indexed parameter variables of a move (`name@step`).
    pub fn param_vars(&self, m: &Move, step: usize) -> Vec<SymVar> {
        if let Some(l) = &m.layout {
            // names of different gates may clash: number the hidden ones, and all of a
            // composite gate's (its members' parameters may have the same names)
            let composite = m.gate.is_some_and(|g| g as usize >= self.spec.gates.len());
            return l
                .params
                .iter()
                .enumerate()
                .map(|(i, (n, ty))| {
                    if i < l.visible && !composite {
                        SymVar::at(n, step, *ty)
                    } else {
                        SymVar::at(&format!("{n}#{i}"), step, *ty)
                    }
                })
                .collect();
        }
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
                // a multi-action: each gate with its parameters, `a?(x) | b?(y)`
                let mut parts = Vec::new();
                let mut at = 0usize;
                let n = 1 + sw.also.len();
                for (j, gi) in std::iter::once(g)
                    .chain(sw.also.iter().copied())
                    .enumerate()
                {
                    let gate = &a.gates[gi as usize];
                    let mark = if gate.dir == Direction::Input {
                        "?"
                    } else {
                        "!"
                    };
                    // the last gate shows every parameter left
                    let left = sw.params.len().saturating_sub(at);
                    let k = if j + 1 == n {
                        left
                    } else {
                        gate.params.len().min(left)
                    };
                    let ps: Vec<&str> = sw.params[at..at + k]
                        .iter()
                        .map(|p| shown_param(&p.0))
                        .collect();
                    at += k;
                    parts.push(if ps.is_empty() {
                        format!("{}{}", gate.name, mark)
                    } else {
                        format!("{}{}({})", gate.name, mark, ps.join(","))
                    });
                }
                parts.join(" | ")
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

    /// The switches of a move, readable: `Model: from -- gate? --> to` for each part, joined
    /// by `; `.
    pub fn multi_name(&self, m: &Move) -> String {
        let names: Vec<String> = m.parts.iter().map(|&p| self.switch_name(p)).collect();
        names.join("; ")
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

    /// The moves from these locations (memoised). A step that shows several visible gates at
    /// once (a multi-label) is a step of the root only if `@sync` lists exactly its gates, like
    /// `ioco_lang::semantics`; its gate is then the composite gate of that set.
    pub fn moves(&self, locs: &[u32]) -> Arc<Vec<Move>> {
        if let Some(m) = self.cache.borrow().get(locs) {
            return m.clone();
        }
        let raw = self.raw_moves(&self.root, locs);
        let moves: Vec<Move> = raw.into_iter().filter_map(|r| self.finish(r)).collect();
        let moves = Arc::new(moves);
        self.cache.borrow_mut().insert(locs.into(), moves.clone());
        moves
    }

    /// A root move from a raw one: the visible gate's parameters first, the layout only when
    /// the parts do not simply share their first switch's parameters.
    fn finish(&self, mut r: RawMove) -> Option<Move> {
        let gate = match r.acts.len() {
            0 => None,
            // a gate not in the root interface cannot happen after checking; skip defensively
            1 => Some(self.gate(&r.acts[0].0)?),
            // a multi-label: only as a composite gate of `@sync` (the acts are sorted by name,
            // as the composite gate's members)
            _ => {
                let names: Vec<&str> = r.acts.iter().map(|a| a.0.as_str()).collect();
                let g = *self.gate_index.get(&names.join("|"))?;
                (g as usize >= self.spec.gates.len()).then_some(g)?;
                Some(g)
            }
        };
        // renumber: the visible gates' positions first (in the order of the gates), then the
        // others in order
        let mut order: Vec<u32> = Vec::new();
        for a in &r.acts {
            for &p in &a.1 {
                // distinct gates of one step have distinct parameters; a position twice would
                // make the composite gate's values one fewer than its parameters: no step
                if order.contains(&p) {
                    return None;
                }
                order.push(p);
            }
        }
        let visible = order.len();
        if let Some(g) = gate.filter(|&g| g as usize >= self.spec.gates.len()) {
            // a composite gate's values are its members' parameters, all of them
            if self.gates[g as usize].params.len() != visible {
                return None;
            }
        }
        for i in 0..r.slots.len() as u32 {
            if !order.contains(&i) {
                order.push(i);
            }
        }
        let mut inv = vec![0u32; r.slots.len()];
        for (new, &old) in order.iter().enumerate() {
            inv[old as usize] = new as u32;
        }
        let params: Vec<(String, Type)> =
            order.iter().map(|&o| r.slots[o as usize].clone()).collect();
        for m in &mut r.maps {
            m.iter_mut().for_each(|p| *p = inv[*p as usize]);
        }
        // a visible step whose gate carries fewer values than the step has parameters (a
        // multi-action with a hidden gate, `Chan ! n | Out` with `Chan` hidden) needs the
        // layout: its hidden parameters are then enumerated, not taken as visible values
        let plain = (gate.is_none() || visible == params.len())
            && r.maps.iter().zip(&r.parts).all(|(m, &(a, s))| {
                let sw = &self.automaton(a).switches[s as usize];
                sw.params.len() == params.len()
                    && m.iter().enumerate().all(|(i, &p)| p == i as u32)
                    && sw.params.iter().zip(&params).all(|(x, y)| x.1 == y.1)
            });
        let layout = if plain {
            None
        } else {
            Some(Arc::new(Layout {
                params,
                maps: r.maps,
                visible,
            }))
        };
        Some(Move {
            gate,
            parts: r.parts,
            layout,
        })
    }

    fn raw_moves(&self, n: &Node, locs: &[u32]) -> Vec<RawMove> {
        match n {
            Node::Leaf(i) => {
                let a = &self.spec.automata[*i];
                let mut out = Vec::new();
                for (si, sw) in a.switches.iter().enumerate() {
                    if sw.from != locs[*i] {
                        continue;
                    }
                    let n = sw.params.len() as u32;
                    let mut acts: Vec<(String, Vec<u32>)> = Vec::new();
                    if let Some(g) = sw.gate {
                        // split the parameters among the gates of a multi-action
                        let mut at = 0u32;
                        for gi in std::iter::once(g).chain(sw.also.iter().copied()) {
                            let k = (a.gates[gi as usize].params.len() as u32).min(n - at);
                            acts.push((a.gates[gi as usize].name.clone(), (at..at + k).collect()));
                            at += k;
                        }
                    }
                    acts.sort();
                    // a gate twice in one multi-action is no step (`Act::strict`)
                    if acts.windows(2).any(|w| w[0].0 == w[1].0) {
                        continue;
                    }
                    out.push(RawMove {
                        acts,
                        parts: vec![(*i as u32, si as u32)],
                        maps: vec![(0..n).collect()],
                        slots: sw.params.clone(),
                    });
                }
                out
            }
            Node::Par(sync, l, r, combine) => {
                let left = self.raw_moves(l, locs);
                let right = self.raw_moves(r, locs);
                let mut out: Vec<RawMove> = Vec::new();
                if *combine {
                    // TorXakis: independent visible steps of the two sides may happen together
                    for a in left
                        .iter()
                        .filter(|m| !m.acts.is_empty() && !m.touches(sync))
                    {
                        for b in right
                            .iter()
                            .filter(|m| !m.acts.is_empty() && !m.touches(sync))
                        {
                            out.extend(RawMove::join(a, b, &[], &[]));
                        }
                    }
                }
                for m in left.iter().chain(right.iter()) {
                    if !m.touches(sync) {
                        out.push(m.clone());
                    }
                }
                for a in left.iter().filter(|m| m.touches(sync)) {
                    let sa: Vec<&(String, Vec<u32>)> =
                        a.acts.iter().filter(|x| sync.contains(&x.0)).collect();
                    for b in right.iter().filter(|m| m.touches(sync)) {
                        let sb: Vec<&(String, Vec<u32>)> =
                            b.acts.iter().filter(|x| sync.contains(&x.0)).collect();
                        // the same synchronised gates on both sides, with the same values
                        if sa.len() != sb.len() || sa.iter().zip(&sb).any(|(x, y)| x.0 != y.0) {
                            continue;
                        }
                        let same: Vec<(u32, u32)> = sa
                            .iter()
                            .zip(&sb)
                            .flat_map(|(x, y)| y.1.iter().copied().zip(x.1.iter().copied()))
                            .collect();
                        out.extend(RawMove::join(a, b, &same, sync));
                    }
                }
                out
            }
            Node::Hide(gates, b) => {
                let mut ms = self.raw_moves(b, locs);
                for m in &mut ms {
                    m.acts.retain(|(g, _)| !gates.contains(g));
                }
                ms
            }
            Node::Rename(map, b) => {
                let mut out = Vec::new();
                'm: for mut m in self.raw_moves(b, locs) {
                    for (g, _) in &mut m.acts {
                        if let Some(n) = map.get(g) {
                            *g = n.clone();
                        }
                    }
                    m.acts.sort();
                    // two gates merged by the renaming: one step, with the same values
                    while let Some(i) = (1..m.acts.len()).find(|&i| m.acts[i - 1].0 == m.acts[i].0)
                    {
                        let (x, y) = (m.acts[i - 1].1.clone(), m.acts[i].1.clone());
                        if x.len() != y.len() {
                            continue 'm;
                        }
                        m.acts.remove(i);
                        // identify y's positions with x's, highest first so indices stay valid
                        let mut pairs: Vec<(u32, u32)> = y.into_iter().zip(x).collect();
                        pairs.sort_by_key(|p| std::cmp::Reverse(p.0));
                        for k in 0..pairs.len() {
                            let (from, to) = pairs[k];
                            m.unify(from, to);
                            for p in &mut pairs[k + 1..] {
                                for v in [&mut p.0, &mut p.1] {
                                    if *v == from {
                                        *v = to;
                                    }
                                    if *v > from {
                                        *v -= 1;
                                    }
                                }
                            }
                        }
                    }
                    out.push(m);
                }
                out
            }
        }
    }

    /// `enab(q, (λ, w̄), m)`: every synchronised guard holds (concrete evaluation).
    pub fn enabled(&self, q: &State, m: &Move, values: &[Value]) -> Result<bool, EvalError> {
        if values.len() < self.param_types(m).len() {
            return Err(EvalError {
                message: "values for the hidden parameters of a multi-action are missing".into(),
                span: self.automaton(m.parts[0].0).switches[m.parts[0].1 as usize].span,
            });
        }
        for (k, &(a, s)) in m.parts.iter().enumerate() {
            let sw = &self.automaton(a).switches[s as usize];
            let args = self.part_args(m, k, values);
            let env = Env {
                vars: &q.vars[a as usize],
                params: &args,
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
        for (k, &(a, s)) in m.parts.iter().enumerate() {
            let aut = self.automaton(a);
            let sw = &aut.switches[s as usize];
            let args = self.part_args(m, k, values);
            let env = Env {
                vars: &q.vars[a as usize],
                params: &args,
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
        for (k, &(a, s)) in m.parts.iter().enumerate() {
            let sw = &self.automaton(a).switches[s as usize];
            let vars: Vec<T> = q.vars[a as usize]
                .iter()
                .map(|v| Term::val(v.clone()))
                .collect();
            let args = self.part_args(m, k, params);
            g = Term::and(g, instantiate(&self.spec.defs, &sw.guard, &vars, &args));
        }
        g
    }

    /// The assignments of a move that read its parameters, instantiated at a concrete state
    /// with these parameter terms: `(automaton, variable, term)` for each assignment whose
    /// term is not a constant. The successor `succ(q, m, w̄)` depends on `w̄` only through
    /// these terms (the locations are the move's, the other variables are constants at `q`).
    pub fn assigned_at(&self, q: &State, m: &Move, params: &[T]) -> Vec<(usize, usize, T)> {
        let mut out = Vec::new();
        for (k, &(a, s)) in m.parts.iter().enumerate() {
            let sw = &self.automaton(a).switches[s as usize];
            let vars: Vec<T> = q.vars[a as usize]
                .iter()
                .map(|v| Term::val(v.clone()))
                .collect();
            let args = self.part_args(m, k, params);
            for (v, e) in &sw.assign {
                let t = instantiate(&self.spec.defs, e, &vars, &args);
                if t.as_const().is_none() {
                    out.push((a as usize, *v as usize, t));
                }
            }
        }
        out
    }

    /// The name of the gate of a move as its first automaton calls it (`tau` for a `tau`
    /// switch): for a τ move on a hidden gate, the hidden gate.
    pub fn local_gate_name(&self, m: &Move) -> String {
        let (a, s) = m.parts[0];
        let aut = self.automaton(a);
        match aut.switches[s as usize].gate {
            Some(g) => aut.gates[g as usize].name.clone(),
            None => "tau".into(),
        }
    }

    /// The guard of a move over a symbolic state with these parameter terms (`φ[m]`).
    pub fn guard_sym(&self, s: &SymState, m: &Move, params: &[T]) -> T {
        let mut g = Term::bool(true);
        for (k, &(a, si)) in m.parts.iter().enumerate() {
            let sw = &self.automaton(a).switches[si as usize];
            let args = self.part_args(m, k, params);
            g = Term::and(
                g,
                instantiate(&self.spec.defs, &sw.guard, &s.vars[a as usize], &args),
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
        for (k, &(a, si)) in m.parts.iter().enumerate() {
            let sw = &self.automaton(a).switches[si as usize];
            let args = self.part_args(m, k, &params);
            for (v, e) in &sw.assign {
                vars[a as usize][*v as usize] =
                    instantiate(&self.spec.defs, e, &s.vars[a as usize], &args);
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
        self.forced_with(q, m, &[])
    }

    /// [`System::forced_params`] with the first parameters known (`known`, e.g. the values of
    /// the visible gate of a multi-action): an equality `p == e` forces `p` when every
    /// parameter `e` reads is known or forced (repeated to a fixpoint: DisPro12's
    /// `jobId(job) == jobid` forces the hidden `jobid` once the input `job` is known).
    pub fn forced_with(&self, q: &State, m: &Move, known: &[Value]) -> Option<Vec<Value>> {
        let n = self.param_types(m).len();
        let mut out: Vec<Option<Value>> = vec![None; n];
        for (o, v) in out.iter_mut().zip(known) {
            *o = Some(v.clone());
        }
        loop {
            let mut progress = false;
            for (k, &(a, s)) in m.parts.iter().enumerate() {
                let sw = &self.automaton(a).switches[s as usize];
                // the move's position of each switch parameter
                let pos = |j: u32| -> usize {
                    match &m.layout {
                        None => j as usize,
                        Some(l) => l.maps[k][j as usize] as usize,
                    }
                };
                for c in sw.guard.conjuncts() {
                    let ExprKind::Binary(ioco_lang::ast::BinOp::Eq, x, y) = &c.kind else {
                        continue;
                    };
                    for (p, e) in [(x, y), (y, x)] {
                        let ExprKind::Param(j) = p.kind else {
                            continue;
                        };
                        if out[pos(j)].is_some() {
                            continue;
                        }
                        let mut ready = true;
                        e.visit(&mut |x| {
                            if let ExprKind::Param(i) = x.kind {
                                ready &= out[pos(i)].is_some();
                            }
                        });
                        if !ready {
                            continue;
                        }
                        let args: Vec<Value> = (0..sw.params.len() as u32)
                            .map(|i| out[pos(i)].clone().unwrap_or(Value::Bool(false)))
                            .collect();
                        let env = Env {
                            vars: &q.vars[a as usize],
                            params: &args,
                            locals: &[],
                        };
                        if let Ok(v) = self.spec.defs.eval(e, &env) {
                            out[pos(j)] = Some(v);
                            progress = true;
                        }
                    }
                }
            }
            if !progress || out.iter().all(Option::is_some) {
                break;
            }
        }
        out.into_iter().collect()
    }

    /// Explains why a move is not enabled for these values: the false conjuncts of its guards.
    pub fn explain(&self, q: &State, m: &Move, values: &[Value]) -> String {
        let mut out = Vec::new();
        for (k, &(a, s)) in m.parts.iter().enumerate() {
            let aut = self.automaton(a);
            let sw = &aut.switches[s as usize];
            if values.len() < self.param_types(m).len() {
                break;
            }
            let args = self.part_args(m, k, values);
            let env = Env {
                vars: &q.vars[a as usize],
                params: &args,
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

/// A switch parameter's name as the user knows it: the checker names the parameter of a value
/// argument (`ans!(=last + 1)`) after the gate's parameter and its position (`r#0`); shown as
/// the gate's parameter (`r`), as in `ans!(r) [r == last + 1]`.
pub fn shown_param(name: &str) -> &str {
    match name.split_once('#') {
        Some((gate_param, at))
            if !gate_param.is_empty()
                && !at.is_empty()
                && at.bytes().all(|b| b.is_ascii_digit()) =>
        {
            gate_param
        }
        _ => name,
    }
}

/// Renders an IR expression with the automaton's variable names and the switch's parameter names.
pub fn render_expr(defs: &Defs, a: &Automaton, params: &[(String, Type)], e: &Expr) -> String {
    let r = |x: &Expr| render_expr(defs, a, params, x);
    match &e.kind {
        ExprKind::Const(v) => v.display(defs).to_string(),
        ExprKind::Var(i) => a.vars[*i as usize].name.clone(),
        ExprKind::Param(i) => params
            .get(*i as usize)
            .map(|p| shown_param(&p.0).to_string())
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
