//! A component whose model has multi-labels (`@sync`): an input `a|b` arrives as one action
//! with the values of both gates in gate order, an output `c|d` is answered as one action.
//! Models with data: the symbolic engine (the feature `symbolic`).
#![cfg(feature = "symbolic")]

use ioco::{Action, Component, Model, Value, Verdict};

const MODEL: &str = "@sync(a | b, c | d)
model M {
  input a(x: int), b(y: int)
  output c(u: int), d(w: int)
  var s: int = 0, t: int = 0
  init idle
  idle -- b?(y) | a?(x) [x + y == 1000 && x > y + 5] { s = x, t = y } --> busy
  busy -- c!(u) | d!(w) [u == s && w > t] --> idle
}
";

struct Pair {
    off: i64,
}

impl Component for Pair {
    fn reset(&mut self) -> Vec<Action> {
        vec![]
    }
    fn input(&mut self, input: &Action) -> Vec<Action> {
        assert_eq!(input.gate, "a|b");
        let (x, y) = (input.int(0).unwrap(), input.int(1).unwrap());
        assert!(x + y == 1000 && x > y + 5, "{input:?}");
        vec![Action::new(
            "c|d",
            vec![Value::Int(x), Value::Int(y + self.off)],
        )]
    }
}

#[test]
fn a_component_answers_a_multi_label_with_one() {
    let m = Model::parse(MODEL).unwrap();
    let r = m
        .test()
        .runs(5)
        .steps(20)
        .seed(4)
        .run(Pair { off: 1 })
        .unwrap();
    assert_eq!(r.verdict(), Verdict::Pass, "{r}");
    let r = m
        .test()
        .runs(5)
        .steps(20)
        .seed(4)
        .run(Pair { off: 0 })
        .unwrap();
    assert_eq!(r.verdict(), Verdict::Fail, "{r}");
    assert!(r.text().contains("c!(") && r.text().contains("|d!("), "{r}");
}
