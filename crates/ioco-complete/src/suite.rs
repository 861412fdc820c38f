//! The n-complete test suite `T(S, n)` (thesis Def. 2.37, Theorem 2.40; journal 003 Def. 37,
//! Theorem 40), with its size estimate, the recursion guard and the `U(S, n)` fallback.
//!
//! `T(S, n) = {(σ, τ) | σ ∈ P⁺(S, n), τ ∈ DE(S after σ)}` where
//! * `P⁺(S, n)` = every trace of length ≤ `n` (the notes' fidelity fix: ε included), not
//!   continued past states equivalent to chaos;
//! * `DE(q)` = the harmonised pairwise distinguishing graphs `DG(q, q')` for `q' ⋈̸ q` (plus
//!   "observe one output" when none of them starts by observing: without it a specification
//!   whose states are all equivalent would get no test at all), and
//!   for every reachable `q' ⋈ q` with `q ≉ q'` (neither chaotic) the nested suite
//!   `T(q ∧ q', n)`, run after `σ`, whose `fail` means "distinguished"
//!   ([`SuiteRole::Distinguishing`]; thesis Ex. 2.39).
//!
//! Access sequences never contain δδ (#13 item 8), so the suite is n-complete for
//! implementations in which δ right after δ changes nothing (every suspension automaton of an
//! LTS), not for the thesis' whole SA domain, where a second δ may reach a state with an output
//! (`tests/observe.rs::a_second_quiescence_that_changes_state_is_outside_the_domain`).
//!
//! The recursion through merges is not known to terminate (thesis L3368–3408): below
//! [`NCompleteOptions::max_depth`] nested levels the nested suite is `U(q ∧ q', n)` instead,
//! which is n-complete too (thesis Cor. 2.44); above it, each nested suite is whichever of
//! `T(q ∧ q', n)` and `U(q ∧ q', n)` is estimated smaller (the proof of Theorem 2.40 only needs
//! *some* n-complete suite for the merge, notes §A2.6). Merges are reduced to their
//! `≈`-quotient first. Generation walks the trie of access sequences depth first (each prefix
//! is visited once, whatever the number of experiments after it), and every merge is built
//! once per level and state pair. Tests can be streamed one by one
//! ([`crate::n_complete_stream`], [`Event`]) instead of collected into a [`Suite`]. The number
//! of tests is estimated first (traces counted per state by dynamic programming); a suite above
//! [`NCompleteOptions::max_tests`] is refused with the largest feasible `n`.
//!
//! The pairwise graphs are the tester's strategies of [`crate::compat`] (thesis Alg. 2 ranks);
//! Alg. 1's graphs ([`crate::alg1`]) have the same shape and are kept as a cross-check.
//!
//! **Executing nested suites.** Every observation is checked against the specification: a
//! *fail* leaf in the outer suite, or an output the specification does not allow anywhere
//! (also inside a nested suite, where its leaf says "ioco counterexample"), is a
//! non-conformance; the other *fail* leaves of a nested suite only mean "distinguished". An
//! executor that does not track the specification should use
//! [`NCompleteOptions::flatten_nested`], which puts the merge tests into the outer suite with
//! "distinguished" as a pass.

use crate::compat::Compat;
use crate::compat_local::LocalCompat;
use crate::distgraph::dg_tree;
use crate::equiv::{quotient, Equiv};
use crate::merge::merge;
use crate::sa::{tri_len, Sa};
use crate::tree::{follow, pass, Ctx};
use crate::unconditional::bounded_words;
use crate::CompleteError;
use ioco_gen::{NamedTest, Suite, SuiteRole, TestCase};
use ioco_model::LabelKind;
use rustc_hash::FxHashMap;
use serde::Serialize;

