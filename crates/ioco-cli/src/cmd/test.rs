//! `ioco test MODEL --sut "PROGRAM ARGS"`: online ioco testing (tutorial Alg. 2) of a real
//! system with `ioco_exec::run_online`; also the SUT options shared with `ioco run` and
//! `ioco replay` ([`SutArgs`]) and the report options ([`ReportArgs`]).
//!
//! The SUT is one of: a child process (`--sut`, spoken to over stdin/stdout), a TCP server
//! (`--tcp HOST:PORT`), a TCP client that connects to us (`--listen PORT`), or a model run by the
//! simulator (`--sim IMPL_MODEL`). The wire format is documented in `ioco_sut::wire`.
//!
//! A model **with data** that the loader gives to the symbolic engine
//! (`ioco_load::engine::choose`: gate parameters or variables of infinite types whose values
//! reached are not finitely many, or `--engine symbolic`) is tested over an STS with
//! `ioco_exec::data_session::run_data_online` (inputs with values chosen by the Z3 solver and
//! the value picker, outputs and their values judged against the guards, STS quiescence; a
//! solver `unknown` never gives Fail). Its runs are `ioco_exec::RunResult`s with traces like
//! `water?(100) coffee!(120) δ`, so the text summary, `--json/--junit/--markdown` and the exit
//! codes are the same for both engines; the report adds the switch coverage of the session.
//!
//! Exit 0 when every run passes, 1 when a run fails, 2 on an error.

pub use super::args::{StrategyArg, TestArgs as Args};
use super::sut::{base_options, load_timed, seed_or_clock};
use super::Outcome;
use crate::load::Loader;
use ioco_exec::data_session::{self, run_data_online};
use ioco_exec::{OnlineOptions, Summary};
use ioco_gen::StrategySpec;
use ioco_lang::ir::Spec;
use miette::{miette, Result};
use std::sync::Arc;
use std::time::Duration;
use std::time::Instant;

fn parse_weights(ws: &[String]) -> Result<Vec<(String, f64)>> {
    ws.iter()
        .map(|w| {
            let (l, x) = w.rsplit_once('=').ok_or_else(|| {
                miette!(
                    help = "write LABEL=WEIGHT, e.g. coin?=3",
                    "bad --weight `{w}`"
                )
            })?;
            let x: f64 = x
                .trim()
                .parse()
                .map_err(|_| miette!("bad weight in --weight `{w}`: not a number"))?;
            Ok((l.trim().to_string(), x))
        })
        .collect()
}

/// Run `ioco test`.
pub fn run(args: Args, ld: &Loader) -> Result<Outcome> {
    args.report.check()?;
    args.shrinking.check()?;
    if args.depth == 0 {
        // a run of no step observes nothing: it must not pass
        return Err(miette!(
            help = "give --steps N with N at least 1 (the default is 50)",
            "--steps 0: a run of no step tests nothing"
        ));
    }
    if args.runs == 0 {
        // said before anything runs: no `PASS: 0 runs` line before the error
        return Err(miette!(
            help = "give --runs N with N at least 1 (the default is 100)",
            "--runs 0: a session of no run tests nothing"
        ));
    }
    args.sut.set_model(&args.model);
    if let Some(p) = args.purpose.clone() {
        if args.shard.is_some() {
            return Err(miette!(
                help = "shard sessions without a purpose",
                "--shard is not offered with --purpose"
            ));
        }
        return super::purpose::run_test(args, &p, ld);
    }
    let mut engine = super::EngineArg::pick(args.engine, args.symbolic);
    if engine.is_none() && args.values.is_some() && crate::load::is_lang(&args.model) {
        // values are chosen by the symbolic engine: asking how is asking for it
        engine = Some(super::EngineArg::Symbolic);
    }
    if let Some((spec, why)) = ld.engine_spec(&args.model, engine)? {
        if args.relation == super::RelationArg::Uioco {
            return Err(miette!(
                help = "bound the data types to test with the explicit engine",
                "--relation uioco is offered by the explicit engine; {} is tested by the \
                 symbolic one ({why})",
                args.model.display()
            ));
        }
        return run_symbolic(args, spec, why, ld);
    }
    if let Some(values) = args.values {
        // the explicit engine gives the values of the model's labels as they are
        return Err(miette!(
            help = "--values chooses values for the symbolic engine: add --engine symbolic (a \
                    .ioco model), or leave out --values",
            "--values {} is not used by the explicit engine, which enumerates the finitely many \
             values of {}",
            values.name(),
            args.model.display()
        ));
    }
    let (spec, timing) = load_timed(&args.model, &args.sut, ld)?;
    // --sim: the simulator's own type (its steps inline into the loop); else any system, boxed
    enum Systems<S> {
        Sim(S),
        Any(super::sut::Factory),
    }
    let systems = match args.sut.simulators(&spec, ld)? {
        Some(sims) => Systems::Sim(sims),
        None => Systems::Any(args.sut.factory(&spec, ld)?),
    };
    let seed = seed_or_clock(args.seed);
    let strategy = match args.strategy {
        StrategyArg::Uniform => StrategySpec::Uniform,
        StrategyArg::Coverage => StrategySpec::Coverage,
        StrategyArg::Weighted => StrategySpec::Weighted(parse_weights(&args.weight)?),
    };
    args.sut.check_jobs(args.jobs.min(args.runs))?;
    let (progress, bar) = super::progress(args.runs);
    super::partial_reports(&args.report, "online", seed, &args.model);
    let mut opts = OnlineOptions {
        progress,
        runs: args.runs,
        depth: args.depth,
        jobs: args.jobs.max(1),
        strategy,
        time_budget: args.time_budget.map(Duration::from_secs_f64),
        stop_on_failure: !args.keep_going,
        shrink: args.shrinking.shrink,
        shrinking: args.shrinking.options(false),
        relation: args.relation.into(),
        observe: super::observe(args.observe)?,
        step_times: args.report.step_times(),
        shard: args.shard,
        keep: args.report.keep(args.runs),
        ..base_options(&args.sut, seed)
    };
    timing.apply(&mut opts);
    errln!("ioco test: seed {seed}");
    let summary = match systems {
        Systems::Sim(sims) => ioco_exec::run_online(&spec, &opts, sims),
        Systems::Any(factory) => ioco_exec::run_online(&spec, &opts, factory),
    };
    bar.finish_and_clear();
    let mut summary = summary.map_err(|e| miette!("{e}"))?;
    summary
        .parameters
        .insert("model".into(), args.model.display().to_string().into());
    summary
        .parameters
        .insert("sut".into(), args.sut.describe().into());
    if let Some(s) = args.shard {
        summary
            .parameters
            .insert("shard".into(), s.to_string().into());
    }
    args.report.finish(&summary, ld)
}

