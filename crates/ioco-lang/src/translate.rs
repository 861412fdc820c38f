//! Explicit translation of a [`Spec`] to an [`ioco_model::Lts`], by breadth-first exploration of
//! its [`Semantics`] ([`Composed`]): states are the reachable semantic states, named as in
//! [`Semantics::describe`] (`idle{total=0}`, `(s0,t1)`), labels as documented in
//! [`crate::semantics`].

use crate::ir::Spec;
use crate::semantics::{Composed, SemError, Semantics};
use crate::span::Span;
use ioco_model::{Lts, LtsBuilder};
use rustc_hash::FxHashMap;

/// Limits of the translation.
#[derive(Clone, Debug)]
pub struct Options {
    /// At most this many states (an error beyond).
    pub max_states: usize,
    /// At most this many values enumerated for one gate or one switch.
    pub max_values: usize,
    /// Give states readable names (costs memory on big models).
    pub state_names: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_states: 1_000_000,
            max_values: 100_000,
            state_names: true,
        }
    }
}

/// Explores `sem` from its initial states into an explicit LTS.
pub fn explore<S: Semantics>(sem: &S, opts: &Options, err_span: Span) -> Result<Lts, SemError> {
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
    b.build().map_err(|e| SemError {
        message: e.to_string(),
        span: err_span,
        help: None,
    })
}

/// Translates a spec with finite data to an explicit LTS.
pub fn to_lts(spec: &Spec, opts: &Options) -> Result<Lts, SemError> {
    let sem = Composed::new(spec, opts.max_values);
    let span = spec.automata.first().map(|a| a.span).unwrap_or_default();
    explore(&sem, opts, span)
}
