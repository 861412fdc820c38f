//! The Wp-method (S. Fujiwara, G. von Bochmann, F. Khendek, M. Amalou, A. Ghedamsi, "Test
//! selection based on finite state models", IEEE TSE 1991).
//!
//! Phase 1: `Q·I^{≤k}·W` (every state reached by the state cover and its extensions of length
//! at most `k` is identified with the full characterisation set `W`).
//! Phase 2: `R·I^{≤k} ⊕ W_•` with `R = P \ Q` (the transition cover minus the state cover):
//! each word `u` is followed by the identifier `W_{δ(u)}` **of the state reached by the whole
//! word `u`**, including the infix. (Using the state reached by the transition before the
//! infix is the known bug of LearnLib issue #29; the identifiers must also be subsets of `W`.)
//! Together the prefixes are `Q·I^{≤k+1}`; a prefix `u` gets `W` when its distance from the
//! state cover (its length minus its longest prefix in `Q`) is at most `k`, `W_{δ(u)}` beyond.

use crate::prepare::Prepared;
use crate::product::{Family, ProductSuite};

pub(crate) fn plan(
    p: &Prepared,
    k: usize,
    params: &mut serde_json::Map<String, serde_json::Value>,
) -> ProductSuite {
    let m = &p.machine;
    let w = p.seps.characterisation_set(m);
    params.insert("w_words".into(), w.len().into());
    let ids = p.seps.identifiers(m, &w);
    params.insert(
        "max_identifier_words".into(),
        ids.iter().map(Vec::len).max().unwrap_or(0).into(),
    );
    let fam = Family::split(m, |_| w.clone(), |s| ids[s as usize].clone(), k);
    ProductSuite::new(m, k + 1, fam)
}
