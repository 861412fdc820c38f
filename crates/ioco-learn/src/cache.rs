//! Output queries (L#'s `OutputQuery`, TACAS 2022 §3) answered through the observation tree,
//! which is the membership-query cache: a word whose path is in the tree costs nothing; any
//! other word is run on the system from a reset and its outputs are added to the tree.
//!
//! Here the counting happens (queries asked, answered from the cache, resets, symbols), the
//! budget is enforced (resets, time), and nondeterminism is detected: every run of a word
//! whose prefix is in the tree compares what the system says with what the tree holds, and
//! with `repetitions > 1` each new word is run again that many times. A different answer is an
//! error naming the word and both answers; the learner never goes on with a wrong tree.
//!
//! A cache file ([`Cache::open_file`], `ioco learn --cache FILE`) keeps the tree across
//! sessions: every run on the system is appended as a JSON line (its inputs and outputs) when
//! it ends, and a session that opens the file first adds every line to the tree, so an
//! interrupted learning resumes with every answer it had and runs no word the file answers.
//!
//! Adaptive queries ([`Cache::adaptive`]) choose each next input from the output just observed:
//! the adaptive distinguishing sequences of L# with ADS (§4, "Adaptive distinguishing
//! sequences"), computed greedily from the tree.

use crate::system::{late, show_output, System};
use crate::tree::{Node, ObservationTree};
use crate::LearnError;
use serde::Serialize;
use std::collections::HashMap;
use std::time::{Duration, Instant};

fn interrupted() -> LearnError {
    LearnError::Budget("learning was interrupted".into())
}

/// A failing system, unless the session was stopped (which kills the system).
fn failed(e: ioco_engine::SutError) -> LearnError {
    if crate::stop::stopped() {
        interrupted()
    } else {
        LearnError::System(e)
    }
}

/// What learning cost so far.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Output queries asked by the learner (words, adaptive ones included).
    pub queries: u64,
    /// Of those, answered by the tree without the system.
    pub cache_hits: u64,
    /// Resets of the system (each run of a word on it starts with one).
    pub resets: u64,
    /// Inputs given to the system (total symbols).
    pub symbols: u64,
    /// Words of equivalence oracles run on the system.
    pub tests: u64,
    /// Of the symbols, those given by the words of equivalence oracles.
    pub test_symbols: u64,
    /// Hypotheses built (equivalence queries asked).
    pub hypotheses: u64,
    /// Wall-clock time so far, in milliseconds.
    pub millis: u64,
}

/// Limits of a learning session; `None` is no limit.
#[derive(Copy, Clone, Debug, Default)]
pub struct Budget {
    /// At most this many resets (runs of a word on the system).
    pub max_resets: Option<u64>,
    /// At most this much wall-clock time.
    pub max_time: Option<Duration>,
}

/// The system, the tree and the counters.
pub struct Cache<'a> {
    system: System<'a>,
    /// The observation tree.
    pub tree: ObservationTree,
    inputs: Vec<String>,
    outputs: Vec<String>,
    index: HashMap<String, u32>,
    /// The counters.
    pub stats: Stats,
    budget: Budget,
    started: Instant,
    repetitions: usize,
    /// Longest reaction seen to be required for an adaptive query (a bound, see `adaptive`).
    max_adaptive: usize,
    /// The cache file and the run under way (inputs, outputs), written when it ends.
    journal: Option<(std::io::BufWriter<std::fs::File>, String)>,
    current: Vec<(u32, u32)>,
}

/// The first line of a cache file.
#[derive(serde::Serialize, serde::Deserialize)]
struct Header {
    ioco_learn_cache: u32,
    inputs: Vec<String>,
}

/// A run of a word on the system, a line of a cache file.
#[derive(serde::Serialize, serde::Deserialize)]
struct Record {
    inputs: Vec<String>,
    outputs: Vec<String>,
}

impl<'a> Cache<'a> {
    /// A cache over `system` for its inputs.
    pub fn new(system: System<'a>, budget: Budget, repetitions: usize) -> Self {
        let inputs = system.inputs().to_vec();
        Cache {
            system,
            tree: ObservationTree::new(inputs.len()),
            inputs,
            outputs: Vec::new(),
            index: HashMap::new(),
            stats: Stats::default(),
            budget,
            started: Instant::now(),
            repetitions: repetitions.max(1),
            max_adaptive: 10_000,
            journal: None,
            current: Vec::new(),
        }
    }

