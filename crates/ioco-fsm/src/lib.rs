//! # ioco-fsm
//!
//! Complete test suites for deterministic Mealy machines: for a specification with `n` states
//! (after minimisation) and a bound `k` of extra states, every implementation with at most
//! `n + k` states that is not equivalent to the specification fails some test of the suite
//! (produces a different output word on some test's input word).
//!
//! Methods ([`Method`]), one file each:
//! - [`w`]: Chow's W-method (Chow 1978; Vasilevskii 1973),
//! - [`wp`]: the Wp-method (Fujiwara, von Bochmann, Khendek, Amalou, Ghedamsi 1991),
//! - [`hsi`]: the HSI-method (Petrenko, Yevtushenko, Lebedev, Das 1993; Luo, Petrenko,
//!   von Bochmann 1994),
//! - [`h`]: the H-method (Dorofeeva, El-Fakih, Yevtushenko 2005),
//! - [`hads`]: hybrid adaptive distinguishing sequences (Lee & Yannakakis 1994 ADS, completed
//!   by separating sequences as in Moerman's hybrid-ADS; Smeenk et al. 2015).
//!
//! Building blocks: [`access`] (state and transition cover), [`tree`] (splitting trees),
//! [`identifiers`] (characterisation set W, state identifiers W_s, harmonised identifiers H_s),
//! [`pairs`] (pairwise shortest separators), [`prepare`] (reachability and minimisation),
//! [`product`] (streaming, prefix-deduplicated enumeration), [`equivalence`] (product BFS,
//! the oracle of the mutation tests).
//!
//! Preparation ([`prepare`]): unreachable states are dropped and equivalent states merged
//! (reported in [`MachineInfo::merged`]); `n` is the size of the minimal machine. Partial
//! machines are accepted: tests use defined input words only (the suites then detect every
//! implementation that differs from the specification on a defined word), and a partial
//! machine whose states cannot all be told apart by defined words is rejected with
//! [`FsmError::Incompatible`] naming the state pairs.
//!
//! Output: [`generate`] collects an [`FsmSuite`] (input words, [`Stats`], [`FsmSuite::to_suite`]
//! for the shared JSON test-case format, each step `i?` then `o!`); [`Plan`] streams the same
//! tests without storing them ([`Plan::iter`], [`Plan::for_each`], [`Plan::write_words`]). No
//! test is a prefix of another.
//!
//! ```
//! use ioco_model::Mealy;
//! use ioco_fsm::{generate, Method};
//! // A coffee machine: coin/beep, button/coffee after a coin, button/init otherwise.
//! let mut m = Mealy::new(2, vec!["coin".into(), "button".into()],
//!                        vec!["beep".into(), "coffee".into(), "init".into()], 0);
//! m.set(0, 0, 1, 0); m.set(0, 1, 0, 2); m.set(1, 0, 1, 0); m.set(1, 1, 0, 1);
//! let suite = generate(&m, Method::Hsi, 1).unwrap();
//! assert!(suite.stats().tests > 0);
//! let json = suite.to_suite();
//! assert_eq!(json.method, "hsi");
//! ```

pub mod access;
pub mod equivalence;
pub mod h;
pub mod hads;
pub mod hsi;
pub mod identifiers;
pub mod pairs;
pub mod prepare;
pub mod product;
pub mod tree;
pub mod w;
pub mod wp;

use ioco_gen::{NamedTest, Suite, TestCase};
use ioco_model::Mealy;
pub use prepare::MachineInfo;
use std::fmt;
use std::io::{self, Write};

/// A complete-test-suite method.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Chow's W-method.
    W,
    /// Fujiwara et al.'s Wp-method.
    Wp,
    /// Harmonised state identifiers.
    Hsi,
    /// Dorofeeva et al.'s H-method (separating sequences chosen on the fly).
    H,
    /// Hybrid adaptive distinguishing sequences.
    Hads,
}

impl Method {
    /// All methods.
    pub const ALL: [Method; 5] = [Method::W, Method::Wp, Method::Hsi, Method::H, Method::Hads];

    /// The name used in suite files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Method::W => "w",
            Method::Wp => "wp",
            Method::Hsi => "hsi",
            Method::H => "h",
            Method::Hads => "hads",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Method {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Method::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown method `{s}`; expected one of w, wp, hsi, h, hads"))
    }
}

/// Why no suite could be generated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FsmError {
    /// The machine has no states.
    NoStates,
    /// The machine has no inputs.
    NoInputs,
    /// The initial state is out of range.
    BadInitial {
        /// The initial state.
        initial: u32,
        /// The number of states.
        states: usize,
    },
    /// A transition leads to a state or output that does not exist.
    BadTransition {
        /// The source state's name.
        state: String,
        /// The input's name.
        input: String,
    },
    /// A partial machine has distinct states that no defined input word separates.
    Incompatible {
        /// The pairs (state names).
        pairs: Vec<(String, String)>,
    },
    /// Too many states for the quadratic pair table (partial machines only).
    TooLarge {
        /// States after reduction.
        states: usize,
        /// The limit.
        limit: usize,
    },
}

