//! The symbolic transition system (STS) intermediate representation: the stable public API of
//! this crate, shared by the translation to LTS ([`crate::semantics`]) and the symbolic (SMT)
//! engine.
//!
//! It follows the STS of thesis Def. 4.3 / van den Bos–Tretmans Def. 3
//! (`/work/shared/notes/thesis-ch4-6-sts-games-jokers.md` §1.3):
//! an [`Automaton`] is `(L, l0, Vl, m_ini, Γ_I, Γ_O, R)`:
//! - `L` = [`Automaton::locations`], `l0` = [`Automaton::initial`];
//! - `Vl` with `m_ini` = [`Automaton::vars`] (each with its type and initial [`Value`]);
//! - `Γ_I`, `Γ_O` = [`Automaton::gates`] with [`Direction`] and the parameter sort list;
//! - `R` = [`Automaton::switches`]: `(l1, λ, p̄, φ, ψ, l2)` is [`Switch`] `{from, gate, params,
//!   guard, assign, to}`; the gate parameters `p̄` are local to the switch ([`ExprKind::Param`]),
//!   the guard `φ` is a boolean [`Expr`] over location variables and parameters, the update `ψ`
//!   is simultaneous and lists only changed variables (the others keep their value: "id").
//!   `gate: None` is an internal step τ (the τ-switches of the earlier STS papers).
//!
//! Data: types are `bool`, `int` (mathematical integers; the explicit evaluator computes in
//! `i64` and reports overflow as an [`EvalError`] instead of wrapping), bounded integers
//! `int[lo..hi]` (a subtype of `int`: arithmetic happens in `int`, the range is checked when a
//! value is stored in a variable or chosen for a parameter) and algebraic data types
//! ([`AdtDef`]: enumerations, records and sums of records, possibly recursive). Functions
//! ([`Function`]) are pure and may be recursive. Division and remainder are Euclidean
//! (`7 / -2 == -3`, `-7 % 2 == 1`), as in SMT-LIB.
//!
//! A [`Spec`] is what a tool tests against: the instantiated automata (model parameters already
//! replaced by constants) and a [`Composition`] tree over them (parallel composition with a
//! synchronisation set, hiding, renaming; tutorial Def. 4.5 and 4.6), plus the visible
//! interface of the root.
//!
//! TorXakis's `EXIT` and enabling `P >>> Q` are lowered into this IR (no new node): `exit` is a
//! switch on the gate [`EXIT_GATE`] (synchronised by every parallel composition, hidden at the
//! root), and `>>>` renames `P`'s exits to a fresh hidden gate on which `Q`'s automata leave a
//! new waiting initial location (docs/language.md §7).

use crate::ast::{BinOp, UnOp};
use crate::span::Span;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// The gate of `exit` switches (not a valid source name, so it cannot clash).
pub const EXIT_GATE: &str = "#exit";

/// Index into [`Defs::types`].
pub type AdtId = u32;
/// Index into [`Defs::functions`].
pub type FnId = u32;
/// Index into [`Automaton::vars`].
pub type VarId = u32;
/// Index into [`Automaton::locations`].
pub type LocId = u32;
/// Index into [`Automaton::gates`].
pub type GateId = u32;
/// Index into [`Defs::regexes`].
pub type RegexId = u32;

/// A data type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// Booleans.
    Bool,
    /// Integers (unbounded in the semantics).
    Int,
    /// Integers in `lo..=hi` (`int[lo..hi]` in the source: both bounds included).
    Range(i64, i64),
    /// An algebraic data type.
    Adt(AdtId),
    /// Strings (sequences of Unicode characters), optionally refined by a length range
    /// `lo..=hi` (in characters) and a regular expression (`string[1..8] /[a-z]+/`). Like
    /// ranges, refinements are checked where a value is stored or chosen; operations happen in
    /// `string`.
    Str(Option<(u32, u32)>, Option<RegexId>),
}

