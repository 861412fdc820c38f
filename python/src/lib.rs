//! `ioco._ioco`: the native half of the `ioco` Python package (PyO3). It holds no algorithm:
//! models are read and written by `ioco-formats`, `ioco-lang` and `ioco-txs`, suites come from
//! `ioco-fsm`, learning is `ioco-learn`'s L# over a [`PySul`] (an `ioco_engine::Sut` whose
//! system is a Python object with `reset` and `step`), testing is `ioco-exec`'s online tester (tutorial Alg. 2) over a [`PySystem`] (an
//! `ioco_engine::Sut` whose system is a Python object). The Python half (`ioco/__init__.py`)
//! converts to and from AALpy and makes AALpy's equivalence oracle.
//!
//! Errors are raised as `ioco.IocoError` subclasses with the messages of the command line
//! (diagnostics rendered as `ioco` renders them, without colours); an exception raised by the
//! user's object propagates as it is.

use ioco_engine::{Observation, Sent, Sut, SutError};
use ioco_fsm::{Method, Plan};
use ioco_learn::{LearnError as LError, Limits, Names, Oracle, System};
use ioco_model::{Label, LabelKind, Lts as RLts, Mealy as RMealy};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Duration;

create_exception!(
    ioco,
    IocoError,
    PyException,
    "Every error of ioco (the message is the command line's)."
);
create_exception!(
    ioco,
    ModelError,
    IocoError,
    "A model that cannot be read, written or used (with file:line:col where a file is involved)."
);
create_exception!(
    ioco,
    SuiteError,
    IocoError,
    "A complete test suite that cannot be generated for the machine."
);
create_exception!(
    ioco,
    LearnError,
    IocoError,
    "Learning failed: the system is not deterministic, failed, or there is nothing to learn with."
);
create_exception!(
    ioco,
    TestError,
    IocoError,
    "A test session that cannot run (bad options, a model the tester cannot take)."
);

/// A diagnostic as `ioco` prints it (source line, underline, hint), without colours.
fn render(d: &dyn miette::Diagnostic) -> String {
    let mut s = String::new();
    let h = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .with_wrap_lines(false);
    if h.render_report(&mut s, d).is_err() {
        return d.to_string();
    }
    s.trim_end().to_string()
}

fn model_err(d: &dyn miette::Diagnostic) -> PyErr {
    ModelError::new_err(render(d))
}

// ---------------------------------------------------------------------------------------------
// Models

/// A deterministic (possibly partial) Mealy machine with named states, inputs and outputs.
///
/// Make one from transitions, ``Mealy([(state, input, output, target), ...], initial=None)``
/// (the initial state is the first transition's state unless given; states, inputs and outputs
/// are numbered in order of first appearance, or as ``states``/``inputs`` list them), read one
/// with :func:`ioco.load`, or convert an AALpy ``MealyMachine`` with :func:`ioco.from_aalpy`.
#[pyclass(name = "Mealy", module = "ioco", frozen)]
#[derive(Clone)]
pub struct PyMealy {
    pub m: RMealy,
}

fn index_of(names: &mut Vec<String>, at: &mut HashMap<String, u32>, n: &str) -> u32 {
    if let Some(&k) = at.get(n) {
        return k;
    }
    let k = names.len() as u32;
    names.push(n.to_string());
    at.insert(n.to_string(), k);
    k
}

fn state_of(m: &RMealy, name: &str) -> PyResult<u32> {
    m.state_names
        .iter()
        .position(|s| s == name)
        .map(|s| s as u32)
        .ok_or_else(|| ModelError::new_err(format!("the machine has no state `{name}`")))
}

fn input_of(m: &RMealy, name: &str) -> PyResult<u32> {
    m.input_index(name).ok_or_else(|| {
        ModelError::new_err(format!(
            "`{name}` is not an input of the machine (its inputs: {})",
            m.inputs.join(", ")
        ))
    })
}

