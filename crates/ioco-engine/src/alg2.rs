//! Tutorial Alg. 2 (P1:L488-521), on-the-fly testing: the one loop every kind of test that
//! chooses its steps as it goes runs through (online runs, replays, purposes, switch coverage,
//! shrinking; see the [module documentation](super)). Each step, and how a run ends when the
//! system exits or breaks, follows the tester's rules of [`crate::rules`], which the execution
//! of stored test cases follows too.
//!
//! Soundness (tutorial Thm. 8.1): Fail is only given by the [`Specification`] (an output or
//! quiescence outside out(σ) after a suspension trace σ of the specification), by a line that
//! is no output of the model, or by the exit rule of [`crate::rules`]; a [`Selection`] can only
//! stop with Pass or Inconclusive.

pub use crate::rules::{never_started, one_line, start, sut_error, Ended};
use crate::rules::{Rules, Seen};
use crate::select::{Choice, Event, Selection, Stop};
use crate::spec::Specification;
use crate::sut::Sut;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// One run of Alg. 2 from where both sides are (see [`start`]): at most `depth` steps (inputs
/// and observations), none begun after `deadline`.
pub fn run<S, L, U>(
    spec: &mut S,
    sel: &mut L,
    sut: &mut U,
    depth: usize,
    deadline: Option<Instant>,
    rng: &mut ChaCha8Rng,
) -> Ended
where
    S: Specification + ?Sized,
    L: Selection<S> + ?Sized,
    U: Sut<S::Action> + ?Sized,
{
    sel.start();
    let mut rules = Rules::new(sut);
    loop {
        let steps = rules.steps();
        if steps >= depth {
            if let Some(end) = rules.settle(spec, sut, rng) {
                return end;
            }
            return Ended::stop(sel.at_bound(spec, depth));
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Ended::pass(Some("stopped early: time budget used up".into()));
        }
        let next = match sel.choose(spec, steps, rng) {
            Choice::Stop(s @ Stop::Pass(_)) => {
                return rules
                    .settle(spec, sut, rng)
                    .unwrap_or_else(|| Ended::stop(s))
            }
            Choice::Stop(s) => return Ended::stop(s),
            Choice::Observe => match rules.observe(spec, sut, rng) {
                Ok(Seen::Output(x)) => sel.after(spec, Event::Output(&x)),
                Ok(_) => sel.after(spec, Event::Quiescence),
                Err(end) => return end,
            },
            Choice::Give(a) => match rules.give(spec, sut, &a, rng) {
                Ok(Seen::Output(x)) => sel.after(spec, Event::Output(&x)),
                Ok(_) => sel.after(spec, Event::Gave(&a)),
                Err(end) => return end,
            },
        };
        if let Some(s) = next {
            return Ended::stop(s);
        }
    }
}
