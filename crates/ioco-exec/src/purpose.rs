//! Sessions of online testing steered by a test purpose (seed 004 §2 and §5: the product S × TP,
//! coreachability of accept; thesis ch. 6 joker strategies): each run is the one loop of
//! [`crate::engine`] with the purpose as its selection (made by the caller for each run:
//! `ioco_games::steered::Steered` over an LTS, `ioco_stg::steered::SteeredData` with data) and
//! the specification as its judge; each run becomes a
//! [`RunResult`]:
//! * **Pass**: the trace reached an accept state of the purpose;
//! * **Inconclusive**: a refuse state was reached, the purpose can no longer be accepted, or
//!   the step bound was used up before accept;
//! * **Fail**: an output (or quiescence) the specification does not allow; a SUT that exits
//!   where the specification requires an output or still offers inputs (the exit rule of
//!   [`crate::engine::rules`]).

use crate::adapter::Sut;
use crate::engine::explicit::Explicit;
use crate::engine::symbolic::Symbolic;
use crate::engine::{self, Selection};
use crate::{OnlineOptions, RunResult, RunVerdict, Tester};
use ioco_model::{Lts, QuiescencePolicy};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// The runs of a purpose session against one adapter: run `k` uses the seed
/// `derive_seed(seed, k)`; `opts.runs` runs of at most `opts.depth` steps, each waiting
/// `opts.quiescence_timeout` (and `opts.timeouts`) for quiescence and trying `opts.retries`
/// times to reset the SUT; stops after a Fail or Error if `opts.stop_on_failure`, and when
/// `opts.time_budget` is used up.
/// `spec` (under `policy`) judges every observation; the selection `steer()` makes for each
/// run (the solved product of `spec` with the purpose: `ioco_games::steered::Steered`) steers.
pub fn run_purpose<L>(
    spec: &Lts,
    policy: QuiescencePolicy,
    steer: impl Fn() -> L,
    adapter: &mut dyn Sut,
    seed: u64,
    opts: &OnlineOptions,
) -> Vec<RunResult>
where
    L: for<'t, 'o> Selection<Explicit<'t, 'o>>,
{
    let mut tester = Tester::new(spec, policy);
    let deadline = opts.time_budget.map(|b| Instant::now() + b);
    let mut runs = Vec::new();
    for k in 0..opts.runs {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let run_seed = ioco_gen::strategy::derive_seed(seed, k as u64);
        let t0 = Instant::now();
        let mut r = RunResult::new(k, run_seed);
        r.test = Some("purpose".into());
        let mut spec = Explicit {
            tester: &mut tester,
            opts,
        };
        let end = match engine::alg2::start(&mut spec, adapter, run_seed, opts.retries) {
            Err(e) => e,
            Ok(()) => {
                let mut rng = ChaCha8Rng::seed_from_u64(run_seed);
                let mut sel = steer();
                engine::run(&mut spec, &mut sel, adapter, opts.depth, None, &mut rng)
            }
        };
        end.write(&mut r);
        r.trace = tester.take_trace();
        r.steps = tester.steps;
        r.quiescence = crate::result::Established::from_counts(adapter.established());
        r.stderr = adapter.stderr_tail();
        r.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
        let stop =
            matches!(r.verdict, RunVerdict::Fail | RunVerdict::Error) && opts.stop_on_failure;
        runs.push(r);
        if stop {
            break;
        }
    }
    runs
}

/// The runs of a purpose session with data against one system under test: run `k` follows the
/// selection `steer()` makes for it (the symbolic test graph of the specification × the
/// purpose: `ioco_stg::steered::SteeredData`), judged by a fresh
/// `oracle()`; it is recorded with the seed `derive_seed(seed, k)`; `opts.runs` runs of at most
/// `opts.depth` steps, stops after a Fail or Error if `opts.stop_on_failure`, and when
/// `opts.time_budget` is used up (the system under test waits its own time-outs). An error is
/// an oracle that cannot be made or a purpose the steering cannot follow.
pub fn run_purpose_data<L>(
    steer: impl Fn() -> Result<L, String>,
    sut: &mut dyn ioco_symbolic::online::Sut<ioco_symbolic::online::GateValue>,
    oracle: impl Fn() -> Result<ioco_symbolic::SymbolicSpec, String>,
    seed: u64,
    opts: &OnlineOptions,
) -> Result<Vec<RunResult>, String>
where
    L: for<'o> Selection<Symbolic<'o>>,
{
    let deadline = opts.time_budget.map(|b| Instant::now() + b);
    let mut runs = Vec::new();
    for k in 0..opts.runs {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let run_seed = ioco_gen::strategy::derive_seed(seed, k as u64);
        let t0 = Instant::now();
        let mut oracle = oracle()?;
        let mut sel = steer()?;
        let mut s = Symbolic::new(&mut oracle, None);
        let mut data = &mut *sut;
        let end = match engine::alg2::start(&mut s, &mut data, run_seed, 0) {
            Err(e) => e,
            Ok(()) => {
                let mut rng = ChaCha8Rng::seed_from_u64(run_seed);
                engine::run(&mut s, &mut sel, &mut data, opts.depth, None, &mut rng)
            }
        };
        let mut r = s.result(end);
        (r.run, r.seed) = (k, run_seed);
        r.test = Some("purpose".into());
        r.quiescence = crate::result::Established::from_counts(sut.established());
        r.stderr = sut.stderr_tail();
        r.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
        let stop =
            matches!(r.verdict, RunVerdict::Fail | RunVerdict::Error) && opts.stop_on_failure;
        runs.push(r);
        if stop {
            break;
        }
    }
    Ok(runs)
}
