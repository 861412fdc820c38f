//! The tokens of a `.txs` file (with `logos`), following TorXakis 0.9.0's lexical rules (the
//! Parsec token parser of `sys/txs-compiler/src/TorXakis/Parser/Common.hs`) and, where they
//! agree, the earlier Alex lexer `sys/front/src/TxsAlex.x` (TorXakis up to 0.6).
//!
//! * Comments: `--` to the end of the line (only where a token would start: `+--` is an
//!   operator, as in TorXakis), and `{- .. -}` block comments, which nest here.
//! * Names: `Capitalised` ([`Tok::CapId`], sorts, constructors, channels, models) and
//!   `lowercase` ([`Tok::SmallId`], functions, variables, processes); the keywords are taken
//!   out of the capitalised names: TorXakis 0.9's reserved words (`TYPEDEF` .. `QSTEP`), the
//!   literals and special terms `True`, `False`, `REGEX`, `ANY`, and `HSTEP`, `NOEXIT`.
//! * Operators: a run of the characters `= + - * / \ ^ < > | @ & %` is one token. The runs that
//!   are punctuation of the language (`=`, `->`, `<-`, `>->`, `>>>`, `=>>`, `|`, `||`, `|||`)
//!   get their own kinds; every other run is an infix (or prefix) value operator
//!   [`Tok::Op`] (`+`, `==`, `<>`, `/\`, `++`, user-defined ones).
//! * `::=`, `::`, `:=`, `|[`, `]|`, `[[`, `]]`, `[>>`, `[><`, `##`, `#`, brackets, `?`, `!`,
//!   `;`, `,`.
//! * Literals: integers, strings `".."` with Haskell escapes (`\n`, `\t`, `\"`, `\\`, `\65`,
//!   `\x41`, `\o101`, `\NUL`..), regular expressions `'..'` (written `REGEX('..')`).

use ioco_lang::kit::{self, TokenStream};
use ioco_lang::Diagnostic;
use logos::Logos;
use std::borrow::Cow;

/// Token kinds. The text of names and literals is read back from the span.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\r\n\f\v]+")]
pub enum Tok {
    /// A capitalised name.
    #[regex(r"[A-Z][A-Za-z0-9_]*")]
    CapId,
    /// A lower-case name.
    #[regex(r"[a-z_][A-Za-z0-9_]*")]
    SmallId,
    /// An integer literal.
    #[regex(r"[0-9]+")]
    Int,
    /// A string literal.
    #[regex(r#""([^"\\]|\\[^\r\n])*""#)]
    Str,
    /// A string without its closing quote (reported by [`lex`]).
    #[regex(r#""([^"\\]|\\[^\r\n])*"#)]
    UnclosedStr,
    /// A regular expression `'..'`.
    #[regex(r"'[^'\n]*'")]
    RegexVal,
    /// A run of operator characters (classified by [`lex`] into the kinds below).
    #[regex(r"[=+\-*/\\^<>|@&%]+")]
    Op,
    /// `{-` (the block comment is skipped by [`lex`]).
    #[token("{-")]
    BlockComment,

    /// `::=`
    #[token("::=")]
    IsDef,
    /// `::`
    #[token("::")]
    SortOf,
    /// `:=`
    #[token(":=")]
    Assign,
    /// `|[`
    #[token("|[")]
    LComm,
    /// `]|`
    #[token("]|")]
    RComm,
    /// `[[`
    #[token("[[")]
    OpenPred,
    /// `]]`
    #[token("]]")]
    ClosePred,
    /// `[>>`
    #[token("[>>")]
    Disable,
    /// `[><`
    #[token("[><")]
    Interrupt,
    /// `##`
    #[token("##")]
    Choice,
    /// `#`
    #[token("#")]
    Sharp,
    /// `[`
    #[token("[")]
    LBracket,
    /// `]`
    #[token("]")]
    RBracket,
    /// `{`
    #[token("{")]
    LBrace,
    /// `}`
    #[token("}")]
    RBrace,
    /// `(`
    #[token("(")]
    LParen,
    /// `)`
    #[token(")")]
    RParen,
    /// `?`
    #[token("?")]
    Question,
    /// `!`
    #[token("!")]
    Bang,
    /// `;`
    #[token(";")]
    Semi,
    /// `,`
    #[token(",")]
    Comma,

