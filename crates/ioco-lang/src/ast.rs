//! The syntax tree produced by the parser, close to the text (used by the checker and the
//! formatter). Names are not resolved here; see [`crate::ir`] for the resolved, typed form.

use crate::span::Span;

/// A comment, kept for the formatter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// Where it is (including `//` or `/* */`).
    pub span: Span,
    /// True if it is the first thing on its line.
    pub own_line: bool,
}

/// A name with its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The text.
    pub name: String,
    /// Where it is.
    pub span: Span,
}

/// A parsed file.
#[derive(Clone, Debug, Default)]
pub struct File {
    /// Top-level items in order.
    pub items: Vec<Item>,
    /// All comments, in order (for the formatter).
    pub comments: Vec<Comment>,
}

/// An attribute such as `@timeout(500ms)` or `@main`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attr {
    /// Its name (`timeout`).
    pub name: Ident,
    /// Its arguments.
    pub args: Vec<AttrArg>,
    /// The whole attribute.
    pub span: Span,
}

/// An argument of an attribute.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrArg {
    /// `42`
    Int(i64, Span),
    /// `500ms`, `2s`, `10us`, `1min`: stored in microseconds.
    Duration(u64, Span),
    /// `"text"` (without quotes, escapes resolved)
    Str(String, Span),
    /// `name`
    Name(Ident),
    /// `a | b | c`: a set of gates (`@sync(a | b)`).
    Gates(Vec<Ident>, Span),
}

impl AttrArg {
    /// Its span.
    pub fn span(&self) -> Span {
        match self {
            AttrArg::Int(_, s)
            | AttrArg::Duration(_, s)
            | AttrArg::Str(_, s)
            | AttrArg::Gates(_, s) => *s,
            AttrArg::Name(i) => i.span,
        }
    }
}

/// A top-level item.
#[derive(Clone, Debug)]
pub struct Item {
    /// Attributes before it.
    pub attrs: Vec<Attr>,
    /// What it is.
    pub kind: ItemKind,
    /// From the first attribute (or keyword) to the end.
    pub span: Span,
}

/// The kinds of top-level items.
#[derive(Clone, Debug)]
pub enum ItemKind {
    /// `import "other.ioco"`
    Import(String, Span),
    /// `type Name = ...`
    Type(TypeDef),
    /// `fn name(x: int): bool = expr`
    Fn(FnDef),
    /// `model Name(params) { ... }`
    Model(Model),
    /// `system Name { composition }`
    System(System),
}

/// `type Name = int[0..10]` or `type Name = A | B { f: int }`.
#[derive(Clone, Debug)]
pub struct TypeDef {
    /// The type name.
    pub name: Ident,
    /// Its definition.
    pub body: TypeBody,
}

/// Right-hand side of a type definition.
#[derive(Clone, Debug)]
pub enum TypeBody {
    /// An alias of a built-in type.
    Alias(TypeExpr),
    /// An algebraic data type: constructors separated by `|`.
    Adt(Vec<Ctor>),
}

/// A constructor `Name` or `Name { field: type, ... }`.
#[derive(Clone, Debug)]
pub struct Ctor {
    /// Constructor name.
    pub name: Ident,
    /// Fields in order.
    pub fields: Vec<Param>,
}

/// A type written in the source.
#[derive(Clone, Debug)]
pub struct TypeExpr {
    /// Which type.
    pub kind: TypeExprKind,
    /// Where.
    pub span: Span,
}

/// Kinds of written types.
#[derive(Clone, Debug)]
pub enum TypeExprKind {
    /// `int` or `int[lo..hi]`
    Int(Option<(Box<Expr>, Box<Expr>)>),
    /// `bool`
    Bool,
    /// `string`, `string[lo..hi]` (length range), `string /re/`, `string[lo..hi] /re/`
    Str(Option<(Box<Expr>, Box<Expr>)>, Option<RegexLit>),
    /// A named type.
    Named(Ident),
}

/// `name: type`
#[derive(Clone, Debug)]
pub struct Param {
    /// The name.
    pub name: Ident,
    /// The type.
    pub ty: TypeExpr,
}

/// `fn name(params): type = body`
#[derive(Clone, Debug)]
pub struct FnDef {
    /// Function name.
    pub name: Ident,
    /// Parameters.
    pub params: Vec<Param>,
    /// Result type.
    pub ret: TypeExpr,
    /// Body.
    pub body: Expr,
}

/// `model Name(params) { members }`
#[derive(Clone, Debug)]
pub struct Model {
    /// Model name.
    pub name: Ident,
    /// Value parameters (constants fixed at instantiation).
    pub params: Vec<Param>,
    /// Members in order.
    pub members: Vec<Member>,
    /// The closing brace.
    pub end: Span,
}

/// A member of a model body.
#[derive(Clone, Debug)]
pub struct Member {
    /// Attributes before it.
    pub attrs: Vec<Attr>,
    /// What it is.
    pub kind: MemberKind,
    /// Where.
    pub span: Span,
}

/// Input or output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// `input`, `?`
    Input,
    /// `output`, `!`
    Output,
}

/// Kinds of model members.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum MemberKind {
    /// `input a, b(x: int)` / `output ...`
    Gates(Dir, Vec<GateDecl>),
    /// `var x: int = 0, y: bool = true`
    Vars(Vec<VarDecl>),
    /// `init idle`
    Init(Ident),
    /// `location a, b`
    Locations(Vec<Ident>),
    /// `from -- action [guard] { updates } --> to`
    Switch(Switch),
}

