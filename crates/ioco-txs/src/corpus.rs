//! The TorXakis corpus (`torxakis/` in the public corpus, which the tests find with
//! `ioco_testkit`: `IOCO_CORPUS`, else `../shared/corpus`; TorXakis's `examps/` and
//! micro-benchmarks): which files are read together, and the listing of its `.txs` files. Used
//! by the tests and the benchmarks of the front end; a TorXakis user gives the files with
//! `--with`.

use std::path::{Path, PathBuf};

/// Files loaded together with a corpus file (paths relative to the corpus root), as TorXakis is
/// started with several files (`torxakis Adder.txs AdderPurposes.txs`): purposes need their
/// model's definitions, and three micro-benchmarks use the processes of `SingleActionSequence`.
pub const COMPANIONS: &[(&str, &[&str])] = &[
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

/// A corpus file and its [`COMPANIONS`], as paths (the file first).
pub fn with_companions(root: &Path, file: &Path) -> Vec<PathBuf> {
    let rel = file
        .strip_prefix(root)
        .map(|r| r.to_string_lossy().replace('\\', "/"))
        .unwrap_or_default();
    let mut paths = vec![file.to_path_buf()];
    if let Some((_, with)) = COMPANIONS.iter().find(|(f, _)| *f == rel) {
        paths.extend(with.iter().map(|w| root.join(w)));
    }
    paths
}

/// The `.txs` files below `dir`, sorted (an unreadable directory is skipped).
pub fn txs_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect(dir, &mut out);
    out
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "txs") {
            out.push(p);
        }
    }
}
