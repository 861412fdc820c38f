//! Shared helpers of the integration tests: random machines and mutants.
#![allow(dead_code)]

use ioco_fsm::prepare::prepare;
use ioco_model::Mealy;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random machine with `n` states, `ni` inputs, `no` outputs; each transition is undefined
/// with probability `partial` (never the ones of a spanning chain, so all states stay reachable).
pub fn random_machine(seed: u64, n: usize, ni: usize, no: usize, partial: f64) -> Mealy {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let inputs = (0..ni).map(|i| format!("i{i}")).collect();
    let outputs = (0..no).map(|o| format!("o{o}")).collect();
    let mut m = Mealy::new(n, inputs, outputs, 0);
    for s in 0..n as u32 {
        for a in 0..ni as u32 {
            let chain = a == 0 && (s as usize) + 1 < n;
            if !chain && partial > 0.0 && rng.random_bool(partial) {
                continue;
            }
            let t = if chain {
                s + 1
            } else {
                rng.random_range(0..n as u32)
            };
            m.set(s, a, t, rng.random_range(0..no as u32));
        }
    }
    m
}

/// The minimal reachable machine that the suites are generated for.
pub fn minimal(m: &Mealy) -> Mealy {
    prepare(m).expect("valid machine").machine
}

/// A fault put into a transition `(state, input)`.
#[derive(Clone, Copy, Debug)]
pub enum Fault {
    /// Change the output.
    Output(u32),
    /// Change the target.
    Transfer(u32),
}

/// Unfold `spec` along `p -a-> ·` then the inputs `chain`: the `chain.len() + 1` states met are
/// copied (the copies are the extra states), the path is redirected through the copies, and
/// `fault` is put on input `b` of the last copy (targets ≥ n are copies). With `copies = 0`
/// semantics use [`plain_mutant`].
pub fn unfolded_mutant(spec: &Mealy, p: u32, a: u32, chain: &[u32], b: u32, fault: Fault) -> Mealy {
    let n = spec.num_states();
    let j = chain.len() + 1;
    let mut m = Mealy::new(
        n + j,
        spec.inputs.clone(),
        spec.outputs.clone(),
        spec.initial,
    );
    for s in 0..n as u32 {
        for i in 0..spec.num_inputs() as u32 {
            if let Some((t, o)) = spec.step(s, i) {
                m.set(s, i, t, o);
            }
        }
    }
    let mut orig = spec.step(p, a).expect("defined").0;
    let mut prev = (p, a);
    for c in 0..j {
        let copy = (n + c) as u32;
        for i in 0..spec.num_inputs() as u32 {
            if let Some((t, o)) = spec.step(orig, i) {
                m.set(copy, i, t, o);
            }
        }
        let o = m.step(prev.0, prev.1).expect("defined").1;
        m.set(prev.0, prev.1, copy, o);
        if c < chain.len() {
            prev = (copy, chain[c]);
            orig = spec.step(orig, chain[c]).expect("defined").0;
        }
    }
    let last = (n + j - 1) as u32;
    apply_fault(&mut m, last, b, fault);
    m
}

/// `spec` with one fault on `(s, b)`.
pub fn plain_mutant(spec: &Mealy, s: u32, b: u32, fault: Fault) -> Mealy {
    let mut m = spec.clone();
    apply_fault(&mut m, s, b, fault);
    m
}

fn apply_fault(m: &mut Mealy, s: u32, b: u32, fault: Fault) {
    if let Some((t, o)) = m.step(s, b) {
        match fault {
            Fault::Output(o2) => m.set(s, b, t, o2),
            Fault::Transfer(t2) => m.set(s, b, t2, o),
        }
    }
}

/// Every single-fault mutant of `spec` (no extra states).
pub fn all_plain_mutants(spec: &Mealy) -> Vec<Mealy> {
    let mut out = Vec::new();
    for s in 0..spec.num_states() as u32 {
        for b in 0..spec.num_inputs() as u32 {
            let Some((t, o)) = spec.step(s, b) else {
                continue;
            };
            for o2 in (0..spec.outputs.len() as u32).filter(|&x| x != o) {
                out.push(plain_mutant(spec, s, b, Fault::Output(o2)));
            }
            for t2 in (0..spec.num_states() as u32).filter(|&x| x != t) {
                out.push(plain_mutant(spec, s, b, Fault::Transfer(t2)));
            }
        }
    }
    out
}