/// One step of a streamed suite ([`crate::n_complete_stream`]).
#[derive(Clone, Debug)]
pub enum Event {
    /// A test of the innermost open suite.
    Test(NamedTest),
    /// A (nested) suite opens: its header, without tests.
    Begin(Suite),
    /// The innermost open suite ends.
    End,
}

/// Options of [`crate::n_complete`].
#[derive(Clone, Debug, Serialize)]
pub struct NCompleteOptions {
    /// Refuse to generate more test cases than this (nested suites included).
    pub max_tests: u64,
    /// Nested merge suites deeper than this use `U(q ∧ q', n)` (thesis Def. 2.43).
    pub max_depth: usize,
    /// Put the tests of nested merge suites into the outer suite ("distinguished" = pass).
    pub flatten_nested: bool,
}

impl Default for NCompleteOptions {
    fn default() -> Self {
        NCompleteOptions {
            max_tests: 200_000,
            max_depth: 2,
            flatten_nested: false,
        }
    }
}

/// Estimated size of `T(S, n)`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SizeEstimate {
    /// The `n` asked for.
    pub n: usize,
    /// Access sequences `|P⁺(S, n)|` of the outer suite.
    pub access_sequences: f64,
    /// Test cases of the outer suite (distinguishing graphs); infinite past
    /// [`NCompleteOptions::max_tests`] (sizing stops there).
    pub outer_tests: f64,
    /// Test cases in all nested suites; infinite when the total is.
    pub nested_tests: f64,
    /// Total number of test cases; infinite past [`NCompleteOptions::max_tests`].
    pub total_tests: f64,
    /// Distinct nested merge suites (per merge and depth) that use `U(q ∧ q', n)`: past the
    /// depth guard, or because it is smaller than `T(q ∧ q', n)`.
    pub fallbacks: usize,
    /// The nested sizes are lower bounds: some merges were not prepared, as they would have
    /// passed the pair budget ([`crate::budget`]).
    pub lower_bound: bool,
}

/// A prepared automaton: the specification or a merge (internal; public only for the
/// benchmark). The rows `dg`, `nested` and `observe` of a state are filled when the estimate
/// reaches that state ([`Level::ensure_rows`], deciding only the pairs it needs with
/// [`LocalCompat`]) or, for generation and the `adg` suite, all at once with the whole
/// relation ([`Level::complete`]); both give the same rows.
#[doc(hidden)]
#[allow(dead_code)]
pub struct Level {
    pub sa: Sa,
    /// The whole relation with strategies: computed for generation (distinguishing graphs
    /// follow strategies to any pair), not for the estimate.
    pub compat: Option<Compat>,
    pub equiv: Equiv,
    /// Reachable, non-chaotic states.
    pub states: Vec<u32>,
    /// Per state: partners for distinguishing graphs and for nested merge suites.
    pub dg: Vec<Vec<u32>>,
    pub nested: Vec<Vec<u32>>,
    /// States none of whose distinguishing graphs starts by observing: they get the
    /// experiment "observe one output" so that every output after every access sequence is
    /// checked (with no incompatible partner, Def. 2.37 alone would give no test at all).
    pub observe: Vec<bool>,
    /// The rows of `dg`, `nested` and `observe` that are filled.
    ready: Vec<bool>,
    /// The pairs decided so far for [`Level::ensure_rows`].
    local: LocalCompat,
}

/// Rows [`Generator::t_size`] fills at a time: a suite past the test limit is usually found
/// after a few rows, and the pairs explored for one row serve the next.
const ROWS_AT_A_TIME: usize = 16;

impl Level {
    /// Prepare an automaton with its whole compatibility relation; a merge (`minimise`) is
    /// first reduced to its `≈`-quotient.
    pub fn prepare(sa: Sa, minimise: bool) -> Level {
        let mut level = Level::prepare_rows(sa, minimise);
        level.complete();
        level
    }

