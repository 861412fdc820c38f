//! A system reached through an `ioco-exec` [`Sut`] (a child process, TCP, in the tool's
//! wire format: plain or JSON lines, quiescence by marker or time-out) as a [`Sul`]: an input's
//! output is the system's whole reaction, the outputs it gives until it is quiescent, and
//! quiescence (δ, [`QUIESCENCE`]) when it gives none.
//!
//! The outputs are not known in advance. An adapter decodes only the outputs of its alphabet,
//! so a line it does not know ends the run ([`SutError::UnknownOutput`]): the line becomes
//! an output, the adapter is made again with it, and the inputs given since the reset are
//! given again (their reactions must be the same, else the system is nondeterministic).
//!
//! The outputs the system gives at start-up, before any input, are the same after every reset
//! (else: nondeterministic) and are kept ([`AdapterSul::startup`]).

use crate::sul::{show_output, Sul, SulError, QUIESCENCE};
use ioco_engine::{Observation, Sent, Sut, SutError};
use ioco_model::{Alphabet, Label, LabelKind};
use std::collections::HashMap;
use std::time::Duration;

/// Makes an adapter for an alphabet (the inputs, and the outputs known so far).
pub type MakeAdapter = Box<dyn FnMut(&Alphabet) -> Result<Box<dyn Sut + Send>, SutError> + Send>;

/// Limits of the adapter-based SUL.
#[derive(Copy, Clone, Debug)]
pub struct Limits {
    /// How long to wait for an output before the system counts as quiescent.
    pub timeout: Duration,
    /// Most outputs in one reaction (a system that floods is an error).
    pub max_reaction: usize,
    /// Most distinct output lines.
    pub max_outputs: usize,
    /// The Mealy hypothesis (the adapter reads one output line per input and does not wait for
    /// quiescence): an input without an output is an error that names it.
    pub mealy: bool,
    /// A reset of a running system is a reset line whose reaction the adapter drops (the
    /// process and TCP adapters drain it to start aligned): the start-up output is then seen
    /// only at a fresh start, and a reset that shows none (δ) is not a different start-up.
    pub reset_drains: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_millis(1000),
            max_reaction: 1000,
            max_outputs: 10_000,
            mealy: false,
            reset_drains: false,
        }
    }
}

/// A system behind an adapter (see the module documentation).
pub struct AdapterSul {
    make: MakeAdapter,
    alphabet: Alphabet,
    inputs: HashMap<String, Label>,
    adapter: Option<Box<dyn Sut + Send>>,
    limits: Limits,
    /// Inputs given since the reset, with their reactions.
    given: Vec<(String, String)>,
    startup: Option<String>,
    /// How often the adapter was made again for a new output.
    pub remade: usize,
}

fn err(e: SutError) -> SulError {
    SulError(e.to_string())
}

impl AdapterSul {
    /// A SUL over `inputs` (and `outputs` known in advance, may be empty) through adapters made
    /// by `make`.
    pub fn new(
        inputs: &[String],
        outputs: &[String],
        make: MakeAdapter,
        limits: Limits,
    ) -> Result<AdapterSul, SulError> {
        let mut alphabet = Alphabet::new();
        let mut map = HashMap::new();
        for i in inputs {
            let l = alphabet
                .intern(i, LabelKind::Input)
                .map_err(|e| SulError(e.to_string()))?;
            map.insert(i.clone(), l);
        }
        for o in outputs {
            alphabet
                .intern(o, LabelKind::Output)
                .map_err(|e| SulError(e.to_string()))?;
        }
        Ok(AdapterSul {
            make,
            alphabet,
            inputs: map,
            adapter: None,
            limits,
            given: Vec::new(),
            startup: None,
            remade: 0,
        })
    }

    /// The outputs the system gives at start-up (one per line; empty when none, or before the
    /// first reset).
    pub fn startup(&self) -> Vec<String> {
        match self.startup.as_deref() {
            None | Some(QUIESCENCE) => Vec::new(),
            Some(s) => s.split('\n').map(str::to_string).collect(),
        }
    }

