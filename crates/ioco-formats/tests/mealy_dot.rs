//! What `dot::write_mealy` writes is read by this crate as the same machine (by names), and has
//! the line shapes the other tools' readers need (issue #33 item 2): AALpy 2.0.0's
//! `load_automaton_from_file` (one statement per line, `\w+` node IDs, a `label=` on every node
//! line, `__start0 -> s`), hybrid-ADS's `read_mealy_from_dot` (the first quoted string of an
//! edge line is `in / out`, the first edge's source is initial) and LearnLib's
//! `DOTParsers.mealy()` (`label` split at `/` into exactly two parts). The Python tests
//! (`python/tests/test_dot.py`) load the same files with AALpy itself.

use ioco_formats::{dot, load, Model};
use ioco_model::Mealy;
use std::path::{Path, PathBuf};

/// `a` and `b` are the same machine: the same state numbers, initial state and transitions,
/// with inputs and outputs compared by name.
fn same(a: &Mealy, b: &Mealy) -> Result<(), String> {
    if a.num_states() != b.num_states() || a.initial != b.initial {
        return Err(format!(
            "{} states, initial {} vs {} states, initial {}",
            a.num_states(),
            a.initial,
            b.num_states(),
            b.initial
        ));
    }
    let mut ia = a.inputs.clone();
    let mut ib = b.inputs.clone();
    ia.sort();
    ib.sort();
    if ia != ib {
        return Err(format!("inputs {ia:?} vs {ib:?}"));
    }
    for s in 0..a.num_states() as u32 {
        for name in &a.inputs {
            let step = |m: &Mealy| {
                m.input_index(name)
                    .and_then(|i| m.step(s, i))
                    .map(|(t, o)| (t, m.outputs[o as usize].clone()))
            };
            if step(a) != step(b) {
                return Err(format!(
                    "state {s}, input {name}: {:?} vs {:?}",
                    step(a),
                    step(b)
                ));
            }
        }
    }
    Ok(())
}

/// source, target, input, output
type Edge = (String, String, String, String);

