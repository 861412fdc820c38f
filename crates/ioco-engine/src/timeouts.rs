//! Quiescence by timeout: how long the tester waits for an output before it concludes δ
//! (tutorial §4: quiescence is observed by a timeout; the `@timeout` attribute of
//! docs/language.md §8).
//!
//! ## The rule
//! (Written once, for this tester and the one with data, as
//! [`quiescence_wait`].) Every observation happens in a state `q` of the
//! specification's suspension automaton, i.e. a set `S` of specification states, with out(q)
//! the outputs allowed there. The tester waits
//!
//! > **max** { timeout(s) | s ∈ S } ∪ { timeout(x) | x ∈ out(q) an output }
//! >        ∪ { timeout(a) | the observation directly follows the input a }
//!
//! over the states, output labels and input label that **have** a timeout of their own
//! ([`Timeouts::states`], [`Timeouts::labels`]); when none has, it waits the default
//! ([`crate::OnlineOptions::quiescence_timeout`]). "Directly follows the input a" means a is
//! the last step of the trace (no output or δ observed since).
//!
//! Taking the maximum is what keeps the timeout sound: a state set `S` means "the SUT may be
//! in any of these states", and concluding δ too early in a slow state turns a late but
//! allowed output into a false δ (and a false Fail where δ is not allowed). A longer wait only
//! costs time. Specific timeouts override the default in both directions: a state or gate
//! known to be fast may wait less than the default.
//!
//! Where the numbers come from (the CLI, `ioco test`, `ioco run`, `ioco replay`): a state's
//! timeout is the largest `@timeout` of the `location`s it is in (a composition is in one
//! location per model); a label's is the `@timeout` of its gate; the default is `--timeout MS`
//! if given, else the model's `@timeout`, else 1000 ms (2000 ms with a quiescence marker or a
//! TorXakis `.txs` model, TorXakis's default `Sut_deltaTime`).
//! `--timeout-location NAME=MS` and `--timeout-gate NAME=MS` override the model's value for
//! that location or gate (for `.aut`, DOT and JSON models a location is a state name and a
//! gate a label name).

//!
//! ## δ is recorded only when quiescence is established
//! Quiescence is established by the system's quiescence marker, by observing the process
//! (`adapter::quiescence`: it provably cannot write without new input), or by a whole time-out
//! of the rule above without output; nothing shorter, also where the specification allows
//! only δ (out(q) = {δ}): an output that comes late there is a Fail, and a shorter look would
//! record δ while it is on its way and judge it after the next input, or never.
//!
//! Where only δ is allowed, the same holds before an input: the input is given only once the
//! system has settled since its last input or output (the wait happens before the input when
//! no observation established it: `Sut::expect_quiet`, `Sut::settle_timeout`); an
//! output that comes meanwhile races ahead of the input and is judged there, a Fail. A run
//! that ends there after an input or an output takes one more look (`rules::Rules::settle`). Where
//! outputs are allowed, an input may be given while the system reacts (a test of its own: a
//! `Stop` while an arm moves); without a marker the input waits `--io-time` for an answer in
//! flight, with a marker until the marker.

use ioco_model::{Label, State};
use std::time::Duration;

/// Per-state and per-label quiescence timeouts of a specification (see the module
/// documentation for how they combine): the one set of time-outs of every session, explicit or
/// with data (the default is [`crate::OnlineOptions::quiescence_timeout`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timeouts {
    /// Per state of the specification (by index): its own timeout, if any. States beyond the
    /// end have none. Over an LTS a state of it; over an STS (`ioco_symbolic::online::
    /// SpecTimeouts`) a location, numbered over the automata in order.
    pub states: Vec<Option<Duration>>,
    /// Per label of the specification's alphabet (by index): its own timeout, if any. Labels
    /// beyond the end have none. Over an STS a gate, numbered as its system numbers them.
    pub labels: Vec<Option<Duration>>,
}

impl Timeouts {
    /// True when no state and no label has a timeout of its own (the default always applies).
    pub fn is_empty(&self) -> bool {
        self.states.iter().chain(&self.labels).all(Option::is_none)
    }

