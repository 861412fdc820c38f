//! Labels and alphabets (tutorial Def. 4.1, Def. 4.8).
//!
//! A [`Label`] is an index into an [`Alphabet`]. Two labels are reserved in every alphabet:
//! [`Label::TAU`] (the internal action τ) and [`Label::DELTA`] (quiescence δ). All other labels
//! are visible and are either an input (`a?`) or an output (`b!`). The `?`/`!` markers are not
//! part of a label's name (tutorial P1:L153); they are its [`LabelKind`].

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::fmt;

/// An interned action label: an index into its [`Alphabet`].
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Label(pub u32);

impl Label {
    /// The internal action τ.
    pub const TAU: Label = Label(0);
    /// Quiescence δ (an observable "output" of the suspension semantics).
    pub const DELTA: Label = Label(1);

    /// The label's index, for use as a vector index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// True for τ.
    #[inline]
    pub fn is_tau(self) -> bool {
        self == Label::TAU
    }
}

/// The direction of a label.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LabelKind {
    /// An input `a?`: offered by the tester (environment) to the system.
    Input,
    /// An output `b!`: produced by the system.
    Output,
    /// The internal action τ.
    Internal,
    /// Quiescence δ: the observation that the system produces no output.
    Quiescence,
}

impl LabelKind {
    /// Outputs and δ: what a tester observes (tutorial's `L_O^δ`).
    pub fn is_observable_output(self) -> bool {
        matches!(self, LabelKind::Output | LabelKind::Quiescence)
    }
}

/// A name was declared with two kinds that cannot share it (kept for callers that refuse a
/// name used as an input and as an output; [`Alphabet::intern`] itself allows that: inputs
/// and outputs are two namespaces).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindConflict {
    /// The label name.
    pub name: String,
    /// The kind it already had.
    pub existing: LabelKind,
    /// The kind it was requested with.
    pub requested: LabelKind,
}

impl fmt::Display for KindConflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "label `{}` is used as {:?} but was already declared as {:?}",
            self.name, self.requested, self.existing
        )
    }
}

impl std::error::Error for KindConflict {}

/// An interning table of labels with their kinds. Index 0 is τ, index 1 is δ. Inputs and
/// outputs are two namespaces: `ApplicationData?` and `ApplicationData!` are two labels (a
/// Mealy machine may answer an input with an output of the same name), told apart by their
/// kind, as users write them (`?`/`!`); a name is never renamed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "AlphabetRepr", into = "AlphabetRepr")]
pub struct Alphabet {
    names: Vec<String>,
    kinds: Vec<LabelKind>,
    /// Per name, the input and the output of that name.
    index: FxHashMap<String, [Option<Label>; 2]>,
}

/// The slot of a visible kind in [`Alphabet`]'s index.
fn slot(kind: LabelKind) -> usize {
    usize::from(kind == LabelKind::Output)
}

/// Serialised form: the visible labels in index order, so label indices survive a round trip.
#[derive(Serialize, Deserialize)]
#[serde(transparent)]
struct AlphabetRepr(Vec<LabelRepr>);

#[derive(Serialize, Deserialize)]
struct LabelRepr {
    name: String,
    kind: LabelKind,
}

impl From<AlphabetRepr> for Alphabet {
    fn from(r: AlphabetRepr) -> Self {
        let mut a = Alphabet::new();
        for l in r.0 {
            // Inputs and outputs are two namespaces: a name may come twice, once per kind.
            let _ = a.intern(&l.name, l.kind);
        }
        a
    }
}

impl From<Alphabet> for AlphabetRepr {
    fn from(a: Alphabet) -> Self {
        AlphabetRepr(
            a.visible()
                .map(|l| LabelRepr {
                    name: a.name(l).to_string(),
                    kind: a.kind(l),
                })
                .collect(),
        )
    }
}

impl Default for Alphabet {
    fn default() -> Self {
        Self::new()
    }
}

impl Alphabet {
    /// An alphabet holding only τ and δ.
    pub fn new() -> Self {
        Alphabet {
            names: vec!["tau".into(), "delta".into()],
            kinds: vec![LabelKind::Internal, LabelKind::Quiescence],
            index: FxHashMap::default(),
        }
    }

    /// Intern `name` with `kind`. Interning an existing name with the same kind returns the
    /// existing label; with the other kind it is another label (inputs and outputs are two
    /// namespaces). τ and δ cannot be interned by name: use [`Label::TAU`] and
    /// [`Label::DELTA`]. Never fails today; the `Result` is kept for the callers.
    pub fn intern(&mut self, name: &str, kind: LabelKind) -> Result<Label, KindConflict> {
        match kind {
            LabelKind::Internal => return Ok(Label::TAU),
            LabelKind::Quiescence => return Ok(Label::DELTA),
            _ => {}
        }
        if let Some(l) = self.index.get(name).and_then(|e| e[slot(kind)]) {
            return Ok(l);
        }
        let l = Label(self.names.len() as u32);
        self.names.push(name.to_string());
        self.kinds.push(kind);
        self.index.entry(name.to_string()).or_default()[slot(kind)] = Some(l);
        Ok(l)
    }

    /// Convenience: intern an input.
    pub fn input(&mut self, name: &str) -> Result<Label, KindConflict> {
        self.intern(name, LabelKind::Input)
    }

