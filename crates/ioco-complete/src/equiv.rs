//! State equivalence `≈` on the demonic completion X(S) (thesis Def. 2.13 / Prop. 2.14,
//! journal 003 Def. 13; demonic completion thesis Def. 2.10).
//!
//! On X(S) every state enables every input (a missing input goes to the chaos state χ,
//! which allows every label and loops), and related states have equal output sets, so `≈` is
//! ordinary bisimulation on X(S). It is computed by Moore-style partition refinement starting
//! from the partition by output sets. States equivalent to χ "allow everything after here"
//! and are never tested from or merged (thesis L3075–3081).
//!
//! **χ allows outputs outside the alphabet.** The thesis fixes `L_O`; a real implementation
//! (and `ioco compare`, which decides ioco on the union of both alphabets) may show an output
//! the specification never names. χ allows it, no specification state does, so no state of a
//! specification is equivalent to χ — not even one that allows only δ in a specification
//! without outputs, or every output of its alphabet: such a state is observed like any other
//! (δ is an observation), and an implementation that adds an output there fails (#35 item 1).
//! Only states already flagged chaotic (the χ class of a quotient) stay equivalent to χ.

use crate::sa::Sa;
use rustc_hash::FxHashMap;

/// The partition of `X(S)` into `≈`-classes; the chaos state χ is state `n`.
#[derive(Clone, Debug)]
pub struct Equiv {
    class: Vec<u32>,
}

impl Equiv {
    /// Compute `≈` by partition refinement.
    pub fn compute(sa: &Sa) -> Equiv {
        let n = sa.n();
        let k = sa.k();
        let chi = n as u32;
        // succ in X(S): input missing → χ; output missing → none.
        let succ = |q: u32, l: u16| -> u32 {
            if q == chi {
                return chi;
            }
            match sa.step(q, l) {
                Some(t) => t,
                None if !sa.is_out(l) => chi,
                None => u32::MAX,
            }
        };
        let mut class = vec![0u32; n + 1];
        let mut ids: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
        for q in 0..=n as u32 {
            let is_chi = q == chi || sa.chaos[q as usize];
            // the first entry: the outputs outside the alphabet, which only χ allows
            let sig: Vec<u32> = std::iter::once(is_chi as u32)
                .chain(
                    (0..k as u16)
                        .filter(|&l| sa.is_out(l))
                        .map(|l| (is_chi || sa.step(q, l).is_some()) as u32),
                )
                .collect();
            let next = ids.len() as u32;
            class[q as usize] = *ids.entry(sig).or_insert(next);
        }
        let mut num = ids.len();
        loop {
            let mut ids: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
            let mut next_class = vec![0u32; n + 1];
            for q in 0..=n as u32 {
                let mut sig = Vec::with_capacity(k + 1);
                sig.push(class[q as usize]);
                for l in 0..k as u16 {
                    let t = succ(q, l);
                    sig.push(if t == u32::MAX {
                        u32::MAX
                    } else {
                        class[t as usize]
                    });
                }
                let next = ids.len() as u32;
                next_class[q as usize] = *ids.entry(sig).or_insert(next);
            }
            let new_num = ids.len();
            class = next_class;
            if new_num == num {
                return Equiv { class };
            }
            num = new_num;
        }
    }

    /// `p ≈ q`.
    pub fn equivalent(&self, p: u32, q: u32) -> bool {
        self.class[p as usize] == self.class[q as usize]
    }

    /// `q ≈ χ`.
    pub fn chaotic(&self, q: u32) -> bool {
        self.class[q as usize] == self.class[self.class.len() - 1]
    }

    /// The class of each state (χ excluded).
    pub fn classes(&self) -> &[u32] {
        &self.class[..self.class.len() - 1]
    }

    /// Number of unordered pairs of distinct equivalent states (χ excluded).
    pub fn equivalent_pairs(&self) -> usize {
        let mut size: FxHashMap<u32, usize> = FxHashMap::default();
        for &c in self.classes() {
            *size.entry(c).or_default() += 1;
        }
        size.values().map(|&s| s * (s - 1) / 2).sum()
    }
}

/// The quotient of the reachable part of `sa` by `≈` (states numbered breadth first, named by
/// their first member). A class equivalent to χ becomes one chaos state with self-loops on every
/// label (flagged, never tested from); inputs into it are dropped (unspecified is equivalent),
/// outputs into it are kept. The quotient is specification-equivalent to `sa` (thesis Prop. 2.14).
pub fn quotient(sa: &Sa, eq: &Equiv) -> Sa {
    let n = sa.n();
    let mut id_of_class: FxHashMap<u32, u32> = FxHashMap::default();
    let mut reps: Vec<u32> = Vec::new();
    let mut queue = std::collections::VecDeque::from([sa.initial]);
    let mut seen = vec![false; n];
    seen[sa.initial as usize] = true;
    let chaos_class = eq.class[n];
    while let Some(q) = queue.pop_front() {
        let c = eq.class[q as usize];
        if let std::collections::hash_map::Entry::Vacant(e) = id_of_class.entry(c) {
            e.insert(reps.len() as u32);
            reps.push(q);
        }
        if c == chaos_class {
            continue;
        }
        for &(_, t) in sa.enabled(q) {
            if !seen[t as usize] {
                seen[t as usize] = true;
                queue.push_back(t);
            }
        }
    }
    let mut trans = Vec::new();
    let mut chaos = vec![false; reps.len()];
    for (i, &r) in reps.iter().enumerate() {
        if eq.class[r as usize] == chaos_class {
            chaos[i] = true;
            for l in 0..sa.k() as u16 {
                trans.push((i as u32, l, i as u32));
            }
            continue;
        }
        for &(l, t) in sa.enabled(r) {
            let c = eq.class[t as usize];
            if c == chaos_class && !sa.is_out(l) {
                continue;
            }
            trans.push((i as u32, l, id_of_class[&c]));
        }
    }
    let names = reps
        .iter()
        .map(|&r| sa.state_names[r as usize].clone())
        .collect();
    Sa::from_parts(sa, reps.len(), 0, &trans, names, chaos)
}