    /// Prepare an automaton without relating its states ([`Level::ensure_rows`] does that
    /// for the rows asked for).
    fn prepare_rows(sa: Sa, minimise: bool) -> Level {
        let mut sa = sa;
        let mut equiv = Equiv::compute(&sa);
        if minimise {
            sa = quotient(&sa, &equiv);
            equiv = Equiv::compute(&sa);
        }
        for q in 0..sa.n() as u32 {
            sa.chaos[q as usize] = equiv.chaotic(q);
        }
        let reach = sa.reachable();
        let states: Vec<u32> = (0..sa.n() as u32)
            .filter(|&q| reach[q as usize] && !sa.chaos[q as usize])
            .collect();
        let n = sa.n();
        Level {
            sa,
            compat: None,
            equiv,
            states,
            dg: vec![Vec::new(); n],
            nested: vec![Vec::new(); n],
            observe: vec![true; n],
            ready: vec![false; n],
            local: LocalCompat::default(),
        }
    }

    /// The whole relation ([`Level::complete`] was called).
    pub fn compat(&self) -> &Compat {
        self.compat
            .as_ref()
            .expect("the level was completed before its relation is used")
    }

    /// Relate all states (thesis Alg. 2 on `S‖S`) and fill every row from the relation.
    pub fn complete(&mut self) {
        if self.compat.is_some() {
            return;
        }
        // what the rows explored is not needed any more
        self.local = LocalCompat::default();
        let compat = Compat::compute(&self.sa);
        let n = self.sa.n();
        let mut dg = vec![Vec::new(); n];
        let mut nested = vec![Vec::new(); n];
        for &q in &self.states {
            for &q2 in &self.states {
                if q == q2 {
                    continue;
                }
                if !compat.compatible(q, q2) {
                    dg[q as usize].push(q2);
                } else if !self.equiv.equivalent(q, q2) {
                    nested[q as usize].push(q2);
                }
            }
        }
        self.observe = (0..n)
            .map(|q| {
                !dg[q]
                    .iter()
                    .any(|&q2| compat.strategy(q as u32, q2) == Some(crate::compat::Strategy::Wait))
            })
            .collect();
        self.dg = dg;
        self.nested = nested;
        self.ready = vec![true; n];
        self.compat = Some(compat);
    }

    /// Fill the rows of `rows` (reachable, non-chaotic states), deciding only the pairs they
    /// need ([`LocalCompat`], bounded by an eighth of all pairs); past that bound, or when a
    /// row's `observe` depends on a strategy this does not compute (no partner without a
    /// common output, but some partner incompatible), the whole relation
    /// ([`Level::complete`]).
    pub fn ensure_rows(&mut self, rows: &[u32]) {
        if self.compat.is_some() {
            return;
        }
        let todo: Vec<u32> = rows
            .iter()
            .copied()
            .filter(|&q| !self.ready[q as usize])
            .collect();
        if todo.is_empty() {
            return;
        }
        let limit = (tri_len(self.sa.n()) / 8).max(1 << 16);
        let queries: Vec<(u32, u32)> = todo
            .iter()
            .flat_map(|&q| {
                self.states
                    .iter()
                    .filter(move |&&q2| q2 != q)
                    .map(move |&q2| (q, q2))
            })
            .collect();
        if self.local.pairs() + queries.len() > limit
            || self.local.decide(&self.sa, &queries, limit).is_err()
        {
            return self.complete();
        }
        for &q in &todo {
            let (mut dg, mut nested) = (Vec::new(), Vec::new());
            let mut waits = false;
            for &q2 in &self.states {
                if q2 == q {
                    continue;
                }
                if !self.local.compatible(q, q2) {
                    dg.push(q2);
                    waits |= self.local.no_common_output(q, q2);
                } else if !self.equiv.equivalent(q, q2) {
                    nested.push(q2);
                }
            }
            if !dg.is_empty() && !waits {
                // whether some partner's strategy is "wait" takes the ranks of the whole
                // relation (thesis Lemma 3.7)
                return self.complete();
            }
            self.observe[q as usize] = dg.is_empty();
            self.dg[q as usize] = dg;
            self.nested[q as usize] = nested;
            self.ready[q as usize] = true;
        }
    }

