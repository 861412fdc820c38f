//! Aldebaran `.aut` (CADP), with the label conventions of JTorX.
//!
//! ```text
//! des (0, 3, 3)
//! (0, "coin?", 1)
//! (1, tea!, 2)
//! (2, "tau", 0)
//! ```
//!
//! * Header `des (first, ntrans, nstates)`: the initial state, the number of transition lines
//!   and the number of states; states are `0..nstates`. A header that disagrees with the body
//!   (fewer or more transition lines, a state out of range) is an error pointing at the line.
//! * One transition per line: `(from, label, to)`. The label is everything between the first
//!   and the last comma of the line, trimmed; surrounding double quotes are removed, so a quoted
//!   label may contain commas and quotes. Blank lines are allowed anywhere.
//! * Labels follow [`crate::label`]: `a?`/`?a` input, `b!`/`!b` output, `tau`/`i` internal,
//!   `delta`/`δ` explicit quiescence. **A label without a direction marker is an error** (with a
//!   hint): guessing a direction would silently change every verdict.
//! * A header declaring more than `max(2^20, 4 × file size)` states is rejected as implausible
//!   (it would allocate memory for states no line can mention).
//!
//! The parser is hand-written and byte level: one pass, no regex, no allocation per line
//! except the first time a label is seen. It is linear in the file size (see `benches/parse.rs`).
//!
//! The writer emits exactly this format with every label quoted. `.aut` has one initial state:
//! an LTS with several initial states is written with a fresh initial state that has a τ to each
//! of them (the same traces and, under the stable quiescence policy, the same suspension traces).

use crate::error::FormatError;
use crate::label::{classify, written, Classified, UNMARKED_HINT};
use ioco_model::{Label, LabelKind, Lts, LtsBuilder};
use rustc_hash::FxHashMap;
use std::fmt::Write;

const HEADER_HINT: &str =
    "the first line of an .aut file is `des (first_state, number_of_transitions, number_of_states)`";
const LINE_HINT: &str = "a transition line is `(from_state, \"label\", to_state)`";

#[inline]
fn is_ws(b: u8) -> bool {
    b == b' ' || b == b'\t' || b == b'\r'
}

struct Cursor<'a> {
    src: &'a str,
    b: &'a [u8],
    file: &'a str,
}

impl<'a> Cursor<'a> {
    fn err(&self, a: usize, z: usize, msg: impl Into<String>) -> FormatError {
        FormatError::at(self.file, self.src, a, z, msg)
    }

    fn skip_ws(&self, mut i: usize, end: usize) -> usize {
        while i < end && is_ws(self.b[i]) {
            i += 1;
        }
        i
    }

    /// Parse a decimal number at `i` (no sign). Returns the value and the end.
    fn number(&self, i: usize, end: usize, what: &str) -> Result<(u64, usize), FormatError> {
        let mut j = i;
        let mut v: u64 = 0;
        while j < end && self.b[j].is_ascii_digit() {
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add((self.b[j] - b'0') as u64))
                .filter(|&v| v <= u32::MAX as u64)
                .ok_or_else(|| {
                    self.err(i, j + 1, format!("{what} is too large"))
                        .hint("state numbers and counts must fit in 32 bits")
                })?;
            j += 1;
        }
        if j == i {
            let z = (i + 1).min(end.max(i));
            return Err(self
                .err(i, z, format!("expected {what}"))
                .expected(format!("a number ({what})")));
        }
        Ok((v, j))
    }

    fn expect(&self, i: usize, end: usize, c: u8, hint: &str) -> Result<usize, FormatError> {
        if i < end && self.b[i] == c {
            Ok(i + 1)
        } else {
            Err(self
                .err(
                    i,
                    (i + 1).min(self.b.len()),
                    format!("expected `{}`", c as char),
                )
                .expected(format!("`{}`", c as char))
                .hint(hint))
        }
    }
}

fn line_end(b: &[u8], from: usize) -> usize {
    b[from..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |p| from + p)
}

