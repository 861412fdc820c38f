//! A readable JSON format for LTSs (`ioco-lts/1`) and suspension automata (`ioco-suspension/1`).
//!
//! ```json
//! {
//!   "format": "ioco-lts/1",
//!   "inputs": ["coin"],
//!   "outputs": ["tea", "coffee"],
//!   "states": ["idle", "paid", "served"],
//!   "initial": ["idle"],
//!   "transitions": [
//!     ["idle", "coin?", "paid"],
//!     [1, "tea!", 2],
//!     ["served", "tau", "idle"]
//!   ]
//! }
//! ```
//!
//! | field | required | meaning |
//! |---|---|---|
//! | `format` | yes | `"ioco-lts/1"` (or `"ioco-suspension/1"`, read the same way) |
//! | `inputs`, `outputs` | no | label names (without `?`/`!`). Declaring a label that no transition uses matters: it is part of the alphabet (for input-enabledness and for outputs that must never occur) |
//! | `states` | yes | a number `N` (states `0..N`) or a list of distinct names |
//! | `initial` | yes | a list of states (at least one), or a single state |
//! | `transitions` | yes | a list of `[from, label, to]` |
//! | `name`, `comment`, `sets` | no | ignored by the reader (`sets`: the LTS states of each suspension state, written by [`write_suspension`]) |
//!
//! A state is referred to by its number or, when `states` is a list of names, by its name.
//! Labels follow [`crate::label`] (`a?`, `b!`, `tau`, `delta`); a label without a marker is
//! accepted when it is declared in `inputs` or `outputs`. Errors point at the offending value.
//! The writer puts one transition per line and refers to states by number.

use crate::error::{offset_of, FormatError};
use crate::label::{classify, written, Classified, UNMARKED_HINT};
use ioco_model::{Alphabet, Lts, LtsBuilder, SuspensionAutomaton};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::fmt::Write;

/// The format tag of an LTS file.
pub const LTS_FORMAT: &str = "ioco-lts/1";
/// The format tag of a suspension automaton file.
pub const SUSPENSION_FORMAT: &str = "ioco-suspension/1";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc<'a> {
    #[serde(borrow)]
    format: Option<&'a RawValue>,
    #[serde(default)]
    inputs: Vec<String>,
    #[serde(default)]
    outputs: Vec<String>,
    #[serde(borrow)]
    states: Option<&'a RawValue>,
    #[serde(borrow)]
    initial: Option<&'a RawValue>,
    #[serde(borrow)]
    transitions: Option<Vec<&'a RawValue>>,
    #[serde(borrow, default)]
    #[allow(dead_code)]
    name: Option<&'a RawValue>,
    #[serde(borrow, default)]
    #[allow(dead_code)]
    comment: Option<&'a RawValue>,
    #[serde(borrow, default)]
    #[allow(dead_code)]
    sets: Option<&'a RawValue>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum StateRef {
    Index(u64),
    Name(String),
}

struct Ctx<'a> {
    src: &'a str,
    file: &'a str,
}

impl<'a> Ctx<'a> {
    fn span(&self, raw: &RawValue) -> (usize, usize) {
        let a = raw.get().as_ptr() as usize - self.src.as_ptr() as usize;
        (a, a + raw.get().len())
    }

    fn err_at(&self, raw: &RawValue, msg: impl Into<String>) -> FormatError {
        let (a, z) = self.span(raw);
        FormatError::at(self.file, self.src, a, z, msg)
    }

    fn err_key(&self, key: &str, msg: impl Into<String>) -> FormatError {
        let needle = format!("\"{key}\"");
        let a = self.src.find(&needle).unwrap_or(0);
        FormatError::at(self.file, self.src, a, a + needle.len(), msg)
    }

