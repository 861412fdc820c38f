//! Benchmark: attractor and joker computation on random suspension automata of 10^3 … 10^6
//! transitions (arena construction included), to show linear scaling.
//!
//! Run: `cargo bench -p ioco-games --bench games` (options after `--`: a seed, `--spread`
//! for goals spread over the whole automaton, `--only=N` for one size).
//! Prints, per size and assumption, the best of 5 runs and the time per transition. Times are
//! the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so a loaded machine does not count the
//! time other processes run; cache pollution by them still shows.

use ioco_games::random::{random_sa, RandomShape};
use ioco_games::{attractor, joker_game, Arena, Assumption, Goal};
use std::hint::black_box;
use std::time::Duration;

fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..runs {
        drop(out.take());
        let t = thread_cpu();
        let r = black_box(f());
        best = best.min(thread_cpu() - t);
        out = Some(r);
    }
    (best, out.unwrap())
}

fn main() {
    let seed: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(20261122);
    println!("seed {seed}; shape: 4 inputs (p=0.5), 3 outputs (p=0.3), δ where no output");
    println!(
        "targets: `local` = 95% within ±64 states (like BFS-numbered models), `uniform` = anywhere"
    );
    println!(
        "{:>8} {:>9} {:>9} {:>17} {:>10} {:>10} {:>10} {:>9} {:>9} {:>9} {:>7} {:>6}",
        "targets",
        "states",
        "trans",
        "assumption",
        "arena ms",
        "attr ms",
        "joker ms",
        "arena ns/t",
        "attr ns/t",
        "joker ns/t",
        "|Attr|",
        "levels"
    );
    let spread = std::env::args().any(|a| a == "--spread");
    let only: Option<usize> =
        std::env::args().find_map(|a| a.strip_prefix("--only=")?.parse().ok());
    for (&target, window) in [1_000usize, 10_000, 100_000, 1_000_000]
        .iter()
        .filter(|t| only.is_none_or(|o| o == **t))
        .flat_map(|t| [(t, 64usize), (t, 0)])
    {
        let shape = RandomShape {
            states: target * 100 / 324,
            inputs: 4,
            outputs: 3,
            p_input: 0.5,
            p_output: 0.3,
            window,
        };
        let sa = random_sa(seed, &shape);
        let m = sa.num_transitions();
        let n = sa.num_states() as u32;
        let goals: Vec<u32> = if spread {
            (0..n).step_by(100).collect()
        } else {
            (n / 2..n / 2 + 10).collect()
        };
        let goal = Goal::of_states(&sa, &goals);
        for a in [Assumption::InputEager, Assumption::Nondeterministic] {
            let (t_arena, arena) = best_of(5, || Arena::of_sa(&sa, &goal, a));
            let (t_attr, attr) = best_of(5, || attractor(&arena));
            let (t_jok, jok) = best_of(5, || joker_game(&arena));
            let per = |d: Duration| d.as_nanos() as f64 / m as f64;
            println!(
                "{:>8} {:>9} {:>9} {:>17} {:>10.3} {:>10.3} {:>10.3} {:>9.1} {:>9.1} {:>9.1} {:>7} {:>6}",
                if window == 0 { "uniform" } else { "local" },
                sa.num_states(),
                m,
                a.name(),
                t_arena.as_secs_f64() * 1e3,
                t_attr.as_secs_f64() * 1e3,
                t_jok.as_secs_f64() * 1e3,
                per(t_arena),
                per(t_attr),
                per(t_jok),
                attr.size(),
                jok.levels
            );
        }
    }
}
