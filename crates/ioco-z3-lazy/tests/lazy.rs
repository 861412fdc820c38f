//! The trampolines carry every kind of argument through to libz3: a process starts without
//! the library, the first Z3 call loads it, and calls with pointers, integers, arrays, strings
//! and many arguments give Z3's answers.

use std::str::FromStr;
use z3::ast::Int;
use z3::{SatResult, Solver};

#[test]
fn the_first_call_loads_the_library_and_every_call_gets_through() {
    if ioco_z3_lazy::is_lazy() {
        assert!(
            !ioco_z3_lazy::is_loaded(),
            "libz3 is loaded before any Z3 call"
        );
    }
    // A Z3 call before `load`: the stub loads the library itself.
    let version = z3::full_version();
    assert!(
        version
            .trim_start_matches("Z3 ")
            .starts_with(|c: char| c.is_ascii_digit()),
        "{version}"
    );
    assert!(ioco_z3_lazy::is_loaded());
    assert_eq!(ioco_z3_lazy::load(), Ok(()));

    // Integers, pointers, arrays of terms (Z3_mk_add takes a count and an array).
    let s = Solver::new();
    let x = Int::new_const("x");
    let y = Int::new_const("y");
    let z = Int::new_const("z");
    s.assert(Int::add(&[&x, &y, &z]).eq(Int::from_i64(30)));
    s.assert(x.gt(Int::from_i64(10)));
    s.assert(y.eq(&x * 2));
    assert_eq!(s.check(), SatResult::Sat);
    let m = s.get_model().expect("a model");
    let (xv, yv, zv) = (
        m.eval(&x, true).and_then(|v| v.as_i64()).unwrap(),
        m.eval(&y, true).and_then(|v| v.as_i64()).unwrap(),
        m.eval(&z, true).and_then(|v| v.as_i64()).unwrap(),
    );
    assert_eq!(xv + yv + zv, 30);
    assert!(xv > 10 && yv == 2 * xv);

    // Strings cross as C strings and come back.
    let t = z3::ast::String::new_const("t");
    let s2 = Solver::new();
    s2.assert(t.eq(z3::ast::String::from_str("ab c").unwrap()));
    assert_eq!(s2.check(), SatResult::Sat);
    let got = s2.get_model().unwrap().eval(&t, true).unwrap();
    assert_eq!(got.as_string().as_deref(), Some("ab c"));

    // Unsat too.
    let s3 = Solver::new();
    s3.assert(x.gt(Int::from_i64(3)));
    s3.assert(x.lt(Int::from_i64(2)));
    assert_eq!(s3.check(), SatResult::Unsat);
}
