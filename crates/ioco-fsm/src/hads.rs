//! Hybrid adaptive distinguishing sequences (hybrid-ADS; W. Smeenk, J. Moerman, F. Vaandrager,
//! D. Jansen, "Applying automata learning to embedded control software", ICFEM 2015, and
//! J. Moerman's thesis, Ch. 2): the suite `Q·I^{≤k+1} ⊕ I`, where the identifier `I_s` of a
//! state is its adaptive distinguishing sequence word plus, for the states the ADS does not
//! tell apart, separating sequences in the HSI style.
//!
//! The ADS is the one of D. Lee & M. Yannakakis ("Testing finite-state machines: state
//! identification and verification", IEEE Trans. Computers 1994, Sec. 3): a splitting tree
//! refined with *valid* inputs only ([`crate::tree::Mode::Adaptive`]), then the adaptive tree
//! built top-down: at a node with current states `C`, apply the splitting word of the lowest
//! tree node containing `C` and branch on the outputs. Valid words never merge two states with
//! the same outputs, so every branch keeps as many current states as initial ones. When some
//! block cannot be split validly there is no complete ADS (LY Thm. 3.2). On complete machines
//! the adaptive tree then continues with the splitting word of the ordinary splitting tree
//! (which may merge states, so it is not an ADS step in LY's sense, but it keeps separating the
//! other states adaptively, in the spirit of hybrid-ADS). The states left together in an
//! adaptive leaf get, pairwise, the separator of the ordinary splitting tree (their lowest
//! common ancestor's word), which is in both identifiers: the family stays harmonised (every
//! pair split adaptively shares the prefix up to its split), so the suite is `(n+k)`-complete
//! like HSI.
//!
//! Parameters recorded: `ly_ads_exists` (LY's valid ADS distinguishes all states) and
//! `ads_complete` (the adaptive tree, fallback steps included, does).

use crate::prepare::{maximal, Prepared, Separators};
use crate::product::{Family, ProductSuite};
use crate::tree::{Mode, SplittingTree};
use ioco_model::Mealy;
use std::collections::BTreeMap;

/// An adaptive distinguishing sequence, as one input word per state.
#[derive(Clone, Debug)]
pub struct Ads {
    /// For each state, the inputs applied from it along its branch of the adaptive tree.
    pub words: Vec<Vec<u32>>,
    /// Groups of states the adaptive tree does not separate (empty when the ADS is complete).
    pub unsplit: Vec<Vec<u32>>,
}

impl Ads {
    /// Whether the ADS distinguishes every state.
    pub fn is_complete(&self) -> bool {
        self.unsplit.is_empty()
    }
}

/// Lee & Yannakakis' adaptive distinguishing sequence of `m` (partial when none exists).
pub fn adaptive_distinguishing_sequence(m: &Mealy) -> Ads {
    adaptive_tree(m, &SplittingTree::build(m, Mode::Adaptive), None)
}

/// The adaptive tree: at each node, the splitting word of the lowest node of the valid (LY)
/// tree `ly` that holds the current states; when that node is an unsplit leaf and `fallback`
/// (an ordinary splitting tree) is given, the word of the lowest fallback node holding the
/// distinct current states. Fallback words may merge states; the initial states whose current
/// states have merged stay together and end in [`Ads::unsplit`], to be separated by the
/// hybrid completion.
pub fn adaptive_tree(m: &Mealy, ly: &SplittingTree, fallback: Option<&SplittingTree>) -> Ads {
    let n = m.num_states();
    let mut words = vec![Vec::new(); n];
    let mut unsplit = Vec::new();
    // (initial states, current states, inputs so far)
    let all: Vec<u32> = (0..n as u32).collect();
    let mut stack: Vec<(Vec<u32>, Vec<u32>, Vec<u32>)> = vec![(all.clone(), all, Vec::new())];
    let lowest = |t: &SplittingTree, cur: &[u32]| {
        let mut v = t.leaf_of[cur[0] as usize];
        for &c in &cur[1..] {
            v = t.lca(v, t.leaf_of[c as usize]);
        }
        v
    };
    while let Some((init, cur, prefix)) = stack.pop() {
        if init.len() == 1 {
            words[init[0] as usize] = prefix;
            continue;
        }
        let mut distinct = cur.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let mut sigma = None;
        if distinct.len() > 1 {
            let v = lowest(ly, &distinct);
            if !ly.nodes[v as usize].children.is_empty() {
                sigma = Some(&ly.nodes[v as usize].sigma);
            } else if let Some(f) = fallback {
                let v = lowest(f, &distinct);
                if !f.nodes[v as usize].children.is_empty() {
                    sigma = Some(&f.nodes[v as usize].sigma);
                }
            }
        }
        let Some(sigma) = sigma else {
            for &s in &init {
                words[s as usize] = prefix.clone();
            }
            unsplit.push(init);
            continue;
        };
        let mut groups: BTreeMap<Vec<u32>, (Vec<u32>, Vec<u32>)> = BTreeMap::new();
        for (&s, &c) in init.iter().zip(&cur) {
            let (t, outs) = m
                .run_from(c, sigma)
                .expect("splitting words are defined on their block");
            let g = groups.entry(outs).or_default();
            g.0.push(s);
            g.1.push(t);
        }
        debug_assert!(groups.len() > 1);
        for (_, (i2, c2)) in groups {
            let mut p = prefix.clone();
            p.extend_from_slice(sigma);
            stack.push((i2, c2, p));
        }
    }
    unsplit.sort();
    Ads { words, unsplit }
}

