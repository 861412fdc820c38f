//! Replay of recorded inputs as a [`Selection`], for every engine: before each input, and at
//! the end, observe until the system is quiescent (every observation judged by the
//! specification); an input the specification does not enable at that point is skipped (after
//! it nothing could fail, tutorial Def. 6.2); an input that races with an output is given
//! again after the system settles, while the specification still enables it. This is what
//! `ioco replay` of a run's inputs and every shrinking step (Zeller's ddmin over the inputs)
//! execute.

use super::select::{Choice, Event, Selection, Stop};
use super::spec::Specification;
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
