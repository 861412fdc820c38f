//! The deterministic suspension automaton as the algorithms of this crate see it
//! (thesis Def. 2.1 / Def. 3.1; journal 003 Def. 1): `T : Q × L ⇀ Q` a partial function,
//! δ an ordinary output, every state non-blocking (`out(q) ≠ ∅`).
//!
//! [`Sa`] is a dense copy of an [`Lts`]: labels are renumbered `0..k` (inputs and outputs,
//! δ counted as an output), the transition function is a `n × k` table, and each state also
//! keeps its enabled labels in a short sorted list. States flagged *chaotic* (≈ χ, thesis
//! L3075–3081) are never tested from.

use crate::CompleteError;
use ioco_model::{Label, LabelKind, Lts};

/// "No transition" in the dense table.
pub const NONE: u32 = u32::MAX;

/// A deterministic, non-blocking automaton with inputs and outputs (δ is an output).
#[derive(Clone, Debug)]
pub struct Sa {
    /// The model labels of the local labels `0..k`, in model label order.
    pub labels: Vec<Label>,
    /// Display form of each local label (`a?`, `x!`, `δ`).
    pub display: Vec<String>,
    /// Plain name of each local label (`a`, `x`, `δ`), as used in CCS terms.
    pub names: Vec<String>,
    /// `is_output[l]`: an output or δ.
    pub is_output: Vec<bool>,
    /// Initial state.
    pub initial: u32,
    /// State names.
    pub state_names: Vec<String>,
    /// States equivalent to chaos: never tested from, never merged.
    pub chaos: Vec<bool>,
    k: usize,
    table: Vec<u32>,
    en_off: Vec<u32>,
    en: Vec<(u16, u32)>,
}

impl Sa {
    /// `self`, when its state pairs are within [`crate::budget`]; else the error that says how
    /// large the pairwise relations would be.
    pub fn within_budget(self) -> Result<Sa, CompleteError> {
        crate::budget::check_pairs(self.n())?;
        Ok(self)
    }

    /// Read a deterministic suspension automaton. Errors: nondeterminism, τ, several initial
    /// states, a blocking state (no output and no δ), more than 65 535 labels.
    pub fn from_lts(lts: &Lts) -> Result<Sa, CompleteError> {
        let alpha = lts.alphabet();
        if lts.initial().len() != 1 {
            return Err(CompleteError::NotSuspensionAutomaton(format!(
                "{} initial states; a suspension automaton has one (build it with \
                 SuspensionAutomaton::build)",
                lts.initial().len()
            )));
        }
        // δ is always an output of the alphabet (an implementation may be quiescent even
        // where the specification never is).
        let mut labels: Vec<Label> = alpha.visible().collect();
        labels.insert(0, Label::DELTA);
        if labels.len() >= u16::MAX as usize {
            return Err(CompleteError::NotSuspensionAutomaton(
                "more than 65 534 labels".into(),
            ));
        }
        let mut local = vec![u16::MAX; alpha.len()];
        for (i, l) in labels.iter().enumerate() {
            local[l.index()] = i as u16;
        }
        let k = labels.len();
        let n = lts.num_states();
        let mut table = vec![NONE; n * k];
        let mut en_off = Vec::with_capacity(n + 1);
        let mut en = Vec::with_capacity(lts.num_transitions());
        en_off.push(0);
        for s in lts.states() {
            let mut has_out = false;
            for e in lts.edges(s) {
                if e.label.is_tau() {
                    return Err(CompleteError::NotSuspensionAutomaton(format!(
                        "state {} has a τ transition; build the suspension automaton first",
                        lts.state_name(s)
                    )));
                }
                let l = local[e.label.index()];
                let slot = &mut table[s as usize * k + l as usize];
                if *slot != NONE {
                    return Err(CompleteError::NotSuspensionAutomaton(format!(
                        "state {} has two {} transitions (nondeterministic); build the \
                         suspension automaton first",
                        lts.state_name(s),
                        alpha.display(e.label)
                    )));
                }
                *slot = e.target;
                en.push((l, e.target));
                has_out |= alpha.kind(e.label).is_observable_output();
            }
            if !has_out {
                return Err(CompleteError::NotSuspensionAutomaton(format!(
                    "state {} is blocking: it has no output and no δ; add quiescence \
                     (SuspensionAutomaton::build) first",
                    lts.state_name(s)
                )));
            }
            en_off.push(en.len() as u32);
        }
        let display = labels.iter().map(|&l| alpha.display(l)).collect();
        let names = labels
            .iter()
            .map(|&l| {
                if l == Label::DELTA {
                    "δ".to_string()
                } else {
                    alpha.name(l).to_string()
                }
            })
            .collect();
        let is_output = labels
            .iter()
            .map(|&l| alpha.kind(l).is_observable_output())
            .collect();
        Ok(Sa {
            labels,
            display,
            names,
            is_output,
            initial: lts.initial()[0],
            state_names: lts.states().map(|s| lts.state_name(s)).collect(),
            chaos: vec![false; n],
            k,
            table,
            en_off,
            en,
        })
    }

