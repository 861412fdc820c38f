//! Batch test generation: tutorial Alg. 1 (`batchGen`, P1:L414-456) in the efficient form of
//! Remark 7.1, which carries the set of specification states reached by the history instead of
//! the history itself. Here that set is a state of the lazy suspension automaton
//! ([`ioco_model::Suspension`], memoised and shared by all tests of a suite), so "σx ∈
//! traces(A_s)" is one lookup of an `x`-successor.
//!
//! At every node the nondeterministic choice of Alg. 1 (stop / observe / stimulate with an
//! input enabled in the specification) is made by a [`Strategy`]. Observe nodes list every
//! allowed output and δ; stimulate nodes list every allowed output that may race ahead of the
//! input (never δ); anything else leads to `fail` (the node's `otherwise`). The tests are
//! therefore fail-fast and input-minimal (tutorial Def. 6.7, Thm. 7.3) and so sound (Prop. 6.3).
//!
//! Two bounds keep the trees finite and small (additions to the paper): a depth bound (number
//! of actions on any path) and a node budget per test, split evenly between the children of a
//! node; a node without budget stops (verdict pass).

use crate::coverage::Coverage;
use crate::strategy::{derive_seed, Choice, Situation, Strategy, Uniform};
use crate::testcase::{Branch, NamedTest, Suite, TestCase, Verdict};
use ioco_model::{Label, Lts, QuiescencePolicy, SaState, Suspension};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Bounds and semantics for batch generation.
#[derive(Copy, Clone, Debug)]
pub struct BatchOptions {
    /// Quiescence policy of the specification.
    pub policy: QuiescencePolicy,
    /// Maximal number of actions on a path of a test.
    pub depth: usize,
    /// Maximal number of nodes of one test.
    pub max_nodes: usize,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions {
            policy: QuiescencePolicy::default(),
            depth: 10,
            max_nodes: 2000,
        }
    }
}

/// A generator for one specification; the suspension automaton and the coverage are shared by
/// every test it generates.
pub struct BatchGenerator<'a> {
    sus: Suspension<'a>,
    opts: BatchOptions,
    coverage: Coverage,
}

impl<'a> BatchGenerator<'a> {
    /// A generator for `spec`.
    pub fn new(spec: &'a Lts, opts: BatchOptions) -> Self {
        let sus = Suspension::new(spec, opts.policy);
        let mut coverage = Coverage::new(spec);
        coverage.visit(spec, sus.set(sus.initial()));
        BatchGenerator {
            sus,
            opts,
            coverage,
        }
    }

    /// What the tests generated so far cover of the specification (a priori coverage).
    pub fn coverage(&self) -> &Coverage {
        &self.coverage
    }

    /// Generate one test case from the initial state (Alg. 1 called with history ε).
    pub fn generate(&mut self, strategy: &mut dyn Strategy, rng: &mut ChaCha8Rng) -> TestCase {
        let q0 = self.sus.initial();
        self.gen(q0, 0, self.opts.max_nodes.max(1), strategy, rng)
    }

    fn child(
        &mut self,
        q: SaState,
        l: Label,
        depth: usize,
        budget: usize,
        strategy: &mut dyn Strategy,
        rng: &mut ChaCha8Rng,
    ) -> TestCase {
        let t = self.sus.step(q, l).expect("label enabled in q");
        let lts = self.sus.lts();
        let (from, to) = (self.sus.set(q).to_vec(), self.sus.set(t));
        self.coverage.step(lts, &from, l, to);
        self.gen(t, depth + 1, budget, strategy, rng)
    }

