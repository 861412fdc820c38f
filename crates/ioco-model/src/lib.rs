//! # ioco-model
//!
//! The model core of ioco: labels with a direction ([`Label`], [`Alphabet`]), labelled
//! transition systems with inputs and outputs ([`Lts`]), quiescence ([`QuiescencePolicy`]),
//! suspension automata built lazily ([`Suspension`]) or in full ([`SuspensionAutomaton`]), and
//! the decision procedure for `impl ioco spec` on finite models ([`compare`]).
//!
//! ```
//! use ioco_model::{Alphabet, LtsBuilder, LabelKind, QuiescencePolicy, compare, CompareOptions};
//! // Tutorial Ex. 6.10: spec q -a?-> q, q -b!-> q; impl q -a?-> q.
//! let mut b = LtsBuilder::new(Alphabet::new());
//! b.add_state(); b.add_initial(0);
//! b.add(0, "a", LabelKind::Input, 0).unwrap();
//! b.add(0, "b", LabelKind::Output, 0).unwrap();
//! let spec = b.build().unwrap();
//! let mut b = LtsBuilder::new(Alphabet::new());
//! b.add_state(); b.add_initial(0);
//! b.add(0, "a", LabelKind::Input, 0).unwrap();
//! b.alphabet_mut().output("b").unwrap();
//! let imp = b.build().unwrap();
//! let verdict = compare(&imp, &spec, &CompareOptions::default()).unwrap();
//! let cex = verdict.counterexample.expect("quiescence where b! is required");
//! assert!(cex.trace.is_empty());
//! ```

pub mod compare;
pub mod divergence;
pub mod label;
pub mod lts;
pub mod mealy;
pub mod snippet;
pub mod suspension;
pub mod uioco;

pub use compare::{
    compare, CompareError, CompareOptions, Comparison, Counterexample, InputCompletion,
};
pub use label::{Alphabet, KindConflict, Label, LabelKind};
pub use lts::{BuildError, Edge, Lts, LtsBuilder, QuiescencePolicy, State};
pub use mealy::Mealy;
pub use suspension::{SaState, Suspension, SuspensionAutomaton, TooLarge};
pub use uioco::Relation;
