//! The parsing kit: what the two hand-written front ends (`.ioco` in [`crate::lexer`] and
//! [`crate::parser`], TorXakis `.txs` in the `ioco-txs` crate) share, so that each of them
//! writes down its grammar only.
//!
//! * Lexing: [`Token`] (a kind, its [`Span`], whether it starts its line) and [`TokenStream`],
//!   which a `logos` loop feeds: it tells which tokens start their line (the `.ioco` parser
//!   recovers at line starts) and ends every stream with the end-of-file token.
//! * Parsing: [`Cursor`], the state of a recursive-descent parser (tokens, position,
//!   diagnostics, nesting depth) with `peek`/`bump`/`eat`, the text and span of tokens and
//!   [`Cursor::skip_until`], the recovery to a synchronising token; and [`Grammar`], which a
//!   language's parser implements (how a token is shown in "found …", its hints, its
//!   nesting limit) to get `expect`, "expected X, found Y" diagnostics, separated lists and
//!   bounded nesting (an error, never a stack overflow on fuzzed input).
//!
//! What stays with each language: its token set and keywords (a `logos` enum implementing
//! [`TokenKind`]), comments, string escapes and integer literals, its grammar and precedences,
//! its diagnostic codes and texts, where it resynchronises and how many errors it reports.
//! **Invariant:** what the front ends share lives here; a shape written in both front ends is
//! moved into this module, not copied.

use crate::ast::Ident;
use crate::diag::Diagnostic;
use crate::span::{FileId, Span};
use std::borrow::Cow;
use std::ops::DerefMut;

/// What the kit needs of a language's token kinds.
pub trait TokenKind: Copy + Eq {
    /// The kind that ends every token stream (added by [`TokenStream::finish`]).
    const EOF: Self;

    /// How the kind is written in "expected …" messages (``"`-->`"``, `"a name"`).
    fn describe(self) -> Cow<'static, str>;
}

/// A token with its span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<K> {
    /// The kind.
    pub kind: K,
    /// Where it is.
    pub span: Span,
    /// True if no other token precedes it on its line.
    pub line_start: bool,
}

/// The tokens of one file while a lexer reads it.
pub struct TokenStream<'s, K> {
    file: FileId,
    src: &'s str,
    toks: Vec<Token<K>>,
    /// The byte after the last thing read (token, comment or bad character).
    seen: usize,
}

impl<'s, K: TokenKind> TokenStream<'s, K> {
    /// An empty stream over `src` (file `file`).
    pub fn new(file: FileId, src: &'s str) -> Self {
        TokenStream {
            file,
            src,
            toks: Vec::new(),
            seen: 0,
        }
    }

    /// The span of bytes `start..end` of the file.
    pub fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    /// Whether what is read at `start..end` is the first thing on its line; it is then the
    /// last thing read.
    pub fn read(&mut self, start: usize, end: usize) -> bool {
        let before = self.src.get(self.seen..start).unwrap_or("");
        let line_start = before.contains('\n')
            || self.seen == 0 && self.src.get(..start).is_some_and(|b| b.trim().is_empty());
        self.seen = end;
        line_start
    }

    /// Marks the bytes up to `end` as read (what a lexer reads beyond its `logos` token).
    pub fn read_to(&mut self, end: usize) {
        self.seen = end;
    }

    /// Adds a token.
    pub fn push(&mut self, kind: K, span: Span, line_start: bool) {
        self.toks.push(Token {
            kind,
            span,
            line_start,
        });
    }

    /// The tokens so far.
    pub fn tokens(&self) -> &[Token<K>] {
        &self.toks
    }

    /// The tokens, ended by [`TokenKind::EOF`] at the end of the file.
    pub fn finish(mut self) -> Vec<Token<K>> {
        let end = self.src.len();
        self.push(K::EOF, Span::new(self.file, end, end), true);
        self.toks
    }
}

/// An error was reported; the caller unwinds to where its language recovers.
#[derive(Debug)]
pub struct Failed;

/// The result of a parsing function.
pub type PResult<T> = Result<T, Failed>;

/// The state of a recursive-descent parser over a token stream that ends with
/// [`TokenKind::EOF`] (the end is never passed: [`Cursor::bump`] stays on it).
pub struct Cursor<'s, K> {
    /// The text.
    pub src: &'s str,
    /// Its file.
    pub file: FileId,
    /// The tokens.
    pub toks: Vec<Token<K>>,
    /// The index of the current token.
    pub pos: usize,
    /// The diagnostics so far (the lexer's first).
    pub diags: Vec<Diagnostic>,
    /// How deeply the parser is nested (see [`Grammar::enter`]).
    pub depth: usize,
}

