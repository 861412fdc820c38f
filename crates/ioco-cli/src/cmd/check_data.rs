//! The part of `ioco check` for `.ioco` models as data models (STS, thesis Def. 4.3): the gates
//! with their types, locations, switches, variables ([`ioco_symbolic::draw::summary`]), whether
//! the data is finite, and which engine `ioco test` uses. A model with infinite data has no
//! explicit LTS: this is its whole summary; a finite one gets it after the LTS summary.

use ioco_lang::ir::Spec;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::Arc;

/// What `ioco test` does with a spec: the engine by default (`ioco_load::engine::choose`), and
/// whether the other applies.
struct Engines {
    /// The default choice.
    choice: ioco_load::engine::Choice,
    /// The model has an explicit LTS within the translation's bounds.
    explicit: bool,
}

impl Engines {
    fn of(spec: &Arc<Spec>, explicit: bool) -> Engines {
        Engines {
            choice: ioco_load::engine::choose(spec),
            explicit,
        }
    }

    fn default_engine(&self) -> &'static str {
        match self.choice.engine {
            ioco_load::engine::Engine::Symbolic => "symbolic",
            ioco_load::engine::Engine::Explicit => "explicit",
        }
    }

    fn text(&self) -> String {
        use ioco_load::engine::Engine;
        let symbolic = "symbolic (Z3 chooses input values and judges outputs against the guards)";
        let c = &self.choice;
        match (&c.infinite, &c.symbolic_refuses, c.engine, self.explicit) {
            (Some(_), None, Engine::Symbolic, false) => {
                format!("{symbolic}; the explicit engine needs finite data")
            }
            (Some(_), None, Engine::Symbolic, true) => format!(
                "{symbolic}; `--engine explicit` also applies (the values reached are finitely \
                 many, but more than the default choice explores)"
            ),
            (Some(_), None, Engine::Explicit, _) => format!(
                "explicit: the types have infinitely many values, but the values reached are \
                 finitely many ({} states); `--engine symbolic` also applies",
                c.explicit_states.unwrap_or_default()
            ),
            (Some(_), Some(_), _, true) => "explicit (the values reached are finitely many; \
                                             the symbolic engine does not apply: see above)"
                .into(),
            (Some(_), Some(_), _, false) => {
                "none: the data is infinite and the symbolic engine does not apply (see above)"
                    .into()
            }
            (None, None, _, _) => "explicit (`--engine symbolic` also applies)".into(),
            (None, Some(_), _, _) => {
                "explicit (the symbolic engine does not apply, see above)".into()
            }
        }
    }
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
pub fn print(spec: &Arc<Spec>, explicit: bool) {
    let s = ioco_symbolic::draw::summary(spec);
    let e = Engines::of(spec, explicit);
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
    match &e.choice.infinite {
        None => outln!("  finite data:       yes"),
        Some(why) => outln!("  finite data:       no ({why})"),
    }
    if let Some(why) = &e.choice.symbolic_refuses {
        outln!("  symbolic engine:   does not apply: {why}");
    }
    outln!("  test engine:       {}", e.text());
}

/// Spaces after `label (n):` so that the values line up with the other lines.
fn pad(n: usize, base: usize) -> usize {
    base.saturating_sub(n.to_string().len()).max(1)
}

/// The data-model part of `ioco check --json`; `explicit`: the model has an explicit LTS.
pub fn json(spec: &Arc<Spec>, explicit: bool) -> Value {
    let s = ioco_symbolic::draw::summary(spec);
    let e = Engines::of(spec, explicit);
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
        "finite": e.choice.infinite.is_none(),
        "infinite_data": e.choice.infinite,
        "symbolic_refuses": e.choice.symbolic_refuses,
        "explicit": e.explicit,
        "engine": e.default_engine(),
    })
}

/// `ioco check` of a `.ioco` model that has no explicit LTS (infinite data): the data-model
/// summary is all there is.
pub fn sts_only(model: &Path, as_json: bool, spec: &Arc<Spec>) -> miette::Result<super::Outcome> {
    if as_json {
        let v = json!({
            "model": model.display().to_string(),
            "kind": "STS",
            "sts": json(spec, false),
        });
        outln!("{}", serde_json::to_string_pretty(&v).expect("json"));
    } else {
        outln!(
            "{}: STS (a .ioco model with infinite data: no explicit LTS)",
            model.display()
        );
        print(spec, false);
    }
    Ok(super::Outcome::Ok)
}
