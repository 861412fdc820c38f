//! # ioco-txs: TorXakis models as a first-class input
//!
//! A `.txs` file (TorXakis's modelling language) is read by [`parser`] into the syntax tree of
//! [`ast`] and lowered by [`lower`] into the syntax tree of the `.ioco` language
//! ([`ioco_lang::ast::File`]), which the `.ioco` checker then turns into the one IR every
//! engine runs on. Diagnostics point into the `.txs` text.
//!
//! Pipeline: [`lexer`] → [`parser`] → [`lower`] → [`ioco_lang::check`].

pub mod ast;
pub mod corpus;
pub mod lexer;
pub mod lower;
pub mod parser;

use ioco_lang::{Diagnostic, SourceMap, Span};
use std::path::Path;

/// A loaded TorXakis model: the checked `.ioco` program and what the lowering kept.
#[derive(Clone, Debug)]
pub struct TxsModel {
    /// The checked program, with the `.txs` sources for diagnostics.
    pub model: ioco_lang::Model,
    /// The lowered syntax tree, the models, purposes and connections.
    pub lowered: lower::Lowered,
}

/// The largest `.txs` file read (a bound on memory; TorXakis models are a few kB).
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads, parses, lowers and checks one or more `.txs` files, as TorXakis loads them: all
/// definitions in one namespace. The first `MODELDEF` is the entry point.
pub fn load_files(paths: &[&Path]) -> Result<TxsModel, Vec<Diagnostic>> {
    load_files_with(paths, false)
}

/// [`load_files`]; with `one_automaton`, a composed `MODELDEF` becomes one sequential model
/// where its product can be built ([`lower::lower_with`]), as symbolic test purposes need.
pub fn load_files_with(paths: &[&Path], one_automaton: bool) -> Result<TxsModel, Vec<Diagnostic>> {
    let mut sources = SourceMap::new();
    let mut texts = Vec::new();
    let mut diags = Vec::new();
    for p in paths {
        let name = p.display().to_string();
        let read = std::fs::metadata(p).and_then(|m| {
            if m.len() > MAX_FILE_BYTES {
                Err(std::io::Error::other(format!(
                    "the file is {} bytes, more than the limit of {} bytes",
                    m.len(),
                    MAX_FILE_BYTES
                )))
            } else if !m.is_file() {
                Err(std::io::Error::other("not a regular file"))
            } else {
                std::fs::read(p)
            }
        });
        match read.map(String::from_utf8) {
            Ok(Ok(text)) => texts.push((name, text)),
            Ok(Err(e)) => {
                let at = e.utf8_error().valid_up_to();
                let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let f = sources.add(name.clone(), lossy);
                diags.push(
                    Diagnostic::error(
                        "ioco::io",
                        format!("{} is not valid UTF-8", name),
                        Span::new(f, at, at + 1),
                        "this byte",
                    )
                    .help("save the model as UTF-8 text"),
                );
            }
            Err(e) => {
                let f = sources.add(name.clone(), "");
                diags.push(Diagnostic::error(
                    "ioco::io",
                    format!("cannot read {}: {}", name, e),
                    Span::new(f, 0, 0),
                    "here",
                ));
            }
        }
    }
    if !diags.is_empty() {
        return Err(attach(diags, &sources));
    }
    load_texts(sources, texts, one_automaton)
}

/// As [`load_files`], from text (`name` is used in diagnostics).
pub fn load_str(name: &str, text: &str) -> Result<TxsModel, Vec<Diagnostic>> {
    load_str_with(name, text, false)
}

/// [`load_str`] with [`load_files_with`]'s `one_automaton`.
pub fn load_str_with(
    name: &str,
    text: &str,
    one_automaton: bool,
) -> Result<TxsModel, Vec<Diagnostic>> {
    load_texts(
        SourceMap::new(),
        vec![(name.to_string(), text.to_string())],
        one_automaton,
    )
}

/// At most [`ioco_lang::diag::MAX_PER_KIND`] diagnostics of each kind, then "… and N more"
/// ([`ioco_lang::cap_per_kind`], as `.ioco` models), bound to their source (after the cap:
/// attaching copies a clipped snippet per diagnostic, so the work stays linear).
fn attach(diags: Vec<Diagnostic>, sources: &SourceMap) -> Vec<Diagnostic> {
    let mut diags = ioco_lang::cap_per_kind(diags);
    for d in &mut diags {
        d.attach(sources);
    }
    diags
}

fn load_texts(
    mut sources: SourceMap,
    texts: Vec<(String, String)>,
    one_automaton: bool,
) -> Result<TxsModel, Vec<Diagnostic>> {
    let mut files = Vec::new();
    let mut diags = Vec::new();
    let mut first = None;
    for (name, text) in texts {
        let fid = sources.add(name, text.clone());
        first.get_or_insert(fid);
        let (f, ds) = parser::parse(fid, &text);
        diags.extend(ds);
        files.push(f);
    }
    if diags.iter().any(|d| d.is_error()) {
        return Err(attach(diags, &sources));
    }
    // the parser's warnings (e.g. a chain of operators without precedence) go with the
    // errors found later, which they may explain, or with the model's warnings
    let parse_warnings = diags;
    let with_warnings = |ds: Vec<Diagnostic>| {
        let mut all = parse_warnings.clone();
        all.extend(ds);
        all
    };
    let refs: Vec<&ast::File> = files.iter().collect();
    let lowered = match lower::lower_with(&refs, one_automaton) {
        Ok(l) => l,
        Err(ds) => return Err(attach(with_warnings(ds), &sources)),
    };
    let program = match ioco_lang::check::check(&[(first.unwrap_or(0), &lowered.file)]) {
        Ok(p) => p,
        Err(ds) => return Err(attach(with_warnings(ds), &sources)),
    };
    let mut model = ioco_lang::Model { sources, program };
    model.program.warnings.extend(parse_warnings);
    model
        .program
        .warnings
        .extend(lowered.warnings.iter().cloned());
    model.program.warnings = attach(std::mem::take(&mut model.program.warnings), &model.sources);
    Ok(TxsModel { model, lowered })
}
pub mod translate;
