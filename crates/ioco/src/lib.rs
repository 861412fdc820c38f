//! # ioco: test a Rust component or a program against a model, from `#[test]`
//!
//! The public Rust API of the ioco tool (in the style of proptest-state-machine): the
//! specification is a `.ioco` model ([`Model`], from a file or a string); the system under
//! test is your type implementing [`Component`] (inputs in, outputs out, with typed values; a
//! label is a gate with no arguments) or a real [`Program`] spoken to over its standard input
//! and output; [`Test::assert_conforms`] (and [`Test::assert_program_conforms`]) runs online
//! ioco testing (tutorial Alg. 2) against it and panics with the readable report when it does
//! not conform: the trace, the observed output, the outputs the model allowed, the seed, and
//! the shrunk inputs that still make it fail. [`Test::report_on_failure`] also writes the HTML
//! and JSON reports of `ioco test --html/--json` and names them in the panic.
//!
//! The options are those of `ioco test`, with the same meaning and defaults where they apply:
//! [`Test::runs`], [`Test::steps`], [`Test::seed`] (same seed, same runs), [`Test::jobs`],
//! [`Test::shrink`], [`Test::keep_going`], the quiescence time-outs [`Test::timeout`],
//! [`Test::timeout_gate`], [`Test::timeout_location`] (besides the model's `@timeout`s),
//! [`Test::engine`] and, for the symbolic engine, [`Test::values`]. A [`Report`] is the
//! CLI's result: [`Report::to_json`], [`Report::write_html`].
//!
//! The engine is chosen as `ioco test` chooses it ([`Model::engine`]): a model whose values
//! reached are finitely many (every model without data) runs on the explicit engine (its
//! suspension automaton, no solver); a model with infinite data (`int`, strings, recursive
//! types) on the symbolic engine (Z3 chooses input values inside the guards; outputs are
//! judged against the guards; a solver `unknown` never gives a Fail).
//!
//! ## Cargo features
//!
//! - `symbolic` (on by default): the symbolic engine, which needs Z3 (`libz3`). With
//!   `default-features = false` nothing of Z3 is built or linked; models without data are
//!   tested as before, and testing a model that needs the symbolic engine is an [`Error`]
//!   that names this feature.
//!
//! ## Example
//!
//! A model as a string, and a component that conforms to it:
//!
//! ```
//! use ioco::{Action, Component, Model, Verdict};
//!
//! // after coin?, coffee! or tea!; a coin while brewing is not specified
//! let model = Model::parse(
//!     "model Vending { input coin output coffee, tea init idle \
//!      idle -- coin? --> busy  busy -- coffee! --> idle  busy -- tea! --> idle }",
//! )
//! .unwrap();
//!
//! struct Machine;
//! impl Component for Machine {
//!     fn reset(&mut self) -> Vec<Action> { vec![] }
//!     fn input(&mut self, _coin: &Action) -> Vec<Action> { vec![Action::label("coffee")] }
//! }
//! model.test().runs(5).steps(20).seed(1).assert_conforms(Machine);
//!
//! // one that gives two drinks for a coin does not conform: the report says why
//! struct Greedy;
//! impl Component for Greedy {
//!     fn reset(&mut self) -> Vec<Action> { vec![] }
//!     fn input(&mut self, _coin: &Action) -> Vec<Action> {
//!         vec![Action::label("coffee"), Action::label("tea")]
//!     }
//! }
//! let report = model.test().runs(5).steps(20).seed(1).run(Greedy).unwrap();
//! assert_eq!(report.verdict(), Verdict::Fail);
//! assert!(report.text().contains("observed  tea!"), "{report}");
//! assert!(report.to_json().contains("\"verdict\": \"fail\""));
//! assert!(report.to_html().contains("<svg"));
//! ```
//!
//! A real program, with options and the reports on failure (`tests/program.rs` runs it on
//! the bundled coffee machine):
//!
//! ```no_run
//! use ioco::{Model, Program};
//! use std::time::Duration;
//!
//! #[test]
//! fn the_coffee_machine_conforms() {
//!     let model = Model::from_file("examples/coffee/coffee.ioco").unwrap();
//!     let machine = Program::new(env!("CARGO_BIN_EXE_coffee-sut"))
//!         .arg("--ack")
//!         .quiescence_marker("#quiet");
//!     model
//!         .test()
//!         .runs(20)
//!         .steps(40)
//!         .seed(7)
//!         .jobs(2)
//!         .timeout(Duration::from_secs(5))
//!         .report_on_failure("target/ioco-reports")
//!         .assert_program_conforms(&machine);
//! }
//! ```
//!
//! The README's examples (a FIFO queue with data against `examples/queue/queue.ioco`, and a
//! faulty one whose test panics with the report) are compiled and run as doctests of this
//! crate (with the feature `symbolic`).