    /// Number of traces of length ≤ n from the initial state ending in each state
    /// (not continued from chaos states).
    fn trace_counts(&self, n: usize) -> Vec<f64> {
        // Traces without δδ (as `walk` enumerates them), split by whether they end in δ.
        let sz = self.sa.n();
        let quiet = |l: u16| self.sa.kind(l) == LabelKind::Quiescence;
        let mut cur = vec![[0f64; 2]; sz];
        cur[self.sa.initial as usize][0] = 1.0;
        let mut total = vec![0f64; sz];
        total[self.sa.initial as usize] = 1.0;
        for _ in 0..n {
            let mut next = vec![[0f64; 2]; sz];
            for q in 0..sz as u32 {
                let [c, cd] = cur[q as usize];
                if (c == 0.0 && cd == 0.0) || self.sa.chaos[q as usize] {
                    continue;
                }
                for &(mu, t) in self.sa.enabled(q) {
                    if quiet(mu) {
                        next[t as usize][1] += c;
                    } else {
                        next[t as usize][0] += c + cd;
                    }
                }
            }
            for q in 0..sz {
                total[q] += next[q][0] + next[q][1];
            }
            cur = next;
        }
        total
    }
}

/// The tree of prepared merges: levels plus a memo from (level, q, q') to the merge's level.
#[doc(hidden)]
pub struct Generator<'a> {
    pub levels: Vec<Level>,
    merges: FxHashMap<(usize, u32, u32), usize>,
    opts: &'a NCompleteOptions,
    n: usize,
    counter: usize,
    t_sizes: FxHashMap<(usize, usize), f64>,
    u_sizes: FxHashMap<usize, f64>,
    use_u: FxHashMap<(usize, usize), bool>,
    /// State pairs of all prepared levels (the pairwise relations they hold).
    pairs_used: u64,
    /// A merge was not prepared because it would pass the pair budget ([`crate::budget`]):
    /// the sizes are then lower bounds.
    over_budget: Option<(usize, u64)>,
}

impl<'a> Generator<'a> {
    pub fn new(sa: Sa, n: usize, opts: &'a NCompleteOptions) -> Self {
        Generator {
            levels: vec![Level::prepare_rows(sa, false)],
            merges: FxHashMap::default(),
            opts,
            n,
            counter: 0,
            t_sizes: FxHashMap::default(),
            u_sizes: FxHashMap::default(),
            use_u: FxHashMap::default(),
            pairs_used: 0,
            over_budget: None,
        }
    }

    /// The level of the merge of `q` and `q2` in `level`, prepared once; `None` when preparing
    /// it would take the pairwise relations of all levels past the pair budget (then
    /// [`Generator::over_budget`] says how far).
    fn merge_level(&mut self, level: usize, q: u32, q2: u32) -> Option<usize> {
        if let Some(&id) = self.merges.get(&(level, q, q2)) {
            return Some(id);
        }
        if self.over_budget.is_some() {
            // the plan is past the budget already: no more merges
            return None;
        }
        let m = merge(&self.levels[level].sa, q, q2)?;
        let n = m.n() as u64;
        let pairs = n.saturating_mul(n.saturating_sub(1)) / 2;
        if self.pairs_used.saturating_add(pairs) > crate::budget::max_pairs() {
            let states: usize = self.levels.iter().map(|l| l.sa.n()).sum::<usize>() + m.n();
            self.over_budget = Some((states, self.pairs_used.saturating_add(pairs)));
            return None;
        }
        self.pairs_used += pairs;
        let id = self.levels.len();
        self.levels.push(Level::prepare_rows(m, true));
        self.merges.insert((level, q, q2), id);
        Some(id)
    }

