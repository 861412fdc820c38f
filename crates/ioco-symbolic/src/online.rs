//! The data side of on-the-fly testing (tutorial Alg. 2 over STSs, P1 §7.2): what the tester
//! needs to talk to a system under test with data and to explain its verdicts. The loop
//! itself, its verdict policy (the exit rule among it), replay and shrinking live in one place
//! for every engine: `ioco_exec::engine` (this crate's [`SymbolicSpec`] is its specification
//! there).
//!
//! The system under test is the engine's [`Sut`] over gate values ([`GateValue`]: a gate name
//! with typed values): inputs in, outputs or quiescence out. Races are explicit:
//! [`Sent::Raced`] means the system produced an output before it took the input (the input
//! was not delivered), as in the atomic try-send of the tutorial's §2.4. [`InProcessSut`] wraps a closure-based implementation; [`SpecSut`]
//! simulates the spec itself (a conforming SUT by construction, used in property tests). Real
//! programs (child processes, TCP peers) are driven by `ioco_sut::data`.
//!
//! Also here: [`SpecTimeouts`] (the engine's one [`Timeouts`] over the locations and gates of
//! an STS, read by the time-out rule [`quiescence_wait`]), [`allowed_outputs`] (what a Fail
//! reports), [`never_started`] (status 127/126), [`ddmin`] (delta debugging), [`parse_value`]
//! (the value syntax of the wire).

use crate::system::{render_expr, Move, State, SwitchId};
use crate::term::value_in_type;
use crate::tracker::{Quiescence, Step, SymbolicSpec};
use ioco_lang::ir::{Defs, Direction, Spec, Type, Value};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use std::time::Duration;

pub use ioco_engine::alg2::never_started;
pub use ioco_engine::timeouts::quiescence_wait;

pub use ioco_engine::{
    Ended, Observation, OnlineOptions, RunResult, RunVerdict, Sent, Sut, SutError, Timeouts,
};

/// The quiescence time-outs of a spec with data in the engine's one [`Timeouts`], read by the
/// rule of [`quiescence_wait`] over STS states: [`Timeouts::states`] holds one entry per
/// location, numbered over the automata in order (the first automaton's locations first, see
/// [`location_index`]), [`Timeouts::labels`] one per gate as `System::gates` numbers them (the
/// composite gates of `@sync` after the declared ones). An observation waits the **maximum** of
/// the `@timeout`s of the candidate states' locations, of the output gates possible there, and
/// of the input gate it directly follows, over those that have one; else the default
/// ([`OnlineOptions::quiescence_timeout`](ioco_engine::OnlineOptions::quiescence_timeout): the
/// model's `@timeout` ([`model_timeout`]), else the command line's).
pub trait SpecTimeouts {
    /// The spec's `@timeout`s of locations and gates (the model's own default is
    /// [`model_timeout`]).
    fn of_spec(spec: &Spec) -> Self;

    /// Gives gate `name` (of `spec`, a trailing `?`/`!` ignored) the time-out `d`; an error
    /// names the gates there are.
    fn set_gate(&mut self, spec: &Spec, name: &str, d: Duration) -> Result<(), String>;

    /// Gives the locations named `name` (`LOCATION` in any automaton, or `MODEL.LOCATION`)
    /// the time-out `d`; false when `spec` has none of that name.
    fn set_location(&mut self, spec: &Spec, name: &str, d: Duration) -> bool;

    /// The wait before concluding quiescence in the tracker's current states, right after the
    /// input `last_input` (if the last step was one); `default` where nothing has its own.
    fn wait(&self, spec: &SymbolicSpec, last_input: Option<&str>, default: Duration) -> Duration;
}

/// The model's own default time-out: the largest `@timeout` of its models, if any.
pub fn model_timeout(spec: &Spec) -> Option<Duration> {
    spec.automata.iter().filter_map(|a| a.timeout).max()
}

/// The index in [`Timeouts::states`] of location `loc` of automaton `aut` of `spec`.
pub fn location_index(spec: &Spec, aut: usize, loc: usize) -> usize {
    spec.automata[..aut]
        .iter()
        .map(|a| a.locations.len())
        .sum::<usize>()
        + loc
}

