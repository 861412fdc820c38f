//! A Bounded Retransmission Protocol sender as an in-process system under test, correct and
//! with six mutants (each changes a guard, an assignment or a data-dependent detail), for the
//! experiment of TAP19 §6 / thesis §4.5 (spec: `tests/models/brp.ioco`; table: `docs/brp.md`).

use crate::online::InProcessSut;
use ioco_lang::ir::Value;

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
    loc: u8, // 0 idle, 1 waiting
    len: i64,
    i: i64,
    rn: i64,
    bit: bool,
}

fn frame(s: &Brp, mutant: usize) -> (String, Vec<Value>) {
    let i = if mutant == 6 && s.len == 7 {
        s.i - 1
    } else {
        s.i
    };
    ("frame".into(), vec![Value::Int(i), Value::Bool(s.bit)])
}

fn conf(c: i64) -> (String, Vec<Value>) {
    ("conf".into(), vec![Value::Int(c)])
}

/// The sender with a mutant (0 = correct); input-enabled (unexpected inputs are ignored).
pub fn brp_sut(mutant: usize) -> InProcessSut<Brp> {
    InProcessSut::new(
        Brp::default(),
        move |s: &mut Brp, gate: &str, args: &[Value]| match (s.loc, gate) {
            (0, "req") => {
                let n = args[0].as_int().unwrap_or(0);
                if n <= 0 {
                    return vec![];
                }
                s.len = n;
                s.i = 1;
                s.rn = 0;
                s.loc = 1;
                vec![frame(s, mutant)]
            }
            (1, "ack") if s.i < s.len => {
                s.i += 1;
                if mutant != 4 {
                    s.bit = !s.bit;
                }
                if mutant != 2 {
                    s.rn = 0;
                }
                vec![frame(s, mutant)]
            }
            (1, "ack") => {
                s.bit = !s.bit;
                s.loc = 0;
                vec![conf(if mutant == 1 { 2 } else { 1 })]
            }
            (1, "timeout") => {
                let max = if mutant == 3 { 1 } else { 2 };
                if s.rn < max {
                    s.rn += 1;
                    vec![frame(s, mutant)]
                } else {
                    s.bit = !s.bit;
                    s.loc = 0;
                    let last = s.i == s.len;
                    let c = match (last, mutant == 5) {
                        (false, false) | (true, true) => 0,
                        _ => 2,
                    };
                    vec![conf(c)]
                }
            }
            _ => vec![],
        },
        |_| None,
    )
}
