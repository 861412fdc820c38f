//! Systems under test **with data**: a child process or a TCP peer as an
//! [`Sut`](ioco_engine::sut::Sut) over gate values, for the symbolic engine (`ioco test` on a `.ioco` model
//! with infinite data, `ioco run` of a switch-coverage suite).
//!
//! [`DataAdapter`] reuses the label-level adapters of [`crate::adapter`] for everything that is
//! not about values: process groups killed on reset, error and drop; line-length and flood
//! caps; the quiescence marker (`--quiescence-marker`) and the time-out; stderr capture;
//! TCP client and server; reset by restart, reconnection or a reset line. It adds the values.
//!
//! ## Wire format with data
//! * **Lines** (default): `gate arg1 arg2 …`, one action per line, both ways; the gate is the
//!   gate name of the spec (or its wire string from a `--map` file); values are written as in
//!   labels ([`ioco_lang::ir::Value::display`]): `120`, `-3`, `true`, `Red`, `Plus(1,2)`,
//!   `"N22s"` (strings in double quotes with `\"`, `\\`, `\n`, `\t`, `\r`, `\u{hex}`
//!   escapes), no spaces inside a value outside strings. Example: tester → SUT `water 120`;
//!   SUT → tester `coffee 100`; `greet "Ann Lee"`.
//! * **JSON lines** (`--json-lines`): `{"label":"water","args":[120]}` both ways; integers are
//!   JSON numbers, booleans JSON booleans, strings JSON strings (`"Ann Lee"`), values of data
//!   types strings in the label syntax (`"Plus(1,2)"`, `"Person(Male,\"Ann\",1,1)"`). `args` may be left out for gates without parameters.
//! * **Multi-labels** (`@sync`, the composite gates of
//!   [`ioco_symbolic::system::visible_gates`]): plain lines are the parts, in gate order,
//!   joined by ` | `, each a gate and its values (`a 0 | b 3`; read in any order, blanks
//!   around `|` optional); JSON lines one record whose label is the gates joined by `|` and
//!   whose `args` are the values of all of them in order (`{"label":"a|b","args":[0,3]}`).
//!   The explicit engine writes and reads the same ([`crate::adapter::wire`]).
//! * Quiescence, the marker line, reset lines and the race rule are those of
//!   [`crate::adapter::wire`].
//!
//! An output line whose gate is not an output of the spec, or whose values do not parse or
//! have the wrong number or sort, is an output the spec does not allow (Fail; it is reported
//! as [`SutError::UnknownOutput`] with the line). Bytes that are not a line of text are an Error. A
//! system that exits is judged by the exit rule of [`crate::engine::rules`].

use crate::adapter::process::{ProcessAdapter, ProcessConfig};
use crate::adapter::tcp::{TcpAdapter, TcpConfig};
use crate::adapter::wire::{Format, WireConfig};
use crate::adapter::{Observation, Sent, Sut, SutError};
use ioco_lang::ir::{Direction, Gate, Spec, Type, Value};
use ioco_model::{Alphabet, Label};
use ioco_symbolic::online::{parse_value, GateValue};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// Where the system under test is.
#[derive(Clone, Debug)]
pub enum DataTarget {
    /// A child process.
    Process(ProcessConfig),
    /// A TCP peer (client or server mode).
    Tcp(TcpConfig),
}

impl DataTarget {
    fn wire(&self) -> &WireConfig {
        match self {
            DataTarget::Process(c) => &c.wire,
            DataTarget::Tcp(c) => &c.wire,
        }
    }
}

enum Inner {
    Process(ProcessAdapter),
    Tcp(TcpAdapter),
}

impl Inner {
    fn adapter(&mut self) -> &mut dyn Sut {
        match self {
            Inner::Process(a) => a,
            Inner::Tcp(a) => a,
        }
    }

    fn send_line(&mut self, line: &[u8]) -> Result<Sent, SutError> {
        match self {
            Inner::Process(a) => a.send_line(line),
            Inner::Tcp(a) => a.send_line(line),
        }
    }

    fn last_line(&self) -> &[u8] {
        match self {
            Inner::Process(a) => a.last_line(),
            Inner::Tcp(a) => a.last_line(),
        }
    }
}

