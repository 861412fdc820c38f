//! The commands of `ioco`, one module each, and what they share.

pub mod analyze;
pub mod args;
pub mod check;
pub mod compare;
pub mod explore;
pub mod fmt;
pub mod gen;
pub mod learn;
pub mod picture;
pub mod purpose;
pub mod replay;
pub mod report;
pub mod run;
pub mod schema;
pub mod show;
pub mod sut;
pub mod test;
pub mod translate;

use crate::load::Loader;
use ioco_model::QuiescencePolicy;
use std::process::ExitCode;

/// How a command ended (errors are `Err(miette::Report)` and exit with 2).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Ok / conforms / pass: exit 0.
    Ok,
    /// Does not conform / fail: exit 1.
    Fail,
    /// Inconclusive: nothing failed, but the session did not establish what it set out to
    /// (a purpose never reached, a test the implementation never followed, a failure that did
    /// not reproduce): exit 3.
    Inconclusive,
    /// Interrupted (SIGINT, SIGTERM, SIGHUP) after the command saved what it had (an
    /// interrupted `learn` writes its hypothesis so far): exit 130, as the signal handler's.
    Interrupted,
}

impl Outcome {
    /// The process exit code.
    pub fn exit_code(self) -> ExitCode {
        match self {
            Outcome::Ok => ExitCode::SUCCESS,
            Outcome::Fail => ExitCode::from(1),
            Outcome::Inconclusive => ExitCode::from(3),
            Outcome::Interrupted => ExitCode::from(130),
        }
    }
}

/// Size limits of commands that build a suspension automaton and relate its states.
#[derive(clap::Args, Debug, Clone)]
pub struct Budgets {
    /// Give up when the suspension automaton has more states than this.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub max_states: usize,
    /// Give up when relating the suspension automaton's states would take more state pairs
    /// than this (n(n−1)/2 pairs, about 8 bytes each).
    #[arg(long, value_name = "N", default_value_t = ioco_complete::budget::DEFAULT_MAX_PAIRS)]
    pub max_pairs: u64,
}

impl Budgets {
    /// The suspension automaton of `lts` (`model` names it in the error), within the budgets;
    /// the pair budget is set for the rest of the command.
    pub fn suspension(
        &self,
        lts: &ioco_model::Lts,
        policy: ioco_model::QuiescencePolicy,
        model: &std::path::Path,
    ) -> miette::Result<ioco_model::Lts> {
        self.suspension_for(lts, policy, ioco_model::Relation::Ioco, model)
    }

    /// [`Budgets::suspension`] for `relation`: under uioco, restricted to the Utraces of `lts`
    /// (`ioco_model::uioco::utraces_only`), so that every generator tests for uioco.
    pub fn suspension_for(
        &self,
        lts: &ioco_model::Lts,
        policy: ioco_model::QuiescencePolicy,
        relation: ioco_model::Relation,
        model: &std::path::Path,
    ) -> miette::Result<ioco_model::Lts> {
        ioco_complete::budget::set_max_pairs(self.max_pairs);
        ioco_model::SuspensionAutomaton::build_with_limit(lts, policy, self.max_states)
            .map(|sa| match relation {
                ioco_model::Relation::Ioco => sa.lts,
                ioco_model::Relation::Uioco => ioco_model::uioco::utraces_only(&sa, lts),
            })
            .map_err(|e| {
                miette::miette!(
                    help = "raise --max-states, or use a smaller model",
                    "{}: the suspension automaton is too large: {e}",
                    model.display()
                )
            })
    }
}

/// `--relation`: the conformance relation.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum RelationArg {
    /// ioco (tutorial Def. 6.1): after every suspension trace of the specification.
    #[default]
    Ioco,
    /// uioco (van der Bijl, Rensink and Tretmans; JTorX): only after the Utraces, where no
    /// state the specification may be in leaves an input of the trace unspecified.
    Uioco,
}

impl RelationArg {
    /// The name, as written.
    pub fn name(self) -> &'static str {
        match self {
            RelationArg::Ioco => "ioco",
            RelationArg::Uioco => "uioco",
        }
    }
}

impl From<RelationArg> for ioco_model::Relation {
    fn from(r: RelationArg) -> ioco_model::Relation {
        match r {
            RelationArg::Ioco => ioco_model::Relation::Ioco,
            RelationArg::Uioco => ioco_model::Relation::Uioco,
        }
    }
}

