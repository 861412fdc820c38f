//! The syntax tree of a TorXakis `.txs` file, close to the text.
//!
//! Every node carries an [`ioco_lang::Span`] into the `.txs` source, so that diagnostics of the
//! parser, of the lowering ([`crate::lower`]) and of the `.ioco` checker point at the TorXakis
//! text the user wrote. Names are not resolved here.
//!
//! The grammar is TorXakis's (`TxsHappy.y` of TorXakis 0.9): definitions `TYPEDEF`, `FUNCDEF`,
//! `CONSTDEF`, `PROCDEF`, `STAUTDEF`, `CHANDEF`, `MODELDEF`, `PURPDEF`, `CNECTDEF` and
//! `MAPPERDEF`, each ending in `ENDDEF`.

pub use ioco_lang::ast::Ident;
use ioco_lang::Span;

/// A parsed `.txs` file.
#[derive(Clone, Debug, Default)]
pub struct File {
    /// Definitions in order.
    pub defs: Vec<Def>,
}

/// A top-level definition.
#[derive(Clone, Debug)]
pub enum Def {
    /// `TYPEDEF`
    Type(TypeDef),
    /// `FUNCDEF`
    Func(FuncDef),
    /// `CONSTDEF` (several constants in one definition).
    Const(Vec<ConstDef>),
    /// `PROCDEF`
    Proc(ProcDef),
    /// `STAUTDEF`
    StAut(StAutDef),
    /// `CHANDEF` (several channel declarations in one definition).
    Chan(ChanDef),
    /// `MODELDEF`
    Model(ModelDef),
    /// `PURPDEF`
    Purp(PurpDef),
    /// `CNECTDEF`
    Cnect(CnectDef),
    /// `MAPPERDEF`
    Mapper(ModelDef),
}

/// A sort as written: `Int`, `Bool`, `String`, `Regex` or a `TYPEDEF` name.
pub type Sort = Ident;

/// `x :: Int` (a list `x, y :: Int` is split into one declaration per name).
#[derive(Clone, Debug)]
pub struct VarDecl {
    /// The name.
    pub name: Ident,
    /// Its sort.
    pub sort: Sort,
}

/// `TYPEDEF Name ::= C1 { f :: Int } | C2 ENDDEF`
#[derive(Clone, Debug)]
pub struct TypeDef {
    /// The type name.
    pub name: Ident,
    /// Constructors in order.
    pub ctors: Vec<CtorDecl>,
    /// From `TYPEDEF` to `ENDDEF`.
    pub span: Span,
}

/// A constructor `C { f1, f2 :: Int; g :: Bool }` (no braces: no fields).
#[derive(Clone, Debug)]
pub struct CtorDecl {
    /// The constructor name.
    pub name: Ident,
    /// Fields in order.
    pub fields: Vec<VarDecl>,
}

/// `FUNCDEF f (x :: Int; y :: Bool) :: Int ::= body ENDDEF`
#[derive(Clone, Debug)]
pub struct FuncDef {
    /// The name (an identifier, or an operator such as `++` for user-defined operators).
    pub name: Ident,
    /// Parameters.
    pub params: Vec<VarDecl>,
    /// Result sort.
    pub ret: Sort,
    /// Body.
    pub body: VExpr,
    /// From `FUNCDEF` to `ENDDEF`.
    pub span: Span,
}

/// One constant of `CONSTDEF c :: Int ::= 42 ENDDEF`.
#[derive(Clone, Debug)]
pub struct ConstDef {
    /// The name.
    pub name: Ident,
    /// Its sort.
    pub sort: Sort,
    /// Its value.
    pub value: VExpr,
}

/// A channel declaration `Job :: Int # Int` (no sort: a channel without data). A list
/// `A, B :: Int` is split into one declaration per name.
#[derive(Clone, Debug)]
pub struct ChanDecl {
    /// The channel name.
    pub name: Ident,
    /// The sorts of the values it carries, in order.
    pub sorts: Vec<Sort>,
}

