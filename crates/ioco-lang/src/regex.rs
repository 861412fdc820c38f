//! Regular expressions over strings: the XSD-style syntax TorXakis uses in `REGEX('...')`
//! (docs/language.md §3), parsed into a small AST shared by both engines: the explicit
//! evaluator matches with [`Regex::is_match`] (always the whole string, as XSD and SMT-LIB's
//! `str.in_re` do), the symbolic engine translates [`Re`] into an SMT-LIB regular expression.
//!
//! Syntax: branches separated by `|`; pieces are atoms with an optional quantifier `?`, `*`,
//! `+`, `{n}`, `{n,}` or `{n,m}`; atoms are a character, `.` (any character but `\n` and
//! `\r`), a class `[a-z_]` or `[^0-9]` (ranges, single characters and escapes), a group
//! `( … )`, or an escape: `\n`, `\r`, `\t`, `\d` (`[0-9]`), `\s` (`[ \t\n\r]`), `\w`
//! (`[A-Za-z0-9_]`), their complements `\D`, `\S`, `\W`, `\u{hex}`, or a backslash before any
//! other punctuation (`\.`, `\/`, `\-`, `\[` …) for that character. `^` and `$` are ordinary
//! characters (as in XSD: a match is always of the whole string). Not supported: class
//! subtraction (`[a-z-[aeiou]]`) and Unicode categories (`\p{..}`).

use std::fmt;

/// The largest character.
const MAX: u32 = char::MAX as u32;

/// A node of a regular expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Re {
    /// The empty string.
    Empty,
    /// One character from a set: sorted, disjoint, non-adjacent inclusive ranges (empty: no
    /// string matches).
    Class(Vec<(char, char)>),
    /// A sequence.
    Concat(Vec<Re>),
    /// A choice.
    Alt(Vec<Re>),
    /// `min` to `max` repetitions (`None`: unbounded).
    Repeat(Box<Re>, u32, Option<u32>),
}

/// A parsed regular expression with its source text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Regex {
    /// The source text (without delimiters).
    pub source: String,
    /// The tree.
    pub re: Re,
}

/// A syntax error: what is wrong, at which byte offset of the source, and a hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegexError {
    /// Byte offset into the source.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub hint: String,
}

/// Largest count accepted in `{n,m}`.
pub const MAX_COUNT: u32 = 10_000;

impl Regex {
    /// Parses the XSD-style syntax described in the module documentation.
    pub fn parse(source: &str) -> Result<Regex, RegexError> {
        let mut p = P {
            s: source,
            pos: 0,
            depth: 0,
        };
        let re = p.alt()?;
        if p.pos < source.len() {
            let c = p.peek().unwrap_or(')');
            return Err(p.err(
                format!("unexpected `{}`", c),
                if c == ')' {
                    "this `)` has no matching `(`: escape it as `\\)`"
                } else {
                    "escape it with a backslash"
                },
            ));
        }
        Ok(Regex {
            source: source.to_string(),
            re,
        })
    }

    /// True when the regular expression matches the whole string.
    pub fn is_match(&self, s: &str) -> bool {
        let chars: Vec<char> = s.chars().collect();
        let mut start = vec![false; chars.len() + 1];
        start[0] = true;
        ends(&self.re, &chars, &start)[chars.len()]
    }

    /// All strings of the language if it is finite and has at most `limit` strings (`None`
    /// otherwise), sorted.
    pub fn language(&self, limit: usize) -> Option<Vec<String>> {
        let mut v = lang(&self.re, limit)?;
        v.sort();
        v.dedup();
        Some(v)
    }
}

impl fmt::Display for Regex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

