//! `ioco explore MODEL`: step through a model by hand (explicit and data models), as
//! TorXakis's stepper. The stepping is `ioco_exec::explore` (through the engine's
//! specification); this file reads commands and prints.
//!
//! On a terminal, lines are edited with history (rustyline); from a pipe or a file, commands
//! are read line by line and echoed after the prompt, so a script gives a readable
//! transcript. A command that fails in a script is reported as `<stdin>:LINE: …` on standard
//! error, the script goes on, and `ioco explore` exits 2 at the end; on a terminal it is
//! only said.

use super::{EngineArg, Outcome, PolicyArg};
use crate::load::Loader;
use ioco_exec::explore::{ExplicitStepper, Stepper, SymbolicStepper};
use ioco_exec::{RunResult, Summary};
use ioco_gen::{NamedTest, Suite, TestCase};
use miette::{miette, Result};
use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};

/// Arguments of `ioco explore`.
#[derive(clap::Args)]
pub struct Args {
    /// The model (.ioco, .txs, .aut, .dot, .json).
    pub model: PathBuf,
    /// The engine, as for `ioco test`: `explicit` (needs finite data) or `symbolic`.
    /// Default: symbolic for .ioco models with infinite data, else explicit.
    #[arg(long, value_enum, value_name = "ENGINE")]
    pub engine: Option<EngineArg>,
    /// Seed of the values the solver proposes first (data models).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// When a state is quiescent.
    #[arg(long, value_enum, default_value_t = PolicyArg::Stable)]
    pub policy: PolicyArg,
}

const HELP: &str = "\
commands:
  a?  x!  δ          step by an input, an output or quiescence (data: water?(100); without
                     values the solver chooses them)
  N                  step by entry N of the menu
  back [K]           undo the last (K) step(s)
  goto N             go to after step N of the trace (0: the start)
  reset              back to the start, with an empty trace
  trace              the steps so far
  states             where the model may be, and the menu
  save FILE          save the trace as a test case (ioco-suite/1, run it with `ioco run`;
                     data models: as a replayable trace)
  save-trace FILE    save the trace as a result file (`ioco replay MODEL FILE --sut …`)
  save-purpose FILE  save the trace as a test purpose (.ioco: its steps in order, then
                     accept; `ioco test MODEL --purpose FILE`; δ steps are left out)
  help               this text
  quit               leave (also: exit, end of input)";

/// Run `ioco explore`.
pub fn run(args: Args, ld: &Loader) -> Result<Outcome> {
    let lts;
    let mut stepper: Box<dyn Stepper> = match ld.engine_spec(&args.model, args.engine)? {
        Some((spec, _why)) => {
            let solver = Box::new(ioco_symbolic::Z3Solver::new(spec.defs.clone()));
            let tracker = ioco_symbolic::SymbolicSpec::new(spec, solver)
                .map_err(|e| miette!("{}: {e}", args.model.display()))?;
            Box::new(
                SymbolicStepper::new(tracker, args.seed)
                    .map_err(|e| miette!("{}: {e}", args.model.display()))?,
            )
        }
        None => {
            lts = ld.load_lts(&args.model)?;
            Box::new(ExplicitStepper::new(&lts, args.policy.into()))
        }
    };
    let interactive = std::io::stdin().is_terminal();
    outln!(
        "exploring {} (type `help` for the commands)",
        args.model.display()
    );
    let mut menu = show(stepper.as_mut());
    let mut errors = 0usize;
    let mut input = Lines::new(interactive)?;
    while let Some((line_no, line)) = input.next() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if !interactive {
            outln!("> {line}");
        }
        match command(stepper.as_mut(), line, &menu, &args, ld) {
            Ok(Next::Quit) => break,
            Ok(Next::Show) => menu = show(stepper.as_mut()),
            Ok(Next::Stay) => {}
            Err(e) => {
                errors += 1;
                if interactive {
                    outln!("error: {e}");
                } else {
                    errln!("<stdin>:{line_no}: {e}");
                }
            }
        }
    }
    if errors > 0 && !interactive {
        return Err(miette!(
            help = "each failed command is listed above with its line",
            "{errors} command(s) of the script failed"
        ));
    }
    Ok(Outcome::Ok)
}

/// What the loop does after a command.
enum Next {
    Show,
    Stay,
    Quit,
}

