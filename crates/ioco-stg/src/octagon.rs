//! The octagon domain (Miné, "The octagon abstract domain", HOSC 2006): conjunctions of
//! constraints `±x ± y ≤ c`, stored as a difference-bound matrix (DBM) over the 2n signed
//! variables `V_{2k} = x_k`, `V_{2k+1} = −x_k`, where `m[i][j]` bounds `V_i − V_j`. It expresses
//! the relations of seed 004's running example that intervals lose (`p = x + 2`, `y − x = 2`).
//!
//! * closure (Miné Def. 4 / Bagnara et al. 2009 for integers): Floyd–Warshall shortest paths,
//!   tightening of the unary bounds `m[i][ī] := 2⌊m[i][ī]/2⌋`, then strengthening
//!   `m[i][j] := min(m[i][j], ⌊(m[i][ī] + m[j̄][j])/2⌋)`; a negative diagonal is ⊥;
//! * join: element-wise max of the closed matrices; meet: element-wise min;
//! * widening (Miné Def. 10): keep the entries of the left argument that the right one does
//!   not exceed, the others become +∞; the widened matrix is **not** closed afterwards, which
//!   is what makes the increasing chains stabilise;
//! * meet with a linear constraint: exact for octagonal constraints (at most two variables with
//!   unit coefficients, or one variable with any coefficient); any other constraint is
//!   approximated by its octagonal consequences, the other terms bounded by the current box
//!   (the usual interval linearisation), twice with closure in between.

use crate::domain::{add, clamp, floor_div, Domain, INF};
use crate::linear::{LinCons, LinExpr};

/// An octagon over `n` integer dimensions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Octagon {
    n: usize,
    /// 2n × 2n, row-major; `INF` is +∞.
    m: Vec<i64>,
    empty: bool,
}

#[inline]
fn bar(i: usize) -> usize {
    i ^ 1
}

impl Octagon {
    fn at(&self, i: usize, j: usize) -> i64 {
        self.m[i * 2 * self.n + j]
    }

    fn set_min(&mut self, i: usize, j: usize, c: i64) {
        let k = i * 2 * self.n + j;
        if c < self.m[k] {
            self.m[k] = c;
        }
    }

    /// Add `V_i − V_j ≤ c` and its coherent twin `V_j̄ − V_ī ≤ c`.
    fn add_diff(&mut self, i: usize, j: usize, c: i64) {
        self.set_min(i, j, c);
        self.set_min(bar(j), bar(i), c);
    }

    /// Close in place (see the module documentation); sets ⊥ when inconsistent.
    pub fn close(&mut self) {
        if self.empty {
            return;
        }
        let w = 2 * self.n;
        for k in 0..w {
            for i in 0..w {
                let ik = self.m[i * w + k];
                if ik == INF {
                    continue;
                }
                for j in 0..w {
                    let kj = self.m[k * w + j];
                    let s = add(ik, kj);
                    if s < self.m[i * w + j] {
                        self.m[i * w + j] = s;
                    }
                }
            }
        }
        for i in 0..w {
            if self.m[i * w + i] < 0 {
                self.empty = true;
                return;
            }
            self.m[i * w + i] = 0;
        }
        // Integer tightening of the unary bounds.
        for i in 0..w {
            let u = self.m[i * w + bar(i)];
            if u != INF {
                self.m[i * w + bar(i)] = clamp(2 * floor_div(u as i128, 2));
            }
        }
        for i in 0..w {
            for j in 0..w {
                let a = self.m[i * w + bar(i)];
                let b = self.m[bar(j) * w + j];
                if a != INF && b != INF {
                    let s = clamp(floor_div(a as i128 + b as i128, 2));
                    if s < self.m[i * w + j] {
                        self.m[i * w + j] = s;
                    }
                }
            }
        }
        for i in 0..w {
            let (u, l) = (self.m[i * w + bar(i)], self.m[bar(i) * w + i]);
            if u != INF && l != INF && (u as i128 + l as i128) < 0 {
                self.empty = true;
                return;
            }
            if self.m[i * w + i] < 0 {
                self.empty = true;
                return;
            }
        }
    }

    fn closed(&self) -> Octagon {
        let mut c = self.clone();
        c.close();
        c
    }