impl Type {
    /// True for `int` and `int[..]`.
    pub fn is_int(self) -> bool {
        matches!(self, Type::Int | Type::Range(..))
    }

    /// True for `string` and its refinements.
    pub fn is_str(self) -> bool {
        matches!(self, Type::Str(..))
    }

    /// The plain string type.
    pub const STRING: Type = Type::Str(None, None);

    /// True when a value of type `from` may be stored where `self` is expected (ranges and
    /// string refinements are checked at run time).
    pub fn accepts(self, from: Type) -> bool {
        self == from || (self.is_int() && from.is_int()) || (self.is_str() && from.is_str())
    }

    /// The type of a value that is of type `a` or `b` (the base type when they differ).
    pub fn join(a: Type, b: Type) -> Type {
        if a == b {
            a
        } else if a.is_str() {
            Type::STRING
        } else {
            Type::Int
        }
    }
}

/// A constructor of an algebraic data type.
#[derive(Clone, Debug, PartialEq)]
pub struct CtorDef {
    /// Constructor name.
    pub name: String,
    /// Fields (name, type).
    pub fields: Vec<(String, Type)>,
}

/// An algebraic data type (`type Op = Plus { p1: int, p2: int } | Minus { m1: int, m2: int }`).
/// An enumeration is an ADT whose constructors have no fields.
#[derive(Clone, Debug, PartialEq)]
pub struct AdtDef {
    /// Type name.
    pub name: String,
    /// Constructors in declaration order.
    pub ctors: Vec<CtorDef>,
    /// Declaration.
    pub span: Span,
}

/// A pure function `fn name(params): ret = body`.
#[derive(Clone, Debug)]
pub struct Function {
    /// Name.
    pub name: String,
    /// Parameters (read with [`ExprKind::Local`]).
    pub params: Vec<(String, Type)>,
    /// Result type.
    pub ret: Type,
    /// Body.
    pub body: Expr,
    /// Declaration.
    pub span: Span,
}

/// Types and functions shared by all automata of a file and its imports.
#[derive(Clone, Debug, Default)]
pub struct Defs {
    /// Algebraic data types.
    pub types: Vec<AdtDef>,
    /// Functions.
    pub functions: Vec<Function>,
    /// Regular expressions (of `matches` and of `string /re/` types).
    pub regexes: Vec<Arc<crate::regex::Regex>>,
}

/// A value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A constructor applied to its field values.
    Adt(AdtId, u32, Arc<[Value]>),
    /// A string.
    Str(Arc<str>),
}

impl Value {
    /// Whether constructors nest more than `limit` deep in the value (a list of more than
    /// `limit` elements).
    pub fn deeper_than(&self, limit: usize) -> bool {
        match self {
            Value::Adt(_, _, fields) => {
                limit == 0 || fields.iter().any(|f| f.deeper_than(limit - 1))
            }
            _ => false,
        }
    }

    /// The boolean, if it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The integer, if it is one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The string, if it is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A string value.
    pub fn str(s: &str) -> Value {
        Value::Str(s.into())
    }

    /// Renders the value as in labels: `42`, `-1`, `true`, `Red`, `Plus(1,2)`, `"N22s"` (no
    /// spaces outside strings; strings are quoted with [`quote`]).
    pub fn display<'a>(&'a self, defs: &'a Defs) -> impl fmt::Display + 'a {
        DisplayValue(self, defs)
    }
}

struct DisplayValue<'a>(&'a Value, &'a Defs);

impl fmt::Display for DisplayValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Value::Bool(b) => write!(f, "{}", b),
            Value::Int(i) => write!(f, "{}", i),
            Value::Str(s) => f.write_str(&quote(s)),
            Value::Adt(t, c, fields) => {
                let ctor = &self.1.types[*t as usize].ctors[*c as usize];
                f.write_str(&ctor.name)?;
                if !fields.is_empty() {
                    f.write_str("(")?;
                    for (i, v) in fields.iter().enumerate() {
                        if i > 0 {
                            f.write_str(",")?;
                        }
                        write!(f, "{}", DisplayValue(v, self.1))?;
                    }
                    f.write_str(")")?;
                }
                Ok(())
            }
        }
    }
}

