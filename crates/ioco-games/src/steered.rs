//! Test purposes over an LTS as a [`Selection`] (seed 004 §2, thesis ch. 6): the solved
//! product S × TP ([`PurposeProduct`]) advises an input that keeps accept reachable (fewest
//! cooperations of the system, then fewest moves) or to wait, and follows every step the
//! specification accepted: **Pass** when it reaches accept, **Inconclusive** at refuse, when
//! accept is out of reach, or at the step bound. Fail comes from the specification only.

use crate::{Advice, PurposeProduct, Step};
use ioco_engine::explicit::Explicit;
use ioco_engine::select::{Choice, Event, Selection, Stop};
use ioco_gen::Verdict;
use ioco_model::{Label, State};
use rand_chacha::ChaCha8Rng;

/// The steering of a purpose product.
pub struct Steered<'p> {
    prod: &'p PurposeProduct,
    q: State,
}

impl<'p> Steered<'p> {
    /// Steer by `prod`.
    pub fn new(prod: &'p PurposeProduct) -> Steered<'p> {
        Steered { prod, q: 0 }
    }

    fn stop(v: Verdict, why: String) -> Stop {
        match v {
            Verdict::Pass => Stop::Pass(Some(format!("accept reached: {why}"))),
            _ => Stop::Inconclusive(why),
        }
    }
}

impl Selection<Explicit<'_, '_>> for Steered<'_> {
    fn start(&mut self) {
        self.q = 0;
    }

    fn choose(&mut self, _: &mut Explicit<'_, '_>, _: usize, _: &mut ChaCha8Rng) -> Choice<Label> {
        match self.prod.advise(self.q) {
            Advice::Stop(v, why) => Choice::Stop(Steered::stop(v, why)),
            Advice::Stimulate(a) => Choice::Give(a),
            Advice::Observe => Choice::Observe,
        }
    }

    fn after(&mut self, _: &mut Explicit<'_, '_>, event: Event<'_, Label>) -> Option<Stop> {
        let x = match event {
            Event::Gave(&a) | Event::Output(&a) => a,
            Event::Quiescence => Label::DELTA,
        };
        match self.prod.step(self.q, x) {
            Step::Continue(t) => {
                self.q = t;
                None
            }
            // The product forbids only what the specification forbids, which ended the run
            // before: a Fail here would come from the steering, which never gives Fail.
            Step::Stop(Verdict::Fail, why) => Some(Stop::Inconclusive(format!(
                "the purpose product refuses a step the specification allows: {why}"
            ))),
            Step::Stop(v, why) => Some(Steered::stop(v, why)),
        }
    }

    fn at_bound(&mut self, _: &mut Explicit<'_, '_>, depth: usize) -> Stop {
        Stop::Inconclusive(format!(
            "step bound {depth} reached before accept (at {})",
            self.prod.lts.state_name(self.q)
        ))
    }
}
