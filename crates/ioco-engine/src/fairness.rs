//! Repeating a stored test under the fairness assumption (thesis §2.7.4, "reset and retry";
//! the input-fair assumption of thesis ch. 5, Def. 5.20): how often a test is run again when
//! the implementation did not follow it, and when a branch it never took counts as absent.
//!
//! A stored test branches at its **choice points**: an observation with several outcomes the
//! specification allows (an n-complete test whose access sequence the implementation may leave,
//! a tree test with several continuing branches), or an input an output may overtake (a game
//! test's "rerun" leaves). A try of a test passes each choice point it reaches with one outcome.
//! The assumption: whenever the implementation is after the same observed trace σ, each of its
//! possible outcomes there is taken with probability at least `p` (the *minimum branch
//! probability*). Then an outcome not seen in `N` observations after σ is possible with a
//! probability of at most `(1 − p)^N`; with `N ≥ k = ⌈ln(1 − c) / ln(1 − p)⌉` that is at most
//! `1 − c` (`c` the *confidence*).
//!
//! The rule ([`Tries`]): a test is run again while one of the choice points it reached has a
//! *wanted* outcome (one that continues the test: not a fail leaf, not an inconclusive leaf, for
//! an input: the input accepted) that this test has not seen yet and that is not known to be
//! absent, and the test has had fewer than `k` tries. An outcome is known to be absent after σ
//! when it was never seen in `k` or more observations after σ, counted over **all** tests of the
//! session ([`Branches`], shared by the workers): the observations after σ are experiments on
//! the same implementation, whichever test made them.
//!
//! The verdict of a test: Fail or Error as soon as a try gives one; else Pass when a try
//! passed; else (every try Inconclusive) Pass when no choice point is open any more (the test
//! counts as executed: its wanted branch is absent with confidence `c`, the note says with what
//! residual risk), and **Inconclusive** when the budget ran out first.
//!
//! A test that aims at a goal ([`Fairness::goal`]: the game tests of `reach`, `joker` and
//! `purpose`, whose Pass leaves are the goal reached) is never "executed" that way: when no
//! try passed it stays **Inconclusive**, its note saying that the goal was not reached (a goal
//! not reached is Inconclusive everywhere in ioco, as in `ioco test --purpose`; thesis Alg. 6
//! L36–37: an output the specification allows off the purpose is Inconclusive). Its tries
//! still follow the rule: each gives the system another chance to take the branch to the goal.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

/// The parameters of the rule: the budget of tries per test and the minimum branch probability.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fairness {
    /// The number of observations after a trace in which an outcome never seen counts as
    /// absent: `k`.
    pub tries: usize,
    /// At most this many tries per test (by default `4k`: a choice point deep in a test is
    /// reached by only some of its tries).
    pub budget: usize,
    /// Every test is run at least this many times (unless it fails first): `--repetitions`,
    /// for faults that show only now and then where the test has no choice point.
    pub at_least: usize,
    /// The assumed minimum probability of each possible outcome (for the residual risk).
    pub min_probability: f64,
    /// The tests aim at a goal: a test no try of which passed is Inconclusive even when its
    /// wanted branch counts as absent (module docs).
    pub goal: bool,
}

impl Default for Fairness {
    /// Confidence 0.95 with minimum branch probability 0.25: 11 tries.
    fn default() -> Fairness {
        Fairness::from_confidence(0.95, 0.25)
    }
}

impl Fairness {
    /// `k = ⌈ln(1 − c) / ln(1 − p)⌉` tries for confidence `c` and minimum branch probability
    /// `p` (both clamped into (0, 1); at least one try).
    pub fn from_confidence(confidence: f64, min_probability: f64) -> Fairness {
        let c = confidence.clamp(1e-9, 1.0 - 1e-12);
        let p = min_probability.clamp(1e-9, 1.0 - 1e-12);
        let k = ((1.0 - c).ln() / (1.0 - p).ln()).ceil();
        let tries = if k.is_finite() && k >= 1.0 {
            k.min(1e6) as usize
        } else {
            1
        };
        Fairness {
            tries,
            budget: tries * 4,
            at_least: 1,
            min_probability: p,
            goal: false,
        }
    }

