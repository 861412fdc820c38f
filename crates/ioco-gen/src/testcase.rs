//! Test cases and test suites: tree-shaped tests with verdict leaves (tutorial Def. 5.1, 5.7).
//!
//! A [`TestCase`] node either ends the test with a verdict, *observes* (accepts every output
//! and δ), or *stimulates* with one input while still accepting every output that may race
//! ahead of the input (tutorial P1:L236). Branches not listed get the node's `otherwise`
//! verdict, so a fail-fast, input-minimal ioco test (tutorial Def. 6.7) stores only the
//! allowed outputs.
//!
//! Labels are written as users write them: `water?`, `coffee!`, and `δ` for quiescence.
//! The same JSON format ([`Suite`]) carries random, batch, complete (n-complete, W/Wp/HSI/...),
//! game and purpose-driven tests; nested suites carry the n-complete merge suites, whose
//! `fail` means "distinguished" (see [`SuiteRole`]).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The verdict of a test run.
#[derive(
    Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// No non-conformance observed.
    Pass,
    /// The test left its purpose legally (tutorial/TAP19 "Inconclusive"); never a sign of error.
    Inconclusive,
    /// Non-conformance observed (sound: the implementation is not ioco the specification).
    Fail,
}

/// The δ label as written in tests.
pub const DELTA: &str = "δ";

/// One outgoing branch of a node: an observed label (`b!` or `δ`) and what follows.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Branch {
    /// The label, as written by users: `coffee!` or `δ`.
    pub label: String,
    /// The rest of the test.
    pub then: TestCase,
}

/// A node of a tree-shaped test case.
///
/// In JSON a node is an object with a `kind` (`leaf`, `observe`, `stimulate`). A test that is
/// one path (each input offered with no race branch, each observation with one expected
/// label, every other observation a Fail, ending in Pass: every test of a W, Wp, HSI, H or
/// hybrid-ADS suite) is written compactly as `{"kind": "word", "steps": ["a?", "x!", "δ"]}`
/// and read back as the same tree (issue #19 item 3: about a fifth of the bytes).
#[derive(Clone, PartialEq, Eq, Debug, Deserialize)]
#[serde(from = "TestCaseRepr")]
pub enum TestCase {
    /// The test ends with this verdict.
    Leaf {
        /// The verdict.
        verdict: Verdict,
        /// Why (e.g. "output not allowed by the specification", "goal reached").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// Wait for an output or quiescence.
    Observe {
        /// The expected observations (outputs and possibly `δ`) and their continuations.
        branches: Vec<Branch>,
        /// The verdict for any observation not listed (usually `fail`).
        otherwise: Verdict,
    },
    /// Offer `input`; if an output races ahead of it, follow `branches` instead (never δ).
    Stimulate {
        /// The input, written `name?`.
        input: String,
        /// The continuation after the input was accepted.
        after: Box<TestCase>,
        /// Outputs that may arrive before the input is accepted.
        #[serde(default)]
        branches: Vec<Branch>,
        /// The verdict for an output that races ahead and is not listed.
        otherwise: Verdict,
    },
}

/// The JSON forms of a node, the compact `word` included.
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum TestCaseRepr {
    Leaf {
        verdict: Verdict,
        #[serde(default)]
        reason: Option<String>,
    },
    Observe {
        branches: Vec<Branch>,
        otherwise: Verdict,
    },
    Stimulate {
        input: String,
        after: Box<TestCase>,
        #[serde(default)]
        branches: Vec<Branch>,
        otherwise: Verdict,
    },
    Word {
        steps: Vec<String>,
    },
}

/// A test case is written in one of the forms of [`TestCaseRepr`] (a tree node, or the
/// compact `word`), so that is its schema.
impl JsonSchema for TestCase {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TestCase".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        TestCaseRepr::json_schema(generator)
    }
}