/// Parse an `.aut` file. `file` is used in error messages only.
pub fn parse(src: &str, file: &str) -> Result<Lts, FormatError> {
    let c = Cursor {
        src,
        b: src.as_bytes(),
        file,
    };
    let b = c.b;
    // Header: skip leading blank lines.
    let mut pos = 0;
    loop {
        let e = line_end(b, pos);
        let i = c.skip_ws(pos, e);
        if i < e || e == b.len() {
            break;
        }
        pos = e + 1;
    }
    let hend = line_end(b, pos);
    let mut i = c.skip_ws(pos, hend);
    if !src[i..hend].starts_with("des") {
        return Err(c
            .err(i, (i + 3).min(hend.max(i)), "missing `des` header")
            .expected("`des (first, transitions, states)`")
            .hint(HEADER_HINT));
    }
    i = c.skip_ws(i + 3, hend);
    i = c.expect(i, hend, b'(', HEADER_HINT)?;
    i = c.skip_ws(i, hend);
    let first_at = i;
    let (first, j) = c.number(i, hend, "the initial state")?;
    i = c.skip_ws(j, hend);
    i = c.expect(i, hend, b',', HEADER_HINT)?;
    i = c.skip_ws(i, hend);
    let ntrans_at = i;
    let (ntrans, j) = c.number(i, hend, "the number of transitions")?;
    let ntrans_end = j;
    i = c.skip_ws(j, hend);
    i = c.expect(i, hend, b',', HEADER_HINT)?;
    i = c.skip_ws(i, hend);
    let nstates_at = i;
    let (nstates, j) = c.number(i, hend, "the number of states")?;
    i = c.skip_ws(j, hend);
    i = c.expect(i, hend, b')', HEADER_HINT)?;
    i = c.skip_ws(i, hend);
    if i < hend {
        return Err(c
            .err(i, hend, "unexpected text after the header")
            .expected("the end of the line")
            .hint(HEADER_HINT));
    }
    if nstates == 0 {
        return Err(c
            .err(nstates_at, j, "the header declares no states")
            .hint("an LTS needs at least its initial state: `des (0, 0, 1)`"));
    }
    let cap = (src.len() as u64 * 4).max(1 << 20);
    if nstates > cap {
        return Err(c
            .err(
                nstates_at,
                j,
                format!("implausible number of states: {nstates}"),
            )
            .hint(format!(
                "a file of {} bytes may declare at most {cap} states",
                src.len()
            )));
    }
    if first >= nstates {
        return Err(c
            .err(
                first_at,
                first_at + first.to_string().len(),
                format!("initial state {first} does not exist: the header declares {nstates} states (0..{})", nstates - 1),
            )
            .hint(HEADER_HINT));
    }

    let mut builder = LtsBuilder::new(ioco_model::Alphabet::new());
    builder.add_states(nstates as usize);
    builder.add_initial(first as u32);
    builder.reserve((ntrans as usize).min(src.len() / 8 + 1));
    let mut labels: FxHashMap<&str, Label> = FxHashMap::default();
    let mut count: u64 = 0;

    pos = if hend < b.len() { hend + 1 } else { b.len() };
    while pos < b.len() {
        let e = line_end(b, pos);
        let mut i = c.skip_ws(pos, e);
        if i == e {
            pos = e + 1;
            continue;
        }
        let line_start = i;
        // Right end: trailing whitespace, then `)`.
        let mut z = e;
        while z > i && is_ws(b[z - 1]) {
            z -= 1;
        }
        if b[i] != b'(' {
            return Err(c
                .err(i, i + 1, "expected a transition `(from, label, to)`")
                .expected("`(`")
                .hint(LINE_HINT));
        }
        if b[z - 1] != b')' || z - 1 == i {
            return Err(c
                .err(z - 1, z, "a transition line must end with `)`")
                .expected("`)`")
                .hint(LINE_HINT));
        }
        count += 1;
        if count > ntrans {
            return Err(c
                .err(line_start, z, format!(
                    "transition {count} is one more than the {ntrans} transitions declared in the header (line 1)"
                ))
                .hint("fix the second number of the `des` header, or remove the extra lines"));
        }
        let close = z - 1;
        // from
        i = c.skip_ws(i + 1, close);
        let (from, j) = c.number(i, close, "the source state")?;
        let from_span = (i, j);
        i = c.skip_ws(j, close);
        i = c.expect(i, close, b',', LINE_HINT)?;
        // to: scan back from `)`.
        let mut k = close;
        while k > i && is_ws(b[k - 1]) {
            k -= 1;
        }
        let to_end = k;
        while k > i && b[k - 1].is_ascii_digit() {
            k -= 1;
        }
        let to_start = k;
        if to_start == to_end {
            return Err(c
                .err(
                    to_end.saturating_sub(1).max(i),
                    to_end.max(i + 1).min(close + 1),
                    "expected the target state before `)`",
                )
                .expected("a number (the target state)")
                .hint(LINE_HINT));
        }
        let (to, _) = c.number(to_start, to_end, "the target state")?;
        while k > i && is_ws(b[k - 1]) {
            k -= 1;
        }
        if k == i || b[k - 1] != b',' {
            return Err(c
                .err(
                    k.saturating_sub(1).max(i),
                    k.max(i + 1),
                    "expected `,` before the target state",
                )
                .expected("`,`")
                .hint(LINE_HINT));
        }
        // label: between i and k-1
        let (la, lz) = {
            let a = c.skip_ws(i, k - 1);
            let mut z = k - 1;
            while z > a && is_ws(b[z - 1]) {
                z -= 1;
            }
            (a, z)
        };
        let raw = &src[la..lz];
        let label = match labels.get(raw) {
            Some(&l) => l,
            None => {
                let l = intern_label(&c, &mut builder, raw, la, lz)?;
                labels.insert(raw, l);
                l
            }
        };
        for (v, (a, z)) in [(from, from_span), (to, (to_start, to_end))] {
            if v >= nstates {
                return Err(c
                    .err(
                        a,
                        z,
                        format!(
                        "state {v} does not exist: the header declares {nstates} states (0..{})",
                        nstates - 1
                    ),
                    )
                    .hint("fix the third number of the `des` header"));
            }
        }
        builder.add_transition(from as u32, label, to as u32);
        pos = e + 1;
    }
    if count < ntrans {
        return Err(c
            .err(
                ntrans_at,
                ntrans_end,
                format!("the header declares {ntrans} transitions but the file has {count}"),
            )
            .hint("fix the second number of the `des` header, or add the missing lines"));
    }
    builder
        .build()
        .map_err(|e| FormatError::file(file, e.to_string()))
}