    /// A fixed budget of tries with minimum branch probability `p`.
    pub fn with_tries(tries: usize, min_probability: f64) -> Fairness {
        Fairness {
            tries: tries.max(1),
            budget: tries.max(1),
            at_least: 1,
            min_probability: min_probability.clamp(1e-9, 1.0 - 1e-12),
            goal: false,
        }
    }

    /// Run every test at least `n` times (`--repetitions n`); the budget grows to `n` if it
    /// is smaller.
    pub fn repeating(self, n: usize) -> Fairness {
        Fairness {
            budget: self.budget.max(n),
            at_least: n.max(1),
            ..self
        }
    }

    /// For tests that aim at a goal (`true`) or not ([`Fairness::goal`]).
    pub fn aiming(self, goal: bool) -> Fairness {
        Fairness { goal, ..self }
    }

    /// The probability that an outcome of probability at least `p` was missed in `n`
    /// observations: `(1 − p)^n`.
    pub fn residual(&self, n: usize) -> f64 {
        (1.0 - self.min_probability).powi(n.min(i32::MAX as usize) as i32)
    }

    /// The confidence that `tries` observations give: `1 − (1 − p)^tries`.
    pub fn confidence(&self) -> f64 {
        1.0 - self.residual(self.tries)
    }
}

/// A choice point a try passed: after the trace `at` (label indices), the outcomes that
/// continue the test (`wanted`) and the one taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChoicePoint {
    /// The observed trace before the choice.
    pub at: Vec<u32>,
    /// The outcomes that continue the test (outputs, `δ`, or the input offered).
    pub wanted: Vec<u32>,
    /// The outcome taken.
    pub taken: u32,
}

/// How often each outcome was seen after each trace, over all tests of a session.
#[derive(Default, Debug)]
pub struct Branches {
    seen: Mutex<HashMap<Vec<u32>, BTreeMap<u32, usize>>>,
}

impl Branches {
    /// Count the outcomes of one try.
    pub fn record(&self, points: &[ChoicePoint]) {
        let mut m = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        for c in points {
            *m.entry(c.at.clone())
                .or_default()
                .entry(c.taken)
                .or_default() += 1;
        }
    }

    /// Observations after `at`, and how many of them were `outcome`.
    pub fn count(&self, at: &[u32], outcome: u32) -> (usize, usize) {
        let m = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        match m.get(at) {
            None => (0, 0),
            Some(c) => (c.values().sum(), c.get(&outcome).copied().unwrap_or(0)),
        }
    }
}

/// A choice point of a test: its wanted outcomes and how often the test saw each outcome.
type Seen = (Vec<u32>, BTreeMap<u32, usize>);

/// The tries of one test: the choice points it reached and what it saw there.
#[derive(Default, Debug)]
pub struct Tries {
    /// Per choice point: the wanted outcomes and how often this test saw each outcome.
    points: BTreeMap<Vec<u32>, Seen>,
    /// Tries so far.
    pub count: usize,
}

impl Tries {
    /// Add one try's choice points (also to the session's counts).
    pub fn add(&mut self, points: Vec<ChoicePoint>, session: &Branches) {
        session.record(&points);
        self.count += 1;
        for c in points {
            let e = self
                .points
                .entry(c.at)
                .or_insert_with(|| (c.wanted, BTreeMap::new()));
            *e.1.entry(c.taken).or_default() += 1;
        }
    }

    /// The first open choice point: a wanted outcome this test has not seen, not known to be
    /// absent (never seen in `fair.tries` or more observations of the session). `None` when
    /// every choice point is closed.
    pub fn open(&self, fair: &Fairness, session: &Branches) -> Option<(Vec<u32>, u32)> {
        for (at, (wanted, seen)) in &self.points {
            for &w in wanted {
                if seen.contains_key(&w) {
                    continue;
                }
                let (n, of_w) = session.count(at, w);
                if of_w > 0 || n < fair.tries {
                    return Some((at.clone(), w));
                }
            }
        }
        None
    }

