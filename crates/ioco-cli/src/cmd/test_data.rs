//! `ioco test MODEL.ioco` for models **with data** (gate parameters or variables of infinite
//! types such as `int`): symbolic online testing with `ioco-symbolic` (tutorial Alg. 2 over an
//! STS; inputs with values chosen by the Z3 solver and the value picker, outputs and their
//! values judged against the guards, STS quiescence; a solver `unknown` never gives Fail).
//!
//! [`data_spec`] decides when a model goes here: a `.ioco` file whose entry point has a gate
//! parameter or a variable whose values cannot be enumerated (the LTS translation is
//! impossible), or any `.ioco` model with `--symbolic`. The SUT is a process or TCP peer
//! (`ioco_exec::data`, wire format `gate arg1 arg2` or JSON lines), or `--sim IMPL.ioco`: an
//! implementation model with data simulated by the solver.
//!
//! Runs become `ioco_exec::RunResult`s with traces like `water?(100) coffee!(120) δ`, so the
//! text summary, `--json/--junit/--markdown` and the exit codes (0 pass, 1 fail, 2 error) are
//! those of the label-level `ioco test`. A Fail shows the trace, the observed output with its
//! values, the outputs the spec allowed (guards with the variables' values) and the violated
//! guard conjuncts; `--shrink` replays the recorded input values and minimises them (ddmin).

