//! The lexer (with `logos`): turns a file into [`Token`]s and comments.
//!
//! Comments (`// ...` to the end of the line, `/* ... */` not nested) are kept aside for the
//! formatter. Each token records whether it is the first on its line, which the parser uses to
//! resynchronise after an error.

pub use crate::ast::Comment;
use crate::diag::Diagnostic;
use crate::kit::{self, TokenStream};
use crate::span::FileId;
use logos::Logos;
use std::borrow::Cow;

/// Skips to the end of a block comment (to the end of the file when it is not closed).
fn block_comment(lex: &mut logos::Lexer<Tok>) {
    match lex.remainder().find("*/") {
        Some(i) => lex.bump(i + 2),
        None => lex.bump(lex.remainder().len()),
    }
}

/// Token kinds. The text of identifiers and literals is read back from the span.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\r\n\f]+")]
pub enum Tok {
    #[regex(r"//[^\n]*")]
    LineComment,
    #[token("/*", block_comment)]
    BlockComment,
    /// A block comment without its `*/` (reported by [`lex`]).
    UnclosedComment,

    #[token("model")]
    Model,
    #[token("system")]
    System,
    #[token("type")]
    Type,
    #[token("fn")]
    Fn,
    #[token("import")]
    Import,
    #[token("input")]
    Input,
    #[token("output")]
    Output,
    #[token("var")]
    Var,
    #[token("init")]
    Init,
    #[token("location")]
    Location,
    #[token("tau")]
    Tau,
    #[token("hide")]
    Hide,
    #[token("in")]
    In,
    #[token("if")]
    If,
    #[token("then")]
    Then,
    #[token("else")]
    Else,
    #[token("true")]
    True,
    #[token("false")]
    False,
    #[token("int")]
    Int,
    #[token("bool")]
    Bool,
    #[token("string")]
    StringTy,
    #[token("is")]
    Is,

    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident,
    #[regex(r"[0-9]+")]
    Number,
    #[regex(r"[0-9]+(ms|s|us|min)")]
    Duration,
    #[regex(r#""([^"\\\n]|\\.)*""#)]
    Str,
    #[regex(r#""([^"\\\n]|\\.)*"#)]
    UnclosedStr,
    /// A regular expression `/.../` (produced by [`lex`] after `matches` and after `string`
    /// or `string[..]`, never by logos).
    Regex,

    #[token("--")]
    DashDash,
    #[token("-->")]
    LongArrow,
    #[token("->")]
    Arrow,
    #[token("=>")]
    Implies,
    #[token("?")]
    Question,
    #[token("!")]
    Bang,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token(",")]
    Comma,
    #[token(";")]
    Semi,
    #[token(":")]
    Colon,
    #[token("..")]
    DotDot,
    #[token(".")]
    Dot,
    #[token("@")]
    At,
    #[token("=")]
    Eq,
    #[token("==")]
    EqEq,
    #[token("!=")]
    NotEq,
    #[token("<")]
    Lt,
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    Ge,
    #[token("+")]
    Plus,
    #[token("++")]
    PlusPlus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("&&")]
    AndAnd,
    #[token("||")]
    OrOr,
    #[token("|||")]
    Interleave,
    #[token("|")]
    Pipe,
    #[token(">>>")]
    Enable,

    /// End of file (added by [`lex`], never produced by logos).
    Eof,
}