impl From<TestCaseRepr> for TestCase {
    fn from(r: TestCaseRepr) -> TestCase {
        match r {
            TestCaseRepr::Leaf { verdict, reason } => TestCase::Leaf { verdict, reason },
            TestCaseRepr::Observe {
                branches,
                otherwise,
            } => TestCase::Observe {
                branches,
                otherwise,
            },
            TestCaseRepr::Stimulate {
                input,
                after,
                branches,
                otherwise,
            } => TestCase::Stimulate {
                input,
                after,
                branches,
                otherwise,
            },
            TestCaseRepr::Word { steps } => TestCase::word(&steps),
        }
    }
}

impl Serialize for TestCase {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        if let Some(steps) = self.as_word() {
            let mut st = ser.serialize_struct("TestCase", 2)?;
            st.serialize_field("kind", "word")?;
            st.serialize_field("steps", &steps)?;
            return st.end();
        }
        match self {
            TestCase::Leaf { verdict, reason } => {
                let mut st = ser.serialize_struct("TestCase", 3)?;
                st.serialize_field("kind", "leaf")?;
                st.serialize_field("verdict", verdict)?;
                if let Some(r) = reason {
                    st.serialize_field("reason", r)?;
                }
                st.end()
            }
            TestCase::Observe {
                branches,
                otherwise,
            } => {
                let mut st = ser.serialize_struct("TestCase", 3)?;
                st.serialize_field("kind", "observe")?;
                st.serialize_field("branches", branches)?;
                st.serialize_field("otherwise", otherwise)?;
                st.end()
            }
            TestCase::Stimulate {
                input,
                after,
                branches,
                otherwise,
            } => {
                let mut st = ser.serialize_struct("TestCase", 5)?;
                st.serialize_field("kind", "stimulate")?;
                st.serialize_field("input", input)?;
                st.serialize_field("after", after)?;
                st.serialize_field("branches", branches)?;
                st.serialize_field("otherwise", otherwise)?;
                st.end()
            }
        }
    }
}

impl TestCase {
    /// The one-path test of `steps` (`a?` offers an input, `x!` or `δ` expects that
    /// observation; anything else fails; Pass at the end): the tree of a `word` in JSON.
    pub fn word(steps: &[String]) -> TestCase {
        let mut node = TestCase::leaf(Verdict::Pass);
        for step in steps.iter().rev() {
            node = if step.ends_with('?') {
                TestCase::Stimulate {
                    input: step.clone(),
                    after: Box::new(node),
                    branches: Vec::new(),
                    otherwise: Verdict::Fail,
                }
            } else {
                TestCase::Observe {
                    branches: vec![Branch {
                        label: step.clone(),
                        then: node,
                    }],
                    otherwise: Verdict::Fail,
                }
            };
        }
        node
    }

    /// The steps of a one-path test ([`TestCase::word`]), `None` for any other tree (and for a
    /// lone leaf).
    pub fn as_word(&self) -> Option<Vec<&str>> {
        let mut steps = Vec::new();
        let mut node = self;
        loop {
            match node {
                TestCase::Leaf {
                    verdict: Verdict::Pass,
                    reason: None,
                } if !steps.is_empty() => return Some(steps),
                TestCase::Stimulate {
                    input,
                    after,
                    branches,
                    otherwise: Verdict::Fail,
                } if branches.is_empty() && input.ends_with('?') => {
                    steps.push(input.as_str());
                    node = after;
                }
                TestCase::Observe {
                    branches,
                    otherwise: Verdict::Fail,
                } if branches.len() == 1 && !branches[0].label.ends_with('?') => {
                    steps.push(branches[0].label.as_str());
                    node = &branches[0].then;
                }
                _ => return None,
            }
        }
    }
}

impl TestCase {
    /// A leaf.
    pub fn leaf(verdict: Verdict) -> TestCase {
        TestCase::Leaf {
            verdict,
            reason: None,
        }
    }

