//! Value selection for input parameters (`getValues` with diversity; thesis §4.5.3 L7517–L7535,
//! TAP19 L382): the solver's first model is always the same witness, which is why TAP19's
//! BRP mutant 6 survived, and why, against TorXakis's Adder, every input used to be
//! `Plus(0, -2147483648)`. A [`Picker`] turns a seeded random generator into *hints*: extra
//! constraints tried in order and dropped when they make the query unsat
//! ([`crate::solver::Checker::values`]).
//!
//! Every parameter gets a hint, and so does every field of a data-type parameter (recursively,
//! to [`FIELD_DEPTH`]): a candidate value is drawn per integer and boolean position, the
//! constructor of each data value at random. The hints are, most specific first: all positions
//! at once (exact values), all positions by region (`p >= r`, `p < 0`…), then each parameter
//! alone, then its constructor alone; the solver fills in whatever no hint fixed. The values of
//! an integer position depend on the strategy:
//!
//! - [`Strategy::Random`]: a random value, small magnitudes likelier (scales 10, 100, 1000),
//!   either sign; region `p >= r` or `p <= r`;
//! - [`Strategy::Small`]: a value in `-10..=10`; region the same interval;
//! - [`Strategy::Partition`]: an equivalence class first, then a value in it: the guard's
//!   constants, 0 and the bounds of `int[lo..hi]` cut the integers into classes (each cut
//!   alone, the integers between two neighbouring cuts, those beyond the first and the last:
//!   `n > 0 && n <= 10` gives ..-1, 0, 1..9, 10, 11..);
//! - [`Strategy::Boundary`]: `c`, `c ± 1` for the constants `c` of the guard (boundary values
//!   of comparisons such as `total + w >= 150`), 0 and the bounds of `int[lo..hi]`;
//! - [`Strategy::Growing`]: `±k`, then `p >= k` or `p <= -k`, with `k` growing geometrically
//!   over the run (large values late);
//! - [`Strategy::Model`]: no hint, the solver's own model (deterministic);
//! - [`Strategy::Mixed`] (default): one of the above at random per choice.
//!
//! All of it is drawn from the run's seeded generator: the same seed gives the same values.

use crate::term::{SymVar, Term, T};
use ioco_lang::ast::BinOp;
use ioco_lang::ir::{Defs, Type};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// How deep hints go into nested data values (a field of a field of a parameter is depth 2).
pub const FIELD_DEPTH: usize = 3;

/// Most hints tried per choice (each unsat one costs a solver call).
pub const MAX_HINTS: usize = 6;

/// How to choose values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    /// The solver's model.
    Model,
    /// Random values, small magnitudes likelier.
    Random,
    /// Values in `-10..=10`.
    Small,
    /// A random equivalence class (cut by the guard's constants and 0), then a value in it.
    Partition,
    /// Boundary values of the guard's constants and of ranges.
    Boundary,
    /// Values that grow over the run.
    Growing,
    /// A random one of the others per choice.
    #[default]
    Mixed,
}

impl Strategy {
    /// Every strategy, in the order of [`Strategy::name`].
    pub const ALL: [Strategy; 7] = [
        Strategy::Mixed,
        Strategy::Random,
        Strategy::Small,
        Strategy::Partition,
        Strategy::Boundary,
        Strategy::Growing,
        Strategy::Model,
    ];

    /// The strategy's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Model => "model",
            Strategy::Random => "random",
            Strategy::Small => "small",
            Strategy::Partition => "partition",
            Strategy::Boundary => "boundary",
            Strategy::Growing => "growing",
            Strategy::Mixed => "mixed",
        }
    }
}

impl std::str::FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Strategy, String> {
        Strategy::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Strategy::ALL.iter().map(|x| x.name()).collect();
                format!(
                    "unknown value strategy `{s}` (expected one of: {})",
                    names.join(", ")
                )
            })
    }
}

/// A seeded value picker.
pub struct Picker {
    /// The strategy.
    pub strategy: Strategy,
    /// How many choices were made (drives [`Strategy::Growing`]).
    pub choices: u64,
    /// Magnitude of random integers.
    pub range: i64,
}

