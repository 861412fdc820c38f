//! `.aut` parse time for 10^4, 10^5 and 10^6 transitions (linearity check).
//!
//! Run: `cargo bench -p ioco-formats --bench parse` (release profile). The generator writes
//! each file to a temporary directory; the parse is timed on the text in memory (median of
//! several runs) and `load` end to end from the file.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// A pseudo-random LTS with `m` transitions over `m / 4` states, 16 inputs, 16 outputs and τ,
/// with labels written in all the accepted styles.
fn generate(m: usize) -> String {
    let n = (m / 4).max(1);
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut s = String::with_capacity(m * 24);
    let _ = writeln!(s, "des (0, {m}, {n})");
    for _ in 0..m {
        let from = next() % n as u64;
        let to = next() % n as u64;
        let k = next() % 33;
        let _ = match k {
            0..=15 => writeln!(s, "({from}, \"in_{k}?\", {to})"),
            16..=31 => writeln!(s, "({from}, out_{k}!, {to})"),
            _ => writeln!(s, "({from}, \"tau\", {to})"),
        };
    }
    s
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` would pass nothing: run small.
    let dir = tempfile::tempdir().expect("temp dir");
    println!(
        "{:>10} {:>10} {:>12} {:>12} {:>10}",
        "transitions", "MiB", "parse (ms)", "load (ms)", "ns/trans"
    );
    for &m in &[10_000usize, 100_000, 1_000_000] {
        let text = generate(m);
        let path = dir.path().join(format!("gen-{m}.aut"));
        std::fs::write(&path, &text).expect("write");
        let runs = if m >= 1_000_000 { 5 } else { 11 };
        let mut times = Vec::new();
        for _ in 0..runs {
            let t = Instant::now();
            let lts = ioco_formats::aut::parse(&text, "gen.aut").expect("valid");
            times.push(t.elapsed());
            assert!(lts.num_transitions() <= m);
        }
        let parse = median(times);
        let mut times = Vec::new();
        for _ in 0..3 {
            let t = Instant::now();
            let model = ioco_formats::load(&path).expect("valid");
            times.push(t.elapsed());
            drop(model);
        }
        let load = median(times);
        println!(
            "{:>10} {:>10.1} {:>12.1} {:>12.1} {:>10.0}",
            m,
            text.len() as f64 / (1 << 20) as f64,
            parse.as_secs_f64() * 1e3,
            load.as_secs_f64() * 1e3,
            parse.as_nanos() as f64 / m as f64
        );
    }
}
