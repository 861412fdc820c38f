//! Approximate coreachability of accept and the strengthened guards (seed 004 Table 3 step 2,
//! L548-600 and L602-618): `coreach^α ⊇ coreach(Pass)` by a backward abstract interpretation
//! with widening, and `K_t = pre^α_t(coreach^α)` for every transition `t`.
//!
//! For a transition `t = g(p) : G ? v := A(v, p)` into location `ℓ'`, the backward transfer of
//! an abstract value `Y` at `ℓ'` is
//!
//! ```text
//! K_t(Y)   = G ⊓ Y[v := A(v,p)]        over the variables and parameters (004: pre^α(A))
//! pre_t(Y) = ∃p. K_t(Y)                 over the variables
//! ```
//!
//! The substitution is computed without symbolic rewriting: each assigned `v` is swapped with
//! its (free) scratch dimension `'v`, the equations `'v = A(v, p)` are met, and the scratch
//! dimensions are forgotten; simultaneous assignments come out right because every `A` reads
//! the pre-state dimensions. Non-linear updates leave `v` unconstrained.
//!
//! The fixpoint `X_ℓ = ⊤` on accept locations, `X_ℓ = ⊔_{t from ℓ} pre_t(X_{to(t)})`
//! elsewhere, is computed by round-robin iteration from ⊥, joining for the first
//! [`Options::widen_delay`] updates of a location and widening after that (so loops stabilise),
//! then [`Options::narrowing`] descending rounds `X := F(X)` recover precision. Soundness: the
//! stable ascending result is a post-fixpoint of a sound abstraction of the concrete backward
//! operator, so it contains the concrete coreach set, and so does every descending round.
//! **The strengthened guards `G ∧ K_t` never exclude a concrete step from which accept is
//! reachable** (property-tested in `tests/soundness.rs`).

use crate::domain::Domain;
use crate::linear::{LinCons, LinExpr};
use crate::product::{Product, Transition};

/// Options of the analysis.
#[derive(Clone, Debug)]
pub struct Options {
    /// Updates of a location that join before widening starts.
    pub widen_delay: usize,
    /// Descending (narrowing) rounds after stabilisation.
    pub narrowing: usize,
    /// Ascending rounds before the iteration gives up and sets every location that still
    /// changes to ⊤ (sound; a budget against a domain whose widening is slow to stabilise).
    pub max_rounds: usize,
    /// The optional simplification of 004 Fig. 4: intersect with a forward
    /// over-approximation of the states the test case reaches ([`crate::reach`]).
    pub forward: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            widen_delay: 2,
            narrowing: 2,
            max_rounds: 1000,
            forward: false,
        }
    }
}

/// The result: an over-approximation of coreach(accept) per product location.
#[derive(Clone, Debug)]
pub struct Coreach<D> {
    /// The abstract value per location (over the variable dimensions; parameters and scratch
    /// dimensions are unconstrained).
    pub values: Vec<D>,
    /// Ascending rounds until stabilisation.
    pub rounds: usize,
    /// How many widenings were applied.
    pub widenings: usize,
}

/// `Y[v := A(v, p)]` (see the module documentation).
pub fn substitute<D: Domain>(p: &Product, t: &Transition, y: &D) -> D {
    let mut z = y.clone();
    for (v, _) in &t.assign {
        let s = p.scratch_dim(*v);
        z.forget(s);
        z.swap(*v, s);
    }
    for (v, e) in &t.assign {
        if let Some(e) = e {
            let s = LinExpr::var(p.scratch_dim(*v));
            if let Some([a, b]) = LinCons::eq(&s, e) {
                z.meet_cons(&a);
                z.meet_cons(&b);
            }
        }
    }
    for (v, _) in &t.assign {
        z.forget(p.scratch_dim(*v));
    }
    z
}

/// `K_t` restricted to the guard: one abstract value per disjunct of `G` (empty disjuncts
/// dropped), over variables and parameters. `G ∧ K_t` is their union.
pub fn strengthen<D: Domain>(p: &Product, t: &Transition, target: &D) -> Vec<D> {
    if target.is_bottom() {
        return Vec::new();
    }
    let z = substitute(p, t, target);
    let mut out = Vec::new();
    for conj in &t.guard {
        let mut k = z.clone();
        meet_all(&mut k, conj);
        if !k.is_bottom() {
            out.push(k);
        }
    }
    out
}

/// Meet a conjunction of constraints. Twice: a constraint that a relational domain can only
/// approximate (e.g. `p = y − x` in octagons) is linearised with the bounds that the other
/// constraints give (`p = 2`), whatever their order.
pub fn meet_all<D: Domain>(d: &mut D, conj: &[LinCons]) {
    for _ in 0..2 {
        for c in conj {
            d.meet_cons(c);
            if d.is_bottom() {
                return;
            }
        }
    }
}

