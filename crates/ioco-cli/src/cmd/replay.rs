//! `ioco replay MODEL RESULT.json --cmd ...`: replay a recorded run (from the JSON of
//! `ioco test --json`) against a SUT with `ioco_exec::replay_trace`, and optionally shrink it
//! (`--shrink`: delta debugging over its inputs). By default the first failing run is replayed;
//! `--run K` picks another. Exit 0 when the replay passes, 1 when it fails, 2 on an error.

use super::test::{base_options, ReportArgs, SutArgs};
use super::Outcome;
use ioco_exec::{RunResult, RunVerdict, Summary, Tester};
use miette::{miette, Result};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `ioco replay`.
#[derive(clap::Args)]
pub struct Args {
    /// The specification model.
    pub model: PathBuf,
    /// The recorded results (JSON of `ioco test --json`: a summary, or one run).
    pub results: PathBuf,
    #[command(flatten)]
    pub sut: SutArgs,
    /// Replay run K of the summary (default: the first failing run, else run 0).
    #[arg(long, value_name = "K")]
    pub run: Option<usize>,
    /// Shrink the run if the replay fails.
    #[arg(long)]
    pub shrink: bool,
    /// Maximal number of replays for shrinking.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub shrink_budget: usize,
    #[command(flatten)]
    pub report: ReportArgs,
}

/// Run `ioco replay`.
pub fn run(args: Args) -> Result<Outcome> {
    let (spec, timing) = super::test::load_timed(&args.model, &args.sut)?;
    let text = std::fs::read_to_string(&args.results)
        .map_err(|e| miette!("cannot read {}: {e}", args.results.display()))?;
    let at = |e: serde_json::Error| {
        miette!(
            help = "give the JSON written by `ioco test --json`",
            "{}:{}:{}: {e}",
            args.results.display(),
            e.line(),
            e.column()
        )
    };
    let recorded: RunResult = match serde_json::from_str::<Summary>(&text) {
        Ok(s) => {
            let pick = match args.run {
                Some(k) => s.runs.iter().find(|r| r.run == k),
                None => s.first_failure().or(s.runs.first()),
            };
            pick.cloned().ok_or_else(|| {
                miette!(
                    "{}: no run {} among {} runs",
                    args.results.display(),
                    args.run.map(|k| k.to_string()).unwrap_or_default(),
                    s.runs.len()
                )
            })?
        }
        Err(_) => serde_json::from_str::<RunResult>(&text).map_err(at)?,
    };
    // A failing run may end with a line that is not a label (garbage): replay it as an
    // observation at that point.
    let mut steps = recorded.trace.clone();
    let garbage_end = steps.last().is_some_and(|l| {
        l.ends_with('!')
            && spec.alphabet().lookup(l.trim_end_matches('!')).is_none()
            && recorded.failure.is_some()
    });
    if garbage_end {
        steps.pop();
        steps.push("δ".into());
    }
    let trace = ioco_exec::parse_trace(&spec, &steps)
        .map_err(|e| miette!("{}: run {}: {e}", args.results.display(), recorded.run))?;
    let factory = args.sut.factory(&spec)?;
    let mut adapter = factory(0).map_err(|e| miette!("{e}"))?;
    let mut opts = ioco_exec::OnlineOptions {
        depth: trace.len().max(1) * 4 + 16,
        shrink_budget: args.shrink_budget,
        ..base_options(&args.sut, recorded.seed)
    };
    timing.apply(&mut opts);
    eprintln!(
        "ioco replay: run {} (seed {}), {} steps",
        recorded.run,
        recorded.seed,
        trace.len()
    );
    let t0 = Instant::now();
    let mut tester = Tester::new(&spec, opts.policy);
    let mut r = ioco_exec::replay_trace(
        &mut tester,
        &mut adapter,
        &opts,
        &trace,
        recorded.run,
        recorded.seed,
    );
    if args.shrink && r.verdict == RunVerdict::Fail {
        r.shrunk = ioco_exec::shrink(&mut tester, &mut adapter, &opts, &r);
    }
    let _ = adapter.close();
    let mut summary = Summary::new("replay", recorded.seed, vec![r]);
    summary.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
    summary
        .parameters
        .insert("model".into(), args.model.display().to_string().into());
    summary
        .parameters
        .insert("sut".into(), args.sut.describe().into());
    args.report.finish(&summary)
}