    /// Convenience: intern an output.
    pub fn output(&mut self, name: &str) -> Result<Label, KindConflict> {
        self.intern(name, LabelKind::Output)
    }

    /// Look a visible label up by name: the input of that name, else the output. Where both
    /// may exist, say which with [`Alphabet::lookup_kind`] or [`Alphabet::parse`].
    pub fn lookup(&self, name: &str) -> Option<Label> {
        self.index.get(name).and_then(|e| e[0].or(e[1]))
    }

    /// The input (`kind` Input) or the output (Output) named `name`.
    pub fn lookup_kind(&self, name: &str, kind: LabelKind) -> Option<Label> {
        match kind {
            LabelKind::Input | LabelKind::Output => {
                self.index.get(name).and_then(|e| e[slot(kind)])
            }
            LabelKind::Internal => Some(Label::TAU),
            LabelKind::Quiescence => Some(Label::DELTA),
        }
    }

    /// A label as users write it: `coin?` is the input, `tea!` the output; a bare name is the
    /// input of that name, else the output ([`Alphabet::lookup`]).
    pub fn parse(&self, text: &str) -> Option<Label> {
        if let Some(n) = text.strip_suffix('?') {
            self.lookup_kind(n, LabelKind::Input)
        } else if let Some(n) = text.strip_suffix('!') {
            self.lookup_kind(n, LabelKind::Output)
        } else {
            self.lookup(text)
        }
    }

    /// The number of labels, τ and δ included.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// True when there are no visible labels.
    pub fn is_empty(&self) -> bool {
        self.names.len() == 2
    }

    /// The name of a label, without `?`/`!` (τ is `tau`, δ is `delta`).
    pub fn name(&self, l: Label) -> &str {
        &self.names[l.index()]
    }

    /// The kind of a label.
    pub fn kind(&self, l: Label) -> LabelKind {
        self.kinds[l.index()]
    }

    /// True when `l` is an input.
    #[inline]
    pub fn is_input(&self, l: Label) -> bool {
        self.kinds[l.index()] == LabelKind::Input
    }

    /// True when `l` is an output (δ excluded).
    #[inline]
    pub fn is_output(&self, l: Label) -> bool {
        self.kinds[l.index()] == LabelKind::Output
    }

    /// All visible labels (inputs and outputs) in index order.
    pub fn visible(&self) -> impl Iterator<Item = Label> + '_ {
        (2..self.names.len() as u32).map(Label)
    }

    /// All inputs in index order.
    pub fn inputs(&self) -> impl Iterator<Item = Label> + '_ {
        self.visible().filter(|&l| self.is_input(l))
    }

    /// All outputs (δ excluded) in index order.
    pub fn outputs(&self) -> impl Iterator<Item = Label> + '_ {
        self.visible().filter(|&l| self.is_output(l))
    }

    /// Every label, τ and δ included, in index order.
    pub fn all(&self) -> impl Iterator<Item = Label> {
        (0..self.names.len() as u32).map(Label)
    }

    /// A label as users write it: `a?`, `b!`, `τ`, `δ`.
    pub fn display(&self, l: Label) -> String {
        match self.kind(l) {
            LabelKind::Input => format!("{}?", self.name(l)),
            LabelKind::Output => format!("{}!", self.name(l)),
            LabelKind::Internal => "τ".to_string(),
            LabelKind::Quiescence => "δ".to_string(),
        }
    }

    /// Display a sequence of labels separated by spaces; `ε` for the empty one.
    pub fn display_trace(&self, trace: &[Label]) -> String {
        if trace.is_empty() {
            return "ε".to_string();
        }
        trace
            .iter()
            .map(|&l| self.display(l))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Map every label of `self` to the label of the same name and kind in `other`.
    /// τ and δ map to themselves; a visible label missing from `other` (or with another kind)
    /// maps to `None`.
    pub fn translation_to(&self, other: &Alphabet) -> Vec<Option<Label>> {
        self.all()
            .map(|l| match self.kind(l) {
                LabelKind::Internal => Some(Label::TAU),
                LabelKind::Quiescence => Some(Label::DELTA),
                k => other.lookup_kind(self.name(l), k),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_is_idempotent_and_kinds_are_namespaces() {
        let mut a = Alphabet::new();
        let x = a.input("a").unwrap();
        assert_eq!(a.input("a").unwrap(), x);
        // inputs and outputs are two namespaces
        let y = a.output("a").unwrap();
        assert_ne!(x, y);
        assert_eq!(a.output("a").unwrap(), y);
        assert_eq!(a.lookup("a"), Some(x));
        assert_eq!(a.lookup_kind("a", LabelKind::Output), Some(y));
        assert_eq!(a.parse("a!"), Some(y));
        assert_eq!(a.parse("a?"), Some(x));
        assert_eq!(a.display(y), "a!");
        assert_eq!(a.display(x), "a?");
        assert_eq!(a.display(Label::DELTA), "δ");
        assert_eq!(a.display_trace(&[]), "ε");
    }

    #[test]
    fn json_round_trip_keeps_labels() {
        let mut a = Alphabet::new();
        a.input("coin").unwrap();
        a.output("tea").unwrap();
        let s = serde_json::to_string(&a).unwrap();
        let b: Alphabet = serde_json::from_str(&s).unwrap();
        assert_eq!(b.lookup("tea"), a.lookup("tea"));
    }
}
