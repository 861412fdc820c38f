//! The label conventions shared by `.aut`, the DOT LTS dialect and JSON (JTorX's conventions).
//!
//! | written | meaning |
//! |---|---|
//! | `a?` or `?a` | input `a` |
//! | `b!` or `!b` | output `b` |
//! | `tau`, `i` (CADP) or `τ` | the internal action τ |
//! | `delta`, `δ` or `quiescence` | explicit quiescence δ |
//!
//! Whitespace around the label and between the marker and the name is ignored (`? a` is `a?`).
//! A label with no marker is **not** guessed: JTorX needs a separate interface declaration for
//! such labels, and ioco's verdicts depend entirely on the direction, so the readers report an
//! error with a hint (the JSON format can declare directions in its `inputs`/`outputs` lists).

use ioco_model::LabelKind;

/// How a written label reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Classified<'a> {
    /// τ.
    Internal,
    /// Explicit δ.
    Quiescence,
    /// An input with its name.
    Input(&'a str),
    /// An output with its name.
    Output(&'a str),
    /// No direction marker: the name as written (trimmed).
    Unmarked(&'a str),
    /// A marker with no name (`?`, `!`, or empty).
    Empty,
    /// Both an input and an output marker (`?a!`).
    Conflicting,
}

impl Classified<'_> {
    /// The kind and name, when the label is well-formed and marked.
    pub fn kind_and_name(&self) -> Option<(LabelKind, &str)> {
        match *self {
            Classified::Internal => Some((LabelKind::Internal, "tau")),
            Classified::Quiescence => Some((LabelKind::Quiescence, "delta")),
            Classified::Input(n) => Some((LabelKind::Input, n)),
            Classified::Output(n) => Some((LabelKind::Output, n)),
            _ => None,
        }
    }
}

/// Read a label written in the JTorX conventions.
pub fn classify(raw: &str) -> Classified<'_> {
    let s = raw.trim();
    match s {
        "tau" | "i" | "τ" => return Classified::Internal,
        "delta" | "δ" | "quiescence" => return Classified::Quiescence,
        "" => return Classified::Empty,
        _ => {}
    }
    let (pre, rest) = match s.as_bytes()[0] {
        b'?' => (Some(LabelKind::Input), &s[1..]),
        b'!' => (Some(LabelKind::Output), &s[1..]),
        _ => (None, s),
    };
    let (post, rest) = match rest.as_bytes().last() {
        Some(b'?') => (Some(LabelKind::Input), &rest[..rest.len() - 1]),
        Some(b'!') => (Some(LabelKind::Output), &rest[..rest.len() - 1]),
        _ => (None, rest),
    };
    let name = rest.trim();
    let kind = match (pre, post) {
        (Some(_), Some(_)) => return Classified::Conflicting,
        (Some(k), None) | (None, Some(k)) => k,
        (None, None) => return Classified::Unmarked(name),
    };
    if name.is_empty() {
        return Classified::Empty;
    }
    match kind {
        LabelKind::Input => Classified::Input(name),
        _ => Classified::Output(name),
    }
}

/// The hint attached to every unmarked-label error.
pub const UNMARKED_HINT: &str = "mark the direction of every label: `coin?` (or `?coin`) for an input, `coffee!` (or `!coffee`) for an output, `tau` (or `i`) for an internal step, `delta` for explicit quiescence";

/// The label as it is written back by the writers: `a?`, `b!`, `tau`, `delta`.
pub fn written(alphabet: &ioco_model::Alphabet, l: ioco_model::Label) -> String {
    match alphabet.kind(l) {
        LabelKind::Input => format!("{}?", alphabet.name(l)),
        LabelKind::Output => format!("{}!", alphabet.name(l)),
        LabelKind::Internal => "tau".into(),
        LabelKind::Quiescence => "delta".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jtorx_conventions() {
        assert_eq!(classify("coin?"), Classified::Input("coin"));
        assert_eq!(classify(" ?coin "), Classified::Input("coin"));
        assert_eq!(classify("tea!"), Classified::Output("tea"));
        assert_eq!(classify("!tea"), Classified::Output("tea"));
        assert_eq!(classify("? a b"), Classified::Input("a b"));
        assert_eq!(classify("tau"), Classified::Internal);
        assert_eq!(classify("i"), Classified::Internal);
        assert_eq!(classify("δ"), Classified::Quiescence);
        assert_eq!(classify("coin"), Classified::Unmarked("coin"));
        assert_eq!(classify("?"), Classified::Empty);
        assert_eq!(classify("?a!"), Classified::Conflicting);
    }
}
