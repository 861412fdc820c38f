//! Values for a guard by **sampling and repair, checked by evaluation** (no SMT solver): the
//! fast path of input (and simulated output) choice for guards outside the difference-logic
//! fragment of [`crate::quick`], such as DispatchProcess's `Job` input (TorXakis issue #330):
//!
//! ```text
//! jobId(job) > 0 && (jobDescription(job) matches /[A-Z][0-9]{2}[a-z]+/) && x(job) > 0
//!   && y(job) > 0 && (if x(job) < y(job) then abs(x(job) - y(job)) < 100 * x(job) else …)
//!   && jobId(job) == jobid && jobid > 0 && !(jobid == 3 || jobid == 8 || …)
//! ```
//!
//! Z3 takes milliseconds to find a model of such a guard (strings and data types); this module
//! takes microseconds for most. **Algorithm** (a stochastic local search in the style of
//! WalkSAT, on the guard's conjuncts): the guard is split into its top-level conjuncts (calls
//! in conjunct position are unfolded, [`crate::term::inline_call`]), plus the domain
//! constraints of the variables ([`crate::term::domain_constraint`]). A random candidate value
//! is drawn for every variable by its type ([`draw_value`]). Then, for up to [`ROUNDS`]
//! rounds, every conjunct is evaluated on the candidate; a false one is *repaired* by changing
//! the positions it reads (a variable, or a field of a field … of one):
//!
//! - `p matches /re/`: `p` becomes a string generated from `re` ([`ioco_lang::regex_gen`]);
//! - `p == t`, `p < t`, … where `t` evaluates to a constant: `p` becomes `t` or a value on the
//!   right side of it (`t + 1 + d` for `>`, with a small random `d`); either side when both are
//!   positions;
//! - `p is C`: `p` becomes a value built with constructor `C`; a boolean position `p`: the
//!   value that makes it true;
//! - `!`, `&&`, `||`, `=>` and `if then else` are followed to the parts that are false (one
//!   random disjunct of a disjunction);
//! - anything else: every position it reads is drawn afresh.
//!
//! A round with every conjunct true ends the search; the candidate is returned only if the
//! **whole guard and every domain constraint evaluate to `true`** with the IR's semantics
//! ([`Term::subst`] folds a term on constants: an evaluation error leaves it unfolded, which
//! counts as false). So a value returned is a witness: it proves the guard satisfiable, and
//! the caller can skip the satisfiability check. When the search fails, the caller asks the
//! solver as before: sampling can only save solver calls, never change a verdict.
//!
//! **Distribution.** Every choice comes from the caller's seeded generator (the same seed
//! gives the same values). Integers are drawn as the picker's random strategy draws them
//! (small magnitudes likelier, either sign) or near a constant of the guard; strings are short
//! printable strings, or generated from the regular expression that constrains them; data
//! values have a random constructor (non-recursive ones preferred below depth
//! [`DEPTH`]). Repairs add a random offset, so values spread (`x > 0` gives `1 + d`).

use crate::pick::int_constants;
use crate::term::{domain_constraint, inline_call, SymVar, Term, T};
use ioco_lang::ast::{BinOp, UnOp};
use ioco_lang::ir::{AdtId, Defs, Type, Value};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Rounds of evaluation and repair before giving up.
pub const ROUNDS: usize = 24;

/// Depth below which data values prefer constructors without recursive fields.
pub const DEPTH: usize = 3;

/// How deep calls in conjunct or repair position are unfolded.
const UNFOLD: usize = 4;

/// Longest string drawn without a regular expression.
const MAX_LEN: u32 = 8;

