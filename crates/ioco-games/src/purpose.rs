//! Finite test purposes (seed 004 §2: Def. 3–5 and the off-line selection of Table 2, as in
//! TGV), with online steering.
//!
//! A *test purpose* is a deterministic automaton over the specification's labels whose states
//! named `accept*` are the Accept sinks and `refuse*` the Refuse sinks. It is read from any
//! model that becomes an LTS: a `.ioco` model whose locations are named so (the CLI's
//! `--purpose`, examples/purposes/), an `.aut` file, or the LTS builder. A label a state does
//! not mention leaves the purpose where it is (implicit self-loop, the usual completion
//! "complete except in Accept", 004 Def. 4). Purposes over specifications with unbounded data
//! are the symbolic ones of the `ioco-stg` crate.
//!
//! Table 2:
//! 1. P = S × TP, the synchronous product of the specification's suspension automaton and the
//!    purpose; Pass = the states whose purpose part accepts (Traces_Pass(P) = ATraces).
//! 2. C = coreach_P(Pass). Inputs leaving C are dropped; outputs leaving C lead to
//!    **Inconclusive** (the trace is refused: it cannot be extended to an accepted one).
//! 3. Every output the specification does not allow leads to **Fail**.
//!
//! The test graph of Table 2 may have cycles and offers every kept input, while a
//! [`TestCase`] is a tree with one input per node, so the tester must choose: this module
//! chooses with the joker strategy of the product towards Pass ([`mod@crate::joker`]): Joker(Pass)
//! = coreach(Pass) (thesis Thm 6.13), and the strategy takes the fewest cooperations of the
//! system, then the fewest moves. A forced win (attractor, J-Rank 0) is taken whenever one
//! exists. The same ranks steer online ([`PurposeProduct::advise`]). An outcome inside C whose
//! rank does not decrease ends the tree with Inconclusive after [`PurposeOptions::budget`]
//! such steps (reason "step bound"), so the tree is finite; online play has no such bound.

use crate::arena::{Arena, Assumption};
use crate::goal::Goal;
use crate::joker::joker_game;
use crate::strategy::{Advice, Step, Strategy};
use crate::{check_sa, GameError, DEFAULT_MAX_NODES};
use ioco_gen::{TestCase, Verdict};
use ioco_model::{Label, Lts, LtsBuilder, State};
use std::collections::HashMap;
use std::fmt;

/// A test purpose: an automaton with accept and refuse states.
#[derive(Clone, Debug)]
pub struct Purpose {
    lts: Lts,
    accept: Vec<bool>,
    refuse: Vec<bool>,
}

/// Errors of test purposes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PurposeError {
    /// The purpose automaton is malformed.
    Invalid(String),
    /// A purpose label is not a label of the specification.
    UnknownLabel {
        /// The label as written.
        label: String,
        /// A suggestion.
        hint: String,
    },
    /// No trace of the specification is accepted by the purpose.
    CannotBeMet(String),
    /// The specification is not a suspension automaton, or the test is too large.
    Game(GameError),
}

