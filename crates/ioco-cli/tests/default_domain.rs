//! Seed 004's Figs. 4–5 without options (issue #36): on a product this small `ioco gen` picks
//! the paper's analysis by itself, convex polyhedra with the forward simplification.
mod common;
use common::ioco;
use predicates::str::contains;

const SPEC: &str = "examples/purposes/stg/spec.ioco";
const PURPOSE: &str = "examples/purposes/stg/purpose.ioco";

#[test]
fn gen_without_options_gives_the_papers_figures_4_and_5() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.json");
    ioco()
        .args(["gen", SPEC, "--purpose", PURPOSE, "-o"])
        .arg(&out)
        .assert()
        .code(0)
        .stderr(contains("domain: polyhedra"));
    let g: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(g["domain"], "polyhedra");
    assert_eq!(g["forward_reach"], true);
    let ts = g["transitions"].as_array().unwrap();
    let kept = |from: &str, gate: &str| -> Vec<String> {
        ts.iter()
            .filter(|t| t["from"] == from && t["gate"] == gate && t["fate"] == "keep")
            .flat_map(|t| t["strengthened_guard"].as_array().unwrap().clone())
            .map(|c| c.as_str().unwrap().to_string())
            .collect()
    };
    // Fig. 4: ?a(p) p ≥ 6 from RecX; ?a(p) p = x + 2 from RecY; !OK(p) p = y − x = 2.
    let recx = kept("(RecX,Wait)", "a").join(" ∨ ");
    assert!(recx.contains("-p0 ≤ -6"), "{recx}");
    let recy = kept("(RecY,Wait)", "a").join(" ∨ ");
    assert!(
        recy.contains("-x + p0 ≤ 2") && recy.contains("x - p0 ≤ -2"),
        "{recy}"
    );
    let ok = kept("(Compare,Wait)", "OK").join(" ∨ ");
    assert!(
        ok.contains("x - y + p0 ≤ 0") && ok.contains("-x + y - p0 ≤ 0"),
        "{ok}"
    );
    // Fig. 5: from Compare only ?OK(p) with p = 2 is left (Error, NOK and the refusing OK
    // never fire and are deleted).
    let at_compare: Vec<&str> = ts
        .iter()
        .filter(|t| t["from"] == "(Compare,Wait)")
        .map(|t| t["fate"].as_str().unwrap())
        .collect();
    assert_eq!(
        at_compare.iter().filter(|f| **f == "keep").count(),
        1,
        "{at_compare:?}"
    );
    assert_eq!(
        at_compare.iter().filter(|f| **f == "unreachable").count(),
        at_compare.len() - 1,
        "{at_compare:?}"
    );
    // Naming a domain keeps the old meaning: octagons, no forward simplification.
    ioco()
        .args([
            "gen",
            SPEC,
            "--purpose",
            PURPOSE,
            "--domain",
            "octagon",
            "-o",
        ])
        .arg(&out)
        .assert()
        .code(0);
    let g: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        (g["domain"].as_str(), g["forward_reach"].as_bool()),
        (Some("octagon"), Some(false))
    );
}
