//! The convex polyhedra domain (Cousot & Halbwachs, POPL 1978), the "convex polyhedra \[7\]"
//! with which seed 004 §4 (L743-746) computes the coreachability of its running example and
//! obtains Fig. 4 (`p ≥ 6` at RecX, `p = x + 2` at RecY, `p = y − x = 2` at Cmp). Unlike
//! octagons it represents any linear constraint exactly, in particular the three-variable
//! guard `p = y − x` of the example's `OK(p)`.
//!
//! A value is a conjunction of linear constraints `Σ aᵢxᵢ + c ≤ 0` with integer coefficients
//! (the constraint form of a polyhedron; no generators). The operators:
//!
//! * **projection** (`forget`, ∃x): Fourier–Motzkin elimination; an equality that mentions
//!   the variable is used to substitute it (Gauss), which adds no constraint;
//! * **emptiness, entailment, bounds**: Fourier–Motzkin elimination of every dimension but one
//!   fresh `t = e`; the bounds of `t` are those of `e`;
//! * **integer tightening**: the domain abstracts sets of *integer* points, so a constraint
//!   `Σ aᵢxᵢ ≤ b` is divided by `g = gcd(aᵢ)` and its bound rounded down, `⌊b/g⌋` (the cutting
//!   plane of Gomory/Chvátal for one constraint); every integer point keeps satisfying it;
//! * **join**: the closed convex hull, computed as the projection of the lifted system
//!   `x = y + z, A₁y ≤ λb₁, A₂z ≤ (1−λ)b₂, 0 ≤ λ ≤ 1` onto `x` (Benoy, King & Mesnard 2005),
//!   over the rationals (the lifted variables are not integers), then tightened;
//! * **widening**: the standard widening of Halbwachs (1979): keep the constraints of the left
//!   argument that the right one satisfies, plus the right argument's constraints that are
//!   mutually redundant with a dropped one (so `y = x` survives a loop that moves both);
//!   never more constraints than the left argument;
//! * redundant constraints are removed after a join, a projection and a widening.
//!
//! **Budgets.** Fourier–Motzkin can square the number of constraints at each elimination.
//! Every elimination keeps at most [`MAX_CONSTRAINTS`] constraints and coefficients are kept
//! below 2⁴⁰ (a combination that exceeds it is dropped). Dropping a consequence of the system
//! is an over-approximation, so an exhausted budget loses precision, never soundness: a
//! projection or a hull becomes larger, an emptiness or entailment test answers "not shown".
//! A hull whose elimination was cut short is completed by the weak join (the constraints of
//! either argument that the other entails), which is sound on its own.
//!
//! **Why not Z3.** A Z3 variant (conjunctions, projection by the `qe` tactic) was considered:
//! quantifier elimination over integers produces divisibility constraints and disjunctions
//! that leave the conjunctive form (and would need an over-approximation step of their own);
//! and it is slow for this use: one analysis of the running example makes 126 projections
//! (emptiness, entailment, bounds, hulls; counted) in 0.087 ms in all, where a single Z3 check
//! costs about 0.5 ms on the project machine (`BENCHMARKS.md`, `ioco-symbolic`), so the same
//! queries through Z3 would take ≈ 60 ms, some 700× more. The rational relaxation with integer
//! tightening used here is the classical polyhedra analysis (the paper's NBac is rational,
//! L1018-1019); soundness only needs an over-approximation (004 L610-611). `BENCHMARKS.md`
//! has the measured cost against octagons.

use crate::domain::{ceil_div, clamp, floor_div, Domain};
use crate::linear::{LinCons, LinExpr};

/// The most constraints one Fourier–Motzkin elimination may produce before it stops adding
/// (sound: the rest are consequences that are simply not kept).
pub const MAX_CONSTRAINTS: usize = 96;

/// Coefficients and constants are kept below this magnitude.
const LIMIT: i128 = 1 << 40;

/// A constraint `Σ terms + c ≤ 0` with wide coefficients, during elimination.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Row {
    /// (dimension, non-zero coefficient), sorted by dimension.
    terms: Vec<(usize, i128)>,
    c: i128,
}

