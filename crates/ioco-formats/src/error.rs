//! [`FormatError`]: one error type for every reader, with a location and a hint.
//!
//! An error carries the file name, the whole source text, a byte span, the 1-based line and
//! column of the span's start, what was expected there and a hint. It implements
//! [`miette::Diagnostic`], so the CLI renders it with the offending line underlined; its
//! `Display` is a single line `file:line:col: message`.

use miette::{Diagnostic, LabeledSpan, NamedSource, SourceCode, SourceSpan};
use std::fmt;
use std::sync::Arc;

/// An error reading or interpreting a model file.
#[derive(Clone, Debug)]
pub struct FormatError {
    /// The file name as given by the caller.
    pub file: String,
    /// 1-based line of the error (0 when the error has no location, e.g. an I/O error).
    pub line: u32,
    /// 1-based column (in characters) of the error (0 when there is no location).
    pub column: u32,
    /// What went wrong.
    pub message: String,
    /// What was expected at the location, if that is a meaningful question.
    pub expected: Option<Box<str>>,
    /// How to fix it.
    pub hint: Option<Box<str>>,
    /// Byte span in the source.
    pub span: Option<(usize, usize)>,
    /// The source as rendered (long lines cut, [`ioco_model::snippet`]) and the span in it.
    source: Option<Arc<Shown>>,
}

/// The rendered text of an error and its span in that text.
type Shown = (NamedSource<String>, (usize, usize));

impl FormatError {
    /// An error at byte range `start..end` of `src`.
    pub fn at(file: &str, src: &str, start: usize, end: usize, message: impl Into<String>) -> Self {
        let start = floor_char_boundary(src, start.min(src.len()));
        let end = floor_char_boundary(src, end.clamp(start, src.len()));
        let (line, column) = line_col(src, start);
        let clipped = ioco_model::snippet::clip(src, &[(start, end - start)]);
        let (a, l) = clipped.spans[0];
        FormatError {
            file: file.to_string(),
            line: line.min(u32::MAX as usize) as u32,
            column: column.min(u32::MAX as usize) as u32,
            message: short_message(message.into()),
            expected: None,
            hint: None,
            span: Some((start, end)),
            source: Some(Arc::new((
                NamedSource::new(file, clipped.text).with_language(language_of(file)),
                (a, a + l),
            ))),
        }
    }

    /// An error about a whole file (no location): unreadable, unknown extension, ...
    pub fn file(file: &str, message: impl Into<String>) -> Self {
        FormatError {
            file: file.to_string(),
            line: 0,
            column: 0,
            message: short_message(message.into()),
            expected: None,
            hint: None,
            span: None,
            source: None,
        }
    }

    /// Add what was expected.
    pub fn expected(mut self, what: impl Into<String>) -> Self {
        self.expected = Some(short_message(what.into()).into_boxed_str());
        self
    }

    /// Add a hint.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(short_message(hint.into()).into_boxed_str());
        self
    }

    /// The text the error is rendered with, if any: the source with long lines cut to a
    /// window around the error ([`ioco_model::snippet::clip`]); [`FormatError::shown_span`] is
    /// the error's span in it.
    pub fn source_text(&self) -> Option<&str> {
        self.source.as_ref().map(|s| s.0.inner().as_str())
    }

    /// The error's byte span in [`FormatError::source_text`].
    pub fn shown_span(&self) -> Option<(usize, usize)> {
        self.source.as_ref().map(|s| s.1)
    }
}

/// Messages quote the user's text (a label, a line): at most this many bytes of it are shown.
const MAX_MESSAGE: usize = 400;

fn short_message(m: String) -> String {
    match ioco_model::snippet::shorten(&m, MAX_MESSAGE) {
        std::borrow::Cow::Borrowed(_) => m,
        std::borrow::Cow::Owned(s) => s,
    }
}

fn language_of(file: &str) -> &'static str {
    match file.rsplit('.').next() {
        Some("json") => "json",
        Some("dot") | Some("gv") => "dot",
        _ => "text",
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// 1-based line and column (in characters) of byte offset `pos`.
pub fn line_col(src: &str, pos: usize) -> (usize, usize) {
    let pos = floor_char_boundary(src, pos.min(src.len()));
    let before = &src.as_bytes()[..pos];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = src[line_start..pos].chars().count() + 1;
    (line, column)
}

/// Byte offset of a 1-based line and column (clamped to the text).
pub fn offset_of(src: &str, line: usize, column: usize) -> usize {
    let mut off = 0;
    for (i, l) in src.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let col = column.saturating_sub(1);
            return off
                + l.char_indices()
                    .nth(col)
                    .map_or(l.trim_end_matches('\n').len(), |(b, _)| b);
        }
        off += l.len();
    }
    src.len()
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file, self.line, self.column, self.message
            )?;
        } else {
            write!(f, "{}: {}", self.file, self.message)?;
        }
        if let Some(e) = self
            .expected
            .as_ref()
            .filter(|e| !self.message.contains(e.as_ref() as &str))
        {
            write!(f, " (expected {e})")?;
        }
        Ok(())
    }
}

impl std::error::Error for FormatError {}

impl Diagnostic for FormatError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new("ioco::format"))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.hint
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_deref().map(|s| &s.0 as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let (a, b) = self.source.as_ref()?.1;
        let text = match &self.expected {
            Some(e) => format!("expected {e}"),
            None => "here".to_string(),
        };
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            Some(text),
            SourceSpan::from(a..b),
        ))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based_and_count_chars() {
        let src = "ab\nδx\n";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 3), (2, 1));
        assert_eq!(line_col(src, 5), (2, 2)); // δ is two bytes
        assert_eq!(offset_of(src, 2, 2), 5);
        let e = FormatError::at("m.aut", src, 5, 6, "bad").expected("`,`");
        assert_eq!(e.to_string(), "m.aut:2:2: bad (expected `,`)");
    }
}
