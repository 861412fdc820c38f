//! The wire format between the tester and a SUT (process or TCP), line based, UTF-8.
//!
//! * Tester → SUT: one input per line, the label name without `?` (`water`), optionally
//!   followed by space-separated arguments (models with data: `water 120`, see [`crate::data`]
//!   for the value syntax and JSON-lines arguments).
//! * SUT → tester: one output per line, the label name without `!` (`coffee`).
//! * Quiescence is observed by time-out, or immediately when the SUT prints the *quiescence
//!   marker* line (by convention `#quiet`, option `--quiescence-marker`) whenever it has
//!   finished reacting and waits for input. A marker is never an output; the time-out stays as a
//!   safety net (a time-out still counts as quiescence).
//! * JSON-lines mode ([`Format::JsonLines`]): `{"label":"coffee","args":[...]}` per line, both
//!   ways; a marker is the marker line itself or `{"label":"#quiet"}`.
//! * A multi-label of a data model (`A(1)|B(2)`, with [`WireConfig::gate_values`]) is its parts
//!   joined by ` | `, each a gate and its values (`A 1 | B 2`; an output's parts may come in
//!   any order), on JSON lines `{"label":"A|B","args":[1,2]}` — as the symbolic engine writes
//!   it ([`crate::data`]).
//! * A [`Mapping`] (a JSON object `{"model label": "wire string"}`) renames labels on the wire.
//! * Lines longer than [`WireConfig::max_line`] (default 64 KiB) are an error; the reader stops
//!   there, so a flood cannot grow memory without bound.
//!
//! The input/output race: with a marker, an input is only given once the SUT has printed its
//! marker since the last input (it has finished reacting); an output that comes first is
//! reported as [`super::Sent::Raced`], so the recorded order is the real one. Without a marker,
//! only outputs already received when the input is written race ahead; an output the SUT
//! produces while the input is in flight is recorded after the input. If the SUT may produce
//! outputs spontaneously while waiting for input, use a marker (or a quiescence time-out long
//! enough for it to settle).
//!
//! Decoding rules: a line that is valid UTF-8 but not a known output is
//! [`Decoded::Unknown`] (a Fail: an output the specification does not allow); invalid UTF-8
//! and, in JSON-lines mode, a line that is not a JSON object with a string `label`, are
//! [`Decoded::Malformed`] (an Error). A trailing `\r` is ignored.

use ioco_model::{Alphabet, Label, LabelKind};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Line format.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// One label name per line.
    #[default]
    Lines,
    /// One JSON object `{"label": ..., "args": [...]}` per line.
    JsonLines,
}

/// Renaming of model labels on the wire: model name (with or without `?`/`!`) → wire string.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Mapping(pub HashMap<String, String>);

impl Mapping {
    /// Parse a mapping file's text; errors give line and column.
    pub fn from_json(text: &str) -> Result<Mapping, String> {
        serde_json::from_str(text).map_err(|e| {
            format!(
                "{}:{}: {} (hint: a mapping is a JSON object {{\"coin\": \"COIN\", ...}})",
                e.line(),
                e.column(),
                e
            )
        })
    }
}

/// How lines look on the wire.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct WireConfig {
    /// Plain lines or JSON lines.
    pub format: Format,
    /// The quiescence marker line, if the SUT prints one.
    pub marker: Option<String>,
    /// Label renaming.
    pub mapping: Mapping,
    /// Longest accepted line, in bytes.
    pub max_line: usize,
    /// A plain line is a gate name followed by values (`water 120`): the label is its first
    /// word, and the values are checked by the data adapter. Otherwise (labels without
    /// values) the label is the whole line.
    pub values: bool,
    /// The labels are those of a data model translated to an LTS (`put(2)`, `pair(1,true)`):
    /// on the wire a label is its gate and values, as the symbolic engine writes them (`put 2`,
    /// `{"label":"put","args":[2]}`), so that both engines speak one format.
    pub gate_values: bool,
    /// The Mealy hypothesis: the system answers every input with exactly one output line and
    /// gives none at start-up, so after that line (and after a start) it waits for input:
    /// quiescence is established without waiting. A second output is then judged where the
    /// next input would have been given (a Fail where the model allows none), and no output
    /// within the time-out is quiescence where the model requires one (a Fail).
    pub mealy: bool,
}