    /// A leaf with a reason.
    pub fn leaf_because(verdict: Verdict, reason: impl Into<String>) -> TestCase {
        TestCase::Leaf {
            verdict,
            reason: Some(reason.into()),
        }
    }

    /// The branch for an observed label, if listed.
    pub fn branch(&self, label: &str) -> Option<&TestCase> {
        let bs = match self {
            TestCase::Leaf { .. } => return None,
            TestCase::Observe { branches, .. } | TestCase::Stimulate { branches, .. } => branches,
        };
        bs.iter().find(|b| b.label == label).map(|b| &b.then)
    }

    /// Number of nodes.
    pub fn size(&self) -> usize {
        match self {
            TestCase::Leaf { .. } => 1,
            TestCase::Observe { branches, .. } => {
                1 + branches.iter().map(|b| b.then.size()).sum::<usize>()
            }
            TestCase::Stimulate {
                after, branches, ..
            } => 1 + after.size() + branches.iter().map(|b| b.then.size()).sum::<usize>(),
        }
    }

    /// Length of the longest path (number of actions).
    pub fn depth(&self) -> usize {
        match self {
            TestCase::Leaf { .. } => 0,
            TestCase::Observe { branches, .. } => {
                1 + branches.iter().map(|b| b.then.depth()).max().unwrap_or(0)
            }
            TestCase::Stimulate {
                after, branches, ..
            } => {
                1 + branches
                    .iter()
                    .map(|b| b.then.depth())
                    .max()
                    .unwrap_or(0)
                    .max(after.depth())
            }
        }
    }

    /// Check the shape rules of tutorial Def. 5.1 that a tree can break: no δ branch on a
    /// stimulate node, no label listed twice in one node, inputs end in `?`, outputs in `!`.
    /// Returns the first problem with the path to it.
    pub fn validate(&self) -> Result<(), String> {
        fn go(n: &TestCase, path: &mut Vec<String>) -> Result<(), String> {
            let here = |path: &Vec<String>| {
                if path.is_empty() {
                    "at the root".to_string()
                } else {
                    format!("after {}", path.join(" "))
                }
            };
            match n {
                TestCase::Leaf { .. } => Ok(()),
                TestCase::Observe { branches, .. } | TestCase::Stimulate { branches, .. } => {
                    let is_stim = matches!(n, TestCase::Stimulate { .. });
                    let mut seen = std::collections::HashSet::new();
                    for b in branches {
                        if b.label == DELTA && is_stim {
                            return Err(format!(
                                "{}: a stimulate node cannot branch on δ (tutorial Def. 5.1)",
                                here(path)
                            ));
                        }
                        if b.label != DELTA && !b.label.ends_with('!') {
                            return Err(format!(
                                "{}: branch label `{}` must be an output `name!` or `δ`",
                                here(path),
                                b.label
                            ));
                        }
                        if !seen.insert(&b.label) {
                            return Err(format!(
                                "{}: label `{}` listed twice",
                                here(path),
                                b.label
                            ));
                        }
                    }
                    if let TestCase::Stimulate { input, after, .. } = n {
                        if !input.ends_with('?') {
                            return Err(format!(
                                "{}: stimulus `{input}` must be an input `name?`",
                                here(path)
                            ));
                        }
                        path.push(input.clone());
                        go(after, path)?;
                        path.pop();
                    }
                    for b in branches {
                        path.push(b.label.clone());
                        go(&b.then, path)?;
                        path.pop();
                    }
                    Ok(())
                }
            }
        }
        go(self, &mut Vec::new())
    }
}

/// What a suite's `fail` verdict means.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SuiteRole {
    /// `fail` means the implementation does not conform (the outer suite).
    #[default]
    Conformance,
    /// `fail` means "the states were distinguished" (thesis Def. 2.37's nested merge suites):
    /// never reported as non-conformance.
    Distinguishing,
}

