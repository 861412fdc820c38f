//! # ioco-lang: the `.ioco` modelling language
//!
//! A readable language for models with inputs, outputs and data: channels (gates) with
//! direction and typed parameters, automata with locations, location variables, guarded
//! switches and τ steps, and compositions (parallel, interleaving, hiding, renaming), with
//! TorXakis's process-algebra constructs: multi-actions (`a? | b?`, `@sync`), `exit`, enabling
//! `P >>> Q` and loops (lowered into the IR by [`check`]). See `docs/language.md` for the
//! reference.
//!
//! Pipeline: [`lexer`] → [`parser`] (error recovery, several errors per run) → [`check`] (name
//! resolution, type checking, lowering) → [`ir`] (the symbolic transition system, the stable
//! API shared with the symbolic engine) → [`semantics`] (concrete semantics of finitely typed
//! models: on the fly, [`semantics::Semantics`]) → [`translate`] (explicit [`ioco_model::Lts`]).
//! [`format()`] pretty-prints a file. [`kit`] holds what the lexers and parsers of the two front
//! ends (this one and the TorXakis one, `ioco-txs`) share.
//!
//! ```
//! let src = "model M { input a  output b  init s  s -- a? --> t  t -- b! --> s }";
//! let model = ioco_lang::parse_str("m.ioco", src).unwrap();
//! let lts = ioco_lang::translate::to_lts(model.entry().unwrap(), &Default::default()).unwrap();
//! assert_eq!((lts.num_states(), lts.num_transitions()), (2, 2));
//! ```

pub mod ast;
pub mod check;
pub mod diag;
pub mod fmt;
pub mod ir;
pub mod kit;
pub mod lexer;
pub mod parser;
pub mod regex;
pub mod regex_gen;
pub mod semantics;
pub mod span;
pub mod translate;
pub mod txs_text;
pub mod txs_xml;

pub use check::Program;
pub use diag::{cap_per_kind, render_plain, Diagnostic, Diagnostics, Severity};
pub use fmt::format;
pub use semantics::{Composed, Semantics};
pub use span::{SourceMap, Span};

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A loaded and checked model file with its imports.
#[derive(Clone, Debug)]
pub struct Model {
    /// The text of every file read (for rendering diagnostics).
    pub sources: SourceMap,
    /// The checked program.
    pub program: Program,
}

impl Model {
    /// The entry point: the item marked `@main`, else the last `system` or parameterless `model`
    /// of the main file.
    pub fn entry(&self) -> Option<&ir::Spec> {
        self.program.entry_spec()
    }

    /// The spec (parameterless model or system) with this name.
    pub fn spec(&self, name: &str) -> Option<&ir::Spec> {
        self.program.spec(name)
    }

    /// Warnings found while checking (attached to the sources).
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.program.warnings
    }
}

/// Reads, parses and checks a `.ioco` file and the files it imports (relative to the importing
/// file). All errors are returned, each attached to its source (renderable with miette).
pub fn parse_file(path: impl AsRef<Path>) -> Result<Model, Vec<Diagnostic>> {
    let path = path.as_ref();
    let mut sources = SourceMap::new();
    match std::fs::read_to_string(path) {
        Ok(text) => load(
            sources,
            path.display().to_string(),
            text,
            path.parent().map(Path::to_path_buf),
        ),
        Err(e) => {
            let f = sources.add(path.display().to_string(), "");
            let mut d = Diagnostic::error(
                "ioco::io",
                format!("cannot read {}: {}", path.display(), e),
                Span::new(f, 0, 0),
                "here",
            );
            d.attach(&sources);
            Err(vec![d])
        }
    }
}

/// Parses and checks source text; `name` is used in diagnostics. Imports are resolved relative
/// to the current directory.
pub fn parse_str(name: &str, src: &str) -> Result<Model, Vec<Diagnostic>> {
    load(SourceMap::new(), name.to_string(), src.to_string(), None)
}