use ioco_exec::{OnlineOptions, RunVerdict, Summary};
use ioco_lang::ir::{Direction, Spec};
use ioco_report::graph::{self, Graph};
use ioco_report::walk::{self, Visits};
use ioco_sut::labels::Labels;
use ioco_sut::process::{ProcessConfig, ResetMode};
use ioco_sut::system::System;
use ioco_symbolic::online::{self, GateValue, Observation, Sent, Sut, SutError};
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use ioco_exec::RunVerdict as Verdict;
pub use ioco_lang::ir::Value;
pub use ioco_sut::inproc::{Action, Component};
/// How the symbolic engine chooses every field of every input value (the CLI's `--values`):
/// `Mixed` (the default), `Random`, `Small`, `Partition`, `Boundary`, `Growing`, `Model`.
#[cfg(feature = "symbolic")]
pub use ioco_symbolic::pick::Strategy as Values;

#[cfg(all(doctest, feature = "symbolic"))]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// An error: the model does not load, the engine cannot test it, the system under test does
/// not start, or a report cannot be written.
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

/// The engine that tests a model (the CLI's `--engine`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The model's LTS and its suspension automaton (needs finitely many values reached; no
    /// Z3).
    Explicit,
    /// The model with its data, symbolically: input values chosen by the solver, outputs
    /// judged against the guards (Z3; the cargo feature `symbolic`).
    Symbolic,
}

/// A specification: the entry point of a `.ioco` model (or a named model or system of it).
#[derive(Clone)]
pub struct Model {
    model: Arc<ioco_lang::Model>,
    spec: Arc<Spec>,
    source: Option<PathBuf>,
}

impl Model {
    fn of(model: ioco_lang::Model, name: &str, source: Option<PathBuf>) -> Result<Model, Error> {
        let spec = model.entry().cloned().ok_or_else(|| {
            Error(format!(
                "{name} has no model to test: add a `model` without parameters or a `system`, \
                 or mark one with `@main`"
            ))
        })?;
        Ok(Model {
            model: Arc::new(model),
            spec: Arc::new(spec),
            source,
        })
    }

    /// Loads a `.ioco` file (and its imports). The error shows every diagnostic with
    /// `file:line:col`.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Model, Error> {
        let path = path.as_ref();
        let model = ioco_lang::parse_file(path).map_err(|d| Error(ioco_lang::render_plain(&d)))?;
        Model::of(model, &path.display().to_string(), Some(path.to_path_buf()))
    }

    /// Parses a model from its text.
    pub fn parse(src: &str) -> Result<Model, Error> {
        let model = ioco_lang::parse_str("model.ioco", src)
            .map_err(|d| Error(ioco_lang::render_plain(&d)))?;
        Model::of(model, "the model", None)
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
            source: self.source.clone(),
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

    /// The engine that tests this model by default, chosen as `ioco test` chooses it
    /// (`ioco_load::engine::choose`): explicit wherever the values reached are finitely many,
    /// symbolic where they are not; and why.
    pub fn engine(&self) -> (Engine, Option<String>) {
        let c = ioco_load::engine::choose(&self.spec);
        match c.engine {
            ioco_load::engine::Engine::Explicit => (Engine::Explicit, c.infinite),
            ioco_load::engine::Engine::Symbolic => (Engine::Symbolic, c.infinite),
        }
    }

    /// A test of this model with the default settings (20 runs of 50 steps, seed 0, one job,
    /// failing runs shrunk, the engine chosen by [`Model::engine`], the model's `@timeout`s
    /// and otherwise a quiescence time-out of 1 s, or 2 s for a program with a quiescence
    /// marker, as `ioco test`).
    pub fn test(&self) -> Test {
        Test {
            model: self.clone(),
            runs: 20,
            steps: 50,
            seed: 0,
            shrink: true,
            jobs: 1,
            keep_going: false,
            engine: None,
            #[cfg(feature = "symbolic")]
            values: None,
            timeout: None,
            timeout_gates: Vec::new(),
            timeout_locations: Vec::new(),
            report_dir: None,
        }
    }
}