/// The menu: inputs, then outputs, numbered from 1.
fn show(st: &mut dyn Stepper) -> Vec<String> {
    let states = st.states();
    let inputs = st.inputs();
    let outputs = st.outputs();
    outln!(
        "after {} step(s), in: {}",
        st.trace().len(),
        ioco_report::visible(&states.join("  |  "))
    );
    let mut menu = Vec::new();
    if inputs.is_empty() {
        outln!("  inputs:  none");
    } else {
        outln!("  inputs:");
        for i in &inputs {
            menu.push(i.split("  e.g.").next().unwrap_or(i).to_string());
            outln!("    {:>2}  {}", menu.len(), ioco_report::visible(i));
        }
    }
    if outputs.is_empty() {
        outln!("  outputs: none");
    } else {
        outln!("  outputs (allowed):");
        for o in &outputs {
            menu.push(o.clone());
            outln!("    {:>2}  {}", menu.len(), ioco_report::visible(o));
        }
    }
    menu
}

/// A menu entry as a step: its gate with the mark, values left to the solver.
fn menu_step(entry: &str) -> String {
    match entry.find('(') {
        Some(i) if entry.contains(':') || entry.contains('[') => entry[..i].to_string(),
        _ => entry.split_whitespace().next().unwrap_or(entry).to_string(),
    }
}

fn command(
    st: &mut dyn Stepper,
    line: &str,
    menu: &[String],
    args: &Args,
    ld: &Loader,
) -> Result<Next, String> {
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let number = |s: &str, what: &str| {
        s.parse::<usize>()
            .map_err(|_| format!("`{s}` is not a number ({what})"))
    };
    match word {
        "help" | "h" => {
            outln!("{HELP}");
            Ok(Next::Stay)
        }
        "quit" | "exit" | "q" => Ok(Next::Quit),
        "trace" => {
            let t = st.trace();
            if t.is_empty() {
                outln!("trace: ε (no steps yet)");
            } else {
                for (k, s) in t.iter().enumerate() {
                    outln!("  {:>3}  {}", k + 1, ioco_report::visible(s));
                }
            }
            Ok(Next::Stay)
        }
        "states" | "show" | "menu" => Ok(Next::Show),
        "reset" => {
            st.goto(0)?;
            Ok(Next::Show)
        }
        "back" => {
            let k = if rest.is_empty() {
                1
            } else {
                number(rest, "back K undoes K steps")?
            };
            let n = st.trace().len();
            if k > n {
                return Err(format!("cannot go back {k} step(s): the trace has {n}"));
            }
            st.goto(n - k)?;
            Ok(Next::Show)
        }
        "goto" => {
            let n = number(rest, "goto N goes to after step N")?;
            let len = st.trace().len();
            if n > len {
                return Err(format!("no step {n}: the trace has {len} step(s)"));
            }
            st.goto(n)?;
            Ok(Next::Show)
        }
        "save" | "save-trace" | "save-purpose" => {
            if rest.is_empty() {
                return Err(format!("{word} needs a file: {word} FILE"));
            }
            if word == "save-purpose" {
                save_purpose(st.trace(), Path::new(rest), args)?;
            } else {
                save(st, Path::new(rest), word == "save-trace", args, ld)?;
            }
            Ok(Next::Stay)
        }
        _ if word.chars().all(|c| c.is_ascii_digit()) && rest.is_empty() => {
            let k = number(word, "a menu entry")?;
            let entry = k
                .checked_sub(1)
                .and_then(|i| menu.get(i))
                .ok_or_else(|| format!("no entry {k} in the menu (1 to {})", menu.len()))?;
            let done = st.step(&menu_step(entry))?;
            outln!("took {}", ioco_report::visible(&done));
            Ok(Next::Show)
        }
        _ => {
            let done = st.step(line)?;
            outln!("took {}", ioco_report::visible(&done));
            Ok(Next::Show)
        }
    }
}

fn save(
    st: &mut dyn Stepper,
    path: &Path,
    as_trace: bool,
    args: &Args,
    ld: &Loader,
) -> Result<(), String> {
    let trace: Vec<String> = st.trace().to_vec();
    let data = trace.iter().any(|s| s.contains('('))
        || crate::load::is_lang(&args.model)
            && ld
                .engine_spec(&args.model, args.engine)
                .ok()
                .flatten()
                .is_some();
    let text = if as_trace || data {
        let mut r = RunResult::new(0, args.seed);
        r.trace = trace.iter().map(String::as_str).collect();
        r.steps = trace.len();
        let mut s = Summary::new("explore", args.seed, vec![r]);
        s.parameters
            .insert("model".into(), args.model.display().to_string().into());
        serde_json::to_string_pretty(&s).map_err(|e| e.to_string())? + "\n"
    } else {
        let mut suite = Suite::new("explore");
        suite
            .parameters
            .insert("model".into(), args.model.display().to_string().into());
        suite.tests.push(NamedTest {
            name: "explored".into(),
            purpose: Some(format!("the trace of ioco explore: {}", trace.join(" "))),
            test: TestCase::word(&trace),
        });
        serde_json::to_string_pretty(&suite).map_err(|e| e.to_string())? + "\n"
    };
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    if as_trace || data {
        outln!(
            "saved the trace ({} steps) to {}; replay it with `ioco replay {} {} --sut …`",
            trace.len(),
            path.display(),
            args.model.display(),
            path.display()
        );
    } else {
        outln!(
            "saved the trace ({} steps) as a test case to {}; run it with `ioco run {} {} --sut …`",
            trace.len(),
            path.display(),
            args.model.display(),
            path.display()
        );
    }
    Ok(())
}

