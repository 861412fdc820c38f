//! TorXakis's textual value syntax: `toString` and `fromString` of [`Value`]s, as TorXakis's
//! `ENCODE ... -> ! toString(x)` and `DECODE ... ! fromString(s) <- ? s` put values on a
//! socket (one line per value).
//!
//! What TorXakis writes (`toString`, its pretty printer of constants):
//! * `Int`: the decimal number, `-` for negatives: `42`, `-7`;
//! * `Bool`: `True`, `False`;
//! * a constructor: its name, and its fields in parentheses separated by commas without
//!   blanks when it has any: `Nil`, `Plus(4,7)`, `Cons(-1,Cons(2,Nil))`;
//! * `String`: the string itself at the top level (`toString` of a string is the identity);
//!   inside a constructor between double quotes: `Person("Ann",True)`. TorXakis puts the
//!   characters between the quotes as they are, so a `"` inside would make text it cannot read
//!   back; here `"` and `\` (and control characters) are escaped as in TorXakis's string
//!   literals (`\"`, `\\`, `\n`, `\DDD`), which reads back the same in both tools, and is the
//!   same text as TorXakis's for every string without those characters.
//!
//! What TorXakis reads (`fromString`): for `Int` Haskell's `read` (blanks around, parentheses,
//! `-7`, `(-7)`, hexadecimal `0x1F`, octal `0o17`); for `Bool` exactly `True`, `true`,
//! `False` or `false` (blanks around are tolerated here); for a data type a TorXakis value
//! expression, so blanks are allowed between all tokens (`Plus( 4 , 7 )`), values may be in
//! parentheses, negative numbers are `-7`, strings are string literals with escapes,
//! nullary constructors are written `Nil` or `Nil()`. Only constant expressions are read
//! (no arithmetic or function calls).
//!
//! The parse is directed by the expected type, so errors say what was expected where, with
//! the column in the line ([`TextError`]). Integers are 64-bit (the IR's); a longer literal is
//! an error that says so.

use crate::ir::{Defs, Type, Value};
use std::fmt;

/// Nesting deeper than this (parentheses and constructors) is refused, so that a hostile line
/// cannot overflow the stack.
const MAX_DEPTH: usize = 200;

/// `toString(v)`: the TorXakis text of a value (see the module documentation).
pub fn to_string(defs: &Defs, v: &Value) -> String {
    let mut s = String::new();
    write_value(defs, v, &mut s);
    s
}

/// Appends `toString(v)` to `out`.
pub fn write_value(defs: &Defs, v: &Value, out: &mut String) {
    // a string is itself at the top level; inside a constructor it is quoted
    if let Value::Str(s) = v {
        return out.push_str(s);
    }
    write_nested(defs, v, out)
}

/// A value inside a constructor (strings quoted).
fn write_nested(defs: &Defs, v: &Value, out: &mut String) {
    use std::fmt::Write;
    match v {
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Adt(t, c, fields) => {
            out.push_str(&defs.types[*t as usize].ctors[*c as usize].name);
            if !fields.is_empty() {
                out.push('(');
                for (i, f) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_nested(defs, f, out);
                }
                out.push(')');
            }
        }
        Value::Str(s) => write_string_literal(s, out),
    }
}

