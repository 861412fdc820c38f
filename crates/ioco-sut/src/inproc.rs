//! Testing a Rust component in-process, from `cargo test`.
//!
//! Implement [`Component`] for your type: `reset` brings it to its initial state, `input`
//! gives it one input (an [`Action`]: for a label, its name without `?` and no values) and
//! returns the outputs it produces in reaction, in order ([`Action::label`]: names without
//! `!`); after them the component is quiescent until the next input. The same trait serves
//! models with data (the `ioco` crate: actions with typed values). [`InProcess`] turns it into a [`Sut`]; `ioco_exec::online::test_component` runs
//! online ioco testing against a specification and returns the `ioco_exec::Summary`.
//!
//! Outputs not yet observed are *pending*: giving an input while one is pending returns it as
//! [`Sent::Raced`] (the component was faster), exactly as for a real process.
//!
//! An example, with a faulty component caught: `ioco_exec::online::test_component`.

use super::{Observation, Sent, Sut, SutError};
use ioco_lang::ir::Value;
use ioco_model::{Alphabet, Label};
use std::collections::VecDeque;
use std::fmt;
use std::time::Duration;

/// An input or an output: a gate and its argument values (none for a plain label).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    /// The gate's name (without `?` or `!`); a multi-label of `@sync` (several gates in one
    /// step) is its gates sorted and joined by `|` (`a|b`).
    pub gate: String,
    /// The values, one per gate parameter (of a multi-label: of each gate in turn).
    pub args: Vec<Value>,
}

impl Action {
    /// A gate with values.
    pub fn new(gate: impl Into<String>, args: Vec<Value>) -> Action {
        Action {
            gate: gate.into(),
            args,
        }
    }

    /// A gate without values (a label).
    pub fn label(gate: impl Into<String>) -> Action {
        Action::new(gate, Vec::new())
    }

    /// Argument `i` as an integer.
    pub fn int(&self, i: usize) -> Option<i64> {
        self.args.get(i).and_then(Value::as_int)
    }

    /// Argument `i` as a boolean.
    pub fn bool(&self, i: usize) -> Option<bool> {
        self.args.get(i).and_then(Value::as_bool)
    }

    /// Argument `i` as a string.
    pub fn str(&self, i: usize) -> Option<&str> {
        self.args.get(i).and_then(Value::as_str)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.gate)?;
        if !self.args.is_empty() {
            let a: Vec<String> = self
                .args
                .iter()
                .map(|v| match v {
                    Value::Int(i) => i.to_string(),
                    Value::Bool(b) => b.to_string(),
                    Value::Str(s) => ioco_lang::ir::quote(s),
                    other => format!("{other:?}"),
                })
                .collect();
            write!(f, "({})", a.join(","))?;
        }
        Ok(())
    }
}

/// A Rust component under test: the one in-process interface, for models without data (its
/// actions are labels: gates without values, [`Action::label`]) and with data (the `ioco`
/// crate's `Test`, which runs it on a worker thread of `ioco_exec::data_session`, so there it
/// must be `Send + 'static`).
///
/// After [`Component::input`] returns, its outputs are observed one by one; when none is left
/// the component is quiescent until the next input. (With the `ioco` crate, a panic inside the
/// component ends the run like a crashed program: Fail where the model requires an output or
/// enables an input, else Error.)
pub trait Component {
    /// Go back to the initial state; return the outputs produced on start (usually none).
    fn reset(&mut self) -> Vec<Action>;

    /// React to one input; return the outputs produced, in order (empty: quiescent).
    fn input(&mut self, input: &Action) -> Vec<Action>;
}

/// A [`Component`] as a [`Sut`].
pub struct InProcess<C> {
    component: C,
    alphabet: Alphabet,
    /// The action of each input label (made once: giving an input allocates nothing).
    inputs: Vec<Option<Action>>,
    pending: VecDeque<Action>,
}

impl<C: Component> InProcess<C> {
    /// Wrap `component`, speaking the labels of `alphabet`.
    pub fn new(alphabet: &Alphabet, component: C) -> Self {
        let inputs = (0..alphabet.len())
            .map(|l| {
                let l = Label(l as u32);
                alphabet
                    .is_input(l)
                    .then(|| Action::label(alphabet.name(l)))
            })
            .collect();
        InProcess {
            component,
            alphabet: alphabet.clone(),
            inputs,
            pending: VecDeque::new(),
        }
    }

    /// The component.
    pub fn component(&mut self) -> &mut C {
        &mut self.component
    }

    fn label(&self, out: &Action) -> Result<Label, SutError> {
        let bare = out.gate.strip_suffix('!').unwrap_or(&out.gate);
        match self
            .alphabet
            .lookup_kind(bare, ioco_model::LabelKind::Output)
            .filter(|_| out.args.is_empty())
        {
            Some(l) => Ok(l),
            _ => Err(SutError::UnknownOutput {
                line: out.to_string(),
            }),
        }
    }
}

impl<C: Component> Sut for InProcess<C> {
    fn reset(&mut self) -> Result<(), SutError> {
        self.pending = self.component.reset().into();
        Ok(())
    }

    fn send(&mut self, input: Label) -> Result<Sent, SutError> {
        if let Some(o) = self.pending.pop_front() {
            return Ok(Sent::Raced(self.label(&o)?));
        }
        let Some(Some(action)) = self.inputs.get(input.0 as usize) else {
            return Err(SutError::UnknownInput(self.alphabet.display(input)));
        };
        let outs = self.component.input(action);
        self.pending.extend(outs);
        Ok(Sent::Accepted)
    }

    fn timed(&self) -> bool {
        false
    }

    fn observe(&mut self, _timeout: Option<Duration>) -> Result<Observation, SutError> {
        match self.pending.pop_front() {
            Some(o) => Ok(Observation::Output(self.label(&o)?)),
            None => Ok(Observation::Quiescent),
        }
    }

    fn close(&mut self) -> Result<(), SutError> {
        Ok(())
    }
}