impl Row {
    fn of(c: &LinCons) -> Row {
        Row {
            terms: c.expr.terms.iter().map(|&(d, a)| (d, a as i128)).collect(),
            c: c.expr.constant as i128,
        }
    }

    fn to_cons(&self) -> LinCons {
        LinCons {
            expr: LinExpr {
                terms: self.terms.iter().map(|&(d, a)| (d, a as i64)).collect(),
                constant: self.c as i64,
            },
        }
    }

    fn coef(&self, v: usize) -> i128 {
        self.terms
            .iter()
            .find(|t| t.0 == v)
            .map(|t| t.1)
            .unwrap_or(0)
    }

    /// True when this row is `e ≤ 0` and `other` is `−e ≤ 0` (together: `e = 0`).
    fn opposite(&self, other: &Row) -> bool {
        self.c == -other.c
            && self.terms.len() == other.terms.len()
            && self
                .terms
                .iter()
                .zip(&other.terms)
                .all(|(a, b)| a.0 == b.0 && a.1 == -b.1)
    }

    /// `k·self + l·other` (`k, l ≥ 0`), normalised; `None` when it overflows the limit.
    fn combine(&self, k: i128, other: &Row, l: i128, integer: bool) -> Option<Row> {
        let mut terms: Vec<(usize, i128)> =
            Vec::with_capacity(self.terms.len() + other.terms.len());
        let (mut i, mut j) = (0, 0);
        while i < self.terms.len() || j < other.terms.len() {
            let a = self.terms.get(i);
            let b = other.terms.get(j);
            let (d, v) = match (a, b) {
                (Some(&(da, va)), Some(&(db, vb))) if da == db => {
                    i += 1;
                    j += 1;
                    (da, k.checked_mul(va)?.checked_add(l.checked_mul(vb)?)?)
                }
                (Some(&(da, va)), Some(&(db, _))) if da < db => {
                    i += 1;
                    (da, k.checked_mul(va)?)
                }
                (Some(&(da, va)), None) => {
                    i += 1;
                    (da, k.checked_mul(va)?)
                }
                (_, Some(&(db, vb))) => {
                    j += 1;
                    (db, l.checked_mul(vb)?)
                }
                (None, None) => unreachable!("the loop condition"),
            };
            if v != 0 {
                terms.push((d, v));
            }
        }
        let c = k
            .checked_mul(self.c)?
            .checked_add(l.checked_mul(other.c)?)?;
        Row { terms, c }.normalise(integer)
    }

