//! `ioco`: model-based testing with the ioco conformance relation.
//!
//! This file is only the command enum and the dispatch; each command lives in `cmd/<name>.rs`
//! with its own `Args` and `run`. Exit codes: 0 = ok / conforms / pass, 1 = does not conform /
//! fail, 2 = error (bad input, bad usage), 130 = interrupted (SIGINT, SIGTERM, SIGHUP; the
//! systems under test are killed first).

/// `println!` that does not panic when standard output is a closed pipe (`ioco check … | head`):
/// the text is dropped and the exit code still tells the verdict (0, 1 or 2).
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

/// `eprintln!` that does not panic when standard error is a closed pipe (see [`outln!`]).
macro_rules! errln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

/// `eprint!` that does not panic when standard error is a closed pipe (see [`outln!`]).
macro_rules! err {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($t)*);
    }};
}

mod cmd;
mod load;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// The exit codes, listed under `ioco --help` (and in the manual page).
const EXIT_CODES: &str = "\
Exit codes:
  0    pass / conforms / done
  1    fail / does not conform (a counterexample was found)
  2    error: bad input or usage, a system under test that could not be started, nothing tested
  3    inconclusive: nothing failed, but the session did not establish what it set out to
       (--inconclusive pass|fail maps it to 0 or 1)
  130  interrupted (Ctrl-C, SIGTERM, SIGHUP); the systems under test are stopped first";

#[derive(Parser)]
#[command(
    name = "ioco",
    version = env!("IOCO_VERSION"),
    after_help = EXIT_CODES,
    about = "Model-based testing with the ioco conformance relation"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Treat the warnings of a .ioco model (e.g. a misspelt location) as errors (exit 2).
    #[arg(long, global = true)]
    deny_warnings: bool,
    /// The model or system of the file to use, by name (a `.ioco` model, system or a TorXakis
    /// MODELDEF); default: the one marked `@main`, else the last one (for `.txs`: the first
    /// MODELDEF).
    #[arg(long, global = true, value_name = "NAME")]
    entry: Option<String>,
    /// More TorXakis `.txs` files read together with a `.txs` model, as TorXakis reads all the
    /// files it is given (e.g. `ioco check Adder.txs --with AdderPurposes.txs`).
    #[arg(long = "with", global = true, value_name = "FILE")]
    with: Vec<std::path::PathBuf>,
    /// The test purpose to use from the `--purpose` file, by name: a TorXakis GOAL (`goal` or
    /// `Purp_goal`) or a model of a `.ioco` purpose file; default: the file's only goal, else
    /// its entry. `--entry` picks the specification, `--goal` the purpose.
    #[arg(long, global = true, value_name = "NAME")]
    goal: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and validate a model; print a summary (states, labels, quiescence, determinism,
    /// input-enabledness, divergence, unreachable states).
    Check(cmd::check::Args),
    /// Print a model, or its suspension automaton, as DOT, .aut or JSON.
    Show(cmd::show::Args),
    /// Decide `IMPL ioco SPEC` for two finite models; print the shortest counterexample.
    Compare(cmd::compare::Args),
    /// Online ioco testing of a real system (a program, a TCP peer, or a simulated model).
    Test(cmd::test::Args),
    /// Execute a stored test suite (JSON) against a system.
    Run(cmd::run::Args),
    /// Generate a test suite (JSON) from a model: random, batch, n-complete, adg, w, wp, hsi,
    /// h, hads, reach, joker, purpose, switch-coverage.
    Gen(cmd::gen::Args),
    /// Compatible and equivalent states and adaptive-distinguishing-graph metrics of a model's
    /// suspension automaton (thesis Table 3.2).
    Analyze(cmd::analyze::Args),
    /// Replay a recorded run (JSON of `ioco test --json`) against a system; optionally shrink it.
    Replay(cmd::replay::Args),
    /// Learn a model of a system under test (L#; equivalence queries answered by complete
    /// suites): a Mealy machine, or with quiescence an LTS usable as an ioco specification.
    Learn(cmd::learn::Args),
    /// Step through a model by hand: where it may be, the inputs it offers and the outputs it
    /// allows; step, go back, save the trace as a test case (reads commands from a pipe too).
    Explore(cmd::explore::Args),
    /// Turn saved results (JSON of `test`, `run`, `replay`) into an HTML, JUnit or Markdown
    /// report; the HTML draws the model with the runs' coverage.
    Report(cmd::report::Args),
    /// Print .ioco model files in the canonical layout (`--check`: exit 1 if one is not
    /// formatted; `--write`: rewrite them).
    Fmt(cmd::fmt::Args),
    /// Translate a TorXakis model (.txs) into the .ioco language, to migrate for good.
    Translate(cmd::translate::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell), e.g.
    /// `ioco completions bash > /etc/bash_completion.d/ioco`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), e.g. `ioco man | man -l -`.
    Man,
    /// Print the JSON Schema of a file format ioco writes (`result`, `suite`, `sts-suite`);
    /// the same schemas are in docs/schemas/.
    Schema(cmd::schema::Args),
}

/// Exit code when ioco is interrupted (SIGINT, SIGTERM or SIGHUP): 128 + SIGINT, as shells do.
const INTERRUPTED: i32 = 130;

