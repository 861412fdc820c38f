//! The HSI-method (A. Petrenko, N. Yevtushenko, A. Lebedev, A. Das, "Nondeterministic state
//! machines in protocol conformance testing", IWPTS 1993; G. Luo, A. Petrenko, G. von Bochmann,
//! "Selecting test sequences for partially-specified nondeterministic finite state machines",
//! IWPTS 1994): the suite `Q·I^{≤k+1} ⊕ H`, each prefix `u` followed by the harmonised state
//! identifier `H_{δ(u)}`. A family `{H_s}` is harmonised when for every pair `s ≠ t` some word
//! of `H_s` and some word of `H_t` have a common prefix that separates `s` and `t`.
//!
//! `H_s` is the set of splitting words of the ancestors of `s` in the splitting tree (the
//! separator of `s` and `t` is the word of their lowest common ancestor, present in both; the
//! construction of hybrid-ADS's `-s hsi`), or `{sep(s, t) | t ≠ s}` from the pairwise table
//! for partial machines.

use crate::prepare::Prepared;
use crate::product::{Family, ProductSuite};

/// The harmonised state identifier of every state of the prepared machine.
pub fn harmonised_identifiers(p: &Prepared) -> Vec<Vec<Vec<u32>>> {
    (0..p.machine.num_states() as u32)
        .map(|s| p.seps.harmonised(&p.machine, s))
        .collect()
}

pub(crate) fn plan(
    p: &Prepared,
    k: usize,
    params: &mut serde_json::Map<String, serde_json::Value>,
) -> ProductSuite {
    let ids = harmonised_identifiers(p);
    params.insert(
        "max_identifier_words".into(),
        ids.iter().map(Vec::len).max().unwrap_or(0).into(),
    );
    let fam = Family::uniform(&p.machine, |s| ids[s as usize].clone());
    ProductSuite::new(&p.machine, k + 1, fam)
}