/// `CHANDEF Name ::= A :: Int; B ENDDEF`
#[derive(Clone, Debug)]
pub struct ChanDef {
    /// The definition's name.
    pub name: Ident,
    /// The channels.
    pub chans: Vec<ChanDecl>,
}

/// How a process may end (`PROCDEF p [..] (..) EXIT Int ::= ..`).
#[derive(Clone, Debug, Default)]
pub enum ExitKind {
    /// Nothing written: the process never exits (`NOEXIT`).
    #[default]
    NoExit,
    /// `EXIT` with the sorts of the values it passes (empty: a plain `EXIT`).
    Exit(Vec<Sort>),
    /// `HIT` (test purposes).
    Hit,
}

/// `PROCDEF name [G :: Int; H] (x :: Int) EXIT ::= body ENDDEF`
#[derive(Clone, Debug)]
pub struct ProcDef {
    /// The process name.
    pub name: Ident,
    /// Gate (channel) parameters.
    pub gates: Vec<ChanDecl>,
    /// Value parameters.
    pub params: Vec<VarDecl>,
    /// How it may end.
    pub exit: ExitKind,
    /// Its behaviour.
    pub body: BExpr,
    /// From `PROCDEF` to `ENDDEF`.
    pub span: Span,
}

/// `STAUTDEF name [gates] (params) ::= STATE .. VAR .. INIT .. TRANS .. ENDDEF`
#[derive(Clone, Debug)]
pub struct StAutDef {
    /// The automaton's name.
    pub name: Ident,
    /// Gate parameters.
    pub gates: Vec<ChanDecl>,
    /// Value parameters.
    pub params: Vec<VarDecl>,
    /// How it may end.
    pub exit: ExitKind,
    /// `STATE s0, s1`
    pub states: Vec<Ident>,
    /// `VAR x :: Int; y :: IntList`
    pub vars: Vec<VarDecl>,
    /// `INIT s0 { x := 0; y := Nil }`: the initial state and the variables' initial values.
    pub init: Ident,
    /// The initial assignments.
    pub init_values: Vec<(Ident, VExpr)>,
    /// `TRANS s0 -> In ? x [[ g ]] { v := e } -> s1`
    pub trans: Vec<Trans>,
    /// From `STAUTDEF` to `ENDDEF`.
    pub span: Span,
}

/// One transition of a `STAUTDEF`: `from -> offers [[guard]] { updates } -> to`.
#[derive(Clone, Debug)]
pub struct Trans {
    /// Source state.
    pub from: Ident,
    /// The offers (a multi-action `A ?x | B !e`; `ISTEP`/`EXIT` are offers too).
    pub offers: Vec<Offer>,
    /// The guard after the offers, if any.
    pub guard: Option<VExpr>,
    /// Simultaneous updates `{ x := e; y := f }`.
    pub updates: Vec<(Ident, VExpr)>,
    /// Target state.
    pub to: Ident,
    /// The whole transition.
    pub span: Span,
}

/// `MODELDEF` (and `MAPPERDEF`, which has the same shape).
#[derive(Clone, Debug)]
pub struct ModelDef {
    /// The name.
    pub name: Ident,
    /// `CHAN IN A, B` (channels the tester sends to the SUT).
    pub chan_in: Vec<Ident>,
    /// `CHAN OUT C` (channels the SUT sends).
    pub chan_out: Vec<Ident>,
    /// `SYNC {A | B}, {C}`: the channel sets that happen together (None: not written).
    pub sync: Option<Vec<Vec<Ident>>>,
    /// `BEHAVIOUR b`
    pub behaviour: BExpr,
    /// From `MODELDEF` to `ENDDEF`.
    pub span: Span,
}

/// `PURPDEF name ::= CHAN IN .. CHAN OUT .. GOAL g ::= b .. ENDDEF`
#[derive(Clone, Debug)]
pub struct PurpDef {
    /// The name.
    pub name: Ident,
    /// `CHAN IN`
    pub chan_in: Vec<Ident>,
    /// `CHAN OUT`
    pub chan_out: Vec<Ident>,
    /// `SYNC`, if written.
    pub sync: Option<Vec<Vec<Ident>>>,
    /// The goals: `GOAL name ::= behaviour` (ending in `HIT` or `MISS`).
    pub goals: Vec<(Ident, BExpr)>,
    /// From `PURPDEF` to `ENDDEF`.
    pub span: Span,
}

