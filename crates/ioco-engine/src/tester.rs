//! The tester's side of one run over an LTS: the specification state (a state of the lazy
//! suspension automaton, shared by all runs of a worker), the trace, coverage, and the failure
//! an observation outside the specification is. Used by online testing, stored suites and
//! replay.
//!
//! Verdicts for a SUT that exits or crashes follow the exit rule of [`crate::rules`],
//! written once for every engine.

use crate::result::Failure;
use crate::trace::{Names, Trace};
use ioco_gen::Coverage;
use ioco_model::{Alphabet, Label, Lts, SaState, Suspension};
use std::sync::Arc;
use std::time::Duration;

/// The words before the labels in a record of [`Tester::nodes`]: `ni`, `no`.
const HEAD: usize = 2;

/// The tester's state for one worker: the lazy suspension automaton of the specification and
/// the coverage, both kept across runs; plus the current run's position and trace.
pub struct Tester<'a> {
    pub sus: Suspension<'a>,
    pub coverage: Coverage,
    pub q: SaState,
    /// Where the record of `q` starts in `nodes`.
    at: usize,
    /// The trace so far, as label indices (`Label.0`): with `names`, the [`Trace`] of the run.
    pub trace: Vec<u32>,
    /// An output line that is not a label (always the last thing of a failed run).
    pub garbage: Option<String>,
    pub steps: usize,
    /// Per suspension state, where its record starts in `nodes` (`u32::MAX`: not built yet).
    node_at: Vec<u32>,
    /// The records of the suspension states visited, built on first use: `[ni, no, ni inputs,
    /// no outputs and δ, ni + no targets, ni + no target records]`, labels sorted within each
    /// part, `targets[k]` the successor by the k-th label (a state stored as `Label(q)`) and
    /// `target records[k]` where its record starts, `u32::MAX` until the edge is first taken:
    /// the first step by an edge goes into `pending` for the coverage and fills the slot, so a
    /// step by an edge taken before reads one record and writes nothing but the position (the
    /// per-step cost does not depend on the size of the sets). One record per state, in one
    /// stretch of memory (two words per record and none per edge for "taken": a smaller
    /// working set for the cache), found from its predecessor's: a step reads one record,
    /// which is prefetched while the SUT takes its step. Private: the hot path reads the
    /// current record without bounds checks ([`Tester::record`]), which rests on every
    /// record start in `self.at` and in the target record slots being one `build_node` wrote.
    nodes: Vec<Label>,
    pending: Vec<(SaState, Label, SaState)>,
    /// Each label's text as written (`coin?`, `δ`), indexed by label, made once and shared by
    /// every trace of this tester: a kept trace is its label indices plus this table.
    names: Names,
}

impl<'a> Tester<'a> {
    /// A tester for `spec` under `policy`.
    pub fn new(spec: &'a Lts, policy: ioco_model::QuiescencePolicy) -> Tester<'a> {
        let sus = Suspension::new(spec, policy);
        let coverage = Coverage::new(spec);
        let mut t = Tester {
            sus,
            coverage,
            q: 0,
            at: 0,
            trace: Vec::new(),
            garbage: None,
            steps: 0,
            node_at: Vec::new(),
            nodes: Vec::new(),
            pending: Vec::new(),
            names: Arc::new(
                (0..spec.alphabet().len() as u32)
                    .map(|l| spec.alphabet().display(Label(l)).into())
                    .collect(),
            ),
        };
        t.start();
        t
    }

    /// The specification's alphabet.
    pub fn alphabet(&self) -> &'a Alphabet {
        self.sus.alphabet()
    }