impl Tok {
    /// How the token is written, for messages ("expected `-->`").
    pub fn describe(self) -> &'static str {
        use Tok::*;
        match self {
            LineComment | BlockComment => "a comment",
            UnclosedComment => "`/*`",
            Model => "`model`",
            System => "`system`",
            Type => "`type`",
            Fn => "`fn`",
            Import => "`import`",
            Input => "`input`",
            Output => "`output`",
            Var => "`var`",
            Init => "`init`",
            Location => "`location`",
            Tau => "`tau`",
            Hide => "`hide`",
            In => "`in`",
            If => "`if`",
            Then => "`then`",
            Else => "`else`",
            True => "`true`",
            False => "`false`",
            Int => "`int`",
            Bool => "`bool`",
            StringTy => "`string`",
            Regex => "a regular expression",
            Is => "`is`",
            Ident => "a name",
            Number => "a number",
            Duration => "a duration",
            Str | UnclosedStr => "a string",
            DashDash => "`--`",
            LongArrow => "`-->`",
            Arrow => "`->`",
            Implies => "`=>`",
            Question => "`?`",
            Bang => "`!`",
            LParen => "`(`",
            RParen => "`)`",
            LBracket => "`[`",
            RBracket => "`]`",
            LBrace => "`{`",
            RBrace => "`}`",
            Comma => "`,`",
            Semi => "`;`",
            Colon => "`:`",
            DotDot => "`..`",
            Dot => "`.`",
            At => "`@`",
            Eq => "`=`",
            EqEq => "`==`",
            NotEq => "`!=`",
            Lt => "`<`",
            Le => "`<=`",
            Gt => "`>`",
            Ge => "`>=`",
            Plus => "`+`",
            PlusPlus => "`++`",
            Minus => "`-`",
            Star => "`*`",
            Slash => "`/`",
            Percent => "`%`",
            AndAnd => "`&&`",
            OrOr => "`||`",
            Interleave => "`|||`",
            Enable => "`>>>`",
            Pipe => "`|`",
            Eof => "the end of the file",
        }
    }

    /// Keywords (an identifier cannot be spelled like one).
    pub fn is_keyword(self) -> bool {
        use Tok::*;
        matches!(
            self,
            Model
                | System
                | Type
                | Fn
                | Import
                | Input
                | Output
                | Var
                | Init
                | Location
                | Tau
                | Hide
                | In
                | If
                | Then
                | Else
                | True
                | False
                | Int
                | Bool
                | StringTy
                | Is
        )
    }
}

/// A token with its span (the kit's, over [`Tok`]).
pub type Token = kit::Token<Tok>;

impl kit::TokenKind for Tok {
    const EOF: Tok = Tok::Eof;
    fn describe(self) -> Cow<'static, str> {
        Tok::describe(self).into()
    }
}

/// Lexes a whole file. Unknown characters and unclosed strings or comments become diagnostics;
/// the token stream always ends with [`Tok::Eof`].
pub fn lex(file: FileId, src: &str) -> (Vec<Token>, Vec<Comment>, Vec<Diagnostic>) {
    let mut toks = TokenStream::new(file, src);
    let mut comments = Vec::new();
    let mut diags = Vec::new();
    let mut lexer = Tok::lexer(src);
    let mut in_string_range = false; // inside the `[..]` of `string[..]`
    while let Some(res) = lexer.next() {
        let r = lexer.span();
        let span = toks.span(r.start, r.end);
        let line_start = toks.read(r.start, r.end);
        let res = match res {
            Ok(Tok::BlockComment) if !(r.end - r.start >= 4 && src[..r.end].ends_with("*/")) => {
                Ok(Tok::UnclosedComment)
            }
            other => other,
        };
        match res {
            Ok(Tok::LineComment) | Ok(Tok::BlockComment) => comments.push(Comment {
                span,
                own_line: line_start,
            }),
            Ok(Tok::UnclosedComment) => {
                diags.push(
                    Diagnostic::error(
                        "ioco::lex::unclosed_comment",
                        "unclosed block comment",
                        span,
                        "this comment never ends",
                    )
                    .help("close it with `*/` (block comments do not nest)"),
                );
                break;
            }
            Ok(Tok::UnclosedStr) => {
                diags.push(
                    Diagnostic::error(
                        "ioco::lex::unclosed_string",
                        "unclosed string",
                        span,
                        "this string has no closing quote on its line",
                    )
                    .help("add a `\"` before the end of the line"),
                );
            }
            Ok(kind) => {
                toks.push(kind, span, line_start);
                let before = |n: usize| toks.tokens().iter().rev().nth(n).map(|t| t.kind);
                // a regular expression may follow `matches`, `string` and `string[..]`
                let text = src.get(r.start..r.end).unwrap_or("");
                let check = match kind {
                    Tok::StringTy => true,
                    // `e matches /re/`: only after the end of an operand (`x = matches / 2`
                    // divides a variable called `matches`)
                    Tok::Ident => {
                        text == "matches"
                            && matches!(
                                before(1),
                                Some(
                                    Tok::Ident
                                        | Tok::Number
                                        | Tok::Str
                                        | Tok::RParen
                                        | Tok::True
                                        | Tok::False
                                )
                            )
                    }
                    Tok::LBracket => {
                        in_string_range = before(1) == Some(Tok::StringTy);
                        false
                    }
                    Tok::RBracket => std::mem::take(&mut in_string_range),
                    _ => false,
                };
                if check {
                    if let Some((ws, len, closed)) = regex_literal(lexer.remainder()) {
                        let start = r.end + ws;
                        let rspan = toks.span(start, start + len);
                        if closed {
                            toks.push(Tok::Regex, rspan, false);
                        } else {
                            diags.push(
                                Diagnostic::error(
                                    "ioco::lex::unclosed_regex",
                                    "unclosed regular expression",
                                    rspan,
                                    "this regular expression has no closing `/` on its line",
                                )
                                .help("end it with `/`; a `/` inside is written `\\/`"),
                            );
                        }
                        lexer.bump(ws + len);
                        toks.read_to(start + len);
                    }
                }
            }
            Err(()) => {
                let text = src.get(r.start..r.end).unwrap_or("?");
                let hint = match text {
                    "&" => "use `&&` for logical and",
                    "#" => "comments start with `//`",
                    "'" => "strings use double quotes",
                    _ => "identifiers are ASCII letters, digits and `_`",
                };
                diags.push(
                    Diagnostic::error(
                        "ioco::lex::bad_char",
                        format!("unexpected character `{}`", text.escape_debug()),
                        span,
                        "not part of the language",
                    )
                    .help(hint),
                );
            }
        }
    }
    (toks.finish(), comments, diags)
}

