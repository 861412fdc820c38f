//! The random suspension automata of the benchmark (`benches/adg.rs`, cases
//! `random:<states>:<seed>:<p_in>`), shared with the tests.

use ioco_model::{Alphabet, Label, Lts, LtsBuilder};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random deterministic suspension automaton in the shape of those derived from I/O systems
/// (Mealy machines, the thesis' ESM models): *stable* states are quiescent (δ loop) and enable
/// inputs (each of the 11 inputs with probability `p_in`), *transient* states enable 1–2 of 20
/// outputs and no input. Targets are mostly near (a "protocol" structure) with random back
/// edges. About 3.8 transitions per state with `p_in = 0.55`, like the thesis' largest models.
pub fn random_sa(n: usize, seed: u64, p_in: f64) -> Lts {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut alpha = Alphabet::new();
    let inputs: Vec<Label> = (0..11)
        .map(|i| alpha.input(&format!("i{i}")).unwrap())
        .collect();
    let outputs: Vec<Label> = (0..20)
        .map(|i| alpha.output(&format!("o{i}")).unwrap())
        .collect();
    let mut b = LtsBuilder::new(alpha);
    b.add_states(n);
    b.add_initial(0);
    let stable: Vec<bool> = (0..n).map(|s| s == 0 || rng.random_bool(0.4)).collect();
    for s in 0..n as u32 {
        let target = |rng: &mut ChaCha8Rng| {
            if rng.random_bool(0.8) {
                (s + rng.random_range(1..30)) % n as u32
            } else {
                rng.random_range(0..n as u32)
            }
        };
        if stable[s as usize] {
            b.add_transition(s, Label::DELTA, s);
            for &a in &inputs {
                if rng.random_bool(p_in) {
                    let t = target(&mut rng);
                    b.add_transition(s, a, t);
                }
            }
        } else {
            let k = rng.random_range(1..=2);
            let mut used = Vec::new();
            while used.len() < k {
                let x = outputs[rng.random_range(0..outputs.len())];
                if !used.contains(&x) {
                    used.push(x);
                    let t = target(&mut rng);
                    b.add_transition(s, x, t);
                }
            }
        }
    }
    b.build().unwrap()
}
