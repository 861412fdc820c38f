//! JSON Schemas of the files ioco writes (issue #15 item 6): `ioco schema FORMAT` prints the
//! schema generated from the types, `docs/schemas/` publishes the same text, and files the
//! tool really writes (a suite, a switch-coverage suite, a result) conform to them — checked
//! by a small validator of the keywords the schemas use, which also refuses a key no schema
//! names (so a new field cannot reach a file without reaching the schema).

mod common;
use common::{example_bin, ioco, root};
use serde_json::Value;

const FORMATS: [&str; 3] = ["result", "suite", "sts-suite"];

fn schema(format: &str) -> Value {
    let out = ioco().args(["schema", format]).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let published = root().join(format!("docs/schemas/{format}.schema.json"));
    let file = std::fs::read_to_string(&published).unwrap_or_default();
    assert!(
        file == text,
        "{} is not what `ioco schema {format}` prints; regenerate it: \
         target/debug/ioco schema {format} > {}",
        published.display(),
        published.display()
    );
    serde_json::from_str(&text).unwrap()
}

/// Where `value` (at `path`) breaks `s` (the root schema is `root`, for `$ref`).
fn check(root: &Value, s: &Value, value: &Value, path: &str, errors: &mut Vec<String>) {
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let target = if r == "#" {
            root
        } else {
            let name = r.strip_prefix("#/$defs/").expect("a local $ref");
            &root["$defs"][name]
        };
        return check(root, target, value, path, errors);
    }
    if let Some(c) = s.get("const") {
        if c != value {
            errors.push(format!("{path}: {value} is not {c}"));
        }
    }
    if let Some(e) = s.get("enum").and_then(Value::as_array) {
        if !e.contains(value) {
            errors.push(format!("{path}: {value} is none of {e:?}"));
        }
    }
    if let Some(t) = s.get("type") {
        let types: Vec<&str> = match t {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        let is = |t: &str| match t {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "boolean" => value.is_boolean(),
            "null" => value.is_null(),
            "integer" => value.is_i64() || value.is_u64(),
            "number" => value.is_number(),
            _ => true,
        };
        if !types.iter().any(|t| is(t)) {
            errors.push(format!("{path}: {value} is not of type {types:?}"));
            return;
        }
    }
    if let (Some(min), Some(v)) = (s.get("minimum").and_then(Value::as_f64), value.as_f64()) {
        if v < min {
            errors.push(format!("{path}: {v} < {min}"));
        }
    }
    for (key, pick_one) in [("oneOf", true), ("anyOf", false)] {
        if let Some(alts) = s.get(key).and_then(Value::as_array) {
            let fits = alts
                .iter()
                .filter(|a| {
                    let mut e = Vec::new();
                    check(root, a, value, path, &mut e);
                    e.is_empty()
                })
                .count();
            if fits == 0 || (pick_one && fits > 1) {
                errors.push(format!(
                    "{path}: {fits} of the {key} alternatives fit {value}"
                ));
            }
        }
    }
    if let Some(obj) = value.as_object() {
        let props = s.get("properties").and_then(Value::as_object);
        for r in s
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let r = r.as_str().unwrap_or_default();
            if !obj.contains_key(r) {
                errors.push(format!("{path}: `{r}` is missing"));
            }
        }
        if let Some(props) = props {
            let open = s.get("additionalProperties") == Some(&Value::Bool(true));
            for (k, v) in obj {
                match props.get(k) {
                    Some(p) => check(root, p, v, &format!("{path}.{k}"), errors),
                    None if !open => errors.push(format!("{path}: `{k}` is in no schema")),
                    None => {}
                }
            }
        }
    }
    if let Some(items) = value.as_array() {
        let prefix = s.get("prefixItems").and_then(Value::as_array);
        for (i, v) in items.iter().enumerate() {
            let p = &format!("{path}[{i}]");
            match (prefix.and_then(|p| p.get(i)), s.get("items")) {
                (Some(ps), _) => check(root, ps, v, p, errors),
                (None, Some(is)) if is.is_object() => check(root, is, v, p, errors),
                _ => {}
            }
        }
    }
}

fn conforms(format: &str, file: &std::path::Path) {
    let s = schema(format);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let mut errors = Vec::new();
    check(&s, &s, &v, "$", &mut errors);
    assert!(
        errors.is_empty(),
        "{} does not conform to the {format} schema:\n{}",
        file.display(),
        errors.join("\n")
    );
}

#[test]
fn the_published_schemas_are_the_generated_ones() {
    for f in FORMATS {
        let s = schema(f);
        assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
        assert!(s["properties"].is_object(), "{f}");
    }
}

#[test]
fn files_ioco_writes_conform_to_their_schemas() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // a suite with trees, words and nested distinguishing suites
    let suite = d.join("suite.json");
    ioco()
        .args([
            "gen",
            "examples/coffee/coffee.ioco",
            "--method",
            "n-complete",
        ])
        .args(["--n", "2", "-o"])
        .arg(&suite)
        .assert()
        .code(0);
    conforms("suite", &suite);
    let words = d.join("words.json");
    ioco()
        .args([
            "gen",
            "examples/models/coffee.aut",
            "--method",
            "batch",
            "--tests",
            "5",
        ])
        .args(["--seed", "1", "-o"])
        .arg(&words)
        .assert()
        .code(0);
    conforms("suite", &words);
    // a switch-coverage suite of a model with data
    let sts = d.join("brp.json");
    ioco()
        .args([
            "gen",
            "examples/brp/brp.ioco",
            "--method",
            "switch-coverage",
            "-o",
        ])
        .arg(&sts)
        .assert()
        .code(0);
    conforms("sts-suite", &sts);
    // results: a failing, shrunk run against a real process, and a suite run
    let failing = d.join("fail.json");
    ioco()
        .args(["test", "examples/coffee/coffee.ioco", "--sut"])
        .arg(format!("{} --ack --mode tea", example_bin("coffee-sut")))
        .args([
            "--quiescence-marker",
            "#quiet",
            "--runs",
            "20",
            "--seed",
            "3",
        ])
        .args(["--shrink", "--json"])
        .arg(&failing)
        .assert()
        .code(1);
    conforms("result", &failing);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&failing).unwrap()).unwrap();
    assert!(
        v["runs"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["shrunk"].is_object()),
        "the failing run is shrunk, so the check covered `shrunk`"
    );
    let passing = d.join("pass.json");
    ioco()
        .args(["run", "examples/coffee/coffee.ioco"])
        .arg(&suite)
        .args(["--sim", "examples/coffee/coffee.ioco", "--json"])
        .arg(&passing)
        .assert()
        .code(0);
    conforms("result", &passing);
}
