//! # ioco-games
//!
//! Testing as a game (thesis Ch. 5), joker games (thesis Ch. 6) and finite test purposes
//! (seed 004, Table 2 / TGV) on suspension automata.
//!
//! * [`reach`]: a reachability goal (`state:NAME|label:NAME`, [`Goal`]) under a test assumption
//!   ([`Assumption`]: input-eager, output-eager, nondeterministic, input-fair) is solved by a
//!   linear-time attractor ([`attractor()`]); a winning initial state gives a memoryless
//!   [`Strategy`] and a sound [`TestCase`] that reaches the goal against every implementation
//!   that resolves races as assumed. A goal that cannot be forced is an error that says why.
//! * [`joker()`]: the fewest jokers (times the system must cooperate), then the fewest moves
//!   over the whole game ([`short_joker_game`], a min-cost reachability game; the thesis'
//!   nested construction [`joker_game`] minimises moves only inside each joker level and is
//!   kept as [`GameOptions::per_level_moves`]); with [`GameOptions::prices`] the help of the
//!   system is priced by who gives it ([`priced_joker_game`]).
//! * [`admissible()`]: thesis Def. 6.36 decided exactly (positional players, as Ex. 6.37):
//!   which tester strategies no other strategy dominates, on games small enough to enumerate;
//!   [`sa_admissibility`] for a joker strategy of a suspension automaton.
//! * [`purpose_test`]: a test purpose automaton with `accept*`/`refuse*` states, its product
//!   with the specification, coreachability of accept, and a Pass/Inconclusive/Fail test case;
//!   [`PurposeProduct`] also steers online.
//! * [`Restriction`]: a purpose without accept (TorXakis's `GOAL` without `HIT`) restricts the
//!   online test to the inputs it offers; an output it does not offer ends the run
//!   Inconclusive ([`Restricted`]).
//! * [`explore`]: runs a test case against an implementation LTS over *all* its choices (for
//!   property tests of soundness and goal reaching).
//!
//! ```
//! use ioco_model::{Alphabet, LtsBuilder, LabelKind::*, QuiescencePolicy, SuspensionAutomaton};
//! use ioco_games::{reach, Assumption, Goal};
//! // s0 -coin?-> s1 -coffee!-> s0
//! let mut b = LtsBuilder::new(Alphabet::new());
//! b.add_states(2); b.add_initial(0);
//! b.add(0, "coin", Input, 1).unwrap();
//! b.add(1, "coffee", Output, 0).unwrap();
//! let sa = SuspensionAutomaton::build(&b.build().unwrap(), QuiescencePolicy::Stable).lts;
//! let goal = Goal::parse("label:coffee!", &sa).unwrap();
//! let r = reach(&sa, &goal, Assumption::Nondeterministic).unwrap();
//! assert_eq!(r.moves, 2); // coin?, then wait for coffee!
//! ```

pub mod admissible;
pub mod arena;
pub mod attractor;
pub mod exec;
pub mod goal;
pub mod joker;
pub mod purpose;
pub mod random;
pub mod resilience;
pub mod restrict;
pub mod short;
pub mod steered;
pub mod strategy;

pub use admissible::{
    admissible, sa_admissibility, Admissible, AdmissibleError, AdmissibleOptions,
};
pub use arena::{Arena, ArenaBuilder, Assumption, Move};
pub use attractor::{attractor, Solution};
pub use exec::{explore, TestRun};
pub use goal::{Goal, GoalError};
pub use joker::{joker_game, reachable_goal};
pub use purpose::{purpose_test, Purpose, PurposeError, PurposeOptions, PurposeProduct};
pub use resilience::{prefer_resilient, Concurrent};
pub use restrict::{Restricted, Restriction};
pub use short::{help_price, priced_joker_game, short_joker_game, Prices};
pub use strategy::{trace_strategy_test, Advice, Step, Strategy};

use ioco_gen::{NamedTest, Suite, TestCase};
use ioco_model::{Label, Lts, State};
use std::fmt;

/// Test cases larger than this many nodes are refused (play the strategy online instead).
pub const DEFAULT_MAX_NODES: usize = 200_000;

