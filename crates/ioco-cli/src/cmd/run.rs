//! `ioco run MODEL SUITE.json --sut ...`: execute a stored test suite (the JSON of `ioco gen`)
//! against a SUT with `ioco_exec::run_suite` (note §2.4): nested distinguishing suites never
//! count as non-conformance; a test the implementation did not follow is run
//! again under the fairness rule of `ioco_exec::fairness` (`--confidence`,
//! `--min-branch-probability`, `--repetitions`).
//!
//! A switch-coverage suite (format `ioco-sts-suite/1`, `ioco_exec::sts_suite`; it may come
//! alone, naming its model) is executed purpose by purpose with on-the-fly data selection
//! (thesis Alg. 6 = TAP19 Alg. 1, through the one tester): Pass, Fail or Inconclusive per
//! purpose (Inconclusive when the system legally leaves the purpose). The report gives the a
//! priori switch coverage of the suite and the a posteriori coverage of the execution: the
//! switches of the purposes that passed with a single candidate state at the end
//! (conservative, thesis L7422), and liberally of every passed purpose. `--repetitions N` runs
//! the whole list up to N rounds with new input values (until a Fail).
//!
//! Exit 0 when every test passes, 1 when one fails, 2 on an error.

pub use super::args::RunArgs as Args;
use super::sut::{base_options, load_timed, seed_or_clock};
use super::Outcome;
use crate::load::Loader;
use ioco_exec::sts_suite::{execute, from_json, model_hash, ExecOptions, StsSuite};
use ioco_exec::Summary;
use ioco_gen::stream::{read_suite, StreamedTest};
use ioco_gen::Suite;
use ioco_symbolic::seg::Purpose;
use miette::{miette, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The fairness rule's budget from `--confidence`, `--min-branch-probability` and
/// `--repetitions`.
pub fn fairness(args: &Args) -> Result<ioco_exec::fairness::Fairness> {
    let unit = |name: &str, v: f64| {
        if v > 0.0 && v < 1.0 {
            Ok(())
        } else {
            Err(miette!(
                help = "e.g. --confidence 0.99 --min-branch-probability 0.1",
                "{name} must be strictly between 0 and 1, not {v}"
            ))
        }
    };
    unit("--confidence", args.confidence)?;
    unit("--min-branch-probability", args.min_branch_probability)?;
    let f = ioco_exec::fairness::Fairness::from_confidence(
        args.confidence,
        args.min_branch_probability,
    );
    Ok(match args.repetitions {
        Some(n) => f.repeating(n),
        None => f,
    })
}

/// Run `ioco run`.
pub fn run(args: Args, ld: &Loader) -> Result<Outcome> {
    args.report.check()?;
    let fair = fairness(&args)?;
    if let Some(outcome) = switch_coverage(&args, ld)? {
        return Ok(outcome);
    }
    let suite_path = args.suite.clone().ok_or_else(|| {
        miette!(
            help = "ioco run MODEL SUITE.json --sut ... (a switch-coverage suite may come alone)",
            "no test suite given"
        )
    })?;
    let (spec, timing) = load_timed(&args.model, &args.sut, ld)?;
    // First pass: check the format and every test, count them (one test in memory at a time);
    // the second pass runs them as they are read again (issue #19: a suite of any size).
    let open = || {
        std::fs::File::open(&suite_path)
            .map_err(|e| miette!("cannot read {}: {e}", suite_path.display()))
    };
    let json_error = |e: serde_json::Error| {
        miette!(
            help = "a suite is the JSON written by `ioco gen` (format ioco-suite/1)",
            "{}:{}:{}: {e}",
            suite_path.display(),
            e.line(),
            e.column()
        )
    };
    let mut count = 0usize;
    let mut invalid = None;
    let header = read_suite(open()?, &mut |t| {
        count += 1;
        match t.test.validate() {
            Ok(()) => true,
            Err(e) => {
                invalid = Some(format!("test {}: {e}", t.name));
                false
            }
        }
    })
    .map_err(json_error)?;
    if let Some(why) = invalid {
        return Err(miette!("{}: {why}", suite_path.display()));
    }
    if header.format != Suite::FORMAT {
        return Err(miette!(
            "{}: format `{}`, expected `{}`",
            suite_path.display(),
            header.format,
            Suite::FORMAT
        ));
    }
    args.sut.check_jobs(args.jobs.min(count))?;
    let factory = args.sut.factory(&spec, ld)?;
    let seed = seed_or_clock(args.seed);
    let (progress, bar) = super::progress(ioco_exec::shard::indices(args.shard, count).len());
    super::partial_reports(&args.report, "suite", seed, &args.model);
    let mut opts = ioco_exec::OnlineOptions {
        progress,
        // the game tests (reach, joker, purpose) aim at a goal: one not reached is Inconclusive
        fairness: fair.aiming(Suite::aims_at_goal(&header.method)),
        jobs: args.jobs.max(1),
        stop_on_failure: !args.keep_going,
        shard: args.shard,
        keep: args.report.keep(count),
        ..base_options(&args.sut, seed)
    };
    timing.apply(&mut opts);
    errln!(
        "ioco run: {} tests, seed {seed}; up to {} tries per test, a branch not seen in {} \
         observations counts as absent (confidence {}, minimum branch probability {})",
        count,
        opts.fairness.budget,
        opts.fairness.tries,
        args.confidence,
        args.min_branch_probability
    );
    let file = open()?;
    let mut source = |each: &mut dyn FnMut(StreamedTest) -> bool| {
        read_suite(&file, each)
            .map(|_| ())
            .map_err(|e| format!("{}:{}:{}: {e}", suite_path.display(), e.line(), e.column()))
    };
    let mut summary =
        ioco_exec::suite::run_suite_streaming(&spec, &mut source, count, &opts, factory)
            .map_err(|e| miette!("{e}"))?;
    bar.finish_and_clear();
    summary
        .parameters
        .insert("method".into(), header.method.into());
    summary
        .parameters
        .insert("model".into(), args.model.display().to_string().into());
    summary
        .parameters
        .insert("suite".into(), suite_path.display().to_string().into());
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

/// `ioco run SUITE.json` (or `ioco run MODEL.ioco SUITE.json`) when the suite is a
/// switch-coverage suite: `Some(outcome)`; `None` for other suites.
fn switch_coverage(args: &Args, ld: &Loader) -> Result<Option<Outcome>> {
    let (model, suite_path) = match &args.suite {
        None => (None, args.model.clone()),
        Some(s) => (Some(args.model.clone()), s.clone()),
    };
    let read = ioco_exec::sts_suite::read(&suite_path).map_err(|e| {
        miette!(
            help = "a switch-coverage suite is the JSON written by `ioco gen --method switch-coverage`",
            "{}:{}:{}: {e}",
            suite_path.display(),
            e.line(),
            e.column()
        )
    })?;
    match read {
        None => Ok(None),
        Some(_) if args.shard.is_some() => Err(miette!(
            help = "shard the runs of `ioco test`, or a suite of `ioco gen` other than switch coverage",
            "--shard is not offered for switch-coverage suites ({})",
            suite_path.display()
        )),
        Some(suite) => run_sts(args, model, &suite_path, suite, ld).map(Some),
    }
}

fn run_sts(
    args: &Args,
    model: Option<PathBuf>,
    suite_path: &Path,
    suite: StsSuite,
    ld: &Loader,
) -> Result<Outcome> {
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
    let spec = ld.load_spec(&model)?;
    let mut tracker =
        ioco_exec::data_session::tracker(&spec).map_err(|e| miette!("{}: {e}", model.display()))?;
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
    let factory = args.sut.data_factory(&spec, ld)?;
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
    let mut waits = ioco_exec::OnlineOptions::default();
    args.sut.data_timeouts(&spec)?.apply(&mut waits);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (progress, bar) = super::progress(purposes.len() * args.repetitions.unwrap_or(1).max(1));
    super::partial_reports(&args.report, "suite", seed, &model);
    let t0 = Instant::now();
    let opts = ExecOptions {
        rounds: args.repetitions.unwrap_or(1).max(1),
        keep_going: args.keep_going,
        seed,
        waits: &waits,
        progress: &progress,
    };
    let done = execute(
        &suite,
        &purposes,
        &mut tracker,
        sut.as_mut(),
        &mut rng,
        &opts,
    );
    bar.finish_and_clear();
    let total = suite.switches.len();
    let ratio = |n: usize| suite.share(n);
    let (covered, covered_liberal) = (done.covered, done.covered_liberal);
    let mut summary = Summary::new("suite", seed, done.results);
    summary.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
    let p = &mut summary.parameters;
    p.insert("model".into(), model.display().to_string().into());
    p.insert("sut".into(), args.sut.describe().into());
    p.insert("suite".into(), suite_path.display().to_string().into());
    p.insert("engine".into(), "symbolic, switch coverage".into());
    p.insert("switches".into(), total.into());
    p.insert("apriori_coverage".into(), suite.apriori.into());
    p.insert("aposteriori_coverage".into(), ratio(covered).into());
    p.insert(
        "aposteriori_coverage_liberal".into(),
        ratio(covered_liberal).into(),
    );
    args.report.say(&format!(
        "switch coverage: a priori {:.1}% ({} of {} switches), a posteriori {:.1}% ({}; liberal {:.1}%)",
        100.0 * suite.apriori,
        (suite.apriori * total as f64).round() as usize,
        total,
        100.0 * ratio(covered),
        covered,
        100.0 * ratio(covered_liberal)
    ));
    args.report.finish(&summary, ld)
}
