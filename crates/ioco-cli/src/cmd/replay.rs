//! `ioco replay MODEL RESULT.json --sut ...`: replay a recorded run (from the JSON of
//! `ioco test --json`) against a SUT with `ioco_exec::replay_trace`, and optionally shrink it
//! (`--shrink`: delta debugging over its inputs). By default the first failing run is replayed;
//! `--run K` picks another. Exit 0 when the replay passes, 1 when it fails, 2 on an error, 3 when a recorded
//! failure is not reproduced (the replay passed).
//!
//! A model **with data** (the dispatch rule of `ioco test`, `ioco_load::engine::choose`) is
//! replayed by the symbolic engine: the recorded inputs with their values (`water?(100)`) are
//! sent again with `ioco_exec::engine::symbolic::replay_inputs` (observing until quiescence before
//! each), the outputs judged against the guards; `--shrink` minimises them with
//! `ioco_exec::engine::symbolic::shrink` (ddmin).

use super::sut::{base_options, ReportArgs, SutArgs};
use super::Outcome;
use crate::load::Loader;
use ioco_exec::{RunResult, RunVerdict, Summary, Tester};
use ioco_lang::ir::Spec;
use ioco_symbolic::online::GateValue;
use miette::{miette, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::sync::Arc;
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
    #[command(flatten)]
    pub shrinking: super::sut::ShrinkArgs,
    /// The engine, as for `ioco test`: `explicit` (needs finite data) or `symbolic`.
    /// Default: symbolic for .ioco models with infinite data, else explicit.
    #[arg(long, value_enum, value_name = "ENGINE")]
    pub engine: Option<super::EngineArg>,
    /// The same as `--engine symbolic`.
    #[arg(long, conflicts_with = "engine")]
    pub symbolic: bool,
    #[command(flatten)]
    pub report: ReportArgs,
}

/// The recorded run to replay, read one run at a time (the others are not kept: a results
/// file can be gigabytes).
fn recorded(args: &Args) -> Result<RunResult> {
    let cannot = |e: std::io::Error| miette!("cannot read {}: {e}", args.results.display());
    let open = || ioco_report::read::open(&args.results).map_err(cannot);
    let at = |e: serde_json::Error| {
        if e.classify() == serde_json::error::Category::Io {
            return cannot(e.into());
        }
        // the place reading the text whole gives (a reader's column can be one further on)
        let e =
            ioco_report::read::whole_error(&args.results, |t| serde_json::from_str::<RunResult>(t))
                .unwrap_or(e);
        miette!(
            help = "give the JSON written by `ioco test --json`",
            "{}:{}:{}: {e}",
            args.results.display(),
            e.line(),
            e.column()
        )
    };
    let recorded: RunResult = match ioco_report::read::find_run_in(&args.results, args.run) {
        Ok((pick, count)) => pick.ok_or_else(|| {
            miette!(
                "{}: no run {} among {} runs",
                args.results.display(),
                args.run.map(|k| k.to_string()).unwrap_or_default(),
                count
            )
        })?,
        // not a summary: one run
        Err(_) => {
            let mut de = serde_json::Deserializer::from_reader(open()?);
            let r = <RunResult as serde::Deserialize>::deserialize(&mut de).map_err(at)?;
            de.end().map_err(at)?;
            r
        }
    };
    Ok(recorded)
}

