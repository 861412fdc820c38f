//! `ioco-fuzz [--seed S] [--execs N] [--seconds T] [DIR…]`: fuzz the readers, checker,
//! formatter and writers with mutations of the models under DIR (default: the repository's
//! `examples/` and the public corpus: `IOCO_CORPUS`, else `shared/corpus` beside the
//! repository). Prints executions, panics and the slowest execution; exits 1 if anything
//! panicked or took more than 5 s, with the first such input written to `fuzz-failure.txt`.

use std::path::PathBuf;
use std::time::Duration;

fn main() -> std::process::ExitCode {
    let mut seed = 1u64;
    let mut execs = 100_000u64;
    let mut seconds = 3_600u64;
    let mut dirs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut num = |what: &str| -> u64 {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{what} needs a number"))
        };
        match a.as_str() {
            "--seed" => seed = num("--seed"),
            "--execs" => execs = num("--execs"),
            "--seconds" => seconds = num("--seconds"),
            "-h" | "--help" => {
                println!("ioco-fuzz [--seed S] [--execs N] [--seconds T] [DIR…]");
                return std::process::ExitCode::SUCCESS;
            }
            d => dirs.push(PathBuf::from(d)),
        }
    }
    if dirs.is_empty() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        dirs.push(root.join("examples"));
        dirs.extend(ioco_testkit::locate_corpus().ok());
    }
    let seeds = ioco_fuzz::seeds(&dirs);
    if seeds.is_empty() {
        eprintln!("ioco-fuzz: no model files under {dirs:?}");
        return std::process::ExitCode::from(2);
    }
    println!(
        "ioco-fuzz: seed {seed}, {} seed models, up to {execs} executions or {seconds} s",
        seeds.len()
    );
    let t = std::time::Instant::now();
    let r = ioco_fuzz::run(&seeds, seed, execs, Duration::from_secs(seconds));
    println!(
        "{} executions in {:.1} s ({} accepted by a reader), {} panics, {} over {} s, slowest {:.3} s",
        r.execs,
        t.elapsed().as_secs_f64(),
        r.accepted,
        r.panics.len(),
        r.slow.len(),
        r.slow_limit.as_secs(),
        r.slowest.as_secs_f64()
    );
    let first = r
        .panics
        .first()
        .map(|(n, m, i)| format!("panic on a mutation of {n}: {m}\n---\n{i}"))
        .or_else(|| {
            r.slow
                .first()
                .map(|(n, s, i)| format!("{s:.1} s on a mutation of {n}\n---\n{i}"))
        });
    match first {
        None => std::process::ExitCode::SUCCESS,
        Some(f) => {
            let _ = std::fs::write("fuzz-failure.txt", &f);
            eprintln!("{}", f.lines().next().unwrap_or_default());
            eprintln!("ioco-fuzz: the input is in fuzz-failure.txt");
            std::process::ExitCode::from(1)
        }
    }
}
