//! Reports of test runs: a human summary ([`text`]), JSON ([`to_json`]), JUnit XML ([`junit`])
//! and Markdown ([`markdown`]), all rendered from the result types of `ioco-exec`
//! ([`Summary`], [`RunResult`]).
//!
//! ```
//! use ioco_engine::{RunResult, RunVerdict, Summary, Failure};
//! let mut fail = RunResult::new(1, 7);
//! fail.verdict = RunVerdict::Fail;
//! fail.trace = ["button?", "coffee!"].into_iter().collect();
//! fail.failure = Some(Failure {
//!     observed: "coffee!".into(),
//!     allowed: vec!["error!".into()],
//!     reason: "output not allowed".into(),
//! });
//! let summary = Summary::new("online", 42, vec![RunResult::new(0, 3), fail]);
//! let text = ioco_report::text::render(&summary, &Default::default());
//! assert!(text.starts_with("FAIL"));
//! assert!(ioco_report::junit::render(&summary).unwrap().contains("<failure"));
//! ```
//!
//! The CLI's `--json FILE`, `--junit FILE`, `--markdown FILE` and `--html FILE` options are
//! one [`Format`] each with its [`Destination`] ([`ReportFiles`]), written by
//! [`write_reports`] from [`Results`]: a summary and, when the session kept only the runs
//! that did not pass, the [`Spool`] that holds every run (issue #35: each report streams the
//! runs from it into a buffered writer, never all of them in memory). The HTML page
//! ([`html`]) has a picture of the model ([`graph`], laid out by [`layout`], drawn by
//! [`svg`]) and the coverage of the runs over it ([`walk`]).

pub mod graph;
pub mod html;
pub mod junit;
pub mod labels;
pub mod layout;
pub mod markdown;
pub mod merge;
pub mod read;
pub mod spool;
pub mod suite_tree;
pub mod svg;
pub mod text;
pub mod walk;

pub use ioco_engine::result::{CoverageSummary, Failure, RunResult, RunVerdict, Shrunk, Summary};
pub use spool::{Results, Runs, Spool};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The summary as pretty-printed JSON (the serde form of [`Summary`]; `ioco replay` reads it).
pub fn to_json(summary: &Summary) -> String {
    serde_json::to_string_pretty(summary).expect("a Summary always serialises")
}

/// Read a summary written by [`to_json`].
pub fn from_json(src: &str) -> Result<Summary, serde_json::Error> {
    serde_json::from_str(src)
}

/// Write the results as [`to_json`] writes the summary that holds every listed run, and a
/// line break, one run at a time: the same bytes, without the runs in memory (a spooled
/// session's JSON lists every run and omits none).
pub fn write_json(results: &Results<'_>, w: &mut dyn Write) -> std::io::Result<()> {
    // the summary without its runs, pretty; the runs go where its empty list is
    let head = spool::with_runs(results.summary, Vec::new(), results.omitted());
    let text = to_json(&head);
    const EMPTY: &str = "\n  \"runs\": [],\n";
    let at = text
        .find(EMPTY)
        .expect("the top-level runs field of a pretty-printed summary");
    w.write_all(&text.as_bytes()[..at])?;
    w.write_all(b"\n  \"runs\": [")?;
    let mut first = true;
    let mut buf = Vec::new();
    results.each_indexed(&mut |_, r| {
        w.write_all(if first { b"\n    " } else { b",\n    " })?;
        first = false;
        buf.clear();
        serde_json::to_writer_pretty(&mut buf, r).map_err(std::io::Error::other)?;
        // one level deeper than on its own: every line break indented by four more spaces
        // (strings never hold a raw line break in JSON)
        for (i, part) in buf.split(|&b| b == b'\n').enumerate() {
            if i > 0 {
                w.write_all(b"\n    ")?;
            }
            w.write_all(part)?;
        }
        Ok(())
    })?;
    w.write_all(if first { b"]" } else { b"\n  ]" })?;
    w.write_all(&text.as_bytes()[at + EMPTY.len() - 2..])?;
    w.write_all(b"\n")
}

/// A report format: what `--json`, `--junit`, `--markdown` and `--html` write.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// The results as JSON ([`write_json`]): the input of `ioco report` and `ioco replay`.
    Json,
    /// JUnit XML ([`junit`]).
    Junit,
    /// Markdown ([`markdown`]).
    Markdown,
    /// One HTML page ([`html`]) with a picture of the model.
    Html,
}

impl Format {
    /// Every format, in the order the reports are written.
    pub const ALL: [Format; 4] = [Format::Json, Format::Junit, Format::Markdown, Format::Html];

