//! Views of a symbolic transition system (thesis Def. 4.3) for people and tools: a
//! [`Summary`] (gates with their types, locations, switches, variables, the composition) and a
//! drawing as Graphviz DOT ([`dot`]) or JSON ([`json`]): one cluster per automaton, locations
//! as nodes, switches as edges labelled `gate?(params) [guard] { updates }`.
//!
//! These views need no solver and no enumeration of values, so they exist for every model,
//! also one with infinite data that has no explicit LTS.

use crate::system::render_expr;
use ioco_lang::ir::{Automaton, Composition, Direction, Spec, Switch};
use serde_json::{json, Value as Json};
use std::fmt::Write;

/// Counts and names of an STS.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The spec's name.
    pub name: String,
    /// Visible gates, as declared: `req?(n: int)`, `ok!`.
    pub gates: Vec<String>,
    /// The automata's names.
    pub automata: Vec<String>,
    /// Locations, `Automaton.location` when there are several automata.
    pub locations: Vec<String>,
    /// The initial locations (one per automaton).
    pub initial: Vec<String>,
    /// Number of switches.
    pub switches: usize,
    /// Of which τ (including lowered `exit` and sequencing steps).
    pub tau_switches: usize,
    /// Of which multi-actions (several gates in one step).
    pub multi_actions: usize,
    /// Variables: `Automaton.name: type = init`.
    pub variables: Vec<String>,
    /// The composition (`A |[g]| B`, `hide {g} in ...`) when there is more than one automaton
    /// or a hiding or renaming.
    pub composition: Option<String>,
}

/// The summary of a spec.
pub fn summary(spec: &Spec) -> Summary {
    let several = spec.automata.len() > 1;
    let qualify = |a: &Automaton, x: &str| {
        if several {
            format!("{}.{x}", a.name)
        } else {
            x.to_string()
        }
    };
    let mut s = Summary {
        name: spec.name.clone(),
        gates: spec
            .gates
            .iter()
            .map(|g| {
                let mark = mark(g.dir);
                if g.params.is_empty() {
                    format!("{}{mark}", g.name)
                } else {
                    let ps: Vec<String> = g
                        .params
                        .iter()
                        .map(|(n, t)| format!("{n}: {}", spec.defs.type_name(*t)))
                        .collect();
                    format!("{}{mark}({})", g.name, ps.join(", "))
                }
            })
            .collect(),
        automata: spec.automata.iter().map(|a| a.name.clone()).collect(),
        locations: Vec::new(),
        initial: Vec::new(),
        switches: 0,
        tau_switches: 0,
        multi_actions: 0,
        variables: Vec::new(),
        composition: match spec.root {
            Composition::Leaf(_) => None,
            ref c => Some(composition(spec, c)),
        },
    };
    for a in &spec.automata {
        s.locations
            .extend(a.locations.iter().map(|l| qualify(a, &l.name)));
        if let Some(l) = a.locations.get(a.initial as usize) {
            s.initial.push(qualify(a, &l.name));
        }
        s.switches += a.switches.len();
        s.tau_switches += a.switches.iter().filter(|w| w.gate.is_none()).count();
        s.multi_actions += a.switches.iter().filter(|w| !w.also.is_empty()).count();
        s.variables.extend(a.vars.iter().map(|v| {
            format!(
                "{}: {} = {}",
                qualify(a, &v.name),
                spec.defs.type_name(v.ty),
                v.init.display(&spec.defs)
            )
        }));
    }
    s
}

fn mark(d: Direction) -> &'static str {
    match d {
        Direction::Input => "?",
        Direction::Output => "!",
    }
}

/// The composition as text: `A |[g, h]| B`, `A ||| B`, `hide {g} in (...)`, `P[a -> b]`.
pub fn composition(spec: &Spec, c: &Composition) -> String {
    match c {
        Composition::Leaf(i) => spec
            .automata
            .get(*i as usize)
            .map(|a| a.name.clone())
            .unwrap_or_default(),
        Composition::Par { sync, left, right } => {
            let op = if sync.is_empty() {
                "|||".to_string()
            } else {
                format!("|[{}]|", sync.join(", "))
            };
            format!(
                "({} {op} {})",
                composition(spec, left),
                composition(spec, right)
            )
        }
        Composition::Hide { gates, body } => {
            format!(
                "hide {{{}}} in {}",
                gates.join(", "),
                composition(spec, body)
            )
        }
        Composition::Rename { map, body } => {
            let m: Vec<String> = map.iter().map(|(a, b)| format!("{a} -> {b}")).collect();
            format!("{}[{}]", composition(spec, body), m.join(", "))
        }
    }
}

