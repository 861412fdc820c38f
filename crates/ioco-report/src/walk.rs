//! Walking recorded runs through a specification, after the fact: which states the model was
//! in and which transitions (or switches) it took, how often, and where a failing run left
//! it. This is what a report draws over the model (the coverage overlay) and what its
//! sequence chart shows next to every step.
//!
//! The walk goes through the engine's [`Specification`] seam (the same suspension automaton
//! or symbolic tracker that judged the run), so it gives a step the meaning the tester gave
//! it: an input the specification does not enable, or an observation it refuses, ends the walk
//! of that run there (for a Fail: at its failing observation).
//!
//! Counting follows [`ioco_engine::result::CoverageSummary`]: a state is visited once per step at
//! which it belongs to the set of states the model may be in (the start included); a
//! transition `s -l-> t` once per step labelled `l` from a set holding `s` to one holding `t`.
//! For a data model the nodes are the locations of its automata and the edges its switches (a
//! switch counts when some candidate state enables it for the step's values).

use crate::Runs;
use ioco_engine::explicit::Explicit;
use ioco_engine::result::{RunResult, RunVerdict};
use ioco_engine::OnlineOptions;
use ioco_engine::Specification;
use ioco_engine::Tester;
use ioco_lang::ir::Spec;
use ioco_model::{Label, Lts, QuiescencePolicy};
use ioco_symbolic::engine::Symbolic;
use ioco_symbolic::online::{fired, parse_gate_value, GateValue};
use ioco_symbolic::SymbolicSpec;
use std::collections::HashMap;

/// An edge: an LTS transition `(from, label index, to)`, or a switch of a data model
/// `(automaton, switch, 0)`.
pub type EdgeKey = (u32, u32, u32);

/// What the runs did to the model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Visits {
    /// Per node (LTS state, or location numbered over the automata in order): how many steps
    /// it was a state the model could be in.
    pub nodes: Vec<u64>,
    /// Per edge taken: how often. LTS: `(from, label index, to)`; data model:
    /// `(automaton, switch, 0)`.
    pub edges: HashMap<EdgeKey, u64>,
    /// The run the report follows step by step (the first failing run, else the first
    /// non-passing one, else run 0), if there is one.
    pub focus: Option<Focus>,
    /// Runs whose walk stopped before the end of their trace without a Fail there (a label
    /// the model does not know, an input it does not enable): how many.
    pub diverged: usize,
    /// Runs not walked because the walk's budget of steps was spent (data models:
    /// [`SYMBOLIC_STEPS`]); the followed run is always walked.
    pub unwalked: usize,
}

/// Steps of recorded runs walked through a data model's symbolic tracker for one picture (each
/// step asks the solver): beyond, further runs are not counted, and the picture says so.
pub const SYMBOLIC_STEPS: usize = 20_000;

/// The followed run, step by step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Focus {
    /// Its index in the summary's runs.
    pub index: usize,
    /// The nodes the model could be in at the start (`after[0]`) and after each step the
    /// specification accepted (`after[k]` after step k; a refused step has no entry).
    pub after: Vec<Vec<u32>>,
    /// The step the specification refused (0-based in the trace), with the nodes the model
    /// was in before it: the failing point of a Fail.
    pub refused: Option<(usize, Vec<u32>)>,
}

/// Where a trace's step is.
enum Dir {
    In,
    Out,
    Quiet,
}

