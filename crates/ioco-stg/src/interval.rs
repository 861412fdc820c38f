//! The interval (box) domain: one integer interval `[lo, hi]` per dimension (Cousot & Cousot
//! 1977; the "intervals" of seed 004 L747-751, which lose the relation `p = x + 2` of the running
//! example).
//!
//! * join: interval hull; meet: intersection;
//! * widening: `[a,b] ∇ [c,d] = [c < a ? −∞ : a, d > b ? +∞ : b]`;
//! * meet with `Σ aᵢxᵢ + c ≤ 0`: bound propagation (each `xᵢ` is bounded by the minimum of the
//!   other terms), twice; exact for constraints over one variable;
//! * integer semantics: bounds are rounded inwards (⌊·⌋ for upper, ⌈·⌉ for lower bounds).

use crate::domain::{add, ceil_div, clamp, floor_div, Domain, INF};
use crate::linear::{LinCons, LinExpr};

const NEG: i64 = -INF;

/// A box over `n` integer dimensions (`lo = -INF` is −∞, `hi = INF` is +∞).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interval {
    lo: Vec<i64>,
    hi: Vec<i64>,
    empty: bool,
}

impl Interval {
    /// The bounds of dimension `d` (`None`: unbounded).
    pub fn range(&self, d: usize) -> (Option<i64>, Option<i64>) {
        (
            (self.lo[d] != NEG).then_some(self.lo[d]),
            (self.hi[d] != INF).then_some(self.hi[d]),
        )
    }

    fn check(&mut self) {
        if self.lo.iter().zip(&self.hi).any(|(l, h)| l > h) {
            self.empty = true;
        }
    }

    /// Minimum of `a·x_d` over the box (`None`: −∞).
    fn term_min(&self, d: usize, a: i64) -> Option<i128> {
        if a > 0 {
            (self.lo[d] != NEG).then(|| a as i128 * self.lo[d] as i128)
        } else {
            (self.hi[d] != INF).then(|| a as i128 * self.hi[d] as i128)
        }
    }

    fn propagate(&mut self, c: &LinCons) {
        let e = &c.expr;
        let mins: Vec<Option<i128>> = e.terms.iter().map(|&(d, a)| self.term_min(d, a)).collect();
        let unbounded = mins.iter().filter(|m| m.is_none()).count();
        let finite: i128 = mins.iter().flatten().sum();
        if unbounded == 0 && finite + e.constant as i128 > 0 {
            self.empty = true;
            return;
        }
        for (k, &(d, a)) in e.terms.iter().enumerate() {
            let others = match mins[k] {
                Some(m) if unbounded == 0 => finite - m,
                None if unbounded == 1 => finite,
                _ => continue,
            };
            // a·x_d ≤ r
            let r = -(e.constant as i128) - others;
            if a > 0 {
                let h = clamp(floor_div(r, a as i128));
                self.hi[d] = self.hi[d].min(h);
            } else {
                let l = clamp(ceil_div(r, a as i128));
                self.lo[d] = self.lo[d].max(l);
            }
        }
        self.check();
    }
}

impl Domain for Interval {
    const NAME: &'static str = "interval";

    fn top(n: usize) -> Self {
        Interval {
            lo: vec![NEG; n],
            hi: vec![INF; n],
            empty: false,
        }
    }

    fn bottom(n: usize) -> Self {
        Interval {
            empty: true,
            ..Interval::top(n)
        }
    }

    fn dims(&self) -> usize {
        self.lo.len()
    }

    fn is_bottom(&self) -> bool {
        self.empty
    }

    fn leq(&self, other: &Self) -> bool {
        self.empty
            || (!other.empty
                && (0..self.dims()).all(|d| self.lo[d] >= other.lo[d] && self.hi[d] <= other.hi[d]))
    }

