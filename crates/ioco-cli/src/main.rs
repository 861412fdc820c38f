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

use crate::load::Loader;
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
    /// Before the command (`ioco --entry X check M`), as older versions took them: hidden,
    /// the options are the commands' own (`ioco check M --entry X`).
    #[command(flatten)]
    model: HiddenModelOpts,
}

/// The options of the commands that load a model (not of `completions`, `man`, `schema`).
#[derive(clap::Args, Clone, Default)]
struct ModelOpts {
    /// Treat the warnings of a .ioco model (e.g. a misspelt location) as errors (exit 2).
    #[arg(long)]
    deny_warnings: bool,
    /// The model or system of the file to use, by name (a `.ioco` model, system or a TorXakis
    /// MODELDEF); default: the one marked `@main`, else the last one (for `.txs`: the first
    /// MODELDEF).
    #[arg(long, value_name = "NAME")]
    entry: Option<String>,
    /// More TorXakis `.txs` files read together with a `.txs` model, as TorXakis reads all the
    /// files it is given (e.g. `ioco check Adder.txs --with AdderPurposes.txs`).
    #[arg(long = "with", value_name = "FILE")]
    with: Vec<std::path::PathBuf>,
}

/// `--goal` of the commands that take a test purpose (`gen` has a `--goal` of its own, the
/// goal of a test game).
#[derive(clap::Args, Clone, Default)]
struct GoalOpt {
    /// The test purpose to use from the `--purpose` file, by name: a TorXakis GOAL (`goal` or
    /// `Purp_goal`) or a model of a `.ioco` purpose file; default: the file's only goal, else
    /// its entry. `--entry` picks the specification, `--goal` the purpose.
    #[arg(long, value_name = "NAME")]
    goal: Option<String>,
}