/// Values for `vars` that make `phi` (and the domain constraints of `vars` and of the other
/// variables of `phi`) evaluate to `true`, or `None` when the search gives up. The values of
/// `phi`'s variables not in `vars` are chosen too, but not returned: the caller asks only
/// for `vars` (with the rest existentially quantified, as [`crate::Checker::values`] does).
///
/// `last`: the values last chosen for the same variables, if any: half of the searches then
/// start from them, each leaf (integer, boolean, string, constructor) kept with probability
/// 3/4 (else drawn afresh). Values then repeat across steps as the solver's models used to
/// (LuckyPeople's fault needs five persons of the same sex in a row), while the other half
/// of the searches start from scratch.
pub fn sample(
    defs: &Defs,
    phi: &T,
    vars: &[SymVar],
    last: Option<&[Value]>,
    rng: &mut ChaCha8Rng,
) -> Option<Vec<Value>> {
    let mut all: Vec<SymVar> = vars.to_vec();
    for v in phi.vars() {
        if !all.contains(&v) {
            all.push(v);
        }
    }
    let mut conj = Vec::new();
    conjuncts(defs, phi, 0, &mut conj);
    for v in &all {
        conjuncts(defs, &domain_constraint(defs, v), 0, &mut conj);
    }
    if conj
        .iter()
        .any(|c| c.as_const() == Some(&Value::Bool(false)))
    {
        return None;
    }
    let mut s = Search {
        defs,
        vars: &all,
        consts: int_constants(phi),
        vals: Vec::new(),
        rng,
    };
    s.vals = all.iter().map(|v| s.draw(v.ty, 0)).collect();
    if let Some(last) = last.filter(|l| l.len() == vars.len()) {
        if s.rng.random_bool(0.5) {
            for (i, v) in last.iter().enumerate() {
                s.vals[i] = s.mutate(v.clone(), vars[i].ty, 0);
            }
        }
    }
    for _ in 0..ROUNDS {
        let mut ok = true;
        for c in &conj {
            if s.eval(c) != Some(true) {
                ok = false;
                s.repair(c, true, 0);
            }
        }
        if ok {
            // the witness check: the whole guard and every domain constraint, by evaluation
            let fine = s.eval(phi) == Some(true)
                && all
                    .iter()
                    .all(|v| s.eval(&domain_constraint(defs, v)) == Some(true));
            return fine.then(|| s.vals[..vars.len()].to_vec());
        }
    }
    None
}

/// The top-level conjuncts of `t` (calls unfolded), without the `true`s.
fn conjuncts(defs: &Defs, t: &T, depth: usize, out: &mut Vec<T>) {
    match &**t {
        Term::Const(Value::Bool(true)) => {}
        Term::Binary(BinOp::And, a, b) => {
            conjuncts(defs, a, depth, out);
            conjuncts(defs, b, depth, out);
        }
        Term::Call(f, xs) if depth < UNFOLD && (*f as usize) < defs.functions.len() => {
            conjuncts(defs, &inline_call(defs, *f, xs), depth + 1, out)
        }
        _ => out.push(t.clone()),
    }
}

/// A position of the candidate: a variable (its index) and a path of fields (type,
/// constructor, field) into its value.
#[derive(Clone, Debug, PartialEq)]
struct Pos {
    var: usize,
    path: Vec<(AdtId, u32, u32)>,
}

struct Search<'a> {
    defs: &'a Defs,
    vars: &'a [SymVar],
    /// The integer constants of the guard (candidate values).
    consts: Vec<i64>,
    /// The candidate value of each variable.
    vals: Vec<Value>,
    rng: &'a mut ChaCha8Rng,
}

