//! `coffee-sut`: the coffee machine of the thesis' introduction as a program under test.
//! See `examples/coffee/README.md` and the `ioco_examples::coffee` module.

use clap::Parser;
use ioco_examples::coffee::{Coffee, CoffeeMode};
use ioco_examples::wire;

/// The coffee machine of van den Bos's thesis (Ch. 1) as a system under test.
///
/// Wire format: one input label per line on stdin (water, pad, button); the machine answers
/// with zero or more output lines (coffee, error). Unknown lines are ignored. With --ack (or
/// IOCO_ACK=1) it prints `#quiet` whenever it has finished reacting and waits for input
/// (once at start-up and after every input line). The line `#reset` puts it back into its
/// initial state, as if restarted.
#[derive(Parser, Debug)]
#[command(name = "coffee-sut", version)]
struct Args {
    /// The behaviour: `correct` conforms to examples/coffee/coffee.aut, every other mode is a
    /// fault that ioco detects (see each mode for the expected counterexample).
    #[arg(long, value_enum, default_value = "correct")]
    mode: CoffeeMode,
    /// Faulty mode by number (1 = wrong-output, 2 = tea, ..., 9 = flood), an alias of --mode.
    #[arg(long, value_name = "N", conflicts_with = "mode", value_parser = clap::value_parser!(u32).range(1..=9))]
    bug: Option<u32>,
    #[command(flatten)]
    wire: wire::WireArgs,
}

fn main() {
    let args = Args::parse();
    let mode = match args.bug {
        Some(n) => CoffeeMode::bug(n as usize).expect("range checked by clap"),
        None => args.mode,
    };
    wire::main_with(Coffee::new(mode), &args.wire);
}