/// A string as a literal: in double quotes, with `\\`, `\"`, `\n`, `\t`, `\r` and `\u{hex}`
/// for other control characters (read back by the `.ioco` lexer and by label parsers with
/// [`unquote`]).
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Reads a quoted string literal at the start of `s` (as written by [`quote`]): the string and
/// the rest of `s` after the closing quote, or why it is not one.
pub fn unquote(s: &str) -> Result<(String, &str), String> {
    let body = s
        .strip_prefix('"')
        .ok_or_else(|| format!("expected a string in double quotes, found {:?}", s))?;
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((out, &body[i + 1..])),
            '\\' => match chars.next() {
                Some((_, 'n')) => out.push('\n'),
                Some((_, 't')) => out.push('\t'),
                Some((_, 'r')) => out.push('\r'),
                Some((_, '0')) => out.push('\0'),
                Some((j, 'u')) => {
                    let rest = &body[j + 1..];
                    let end = rest
                        .strip_prefix('{')
                        .and_then(|r| r.find('}'))
                        .ok_or_else(|| "bad `\\u{..}` escape in a string".to_string())?;
                    let c = u32::from_str_radix(&rest[1..end + 1], 16)
                        .ok()
                        .and_then(char::from_u32)
                        .ok_or_else(|| "bad `\\u{..}` escape in a string".to_string())?;
                    out.push(c);
                    // skip `{hex}`
                    for _ in 0..end + 2 {
                        chars.next();
                    }
                }
                Some((_, c)) => out.push(c),
                None => break,
            },
            c => out.push(c),
        }
    }
    Err(format!("unclosed string {:?}", s))
}

/// Built-in string functions (TorXakis's standard library names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `len(s)`: the number of characters.
    Len,
    /// `at(s, i)`: the one-character string at position `i` (from 0), `""` out of range (as
    /// SMT-LIB's `str.at`).
    At,
    /// `takeWhile(cs, s)`: the longest prefix of `s` made of characters of `cs`.
    TakeWhile,
    /// `takeWhileNot(cs, s)`: the longest prefix of `s` without a character of `cs`.
    TakeWhileNot,
    /// `dropWhile(cs, s)`: `s` without `takeWhile(cs, s)`.
    DropWhile,
    /// `dropWhileNot(cs, s)`: `s` without `takeWhileNot(cs, s)`.
    DropWhileNot,
}

impl Builtin {
    /// All built-ins.
    pub const ALL: [Builtin; 6] = [
        Builtin::Len,
        Builtin::At,
        Builtin::TakeWhile,
        Builtin::TakeWhileNot,
        Builtin::DropWhile,
        Builtin::DropWhileNot,
    ];

    /// Its name in the source.
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Len => "len",
            Builtin::At => "at",
            Builtin::TakeWhile => "takeWhile",
            Builtin::TakeWhileNot => "takeWhileNot",
            Builtin::DropWhile => "dropWhile",
            Builtin::DropWhileNot => "dropWhileNot",
        }
    }

    /// The built-in with this name.
    pub fn by_name(name: &str) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.name() == name)
    }

    /// Parameter types and result type.
    pub fn signature(self) -> (&'static [(&'static str, Type)], Type) {
        const S: Type = Type::STRING;
        match self {
            Builtin::Len => (&[("s", S)], Type::Int),
            Builtin::At => (&[("s", S), ("i", Type::Int)], S),
            _ => (&[("cs", S), ("s", S)], S),
        }
    }

    /// Applies the built-in to values of the right types (`None` otherwise).
    pub fn apply(self, args: &[Value]) -> Option<Value> {
        Some(match (self, args) {
            (Builtin::Len, [Value::Str(s)]) => Value::Int(s.chars().count() as i64),
            (Builtin::At, [Value::Str(s), Value::Int(i)]) => Value::Str(
                usize::try_from(*i)
                    .ok()
                    .and_then(|i| s.chars().nth(i))
                    .map(|c| c.to_string())
                    .unwrap_or_default()
                    .into(),
            ),
            (b, [Value::Str(cs), Value::Str(s)]) => {
                let keep = matches!(b, Builtin::TakeWhile | Builtin::DropWhile);
                let split = s
                    .char_indices()
                    .find(|(_, c)| cs.contains(*c) != keep)
                    .map(|(i, _)| i)
                    .unwrap_or(s.len());
                let (pre, post) = s.split_at(split);
                Value::str(match b {
                    Builtin::TakeWhile | Builtin::TakeWhileNot => pre,
                    _ => post,
                })
            }
            _ => return None,
        })
    }
}