/// Appends `s` as a TorXakis string literal: between double quotes, `"` and `\` escaped, and
/// control characters as `\n`, `\t`, `\r` or `\DDD` (decimal), as TorXakis reads them.
pub fn write_string_literal(s: &str, out: &mut String) {
    use std::fmt::Write;
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\{}", c as u32);
                // `\12` followed by a digit would read as one longer number: `\&` ends it
                if chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                    out.push_str("\\&");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A line that is not a value of the expected type: what was expected, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    /// What was expected and what was found.
    pub message: String,
    /// Column of the problem in the text (1-based, in characters).
    pub column: usize,
    /// The problem is an integer literal beyond the 64-bit range: the text may well be a
    /// value of an unbounded `Int`, which ioco cannot judge (an error, not a Fail).
    pub too_big: bool,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for TextError {}

/// `fromString(text)` for a value of type `ty` (see the module documentation).
pub fn from_string(defs: &Defs, ty: Type, text: &str) -> Result<Value, TextError> {
    let mut p = Parser {
        defs,
        s: text,
        pos: 0,
    };
    let v = match ty {
        // the whole text is the string: TorXakis's `fromString` of a string is the identity
        Type::Str(..) => return Ok(Value::Str(text.into())),
        Type::Bool => {
            let word = text.trim();
            match word {
                "True" | "true" | "False" | "false" => {
                    p.pos = text.len();
                    Value::Bool(word.starts_with(['T', 't']))
                }
                _ => {
                    p.pos = text.len() - text.trim_start().len();
                    return Err(p.error(format!(
                        "expected a Bool (True or False), found {}",
                        p.found()
                    )));
                }
            }
        }
        Type::Int | Type::Range(..) => {
            p.ws();
            let v = p.read_int(0)?;
            p.ws();
            v
        }
        Type::Adt(_) => {
            p.ws();
            let v = p.value(ty, 0)?;
            p.ws();
            v
        }
    };
    if p.pos < text.len() {
        return Err(p.error(format!(
            "unexpected {} after the value {}",
            p.found(),
            to_string(defs, &v)
        )));
    }
    if !defs.contains(ty, &v) {
        p.pos = text.len() - text.trim_start().len();
        return Err(p.error(format!(
            "{} is not a value of {}",
            to_string(defs, &v),
            defs.type_name(ty)
        )));
    }
    Ok(v)
}

struct Parser<'a> {
    defs: &'a Defs,
    s: &'a str,
    /// Byte offset.
    pos: usize,
}