    /// Bounds of dimension `d` (`None`: unbounded), from the closed matrix.
    pub fn range(&self, d: usize) -> (Option<i64>, Option<i64>) {
        let c = self.closed();
        c.range_closed(d)
    }

    fn range_closed(&self, d: usize) -> (Option<i64>, Option<i64>) {
        let (i, j) = (2 * d, 2 * d + 1);
        let hi = self.at(i, j); // 2x ≤ hi
        let lo = self.at(j, i); // −2x ≤ lo
        (
            (lo != INF).then(|| clamp(-floor_div(lo as i128, 2))),
            (hi != INF).then(|| clamp(floor_div(hi as i128, 2))),
        )
    }

    /// The signed index of `a·x_d` when `a = ±1`.
    fn signed(d: usize, a: i64) -> usize {
        if a > 0 {
            2 * d
        } else {
            2 * d + 1
        }
    }

    /// Add an octagonal constraint exactly; false when `c` is not octagonal.
    fn add_octagonal(&mut self, c: &LinCons) -> bool {
        let e = &c.expr;
        let bound = -(e.constant as i128);
        match e.terms.as_slice() {
            [] => {
                if bound < 0 {
                    self.empty = true;
                }
                true
            }
            &[(d, a)] => {
                // a·x ≤ bound  →  x ≤ ⌊bound/a⌋ (a > 0) or −x ≤ ⌊bound/−a⌋ (a < 0)
                let k = clamp(floor_div(bound, a.unsigned_abs() as i128));
                let i = Octagon::signed(d, a);
                self.add_diff(i, bar(i), clamp(2 * k as i128));
                true
            }
            &[(d1, a1), (d2, a2)] if a1.abs() == 1 && a2.abs() == 1 => {
                // s1·x1 + s2·x2 ≤ b  ≡  V_i − V_j ≤ b with V_i = s1·x1, V_j = −s2·x2
                let i = Octagon::signed(d1, a1);
                let j = bar(Octagon::signed(d2, a2));
                self.add_diff(i, j, clamp(bound));
                true
            }
            _ => false,
        }
    }

    /// The octagonal consequences of a non-octagonal constraint under the current bounds.
    fn linearise(&self, c: &LinCons) -> Vec<LinCons> {
        let e = &c.expr;
        let ranges: Vec<(Option<i64>, Option<i64>)> =
            e.terms.iter().map(|&(d, _)| self.range_closed(d)).collect();
        // Minimum of a·x over the box.
        let tmin = |k: usize| -> Option<i128> {
            let a = e.terms[k].1 as i128;
            let (lo, hi) = ranges[k];
            if a > 0 {
                lo.map(|l| a * l as i128)
            } else {
                hi.map(|h| a * h as i128)
            }
        };
        let mut out = Vec::new();
        let n = e.terms.len();
        let rest = |keep: &[usize]| -> Option<i128> {
            let mut s = e.constant as i128;
            for k in 0..n {
                if !keep.contains(&k) {
                    s += tmin(k)?;
                }
            }
            Some(s)
        };
        // Single variables (any coefficient).
        for k in 0..n {
            if let Some(r) = rest(&[k]) {
                out.push(LinCons {
                    expr: LinExpr {
                        terms: vec![e.terms[k]],
                        constant: clamp(r),
                    },
                });
            }
        }
        // Pairs with unit coefficients.
        for k in 0..n {
            for l in k + 1..n {
                if e.terms[k].1.abs() == 1 && e.terms[l].1.abs() == 1 {
                    if let Some(r) = rest(&[k, l]) {
                        out.push(LinCons {
                            expr: LinExpr {
                                terms: vec![e.terms[k], e.terms[l]],
                                constant: clamp(r),
                            },
                        });
                    }
                }
            }
        }
        out
    }
}

impl Domain for Octagon {
    const NAME: &'static str = "octagon";

    fn top(n: usize) -> Self {
        let w = 2 * n;
        let mut m = vec![INF; w * w];
        for i in 0..w {
            m[i * w + i] = 0;
        }
        Octagon { n, m, empty: false }
    }

    fn bottom(n: usize) -> Self {
        Octagon {
            empty: true,
            ..Octagon::top(n)
        }
    }

    fn dims(&self) -> usize {
        self.n
    }

