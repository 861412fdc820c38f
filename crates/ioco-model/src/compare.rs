//! Deciding `impl ioco spec` for finite models (tutorial Def. 6.1; thesis Def. 2.6).
//!
//! `i ioco s` iff for every suspension trace σ of `s`: out(i after σ) ⊆ out(s after σ).
//! Both suspension automata are explored lazily, as a product of pairs (impl state, spec
//! state) reached by the same suspension trace, breadth first, so the first violation found
//! has a shortest σ. Cost: O(pairs × labels) after the two (lazy) subset constructions; for
//! deterministic models, O(|S_i|·|S_s|·|L|).
//!
//! The implementation must be input-enabled (tutorial P1:L219), weakly: every input is
//! enabled after internal steps (`s =a=>`, tutorial Def. 4.3). [`InputCompletion`] chooses
//! what happens when it is not: an error, or angelic completion (missing inputs are ignored:
//! self-loops, tutorial Lemma A.1, only where the input is not enabled after internal steps
//! either: [`Lts::weak_angelic_completion`]). Angelic is the default: it is how a real program that
//! discards an unexpected input behaves, and the comparison stays meaningful for model files
//! that leave inputs implicit; the number of completed (state, input) pairs is reported so the
//! user sees that it happened.

use crate::label::{Label, LabelKind};
use crate::lts::{Lts, QuiescencePolicy};
use crate::suspension::{SaState, Suspension};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// What to do with an implementation that is not input-enabled.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum InputCompletion {
    /// Refuse: report the first state and input that is missing.
    Require,
    /// Complete angelically: a missing input is a self-loop (the input is ignored).
    #[default]
    Angelic,
}

/// Options of [`compare`].
#[derive(Clone, Debug, Default)]
pub struct CompareOptions {
    /// Quiescence of both models.
    pub policy: QuiescencePolicy,
    /// How a non-input-enabled implementation is treated.
    pub completion: InputCompletion,
    /// Stop with [`CompareError::TooLarge`] after this many product pairs (`None`: no limit).
    pub max_pairs: Option<usize>,
    /// Stop with [`CompareError::TooMuchMemory`] when the exploration holds more than this many
    /// bytes (both suspension automata and the product; checked as it grows, `None`: no
    /// limit). Sets of specification states make a pair cost anything from ~40 bytes (a
    /// deterministic model) to kilobytes, so a bound on pairs alone does not bound memory.
    pub max_memory: Option<usize>,
    /// ioco, or uioco (only Utraces of the specification: [`crate::uioco`]).
    pub relation: crate::Relation,
}

/// A shortest witness of non-conformance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// The suspension trace σ, in the specification's labels.
    pub trace: Vec<Label>,
    /// The output (or δ) the implementation can show after σ, as the user writes it (`b!`, `δ`).
    pub observed: String,
    /// out(spec after σ), in the specification's labels.
    pub allowed: Vec<Label>,
}

/// The result of [`compare`].
#[derive(Clone, Debug)]
pub struct Comparison {
    /// `None` when `impl ioco spec`.
    pub counterexample: Option<Counterexample>,
    /// Product pairs explored.
    pub pairs: usize,
    /// Suspension states of the implementation discovered.
    pub impl_states: usize,
    /// Suspension states of the specification discovered.
    pub spec_states: usize,
    /// (state, input) pairs added by angelic completion.
    pub completed_inputs: usize,
}

impl Comparison {
    /// True when the implementation conforms.
    pub fn conforms(&self) -> bool {
        self.counterexample.is_none()
    }
}

/// Why [`compare`] could not decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompareError {
    /// The implementation is not input-enabled and [`InputCompletion::Require`] was asked for.
    NotInputEnabled {
        /// The implementation state.
        state: String,
        /// The input it does not enable.
        input: String,
    },
    /// A label is an input in one model and an output in the other.
    KindMismatch {
        /// The label's name.
        name: String,
        /// Its kind in the specification.
        spec: LabelKind,
        /// Its kind in the implementation.
        implementation: LabelKind,
    },
    /// More product pairs than the limit.
    TooLarge {
        /// The limit.
        limit: usize,
    },
    /// More memory than the limit ([`CompareOptions::max_memory`]).
    TooMuchMemory {
        /// The limit, in bytes.
        limit: usize,
        /// Product pairs explored when it was reached.
        pairs: usize,
        /// Suspension states of the specification discovered by then.
        spec_states: usize,
    },
}

impl std::fmt::Display for CompareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompareError::NotInputEnabled { state, input } => write!(
                f,
                "the implementation is not input-enabled: state {state} does not accept {input}?"
            ),
            CompareError::KindMismatch {
                name,
                spec,
                implementation,
            } => write!(
                f,
                "label `{name}` is {spec:?} in the specification but {implementation:?} in the implementation"
            ),
            CompareError::TooLarge { limit } => {
                write!(f, "gave up after {limit} product states")
            }
            CompareError::TooMuchMemory {
                limit,
                pairs,
                spec_states,
            } => write!(
                f,
                "gave up at the memory bound of {} MiB, after {pairs} product states \
                 ({spec_states} sets of specification states): the suspension automaton \
                 explodes",
                limit >> 20
            ),
        }
    }
}

impl std::error::Error for CompareError {}