    /// Divide by the gcd of the coefficients; for integer variables, round the bound down
    /// (tightening). `None` when a coefficient exceeds the limit.
    fn normalise(mut self, integer: bool) -> Option<Row> {
        self.terms.retain(|t| t.1 != 0);
        if self.terms.is_empty() {
            self.c = self.c.signum();
            return Some(self);
        }
        let mut g = self.terms.iter().fold(0, |g, t| gcd(g, t.1.abs()));
        if !integer {
            g = gcd(g, self.c.abs());
        }
        if g > 1 {
            for t in &mut self.terms {
                t.1 /= g;
            }
            // Σ a x ≤ −c  →  Σ (a/g) x ≤ ⌊−c/g⌋, i.e. constant ⌈c/g⌉ (exact when !integer).
            self.c = ceil_div(self.c, g);
        }
        let big = self.c.abs() >= LIMIT || self.terms.iter().any(|t| t.1.abs() >= LIMIT);
        (!big).then_some(self)
    }
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Keep the tightest row per left-hand side; drop trivially true rows. Returns false when a
/// constant row is violated (`c ≤ 0` with `c > 0`).
fn tidy(rows: &mut Vec<Row>) -> bool {
    rows.sort_by(|a, b| a.terms.cmp(&b.terms).then(b.c.cmp(&a.c)));
    rows.dedup_by(|later, first| later.terms == first.terms);
    let bad = rows.iter().any(|r| r.terms.is_empty() && r.c > 0);
    rows.retain(|r| !r.terms.is_empty());
    !bad
}

/// The result of a projection.
struct Projected {
    rows: Vec<Row>,
    /// False when a budget dropped consequences (the result is then larger than exact).
    exact: bool,
    /// A violated constant constraint was derived: the system has no (integer) point.
    infeasible: bool,
}

/// Eliminate dimension `v` (Fourier–Motzkin; Gauss when an equality mentions `v`).
fn eliminate(rows: Vec<Row>, v: usize, integer: bool, budget: usize) -> Projected {
    let (mut zero, mut pos, mut neg) = (Vec::new(), Vec::new(), Vec::new());
    for r in rows {
        match r.coef(v).signum() {
            0 => zero.push(r),
            1 => pos.push(r),
            _ => neg.push(r),
        }
    }
    let mut exact = true;
    if !pos.is_empty() && !neg.is_empty() {
        // An equality e = 0 mentioning v: substitute (every other row combines with it alone).
        let eq = pos
            .iter()
            .enumerate()
            .find_map(|(i, p)| neg.iter().position(|q| p.opposite(q)).map(|j| (i, j)));
        if let Some((i, j)) = eq {
            let (p, q) = (pos.swap_remove(i), neg.swap_remove(j));
            let a = p.coef(v);
            for r in pos.iter() {
                match q.combine(r.coef(v), r, a, integer) {
                    Some(x) => zero.push(x),
                    None => exact = false,
                }
            }
            for r in neg.iter() {
                match p.combine(-r.coef(v), r, a, integer) {
                    Some(x) => zero.push(x),
                    None => exact = false,
                }
            }
        } else {
            'all: for p in &pos {
                for q in &neg {
                    if zero.len() >= budget {
                        exact = false;
                        break 'all;
                    }
                    match p.combine(-q.coef(v), q, p.coef(v), integer) {
                        Some(x) => zero.push(x),
                        None => exact = false,
                    }
                }
            }
        }
    }
    let infeasible = !tidy(&mut zero);
    Projected {
        rows: zero,
        exact,
        infeasible,
    }
}

/// Eliminate every dimension for which `keep` is false, cheapest first.
fn project(mut rows: Vec<Row>, keep: impl Fn(usize) -> bool, integer: bool) -> Projected {
    let mut exact = true;
    if !tidy(&mut rows) {
        return Projected {
            rows: Vec::new(),
            exact,
            infeasible: true,
        };
    }
    loop {
        // Dimensions still present that must go, with their Fourier–Motzkin cost.
        let mut present: Vec<usize> = rows
            .iter()
            .flat_map(|r| r.terms.iter().map(|t| t.0))
            .filter(|&d| !keep(d))
            .collect();
        present.sort_unstable();
        present.dedup();
        let mut best: Option<(i64, usize)> = None;
        for &d in &present {
            let (mut p, mut n) = (0i64, 0i64);
            for s in &rows {
                match s.coef(d).signum() {
                    1 => p += 1,
                    -1 => n += 1,
                    _ => {}
                }
            }
            let cost = p * n - p - n;
            if best.is_none_or(|b| cost < b.0) {
                best = Some((cost, d));
            }
        }
        let Some((_, d)) = best else {
            return Projected {
                rows,
                exact,
                infeasible: false,
            };
        };
        let r = eliminate(rows, d, integer, MAX_CONSTRAINTS);
        exact &= r.exact;
        if r.infeasible {
            return Projected {
                rows: Vec::new(),
                exact,
                infeasible: true,
            };
        }
        rows = r.rows;
    }
}

/// A convex polyhedron over `n` integer dimensions, as a conjunction of constraints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Polyhedra {
    n: usize,
    /// Normalised, tightest per left-hand side, no constant rows.
    cons: Vec<Row>,
    empty: bool,
}

impl Polyhedra {
    /// The polyhedron of a conjunction of constraints over `n` dimensions.
    pub fn from_constraints(n: usize, cs: &[LinCons]) -> Polyhedra {
        let mut p = Polyhedra::top(n);
        p.add_rows(cs.iter().map(Row::of).collect());
        p
    }

    /// Add rows and decide emptiness.
    fn add_rows(&mut self, rows: Vec<Row>) {
        if self.empty {
            return;
        }
        // A row too large to keep is dropped: that over-approximates.
        self.cons
            .extend(rows.into_iter().filter_map(|r| r.normalise(true)));
        if !tidy(&mut self.cons) || project(self.cons.clone(), |_| false, true).infeasible {
            self.set_empty();
        }
    }