/// A typed expression.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What it computes.
    pub kind: ExprKind,
    /// Its type.
    pub ty: Type,
    /// Source span (for run-time errors).
    pub span: Span,
}

/// Kinds of expressions.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// A constant (literals, model parameters after instantiation, nullary constructors).
    Const(Value),
    /// A location variable of the automaton.
    Var(VarId),
    /// A parameter of the switch's gate (index into [`Switch::params`]).
    Param(u32),
    /// A parameter of the enclosing function (only in [`Function::body`]).
    Local(u32),
    /// `!e` (bool) or `-e` (int).
    Unary(UnOp, Box<Expr>),
    /// Arithmetic on ints, comparisons (`==`/`!=` on any type, the others on ints), logic on
    /// bools (`&&`, `||`, `=>` evaluate lazily).
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `if c then a else b`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Constructor application.
    Ctor(AdtId, u32, Vec<Expr>),
    /// Field `field` of constructor `ctor`; an error if the value was built by another one.
    Field(Box<Expr>, AdtId, u32, u32),
    /// `e is Ctor`.
    Is(Box<Expr>, AdtId, u32),
    /// Function call.
    Call(FnId, Vec<Expr>),
    /// A built-in string function.
    Builtin(Builtin, Vec<Expr>),
    /// `e matches /re/`: the whole string matches the regular expression.
    Matches(Box<Expr>, RegexId),
}

impl Expr {
    /// A constant `true` (the guard of a switch without one).
    pub fn tru(span: Span) -> Expr {
        Expr {
            kind: ExprKind::Const(Value::Bool(true)),
            ty: Type::Bool,
            span,
        }
    }

    /// True for the constant `true`.
    pub fn is_true(&self) -> bool {
        matches!(self.kind, ExprKind::Const(Value::Bool(true)))
    }

    /// The conjuncts of a guard (`a && (b && c)` gives `[a, b, c]`).
    pub fn conjuncts(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Binary(BinOp::And, a, b) => {
                let mut v = a.conjuncts();
                v.extend(b.conjuncts());
                v
            }
            _ => vec![self],
        }
    }

    /// Calls `f` on every sub-expression (pre-order).
    pub fn visit(&self, f: &mut impl FnMut(&Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Param(_) | ExprKind::Local(_) => {}
            ExprKind::Unary(_, a)
            | ExprKind::Field(a, ..)
            | ExprKind::Is(a, ..)
            | ExprKind::Matches(a, _) => a.visit(f),
            ExprKind::Binary(_, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            ExprKind::If(a, b, c) => {
                a.visit(f);
                b.visit(f);
                c.visit(f);
            }
            ExprKind::Ctor(_, _, args) | ExprKind::Call(_, args) | ExprKind::Builtin(_, args) => {
                for a in args {
                    a.visit(f);
                }
            }
        }
    }
}

/// Input or output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Stimulus from the tester.
    Input,
    /// Response of the system.
    Output,
}