    /// The command-line option that asks for it: `--json`.
    pub fn option(self) -> &'static str {
        match self {
            Format::Json => "--json",
            Format::Junit => "--junit",
            Format::Markdown => "--markdown",
            Format::Html => "--html",
        }
    }

    /// Whether the report of a session of `runs` runs lists every run (Markdown lists them up
    /// to [`markdown::MAX_TABLE`], the others always).
    pub fn lists_every_run(self, runs: usize) -> bool {
        match self {
            Format::Markdown => runs <= markdown::MAX_TABLE,
            Format::Json | Format::Junit | Format::Html => true,
        }
    }

    /// Write the report of `results` to `w` (the HTML page with `cx`, an empty context
    /// without it).
    pub fn write(
        self,
        results: &Results<'_>,
        cx: Option<&html::Context>,
        w: &mut dyn Write,
    ) -> std::io::Result<()> {
        match self {
            Format::Json => write_json(results, w),
            Format::Junit => junit::write(results, w),
            Format::Markdown => w.write_all(markdown::render_results(results)?.as_bytes()),
            Format::Html => {
                let none = html::Context::default();
                w.write_all(html::render_results(results, cx.unwrap_or(&none))?.as_bytes())
            }
        }
    }
}

/// Where a report goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// A file.
    File(PathBuf),
    /// Standard output (`-` on the command line).
    Stdout,
}

impl Destination {
    /// A command-line argument: `-` is standard output, anything else a file.
    pub fn from_arg(p: &Path) -> Destination {
        if p == Path::new("-") {
            Destination::Stdout
        } else {
            Destination::File(p.to_path_buf())
        }
    }

    /// The file, if it is one.
    pub fn file(&self) -> Option<&Path> {
        match self {
            Destination::File(p) => Some(p),
            Destination::Stdout => None,
        }
    }
}

impl std::fmt::Display for Destination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Destination::File(p) => write!(f, "{}", p.display()),
            Destination::Stdout => f.write_str("standard output"),
        }
    }
}

/// The reports asked for: each format with where it goes.
pub type ReportFiles = Vec<(Format, Destination)>;

/// A report that could not be written.
#[derive(Debug)]
pub struct ReportError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub message: String,
}

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot write report {}: {}",
            self.path.display(),
            self.message
        )
    }
}

impl std::error::Error for ReportError {}

/// Write one report to its destination, streaming through a buffered writer. A closed
/// standard output (`ioco test --json - | head`) is not an error.
pub fn write_report(
    format: Format,
    results: &Results<'_>,
    cx: Option<&html::Context>,
    to: &Destination,
) -> Result<(), ReportError> {
    let fail = |e: std::io::Error| ReportError {
        path: to
            .file()
            .map_or_else(|| PathBuf::from("-"), Path::to_path_buf),
        message: e.to_string(),
    };
    match to {
        Destination::File(p) => {
            let mut w =
                std::io::BufWriter::with_capacity(1 << 16, std::fs::File::create(p).map_err(fail)?);
            format.write(results, cx, &mut w).map_err(fail)?;
            w.flush().map_err(fail)
        }
        Destination::Stdout => {
            let mut w = std::io::BufWriter::new(std::io::stdout().lock());
            match format.write(results, cx, &mut w).and_then(|()| w.flush()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                other => other.map_err(fail),
            }
        }
    }
}

/// Write every report `files` asks for, in order (an HTML page with `cx`). Stops at the first
/// one that cannot be written.
pub fn write_reports(
    results: &Results<'_>,
    files: &[(Format, Destination)],
    cx: Option<&html::Context>,
) -> Result<(), ReportError> {
    files
        .iter()
        .try_for_each(|(f, to)| write_report(*f, results, cx, to))
}

/// Write the HTML report of `summary` ([`html::render`]) to `path`.
pub fn write_html(summary: &Summary, cx: &html::Context, path: &Path) -> Result<(), ReportError> {
    write_report(
        Format::Html,
        &Results::new(summary),
        Some(cx),
        &Destination::File(path.to_path_buf()),
    )
}

