//! The coffee machine of the thesis' introduction (van den Bos, Ch. 1, Fig. 1.2; implementation
//! note F14), as a real system under test with one correct and several faulty modes.
//!
//! Inputs `water`, `pad`, `button`; outputs `coffee`, `error`. The specification
//! (`examples/coffee/coffee.aut`):
//!
//! ```text
//! s0 -water?-> s1 -pad?-> s2 -button?-> s3 ; s3 -coffee!-> s0 ; s3 -error!-> s0
//! s0 -button?-> e0 -error!-> s0 ; s1 -button?-> e1 -error!-> s0 ; δ in s0, s1, s2
//! ```
//!
//! Inputs the specification leaves out (e.g. `pad` in s0) are unspecified: anything may happen
//! after them. The correct machine ignores them (it stays where it is), brews `coffee` after
//! `water pad button`, except that every third brew fails with `error` (the specification
//! allows either output there), and answers `error` to `button` before the machine is ready.

use crate::wire::{Effect, Machine};

/// How the coffee machine behaves. Every mode except [`CoffeeMode::Correct`] is faulty, and
/// its doc comment names the shortest counterexample ioco finds (trace, observed output, allowed
/// outputs).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum CoffeeMode {
    /// Conforms: coffee after water, pad, button (every third cup: error); error after button
    /// when not ready; unspecified inputs are ignored.
    Correct,
    /// Wrong output: `button` in the initial state brews coffee instead of saying error.
    /// Counterexample: button? · coffee! where only error! is allowed.
    WrongOutput,
    /// Wrong output: serves `tea` (a label the specification does not know) instead of coffee.
    /// Counterexample: water? pad? button? · tea! where coffee! or error! are allowed.
    Tea,
    /// Missing output: stays silent after water, pad, button.
    /// Counterexample: water? pad? button? · δ (quiescence) where coffee! or error! is required.
    Silent,
    /// Extra output: brews a spontaneous coffee at start-up, before any input.
    /// Counterexample: ε · coffee! where only δ is allowed.
    Spontaneous,
    /// Refuses an input: rejects `pad` with error (and stays waiting for a pad).
    /// Counterexample: water? pad? · error! where only δ is allowed.
    RefusePad,
    /// Crashes: panics (exit status 101) on button after water and pad.
    /// Counterexample: water? pad? button? then the process is gone.
    Crash,
    /// Hangs: stops responding (sleeps forever without reading input) on button after water
    /// and pad. Observed as quiescence (δ) only by timeout, where coffee! or error! is required.
    Hang,
    /// Garbage: prints a line that is no label (`Here is your coffee :-)`) after water, pad,
    /// button.
    Garbage,
    /// Flood: prints `coffee` endlessly after water, pad, button (the first is allowed, the
    /// second is not: water? pad? button? coffee! · coffee! where only δ is allowed).
    Flood,
}

impl CoffeeMode {
    /// All modes, the correct one first; `--bug N` is the N-th faulty mode (1-based).
    pub const ALL: [CoffeeMode; 10] = [
        CoffeeMode::Correct,
        CoffeeMode::WrongOutput,
        CoffeeMode::Tea,
        CoffeeMode::Silent,
        CoffeeMode::Spontaneous,
        CoffeeMode::RefusePad,
        CoffeeMode::Crash,
        CoffeeMode::Hang,
        CoffeeMode::Garbage,
        CoffeeMode::Flood,
    ];

    /// The mode's name on the command line (`wrong-output`).
    pub fn name(self) -> String {
        clap::ValueEnum::to_possible_value(&self)
            .expect("no skipped variants")
            .get_name()
            .to_string()
    }

    /// The faulty mode number `n` (1-based), as given to `--bug`.
    pub fn bug(n: usize) -> Option<CoffeeMode> {
        if n == 0 {
            None
        } else {
            Self::ALL.get(n).copied()
        }
    }
}

/// Where the machine is (only stable states: outputs are produced within a reaction).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Step {
    /// s0: idle.
    Idle,
    /// s1: has water.
    Water,
    /// s2: has water and a pad.
    Ready,
}

/// The coffee machine in one [`CoffeeMode`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Coffee {
    mode: CoffeeMode,
    step: Step,
    /// Cups brewed so far, modulo 3 (every third brew fails with `error`).
    cups: u8,
}

/// The inputs of the coffee machine.
pub const COFFEE_INPUTS: &[&str] = &["water", "pad", "button"];

impl Coffee {
    /// A machine in its initial state.
    pub fn new(mode: CoffeeMode) -> Self {
        Coffee {
            mode,
            step: Step::Idle,
            cups: 0,
        }
    }

    fn brew(&mut self) -> Vec<Effect> {
        use CoffeeMode::*;
        self.step = Step::Idle;
        match self.mode {
            Tea => vec![Effect::Output("tea")],
            Silent => vec![],
            Crash => vec![Effect::Crash("boiler exploded")],
            Hang => vec![Effect::Hang],
            Garbage => vec![Effect::Garbage("Here is your coffee :-)")],
            Flood => vec![Effect::Flood("coffee")],
            Correct | WrongOutput | Spontaneous | RefusePad => {
                self.cups = (self.cups + 1) % 3;
                if self.cups == 0 {
                    vec![Effect::Output("error")]
                } else {
                    vec![Effect::Output("coffee")]
                }
            }
        }
    }
}

impl Machine for Coffee {
    fn inputs(&self) -> &'static [&'static str] {
        COFFEE_INPUTS
    }

    fn start(&mut self) -> Vec<Effect> {
        if self.mode == CoffeeMode::Spontaneous {
            vec![Effect::Output("coffee")]
        } else {
            vec![]
        }
    }

    fn react(&mut self, input: &str) -> Vec<Effect> {
        match (self.step, input) {
            (Step::Idle, "water") => {
                self.step = Step::Water;
                vec![]
            }
            (Step::Idle, "button") if self.mode == CoffeeMode::WrongOutput => {
                vec![Effect::Output("coffee")]
            }
            (Step::Idle, "button") | (Step::Water, "button") => {
                self.step = Step::Idle;
                vec![Effect::Output("error")]
            }
            (Step::Water, "pad") if self.mode == CoffeeMode::RefusePad => {
                vec![Effect::Output("error")]
            }
            (Step::Water, "pad") => {
                self.step = Step::Ready;
                vec![]
            }
            (Step::Ready, "button") => self.brew(),
            // Unspecified: pad when idle, water when it has water, water or pad when ready.
            _ => vec![],
        }
    }
}