    /// Use `path` as the cache file: add the runs it holds to the tree (the number of runs
    /// read), then append every new run to it. A file made for other inputs, or whose answers
    /// disagree, is an error naming its line.
    pub fn open_file(&mut self, path: &std::path::Path) -> Result<usize, LearnError> {
        use std::io::{BufRead, Write};
        let shown = path.display().to_string();
        let bad = |line: usize, what: String| LearnError::Cache(format!("{shown}:{line}: {what}"));
        let mut runs = 0;
        let exists = path.exists()
            && std::fs::metadata(path)
                .map(|m| m.len() > 0)
                .unwrap_or(false);
        if exists {
            let file = std::fs::File::open(path)
                .map_err(|e| LearnError::Cache(format!("cannot read {shown}: {e}")))?;
            for (k, line) in std::io::BufReader::new(file).lines().enumerate() {
                let line =
                    line.map_err(|e| LearnError::Cache(format!("cannot read {shown}: {e}")))?;
                if k == 0 {
                    let h: Header = serde_json::from_str(&line)
                        .map_err(|e| bad(1, format!("not a cache file of ioco learn ({e})")))?;
                    let (mut a, mut b) = (h.inputs.clone(), self.inputs.clone());
                    a.sort();
                    b.sort();
                    if a != b {
                        return Err(bad(
                            1,
                            format!(
                                "made for the inputs `{}`, not `{}` (use another cache file)",
                                h.inputs.join(","),
                                self.inputs.join(",")
                            ),
                        ));
                    }
                    continue;
                }
                if line.trim().is_empty() {
                    continue;
                }
                let r: Record = match serde_json::from_str(&line) {
                    Ok(r) => r,
                    // the last line of a session that was killed while writing it
                    Err(e) if e.is_eof() => break,
                    Err(e) => return Err(bad(k + 1, format!("not a run ({e})"))),
                };
                if r.inputs.len() != r.outputs.len() {
                    return Err(bad(k + 1, "as many outputs as inputs expected".into()));
                }
                let mut node = self.tree.root();
                for (i, o) in r.inputs.iter().zip(r.outputs) {
                    let Some(i) = self.inputs.iter().position(|x| x == i) else {
                        return Err(bad(k + 1, format!("`{i}` is not an input")));
                    };
                    let o = self.intern(o);
                    match self.tree.output(node, i as u32) {
                        Some(p) if p != o => {
                            return Err(bad(
                                k + 1,
                                format!(
                                    "the inputs `{}` gave `{}` here and `{}` on an earlier line \
                                     (the file holds answers of two systems?)",
                                    r.inputs.join(" "),
                                    show_output(&self.outputs[o as usize]),
                                    show_output(&self.outputs[p as usize])
                                ),
                            ))
                        }
                        _ => node = self.tree.add(node, i as u32, o),
                    }
                }
                runs += 1;
            }
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| LearnError::Cache(format!("cannot write {shown}: {e}")))?;
        let mut w = std::io::BufWriter::new(file);
        if !exists {
            let h = Header {
                ioco_learn_cache: 1,
                inputs: self.inputs.clone(),
            };
            writeln!(w, "{}", serde_json::to_string(&h).expect("serialisable"))
                .and_then(|_| w.flush())
                .map_err(|e| LearnError::Cache(format!("cannot write {shown}: {e}")))?;
        }
        self.journal = Some((w, shown));
        Ok(runs)
    }

    /// Write the run under way to the cache file (when a run ends: the next reset, the end of
    /// the session).
    pub fn flush_run(&mut self) -> Result<(), LearnError> {
        use std::io::Write;
        let run = std::mem::take(&mut self.current);
        let Some((w, shown)) = self.journal.as_mut() else {
            return Ok(());
        };
        if run.is_empty() {
            return Ok(());
        }
        let r = Record {
            inputs: run
                .iter()
                .map(|&(i, _)| self.inputs[i as usize].clone())
                .collect(),
            outputs: run
                .iter()
                .map(|&(_, o)| self.outputs[o as usize].clone())
                .collect(),
        };
        writeln!(w, "{}", serde_json::to_string(&r).expect("serialisable"))
            .and_then(|_| w.flush())
            .map_err(|e| LearnError::Cache(format!("cannot write {shown}: {e}")))
    }

    /// The inputs.
    pub fn inputs(&self) -> &[String] {
        &self.inputs
    }

    /// The outputs seen so far, by number.
    pub fn outputs(&self) -> &[String] {
        &self.outputs
    }

