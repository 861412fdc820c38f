//! On-the-fly testing with data (tutorial Alg. 2, P1 §7.2, over STSs): at each step either
//! send an input chosen by the tracker ([`SymbolicSpec::choose_input`]) or observe an output
//! or quiescence, and judge it ([`SymbolicSpec::after_output`] / `after_quiescence`).
//!
//! The system under test is a [`DataSut`]: gate names and typed values in, outputs or
//! quiescence out. Races are explicit: [`Sent::Raced`] means the system produced an output
//! before it took the input (the input was not delivered), as in the atomic try-send of the
//! tutorial's §2.4. [`InProcessSut`] wraps a closure-based implementation; [`SpecSut`]
//! simulates the spec itself (a conforming SUT by construction, used in property tests).

use crate::tracker::{Step, SymbolicSpec};
use ioco_lang::ir::Value;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// Result of sending an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sent {
    /// Delivered.
    Sent,
    /// Not delivered: the system produced this output first.
    Raced(String, Vec<Value>),
    /// Not delivered: the system produced a malformed output first (explained).
    RacedMalformed(String),
}

/// An observation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Observed {
    /// An output gate value.
    Output(String, Vec<Value>),
    /// Nothing within the time-out.
    Quiescent,
    /// Something that is not an output gate value of the spec (explained): a Fail.
    Malformed(String),
}

/// A system under test with data.
pub trait DataSut {
    /// Back to the initial state.
    fn reset(&mut self) -> Result<(), String>;
    /// Offers an input.
    fn send(&mut self, gate: &str, args: &[Value]) -> Result<Sent, String>;
    /// Waits for an output.
    fn observe(&mut self) -> Result<Observed, String>;
}

/// Final verdict of an online run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No non-conformance within the step budget.
    Pass,
    /// A non-conformance, explained.
    Fail(String),
    /// Stopped without a verdict (solver unknown, unspecified behaviour, SUT error).
    Inconclusive(String),
}

/// An online run.
#[derive(Clone, Debug)]
pub struct Run {
    /// The verdict.
    pub verdict: Verdict,
    /// The observed trace, `water?(100)`, `coffee!(120)`, `δ`.
    pub trace: Vec<String>,
}

/// Online testing parameters.
#[derive(Clone, Debug)]
pub struct OnlineOptions {
    /// Number of inputs, outputs and quiescence observations.
    pub steps: usize,
    /// Probability of trying an input when one is possible.
    pub input_bias: f64,
}

impl Default for OnlineOptions {
    fn default() -> Self {
        OnlineOptions {
            steps: 100,
            input_bias: 0.5,
        }
    }
}

/// Runs one online test (resets both sides first).
pub fn run_online(
    spec: &mut SymbolicSpec,
    sut: &mut dyn DataSut,
    opts: &OnlineOptions,
    rng: &mut ChaCha8Rng,
) -> Run {
    let mut trace = Vec::new();
    if let Err(e) = spec.reset() {
        return Run {
            verdict: Verdict::Inconclusive(e),
            trace,
        };
    }
    if let Err(e) = sut.reset() {
        return Run {
            verdict: Verdict::Inconclusive(format!("cannot reset the system: {}", e)),
            trace,
        };
    }
    let defs = spec.sys.spec.defs.clone();
    let label = |g: &str, v: &[Value], mark: &str| {
        let l = ioco_lang::semantics::label_name(&defs, g, v);
        match l.find('(') {
            Some(i) => format!("{}{}{}", &l[..i], mark, &l[i..]),
            None => format!("{}{}", l, mark),
        }
    };
    for _ in 0..opts.steps {
        let input = if rng.random_bool(opts.input_bias) {
            spec.choose_input(rng)
        } else {
            None
        };
        let step = match input {
            Some((g, vals)) => match sut.send(&g, &vals) {
                Ok(Sent::Sent) => {
                    trace.push(label(&g, &vals, "?"));
                    spec.after_input(&g, &vals)
                }
                Ok(Sent::Raced(og, ovals)) => {
                    trace.push(label(&og, &ovals, "!"));
                    spec.after_output(&og, &ovals)
                }
                Ok(Sent::RacedMalformed(why)) => Step::Fail(format!("malformed output: {}", why)),
                Err(e) => Step::Inconclusive(format!("system error: {}", e)),
            },
            None => match sut.observe() {
                Ok(Observed::Output(og, ovals)) => {
                    trace.push(label(&og, &ovals, "!"));
                    spec.after_output(&og, &ovals)
                }
                Ok(Observed::Quiescent) => {
                    trace.push("δ".into());
                    spec.after_quiescence()
                }
                Ok(Observed::Malformed(why)) => Step::Fail(format!("malformed output: {}", why)),
                Err(e) => Step::Inconclusive(format!("system error: {}", e)),
            },
        };
        match step {
            Step::Ok => {}
            Step::Fail(why) => {
                return Run {
                    verdict: Verdict::Fail(why),
                    trace,
                }
            }
            Step::Inconclusive(why) => {
                return Run {
                    verdict: Verdict::Inconclusive(why),
                    trace,
                }
            }
        }
    }
    Run {
        verdict: Verdict::Pass,
        trace,
    }
}

