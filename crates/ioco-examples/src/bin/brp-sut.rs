//! `brp-sut`: the sender of the Bounded Retransmission Protocol (`examples/brp/brp.ioco`) as a
//! program under test, correct or with one of the six mutants of `docs/brp.md`. See
//! `ioco_examples::brp`.

use clap::Parser;
use ioco_examples::brp::{Brp, MUTANTS};
use ioco_examples::data::MutantArgs;

/// The BRP sender as a system under test.
///
/// Wire format: `req 5`, `ack`, `timeout` in; `frame 1 false`, `conf 1` out (or JSON lines
/// with --json-lines). With --ack it prints `#quiet` whenever it waits for input; `#reset`
/// puts it back into its initial state.
#[derive(Parser, Debug)]
#[command(name = "brp-sut", version)]
struct Args {
    /// 0 = correct; 1..6 = the mutants of docs/brp.md.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=6))]
    mutant: u32,
    #[command(flatten)]
    rest: MutantArgs,
}

fn main() {
    let args = Args::parse();
    args.rest
        .main_with(&MUTANTS, || Brp::new(args.mutant as usize));
}