/// Why a game could not be solved or turned into a test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The input is not a suspension automaton (deterministic, no τ, δ explicit).
    NotSuspensionAutomaton(String),
    /// The tester cannot force the goal; `jokers` is how many times the system would have to
    /// cooperate (`None`: the goal is unreachable altogether).
    NotWinnable {
        /// The goal text.
        goal: String,
        /// The assumption.
        assumption: Assumption,
        /// Which states are losing and how the system escapes.
        explanation: String,
        /// Jokers needed if the system cooperates.
        jokers: Option<u32>,
    },
    /// No trace of the specification reaches the goal.
    Unreachable {
        /// The goal text.
        goal: String,
        /// Details.
        explanation: String,
    },
    /// The test-case tree would have more than `limit` nodes.
    TestTooLarge {
        /// The node limit.
        limit: usize,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::NotSuspensionAutomaton(m) => write!(f, "not a suspension automaton: {m}"),
            GameError::NotWinnable {
                goal,
                assumption,
                explanation,
                jokers,
            } => {
                write!(
                    f,
                    "goal `{goal}` cannot be forced under the {assumption} assumption: {explanation}"
                )?;
                match jokers {
                    Some(j) => write!(
                        f,
                        "\nhint: the goal is reachable if the system cooperates {j} time{} \
                         (use the joker method)",
                        if *j == 1 { "" } else { "s" }
                    ),
                    None if *assumption == Assumption::OutputEager => write!(
                        f,
                        "\nhint: no play reaches the goal when the system always outputs first"
                    ),
                    None => write!(f, "\nhint: no trace of the specification reaches the goal"),
                }
            }
            GameError::Unreachable { goal, explanation } => {
                write!(f, "goal `{goal}` is unreachable: {explanation}")
            }
            GameError::TestTooLarge { limit } => write!(
                f,
                "the test case would have more than {limit} nodes; play the strategy online \
                 (Strategy::advise/step) or choose a nearer goal"
            ),
        }
    }
}

impl std::error::Error for GameError {}

/// Check that `sa` is a suspension automaton: one initial state, no τ, deterministic, and δ
/// explicit wherever no output is enabled.
pub fn check_sa(sa: &Lts) -> Result<(), GameError> {
    let bad = |m: String| Err(GameError::NotSuspensionAutomaton(m));
    if sa.initial().len() != 1 {
        return bad(format!(
            "{} initial states; build the suspension automaton first (SuspensionAutomaton::build)",
            sa.initial().len()
        ));
    }
    let alpha = sa.alphabet();
    for q in sa.states() {
        let es = sa.edges(q);
        for w in es.windows(2) {
            if w[0].label == w[1].label {
                return bad(format!(
                    "state {} has two {}-transitions; build the suspension automaton first",
                    sa.state_name(q),
                    alpha.display(w[0].label)
                ));
            }
        }
        if es.iter().any(|e| e.label == Label::TAU) {
            return bad(format!(
                "state {} has a τ-transition; build the suspension automaton first",
                sa.state_name(q)
            ));
        }
        let observable = es
            .iter()
            .any(|e| e.label == Label::DELTA || alpha.is_output(e.label));
        if !observable && !sa.has_explicit_delta() {
            return bad(format!(
                "state {} enables no output and there are no δ-transitions; build the \
                 suspension automaton first (it makes quiescence explicit)",
                sa.state_name(q)
            ));
        }
    }
    Ok(())
}

/// The outcome of [`reach`].
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Always true for a result (a goal that cannot be forced is [`GameError::NotWinnable`]).
    pub winnable: bool,
    /// The memoryless winning strategy (defined on the whole winning region).
    pub strategy: Strategy,
    /// The attractor rank of the initial state: the most moves the test needs.
    pub moves: u32,
    /// The number of SA states in the winning region.
    pub winning_states: usize,
    /// The test case.
    pub test: TestCase,
}

/// Options of [`reach_with`] and [`joker_with`].
#[derive(Clone, Debug)]
pub struct GameOptions {
    /// The largest test-case tree built.
    pub max_nodes: usize,
    /// Non-decreasing steps a test may take inside the region before it gives up (0: none).
    pub budget: u32,
    /// Joker games: minimise moves only inside each joker level, as the thesis' nested
    /// construction (Table 6.1) does, instead of over the whole game ([`short_joker_game`]).
    pub per_level_moves: bool,
    /// Joker games: the prices of the system's help ([`priced_joker_game`]); with other than
    /// [`Prices::UNIT`], [`JokerResult::jokers`] is the least total price. Ignored with
    /// `per_level_moves`.
    pub prices: Prices,
}

impl Default for GameOptions {
    fn default() -> Self {
        GameOptions {
            max_nodes: DEFAULT_MAX_NODES,
            budget: 0,
            per_level_moves: false,
            prices: Prices::UNIT,
        }
    }
}

/// Solve the reachability game of `goal` on the suspension automaton `sa` under `assume`
/// (thesis Def. 5.11–5.12, 6.7–6.8, Lemma 6.28) and build the test case.
pub fn reach(sa: &Lts, goal: &Goal, assume: Assumption) -> Result<GameResult, GameError> {
    reach_with(sa, goal, assume, &GameOptions::default())
}

