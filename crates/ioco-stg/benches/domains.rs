//! Cost of the coreachability analysis per abstract domain (seed 004 Table 3 step 2): the time
//! of `analyse::<D>` (product, backward fixpoint with widening, strengthened guards) with
//! intervals, octagons and polyhedra, on the running example of 004 (Figs 1–6) and on a
//! bigger generated case: a chain of `k` readers `a?(p) { v_i = p }`, a loop
//! `inc? [v0 < 50] { v0 = v0 + 1, v1 = v1 + 1 }`, and `OK!(p)` with
//! `p = v0 − v1 + v2 − … ` (a relation over all `k` variables), the purpose asking for
//! `OK(2)` with `v0 ≥ 6`.
//!
//! Run: `cargo bench -p ioco-stg --bench domains -- 200` (repetitions; default 100). Prints,
//! per case and domain, the median and minimum wall time of one analysis, the ascending rounds
//! and widenings, whether the last reader's guard states the exact relation (chains), and the
//! ratio polyhedra / octagon of the medians.

use ioco_stg::{analyse_with, Domain, Interval, LinExpr, Octagon, Options, Polyhedra};
use std::time::Instant;

fn load(name: &str) -> ioco_lang::Model {
    let path = format!(
        "{}/../../examples/purposes/stg/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    ioco_lang::parse_file(&path).unwrap_or_else(|d| panic!("{}", ioco_lang::render_plain(&d)))
}

/// The generated chain of `k ≥ 2` readers (see the module documentation).
fn chain(k: usize) -> (ioco_lang::Model, ioco_lang::Model) {
    let vars: Vec<String> = (0..k).map(|i| format!("v{i}: int = 0")).collect();
    let mut s = format!(
        "model Chain {{\n  input a(p: int), inc\n  output OK(p: int), NOK(p: int)\n  var {}\n  init R0\n",
        vars.join(", ")
    );
    for i in 0..k {
        s += &format!("  R{i} -- a?(p) {{ v{i} = p }} --> R{}\n", i + 1);
    }
    let sum: Vec<String> = (0..k)
        .map(|i| format!("{}v{i}", if i % 2 == 0 { "+ " } else { "- " }))
        .collect();
    let sum = sum.join(" ");
    s += &format!("  R{k} -- inc? [v0 < 50] {{ v0 = v0 + 1, v1 = v1 + 1 }} --> R{k}\n");
    s += &format!("  R{k} -- OK!(p) [p == 0 {sum} && p >= -2 && p <= 2] --> Done\n");
    s += &format!("  R{k} -- NOK!(p) [p == 0 {sum} && (p <= -3 || p >= 3)] --> Done\n}}\n");
    let tp = "model P {\n  input a(p: int), inc\n  output OK(p: int), NOK(p: int)\n  var v0: int = 0\n  init W\n  W -- OK!(p) [p == 2 && v0 >= 6] --> accept\n  W -- OK!(p) [p != 2 || v0 <= 5] --> refuse\n  W -- NOK!(p) --> refuse\n}\n";
    let parse = |name: &str, text: &str| {
        ioco_lang::parse_str(name, text)
            .unwrap_or_else(|d| panic!("{}\n{text}", ioco_lang::render_plain(&d)))
    };
    (parse("chain.ioco", &s), parse("p.ioco", tp))
}

/// For a chain of `k` readers: does the guard of the last reader `a?(p) { v_(k−1) = p }` state
/// the exact relation `Σ_{i<k−1} ±v_i ± p = 2` (bounds of the difference both 0)?
fn exact_last<D: Domain>(g: &ioco_stg::TestGraph<D>, k: usize) -> bool {
    let Some(l) = g.product.location(&format!("(R{},W)", k - 1)) else {
        return false;
    };
    let ts = g.product.transitions_on(l, "a");
    let mut e = LinExpr::constant(-2);
    for i in 0..k {
        let d = if i + 1 == k {
            g.product.param_dim(0)
        } else {
            i
        };
        let sign = if i % 2 == 0 { 1 } else { -1 };
        e = e.add_scaled(&LinExpr::var(d), sign).expect("small");
    }
    !ts.is_empty()
        && ts.iter().all(|&t| {
            !g.kept[t].is_empty() && g.kept[t].iter().all(|v| v.bounds(&e) == (Some(0), Some(0)))
        })
}

/// Median and minimum milliseconds of `reps` analyses, rounds and widenings, and whether the
/// last reader's guard is exact (chains only).
fn measure<D: Domain>(
    spec: &ioco_lang::Model,
    purpose: &ioco_lang::Model,
    reps: usize,
    k: Option<usize>,
) -> (f64, f64, usize, usize, &'static str) {
    let opts = Options::default();
    let mut times = Vec::with_capacity(reps);
    let mut stats = (0, 0, "-");
    for _ in 0..reps {
        let t = Instant::now();
        let g = analyse_with::<D>(spec, purpose, &opts).unwrap_or_else(|e| panic!("{e}"));
        times.push(t.elapsed().as_secs_f64() * 1e3);
        let exact = match k {
            Some(k) if exact_last(&g, k) => "exact",
            Some(_) => "not exact",
            None => "-",
        };
        stats = (g.coreach.rounds, g.coreach.widenings, exact);
        std::hint::black_box(&g);
    }
    times.sort_by(|a, b| a.total_cmp(b));
    (times[reps / 2], times[0], stats.0, stats.1, stats.2)
}

fn main() {
    let reps: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(100)
        .max(1);
    let mut cases = vec![(
        "running example (004 Figs 1-6)".to_string(),
        load("spec.ioco"),
        load("purpose.ioco"),
        None,
    )];
    for k in [4, 6, 10] {
        let (s, p) = chain(k);
        cases.push((
            format!("chain k={k} (loop, {k}-variable relation)"),
            s,
            p,
            Some(k),
        ));
    }
    println!(
        "{reps} repetitions; median (min) ms per analysis; rounds/widenings; last reader's guard"
    );
    for (name, s, p, k) in &cases {
        let i = measure::<Interval>(s, p, reps, *k);
        let o = measure::<Octagon>(s, p, reps, *k);
        let ph = measure::<Polyhedra>(s, p, reps, *k);
        println!(
            "{name}: interval {:.3} ({:.3}) {}/{} {}; octagon {:.3} ({:.3}) {}/{} {}; polyhedra {:.3} ({:.3}) {}/{} {}; polyhedra/octagon {:.2}x",
            i.0, i.1, i.2, i.3, i.4, o.0, o.1, o.2, o.3, o.4, ph.0, ph.1, ph.2, ph.3, ph.4, ph.0 / o.0
        );
    }
}