impl<'a> Parser<'a> {
    fn rest(&self) -> &'a str {
        &self.s[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn ws(&mut self) {
        let r = self.rest();
        self.pos += r.len() - r.trim_start().len();
    }

    fn eat(&mut self, c: char) -> bool {
        self.ws();
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// What is at the current position, for an error message.
    fn found(&self) -> String {
        let r = self.rest();
        if r.is_empty() {
            return "the end of the line".into();
        }
        let token: String = match r.chars().next() {
            Some(c) if c.is_alphanumeric() || c == '_' => r
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .take(40)
                .collect(),
            _ => r.chars().take(1).collect(),
        };
        format!("`{token}`")
    }

    fn error(&self, message: String) -> TextError {
        TextError {
            message,
            column: self.s[..self.pos].chars().count() + 1,
            too_big: false,
        }
    }

    fn deep(&self, depth: usize) -> Result<(), TextError> {
        if depth > MAX_DEPTH {
            return Err(self.error(format!("values nested deeper than {MAX_DEPTH} levels")));
        }
        Ok(())
    }

    /// Haskell's `read` of an `Integer`: `(`s around, `-`, a literal.
    fn read_int(&mut self, depth: usize) -> Result<Value, TextError> {
        self.deep(depth)?;
        if self.eat('(') {
            let v = self.read_int(depth + 1)?;
            if !self.eat(')') {
                return Err(self.error(format!("expected `)`, found {}", self.found())));
            }
            return Ok(v);
        }
        self.int_literal()
    }

    /// `-`? blanks? digits (or `0x..`, `0o..`).
    fn int_literal(&mut self) -> Result<Value, TextError> {
        self.ws();
        let start = self.pos;
        let neg = self.peek() == Some('-');
        if neg {
            self.pos += 1;
            self.ws();
        }
        let r = self.rest();
        let (radix, skip) = match r.get(..2) {
            Some("0x" | "0X") => (16, 2),
            Some("0o" | "0O") => (8, 2),
            _ => (10, 0),
        };
        let digits: &str = {
            let body = &r[skip..];
            let n = body
                .find(|c: char| !c.is_digit(radix))
                .unwrap_or(body.len());
            &body[..n]
        };
        if digits.is_empty() {
            if skip == 0 {
                return Err(self.error(format!("expected an Int, found {}", self.found())));
            }
            self.pos += skip;
            return Err(self.error(format!(
                "expected {} digits, found {}",
                if radix == 16 { "hexadecimal" } else { "octal" },
                self.found()
            )));
        }
        let magnitude = u128::from_str_radix(digits, radix).ok();
        let value = magnitude.and_then(|m| {
            if neg {
                0i128.checked_sub(m as i128)
            } else {
                Some(m as i128)
            }
            .and_then(|v| i64::try_from(v).ok())
        });
        let Some(v) = value else {
            self.pos = start;
            let mut e = self.error(format!(
                "the integer {}{} is beyond the 64-bit range ioco computes with (±{})",
                if neg { "-" } else { "" },
                &r[..skip + digits.len()],
                i64::MAX
            ));
            e.too_big = true;
            return Err(e);
        };
        self.pos += skip + digits.len();
        // `12abc`: a number glued to a name is no number
        if self.peek().is_some_and(|c| c.is_alphanumeric() || c == '_') {
            return Err(self.error(format!("unexpected {} after a number", self.found())));
        }
        Ok(Value::Int(v))
    }

    /// A value of type `ty` inside a value expression.
    fn value(&mut self, ty: Type, depth: usize) -> Result<Value, TextError> {
        self.deep(depth)?;
        self.ws();
        if self.peek() == Some('(') {
            self.pos += 1;
            let v = self.value(ty, depth + 1)?;
            if !self.eat(')') {
                return Err(self.error(format!("expected `)`, found {}", self.found())));
            }
            return Ok(v);
        }
        match ty {
            Type::Str(..) => Ok(Value::Str(self.string_literal()?.into())),
            Type::Bool => {
                let w = self.word();
                match w {
                    "True" | "true" => {
                        self.pos += w.len();
                        Ok(Value::Bool(true))
                    }
                    "False" | "false" => {
                        self.pos += w.len();
                        Ok(Value::Bool(false))
                    }
                    _ => Err(self.error(format!(
                        "expected a Bool (True or False), found {}",
                        self.found()
                    ))),
                }
            }
            Type::Int => self.int_literal(),
            Type::Range(..) => {
                self.ws();
                let at = self.pos;
                let v = self.int_literal()?;
                if !self.defs.contains(ty, &v) {
                    self.pos = at;
                    return Err(self.error(format!(
                        "{} is not a value of {}",
                        to_string(self.defs, &v),
                        self.defs.type_name(ty)
                    )));
                }
                Ok(v)
            }
            Type::Adt(t) => {
                let def = &self.defs.types[t as usize];
                let name = self.word();
                let Some(ci) = def.ctors.iter().position(|c| c.name == name) else {
                    let names: Vec<&str> = def.ctors.iter().map(|c| c.name.as_str()).collect();
                    return Err(self.error(format!(
                        "expected a value of {} (a constructor: {}), found {}",
                        def.name,
                        names.join(", "),
                        self.found()
                    )));
                };
                let ctor = &def.ctors[ci];
                self.pos += name.len();
                let mut fields = Vec::with_capacity(ctor.fields.len());
                if self.eat('(') {
                    if !(ctor.fields.is_empty() && self.eat(')')) {
                        for (k, (fname, fty)) in ctor.fields.iter().enumerate() {
                            if k > 0 && !self.eat(',') {
                                return Err(self.error(format!(
                                    "expected `,` and field `{fname}` of {}, found {}",
                                    ctor.name,
                                    self.found()
                                )));
                            }
                            fields.push(self.value(*fty, depth + 1)?);
                        }
                        if !self.eat(')') {
                            let what = if self.peek() == Some(',') {
                                format!(
                                    "{} has {} field(s), found more",
                                    ctor.name,
                                    ctor.fields.len()
                                )
                            } else {
                                format!("expected `)` after the fields of {}", ctor.name)
                            };
                            return Err(self.error(format!("{what}, found {}", self.found())));
                        }
                    }
                } else if !ctor.fields.is_empty() {
                    return Err(self.error(format!(
                        "expected `(` and the {} field(s) of {}, found {}",
                        ctor.fields.len(),
                        ctor.name,
                        self.found()
                    )));
                }
                Ok(Value::Adt(t, ci as u32, fields.into()))
            }
        }
    }

    /// The identifier at the current position (not consumed).
    fn word(&self) -> &'a str {
        let r = self.rest();
        let n = r
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(r.len());
        &r[..n]
    }

    /// A string literal (`"..."` with TorXakis's escapes), for strings inside constructors.
    fn string_literal(&mut self) -> Result<String, TextError> {
        self.ws();
        if self.peek() != Some('"') {
            return Err(self.error(format!(
                "expected a String literal (\"...\"), found {}",
                self.found()
            )));
        }
        let open = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                self.pos = open;
                return Err(self.error("a string literal without its closing `\"`".into()));
            };
            self.pos += c.len_utf8();
            match c {
                '"' => return Ok(out),
                '\\' => self.escape(&mut out)?,
                c => out.push(c),
            }
        }
    }

    /// After a `\` in a string literal.
    fn escape(&mut self, out: &mut String) -> Result<(), TextError> {
        let at = self.pos - 1;
        let Some(c) = self.peek() else {
            return Err(self.error("a `\\` at the end of the line".into()));
        };
        self.pos += c.len_utf8();
        let simple = match c {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'f' => Some('\u{c}'),
            'v' => Some('\u{b}'),
            '\\' | '"' | '\'' => Some(c),
            '&' => return Ok(()),
            _ => None,
        };
        if let Some(s) = simple {
            out.push(s);
            return Ok(());
        }
        let (radix, from) = match c {
            'x' => (16, self.pos),
            'o' => (8, self.pos),
            d if d.is_ascii_digit() => (10, self.pos - 1),
            _ => {
                self.pos = at;
                return Err(self.error(format!("unknown escape `\\{c}` in a string literal")));
            }
        };
        let r = &self.s[from..];
        let n = r.find(|c: char| !c.is_digit(radix)).unwrap_or(r.len());
        let code = u32::from_str_radix(&r[..n], radix)
            .ok()
            .and_then(char::from_u32);
        match code {
            Some(ch) if n > 0 => {
                out.push(ch);
                self.pos = from + n;
                Ok(())
            }
            _ => {
                self.pos = at;
                Err(self.error("a numeric escape that is not a character".into()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{AdtDef, CtorDef};
    use crate::span::Span;

    fn defs() -> Defs {
        let ctor = |n: &str, f: &[Type]| CtorDef {
            name: n.into(),
            fields: f
                .iter()
                .enumerate()
                .map(|(i, t)| (format!("f{i}"), *t))
                .collect(),
        };
        Defs {
            types: vec![
                AdtDef {
                    name: "Operation".into(),
                    ctors: vec![
                        ctor("Plus", &[Type::Int, Type::Int]),
                        ctor("Minus", &[Type::Int, Type::Int]),
                    ],
                    span: Span::default(),
                },
                AdtDef {
                    name: "IntList".into(),
                    ctors: vec![ctor("Nil", &[]), ctor("Cons", &[Type::Int, Type::Adt(1)])],
                    span: Span::default(),
                },
                AdtDef {
                    name: "Flag".into(),
                    ctors: vec![ctor("Flag", &[Type::Bool, Type::Range(0, 9)])],
                    span: Span::default(),
                },
            ],
            functions: vec![],
            ..Defs::default()
        }
    }

    fn plus(a: i64, b: i64) -> Value {
        Value::Adt(0, 0, vec![Value::Int(a), Value::Int(b)].into())
    }

    #[test]
    fn torxakis_text_of_values() {
        let d = defs();
        assert_eq!(to_string(&d, &plus(4, -7)), "Plus(4,-7)");
        let nil = Value::Adt(1, 0, vec![].into());
        let l = Value::Adt(1, 1, vec![Value::Int(1), nil.clone()].into());
        assert_eq!(to_string(&d, &l), "Cons(1,Nil)");
        assert_eq!(to_string(&d, &Value::Bool(false)), "False");
        assert_eq!(to_string(&d, &Value::Int(-12)), "-12");
        let mut s = String::new();
        write_string_literal("a\"b\\c\nd\u{1}7é", &mut s);
        assert_eq!(s, r#""a\"b\\c\nd\1\&7é""#);
    }

    #[test]
    fn from_string_accepts_what_torxakis_reads() {
        let d = defs();
        let op = Type::Adt(0);
        for text in [
            "Plus(4,7)",
            "Plus(4, 7)",
            " Plus ( 4 , 7 ) ",
            "(Plus(4,7))",
            "Plus((4),7)",
        ] {
            assert_eq!(from_string(&d, op, text), Ok(plus(4, 7)), "{text}");
        }
        assert_eq!(from_string(&d, op, "Minus(-4,- 7)").unwrap(), {
            Value::Adt(0, 1, vec![Value::Int(-4), Value::Int(-7)].into())
        });
        for (text, v) in [
            ("42", 42),
            (" -42 ", -42),
            ("(-42)", -42),
            ("0x1F", 31),
            ("0o17", 15),
        ] {
            assert_eq!(
                from_string(&d, Type::Int, text),
                Ok(Value::Int(v)),
                "{text}"
            );
        }
        for (text, b) in [("True", true), ("true", true), ("False", false)] {
            assert_eq!(from_string(&d, Type::Bool, text), Ok(Value::Bool(b)));
        }
        let nil = Value::Adt(1, 0, vec![].into());
        assert_eq!(from_string(&d, Type::Adt(1), "Nil()"), Ok(nil.clone()));
        assert_eq!(
            from_string(&d, Type::Adt(2), "Flag(True, 3)"),
            Ok(Value::Adt(
                2,
                0,
                vec![Value::Bool(true), Value::Int(3)].into()
            ))
        );
    }

    #[test]
    fn errors_say_what_was_expected_where() {
        let d = defs();
        let op = Type::Adt(0);
        let e = from_string(&d, op, "Plus(4 7)").unwrap_err();
        assert_eq!(e.column, 8, "{e}");
        assert!(e.message.contains("expected `,`"), "{e}");
        let e = from_string(&d, op, "Times(1,2)").unwrap_err();
        assert_eq!(e.column, 1);
        assert!(e.message.contains("Plus, Minus"), "{e}");
        let e = from_string(&d, op, "Plus(1,2,3)").unwrap_err();
        assert!(e.message.contains("2 field(s)"), "{e}");
        let e = from_string(&d, op, "Plus(1,2) x").unwrap_err();
        assert_eq!(e.column, 11);
        assert!(e.message.contains("unexpected `x`"), "{e}");
        let e = from_string(&d, Type::Int, "99999999999999999999").unwrap_err();
        assert!(e.message.contains("64-bit") && e.too_big, "{e}");
        let e = from_string(&d, Type::Int, "+5").unwrap_err();
        assert!(e.message.contains("expected an Int"), "{e}");
        let e = from_string(&d, Type::Bool, "yes").unwrap_err();
        assert!(e.message.contains("True or False"), "{e}");
        let e = from_string(&d, Type::Adt(2), "Flag(True,10)").unwrap_err();
        assert!(e.message.contains("10 is not a value of int[0..9]"), "{e}");
        assert_eq!(e.column, 11);
        let e = from_string(&d, Type::Adt(1), "").unwrap_err();
        assert!(e.message.contains("the end of the line"), "{e}");
        let deep = "(".repeat(10_000) + "1";
        let e = from_string(&d, Type::Int, &deep).unwrap_err();
        assert!(e.message.contains("nested deeper"), "{e}");
    }

    #[test]
    fn string_literals_read_back() {
        let d = defs();
        for s in [
            "",
            "plain",
            "a\"b",
            "back\\slash",
            "tab\tnl\n",
            "\u{1}1",
            "ü∀",
        ] {
            let mut lit = String::new();
            write_string_literal(s, &mut lit);
            let mut p = Parser {
                defs: &d,
                s: &lit,
                pos: 0,
            };
            assert_eq!(p.string_literal().as_deref(), Ok(s), "{lit}");
            assert_eq!(p.pos, lit.len());
        }
        let mut p = Parser {
            defs: &d,
            s: r#""\x41\o101\65\&5""#,
            pos: 0,
        };
        assert_eq!(p.string_literal().as_deref(), Ok("AAA5"));
        let mut p = Parser {
            defs: &d,
            s: r#""open"#,
            pos: 0,
        };
        assert!(p.string_literal().unwrap_err().message.contains("closing"));
    }
}