    fn join(&self, other: &Self) -> Self {
        if self.empty {
            return other.clone();
        }
        if other.empty {
            return self.clone();
        }
        Interval {
            lo: pointwise(&self.lo, &other.lo, |a, b| a.min(b)),
            hi: pointwise(&self.hi, &other.hi, |a, b| a.max(b)),
            empty: false,
        }
    }

    fn meet(&self, other: &Self) -> Self {
        let mut r = Interval {
            lo: pointwise(&self.lo, &other.lo, |a, b| a.max(b)),
            hi: pointwise(&self.hi, &other.hi, |a, b| a.min(b)),
            empty: self.empty || other.empty,
        };
        r.check();
        r
    }

    fn widen(&self, other: &Self) -> Self {
        if self.empty {
            return other.clone();
        }
        if other.empty {
            return self.clone();
        }
        Interval {
            lo: pointwise(&self.lo, &other.lo, |a, b| if b < a { NEG } else { a }),
            hi: pointwise(&self.hi, &other.hi, |a, b| if b > a { INF } else { a }),
            empty: false,
        }
    }

    fn meet_cons(&mut self, c: &LinCons) {
        if self.empty {
            return;
        }
        for _ in 0..2 {
            self.propagate(c);
            if self.empty {
                return;
            }
        }
    }

    fn forget(&mut self, d: usize) {
        self.lo[d] = NEG;
        self.hi[d] = INF;
    }

    fn swap(&mut self, a: usize, b: usize) {
        self.lo.swap(a, b);
        self.hi.swap(a, b);
    }

    fn bounds(&self, e: &LinExpr) -> (Option<i64>, Option<i64>) {
        if self.empty {
            return (Some(0), Some(-1));
        }
        let mut lo: Option<i128> = Some(e.constant as i128);
        let mut hi: Option<i128> = Some(e.constant as i128);
        for &(d, a) in &e.terms {
            lo = lo.zip(self.term_min(d, a)).map(|(x, y)| x + y);
            hi = hi.zip(self.term_min(d, -a)).map(|(x, y)| x - y);
        }
        (lo.map(clamp), hi.map(clamp))
    }

    fn contains(&self, point: &[i64]) -> bool {
        !self.empty && (0..self.dims()).all(|d| self.lo[d] <= point[d] && point[d] <= self.hi[d])
    }

    fn constraints(&self) -> Vec<LinCons> {
        if self.empty {
            return vec![LinCons {
                expr: LinExpr::constant(1),
            }];
        }
        let mut v = Vec::new();
        for d in 0..self.dims() {
            if self.lo[d] != NEG {
                v.push(LinCons {
                    expr: LinExpr {
                        terms: vec![(d, -1)],
                        constant: self.lo[d],
                    },
                });
            }
            if self.hi[d] != INF {
                v.push(LinCons {
                    expr: LinExpr {
                        terms: vec![(d, 1)],
                        constant: add(0, -self.hi[d]),
                    },
                });
            }
        }
        v
    }
}

/// `f` applied to the bounds of each dimension of two boxes.
fn pointwise(a: &[i64], b: &[i64], f: impl Fn(i64, i64) -> i64) -> Vec<i64> {
    a.iter().zip(b).map(|(x, y)| f(*x, *y)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn le(terms: &[(usize, i64)], bound: i64) -> LinCons {
        LinCons::at_most(terms, bound)
    }

    #[test]
    fn propagation_and_widening() {
        let mut b = Interval::top(2);
        b.meet_cons(&le(&[(0, -1)], -6)); // x ≥ 6
        b.meet_cons(&le(&[(1, 1), (0, -1)], 2)); // y - x ≤ 2: no upper bound on y from x ≥ 6
        assert_eq!(b.range(0), (Some(6), None));
        assert_eq!(b.range(1), (None, None));
        let mut c = b.clone();
        c.meet_cons(&le(&[(0, 1)], 5)); // x ≤ 5: empty
        assert!(c.is_bottom());
        let w = b.widen(&Interval::top(2));
        assert_eq!(w, Interval::top(2));
        assert!(b.entails(&le(&[(0, -1)], 0)));
    }
}
