//! The engine over an STS with data (TAP19; tutorial Alg. 2 over gate values, P1 §7.2): the
//! [`Specification`] of the symbolic tracker of `ioco-symbolic` (solver-judged outputs and
//! quiescence; *unknown* is Inconclusive, never Fail), the [`Selection`]s that choose inputs
//! with the solver ([`Biased`]; [`Menu`], TorXakis's uniform choice among the enabled input
//! gates and observing) or replay recorded ones ([`Replay`]), and the runs, replays and
//! shrinking (Zeller's ddmin over the inputs) of `ioco test`/`ioco replay` with data.

use crate::online::{
    allowed_outputs, ddmin, fired, input_enabled, label, GateValue, OnlineOptions, SpecTimeouts,
};
use crate::system::SwitchId;
use crate::tracker::Quiescence;
use crate::{Step, SymbolicSpec};
use ioco_engine::alg2::{self, Ended};
use ioco_engine::replay::Replay;
use ioco_engine::result::{Failure, RunResult, RunVerdict, Shrunk};
use ioco_engine::select::{Choice, Event, Selection, Stop};
use ioco_engine::shrinking::{Budget, ShrinkOptions};
use ioco_engine::spec::{Quiet, Refusal, Specification};
use ioco_engine::Sut;
use ioco_lang::ir::Value;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use std::time::Duration;

/// An STS specification as the tester tracks it: the symbolic tracker, the trace (`water?(100)`,
/// `coffee!(120)`, `δ`), the inputs given (what a replay sends) and the switches taken. What a
/// run leaves here beyond its record ([`Symbolic::result`]) is for the session: the inputs with
/// their values (for shrinking) and the switches (for switch coverage).
pub struct Symbolic<'s> {
    /// The tracker.
    pub spec: &'s mut SymbolicSpec,
    /// The options whose quiescence time-outs apply
    /// ([`OnlineOptions::quiescence_timeout`], [`OnlineOptions::timeouts`] over STS states as
    /// [`SpecTimeouts`] reads them); `None`: the system's own time-out.
    pub waits: Option<&'s OnlineOptions>,
    /// The trace as written.
    pub trace: Vec<String>,
    /// The inputs given, with their values, in order (what a replay sends).
    pub inputs: Vec<GateValue>,
    /// The switches of the spec taken by the run: of every move a given input or an allowed
    /// output enabled in a candidate state (with a nondeterministic spec, every switch that may
    /// have been taken; τ switches are not counted).
    pub switches: BTreeSet<SwitchId>,
    /// When each step was seen, in milliseconds since the run started (empty when not timed).
    pub step_ms: Vec<f32>,
}

impl<'s> Symbolic<'s> {
    /// Track `spec`, waiting for quiescence as `waits` say (`None`: the system's own time-out).
    pub fn new(spec: &'s mut SymbolicSpec, waits: Option<&'s OnlineOptions>) -> Symbolic<'s> {
        Symbolic {
            spec,
            waits,
            trace: Vec::new(),
            inputs: Vec::new(),
            switches: BTreeSet::new(),
            step_ms: Vec::new(),
        }
    }

    fn show(&self, (g, v): &GateValue, mark: &str) -> String {
        label(&self.spec.sys.spec, g, v, mark)
    }

    /// The record of the run so far, ended by `end`: its trace, steps, step times and how it
    /// ended (`run` and `seed` are 0, for the session to set).
    pub fn result(&self, end: Ended) -> RunResult {
        let mut r = RunResult::new(0, 0);
        r.trace = self.trace.iter().collect();
        r.steps = self.trace.len();
        if self.step_ms.len() == self.trace.len() {
            r.step_ms.clone_from(&self.step_ms);
        }
        end.write(&mut r);
        r
    }

    /// Runs one test (resets both sides first) with the selection `sel`, at most `steps`
    /// steps, and returns its record ([`Symbolic::result`]); the inputs given and the
    /// switches taken stay here.
    pub fn run<L: Selection<Symbolic<'s>>>(
        &mut self,
        sel: &mut L,
        sut: &mut dyn Sut<GateValue>,
        steps: usize,
        rng: &mut ChaCha8Rng,
    ) -> RunResult {
        let end = run_with(self, sel, sut, steps, rng);
        self.result(end)
    }

    fn refused(&mut self, step: Step, observed: String) -> Result<(), Refusal> {
        match step {
            Step::Ok => Ok(()),
            Step::Fail(reason) => Err(Refusal::Fail(Failure {
                observed,
                // a Fail leaves the candidate states as they were
                allowed: allowed_outputs(self.spec),
                reason,
            })),
            Step::Inconclusive(why) => Err(Refusal::Inconclusive(why)),
        }
    }
}