    fn serde(&self, e: serde_json::Error) -> FormatError {
        let a = offset_of(self.src, e.line(), e.column());
        let a = a.min(self.src.len());
        let msg = e.to_string();
        // serde_json appends " at line L column C": the location is ours to print.
        let msg = msg
            .rsplit_once(" at line ")
            .map_or(msg.clone(), |(m, _)| m.to_string());
        FormatError::at(self.file, self.src, a, (a + 1).min(self.src.len()), msg)
    }
}

/// Read an `ioco-lts/1` (or `ioco-suspension/1`) document.
pub fn read_lts(src: &str, file: &str) -> Result<Lts, FormatError> {
    let cx = Ctx { src, file };
    let doc: Doc = serde_json::from_str(src).map_err(|e| {
        cx.serde(e).hint(
            "an ioco-lts/1 file is an object with `format`, `states`, `initial` and `transitions`",
        )
    })?;
    match doc.format {
        None => {
            return Err(
                FormatError::at(file, src, 0, src.len().min(1), "missing `format`")
                    .expected("`\"format\": \"ioco-lts/1\"`")
                    .hint("start the object with `\"format\": \"ioco-lts/1\"`"),
            )
        }
        Some(f) => {
            let v: Result<String, _> = serde_json::from_str(f.get());
            match v.as_deref() {
                Ok(LTS_FORMAT) | Ok(SUSPENSION_FORMAT) => {}
                _ => {
                    return Err(cx
                        .err_at(f, format!("unknown format {}", f.get()))
                        .expected(format!("\"{LTS_FORMAT}\""))
                        .hint("this reader knows ioco-lts/1 and ioco-suspension/1"))
                }
            }
        }
    }
    let mut alphabet = Alphabet::new();
    for n in &doc.inputs {
        alphabet
            .input(n)
            .map_err(|k| cx.err_key("inputs", k.to_string()))?;
    }
    for n in &doc.outputs {
        alphabet.output(n).map_err(|k| {
            cx.err_key("outputs", k.to_string())
                .hint("a name is an input or an output, not both")
        })?;
    }
    let states_raw = doc.states.ok_or_else(|| {
        cx.err_key("format", "missing `states`")
            .hint("add `\"states\": N` or a list of names")
    })?;
    let (n, names): (usize, Option<Vec<String>>) =
        match serde_json::from_str::<serde_json::Value>(states_raw.get()) {
            Ok(serde_json::Value::Number(k)) if k.as_u64().is_some() => {
                let k = k.as_u64().unwrap_or(0);
                if k == 0 || k > (src.len() as u64 * 4).max(1 << 20) {
                    return Err(cx
                        .err_at(states_raw, format!("implausible number of states: {k}"))
                        .hint("`states` is at least 1 and at most a few times the file size"));
                }
                (k as usize, None)
            }
            Ok(serde_json::Value::Array(v)) if v.iter().all(|x| x.is_string()) && !v.is_empty() => {
                let names: Vec<String> = v
                    .into_iter()
                    .map(|x| x.as_str().unwrap_or_default().to_string())
                    .collect();
                let mut seen = std::collections::HashSet::new();
                if let Some(d) = names.iter().find(|s| !seen.insert(s.as_str())) {
                    return Err(cx
                        .err_at(states_raw, format!("state name `{d}` is used twice"))
                        .hint("state names must be distinct"));
                }
                (names.len(), Some(names))
            }
            _ => {
                return Err(cx
                    .err_at(
                        states_raw,
                        "`states` must be a positive number or a non-empty list of names",
                    )
                    .expected("`3` or `[\"s0\", \"s1\"]`"))
            }
        };
    let index: rustc_hash::FxHashMap<&str, u32> = names
        .iter()
        .flatten()
        .enumerate()
        .map(|(i, s)| (s.as_str(), i as u32))
        .collect();
    let state = |raw: &RawValue, r: StateRef| -> Result<u32, FormatError> {
        match r {
            StateRef::Index(i) if (i as usize) < n => Ok(i as u32),
            StateRef::Index(i) => Err(cx
                .err_at(raw, format!("state {i} does not exist (there are {n} states)"))
                .hint("states are numbered from 0")),
            StateRef::Name(s) => index.get(s.as_str()).copied().ok_or_else(|| {
                cx.err_at(raw, format!("unknown state `{s}`"))
                    .hint(if names.is_some() {
                        "declare it in `states`"
                    } else {
                        "`states` is a number: refer to states by number, or make `states` a list of names"
                    })
            }),
        }
    };
    let mut b = LtsBuilder::new(alphabet);
    b.add_states(n);
    let init_raw = doc.initial.ok_or_else(|| {
        cx.err_key("format", "missing `initial`")
            .hint("add `\"initial\": [0]`")
    })?;
    let inits: Vec<&RawValue> = match serde_json::from_str::<Vec<&RawValue>>(init_raw.get()) {
        Ok(v) => v,
        Err(_) => vec![init_raw],
    };
    if inits.is_empty() {
        return Err(cx
            .err_at(init_raw, "no initial state")
            .expected("a list with at least one state"));
    }
    for raw in inits {
        let r: StateRef = serde_json::from_str(raw.get()).map_err(|_| {
            cx.err_at(raw, "expected a state (a number or a name)")
                .expected("a state")
        })?;
        b.add_initial(state(raw, r)?);
    }
    let trans = doc.transitions.ok_or_else(|| {
        cx.err_key("format", "missing `transitions`")
            .hint("add `\"transitions\": [[0, \"a?\", 1]]` (may be empty)")
    })?;
    b.reserve(trans.len());
    let mut cache: rustc_hash::FxHashMap<String, ioco_model::Label> = Default::default();
    for raw in trans {
        let parts: (&RawValue, &RawValue, &RawValue) =
            serde_json::from_str(raw.get()).map_err(|_| {
                cx.err_at(raw, "a transition is `[from, label, to]`")
                    .expected("`[0, \"a?\", 1]`")
            })?;
        let f = serde_json::from_str(parts.0.get())
            .map_err(|_| cx.err_at(parts.0, "expected a state").expected("a state"))?;
        let f = state(parts.0, f)?;
        let t = serde_json::from_str(parts.2.get())
            .map_err(|_| cx.err_at(parts.2, "expected a state").expected("a state"))?;
        let t = state(parts.2, t)?;
        let label: String = serde_json::from_str(parts.1.get()).map_err(|_| {
            cx.err_at(parts.1, "expected a label string")
                .expected("`\"a?\"`")
        })?;
        let l = match cache.get(&label) {
            Some(&l) => l,
            None => {
                let cl = classify(&label);
                let kn = match cl {
                    Classified::Unmarked(name) => b
                        .alphabet()
                        .lookup(name)
                        .map(|l| (b.alphabet().kind(l), name)),
                    _ => cl.kind_and_name(),
                };
                let Some((kind, name)) = kn else {
                    return Err(cx
                        .err_at(parts.1, format!("label {} has no direction", parts.1.get()))
                        .expected("`a?`, `b!`, `tau` or `delta`")
                        .hint(format!(
                            "{UNMARKED_HINT}; or declare the name in `inputs` or `outputs`"
                        )));
                };
                let l = b.alphabet_mut().intern(name, kind).map_err(|k| {
                    cx.err_at(parts.1, k.to_string())
                        .hint("a name is an input or an output, not both")
                })?;
                cache.insert(label, l);
                l
            }
        };
        b.add_transition(f, l, t);
    }
    if let Some(names) = names {
        b.set_state_names(names);
    }
    b.build()
        .map_err(|e| FormatError::file(file, e.to_string()))
}

