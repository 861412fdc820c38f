//! `queue-sut`: a bounded FIFO queue (capacity 2, values 0 and 1) as a program under test.
//! See `examples/queue/README.md` and the `ioco_examples::queue` module.

use clap::Parser;
use ioco_examples::queue::{Queue, QueueMode};
use ioco_examples::wire;

/// A bounded FIFO queue (capacity 2, values 0 and 1) as a system under test.
///
/// Wire format: one input label per line on stdin (enq_0, enq_1, deq); the queue answers with
/// zero or more output lines (out_0, out_1, empty, full). Unknown lines are ignored. With --ack
/// (or IOCO_ACK=1) it prints `#quiet` whenever it has finished reacting and waits for input
/// (once at start-up and after every input line). The line `#reset` puts it back into its
/// initial state, as if restarted.
#[derive(Parser, Debug)]
#[command(name = "queue-sut", version)]
struct Args {
    /// The behaviour: `correct` conforms to examples/queue/queue.aut, every other mode is a
    /// fault that ioco detects (see each mode for the expected counterexample).
    #[arg(long, value_enum, default_value = "correct")]
    mode: QueueMode,
    /// Faulty mode by number (1 = lifo, 2 = drop, ..., 7 = hang), an alias of --mode.
    #[arg(long, value_name = "N", conflicts_with = "mode", value_parser = clap::value_parser!(u32).range(1..=7))]
    bug: Option<u32>,
    #[command(flatten)]
    wire: wire::WireArgs,
}

fn main() {
    let args = Args::parse();
    let mode = match args.bug {
        Some(n) => QueueMode::bug(n as usize).expect("range checked by clap"),
        None => args.mode,
    };
    wire::main_with(Queue::new(mode), &args.wire);
}
