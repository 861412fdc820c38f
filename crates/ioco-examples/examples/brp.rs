//! The BRP experiment (TAP19 §6, note §4.2): inputs+outputs until each mutant is detected, by
//! switch-coverage test purposes (longest first, repeated with new values until Fail) and by a
//! random online walk (runs of 40 steps, repeated until Fail), averaged over seeds.
//!
//! `cargo run --release -p ioco-examples --example brp [seeds]`
#[path = "../../ioco-symbolic/tests/common/brp_sut.rs"]
mod brp_sut;
use brp_sut::brp_sut;
use ioco_examples::brp::MUTANTS;
use ioco_exec::coverage::{run_switch_coverage, CoverageOptions};
use ioco_exec::engine::symbolic::run_online;
use ioco_symbolic::online::{OnlineOptions, RunVerdict};
use ioco_symbolic::seg::select_purposes;
use ioco_symbolic::SymbolicSpec;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::sync::Arc;

const BUDGET: usize = 20_000;

fn main() {
    let seeds: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(20);
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/brp/brp.ioco");
    let spec = Arc::new(
        ioco_lang::parse_file(&p)
            .expect("brp.ioco")
            .entry()
            .unwrap()
            .clone(),
    );
    let mut cov = SymbolicSpec::with_z3(spec.clone()).unwrap();
    let sel = select_purposes(&cov.sys, &mut cov.checker, 30, 200_000);
    let ios: usize = sel.purposes.iter().map(|p| p.path.len()).sum();
    println!(
        "BRP sender: {} switches, {} purposes ({} I/Os, longest {}), a priori coverage {:.0}%, {} SEG states, seeds 0..{}",
        sel.total,
        sel.purposes.len(),
        ios,
        sel.purposes.iter().map(|p| p.path.len()).max().unwrap_or(0),
        100.0 * sel.apriori(),
        sel.seg_nodes,
        seeds
    );
    for (_, name, why) in &sel.uncovered {
        println!("WARNING: not covered: {} ({:?})", name, why);
    }
    println!();
    println!("| mutant | switch coverage: mean I/Os to Fail | killed | random walk: mean I/Os to Fail | killed |");
    println!("|---|---|---|---|---|");
    let (mut sum_c, mut sum_r) = (0.0, 0.0);
    for (m, name) in MUTANTS.iter().enumerate() {
        let (mut cov_steps, mut cov_kills, mut rnd_steps, mut rnd_kills) = (0usize, 0, 0usize, 0);
        for seed in 0..seeds {
            // switch coverage, rounds until Fail
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut sut = brp_sut(m);
            let opts = CoverageOptions {
                depth: 30,
                max_nodes: 200_000,
                rounds: BUDGET / ios.max(1),
            };
            let rep = run_switch_coverage(&mut cov, &mut sut, &opts, None, &mut rng);
            if m == 0 {
                assert!(
                    rep.fail.is_none(),
                    "false Fail on the correct sender: {}",
                    rep
                );
            }
            if rep.fail.is_some() {
                cov_kills += 1;
                cov_steps += rep.steps;
            }
            // random walk, runs of 40 steps until Fail
            let mut t = SymbolicSpec::with_z3(spec.clone()).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut sut = brp_sut(m);
            let mut steps = 0;
            while steps < BUDGET {
                let run = run_online(
                    &mut t,
                    &mut sut,
                    &OnlineOptions {
                        steps: 40,
                        input_bias: 0.5,
                        timeouts: None,
                    },
                    &mut rng,
                );
                steps += run.trace.len();
                match run.verdict() {
                    RunVerdict::Fail => {
                        rnd_kills += 1;
                        rnd_steps += steps;
                        break;
                    }
                    RunVerdict::Inconclusive if m == 0 => panic!("{}", run.why()),
                    _ => {}
                }
            }
        }
        if m == 0 {
            println!(
                "| {} | no Fail in {} seeds | - | no Fail in {} seeds | - |",
                name, seeds, seeds
            );
            continue;
        }
        let mc = if cov_kills > 0 {
            cov_steps as f64 / cov_kills as f64
        } else {
            f64::NAN
        };
        let mr = if rnd_kills > 0 {
            rnd_steps as f64 / rnd_kills as f64
        } else {
            f64::NAN
        };
        sum_c += mc;
        sum_r += mr;
        println!(
            "| {} | {:.1} | {}/{} | {:.1} | {}/{} |",
            name, mc, cov_kills, seeds, mr, rnd_kills, seeds
        );
    }
    let show = |x: f64| {
        if x.is_nan() {
            "not all killed".to_string()
        } else {
            format!("{:.1}", x)
        }
    };
    println!("| sum | {} | | {} | |", show(sum_c), show(sum_r));
}
