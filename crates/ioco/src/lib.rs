//! # ioco: test a Rust component against a model, from `#[test]`
//!
//! The small public API of the ioco tool (in the style of proptest-state-machine): the
//! specification is a `.ioco` model ([`Model`], from a file or a string), the system under test
//! is your type implementing [`Component`] (inputs in, outputs out, with typed values; a label
//! is a gate with no arguments), and [`Test::assert_conforms`] runs online ioco testing
//! (tutorial Alg. 2) against it and panics with the readable report when it does not conform:
//! the trace, the observed output, the outputs the model allowed, the seed, and the shrunk
//! inputs that still make it fail.
//!
//! The engine is the symbolic one of `ioco-symbolic` (Z3 chooses input values inside the
//! guards; outputs are judged against the guards; a solver `unknown` never gives a Fail), so a
//! model may have unbounded data (`int`, recursive types). Same seed, same runs.
//!
//! ```
//! use ioco::{Action, Component, Model, Value};
//!
//! // A model as a string: after `ping?(x)`, `pong!(x + 1)`.
//! let model = Model::parse(
//!     "model Inc { input ping(x: int) output pong(y: int) var v: int = 0 init idle \
//!      idle -- ping?(x) { v = x } --> busy  busy -- pong!(=v + 1) --> idle }",
//! )
//! .unwrap();
//!
//! struct Inc;
//! impl Component for Inc {
//!     fn reset(&mut self) -> Vec<Action> { vec![] }
//!     fn input(&mut self, input: &Action) -> Vec<Action> {
//!         vec![Action::new("pong", vec![Value::Int(input.int(0).unwrap() + 1)])]
//!     }
//! }
//! model.test().runs(5).steps(20).assert_conforms(Inc);
//! ```
//!
//! The README's example (a FIFO queue against `examples/queue/queue.ioco`, and a faulty one
//! whose test panics with the report) is compiled and run as a doctest of this crate.

use ioco_exec::data_session::{run_data_online, DataFactory, DataSessionOptions};
use ioco_exec::{RunVerdict, Summary};
use ioco_lang::ir::{Direction, Spec};
use ioco_symbolic::online::{self, GateValue, Observation, Sent, Sut, SutError};
use ioco_symbolic::SymbolicSpec;
use std::collections::VecDeque;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use std::time::Instant;

pub use ioco_exec::adapter::inproc::{Action, Component};
pub use ioco_exec::RunVerdict as Verdict;
pub use ioco_lang::ir::Value;

#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// An error: the model does not load, or the engine cannot test it.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// A specification: the entry point of a `.ioco` model (or a named model or system of it).
#[derive(Clone)]
pub struct Model {
    model: Arc<ioco_lang::Model>,
    spec: Arc<Spec>,
}

impl Model {
    fn of(model: ioco_lang::Model, name: &str) -> Result<Model, Error> {
        let spec = model.entry().cloned().ok_or_else(|| {
            Error(format!(
                "{name} has no model to test: add a `model` without parameters or a `system`, \
                 or mark one with `@main`"
            ))
        })?;
        Ok(Model {
            model: Arc::new(model),
            spec: Arc::new(spec),
        })
    }

    /// Loads a `.ioco` file (and its imports). The error shows every diagnostic with
    /// `file:line:col`.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Model, Error> {
        let path = path.as_ref();
        let model = ioco_lang::parse_file(path).map_err(|d| Error(ioco_lang::render_plain(&d)))?;
        Model::of(model, &path.display().to_string())
    }

    /// Parses a model from its text.
    pub fn parse(src: &str) -> Result<Model, Error> {
        let model = ioco_lang::parse_str("model.ioco", src)
            .map_err(|d| Error(ioco_lang::render_plain(&d)))?;
        Model::of(model, "the model")
    }

    /// The model or system called `name` of the same file (instead of the entry point).
    pub fn select(&self, name: &str) -> Result<Model, Error> {
        let spec = self
            .model
            .spec(name)
            .ok_or_else(|| Error(format!("no parameterless model or system `{name}`")))?;
        Ok(Model {
            model: self.model.clone(),
            spec: Arc::new(spec.clone()),
        })
    }

    /// The name of the model or system tested.
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// The warnings of the model's text (e.g. a misspelt location), rendered with
    /// `file:line:col`.
    pub fn warnings(&self) -> Vec<String> {
        self.model
            .warnings()
            .iter()
            .map(|w| ioco_lang::render_plain(std::slice::from_ref(w)))
            .collect()
    }

    /// A test of this model with the default settings (20 runs of 50 steps, seed 0, failing
    /// runs shrunk).
    pub fn test(&self) -> Test {
        Test {
            spec: self.spec.clone(),
            runs: 20,
            steps: 50,
            seed: 0,
            shrink: true,
        }
    }
}