/// The alphabet of a spec's gates (names without values): what the label-level wire sees. The
/// multi-labels of `@sync` are gates too (`A|B`, [`ioco_symbolic::system::visible_gates`]).
pub fn gate_alphabet(spec: &Spec) -> Result<Alphabet, String> {
    let mut a = Alphabet::new();
    for g in &ioco_symbolic::system::visible_gates(spec)? {
        let r = match g.dir {
            Direction::Input => a.input(&g.name),
            Direction::Output => a.output(&g.name),
        };
        r.map_err(|e| format!("gate `{}`: {e:?}", g.name))?;
    }
    Ok(a)
}

/// A process or TCP system under test speaking gate values (see the module documentation).
pub struct DataAdapter {
    inner: Inner,
    spec: Arc<Spec>,
    alphabet: Alphabet,
    format: Format,
    /// The visible gates, with the composite gates of `@sync`.
    gates: Vec<Gate>,
    /// Wire string of each gate (of a composite gate: its members', joined by `|`).
    wire_name: HashMap<String, String>,
    /// The gate of each wire string of a single gate.
    gate_of_wire: HashMap<String, String>,
    /// How long to wait for an output before concluding quiescence.
    pub timeout: Duration,
}

impl DataAdapter {
    /// An adapter for `spec`'s gates. Errors: a mapping entry that names no gate, a TCP port
    /// that cannot be bound.
    pub fn new(spec: Arc<Spec>, target: DataTarget) -> Result<DataAdapter, String> {
        let alphabet = gate_alphabet(&spec)?;
        let gates = ioco_symbolic::system::visible_gates(&spec)?;
        let wire = target.wire().clone();
        let mut wire_name = HashMap::new();
        let mut gate_of_wire = HashMap::new();
        for g in &spec.gates {
            let mapped =
                wire.mapping.0.iter().find_map(|(k, v)| {
                    (k.trim_end_matches(['?', '!']) == g.name).then(|| v.clone())
                });
            let w = mapped.unwrap_or_else(|| g.name.clone());
            gate_of_wire.insert(w.clone(), g.name.clone());
            wire_name.insert(g.name.clone(), w);
        }
        // a multi-label's wire string: its gates' (`A|B` on JSON lines)
        let mut extra = Vec::new();
        for g in &gates[spec.gates.len()..] {
            let w: Vec<&str> = g
                .name
                .split('|')
                .map(|m| wire_name.get(m).map_or(m, String::as_str))
                .collect();
            let w = w.join("|");
            if w != g.name {
                extra.push((g.name.clone(), w.clone()));
            }
            wire_name.insert(g.name.clone(), w);
        }
        let with_multi = |mut cfg: WireConfig| {
            cfg.values = true;
            cfg.mapping.0.extend(extra.iter().cloned());
            cfg
        };
        let inner = match target {
            DataTarget::Process(mut cfg) => {
                cfg.wire = with_multi(cfg.wire);
                Inner::Process(ProcessAdapter::new(&alphabet, cfg).map_err(|e| e.to_string())?)
            }
            DataTarget::Tcp(mut cfg) => {
                cfg.wire = with_multi(cfg.wire);
                Inner::Tcp(TcpAdapter::new(&alphabet, cfg).map_err(|e| e.to_string())?)
            }
        };
        Ok(DataAdapter {
            inner,
            spec,
            alphabet,
            format: wire.format,
            gates,
            wire_name,
            gate_of_wire,
            timeout: Duration::from_millis(200),
        })
    }

    /// The local address listened on (a TCP target in server mode), e.g. to learn an
    /// ephemeral port.
    pub fn local_addr(&self) -> Option<std::net::SocketAddr> {
        match &self.inner {
            Inner::Tcp(a) => a.local_addr(),
            Inner::Process(_) => None,
        }
    }

