//! `ioco show MODEL`: print a model or its suspension automaton (tutorial Def. 4.9 and
//! Ex. 4.11: δ is added first, then the automaton is determinised) as DOT, .aut or JSON; a
//! `.ioco` model with infinite data (or any `.ioco` model with `--sts`) as its symbolic
//! transition system (`ioco_symbolic::draw`: locations, switches with guards and updates).
//!
//! Pictures (`ioco_report::graph`, DOT or SVG laid out in Rust): `--format svg` draws any of
//! these; `ioco show SUITE.json` draws a suite as the prefix tree of its tests (`--test NAME`:
//! one test case); `--purpose P` the product of the suspension automaton and a test purpose
//! (accept states as pass boxes, refuse states as inconclusive ones); `--coverage
//! RESULT.json` the model with the coverage of saved results and the failing observation.

use super::{emit, Outcome, PolicyArg};
use crate::load::infinite_data;
use crate::load::Loader;
use ioco_formats::{aut, dot, json, Model};
use ioco_model::SuspensionAutomaton;
use miette::Result;
use std::path::PathBuf;

/// Output formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Graphviz DOT (Mealy machines stay in the Mealy dialect).
    Dot,
    /// An SVG picture, laid out by ioco itself (no Graphviz needed).
    Svg,
    /// Aldebaran .aut.
    Aut,
    /// JSON (`ioco-lts/1`, or `ioco-suspension/1` with --suspension).
    Json,
}

/// Arguments of `ioco show`.
#[derive(clap::Args)]
pub struct Args {
    /// The model file (.ioco, .txs, .aut, .dot, .gv, .json), or a test suite (JSON of `ioco gen`)
    /// to draw as a tree.
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
    /// Draw the model with the coverage of these saved results (`--json` of `ioco test`,
    /// `run`, `replay`) and the failing observation in red.
    #[arg(long, value_name = "RESULT.json")]
    pub coverage: Option<PathBuf>,
    /// Draw the product of the model's suspension automaton and this test purpose (states
    /// named `accept…`/`refuse…`).
    #[arg(long, value_name = "PURPOSE", conflicts_with_all = ["coverage", "suspension", "sts"])]
    pub purpose: Option<PathBuf>,
    /// With a suite as the file: draw only the test of this name.
    #[arg(long, value_name = "NAME")]
    pub test: Option<String>,
}

/// A picture as DOT or SVG.
fn picture_text(g: &ioco_report::graph::Graph, format: Format) -> Result<String> {
    match format {
        Format::Dot => Ok(ioco_report::graph::to_dot(g)),
        Format::Svg => match ioco_report::svg::too_large(g) {
            Some(why) => Err(miette::miette!(
                help = "use --format dot and Graphviz for large pictures",
                "not drawn as SVG: {why}"
            )),
            None => Ok(ioco_report::svg::render(g, "picture")),
        },
        Format::Aut | Format::Json => Err(miette::miette!(
            help = "use --format dot or --format svg",
            "this picture is written as DOT or SVG only"
        )),
    }
}

/// The suite in `path`, if the file is one (`ioco-suite/1`).
fn as_suite(path: &std::path::Path) -> Result<Option<ioco_gen::Suite>> {
    if path.extension().is_none_or(|e| e != "json") {
        return Ok(None);
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| miette::miette!("cannot read {}: {e}", path.display()))?;
    let head: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(_) => return Ok(None),
    };
    match head.get("format").and_then(|f| f.as_str()) {
        Some(ioco_gen::Suite::FORMAT) => serde_json::from_value(head)
            .map(Some)
            .map_err(|e| miette::miette!("{}: not a valid suite: {e}", path.display())),
        Some(other) if other.starts_with("ioco-sts-suite") => Err(miette::miette!(
            help = "draw its model with `ioco show MODEL.ioco --format svg`",
            "{}: a switch-coverage suite ({other}) has no tree to draw",
            path.display()
        )),
        _ => Ok(None),
    }
}