    /// The counters, with the time updated.
    pub fn stats(&mut self) -> Stats {
        self.stats.millis = self.started.elapsed().as_millis() as u64;
        self.stats
    }

    /// The system (e.g. to close it).
    pub fn into_system(self) -> System<'a> {
        self.system
    }

    fn intern(&mut self, o: String) -> u32 {
        if let Some(&k) = self.index.get(&o) {
            return k;
        }
        let k = self.outputs.len() as u32;
        self.index.insert(o.clone(), k);
        self.outputs.push(o);
        k
    }

    /// The input names of a word.
    pub fn names(&self, word: &[u32]) -> Vec<String> {
        word.iter()
            .map(|&i| self.inputs[i as usize].clone())
            .collect()
    }

    fn check_budget(&mut self) -> Result<(), LearnError> {
        if crate::stop::stopped() {
            return Err(interrupted());
        }
        if let Some(m) = self.budget.max_resets {
            if self.stats.resets >= m {
                return Err(LearnError::Budget(format!(
                    "the query budget of {m} runs on the system is spent"
                )));
            }
        }
        if let Some(t) = self.budget.max_time {
            if self.started.elapsed() >= t {
                return Err(LearnError::Budget(format!(
                    "the time budget of {} s is spent",
                    t.as_secs_f64()
                )));
            }
        }
        Ok(())
    }

    fn reset(&mut self) -> Result<(), LearnError> {
        self.flush_run()?;
        self.check_budget()?;
        self.stats.resets += 1;
        self.system.reset().map_err(failed)
    }

    /// One step from `node` (reached by `done`, the inputs given since the reset): give
    /// `input`, check the output against the tree, record it; the child.
    fn step(&mut self, node: Node, done: &[u32], input: u32) -> Result<(Node, u32), LearnError> {
        let name = &self.inputs[input as usize];
        let o = self.system.step(name).map_err(failed)?;
        self.stats.symbols += 1;
        let oid = self.intern(o);
        if let Some(prev) = self.tree.output(node, input) {
            if prev != oid {
                let mut word = done.to_vec();
                word.push(input);
                let before = self.tree.outputs_along(&word);
                let mut now = before.clone();
                *now.last_mut().expect("one output at least") = oid;
                let show = |w: &[u32]| {
                    w.iter()
                        .map(|&o| show_output(&self.outputs[o as usize]))
                        .collect()
                };
                let (first, second) = (show(&before), show(&now));
                let (a, b) = (&self.outputs[prev as usize], &self.outputs[oid as usize]);
                if let Some(timeout) = self.system.quiescence_timeout().filter(|_| late(a, b)) {
                    return Err(LearnError::Late {
                        inputs: self.names(&word),
                        first,
                        second,
                        timeout,
                    });
                }
                return Err(LearnError::Nondeterministic {
                    inputs: self.names(&word),
                    first,
                    second,
                });
            }
        }
        self.current.push((input, oid));
        Ok((self.tree.add(node, input, oid), oid))
    }

    /// Run `word` from a reset, stopping after the first position where `stop` says so; the
    /// number of inputs given.
    fn run(
        &mut self,
        word: &[u32],
        stop: &mut dyn FnMut(usize, u32) -> bool,
    ) -> Result<usize, LearnError> {
        self.reset()?;
        let mut node = self.tree.root();
        for (pos, &i) in word.iter().enumerate() {
            let (c, o) = self.step(node, &word[..pos], i)?;
            node = c;
            if stop(pos, o) {
                return Ok(pos + 1);
            }
        }
        Ok(word.len())
    }

    /// Run `word` again `repetitions - 1` times (the tree now holds its answer, so a
    /// different one is reported as nondeterminism).
    fn repeat(&mut self, word: &[u32]) -> Result<(), LearnError> {
        for _ in 1..self.repetitions {
            self.run(word, &mut |_, _| false)?;
        }
        Ok(())
    }

    /// Make sure the tree has `word` (an output query).
    pub fn query(&mut self, word: &[u32]) -> Result<(), LearnError> {
        self.stats.queries += 1;
        if self.tree.walk(self.tree.root(), word).is_some() {
            self.stats.cache_hits += 1;
            return Ok(());
        }
        self.run(word, &mut |_, _| false)?;
        self.repeat(word)
    }

    /// Run a test word of an equivalence oracle, stopping at the first output that differs
    /// from `expected` (the hypothesis' outputs); the prefix up to that output, if any.
    pub fn test(&mut self, word: &[u32], expected: &[u32]) -> Result<Option<Vec<u32>>, LearnError> {
        self.stats.queries += 1;
        if self.tree.walk(self.tree.root(), word).is_some() {
            // the tree is consistent with the hypothesis when the oracle runs
            self.stats.cache_hits += 1;
            let got = self.tree.outputs_along(word);
            return Ok(got
                .iter()
                .zip(expected)
                .position(|(a, b)| a != b)
                .map(|p| word[..=p].to_vec()));
        }
        self.stats.tests += 1;
        let before = self.stats.symbols;
        let mut differs = None;
        let n = self.run(word, &mut |pos, o| {
            if expected.get(pos) != Some(&o) {
                differs = Some(pos);
                true
            } else {
                false
            }
        })?;
        self.repeat(&word[..n])?;
        self.stats.test_symbols += self.stats.symbols - before;
        Ok(differs.map(|p| word[..=p].to_vec()))
    }

    /// An adaptive query: run `prefix` from a reset, then tell apart the nodes `cands` (nodes
    /// the node reached may be equivalent to) by choosing each input from what the tree knows
    /// of the candidates still consistent with the outputs observed: an input on which they
    /// give the most different outputs, else the first input of a witness of two of them.
    /// Stops when at most one candidate is left or none of them are known to differ.
    pub fn adaptive(&mut self, prefix: &[u32], cands: &[Node]) -> Result<(), LearnError> {
        self.stats.queries += 1;
        let mut word = prefix.to_vec();
        let known = self.tree.walk(self.tree.root(), prefix);
        let mut current: Vec<Node> = cands.to_vec();
        // Follow the tree as long as it already knows the answers: no system needed.
        let mut node = known;
        let mut ran = false;
        if node.is_none() {
            self.run(prefix, &mut |_, _| false)?;
            node = self.tree.walk(self.tree.root(), prefix);
            ran = true;
        }
        let mut node = node.expect("the prefix was run");
        let k = self.tree.num_inputs() as u32;
        let mut steps = 0;
        while current.len() > 1 && steps < self.max_adaptive {
            let Some(i) = self.choose(&current, k) else {
                break;
            };
            if !ran {
                if let Some(c) = self.tree.child(node, i) {
                    // known: follow without running
                    let o = self.tree.output(node, i).expect("edge");
                    current = self.follow(&current, i, o);
                    node = c;
                    word.push(i);
                    steps += 1;
                    continue;
                }
                self.run(&word, &mut |_, _| false)?;
                ran = true;
            }
            let (c, o) = self.step(node, &word, i)?;
            word.push(i);
            node = c;
            current = self.follow(&current, i, o);
            steps += 1;
        }
        if ran {
            self.repeat(&word)?;
        } else {
            self.stats.cache_hits += 1;
        }
        Ok(())
    }

    /// The candidates' successors on `i` that gave output `o`.
    fn follow(&self, current: &[Node], i: u32, o: u32) -> Vec<Node> {
        current
            .iter()
            .filter_map(|&c| match (self.tree.child(c, i), self.tree.output(c, i)) {
                (Some(n), Some(p)) if p == o => Some(n),
                _ => None,
            })
            .collect()
    }

    /// The next input of an adaptive query over `current` (see [`Cache::adaptive`]).
    fn choose(&self, current: &[Node], k: u32) -> Option<u32> {
        let mut best: Option<(u64, u32)> = None;
        let mut counts: HashMap<u32, u64> = HashMap::new();
        for i in 0..k {
            counts.clear();
            let mut defined = 0u64;
            for &c in current {
                if let Some(o) = self.tree.output(c, i) {
                    *counts.entry(o).or_default() += 1;
                    defined += 1;
                }
            }
            if counts.len() < 2 {
                continue;
            }
            // pairs told apart by this input
            let same: u64 = counts.values().map(|g| g * g).sum();
            let score = (defined * defined - same) / 2;
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, i));
            }
        }
        if let Some((_, i)) = best {
            return Some(i);
        }
        // No single input separates: the first input of a shortest witness of two of them.
        let mut shortest: Option<Vec<u32>> = None;
        for (a, &x) in current.iter().enumerate() {
            for &y in &current[a + 1..] {
                if let Some(w) = self.tree.witness(x, y) {
                    if shortest.as_ref().is_none_or(|s| w.len() < s.len()) {
                        shortest = Some(w);
                    }
                }
            }
            if shortest.is_some() {
                break;
            }
        }
        shortest.map(|w| w[0])
    }
}
