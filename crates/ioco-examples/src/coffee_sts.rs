//! The coffee machine **with data** (`examples/coffee/coffee-sts.ioco`, model
//! `CoffeeMachine`) as a system under test, with a correct and several faulty modes.
//!
//! Inputs `water ml`, `pad`, `button`; outputs `coffee ml`, `error`. The spec: water is added
//! while `total + w < 150`; the portion that reaches 150 ml or more fills the machine; then
//! `pad`, then `button` brews, and the machine answers `coffee c` with
//! `total - 50 <= c <= total`, or `error`. Inputs the spec leaves out (water in `filled`,
//! `water 0`, `pad` when not filled, ...) are unspecified; the correct machine ignores them.

use crate::data::{DataEffect, DataMachine, Val};

/// How the machine behaves; every mode but `correct` is a fault, documented with the
/// counterexample ioco finds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum CoffeeStsMode {
    /// Conforms: `coffee total` (every other cup 20 ml less), every third cup `error`.
    Correct,
    /// Wrong value: the cup holds 10 ml more than the water poured in.
    /// Counterexample: … `button?` · `coffee!(v)` with `c <= total` violated.
    WrongValue,
    /// Off by one: exactly 150 ml does not fill the machine (it waits for more water).
    /// Counterexample: `water?(150) pad? button?` · `δ` where coffee or error is required;
    /// found only with the boundary value 150 (the value picker tries guard constants).
    Boundary,
    /// Missing output: silent after `button`.
    /// Counterexample: … `button?` · `δ` where `coffee!` or `error!` is required.
    Silent,
    /// Extra output: says `error` after `pad`.
    /// Counterexample: … `pad?` · `error!` where only `δ` is allowed.
    ExtraOutput,
    /// Refuses an input: answers `error` to a portion of more than 100 ml.
    /// Counterexample: `water?(w)` with `w > 100` · `error!` where only `δ` is allowed.
    RefuseWater,
    /// Crashes (panics, exit status 101) on `button`.
    /// Counterexample: … `button?` then the process exits where an output is required.
    Crash,
    /// Hangs on `button` (alive, never answers): observed as `δ` where an output is required.
    Hang,
    /// Prints `coffee lots` after `button`: a line that is no output gate value.
    Garbage,
}

impl CoffeeStsMode {
    /// All modes, the correct one first.
    pub const ALL: [CoffeeStsMode; 9] = [
        CoffeeStsMode::Correct,
        CoffeeStsMode::WrongValue,
        CoffeeStsMode::Boundary,
        CoffeeStsMode::Silent,
        CoffeeStsMode::ExtraOutput,
        CoffeeStsMode::RefuseWater,
        CoffeeStsMode::Crash,
        CoffeeStsMode::Hang,
        CoffeeStsMode::Garbage,
    ];
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Loc {
    Idle,
    Filled,
    Ready,
}

/// The machine's state.
#[derive(Clone, Debug)]
pub struct CoffeeSts {
    mode: CoffeeStsMode,
    loc: Loc,
    total: i64,
    cups: u64,
}

impl CoffeeSts {
    /// A fresh machine.
    pub fn new(mode: CoffeeStsMode) -> CoffeeSts {
        CoffeeSts {
            mode,
            loc: Loc::Idle,
            total: 0,
            cups: 0,
        }
    }
}

impl DataMachine for CoffeeSts {
    fn gates(&self) -> &'static [(&'static str, usize)] {
        &[("water", 1), ("pad", 0), ("button", 0)]
    }

    fn react(&mut self, gate: &str, args: &[Val]) -> Vec<DataEffect> {
        use CoffeeStsMode as M;
        match (self.loc, gate) {
            (Loc::Idle, "water") => {
                let Some(w) = args[0].int() else {
                    return vec![];
                };
                if w <= 0 {
                    return vec![];
                }
                if self.mode == M::RefuseWater && w > 100 {
                    return vec![DataEffect::Out("error", vec![])];
                }
                self.total = self.total.saturating_add(w);
                let full = if self.mode == M::Boundary {
                    self.total > 150
                } else {
                    self.total >= 150
                };
                if full {
                    self.loc = Loc::Filled;
                }
                vec![]
            }
            (Loc::Filled, "pad") => {
                self.loc = Loc::Ready;
                if self.mode == M::ExtraOutput {
                    vec![DataEffect::Out("error", vec![])]
                } else {
                    vec![]
                }
            }
            (Loc::Ready, "button") => {
                let total = self.total;
                self.total = 0;
                self.loc = Loc::Idle;
                self.cups += 1;
                match self.mode {
                    M::Silent => vec![],
                    M::Crash => vec![DataEffect::Crash("coffee-sts-sut: the boiler exploded")],
                    M::Hang => vec![DataEffect::Hang],
                    M::Garbage => vec![DataEffect::Garbage("coffee lots")],
                    M::WrongValue => vec![DataEffect::Out("coffee", vec![Val::Int(total + 10)])],
                    _ if self.cups.is_multiple_of(3) => vec![DataEffect::Out("error", vec![])],
                    _ => {
                        let c = if self.cups.is_multiple_of(2) {
                            total - 20
                        } else {
                            total
                        };
                        vec![DataEffect::Out("coffee", vec![Val::Int(c)])]
                    }
                }
            }
            _ => vec![],
        }
    }
}
