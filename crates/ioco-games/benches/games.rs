//! Benchmark: attractor and joker computation on suspension automata of 10^3 … 10^6
//! transitions, to show linear scaling: random ones (`local`: 95 % of the targets within ±64
//! states, as in breadth-first numbered models; `uniform`: anywhere, the worst case for the
//! cache) and the suspension automaton of a real model (`queue`: the bounded FIFO queue of
//! examples/queue, capacity 5 … 11 over 3 values, explored by the language front end).
//!
//! Run: `cargo bench -p ioco-games --bench games` (options after `--`: a seed, `--spread`
//! for goals spread over the whole automaton, `--only=N` for one size,
//! `--window=local|uniform|queue` for one family, `--assume=ie|nd`, `--reps=K` (default 7),
//! `--same` (see below), `--phase=attr|joker` to run only one solver, e.g.
//! under `valgrind --tool=callgrind`). `benches/profile.sh` runs every cell under callgrind and
//! prints instructions and simulated cache misses per transition (load-independent).
//!
//! Fairness: every random size uses the same generator shape (4 inputs with p = 0.5, 3
//! outputs with p = 0.3, δ where no output: 3.24 transitions per state on average), so the average degree is
//! the same at every size. Only the solver call is timed (the automaton and the arena are built
//! outside the timed region); a solver call includes building its reverse index and allocating
//! its result, which is part of the computation. Each repetition solves a **fresh** automaton
//! (seeds `seed`, `seed+1`, …), its arena built just before the timed call (so it is as hot in
//! the cache as after building it in real use): solving one small automaton again and again
//! lets the branch predictor learn the whole run (at 10^3 transitions that made the solver
//! look 2–3× faster than on an automaton it has not seen); `--same` solves one automaton
//! `reps` times, as before. Each cell is the **median** of `reps` runs of nanoseconds per
//! transition (the minimum is printed too). Repetitions go round all cells (every size,
//! family and assumption) in turn, so that a change in the machine's speed during the run —
//! seen on shared virtual machines, up to 1.6× for minutes — hits every size alike. Memory:
//! by default (glibc) freed memory stays in the heap
//! (`mallopt`: no mmap for blocks below 32 MiB, no trimming), so after the first run a solver's
//! arrays reuse pages that are already mapped, as in a long-running process solving many games:
//! the median then excludes first-touch page faults. `--cold` keeps glibc's defaults, where at
//! 10^6 every run gets fresh pages from the kernel (page faults and zeroing are then timed).
//! Times are the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so a
//! loaded machine does not count the time other processes run; cache pollution by them still
//! shows.

use ioco_games::random::{random_sa, RandomShape};
use ioco_games::{attractor, joker_game, Arena, Assumption, Goal, Solution};
use ioco_model::{Lts, QuiescencePolicy, SuspensionAutomaton};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
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

fn arg<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::args().find_map(|a| a.strip_prefix(name)?.parse().ok())
}

/// The suspension automaton of a real model: a FIFO queue of capacity `c` over the values
/// `0..d` (examples/queue/queue.ioco's BoundedQueue, made bigger), explored by the language
/// front end in breadth-first order, as every model is. Sizes near `target` transitions.
fn queue_sa(target: usize) -> Lts {
    let (d, c) = match target {
        0..=1_000 => (3, 5),
        1_001..=10_000 => (3, 7),
        10_001..=100_000 => (3, 9),
        _ => (3, 11),
    };
    let src = format!(
        "type V = int[0..{}]
type L = Nil | Cons {{ hd: int, tl: L }}
fn add(x: int, l: L): L = if l is Nil then Cons(x, Nil) else Cons(l.hd, add(x, l.tl))
fn len(l: L): int = if l is Nil then 0 else 1 + len(l.tl)
@main
model Queue {{
  input Enq(x: V), Deq
  output Value(x: V)
  var buf: L = Nil
  init s0
  s0 -- Enq?(x) [len(buf) < {c}] {{ buf = add(x, buf) }} --> s0
  s0 -- Deq? [buf is Nil] --> s0
  s0 -- Deq? [!(buf is Nil)] --> s1
  s1 -- Value!(=buf.hd) {{ buf = buf.tl }} --> s0
}}
",
        d - 1
    );
    let model = ioco_lang::parse_str("queue.ioco", &src).expect("the queue model parses");
    let opts = ioco_lang::translate::Options {
        max_states: 10_000_000,
        state_names: false,
        ..Default::default()
    };
    let lts = ioco_lang::translate::to_lts(model.entry().expect("an entry"), &opts)
        .expect("the queue model translates");
    SuspensionAutomaton::build(&lts, QuiescencePolicy::default()).lts
}

