//! Symbolic terms: the data-language terms `T(X)` of thesis §4.2 (tutorial P2 §2.2) over
//! symbolic variables, obtained by substituting a (symbolic or concrete) valuation into the
//! guards and assignments of the IR ([`ioco_lang::ir::Expr`]).
//!
//! Gate parameters are named by **step index** instead of primes (thesis Def. 4.10 / P2 Def. 10):
//! the `j`-th parameter of the switch taken at step `i` of a path is the variable `name@i`
//! ([`SymVar`]). Priming all older parameters at every step is then unnecessary: a path
//! condition is never rewritten, and `p` with `n − i` primes after `n + 1` steps is `p@i`.
//!
//! Terms are shared ([`T`] = `Arc<Term>`) and constant-folded when built, so substituting a
//! concrete valuation into a guard gives a constant whenever the guard reads no parameter.

use ioco_lang::ast::{BinOp, UnOp};
use ioco_lang::ir::{AdtId, Builtin, Defs, Env, Expr, ExprKind, FnId, Type, Value};
use ioco_lang::regex::Regex;
use std::fmt;
use std::sync::Arc;

/// A symbolic variable: a gate parameter at a step (`w@3`), or a fresh unknown.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SymVar {
    /// Unique name, e.g. `w@3` (parameter `w` of the switch taken at step 3).
    pub name: Arc<str>,
    /// Its type (ranges are constrained by [`domain_constraint`]).
    pub ty: Type,
}

impl SymVar {
    /// The variable `name@step`.
    pub fn at(name: &str, step: usize, ty: Type) -> SymVar {
        SymVar {
            name: format!("{}@{}", name, step).into(),
            ty,
        }
    }
}

/// A shared term.
pub type T = Arc<Term>;

/// A term of the data language.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A value.
    Const(Value),
    /// A symbolic variable.
    Sym(SymVar),
    /// `!a` or `-a`.
    Unary(UnOp, T),
    /// `a op b`.
    Binary(BinOp, T, T),
    /// `if c then a else b` (of type `ty`).
    Ite(T, T, T),
    /// Constructor application.
    Ctor(AdtId, u32, Vec<T>),
    /// Field `f` of constructor `c` of type `t`.
    Field(T, AdtId, u32, u32),
    /// Constructor test.
    Is(T, AdtId, u32),
    /// Call of a function with symbolic arguments.
    Call(FnId, Vec<T>),
    /// A built-in string function (`len`, `at`, `takeWhile`, …).
    Builtin(Builtin, Vec<T>),
    /// The string matches the regular expression (`str.in_re`).
    Matches(T, Arc<Regex>),
}

impl Term {
    /// A constant.
    pub fn val(v: Value) -> T {
        Arc::new(Term::Const(v))
    }

    /// The constant `b`.
    pub fn bool(b: bool) -> T {
        Term::val(Value::Bool(b))
    }

    /// The constant `i`.
    pub fn int(i: i64) -> T {
        Term::val(Value::Int(i))
    }

    /// A symbolic variable.
    pub fn sym(v: SymVar) -> T {
        Arc::new(Term::Sym(v))
    }

    /// The value if the term is a constant.
    pub fn as_const(&self) -> Option<&Value> {
        match self {
            Term::Const(v) => Some(v),
            _ => None,
        }
    }

    /// `a && b`, simplified.
    pub fn and(a: T, b: T) -> T {
        match (a.as_const(), b.as_const()) {
            (Some(Value::Bool(true)), _) => b,
            (_, Some(Value::Bool(true))) => a,
            (Some(Value::Bool(false)), _) | (_, Some(Value::Bool(false))) => Term::bool(false),
            _ => Arc::new(Term::Binary(BinOp::And, a, b)),
        }
    }

    /// Conjunction of many terms.
    pub fn and_all(ts: impl IntoIterator<Item = T>) -> T {
        ts.into_iter().fold(Term::bool(true), Term::and)
    }

    /// `a == b`, simplified.
    pub fn eq(a: T, b: T) -> T {
        binary(BinOp::Eq, a, b)
    }

    /// `!a`, simplified.
    pub fn negate(a: T) -> T {
        unary(UnOp::Not, a)
    }

