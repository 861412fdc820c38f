//! Weighted random choice: each input label and "observe" get a weight (default 1); the next
//! action is drawn among observe and the enabled inputs in proportion to their weights.

use super::{Choice, Situation, Strategy};
use ioco_model::{Alphabet, Label};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Observe or stimulate, by weight.
#[derive(Clone, Debug)]
pub struct Weighted {
    /// Weight per label index (inputs only matter).
    weights: Vec<f64>,
    observe: f64,
}

impl Weighted {
    /// Weights by label as written: `coin?` for an input, `δ` or `observe` for observing.
    /// Labels not named weigh 1. Errors name an unknown label or a bad weight.
    pub fn new(alphabet: &Alphabet, weights: &[(String, f64)]) -> Result<Weighted, String> {
        let mut w = Weighted {
            weights: vec![1.0; alphabet.len()],
            observe: 1.0,
        };
        for (name, x) in weights {
            if !x.is_finite() || *x < 0.0 {
                return Err(format!(
                    "weight of `{name}` must be a finite number ≥ 0, not {x}"
                ));
            }
            if name == "δ" || name == "observe" || name == "delta" {
                w.observe = *x;
                continue;
            }
            let bare = name.strip_suffix('?').unwrap_or(name);
            let found = match name.strip_suffix('!') {
                Some(out) => alphabet.lookup_kind(out, ioco_model::LabelKind::Output),
                None => alphabet
                    .lookup_kind(bare, ioco_model::LabelKind::Input)
                    .or_else(|| alphabet.lookup(bare)),
            };
            match found {
                Some(l) if alphabet.is_input(l) => w.weights[l.index()] = *x,
                Some(_) => {
                    return Err(format!(
                        "`{name}` is an output: only inputs and `δ` (observe) take weights"
                    ))
                }
                None => {
                    return Err(format!(
                        "unknown label `{name}` in the weights (hint: inputs are written `name?`)"
                    ))
                }
            }
        }
        Ok(w)
    }

    /// The weight of an input label.
    pub fn weight(&self, l: Label) -> f64 {
        self.weights[l.index()]
    }
}

impl Strategy for Weighted {
    fn choose(&mut self, s: &Situation<'_>, rng: &mut ChaCha8Rng) -> Choice {
        let total: f64 = self.observe + s.inputs.iter().map(|&l| self.weight(l)).sum::<f64>();
        if total <= 0.0 {
            return Choice::Observe;
        }
        let mut x = rng.random::<f64>() * total;
        for &l in s.inputs {
            let w = self.weight(l);
            if x < w {
                return Choice::Stimulate(l);
            }
            x -= w;
        }
        Choice::Observe
    }

    fn name(&self) -> &'static str {
        "weighted"
    }
}