/// The action of a switch: `tau`, `water?(w)`, `a?(x) | b!(y)`.
pub fn action(a: &Automaton, sw: &Switch) -> String {
    let Some(g) = sw.gate else {
        return "tau".into();
    };
    let mut params = sw.params.iter().map(|p| crate::system::shown_param(&p.0));
    let mut parts = Vec::new();
    for gid in std::iter::once(g).chain(sw.also.iter().copied()) {
        let Some(gate) = a.gates.get(gid as usize) else {
            continue;
        };
        let ps: Vec<&str> = params.by_ref().take(gate.params.len()).collect();
        if ps.is_empty() {
            parts.push(format!("{}{}", gate.name, mark(gate.dir)));
        } else {
            parts.push(format!(
                "{}{}({})",
                gate.name,
                mark(gate.dir),
                ps.join(", ")
            ));
        }
    }
    parts.join(" | ")
}

/// The guard of a switch (`None` when it is `true`).
pub fn guard(spec: &Spec, a: &Automaton, sw: &Switch) -> Option<String> {
    (!sw.guard.is_true()).then(|| render_expr(&spec.defs, a, &sw.params, &sw.guard))
}

/// The updates of a switch: `total = total + w`.
pub fn updates(spec: &Spec, a: &Automaton, sw: &Switch) -> Vec<String> {
    sw.assign
        .iter()
        .map(|(v, e)| {
            format!(
                "{} = {}",
                a.vars[*v as usize].name,
                render_expr(&spec.defs, a, &sw.params, e)
            )
        })
        .collect()
}

/// The edge label of a switch: `water?(w) [w > 0] { total = total + w }`.
pub fn switch_label(spec: &Spec, a: &Automaton, sw: &Switch) -> String {
    let mut out = action(a, sw);
    if let Some(g) = guard(spec, a, sw) {
        let _ = write!(out, " [{g}]");
    }
    let u = updates(spec, a, sw);
    if !u.is_empty() {
        let _ = write!(out, " {{ {} }}", u.join(", "));
    }
    out
}