/// Settings of an online test (build with [`Model::test`]).
#[derive(Clone)]
pub struct Test {
    model: Model,
    runs: usize,
    steps: usize,
    seed: u64,
    shrink: bool,
    jobs: usize,
    keep_going: bool,
    engine: Option<Engine>,
    #[cfg(feature = "symbolic")]
    values: Option<Values>,
    timeout: Option<Duration>,
    timeout_gates: Vec<(String, Duration)>,
    timeout_locations: Vec<(String, Duration)>,
    report_dir: Option<PathBuf>,
}

/// What a session runs against: a component (one per worker) or a program.
enum Target<'a> {
    Component(&'a (dyn Fn() -> Option<Box<dyn Component + Send>> + Send + Sync)),
    Program(&'a Program),
}

/// A maker of systems under test over labels, one per worker (the explicit engine's).
type LabelFactory<'a> =
    Box<dyn Fn(usize) -> Result<Box<dyn ioco_exec::Sut + Send>, SutError> + Sync + 'a>;

/// A boxed component is a component (for one per worker).
struct Boxed(Box<dyn Component + Send>);

impl Component for Boxed {
    fn reset(&mut self) -> Vec<Action> {
        self.0.reset()
    }
    fn input(&mut self, input: &Action) -> Vec<Action> {
        self.0.input(input)
    }
}

impl Test {
    /// Number of runs (each from the initial state, after a reset). At least 1.
    pub fn runs(mut self, n: usize) -> Test {
        self.runs = n;
        self
    }

    /// Steps per run: inputs given and outputs or quiescence observed. At least 1.
    pub fn steps(mut self, n: usize) -> Test {
        self.steps = n;
        self
    }

    /// The master seed (run `k` uses a seed derived from it; printed in the report). Same
    /// seed, same runs.
    pub fn seed(mut self, seed: u64) -> Test {
        self.seed = seed;
        self
    }

    /// Shrink a failing run to fewer inputs (delta debugging; on by default).
    pub fn shrink(mut self, shrink: bool) -> Test {
        self.shrink = shrink;
        self
    }

    /// Runs at once, each worker with its own system under test (`ioco test --jobs`): a
    /// program started per worker, or a component made per worker by [`Test::run_with`].
    /// Which runs a worker takes does not depend on timing, so the verdicts are the same
    /// for any number of jobs.
    pub fn jobs(mut self, n: usize) -> Test {
        self.jobs = n.max(1);
        self
    }

    /// Go on after a failing run (`--keep-going`): every run is made and reported.
    pub fn keep_going(mut self, on: bool) -> Test {
        self.keep_going = on;
        self
    }

    /// The engine (`--engine`), instead of the one [`Model::engine`] chooses.
    pub fn engine(mut self, engine: Engine) -> Test {
        self.engine = Some(engine);
        self
    }

    /// How the symbolic engine chooses input values (`--values`); asks for the symbolic
    /// engine.
    #[cfg(feature = "symbolic")]
    pub fn values(mut self, values: Values) -> Test {
        self.values = Some(values);
        self
    }

    /// How long to wait for an output before concluding quiescence (`--timeout`), where the
    /// model's `@timeout` and [`Test::timeout_gate`]/[`Test::timeout_location`] say nothing;
    /// overrides the model's own `@timeout`. A program with a quiescence marker ends the wait
    /// early, so a long time-out costs nothing there. (A component answers at once: it has no
    /// time-out.)
    pub fn timeout(mut self, timeout: Duration) -> Test {
        self.timeout = Some(timeout);
        self
    }

    /// The quiescence time-out after an input or output of `gate` (`--timeout-gate`),
    /// overriding the model's `@timeout` on it.
    pub fn timeout_gate(mut self, gate: &str, timeout: Duration) -> Test {
        let g = gate.trim().trim_end_matches(['?', '!']).to_string();
        self.timeout_gates.push((g, timeout));
        self
    }

    /// The quiescence time-out in a location (`Model.location` or `location`;
    /// `--timeout-location`), overriding the model's `@timeout` on it.
    pub fn timeout_location(mut self, location: &str, timeout: Duration) -> Test {
        self.timeout_locations
            .push((location.trim().to_string(), timeout));
        self
    }

    /// Where [`Test::assert_conforms`] and its siblings write the HTML and JSON reports of
    /// a test that does not conform (the panic message names the files; see
    /// [`Report::report_on_failure`]).
    pub fn report_on_failure(mut self, dir: impl AsRef<Path>) -> Test {
        self.report_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Tests `component` with one worker ([`Test::run_with`] makes one per job); stops at the
    /// first failing run unless [`Test::keep_going`]. The report's verdict is Fail when the
    /// component does not conform.
    pub fn run<C: Component + Send + 'static>(&self, component: C) -> Result<Report, Error> {
        if self.jobs > 1 {
            return Err(Error(format!(
                "jobs({}) needs a component per worker: give `run_with(|| ...)` a function that \
                 makes one, or leave out jobs",
                self.jobs
            )));
        }
        let one = Mutex::new(Some(component));
        let make = move || -> Option<Box<dyn Component + Send>> {
            let c = one.lock().unwrap_or_else(|p| p.into_inner()).take()?;
            Some(Box::new(c))
        };
        self.session(Target::Component(&make))
    }

    /// Tests the components `make` makes, one per worker (see [`Test::jobs`]).
    pub fn run_with<C, F>(&self, make: F) -> Result<Report, Error>
    where
        C: Component + Send + 'static,
        F: Fn() -> C + Send + Sync,
    {
        let make = move || -> Option<Box<dyn Component + Send>> { Some(Box::new(make())) };
        self.session(Target::Component(&make))
    }

    /// Tests a real program (see [`Program`]), started anew for every run.
    pub fn run_program(&self, program: &Program) -> Result<Report, Error> {
        self.session(Target::Program(program))
    }

    /// Tests `component` and panics with the report unless it conforms (verdict Pass, or
    /// Inconclusive where the model leaves the behaviour open). Also panics when the model
    /// cannot be tested, with the reason. With [`Test::report_on_failure`], the panic names
    /// the HTML and JSON reports it wrote.
    #[track_caller]
    pub fn assert_conforms<C: Component + Send + 'static>(&self, component: C) {
        self.assert(self.run(component));
    }

    /// [`Test::assert_conforms`] for a program.
    #[track_caller]
    pub fn assert_program_conforms(&self, program: &Program) {
        self.assert(self.run_program(program));
    }

    #[track_caller]
    fn assert(&self, r: Result<Report, Error>) {
        match r {
            Err(e) => panic!("ioco: cannot test {}: {e}", self.model.name()),
            Ok(r) => match &self.report_dir {
                Some(dir) => {
                    r.report_on_failure(dir);
                }
                None if r.is_failure() => panic!(
                    "ioco: the system under test does not conform to {}\n{}",
                    self.model.name(),
                    r.text
                ),
                None => {}
            },
        }
    }

    /// The engine that runs, and why.
    fn pick(&self) -> Result<(Engine, Option<String>), Error> {
        let (chosen, why) = self.model.engine();
        #[cfg(feature = "symbolic")]
        let asked = self
            .engine
            .or(self.values.map(|_| Engine::Symbolic))
            .unwrap_or(chosen);
        #[cfg(not(feature = "symbolic"))]
        let asked = self.engine.unwrap_or(chosen);
        #[cfg(feature = "symbolic")]
        if asked == Engine::Explicit && self.values.is_some() {
            return Err(Error(
                "values(..) chooses values for the symbolic engine, which is not the engine \
                 asked for: leave out engine(Engine::Explicit) or values(..)"
                    .into(),
            ));
        }
        Ok((asked, why))
    }

    fn session(&self, target: Target<'_>) -> Result<Report, Error> {
        let name = self.model.name().to_string();
        if self.runs == 0 || self.steps == 0 {
            return Err(Error(format!(
                "runs({}) and steps({}) must be at least 1: a session of no run or step tests \
                 nothing",
                self.runs, self.steps
            )));
        }
        let (engine, why) = self.pick()?;
        let t0 = Instant::now();
        let mut report = match engine {
            Engine::Explicit => self.explicit(&target, why.as_deref())?,
            #[cfg(feature = "symbolic")]
            Engine::Symbolic => self.symbolic(&target)?,
            #[cfg(not(feature = "symbolic"))]
            Engine::Symbolic => {
                return Err(Error(format!(
                    "{name} needs the symbolic engine ({}), which this build of the `ioco` crate \
                     leaves out: turn on its cargo feature `symbolic` (on by default; it needs \
                     Z3), or bound the model's data types so that the explicit engine takes it",
                    why.unwrap_or_else(|| "engine(Engine::Symbolic)".into())
                )))
            }
        };
        let s = &mut report.summary;
        s.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
        let p = &mut s.parameters;
        let model = match &self.model.source {
            Some(path) => path.display().to_string(),
            None => name.clone(),
        };
        p.insert("model".into(), model.into());
        p.insert("entry".into(), name.into());
        p.insert(
            "sut".into(),
            match &target {
                Target::Component(_) => "in-process component".to_string(),
                Target::Program(prog) => prog.describe(),
            }
            .into(),
        );
        if let (Target::Program(prog), Some(_)) = (&target, &self.model.source) {
            // what `ioco replay` needs to replay a run against the same program, for the
            // reports' replay command (as `ioco test` records its own options)
            let mut o = vec!["--sut".to_string(), prog.command()];
            if let Some(m) = &prog.marker {
                o.extend(["--quiescence-marker".into(), m.clone()]);
            }
            if let Some(l) = &prog.reset_line {
                o.extend(["--reset-line".into(), l.clone()]);
            }
            if let Some(t) = self.timeout {
                o.push(format!("--timeout={}", t.as_millis()));
            }
            for (g, t) in &self.timeout_gates {
                o.push(format!("--timeout-gate={g}={}", t.as_millis()));
            }
            for (l, t) in &self.timeout_locations {
                o.push(format!("--timeout-location={l}={}", t.as_millis()));
            }
            let engine = match engine {
                Engine::Explicit => "explicit",
                Engine::Symbolic => "symbolic",
            };
            o.push(format!("--engine={engine}"));
            if self.model.model.entry().map(|e| e.name.as_str()) != Some(self.model.name()) {
                o.push(format!("--entry={}", self.model.name()));
            }
            report.summary.replay_options = o;
        }
        report.text = ioco_report::text::render(&report.summary, &Default::default());
        Ok(report)
    }

    /// The default quiescence time-out where nothing else says one (as `ioco test`).
    fn fallback(&self, target: &Target<'_>) -> Duration {
        match target {
            Target::Program(p) if p.marker.is_some() => Duration::from_millis(2000),
            _ => Duration::from_millis(1000),
        }
    }

    /// The user's time-outs of `what` ("gate" or "location"), checked against `known`.
    fn overrides(&self, what: &str, known: &[String]) -> Result<HashMap<String, Duration>, Error> {
        let (given, method) = match what {
            "gate" => (&self.timeout_gates, "timeout_gate"),
            _ => (&self.timeout_locations, "timeout_location"),
        };
        let mut out = HashMap::new();
        for (name, d) in given {
            if !known.iter().any(|k| k == name) {
                let mut all: Vec<&str> = known.iter().map(String::as_str).collect();
                all.truncate(20);
                return Err(Error(format!(
                    "{method}(\"{name}\", ..): the model has no {what} `{name}` (its {what}s: {})",
                    all.join(", ")
                )));
            }
            out.insert(name.clone(), *d);
        }
        Ok(out)
    }

    fn explicit(&self, target: &Target<'_>, why: Option<&str>) -> Result<Report, Error> {
        let spec = &self.model.spec;
        let (lts, timing) =
            ioco_lang::translate::to_lts_timed(spec, &ioco_lang::translate::Options::default())
                .map_err(|e| {
                    let mut d = e.into_diagnostic();
                    d.attach(&self.model.model.sources);
                    let text = ioco_lang::render_plain(std::slice::from_ref(&d));
                    Error(match why {
                        Some(why) => format!(
                            "the explicit engine needs the values reached to be finitely many, \
                             but {} has infinite data ({why}): {text}",
                            spec.name
                        ),
                        None => text,
                    })
                })?;
        let waits = ioco_load::timing::explicit(
            &lts,
            Some(&timing),
            self.timeout,
            self.fallback(target),
            |what: &str, known: &[String]| self.overrides(what, known),
        )?;
        let alphabet = lts.alphabet().clone();
        let factory: LabelFactory<'_> = match target {
            Target::Component(make) => {
                let spec = spec.clone();
                Box::new(move |_| {
                    let c = make().ok_or_else(|| {
                        SutError::Start("the component is tested by one worker".into())
                    })?;
                    let c = InProcess::new(spec.clone(), Boxed(c));
                    Ok(Box::new(Labels::with_spec(c, spec.clone(), &alphabet))
                        as Box<dyn ioco_exec::Sut + Send>)
                })
            }
            Target::Program(prog) => {
                let mut cfg = prog.config(waits.default);
                // a label of a model with data is its gate and values on the wire
                cfg.wire.gate_values = true;
                System::Process(cfg)
                    .labels(&alphabet, None)
                    .map_err(|e| Error(e.to_string()))?
                    .factory
            }
        };
        let opts = OnlineOptions {
            runs: self.runs,
            depth: self.steps,
            jobs: self.jobs,
            seed: self.seed,
            stop_on_failure: !self.keep_going,
            shrink: self.shrink,
            quiescence_timeout: waits.default,
            timeouts: waits.timeouts.clone(),
            ..OnlineOptions::default()
        };
        let summary = ioco_exec::run_online(&lts, &opts, factory)
            .map_err(|e| Error(format!("{}: {e}", spec.name)))?;
        let mut summary = summary;
        let p = &mut summary.parameters;
        p.insert("engine".into(), "explicit".into());
        p.insert(
            "timeout_ms".into(),
            (waits.default.as_millis() as u64).into(),
        );
        Ok(Report {
            summary,
            text: String::new(),
            picture: Picture::Explicit(Arc::new(lts)),
        })
    }

    #[cfg(feature = "symbolic")]
    fn symbolic(&self, target: &Target<'_>) -> Result<Report, Error> {
        use ioco_exec::data_session::{run_data_online, DataFactory};
        use ioco_symbolic::online::SpecTimeouts;
        use ioco_symbolic::SymbolicSpec;
        let spec = self.model.spec.clone();
        // the engine refuses some models (multi-actions): say so before running
        SymbolicSpec::with_z3(spec.clone()).map_err(|e| Error(format!("{}: {e}", spec.name)))?;
        let mut timeouts = ioco_exec::Timeouts::of_spec(&spec);
        let default = self.timeout.unwrap_or_else(|| {
            online::model_timeout(&spec).unwrap_or_else(|| self.fallback(target))
        });
        let gates: Vec<String> = spec.gates.iter().map(|g| g.name.clone()).collect();
        for (name, d) in self.overrides("gate", &gates)? {
            if let Some(i) = spec.gates.iter().position(|g| g.name == name) {
                timeouts.labels[i] = Some(d);
            }
        }
        let mut locations = Vec::new();
        for a in &spec.automata {
            for l in &a.locations {
                locations.push(l.name.clone());
                locations.push(format!("{}.{}", a.name, l.name));
            }
        }
        for (name, d) in self.overrides("location", &locations)? {
            timeouts.set_location(&spec, &name, d);
        }
        let factory: DataFactory = match target {
            Target::Component(make) => {
                // `DataFactory` is 'static: the components of the workers are made here,
                // and each worker takes one
                let made: Vec<Mutex<Option<Box<dyn Component + Send>>>> =
                    (0..self.jobs).map(|_| Mutex::new(make())).collect();
                let made = Arc::new(made);
                let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
                let spec = spec.clone();
                Box::new(move |_| {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let c = made
                        .get(i)
                        .and_then(|m| m.lock().unwrap_or_else(|p| p.into_inner()).take())
                        .ok_or("a component per worker")?;
                    Ok(Box::new(InProcess::new(spec.clone(), Boxed(c))) as Box<dyn Sut<GateValue>>)
                })
            }
            // (the settling time is `default`: the adapters' wait for an output)
            Target::Program(prog) => {
                System::Process(prog.config(default))
                    .gate_values(&spec)
                    .map_err(|e| Error(e.to_string()))?
                    .factory
            }
        };
        let opts = ioco_exec::OnlineOptions {
            runs: self.runs,
            jobs: self.jobs,
            seed: self.seed,
            shrink: self.shrink,
            // in process, a replay costs microseconds; two tries per candidate as for any
            // system with data
            shrinking: ioco_exec::shrinking::ShrinkOptions {
                tries: 2,
                ..Default::default()
            },
            stop_on_failure: !self.keep_going,
            depth: self.steps,
            quiescence_timeout: default,
            // (a component in process answers at once: it takes no time-outs)
            timeouts: Some(Arc::new(timeouts)),
            ..ioco_exec::OnlineOptions::default()
        };
        let values = self.values.unwrap_or_default();
        let picking = move |s: &Arc<Spec>| {
            SymbolicSpec::with_z3(s.clone()).map(|mut t| {
                t.picker = ioco_symbolic::pick::Picker::new(values);
                t
            })
        };
        let session = run_data_online(&spec, picking, &factory, &opts)
            .map_err(|e| Error(format!("{}: {e}", spec.name)))?;
        let mut summary = Summary::new("online", self.seed, session.runs);
        let p = &mut summary.parameters;
        p.insert("engine".into(), "symbolic".into());
        p.insert("values".into(), values.name().into());
        p.insert("timeout_ms".into(), (default.as_millis() as u64).into());
        p.insert("runs".into(), self.runs.into());
        p.insert("steps".into(), self.steps.into());
        p.insert("jobs".into(), self.jobs.into());
        Ok(Report {
            summary,
            text: String::new(),
            picture: Picture::Symbolic(spec),
        })
    }
}

