//! The system the learner asks questions of, reached through the workspace's one interface to
//! systems under test, [`ioco_engine::Sut`] over labels: a child process or a TCP server in the
//! tool's wire format (plain or JSON lines, quiescence by marker or time-out), an in-process
//! component, a Mealy machine played in process ([`System::mealy`]), a Python object.
//!
//! The learner sees a Mealy machine (as LearnLib's and AALpy's learners do): after a reset, each
//! input has one output, *the system's whole reaction*: the outputs it gives until it is
//! quiescent, joined by `\n` (a line never holds one), and the empty string when it gives none:
//! quiescence, δ ([`QUIESCENCE`]). With [`Limits::mealy`] (the Mealy hypothesis, `ioco learn
//! --mealy`) every input must be answered by exactly one output line.
//!
//! The outputs are not known in advance. An adapter decodes only the outputs of the alphabet it
//! was made for ([`MakeAdapter`]), so a line it does not know ends the run
//! ([`SutError::UnknownOutput`]): the line becomes an output, the adapter is made again with
//! it, and the inputs given since the reset are given again (their reactions must be the
//! same, else the system is nondeterministic). A system in process ([`System::in_process`])
//! names its outputs as it gives them ([`Names::output`]) and is never made again.
//!
//! The outputs the system gives at start-up, before any input, are the same after every reset
//! (else: nondeterministic) and are kept ([`System::startup`]).
//!
//! The learner's rules over a [`Sut`] are two functions here, [`System::step`] and
//! [`System::reset`] over the private `reaction`: no other trait stands between the learner and
//! a system.

use ioco_engine::{Observation, Sent, Sut, SutError};
use ioco_model::{Alphabet, Label, LabelKind, Mealy};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Duration;

/// The output of a reaction with no output: quiescence (δ).
pub const QUIESCENCE: &str = "";

/// How a reaction is shown to people: its outputs separated by ` · `, and δ for none.
pub fn show_output(o: &str) -> String {
    if o == QUIESCENCE {
        "δ".to_string()
    } else {
        o.replace('\n', " · ")
    }
}

/// Makes an adapter for an alphabet (the inputs, and the outputs known so far).
pub type MakeAdapter<'a> = Box<dyn FnMut(&Alphabet) -> Result<Box<dyn Sut + 'a>, SutError> + 'a>;

/// Limits of the system under learning.
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

/// The learner's alphabet as a system in process sees it ([`System::in_process`]): the names of
/// the inputs it is given, and labels for the outputs it gives, made as it gives them.
#[derive(Clone, Debug)]
pub struct Names(Rc<RefCell<Alphabet>>);

impl Names {
    /// The name of a label (an input given, or an output).
    pub fn name(&self, l: Label) -> String {
        self.0.borrow().name(l).to_string()
    }

    /// The input named `name`, if it is one of the learner's.
    pub fn input(&self, name: &str) -> Option<Label> {
        self.0.borrow().lookup_kind(name, LabelKind::Input)
    }

    /// The output named `name` (made when it is new).
    pub fn output(&self, name: &str) -> Label {
        let mut a = self.0.borrow_mut();
        match a.lookup_kind(name, LabelKind::Output) {
            Some(l) => l,
            None => a
                .intern(name, LabelKind::Output)
                .expect("an output label never conflicts with an input"),
        }
    }
}

/// The system under learning: a [`Sut`] over labels, with the learner's rules for reactions,
/// resets, new outputs and start-up outputs (see the module documentation).
pub struct System<'a> {
    /// Makes the adapter anew for a new output; `None` for a system in process.
    make: Option<MakeAdapter<'a>>,
    names: Names,
    /// The inputs, in the learner's order.
    inputs: Vec<String>,
    labels: HashMap<String, Label>,
    adapter: Option<Box<dyn Sut + 'a>>,
    /// Whether observing waits real time ([`Sut::timed`] of the last adapter made).
    timed: bool,
    limits: Limits,
    /// Inputs given since the reset, with their reactions.
    given: Vec<(String, String)>,
    startup: Option<String>,
    /// How often the adapter was made again for a new output.
    pub remade: usize,
}