    /// The symbolic variables of the term (each once, in first-occurrence order).
    pub fn vars(&self) -> Vec<SymVar> {
        let mut out = Vec::new();
        self.collect_vars(&mut out);
        out
    }

    fn collect_vars(&self, out: &mut Vec<SymVar>) {
        match self {
            Term::Const(_) => {}
            Term::Sym(v) => {
                if !out.contains(v) {
                    out.push(v.clone())
                }
            }
            Term::Unary(_, a) | Term::Field(a, ..) | Term::Is(a, ..) | Term::Matches(a, _) => {
                a.collect_vars(out)
            }
            Term::Binary(_, a, b) => {
                a.collect_vars(out);
                b.collect_vars(out);
            }
            Term::Ite(a, b, c) => {
                a.collect_vars(out);
                b.collect_vars(out);
                c.collect_vars(out);
            }
            Term::Ctor(_, _, xs) | Term::Call(_, xs) | Term::Builtin(_, xs) => {
                xs.iter().for_each(|x| x.collect_vars(out))
            }
        }
    }

    /// Replaces variables by values (`t[tmap(P ↦ w̄)]`), folding constants.
    pub fn subst(t: &T, defs: &Defs, map: &dyn Fn(&SymVar) -> Option<Value>) -> T {
        match &**t {
            Term::Const(_) => t.clone(),
            Term::Sym(v) => map(v).map(Term::val).unwrap_or_else(|| t.clone()),
            Term::Unary(op, a) => unary(*op, Term::subst(a, defs, map)),
            Term::Binary(op, a, b) => {
                binary(*op, Term::subst(a, defs, map), Term::subst(b, defs, map))
            }
            Term::Ite(c, a, b) => ite(
                Term::subst(c, defs, map),
                Term::subst(a, defs, map),
                Term::subst(b, defs, map),
            ),
            Term::Ctor(ty, c, xs) => ctor(
                *ty,
                *c,
                xs.iter().map(|x| Term::subst(x, defs, map)).collect(),
            ),
            Term::Field(a, ty, c, f) => field(Term::subst(a, defs, map), *ty, *c, *f),
            Term::Is(a, ty, c) => is(Term::subst(a, defs, map), *ty, *c),
            Term::Call(f, xs) => call(
                defs,
                *f,
                xs.iter().map(|x| Term::subst(x, defs, map)).collect(),
            ),
            Term::Builtin(b, xs) => {
                builtin(*b, xs.iter().map(|x| Term::subst(x, defs, map)).collect())
            }
            Term::Matches(a, r) => matches(Term::subst(a, defs, map), r.clone()),
        }
    }

    /// `len(a)`, folded on a constant.
    pub fn len(a: T) -> T {
        builtin(Builtin::Len, vec![a])
    }

    /// `a matches /r/`, folded on a constant.
    pub fn matches(a: T, r: Arc<Regex>) -> T {
        matches(a, r)
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Const(Value::Bool(b)) => write!(f, "{}", b),
            Term::Const(Value::Int(i)) => write!(f, "{}", i),
            Term::Const(Value::Str(s)) => f.write_str(&ioco_lang::ir::quote(s)),
            Term::Const(v) => write!(f, "{:?}", v),
            Term::Builtin(b, xs) => {
                write!(f, "{}(", b.name())?;
                for (i, x) in xs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}", x)?;
                }
                f.write_str(")")
            }
            Term::Matches(a, r) => write!(f, "({} matches /{}/)", a, r.source),
            Term::Sym(v) => f.write_str(&v.name),
            Term::Unary(UnOp::Not, a) => write!(f, "!({})", a),
            Term::Unary(UnOp::Neg, a) => write!(f, "-({})", a),
            Term::Binary(op, a, b) => write!(f, "({} {} {})", a, op.symbol(), b),
            Term::Ite(c, a, b) => write!(f, "(if {} then {} else {})", c, a, b),
            Term::Ctor(t, c, xs) => {
                write!(f, "ctor{}.{}(", t, c)?;
                for (i, x) in xs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}", x)?;
                }
                f.write_str(")")
            }
            Term::Field(a, _, c, i) => write!(f, "{}.#{}.{}", a, c, i),
            Term::Is(a, _, c) => write!(f, "({} is #{})", a, c),
            Term::Call(fi, xs) => {
                write!(f, "fn{}(", fi)?;
                for (i, x) in xs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}", x)?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Renders a term with the names of the definitions (constructors, functions).
