//! Replay of recorded inputs as a [`Selection`], for every engine: before each input, and at
//! the end, observe until the system is quiescent (every observation judged by the
//! specification); an input the specification does not enable at that point is skipped (after
//! it nothing could fail, tutorial Def. 6.2); an input that races with an output is given
//! again after the system settles, while the specification still enables it. This is what
//! `ioco replay` of a run's inputs and every shrinking step (Zeller's ddmin over the inputs)
//! execute.

use crate::select::{Choice, Event, Selection, Stop};
use crate::spec::Specification;
use rand_chacha::ChaCha8Rng;

/// Replay of recorded inputs.
pub struct Replay<'i, A> {
    inputs: &'i [A],
    next: usize,
    settled: bool,
}

impl<'i, A> Replay<'i, A> {
    /// Replay `inputs`.
    pub fn new(inputs: &'i [A]) -> Replay<'i, A> {
        Replay {
            inputs,
            next: 0,
            settled: false,
        }
    }
}

impl<S> Selection<S> for Replay<'_, S::Action>
where
    S: Specification + ?Sized,
    S::Action: Clone,
{
    fn start(&mut self) {
        self.next = 0;
        self.settled = false;
    }

    fn choose(&mut self, spec: &mut S, _: usize, _: &mut ChaCha8Rng) -> Choice<S::Action> {
        if !self.settled {
            return Choice::Observe;
        }
        match self.inputs.get(self.next) {
            None => Choice::Stop(Stop::Pass(None)),
            Some(i) if spec.enables(i) => Choice::Give(i.clone()),
            Some(_) => {
                self.next += 1;
                self.settled = false;
                Choice::Observe
            }
        }
    }

    fn after(&mut self, _: &mut S, event: Event<'_, S::Action>) -> Option<Stop> {
        match event {
            Event::Gave(_) => {
                self.next += 1;
                self.settled = false;
            }
            Event::Output(_) => self.settled = false,
            Event::Quiescence => self.settled = true,
        }
        None
    }
}

/// Replay of a whole recorded trace over an LTS (`ioco replay` of a run: its inputs and its
/// observations, in order): each recorded input is given (an output that races ahead is judged,
/// noted as a divergence, and the input given again, at most `max_races` times in a row), each
/// recorded output or `δ` is an observation, judged by the specification whatever it is; the
/// first place where the system did something else than the recording is noted. A recorded
/// input the specification does not enable ends the replay with Pass: after it nothing could
/// fail (tutorial Def. 6.2).
pub struct FollowTrace<'r> {
    recorded: &'r [ioco_model::Label],
    alphabet: &'r ioco_model::Alphabet,
    next: usize,
    raced: usize,
    max_races: usize,
    /// Where the system first diverged from the recording, if it did.
    pub diverged: Option<String>,
}

impl<'r> FollowTrace<'r> {
    /// Follow `recorded` (labels of `alphabet`).
    pub fn new(
        recorded: &'r [ioco_model::Label],
        alphabet: &'r ioco_model::Alphabet,
        max_races: usize,
    ) -> FollowTrace<'r> {
        FollowTrace {
            recorded,
            alphabet,
            next: 0,
            raced: 0,
            max_races,
            diverged: None,
        }
    }

    fn note(&mut self, want: ioco_model::Label, got: ioco_model::Label) {
        if self.diverged.is_none() && want != got {
            self.diverged = Some(format!(
                "the SUT diverged from the recording at step {}: recorded {}, observed {}",
                self.next + 1,
                self.alphabet.display(want),
                self.alphabet.display(got)
            ));
        }
    }
}

impl<S> Selection<S> for FollowTrace<'_>
where
    S: Specification<Action = ioco_model::Label> + ?Sized,
{
    fn start(&mut self) {
        self.next = 0;
        self.raced = 0;
        self.diverged = None;
    }

    fn choose(&mut self, spec: &mut S, _: usize, _: &mut ChaCha8Rng) -> Choice<S::Action> {
        let Some(&l) = self.recorded.get(self.next) else {
            return Choice::Stop(Stop::Pass(None));
        };
        if !self.alphabet.is_input(l) {
            return Choice::Observe;
        }
        if spec.enables(&l) {
            Choice::Give(l)
        } else {
            Choice::Stop(Stop::Pass(Some(format!(
                "the recording leaves the specification with {} at step {}",
                self.alphabet.display(l),
                self.next + 1
            ))))
        }
    }

    fn after(&mut self, _: &mut S, event: Event<'_, S::Action>) -> Option<Stop> {
        let got = match event {
            Event::Gave(_) => {
                self.next += 1;
                self.raced = 0;
                return None;
            }
            Event::Output(&x) => x,
            Event::Quiescence => ioco_model::Label::DELTA,
        };
        let want = *self.recorded.get(self.next)?;
        self.note(want, got);
        if self.alphabet.is_input(want) {
            // raced ahead of the recorded input: give it again
            self.raced += 1;
            if self.raced > self.max_races {
                return Some(Stop::Inconclusive(format!(
                    "more than {} outputs raced ahead of {}",
                    self.max_races,
                    self.alphabet.display(want)
                )));
            }
        } else {
            self.next += 1;
        }
        None
    }
}
