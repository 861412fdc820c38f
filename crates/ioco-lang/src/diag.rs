//! Diagnostics: every error and warning of the front end, as a [`miette::Diagnostic`] with a
//! labelled snippet, a code and a hint.
//!
//! A [`Diagnostic`] is built with spans only ([`Diagnostic::error`], [`Diagnostic::label`],
//! [`Diagnostic::help`]); [`Diagnostic::attach`] then binds it to the [`SourceMap`] so that it can
//! be rendered. Labels that point into another file than the primary span cannot be drawn in the
//! same snippet; they are turned into a `note:` line with their `file:line:col`.

use crate::span::{SourceMap, Span};
use miette::{LabeledSpan, NamedSource, SourceSpan};
use std::fmt;
use std::sync::Arc;

/// How bad a diagnostic is. Warnings do not stop loading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The model is rejected.
    Error,
    /// The model is accepted, but probably not what was meant.
    Warning,
}

/// One error or warning about a source file.
#[derive(Clone)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// A stable code such as `ioco::parse::expected`.
    pub code: &'static str,
    /// The one-line message.
    pub message: String,
    /// The primary span (`file:line:col` is its start).
    pub span: Span,
    /// Labels: the first is the primary one.
    pub labels: Vec<(Span, String)>,
    /// The hint.
    pub help: Option<String>,
    /// `file:line:col` of the primary span, set by [`Diagnostic::attach`].
    pub location: String,
    /// For the summary that [`cap_per_kind`] puts in place of the diagnostics of one kind
    /// past the cap: how many it stands for (0 for an ordinary diagnostic).
    pub omitted: usize,
    notes: Vec<String>,
    /// The file as rendered: long lines cut to a window around the labels
    /// ([`ioco_model::snippet::clip`]), and the labels' spans in it (those in the primary file).
    src: Option<Arc<NamedSource<String>>>,
    shown: Vec<SourceSpan>,
}

impl Diagnostic {
    /// A new error at `span`; the primary label is `label`.
    pub fn error(
        code: &'static str,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: ioco_model::snippet::shorten(&message.into(), 400).into_owned(),
            span,
            labels: vec![(span, label.into())],
            help: None,
            location: String::new(),
            omitted: 0,
            notes: Vec::new(),
            src: None,
            shown: Vec::new(),
        }
    }

    /// A new warning at `span`.
    pub fn warning(
        code: &'static str,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Diagnostic {
        let mut d = Diagnostic::error(code, message, span, label);
        d.severity = Severity::Warning;
        d
    }

    /// Adds a secondary label.
    pub fn label(mut self, span: Span, text: impl Into<String>) -> Diagnostic {
        self.labels.push((span, text.into()));
        self
    }

    /// Sets the hint.
    pub fn help(mut self, text: impl Into<String>) -> Diagnostic {
        self.help = Some(text.into());
        self
    }

    /// Sets the hint if there is one.
    pub fn maybe_help(mut self, text: Option<String>) -> Diagnostic {
        if text.is_some() {
            self.help = text;
        }
        self
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Binds the diagnostic to its source text (needed for rendering and `location`).
    pub fn attach(&mut self, map: &SourceMap) {
        let file = map.file(self.span.file);
        self.location = map.location(self.span);
        self.notes.clear();
        for (sp, text) in &self.labels[1..] {
            if sp.file != self.span.file {
                self.notes
                    .push(format!("note: {} (at {})", text, map.location(*sp)));
            }
        }
        let spans: Vec<(usize, usize)> = self
            .labels
            .iter()
            .filter(|(sp, _)| sp.file == self.span.file)
            .map(|(sp, _)| (sp.start as usize, sp.len()))
            .collect();
        let clipped = ioco_model::snippet::clip(&file.text, &spans);
        self.shown = clipped
            .spans
            .iter()
            .map(|&(a, l)| SourceSpan::new(a.into(), l))
            .collect();
        self.src = Some(Arc::new(NamedSource::new(file.name.clone(), clipped.text)));
    }

    /// A plain one-line rendering: `file:line:col: error: message`.
    pub fn short(&self) -> String {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        format!("{}: {}: {}", self.location, sev, self.message)
    }
}

impl fmt::Debug for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.short())
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}

impl miette::Diagnostic for Diagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        if self.help.is_none() && self.notes.is_empty() {
            return None;
        }
        let mut text = self.help.clone().unwrap_or_default();
        for n in &self.notes {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(n);
        }
        Some(Box::new(text))
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.src.as_deref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.src.as_ref()?;
        let file = self.span.file;
        Some(Box::new(
            self.labels
                .iter()
                .enumerate()
                .filter(move |(_, (s, _))| s.file == file)
                .zip(self.shown.iter())
                .map(|((i, (_, t)), &span)| {
                    if i == 0 {
                        LabeledSpan::new_primary_with_span(Some(t.clone()), span)
                    } else {
                        LabeledSpan::new_with_span(Some(t.clone()), span)
                    }
                }),
        ))
    }
}

/// Several diagnostics as one error (what [`crate::load_lts`] returns inside a
/// [`miette::Report`]): the message counts the errors, each one is a related diagnostic.
#[derive(Debug)]
pub struct Diagnostics {
    /// The diagnostics, errors and warnings, in source order.
    pub diags: Vec<Diagnostic>,
    /// The name of the main file.
    pub file: String,
}

