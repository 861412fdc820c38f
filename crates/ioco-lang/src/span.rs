//! Source files and byte spans.
//!
//! Every syntax node and every IR switch carries a [`Span`]: a file id and a byte range. The
//! [`SourceMap`] owns the text of every file read (the main file and its imports), so a
//! diagnostic can show `file:line:col` and a snippet.

use std::sync::Arc;

/// Index of a file in a [`SourceMap`].
pub type FileId = u32;

/// A byte range in one file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// The file.
    pub file: FileId,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span in `file` from `start` to `end` (bytes).
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both (same file assumed).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// Length in bytes.
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    /// True for an empty span.
    pub fn is_empty(self) -> bool {
        self.end == self.start
    }
}

/// One source file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name shown in diagnostics (the path as given).
    pub name: String,
    /// The text.
    pub text: Arc<str>,
}

/// All files read while loading a model.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> FileId {
        self.files.push(SourceFile {
            name: name.into(),
            text: text.into(),
        });
        (self.files.len() - 1) as FileId
    }

    /// The file with this id.
    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id as usize]
    }

    /// All files.
    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    /// The text a span covers.
    pub fn text(&self, span: Span) -> &str {
        self.file(span.file)
            .text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    /// 1-based line and column (in characters) of the start of a span.
    pub fn line_col(&self, span: Span) -> (usize, usize) {
        let text = &self.file(span.file).text;
        let mut end = (span.start as usize).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let upto = &text[..end];
        let line = upto.matches('\n').count() + 1;
        let col = upto.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    /// `file:line:col` of the start of a span.
    pub fn location(&self, span: Span) -> String {
        let (l, c) = self.line_col(span);
        format!("{}:{}:{}", self.file(span.file).name, l, c)
    }
}