fn js(s: &str) -> String {
    serde_json::to_string(s).expect("strings serialise")
}

fn write_doc(lts: &Lts, format: &str, sets: Option<&[Vec<u32>]>) -> String {
    let a = lts.alphabet();
    let list = |it: &mut dyn Iterator<Item = ioco_model::Label>| {
        it.map(|l| js(a.name(l))).collect::<Vec<_>>().join(", ")
    };
    let mut out = String::with_capacity(lts.num_transitions() * 24 + 128);
    let _ = writeln!(out, "{{\n  \"format\": \"{format}\",");
    let _ = writeln!(out, "  \"inputs\": [{}],", list(&mut a.inputs()));
    let _ = writeln!(out, "  \"outputs\": [{}],", list(&mut a.outputs()));
    match lts.state_names() {
        Some(names) => {
            let v: Vec<String> = names.iter().map(|s| js(s)).collect();
            let _ = writeln!(out, "  \"states\": [{}],", v.join(", "));
        }
        None => {
            let _ = writeln!(out, "  \"states\": {},", lts.num_states());
        }
    }
    let init: Vec<String> = lts.initial().iter().map(|s| s.to_string()).collect();
    let _ = writeln!(out, "  \"initial\": [{}],", init.join(", "));
    if let Some(sets) = sets {
        let v: Vec<String> = sets
            .iter()
            .map(|s| {
                format!(
                    "[{}]",
                    s.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
            .collect();
        let _ = writeln!(out, "  \"sets\": [{}],", v.join(", "));
    }
    out.push_str("  \"transitions\": [");
    let labels: Vec<String> = a.all().map(|l| js(&written(a, l))).collect();
    for (k, (s, l, t)) in lts.transitions().enumerate() {
        out.push_str(if k == 0 { "\n" } else { ",\n" });
        let _ = write!(out, "    [{s}, {}, {t}]", labels[l.index()]);
    }
    if lts.num_transitions() > 0 {
        out.push_str("\n  ");
    }
    out.push_str("]\n}\n");
    out
}

/// Write an LTS as `ioco-lts/1`.
pub fn write_lts(lts: &Lts) -> String {
    write_doc(lts, LTS_FORMAT, None)
}

/// Write a suspension automaton as `ioco-suspension/1`: its LTS (with explicit `delta`
/// transitions) plus `sets`, the LTS states each suspension state stands for.
pub fn write_suspension(sa: &SuspensionAutomaton) -> String {
    write_doc(&sa.lts, SUSPENSION_FORMAT, Some(&sa.sets))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ioco_model::LabelKind;

    const DOC: &str = r#"{
  "format": "ioco-lts/1",
  "inputs": ["coin"],
  "outputs": ["tea", "coffee"],
  "states": ["idle", "paid", "served"],
  "initial": ["idle"],
  "transitions": [
    ["idle", "coin?", "paid"],
    [1, "tea!", 2],
    ["served", "tau", "idle"]
  ]
}"#;

    #[test]
    fn reads_the_documented_example_and_round_trips() {
        let l = read_lts(DOC, "d.json").unwrap();
        assert_eq!(l.num_states(), 3);
        assert_eq!(l.num_transitions(), 3);
        assert_eq!(l.alphabet().outputs().count(), 2); // coffee is declared, never used
        let coin = l.alphabet().lookup("coin").unwrap();
        assert_eq!(l.alphabet().kind(coin), LabelKind::Input);
        let back = read_lts(&write_lts(&l), "w.json").unwrap();
        assert_eq!(back, l);
    }

    #[test]
    fn unmarked_declared_labels_and_errors_with_locations() {
        let src = r#"{"format":"ioco-lts/1","inputs":["a"],"states":2,"initial":0,
"transitions":[[0,"a",1],[1,"b",0]]}"#;
        let e = read_lts(src, "e.json").unwrap_err();
        assert_eq!((e.line, e.column), (2, 29));
        assert!(e.message.contains("no direction"));
        let e = read_lts(
            r#"{"format":"ioco-lts/1","states":2,"initial":[5],"transitions":[]}"#,
            "e.json",
        )
        .unwrap_err();
        assert!(e.message.contains("state 5 does not exist"), "{e}");
        assert_eq!(e.column, 46);
    }
}