impl Search<'_> {
    /// The value of `t` on the candidate, if it folds to a constant.
    fn value(&self, t: &T) -> Option<Value> {
        let lookup = |v: &SymVar| {
            self.vars
                .iter()
                .position(|x| x == v)
                .map(|i| self.vals[i].clone())
        };
        Term::subst(t, self.defs, &lookup).as_const().cloned()
    }

    /// The truth of `t` on the candidate (`None`: not a boolean constant, e.g. an evaluation
    /// error).
    fn eval(&self, t: &T) -> Option<bool> {
        self.value(t)?.as_bool()
    }

    /// The position `t` names, if it is a variable or a field chain on one.
    fn pos(&self, t: &Term) -> Option<Pos> {
        match t {
            Term::Sym(v) => Some(Pos {
                var: self.vars.iter().position(|x| x == v)?,
                path: Vec::new(),
            }),
            Term::Field(a, ty, c, f) => {
                let mut p = self.pos(a)?;
                p.path.push((*ty, *c, *f));
                Some(p)
            }
            _ => None,
        }
    }

    /// The type at a position.
    fn ty(&self, p: &Pos) -> Option<Type> {
        match p.path.last() {
            None => Some(self.vars[p.var].ty),
            Some(&(t, c, f)) => {
                let ctor = self.defs.types.get(t as usize)?.ctors.get(c as usize)?;
                Some(ctor.fields.get(f as usize)?.1)
            }
        }
    }

    /// Sets the value at a position, rebuilding the data values on the way with the
    /// constructors the path names (fields not on the path are kept if the constructor
    /// stays, else drawn).
    fn set(&mut self, p: &Pos, v: Value) {
        let old = self.vals[p.var].clone();
        let new = self.set_in(old, &p.path, v, 0);
        self.vals[p.var] = new;
    }

    fn set_in(&mut self, cur: Value, path: &[(AdtId, u32, u32)], v: Value, depth: usize) -> Value {
        let Some((&(t, c, f), rest)) = path.split_first() else {
            return v;
        };
        let mut fields: Vec<Value> = match cur {
            Value::Adt(t2, c2, fs) if t2 == t && c2 == c => fs.to_vec(),
            _ => match self.draw_ctor(t, c, depth) {
                Value::Adt(_, _, fs) => fs.to_vec(),
                _ => return v,
            },
        };
        if let Some(slot) = fields.get_mut(f as usize) {
            let inner = std::mem::replace(slot, Value::Bool(false));
            *slot = self.set_in(inner, rest, v, depth + 1);
        }
        Value::Adt(t, c, fields.into())
    }

    /// Draws the value at a position afresh.
    fn redraw(&mut self, p: &Pos) {
        if let Some(ty) = self.ty(p) {
            let v = self.draw(ty, p.path.len());
            self.set(p, v);
        }
    }

    /// A random value of type `ty` at data depth `depth`.
    fn draw(&mut self, ty: Type, depth: usize) -> Value {
        match ty {
            Type::Bool => Value::Bool(self.rng.random()),
            Type::Int => Value::Int(self.draw_int()),
            Type::Range(lo, hi) => {
                let i = self.draw_int();
                Value::Int(if lo <= i && i <= hi && self.rng.random_bool(0.5) {
                    i
                } else {
                    self.rng.random_range(lo..=hi.max(lo))
                })
            }
            Type::Str(len, re) => {
                let (lo, hi) = len.unwrap_or((0, u32::MAX));
                if let Some(r) = re.and_then(|r| self.defs.regexes.get(r as usize)).cloned() {
                    let rng = &mut *self.rng;
                    if let Some(s) = r.generate(&mut |n| rng.random_range(0..n)) {
                        return Value::Str(s.into());
                    }
                }
                let n = self
                    .rng
                    .random_range(lo..=hi.min(lo.saturating_add(MAX_LEN)).max(lo));
                let s: String = (0..n).map(|_| self.rng.random_range(' '..='~')).collect();
                Value::Str(s.into())
            }
            Type::Adt(t) => {
                let Some(def) = self.defs.types.get(t as usize) else {
                    return Value::Bool(false);
                };
                let n = def.ctors.len() as u32;
                if n == 0 {
                    return Value::Bool(false);
                }
                let flat: Vec<u32> = (0..n)
                    .filter(|&c| {
                        def.ctors[c as usize]
                            .fields
                            .iter()
                            .all(|(_, fty)| !matches!(fty, Type::Adt(_)))
                    })
                    .collect();
                let c = if depth >= DEPTH && !flat.is_empty() {
                    flat[self.rng.random_range(0..flat.len())]
                } else {
                    self.rng.random_range(0..n)
                };
                self.draw_ctor(t, c, depth)
            }
        }
    }

    /// A value built with constructor `c` of type `t`, its fields drawn.
    fn draw_ctor(&mut self, t: AdtId, c: u32, depth: usize) -> Value {
        let fields: Vec<Type> = match self.defs.types.get(t as usize) {
            Some(def) => match def.ctors.get(c as usize) {
                Some(ctor) => ctor.fields.iter().map(|(_, ty)| *ty).collect(),
                None => return Value::Bool(false),
            },
            None => return Value::Bool(false),
        };
        // past twice the depth, recursive fields stop at their first non-recursive
        // constructor (the draw above); a type without one ends in a failed evaluation
        let vals: Vec<Value> = fields
            .into_iter()
            .map(|ty| {
                if depth > 4 * DEPTH {
                    Value::Bool(false)
                } else {
                    self.draw(ty, depth + 1)
                }
            })
            .collect();
        Value::Adt(t, c, vals.into())
    }

    /// A random integer: small magnitudes likelier (scales 10, 100, 1000, either sign, as
    /// [`crate::pick::Strategy::Random`]), or a constant of the guard, give or take one.
    fn draw_int(&mut self) -> i64 {
        match self.rng.random_range(0..8) {
            0..=2 => self.rng.random_range(-10..=10),
            3..=4 => self.rng.random_range(-100..=100),
            5 => self.rng.random_range(-1000..=1000),
            _ if !self.consts.is_empty() => {
                let c = self.consts[self.rng.random_range(0..self.consts.len())];
                c.saturating_add(self.rng.random_range(-1..=1))
            }
            _ => self.rng.random_range(-10..=10),
        }
    }

    /// `v` (of type `ty`) with each leaf redrawn with probability 1/4 (a data value's
    /// constructor is a leaf too: redrawing it redraws the value).
    fn mutate(&mut self, v: Value, ty: Type, depth: usize) -> Value {
        match (v, ty) {
            (Value::Adt(t, c, fs), Type::Adt(t2)) if t == t2 && self.rng.random_range(0..4) > 0 => {
                let tys: Vec<Type> = self
                    .defs
                    .types
                    .get(t as usize)
                    .and_then(|d| d.ctors.get(c as usize))
                    .map(|k| k.fields.iter().map(|(_, ty)| *ty).collect())
                    .unwrap_or_default();
                if tys.len() != fs.len() {
                    return self.draw(ty, depth);
                }
                let fields: Vec<Value> = fs
                    .iter()
                    .zip(tys)
                    .map(|(f, fty)| self.mutate(f.clone(), fty, depth + 1))
                    .collect();
                Value::Adt(t, c, fields.into())
            }
            (Value::Adt(..), _) => self.draw(ty, depth),
            (v, _) if self.rng.random_range(0..4) > 0 => v,
            _ => self.draw(ty, depth),
        }
    }

    /// A random non-negative offset (small likelier).
    fn offset(&mut self) -> i64 {
        match self.rng.random_range(0..10) {
            0..=5 => self.rng.random_range(0..=10),
            6..=8 => self.rng.random_range(0..=100),
            _ => self.rng.random_range(0..=1000),
        }
    }

    /// Changes the candidate so that `t` (if `pos`, else `!t`) may become true.
    fn repair(&mut self, t: &T, pos: bool, depth: usize) {
        use BinOp::*;
        match &**t {
            Term::Unary(UnOp::Not, a) => self.repair(a, !pos, depth),
            Term::Binary(op @ (And | Or), a, b) => {
                let conj = (*op == And) == pos;
                let fa = self.eval(a) != Some(pos);
                let fb = self.eval(b) != Some(pos);
                if conj {
                    // both must hold: repair the failing ones
                    if fa {
                        self.repair(a, pos, depth);
                    }
                    if fb {
                        self.repair(b, pos, depth);
                    }
                } else if self.rng.random() {
                    self.repair(a, pos, depth);
                } else {
                    self.repair(b, pos, depth);
                }
            }
            Term::Binary(Implies, a, b) => {
                // a => b ≡ !a || b;  !(a => b) ≡ a && !b
                if pos {
                    if self.rng.random() {
                        self.repair(a, false, depth);
                    } else {
                        self.repair(b, true, depth);
                    }
                } else {
                    self.repair(a, true, depth);
                    self.repair(b, false, depth);
                }
            }
            Term::Ite(c, a, b) => match self.eval(c) {
                Some(taken) => {
                    let (here, there) = if taken { (a, b) } else { (b, a) };
                    // a branch that is the constant `!pos` is hopeless; a constant `pos`
                    // needs no repair, only to be taken
                    let hopeless = |x: &T| x.as_const() == Some(&Value::Bool(!pos));
                    let fixable = |x: &T| x.as_const().is_none() || !hopeless(x);
                    // mostly the branch taken; sometimes (or if it cannot be repaired) the
                    // condition, to switch branches
                    let switch = fixable(there)
                        && (!fixable(here)
                            || here.as_const().is_some()
                            || self.rng.random_range(0..4) == 0);
                    if switch {
                        self.repair(c, !taken, depth);
                        if there.as_const().is_none() && self.eval(there) != Some(pos) {
                            self.repair(there, pos, depth);
                        }
                    } else {
                        self.repair(here, pos, depth);
                    }
                }
                None => self.redraw_all(c),
            },
            Term::Matches(a, re) => match self.pos(a) {
                Some(p) if pos => {
                    let rng = &mut *self.rng;
                    match re.generate(&mut |n| rng.random_range(0..n)) {
                        Some(s) => self.set(&p, Value::Str(s.into())),
                        None => self.redraw(&p),
                    }
                }
                Some(p) => self.redraw(&p),
                None => self.redraw_all(t),
            },
            Term::Is(a, ty, c) => match self.pos(a) {
                Some(p) => {
                    let n = self
                        .defs
                        .types
                        .get(*ty as usize)
                        .map_or(0, |d| d.ctors.len() as u32);
                    let k = if pos {
                        *c
                    } else if n > 1 {
                        // another constructor
                        (c + 1 + self.rng.random_range(0..n - 1)) % n
                    } else {
                        *c
                    };
                    let v = self.draw_ctor(*ty, k, p.path.len());
                    self.set(&p, v);
                }
                None => self.redraw_all(t),
            },
            Term::Binary(op @ (Lt | Le | Gt | Ge | Eq | Ne), a, b) => {
                let op = if pos { *op } else { negated(*op) };
                self.repair_cmp(op, a, b, t);
            }
            Term::Sym(_) | Term::Field(..) => match self.pos(t) {
                Some(p) if self.ty(&p) == Some(Type::Bool) => self.set(&p, Value::Bool(pos)),
                _ => self.redraw_all(t),
            },
            Term::Call(f, xs) if depth < UNFOLD && (*f as usize) < self.defs.functions.len() => {
                let body = inline_call(self.defs, *f, xs);
                self.repair(&body, pos, depth + 1)
            }
            _ => self.redraw_all(t),
        }
    }

    /// Repairs `a op b`: a side that is a position takes a value that makes the comparison
    /// true, given the other side's value.
    fn repair_cmp(&mut self, op: BinOp, a: &T, b: &T, whole: &T) {
        let mut sides: Vec<(Pos, BinOp, Value)> = Vec::new();
        if let (Some(p), Some(v)) = (self.pos(a), self.value(b)) {
            sides.push((p, op, v));
        }
        if let (Some(p), Some(v)) = (self.pos(b), self.value(a)) {
            sides.push((p, flipped(op), v));
        }
        if sides.is_empty() {
            return self.redraw_all(whole);
        }
        let i = self.rng.random_range(0..sides.len());
        let (p, op, v) = sides.swap_remove(i);
        let new = match (op, v) {
            (BinOp::Eq, v) => Some(v),
            (BinOp::Ne, Value::Int(k)) => {
                let d = 1 + self.offset();
                Some(Value::Int(if self.rng.random() {
                    k.saturating_add(d)
                } else {
                    k.saturating_sub(d)
                }))
            }
            (BinOp::Ne, _) => None,
            (op, Value::Int(k)) => {
                let d = self.offset();
                Some(Value::Int(match op {
                    BinOp::Gt => k.saturating_add(1).saturating_add(d),
                    BinOp::Ge => k.saturating_add(d),
                    BinOp::Lt => k.saturating_sub(1).saturating_sub(d),
                    _ => k.saturating_sub(d),
                }))
            }
            _ => None,
        };
        match new {
            Some(v) => self.set(&p, v),
            None => self.redraw(&p),
        }
    }

    /// Draws every position `t` reads afresh.
    fn redraw_all(&mut self, t: &T) {
        let mut ps = Vec::new();
        self.positions(t, &mut ps);
        for p in ps {
            self.redraw(&p);
        }
    }

    /// The maximal positions read in `t` (each once).
    fn positions(&self, t: &T, out: &mut Vec<Pos>) {
        if let Some(p) = self.pos(t) {
            if !out.contains(&p) {
                out.push(p);
            }
            return;
        }
        match &**t {
            Term::Const(_) | Term::Sym(_) => {}
            Term::Unary(_, a) | Term::Field(a, ..) | Term::Is(a, ..) | Term::Matches(a, _) => {
                self.positions(a, out)
            }
            Term::Binary(_, a, b) => {
                self.positions(a, out);
                self.positions(b, out);
            }
            Term::Ite(a, b, c) => {
                self.positions(a, out);
                self.positions(b, out);
                self.positions(c, out);
            }
            Term::Ctor(_, _, xs) | Term::Call(_, xs) | Term::Builtin(_, xs) => {
                xs.iter().for_each(|x| self.positions(x, out))
            }
        }
    }
}

