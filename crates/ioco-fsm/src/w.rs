//! Chow's W-method (T. S. Chow, "Testing software design modeled by finite-state machines",
//! IEEE TSE 1978; Vasilevskii 1973): the suite `P·I^{≤k}·W = Q·I^{≤k+1}·W`, where `P` is the
//! transition cover, `Q` the state cover and `W` a characterisation set (every pair of distinct
//! states is separated by some word of `W`). `W` comes from the splitting tree
//! ([`crate::tree`], one splitting word per internal node, reduced to maximal words, then words
//! dropped greedily, longest first, while the rest still separates every pair) or, for partial
//! machines, greedily from the pairwise shortest separators ([`crate::pairs`]).

use crate::prepare::Prepared;
use crate::product::{Family, ProductSuite};

/// The characterisation set of the prepared machine.
pub fn characterisation_set(p: &Prepared) -> Vec<Vec<u32>> {
    p.seps.characterisation_set(&p.machine)
}

pub(crate) fn plan(
    p: &Prepared,
    k: usize,
    params: &mut serde_json::Map<String, serde_json::Value>,
) -> ProductSuite {
    let w = characterisation_set(p);
    params.insert("w_words".into(), w.len().into());
    params.insert(
        "w_symbols".into(),
        w.iter().map(Vec::len).sum::<usize>().into(),
    );
    let fam = Family::uniform(&p.machine, |_| w.clone());
    ProductSuite::new(&p.machine, k + 1, fam)
}