    // Operator runs with a meaning of their own (never produced by logos).
    /// `=`
    Equal,
    /// `->`
    Arrow,
    /// `<-`
    BArrow,
    /// `>->`
    Prefix,
    /// `>>>`
    Enable,
    /// `=>>`
    GuardArrow,
    /// `|`
    Bar,
    /// `||`
    Sync,
    /// `|||`
    Interleave,

    // Keywords (capitalised names, never produced by logos).
    /// `TYPEDEF`
    TypeDef,
    /// `FUNCDEF`
    FuncDef,
    /// `CONSTDEF`
    ConstDef,
    /// `PROCDEF`
    ProcDef,
    /// `CHANDEF`
    ChanDef,
    /// `STAUTDEF`
    StautDef,
    /// `MODELDEF`
    ModelDef,
    /// `PURPDEF`
    PurpDef,
    /// `MAPPERDEF`
    MapperDef,
    /// `CNECTDEF`
    CnectDef,
    /// `ENDDEF`
    EndDef,
    /// `GOAL`
    Goal,
    /// `CHAN`
    Chan,
    /// `IN`
    In,
    /// `OUT`
    Out,
    /// `SYNC`
    SyncKw,
    /// `CLIENTSOCK`
    ClientSock,
    /// `SERVERSOCK`
    ServerSock,
    /// `HOST`
    Host,
    /// `PORT`
    Port,
    /// `ENCODE`
    Encode,
    /// `DECODE`
    Decode,
    /// `STATE`
    State,
    /// `VAR`
    Var,
    /// `INIT`
    Init,
    /// `TRANS`
    Trans,
    /// `BEHAVIOUR`
    Behaviour,
    /// `STOP`
    Stop,
    /// `EXIT`
    Exit,
    /// `NOEXIT`
    NoExit,
    /// `HIT`
    Hit,
    /// `MISS`
    Miss,
    /// `ACCEPT`
    Accept,
    /// `HIDE`
    Hide,
    /// `LET`
    Let,
    /// `NI`
    Ni,
    /// `IF`
    If,
    /// `THEN`
    Then,
    /// `ELSE`
    Else,
    /// `FI`
    Fi,
    /// `ISTEP`
    IStep,
    /// `QSTEP`
    QStep,
    /// `HSTEP`
    HStep,
    /// `REGEX`
    Regex,
    /// `ANY`
    Any,
    /// `True`
    True,
    /// `False`
    False,

    /// A character that starts no token (reported by [`lex`]).
    Error,
    /// End of file (added by [`lex`]).
    Eof,
}

/// A token and where it is (the kit's, over [`Tok`]).
pub type Token = kit::Token<Tok>;

impl kit::TokenKind for Tok {
    const EOF: Tok = Tok::Eof;
    fn describe(self) -> Cow<'static, str> {
        Tok::describe(self).into()
    }
}

/// The keywords and how they are written.
const KEYWORDS: &[(&str, Tok)] = &[
    ("TYPEDEF", Tok::TypeDef),
    ("FUNCDEF", Tok::FuncDef),
    ("CONSTDEF", Tok::ConstDef),
    ("PROCDEF", Tok::ProcDef),
    ("CHANDEF", Tok::ChanDef),
    ("STAUTDEF", Tok::StautDef),
    ("MODELDEF", Tok::ModelDef),
    ("PURPDEF", Tok::PurpDef),
    ("MAPPERDEF", Tok::MapperDef),
    ("CNECTDEF", Tok::CnectDef),
    ("ENDDEF", Tok::EndDef),
    ("GOAL", Tok::Goal),
    ("CHAN", Tok::Chan),
    ("IN", Tok::In),
    ("OUT", Tok::Out),
    ("SYNC", Tok::SyncKw),
    ("CLIENTSOCK", Tok::ClientSock),
    ("SERVERSOCK", Tok::ServerSock),
    ("HOST", Tok::Host),
    ("PORT", Tok::Port),
    ("ENCODE", Tok::Encode),
    ("DECODE", Tok::Decode),
    ("STATE", Tok::State),
    ("VAR", Tok::Var),
    ("INIT", Tok::Init),
    ("TRANS", Tok::Trans),
    ("BEHAVIOUR", Tok::Behaviour),
    ("STOP", Tok::Stop),
    ("EXIT", Tok::Exit),
    ("NOEXIT", Tok::NoExit),
    ("HIT", Tok::Hit),
    ("MISS", Tok::Miss),
    ("ACCEPT", Tok::Accept),
    ("HIDE", Tok::Hide),
    ("LET", Tok::Let),
    ("NI", Tok::Ni),
    ("IF", Tok::If),
    ("THEN", Tok::Then),
    ("ELSE", Tok::Else),
    ("FI", Tok::Fi),
    ("ISTEP", Tok::IStep),
    ("QSTEP", Tok::QStep),
    ("HSTEP", Tok::HStep),
    ("REGEX", Tok::Regex),
    ("ANY", Tok::Any),
    ("True", Tok::True),
    ("False", Tok::False),
];

