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

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.diags.iter().filter(|d| d.is_error()).count();
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