/// A gate (channel) with its parameter sort list.
#[derive(Clone, Debug, PartialEq)]
pub struct Gate {
    /// Name.
    pub name: String,
    /// Direction.
    pub dir: Direction,
    /// Parameters: names (documentation only) and types.
    pub params: Vec<(String, Type)>,
    /// `@timeout(..)` on the gate declaration.
    pub timeout: Option<Duration>,
    /// Declaration.
    pub span: Span,
}

/// A location.
#[derive(Clone, Debug, PartialEq)]
pub struct Location {
    /// Name.
    pub name: String,
    /// `@timeout(..)` on a `location` declaration: how long to wait before concluding
    /// quiescence there.
    pub timeout: Option<Duration>,
    /// First occurrence.
    pub span: Span,
}

/// A location variable with its initial value (`m_ini`).
#[derive(Clone, Debug)]
pub struct Var {
    /// Name.
    pub name: String,
    /// Type.
    pub ty: Type,
    /// Initial value.
    pub init: Value,
    /// Declaration.
    pub span: Span,
}

/// A switch `(from, gate, params, guard, assign, to)`.
#[derive(Clone, Debug)]
pub struct Switch {
    /// Source location.
    pub from: LocId,
    /// The gate, `None` for τ.
    pub gate: Option<GateId>,
    /// The gate parameters, local to this switch: (name, type), matching the gate's sort list
    /// (for a multi-action: the parameters of `gate`, then those of each gate of `also`).
    pub params: Vec<(String, Type)>,
    /// Further gates of a multi-action (TorXakis `A | B`, docs/language.md §6): `gate` and
    /// these happen together in one step. Empty for an ordinary switch. Tools that do not
    /// handle multi-actions must reject switches where this is not empty.
    pub also: Vec<GateId>,
    /// Guard over variables and parameters.
    pub guard: Expr,
    /// Simultaneous assignment of changed variables.
    pub assign: Vec<(VarId, Expr)>,
    /// Target location.
    pub to: LocId,
    /// The switch in the source.
    pub span: Span,
}

/// An instantiated automaton (a model with its parameters fixed).
#[derive(Clone, Debug)]
pub struct Automaton {
    /// `Model` or `Model(1,2)`.
    pub name: String,
    /// Gates.
    pub gates: Vec<Gate>,
    /// Locations.
    pub locations: Vec<Location>,
    /// Initial location.
    pub initial: LocId,
    /// Location variables.
    pub vars: Vec<Var>,
    /// Switches in source order.
    pub switches: Vec<Switch>,
    /// `@timeout(..)` on the model.
    pub timeout: Option<Duration>,
    /// The `model` item.
    pub span: Span,
}

impl Automaton {
    /// The gate with this name.
    pub fn gate(&self, name: &str) -> Option<GateId> {
        self.gates
            .iter()
            .position(|g| g.name == name)
            .map(|i| i as GateId)
    }
}

/// A composition tree over [`Spec::automata`]. Gate names at each node are the names after the
/// renamings below it.
#[derive(Clone, Debug, PartialEq)]
pub enum Composition {
    /// One automaton (index into [`Spec::automata`]).
    Leaf(u32),
    /// `left |[sync]| right`: gates in `sync` synchronise (same gate, same values); every other
    /// gate and τ interleave. Interleaving `|||` has an empty set; `||` lists the shared gates.
    Par {
        /// Synchronised gate names.
        sync: Vec<String>,
        /// Left operand.
        left: Box<Composition>,
        /// Right operand.
        right: Box<Composition>,
    },
    /// Hiding: these gates become τ.
    Hide {
        /// Hidden gate names.
        gates: Vec<String>,
        /// Operand.
        body: Box<Composition>,
    },
    /// Renaming: `(old, new)` pairs, applied simultaneously.
    Rename {
        /// Pairs.
        map: Vec<(String, String)>,
        /// Operand.
        body: Box<Composition>,
    },
}