    fn gen(
        &mut self,
        q: SaState,
        depth: usize,
        budget: usize,
        strategy: &mut dyn Strategy,
        rng: &mut ChaCha8Rng,
    ) -> TestCase {
        if depth >= self.opts.depth || budget == 0 {
            return TestCase::leaf(Verdict::Pass);
        }
        let inputs = self.sus.inputs(q);
        let outputs = self.sus.out(q);
        let lts = self.sus.lts();
        let choice = strategy.choose(
            &Situation {
                lts,
                set: self.sus.set(q),
                inputs: &inputs,
                outputs: &outputs,
                depth,
                coverage: &self.coverage,
            },
            rng,
        );
        let alphabet = lts.alphabet();
        match choice {
            Choice::Stop => TestCase::leaf(Verdict::Pass),
            Choice::Observe => {
                let share = (budget - 1) / outputs.len().max(1);
                let branches = outputs
                    .iter()
                    .map(|&x| Branch {
                        label: alphabet.display(x),
                        then: self.child(q, x, depth, share, strategy, rng),
                    })
                    .collect();
                TestCase::Observe {
                    branches,
                    otherwise: Verdict::Fail,
                }
            }
            Choice::Stimulate(a) => {
                assert!(
                    inputs.binary_search(&a).is_ok(),
                    "strategy {} proposed an input not enabled in the specification",
                    strategy.name()
                );
                let races: Vec<Label> = outputs
                    .iter()
                    .copied()
                    .filter(|&x| x != Label::DELTA)
                    .collect();
                let share = (budget - 1) / (races.len() + 1);
                let after = self.child(q, a, depth, share, strategy, rng);
                let branches = races
                    .iter()
                    .map(|&x| Branch {
                        label: alphabet.display(x),
                        then: self.child(q, x, depth, share, strategy, rng),
                    })
                    .collect();
                TestCase::Stimulate {
                    input: alphabet.display(a),
                    after: Box::new(after),
                    branches,
                    otherwise: Verdict::Fail,
                }
            }
        }
    }
}

/// Generate `n_tests` tests with `strategy`; test `i` uses the seed `derive_seed(seed, i)`.
pub fn generate(
    spec: &Lts,
    opts: BatchOptions,
    n_tests: usize,
    strategy: &mut dyn Strategy,
    seed: u64,
) -> Suite {
    let mut g = BatchGenerator::new(spec, opts);
    let mut suite = Suite::new("batch");
    for i in 0..n_tests {
        let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(seed, i as u64));
        let test = g.generate(strategy, &mut rng);
        suite.tests.push(NamedTest {
            name: format!("t{i}"),
            purpose: None,
            test,
        });
    }
    let p = &mut suite.parameters;
    p.insert("seed".into(), seed.into());
    p.insert("tests".into(), n_tests.into());
    p.insert("depth".into(), opts.depth.into());
    p.insert("max_nodes".into(), opts.max_nodes.into());
    p.insert("strategy".into(), strategy.name().into());
    p.insert(
        "policy".into(),
        serde_json::to_value(opts.policy).unwrap_or_default(),
    );
    p.insert(
        "states_covered".into(),
        g.coverage().states_covered().into(),
    );
    p.insert(
        "transitions_covered".into(),
        g.coverage().transitions_covered().into(),
    );
    suite
}