fn q(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The STS as Graphviz DOT: a cluster per automaton (labelled with its name and variables),
/// its locations as nodes (the initial one marked by an arrow from a point), its switches as
/// edges labelled by [`switch_label`].
pub fn dot(spec: &Spec) -> String {
    let mut out = String::from("digraph sts {\n");
    let _ = writeln!(out, "  label={};", q(&spec.name));
    if let Some(c) = summary(spec).composition {
        let _ = writeln!(out, "  // composition: {c}");
    }
    for (ai, a) in spec.automata.iter().enumerate() {
        let node = |l: u32| q(&format!("{ai}:{}", a.locations[l as usize].name));
        let _ = writeln!(out, "  subgraph cluster_{ai} {{");
        let mut label = a.name.clone();
        for v in &a.vars {
            let _ = write!(
                label,
                "\nvar {}: {} = {}",
                v.name,
                spec.defs.type_name(v.ty),
                v.init.display(&spec.defs)
            );
        }
        let _ = writeln!(out, "    label={};", q(&label));
        let _ = writeln!(out, "    __start{ai} [label=\"\", shape=point];");
        for (li, l) in a.locations.iter().enumerate() {
            let _ = writeln!(
                out,
                "    {} [label={}, shape=ellipse];",
                node(li as u32),
                q(&l.name)
            );
        }
        if !a.locations.is_empty() {
            let _ = writeln!(out, "    __start{ai} -> {};", node(a.initial));
        }
        for sw in &a.switches {
            let _ = writeln!(
                out,
                "    {} -> {} [label={}];",
                node(sw.from),
                node(sw.to),
                q(&switch_label(spec, a, sw))
            );
        }
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}

/// The STS as JSON (format `ioco-sts/1`): the gates with their parameter types, and per
/// automaton its locations, initial location, variables and switches (from, to, action, gate
/// names, parameters, guard and updates as text).
pub fn json(spec: &Spec) -> Json {
    let defs = &spec.defs;
    let gates: Vec<Json> = spec
        .gates
        .iter()
        .map(|g| {
            json!({
                "name": g.name,
                "direction": if g.dir == Direction::Input { "input" } else { "output" },
                "params": g.params.iter().map(|(n, t)| json!({"name": n, "type": defs.type_name(*t)})).collect::<Vec<_>>(),
            })
        })
        .collect();
    let automata: Vec<Json> = spec
        .automata
        .iter()
        .map(|a| {
            let loc = |l: u32| a.locations[l as usize].name.clone();
            json!({
                "name": a.name,
                "locations": a.locations.iter().map(|l| l.name.clone()).collect::<Vec<_>>(),
                "initial": a.locations.get(a.initial as usize).map(|l| l.name.clone()),
                "variables": a.vars.iter().map(|v| json!({
                    "name": v.name,
                    "type": defs.type_name(v.ty),
                    "init": v.init.display(defs).to_string(),
                })).collect::<Vec<_>>(),
                "switches": a.switches.iter().map(|sw| json!({
                    "from": loc(sw.from),
                    "to": loc(sw.to),
                    "action": action(a, sw),
                    "gates": sw.gate.iter().chain(sw.also.iter())
                        .filter_map(|g| a.gates.get(*g as usize).map(|g| g.name.clone()))
                        .collect::<Vec<_>>(),
                    "params": sw.params.iter().map(|(n, t)| json!({"name": n, "type": defs.type_name(*t)})).collect::<Vec<_>>(),
                    "guard": guard(spec, a, sw),
                    "updates": updates(spec, a, sw),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "format": "ioco-sts/1",
        "name": spec.name,
        "gates": gates,
        "sync": spec.sync,
        "composition": composition(spec, &spec.root),
        "automata": automata,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(src: &str) -> Spec {
        let m = ioco_lang::parse_str("t.ioco", src).unwrap_or_else(|e| panic!("{e:?}"));
        m.entry().expect("entry").clone()
    }

    const COFFEE: &str = "model C { input water(ml: int) output coffee(ml: int) \
        var total: int = 0 init idle \
        idle -- water?(w) [w > 0] { total = total + w } --> brewing \
        brewing -- coffee!(c) [c == total] { total = 0 } --> idle \
        brewing -- tau --> idle }";

    #[test]
    fn summary_names_gates_types_locations_switches_and_variables() {
        let s = summary(&spec(COFFEE));
        assert_eq!(s.gates, vec!["coffee!(ml: int)", "water?(ml: int)"]);
        assert_eq!(s.locations, vec!["idle", "brewing"]);
        assert_eq!(s.initial, vec!["idle"]);
        assert_eq!((s.switches, s.tau_switches, s.multi_actions), (3, 1, 0));
        assert_eq!(s.variables, vec!["total: int = 0"]);
        assert_eq!(s.composition, None);
    }

    #[test]
    fn dot_draws_switches_with_guards_and_updates() {
        let d = dot(&spec(COFFEE));
        assert!(
            d.contains(
                r#""0:idle" -> "0:brewing" [label="water?(w) [w > 0] { total = total + w }"];"#
            ),
            "{d}"
        );
        assert!(
            d.contains(
                r#""0:brewing" -> "0:idle" [label="coffee!(c) [c == total] { total = 0 }"];"#
            ),
            "{d}"
        );
        assert!(
            d.contains(r#""0:brewing" -> "0:idle" [label="tau"];"#),
            "{d}"
        );
        assert!(d.contains(r#"label="C\nvar total: int = 0";"#), "{d}");
        assert!(d.contains(r#"__start0 -> "0:idle";"#), "{d}");
    }

    #[test]
    fn json_lists_switches() {
        let j = json(&spec(COFFEE));
        assert_eq!(j["format"], "ioco-sts/1");
        let sw = &j["automata"][0]["switches"][0];
        assert_eq!(sw["action"], "water?(w)");
        assert_eq!(sw["guard"], "w > 0");
        assert_eq!(sw["updates"][0], "total = total + w");
        assert_eq!(j["gates"][1]["params"][0]["type"], "int");
    }

    #[test]
    fn multi_actions_show_every_gate() {
        let s = spec(
            "model M { input a(x: int), b(y: int) init s \
             s -- a?(x) | b?(y) [x == y] --> s }",
        );
        let a = &s.automata[0];
        assert_eq!(action(a, &a.switches[0]), "a?(x) | b?(y)");
        assert_eq!(summary(&s).multi_actions, 1);
    }
}