    /// Stop the system.
    pub fn close(&mut self) {
        if let Some(mut a) = self.adapter.take() {
            let _ = a.close();
        }
    }

    fn adapter(&mut self) -> Result<&mut Box<dyn Sut + Send>, SutError> {
        if self.adapter.is_none() {
            self.adapter = Some((self.make)(&self.alphabet)?);
        }
        Ok(self.adapter.as_mut().expect("just made"))
    }

    /// A new output line: add it and make the adapter again.
    fn learn_output(&mut self, line: String) -> Result<(), SulError> {
        if self.alphabet.outputs().count() >= self.limits.max_outputs {
            return Err(SulError(format!(
                "the system wrote more than {} distinct output lines",
                self.limits.max_outputs
            )));
        }
        if self
            .alphabet
            .lookup_kind(&line, LabelKind::Output)
            .is_some()
        {
            // known and still not decoded: the adapter cannot express it
            return Err(SulError(format!(
                "the system's output `{line}` cannot be read"
            )));
        }
        self.alphabet
            .intern(&line, LabelKind::Output)
            .map_err(|e| SulError(format!("the output `{line}`: {e}")))?;
        self.close();
        self.remade += 1;
        Ok(())
    }

    /// The outputs until quiescence, one reaction.
    fn reaction(&mut self) -> Result<String, SutError> {
        let timeout = self.limits.timeout;
        let max = self.limits.max_reaction;
        let mut outs: Vec<String> = Vec::new();
        loop {
            match self.adapter()?.observe(Some(timeout))? {
                Observation::Quiescent => break,
                Observation::Output(l) => {
                    outs.push(self.alphabet.name(l).to_string());
                    if outs.len() > max {
                        return Err(SutError::Malformed(format!(
                            "more than {max} outputs without becoming quiescent (`{}` ...)",
                            outs[..3].join("`, `")
                        )));
                    }
                }
            }
        }
        Ok(outs.join("\n"))
    }

    fn try_reset(&mut self) -> Result<String, SutError> {
        self.adapter()?.reset()?;
        self.reaction()
    }

    fn try_step(&mut self, input: &str) -> Result<String, SutError> {
        let label = *self
            .inputs
            .get(input)
            .ok_or_else(|| SutError::UnknownInput(input.to_string()))?;
        match self.adapter()?.send(label)? {
            Sent::Accepted => {
                let r = self.reaction()?;
                if self.limits.mealy && r == QUIESCENCE {
                    return Err(SutError::Malformed(format!(
                        "no output within {} ms after the input `{input}`: under the Mealy \
                         hypothesis (--mealy) every input is answered by one output line \
                         (hint: raise --timeout, or leave out --mealy for a system that may \
                         stay silent)",
                        self.limits.timeout.as_millis()
                    )));
                }
                Ok(r)
            }
            Sent::Raced(o) if self.limits.mealy => Err(SutError::Malformed(format!(
                "the system wrote a second output `{}` before the input `{input}`: under the \
                 Mealy hypothesis (--mealy) every input is answered by exactly one output line \
                 (leave out --mealy for a system with several outputs per input)",
                self.alphabet.name(o)
            ))),
            Sent::Raced(o) => Err(SutError::Malformed(format!(
                "the system wrote `{}` after it was quiescent, before the input `{input}` \
                 (an output after quiescence cannot be learned; with a time-out, raise --timeout)",
                self.alphabet.name(o)
            ))),
        }
    }

    /// Reset (with new outputs learned on the way), checking the start-up reaction.
    fn reset_checked(&mut self) -> Result<(), SulError> {
        let mut tries = 0;
        let (start, fresh) = loop {
            // a fresh start shows the start-up output; a reset line's reaction may be drained
            let fresh = self.adapter.is_none();
            match self.try_reset() {
                Ok(r) => break (r, fresh),
                Err(SutError::UnknownOutput { line }) if tries < self.limits.max_outputs => {
                    tries += 1;
                    self.learn_output(line)?;
                }
                Err(e) => {
                    self.close();
                    return Err(err(e));
                }
            }
        };
        if !fresh && self.limits.reset_drains && start == QUIESCENCE {
            // the adapter dropped the reset line's reaction: nothing to compare
            return Ok(());
        }
        match &self.startup {
            None => self.startup = Some(start),
            Some(s) if *s == start => {}
            Some(s) if late(s, &start) => {
                return Err(SulError(format!(
                    "an answer came late: at start-up the system wrote `{}` once and `{}` \
                     another time; {}",
                    show_output(s),
                    show_output(&start),
                    late_hint(self.limits.timeout)
                )))
            }
            Some(s) => {
                return Err(SulError(format!(
                    "the system is not deterministic: at start-up it wrote `{}` once and `{}` \
                     another time",
                    show_output(s),
                    show_output(&start)
                )))
            }
        }
        Ok(())
    }
}