    fn set_empty(&mut self) {
        self.empty = true;
        self.cons.clear();
    }

    /// Upper bound of `Σ terms + c` over the rows (`None`: unbounded or not shown). The rows
    /// are assumed to have a point.
    fn sup(rows: &[Row], e: &Row) -> Option<i128> {
        // t = e as t − e ≤ 0 and e − t ≤ 0, with t a fresh dimension.
        let t = rows
            .iter()
            .chain(std::iter::once(e))
            .flat_map(|r| r.terms.iter().map(|x| x.0 + 1))
            .max()
            .unwrap_or(0);
        let mut sys = rows.to_vec();
        let mut le = e.clone();
        le.terms.push((t, -1)); // e − t ≤ 0
        let mut ge = Row {
            terms: e.terms.iter().map(|&(d, a)| (d, -a)).collect(),
            c: -e.c,
        };
        ge.terms.push((t, 1)); // t − e ≤ 0
        sys.extend(le.normalise(true));
        sys.extend(ge.normalise(true));
        let r = project(sys, |d| d == t, true);
        if r.infeasible {
            return None;
        }
        // Rows k·t + c ≤ 0 with k > 0 bound t above by ⌊−c/k⌋.
        r.rows
            .iter()
            .filter_map(|row| match row.terms.as_slice() {
                &[(_, k)] if k > 0 => Some(floor_div(-row.c, k)),
                _ => None,
            })
            .min()
    }

    /// True when `rows` entail `c` (every integer point of `rows` satisfies it), as far as
    /// the budgets show.
    fn rows_entail(rows: &[Row], c: &Row) -> bool {
        if c.terms.is_empty() {
            return c.c <= 0;
        }
        if rows.iter().any(|r| r.terms == c.terms && r.c >= c.c) {
            return true;
        }
        let e = Row {
            terms: c.terms.clone(),
            c: 0,
        };
        Polyhedra::sup(rows, &e).is_some_and(|u| u + c.c <= 0)
    }

    /// Remove the constraints that the others entail.
    fn minimise(&mut self) {
        let mut i = 0;
        while i < self.cons.len() {
            let r = self.cons.remove(i);
            if !Polyhedra::rows_entail(&self.cons, &r) {
                self.cons.insert(i, r);
                i += 1;
            }
        }
    }

    /// The constraints of either value that the other entails (an upper bound of the join).
    fn weak_join(&self, other: &Polyhedra) -> Vec<Row> {
        let mut out: Vec<Row> = self
            .cons
            .iter()
            .filter(|c| Polyhedra::rows_entail(&other.cons, c))
            .cloned()
            .collect();
        out.extend(
            other
                .cons
                .iter()
                .filter(|c| Polyhedra::rows_entail(&self.cons, c))
                .cloned(),
        );
        out
    }

    /// The closed convex hull (see the module documentation).
    fn hull(&self, other: &Polyhedra) -> Polyhedra {
        let n = self.n;
        let mut dims: Vec<usize> = self
            .cons
            .iter()
            .chain(&other.cons)
            .flat_map(|r| r.terms.iter().map(|t| t.0))
            .collect();
        dims.sort_unstable();
        dims.dedup();
        // x: 0..n; y_d: n + index of d; λ: n + dims.len().
        let y = |d: usize| n + dims.binary_search(&d).expect("a dimension of a row");
        let lambda = n + dims.len();
        let mut sys = Vec::new();
        for r in &self.cons {
            // A₁y ≤ λb₁:  Σ a·y_d + c·λ ≤ 0
            let mut terms: Vec<(usize, i128)> = r.terms.iter().map(|&(d, a)| (y(d), a)).collect();
            terms.push((lambda, r.c));
            sys.push(Row { terms, c: 0 });
        }
        for r in &other.cons {
            // A₂(x − y) ≤ (1 − λ)b₂:  Σ a·x_d − Σ a·y_d − c·λ + c ≤ 0
            let mut terms: Vec<(usize, i128)> = r.terms.clone();
            terms.extend(r.terms.iter().map(|&(d, a)| (y(d), -a)));
            terms.push((lambda, -r.c));
            sys.push(Row { terms, c: r.c });
        }
        sys.push(Row {
            terms: vec![(lambda, -1)],
            c: 0,
        });
        sys.push(Row {
            terms: vec![(lambda, 1)],
            c: -1,
        });
        let sys: Vec<Row> = sys
            .into_iter()
            .filter_map(|mut r| {
                r.terms.sort_unstable();
                r.normalise(false)
            })
            .collect();
        let proj = project(sys, |d| d < n, false);
        let mut rows = proj.rows;
        if !proj.exact {
            rows.extend(self.weak_join(other));
        }
        let mut h = Polyhedra::top(n);
        h.cons = rows.into_iter().filter_map(|r| r.normalise(true)).collect();
        tidy(&mut h.cons);
        h.minimise();
        h
    }
}