/// [`reach`] with options.
pub fn reach_with(
    sa: &Lts,
    goal: &Goal,
    assume: Assumption,
    opts: &GameOptions,
) -> Result<GameResult, GameError> {
    check_sa(sa)?;
    let arena = Arena::of_sa(sa, goal, assume);
    let sol = attractor(&arena);
    let q0 = sa.initial()[0];
    if !sol.contains(q0) {
        let jok = joker_game(&Arena::of_sa(sa, goal, assume));
        let jokers = jok.rank(q0).map(|(j, _)| j);
        return Err(GameError::NotWinnable {
            goal: goal.text.clone(),
            assumption: assume,
            explanation: explain_losing(sa, &sol, goal, assume),
            jokers,
        });
    }
    let strategy = Strategy::from_solution(sa, &arena, &sol, goal, assume);
    let test = strategy
        .test_case(
            sa,
            opts.budget,
            opts.max_nodes,
            "the goal cannot be forced any more",
        )
        .map_err(|_| GameError::TestTooLarge {
            limit: opts.max_nodes,
        })?;
    Ok(GameResult {
        winnable: true,
        moves: sol.moves[q0 as usize],
        winning_states: (0..sa.num_states() as u32)
            .filter(|&q| sol.contains(q))
            .count(),
        strategy,
        test,
    })
}

/// The outcome of [`joker()`].
#[derive(Clone, Debug)]
pub struct JokerResult {
    /// J-Rank of the initial state: how often the system must cooperate (0: a sure win).
    pub jokers: u32,
    /// The most moves to the goal when the system helps at every joker state.
    pub moves: u32,
    /// The least resilience rank on the strategy's helped plays (thesis Ex. 6.39: how few
    /// system moves away a loss is; higher is better; `None`: the system can never force it).
    pub resilience: Option<u32>,
    /// The joker strategy (defined on all of Joker(R); among equally good choices the most
    /// resilient, see [`resilience`]).
    pub strategy: Strategy,
    /// The joker states of the whole arena (thesis Def. 6.14), SA states.
    pub joker_states: Vec<State>,
    /// The number of joker levels (J-Rank values) in the arena.
    pub levels: u32,
    /// The test case (Lemma 6.32: Pass when the goal is reached; Inconclusive when the system
    /// does not help; Fail only on outputs the specification forbids).
    pub test: TestCase,
}

/// Solve the joker game of `goal` on `sa` in the thesis' arena (nondeterministic moves,
/// Def. 6.23), prefer the most resilient of the equally good joker strategies (Ex. 6.39) and
/// build its test case.
pub fn joker(sa: &Lts, goal: &Goal) -> Result<JokerResult, GameError> {
    joker_with(
        sa,
        goal,
        Assumption::Nondeterministic,
        &GameOptions::default(),
    )
}

/// [`joker()`] under another assumption, with options.
pub fn joker_with(
    sa: &Lts,
    goal: &Goal,
    assume: Assumption,
    opts: &GameOptions,
) -> Result<JokerResult, GameError> {
    check_sa(sa)?;
    let arena = Arena::of_sa(sa, goal, assume);
    let mut sol = if opts.per_level_moves {
        joker_game(&arena)
    } else if opts.prices == Prices::UNIT {
        short_joker_game(&arena)
    } else {
        priced_joker_game(&arena, &opts.prices)
    };
    let q0 = sa.initial()[0];
    let losing: Vec<bool> = (0..arena.num_positions() as u32)
        .map(|p| !sol.contains(p))
        .collect();
    let res = Concurrent::of_sa(sa, goal, assume).attractor23(&losing);
    let value = prefer_resilient(&arena, &mut sol, &res);
    let Some((jokers, _)) = sol.rank(q0) else {
        return Err(GameError::Unreachable {
            goal: goal.text.clone(),
            explanation: format!(
                "no trace from the initial state {} reaches it ({} of {} states can reach it)",
                sa.state_name(q0),
                (0..sa.num_states() as u32)
                    .filter(|&q| sol.contains(q))
                    .count(),
                sa.num_states()
            ),
        });
    };
    let strategy = Strategy::from_solution(sa, &arena, &sol, goal, assume);
    let test = strategy
        .test_case(sa, opts.budget, opts.max_nodes, "the goal is unreachable")
        .map_err(|_| GameError::TestTooLarge {
            limit: opts.max_nodes,
        })?;
    Ok(JokerResult {
        jokers,
        resilience: (value[q0 as usize] != attractor::NONE).then_some(value[q0 as usize]),
        moves: sol.moves[q0 as usize],
        joker_states: strategy.joker_states(),
        levels: sol.levels,
        strategy,
        test,
    })
}