/// The keyword written `text`, if it is one.
pub fn keyword(text: &str) -> Option<Tok> {
    KEYWORDS.iter().find(|(t, _)| *t == text).map(|(_, k)| *k)
}

/// The punctuation kind of an operator run, or [`Tok::Op`].
fn operator(text: &str) -> Tok {
    match text {
        "=" => Tok::Equal,
        "->" => Tok::Arrow,
        "<-" => Tok::BArrow,
        ">->" => Tok::Prefix,
        ">>>" => Tok::Enable,
        "=>>" => Tok::GuardArrow,
        "|" => Tok::Bar,
        "||" => Tok::Sync,
        "|||" => Tok::Interleave,
        _ => Tok::Op,
    }
}

impl Tok {
    /// True for the keywords (upper-case words of the language).
    pub fn is_keyword(self) -> bool {
        (self as u16) >= (Tok::TypeDef as u16) && (self as u16) <= (Tok::False as u16)
    }

    /// True for the keywords that start a definition (where the parser resynchronises).
    pub fn starts_def(self) -> bool {
        use Tok::*;
        matches!(
            self,
            TypeDef
                | FuncDef
                | ConstDef
                | ProcDef
                | ChanDef
                | StautDef
                | ModelDef
                | PurpDef
                | MapperDef
                | CnectDef
        )
    }

    /// How the token kind is described in messages when its text is not at hand.
    pub fn describe(self) -> String {
        use Tok::*;
        if let Some((text, _)) = KEYWORDS.iter().find(|(_, k)| *k == self) {
            return format!("`{text}`");
        }
        let d = match self {
            CapId => "a capitalised name",
            SmallId => "a lower-case name",
            Int => "an integer",
            Str | UnclosedStr => "a string",
            RegexVal => "a regular expression",
            Op => "an operator",
            BlockComment => "a comment",
            IsDef => "`::=`",
            SortOf => "`::`",
            Assign => "`:=`",
            LComm => "`|[`",
            RComm => "`]|`",
            OpenPred => "`[[`",
            ClosePred => "`]]`",
            Disable => "`[>>`",
            Interrupt => "`[><`",
            Choice => "`##`",
            Sharp => "`#`",
            LBracket => "`[`",
            RBracket => "`]`",
            LBrace => "`{`",
            RBrace => "`}`",
            LParen => "`(`",
            RParen => "`)`",
            Question => "`?`",
            Bang => "`!`",
            Semi => "`;`",
            Comma => "`,`",
            Equal => "`=`",
            Arrow => "`->`",
            BArrow => "`<-`",
            Prefix => "`>->`",
            Enable => "`>>>`",
            GuardArrow => "`=>>`",
            Bar => "`|`",
            Sync => "`||`",
            Interleave => "`|||`",
            Error => "an unexpected character",
            Eof => "the end of the file",
            _ => "a keyword",
        };
        d.to_string()
    }
}

/// Skips a block comment whose `{-` ends at byte `start`; returns the offset after its `-}`
/// (nested comments included) or None when it is not closed.
fn skip_block(src: &str, start: usize) -> Option<usize> {
    let bytes = src.as_bytes();
    let mut depth = 1usize;
    let mut i = start;
    while i + 1 < bytes.len() {
        match (bytes[i], bytes[i + 1]) {
            (b'{', b'-') => {
                depth += 1;
                i += 2;
            }
            (b'-', b'}') => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => i += 1,
        }
    }
    None
}

