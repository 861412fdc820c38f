//! `ioco run MODEL SUITE.json --cmd ...`: execute a stored test suite (the JSON of `ioco gen`)
//! against a SUT with `ioco_exec::run_suite` (note §2.4): nested distinguishing suites never
//! count as non-conformance; a test the implementation did not follow is run
//! again under the fairness rule of `ioco_exec::fairness` (`--confidence`,
//! `--min-branch-probability`, `--repetitions`).
//! Exit 0 when every test passes, 1 when one fails, 2 on an error.

pub use super::args::RunArgs as Args;
use super::sut::{base_options, load_timed, seed_or_clock};
use super::Outcome;
use ioco_gen::Suite;
use miette::{miette, Result};

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
pub fn run(args: Args) -> Result<Outcome> {
    args.report.check()?;
    let fair = fairness(&args)?;
    if let Some(outcome) = super::run_sts::dispatch(&args)? {
        return Ok(outcome);
    }
    let suite_path = args.suite.clone().ok_or_else(|| {
        miette!(
            help = "ioco run MODEL SUITE.json --cmd ... (a switch-coverage suite may come alone)",
            "no test suite given"
        )
    })?;
    let (spec, timing) = load_timed(&args.model, &args.sut)?;
    let text = std::fs::read_to_string(&suite_path)
        .map_err(|e| miette!("cannot read {}: {e}", suite_path.display()))?;
    let suite: Suite = serde_json::from_str(&text).map_err(|e| {
        miette!(
            help = "a suite is the JSON written by `ioco gen` (format ioco-suite/1)",
            "{}:{}:{}: {e}",
            suite_path.display(),
            e.line(),
            e.column()
        )
    })?;
    if suite.format != Suite::FORMAT {
        return Err(miette!(
            "{}: format `{}`, expected `{}`",
            suite_path.display(),
            suite.format,
            Suite::FORMAT
        ));
    }
    for t in &suite.tests {
        t.test
            .validate()
            .map_err(|e| miette!("{}: test {}: {e}", suite_path.display(), t.name))?;
    }
    args.sut.check_jobs(args.jobs.min(suite.tests.len()))?;
    let factory = args.sut.factory(&spec)?;
    let seed = seed_or_clock(args.seed);
    let (progress, bar) = super::progress(suite.num_tests());
    super::partial_reports(&args.report, "suite", seed, &args.model);
    let mut opts = ioco_exec::OnlineOptions {
        progress,
        fairness: fair,
        jobs: args.jobs.max(1),
        stop_on_failure: !args.keep_going,
        shard: args.shard,
        ..base_options(&args.sut, seed)
    };
    timing.apply(&mut opts);
    errln!(
        "ioco run: {} tests, seed {seed}; up to {} tries per test, a branch not seen in {} \
         observations counts as absent (confidence {}, minimum branch probability {})",
        suite.num_tests(),
        opts.fairness.budget,
        opts.fairness.tries,
        args.confidence,
        args.min_branch_probability
    );
    let mut summary = ioco_exec::run_suite(&spec, &suite, &opts, factory);
    bar.finish_and_clear();
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
    args.report.finish(&summary)
}
