//! On-the-fly semantics of a composition too large to build comfortably: six interleaved
//! counters (10^6 reachable states) walked step by step through [`Semantics::successors`].

use ioco_lang::semantics::{Composed, Semantics};
use ioco_lang::{parse_str, Model};
use ioco_model::Label;

fn counters(n: usize) -> Model {
    let mut src = String::from(
        "model Counter {\n  input inc\n  output wrap\n  var c: int[0..9] = 0\n  init s\n  s -- inc? [c < 9] { c = c + 1 } --> s\n  s -- wrap! [c == 9] { c = 0 } --> s\n}\n\nsystem Many {\n",
    );
    for i in 0..n {
        if i > 0 {
            src.push_str("  ||| ");
        } else {
            src.push_str("      ");
        }
        src.push_str(&format!("Counter[inc -> inc{i}, wrap -> wrap{i}]\n"));
    }
    src.push_str("}\n");
    parse_str("many.ioco", &src).unwrap()
}

#[test]
fn a_million_states_walked_online() {
    let m = counters(6);
    let spec = m.spec("Many").unwrap();
    let sem = Composed::new(spec, 1000);
    let alpha = sem.alphabet();
    assert_eq!(alpha.inputs().count(), 6);
    assert_eq!(alpha.outputs().count(), 6);
    let mut s = sem.initial().remove(0);
    let mut seed: u64 = 0x2545F4914F6CDD1D;
    let mut wraps = 0;
    for _ in 0..5_000 {
        let succ = sem.successors(&s).unwrap();
        // every counter offers exactly one move: inc while below 9, wrap at 9
        assert_eq!(succ.len(), 6);
        assert!(succ.iter().all(|(l, _)| *l != Label::TAU));
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let (l, t) = succ[(seed % succ.len() as u64) as usize].clone();
        if alpha.is_output(l) {
            wraps += 1;
        }
        s = t;
    }
    assert!(wraps > 0);
    assert!(sem.describe(&s).starts_with("(s{c="));
}

#[test]
fn explicit_translation_of_a_smaller_composition() {
    let m = counters(3);
    let lts = ioco_lang::translate::to_lts(m.spec("Many").unwrap(), &Default::default()).unwrap();
    // 10^3 states, each with one move per counter
    assert_eq!((lts.num_states(), lts.num_transitions()), (1000, 3000));
    assert!(lts.is_deterministic());
}
