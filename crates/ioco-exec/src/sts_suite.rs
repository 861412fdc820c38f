//! The switch-coverage suite format `ioco-sts-suite/1` (written by `ioco gen --method
//! switch-coverage`, executed by `ioco run`): the purposes of thesis Def. 4.16
//! ([`ioco_symbolic::seg::select_purposes`]) as JSON, and their execution through the one
//! tester ([`crate::coverage::run_purpose`], thesis Alg. 6 = TAP19 Alg. 1) with the a priori and
//! a posteriori switch coverage of the run.
//!
//! ## Format
//! ```json
//! { "format": "ioco-sts-suite/1",
//!   "model": "examples/brp/brp.ioco", "model_hash": "fnv1a64:9c1e…", "spec": "BRP",
//!   "method": "switch-coverage", "depth": 20, "seed": 0,
//!   "switches": ["BRP: idle -- req?(n) [n > 0 && n <= 10] --> sending", …],
//!   "apriori": 1.0,
//!   "uncovered": [ { "switch": "…", "reason": "unsatisfiable" } ],
//!   "purposes": [ { "name": "purpose 1", "target": 3, "doubtful": false,
//!                   "path": [ { "gate": "req", "parts": [[0, 0]] }, … ],
//!                   "labels": ["req?", "frame!", …] } ] }
//! ```
//! A purpose is a path of moves: `gate` is the visible gate (`null` for τ) and `parts` the
//! synchronised switches as (automaton, switch) indices of the spec; `target` indexes
//! `switches`. The path condition is recomputed from the model when the suite is run, so a
//! suite stays valid as long as the model's switches are the same (`model_hash` is the FNV-1a
//! hash of the model file; a different hash is a warning, a path the model no longer has an
//! error). The `model` path is relative to the current directory at generation time, or
//! absolute.

use crate::coverage::{passed_certain, run_purpose};
use crate::{Progress, RunResult, RunVerdict};
use ioco_symbolic::online::{GateValue, Sut};
use ioco_symbolic::seg::{select_purposes, Purpose, Selection, Uncovered};
use ioco_symbolic::system::SwitchId;
use ioco_symbolic::{Checker, Move, SymbolicSpec, System};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;
use std::time::Instant;

/// The format tag.
pub const FORMAT: &str = "ioco-sts-suite/1";

/// A move of a purpose.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct StepJson {
    /// The gate, `None` for τ.
    pub gate: Option<String>,
    /// (automaton, switch) indices.
    pub parts: Vec<(u32, u32)>,
}

/// A purpose.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct PurposeJson {
    /// Its name in reports.
    pub name: String,
    /// Index into the suite's `switches`: the switch it was selected for.
    pub target: usize,
    /// Some edge was kept on a solver `unknown`.
    pub doubtful: bool,
    /// The path.
    pub path: Vec<StepJson>,
    /// The path as labels (`req?`, `frame!`), for humans.
    pub labels: Vec<String>,
}

/// A switch not covered.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct UncoveredJson {
    /// The switch.
    pub switch: String,
    /// `unsatisfiable` or `unreached`.
    pub reason: String,
}

/// A switch-coverage suite (see the module documentation).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[schemars(
    title = "ioco-sts-suite/1",
    description = "A switch-coverage suite of a model with data: `ioco gen --method switch-coverage`."
)]
pub struct StsSuite {
    /// [`FORMAT`].
    pub format: String,
    /// The model file.
    pub model: String,
    /// `fnv1a64:` and the hash of the model file.
    pub model_hash: String,
    /// The spec (entry point) name.
    pub spec: String,
    /// `switch-coverage`.
    pub method: String,
    /// SEG depth bound.
    pub depth: usize,
    /// The seed `ioco run` uses by default.
    pub seed: u64,
    /// All switches, by name.
    pub switches: Vec<String>,
    /// A priori switch coverage.
    pub apriori: f64,
    /// Switches without a purpose.
    pub uncovered: Vec<UncoveredJson>,
    /// The purposes, longest first.
    pub purposes: Vec<PurposeJson>,
}

/// FNV-1a (64 bit) of a file's bytes, as `fnv1a64:HEX`.
pub fn model_hash(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("fnv1a64:{h:016x}")
}

