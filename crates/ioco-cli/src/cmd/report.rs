//! `ioco report RESULT.json --html FILE`: turn saved results (the JSON of `ioco test`, `run`
//! or `replay` with `--json`) into an HTML, JUnit or Markdown report, without running
//! anything. The HTML report draws the model the results name (or `--model`) with their
//! coverage ([`super::picture`]). Exit 0 when the reports are written, whatever the verdict
//! (the verdict is in them), 2 on an error.

use super::{Outcome, PolicyArg};
use miette::{miette, Result};
use std::path::PathBuf;

/// Arguments of `ioco report`.
#[derive(clap::Args)]
pub struct Args {
    /// The saved results (`--json` of `ioco test`, `run` or `replay`).
    pub results: PathBuf,
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
}

/// Run `ioco report`.
pub fn run(args: Args) -> Result<Outcome> {
    if args.html.is_none() && args.junit.is_none() && args.markdown.is_none() {
        return Err(miette!(
            help = "e.g. ioco report results.json --html report.html",
            "nothing to write: give --html, --junit or --markdown"
        ));
    }
    let text = std::fs::read_to_string(&args.results)
        .map_err(|e| miette!("cannot read {}: {e}", args.results.display()))?;
    let summary = ioco_report::from_json(&text).map_err(|e| {
        miette!(
            help = "give the JSON written by `ioco test --json` (or `run`, `replay`)",
            "{}:{}:{}: not a result file: {e}",
            args.results.display(),
            e.line(),
            e.column()
        )
    })?;
    let files = super::sut::ReportFiles {
        json: None,
        junit: args.junit.as_deref(),
        markdown: args.markdown.as_deref(),
        html: args.html.as_deref(),
        model: args.model.as_deref(),
        results: Some(&args.results),
        command: summary
            .parameters
            .get("command")
            .and_then(|c| c.as_str())
            .map(str::to_string),
        policy: args
            .policy
            .map(Into::into)
            .unwrap_or_else(|| super::sut::policy_of(&summary)),
    };
    files.stdout()?;
    files.write(&summary)?;
    Ok(Outcome::Ok)
}
