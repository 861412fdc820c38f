//! A test executor that explores **every** choice an implementation LTS can make while a
//! [`TestCase`] runs against it (tutorial Def. 5.4 test runs; thesis Def. 5.12 for how races
//! between an offered input and an output are resolved). Used by the property tests:
//! soundness (no run of a conforming implementation ends in Fail) and goal reaching (every
//! run of an implementation that resolves races as assumed ends in Pass).
//!
//! The implementation may be nondeterministic and have τ. It needs to be input-enabled only
//! weakly (tutorial Def. 4.3: every input enabled after internal steps): a state that takes an
//! input only after internal steps waits for them; an input that no internal steps lead to is
//! ignored (angelic completion, tutorial Lemma A.1), as `ioco compare` and the simulator do.
//! At an *observe* node the implementation produces any output of its τ-closure, or δ from a
//! quiescent state of it. At a *stimulate* node:
//! * nondeterministic / input-fair: the input is taken or an output races ahead of it;
//! * input-eager: the input is taken;
//! * output-eager: a state that can output does, a state that cannot takes the input.

use crate::arena::Assumption;
use ioco_gen::{TestCase, Verdict, DELTA};
use ioco_model::{Label, Lts, QuiescencePolicy, State};

/// One complete test run (tutorial Def. 5.4): the trace of the test case against the
/// implementation LTS and the verdict of the leaf it reached. This is an evaluation inside the
/// theory (every choice of an implementation LTS, no system under test, no time, no seed), not a
/// run record: sessions against systems record their runs as `ioco_engine::RunResult`, whose
/// verdict is `ioco_engine::RunVerdict`; here the verdict is the test case's leaf
/// ([`Verdict`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestRun {
    /// The labels observed or executed, as users write them.
    pub trace: Vec<String>,
    /// The verdict.
    pub verdict: Verdict,
    /// The leaf's reason, if any.
    pub reason: Option<String>,
}

fn closure(imp: &Lts, s: State) -> Vec<State> {
    let mut v = vec![s];
    let mut i = 0;
    while i < v.len() {
        let q = v[i];
        i += 1;
        for t in imp.successors(q, Label::TAU) {
            if !v.contains(&t) {
                v.push(t);
            }
        }
    }
    v
}

/// `c =a=>`: some state of `c`'s τ-closure enables `a` (tutorial Def. 4.3).
fn weakly_enables(imp: &Lts, c: State, a: Label) -> bool {
    closure(imp, c).into_iter().any(|q| imp.enables(q, a))
}

struct Explorer<'a> {
    imp: &'a Lts,
    policy: QuiescencePolicy,
    resolve: Assumption,
    runs: Vec<TestRun>,
    max_runs: usize,
}

impl Explorer<'_> {
    fn finish(&mut self, trace: &[String], verdict: Verdict, reason: Option<String>) {
        let run = TestRun {
            trace: trace.to_vec(),
            verdict,
            reason,
        };
        if self.runs.len() < self.max_runs && !self.runs.contains(&run) {
            self.runs.push(run);
        }
    }

    fn output(&mut self, node: &TestCase, label: String, t: State, trace: &mut Vec<String>) {
        let (branches, otherwise) = match node {
            TestCase::Observe {
                branches,
                otherwise,
            }
            | TestCase::Stimulate {
                branches,
                otherwise,
                ..
            } => (branches, *otherwise),
            TestCase::Leaf { .. } => unreachable!("leaves observe nothing"),
        };
        trace.push(label.clone());
        match branches.iter().find(|b| b.label == label) {
            Some(b) => self.go(&b.then, t, trace),
            None => self.finish(trace, otherwise, Some("not listed in the test".into())),
        }
        trace.pop();
    }

    fn go(&mut self, node: &TestCase, s: State, trace: &mut Vec<String>) {
        if self.runs.len() >= self.max_runs {
            return;
        }
        let imp = self.imp;
        let alpha = imp.alphabet();
        match node {
            TestCase::Leaf { verdict, reason } => self.finish(trace, *verdict, reason.clone()),
            TestCase::Observe { .. } => {
                for c in closure(imp, s) {
                    for e in imp.edges(c) {
                        if alpha.is_output(e.label) {
                            self.output(node, alpha.display(e.label), e.target, trace);
                        }
                    }
                    if imp.has_explicit_delta() {
                        for t in imp.successors(c, Label::DELTA).collect::<Vec<_>>() {
                            self.output(node, DELTA.to_string(), t, trace);
                        }
                    } else if imp.is_quiescent(c, self.policy) {
                        self.output(node, DELTA.to_string(), c, trace);
                    }
                }
            }
            TestCase::Stimulate { input, after, .. } => {
                let name = input.trim_end_matches('?');
                let a = alpha.lookup_kind(name, ioco_model::LabelKind::Input);
                for c in closure(imp, s) {
                    let can_output = imp.edges(c).iter().any(|e| alpha.is_output(e.label));
                    let (take_input, race) = match self.resolve {
                        Assumption::Nondeterministic | Assumption::InputFair => (true, true),
                        Assumption::InputEager => (true, false),
                        Assumption::OutputEager => (!can_output, can_output),
                    };
                    if race {
                        for e in imp.edges(c) {
                            if alpha.is_output(e.label) {
                                self.output(node, alpha.display(e.label), e.target, trace);
                            }
                        }
                    }
                    if take_input {
                        trace.push(input.clone());
                        // A state that takes the input only after internal steps waits for
                        // them: those steps lead to other states of the closure, which take it.
                        let targets: Vec<State> = match a {
                            Some(a) if imp.enables(c, a) => imp.successors(c, a).collect(),
                            Some(a) if weakly_enables(imp, c, a) => Vec::new(),
                            _ => vec![c],
                        };
                        for t in targets {
                            self.go(after, t, trace);
                        }
                        trace.pop();
                    }
                }
            }
        }
    }
}

/// All runs (up to `max_runs` distinct ones) of `test` against `imp`, resolving races as
/// `resolve` says. Labels are matched by name, so `imp` may have its own alphabet.
pub fn explore(
    test: &TestCase,
    imp: &Lts,
    policy: QuiescencePolicy,
    resolve: Assumption,
    max_runs: usize,
) -> Vec<TestRun> {
    let mut ex = Explorer {
        imp,
        policy,
        resolve,
        runs: Vec::new(),
        max_runs,
    };
    for &s in imp.initial() {
        ex.go(test, s, &mut Vec::new());
    }
    ex.runs
}
