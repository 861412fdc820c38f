//! Stepping through a specification by hand (`ioco explore`, as TorXakis's stepper): where the
//! model may be, which inputs it offers and which outputs (and δ) it allows, and a step by an
//! input or an observation of your choice. Every step goes through the engine's
//! [`Specification`] seam, so the explorer judges steps exactly as the tester does: an
//! observation the specification refuses is refused here too, with the tester's reason.
//!
//! Two steppers, one per engine: [`ExplicitStepper`] (the lazy suspension automaton of an LTS)
//! and [`SymbolicStepper`] (the symbolic tracker of a data model; a step on a gate without
//! values has its values chosen by the solver). Going back (`back`, `goto`, `reset`) restarts
//! the specification and takes the recorded steps again: the specification keeps no history.

use crate::engine::explicit::Explicit;
use crate::engine::symbolic::Symbolic;
use crate::engine::{Refusal, Specification};
use crate::options::OnlineOptions;
use crate::tester::Tester;
use ioco_lang::ir::Direction;
use ioco_model::{Label, Lts, QuiescencePolicy};
use ioco_symbolic::online::{allowed_outputs, label, GateValue};
use ioco_symbolic::SymbolicSpec;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A specification to step through.
pub trait Stepper {
    /// The states the model may be in now, as written.
    fn states(&mut self) -> Vec<String>;
    /// The inputs it offers now (a data model: each input gate with its parameters and, when
    /// the solver finds one, an example).
    fn inputs(&mut self) -> Vec<String>;
    /// The outputs (and `δ`) it allows now.
    fn outputs(&mut self) -> Vec<String>;
    /// Take a step: an input `a?`, an output `x!` or `δ` (a data model: with values,
    /// `water?(100)`, or without, values chosen by the solver). The step as recorded, or why
    /// the specification does not take it (the model is then where it was).
    fn step(&mut self, text: &str) -> Result<String, String>;
    /// The steps taken, as recorded.
    fn trace(&self) -> &[String];
    /// Back to after the first `n` steps of the trace (the rest is forgotten).
    fn goto(&mut self, n: usize) -> Result<(), String>;
    /// Whether a recorded step is an input (for a test case).
    fn is_input(&self, step: &str) -> bool {
        step.ends_with('?') || (step.contains('?') && !step.contains('!'))
    }
}

fn refusal(r: Refusal) -> String {
    match r {
        Refusal::Fail(f) => {
            let allowed = if f.allowed.is_empty() {
                "nothing".into()
            } else {
                f.allowed.join(", ")
            };
            format!(
                "the specification does not allow {} here (allowed: {allowed}): {}",
                f.observed, f.reason
            )
        }
        Refusal::Inconclusive(why) => format!("the specification cannot tell: {why}"),
    }
}

/// What the two steppers share below [`Stepper`]: one unrecorded step, back to the start, the
/// recorded steps.
trait Steps {
    fn apply(&mut self, text: &str) -> Result<String, String>;
    fn restart(&mut self) -> Result<(), String>;
    fn recorded(&mut self) -> &mut Vec<String>;

    /// [`Stepper::step`]: a refused step may have moved the tracker (a refused observation),
    /// so the trace is taken again.
    fn record(&mut self, text: &str) -> Result<String, String> {
        match self.apply(text) {
            Ok(s) => {
                self.recorded().push(s.clone());
                Ok(s)
            }
            Err(e) => {
                let n = self.recorded().len();
                self.back_to(n)?;
                Err(e)
            }
        }
    }

    /// [`Stepper::goto`].
    fn back_to(&mut self, n: usize) -> Result<(), String> {
        let steps: Vec<String> = self.recorded().iter().take(n).cloned().collect();
        self.restart()?;
        self.recorded().clear();
        for s in steps {
            let shown = self.apply(&s)?;
            self.recorded().push(shown);
        }
        Ok(())
    }
}

