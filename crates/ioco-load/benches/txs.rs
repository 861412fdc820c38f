//! Benchmarks of the TorXakis front end (plain timing, `cargo bench -p ioco-load --bench txs`; issue #16):
//!
//! 1. **load**: parse + lower + check ([`ioco_txs::load_files`]) of every file of the TorXakis
//!    corpus (`torxakis/` in the public corpus, `ioco_testkit`) that loads, with its companion files; the median of
//!    [`LOAD_REPS`] repetitions per file, then the median and the maximum over the files.
//! 2. **step**: each micro-benchmark MODELDEF of `test/sqatt/data/bench/` that has a hand port
//!    in `examples/torxakis/` (same name, or [`RENAMED`]), stepped as `ioco test M --sim M
//!    --steps 100 --runs 1 --seed S` steps it, with the engine the CLI picks for each (explicit:
//!    the model translated to its LTS, then `ioco_exec::run_online` against the `Simulator` of
//!    the same LTS; symbolic, for unbounded data: `run_data_online` against the model simulated
//!    with Z3); the imported model and the port alternate, [`STEP_REPS`] samples each, and the
//!    ratio of the best samples is printed (with the ratio of the medians). MODELDEFs the
//!    lowering leaves out are listed with its warning. `-- step NAME` runs one MODELDEF (for a
//!    profiler).
//! 3. **dispro**: 10 000 steps of `examps/DispatchProcess/spec/DisPro12-unique-id.txs`, the
//!    model TorXakis's stepper could not take 50 steps of in 30 minutes (TorXakis issue #330),
//!    of the other DispatchProcess models, and of the hand port of DisPro12.
//!
//! Nothing here asserts a time; the numbers are recorded in `BENCHMARKS.md`.

use ioco_exec::data_session::{run_data_online, DataFactory};
use ioco_exec::{OnlineOptions, RunVerdict};
use ioco_lang::ir::Spec;
use ioco_lang::translate::{to_lts_timed, Options};
use ioco_sut::sim::{SimOptions, Simulator};
use ioco_sut::Sut;
use ioco_symbolic::online::{GateValue, SpecSut};
use ioco_symbolic::SymbolicSpec;
use ioco_txs::corpus::{txs_files, with_companions};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The master seed of every stepping session (`--seed`).
const SEED: u64 = 18045;
/// Repetitions of each load.
const LOAD_REPS: usize = 21;
/// Samples of each 100-step session (imported and port alternating); a sample times a batch
/// of sessions of at least [`MIN_SAMPLE_MS`].
const STEP_REPS: usize = 21;
/// The shortest sample.
const MIN_SAMPLE_MS: f64 = 2.0;

/// The hand ports of the micro-benchmarks (`examples/torxakis/`), matched by name.
const PORTS: &[&str] = &[
    "choice.ioco",
    "sequence.ioco",
    "parallel.ioco",
    "parallel-sync.ioco",
    "synchronization.ioco",
    "hiding.ioco",
    "enable.ioco",
    "match.ioco",
];

/// MODELDEFs whose port has another name: the ports of `Match` and `MatchInt` bound the
/// pending outputs by a parameter `cap` and instantiate it in a system.
const RENAMED: &[(&str, &str)] = &[("Match", "Match2"), ("MatchInt", "MatchInt1")];

fn port_name(txs: &str) -> &str {
    RENAMED
        .iter()
        .find(|(t, _)| *t == txs)
        .map_or(txs, |(_, p)| *p)
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn corpus() -> Result<PathBuf, String> {
    ioco_testkit::locate_corpus().map(|c| c.join("torxakis"))
}

fn load(paths: &[PathBuf]) -> Result<ioco_txs::TxsModel, Vec<ioco_lang::Diagnostic>> {
    let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    ioco_txs::load_files(&refs)
}

fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// The engine `ioco test` picks for a model: the symbolic one when a gate parameter or a
/// variable has a type whose values cannot be enumerated and the symbolic engine takes the
/// model (`ioco-cli`'s `load::data_spec`), else the explicit one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Engine {
    Explicit,
    Symbolic,
}

fn infinite_data(spec: &Spec) -> bool {
    let inf = |ty| spec.defs.enumerate(ty, 100_000).is_err();
    spec.gates
        .iter()
        .any(|g| g.params.iter().any(|(_, ty)| inf(*ty)))
        || spec
            .automata
            .iter()
            .any(|a| a.vars.iter().any(|v| inf(v.ty)))
}