#[pymethods]
impl PyMealy {
    #[new]
    #[pyo3(signature = (transitions, initial=None, states=None, inputs=None))]
    fn new(
        transitions: Vec<(String, String, String, String)>,
        initial: Option<String>,
        states: Option<Vec<String>>,
        inputs: Option<Vec<String>>,
    ) -> PyResult<Self> {
        let (mut sn, mut sa) = (Vec::new(), HashMap::new());
        let (mut inn, mut ia) = (Vec::new(), HashMap::new());
        let (mut on, mut oa) = (Vec::new(), HashMap::new());
        for s in states.iter().flatten() {
            if sa.contains_key(s) {
                return Err(ModelError::new_err(format!("state `{s}` is listed twice")));
            }
            index_of(&mut sn, &mut sa, s);
        }
        for i in inputs.iter().flatten() {
            index_of(&mut inn, &mut ia, i);
        }
        let first = initial.or_else(|| transitions.first().map(|t| t.0.clone()));
        let Some(first) = first else {
            return Err(ModelError::new_err(
                "a Mealy machine needs a state: give transitions or `initial`",
            ));
        };
        if states.is_some() && !sa.contains_key(&first) {
            return Err(ModelError::new_err(format!(
                "the initial state `{first}` is not among `states`"
            )));
        }
        let init = index_of(&mut sn, &mut sa, &first);
        let mut edges = Vec::new();
        for (s, i, o, t) in &transitions {
            for x in [s, t] {
                if states.is_some() && !sa.contains_key(x) {
                    return Err(ModelError::new_err(format!(
                        "state `{x}` of a transition is not among `states`"
                    )));
                }
            }
            if inputs.is_some() && !ia.contains_key(i) {
                return Err(ModelError::new_err(format!(
                    "input `{i}` of a transition is not among `inputs`"
                )));
            }
            edges.push((
                index_of(&mut sn, &mut sa, s),
                index_of(&mut inn, &mut ia, i),
                index_of(&mut on, &mut oa, o),
                index_of(&mut sn, &mut sa, t),
            ));
        }
        let mut m = RMealy::new(sn.len(), inn, on, init);
        m.state_names = sn;
        for (s, i, o, t) in edges {
            if let Some((t0, o0)) = m.step(s, i) {
                if (t0, o0) != (t, o) {
                    return Err(ModelError::new_err(format!(
                        "state `{}` has two transitions on input `{}` (to `{}` with `{}` and to \
                         `{}` with `{}`): a Mealy machine is deterministic",
                        m.state_names[s as usize],
                        m.inputs[i as usize],
                        m.state_names[t0 as usize],
                        m.outputs[o0 as usize],
                        m.state_names[t as usize],
                        m.outputs[o as usize]
                    )));
                }
            }
            m.set(s, i, t, o);
        }
        Ok(PyMealy { m })
    }

    /// The state names, in state order.
    #[getter]
    fn states(&self) -> Vec<String> {
        self.m.state_names.clone()
    }

    /// The input names.
    #[getter]
    fn inputs(&self) -> Vec<String> {
        self.m.inputs.clone()
    }

    /// The output names.
    #[getter]
    fn outputs(&self) -> Vec<String> {
        self.m.outputs.clone()
    }

    /// The initial state's name.
    #[getter]
    fn initial(&self) -> String {
        self.m.state_names[self.m.initial as usize].clone()
    }

    /// The number of states.
    #[getter]
    fn num_states(&self) -> usize {
        self.m.num_states()
    }

    /// Every transition as ``(state, input, output, target)``, by state and input.
    fn transitions(&self) -> Vec<(String, String, String, String)> {
        let m = &self.m;
        let mut v = Vec::new();
        for s in 0..m.num_states() as u32 {
            for i in 0..m.num_inputs() as u32 {
                if let Some((t, o)) = m.step(s, i) {
                    v.push((
                        m.state_names[s as usize].clone(),
                        m.inputs[i as usize].clone(),
                        m.outputs[o as usize].clone(),
                        m.state_names[t as usize].clone(),
                    ));
                }
            }
        }
        v
    }

    /// ``(output, target)`` of ``state`` on ``input``, or ``None`` where it is undefined.
    fn step(&self, state: &str, input: &str) -> PyResult<Option<(String, String)>> {
        let s = state_of(&self.m, state)?;
        let i = input_of(&self.m, input)?;
        Ok(self.m.step(s, i).map(|(t, o)| {
            (
                self.m.outputs[o as usize].clone(),
                self.m.state_names[t as usize].clone(),
            )
        }))
    }

    /// The outputs of ``word`` from the initial state; ``None`` if it leaves the defined
    /// transitions.
    fn run(&self, word: Vec<String>) -> PyResult<Option<Vec<String>>> {
        let w = word
            .iter()
            .map(|x| input_of(&self.m, x))
            .collect::<PyResult<Vec<u32>>>()?;
        Ok(self.m.outputs_of(&w).map(|os| {
            os.iter()
                .map(|&o| self.m.outputs[o as usize].clone())
                .collect()
        }))
    }

