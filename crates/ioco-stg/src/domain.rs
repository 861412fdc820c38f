//! The abstract-domain interface of the coreachability analysis (seed 004 §4, Table 3 step 2:
//! "coreach^α ⊇ coreach(Pass)", computed by abstract interpretation; the operators are the
//! standard ones of Cousot & Halbwachs, not spelled out in the paper).
//!
//! An abstract value over-approximates a set of integer points in `Z^n`: ⊥/⊤, the order ⊑,
//! join ⊔, meet ⊓, widening ∇, the meet with one linear constraint, forgetting a dimension
//! (∃-projection), swapping two dimensions (used for backward assignment, see
//! [`crate::coreach`]), bounds of a linear expression, and membership of a concrete point (for
//! tests and online checks).

use crate::linear::{LinCons, LinExpr};
use std::fmt::Debug;

/// A numerical abstract domain over `n` integer dimensions.
pub trait Domain: Clone + Debug {
    /// The domain's name ("interval", "octagon").
    const NAME: &'static str;
    /// ⊤ over `n` dimensions.
    fn top(n: usize) -> Self;
    /// ⊥ over `n` dimensions.
    fn bottom(n: usize) -> Self;
    /// The number of dimensions.
    fn dims(&self) -> usize;
    /// True when the value denotes no point.
    fn is_bottom(&self) -> bool;
    /// `self ⊑ other`.
    fn leq(&self, other: &Self) -> bool;
    /// `self ⊔ other` (an upper bound).
    fn join(&self, other: &Self) -> Self;
    /// `self ⊓ other` (an upper bound of the intersection).
    fn meet(&self, other: &Self) -> Self;
    /// `self ∇ other`: an upper bound of both; every increasing chain `x_{k+1} = x_k ∇ y_k`
    /// stabilises after finitely many steps.
    fn widen(&self, other: &Self) -> Self;
    /// Intersect with `c` (soundly: every point of `self` that satisfies `c` stays).
    fn meet_cons(&mut self, c: &LinCons);
    /// Forget everything about dimension `d` (∃d).
    fn forget(&mut self, d: usize);
    /// Exchange dimensions `a` and `b`.
    fn swap(&mut self, a: usize, b: usize);
    /// Lower and upper bound of `e` over the value (`None`: unbounded).
    fn bounds(&self, e: &LinExpr) -> (Option<i64>, Option<i64>);
    /// True when every point of the value satisfies `c`.
    fn entails(&self, c: &LinCons) -> bool {
        self.is_bottom() || self.bounds(&c.expr).1.is_some_and(|u| u <= 0)
    }
    /// True when the concrete point belongs to the value.
    fn contains(&self, point: &[i64]) -> bool;
    /// The value as a conjunction of linear constraints (⊥: contains `1 ≤ 0`).
    fn constraints(&self) -> Vec<LinCons>;
}

/// Saturating helpers for bounds stored as `i64` with `i64::MAX` as +∞.
pub(crate) const INF: i64 = i64::MAX;

/// `a + b` where `INF` absorbs and the result saturates below `INF`.
pub(crate) fn add(a: i64, b: i64) -> i64 {
    if a == INF || b == INF {
        INF
    } else {
        a.saturating_add(b).min(INF - 1)
    }
}

/// ⌊a / b⌋ for b > 0.
pub(crate) fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// ⌈a / b⌉.
pub(crate) fn ceil_div(a: i128, b: i128) -> i128 {
    -floor_div(-a, b)
}

/// Clamp an `i128` bound into the finite `i64` range (below `INF`).
pub(crate) fn clamp(v: i128) -> i64 {
    v.clamp(-(INF as i128 - 1), INF as i128 - 1) as i64
}
