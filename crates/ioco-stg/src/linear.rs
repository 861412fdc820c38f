//! Linear integer constraints and the abstraction of `.ioco` guards and updates into them
//! (seed 004 §3: guards G(v, p) and assignments A(v, p) of an ioSTS, Def. 6; the paper leaves
//! their syntax open, L447-448, so this module fixes it to linear integer arithmetic).
//!
//! A guard becomes a disjunction of conjunctions of [`LinCons`] ([`Dnf`]). The translation is an
//! **over-approximation**: an atom that is not linear over integers (a boolean variable, a
//! constructor test, a product of variables, a function call) becomes `true`, whether it appears
//! negated or not. Every concrete valuation that satisfies the guard satisfies its [`Dnf`]; the
//! abstract analyses built on it are therefore sound over-approximations.

use ioco_lang::ast::{BinOp, UnOp};
use ioco_lang::ir::{Expr, ExprKind, Value};
use std::fmt;

/// A linear expression `Σ coeff·x_dim + constant` over the dimensions of a domain.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct LinExpr {
    /// (dimension, non-zero coefficient), sorted by dimension.
    pub terms: Vec<(usize, i64)>,
    /// The constant.
    pub constant: i64,
}

impl LinExpr {
    /// The constant `c`.
    pub fn constant(c: i64) -> LinExpr {
        LinExpr {
            terms: Vec::new(),
            constant: c,
        }
    }

    /// The dimension `x_d`.
    pub fn var(d: usize) -> LinExpr {
        LinExpr {
            terms: vec![(d, 1)],
            constant: 0,
        }
    }

    /// `self + k·other`, or `None` on overflow.
    pub fn add_scaled(&self, other: &LinExpr, k: i64) -> Option<LinExpr> {
        let mut terms = self.terms.clone();
        for &(d, a) in &other.terms {
            let a = a.checked_mul(k)?;
            match terms.iter_mut().find(|t| t.0 == d) {
                Some(t) => t.1 = t.1.checked_add(a)?,
                None => terms.push((d, a)),
            }
        }
        terms.retain(|t| t.1 != 0);
        terms.sort_unstable();
        Some(LinExpr {
            terms,
            constant: self.constant.checked_add(other.constant.checked_mul(k)?)?,
        })
    }

    /// `k·self`, or `None` on overflow.
    pub fn scale(&self, k: i64) -> Option<LinExpr> {
        LinExpr::constant(0).add_scaled(self, k)
    }

    /// The value at a point (`None` on overflow).
    pub fn eval(&self, point: &[i64]) -> Option<i64> {
        let mut s = self.constant;
        for &(d, a) in &self.terms {
            s = s.checked_add(a.checked_mul(point[d])?)?;
        }
        Some(s)
    }
}

/// The linear constraint `expr ≤ 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinCons {
    /// The left-hand side.
    pub expr: LinExpr,
}

impl LinCons {
    /// `Σ coefficient·x_dimension ≤ bound`, from `(dimension, coefficient)` terms sorted by
    /// dimension.
    pub fn at_most(terms: &[(usize, i64)], bound: i64) -> LinCons {
        LinCons {
            expr: LinExpr {
                terms: terms.to_vec(),
                constant: -bound,
            },
        }
    }

    /// `a ≤ b`.
    pub fn le(a: &LinExpr, b: &LinExpr) -> Option<LinCons> {
        Some(LinCons {
            expr: a.add_scaled(b, -1)?,
        })
    }

    /// `a = b` as two constraints.
    pub fn eq(a: &LinExpr, b: &LinExpr) -> Option<[LinCons; 2]> {
        Some([LinCons::le(a, b)?, LinCons::le(b, a)?])
    }

    /// `Σ a_i x_i ≤ bound` with the terms and bound of this constraint.
    pub fn bound(&self) -> i64 {
        self.expr.constant.saturating_neg()
    }

    /// True when the point satisfies the constraint.
    pub fn holds(&self, point: &[i64]) -> bool {
        self.expr.eval(point).is_some_and(|v| v <= 0)
    }

    /// The negation `expr ≥ 1`, i.e. `-expr + 1 ≤ 0` (integers).
    pub fn negate(&self) -> Option<LinCons> {
        Some(LinCons {
            expr: LinExpr::constant(1).add_scaled(&self.expr, -1)?,
        })
    }

    /// Display with dimension names.
    pub fn display<'a>(&'a self, names: &'a [String]) -> impl fmt::Display + 'a {
        Shown(self, names)
    }
}

struct Shown<'a>(&'a LinCons, &'a [String]);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.0.expr;
        if e.terms.is_empty() {
            return write!(f, "{} ≤ 0", e.constant);
        }
        for (i, &(d, a)) in e.terms.iter().enumerate() {
            let name = self.1.get(d).map(String::as_str).unwrap_or("?");
            let sign = if a < 0 {
                "-"
            } else if i > 0 {
                "+"
            } else {
                ""
            };
            let sep = if i > 0 { " " } else { "" };
            let space = if i > 0 { " " } else { "" };
            if a.abs() == 1 {
                write!(f, "{sep}{sign}{space}{name}")?;
            } else {
                write!(f, "{sep}{sign}{space}{}{name}", a.abs())?;
            }
        }
        write!(f, " ≤ {}", self.0.bound())
    }
}

/// A disjunction of conjunctions of constraints; `vec![vec![]]` is `true`, `vec![]` is `false`.
pub type Dnf = Vec<Vec<LinCons>>;

