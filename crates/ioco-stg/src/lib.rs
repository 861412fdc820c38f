//! # ioco-stg: symbolic test purposes (STG style)
//!
//! Symbolic test selection by approximate analysis, after seed 004 (Jeannet, Jéron, Rusu,
//! Zinovieva, TACAS 2005), Table 3:
//!
//! 1. [`product`]: the product of a specification STS and a test purpose, both `.ioco` models
//!    (the purpose observes the specification's variables; `accept…`/`refuse…` locations);
//! 2. [`coreach`]: an over-approximation of the states that can still reach accept, by
//!    backward abstract interpretation in an abstract [`domain`] with widening:
//!    [`interval`] (boxes), [`octagon`] (relational: it keeps `p = x + 2`) or [`polyhedra`]
//!    (the paper's convex polyhedra, §4: any linear relation, e.g. the three-variable guard
//!    `p = y − x`; Fourier–Motzkin with budgets);
//! 3. [`select`]: guards strengthened by the approximation (`G ∧ K_t`), inputs that certainly
//!    leave coreach dropped, outputs that certainly leave it Inconclusive, and online input
//!    choice inside the strengthened guards;
//! 4. optionally ([`Options::forward`]), [`reach`]: the simplification of 004 Fig. 4, a
//!    forward over-approximation of the test case's valuations along the strengthened guards,
//!    intersected with coreach and the guards; transitions that never fire are deleted;
//! 5. [`online`]: online execution against a system with data, inputs controlled inside the
//!    strengthened guards, conformance judged by `ioco-symbolic`'s oracle.
//!
//! Guards and updates are abstracted into linear integer constraints ([`linear`]); anything
//! non-linear is over-approximated, so the analysis stays sound: **a strengthened guard never
//! excludes a concrete step from which accept is reachable**.
//!
//! ```
//! use ioco_stg::{analyse, Domain, LinExpr, Octagon};
//! let spec = ioco_lang::parse_str("s.ioco", "model S { input a(p: int) output ok var x: int = 0 init i
//!   i -- a?(p) { x = p } --> w   w -- ok! [x >= 6] --> i }").unwrap();
//! let purpose = ioco_lang::parse_str("p.ioco", "model P { input a(p: int) output ok init wait
//!   wait -- ok! --> accept }").unwrap();
//! let g = analyse::<Octagon>(&spec, &purpose).unwrap();
//! let t = g.product.transitions_on(g.product.initial, "a")[0];
//! // The input a(p) is only worth sending with p ≥ 6.
//! assert!(g.choose_input(t, &[0], |p| p[0] >= 6).is_some());
//! assert!(g.kept[t].iter().all(|k| k.bounds(&LinExpr::var(g.product.param_dim(0))).0 == Some(6)));
//! ```

pub mod choice;
pub mod coreach;
pub mod domain;
pub mod interval;
pub mod linear;
pub mod octagon;
pub mod online;
pub mod polyhedra;
pub mod product;
pub mod reach;
pub mod select;
pub mod steered;

pub use choice::{auto, DomainChoice};
pub use coreach::{Coreach, Options};
pub use domain::Domain;
pub use interval::Interval;
pub use linear::{LinCons, LinExpr};
pub use octagon::Octagon;
pub use polyhedra::Polyhedra;
pub use product::{Product, ProductError};
pub use select::{SelectError, TestGraph};

/// Why [`analyse`] failed.
#[derive(Debug)]
pub enum StgError {
    /// The product cannot be built.
    Product(ProductError),
    /// The purpose cannot be met.
    Select(SelectError),
}

impl std::fmt::Display for StgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StgError::Product(e) => e.fmt(f),
            StgError::Select(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for StgError {}

/// Product, coreachability in domain `D` with default options, strengthened guards.
pub fn analyse<D: Domain>(
    spec: &ioco_lang::Model,
    purpose: &ioco_lang::Model,
) -> Result<TestGraph<D>, StgError> {
    analyse_with(spec, purpose, &Options::default())
}

/// [`analyse`] with options (e.g. [`Options::forward`], the forward simplification).
pub fn analyse_with<D: Domain>(
    spec: &ioco_lang::Model,
    purpose: &ioco_lang::Model,
    opts: &Options,
) -> Result<TestGraph<D>, StgError> {
    let p = Product::new(spec, purpose).map_err(StgError::Product)?;
    TestGraph::new(p, opts).map_err(StgError::Select)
}
