//! Benchmarks of the model core (not a test; no timing goes into tests).
//!
//! `cargo bench -p ioco-model --bench core` runs every case, each in its own process so that
//! the reported peak memory (VmHWM) belongs to that case alone. `... -- CASE` runs one case.
//!
//! Cases:
//! - `det-1m`: a deterministic LTS of 1,000,000 states (2 inputs, 2 outputs, ~3 transitions
//!   per state): full suspension automaton, then `compare` of the LTS against itself.
//! - `tau-10k`: a 10,000-state LTS with heavy τ and nondeterminism: full suspension automaton
//!   and `compare` of its angelic completion against it.
//! - `lazy-1m`: a 10,000-step random walk through the lazy suspension automaton of the 1M-state
//!   LTS (what online testing does): only visited states are determinised.

use ioco_model::{
    compare, Alphabet, CompareOptions, Label, Lts, LtsBuilder, QuiescencePolicy, Suspension,
    SuspensionAutomaton,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

fn alphabet() -> (Alphabet, [Label; 2], [Label; 2]) {
    let mut a = Alphabet::new();
    let i = [a.input("a").unwrap(), a.input("b").unwrap()];
    let o = [a.output("x").unwrap(), a.output("y").unwrap()];
    (a, i, o)
}

/// Deterministic: every state has both inputs; every third state has one output.
fn det_lts(n: usize, seed: u64) -> Lts {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (a, i, o) = alphabet();
    let mut b = LtsBuilder::new(a);
    b.add_states(n);
    b.add_initial(0);
    b.reserve(n * 3);
    for s in 0..n as u32 {
        // a chain keeps everything reachable
        b.add_transition(s, i[0], (s + 1) % n as u32);
        b.add_transition(s, i[1], rng.random_range(0..n as u32));
        if s % 3 == 0 {
            b.add_transition(s, o[(s as usize / 3) % 2], rng.random_range(0..n as u32));
        }
    }
    b.build().unwrap()
}

/// Heavy τ and nondeterminism. States come in clusters of 8; τ steps stay inside a cluster,
/// and every label leads from a cluster to one target cluster (chosen per cluster and label) but
/// to one or two states of it, so determinisation stays polynomial (at most 2^8 subsets per
/// cluster) while every suspension state is a real set.
fn tau_lts(n: usize, seed: u64) -> Lts {
    const C: u32 = 8;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (a, i, o) = alphabet();
    let clusters = (n as u32).div_ceil(C);
    let mut b = LtsBuilder::new(a);
    b.add_states((clusters * C) as usize);
    b.add_initial(0);
    let labels = [i[0], i[1], o[0], o[1]];
    let table: Vec<[u32; 4]> = (0..clusters)
        .map(|c| {
            let mut t = [0; 4];
            t[0] = (c + 1) % clusters; // keeps every cluster reachable
            for x in t.iter_mut().skip(1) {
                *x = rng.random_range(0..clusters);
            }
            t
        })
        .collect();
    for s in 0..clusters * C {
        let (c, r) = (s / C, s % C);
        if r % 2 == 0 {
            b.add_transition(s, Label::TAU, c * C + (r + 1) % C);
        }
        if rng.random_bool(0.2) {
            b.add_transition(s, Label::TAU, c * C + rng.random_range(0..C));
        }
        for (k, &l) in labels.iter().enumerate() {
            let is_output = k >= 2;
            if is_output && !rng.random_bool(0.3) {
                continue;
            }
            let tc = table[c as usize][k];
            b.add_transition(s, l, tc * C + rng.random_range(0..C));
            if rng.random_bool(0.5) {
                b.add_transition(s, l, tc * C + rng.random_range(0..C));
            }
        }
    }
    b.build().unwrap()
}

fn peak_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|k| k.parse::<f64>().ok())
        .map(|k| k / 1024.0)
        .unwrap_or(f64::NAN)
}

fn run(case: &str) {
    let policy = QuiescencePolicy::Stable;
    match case {
        "det-1m" | "tau-10k" => {
            let t = Instant::now();
            let lts = if case == "det-1m" {
                det_lts(1_000_000, 1)
            } else {
                tau_lts(10_000, 2)
            };
            let gen = t.elapsed();
            let t = Instant::now();
            let sa = SuspensionAutomaton::build(&lts, policy);
            let sa_time = t.elapsed();
            let imp = lts.angelic_completion();
            let t = Instant::now();
            let c = compare(&imp, &lts, &CompareOptions::default()).unwrap();
            let cmp_time = t.elapsed();
            assert!(c.conforms());
            println!(
                "{case}: LTS {} states {} transitions (built in {:.2?}); suspension automaton {} states {} transitions in {:.2?} = {:.0} states/s; compare {} pairs in {:.2?} = {:.0} pairs/s; peak {:.0} MiB",
                lts.num_states(),
                lts.num_transitions(),
                gen,
                sa.lts.num_states(),
                sa.lts.num_transitions(),
                sa_time,
                sa.lts.num_states() as f64 / sa_time.as_secs_f64(),
                c.pairs,
                cmp_time,
                c.pairs as f64 / cmp_time.as_secs_f64(),
                peak_mib()
            );
        }
        "lazy-1m" => {
            let lts = det_lts(1_000_000, 1);
            let mut rng = ChaCha8Rng::seed_from_u64(3);
            let t = Instant::now();
            let mut sus = Suspension::new(&lts, policy);
            let mut q = sus.initial();
            let steps = 10_000;
            for _ in 0..steps {
                let succ = sus.successors(q);
                q = succ[rng.random_range(0..succ.len())].1;
            }
            let el = t.elapsed();
            println!(
                "lazy-1m: {steps} random steps in {:.2?} ({:.0} steps/s), {} of the automaton's states determinised; peak {:.0} MiB",
                el,
                steps as f64 / el.as_secs_f64(),
                sus.num_discovered(),
                peak_mib()
            );
        }
        other => panic!("unknown case {other}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if let Some(case) = args.first() {
        run(case);
        return;
    }
    let exe = std::env::current_exe().unwrap();
    for case in ["det-1m", "tau-10k", "lazy-1m"] {
        let st = std::process::Command::new(&exe).arg(case).status().unwrap();
        assert!(st.success(), "case {case} failed");
    }
}