    /// When the plan needed more state pairs than the budget: the states and pairs it had
    /// reached.
    pub fn over_budget(&self) -> Option<(usize, u64)> {
        self.over_budget
    }

    /// An error when the last estimate's plan passed the pair budget (its sizes are lower
    /// bounds, and generation would miss the merges it could not prepare).
    pub fn check_budget(&self) -> Result<(), crate::CompleteError> {
        match self.over_budget {
            Some((states, pairs)) => Err(crate::CompleteError::MergesTooLarge {
                states,
                pairs,
                limit: crate::budget::max_pairs(),
            }),
            None => Ok(()),
        }
    }

    /// Size of `U(M, n)` for merge level `m` (counted up to the test limit).
    fn u_size(&mut self, m: usize) -> f64 {
        if let Some(&s) = self.u_sizes.get(&m) {
            return s;
        }
        let mut k = 0u64;
        let limit = self.opts.max_tests.saturating_add(1);
        bounded_words(&self.levels[m].sa, self.n, limit, &mut |_, _| k += 1);
        let s = if k > self.opts.max_tests {
            f64::INFINITY
        } else {
            k as f64
        };
        self.u_sizes.insert(m, s);
        s
    }

    /// Tests of `T(level, n)` at nesting `depth` (nested suites included).
    fn t_size(&mut self, level: usize, depth: usize) -> f64 {
        if let Some(&s) = self.t_sizes.get(&(level, depth)) {
            return s;
        }
        let counts = self.levels[level].trace_counts(self.n);
        let mut total = 0.0;
        // the states some access sequence reaches: only their rows are needed
        let states: Vec<u32> = self.levels[level]
            .states
            .iter()
            .copied()
            .filter(|&q| counts[q as usize] != 0.0)
            .collect();
        for (i, &q) in states.iter().enumerate() {
            let c = counts[q as usize];
            let lv = &mut self.levels[level];
            if !lv.ready[q as usize] {
                lv.ensure_rows(&states[i..(i + ROWS_AT_A_TIME).min(states.len())]);
            }
            let mut per = self.levels[level].dg[q as usize].len() as f64
                + self.levels[level].observe[q as usize] as u8 as f64;
            let partners = self.levels[level].nested[q as usize].clone();
            for q2 in partners {
                match self.merge_level(level, q, q2) {
                    Some(m) => per += self.nested_size(m, depth + 1),
                    // past the pair budget: at least one test (a lower bound)
                    None => per += 1.0,
                }
                if c * per > self.opts.max_tests as f64 {
                    break;
                }
            }
            total += c * per;
            // past the test limit the suite is refused: no need to size the rest (this bounds
            // the time and the merges an estimate takes)
            if total > self.opts.max_tests as f64 {
                total = f64::INFINITY;
                break;
            }
        }
        self.t_sizes.insert((level, depth), total);
        total
    }

    /// Size of the nested suite for merge `m` at nesting `depth`: the smaller of `U(M, n)`
    /// and `T(M, n)` (both n-complete), `U` past the depth guard.
    fn nested_size(&mut self, m: usize, depth: usize) -> f64 {
        let u = self.u_size(m);
        if depth > self.opts.max_depth {
            self.use_u.insert((m, depth), true);
            return u;
        }
        let t = self.t_size(m, depth);
        let pick_u = u < t;
        self.use_u.insert((m, depth), pick_u);
        if pick_u {
            u
        } else {
            t
        }
    }

