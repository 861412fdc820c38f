//! Equivalence of Mealy machines by breadth-first search over the product (Moore 1956): the
//! oracle of the mutation tests. `imp` conforms to `spec` when, for every input word defined
//! in `spec`, `imp` is defined and produces the same outputs (equivalence for complete specs,
//! quasi-equivalence for partial ones). Inputs are matched by index.

use ioco_model::Mealy;
use std::collections::VecDeque;

/// A shortest input word, defined in `spec`, on which `imp` gives other outputs (or is
/// undefined); `None` when `imp` conforms.
pub fn distinguishing_word(spec: &Mealy, imp: &Mealy) -> Option<Vec<u32>> {
    let (ns, ni) = (spec.num_states(), imp.num_states());
    let k = spec.num_inputs().min(imp.num_inputs()) as u32;
    let id = |s: u32, i: u32| s as usize * ni + i as usize;
    let mut parent: Vec<(u32, u32)> = vec![(u32::MAX, u32::MAX); ns * ni];
    let mut seen = vec![false; ns * ni];
    let start = id(spec.initial, imp.initial);
    seen[start] = true;
    let mut queue = VecDeque::from([(spec.initial, imp.initial)]);
    let path = |parent: &Vec<(u32, u32)>, mut v: usize, last: u32| {
        let mut w = vec![last];
        while v != start {
            let (p, a) = parent[v];
            w.push(a);
            v = p as usize;
        }
        w.reverse();
        w
    };
    while let Some((s, i)) = queue.pop_front() {
        for a in 0..spec.num_inputs() as u32 {
            let Some((s2, o1)) = spec.step(s, a) else {
                continue;
            };
            let imp_step = if a < k { imp.step(i, a) } else { None };
            match imp_step {
                Some((i2, o2)) if o1 == o2 => {
                    let v = id(s2, i2);
                    if !seen[v] {
                        seen[v] = true;
                        parent[v] = (id(s, i) as u32, a);
                        queue.push_back((s2, i2));
                    }
                }
                _ => return Some(path(&parent, id(s, i), a)),
            }
        }
    }
    None
}

/// The index of the first test word on which `imp` differs from `spec`.
pub fn first_killing_test(words: &[Vec<u32>], spec: &Mealy, imp: &Mealy) -> Option<usize> {
    words
        .iter()
        .position(|w| spec.outputs_of(w) != imp.outputs_of(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_shortest_difference() {
        let mut a = Mealy::new(2, vec!["a".into()], vec!["0".into(), "1".into()], 0);
        a.set(0, 0, 1, 0);
        a.set(1, 0, 0, 1);
        let mut b = a.clone();
        assert_eq!(distinguishing_word(&a, &b), None);
        b.set(1, 0, 1, 1);
        assert_eq!(distinguishing_word(&a, &b), Some(vec![0, 0, 0]));
        assert_eq!(
            first_killing_test(&[vec![0, 0], vec![0, 0, 0]], &a, &b),
            Some(1)
        );
    }
}