/// Positions reachable after matching `re` from the positions marked in `from`.
fn ends(re: &Re, s: &[char], from: &[bool]) -> Vec<bool> {
    match re {
        Re::Empty => from.to_vec(),
        Re::Class(ranges) => {
            let mut out = vec![false; from.len()];
            for i in 0..s.len() {
                if from[i] && class_has(ranges, s[i]) {
                    out[i + 1] = true;
                }
            }
            out
        }
        Re::Concat(xs) => {
            let mut cur = from.to_vec();
            for x in xs {
                if !cur.iter().any(|b| *b) {
                    break;
                }
                cur = ends(x, s, &cur);
            }
            cur
        }
        Re::Alt(xs) => {
            let mut out = vec![false; from.len()];
            for x in xs {
                for (o, e) in out.iter_mut().zip(ends(x, s, from)) {
                    *o |= e;
                }
            }
            out
        }
        Re::Repeat(x, min, max) => {
            let mut cur = from.to_vec();
            for _ in 0..*min {
                if !cur.iter().any(|b| *b) {
                    return cur;
                }
                cur = ends(x, s, &cur);
            }
            let mut acc = cur.clone();
            let mut k = *min;
            // every further round either adds a position or stops
            while max.is_none_or(|m| k < m) {
                let next = ends(x, s, &cur);
                let new: Vec<bool> = next.iter().zip(&acc).map(|(n, a)| *n && !*a).collect();
                if !new.iter().any(|b| *b) {
                    break;
                }
                for (a, n) in acc.iter_mut().zip(&next) {
                    *a |= *n;
                }
                // bounded repetition needs every position reached in this round, unbounded
                // only the new ones
                cur = if max.is_some() { next } else { new };
                k += 1;
            }
            acc
        }
    }
}

fn class_has(ranges: &[(char, char)], c: char) -> bool {
    ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi)
}

fn lang(re: &Re, limit: usize) -> Option<Vec<String>> {
    Some(match re {
        Re::Empty => vec![String::new()],
        Re::Class(ranges) => {
            let mut n = 0usize;
            for &(lo, hi) in ranges {
                n += (hi as u32 - lo as u32 + 1) as usize;
                if n > limit {
                    return None;
                }
            }
            ranges
                .iter()
                .flat_map(|&(lo, hi)| (lo..=hi).map(String::from))
                .collect()
        }
        Re::Concat(xs) => {
            let mut out = vec![String::new()];
            for x in xs {
                let l = lang(x, limit)?;
                if out.len().saturating_mul(l.len()) > limit.saturating_mul(4) {
                    return None;
                }
                let mut next = Vec::new();
                for a in &out {
                    for b in &l {
                        next.push(format!("{a}{b}"));
                    }
                }
                next.sort();
                next.dedup();
                if next.len() > limit {
                    return None;
                }
                out = next;
            }
            out
        }
        Re::Alt(xs) => {
            let mut out = Vec::new();
            for x in xs {
                out.extend(lang(x, limit)?);
                out.sort();
                out.dedup();
                if out.len() > limit {
                    return None;
                }
            }
            out
        }
        Re::Repeat(x, min, max) => {
            let max = (*max)?;
            let l = lang(x, limit)?;
            let mut out = Vec::new();
            let mut power = vec![String::new()];
            for k in 0..=max {
                if k >= *min {
                    out.extend(power.iter().cloned());
                    out.sort();
                    out.dedup();
                    if out.len() > limit {
                        return None;
                    }
                }
                if k == max {
                    break;
                }
                let mut next = Vec::new();
                for a in &power {
                    for b in &l {
                        next.push(format!("{a}{b}"));
                    }
                    if next.len() > limit.saturating_mul(4) {
                        return None;
                    }
                }
                next.sort();
                next.dedup();
                if next == power {
                    break;
                }
                power = next;
            }
            out
        }
    })
}

/// Sorts and merges ranges.
fn normalize(mut v: Vec<(char, char)>) -> Vec<(char, char)> {
    v.sort();
    let mut out: Vec<(char, char)> = Vec::new();
    for (lo, hi) in v {
        if let Some(last) = out.last_mut() {
            if lo as u32 <= last.1 as u32 + 1 {
                if hi > last.1 {
                    last.1 = hi;
                }
                continue;
            }
        }
        out.push((lo, hi));
    }
    out
}

fn char_after(c: char) -> Option<char> {
    match c as u32 {
        0xD7FF => Some('\u{E000}'),
        MAX => None,
        n => char::from_u32(n + 1),
    }
}

fn char_before(c: char) -> Option<char> {
    match c as u32 {
        0xE000 => Some('\u{D7FF}'),
        0 => None,
        n => char::from_u32(n - 1),
    }
}

