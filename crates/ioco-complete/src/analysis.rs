//! `ioco analyze`: the relations of a suspension automaton and the ADG metrics of thesis
//! Table 3.2 in one serialisable report.

use crate::adg::{build_adg, metrics, AdgMetrics, AdgOptions};
use crate::compat::Compat;
use crate::equiv::Equiv;
use crate::sa::Sa;
use crate::CompleteError;
use ioco_model::Lts;
use serde::Serialize;

/// The analysis of a suspension automaton.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// States.
    pub states: usize,
    /// Transitions.
    pub transitions: usize,
    /// Input labels.
    pub inputs: usize,
    /// Output labels (δ included when used).
    pub outputs: usize,
    /// Unordered pairs of distinct compatible states.
    pub compatible_pairs: usize,
    /// Compatible ordered pairs in percent of `n(n−1)` (thesis Table 3.2).
    pub compatible_percent: f64,
    /// Up to 100 compatible pairs, by state name.
    pub compatible_examples: Vec<(String, String)>,
    /// Unordered pairs of distinct equivalent states (`≈`, thesis Def. 2.13).
    pub equivalent_pairs: usize,
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
    let cp = compat.compatible_pairs();
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
    let (adg, adg_error) = match build_adg(&sa, &compat, opts) {
        Ok(a) => (Some(metrics(&sa, &compat, &a, opts).0), None),
        Err(e) => (None, Some(e.to_string())),
    };
    Ok(Analysis {
        states: n,
        transitions: sa.num_transitions(),
        inputs: sa.input_labels().len(),
        outputs: sa.output_labels().len(),
        compatible_pairs: cp,
        compatible_percent: if n < 2 {
            0.0
        } else {
            200.0 * cp as f64 / (n as f64 * (n as f64 - 1.0))
        },
        compatible_examples: examples,
        equivalent_pairs: equiv.equivalent_pairs(),
        chaotic_states: (0..n as u32)
            .filter(|&q| equiv.chaotic(q))
            .map(|q| sa.state_names[q as usize].clone())
            .collect(),
        adg,
        adg_error,
    })
}
