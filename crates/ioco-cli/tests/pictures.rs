//! `ioco show` pictures from the binary: a suite as a prefix tree and one of its test cases,
//! the product with a test purpose, a model with the coverage of saved results, and a data
//! model's locations and switches, as SVG (laid out by ioco) and DOT.

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