fn cli_engine(spec: &Arc<Spec>) -> Engine {
    if infinite_data(spec) && SymbolicSpec::with_z3(spec.clone()).is_ok() {
        Engine::Symbolic
    } else {
        Engine::Explicit
    }
}

/// What one session took: the translation to an LTS (explicit engine), the run, the LTS's
/// states (explicit engine) and the steps taken.
#[derive(Copy, Clone, Debug)]
struct Session {
    translate: f64,
    run: f64,
    states: Option<usize>,
    steps: usize,
}

/// One session as `ioco test M --sim M --steps STEPS --runs 1 --seed SEED` runs it, from the
/// checked model on. Explicit engine: the translation of the spec to its LTS (the CLI
/// translates the `--sim` model a second time; here the simulator shares the spec's LTS),
/// then one online run against the `Simulator`. Symbolic engine: one run of
/// `run_data_online` against the model simulated by the solver (`SpecSut`), Z3 set up for
/// both as the CLI does.
fn session(spec: &Arc<Spec>, steps: usize, engine: Engine) -> Result<Session, String> {
    match engine {
        Engine::Explicit => explicit(spec, steps),
        Engine::Symbolic => symbolic(spec, steps),
    }
}

fn explicit(spec: &Spec, steps: usize) -> Result<Session, String> {
    let t = Instant::now();
    let (lts, _timing) = to_lts_timed(spec, &Options::default()).map_err(|e| e.message)?;
    let translate = ms(t);
    let t = Instant::now();
    let imp = Arc::new(lts.clone());
    let alphabet = lts.alphabet().clone();
    let opts = OnlineOptions {
        runs: 1,
        depth: steps,
        seed: SEED,
        jobs: 1,
        ..OnlineOptions::default()
    };
    let summary = ioco_exec::run_online(&lts, &opts, |_| {
        Ok(Box::new(Simulator::new(
            Arc::clone(&imp),
            &alphabet,
            SimOptions::default(),
        )) as Box<dyn Sut + Send>)
    })?;
    let run = ms(t);
    let r = &summary.runs[0];
    if r.verdict != RunVerdict::Pass {
        return Err(format!("the model against itself: {:?}", r.verdict));
    }
    Ok(Session {
        translate,
        run,
        states: Some(lts.num_states()),
        steps: r.steps,
    })
}

fn symbolic(spec: &Arc<Spec>, steps: usize) -> Result<Session, String> {
    let t = Instant::now();
    let imp = spec.clone();
    let factory: DataFactory = Box::new(move |seed| {
        let sim = SymbolicSpec::with_z3(imp.clone())?;
        Ok(
            Box::new(SpecSut::new(sim, ChaCha8Rng::seed_from_u64(seed ^ 0x5eed)))
                as Box<dyn Sut<GateValue>>,
        )
    });
    let opts = OnlineOptions {
        runs: 1,
        jobs: 1,
        seed: SEED,
        depth: steps,
        ..OnlineOptions::default()
    };
    let session = run_data_online(spec, |s| SymbolicSpec::with_z3(s.clone()), &factory, &opts)?;
    let run = ms(t);
    let r = &session.runs[0];
    if r.verdict != RunVerdict::Pass {
        return Err(format!("the model against itself: {:?}", r.verdict));
    }
    Ok(Session {
        translate: 0.0,
        run,
        states: None,
        steps: r.steps,
    })
}

/// Per-session times of one side: the best (minimum) and the median over the samples of
/// translate, run and their sum.
#[derive(Copy, Clone, Debug)]
struct Times {
    translate: f64,
    run: f64,
    best: f64,
    median: f64,
}

/// A stepper walk of 100 steps through a model with data (`SymbolicSpec::simulate_step`, as
/// `ioco-symbolic`'s stepper bench): (Z3 checks, answers of the fast path).
fn solver_checks(spec: &Arc<Spec>) -> Option<(u64, u64)> {
    let mut t = SymbolicSpec::with_z3(spec.clone()).ok()?;
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    for _ in 0..100 {
        t.simulate_step(&mut rng)?;
    }
    Some((t.checker.stats.solver_calls, t.checker.stats.quick))
}

