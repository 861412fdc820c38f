//! Source text made safe to show in a diagnostic: long lines cut to a window around what the
//! diagnostic points at, long messages cut in the middle.
//!
//! A model file may hold a line of megabytes (a generated `.aut` label, a minified JSON file).
//! Rendering such a line in full is slow and, past 65 535 columns, makes the renderer panic, so
//! every reader hands its diagnostics a [`Clipped`] text instead of the whole source: line
//! numbers are unchanged (no line is dropped), each line longer than [`MAX_LINE`] bytes keeps
//! only a window around the spans on it (or its start), and the spans are moved into the new
//! text. The `file:line:col` of a diagnostic is computed from the original text, never from the
//! clipped one.

/// Lines longer than this many bytes are cut.
pub const MAX_LINE: usize = 240;
/// How much of a cut line is kept before the first span on it.
const BEFORE: usize = 60;
/// What stands where text was cut.
const CUT: &str = "…";

/// A text for rendering and the spans moved into it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clipped {
    /// The text: the source with every long line cut.
    pub text: String,
    /// The given spans (byte offset, length), moved into `text`, in the given order.
    pub spans: Vec<(usize, usize)>,
}

/// `src` with each line longer than [`MAX_LINE`] bytes cut to a window around the spans on it;
/// `spans` are `(offset, length)` in `src` (clamped to it) and come back moved into the text.
/// Linear in the size of `src`; the result has at most `MAX_LINE + 2 * CUT.len()` bytes a line
/// plus the bytes of the spans themselves up to `MAX_LINE` each.
pub fn clip(src: &str, spans: &[(usize, usize)]) -> Clipped {
    let spans: Vec<(usize, usize)> = spans
        .iter()
        .map(|&(o, l)| {
            let a = floor(src, o.min(src.len()));
            let b = floor(src, o.saturating_add(l).min(src.len())).max(a);
            (a, b)
        })
        .collect();
    if src.len() <= MAX_LINE || src.split('\n').all(|l| l.len() <= MAX_LINE) {
        return Clipped {
            text: src.to_string(),
            spans: spans.iter().map(|&(a, b)| (a, b - a)).collect(),
        };
    }
    let mut text = String::with_capacity(src.len().min(1 << 20));
    let mut out: Vec<Option<(usize, usize)>> = vec![None; spans.len()];
    let mut line_start = 0;
    for line in src.split_inclusive('\n') {
        let line_end = line_start + line.len();
        let body = line.strip_suffix('\n').unwrap_or(line);
        let body_end = line_start + body.len();
        if body.len() <= MAX_LINE {
            // Whole line: every span position inside it moves by the same amount.
            let shift = text.len() as isize - line_start as isize;
            text.push_str(line);
            for (k, &(a, b)) in spans.iter().enumerate() {
                if a >= line_start && a < line_end.max(line_start + 1) && out[k].is_none() {
                    let na = (a as isize + shift) as usize;
                    let nb = (b.min(line_end) as isize + shift) as usize;
                    out[k] = Some((na, nb - na));
                }
            }
        } else {
            // A window from a little before the first span starting on this line.
            let first = spans
                .iter()
                .filter(|&&(a, _)| a >= line_start && a <= body_end)
                .map(|&(a, _)| a)
                .min();
            let from = match first {
                Some(a) => floor(src, a.saturating_sub(BEFORE).max(line_start)),
                None => line_start,
            };
            let to = floor(src, (from + MAX_LINE).min(body_end));
            let to = match first {
                // The window holds the first span's start at least.
                Some(a) if a >= to => floor(src, (a + 1).min(body_end)).max(to),
                _ => to,
            };
            if from > line_start {
                text.push_str(CUT);
            }
            let shift = text.len() as isize - from as isize;
            text.push_str(&src[from..to]);
            for (k, &(a, b)) in spans.iter().enumerate() {
                if a >= line_start && a <= body_end && out[k].is_none() {
                    let a2 = a.clamp(from, to);
                    let b2 = b.clamp(a2, to);
                    let na = (a2 as isize + shift) as usize;
                    let nb = (b2 as isize + shift) as usize;
                    out[k] = Some((na, nb - na));
                }
            }
            if to < body_end {
                text.push_str(CUT);
            }
            text.push_str(&line[body.len()..]);
        }
        line_start = line_end;
    }
    let end = text.len();
    Clipped {
        spans: out.into_iter().map(|s| s.unwrap_or((end, 0))).collect(),
        text,
    }
}

/// `s` itself when it has at most `max` bytes, else its start and end with `…` between, cut
/// on character boundaries (for messages that quote a user's text).
pub fn shorten(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if s.len() <= max {
        return s.into();
    }
    let half = max / 2;
    let a = floor(s, half);
    let mut b = s.len() - half;
    while !s.is_char_boundary(b) {
        b += 1;
    }
    format!("{}{CUT}{}", &s[..a], &s[b..]).into()
}

fn floor(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_unchanged() {
        let c = clip("ab\ncd\n", &[(3, 2)]);
        assert_eq!(c.text, "ab\ncd\n");
        assert_eq!(c.spans, vec![(3, 2)]);
    }

    #[test]
    fn a_long_line_keeps_a_window_around_the_span_and_the_line_numbers() {
        let long = "x".repeat(100_000);
        let src = format!("first\n{long}@{long}\nlast\n");
        let at = 6 + 100_000;
        let c = clip(&src, &[(at, 1), (0, 5)]);
        assert!(c.text.len() < 1_000, "{}", c.text.len());
        assert_eq!(c.text.lines().count(), 3);
        let (o, l) = c.spans[0];
        assert_eq!(&c.text[o..o + l], "@");
        assert_eq!(&c.text[c.spans[1].0..c.spans[1].0 + 5], "first");
        assert!(c.text.lines().last() == Some("last"));
    }

    #[test]
    fn spans_after_a_cut_line_move_with_the_text() {
        let src = format!("{}\nab\n", "é".repeat(5_000));
        let at = src.len() - 3;
        let c = clip(&src, &[(at, 2), (src.len() + 10, 4)]);
        let (o, l) = c.spans[0];
        assert_eq!(&c.text[o..o + l], "ab");
        // A span past the end is clamped to the end, empty.
        assert_eq!(c.spans[1].1, 0);
    }

    #[test]
    fn shorten_cuts_in_the_middle_on_char_boundaries() {
        assert_eq!(shorten("abc", 10), "abc");
        let s = "δ".repeat(1000);
        let t = shorten(&s, 101);
        assert!(t.len() < 120 && t.contains('…'));
    }
}