/// Settings of an online test (build with [`Model::test`]).
#[derive(Clone)]
pub struct Test {
    spec: Arc<Spec>,
    runs: usize,
    steps: usize,
    seed: u64,
    shrink: bool,
}

impl Test {
    /// Number of runs (each from the initial state, after a reset).
    pub fn runs(mut self, n: usize) -> Test {
        self.runs = n;
        self
    }

    /// Steps per run: inputs given and outputs or quiescence observed.
    pub fn steps(mut self, n: usize) -> Test {
        self.steps = n;
        self
    }

    /// The master seed (run `k` uses a seed derived from it; printed in the report).
    pub fn seed(mut self, seed: u64) -> Test {
        self.seed = seed;
        self
    }

    /// Shrink a failing run to fewer inputs (delta debugging; on by default).
    pub fn shrink(mut self, shrink: bool) -> Test {
        self.shrink = shrink;
        self
    }

    /// Tests `component`; stops at the first failing run. The report's verdict is Fail when
    /// the component does not conform.
    pub fn run<C: Component + Send + 'static>(&self, component: C) -> Result<Report, Error> {
        // the engine refuses some models (multi-actions): say so before running
        SymbolicSpec::with_z3(self.spec.clone())
            .map_err(|e| Error(format!("{}: {e}", self.spec.name)))?;
        let sut = Mutex::new(Some(InProcess::new(self.spec.clone(), component)));
        let factory: DataFactory = Box::new(move |_| {
            let sut = sut
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .take()
                .ok_or("the component is tested by one worker")?;
            Ok(Box::new(sut) as Box<dyn Sut<GateValue>>)
        });
        let opts = DataSessionOptions {
            runs: self.runs,
            jobs: 1,
            seed: self.seed,
            shrink: self.shrink,
            // in process, a replay costs microseconds: the bounds are generous, and two tries
            // per candidate as for any system with data
            shrinking: ioco_exec::shrinking::ShrinkOptions {
                tries: 2,
                ..Default::default()
            },
            keep_going: false,
            budget: None,
            online: online::OnlineOptions {
                steps: self.steps,
                input_bias: 0.5,
                timeouts: None,
            },
            progress: Default::default(),
            shard: None,
        };
        let t0 = Instant::now();
        let session = run_data_online(
            &self.spec,
            |spec| SymbolicSpec::with_z3(spec.clone()),
            &factory,
            &opts,
        )
        .map_err(|e| Error(format!("{}: {e}", self.spec.name)))?;
        let runs = session.runs;
        let mut summary = Summary::new("online", self.seed, runs);
        summary.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
        let p = &mut summary.parameters;
        p.insert("model".into(), self.spec.name.clone().into());
        p.insert("sut".into(), "in-process component".into());
        p.insert("engine".into(), "symbolic".into());
        p.insert("runs".into(), self.runs.into());
        p.insert("steps".into(), self.steps.into());
        let text = ioco_report::text::render(&summary, &Default::default());
        Ok(Report { summary, text })
    }

    /// Tests `component` and panics with the report unless it conforms (verdict Pass, or
    /// Inconclusive where the model leaves the behaviour open). Also panics when the model
    /// cannot be tested, with the reason.
    #[track_caller]
    pub fn assert_conforms<C: Component + Send + 'static>(&self, component: C) {
        match self.run(component) {
            Err(e) => panic!("ioco: cannot test {}: {e}", self.spec.name),
            Ok(r) if r.is_failure() => panic!(
                "ioco: the component does not conform to {}\n{}",
                self.spec.name, r.text
            ),
            Ok(_) => {}
        }
    }
}

/// The outcome of a test: the verdict, every run, and the readable text.
#[derive(Clone, Debug)]
pub struct Report {
    /// The summary (what `ioco test --json` writes).
    pub summary: Summary,
    text: String,
}