/// Which side opens the socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CnectKind {
    /// `CLIENTSOCK`: TorXakis connects to the SUT (the SUT listens).
    Client,
    /// `SERVERSOCK`: TorXakis listens (a simulator run).
    Server,
}

/// Direction of a connection channel, as seen from TorXakis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CnectDir {
    /// `CHAN OUT`: TorXakis writes (the model's inputs, for a `CLIENTSOCK`).
    Out,
    /// `CHAN IN`: TorXakis reads.
    In,
}

/// `CHAN OUT Action HOST "localhost" PORT 7890`
#[derive(Clone, Debug)]
pub struct CnectChan {
    /// Direction.
    pub dir: CnectDir,
    /// The socket channel's name (usually the same as the model channel it carries).
    pub chan: Ident,
    /// Host.
    pub host: String,
    /// Port.
    pub port: u16,
    /// The whole line.
    pub span: Span,
}

/// `ENCODE Action ? opn -> ! toString(opn)`: how a model action becomes a line.
#[derive(Clone, Debug)]
pub struct Encode {
    /// The model's offer (a channel with `?x` variables).
    pub offer: Offer,
    /// The socket channel written (`->  Chan ! e`; None when only `! e` is written).
    pub chan: Option<Ident>,
    /// The string expression sent.
    pub value: VExpr,
    /// The whole encoding.
    pub span: Span,
}

/// `DECODE Result ! fromString(s) <- ? s`: how a line becomes a model action.
#[derive(Clone, Debug)]
pub struct Decode {
    /// The model's offer (a channel with `!e` expressions over the line variable).
    pub offer: Offer,
    /// The socket channel read (None when only `? s` is written).
    pub chan: Option<Ident>,
    /// The variable bound to the line read.
    pub var: Ident,
    /// The whole decoding.
    pub span: Span,
}

/// `CNECTDEF name ::= CLIENTSOCK CHAN .. ENCODE .. DECODE .. ENDDEF`
#[derive(Clone, Debug)]
pub struct CnectDef {
    /// The name.
    pub name: Ident,
    /// Who listens.
    pub kind: CnectKind,
    /// The socket channels.
    pub chans: Vec<CnectChan>,
    /// Encodings.
    pub encodes: Vec<Encode>,
    /// Decodings.
    pub decodes: Vec<Decode>,
    /// From `CNECTDEF` to `ENDDEF`.
    pub span: Span,
}

/// A behaviour expression.
#[derive(Clone, Debug)]
pub struct BExpr {
    /// Which behaviour.
    pub kind: BKind,
    /// Where.
    pub span: Span,
}

/// Parallel operators.
#[derive(Clone, Debug)]
pub enum ParOp {
    /// `|||`
    Interleave,
    /// `||`
    Full,
    /// `|[ A, B ]|`
    Gates(Vec<Ident>),
}

/// An item of an `EXIT` (`EXIT ! e ? x :: Int`).
#[derive(Clone, Debug)]
pub enum ExitItem {
    /// `! e`
    Send(VExpr),
    /// `? x :: Sort`
    Recv(Ident, Sort),
}

