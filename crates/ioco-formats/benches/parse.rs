//! `.aut` parse time for 10^4, 10^5 and 10^6 transitions (linearity check).
//!
//! Run: `cargo bench -p ioco-formats --bench parse` (release profile). The generator writes
//! each file to a temporary directory. Columns: the parse of the text in memory (median of
//! several runs) in wall-clock time and in CPU time of the thread (the machine may be shared:
//! CPU time is the stable figure), the share of `LtsBuilder::build` (CSR sort) in it, and
//! `ioco_formats::load` end to end from the file (wall clock).

use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// A pseudo-random LTS with `m` transitions over `m / 4` states, 16 inputs, 16 outputs and τ,
/// with labels written quoted and unquoted.
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

/// CPU time of the calling thread.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Median wall and CPU time of `runs` runs of `f`.
fn measure(runs: usize, mut f: impl FnMut()) -> (Duration, Duration) {
    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    for _ in 0..runs {
        let (t, c) = (Instant::now(), thread_cpu());
        f();
        cpu.push(thread_cpu() - c);
        wall.push(t.elapsed());
    }
    wall.sort();
    cpu.sort();
    (wall[runs / 2], cpu[runs / 2])
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    println!(
        "{:>11} {:>6} {:>11} {:>10} {:>15} {:>10} {:>13}",
        "transitions",
        "MiB",
        "parse wall",
        "parse CPU",
        "of which build",
        "load wall",
        "CPU ns/trans"
    );
    for &m in &[10_000usize, 100_000, 1_000_000] {
        let text = generate(m);
        let path = dir.path().join(format!("gen-{m}.aut"));
        std::fs::write(&path, &text).expect("write");
        let runs = if m >= 1_000_000 { 5 } else { 11 };
        let (wall, cpu) = measure(runs, || {
            let lts = ioco_formats::aut::parse(&text, "gen.aut").expect("valid");
            assert!(lts.num_transitions() <= m);
        });
        // The share of LtsBuilder::build (CSR sort) in the parse: rebuild from the triples.
        let lts = ioco_formats::aut::parse(&text, "gen.aut").expect("valid");
        let triples: Vec<_> = lts.transitions().collect();
        let (_, build) = measure(runs, || {
            let mut b = ioco_model::LtsBuilder::new(lts.alphabet().clone());
            b.add_states(lts.num_states());
            b.add_initial(0);
            for &(s, l, u) in &triples {
                b.add_transition(s, l, u);
            }
            drop(b.build().expect("valid"));
        });
        let (load, _) = measure(3, || {
            drop(ioco_formats::load(&path).expect("valid"));
        });
        let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1e3);
        println!(
            "{:>11} {:>6.1} {:>11} {:>10} {:>15} {:>10} {:>13.0}",
            m,
            text.len() as f64 / (1 << 20) as f64,
            ms(wall),
            ms(cpu),
            ms(build),
            ms(load),
            cpu.as_nanos() as f64 / m as f64
        );
    }
}