    /// Build from raw parts (used by merges). `trans` lists `(source, local label, target)`.
    pub(crate) fn from_parts(
        template: &Sa,
        n: usize,
        initial: u32,
        trans: &[(u32, u16, u32)],
        state_names: Vec<String>,
        chaos: Vec<bool>,
    ) -> Sa {
        let k = template.k;
        let mut table = vec![NONE; n * k];
        let mut rows: Vec<Vec<(u16, u32)>> = vec![Vec::new(); n];
        for &(s, l, t) in trans {
            table[s as usize * k + l as usize] = t;
            rows[s as usize].push((l, t));
        }
        let mut en_off = vec![0u32];
        let mut en = Vec::new();
        for mut r in rows {
            r.sort_unstable();
            en.extend(r);
            en_off.push(en.len() as u32);
        }
        Sa {
            labels: template.labels.clone(),
            display: template.display.clone(),
            names: template.names.clone(),
            is_output: template.is_output.clone(),
            initial,
            state_names,
            chaos,
            k,
            table,
            en_off,
            en,
        }
    }

    /// Number of states.
    #[inline]
    pub fn n(&self) -> usize {
        self.en_off.len() - 1
    }

    /// Number of labels (inputs, outputs, δ).
    #[inline]
    pub fn k(&self) -> usize {
        self.k
    }

    /// Number of transitions.
    pub fn num_transitions(&self) -> usize {
        self.en.len()
    }

    /// `T(q, l)`.
    #[inline]
    pub fn step(&self, q: u32, l: u16) -> Option<u32> {
        let t = self.table[q as usize * self.k + l as usize];
        (t != NONE).then_some(t)
    }

    /// The enabled labels of `q` with their targets, sorted by label.
    #[inline]
    pub fn enabled(&self, q: u32) -> &[(u16, u32)] {
        &self.en[self.en_off[q as usize] as usize..self.en_off[q as usize + 1] as usize]
    }

    /// out(q) with targets.
    pub fn outs(&self, q: u32) -> impl Iterator<Item = (u16, u32)> + '_ {
        self.enabled(q)
            .iter()
            .copied()
            .filter(|&(l, _)| self.is_output[l as usize])
    }

    /// in(q) with targets.
    pub fn ins(&self, q: u32) -> impl Iterator<Item = (u16, u32)> + '_ {
        self.enabled(q)
            .iter()
            .copied()
            .filter(|&(l, _)| !self.is_output[l as usize])
    }

    /// True when `l` is an output (or δ).
    #[inline]
    pub fn is_out(&self, l: u16) -> bool {
        self.is_output[l as usize]
    }

    /// Follow a word of local labels.
    pub fn run(&self, mut q: u32, word: &[u16]) -> Option<u32> {
        for &l in word {
            q = self.step(q, l)?;
        }
        Some(q)
    }

    /// Local label of a model label.
    pub fn local(&self, l: Label) -> Option<u16> {
        self.labels.iter().position(|&m| m == l).map(|i| i as u16)
    }

    /// Display a word of local labels (`ε` for the empty word).
    pub fn show(&self, word: &[u16]) -> String {
        if word.is_empty() {
            "ε".into()
        } else {
            word.iter()
                .map(|&l| self.display[l as usize].as_str())
                .collect::<Vec<_>>()
                .join(" ")
        }
    }

    /// The states reachable from the initial state (not passing through chaos states).
    pub fn reachable(&self) -> Vec<bool> {
        let mut seen = vec![false; self.n()];
        let mut stack = vec![self.initial];
        seen[self.initial as usize] = true;
        while let Some(q) = stack.pop() {
            if self.chaos[q as usize] {
                continue;
            }
            for &(_, t) in self.enabled(q) {
                if !seen[t as usize] {
                    seen[t as usize] = true;
                    stack.push(t);
                }
            }
        }
        seen
    }

    /// Output and input labels (local), in order.
    pub fn output_labels(&self) -> Vec<u16> {
        (0..self.k as u16).filter(|&l| self.is_out(l)).collect()
    }

    /// Input labels (local), in order.
    pub fn input_labels(&self) -> Vec<u16> {
        (0..self.k as u16).filter(|&l| !self.is_out(l)).collect()
    }

    /// Kind of a local label in the model alphabet terms.
    pub fn kind(&self, l: u16) -> LabelKind {
        if self.labels[l as usize] == Label::DELTA {
            LabelKind::Quiescence
        } else if self.is_out(l) {
            LabelKind::Output
        } else {
            LabelKind::Input
        }
    }
}

/// Index of the unordered pair `{p, q}`, `p ≠ q`, in a triangular array.
#[inline]
pub fn tri(p: u32, q: u32) -> usize {
    let (a, b) = if p < q { (p, q) } else { (q, p) };
    (b as usize) * (b as usize - 1) / 2 + a as usize
}

/// Size of a triangular array for `n` states.
#[inline]
pub fn tri_len(n: usize) -> usize {
    n * n.saturating_sub(1) / 2
}
