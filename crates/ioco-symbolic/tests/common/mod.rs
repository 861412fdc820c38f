#![allow(dead_code)]
use ioco_lang::ir::{Spec, Value};
use std::path::PathBuf;
use std::sync::Arc;

pub fn path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Loads the entry point (or the named spec) of a `.ioco` file, panicking with rendered diagnostics.
pub fn load(rel: &str, name: Option<&str>) -> Arc<Spec> {
    let p = path(rel);
    let model = match ioco_lang::parse_file(&p) {
        Ok(m) => m,
        Err(diags) => {
            let msgs: Vec<String> = diags.iter().map(|d| format!("{:?}", d)).collect();
            panic!("{} does not load:\n{}", p.display(), msgs.join("\n"))
        }
    };
    let spec = match name {
        Some(n) => model.spec(n).unwrap_or_else(|| panic!("no spec {}", n)),
        None => model.entry().expect("entry"),
    };
    Arc::new(spec.clone())
}

pub fn int(i: i64) -> Value {
    Value::Int(i)
}