    fn is_bottom(&self) -> bool {
        self.empty || self.closed().empty
    }

    fn leq(&self, other: &Self) -> bool {
        let a = self.closed();
        if a.empty {
            return true;
        }
        if other.is_bottom() {
            return false;
        }
        a.m.iter().zip(&other.m).all(|(x, y)| x <= y)
    }

    fn join(&self, other: &Self) -> Self {
        let (a, b) = (self.closed(), other.closed());
        if a.empty {
            return b;
        }
        if b.empty {
            return a;
        }
        Octagon {
            n: self.n,
            m: a.m.iter().zip(&b.m).map(|(x, y)| *x.max(y)).collect(),
            empty: false,
        }
    }

    fn meet(&self, other: &Self) -> Self {
        let mut r = Octagon {
            n: self.n,
            m: self
                .m
                .iter()
                .zip(&other.m)
                .map(|(x, y)| *x.min(y))
                .collect(),
            empty: self.empty || other.empty,
        };
        r.close();
        r
    }

    fn widen(&self, other: &Self) -> Self {
        if self.is_bottom() {
            return other.clone();
        }
        let b = other.closed();
        if b.empty {
            return self.clone();
        }
        Octagon {
            n: self.n,
            m: self
                .m
                .iter()
                .zip(&b.m)
                .map(|(x, y)| if y <= x { *x } else { INF })
                .collect(),
            empty: false,
        }
    }

    fn meet_cons(&mut self, c: &LinCons) {
        if self.empty {
            return;
        }
        if self.add_octagonal(c) {
            self.close();
            return;
        }
        for _ in 0..2 {
            self.close();
            if self.empty {
                return;
            }
            for o in self.linearise(c) {
                self.add_octagonal(&o);
            }
        }
        self.close();
    }

    fn forget(&mut self, d: usize) {
        self.close();
        if self.empty {
            return;
        }
        let w = 2 * self.n;
        for i in [2 * d, 2 * d + 1] {
            for j in 0..w {
                if i != j {
                    self.m[i * w + j] = INF;
                    self.m[j * w + i] = INF;
                }
            }
        }
    }

    fn swap(&mut self, a: usize, b: usize) {
        let w = 2 * self.n;
        let perm = |i: usize| -> usize {
            if i / 2 == a {
                2 * b + (i & 1)
            } else if i / 2 == b {
                2 * a + (i & 1)
            } else {
                i
            }
        };
        let mut m = vec![INF; w * w];
        for i in 0..w {
            for j in 0..w {
                m[perm(i) * w + perm(j)] = self.m[i * w + j];
            }
        }
        self.m = m;
    }

    fn bounds(&self, e: &LinExpr) -> (Option<i64>, Option<i64>) {
        let c = self.closed();
        if c.empty {
            return (Some(0), Some(-1));
        }
        let k = e.constant as i128;
        // Upper bound of s1·x1 + s2·x2 (unit coefficients) from the matrix.
        let upper = |t: &[(usize, i64)]| -> Option<i128> {
            match *t {
                [] => Some(0),
                [(d, a)] if a.abs() == 1 => {
                    let i = Octagon::signed(d, a);
                    let u = c.at(i, bar(i));
                    (u != INF).then(|| floor_div(u as i128, 2))
                }
                [(d1, a1), (d2, a2)] if a1.abs() == 1 && a2.abs() == 1 => {
                    let u = c.at(Octagon::signed(d1, a1), bar(Octagon::signed(d2, a2)));
                    (u != INF).then_some(u as i128)
                }
                _ => {
                    // Sum of the terms' upper bounds.
                    let mut s = 0i128;
                    for &(d, a) in t {
                        let (lo, hi) = c.range_closed(d);
                        s += if a > 0 {
                            a as i128 * hi? as i128
                        } else {
                            a as i128 * lo? as i128
                        };
                    }
                    Some(s)
                }
            }
        };
        let neg: Vec<(usize, i64)> = e.terms.iter().map(|&(d, a)| (d, -a)).collect();
        let hi = upper(&e.terms).map(|u| clamp(u + k));
        let lo = upper(&neg).map(|u| clamp(k - u));
        (lo, hi)
    }

