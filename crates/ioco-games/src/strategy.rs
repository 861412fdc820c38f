//! Memoryless strategies on a suspension automaton and their test cases (thesis Thm 5.20 and
//! its construction, Lemma 6.28 / Thm 6.30 for winning strategies, Lemma 6.32 / Thm 6.35 for
//! joker strategies), plus online steering with the same strategy.
//!
//! **Test case of a strategy.** From state q the tester plays σ(q): θ becomes an *observe*
//! node with a branch for every x ∈ out(q) (δ included), an input `a?` a *stimulate* node whose
//! `after` follows T(q,a) and which lists every output of out(q) that may race ahead of the
//! input. Every label the specification forbids gets **Fail** (the `otherwise` verdict), and
//! only those: the test is sound for every implementation that conforms, whatever the
//! assumption. An outcome that leaves the region where the strategy works (the attractor, or
//! Joker(R)) gets **Inconclusive**; an outcome inside it continues when its (J-Rank, A-Rank) is
//! lexicographically lower, which makes the tree finite. Reaching a goal state or executing a
//! goal label gives **Pass**.
//!
//! **Erratum guarded.** Thm 5.20's construction (step 3, "in(()ρ)" at L9192) sends every output
//! outside the strategy's trace set to Fail. That is sound only under ND/IF, where every
//! allowed output is in the trace set. Under IE (outputs that overtake the input are "excluded")
//! and OE it would fail conforming implementations; here such outputs continue if the strategy
//! still works from their target with a lower rank, and are Inconclusive otherwise. Under IF
//! such an Inconclusive means "rerun": input fairness promises the input is eventually taken.
//!
//! **Joker strategies.** At a joker state the outcome the tester asked for (the helping move)
//! has a lower J-Rank and continues; other outcomes continue only if they still lower the rank,
//! else the test stops with Inconclusive ("the system did not help"), as in Lemma 6.32. An
//! optional step budget lets such outcomes continue while they stay in Joker(R) (the note's
//! practical extension); each non-decreasing step costs one unit.

use crate::arena::{Arena, Assumption, Move};
use crate::attractor::{Solution, NONE};
use crate::goal::Goal;
use ioco_gen::{Branch, TestCase, Verdict};
use ioco_model::{Label, Lts, State};

/// A memoryless strategy on the states of a suspension automaton, with its ranks.
#[derive(Clone, Debug)]
pub struct Strategy {
    /// The move per SA state; `None` at goal states and where the strategy does not work.
    pub moves: Vec<Option<Move>>,
    /// (J-Rank, A-Rank) per SA state; `None` outside the region.
    pub rank: Vec<Option<(u32, u32)>>,
    /// At joker states: the state (or `None` for "a goal label") the tester asks the system
    /// to help it to.
    pub help: Vec<Option<Option<State>>>,
    /// Per SA state: the most moves to the goal when the system helps (attractor: always).
    pub bound: Vec<u32>,
    /// The goal.
    pub goal: Goal,
    /// The assumption the strategy was computed for.
    pub assumption: Assumption,
}

/// What the tester does next (online use of a strategy).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Advice {
    /// Offer this input (and accept outputs that race ahead of it).
    Stimulate(Label),
    /// Wait for an output or quiescence.
    Observe,
    /// Stop with this verdict.
    Stop(Verdict, String),
}

/// The result of feeding one observed or executed label to [`Strategy::step`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Continue from this SA state.
    Continue(State),
    /// Stop with this verdict.
    Stop(Verdict, String),
}

impl Strategy {
    /// Read the strategy of a solved SA arena (positions `0..n` are the SA states).
    pub fn from_solution(
        sa: &Lts,
        arena: &Arena,
        sol: &Solution,
        goal: &Goal,
        assumption: Assumption,
    ) -> Strategy {
        let n = sa.num_states();
        let pos = |t: u32| if t as usize == n { None } else { Some(t) };
        Strategy {
            moves: (0..n)
                .map(|q| {
                    let a = sol.strategy[q];
                    (a != NONE).then(|| arena.action_move(a as usize))
                })
                .collect(),
            rank: (0..n as u32).map(|q| sol.rank(q)).collect(),
            help: (0..n)
                .map(|q| (sol.help[q] != NONE).then(|| pos(sol.help[q])))
                .collect(),
            bound: (0..n).map(|q| sol.moves[q]).collect(),
            goal: goal.clone(),
            assumption,
        }
    }

    /// True when the strategy works from `q` (in the attractor / in Joker(R)).
    pub fn wins_from(&self, q: State) -> bool {
        self.rank[q as usize].is_some()
    }

