//! Adaptive distinguishing graphs: extraction from a splitting graph (thesis Alg. 5
//! "compDG", Def. 3.21, Lemma 3.33), the evaluation metrics of thesis Table 3.2 (§3.11,
//! L5917–5966), and the `adg` suite: access sequences followed by ADG-based identifiers.
//!
//! `compDG(P, F)`: if `P` is pairwise compatible, `F`; if `F = 0`, continue with the witness
//! of an LCA of `P` (the one whose first labels are injective, Def. 3.34, for the most
//! incompatible pairs of `P`, as in the thesis' implementation); `μ.F1 ↦ μ.compDG(P after μ,
//! F1)`; sums distribute. Memoised on `(P, F)`.
//!
//! Incomplete splitting graphs (stopped at their budget, see [`crate::splitting`]) are
//! handled: when `P` has no LCA (every node containing `P` below the root ends in a leaf), the
//! observation ends there with `P`'s incompatible pairs undistinguished; any LCA found is an
//! internal node, whose witness is valid (Def. 3.22) whether the graph is complete or not.
//!
//! By default ([`AdgOptions::valid_inputs`]) only an LCA whose witness is a test case for
//! every state of `P` is taken (thesis Def. 3.15: every input it applies is enabled wherever
//! it is applied); without one the observation ends with `P`'s incompatible pairs
//! undistinguished. Alg. 5 as printed takes any LCA, and its ADG may apply an input a state
//! of `P` lacks ([`check_def_3_15`] finds such a place).
//!
//! Besides Table 3.2's count of incompatible pairs sharing an observation, the metrics count
//! the pairs not separated by an output ([`AdgMetrics::unseparated_pairs`]): as printed, the
//! ADG may apply one input to all of `P`, and a state not enabling it stops there, separated
//! from the others in Table 3.2's sense only. For a valid ADG both counts are equal (a pair
//! not separated by an output reaches a common leaf).
//!
//! Identifiers (the notes' recommended design, still harmonised): the ADG for every state,
//! then, for the incompatible pairs the ADG leaves ([`Pairwise`]: by default those it does
//! not separate by an output, or, if that makes more than [`AdgOptions::max_tests`] tests,
//! those sharing an observation; the suite parameter `pairwise_fallback` says which), a few
//! residual adaptive experiments shared by the states of those pairs ([`crate::residual`],
//! at most [`AdgOptions::residual_rounds`]; suite parameter `residual_experiments`), and
//! pairwise distinguishing graphs for the pairs these still leave. Pairs with a state no
//! access sequence reaches (or a chaotic one) get no experiment: such a state is never
//! tested from. The `adg` suite runs them after every access sequence `σ_q · L^{≤k}`
//! (`k` = [`AdgOptions::extra_steps`]). It is the practical method of thesis ch. 3 and is not
//! n-complete in general (no nested merge suites; see [`crate::n_complete`] for that).

use crate::access::access_sequences;
use crate::ccs::{TermId, Terms};
use crate::compat::Compat;
use crate::distgraph::dg_tree;
use crate::residual::residual_experiments;
use crate::sa::{tri, tri_len, Sa};
use crate::splitting::{NonEnabling, SplitOptions, SplittingGraph};
use crate::suite::Level;
use crate::tree::{follow, pass, Ctx};
use crate::CompleteError;
use ioco_gen::{NamedTest, Suite, TestCase};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;

/// Options of the ADG construction and the `adg` suite.
#[derive(Clone, Debug, Serialize)]
pub struct AdgOptions {
    /// Splitting-graph budget in nodes: past it the construction stops with an incomplete
    /// graph (see [`crate::splitting`]).
    pub max_split_nodes: usize,
    /// Splitting-graph budget in bytes of node sets (estimated).
    pub max_split_bytes: usize,
    /// Fail instead of stopping at the budget.
    pub fail_at_budget: bool,
    /// Prefer output splits (thesis).
    pub output_first: bool,
    /// Where input splits put the states not enabling the input.
    pub non_enabling: NonEnabling,
    /// Access sequences are extended by every trace of up to this many steps.
    pub extra_steps: usize,
    /// Refuse suites with more test cases.
    pub max_tests: u64,
    /// Stop enumerating ADG observations for the metrics past this many.
    pub max_observations: u64,
    /// Which pairs the `adg` suite distinguishes with pairwise graphs.
    pub pairwise: Pairwise,
    /// Rounds of residual experiments ([`crate::residual`]) for those pairs before pairwise
    /// graphs (0: pairwise graphs only).
    pub residual_rounds: usize,
    /// Extract an ADG that is a test case for every state (thesis Def. 3.15: it applies an
    /// input only where every state the run may be in enables it; the default). `false` is
    /// Alg. 5 as printed, which may apply an input some current state lacks.
    pub valid_inputs: bool,
}

