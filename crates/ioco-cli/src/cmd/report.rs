//! `ioco report RESULT.json --html FILE`: turn saved results (the JSON of `ioco test`, `run`
//! or `replay` with `--json`) into an HTML, JUnit or Markdown report, without running
//! anything. The HTML report draws the model the results name (or `--model`) with their
//! coverage ([`super::picture`]). Exit 0 when the reports are written, whatever the verdict
//! (the verdict is in them), 2 on an error.

use super::{Outcome, PolicyArg};
use miette::{miette, IntoDiagnostic, Result};
use std::path::PathBuf;

/// Arguments of `ioco report`.
#[derive(clap::Args)]
pub struct Args {
    /// The saved results (`--json` of `ioco test`, `run` or `replay`).
    pub results: PathBuf,
    /// Write an HTML report (self-contained: no network needed to read it).
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
    ioco_report::write_reports(
        &summary,
        &ioco_report::ReportFiles {
            json: None,
            junit: args.junit.clone(),
            markdown: args.markdown.clone(),
        },
    )
    .into_diagnostic()?;
    if let Some(path) = &args.html {
        let policy = args
            .policy
            .map(Into::into)
            .unwrap_or_else(|| super::sut::policy_of(&summary));
        let cx = super::picture::context(
            &summary,
            args.model.as_deref(),
            Some(&args.results),
            summary
                .parameters
                .get("command")
                .and_then(|c| c.as_str())
                .map(str::to_string),
            policy,
        );
        if let Some(why) = &cx.no_graph {
            errln!("ioco report: no picture of the model: {why}");
        }
        ioco_report::write_html(&summary, &cx, path).into_diagnostic()?;
    }
    Ok(Outcome::Ok)
}