/// `--purpose`: the solved product, its accept states as Pass and refuse states as
/// Inconclusive boxes.
fn purpose_picture(args: &Args, ld: &Loader) -> Result<ioco_report::graph::Graph> {
    use ioco_report::graph::Mark;
    let p = args.purpose.as_deref().expect("--purpose");
    let spec = ld.load_lts(&args.model)?;
    let purpose = ioco_games::Purpose::from_lts(ld.load_lts(p)?)
        .map_err(|e| miette::miette!("{}: {e}", p.display()))?;
    let sa = SuspensionAutomaton::build_with_limit(&spec, args.policy.into(), args.max_states)
        .map_err(|e| {
            miette::miette!(
                "{}: the suspension automaton is too large: {e}",
                args.model.display()
            )
        })?;
    let prod = ioco_games::PurposeProduct::build(&sa.lts, &purpose, &Default::default())
        .map_err(|e| miette::miette!("{}: {e}", p.display()))?;
    let title = format!("{} × {}", args.model.display(), p.display());
    let mut g = ioco_report::graph::from_lts(&prod.lts, &title, None);
    for (q, n) in g.nodes.iter_mut().enumerate() {
        if prod.is_accept(q as u32) {
            n.mark = Mark::Pass;
        } else if prod.is_refuse(q as u32) {
            n.mark = Mark::Inconclusive;
        }
    }
    Ok(g)
}

/// Run `ioco show`.
pub fn run(args: Args, ld: &Loader) -> Result<Outcome> {
    if let Some(suite) = as_suite(&args.model)? {
        let g = ioco_report::suite_tree::suite_tree(&suite, args.test.as_deref())
            .map_err(|e| miette::miette!("{}: {e}", args.model.display()))?;
        emit(&picture_text(&g, args.format)?, args.output.as_deref())?;
        return Ok(Outcome::Ok);
    }
    if args.test.is_some() {
        return Err(miette::miette!(
            "--test draws one test of a suite; {} is not a suite",
            args.model.display()
        ));
    }
    if args.purpose.is_some() {
        let g = purpose_picture(&args, ld)?;
        emit(&picture_text(&g, args.format)?, args.output.as_deref())?;
        return Ok(Outcome::Ok);
    }
    if let Some(results) = &args.coverage {
        let text = std::fs::read_to_string(results)
            .map_err(|e| miette::miette!("cannot read {}: {e}", results.display()))?;
        let summary = ioco_report::from_json(&text).map_err(|e| {
            miette::miette!(
                help = "give the JSON written by `ioco test --json` (or `run`, `replay`)",
                "{}:{}:{}: not a result file: {e}",
                results.display(),
                e.line(),
                e.column()
            )
        })?;
        let (g, _) = super::picture::picture(&args.model, Some(&summary), args.policy.into(), ld)?;
        emit(&picture_text(&g, args.format)?, args.output.as_deref())?;
        return Ok(Outcome::Ok);
    }
    if args.format == Format::Svg {
        let g = if args.suspension {
            let lts = ld.load_lts(&args.model)?;
            let sa =
                SuspensionAutomaton::build_with_limit(&lts, args.policy.into(), args.max_states)
                    .map_err(|e| {
                        miette::miette!(
                            "{}: the suspension automaton is too large: {e}",
                            args.model.display()
                        )
                    })?;
            ioco_report::graph::from_lts(&sa.lts, &args.model.display().to_string(), None)
        } else if args.sts {
            ioco_report::graph::from_sts(&*ld.load_spec(&args.model)?, None)
        } else {
            super::picture::picture(&args.model, None, args.policy.into(), ld)?.0
        };
        emit(&picture_text(&g, args.format)?, args.output.as_deref())?;
        return Ok(Outcome::Ok);
    }
    let is_ioco = crate::load::is_lang(&args.model);
    if args.sts && !is_ioco {
        return Err(miette::miette!(
            "--sts draws .ioco models; {} is not one",
            args.model.display()
        ));
    }
    let model = if args.sts {
        None
    } else {
        match ld.load_model(&args.model) {
            Ok(m) => Some(m),
            // A .ioco model with infinite data has no LTS: draw its STS (unless asked for the
            // suspension automaton, which needs the LTS).
            Err(e) if is_ioco && !args.suspension => {
                let spec = ld.load_spec(&args.model)?;
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
        let spec = ld.load_spec(&args.model)?;
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
            Format::Svg => unreachable!("SVG pictures are drawn above"),
        };
        emit(&text, args.output.as_deref())?;
        return Ok(Outcome::Ok);
    };
    let text = match (model, args.suspension, args.format) {
        (Model::Mealy(m), false, Format::Dot) => dot::write_mealy(&m),
        (model, false, f) => {
            let lts = model.into_lts().map_err(miette::Report::new)?;
            match f {
                Format::Dot | Format::Svg => dot::write_lts(&lts),
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
                Format::Dot | Format::Svg => dot::write_lts(&sa.lts),
                Format::Aut => aut::write(&sa.lts).map_err(miette::Report::new)?,
                Format::Json => json::write_suspension(&sa),
            }
        }
    };
    emit(&text, args.output.as_deref())?;
    Ok(Outcome::Ok)
}
