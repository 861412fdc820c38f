//! Seeded random models for benchmarks and property tests (ChaCha8, same seed ⇒ same model).
//!
//! [`random_sa`] draws a suspension automaton directly: deterministic, δ explicit (a δ
//! self-loop on every state without outputs), so its size is exactly controlled.
//! [`random_lts`] draws a small, possibly nondeterministic LTS with τ (determinise it with
//! `SuspensionAutomaton::build`).

use ioco_model::{Alphabet, Label, LabelKind, Lts, LtsBuilder};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Shape of a random suspension automaton.
#[derive(Clone, Debug)]
pub struct RandomShape {
    /// Number of states.
    pub states: usize,
    /// Number of input labels.
    pub inputs: usize,
    /// Number of output labels.
    pub outputs: usize,
    /// Probability that a state enables a given input.
    pub p_input: f64,
    /// Probability that a state enables a given output.
    pub p_output: f64,
    /// 0: targets uniform over all states (the worst case for caches). w > 0: 95% of the
    /// targets lie within ±w of the source, like the BFS-numbered automata of real models.
    pub window: usize,
}

fn alphabet(inputs: usize, outputs: usize) -> (Alphabet, Vec<Label>, Vec<Label>) {
    let mut a = Alphabet::new();
    let ins = (0..inputs)
        .map(|i| a.intern(&format!("i{i}"), LabelKind::Input).unwrap())
        .collect();
    let outs = (0..outputs)
        .map(|i| a.intern(&format!("o{i}"), LabelKind::Output).unwrap())
        .collect();
    (a, ins, outs)
}

/// A random suspension automaton with initial state 0.
pub fn random_sa(seed: u64, shape: &RandomShape) -> Lts {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (a, ins, outs) = alphabet(shape.inputs, shape.outputs);
    let n = shape.states.max(1);
    let w = shape.window as i64;
    let target = |rng: &mut ChaCha8Rng, s: u32| -> u32 {
        if w == 0 || rng.random_bool(0.05) {
            rng.random_range(0..n as u32)
        } else {
            (s as i64 + rng.random_range(-w..=w)).rem_euclid(n as i64) as u32
        }
    };
    let mut b = LtsBuilder::new(a);
    b.add_states(n);
    b.add_initial(0);
    b.reserve(n * (shape.inputs + shape.outputs) / 2 + n);
    for s in 0..n as u32 {
        for &l in &ins {
            if rng.random_bool(shape.p_input) {
                let t = target(&mut rng, s);
                b.add_transition(s, l, t);
            }
        }
        let mut any = false;
        for &l in &outs {
            if rng.random_bool(shape.p_output) {
                let t = target(&mut rng, s);
                b.add_transition(s, l, t);
                any = true;
            }
        }
        if !any {
            b.add_transition(s, Label::DELTA, s);
        }
    }
    b.set_state_names((0..n).map(|i| format!("s{i}")).collect());
    b.build().expect("valid by construction")
}

/// A small random LTS (possibly nondeterministic, with τ) with initial state 0.
pub fn random_lts(seed: u64, states: usize, inputs: usize, outputs: usize, edges: usize) -> Lts {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (a, ins, outs) = alphabet(inputs, outputs);
    let n = states.max(1) as u32;
    let mut b = LtsBuilder::new(a);
    b.add_states(n as usize);
    b.add_initial(0);
    for _ in 0..edges {
        let s = rng.random_range(0..n);
        let t = rng.random_range(0..n);
        let k = rng.random_range(0..10);
        let l = if k == 0 {
            Label::TAU
        } else if k < 6 && !ins.is_empty() {
            ins[rng.random_range(0..ins.len())]
        } else if !outs.is_empty() {
            outs[rng.random_range(0..outs.len())]
        } else {
            continue;
        };
        b.add_transition(s, l, t);
    }
    b.set_state_names((0..n).map(|i| format!("s{i}")).collect());
    b.build().expect("valid by construction")
}
