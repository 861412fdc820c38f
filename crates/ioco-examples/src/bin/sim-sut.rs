//! `sim-sut`: any model played as a real program, with its outputs delayed at random, for tests
//! of the tester against real processes that answer late (the simulator's semantics: τ-steps,
//! nondeterminism and quiescence as `ioco test --sim` plays them, over a pipe).

use clap::Parser;
use ioco_model::LabelKind;
use ioco_sut::sim::{SimOptions, Simulator};
use ioco_sut::{Observation, Sut};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

/// Plays a model (`.aut`, `.dot`, `.json`) as a system under test over standard input and
/// output: one input label per line in, one output label per line out.
///
/// After each input (and at start-up) it reacts as the model's simulator does, printing each
/// output only after a random delay of up to --delay-max ms, and then, with --ack, the line
/// `#quiet`; only after that does it read the next input. An input the model does not know is
/// ignored; the line `#reset` goes back to an initial state.
#[derive(Parser, Debug)]
#[command(name = "sim-sut", version)]
struct Args {
    /// The model to play.
    model: PathBuf,
    /// Seed of the choices (outputs, internal steps) and of the delays.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Each output waits a random time of at most this many milliseconds before it is printed.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    delay_max: u64,
    /// Each output waits at least this many milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    delay_min: u64,
    /// Print `#quiet` when waiting for input (at start-up and after every reaction).
    #[arg(long)]
    ack: bool,
}

fn main() {
    let args = Args::parse();
    let lts = match ioco_formats::load(&args.model).and_then(|m| m.into_lts()) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("sim-sut: {e}");
            std::process::exit(2);
        }
    };
    let alphabet = lts.alphabet().clone();
    let mut sim = Simulator::new(
        lts,
        &alphabet,
        SimOptions {
            race: 0.0,
            ..SimOptions::default()
        },
    );
    sim.set_seed(args.seed);
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let (lo, hi) = (args.delay_min, args.delay_max.max(args.delay_min));
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut react = |sim: &mut Simulator, out: &mut std::io::StdoutLock<'_>| -> bool {
        loop {
            match sim.observe(Some(Duration::ZERO)) {
                Ok(Observation::Output(x)) => {
                    std::thread::sleep(Duration::from_millis(rng.random_range(lo..=hi)));
                    if writeln!(out, "{}", alphabet.name(x))
                        .and_then(|_| out.flush())
                        .is_err()
                    {
                        return false;
                    }
                }
                Ok(Observation::Quiescent) => break,
                Err(e) => {
                    eprintln!("sim-sut: {e}");
                    return false;
                }
            }
        }
        !args.ack || writeln!(out, "#quiet").and_then(|_| out.flush()).is_ok()
    };
    if sim.reset().is_err() || !react(&mut sim, &mut out) {
        return;
    }
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { return };
        let line = line.trim();
        if line == "#reset" {
            let _ = sim.reset();
        } else if let Some(a) = alphabet.lookup_kind(line, LabelKind::Input) {
            if sim.send(a).is_err() {
                return;
            }
        }
        if !react(&mut sim, &mut out) {
            return;
        }
    }
}