/// A gate declaration `name` or `name(p: type, ...)`.
#[derive(Clone, Debug)]
pub struct GateDecl {
    /// Gate name.
    pub name: Ident,
    /// Parameters (names are documentation; types matter).
    pub params: Vec<Param>,
}

/// `name: type = init`
#[derive(Clone, Debug)]
pub struct VarDecl {
    /// Variable name.
    pub name: Ident,
    /// Type.
    pub ty: TypeExpr,
    /// Initial value (a constant expression).
    pub init: Expr,
}

/// A switch.
#[derive(Clone, Debug)]
pub struct Switch {
    /// Source location.
    pub from: Ident,
    /// The action.
    pub action: Action,
    /// Further gate actions of a multi-action `a?(x) | b!(y)` (all happen in one step).
    pub also: Vec<Action>,
    /// Guard, `true` if absent.
    pub guard: Option<Expr>,
    /// Simultaneous assignments.
    pub updates: Vec<(Ident, Expr)>,
    /// Target location (for `exit`, which has no target, the name is empty).
    pub to: Ident,
}

/// The action of a switch.
#[derive(Clone, Debug)]
pub enum Action {
    /// `tau`
    Tau(Span),
    /// `exit`: successful termination (TorXakis `EXIT`); the switch has no target.
    Exit(Span),
    /// `gate?(args)` or `gate!(args)`
    Gate {
        /// Gate name.
        name: Ident,
        /// `?` or `!`.
        dir: Dir,
        /// Span of `?` / `!`.
        dir_span: Span,
        /// Arguments.
        args: Vec<Arg>,
    },
}

/// An argument of an action.
#[derive(Clone, Debug)]
pub enum Arg {
    /// A fresh name bound to the value (`water?(w)`).
    Bind(Ident),
    /// `=expr`: the value must equal the expression (`coffee!(=total)`).
    Value(Expr),
}

/// A composition expression (body of a `system`).
#[derive(Clone, Debug)]
pub struct Comp {
    /// Which operator.
    pub kind: CompKind,
    /// Where.
    pub span: Span,
}

/// Parallel operators.
#[derive(Clone, Debug)]
pub enum ParOp {
    /// `|||`: no synchronisation.
    Interleave,
    /// `||`: synchronise on all gates both sides have.
    Full,
    /// `|[a, b]|`: synchronise on these gates.
    Gates(Vec<Ident>),
}

/// Kinds of composition expressions.
#[derive(Clone, Debug)]
pub enum CompKind {
    /// A model or system, with value arguments for a model's parameters.
    Inst(Ident, Vec<Expr>),
    /// Parallel composition.
    Par(ParOp, Box<Comp>, Box<Comp>),
    /// `hide a, b in P`
    Hide(Vec<Ident>, Box<Comp>),
    /// `P[a -> b, ...]`
    Rename(Box<Comp>, Vec<(Ident, Ident)>),
    /// `(P)` (kept for the formatter).
    Paren(Box<Comp>),
    /// `P >>> Q`: `Q` starts when `P` has exited (TorXakis enabling).
    Seq(Box<Comp>, Box<Comp>),
}

/// `system Name { composition }`
#[derive(Clone, Debug)]
pub struct System {
    /// System name.
    pub name: Ident,
    /// The composition.
    pub body: Comp,
}

/// An expression.
#[derive(Clone, Debug)]
pub struct Expr {
    /// Which expression.
    pub kind: ExprKind,
    /// Where.
    pub span: Span,
}

/// A regular expression as written (`/[A-Z][a-z]*/` in `.ioco`, `REGEX('[A-Z][a-z]*')` in
/// TorXakis): parsed and checked by the checker ([`crate::regex::Regex::parse`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegexLit {
    /// The text between the delimiters, exactly as written (escapes unresolved).
    pub source: String,
    /// The whole literal with its delimiters (one byte each): errors point at
    /// `span.start + 1 + offset`.
    pub span: Span,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `!`
    Not,
    /// `-`
    Neg,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (Euclidean)
    Div,
    /// `%` (Euclidean, never negative)
    Mod,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `&&`
    And,
    /// `||`
    Or,
    /// `=>`
    Implies,
    /// `++` (string concatenation)
    Concat,
}

impl BinOp {
    /// How it is written.
    pub fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Mod => "%",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            And => "&&",
            Or => "||",
            Implies => "=>",
            Concat => "++",
        }
    }

    /// Binding strength (higher binds tighter).
    pub fn precedence(self) -> u8 {
        use BinOp::*;
        match self {
            Implies => 1,
            Or => 2,
            And => 3,
            Eq | Ne | Lt | Le | Gt | Ge => 4,
            Add | Sub | Concat => 5,
            Mul | Div | Mod => 6,
        }
    }
}

/// Kinds of expressions.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// `42`
    Int(i64),
    /// `true`, `false`
    Bool(bool),
    /// `"text"` (escapes resolved)
    Str(String),
    /// A variable, parameter, constant or nullary constructor.
    Name(Ident),
    /// `f(a, b)` (function call or constructor).
    Call(Ident, Vec<Expr>),
    /// `!e`, `-e`
    Unary(UnOp, Box<Expr>),
    /// `a op b`
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `if c then a else b`
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `e.field`
    Field(Box<Expr>, Ident),
    /// `e is Ctor`
    Is(Box<Expr>, Ident),
    /// `e matches /re/` (TorXakis `strinre(e, REGEX('re'))`)
    Matches(Box<Expr>, RegexLit),
    /// `(e)` (kept for the formatter).
    Paren(Box<Expr>),
}