/// The pairs the `adg` suite covers with pairwise distinguishing graphs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Pairwise {
    /// Those sharing an ADG observation (Table 3.2's "not distinguished").
    Undistinguished,
    /// Those not separated by an output ([`AdgMetrics::unseparated_pairs`]): every state is
    /// then distinguished from every incompatible one by an observed output. On models whose
    /// quiescent states enable few inputs these are many (12 % of the pairs at 55 %).
    Unseparated,
    /// [`Pairwise::Unseparated`] if the suite fits [`AdgOptions::max_tests`], else
    /// [`Pairwise::Undistinguished`].
    Auto,
}

impl Default for AdgOptions {
    fn default() -> Self {
        AdgOptions {
            max_split_nodes: crate::splitting::MAX_NODES,
            max_split_bytes: crate::splitting::NODE_MEMORY,
            fail_at_budget: false,
            output_first: true,
            non_enabling: NonEnabling::OwnChild,
            extra_steps: 1,
            max_tests: 200_000,
            max_observations: 10_000_000,
            pairwise: Pairwise::Auto,
            residual_rounds: 256,
            valid_inputs: true,
        }
    }
}

/// Thesis Table 3.2 metrics of an ADG. Pair counts are over **ordered** pairs of distinct
/// states, as the table's percentages are (see the notes §5.3).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct AdgMetrics {
    /// The ADG as a CCS term (`None` if longer than 100 000 characters).
    pub term: String,
    /// Distinct sub-terms (states of the ADG automaton).
    pub term_nodes: usize,
    /// Nodes of the splitting graph.
    pub splitting_graph_nodes: usize,
    /// Length of the longest observation.
    pub depth: usize,
    /// Ordered incompatible pairs.
    pub incompatible_pairs: u64,
    /// Ordered incompatible pairs some observation does not separate.
    pub undistinguished_pairs: u64,
    /// `undistinguished_pairs / incompatible_pairs`, in percent.
    pub undistinguished_percent: f64,
    /// Ordered incompatible pairs the ADG does not separate by an output (stricter than
    /// Table 3.2, which only counts shared observations): the two states share an
    /// observation, or along a trace both produce the ADG applies an input one of them does
    /// not specify (the run stops there for that state: the ADG is not a test case for it,
    /// Def. 3.15). The `adg` suite distinguishes these pairs with pairwise graphs.
    pub unseparated_pairs: u64,
    /// `unseparated_pairs / incompatible_pairs`, in percent.
    pub unseparated_percent: f64,
    /// True when the splitting graph is complete (every leaf pairwise compatible, Def. 3.22);
    /// false when its construction stopped at the budget ([`AdgOptions::max_split_nodes`],
    /// [`AdgOptions::max_split_bytes`]).
    pub splitting_graph_complete: bool,
    /// Observations (leaves) that some state can produce.
    pub observations: u64,
    /// Average number of states that can produce an observation.
    pub average_leaf_size: f64,
    /// Weighted by the probability of the observation, outputs uniform (thesis §3.11).
    pub weighted_leaf_size: f64,
    /// True when observation enumeration hit [`AdgOptions::max_observations`].
    pub truncated: bool,
}

/// An ADG with its splitting graph.
pub struct Adg {
    /// The term arena.
    pub terms: Terms,
    /// The splitting graph.
    pub graph: SplittingGraph,
    /// The ADG.
    pub root: TermId,
}

