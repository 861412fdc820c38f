//! Symbolic test selection (seed 004 Table 3, L548-600): the complete test graph of a
//! specification and a symbolic test purpose, with guards strengthened by the approximate
//! coreachability analysis of [`crate::coreach`], and the online choice of input values inside
//! the strengthened guards (004 §5, L850-877).
//!
//! For every product transition `t = g(p) : G ? A`:
//! * **KeepI**: `g(p) : G ∧ K_t ? A` is kept (inputs and outputs);
//! * **Inconc**: an output with `G ∧ ¬K_t` ends in Inconclusive (the purpose certainly cannot
//!   be met any more); an input whose `G ∧ K_t` is empty is never offered;
//! * **Fail**: an output that satisfies no guard `G` of its gate at the location.
//!
//! A purpose whose initial valuation is outside `coreach^α` can certainly not be met: that is
//! an error ([`SelectError::CannotBeMet`]), never a test that silently runs forever.

use crate::coreach::{coreach, Coreach, Options};
use crate::domain::Domain;
use crate::linear::{LinCons, LinExpr};
use crate::product::Product;
use ioco_lang::ir::Direction;
use std::fmt::Write as _;

/// Errors of selection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SelectError {
    /// No run of the specification can reach accept (according to the analysis, which
    /// over-approximates: this is certain).
    CannotBeMet(String),
}

impl std::fmt::Display for SelectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SelectError::CannotBeMet(m) => write!(f, "the test purpose cannot be met: {m}"),
        }
    }
}

impl std::error::Error for SelectError {}

/// The complete test graph of Table 3 in domain `D`.
#[derive(Clone, Debug)]
pub struct TestGraph<D> {
    /// The product S × TP.
    pub product: Product,
    /// coreach^α per location.
    pub coreach: Coreach<D>,
    /// `G ∧ K_t` per transition (a union; empty: the transition certainly leaves coreach),
    /// intersected with `reach^α` of its source with [`Options::forward`].
    pub kept: Vec<Vec<D>>,
    /// `reach^α` per location, with [`Options::forward`].
    pub reach: Option<Vec<D>>,
    /// Per transition: it never fires from `reach^α` (always false without the forward
    /// analysis).
    pub unreachable: Vec<bool>,
}

impl<D: Domain> TestGraph<D> {
    /// Run the analysis and strengthen the guards.
    pub fn new(product: Product, opts: &Options) -> Result<TestGraph<D>, SelectError> {
        let mut co = coreach::<D>(&product, opts);
        if !co.initially_coreachable(&product) {
            let accepting: Vec<&str> = product
                .locations
                .iter()
                .filter(|l| l.accept)
                .map(|l| l.name.as_str())
                .collect();
            return Err(SelectError::CannotBeMet(format!(
                "the {} analysis shows that no run from the initial location {} reaches an \
                 accept location ({} product locations; accepting: {})",
                D::NAME,
                product.locations[product.initial].name,
                product.locations.len(),
                if accepting.is_empty() {
                    "none reachable in the product".to_string()
                } else {
                    accepting.join(", ")
                }
            )));
        }
        let mut kept: Vec<Vec<D>> = (0..product.transitions.len())
            .map(|t| co.guard(&product, t))
            .collect();
        let mut unreachable = vec![false; product.transitions.len()];
        let mut reach = None;
        if opts.forward {
            let r = crate::reach::reach(&product, &kept, opts);
            for (t, tr) in product.transitions.iter().enumerate() {
                let from = &r[tr.from];
                unreachable[t] = crate::reach::never_fires(tr, from);
                kept[t] = kept[t]
                    .iter()
                    .map(|k| k.meet(from))
                    .filter(|k| !k.is_bottom())
                    .collect();
            }
            for (v, rl) in co.values.iter_mut().zip(&r) {
                *v = v.meet(rl);
            }
            reach = Some(r);
        }
        Ok(TestGraph {
            product,
            coreach: co,
            kept,
            reach,
            unreachable,
        })
    }

    /// True when transition `t` is an input the tester never offers (rule KeepI drops it).
    pub fn is_dropped_input(&self, t: usize) -> bool {
        matches!(
            self.product.transitions[t].gate,
            Some((_, Direction::Input))
        ) && self.kept[t].is_empty()
    }