/// A model ready for testing: instantiated automata, their composition and its interface.
#[derive(Clone, Debug)]
pub struct Spec {
    /// Name of the model or system.
    pub name: String,
    /// Types and functions.
    pub defs: Arc<Defs>,
    /// The leaves of the composition.
    pub automata: Vec<Automaton>,
    /// The composition (a single [`Composition::Leaf`] for a plain model).
    pub root: Composition,
    /// Visible gates of the root (after hiding and renaming), sorted by name. Direction: a
    /// gate synchronised between an output and an input is an output of the composition.
    pub gates: Vec<Gate>,
    /// Multi-actions the root may show (`@sync(a | b)`, TorXakis `SYNC`): sets of two or more
    /// gate names of [`Spec::gates`], each sorted, all of one direction. A step of the root
    /// that combines several gates is visible only if its gate set is listed here (single
    /// gates always are). Empty for almost every spec.
    pub sync: Vec<Vec<String>>,
}

impl Spec {
    /// The only automaton if the spec is a single model (no composition).
    pub fn as_single(&self) -> Option<&Automaton> {
        match self.root {
            Composition::Leaf(i) => self.automata.get(i as usize),
            _ => None,
        }
    }
}

/// An error while evaluating an expression.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalError {
    /// What went wrong.
    pub message: String,
    /// The expression that failed.
    pub span: Span,
}

/// Values of the variables, parameters and function locals an expression may read.
#[derive(Clone, Copy, Debug)]
pub struct Env<'a> {
    /// Location variables.
    pub vars: &'a [Value],
    /// Switch parameters.
    pub params: &'a [Value],
    /// Function parameters.
    pub locals: &'a [Value],
}

const MAX_CALL_DEPTH: usize = 256;

impl Defs {
    /// Evaluates an expression.
    pub fn eval(&self, e: &Expr, env: &Env) -> Result<Value, EvalError> {
        self.eval_depth(e, env, 0)
    }