fn intern_label(
    c: &Cursor,
    builder: &mut LtsBuilder,
    raw: &str,
    a: usize,
    z: usize,
) -> Result<Label, FormatError> {
    let inner = if raw.len() >= 2 && raw.starts_with('"') && raw.ends_with('"') {
        &raw[1..raw.len() - 1]
    } else if raw.starts_with('"') {
        return Err(c
            .err(a, z, "unterminated quoted label")
            .expected("a closing `\"`")
            .hint(LINE_HINT));
    } else {
        raw
    };
    let cl = classify(inner);
    match cl.kind_and_name() {
        Some((kind, name)) => builder.alphabet_mut().intern(name, kind).map_err(|k| {
            c.err(a, z, k.to_string())
                .hint("a name is either an input or an output in the whole model")
        }),
        None => Err(match cl {
            Classified::Unmarked(n) => c
                .err(a, z, format!("label `{n}` has no direction"))
                .expected(format!("`{n}?` or `{n}!`"))
                .hint(UNMARKED_HINT),
            Classified::Conflicting => c
                .err(
                    a,
                    z,
                    format!("label `{inner}` is marked both as input and as output"),
                )
                .hint(UNMARKED_HINT),
            _ => c
                .err(a, z.max(a + 1), "empty label")
                .expected("a label such as `coin?`")
                .hint(LINE_HINT),
        }),
    }
}