impl SpecTimeouts for Timeouts {
    fn of_spec(spec: &Spec) -> Timeouts {
        Timeouts {
            states: spec
                .automata
                .iter()
                .flat_map(|a| a.locations.iter().map(|l| l.timeout))
                .collect(),
            // the composite gates of `@sync` too, numbered as `System::gates`
            labels: crate::system::visible_gates(spec)
                .unwrap_or_else(|_| spec.gates.clone())
                .iter()
                .map(|g| g.timeout)
                .collect(),
        }
    }

    fn set_gate(&mut self, spec: &Spec, name: &str, d: Duration) -> Result<(), String> {
        let name = name.trim().trim_end_matches(['?', '!']);
        match spec.gates.iter().position(|x| x.name == name) {
            Some(i) => {
                self.labels[i] = Some(d);
                Ok(())
            }
            None => {
                let all: Vec<&str> = spec.gates.iter().map(|x| x.name.as_str()).collect();
                Err(format!("the model's gates: {}", all.join(", ")))
            }
        }
    }

    fn set_location(&mut self, spec: &Spec, name: &str, d: Duration) -> bool {
        let mut found = false;
        for (ai, a) in spec.automata.iter().enumerate() {
            for (li, loc) in a.locations.iter().enumerate() {
                if name == loc.name || name == format!("{}.{}", a.name, loc.name) {
                    self.states[location_index(spec, ai, li)] = Some(d);
                    found = true;
                }
            }
        }
        found
    }

    fn wait(&self, spec: &SymbolicSpec, last_input: Option<&str>, default: Duration) -> Duration {
        let gate = |g: u32| self.labels.get(g as usize).copied().flatten();
        // where each automaton's locations start in `states`
        let mut offsets = Vec::with_capacity(spec.sys.spec.automata.len());
        let mut at = 0;
        for a in &spec.sys.spec.automata {
            offsets.push(at);
            at += a.locations.len();
        }
        // a state is in one location per automaton: each may have a timeout of its own
        let states = spec.states().iter().flat_map(|q| {
            q.locs.iter().enumerate().map(|(i, &l)| {
                offsets
                    .get(i)
                    .and_then(|o| self.states.get(o + l as usize))
                    .copied()
                    .flatten()
            })
        });
        // the output gates of the moves there (guards aside: a longer wait is still sound)
        let outputs = spec.states().iter().flat_map(|q| {
            spec.sys
                .moves(&q.locs)
                .iter()
                .filter(|m| spec.sys.direction(m) == Some(Direction::Output))
                .map(|m| m.gate.and_then(gate))
                .collect::<Vec<_>>()
        });
        let last_input = last_input.and_then(|g| spec.sys.gate(g)).and_then(gate);
        quiescence_wait(states, outputs, last_input, default)
    }
}

/// A gate value.
pub type GateValue = (String, Vec<Value>);

/// A gate value as a label: `water?(100)`, `coffee!(120)`, `pad?`; a multi-label (a composite
/// gate of `@sync`, [`crate::system::gate_label`]) as its parts joined by `|`:
/// `a?(1)|b?(2)`.
pub fn label(spec: &Spec, gate: &str, values: &[Value], mark: &str) -> String {
    crate::system::gate_label(spec, gate, values, mark)
}

