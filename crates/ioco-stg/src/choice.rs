//! The default analysis (issue #36): which abstract domain, and whether to add the forward
//! simplification, when the user names none.
//!
//! **Rule.** Convex polyhedra with the forward reachability simplification (seed 004 §4:
//! "a coreachability analysis using convex polyhedra", Fig. 4 "simplified with reachability
//! analysis", Fig. 5 the resulting test case) when the product has at most
//! [`AUTO_MAX_DIMS`] numeric dimensions and [`AUTO_MAX_TRANSITIONS`] transitions; octagons
//! without the simplification beyond. Measured (BENCHMARKS.md, "Symbolic test purposes"):
//! on the running example (5 dimensions) and the generated chains up to 21 dimensions,
//! polyhedra took 0.09–0.4 ms per analysis against 0.13–9 ms for octagons; what makes
//! polyhedra expensive is Fourier–Motzkin's worst case, exponential in the constraints it
//! combines (capped by `polyhedra::MAX_CONSTRAINTS`), which grows with the dimensions and the
//! guards, so beyond the bounds the cubic but predictable octagons are kept.

use crate::product::Product;

/// The most product dimensions (variables, parameters, scratch) for the polyhedra default.
pub const AUTO_MAX_DIMS: usize = 24;
/// The most product transitions for the polyhedra default.
pub const AUTO_MAX_TRANSITIONS: usize = 400;

/// An abstract domain of [`crate::coreach`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DomainChoice {
    /// [`crate::Interval`].
    Interval,
    /// [`crate::Octagon`].
    Octagon,
    /// [`crate::Polyhedra`].
    Polyhedra,
}

/// The default analysis of a product: (domain, forward simplification).
pub fn auto(p: &Product) -> (DomainChoice, bool) {
    if p.dims.len() <= AUTO_MAX_DIMS && p.transitions.len() <= AUTO_MAX_TRANSITIONS {
        (DomainChoice::Polyhedra, true)
    } else {
        (DomainChoice::Octagon, false)
    }
}
