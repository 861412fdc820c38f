//! Learning every Mealy machine of the shared corpus (`mealy-aalpy/`; see `ioco_testkit`) in
//! process yields a machine equivalent to it (checked with `ioco-fsm`'s equivalence, outputs
//! matched by name), with the suites of each method as the oracle.

use ioco_learn::{compare, learn_with, Method, Options, Oracle, System};
use ioco_model::Mealy;
use std::path::{Path, PathBuf};

/// The Mealy machines of the corpus; `None` once the calling test is recorded as skipped for
/// want of the corpus (a failure under `IOCO_NO_SKIP=1`): see `ioco_testkit`.
fn corpus() -> Option<Vec<(PathBuf, Mealy)>> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "dot") {
                out.push(p);
            }
        }
    }
    let dir = ioco_testkit::corpus()?.join("mealy-aalpy");
    let mut files = Vec::new();
    walk(&dir, &mut files);
    files.sort();
    assert!(files.len() >= 28, "{files:?}");
    let machines = files
        .into_iter()
        .map(|f| match ioco_formats::load(&f).unwrap() {
            ioco_formats::Model::Mealy(m) => (f, m),
            other => panic!("{}: a {}", f.display(), other.kind()),
        })
        .collect();
    Some(machines)
}

fn learn_all(method: Method, k: usize, random_words: usize) {
    let Some(machines) = corpus() else {
        return;
    };
    for (file, m) in machines {
        let opts = Options {
            oracle: Oracle {
                method: Some(method),
                extra_states: k,
                random_words,
                random_after_percent: 0,
                random_before_min_states: 0,
                seed: 7,
                cheapest: false,
            },
            ..Options::default()
        };
        let system = System::mealy(m.clone(), &m.inputs).unwrap();
        let (learned, _) = learn_with(system, &opts, &mut |_| {})
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(learned.verified, "{}", file.display());
        assert_eq!(
            compare::difference(&m, &learned.machine),
            None,
            "{} ({method})",
            file.display()
        );
        eprintln!(
            "{:50} {:>4} states  {:>8} resets {:>9} symbols",
            file.file_name().unwrap().to_string_lossy(),
            learned.machine.num_states(),
            learned.stats.resets,
            learned.stats.symbols
        );
    }
}

#[test]
fn every_corpus_machine_is_learned_with_hybrid_ads_k1_and_random_words() {
    learn_all(Method::Hads, 1, 100);
}

#[test]
fn every_corpus_machine_is_learned_with_wp_k1_and_random_words() {
    learn_all(Method::Wp, 1, 100);
}

/// The learner's defaults (`ioco learn` without options): the equivalence oracle chooses per
/// hypothesis the cheapest of hybrid-ADS, Wp and HSI (issue #33). Every corpus machine of
/// fewer than 30 states (the three TCP servers of 38-57 states take minutes in a debug build;
/// BENCHMARKS.md has them) is learned equivalent with it, and on RSA BSAFE, where hybrid-ADS alone costs more symbols
/// than AALpy's best Wp run (6 095 against 4 148, BENCHMARKS.md), it costs fewer than both.
#[test]
fn the_default_oracle_learns_every_corpus_machine_and_beats_aalpy_on_rsa_bsafe() {
    let Some(machines) = corpus() else {
        return;
    };
    let symbols = |m: &Mealy, oracle: Oracle| {
        let opts = Options {
            oracle,
            ..Options::default()
        };
        let system = System::mealy(m.clone(), &m.inputs).expect("the machine's inputs");
        let (learned, _) = learn_with(system, &opts, &mut |_| {}).unwrap();
        assert!(learned.verified);
        assert_eq!(compare::difference(m, &learned.machine), None);
        learned.stats.symbols
    };
    let default = Oracle {
        seed: 1,
        ..Oracle::default()
    };
    assert!(default.cheapest, "the default chooses the cheapest suite");
    let mut rsa = false;
    for (file, m) in machines.iter().filter(|(_, m)| m.num_states() < 30) {
        let name = file.file_name().unwrap().to_string_lossy();
        let auto = symbols(m, default);
        if name == "RSA_BSAFE_C_4.0.4_server_regular.dot" {
            rsa = true;
            let hads = symbols(
                m,
                Oracle {
                    cheapest: false,
                    ..default
                },
            );
            assert!(
                auto < 4148 && auto < hads,
                "{name}: {auto} symbols, hads alone {hads}"
            );
        }
    }
    assert!(rsa, "RSA BSAFE is in the corpus");
}
