//! Every `.txs` file of the TorXakis corpus (`../shared/corpus/torxakis`): how many load (parse,
//! lower and check), pinned; the others fail with a diagnostic that names the construct.
//!
//! A file that needs definitions of another is loaded with it, as TorXakis is started with
//! several files (`torxakis Adder.txs AdderPurposes.txs`): [`COMPANIONS`].

use std::path::{Path, PathBuf};

/// Files loaded together with a corpus file (paths relative to the corpus root).
const COMPANIONS: &[(&str, &[&str])] = &[
    (
        "examps/Adder/AdderPurposes.txs",
        &["examps/Adder/Adder.txs"],
    ),
    (
        "examps/Adder/AdderReplay.txs",
        &["examps/Adder/Adder.txs", "examps/Adder/ReplayProc.txs"],
    ),
    ("examps/Adder/ReplayProc.txs", &["examps/Adder/Adder.txs"]),
    ("examps/Echo/Purpose.txs", &["examps/Echo/EchoDelay.txs"]),
    (
        "examps/LuckyPeople/spec/PurposeExamples.txs",
        &["examps/LuckyPeople/spec/LuckyPeople.txs"],
    ),
    (
        "examps/LuckyPeople/spec/PurposeLuckyByGender.txs",
        &["examps/LuckyPeople/spec/LuckyPeople.txs"],
    ),
    (
        "examps/MovingArms/RestrictedAxisPurpose.txs",
        &["examps/MovingArms/MovingArms.txs"],
    ),
    (
        "examps/MovingArms/SingleAxisPurpose.txs",
        &["examps/MovingArms/MovingArms.txs"],
    ),
    (
        "examps/Point/InFirstQuadrantTestPurpose.txs",
        &["examps/Point/Point.txs"],
    ),
    (
        "test/sqatt/data/bench/Hiding/Hiding.txs",
        &["test/sqatt/data/bench/Sequence/SingleActionSequence.txs"],
    ),
    (
        "test/sqatt/data/bench/Parallel/Parallel.txs",
        &["test/sqatt/data/bench/Sequence/SingleActionSequence.txs"],
    ),
    (
        "test/sqatt/data/bench/Synchronization/Synchronization.txs",
        &["test/sqatt/data/bench/Sequence/SingleActionSequence.txs"],
    ),
];

fn corpus() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/torxakis");
    root.is_dir().then_some(root)
}

fn txs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
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

/// Loads one corpus file with its companions.
pub fn load(root: &Path, file: &Path) -> Result<ioco_txs::TxsModel, Vec<ioco_lang::Diagnostic>> {
    let rel = file
        .strip_prefix(root)
        .unwrap()
        .to_string_lossy()
        .to_string();
    let mut paths = vec![file.to_path_buf()];
    if let Some((_, with)) = COMPANIONS.iter().find(|(f, _)| *f == rel) {
        paths.extend(with.iter().map(|w| root.join(w)));
    }
    let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    ioco_txs::load_files(&refs)
}

#[test]
fn corpus_files_load() {
    let Some(root) = corpus() else {
        eprintln!("skipped: the TorXakis corpus is not at ../shared/corpus/torxakis");
        return;
    };
    let mut files = Vec::new();
    txs_files(&root, &mut files);
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
    assert_eq!(loaded.len(), 50, "pinned count of corpus files that load");
}
