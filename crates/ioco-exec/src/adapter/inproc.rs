//! Testing a Rust component in-process, from `cargo test`.
//!
//! Implement [`Component`] for your type: `reset` brings it to its initial state, `input`
//! gives it one input (the label name, without `?`) and returns the outputs it produces in
//! reaction, in order (names without `!`); after them the component is quiescent until the next
//! input. [`InProcess`] turns it into an [`Adapter`]; [`crate::online::test_component`] runs
//! online ioco testing against a specification and returns the [`crate::Summary`].
//!
//! Outputs not yet observed are *pending*: giving an input while one is pending returns it as
//! [`Sent::Raced`] (the component was faster), exactly as for a real process.
//!
//! ```
//! use ioco_exec::adapter::inproc::Component;
//! use ioco_exec::online::{test_component, OnlineOptions};
//! use ioco_exec::RunVerdict;
//! use ioco_model::{Alphabet, LabelKind::{Input, Output}, LtsBuilder};
//!
//! // The specification: after coin?, coffee! or tea!; then back.
//! let mut b = LtsBuilder::new(Alphabet::new());
//! b.add_states(2);
//! b.add_initial(0);
//! b.add(0, "coin", Input, 1).unwrap();
//! b.add(1, "coffee", Output, 0).unwrap();
//! b.add(1, "tea", Output, 0).unwrap();
//! let spec = b.build().unwrap();
//!
//! // The component: always coffee, and it ignores coins while brewing (none here).
//! struct Machine { coins: u32 }
//! impl Component for Machine {
//!     fn reset(&mut self) -> Vec<String> { self.coins = 0; vec![] }
//!     fn input(&mut self, input: &str) -> Vec<String> {
//!         match input {
//!             "coin" => { self.coins += 1; vec!["coffee".into()] }
//!             _ => vec![],
//!         }
//!     }
//! }
//!
//! let opts = OnlineOptions { runs: 50, depth: 20, seed: 7, ..OnlineOptions::default() };
//! let summary = test_component(&spec, Machine { coins: 0 }, &opts).unwrap();
//! assert_eq!(summary.verdict, RunVerdict::Pass);
//!
//! // A faulty machine that sometimes gives two drinks for one coin is caught.
//! struct Greedy { n: u32 }
//! impl Component for Greedy {
//!     fn reset(&mut self) -> Vec<String> { self.n = 0; vec![] }
//!     fn input(&mut self, _: &str) -> Vec<String> {
//!         self.n += 1;
//!         if self.n % 3 == 0 { vec!["coffee".into(), "tea".into()] } else { vec!["tea".into()] }
//!     }
//! }
//! let summary = test_component(&spec, Greedy { n: 0 }, &opts).unwrap();
//! assert_eq!(summary.verdict, RunVerdict::Fail);
//! let failure = summary.first_failure().unwrap().failure.clone().unwrap();
//! assert_eq!(failure.observed, "tea!");
//! ```

use super::{Adapter, AdapterError, Observation, Sent};
use ioco_model::{Alphabet, Label};
use std::collections::VecDeque;
use std::time::Duration;

/// A Rust component under test.
pub trait Component {
    /// Go back to the initial state; return the outputs produced on start (usually none).
    fn reset(&mut self) -> Vec<String>;

    /// React to one input (its name, without `?`); return the outputs produced, in order
    /// (names, without `!`). An empty vector means "quiescent".
    fn input(&mut self, input: &str) -> Vec<String>;
}

/// A [`Component`] as an [`Adapter`].
pub struct InProcess<C> {
    component: C,
    alphabet: Alphabet,
    pending: VecDeque<String>,
}

impl<C: Component> InProcess<C> {
    /// Wrap `component`, speaking the labels of `alphabet`.
    pub fn new(alphabet: &Alphabet, component: C) -> Self {
        InProcess {
            component,
            alphabet: alphabet.clone(),
            pending: VecDeque::new(),
        }
    }

    /// The component.
    pub fn component(&mut self) -> &mut C {
        &mut self.component
    }

    fn label(&self, out: &str) -> Result<Label, AdapterError> {
        let bare = out.strip_suffix('!').unwrap_or(out);
        match self
            .alphabet
            .lookup_kind(bare, ioco_model::LabelKind::Output)
        {
            Some(l) => Ok(l),
            _ => Err(AdapterError::UnknownOutput {
                line: out.to_string(),
            }),
        }
    }
}

impl<C: Component> Adapter for InProcess<C> {
    fn reset(&mut self) -> Result<(), AdapterError> {
        self.pending = self.component.reset().into();
        Ok(())
    }

    fn send(&mut self, input: Label) -> Result<Sent, AdapterError> {
        if let Some(o) = self.pending.pop_front() {
            return Ok(Sent::Raced(self.label(&o)?));
        }
        if !self.alphabet.is_input(input) {
            return Err(AdapterError::UnknownInput(self.alphabet.display(input)));
        }
        let outs = self.component.input(self.alphabet.name(input));
        self.pending.extend(outs);
        Ok(Sent::Accepted)
    }

    fn timed(&self) -> bool {
        false
    }

    fn observe(&mut self, _timeout: Duration) -> Result<Observation, AdapterError> {
        match self.pending.pop_front() {
            Some(o) => Ok(Observation::Output(self.label(&o)?)),
            None => Ok(Observation::Quiescent),
        }
    }

    fn close(&mut self) -> Result<(), AdapterError> {
        Ok(())
    }
}