    /// Whether every state has a transition on every input.
    fn is_complete(&self) -> bool {
        self.m.is_complete()
    }

    /// A shortest input word on which ``other`` gives other outputs than this machine (inputs
    /// and outputs matched by name), or ``None`` when they are equivalent on this machine's
    /// words.
    fn difference(&self, other: &PyMealy) -> Option<Vec<String>> {
        ioco_learn::compare::difference(&self.m, &other.m)
    }

    /// Whether ``other`` is equivalent to this machine (both ways, by names).
    fn equivalent(&self, other: &PyMealy) -> bool {
        ioco_learn::compare::difference(&self.m, &other.m).is_none()
            && ioco_learn::compare::difference(&other.m, &self.m).is_none()
    }

    /// The machine as Graphviz DOT in the Mealy dialect that AALpy's
    /// ``load_automaton_from_file(path, "mealy")``, LearnLib and hybrid-ADS read (what
    /// ``ioco show --format dot`` writes).
    fn to_dot(&self) -> String {
        ioco_formats::dot::write_mealy(&self.m)
    }

    /// The machine's input/output LTS reading (``in?`` then ``out!`` per transition).
    fn to_lts(&self) -> PyResult<PyLts> {
        ioco_formats::Model::Mealy(self.m.clone())
            .into_lts()
            .map(|l| PyLts { l })
            .map_err(|e| model_err(&e))
    }

    fn __repr__(&self) -> String {
        format!(
            "<ioco.Mealy: {} states, {} inputs, {} outputs, initial {:?}>",
            self.m.num_states(),
            self.m.num_inputs(),
            self.m.outputs.len(),
            self.initial()
        )
    }
}

/// A labelled transition system with inputs (``a?``) and outputs (``b!``), read with
/// :func:`ioco.load` (``.aut``, DOT, ``.json``, ``.ioco``, ``.txs``).
#[pyclass(name = "Lts", module = "ioco", frozen)]
#[derive(Clone)]
pub struct PyLts {
    pub l: RLts,
}

#[pymethods]
impl PyLts {
    /// The number of states.
    #[getter]
    fn num_states(&self) -> usize {
        self.l.num_states()
    }

    /// The initial states.
    #[getter]
    fn initial(&self) -> Vec<u32> {
        self.l.initial().to_vec()
    }

    /// The input names (without ``?``).
    #[getter]
    fn inputs(&self) -> Vec<String> {
        let a = self.l.alphabet();
        a.inputs().map(|l| a.name(l).to_string()).collect()
    }

    /// The output names (without ``!``).
    #[getter]
    fn outputs(&self) -> Vec<String> {
        let a = self.l.alphabet();
        a.outputs().map(|l| a.name(l).to_string()).collect()
    }

    /// Every transition as ``(state, label, target)`` with labels as written: ``a?``, ``b!``,
    /// ``τ``, ``δ``.
    fn transitions(&self) -> Vec<(u32, String, u32)> {
        let a = self.l.alphabet();
        self.l
            .transitions()
            .map(|(s, x, t)| (s, a.display(x), t))
            .collect()
    }

    /// The LTS as Graphviz DOT (the LTS dialect ``ioco show --format dot`` writes).
    fn to_dot(&self) -> String {
        ioco_formats::dot::write_lts(&self.l)
    }

    /// The LTS in Aldebaran ``.aut``.
    fn to_aut(&self) -> PyResult<String> {
        ioco_formats::aut::write(&self.l).map_err(|e| model_err(&e))
    }

    /// The LTS as JSON (``ioco-lts/1``).
    fn to_json(&self) -> String {
        ioco_formats::json::write_lts(&self.l)
    }

    fn __repr__(&self) -> String {
        format!(
            "<ioco.Lts: {} states, {} transitions>",
            self.l.num_states(),
            self.l.num_transitions()
        )
    }
}

fn wrap(py: Python<'_>, m: ioco_formats::Model) -> PyResult<Py<PyAny>> {
    Ok(match m {
        ioco_formats::Model::Mealy(m) => Py::new(py, PyMealy { m })?.into_any(),
        ioco_formats::Model::Lts(l) => Py::new(py, PyLts { l })?.into_any(),
    })
}