/// [`ModelOpts`] and [`GoalOpt`] before the command, hidden (see [`Cli::model`]).
#[derive(clap::Args, Clone, Default)]
struct HiddenModelOpts {
    #[arg(long = "deny-warnings", id = "top_deny_warnings", hide = true)]
    deny_warnings: bool,
    #[arg(long = "entry", id = "top_entry", hide = true, value_name = "NAME")]
    entry: Option<String>,
    #[arg(long = "with", id = "top_with", hide = true, value_name = "FILE")]
    with: Vec<std::path::PathBuf>,
    #[arg(long = "goal", id = "top_goal", hide = true, value_name = "NAME")]
    goal: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and validate a model; print a summary (states, labels, quiescence, determinism,
    /// input-enabledness, divergence, unreachable states).
    Check {
        #[command(flatten)]
        args: cmd::check::Args,
        #[command(flatten)]
        model: ModelOpts,
    },
    /// Print a model, or its suspension automaton, as DOT, .aut or JSON.
    Show {
        #[command(flatten)]
        args: cmd::show::Args,
        #[command(flatten)]
        model: ModelOpts,
    },
    /// Decide `IMPL ioco SPEC` for two finite models; print the shortest counterexample.
    Compare {
        #[command(flatten)]
        args: cmd::compare::Args,
        #[command(flatten)]
        model: ModelOpts,
    },
    /// Online ioco testing of a real system (a program, a TCP peer, or a simulated model).
    Test {
        #[command(flatten)]
        args: cmd::test::Args,
        #[command(flatten)]
        model: ModelOpts,
        #[command(flatten)]
        goal: GoalOpt,
    },
    /// Execute a stored test suite (JSON) against a system.
    Run {
        #[command(flatten)]
        args: cmd::run::Args,
        #[command(flatten)]
        model: ModelOpts,
    },
    /// Generate a test suite (JSON) from a model: random, batch, n-complete, adg, w, wp, hsi,
    /// h, hads, reach, joker, purpose, switch-coverage.
    Gen {
        #[command(flatten)]
        args: cmd::gen::Args,
        #[command(flatten)]
        model: ModelOpts,
    },
    /// Compatible and equivalent states and adaptive-distinguishing-graph metrics of a model's
    /// suspension automaton (thesis Table 3.2).
    Analyze {
        #[command(flatten)]
        args: cmd::analyze::Args,
        #[command(flatten)]
        model: ModelOpts,
    },
    /// Replay a recorded run (JSON of `ioco test --json`) against a system; optionally shrink it.
    Replay {
        #[command(flatten)]
        args: cmd::replay::Args,
        #[command(flatten)]
        model: ModelOpts,
    },
    /// Learn a model of a system under test (L#; equivalence queries answered by complete
    /// suites): a Mealy machine, or with quiescence an LTS usable as an ioco specification.
    Learn(cmd::learn::Args),
    /// Step through a model by hand: where it may be, the inputs it offers and the outputs it
    /// allows; step, go back, save the trace as a test case (reads commands from a pipe too).
    Explore {
        #[command(flatten)]
        args: cmd::explore::Args,
        #[command(flatten)]
        model: ModelOpts,
    },
    /// Turn saved results (JSON of `test`, `run`, `replay`) into an HTML, JUnit or Markdown
    /// report; the HTML draws the model with the runs' coverage.
    Report {
        #[command(flatten)]
        args: cmd::report::Args,
        #[command(flatten)]
        model: ModelOpts,
    },
    /// Print .ioco model files in the canonical layout (`--check`: exit 1 if one is not
    /// formatted; `--write`: rewrite them).
    Fmt(cmd::fmt::Args),
    /// Translate a TorXakis model (.txs) into the .ioco language, to migrate for good.
    Translate {
        #[command(flatten)]
        args: cmd::translate::Args,
        #[command(flatten)]
        model: ModelOpts,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell), e.g.
    /// `ioco completions bash > /etc/bash_completion.d/ioco`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), e.g. `ioco man | man -l -`, or a command's page (`ioco man
    /// test`).
    Man {
        /// The command whose page to print (default: the page of `ioco`).
        command: Option<String>,
    },
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
        Command::Check { .. }
            | Command::Show { .. }
            | Command::Compare { .. }
            | Command::Gen { .. }
            | Command::Analyze { .. }
            | Command::Fmt(_)
            | Command::Translate { .. }
            | Command::Schema(_)
            | Command::Completions { .. }
            | Command::Man { .. }
    );
    match &cli.command {
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            let mut out = Vec::new();
            clap_complete::generate(*shell, &mut cmd, "ioco", &mut out);
            return print_stdout(&out);
        }
        Command::Man { command } => return man(command.as_deref()),
        _ => {}
    }
    let none = ModelOpts::default();
    let no_goal = GoalOpt::default();
    let (name, model, goal) = match &cli.command {
        Command::Check { model, .. } => ("check", model, &no_goal),
        Command::Show { model, .. } => ("show", model, &no_goal),
        Command::Compare { model, .. } => ("compare", model, &no_goal),
        Command::Test { model, goal, .. } => ("test", model, goal),
        Command::Run { model, .. } => ("run", model, &no_goal),
        Command::Replay { model, .. } => ("replay", model, &no_goal),
        Command::Report { model, .. } => ("report", model, &no_goal),
        Command::Explore { model, .. } => ("explore", model, &no_goal),
        Command::Fmt(_) => ("fmt", &none, &no_goal),
        Command::Translate { model, .. } => ("translate", model, &no_goal),
        Command::Completions { .. } | Command::Man { .. } => return ExitCode::SUCCESS,
        Command::Gen { model, .. } => ("gen", model, &no_goal),
        Command::Analyze { model, .. } => ("analyze", model, &no_goal),
        Command::Learn(_) => ("learn", &none, &no_goal),
        Command::Schema(_) => ("schema", &none, &no_goal),
    };
    // the options before the command (hidden) and after it (the command's own)
    let top = &cli.model;
    let mut with = top.with.clone();
    with.extend(model.with.iter().cloned());
    let mut loader = load::Loader::new(name, top.deny_warnings || model.deny_warnings, with)
        .with_entry(model.entry.clone().or_else(|| top.entry.clone()))
        .with_goal(goal.goal.clone().or_else(|| top.goal.clone()))
        .with_cnect(match &cli.command {
            Command::Test { args, .. } => args.sut.cnect.clone(),
            Command::Run { args, .. } => args.sut.cnect.clone(),
            Command::Replay { args, .. } => args.sut.cnect.clone(),
            Command::Learn(a) => a.sut.cnect.clone(),
            _ => None,
        });
    // TorXakis reads a purpose file into the model's namespace (`torxakis M.txs P.txs`): the
    // specification tested with a `.txs` purpose is read with it (the same declarations), and
    // no other model is (a `--sim` copy of the specification would define everything twice)
    if let Command::Test { args, .. } = &cli.command {
        if let Some(p) = &args.purpose {
            loader = loader.with_txs_purpose(&args.model, p);
        }
    }
    let loader = std::sync::Arc::new(loader);
    // Ctrl-C reaches the terminal's foreground process group, not the SUTs (each runs in a
    // group of its own so that it can be killed with its children): take them down before
    // exiting, so that an interrupted session leaves no process behind.
    if starts_systems {
        let on_interrupt = std::sync::Arc::clone(&loader);
        let _ = ctrlc::set_handler(move || {
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
                ioco_sut::process::stop_all();
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
                ioco_sut::process::stop_all();
                return;
            }
            INTERRUPTING.store(true, std::sync::atomic::Ordering::SeqCst);
            let n = ioco_sut::process::stop_all();
            errln!("ioco: interrupted; stopped {n} system(s) under test");
            if let Some(runs) = cmd::write_partial_reports(&on_interrupt) {
                errln!("ioco: wrote the reports of the {runs} run(s) finished, marked interrupted");
            }
            std::process::exit(INTERRUPTED);
        });
    }
    let ld: &Loader = &loader;
    let result = match cli.command {
        Command::Check { args, .. } => cmd::check::run(args, ld),
        Command::Show { args, .. } => cmd::show::run(args, ld),
        Command::Compare { args, .. } => cmd::compare::run(args, ld),
        Command::Test { args, .. } => cmd::test::run(args, ld),
        Command::Run { args, .. } => cmd::run::run(args, ld),
        Command::Replay { args, .. } => cmd::replay::run(args, ld),
        Command::Report { args, .. } => cmd::report::run(args, ld),
        Command::Explore { args, .. } => cmd::explore::run(args, ld),
        Command::Fmt(a) => cmd::fmt::run(a),
        Command::Translate { args, .. } => cmd::translate::run(args, ld),
        Command::Completions { .. } | Command::Man { .. } => return ExitCode::SUCCESS,
        Command::Gen { args, .. } => cmd::gen::run(args, ld),
        Command::Analyze { args, .. } => cmd::analyze::run(args, ld),
        Command::Learn(a) => cmd::learn::run(a, ld),
        Command::Schema(a) => cmd::schema::run(a),
    };
    // A run that ended because the handler killed its SUT must not report that as its
    // verdict: the handler is about to exit with 130.
    while INTERRUPTING.load(std::sync::atomic::Ordering::SeqCst) {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // Descendants of SUTs that left their process group and escaped a sweep while in the
    // middle of an exec (see `ioco_sut::process`).
    ioco_sut::process::sweep_all();
    match result {
        Ok(outcome) => outcome.exit_code(),
        Err(report) => {
            errln!("{report:?}");
            ExitCode::from(2)
        }
    }
}