/// Decide `implementation ioco specification`.
pub fn compare(
    implementation: &Lts,
    spec: &Lts,
    opts: &CompareOptions,
) -> Result<Comparison, CompareError> {
    // Give the implementation every label of the specification, so that inputs it never
    // mentions count as "not enabled" and outputs compare by name.
    let sa = spec.alphabet();
    let mut b = implementation.clone().into_builder();
    for l in sa.visible() {
        let kind = sa.kind(l);
        b.alphabet_mut()
            .intern(sa.name(l), kind)
            .map_err(|c| CompareError::KindMismatch {
                name: c.name,
                spec: kind,
                implementation: c.existing,
            })?;
    }
    let mut imp = b.build().expect("same states as before");
    let mut completed_inputs = 0;
    // Only reachable states matter for ioco.
    let reachable = imp.reachable();
    // weakly: an input enabled after internal steps is enabled (tutorial Def. 4.3)
    let violations: Vec<_> = imp
        .weak_input_enabledness_violations()
        .into_iter()
        .filter(|&(s, _)| reachable[s as usize])
        .collect();
    if !violations.is_empty() {
        match opts.completion {
            InputCompletion::Require => {
                let (s, a) = violations[0];
                return Err(CompareError::NotInputEnabled {
                    state: imp.state_name(s),
                    input: imp.alphabet().name(a).to_string(),
                });
            }
            InputCompletion::Angelic => {
                completed_inputs = violations.len();
                imp = imp.weak_angelic_completion();
            }
        }
    }
    let to_spec = imp.alphabet().translation_to(sa);
    let ia = imp.alphabet();

    let mut si = Suspension::new(&imp, opts.policy);
    let mut ss = Suspension::new(spec, opts.policy);
    let mut seen: FxHashMap<(SaState, SaState), u32> = FxHashMap::default();
    // parent index and the label (spec alphabet) that led to each pair
    let mut parent: Vec<(u32, Label)> = Vec::new();
    let mut pairs: Vec<(SaState, SaState)> = Vec::new();
    let mut queue = VecDeque::new();
    let start = (si.initial(), ss.initial());
    seen.insert(start, 0);
    pairs.push(start);
    parent.push((u32::MAX, Label::TAU));
    queue.push_back(0u32);
    while let Some(idx) = queue.pop_front() {
        let (qi, qs) = pairs[idx as usize];
        ss.successors(qs);
        let succ_i = si.successors(qi);
        // out(i) ⊆ out(s)?
        let violation = succ_i.iter().map(|p| p.0).find(|&li| {
            ia.kind(li).is_observable_output()
                && to_spec[li.index()].is_none_or(|ls| ss.step(qs, ls).is_none())
        });
        {
            if let Some(li) = violation {
                let spec_out = ss.out(qs);
                let mut trace = Vec::new();
                let mut k = idx;
                while parent[k as usize].0 != u32::MAX {
                    trace.push(parent[k as usize].1);
                    k = parent[k as usize].0;
                }
                trace.reverse();
                return Ok(Comparison {
                    counterexample: Some(Counterexample {
                        trace,
                        observed: ia.display(li),
                        allowed: spec_out,
                    }),
                    pairs: pairs.len(),
                    impl_states: si.num_discovered(),
                    spec_states: ss.num_discovered(),
                    completed_inputs,
                });
            }
        }
        let n_succ = si.successors(qi).len();
        for k in 0..n_succ {
            let (li, ti) = si.successors(qi)[k];
            let Some(ls) = to_spec[li.index()] else {
                continue; // an input the specification does not know: unconstrained
            };
            if opts.relation == crate::Relation::Uioco
                && sa.is_input(ls)
                && crate::uioco::underspecified(spec, ss.set(qs), ls)
            {
                continue; // no Utrace: a state of the specification refuses the input
            }
            let Some(ts) = ss.step(qs, ls) else {
                continue; // an unspecified input: anything may follow
            };
            let key = (ti, ts);
            if let std::collections::hash_map::Entry::Vacant(slot) = seen.entry(key) {
                let n = pairs.len() as u32;
                if let Some(limit) = opts.max_pairs {
                    if n as usize >= limit {
                        return Err(CompareError::TooLarge { limit });
                    }
                }
                if let Some(limit) = opts.max_memory {
                    // checked every 4096 pairs: a few MB of growth at most between checks
                    if n.is_multiple_of(4096) {
                        let held = si.heap_bytes()
                            + ss.heap_bytes()
                            // the map of seen pairs: a power-of-two table, 7/8 full at most
                            + (n as usize * 8 / 7 + 1).next_power_of_two()
                                * (std::mem::size_of::<((SaState, SaState), u32)>() + 1)
                            + pairs.capacity() * std::mem::size_of::<(SaState, SaState)>()
                            + parent.capacity() * std::mem::size_of::<(u32, Label)>()
                            + queue.capacity() * std::mem::size_of::<u32>();
                        if held > limit {
                            return Err(CompareError::TooMuchMemory {
                                limit,
                                pairs: n as usize,
                                spec_states: ss.num_discovered(),
                            });
                        }
                    }
                }
                slot.insert(n);
                pairs.push(key);
                parent.push((idx, ls));
                queue.push_back(n);
            }
        }
    }
    Ok(Comparison {
        counterexample: None,
        pairs: pairs.len(),
        impl_states: si.num_discovered(),
        spec_states: ss.num_discovered(),
        completed_inputs,
    })
}

/// Convenience for tests and callers without a name table: the set of implementation states
/// the counterexample trace reaches is not needed, but the trace is re-checkable.
pub fn is_suspension_trace(lts: &Lts, policy: QuiescencePolicy, trace: &[Label]) -> bool {
    Suspension::new(lts, policy).run(trace).is_some()
}
