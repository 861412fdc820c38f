//! Shared test helpers: fixture builder and an exhaustive test-case executor.
#![allow(dead_code)]

use ioco_complete::Sa;
use ioco_gen::{Suite, SuiteRole, TestCase, Verdict};
use ioco_model::{Alphabet, Label, LabelKind, Lts, LtsBuilder};
use rustc_hash::FxHashMap;

/// Build a deterministic automaton from `(source, label, target)` with state names as given;
/// the first source is initial. Labels in `inputs` are inputs, `δ` is quiescence, all others
/// outputs.
pub fn lts(edges: &[(&str, &str, &str)], inputs: &[&str]) -> Lts {
    let mut alpha = Alphabet::new();
    // intern in a fixed order: inputs first, then outputs by first appearance
    for i in inputs {
        alpha.input(i).unwrap();
    }
    let mut names: Vec<String> = Vec::new();
    let mut id = FxHashMap::default();
    let mut get = |s: &str, names: &mut Vec<String>| -> u32 {
        *id.entry(s.to_string()).or_insert_with(|| {
            names.push(s.to_string());
            names.len() as u32 - 1
        })
    };
    let mut trans = Vec::new();
    for &(s, l, t) in edges {
        let a = get(s, &mut names);
        let b = get(t, &mut names);
        let label = if l == "δ" {
            Label::DELTA
        } else if inputs.contains(&l) {
            alpha.input(l).unwrap()
        } else {
            alpha.intern(l, LabelKind::Output).unwrap()
        };
        trans.push((a, label, b));
    }
    let mut b = LtsBuilder::new(alpha);
    b.add_states(names.len());
    b.add_initial(0);
    for (s, l, t) in trans {
        b.add_transition(s, l, t);
    }
    b.set_state_names(names);
    b.build().unwrap()
}

/// State index by name.
pub fn st(l: &Lts, name: &str) -> u32 {
    l.states().find(|&s| l.state_name(s) == name).unwrap()
}

/// Outcome of running a suite against an implementation along every branch.
#[derive(Default, Debug, Clone)]
pub struct Outcome {
    /// A fail leaf was reached in a Conformance suite.
    pub conformance_fail: bool,
    /// A fail leaf in a Conformance suite whose trace is not an ioco counterexample.
    pub unsound_fail: bool,
    /// The global monitor saw an ioco counterexample for the specification.
    pub monitor: bool,
    /// A fail leaf reached in a Distinguishing suite.
    pub distinguished: bool,
    /// Leaves visited.
    pub leaves: usize,
}

struct Run<'a> {
    imp: &'a Sa,
    spec: &'a Sa,
    ilab: FxHashMap<String, u16>,
    slab: FxHashMap<String, u16>,
}

impl Run<'_> {
    fn spec_step(&self, s: Option<u32>, label: &str) -> Result<Option<u32>, ()> {
        let Some(s) = s else { return Ok(None) };
        match self.slab.get(label).and_then(|&l| self.spec.step(s, l)) {
            Some(t) => Ok(Some(t)),
            None => {
                let is_input = label.ends_with('?');
                if is_input {
                    Ok(None)
                } else {
                    Err(())
                }
            }
        }
    }

    fn leaf(&self, v: Verdict, cex: bool, role: SuiteRole, out: &mut Outcome) {
        out.leaves += 1;
        if v == Verdict::Fail {
            match role {
                SuiteRole::Conformance => {
                    out.conformance_fail = true;
                    if !cex {
                        out.unsound_fail = true;
                    }
                }
                SuiteRole::Distinguishing => out.distinguished = true,
            }
        }
    }

    fn go(
        &self,
        t: &TestCase,
        i: u32,
        s: Option<u32>,
        cex: bool,
        role: SuiteRole,
        out: &mut Outcome,
    ) {
        match t {
            TestCase::Leaf { verdict, .. } => self.leaf(*verdict, cex, role, out),
            TestCase::Observe {
                branches,
                otherwise,
            } => {
                for (x, i2) in self.imp.outs(i) {
                    let label = &self.imp.display[x as usize];
                    let s2 = self.spec_step(s, label);
                    if s2.is_err() {
                        out.monitor = true;
                    }
                    let s2 = s2.unwrap_or(None);
                    match branches.iter().find(|b| &b.label == label) {
                        Some(b) => self.go(&b.then, i2, s2, false, role, out),
                        None => self.leaf(
                            *otherwise,
                            s.is_some() && self.spec_step(s, label).is_err(),
                            role,
                            out,
                        ),
                    }
                }
            }
            TestCase::Stimulate {
                input,
                after,
                branches,
                otherwise,
            } => {
                let a = self.ilab[input.as_str()];
                let i2 = self
                    .imp
                    .step(i, a)
                    .expect("implementation is input-enabled");
                let s2 = self.spec_step(s, input).unwrap_or(None);
                self.go(after, i2, s2, false, role, out);
                for (x, i2) in self.imp.outs(i) {
                    let label = &self.imp.display[x as usize];
                    if label == "δ" {
                        continue;
                    }
                    let s2 = self.spec_step(s, label);
                    if s2.is_err() {
                        out.monitor = true;
                    }
                    let bad = s2.is_err();
                    let s2 = s2.unwrap_or(None);
                    match branches.iter().find(|b| &b.label == label) {
                        Some(b) => self.go(&b.then, i2, s2, false, role, out),
                        None => self.leaf(*otherwise, bad, role, out),
                    }
                }
            }
        }
    }
}

/// Run every test of `suite` (nested suites included) against `imp`, all branches.
pub fn run_suite(suite: &Suite, imp: &Lts, spec: &Lts) -> Outcome {
    let imp = Sa::from_lts(imp).unwrap();
    let spec = Sa::from_lts(spec).unwrap();
    let r = Run {
        ilab: imp
            .display
            .iter()
            .enumerate()
            .map(|(i, d)| (d.clone(), i as u16))
            .collect(),
        slab: spec
            .display
            .iter()
            .enumerate()
            .map(|(i, d)| (d.clone(), i as u16))
            .collect(),
        imp: &imp,
        spec: &spec,
    };
    let mut out = Outcome::default();
    fn all(r: &Run, s: &Suite, out: &mut Outcome) {
        for t in &s.tests {
            r.go(
                &t.test,
                r.imp.initial,
                Some(r.spec.initial),
                false,
                s.role,
                out,
            );
        }
        for c in &s.suites {
            all(r, c, out);
        }
    }
    all(&r, suite, &mut out);
    out
}

pub mod sparse;
