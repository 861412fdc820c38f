//! Shortest separating sequences for all pairs of states, by breadth-first search backwards
//! over the pair graph (the classic construction behind Gill's and Moore's distinguishing
//! experiments; see Dorofeeva et al. 2010, "FSM-based conformance testing methods: a survey
//! annotated with experimental evaluation", Sec. 2).
//!
//! Works on *partial* machines: a word separates `s` and `t` when it is defined from both and
//! the last outputs differ (so a test never needs an undefined input). Pairs that no defined
//! word separates are *compatible* (for complete machines: equivalent).
//!
//! Memory is `O(n²)` (one entry per unordered pair); time `O(n²·|I|)`.

use ioco_model::Mealy;

const NONE: u32 = u32::MAX;

/// Shortest separating sequences of all pairs of states.
#[derive(Clone, Debug)]
pub struct PairTable {
    n: usize,
    /// First input of the separating sequence of the pair, or NONE.
    first: Vec<u32>,
    /// The pair reached after the first input (NONE: the first input already separates).
    next: Vec<u32>,
}

#[inline]
fn idx(p: u32, q: u32) -> usize {
    let (p, q) = if p < q { (p, q) } else { (q, p) };
    q as usize * (q as usize - 1) / 2 + p as usize
}

impl PairTable {
    /// Compute the table.
    pub fn build(m: &Mealy) -> PairTable {
        let n = m.num_states();
        let k = m.num_inputs();
        let pairs = n * n.saturating_sub(1) / 2;
        let mut first = vec![NONE; pairs];
        let mut next = vec![NONE; pairs];
        // Pre-images per input, CSR.
        let mut pre_start = vec![vec![0u32; n + 1]; k];
        let mut pre = vec![Vec::new(); k];
        for a in 0..k {
            let mut count = vec![0u32; n + 1];
            for s in 0..n as u32 {
                if let Some((t, _)) = m.step(s, a as u32) {
                    count[t as usize + 1] += 1;
                }
            }
            for i in 0..n {
                count[i + 1] += count[i];
            }
            let mut fill = count.clone();
            let mut list = vec![0u32; count[n] as usize];
            for s in 0..n as u32 {
                if let Some((t, _)) = m.step(s, a as u32) {
                    list[fill[t as usize] as usize] = s;
                    fill[t as usize] += 1;
                }
            }
            pre_start[a] = count;
            pre[a] = list;
        }
        let mut queue: Vec<(u32, u32)> = Vec::new();
        for q in 0..n as u32 {
            for p in 0..q {
                for a in 0..k as u32 {
                    if let (Some((_, o1)), Some((_, o2))) = (m.step(p, a), m.step(q, a)) {
                        if o1 != o2 {
                            first[idx(p, q)] = a;
                            queue.push((p, q));
                            break;
                        }
                    }
                }
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let (p, q) = queue[head];
            head += 1;
            let pq = idx(p, q) as u32;
            for a in 0..k {
                let ps = &pre[a]
                    [pre_start[a][p as usize] as usize..pre_start[a][p as usize + 1] as usize];
                let qs = &pre[a]
                    [pre_start[a][q as usize] as usize..pre_start[a][q as usize + 1] as usize];
                for &p2 in ps {
                    for &q2 in qs {
                        if p2 == q2 {
                            continue;
                        }
                        let i = idx(p2, q2);
                        if first[i] == NONE {
                            first[i] = a as u32;
                            next[i] = pq;
                            queue.push((p2.min(q2), p2.max(q2)));
                        }
                    }
                }
            }
        }
        PairTable { n, first, next }
    }

    /// The number of states.
    pub fn num_states(&self) -> usize {
        self.n
    }

    /// A shortest word separating `s` and `t` (`None` when they are compatible or equal).
    pub fn separator(&self, s: u32, t: u32) -> Option<Vec<u32>> {
        if s == t {
            return None;
        }
        let mut i = idx(s, t);
        if self.first[i] == NONE {
            return None;
        }
        let mut w = Vec::new();
        loop {
            w.push(self.first[i]);
            if self.next[i] == NONE {
                return Some(w);
            }
            i = self.next[i] as usize;
        }
    }

    /// Pairs of distinct states that no defined word separates.
    pub fn inseparable(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for q in 0..self.n as u32 {
            for p in 0..q {
                if self.first[idx(p, q)] == NONE {
                    out.push((p, q));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortest_separators_on_a_counter() {
        // A 4-state counter where only state 3 outputs 1 on `a`.
        let mut m = Mealy::new(4, vec!["a".into()], vec!["0".into(), "1".into()], 0);
        for s in 0..4u32 {
            m.set(s, 0, (s + 1) % 4, u32::from(s == 3));
        }
        let t = PairTable::build(&m);
        assert_eq!(t.separator(0, 3), Some(vec![0]));
        assert_eq!(t.separator(2, 1), Some(vec![0, 0]));
        assert_eq!(t.separator(0, 1), Some(vec![0, 0, 0]));
        assert!(t.inseparable().is_empty());
    }

    #[test]
    fn partial_machines_only_use_defined_words() {
        // State 1 has no `b`; 0 and 1 differ only after `b`: compatible.
        let mut m = Mealy::new(
            2,
            vec!["a".into(), "b".into()],
            vec!["x".into(), "y".into()],
            0,
        );
        m.set(0, 0, 0, 0);
        m.set(1, 0, 1, 0);
        m.set(0, 1, 0, 1);
        let t = PairTable::build(&m);
        assert_eq!(t.inseparable(), vec![(0, 1)]);
    }
}
