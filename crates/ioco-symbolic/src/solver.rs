//! The solver interface: the three-valued oracle `solver(t) ∈ {sat, unsat, unknown}` and
//! `getValues(t, p̄)` of thesis §4.2 (P2 §2.2, L155).
//!
//! A [`Solver`] is incremental (push/pop, assertions) and answers [`SatResult`]; after `Sat` it
//! gives values for chosen variables ([`Solver::model`]). Soundness of every algorithm in this
//! crate holds for **any** solver that is correct when it says sat or unsat (thesis Thm. 4.19):
//! `Unknown` only ever leads to keeping a symbolic edge or to an Inconclusive verdict, never to
//! Fail. [`UnknownSolver`] (always `Unknown`) is the degenerate case used to test this.
//!
//! [`Checker`] wraps a solver with a memo table of satisfiability results keyed by the formula
//! (guard instances repeat a lot: the same switch from the same concrete state) and counts
//! queries, cache hits and solver time ([`SolverStats`]).

use crate::quick::{self, Quick};
use crate::term::{domain_constraint, SymVar, Term, T};
use ioco_lang::ir::{Defs, Type, Value};
use rustc_hash::FxHashMap as HashMap;
use std::time::{Duration, Instant};

/// The answer of a satisfiability query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatResult {
    /// Satisfiable.
    Sat,
    /// Unsatisfiable.
    Unsat,
    /// The solver gave up (time-out, incompleteness, no solver); the reason.
    Unknown(String),
}

impl SatResult {
    /// `Sat` or `Unknown` (the benefit of the doubt of thesis Def. 4.12).
    pub fn maybe(&self) -> bool {
        !matches!(self, SatResult::Unsat)
    }
}

/// An incremental SMT solver.
pub trait Solver {
    /// A short name for messages (`z3 4.8.12`).
    fn name(&self) -> String;
    /// Opens a scope.
    fn push(&mut self);
    /// Closes the innermost scope, dropping its assertions.
    fn pop(&mut self);
    /// Asserts a boolean term in the current scope.
    fn assert(&mut self, t: &T);
    /// Checks the current assertions.
    fn check(&mut self) -> SatResult;
    /// After `Sat`: values for these variables (`None` if the model lacks one or cannot be
    /// read back).
    fn model(&mut self, vars: &[SymVar]) -> Option<Vec<Value>>;
    /// Bounds the time of each check.
    fn set_timeout(&mut self, t: Duration);
    /// Whether the solver decides (sat or unsat, no time-out) every formula of the
    /// difference-logic fragment of [`crate::quick`]. Only then does [`Checker`] answer such
    /// formulas itself, so the fast path never changes an answer of the solver (a solver that
    /// may say `unknown` keeps saying it). Default `false`.
    fn decides_difference_logic(&self) -> bool {
        false
    }
}

/// A solver that never knows: every check is `Unknown`. Testing with it must never give Fail.
#[derive(Debug, Default)]
pub struct UnknownSolver;

impl Solver for UnknownSolver {
    fn name(&self) -> String {
        "unknown-solver".into()
    }
    fn push(&mut self) {}
    fn pop(&mut self) {}
    fn assert(&mut self, _: &T) {}
    fn check(&mut self) -> SatResult {
        SatResult::Unknown("the solver answers unknown to everything".into())
    }
    fn model(&mut self, _: &[SymVar]) -> Option<Vec<Value>> {
        None
    }
    fn set_timeout(&mut self, _: Duration) {}
}

/// Counters of solver work.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SolverStats {
    /// Satisfiability questions asked (cached or not).
    pub queries: u64,
    /// Questions answered from the memo table.
    pub cache_hits: u64,
    /// Value choices answered from the pool of earlier models.
    pub pool_hits: u64,
    /// Questions answered by constant folding (no solver call).
    pub trivial: u64,
    /// Checks decided by the difference-logic fast path ([`crate::quick`], no solver call).
    pub quick: u64,
    /// Value choices found by sampling and checked by evaluation ([`crate::sample`], no
    /// solver call).
    pub sampled: u64,
    /// Calls of [`Solver::check`].
    pub solver_calls: u64,
    /// Model extractions.
    pub models: u64,
    /// `Unknown` answers.
    pub unknowns: u64,
    /// Time spent in the solver.
    pub solver_time: Duration,
}

/// A solver with a memo table and statistics (the object the algorithms use).
pub struct Checker {
    solver: Box<dyn Solver>,
    /// Memoised answers, and whether the fast path of [`crate::quick`] gave them.
    cache: HashMap<T, (SatResult, bool)>,
    pool: HashMap<(T, Vec<SymVar>), Vec<Vec<Value>>>,
    /// Counters.
    pub stats: SolverStats,
    /// Maximum number of memoised formulas (the table is cleared when full).
    pub cache_limit: usize,
    /// Decide difference-logic formulas without the solver ([`crate::quick`]; on when the
    /// solver [decides them](Solver::decides_difference_logic), as Z3 does).
    /// Turning it off changes no answer (see the property test `tests/solver_quick.rs`),
    /// only the time and possibly which model is returned.
    pub quick: bool,
}

