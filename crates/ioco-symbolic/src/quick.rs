//! Quick decisions without the SMT solver: boolean combinations of **difference constraints**
//! over the integers (difference logic, decided by the Bellman–Ford negative-cycle test:
//! a conjunction of constraints `x − y ≤ c` is satisfiable iff its constraint graph has no
//! negative cycle, and then the shortest distances are an integer solution; Cormen et al.,
//! *Introduction to Algorithms*, §24.4).
//!
//! Most questions the tracker asks are of this kind: after substituting the concrete state,
//! a guard such as `x0 > x1 && … && x8 > x9` (Sequence10Ints), `0 <= b && b <= 10 &&
//! (b == 3 || b == 7)` (MatchInt after unfolding `contains` on the concrete bag) or a range
//! domain `lo <= p && p <= hi`, plus a hint `p == 42`. Z3 (4.8.12) takes about half a
//! millisecond for each such check; [`decide`] takes microseconds.
//!
//! **Fragment.** Atoms are comparisons (`< <= > >= == !=`) of linear integer terms
//! (`+`, `−`, negation, multiplication by a constant; an `int` or `bool` field of a variable of
//! a one-constructor data type counts as a variable of its own, and the record's value in a
//! model is assembled from its fields) whose difference has at most two variables, with coefficients `+1/−1` when there are two (one variable with any
//! coefficient is a bound, rounded exactly), boolean variables, and boolean constants, under
//! `&&`, `||`, `!`, `=>`, `if-then-else` and `==`/`!=` of booleans. Anything else (data
//! types, function calls, `/`, `%`, products of variables) makes [`decide`] answer `None`:
//! the caller then asks the solver. Disjunctions are explored depth first with a budget of
//! leaves; exhausting it also gives `None`.
//!
//! **Soundness** (the answer is the solver's, or there is none): arithmetic is done in
//! `i128` on the mathematical integers, as in SMT-LIB, so `Unsat` means no integer
//! assignment satisfies the formulas — what Z3 would say. A `Sat` answer carries a model
//! that has been checked by evaluating every formula with the IR's own semantics
//! ([`crate::term::Term::subst`]); a model that does not evaluate to `true` (e.g. a value
//! outside `i64`, an overflow) gives `None`. The property test `tests/solver_quick.rs`
//! compares [`decide`] with Z3 on random formulas.

use crate::term::{SymVar, Term, T};
use ioco_lang::ast::{BinOp, UnOp};
use ioco_lang::ir::{Defs, Type, Value};

/// The answer of [`decide`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Quick {
    /// Satisfiable, with a model of every variable of the formulas (checked by evaluation).
    Sat(Model),
    /// Unsatisfiable over the integers.
    Unsat,
}

/// A model: variables and their values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    vars: Vec<SymVar>,
    vals: Vec<Value>,
}

impl Model {
    /// The value of a variable (`None` if it is not in the formulas).
    pub fn get(&self, v: &SymVar) -> Option<&Value> {
        self.vars.iter().position(|x| x == v).map(|i| &self.vals[i])
    }
}

/// Default number of conjunctions (leaves of the disjunction tree) explored.
pub const BUDGET: usize = 256;

/// Decides the conjunction of `formulas` if it is in the fragment (see the module
/// documentation) and no more than `budget` conjunctions need to be explored.
pub fn decide(defs: &Defs, formulas: &[T], budget: usize) -> Option<Quick> {
    let mut cx = Cx {
        defs: Some(defs),
        ..Cx::default()
    };
    let mut roots = Vec::new();
    for f in formulas {
        roots.push(cx.nnf(f, true));
    }
    let root = Node::And(roots);
    let mut search = Search {
        cx: &cx,
        defs,
        formulas,
        leaves: 0,
        budget,
        unverified: false,
    };
    let mut lits = Vec::new();
    match search.run(vec![&root], &[], &mut lits)? {
        Some(model) => Some(Quick::Sat(model)),
        // every conjunction of the relaxation is unsat: so is the formula; but a model of the
        // relaxation that failed the evaluation leaves the question open
        None if search.unverified => None,
        None => Some(Quick::Unsat),
    }
}

