//! Coverage-guided choice: prefer the action that can take the most transitions of the model
//! not covered yet (an input's uncovered edges from the current states; for "observe", the
//! uncovered output and δ edges). Ties are broken at random; with probability `epsilon`, and
//! whenever nothing uncovered is adjacent, the choice is uniform, so every choice keeps a
//! positive probability (no blind spots, tutorial P1:L525).

use super::{Choice, Situation, Strategy, Uniform};
use ioco_model::Label;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Greedy towards uncovered transitions, with an ε of uniform exploration.
#[derive(Clone, Debug)]
pub struct CoverageGuided {
    /// Probability of a uniform choice instead of the greedy one.
    pub epsilon: f64,
}

impl Default for CoverageGuided {
    fn default() -> Self {
        CoverageGuided { epsilon: 0.1 }
    }
}

impl Strategy for CoverageGuided {
    fn choose(&mut self, s: &Situation<'_>, rng: &mut ChaCha8Rng) -> Choice {
        if rng.random::<f64>() < self.epsilon {
            return Uniform::default().choose(s, rng);
        }
        let uncovered = |l: Label| -> usize {
            s.set
                .iter()
                .map(|&q| s.coverage.uncovered_edges(s.lts, q, l))
                .sum()
        };
        let mut best: Vec<Choice> = Vec::new();
        let mut best_score = 0usize;
        let mut consider = |c: Choice, score: usize, best: &mut Vec<Choice>| {
            if score > best_score {
                best_score = score;
                best.clear();
            }
            if score == best_score && score > 0 {
                best.push(c);
            }
        };
        for &a in s.inputs {
            consider(Choice::Stimulate(a), uncovered(a), &mut best);
        }
        let obs: usize = s.outputs.iter().map(|&o| uncovered(o)).sum();
        consider(Choice::Observe, obs, &mut best);
        if best.is_empty() {
            return Uniform::default().choose(s, rng);
        }
        best[rng.random_range(0..best.len())]
    }

    fn name(&self) -> &'static str {
        "coverage"
    }

    fn uses_coverage(&self) -> bool {
        true
    }
}
