//! Eight threads make their first Z3 calls at once: the library is loaded once and every call
//! is served (the stubs wait for the one load).

// The trampolines live in this crate; a binary that calls Z3 links it (as ioco-symbolic does).
use ioco_z3_lazy as _;
use z3::ast::Int;
use z3::{SatResult, Solver};

#[test]
fn calls_from_many_threads_at_once_are_served() {
    let handles: Vec<_> = (0..8)
        .map(|i| {
            std::thread::spawn(move || {
                let s = Solver::new();
                let x = Int::new_const("x");
                s.assert(x.eq(Int::from_i64(i)));
                assert_eq!(s.check(), SatResult::Sat);
                s.get_model().unwrap().eval(&x, true).unwrap().as_i64()
            })
        })
        .collect();
    for (i, h) in handles.into_iter().enumerate() {
        assert_eq!(h.join().unwrap(), Some(i as i64));
    }
}
