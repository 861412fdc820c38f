//! A seeded, structure-aware fuzzer for everything that reads a model: the `.aut`, DOT and JSON
//! readers, the `.ioco` parser, checker, formatter and translation, the writers, and the
//! rendering of every diagnostic (miette). It runs on stable Rust, in process.
//!
//! Inputs are mutations of real models (the bundled examples and the shared corpus): bytes
//! and lines deleted, duplicated, swapped or spliced from another model, tokens of the model
//! languages inserted (keywords, operators, direction markers, huge numbers, long runs of one
//! character, deep nesting). Each input goes through every reader its extension selects and,
//! when it reads, through the steps a command takes next (`check`: translation and the
//! suspension automaton within small limits; `fmt`: the formatted text must parse again;
//! `show`: every writer). A panic is caught and counted with the input that caused it;
//! an execution slower than [`Report::slow_limit`] is counted as a time-out. A stack overflow
//! or an abort ends the process, so a finished run also means "no abort".
//!
//! Same seed, same inputs: `ioco-fuzz --seed S --execs N` reproduces a run.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// One seed input: its file name (the extension selects the readers) and text.
#[derive(Clone, Debug)]
pub struct Seed {
    /// File name, e.g. `coffee.ioco`.
    pub name: String,
    /// The text.
    pub text: String,
}

/// The seed inputs: every model file under `dirs` (`.ioco`, `.aut`, `.dot`, `.json`), sorted by
/// path so that a run is reproducible.
pub fn seeds(dirs: &[PathBuf]) -> Vec<Seed> {
    let mut files = Vec::new();
    for d in dirs {
        walk(d, &mut files);
    }
    files.sort();
    files
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            let name = p.file_name()?.to_string_lossy().into_owned();
            (text.len() <= 1 << 20).then_some(Seed { name, text })
        })
        .collect()
}

fn walk(d: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(d) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if matches!(
            p.extension().and_then(|x| x.to_str()),
            Some("ioco" | "aut" | "dot" | "json")
        ) {
            out.push(p);
        }
    }
}

/// Tokens of the model languages, inserted by the mutator.
const TOKENS: &[&str] = &[
    "model",
    "system",
    "type",
    "fn",
    "import",
    "input",
    "output",
    "var",
    "init",
    "location",
    "hide",
    "in",
    "if",
    "then",
    "else",
    "is",
    "true",
    "false",
    "int",
    "bool",
    "@main",
    "@timeout(1s)",
    "@sync",
    " -- ",
    " --> ",
    "?",
    "!",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "|||",
    "||",
    "|[a]|",
    ">>>",
    "exit",
    "&&",
    "||",
    "=>",
    "==",
    "!=",
    "<=",
    "+",
    "-",
    "*",
    "/",
    "%",
    ".",
    ",",
    ";",
    ":",
    "=",
    "\"",
    "\\",
    "\n",
    "\r\n",
    "\t",
    "0",
    "-1",
    "99999999999999999999",
    "9223372036854775807",
    "-9223372036854775808",
    "int[0..3]",
    "int[5..1]",
    "tau",
    "delta",
    "δ",
    "τ",
    "i",
    "des (0, 1, 2)",
    "(0, \"a?\", 1)",
    "digraph g {",
    "->",
    "[label=\"a?\"]",
    "__start0",
    "{\"format\":\"ioco-lts/1\"",
    "null",
    "[]",
    "{}",
    "é",
    "\u{0}",
    "\u{1b}[31m",
    "/*",
    "*/",
    "//",
    "<b>",
    "&amp;",
];