use super::args::TestArgs as Args;
use super::Outcome;
use ioco_exec::adapter::process::ProcessConfig;
use ioco_exec::adapter::tcp::TcpMode;
use ioco_exec::adapter::txs::TxsAdapter;
use ioco_exec::data::{DataAdapter, DataTarget};
use ioco_exec::data_session::{run_data_online, DataSession, DataSessionOptions};
use ioco_exec::Summary;
use ioco_lang::ir::Spec;
use ioco_symbolic::online::{self, GateValue, SpecSut, Sut};
use ioco_symbolic::SymbolicSpec;
use miette::{miette, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The solver: Z3, or with `IOCO_SOLVER=unknown` in the environment a solver that answers
/// `unknown` to everything (a soundness check: the tester must then never give Fail because of
/// the solver, only Pass or Inconclusive).
pub fn solver(spec: &Spec) -> Box<dyn ioco_symbolic::Solver> {
    if std::env::var("IOCO_SOLVER").is_ok_and(|v| v == "unknown") {
        Box::new(ioco_symbolic::UnknownSolver)
    } else {
        Box::new(ioco_symbolic::Z3Solver::new(spec.defs.clone()))
    }
}

/// The online tracker of a spec with [`solver`].
pub fn tracker(spec: &Arc<Spec>) -> std::result::Result<SymbolicSpec, String> {
    SymbolicSpec::new(spec.clone(), solver(spec))
}

pub use ioco_exec::data_session::DataFactory;

/// The systems under test of the SUT options, for `spec`.
pub fn data_factory(sut: &super::sut::SutArgs, spec: &Arc<Spec>) -> Result<DataFactory> {
    if let Some((_, make)) = sut.http_service()? {
        return Ok(Box::new(move |_| {
            Ok(Box::new(make()) as Box<dyn Sut<GateValue>>)
        }));
    }
    let wire = sut.wire()?;
    let settle = Duration::from_millis(sut.timeout_ms());
    let timeout = Duration::from_millis(sut.timeout_ms());
    // a .txs model's CNECTDEF (with --sut "CMD {port}": the SUT started for each run)
    if let Some((_, cfg)) = sut.txs_connection()? {
        // check the configuration against the model now, for a clear error
        let first = TxsAdapter::new(spec.clone(), cfg.clone()).map_err(|e| miette!("{e}"))?;
        let first = Mutex::new(Some(first));
        let spec = spec.clone();
        return Ok(Box::new(move |_| {
            let mut a = match first.lock().unwrap_or_else(|p| p.into_inner()).take() {
                Some(a) => a,
                None => TxsAdapter::new(spec.clone(), cfg.clone())?,
            };
            a.timeout = timeout;
            Ok(Box::new(a) as Box<dyn Sut<GateValue>>)
        }));
    }
    let target = if let Some(addr) = &sut.tcp {
        Some(DataTarget::Tcp(sut.tcp_config(
            TcpMode::Connect(addr.clone()),
            wire.clone(),
            settle,
        )?))
    } else if let Some(cmd) = &sut.cmd {
        let mut cfg = ProcessConfig::from_command_line(cmd).map_err(|e| miette!("{e}"))?;
        cfg.wire = wire.clone();
        cfg.reset = sut.reset();
        cfg.settle = settle;
        sut.startup(&mut cfg);
        Some(DataTarget::Process(cfg))
    } else {
        None
    };
    if let Some(target) = target {
        // check the mapping against the gates now, for a clear error
        DataAdapter::new(spec.clone(), target.clone()).map_err(|e| miette!("{e}"))?;
        let spec = spec.clone();
        return Ok(Box::new(move |_| {
            let mut a = DataAdapter::new(spec.clone(), target.clone())?;
            a.timeout = timeout;
            Ok(Box::new(a) as Box<dyn Sut<GateValue>>)
        }));
    }
    if let Some(port) = &sut.listen {
        let cfg = sut.tcp_config(TcpMode::Listen(port.clone()), wire, settle)?;
        let mut a =
            DataAdapter::new(spec.clone(), DataTarget::Tcp(cfg)).map_err(|e| miette!("{e}"))?;
        a.timeout = timeout;
        if let Some(addr) = a.local_addr() {
            // where the SUT must connect (the port, when `--listen 0` picked a free one)
            errln!("ioco: listening on {addr}");
            let _ = sut.bound.set(addr.to_string());
        }
        let cell = Mutex::new(Some(a));
        return Ok(Box::new(move |_| {
            let a = cell
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .take()
                .ok_or("--listen serves one SUT: use --jobs 1")?;
            Ok(Box::new(a) as Box<dyn Sut<GateValue>>)
        }));
    }
    if let Some(path) = &sut.sim {
        let imp = crate::load::load_spec(path)?;
        // fail early on a model the engine cannot handle
        SymbolicSpec::with_z3(imp.clone()).map_err(|e| miette!("{}: {e}", path.display()))?;
        return Ok(Box::new(move |seed| {
            let sim = SymbolicSpec::with_z3(imp.clone())?;
            Ok(
                Box::new(SpecSut::new(sim, ChaCha8Rng::seed_from_u64(seed ^ 0x5eed)))
                    as Box<dyn Sut<GateValue>>,
            )
        }));
    }
    Err(miette!(
        help = "e.g. --sut \"./my-sut --ack\" --quiescence-marker '#quiet'",
        "no system under test: give --sut, --tcp, --listen, --http or --sim"
    ))
}

/// The quiescence time-outs of a session with data: the model's `@timeout`s (model, gates,
/// locations), `--timeout` overriding the model's, overridden by `--timeout-gate NAME=MS`
/// and `--timeout-location [MODEL.]LOCATION=MS`; combined by the rule of
/// `ioco_symbolic::online::Timeouts` (the maximum over what applies).
pub fn timeouts(spec: &Spec, sut: &super::sut::SutArgs) -> Result<online::Timeouts> {
    let mut t = online::Timeouts::of_spec(spec, Duration::from_millis(sut.timeout_ms()));
    if let Some(ms) = sut.timeout {
        // An explicit `--timeout` overrides the model's own `@timeout`.
        t.default = Duration::from_millis(ms);
    }
    let split = |opt: &str, g: &str| -> Result<(String, Duration)> {
        let (name, v) = g
            .rsplit_once('=')
            .ok_or_else(|| miette!(help = format!("write {opt} NAME=MS"), "bad {opt} `{g}`"))?;
        let d = super::sut::parse_ms(v).ok_or_else(|| {
            miette!(
                help = "milliseconds (2000) or 2s, 500ms",
                "bad {opt} `{g}`: `{v}` is not a duration"
            )
        })?;
        Ok((name.trim().trim_end_matches(['?', '!']).to_string(), d))
    };
    for g in &sut.timeout_gate {
        let (name, d) = split("--timeout-gate", g)?;
        let i = spec
            .gates
            .iter()
            .position(|x| x.name == name)
            .ok_or_else(|| {
                let all: Vec<&str> = spec.gates.iter().map(|x| x.name.as_str()).collect();
                miette!(
                    help = format!("the model's gates: {}", all.join(", ")),
                    "--timeout-gate `{g}`: the model has no gate `{name}`"
                )
            })?;
        t.gates[i] = Some(d);
    }
    for l in &sut.timeout_location {
        let (name, d) = split("--timeout-location", l)?;
        let mut found = false;
        for (ai, a) in spec.automata.iter().enumerate() {
            for (li, loc) in a.locations.iter().enumerate() {
                if name == loc.name || name == format!("{}.{}", a.name, loc.name) {
                    t.locations[ai][li] = Some(d);
                    found = true;
                }
            }
        }
        if !found {
            return Err(miette!(
                help = "name a location as LOCATION or MODEL.LOCATION",
                "--timeout-location `{l}`: the model has no location `{name}`"
            ));
        }
    }
    Ok(t)
}

pub use ioco_exec::data_run::to_result;

/// Run `ioco test` on a model with data.
pub fn run(args: Args, spec: Arc<Spec>, why: String) -> Result<Outcome> {
    args.sut.check_jobs(args.jobs.min(args.runs))?;
    if !args.weight.is_empty() || args.strategy != super::args::StrategyArg::Uniform {
        return Err(miette!(
            help = "the symbolic engine chooses inputs and values itself",
            "--weight/--strategy apply to models without data only"
        ));
    }
    // the model must be usable by the engine (a `@sync` set mixing inputs and outputs is not:
    // say so now)
    tracker(&spec).map_err(|e| miette!("{}: {e}", args.model.display()))?;
    let factory = data_factory(&args.sut, &spec)?;
    let seed = super::sut::seed_or_clock(args.seed);
    errln!(
        "ioco test: seed {seed} (symbolic engine, Z3 {}: {why})",
        ioco_symbolic::z3solver::z3_version()
    );
    let (progress, bar) = super::progress(args.runs);
    super::partial_reports(&args.report, "online", seed, &args.model);
    let jobs = args.jobs.max(1).min(args.runs.max(1));
    let t0 = Instant::now();
    let timeouts = timeouts(&spec, &args.sut)?;
    let opts = DataSessionOptions {
        runs: args.runs,
        jobs,
        seed,
        shrink: args.shrinking.shrink,
        shrinking: args.shrinking.options(true),
        keep_going: args.keep_going,
        budget: args.time_budget.map(Duration::from_secs_f64),
        online: online::OnlineOptions {
            steps: args.depth,
            input_bias: 1.0 - super::observe(args.observe)?,
            timeouts: Some(timeouts),
        },
        progress,
        shard: args.shard,
    };
    let values = args.values.unwrap_or_default();
    let picking = move |s: &Arc<Spec>| {
        tracker(s).map(|mut t| {
            t.picker = ioco_symbolic::pick::Picker::new(values);
            t
        })
    };
    let session = run_data_online(&spec, picking, &factory, &opts);
    bar.finish_and_clear();
    let DataSession { mut runs, switches } = session.map_err(|e| miette!("{e}"))?;
    if !args.report.step_times() {
        // step times are for the HTML report's chart (now or from the JSON) only
        runs.iter_mut().for_each(|r| r.step_ms.clear());
    }
    let mut summary = Summary::new("online", seed, runs);
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
    // Switches of a gate: a τ switch is never seen on the wire, so it is not counted as to do.
    let visible = |&(a, s): &(u32, u32)| {
        spec.automata[a as usize].switches[s as usize]
            .gate
            .is_some()
    };
    let total = ioco_symbolic::System::new(spec.clone())
        .map(|s| s.switches().iter().filter(|w| visible(w)).count())
        .unwrap_or(0);
    let covered = switches.iter().filter(|w| visible(w)).count();
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
    args.report.finish(&summary)
}