/// A regular expression `/.../` at the start of `rest` (after spaces and tabs): the number of
/// blanks before it, its length in bytes (with both slashes) and whether it is closed on its
/// line. `None` when `rest` does not start with one (`//` and `/*` start comments).
fn regex_literal(rest: &str) -> Option<(usize, usize, bool)> {
    let ws = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    let body = rest[ws..].strip_prefix('/')?;
    if body.starts_with(['/', '*']) {
        return None;
    }
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, '\n')) | None = chars.next() {
                    return Some((ws, 1 + i + 1, false));
                }
            }
            '\n' => return Some((ws, 1 + i, false)),
            '/' => return Some((ws, i + 2, true)),
            _ => {}
        }
    }
    Some((ws, 1 + body.len(), false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switch_tokens() {
        let (t, c, d) = lex(
            0,
            "idle -- water?(w) [w > 0] --> idle // x\n  @timeout(500ms)",
        );
        assert!(d.is_empty());
        assert_eq!(c.len(), 1);
        let kinds: Vec<Tok> = t.iter().map(|t| t.kind).collect();
        use Tok::*;
        assert_eq!(
            kinds,
            vec![
                Ident, DashDash, Ident, Question, LParen, Ident, RParen, LBracket, Ident, Gt,
                Number, RBracket, LongArrow, Ident, At, Ident, LParen, Duration, RParen, Eof
            ]
        );
        assert!(t[0].line_start && !t[1].line_start && t[14].line_start);
    }

    #[test]
    fn regular_expressions() {
        let src = "s matches /[A-Z]\\/x/ && t: string[1..2] /a|b/ x / 2 matches /ab";
        let (t, _, d) = lex(0, src);
        let kinds: Vec<Tok> = t.iter().map(|t| t.kind).collect();
        use Tok::*;
        assert_eq!(
            kinds,
            vec![
                Ident, Ident, Regex, AndAnd, Ident, Colon, StringTy, LBracket, Number, DotDot,
                Number, RBracket, Regex, Ident, Slash, Number, Ident, Eof
            ]
        );
        assert_eq!(
            &src[t[2].span.start as usize..t[2].span.end as usize],
            "/[A-Z]\\/x/"
        );
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].message.contains("unclosed regular"));
    }

    #[test]
    fn bad_chars_are_diagnostics() {
        let (_, _, d) = lex(0, "a & b $ \"x");
        assert_eq!(d.len(), 3);
    }
}