/// The comparison that holds when `op` does not.
fn negated(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Ge,
        BinOp::Le => BinOp::Gt,
        BinOp::Gt => BinOp::Le,
        BinOp::Ge => BinOp::Lt,
        BinOp::Eq => BinOp::Ne,
        _ => BinOp::Eq,
    }
}

/// `a op b` as `b op' a`.
fn flipped(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        o => o,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ioco_lang::ir::{AdtDef, CtorDef};
    use ioco_lang::regex::Regex;
    use proptest::prelude::*;
    use rand::SeedableRng;
    use std::sync::Arc;

    fn var(name: &str, ty: Type) -> SymVar {
        SymVar {
            name: name.into(),
            ty,
        }
    }

    fn bin(op: BinOp, a: T, b: T) -> T {
        Arc::new(Term::Binary(op, a, b))
    }

    /// `type JobData = JobData { id: int, desc: string, x: int, y: int }` and
    /// `type Shape = Dot | Box { w: int[1..5] }`.
    fn defs() -> Defs {
        let job = AdtDef {
            name: "JobData".into(),
            ctors: vec![CtorDef {
                name: "JobData".into(),
                fields: vec![
                    ("id".into(), Type::Int),
                    ("desc".into(), Type::STRING),
                    ("x".into(), Type::Int),
                    ("y".into(), Type::Int),
                ],
            }],
            span: Default::default(),
        };
        let shape = AdtDef {
            name: "Shape".into(),
            ctors: vec![
                CtorDef {
                    name: "Dot".into(),
                    fields: vec![],
                },
                CtorDef {
                    name: "Box".into(),
                    fields: vec![("w".into(), Type::Range(1, 5))],
                },
            ],
            span: Default::default(),
        };
        Defs {
            types: vec![job, shape],
            ..Defs::default()
        }
    }

    fn field(job: &T, f: u32) -> T {
        Arc::new(Term::Field(job.clone(), 0, 0, f))
    }

    /// DispatchProcess's `Job` guard, with `jobid` hidden and ids 3 and 5 in use.
    fn dispro_guard() -> (T, Vec<SymVar>) {
        let job = var("job@0", Type::Adt(0));
        let jid = var("jobid@0", Type::Int);
        let (j, i) = (Term::sym(job.clone()), Term::sym(jid.clone()));
        let (x, y) = (field(&j, 2), field(&j, 3));
        let re = Arc::new(Regex::parse("[A-Z][0-9]{2}[a-z]+").unwrap());
        let diff = bin(BinOp::Sub, x.clone(), y.clone());
        let abs = Arc::new(Term::Ite(
            bin(BinOp::Lt, diff.clone(), Term::int(0)),
            Arc::new(Term::Unary(UnOp::Neg, diff.clone())),
            diff,
        ));
        let hundred = |t: &T| bin(BinOp::Mul, Term::int(100), t.clone());
        let ite = Arc::new(Term::Ite(
            bin(BinOp::Lt, x.clone(), y.clone()),
            bin(BinOp::Lt, abs.clone(), hundred(&x)),
            bin(BinOp::Lt, abs, hundred(&y)),
        ));
        let used = bin(
            BinOp::Or,
            Term::eq(Term::int(3), i.clone()),
            Term::eq(Term::int(5), i.clone()),
        );
        let phi = Term::and_all([
            bin(BinOp::Gt, field(&j, 0), Term::int(0)),
            Term::matches(field(&j, 1), re),
            bin(BinOp::Gt, x, Term::int(0)),
            bin(BinOp::Gt, y, Term::int(0)),
            ite,
            Term::eq(field(&j, 0), i.clone()),
            bin(BinOp::Gt, i, Term::int(0)),
            Term::negate(used),
        ]);
        (phi, vec![job, jid])
    }

    fn holds(defs: &Defs, phi: &T, vars: &[SymVar], vals: &[Value]) -> bool {
        let lookup = |v: &SymVar| vars.iter().position(|x| x == v).map(|i| vals[i].clone());
        Term::subst(phi, defs, &lookup).as_const() == Some(&Value::Bool(true))
    }

    #[test]
    fn dispatch_process_guard_is_sampled_and_values_spread() {
        let defs = defs();
        let (phi, vars) = dispro_guard();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut found = 0;
        let mut descs = std::collections::BTreeSet::new();
        let mut ids = std::collections::BTreeSet::new();
        for _ in 0..200 {
            if let Some(vals) = sample(&defs, &phi, &vars, None, &mut rng) {
                assert!(holds(&defs, &phi, &vars, &vals), "{vals:?}");
                found += 1;
                let Value::Adt(_, _, fs) = &vals[0] else {
                    panic!("{vals:?}")
                };
                descs.insert(fs[1].clone());
                ids.insert(vals[1].clone());
            }
        }
        assert!(found >= 199, "found {found} of 200");
        assert!(descs.len() > 150, "{} descriptions", descs.len());
        assert!(ids.len() > 20, "{} ids", ids.len());
    }

    #[test]
    fn the_same_seed_gives_the_same_values() {
        let defs = defs();
        let (phi, vars) = dispro_guard();
        let run = |seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            (0..20)
                .map(|_| sample(&defs, &phi, &vars, None, &mut rng))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
    }

    #[test]
    fn starting_from_the_last_values_repeats_some_of_them() {
        let defs = defs();
        let (phi, vars) = dispro_guard();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut last = sample(&defs, &phi, &vars, None, &mut rng).expect("found");
        let (mut same_desc, mut n) = (0, 0);
        for _ in 0..200 {
            let vals = sample(&defs, &phi, &vars, Some(&last), &mut rng).expect("found");
            assert!(holds(&defs, &phi, &vars, &vals), "{vals:?}");
            let desc = |v: &[Value]| match &v[0] {
                Value::Adt(_, _, fs) => fs[1].clone(),
                _ => panic!("{v:?}"),
            };
            if desc(&vals) == desc(&last) {
                same_desc += 1;
            }
            n += 1;
            last = vals;
        }
        // about 1/2 · 3/4 of the descriptions are kept, and the others change
        assert!((40..160).contains(&same_desc), "{same_desc} of {n}");
    }

    #[test]
    fn an_unsatisfiable_guard_gives_nothing() {
        let defs = defs();
        let x = var("x@0", Type::Int);
        let t = Term::sym(x.clone());
        let phi = Term::and(
            bin(BinOp::Gt, t.clone(), Term::int(0)),
            bin(BinOp::Lt, t, Term::int(0)),
        );
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..50 {
            assert_eq!(
                sample(&defs, &phi, std::slice::from_ref(&x), None, &mut rng),
                None
            );
        }
    }

    #[test]
    fn constructors_and_ranges_are_respected() {
        let defs = defs();
        let s = var("s@0", Type::Adt(1));
        let t = Term::sym(s.clone());
        // s is Box && w(s) >= 4: w is in 1..5 (its domain), so 4 or 5
        let phi = Term::and(
            Arc::new(Term::Is(t.clone(), 1, 1)),
            bin(BinOp::Ge, Arc::new(Term::Field(t, 1, 1, 0)), Term::int(4)),
        );
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..100 {
            let vals =
                sample(&defs, &phi, std::slice::from_ref(&s), None, &mut rng).expect("found");
            seen.insert(vals[0].clone());
        }
        let want: std::collections::BTreeSet<Value> = [4, 5]
            .into_iter()
            .map(|w| Value::Adt(1, 1, vec![Value::Int(w)].into()))
            .collect();
        assert_eq!(seen, want);
    }

    /// A random boolean term over `a`, `b` (ints), `p` (bool) and `s` (string).
    fn formula() -> impl Strategy<Value = T> {
        let int_leaf = prop_oneof![
            (-20i64..20).prop_map(Term::int),
            Just(Term::sym(var("a", Type::Int))),
            Just(Term::sym(var("b", Type::Int))),
        ];
        let int = int_leaf.prop_recursive(2, 6, 2, |inner| {
            (inner.clone(), inner, 0..3usize)
                .prop_map(|(x, y, k)| bin([BinOp::Add, BinOp::Sub, BinOp::Mul][k], x, y))
        });
        let cmp = (int.clone(), int, 0..6usize).prop_map(|(x, y, k)| {
            bin(
                [
                    BinOp::Lt,
                    BinOp::Le,
                    BinOp::Gt,
                    BinOp::Ge,
                    BinOp::Eq,
                    BinOp::Ne,
                ][k],
                x,
                y,
            )
        });
        let atom = prop_oneof![
            4 => cmp,
            1 => Just(Term::sym(var("p", Type::Bool))),
            1 => prop_oneof![Just("[a-c]+"), Just("x\\d{2}"), Just("(ab|c)*d")]
                .prop_map(|r| Term::matches(
                    Term::sym(var("s", Type::STRING)),
                    Arc::new(Regex::parse(r).unwrap())
                )),
        ];
        atom.prop_recursive(3, 12, 3, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(x, y)| bin(BinOp::And, x, y)),
                (inner.clone(), inner.clone()).prop_map(|(x, y)| bin(BinOp::Or, x, y)),
                (inner.clone(), inner.clone()).prop_map(|(x, y)| bin(BinOp::Implies, x, y)),
                inner.clone().prop_map(Term::negate),
                (inner.clone(), inner.clone(), inner)
                    .prop_map(|(c, x, y)| Arc::new(Term::Ite(c, x, y))),
            ]
        })
    }

    proptest! {
        /// Soundness: whatever is returned satisfies the formula by evaluation.
        #[test]
        fn every_sample_satisfies_the_guard(phi in formula(), seed in any::<u64>()) {
            let defs = Defs::default();
            let vars = phi.vars();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            if let Some(vals) = sample(&defs, &phi, &vars, None, &mut rng) {
                prop_assert!(holds(&defs, &phi, &vars, &vals), "{phi} with {vals:?}");
            }
        }
    }
}