impl Checker {
    /// Wraps a solver.
    pub fn new(solver: Box<dyn Solver>) -> Checker {
        Checker {
            cache: HashMap::default(),
            pool: HashMap::default(),
            stats: SolverStats::default(),
            cache_limit: 100_000,
            quick: solver.decides_difference_logic(),
            solver,
        }
    }

    /// The underlying solver's name.
    pub fn solver_name(&self) -> String {
        self.solver.name()
    }

    /// Sets the per-check time-out.
    pub fn set_timeout(&mut self, t: Duration) {
        self.solver.set_timeout(t);
    }

    /// Is `φ` (with the domain constraints of its variables) satisfiable? Memoised.
    pub fn sat(&mut self, defs: &Defs, phi: &T) -> SatResult {
        match self.sat_without_solver(defs, phi) {
            Some((r, _)) => r,
            None => self.sat_by_solver(defs, phi),
        }
    }

    /// [`Checker::sat`] if it can be answered without calling the solver (a constant, the
    /// memo table, or the fast path of [`crate::quick`]), with whether the answer is the
    /// fast path's (or a constant's): then [`Checker::values`] needs no solver either.
    /// `None` when only the solver can tell (then [`Checker::sat_by_solver`] asks it, or a
    /// witness found otherwise is recorded with [`Checker::witnessed`]). Counts as one query.
    pub fn sat_without_solver(&mut self, defs: &Defs, phi: &T) -> Option<(SatResult, bool)> {
        self.stats.queries += 1;
        match phi.as_const() {
            Some(Value::Bool(b)) => {
                self.stats.trivial += 1;
                let r = if *b { SatResult::Sat } else { SatResult::Unsat };
                return Some((r, true));
            }
            Some(_) => return Some((SatResult::Unknown("not a boolean formula".into()), true)),
            None => {}
        }
        if let Some(r) = self.cache.get(phi) {
            self.stats.cache_hits += 1;
            return Some(r.clone());
        }
        let r = match self.quick_check(defs, phi, &[], None)? {
            Quick::Sat(_) => SatResult::Sat,
            Quick::Unsat => SatResult::Unsat,
        };
        self.remember(phi, r.clone(), true);
        Some((r, true))
    }

    /// The solver's answer to [`Checker::sat`] (after [`Checker::sat_without_solver`] said
    /// `None`), memoised.
    pub fn sat_by_solver(&mut self, defs: &Defs, phi: &T) -> SatResult {
        self.solver.push();
        self.assert_with_domains(defs, phi);
        let r = self.timed_check();
        self.solver.pop();
        self.remember(phi, r.clone(), false);
        r
    }

    /// Records that `φ` is satisfiable because a witness was found and checked by evaluation
    /// (e.g. by [`crate::sample`]): later [`Checker::sat`] questions on `φ` need no solver.
    pub fn witnessed(&mut self, phi: &T) {
        self.stats.sampled += 1;
        if !self.cache.contains_key(phi) {
            self.remember(phi, SatResult::Sat, false);
        }
    }

    fn remember(&mut self, phi: &T, r: SatResult, fast: bool) {
        if self.cache.len() >= self.cache_limit {
            self.cache.clear();
        }
        self.cache.insert(phi.clone(), (r, fast));
    }

    /// The fast path: `phi`, the domain constraints of its variables and of `vars`, and `hint`.
    fn quick_check(
        &mut self,
        defs: &Defs,
        phi: &T,
        vars: &[SymVar],
        hint: Option<&T>,
    ) -> Option<Quick> {
        if !self.quick {
            return None;
        }
        let mut fs = vec![phi.clone()];
        let mut seen = phi.vars();
        for v in vars {
            if !seen.contains(v) {
                seen.push(v.clone());
            }
        }
        for v in &seen {
            let d = domain_constraint(defs, v);
            if d.as_const().is_none() {
                fs.push(d);
            }
        }
        fs.extend(hint.cloned());
        let r = quick::decide(defs, &fs, quick::BUDGET);
        if r.is_some() {
            self.stats.quick += 1;
        }
        r
    }

    fn assert_with_domains(&mut self, defs: &Defs, phi: &T) {
        self.solver.assert(phi);
        for v in phi.vars() {
            let d = domain_constraint(defs, &v);
            if d.as_const().is_none() {
                self.solver.assert(&d);
            }
        }
    }

    fn timed_check(&mut self) -> SatResult {
        let t0 = Instant::now();
        let r = self.solver.check();
        self.stats.solver_time += t0.elapsed();
        self.stats.solver_calls += 1;
        if matches!(r, SatResult::Unknown(_)) {
            self.stats.unknowns += 1;
        }
        r
    }

