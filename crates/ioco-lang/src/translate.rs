//! Explicit translation of a [`Spec`] to an [`ioco_model::Lts`], by breadth-first exploration of
//! its [`Semantics`] ([`Composed`]): states are the reachable semantic states, named as in
//! [`Semantics::describe`] (`idle{total=0}`, `(s0,t1)`), labels as documented in
//! [`crate::semantics`].

use crate::ir::Spec;
use crate::semantics::{Composed, SemError, Semantics};
use crate::span::Span;
use ioco_model::{Lts, LtsBuilder};
use rustc_hash::FxHashMap;
use std::time::Duration;

/// Limits of the translation.
#[derive(Clone, Debug)]
pub struct Options {
    /// At most this many states (an error beyond).
    pub max_states: usize,
    /// At most this many transitions (an error beyond): with many components in parallel,
    /// each state has many transitions, and the transitions, not the states, fill the memory.
    pub max_transitions: usize,
    /// At most this many values held in the explored states (a composed state holds, per
    /// automaton, its location and its variables): bounds the memory of compositions of many
    /// components, whose states are large, where `max_states` alone would not.
    pub max_state_cells: usize,
    /// At most this many values enumerated for one gate or one switch.
    pub max_values: usize,
    /// Give states readable names (costs memory on big models).
    pub state_names: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_states: 1_000_000,
            max_transitions: 20_000_000,
            max_state_cells: 10_000_000,
            max_values: 100_000,
            state_names: true,
        }
    }
}

/// Explores `sem` from its initial states into an explicit LTS.
pub fn explore<S: Semantics>(sem: &S, opts: &Options, err_span: Span) -> Result<Lts, SemError> {
    explore_states(sem, opts, err_span).map(|(lts, _)| lts)
}

/// [`explore`], also returning the semantic state of every LTS state (state `i` of the LTS is
/// `states[i]`).
pub fn explore_states<S: Semantics>(
    sem: &S,
    opts: &Options,
    err_span: Span,
) -> Result<(Lts, Vec<S::State>), SemError> {
    let mut index: FxHashMap<S::State, u32> = FxHashMap::default();
    let mut states: Vec<S::State> = Vec::new();
    let mut edges: Vec<(u32, ioco_model::Label, u32)> = Vec::new();
    for s in sem.initial() {
        if !index.contains_key(&s) {
            index.insert(s.clone(), states.len() as u32);
            states.push(s);
        }
    }
    let n_init = states.len();
    let mut next = 0;
    while next < states.len() {
        let s = states[next].clone();
        let mut row: Vec<(ioco_model::Label, u32)> = Vec::new();
        for (l, t) in sem.successors(&s)? {
            let id = match index.get(&t) {
                Some(i) => *i,
                None => {
                    if states.len() >= opts.max_states {
                        return Err(SemError {
                            message: format!("more than {} reachable states", opts.max_states),
                            span: err_span,
                            help: Some("test this model online (on the fly) instead of translating it, or bound its variables".into()),
                        });
                    }
                    let i = states.len() as u32;
                    index.insert(t.clone(), i);
                    states.push(t);
                    i
                }
            };
            row.push((l, id));
        }
        // an LTS is a set of transitions: the same (label, target) reached by different
        // switches or components is one transition
        row.sort_unstable();
        row.dedup();
        if edges.len() + row.len() > opts.max_transitions {
            return Err(SemError {
                message: format!(
                    "more than {} transitions ({} states explored so far)",
                    opts.max_transitions,
                    next + 1
                ),
                span: err_span,
                help: Some("test this model online (on the fly) instead of translating it, or compose fewer processes".into()),
            });
        }
        edges.extend(row.into_iter().map(|(l, t)| (next as u32, l, t)));
        next += 1;
    }
    let mut b = LtsBuilder::new(sem.alphabet());
    b.add_states(states.len());
    for i in 0..n_init {
        b.add_initial(i as u32);
    }
    b.reserve(edges.len());
    for (s, l, t) in edges {
        b.add_transition(s, l, t);
    }
    if opts.state_names {
        b.set_state_names(states.iter().map(|s| sem.describe(s)).collect());
    }
    let lts = b.build().map_err(|e| SemError {
        message: e.to_string(),
        span: err_span,
        help: None,
    })?;
    Ok((lts, states))
}

/// Translates a spec with finite data to an explicit LTS.
pub fn to_lts(spec: &Spec, opts: &Options) -> Result<Lts, SemError> {
    let sem = Composed::new(spec, opts.max_values);
    let span = spec.automata.first().map(|a| a.span).unwrap_or_default();
    explore(&sem, &within_cells(spec, opts), span)
}

/// `opts` with `max_states` lowered so that the explored states hold at most
/// `max_state_cells` values.
fn within_cells(spec: &Spec, opts: &Options) -> Options {
    let cells: usize = spec
        .automata
        .iter()
        .map(|a| 1 + a.vars.len())
        .sum::<usize>()
        .max(1);
    Options {
        max_states: opts.max_states.min((opts.max_state_cells / cells).max(1)),
        ..opts.clone()
    }
}

