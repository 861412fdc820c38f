//! The explicit and the symbolic engine give the same verdicts on random finite-data models
//! (issue #12 item 4): random `.ioco` specifications over `int[0..2]` and implementations
//! derived from them (inputs completed, then one change or none). The explicit engine tests the
//! translated LTS against the implementation's LTS simulated; the symbolic engine tests the
//! specification (Z3) against the implementation simulated symbolically. Both must pass every
//! conforming implementation (as `compare` decides on the LTSs) and fail the non-conforming
//! ones (each within its runs; over the cases, at most one miss per engine is allowed, since a
//! random walk may not reach a fault). Fixed seeds: same run every time.

use ioco_exec::{run_online, OnlineOptions, RunVerdict, SutError};
use ioco_model::{compare, CompareOptions, Lts};
use ioco_sut::sim::SimOptions;
use ioco_sut::Sut;
use ioco_symbolic::online::SpecSut;
use ioco_symbolic::tracker::SymbolicSpec;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// A switch: (from, text after `--`, to).
type Switch = (usize, String, usize);

fn random_switches(rng: &mut ChaCha8Rng, n: usize) -> Vec<Switch> {
    let mut sw = Vec::new();
    let kinds = [
        ("a?(x) { v = x }", 0.7),
        ("b?", 0.5),
        ("o!(y) [y == v]", 0.5),
        ("o!(y) [y != v]", 0.3),
        ("p!", 0.4),
    ];
    for l in 0..n {
        for (t, p) in kinds {
            let to = rng.random_range(0..n);
            if rng.random_bool(p) {
                sw.push((l, t.to_string(), to));
            }
        }
    }
    sw
}

fn text(sw: &[Switch]) -> String {
    let mut s = String::from(
        "model M {\n  input a(x: int[0..2]), b\n  output o(y: int[0..2]), p\n  \
         var v: int[0..2] = 0\n  init l0\n",
    );
    for (f, t, to) in sw {
        s.push_str(&format!("  l{f} -- {t} --> l{to}\n"));
    }
    s.push_str("}\n");
    s
}

/// The implementation: the specification's switches, inputs completed (self-loops), then one
/// change (`kind` 0: none).
fn derived(rng: &mut ChaCha8Rng, n: usize, spec: &[Switch], kind: u8) -> Vec<Switch> {
    let mut sw = spec.to_vec();
    for l in 0..n {
        for i in ["a?(x) { v = x }", "b?"] {
            let gate = &i[..1];
            if !sw.iter().any(|(f, t, _)| *f == l && t.starts_with(gate)) {
                sw.push((l, i.to_string(), l));
            }
        }
    }
    match kind {
        1 => {
            let l = rng.random_range(0..n);
            let o = ["o!(y) [y == v]", "o!(y) [y != v]", "p!"][rng.random_range(0..3)];
            sw.push((l, o.to_string(), rng.random_range(0..n)));
        }
        2 => {
            let outs: Vec<usize> = (0..sw.len()).filter(|&i| sw[i].1.contains('!')).collect();
            if !outs.is_empty() {
                sw.remove(outs[rng.random_range(0..outs.len())]);
            }
        }
        3 => {
            let i = rng.random_range(0..sw.len());
            sw[i].2 = rng.random_range(0..n);
        }
        _ => {}
    }
    sw
}

fn lts_of(src: &str) -> Option<(Lts, Arc<ioco_lang::ir::Spec>)> {
    let model = ioco_lang::parse_str("m.ioco", src).ok()?;
    let spec = Arc::new(model.entry()?.clone());
    let (lts, _) = ioco_lang::lts_timed_of(&model, "m.ioco").ok()?;
    Some((lts, spec))
}

fn sim_factory(
    imp: Lts,
    spec: &Lts,
) -> impl Fn(usize) -> Result<Box<dyn Sut + Send>, SutError> + Sync {
    ioco_sut::sim::factory(
        imp,
        spec.alphabet(),
        SimOptions {
            race: 0.0,
            ..SimOptions::default()
        },
    )
}

#[test]
fn both_engines_agree_on_random_finite_data_models() {
    let (mut conforming, mut wrong) = (0, 0);
    let (mut explicit_missed, mut symbolic_missed) = (0, 0);
    for case in 0..40u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(case);
        let n = rng.random_range(1..=3);
        let spec_sw = random_switches(&mut rng, n);
        if spec_sw.is_empty() {
            continue;
        }
        let kind = rng.random_range(0..4);
        let imp_sw = derived(&mut rng, n, &spec_sw, kind);
        let (Some((spec_lts, spec)), Some((imp_lts, imp))) =
            (lts_of(&text(&spec_sw)), lts_of(&text(&imp_sw)))
        else {
            continue;
        };
        let conforms = compare(&imp_lts, &spec_lts, &CompareOptions::default())
            .unwrap()
            .conforms();
        // the explicit engine
        let opts = OnlineOptions {
            runs: 30,
            depth: 12,
            seed: case,
            ..OnlineOptions::default()
        };
        let e = run_online(&spec_lts, &opts, sim_factory(imp_lts.clone(), &spec_lts))
            .unwrap()
            .verdict;
        // the symbolic engine
        let mut s = RunVerdict::Pass;
        for run in 0..30u64 {
            let mut t = SymbolicSpec::with_z3(spec.clone()).unwrap();
            let sim = SymbolicSpec::with_z3(imp.clone()).unwrap();
            let mut sut = SpecSut::new(sim, ChaCha8Rng::seed_from_u64(case * 1000 + run));
            let mut r = ChaCha8Rng::seed_from_u64(case * 7919 + run);
            let o = OnlineOptions {
                depth: 12,
                ..OnlineOptions::default()
            };
            match ioco_exec::engine::symbolic::run_online(&mut t, &mut sut, &o, &mut r).verdict {
                RunVerdict::Fail => {
                    s = RunVerdict::Fail;
                    break;
                }
                RunVerdict::Pass => {}
                other => panic!("case {case}: symbolic run ended {other:?}"),
            }
        }
        if conforms {
            conforming += 1;
            assert_eq!(
                e,
                RunVerdict::Pass,
                "case {case} explicit:\n{}",
                text(&imp_sw)
            );
            assert_eq!(
                s,
                RunVerdict::Pass,
                "case {case} symbolic:\n{}",
                text(&imp_sw)
            );
        } else {
            wrong += 1;
            explicit_missed += usize::from(e != RunVerdict::Fail);
            symbolic_missed += usize::from(s != RunVerdict::Fail);
        }
    }
    eprintln!(
        "{conforming} conforming, {wrong} non-conforming (missed: explicit {explicit_missed}, \
         symbolic {symbolic_missed})"
    );
    assert!(conforming >= 8 && wrong >= 8, "too few cases of a kind");
    assert!(explicit_missed <= 1 && symbolic_missed <= 1);
}