pub fn render(defs: &Defs, t: &Term) -> String {
    match t {
        Term::Const(v) => v.display(defs).to_string(),
        Term::Sym(v) => v.name.to_string(),
        Term::Unary(UnOp::Not, a) => format!("!{}", render(defs, a)),
        Term::Unary(UnOp::Neg, a) => format!("-{}", render(defs, a)),
        Term::Binary(op, a, b) => {
            format!("({} {} {})", render(defs, a), op.symbol(), render(defs, b))
        }
        Term::Ite(c, a, b) => format!(
            "(if {} then {} else {})",
            render(defs, c),
            render(defs, a),
            render(defs, b)
        ),
        Term::Ctor(ty, c, xs) => {
            let name = &defs.types[*ty as usize].ctors[*c as usize].name;
            let args: Vec<String> = xs.iter().map(|x| render(defs, x)).collect();
            format!("{}({})", name, args.join(", "))
        }
        Term::Field(a, ty, c, i) => {
            format!(
                "{}.{}",
                render(defs, a),
                defs.types[*ty as usize].ctors[*c as usize].fields[*i as usize].0
            )
        }
        Term::Is(a, ty, c) => format!(
            "({} is {})",
            render(defs, a),
            defs.types[*ty as usize].ctors[*c as usize].name
        ),
        Term::Call(fi, xs) => {
            let args: Vec<String> = xs.iter().map(|x| render(defs, x)).collect();
            format!("{}({})", defs.functions[*fi as usize].name, args.join(", "))
        }
        Term::Builtin(b, xs) => {
            let args: Vec<String> = xs.iter().map(|x| render(defs, x)).collect();
            format!("{}({})", b.name(), args.join(", "))
        }
        Term::Matches(a, r) => format!("({} matches /{}/)", render(defs, a), r.source),
    }
}

/// Evaluates a ground operation with the IR's evaluator (same semantics as the explicit
/// translation: Euclidean division, overflow is an error). `None` on an evaluation error: the
/// term is then kept symbolic and the solver decides (it has unbounded integers).
fn fold(e: ExprKind, ty: Type, defs: &Defs) -> Option<Value> {
    let expr = Expr {
        kind: e,
        ty,
        span: ioco_lang::Span::new(0, 0, 0),
    };
    defs.eval(
        &expr,
        &Env {
            vars: &[],
            params: &[],
            locals: &[],
        },
    )
    .ok()
}

fn cexpr(v: &Value) -> Expr {
    Expr {
        kind: ExprKind::Const(v.clone()),
        ty: Type::Bool,
        span: ioco_lang::Span::new(0, 0, 0),
    }
}

/// The IR's semantics of a binary operator on two values, for the common well-typed cases
/// without building an expression (`Some(None)`: an evaluation error, e.g. overflow or
/// division by zero); `None`: not handled here, ask [`fold`].
fn fold_binary(op: BinOp, x: &Value, y: &Value) -> Option<Option<Value>> {
    use BinOp::*;
    Some(match (op, x, y) {
        (Eq, _, _) => Some(Value::Bool(x == y)),
        (Ne, _, _) => Some(Value::Bool(x != y)),
        (Concat, Value::Str(a), Value::Str(b)) => Some(Value::Str(format!("{a}{b}").into())),
        (_, Value::Int(a), Value::Int(b)) => {
            let (a, b) = (*a, *b);
            match op {
                Add => a.checked_add(b).map(Value::Int),
                Sub => a.checked_sub(b).map(Value::Int),
                Mul => a.checked_mul(b).map(Value::Int),
                Div if b != 0 => a.checked_div_euclid(b).map(Value::Int),
                Mod if b != 0 => a.checked_rem_euclid(b).map(Value::Int),
                Div | Mod => None,
                Lt => Some(Value::Bool(a < b)),
                Le => Some(Value::Bool(a <= b)),
                Gt => Some(Value::Bool(a > b)),
                Ge => Some(Value::Bool(a >= b)),
                _ => return None,
            }
        }
        _ => return None,
    })
}

