//! `ioco show` pictures from the binary: a suite as a prefix tree and one of its test cases,
//! the product with a test purpose, a model with the coverage of saved results, and a data
//! model's locations and switches, as SVG (laid out by ioco) and DOT; and no label of any
//! picture of the examples and the corpus overlapping another label or a node (issue 32).

mod common;

use common::ioco;
use predicates::str::contains;

fn stdout(args: &[&str]) -> String {
    let out = ioco()
        .args(args)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn a_suite_is_drawn_as_a_prefix_tree_and_a_test_as_a_path() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.json");
    let suite_s = suite.display().to_string();
    ioco()
        .args([
            "gen",
            "examples/coffee/coffee.ioco",
            "--method",
            "n-complete",
        ])
        .args(["--n", "1", "-o", &suite_s])
        .assert()
        .code(0);
    let svg = stdout(&["show", &suite_s, "--format", "svg"]);
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg}"
    );
    // one root, inputs and outputs drawn differently, verdict leaves as boxes
    assert_eq!(svg.matches("class=\"node initial\"").count(), 1, "{svg}");
    assert!(svg.contains("class=\"edge in\""));
    assert!(svg.contains("class=\"edge out\""));
    assert!(svg.contains("class=\"edge delta\""));
    assert!(
        svg.contains("stroke-dasharray=\"7 4\""),
        "outputs are dashed"
    );
    assert!(svg.contains("class=\"node pass\""));
    // a verdict box is never an inner node of the tree (a test that ends where another goes
    // on leaves no verdict there)
    let all = stdout(&["show", &suite_s]);
    let boxes: Vec<&str> = all
        .lines()
        .filter(|l| l.contains("shape=box"))
        .filter_map(|l| l.trim().split(' ').next())
        .collect();
    assert!(!boxes.is_empty(), "{all}");
    for b in &boxes {
        assert!(
            !all.contains(&format!("  {b} -> ")),
            "{b} is a leaf with edges out: {all}"
        );
    }
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&suite).unwrap()).unwrap();
    let name = v["tests"][0]["name"].as_str().unwrap().to_string();
    let dot = stdout(&["show", &suite_s, "--test", &name]);
    assert!(dot.starts_with("digraph ioco {"), "{dot}");
    assert!(
        dot.contains(&format!("test {name} of a n-complete suite")),
        "{dot}"
    );
    assert!(dot.contains("shape=box, color=\"#1a7f37\""), "{dot}");
    ioco()
        .args(["show", &suite_s, "--test", "no-such-test"])
        .assert()
        .code(2)
        .stderr(contains("the suite has no test `no-such-test`"));
    ioco()
        .args(["show", "examples/coffee/coffee.ioco", "--test", "x"])
        .assert()
        .code(2)
        .stderr(contains("--test draws one test of a suite"));
}

#[test]
fn the_product_with_a_purpose_marks_accept_and_refuse() {
    let dot = stdout(&[
        "show",
        "examples/coffee/coffee.ioco",
        "--purpose",
        "examples/purposes/coffee-brew.ioco",
    ]);
    assert!(
        dot.contains("label=\"({s0},accept)\", shape=box, color=\"#1a7f37\""),
        "{dot}"
    );
    assert!(
        dot.contains("label=\"({s0},refuse)\", shape=box, color=\"#9a6700\""),
        "{dot}"
    );
    assert!(
        dot.contains("label=\"coffee!\", color=\"#1a7f37\""),
        "{dot}"
    );
    let svg = stdout(&[
        "show",
        "examples/coffee/coffee.ioco",
        "--purpose",
        "examples/purposes/coffee-brew.ioco",
        "--format",
        "svg",
    ]);
    assert!(svg.contains("data-name=\"({s3},wait)\""), "{svg}");
    assert!(svg.contains("class=\"node pass\""), "{svg}");
}