/// An LTS, stepped through its suspension automaton.
pub struct ExplicitStepper<'a> {
    tester: Tester<'a>,
    opts: OnlineOptions,
    trace: Vec<String>,
}

impl<'a> ExplicitStepper<'a> {
    /// A stepper at the initial states of `spec`.
    pub fn new(spec: &'a Lts, policy: QuiescencePolicy) -> ExplicitStepper<'a> {
        let mut s = ExplicitStepper {
            tester: Tester::new(spec, policy),
            opts: OnlineOptions {
                policy,
                ..OnlineOptions::default()
            },
            trace: Vec::new(),
        };
        let _ = s.spec().start();
        s
    }

    fn spec(&mut self) -> Explicit<'_, 'a> {
        Explicit {
            tester: &mut self.tester,
            opts: &self.opts,
        }
    }

    /// Take one step without recording it in `trace`.
    fn apply_step(&mut self, text: &str) -> Result<String, String> {
        let a = self.tester.alphabet();
        let hint = "write an input `name?`, an output `name!` or `δ` (also `delta`, `quiet`)";
        if matches!(text, "δ" | "delta" | "quiet" | "quiescence") {
            return self
                .spec()
                .observe(None)
                .map(|_| "δ".into())
                .map_err(refusal);
        }
        let l = a
            .parse(text)
            .or_else(|| a.lookup(text.trim_end_matches(['?', '!'])))
            .ok_or_else(|| format!("`{text}` is no label of the model ({hint})"))?;
        let shown = a.display(l);
        if a.is_input(l) {
            if !self.spec().enables(&l) {
                return Err(format!(
                    "{shown} is not offered here (inputs: {})",
                    self.inputs().join(", ")
                ));
            }
            self.spec().give(&l).map_err(refusal)?;
        } else if a.is_output(l) {
            self.spec().observe(Some(&l)).map_err(refusal)?;
        } else {
            return Err(format!("`{text}`: {hint}"));
        }
        Ok(shown)
    }
}

impl Stepper for ExplicitStepper<'_> {
    fn states(&mut self) -> Vec<String> {
        let lts = self.tester.spec();
        self.tester
            .sus
            .set(self.tester.q)
            .iter()
            .map(|&s| lts.state_name(s))
            .collect()
    }

    fn inputs(&mut self) -> Vec<String> {
        let a = self.tester.alphabet();
        self.tester
            .inputs()
            .into_iter()
            .map(|l: Label| a.display(l))
            .collect()
    }

    fn outputs(&mut self) -> Vec<String> {
        self.spec().allowed()
    }

    fn step(&mut self, text: &str) -> Result<String, String> {
        self.record(text)
    }

    fn trace(&self) -> &[String] {
        &self.trace
    }

    fn goto(&mut self, n: usize) -> Result<(), String> {
        self.back_to(n)
    }
}

/// A data model, stepped through its symbolic tracker.
pub struct SymbolicStepper {
    tracker: SymbolicSpec,
    trace: Vec<String>,
    rng: ChaCha8Rng,
}

impl SymbolicStepper {
    /// A stepper at the initial state of `tracker`'s model; `seed` seeds the values the solver
    /// is asked for first.
    pub fn new(mut tracker: SymbolicSpec, seed: u64) -> Result<SymbolicStepper, String> {
        tracker.reset()?;
        Ok(SymbolicStepper {
            tracker,
            trace: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
        })
    }

    fn show(&self, gv: &GateValue, mark: &str) -> String {
        label(&self.tracker.sys.spec, &gv.0, &gv.1, mark)
    }

