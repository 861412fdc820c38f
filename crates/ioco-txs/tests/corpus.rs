//! Every `.txs` file of the TorXakis corpus (`torxakis/` in the public corpus, see
//! `ioco_testkit`): how many load (parse, lower and check), pinned; the others fail with a
//! diagnostic that names the construct.
//!
//! A file that needs definitions of another is loaded with it, as TorXakis is started with
//! several files (`torxakis Adder.txs AdderPurposes.txs`): `ioco_txs::corpus::COMPANIONS`.

use ioco_txs::corpus::{txs_files, with_companions};
use std::path::{Path, PathBuf};

/// The TorXakis corpus; `None` once the calling test is recorded as skipped for want of the
/// public corpus (a failure under `IOCO_NO_SKIP=1`).
fn corpus() -> Option<PathBuf> {
    ioco_testkit::corpus().map(|c| c.join("torxakis"))
}

/// Loads one corpus file with its companions ([`ioco_txs::corpus::COMPANIONS`]).
pub fn load(root: &Path, file: &Path) -> Result<ioco_txs::TxsModel, Vec<ioco_lang::Diagnostic>> {
    let paths = with_companions(root, file);
    let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    ioco_txs::load_files(&refs)
}

/// `ioco translate`'s text of `m` checks, to the same specifications: the same automata,
/// with as many locations, variables and switches, and the same gates.
fn same_after_translation(rel: &str, m: &ioco_txs::TxsModel) {
    let text = ioco_txs::translate::to_ioco(m);
    let t = ioco_lang::parse_str("t.ioco", &text).unwrap_or_else(|d| {
        panic!(
            "{rel}: the translation does not check:\n{}",
            ioco_lang::render_plain(&d)
        )
    });
    let summary = |p: &ioco_lang::Model| -> Vec<String> {
        let mut out: Vec<String> = p
            .program
            .specs
            .iter()
            .map(|s| {
                let gates: Vec<String> = s.gates.iter().map(|g| g.name.clone()).collect();
                let parts: Vec<String> = s
                    .automata
                    .iter()
                    .map(|a| {
                        format!(
                            "{}:{}l/{}v/{}s",
                            a.name,
                            a.locations.len(),
                            a.vars.len(),
                            a.switches.len()
                        )
                    })
                    .collect();
                format!("{} [{}] {}", s.name, gates.join(","), parts.join(" "))
            })
            .collect();
        out.sort();
        out
    };
    assert_eq!(
        summary(&m.model),
        summary(&t),
        "{rel}: translated differently"
    );
}

#[test]
fn corpus_files_load() {
    let Some(root) = corpus() else {
        return;
    };
    let files = txs_files(&root);
    assert_eq!(files.len(), 59, "the corpus has 59 .txs files");
    let mut loaded = Vec::new();
    let mut failed = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap().display().to_string();
        match load(&root, f) {
            Ok(m) => {
                assert!(
                    !m.model.program.specs.is_empty(),
                    "{rel}: loaded but has no model"
                );
                same_after_translation(&rel, &m);
                loaded.push(rel);
            }
            Err(diags) => {
                let first = diags.iter().find(|d| d.is_error()).expect("an error");
                // the message names the construct and where it is
                assert!(
                    first.location.contains(".txs:"),
                    "{rel}: no file:line:col in {}",
                    first.location
                );
                failed.push(format!(
                    "{rel}: {} [{}] {}",
                    first.location, first.code, first.message
                ));
            }
        }
    }
    for f in &failed {
        eprintln!("not loaded: {f}");
    }
    eprintln!("{} of {} corpus files load", loaded.len(), files.len());
    assert_eq!(loaded.len(), 58, "pinned count of corpus files that load");
}