impl Specification for Symbolic<'_> {
    type Action = GateValue;

    fn start(&mut self) -> Result<(), String> {
        self.trace.clear();
        self.inputs.clear();
        self.switches.clear();
        self.step_ms.clear();
        self.spec.reset()
    }

    fn enables(&mut self, (g, v): &GateValue) -> bool {
        input_enabled(self.spec, g, v)
    }

    fn give(&mut self, input: &GateValue) -> Result<(), Refusal> {
        let l = self.show(input, "?");
        self.trace.push(l.clone());
        self.inputs.push(input.clone());
        let (g, v) = input;
        self.switches.extend(fired(self.spec, g, v));
        match self.spec.after_input(g, v) {
            Step::Ok => Ok(()),
            Step::Fail(reason) => Err(Refusal::Fail(Failure {
                observed: l,
                allowed: Vec::new(),
                reason,
            })),
            Step::Inconclusive(why) => Err(Refusal::Inconclusive(why)),
        }
    }

    fn observe(&mut self, output: Option<&GateValue>) -> Result<(), Refusal> {
        match output {
            Some(x @ (g, v)) => {
                let l = self.show(x, "!");
                self.trace.push(l.clone());
                let fired = fired(self.spec, g, v);
                let step = self.spec.after_output(g, v);
                if step == Step::Ok {
                    self.switches.extend(fired);
                }
                self.refused(step, l)
            }
            None => {
                self.trace.push("δ".into());
                let step = self.spec.after_quiescence();
                self.refused(step, "δ".into())
            }
        }
    }

    fn garbage(&mut self, line: &str) -> Failure {
        self.trace.push(line.to_string());
        Failure {
            observed: line.to_string(),
            allowed: allowed_outputs(self.spec),
            reason: format!("malformed output: {line}"),
        }
    }

    fn quiet(&mut self) -> Quiet {
        match self.spec.after_quiescence() {
            Step::Ok => Quiet::Allowed,
            Step::Fail(_) => Quiet::Refused,
            Step::Inconclusive(why) => Quiet::Unknown(why),
        }
    }

    fn an_input(&mut self, rng: &mut ChaCha8Rng) -> Option<String> {
        let i = self.spec.choose_input(rng)?;
        Some(format!("e.g. {}", self.show(&i, "?")))
    }

    fn allowed(&mut self) -> Vec<String> {
        allowed_outputs(self.spec)
    }

    fn wrote_output(&self) -> bool {
        self.trace.iter().any(|l| l.contains('!'))
    }

    fn trace_text(&self) -> String {
        self.trace.join(" ")
    }

    fn timeout(&mut self) -> Option<Duration> {
        let o = self.waits?;
        let Some(t) = o.timeouts.as_deref() else {
            return Some(o.quiescence_timeout);
        };
        let last_input = self
            .trace
            .last()
            .filter(|l| l.contains('?'))
            .map(|l| gate_of(l));
        Some(t.wait(self.spec, last_input.as_deref(), o.quiescence_timeout))
    }

    fn only_quiescence(&mut self) -> bool {
        let states = self.spec.states().to_vec();
        !states.is_empty()
            && states
                .iter()
                .all(|q| matches!(self.spec.quiescence(q), Quiescence::Quiescent))
    }
}

/// The gate of a step of a trace (`water?(100)` → `water`, `δ` → `δ`); of a multi-label, its
/// gates joined by `|` (`a?(1)|b?(2)` → `a|b`).
fn gate_of(label: &str) -> String {
    let parts: Vec<&str> = ioco_engine::trace::split_multi(label)
        .into_iter()
        .map(|p| p.split(['(', '!', '?']).next().unwrap_or_default())
        .collect();
    parts.join("|")
}

/// The random selection with data: an input with probability `input_bias` when the tracker
/// finds one (values chosen by the solver), else an observation (`input_bias` is
/// `1 − OnlineOptions::observe`).
///
/// Right after quiescence it gives an input, or stops when none can be given (never δ after δ).
pub struct Biased {
    /// Probability of trying an input.
    pub input_bias: f64,
    /// The last observation was δ.
    pub quiet: bool,
}

impl Selection<Symbolic<'_>> for Biased {
    fn choose(
        &mut self,
        spec: &mut Symbolic<'_>,
        _: usize,
        rng: &mut ChaCha8Rng,
    ) -> Choice<GateValue> {
        if self.quiet || rng.random_bool(self.input_bias) {
            if let Some(i) = spec.spec.choose_input(rng) {
                return Choice::Give(i);
            }
        }
        if self.quiet {
            // δ after δ tells nothing (tutorial Def. 6.4) and costs a time-out
            return Choice::Stop(Stop::Pass(Some(
                "quiescent, and no input can be given: nothing more to see".into(),
            )));
        }
        Choice::Observe
    }

    fn start(&mut self) {
        self.quiet = false;
    }

    fn after(&mut self, _: &mut Symbolic<'_>, event: Event<'_, GateValue>) -> Option<Stop> {
        self.quiet = matches!(event, Event::Quiescence);
        None
    }
}