fn unary(op: UnOp, a: T) -> T {
    match (op, &*a) {
        (UnOp::Not, Term::Const(Value::Bool(b))) => return Term::bool(!b),
        (UnOp::Neg, Term::Const(Value::Int(i))) => {
            if let Some(n) = i.checked_neg() {
                return Term::int(n);
            }
        }
        _ => {}
    }
    if let Term::Const(v) = &*a {
        let defs = Defs::default();
        if let Some(r) = fold(ExprKind::Unary(op, Box::new(cexpr(v))), Type::Int, &defs) {
            return Term::val(r);
        }
    }
    if let (UnOp::Not, Term::Unary(UnOp::Not, inner)) = (op, &*a) {
        return inner.clone();
    }
    Arc::new(Term::Unary(op, a))
}

fn binary(op: BinOp, a: T, b: T) -> T {
    use BinOp::*;
    match op {
        And => return Term::and(a, b),
        Or => match (a.as_const(), b.as_const()) {
            (Some(Value::Bool(true)), _) | (_, Some(Value::Bool(true))) => return Term::bool(true),
            (Some(Value::Bool(false)), _) => return b,
            (_, Some(Value::Bool(false))) => return a,
            _ => {}
        },
        Implies => match (a.as_const(), b.as_const()) {
            (Some(Value::Bool(false)), _) | (_, Some(Value::Bool(true))) => {
                return Term::bool(true)
            }
            (Some(Value::Bool(true)), _) => return b,
            _ => {}
        },
        _ => {}
    }
    if let (Term::Const(x), Term::Const(y)) = (&*a, &*b) {
        match fold_binary(op, x, y) {
            Some(Some(r)) => return Term::val(r),
            Some(None) => return Arc::new(Term::Binary(op, a, b)),
            None => {}
        }
        let defs = Defs::default();
        if let Some(r) = fold(
            ExprKind::Binary(op, Box::new(cexpr(x)), Box::new(cexpr(y))),
            Type::Int,
            &defs,
        ) {
            return Term::val(r);
        }
    }
    Arc::new(Term::Binary(op, a, b))
}

fn ite(c: T, a: T, b: T) -> T {
    match c.as_const() {
        Some(Value::Bool(true)) => a,
        Some(Value::Bool(false)) => b,
        _ => Arc::new(Term::Ite(c, a, b)),
    }
}

fn builtin(b: Builtin, xs: Vec<T>) -> T {
    if xs.iter().all(|x| x.as_const().is_some()) {
        let vals: Vec<Value> = xs.iter().map(|x| x.as_const().unwrap().clone()).collect();
        if let Some(v) = b.apply(&vals) {
            return Term::val(v);
        }
    }
    Arc::new(Term::Builtin(b, xs))
}

fn matches(a: T, r: Arc<Regex>) -> T {
    if let Term::Const(Value::Str(s)) = &*a {
        return Term::bool(r.is_match(s));
    }
    Arc::new(Term::Matches(a, r))
}

fn ctor(ty: AdtId, c: u32, xs: Vec<T>) -> T {
    if xs.iter().all(|x| x.as_const().is_some()) {
        let vals: Vec<Value> = xs.iter().map(|x| x.as_const().unwrap().clone()).collect();
        return Term::val(Value::Adt(ty, c, vals.into()));
    }
    Arc::new(Term::Ctor(ty, c, xs))
}

fn field(a: T, ty: AdtId, c: u32, f: u32) -> T {
    match &*a {
        Term::Const(Value::Adt(_, vc, fields)) if *vc == c && (f as usize) < fields.len() => {
            return Term::val(fields[f as usize].clone())
        }
        Term::Ctor(_, vc, xs) if *vc == c && (f as usize) < xs.len() => {
            return xs[f as usize].clone()
        }
        _ => {}
    }
    Arc::new(Term::Field(a, ty, c, f))
}

fn is(a: T, ty: AdtId, c: u32) -> T {
    match &*a {
        Term::Const(Value::Adt(_, vc, _)) | Term::Ctor(_, vc, _) => Term::bool(*vc == c),
        _ => Arc::new(Term::Is(a, ty, c)),
    }
}

