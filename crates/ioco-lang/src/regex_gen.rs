//! Strings that match a regular expression, built from its AST ([`Re`]) instead of searched
//! for: a random branch of each choice, a random number of repetitions of each repeat, a random
//! character of each class. Used by the symbolic engine to propose string values for a guard
//! such as `description matches /[A-Z][0-9]{2}[a-z]+/` without asking an SMT solver (the
//! caller still checks every proposal by evaluating the whole guard).
//!
//! Every string generated matches the expression ([`Regex::is_match`]; property test in this
//! module). The randomness is the caller's: [`Regex::generate`] takes a function `below(n)`
//! that returns a number in `0..n`, so a seeded generator gives reproducible strings.
//!
//! Choices: an unbounded repeat `x*`, `x+`, `x{n,}` takes between `n` and `n + `[`EXTRA`]
//! repetitions, a bounded one `x{n,m}` between `n` and `min(m, n + EXTRA)`; a class prefers
//! printable ASCII (`' '..='~'`) when it has some (nine times out of ten), and never gives a
//! character above [`MAX_CHAR`] (the largest character of Z3's strings, so that values can be
//! handed to the solver later). Branches and classes that no string matches (an empty class
//! `[^\x00-\u{10FFFF}]`, or one whose characters are all above [`MAX_CHAR`]) are avoided; when
//! the whole expression matches no string, [`Regex::generate`] answers `None`.

use crate::regex::{Re, Regex};

/// Most repetitions beyond the minimum that a repeat takes.
pub const EXTRA: u32 = 6;

/// The largest character generated (`0x2FFFF`, Z3 4.8.12's largest string character).
pub const MAX_CHAR: u32 = 0x2FFFF;

/// Printable ASCII, the preferred characters.
const PRINTABLE: (u32, u32) = (0x20, 0x7E);

impl Regex {
    /// A random string that matches the expression (`None` if none does). `below(n)` must
    /// return a number in `0..n` (`n ≥ 1`).
    pub fn generate(&self, below: &mut dyn FnMut(u32) -> u32) -> Option<String> {
        if !inhabited(&self.re) {
            return None;
        }
        let mut out = String::new();
        gen(&self.re, below, &mut out);
        Some(out)
    }
}

/// Whether some string (of characters up to [`MAX_CHAR`]) matches `re`.
fn inhabited(re: &Re) -> bool {
    match re {
        Re::Empty => true,
        Re::Class(ranges) => ranges.iter().any(|&(lo, _)| lo as u32 <= MAX_CHAR),
        Re::Concat(xs) => xs.iter().all(inhabited),
        Re::Alt(xs) => xs.iter().any(inhabited),
        Re::Repeat(x, min, max) => *min == 0 || (max.is_none_or(|m| m >= *min) && inhabited(x)),
    }
}

/// Appends a match of `re`, which must be [`inhabited`].
fn gen(re: &Re, below: &mut dyn FnMut(u32) -> u32, out: &mut String) {
    match re {
        Re::Empty => {}
        Re::Class(ranges) => out.push(pick_char(ranges, below)),
        Re::Concat(xs) => xs.iter().for_each(|x| gen(x, below, out)),
        Re::Alt(xs) => {
            let ok: Vec<&Re> = xs.iter().filter(|x| inhabited(x)).collect();
            let i = below(ok.len() as u32) as usize;
            gen(ok[i], below, out);
        }
        Re::Repeat(x, min, max) => {
            if !inhabited(x) {
                // only the empty string (min is 0, see `inhabited`)
                return;
            }
            let hi = match max {
                Some(m) => (*m).min(min.saturating_add(EXTRA)),
                None => min.saturating_add(EXTRA),
            };
            let n = min + below(hi - min + 1);
            for _ in 0..n {
                gen(x, below, out);
            }
        }
    }
}