    /// The line (with `\n`) that gives `gate` with `args`; a multi-label (`A|B`) is its parts
    /// joined by ` | `, each a gate and its values (`A 1 | B 2 3`), on JSON lines the label
    /// `A|B` with all the values.
    pub fn encode(&self, gate: &str, args: &[Value]) -> Vec<u8> {
        let defs = &self.spec.defs;
        let name = self.wire_name.get(gate).map(String::as_str).unwrap_or(gate);
        let mut s = match self.format {
            Format::Lines => {
                // the parts of a multi-label, each with its gate's parameters
                // a multi-label: each member's wire name with its values (a wire name may
                // hold a `|` of its own: the members are the model's gates)
                let members: Option<Vec<(&str, usize)>> = gate
                    .split('|')
                    .map(|m| {
                        let g = self.spec.gates.iter().find(|g| g.name == m)?;
                        let w = self.wire_name.get(m).map_or(m, String::as_str);
                        Some((w, g.params.len()))
                    })
                    .collect();
                let members = members
                    .filter(|a| a.len() > 1 && a.iter().map(|m| m.1).sum::<usize>() == args.len())
                    .unwrap_or_else(|| vec![(name, args.len())]);
                let mut parts = Vec::new();
                let mut at = 0;
                for (w, k) in members {
                    let mut s = w.to_string();
                    for a in &args[at..at + k] {
                        s.push(' ');
                        s.push_str(&a.display(defs).to_string());
                    }
                    at += k;
                    parts.push(s);
                }
                parts.join(" | ")
            }
            Format::JsonLines => {
                let args: Vec<serde_json::Value> = args
                    .iter()
                    .map(|v| match v {
                        Value::Int(i) => serde_json::Value::from(*i),
                        Value::Bool(b) => serde_json::Value::from(*b),
                        Value::Str(s) => serde_json::Value::from(&**s),
                        other => serde_json::Value::from(other.display(defs).to_string()),
                    })
                    .collect();
                serde_json::json!({"label": name, "args": args}).to_string()
            }
        };
        s.push('\n');
        s.into_bytes()
    }

    /// Reads the values of an output line whose gate the label-level wire decoded as `l`.
    ///
    /// A line that is not a value of the gate's types is [`SutError::UnknownOutput`] (a Fail). An
    /// integer beyond the 64-bit range ioco computes with, for a parameter of the unbounded
    /// type `int`, may well be allowed by the specification: it cannot be judged, so it is an
    /// error ([`SutError::Broken`]), never a Fail.
    pub fn decode(&self, l: Label, line: &[u8]) -> Result<Observation<GateValue>, SutError> {
        let text = String::from_utf8_lossy(line);
        let text = text.trim_end_matches('\r');
        let observed = self.decode_text(l, text);
        if observed.is_err() {
            if let Some(w) = self.too_big(l, text) {
                return Err(SutError::Broken(format!(
                    "the SUT wrote `{text}`: {w} is beyond the 64-bit integers ioco computes \
                     with, so it cannot be judged (hint: keep the values within ±{}, or give \
                     the gate a bounded type such as int[0..1000])",
                    i64::MAX
                )));
            }
        }
        observed
            .map(Observation::Output)
            .map_err(|line| SutError::UnknownOutput { line })
    }

    /// The words of an output line (its values, in the label syntax), or why there are none.
    fn words(&self, text: &str) -> Result<Vec<String>, String> {
        match self.format {
            Format::Lines => Ok(crate::adapter::wire::split_words(text)
                .into_iter()
                .skip(1)
                .map(String::from)
                .collect()),
            Format::JsonLines => json_args(text),
        }
    }

    /// The gate of an output line whose first gate the label-level wire decoded as `l`, and
    /// its values as text. A plain line with several parts (`A 1 | B 2`) is a multi-label:
    /// its gates, sorted, joined by `|` (the parts in any order), the values in that order.
    fn gate_words(&self, l: Label, text: &str) -> Result<(String, Vec<String>), String> {
        // (only with `@sync`: without it a `|` may be part of a mapped gate's wire name)
        if self.format == Format::Lines && self.gates.len() > self.spec.gates.len() {
            let parts = crate::adapter::wire::split_multi(text);
            if parts.len() > 1 {
                let mut named: Vec<(String, Vec<String>)> = Vec::new();
                for p in parts {
                    let mut w = crate::adapter::wire::split_words(p).into_iter();
                    let wire = w.next().unwrap_or_default();
                    let Some(g) = self.gate_of_wire.get(wire) else {
                        return Err(format!("`{wire}` is not a gate of the spec"));
                    };
                    named.push((g.clone(), w.map(String::from).collect()));
                }
                named.sort_by(|a, b| a.0.cmp(&b.0));
                let gates: Vec<&str> = named.iter().map(|n| n.0.as_str()).collect();
                let gate = gates.join("|");
                return Ok((gate, named.into_iter().flat_map(|n| n.1).collect()));
            }
        }
        Ok((self.alphabet.name(l).to_string(), self.words(text)?))
    }