/// The transitions as hybrid-ADS reads them: lines with `->`, source and target the first and
/// third words, the first quoted string split into the words `input / output`; its initial
/// state is the source of the first such line.
fn hybrid_ads_view(text: &str) -> (Option<String>, Vec<Edge>) {
    let mut first = None;
    let mut edges = Vec::new();
    for line in text.lines() {
        if !line.contains("->") {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(q1) = line.find('"') else { continue };
        let Some(q2) = line[q1 + 1..].find('"') else {
            continue;
        };
        let label: Vec<&str> = line[q1 + 1..q1 + 1 + q2].split_whitespace().collect();
        assert_eq!(label.len(), 3, "hybrid-ADS reads `in / out` words: {line}");
        assert_eq!(label[1], "/", "{line}");
        first.get_or_insert_with(|| words[0].to_string());
        edges.push((
            words[0].to_string(),
            words[2].to_string(),
            label[0].to_string(),
            label[2].to_string(),
        ));
    }
    (first, edges)
}

/// The checks of AALpy's and LearnLib's readers on every line of `text`.
fn aalpy_and_learnlib_shapes(text: &str, m: &Mealy) {
    let is_word = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_');
    let mut start = None;
    let mut nodes = Vec::new();
    let mut edges = 0;
    for line in text.lines().map(str::trim) {
        if line.contains("__start0 ->") {
            let rest = line
                .split("->")
                .nth(1)
                .unwrap()
                .trim()
                .trim_end_matches(';');
            assert!(is_word(rest), "AALpy's start pattern: {line}");
            start = Some(rest.to_string());
        } else if !line.contains("__start0") && line.contains("label") && !line.contains("->") {
            let id = line.split('[').next().unwrap().trim();
            assert!(is_word(id), "AALpy's node ID: {line}");
            assert!(
                !line.contains("label=\"\""),
                "AALpy strips a label: not empty: {line}"
            );
            nodes.push(id.to_string());
        } else if line.contains("->") {
            let (src, rest) = line.split_once("->").unwrap();
            let dst = rest.trim().split([' ', '[']).next().unwrap();
            assert!(
                is_word(src.trim()) && is_word(dst),
                "AALpy's edge pattern: {line}"
            );
            let label = line
                .split("label=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            // LearnLib: exactly two parts around `/` (an output with `/` it cannot read)
            if !m.outputs.iter().any(|o| o.contains('/')) {
                assert_eq!(label.split('/').count(), 2, "{line}");
            }
            edges += 1;
        }
    }
    assert_eq!(nodes.len(), m.num_states());
    assert_eq!(start.as_deref(), Some(nodes[m.initial as usize].as_str()));
    let defined = (0..m.num_states() as u32)
        .flat_map(|s| (0..m.num_inputs() as u32).map(move |i| (s, i)))
        .filter(|&(s, i)| m.step(s, i).is_some())
        .count();
    assert_eq!(edges, defined);
}

fn corpus_machines() -> Vec<PathBuf> {
    let Some(root) = ioco_testkit::corpus() else {
        return Vec::new();
    };
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(d) else { return };
        let mut es: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
        es.sort();
        for p in es {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "dot") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root.join("mealy-aalpy"), &mut out);
    walk(&root.join("hybrid-ads"), &mut out);
    out
}

#[test]
fn every_corpus_mealy_machine_round_trips_and_has_the_other_readers_shapes() {
    let files = corpus_machines();
    if files.is_empty() {
        return; // the skip is recorded by ioco_testkit::corpus()
    }
    let mut checked = 0;
    for f in &files {
        let Ok(Model::Mealy(m)) = load(f) else {
            continue;
        };
        let text = dot::write_mealy(&m);
        let back = dot::parse_mealy(&text, "w.dot").unwrap();
        same(&m, &back).unwrap_or_else(|e| panic!("{}: {e}\n{text}", f.display()));
        aalpy_and_learnlib_shapes(&text, &m);
        let plain = m
            .inputs
            .iter()
            .chain(&m.outputs)
            .all(|n| !n.is_empty() && !n.contains(char::is_whitespace));
        if plain {
            let (first, edges) = hybrid_ads_view(&text);
            let ids: Vec<String> = text
                .lines()
                .map(str::trim)
                .filter(|l| !l.contains("->") && !l.starts_with("__") && l.contains("label"))
                .map(|l| l.split('[').next().unwrap().trim().to_string())
                .collect();
            assert_eq!(first.as_deref(), Some(ids[m.initial as usize].as_str()));
            for (s, t, i, o) in edges {
                let sn = ids.iter().position(|x| *x == s).unwrap() as u32;
                let (tn, on) = m.step(sn, m.input_index(&i).unwrap()).unwrap();
                assert_eq!(
                    (ids[tn as usize].as_str(), m.outputs[on as usize].as_str()),
                    (t.as_str(), o.as_str())
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 29, "only {checked} Mealy machines in the corpus");
}

#[test]
fn awkward_state_names_become_labels_of_plain_ids() {
    let names = ["idle state", "s\"1", "node", "__start7"];
    for bad in names {
        let mut m = Mealy::new(
            2,
            vec!["a".into(), "b".into()],
            vec!["x".into(), "y".into()],
            1,
        );
        m.state_names = vec![bad.to_string(), "ok".to_string()];
        m.set(0, 0, 1, 0);
        m.set(0, 1, 0, 1);
        m.set(1, 0, 0, 1);
        m.set(1, 1, 1, 0);
        let text = dot::write_mealy(&m);
        aalpy_and_learnlib_shapes(&text, &m);
        let back = dot::parse_mealy(&text, "w.dot").unwrap();
        same(&m, &back).unwrap();
        assert_eq!(back.state_names, vec!["s0", "s1"], "{text}");
        // hybrid-ADS's initial state is the first edge's source: the initial state s1
        assert_eq!(hybrid_ads_view(&text).0.as_deref(), Some("s1"), "{text}");
    }
    // plain names are the IDs and come back
    let mut m = Mealy::new(1, vec!["a".into()], vec!["x".into()], 0);
    m.state_names = vec!["Idle_1".into()];
    m.set(0, 0, 0, 0);
    let text = dot::write_mealy(&m);
    assert!(
        text.contains("  Idle_1 [label=\"Idle_1\", shape=circle];"),
        "{text}"
    );
    assert_eq!(
        dot::parse_mealy(&text, "w.dot").unwrap().state_names,
        vec!["Idle_1"]
    );
}
