//! Online testing with strings (TorXakis LuckyPeople, examples/torxakis/lucky-people.ioco): the
//! symbolic engine sends people whose names match `[A-Z][a-z]*`, a correct implementation
//! passes, and one that gets the name rule wrong fails on a person whose initials decide it.

use ioco_exec::engine::symbolic::run_online;
use ioco_exec::{OnlineOptions, RunVerdict};
use ioco_lang::ir::Value;
use ioco_symbolic::online::{InProcessSut, SpecSut};
use ioco_symbolic::SymbolicSpec;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Correct,
    /// compares the first letter of the first name with the second of the last name
    WrongLetter,
}

#[derive(Clone)]
struct Lucky {
    last_male: bool,
    n: i64,
}

fn sut(mode: Mode) -> InProcessSut<Lucky> {
    InProcessSut::new(
        Lucky {
            last_male: true,
            n: 0,
        },
        move |st: &mut Lucky, gate: &str, args: &[Value]| {
            assert_eq!(gate, "In");
            let Value::Adt(_, _, f) = &args[0] else {
                panic!("{args:?}")
            };
            let male = matches!(&f[0], Value::Adt(_, 0, _));
            let (first, last) = (f[1].as_str().unwrap(), f[2].as_str().unwrap());
            let (day, month) = (f[3].as_int().unwrap(), f[4].as_int().unwrap());
            let k = if mode == Mode::WrongLetter { 1 } else { 0 };
            let by_name = first.chars().next() == last.chars().nth(k);
            let lucky = (male != st.last_male && st.n >= 5) || by_name || day == month;
            st.n = if male == st.last_male { st.n + 1 } else { 1 };
            st.last_male = male;
            vec![("Out".to_string(), vec![Value::Bool(lucky)])]
        },
        |_| None,
    )
}

fn spec() -> Arc<ioco_lang::ir::Spec> {
    let p =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/torxakis/lucky-people.ioco");
    Arc::new(
        ioco_lang::parse_file(p)
            .unwrap()
            .spec("LuckyPeople")
            .unwrap()
            .clone(),
    )
}

#[test]
fn lucky_people_online() {
    let opts = OnlineOptions {
        depth: 40,
        observe: 0.3,
        ..OnlineOptions::default()
    };
    let name = ioco_lang::regex::Regex::parse(
        r#"In\?\(Person\((Male|Female),"[A-Z][a-z]*","[A-Z][a-z]*",.*"#,
    )
    .unwrap();
    for seed in 0..3 {
        let mut t = SymbolicSpec::with_z3(spec()).unwrap();
        let r = run_online(
            &mut t,
            &mut sut(Mode::Correct),
            &opts,
            &mut ChaCha8Rng::seed_from_u64(seed),
        );
        assert_eq!(r.verdict, RunVerdict::Pass, "{:?}", r.trace);
        let ins: Vec<&str> = r.trace.iter().filter(|l| l.starts_with("In?")).collect();
        assert!(ins.len() >= 5, "{:?}", r.trace);
        for l in ins {
            assert!(name.is_match(l), "{l}");
        }
    }
    // the wrong letter is found within a few runs
    let mut failed = false;
    for seed in 0..20 {
        let mut t = SymbolicSpec::with_z3(spec()).unwrap();
        let r = run_online(
            &mut t,
            &mut sut(Mode::WrongLetter),
            &opts,
            &mut ChaCha8Rng::seed_from_u64(seed),
        );
        if r.verdict == RunVerdict::Fail {
            assert!(r.observed().unwrap().starts_with("Out!("), "{r:?}");
            failed = true;
            break;
        }
    }
    assert!(failed, "the wrong name rule was never caught");
}

/// TorXakis DisPro10 (examples/torxakis/dispatch-data.ioco) against itself simulated: the job
/// descriptions sent match `[A-Z]{2}[0-9][a-z]*`, and every job is valid.
#[test]
fn dispatch_process_with_job_descriptions() {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/torxakis/dispatch-data.ioco");
    let spec = Arc::new(ioco_lang::parse_file(p).unwrap().entry().unwrap().clone());
    assert_eq!(spec.name, "DisPro10Open");
    let opts = OnlineOptions {
        depth: 16,
        ..OnlineOptions::default()
    };
    let job = ioco_lang::regex::Regex::parse(
        r#"Job\?\(JobData\([0-9]*[02468],"[A-Z]{2}[0-9][a-z]*",[1-9][0-9]*,[1-9][0-9]*\)\)"#,
    )
    .unwrap();
    let mut jobs = 0;
    for seed in 0..3 {
        let mut t = SymbolicSpec::with_z3(spec.clone()).unwrap();
        let sim = SymbolicSpec::with_z3(spec.clone()).unwrap();
        let mut sut = SpecSut::new(sim, ChaCha8Rng::seed_from_u64(100 + seed));
        let r = run_online(
            &mut t,
            &mut sut,
            &opts,
            &mut ChaCha8Rng::seed_from_u64(seed),
        );
        assert_eq!(r.verdict, RunVerdict::Pass, "{:?}", r.trace);
        for l in r.trace.iter().filter(|l| l.starts_with("Job?")) {
            assert!(job.is_match(l), "{l}");
            jobs += 1;
        }
    }
    assert!(jobs >= 3, "only {jobs} jobs");
}
