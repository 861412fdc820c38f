//! Widening makes the backward analysis terminate on loops and keeps the bounds that are stable.

use ioco_stg::{analyse, Domain, Interval, LinCons, LinExpr, Octagon, Polyhedra, TestGraph};

fn graph<D: Domain>(spec: &str, purpose: &str) -> TestGraph<D> {
    let s = ioco_lang::parse_str("s.ioco", spec)
        .unwrap_or_else(|d| panic!("{}", ioco_lang::render_plain(&d)));
    let p = ioco_lang::parse_str("p.ioco", purpose)
        .unwrap_or_else(|d| panic!("{}", ioco_lang::render_plain(&d)));
    analyse::<D>(&s, &p).unwrap()
}

const COUNTER: &str = "model Counter {
  input inc, dec
  output done
  var x: int = 0
  init l
  l -- inc? [x < 100] { x = x + 1 } --> l
  l -- dec? { x = x - 1 } --> l
  l -- done! [x == 100] --> l
}";

const DONE: &str = "model P { input inc, dec  output done  init w  w -- done! --> accept }";

fn x_le(b: i64) -> LinCons {
    LinCons {
        expr: LinExpr {
            terms: vec![(0, 1)],
            constant: -b,
        },
    }
}

fn check<D: Domain>() {
    let g = graph::<D>(COUNTER, DONE);
    let l = g.product.initial;
    let c = &g.coreach.values[l];
    // Terminates (we are here), with a widening, in few rounds.
    assert!(g.coreach.widenings >= 1, "{}", D::NAME);
    assert!(g.coreach.rounds < 20, "{} rounds", g.coreach.rounds);
    // Sound: any x ≤ 100 can count up to 100 (and any x can count down first).
    for x in [-1000, 0, 99, 100] {
        assert!(c.contains(&[x, 0, 0]), "{}: x = {x}", D::NAME);
    }
    // Narrowing recovers x ≤ 100 (above 100, inc is disabled ... but dec is not: so the exact
    // set is everything; the guard of inc must still say x < 100).
    let inc = g.product.transitions_on(l, "inc")[0];
    assert!(g.kept[inc].iter().all(|k| k.entails(&x_le(99))));
    let _ = c;
}

#[test]
fn widening_terminates_on_a_counter_loop() {
    check::<Interval>();
    check::<Octagon>();
    check::<Polyhedra>();
}

#[test]
fn polyhedra_widening_keeps_a_relation_two_counters_share() {
    // x and y count up together: y = x is invariant, and done! needs x == 100 ∧ y == 100.
    let spec = "model C { input inc output done var x: int = 0, y: int = 0 init l
      l -- inc? [x < 100] { x = x + 1, y = y + 1 } --> l
      l -- done! [x == 100 && y == 100] --> l }";
    let purpose = "model P { input inc output done init w w -- done! --> accept }";
    let g = graph::<Polyhedra>(spec, purpose);
    assert!(g.coreach.widenings >= 1);
    let c = &g.coreach.values[g.product.initial];
    // Backward from x = y = 100: coreach is y − x = 0 ∧ x ≤ 100; the polyhedral widening
    // keeps the equation through the loop.
    let eq = |a: i64| LinCons {
        expr: LinExpr {
            terms: vec![(0, a), (1, -a)],
            constant: 0,
        },
    };
    assert!(c.entails(&eq(1)) && c.entails(&eq(-1)), "{}", g.render());
    assert!(c.entails(&x_le(100)));
    assert!(c.contains(&[-5, -5, 0, 0, 0]) && !c.contains(&[1, 2, 0, 0, 0]));
}

#[test]
fn widening_keeps_the_stable_upper_bound() {
    // Only inc: coreach = x ≤ 100 exactly.
    let spec = "model C { input inc output done var x: int = 0 init l
      l -- inc? [x < 100] { x = x + 1 } --> l
      l -- done! [x == 100] --> l }";
    let purpose = "model P { input inc output done init w w -- done! --> accept }";
    for oct in [false, true] {
        let (c, widenings) = if oct {
            let g = graph::<Octagon>(spec, purpose);
            (
                g.coreach.values[g.product.initial].entails(&x_le(100)),
                g.coreach.widenings,
            )
        } else {
            let g = graph::<Interval>(spec, purpose);
            (
                g.coreach.values[g.product.initial].entails(&x_le(100)),
                g.coreach.widenings,
            )
        };
        assert!(c, "octagon: {oct}");
        assert!(widenings >= 1);
    }
}

#[test]
fn an_unreachable_purpose_is_an_error_that_says_why() {
    // done! needs x == 100 but x only decreases from 0.
    let spec = "model C { input dec output done var x: int = 0 init l
      l -- dec? { x = x - 1 } --> l
      l -- done! [x == 100] --> l }";
    let purpose = "model P { input dec output done init w w -- done! --> accept }";
    let s = ioco_lang::parse_str("s.ioco", spec).unwrap();
    let p = ioco_lang::parse_str("p.ioco", purpose).unwrap();
    let e = analyse::<Octagon>(&s, &p).unwrap_err().to_string();
    assert!(e.contains("cannot be met"), "{e}");
    assert!(e.contains("(l,w)"), "{e}");
}