    /// The specification.
    pub fn spec(&self) -> &'a Lts {
        self.sus.lts()
    }

    /// Coverage of the specification so far.
    pub fn coverage(&mut self) -> &Coverage {
        self.flush();
        &self.coverage
    }

    /// Bring the LTS coverage up to date with the suspension steps taken. Steps are recorded
    /// per suspension edge (a bit per edge, cheap), and each new suspension edge is turned into
    /// LTS coverage once, here: the per-step cost does not depend on the size of the sets.
    pub fn flush(&mut self) {
        let lts = self.sus.lts();
        for (q, l, t) in self.pending.drain(..) {
            self.coverage.step(lts, self.sus.set(q), l, self.sus.set(t));
        }
    }

    /// Suspension states discovered so far.
    pub fn num_discovered(&self) -> usize {
        self.sus.num_discovered()
    }

    /// Back to the initial state with an empty trace.
    pub fn start(&mut self) {
        self.q = self.sus.initial();
        self.at = self.node(self.q);
        self.trace.clear();
        self.garbage = None;
        self.steps = 0;
        let lts = self.sus.lts();
        self.coverage.visit(lts, self.sus.set(self.q));
    }

    /// The record of `q` in `nodes` (built on first use): its start.
    #[inline]
    pub fn node(&mut self, q: SaState) -> usize {
        match self.node_at.get(q as usize) {
            Some(&at) if at != u32::MAX => at as usize,
            _ => self.build_node(q),
        }
    }

    #[cold]
    fn build_node(&mut self, q: SaState) -> usize {
        let i = q as usize;
        if self.node_at.len() <= i {
            self.node_at.resize(i + 1, u32::MAX);
        }
        let a = self.sus.alphabet();
        let succ = self.sus.successors(q);
        let ins = succ.iter().filter(|p| a.is_input(p.0));
        let outs = succ.iter().filter(|p| !a.is_input(p.0));
        let (ni, no) = (ins.clone().count(), outs.clone().count());
        let start = self.nodes.len();
        self.nodes.extend([Label(ni as u32), Label(no as u32)]);
        self.nodes
            .extend(ins.clone().chain(outs.clone()).map(|p| p.0));
        self.nodes.extend(ins.chain(outs).map(|p| Label(p.1)));
        self.nodes
            .extend(std::iter::repeat_n(Label(u32::MAX), ni + no));
        self.node_at[i] = start as u32;
        start
    }

    /// The inputs enabled in the record at `at`, and its out-set (outputs and δ), sorted.
    #[inline]
    pub fn io_at(&self, at: usize) -> (&[Label], &[Label]) {
        let (ni, no) = (self.nodes[at].0 as usize, self.nodes[at + 1].0 as usize);
        let l = &self.nodes[at + HEAD..at + HEAD + ni + no];
        (&l[..ni], &l[ni..])
    }

    /// The current record: its number of inputs, its number of outputs (δ included), and its
    /// `3 (ni + no)` words after the header (labels, targets, target records). Read without
    /// bounds checks: the hot path reads it at every step (issue #30 item 4).
    #[inline(always)]
    fn record(&self) -> (usize, usize, &[Label]) {
        let (nodes, at) = (&self.nodes[..], self.at);
        debug_assert!(at + HEAD <= nodes.len());
        // SAFETY: `self.at` is always the start of a record `build_node` wrote (set by
        // `start` from `node`, by `step` from a filled target record slot, by `step_first`
        // from `node`): `HEAD` words `[ni, no]`, then `3 (ni + no)` words, all inside `nodes`,
        // which is private to this type, only grows, and whose headers are never rewritten.
        unsafe {
            let ni = nodes.get_unchecked(at).0 as usize;
            let no = nodes.get_unchecked(at + 1).0 as usize;
            debug_assert!(at + HEAD + 3 * (ni + no) <= nodes.len());
            let words = nodes.get_unchecked(at + HEAD..at + HEAD + 3 * (ni + no));
            (ni, no, words)
        }
    }

    /// Take the step by `l` from the current state, if the specification has it. The common
    /// case (an edge taken before) reads one record and writes nothing but the position; the
    /// rest is in [`Tester::step_first`].
    #[inline(always)]
    fn step(&mut self, l: Label) -> Option<SaState> {
        debug_assert_eq!(self.node_at[self.q as usize] as usize, self.at);
        let (ni, no, words) = self.record();
        let n = ni + no;
        let (labels, rest) = words.split_at(n);
        let (targets, records) = rest.split_at(n);
        let k = labels.iter().position(|&x| x == l)?;
        let (t, next) = (targets[k].0, records[k].0);
        if next == u32::MAX {
            return Some(self.step_first(k, n, l, t));
        }
        self.q = t;
        self.at = next as usize;
        // Ask for the next record now: its cache miss overlaps with the SUT's step.
        crate::sut::prefetch(&self.nodes[next as usize]);
        Some(t)
    }

    /// [`Tester::step`] by the `k`-th of the `n` edges of the current record (label `l`, target
    /// `t`), taken for the first time: it goes into `pending` for the coverage, and its
    /// target's record (found, or built) into the record's slot.
    #[cold]
    #[inline(never)]
    fn step_first(&mut self, k: usize, n: usize, l: Label, t: SaState) -> SaState {
        let at = self.at;
        self.pending.push((self.q, l, t));
        let next = self.node(t);
        self.nodes[at + HEAD + 2 * n + k] = Label(next as u32);
        self.q = t;
        self.at = next;
        crate::sut::prefetch(&self.nodes[next]);
        t
    }

    /// The inputs enabled in the current state and its out-set (outputs and δ), sorted.
    #[inline]
    pub fn io_now(&self) -> (&[Label], &[Label]) {
        let (ni, no, words) = self.record();
        words[..ni + no].split_at(ni)
    }

    /// The trace as written (`coin?`, `coffee!`, `δ`, and a garbage line as `line!`); empties
    /// the tester's trace. The labels are copied into the result in as few bytes each as the
    /// table needs ([`Trace::from_indices`]: one for up to 256 labels), and the tester keeps
    /// its buffer for the next run, whose steps then write to memory already in use: a run
    /// kept in full costs a quarter of the new pages it did, and no work per step (issue #30
    /// item 4). The text table is shared.
    pub fn take_trace(&mut self) -> Trace {
        let mut out = Trace::from_indices(&self.trace, self.names.clone());
        self.trace.clear();
        if let Some(g) = self.garbage.take() {
            out.push(format!("{g}!"));
        }
        out
    }

    /// [`Tester::take_trace`] if `traces` keeps the trace of a run with this verdict, else
    /// an empty trace (and the tester's is emptied).
    pub fn take_trace_for(
        &mut self,
        verdict: crate::RunVerdict,
        traces: crate::options::Traces,
    ) -> Trace {
        if traces == crate::options::Traces::Failures && verdict == crate::RunVerdict::Pass {
            self.trace.clear();
            self.garbage = None;
            return Trace::new();
        }
        self.take_trace()
    }

    /// Each label's text as written, indexed by label.
    pub fn names(&self) -> Names {
        self.names.clone()
    }

    /// The last entry of the trace, as written.
    pub fn last_text(&self) -> String {
        match (&self.garbage, self.trace.last()) {
            (Some(g), _) => format!("{g}!"),
            (None, Some(&l)) => self.names[l as usize].to_string(),
            (None, None) => String::new(),
        }
    }

    /// How long to wait for an output now: the rule of [`crate::timeouts`] in the current
    /// state, after the trace so far.
    #[inline]
    pub fn quiescence_timeout(&mut self, opts: &crate::OnlineOptions) -> Duration {
        match opts.timeouts.as_deref() {
            None => opts.quiescence_timeout,
            Some(t) => self.own_timeout(t, opts),
        }
    }

    fn own_timeout(&mut self, t: &crate::Timeouts, opts: &crate::OnlineOptions) -> Duration {
        let a = self.alphabet();
        let last_input = self
            .trace
            .last()
            .map(|&l| Label(l))
            .filter(|&l| a.is_input(l));
        t.for_observation(
            self.sus.set(self.q),
            self.io_now().1,
            last_input,
            opts.quiescence_timeout,
        )
    }

    /// out(q) as written.
    pub fn allowed(&mut self) -> Vec<String> {
        let a = self.alphabet();
        self.sus.out(self.q).iter().map(|&l| a.display(l)).collect()
    }

    /// The inputs enabled in the specification now.
    pub fn inputs(&mut self) -> Vec<Label> {
        self.sus.inputs(self.q)
    }

    /// Record an input given to the SUT. Returns false (and records nothing in the model) when
    /// the specification does not enable it: the trace then left the specification.
    #[inline(always)]
    pub fn input(&mut self, a: Label) -> bool {
        self.steps += 1;
        self.trace.push(a.0);
        self.step(a).is_some()
    }

    /// Record an observation (an output or δ); a failure if the specification does not allow
    /// it (tutorial Def. 6.2: leaving the specification through an output or δ).
    #[inline(always)]
    pub fn observe(&mut self, x: Label) -> Result<(), Failure> {
        self.steps += 1;
        self.trace.push(x.0);
        if self.step(x).is_some() {
            return Ok(());
        }
        Err(self.not_allowed(x))
    }

    /// The failure for an observation `x` the specification does not allow here.
    #[cold]
    #[inline(never)]
    fn not_allowed(&mut self, x: Label) -> Failure {
        let name = self.alphabet().display(x);
        let allowed = self.allowed();
        Failure {
            reason: if x == Label::DELTA {
                format!(
                    "quiescence where the specification requires an output ({})",
                    allowed.join(", ")
                )
            } else {
                format!(
                    "output {name} is not allowed here (allowed: {})",
                    allowed.join(", ")
                )
            },
            observed: name,
            allowed,
        }
    }

    /// The trace so far, for messages.
    pub fn trace_text(&self) -> String {
        let labels: Vec<Label> = self.trace.iter().map(|&l| Label(l)).collect();
        let mut t = self.alphabet().display_trace(&labels);
        if let Some(g) = &self.garbage {
            t.push_str(&format!(" {g}!"));
        }
        t
    }

    /// Whether quiescence is allowed now (δ ∈ out).
    pub fn quiescence_allowed(&mut self) -> bool {
        self.sus.is_quiescent(self.q)
    }

    /// out(q) = {δ}: quiescence and no output allowed.
    #[inline(always)]
    pub fn only_quiescence(&self) -> bool {
        // the record's out-set (see `io_at`) is the one label δ
        let (ni, no, words) = self.record();
        no == 1 && words.get(ni) == Some(&Label::DELTA)
    }

    /// Record a line the SUT wrote that is not an output of the model, and the failure it is.
    pub fn garbage_line(&mut self, line: &str) -> Failure {
        self.steps += 1;
        self.garbage = Some(line.to_string());
        let allowed = self.allowed();
        Failure {
            reason: format!(
                "the SUT wrote `{line}`, which is not an output of the model (allowed: {}){}",
                allowed.join(", "),
                marker_hint(line)
            ),
            observed: line.to_string(),
            allowed,
        }
    }
}