impl fmt::Display for PurposeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PurposeError::Invalid(m) => write!(f, "invalid test purpose: {m}"),
            PurposeError::UnknownLabel { label, hint } => write!(
                f,
                "test purpose label `{label}` is not a label of the specification ({hint})"
            ),
            PurposeError::CannotBeMet(m) => write!(f, "the test purpose cannot be met: {m}"),
            PurposeError::Game(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PurposeError {}

impl From<GameError> for PurposeError {
    fn from(e: GameError) -> Self {
        PurposeError::Game(e)
    }
}

impl Purpose {
    /// Read a purpose from an LTS whose states named `accept*` / `refuse*` are the accept and
    /// refuse states. It must be deterministic, without τ, and have an accept state.
    pub fn from_lts(lts: Lts) -> Result<Purpose, PurposeError> {
        let Some(names) = lts.state_names() else {
            return Err(PurposeError::Invalid(
                "its states have no names; name the accepting states `accept…` (and the \
                 refusing ones `refuse…`)"
                    .into(),
            ));
        };
        let accept: Vec<bool> = names.iter().map(|n| n.starts_with("accept")).collect();
        let refuse: Vec<bool> = names.iter().map(|n| n.starts_with("refuse")).collect();
        if !accept.iter().any(|&a| a) {
            return Err(PurposeError::Invalid(format!(
                "no state is named `accept…` (states: {})",
                names.join(", ")
            )));
        }
        if lts.initial().len() != 1 {
            return Err(PurposeError::Invalid(format!(
                "it has {} initial states; a purpose needs exactly one",
                lts.initial().len()
            )));
        }
        for q in lts.states() {
            let es = lts.edges(q);
            if let Some(e) = es.iter().find(|e| e.label == Label::TAU) {
                return Err(PurposeError::Invalid(format!(
                    "state {} has a τ-transition (to {}); purposes must be deterministic",
                    lts.state_name(q),
                    lts.state_name(e.target)
                )));
            }
            if let Some(w) = es.windows(2).find(|w| w[0].label == w[1].label) {
                return Err(PurposeError::Invalid(format!(
                    "state {} has two {}-transitions; purposes must be deterministic",
                    lts.state_name(q),
                    lts.alphabet().display(w[0].label)
                )));
            }
        }
        Ok(Purpose {
            lts,
            accept,
            refuse,
        })
    }

    /// The purpose automaton.
    pub fn lts(&self) -> &Lts {
        &self.lts
    }
}

/// Options of [`PurposeProduct::test_case`].
#[derive(Clone, Debug)]
pub struct PurposeOptions {
    /// How input/output races are resolved when choosing (default: nondeterministic, as in
    /// ioco and TGV).
    pub assumption: Assumption,
    /// Non-decreasing steps a test may take inside coreach before Inconclusive.
    pub budget: u32,
    /// The largest test-case tree built.
    pub max_nodes: usize,
}

impl Default for PurposeOptions {
    fn default() -> Self {
        PurposeOptions {
            assumption: Assumption::Nondeterministic,
            budget: 0,
            max_nodes: DEFAULT_MAX_NODES,
        }
    }
}

/// The product S × TP with its coreachability analysis and steering strategy (Table 2).
#[derive(Clone, Debug)]
pub struct PurposeProduct {
    /// The product automaton (deterministic, explicit δ; initial state 0). Accept and refuse
    /// states are sinks.
    pub lts: Lts,
    /// (specification state, purpose state) per product state.
    pub pairs: Vec<(State, State)>,
    accept: Vec<bool>,
    refuse: Vec<bool>,
    coreach: Vec<bool>,
    /// The steering strategy (joker strategy towards Pass).
    pub strategy: Strategy,
    /// J-Rank of the initial state: 0 when the tester can force Pass.
    pub jokers: u32,
}

impl PurposeProduct {
    /// Build P = S × TP and solve it.
    pub fn build(
        spec_sa: &Lts,
        purpose: &Purpose,
        opts: &PurposeOptions,
    ) -> Result<PurposeProduct, PurposeError> {
        check_sa(spec_sa)?;
        let sa = spec_sa.alphabet();
        let pl = &purpose.lts;
        let pa = pl.alphabet();
        // Purpose labels in the specification's alphabet.
        let mut to_spec: Vec<Option<Label>> = vec![None; pa.len()];
        to_spec[Label::DELTA.index()] = Some(Label::DELTA);
        for l in pa.visible() {
            let name = pa.name(l);
            match sa.lookup_kind(name, pa.kind(l)).or_else(|| sa.lookup(name)) {
                Some(s) if sa.kind(s) == pa.kind(l) => to_spec[l.index()] = Some(s),
                Some(s) => {
                    return Err(PurposeError::UnknownLabel {
                        label: pa.display(l),
                        hint: format!("the specification has {}", sa.display(s)),
                    })
                }
                None => {
                    let names: Vec<String> = sa.visible().map(|x| sa.display(x)).collect();
                    let best = names
                        .iter()
                        .map(|c| (strsim::jaro_winkler(&pa.display(l), c), c))
                        .max_by(|a, b| a.0.total_cmp(&b.0));
                    let hint = match best {
                        Some((s, c)) if s > 0.75 => format!("did you mean `{c}`?"),
                        _ => format!("its labels are {}", names.join(", ")),
                    };
                    return Err(PurposeError::UnknownLabel {
                        label: pa.display(l),
                        hint,
                    });
                }
            }
        }
        // For each purpose state, its successor per specification label.
        let psucc = |p: State, l: Label| -> State {
            for e in pl.edges(p) {
                if to_spec[e.label.index()] == Some(l) {
                    return e.target;
                }
            }
            p
        };
        let mut index: HashMap<(State, State), State> = HashMap::new();
        let mut pairs = vec![(spec_sa.initial()[0], pl.initial()[0])];
        index.insert(pairs[0], 0);
        let mut b = LtsBuilder::new(sa.clone());
        let mut i = 0;
        while i < pairs.len() {
            let (s, p) = pairs[i];
            let src = i as State;
            i += 1;
            if purpose.accept[p as usize] || purpose.refuse[p as usize] {
                continue;
            }
            for e in spec_sa.edges(s) {
                let key = (e.target, psucc(p, e.label));
                let t = *index.entry(key).or_insert_with(|| {
                    pairs.push(key);
                    (pairs.len() - 1) as State
                });
                b.add_transition(src, e.label, t);
            }
        }
        b.ensure_states(pairs.len());
        b.add_initial(0);
        b.set_state_names(
            pairs
                .iter()
                .map(|&(s, p)| format!("({},{})", spec_sa.state_name(s), pl.state_name(p)))
                .collect(),
        );
        let lts = b.build().expect("product is well formed");
        let accept: Vec<bool> = pairs
            .iter()
            .map(|&(_, p)| purpose.accept[p as usize])
            .collect();
        let refuse: Vec<bool> = pairs
            .iter()
            .map(|&(_, p)| purpose.refuse[p as usize])
            .collect();
        let accepting: Vec<State> = (0..pairs.len() as State)
            .filter(|&q| accept[q as usize])
            .collect();
        let goal = Goal::of_states(&lts, &accepting);
        let arena = Arena::of_sa(&lts, &goal, opts.assumption);
        let sol = joker_game(&arena);
        let coreach: Vec<bool> = (0..pairs.len() as u32).map(|q| sol.contains(q)).collect();
        let Some((jokers, _)) = sol.rank(0) else {
            return Err(PurposeError::CannotBeMet(format!(
                "no trace of the specification reaches an accept state of the purpose \
                 ({} product states explored, {} accepting)",
                pairs.len(),
                accepting.len()
            )));
        };
        let strategy = Strategy::from_solution(&lts, &arena, &sol, &goal, opts.assumption);
        Ok(PurposeProduct {
            lts,
            pairs,
            accept,
            refuse,
            coreach,
            strategy,
            jokers,
        })
    }

    /// True when product state `q` accepts (Pass).
    pub fn is_accept(&self, q: State) -> bool {
        self.accept[q as usize]
    }

    /// True when product state `q` is a refuse state of the purpose.
    pub fn is_refuse(&self, q: State) -> bool {
        self.refuse[q as usize]
    }

    /// True when an accept state is still reachable from `q` (q ∈ coreach(Pass)).
    pub fn in_coreach(&self, q: State) -> bool {
        self.coreach[q as usize]
    }

    /// The inputs the complete test graph keeps at `q` (rule KeepI: the target stays in C).
    pub fn kept_inputs(&self, q: State) -> Vec<Label> {
        let a = self.lts.alphabet();
        if !self.in_coreach(q) || self.is_accept(q) {
            return Vec::new();
        }
        self.lts
            .edges(q)
            .iter()
            .filter(|e| a.is_input(e.label) && self.in_coreach(e.target))
            .map(|e| e.label)
            .collect()
    }

    /// The outputs (δ included) that lead to Inconclusive at `q` (rule Inconc: allowed by the
    /// specification, but the target is outside C).
    pub fn inconclusive_outputs(&self, q: State) -> Vec<Label> {
        let a = self.lts.alphabet();
        if !self.in_coreach(q) || self.is_accept(q) {
            return Vec::new();
        }
        self.lts
            .edges(q)
            .iter()
            .filter(|e| {
                (e.label == Label::DELTA || a.is_output(e.label)) && !self.in_coreach(e.target)
            })
            .map(|e| e.label)
            .collect()
    }

    /// Online steering: what to do in product state `q`.
    pub fn advise(&self, q: State) -> Advice {
        if self.is_refuse(q) {
            return Advice::Stop(
                Verdict::Inconclusive,
                format!("refused by the test purpose at {}", self.lts.state_name(q)),
            );
        }
        if !self.is_accept(q) && !self.in_coreach(q) {
            return Advice::Stop(
                Verdict::Inconclusive,
                format!(
                    "the purpose can no longer be accepted from {}",
                    self.lts.state_name(q)
                ),
            );
        }
        self.strategy.advise(&self.lts, q)
    }

    /// Online steering: feed the label that happened in product state `q`.
    pub fn step(&self, q: State, l: Label) -> Step {
        self.strategy.step(&self.lts, q, l)
    }

    /// The test case (Pass on accept, Inconclusive on refused traces, Fail on outputs the
    /// specification forbids).
    pub fn test_case(&self, opts: &PurposeOptions) -> Result<TestCase, PurposeError> {
        self.strategy
            .test_case(
                &self.lts,
                opts.budget,
                opts.max_nodes,
                "refused: the test purpose can no longer be accepted",
            )
            .map_err(|_| {
                PurposeError::Game(GameError::TestTooLarge {
                    limit: opts.max_nodes,
                })
            })
    }
}

/// The test case of a test purpose on a specification's suspension automaton (Table 2 with
/// the steering of [`PurposeProduct`]).
pub fn purpose_test(spec_sa: &Lts, purpose: &Purpose) -> Result<TestCase, PurposeError> {
    let opts = PurposeOptions::default();
    PurposeProduct::build(spec_sa, purpose, &opts)?.test_case(&opts)
}
