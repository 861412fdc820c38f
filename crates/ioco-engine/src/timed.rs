//! When each step of a run was seen: a [`Sut`] that notes the time of every input the system
//! took and every observation it gave (an output, δ, a line that is no output), in
//! milliseconds since the wrapper was made. These are exactly the steps the loop writes to
//! the trace ([`super::rules`]: δ after δ is answered without the system and written once),
//! so the times line up with the trace one for one; a step that ends the run with an error
//! writes no entry and notes no time.

use crate::sut::{Observation, Sent, Sut, SutError};
use std::time::{Duration, Instant};

/// `sut`, timed.
pub struct Timed<'u, U: ?Sized> {
    sut: &'u mut U,
    t0: Instant,
    /// When each step was seen (ms since the start).
    pub at_ms: Vec<f32>,
}

impl<'u, U: ?Sized> Timed<'u, U> {
    /// Time the steps of `sut` from now.
    pub fn new(sut: &'u mut U) -> Timed<'u, U> {
        Timed {
            sut,
            t0: Instant::now(),
            at_ms: Vec::new(),
        }
    }

    fn note(&mut self) {
        self.at_ms
            .push((self.t0.elapsed().as_secs_f64() * 1e3) as f32);
    }
}

impl<A, U: Sut<A> + ?Sized> Sut<A> for Timed<'_, U> {
    fn reset(&mut self) -> Result<(), SutError> {
        self.sut.reset()
    }

    fn send(&mut self, input: A) -> Result<Sent<A>, SutError> {
        let r = self.sut.send(input);
        // a line that is no output is a step too (a Fail written to the trace)
        if matches!(r, Ok(_) | Err(SutError::UnknownOutput { .. })) {
            self.note();
        }
        r
    }

    fn observe(&mut self, timeout: Option<Duration>) -> Result<Observation<A>, SutError> {
        let r = self.sut.observe(timeout);
        if matches!(r, Ok(_) | Err(SutError::UnknownOutput { .. })) {
            self.note();
        }
        r
    }

    fn close(&mut self) -> Result<(), SutError> {
        self.sut.close()
    }

    fn set_seed(&mut self, seed: u64) {
        self.sut.set_seed(seed)
    }

    fn stderr_tail(&mut self) -> Option<String> {
        self.sut.stderr_tail()
    }

    fn settle_timeout(&mut self, timeout: Duration) {
        self.sut.settle_timeout(timeout)
    }

    fn expect_quiet(&mut self, quiet: bool) {
        self.sut.expect_quiet(quiet)
    }

    fn timed(&self) -> bool {
        self.sut.timed()
    }

    fn established(&mut self) -> [u32; 4] {
        self.sut.established()
    }
}