impl Default for WireConfig {
    fn default() -> Self {
        WireConfig {
            format: Format::Lines,
            marker: None,
            mapping: Mapping::default(),
            max_line: 64 * 1024,
            values: false,
            gate_values: false,
            mealy: false,
        }
    }
}

/// A decoded line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Decoded {
    /// An output of the model.
    Output(Label),
    /// The quiescence marker.
    Marker,
    /// Text that is not an output of the model.
    Unknown(String),
    /// Not a line of text (or not JSON in JSON-lines mode).
    Malformed(String),
}

/// Encoder/decoder for one alphabet and one [`WireConfig`].
#[derive(Clone, Debug)]
pub struct Codec {
    format: Format,
    marker: Option<String>,
    /// Wire string of each input label (by label index).
    inputs: Vec<Option<String>>,
    /// Output label of each wire string (hashed with FxHash: one look-up per output line).
    outputs: rustc_hash::FxHashMap<String, Label>,
    /// Longest accepted line.
    pub max_line: usize,
    /// See [`WireConfig::values`].
    values: bool,
    /// See [`WireConfig::gate_values`]: the output label of each (gate, values) on the wire.
    gate_outputs: Option<HashMap<(String, Vec<String>), Label>>,
    /// Some output is a multi-label (a plain line is then split at its `|`s).
    multi: bool,
    /// See [`WireConfig::mealy`].
    pub mealy: bool,
}

/// The key of a gate value (or of a multi-label's parts) among the outputs: the gates joined
/// by `|` and their values in that order. On plain lines the parts are sorted by gate (a
/// multi-label is a set: `B 2 | A 1` is `A 1 | B 2`); JSON lines keep their order.
fn gate_key(mut parts: Vec<(String, Vec<String>)>, format: Format) -> (String, Vec<String>) {
    if format == Format::Lines {
        parts.sort();
    }
    let gates: Vec<&str> = parts.iter().map(|p| p.0.as_str()).collect();
    let gate = gates.join("|");
    (gate, parts.iter().flat_map(|p| p.1.clone()).collect())
}

pub use ioco_engine::trace::{split_args, split_multi};

/// `g(a,b)` → (`g`, [`a`, `b`]) (`g` → (`g`, [])).
pub fn split_gate(name: &str) -> (&str, Vec<&str>) {
    match name.find('(').filter(|_| name.ends_with(')')) {
        Some(open) => (&name[..open], split_args(&name[open + 1..name.len() - 1])),
        None => (name, Vec::new()),
    }
}