/// Whether one reaction is the other with outputs missing at its end (δ: all missing): what a
/// quiescence time-out that ends before a late answer gives.
pub fn late(a: &str, b: &str) -> bool {
    let lines = |r: &str| -> Vec<String> {
        if r == QUIESCENCE {
            Vec::new()
        } else {
            r.split('\n').map(str::to_string).collect()
        }
    };
    let (a, b) = (lines(a), lines(b));
    let (short, long) = if a.len() < b.len() { (a, b) } else { (b, a) };
    short.len() < long.len() && long.starts_with(&short)
}

/// What a late answer means, for a time-out of `timeout`.
pub fn late_hint(timeout: Duration) -> String {
    format!(
        "outputs that come after the quiescence time-out of {} ms are taken for quiescence (δ) \
         (hint: raise --timeout)",
        timeout.as_millis()
    )
}

impl AdapterSul {
    /// Give the inputs since the reset again; their reactions must be the same. False when a
    /// further new output was met (learned; the replay must start over).
    fn replay(&mut self) -> Result<bool, SulError> {
        let given = self.given.clone();
        for (k, (i, r)) in given.iter().enumerate() {
            let again = match self.try_step(i) {
                Ok(a) => a,
                Err(SutError::UnknownOutput { line }) => {
                    self.learn_output(line)?;
                    return Ok(false);
                }
                Err(e) => {
                    self.close();
                    return Err(err(e));
                }
            };
            if again != *r {
                let before: Vec<&str> = given[..k].iter().map(|(j, _)| j.as_str()).collect();
                if late(r, &again) {
                    return Err(SulError(format!(
                        "an answer came late: after `{}`, the input `{i}` gave `{}` once and \
                         `{}` another time; {}",
                        before.join(" "),
                        show_output(r),
                        show_output(&again),
                        late_hint(self.limits.timeout)
                    )));
                }
                return Err(SulError(format!(
                    "the system is not deterministic: after `{}`, the input `{i}` gave `{}` \
                     once and `{}` another time",
                    before.join(" "),
                    show_output(r),
                    show_output(&again)
                )));
            }
        }
        Ok(true)
    }
}

impl Sul for AdapterSul {
    fn quiescence_timeout(&self) -> Option<Duration> {
        Some(self.limits.timeout)
    }

    fn reset(&mut self) -> Result<(), SulError> {
        self.given.clear();
        self.reset_checked()
    }

    fn step(&mut self, input: &str) -> Result<String, SulError> {
        let mut tries = 0;
        loop {
            match self.try_step(input) {
                Ok(r) => {
                    self.given.push((input.to_string(), r.clone()));
                    return Ok(r);
                }
                Err(SutError::UnknownOutput { line }) if tries < self.limits.max_outputs => {
                    tries += 1;
                    self.learn_output(line)?;
                    // again from the start, with the inputs given so far
                    loop {
                        self.reset_checked()?;
                        if self.replay()? {
                            break;
                        }
                    }
                }
                Err(e) => {
                    self.close();
                    let mut word: Vec<&str> = self.given.iter().map(|(i, _)| i.as_str()).collect();
                    word.push(input);
                    return Err(SulError(format!(
                        "{} (on the inputs `{}` after a reset)",
                        err(e),
                        word.join(" ")
                    )));
                }
            }
        }
    }
}

impl Drop for AdapterSul {
    fn drop(&mut self) {
        self.close();
    }
}