    fn contains(&self, point: &[i64]) -> bool {
        if self.is_bottom() {
            return false;
        }
        let w = 2 * self.n;
        let v = |i: usize| -> i128 {
            let x = point[i / 2] as i128;
            if i & 1 == 0 {
                x
            } else {
                -x
            }
        };
        for i in 0..w {
            for j in 0..w {
                let c = self.m[i * w + j];
                if c != INF && v(i) - v(j) > c as i128 {
                    return false;
                }
            }
        }
        true
    }

    fn constraints(&self) -> Vec<LinCons> {
        let c = self.closed();
        if c.empty {
            return vec![LinCons {
                expr: LinExpr::constant(1),
            }];
        }
        let w = 2 * self.n;
        let lin = |i: usize| -> (usize, i64) { (i / 2, if i & 1 == 0 { 1 } else { -1 }) };
        let mut out = Vec::new();
        for i in 0..w {
            for j in 0..w {
                let b = c.at(i, j);
                if i == j || b == INF {
                    continue;
                }
                // Each constraint appears twice (coherence); keep one copy.
                if (bar(j), bar(i)) < (i, j) {
                    continue;
                }
                let mut e = LinExpr::constant(0);
                if j == bar(i) {
                    // 2·V_i ≤ b
                    let (d, s) = lin(i);
                    e.terms.push((d, s));
                    e.constant = -clamp(floor_div(b as i128, 2));
                } else {
                    let (d1, s1) = lin(i);
                    let (d2, s2) = lin(j);
                    e = LinExpr {
                        terms: vec![(d1, s1)],
                        constant: -b,
                    }
                    .add_scaled(
                        &LinExpr {
                            terms: vec![(d2, s2)],
                            constant: 0,
                        },
                        -1,
                    )
                    .expect("small coefficients");
                }
                if !out.contains(&LinCons { expr: e.clone() }) {
                    out.push(LinCons { expr: e });
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn le(terms: &[(usize, i64)], bound: i64) -> LinCons {
        LinCons::at_most(terms, bound)
    }

    #[test]
    fn relations_survive_and_closure_derives_bounds() {
        let mut o = Octagon::top(3);
        o.meet_cons(&le(&[(0, -1)], -6)); // x ≥ 6
        o.meet_cons(&le(&[(1, 1), (0, -1)], 2)); // y − x ≤ 2
        o.meet_cons(&le(&[(0, 1), (1, -1)], -2)); // x − y ≤ −2
        assert_eq!(o.range(1), (Some(8), None)); // y ≥ 8 by closure
        assert!(o.entails(&le(&[(1, 1), (0, -1)], 2)));
        // p = y − x (non-octagonal) with p = 2 known: y − x = 2 follows.
        let mut q = Octagon::top(3);
        q.meet_cons(&le(&[(2, 1)], 2));
        q.meet_cons(&le(&[(2, -1)], -2));
        q.meet_cons(&le(&[(2, 1), (1, -1), (0, 1)], 0));
        q.meet_cons(&le(&[(2, -1), (1, 1), (0, -1)], 0));
        assert!(q.entails(&le(&[(1, 1), (0, -1)], 2)));
        assert!(q.entails(&le(&[(1, -1), (0, 1)], -2)));
        // swap and forget
        let mut s = o.clone();
        s.swap(0, 2);
        assert_eq!(s.range(2), (Some(6), None));
        s.forget(2);
        assert_eq!(s.range(1), (Some(8), None));
        assert_eq!(s.range(2), (None, None));
        assert!(s.contains(&[0, 8, -100]));
    }

    #[test]
    fn inconsistent_constraints_give_bottom() {
        let mut o = Octagon::top(2);
        o.meet_cons(&le(&[(0, 1), (1, 1)], 1)); // x + y ≤ 1
        o.meet_cons(&le(&[(0, -1)], -1)); // x ≥ 1
        o.meet_cons(&le(&[(1, -1)], -1)); // y ≥ 1
        assert!(o.is_bottom());
        // Integer tightening: 2x ≤ 1 and 2x ≥ 1 has no integer solution.
        let mut t = Octagon::top(1);
        t.meet_cons(&le(&[(0, 2)], 1));
        t.meet_cons(&le(&[(0, -2)], -1));
        assert!(t.is_bottom());
    }
}