/// A named test case with optional metadata.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct NamedTest {
    /// A name unique in its suite.
    pub name: String,
    /// What the test is for (a purpose, a goal, an access sequence...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purpose: Option<String>,
    /// The test.
    pub test: TestCase,
}

/// A test suite: test cases plus nested suites. The file format of `ioco gen` / `ioco run`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(
    title = "ioco-suite/1",
    description = "A test suite: the file format of `ioco gen` and `ioco run`."
)]
pub struct Suite {
    /// Always [`Suite::FORMAT`].
    pub format: String,
    /// How it was generated (`random`, `batch`, `n-complete`, `w`, `wp`, `hsi`, `reach`, ...).
    pub method: String,
    /// Free-form generation parameters (seed, n, k, ...), for the record.
    #[serde(default)]
    pub parameters: serde_json::Map<String, serde_json::Value>,
    /// The meaning of `fail` in this suite.
    #[serde(default)]
    pub role: SuiteRole,
    /// The test cases.
    pub tests: Vec<NamedTest>,
    /// Nested suites.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suites: Vec<Suite>,
}

impl Suite {
    /// The format tag written in every suite file.
    pub const FORMAT: &'static str = "ioco-suite/1";

    /// The methods whose tests aim at a goal (the game tests: `reach`, `joker` and `purpose`):
    /// a Pass leaf is the goal reached, an Inconclusive leaf the goal missed while the system
    /// did nothing the specification forbids (the system chose another allowed output, or did
    /// not help at a joker state). A test of such a suite that never reaches a Pass leaf is
    /// Inconclusive, never Pass ([`Suite::aims_at_goal`]).
    pub const GOAL_METHODS: [&'static str; 3] = ["reach", "joker", "purpose"];

    /// True when a suite generated by `method` aims at a goal ([`Suite::GOAL_METHODS`]).
    pub fn aims_at_goal(method: &str) -> bool {
        Suite::GOAL_METHODS.contains(&method)
    }

    /// Write the suite as JSON to `w` with its tests followed by those of `more`, taken one at
    /// a time: for suites too large to hold, memory stays that of one test (issue #19 item 3).
    /// One test per line; the file reads back as any suite. Returns the number of tests
    /// written.
    pub fn write_streaming<W: std::io::Write>(
        &self,
        more: impl Iterator<Item = NamedTest>,
        mut w: W,
    ) -> std::io::Result<usize> {
        self.write_head(&mut w)?;
        let mut n = 0usize;
        for t in self.tests.iter().cloned().chain(more) {
            w.write_all(if n == 0 { b"\n" } else { b",\n" })?;
            serde_json::to_writer(&mut w, &t)?;
            n += 1;
        }
        self.write_tail(&mut w)?;
        Ok(n)
    }

    /// The start of [`Suite::write_streaming`]'s output, up to the opening `[` of the tests
    /// (for a writer that renders its tests itself; the header's own tests are not written).
    /// Each test follows on a line of its own: `\n` before the first, `,\n` before the others.
    pub fn write_head<W: std::io::Write>(&self, w: &mut W) -> std::io::Result<()> {
        write!(
            w,
            "{{\"format\":{},\"method\":{},\"parameters\":{},\"role\":{},\"tests\":[",
            json(&self.format),
            json(&self.method),
            json(&self.parameters),
            json(&self.role),
        )
    }

    /// The end of [`Suite::write_streaming`]'s output: the nested suites and the closing
    /// brackets.
    pub fn write_tail<W: std::io::Write>(&self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b"\n]")?;
        if !self.suites.is_empty() {
            write!(w, ",\"suites\":{}", json(&self.suites))?;
        }
        w.write_all(b"}\n")?;
        w.flush()
    }

    /// An empty suite for `method`.
    pub fn new(method: impl Into<String>) -> Suite {
        Suite {
            format: Suite::FORMAT.to_string(),
            method: method.into(),
            parameters: Default::default(),
            role: SuiteRole::Conformance,
            tests: Vec::new(),
            suites: Vec::new(),
        }
    }

