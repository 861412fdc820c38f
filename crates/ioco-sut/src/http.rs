//! An HTTP/JSON service as the system under test (`--http URL --map MAP.json`), for both
//! engines: an input gate value becomes a request, and the response becomes an output gate value
//! (or none), as the map says; the explicit engine reaches it through
//! [`super::labels::Labels`].
//!
//! The map (a JSON file, documented in `docs/http.md`):
//!
//! ```json
//! {
//!   "reset":   { "method": "POST", "path": "/reset" },
//!   "inputs":  { "Action": { "method": "POST", "path": "/compute" },
//!                "get":    { "method": "GET", "path": "/item/{id}" } },
//!   "outputs": [ { "gate": "Result", "status": 200, "args": ["/r"] },
//!                { "gate": "Error",  "status": [400, 422] },
//!                { "gate": null,     "status": 204 } ]
//! }
//! ```
//!
//! * **Input** `g(v1, …)`: the request of `inputs.g` (default: `POST /g`); `{p}` in the path is
//!   the value of parameter `p` (percent-encoded); a gate with parameters sends a JSON object of
//!   them by name as the body (`body: false` sends none). Values as JSON: `int` a number, `bool`
//!   a boolean, `string` a string, a constructor of a type with one constructor an object of its
//!   fields, of a type with several `{"Ctor": {fields}}` (a constructor without fields: `"Ctor"`).
//! * **Output**: the first rule of `outputs` whose `status` (a number or a list; any status when
//!   left out) and `when` (JSON pointers into the body and the values they must have) match the
//!   response; its `gate` is the output, its values read at the JSON pointers of `args` (default:
//!   each parameter's name at the top level of the body), converted to the parameter's type.
//!   `"gate": null` is a response that carries no output. A response that matches no rule
//!   (written `HTTP 404 {"error": …}`), or whose values are not of the gate's types, is a line
//!   that is no output of the model: Fail.
//! * **Quiescence** is established by the protocol: a service answers each request once, so after
//!   the response (and the output it carries) nothing can come without a new request; δ is
//!   recorded at once, and counted as established by a marker. A service that pushes outputs
//!   without a request is not an HTTP request/response service and cannot be tested this way.
//! * **Reset**: the request of `reset` before every run (a status other than 2xx is an error);
//!   without it the runs share the service's state, which is sound only for a stateless service.
//! * A service that cannot be reached, or does not answer within the quiescence time-out
//!   (`--timeout`), is an Error, never a Fail.

use ioco_lang::ir::{Defs, Direction, Spec, Type, Value};
use ioco_symbolic::online::{GateValue, Observation, Sent, Sut, SutError};
use ioco_symbolic::term::value_in_type;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

/// A request of the map.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// The HTTP method (default `POST`).
    #[serde(default)]
    pub method: Option<String>,
    /// The path after the base URL, with `{param}` placeholders (default `/GATE`).
    #[serde(default)]
    pub path: Option<String>,
    /// Whether the parameters go in a JSON body (default: when the gate has parameters).
    #[serde(default)]
    pub body: Option<bool>,
}

/// Statuses a rule matches.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Statuses {
    /// One status.
    One(u16),
    /// Any of these.
    Any(Vec<u16>),
}

/// An output rule of the map.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// The output gate; `None`: the response carries no output.
    pub gate: Option<String>,
    /// The statuses it matches (any when left out).
    #[serde(default)]
    pub status: Option<Statuses>,
    /// JSON pointers into the body and the values they must have.
    #[serde(default)]
    pub when: BTreeMap<String, Json>,
    /// JSON pointers to the gate's values (default: `/NAME` of each parameter).
    #[serde(default)]
    pub args: Option<Vec<String>>,
}

/// The map from gates to requests and from responses to gates.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HttpMap {
    /// The request that resets the service before each run.
    #[serde(default)]
    pub reset: Option<Request>,
    /// The request of each input gate (default `POST /GATE`).
    #[serde(default)]
    pub inputs: BTreeMap<String, Request>,
    /// The output rules, tried in order.
    #[serde(default)]
    pub outputs: Vec<Rule>,
}

