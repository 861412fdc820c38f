//! Benchmark of the complete-test-suite methods: generation time and suite size (tests, total
//! input symbols) for random machines and (when the DOT parser is available) the corpus.
//!
//! `cargo bench -p ioco-fsm --bench suites -- [--random-only] [--states N] [--inputs I] [--k K]
//! [--random-k K] [--methods w,wp,hsi,h,hads] [--with-h]`
//!
//! Suites are enumerated in streaming mode (counted, not stored).

use ioco_fsm::{Method, Plan};
use ioco_model::Mealy;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

fn random_machine(seed: u64, n: usize, ni: usize, no: usize) -> Mealy {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let inputs = (0..ni).map(|i| format!("i{i}")).collect();
    let outputs = (0..no).map(|o| format!("o{o}")).collect();
    let mut m = Mealy::new(n, inputs, outputs, 0);
    for s in 0..n as u32 {
        for a in 0..ni as u32 {
            let t = if a == 0 && (s as usize) + 1 < n {
                s + 1
            } else {
                rng.random_range(0..n as u32)
            };
            m.set(s, a, t, rng.random_range(0..no as u32));
        }
    }
    m
}

fn row(name: &str, m: &Mealy, method: Method, k: usize, time_limit_s: f64) {
    let t0 = Instant::now();
    let plan = match Plan::new(m, method, k) {
        Ok(p) => p,
        Err(e) => {
            println!("| {name} | {method} | {k} | error: {e} | | | |");
            return;
        }
    };
    let prep = t0.elapsed().as_secs_f64();
    let stats = plan.for_each(|_| {});
    let total = t0.elapsed().as_secs_f64();
    println!(
        "| {name} | {} | {method} | {k} | {} | {} | {:.3} | {:.3} |",
        plan.info().minimal,
        stats.tests,
        stats.symbols,
        prep,
        total
    );
    if total > time_limit_s {
        eprintln!("note: {name} {method} k={k} took {total:.1}s");
    }
}

fn corpus() -> Vec<(String, Mealy)> {
    let root = match ioco_testkit::locate_corpus() {
        Ok(root) => root,
        Err(why) => {
            eprintln!("note: no corpus models: {why}");
            return Vec::new();
        }
    };
    let mut files = Vec::new();
    let mut stack = vec![root.join("mealy-aalpy"), root.join("hybrid-ads")];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "dot") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut out = Vec::new();
    for p in files {
        let src = std::fs::read_to_string(&p).unwrap();
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        match parse(&src, &p.to_string_lossy()) {
            Some(m) => out.push((name, m)),
            None => eprintln!("skipped {name} (not a Mealy machine or no parser)"),
        }
    }
    out
}

fn parse(src: &str, file: &str) -> Option<Mealy> {
    ioco_formats::dot::parse_mealy(src, file).ok()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let opt = |f: &str, d: usize| {
        args.iter()
            .position(|a| a == f)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    // --methods w,hsi: only these methods.
    let methods: Vec<Method> = args
        .iter()
        .position(|a| a == "--methods")
        .and_then(|i| args.get(i + 1))
        .map(|v| v.split(',').map(|m| m.parse().expect("method")).collect())
        .unwrap_or(Method::ALL.to_vec());
    println!("| model | n | method | k | tests | symbols | prepare s | total s |");
    println!("|---|---|---|---|---|---|---|---|");
    if !flag("--random-only") {
        for (name, m) in corpus() {
            for k in 0..=opt("--k", 2) {
                for &method in &methods {
                    row(&name, &m, method, k, 60.0);
                }
            }
        }
    }
    let n = opt("--states", 2000);
    let ni = opt("--inputs", 20);
    let seed = 2026u64;
    eprintln!("random machine: seed {seed}, {n} states, {ni} inputs, 2 outputs");
    let m = random_machine(seed, n, ni, 2);
    for k in 0..=opt("--random-k", 1) {
        for &method in &methods {
            if method == Method::H && n > 500 && k > 0 && !flag("--with-h") {
                println!("| random-{n}x{ni} | | h | {k} | skipped (use --with-h) | | | |");
                continue;
            }
            row(&format!("random-{n}x{ni}"), &m, method, k, 60.0);
        }
    }
}