/// Say which states are losing and how the system escapes from them (for [`GameError`]).
fn explain_losing(sa: &Lts, sol: &Solution, goal: &Goal, assume: Assumption) -> String {
    let n = sa.num_states();
    let alpha = sa.alphabet();
    let losing = (0..n as u32).filter(|&q| !sol.contains(q)).count();
    let wins = |l: Label, t: State| goal.has_label(l) || sol.contains(t);
    // Losing states reachable from the initial state through losing states, BFS order.
    let q0 = sa.initial()[0];
    let mut seen = vec![false; n];
    let mut order = vec![q0];
    seen[q0 as usize] = true;
    let mut i = 0;
    while i < order.len() && order.len() < 64 {
        let q = order[i];
        i += 1;
        for e in sa.edges(q) {
            if !goal.has_label(e.label) && !seen[e.target as usize] && !sol.contains(e.target) {
                seen[e.target as usize] = true;
                order.push(e.target);
            }
        }
    }
    let mut lines = Vec::new();
    for &q in order.iter().take(4) {
        let name = sa.state_name(q);
        let escape = sa.edges(q).iter().find(|e| {
            (e.label == Label::DELTA || alpha.is_output(e.label)) && !wins(e.label, e.target)
        });
        let mut why = Vec::new();
        match escape {
            Some(e) => why.push(format!(
                "waiting, the system can produce {} (to {})",
                alpha.display(e.label),
                sa.state_name(e.target)
            )),
            None => {
                if sa.edges(q).iter().all(|e| alpha.is_input(e.label)) {
                    why.push("waiting is impossible (no output, no δ)".into())
                }
            }
        }
        for e in sa.edges(q).iter().filter(|e| alpha.is_input(e.label)) {
            let a = alpha.display(e.label);
            let vanishes = assume == Assumption::OutputEager
                && !sa.enables(q, Label::DELTA)
                && sa.edges(q).iter().any(|e| alpha.is_output(e.label));
            if vanishes {
                why.push(format!("{a} is never taken (the system outputs first)"));
            } else if !wins(e.label, e.target) {
                why.push(format!("{a} leads to {}", sa.state_name(e.target)));
            } else if let (Some(x), true) = (
                sa.edges(q)
                    .iter()
                    .find(|x| alpha.is_output(x.label) && !wins(x.label, x.target)),
                matches!(
                    assume,
                    Assumption::Nondeterministic | Assumption::OutputEager
                ),
            ) {
                why.push(format!(
                    "{} can overtake {a} (to {})",
                    alpha.display(x.label),
                    sa.state_name(x.target)
                ));
            }
        }
        lines.push(format!("from {name}: {}", why.join("; ")));
    }
    format!(
        "{losing} of {n} states are losing, the initial state {} among them; the system can \
         always avoid the goal: {}{}",
        sa.state_name(q0),
        lines.join(". "),
        if order.len() > 4 { " ..." } else { "" }
    )
}

impl GameResult {
    /// A one-test suite (method `reach`) with the goal, assumption and move bound recorded.
    pub fn into_suite(self) -> Suite {
        let mut s = Suite::new("reach");
        let p = &mut s.parameters;
        p.insert("goal".into(), self.strategy.goal.text.clone().into());
        p.insert("assume".into(), self.strategy.assumption.name().into());
        p.insert("moves".into(), self.moves.into());
        s.tests.push(NamedTest {
            name: "reach".into(),
            purpose: Some(format!(
                "reach {} under the {} assumption in at most {} moves",
                self.strategy.goal.text, self.strategy.assumption, self.moves
            )),
            test: self.test,
        });
        s
    }
}

impl JokerResult {
    /// A one-test suite (method `joker`) with the goal, jokers and move bound recorded.
    pub fn into_suite(self) -> Suite {
        let mut s = Suite::new("joker");
        let p = &mut s.parameters;
        p.insert("goal".into(), self.strategy.goal.text.clone().into());
        p.insert("assume".into(), self.strategy.assumption.name().into());
        p.insert("jokers".into(), self.jokers.into());
        p.insert("moves".into(), self.moves.into());
        s.tests.push(NamedTest {
            name: "joker".into(),
            purpose: Some(format!(
                "reach {} with {} joker{} (the system must cooperate that often), at most {} moves",
                self.strategy.goal.text,
                self.jokers,
                if self.jokers == 1 { "" } else { "s" },
                self.moves
            )),
            test: self.test,
        });
        s
    }
}