/// A literal: `x − y ≤ c` (`None` is the constant 0), or a boolean variable's value.
#[derive(Clone, Copy, Debug)]
enum Lit {
    Diff(Option<usize>, Option<usize>, i128),
    Bool(usize, bool),
}

enum Node {
    /// `true`, or an atom outside the fragment, relaxed to `true` (see [`Cx::nnf`]).
    True,
    False,
    Lit(Lit),
    And(Vec<Node>),
    Or(Vec<Node>),
}

/// A linear term `Σ aᵢ·xᵢ + c` (sorted by variable, no zero coefficients).
#[derive(Clone, Debug, Default)]
struct Lin {
    terms: Vec<(usize, i128)>,
    c: i128,
}

/// Bound on the magnitude of coefficients and constants (keeps `i128` arithmetic exact).
const LIMIT: i128 = 1 << 100;

impl Lin {
    fn scale(mut self, k: i128) -> Option<Lin> {
        for t in &mut self.terms {
            t.1 = t.1.checked_mul(k).filter(|x| x.abs() < LIMIT)?;
        }
        self.c = self.c.checked_mul(k).filter(|x| x.abs() < LIMIT)?;
        self.terms.retain(|t| t.1 != 0);
        Some(self)
    }

    fn add(mut self, o: Lin) -> Option<Lin> {
        for (v, a) in o.terms {
            match self.terms.iter_mut().find(|t| t.0 == v) {
                Some(t) => t.1 = t.1.checked_add(a).filter(|x| x.abs() < LIMIT)?,
                None => self.terms.push((v, a)),
            }
        }
        self.terms.retain(|t| t.1 != 0);
        self.terms.sort_unstable();
        self.c = self.c.checked_add(o.c).filter(|x| x.abs() < LIMIT)?;
        Some(self)
    }
}

/// The variables (few: a linear search beats hashing).
#[derive(Default)]
struct Cx<'d> {
    /// The data types (for record fields).
    defs: Option<&'d Defs>,
    ints: Vec<SymVar>,
    bools: Vec<SymVar>,
    /// Fields of record variables, each a variable of its own (`xs.i0`): (the field's
    /// variable, the record variable, the field's index). A record is a data type with one
    /// constructor; its value in a model is assembled from its fields.
    fields: Vec<(SymVar, SymVar, u32)>,
}

