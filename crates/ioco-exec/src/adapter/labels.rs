//! Any system under test with data ([`DataSut`]: gate values) under the label-level
//! [`Adapter`], for the explicit engine: a label is a gate value as `ioco_lang`'s semantics
//! names it (`Action(Plus(1,2))`, `coin`), parsed into the gate and its values before it is
//! given, and an output gate value is looked up as a label of the specification's alphabet
//! (one that is not there is a line that is no output of the model). So every data adapter
//! (TorXakis sockets, HTTP) serves both engines.

use super::wire::split_gate;
use super::{Adapter, AdapterError, Observation, Sent as LabelSent};
use ioco_lang::ir::{Direction, Spec, Value};
use ioco_lang::semantics::label_name;
use ioco_model::{Alphabet, Label, LabelKind};
use ioco_symbolic::online::{parse_value, DataSut, Observed, Sent, SutError};
use std::sync::Arc;
use std::time::Duration;

/// A [`DataSut`] as an [`Adapter`] over the labels of `spec` with its gate values.
pub struct Labels<D> {
    inner: D,
    spec: Arc<Spec>,
    alphabet: Alphabet,
}

impl<D: DataSut> Labels<D> {
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

    fn label(&self, gate: &str, values: &[Value]) -> Result<Label, AdapterError> {
        let name = label_name(&self.spec.defs, gate, values);
        self.alphabet
            .lookup_kind(&name, LabelKind::Output)
            .ok_or(AdapterError::UnknownOutput { line: name })
    }

    fn observed(&self, o: Observed) -> Result<Observation, AdapterError> {
        match o {
            Observed::Output(g, v) => self.label(&g, &v).map(Observation::Output),
            Observed::Quiescent => Ok(Observation::Quiescent),
            Observed::Malformed(m) => Err(AdapterError::UnknownOutput { line: m }),
        }
    }
}

fn adapter_error(e: SutError) -> AdapterError {
    match e {
        SutError::Exited(status) => AdapterError::Exited { status },
        SutError::Broken(m) if m.starts_with("could not start the SUT: ") => {
            AdapterError::Start(m["could not start the SUT: ".len()..].to_string())
        }
        SutError::Broken(m) => AdapterError::Io(m),
    }
}

impl<D: DataSut> Adapter for Labels<D> {
    fn reset(&mut self) -> Result<(), AdapterError> {
        self.inner.reset().map_err(adapter_error)
    }

    fn send(&mut self, input: Label) -> Result<LabelSent, AdapterError> {
        let name = self.alphabet.name(input);
        let (gate, texts) = split_gate(name);
        let decl = self
            .spec
            .gates
            .iter()
            .find(|g| g.name == gate && g.dir == Direction::Input)
            .filter(|g| g.params.len() == texts.len())
            .ok_or_else(|| AdapterError::UnknownInput(name.to_string()))?;
        let mut args = Vec::with_capacity(texts.len());
        for ((_, ty), t) in decl.params.iter().zip(&texts) {
            args.push(
                parse_value(&self.spec.defs, *ty, t)
                    .map_err(|e| AdapterError::UnknownInput(format!("{name}: {e}")))?,
            );
        }
        match self.inner.send(gate, &args).map_err(adapter_error)? {
            Sent::Sent => Ok(LabelSent::Accepted),
            Sent::Raced(g, v) => self.label(&g, &v).map(LabelSent::Raced),
            Sent::RacedMalformed(m) => Err(AdapterError::UnknownOutput { line: m }),
        }
    }

    fn observe(&mut self, timeout: Duration) -> Result<Observation, AdapterError> {
        self.inner.set_timeout(timeout);
        let o = self.inner.observe().map_err(adapter_error)?;
        self.observed(o)
    }

    fn close(&mut self) -> Result<(), AdapterError> {
        self.inner.close();
        Ok(())
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
