//! Steps per second with data: random walks of 100 steps (TorXakis's `stepper`) through ports
//! of TorXakis's data micro-benchmarks (test/sqatt/data/bench: Sequence10Ints, MatchInt,
//! ParallelData6, SeqEnableInt). TorXakis issue #850 reports 1.25 s to 17 s per 100 steps.
//!
//! Run: `cargo bench -p ioco-symbolic --bench stepper -- 10` (repetitions; default 20). Each
//! model runs twice in the same process: without and with the difference-logic fast path
//! ([`ioco_symbolic::quick`]), so before/after share the machine's load. Wall and thread CPU
//! time are reported; `--only-quick` / `--no-quick` run one configuration and `--model NAME`
//! one model (for callgrind: `valgrind --tool=callgrind --toggle-collect='*simulate_step*'
//! target/release/deps/stepper-* 3 --model MatchInt --no-quick` counts the instructions of
//! the walks only).
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

/// CPU time of the calling thread (load-independent, unlike wall time).
fn thread_cpu() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the valid timespec passed to it
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

struct Run {
    wall: f64,
    min: f64,
    cpu: f64,
    calls: u64,
    quick: u64,
    hits: u64,
    pooled: u64,
}

/// `reps` walks of 100 steps (seeds 0..reps); means per run in ms.
fn measure(label: &str, spec: &Arc<ioco_lang::ir::Spec>, reps: usize, quick: bool) -> Run {
    let mut r = Run {
        wall: 0.0,
        min: f64::MAX,
        cpu: 0.0,
        calls: 0,
        quick: 0,
        hits: 0,
        pooled: 0,
    };
    for seed in 0..reps as u64 {
        let mut t = SymbolicSpec::with_z3(spec.clone()).expect("spec");
        t.checker.quick = quick;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (t0, c0) = (Instant::now(), thread_cpu());
        for _ in 0..100 {
            assert!(
                t.simulate_step(&mut rng).is_some(),
                "{}: the walk got stuck",
                label
            );
        }
        let (dt, dc) = (t0.elapsed().as_secs_f64() * 1e3, (thread_cpu() - c0) * 1e3);
        r.wall += dt;
        r.min = r.min.min(dt);
        r.cpu += dc;
        r.calls += t.checker.stats.solver_calls;
        r.quick += t.checker.stats.quick;
        r.hits += t.checker.stats.cache_hits;
        r.pooled += t.checker.stats.pool_hits;
    }
    let n = reps as f64;
    r.wall /= n;
    r.cpu /= n;
    r.calls /= reps as u64;
    r.quick /= reps as u64;
    r.hits /= reps as u64;
    r.pooled /= reps as u64;
    r
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let reps: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(20);
    // `--only-quick` / `--no-quick`: one configuration (e.g. under callgrind)
    let configs: Vec<bool> = if args.iter().any(|a| a == "--only-quick") {
        vec![true]
    } else if args.iter().any(|a| a == "--no-quick") {
        vec![false]
    } else {
        vec![false, true]
    };
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
        "seeds 0..{}, 100 steps per run, {} runs per model and configuration; z3 {}",
        reps,
        reps,
        ioco_symbolic::z3solver::z3_version()
    );
    println!(
        "| model | fast path | wall ms/100 steps (mean) | min | CPU ms/100 steps | vs TorXakis 1.25 s (CPU) | Z3 checks/run | fast-path answers/run | memo hits/run | pooled models/run |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    // `--model NAME`: one model only
    let only = args
        .iter()
        .position(|a| a == "--model")
        .and_then(|i| args.get(i + 1).cloned());
    for (label, file, name) in cases {
        if only.as_deref().is_some_and(|m| m != label) {
            continue;
        }
        let spec = load(file, name);
        for &quick in &configs {
            let r = measure(label, &spec, reps, quick);
            println!(
                "| {} | {} | {:.2} | {:.2} | {:.2} | {:.0}x | {} | {} | {} | {} |",
                label,
                if quick { "on" } else { "off" },
                r.wall,
                r.min,
                r.cpu,
                1250.0 / r.cpu.max(1e-9),
                r.calls,
                r.quick,
                r.hits,
                r.pooled
            );
        }
    }
}
