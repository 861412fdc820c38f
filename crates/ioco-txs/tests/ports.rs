//! The imported TorXakis models against the hand ports of `examples/torxakis/`: where a corpus
//! MODELDEF and a port's model or system have the same name and both translate to a finite
//! LTS, they are ioco-equivalent (`compare` in both directions), the ports' header comments
//! saying where they bound data. Each pair is listed, so that a port that stops matching is
//! seen.

use ioco_lang::translate::{to_lts, Options};
use ioco_model::{Lts, QuiescencePolicy, SuspensionAutomaton};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The TorXakis corpus; `None` once the calling test is recorded as skipped for want of the
/// public corpus (a failure under `IOCO_NO_SKIP=1`): see `ioco_testkit`.
fn corpus() -> Option<PathBuf> {
    ioco_testkit::corpus().map(|c| c.join("torxakis"))
}

/// (corpus file, companions, port file): the MODELDEFs of the corpus file are matched by name
/// with the port file's models and systems.
const PAIRS: &[(&str, &[&str], &str)] = &[
    (
        "test/sqatt/data/bench/Choice/Choice.txs",
        &[],
        "choice.ioco",
    ),
    (
        "test/sqatt/data/bench/Sequence/SingleActionSequence.txs",
        &[],
        "sequence.ioco",
    ),
    (
        "test/sqatt/data/bench/Parallel/Parallel.txs",
        &["test/sqatt/data/bench/Sequence/SingleActionSequence.txs"],
        "parallel.ioco",
    ),
    (
        "test/sqatt/data/bench/Parallel/Parallel.txs",
        &["test/sqatt/data/bench/Sequence/SingleActionSequence.txs"],
        "parallel-sync.ioco",
    ),
    (
        "test/sqatt/data/bench/Synchronization/Synchronization.txs",
        &["test/sqatt/data/bench/Sequence/SingleActionSequence.txs"],
        "synchronization.ioco",
    ),
    (
        "test/sqatt/data/bench/Hiding/Hiding.txs",
        &["test/sqatt/data/bench/Sequence/SingleActionSequence.txs"],
        "hiding.ioco",
    ),
    (
        "test/sqatt/data/bench/Enable/Enable.txs",
        &[],
        "enable.ioco",
    ),
];

/// Pairs whose names differ: (corpus file, MODELDEF, port file, port model or system).
const RENAMED: &[(&str, &str, &str, &str)] = &[
    (
        "examps/DispatchProcess/spec/DisPro01-processor.txs",
        "Model",
        "dispatch-process.ioco",
        "DisPro01",
    ),
    (
        "examps/DispatchProcess/spec/DisPro02-dispatch.txs",
        "Model",
        "dispatch-process.ioco",
        "DisPro02",
    ),
    (
        "examps/DispatchProcess/spec/DisPro03-processors.txs",
        "Model",
        "dispatch-process.ioco",
        "DisPro03",
    ),
    (
        "examps/DispatchProcess/spec/DisPro04-hide.txs",
        "Model",
        "dispatch-process.ioco",
        "DisPro04",
    ),
];

/// The two models have the same suspension traces (their suspension automata, deterministic,
/// accept the same labels, by name, in every pair of states reached together). Stronger than
/// ioco both ways, and free of the input completion a non-input-enabled model needs.
fn agree(name: &str, i: &Lts, p: &Lts) {
    let policy = QuiescencePolicy::default();
    let a = SuspensionAutomaton::build(i, policy).lts;
    let b = SuspensionAutomaton::build(p, policy).lts;
    let labels = |l: &Lts, s| -> BTreeMap<String, u32> {
        l.edges(s)
            .iter()
            .map(|e| (l.alphabet().name(e.label).to_string(), e.target))
            .collect()
    };
    let mut seen = HashSet::new();
    let mut todo = vec![(a.initial()[0], b.initial()[0], Vec::<String>::new())];
    while let Some((x, y, trace)) = todo.pop() {
        if !seen.insert((x, y)) {
            continue;
        }
        let (lx, ly) = (labels(&a, x), labels(&b, y));
        let (kx, ky): (Vec<&String>, Vec<&String>) = (lx.keys().collect(), ly.keys().collect());
        assert_eq!(
            kx, ky,
            "{name}: after {trace:?} the imported model and the port differ"
        );
        for (l, tx) in &lx {
            let mut t = trace.clone();
            t.push(l.clone());
            todo.push((*tx, ly[l], t));
        }
    }
}

fn lts_of(m: &ioco_lang::Model, name: &str) -> Option<Result<Lts, String>> {
    let spec = m.spec(name)?;
    Some(
        to_lts(spec, &Options::default()).map_err(|e| format!("{e:?}").chars().take(200).collect()),
    )
}

#[test]
fn imported_models_agree_with_the_hand_ports() {
    let Some(c) = corpus() else {
        return;
    };
    let mut agreed = Vec::new();
    for (file, with, port) in PAIRS {
        let mut paths = vec![c.join(file)];
        paths.extend(with.iter().map(|w| c.join(w)));
        let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        let imported = ioco_txs::load_files(&refs)
            .unwrap_or_else(|d| panic!("{file}: {}", ioco_lang::render_plain(&d)));
        let port_path = root().join("examples/torxakis").join(port);
        let ported = ioco_lang::parse_file(&port_path)
            .unwrap_or_else(|d| panic!("{port}: {}", ioco_lang::render_plain(&d)));
        for info in &imported.lowered.models {
            let Some(p) = lts_of(&ported, &info.txs_name) else {
                continue;
            };
            let i = lts_of(&imported.model, &info.ioco_name).expect("the imported model");
            let (i, p) = match (i, p) {
                (Ok(i), Ok(p)) => (i, p),
                (i, p) => {
                    eprintln!(
                        "{}: not finite ({:?} / {:?})",
                        info.txs_name,
                        i.err(),
                        p.err()
                    );
                    continue;
                }
            };
            agree(&info.txs_name, &i, &p);
            agreed.push(format!("{} ({} states)", info.txs_name, i.num_states()));
        }
    }
    for (file, model, port, spec) in RENAMED {
        let imported = ioco_txs::load_files(&[&c.join(file)])
            .unwrap_or_else(|d| panic!("{file}: {}", ioco_lang::render_plain(&d)));
        let ported = ioco_lang::parse_file(root().join("examples/torxakis").join(port))
            .unwrap_or_else(|d| panic!("{port}: {}", ioco_lang::render_plain(&d)));
        let info = imported
            .lowered
            .models
            .iter()
            .find(|m| m.txs_name == *model)
            .expect("the MODELDEF");
        let i = lts_of(&imported.model, &info.ioco_name).unwrap().unwrap();
        let p = lts_of(&ported, spec).unwrap().unwrap();
        agree(spec, &i, &p);
        agreed.push(format!("{spec} ({} states)", i.num_states()));
    }
    agreed.sort();
    agreed.dedup();
    eprintln!("agree: {}", agreed.join(", "));
    // values passed on EXIT to `>>> ACCEPT` (Enable.txs), the two-process one with its exits
    // synchronised and their offers combined
    for m in ["SeqEnableInt", "SeqEnableTwoInts"] {
        assert!(
            agreed.iter().any(|a| a.starts_with(&format!("{m} ("))),
            "{m} compared"
        );
    }
    assert_eq!(agreed.len(), 28, "pinned: pairs compared");
}