impl<'s, K: TokenKind> Cursor<'s, K> {
    /// A cursor on the first of `toks` (which end with [`TokenKind::EOF`]).
    pub fn new(file: FileId, src: &'s str, toks: Vec<Token<K>>, diags: Vec<Diagnostic>) -> Self {
        Cursor {
            src,
            file,
            toks,
            pos: 0,
            diags,
            depth: 0,
        }
    }

    /// The current token.
    pub fn tok(&self) -> Token<K> {
        self.toks[self.pos]
    }

    /// The kind of the current token.
    pub fn peek(&self) -> K {
        self.toks[self.pos].kind
    }

    /// The kind of the token `n` after the current one (the end of the file past it).
    pub fn peek_at(&self, n: usize) -> K {
        self.toks[(self.pos + n).min(self.toks.len() - 1)].kind
    }

    /// The span of the current token.
    pub fn span(&self) -> Span {
        self.toks[self.pos].span
    }

    /// The span of the last token consumed (the first token's before any).
    pub fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1)].span
    }

    /// The text of a span.
    pub fn text(&self, span: Span) -> &'s str {
        &self.src[span.start as usize..span.end as usize]
    }

    /// The name a token spells.
    pub fn ident_of(&self, t: Token<K>) -> Ident {
        Ident {
            name: self.text(t.span).to_string(),
            span: t.span,
        }
    }

    /// Consumes the current token (not the end of the file) and returns it.
    pub fn bump(&mut self) -> Token<K> {
        let t = self.toks[self.pos];
        if t.kind != K::EOF {
            self.pos += 1;
        }
        t
    }

    /// Consumes the current token if it is a `k`.
    pub fn eat(&mut self, k: K) -> bool {
        if self.peek() == k {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Recovery after an error: skips tokens up to one where `stop` holds, or to the end of
    /// the file. With `nest = Some((open, close))`, balanced `open` … `close` groups are
    /// skipped whole (`stop` is not asked inside them) and an unbalanced `close` stops.
    pub fn skip_until(&mut self, nest: Option<(K, K)>, stop: impl Fn(&Self) -> bool) {
        let mut depth = 0usize;
        loop {
            let k = self.peek();
            if k == K::EOF || depth == 0 && nest.is_some_and(|(_, close)| k == close) {
                return;
            }
            if depth == 0 && stop(self) {
                return;
            }
            match nest {
                Some((open, _)) if k == open => depth += 1,
                Some((_, close)) if k == close => depth -= 1,
                _ => {}
            }
            self.bump();
        }
    }
}

/// Makes a language's parser struct `$parser<'s>` (the kit's [`Cursor`] over `$tok` in its
/// field `c`, and the language's own state) a cursor, by `Deref`, for [`Grammar`].
#[macro_export]
macro_rules! cursor_deref {
    ($parser:ident, $tok:ty) => {
        impl<'s> std::ops::Deref for $parser<'s> {
            type Target = $crate::kit::Cursor<'s, $tok>;
            fn deref(&self) -> &Self::Target {
                &self.c
            }
        }

        impl std::ops::DerefMut for $parser<'_> {
            fn deref_mut(&mut self) -> &mut Self::Target {
                &mut self.c
            }
        }
    };
}

/// A language's parser, as the kit sees it: a [`Cursor`] (by `Deref`) and the few things
/// each language says its own way. Its provided methods are the shapes both front ends use.
pub trait Grammar<'s, K: TokenKind>: DerefMut<Target = Cursor<'s, K>> + Sized {
    /// The code of the "expected X, found Y" diagnostic.
    const EXPECTED: &'static str;

    /// The deepest nesting accepted by [`Grammar::enter`].
    const MAX_DEPTH: usize;

    /// How the token `t` is shown after "found" in a message; `None` for a token the lexer
    /// has reported already (the parse error then says nothing more).
    fn found(&self, t: Token<K>) -> Option<String>;

    /// The hint for "expected `what`" at the current token, given the caller's `help`.
    fn hint(&self, what: &str, help: Option<&str>) -> Option<String>;

    /// The error for nesting deeper than [`Grammar::MAX_DEPTH`], at the current token
    /// (reported by the implementation).
    fn too_deep(&mut self) -> Failed;