/// When a line the SUT wrote carries a `!`/`?` marker (`coffee!`): say that the marker is the
/// problem, as the wire format has output names without it (#35 item 6).
fn marker_hint(line: &str) -> String {
    let t = line.trim();
    let (bare, mark) = if let Some(b) = t.strip_suffix('!').or_else(|| t.strip_prefix('!')) {
        (b, '!')
    } else if let Some(b) = t.strip_suffix('?').or_else(|| t.strip_prefix('?')) {
        (b, '?')
    } else {
        return String::new();
    };
    if bare.is_empty() {
        return String::new();
    }
    format!(
        "; the `{mark}` is the problem: a SUT writes an output's name without a marker \
         (`{bare}`), the `!` of the model only says it is an output"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sut::SutError as AdapterError;

    #[test]
    fn a_marker_on_a_written_line_is_named() {
        let h = marker_hint("coffee!");
        assert!(h.contains("the `!` is the problem"), "{h}");
        assert!(h.contains("(`coffee`)"), "{h}");
        assert!(marker_hint("!coffee").contains("(`coffee`)"));
        assert!(marker_hint("tea?").contains("the `?` is the problem"));
        assert_eq!(marker_hint("coffee"), "");
        assert_eq!(marker_hint("!"), "");
    }
    use crate::RunVerdict;
    use ioco_model::{LabelKind, LtsBuilder, QuiescencePolicy};

    fn coffee() -> Lts {
        let mut b = LtsBuilder::new(Alphabet::new());
        b.add_states(2);
        b.add_initial(0);
        b.add(0, "coin", LabelKind::Input, 1).unwrap();
        b.add(1, "coffee", LabelKind::Output, 0).unwrap();
        b.build().unwrap()
    }

    #[test]
    fn traces_share_the_testers_table_and_a_garbage_line_gets_its_own_entry() {
        let spec = coffee();
        let a = spec.alphabet();
        let (coin, coffee) = (a.lookup("coin").unwrap(), a.lookup("coffee").unwrap());
        let mut t = Tester::new(&spec, QuiescencePolicy::Stable);
        assert!(t.input(coin));
        assert!(t.observe(coffee).is_ok());
        assert!(t.observe(Label::DELTA).is_ok());
        let first = t.take_trace();
        assert_eq!(first, ["coin?", "coffee!", "δ"]);
        assert!(t.trace.is_empty());

        t.start();
        assert!(t.input(coin));
        let opts = crate::OnlineOptions::default();
        let mut spec = crate::explicit::Explicit {
            tester: &mut t,
            opts: &opts,
        };
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(0);
        let end = crate::rules::sut_error(
            &mut spec,
            AdapterError::UnknownOutput {
                line: "cofee please".into(),
            },
            &mut rng,
        );
        assert_eq!(end.verdict, RunVerdict::Fail);
        assert_eq!(t.last_text(), "cofee please!");
        let second = t.take_trace();
        assert_eq!(second, ["coin?", "cofee please!"]);
        assert_eq!(
            serde_json::to_string(&second).unwrap(),
            r#"["coin?","cofee please!"]"#
        );

        // The garbage line went into a copy: the next run's trace is clean, the first is intact.
        t.start();
        assert!(t.input(coin));
        assert_eq!(t.take_trace(), ["coin?"]);
        assert_eq!(first, ["coin?", "coffee!", "δ"]);
        assert_eq!(t.names.len(), a.len());
    }

    #[test]
    fn steps_by_edges_past_the_64th_are_tracked_and_covered() {
        // One state with 70 input self-loops and a second state behind the last of them.
        let mut b = LtsBuilder::new(Alphabet::new());
        b.add_states(2);
        b.add_initial(0);
        for i in 0..70 {
            let t = if i == 69 { 1 } else { 0 };
            b.add(0, &format!("i{i:02}"), LabelKind::Input, t).unwrap();
        }
        b.add(1, "x", LabelKind::Output, 0).unwrap();
        let spec = b.build().unwrap();
        let a = spec.alphabet();
        let l = |n: &str| a.lookup(n).unwrap();
        let mut t = Tester::new(&spec, QuiescencePolicy::Stable);
        for _ in 0..2 {
            assert!(t.input(l("i68")));
            assert!(t.input(l("i03")));
            assert!(t.input(l("i69")));
            assert!(t.observe(l("x")).is_ok());
        }
        assert!(t.observe(l("x")).is_err(), "x is not allowed in state 0");
        assert_eq!(t.coverage().transitions_covered(), 4);
        assert_eq!(t.coverage().states_covered(), 2);
        assert_eq!(t.take_trace().len(), 9);
    }
}