fn after(sa: &Sa, set: &[u32], mu: u16) -> Vec<u32> {
    let mut v: Vec<u32> = set.iter().filter_map(|&q| sa.step(q, mu)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Injectivity of μ for P (thesis Def. 3.34), counted over incompatible pairs.
fn injective_pairs(sa: &Sa, compat: &Compat, p: &[u32], labels: &[u16]) -> usize {
    let mut c = 0;
    for (i, &q) in p.iter().enumerate() {
        for &q2 in &p[i + 1..] {
            if compat.compatible(q, q2) {
                continue;
            }
            let ok = labels
                .iter()
                .all(|&mu| match (sa.step(q, mu), sa.step(q2, mu)) {
                    (Some(t), Some(t2)) => !compat.compatible(t, t2),
                    _ => sa.is_out(mu),
                });
            c += ok as usize;
        }
    }
    c
}

struct Extract<'a> {
    sa: &'a Sa,
    compat: &'a Compat,
    graph: &'a SplittingGraph,
    memo: FxHashMap<(Vec<u32>, TermId), TermId>,
    /// Take only LCAs whose witness is a test case for `P` (Def. 3.15).
    valid_inputs: bool,
    valid_memo: FxHashMap<(Vec<u32>, TermId), bool>,
}

/// Whether every input of `f`, run from any state of `p`, is enabled where it is applied
/// (Def. 3.15's input condition; the witnesses' output states offer every output of the
/// node they split, so the output condition holds by construction).
fn inputs_enabled(
    sa: &Sa,
    terms: &Terms,
    p: &[u32],
    f: TermId,
    memo: &mut FxHashMap<(Vec<u32>, TermId), bool>,
) -> bool {
    if p.is_empty() || f == Terms::ZERO {
        return true;
    }
    if let Some(&r) = memo.get(&(p.to_vec(), f)) {
        return r;
    }
    let mut ok = true;
    for &(mu, g) in terms.prefixes(f) {
        if !sa.is_out(mu) && p.iter().any(|&q| sa.step(q, mu).is_none()) {
            ok = false;
            break;
        }
        if !inputs_enabled(sa, terms, &after(sa, p, mu), g, memo) {
            ok = false;
            break;
        }
    }
    memo.insert((p.to_vec(), f), ok);
    ok
}

impl Extract<'_> {
    fn comp(&mut self, terms: &mut Terms, p: Vec<u32>, f: TermId) -> TermId {
        if self.compat.all_compatible(&p) {
            return f;
        }
        if let Some(&r) = self.memo.get(&(p.clone(), f)) {
            return r;
        }
        let r = if f == Terms::ZERO {
            let mut cands = self.graph.lca(&p);
            if self.valid_inputs {
                // Def. 3.15: the witness must be a test case for every state of `P`. A
                // witness followed to its end separates `P` (Def. 3.22), so the recursion
                // still ends (Lemma 3.33); without a valid LCA the observation ends here.
                let (sa, graph, memo) = (self.sa, self.graph, &mut self.valid_memo);
                cands.retain(|&v| {
                    let w = graph.nodes[v].witness.expect("LCA is internal");
                    inputs_enabled(sa, terms, &p, w, memo)
                });
            }
            if cands.is_empty() {
                // An incomplete splitting graph, or no LCA whose witness `P` can run
                // (Def. 3.15): stop here.
                return f;
            }
            let v = if cands.len() <= 1 || p.len() > 2000 {
                cands[0]
            } else {
                *cands
                    .iter()
                    .max_by_key(|&&v| {
                        let w = self.graph.nodes[v].witness.unwrap();
                        let labels: Vec<u16> = terms.prefixes(w).iter().map(|x| x.0).collect();
                        (
                            injective_pairs(self.sa, self.compat, &p, &labels),
                            std::cmp::Reverse(v),
                        )
                    })
                    .unwrap()
            };
            let w = self.graph.nodes[v].witness.expect("LCA is internal");
            self.comp(terms, p.clone(), w)
        } else {
            let prefixes = terms.prefixes(f).to_vec();
            let mut parts = Vec::with_capacity(prefixes.len());
            for (mu, g) in prefixes {
                let sub = self.comp(terms, after(self.sa, &p, mu), g);
                parts.push(terms.prefix(mu, sub));
            }
            terms.sum(&parts)
        };
        self.memo.insert((p, f), r);
        r
    }
}