/// The complement of a normalized class.
pub fn complement(v: &[(char, char)]) -> Vec<(char, char)> {
    let mut out = Vec::new();
    let mut next = Some('\0');
    for &(lo, hi) in v {
        if let Some(n) = next {
            if n < lo {
                if let Some(b) = char_before(lo) {
                    out.push((n, b));
                }
            }
        }
        next = char_after(hi);
    }
    if let Some(n) = next {
        out.push((n, char::MAX));
    }
    out
}

struct P<'a> {
    s: &'a str,
    pos: usize,
    depth: usize,
}

impl P<'_> {
    fn peek(&self) -> Option<char> {
        self.s[self.pos..].chars().next()
    }
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }
    fn err(&self, message: String, hint: &str) -> RegexError {
        RegexError {
            offset: self.pos,
            message,
            hint: hint.to_string(),
        }
    }

    fn alt(&mut self) -> Result<Re, RegexError> {
        self.depth += 1;
        if self.depth > 64 {
            return Err(self.err(
                "groups nested more than 64 levels deep".into(),
                "simplify the regular expression",
            ));
        }
        let mut branches = vec![self.branch()?];
        while self.peek() == Some('|') {
            self.bump();
            branches.push(self.branch()?);
        }
        self.depth -= 1;
        Ok(if branches.len() == 1 {
            branches.pop().expect("one")
        } else {
            Re::Alt(branches)
        })
    }

    fn branch(&mut self) -> Result<Re, RegexError> {
        let mut pieces = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            pieces.push(self.quantified(atom)?);
        }
        Ok(match pieces.len() {
            0 => Re::Empty,
            1 => pieces.pop().expect("one"),
            _ => Re::Concat(pieces),
        })
    }

    fn quantified(&mut self, atom: Re) -> Result<Re, RegexError> {
        let (min, max) = match self.peek() {
            Some('?') => (0, Some(1)),
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('{') => {
                let start = self.pos;
                self.bump();
                let min = self.count()?;
                let max = if self.peek() == Some(',') {
                    self.bump();
                    if self.peek() == Some('}') {
                        None
                    } else {
                        Some(self.count()?)
                    }
                } else {
                    Some(min)
                };
                if self.peek() != Some('}') {
                    return Err(self.err(
                        "expected `}` to close the count".into(),
                        "counts are written `{n}`, `{n,}` or `{n,m}`",
                    ));
                }
                self.bump();
                if let Some(m) = max {
                    if m < min {
                        let mut e = self.err(
                            format!(
                                "the count `{{{},{}}}` has its maximum below its minimum",
                                min, m
                            ),
                            "write `{min,max}` with min <= max",
                        );
                        e.offset = start;
                        return Err(e);
                    }
                }
                return self.after_quantifier(Re::Repeat(Box::new(atom), min, max));
            }
            _ => return Ok(atom),
        };
        self.bump();
        self.after_quantifier(Re::Repeat(Box::new(atom), min, max))
    }

    fn after_quantifier(&mut self, re: Re) -> Result<Re, RegexError> {
        if matches!(self.peek(), Some('?' | '*' | '+' | '{')) {
            return Err(self.err(
                "a quantifier cannot follow a quantifier".into(),
                "put the repeated part in a group: `(a*)?`",
            ));
        }
        Ok(re)
    }

    fn count(&mut self) -> Result<u32, RegexError> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
        }
        if start == self.pos {
            return Err(self.err(
                "expected a number in the count".into(),
                "counts are written `{n}`, `{n,}` or `{n,m}`",
            ));
        }
        match self.s[start..self.pos].parse::<u32>() {
            Ok(n) if n <= MAX_COUNT => Ok(n),
            _ => {
                let mut e = self.err(
                    format!("count larger than {}", MAX_COUNT),
                    "use `*` or `+` for long repetitions",
                );
                e.offset = start;
                Err(e)
            }
        }
    }

    fn atom(&mut self) -> Result<Re, RegexError> {
        let start = self.pos;
        let c = self.bump().expect("atom at end");
        Ok(match c {
            '(' => {
                let inner = self.alt()?;
                if self.peek() != Some(')') {
                    let mut e = self.err(
                        "unclosed group".into(),
                        "close the group with `)` (a literal `(` is written `\\(`)",
                    );
                    e.offset = start;
                    return Err(e);
                }
                self.bump();
                inner
            }
            '[' => Re::Class(self.class(start)?),
            '.' => Re::Class(complement(&[('\n', '\n'), ('\r', '\r')])),
            '\\' => Re::Class(self.escape(start)?),
            '?' | '*' | '+' | '{' => {
                let mut e = self.err(
                    format!("`{}` has nothing to repeat", c),
                    "escape it with a backslash for the character itself",
                );
                e.offset = start;
                return Err(e);
            }
            ']' | '}' => {
                let mut e = self.err(
                    format!("unexpected `{}`", c),
                    "escape it with a backslash for the character itself",
                );
                e.offset = start;
                return Err(e);
            }
            c => Re::Class(vec![(c, c)]),
        })
    }

    /// After a backslash: the class it stands for.
    fn escape(&mut self, start: usize) -> Result<Vec<(char, char)>, RegexError> {
        let Some(c) = self.bump() else {
            let mut e = self.err(
                "the regular expression ends with a lone backslash".into(),
                "a backslash is written `\\\\`",
            );
            e.offset = start;
            return Err(e);
        };
        let digits = [('0', '9')];
        let space = normalize(vec![(' ', ' '), ('\t', '\t'), ('\n', '\n'), ('\r', '\r')]);
        let word = normalize(vec![('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')]);
        Ok(match c {
            'n' => vec![('\n', '\n')],
            'r' => vec![('\r', '\r')],
            't' => vec![('\t', '\t')],
            'd' => digits.to_vec(),
            'D' => complement(&digits),
            's' => space,
            'S' => complement(&space),
            'w' => word,
            'W' => complement(&word),
            'u' if self.peek() == Some('{') => {
                self.bump();
                let hs = self.pos;
                while self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                    self.bump();
                }
                let code = u32::from_str_radix(&self.s[hs..self.pos], 16)
                    .ok()
                    .and_then(char::from_u32);
                if self.peek() != Some('}') || code.is_none() {
                    let mut e = self.err(
                        "bad `\\u{..}` escape".into(),
                        "write a character code in hexadecimal: `\\u{e9}`",
                    );
                    e.offset = start;
                    return Err(e);
                }
                self.bump();
                let ch = code.expect("checked");
                vec![(ch, ch)]
            }
            c if c.is_ascii_punctuation() || c == ' ' => vec![(c, c)],
            c => {
                let mut e = self.err(
                    format!("unknown escape `\\{}`", c),
                    "known escapes: \\n \\r \\t \\d \\D \\s \\S \\w \\W \\u{hex}, and a backslash before punctuation",
                );
                e.offset = start;
                return Err(e);
            }
        })
    }

    fn class(&mut self, start: usize) -> Result<Vec<(char, char)>, RegexError> {
        let negated = self.peek() == Some('^');
        if negated {
            self.bump();
        }
        let mut out: Vec<(char, char)> = Vec::new();
        let mut first = true;
        loop {
            let item_start = self.pos;
            let Some(c) = self.bump() else {
                let mut e = self.err(
                    "unclosed character class".into(),
                    "close the class with `]` (a literal `[` is written `\\[`)",
                );
                e.offset = start;
                return Err(e);
            };
            if c == ']' && !first {
                break;
            }
            first = false;
            let lo: Vec<(char, char)> = match c {
                '\\' => self.escape(item_start)?,
                '[' => {
                    let mut e = self.err(
                        "`[` inside a character class".into(),
                        "class subtraction `[a-z-[aeiou]]` is not supported; a literal `[` is written `\\[`",
                    );
                    e.offset = item_start;
                    return Err(e);
                }
                c => vec![(c, c)],
            };
            // a range `a-z` (a `-` first, last, or after a range is itself)
            if self.peek() == Some('-') && lo.len() == 1 && lo[0].0 == lo[0].1 {
                let save = self.pos;
                self.bump();
                match self.peek() {
                    Some(']') | None => {
                        self.pos = save;
                    }
                    Some(_) => {
                        let hs = self.pos;
                        let hc = self.bump().expect("peeked");
                        let hi = if hc == '\\' {
                            let h = self.escape(hs)?;
                            if h.len() != 1 || h[0].0 != h[0].1 {
                                let mut e = self.err(
                                    "a range must end in a single character".into(),
                                    "write `[a-z]`; put a `-` last for the character itself",
                                );
                                e.offset = hs;
                                return Err(e);
                            }
                            h[0].0
                        } else if hc == '[' {
                            let mut e = self.err(
                                "class subtraction is not supported".into(),
                                "list the characters instead: `[b-df-hj-np-tv-z]`",
                            );
                            e.offset = hs;
                            return Err(e);
                        } else {
                            hc
                        };
                        if hi < lo[0].0 {
                            let mut e = self.err(
                                format!("empty range `{}-{}`", lo[0].0, hi),
                                "the first character of a range must not come after the second",
                            );
                            e.offset = item_start;
                            return Err(e);
                        }
                        out.push((lo[0].0, hi));
                        continue;
                    }
                }
            }
            out.extend(lo);
        }
        let v = normalize(out);
        Ok(if negated { complement(&v) } else { v })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(re: &str, s: &str) -> bool {
        Regex::parse(re).unwrap().is_match(s)
    }

    #[test]
    fn corpus_expressions() {
        assert!(m("[A-Z][0-9]{2}[a-z]+", "N22s"));
        assert!(!m("[A-Z][0-9]{2}[a-z]+", "N22"));
        assert!(!m("[A-Z][0-9]{2}[a-z]+", "N2s"));
        assert!(m("[A-Z]{2}[0-9][a-z]*", "AB1"));
        assert!(m("[A-Z]{2}[0-9][a-z]*", "AB1xyz"));
        assert!(!m("[A-Z]{2}[0-9][a-z]*", "A1"));
        assert!(m("[A-Z]*", ""));
        assert!(m("[A-Z]{1,3}", "ABC"));
        assert!(!m("[A-Z]{1,3}", "ABCD"));
        assert!(!m("[A-Z]{1,3}", ""));
        assert!(m("[\\t\\r\\n -]*", " -\t\n"));
        assert!(!m("[\\t\\r\\n -]*", "x"));
        assert!(m("[A-Z][a-z]*", "Alice"));
    }

    #[test]
    fn operators() {
        assert!(m("ab|cd", "cd"));
        assert!(m("(ab)+", "ababab"));
        assert!(!m("(ab)+", "aba"));
        assert!(m("a?b", "b"));
        assert!(m("a{2,}", "aaaa"));
        assert!(!m("a{2,}", "a"));
        assert!(m("\\d+\\.\\d", "12.5"));
        assert!(m("[^a-z]", "A"));
        assert!(!m("[^a-z]", "q"));
        assert!(m(".", "é"));
        assert!(!m(".", "\n"));
        assert!(m("", ""));
        assert!(m("(a|)*b", "aab"));
        assert!(m("[a-]", "-"));
        assert!(m("\\u{e9}", "é"));
        assert!(m("(a{0,2}){2}", "aaa"));
    }

    #[test]
    fn errors_have_offsets() {
        let e = Regex::parse("[A-Z").unwrap_err();
        assert_eq!(e.offset, 0);
        let e = Regex::parse("ab)").unwrap_err();
        assert_eq!(e.offset, 2);
        let e = Regex::parse("a{3,1}").unwrap_err();
        assert!(e.message.contains("maximum"));
        assert!(Regex::parse("*a").is_err());
        assert!(Regex::parse("a**").is_err());
        assert!(Regex::parse("[z-a]").is_err());
        assert!(Regex::parse("\\q").is_err());
        assert!(Regex::parse("a{99999999}").is_err());
    }

    #[test]
    fn finite_languages() {
        let r = Regex::parse("[ab]{1,2}").unwrap();
        assert_eq!(
            r.language(100).unwrap(),
            vec!["a", "aa", "ab", "b", "ba", "bb"]
        );
        assert!(Regex::parse("a*").unwrap().language(100).is_none());
        assert!(Regex::parse(".").unwrap().language(100).is_none());
    }

    #[test]
    fn complement_is_exact() {
        let c = complement(&[('b', 'c')]);
        assert_eq!(c[0], ('\0', 'a'));
        assert_eq!(c[1].0, 'd');
        assert_eq!(complement(&c), vec![('b', 'c')]);
    }
}