/// Run `ioco test` on a model with data.
fn run_symbolic(args: Args, spec: Arc<Spec>, why: String, ld: &Loader) -> Result<Outcome> {
    args.sut.check_jobs(args.jobs.min(args.runs))?;
    if !args.weight.is_empty() || args.strategy != super::args::StrategyArg::Uniform {
        return Err(miette!(
            help = "the symbolic engine chooses inputs and values itself",
            "--weight/--strategy apply to models without data only"
        ));
    }
    // the model must be usable by the engine (a `@sync` set mixing inputs and outputs is not:
    // say so now)
    data_session::tracker(&spec).map_err(|e| miette!("{}: {e}", args.model.display()))?;
    let factory = args.sut.data_factory(&spec, ld)?;
    let seed = seed_or_clock(args.seed);
    errln!(
        "ioco test: seed {seed} (symbolic engine, Z3 {}: {why})",
        ioco_symbolic::z3solver::z3_version()
    );
    let (progress, bar) = super::progress(args.runs);
    super::partial_reports(&args.report, "online", seed, &args.model);
    let jobs = args.jobs.max(1).min(args.runs.max(1));
    let t0 = Instant::now();
    let mut opts = OnlineOptions {
        runs: args.runs,
        jobs,
        seed,
        shrink: args.shrinking.shrink,
        shrinking: args.shrinking.options(true),
        stop_on_failure: !args.keep_going,
        time_budget: args.time_budget.map(Duration::from_secs_f64),
        depth: args.depth,
        observe: super::observe(args.observe)?,
        progress,
        shard: args.shard,
        keep: args.report.keep(args.runs),
        ..OnlineOptions::default()
    };
    args.sut.data_timeouts(&spec)?.apply(&mut opts);
    let values = args.values.unwrap_or_default();
    let picking = move |s: &Arc<Spec>| {
        data_session::tracker(s).map(|mut t| {
            t.picker = ioco_symbolic::pick::Picker::new(values);
            t
        })
    };
    let session = run_data_online(&spec, picking, &factory, &opts);
    bar.finish_and_clear();
    let session = session.map_err(|e| miette!("{e}"))?;
    let (covered, total) = session.switch_coverage(&spec);
    let mut runs = session.runs;
    if !args.report.step_times() {
        // step times are for the HTML report's chart (now or from the JSON) only
        runs.iter_mut().for_each(|r| r.step_ms.clear());
    }
    let mut summary = Summary::new("online", seed, runs);
    summary.omitted = session.omitted;
    summary.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
    let p = &mut summary.parameters;
    p.insert("model".into(), args.model.display().to_string().into());
    p.insert("sut".into(), args.sut.describe().into());
    p.insert("engine".into(), "symbolic".into());
    p.insert(
        "values".into(),
        args.values.unwrap_or_default().name().into(),
    );
    p.insert("runs".into(), args.runs.into());
    p.insert("steps".into(), args.depth.into());
    p.insert("jobs".into(), jobs.into());
    p.insert("timeout_ms".into(), args.sut.timeout_ms().into());
    let ratio = if total == 0 {
        1.0
    } else {
        covered as f64 / total as f64
    };
    p.insert("switch_coverage".into(), ratio.into());
    if let Some(s) = args.shard {
        p.insert("shard".into(), s.to_string().into());
    }
    args.report.say(&format!(
        "switch coverage: {covered} of {total} switches taken ({:.1}%)",
        100.0 * ratio
    ));
    args.report.finish(&summary, ld)
}