    /// `getValues(φ, p̄)`: values for `vars` such that the other variables of `φ` can be chosen
    /// to make `φ` true, trying the `hints` first (each an extra constraint, dropped when it
    /// makes the formula unsat; see [`crate::pick`]). `Err` carries the reason when no values
    /// were found (unsat or unknown).
    pub fn values(
        &mut self,
        defs: &Defs,
        phi: &T,
        vars: &[SymVar],
        hints: &[T],
    ) -> Result<Vec<Value>, SatResult> {
        self.stats.queries += 1;
        if let Some(r) = self.quick_values(defs, phi, vars, hints) {
            return r;
        }
        self.solver.push();
        self.assert_with_domains(defs, phi);
        for v in vars {
            let d = domain_constraint(defs, v);
            if d.as_const().is_none() {
                self.solver.assert(&d);
            }
        }
        for h in hints {
            self.solver.push();
            self.solver.assert(h);
            if self.timed_check() == SatResult::Sat {
                self.stats.models += 1;
                if let Some(m) = self.solver.model(vars) {
                    self.solver.pop();
                    self.solver.pop();
                    return Ok(m);
                }
            }
            self.solver.pop();
        }
        // no hint (or none satisfiable): the plain query (a sat hint implies sat, so the plain
        // check is only needed here)
        let r = self.timed_check();
        if r != SatResult::Sat {
            self.solver.pop();
            return Err(r);
        }
        self.stats.models += 1;
        let m = self.solver.model(vars);
        self.solver.pop();
        m.ok_or_else(|| SatResult::Unknown("the solver gave no model".into()))
    }
}

impl Checker {
    /// [`Checker::values`] by the fast path; `None` when some question is outside it.
    fn quick_values(
        &mut self,
        defs: &Defs,
        phi: &T,
        vars: &[SymVar],
        hints: &[T],
    ) -> Option<Result<Vec<Value>, SatResult>> {
        if !self.quick {
            return None;
        }
        // a variable in none of the formulas is unconstrained (ranges always have their
        // domain constraint, so they are in the model)
        let read = |m: &quick::Model| -> Option<Vec<Value>> {
            vars.iter()
                .map(|v| {
                    m.get(v).cloned().or(match v.ty {
                        Type::Int => Some(Value::Int(0)),
                        Type::Bool => Some(Value::Bool(false)),
                        _ => None,
                    })
                })
                .collect()
        };
        for h in hints {
            match self.quick_check(defs, phi, vars, Some(h))? {
                Quick::Sat(m) => return read(&m).map(Ok),
                Quick::Unsat => {}
            }
        }
        Some(match self.quick_check(defs, phi, vars, None)? {
            Quick::Sat(m) => Ok(read(&m)?),
            Quick::Unsat => Err(SatResult::Unsat),
        })
    }

    /// [`Checker::values`] with reuse: the models found for the same formula and variables
    /// are pooled (up to [`POOL_LIMIT`]); once the pool has a few, a random pooled model is
    /// reused instead of asking the solver, with a probability that grows with the pool (up
    /// to 1/2). The
    /// pool is filled with diverse models (the hints are random), so reuse keeps diversity.
    pub fn values_pooled(
        &mut self,
        defs: &Defs,
        phi: &T,
        vars: &[SymVar],
        rng: &mut rand_chacha::ChaCha8Rng,
        hints: impl FnOnce(&mut rand_chacha::ChaCha8Rng) -> Vec<T>,
    ) -> Result<Vec<Value>, SatResult> {
        self.pooled(phi, vars, rng, |ck, rng| {
            let h = hints(rng);
            ck.values(defs, phi, vars, &h)
        })
    }

    /// The pool of [`Checker::values_pooled`] around any source `fresh` of values for `vars`
    /// under `phi` (the solver with hints, or [`crate::sample`]): a pooled value is reused
    /// with the same probability, else `fresh` is asked and its answer pooled. Reuse also
    /// repeats values, which some bugs need (LuckyPeople's "five of the same sex in a row").
    pub fn pooled(
        &mut self,
        phi: &T,
        vars: &[SymVar],
        rng: &mut rand_chacha::ChaCha8Rng,
        fresh: impl FnOnce(&mut Checker, &mut rand_chacha::ChaCha8Rng) -> Result<Vec<Value>, SatResult>,
    ) -> Result<Vec<Value>, SatResult> {
        use rand::Rng;
        let key = (phi.clone(), vars.to_vec());
        if let Some(pool) = self.pool.get(&key) {
            let n = pool.len();
            // reuse with probability (n - 4) / (n + 4), at most 1/2: a reused model costs no
            // solver call, a fresh one brings new values (issue #20 item 3)
            if n >= 4 && rng.random_range(0..n + 4) < (n - 4).min((n + 4) / 2) {
                self.stats.queries += 1;
                self.stats.pool_hits += 1;
                return Ok(pool[rng.random_range(0..n)].clone());
            }
        }
        let w = fresh(self, rng)?;
        if self.pool.len() >= self.cache_limit {
            self.pool.clear();
        }
        let pool = self.pool.entry(key).or_default();
        if pool.len() < POOL_LIMIT && !pool.contains(&w) {
            pool.push(w.clone());
        }
        Ok(w)
    }
}

/// Most models pooled per formula.
pub const POOL_LIMIT: usize = 64;

/// Equality of a variable and a value, as a term (for hints and substitutions).
pub fn var_is(v: &SymVar, value: Value) -> T {
    Term::eq(Term::sym(v.clone()), Term::val(value))
}