impl Domain for Polyhedra {
    const NAME: &'static str = "polyhedra";

    fn top(n: usize) -> Self {
        Polyhedra {
            n,
            cons: Vec::new(),
            empty: false,
        }
    }

    fn bottom(n: usize) -> Self {
        Polyhedra {
            n,
            cons: Vec::new(),
            empty: true,
        }
    }

    fn dims(&self) -> usize {
        self.n
    }

    fn is_bottom(&self) -> bool {
        self.empty
    }

    fn leq(&self, other: &Self) -> bool {
        if self.empty {
            return true;
        }
        if other.empty {
            return false;
        }
        other
            .cons
            .iter()
            .all(|c| Polyhedra::rows_entail(&self.cons, c))
    }

    fn join(&self, other: &Self) -> Self {
        if self.empty {
            return other.clone();
        }
        if other.empty {
            return self.clone();
        }
        if self.cons.is_empty() || other.cons.is_empty() {
            return Polyhedra::top(self.n);
        }
        if self.leq(other) {
            return other.clone();
        }
        if other.leq(self) {
            return self.clone();
        }
        self.hull(other)
    }

    fn meet(&self, other: &Self) -> Self {
        if self.empty || other.empty {
            return Polyhedra::bottom(self.n);
        }
        let mut r = self.clone();
        r.add_rows(other.cons.clone());
        r
    }

    fn widen(&self, other: &Self) -> Self {
        if self.empty {
            return other.clone();
        }
        if other.empty {
            return self.clone();
        }
        let (kept, dropped): (Vec<Row>, Vec<Row>) = self
            .cons
            .iter()
            .cloned()
            .partition(|c| Polyhedra::rows_entail(&other.cons, c));
        if dropped.is_empty() {
            return self.clone();
        }
        // Halbwachs' refinement: a constraint of `other` that `self` entails and that can
        // replace a dropped constraint of `self` without changing `self`.
        let mut added = Vec::new();
        for c in &other.cons {
            if kept.contains(c) || !Polyhedra::rows_entail(&self.cons, c) {
                continue;
            }
            let replaces = dropped.iter().any(|d| {
                let mut sys: Vec<Row> = self.cons.iter().filter(|r| *r != d).cloned().collect();
                sys.push(c.clone());
                Polyhedra::rows_entail(&sys, d)
            });
            if replaces {
                added.push(c.clone());
            }
        }
        let mut w = Polyhedra::top(self.n);
        w.cons = kept;
        if w.cons.len() + added.len() <= self.cons.len() {
            w.cons.extend(added);
        }
        tidy(&mut w.cons);
        w
    }

    fn meet_cons(&mut self, c: &LinCons) {
        self.add_rows(vec![Row::of(c)]);
    }

    fn forget(&mut self, d: usize) {
        if self.empty || !self.cons.iter().any(|r| r.coef(d) != 0) {
            return;
        }
        let r = eliminate(std::mem::take(&mut self.cons), d, true, MAX_CONSTRAINTS);
        if r.infeasible {
            self.set_empty();
            return;
        }
        self.cons = r.rows;
        self.minimise();
    }

    fn swap(&mut self, a: usize, b: usize) {
        for r in &mut self.cons {
            for t in &mut r.terms {
                if t.0 == a {
                    t.0 = b;
                } else if t.0 == b {
                    t.0 = a;
                }
            }
            r.terms.sort_unstable();
        }
        tidy(&mut self.cons);
    }