/// `--policy`: when a state is quiescent.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum PolicyArg {
    /// No output and no τ (Tretmans, TorXakis, JTorX).
    #[default]
    Stable,
    /// No output; τ ignored (tutorial Def. 4.7).
    NoOutput,
}

impl From<PolicyArg> for QuiescencePolicy {
    fn from(p: PolicyArg) -> Self {
        match p {
            PolicyArg::Stable => QuiescencePolicy::Stable,
            PolicyArg::NoOutput => QuiescencePolicy::NoOutput,
        }
    }
}

impl PolicyArg {
    /// The name as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            PolicyArg::Stable => "stable",
            PolicyArg::NoOutput => "no-output",
        }
    }
}

pub use crate::load::EngineArg;

/// Write `text` to `path`, or to standard output when `path` is `None`.
pub fn emit(text: &str, path: Option<&std::path::Path>) -> miette::Result<()> {
    use std::io::Write;
    match path {
        Some(p) => std::fs::write(p, text)
            .map_err(|e| miette::miette!("cannot write {}: {e}", p.display())),
        None => {
            let mut out = std::io::stdout().lock();
            // A closed pipe (`ioco show ... | head`) is not an error worth a report.
            let _ = out.write_all(text.as_bytes());
            let _ = out.flush();
            Ok(())
        }
    }
}

/// The runs of this command as they finish (set by [`partial_reports`], filled by the
/// [`progress`] callback): every run written to a spool, the runs that did not pass and the
/// counts of the others kept, and where its reports go. The reports that list every run read
/// them back from the spool ([`spool`]); an interrupted command still writes its report files
/// from it ([`write_partial_reports`]).
struct Partial {
    files: ioco_report::ReportFiles,
    model: std::path::PathBuf,
    mode: String,
    seed: u64,
    spool: std::sync::Arc<ioco_report::Spool>,
    kept: ioco_exec::Collector,
}

static PARTIAL: std::sync::Mutex<Option<Partial>> = std::sync::Mutex::new(None);

fn partial() -> std::sync::MutexGuard<'static, Option<Partial>> {
    PARTIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Write the runs of this command to a spool as they finish when a report of `report` lists
/// every run (issue #35: the session then keeps only the runs that did not pass), so that
/// the reports, and an interrupted command's report files, can list them all. Without such
/// a report nothing is written; when no temporary file can be made, the session keeps every
/// run in memory ([`sut::ReportArgs::keep`]) and an interruption writes no report.
pub fn partial_reports(report: &sut::ReportArgs, mode: &str, seed: u64, model: &std::path::Path) {
    // a Markdown report lists every run only of small sessions, which the spool holds too
    if !report.lists_every_run(0) {
        *partial() = None;
        return;
    }
    let spool = match ioco_report::Spool::new() {
        Ok(s) => std::sync::Arc::new(s),
        Err(e) => {
            errln!(
                "ioco: cannot make a temporary file for the runs ({e}): every run is kept in \
                 memory for the reports"
            );
            *partial() = None;
            return;
        }
    };
    *partial() = Some(Partial {
        // a report meant for standard output is not written when interrupted
        files: report
            .reports()
            .into_iter()
            .filter(|(_, to)| *to != ioco_report::Destination::Stdout)
            .collect(),
        model: model.to_path_buf(),
        mode: mode.to_string(),
        seed,
        spool,
        kept: ioco_exec::Collector::new(ioco_exec::Keep::Failures),
    });
}

/// Whether this command writes its runs to a spool ([`partial_reports`]).
pub fn spooling() -> bool {
    partial().is_some()
}

/// The spool of this command's runs, if it writes one.
pub fn spool() -> Option<std::sync::Arc<ioco_report::Spool>> {
    partial().as_ref().map(|p| p.spool.clone())
}

