//! Value selection for input parameters (`getValues` with diversity; thesis §4.5.3 L7517–L7535,
//! TAP19 L382): the solver's first model is always the same witness, which is why TAP19's
//! BRP mutant 6 survived. A [`Picker`] turns a seeded random generator into *hints*: extra
//! constraints tried in order and dropped when they make the query unsat
//! ([`crate::solver::Checker::values`]):
//!
//! - [`Strategy::Random`]: `p = r` for a random `r` (small values are likelier), then `p >= r`
//!   or `p <= r`, so a random region is sampled when the exact value is impossible;
//! - [`Strategy::Boundary`]: `p = c`, `p = c ± 1` for constants `c` of the guard (boundary
//!   values of comparisons such as `total + w >= 150`);
//! - [`Strategy::Growing`]: `p >= k` with `k` growing over the run (large values late);
//! - [`Strategy::Model`]: no hint, the solver's own model (deterministic);
//! - [`Strategy::Mixed`] (default): one of the above at random per choice.
//!
//! Booleans get a random `p = b`; data types a random constructor test `p is C`.

use crate::solver::var_is;
use crate::term::{SymVar, Term, T};
use ioco_lang::ast::BinOp;
use ioco_lang::ir::{Defs, Type, Value};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// How to choose values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    /// The solver's model.
    Model,
    /// Random values.
    Random,
    /// Boundary values of the guard's constants.
    Boundary,
    /// Values that grow over the run.
    Growing,
    /// A random one of the others per choice.
    #[default]
    Mixed,
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
            Strategy::Mixed => match rng.random_range(0..10) {
                0..=4 => Strategy::Random,
                5..=7 => Strategy::Boundary,
                8 => Strategy::Growing,
                _ => Strategy::Model,
            },
            s => s,
        };
        if strategy == Strategy::Model || vars.is_empty() {
            return Vec::new();
        }
        let consts = if strategy == Strategy::Boundary {
            int_constants(phi)
        } else {
            Vec::new()
        };
        // per variable, a list of alternatives; combine: all vars' first choice, then each
        // variable's alternatives alone
        let mut per_var: Vec<Vec<T>> = Vec::new();
        for v in vars {
            per_var.push(self.var_hints(defs, v, strategy, &consts, rng));
        }
        let mut out = Vec::new();
        if per_var.len() <= 2 {
            let firsts: Vec<T> = per_var.iter().filter_map(|h| h.first().cloned()).collect();
            if firsts.len() > 1 {
                out.push(Term::and_all(firsts));
            }
            // interleave so that every variable gets a hint early
            let longest = per_var.iter().map(Vec::len).max().unwrap_or(0);
            for i in 0..longest {
                out.extend(per_var.iter().filter_map(|h| h.get(i).cloned()));
            }
        } else {
            // many variables: joint hints are usually unsat; hint two random variables alone
            let a = rng.random_range(0..per_var.len());
            let b = (a + 1 + rng.random_range(0..per_var.len() - 1)) % per_var.len();
            out.extend(per_var[a].first().cloned());
            out.extend(per_var[b].first().cloned());
            out.extend(per_var[a].get(1).cloned());
        }
        out.truncate(4);
        out
    }

    fn var_hints(
        &self,
        defs: &Defs,
        v: &SymVar,
        strategy: Strategy,
        consts: &[i64],
        rng: &mut ChaCha8Rng,
    ) -> Vec<T> {
        let x = Term::sym(v.clone());
        match v.ty {
            Type::Bool => vec![var_is(v, Value::Bool(rng.random()))],
            Type::Adt(a) => {
                let n = defs.types[a as usize].ctors.len() as u32;
                let c = rng.random_range(0..n);
                vec![Arc::new(Term::Is(x, a, c))]
            }
            Type::Int | Type::Range(..) => {
                let (lo, hi) = match v.ty {
                    Type::Range(lo, hi) => (lo, hi),
                    _ => (-self.range, self.range),
                };
                let random = |rng: &mut ChaCha8Rng| -> i64 {
                    // small magnitudes are likelier: pick a scale, then a value in it
                    let scale = [10i64, 100, self.range.max(1)][rng.random_range(0..3)];
                    let (l, h) = (lo.max(-scale), hi.min(scale));
                    if l <= h {
                        rng.random_range(l..=h)
                    } else {
                        rng.random_range(lo..=hi)
                    }
                };
                match strategy {
                    Strategy::Boundary if !consts.is_empty() => {
                        let c = consts[rng.random_range(0..consts.len())];
                        let d = [0i64, -1, 1][rng.random_range(0..3)];
                        let c2 = consts[rng.random_range(0..consts.len())];
                        vec![
                            var_is(v, Value::Int(c.saturating_add(d))),
                            var_is(v, Value::Int(c)),
                            var_is(v, Value::Int(c2.saturating_add(1))),
                            var_is(v, Value::Int(c2.saturating_sub(1))),
                        ]
                    }
                    Strategy::Growing => {
                        let k = (self.choices as i64).saturating_mul(7);
                        vec![
                            var_is(v, Value::Int(k)),
                            Arc::new(Term::Binary(BinOp::Ge, x.clone(), Term::int(k))),
                            Arc::new(Term::Binary(BinOp::Le, x, Term::int(-k))),
                        ]
                    }
                    _ => {
                        let r = random(rng);
                        let r2 = random(rng);
                        let op = if rng.random() { BinOp::Ge } else { BinOp::Le };
                        vec![
                            var_is(v, Value::Int(r)),
                            Arc::new(Term::Binary(op, x.clone(), Term::int(r2))),
                            Arc::new(Term::Binary(
                                if op == BinOp::Ge {
                                    BinOp::Le
                                } else {
                                    BinOp::Ge
                                },
                                x,
                                Term::int(r2),
                            )),
                        ]
                    }
                }
            }
        }
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
        Term::Const(Value::Int(i)) => out.push(*i),
        Term::Const(_) | Term::Sym(_) => {}
        Term::Unary(_, a) | Term::Field(a, ..) | Term::Is(a, ..) => collect(a, out),
        Term::Binary(_, a, b) => {
            collect(a, out);
            collect(b, out);
        }
        Term::Ite(a, b, c) => {
            collect(a, out);
            collect(b, out);
            collect(c, out);
        }
        Term::Ctor(_, _, xs) | Term::Call(_, xs) => xs.iter().for_each(|x| collect(x, out)),
    }
}