impl Default for Picker {
    fn default() -> Self {
        Picker::new(Strategy::Mixed)
    }
}

/// The hints for one position (a parameter or a field): exact first, then by region.
#[derive(Default)]
struct Alts {
    exact: Vec<T>,
    region: Vec<T>,
}

impl Picker {
    /// A picker.
    pub fn new(strategy: Strategy) -> Picker {
        Picker {
            strategy,
            choices: 0,
            range: 1000,
        }
    }

    /// Hints (extra constraints, most specific first) for choosing `vars` under `phi`.
    pub fn hints(&mut self, defs: &Defs, phi: &T, vars: &[SymVar], rng: &mut ChaCha8Rng) -> Vec<T> {
        self.choices += 1;
        let strategy = match self.strategy {
            Strategy::Mixed => match rng.random_range(0..20) {
                0..=5 => Strategy::Random,
                6..=8 => Strategy::Small,
                9..=12 => Strategy::Partition,
                13..=16 => Strategy::Boundary,
                17..=18 => Strategy::Growing,
                _ => Strategy::Model,
            },
            s => s,
        };
        if strategy == Strategy::Model || vars.is_empty() {
            return Vec::new();
        }
        let consts = if matches!(strategy, Strategy::Boundary | Strategy::Partition) {
            int_constants(phi)
        } else {
            Vec::new()
        };
        let per_var: Vec<Alts> = vars
            .iter()
            .map(|v| {
                let at = Position { phi, depth: 0 };
                self.position(defs, Term::sym(v.clone()), v.ty, strategy, &consts, rng, at)
            })
            .collect();
        let mut out: Vec<T> = Vec::new();
        let push = |t: Option<T>, out: &mut Vec<T>| {
            if let Some(t) = t {
                if !out.contains(&t) {
                    out.push(t);
                }
            }
        };
        // every position at once, exactly, then by region
        push(joint(per_var.iter().map(|a| a.exact.first())), &mut out);
        push(joint(per_var.iter().map(|a| a.region.first())), &mut out);
        // then each parameter alone (in a random order: with many parameters, the ones first
        // tried are the ones whose hint survives)
        let mut order: Vec<usize> = (0..per_var.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        if per_var.len() > 1 {
            for &i in &order {
                push(per_var[i].exact.first().cloned(), &mut out);
            }
        }
        for &i in &order {
            push(per_var[i].region.get(1).cloned(), &mut out);
        }
        out.truncate(MAX_HINTS);
        out
    }

    /// The hints for the position `x` of type `ty`.
    #[allow(clippy::too_many_arguments)]
    fn position(
        &self,
        defs: &Defs,
        x: T,
        ty: Type,
        strategy: Strategy,
        consts: &[i64],
        rng: &mut ChaCha8Rng,
        at: Position<'_>,
    ) -> Alts {
        match ty {
            Type::Bool => {
                let b = Term::eq(x, Term::bool(rng.random()));
                Alts {
                    exact: vec![b.clone()],
                    region: vec![b],
                }
            }
            Type::Adt(a) => {
                let ctors = &defs.types[a as usize].ctors;
                // the constructor the guard asks for (`opn is Plus && …`: a switch per
                // constructor, as in the Adder), else one at random
                let c = forced_ctor(at.phi, &x)
                    .unwrap_or_else(|| rng.random_range(0..ctors.len().max(1)) as u32);
                let is = Arc::new(Term::Is(x.clone(), a, c));
                let mut exact = vec![is.clone()];
                let mut region = vec![is.clone()];
                if at.depth < FIELD_DEPTH {
                    if let Some(ctor) = ctors.get(c as usize) {
                        for (f, (_, fty)) in ctor.fields.iter().enumerate() {
                            let fx = Arc::new(Term::Field(x.clone(), a, c, f as u32));
                            let at = Position {
                                phi: at.phi,
                                depth: at.depth + 1,
                            };
                            let sub = self.position(defs, fx, *fty, strategy, consts, rng, at);
                            exact.extend(sub.exact.first().cloned());
                            region.extend(sub.region.first().cloned());
                        }
                    }
                }
                // exact: constructor and every field; region: the same by region, then the
                // constructor alone
                Alts {
                    exact: vec![Term::and_all(exact)],
                    region: vec![Term::and_all(region), is],
                }
            }
            Type::Int | Type::Range(..) => self.int_position(x, ty, strategy, consts, rng),
            Type::Str(..) => {
                // a length (short, random) and printable characters, so that values are
                // readable on a wire; each hint is dropped when it contradicts the guard
                let k = rng.random_range(1..=8i64);
                let n = Term::len(x.clone());
                let printable = Term::matches(x, printable());
                let exact = Term::and(Term::eq(n.clone(), Term::int(k)), printable.clone());
                let region = Term::and(
                    Term::and(
                        Arc::new(Term::Binary(BinOp::Ge, n.clone(), Term::int(k))),
                        Arc::new(Term::Binary(BinOp::Le, n, Term::int(k + 4))),
                    ),
                    printable.clone(),
                );
                Alts {
                    exact: vec![exact],
                    region: vec![region, printable],
                }
            }
        }
    }

    fn int_position(
        &self,
        x: T,
        ty: Type,
        strategy: Strategy,
        consts: &[i64],
        rng: &mut ChaCha8Rng,
    ) -> Alts {
        let (lo, hi) = match ty {
            Type::Range(lo, hi) => (lo, hi),
            _ => (-self.range, self.range),
        };
        let in_range = |l: i64, h: i64, rng: &mut ChaCha8Rng| -> i64 {
            let (l, h) = (l.max(lo), h.min(hi));
            if l <= h {
                rng.random_range(l..=h)
            } else {
                rng.random_range(lo..=hi)
            }
        };
        let cmp = |op: BinOp, k: i64| Arc::new(Term::Binary(op, x.clone(), Term::int(k)));
        let is = |k: i64| Term::eq(x.clone(), Term::int(k));
        match strategy {
            Strategy::Boundary if !consts.is_empty() || matches!(ty, Type::Range(..)) => {
                let mut cands: Vec<i64> = consts.to_vec();
                cands.push(0);
                if let Type::Range(l, h) = ty {
                    cands.extend([l, h]);
                }
                let c = cands[rng.random_range(0..cands.len())];
                let d = [0i64, -1, 1][rng.random_range(0..3)];
                let c2 = cands[rng.random_range(0..cands.len())];
                Alts {
                    exact: vec![is(c.saturating_add(d))],
                    region: vec![is(c2), is(c2.saturating_add(1)), is(c2.saturating_sub(1))],
                }
            }
            Strategy::Growing => {
                // magnitude 7 · 1.2^choices (about 300 after 20 choices, 400 000 after 60), sign
                // at random
                let k = (7.0 * 1.2f64.powi(self.choices.min(400) as i32)).min(1e15) as i64;
                let k = if rng.random() { k } else { -k };
                let (op, back) = if k >= 0 {
                    (BinOp::Ge, BinOp::Le)
                } else {
                    (BinOp::Le, BinOp::Ge)
                };
                Alts {
                    exact: vec![is(k)],
                    region: vec![cmp(op, k), cmp(back, -k)],
                }
            }
            Strategy::Small => {
                let r = in_range(-10, 10, rng);
                Alts {
                    exact: vec![is(r)],
                    region: vec![Term::and(cmp(BinOp::Ge, -10), cmp(BinOp::Le, 10))],
                }
            }
            Strategy::Partition => {
                // equivalence classes cut by the guard's constants and 0 (and the bounds of a
                // range): each constant alone, the integers strictly between two neighbouring
                // ones, and those beyond the first and the last; a class at random, then a
                // value in it
                let mut cuts: Vec<i64> = consts
                    .iter()
                    .copied()
                    .filter(|c| lo <= *c && *c <= hi)
                    .collect();
                cuts.push(0.clamp(lo, hi));
                if let Type::Range(l, h) = ty {
                    cuts.extend([l, h]);
                }
                cuts.sort_unstable();
                cuts.dedup();
                let mut classes: Vec<(i64, i64)> = Vec::new();
                if cuts[0] > lo {
                    classes.push((lo.max(cuts[0].saturating_sub(self.range)), cuts[0] - 1));
                }
                for (i, &c) in cuts.iter().enumerate() {
                    classes.push((c, c));
                    if let Some(&d) = cuts.get(i + 1) {
                        if d.saturating_sub(c) >= 2 {
                            classes.push((c + 1, d - 1));
                        }
                    }
                }
                let last = cuts[cuts.len() - 1];
                if last < hi {
                    classes.push((last + 1, hi.min(last.saturating_add(self.range))));
                }
                let (a, b) = classes[rng.random_range(0..classes.len())];
                let region = if a == b {
                    is(a)
                } else if a == lo && matches!(ty, Type::Int) {
                    cmp(BinOp::Le, b)
                } else if b == hi && matches!(ty, Type::Int) {
                    cmp(BinOp::Ge, a)
                } else {
                    Term::and(cmp(BinOp::Ge, a), cmp(BinOp::Le, b))
                };
                Alts {
                    exact: vec![is(rng.random_range(a..=b))],
                    region: vec![region],
                }
            }
            _ => {
                // random: small magnitudes are likelier (pick a scale, then a value in it)
                let random = |rng: &mut ChaCha8Rng| {
                    let scale = [10i64, 100, self.range.max(1)][rng.random_range(0..3)];
                    in_range(-scale, scale, rng)
                };
                let r = random(rng);
                let r2 = random(rng);
                let (op, back) = if rng.random() {
                    (BinOp::Ge, BinOp::Le)
                } else {
                    (BinOp::Le, BinOp::Ge)
                };
                Alts {
                    exact: vec![is(r)],
                    region: vec![cmp(op, r2), cmp(back, r2)],
                }
            }
        }
    }
}

/// Where a position is: the formula, and how deep in a data value.
#[derive(Clone, Copy)]
struct Position<'a> {
    phi: &'a T,
    depth: usize,
}