fn move_label(sys: &System, m: &Move) -> String {
    match m.gate {
        None => "τ".into(),
        Some(g) => {
            let gate = &sys.gates()[g as usize];
            let mark = if gate.dir == ioco_lang::ir::Direction::Input {
                "?"
            } else {
                "!"
            };
            format!("{}{}", gate.name, mark)
        }
    }
}

/// The suite of a selection.
pub fn to_suite(sys: &System, sel: &Selection, model: &Path, hash: String, seed: u64) -> StsSuite {
    let all = sys.switches();
    let index = |sw| all.iter().position(|s| *s == sw).unwrap_or(0);
    StsSuite {
        format: FORMAT.into(),
        model: model.display().to_string(),
        model_hash: hash,
        spec: sys.spec.name.clone(),
        method: "switch-coverage".into(),
        depth: sel.depth,
        seed,
        switches: all.iter().map(|s| sys.switch_name(*s)).collect(),
        apriori: sel.apriori(),
        uncovered: sel
            .uncovered
            .iter()
            .map(|(_, name, why)| UncoveredJson {
                switch: name.clone(),
                reason: match why {
                    Uncovered::Unsatisfiable => "unsatisfiable".into(),
                    Uncovered::Unreached => "unreached".into(),
                },
            })
            .collect(),
        purposes: sel
            .purposes
            .iter()
            .enumerate()
            .map(|(i, p)| PurposeJson {
                name: format!("purpose {}", i + 1),
                target: index(p.target),
                doubtful: p.doubtful,
                path: p
                    .path
                    .iter()
                    .map(|m| StepJson {
                        gate: m.gate.map(|g| sys.gate_name(g).to_string()),
                        parts: m.parts.clone(),
                    })
                    .collect(),
                labels: p.path.iter().map(|m| move_label(sys, m)).collect(),
            })
            .collect(),
    }
}

/// Rebuilds a purpose of a suite against the model (its path condition recomputed).
pub fn from_json(sys: &System, p: &PurposeJson) -> std::result::Result<Purpose, String> {
    let all = sys.switches();
    let mut s = sys.initial_symbolic();
    let mut path = Vec::new();
    for (k, step) in p.path.iter().enumerate() {
        let gate = match &step.gate {
            None => None,
            Some(g) => Some(
                sys.gate(g)
                    .ok_or_else(|| format!("step {}: the model has no gate `{g}`", k + 1))?,
            ),
        };
        let Some(m) = sys
            .moves(&s.locs)
            .iter()
            .find(|m| m.gate == gate && m.parts == step.parts)
            .cloned()
        else {
            return Err(format!(
                "step {} ({}) is not a move of the model there (was the model changed?)",
                k + 1,
                p.labels.get(k).map(String::as_str).unwrap_or("?")
            ));
        };
        s = sys.sym_succ(&s, &m).0;
        path.push(m);
    }
    let target = *all
        .get(p.target)
        .ok_or_else(|| format!("target switch {} does not exist", p.target))?;
    Ok(Purpose {
        path,
        pc: s.pc,
        target,
        doubtful: p.doubtful,
    })
}

/// The node budget of the symbolic execution graph when a suite is generated.
pub const MAX_NODES: usize = 200_000;

/// Selects the switch-coverage purposes of `sys` within `depth` (thesis Def. 4.16, at most
/// [`MAX_NODES`] SEG states) and writes them as the suite of the model file `model` whose bytes
/// are `bytes`; `seed` is the suite's default seed. Also returns the selection (the uncovered
/// switches with their reasons, the number of SEG states).
pub fn generate(
    sys: &System,
    checker: &mut Checker,
    model: &Path,
    bytes: &[u8],
    depth: usize,
    seed: u64,
) -> (StsSuite, Selection) {
    let sel = select_purposes(sys, checker, depth, MAX_NODES);
    let suite = to_suite(sys, &sel, model, model_hash(bytes), seed);
    (suite, sel)
}

/// Reads `path` as a switch-coverage suite: `Ok(None)` when it is not one (it cannot be read,
/// or it is JSON of another format; only its `format` field is looked at first, other suites
/// can be large), an error (with its line and column) when it says it is one but is not.
pub fn read(path: &Path) -> Result<Option<StsSuite>, serde_json::Error> {
    let Ok(file) = std::fs::File::open(path) else {
        return Ok(None);
    };
    if ioco_gen::stream::format_of(file).as_deref() != Some(FORMAT) {
        return Ok(None);
    }
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(None);
    };
    serde_json::from_str(&text).map(Some)
}

