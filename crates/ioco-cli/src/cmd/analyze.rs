//! `ioco analyze`: relations on the suspension automaton of a specification — compatible
//! pairs (thesis Def. 2.16), equivalent states, and the adaptive distinguishing graph metrics of
//! thesis Table 3.2.

use super::{emit, Outcome, PolicyArg};
use crate::load::Loader;
use ioco_model::QuiescencePolicy;
use miette::{miette, IntoDiagnostic, Result};
use std::fmt::Write;
use std::path::PathBuf;

/// Arguments of `ioco analyze`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The specification (.aut, .dot, .json, .ioco, .txs).
    pub model: PathBuf,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Quiescence policy.
    #[arg(long, value_enum, default_value_t = PolicyArg::Stable)]
    pub policy: PolicyArg,
    /// Also search an adaptive distinguishing graph exactly (thesis Def. 3.21; breadth first
    /// over sets of current states with the pairs still to separate): it finds one iff one
    /// exists, for small automata; past the bound on configurations it says so.
    #[arg(long)]
    pub exact: bool,
    /// The bound of `--exact` on configurations (it also stops at 256 MiB).
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    pub exact_limit: usize,
    /// Where the splitting graph puts the states that do not enable the splitting input:
    /// `own-child` (the default; one child of their own) or `every-child` (thesis Alg. 4
    /// line 17, as the thesis's Table 3.2 was computed).
    #[arg(long, value_enum, default_value_t = NonEnablingArg::OwnChild)]
    pub non_enabling: NonEnablingArg,
    /// Extract the ADG by thesis Alg. 5 as printed, which may apply an input that a state the
    /// run may be in does not enable (then the ADG is not a test case for that state, Def.
    /// 3.15). By default only witnesses every current state can run are taken.
    #[arg(long)]
    pub alg5_as_printed: bool,
    #[command(flatten)]
    pub budgets: super::Budgets,
}

/// `--non-enabling`: [`ioco_complete::splitting::NonEnabling`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NonEnablingArg {
    /// Into one child of their own.
    OwnChild,
    /// Into every child (thesis Alg. 4 line 17).
    EveryChild,
}

/// Run `ioco analyze`.
pub fn run(args: Args, ld: &Loader) -> Result<Outcome> {
    let lts = ld.load_lts(&args.model)?;
    let sa = args
        .budgets
        .suspension(&lts, QuiescencePolicy::from(args.policy), &args.model)?;
    let opts = ioco_complete::AdgOptions {
        non_enabling: match args.non_enabling {
            NonEnablingArg::OwnChild => ioco_complete::splitting::NonEnabling::OwnChild,
            NonEnablingArg::EveryChild => ioco_complete::splitting::NonEnabling::EveryChild,
        },
        valid_inputs: !args.alg5_as_printed,
        ..ioco_complete::AdgOptions::default()
    };
    let a = ioco_complete::analysis::analyze_with(&sa, &opts).map_err(|e| miette!("{e}"))?;
    if args.json {
        let text = serde_json::to_string_pretty(&a).into_diagnostic()?;
        return emit(&(text + "\n"), None).map(|_| Outcome::Ok);
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "suspension automaton: {} states, {} transitions, {} inputs, {} outputs",
        a.states, a.transitions, a.inputs, a.outputs
    );
    let _ = writeln!(
        out,
        "transitions:          {} input, {} output (δ included; thesis Table 3.1)",
        a.input_transitions, a.output_transitions
    );
    let _ = writeln!(out, "pairs are counted as {}", a.pair_convention);
    let _ = writeln!(
        out,
        "compatible pairs:     {} ({:.1}% of the {} ordered pairs)",
        a.compatible_pairs, a.compatible_percent, a.ordered_pairs
    );
    for (p, q) in a.compatible_examples.iter().take(10) {
        let _ = writeln!(out, "  {p} ⋈ {q}");
    }
    let _ = writeln!(out, "equivalent pairs:     {}", a.equivalent_pairs);
    if !a.chaotic_states.is_empty() {
        let _ = writeln!(out, "chaotic states:       {}", a.chaotic_states.join(", "));
    }
    match (&a.adg, &a.adg_error) {
        (Some(m), _) => {
            let _ = writeln!(out, "adaptive distinguishing graph (thesis Table 3.2):");
            let _ = writeln!(
                out,
                "  splitting-graph nodes:        {}{}",
                m.splitting_graph_nodes,
                if m.splitting_graph_complete {
                    ""
                } else {
                    " (incomplete: construction stopped at its budget)"
                }
            );
            let _ = writeln!(out, "  depth:                        {}", m.depth);
            let _ = writeln!(
                out,
                "  incompatible pairs:           {}",
                m.incompatible_pairs
            );
            let _ = writeln!(
                out,
                "  not distinguished by the ADG: {} ({:.1}%)",
                m.undistinguished_pairs, m.undistinguished_percent
            );
            let _ = writeln!(
                out,
                "  not separated by an output:   {} ({:.1}%; also counts an input one state lacks)",
                m.unseparated_pairs, m.unseparated_percent
            );
            let _ = writeln!(
                out,
                "  average leaf size:            {:.2}",
                m.average_leaf_size
            );
            let _ = writeln!(
                out,
                "  weighted leaf size:           {:.2}",
                m.weighted_leaf_size
            );
            if m.term.len() <= 200 {
                let _ = writeln!(out, "  ADG: {}", m.term);
            }
        }
        (None, Some(e)) => {
            let _ = writeln!(out, "adaptive distinguishing graph: not computed: {e}");
        }
        (None, None) => {}
    }
    if args.exact {
        let _ = writeln!(out, "{}", exact_line(&sa, args.exact_limit)?);
    }
    emit(&out, None)?;
    Ok(Outcome::Ok)
}

/// The result of the exact ADG search (`--exact`), as one line.
fn exact_line(lts: &ioco_model::Lts, limit: usize) -> Result<String> {
    use ioco_complete::exact::{exact_adg, ExactOptions};
    let sa = ioco_complete::Sa::from_lts(lts).map_err(|e| miette!("{e}"))?;
    let compat = ioco_complete::compat::Compat::compute(&sa);
    let mut terms = ioco_complete::ccs::Terms::new();
    let opts = ExactOptions {
        max_configurations: limit,
        ..ExactOptions::default()
    };
    Ok(match exact_adg(&sa, &compat, &mut terms, &opts) {
        Ok(Some(t)) => format!(
            "exact ADG search (Def. 3.21): an ADG exists, depth {}: {}",
            terms.depth(t),
            terms
                .render(&sa, t, 200)
                .unwrap_or_else(|| "(longer than 200 characters)".into())
        ),
        Ok(None) => "exact ADG search (Def. 3.21): no adaptive distinguishing graph exists".into(),
        Err(e) => format!("exact ADG search: not decided: {e}"),
    })
}