/// Build the splitting graph and extract the ADG (Alg. 3, 4, 5).
pub fn build_adg(sa: &Sa, compat: &Compat, opts: &AdgOptions) -> Result<Adg, CompleteError> {
    let mut terms = Terms::new();
    let sopts = SplitOptions {
        max_nodes: opts.max_split_nodes,
        max_bytes: opts.max_split_bytes,
        fail_at_budget: opts.fail_at_budget,
        output_first: opts.output_first,
        non_enabling: opts.non_enabling,
    };
    let graph = SplittingGraph::build(sa, compat, &mut terms, &sopts)?;
    let root_set: Vec<u32> = (0..sa.n() as u32).collect();
    let mut ex = Extract {
        sa,
        compat,
        graph: &graph,
        memo: FxHashMap::default(),
        valid_inputs: opts.valid_inputs,
        valid_memo: FxHashMap::default(),
    };
    let root = ex.comp(&mut terms, root_set, Terms::ZERO);
    Ok(Adg { terms, graph, root })
}

/// Incompatible pairs an ADG leaves, as unordered pairs `p < q`.
#[derive(Clone, Debug, Default)]
pub struct Leftover {
    /// Pairs sharing an observation (Table 3.2 "not distinguished").
    pub undistinguished: FxHashSet<(u32, u32)>,
    /// Pairs not separated by an output ([`AdgMetrics::unseparated_pairs`]); a superset of
    /// `undistinguished`, sorted.
    pub unseparated: Vec<(u32, u32)>,
}

/// Table 3.2 metrics, plus the pairs the ADG leaves.
pub fn metrics(sa: &Sa, compat: &Compat, adg: &Adg, opts: &AdgOptions) -> (AdgMetrics, Leftover) {
    let n = sa.n() as u64;
    let incompatible = n * n.saturating_sub(1) - 2 * compat.compatible_pairs() as u64;
    let mut undist: FxHashSet<(u32, u32)> = FxHashSet::default();
    // Unseparated pairs, one bit per unordered pair.
    let mut unsep = vec![0u64; tri_len(sa.n()).div_ceil(64)];
    let mut mark = |p: u32, q: u32| {
        if p != q && !compat.compatible(p, q) {
            let i = tri(p, q);
            unsep[i / 64] |= 1 << (i % 64);
        }
    };
    let mut obs = 0u64;
    let mut sum = 0f64;
    let mut weighted = 0f64;
    let mut truncated = false;
    // DFS over observation paths with (origin, current) pairs alive.
    type Frame = (TermId, Vec<(u32, u32)>, f64);
    let mut stack: Vec<Frame> = vec![(adg.root, (0..sa.n() as u32).map(|q| (q, q)).collect(), 1.0)];
    while let Some((f, alive, w)) = stack.pop() {
        if alive.is_empty() {
            continue;
        }
        let ps = adg.terms.prefixes(f);
        if ps.is_empty() {
            obs += 1;
            if obs > opts.max_observations {
                truncated = true;
                break;
            }
            sum += alive.len() as f64;
            weighted += w * alive.len() as f64;
            let mut origins: Vec<u32> = alive.iter().map(|p| p.0).collect();
            origins.sort_unstable();
            for (i, &p) in origins.iter().enumerate() {
                for &q in &origins[i + 1..] {
                    if !compat.compatible(p, q) {
                        undist.insert((p, q));
                        mark(p, q);
                    }
                }
            }
            continue;
        }
        // An input some alive state does not specify: the run stops there for that state,
        // which is not separated from any other alive state.
        if alive.len() > 1 {
            if let Some(&(a, _)) = ps.iter().find(|p| !sa.is_out(p.0)) {
                for &(o, c) in &alive {
                    if sa.step(c, a).is_none() {
                        for &(o2, _) in &alive {
                            mark(o, o2);
                        }
                    }
                }
            } else {
                // Outputs the ADG does not continue with end the run for every state
                // producing them: states sharing such an output share that observation.
                let mut open: Vec<(u16, u32)> = alive
                    .iter()
                    .flat_map(|&(o, c)| sa.outs(c).map(move |(x, _)| (x, o)))
                    .filter(|&(x, _)| !ps.iter().any(|p| p.0 == x))
                    .collect();
                open.sort_unstable();
                for (i, &(x, o)) in open.iter().enumerate() {
                    for &(x2, o2) in &open[i + 1..] {
                        if x2 != x {
                            break;
                        }
                        mark(o, o2);
                    }
                }
            }
        }
        let possible = ps
            .iter()
            .filter(|&&(mu, _)| {
                sa.is_out(mu) && alive.iter().any(|&(_, c)| sa.step(c, mu).is_some())
            })
            .count()
            .max(1) as f64;
        for &(mu, g) in ps {
            let next: Vec<(u32, u32)> = alive
                .iter()
                .filter_map(|&(o, c)| sa.step(c, mu).map(|t| (o, t)))
                .collect();
            let w2 = if sa.is_out(mu) { w / possible } else { w };
            stack.push((g, next, w2));
        }
    }
    let mut unseparated = Vec::new();
    for q in 1..sa.n() as u32 {
        let base = tri(0, q);
        for p in 0..q {
            let i = base + p as usize;
            if unsep[i / 64] >> (i % 64) & 1 == 1 {
                unseparated.push((p, q));
            }
        }
    }
    unseparated.sort_unstable();
    let m = AdgMetrics {
        term: adg
            .terms
            .render(sa, adg.root, 100_000)
            .unwrap_or_else(|| "(longer than 100 000 characters)".into()),
        term_nodes: adg.terms.len(),
        splitting_graph_nodes: adg.graph.len(),
        depth: adg.terms.depth(adg.root),
        incompatible_pairs: incompatible,
        undistinguished_pairs: 2 * undist.len() as u64,
        undistinguished_percent: if incompatible == 0 {
            0.0
        } else {
            200.0 * undist.len() as f64 / incompatible as f64
        },
        unseparated_pairs: 2 * unseparated.len() as u64,
        unseparated_percent: if incompatible == 0 {
            0.0
        } else {
            200.0 * unseparated.len() as f64 / incompatible as f64
        },
        splitting_graph_complete: adg.graph.complete,
        observations: obs,
        average_leaf_size: if obs == 0 { 0.0 } else { sum / obs as f64 },
        weighted_leaf_size: weighted,
        truncated,
    };
    (
        m,
        Leftover {
            undistinguished: undist,
            unseparated,
        },
    )
}