impl fmt::Display for FsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FsmError::NoStates => write!(f, "the Mealy machine has no states"),
            FsmError::NoInputs => write!(
                f,
                "the Mealy machine has no inputs; hint: a test suite needs at least one input"
            ),
            FsmError::BadInitial { initial, states } => write!(
                f,
                "initial state {initial} does not exist (the machine has {states} states)"
            ),
            FsmError::BadTransition { state, input } => write!(
                f,
                "the transition of state `{state}` on input `{input}` leads to a state or output that \
                 does not exist"
            ),
            FsmError::Incompatible { pairs } => {
                let shown: Vec<String> = pairs
                    .iter()
                    .take(5)
                    .map(|(a, b)| format!("{a} ~ {b}"))
                    .collect();
                write!(
                    f,
                    "the partial machine has {} pair(s) of distinct states that no defined input word \
                     separates ({}{}); hint: they differ only in which inputs are defined, so no test can \
                     tell them apart: complete the machine (e.g. with an explicit error output) or make them \
                     distinguishable",
                    pairs.len(),
                    shown.join(", "),
                    if pairs.len() > 5 { ", ..." } else { "" }
                )
            }
            FsmError::TooLarge { states, limit } => write!(
                f,
                "the partial machine has {states} states, more than the {limit} the pairwise separator \
                 table allows; hint: complete the machine (complete machines use the linear splitting tree)"
            ),
        }
    }
}

impl std::error::Error for FsmError {}

/// Size of a suite.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Number of tests (input words).
    pub tests: usize,
    /// Total number of input symbols.
    pub symbols: usize,
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} tests, {} input symbols", self.tests, self.symbols)
    }
}

enum Body {
    Product(product::ProductSuite),
    Words(Vec<Vec<u32>>),
}

/// A prepared generator: enumerate the suite without storing it ([`Plan::iter`],
/// [`Plan::for_each`], [`Plan::write_words`]) or collect it ([`Plan::collect`]).
pub struct Plan {
    method: Method,
    k: usize,
    original: Mealy,
    prepared: prepare::Prepared,
    params: serde_json::Map<String, serde_json::Value>,
    body: Body,
}

impl Plan {
    /// Prepare `method` with `extra_states` for `m` (minimised first).
    pub fn new(m: &Mealy, method: Method, extra_states: usize) -> Result<Plan, FsmError> {
        let prepared = prepare::prepare(m)?;
        let k = extra_states;
        let mut params = serde_json::Map::new();
        let body = match method {
            Method::W => Body::Product(w::plan(&prepared, k, &mut params)),
            Method::Wp => Body::Product(wp::plan(&prepared, k, &mut params)),
            Method::Hsi => Body::Product(hsi::plan(&prepared, k, &mut params)),
            Method::Hads => Body::Product(hads::plan(&prepared, k, &mut params)),
            Method::H => Body::Words(h::generate(&prepared, k, &mut params)),
        };
        Ok(Plan {
            method,
            k,
            original: m.clone(),
            prepared,
            params,
            body,
        })
    }

    /// How the machine was reduced.
    pub fn info(&self) -> &MachineInfo {
        &self.prepared.info
    }

    /// Call `f` on every test word; returns the size of the suite.
    pub fn for_each(&self, mut f: impl FnMut(&[u32])) -> Stats {
        let mut stats = Stats::default();
        let mut g = |w: &[u32]| {
            stats.tests += 1;
            stats.symbols += w.len();
            f(w)
        };
        match &self.body {
            Body::Product(p) => p.for_each(&self.prepared.machine, &mut g),
            Body::Words(ws) => ws.iter().for_each(|w| g(w)),
        }
        stats
    }

    /// The tests as an iterator, produced on demand (W, Wp, HSI and hybrid-ADS suites are never
    /// held in memory; the H-method builds its prefix tree first).
    pub fn iter(&self) -> Box<dyn Iterator<Item = Vec<u32>> + '_> {
        match &self.body {
            Body::Product(p) => Box::new(p.iter(&self.prepared.machine)),
            Body::Words(ws) => Box::new(ws.iter().cloned()),
        }
    }

    /// Write one test per line, input names separated by spaces (streaming).
    pub fn write_words<W: Write>(&self, out: &mut W) -> io::Result<Stats> {
        let mut err = None;
        let names = &self.original.inputs;
        let stats = self.for_each(|w| {
            if err.is_some() {
                return;
            }
            let line: Vec<&str> = w.iter().map(|&a| names[a as usize].as_str()).collect();
            if let Err(e) = writeln!(out, "{}", line.join(" ")) {
                err = Some(e);
            }
        });
        match err {
            Some(e) => Err(e),
            None => Ok(stats),
        }
    }

    /// Collect the suite in memory.
    pub fn collect(self) -> FsmSuite {
        let mut words = Vec::new();
        self.for_each(|w| words.push(w.to_vec()));
        FsmSuite {
            method: self.method,
            extra_states: self.k,
            words,
            info: self.prepared.info,
            params: self.params,
            machine: self.original,
        }
    }
}

