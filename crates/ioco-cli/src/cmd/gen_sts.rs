//! `ioco gen MODEL.ioco --method switch-coverage -o suite.json`: switch-coverage test purposes
//! of a model with data (TAP19 §4, thesis Def. 4.16; `ioco_symbolic::seg::select_purposes`):
//! one purpose per switch by breadth-first search over the symbolic execution graph up to
//! `--depth`; switches that are not covered are reported by name, with the reason (guard
//! unsatisfiable, or not reached within the bound); the a priori switch coverage is printed.
//! `ioco run suite.json --sut ...` executes the purposes (`cmd::run_sts`).
//!
//! ## Suite format `ioco-sts-suite/1`
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

use super::args::GenArgs as Args;
use super::{emit, Outcome};
use crate::load::load_spec;
use ioco_symbolic::seg::{select_purposes, Purpose, Selection, Uncovered};
use ioco_symbolic::{Checker, Move, System, Z3Solver};
use miette::{miette, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

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

/// Run `ioco gen --method switch-coverage`.
pub fn run(args: &Args) -> Result<Outcome> {
    let spec = load_spec(&args.model)?;
    let bytes = std::fs::read(&args.model)
        .map_err(|e| miette!("cannot read {}: {e}", args.model.display()))?;
    let sys = System::new(spec.clone()).map_err(|e| miette!("{}: {e}", args.model.display()))?;
    let mut ck = Checker::new(Box::new(Z3Solver::new(spec.defs.clone())));
    let sel = select_purposes(&sys, &mut ck, args.depth, 200_000);
    for (_, name, why) in &sel.uncovered {
        let why = match why {
            Uncovered::Unsatisfiable => "its guard is unsatisfiable".to_string(),
            Uncovered::Unreached => format!(
                "not reached within depth {} (hint: raise --depth)",
                args.depth
            ),
        };
        errln!("WARNING: switch not covered: {name} ({why})");
    }
    let suite = to_suite(&sys, &sel, &args.model, model_hash(&bytes), args.seed);
    let ios: usize = suite.purposes.iter().map(|p| p.path.len()).sum();
    let covered = (sel.apriori() * sel.total as f64).round() as usize;
    errln!(
        "switch coverage of {}: {} purposes ({} steps, longest {}), {} SEG states within depth {}; a priori switch coverage {:.1}% ({}/{})",
        spec.name,
        suite.purposes.len(),
        ios,
        suite.purposes.iter().map(|p| p.path.len()).max().unwrap_or(0),
        sel.seg_nodes,
        args.depth,
        100.0 * sel.apriori(),
        covered,
        sel.total
    );
    let text = serde_json::to_string_pretty(&suite).map_err(|e| miette!("{e}"))? + "\n";
    emit(&text, args.output.as_deref())?;
    Ok(Outcome::Ok)
}