/// Run `ioco replay`.
pub fn run(args: Args, ld: &Loader) -> Result<Outcome> {
    args.shrinking.check()?;
    args.report.check()?;
    let engine = super::EngineArg::pick(args.engine, args.symbolic);
    if let Some((spec, _)) = ld.engine_spec(&args.model, engine)? {
        return run_data(args, spec, ld);
    }
    let (spec, timing) = super::sut::load_timed(&args.model, &args.sut, ld)?;
    let recorded = recorded(&args)?;
    // A failing run may end with a line that is not a label (garbage): replay it as an
    // observation at that point.
    let mut steps: Vec<&str> = recorded.trace.iter().collect();
    // (an output as the symbolic engine writes it, `coffee!(170)`, `c!(3)|d!(true)`, is one
    // when the model has no such label)
    let garbage_end = steps.last().is_some_and(|l| {
        l.contains('!')
            && spec
                .alphabet()
                .lookup_kind(l.trim_end_matches('!'), ioco_model::LabelKind::Output)
                .is_none()
            && ioco_exec::parse_trace(&spec, [*l]).is_err()
            && recorded.failure.is_some()
    });
    if garbage_end {
        steps.pop();
        steps.push("δ");
    }
    let trace = ioco_exec::parse_trace(&spec, &steps)
        .map_err(|e| miette!("{}: run {}: {e}", args.results.display(), recorded.run))?;
    let factory = args.sut.factory(&spec, ld)?;
    let mut adapter = factory(0).map_err(|e| miette!("{e}"))?;
    let mut opts = ioco_exec::OnlineOptions {
        depth: trace.len().max(1) * 4 + 16,
        shrinking: args.shrinking.options(false),
        ..base_options(&args.sut, recorded.seed)
    };
    timing.apply(&mut opts);
    errln!(
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
    if args.shrinking.shrink && r.verdict == RunVerdict::Fail {
        ioco_exec::shrink_into(&mut tester, &mut adapter, &opts, &mut r);
    }
    let _ = adapter.close();
    not_reproduced(&recorded, &mut r);
    let mut summary = Summary::new("replay", recorded.seed, vec![r]);
    summary.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
    summary
        .parameters
        .insert("model".into(), args.model.display().to_string().into());
    summary
        .parameters
        .insert("sut".into(), args.sut.describe().into());
    args.report.finish(&summary, ld)
}

/// A recorded failure whose replay does not fail is not reproduced: Inconclusive (exit 3), never
/// a Pass — the system may be nondeterministic, or may have changed.
fn not_reproduced(recorded: &RunResult, r: &mut RunResult) {
    if recorded.verdict != RunVerdict::Fail || r.verdict != RunVerdict::Pass {
        return;
    }
    let what = recorded
        .failure
        .as_ref()
        .map(|f| {
            format!(
                " ({} observed after {})",
                f.observed,
                trace_before(recorded)
            )
        })
        .unwrap_or_default();
    errln!(
        "ioco replay: not reproduced: the recorded failure{what} did not occur again; the \
         replay passed (a nondeterministic or changed system?)"
    );
    r.verdict = RunVerdict::Inconclusive;
    r.note = Some(format!(
        "not reproduced: the recorded failure{what} did not occur again in the replay"
    ));
}

/// The recorded trace without its last (failing) observation, as text.
fn trace_before(r: &RunResult) -> String {
    let t: Vec<_> = r.trace.iter().collect();
    match t.split_last() {
        Some((_, before)) if !before.is_empty() => before.join(" "),
        _ => "ε".into(),
    }
}

/// Parses a recorded input label (`water?(100)`, `pad?`) into a gate and its values.
fn parse_input(spec: &Spec, label: &str) -> std::result::Result<GateValue, String> {
    match ioco_symbolic::online::parse_gate_value(spec, label)? {
        (gate, vals, true) => Ok((gate, vals)),
        _ => Err(format!("`{label}` is not an input")),
    }
}

/// `ioco replay` of a run on a model with data: the recorded inputs with their values.
fn run_data(args: Args, spec: Arc<Spec>, ld: &Loader) -> Result<Outcome> {
    let recorded = recorded(&args)?;
    let inputs = recorded
        .trace
        .iter()
        .filter(|l| l.contains('?'))
        .map(|l| parse_input(&spec, l))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| {
            miette!(
                help = "give the JSON written by `ioco test --json` on this model",
                "{}: run {}: {e}",
                args.results.display(),
                recorded.run
            )
        })?;
    let mut tracker = ioco_exec::data_session::tracker(&spec)
        .map_err(|e| miette!("{}: {e}", args.model.display()))?;
    let factory = args.sut.data_factory(&spec, ld)?;
    let mut waits = ioco_exec::OnlineOptions::default();
    args.sut.data_timeouts(&spec)?.apply(&mut waits);
    let mut sut = factory(recorded.seed).map_err(|e| miette!("{e}"))?;
    errln!(
        "ioco replay: run {} (seed {}), {} inputs with data (symbolic engine)",
        recorded.run,
        recorded.seed,
        inputs.len()
    );
    let t0 = Instant::now();
    let max_steps = recorded.trace.len().max(8) * 2 + 16;
    let mut rng = ChaCha8Rng::seed_from_u64(recorded.seed);
    let mut r = ioco_exec::engine::symbolic::replay_inputs(
        &mut tracker,
        sut.as_mut(),
        &inputs,
        max_steps,
        Some(&waits),
        &mut rng,
    );
    (r.run, r.seed) = (recorded.run, recorded.seed);
    if !args.report.step_times() {
        r.step_ms.clear();
    }
    if matches!(r.verdict, RunVerdict::Fail | RunVerdict::Error) {
        r.quiescence = ioco_exec::Established::from_counts(sut.established());
        r.stderr = sut.stderr_tail();
    }
    if args.shrinking.shrink && r.verdict == RunVerdict::Fail {
        let mut rng = ChaCha8Rng::seed_from_u64(recorded.seed ^ 0x5421);
        r.shrunk = ioco_exec::engine::symbolic::shrink(
            &mut tracker,
            sut.as_mut(),
            &r,
            &inputs,
            recorded.run,
            &args.shrinking.options(true),
            Some(&waits),
            &mut rng,
        );
    }
    r.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
    not_reproduced(&recorded, &mut r);
    let mut summary = Summary::new("replay", recorded.seed, vec![r]);
    summary.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
    let p = &mut summary.parameters;
    p.insert("model".into(), args.model.display().to_string().into());
    p.insert("sut".into(), args.sut.describe().into());
    p.insert("engine".into(), "symbolic".into());
    args.report.finish(&summary, ld)
}
