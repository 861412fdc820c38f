//! When each step of a run was seen: a [`Sut`] that notes the time of every input the system
//! took and every observation it gave (an output, δ, a line that is no output), in
//! milliseconds since the wrapper was made. These are exactly the steps the loop writes to
//! the trace ([`super::alg2`]: δ after δ is answered without the system and written once),
//! so the times line up with the trace one for one; a step that ends the run with an error
//! writes no entry and notes no time.

use crate::sut::{Obs, Sent, Sut, SutError};
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
    fn reset(&mut self, seed: u64) -> Result<(), SutError> {
        self.sut.reset(seed)
    }

    fn send(&mut self, input: &A) -> Result<Sent<A>, SutError> {
        let r = self.sut.send(input);
        if r.is_ok() {
            self.note();
        }
        r
    }

    fn observe(&mut self, timeout: Option<Duration>) -> Result<Obs<A>, SutError> {
        let r = self.sut.observe(timeout);
        if r.is_ok() {
            self.note();
        }
        r
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
}