fn main() {
    let seed: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(20261122);
    let spread = std::env::args().any(|a| a == "--spread");
    let only: Option<usize> = arg("--only=");
    let reps: usize = arg("--reps=").unwrap_or(7);
    let window_f: Option<String> = arg("--window=");
    let assume_f: Option<String> = arg("--assume=");
    let phase: Option<String> = arg("--phase=");
    let cold = std::env::args().any(|a| a == "--cold");
    let same = std::env::args().any(|a| a == "--same");
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if !cold {
        // SAFETY: mallopt only changes allocator tuning parameters; called before any
        // large allocation of this program.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
            libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        }
    }
    println!("seed {seed}; shape: 4 inputs (p=0.5), 3 outputs (p=0.3), δ where no output");
    println!(
        "targets: `local` = 95% within ±64 states (like BFS-numbered models), `uniform` = anywhere"
    );
    println!(
        "median of {reps} runs (min in brackets); thread CPU time; solver only; memory {}",
        if cold {
            "cold (glibc defaults: fresh pages per run)"
        } else {
            "reused (mallopt: freed blocks stay mapped)"
        }
    );
    println!(
        "{:>8} {:>8} {:>8} {:>17} {:>9} {:>9} {:>18} {:>18} {:>7} {:>7} {:>6}",
        "targets",
        "states",
        "trans",
        "assumption",
        "attr ms",
        "joker ms",
        "attr ns/t [min]",
        "joker ns/t [min]",
        "|Attr|",
        "|Joker|",
        "levels"
    );
    // All automata first (random families: one per repetition, seeds seed, seed+1, ...:
    // solving the same small automaton again and again would let the branch predictor learn
    // its whole run, which no real use does; `--same` reuses one. The queue is one automaton
    // per size, with other goal states per repetition).
    let mut families: Vec<(&str, Vec<Lts>)> = Vec::new();
    for (&target, family) in [1_000usize, 10_000, 100_000, 1_000_000]
        .iter()
        .filter(|t| only.is_none_or(|o| o == **t))
        .flat_map(|t| [(t, "local"), (t, "uniform"), (t, "queue")])
        .filter(|(_, f)| window_f.as_deref().is_none_or(|w| w == *f))
    {
        let sas: Vec<Lts> = if family == "queue" {
            vec![queue_sa(target)]
        } else {
            let shape = RandomShape {
                states: target * 100 / 324,
                inputs: 4,
                outputs: 3,
                p_input: 0.5,
                p_output: 0.3,
                window: if family == "local" { 64 } else { 0 },
            };
            (0..if same { 1 } else { reps.max(1) } as u64)
                .map(|k| random_sa(seed + k, &shape))
                .collect()
        };
        families.push((family, sas));
    }
    let goals_of = |family: &str, sa: &Lts, k: usize| -> Goal {
        let n = sa.num_states() as u32;
        let goals: Vec<u32> = if family == "queue" {
            let mut rng = ChaCha8Rng::seed_from_u64(seed + if same { 0 } else { k as u64 });
            (0..10).map(|_| rng.random_range(0..n)).collect()
        } else if spread {
            (0..n).step_by(100).collect()
        } else {
            (n / 2..n / 2 + 10).collect()
        };
        Goal::of_states(sa, &goals)
    };
    // Cells: (family index, assumption); per cell the times of each solver, and the sizes of
    // its last solutions.
    struct Cell {
        family: usize,
        assume: Assumption,
        attr: Vec<f64>,
        joker: Vec<f64>,
        sizes: (usize, usize, u32),
    }
    let mut cells: Vec<Cell> = Vec::new();
    for f in 0..families.len() {
        for a in [Assumption::InputEager, Assumption::Nondeterministic] {
            if assume_f.as_deref().is_none_or(|x| x.parse() == Ok(a)) {
                cells.push(Cell {
                    family: f,
                    assume: a,
                    attr: Vec::new(),
                    joker: Vec::new(),
                    sizes: (0, 0, 0),
                });
            }
        }
    }
    // Repetition by repetition over all cells, so that a change in the machine's speed
    // during the run (seen on shared virtual machines) hits every size alike.
    for k in 0..reps.max(1) {
        for c in &mut cells {
            let (family, sas) = &families[c.family];
            let sa = &sas[k % sas.len()];
            let m = sa.num_transitions() as f64;
            // Build the arena, then time one solve: (ns per transition, solution).
            let timed = |solve: fn(&Arena) -> Solution| {
                let arena = Arena::of_sa(sa, &goals_of(family, sa, k), c.assume);
                let t = thread_cpu();
                let r = black_box(solve(&arena));
                ((thread_cpu() - t).as_nanos() as f64 / m, r)
            };
            if phase.as_deref().is_none_or(|p| p == "attr") {
                let (t, r) = timed(attractor);
                c.attr.push(t);
                c.sizes.0 = r.size();
            }
            if phase.as_deref().is_none_or(|p| p == "joker") {
                let (t, r) = timed(joker_game);
                c.joker.push(t);
                c.sizes.1 = r.size();
                c.sizes.2 = r.levels;
            }
        }
    }
    let med_min = |v: &mut Vec<f64>| -> (f64, f64) {
        if v.is_empty() {
            return (0.0, 0.0);
        }
        v.sort_by(f64::total_cmp);
        (v[v.len() / 2], v[0])
    };
    for c in &mut cells {
        let (family, sas) = &families[c.family];
        let sa = &sas[0];
        let m = sa.num_transitions();
        let (t_attr, m_attr) = med_min(&mut c.attr);
        let (t_jok, m_jok) = med_min(&mut c.joker);
        println!(
            "{:>8} {:>8} {:>8} {:>17} {:>9.3} {:>9.3} {:>10.1} [{:>5.1}] {:>10.1} [{:>5.1}] {:>7} {:>7} {:>6}",
            family,
            sa.num_states(),
            m,
            c.assume.name(),
            t_attr * m as f64 * 1e-6,
            t_jok * m as f64 * 1e-6,
            t_attr,
            m_attr,
            t_jok,
            m_jok,
            c.sizes.0,
            c.sizes.1,
            c.sizes.2
        );
    }
}