/// The quiescence timeouts (`@timeout`, docs/language.md §8) of a translated spec, attached to
/// the states and labels of its LTS, for test drivers (the LTS itself does not change).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timing {
    /// `@timeout` of the model; for a system, the largest over the models it composes.
    pub model: Option<Duration>,
    /// Every location of every automaton of the composition: (automaton name, location name,
    /// its `@timeout`), automaton by automaton in [`Spec::automata`] order.
    pub locations: Vec<(String, String, Option<Duration>)>,
    /// Number of automata `k`: LTS state `s` is in the locations
    /// `state_locations[s*k..(s+1)*k]` (indices into `locations`, one per automaton).
    pub automata: usize,
    /// See [`Timing::automata`].
    pub state_locations: Vec<u32>,
    /// The visible gates of the spec ([`Spec::gates`]): (name, its `@timeout`).
    pub gates: Vec<(String, Option<Duration>)>,
    /// Per label of the LTS's alphabet (by index): the gate it is a value of (index into
    /// `gates`); `None` for τ and δ.
    pub label_gates: Vec<Option<u32>>,
}

impl Timing {
    /// The locations LTS state `s` is in (indices into [`Timing::locations`]).
    pub fn locations_of(&self, s: u32) -> &[u32] {
        let k = self.automata;
        self.state_locations
            .get(s as usize * k..(s as usize + 1) * k)
            .unwrap_or(&[])
    }
}

/// [`to_lts`], also returning the `@timeout`s of the spec per LTS state and label ([`Timing`]).
pub fn to_lts_timed(spec: &Spec, opts: &Options) -> Result<(Lts, Timing), SemError> {
    let sem = Composed::new(spec, opts.max_values);
    let span = spec.automata.first().map(|a| a.span).unwrap_or_default();
    let (lts, states) = explore_states(&sem, &within_cells(spec, opts), span)?;
    // A composed state is flat: per automaton, its location then its variables.
    let mut offsets = Vec::new();
    let mut first_loc = Vec::new();
    let (mut off, mut locations) = (0, Vec::new());
    for a in &spec.automata {
        offsets.push(off);
        off += 1 + a.vars.len();
        first_loc.push(locations.len() as u32);
        for l in &a.locations {
            locations.push((a.name.clone(), l.name.clone(), l.timeout));
        }
    }
    let k = spec.automata.len();
    let mut state_locations = Vec::with_capacity(states.len() * k);
    for st in &states {
        for (ai, &o) in offsets.iter().enumerate() {
            let loc = st.get(o).and_then(|v| v.as_int()).unwrap_or(0) as u32;
            state_locations.push(first_loc[ai] + loc);
        }
    }
    let gates: Vec<(String, Option<Duration>)> = spec
        .gates
        .iter()
        .map(|g| (g.name.clone(), g.timeout))
        .collect();
    let alphabet = lts.alphabet();
    let label_gates = alphabet
        .all()
        .map(|l| {
            if l.is_tau() || l == ioco_model::Label::DELTA {
                return None;
            }
            let name = alphabet.name(l);
            let gate = name.split('(').next().unwrap_or(name);
            gates.iter().position(|g| g.0 == gate).map(|i| i as u32)
        })
        .collect();
    let timing = Timing {
        model: spec.automata.iter().filter_map(|a| a.timeout).max(),
        locations,
        automata: k,
        state_locations,
        gates,
        label_gates,
    };
    Ok((lts, timing))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timing_follows_states_and_labels_through_a_composition() {
        let src = "@timeout(300ms)
model Brew {
  input button
  @timeout(2s)
  output coffee
  @timeout(1500ms)
  location brewing
  location idle
  init idle
  idle -- button? --> brewing
  brewing -- coffee! --> idle
}
@timeout(100ms)
model Lamp {
  input press
  output on
  init dark
  dark -- press? --> lit
  lit -- on! --> dark
}
system Both { Brew ||| Lamp }";
        let model = crate::parse_str("t.ioco", src).unwrap();
        let spec = model.entry().unwrap();
        let (lts, t) = to_lts_timed(spec, &Options::default()).unwrap();
        assert_eq!(lts.num_states(), 4);
        assert_eq!(t.model, Some(Duration::from_millis(300)));
        assert_eq!(t.automata, 2);
        let a = lts.alphabet();
        let coffee = a.lookup("coffee").unwrap();
        let g = t.label_gates[coffee.index()].unwrap() as usize;
        assert_eq!(t.gates[g], ("coffee".into(), Some(Duration::from_secs(2))));
        let on = a.lookup("on").unwrap();
        assert_eq!(t.gates[t.label_gates[on.index()].unwrap() as usize].1, None);
        assert_eq!(t.label_gates[ioco_model::Label::DELTA.index()], None);
        // a state is in `brewing` exactly when its name says so
        for s in lts.states() {
            let locs: Vec<&str> = t
                .locations_of(s)
                .iter()
                .map(|&i| t.locations[i as usize].1.as_str())
                .collect();
            let name = lts.state_name(s);
            assert_eq!(
                locs.contains(&"brewing"),
                name.contains("brewing"),
                "{name}"
            );
            let brewing_timeout = t
                .locations_of(s)
                .iter()
                .filter_map(|&i| t.locations[i as usize].2)
                .max();
            assert_eq!(
                brewing_timeout.is_some(),
                name.contains("brewing"),
                "{name}"
            );
        }
    }
}