/// Splits a line into words at blanks outside double-quoted strings (`a "b c" d` → `a`,
/// `"b c"`, `d`); inside a string a backslash escapes the next character (`"a\"b"`).
///
/// Not [`ioco_engine::trace::split_top`] with a blank, on purpose: a wire line is words
/// separated by any run of blanks (spaces, tabs, a blank before or after), so words are never
/// empty, while `split_top` splits at every single separator and keeps empty parts (`f(a,,b)`
/// has an empty argument, not two). Parentheses do not group here: the wire format
/// allows no blank inside a value outside strings ([`crate::data`]), so `G("a b",1)` is one
/// word through its string alone.
pub fn split_words(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let (mut in_str, mut escaped) = (false, false);
    for (i, c) in text.char_indices() {
        if in_str {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push(&text[s..i]);
            }
        } else {
            start.get_or_insert(i);
            if c == '"' {
                in_str = true;
            }
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

impl Codec {
    /// The codec for `alphabet`. Errors name a mapping entry that is not a label.
    pub fn new(alphabet: &Alphabet, cfg: &WireConfig) -> Result<Codec, String> {
        let mut wire_of: HashMap<Label, String> = HashMap::new();
        for (k, v) in &cfg.mapping.0 {
            // `coin?` and `tea!` name one label; a bare name both the input and the output
            // of that name (inputs and outputs are two namespaces)
            let labels: Vec<Label> = if k.ends_with(['?', '!']) {
                alphabet.parse(k).into_iter().collect()
            } else {
                [LabelKind::Input, LabelKind::Output]
                    .into_iter()
                    .filter_map(|kind| alphabet.lookup_kind(k, kind))
                    .collect()
            };
            // with gate values, a key may name a gate (`water` of `water(100)`): it renames
            // the gate in every label (below)
            let gate = k.trim_end_matches(['?', '!']);
            let names_gate = || {
                alphabet.visible().any(|l| {
                    split_multi(alphabet.name(l))
                        .into_iter()
                        .any(|p| split_gate(p).0 == gate)
                })
            };
            if labels.is_empty() && cfg.gate_values && names_gate() {
                continue;
            }
            if labels.is_empty() {
                return Err(format!(
                    "the mapping names `{k}`, which is not a label of the model"
                ));
            }
            for l in labels {
                wire_of.insert(l, v.clone());
            }
        }
        let mut inputs = vec![None; alphabet.len()];
        let mut outputs = rustc_hash::FxHashMap::default();
        let mut gate_outputs = cfg.gate_values.then(HashMap::new);
        let mut multi = false;
        // with gate values, the mapping renames gates
        let gate_wire = |gate: &str| {
            cfg.mapping
                .0
                .iter()
                .find_map(|(k, v)| (k.trim_end_matches(['?', '!']) == gate).then(|| v.clone()))
                .unwrap_or_else(|| gate.to_string())
        };
        for l in alphabet.visible() {
            if let Some(g) = gate_outputs.as_mut() {
                // a multi-label (`A(1)|B(2)`) is its parts, each a gate with its values
                let parts: Vec<(String, Vec<String>)> = split_multi(alphabet.name(l))
                    .into_iter()
                    .map(|p| {
                        let (gate, args) = split_gate(p);
                        (
                            gate_wire(gate),
                            args.iter().map(|a| a.to_string()).collect(),
                        )
                    })
                    .collect();
                if alphabet.is_input(l) {
                    let w: Vec<String> = parts
                        .iter()
                        .map(|(gate, args)| {
                            let mut w = gate.clone();
                            for a in args {
                                w.push(' ');
                                w.push_str(a);
                            }
                            w
                        })
                        .collect();
                    inputs[l.index()] = Some(w.join(" | "));
                } else {
                    multi |= parts.len() > 1;
                    g.insert(gate_key(parts, cfg.format), l);
                }
                continue;
            }
            let w = wire_of
                .get(&l)
                .cloned()
                .unwrap_or_else(|| alphabet.name(l).to_string());
            if alphabet.is_input(l) {
                inputs[l.index()] = Some(w);
            } else if let Some(other) = outputs.insert(w.clone(), l) {
                return Err(format!(
                    "outputs `{}` and `{}` have the same wire string `{w}`",
                    alphabet.name(other),
                    alphabet.name(l)
                ));
            }
        }
        Ok(Codec {
            format: cfg.format,
            marker: cfg.marker.clone(),
            inputs,
            outputs,
            max_line: cfg.max_line,
            values: cfg.values,
            gate_outputs,
            multi,
            mealy: cfg.mealy,
        })
    }

    /// With gate values: the output of a line (`val 2`, `{"label":"val","args":[2]}`).
    fn decode_gate(&self, g: &HashMap<(String, Vec<String>), Label>, text: &str) -> Decoded {
        let (gate, args): (String, Vec<String>) = match self.format {
            Format::Lines => {
                // a multi-label: its parts, `A 1 | B 2` (only where the model has one: a
                // mapped gate's wire string may hold a `|`)
                let parts = if self.multi {
                    split_multi(text)
                } else {
                    vec![text]
                };
                let parts = parts
                    .into_iter()
                    .map(|p| {
                        let mut w = split_words(p).into_iter().map(String::from);
                        (w.next().unwrap_or_default(), w.collect())
                    })
                    .collect();
                gate_key(parts, Format::Lines)
            }
            Format::JsonLines => {
                let v: serde_json::Value = match serde_json::from_str(text) {
                    Ok(v) => v,
                    Err(e) => {
                        return Decoded::Malformed(format!(
                            "a line that is not JSON ({e}): {}",
                            shorten(text)
                        ))
                    }
                };
                let gate = v
                    .get("label")
                    .and_then(|l| l.as_str())
                    .unwrap_or_default()
                    .to_string();
                if self.marker.as_deref() == Some(gate.as_str()) {
                    return Decoded::Marker;
                }
                let args = match v.get("args") {
                    Some(serde_json::Value::Array(a)) => a
                        .iter()
                        .map(|a| match a {
                            serde_json::Value::String(s) => s.clone(),
                            other => other.to_string(),
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                (gate, args)
            }
        };
        match g.get(&(gate, args)) {
            Some(&l) => Decoded::Output(l),
            None => Decoded::Unknown(text.to_string()),
        }
    }

    /// True when a quiescence marker is configured.
    pub fn has_marker(&self) -> bool {
        self.marker.is_some()
    }

    /// The quiescence marker as a line (without `\n`; empty when there is none).
    pub(crate) fn marker_line(&self) -> Vec<u8> {
        self.marker.clone().unwrap_or_default().into_bytes()
    }

    /// The line (with `\n`) that gives input `l` with `args`.
    pub fn encode(&self, l: Label, args: &[String]) -> Result<Vec<u8>, String> {
        let name = self
            .inputs
            .get(l.index())
            .and_then(|x| x.as_deref())
            .ok_or_else(|| format!("label #{} is not an input", l.0))?;
        let mut s = match self.format {
            Format::Lines => {
                let mut s = String::with_capacity(name.len() + 1);
                s.push_str(name);
                for a in args {
                    s.push(' ');
                    s.push_str(a);
                }
                s
            }
            Format::JsonLines if self.gate_outputs.is_some() => {
                // `name` is `gate v1 v2` (a multi-label `A v1 | B v2`: the label `A|B` with
                // all values): integers and booleans as JSON numbers and booleans
                let mut gates = Vec::new();
                let mut words = Vec::new();
                for p in split_multi(name) {
                    let mut w = split_words(p).into_iter();
                    gates.push(w.next().unwrap_or_default());
                    words.extend(w);
                }
                let gate = gates.join("|");
                let values: Vec<serde_json::Value> = words
                    .into_iter()
                    .chain(args.iter().map(String::as_str))
                    .map(|w| {
                        if let Ok(i) = w.parse::<i64>() {
                            serde_json::Value::from(i)
                        } else if let Ok(b) = w.parse::<bool>() {
                            serde_json::Value::from(b)
                        } else {
                            serde_json::Value::from(w)
                        }
                    })
                    .collect();
                serde_json::json!({"label": gate, "args": values}).to_string()
            }
            Format::JsonLines => serde_json::json!({"label": name, "args": args}).to_string(),
        };
        s.push('\n');
        Ok(s.into_bytes())
    }

    /// Decode one line (without its `\n`).
    pub fn decode(&self, line: &[u8]) -> Decoded {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        // the marker first, by its bytes (the line after every reaction: no UTF-8 check)
        if self.marker.as_deref().map(str::as_bytes) == Some(line) {
            return Decoded::Marker;
        }
        let text = if line.is_ascii() {
            // SAFETY: ASCII is UTF-8 (the usual line, checked a word at a time, where
            // `from_utf8` costs a short line more than the rest of its decoding)
            unsafe { std::str::from_utf8_unchecked(line) }
        } else {
            match std::str::from_utf8(line) {
                Ok(t) => t,
                Err(e) => {
                    return Decoded::Malformed(format!(
                        "a line that is not valid UTF-8 ({e}): {}",
                        String::from_utf8_lossy(&line[..line.len().min(80)])
                    ))
                }
            }
        };
        if let Some(g) = &self.gate_outputs {
            return self.decode_gate(g, text);
        }
        let label = match self.format {
            // Labels without values: the whole line is the label (`ChangeCipherSpec &
            // Finished` is one output, and `ok not really` is not `ok`: cutting at the first
            // blank passed a wrong answer). Gates with values: the first word; the data
            // adapter then checks that the rest are exactly the gate's values.
            Format::Lines if self.values => text.split(' ').next().unwrap_or(""),
            Format::Lines => text,
            Format::JsonLines => {
                #[derive(Deserialize)]
                struct Rec {
                    label: String,
                }
                match serde_json::from_str::<Rec>(text) {
                    Ok(r) => {
                        if self.marker.as_deref() == Some(r.label.as_str()) {
                            return Decoded::Marker;
                        }
                        return match self.outputs.get(&r.label) {
                            Some(&l) => Decoded::Output(l),
                            None => Decoded::Unknown(r.label),
                        };
                    }
                    Err(e) => {
                        return Decoded::Malformed(format!(
                            "not a JSON record {{\"label\": ...}} ({e}): {}",
                            shorten(text)
                        ))
                    }
                }
            }
        };
        match self.outputs.get(label) {
            Some(&l) => Decoded::Output(l),
            None => Decoded::Unknown(text.to_string()),
        }
    }
}

/// At most 200 characters of `s`, for messages.
pub(crate) fn shorten(s: &str) -> String {
    if s.chars().count() <= 200 {
        s.to_string()
    } else {
        let t: String = s.chars().take(200).collect();
        format!("{t}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_strings_stay_whole() {
        assert_eq!(
            split_words(r#"greet "Ann Lee" 3 G("a b",1)"#),
            vec!["greet", r#""Ann Lee""#, "3", r#"G("a b",1)"#]
        );
        assert_eq!(
            split_words(r#"x "a \" b" "c"#),
            vec!["x", r#""a \" b""#, r#""c"#]
        );
        // blank runs, tabs and blanks at the ends make no empty word; a single separator
        // of the label syntax does make an empty part
        assert_eq!(split_words(" a\t b  c "), vec!["a", "b", "c"]);
        assert_eq!(split_args("a,,b"), vec!["a", "", "b"]);
        assert_eq!(
            split_args(r#""a,b", P("x)", 2), "\",""#),
            vec![r#""a,b""#, r#"P("x)", 2)"#, r#""\",""#]
        );
        let (g, args) = split_gate(r#"Reply(Greeting("Ann","Hello, Ann!"))"#);
        assert_eq!(
            (g, args),
            ("Reply", vec![r#"Greeting("Ann","Hello, Ann!")"#])
        );
    }

    fn alpha() -> Alphabet {
        let mut a = Alphabet::new();
        a.input("coin").unwrap();
        a.output("coffee").unwrap();
        a.output("tea").unwrap();
        a
    }

    #[test]
    fn lines_json_markers_and_mapping() {
        let a = alpha();
        let coin = a.lookup("coin").unwrap();
        let coffee = a.lookup("coffee").unwrap();
        let cfg = WireConfig {
            marker: Some("#quiet".into()),
            ..Default::default()
        };
        let c = Codec::new(&a, &cfg).unwrap();
        assert_eq!(c.encode(coin, &[]).unwrap(), b"coin\n");
        assert_eq!(c.encode(coin, &["5".into()]).unwrap(), b"coin 5\n");
        assert_eq!(c.decode(b"coffee\r"), Decoded::Output(coffee));
        assert_eq!(c.decode(b"#quiet"), Decoded::Marker);
        assert_eq!(c.decode(b"cofee"), Decoded::Unknown("cofee".into()));
        assert!(matches!(c.decode(b"\xff\xfe"), Decoded::Malformed(_)));
        assert!(c.encode(coffee, &[]).is_err());

        let json = WireConfig {
            format: Format::JsonLines,
            marker: Some("#quiet".into()),
            mapping: Mapping::from_json(r#"{"coffee!": "COFFEE"}"#).unwrap(),
            ..Default::default()
        };
        let c = Codec::new(&a, &json).unwrap();
        assert_eq!(
            c.encode(coin, &[]).unwrap(),
            b"{\"args\":[],\"label\":\"coin\"}\n"
        );
        assert_eq!(
            c.decode(br#"{"label":"COFFEE","args":[1]}"#),
            Decoded::Output(coffee)
        );
        assert_eq!(c.decode(br##"{"label":"#quiet"}"##), Decoded::Marker);
        assert_eq!(
            c.decode(br#"{"label":"coffee"}"#),
            Decoded::Unknown("coffee".into())
        );
        assert!(matches!(c.decode(b"coffee"), Decoded::Malformed(_)));
        let bad = WireConfig {
            mapping: Mapping::from_json(r#"{"milk": "M"}"#).unwrap(),
            ..Default::default()
        };
        assert!(Codec::new(&a, &bad).unwrap_err().contains("milk"));
        assert!(Mapping::from_json("{").unwrap_err().starts_with("1:"));
    }

    #[test]
    fn multi_labels_are_their_parts_joined_by_a_bar() {
        let mut a = Alphabet::new();
        let ab = a.input("a(1)|b(2)").unwrap();
        let cd = a.output("c(3)|d(G(\"x|y\",1))").unwrap();
        let pq = a.output("POut|POut3").unwrap();
        let lines = WireConfig {
            gate_values: true,
            ..Default::default()
        };
        let c = Codec::new(&a, &lines).unwrap();
        assert_eq!(c.encode(ab, &[]).unwrap(), b"a 1 | b 2\n");
        for line in [
            r#"c 3 | d G("x|y",1)"#,
            r#"d G("x|y",1) | c 3"#,
            r#"c 3|d G("x|y",1)"#,
        ] {
            assert_eq!(c.decode(line.as_bytes()), Decoded::Output(cd), "{line}");
        }
        assert_eq!(c.decode(b"POut | POut3"), Decoded::Output(pq));
        assert_eq!(c.decode(b"POut|POut3"), Decoded::Output(pq));
        assert!(matches!(c.decode(b"c 3"), Decoded::Unknown(_)));
        assert!(matches!(c.decode(b"c 3 | d 1"), Decoded::Unknown(_)));
        let json = WireConfig {
            format: Format::JsonLines,
            ..lines
        };
        let c = Codec::new(&a, &json).unwrap();
        assert_eq!(
            c.encode(ab, &[]).unwrap(),
            b"{\"args\":[1,2],\"label\":\"a|b\"}\n"
        );
        assert_eq!(
            c.decode(br#"{"label":"c|d","args":[3,"G(\"x|y\",1)"]}"#),
            Decoded::Output(cd)
        );
        assert_eq!(c.decode(br#"{"label":"POut|POut3"}"#), Decoded::Output(pq));
    }

    proptest::proptest! {
        /// Any label a model can hold (blanks, unicode, `&`, parentheses, quotes) reaches the
        /// tester intact: an output printed as its name is that output, on plain lines and on
        /// JSON lines; an input is written as its name; the name with anything after it is
        /// not an allowed output.
        #[test]
        fn labels_round_trip(
            names in proptest::collection::vec("[^\\n\\r]{1,12}", 2..5),
            extra in " [a-z]{1,5}",
        ) {
            let mut a = Alphabet::new();
            let mut outs = Vec::new();
            let mut ins = Vec::new();
            for (k, n) in names.iter().enumerate() {
                if n.trim() != n || n == "#quiet" {
                    continue;
                }
                if k % 2 == 0 {
                    if let Ok(l) = a.output(n) { outs.push((n.clone(), l)); }
                } else if let Ok(l) = a.input(n) {
                    ins.push((n.clone(), l));
                }
            }
            for format in [Format::Lines, Format::JsonLines] {
                let cfg = WireConfig { format, marker: Some("#quiet".into()), ..Default::default() };
                let c = Codec::new(&a, &cfg).unwrap();
                for (n, l) in &outs {
                    let line = match format {
                        Format::Lines => n.clone(),
                        Format::JsonLines => serde_json::json!({"label": n}).to_string(),
                    };
                    proptest::prop_assert_eq!(c.decode(line.as_bytes()), Decoded::Output(*l));
                    let longer = format!("{n}{extra}");
                    if !outs.iter().any(|(m, _)| *m == longer) {
                        let line = match format {
                            Format::Lines => longer.clone(),
                            Format::JsonLines => serde_json::json!({"label": longer}).to_string(),
                        };
                        proptest::prop_assert!(
                            matches!(c.decode(line.as_bytes()), Decoded::Unknown(_)),
                            "{:?} decoded as an output", line
                        );
                    }
                }
                for (n, l) in &ins {
                    let line = c.encode(*l, &[]).unwrap();
                    let text = String::from_utf8(line).unwrap();
                    let text = text.trim_end_matches('\n');
                    match format {
                        Format::Lines => proptest::prop_assert_eq!(text, n.as_str()),
                        Format::JsonLines => {
                            let v: serde_json::Value = serde_json::from_str(text).unwrap();
                            proptest::prop_assert_eq!(v["label"].as_str(), Some(n.as_str()));
                        }
                    }
                }
            }
        }
    }
}