impl Cx<'_> {
    fn int_var(&mut self, v: &SymVar) -> usize {
        match self.ints.iter().position(|x| x == v) {
            Some(i) => i,
            None => {
                self.ints.push(v.clone());
                self.ints.len() - 1
            }
        }
    }

    fn bool_var(&mut self, v: &SymVar) -> usize {
        match self.bools.iter().position(|x| x == v) {
            Some(i) => i,
            None => {
                self.bools.push(v.clone());
                self.bools.len() - 1
            }
        }
    }

    /// The variable standing for field `f` of record variable `v` (type `t`, one constructor),
    /// if the field is an integer or a boolean.
    fn field_var(&mut self, defs: &Defs, v: &SymVar, t: u32, f: u32) -> Option<SymVar> {
        let def = defs.types.get(t as usize)?;
        if v.ty != Type::Adt(t) || def.ctors.len() != 1 {
            return None;
        }
        let fty = def.ctors[0].fields.get(f as usize)?.1;
        // (not a range: its domain constraint is the caller's, for parameters only)
        if !matches!(fty, Type::Int | Type::Bool) {
            return None;
        }
        if let Some((x, _, _)) = self.fields.iter().find(|(_, r, g)| r == v && *g == f) {
            return Some(x.clone());
        }
        let x = SymVar {
            name: format!("{}.#{}", v.name, f).into(),
            ty: fty,
        };
        self.fields.push((x.clone(), v.clone(), f));
        Some(x)
    }

    fn lin(&mut self, t: &Term) -> Option<Lin> {
        match t {
            Term::Field(a, ty, 0, f) => match &**a {
                Term::Sym(v) => {
                    let x = self.field_var(self.defs?, v, *ty, *f)?;
                    self.lin(&Term::Sym(x))
                }
                _ => None,
            },
            Term::Const(Value::Int(i)) => Some(Lin {
                terms: Vec::new(),
                c: *i as i128,
            }),
            Term::Sym(v) if matches!(v.ty, Type::Int | Type::Range(..)) => Some(Lin {
                terms: vec![(self.int_var(v), 1)],
                c: 0,
            }),
            Term::Unary(UnOp::Neg, a) => self.lin(a)?.scale(-1),
            Term::Binary(BinOp::Add, a, b) => self.lin(a)?.add(self.lin(b)?),
            Term::Binary(BinOp::Sub, a, b) => self.lin(a)?.add(self.lin(b)?.scale(-1)?),
            Term::Binary(BinOp::Mul, a, b) => {
                let (x, y) = (self.lin(a)?, self.lin(b)?);
                if x.terms.is_empty() {
                    y.scale(x.c)
                } else if y.terms.is_empty() {
                    x.scale(y.c)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// `e ≤ 0` as a node.
    fn le0(&self, e: Lin) -> Option<Node> {
        let k = -e.c; // Σ aᵢxᵢ ≤ k
        match e.terms.as_slice() {
            [] => Some(if k >= 0 { Node::True } else { Node::False }),
            [(x, a)] => {
                let (a, x) = (*a, *x);
                Some(Node::Lit(if a > 0 {
                    // x ≤ ⌊k/a⌋
                    Lit::Diff(Some(x), None, k.div_euclid(a))
                } else {
                    // a·x ≤ k with a < 0: x ≥ ⌈k/a⌉, i.e. 0 − x ≤ −⌈k/a⌉ = ⌊k/(−a)⌋
                    Lit::Diff(None, Some(x), k.div_euclid(-a))
                }))
            }
            [(x, 1), (y, -1)] => Some(Node::Lit(Lit::Diff(Some(*x), Some(*y), k))),
            [(x, -1), (y, 1)] => Some(Node::Lit(Lit::Diff(Some(*y), Some(*x), k))),
            _ => None,
        }
    }

    /// The node of `t` (if `pos`) or `!t`, in negation normal form. A part outside the
    /// fragment becomes `true`: since negation normal form is monotone in its atoms, this is
    /// a relaxation (unsat relaxed implies unsat), and a model of the relaxation is a model of
    /// the formula only if evaluation says so (checked at each leaf of the search).
    fn nnf(&mut self, t: &T, pos: bool) -> Node {
        self.nnf_exact(t, pos).unwrap_or_else(|| {
            self.opaque(t);
            Node::True
        })
    }

    /// Registers the variables of a relaxed part (they get values in models).
    fn opaque(&mut self, t: &Term) {
        for v in t.vars() {
            match v.ty {
                Type::Int | Type::Range(..) => {
                    self.int_var(&v);
                }
                Type::Bool => {
                    self.bool_var(&v);
                }
                Type::Adt(_) | Type::Str(..) => {}
            }
        }
    }

    fn nnf_exact(&mut self, t: &T, pos: bool) -> Option<Node> {
        use BinOp::*;
        Some(match &**t {
            Term::Const(Value::Bool(b)) => {
                if *b == pos {
                    Node::True
                } else {
                    Node::False
                }
            }
            Term::Sym(v) if v.ty == Type::Bool => Node::Lit(Lit::Bool(self.bool_var(v), pos)),
            Term::Field(a, ty, 0, f) if matches!(&**a, Term::Sym(_)) => {
                let Term::Sym(v) = &**a else { return None };
                let x = self.field_var(self.defs?, v, *ty, *f)?;
                if x.ty != Type::Bool {
                    return None;
                }
                Node::Lit(Lit::Bool(self.bool_var(&x), pos))
            }
            Term::Unary(UnOp::Not, a) => self.nnf(a, !pos),
            Term::Binary(op @ (And | Or), a, b) => {
                let (x, y) = (self.nnf(a, pos), self.nnf(b, pos));
                if (*op == And) == pos {
                    Node::And(vec![x, y])
                } else {
                    Node::Or(vec![x, y])
                }
            }
            Term::Binary(Implies, a, b) => {
                // a => b  ≡  !a || b;  !(a => b)  ≡  a && !b
                let (x, y) = (self.nnf(a, !pos), self.nnf(b, pos));
                if pos {
                    Node::Or(vec![x, y])
                } else {
                    Node::And(vec![x, y])
                }
            }
            Term::Ite(c, a, b) => {
                // (c && a) || (!c && b), for either polarity of the branches
                Node::Or(vec![
                    Node::And(vec![self.nnf(c, true), self.nnf(a, pos)]),
                    Node::And(vec![self.nnf(c, false), self.nnf(b, pos)]),
                ])
            }
            Term::Binary(op @ (Eq | Ne), a, b) if is_bool(a) || is_bool(b) => {
                // a == b  ≡  (a && b) || (!a && !b); a != b is its negation
                let same = (*op == Eq) == pos;
                Node::Or(vec![
                    Node::And(vec![self.nnf(a, true), self.nnf(b, same)]),
                    Node::And(vec![self.nnf(a, false), self.nnf(b, !same)]),
                ])
            }
            Term::Binary(op @ (Lt | Le | Gt | Ge | Eq | Ne), a, b) => {
                let d = self.lin(a)?.add(self.lin(b)?.scale(-1)?)?; // a − b
                let neg = d.clone().scale(-1)?; // b − a
                let one = Lin {
                    terms: Vec::new(),
                    c: 1,
                };
                // the operator after negation
                let op = if pos {
                    *op
                } else {
                    match op {
                        Lt => Ge,
                        Le => Gt,
                        Gt => Le,
                        Ge => Lt,
                        Eq => Ne,
                        _ => Eq,
                    }
                };
                match op {
                    Lt => self.le0(d.add(one)?)?,   // a − b + 1 ≤ 0
                    Le => self.le0(d)?,             // a − b ≤ 0
                    Gt => self.le0(neg.add(one)?)?, // b − a + 1 ≤ 0
                    Ge => self.le0(neg)?,           // b − a ≤ 0
                    Eq => Node::And(vec![self.le0(d)?, self.le0(neg)?]),
                    _ => Node::Or(vec![
                        self.le0(d.add(one.clone())?)?,
                        self.le0(neg.add(one)?)?,
                    ]),
                }
            }
            _ => return None,
        })
    }
}

fn is_bool(t: &Term) -> bool {
    match t {
        Term::Const(v) => matches!(v, Value::Bool(_)),
        Term::Sym(v) => v.ty == Type::Bool,
        Term::Unary(UnOp::Not, _) => true,
        Term::Binary(op, ..) => matches!(
            op,
            BinOp::And
                | BinOp::Or
                | BinOp::Implies
                | BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge
                | BinOp::Eq
                | BinOp::Ne
        ),
        _ => false,
    }
}

struct Search<'a> {
    cx: &'a Cx<'a>,
    defs: &'a Defs,
    formulas: &'a [T],
    leaves: usize,
    budget: usize,
    /// A conjunction was satisfiable but its solution did not evaluate to a model.
    unverified: bool,
}

type Assignment = (Vec<i128>, Vec<bool>);

impl<'a> Search<'a> {
    /// Depth-first search for a model of the conjunction of the `pending` nodes and the
    /// disjunctions `ors`: `Some(None)` when no conjunction gives one, `None` when the budget
    /// ran out.
    fn run<'n>(
        &mut self,
        pending: Vec<&'n Node>,
        ors: &[OrRef<'n>],
        lits: &mut Vec<Lit>,
    ) -> Option<Option<Model>> {
        let mark = lits.len();
        let mut pending = pending;
        let mut more: Vec<&'n [Node]> = ors.iter().map(|o| o.0).collect();
        while let Some(n) = pending.pop() {
            match n {
                Node::True => {}
                Node::False => {
                    lits.truncate(mark);
                    return Some(None);
                }
                Node::Lit(l) => lits.push(*l),
                Node::And(xs) => pending.extend(xs.iter()),
                Node::Or(xs) => more.push(xs),
            }
        }
        // prune: the literals so far must be consistent
        if !more.is_empty() && solve(self.cx, lits).is_none() {
            lits.truncate(mark);
            return Some(None);
        }
        let r = match more.pop() {
            None => {
                self.leaves += 1;
                if self.leaves > self.budget {
                    lits.truncate(mark);
                    return None;
                }
                match solve(self.cx, lits) {
                    None => None,
                    Some(a) => {
                        let m = self.model(a);
                        if m.is_none() {
                            self.unverified = true;
                        }
                        m
                    }
                }
            }
            Some(alts) => {
                let rest: Vec<OrRef<'n>> = more.iter().map(|xs| OrRef(xs)).collect();
                let mut found = None;
                for alt in alts {
                    match self.run(vec![alt], &rest, lits) {
                        None => {
                            lits.truncate(mark);
                            return None;
                        }
                        Some(Some(a)) => {
                            found = Some(a);
                            break;
                        }
                        Some(None) => {}
                    }
                }
                found
            }
        };
        lits.truncate(mark);
        Some(r)
    }

    /// The assignment as a model, if every formula evaluates to `true` under it (with the IR's
    /// semantics: values in `i64`, no overflow).
    fn model(&self, (ints, bools): Assignment) -> Option<Model> {
        let mut vars = Vec::new();
        let mut vals = Vec::new();
        for (i, v) in self.cx.ints.iter().enumerate() {
            vars.push(v.clone());
            vals.push(Value::Int(i64::try_from(ints[i]).ok()?));
        }
        for (i, v) in self.cx.bools.iter().enumerate() {
            vars.push(v.clone());
            vals.push(Value::Bool(bools[i]));
        }
        // records, from their fields (a field no formula reads gets a value of its type)
        for (_, r, _) in &self.cx.fields {
            if vars.contains(r) {
                continue;
            }
            let Type::Adt(t) = r.ty else { return None };
            let def = &self.defs.types[t as usize];
            let mut fields = Vec::new();
            for (f, (_, fty)) in def.ctors[0].fields.iter().enumerate() {
                let known = self
                    .cx
                    .fields
                    .iter()
                    .find(|(_, r2, g)| r2 == r && *g == f as u32);
                let v = match known {
                    Some((x, _, _)) => vars.iter().position(|y| y == x).map(|i| vals[i].clone())?,
                    None => match fty {
                        Type::Int => Value::Int(0),
                        Type::Range(lo, _) => Value::Int(*lo),
                        Type::Bool => Value::Bool(false),
                        Type::Str(..) | Type::Adt(_) => return None,
                    },
                };
                fields.push(v);
            }
            vars.push(r.clone());
            vals.push(Value::Adt(t, 0, fields.into()));
        }
        let model = Model { vars, vals };
        let lookup = |v: &SymVar| model.get(v).cloned();
        for f in self.formulas {
            if Term::subst(f, self.defs, &lookup).as_const() != Some(&Value::Bool(true)) {
                return None;
            }
        }
        Some(model)
    }
}

#[derive(Clone, Copy)]
struct OrRef<'n>(&'n [Node]);

/// Solves a conjunction of literals: `Some` assignment or `None` (unsat).
fn solve(cx: &Cx, lits: &[Lit]) -> Option<Assignment> {
    let n = cx.ints.len();
    let zero = n;
    let mut bools: Vec<Option<bool>> = vec![None; cx.bools.len()];
    let mut edges: Vec<(usize, usize, i128)> = Vec::new();
    for l in lits {
        match *l {
            Lit::Bool(b, v) => match bools[b] {
                Some(w) if w != v => return None,
                _ => bools[b] = Some(v),
            },
            // x − y ≤ c: edge y → x of weight c
            Lit::Diff(x, y, c) => {
                let (x, y) = (x.unwrap_or(zero), y.unwrap_or(zero));
                if x == y {
                    if c < 0 {
                        return None;
                    }
                    continue;
                }
                edges.push((y, x, c));
            }
        }
    }
    // Bellman–Ford from a virtual source joined to every node by weight 0
    let mut dist = vec![0i128; n + 1];
    let mut changed = true;
    let mut rounds = 0;
    while changed {
        changed = false;
        for &(u, v, w) in &edges {
            let d = dist[u] + w;
            if d < dist[v] {
                dist[v] = d;
                changed = true;
            }
        }
        rounds += 1;
        if changed && rounds > n + 1 {
            return None; // a negative cycle
        }
    }
    let ints = (0..n).map(|i| dist[i] - dist[zero]).collect();
    Some((
        ints,
        bools.into_iter().map(|b| b.unwrap_or(false)).collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn x(n: &str) -> T {
        Term::sym(SymVar {
            name: n.into(),
            ty: Type::Int,
        })
    }
    fn bin(op: BinOp, a: T, b: T) -> T {
        Arc::new(Term::Binary(op, a, b))
    }

    /// `xs.i0 > xs.i1 > ... > xs.i9` over a record (TorXakis's Sequence10IntsTypeDef): decided
    /// without the solver, the record assembled from its fields; its contradiction is unsat.
    #[test]
    fn fields_of_records_are_variables() {
        use ioco_lang::ir::{AdtDef, CtorDef};
        let d = Defs {
            types: vec![AdtDef {
                name: "Ints".into(),
                ctors: vec![CtorDef {
                    name: "Ints".into(),
                    fields: (0..10).map(|i| (format!("i{i}"), Type::Int)).collect(),
                }],
                span: Default::default(),
            }],
            ..Defs::default()
        };
        let xs = SymVar {
            name: "xs@1".into(),
            ty: Type::Adt(0),
        };
        let field = |i: u32| Arc::new(Term::Field(Term::sym(xs.clone()), 0, 0, i));
        let chain = Term::and_all((0..9).map(|i| bin(BinOp::Gt, field(i), field(i + 1))));
        let Some(Quick::Sat(m)) = decide(&d, std::slice::from_ref(&chain), BUDGET) else {
            panic!("not decided")
        };
        let Some(Value::Adt(0, 0, v)) = m.get(&xs) else {
            panic!("no record in the model")
        };
        let v: Vec<i64> = v.iter().map(|x| x.as_int().unwrap()).collect();
        assert!(v.windows(2).all(|w| w[0] > w[1]), "{v:?}");
        let back = bin(BinOp::Gt, field(9), field(0));
        assert_eq!(decide(&d, &[chain, back], BUDGET), Some(Quick::Unsat));
    }

    #[test]
    fn chains_bounds_and_disjunctions() {
        let d = Defs::default();
        let chain = Term::and_all(
            (0..9).map(|i| bin(BinOp::Gt, x(&format!("x{}", i)), x(&format!("x{}", i + 1)))),
        );
        let Some(Quick::Sat(m)) = decide(&d, std::slice::from_ref(&chain), BUDGET) else {
            panic!()
        };
        let v: Vec<i64> = (0..10)
            .map(|i| {
                m.get(&SymVar {
                    name: format!("x{}", i).into(),
                    ty: Type::Int,
                })
                .unwrap()
                .as_int()
                .unwrap()
            })
            .collect();
        assert!(v.windows(2).all(|w| w[0] > w[1]), "{:?}", v);
        // x9 >= 0 and x0 <= 8 is impossible
        let tight = [
            chain,
            bin(BinOp::Ge, x("x9"), Term::int(0)),
            bin(BinOp::Le, x("x0"), Term::int(8)),
        ];
        assert_eq!(decide(&d, &tight, BUDGET), Some(Quick::Unsat));
        // b in 0..10 and (b == 3 || b == 12): b = 3
        let phi = Term::and_all([
            bin(BinOp::Le, Term::int(0), x("b")),
            bin(BinOp::Le, x("b"), Term::int(10)),
            bin(
                BinOp::Or,
                bin(BinOp::Eq, Term::int(12), x("b")),
                bin(BinOp::Eq, Term::int(3), x("b")),
            ),
        ]);
        let Some(Quick::Sat(m)) = decide(&d, &[phi], BUDGET) else {
            panic!()
        };
        assert_eq!(
            m.get(&SymVar {
                name: "b".into(),
                ty: Type::Int
            }),
            Some(&Value::Int(3))
        );
        // 2·y == 7 has no integer solution; y * y is outside the fragment
        let odd = bin(
            BinOp::Eq,
            bin(BinOp::Mul, Term::int(2), x("y")),
            Term::int(7),
        );
        assert_eq!(decide(&d, &[odd], BUDGET), Some(Quick::Unsat));
        let sq = bin(BinOp::Eq, bin(BinOp::Mul, x("y"), x("y")), Term::int(4));
        assert_eq!(decide(&d, &[sq], BUDGET), None);
    }
}
