//! Switch coverage (thesis §4.4, TAP19 §4): the purposes selected from the symbolic execution
//! graph by [`ioco_symbolic::seg::select_purposes`] (thesis Def. 4.16), each executed by the one
//! tester with the [`SwitchPath`] selection (thesis Alg. 6 = TAP19 Alg. 1), and the a priori
//! and a posteriori switch coverage of the run.
//!
//! A posteriori coverage counts the switches of the purposes that ended in Pass with a single
//! candidate state of the specification (conservative, thesis L7422) and, liberally, of every
//! Pass.

use crate::engine::purpose_seg::SwitchPath;
use crate::engine::symbolic::Symbolic;
use crate::result::{RunResult, RunVerdict};
use crate::OnlineOptions;
use ioco_symbolic::online::{GateValue, Sut};
use ioco_symbolic::seg::{select_purposes, Purpose, Selection, Uncovered};
use ioco_symbolic::system::SwitchId;
use ioco_symbolic::SymbolicSpec;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use std::fmt;

/// Passed with the reached state certain (`|C| = 1`, [`RunResult::candidates`]): counted in
/// the conservative a posteriori coverage.
pub fn passed_certain(r: &RunResult) -> bool {
    r.verdict == RunVerdict::Pass && r.candidates == Some(1)
}

/// Executes `purpose` against `sut` from the initial states of both (thesis Alg. 6 over the one
/// tester), waiting for quiescence as `waits` say (`None`: the system's own time-out). The
/// record's [`RunResult::candidates`] is the number of states the specification may be in at
/// the end (`|C|`; 1: the reached state is certain); Pass: the purpose was completed.
pub fn run_purpose(
    spec: &mut SymbolicSpec,
    purpose: &Purpose,
    sut: &mut dyn Sut<GateValue>,
    waits: Option<&OnlineOptions>,
    rng: &mut ChaCha8Rng,
) -> RunResult {
    let mut s = Symbolic::new(spec, waits);
    let mut sel = SwitchPath::new(purpose);
    // every move of the path, one final observation, and room for nothing else
    let depth = purpose.path.len() + 2;
    let end = match crate::engine::alg2::start(&mut s, sut, 0, 0) {
        Err(e) => e,
        Ok(()) => crate::engine::alg2::run(&mut s, &mut sel, sut, depth, None, rng),
    };
    let mut r = s.result(end);
    r.candidates = Some(s.spec.states().len());
    r
}

/// Options of a switch-coverage run.
#[derive(Clone, Debug)]
pub struct CoverageOptions {
    /// SEG depth bound.
    pub depth: usize,
    /// SEG node budget.
    pub max_nodes: usize,
    /// How many times the whole purpose list is run (new values each round; stops at Fail).
    pub rounds: usize,
}

impl Default for CoverageOptions {
    fn default() -> Self {
        CoverageOptions {
            depth: 12,
            max_nodes: 50_000,
            rounds: 1,
        }
    }
}

/// A switch-coverage test run.
#[derive(Clone, Debug)]
pub struct CoverageReport {
    /// The selection (purposes, uncovered switches).
    pub selection: Selection,
    /// Per purpose execution: (index into the purposes, run).
    pub runs: Vec<(usize, RunResult)>,
    /// The first Fail, if any: (purpose index, explanation).
    pub fail: Option<(usize, String)>,
    /// Inputs, outputs and quiescence observations exchanged until the end (or the Fail).
    pub steps: usize,
    /// Names of all switches.
    pub switch_names: Vec<String>,
}

impl CoverageReport {
    fn covered(&self, liberal: bool) -> usize {
        let mut s: BTreeSet<SwitchId> = BTreeSet::new();
        for (i, r) in &self.runs {
            if r.verdict == RunVerdict::Pass && (liberal || r.candidates == Some(1)) {
                s.extend(self.selection.purposes[*i].switches());
            }
        }
        s.len()
    }

    /// A posteriori coverage: switches of purposes that passed with `|C| = 1`.
    pub fn aposteriori(&self) -> f64 {
        self.selection.share(self.covered(false))
    }

    /// Liberal a posteriori coverage: switches of every passed purpose.
    pub fn aposteriori_liberal(&self) -> f64 {
        self.selection.share(self.covered(true))
    }
}

impl fmt::Display for CoverageReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (_, name, why) in &self.selection.uncovered {
            let why = match why {
                Uncovered::Unsatisfiable => "its guard is unsatisfiable".to_string(),
                Uncovered::Unreached => {
                    format!("not reached within depth {}", self.selection.depth)
                }
            };
            writeln!(f, "WARNING: switch not covered: {name} ({why})")?;
        }
        writeln!(
            f,
            "{} purposes, {} SEG states; a priori switch coverage {:.1}%, a posteriori {:.1}% (liberal {:.1}%)",
            self.selection.purposes.len(),
            self.selection.seg_nodes,
            100.0 * self.selection.apriori(),
            100.0 * self.aposteriori(),
            100.0 * self.aposteriori_liberal()
        )?;
        match &self.fail {
            Some((i, why)) => write!(f, "FAIL in purpose {i} after {} steps:\n{why}", self.steps),
            None => write!(f, "no failure in {} steps", self.steps),
        }
    }
}

/// Selects purposes and runs them longest first, `rounds` times, until a Fail.
pub fn run_switch_coverage(
    spec: &mut SymbolicSpec,
    sut: &mut dyn Sut<GateValue>,
    opts: &CoverageOptions,
    waits: Option<&OnlineOptions>,
    rng: &mut ChaCha8Rng,
) -> CoverageReport {
    let selection = select_purposes(&spec.sys, &mut spec.checker, opts.depth, opts.max_nodes);
    let mut report = CoverageReport {
        switch_names: spec
            .sys
            .switches()
            .into_iter()
            .map(|s| spec.sys.switch_name(s))
            .collect(),
        selection,
        runs: Vec::new(),
        fail: None,
        steps: 0,
    };
    'rounds: for _ in 0..opts.rounds.max(1) {
        for i in 0..report.selection.purposes.len() {
            let run = run_purpose(spec, &report.selection.purposes[i], sut, waits, rng);
            report.steps += run.trace.len();
            let fail = (run.verdict == RunVerdict::Fail).then(|| run.why().to_string());
            report.runs.push((i, run));
            if let Some(why) = fail {
                report.fail = Some((i, why));
                break 'rounds;
            }
        }
    }
    report
}
