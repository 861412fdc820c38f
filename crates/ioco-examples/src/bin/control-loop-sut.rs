//! `control-loop-sut`: TorXakis's ControlLoop (`examps/ControlLoop/ControlLoopModel.txs`, hand
//! port `examples/torxakis/control-loop.ioco`) as a program under test. See
//! `ioco_examples::control_loop`.
//!
//! Every gate of the model is an output, so the program runs on its own: it prints one action
//! per line on stdout (flushed, then a pause of `--pause-ms`), each chosen at random (seeded
//! by `--seed`) among what the model allows, and reads nothing but the reset line. Lines, in
//! ioco's plain wire format (`gate v1 v2`, values in the `.ioco` label syntax):
//!
//! ```text
//! In_Material 0
//! Material 0
//! In_Material 1
//! MeasureReport MeasureReport(0,1) | ProduceReport ProduceReport(0,-1)
//! Out_Material 0
//! Correction Correction(0,-1)
//! Material 1
//! ```
//!
//! The multi-action `ProduceReport ! pr | MeasureReport ! mr` is ONE line: its parts in
//! gate-name order joined by ` | `. The correct program is never silent (the model is never
//! quiescent), so a tester needs no quiescence marker; faults that stop are observed by the
//! time-out.
//!
//! Ids are 0..=9 and values -9..=9, or with `--bounded` the hand port's `Id = int[0..1]` and
//! `Val = int[-1..1]` (the explicit engine needs the bounded port).
//!
//! Modes (`--mode`): `correct` conforms; `wrong-sign`: a correction whose sign is not that of
//! `value(pr) - value(mr)` (the opposite, or `1` for a difference 0); `wrong-id`: a correction
//! for the next id instead of the material's; `no-correction`: never a correction, silent once
//! the iteration's other outputs are out (δ where `Correction` is required); `early-material`:
//! measure passes the material on (`Out_Material id`) before it receives it (`Material id`);
//! `split-reports`: the two reports as two lines (`ProduceReport …`, then `MeasureReport …`)
//! instead of one multi-action.
//!
//! The line `#reset` on stdin puts the program back into its initial state (the random
//! generator goes on); it exits when its standard input closes or its output is closed.

use clap::Parser;
use ioco_examples::control_loop::{Bounds, ControlLoop, ControlLoopMode, Rng};
use std::io::{BufRead, Write};
use std::sync::mpsc;
use std::time::Duration;

/// TorXakis's ControlLoop as a system under test that only produces outputs (protocol and
/// modes at the top of crates/ioco-examples/src/bin/control-loop-sut.rs).
#[derive(Parser, Debug)]
#[command(name = "control-loop-sut", version)]
struct Args {
    /// The behaviour: `correct` conforms to examples/torxakis/control-loop.ioco and
    /// ControlLoopModel.txs; every other mode is a fault ioco finds.
    #[arg(long, value_enum, default_value = "correct")]
    mode: ControlLoopMode,
    /// Ids 0..=1 and values -1..=1, as in the hand port (default: ids 0..=9, values -9..=9).
    #[arg(long)]
    bounded: bool,
    /// The seed of the random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The pause after each line, in milliseconds.
    #[arg(long, default_value_t = 5)]
    pause_ms: u64,
}

fn main() {
    let args = Args::parse();
    let bounds = if args.bounded {
        Bounds::BOUNDED
    } else {
        Bounds::DEFAULT
    };
    let initial = ControlLoop::new(args.mode, bounds);
    let mut rng = Rng::new(args.seed);
    // stdin: `#reset` resets; end of input ends the program (no process left behind)
    let (reset, resets) = mpsc::channel::<()>();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            match line {
                Ok(l) if l.trim() == "#reset" => {
                    if reset.send(()).is_err() {
                        break;
                    }
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
        std::process::exit(0);
    });
    let pause = Duration::from_millis(args.pause_ms);
    let mut m = initial.clone();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    loop {
        let actions = m.step(&mut rng);
        let waited = if actions.is_empty() {
            // silent (a faulty mode): until a reset or the end of input
            resets
                .recv()
                .map_err(|_| mpsc::RecvTimeoutError::Disconnected)
        } else {
            for a in &actions {
                if writeln!(out, "{a}").and_then(|_| out.flush()).is_err() {
                    // the tester went away
                    std::process::exit(0);
                }
            }
            resets.recv_timeout(pause)
        };
        match waited {
            Ok(()) => m = initial.clone(),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => std::process::exit(0),
        }
    }
}
