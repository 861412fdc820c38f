//! `ioco report RESULT.json --html FILE`: turn saved results (the JSON of `ioco test`, `run`
//! or `replay` with `--json`) into an HTML, JUnit or Markdown report, without running
//! anything. The HTML report draws the model the results name (or `--model`) with their
//! coverage ([`super::picture`]). The (merged) summary for humans is printed as `ioco test`
//! prints it (on standard error when a report goes to standard output), and the exit code is
//! its verdict's, as for `ioco test`: 0 Pass, 1 Fail, 3 Inconclusive (`--inconclusive`), 2 an
//! error.

use super::{Outcome, PolicyArg};
use crate::load::Loader;
use miette::{miette, Result};
use std::path::PathBuf;

/// Arguments of `ioco report`.
#[derive(clap::Args)]
pub struct Args {
    /// The saved results (`--json` of `ioco test`, `run` or `replay`); several (the shards
    /// of one session, `--shard K/N`) are merged into one (`ioco report merge A.json B.json`
    /// is the same).
    #[arg(required = true, num_args = 1..)]
    pub results: Vec<PathBuf>,
    /// Write the (merged) results as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write an HTML report (self-contained: no network needed to read it; `-`: to standard
    /// output, as for the others).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write a JUnit XML report.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write a Markdown report.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// The model to draw (default: the one the results name).
    #[arg(long, value_name = "MODEL")]
    pub model: Option<PathBuf>,
    /// When a state is quiescent, for walking the runs over the model (default: the
    /// results' own policy).
    #[arg(long, value_enum)]
    pub policy: Option<PolicyArg>,
    /// List passing runs too in the summary printed.
    #[arg(long, short)]
    pub verbose: bool,
    /// The exit code of Inconclusive results (no Fail, no Error, but not a Pass): `own` exits
    /// 3, `pass` exits 0, `fail` exits 1.
    #[arg(long, value_enum, value_name = "AS", default_value_t = super::sut::InconclusiveArg::Own)]
    pub inconclusive: super::sut::InconclusiveArg,
}

/// Run `ioco report`.
pub fn run(args: Args, ld: &Loader) -> Result<Outcome> {
    // Without a report option only the summary is printed (`ioco report A.json B.json`).
    // `ioco report merge A B` is `ioco report A B`
    let mut paths: Vec<PathBuf> = args.results.clone();
    if paths.len() > 1 && paths[0] == std::path::Path::new("merge") && !paths[0].exists() {
        paths.remove(0);
    }
    // read one run at a time (a results file can be gigabytes): the passing runs go to a
    // spool, not to memory; for the summary alone they are only counted
    use ioco_report::read::LoadError;
    let summary_only = !args.verbose
        && [&args.json, &args.junit, &args.markdown, &args.html]
            .iter()
            .all(|p| p.is_none());
    let load = if summary_only {
        ioco_report::read::load_summary
    } else {
        ioco_report::read::load
    };
    let loaded = load(&paths).map_err(|e| match e {
        LoadError::Read { path, error } => miette!("cannot read {}: {error}", path.display()),
        LoadError::Parse { path, error } => miette!(
            help = "give the JSON written by `ioco test --json` (or `run`, `replay`)",
            "{}:{}:{}: not a result file: {error}",
            path.display(),
            error.line(),
            error.column()
        ),
        LoadError::Merge(e) => miette!("{e}"),
    })?;
    let summary = &loaded.summary;
    let results = loaded.results();
    use ioco_report::{Destination, Format};
    let files = super::sut::ReportFiles {
        reports: [
            (Format::Json, &args.json),
            (Format::Junit, &args.junit),
            (Format::Markdown, &args.markdown),
            (Format::Html, &args.html),
        ]
        .into_iter()
        .filter_map(|(f, p)| p.as_deref().map(|p| (f, Destination::from_arg(p))))
        .collect(),
        model: args.model.as_deref(),
        results: match (&args.json, paths.as_slice()) {
            (Some(j), _) => Some(j.as_path()),
            (None, [one]) => Some(one.as_path()),
            _ => None,
        },
        command: summary
            .parameters
            .get("command")
            .and_then(|c| c.as_str())
            .map(str::to_string),
        policy: args
            .policy
            .map(Into::into)
            .unwrap_or_else(|| super::sut::policy_of(summary)),
    };
    let to_stdout = files.stdout()?;
    let opts = ioco_report::text::TextOptions {
        verbose: args.verbose,
        ..Default::default()
    };
    use std::io::Write;
    // a report on standard output: the summary for humans goes to standard error
    let out: Box<dyn Write> = if to_stdout {
        Box::new(std::io::stderr().lock())
    } else {
        Box::new(std::io::stdout().lock())
    };
    let mut w = std::io::BufWriter::new(out);
    // a closed pipe (`ioco report A.json | head`) is not an error worth a report
    let _ = ioco_report::text::write(&results, &opts, &mut w).and_then(|()| w.flush());
    files.write(&results, ld)?;
    super::sut::verdict_outcome(summary, args.inconclusive)
}