/// A real program as the system under test: started anew for every run (in its own process
/// group, killed at the end of the run), spoken to over its standard input and output in the
/// wire format of `ioco test --sut` (one input per line, `gate value ...` for gates with
/// values; each output a line), see `ioco_sut::wire`.
#[derive(Clone, Debug)]
pub struct Program {
    argv: Vec<String>,
    marker: Option<String>,
    reset_line: Option<String>,
    retries: usize,
}

impl Program {
    /// The program at `path` (e.g. `env!("CARGO_BIN_EXE_my-sut")` in a test of its package).
    pub fn new(path: impl AsRef<Path>) -> Program {
        Program {
            argv: vec![path.as_ref().display().to_string()],
            marker: None,
            reset_line: None,
            retries: 2,
        }
    }

    /// A command line, split as a shell splits it (`"./sut --mode silent"`).
    pub fn command_line(line: &str) -> Result<Program, Error> {
        let cfg = ProcessConfig::from_command_line(line).map_err(|e| Error(e.to_string()))?;
        let mut p = Program::new(&cfg.argv[0]);
        p.argv = cfg.argv;
        Ok(p)
    }

    /// One more argument.
    pub fn arg(mut self, arg: impl Into<String>) -> Program {
        self.argv.push(arg.into());
        self
    }