    /// Records a diagnostic (a language may leave some out or cap their number).
    fn report(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Reports "expected `what`, found …" at the current token.
    fn expected<T>(&mut self, what: &str, help: Option<&str>) -> PResult<T> {
        let t = self.tok();
        let Some(found) = self.found(t) else {
            return Err(Failed);
        };
        let hint = self.hint(what, help);
        let d = Diagnostic::error(
            Self::EXPECTED,
            format!("expected {what}, found {found}"),
            t.span,
            format!("expected {what} here"),
        )
        .maybe_help(hint);
        self.report(d);
        Err(Failed)
    }

    /// Consumes a `k`, or reports that one was expected.
    fn expect(&mut self, k: K, help: Option<&str>) -> PResult<Token<K>> {
        if self.peek() == k {
            Ok(self.bump())
        } else {
            self.expected(&k.describe(), help)
        }
    }

    /// One level deeper (a parenthesis, an operand, …); past [`Grammar::MAX_DEPTH`] an error.
    /// Each `enter` that succeeds is matched by a [`Grammar::leave`].
    fn enter(&mut self) -> PResult<()> {
        if self.depth >= Self::MAX_DEPTH {
            return Err(self.too_deep());
        }
        self.depth += 1;
        Ok(())
    }

    /// One level up again.
    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// `parse` one level deeper.
    fn nested<T>(&mut self, parse: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.enter()?;
        let r = parse(self);
        self.leave();
        r
    }

    /// `item { sep item }`: one or more.
    fn sep_by1<T>(
        &mut self,
        sep: K,
        mut item: impl FnMut(&mut Self) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        let mut out = vec![item(self)?];
        while self.eat(sep) {
            out.push(item(self)?);
        }
        Ok(out)
    }

    /// `[ item { sep item } ]` before a `close` (not consumed): none when `close` is next.
    fn sep_by<T>(
        &mut self,
        close: K,
        sep: K,
        item: impl FnMut(&mut Self) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        if self.peek() == close {
            return Ok(Vec::new());
        }
        self.sep_by1(sep, item)
    }

    /// `[ item { sep item } ] close` (the opening bracket already read); `help` if `close`
    /// does not follow.
    fn closed_list<T>(
        &mut self,
        close: K,
        sep: K,
        help: Option<&str>,
        item: impl FnMut(&mut Self) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        let out = self.sep_by(close, sep, item)?;
        self.expect(close, help)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum K {
        A,
        Comma,
        Open,
        Close,
        Eof,
    }

    impl TokenKind for K {
        const EOF: K = K::Eof;
        fn describe(self) -> Cow<'static, str> {
            format!("{self:?}").into()
        }
    }

    struct P<'s> {
        c: Cursor<'s, K>,
    }
    crate::cursor_deref!(P, K);
    impl<'s> Grammar<'s, K> for P<'s> {
        const EXPECTED: &'static str = "test::expected";
        const MAX_DEPTH: usize = 2;
        fn found(&self, t: Token<K>) -> Option<String> {
            Some(format!("{:?}", t.kind))
        }
        fn hint(&self, _: &str, help: Option<&str>) -> Option<String> {
            help.map(str::to_string)
        }
        fn too_deep(&mut self) -> Failed {
            Failed
        }
    }

    /// Tokens of `src`: `a`, `,`, `(`, `)`, one character each, blanks between.
    fn parser(src: &str) -> P<'_> {
        let mut ts = TokenStream::new(0, src);
        for (i, c) in src.char_indices().filter(|(_, c)| !c.is_whitespace()) {
            let kind = match c {
                'a' => K::A,
                ',' => K::Comma,
                '(' => K::Open,
                _ => K::Close,
            };
            let line_start = ts.read(i, i + 1);
            ts.push(kind, ts.span(i, i + 1), line_start);
        }
        P {
            c: Cursor::new(0, src, ts.finish(), Vec::new()),
        }
    }

    #[test]
    fn lists_and_expected() {
        let mut p = parser("a, a, a)");
        let l = p.closed_list(K::Close, K::Comma, None, |p| p.expect(K::A, None));
        assert_eq!(l.unwrap().len(), 3);
        assert_eq!(p.peek(), K::Eof);
        let mut p = parser(")");
        assert!(p
            .closed_list(K::Close, K::Comma, None, |p| p.expect(K::A, None))
            .unwrap()
            .is_empty());
        let mut p = parser("a, )");
        assert!(p.sep_by1(K::Comma, |p| p.expect(K::A, Some("h"))).is_err());
        let d = &p.diags[0];
        assert_eq!(
            (d.code, d.message.as_str()),
            ("test::expected", "expected A, found Close")
        );
        assert_eq!((d.span.start, d.help.as_deref()), (3, Some("h")));
    }

    #[test]
    fn recovery_skips_groups_and_nesting_is_bounded() {
        let mut p = parser("( a ) a\n a )");
        p.skip_until(Some((K::Open, K::Close)), |c| c.peek() == K::A);
        assert_eq!(p.pos, 3);
        p.bump();
        assert!(p.tok().line_start);
        p.skip_until(Some((K::Open, K::Close)), |_| false);
        assert_eq!(p.peek(), K::Close);
        p.bump();
        assert_eq!((p.bump().kind, p.bump().kind), (K::Eof, K::Eof));
        let mut p = parser("");
        assert!(p.nested(|p| p.nested(|_| Ok(()))).is_ok());
        assert!(p.nested(|p| p.nested(|p| p.nested(|_| Ok(())))).is_err());
        assert_eq!(p.depth, 0);
    }
}