/// What the spec allows in its current candidate states: every output move with its guard,
/// the variables replaced by their values in that state (`coffee!(c) [c >= 150 - 50 && c <=
/// 150]`), and `δ` when some candidate is provably quiescent (or possibly, when the solver does
/// not know).
pub fn allowed_outputs(spec: &mut SymbolicSpec) -> Vec<String> {
    let mut out = Vec::new();
    let mut quiet = false;
    let states = spec.states().to_vec();
    for q in &states {
        let moves = spec.sys.moves(&q.locs);
        for m in moves.iter() {
            if spec.sys.direction(m) == Some(Direction::Output) {
                let s = describe_move(spec, q, m);
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        if !matches!(spec.quiescence(q), Quiescence::Active(_)) {
            quiet = true;
        }
    }
    if quiet {
        out.push("δ".into());
    }
    out
}

fn describe_move(spec: &SymbolicSpec, q: &State, m: &Move) -> String {
    describe_output_move(&spec.sys, q, m)
}

/// An output move in a state: `coffee!(c) [c >= 150 - 50 && c <= 150]` (the guard with the
/// variables' values of `q`).
pub(crate) fn describe_output_move(sys: &crate::System, q: &State, m: &Move) -> String {
    let defs = &sys.spec.defs;
    let mut guards = Vec::new();
    // a multi-action with hidden gates: the visible gate's parameters
    let mut params: Vec<String> = match &m.layout {
        Some(l) => l.params[..l.visible]
            .iter()
            .map(|p| crate::system::shown_param(&p.0).to_string())
            .collect(),
        None => Vec::new(),
    };
    for &(a, s) in &m.parts {
        let aut = sys.automaton(a);
        let sw = &aut.switches[s as usize];
        if params.is_empty() && m.layout.is_none() {
            params = sw
                .params
                .iter()
                .map(|p| crate::system::shown_param(&p.0).to_string())
                .collect();
        }
        if !sw.guard.is_true() {
            // the guard with the variables' values in this state
            let mut at = aut.clone();
            for (v, val) in at.vars.iter_mut().zip(q.vars[a as usize].iter()) {
                v.name = val.display(defs).to_string();
            }
            guards.push(render_expr(defs, &at, &sw.params, &sw.guard));
        }
    }
    let gate = m
        .gate
        .map(|g| sys.gate_name(g).to_string())
        .unwrap_or_else(|| "τ".into());
    // a multi-label: each gate with its parameters, `c!(u)|d!(v)`
    let arities: Option<Vec<usize>> = gate
        .split('|')
        .map(|n| {
            sys.spec
                .gates
                .iter()
                .find(|g| g.name == n)
                .map(|g| g.params.len())
        })
        .collect();
    let arities = arities
        .filter(|a| a.len() > 1 && a.iter().sum::<usize>() == params.len())
        .unwrap_or_else(|| vec![params.len()]);
    let mut at = 0;
    let mut parts = Vec::new();
    for (g, k) in gate.split('|').zip(arities) {
        let mut p = format!("{g}!");
        if k > 0 {
            p.push_str(&format!("({})", params[at..at + k].join(",")));
        }
        at += k;
        parts.push(p);
    }
    let mut s = parts.join("|");
    if !guards.is_empty() {
        s.push_str(&format!(" [{}]", guards.join(" && ")));
    }
    s
}

/// Is this input (gate value) enabled in some candidate state? (evaluation only, no solver)
pub fn input_enabled(spec: &SymbolicSpec, gate: &str, values: &[Value]) -> bool {
    let Some(g) = spec.sys.gate(gate) else {
        return false;
    };
    spec.states().iter().any(|q| {
        spec.sys.moves(&q.locs).iter().any(|m| {
            m.gate == Some(g)
                && match spec.sys.complete(q, m, values) {
                    Some(w) => spec.sys.enabled(q, m, &w) == Ok(true),
                    // hidden values the guards do not fix: maybe (the tracker decides)
                    None => true,
                }
        })
    })
}

/// The switches of the moves this gate value enables in some candidate state.
pub fn fired(spec: &SymbolicSpec, gate: &str, values: &[Value]) -> Vec<SwitchId> {
    let Some(g) = spec.sys.gate(gate) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for q in spec.states() {
        for m in spec.sys.moves(&q.locs).iter().filter(|m| m.gate == Some(g)) {
            // a multi-action whose hidden values the guards do not fix is not counted
            let Some(w) = spec.sys.complete(q, m, values) else {
                continue;
            };
            if spec.sys.enabled(q, m, &w) == Ok(true) {
                out.extend(m.parts.iter().copied());
            }
        }
    }
    out
}

/// A recorded step of a data model, `water?(100)`, `coffee!`, as a gate value. A multi-label
/// of `@sync`, `a?(1)|b?(2)` (parts in any order, all inputs or all outputs), is the
/// composite gate `a|b` with the values of its parts in gate order.
pub fn parse_gate_value(spec: &Spec, label: &str) -> Result<(String, Vec<Value>, bool), String> {
    // as the explicit engine writes it, the mark at the end (`water(100)?`, `a(1)|b(2)!`)
    if let Some(mark) = label
        .strip_suffix(['?', '!'])
        .filter(|b| b.ends_with(')') || b.contains('|'))
        // and no mark after a gate name (`a?|b?` is already the symbolic engine's)
        .filter(|b| {
            ioco_engine::trace::split_multi(b)
                .iter()
                .all(|p| !p.split('(').next().unwrap_or_default().contains(['?', '!']))
        })
        .map(|b| &label[b.len()..])
    {
        let bare = &label[..label.len() - mark.len()];
        let parts: Vec<String> = ioco_engine::trace::split_multi(bare)
            .into_iter()
            .map(|p| match p.find('(') {
                Some(i) => format!("{}{mark}{}", &p[..i], &p[i..]),
                None => format!("{p}{mark}"),
            })
            .collect();
        return parse_gate_value(spec, &parts.join("|"));
    }
    let parts = ioco_engine::trace::split_multi(label);
    if parts.len() < 2 {
        return parse_one(spec, label);
    }
    let mut named = Vec::new();
    for p in parts {
        named.push(parse_one(spec, p).map_err(|e| format!("`{label}`: {e}"))?);
    }
    let input = named[0].2;
    if named.iter().any(|n| n.2 != input) {
        return Err(format!(
            "`{label}`: a multi-label is all inputs or all outputs"
        ));
    }
    named.sort_by(|a, b| a.0.cmp(&b.0));
    let gates: Vec<&str> = named.iter().map(|n| n.0.as_str()).collect();
    if !spec.sync.iter().any(|s| {
        let mut s = s.clone();
        s.sort();
        s == gates
    }) {
        return Err(format!(
            "`{label}`: the model's `@sync` does not list `{}`",
            gates.join(" | ")
        ));
    }
    let gate = gates.join("|");
    Ok((gate, named.into_iter().flat_map(|n| n.1).collect(), input))
}

fn parse_one(spec: &Spec, label: &str) -> Result<(String, Vec<Value>, bool), String> {
    let (gate, rest, dir) = match (label.find('?'), label.find('!')) {
        (Some(i), j) if j.is_none_or(|j| i < j) => (&label[..i], &label[i + 1..], Direction::Input),
        (_, Some(j)) => (&label[..j], &label[j + 1..], Direction::Output),
        _ => {
            return Err(format!(
                "`{label}` is neither an input (`?`) nor an output (`!`)"
            ))
        }
    };
    let g = spec
        .gates
        .iter()
        .find(|g| g.name == gate && g.dir == dir)
        .ok_or_else(|| format!("`{label}`: the model has no such gate `{gate}`"))?;
    let texts = match rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        Some(inner) => ioco_engine::trace::split_args(inner),
        None if rest.is_empty() => Vec::new(),
        None => return Err(format!("`{label}`: expected `{gate}(v1, …)`")),
    };
    if texts.len() != g.params.len() {
        return Err(format!(
            "`{label}`: gate `{gate}` has {} parameters, the label {} values",
            g.params.len(),
            texts.len()
        ));
    }
    let mut vals = Vec::new();
    for (t, (_, ty)) in texts.iter().zip(&g.params) {
        vals.push(parse_value(&spec.defs, *ty, t).map_err(|e| format!("`{label}`: {e}"))?);
    }
    Ok((gate.to_string(), vals, dir == Direction::Input))
}

/// Delta debugging (Zeller's ddmin): a 1-minimal sub-sequence of `items` for which `fails`
/// holds (assumed to hold for `items`), within `budget` calls of `fails`.
pub fn ddmin<T: Clone>(
    items: Vec<T>,
    budget: usize,
    mut fails: impl FnMut(&[T]) -> bool,
) -> Vec<T> {
    let mut cur = items;
    let mut calls = 0usize;
    let mut n = 2usize;
    while cur.len() >= 2 && calls < budget {
        let chunk = cur.len().div_ceil(n);
        let mut reduced = false;
        let mut start = 0;
        while start < cur.len() && calls < budget {
            let end = (start + chunk).min(cur.len());
            let cand: Vec<T> = cur[..start].iter().chain(&cur[end..]).cloned().collect();
            calls += 1;
            if fails(&cand) {
                cur = cand;
                n = (n - 1).max(2);
                reduced = true;
                break;
            }
            start = end;
        }
        if !reduced {
            if n >= cur.len() {
                break;
            }
            n = (2 * n).min(cur.len());
        }
    }
    if cur.len() == 1 && calls < budget && fails(&[]) {
        cur.clear();
    }
    cur
}

/// Parses a value of a type as written by [`Value::display`] (`42`, `-1`, `true`, `Red`,
/// `Plus(1,2)`, `"N22s"` with the escapes of [`ioco_lang::ir::quote`]): the value syntax of the
/// line wire format.
pub fn parse_value(defs: &Defs, ty: Type, s: &str) -> Result<Value, String> {
    let (v, rest) = parse_at(defs, ty, s.trim())?;
    if !rest.is_empty() {
        return Err(format!("unexpected {:?} after the value", rest));
    }
    if !value_in_type(defs, ty, &v) {
        return Err(format!("{} is not a value of {}", s, defs.type_name(ty)));
    }
    Ok(v)
}

fn parse_at<'a>(defs: &Defs, ty: Type, s: &'a str) -> Result<(Value, &'a str), String> {
    match ty {
        Type::Str(..) => {
            let (v, rest) = ioco_lang::ir::unquote(s)?;
            Ok((Value::Str(v.into()), rest))
        }
        Type::Bool => {
            for (w, b) in [("true", true), ("false", false)] {
                if let Some(rest) = s.strip_prefix(w) {
                    return Ok((Value::Bool(b), rest));
                }
            }
            Err(format!("expected true or false, found {:?}", s))
        }
        Type::Int | Type::Range(..) => {
            let end = s
                .char_indices()
                .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && c == '-')))
                .map(|(i, _)| i)
                .unwrap_or(s.len());
            let n: i64 = s[..end]
                .parse()
                .map_err(|_| format!("expected an integer, found {:?}", s))?;
            Ok((Value::Int(n), &s[end..]))
        }
        Type::Adt(a) => {
            let def = &defs.types[a as usize];
            let end = s
                .char_indices()
                .find(|&(_, c)| !(c.is_alphanumeric() || c == '_'))
                .map(|(i, _)| i)
                .unwrap_or(s.len());
            let name = &s[..end];
            let Some(ci) = def.ctors.iter().position(|c| c.name == name) else {
                return Err(format!("`{}` is not a constructor of {}", name, def.name));
            };
            let ctor = &def.ctors[ci];
            let mut rest = &s[end..];
            let mut fields = Vec::new();
            if !ctor.fields.is_empty() {
                rest = rest
                    .strip_prefix('(')
                    .ok_or_else(|| format!("expected `(` after {}", name))?;
                for (k, (_, fty)) in ctor.fields.iter().enumerate() {
                    if k > 0 {
                        rest = rest
                            .strip_prefix(',')
                            .ok_or_else(|| format!("expected `,` in {}", name))?;
                    }
                    let (v, r) = parse_at(defs, *fty, rest)?;
                    fields.push(v);
                    rest = r;
                }
                rest = rest
                    .strip_prefix(')')
                    .ok_or_else(|| format!("expected `)` after {}", name))?;
            }
            Ok((Value::Adt(a, ci as u32, fields.into()), rest))
        }
    }
}