/// Splits `src` (file `file`) into tokens, ending with [`Tok::Eof`]. Comments are dropped;
/// unknown characters, unclosed strings and unclosed comments are reported and lexed as
/// [`Tok::Error`] (unclosed comments run to the end of the file).
pub fn lex(file: u32, src: &str) -> (Vec<Token>, Vec<Diagnostic>) {
    let mut toks = TokenStream::new(file, src);
    let mut diags = Vec::new();
    let mut lexer = Tok::lexer(src);
    while let Some(res) = lexer.next() {
        let range = lexer.span();
        let span = toks.span(range.start, range.end);
        let text = lexer.slice();
        let kind = match res {
            Ok(Tok::CapId) => keyword(text).unwrap_or(Tok::CapId),
            Ok(Tok::Op) if text.starts_with("--") => {
                // A line comment: to the end of the line.
                let rest = lexer.remainder();
                let n = rest.find('\n').unwrap_or(rest.len());
                lexer.bump(n);
                continue;
            }
            Ok(Tok::Op) => operator(text),
            Ok(Tok::BlockComment) => {
                match skip_block(src, range.end) {
                    Some(end) => lexer.bump(end - range.end),
                    None => {
                        diags.push(
                            Diagnostic::error(
                                "ioco::txs::lex::unclosed_comment",
                                "this block comment is not closed",
                                span,
                                "`{-` opened here",
                            )
                            .help("close it with `-}` (block comments nest: each `{-` needs its own `-}`)"),
                        );
                        lexer.bump(lexer.remainder().len());
                    }
                }
                continue;
            }
            Ok(Tok::UnclosedStr) => {
                diags.push(
                    Diagnostic::error(
                        "ioco::txs::lex::unclosed_string",
                        "this string is not closed",
                        span,
                        "string opened here",
                    )
                    .help("end it with `\"`"),
                );
                Tok::Error
            }
            Ok(k) => k,
            Err(()) => {
                let ch = text.chars().next().unwrap_or(' ');
                let help = if ch == '\'' {
                    "a regular expression is written `REGEX('...')` on one line"
                } else {
                    "TorXakis operators are made of `= + - * / \\ ^ < > | @ & %`"
                };
                diags.push(
                    Diagnostic::error(
                        "ioco::txs::lex::unexpected_char",
                        format!("unexpected character `{}`", ch.escape_default()),
                        span,
                        "not part of any token",
                    )
                    .help(help),
                );
                Tok::Error
            }
        };
        let line_start = toks.read(range.start, range.end);
        toks.push(kind, span, line_start);
    }
    (toks.finish(), diags)
}