/// `n` samples of `a` and `b`, alternating; each sample a batch of sessions lasting at least
/// [`MIN_SAMPLE_MS`], divided by the batch. The best sample is the figure least disturbed by
/// other work on the machine; the median is printed beside it.
fn alternate(a: &dyn Fn() -> Session, b: &dyn Fn() -> Session, n: usize) -> (Times, Times) {
    let once = |f: &dyn Fn() -> Session| {
        let t = Instant::now();
        f();
        ms(t)
    };
    let slowest = once(a).max(once(b)).max(1e-4);
    let batch = ((MIN_SAMPLE_MS / slowest).ceil() as usize).clamp(1, 10_000);
    let sample = |f: &dyn Fn() -> Session| {
        let (mut tr, mut run) = (0.0, 0.0);
        for _ in 0..batch {
            let s = f();
            tr += s.translate;
            run += s.run;
        }
        (tr / batch as f64, run / batch as f64)
    };
    let mut xs: [Vec<(f64, f64)>; 2] = [vec![], vec![]];
    for _ in 0..n {
        xs[0].push(sample(a));
        xs[1].push(sample(b));
    }
    let times = |v: &[(f64, f64)]| {
        let best = v
            .iter()
            .copied()
            .min_by(|x, y| (x.0 + x.1).total_cmp(&(y.0 + y.1)))
            .unwrap();
        Times {
            translate: best.0,
            run: best.1,
            best: best.0 + best.1,
            median: median(&mut v.iter().map(|x| x.0 + x.1).collect::<Vec<_>>()),
        }
    };
    (times(&xs[0]), times(&xs[1]))
}

fn bench_load(root: &Path) {
    let files = txs_files(root);
    // (median ms, file) of the files that load, and of those refused with a diagnostic
    let (mut ok, mut refused) = (Vec::new(), Vec::new());
    for f in &files {
        let paths = with_companions(root, f);
        let loads = load(&paths).is_ok();
        let mut xs: Vec<f64> = (0..LOAD_REPS)
            .map(|_| {
                let t = Instant::now();
                let m = load(&paths);
                let dt = ms(t);
                drop(m);
                dt
            })
            .collect();
        let rel = f.strip_prefix(root).unwrap().display().to_string();
        let entry = (median(&mut xs), rel);
        if loads {
            ok.push(entry);
        } else {
            refused.push(entry);
        }
    }
    for v in [&mut ok, &mut refused] {
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let med = |v: &[(f64, String)]| median(&mut v.iter().map(|p| p.0).collect::<Vec<_>>());
    println!(
        "load (parse + lower + check, with companions), median of {LOAD_REPS} per file: {} of {} \
         corpus files load",
        ok.len(),
        files.len()
    );
    println!(
        "  loaded: median over files {:.3} ms, max {:.3} ms; slowest:",
        med(&ok),
        ok.last().map_or(0.0, |p| p.0)
    );
    for (t, f) in ok.iter().rev().take(5) {
        println!("  {t:8.3} ms  {f}");
    }
    if let Some((t, f)) = refused.last() {
        println!(
            "  the {} refused (to the diagnostic): median {:.3} ms, max {t:.3} ms ({f})",
            refused.len(),
            med(&refused)
        );
    }
}

fn short(e: &str) -> String {
    e.lines().next().unwrap_or("").chars().take(110).collect()
}

fn engine_name(e: Engine) -> &'static str {
    match e {
        Engine::Explicit => "expl",
        Engine::Symbolic => "symb",
    }
}