    /// A multi-label of `@sync`: `a?(1)|b?(2)` with its values, or `a?|b?` (`a|b`) with
    /// values chosen by the solver.
    fn apply_multi(&mut self, text: &str) -> Result<String, String> {
        let spec = self.tracker.sys.spec.clone();
        let gv: GateValue = match ioco_symbolic::online::parse_gate_value(&spec, text) {
            Ok((g, v, _)) => (g, v),
            Err(e) if text.contains('(') => return Err(e),
            Err(e) => {
                let name: String = text.chars().filter(|c| !matches!(c, '?' | '!')).collect();
                let g = self.tracker.sys.gate(&name).ok_or(e)?;
                let (name, input) = {
                    let g = &self.tracker.sys.gates()[g as usize];
                    (g.name.clone(), g.dir == Direction::Input)
                };
                let chosen = if input {
                    self.tracker.choose_input_on(Some(&name), &mut self.rng)
                } else {
                    self.tracker.choose_output_on(Some(&name), &mut self.rng)
                };
                chosen.ok_or_else(|| format!("no values of `{name}` are possible here"))?
            }
        };
        let input = self
            .tracker
            .sys
            .gate(&gv.0)
            .is_some_and(|g| self.tracker.sys.gates()[g as usize].dir == Direction::Input);
        self.take(gv, input)
    }