/// A generated suite: input words (no word is a prefix of another).
#[derive(Clone, Debug)]
pub struct FsmSuite {
    /// The method.
    pub method: Method,
    /// The number of extra states `k` the suite is complete for.
    pub extra_states: usize,
    /// The tests, as input indices of the machine.
    pub words: Vec<Vec<u32>>,
    /// How the machine was reduced (`info.minimal` is the `n` of "n + k").
    pub info: MachineInfo,
    /// Method-specific parameters (sizes of W, whether a complete ADS exists, ...).
    pub params: serde_json::Map<String, serde_json::Value>,
    /// The specification.
    pub machine: Mealy,
}

/// Generate the suite of `method` for at most `extra_states` extra states.
pub fn generate(m: &Mealy, method: Method, extra_states: usize) -> Result<FsmSuite, FsmError> {
    Ok(Plan::new(m, method, extra_states)?.collect())
}

/// The oracle: the outputs of `m` on `word` from the initial state (`None` if some input is
/// undefined on the way).
pub fn run_word(m: &Mealy, word: &[u32]) -> Option<Vec<u32>> {
    m.outputs_of(word)
}

impl FsmSuite {
    /// Number of tests and of input symbols.
    pub fn stats(&self) -> Stats {
        Stats {
            tests: self.words.len(),
            symbols: self.words.iter().map(Vec::len).sum(),
        }
    }

    /// The test case of one word: `i?` then `o!` per step (the Mealy LTS reading), any other
    /// output fails, ending in pass.
    pub fn test_case(&self, word: &[u32]) -> TestCase {
        let outs = run_word(&self.machine, word).expect("suite words are defined");
        let steps: Vec<String> = word
            .iter()
            .zip(&outs)
            .flat_map(|(&i, &o)| {
                [
                    format!("{}?", self.machine.inputs[i as usize]),
                    format!("{}!", self.machine.outputs[o as usize]),
                ]
            })
            .collect();
        TestCase::word(&steps)
    }

    /// The suite in the shared test-suite format.
    pub fn to_suite(&self) -> Suite {
        let mut s = self.header();
        s.tests = self.named_tests().collect();
        s
    }

