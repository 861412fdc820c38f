//! The methods on the public corpus (AALpy's DOT models of TCP, TLS, MQTT, Bluetooth LE and
//! small examples; hybrid-ADS's Lee–Yannakakis example): every method generates a suite, the
//! suites are prefix-free and defined, their sizes satisfy the expected relations, the JSON
//! test cases pass on the specification and fail on mutants, and on the small models every
//! mutant is killed.

mod common;

use common::*;
use ioco_fsm::equivalence::{distinguishing_word, first_killing_test};
use ioco_fsm::{generate, FsmError, FsmSuite, Method, Plan};
use ioco_gen::{TestCase, Verdict};
use ioco_model::Mealy;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Every DOT file of the Mealy corpus that parses as a Mealy machine; `None` once the calling
/// test is recorded as skipped for want of the corpus (a failure under `IOCO_NO_SKIP=1`): see
/// `ioco_testkit`.
fn corpus() -> Option<Vec<(String, Mealy)>> {
    let root = ioco_testkit::corpus()?;
    let mut files = Vec::new();
    let mut stack = vec![root.join("mealy-aalpy"), root.join("hybrid-ads")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "dot") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut out = Vec::new();
    for p in files {
        let src = std::fs::read_to_string(&p).unwrap();
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        match ioco_formats::dot::parse_mealy(&src, &p.to_string_lossy()) {
            Ok(m) => out.push((name, m)),
            Err(e) => eprintln!("{name}: not read as a Mealy machine: {e}"),
        }
    }
    assert!(out.len() >= 25, "only {} corpus models read", out.len());
    Some(out)
}

/// The corpus model `name`; `None` as for [`corpus`].
fn model(name: &str) -> Option<Mealy> {
    let m = corpus()?
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("corpus model {name}"))
        .1;
    Some(m)
}

/// Run a test case against a machine (the Mealy LTS reading: `i?` then the output `o!`).
fn execute(t: &TestCase, m: &Mealy) -> Verdict {
    let mut s = m.initial;
    let mut node = t;
    loop {
        match node {
            TestCase::Leaf { verdict, .. } => return *verdict,
            TestCase::Stimulate { input, after, .. } => {
                let name = input.strip_suffix('?').unwrap();
                let i = m.input_index(name).unwrap();
                let Some((t2, o)) = m.step(s, i) else {
                    return Verdict::Fail;
                };
                s = t2;
                let label = format!("{}!", m.outputs[o as usize]);
                match &**after {
                    TestCase::Observe {
                        branches,
                        otherwise,
                    } => match branches.iter().find(|b| b.label == label) {
                        Some(b) => node = &b.then,
                        None => return *otherwise,
                    },
                    other => panic!("a stimulus is followed by an observation, got {other:?}"),
                }
            }
            TestCase::Observe { .. } => panic!("tests start with a stimulus"),
        }
    }
}

fn check_shape(name: &str, spec: &Mealy, s: &FsmSuite) {
    let mut words = s.words.clone();
    words.sort();
    for w in words.windows(2) {
        assert!(
            !w[1].starts_with(&w[0]),
            "{name} {}: {:?} is a prefix of {:?}",
            s.method,
            w[0],
            w[1]
        );
    }
    for w in &s.words {
        assert!(
            spec.outputs_of(w).is_some(),
            "{name} {}: undefined test {w:?}",
            s.method
        );
    }
}

#[test]
fn every_method_on_every_corpus_model() {
    let mut generated = 0;
    // Total symbols per (k, method) over the models where every method applies.
    let mut totals: std::collections::HashMap<(usize, Method), usize> = Default::default();
    let Some(models) = corpus() else {
        return;
    };
    for (name, m) in models {
        let ks: &[usize] = if m.num_states() <= 20 { &[0, 1] } else { &[0] };
        for &k in ks {
            let mut sym = std::collections::HashMap::new();
            for method in Method::ALL {
                match generate(&m, method, k) {
                    Ok(s) => {
                        check_shape(&name, &m, &s);
                        assert!(s.stats().tests > 0);
                        sym.insert(method, s.stats().symbols);
                        generated += 1;
                        if method == Method::Hads {
                            assert!(s.params.contains_key("ads_complete"));
                        }
                    }
                    Err(FsmError::Incompatible { pairs }) => {
                        // Only the AALpy arithmetic model (a visibly pushdown example whose
                        // `1`/`+` edges carry no output) has compatible states.
                        assert_eq!(name, "arithmetics", "{name}: {pairs:?}");
                    }
                    Err(e) => panic!("{name} {method} k={k}: {e}"),
                }
            }
            if sym.len() == Method::ALL.len() {
                // Wp's identifiers are subsets of W: never larger than W.
                assert!(sym[&Method::Wp] <= sym[&Method::W], "{name} k={k} {sym:?}");
                for (&method, &n) in &sym {
                    *totals.entry((k, method)).or_default() += n;
                }
                if k == 0 {
                    // On-the-fly separators never cost more than fixed identifiers here.
                    assert!(sym[&Method::H] <= sym[&Method::Hsi], "{name} k={k} {sym:?}");
                }
            }
        }
    }
    assert!(generated > 200);
    // Typical relations, over the whole corpus: H ≤ HSI, Wp ≤ W and hybrid-ADS ≤ HSI. (HSI and
    // Wp have no general order: greedy set-cover identifiers W_s can be smaller than the
    // harmonised ones, as on this corpus at k = 0.)
    for k in [0, 1] {
        let t = |m: Method| totals[&(k, m)];
        assert!(t(Method::H) <= t(Method::Hsi), "k={k} {totals:?}");
        assert!(t(Method::Wp) <= t(Method::W), "k={k} {totals:?}");
        assert!(t(Method::Hads) <= t(Method::Hsi), "k={k} {totals:?}");
    }
}

