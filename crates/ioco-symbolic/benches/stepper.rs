//! Steps per second with data: random walks of 100 steps (TorXakis's `stepper`) through ports
//! of TorXakis's data micro-benchmarks (test/sqatt/data/bench: Sequence10Ints, MatchInt,
//! ParallelData6, SeqEnableInt). TorXakis issue #850 reports 1.25 s to 17 s per 100 steps.
//!
//! Run: `cargo bench -p ioco-symbolic --bench stepper` (optional argument: repetitions).
use ioco_symbolic::SymbolicSpec;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

fn load(rel: &str, name: &str) -> Arc<ioco_lang::ir::Spec> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel);
    let model = ioco_lang::parse_file(&p).unwrap_or_else(|d| panic!("{}: {:?}", p.display(), d));
    Arc::new(
        model
            .spec(name)
            .unwrap_or_else(|| panic!("no {} in {}", name, p.display()))
            .clone(),
    )
}

fn main() {
    let reps: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(20);
    let cases = [
        (
            "Sequence10Ints",
            "../../examples/torxakis/sequence.ioco",
            "Sequence10Ints",
        ),
        ("MatchInt", "tests/models/bench.ioco", "MatchInt"),
        (
            "ParallelData6",
            "../../examples/torxakis/parallel.ioco",
            "ParallelData6",
        ),
        ("SeqEnableInt", "tests/models/bench.ioco", "SeqEnableInt"),
    ];
    println!(
        "seed 0..{}, 100 steps per run, {} runs per model",
        reps, reps
    );
    println!(
        "| model | ms per 100 steps (mean) | min | steps/s | speed-up vs 1.25 s | solver calls/run | cache hits/run | pooled models/run |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (label, file, name) in cases {
        let spec = load(file, name);
        let mut total = 0.0f64;
        let mut min = f64::MAX;
        let mut calls = 0u64;
        let mut hits = 0u64;
        let mut pooled = 0u64;
        let mut steps = 0usize;
        for seed in 0..reps as u64 {
            let mut t = SymbolicSpec::with_z3(spec.clone()).expect("spec");
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let t0 = Instant::now();
            let mut n = 0;
            for _ in 0..100 {
                if t.simulate_step(&mut rng).is_none() {
                    break;
                }
                n += 1;
            }
            let dt = t0.elapsed().as_secs_f64() * 1000.0;
            total += dt;
            min = min.min(dt);
            steps += n;
            calls += t.checker.stats.solver_calls;
            hits += t.checker.stats.cache_hits;
            pooled += t.checker.stats.pool_hits;
        }
        let mean = total / reps as f64;
        let per100 = mean * 100.0 / (steps as f64 / reps as f64).max(1.0);
        println!(
            "| {} | {:.2} | {:.2} | {:.0} | {:.0}x | {} | {} | {} |",
            label,
            per100,
            min,
            100_000.0 / per100,
            1250.0 / per100,
            calls / reps as u64,
            hits / reps as u64,
            pooled / reps as u64
        );
        assert_eq!(steps, 100 * reps, "{}: the walk got stuck", label);
    }
}
