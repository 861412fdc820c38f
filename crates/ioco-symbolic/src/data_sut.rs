//! Systems under test with data (`crate::online::DataSut`) as the engine's [`Sut`] over
//! gate values.

use crate::online::{self as data, DataSut, GateValue};
use ioco_engine::{Obs, Sent, Sut, SutError};
use std::time::Duration;

fn data_error(e: data::SutError) -> SutError {
    match e {
        data::SutError::Exited(s) => SutError::Exited(s),
        data::SutError::Broken(s) => SutError::Broken(s),
    }
}

fn data_obs(o: data::Observed) -> Obs<GateValue> {
    match o {
        data::Observed::Output(g, v) => Obs::Output((g, v)),
        data::Observed::Quiescent => Obs::Quiescent,
        data::Observed::Malformed(why) => Obs::Unknown(why),
    }
}

/// A system under test with data.
pub struct Data<'a>(pub &'a mut dyn DataSut);

impl Sut<GateValue> for Data<'_> {
    fn reset(&mut self, _seed: u64) -> Result<(), SutError> {
        self.0.reset().map_err(data_error)
    }

    fn send(&mut self, (gate, values): &GateValue) -> Result<Sent<GateValue>, SutError> {
        match self.0.send(gate, values) {
            Ok(data::Sent::Sent) => Ok(Sent::Accepted),
            Ok(data::Sent::Raced(g, v)) => Ok(Sent::Raced(Obs::Output((g, v)))),
            Ok(data::Sent::RacedMalformed(why)) => Ok(Sent::Raced(Obs::Unknown(why))),
            Err(e) => Err(data_error(e)),
        }
    }

    fn observe(&mut self, timeout: Option<Duration>) -> Result<Obs<GateValue>, SutError> {
        if let Some(t) = timeout {
            self.0.set_timeout(t);
        }
        self.0.observe().map(data_obs).map_err(data_error)
    }

    fn stderr_tail(&mut self) -> Option<String> {
        self.0.stderr_tail()
    }

    fn settle_timeout(&mut self, timeout: Duration) {
        self.0.settle_timeout(timeout)
    }

    fn expect_quiet(&mut self, quiet: bool) {
        self.0.expect_quiet(quiet)
    }
}
