//! Forward reachability of the test case, the optional simplification of seed 004 Table 3
//! ("simplified with reachability analysis", caption of Fig. 4, L733-735; notes §B2.2): an
//! over-approximation `reach^α_ℓ` of the valuations with which the test case can be at
//! product location `ℓ`, computed forward from the initial valuation along the
//! **strengthened** guards `G ∧ K_t` (the tester only sends inputs inside them, and an output
//! outside them ends the test in Inconclusive, so no other step continues the test).
//!
//! For a transition `t = g(p) : G ∧ K_t ? v := A(v, p)` the forward transfer is
//!
//! ```text
//! post_t(X) = ∃v_old, p. (X ⊓ G ⊓ K_t ⊓ 'v = A(v, p))   with 'v renamed to v
//! ```
//!
//! computed with the [`Domain`] operations alone: every assigned `v` gets the equation
//! `'v = A(v, p)` on its scratch dimension (all read the pre-state), then `v` is forgotten and
//! swapped with `'v`; parameters are forgotten. The fixpoint uses the same iteration with
//! widening as [`crate::coreach`].
//!
//! Intersecting with `reach^α` prunes further, never unsoundly for a run of the test case:
//! every valuation the test case actually reaches is in `reach^α`, so a guard `K_t ⊓ reach^α`
//! excludes only steps the test case never takes. In the running example this deletes the
//! Error, NOK and non-accepting OK transitions at `(Compare,Wait)` (`y = x + 2 ∧ x ≥ 6` there),
//! as in the paper's Fig. 4.

use crate::coreach::{fixpoint, meet_all, Options};
use crate::domain::Domain;
use crate::linear::{LinCons, LinExpr};
use crate::product::{Product, Transition};

/// `post_t` of `x` through the guard pieces `pieces` (each over variables and parameters).
pub fn post<D: Domain>(p: &Product, t: &Transition, pieces: &[D], x: &D) -> D {
    let mut acc = D::bottom(p.num_dims());
    if x.is_bottom() {
        return acc;
    }
    for k in pieces {
        let mut z = x.meet(k);
        if z.is_bottom() {
            continue;
        }
        for (v, _) in &t.assign {
            z.forget(p.scratch_dim(*v));
        }
        for (v, e) in &t.assign {
            if let Some(e) = e {
                let s = LinExpr::var(p.scratch_dim(*v));
                if let Some(eq) = LinCons::eq(&s, e) {
                    meet_all(&mut z, &eq);
                }
            }
        }
        for (v, _) in &t.assign {
            z.forget(*v);
            z.swap(*v, p.scratch_dim(*v));
        }
        for i in 0..p.nparams {
            z.forget(p.param_dim(i));
        }
        acc = acc.join(&z);
    }
    acc
}

/// The initial valuation: the integer initial values; variables without one are free.
pub fn initial<D: Domain>(p: &Product) -> D {
    let mut x = D::top(p.num_dims());
    for (d, v) in p.init.iter().enumerate() {
        if let Some(v) = v {
            if let Some(eq) = LinCons::eq(&LinExpr::var(d), &LinExpr::constant(*v)) {
                meet_all(&mut x, &eq);
            }
        }
    }
    x
}

/// `reach^α` per location, forward along the guard pieces `guards[t]` of every transition
/// (for the test case: the strengthened guards, see the module documentation).
pub fn reach<D: Domain>(p: &Product, guards: &[Vec<D>], opts: &Options) -> Vec<D> {
    let n = p.num_dims();
    let mut x: Vec<D> = (0..p.locations.len()).map(|_| D::bottom(n)).collect();
    x[p.initial] = initial(p);
    let init = x[p.initial].clone();
    let order: Vec<usize> = (0..x.len()).collect();
    let f = |x: &[D], l: usize| {
        let mut acc = if l == p.initial {
            init.clone()
        } else {
            D::bottom(n)
        };
        for (k, t) in p.transitions.iter().enumerate().filter(|(_, t)| t.to == l) {
            acc = acc.join(&post(p, t, &guards[k], &x[t.from]));
        }
        acc
    };
    fixpoint(&mut x, &order, |_| false, f, opts);
    x
}

/// True when transition `t` can never fire from `reach^α` of its source (its guard `G` is
/// empty there): the simplification deletes it.
pub fn never_fires<D: Domain>(t: &Transition, reach_from: &D) -> bool {
    t.guard.iter().all(|conj| {
        let mut z = reach_from.clone();
        meet_all(&mut z, conj);
        z.is_bottom()
    })
}