impl Report {
    /// Pass, Fail, Inconclusive or Error.
    pub fn verdict(&self) -> Verdict {
        self.summary.verdict
    }

    /// Fail (the component does not conform) or Error (it could not be tested).
    pub fn is_failure(&self) -> bool {
        matches!(self.summary.verdict, RunVerdict::Fail | RunVerdict::Error)
    }

    /// The readable report (as `ioco test` prints it).
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A [`Component`] as a system under test of the symbolic tester: outputs not yet observed
/// are pending (an input given while one is pending is raced by it, as with a real program);
/// an output the model has no gate for, or with values of the wrong number or type, is a
/// malformed observation (Fail); a panic is a crash.
struct InProcess<C> {
    component: C,
    spec: Arc<Spec>,
    pending: VecDeque<Action>,
    crashed: Option<String>,
}

impl<C: Component> InProcess<C> {
    fn new(spec: Arc<Spec>, component: C) -> Self {
        InProcess {
            component,
            spec,
            pending: VecDeque::new(),
            crashed: None,
        }
    }

    /// Calls the component, turning a panic into a crash.
    fn call(&mut self, f: impl FnOnce(&mut C) -> Vec<Action>) -> Result<(), SutError> {
        if let Some(why) = &self.crashed {
            return Err(SutError::Exited {
                status: why.clone(),
            });
        }
        match catch_unwind(AssertUnwindSafe(|| f(&mut self.component))) {
            Ok(outs) => {
                self.pending.extend(outs);
                Ok(())
            }
            Err(p) => {
                let msg = p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into());
                let why = format!("panicked: {msg}");
                self.crashed = Some(why.clone());
                Err(SutError::Exited { status: why })
            }
        }
    }

    /// An output, checked against the model's gates.
    fn check(&self, a: Action) -> Result<(String, Vec<Value>), String> {
        let defs = &self.spec.defs;
        let shown = online::label(&self.spec, &a.gate, &a.args, "!");
        // a multi-label of `@sync` is the gate `A|B` with the values of both
        let gates = ioco_symbolic::system::visible_gates(&self.spec)
            .unwrap_or_else(|_| self.spec.gates.clone());
        let Some(g) = gates.iter().find(|g| g.name == a.gate) else {
            return Err(format!("`{shown}`: the model has no gate `{}`", a.gate));
        };
        if g.dir != Direction::Output {
            return Err(format!("`{shown}`: `{}` is an input of the model", a.gate));
        }
        if g.params.len() != a.args.len() {
            return Err(format!(
                "`{shown}`: `{}` has {} parameter(s), not {}",
                a.gate,
                g.params.len(),
                a.args.len()
            ));
        }
        for ((p, ty), v) in g.params.iter().zip(&a.args) {
            if !defs.contains(*ty, v) {
                return Err(format!(
                    "`{shown}`: `{}` is not a value of `{p}: {}`",
                    v.display(defs),
                    defs.type_name(*ty)
                ));
            }
        }
        Ok((a.gate, a.args))
    }
}

impl<C: Component> Sut<GateValue> for InProcess<C> {
    fn reset(&mut self) -> Result<(), SutError> {
        self.pending.clear();
        self.crashed = None;
        self.call(|c| c.reset())
    }

    fn send(&mut self, input: GateValue) -> Result<Sent<GateValue>, SutError> {
        let (gate, args) = (input.0.as_str(), &input.1[..]);
        if let Some(o) = self.pending.pop_front() {
            return self
                .check(o)
                .map(Sent::Raced)
                .map_err(|line| SutError::UnknownOutput { line });
        }
        let input = Action::new(gate, args.to_vec());
        self.call(|c| c.input(&input))?;
        Ok(Sent::Accepted)
    }

    fn observe(&mut self, _timeout: Option<Duration>) -> Result<Observation<GateValue>, SutError> {
        match self.pending.pop_front() {
            Some(o) => self
                .check(o)
                .map(Observation::Output)
                .map_err(|line| SutError::UnknownOutput { line }),
            None => match &self.crashed {
                Some(why) => Err(SutError::Exited {
                    status: why.clone(),
                }),
                None => Ok(Observation::Quiescent),
            },
        }
    }
}