fn call(defs: &Defs, f: FnId, xs: Vec<T>) -> T {
    if defs
        .functions
        .get(f as usize)
        .is_none_or(|func| func.params.len() != xs.len())
    {
        // ill-typed (a hand-built term): left to the solver, which reports it
        return Arc::new(Term::Call(f, xs));
    }
    if xs.iter().all(|x| x.as_const().is_some()) {
        let vals: Vec<Value> = xs.iter().map(|x| x.as_const().unwrap().clone()).collect();
        let func = &defs.functions[f as usize];
        let env = Env {
            vars: &[],
            params: &[],
            locals: &vals,
        };
        if let Ok(v) = defs.eval(&func.body, &env) {
            return Term::val(v);
        }
    }
    // partial evaluation: unfold the body with the symbolic arguments (recursion on constant
    // data folds away: `contains(Cons(3, Nil), b)` becomes `3 == b || false`), up to a depth
    INLINE_DEPTH.with(|d| {
        if d.get() == 0 {
            INLINE_WORK.with(|w| w.set(0));
        }
        let work = INLINE_WORK.with(|w| {
            w.set(w.get() + 1);
            w.get()
        });
        if d.get() >= MAX_TERM_INLINE || work > MAX_TERM_WORK {
            return Arc::new(Term::Call(f, xs.clone()));
        }
        d.set(d.get() + 1);
        let t = inst(defs, &defs.functions[f as usize].body, &[], &[], &xs);
        d.set(d.get() - 1);
        if d.get() == 0 && has_call(&t) {
            // the unfolding did not terminate on its own: keep the call for the solver
            Arc::new(Term::Call(f, xs.clone()))
        } else {
            t
        }
    })
}

/// Deepest nesting of unfolded calls (recursion on constant data, e.g. `contains` on a
/// concrete list of 60 elements, unfolds completely; recursion on a symbolic argument is cut
/// and left to the solver).
const MAX_TERM_INLINE: usize = 64;
/// Most unfoldings per top-level call (bounds branching recursion).
const MAX_TERM_WORK: usize = 512;