/// The hybrid identifiers: ADS word plus separators for the states the ADS leaves together.
pub fn hybrid_identifiers(p: &Prepared, ads: &Ads) -> Vec<Vec<Vec<u32>>> {
    let m = &p.machine;
    let mut ids: Vec<Vec<Vec<u32>>> = ads.words.iter().map(|w| vec![w.clone()]).collect();
    for group in &ads.unsplit {
        match &p.seps {
            Separators::Tree(tree) => {
                for &s in group {
                    let mut nodes: Vec<u32> = group
                        .iter()
                        .filter(|&&t| t != s)
                        .map(|&t| tree.lca(tree.leaf_of[s as usize], tree.leaf_of[t as usize]))
                        .collect();
                    nodes.sort_unstable();
                    nodes.dedup();
                    ids[s as usize]
                        .extend(nodes.iter().map(|&v| tree.nodes[v as usize].sigma.clone()));
                }
            }
            Separators::Pairs(_) => {
                for &s in group {
                    for &t in group {
                        if s != t {
                            ids[s as usize].push(p.seps.separator(s, t));
                        }
                    }
                }
            }
        }
    }
    let _ = m;
    ids.into_iter().map(maximal).collect()
}

pub(crate) fn plan(
    p: &Prepared,
    k: usize,
    params: &mut serde_json::Map<String, serde_json::Value>,
) -> ProductSuite {
    let ly = SplittingTree::build(&p.machine, Mode::Adaptive);
    params.insert(
        "ly_ads_exists".into(),
        ly.unsplit_blocks().is_empty().into(),
    );
    let fallback = match &p.seps {
        Separators::Tree(t) => Some(t),
        Separators::Pairs(_) => None,
    };
    let ads = adaptive_tree(&p.machine, &ly, fallback);
    params.insert("ads_complete".into(), ads.is_complete().into());
    params.insert(
        "ads_unsplit_states".into(),
        ads.unsplit.iter().map(Vec::len).sum::<usize>().into(),
    );
    let ids = hybrid_identifiers(p, &ads);
    let fam = Family::uniform(&p.machine, |s| ids[s as usize].clone());
    ProductSuite::new(&p.machine, k + 1, fam)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tree::tests::ly_machine as ly;

    #[test]
    fn ly_machine_has_a_complete_ads_that_identifies_each_state() {
        let m = ly();
        let ads = adaptive_distinguishing_sequence(&m);
        assert!(ads.is_complete());
        // Applying state s's word from any other state t gives other outputs: the ADS
        // identifies s with a single experiment.
        for s in 0..6u32 {
            let w = &ads.words[s as usize];
            for t in 0..6u32 {
                if s != t {
                    assert_ne!(
                        m.run_from(s, w).map(|x| x.1),
                        m.run_from(t, w).map(|x| x.1),
                        "state {s} vs {t} with {w:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn machine_without_ads_gets_hybrid_separators() {
        // a merges 0 and 1 with the same output (invalid on the whole state set) and b only
        // permutes the states without splitting them: no complete ADS (LY Thm. 3.2).
        let mut m = Mealy::new(
            3,
            vec!["a".into(), "b".into()],
            vec!["x".into(), "y".into()],
            0,
        );
        m.set(0, 0, 0, 0);
        m.set(1, 0, 0, 0);
        m.set(2, 0, 2, 1);
        m.set(0, 1, 1, 0);
        m.set(1, 1, 2, 0);
        m.set(2, 1, 0, 0);
        let p = crate::prepare::prepare(&m).unwrap();
        let ads = adaptive_distinguishing_sequence(&p.machine);
        assert!(!ads.is_complete());
        let ids = hybrid_identifiers(&p, &ads);
        // Harmonised: every pair is separated by a common prefix of words in both identifiers.
        for s in 0..p.machine.num_states() as u32 {
            for t in 0..s {
                let ok = ids[s as usize].iter().any(|x| {
                    ids[t as usize].iter().any(|y| {
                        let common: Vec<u32> = x
                            .iter()
                            .zip(y)
                            .take_while(|(a, b)| a == b)
                            .map(|(a, _)| *a)
                            .collect();
                        crate::prepare::separates(&p.machine, s, t, &common)
                    })
                });
                assert!(ok, "{s} {t} {ids:?}");
            }
        }
    }
}