/// The constructor that a conjunct of `phi` requires of `x` (`x is C`), if any.
fn forced_ctor(phi: &T, x: &T) -> Option<u32> {
    match &**phi {
        Term::Is(t, _, c) if t == x => Some(*c),
        Term::Binary(BinOp::And, a, b) => forced_ctor(a, x).or_else(|| forced_ctor(b, x)),
        _ => None,
    }
}

/// The conjunction of the hints given, `None` when there are none.
/// `[ -~]*`: printable ASCII (the characters values are preferably made of).
fn printable() -> Arc<ioco_lang::regex::Regex> {
    static RE: std::sync::OnceLock<Arc<ioco_lang::regex::Regex>> = std::sync::OnceLock::new();
    RE.get_or_init(|| Arc::new(ioco_lang::regex::Regex::parse("[ -~]*").expect("valid")))
        .clone()
}

fn joint<'a>(hs: impl Iterator<Item = Option<&'a T>>) -> Option<T> {
    let hs: Vec<T> = hs.flatten().cloned().collect();
    if hs.is_empty() {
        None
    } else {
        Some(Term::and_all(hs))
    }
}

/// Integer constants occurring in a term (candidate boundaries).
pub fn int_constants(t: &T) -> Vec<i64> {
    let mut out = Vec::new();
    collect(t, &mut out);
    out.sort_unstable();
    out.dedup();
    out
}

fn collect(t: &Term, out: &mut Vec<i64>) {
    match t {
        Term::Const(ioco_lang::ir::Value::Int(i)) => out.push(*i),
        Term::Const(_) | Term::Sym(_) => {}
        Term::Unary(_, a) | Term::Field(a, ..) | Term::Is(a, ..) | Term::Matches(a, _) => {
            collect(a, out)
        }
        Term::Binary(_, a, b) => {
            collect(a, out);
            collect(b, out);
        }
        Term::Ite(a, b, c) => {
            collect(a, out);
            collect(b, out);
            collect(c, out);
        }
        Term::Ctor(_, _, xs) | Term::Call(_, xs) | Term::Builtin(_, xs) => {
            xs.iter().for_each(|x| collect(x, out))
        }
    }
}
