//! `ioco learn --sut CMD --inputs a,b,c -o learned.dot`: learn a model of a system under test
//! with L# (`ioco-learn`), equivalence queries answered by complete suites. This file parses
//! the arguments, makes the system under learning, reports progress and writes the model.
//!
//! Exit codes: 0 the model was learned and passed the complete suite; 3 a budget (`--max-queries`,
//! `--time`) ran out first: the hypothesis so far is written, marked unverified; 2 an error (the
//! system failed, or is not deterministic).

use super::sut::{parse_duration_arg, seed_or_clock, SutArgs};
use super::Outcome;
use crate::load::Loader;
use ioco_exec::SutError;
use ioco_formats::{aut, dot, json, Model};
use ioco_learn::moore::Moore;
use ioco_learn::{
    lts, Budget, Event, Learned, Limits, MakeAdapter, Method, Options, Oracle, System,
};
use ioco_model::{Alphabet, LtsBuilder};
use miette::{miette, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The equivalence oracle.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OracleArg {
    /// Per hypothesis, whichever of hads, wp and hsi sends the fewest symbols to the system
    /// (words the learner has already seen are free); all three are complete for the same
    /// extra states.
    Auto,
    /// Hybrid adaptive distinguishing sequences.
    Hads,
    /// The H-method.
    H,
    /// The Wp-method.
    Wp,
    /// The HSI-method.
    Hsi,
    /// The W-method.
    W,
    /// Random words only (--random-words): no guarantee, the model is reported unverified.
    Random,
}

/// Arguments of `ioco learn`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The inputs, separated by commas (a comma inside parentheses is part of the name:
    /// `SYN(V,V,0),ACK(V,V,0)`); repeatable.
    #[arg(long, value_name = "LIST")]
    pub inputs: Vec<String>,
    /// Take the inputs of this model (any model `ioco` reads) instead.
    #[arg(long, value_name = "MODEL", conflicts_with = "inputs")]
    pub inputs_from: Option<PathBuf>,
    /// Outputs known in advance (comma-separated as --inputs; optional: outputs are found
    /// as the system writes them, each new one costing a restart).
    #[arg(long, value_name = "LIST")]
    pub outputs: Vec<String>,
    /// Where to write the model: `.dot` (a Mealy machine in the corpus's dialect when every
    /// input has exactly one output, else an LTS), `.aut`, `.json` or `.ioco` (an LTS,
    /// quiescence implicit in the states without outputs: an ioco specification).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// The equivalence oracle: a complete suite for the hypothesis.
    #[arg(long, value_enum, default_value_t = OracleArg::Auto)]
    pub oracle: OracleArg,
    /// The suite finds every system with up to this many states more than the hypothesis.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub extra_states: usize,
    /// Random words tried before the suite, per equivalence query (default: 100 for
    /// hypotheses of 11 states or more, none for smaller ones, which get the words of
    /// --random-after instead; given, for every hypothesis).
    #[arg(long, value_name = "N")]
    pub random_words: Option<usize>,
    /// After the suite passed, random words until they cost this percentage of the symbols
    /// spent so far (they find what a suite for few extra states cannot, at a cost in
    /// proportion to the learning; 0: none).
    #[arg(long, value_name = "PERCENT", default_value_t = ioco_learn::equivalence::DEFAULT_AFTER_PERCENT)]
    pub random_after: u64,
    /// The seed of the random words (default: from the clock; printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Give up after this many runs of a word on the system (resets); the hypothesis so far is
    /// written, unverified (exit 3).
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub max_queries: u64,
    /// Give up after this long (ms, or with a unit: 10s, 5min); as --max-queries.
    #[arg(long, value_name = "DURATION", default_value = "60min", value_parser = parse_duration_arg)]
    pub time: Duration,
    /// Run each new word this many times; different outputs are reported as nondeterminism.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub repetitions: usize,
    /// The system is a Moore machine (outputs on states): its start-up output is the initial
    /// state's, each input's reaction the output of the state it reaches. `-o M.dot` writes a
    /// Moore machine in AALpy's dialect (`s0 [label="s0|output"]`, edges labelled by inputs).
    #[arg(long)]
    pub moore: bool,
    /// Keep every answer of the system in FILE (JSON lines, appended as the runs end) and start
    /// from the answers it holds: an interrupted learning resumes without running a word again.
    #[arg(long, value_name = "FILE")]
    pub cache: Option<PathBuf>,
    /// Write the learning log (hypotheses, counterexamples, costs) as JSON lines to FILE.
    #[arg(long, value_name = "FILE")]
    pub json_log: Option<PathBuf>,
    /// How to reach the system (as for `ioco test`; `--sim M.dot` learns a Mealy machine in
    /// process).
    #[command(flatten)]
    pub sut: SutArgs,
}

