//! `ioco analyze`: the relations of a suspension automaton and the ADG metrics of thesis
//! Table 3.2 in one serialisable report.
//!
//! **Pair convention.** Every pair count is over *ordered* pairs `(q, q′)` of distinct states,
//! as in thesis Table 3.2 (§3.7.2, seed 000 L5917–L5925: "we only count pairs (q, q′) such
//! that q ≠ q′"; its percentages are reproduced only over the `n(n−1)` ordered pairs, e.g. TCP
//! 78/(26·25) = 12.0 %, and its incompatible-pair column, 2 of 572 = 0.35 %, is then over
//! `n(n−1) − compatible`). So one compatible unordered pair `{q, q′}` counts twice, and the
//! compatible, equivalent, incompatible and undistinguished counts add up:
//! `compatible + incompatible = n(n−1)`. [`PAIR_CONVENTION`] says so in every report.

use crate::adg::{build_adg, metrics, AdgMetrics, AdgOptions};
use crate::compat::Compat;
use crate::equiv::Equiv;
use crate::sa::Sa;
use crate::CompleteError;
use ioco_model::Lts;
use serde::Serialize;

/// The pair convention of every count of an [`Analysis`], as printed with it.
pub const PAIR_CONVENTION: &str =
    "ordered pairs (q, q') of distinct states, as in thesis Table 3.2: {q, q'} counts twice";

/// The analysis of a suspension automaton.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// States.
    pub states: usize,
    /// Transitions (δ self-loops included).
    pub transitions: usize,
    /// Transitions labelled with an input (thesis Table 3.1, "input transitions").
    pub input_transitions: usize,
    /// Transitions labelled with an output or δ (thesis Table 3.1, "output transitions").
    pub output_transitions: usize,
    /// Input labels on some transition (thesis Table 3.1: an alphabet label no transition
    /// carries, e.g. a gate value a `.ioco` model never takes, is not counted).
    pub inputs: usize,
    /// Output labels on some transition (δ included when used).
    pub outputs: usize,
    /// How pairs are counted: [`PAIR_CONVENTION`].
    pub pair_convention: String,
    /// Ordered pairs `(q, q′)`, `q ≠ q′`, of the `n(n−1)`: the denominator of the percentages.
    pub ordered_pairs: u64,
    /// Ordered pairs of distinct compatible states (thesis Table 3.2's column).
    pub compatible_pairs: u64,
    /// `compatible_pairs` in percent of `n(n−1)` (thesis Table 3.2).
    pub compatible_percent: f64,
    /// Up to 100 compatible pairs, by state name, each unordered pair once (`p < q`).
    pub compatible_examples: Vec<(String, String)>,
    /// Ordered pairs of distinct equivalent states (`≈`, thesis Def. 2.13).
    pub equivalent_pairs: u64,
    /// States equivalent to chaos (allow everything; never tested from).
    pub chaotic_states: Vec<String>,
    /// ADG metrics, when the construction succeeded.
    pub adg: Option<AdgMetrics>,
    /// Why there is no ADG.
    pub adg_error: Option<String>,
}

/// [`crate::analyze`] with options.
pub fn analyze_with(lts: &Lts, opts: &AdgOptions) -> Result<Analysis, CompleteError> {
    let sa = Sa::from_lts(lts)?.within_budget()?;
    let compat = Compat::compute(&sa);
    let equiv = Equiv::compute(&sa);
    let n = sa.n();
    // Ordered pairs: each unordered pair the relations store counts twice.
    let cp = 2 * compat.compatible_pairs() as u64;
    let ordered = n as u64 * (n as u64).saturating_sub(1);
    let mut examples = Vec::new();
    'o: for q in 1..n as u32 {
        for p in 0..q {
            if compat.compatible(p, q) {
                examples.push((
                    sa.state_names[p as usize].clone(),
                    sa.state_names[q as usize].clone(),
                ));
                if examples.len() == 100 {
                    break 'o;
                }
            }
        }
    }
    let mut used = vec![false; sa.k()];
    for q in 0..n as u32 {
        for &(l, _) in sa.enabled(q) {
            used[l as usize] = true;
        }
    }
    let (adg, adg_error) = match build_adg(&sa, &compat, opts) {
        Ok(a) => (Some(metrics(&sa, &compat, &a, opts).0), None),
        Err(e) => (None, Some(e.to_string())),
    };
    Ok(Analysis {
        states: n,
        transitions: sa.num_transitions(),
        input_transitions: (0..n as u32).map(|q| sa.ins(q).count()).sum(),
        output_transitions: (0..n as u32).map(|q| sa.outs(q).count()).sum(),
        inputs: used
            .iter()
            .zip(&sa.is_output)
            .filter(|(u, o)| **u && !**o)
            .count(),
        outputs: used
            .iter()
            .zip(&sa.is_output)
            .filter(|(u, o)| **u && **o)
            .count(),
        pair_convention: PAIR_CONVENTION.to_string(),
        ordered_pairs: ordered,
        compatible_pairs: cp,
        compatible_percent: if ordered == 0 {
            0.0
        } else {
            100.0 * cp as f64 / ordered as f64
        },
        compatible_examples: examples,
        equivalent_pairs: 2 * equiv.equivalent_pairs() as u64,
        chaotic_states: (0..n as u32)
            .filter(|&q| equiv.chaotic(q))
            .map(|q| sa.state_names[q as usize].clone())
            .collect(),
        adg,
        adg_error,
    })
}