#[test]
fn coverage_of_saved_results_over_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    // the buggy machine as the SUT: a Fail, and coverage up to it
    ioco()
        .args([
            "test",
            "examples/models/coffee.aut",
            "--sim",
            "examples/models/coffee-bug.aut",
        ])
        .args(["--runs", "20", "--seed", "3", "--timeout", "50", "--json"])
        .arg(&json)
        .assert()
        .code(1);
    let j = json.display().to_string();
    let svg = stdout(&[
        "show",
        "examples/models/coffee.aut",
        "--coverage",
        &j,
        "--format",
        "svg",
    ]);
    assert!(svg.contains("class=\"node visited initial\""), "{svg}");
    assert!(svg.contains("class=\"edge in visited\""), "{svg}");
    assert!(svg.contains("failing\" data-from="), "{svg}");
    assert!(svg.contains("visited "), "tooltips say how often: {svg}");
    let dot = stdout(&["show", "examples/models/coffee.aut", "--coverage", &j]);
    assert!(dot.contains("×"), "{dot}");
    assert!(dot.contains("color=\"#cf222e\""), "{dot}");
    ioco()
        .args([
            "show",
            "examples/models/coffee.aut",
            "--coverage",
            "examples/models/coffee.aut",
        ])
        .assert()
        .code(2)
        .stderr(contains("coffee.aut:1:1: not a result file"));
}

#[test]
fn a_data_model_is_drawn_with_its_locations_and_switches() {
    let svg = stdout(&["show", "examples/coffee/coffee-sts.ioco", "--format", "svg"]);
    for loc in ["idle", "filled", "ready", "brewing"] {
        assert!(
            svg.contains(&format!("data-name=\"{loc}\"")),
            "{loc}: {svg}"
        );
    }
    // guards are written with their updates, escaped
    assert!(
        svg.contains("water?(w) [w &gt; 0 &amp;&amp; total + w &lt; 150]"),
        "{svg}"
    );
}

/// An axis-parallel box: left, top, right, bottom.
type Box4 = (f64, f64, f64, f64);

/// The value of attribute `name` in the tag starting `tag`.
fn attr(tag: &str, name: &str) -> Option<f64> {
    let key = format!(" {name}=\"");
    let from = tag.find(&key)? + key.len();
    tag[from..].split('"').next()?.parse().ok()
}

/// The characters of an escaped text as drawn (`&lt;` is one).
fn drawn_chars(text: &str) -> usize {
    let mut n = 0;
    let mut in_entity = false;
    for c in text.chars() {
        match c {
            '&' => in_entity = true,
            ';' if in_entity => {
                in_entity = false;
                n += 1;
            }
            _ if in_entity => {}
            _ => n += 1,
        }
    }
    n
}

/// The boxes of the nodes and of the edge labels of an SVG picture drawn by ioco, measured
/// from what it draws: an ellipse's or a rectangle's box; a label's lines (`tspan`s) of
/// 12 px monospace text, 0.6 em a character, 15 px apart, from 0.8 em above the first
/// baseline to 0.2 em below the last.
fn boxes(svg: &str) -> (Vec<Box4>, Vec<(Box4, String)>) {
    let (mut nodes, mut labels) = (Vec::new(), Vec::new());
    for g in svg.split("<g class=\"").skip(1) {
        let g = g.split("</g>").next().unwrap();
        if g.starts_with("node") {
            if let Some(i) = g.find("<ellipse ") {
                let t = &g[i..];
                let (cx, cy) = (attr(t, "cx").unwrap(), attr(t, "cy").unwrap());
                let (rx, ry) = (attr(t, "rx").unwrap(), attr(t, "ry").unwrap());
                nodes.push((cx - rx, cy - ry, cx + rx, cy + ry));
            } else {
                let t = &g[g.find("<rect ").expect("a node is an ellipse or a box")..];
                let (x, y) = (attr(t, "x").unwrap(), attr(t, "y").unwrap());
                let (w, h) = (attr(t, "width").unwrap(), attr(t, "height").unwrap());
                nodes.push((x, y, x + w, y + h));
            }
        } else if g.starts_with("edge") {
            let t = &g[g
                .find("<text class=\"label\"")
                .expect("an edge has a label")..];
            let (x, y) = (attr(t, "x").unwrap(), attr(t, "y").unwrap());
            let lines: Vec<&str> = t
                .split("<tspan")
                .skip(1)
                .map(|l| {
                    l.split_once('>')
                        .unwrap()
                        .1
                        .split("</tspan>")
                        .next()
                        .unwrap()
                })
                .collect();
            assert!(!lines.is_empty(), "{t}");
            let chars = lines.iter().map(|l| drawn_chars(l)).max().unwrap();
            let w = chars as f64 * 0.6 * 12.0;
            let bottom = y + (lines.len() - 1) as f64 * 15.0 + 0.2 * 12.0;
            labels.push(((x, y - 0.8 * 12.0, x + w, bottom), lines.join(" / ")));
        }
    }
    (nodes, labels)
}