/// The most disjuncts a guard's [`Dnf`] may have before it is over-approximated by `true`.
pub const MAX_DISJUNCTS: usize = 64;

/// How the variables and parameters of an expression map to dimensions.
pub trait DimMap {
    /// The dimension of location variable `v` (`None`: not an integer the analysis tracks).
    fn var(&self, v: u32) -> Option<usize>;
    /// The dimension of gate parameter `i`.
    fn param(&self, i: u32) -> Option<usize>;
}

/// The linear form of an integer expression, if it is linear.
pub fn linear(e: &Expr, map: &dyn DimMap) -> Option<LinExpr> {
    match &e.kind {
        ExprKind::Const(Value::Int(c)) => Some(LinExpr::constant(*c)),
        ExprKind::Var(v) => map.var(*v).map(LinExpr::var),
        ExprKind::Param(i) => map.param(*i).map(LinExpr::var),
        ExprKind::Unary(UnOp::Neg, a) => linear(a, map)?.scale(-1),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (linear(a, map), linear(b, map));
            match op {
                BinOp::Add => a?.add_scaled(&b?, 1),
                BinOp::Sub => a?.add_scaled(&b?, -1),
                BinOp::Mul => {
                    let (a, b) = (a?, b?);
                    if a.terms.is_empty() {
                        b.scale(a.constant)
                    } else if b.terms.is_empty() {
                        a.scale(b.constant)
                    } else {
                        None
                    }
                }
                _ => None,
            }
        }
        _ => None,
    }
}

fn conj(a: Dnf, b: Dnf) -> Dnf {
    let mut out = Vec::new();
    for x in &a {
        for y in &b {
            let mut c = x.clone();
            c.extend(y.iter().cloned());
            out.push(c);
        }
    }
    out
}

fn cap(d: Dnf) -> Dnf {
    if d.len() > MAX_DISJUNCTS {
        vec![vec![]]
    } else {
        d
    }
}

/// The [`Dnf`] of a boolean expression (negated when `neg`), over-approximating atoms that are
/// not linear integer comparisons by `true`.
pub fn dnf(e: &Expr, neg: bool, map: &dyn DimMap) -> Dnf {
    let top = || vec![vec![]];
    match &e.kind {
        ExprKind::Const(Value::Bool(b)) => {
            if *b != neg {
                top()
            } else {
                vec![]
            }
        }
        ExprKind::Unary(UnOp::Not, a) => dnf(a, !neg, map),
        ExprKind::Binary(op, a, b) => {
            use BinOp::*;
            match (op, neg) {
                (And, false) | (Or, true) => cap(conj(dnf(a, neg, map), dnf(b, neg, map))),
                (Or, false) | (And, true) => {
                    let mut d = dnf(a, neg, map);
                    d.extend(dnf(b, neg, map));
                    cap(d)
                }
                // a => b  ≡  !a || b ;  !(a => b) ≡ a && !b
                (Implies, false) => {
                    let mut d = dnf(a, true, map);
                    d.extend(dnf(b, false, map));
                    cap(d)
                }
                (Implies, true) => cap(conj(dnf(a, false, map), dnf(b, true, map))),
                (Eq | Ne | Lt | Le | Gt | Ge, _) => {
                    let (Some(x), Some(y)) = (linear(a, map), linear(b, map)) else {
                        return top();
                    };
                    let op = if neg {
                        match op {
                            Eq => Ne,
                            Ne => Eq,
                            Lt => Ge,
                            Le => Gt,
                            Gt => Le,
                            _ => Lt,
                        }
                    } else {
                        *op
                    };
                    compare(op, &x, &y).unwrap_or_else(top)
                }
                _ => top(),
            }
        }
        _ => top(),
    }
}

/// `x op y` as a [`Dnf`] (`None` on overflow).
fn compare(op: BinOp, x: &LinExpr, y: &LinExpr) -> Option<Dnf> {
    let one = LinExpr::constant(1);
    Some(match op {
        BinOp::Le => vec![vec![LinCons::le(x, y)?]],
        BinOp::Ge => vec![vec![LinCons::le(y, x)?]],
        BinOp::Lt => vec![vec![LinCons::le(&x.add_scaled(&one, 1)?, y)?]],
        BinOp::Gt => vec![vec![LinCons::le(&y.add_scaled(&one, 1)?, x)?]],
        BinOp::Eq => vec![LinCons::eq(x, y)?.to_vec()],
        BinOp::Ne => vec![
            vec![LinCons::le(&x.add_scaled(&one, 1)?, y)?],
            vec![LinCons::le(&y.add_scaled(&one, 1)?, x)?],
        ],
        _ => return None,
    })
}

/// The [`Dnf`] of `¬(g1 ∨ … ∨ gn)` (the completion of a purpose location).
pub fn dnf_none_of(guards: &[&Expr], map: &dyn DimMap) -> Dnf {
    let mut acc: Dnf = vec![vec![]];
    for g in guards {
        acc = cap(conj(acc, dnf(g, true, map)));
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negation_is_the_integer_complement() {
        // x ≤ 3  negated is  x ≥ 4
        let c = LinCons::le(&LinExpr::var(0), &LinExpr::constant(3)).unwrap();
        let n = c.negate().unwrap();
        for x in -10..10 {
            assert_ne!(c.holds(&[x]), n.holds(&[x]));
        }
    }
}