/// TorXakis's random walk (its `test` command: a random choice in the menu of what the
/// specification offers, TAP19 §6 L386 "random testing on gate actions and data values"): at each
/// step one of the input gates enabled at a current location, or observing when an output is
/// possible there, uniformly; the input's values from the picker. Used for the random-walk column
/// of the BRP experiment (`docs/brp.md`).
///
/// After δ it gives an input, or stops when none can be given, as [`Biased`] does.
#[derive(Clone, Debug, Default)]
pub struct Menu {
    /// The last observation was δ.
    pub quiet: bool,
}

impl Selection<Symbolic<'_>> for Menu {
    fn choose(
        &mut self,
        spec: &mut Symbolic<'_>,
        _: usize,
        rng: &mut ChaCha8Rng,
    ) -> Choice<GateValue> {
        use ioco_lang::ir::Direction;
        let t = &*spec.spec;
        let mut inputs: BTreeSet<String> = BTreeSet::new();
        let mut outputs = false;
        for q in t.states() {
            for m in t.sys.moves(&q.locs).iter() {
                match t.sys.direction(m) {
                    Some(Direction::Input) => {
                        inputs.insert(t.sys.move_gate_name(m).to_string());
                    }
                    Some(Direction::Output) => outputs = true,
                    _ => {}
                }
            }
        }
        let mut menu: Vec<Option<String>> = inputs.into_iter().map(Some).collect();
        if outputs && !self.quiet {
            menu.push(None);
        }
        while !menu.is_empty() {
            let k = rng.random_range(0..menu.len());
            match menu.swap_remove(k) {
                None => return Choice::Observe,
                Some(g) => {
                    if let Some(i) = spec.spec.choose_input_on(Some(&g), rng) {
                        return Choice::Give(i);
                    }
                }
            }
        }
        if self.quiet {
            return Choice::Stop(Stop::Pass(Some(
                "quiescent, and no input can be given: nothing more to see".into(),
            )));
        }
        Choice::Observe
    }

    fn start(&mut self) {
        self.quiet = false;
    }

    fn after(&mut self, _: &mut Symbolic<'_>, event: Event<'_, GateValue>) -> Option<Stop> {
        self.quiet = matches!(event, Event::Quiescence);
        None
    }
}

/// Runs one online test with data choosing by [`Menu`] (TorXakis's random walk), at most
/// `steps` steps (resets both sides first), waiting as `waits` say (`None`: the system's own
/// time-out).
pub fn run_online_menu(
    spec: &mut SymbolicSpec,
    sut: &mut dyn Sut<GateValue>,
    steps: usize,
    waits: Option<&OnlineOptions>,
    rng: &mut ChaCha8Rng,
) -> RunResult {
    Symbolic::new(spec, waits).run(&mut Menu::default(), sut, steps, rng)
}

/// Runs one online test with data (resets both sides first): at most `opts.depth` steps, an
/// input with probability `1 − opts.observe` where one can be given, waiting as `opts` say.
pub fn run_online(
    spec: &mut SymbolicSpec,
    sut: &mut dyn Sut<GateValue>,
    opts: &OnlineOptions,
    rng: &mut ChaCha8Rng,
) -> RunResult {
    Symbolic::new(spec, Some(opts)).run(&mut Biased::of(opts), sut, opts.depth, rng)
}

impl Biased {
    /// The selection of `opts`: an input with probability `1 − opts.observe`.
    pub fn of(opts: &OnlineOptions) -> Biased {
        Biased {
            input_bias: 1.0 - opts.observe,
            quiet: false,
        }
    }
}

fn run_with<'s, L: Selection<Symbolic<'s>>>(
    s: &mut Symbolic<'s>,
    sel: &mut L,
    sut: &mut dyn Sut<GateValue>,
    steps: usize,
    rng: &mut ChaCha8Rng,
) -> Ended {
    // the steps are timed (a clock read per step, nothing next to the solver's work)
    let mut sut = ioco_engine::Timed::new(sut);
    let end = match alg2::start(s, &mut sut, 0, 0) {
        Err(e) => e,
        Ok(()) => alg2::run(s, sel, &mut sut, steps, None, rng),
    };
    s.step_ms = sut.at_ms;
    // the last reaction settling may be one more look that writes no step (`alg2`)
    s.step_ms.truncate(s.trace.len());
    end
}