    /// The joker states (in SA state order).
    pub fn joker_states(&self) -> Vec<State> {
        (0..self.help.len() as State)
            .filter(|&q| self.help[q as usize].is_some())
            .collect()
    }

    /// What to do in state `q`.
    pub fn advise(&self, sa: &Lts, q: State) -> Advice {
        if self.goal.has_state(q) {
            return Advice::Stop(
                Verdict::Pass,
                format!("goal reached: state {}", sa.state_name(q)),
            );
        }
        match self.moves[q as usize] {
            Some(Move::Input(a)) => Advice::Stimulate(a),
            Some(Move::Wait) => Advice::Observe,
            None => Advice::Stop(
                Verdict::Inconclusive,
                format!(
                    "the goal cannot be reached any more from {}",
                    sa.state_name(q)
                ),
            ),
        }
    }

    /// Feed the label that happened in state `q` (the offered input, or an output / δ).
    pub fn step(&self, sa: &Lts, q: State, l: Label) -> Step {
        let Some(e) = sa.edges_with(q, l).first() else {
            let a = sa.alphabet();
            if a.is_input(l) {
                return Step::Stop(
                    Verdict::Inconclusive,
                    format!(
                        "input {} is not specified in {}",
                        a.display(l),
                        sa.state_name(q)
                    ),
                );
            }
            return Step::Stop(
                Verdict::Fail,
                format!(
                    "{} is not allowed after reaching {} (allowed: {})",
                    a.display(l),
                    sa.state_name(q),
                    allowed(sa, q)
                ),
            );
        };
        if self.goal.has_label(l) {
            return Step::Stop(
                Verdict::Pass,
                format!("goal reached: {} executed", sa.alphabet().display(l)),
            );
        }
        Step::Continue(e.target)
    }

    /// The test case of the strategy from the SA's initial state (module docs). `budget`:
    /// non-decreasing steps allowed inside the region (0: stop at the first). Fails with the
    /// node count when the tree would exceed `max_nodes`.
    pub fn test_case(
        &self,
        sa: &Lts,
        budget: u32,
        max_nodes: usize,
        outside_reason: &str,
    ) -> Result<TestCase, usize> {
        let mut b = TreeBuilder {
            sa,
            st: self,
            nodes: 0,
            max_nodes,
            outside_reason,
        };
        let q0 = sa.initial()[0];
        b.node(q0, budget)
    }
}

/// `out(q)` as users write it.
pub(crate) fn allowed(sa: &Lts, q: State) -> String {
    let a = sa.alphabet();
    let v: Vec<String> = sa
        .edges(q)
        .iter()
        .filter(|e| e.label == Label::DELTA || a.is_output(e.label))
        .map(|e| a.display(e.label))
        .collect();
    if v.is_empty() {
        "nothing".into()
    } else {
        v.join(", ")
    }
}

struct TreeBuilder<'a> {
    sa: &'a Lts,
    st: &'a Strategy,
    nodes: usize,
    max_nodes: usize,
    outside_reason: &'a str,
}

