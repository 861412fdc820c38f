//! Side-by-side benchmark against Moerman's hybrid-ADS tool (C++, MIT; <https://github.com/Jaxan/hybrid-ads>):
//! the same machine, the same `k`, the same method, generation time and suite size.
//!
//! ```text
//! HYBRID_ADS=/tmp/hybrid-ads/build/main cargo bench -p ioco-fsm --bench vs_hybrid_ads -- \
//!     [--k K] [--seeds S] [--states N] [--inputs I] [--random-k K] [--random-only] [--no-random]
//!     [--ioco PATH]
//! ```
//!
//! With `--ioco PATH` (a release build of the `ioco` binary) two more columns give what a user
//! runs end to end: `ioco gen DOT --method M --extra-states k -o FILE` (reading the same DOT
//! file, generating, writing the suite file), wall clock (median of as many runs as
//! hybrid-ADS gets), its ratio to hybrid-ADS's time, the CPU time (user + system, `wait4`) of
//! both processes and their ratio (on a loaded machine the millisecond rows' wall clock is mostly
//! waiting for a core; CPU time is not), and its peak resident memory.
//!
//! The external binary is given by `HYBRID_ADS` (or `--hybrid-ads PATH`); without it the bench
//! says so and exits 0. Nothing of hybrid-ADS is part of this repository.
//!
//! Conventions, so that the counts compare:
//! - Both tools get the same *minimal, reachable, complete* machine: ours is minimised first
//!   ([`ioco_fsm::prepare::prepare`]) and the result is written as hybrid-ADS's DOT input (one
//!   `s -> t [label="i / o"]` line per transition, the initial state's lines first, since
//!   hybrid-ADS takes the source of the first edge as initial state). Partial machines are
//!   skipped (hybrid-ADS rejects them).
//! - Our `k` extra states ↔ hybrid-ADS `-k k+1` (its option counts infix length: prefixes
//!   `Q·I^{≤k+1}`), and `-l k+1` so that its whole fixed suite goes through its prefix tree
//!   (with the default `-l 2` tests beyond infix length 2 are only checked for being new, so
//!   some output tests can be prefixes of later ones). Also `-m fixed` (no random tail),
//!   `-p minimal` (shortest access sequences) and `-s hads` or `-s hsi`, `-x seed`.
//! - Sizes: tests = number of words; symbols = total number of inputs; no reset symbols
//!   counted by either tool; suites prefix-free (no test is a prefix of another) on both sides.
//! - Time: ours is wall clock of preparation (minimisation, splitting trees, ADS) plus
//!   enumerating every test as text into a sink (in process); hybrid-ADS's is the wall clock of
//!   the process (reading the DOT file, building, writing every test to a pipe we count from).
//!   hybrid-ADS randomises its splitting trees and access sequences; with `--seeds S` it runs
//!   with seeds 1..=S and the run with the median symbol count is reported (time: median too).

use ioco_fsm::{prepare, Method, Plan};
use ioco_model::Mealy;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
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

fn corpus() -> Vec<(String, Mealy)> {
    let root = match ioco_testkit::locate_corpus() {
        Ok(c) => c.join("mealy-aalpy"),
        Err(why) => {
            eprintln!("note: no corpus models: {why}");
            return Vec::new();
        }
    };
    let mut files = Vec::new();
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            eprintln!("note: no corpus at {}", d.display());
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
        let src = std::fs::read_to_string(&p).expect("readable corpus file");
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        match ioco_formats::dot::parse_mealy(&src, &p.to_string_lossy()) {
            Ok(m) => out.push((name, m)),
            Err(e) => eprintln!("skipped {name}: {e}"),
        }
    }
    out
}

/// hybrid-ADS's DOT input: states `s<i>`, inputs `i<a>`, outputs `o<b>`, initial state's
/// transitions first.
fn to_hybrid_ads_dot(m: &Mealy) -> String {
    let mut out = String::from("digraph g {\n");
    let n = m.num_states() as u32;
    let order = std::iter::once(m.initial).chain((0..n).filter(|&s| s != m.initial));
    for s in order {
        for a in 0..m.num_inputs() as u32 {
            let (t, o) = m.step(s, a).expect("complete machine");
            out.push_str(&format!("  s{s} -> s{t} [label=\"i{a} / o{o}\"];\n"));
        }
    }
    out.push_str("}\n");
    out
}

#[derive(Clone, Copy, Default)]
struct Run {
    tests: usize,
    symbols: usize,
    secs: f64,
    /// CPU seconds (user + system) of the process, for the external runs (0 in process)
    cpu: f64,
}

