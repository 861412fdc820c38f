//! Pictures of a model with the results of runs over it, for `--html` reports, `ioco report`
//! and `ioco show --coverage`: the model is read here (through `load.rs`), the runs are walked
//! through its specification by `ioco_report::walk`, and `ioco_report::graph` makes the picture.
//!
//! Which picture: a data model tested symbolically (the result's `engine` parameter starts
//! with `symbolic`, or its data is infinite) is drawn as its locations and switches; any other
//! model as its LTS.

use crate::load::infinite_data;
use crate::load::Loader;
use ioco_exec::Summary;
use ioco_model::QuiescencePolicy;
use ioco_report::graph::{self, Graph};
use ioco_report::html::Context;
use ioco_report::walk::{self, Visits};
use ioco_report::Results;
use miette::{miette, Result};
use std::path::{Path, PathBuf};

/// Whether the results were made by the symbolic engine.
fn symbolic_results(summary: &Summary) -> bool {
    summary
        .parameters
        .get("engine")
        .and_then(|e| e.as_str())
        .is_some_and(|e| e.starts_with("symbolic"))
}

/// The model a summary names (`model`, or `spec` for older results).
pub fn model_of(summary: &Summary) -> Option<PathBuf> {
    ["model", "spec"]
        .iter()
        .find_map(|k| summary.parameters.get(*k).and_then(|v| v.as_str()))
        .map(PathBuf::from)
}

/// The picture of `model` with the coverage of `summary`'s runs (none without a summary),
/// and the visits it was drawn from.
pub fn picture(
    model: &Path,
    summary: Option<&Summary>,
    policy: QuiescencePolicy,
    ld: &Loader,
) -> Result<(Graph, Option<Visits>)> {
    picture_of(model, summary.map(Results::new).as_ref(), policy, ld)
}

/// [`picture`] of results whose runs may be read back from a spool.
fn picture_of(
    model: &Path,
    results: Option<&Results<'_>>,
    policy: QuiescencePolicy,
    ld: &Loader,
) -> Result<(Graph, Option<Visits>)> {
    let is_ioco = crate::load::is_lang(model);
    let data = is_ioco
        && (results.is_some_and(|r| symbolic_results(r.summary)) || {
            let spec = ld.load_spec(model)?;
            infinite_data(&spec).is_some()
        });
    let unreadable = |e: std::io::Error| miette!("the runs could not be read back: {e}");
    let (mut g, visits) = if data {
        let spec = ld.load_spec(model)?;
        let visits = match results {
            Some(runs) => {
                let solver = Box::new(ioco_symbolic::Z3Solver::new(spec.defs.clone()));
                let mut tracker = ioco_symbolic::SymbolicSpec::new(spec.clone(), solver)
                    .map_err(|e| miette!("{}: {e}", model.display()))?;
                Some(walk::symbolic_runs(&mut tracker, runs, runs.focus()).map_err(unreadable)?)
            }
            None => None,
        };
        (graph::from_sts(&spec, visits.as_ref()), visits)
    } else {
        let lts = ld.load_lts(model)?;
        let visits = match results {
            Some(runs) => {
                Some(walk::explicit_runs(&lts, policy, runs, runs.focus()).map_err(unreadable)?)
            }
            None => None,
        };
        let title = model.display().to_string();
        (graph::from_lts(&lts, &title, visits.as_ref()), visits)
    };
    if let (Some(v), Some(s)) = (&visits, results) {
        let failed = match &v.focus {
            Some(f) => s.run_at(f.index).map_err(unreadable)?,
            None => None,
        };
        if let Some(f) = failed.as_ref().and_then(|r| r.failure.as_ref()) {
            g.mark_failure(v, &f.observed);
        }
    }
    Ok((g, visits))
}

/// The context of an HTML report of `summary`: the command line, the results file, and the
/// model (`model`, else the one the summary names) with coverage. A model that cannot be
/// read is said in the report, not an error: the results are still worth seeing.
pub fn context(
    results: &Results<'_>,
    model: Option<&Path>,
    result_file: Option<&Path>,
    command: Option<String>,
    policy: QuiescencePolicy,
    ld: &Loader,
) -> Context {
    let mut cx = Context {
        command,
        result_file: result_file.map(|p| p.display().to_string()),
        ..Context::default()
    };
    let Some(path) = model
        .map(Path::to_path_buf)
        .or_else(|| model_of(results.summary))
    else {
        cx.no_graph = Some("the results name no model (give one with --model)".into());
        return cx;
    };
    match picture_of(&path, Some(results), policy, ld) {
        Ok((g, visits)) => {
            if let Some(v) = visits {
                cx.focus = v.focus;
                cx.diverged = v.diverged;
                cx.unwalked = v.unwalked;
            }
            cx.graph = Some(g);
        }
        Err(e) => {
            cx.no_graph = Some(format!(
                "{} could not be read: {}",
                path.display(),
                e.to_string().lines().next().unwrap_or_default()
            ));
        }
    }
    cx
}

/// The command line of this process, quoted for a shell.
pub fn command_line() -> String {
    std::env::args()
        .enumerate()
        .map(|(i, a)| {
            if i == 0 {
                "ioco".to_string()
            } else if !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_./:=@%+-,".contains(c))
            {
                a
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
