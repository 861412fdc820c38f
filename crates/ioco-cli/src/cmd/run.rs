//! `ioco run MODEL SUITE.json --sut ...`: execute a stored test suite (the JSON of `ioco gen`)
//! against a SUT with `ioco_exec::run_suite` (note §2.4): nested distinguishing suites never
//! count as non-conformance; a test the implementation did not follow is run
//! again under the fairness rule of `ioco_exec::fairness` (`--confidence`,
//! `--min-branch-probability`, `--repetitions`).
//! Exit 0 when every test passes, 1 when one fails, 2 on an error.

pub use super::args::RunArgs as Args;
use super::sut::{base_options, load_timed, seed_or_clock};
use super::Outcome;
use ioco_gen::stream::{read_suite, StreamedTest};
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
            help = "ioco run MODEL SUITE.json --sut ... (a switch-coverage suite may come alone)",
            "no test suite given"
        )
    })?;
    let (spec, timing) = load_timed(&args.model, &args.sut)?;
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
    let factory = args.sut.factory(&spec)?;
    let seed = seed_or_clock(args.seed);
    let (progress, bar) = super::progress(ioco_exec::shard::indices(args.shard, count).len());
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
    args.report.finish(&summary)
}