/// `pre_t(Y)`: the strengthened guard with the parameters forgotten.
pub fn pre<D: Domain>(p: &Product, t: &Transition, target: &D) -> D {
    let mut acc = D::bottom(p.num_dims());
    for mut k in strengthen(p, t, target) {
        for i in 0..p.nparams {
            k.forget(p.param_dim(i));
        }
        acc = acc.join(&k);
    }
    acc
}

fn step<D: Domain>(p: &Product, x: &[D], l: usize) -> D {
    let mut acc = D::bottom(p.num_dims());
    for t in p.transitions.iter().filter(|t| t.from == l) {
        acc = acc.join(&pre(p, t, &x[t.to]));
    }
    acc
}

/// The chaotic iteration shared by the backward and the forward analyses: `x` starts at the
/// initial values, the locations for which `fixed` holds keep them, the others are updated
/// with `f` in the given order, joining for the first [`Options::widen_delay`] updates and
/// widening after; after [`Options::max_rounds`] rounds a location that still changes becomes
/// ⊤. Then [`Options::narrowing`] descending rounds. Returns the rounds and widenings.
pub(crate) fn fixpoint<D: Domain>(
    x: &mut [D],
    order: &[usize],
    fixed: impl Fn(usize) -> bool,
    f: impl Fn(&[D], usize) -> D,
    opts: &Options,
) -> (usize, usize) {
    let mut updates = vec![0usize; x.len()];
    let mut rounds = 0;
    let mut widenings = 0;
    loop {
        rounds += 1;
        let mut changed = false;
        for &l in order {
            if fixed(l) {
                continue;
            }
            let new = f(x, l);
            if new.leq(&x[l]) {
                continue;
            }
            changed = true;
            updates[l] += 1;
            x[l] = if rounds > opts.max_rounds {
                D::top(x[l].dims())
            } else if updates[l] > opts.widen_delay {
                widenings += 1;
                x[l].widen(&x[l].join(&new))
            } else {
                x[l].join(&new)
            };
        }
        if !changed {
            break;
        }
    }
    for _ in 0..opts.narrowing {
        let next: Vec<D> = (0..x.len())
            .map(|l| if fixed(l) { x[l].clone() } else { f(x, l) })
            .collect();
        x.clone_from_slice(&next);
    }
    (rounds, widenings)
}

/// Compute the over-approximation of coreach(accept) in domain `D`.
pub fn coreach<D: Domain>(p: &Product, opts: &Options) -> Coreach<D> {
    coreach_within(p, opts, None)
}

/// coreach(accept) restricted to `within` (one value per location, e.g. the forward
/// reachable states of [`crate::reach`]): `X_ℓ = R_ℓ ⊓ ⊔_t pre_t(X_to(t))`. Sound for the
/// states of `R`: the concrete coreach ∩ reach set is the least fixpoint of
/// `X ↦ R ∩ (Accept ∪ pre(X))` (a state on a path to accept has its successor on it).
pub fn coreach_within<D: Domain>(p: &Product, opts: &Options, within: Option<&[D]>) -> Coreach<D> {
    let n = p.num_dims();
    let mut x: Vec<D> = p
        .locations
        .iter()
        .enumerate()
        .map(|(l, loc)| match (loc.target, within) {
            (true, Some(r)) => r[l].clone(),
            (true, None) => D::top(n),
            (false, _) => D::bottom(n),
        })
        .collect();
    // Backward problem: visit locations in reverse discovery order (targets first, mostly).
    let order: Vec<usize> = (0..x.len()).rev().collect();
    let f = |x: &[D], l: usize| {
        let s = step(p, x, l);
        match within {
            Some(r) => s.meet(&r[l]),
            None => s,
        }
    };
    let (rounds, widenings) = fixpoint(&mut x, &order, |l| p.locations[l].target, f, opts);
    Coreach {
        values: x,
        rounds,
        widenings,
    }
}

impl<D: Domain> Coreach<D> {
    /// The strengthened guard `G ∧ K_t` of transition `t` (a union of abstract values).
    pub fn guard(&self, p: &Product, t: usize) -> Vec<D> {
        let t = &p.transitions[t];
        strengthen(p, t, &self.values[t.to])
    }

    /// True when the initial valuation may reach accept (false: the purpose certainly cannot
    /// be met from the start).
    pub fn initially_coreachable(&self, p: &Product) -> bool {
        let v = &self.values[p.initial];
        match p.initial_point() {
            Some(pt) => v.contains(&pt),
            None => !v.is_bottom(),
        }
    }
}
