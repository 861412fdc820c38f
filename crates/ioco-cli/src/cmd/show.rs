//! `ioco show MODEL`: print a model or its suspension automaton (tutorial Def. 4.9 and
//! Ex. 4.11: δ is added first, then the automaton is determinised) as DOT, .aut or JSON.

use super::{emit, Outcome, PolicyArg};
use crate::load::load_model;
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
    /// Give up when the suspension automaton has more states than this.
    #[arg(long, default_value_t = 1_000_000)]
    pub max_states: usize,
}

/// Run `ioco show`.
pub fn run(args: Args) -> Result<Outcome> {
    let model = load_model(&args.model)?;
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
