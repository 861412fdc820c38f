//! Throughput of online testing (a bench binary, not part of the tests).
//!
//! `cargo bench -p ioco-exec --bench online` measures:
//! 1. in-process: online testing (uniform strategy) of a 10,000-state deterministic model
//!    against the simulator of the same model, in steps/s, versus a bare loop that walks the same
//!    transition table with the same random generator (target: at least 1/3 of it);
//! 2. over stdin/stdout: online testing of a child process with the quiescence marker, in
//!    round trips/s (coin? then coffee!), versus a raw pipe ping-pong with the same child
//!    (target: at least 50% of it). The child is this binary run with `--child`.

use ioco_exec::adapter::process::{ProcessAdapter, ProcessConfig};
use ioco_exec::adapter::sim::{SimOptions, Simulator};
use ioco_exec::{run_online_with, OnlineOptions, RunVerdict};
use ioco_gen::StrategySpec;
use ioco_model::{Alphabet, Lts, LtsBuilder, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn child() {
    let stdin = std::io::stdin();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let _ = out.write_all(b"#quiet\n");
    let _ = out.flush();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        if line == "coin" {
            let _ = out.write_all(b"coffee\n");
        }
        let _ = out.write_all(b"#quiet\n");
        if out.flush().is_err() {
            return;
        }
    }
}

/// Even states take inputs a, b, c to odd states; odd states give one of x, y, z back.
fn model(n: usize, seed: u64) -> Lts {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut al = Alphabet::new();
    let ins: Vec<_> = ["a", "b", "c"]
        .iter()
        .map(|s| al.input(s).unwrap())
        .collect();
    let outs: Vec<_> = ["x", "y", "z"]
        .iter()
        .map(|s| al.output(s).unwrap())
        .collect();
    let mut b = LtsBuilder::new(al);
    b.add_states(n);
    b.add_initial(0);
    let half = n / 2;
    for s in 0..half as State {
        let even = 2 * s;
        for &i in &ins {
            b.add_transition(even, i, 2 * rng.random_range(0..half as State) + 1);
        }
        let o = outs[rng.random_range(0..3)];
        b.add_transition(even + 1, o, 2 * rng.random_range(0..half as State));
    }
    b.build().unwrap()
}

fn bare_walk(lts: &Lts, steps: usize, seed: u64) -> (usize, State) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut s = lts.initial()[0];
    let mut sum = 0usize;
    for _ in 0..steps {
        let es = lts.edges(s);
        let e = es[rng.random_range(0..es.len())];
        sum = sum.wrapping_add(e.label.index());
        s = e.target;
    }
    (sum, s)
}

fn in_process() {
    let n: usize = std::env::var("IOCO_BENCH_STATES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let lts = model(n, 1);
    let (runs, depth) = (100usize, 10_000usize);
    let opts = OnlineOptions {
        runs,
        depth,
        seed: 1,
        ..OnlineOptions::default()
    };
    let mut sim = Simulator::new(lts.clone(), lts.alphabet(), SimOptions::default());
    // warm-up
    let _ = run_online_with(
        &lts,
        &OnlineOptions {
            runs: 2,
            ..opts.clone()
        },
        &mut sim,
    )
    .unwrap();
    let t = Instant::now();
    let s = run_online_with(&lts, &opts, &mut sim).unwrap();
    let dt = t.elapsed();
    assert_eq!(s.verdict, RunVerdict::Pass);
    let steps = s.total_steps();
    let ioco_rate = steps as f64 / dt.as_secs_f64();

    let t = Instant::now();
    let r = bare_walk(&lts, steps, 1);
    let bare_dt = t.elapsed();
    std::hint::black_box(r);
    let bare_rate = steps as f64 / bare_dt.as_secs_f64();
    println!(
        "in-process, 10,000-state model: online testing {:.2} M steps/s ({} steps in {:.3} s, \
         coverage {}/{} transitions); bare walk {:.2} M steps/s; ratio {:.2} (target ≥ 0.33)",
        ioco_rate / 1e6,
        steps,
        dt.as_secs_f64(),
        s.coverage.transitions_visited,
        s.coverage.transitions_total,
        bare_rate / 1e6,
        ioco_rate / bare_rate
    );
}

fn coffee_spec() -> Lts {
    let mut b = LtsBuilder::new(Alphabet::new());
    b.add_states(2);
    b.add_initial(0);
    b.add(0, "coin", ioco_model::LabelKind::Input, 1).unwrap();
    b.add(1, "coffee", ioco_model::LabelKind::Output, 0)
        .unwrap();
    b.build().unwrap()
}

fn pipe() {
    let exe = std::env::current_exe().unwrap();
    let n = 20_000usize;

    // Raw ping-pong.
    let mut c = Command::new(&exe)
        .arg("--child")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut w = c.stdin.take().unwrap();
    let mut r = BufReader::new(c.stdout.take().unwrap());
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    let t = Instant::now();
    for _ in 0..n {
        w.write_all(b"coin\n").unwrap();
        w.flush().unwrap();
        line.clear();
        r.read_line(&mut line).unwrap();
        assert_eq!(line, "coffee\n");
        line.clear();
        r.read_line(&mut line).unwrap();
    }
    let raw_dt = t.elapsed();
    drop(w);
    let _ = c.wait();
    let raw_rate = n as f64 / raw_dt.as_secs_f64();

    // Online testing through the process adapter, marker mode.
    let spec = coffee_spec();
    let mut cfg = ProcessConfig::from_command_line("x --child").unwrap();
    cfg.argv[0] = exe.to_string_lossy().into_owned();
    cfg.wire.marker = Some("#quiet".into());
    let mut a = ProcessAdapter::new(spec.alphabet(), cfg).unwrap();
    let opts = OnlineOptions {
        runs: 1,
        depth: 2 * n,
        seed: 3,
        quiescence_timeout: Duration::from_secs(2),
        strategy: StrategySpec::Weighted(vec![("δ".into(), 0.0)]),
        ..OnlineOptions::default()
    };
    let t = Instant::now();
    let s = run_online_with(&spec, &opts, &mut a).unwrap();
    let dt = t.elapsed();
    assert_eq!(s.verdict, RunVerdict::Pass, "{:?}", s.runs[0].error);
    let trips = s.total_steps() / 2;
    let rate = trips as f64 / dt.as_secs_f64();
    println!(
        "stdin/stdout with quiescence marker: online testing {:.0} round trips/s ({} in {:.3} s, \
         process start included); raw pipe ping-pong {:.0} round trips/s; ratio {:.2} (target ≥ 0.5)",
        rate,
        trips,
        dt.as_secs_f64(),
        raw_rate,
        rate / raw_rate
    );
}

fn main() {
    if std::env::args().any(|a| a == "--child") {
        child();
        return;
    }
    // `cargo bench -p ioco-exec --bench online -- pipe` runs only the pipe part.
    let args: Vec<String> = std::env::args().collect();
    let only = |name: &str| {
        !args.iter().any(|a| a == "inproc" || a == "pipe") || args.iter().any(|a| a == name)
    };
    if only("inproc") {
        in_process();
    }
    if only("pipe") {
        pipe();
    }
}