    fn eval_depth(&self, e: &Expr, env: &Env, depth: usize) -> Result<Value, EvalError> {
        let err = |m: String| EvalError {
            message: m,
            span: e.span,
        };
        let int = |v: Value| v.as_int().ok_or_else(|| err("expected an integer".into()));
        Ok(match &e.kind {
            ExprKind::Const(v) => v.clone(),
            ExprKind::Var(i) => env.vars[*i as usize].clone(),
            ExprKind::Param(i) => env.params[*i as usize].clone(),
            ExprKind::Local(i) => env.locals[*i as usize].clone(),
            ExprKind::Unary(UnOp::Not, a) => {
                Value::Bool(!self.eval_depth(a, env, depth)?.as_bool().unwrap_or(false))
            }
            ExprKind::Unary(UnOp::Neg, a) => Value::Int(
                int(self.eval_depth(a, env, depth)?)?
                    .checked_neg()
                    .ok_or_else(|| err("integer overflow".into()))?,
            ),
            ExprKind::Binary(op, a, b) => {
                use BinOp::*;
                match op {
                    And | Or | Implies => {
                        let x = self.eval_depth(a, env, depth)?.as_bool() == Some(true);
                        let short = match op {
                            And => (!x).then_some(false),
                            Or => x.then_some(true),
                            _ => (!x).then_some(true),
                        };
                        if let Some(r) = short {
                            return Ok(Value::Bool(r));
                        }
                        Value::Bool(self.eval_depth(b, env, depth)?.as_bool() == Some(true))
                    }
                    Eq => Value::Bool(
                        self.eval_depth(a, env, depth)? == self.eval_depth(b, env, depth)?,
                    ),
                    Ne => Value::Bool(
                        self.eval_depth(a, env, depth)? != self.eval_depth(b, env, depth)?,
                    ),
                    Concat => {
                        let x = self.eval_depth(a, env, depth)?;
                        let y = self.eval_depth(b, env, depth)?;
                        match (x, y) {
                            (Value::Str(x), Value::Str(y)) => Value::Str(format!("{x}{y}").into()),
                            _ => return Err(err("`++` needs two strings".into())),
                        }
                    }
                    _ => {
                        let x = int(self.eval_depth(a, env, depth)?)?;
                        let y = int(self.eval_depth(b, env, depth)?)?;
                        let ov = || err(format!("integer overflow in {} {} {}", x, op.symbol(), y));
                        match op {
                            Add => Value::Int(x.checked_add(y).ok_or_else(ov)?),
                            Sub => Value::Int(x.checked_sub(y).ok_or_else(ov)?),
                            Mul => Value::Int(x.checked_mul(y).ok_or_else(ov)?),
                            Div | Mod if y == 0 => return Err(err("division by zero".into())),
                            Div => Value::Int(x.checked_div_euclid(y).ok_or_else(ov)?),
                            Mod => Value::Int(x.checked_rem_euclid(y).ok_or_else(ov)?),
                            Lt => Value::Bool(x < y),
                            Le => Value::Bool(x <= y),
                            Gt => Value::Bool(x > y),
                            Ge => Value::Bool(x >= y),
                            _ => unreachable!("logical operators handled above"),
                        }
                    }
                }
            }
            ExprKind::If(c, a, b) => {
                if self.eval_depth(c, env, depth)?.as_bool() == Some(true) {
                    self.eval_depth(a, env, depth)?
                } else {
                    self.eval_depth(b, env, depth)?
                }
            }
            ExprKind::Ctor(t, c, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval_depth(a, env, depth)?);
                }
                Value::Adt(*t, *c, vals.into())
            }
            ExprKind::Field(a, t, c, f) => match self.eval_depth(a, env, depth)? {
                Value::Adt(_, vc, fields) if vc == *c => fields[*f as usize].clone(),
                v => {
                    let def = &self.types[*t as usize];
                    return Err(err(format!(
                        "field `{}` of constructor `{}` read from the value {}",
                        def.ctors[*c as usize].fields[*f as usize].0,
                        def.ctors[*c as usize].name,
                        v.display(self)
                    )));
                }
            },
            ExprKind::Is(a, _, c) => match self.eval_depth(a, env, depth)? {
                Value::Adt(_, vc, _) => Value::Bool(vc == *c),
                _ => Value::Bool(false),
            },
            ExprKind::Builtin(b, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval_depth(a, env, depth)?);
                }
                b.apply(&vals).ok_or_else(|| {
                    err(format!(
                        "`{}` applied to values of the wrong type",
                        b.name()
                    ))
                })?
            }
            ExprKind::Matches(a, r) => match self.eval_depth(a, env, depth)? {
                Value::Str(s) => Value::Bool(
                    self.regexes
                        .get(*r as usize)
                        .ok_or_else(|| err(format!("unknown regular expression #{}", r)))?
                        .is_match(&s),
                ),
                _ => return Err(err("`matches` needs a string".into())),
            },
            ExprKind::Call(f, args) => {
                if depth >= MAX_CALL_DEPTH {
                    return Err(err(format!(
                        "recursion deeper than {} calls",
                        MAX_CALL_DEPTH
                    )));
                }
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval_depth(a, env, depth)?);
                }
                let func = &self.functions[*f as usize];
                let inner = Env {
                    vars: &[],
                    params: &[],
                    locals: &vals,
                };
                self.eval_depth(&func.body, &inner, depth + 1)?
            }
        })
    }

    /// All values of a type if it is finite and has at most `limit` values; `Err` names the
    /// reason otherwise (used to enumerate gate parameters into labels).
    pub fn enumerate(&self, ty: Type, limit: usize) -> Result<Vec<Value>, String> {
        self.enumerate_rec(ty, limit, &mut Vec::new())
    }

    fn enumerate_rec(
        &self,
        ty: Type,
        limit: usize,
        stack: &mut Vec<AdtId>,
    ) -> Result<Vec<Value>, String> {
        match ty {
            Type::Bool => Ok(vec![Value::Bool(false), Value::Bool(true)]),
            Type::Int => Err("`int` has infinitely many values".into()),
            Type::Str(len, re) => {
                let name = self.type_name(ty);
                let Some(r) = re.and_then(|r| self.regexes.get(r as usize)) else {
                    return Err(format!("`{}` has infinitely many values", name));
                };
                let all = r.language(limit).ok_or_else(|| {
                    format!(
                        "`{}` has infinitely many values (or more than {})",
                        name, limit
                    )
                })?;
                Ok(all
                    .into_iter()
                    .filter(|s| {
                        let n = s.chars().count() as u64;
                        len.is_none_or(|(lo, hi)| lo as u64 <= n && n <= hi as u64)
                    })
                    .map(|s| Value::Str(s.into()))
                    .collect())
            }
            Type::Range(lo, hi) => {
                let n = (hi as i128 - lo as i128 + 1).max(0);
                if n > limit as i128 {
                    return Err(format!(
                        "`int[{}..{}]` has {} values, more than the limit {}",
                        lo, hi, n, limit
                    ));
                }
                Ok((lo..=hi).map(Value::Int).collect())
            }
            Type::Adt(t) => {
                let def = &self.types[t as usize];
                if stack.contains(&t) {
                    return Err(format!(
                        "`{}` is recursive, so it has infinitely many values",
                        def.name
                    ));
                }
                stack.push(t);
                let mut out = Vec::new();
                for (ci, c) in def.ctors.iter().enumerate() {
                    let mut tuples: Vec<Vec<Value>> = vec![Vec::new()];
                    for (_, fty) in &c.fields {
                        let vals = self.enumerate_rec(*fty, limit, stack)?;
                        let mut next = Vec::new();
                        for tuple in &tuples {
                            for v in &vals {
                                if next.len() + out.len() >= limit {
                                    stack.pop();
                                    return Err(format!(
                                        "`{}` has more than {} values",
                                        def.name, limit
                                    ));
                                }
                                let mut t2 = tuple.clone();
                                t2.push(v.clone());
                                next.push(t2);
                            }
                        }
                        tuples = next;
                    }
                    for tuple in tuples {
                        out.push(Value::Adt(t, ci as u32, tuple.into()));
                    }
                    if out.len() > limit {
                        stack.pop();
                        return Err(format!("`{}` has more than {} values", def.name, limit));
                    }
                }
                stack.pop();
                Ok(out)
            }
        }
    }

    /// How a type is written (`int[0..10]`, `Op`).
    pub fn type_name(&self, ty: Type) -> String {
        match ty {
            Type::Bool => "bool".into(),
            Type::Int => "int".into(),
            Type::Range(lo, hi) => format!("int[{}..{}]", lo, hi),
            Type::Adt(t) => self.types[t as usize].name.clone(),
            Type::Str(len, re) => {
                let mut s = String::from("string");
                if let Some((lo, hi)) = len {
                    s.push_str(&format!("[{}..{}]", lo, hi));
                }
                if let Some(r) = re {
                    match self.regexes.get(r as usize) {
                        Some(r) => s.push_str(&format!(" /{}/", r.source)),
                        None => s.push_str(&format!(" /#{}/", r)),
                    }
                }
                s
            }
        }
    }

    /// True when the value belongs to the type (range check, string refinements; ADT values
    /// are well-typed by construction).
    pub fn contains(&self, ty: Type, v: &Value) -> bool {
        match (ty, v) {
            (Type::Range(lo, hi), Value::Int(i)) => lo <= *i && *i <= hi,
            (Type::Int, Value::Int(_)) | (Type::Bool, Value::Bool(_)) => true,
            (Type::Adt(t), Value::Adt(vt, _, _)) => t == *vt,
            (Type::Str(len, re), Value::Str(s)) => {
                len.is_none_or(|(lo, hi)| {
                    let n = s.chars().count() as u64;
                    lo as u64 <= n && n <= hi as u64
                }) && re.is_none_or(|r| self.regexes.get(r as usize).is_some_and(|r| r.is_match(s)))
            }
            _ => false,
        }
    }
}