/// The ADG run from local state `q` (a test case for `S/q`).
pub(crate) fn adg_tree(ctx: &Ctx, terms: &Terms, f: TermId, q: u32, tq: Option<u32>) -> TestCase {
    let ps = terms.prefixes(f);
    if ps.is_empty() {
        return pass("adaptive distinguishing graph completed");
    }
    if let Some(&(a, g)) = ps.iter().find(|p| !ctx.local.is_out(p.0)) {
        return match ctx.local.step(q, a) {
            Some(q2) => {
                let t2 = tq.and_then(|t| ctx.top.step(t, a));
                let after = adg_tree(ctx, terms, g, q2, t2);
                ctx.stimulate(a, q, tq, after)
            }
            None => pass("identified: the next input is not specified here"),
        };
    }
    ctx.observe(q, tq, &mut |x, q2, t2| match ps.iter().find(|p| p.0 == x) {
        Some(&(_, g)) => adg_tree(ctx, terms, g, q2, t2),
        None => pass("identified"),
    })
}

/// Which experiments each state runs in the `adg` suite besides the ADG.
struct Plan {
    /// Residual experiments ([`crate::residual`]).
    experiments: Vec<TermId>,
    /// Per state: the residual experiments it runs.
    runs: Vec<Vec<usize>>,
    /// Per state: partners of its pairwise graphs.
    leftover: Vec<Vec<u32>>,
    /// Pairs covered by pairwise graphs.
    pairwise_pairs: usize,
    /// Tests of the suite.
    total: u64,
}

/// The `adg` suite (see the module documentation).
pub(crate) fn adg_suite_sa(sa: Sa, opts: &AdgOptions) -> Result<Suite, CompleteError> {
    let mut tests = Vec::new();
    let mut suite = adg_suite_stream_sa(sa, opts, &mut |t| tests.push(t))?;
    suite.tests = tests;
    Ok(suite)
}

