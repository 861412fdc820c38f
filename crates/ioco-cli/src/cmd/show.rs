//! `ioco show MODEL`: print a model or its suspension automaton (tutorial Def. 4.9 and
//! Ex. 4.11: δ is added first, then the automaton is determinised) as DOT, .aut or JSON; a
//! `.ioco` model with infinite data (or any `.ioco` model with `--sts`) as its symbolic
//! transition system (`ioco_symbolic::draw`: locations, switches with guards and updates).

use super::{emit, Outcome, PolicyArg};
use crate::load::{infinite_data, load_model, load_spec};
use ioco_formats::{aut, dot, json, Model};
use ioco_model::SuspensionAutomaton;
use miette::Result;
use std::path::PathBuf;

/// Output formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Graphviz DOT (Mealy machines stay in the Mealy dialect).
    Dot,
    /// Aldebaran .aut.
    Aut,
    /// JSON (`ioco-lts/1`, or `ioco-suspension/1` with --suspension).
    Json,
}

/// Arguments of `ioco show`.
#[derive(clap::Args)]
pub struct Args {
    /// The model file (.aut, .dot, .gv, .json).
    pub model: PathBuf,
    /// Show the suspension automaton det(δ(model)) instead of the model.
    #[arg(long)]
    pub suspension: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Dot)]
    pub format: Format,
    /// Write to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// When a state is quiescent (for --suspension).
    #[arg(long, value_enum, default_value_t = PolicyArg::Stable)]
    pub policy: PolicyArg,
    /// Draw a .ioco model as a symbolic transition system (locations, and switches with
    /// guards and updates; JSON format `ioco-sts/1`) instead of its LTS. The default for a
    /// model with infinite data, which has no LTS.
    #[arg(long)]
    pub sts: bool,
    /// Give up when the suspension automaton has more states than this.
    #[arg(long, default_value_t = 1_000_000)]
    pub max_states: usize,
}

/// Run `ioco show`.
pub fn run(args: Args) -> Result<Outcome> {
    let is_ioco = args.model.extension().is_some_and(|e| e == "ioco");
    if args.sts && !is_ioco {
        return Err(miette::miette!(
            "--sts draws .ioco models; {} is not one",
            args.model.display()
        ));
    }
    let model = if args.sts {
        None
    } else {
        match load_model(&args.model) {
            Ok(m) => Some(m),
            // A .ioco model with infinite data has no LTS: draw its STS (unless asked for the
            // suspension automaton, which needs the LTS).
            Err(e) if is_ioco && !args.suspension => {
                let spec = load_spec(&args.model)?;
                if infinite_data(&spec).is_none() {
                    return Err(e);
                }
                None
            }
            Err(e) => return Err(e),
        }
    };
    let Some(model) = model else {
        if args.suspension {
            return Err(miette::miette!(
                "--suspension and --sts exclude each other: the suspension automaton is built from the LTS"
            ));
        }
        let spec = load_spec(&args.model)?;
        let text = match args.format {
            Format::Dot => ioco_symbolic::draw::dot(&spec),
            Format::Json => {
                serde_json::to_string_pretty(&ioco_symbolic::draw::json(&spec)).expect("json")
                    + "\n"
            }
            Format::Aut => {
                return Err(miette::miette!(
                    help = "use --format dot or --format json",
                    "an STS (locations and switches with data) cannot be written as .aut"
                ))
            }
        };
        emit(&text, args.output.as_deref())?;
        return Ok(Outcome::Ok);
    };
    let text = match (model, args.suspension, args.format) {
        (Model::Mealy(m), false, Format::Dot) => dot::write_mealy(&m),
        (model, false, f) => {
            let lts = model.into_lts().map_err(miette::Report::new)?;
            match f {
                Format::Dot => dot::write_lts(&lts),
                Format::Aut => aut::write(&lts).map_err(miette::Report::new)?,
                Format::Json => json::write_lts(&lts),
            }
        }
        (model, true, f) => {
            let lts = model.into_lts().map_err(miette::Report::new)?;
            let sa =
                SuspensionAutomaton::build_with_limit(&lts, args.policy.into(), args.max_states)
                    .map_err(|e| {
                        miette::miette!(
                            help = "raise --max-states, or use a smaller model",
                            "{}: the suspension automaton is too large: {e}",
                            args.model.display()
                        )
                    })?;
            match f {
                Format::Dot => dot::write_lts(&sa.lts),
                Format::Aut => aut::write(&sa.lts).map_err(miette::Report::new)?,
                Format::Json => json::write_suspension(&sa),
            }
        }
    };
    emit(&text, args.output.as_deref())?;
    Ok(Outcome::Ok)
}