/// Read a model file as ``ioco`` reads it, by extension: ``.dot``/``.gv`` (Mealy dialect of
/// AALpy, LearnLib, hybrid-ADS, or the LTS dialect), ``.aut``, ``.json`` (``ioco-lts/1``),
/// ``.ioco`` and TorXakis ``.txs`` (their entry model, or ``entry``, as an LTS). Returns a
/// :class:`Mealy` or an :class:`Lts`; raises :class:`ModelError` with the diagnostic of
/// ``ioco check``.
#[pyfunction]
#[pyo3(signature = (path, entry=None))]
fn load(py: Python<'_>, path: std::path::PathBuf, entry: Option<String>) -> PyResult<Py<PyAny>> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let lang = match ext.as_deref() {
        Some("ioco") => Some(ioco_lang::parse_file(&path)),
        Some("txs") => Some(ioco_txs::load_files(&[path.as_path()]).map(|t| t.model)),
        _ => None,
    };
    let Some(parsed) = lang else {
        if entry.is_some() {
            return Err(ModelError::new_err(
                "`entry` chooses a model of a .ioco or .txs file",
            ));
        }
        return ioco_formats::load(&path)
            .map_err(|e| model_err(&e))
            .and_then(|m| wrap(py, m));
    };
    let file = path.display().to_string();
    let mut model = parsed.map_err(|diags| {
        model_err(&ioco_lang::Diagnostics {
            diags,
            file: file.clone(),
        })
    })?;
    if let Some(name) = entry {
        match model.program.specs.iter().position(|s| s.name == name) {
            Some(i) => model.program.entry = Some(i),
            None => {
                return Err(ModelError::new_err(format!(
                    "{file} has no model or system named `{name}` (entry)"
                )))
            }
        }
    }
    let (lts, _) = ioco_lang::lts_timed_of(&model, &file).map_err(|r| model_err(r.as_ref()))?;
    wrap(py, ioco_formats::Model::Lts(lts))
}

/// Read DOT text (Mealy or LTS dialect, as :func:`load` reads a ``.dot`` file).
#[pyfunction]
#[pyo3(signature = (text, name="<string>"))]
fn parse_dot(py: Python<'_>, text: &str, name: &str) -> PyResult<Py<PyAny>> {
    ioco_formats::dot::parse(text, name)
        .map_err(|e| model_err(&e))
        .and_then(|m| wrap(py, m))
}

// ---------------------------------------------------------------------------------------------
// Suites

fn method_of(name: &str) -> PyResult<Method> {
    name.parse::<Method>().map_err(SuiteError::new_err)
}

/// The complete test suite of ``machine`` by ``method`` (``w``, ``wp``, ``hsi``, ``h``,
/// ``hads``) for ``extra_states`` extra states, as input words (lists of input names), in
/// the order ``ioco gen`` writes them. Every implementation with at most ``n + extra_states``
/// states (``n``: the machine's states after minimisation) that is not equivalent to the
/// machine gives other outputs on some word.
#[pyfunction]
#[pyo3(signature = (machine, method="hads", extra_states=1))]
fn suite(machine: &PyMealy, method: &str, extra_states: usize) -> PyResult<Vec<Vec<String>>> {
    let plan = Plan::new(&machine.m, method_of(method)?, extra_states)
        .map_err(|e| SuiteError::new_err(e.to_string()))?;
    let names = &machine.m.inputs;
    Ok(plan
        .iter()
        .map(|w| w.iter().map(|&i| names[i as usize].clone()).collect())
        .collect())
}

// ---------------------------------------------------------------------------------------------
// Learning

/// A system under learning played by a Python object with ``reset()`` and ``step(input: str)
/// -> str`` (the package wraps AALpy's ``SUL`` into one), as an `ioco_engine::Sut`: ``step``'s
/// answer is the input's one output (``""``: none, quiescence), named through the learner's
/// [`Names`]. It answers at once (no time-outs). The first exception it raises ends learning
/// and is raised again to the caller as it was (kept in `err`, which the caller holds too).
struct PySul<'py> {
    obj: Bound<'py, PyAny>,
    names: Names,
    answer: Option<Label>,
    err: Rc<RefCell<Option<PyErr>>>,
}