/// A mutation of `seeds[k]` for some `k`, with 1 to 4 edits.
pub fn mutate(rng: &mut ChaCha8Rng, seeds: &[Seed]) -> Seed {
    let base = &seeds[rng.random_range(0..seeds.len())];
    let mut s: Vec<u8> = base.text.clone().into_bytes();
    for _ in 0..rng.random_range(1..=4) {
        let len = s.len();
        let at = if len == 0 {
            0
        } else {
            rng.random_range(0..=len)
        };
        match rng.random_range(0..9) {
            // delete a range
            0 if len > 0 => {
                let end = (at + rng.random_range(1..=16)).min(len);
                s.drain(at.min(len)..end);
            }
            // insert a token
            1 | 2 => {
                let t = TOKENS[rng.random_range(0..TOKENS.len())].as_bytes();
                s.splice(at..at, t.iter().copied());
            }
            // duplicate a range
            3 if len > 0 => {
                let a = rng.random_range(0..len);
                let b = (a + rng.random_range(1..=64)).min(len);
                let piece: Vec<u8> = s[a..b].to_vec();
                s.splice(at..at, piece);
            }
            // splice a piece of another seed
            4 => {
                let o = &seeds[rng.random_range(0..seeds.len())].text.as_bytes();
                if !o.is_empty() {
                    let a = rng.random_range(0..o.len());
                    let b = (a + rng.random_range(1..=128)).min(o.len());
                    s.splice(at..at, o[a..b].iter().copied());
                }
            }
            // a random byte
            5 if len > 0 => {
                let i = rng.random_range(0..len);
                s[i] = rng.random();
            }
            // a long run of one character or token (deep nesting, long lines, long chains)
            6 => {
                let unit: &[u8] = match rng.random_range(0..6) {
                    0 => b"(",
                    1 => b" && true",
                    2 => b" + 1",
                    3 => b"x",
                    4 => b" ||| A",
                    _ => b"{",
                };
                let n = rng.random_range(1..4_000);
                let run: Vec<u8> = unit.iter().copied().cycle().take(unit.len() * n).collect();
                s.splice(at..at, run);
            }
            // swap two lines
            7 => {
                let text = String::from_utf8_lossy(&s).into_owned();
                let mut lines: Vec<&str> = text.split('\n').collect();
                if lines.len() > 1 {
                    let a = rng.random_range(0..lines.len());
                    let b = rng.random_range(0..lines.len());
                    lines.swap(a, b);
                }
                s = lines.join("\n").into_bytes();
            }
            // truncate
            _ => s.truncate(at),
        }
    }
    Seed {
        name: base.name.clone(),
        text: String::from_utf8_lossy(&s).into_owned(),
    }
}

/// What a fuzzing run found.
#[derive(Debug, Default)]
pub struct Report {
    /// Inputs executed.
    pub execs: u64,
    /// Inputs that some reader accepted.
    pub accepted: u64,
    /// Inputs that made a step panic: (seed file, panic message, the input).
    pub panics: Vec<(String, String, String)>,
    /// Inputs slower than `slow_limit`: (seed file, seconds, the input).
    pub slow: Vec<(String, f64, String)>,
    /// The slowest execution.
    pub slowest: Duration,
    /// An execution slower than this counts as a time-out.
    pub slow_limit: Duration,
}

/// Run `execs` mutated inputs from `seeds` with `seed`; stop early after `budget`.
pub fn run(seeds: &[Seed], seed: u64, execs: u64, budget: Duration) -> Report {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut report = Report {
        slow_limit: Duration::from_secs(5),
        ..Report::default()
    };
    let start = Instant::now();
    // Panics are expected to be caught here; keep the default hook from printing each one.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for _ in 0..execs {
        if start.elapsed() > budget {
            break;
        }
        let input = mutate(&mut rng, seeds);
        let t = Instant::now();
        let r = std::panic::catch_unwind(AssertUnwindSafe(|| execute(&input)));
        let dt = t.elapsed();
        report.execs += 1;
        report.slowest = report.slowest.max(dt);
        match r {
            Ok(true) => report.accepted += 1,
            Ok(false) => {}
            Err(p) => {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                report
                    .panics
                    .push((input.name.clone(), msg, input.text.clone()));
            }
        }
        if dt > report.slow_limit {
            report
                .slow
                .push((input.name.clone(), dt.as_secs_f64(), input.text.clone()));
        }
    }
    std::panic::set_hook(hook);
    report
}