    /// The first value of the line that is an integer literal out of the 64-bit range where
    /// the gate has a parameter of type `int`.
    fn too_big(&self, l: Label, text: &str) -> Option<String> {
        let (gate, words) = self.gate_words(l, text).ok()?;
        let decl = self
            .gates
            .iter()
            .find(|g| g.name == gate && g.dir == Direction::Output)?;
        decl.params.iter().zip(words).find_map(|((_, ty), w)| {
            let digits = w.strip_prefix('-').unwrap_or(&w);
            let literal = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
            (matches!(ty, Type::Int) && literal && w.parse::<i64>().is_err()).then_some(w)
        })
    }

    fn decode_text(&self, l: Label, text: &str) -> Result<GateValue, String> {
        let (gate, words) = match self.gate_words(l, text) {
            Ok(w) => w,
            Err(e) => return Err(format!("`{text}`: {e}")),
        };
        let Some(decl) = self
            .gates
            .iter()
            .find(|g| g.name == gate && g.dir == Direction::Output)
        else {
            return Err(format!("`{text}` is not an output gate of the spec"));
        };
        if words.len() != decl.params.len() {
            return Err(format!(
                "`{text}`: `{gate}` takes {} value(s), the line has {}",
                decl.params.len(),
                words.len()
            ));
        }
        // JSON lines: a string parameter is a JSON string holding the string itself
        let json: Vec<serde_json::Value> = match self.format {
            Format::JsonLines => serde_json::from_str::<serde_json::Value>(text)
                .ok()
                .and_then(|v| v.get("args").and_then(|a| a.as_array()).cloned())
                .unwrap_or_default(),
            Format::Lines => Vec::new(),
        };
        let mut vals = Vec::new();
        for (k, ((_, ty), w)) in decl.params.iter().zip(&words).enumerate() {
            if let (Type::Str(..), Some(j)) = (ty, json.get(k)) {
                let Some(s) = j.as_str() else {
                    return Err(format!("`{text}`: {j} is not a JSON string"));
                };
                let v = Value::Str(s.into());
                if !ioco_symbolic::term::value_in_type(&self.spec.defs, *ty, &v) {
                    return Err(format!(
                        "`{text}`: {} is not a value of {}",
                        v.display(&self.spec.defs),
                        self.spec.defs.type_name(*ty)
                    ));
                }
                vals.push(v);
                continue;
            }
            match parse_value(&self.spec.defs, *ty, w) {
                Ok(v) => vals.push(v),
                Err(e) => return Err(format!("`{text}`: {e}")),
            }
        }
        Ok((gate, vals))
    }

    fn error(e: SutError) -> SutError {
        match e {
            SutError::Exited { status } => SutError::Exited { status },
            other => SutError::Broken(other.to_string()),
        }
    }
}

/// The `args` of a JSON-lines record, each as text in the label syntax.
fn json_args(text: &str) -> Result<Vec<String>, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON ({e})"))?;
    let args = match v.get("args") {
        None | Some(serde_json::Value::Null) => return Ok(Vec::new()),
        Some(serde_json::Value::Array(a)) => a,
        Some(_) => return Err("`args` is not an array".into()),
    };
    args.iter()
        .map(|a| match a {
            // an integer beyond i64 arrives as a float: written out in full, so that it is
            // recognised as an integer out of range (see `DataAdapter::decode`)
            serde_json::Value::Number(n) => Ok(match n.as_f64() {
                Some(f)
                    if n.as_i64().is_none() && f.fract() == 0.0 && f.abs() >= i64::MAX as f64 =>
                {
                    format!("{f:.0}")
                }
                _ => n.to_string(),
            }),
            serde_json::Value::Bool(b) => Ok(b.to_string()),
            serde_json::Value::String(s) => Ok(s.clone()),
            other => Err(format!(
                "argument {other} is not a number, boolean or string"
            )),
        })
        .collect()
}