fn load(
    mut sources: SourceMap,
    name: String,
    text: String,
    dir: Option<PathBuf>,
) -> Result<Model, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut files = Vec::new();
    let mut seen: HashMap<PathBuf, ()> = HashMap::new();
    let main = sources.add(name.clone(), text);
    if let Ok(c) = Path::new(&name).canonicalize() {
        seen.insert(c, ());
    }
    let roots = import_roots(dir.as_deref());
    let mut queue = vec![(main, dir)];
    while let Some((fid, dir)) = queue.pop() {
        let text = sources.file(fid).text.clone();
        let (file, ds) = parser::parse(fid, &text);
        diags.extend(ds);
        for item in &file.items {
            if let ast::ItemKind::Import(p, sp) = &item.kind {
                let full = match &dir {
                    Some(d) => d.join(p),
                    None => PathBuf::from(p),
                };
                let key = full.canonicalize().unwrap_or_else(|_| full.clone());
                if seen.contains_key(&key) {
                    continue;
                }
                if let Err((why, help)) = importable(&full, &key, &roots) {
                    diags.push(
                        Diagnostic::error(
                            "ioco::import",
                            format!("cannot import `{}`: {}", p, why),
                            *sp,
                            "imported here",
                        )
                        .help(help),
                    );
                    continue;
                }
                match std::fs::read_to_string(&full) {
                    Ok(t) => {
                        seen.insert(key, ());
                        let id = sources.add(full.display().to_string(), t);
                        queue.push((id, full.parent().map(Path::to_path_buf)));
                    }
                    Err(e) => diags.push(
                        Diagnostic::error(
                            "ioco::import",
                            format!("cannot import `{}`: {}", p, e),
                            *sp,
                            "imported here",
                        )
                        .help(format!(
                            "the path is relative to the importing file: looked for {}",
                            full.display()
                        )),
                    ),
                }
            }
        }
        files.push((fid, file));
    }
    files.sort_by_key(|f| f.0);
    let has_errors = diags.iter().any(|d| d.is_error());
    let result = if has_errors {
        Err(Vec::new())
    } else {
        let refs: Vec<(u32, &ast::File)> = files.iter().map(|(i, f)| (*i, f)).collect();
        check::check(&refs)
    };
    match result {
        Ok(mut program) => {
            program.warnings = diag::cap_per_kind(std::mem::take(&mut program.warnings));
            for w in &mut program.warnings {
                w.attach(&sources);
            }
            Ok(Model { sources, program })
        }
        Err(more) => {
            diags.extend(more);
            // attach (a clipped copy of the source per diagnostic) after the cap: linear
            let mut diags = diag::cap_per_kind(diags);
            for d in &mut diags {
                d.attach(&sources);
            }
            Err(diags)
        }
    }
}

/// The environment variable naming more directories (separated like `PATH`) whose files may be
/// imported, besides the main model's directory tree.
pub const IMPORT_PATH_VAR: &str = "IOCO_IMPORT_PATH";

/// Where imports may come from: the main model's directory tree (the current directory for a
/// model given as text) and the directories of [`IMPORT_PATH_VAR`], canonical.
fn import_roots(main_dir: Option<&Path>) -> Vec<PathBuf> {
    let main = match main_dir {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut roots: Vec<PathBuf> = main.canonicalize().into_iter().collect();
    if let Some(more) = std::env::var_os(IMPORT_PATH_VAR) {
        roots.extend(std::env::split_paths(&more).filter_map(|d| d.canonicalize().ok()));
    }
    roots
}

/// Whether the file at `full` (canonical: `key`) may be imported: a regular `.ioco` file inside
/// one of the `roots`. A file that is not a model is never read, so its content never appears
/// in a diagnostic (`import "/proc/self/environ"` must not print the environment).
fn importable(full: &Path, key: &Path, roots: &[PathBuf]) -> Result<(), (String, String)> {
    if full.extension().and_then(|e| e.to_str()) != Some("ioco") {
        return Err((
            "only `.ioco` files can be imported".into(),
            "models in other formats (.aut, .dot, .json) are loaded by the commands, not imported"
                .into(),
        ));
    }
    let meta = match std::fs::metadata(full) {
        Ok(m) => m,
        Err(e) => {
            return Err((
                e.to_string(),
                format!(
                    "the path is relative to the importing file: looked for {}",
                    full.display()
                ),
            ))
        }
    };
    if !meta.is_file() {
        return Err((
            "not a regular file".into(),
            "import a model file, not a device, pipe or directory".into(),
        ));
    }
    if !roots.iter().any(|r| key.starts_with(r)) {
        return Err((
            format!("{} is outside the model's directory tree", key.display()),
            format!(
                "imports are confined to the main model's directory and below; add more \
                 directories to the environment variable {IMPORT_PATH_VAR}"
            ),
        ));
    }
    Ok(())
}

/// Loads a `.ioco` file and translates its entry point to an explicit LTS (for the CLI). All
/// diagnostics are in the report (render it with miette).
pub fn load_lts(path: impl AsRef<Path>) -> Result<ioco_model::Lts, miette::Report> {
    load_lts_timed(path).map(|(lts, _)| lts)
}

/// [`load_lts`], also returning the model's `@timeout`s per LTS state and label
/// ([`translate::Timing`], for test drivers).
pub fn load_lts_timed(
    path: impl AsRef<Path>,
) -> Result<(ioco_model::Lts, translate::Timing), miette::Report> {
    let path = path.as_ref();
    let model = parse_file(path).map_err(|diags| {
        miette::Report::new(Diagnostics {
            diags,
            file: path.display().to_string(),
        })
    })?;
    lts_timed_of(&model, &path.display().to_string())
}

/// The entry point of a loaded model as an explicit LTS with its `@timeout`s (what
/// [`load_lts_timed`] does after parsing; `name` names the file in messages). The model's
/// warnings are not looked at: a caller that parsed it decides how to show them.
pub fn lts_timed_of(
    model: &Model,
    name: &str,
) -> Result<(ioco_model::Lts, translate::Timing), miette::Report> {
    let spec = model.entry().ok_or_else(|| {
        miette::miette!(
            help = "add a `model` without parameters or a `system`, or mark one with `@main`",
            "{name} has no model to test"
        )
    })?;
    translate::to_lts_timed(spec, &translate::Options::default()).map_err(|e| {
        let mut d = e.into_diagnostic();
        d.attach(&model.sources);
        miette::Report::new(d)
    })
}