thread_local! {
    static INLINE_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    static INLINE_WORK: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn has_call(t: &Term) -> bool {
    match t {
        Term::Call(..) => true,
        Term::Const(_) | Term::Sym(_) => false,
        Term::Unary(_, a) | Term::Field(a, ..) | Term::Is(a, ..) | Term::Matches(a, _) => {
            has_call(a)
        }
        Term::Binary(_, a, b) => has_call(a) || has_call(b),
        Term::Ite(a, b, c) => has_call(a) || has_call(b) || has_call(c),
        Term::Ctor(_, _, xs) | Term::Builtin(_, xs) => xs.iter().any(|x| has_call(x)),
    }
}

/// Substitutes terms for the location variables and parameters of an IR expression
/// (`φ[m]` with `m` the symbolic valuation and the switch parameters), folding constants.
pub fn instantiate(defs: &Defs, e: &Expr, vars: &[T], params: &[T]) -> T {
    inst(defs, e, vars, params, &[])
}

fn inst(defs: &Defs, e: &Expr, vars: &[T], params: &[T], locals: &[T]) -> T {
    match &e.kind {
        ExprKind::Const(v) => Term::val(v.clone()),
        ExprKind::Var(i) => vars[*i as usize].clone(),
        ExprKind::Param(i) => params[*i as usize].clone(),
        ExprKind::Local(i) => locals[*i as usize].clone(),
        ExprKind::Unary(op, a) => unary(*op, inst(defs, a, vars, params, locals)),
        ExprKind::Binary(op, a, b) => {
            let x = inst(defs, a, vars, params, locals);
            // lazy operators: do not build the right side when the left decides
            match (op, x.as_const()) {
                (BinOp::And, Some(Value::Bool(false))) => return Term::bool(false),
                (BinOp::Or, Some(Value::Bool(true))) => return Term::bool(true),
                (BinOp::Implies, Some(Value::Bool(false))) => return Term::bool(true),
                _ => {}
            }
            binary(*op, x, inst(defs, b, vars, params, locals))
        }
        ExprKind::If(c, a, b) => {
            let c = inst(defs, c, vars, params, locals);
            match c.as_const() {
                Some(Value::Bool(true)) => inst(defs, a, vars, params, locals),
                Some(Value::Bool(false)) => inst(defs, b, vars, params, locals),
                _ => ite(
                    c,
                    inst(defs, a, vars, params, locals),
                    inst(defs, b, vars, params, locals),
                ),
            }
        }
        ExprKind::Ctor(t, c, xs) => ctor(
            *t,
            *c,
            xs.iter()
                .map(|x| inst(defs, x, vars, params, locals))
                .collect(),
        ),
        ExprKind::Field(a, t, c, f) => field(inst(defs, a, vars, params, locals), *t, *c, *f),
        ExprKind::Is(a, t, c) => is(inst(defs, a, vars, params, locals), *t, *c),
        ExprKind::Call(f, xs) => call(
            defs,
            *f,
            xs.iter()
                .map(|x| inst(defs, x, vars, params, locals))
                .collect(),
        ),
        ExprKind::Builtin(b, xs) => builtin(
            *b,
            xs.iter()
                .map(|x| inst(defs, x, vars, params, locals))
                .collect(),
        ),
        ExprKind::Matches(a, r) => {
            let x = inst(defs, a, vars, params, locals);
            match defs.regexes.get(*r as usize) {
                Some(re) => matches(x, re.clone()),
                // an ill-formed IR: no string matches an unknown expression
                None => Term::bool(false),
            }
        }
    }
}

/// Inlines a function body for symbolic arguments (used by solver back ends).
pub fn inline_call(defs: &Defs, f: FnId, args: &[T]) -> T {
    inst(defs, &defs.functions[f as usize].body, &[], &[], args)
}

/// The constraint that a variable's value lies in its type: `lo <= v <= hi` for ranges, and for
/// non-recursive data types the ranges of their fields (`true` when there is nothing to say).
pub fn domain_constraint(defs: &Defs, v: &SymVar) -> T {
    type_constraint(defs, &Term::sym(v.clone()), v.ty, &mut Vec::new())
}

fn type_constraint(defs: &Defs, t: &T, ty: Type, stack: &mut Vec<AdtId>) -> T {
    match ty {
        Type::Str(len, re) => {
            let mut out = Term::bool(true);
            if let Some((lo, hi)) = len {
                let n = Term::len(t.clone());
                out = Term::and(
                    binary(BinOp::Ge, n.clone(), Term::int(lo as i64)),
                    binary(BinOp::Le, n, Term::int(hi as i64)),
                );
            }
            if let Some(r) = re.and_then(|r| defs.regexes.get(r as usize)) {
                out = Term::and(out, matches(t.clone(), r.clone()));
            }
            out
        }
        Type::Range(lo, hi) => Term::and(
            binary(BinOp::Ge, t.clone(), Term::int(lo)),
            binary(BinOp::Le, t.clone(), Term::int(hi)),
        ),
        Type::Adt(a) if !stack.contains(&a) => {
            stack.push(a);
            let def = &defs.types[a as usize];
            let mut out = Term::bool(true);
            for (ci, c) in def.ctors.iter().enumerate() {
                let mut inner = Term::bool(true);
                for (fi, (_, fty)) in c.fields.iter().enumerate() {
                    let f = field(t.clone(), a, ci as u32, fi as u32);
                    inner = Term::and(inner, type_constraint(defs, &f, *fty, stack));
                }
                if inner.as_const() != Some(&Value::Bool(true)) {
                    out = Term::and(
                        out,
                        binary(BinOp::Implies, is(t.clone(), a, ci as u32), inner),
                    );
                }
            }
            stack.pop();
            out
        }
        _ => Term::bool(true),
    }
}

/// True when the value lies in the type, ranges of data-type fields included.
pub fn value_in_type(defs: &Defs, ty: Type, v: &Value) -> bool {
    if !defs.contains(ty, v) {
        return false;
    }
    match (ty, v) {
        (Type::Adt(a), Value::Adt(_, c, fields)) => {
            let ctor = &defs.types[a as usize].ctors[*c as usize];
            ctor.fields
                .iter()
                .zip(fields.iter())
                .all(|((_, fty), fv)| value_in_type(defs, *fty, fv))
        }
        _ => true,
    }
}