/// The value of a string literal's text (with its quotes): escapes resolved as in Haskell.
/// Returns the string and, if an escape is not understood, its byte offset in `text`.
pub fn unescape(text: &str) -> (String, Option<usize>) {
    const NAMES: [(&str, u32); 34] = [
        ("NUL", 0),
        ("SOH", 1),
        ("STX", 2),
        ("ETX", 3),
        ("EOT", 4),
        ("ENQ", 5),
        ("ACK", 6),
        ("BEL", 7),
        ("BS", 8),
        ("HT", 9),
        ("LF", 10),
        ("VT", 11),
        ("FF", 12),
        ("CR", 13),
        ("SO", 14),
        ("SI", 15),
        ("DLE", 16),
        ("DC1", 17),
        ("DC2", 18),
        ("DC3", 19),
        ("DC4", 20),
        ("NAK", 21),
        ("SYN", 22),
        ("ETB", 23),
        ("CAN", 24),
        ("EM", 25),
        ("SUB", 26),
        ("ESC", 27),
        ("FS", 28),
        ("GS", 29),
        ("RS", 30),
        ("US", 31),
        ("SP", 32),
        ("DEL", 127),
    ];
    let inner = text
        .strip_prefix('"')
        .map(|t| t.strip_suffix('"').unwrap_or(t))
        .unwrap_or(text);
    let mut out = String::new();
    let mut bad = None;
    let mut rest = inner;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let esc = &rest[i + 1..];
        let at = text.len() - rest.len() + i;
        let mut chars = esc.chars();
        let Some(c) = chars.next() else {
            bad.get_or_insert(at);
            rest = "";
            break;
        };
        let (value, used): (Option<char>, usize) = match c {
            'a' => (Some('\x07'), 1),
            'b' => (Some('\x08'), 1),
            'f' => (Some('\x0c'), 1),
            'n' => (Some('\n'), 1),
            'r' => (Some('\r'), 1),
            't' => (Some('\t'), 1),
            'v' => (Some('\x0b'), 1),
            '"' | '\'' | '\\' => (Some(c), 1),
            '&' => (None, 1),
            '0'..='9' => {
                let n = esc.bytes().take_while(u8::is_ascii_digit).count();
                (numeric(&esc[..n], 10), n)
            }
            'o' | 'O' => {
                let n = esc[1..]
                    .bytes()
                    .take_while(|b| (b'0'..=b'7').contains(b))
                    .count();
                (numeric(&esc[1..1 + n], 8), 1 + n)
            }
            'x' | 'X' => {
                let n = esc[1..].bytes().take_while(u8::is_ascii_hexdigit).count();
                (numeric(&esc[1..1 + n], 16), 1 + n)
            }
            _ => match NAMES
                .iter()
                // Longest name first (`SOH` before `SO`).
                .filter(|(name, _)| esc.starts_with(name))
                .max_by_key(|(name, _)| name.len())
            {
                Some((name, code)) => (char::from_u32(*code), name.len()),
                None => {
                    bad.get_or_insert(at);
                    (Some(c), c.len_utf8())
                }
            },
        };
        match value {
            Some(v) => out.push(v),
            None if c == '&' => {}
            None => {
                bad.get_or_insert(at);
            }
        }
        rest = &esc[used.min(esc.len())..];
    }
    out.push_str(rest);
    (out, bad)
}

/// A numeric escape's character.
fn numeric(digits: &str, radix: u32) -> Option<char> {
    if digits.is_empty() {
        return None;
    }
    u32::from_str_radix(digits, radix)
        .ok()
        .and_then(char::from_u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Tok> {
        let (toks, diags) = lex(0, src);
        assert!(diags.is_empty(), "{src}");
        toks.into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn operators_and_comments() {
        use Tok::*;
        assert_eq!(
            kinds("a >-> b ## c ||| d || e |[ G ]| f -- comment\n g"),
            vec![
                SmallId, Prefix, SmallId, Choice, SmallId, Interleave, SmallId, Sync, SmallId,
                LComm, CapId, RComm, SmallId, SmallId, Eof
            ]
        );
        assert_eq!(
            kinds("x /\\ y {- a {- nested -} comment -} <> z ++ w"),
            vec![SmallId, Op, SmallId, Op, SmallId, Op, SmallId, Eof]
        );
        assert_eq!(
            kinds("[[ c ]] =>> A ? x :: Int [>> B [>< C >>> D"),
            vec![
                OpenPred, SmallId, ClosePred, GuardArrow, CapId, Question, SmallId, SortOf, CapId,
                Disable, CapId, Interrupt, CapId, Enable, CapId, Eof
            ]
        );
        assert_eq!(
            kinds("TYPEDEF T ::= A ENDDEF x := 1"),
            vec![TypeDef, CapId, IsDef, CapId, EndDef, SmallId, Assign, Int, Eof]
        );
        assert_eq!(
            kinds("REGEX('[a-z]*') \"a\\\"b\""),
            vec![Regex, LParen, RegexVal, RParen, Str, Eof]
        );
    }

    #[test]
    fn escapes() {
        assert_eq!(
            unescape(r#""a\nb\"\\\65\x42\o103\NUL\SOH\&c""#).0,
            "a\nb\"\\ABC\0\x01c"
        );
        assert!(unescape(r#""\q""#).1.is_some());
    }

    #[test]
    fn errors() {
        let (_, d) = lex(0, "\"abc");
        assert_eq!(d[0].code, "ioco::txs::lex::unclosed_string");
        let (_, d) = lex(0, "{- abc {- -}");
        assert_eq!(d[0].code, "ioco::txs::lex::unclosed_comment");
        let (_, d) = lex(0, "a $ b");
        assert_eq!(d[0].message, "unexpected character `$`");
    }
}