impl Sut<GateValue> for DataAdapter {
    fn reset(&mut self) -> Result<(), SutError> {
        self.inner.adapter().reset().map_err(DataAdapter::error)
    }

    fn send(&mut self, input: GateValue) -> Result<Sent<GateValue>, SutError> {
        let (gate, args) = (input.0.as_str(), &input.1[..]);
        let line = self.encode(gate, args);
        match self.inner.send_line(&line) {
            Ok(Sent::Accepted) => Ok(Sent::Accepted),
            Ok(Sent::Raced(l)) => match self.decode(l, self.inner.last_line())? {
                Observation::Output(x) => Ok(Sent::Raced(x)),
                Observation::Quiescent => unreachable!("a line is not quiescence"),
            },
            Err(SutError::UnknownOutput { line }) => Err(SutError::UnknownOutput {
                line: format!("`{line}` is not an output gate of the spec"),
            }),
            Err(e) => Err(DataAdapter::error(e)),
        }
    }

    fn observe(&mut self, timeout: Option<Duration>) -> Result<Observation<GateValue>, SutError> {
        if let Some(t) = timeout {
            self.timeout = t;
        }
        match self.inner.adapter().observe(Some(self.timeout)) {
            Ok(Observation::Quiescent) => Ok(Observation::Quiescent),
            Ok(Observation::Output(l)) => self.decode(l, self.inner.last_line()),
            Err(SutError::UnknownOutput { line }) => Err(SutError::UnknownOutput {
                line: format!("`{line}` is not an output gate of the spec"),
            }),
            Err(e) => Err(DataAdapter::error(e)),
        }
    }

    fn stderr_tail(&mut self) -> Option<String> {
        self.inner.adapter().stderr_tail()
    }

    fn settle_timeout(&mut self, timeout: Duration) {
        self.inner.adapter().settle_timeout(timeout)
    }

    fn expect_quiet(&mut self, quiet: bool) {
        self.inner.adapter().expect_quiet(quiet)
    }

    fn established(&mut self) -> [u32; 4] {
        self.inner.adapter().established()
    }

    fn close(&mut self) -> Result<(), SutError> {
        self.inner.adapter().close()
    }
}