fn named(inputs: &[String], outputs: &[String]) -> (Alphabet, HashMap<String, Label>) {
    let mut alphabet = Alphabet::new();
    let mut labels = HashMap::new();
    for i in inputs {
        let l = alphabet
            .intern(i, LabelKind::Input)
            .expect("an input label never conflicts with an output");
        labels.insert(i.clone(), l);
    }
    for o in outputs {
        alphabet
            .intern(o, LabelKind::Output)
            .expect("an output label never conflicts with an input");
    }
    (alphabet, labels)
}

impl<'a> System<'a> {
    /// A system over `inputs` (in the learner's order; and `outputs` known in advance, may be
    /// empty) through adapters made by `make`, made again with every new output.
    pub fn new(
        inputs: &[String],
        outputs: &[String],
        make: MakeAdapter<'a>,
        limits: Limits,
    ) -> System<'a> {
        let (alphabet, labels) = named(inputs, outputs);
        System {
            make: Some(make),
            names: Names(Rc::new(RefCell::new(alphabet))),
            inputs: inputs.to_vec(),
            labels,
            adapter: None,
            timed: true,
            limits,
            given: Vec::new(),
            startup: None,
            remade: 0,
        }
    }

    /// A system in process over `inputs` (in the learner's order): `make` makes it once, with
    /// the [`Names`] through which it names the outputs it gives.
    pub fn in_process(
        inputs: &[String],
        limits: Limits,
        make: impl FnOnce(Names) -> Box<dyn Sut + 'a>,
    ) -> System<'a> {
        let (alphabet, labels) = named(inputs, &[]);
        let names = Names(Rc::new(RefCell::new(alphabet)));
        let sut = make(names.clone());
        System {
            make: None,
            timed: sut.timed(),
            names,
            inputs: inputs.to_vec(),
            labels,
            adapter: Some(sut),
            limits,
            given: Vec::new(),
            startup: None,
            remade: 0,
        }
    }

    /// `machine` played in process over `inputs` (each one of its inputs; in the learner's
    /// order): an input gives the output of its transition; an input the machine leaves
    /// undefined in the current state is ignored (the state stays, the reaction is δ), as a
    /// program that discards it would answer (and as `examples/models/lts_player.py` plays it).
    pub fn mealy(machine: Mealy, inputs: &[String]) -> Result<System<'static>, SutError> {
        if let Some(i) = inputs.iter().find(|i| machine.input_index(i).is_none()) {
            return Err(SutError::UnknownInput(i.clone()));
        }
        Ok(System::in_process(inputs, Limits::default(), |names| {
            Box::new(MealySut::new(machine, names))
        }))
    }

    /// The inputs, in the learner's order.
    pub fn inputs(&self) -> &[String] {
        &self.inputs
    }

    /// The time-out after which the system's silence is taken for quiescence, when that is how
    /// it is observed (an answer later than it is seen as δ, then as a different answer):
    /// different answers that look like a late one are then reported as such
    /// ([`crate::LearnError::Late`]). `None`: quiescence is exact (a system in process that
    /// answers at once, [`Sut::timed`]).
    pub fn quiescence_timeout(&self) -> Option<Duration> {
        self.timed.then_some(self.limits.timeout)
    }

    /// The outputs the system gives at start-up (one per line; empty when none, or before the
    /// first reset).
    pub fn startup(&self) -> Vec<String> {
        match self.startup.as_deref() {
            None | Some(QUIESCENCE) => Vec::new(),
            Some(s) => s.split('\n').map(str::to_string).collect(),
        }
    }

    /// Stop the system (an adapter is made anew when needed; a system in process is kept).
    pub fn close(&mut self) {
        if self.make.is_none() {
            if let Some(a) = self.adapter.as_mut() {
                let _ = a.close();
            }
        } else if let Some(mut a) = self.adapter.take() {
            let _ = a.close();
        }
    }

    fn adapter(&mut self) -> Result<&mut Box<dyn Sut + 'a>, SutError> {
        if self.adapter.is_none() {
            let make = self
                .make
                .as_mut()
                .ok_or_else(|| SutError::Broken("the system in process is gone".into()))?;
            let a = make(&self.names.0.borrow())?;
            self.timed = a.timed();
            self.adapter = Some(a);
        }
        Ok(self.adapter.as_mut().expect("just made"))
    }

    /// A new output line: add it and make the adapter again.
    fn learn_output(&mut self, line: String) -> Result<(), SutError> {
        let known = {
            let a = self.names.0.borrow();
            if a.outputs().count() >= self.limits.max_outputs {
                return Err(SutError::Broken(format!(
                    "the system wrote more than {} distinct output lines",
                    self.limits.max_outputs
                )));
            }
            a.lookup_kind(&line, LabelKind::Output).is_some()
        };
        if known || self.make.is_none() {
            // known and still not decoded, or in process: the adapter cannot express it
            return Err(SutError::Broken(format!(
                "the system's output `{line}` cannot be read"
            )));
        }
        self.names.output(&line);
        self.close();
        self.remade += 1;
        Ok(())
    }

    fn try_reset(&mut self) -> Result<String, SutError> {
        self.adapter()?.reset()?;
        let limits = self.limits;
        let names = self.names.clone();
        reaction(self.adapter()?, &names, &limits)
    }

    fn try_step(&mut self, input: &str) -> Result<String, SutError> {
        let label = *self
            .labels
            .get(input)
            .ok_or_else(|| SutError::UnknownInput(input.to_string()))?;
        let limits = self.limits;
        let names = self.names.clone();
        let sut = self.adapter()?;
        match sut.send(label)? {
            Sent::Accepted => {
                let r = reaction(sut, &names, &limits)?;
                if limits.mealy && r == QUIESCENCE {
                    return Err(SutError::Malformed(format!(
                        "no output within {} ms after the input `{input}`: under the Mealy \
                         hypothesis (--mealy) every input is answered by one output line \
                         (hint: raise --timeout, or leave out --mealy for a system that may \
                         stay silent)",
                        limits.timeout.as_millis()
                    )));
                }
                Ok(r)
            }
            Sent::Raced(o) if limits.mealy => Err(SutError::Malformed(format!(
                "the system wrote a second output `{}` before the input `{input}`: under the \
                 Mealy hypothesis (--mealy) every input is answered by exactly one output line \
                 (leave out --mealy for a system with several outputs per input)",
                names.name(o)
            ))),
            Sent::Raced(o) => Err(SutError::Malformed(format!(
                "the system wrote `{}` after it was quiescent, before the input `{input}` \
                 (an output after quiescence cannot be learned; with a time-out, raise --timeout)",
                names.name(o)
            ))),
        }
    }

    /// Reset (with new outputs learned on the way), checking the start-up reaction.
    fn reset_checked(&mut self) -> Result<(), SutError> {
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
                    return Err(e);
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
                return Err(SutError::Broken(format!(
                    "an answer came late: at start-up the system wrote `{}` once and `{}` \
                     another time; {}",
                    show_output(s),
                    show_output(&start),
                    late_hint(self.limits.timeout)
                )))
            }
            Some(s) => {
                return Err(SutError::Broken(format!(
                    "the system is not deterministic: at start-up it wrote `{}` once and `{}` \
                     another time",
                    show_output(s),
                    show_output(&start)
                )))
            }
        }
        Ok(())
    }

    /// Give the inputs since the reset again; their reactions must be the same. False when a
    /// further new output was met (learned; the replay must start over).
    fn replay(&mut self) -> Result<bool, SutError> {
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
                    return Err(e);
                }
            };
            if again != *r {
                let before: Vec<&str> = given[..k].iter().map(|(j, _)| j.as_str()).collect();
                if late(r, &again) {
                    return Err(SutError::Broken(format!(
                        "an answer came late: after `{}`, the input `{i}` gave `{}` once and \
                         `{}` another time; {}",
                        before.join(" "),
                        show_output(r),
                        show_output(&again),
                        late_hint(self.limits.timeout)
                    )));
                }
                return Err(SutError::Broken(format!(
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

    /// Bring the system to its initial state, checking its start-up output.
    pub fn reset(&mut self) -> Result<(), SutError> {
        self.given.clear();
        self.reset_checked()
    }

    /// Give `input` (one of the learner's inputs) and return the system's reaction.
    pub fn step(&mut self, input: &str) -> Result<String, SutError> {
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
                    return Err(SutError::Broken(format!(
                        "{e} (on the inputs `{}` after a reset)",
                        word.join(" ")
                    )));
                }
            }
        }
    }
}

