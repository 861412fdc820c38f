//! The BRP experiment of TAP19 §6 / thesis §4.6 (Table 1 = Table 4.1) on the sender of the
//! Automata Wiki (`examples/brp/brp-sender.ioco`, `ioco_examples::brp_sender`): the number of
//! inputs plus outputs until each mutant gets Fail,
//! - by switch coverage: the purposes run longest first, all of them repeated with new random
//!   input values until a Fail (TAP19 L382-384; a round is 48 I/Os: the 1-I/O purpose that
//!   ends with an input is followed by one observation);
//! - by TorXakis's random walk: one online run choosing uniformly among the enabled input gates
//!   and observing (`ioco_exec::engine::symbolic::Menu`), random input values, until a Fail or
//!   the step bound;
//!
//! averaged over `reps` executions (TAP19: 100), execution k with seed k. Same seeds, same table.
//!
//! `cargo run --release -p ioco-examples --example brp -- [reps] [walk step bound]`
#[path = "../../ioco-symbolic/tests/common/brp_sender_sut.rs"]
mod brp_sender_sut;
use brp_sender_sut::brp_sender_sut;
use ioco_examples::brp_sender::MUTANTS;
use ioco_exec::coverage::{passed_certain, run_purpose};
use ioco_exec::engine::symbolic::run_online_menu;
use ioco_exec::RunVerdict;
use ioco_lang::ir::Direction;
use ioco_symbolic::pick::Strategy;
use ioco_symbolic::seg::select_purposes;
use ioco_symbolic::SymbolicSpec;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::sync::Arc;

/// Inputs plus outputs switch coverage may spend on one execution: 50 rounds of the purposes
/// (a mutant found at all is found within a few rounds; mutant 7 never is).
const COVERAGE_BUDGET: usize = 50 * 48;
/// Steps of each random walk on the correct sender (which never fails, so a walk runs to its
/// bound).
const CORRECT_WALK: usize = 2_000;
/// TAP19's Table 1 (the paper's numbers, printed beside ours, never used in a computation).
const PAPER: [(f64, f64); 6] = [
    (44.0, 12.0),
    (16.0, 234.0),
    (8.0, 12.0),
    (6.0, 18.0),
    (18.0, 1620.0),
    (164.0, 76.0),
];

struct Stats {
    kills: Vec<usize>,
    runs: usize,
}

impl Stats {
    fn mean(&self) -> f64 {
        self.kills.iter().sum::<usize>() as f64 / self.kills.len().max(1) as f64
    }
    fn cell(&self) -> String {
        if self.kills.is_empty() {
            return format!("not killed (0/{})", self.runs);
        }
        let min = self.kills.iter().min().unwrap();
        let max = self.kills.iter().max().unwrap();
        let killed = if self.kills.len() == self.runs {
            String::new()
        } else {
            format!(", killed {}/{}", self.kills.len(), self.runs)
        };
        format!("{:.1} ({}..{}{})", self.mean(), min, max, killed)
    }
}

fn spec() -> SymbolicSpec {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/brp/brp-sender.ioco");
    let model = ioco_lang::parse_file(&p).expect("brp-sender.ioco");
    let mut s = SymbolicSpec::with_z3(Arc::new(model.entry().unwrap().clone())).unwrap();
    // TAP19 L382: random values for the input parameters, checked against the constraint; the
    // picker's `small` values clipped to the parameters' type int[0..1] are uniform over {0, 1}
    s.picker.strategy = Strategy::Small;
    s
}