/// At most this many diagnostics of one kind (code and severity) are kept; the others become
/// one summary ("and N more"), so that the memory and time of loading a file stay linear in its
/// size (each rendered diagnostic holds a clipped copy of the source) — #35 item 5.
pub const MAX_PER_KIND: usize = 20;

/// Keep the first [`MAX_PER_KIND`] diagnostics of each kind (code and severity), in their
/// order; each kind with more gets one summary diagnostic after them, at the first one left
/// out, saying how many were left out ([`Diagnostic::omitted`]).
pub fn cap_per_kind(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    cap_with(diags, MAX_PER_KIND)
}

fn cap_with(diags: Vec<Diagnostic>, max: usize) -> Vec<Diagnostic> {
    let mut seen: std::collections::HashMap<(&'static str, bool), (usize, Option<Diagnostic>)> =
        std::collections::HashMap::new();
    let mut kept = Vec::new();
    let mut order: Vec<(&'static str, bool)> = Vec::new();
    for d in diags {
        let key = (d.code, d.is_error());
        let entry = seen.entry(key).or_insert((0, None));
        entry.0 += 1;
        if entry.0 <= max {
            kept.push(d);
        } else if entry.1.is_none() {
            order.push(key);
            entry.1 = Some(d);
        }
    }
    for key in order {
        let (count, first) = seen.remove(&key).expect("counted");
        let first = first.expect("one left out");
        let n = count - max;
        let what = if key.1 { "error" } else { "warning" };
        let mut sum = Diagnostic::error(
            key.0,
            format!(
                "… and {n} more {what}{} of this kind ({}), the first of them: {}",
                if n == 1 { "" } else { "s" },
                key.0,
                first.message
            ),
            first.span,
            "the first not shown",
        )
        .help(format!(
            "only the first {max} {what}s of each kind are shown; fix these and check again"
        ));
        sum.severity = first.severity;
        sum.omitted = n;
        kept.push(sum);
    }
    kept
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n: usize = self
            .diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.omitted.max(1))
            .sum();
        write!(
            f,
            "{} error{} in {}",
            n,
            if n == 1 { "" } else { "s" },
            self.file
        )
    }
}

impl std::error::Error for Diagnostics {}

impl miette::Diagnostic for Diagnostics {
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        Some(Box::new(
            self.diags.iter().map(|d| d as &dyn miette::Diagnostic),
        ))
    }
}

/// Renders diagnostics as plain ASCII text without colour (what the snapshot tests compare).
pub fn render_plain(diags: &[Diagnostic]) -> String {
    use miette::{GraphicalReportHandler, GraphicalTheme, ThemeCharacters, ThemeStyles};
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme {
        characters: ThemeCharacters::ascii(),
        styles: ThemeStyles::none(),
    })
    .with_width(100)
    .without_cause_chain();
    let mut out = String::new();
    for d in diags {
        let _ = handler.render_report(&mut out, d);
    }
    out
}

/// "Did you mean" by Jaro-Winkler / Levenshtein similarity among `candidates`.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let mut best: Option<(f64, &str)> = None;
    for c in candidates {
        if c == name {
            continue;
        }
        let lev = strsim::levenshtein(&name.to_lowercase(), &c.to_lowercase());
        let jw = strsim::jaro_winkler(name, c);
        let short = name.len().min(c.len()) < 3;
        let ok = name.eq_ignore_ascii_case(c)
            || (!short && (lev <= (name.len().max(c.len()) / 3).max(1) || jw >= 0.85));
        let better = match best {
            None => true,
            Some((s, _)) => jw > s,
        };
        if ok && better {
            best = Some((jw, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(code: &'static str, at: u32, warn: bool) -> Diagnostic {
        let sp = Span {
            file: 0,
            start: at,
            end: at + 1,
        };
        if warn {
            Diagnostic::warning(code, format!("w{at}"), sp, "here")
        } else {
            Diagnostic::error(code, format!("e{at}"), sp, "here")
        }
    }

    #[test]
    fn the_diagnostics_past_the_cap_become_one_summary_per_kind() {
        let mut all: Vec<Diagnostic> = (0..50)
            .map(|i| d("ioco::check::duplicate", i, false))
            .collect();
        all.extend((50..53).map(|i| d("ioco::check::unused", i, true)));
        all.push(d("ioco::parse::expected", 60, false));
        let capped = cap_with(all, 20);
        // 20 duplicates, 3 warnings, 1 parse error, 1 summary
        assert_eq!(capped.len(), 25);
        let sum = capped.last().unwrap();
        assert_eq!(sum.omitted, 30);
        assert!(sum.is_error());
        assert_eq!(sum.span.start, 20, "at the first one left out");
        assert!(
            sum.message
                .starts_with("… and 30 more errors of this kind (ioco::check::duplicate)"),
            "{}",
            sum.message
        );
        assert!(
            sum.message.ends_with("the first of them: e20"),
            "{}",
            sum.message
        );
        let all = Diagnostics {
            diags: capped,
            file: "m.ioco".into(),
        };
        // the count names every error, those left out included
        assert_eq!(all.to_string(), "51 errors in m.ioco");
    }
}