type InputFn<S> = Box<dyn FnMut(&mut S, &str, &[Value]) -> Vec<GateValue>>;
type OutputFn<S> = Box<dyn FnMut(&mut S) -> Option<GateValue>>;

/// An in-process system: a state and two functions. `input(state, gate, args)` handles an
/// input; `output(state)` returns the next output, if any (outputs queue up and are delivered
/// before inputs are accepted, which models races).
pub struct InProcessSut<S> {
    init: S,
    state: S,
    input: InputFn<S>,
    pending: VecDeque<(String, Vec<Value>)>,
    spontaneous: OutputFn<S>,
}

impl<S: Clone> InProcessSut<S> {
    /// `input` returns the outputs an input causes; `spontaneous` an output the system emits by
    /// itself in its state (checked when nothing is pending).
    pub fn new(
        init: S,
        input: impl FnMut(&mut S, &str, &[Value]) -> Vec<(String, Vec<Value>)> + 'static,
        spontaneous: impl FnMut(&mut S) -> Option<(String, Vec<Value>)> + 'static,
    ) -> InProcessSut<S> {
        InProcessSut {
            state: init.clone(),
            init,
            input: Box::new(input),
            pending: VecDeque::new(),
            spontaneous: Box::new(spontaneous),
        }
    }

    fn next_output(&mut self) -> Option<(String, Vec<Value>)> {
        if let Some(o) = self.pending.pop_front() {
            return Some(o);
        }
        (self.spontaneous)(&mut self.state)
    }
}