    /// The fewest observations of the session after a choice point with a wanted outcome this
    /// test never saw (the evidence that it is absent), if there is one.
    pub fn weakest(&self, session: &Branches) -> Option<usize> {
        self.points
            .iter()
            .filter(|(_, (wanted, seen))| wanted.iter().any(|w| !seen.contains_key(w)))
            .map(|(at, _)| session.count(at, u32::MAX).0)
            .min()
    }

    /// What this test saw at its choice points, for the report: `after σ: x! 3, y! 0 (wanted)`.
    pub fn describe(&self, name: &dyn Fn(u32) -> String) -> String {
        let mut parts = Vec::new();
        for (at, (wanted, seen)) in &self.points {
            let sigma = if at.is_empty() {
                "ε".to_string()
            } else {
                at.iter().map(|&l| name(l)).collect::<Vec<_>>().join(" ")
            };
            let mut outcomes: Vec<u32> = seen.keys().copied().collect();
            for &w in wanted {
                if !outcomes.contains(&w) {
                    outcomes.push(w);
                }
            }
            let counts = outcomes
                .iter()
                .map(|o| {
                    let n = seen.get(o).copied().unwrap_or(0);
                    if wanted.contains(o) && n == 0 {
                        format!("{} 0 (wanted)", name(*o))
                    } else {
                        format!("{} {n}", name(*o))
                    }
                })
                .collect::<Vec<_>>()
                .join(", ");
            parts.push(format!("after `{sigma}`: {counts}"));
        }
        parts.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tries_from_confidence() {
        // ⌈ln 0.05 / ln 0.75⌉ = ⌈10.41⌉
        assert_eq!(Fairness::from_confidence(0.95, 0.25).tries, 11);
        // ⌈ln 0.01 / ln 0.5⌉ = ⌈6.64⌉
        assert_eq!(Fairness::from_confidence(0.99, 0.5).tries, 7);
        assert_eq!(Fairness::from_confidence(0.0, 0.5).tries, 1);
        assert!(Fairness::from_confidence(1.0, 1e-12).tries <= 1_000_000);
        let f = Fairness::from_confidence(0.95, 0.25);
        assert!(f.residual(f.tries) <= 0.05 && f.residual(f.tries - 1) > 0.05);
    }

    #[test]
    fn a_wanted_outcome_never_seen_closes_after_k_session_observations() {
        let fair = Fairness::with_tries(3, 0.5);
        let session = Branches::default();
        let mut t = Tries::default();
        let cp = |taken| ChoicePoint {
            at: vec![1, 2],
            wanted: vec![7],
            taken,
        };
        t.add(vec![cp(8)], &session);
        assert_eq!(t.open(&fair, &session), Some((vec![1, 2], 7)));
        t.add(vec![cp(8)], &session);
        assert!(t.open(&fair, &session).is_some());
        t.add(vec![cp(8)], &session);
        assert_eq!(t.open(&fair, &session), None);
        assert_eq!(t.weakest(&session), Some(3));
        // Another test reaching the same point is closed at once.
        let mut u = Tries::default();
        u.add(vec![cp(8)], &session);
        assert_eq!(u.open(&fair, &session), None);
        // An outcome known to be possible keeps a test open until it has seen it.
        let mut v = Tries::default();
        session.record(&[cp(7)]);
        v.add(vec![cp(8)], &session);
        assert!(v.open(&fair, &session).is_some());
        v.add(vec![cp(7)], &session);
        assert_eq!(v.open(&fair, &session), None);
        let d = v.describe(&|l| format!("l{l}"));
        assert_eq!(d, "after `l1 l2`: l7 1, l8 1");
    }
}