/// Write `bytes` to standard output; a reader that went away (`ioco man | head -1`) is no
/// error: exit 0, as after `outln!`.
fn print_stdout(bytes: &[u8]) -> ExitCode {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            errln!("ioco: cannot write to standard output: {e}");
            ExitCode::from(2)
        }
    }
}

/// `ioco man [COMMAND]`: the page of `ioco` (its SUBCOMMANDS section names the pages
/// `ioco-check(1)` … that `ioco man check` … print), or the page of one command.
fn man(command: Option<&str>) -> ExitCode {
    let top = <Cli as clap::CommandFactory>::command()
        .disable_help_subcommand(true)
        .after_help(format!(
            "The page of a command, e.g. ioco-test(1): ioco man test | man -l -\n\n{EXIT_CODES}"
        ));
    let page = match command {
        None => top,
        Some(name) => {
            let mut top = top;
            top.build();
            let found = top
                .get_subcommands()
                .find(|c| c.get_name() == name || c.get_all_aliases().any(|a| a == name))
                .cloned();
            match found {
                Some(sub) => {
                    let full = format!("ioco-{}", sub.get_name());
                    // the page's name (`Str` takes a `&'static str`; once per process)
                    let full: &'static str = Box::leak(full.into_boxed_str());
                    sub.name(full)
                        .display_name(full)
                        .bin_name(format!("ioco {name}"))
                        .version(env!("IOCO_VERSION"))
                }
                None => {
                    let names: Vec<&str> = top.get_subcommands().map(|c| c.get_name()).collect();
                    errln!(
                        "ioco man: no command `{name}`; the commands are: {}",
                        names.join(", ")
                    );
                    return ExitCode::from(2);
                }
            }
        }
    };
    let mut out = Vec::new();
    if let Err(e) = clap_mangen::Man::new(page).render(&mut out) {
        errln!("ioco: cannot render the manual page: {e}");
        return ExitCode::from(2);
    }
    print_stdout(&out)
}
