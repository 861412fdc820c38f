//! Online execution of seed 004's running example (§5): the tester controls the inputs inside
//! the strengthened guards and reaches accept against the specification simulated by the
//! solver; a faulty comparator fails; the steering never gives Fail on its own.

use ioco_exec::engine;
use ioco_exec::engine::symbolic::Symbolic;
use ioco_exec::{RunResult, RunVerdict};
use ioco_lang::ir::Value;
use ioco_stg::online::Steering;
use ioco_stg::steered::SteeredData;
use ioco_stg::{analyse, Octagon, TestGraph};
use ioco_symbolic::online::{GateValue, Observation, Sent, SpecSut, Sut, SutError};
use ioco_symbolic::SymbolicSpec;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::time::Duration;

fn load(name: &str) -> ioco_lang::Model {
    let path = format!(
        "{}/../../examples/purposes/stg/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    ioco_lang::parse_file(&path).unwrap_or_else(|d| panic!("{}", ioco_lang::render_plain(&d)))
}

fn oracle(m: &ioco_lang::Model) -> SymbolicSpec {
    SymbolicSpec::with_z3(Arc::new(m.entry().unwrap().clone())).unwrap()
}

/// One run of the engine steered by the purpose (at most 50 steps), with the inputs it gave.
fn run(
    g: &TestGraph<Octagon>,
    spec: &ioco_lang::Model,
    purpose: &ioco_lang::Model,
    sut: &mut dyn Sut<GateValue>,
    oracle: &mut SymbolicSpec,
) -> (RunResult, Vec<GateValue>) {
    let mut sel = SteeredData::new(Steering::new(g, spec, purpose).unwrap());
    let mut s = Symbolic::new(oracle, None);
    let mut data = sut;
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let end = match engine::alg2::start(&mut s, &mut data, 0, 0) {
        Err(e) => e,
        Ok(()) => engine::run(&mut s, &mut sel, &mut data, 50, None, &mut rng),
    };
    (s.result(end), std::mem::take(&mut s.inputs))
}

#[test]
fn the_simulated_specification_is_steered_to_accept() {
    let (spec, purpose) = (load("spec.ioco"), load("purpose.ioco"));
    let g = analyse::<Octagon>(&spec, &purpose).unwrap();
    let mut passes = 0;
    for seed in 0..8 {
        let sim = oracle(&spec);
        let mut sut = SpecSut::new(sim, ChaCha8Rng::seed_from_u64(seed));
        let mut o = oracle(&spec);
        let (r, inputs) = run(&g, &spec, &purpose, &mut sut, &mut o);
        assert!(
            !matches!(r.verdict, RunVerdict::Fail | RunVerdict::Error),
            "seed {seed}: {:?} {:?}",
            r.verdict,
            r.trace
        );
        if r.verdict == RunVerdict::Pass {
            passes += 1;
            // Start, a(p1) with p1 ≥ 6, a(p1 + 2), then OK(2).
            let vals: Vec<i64> = inputs
                .iter()
                .filter(|(g, _)| g == "a")
                .map(|(_, v)| v[0].as_int().unwrap())
                .collect();
            assert_eq!(vals.len(), 2, "{:?}", r.trace);
            assert!(vals[0] >= 6 && vals[1] == vals[0] + 2, "{:?}", r.trace);
            assert_eq!(r.trace.last().unwrap(), "OK!(2)");
        }
    }
    assert!(passes >= 1, "no run reached accept");
}

/// The comparator as a program, with a bug: OK carries p2 − p1 + `off`.
struct Comparator {
    off: i64,
    st: u8,
    x: i64,
    out: Option<(String, Vec<Value>)>,
}

impl Sut<GateValue> for Comparator {
    fn reset(&mut self) -> Result<(), SutError> {
        self.st = 0;
        self.out = None;
        Ok(())
    }
    fn send(&mut self, input: GateValue) -> Result<Sent<GateValue>, SutError> {
        let (gate, args) = (input.0.as_str(), &input.1[..]);
        match (self.st, gate) {
            (0, "Start") => self.st = 1,
            (1, "a") => {
                self.x = args[0].as_int().unwrap();
                self.st = 2
            }
            (2, "a") => {
                let d = args[0].as_int().unwrap() - self.x;
                self.st = 3;
                self.out = Some(if d.abs() <= 2 {
                    ("OK".into(), vec![Value::Int(d + self.off)])
                } else {
                    ("NOK".into(), vec![Value::Int(d)])
                });
            }
            _ => {}
        }
        Ok(Sent::Accepted)
    }
    fn observe(&mut self, _: Option<Duration>) -> Result<Observation<GateValue>, SutError> {
        Ok(match self.out.take() {
            Some((g, v)) => Observation::Output((g, v)),
            None => Observation::Quiescent,
        })
    }
}

#[test]
fn a_correct_program_passes_and_a_faulty_one_fails() {
    let (spec, purpose) = (load("spec.ioco"), load("purpose.ioco"));
    let g = analyse::<Octagon>(&spec, &purpose).unwrap();
    let mut ok = Comparator {
        off: 0,
        st: 0,
        x: 0,
        out: None,
    };
    let (r, _) = run(&g, &spec, &purpose, &mut ok, &mut oracle(&spec));
    assert_eq!(r.verdict, RunVerdict::Pass, "{:?}", r.trace);
    let mut bad = Comparator {
        off: 1,
        st: 0,
        x: 0,
        out: None,
    };
    let (r, _) = run(&g, &spec, &purpose, &mut bad, &mut oracle(&spec));
    assert!(
        r.verdict == RunVerdict::Fail,
        "{:?} {:?}",
        r.verdict,
        r.trace
    );
    assert_eq!(r.observed(), Some("OK!(3)"));
}
