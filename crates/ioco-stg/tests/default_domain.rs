//! The default analysis (`ioco_stg::auto`, issue #36): seed 004's running example is small, so
//! it gets the paper's analysis (polyhedra and the forward simplification, Figs. 4–5); a
//! product with more dimensions than `AUTO_MAX_DIMS` keeps octagons.

use ioco_stg::choice::{AUTO_MAX_DIMS, AUTO_MAX_TRANSITIONS};
use ioco_stg::{analyse_with, auto, DomainChoice, Options, Polyhedra, Product};

fn load(name: &str) -> ioco_lang::Model {
    let path = format!(
        "{}/../../examples/purposes/stg/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    ioco_lang::parse_file(&path).unwrap_or_else(|d| panic!("{}", ioco_lang::render_plain(&d)))
}

#[test]
fn the_running_example_gets_polyhedra_and_forward_reachability() {
    let p = Product::new(&load("spec.ioco"), &load("purpose.ioco")).unwrap();
    assert!(p.dims.len() <= AUTO_MAX_DIMS && p.transitions.len() <= AUTO_MAX_TRANSITIONS);
    assert_eq!(auto(&p), (DomainChoice::Polyhedra, true));
    // Fig. 4/5: at Compare only the accepting OK(p) with p = y − x = 2 is left; Error, NOK and
    // the refusing OK never fire.
    let g = analyse_with::<Polyhedra>(
        &load("spec.ioco"),
        &load("purpose.ioco"),
        &Options {
            forward: true,
            ..Default::default()
        },
    )
    .unwrap();
    let compare = g.product.location("(Compare,Wait)").unwrap();
    let fates: Vec<String> = (0..g.product.transitions.len())
        .filter(|&t| g.product.transitions[t].from == compare)
        .map(|t| g.fate(t).to_string())
        .collect();
    assert_eq!(
        fates.iter().filter(|f| *f == "keep").count(),
        1,
        "{fates:?}"
    );
    assert_eq!(
        fates.iter().filter(|f| *f == "unreachable").count(),
        fates.len() - 1,
        "{fates:?}"
    );
}

#[test]
fn a_product_with_many_dimensions_keeps_octagons() {
    // 30 integer variables, each set by an input: more dimensions than AUTO_MAX_DIMS.
    let vars: Vec<String> = (0..30).map(|i| format!("v{i}: int = 0")).collect();
    let sets: Vec<String> = (0..30).map(|i| format!("v{i} = p")).collect();
    let spec = format!(
        "model Wide {{\n  input a(p: int)\n  output OK(p: int)\n  var {}\n  init S\n  \
         S -- a?(p) {{ {} }} --> T\n  T -- OK!(p) [p == v0 + v29] --> S\n}}\n",
        vars.join(", "),
        sets.join(", ")
    );
    let purpose = "model P {\n  input a(p: int)\n  output OK(p: int)\n  init w\n  \
                   w -- OK!(p) [p == 4] --> accept\n}\n";
    let spec = ioco_lang::parse_str("wide.ioco", &spec)
        .unwrap_or_else(|d| panic!("{}", ioco_lang::render_plain(&d)));
    let purpose = ioco_lang::parse_str("p.ioco", purpose)
        .unwrap_or_else(|d| panic!("{}", ioco_lang::render_plain(&d)));
    let p = Product::new(&spec, &purpose).unwrap();
    assert!(p.dims.len() > AUTO_MAX_DIMS, "{}", p.dims.len());
    assert_eq!(auto(&p), (DomainChoice::Octagon, false));
}