impl<S: Clone> Sut<GateValue> for InProcessSut<S> {
    fn reset(&mut self) -> Result<(), SutError> {
        self.state = self.init.clone();
        self.pending.clear();
        Ok(())
    }

    fn send(&mut self, input: GateValue) -> Result<Sent<GateValue>, SutError> {
        let (gate, args) = (input.0.as_str(), &input.1[..]);
        // an output the system has ready (queued or spontaneous) wins the race
        if let Some((g, v)) = self.next_output() {
            return Ok(Sent::Raced((g, v)));
        }
        let outs = (self.input)(&mut self.state, gate, args);
        self.pending.extend(outs);
        Ok(Sent::Accepted)
    }

    fn observe(&mut self, _timeout: Option<Duration>) -> Result<Observation<GateValue>, SutError> {
        Ok(match self.next_output() {
            Some((g, v)) => Observation::Output((g, v)),
            None => Observation::Quiescent,
        })
    }
}

/// The spec simulated as a system under test: a conforming implementation (when the spec is
/// input-enabled where tested). Outputs are chosen with the solver; quiescence when the current
/// states allow it (or at random when outputs are optional: never, to stay conforming, the
/// simulator only goes quiet when some state is provably quiescent).
pub struct SpecSut {
    sim: SymbolicSpec,
    rng: ChaCha8Rng,
    /// Probability of emitting an output when one is possible and quiescence is also allowed.
    pub eagerness: f64,
}