#[test]
fn lee_yannakakis_machine_has_a_complete_ads_and_a_smaller_hads_suite() {
    let Some(m) = model("lee_yannakakis_distinguishable") else {
        return;
    };
    assert_eq!(m.num_states(), 6);
    for k in 0..=2 {
        let hads = generate(&m, Method::Hads, k).unwrap();
        let hsi = generate(&m, Method::Hsi, k).unwrap();
        let w = generate(&m, Method::W, k).unwrap();
        assert_eq!(hads.params["ads_complete"], serde_json::Value::Bool(true));
        assert_eq!(hads.params["ads_unsplit_states"], 0);
        assert!(hads.stats().symbols < hsi.stats().symbols, "k={k}");
        assert!(hsi.stats().symbols < w.stats().symbols, "k={k}");
    }
}

#[test]
fn json_tests_pass_on_the_spec_and_fail_on_a_killed_mutant() {
    let Some(m) = model("TCP_Linux_Client") else {
        return;
    };
    let spec = minimal(&m);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for method in Method::ALL {
        let s = generate(&spec, method, 0).unwrap();
        let suite = s.to_suite();
        assert_eq!(suite.method, method.name());
        assert_eq!(suite.parameters["k"], 0);
        assert_eq!(suite.tests.len(), s.words.len());
        for t in &suite.tests {
            t.test.validate().unwrap();
            assert_eq!(
                execute(&t.test, &spec),
                Verdict::Pass,
                "{method} {}",
                t.name
            );
        }
        // A JSON round trip keeps the suite.
        let json = serde_json::to_string(&suite).unwrap();
        assert_eq!(
            serde_json::from_str::<ioco_gen::Suite>(&json).unwrap(),
            suite
        );
        let mut killed = 0;
        for _ in 0..20 {
            let mutant = random_mutant(&spec, 0, &mut rng);
            if distinguishing_word(&spec, &mutant).is_some() {
                let i = first_killing_test(&s.words, &spec, &mutant).expect("killed");
                assert_eq!(execute(&suite.tests[i].test, &mutant), Verdict::Fail);
                killed += 1;
            }
        }
        assert!(killed > 0);
    }
}

#[test]
fn streaming_writer_gives_the_collected_suite() {
    let Some(m) = model("CC2640R2-no-feature-req") else {
        return;
    };
    for method in Method::ALL {
        let plan = Plan::new(&m, method, 1).unwrap();
        let mut out = Vec::new();
        let stats = plan.write_words(&mut out).unwrap();
        let iterated: Vec<Vec<u32>> = plan.iter().collect();
        let s = Plan::new(&m, method, 1).unwrap().collect();
        assert_eq!(iterated, s.words);
        assert_eq!(stats, s.stats());
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), s.words.len());
        for (line, w) in lines.iter().zip(&s.words) {
            let names: Vec<&str> = w.iter().map(|&a| m.inputs[a as usize].as_str()).collect();
            assert_eq!(*line, names.join(" "));
        }
    }
}

/// Small corpus models: every single-fault mutant is killed with k = 0, and random mutants
/// with up to two extra states with k = 2 (k = 1 for the larger ones).
#[test]
fn corpus_mutants_are_killed() {
    let Some(models) = corpus() else {
        return;
    };
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut checked = 0;
    for (name, m) in models {
        let Ok(p) = ioco_fsm::prepare::prepare(&m) else {
            continue;
        };
        let spec = p.machine;
        if spec.num_states() > 20 || spec.num_states() < 2 {
            continue;
        }
        let k = if spec.num_states() <= 9 { 2 } else { 1 };
        let plain: Vec<Mealy> = sample(&all_plain_mutants(&spec), 400, &mut rng)
            .into_iter()
            .filter(|mu| distinguishing_word(&spec, mu).is_some())
            .collect();
        let extra: Vec<Mealy> = (0..60)
            .map(|_| {
                let mut mu = random_mutant(&spec, k, &mut rng);
                complete_with_self_loops(&mut mu);
                mu
            })
            .filter(|mu| distinguishing_word(&spec, mu).is_some())
            .collect();
        for method in Method::ALL {
            let s0 = generate(&spec, method, 0).unwrap();
            for mu in &plain {
                checked += 1;
                assert!(killed(&s0.words, &spec, mu), "{name} {method} k=0: {mu:?}");
            }
            let sk = generate(&spec, method, k).unwrap();
            for mu in &extra {
                checked += 1;
                assert!(
                    killed(&sk.words, &spec, mu),
                    "{name} {method} k={k}: {mu:?}"
                );
            }
        }
    }
    assert!(checked > 5_000, "{checked}");
}

fn complete_with_self_loops(m: &mut Mealy) {
    for s in 0..m.num_states() as u32 {
        for a in 0..m.num_inputs() as u32 {
            if m.step(s, a).is_none() {
                m.set(s, a, s, 0);
            }
        }
    }
}