impl TreeBuilder<'_> {
    fn count(&mut self) -> Result<(), usize> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            Err(self.nodes)
        } else {
            Ok(())
        }
    }

    fn node(&mut self, q: State, budget: u32) -> Result<TestCase, usize> {
        self.count()?;
        let sa = self.sa;
        let alpha = sa.alphabet();
        if self.st.goal.has_state(q) {
            return Ok(TestCase::leaf_because(
                Verdict::Pass,
                format!("goal reached: state {}", sa.state_name(q)),
            ));
        }
        let Some(mv) = self.st.moves[q as usize] else {
            return Ok(TestCase::leaf_because(
                Verdict::Inconclusive,
                format!("{} from {}", self.outside_reason, sa.state_name(q)),
            ));
        };
        match mv {
            Move::Wait => {
                let mut branches = Vec::new();
                for e in sa.edges(q) {
                    if e.label == Label::DELTA || alpha.is_output(e.label) {
                        let then = self.child(q, e.label, e.target, budget, None)?;
                        branches.push(Branch {
                            label: alpha.display(e.label),
                            then,
                        });
                    }
                }
                Ok(TestCase::Observe {
                    branches,
                    otherwise: Verdict::Fail,
                })
            }
            Move::Input(a) => {
                let t = sa.edges_with(q, a)[0].target;
                let after = self.child(q, a, t, budget, None)?;
                let mut branches = Vec::new();
                for e in sa.edges(q) {
                    if alpha.is_output(e.label) {
                        let then = self.child(q, e.label, e.target, budget, Some(a))?;
                        branches.push(Branch {
                            label: alpha.display(e.label),
                            then,
                        });
                    }
                }
                Ok(TestCase::Stimulate {
                    input: alpha.display(a),
                    after: Box::new(after),
                    branches,
                    otherwise: Verdict::Fail,
                })
            }
        }
    }

    /// The subtree after label `l` from `q` to `t`; `raced`: the input `l` overtook.
    fn child(
        &mut self,
        q: State,
        l: Label,
        t: State,
        budget: u32,
        raced: Option<Label>,
    ) -> Result<TestCase, usize> {
        let sa = self.sa;
        let alpha = sa.alphabet();
        if self.st.goal.has_label(l) {
            self.count()?;
            return Ok(TestCase::leaf_because(
                Verdict::Pass,
                format!("goal reached: {} executed", alpha.display(l)),
            ));
        }
        let rq = self.st.rank[q as usize];
        let rt = self.st.rank[t as usize];
        match rt {
            Some(rt) if rq.is_some_and(|rq| rt < rq) => self.node(t, budget),
            Some(_) if budget > 0 => self.node(t, budget - 1),
            _ => {
                self.count()?;
                let reason = match (raced, self.st.assumption) {
                    (Some(a), Assumption::InputFair) => format!(
                        "{} overtook {}: rerun, under input fairness the input is eventually taken",
                        alpha.display(l),
                        alpha.display(a)
                    ),
                    (Some(a), Assumption::InputEager) => format!(
                        "{} overtook {} (excluded by the input-eager assumption)",
                        alpha.display(l),
                        alpha.display(a)
                    ),
                    _ if self.st.help[q as usize].is_some() => format!(
                        "the system did not help at joker state {} ({} to {})",
                        sa.state_name(q),
                        alpha.display(l),
                        sa.state_name(t)
                    ),
                    _ if rt.is_some() => {
                        format!("step bound reached at {}", sa.state_name(t))
                    }
                    _ => format!("{} from {}", self.outside_reason, sa.state_name(t)),
                };
                Ok(TestCase::leaf_because(Verdict::Inconclusive, reason))
            }
        }
    }
}

/// The test case of an arbitrary trace-based strategy (thesis Thm 5.20's construction): `f`
/// gets the trace so far and the SA state after it and returns the move, or `None` for
/// `stop?` (the branch ends in Pass). Every output the specification allows continues with the
/// strategy, whatever the assumption, so the test is sound (the note's erratum to step 3);
/// which branches a run can take depends on how the system resolves races. An input the
/// specification does not enable is an error; so is a strategy that does not stop within
/// `max_depth` moves (it is not *finite*, Def. 5.19).
pub fn trace_strategy_test(
    sa: &Lts,
    max_depth: usize,
    f: &dyn Fn(&[Label], State) -> Option<Move>,
) -> Result<TestCase, String> {
    fn go(
        sa: &Lts,
        max_depth: usize,
        f: &dyn Fn(&[Label], State) -> Option<Move>,
        trace: &mut Vec<Label>,
        q: State,
    ) -> Result<TestCase, String> {
        let alpha = sa.alphabet();
        let Some(mv) = f(trace, q) else {
            return Ok(TestCase::leaf_because(Verdict::Pass, "the strategy stops"));
        };
        if trace.len() >= max_depth {
            return Err(format!(
                "the strategy does not stop within {max_depth} moves (after {})",
                alpha.display_trace(trace)
            ));
        }
        let mut branches = Vec::new();
        for e in sa.edges(q) {
            let observable = e.label == Label::DELTA || alpha.is_output(e.label);
            if observable && (mv == Move::Wait || e.label != Label::DELTA) {
                trace.push(e.label);
                let then = go(sa, max_depth, f, trace, e.target)?;
                trace.pop();
                branches.push(Branch {
                    label: alpha.display(e.label),
                    then,
                });
            }
        }
        match mv {
            Move::Wait => Ok(TestCase::Observe {
                branches,
                otherwise: Verdict::Fail,
            }),
            Move::Input(a) => {
                let Some(e) = sa.edges_with(q, a).first() else {
                    return Err(format!(
                        "the strategy offers {} after {}, where the specification does not \
                         enable it",
                        alpha.display(a),
                        alpha.display_trace(trace)
                    ));
                };
                trace.push(a);
                let after = go(sa, max_depth, f, trace, e.target)?;
                trace.pop();
                Ok(TestCase::Stimulate {
                    input: alpha.display(a),
                    after: Box::new(after),
                    branches,
                    otherwise: Verdict::Fail,
                })
            }
        }
    }
    go(sa, max_depth, f, &mut Vec::new(), sa.initial()[0])
}