    fn apply_step(&mut self, text: &str) -> Result<String, String> {
        let text = text.trim();
        if matches!(text, "δ" | "delta" | "quiet" | "quiescence") {
            let mut s = Symbolic::new(&mut self.tracker, None);
            return s.observe(None).map(|_| "δ".into()).map_err(refusal);
        }
        let spec = self.tracker.sys.spec.clone();
        if crate::adapter::wire::split_multi(text).len() > 1 {
            return self.apply_multi(text);
        }
        let name_end = text.find(['?', '!', '(']).unwrap_or(text.len());
        let name = &text[..name_end];
        let mark = text[name_end..].chars().next();
        let gates: Vec<&ioco_lang::ir::Gate> = spec
            .gates
            .iter()
            .filter(|g| {
                g.name == name
                    && match mark {
                        Some('?') => g.dir == Direction::Input,
                        Some('!') => g.dir == Direction::Output,
                        _ => true,
                    }
            })
            .collect();
        let gate = match gates.as_slice() {
            [g] => *g,
            [] => {
                return Err(format!(
                    "`{text}`: the model has no gate `{name}` (gates: {})",
                    spec.gates
                        .iter()
                        .map(|g| format!(
                            "{}{}",
                            g.name,
                            if g.dir == Direction::Input { "?" } else { "!" }
                        ))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            }
            _ => {
                return Err(format!(
                    "`{text}`: `{name}` is an input and an output: write `{name}?` or `{name}!`"
                ))
            }
        };
        let input = gate.dir == Direction::Input;
        let has_values = text[name_end..].contains('(');
        let gv: GateValue = if has_values || gate.params.is_empty() {
            let written = if has_values {
                let rest = &text[name_end..];
                let rest = rest.trim_start_matches(['?', '!']);
                format!("{name}{}{rest}", if input { "?" } else { "!" })
            } else {
                format!("{name}{}", if input { "?" } else { "!" })
            };
            let (g, v, _) = ioco_symbolic::online::parse_gate_value(&spec, &written)?;
            (g, v)
        } else {
            let chosen = if input {
                self.tracker.choose_input_on(Some(name), &mut self.rng)
            } else {
                self.tracker.choose_output_on(Some(name), &mut self.rng)
            };
            chosen.ok_or_else(|| {
                format!(
                    "no values of `{name}` are {} here (the solver found none)",
                    if input { "offered" } else { "allowed" }
                )
            })?
        };
        self.take(gv, input)
    }

    /// Gives input `gv` to the tracker, or observes output `gv`: the label shown, or why the
    /// model refuses it.
    fn take(&mut self, gv: GateValue, input: bool) -> Result<String, String> {
        let shown = self.show(&gv, if input { "?" } else { "!" });
        let mut s = Symbolic::new(&mut self.tracker, None);
        if input {
            if !s.enables(&gv) {
                return Err(format!("{shown} is not offered here"));
            }
            s.give(&gv).map_err(refusal)?;
        } else {
            s.observe(Some(&gv)).map_err(refusal)?;
        }
        Ok(shown)
    }
}

impl Stepper for SymbolicStepper {
    fn states(&mut self) -> Vec<String> {
        let sys = &self.tracker.sys;
        self.tracker
            .states()
            .iter()
            .map(|q| sys.describe(q))
            .collect()
    }

    fn inputs(&mut self) -> Vec<String> {
        let spec = self.tracker.sys.spec.clone();
        let mut out = Vec::new();
        // the multi-labels of `@sync` too (`a|b`)
        let gates = self.tracker.sys.gates().to_vec();
        for g in gates.iter().filter(|g| g.dir == Direction::Input) {
            let Some(example) = self.tracker.choose_input_on(Some(&g.name), &mut self.rng) else {
                continue;
            };
            if g.params.is_empty() {
                out.push(format!("{}?", g.name));
            } else {
                let params: Vec<String> = g
                    .params
                    .iter()
                    .map(|(n, t)| format!("{n}: {}", spec.defs.type_name(*t)))
                    .collect();
                out.push(format!(
                    "{}?({})  e.g. {}",
                    g.name,
                    params.join(", "),
                    self.show(&example, "?")
                ));
            }
        }
        out
    }

    fn outputs(&mut self) -> Vec<String> {
        allowed_outputs(&mut self.tracker)
    }

    fn step(&mut self, text: &str) -> Result<String, String> {
        self.record(text)
    }

    fn trace(&self) -> &[String] {
        &self.trace
    }

    fn goto(&mut self, n: usize) -> Result<(), String> {
        self.back_to(n)
    }
}

impl Steps for ExplicitStepper<'_> {
    fn apply(&mut self, text: &str) -> Result<String, String> {
        self.apply_step(text)
    }
    fn restart(&mut self) -> Result<(), String> {
        self.spec().start()
    }
    fn recorded(&mut self) -> &mut Vec<String> {
        &mut self.trace
    }
}

impl Steps for SymbolicStepper {
    fn apply(&mut self, text: &str) -> Result<String, String> {
        self.apply_step(text)
    }
    fn restart(&mut self) -> Result<(), String> {
        self.tracker.reset()
    }
    fn recorded(&mut self) -> &mut Vec<String> {
        &mut self.trace
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ioco_model::LtsBuilder;

    fn coffee() -> Lts {
        let mut b = LtsBuilder::new(ioco_model::Alphabet::new());
        let s = b.add_states(3);
        b.add_initial(s);
        let coin = b.alphabet_mut().input("coin").unwrap();
        let tea = b.alphabet_mut().output("tea").unwrap();
        b.add_transition(s, coin, s + 1);
        b.add_transition(s + 1, tea, s);
        b.build().unwrap()
    }

    #[test]
    fn steps_back_and_refusals_go_through_the_specification() {
        let lts = coffee();
        let mut st = ExplicitStepper::new(&lts, QuiescencePolicy::Stable);
        assert_eq!(st.inputs(), vec!["coin?"]);
        assert_eq!(st.outputs(), vec!["δ"]);
        assert_eq!(st.step("coin").unwrap(), "coin?");
        assert_eq!(st.outputs(), vec!["tea!"]);
        // quiescence is refused where tea! is required, and the model stays where it was
        let e = st.step("δ").unwrap_err();
        assert!(e.contains("does not allow δ"), "{e}");
        assert_eq!(st.trace(), ["coin?"]);
        assert_eq!(st.states(), vec!["1"]);
        st.step("tea!").unwrap();
        st.step("δ").unwrap();
        assert_eq!(st.trace(), ["coin?", "tea!", "δ"]);
        st.goto(1).unwrap();
        assert_eq!(st.trace(), ["coin?"]);
        assert_eq!(st.outputs(), vec!["tea!"]);
        assert!(st.step("milk?").unwrap_err().contains("no label"));
    }
}