/// For the interrupt handler: write the report files of the runs finished so far, marked
/// `"interrupted": true` (a parameter of the summary). Returns the number of runs written, or
/// `None` when no report was asked for.
pub fn write_partial_reports(ld: &Loader) -> Option<usize> {
    let p = partial().take()?;
    if p.files.is_empty() {
        return None;
    }
    let n = p.kept.len();
    let (runs, omitted) = p.kept.finish();
    let mut summary = ioco_exec::Summary::new(p.mode, p.seed, runs);
    summary.omitted = omitted;
    summary
        .parameters
        .insert("interrupted".into(), serde_json::Value::Bool(true));
    summary
        .parameters
        .insert("model".into(), p.model.display().to_string().into());
    let results = ioco_report::Results::spooled(&summary, &p.spool);
    let cx = p
        .files
        .iter()
        .any(|(f, _)| *f == ioco_report::Format::Html)
        .then(|| {
            let json = p
                .files
                .iter()
                .find(|(f, _)| *f == ioco_report::Format::Json)
                .and_then(|(_, to)| to.file());
            picture::context(
                &results,
                None,
                json,
                Some(picture::command_line()),
                sut::policy_of(&summary),
                ld,
            )
        });
    ioco_report::write_reports(&results, &p.files, cx.as_ref()).ok()?;
    Some(n)
}

/// A live progress bar on standard error for multi-run work (hidden when standard error is not
/// a terminal, e.g. in CI), and the callback that advances it after every run.
pub fn progress(runs: usize) -> (ioco_exec::Progress, indicatif::ProgressBar) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let bar = if runs > 1 {
        indicatif::ProgressBar::new(runs as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:30} {pos}/{len} runs {msg} [{elapsed}, about {eta} left]",
    ) {
        bar.set_style(style);
    }
    let fails = Arc::new(AtomicUsize::new(0));
    let b = bar.clone();
    let callback = move |r: &ioco_exec::RunResult| {
        if partial().is_some() {
            // serialised before the lock: workers wait only for the write
            let line = ioco_report::Spool::line(r);
            if let Some(p) = partial().as_mut() {
                p.spool.push(r.run, line);
                p.kept.add(r.clone());
            }
        }
        if r.verdict == ioco_exec::RunVerdict::Fail {
            let n = fails.fetch_add(1, Ordering::Relaxed) + 1;
            b.set_message(format!("({n} fail)"));
        }
        b.inc(1);
    };
    (ioco_exec::Progress(Some(Arc::new(callback))), bar)
}

/// Progress of shrinking on standard error: a line when it starts, one every 10 s at most
/// while it goes on, one when it ends (how far it got, and why it stopped early, if it did).
pub fn shrink_watch() -> ioco_exec::shrinking::ShrinkWatch {
    use ioco_exec::shrinking::{human, ShrinkEvent};
    use std::sync::Mutex;
    use std::time::{Duration, Instant};
    let last: Mutex<Option<Instant>> = Mutex::new(None);
    std::sync::Arc::new(move |e: &ShrinkEvent| match e {
        ShrinkEvent::Start { run, steps, inputs } => {
            *last.lock().unwrap_or_else(|p| p.into_inner()) = Some(Instant::now());
            errln!(
                "ioco: run {run} failed after {steps} steps; shrinking its {inputs} input(s) \
                 (Ctrl-C stops shrinking and keeps the Fail)"
            );
        }
        ShrinkEvent::Replay {
            run,
            replays,
            best,
            elapsed,
        } => {
            let mut l = last.lock().unwrap_or_else(|p| p.into_inner());
            if l.is_none_or(|t| t.elapsed() >= Duration::from_secs(10)) {
                *l = Some(Instant::now());
                errln!(
                    "ioco: shrinking run {run}: {replays} replay(s), {best} input(s) so far ({})",
                    human(*elapsed)
                );
            }
        }
        ShrinkEvent::Done {
            run,
            inputs,
            best,
            replays,
            elapsed,
            stopped,
        } => {
            let why = stopped
                .as_ref()
                .map(|w| format!("; stopped early: {w}"))
                .unwrap_or_default();
            match best {
                Some(b) => errln!(
                    "ioco: run {run} shrunk to {b} of {inputs} input(s) in {replays} replay(s) \
                     ({}){why}",
                    human(*elapsed)
                ),
                None => errln!(
                    "ioco: run {run} not shrunk: its inputs did not fail again in {replays} \
                     replay(s) ({}){why}",
                    human(*elapsed)
                ),
            }
        }
    })
}

/// `--observe P`, checked.
pub(crate) fn observe(p: f64) -> miette::Result<f64> {
    if (0.0..=1.0).contains(&p) {
        Ok(p)
    } else {
        Err(miette::miette!(
            help = "e.g. --observe 0.3 (observe in about 3 of 10 steps)",
            "--observe must be a probability between 0 and 1, not {p}"
        ))
    }
}