/// A gate value.
pub type GateValue = (String, Vec<Value>);
type InputFn<S> = Box<dyn FnMut(&mut S, &str, &[Value]) -> Vec<GateValue>>;
type OutputFn<S> = Box<dyn FnMut(&mut S) -> Option<GateValue>>;

/// An in-process system: a state and two functions. `input(state, gate, args)` handles an
/// input; `output(state)` returns the next output, if any (outputs queue up and are delivered
/// before inputs are accepted, which models races).
pub struct InProcessSut<S> {
    init: S,
    state: S,
    input: InputFn<S>,
    pending: VecDeque<(String, Vec<Value>)>,
    spontaneous: OutputFn<S>,
}

impl<S: Clone> InProcessSut<S> {
    /// `input` returns the outputs an input causes; `spontaneous` an output the system emits by
    /// itself in its state (checked when nothing is pending).
    pub fn new(
        init: S,
        input: impl FnMut(&mut S, &str, &[Value]) -> Vec<(String, Vec<Value>)> + 'static,
        spontaneous: impl FnMut(&mut S) -> Option<(String, Vec<Value>)> + 'static,
    ) -> InProcessSut<S> {
        InProcessSut {
            state: init.clone(),
            init,
            input: Box::new(input),
            pending: VecDeque::new(),
            spontaneous: Box::new(spontaneous),
        }
    }

    fn next_output(&mut self) -> Option<(String, Vec<Value>)> {
        if let Some(o) = self.pending.pop_front() {
            return Some(o);
        }
        (self.spontaneous)(&mut self.state)
    }
}

impl<S: Clone> DataSut for InProcessSut<S> {
    fn reset(&mut self) -> Result<(), String> {
        self.state = self.init.clone();
        self.pending.clear();
        Ok(())
    }

    fn send(&mut self, gate: &str, args: &[Value]) -> Result<Sent, String> {
        // an output the system has ready (queued or spontaneous) wins the race
        if let Some((g, v)) = self.next_output() {
            return Ok(Sent::Raced(g, v));
        }
        let outs = (self.input)(&mut self.state, gate, args);
        self.pending.extend(outs);
        Ok(Sent::Sent)
    }

    fn observe(&mut self) -> Result<Observed, String> {
        Ok(match self.next_output() {
            Some((g, v)) => Observed::Output(g, v),
            None => Observed::Quiescent,
        })
    }
}

/// The spec simulated as a system under test: a conforming implementation (when the spec is
/// input-enabled where tested). Outputs are chosen with the solver; quiescence when the current
/// states allow it (or at random when outputs are optional: never, to stay conforming, the
/// simulator only goes quiet when some state is provably quiescent).
pub struct SpecSut {
    sim: SymbolicSpec,
    rng: ChaCha8Rng,
    /// Probability of emitting an output when one is possible and quiescence is also allowed.
    pub eagerness: f64,
}

impl SpecSut {
    /// Simulates `sim`'s spec with its own random generator.
    pub fn new(sim: SymbolicSpec, rng: ChaCha8Rng) -> SpecSut {
        SpecSut {
            sim,
            rng,
            eagerness: 0.7,
        }
    }
}

impl DataSut for SpecSut {
    fn reset(&mut self) -> Result<(), String> {
        self.sim.reset()
    }

    fn send(&mut self, gate: &str, args: &[Value]) -> Result<Sent, String> {
        match self.sim.after_input(gate, args) {
            Step::Ok => Ok(Sent::Sent),
            // an input the spec does not specify: the simulator ignores it (input-enabled
            // completion by a self-loop is not expressible here, so report it)
            other => Err(format!("simulator cannot take {}: {:?}", gate, other)),
        }
    }

    fn observe(&mut self) -> Result<Observed, String> {
        let states = self.sim.states().to_vec();
        let quiet_ok = states
            .iter()
            .any(|q| self.sim.quiescence(q) == crate::tracker::Quiescence::Quiescent);
        if !quiet_ok || self.rng.random_bool(self.eagerness) {
            if let Some((g, v)) = self.sim.choose_output(&mut self.rng) {
                if self.sim.after_output(&g, &v) == Step::Ok {
                    return Ok(Observed::Output(g, v));
                }
            }
        }
        if quiet_ok {
            self.sim.after_quiescence();
            Ok(Observed::Quiescent)
        } else {
            Err("the simulator found no output and is not provably quiescent".into())
        }
    }
}
