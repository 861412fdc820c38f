//! `ioco run suite.json --sut ...` for a switch-coverage suite (format `ioco-sts-suite/1`, see
//! `cmd::gen_sts`): every purpose is executed with on-the-fly data selection (thesis Alg. 6 =
//! TAP19 Alg. 1, through the one tester: `ioco_exec::coverage::run_purpose`): Pass, Fail or Inconclusive per purpose
//! (Inconclusive when the system legally leaves the purpose). The report gives the a priori
//! switch coverage of the suite and the a posteriori coverage of the execution: the switches of
//! the purposes that passed with a single candidate state at the end (conservative, thesis
//! L7422), and liberally of every passed purpose. `--repetitions N` runs the whole list up to N
//! rounds with new input values (until a Fail). Exit codes as for every run: 0, 1, 2.

use super::args::RunArgs as Args;
use super::gen_sts::{from_json, model_hash, StsSuite, FORMAT};
use super::test_data::data_factory;
use super::Outcome;
use crate::load::load_spec;
use ioco_exec::coverage::{run_purpose, PurposeRun};
use ioco_exec::{RunResult, RunVerdict, Summary};
use ioco_symbolic::seg::Purpose;
use miette::{miette, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Reads `path` as a switch-coverage suite, `None` if it is not one (another JSON format).
pub fn read_suite(path: &Path) -> Result<Option<StsSuite>> {
    // other suites can be large: look at their format only
    let Ok(file) = std::fs::File::open(path) else {
        return Ok(None);
    };
    if ioco_gen::stream::format_of(file).as_deref() != Some(FORMAT) {
        return Ok(None);
    }
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(None);
    };
    let suite: StsSuite = serde_json::from_str(&text).map_err(|e| {
        miette!(
            help = "a switch-coverage suite is the JSON written by `ioco gen --method switch-coverage`",
            "{}:{}:{}: {e}",
            path.display(),
            e.line(),
            e.column()
        )
    })?;
    Ok(Some(suite))
}

/// `ioco run SUITE.json` (or `ioco run MODEL.ioco SUITE.json`) when the suite is a
/// switch-coverage suite: `Some(outcome)`; `None` for other suites.
pub fn dispatch(args: &Args) -> Result<Option<Outcome>> {
    let (model, suite_path) = match &args.suite {
        None => (None, args.model.clone()),
        Some(s) => (Some(args.model.clone()), s.clone()),
    };
    match read_suite(&suite_path)? {
        None => Ok(None),
        Some(_) if args.shard.is_some() => Err(miette!(
            help = "shard the runs of `ioco test`, or a suite of `ioco gen` other than switch coverage",
            "--shard is not offered for switch-coverage suites ({})",
            suite_path.display()
        )),
        Some(suite) => run(args, model, &suite_path, suite).map(Some),
    }
}

/// The record of a purpose run: the engine's, with the purpose's name, and a note when it
/// passed with the reached state uncertain.
fn verdict_result(index: usize, seed: u64, name: String, run: &PurposeRun) -> RunResult {
    let mut r = ioco_exec::data_run::result_of(index, seed, &run.trace, &run.end);
    r.test = Some(name);
    if r.verdict == RunVerdict::Pass && run.candidates != 1 {
        r.note = Some(format!(
            "passed with {} candidate states at the end (not counted in the conservative a \
             posteriori coverage)",
            run.candidates
        ));
    }
    r
}