    /// More arguments.
    pub fn args<I: IntoIterator<Item = S>, S: Into<String>>(mut self, args: I) -> Program {
        self.argv.extend(args.into_iter().map(Into::into));
        self
    }

    /// The line the program prints when it has finished reacting and waits for input
    /// (`--quiescence-marker`, e.g. `#quiet`): quiescence is then observed at once, without
    /// waiting for the time-out.
    pub fn quiescence_marker(mut self, marker: impl Into<String>) -> Program {
        self.marker = Some(marker.into());
        self
    }

    /// A line that puts the program back into its initial state (`--reset-line`), instead of
    /// starting it anew for every run.
    pub fn reset_line(mut self, line: impl Into<String>) -> Program {
        self.reset_line = Some(line.into());
        self
    }

    /// How often a start that fails is tried again before the run is an Error (`--retries`,
    /// default 2).
    pub fn retries(mut self, n: usize) -> Program {
        self.retries = n;
        self
    }

    fn describe(&self) -> String {
        format!("process: {}", self.command())
    }

    /// The command line, quoted for a shell.
    fn command(&self) -> String {
        self.argv
            .iter()
            .map(|a| ioco_report::shell_word(a))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn config(&self, timeout: Duration) -> ProcessConfig {
        let mut cfg = ProcessConfig::from_command_line("x").expect("a command line");
        cfg.argv = self.argv.clone();
        cfg.wire.marker = self.marker.clone();
        cfg.reset = match &self.reset_line {
            Some(l) => ResetMode::Line(l.clone()),
            None => ResetMode::Restart,
        };
        cfg.settle = timeout;
        cfg.start_tries = self.retries + 1;
        cfg
    }
}

/// What the report's picture is drawn from.
#[derive(Clone)]
enum Picture {
    Explicit(Arc<ioco_model::Lts>),
    #[cfg_attr(not(feature = "symbolic"), allow(dead_code))]
    Symbolic(Arc<Spec>),
}

/// The outcome of a test: the verdict, every run, and the readable text; the same JSON and
/// HTML reports as `ioco test --json/--html`.
#[derive(Clone)]
pub struct Report {
    /// The summary (what `ioco test --json` writes).
    pub summary: Summary,
    text: String,
    picture: Picture,
}

impl fmt::Debug for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Report {
    /// Pass, Fail, Inconclusive or Error.
    pub fn verdict(&self) -> Verdict {
        self.summary.verdict
    }

