//! The `.txs` parser on the TorXakis corpus, on small snippets and on bad input.

use ioco_txs::parser::parse;
use std::path::{Path, PathBuf};

/// The TorXakis corpus (`shared/corpus/torxakis`, a sibling of the repository root).
fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/torxakis");
    if dir.is_dir() {
        Some(dir)
    } else {
        println!("corpus not found at {}: skipped", dir.display());
        None
    }
}

fn txs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            txs_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "txs") {
            out.push(p);
        }
    }
}

fn render(src: &str, diags: &[ioco_lang::Diagnostic]) -> String {
    let mut map = ioco_lang::SourceMap::new();
    map.add("t.txs", src);
    let mut diags = diags.to_vec();
    for d in &mut diags {
        d.attach(&map);
    }
    ioco_lang::render_plain(&diags)
}

#[test]
fn corpus_parses() {
    let Some(dir) = corpus() else { return };
    let mut files = Vec::new();
    txs_files(&dir, &mut files);
    let mut failed = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let (file, diags) = parse(0, &src);
        if diags.iter().any(|d| d.is_error()) {
            failed.push(format!("{}:\n{}", f.display(), render(&src, &diags)));
        }
        // Every definition keyword gave at least one definition (`;` lists give several).
        let (toks, _) = ioco_txs::lexer::lex(0, &src);
        let keywords = toks.iter().filter(|t| t.kind.starts_def()).count();
        assert!(
            file.defs.len() >= keywords && keywords > 0,
            "{}: {} definitions for {keywords} keywords",
            f.display(),
            file.defs.len()
        );
    }
    assert!(
        failed.is_empty(),
        "{} files fail:\n{}",
        failed.len(),
        failed.join("\n")
    );
    assert_eq!(files.len(), 59, "the corpus has 59 .txs files");
}