fn meet(a: &Box4, b: &Box4) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// The overlaps between a label and another label or a node of an SVG picture.
fn overlaps(svg: &str) -> Vec<String> {
    let (nodes, labels) = boxes(svg);
    let mut out = Vec::new();
    for (i, (a, la)) in labels.iter().enumerate() {
        for n in &nodes {
            if meet(a, n) {
                out.push(format!("label `{la}` {a:?} meets a node {n:?}"));
            }
        }
        for (b, lb) in &labels[i + 1..] {
            if meet(a, b) {
                out.push(format!("label `{la}` {a:?} meets label `{lb}` {b:?}"));
            }
        }
    }
    out
}

/// Draws `file` as `ioco show FILE ARGS --format svg` and checks its labels: `Ok(labels)`, or
/// `Err(why)` when ioco does not draw it (too large, not a model `show` takes).
fn check_picture(file: &str, args: &[&str]) -> Result<usize, String> {
    let out = ioco()
        .arg("show")
        .arg(file)
        .args(args)
        .args(["--format", "svg"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    if out.status.code() != Some(0) {
        return Err(String::from_utf8_lossy(&out.stderr).to_string());
    }
    let bad = overlaps(&text);
    assert!(
        bad.is_empty(),
        "ioco show {file} {args:?}: {} overlap(s):\n{}",
        bad.len(),
        bad.join("\n")
    );
    Ok(boxes(&text).1.len())
}

/// The model files below `dir` (sorted): `.aut`, `.dot`, `.ioco`, `.txs`.
fn models(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            models(&p, out);
        } else if p
            .extension()
            .is_some_and(|e| ["aut", "dot", "ioco", "txs"].contains(&e.to_str().unwrap_or("")))
        {
            out.push(p);
        }
    }
}

/// Issue 32: no label of a picture overlaps another label or a node. Every model of the
/// examples and of the public corpus is drawn by the binary (as its LTS, and a `.ioco`
/// model also as its locations and switches), and the boxes of what is drawn are checked.
#[test]
fn no_label_overlaps_a_label_or_a_node_in_any_picture_of_the_examples_and_the_corpus() {
    let mut files = Vec::new();
    models(&common::root().join("examples"), &mut files);
    let corpus = ioco_testkit::corpus_part("its corpus models");
    if let Some(c) = &corpus {
        models(c, &mut files);
    }
    let (mut drawn, mut labels, mut not_drawn) = (0, 0, Vec::new());
    for f in &files {
        let rel = common::from_root(&f.canonicalize().unwrap());
        let mut ways: Vec<&[&str]> = vec![&[]];
        if rel.ends_with(".ioco") {
            ways.push(&["--sts"]);
        }
        for args in ways {
            match check_picture(&rel, args) {
                Ok(n) => {
                    drawn += 1;
                    labels += n;
                }
                Err(why) => not_drawn.push(format!("{rel} {args:?}: {}", why.trim())),
            }
        }
    }
    // with coverage (counts in the labels) and the failing observation
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    ioco()
        .args(["test", "examples/coffee/coffee.aut", "--sim"])
        .args([
            "examples/models/coffee-bug.aut",
            "--runs",
            "20",
            "--seed",
            "3",
        ])
        .arg("--json")
        .arg(&json)
        .assert()
        .code(1);
    let j = json.display().to_string();
    labels += check_picture("examples/coffee/coffee.aut", &["--coverage", &j]).unwrap();
    drawn += 1;
    eprintln!(
        "{drawn} pictures with {labels} labels checked; not drawn ({}):\n{}",
        not_drawn.len(),
        not_drawn.join("\n")
    );
    // every example model is drawn; the corpus has a few that `show` does not take
    assert!(drawn >= 60, "only {drawn} pictures drawn");
    if corpus.is_some() {
        assert!(drawn >= 130, "only {drawn} pictures drawn with the corpus");
    }
}