impl Drop for DataAdapter {
    fn drop(&mut self) {
        let _ = self.inner.adapter().close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::symbolic::run_online;
    use crate::{OnlineOptions, RunResult, RunVerdict};
    use ioco_lang::regex::Regex;
    use ioco_symbolic::SymbolicSpec;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::path::PathBuf;

    fn tap19() -> Arc<Spec> {
        let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../ioco-symbolic/tests/models/tap19.ioco");
        Arc::new(
            ioco_lang::parse_file(&p)
                .expect("tap19.ioco")
                .entry()
                .unwrap()
                .clone(),
        )
    }

    fn adapter(mode: &str, format: Format) -> DataAdapter {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../ioco-symbolic/tests/suts/tap19.sh")
            .display()
            .to_string();
        let mut cfg =
            ProcessConfig::from_command_line(&format!("/bin/sh {script} {mode}")).unwrap();
        cfg.wire.format = format;
        let mut a = DataAdapter::new(tap19(), DataTarget::Process(cfg)).unwrap();
        // generous: a slow machine must not turn a late output into quiescence
        a.timeout = Duration::from_millis(400);
        a
    }

    fn greeter(mode: &str, format: Format) -> DataAdapter {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let spec = ioco_lang::parse_file(root.join("../../examples/torxakis/lucky-people.ioco"))
            .expect("lucky-people.ioco")
            .spec("Greeter")
            .unwrap()
            .clone();
        let script = root.join("../ioco-symbolic/tests/suts/greeter.sh");
        let mut cfg =
            ProcessConfig::from_command_line(&format!("/bin/sh {} {mode}", script.display()))
                .unwrap();
        cfg.wire.format = format;
        let mut a = DataAdapter::new(Arc::new(spec), DataTarget::Process(cfg)).unwrap();
        a.timeout = Duration::from_millis(400);
        a
    }

    #[test]
    fn strings_go_to_a_process_and_come_back() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let spec = Arc::new(
            ioco_lang::parse_file(root.join("../../examples/torxakis/lucky-people.ioco"))
                .unwrap()
                .spec("Greeter")
                .unwrap()
                .clone(),
        );
        let opts = OnlineOptions {
            depth: 10,
            observe: 0.4,
            // the adapter's own (generous: a slow machine must not turn a late output into
            // quiescence)
            quiescence_timeout: Duration::from_millis(400),
            ..OnlineOptions::default()
        };
        let mut t = SymbolicSpec::with_z3(spec.clone()).unwrap();
        let mut sut = greeter("correct", Format::Lines);
        let r = run_online(&mut t, &mut sut, &opts, &mut ChaCha8Rng::seed_from_u64(7));
        assert_eq!(r.verdict, RunVerdict::Pass, "{:?}", r.trace);
        // the names sent are real names: `Hello?("Xyz")`, answered by the greeting
        let hello = Regex::parse(r#"Hello\?\("[A-Z][a-z]{0,7}"\)"#).unwrap();
        let sent: Vec<&str> = r.trace.iter().filter(|l| l.starts_with("Hello?")).collect();
        assert!(!sent.is_empty(), "{:?}", r.trace);
        for l in &sent {
            assert!(hello.is_match(l), "{l} in {:?}", r.trace);
        }
        assert!(
            r.trace.iter().any(|l| l.starts_with("Reply!(Greeting(\"")),
            "{:?}",
            r.trace
        );
        let mut t = SymbolicSpec::with_z3(spec).unwrap();
        let mut sut = greeter("nocomma", Format::Lines);
        let r = run_online(&mut t, &mut sut, &opts, &mut ChaCha8Rng::seed_from_u64(7));
        assert!(r.verdict == RunVerdict::Fail, "{r:?}");
        assert!(r.observed().unwrap().contains("\"Hello "), "{r:?}");
    }

    fn run(mode: &str, seed: u64) -> RunResult {
        let mut t = SymbolicSpec::with_z3(tap19()).unwrap();
        let mut sut = adapter(mode, Format::Lines);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let opts = OnlineOptions {
            depth: 14,
            observe: 0.4,
            // the adapter's own (generous: a slow machine must not turn a late output into
            // quiescence)
            quiescence_timeout: Duration::from_millis(400),
            ..OnlineOptions::default()
        };
        run_online(&mut t, &mut sut, &opts, &mut rng)
    }

    #[test]
    fn a_process_with_data_passes_or_fails_with_the_right_reason() {
        let r = run("correct", 4);
        assert_eq!(r.verdict, RunVerdict::Pass, "{:?}", r.trace);
        assert!(r.trace.iter().any(|l| l.starts_with("outX!(")), "{:?}", r);
        let r = run("plus1", 4);
        assert!(r.verdict == RunVerdict::Fail, "{:?}", r);
        assert!(r.observed().unwrap().starts_with("outX!("), "{r:?}");
        assert!(r.allowed().iter().any(|a| a.contains("outX!")), "{r:?}");
        let r = run("garbage", 4);
        match r.verdict {
            RunVerdict::Fail => assert!(r.why().contains("malformed"), "{}", r.why()),
            other => panic!("{:?}", other),
        }
        // exit 3 right after an input, where the spec requires outX!: Fail by the exit rule
        let r = run("crash", 4);
        match r.verdict {
            RunVerdict::Fail => assert!(r.why().contains("exited with status 3"), "{}", r.why()),
            other => panic!("{:?}", other),
        }
        assert_eq!(r.observed(), Some("exit"));
    }

    #[test]
    fn lines_and_json_lines_encode_and_decode_values() {
        let a = adapter("correct", Format::Lines);
        assert_eq!(a.encode("inX", &[Value::Int(-5)]), b"inX -5\n");
        let out = a.alphabet.lookup("outX").unwrap();
        assert_eq!(
            a.decode(out, b"outX 7\r"),
            Ok(Observation::Output(("outX".into(), vec![Value::Int(7)])))
        );
        assert!(matches!(
            a.decode(out, b"outX"),
            Err(SutError::UnknownOutput { .. })
        ));
        assert!(matches!(
            a.decode(out, b"outX x"),
            Err(SutError::UnknownOutput { .. })
        ));
        let j = adapter("correct", Format::JsonLines);
        assert_eq!(
            j.encode("inX", &[Value::Int(3)]),
            b"{\"args\":[3],\"label\":\"inX\"}\n"
        );
        assert_eq!(
            j.decode(out, br#"{"label":"outX","args":[12]}"#),
            Ok(Observation::Output(("outX".into(), vec![Value::Int(12)])))
        );
        assert!(matches!(
            j.decode(out, br#"{"label":"outX","args":[true]}"#),
            Err(SutError::UnknownOutput { .. })
        ));
        // `outX(p: int)`: an integer beyond 64 bits may be allowed (int is unbounded) but
        // cannot be judged: an error, never a Fail; a non-integer is still malformed
        for (ad, line) in [
            (&a, &b"outX 99999999999999999999999"[..]),
            (&a, &b"outX -99999999999999999999999"[..]),
            (
                &j,
                &br#"{"label":"outX","args":[99999999999999999999999]}"#[..],
            ),
            (
                &j,
                &br#"{"label":"outX","args":[18446744073709551615]}"#[..],
            ),
        ] {
            match ad.decode(out, line) {
                Err(SutError::Broken(m)) => assert!(m.contains("beyond the 64-bit"), "{m}"),
                other => panic!("{}: {other:?}", String::from_utf8_lossy(line)),
            }
        }
        assert_eq!(
            a.decode(out, format!("outX {}", i64::MIN).as_bytes()),
            Ok(Observation::Output((
                "outX".into(),
                vec![Value::Int(i64::MIN)]
            )))
        );
        assert!(matches!(
            j.decode(out, br#"{"label":"outX","args":[1.5]}"#),
            Err(SutError::UnknownOutput { .. })
        ));
        // strings: quoted in the line format (blanks and commas inside), JSON strings in JSON
        // lines; a string nested in a data type is in the label syntax in both
        let g = greeter("correct", Format::Lines);
        assert_eq!(
            g.encode("Hello", &[Value::str("Ann Lee")]),
            b"Hello \"Ann Lee\"\n"
        );
        let reply = g.alphabet.lookup("Reply").unwrap();
        match g.decode(reply, br#"Reply Greeting("Ann","Hello, Ann!")"#) {
            Ok(Observation::Output((gate, v))) => {
                assert_eq!(gate, "Reply");
                assert_eq!(
                    v[0].display(&g.spec.defs).to_string(),
                    r#"Greeting("Ann","Hello, Ann!")"#
                );
            }
            other => panic!("{other:?}"),
        }
        // "ann" is not a `Name` (string[1..12] /[A-Z][a-z]*/)
        assert!(matches!(
            g.decode(reply, br#"Reply Greeting("ann","Hello, ann!")"#),
            Err(SutError::UnknownOutput { .. })
        ));
        let gj = greeter("correct", Format::JsonLines);
        assert_eq!(
            gj.encode("Hello", &[Value::str("A \"b\"")]),
            b"{\"args\":[\"A \\\"b\\\"\"],\"label\":\"Hello\"}\n"
        );
        match gj.decode(
            reply,
            br#"{"label":"Reply","args":["Greeting(\"Bo\",\"Hello, Bo!\")"]}"#,
        ) {
            Ok(Observation::Output((_, v))) => assert_eq!(
                v[0].display(&g.spec.defs).to_string(),
                r#"Greeting("Bo","Hello, Bo!")"#
            ),
            other => panic!("{other:?}"),
        }
        let mut bad = adapter("correct", Format::Lines);
        bad.inner = Inner::Process(
            ProcessAdapter::new(
                &bad.alphabet,
                ProcessConfig::from_command_line("/nonexistent/sut").unwrap(),
            )
            .unwrap(),
        );
        assert!(matches!(bad.reset(), Err(SutError::Broken(m)) if m.contains("/nonexistent")));
    }
}