fn main() {
    let mut args = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse::<usize>().ok());
    let reps = args.next().unwrap_or(100);
    let walk_bound = args.next().unwrap_or(100_000);
    let mut cov = spec();
    let sel = select_purposes(&cov.sys, &mut cov.checker, 20, 200_000);
    let lens: Vec<usize> = sel.purposes.iter().map(|p| p.path.len()).collect();
    let ios: usize = lens.iter().sum();
    println!(
        "BRP sender (Automata Wiki): {} switches; {} purposes, {} I/Os ({:?}), a priori coverage {:.0}%",
        sel.total,
        sel.purposes.len(),
        ios,
        lens,
        100.0 * sel.apriori()
    );
    for (k, p) in sel.purposes.iter().enumerate() {
        let labels: Vec<String> = p
            .path
            .iter()
            .map(|m| {
                let mark = match cov.sys.direction(m) {
                    Some(Direction::Input) => "?",
                    Some(Direction::Output) => "!",
                    _ => "",
                };
                format!("{}{}", cov.sys.move_gate_name(m), mark)
            })
            .collect();
        println!("  purpose {}: {}", k + 1, labels.join(" "));
    }
    println!(
        "{} executions per mutant (seeds 0..{}), random-walk step bound {}",
        reps, reps, walk_bound
    );
    println!();
    println!("| | TAP19: switch coverage | TAP19: TorXakis | ours: switch coverage | ours: random walk |");
    println!("|---|---:|---:|---:|---:|");
    let rounds = COVERAGE_BUDGET / ios.max(1);
    let mut means = Vec::new();
    for (m, _) in MUTANTS.iter().enumerate() {
        let mut c = Stats {
            kills: vec![],
            runs: reps,
        };
        let mut r = Stats {
            kills: vec![],
            runs: reps,
        };
        let mut certain = true;
        for seed in 0..reps as u64 {
            // switch coverage: the purposes longest first, round after round, until a Fail
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut sut = brp_sender_sut(m);
            let mut steps = 0;
            'rounds: for _ in 0..rounds {
                for p in &sel.purposes {
                    let run = run_purpose(&mut cov, p, &mut sut, None, &mut rng);
                    steps += run.trace.len();
                    match run.verdict {
                        RunVerdict::Fail if m == 0 => panic!("false Fail: {:?}", run.trace),
                        RunVerdict::Fail => {
                            c.kills.push(steps);
                            break 'rounds;
                        }
                        _ => certain &= passed_certain(&run),
                    }
                }
                if m == 0 {
                    break;
                }
            }
            // the random walk: one run until a Fail or the bound
            let mut walk = spec();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let bound = if m == 0 { CORRECT_WALK } else { walk_bound };
            let run = run_online_menu(&mut walk, &mut brp_sender_sut(m), bound, None, &mut rng);
            match run.verdict {
                RunVerdict::Fail if m == 0 => {
                    panic!("false Fail on the correct sender: {}", run.why())
                }
                RunVerdict::Fail => r.kills.push(run.trace.len()),
                RunVerdict::Inconclusive => panic!("inconclusive walk: {}", run.why()),
                _ => {}
            }
        }
        if m == 0 {
            println!(
                "| correct | | | Pass in {} executions ({}) | Pass in {} walks of {} steps |",
                reps,
                if certain {
                    "every purpose passed with a certain end state: a posteriori coverage 100%"
                } else {
                    "some purpose ended uncertain"
                },
                reps,
                CORRECT_WALK
            );
            continue;
        }
        if m > PAPER.len() {
            println!(
                "| mutant {} (not in TAP19) | | | {} | {} |",
                m,
                c.cell(),
                r.cell()
            );
            continue;
        }
        let (pc, pt) = PAPER[m - 1];
        println!(
            "| mutant {} | {} | {} | {} | {} |",
            m,
            pc,
            pt,
            c.cell(),
            r.cell()
        );
        means.push(
            (c.kills.len() == reps)
                .then(|| c.mean())
                .zip((r.kills.len() == reps).then(|| r.mean())),
        );
    }
    let all: Option<Vec<(f64, f64)>> = means.into_iter().collect();
    let sum = |v: &[f64]| v.iter().sum::<f64>();
    let geo = |v: &[f64]| (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp();
    let pc: Vec<f64> = PAPER.iter().map(|p| p.0).collect();
    let pt: Vec<f64> = PAPER.iter().map(|p| p.1).collect();
    match all {
        Some(v) => {
            let oc: Vec<f64> = v.iter().map(|p| p.0).collect();
            let or: Vec<f64> = v.iter().map(|p| p.1).collect();
            println!(
                "| sum | {} | {} | {:.1} | {:.1} |",
                sum(&pc),
                sum(&pt),
                sum(&oc),
                sum(&or)
            );
            println!(
                "| geometric mean | {:.1} | {:.1} | {:.1} | {:.1} |",
                geo(&pc),
                geo(&pt),
                geo(&oc),
                geo(&or)
            );
            println!(
                "| random walk / switch coverage | sum {:.1}x, geometric mean {:.1}x | | sum {:.1}x, geometric mean {:.1}x | |",
                sum(&pt) / sum(&pc),
                geo(&pt) / geo(&pc),
                sum(&or) / sum(&oc),
                geo(&or) / geo(&oc)
            );
        }
        None => println!(
            "| sum | {} | {} | not every mutant killed in every execution | |",
            sum(&pc),
            sum(&pt)
        ),
    }
}