    /// Fail (the system does not conform) or Error (it could not be tested).
    pub fn is_failure(&self) -> bool {
        matches!(self.summary.verdict, RunVerdict::Fail | RunVerdict::Error)
    }

    /// The readable report (as `ioco test` prints it).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The results as JSON, as `ioco test --json` writes them (`ioco report` and
    /// `ioco replay` read them).
    pub fn to_json(&self) -> String {
        ioco_report::to_json(&self.summary)
    }

    /// Writes [`Report::to_json`] to `path`.
    pub fn write_json(&self, path: impl AsRef<Path>) -> Result<(), Error> {
        ioco_report::write_report(
            ioco_report::Format::Json,
            &ioco_report::Results::new(&self.summary),
            None,
            &ioco_report::Destination::File(path.as_ref().to_path_buf()),
        )
        .map_err(|e| Error(e.to_string()))
    }

    /// The self-contained HTML report, as `ioco test --html` writes it: the verdict, the
    /// model as a picture with the coverage of the runs and the failing observation, a
    /// sequence chart of every failing run, the shrunk trace and the runs.
    pub fn to_html(&self) -> String {
        ioco_report::html::render(&self.summary, &self.context(None))
    }

    /// Writes [`Report::to_html`] to `path`.
    pub fn write_html(&self, path: impl AsRef<Path>) -> Result<(), Error> {
        ioco_report::write_html(&self.summary, &self.context(None), path.as_ref())
            .map_err(|e| Error(e.to_string()))
    }