/// What [`walk`] tells its caller.
enum At<'a, A> {
    /// At the start, before the first step.
    Start,
    /// Before a step is given to the specification.
    Before(&'a A),
    /// After a step was accepted.
    After(Option<&'a A>),
}

/// Walk `trace` through `spec`: `parse` reads a step, `at` is told the start, each action
/// before it is given, and each step accepted. Returns the step refused, if any, and whether
/// the walk reached the end of the trace.
fn walk<S: Specification>(
    spec: &mut S,
    trace: &[&str],
    parse: impl Fn(&str) -> Option<(Dir, Option<S::Action>)>,
    mut at: impl FnMut(&mut S, At<'_, S::Action>),
) -> (Option<usize>, bool) {
    if spec.start().is_err() {
        return (None, false);
    }
    at(spec, At::Start);
    for (k, text) in trace.iter().enumerate() {
        let Some((dir, action)) = parse(text) else {
            return (Some(k), false);
        };
        if let Some(a) = &action {
            at(spec, At::Before(a));
        }
        let ok = match (&dir, &action) {
            (Dir::In, Some(a)) => spec.enables(a) && spec.give(a).is_ok(),
            (Dir::Out, Some(a)) => spec.observe(Some(a)).is_ok(),
            (Dir::Quiet, _) => spec.observe(None).is_ok(),
            _ => false,
        };
        if !ok {
            return (Some(k), false);
        }
        at(spec, At::After(action.as_ref()));
    }
    (None, true)
}

/// The run a report follows: the first Fail, else the first non-Pass, else run 0.
pub fn focus_run(runs: &[RunResult]) -> Option<usize> {
    runs.iter()
        .position(|r| r.verdict == RunVerdict::Fail)
        .or_else(|| runs.iter().position(|r| r.verdict != RunVerdict::Pass))
        .or(if runs.is_empty() { None } else { Some(0) })
}

/// The visits of `runs` over an LTS specification (its suspension automaton under `policy`).
pub fn explicit(spec: &Lts, policy: QuiescencePolicy, runs: &[RunResult]) -> Visits {
    explicit_runs(spec, policy, &runs, focus_run(runs)).unwrap_or_default()
}

/// [`explicit`] over runs read one at a time (a spool's), following the run at position
/// `focus` ([`focus_run`] of them).
pub fn explicit_runs(
    spec: &Lts,
    policy: QuiescencePolicy,
    runs: &dyn Runs,
    focus: Option<usize>,
) -> std::io::Result<Visits> {
    let mut v = Visits {
        nodes: vec![0; spec.num_states()],
        ..Visits::default()
    };
    let opts = OnlineOptions::default();
    let mut tester = Tester::new(spec, policy);
    let a = spec.alphabet();
    let parse = |t: &str| -> Option<(Dir, Option<Label>)> {
        if t == "δ" || t == "delta" {
            return Some((Dir::Quiet, None));
        }
        let l = a.parse(t)?;
        Some((if a.is_input(l) { Dir::In } else { Dir::Out }, Some(l)))
    };
    let mut i = 0;
    runs.each(&mut |r| {
        let texts: Vec<&str> = r.trace.iter().collect();
        let mut prev: Vec<u32> = Vec::new();
        let mut after: Vec<Vec<u32>> = Vec::new();
        let mut s = Explicit {
            tester: &mut tester,
            opts: &opts,
        };
        let (refused, complete) = walk(&mut s, &texts, parse, |s, at| {
            let step = match at {
                At::Before(_) => return,
                At::Start => None,
                // δ is a transition only of a model with explicit quiescence
                At::After(l) => Some(l.copied().unwrap_or(Label::DELTA)),
            };
            let t = &*s.tester;
            let set: Vec<u32> = t.sus.set(t.q).to_vec();
            for &q in &set {
                v.nodes[q as usize] += 1;
            }
            // τ-steps inside the (τ-closed) set
            for &q in &set {
                for e in spec.edges_with(q, Label::TAU) {
                    if set.binary_search(&e.target).is_ok() {
                        *v.edges.entry((q, Label::TAU.0, e.target)).or_default() += 1;
                    }
                }
            }
            if let Some(l) = step {
                for &p in &prev {
                    for e in spec.edges_with(p, l) {
                        if set.binary_search(&e.target).is_ok() {
                            *v.edges.entry((p, l.0, e.target)).or_default() += 1;
                        }
                    }
                }
            }
            prev.clone_from(&set);
            after.push(set);
        });
        note(&mut v, focus == Some(i), i, r, after, refused, complete);
        i += 1;
        Ok(())
    })?;
    Ok(v)
}

/// Record the end of one run's walk.
fn note(
    v: &mut Visits,
    followed: bool,
    index: usize,
    r: &RunResult,
    after: Vec<Vec<u32>>,
    refused: Option<usize>,
    complete: bool,
) {
    let failed_there = r.verdict == RunVerdict::Fail
        && refused.is_some()
        && refused == r.trace.len().checked_sub(1);
    if !complete && !failed_there {
        v.diverged += 1;
    }
    if followed {
        let before = after.last().cloned().unwrap_or_default();
        v.focus = Some(Focus {
            index,
            after,
            refused: refused.map(|k| (k, before)),
        });
    }
}

/// The node number of location `loc` of automaton `aut` (locations numbered over the
/// automata in order).
pub fn location_node(spec: &Spec, aut: usize, loc: u32) -> u32 {
    let before: usize = spec.automata[..aut].iter().map(|a| a.locations.len()).sum();
    (before + loc as usize) as u32
}

/// The visits of `runs` over a data model, tracked by the symbolic specification `tracker`.
pub fn symbolic(tracker: &mut SymbolicSpec, runs: &[RunResult]) -> Visits {
    symbolic_runs(tracker, &runs, focus_run(runs)).unwrap_or_default()
}

/// [`symbolic`] over runs read one at a time, following the run at position `focus`.
pub fn symbolic_runs(
    tracker: &mut SymbolicSpec,
    runs: &dyn Runs,
    focus: Option<usize>,
) -> std::io::Result<Visits> {
    let spec = tracker.sys.spec.clone();
    let total: usize = spec.automata.iter().map(|a| a.locations.len()).sum();
    let mut v = Visits {
        nodes: vec![0; total],
        ..Visits::default()
    };
    let parse = |t: &str| -> Option<(Dir, Option<GateValue>)> {
        if t == "δ" || t == "delta" {
            return Some((Dir::Quiet, None));
        }
        let (g, vals, input) = parse_gate_value(&spec, t).ok()?;
        Some((if input { Dir::In } else { Dir::Out }, Some((g, vals))))
    };
    let mut walked = 0usize;
    let mut i = 0;
    runs.each(&mut |r| {
        if walked >= SYMBOLIC_STEPS && focus != Some(i) {
            v.unwalked += 1;
            i += 1;
            return Ok(());
        }
        walked += r.trace.len();
        let texts: Vec<&str> = r.trace.iter().collect();
        let mut after: Vec<Vec<u32>> = Vec::new();
        // the switches a step fires: those some candidate state enables before it
        let mut firing: Vec<(u32, u32)> = Vec::new();
        let mut s = Symbolic::new(tracker, None);
        let (refused, complete) = walk(&mut s, &texts, parse, |s, at| {
            match at {
                At::Before((g, vals)) => {
                    firing = fired(s.spec, g, vals);
                    return;
                }
                At::After(..) => {
                    for (a, w) in firing.drain(..) {
                        *v.edges.entry((a, w, 0)).or_default() += 1;
                    }
                }
                At::Start => {}
            }
            let mut nodes: Vec<u32> = Vec::new();
            for q in s.spec.states() {
                for (ai, &l) in q.locs.iter().enumerate() {
                    nodes.push(location_node(&spec, ai, l));
                }
            }
            nodes.sort_unstable();
            nodes.dedup();
            for &n in &nodes {
                v.nodes[n as usize] += 1;
            }
            after.push(nodes);
        });
        note(&mut v, focus == Some(i), i, r, after, refused, complete);
        i += 1;
        Ok(())
    })?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ioco_engine::result::Failure;
    use ioco_model::{Alphabet, LtsBuilder};

    /// 0 -coin?-> 1 -tea!-> 0
    fn machine() -> Lts {
        let mut b = LtsBuilder::new(Alphabet::new());
        let s = b.add_states(2);
        b.add_initial(s);
        let coin = b.alphabet_mut().input("coin").unwrap();
        let tea = b.alphabet_mut().output("tea").unwrap();
        b.add_transition(s, coin, s + 1);
        b.add_transition(s + 1, tea, s);
        b.build().unwrap()
    }

    #[test]
    fn visits_count_steps_and_the_failing_run_is_followed() {
        let lts = machine();
        let mut ok = RunResult::new(0, 1);
        ok.trace = ["coin?", "tea!", "δ"].into_iter().collect();
        let mut bad = RunResult::new(1, 2);
        bad.verdict = RunVerdict::Fail;
        bad.trace = ["coin?", "δ"].into_iter().collect();
        bad.failure = Some(Failure {
            observed: "δ".into(),
            allowed: vec!["tea!".into()],
            reason: "quiescence".into(),
        });
        let mut empty_fail = RunResult::new(2, 3);
        empty_fail.verdict = RunVerdict::Fail;
        let v = explicit(&lts, QuiescencePolicy::Stable, &[ok, bad, empty_fail]);
        // run 0: start 0, coin? 1, tea! 0, δ 0; run 1: start 0, coin? 1 (δ refused); run 2: 0
        assert_eq!(v.nodes, vec![5, 2]);
        let coin = lts.alphabet().parse("coin?").unwrap();
        assert_eq!(v.edges.get(&(0, coin.0, 1)), Some(&2));
        let f = v.focus.expect("the failing run is followed");
        assert_eq!(f.index, 1);
        assert_eq!(f.after, vec![vec![0], vec![1]]);
        assert_eq!(f.refused, Some((1, vec![1])));
        assert_eq!(v.diverged, 0);
    }
}
