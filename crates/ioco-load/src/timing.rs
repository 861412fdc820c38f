//! The quiescence time-outs of a session over an LTS (the explicit engine): the default and the
//! per-state and per-label ones of `ioco_engine::timeouts`, from the model's `@timeout`s (model,
//! gates, locations, through the translation's [`Timing`]) and the user's overrides (the
//! command line's `--timeout`, `--timeout-gate`, `--timeout-location`; the `ioco` crate's
//! `Test::timeout*`). Written once for both.

use ioco_engine::Timeouts;
use ioco_lang::translate::Timing;
use ioco_model::Lts;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// What a session waits for.
#[derive(Clone, Debug)]
pub struct Waits {
    /// Where no state or label has its own: the override, else the model's `@timeout`, else
    /// the fallback.
    pub default: Duration,
    /// Per state and label (`None` when there are none).
    pub timeouts: Option<Arc<Timeouts>>,
}

/// The user's time-outs by name.
pub type ByName = HashMap<String, Duration>;

/// Which overrides there are; `resolve(what, known)` turns the user's overrides of `what`
/// (`"gate"` or `"location"`) into durations by name, checking each name against `known` (the
/// names the model has: for a location `loc` and `Model.loc`; for models without `.ioco`
/// timing, state names).
pub fn explicit<E>(
    spec: &Lts,
    model: Option<&Timing>,
    default: Option<Duration>,
    fallback: Duration,
    mut resolve: impl FnMut(&str, &[String]) -> Result<ByName, E>,
) -> Result<Waits, E> {
    let a = spec.alphabet();
    let n = spec.num_states();
    // gates: (name, the model's timeout) per label
    let label_gate: Vec<Option<(String, Option<Duration>)>> = a
        .all()
        .map(|l| {
            if !(a.is_input(l) || a.is_output(l)) {
                return None;
            }
            match model {
                Some(m) => m
                    .label_gates
                    .get(l.index())
                    .copied()
                    .flatten()
                    .map(|g| m.gates[g as usize].clone()),
                None => Some((a.name(l).to_string(), None)),
            }
        })
        .collect();
    let mut gate_names: Vec<String> = match model {
        Some(m) => m.gates.iter().map(|g| g.0.clone()).collect(),
        None => a.visible().map(|l| a.name(l).to_string()).collect(),
    };
    gate_names.sort();
    gate_names.dedup();
    let gates = resolve("gate", &gate_names)?;
    let labels: Vec<Option<Duration>> = label_gate
        .iter()
        .map(|g| {
            g.as_ref()
                .and_then(|(name, t)| gates.get(name).copied().or(*t))
        })
        .collect();
    let states: Vec<Option<Duration>> = match model {
        Some(m) => {
            let mut known: Vec<String> = Vec::new();
            for (aut, loc, _) in &m.locations {
                known.push(loc.clone());
                known.push(format!("{aut}.{loc}"));
            }
            known.sort();
            known.dedup();
            let locs = resolve("location", &known)?;
            let per_loc: Vec<Option<Duration>> = m
                .locations
                .iter()
                .map(|(aut, loc, t)| {
                    locs.get(&format!("{aut}.{loc}"))
                        .or_else(|| locs.get(loc))
                        .copied()
                        .or(*t)
                })
                .collect();
            (0..n as u32)
                .map(|s| {
                    m.locations_of(s)
                        .iter()
                        .filter_map(|&i| per_loc[i as usize])
                        .max()
                })
                .collect()
        }
        None => {
            let names: Vec<String> = (0..n as u32).map(|s| spec.state_name(s)).collect();
            let mut known = names.clone();
            known.sort();
            known.dedup();
            let locs = resolve("location", &known)?;
            if locs.is_empty() {
                Vec::new()
            } else {
                names.iter().map(|s| locs.get(s).copied()).collect()
            }
        }
    };
    let t = Timeouts { states, labels };
    Ok(Waits {
        default: default
            .or_else(|| model.and_then(|m| m.model))
            .unwrap_or(fallback),
        timeouts: (!t.is_empty()).then(|| Arc::new(t)),
    })
}