    /// Unless the test passed (Pass or Inconclusive), writes the HTML and JSON reports into
    /// `dir` (made if missing; named after the model and the seed) and panics with the
    /// readable report and the paths of both files. Returns the report otherwise.
    #[track_caller]
    pub fn report_on_failure(&self, dir: impl AsRef<Path>) -> &Report {
        if !self.is_failure() {
            return self;
        }
        let model = self.param("entry").unwrap_or_else(|| "model".into());
        let stem: String = model
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let dir = dir.as_ref();
        let base = dir.join(format!("{stem}-seed{}", self.summary.seed));
        let (html, json) = (base.with_extension("html"), base.with_extension("json"));
        let written = std::fs::create_dir_all(dir)
            .map_err(|e| Error(format!("cannot make {}: {e}", dir.display())))
            .and_then(|()| self.write_json(&json))
            .and_then(|()| {
                ioco_report::write_html(&self.summary, &self.context(Some(&json)), &html)
                    .map_err(|e| Error(e.to_string()))
            });
        match written {
            Ok(()) => panic!(
                "ioco: the system under test does not conform to {model}\n{}\nHTML report: {}\n\
                 JSON results: {}",
                self.text,
                html.display(),
                json.display()
            ),
            Err(e) => panic!(
                "ioco: the system under test does not conform to {model}\n{}\n(no report: {e})",
                self.text
            ),
        }
    }

