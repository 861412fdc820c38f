//! Throughput of online testing (a bench binary, not part of the tests).
//!
//! `cargo bench -p ioco-exec --bench online` measures:
//! 1. in-process: online testing (uniform strategy) of a 10,000-state deterministic model
//!    against the simulator of the same model, in steps/s, versus a bare loop that walks the same
//!    transition table with the same random generator (target, issue #30: at least 1/2 of it);
//! 2. over stdin/stdout: online testing of a child process with the quiescence marker, in
//!    round trips/s (coin? then coffee!), versus a raw pipe ping-pong with the same child
//!    (target, issue #30: at least 80% of it), and the CPU time of the tester's thread per round
//!    trip for both (less dependent on the load than the wall clock). The child is this binary
//!    run with `--child`.
//!
//! Each part runs ioco and its reference alternately (7 rounds in process, 5 over the pipe)
//! and prints the medians and the best of the rounds (on a shared machine noise only slows a
//! round down, so the best is the less load-dependent figure). The bare loop draws one number
//! per step from the same generator as the tester (ChaCha8, `random_range` over the state's
//! edges); the tester draws about one per step too (the uniform strategy's coin, and its input
//! where it gives one: 0.6 M coins and 0.4 M inputs per 1 M steps; the simulator draws none
//! here, its model being deterministic).

use ioco_exec::{run_online_with, OnlineOptions, RunVerdict, Traces};
use ioco_gen::StrategySpec;
use ioco_model::{Alphabet, Lts, LtsBuilder, State};
use ioco_sut::process::{ProcessAdapter, ProcessConfig};
use ioco_sut::sim::{SimOptions, Simulator};
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

/// CPU time of this thread: the machine may be shared, wall-clock time is not reliable.
fn cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime with a valid pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
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
    let failures_only = OnlineOptions {
        traces: Traces::Failures,
        ..opts.clone()
    };
    let (mut ioco, mut lean, mut bare) = (Vec::new(), Vec::new(), Vec::new());
    let mut last = None;
    for round in 0..7 {
        drop(last.take());
        let c = cpu_time();
        let s = run_online_with(&lts, &opts, &mut sim).unwrap();
        let dt = cpu_time() - c;
        assert_eq!(s.verdict, RunVerdict::Pass);
        let steps = s.total_steps();
        ioco.push(steps as f64 / dt.as_secs_f64());
        drop(s);
        let c = cpu_time();
        let s = run_online_with(&lts, &failures_only, &mut sim).unwrap();
        let dt = cpu_time() - c;
        assert_eq!(s.total_steps(), steps, "same seed, same runs");
        lean.push(steps as f64 / dt.as_secs_f64());
        let c = cpu_time();
        std::hint::black_box(bare_walk(&lts, steps, round));
        bare.push(steps as f64 / (cpu_time() - c).as_secs_f64());
        last = Some(s);
    }
    let s = last.unwrap();
    let top = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    let (ioco_top, lean_top, bare_top) = (top(&ioco), top(&lean), top(&bare));
    let (ioco, lean, bare) = (median(ioco), median(lean), median(bare));
    println!(
        "in-process, {n}-state model (median of 7, CPU time; {} runs × {} steps, coverage {}/{} \
         transitions): bare walk of the same table {:.2} M steps/s; online testing with every \
         trace kept (traces: All, the default) {:.2} M steps/s, ratio {:.2}; keeping only \
         failing traces (traces: Failures) {:.2} M steps/s, ratio {:.2} (target ≥ 0.5); best of \
         7: bare {:.2}, All {:.2} (ratio {:.2}), Failures {:.2} (ratio {:.2}) M steps/s",
        s.runs.len(),
        depth,
        s.coverage.transitions_visited,
        s.coverage.transitions_total,
        bare / 1e6,
        ioco / 1e6,
        ioco / bare,
        lean / 1e6,
        lean / bare,
        bare_top / 1e6,
        ioco_top / 1e6,
        ioco_top / bare_top,
        lean_top / 1e6,
        lean_top / bare_top
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

fn raw_round_trips(exe: &std::path::Path, n: usize) -> (f64, Duration) {
    let mut c = Command::new(exe)
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
    let c0 = cpu_time();
    for _ in 0..n {
        w.write_all(b"coin\n").unwrap();
        w.flush().unwrap();
        line.clear();
        r.read_line(&mut line).unwrap();
        assert_eq!(line, "coffee\n");
        line.clear();
        r.read_line(&mut line).unwrap();
    }
    let dt = t.elapsed();
    let cpu = cpu_time() - c0;
    drop(w);
    let _ = c.wait();
    (n as f64 / dt.as_secs_f64(), cpu / n as u32)
}

fn ioco_round_trips(exe: &std::path::Path, n: usize) -> (f64, Duration) {
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
    let c = cpu_time();
    let s = run_online_with(&spec, &opts, &mut a).unwrap();
    let dt = t.elapsed();
    let cpu = cpu_time() - c;
    assert_eq!(s.verdict, RunVerdict::Pass, "{:?}", s.runs[0].error);
    let n = s.total_steps() / 2;
    (n as f64 / dt.as_secs_f64(), cpu / n as u32)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn pipe() {
    let exe = std::env::current_exe().unwrap();
    let n = 20_000usize;
    let (mut raw, mut ioco, mut raw_cpu, mut ioco_cpu) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..5 {
        let (r, c) = raw_round_trips(&exe, n);
        raw.push(r);
        raw_cpu.push(c.as_secs_f64() * 1e6);
        let (r, c) = ioco_round_trips(&exe, n);
        ioco.push(r);
        ioco_cpu.push(c.as_secs_f64() * 1e6);
    }
    // the best of each (noise on a shared machine only slows a round down)
    let most = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    let least = |v: &[f64]| v.iter().copied().fold(f64::MAX, f64::min);
    let (raw_best, ioco_best) = (most(&raw), most(&ioco));
    let (raw_cpu_best, ioco_cpu_best) = (least(&raw_cpu), least(&ioco_cpu));
    let (raw, ioco) = (median(raw), median(ioco));
    let (raw_cpu, ioco_cpu) = (median(raw_cpu), median(ioco_cpu));
    println!(
        "stdin/stdout with quiescence marker (median of 5 × {n} round trips coin?/coffee!, \
         process start included): online testing {ioco:.0} round trips/s; raw pipe ping-pong \
         {raw:.0} round trips/s; ratio {:.2} (target ≥ 0.8); CPU time of the tester's \
         thread per round trip: online testing {ioco_cpu:.2} µs, raw {raw_cpu:.2} µs (ratio \
         {:.2}); best of 5: {ioco_best:.0} vs {raw_best:.0} round trips/s (ratio {:.2}), CPU \
         {ioco_cpu_best:.2} vs {raw_cpu_best:.2} µs (ratio {:.2})",
        ioco / raw,
        raw_cpu / ioco_cpu,
        ioco_best / raw_best,
        raw_cpu_best / ioco_cpu_best
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
