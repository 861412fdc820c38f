//! Equivalence of two Mealy machines whose inputs and outputs are matched by *name* (a learned
//! machine numbers its outputs in the order it met them): both are renumbered over the union of
//! their outputs and compared by `ioco-fsm`'s product search
//! ([`ioco_fsm::equivalence::distinguishing_word`], Moore 1956). Only words defined in the
//! specification count (quasi-equivalence for a partial specification).

use ioco_fsm::equivalence::distinguishing_word;
use ioco_model::Mealy;
use std::collections::HashMap;

/// `m` over `inputs` (by name; an input `m` lacks is undefined everywhere) and `outputs`.
fn renumber(m: &Mealy, inputs: &[String], outputs: &HashMap<&str, u32>, names: &[String]) -> Mealy {
    let mut r = Mealy::new(m.num_states(), inputs.to_vec(), names.to_vec(), m.initial);
    r.state_names = m.state_names.clone();
    for (k, name) in inputs.iter().enumerate() {
        let Some(i) = m.input_index(name) else {
            continue;
        };
        for s in 0..m.num_states() as u32 {
            if let Some((t, o)) = m.step(s, i) {
                r.set(s, k as u32, t, outputs[m.outputs[o as usize].as_str()]);
            }
        }
    }
    r
}

/// A shortest input word (names), defined in `spec`, on which `imp` gives other outputs or is
/// undefined; `None` when `imp` is equivalent to `spec` on `spec`'s words.
pub fn difference(spec: &Mealy, imp: &Mealy) -> Option<Vec<String>> {
    let mut names: Vec<String> = Vec::new();
    let mut index: HashMap<&str, u32> = HashMap::new();
    for o in spec.outputs.iter().chain(&imp.outputs) {
        if !index.contains_key(o.as_str()) {
            index.insert(o, names.len() as u32);
            names.push(o.clone());
        }
    }
    let a = renumber(spec, &spec.inputs, &index, &names);
    let b = renumber(imp, &spec.inputs, &index, &names);
    distinguishing_word(&a, &b)
        .map(|w| w.iter().map(|&i| spec.inputs[i as usize].clone()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_are_matched_by_name() {
        let mut a = Mealy::new(1, vec!["i".into()], vec!["x".into(), "y".into()], 0);
        a.set(0, 0, 0, 1);
        let mut b = Mealy::new(1, vec!["i".into()], vec!["y".into()], 0);
        b.set(0, 0, 0, 0);
        assert_eq!(difference(&a, &b), None);
        let mut c = Mealy::new(1, vec!["i".into()], vec!["x".into()], 0);
        c.set(0, 0, 0, 0);
        assert_eq!(difference(&a, &c), Some(vec!["i".to_string()]));
    }
}
