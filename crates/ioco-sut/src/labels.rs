//! Any system under test with data (a [`Sut`] over gate values) as a [`Sut`] over labels, for the explicit engine: a label is a gate value as `ioco_lang`'s semantics
//! names it (`Action(Plus(1,2))`, `coin`), parsed into the gate and its values before it is
//! given, and an output gate value is looked up as a label of the specification's alphabet
//! (one that is not there is a line that is no output of the model). So every data adapter
//! (TorXakis sockets, HTTP) serves both engines.

use super::wire::split_gate;
use super::{Observation, Sent, Sut, SutError};
use ioco_lang::ir::{Direction, Spec, Value};
use ioco_lang::semantics::label_name;
use ioco_model::{Alphabet, Label, LabelKind};
use ioco_symbolic::online::{parse_value, GateValue};
use std::sync::Arc;
use std::time::Duration;

/// A system over gate values as a system over the labels of `spec` with its gate values.
pub struct Labels<D> {
    inner: D,
    spec: Arc<Spec>,
    alphabet: Alphabet,
}

impl<D: Sut<GateValue>> Labels<D> {
    /// `inner` under the labels of `alphabet`, the LTS of `spec`.
    pub fn with_spec(inner: D, spec: Arc<Spec>, alphabet: &Alphabet) -> Labels<D> {
        Labels {
            inner,
            spec,
            alphabet: alphabet.clone(),
        }
    }

    /// The data-level system under test.
    pub fn inner(&mut self) -> &mut D {
        &mut self.inner
    }

    fn label(&self, gate: &str, values: &[Value]) -> Result<Label, SutError> {
        let name = label_name(&self.spec.defs, gate, values);
        self.alphabet
            .lookup_kind(&name, LabelKind::Output)
            .ok_or(SutError::UnknownOutput { line: name })
    }
}

impl<D: Sut<GateValue>> Sut for Labels<D> {
    fn reset(&mut self) -> Result<(), SutError> {
        self.inner.reset()
    }

    fn send(&mut self, input: Label) -> Result<Sent, SutError> {
        let name = self.alphabet.name(input);
        let (gate, texts) = split_gate(name);
        let decl = self
            .spec
            .gates
            .iter()
            .find(|g| g.name == gate && g.dir == Direction::Input)
            .filter(|g| g.params.len() == texts.len())
            .ok_or_else(|| SutError::UnknownInput(name.to_string()))?;
        let mut args = Vec::with_capacity(texts.len());
        for ((_, ty), t) in decl.params.iter().zip(&texts) {
            args.push(
                parse_value(&self.spec.defs, *ty, t)
                    .map_err(|e| SutError::UnknownInput(format!("{name}: {e}")))?,
            );
        }
        match self.inner.send((gate.to_string(), args))? {
            Sent::Accepted => Ok(Sent::Accepted),
            Sent::Raced((g, v)) => self.label(&g, &v).map(Sent::Raced),
        }
    }

    fn observe(&mut self, timeout: Option<Duration>) -> Result<Observation, SutError> {
        match self.inner.observe(timeout)? {
            Observation::Output((g, v)) => self.label(&g, &v).map(Observation::Output),
            Observation::Quiescent => Ok(Observation::Quiescent),
        }
    }

    fn close(&mut self) -> Result<(), SutError> {
        self.inner.close()
    }

    fn set_seed(&mut self, seed: u64) {
        self.inner.set_seed(seed)
    }

    fn timed(&self) -> bool {
        self.inner.timed()
    }

    fn settle_timeout(&mut self, timeout: Duration) {
        self.inner.settle_timeout(timeout)
    }

    fn expect_quiet(&mut self, quiet: bool) {
        self.inner.expect_quiet(quiet)
    }

    fn stderr_tail(&mut self) -> Option<String> {
        self.inner.stderr_tail()
    }

    fn established(&mut self) -> [u32; 4] {
        self.inner.established()
    }
}