fn bench_steps(root: &Path, only: Option<&str>) {
    let files = txs_files(&root.join("test/sqatt/data/bench"));
    let ports: Vec<(String, ioco_lang::Model)> = PORTS
        .iter()
        .map(|p| {
            let m = ioco_lang::parse_file(root_ports().join(p))
                .unwrap_or_else(|d| panic!("{p}: {}", ioco_lang::render_plain(&d)));
            (p.to_string(), m)
        })
        .collect();
    println!();
    println!(
        "step: `ioco test M --sim M --steps 100 --runs 1 --seed {SEED}`, each model with the engine \
         the CLI picks for it; ms per session, the best of {STEP_REPS} samples (imported and port \
         alternating); ratio imported / port of the best, and of the medians"
    );
    println!(
        "  {:<25} {:>9} {:>9} {:>5}  {:>9} {:>9}  {:>9} {:>9}  {:>6} {:>6}",
        "MODELDEF",
        "imp/port",
        "states",
        "steps",
        "transl ms",
        "port",
        "run ms",
        "port",
        "ratio",
        "(med)"
    );
    let mut ratios = Vec::new();
    let mut worst: (f64, String) = (0.0, String::new());
    // a companion's MODELDEFs are loaded again with every file that needs it: step them once
    let mut done = std::collections::HashSet::new();
    for f in &files {
        let Ok(imported) = load(&with_companions(root, f)) else {
            continue;
        };
        // MODELDEFs with a port that the lowering left out (with a warning)
        let text = std::fs::read_to_string(f).unwrap();
        for name in text
            .split("MODELDEF")
            .skip(1)
            .filter_map(|t| t.split_whitespace().next())
        {
            let lowered = imported.lowered.models.iter().any(|m| m.txs_name == name);
            if !lowered
                && ports.iter().any(|(_, m)| m.spec(port_name(name)).is_some())
                && done.insert(name.to_string())
            {
                let why = imported
                    .lowered
                    .warnings
                    .iter()
                    .find(|w| w.message.contains(name))
                    .map_or(String::new(), |w| short(&w.message));
                println!("  {name:<25} not stepped: left out by the lowering: {why}");
            }
        }
        for info in &imported.lowered.models {
            let Some((port_file, port)) = ports
                .iter()
                .find_map(|(n, m)| m.spec(port_name(&info.txs_name)).map(|s| (n, s)))
            else {
                continue;
            };
            let name = &info.txs_name;
            if only.is_some_and(|o| o != name) || !done.insert(name.clone()) {
                continue;
            }
            let spec = Arc::new(
                imported
                    .model
                    .spec(&info.ioco_name)
                    .expect("the MODELDEF")
                    .clone(),
            );
            let port = Arc::new(port.clone());
            let (ei, ep) = (cli_engine(&spec), cli_engine(&port));
            let (i0, p0) = match (session(&spec, 100, ei), session(&port, 100, ep)) {
                (Ok(i), Ok(p)) => (i, p),
                (i, p) => {
                    let why = match (i, p) {
                        (Err(e), _) => format!("imported: {}", short(&e)),
                        (_, Err(e)) => format!("port: {}", short(&e)),
                        _ => unreachable!(),
                    };
                    println!("  {name:<25} not stepped ({port_file}): {why}");
                    continue;
                }
            };
            let (ti, tp) = alternate(
                &|| session(&spec, 100, ei).unwrap(),
                &|| session(&port, 100, ep).unwrap(),
                STEP_REPS,
            );
            let ratio = ti.best / tp.best;
            ratios.push((ratio, name.clone()));
            if ti.best > worst.0 {
                worst = (ti.best, name.clone());
            }
            let states = |s: Session| s.states.map_or("-".to_string(), |n| n.to_string());
            println!(
                "  {:<25} {:>9} {:>9} {:>5}  {:>9.4} {:>9.4}  {:>9.4} {:>9.4}  {:>6.2} {:>6.2}",
                name,
                format!("{}/{}", engine_name(ei), engine_name(ep)),
                format!("{}/{}", states(i0), states(p0)),
                if i0.steps == p0.steps {
                    i0.steps.to_string()
                } else {
                    format!("{}/{}", i0.steps, p0.steps)
                },
                ti.translate,
                tp.translate,
                ti.run,
                tp.run,
                ratio,
                ti.median / tp.median
            );
            if ei == Engine::Symbolic {
                let show = |c: Option<(u64, u64)>| {
                    c.map_or("-".to_string(), |(z, q)| {
                        format!("{z} Z3 checks, {q} fast-path")
                    })
                };
                println!(
                    "  {:<25} a 100-step walk: imported {}; port {}",
                    "",
                    show(solver_checks(&spec)),
                    show(solver_checks(&port))
                );
            }
            if ei != ep {
                // the same engine on both: what the lowering costs, apart from the engine
                let (si, sp) = alternate(
                    &|| session(&spec, 100, ei).unwrap(),
                    &|| session(&port, 100, ei).unwrap(),
                    STEP_REPS,
                );
                println!(
                    "  {:<25} {:>9} {:>9} {:>5}  {:>9} {:>9}  {:>9.4} {:>9.4}  {:>6.2} {:>6.2}",
                    "  (same engine)",
                    format!("{}/{}", engine_name(ei), engine_name(ei)),
                    "",
                    "",
                    "",
                    "",
                    si.run,
                    sp.run,
                    si.best / sp.best,
                    si.median / sp.median
                );
            }
        }
    }
    ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut rs: Vec<f64> = ratios.iter().map(|r| r.0).collect();
    if let (Some(lo), Some(hi)) = (ratios.first(), ratios.last()) {
        println!(
            "  {} pairs; imported / port (best of translate + run, the engine the CLI picks): median \
             {:.2}, min {:.2} ({}), max {:.2} ({})",
            ratios.len(),
            median(&mut rs),
            lo.0,
            lo.1,
            hi.0,
            hi.1
        );
        println!(
            "  slowest imported model: {:.3} ms per 100 steps ({}); TorXakis (issue #850): \
             1 250 - 17 000 ms per benchmark script",
            worst.0, worst.1
        );
    }
}