impl PySul<'_> {
    fn call<T>(&mut self, r: PyResult<T>) -> Result<T, SutError> {
        if self.err.borrow().is_some() {
            return Err(SutError::Io("the system raised an exception before".into()));
        }
        r.map_err(|e| {
            let msg = format!("the system raised {e}");
            *self.err.borrow_mut() = Some(e);
            SutError::Io(msg)
        })
    }
}

impl Sut for PySul<'_> {
    fn reset(&mut self) -> Result<(), SutError> {
        self.answer = None;
        let r = self.obj.call_method0("reset");
        self.call(r).map(|_| ())
    }

    fn send(&mut self, input: Label) -> Result<Sent, SutError> {
        let r = self
            .obj
            .call_method1("step", (self.names.name(input),))
            .and_then(|o| o.extract::<String>());
        let out = self.call(r)?;
        self.answer = (!out.is_empty()).then(|| self.names.output(&out));
        Ok(Sent::Accepted)
    }

    fn observe(&mut self, _timeout: Option<Duration>) -> Result<Observation, SutError> {
        Ok(self
            .answer
            .take()
            .map_or(Observation::Quiescent, Observation::Output))
    }

    fn timed(&self) -> bool {
        false
    }
}

/// L# with a complete suite as the equivalence oracle over ``sul`` (an object with ``reset()``
/// and ``step(str) -> str``): ``(machine, verified, unverified_because, stats_json)``.
#[pyfunction]
#[pyo3(signature = (sul, inputs, method, extra_states, random_words, seed, repetitions,
                    max_resets, max_seconds))]
#[allow(clippy::too_many_arguments)]
// `..default()`: options ioco-learn adds later keep their defaults here
#[allow(clippy::needless_update)]
fn learn(
    sul: Bound<'_, PyAny>,
    inputs: Vec<String>,
    method: Option<String>,
    extra_states: usize,
    random_words: Option<usize>,
    seed: u64,
    repetitions: usize,
    max_resets: Option<u64>,
    max_seconds: Option<f64>,
) -> PyResult<(PyMealy, bool, Option<String>, String)> {
    let max_time = match max_seconds {
        Some(s) if !(s.is_finite() && s >= 0.0) => {
            return Err(LearnError::new_err(format!(
                "max_seconds must be a number of seconds at least 0, not {s}"
            )))
        }
        s => s.map(Duration::from_secs_f64),
    };
    let default = Oracle::default();
    let opts = ioco_learn::Options {
        oracle: Oracle {
            method: match method.as_deref() {
                Some("auto") => default.method,
                m => m.map(method_of).transpose()?,
            },
            cheapest: method.as_deref() == Some("auto"),
            extra_states,
            random_words: random_words.unwrap_or(default.random_words),
            seed,
            ..default
        },
        repetitions: repetitions.max(1),
        budget: ioco_learn::Budget {
            max_resets,
            max_time,
            ..ioco_learn::Budget::default()
        },
        ..ioco_learn::Options::default()
    };
    let err = Rc::new(RefCell::new(None));
    let system = System::in_process(&inputs, Limits::default(), |names| {
        Box::new(PySul {
            obj: sul,
            names,
            answer: None,
            err: err.clone(),
        })
    });
    let result = ioco_learn::learn(system, &opts);
    if let Some(e) = err.borrow_mut().take() {
        return Err(e);
    }
    let learned = result.map_err(|e| match e {
        LError::Oracle(_) => SuiteError::new_err(format!("learning failed: {e}")),
        e => LearnError::new_err(format!("learning failed: {e}")),
    })?;
    let stats = serde_json::to_string(&learned.stats).expect("stats serialise");
    Ok((
        PyMealy { m: learned.machine },
        learned.verified,
        learned.unverified_because,
        stats,
    ))
}

// ---------------------------------------------------------------------------------------------
// Testing

/// A system under test played by a Python object: ``reset()``, ``give(input: str)`` and
/// ``observe() -> str | None`` (the next output's name, ``None`` when quiescent), ``close()``
/// if it has one. It answers at once (no time-outs). The first exception it raises ends the
/// session and is raised again to the caller.
struct PySystem<'py> {
    obj: Bound<'py, PyAny>,
    alphabet: ioco_model::Alphabet,
    err: Option<PyErr>,
}

impl PySystem<'_> {
    fn call(&mut self, r: PyResult<Bound<'_, PyAny>>) -> Result<Option<String>, SutError> {
        if self.err.is_some() {
            return Err(SutError::Io("the system raised an exception before".into()));
        }
        match r.and_then(|o| o.extract::<Option<String>>()) {
            Ok(o) => Ok(o),
            Err(e) => {
                let msg = format!("the system raised {e}");
                self.err = Some(e);
                Err(SutError::Io(msg))
            }
        }
    }
}