fn ours(m: &Mealy, method: Method, k: usize) -> Result<Run, String> {
    let t0 = Instant::now();
    let plan = Plan::new(m, method, k).map_err(|e| e.to_string())?;
    let mut sink = std::io::BufWriter::new(std::io::sink());
    let stats = plan.write_words(&mut sink).map_err(|e| e.to_string())?;
    sink.flush().map_err(|e| e.to_string())?;
    Ok(Run {
        tests: stats.tests,
        symbols: stats.symbols,
        secs: t0.elapsed().as_secs_f64(),
        cpu: 0.0,
    })
}

fn theirs(exe: &Path, dot: &Path, suffix: &str, k: usize, seed: u64) -> Result<Run, String> {
    let kk = (k + 1).to_string();
    let t0 = Instant::now();
    let mut child = Command::new(exe)
        .args([
            "-m", "fixed", "-p", "minimal", "-s", suffix, "-k", &kk, "-l", &kk,
        ])
        .args(["-x", &seed.to_string(), "-f"])
        .arg(dot)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let mut run = Run::default();
    let stdout = child.stdout.take().expect("piped");
    let mut line = String::new();
    let mut reader = BufReader::with_capacity(1 << 20, stdout);
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => {
                run.tests += 1;
                run.symbols += line.split_ascii_whitespace().count();
            }
            Err(e) => return Err(e.to_string()),
        }
    }
    let (ok, _, cpu, stderr) = wait_with_usage(child);
    run.secs = t0.elapsed().as_secs_f64();
    run.cpu = cpu;
    if !ok {
        return Err(format!("hybrid-ADS failed: {}", stderr.trim()));
    }
    Ok(run)
}

/// `ioco gen` of `dot` to a file, end to end: wall-clock seconds, the child's peak resident
/// memory in MB and its CPU seconds (Linux: `wait4`'s rusage; 0 elsewhere).
fn ours_cli(
    ioco: &Path,
    dot: &Path,
    out: &Path,
    method: Method,
    k: usize,
) -> Result<(f64, f64, f64), String> {
    let t0 = Instant::now();
    let child = Command::new(ioco)
        .arg("gen")
        .arg(dot)
        .args([
            "--method",
            method.name(),
            "--extra-states",
            &k.to_string(),
            "-o",
        ])
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", ioco.display()))?;
    let (ok, peak_mb, cpu, stderr) = wait_with_usage(child);
    let secs = t0.elapsed().as_secs_f64();
    let _ = std::fs::remove_file(out);
    if !ok {
        return Err(stderr.trim().to_string());
    }
    Ok((secs, peak_mb, cpu))
}

/// Waits for `child` (reading its standard error): whether it succeeded, its peak resident
/// memory in MB, its CPU seconds (user + system), and what it wrote.
#[cfg(target_os = "linux")]
fn wait_with_usage(mut child: std::process::Child) -> (bool, f64, f64, String) {
    use std::io::Read;
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value; wait4 on our own child's pid.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if r != pid {
        return (false, 0.0, 0.0, format!("wait4 failed: {err}"));
    }
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 / 1e6;
    let cpu = t(usage.ru_utime) + t(usage.ru_stime);
    (ok, usage.ru_maxrss as f64 / 1024.0, cpu, err)
}

#[cfg(not(target_os = "linux"))]
fn wait_with_usage(child: std::process::Child) -> (bool, f64, f64, String) {
    match child.wait_with_output() {
        Ok(o) => (
            o.status.success(),
            0.0,
            0.0,
            String::from_utf8_lossy(&o.stderr).into_owned(),
        ),
        Err(e) => (false, 0.0, 0.0, e.to_string()),
    }
}

fn median_run(mut runs: Vec<Run>) -> Run {
    let mut times: Vec<f64> = runs.iter().map(|r| r.secs).collect();
    times.sort_by(f64::total_cmp);
    let mut cpus: Vec<f64> = runs.iter().map(|r| r.cpu).collect();
    cpus.sort_by(f64::total_cmp);
    runs.sort_by_key(|r| (r.symbols, r.tests));
    let mut r = runs[runs.len() / 2];
    r.secs = times[times.len() / 2];
    r.cpu = cpus[cpus.len() / 2];
    r
}