/// The `adg` suite test by test: `sink` gets every test; the returned suite is the header
/// (method, parameters) without tests.
pub(crate) fn adg_suite_stream_sa(
    sa: Sa,
    opts: &AdgOptions,
    sink: &mut dyn FnMut(NamedTest),
) -> Result<Suite, CompleteError> {
    let lv = Level::prepare(sa, false);
    let sa = &lv.sa;
    let adg = build_adg(sa, lv.compat(), opts)?;
    let (m, left) = metrics(sa, lv.compat(), &adg, opts);
    let per_state = |pairs: &mut dyn Iterator<Item = (u32, u32)>| {
        let mut leftover: Vec<Vec<u32>> = vec![Vec::new(); sa.n()];
        for (p, q) in pairs {
            leftover[p as usize].push(q);
            leftover[q as usize].push(p);
        }
        for l in &mut leftover {
            l.sort_unstable();
        }
        leftover
    };
    // Access set: shortest access sequences extended by up to k steps, deduplicated.
    let acc = access_sequences(sa);
    let mut words: Vec<Vec<u16>> = Vec::new();
    let mut seen: FxHashSet<Vec<u16>> = FxHashSet::default();
    for &q in &lv.states {
        let Some(w) = &acc[q as usize] else { continue };
        let mut frontier = vec![(w.clone(), q)];
        for step in 0..=opts.extra_steps {
            let mut next = Vec::new();
            for (w, r) in frontier {
                if sa.chaos[r as usize] {
                    continue;
                }
                if seen.insert(w.clone()) {
                    words.push(w.clone());
                }
                if step < opts.extra_steps {
                    for &(mu, t) in sa.enabled(r) {
                        let mut w2 = w.clone();
                        w2.push(mu);
                        next.push((w2, t));
                    }
                }
            }
            frontier = next;
        }
        if words.len() as u64 > opts.max_tests {
            break;
        }
    }
    // Residual experiments, then pairwise graphs, for the pairs the ADG does not separate by
    // an output; if those make too many tests, only for the pairs sharing an observation
    // (Table 3.2's count). Pairs with a state no access sequence reaches need no test.
    let mut tested = vec![false; sa.n()];
    for &q in &lv.states {
        tested[q as usize] = true;
    }
    let mut terms = adg.terms.clone();
    let mut plan = |pairs: &mut dyn Iterator<Item = (u32, u32)>| -> Plan {
        let pairs: Vec<(u32, u32)> = pairs
            .filter(|&(p, q)| tested[p as usize] && tested[q as usize])
            .collect();
        let res = residual_experiments(sa, lv.compat(), &mut terms, &pairs, opts.residual_rounds);
        let mut runs: Vec<Vec<usize>> = vec![Vec::new(); sa.n()];
        for (i, (_, runners)) in res.experiments.iter().enumerate() {
            for &q in runners {
                runs[q as usize].push(i);
            }
        }
        let leftover = per_state(&mut res.left.iter().copied());
        let pairwise_pairs = res.left.len();
        let total = words
            .iter()
            .map(|w| {
                let q = sa.run(sa.initial, w).unwrap() as usize;
                1 + runs[q].len() as u64 + leftover[q].len() as u64
            })
            .sum();
        Plan {
            experiments: res.experiments.into_iter().map(|e| e.0).collect(),
            runs,
            leftover,
            pairwise_pairs,
            total,
        }
    };
    let mut fallback = "unseparated";
    let mut chosen = if opts.pairwise == Pairwise::Undistinguished {
        None
    } else {
        Some(plan(&mut left.unseparated.iter().copied()))
    };
    if opts.pairwise == Pairwise::Undistinguished
        || (opts.pairwise == Pairwise::Auto
            && chosen.as_ref().is_some_and(|c| c.total > opts.max_tests))
    {
        fallback = "undistinguished";
        let mut pairs: Vec<(u32, u32)> = left.undistinguished.iter().copied().collect();
        pairs.sort_unstable();
        chosen = Some(plan(&mut pairs.into_iter()));
    }
    let chosen = chosen.expect("a plan");
    if chosen.total > opts.max_tests {
        return Err(CompleteError::TooLarge {
            n: opts.extra_steps,
            estimated: chosen.total as f64,
            limit: opts.max_tests,
            feasible_n: None,
        });
    }
    let Plan {
        experiments,
        runs,
        leftover,
        pairwise_pairs,
        ..
    } = chosen;
    let mut suite = Suite::new("adg");
    suite
        .parameters
        .insert("extra_steps".into(), opts.extra_steps.into());
    suite
        .parameters
        .insert("pairwise_fallback".into(), fallback.into());
    suite
        .parameters
        .insert("residual_experiments".into(), experiments.len().into());
    suite
        .parameters
        .insert("pairwise_pairs".into(), pairwise_pairs.into());
    let mut shown = m.clone();
    if shown.term.len() > 2000 {
        shown.term = format!("({} characters; see `analyze`)", m.term.len());
    }
    suite.parameters.insert(
        "adg".into(),
        serde_json::to_value(&shown).expect("metrics serialise"),
    );
    let ctx = Ctx {
        local: sa,
        top: sa,
        nested: false,
        flatten: false,
    };
    // Test `t{k}`: the access word `w`, then the identifier `tail` from the state reached.
    let mut k = 0;
    let mut emit = |w: &[u16], purpose: String, tail: &mut dyn FnMut(Option<u32>) -> TestCase| {
        k += 1;
        sink(NamedTest {
            name: format!("t{k}"),
            purpose: Some(format!("after {}: {purpose}", sa.show(w))),
            test: follow(sa, w, Some(sa.initial), tail),
        });
    };
    for w in &words {
        let q = sa.run(sa.initial, w).unwrap();
        emit(w, "adaptive distinguishing graph".into(), &mut |tq| {
            adg_tree(&ctx, &terms, adg.root, q, tq)
        });
        for &i in &runs[q as usize] {
            let purpose = format!("residual experiment {} (pairs left by the ADG)", i + 1);
            emit(w, purpose, &mut |tq| {
                adg_tree(&ctx, &terms, experiments[i], q, tq)
            });
        }
        for &q2 in &leftover[q as usize] {
            let purpose = format!(
                "distinguish {} from {} (left by the ADG)",
                sa.state_names[q as usize], sa.state_names[q2 as usize]
            );
            emit(w, purpose, &mut |tq| dg_tree(&ctx, lv.compat(), q, q2, tq));
        }
    }
    Ok(suite)
}