/// Split a list at commas outside parentheses and brackets.
fn split_list(lists: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for list in lists {
        let (mut depth, mut cur) = (0i32, String::new());
        for c in list.chars() {
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                _ => {}
            }
            if c == ',' && depth <= 0 {
                out.push(std::mem::take(&mut cur));
            } else {
                cur.push(c);
            }
        }
        out.push(cur);
    }
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn inputs_of(path: &Path) -> Result<Vec<String>> {
    match ioco_formats::load(path)? {
        Model::Mealy(m) => Ok(m.inputs),
        Model::Lts(l) => {
            let a = l.alphabet();
            Ok(a.inputs().map(|i| a.name(i).to_string()).collect())
        }
    }
}

/// The system: a Mealy machine in process (`--sim`), or an adapter made anew for each new
/// output.
fn system(
    args: &Args,
    inputs: &[String],
    outputs: &[String],
    ld: &Loader,
) -> Result<System<'static>> {
    if let Some(path) = &args.sut.sim {
        return match ioco_formats::load(path)? {
            Model::Mealy(m) => {
                if let Some(i) = inputs.iter().find(|i| m.input_index(i).is_none()) {
                    return Err(miette!("`{i}` is not an input of {}", path.display()));
                }
                System::mealy(m, inputs).map_err(|e| miette!("{e}"))
            }
            Model::Lts(_) => Err(miette!(
                help = "simulate a Mealy machine (DOT, `in/out` labels), or learn a program with --sut",
                "ioco learn --sim needs a Mealy machine; {} is an LTS",
                path.display()
            )),
        };
    }
    if args.sut.listen.is_some() {
        return Err(miette!(
            help = "use --sut CMD or --tcp HOST:PORT",
            "ioco learn does not serve --listen: it reconnects when it meets a new output"
        ));
    }
    if !args.sut.timeout_gate.is_empty() || !args.sut.timeout_location.is_empty() {
        return Err(miette!(
            "--timeout-gate and --timeout-location need a model; ioco learn has none: use --timeout"
        ));
    }
    // check the command line and the mapping now, for a clear error
    let sut = args.sut.clone();
    let probe = one_state(&Alphabet::new())?;
    let _checked = sut.factory(&probe, ld)?;
    let ld = ld.clone();
    let make: MakeAdapter = Box::new(move |alphabet: &Alphabet| {
        let lts = one_state(alphabet).map_err(|e| SutError::Start(e.to_string()))?;
        let factory = sut
            .factory(&lts, &ld)
            .map_err(|e| SutError::Start(e.to_string()))?;
        Ok(factory(0)? as Box<dyn ioco_sut::Sut>)
    });
    let limits = Limits {
        timeout: Duration::from_millis(args.sut.timeout_ms()),
        mealy: args.sut.mealy,
        reset_drains: args.sut.reset_line.is_some(),
        ..Limits::default()
    };
    Ok(System::new(inputs, outputs, make, limits))
}

fn one_state(alphabet: &Alphabet) -> Result<ioco_model::Lts> {
    let mut b = LtsBuilder::new(alphabet.clone());
    b.add_states(1);
    b.add_initial(0);
    b.build().map_err(|e| miette!("{e}"))
}