    pub fn estimate(&mut self) -> SizeEstimate {
        self.t_sizes.clear();
        self.u_sizes.clear();
        self.use_u.clear();
        let total = self.t_size(0, 0);
        let limit = self.opts.max_tests as f64;
        let lv = &mut self.levels[0];
        let counts = lv.trace_counts(self.n);
        let access: f64 = lv.states.iter().map(|&q| counts[q as usize]).sum();
        let reached: Vec<u32> = lv
            .states
            .iter()
            .copied()
            .filter(|&q| counts[q as usize] != 0.0)
            .collect();
        // the outer tests, sized up to the test limit like the total (sizing may have stopped
        // before every row was filled)
        let mut outer = 0.0;
        for (i, &q) in reached.iter().enumerate() {
            if !lv.ready[q as usize] {
                lv.ensure_rows(&reached[i..(i + ROWS_AT_A_TIME).min(reached.len())]);
            }
            outer += counts[q as usize]
                * (lv.dg[q as usize].len() as f64 + lv.observe[q as usize] as u8 as f64);
            if outer > limit {
                outer = f64::INFINITY;
                break;
            }
        }
        SizeEstimate {
            n: self.n,
            access_sequences: access,
            outer_tests: outer,
            nested_tests: if total.is_finite() {
                total - outer
            } else {
                f64::INFINITY
            },
            total_tests: total,
            fallbacks: self.plan_fallbacks(),
            lower_bound: self.over_budget.is_some(),
        }
    }

    /// Nested suites of the chosen plan that use `U`.
    fn plan_fallbacks(&self) -> usize {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = vec![(0usize, 0usize)];
        let mut count = 0;
        while let Some((level, depth)) = stack.pop() {
            for &q in &self.levels[level].states {
                for &q2 in &self.levels[level].nested[q as usize] {
                    let Some(&m) = self.merges.get(&(level, q, q2)) else {
                        continue;
                    };
                    if !seen.insert((m, depth + 1)) {
                        continue;
                    }
                    if self.use_u.get(&(m, depth + 1)).copied().unwrap_or(true) {
                        count += 1;
                    } else {
                        stack.push((m, depth + 1));
                    }
                }
            }
        }
        count
    }

    fn name(&mut self) -> String {
        self.counter += 1;
        format!("t{}", self.counter)
    }

    /// Generate the tests of `level`'s suite after `prefix` into `suite`.
    fn gen(&mut self, level: usize, prefix: &[u16], depth: usize, sink: &mut dyn FnMut(Event)) {
        // distinguishing graphs follow strategies to any pair: the whole relation
        self.levels[level].complete();
        let start = self.levels[level].sa.initial;
        let mut word = Vec::new();
        self.walk(level, start, prefix, &mut word, depth, sink);
    }

    fn walk(
        &mut self,
        level: usize,
        q: u32,
        prefix: &[u16],
        word: &mut Vec<u16>,
        depth: usize,
        sink: &mut dyn FnMut(Event),
    ) {
        if self.levels[level].sa.chaos[q as usize] {
            return;
        }
        self.experiments(level, q, prefix, word, depth, sink);
        if word.len() < self.n {
            let sa = &self.levels[level].sa;
            // δ right after δ reaches the same state (after δ the state is quiescent and has a δ
            // self-loop, tutorial Def. 4.8): an access sequence never contains δδ (#13 item 8;
            // a nested suite may start with δ after an outer σ ending in δ: the runner answers
            // that observation without a time-out).
            let quiet = |l: Option<&u16>| l.is_some_and(|&l| sa.kind(l) == LabelKind::Quiescence);
            let after_delta = quiet(word.last());
            let succ: Vec<(u16, u32)> = sa
                .enabled(q)
                .iter()
                .copied()
                .filter(|&(mu, _)| !(after_delta && quiet(Some(&mu))))
                .collect();
            for (mu, t) in succ {
                word.push(mu);
                self.walk(level, t, prefix, word, depth, sink);
                word.pop();
            }
        }
    }