/// A place where an ADG is not a test case for a state (thesis Def. 3.15).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Def315Violation {
    /// The state the ADG was started from.
    pub start: u32,
    /// The trace the ADG and the state performed together.
    pub trace: Vec<u16>,
    /// The state reached.
    pub state: u32,
    /// The input applied that the state does not enable, or the output the state enables
    /// that the ADG does not handle.
    pub label: u16,
}

/// Check thesis Def. 3.15 for the ADG `root` and every state of `sa`: along every run of the
/// ADG with a state (the reachable states of `A ‖ S/q`), an input state of the ADG applies an
/// input the state enables, and an output state handles every output the state enables.
/// Returns the first violation found (depth first, states in order).
pub fn check_def_3_15(sa: &Sa, terms: &Terms, root: TermId) -> Option<Def315Violation> {
    let mut seen: FxHashSet<(u32, TermId)> = FxHashSet::default();
    for start in 0..sa.n() as u32 {
        let mut stack: Vec<(u32, TermId, Vec<u16>)> = vec![(start, root, Vec::new())];
        while let Some((q, f, trace)) = stack.pop() {
            if !seen.insert((q, f)) {
                continue;
            }
            let ps = terms.prefixes(f);
            if ps.is_empty() {
                continue;
            }
            let bad = |label: u16| Def315Violation {
                start,
                trace: trace.clone(),
                state: q,
                label,
            };
            if let Some(&(a, _)) = ps.iter().find(|p| !sa.is_out(p.0)) {
                if sa.step(q, a).is_none() {
                    return Some(bad(a));
                }
            } else if let Some((x, _)) = sa.outs(q).find(|(x, _)| !ps.iter().any(|p| p.0 == *x)) {
                return Some(bad(x));
            }
            for &(mu, g) in ps {
                if let Some(t) = sa.step(q, mu) {
                    let mut tr = trace.clone();
                    tr.push(mu);
                    stack.push((t, g, tr));
                }
            }
        }
    }
    None
}