/// Replays recorded inputs ([`Replay`]), at most `max_steps` labels in all, waiting as `waits`
/// say (`None`: the system's own time-out).
pub fn replay_inputs(
    spec: &mut SymbolicSpec,
    sut: &mut dyn Sut<GateValue>,
    inputs: &[GateValue],
    max_steps: usize,
    waits: Option<&OnlineOptions>,
    rng: &mut ChaCha8Rng,
) -> RunResult {
    Symbolic::new(spec, waits).run(&mut Replay::new(inputs), sut, max_steps, rng)
}

/// Shrinks failing run number `run` (its record `failed`, the inputs it gave with their values
/// `inputs`) by [`ddmin`] over those inputs (each candidate replayed with [`replay_inputs`] up
/// to `shrinking.tries` times, for nondeterministic systems), then its values, within the
/// bounds of `shrinking` ([`ioco_engine::shrinking`]; when one stops it, the shortest failing
/// inputs so far are returned, [`Shrunk::stopped`] says why). `None` when even the full input
/// sequence does not fail again.
#[allow(clippy::too_many_arguments)]
pub fn shrink(
    spec: &mut SymbolicSpec,
    sut: &mut dyn Sut<GateValue>,
    failed: &RunResult,
    inputs: &[GateValue],
    run: usize,
    shrinking: &ShrinkOptions,
    waits: Option<&OnlineOptions>,
    rng: &mut ChaCha8Rng,
) -> Option<Shrunk> {
    let max_steps = failed.trace.len().max(8) * 2 + 16;
    let mut budget = Budget::new(shrinking, run, failed.trace.len(), inputs.len());
    let mut best: Option<(Vec<GateValue>, RunResult)> = None;
    // the same failure: a Fail on an output of the same gate (or δ), not another fault
    let gate = |r: &RunResult| r.trace.last().map(gate_of);
    let failing_gate = gate(failed);
    let mut test = |cand: &[GateValue]| -> bool {
        for _ in 0..budget.tries() {
            if !budget.take() {
                return false;
            }
            let r = replay_inputs(spec, sut, cand, max_steps, waits, rng);
            if r.verdict == RunVerdict::Fail && gate(&r) == failing_gate {
                budget.replayed(Some(cand.len()));
                let better = best.as_ref().is_none_or(|(b, _)| cand.len() <= b.len());
                if better {
                    best = Some((cand.to_vec(), r));
                }
                return true;
            }
            budget.replayed(None);
        }
        false
    };
    if !test(inputs) {
        return None;
    }
    let mut cur = ddmin(inputs.to_vec(), usize::MAX, &mut test);
    // Then the values: two neighbouring inputs of one gate with one integer each become one
    // input with their sum (`water?(4) water?(146)` → `water?(150)`), and every integer goes
    // towards 0 (bisection; a value the guards refuse is skipped by the replay, so the failure
    // does not come and the value stays), every boolean towards false.
    'merge: loop {
        for i in 0..cur.len().saturating_sub(1) {
            let (a, b) = (&cur[i], &cur[i + 1]);
            if let (true, [Value::Int(x)], [Value::Int(y)]) = (a.0 == b.0, &a.1[..], &b.1[..]) {
                if let Some(sum) = x.checked_add(*y) {
                    let mut cand = cur.clone();
                    cand[i].1[0] = Value::Int(sum);
                    cand.remove(i + 1);
                    if test(&cand) {
                        cur = cand;
                        continue 'merge;
                    }
                }
            }
        }
        break;
    }
    for i in 0..cur.len() {
        for k in 0..cur[i].1.len() {
            match cur[i].1[k] {
                Value::Int(v) if v != 0 => {
                    // the smallest |w| ≤ |v| (same sign) that still fails
                    let (mut lo, mut hi) = (0i64, v.checked_abs().unwrap_or(i64::MAX));
                    while lo < hi {
                        let mid = lo + (hi - lo) / 2;
                        let mut cand = cur.clone();
                        cand[i].1[k] = Value::Int(if v < 0 { -mid } else { mid });
                        if test(&cand) {
                            hi = mid;
                            cur = cand;
                        } else {
                            lo = mid + 1;
                        }
                    }
                }
                Value::Bool(true) => {
                    let mut cand = cur.clone();
                    cand[i].1[k] = Value::Bool(false);
                    if test(&cand) {
                        cur = cand;
                    }
                }
                _ => {}
            }
        }
    }
    let _ = cur;
    let (inputs, run) = best?;
    Some(Shrunk {
        inputs: inputs
            .iter()
            .map(|(g, v)| label(&spec.sys.spec, g, v, "?"))
            .collect(),
        trace: run.trace,
        failure: run.failure,
        replays: budget.replays,
        stopped: budget.stopped.clone(),
    })
}