fn run(args: &Args, model: Option<PathBuf>, suite_path: &Path, suite: StsSuite) -> Result<Outcome> {
    let model = model.unwrap_or_else(|| PathBuf::from(&suite.model));
    let bytes = std::fs::read(&model).map_err(|e| {
        miette!(
            help = "the suite names its model relative to where `ioco gen` ran; give it first: `ioco run MODEL.ioco SUITE.json`",
            "cannot read the model {}: {e}",
            model.display()
        )
    })?;
    if model_hash(&bytes) != suite.model_hash {
        errln!(
            "warning: {} changed since the suite was generated (hash {} instead of {}); the purposes are checked against it",
            model.display(),
            model_hash(&bytes),
            suite.model_hash
        );
    }
    let spec = load_spec(&model)?;
    let mut tracker =
        super::test_data::tracker(&spec).map_err(|e| miette!("{}: {e}", model.display()))?;
    let sys = &tracker.sys;
    let purposes: Vec<Purpose> = suite
        .purposes
        .iter()
        .map(|p| {
            from_json(sys, p).map_err(|e| miette!("{}: {}: {e}", suite_path.display(), p.name))
        })
        .collect::<Result<_>>()?;
    for u in &suite.uncovered {
        errln!(
            "WARNING: switch not covered by the suite: {} ({})",
            u.switch,
            u.reason
        );
    }
    let factory = data_factory(&args.sut, &spec)?;
    // as `ioco test` and the explicit `ioco run`: from the clock unless --seed, printed
    let seed = super::sut::seed_or_clock(args.seed);
    errln!(
        "ioco run: {} purposes of {}, seed {seed}, {} round(s)",
        purposes.len(),
        suite_path.display(),
        args.repetitions.unwrap_or(1).max(1)
    );
    let mut sut = factory(seed).map_err(|e| miette!("{e}"))?;
    // the quiescence time-out of the state the specification is in (sound: a late allowed
    // output is never read as δ)
    let timeouts = super::test_data::timeouts(&spec, &args.sut)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (progress, bar) = super::progress(purposes.len() * args.repetitions.unwrap_or(1).max(1));
    super::partial_reports(&args.report, "suite", seed, &model);
    let t0 = Instant::now();
    let mut results = Vec::new();
    let mut covered = BTreeSet::new();
    let mut covered_liberal = BTreeSet::new();
    'rounds: for round in 0..args.repetitions.unwrap_or(1).max(1) {
        for (i, p) in purposes.iter().enumerate() {
            let start = Instant::now();
            let run = run_purpose(&mut tracker, p, sut.as_mut(), Some(&timeouts), &mut rng);
            let name = format!(
                "{} ({}: {})",
                suite.purposes[i].name,
                suite.purposes[i].labels.join(" "),
                suite
                    .switches
                    .get(suite.purposes[i].target)
                    .map(String::as_str)
                    .unwrap_or("?")
            );
            let mut r = verdict_result(results.len(), seed, name, &run);
            if round > 0 {
                r.note = Some(match r.note.take() {
                    Some(n) => format!("round {}; {n}", round + 1),
                    None => format!("round {}", round + 1),
                });
            }
            if run.end.verdict == RunVerdict::Pass {
                covered_liberal.extend(p.switches());
                if run.passed_certain() {
                    covered.extend(p.switches());
                }
            }
            if matches!(r.verdict, RunVerdict::Fail | RunVerdict::Error) {
                r.quiescence = ioco_exec::Established::from_counts(sut.established());
                r.stderr = sut.stderr_tail();
            }
            r.duration_ms = start.elapsed().as_secs_f64() * 1e3;
            if let Some(cb) = &progress.0 {
                cb(&r);
            }
            let stop = r.verdict == RunVerdict::Fail && !args.keep_going;
            results.push(r);
            if stop {
                break 'rounds;
            }
        }
    }
    bar.finish_and_clear();
    let total = suite.switches.len();
    let ratio = |n: usize| {
        if total == 0 {
            1.0
        } else {
            n as f64 / total as f64
        }
    };
    let mut summary = Summary::new("suite", seed, results);
    summary.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
    let p = &mut summary.parameters;
    p.insert("model".into(), model.display().to_string().into());
    p.insert("sut".into(), args.sut.describe().into());
    p.insert("suite".into(), suite_path.display().to_string().into());
    p.insert("engine".into(), "symbolic, switch coverage".into());
    p.insert("switches".into(), total.into());
    p.insert("apriori_coverage".into(), suite.apriori.into());
    p.insert("aposteriori_coverage".into(), ratio(covered.len()).into());
    p.insert(
        "aposteriori_coverage_liberal".into(),
        ratio(covered_liberal.len()).into(),
    );
    args.report.say(&format!(
        "switch coverage: a priori {:.1}% ({} of {} switches), a posteriori {:.1}% ({}; liberal {:.1}%)",
        100.0 * suite.apriori,
        (suite.apriori * total as f64).round() as usize,
        total,
        100.0 * ratio(covered.len()),
        covered.len(),
        100.0 * ratio(covered_liberal.len())
    ));
    args.report.finish(&summary)
}