impl SpecSut {
    /// Simulates `sim`'s spec with its own random generator.
    pub fn new(sim: SymbolicSpec, rng: ChaCha8Rng) -> SpecSut {
        SpecSut {
            sim,
            rng,
            eagerness: 0.7,
        }
    }
}

impl Sut<GateValue> for SpecSut {
    fn reset(&mut self) -> Result<(), SutError> {
        Ok(self.sim.reset()?)
    }

    fn send(&mut self, input: GateValue) -> Result<Sent<GateValue>, SutError> {
        let (gate, args) = (input.0.as_str(), &input.1[..]);
        match self.sim.after_input(gate, args) {
            Step::Ok => Ok(Sent::Accepted),
            // an input the spec does not specify: the simulator ignores it (input-enabled
            // completion by a self-loop is not expressible here, so report it)
            other => Err(SutError::Broken(format!(
                "simulator cannot take {}: {:?}",
                gate, other
            ))),
        }
    }

    fn observe(&mut self, _timeout: Option<Duration>) -> Result<Observation<GateValue>, SutError> {
        let states = self.sim.states().to_vec();
        let quiet_ok = states
            .iter()
            .any(|q| self.sim.quiescence(q) == crate::tracker::Quiescence::Quiescent);
        if !quiet_ok || self.rng.random_bool(self.eagerness) {
            if let Some((g, v)) = self.sim.choose_output(&mut self.rng) {
                if self.sim.after_output(&g, &v) == Step::Ok {
                    return Ok(Observation::Output((g, v)));
                }
            }
        }
        if quiet_ok {
            self.sim.after_quiescence();
            Ok(Observation::Quiescent)
        } else {
            Err(SutError::Broken(
                "the simulator found no output and is not provably quiescent".into(),
            ))
        }
    }
}
