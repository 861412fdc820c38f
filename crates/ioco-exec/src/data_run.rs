//! Runs of the symbolic tester (`ioco_symbolic::online`, tutorial Alg. 2 over an STS) as
//! [`RunResult`]s, so that every report (text, JSON, JUnit, Markdown) and every exit rule is the
//! same for both engines: a trace like `water?(100) coffee!(120) δ`, the observed output with
//! its values, the outputs the specification allowed and the reason on a Fail.

use crate::engine::Ended;
use crate::RunResult;
use ioco_lang::ir::Spec;
use ioco_symbolic::online::{self, GateValue, Run};

pub use crate::engine::alg2::one_line;

/// A symbolic run as a [`RunResult`].
pub fn to_result(run: &Run, index: usize, seed: u64) -> RunResult {
    let mut r = result_of(index, seed, &run.trace, &run.end);
    if run.step_ms.len() == run.trace.len() {
        r.step_ms.clone_from(&run.step_ms);
    }
    r
}

/// A [`RunResult`] from the parts every data-level run has (symbolic runs, purpose runs): its
/// trace and how it ended.
pub fn result_of(index: usize, seed: u64, trace: &[String], end: &Ended) -> RunResult {
    let mut r = RunResult::new(index, seed);
    r.trace = trace.iter().collect();
    r.steps = trace.len();
    end.clone().write(&mut r);
    r
}

/// Input values as labels (`water?(100)`).
pub fn input_labels(spec: &Spec, inputs: &[GateValue]) -> Vec<String> {
    inputs
        .iter()
        .map(|(g, v)| online::label(spec, g, v, "?"))
        .collect()
}

/// A symbolic shrinking result as the [`crate::Shrunk`] of run `index` (seed `seed`).
pub fn shrunk_result(spec: &Spec, sh: &online::Shrunk, index: usize, seed: u64) -> crate::Shrunk {
    let sr = to_result(&sh.run, index, seed);
    crate::Shrunk {
        inputs: input_labels(spec, &sh.inputs),
        trace: sr.trace,
        failure: sr.failure,
        replays: sh.replays,
        stopped: sh.stopped.clone(),
    }
}