/// `ioco gen --method random`: `n_tests` tests of depth at most `depth` with uniformly random
/// choices (at most [`BatchOptions::default`]`.max_nodes` nodes each), reproducible from `seed`.
pub fn generate_random(
    spec: &Lts,
    policy: QuiescencePolicy,
    n_tests: usize,
    depth: usize,
    seed: u64,
) -> Suite {
    let opts = BatchOptions {
        policy,
        depth,
        ..BatchOptions::default()
    };
    let mut s = generate(spec, opts, n_tests, &mut Uniform::default(), seed);
    s.method = "random".into();
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::music_player;
    use crate::strategy::CoverageGuided;
    use crate::testcase::DELTA;

    /// May `test` end in fail against `imp` (angelically completed where an input is not
    /// enabled even after internal steps, as `compare` does)? Explores every behaviour of the
    /// implementation (tutorial Def. 5.8, exec = ctraces_t ∩ traces_i).
    pub(crate) fn may_fail(test: &TestCase, imp: &Lts) -> Option<Vec<String>> {
        let imp = imp.weak_angelic_completion();
        let mut sus = Suspension::new(&imp, QuiescencePolicy::Stable);
        fn go(t: &TestCase, sus: &mut Suspension<'_>, q: SaState, path: &mut Vec<String>) -> bool {
            match t {
                TestCase::Leaf { verdict, .. } => *verdict == Verdict::Fail,
                TestCase::Observe { otherwise, .. } => outputs(t, *otherwise, true, sus, q, path),
                TestCase::Stimulate {
                    input,
                    after,
                    otherwise,
                    ..
                } => {
                    let l = sus
                        .alphabet()
                        .lookup_kind(input.trim_end_matches('?'), ioco_model::LabelKind::Input)
                        .unwrap();
                    path.push(input.clone());
                    let t2 = sus.step(q, l).unwrap();
                    if go(after, sus, t2, path) {
                        return true;
                    }
                    path.pop();
                    // an output may race the input; δ cannot
                    outputs(t, *otherwise, false, sus, q, path)
                }
            }
        }
        /// May one of the outputs (with δ if `with_delta`) the implementation can give at `q`
        /// lead `t` to fail?
        fn outputs(
            t: &TestCase,
            otherwise: Verdict,
            with_delta: bool,
            sus: &mut Suspension<'_>,
            q: SaState,
            path: &mut Vec<String>,
        ) -> bool {
            for x in sus.out(q) {
                if x == Label::DELTA && !with_delta {
                    continue;
                }
                let name = sus.alphabet().display(x);
                path.push(name.clone());
                let bad = match t.branch(&name) {
                    Some(n) => {
                        let t2 = sus.step(q, x).unwrap();
                        go(n, sus, t2, path)
                    }
                    None => otherwise == Verdict::Fail,
                };
                if bad {
                    return true;
                }
                path.pop();
            }
            false
        }
        let mut path = Vec::new();
        go(test, &mut sus, 0, &mut path).then_some(path)
    }

    #[test]
    fn random_suites_are_valid_bounded_and_reproducible() {
        let spec = music_player::spec();
        let s = generate_random(&spec, QuiescencePolicy::Stable, 20, 6, 42);
        assert_eq!(s.num_tests(), 20);
        for t in &s.tests {
            t.test.validate().unwrap();
            assert!(t.test.depth() <= 6);
            assert!(t.test.size() <= BatchOptions::default().max_nodes);
        }
        assert_eq!(
            s,
            generate_random(&spec, QuiescencePolicy::Stable, 20, 6, 42)
        );
        assert_ne!(
            s,
            generate_random(&spec, QuiescencePolicy::Stable, 20, 6, 43)
        );
        // the root of some test observes; it must allow δ (s0 is quiescent) and nothing else
        let obs = s
            .tests
            .iter()
            .find(|t| matches!(t.test, TestCase::Observe { .. }))
            .expect("some test starts by observing");
        assert!(obs.test.branch(DELTA).is_some());
        assert!(obs.test.branch("playA!").is_none());
    }

    #[test]
    fn music_player_suites_are_sound_and_catch_every_mutant() {
        let spec = music_player::spec();
        for strat in 0..2 {
            let mut s1 = Uniform::default();
            let mut s2 = CoverageGuided::default();
            let strategy: &mut dyn Strategy = if strat == 0 { &mut s1 } else { &mut s2 };
            let opts = BatchOptions {
                depth: 6,
                ..Default::default()
            };
            let suite = generate(&spec, opts, 30, strategy, 7);
            for (name, imp, conforms) in music_player::implementations() {
                let caught = suite.tests.iter().find_map(|t| may_fail(&t.test, &imp));
                if conforms {
                    assert!(caught.is_none(), "{name} wrongly fails: {caught:?}");
                } else {
                    assert!(caught.is_some(), "{name} is not caught");
                }
            }
        }
    }

    #[test]
    fn coverage_guided_covers_at_least_as_much_here() {
        let spec = music_player::spec();
        let opts = BatchOptions {
            depth: 4,
            max_nodes: 50,
            ..Default::default()
        };
        let s = generate(&spec, opts, 5, &mut CoverageGuided::default(), 1);
        assert_eq!(
            s.parameters["transitions_covered"],
            serde_json::json!(spec.num_transitions())
        );
    }
}