    /// The test cases one at a time, as [`FsmSuite::to_suite`] has them (for writing a suite
    /// too large to hold: [`Suite::write_streaming`]).
    pub fn named_tests(&self) -> impl Iterator<Item = NamedTest> + '_ {
        // no purpose text: the test is its input word, which the test itself shows
        self.words.iter().enumerate().map(|(n, w)| NamedTest {
            name: format!("t{n}"),
            purpose: None,
            test: self.test_case(w),
        })
    }

    /// Write the suite as JSON, `header` (from [`FsmSuite::header`]) and then every test, as
    /// [`Suite::write_streaming`] of [`FsmSuite::named_tests`] would, but rendering each word
    /// directly from labels escaped once (no test tree is built: issue #19 item 3). Returns the
    /// number of tests.
    pub fn write_json<W: Write>(&self, header: &Suite, mut w: W) -> io::Result<usize> {
        let esc = |s: String| serde_json::to_string(&s).unwrap_or_else(|_| "\"\"".into());
        let ins: Vec<String> = self
            .machine
            .inputs
            .iter()
            .map(|i| esc(format!("{i}?")))
            .collect();
        let outs: Vec<String> = self
            .machine
            .outputs
            .iter()
            .map(|o| esc(format!("{o}!")))
            .collect();
        header.write_head(&mut w)?;
        for (n, word) in self.words.iter().enumerate() {
            w.write_all(if n == 0 { b"\n" } else { b",\n" })?;
            let Some(out) = run_word(&self.machine, word) else {
                return Err(io::Error::other(format!("test t{n} leaves the machine")));
            };
            if word.is_empty() {
                write!(
                    w,
                    "{{\"name\":\"t{n}\",\"test\":{{\"kind\":\"leaf\",\"verdict\":\"pass\"}}}}"
                )?;
                continue;
            }
            write!(
                w,
                "{{\"name\":\"t{n}\",\"test\":{{\"kind\":\"word\",\"steps\":["
            )?;
            for (k, (&i, &o)) in word.iter().zip(&out).enumerate() {
                if k > 0 {
                    w.write_all(b",")?;
                }
                w.write_all(ins[i as usize].as_bytes())?;
                w.write_all(b",")?;
                w.write_all(outs[o as usize].as_bytes())?;
            }
            w.write_all(b"]}}")?;
        }
        header.write_tail(&mut w)?;
        Ok(self.words.len())
    }

    /// The suite without its tests: method and parameters.
    pub fn header(&self) -> Suite {
        let mut s = Suite::new(self.method.name());
        let p = &mut s.parameters;
        p.insert("k".into(), self.extra_states.into());
        p.insert("states".into(), self.info.minimal.into());
        p.insert("inputs".into(), self.machine.num_inputs().into());
        if !self.info.merged.is_empty() {
            p.insert(
                "merged".into(),
                serde_json::to_value(&self.info.merged).expect("strings"),
            );
        }
        let st = self.stats();
        p.insert("tests".into(), st.tests.into());
        p.insert("symbols".into(), st.symbols.into());
        for (key, v) in &self.params {
            p.insert(key.clone(), v.clone());
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ioco_gen::Verdict;

    #[test]
    fn method_names_round_trip() {
        for m in Method::ALL {
            assert_eq!(m.name().parse::<Method>().unwrap(), m);
        }
        assert!("spy"
            .parse::<Method>()
            .unwrap_err()
            .contains("w, wp, hsi, h, hads"));
    }

    #[test]
    fn bad_machines_get_clear_errors() {
        let m = Mealy::new(0, vec!["a".into()], vec!["x".into()], 0);
        assert_eq!(generate(&m, Method::W, 0).unwrap_err(), FsmError::NoStates);
        let m = Mealy::new(2, vec![], vec!["x".into()], 0);
        let e = generate(&m, Method::W, 0).unwrap_err();
        assert!(e.to_string().contains("hint"));
        let mut m = Mealy::new(2, vec!["a".into()], vec!["x".into()], 0);
        m.set(0, 0, 7, 0);
        assert!(matches!(
            generate(&m, Method::Hads, 0),
            Err(FsmError::BadTransition { .. })
        ));
        let m = Mealy::new(2, vec!["a".into()], vec!["x".into()], 5);
        assert!(generate(&m, Method::W, 0)
            .unwrap_err()
            .to_string()
            .contains("initial state 5"));
    }

    #[test]
    fn the_written_suite_reads_back_as_the_suite() {
        let mut m = Mealy::new(
            3,
            vec!["a".into(), "b \"q\"".into()],
            vec!["x".into(), "y".into()],
            0,
        );
        m.set(0, 0, 1, 0);
        m.set(0, 1, 0, 1);
        m.set(1, 0, 2, 1);
        m.set(1, 1, 0, 0);
        m.set(2, 0, 0, 0);
        m.set(2, 1, 2, 1);
        for method in Method::ALL {
            let s = generate(&m, method, 1).unwrap();
            let mut header = s.header();
            header.parameters.insert("model".into(), "m.dot".into());
            let mut buf = Vec::new();
            assert_eq!(s.write_json(&header, &mut buf).unwrap(), s.stats().tests);
            let back: Suite = serde_json::from_slice(&buf).unwrap();
            let mut whole = s.to_suite();
            whole.parameters.insert("model".into(), "m.dot".into());
            assert_eq!(back, whole, "{method}");
        }
    }

    #[test]
    fn merged_states_are_reported_in_the_suite() {
        // s1 and s2 are equivalent; s3 is unreachable.
        let mut m = Mealy::new(4, vec!["a".into()], vec!["x".into(), "y".into()], 0);
        m.set(0, 0, 1, 0);
        m.set(1, 0, 2, 1);
        m.set(2, 0, 1, 1);
        m.set(3, 0, 3, 0);
        let s = generate(&m, Method::Hsi, 0).unwrap();
        assert_eq!(s.info.states, 4);
        assert_eq!(s.info.reachable, 3);
        assert_eq!(s.info.minimal, 2);
        let suite = s.to_suite();
        assert_eq!(
            suite.parameters["merged"],
            serde_json::json!([["s1", "s2"]])
        );
        assert_eq!(suite.parameters["states"], 2);
        // The test of the word a·a: a? x! a? y! pass.
        let t = s.test_case(&[0, 0]);
        match &t {
            TestCase::Stimulate {
                input,
                after,
                otherwise: Verdict::Fail,
                ..
            } => {
                assert_eq!(input, "a?");
                assert!(matches!(**after, TestCase::Observe { .. }));
            }
            t => panic!("{t:?}"),
        }
        // written as its word, read back as the same tree
        let json = serde_json::to_value(&t).unwrap();
        assert_eq!(json["kind"], "word");
        assert_eq!(json["steps"], serde_json::json!(["a?", "x!", "a?", "y!"]));
        assert_eq!(serde_json::from_value::<TestCase>(json).unwrap(), t);
    }
}