#[allow(clippy::too_many_arguments)]
fn row(
    exe: &Path,
    cli: Option<&Path>,
    tmp: &Path,
    name: &str,
    m: &Mealy,
    ks: std::ops::RangeInclusive<usize>,
    seeds: u64,
) {
    let prepared = match prepare::prepare(m) {
        Ok(p) => p,
        Err(e) => {
            println!("| {name} | | | | skipped: {e} | | | | | | | |");
            return;
        }
    };
    if !prepared.info.complete {
        println!("| {name} | | | | skipped: partial machine (hybrid-ADS needs complete machines) | | | | | | | |");
        return;
    }
    let min = &prepared.machine;
    let dot = tmp.join(format!("{name}.dot"));
    std::fs::write(&dot, to_hybrid_ads_dot(min)).expect("temp dir writable");
    for k in ks {
        for (method, suffix) in [(Method::Hads, "hads"), (Method::Hsi, "hsi")] {
            let a = match ours(min, method, k) {
                Ok(r) => r,
                Err(e) => {
                    println!("| {name} | | {method} | {k} | error (ours): {e} | | | | | | | |");
                    continue;
                }
            };
            let runs: Result<Vec<Run>, String> = (1..=seeds)
                .map(|seed| theirs(exe, &dot, suffix, k, seed))
                .collect();
            let b = match runs {
                Ok(r) => median_run(r),
                Err(e) => {
                    println!(
                        "| {name} | | {method} | {k} | error (hybrid-ADS): {e} | | | | | | | |"
                    );
                    continue;
                }
            };
            let e2e = match cli {
                None => String::new(),
                // as many runs as hybrid-ADS had, median time (ours is deterministic: the
                // repeats only even out the noise of a shared machine, as for theirs)
                Some(ioco) => match (1..=seeds)
                    .map(|_| ours_cli(ioco, &dot, &tmp.join("suite.json"), method, k))
                    .collect::<Result<Vec<(f64, f64, f64)>, String>>()
                {
                    Ok(runs) => {
                        let median = |f: fn(&(f64, f64, f64)) -> f64| {
                            let mut v: Vec<f64> = runs.iter().map(f).collect();
                            v.sort_by(f64::total_cmp);
                            v[v.len() / 2]
                        };
                        let s = median(|r| r.0);
                        let cpu = median(|r| r.2);
                        let mb = runs.iter().map(|r| r.1).fold(0.0, f64::max);
                        format!(
                            " {s:.3} | {:.2} | {:.1} | {:.1} | {:.2} | {mb:.0} |",
                            s / b.secs.max(1e-9),
                            cpu * 1e3,
                            b.cpu * 1e3,
                            cpu / b.cpu.max(1e-6)
                        )
                    }
                    Err(e) => format!(" error: {e} | | | | | |"),
                },
            };
            println!(
                "| {name} | {} | {method} | {k} | {} | {} | {:.3} | {} | {} | {:.3} | {:.2} | {:.2} |{e2e}",
                min.num_states(),
                a.tests,
                a.symbols,
                a.secs,
                b.tests,
                b.symbols,
                b.secs,
                a.symbols as f64 / b.symbols.max(1) as f64,
                a.secs / b.secs.max(1e-9),
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let value = |f: &str| {
        args.iter()
            .position(|a| a == f)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let opt = |f: &str, d: usize| value(f).and_then(|v| v.parse().ok()).unwrap_or(d);
    let exe = value("--hybrid-ads")
        .or_else(|| std::env::var("HYBRID_ADS").ok())
        .map(PathBuf::from);
    let Some(exe) = exe.filter(|p| p.is_file()) else {
        let given = value("--hybrid-ads").or_else(|| std::env::var("HYBRID_ADS").ok());
        let why = match given {
            Some(p) => format!("{p} is not a file"),
            None => "no hybrid-ADS binary".to_string(),
        };
        println!(
            "vs_hybrid_ads: skipped: {why} (set HYBRID_ADS=/path/to/hybrid-ads/build/main or pass \
             --hybrid-ads PATH; see crates/ioco-fsm/benches/RESULTS.md for how to build it)"
        );
        return;
    };
    let seeds = opt("--seeds", 1).max(1) as u64;
    let tmp = std::env::temp_dir().join(format!("ioco-vs-hads-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    eprintln!(
        "hybrid-ADS: {} (-m fixed -p minimal -k k+1 -l k+1, seeds 1..={seeds}, median by symbols)",
        exe.display()
    );
    let cli = value("--ioco").map(PathBuf::from);
    let (head, rule) = match &cli {
        Some(_) => (
            " ioco gen s | gen/h-ADS | gen CPU ms | h-ADS CPU ms | CPU gen/h-ADS | gen MB |",
            "---|---|---|---|---|---|",
        ),
        None => ("", ""),
    };
    println!("| model | n | method | k | ours tests | ours symbols | ours s | h-ADS tests | h-ADS symbols | h-ADS s | symbols ours/h-ADS | time ours/h-ADS |{head}");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|{rule}");
    if !flag("--random-only") {
        for (name, m) in corpus() {
            row(
                &exe,
                cli.as_deref(),
                &tmp,
                &name,
                &m,
                0..=opt("--k", 2),
                seeds,
            );
        }
    }
    if !flag("--no-random") {
        let n = opt("--states", 2000);
        let ni = opt("--inputs", 20);
        let seed = 2026u64;
        eprintln!("random machine: ChaCha8 seed {seed}, {n} states, {ni} inputs, 2 outputs");
        let m = random_machine(seed, n, ni, 2);
        row(
            &exe,
            cli.as_deref(),
            &tmp,
            &format!("random-{n}x{ni}"),
            &m,
            0..=opt("--random-k", 1),
            seeds,
        );
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
