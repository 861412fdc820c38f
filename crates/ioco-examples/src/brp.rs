//! The sender of the Bounded Retransmission Protocol (`examples/brp/brp.ioco`), correct or with
//! one of six mutants (each changes a guard, an assignment or a data-dependent detail), for the
//! experiment of TAP19 §6 / thesis §4.5 (`docs/brp.md`). Binary: `brp-sut --mutant N`.
//!
//! Inputs `req n`, `ack`, `timeout`; outputs `frame i bit`, `conf c` (1 OK, 0 NOT_OK,
//! 2 DONT_KNOW). Unexpected inputs are ignored (input-enabled).

use crate::data::{DataEffect, DataMachine, Val};

/// The mutants (0 = correct).
pub const MUTANTS: [&str; 7] = [
    "correct",
    "1: a complete file is confirmed DONT_KNOW instead of OK",
    "2: the retransmission counter is not reset after an ack",
    "3: gives up after 1 retransmission instead of 2",
    "4: the alternating bit is not toggled after an ack",
    "5: NOT_OK and DONT_KNOW swapped when giving up",
    "6: a file of exactly 7 chunks numbers its frames from 0",
];

/// The sender's state.
#[derive(Clone, Debug, Default)]
pub struct Brp {
    mutant: usize,
    waiting: bool,
    len: i64,
    i: i64,
    rn: i64,
    bit: bool,
}

impl Brp {
    /// A sender with a mutant (0 = correct).
    pub fn new(mutant: usize) -> Brp {
        Brp {
            mutant,
            ..Brp::default()
        }
    }

    fn frame(&self) -> DataEffect {
        let i = if self.mutant == 6 && self.len == 7 {
            self.i - 1
        } else {
            self.i
        };
        DataEffect::Out("frame", vec![Val::Int(i), Val::Bool(self.bit)])
    }

    fn conf(c: i64) -> DataEffect {
        DataEffect::Out("conf", vec![Val::Int(c)])
    }
}

impl DataMachine for Brp {
    fn gates(&self) -> &'static [(&'static str, usize)] {
        &[("req", 1), ("ack", 0), ("timeout", 0)]
    }

    fn react(&mut self, gate: &str, args: &[Val]) -> Vec<DataEffect> {
        let m = self.mutant;
        match (self.waiting, gate) {
            (false, "req") => {
                let n = args[0].int().unwrap_or(0);
                if n <= 0 {
                    return vec![];
                }
                self.len = n;
                self.i = 1;
                self.rn = 0;
                self.waiting = true;
                vec![self.frame()]
            }
            (true, "ack") if self.i < self.len => {
                self.i += 1;
                if m != 4 {
                    self.bit = !self.bit;
                }
                if m != 2 {
                    self.rn = 0;
                }
                vec![self.frame()]
            }
            (true, "ack") => {
                self.bit = !self.bit;
                self.waiting = false;
                vec![Brp::conf(if m == 1 { 2 } else { 1 })]
            }
            (true, "timeout") => {
                let max = if m == 3 { 1 } else { 2 };
                if self.rn < max {
                    self.rn += 1;
                    vec![self.frame()]
                } else {
                    self.bit = !self.bit;
                    self.waiting = false;
                    let last = self.i == self.len;
                    let c = match (last, m == 5) {
                        (false, false) | (true, true) => 0,
                        _ => 2,
                    };
                    vec![Brp::conf(c)]
                }
            }
            _ => vec![],
        }
    }
}