    fn experiments(
        &mut self,
        level: usize,
        q: u32,
        prefix: &[u16],
        word: &[u16],
        depth: usize,
        sink: &mut dyn FnMut(Event),
    ) {
        let flatten = self.opts.flatten_nested;
        let full: Vec<u16> = prefix.iter().chain(word).copied().collect();
        if self.levels[level].observe[q as usize] {
            let top = &self.levels[0].sa;
            let lv = &self.levels[level];
            let ctx = Ctx {
                local: &lv.sa,
                top,
                nested: depth > 0,
                flatten,
            };
            let test = follow(top, &full, Some(top.initial), &mut |tq| {
                ctx.observe(q, tq, &mut |_, _, _| pass("observed"))
            });
            let purpose = format!("after {}: observe", top.show(&full));
            let name = self.name();
            sink(Event::Test(NamedTest {
                name,
                purpose: Some(purpose),
                test,
            }));
        }
        let partners = self.levels[level].dg[q as usize].clone();
        for q2 in partners {
            let top = &self.levels[0].sa;
            let lv = &self.levels[level];
            let ctx = Ctx {
                local: &lv.sa,
                top,
                nested: depth > 0,
                flatten,
            };
            let test = follow(top, &full, Some(top.initial), &mut |tq| {
                dg_tree(&ctx, lv.compat(), q, q2, tq)
            });
            let purpose = format!(
                "after {}: distinguish {} from {}",
                top.show(&full),
                lv.sa.state_names[q as usize],
                lv.sa.state_names[q2 as usize]
            );
            let name = self.name();
            sink(Event::Test(NamedTest {
                name,
                purpose: Some(purpose),
                test,
            }));
        }
        let partners = self.levels[level].nested[q as usize].clone();
        for q2 in partners {
            // every merge was planned by the estimate (a plan past the budget is refused
            // before generation starts)
            let Some(m) = self.merge_level(level, q, q2) else {
                continue;
            };
            let title = format!(
                "{} ∧ {}",
                self.levels[level].sa.state_names[q as usize],
                self.levels[level].sa.state_names[q2 as usize]
            );
            let use_u = self.use_u.get(&(m, depth + 1)).copied().unwrap_or(true);
            let mut child = Suite::new(if use_u { "unconditional" } else { "n-complete" });
            child.role = SuiteRole::Distinguishing;
            child.parameters.insert("merge".into(), title.into());
            child
                .parameters
                .insert("after".into(), self.levels[0].sa.show(&full).into());
            child.parameters.insert("n".into(), self.n.into());
            let pre = full.clone();
            if !flatten {
                sink(Event::Begin(child));
            }
            if use_u {
                self.gen_unconditional(m, &pre, sink);
            } else {
                self.gen(m, &pre, depth + 1, sink);
            }
            if !flatten {
                sink(Event::End);
            }
        }
    }

    /// `U(M, n)` after `prefix` for merge level `m`.
    fn gen_unconditional(&mut self, m: usize, prefix: &[u16], sink: &mut dyn FnMut(Event)) {
        let flatten = self.opts.flatten_nested;
        let mut words = Vec::new();
        bounded_words(&self.levels[m].sa, self.n, u64::MAX, &mut |w, q| {
            words.push((w.to_vec(), q))
        });
        for (w, q) in words {
            let top = &self.levels[0].sa;
            let lv = &self.levels[m];
            let ctx = Ctx {
                local: &lv.sa,
                top,
                nested: true,
                flatten,
            };
            let full: Vec<u16> = prefix.iter().chain(&w).copied().collect();
            let test = follow(top, &full, Some(top.initial), &mut |tq| {
                ctx.observe(q, tq, &mut |_, _, _| pass("observed"))
            });
            let purpose = format!("unconditional: after {} observe", top.show(&full));
            let name = self.name();
            sink(Event::Test(NamedTest {
                name,
                purpose: Some(purpose),
                test,
            }));
        }
    }

    /// The outer suite's header (method and parameters), without tests.
    pub fn header(&self, est: &SizeEstimate) -> Suite {
        let mut suite = Suite::new("n-complete");
        suite.parameters.insert("n".into(), self.n.into());
        suite
            .parameters
            .insert("max_depth".into(), self.opts.max_depth.into());
        suite
            .parameters
            .insert("flatten_nested".into(), self.opts.flatten_nested.into());
        suite
            .parameters
            .insert("estimated_tests".into(), est.total_tests.into());
        suite
    }

