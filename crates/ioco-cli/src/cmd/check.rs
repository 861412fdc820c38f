//! `ioco check MODEL`: parse, validate and summarise a model.
//!
//! Reports the sizes, the alphabet, τ transitions, quiescent states under the policy
//! (tutorial Def. 4.7 or the stable form), determinism and input-enabledness (tutorial
//! P1:L151), divergent states (states on a τ-cycle, tutorial §1.6: a warning, since their
//! quiescence depends on the policy) and unreachable states (a warning). Exit 0 when the model
//! is well-formed, 2 when it cannot be read.
//!
//! A `.ioco` model is also summarised as a data model (STS, thesis Def. 4.3): the gates with
//! their types, locations, switches, variables ([`ioco_symbolic::draw::summary`]), whether the
//! data is finite, and which engine `ioco test` uses (`ioco_load::engine::choose`). A model
//! with infinite data has no explicit LTS: that summary is all there is; a finite one gets it
//! after the LTS summary.

use super::{Outcome, PolicyArg};
use crate::load::infinite_data;
use crate::load::Loader;
use ioco_formats::Model;
use ioco_lang::ir::Spec;
use ioco_model::{Label, Lts, QuiescencePolicy, State};
use miette::Result;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Arguments of `ioco check`.
#[derive(clap::Args)]
pub struct Args {
    /// The model file (.ioco, .txs, .aut, .dot, .gv, .json).
    pub model: PathBuf,
    /// When a state is quiescent.
    #[arg(long, value_enum, default_value_t = PolicyArg::Stable)]
    pub policy: PolicyArg,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Explicit δ transitions that break the QLTS well-formedness of tutorial Def. 4.8: after
/// `s -δ-> t`, `t` must enable no output and must have a δ self-loop.
pub fn ill_formed_delta(lts: &Lts) -> Vec<(State, State)> {
    lts.transitions()
        .filter(|&(_, l, t)| {
            l == Label::DELTA
                && (lts.has_output(t) || !lts.successors(t, Label::DELTA).any(|u| u == t))
        })
        .map(|(s, _, t)| (s, t))
        .collect()
}

fn names(lts: &Lts, states: &[State], max: usize) -> String {
    let mut v: Vec<String> = states
        .iter()
        .take(max)
        .map(|&s| lts.state_name(s))
        .collect();
    if states.len() > max {
        v.push(format!("… ({} more)", states.len() - max));
    }
    v.join(", ")
}

/// Run `ioco check`.
pub fn run(args: Args, ld: &Loader) -> Result<Outcome> {
    // A .ioco model is also a data model (summarised by `print_sts`); with infinite data it
    // has no explicit LTS, and that summary is all there is.
    let data = match crate::load::is_lang(&args.model) {
        true => Some(ld.load_spec(&args.model)?),
        false => None,
    };
    let model = match ld.load_model(&args.model) {
        Ok(m) => m,
        Err(e) => match data.as_ref().filter(|s| infinite_data(s).is_some()) {
            Some(spec) => return sts_only(&args.model, args.json, spec),
            None => return Err(e),
        },
    };
    let kind = model.kind();
    let mealy = match &model {
        Model::Mealy(m) => Some(json!({
            "states": m.num_states(),
            "inputs": m.num_inputs(),
            "outputs": m.outputs.len(),
            "transitions": (0..m.num_states() as u32)
                .map(|s| (0..m.num_inputs() as u32).filter(|&i| m.step(s, i).is_some()).count())
                .sum::<usize>(),
            "complete": m.is_complete(),
        })),
        Model::Lts(_) => None,
    };
    let lts = model.into_lts().map_err(miette::Report::new)?;
    let policy: QuiescencePolicy = args.policy.into();
    let a = lts.alphabet();
    let inputs: Vec<String> = a.inputs().map(|l| a.display(l)).collect();
    let outputs: Vec<String> = a.outputs().map(|l| a.display(l)).collect();
    let quiescent = lts
        .states()
        .filter(|&s| lts.is_quiescent(s, policy))
        .count();
    // input-enabled as tutorial Def. 4.3 says (weakly: after internal steps), as `compare`
    // takes it; the states that take an input only after internal steps are counted apart
    let strict = lts.input_enabledness_violations();
    let mut violations = lts.weak_input_enabledness_violations();
    violations.dedup_by_key(|&mut (s, _)| s); // one (the first) missing input per state
    let divergent = ioco_model::divergence::divergent_states(&lts);
    let silent: Vec<State> = divergent
        .iter()
        .copied()
        .filter(|&s| lts.is_silently_divergent(s))
        .collect();
    let reach = lts.reachable();
    let unreachable: Vec<State> = lts.states().filter(|&s| !reach[s as usize]).collect();
    let deterministic = lts.is_deterministic();
    let bad_delta = ill_formed_delta(&lts);

    if args.json {
        let v = json!({
            "model": args.model.display().to_string(),
            "kind": kind,
            "mealy": mealy,
            "states": lts.num_states(),
            "transitions": lts.num_transitions(),
            "tau_transitions": lts.num_tau(),
            "explicit_delta": lts.has_explicit_delta(),
            "initial": lts.initial().iter().map(|&s| lts.state_name(s)).collect::<Vec<_>>(),
            "inputs": inputs,
            "outputs": outputs,
            "policy": args.policy.name(),
            "quiescent_states": quiescent,
            "deterministic": deterministic,
            "input_enabled": violations.is_empty(),
            "states_missing_inputs": violations.len(),
            "states_taking_inputs_after_internal_steps": strict.len().saturating_sub(violations.len()),
            "divergent_states": divergent.iter().map(|&s| lts.state_name(s)).collect::<Vec<_>>(),
            "silently_divergent_states": silent.iter().map(|&s| lts.state_name(s)).collect::<Vec<_>>(),
            "unreachable_states": unreachable.iter().map(|&s| lts.state_name(s)).collect::<Vec<_>>(),
            "ill_formed_delta": bad_delta.iter().map(|&(s, t)| [lts.state_name(s), lts.state_name(t)]).collect::<Vec<_>>(),
            "sts": data.as_ref().map(|s| sts_json(s, true)),
        });
        outln!("{}", serde_json::to_string_pretty(&v).expect("json"));
        return Ok(Outcome::Ok);
    }

    let yn = |b: bool| if b { "yes" } else { "no" };
    outln!("{}: {kind}", args.model.display());
    if let Some(m) = &mealy {
        outln!(
            "  Mealy machine:     {} states, {} inputs, {} outputs, {} transitions, {}",
            m["states"],
            m["inputs"],
            m["outputs"],
            m["transitions"],
            if m["complete"] == json!(true) {
                "complete"
            } else {
                "partial"
            }
        );
        outln!("  as an LTS (each i/o transition is i? then o!):");
    }
    outln!("  states:            {}", lts.num_states());
    outln!(
        "  transitions:       {} ({} τ{})",
        lts.num_transitions(),
        lts.num_tau(),
        if lts.has_explicit_delta() {
            ", explicit δ"
        } else {
            ""
        }
    );
    outln!("  initial:           {}", names(&lts, lts.initial(), 8));
    outln!("  inputs ({}):        {}", inputs.len(), inputs.join(" "));
    outln!("  outputs ({}):       {}", outputs.len(), outputs.join(" "));
    outln!(
        "  quiescent states:  {quiescent} (policy {})",
        args.policy.name()
    );
    outln!("  deterministic:     {}", yn(deterministic));
    match violations.first() {
        None if strict.is_empty() => outln!("  input-enabled:     yes"),
        None => outln!(
            "  input-enabled:     yes, after internal steps ({} state(s) take an input only after \
             τ-steps)",
            strict.len()
        ),
        Some(&(s, i)) => outln!(
            "  input-enabled:     no ({} states miss an input even after τ-steps; e.g. state {} \
             does not accept {})",
            violations.len(),
            lts.state_name(s),
            a.display(i)
        ),
    }
    outln!("  divergent states:  {}", divergent.len());
    outln!("  unreachable:       {}", unreachable.len());
    if let Some(spec) = &data {
        outln!("  as a data model (STS):");
        print_sts(spec, true);
    }
    if !divergent.is_empty() {
        errln!(
            "warning: {} state(s) lie on a τ-cycle (divergence): {}; {} of them reach no output \
             by τ-steps ({}): the tool takes those as quiescent, as a tester's time-out sees them \
             (δ allowed there); from the others the cycle is left for an output (fairness; with \
             --policy no-output every state without an output is quiescent)",
            divergent.len(),
            names(&lts, &divergent, 10),
            silent.len(),
            if silent.is_empty() {
                "none".to_string()
            } else {
                names(&lts, &silent, 10)
            }
        );
    }
    if let Some(&(s, t)) = bad_delta.first() {
        errln!(
            "warning: {} δ transition(s) are not well-formed (tutorial Def. 4.8: after δ the state enables no output and has a δ self-loop); e.g. {} -δ-> {}",
            bad_delta.len(),
            lts.state_name(s),
            lts.state_name(t)
        );
    }
    if !unreachable.is_empty() {
        errln!(
            "warning: {} state(s) cannot be reached from the initial state: {}",
            unreachable.len(),
            names(&lts, &unreachable, 10)
        );
    }
    Ok(Outcome::Ok)
}

fn list(items: &[String], max: usize, sep: &str) -> String {
    let mut v: Vec<String> = items.iter().take(max).cloned().collect();
    if items.len() > max {
        v.push(format!("… ({} more)", items.len() - max));
    }
    v.join(sep)
}

/// Print the data-model lines of the summary (after a header that the caller printed);
/// `explicit`: the model has an explicit LTS.
fn print_sts(spec: &Arc<Spec>, explicit: bool) {
    let s = ioco_symbolic::draw::summary(spec);
    let choice = ioco_load::engine::choose(spec);
    outln!("  specification:     {}", s.name);
    if let Some(c) = &s.composition {
        outln!("  composition:       {c}");
    }
    outln!(
        "  gates ({}):{:w$}{}",
        s.gates.len(),
        "",
        list(&s.gates, 20, " "),
        w = pad(s.gates.len(), 10)
    );
    outln!(
        "  locations ({}):{:w$}{}",
        s.locations.len(),
        "",
        list(&s.locations, 20, ", "),
        w = pad(s.locations.len(), 6)
    );
    outln!("  initial:           {}", s.initial.join(", "));
    outln!(
        "  switches:          {} ({} τ, {} multi-actions)",
        s.switches,
        s.tau_switches,
        s.multi_actions
    );
    outln!(
        "  variables ({}):{:w$}{}",
        s.variables.len(),
        "",
        if s.variables.is_empty() {
            "none".to_string()
        } else {
            list(&s.variables, 20, ", ")
        },
        w = pad(s.variables.len(), 6)
    );
    match &choice.infinite {
        None => outln!("  finite data:       yes"),
        Some(why) => outln!("  finite data:       no ({why})"),
    }
    if let Some(why) = &choice.symbolic_refuses {
        outln!("  symbolic engine:   does not apply: {why}");
    }
    outln!("  test engine:       {}", choice.describe(explicit));
}

/// Spaces after `label (n):` so that the values line up with the other lines.
fn pad(n: usize, base: usize) -> usize {
    base.saturating_sub(n.to_string().len()).max(1)
}

/// The data-model part of `ioco check --json`; `explicit`: the model has an explicit LTS.
fn sts_json(spec: &Arc<Spec>, explicit: bool) -> Value {
    let s = ioco_symbolic::draw::summary(spec);
    let choice = ioco_load::engine::choose(spec);
    json!({
        "specification": s.name,
        "composition": s.composition,
        "gates": s.gates,
        "automata": s.automata,
        "locations": s.locations,
        "initial": s.initial,
        "switches": s.switches,
        "tau_switches": s.tau_switches,
        "multi_actions": s.multi_actions,
        "variables": s.variables,
        "finite": choice.infinite.is_none(),
        "infinite_data": choice.infinite,
        "symbolic_refuses": choice.symbolic_refuses,
        "explicit": explicit,
        "engine": choice.engine.name(),
    })
}

/// `ioco check` of a `.ioco` model that has no explicit LTS (infinite data): the data-model
/// summary is all there is.
fn sts_only(model: &Path, as_json: bool, spec: &Arc<Spec>) -> Result<Outcome> {
    if as_json {
        let v = json!({
            "model": model.display().to_string(),
            "kind": "STS",
            "sts": sts_json(spec, false),
        });
        outln!("{}", serde_json::to_string_pretty(&v).expect("json"));
    } else {
        outln!(
            "{}: STS (a .ioco model with infinite data: no explicit LTS)",
            model.display()
        );
        print_sts(spec, false);
    }
    Ok(Outcome::Ok)
}