    /// The timeout of an observation in the state set `set` where the specification allows
    /// the outputs `out` (δ may be among them; it has no timeout), directly after the input
    /// `last_input` if any: the maximum of the specific timeouts, else `default`.
    pub fn for_observation(
        &self,
        set: &[State],
        out: &[Label],
        last_input: Option<Label>,
        default: Duration,
    ) -> Duration {
        let state = |s: &State| self.states.get(*s as usize).copied().flatten();
        let label = |l: &Label| self.labels.get(l.index()).copied().flatten();
        quiescence_wait(
            set.iter().map(state),
            out.iter().map(label),
            last_input.as_ref().and_then(label),
            default,
        )
    }
}

/// The quiescence-timeout rule, written once for both testers (with data: `ioco_symbolic::online::SpecTimeouts::wait`;
/// over labels: [`Timeouts::for_observation`], whose module documents where the
/// numbers come from): an observation waits the **maximum** of the timeouts of their own of
/// the states the specification may be in (`states`), of the outputs allowed there
/// (`outputs`) and of the input the observation directly follows (`last_input`: `None` when the
/// last step was no input or that input has no timeout); `default` where none of them has one.
///
/// Taking the maximum keeps the wait sound: the system may be in any of the states, and
/// concluding δ too early in a slow one turns a late but allowed output into a false δ (a
/// false Fail where δ is not allowed); a longer wait only costs time. Timeouts of their own
/// override the default in both directions (a state or gate known to be fast may wait less).
///
/// ```
/// use ioco_engine::timeouts::quiescence_wait;
/// use std::time::Duration;
/// let ms = Duration::from_millis;
/// // a slow state (2 s) among the candidates wins over a fast output gate (50 ms)
/// let slow = quiescence_wait([None, Some(ms(2000))], [Some(ms(50))], None, ms(200));
/// assert_eq!(slow, ms(2000));
/// // a fast gate alone overrides the default downwards; the input just given counts too
/// assert_eq!(quiescence_wait([None], [Some(ms(50))], None, ms(200)), ms(50));
/// assert_eq!(quiescence_wait([None], [Some(ms(50))], Some(ms(700)), ms(200)), ms(700));
/// // nothing with a timeout of its own: the default
/// assert_eq!(quiescence_wait([None], [None], None, ms(200)), ms(200));
/// ```
pub fn quiescence_wait(
    states: impl IntoIterator<Item = Option<Duration>>,
    outputs: impl IntoIterator<Item = Option<Duration>>,
    last_input: Option<Duration>,
    default: Duration,
) -> Duration {
    states
        .into_iter()
        .chain(outputs)
        .chain([last_input])
        .flatten()
        .max()
        .unwrap_or(default)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Option<Duration> {
        Some(Duration::from_millis(x))
    }

    #[test]
    fn the_max_rule() {
        // states 0..4: state 1 slow (1500), state 2 fast (50); labels 2..6: 3 slow (2000),
        // 4 an input with 700
        let t = Timeouts {
            states: vec![None, ms(1500), ms(50), None],
            labels: vec![None, None, None, ms(2000), ms(700)],
        };
        let d = Duration::from_millis(200);
        let (x, y, a) = (Label(2), Label(3), Label(4));
        // nothing specific: the default
        assert_eq!(t.for_observation(&[0, 3], &[x, Label::DELTA], None, d), d);
        // a fast state alone overrides the default downwards
        assert_eq!(t.for_observation(&[2], &[x], None, d), ms(50).unwrap());
        // the max over the state set
        assert_eq!(
            t.for_observation(&[0, 1, 2], &[x], None, d),
            ms(1500).unwrap()
        );
        // an allowed slow output gate wins over the states
        assert_eq!(
            t.for_observation(&[1, 2], &[x, y], None, d),
            ms(2000).unwrap()
        );
        // the input just given counts, only as the last step
        assert_eq!(t.for_observation(&[2], &[x], Some(a), d), ms(700).unwrap());
        assert_eq!(t.for_observation(&[0], &[x], Some(a), d), ms(700).unwrap());
        assert_eq!(t.for_observation(&[0], &[x], Some(x), d), d);
        // out of range: no timeout of its own
        assert_eq!(t.for_observation(&[99], &[Label(99)], None, d), d);
        assert!(!t.is_empty());
        assert!(Timeouts::default().is_empty());
    }
}
