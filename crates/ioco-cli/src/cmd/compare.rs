//! `ioco compare SPEC IMPL`: decide `IMPL ioco SPEC` (tutorial Def. 6.1) with
//! `ioco_model::compare`, and print the shortest counterexample σ, the output (or δ) the
//! implementation shows after σ, and out(SPEC after σ). Exit 0 when the implementation
//! conforms, 1 when it does not, 2 on an error.

use super::{Outcome, PolicyArg};
use crate::load::Loader;
use ioco_model::{compare, CompareError, CompareOptions, InputCompletion};
use miette::{miette, Result};
use serde_json::json;
use std::path::PathBuf;

/// Arguments of `ioco compare`.
#[derive(clap::Args)]
pub struct Args {
    /// The specification model.
    pub spec: PathBuf,
    /// The implementation model.
    #[arg(value_name = "IMPL")]
    pub implementation: PathBuf,
    /// Refuse an implementation that is not input-enabled, i.e. has a state that does not take
    /// an input even after internal steps (default: complete it angelically, i.e. such an
    /// input is ignored, and say how many (state, input) pairs were completed).
    #[arg(long)]
    pub require_input_enabled: bool,
    /// When a state is quiescent.
    #[arg(long, value_enum, default_value_t = PolicyArg::Stable)]
    pub policy: PolicyArg,
    /// Give up after exploring this many (implementation, specification) state pairs (each
    /// pair is a set of specification states, so memory grows with both).
    #[arg(long, value_name = "N", default_value_t = 20_000_000)]
    pub max_pairs: usize,
    /// Give up when the exploration holds more than this many MiB (both suspension automata
    /// and the product, counted as they grow; the process's peak stays within about twice
    /// this). Checked before the memory is spent, so an exploding suspension automaton (a
    /// nondeterministic model whose sets of states multiply) ends in a clear error, not an abort.
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub max_memory: usize,
    /// The relation: ioco, or uioco (only the Utraces of the specification).
    #[arg(long, value_enum, default_value_t = super::RelationArg::Ioco)]
    pub relation: super::RelationArg,
    /// Print the verdict as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Run `ioco compare`.
pub fn run(args: Args, ld: &Loader) -> Result<Outcome> {
    let spec = ld.load_lts(&args.spec)?;
    let imp = ld.load_lts(&args.implementation)?;
    let opts = CompareOptions {
        policy: args.policy.into(),
        completion: if args.require_input_enabled {
            InputCompletion::Require
        } else {
            InputCompletion::Angelic
        },
        max_pairs: Some(args.max_pairs),
        max_memory: Some(args.max_memory.saturating_mul(1 << 20)),
        relation: args.relation.into(),
    };
    let r = compare(&imp, &spec, &opts).map_err(|e| match e {
        CompareError::NotInputEnabled { .. } => miette!(
            help = "drop --require-input-enabled to complete the implementation angelically (missing inputs are ignored)",
            "{}: {e}",
            args.implementation.display()
        ),
        CompareError::TooLarge { .. } => {
            miette!(help = "raise --max-pairs", "{e}")
        }
        CompareError::TooMuchMemory { .. } => miette!(
            help = "raise --max-memory (MiB) if the machine has it, or compare smaller models: \
                    a nondeterministic specification whose sets of states multiply is better \
                    tested online (`ioco test`), which determinises only the states a run visits",
            "{e}"
        ),
        CompareError::KindMismatch { .. } => miette!(
            help = "a label must have the same direction in both models",
            "{e}"
        ),
    })?;
    let sa = spec.alphabet();
    let (s, i) = (args.spec.display(), args.implementation.display());
    let completion_note = (r.completed_inputs > 0).then(|| {
        format!(
            "note: {i} is not input-enabled; angelic completion added {} (state, input) self-loop(s)",
            r.completed_inputs
        )
    });
    if args.json {
        let cex = r.counterexample.as_ref().map(|c| {
            json!({
                "trace": c.trace.iter().map(|&l| sa.display(l)).collect::<Vec<_>>(),
                "observed": c.observed,
                "allowed": c.allowed.iter().map(|&l| sa.display(l)).collect::<Vec<_>>(),
            })
        });
        let v = json!({
            "spec": s.to_string(),
            "implementation": i.to_string(),
            "conforms": r.conforms(),
            "policy": args.policy.name(),
            "relation": args.relation.name(),
            "counterexample": cex,
            "pairs": r.pairs,
            "impl_suspension_states": r.impl_states,
            "spec_suspension_states": r.spec_states,
            "completed_inputs": r.completed_inputs,
        });
        outln!("{}", serde_json::to_string_pretty(&v).expect("json"));
    } else {
        match &r.counterexample {
            None => outln!(
                "conforms: {i} {} {s} ({} state pairs explored, policy {})",
                args.relation.name(),
                r.pairs,
                args.policy.name()
            ),
            Some(c) => {
                let allowed: Vec<String> = c.allowed.iter().map(|&l| sa.display(l)).collect();
                outln!("does not conform: {i} is not {} {s}", args.relation.name());
                outln!("  after σ = {}", sa.display_trace(&c.trace));
                outln!("  the implementation can show: {}", c.observed);
                outln!(
                    "  the specification allows:    {}",
                    if allowed.is_empty() {
                        "nothing (σ·output is not a suspension trace of the specification)"
                            .to_string()
                    } else {
                        allowed.join(" ")
                    }
                );
            }
        }
        if let Some(n) = &completion_note {
            outln!("{n}");
        }
    }
    Ok(if r.conforms() {
        Outcome::Ok
    } else {
        Outcome::Fail
    })
}
