//! Building [`TestCase`] trees: an access sequence followed by an experiment, checked
//! against the specification at every step (the global ioco oracle of thesis §2.7.4,
//! L3172–3179: a trace leaves `traces(S)` with an output ⇒ **fail**; thesis Def. 2.6).
//!
//! * While the access sequence is followed, an allowed output other than the expected one
//!   (or an output racing ahead of an input) ends the run **inconclusive**: reset and retry
//!   (thesis L3136–3162, output and input fairness).
//! * In an experiment of a nested merge suite, an output the specification allows but the
//!   merge does not means "distinguished" (thesis Ex. 2.39): **fail** in a
//!   [`SuiteRole::Distinguishing`](ioco_gen::SuiteRole) suite, or **pass** when nested suites
//!   are flattened into the outer suite.
//!
//! The oracle state is `None` after an input the specification does not specify (the demonic
//! completion's χ: everything is allowed from then on).

use crate::sa::Sa;
use ioco_gen::{Branch, TestCase, Verdict};

/// Context of an experiment.
pub(crate) struct Ctx<'a> {
    /// The automaton the experiment was computed on (the specification or a merge).
    pub local: &'a Sa,
    /// The specification: the oracle.
    pub top: &'a Sa,
    /// The experiment belongs to a merge suite: leaving `local` means "distinguished".
    pub nested: bool,
    /// Nested suites are flattened: "distinguished" is a pass.
    pub flatten: bool,
}

pub(crate) fn retry() -> TestCase {
    TestCase::leaf_because(
        Verdict::Inconclusive,
        "the implementation left the access sequence: reset and retry",
    )
}

pub(crate) fn raced() -> TestCase {
    TestCase::leaf_because(
        Verdict::Inconclusive,
        "an output raced ahead of the input: reset and retry",
    )
}

pub(crate) fn pass(reason: impl Into<String>) -> TestCase {
    TestCase::leaf_because(Verdict::Pass, reason)
}

impl Ctx<'_> {
    fn distinguished(&self) -> TestCase {
        if self.flatten {
            pass("distinguished: the implementation left the merge")
        } else {
            TestCase::leaf_because(
                Verdict::Fail,
                "distinguished: the implementation left the merge (not a non-conformance)",
            )
        }
    }

    fn off_local(&self) -> TestCase {
        if self.nested {
            self.distinguished()
        } else {
            pass("experiment ended")
        }
    }

    fn verdict_of(t: &TestCase) -> Verdict {
        match t {
            TestCase::Leaf { verdict, .. } => *verdict,
            _ => Verdict::Inconclusive,
        }
    }

    /// Observe at local state `lq`, oracle state `tq`; `cont` gives the continuation for the
    /// outputs `lq` enables.
    pub fn observe(
        &self,
        lq: u32,
        tq: Option<u32>,
        cont: &mut dyn FnMut(u16, u32, Option<u32>) -> TestCase,
    ) -> TestCase {
        let mut branches = Vec::new();
        for (x, l2) in self.local.outs(lq) {
            let t2 = match tq {
                Some(t) => match self.top.step(t, x) {
                    Some(t2) => Some(t2),
                    None => continue, // not allowed: `otherwise` fails
                },
                None => None,
            };
            branches.push(Branch {
                label: self.local.display[x as usize].clone(),
                then: cont(x, l2, t2),
            });
        }
        let otherwise = match tq {
            Some(t) => {
                for (x, _) in self.top.outs(t) {
                    if self.local.step(lq, x).is_none() {
                        branches.push(Branch {
                            label: self.top.display[x as usize].clone(),
                            then: self.off_local(),
                        });
                    }
                }
                Verdict::Fail
            }
            None => Self::verdict_of(&self.off_local()),
        };
        branches.sort_by(|a, b| a.label.cmp(&b.label));
        TestCase::Observe {
            branches,
            otherwise,
        }
    }

    /// Apply input `a` at local state `lq` (which enables it); outputs racing ahead retry.
    pub fn stimulate(&self, a: u16, lq: u32, tq: Option<u32>, after: TestCase) -> TestCase {
        let mut branches = Vec::new();
        let otherwise = match tq {
            Some(t) => {
                for (x, _) in self.top.outs(t) {
                    let then = if self.local.step(lq, x).is_some() {
                        raced()
                    } else {
                        self.off_local()
                    };
                    if self.top.labels[x as usize] != ioco_model::Label::DELTA {
                        branches.push(Branch {
                            label: self.top.display[x as usize].clone(),
                            then,
                        });
                    }
                }
                Verdict::Fail
            }
            None => {
                for (x, _) in self.local.outs(lq) {
                    if self.local.labels[x as usize] != ioco_model::Label::DELTA {
                        branches.push(Branch {
                            label: self.local.display[x as usize].clone(),
                            then: raced(),
                        });
                    }
                }
                Self::verdict_of(&self.off_local())
            }
        };
        TestCase::Stimulate {
            input: self.local.display[a as usize].clone(),
            after: Box::new(after),
            branches,
            otherwise,
        }
    }
}

/// Follow `word` (local labels of `top`) from oracle state `tq`, then `tail(oracle state)`.
pub(crate) fn follow(
    top: &Sa,
    word: &[u16],
    tq: Option<u32>,
    tail: &mut dyn FnMut(Option<u32>) -> TestCase,
) -> TestCase {
    let Some((&mu, rest)) = word.split_first() else {
        return tail(tq);
    };
    let next = tq.and_then(|t| top.step(t, mu));
    if top.is_out(mu) {
        let mut branches = Vec::new();
        let otherwise = match tq {
            Some(t) => {
                for (x, _) in top.outs(t) {
                    let then = if x == mu {
                        follow(top, rest, next, tail)
                    } else {
                        retry()
                    };
                    branches.push(Branch {
                        label: top.display[x as usize].clone(),
                        then,
                    });
                }
                Verdict::Fail
            }
            None => {
                branches.push(Branch {
                    label: top.display[mu as usize].clone(),
                    then: follow(top, rest, None, tail),
                });
                Verdict::Inconclusive
            }
        };
        TestCase::Observe {
            branches,
            otherwise,
        }
    } else {
        let mut branches = Vec::new();
        let otherwise = match tq {
            Some(t) => {
                for (x, _) in top.outs(t) {
                    if top.labels[x as usize] != ioco_model::Label::DELTA {
                        branches.push(Branch {
                            label: top.display[x as usize].clone(),
                            then: raced(),
                        });
                    }
                }
                Verdict::Fail
            }
            None => Verdict::Inconclusive,
        };
        TestCase::Stimulate {
            input: top.display[mu as usize].clone(),
            after: Box::new(follow(top, rest, next, tail)),
            branches,
            otherwise,
        }
    }
}