/// Set by the signal handler before it stops the SUTs and exits with [`INTERRUPTED`].
static INTERRUPTING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Commands that start no system under test keep the default Ctrl-C (the process ends at
    // once; no handler thread to start).
    let starts_systems = !matches!(
        cli.command,
        Command::Check(_)
            | Command::Show(_)
            | Command::Compare(_)
            | Command::Gen(_)
            | Command::Analyze(_)
            | Command::Fmt(_)
            | Command::Translate(_)
            | Command::Schema(_)
            | Command::Completions { .. }
            | Command::Man
    );
    // Ctrl-C reaches the terminal's foreground process group, not the SUTs (each runs in a
    // group of its own so that it can be killed with its children): take them down before
    // exiting, so that an interrupted session leaves no process behind.
    if starts_systems {
        let _ = ctrlc::set_handler(|| {
            // The first Ctrl-C while learning stops the learning: the hypothesis so far is
            // written, marked unverified (exit 3).
            if !INTERRUPTING.load(std::sync::atomic::Ordering::SeqCst)
                && ioco_learn::stop::active()
                && !ioco_learn::stop::stopped()
            {
                // Say so before stopping: once stopped, the main thread may write the model,
                // print its verdict and exit while this thread still waits for the systems.
                errln!(
                    "ioco: interrupted while learning: writing the hypothesis so far (Ctrl-C \
                     again quits at once)"
                );
                ioco_learn::stop::stop();
                ioco_exec::adapter::process::stop_all();
                return;
            }
            // The first Ctrl-C while a failing run is being shrunk stops the shrinking only: the
            // Fail stands and the session ends with its reports (exit 1). The systems under test
            // are stopped so that the replay in progress ends at once.
            if !INTERRUPTING.load(std::sync::atomic::Ordering::SeqCst)
                && ioco_exec::shrinking::active()
                && !ioco_exec::shrinking::interrupted()
            {
                errln!(
                    "ioco: interrupted while shrinking: the Fail found stands; ending the session \
                     (Ctrl-C again quits at once)"
                );
                ioco_exec::shrinking::interrupt();
                ioco_exec::adapter::process::stop_all();
                return;
            }
            INTERRUPTING.store(true, std::sync::atomic::Ordering::SeqCst);
            let n = ioco_exec::adapter::process::stop_all();
            errln!("ioco: interrupted; stopped {n} system(s) under test");
            if let Some(runs) = cmd::write_partial_reports() {
                errln!("ioco: wrote the reports of the {runs} run(s) finished, marked interrupted");
            }
            std::process::exit(INTERRUPTED);
        });
    }
    match &cli.command {
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(*shell, &mut cmd, "ioco", &mut std::io::stdout());
            return ExitCode::SUCCESS;
        }
        Command::Man => {
            let cmd = <Cli as clap::CommandFactory>::command();
            let mut out = Vec::new();
            if let Err(e) = clap_mangen::Man::new(cmd).render(&mut out) {
                errln!("ioco: cannot render the manual page: {e}");
                return ExitCode::from(2);
            }
            let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), &out);
            return ExitCode::SUCCESS;
        }
        _ => {}
    }
    let name = match &cli.command {
        Command::Check(_) => "check",
        Command::Show(_) => "show",
        Command::Compare(_) => "compare",
        Command::Test(_) => "test",
        Command::Run(_) => "run",
        Command::Replay(_) => "replay",
        Command::Report(_) => "report",
        Command::Explore(_) => "explore",
        Command::Fmt(_) => "fmt",
        Command::Translate(_) => "translate",
        Command::Completions { .. } | Command::Man => return ExitCode::SUCCESS,
        Command::Gen(_) => "gen",
        Command::Analyze(_) => "analyze",
        Command::Learn(_) => "learn",
        Command::Schema(_) => "schema",
    };
    load::configure(name, cli.deny_warnings);
    load::set_with_files(cli.with.clone());
    load::set_entry(cli.entry.clone());
    load::set_goal(cli.goal.clone());
    let result = match cli.command {
        Command::Check(a) => cmd::check::run(a),
        Command::Show(a) => cmd::show::run(a),
        Command::Compare(a) => cmd::compare::run(a),
        Command::Test(a) => cmd::test::run(a),
        Command::Run(a) => cmd::run::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Report(a) => cmd::report::run(a),
        Command::Explore(a) => cmd::explore::run(a),
        Command::Fmt(a) => cmd::fmt::run(a),
        Command::Translate(a) => cmd::translate::run(a),
        Command::Completions { .. } | Command::Man => return ExitCode::SUCCESS,
        Command::Gen(a) => cmd::gen::run(a),
        Command::Analyze(a) => cmd::analyze::run(a),
        Command::Learn(a) => cmd::learn::run(a),
        Command::Schema(a) => cmd::schema::run(a),
    };
    // A run that ended because the handler killed its SUT must not report that as its
    // verdict: the handler is about to exit with 130.
    while INTERRUPTING.load(std::sync::atomic::Ordering::SeqCst) {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // Descendants of SUTs that left their process group and escaped a sweep while in the
    // middle of an exec (see `ioco_exec::adapter::process`).
    ioco_exec::adapter::process::sweep_all();
    match result {
        Ok(outcome) => outcome.exit_code(),
        Err(report) => {
            errln!("{report:?}");
            ExitCode::from(2)
        }
    }
}