/// Write an LTS as `.aut` (labels quoted, `tau` for τ, `delta` for explicit δ).
///
/// `.aut` has no escapes: a label is the text between the first and the last comma of its
/// line, trimmed. A label that would not read back as itself (a line break in it, blanks at
/// its ends, a name that begins with `?` or `!`) is an error naming the label, never a file
/// that reads back as another model.
pub fn write(lts: &Lts) -> Result<String, FormatError> {
    let a = lts.alphabet();
    let names: Vec<String> = a.all().map(|l| written(a, l)).collect();
    for (l, text) in a.all().zip(&names) {
        let classified = classify(text);
        let same = match classified.kind_and_name() {
            Some((k, n)) => {
                k == a.kind(l)
                    && (matches!(k, LabelKind::Internal | LabelKind::Quiescence) || n == a.name(l))
            }
            None => false,
        };
        if !same || text.contains(['\n', '\r']) {
            return Err(FormatError::file(
                "(.aut output)",
                format!(
                    "the label {:?} cannot be written in .aut: it would not read back as itself",
                    text
                ),
            )
            .hint("write the model as JSON (`--format json`), which keeps any label"));
        }
    }
    let init = lts.initial();
    let n = lts.num_states();
    let (first, extra) = if init.len() == 1 {
        (init[0] as usize, 0)
    } else {
        (n, init.len())
    };
    let mut out = String::with_capacity(lts.num_transitions() * 20 + 32);
    let _ = writeln!(
        out,
        "des ({first}, {}, {})",
        lts.num_transitions() + extra,
        n + usize::from(extra > 0)
    );
    if extra > 0 {
        for &s in init {
            let _ = writeln!(out, "({n}, \"tau\", {s})");
        }
    }
    for (s, l, t) in lts.transitions() {
        let _ = writeln!(out, "({s}, \"{}\", {t})", names[l.index()]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_quoted_unquoted_and_special_labels() {
        let src = "des (0, 5, 3)\n(0, \"coin?\", 1)\n(1, !tea, 2)\n\n(2, tau, 0)\r\n(0,delta,0)\n( 1 , \"a, b?\" , 1 )\n";
        let l = parse(src, "t.aut").unwrap();
        assert_eq!(l.num_states(), 3);
        assert_eq!(l.num_transitions(), 5);
        let a = l.alphabet();
        let coin = a.lookup("coin").unwrap();
        assert_eq!(a.kind(coin), LabelKind::Input);
        assert_eq!(a.kind(a.lookup("tea").unwrap()), LabelKind::Output);
        assert_eq!(a.kind(a.lookup("a, b").unwrap()), LabelKind::Input);
        assert!(l.enables(2, Label::TAU));
        assert!(l.has_explicit_delta());
    }

    #[test]
    fn round_trip() {
        let src = "des (1, 3, 3)\n(1, \"x?\", 2)\n(2, \"y!\", 0)\n(0, \"tau\", 1)\n";
        let l = parse(src, "t.aut").unwrap();
        let w = write(&l).unwrap();
        let l2 = parse(&w, "w.aut").unwrap();
        assert_eq!(l2.initial(), &[1]);
        assert_eq!(l, l2);
    }

    #[test]
    fn several_initial_states_are_written_with_a_fresh_tau_state() {
        let mut b = LtsBuilder::new(ioco_model::Alphabet::new());
        b.add_states(2);
        b.add_initial(0);
        b.add_initial(1);
        b.add(0, "x", ioco_model::LabelKind::Output, 1).unwrap();
        let l = b.build().unwrap();
        let w = write(&l).unwrap();
        assert!(w.starts_with("des (2, 3, 3)\n"), "{w}");
        let back = parse(&w, "w.aut").unwrap();
        assert_eq!(back.initial(), &[2]);
        let from_fresh: Vec<u32> = back.successors(2, Label::TAU).collect();
        assert_eq!(from_fresh, vec![0, 1]);
    }

    #[test]
    fn count_mismatches_point_at_lines() {
        let e = parse("des (0, 2, 2)\n(0, a?, 1)\n", "f.aut").unwrap_err();
        assert_eq!((e.line, e.column), (1, 9));
        let e = parse("des (0, 1, 2)\n(0, a?, 1)\n(1, b!, 0)\n", "f.aut").unwrap_err();
        assert_eq!(e.line, 3);
        let e = parse("des (0, 1, 2)\n(0, a?, 2)\n", "f.aut").unwrap_err();
        assert_eq!((e.line, e.column), (2, 9));
        let e = parse("des (0, 1, 2)\n(0, a, 1)\n", "f.aut").unwrap_err();
        assert!(e.message.contains("no direction"), "{e}");
        assert!(e.to_string().starts_with("f.aut:2:5:"), "{e}");
    }
}