impl Drop for System<'_> {
    fn drop(&mut self) {
        if let Some(mut a) = self.adapter.take() {
            let _ = a.close();
        }
    }
}

/// The outputs until quiescence: one reaction, its outputs joined by `\n`, δ for none.
fn reaction(sut: &mut dyn Sut, names: &Names, limits: &Limits) -> Result<String, SutError> {
    let mut outs = String::new();
    let mut n = 0;
    loop {
        match sut.observe(Some(limits.timeout))? {
            Observation::Quiescent => break,
            Observation::Output(l) => {
                if n > 0 {
                    outs.push('\n');
                }
                outs.push_str(names.0.borrow().name(l));
                n += 1;
                if n > limits.max_reaction {
                    let first: Vec<&str> = outs.split('\n').take(3).collect();
                    return Err(SutError::Malformed(format!(
                        "more than {} outputs without becoming quiescent (`{}` ...)",
                        limits.max_reaction,
                        first.join("`, `")
                    )));
                }
            }
        }
    }
    Ok(outs)
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

/// A Mealy machine played in process as a system under test ([`System::mealy`]): an input gives
/// the output of its transition, then quiescence; an input undefined in the current state
/// gives quiescence at once.
struct MealySut {
    machine: Mealy,
    state: u32,
    /// The machine's input of each learner's input label (by label number).
    input_of: Vec<Option<u32>>,
    /// The label of each of the machine's outputs.
    output_label: Vec<Label>,
    pending: Option<Label>,
}

impl MealySut {
    fn new(machine: Mealy, names: Names) -> MealySut {
        let mut input_of = Vec::new();
        for (k, name) in machine.inputs.iter().enumerate() {
            if let Some(l) = names.input(name) {
                let at = l.0 as usize;
                if input_of.len() <= at {
                    input_of.resize(at + 1, None);
                }
                input_of[at] = Some(k as u32);
            }
        }
        let output_label = machine.outputs.iter().map(|o| names.output(o)).collect();
        MealySut {
            state: machine.initial,
            machine,
            input_of,
            output_label,
            pending: None,
        }
    }
}

impl Sut for MealySut {
    fn reset(&mut self) -> Result<(), SutError> {
        self.state = self.machine.initial;
        self.pending = None;
        Ok(())
    }

    fn send(&mut self, input: Label) -> Result<Sent, SutError> {
        if let Some(o) = self.pending.take() {
            return Ok(Sent::Raced(o));
        }
        let i = self
            .input_of
            .get(input.0 as usize)
            .copied()
            .flatten()
            .ok_or_else(|| SutError::UnknownInput(format!("label {}", input.0)))?;
        if let Some((t, o)) = self.machine.step(self.state, i) {
            self.state = t;
            self.pending = Some(self.output_label[o as usize]);
        }
        Ok(Sent::Accepted)
    }

    fn observe(&mut self, _: Option<Duration>) -> Result<Observation, SutError> {
        Ok(self
            .pending
            .take()
            .map_or(Observation::Quiescent, Observation::Output))
    }

    fn timed(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mealy_machine_in_process() {
        let mut m = Mealy::new(2, vec!["a".into(), "b".into()], vec!["x".into()], 0);
        m.set(0, 0, 1, 0);
        let mut s = System::mealy(m.clone(), &["a".into(), "b".into()]).unwrap();
        assert_eq!(s.quiescence_timeout(), None);
        s.reset().unwrap();
        assert_eq!(s.step("a").unwrap(), "x");
        assert_eq!(s.step("a").unwrap(), QUIESCENCE);
        assert!(s
            .step("c")
            .unwrap_err()
            .to_string()
            .contains("cannot send `c`: not an input"));
        assert!(System::mealy(m, &["c".into()]).is_err());
        assert_eq!(show_output(""), "δ");
        assert_eq!(show_output("a\nb"), "a · b");
    }

    #[test]
    fn a_late_answer_is_one_reaction_cut_short() {
        assert!(late("", "a"));
        assert!(late("a\nb", "a"));
        assert!(!late("a", "b"));
        assert!(!late("a", "a"));
    }
}