    fn param(&self, key: &str) -> Option<String> {
        self.summary
            .parameters
            .get(key)
            .and_then(|v| v.as_str())
            .map(String::from)
    }

    /// The context of the HTML report: the model with the coverage of the runs, walked
    /// through the specification that judged them (as `ioco test --html`).
    fn context(&self, result_file: Option<&Path>) -> ioco_report::html::Context {
        let (mut g, visits): (Graph, Option<Visits>) = match &self.picture {
            Picture::Explicit(lts) => {
                let v = walk::explicit(lts, Default::default(), &self.summary.runs);
                let title = self.param("entry").unwrap_or_default();
                (graph::from_lts(lts, &title, Some(&v)), Some(v))
            }
            #[cfg(feature = "symbolic")]
            Picture::Symbolic(spec) => match ioco_symbolic::SymbolicSpec::with_z3(spec.clone()) {
                Ok(mut t) => {
                    let v = walk::symbolic(&mut t, &self.summary.runs);
                    (graph::from_sts(spec, Some(&v)), Some(v))
                }
                Err(_) => (graph::from_sts(spec, None), None),
            },
            #[cfg(not(feature = "symbolic"))]
            Picture::Symbolic(spec) => (graph::from_sts(spec, None), None),
        };
        let mut cx = ioco_report::html::Context {
            command: Some(format!(
                "cargo test (the ioco crate: {})",
                self.param("sut").unwrap_or_default()
            )),
            result_file: result_file.map(|p| p.display().to_string()),
            ..Default::default()
        };
        if let Some(v) = visits {
            let failed = v
                .focus
                .as_ref()
                .and_then(|f| self.summary.runs.get(f.index))
                .and_then(|r| r.failure.as_ref());
            if let Some(f) = failed {
                g.mark_failure(&v, &f.observed);
            }
            cx.focus = v.focus;
            cx.diverged = v.diverged;
            cx.unwalked = v.unwalked;
        }
        cx.graph = Some(g);
        cx
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
    fn timed(&self) -> bool {
        // answers at once: quiescence is no pending output, never a time-out
        false
    }

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