    fn bounds(&self, e: &LinExpr) -> (Option<i64>, Option<i64>) {
        if self.empty {
            return (Some(0), Some(-1));
        }
        let r = Row {
            terms: e.terms.iter().map(|&(d, a)| (d, a as i128)).collect(),
            c: 0,
        };
        let neg = Row {
            terms: r.terms.iter().map(|&(d, a)| (d, -a)).collect(),
            c: 0,
        };
        let k = e.constant as i128;
        if r.terms.is_empty() {
            return (Some(e.constant), Some(e.constant));
        }
        let hi = Polyhedra::sup(&self.cons, &r).map(|u| clamp(u + k));
        let lo = Polyhedra::sup(&self.cons, &neg).map(|u| clamp(k - u));
        (lo, hi)
    }

    fn entails(&self, c: &LinCons) -> bool {
        self.empty || Polyhedra::rows_entail(&self.cons, &Row::of(c))
    }

    fn contains(&self, point: &[i64]) -> bool {
        !self.empty
            && self.cons.iter().all(|r| {
                r.terms
                    .iter()
                    .map(|&(d, a)| a * point[d] as i128)
                    .sum::<i128>()
                    + r.c
                    <= 0
            })
    }

    fn constraints(&self) -> Vec<LinCons> {
        if self.empty {
            return vec![LinCons {
                expr: LinExpr::constant(1),
            }];
        }
        self.cons.iter().map(Row::to_cons).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::octagon::Octagon;

    fn le(terms: &[(usize, i64)], bound: i64) -> LinCons {
        LinCons::at_most(terms, bound)
    }

    fn eq(terms: &[(usize, i64)], k: i64) -> [LinCons; 2] {
        let neg: Vec<(usize, i64)> = terms.iter().map(|&(d, a)| (d, -a)).collect();
        [le(terms, k), le(&neg, -k)]
    }

    #[test]
    fn a_three_variable_guard_is_kept_where_octagons_lose_it() {
        // p = y − x over (x, y, p), nothing else known.
        let g = eq(&[(0, 1), (1, -1), (2, 1)], 0);
        let mut ph = Polyhedra::top(3);
        let mut oc = Octagon::top(3);
        for c in &g {
            ph.meet_cons(c);
            oc.meet_cons(c);
        }
        for c in &g {
            assert!(ph.entails(c));
            assert!(!oc.entails(c));
        }
        // ... and with x ≥ 6, p = 2: y = 8 follows, and x ≥ 6 survives projecting p.
        ph.meet_cons(&le(&[(0, -1)], -6));
        ph.meet_cons(&eq(&[(2, 1)], 2)[0]);
        ph.meet_cons(&eq(&[(2, 1)], 2)[1]);
        ph.forget(2);
        assert!(ph.entails(&le(&[(0, 1), (1, -1)], -2)));
        assert!(ph.entails(&le(&[(0, -1), (1, 1)], 2)));
        assert_eq!(ph.bounds(&LinExpr::var(1)), (Some(8), None));
    }

    #[test]
    fn the_join_is_the_convex_hull() {
        // {(0,0)} ⊔ {(2,2)} = the segment y = x, 0 ≤ x ≤ 2.
        let a = Polyhedra::from_constraints(2, &[eq(&[(0, 1)], 0), eq(&[(1, 1)], 0)].concat());
        let b = Polyhedra::from_constraints(2, &[eq(&[(0, 1)], 2), eq(&[(1, 1)], 2)].concat());
        let j = a.join(&b);
        assert!(j.entails(&le(&[(0, 1), (1, -1)], 0)));
        assert!(j.entails(&le(&[(0, -1), (1, 1)], 0)));
        assert_eq!(j.bounds(&LinExpr::var(0)), (Some(0), Some(2)));
        assert!(j.contains(&[1, 1]) && !j.contains(&[1, 0]));
        // A triangle's hull is not a box: x + y ≤ 2 is kept.
        let c = Polyhedra::from_constraints(2, &[eq(&[(0, 1)], 2), eq(&[(1, 1)], 0)].concat());
        let t = j.join(&c);
        assert!(t.entails(&le(&[(1, 1)], 2)));
        assert!(t.entails(&le(&[(0, -1), (1, 1)], 0))); // y ≤ x
        assert!(t.entails(&le(&[(1, -1)], 0))); // y ≥ 0
        for pt in [[2, 0], [2, 2], [1, 1], [1, 0]] {
            assert!(t.contains(&pt), "{pt:?}");
        }
        for pt in [[0, 1], [3, 0], [0, 2]] {
            assert!(!t.contains(&pt), "{pt:?}");
        }
    }

    #[test]
    fn emptiness_uses_integer_tightening() {
        let mut p = Polyhedra::top(2);
        p.meet_cons(&le(&[(0, 2)], 1)); // 2x ≤ 1  →  x ≤ 0
        p.meet_cons(&le(&[(0, -2)], -1)); // 2x ≥ 1 →  x ≥ 1
        assert!(p.is_bottom());
        let mut q = Polyhedra::top(3);
        q.meet_cons(&le(&[(0, 1), (1, 1), (2, 1)], 1));
        q.meet_cons(&le(&[(0, -1)], -1));
        q.meet_cons(&le(&[(1, -1)], -1));
        assert!(!q.is_bottom());
        q.meet_cons(&le(&[(2, -1)], 0));
        assert!(q.is_bottom());
    }

    #[test]
    fn widening_keeps_stable_constraints_and_mutually_redundant_ones() {
        // x = y = 0, then 0 ≤ x = y ≤ 1: the widening keeps x ≥ 0 and y = x.
        let a = Polyhedra::from_constraints(2, &[eq(&[(0, 1)], 0), eq(&[(1, 1)], 0)].concat());
        let mut b = Polyhedra::from_constraints(2, &eq(&[(0, 1), (1, -1)], 0));
        b.meet_cons(&le(&[(0, -1)], 0));
        b.meet_cons(&le(&[(0, 1)], 1));
        let w = a.widen(&a.join(&b));
        assert!(w.entails(&le(&[(0, -1)], 0)));
        assert!(w.entails(&le(&[(0, 1), (1, -1)], 0)));
        assert!(w.entails(&le(&[(0, -1), (1, 1)], 0)));
        assert_eq!(w.bounds(&LinExpr::var(0)).1, None);
        assert!(a.leq(&w) && b.leq(&w));
    }

    #[test]
    fn swap_forget_and_bounds() {
        let mut p = Polyhedra::from_constraints(3, &eq(&[(0, 1), (1, 2)], 4));
        p.meet_cons(&le(&[(1, 1)], 3));
        p.meet_cons(&le(&[(1, -1)], -1));
        assert_eq!(p.bounds(&LinExpr::var(0)), (Some(-2), Some(2)));
        p.swap(0, 2);
        assert_eq!(p.bounds(&LinExpr::var(2)), (Some(-2), Some(2)));
        assert_eq!(p.bounds(&LinExpr::var(0)), (None, None));
        p.forget(1);
        assert_eq!(p.bounds(&LinExpr::var(2)), (Some(-2), Some(2)));
        assert!(p.contains(&[100, -100, 0]));
    }

    #[test]
    fn budgets_keep_a_large_system_bounded_and_sound() {
        // 40 constraints in 8 dimensions, all pairwise sums: the projection stays within the
        // budget and keeps a known point.
        let mut p = Polyhedra::top(8);
        let pt = [1i64, -2, 3, 0, 2, -1, 1, 0];
        let mut k = 0;
        for i in 0..8 {
            for j in 0..8 {
                if i < j && k < 40 {
                    k += 1;
                    let a = if (i + j) % 2 == 0 { 1 } else { -1 };
                    let c = le(&[(i, a), (j, 2)], a * pt[i] + 2 * pt[j] + (k % 3));
                    p.meet_cons(&c);
                }
            }
        }
        assert!(p.contains(&pt));
        for d in 0..6 {
            p.forget(d);
            assert!(p.cons.len() <= MAX_CONSTRAINTS, "{}", p.cons.len());
            assert!(p.contains(&pt));
        }
    }
}
