//! The sender of the Bounded Retransmission Protocol as the Automata Wiki describes its reference
//! implementation (`examples/brp/brp-sender.ioco`), correct or with one of six mutants, for the
//! experiment of TAP19 §6 / thesis §4.6 (`docs/brp.md`). Binary: `brp-sender-sut --mutant N`.
//!
//! Inputs `IREQ m1 m2 m3`, `IACK`, `ITIMEOUT`; outputs `OFRAME b1 b2 b3 m`, `OCONF c`, `ONOK`.
//! Every input is answered by exactly one output (the wiki's Mealy-machine view of the sender).
//!
//! The wiki's mutants are not available here (only its text, and TAP19's account of which
//! purpose detects which mutant, L388-392). Each mutant below changes one aspect, as TAP19 says
//! of the wiki's ("a different guard, an extra switch, or an extra assignment"), and is the
//! simplest such fault consistent with that account; `docs/brp.md` says, for each, which text
//! it rests on and which of our numbers are therefore agreement by construction.

use crate::data::{DataEffect, DataMachine, Val};

/// The maximum number of retransmissions of one frame (the wiki's learned models use 5; TAP19's
/// longest purpose of 18 inputs and outputs needs 5 as well).
pub const MAX_RN: i64 = 5;

/// The mutants (0 = correct; 1-6 read from TAP19, 7 not in TAP19: the earlier model's mutant 2,
/// which switch coverage cannot find, `docs/brp.md`).
pub const MUTANTS: [&str; 8] = [
    "correct",
    "1: an IREQ while waiting for an ack restarts the transfer with the new messages (extra switch; the wiki: \"each IREQ overwrites\")",
    "2: gives up after 4 retransmissions instead of 5 (guard)",
    "3: a retransmission toggles the alternating bit (extra assignment)",
    "4: the last frame is not flagged last, b2 = 0 (guard)",
    "5: giving up on the last frame confirms OCONF(0) instead of OCONF(2) (guard)",
    "6: the third frame carries m2 instead of m3 (data: seen only when m2 != m3)",
    "7 (not in TAP19): the retransmission counter is not reset after an IACK (assignment missing)",
];

/// The sender's state.
#[derive(Clone, Debug, Default)]
pub struct BrpSender {
    mutant: usize,
    waiting: bool,
    msgs: [i64; 3],
    i: i64,
    rn: i64,
    ab: i64,
}

impl BrpSender {
    /// A sender with a mutant (0 = correct).
    pub fn new(mutant: usize) -> BrpSender {
        BrpSender {
            mutant,
            ..BrpSender::default()
        }
    }

    fn frame(&self) -> DataEffect {
        let first = i64::from(self.i == 1);
        let last = i64::from(self.i == 3 && self.mutant != 4);
        let idx = if self.mutant == 6 && self.i == 3 {
            1
        } else {
            (self.i - 1) as usize
        };
        DataEffect::Out(
            "OFRAME",
            vec![
                Val::Int(first),
                Val::Int(last),
                Val::Int(self.ab),
                Val::Int(self.msgs[idx]),
            ],
        )
    }

    fn start_transfer(&mut self, args: &[Val]) -> Vec<DataEffect> {
        for (k, a) in args.iter().take(3).enumerate() {
            self.msgs[k] = a.int().unwrap_or(0);
        }
        self.i = 1;
        self.rn = 0;
        self.waiting = true;
        vec![self.frame()]
    }

    fn conf(c: i64) -> DataEffect {
        DataEffect::Out("OCONF", vec![Val::Int(c)])
    }
}

fn onok() -> Vec<DataEffect> {
    vec![DataEffect::Out("ONOK", vec![])]
}

impl DataMachine for BrpSender {
    fn gates(&self) -> &'static [(&'static str, usize)] {
        &[("IREQ", 3), ("IACK", 0), ("ITIMEOUT", 0)]
    }

    fn react(&mut self, gate: &str, args: &[Val]) -> Vec<DataEffect> {
        let m = self.mutant;
        match (self.waiting, gate) {
            (false, "IREQ") => {
                // only messages 0 and 1 (the wiki); anything else is refused
                if args.len() != 3 || args.iter().any(|a| !matches!(a.int(), Some(0 | 1))) {
                    return onok();
                }
                self.start_transfer(args)
            }
            (true, "IREQ") if m == 1 => self.start_transfer(args),
            (true, "IACK") if self.i < 3 => {
                self.i += 1;
                if m != 7 {
                    self.rn = 0;
                }
                self.ab = 1 - self.ab;
                vec![self.frame()]
            }
            (true, "IACK") => {
                self.ab = 1 - self.ab;
                self.waiting = false;
                vec![BrpSender::conf(1)]
            }
            (true, "ITIMEOUT") => {
                let max = if m == 2 { MAX_RN - 1 } else { MAX_RN };
                if self.rn < max {
                    self.rn += 1;
                    if m == 3 {
                        self.ab = 1 - self.ab;
                    }
                    vec![self.frame()]
                } else {
                    self.waiting = false;
                    self.ab = 0;
                    let c = if self.i < 3 || m == 5 { 0 } else { 2 };
                    vec![BrpSender::conf(c)]
                }
            }
            _ => onok(),
        }
    }
}
