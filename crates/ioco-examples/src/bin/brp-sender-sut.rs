//! `brp-sender-sut`: the sender of the Bounded Retransmission Protocol as the Automata Wiki
//! describes it (`examples/brp/brp-sender.ioco`), as a program under test, correct or with one
//! of the six mutants of `docs/brp.md`. See `ioco_examples::brp_sender`.

use clap::Parser;
use ioco_examples::brp_sender::{BrpSender, MUTANTS};
use ioco_examples::data::MutantArgs;

/// The BRP sender (Automata Wiki interface) as a system under test.
///
/// Wire format: `IREQ 0 1 1`, `IACK`, `ITIMEOUT` in; `OFRAME 1 0 0 0`, `OCONF 1`, `ONOK` out
/// (or JSON lines with --json-lines). With --ack it prints `#quiet` whenever it waits for
/// input; `#reset` puts it back into its initial state.
#[derive(Parser, Debug)]
#[command(name = "brp-sender-sut", version)]
struct Args {
    /// 0 = correct; 1..7 = the mutants of docs/brp.md (1-6 for TAP19's, 7 an extra one).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=7))]
    mutant: u32,
    #[command(flatten)]
    rest: MutantArgs,
}

fn main() {
    let args = Args::parse();
    args.rest
        .main_with(&MUTANTS, || BrpSender::new(args.mutant as usize));
}