impl HttpMap {
    /// Reads a map and checks it against `spec` ([`HttpMap::parse`], [`HttpMap::check`]).
    pub fn from_json(text: &str, spec: &Spec) -> Result<HttpMap, String> {
        let map = HttpMap::parse(text)?;
        map.check(spec)?;
        Ok(map)
    }

    /// Reads a map, not yet checked against a model.
    pub fn parse(text: &str) -> Result<HttpMap, String> {
        serde_json::from_str(text).map_err(|e| format!("not an HTTP map: {e}"))
    }

    /// Checks the map against `spec`: every gate it names is a gate of the right direction,
    /// every rule's `args` has one pointer per parameter.
    pub fn check(&self, spec: &Spec) -> Result<(), String> {
        let map = self;
        let gate = |name: &str, dir: Direction| {
            spec.gates
                .iter()
                .find(|g| g.name == name && g.dir == dir)
                .ok_or_else(|| {
                    let kind = if dir == Direction::Input {
                        "input"
                    } else {
                        "output"
                    };
                    format!("the map names `{name}`, which is no {kind} gate of the model")
                })
        };
        for name in map.inputs.keys() {
            gate(name, Direction::Input)?;
        }
        for r in &map.outputs {
            if let Some(name) = &r.gate {
                let g = gate(name, Direction::Output)?;
                if let Some(args) = &r.args {
                    if args.len() != g.params.len() {
                        return Err(format!(
                            "the rule for `{name}` reads {} value(s), but `{name}` has {}",
                            args.len(),
                            g.params.len()
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// A service over HTTP with JSON bodies.
pub struct HttpSut {
    base: String,
    map: HttpMap,
    spec: Arc<Spec>,
    timeout: Duration,
    agent: ureq::Agent,
    /// Responses not yet observed: an output, or why the response is none (a Fail).
    pending: VecDeque<Result<GateValue, String>>,
    quiet: u32,
}

impl HttpSut {
    /// The service at `base` (`http://127.0.0.1:8080`), talked to as `map` says.
    pub fn new(base: &str, map: HttpMap, spec: Arc<Spec>, timeout: Duration) -> HttpSut {
        HttpSut {
            base: base.trim_end_matches('/').to_string(),
            map,
            spec,
            timeout,
            agent: agent(timeout),
            pending: VecDeque::new(),
            quiet: 0,
        }
    }

    fn request(
        &self,
        req: Option<&Request>,
        gate: &str,
        body: Option<Json>,
    ) -> Result<(u16, String), SutError> {
        let method = req
            .and_then(|r| r.method.clone())
            .unwrap_or_else(|| "POST".into());
        let path = req
            .and_then(|r| r.path.clone())
            .unwrap_or_else(|| format!("/{gate}"));
        let url = format!("{}{}", self.base, path);
        let mut b = ureq::http::Request::builder()
            .method(method.to_ascii_uppercase().as_str())
            .uri(&url);
        let bytes = match body {
            Some(j) => {
                b = b.header("content-type", "application/json");
                j.to_string().into_bytes()
            }
            None => Vec::new(),
        };
        let request = b
            .body(bytes)
            .map_err(|e| SutError::Broken(format!("{method} {url}: {e}")))?;
        let mut resp = self
            .agent
            .run(request)
            .map_err(|e| SutError::Broken(format!("{method} {url}: {e}")))?;
        let status = resp.status().as_u16();
        let text = resp
            .body_mut()
            .read_to_string()
            .map_err(|e| SutError::Broken(format!("{method} {url}: reading the response: {e}")))?;
        Ok((status, text))
    }

    /// The output a response carries (none: `Ok(None)`), or why it is no output of the model.
    fn output(&self, status: u16, text: &str) -> Result<Option<(String, Vec<Value>)>, String> {
        let body: Json = if text.trim().is_empty() {
            Json::Null
        } else {
            serde_json::from_str(text).unwrap_or(Json::String(text.to_string()))
        };
        let shown = || format!("HTTP {status} {}", clip(text));
        for r in &self.map.outputs {
            let status_ok = match &r.status {
                None => true,
                Some(Statuses::One(s)) => *s == status,
                Some(Statuses::Any(v)) => v.contains(&status),
            };
            let when_ok = r.when.iter().all(|(p, v)| body.pointer(p) == Some(v));
            if !(status_ok && when_ok) {
                continue;
            }
            let Some(name) = &r.gate else {
                return Ok(None);
            };
            let g = self
                .spec
                .gates
                .iter()
                .find(|g| &g.name == name && g.dir == Direction::Output)
                .ok_or_else(|| format!("no output gate `{name}`"))?;
            let mut values = Vec::with_capacity(g.params.len());
            for (i, (p, ty)) in g.params.iter().enumerate() {
                let ptr = match &r.args {
                    Some(a) => a[i].clone(),
                    None => format!("/{p}"),
                };
                let j = body.pointer(&ptr).ok_or_else(|| {
                    format!(
                        "{}: `{name}` needs its value `{p}` at {ptr}, which is not there",
                        shown()
                    )
                })?;
                let v = from_json(&self.spec.defs, *ty, j).map_err(|e| {
                    format!("{}: the value `{p}` of `{name}` at {ptr}: {e}", shown())
                })?;
                values.push(v);
            }
            return Ok(Some((name.clone(), values)));
        }
        // no rule reads it: the response as the SUT's "line", which the tester names as no
        // output of the model
        Err(shown())
    }
}

fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(timeout))
        .build()
        .new_agent()
}

fn clip(text: &str) -> String {
    let t = text.trim();
    match t.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &t[..i]),
        None => t.to_string(),
    }
}

/// `v` (of type `ty`) as JSON.
pub fn to_json(defs: &Defs, ty: Type, v: &Value) -> Json {
    match (v, ty) {
        (Value::Bool(b), _) => Json::from(*b),
        (Value::Int(i), _) => Json::from(*i),
        (Value::Str(s), _) => Json::from(&**s),
        (Value::Adt(a, c, fields), _) => {
            let def = &defs.types[*a as usize];
            let ctor = &def.ctors[*c as usize];
            let obj: serde_json::Map<String, Json> = ctor
                .fields
                .iter()
                .zip(fields.iter())
                .map(|((name, fty), f)| (name.clone(), to_json(defs, *fty, f)))
                .collect();
            if def.ctors.len() == 1 {
                Json::Object(obj)
            } else if ctor.fields.is_empty() {
                Json::from(ctor.name.clone())
            } else {
                Json::Object(
                    [(ctor.name.clone(), Json::Object(obj))]
                        .into_iter()
                        .collect(),
                )
            }
        }
    }
}

/// The value of type `ty` that `j` writes (the inverse of [`to_json`]), checked against the type.
pub fn from_json(defs: &Defs, ty: Type, j: &Json) -> Result<Value, String> {
    let v = match ty {
        Type::Bool => Value::Bool(j.as_bool().ok_or_else(|| format!("{j} is not a boolean"))?),
        Type::Int | Type::Range(..) => {
            Value::Int(j.as_i64().ok_or_else(|| format!("{j} is not an integer"))?)
        }
        Type::Str(..) => Value::Str(
            j.as_str()
                .ok_or_else(|| format!("{j} is not a string"))?
                .into(),
        ),
        Type::Adt(a) => {
            let def = &defs.types[a as usize];
            let (c, fields) = if def.ctors.len() == 1 {
                (0, j)
            } else if let Some(name) = j.as_str() {
                let c = def
                    .ctors
                    .iter()
                    .position(|c| c.name == name && c.fields.is_empty());
                (
                    c.ok_or_else(|| {
                        format!("{j} is no constructor of {} without fields", def.name)
                    })?,
                    &Json::Null,
                )
            } else {
                let obj = j.as_object().filter(|o| o.len() == 1).ok_or_else(|| {
                    format!(
                        "{j} is not {{\"Ctor\": {{fields}}}} of a constructor of {}",
                        def.name
                    )
                })?;
                let (name, inner) = obj.iter().next().expect("one entry");
                let c = def.ctors.iter().position(|c| &c.name == name);
                (
                    c.ok_or_else(|| format!("`{name}` is no constructor of {}", def.name))?,
                    inner,
                )
            };
            let ctor = &def.ctors[c];
            let mut vs = Vec::with_capacity(ctor.fields.len());
            for (name, fty) in &ctor.fields {
                let f = fields
                    .get(name)
                    .ok_or_else(|| format!("{j} has no field `{name}` of {}", ctor.name))?;
                vs.push(from_json(defs, *fty, f)?);
            }
            Value::Adt(a, c as u32, vs.into())
        }
    };
    if value_in_type(defs, ty, &v) {
        Ok(v)
    } else {
        Err(format!("{j} is not a value of {}", defs.type_name(ty)))
    }
}

/// The text of a value in a path: a string as it is, anything else as JSON, percent-encoded.
fn path_text(j: &Json) -> String {
    let raw = match j {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut out = String::with_capacity(raw.len());
    for b in raw.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

impl HttpSut {
    fn set_timeout(&mut self, timeout: Duration) {
        // the time-out of a request: at least the quiescence time-out of the state
        if timeout > self.timeout {
            self.timeout = timeout;
            self.agent = agent(timeout);
        }
    }
}

impl Sut<GateValue> for HttpSut {
    fn reset(&mut self) -> Result<(), SutError> {
        self.pending.clear();
        if let Some(r) = self.map.reset.clone() {
            let (status, text) = self.request(Some(&r), "reset", None)?;
            if !(200..300).contains(&status) {
                return Err(SutError::Broken(format!(
                    "the reset request answered HTTP {status} {}",
                    clip(&text)
                )));
            }
        }
        Ok(())
    }

    fn send(&mut self, input: GateValue) -> Result<Sent<GateValue>, SutError> {
        let (gate, args) = (input.0.as_str(), &input.1[..]);
        // an output not yet observed comes first (tutorial §2.4's race)
        if let Some(o) = self.pending.pop_front() {
            return o
                .map(Sent::Raced)
                .map_err(|line| SutError::UnknownOutput { line });
        }
        let decl = self
            .spec
            .gates
            .iter()
            .find(|g| g.name == gate && g.dir == Direction::Input)
            .ok_or_else(|| SutError::Broken(format!("`{gate}` is no input gate of the model")))?;
        let values: Vec<(String, Json)> = decl
            .params
            .iter()
            .zip(args)
            .map(|((p, ty), v)| (p.clone(), to_json(&self.spec.defs, *ty, v)))
            .collect();
        let mut req = self.map.inputs.get(gate).cloned().unwrap_or_default();
        let mut path = req.path.clone().unwrap_or_else(|| format!("/{gate}"));
        for (p, j) in &values {
            path = path.replace(&format!("{{{p}}}"), &path_text(j));
        }
        req.path = Some(path);
        let body = (req.body.unwrap_or(!values.is_empty()))
            .then(|| Json::Object(values.into_iter().collect()));
        let (status, text) = self.request(Some(&req), gate, body)?;
        match self.output(status, &text) {
            Ok(Some(x)) => self.pending.push_back(Ok(x)),
            Ok(None) => {}
            Err(why) => self.pending.push_back(Err(why)),
        }
        Ok(Sent::Accepted)
    }

    fn observe(&mut self, timeout: Option<Duration>) -> Result<Observation<GateValue>, SutError> {
        if let Some(t) = timeout {
            self.set_timeout(t);
        }
        match self.pending.pop_front() {
            Some(o) => o
                .map(Observation::Output)
                .map_err(|line| SutError::UnknownOutput { line }),
            None => {
                // the response is in: nothing can come without a new request
                self.quiet += 1;
                Ok(Observation::Quiescent)
            }
        }
    }

    fn established(&mut self) -> [u32; 4] {
        [std::mem::take(&mut self.quiet), 0, 0, 0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> Arc<Spec> {
        let m = ioco_lang::parse_str(
            "m.ioco",
            "type Op = Plus { a: int, b: int } | Neg { n: int } | Zero\n\
             type P = P { x: int[0..9], ok: bool }\n\
             model M {\n  input Do(op: Op), Put(p: P)\n  output Res(r: int), Bad\n  init s\n  \
             s -- Do?(op) --> s\n  s -- Put?(p) --> s\n  s -- Res!(r) --> s\n  s -- Bad! --> s\n}\n",
        )
        .expect("model");
        Arc::new(m.entry().unwrap().clone())
    }

    #[test]
    fn values_go_to_json_and_back() {
        let s = spec();
        let d = &s.defs;
        let op = s.gates.iter().find(|g| g.name == "Do").unwrap().params[0].1;
        let p = s.gates.iter().find(|g| g.name == "Put").unwrap().params[0].1;
        let plus = Value::Adt(0, 0, vec![Value::Int(4), Value::Int(-7)].into());
        assert_eq!(
            to_json(d, op, &plus),
            serde_json::json!({"Plus": {"a": 4, "b": -7}})
        );
        let zero = Value::Adt(0, 2, Vec::new().into());
        assert_eq!(to_json(d, op, &zero), serde_json::json!("Zero"));
        let pv = Value::Adt(1, 0, vec![Value::Int(3), Value::Bool(true)].into());
        assert_eq!(to_json(d, p, &pv), serde_json::json!({"x": 3, "ok": true}));
        for (ty, v) in [(op, &plus), (op, &zero), (p, &pv)] {
            assert_eq!(&from_json(d, ty, &to_json(d, ty, v)).unwrap(), v);
        }
        // out of the type's range: no value of it
        let err = from_json(d, p, &serde_json::json!({"x": 12, "ok": true})).unwrap_err();
        assert!(err.contains("is not a value of"), "{err}");
    }

    #[test]
    fn a_map_that_names_an_unknown_gate_or_the_wrong_arity_is_refused() {
        let s = spec();
        let e = HttpMap::from_json(r#"{"inputs": {"Res": {}}}"#, &s).unwrap_err();
        assert!(e.contains("`Res`, which is no input gate"), "{e}");
        let e =
            HttpMap::from_json(r#"{"outputs": [{"gate": "Res", "args": []}]}"#, &s).unwrap_err();
        assert!(e.contains("reads 0 value(s), but `Res` has 1"), "{e}");
        let e = HttpMap::from_json(r#"{"output": []}"#, &s).unwrap_err();
        assert!(e.contains("unknown field `output`"), "{e}");
    }

    #[test]
    fn responses_become_outputs_by_the_first_rule_that_matches() {
        let s = spec();
        let map = HttpMap::from_json(
            r#"{"outputs": [
                {"gate": null, "status": 204},
                {"gate": "Bad", "status": [400, 422]},
                {"gate": "Res", "status": 200, "when": {"/kind": "sum"}, "args": ["/value"]}
            ]}"#,
            &s,
        )
        .unwrap();
        let h = HttpSut::new("http://127.0.0.1:9", map, s, Duration::from_secs(1));
        assert_eq!(h.output(204, ""), Ok(None));
        assert_eq!(h.output(422, "{}"), Ok(Some(("Bad".into(), vec![]))));
        assert_eq!(
            h.output(200, r#"{"kind": "sum", "value": 5}"#),
            Ok(Some(("Res".into(), vec![Value::Int(5)])))
        );
        let e = h
            .output(200, r#"{"kind": "product", "value": 5}"#)
            .unwrap_err();
        assert_eq!(e, r#"HTTP 200 {"kind": "product", "value": 5}"#);
        let e = h.output(500, "oops").unwrap_err();
        assert!(e.starts_with("HTTP 500 oops"), "{e}");
    }
}