/// Write the learned model in the format of `path`'s extension.
fn write_model(
    path: &Path,
    learned: &Learned,
    startup: &[String],
    note: &str,
    moore: Option<&Moore>,
) -> Result<&'static str> {
    let m = &learned.machine;
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if let Some(moore) = moore {
        if let Some(why) = moore.dot_problem() {
            return Err(miette!(
                help =
                    "leave out --moore and write .aut, .json or .ioco: an LTS holds any reaction",
                "cannot write the Moore machine: {why}"
            ));
        }
        let text = format!("// {note}\n{}", moore.to_dot());
        std::fs::write(path, text).map_err(|e| miette!("cannot write {}: {e}", path.display()))?;
        return Ok("Moore machine");
    }
    let as_lts = || lts::to_lts(m, startup).map_err(|e| miette!("cannot build the LTS: {e}"));
    let (text, kind) = match ext.as_deref() {
        Some("dot") | Some("gv") if lts::is_plain(m, startup) => (
            format!("// {note}\n{}", dot::write_mealy(m)),
            "Mealy machine",
        ),
        Some("dot") | Some("gv") => (format!("// {note}\n{}", dot::write_lts(&as_lts()?)), "LTS"),
        Some("aut") => (aut::write(&as_lts()?)?, "LTS"),
        Some("json") => (json::write_lts(&as_lts()?), "LTS"),
        Some("ioco") => (
            lts::to_ioco(&as_lts()?, "Learned", note).map_err(|e| miette!("{e}"))?,
            "`.ioco` model `Learned`",
        ),
        _ => {
            return Err(miette!(
                help = "write .dot, .aut, .json or .ioco",
                "cannot tell the format of {} from its extension",
                path.display()
            ))
        }
    };
    std::fs::write(path, text).map_err(|e| miette!("cannot write {}: {e}", path.display()))?;
    Ok(kind)
}