/// Every mutant with exactly one extra state: a copy of the target of some transition,
/// that transition redirected to it, and one fault on the copy.
pub fn all_one_extra_state_mutants(spec: &Mealy) -> Vec<Mealy> {
    let n = spec.num_states() as u32;
    let mut out = Vec::new();
    for p in 0..n {
        for a in 0..spec.num_inputs() as u32 {
            let Some((t, _)) = spec.step(p, a) else {
                continue;
            };
            for b in 0..spec.num_inputs() as u32 {
                let Some((t2, o)) = spec.step(t, b) else {
                    continue;
                };
                for o2 in (0..spec.outputs.len() as u32).filter(|&x| x != o) {
                    out.push(unfolded_mutant(spec, p, a, &[], b, Fault::Output(o2)));
                }
                for t3 in (0..=n).filter(|&x| x != t2) {
                    out.push(unfolded_mutant(spec, p, a, &[], b, Fault::Transfer(t3)));
                }
            }
        }
    }
    out
}

/// A random mutant with `j ≤ k` extra states (0 = a plain fault), possibly with a second fault.
pub fn random_mutant(spec: &Mealy, k: usize, rng: &mut ChaCha8Rng) -> Mealy {
    let n = spec.num_states() as u32;
    let ni = spec.num_inputs() as u32;
    let no = spec.outputs.len() as u32;
    let j = rng.random_range(0..=k);
    let defined: Vec<(u32, u32)> = (0..n)
        .flat_map(|s| (0..ni).map(move |a| (s, a)))
        .filter(|&(s, a)| spec.step(s, a).is_some())
        .collect();
    let fault = |rng: &mut ChaCha8Rng, targets: u32| {
        if rng.random_bool(0.5) {
            Fault::Output(rng.random_range(0..no))
        } else {
            Fault::Transfer(rng.random_range(0..targets))
        }
    };
    if j == 0 {
        let (s, b) = defined[rng.random_range(0..defined.len())];
        let f = fault(rng, n);
        return plain_mutant(spec, s, b, f);
    }
    // A random path of j states to unfold.
    let (p, a) = defined[rng.random_range(0..defined.len())];
    let mut chain = Vec::new();
    let mut cur = spec.step(p, a).unwrap().0;
    while chain.len() + 1 < j {
        let opts: Vec<u32> = (0..ni).filter(|&b| spec.step(cur, b).is_some()).collect();
        if opts.is_empty() {
            break;
        }
        let b = opts[rng.random_range(0..opts.len())];
        chain.push(b);
        cur = spec.step(cur, b).unwrap().0;
    }
    let opts: Vec<u32> = (0..ni).filter(|&b| spec.step(cur, b).is_some()).collect();
    if opts.is_empty() {
        return spec.clone();
    }
    let b = opts[rng.random_range(0..opts.len())];
    let total = n + chain.len() as u32 + 1;
    let f = fault(rng, total);
    let mut m = unfolded_mutant(spec, p, a, &chain, b, f);
    if rng.random_bool(0.3) {
        // A second fault anywhere in the copies.
        let s = rng.random_range(n..total);
        let b2 = rng.random_range(0..ni);
        let f2 = fault(rng, total);
        apply_fault(&mut m, s, b2, f2);
    }
    m
}

/// Whether some word gives different outputs (or is undefined) on `imp` (no allocation).
pub fn killed(words: &[Vec<u32>], spec: &Mealy, imp: &Mealy) -> bool {
    words.iter().any(|w| {
        let (mut s, mut i) = (spec.initial, imp.initial);
        for &a in w {
            let Some((s2, o1)) = spec.step(s, a) else {
                return false;
            };
            match imp.step(i, a) {
                Some((i2, o2)) if o1 == o2 => {
                    s = s2;
                    i = i2;
                }
                _ => return true,
            }
        }
        false
    })
}

/// A sample of at most `max` elements (all when fewer), seeded.
pub fn sample<T: Clone>(v: &[T], max: usize, rng: &mut ChaCha8Rng) -> Vec<T> {
    if v.len() <= max {
        return v.to_vec();
    }
    (0..max)
        .map(|_| v[rng.random_range(0..v.len())].clone())
        .collect()
}