    /// Total number of test cases, nested suites included.
    pub fn num_tests(&self) -> usize {
        self.tests.len() + self.suites.iter().map(Suite::num_tests).sum::<usize>()
    }
}

/// JSON of a piece of a suite header (serialising a string, a map or a role cannot fail).
fn json<T: Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip_and_validation() {
        let t = TestCase::Stimulate {
            input: "button?".into(),
            after: Box::new(TestCase::Observe {
                branches: vec![Branch {
                    label: "coffee!".into(),
                    then: TestCase::leaf(Verdict::Pass),
                }],
                otherwise: Verdict::Fail,
            }),
            branches: vec![],
            otherwise: Verdict::Fail,
        };
        t.validate().unwrap();
        assert_eq!(t.size(), 3);
        assert_eq!(t.depth(), 2);
        let mut s = Suite::new("manual");
        s.tests.push(NamedTest {
            name: "t0".into(),
            purpose: None,
            test: t.clone(),
        });
        let j = serde_json::to_string_pretty(&s).unwrap();
        let back: Suite = serde_json::from_str(&j).unwrap();
        assert_eq!(back, s);

        // a one-path test is written as its word; a tree with a choice stays a tree
        let v = serde_json::to_value(&t).unwrap();
        assert_eq!(v["kind"], "word");
        assert_eq!(v["steps"], serde_json::json!(["button?", "coffee!"]));
        let with_delta = TestCase::word(&["a?".into(), DELTA.into(), "b?".into(), "x!".into()]);
        let v = serde_json::to_value(&with_delta).unwrap();
        assert_eq!(v["steps"][1], DELTA);
        assert_eq!(serde_json::from_value::<TestCase>(v).unwrap(), with_delta);
        let tree = TestCase::Observe {
            branches: vec![
                Branch {
                    label: "x!".into(),
                    then: TestCase::leaf(Verdict::Pass),
                },
                Branch {
                    label: "y!".into(),
                    then: TestCase::leaf(Verdict::Fail),
                },
            ],
            otherwise: Verdict::Fail,
        };
        let v = serde_json::to_value(&tree).unwrap();
        assert_eq!(v["kind"], "observe");
        assert_eq!(serde_json::from_value::<TestCase>(v).unwrap(), tree);
        assert!(TestCase::leaf(Verdict::Pass).as_word().is_none());

        // streamed, the same suite: tests from the header and from the iterator, a nested
        // suite, parameters and role kept
        let mut head = s.clone();
        head.parameters.insert("k".into(), 2.into());
        head.role = SuiteRole::Distinguishing;
        head.suites.push(s.clone());
        let more: Vec<NamedTest> = (1..4)
            .map(|i| NamedTest {
                name: format!("t{i}"),
                purpose: Some("more".into()),
                test: t.clone(),
            })
            .collect();
        let mut buf = Vec::new();
        assert_eq!(
            head.write_streaming(more.clone().into_iter(), &mut buf)
                .unwrap(),
            4
        );
        let back: Suite = serde_json::from_slice(&buf).unwrap();
        let mut whole = head.clone();
        whole.tests.extend(more);
        assert_eq!(back, whole);
        // an empty suite too
        let mut buf = Vec::new();
        Suite::new("none")
            .write_streaming(std::iter::empty(), &mut buf)
            .unwrap();
        assert_eq!(
            serde_json::from_slice::<Suite>(&buf).unwrap(),
            Suite::new("none")
        );

        let bad = TestCase::Stimulate {
            input: "button?".into(),
            after: Box::new(TestCase::leaf(Verdict::Pass)),
            branches: vec![Branch {
                label: DELTA.into(),
                then: TestCase::leaf(Verdict::Pass),
            }],
            otherwise: Verdict::Fail,
        };
        assert!(bad.validate().unwrap_err().contains("δ"));
    }
}