impl StsSuite {
    /// `n` switches as a share of the suite's switches (1 when it has none).
    pub fn share(&self, n: usize) -> f64 {
        if self.switches.is_empty() {
            1.0
        } else {
            n as f64 / self.switches.len() as f64
        }
    }

    /// The name of purpose `i` in reports: its name, labels and target switch.
    pub fn purpose_title(&self, i: usize) -> String {
        let p = &self.purposes[i];
        format!(
            "{} ({}: {})",
            p.name,
            p.labels.join(" "),
            self.switches
                .get(p.target)
                .map(String::as_str)
                .unwrap_or("?")
        )
    }
}

/// How a suite is executed.
pub struct ExecOptions<'a> {
    /// How many times the whole purpose list is run (new input values each round).
    pub rounds: usize,
    /// Go on after a Fail.
    pub keep_going: bool,
    /// The seed of the session (recorded in every result).
    pub seed: u64,
    /// The options whose quiescence time-outs apply (`quiescence_timeout`, and `timeouts` over
    /// the specification's locations and gates).
    pub waits: &'a crate::OnlineOptions,
    /// Called with every result as it is made.
    pub progress: &'a Progress,
}

/// An executed suite.
pub struct Execution {
    /// One result per purpose run, in order.
    pub results: Vec<RunResult>,
    /// Switches of the purposes that passed with a single candidate state at the end
    /// (conservative a posteriori coverage, thesis L7422).
    pub covered: usize,
    /// Switches of every passed purpose (liberal a posteriori coverage).
    pub covered_liberal: usize,
}

/// The record of a purpose run: the engine's, with the purpose's name, and a note when it
/// passed with the reached state uncertain.
fn verdict_result(index: usize, seed: u64, name: String, mut r: RunResult) -> RunResult {
    (r.run, r.seed) = (index, seed);
    r.test = Some(name);
    match r.candidates {
        Some(n) if r.verdict == RunVerdict::Pass && n != 1 => {
            r.note = Some(format!(
                "passed with {n} candidate states at the end (not counted in the conservative \
                 a posteriori coverage)"
            ))
        }
        _ => {}
    }
    r
}

/// Executes the `purposes` of `suite` (rebuilt against the model by [`from_json`], in the
/// suite's order) against `sut`, `opts.rounds` times, until a Fail unless `opts.keep_going`:
/// Pass, Fail or Inconclusive per purpose (Inconclusive when the system legally leaves the
/// purpose), with the a posteriori switch coverage.
pub fn execute(
    suite: &StsSuite,
    purposes: &[Purpose],
    tracker: &mut SymbolicSpec,
    sut: &mut dyn Sut<GateValue>,
    rng: &mut ChaCha8Rng,
    opts: &ExecOptions,
) -> Execution {
    let mut results = Vec::new();
    let mut covered: BTreeSet<SwitchId> = BTreeSet::new();
    let mut covered_liberal: BTreeSet<SwitchId> = BTreeSet::new();
    'rounds: for round in 0..opts.rounds.max(1) {
        for (i, p) in purposes.iter().enumerate() {
            let start = Instant::now();
            let run = run_purpose(tracker, p, sut, Some(opts.waits), rng);
            let name = suite.purpose_title(i);
            let certain = passed_certain(&run);
            let mut r = verdict_result(results.len(), opts.seed, name, run);
            if round > 0 {
                r.note = Some(match r.note.take() {
                    Some(n) => format!("round {}; {n}", round + 1),
                    None => format!("round {}", round + 1),
                });
            }
            if r.verdict == RunVerdict::Pass {
                covered_liberal.extend(p.switches());
                if certain {
                    covered.extend(p.switches());
                }
            }
            if matches!(r.verdict, RunVerdict::Fail | RunVerdict::Error) {
                r.quiescence = crate::Established::from_counts(sut.established());
                r.stderr = sut.stderr_tail();
            }
            r.duration_ms = start.elapsed().as_secs_f64() * 1e3;
            if let Some(cb) = &opts.progress.0 {
                cb(&r);
            }
            let stop = r.verdict == RunVerdict::Fail && !opts.keep_going;
            results.push(r);
            if stop {
                break 'rounds;
            }
        }
    }
    Execution {
        results,
        covered: covered.len(),
        covered_liberal: covered_liberal.len(),
    }
}