/// Kinds of behaviour expressions.
#[derive(Clone, Debug)]
pub enum BKind {
    /// `STOP`
    Stop,
    /// `EXIT ! e ? x :: T` (no items: a plain `EXIT`).
    Exit(Vec<ExitItem>),
    /// `HIT` (test purposes).
    Hit,
    /// `MISS` (test purposes).
    Miss,
    /// `offers [[guard]] >-> then` (`then` is `STOP` when `>->` is absent).
    Prefix {
        /// The offers of the multi-action (`A ?x | B !e`), at least one.
        offers: Vec<Offer>,
        /// The constraint `[[ .. ]]` after the offers.
        guard: Option<VExpr>,
        /// The continuation.
        then: Box<BExpr>,
    },
    /// `[[ c ]] =>> b`
    Guard(VExpr, Box<BExpr>),
    /// `b1 ## b2 ## ..` (at least two).
    Choice(Vec<BExpr>),
    /// `b1 op b2` (left-associative).
    Par(ParOp, Box<BExpr>, Box<BExpr>),
    /// `b1 >>> b2` or `b1 >>> ACCEPT ? x :: T IN b2 NI`.
    Enable {
        /// Left.
        left: Box<BExpr>,
        /// The `ACCEPT ? x :: T` variables (empty: plain `>>>`). TorXakis lets the sort be
        /// left out (`ACCEPT ? x IN`): the sort is then the one the left side exits with, and
        /// the declaration's sort has an empty name (its span is empty, just after `x`).
        accept: Vec<VarDecl>,
        /// Right.
        right: Box<BExpr>,
    },
    /// `b1 [>> b2`
    Disable(Box<BExpr>, Box<BExpr>),
    /// `b1 [>< b2`
    Interrupt(Box<BExpr>, Box<BExpr>),
    /// `HIDE [ G :: Int ] IN b NI`
    Hide(Vec<ChanDecl>, Box<BExpr>),
    /// `LET x = e; y = f IN b NI` (each binding may have a sort: `x :: Int = e`).
    Let(Vec<(Ident, Option<Sort>, VExpr)>, Box<BExpr>),
    /// `p [G, H] (e, f)`
    Inst {
        /// The process (or `STAUTDEF`).
        name: Ident,
        /// Channel arguments.
        gates: Vec<Ident>,
        /// Value arguments.
        args: Vec<VExpr>,
    },
}

/// One offer of a multi-action: `G ?x :: Int !e` (or `ISTEP`, `QSTEP`, `HSTEP`, `EXIT`).
#[derive(Clone, Debug)]
pub struct Offer {
    /// The channel (the keywords `ISTEP`, `QSTEP`, `HSTEP` and `EXIT` are kept as their text).
    pub gate: Ident,
    /// The items in order.
    pub items: Vec<OfferItem>,
}

/// An item of an offer.
#[derive(Clone, Debug)]
pub enum OfferItem {
    /// `! e`: the value must equal `e`.
    Send(VExpr),
    /// `? x` or `? x :: Sort`: binds `x`.
    Recv(Ident, Option<Sort>),
}

/// A value expression.
#[derive(Clone, Debug)]
pub struct VExpr {
    /// Which expression.
    pub kind: VKind,
    /// Where.
    pub span: Span,
}

/// Kinds of value expressions.
#[derive(Clone, Debug)]
pub enum VKind {
    /// An integer literal (TorXakis integers are unbounded; a literal must fit in 64 bits).
    Int(i64),
    /// `True`, `False`
    Bool(bool),
    /// `"text"` (escapes resolved).
    Str(String),
    /// `REGEX('..')`: the regular expression's text (XSD syntax).
    Regex(String),
    /// A variable, parameter, constant or nullary constructor.
    Name(Ident),
    /// `f(a, b)`: a function, constructor, accessor (`hd(l)`), test (`isNil(l)`) or built-in.
    Call(Ident, Vec<VExpr>),
    /// A prefix operator: `-e`, `+e` (`not` is written as a call).
    Unary(Ident, Box<VExpr>),
    /// An infix operator `a op b` (`+ - * / % == <> < <= > >= /\ \/ => ++` or user-defined).
    Binary(Ident, Box<VExpr>, Box<VExpr>),
    /// `IF c THEN a ELSE b FI`
    If(Box<VExpr>, Box<VExpr>, Box<VExpr>),
    /// `LET x = e; y = f IN body NI`
    Let(Vec<(Ident, Option<Sort>, VExpr)>, Box<VExpr>),
    /// `e :: Sort` (a sort annotation, as in `ANY :: Int`) or `ANY :: Sort` (an unknown value).
    Typed(Box<VExpr>, Sort),
}