/// A character of the class (printable ASCII preferred), never above [`MAX_CHAR`]; the class
/// has one.
fn pick_char(ranges: &[(char, char)], below: &mut dyn FnMut(u32) -> u32) -> char {
    let clip = |lo: u32, hi: u32, (a, b): (u32, u32)| {
        let (l, h) = (lo.max(a), hi.min(b));
        (l <= h).then_some((l, h))
    };
    let printable: Vec<(u32, u32)> = ranges
        .iter()
        .filter_map(|&(lo, hi)| clip(lo as u32, hi as u32, PRINTABLE))
        .collect();
    let all: Vec<(u32, u32)> = ranges
        .iter()
        .filter_map(|&(lo, hi)| clip(lo as u32, hi as u32, (0, MAX_CHAR)))
        .collect();
    let pool = if !printable.is_empty() && below(10) < 9 {
        printable
    } else {
        all
    };
    let total: u32 = pool.iter().map(|(l, h)| h - l + 1).sum();
    let mut k = below(total);
    for (l, h) in pool {
        let n = h - l + 1;
        if k < n {
            // the ranges hold characters only, but a range may span the surrogates: step over
            // them to the range's end (a character)
            return char::from_u32(l + k).unwrap_or_else(|| char::from_u32(h).unwrap_or('a'));
        }
        k -= n;
    }
    // unreachable: k < total
    char::from_u32(total).unwrap_or('a')
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A deterministic `below` from a seed (a linear congruential generator is enough here).
    fn below_from(seed: u64) -> impl FnMut(u32) -> u32 {
        let mut s = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        move |n| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 33) % n as u64) as u32
        }
    }

    fn gen_str(src: &str, seed: u64) -> Option<String> {
        let r = Regex::parse(src).expect("valid regex");
        let mut below = below_from(seed);
        r.generate(&mut below)
    }

    #[test]
    fn dispatch_process_job_description() {
        let r = Regex::parse("[A-Z][0-9]{2}[a-z]+").unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let s = gen_str(&r.source, seed).unwrap();
            assert!(r.is_match(&s), "{s:?}");
            seen.insert(s);
        }
        // values spread
        assert!(seen.len() > 150, "{}", seen.len());
    }

    #[test]
    fn empty_language_gives_none() {
        // a class of no character: `[^\u{0}-\u{10FFFF}]`
        let r = Regex {
            source: "none".into(),
            re: Re::Class(Vec::new()),
        };
        assert_eq!(r.generate(&mut below_from(1)), None);
        let r = Regex {
            source: "none".into(),
            re: Re::Concat(vec![Re::Class(vec![('a', 'a')]), Re::Class(Vec::new())]),
        };
        assert_eq!(r.generate(&mut below_from(1)), None);
        // an empty branch is avoided, an empty class under `*` repeated zero times
        let r = Regex {
            source: "a|none".into(),
            re: Re::Alt(vec![Re::Class(Vec::new()), Re::Class(vec![('a', 'a')])]),
        };
        for seed in 0..20 {
            assert_eq!(r.generate(&mut below_from(seed)).as_deref(), Some("a"));
        }
        let r = Regex {
            source: "none*".into(),
            re: Re::Repeat(Box::new(Re::Class(Vec::new())), 0, None),
        };
        assert_eq!(r.generate(&mut below_from(3)).as_deref(), Some(""));
    }

    #[test]
    fn characters_above_z3s_largest_are_never_generated() {
        let r = Regex::parse("[^a]").unwrap();
        for seed in 0..500 {
            let s = gen_str(&r.source, seed).unwrap();
            assert!(r.is_match(&s));
            assert!(s.chars().all(|c| c as u32 <= MAX_CHAR));
        }
        let only_high = Regex {
            source: "high".into(),
            re: Re::Class(vec![('\u{30000}', '\u{10FFFF}')]),
        };
        assert_eq!(only_high.generate(&mut below_from(0)), None);
    }

    /// Source text of a random regular expression of the supported syntax.
    fn regex_src() -> impl Strategy<Value = String> {
        let atom = prop_oneof![
            "[a-c]".prop_map(|s| s.to_string()),
            Just(".".to_string()),
            Just("[a-z_]".to_string()),
            Just("[^0-9]".to_string()),
            Just("\\d".to_string()),
            Just("\\s".to_string()),
            Just("\\w".to_string()),
            Just("\\W".to_string()),
            Just("\\.".to_string()),
            Just("[A-Z0-9]".to_string()),
            Just("\\u{e9}".to_string()),
            Just("[\\u{d000}-\\u{f000}]".to_string()),
        ];
        let quant = prop_oneof![
            Just(""),
            Just("?"),
            Just("*"),
            Just("+"),
            Just("{2}"),
            Just("{1,}"),
            Just("{0,3}"),
            Just("{2,20}"),
        ];
        let piece = (atom, quant).prop_map(|(a, q)| format!("{a}{q}"));
        let branch = proptest::collection::vec(piece, 0..4).prop_map(|v| v.concat());
        let flat = proptest::collection::vec(branch, 1..3).prop_map(|v| v.join("|"));
        flat.prop_recursive(3, 16, 3, |inner| {
            (
                proptest::collection::vec(inner.clone(), 1..3),
                prop_oneof![Just(""), Just("*"), Just("?"), Just("{1,2}")],
                inner,
            )
                .prop_map(|(alts, q, tail)| format!("({}){q}{tail}", alts.join("|")))
        })
    }

    proptest! {
        #[test]
        fn every_generated_string_matches(src in regex_src(), seed in any::<u64>()) {
            let r = Regex::parse(&src).expect("the generator writes valid syntax");
            let s = r.generate(&mut below_from(seed));
            prop_assert!(s.is_some(), "{src}: every expression here matches some string");
            let s = s.unwrap();
            prop_assert!(r.is_match(&s), "{src} generated {s:?}");
        }
    }
}