/// Run `ioco learn`.
pub fn run(args: Args, ld: &Loader) -> Result<Outcome> {
    let inputs = match &args.inputs_from {
        Some(p) => inputs_of(p)?,
        None => split_list(&args.inputs),
    };
    if inputs.is_empty() {
        return Err(miette!(
            help = "e.g. --inputs coin,button, or --inputs-from model.dot",
            "no inputs to learn with"
        ));
    }
    let outputs = split_list(&args.outputs);
    if args.moore {
        if args.sut.sim.is_some() {
            return Err(miette!(
                help = "learn a program that prints its state's output at start-up with --sut",
                "--moore needs the system's start-up output; --sim plays a Mealy machine, which has none"
            ));
        }
        let ext = args.output.extension().and_then(|e| e.to_str());
        if !matches!(
            ext.map(str::to_ascii_lowercase).as_deref(),
            Some("dot" | "gv")
        ) {
            return Err(miette!(
                help =
                    "write -o MODEL.dot, or leave out --moore for an LTS in .aut, .json or .ioco",
                "--moore writes a Moore machine in DOT; {} is not a .dot file",
                args.output.display()
            ));
        }
    }
    let seed = seed_or_clock(args.seed);
    let method = match args.oracle {
        OracleArg::Hads | OracleArg::Auto => Some(Method::Hads),
        OracleArg::H => Some(Method::H),
        OracleArg::Wp => Some(Method::Wp),
        OracleArg::Hsi => Some(Method::Hsi),
        OracleArg::W => Some(Method::W),
        OracleArg::Random => None,
    };
    let random_words = args.random_words.unwrap_or(100);
    let random_before_min_states = match args.random_words {
        Some(_) => 0,
        None if method.is_none() => 0,
        None => ioco_learn::equivalence::DEFAULT_BEFORE_MIN_STATES,
    };
    let opts = Options {
        oracle: Oracle {
            method,
            extra_states: args.extra_states,
            random_words,
            random_after_percent: args.random_after,
            random_before_min_states,
            seed,
            cheapest: args.oracle == OracleArg::Auto,
        },
        budget: Budget {
            max_resets: Some(args.max_queries),
            max_time: Some(args.time),
        },
        repetitions: args.repetitions,
        cache_file: args.cache.clone(),
    };
    let oracle_text = match method {
        Some(_) if args.oracle == OracleArg::Auto => format!(
            "auto (the cheapest of hads, wp, hsi per hypothesis), k={}",
            args.extra_states
        ),
        Some(m) => format!("{m}, k={}", args.extra_states),
        None => "random words only".to_string(),
    };
    errln!(
        "ioco: learning {} input(s) with L#, oracle: {oracle_text}, {random_words} random words \
         before it (hypotheses of {random_before_min_states}+ states), else random words for {}% \
         of the symbols after it, seed {seed}",
        inputs.len(),
        args.random_after
    );
    let mut log = match &args.json_log {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| miette!("cannot write {}: {e}", p.display()))?,
        )),
        None => None,
    };
    let mut log_line = |v: serde_json::Value| {
        if let Some(w) = log.as_mut() {
            // a line at a time: an interrupted session keeps its log
            let _ = writeln!(w, "{v}").and_then(|_| w.flush());
        }
    };
    log_line(
        serde_json::json!({"event": "start", "inputs": inputs, "oracle": oracle_text,
        "random_words": random_words, "random_after_percent": args.random_after, "seed": seed}),
    );
    let sul = system(&args, &inputs, &outputs, ld)?;
    let result = ioco_learn::learn_with(sul, &opts, &mut |e| {
        match &e {
            Event::Hypothesis {
                round,
                states,
                stats,
            } => errln!(
                "ioco: hypothesis {round}: {states} states ({} resets, {} symbols, {} ms)",
                stats.resets,
                stats.symbols,
                stats.millis
            ),
            Event::Testing {
                round,
                words,
                stats,
            } => errln!(
                "ioco:   testing hypothesis {round}: {words} words ({} resets, {} symbols, {} ms)",
                stats.resets,
                stats.symbols,
                stats.millis
            ),
            Event::Counterexample { .. } => {}
        }
        if !matches!(e, Event::Testing { .. }) {
            log_line(serde_json::to_value(&e).unwrap_or_default());
        }
    });
    let (learned, sul) = match result {
        Ok(x) => x,
        Err(e) => {
            log_line(serde_json::json!({"event": "error", "message": e.to_string()}));
            return Err(miette!("learning failed: {e}"));
        }
    };
    let startup = sul.startup();
    drop(sul); // stops the system
    let s = &learned.stats;
    let note = match &learned.unverified_because {
        None => format!(
            "learned by ioco learn (L#), verified by the complete suite ({oracle_text}), seed {seed}"
        ),
        Some(why) => format!("UNVERIFIED model of ioco learn (L#): {why}; seed {seed}"),
    };
    let moore = match args.moore {
        false => None,
        true if startup.len() != 1 => {
            return Err(miette!(
                help = "a Moore system prints its initial state's output at start-up (and after \
                        a reset); leave out --moore to learn it as a Mealy machine",
                "--moore: the system wrote {} at start-up, not one output",
                if startup.is_empty() {
                    "nothing".to_string()
                } else {
                    format!("`{}`", startup.join(" · "))
                }
            ))
        }
        true => Some(Moore::from_mealy(&learned.machine, &startup[0])),
    };
    let kind = write_model(&args.output, &learned, &startup, &note, moore.as_ref())?;
    log_line(
        serde_json::json!({"event": "done", "verified": learned.verified,
        "unverified_because": learned.unverified_because, "states": learned.machine.num_states(),
        "stats": s, "output": args.output.display().to_string()}),
    );
    if let Some(mut w) = log {
        w.flush()
            .map_err(|e| miette!("cannot write the JSON log: {e}"))?;
    }
    let states = match &moore {
        Some(m) => format!(
            "{} states (Moore; {} as a Mealy machine)",
            m.num_states(),
            learned.machine.num_states()
        ),
        None => format!("{} states", learned.machine.num_states()),
    };
    outln!(
        "{}: {states}, {} inputs, {} outputs; {} queries ({} from the cache), {} resets, {} symbols ({} in oracle tests), {} hypotheses, {} ms, seed {seed}",
        if learned.verified { "LEARNED" } else { "UNVERIFIED" },
        inputs.len(),
        learned.machine.outputs.len(),
        s.queries,
        s.cache_hits,
        s.resets,
        s.symbols,
        s.test_symbols,
        s.hypotheses,
        s.millis
    );
    outln!("wrote {} ({kind})", args.output.display());
    match &learned.unverified_because {
        None => Ok(Outcome::Ok),
        Some(_) if ioco_learn::stop::stopped() => {
            errln!(
                "ioco: interrupted: the model is the hypothesis so far and is NOT verified (exit 130)"
            );
            Ok(Outcome::Interrupted)
        }
        Some(why) if method.is_none() => {
            errln!(
                "ioco: the model is NOT verified: {why} (exit 3; --oracle hads, h or wp runs a \
                 complete suite)"
            );
            Ok(Outcome::Inconclusive)
        }
        Some(why) => {
            errln!(
                "ioco: the model is the hypothesis so far and is NOT verified: {why} (exit 3; \
                 raise --max-queries or --time)"
            );
            Ok(Outcome::Inconclusive)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_split_at_commas_outside_parentheses() {
        assert_eq!(
            split_list(&["SYN(V,V,0), ACK(V,V,0),a".into(), "b".into()]),
            vec!["SYN(V,V,0)", "ACK(V,V,0)", "a", "b"]
        );
        assert!(split_list(&[",".into()]).is_empty());
    }
}