/// The trace as a test purpose (`.ioco`, seed 004 §2): a location per step, the steps in
/// order, `accept` after the last; a label a location does not mention leaves it where it is,
/// so the purpose is reached by every trace that has these steps in this order. δ is no gate:
/// its steps are left out. Labels with values (data models) are refused: a purpose with data
/// needs guards, written by hand.
fn save_purpose(trace: &[String], path: &Path, args: &Args) -> Result<(), String> {
    let ident = |s: &str| {
        s.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let mut steps: Vec<(&str, bool)> = Vec::new();
    for t in trace.iter().filter(|t| t.as_str() != "δ") {
        let (name, input) = match (t.strip_suffix('?'), t.strip_suffix('!')) {
            (Some(n), _) => (n, true),
            (_, Some(n)) => (n, false),
            _ => return Err(format!("`{t}` has values: a purpose with data needs guards, written by hand (docs: examples/purposes/README.md)")),
        };
        if !ident(name) {
            return Err(format!(
                "`{t}` is no gate name of the modelling language (letters, digits, _): write \
                 this purpose by hand"
            ));
        }
        steps.push((name, input));
    }
    if steps.is_empty() {
        return Err("the trace has no input or output to aim at: take some steps first".into());
    }
    let gates = |input: bool| {
        let mut g: Vec<&str> = steps.iter().filter(|s| s.1 == input).map(|s| s.0).collect();
        g.sort_unstable();
        g.dedup();
        g
    };
    let (ins, outs) = (gates(true), gates(false));
    if let Some(both) = ins.iter().find(|g| outs.contains(g)) {
        return Err(format!(
            "`{both}` is an input and an output here: write this purpose by hand"
        ));
    }
    let mut text = format!(
        "// A test purpose saved by `ioco explore {}`: reach accept by taking these steps in\n\
         // order (anything else in between leaves the purpose where it is).\n\
         // ioco test {} --purpose {} --sut …\nmodel Explored {{\n",
        args.model.display(),
        args.model.display(),
        path.display()
    );
    if !ins.is_empty() {
        text += &format!("  input {}\n", ins.join(", "));
    }
    if !outs.is_empty() {
        text += &format!("  output {}\n", outs.join(", "));
    }
    text += "  init p0\n";
    for (k, (name, input)) in steps.iter().enumerate() {
        let to = if k + 1 == steps.len() {
            "accept".to_string()
        } else {
            format!("p{}", k + 1)
        };
        text += &format!(
            "  p{k} -- {name}{} --> {to}\n",
            if *input { "?" } else { "!" }
        );
    }
    text += "}\n";
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    outln!(
        "saved the trace as a test purpose ({} steps) to {}; use it with `ioco test {} --purpose {} --sut …`",
        steps.len(),
        path.display(),
        args.model.display(),
        path.display()
    );
    Ok(())
}

/// Command lines: edited with history on a terminal, read plainly from a pipe.
enum Lines {
    Editor(Box<rustyline::DefaultEditor>, usize),
    Plain(std::io::StdinLock<'static>, usize),
}

impl Lines {
    fn new(interactive: bool) -> Result<Lines> {
        if interactive {
            let ed = rustyline::DefaultEditor::new()
                .map_err(|e| miette!("cannot edit lines on this terminal: {e}"))?;
            Ok(Lines::Editor(Box::new(ed), 0))
        } else {
            Ok(Lines::Plain(std::io::stdin().lock(), 0))
        }
    }

    /// The next line with its number, `None` at the end of input.
    fn next(&mut self) -> Option<(usize, String)> {
        match self {
            Lines::Editor(ed, n) => loop {
                match ed.readline("ioco> ") {
                    Ok(l) => {
                        *n += 1;
                        let _ = ed.add_history_entry(l.as_str());
                        return Some((*n, l));
                    }
                    // Ctrl-C clears the line, as in a shell
                    Err(rustyline::error::ReadlineError::Interrupted) => continue,
                    Err(_) => return None,
                }
            },
            Lines::Plain(input, n) => {
                let mut l = String::new();
                match input.read_line(&mut l) {
                    Ok(0) | Err(_) => None,
                    Ok(_) => {
                        *n += 1;
                        Some((*n, l))
                    }
                }
            }
        }
    }
}