    /// Online input choice: values for the parameters of input transition `t` from the
    /// concrete variable values `vars`, inside the strengthened guard (bounded search around
    /// the bounds of the abstract value, each candidate checked by `accept`, e.g. the exact
    /// guard evaluated on the model). `None`: no candidate found.
    pub fn choose_input(
        &self,
        t: usize,
        vars: &[i64],
        mut accept: impl FnMut(&[i64]) -> bool,
    ) -> Option<Vec<i64>> {
        let tr = &self.product.transitions[t];
        for k in &self.kept[t] {
            let mut k = k.clone();
            for (d, &v) in vars.iter().enumerate().take(self.product.nvars) {
                for c in LinCons::eq(&LinExpr::var(d), &LinExpr::constant(v))
                    .into_iter()
                    .flatten()
                {
                    k.meet_cons(&c);
                }
            }
            if k.is_bottom() {
                continue;
            }
            let mut params = Vec::new();
            for i in 0..tr.arity {
                let d = self.product.param_dim(i);
                let (lo, hi) = k.bounds(&LinExpr::var(d));
                let v = match (lo, hi) {
                    (Some(l), Some(h)) => (l + (h - l) / 2).clamp(l, h),
                    (Some(l), None) => l,
                    (None, Some(h)) => h,
                    (None, None) => 0,
                };
                params.push(v);
                for c in LinCons::eq(&LinExpr::var(d), &LinExpr::constant(v))
                    .into_iter()
                    .flatten()
                {
                    k.meet_cons(&c);
                }
            }
            if !k.is_bottom() && accept(&params) {
                return Some(params);
            }
        }
        None
    }

    /// An abstract value as a conjunction of constraints over the dimension names.
    pub fn show(&self, d: &D) -> String {
        if d.is_bottom() {
            return "false".into();
        }
        let cs: Vec<String> = d
            .constraints()
            .iter()
            .map(|c| c.display(&self.product.dims).to_string())
            .collect();
        if cs.is_empty() {
            "true".into()
        } else {
            cs.join(" ∧ ")
        }
    }

    /// What happens to transition `t`: `keep`, `dropped` (an input that never leads to
    /// accept), `inconclusive` (an output after which accept cannot be reached) or
    /// `unreachable` (deleted by the forward analysis: it never fires in the test case).
    pub fn fate(&self, t: usize) -> &'static str {
        if self.unreachable[t] {
            "unreachable"
        } else if !self.kept[t].is_empty() {
            "keep"
        } else if matches!(
            self.product.transitions[t].gate,
            Some((_, Direction::Input))
        ) {
            "dropped"
        } else {
            "inconclusive"
        }
    }

    /// A human-readable account: coreach^α per location and the strengthened guard of every
    /// transition (the content of 004 Figs 4–6).
    pub fn render(&self) -> String {
        let p = &self.product;
        let show = |d: &D| self.show(d);
        let mut s = String::new();
        let _ = writeln!(
            s,
            "domain: {}{}",
            D::NAME,
            if self.reach.is_some() {
                ", simplified with forward reachability"
            } else {
                ""
            }
        );
        for (l, loc) in p.locations.iter().enumerate() {
            let tag = if loc.accept {
                " [accept: pass]"
            } else if loc.refuse {
                " [refuse]"
            } else {
                ""
            };
            let _ = writeln!(
                s,
                "{}{tag}: coreach ⊆ {}",
                loc.name,
                show(&self.coreach.values[l])
            );
            for (t, tr) in p
                .transitions
                .iter()
                .enumerate()
                .filter(|(_, t)| t.from == l)
            {
                let (gate, mark) = match &tr.gate {
                    Some((g, Direction::Input)) => (g.as_str(), "?"),
                    Some((g, Direction::Output)) => (g.as_str(), "!"),
                    None => ("τ", ""),
                };
                let kept: Vec<String> = self.kept[t].iter().map(show).collect();
                let fate = if self.unreachable[t] {
                    "unreachable (deleted by the forward analysis)".into()
                } else if !self.kept[t].is_empty() {
                    format!("keep when {}", kept.join(" ∨ "))
                } else if mark == "?" {
                    "dropped (never leads to accept)".into()
                } else {
                    "inconclusive".into()
                };
                let _ = writeln!(s, "  {gate}{mark} -> {}: {fate}", p.locations[tr.to].name);
            }
        }
        s
    }
}