/// 10 000 steps of DisPro12 (TorXakis issue #330), imported, and of its hand port.
fn bench_dispro12(root: &Path) {
    let file = root.join("examps/DispatchProcess/spec/DisPro12-unique-id.txs");
    let steps = 10_000;
    println!();
    let t = Instant::now();
    let m = match load(&[file]) {
        Ok(m) => m,
        Err(d) => {
            println!("DisPro12: does not load: {}", ioco_lang::render_plain(&d));
            return;
        }
    };
    let load_ms = ms(t);
    let info = m
        .lowered
        .models
        .iter()
        .find(|i| i.txs_name == "Model")
        .expect("MODELDEF Model");
    let spec = Arc::new(m.model.spec(&info.ioco_name).unwrap().clone());
    let engine = cli_engine(&spec);
    let say = |what: &str, engine: Engine, r: Result<Session, String>, before: f64| match r {
        Ok(s) => println!(
            "{what}: {} engine, load {before:.2} ms, translate {:.2} ms ({} states), {} steps \
             {:.2} ms; total {:.2} ms",
            engine_name(engine),
            s.translate,
            s.states.map_or("-".into(), |n| n.to_string()),
            s.steps,
            s.run,
            before + s.translate + s.run
        ),
        Err(e) => println!(
            "{what}: load {before:.2} ms; {} engine: {}",
            engine_name(engine),
            short(&e)
        ),
    };
    say(
        "DisPro12 imported (TorXakis #330)",
        engine,
        session(&spec, steps, engine),
        load_ms,
    );
    if engine == Engine::Explicit && infinite_data(&spec) {
        let why = SymbolicSpec::with_z3(spec.clone())
            .err()
            .unwrap_or_default();
        println!("  (the symbolic engine refuses it: {})", short(&why));
    }
    // the other DispatchProcess models, imported, for comparison
    let dir = root.join("examps/DispatchProcess/spec");
    let others = txs_files(&dir);
    for f in others
        .iter()
        .filter(|f| !f.ends_with("DisPro12-unique-id.txs"))
    {
        let rel = f.file_name().unwrap().to_string_lossy().to_string();
        let t = Instant::now();
        let Ok(m) = load(std::slice::from_ref(f)) else {
            println!("  {rel}: does not load");
            continue;
        };
        let load_ms = ms(t);
        let Some(info) = m.lowered.models.iter().find(|i| i.txs_name == "Model") else {
            println!("  {rel}: no MODELDEF Model");
            continue;
        };
        let spec = Arc::new(m.model.spec(&info.ioco_name).unwrap().clone());
        let e = cli_engine(&spec);
        say(&format!("  {rel}"), e, session(&spec, steps, e), load_ms);
    }
    let t = Instant::now();
    let port = ioco_lang::parse_file(root_ports().join("dispatch-process.ioco")).unwrap();
    let port_ms = ms(t);
    let ps = Arc::new(port.spec("DisPro12").unwrap().clone());
    let pe = cli_engine(&ps);
    say("DisPro12 hand port", pe, session(&ps, steps, pe), port_ms);
}

fn root_ports() -> PathBuf {
    root().join("examples/torxakis")
}

fn main() {
    let root = match corpus() {
        Ok(root) => root,
        Err(why) => {
            println!("skipped: {why}");
            return;
        }
    };
    println!("seed {SEED}");
    // `-- step NAME`: only that part (load, step, dispro), and only that MODELDEF
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let on = |s: &str| args.first().is_none_or(|o| o == s);
    if on("load") {
        bench_load(&root);
    }
    if on("step") {
        bench_steps(&root, args.get(1).map(String::as_str));
    }
    if on("dispro") {
        bench_dispro12(&root);
    }
}