    pub fn generate(&mut self, est: &SizeEstimate) -> Suite {
        let mut stack = vec![self.header(est)];
        self.gen(0, &[], 0, &mut |e| match e {
            Event::Test(t) => stack.last_mut().expect("open suite").tests.push(t),
            Event::Begin(s) => stack.push(s),
            Event::End => {
                let done = stack.pop().expect("open suite");
                stack.last_mut().expect("outer suite").suites.push(done);
            }
        });
        stack.pop().expect("outer suite")
    }

    /// Stream the suite: the outer suite's header first, then its tests and nested suites
    /// depth first, as they are generated.
    pub fn stream(&mut self, est: &SizeEstimate, sink: &mut dyn FnMut(Event)) {
        sink(Event::Begin(self.header(est)));
        self.gen(0, &[], 0, sink);
        sink(Event::End);
    }
}

/// Estimate, refuse if too large (naming the largest feasible n), else generate.
pub(crate) fn n_complete_sa(
    sa: Sa,
    n: usize,
    opts: &NCompleteOptions,
) -> Result<Suite, CompleteError> {
    let (mut g, est) = planned(sa, n, opts)?;
    Ok(g.generate(&est))
}

/// The generator of `T(S, n)` and its estimate, or the refusal naming the largest feasible n
/// (before any test is made).
pub(crate) fn planned(
    sa: Sa,
    n: usize,
    opts: &NCompleteOptions,
) -> Result<(Generator<'_>, SizeEstimate), CompleteError> {
    let mut g = Generator::new(sa, n, opts);
    let est = g.estimate();
    if est.total_tests <= opts.max_tests as f64 {
        g.check_budget()?;
    }
    if est.total_tests > opts.max_tests as f64 {
        let mut feasible = None;
        for m in 0..n {
            g.n = m;
            if g.estimate().total_tests <= opts.max_tests as f64 {
                feasible = Some(m);
            } else {
                break;
            }
        }
        return Err(CompleteError::TooLarge {
            n,
            estimated: est.total_tests,
            limit: opts.max_tests,
            feasible_n: feasible,
        });
    }
    Ok((g, est))
}

/// The unconditional suite `U(S, n)` on its own (thesis Def. 2.43).
pub(crate) fn unconditional_sa(sa: Sa, n: usize, max_tests: u64) -> Result<Suite, CompleteError> {
    let opts = NCompleteOptions {
        max_tests,
        ..Default::default()
    };
    let mut g = Generator::new(sa, n, &opts);
    let mut count = 0u64;
    let complete = bounded_words(&g.levels[0].sa, n, max_tests, &mut |_, _| count += 1);
    if !complete {
        return Err(CompleteError::TooLarge {
            n,
            estimated: f64::INFINITY,
            limit: max_tests,
            feasible_n: None,
        });
    }
    let mut suite = Suite::new("unconditional");
    suite.parameters.insert("n".into(), n.into());
    let mut words = Vec::new();
    bounded_words(&g.levels[0].sa, n, u64::MAX, &mut |w, q| {
        words.push((w.to_vec(), q))
    });
    for (w, q) in words {
        let name = g.name();
        let top = &g.levels[0].sa;
        let ctx = Ctx {
            local: top,
            top,
            nested: false,
            flatten: false,
        };
        let test: TestCase = follow(top, &w, Some(top.initial), &mut |tq| {
            ctx.observe(q, tq, &mut |_, _, _| pass("observed"))
        });
        suite.tests.push(NamedTest {
            name,
            purpose: Some(format!("after {} observe", top.show(&w))),
            test,
        });
    }
    Ok(suite)
}