/// Renders a diagnostic as the CLI does (miette, plain theme): renderer panics count too.
fn render(d: &dyn miette::Diagnostic) {
    let mut out = String::new();
    let _ = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
        .render_report(&mut out, d);
}

/// Every step a command takes on `input`; true when some reader accepted it.
pub fn execute(input: &Seed) -> bool {
    use ioco_formats::{aut, dot, json};
    let (name, text) = (input.name.as_str(), input.text.as_str());
    let mut ltss = Vec::new();
    let mut accepted = false;
    match name.rsplit('.').next() {
        Some("aut") => match aut::parse(text, name) {
            Ok(l) => ltss.push(l),
            Err(e) => render(&e),
        },
        Some("dot") => {
            match dot::parse_lts(text, name) {
                Ok(l) => ltss.push(l),
                Err(e) => render(&e),
            }
            match dot::parse_mealy(text, name) {
                Ok(m) => {
                    accepted = true;
                    let _ = dot::write_mealy(&m);
                }
                Err(e) => render(&e),
            }
            if let Err(e) = dot::parse(text, name) {
                render(&e);
            }
        }
        Some("json") => match json::read_lts(text, name) {
            Ok(l) => ltss.push(l),
            Err(e) => render(&e),
        },
        _ => accepted |= ioco(name, text, &mut ltss),
    }
    for l in &ltss {
        accepted = true;
        lts_steps(l);
    }
    accepted
}

/// `.ioco`: parse and check, format (the formatted text must read again), translate, and the
/// data-model summary and drawing.
fn ioco(name: &str, text: &str, ltss: &mut Vec<ioco_model::Lts>) -> bool {
    match ioco_lang::fmt::format_named(name, text) {
        Ok(formatted) => {
            if let Err(ds) = ioco_lang::parse_str(name, &formatted) {
                // Formatting a file that parses must give a file that parses.
                if ioco_lang::parse_str(name, text).is_ok() {
                    panic!(
                        "fmt output does not read again: {}",
                        ioco_lang::diag::render_plain(&ds)
                    );
                }
            }
        }
        Err(ds) => {
            let _ = ioco_lang::diag::render_plain(&ds);
        }
    }
    let model = match ioco_lang::parse_str(name, text) {
        Ok(m) => m,
        Err(ds) => {
            for d in &ds {
                render(d);
            }
            return false;
        }
    };
    for w in model.warnings() {
        render(w);
    }
    let opts = ioco_lang::translate::Options {
        max_states: 2_000,
        max_transitions: 50_000,
        max_state_cells: 200_000,
        max_values: 200,
        state_names: true,
    };
    for spec in &model.program.specs {
        let _ = ioco_symbolic::draw::summary(spec);
        let _ = ioco_symbolic::draw::dot(spec);
        match ioco_lang::translate::to_lts(spec, &opts) {
            Ok(l) => ltss.push(l),
            Err(e) => {
                let mut d = e.into_diagnostic();
                d.attach(&model.sources);
                render(&d);
            }
        }
    }
    true
}

/// What `check` and `show` do with a model that reads: the suspension automaton within a
/// small limit, and every writer.
fn lts_steps(l: &ioco_model::Lts) {
    use ioco_formats::{aut, dot, json};
    let _ = aut::write(l);
    let _ = dot::write_lts(l);
    let _ = json::write_lts(l);
    for policy in [
        ioco_model::QuiescencePolicy::Stable,
        ioco_model::QuiescencePolicy::NoOutput,
    ] {
        if let Ok(sa) = ioco_model::SuspensionAutomaton::build_with_limit(l, policy, 2_000) {
            let _ = json::write_suspension(&sa);
        }
    }
}