/// Text from a model, a system under test or a command line, safe in HTML and SVG text and
/// in attribute values: control characters written as escapes ([`visible`]), `& < > " '` as
/// character references.
pub fn esc(s: &str) -> String {
    let v = visible(s);
    let mut o = String::with_capacity(v.len() + 8);
    for c in v.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// "3 runs (1 pass, 1 fail, 1 error)": counts of the verdicts that occur.
pub(crate) fn counts(summary: &Summary) -> String {
    let n = summary.run_count();
    let parts: Vec<String> = [
        RunVerdict::Pass,
        RunVerdict::Fail,
        RunVerdict::Error,
        RunVerdict::Inconclusive,
    ]
    .into_iter()
    .filter_map(|v| {
        let k = summary.count(v);
        (k > 0).then(|| format!("{k} {v}"))
    })
    .collect();
    let runs = if n == 1 { "run" } else { "runs" };
    if parts.is_empty() {
        format!("{n} {runs}")
    } else {
        format!("{n} {runs} ({})", parts.join(", "))
    }
}

/// "5/6 (83.3%)".
pub(crate) fn fraction(a: usize, b: usize, ratio: f64) -> String {
    format!("{a}/{b} ({:.1}%)", ratio * 100.0)
}

/// Whether the summary carries coverage at all (replays and stored suites may not).
pub(crate) fn has_coverage(c: &CoverageSummary) -> bool {
    c.states_total > 0 || c.transitions_total > 0
}

/// Milliseconds for humans: "850 ms", "1.23 s", "2 min 5 s".
pub(crate) fn duration(ms: f64) -> String {
    if ms < 1000.0 {
        format!("{ms:.0} ms")
    } else if ms < 60_000.0 {
        format!("{:.2} s", ms / 1000.0)
    } else {
        let s = (ms / 1000.0).round() as u64;
        format!("{} min {} s", s / 60, s % 60)
    }
}

/// `s` with every control character (line breaks, ESC, NUL, …) written as its escape (`\n`,
/// `\u{1b}`): no byte a SUT prints reaches a terminal or a renderer raw.
pub fn visible(s: &str) -> String {
    visible_but(s, |_| false)
}

/// [`visible`], but line breaks are kept (for multi-line blocks).
pub(crate) fn visible_lines(s: &str) -> String {
    visible_but(s, |c| c == '\n')
}

fn visible_but(s: &str, keep: impl Fn(char) -> bool) -> String {
    if !s.chars().any(|c| c.is_control() && !keep(c)) {
        return s.to_string();
    }
    s.chars()
        .map(|c| {
            if c.is_control() && !keep(c) {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A trace as one line; `ε` when empty.
pub(crate) fn trace<'a>(labels: impl IntoIterator<Item = &'a str>) -> String {
    let labels: Vec<&str> = labels.into_iter().collect();
    if labels.is_empty() {
        "ε".to_string()
    } else {
        labels.join(" ")
    }
}

/// A parameter value as one line of text (strings without quotes).
pub(crate) fn param(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The title of a run: its test name, or `run K`.
pub(crate) fn run_name(r: &RunResult) -> String {
    match &r.test {
        Some(t) => format!("run {} ({t})", r.run),
        None => format!("run {}", r.run),
    }
}

/// `s` quoted for a POSIX shell when it needs it.
pub fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./:=@%+-,".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The command that replays run `r` of `summary` against the same system, to paste into a
/// shell (in the directory the results were made in): `ioco replay MODEL RESULTS --run K`
/// with the options the session recorded for it ([`Summary::replay_options`]: the system
/// under test, its quiescence marker, time-outs, map, wire format, engine, entry). `results`
/// is the file that holds the run (`RESULT.json` when unknown). The second value says
/// whether the options are complete: results written before they were recorded name only
/// the program of `--sut`, and the other options must be added by hand.
pub fn replay_command(summary: &Summary, r: &RunResult, results: Option<&str>) -> (String, bool) {
    let model = summary.parameters.get("model").map(param);
    let mut cmd = format!(
        "ioco replay {} {} --run {}",
        shell_word(model.as_deref().unwrap_or("MODEL")),
        shell_word(results.unwrap_or("RESULT.json")),
        r.run
    );
    if !summary.replay_options.is_empty() {
        for a in &summary.replay_options {
            cmd.push(' ');
            cmd.push_str(&shell_word(a));
        }
        return (cmd, true);
    }
    if let Some(s) = summary
        .parameters
        .get("sut")
        .map(param)
        .and_then(|s| s.strip_prefix("process: ").map(str::to_string))
    {
        cmd.push_str(" --sut ");
        cmd.push_str(&shell_word(&s));
    }
    (cmd, false)
}

/// What the session's coverage ([`Summary::coverage`]) counts, for the line that shows it:
/// `""` for the runs alone, else `" (the runs and their 7 shrink replays)"` — shrinking
/// replays inputs through the same tester, so what they visit counts — and for merged
/// results that it is the largest of the parts, a lower bound.
pub fn coverage_scope(summary: &Summary) -> String {
    let replays: usize = summary
        .runs
        .iter()
        .filter_map(|r| r.shrunk.as_ref())
        .map(|s| s.replays)
        .sum();
    let mut what = Vec::new();
    if replays > 0 {
        what.push(format!("the runs and their {replays} shrink replays"));
    }
    if summary.parameters.contains_key("merged") {
        what.push("the largest of the merged results, a lower bound".to_string());
    }
    if what.is_empty() {
        String::new()
    } else {
        format!(" ({})", what.join("; "))
    }
}