impl Sut for PySystem<'_> {
    fn reset(&mut self) -> Result<(), SutError> {
        let r = self.obj.call_method0("reset");
        self.call(r).map(|_| ())
    }

    fn send(&mut self, input: Label) -> Result<Sent, SutError> {
        let name = self.alphabet.name(input).to_string();
        let r = self.obj.call_method1("give", (name,));
        self.call(r).map(|_| Sent::Accepted)
    }

    fn observe(&mut self, _timeout: Option<Duration>) -> Result<Observation, SutError> {
        let r = self.obj.call_method0("observe");
        match self.call(r)? {
            None => Ok(Observation::Quiescent),
            Some(line) => {
                let name = line.strip_suffix('!').unwrap_or(&line);
                match self.alphabet.lookup_kind(name, LabelKind::Output) {
                    Some(l) => Ok(Observation::Output(l)),
                    None => Err(SutError::UnknownOutput { line }),
                }
            }
        }
    }

    fn close(&mut self) -> Result<(), SutError> {
        if self.err.is_none() && self.obj.hasattr("close").unwrap_or(false) {
            let r = self.obj.call_method0("close");
            self.call(r)?;
        }
        Ok(())
    }

    fn timed(&self) -> bool {
        false
    }
}

/// Online ioco testing (tutorial Alg. 2, ``ioco test``'s explicit engine) of ``system``
/// against ``model`` (a :class:`Mealy` or :class:`Lts`): ``(verdict, report_json)``.
#[pyfunction]
#[pyo3(signature = (model, system, runs, steps, seed, keep_going, model_name, sut_name))]
#[allow(clippy::too_many_arguments)]
fn test(
    model: &Bound<'_, PyAny>,
    system: Bound<'_, PyAny>,
    runs: usize,
    steps: usize,
    seed: u64,
    keep_going: bool,
    model_name: String,
    sut_name: String,
) -> PyResult<(String, String)> {
    let spec = if let Ok(m) = model.cast::<PyMealy>() {
        m.get().to_lts()?.l
    } else if let Ok(l) = model.cast::<PyLts>() {
        l.get().l.clone()
    } else {
        return Err(TestError::new_err(
            "the model must be an ioco.Mealy or an ioco.Lts (see ioco.load)",
        ));
    };
    if steps == 0 {
        return Err(TestError::new_err(
            "steps=0: a run of no step tests nothing (give steps at least 1; the default is 50)",
        ));
    }
    if runs == 0 {
        return Err(TestError::new_err(
            "runs=0: a session of no run tests nothing (give runs at least 1; the default is 100)",
        ));
    }
    let opts = ioco_exec::OnlineOptions {
        runs,
        depth: steps,
        seed,
        stop_on_failure: !keep_going,
        ..ioco_exec::OnlineOptions::default()
    };
    let mut sys = PySystem {
        obj: system,
        alphabet: spec.alphabet().clone(),
        err: None,
    };
    let summary = ioco_exec::run_online_with(&spec, &opts, &mut sys);
    let _ = sys.close();
    if let Some(e) = sys.err.take() {
        return Err(e);
    }
    let mut summary = summary.map_err(TestError::new_err)?;
    summary.parameters.insert("model".into(), model_name.into());
    summary.parameters.insert("sut".into(), sut_name.into());
    let verdict = serde_json::to_value(summary.verdict)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    Ok((
        verdict,
        serde_json::to_string_pretty(&summary).expect("a Summary always serialises"),
    ))
}

#[pymodule]
fn _ioco(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("IocoError", py.get_type::<IocoError>())?;
    m.add("ModelError", py.get_type::<ModelError>())?;
    m.add("SuiteError", py.get_type::<SuiteError>())?;
    m.add("LearnError", py.get_type::<LearnError>())?;
    m.add("TestError", py.get_type::<TestError>())?;
    m.add_class::<PyMealy>()?;
    m.add_class::<PyLts>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(parse_dot, m)?)?;
    m.add_function(wrap_pyfunction!(suite, m)?)?;
    m.add_function(wrap_pyfunction!(learn, m)?)?;
    m.add_function(wrap_pyfunction!(test, m)?)?;
    Ok(())
}
