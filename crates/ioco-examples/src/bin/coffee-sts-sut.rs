//! `coffee-sts-sut`: the coffee machine with data (`examples/coffee/coffee-sts.ioco`) as a
//! program under test. See `ioco_examples::coffee_sts`.

use clap::Parser;
use ioco_examples::coffee_sts::{CoffeeSts, CoffeeStsMode};
use ioco_examples::data::DataWire;
use ioco_examples::wire;

/// The coffee machine with data as a system under test.
///
/// Wire format: one input per line on stdin, `water 120`, `pad`, `button` (or JSON lines
/// `{"label":"water","args":[120]}` with --json-lines); the machine answers `coffee 100` or
/// `error`. Lines it does not understand are ignored. With --ack (or IOCO_ACK=1) it prints
/// `#quiet` whenever it waits for input; `#reset` puts it back into its initial state.
#[derive(Parser, Debug)]
#[command(name = "coffee-sts-sut", version)]
struct Args {
    /// The behaviour: `correct` conforms to examples/coffee/coffee-sts.ioco; every other mode
    /// is a fault ioco finds.
    #[arg(long, value_enum, default_value = "correct")]
    mode: CoffeeStsMode,
    #[command(flatten)]
    wire: wire::WireArgs,
    /// Speak JSON lines.
    #[arg(long)]
    json_lines: bool,
}

fn main() {
    let args = Args::parse();
    let m = DataWire::new(CoffeeSts::new(args.mode), args.json_lines);
    wire::main_with(m, &args.wire);
}
