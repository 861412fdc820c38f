#![allow(dead_code)]
pub mod brp_sender_sut;
pub mod brp_sut;
use ioco_lang::ir::{Spec, Value};
use std::path::PathBuf;
use std::sync::Arc;

pub fn path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Loads the entry point (or the named spec) of a `.ioco` file, panicking with rendered diagnostics.
pub fn load(rel: &str, name: Option<&str>) -> Arc<Spec> {
    let p = path(rel);
    let model = match ioco_lang::parse_file(&p) {
        Ok(m) => m,
        Err(diags) => {
            let msgs: Vec<String> = diags.iter().map(|d| format!("{:?}", d)).collect();
            panic!("{} does not load:\n{}", p.display(), msgs.join("\n"))
        }
    };
    let spec = match name {
        Some(n) => model.spec(n).unwrap_or_else(|| panic!("no spec {}", n)),
        None => model.entry().expect("entry"),
    };
    Arc::new(spec.clone())
}

pub fn int(i: i64) -> Value {
    Value::Int(i)
}

use ioco_symbolic::online::InProcessSut;

/// How a TAP19 implementation deviates (note §3.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tap19Mode {
    Correct,
    EchoPlusOne,
    StoreNotAdd,
    DoneEarly,
    NeverDone,
}

#[derive(Clone, Debug)]
pub struct Tap19State {
    loc: u8,
    x: i64,
}

/// An input-enabled TAP19 implementation: x += p on inX at l0, echo x, done! at l0 when x > 15.
pub fn tap19_sut(mode: Tap19Mode) -> InProcessSut<Tap19State> {
    InProcessSut::new(
        Tap19State { loc: 0, x: 0 },
        move |s: &mut Tap19State, gate: &str, args: &[Value]| {
            if gate != "inX" || s.loc != 0 {
                return vec![];
            }
            let p = args[0].as_int().unwrap();
            s.x = if mode == Tap19Mode::StoreNotAdd {
                p
            } else {
                s.x + p
            };
            s.loc = 0;
            let out = if mode == Tap19Mode::EchoPlusOne {
                s.x + 1
            } else {
                s.x
            };
            vec![("outX".to_string(), vec![Value::Int(out)])]
        },
        move |s: &mut Tap19State| {
            let threshold = if mode == Tap19Mode::DoneEarly { 5 } else { 15 };
            if s.loc == 0 && s.x > threshold && mode != Tap19Mode::NeverDone {
                s.loc = 2;
                Some(("done".to_string(), vec![]))
            } else {
                None
            }
        },
    )
}

/// A small online test of the spec `t` against the spec `sim` simulated, `steps` steps (an
/// input where the spec offers one, with probability 0.4; the models need not be
/// input-enabled): the first verdict other than Ok, or Ok after all steps.
pub fn online(
    mut t: ioco_symbolic::tracker::SymbolicSpec,
    sim: ioco_symbolic::tracker::SymbolicSpec,
    seed: u64,
    steps: usize,
) -> ioco_symbolic::tracker::Step {
    use ioco_symbolic::online::{Observation, Sent, SpecSut, Sut};
    use ioco_symbolic::tracker::Step;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    let mut sut = SpecSut::new(sim, ChaCha8Rng::seed_from_u64(seed ^ 0x5eed));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    sut.reset().unwrap();
    for _ in 0..steps {
        let input = if rng.random_bool(0.4) {
            t.choose_input(&mut rng)
        } else {
            None
        };
        let r = if let Some((g, w)) = input {
            match sut.send((g.clone(), w.clone())).unwrap() {
                Sent::Accepted => t.after_input(&g, &w),
                Sent::Raced((g, w)) => t.after_output(&g, &w),
            }
        } else {
            match sut.observe(None).unwrap() {
                Observation::Output((g, w)) => t.after_output(&g, &w),
                Observation::Quiescent => t.after_quiescence(),
            }
        };
        if r != Step::Ok {
            return r;
        }
    }
    Step::Ok
}
