//! The `.txs` parser: a hand-written recursive-descent parser over the tokens of
//! [`crate::lexer`], producing the tree of [`crate::ast`].
//!
//! # Grammar
//!
//! The grammar followed is TorXakis 0.9.0's (the Parsec front end
//! `sys/txs-compiler/src/TorXakis/Parser/*.hs`), which agrees with the earlier Happy grammar
//! (`sys/front/src/TxsHappy.y`, TorXakis up to 0.6) on every precedence below. Where the
//! older grammar accepts more and the corpus uses it, it is accepted too: `;` between
//! transitions, and comma-separated constraints `[[ c1, c2 ]]` (and `IF c1, c2 THEN`), which
//! mean `c1 /\ c2` and are read as the operator `/\` (its span is the comma's).
//!
//! ```text
//! defs      ::= TYPEDEF  capid ::= ctor {| ctor} {; capid ::= ..} ENDDEF
//!             | FUNCDEF  (smallid|operator) (vars) :: Sort ::= vexpr {; ..} ENDDEF
//!             | CONSTDEF smallid :: Sort ::= vexpr {; ..} ENDDEF
//!             | PROCDEF  id [chans] (vars) exit ::= bexpr {; ..} ENDDEF
//!             | STAUTDEF id [chans] (vars) exit ::= {STATE ids | VAR vars | INIT s {upd}
//!                                                  | TRANS {s -> offers [[c]] {upd} -> s [;]}} ENDDEF
//!             | CHANDEF  capid ::= chans ENDDEF
//!             | MODELDEF|MAPPERDEF capid ::= CHAN IN ids CHAN OUT ids [SYNC {A|B}, ..] BEHAVIOUR bexpr ENDDEF
//!             | PURPDEF  capid ::= CHAN IN ids CHAN OUT ids [SYNC ..] {GOAL id ::= bexpr} ENDDEF
//!             | CNECTDEF capid ::= (CLIENTSOCK|SERVERSOCK) {CHAN (IN|OUT) ids HOST "h" PORT n
//!                                   | ENCODE offer -> [Chan] ! vexpr | DECODE offer <- [Chan] ? x} ENDDEF
//! ctor      ::= Capid [{ x, y :: Sort; z :: Sort }]
//! chans     ::= A, B :: Int # Bool; C        (also between `[ ]` of PROCDEF, STAUTDEF, HIDE)
//! vars      ::= x, y :: Int; z :: Bool       (between `( )`, which may be empty but not omitted)
//! exit      ::= [EXIT Sort # Sort | HIT | NOEXIT]
//! ```
//!
//! Behaviour expressions, loosest first (all binary operators left-associative):
//!
//! | level | operators                                                                 |
//! |-------|---------------------------------------------------------------------------|
//! | 1     | `b >>> b`, `b >>> ACCEPT ? x :: T IN b NI`, `b [>> b`, `b [>< b`           |
//! | 2     | `b \|\| b`, `b \|\|\| b`, `b \|[ G, H ]\| b`                                 |
//! | 3     | `b ## b`                                                                  |
//! | 4     | `offers [[c]] >-> b4` (right), `[[c]] =>> b4`, `STOP`, `p [G] (e)`,       |
//! |       | `LET x = e; y = f IN b NI`, `HIDE [G :: Int] IN b NI`, `( b )`            |
//!
//! so `A >-> B ## C ||| D >>> E` is `(((A >-> B) ## C) ||| D) >>> E`. An action is a
//! multi-action of offers separated by `|` (`A ? x | B ! e`), each a gate (`ISTEP`, `QSTEP`,
//! `HSTEP`, `HIT`, `MISS` and `EXIT` are kept as the gate's text) followed by items `? x`,
//! `? x :: Sort`, `! vexpr`; the whole may be wrapped in `{ }`. An action without `>->` is
//! followed by `STOP`. `EXIT ! e ? x :: T` alone is [`ast::BKind::Exit`], `HIT` and `MISS` alone
//! are [`ast::BKind::Hit`] and [`ast::BKind::Miss`]. A process instantiation needs both its
//! channel list and its argument list (`p [] ()` when empty): `p` alone is an action on a
//! gate `p`.
//!
//! Value expressions: **every infix operator has the same precedence and associates to the
//! left** (TorXakis has no operator table: `1 + 2 * 3` is `(1 + 2) * 3` and `a == b /\ c` is
//! `(a == b) /\ c`; where the usual precedences would group a chain otherwise, the warning
//! `ioco::txs::parse::no_precedence` gives both readings); prefix operators (`-x`, `+x`, any operator) bind tighter than infix ones;
//! `e :: Sort` annotates one term (`ANY :: Int`, `x :: Int + 1`) and binds tightest. Terms:
//! literals (`42`, `True`, `"s"`, `REGEX('..')`), names, calls `f(a, b)`, `( e )`,
//! `IF c THEN a ELSE b FI`, `LET x = e, y = f; z :: Int = g IN e NI` (`,` separates parallel
//! bindings and `;` sequential groups; both are flattened into one list in the tree) and `ANY`
//! (a name `ANY`, usually annotated). A `-` written directly before an integer literal is
//! part of the literal (`-5` is [`ast::VKind::Int`]`(-5)`, so `-9223372036854775808` fits);
//! TorXakis integers are unbounded, and a literal beyond 64 bits is read as the nearest bound
//! with the warning `ioco::txs::parse::int_clamped` (a comparison with such a bound, as in
//! `x <= 18446744073709551615`, keeps its meaning for 64-bit values).
//!
//! `b >>> ACCEPT ? x IN .. NI` may leave out the sort of `x` (it is the sort the left side
//! exits with): the [`ast::VarDecl`]'s sort then has an empty name.
//!
//! # Errors
//!
//! Every error is a [`Diagnostic`] `ioco::txs::parse::*` that says what was expected and what
//! was found. After an error the parser skips to the next definition keyword (`TYPEDEF`,
//! `PROCDEF`, ...), so one run reports the errors of several definitions (at most 50).
//! Nesting deeper than [`MAX_DEPTH`] levels (each parenthesis, `LET`, `IF`, `HIDE`, prefix
//! operator or operand term is a level) and chains longer than [`MAX_CHAIN`] links
//! (`a >-> b >-> ..`, `x + y + ..`, read in a loop) are errors, never a stack overflow.

use crate::ast::{self, *};
use crate::lexer::{self, Tok, Token};
use ioco_lang::kit::{Cursor, Failed, Grammar, PResult};
use ioco_lang::{Diagnostic, Span};

/// How deeply expressions may nest (parentheses, `LET`, `IF`, `HIDE`, operators' operands).
pub const MAX_DEPTH: usize = 256;

/// How long chains may be: actions in a row (`a >-> b >-> ..`, `[[c]] =>> ..`) and operands
/// of infix operator chains (`a + b + ..`, `b1 ||| b2 ||| ..`, `b1 >>> b2 >>> ..`), counting
/// the links of the chains a chain is nested in. They are read in a loop, but make trees as
/// deep as they are long: with [`MAX_DEPTH`], this bounds the depth of every tree.
pub const MAX_CHAIN: usize = 4096;

/// At most this many errors are reported.
const MAX_ERRORS: usize = 50;

/// Parses the text of file `file`; every error found (the parser recovers at the next
/// definition keyword) comes back with the tree of what could be read.
pub fn parse(file: u32, src: &str) -> (ast::File, Vec<Diagnostic>) {
    let (toks, diags) = lexer::lex(file, src);
    let mut p = Parser {
        c: Cursor::new(file, src, toks, diags),
        links: 0,
    };
    let defs = p.file();
    p.c.diags.truncate(MAX_ERRORS);
    (File { defs }, p.c.diags)
}

/// The parser: the kit's cursor (tokens, diagnostics, the nesting depth of [`MAX_DEPTH`]) and
/// the links of the chains being read. An error unwinds (with the kit's [`Failed`]) to the
/// definition level.
struct Parser<'s> {
    c: Cursor<'s, Tok>,
    /// Links of the chains being read (see [`MAX_CHAIN`]).
    links: usize,
}

ioco_lang::cursor_deref!(Parser, Tok);

/// What a definition keyword starts, for messages.
const DEF_KEYWORDS: &str =
    "TYPEDEF, FUNCDEF, CONSTDEF, PROCDEF, STAUTDEF, CHANDEF, MODELDEF, PURPDEF, MAPPERDEF or CNECTDEF";

impl<'s> Grammar<'s, Tok> for Parser<'s> {
    const EXPECTED: &'static str = "ioco::txs::parse::expected";
    const MAX_DEPTH: usize = MAX_DEPTH;

    /// How a token is shown in a message: its text for names, keywords and operators, else
    /// its kind; nothing for a bad character (the lexer has reported it).
    fn found(&self, t: Token) -> Option<String> {
        Some(match t.kind {
            Tok::Error => return None,
            Tok::Eof => "the end of the file".to_string(),
            Tok::Str | Tok::UnclosedStr => "a string".to_string(),
            Tok::Int => format!("the integer `{}`", self.text(t.span)),
            Tok::CapId | Tok::SmallId => format!("the name `{}`", self.text(t.span)),
            k if k.is_keyword() => format!("the keyword `{}`", self.text(t.span)),
            _ => format!("`{}`", self.text(t.span)),
        })
    }

    /// Common slips get their own hint.
    fn hint(&self, what: &str, help: Option<&str>) -> Option<String> {
        let slip = match (self.peek(), self.peek_at(1)) {
            (Tok::LBracket, Tok::RBracket) => {
                Some("choice is written `##` in TorXakis (`[]` is not an operator)")
            }
            (Tok::Sync, _) if ["`]]`", "`)`", "`THEN`", "`ENDDEF`"].contains(&what) => {
                Some("in a value expression, `or` is written `\\/` (and `and` is `/\\`)")
            }
            _ => None,
        };
        slip.or(help).map(str::to_string)
    }

    fn too_deep(&mut self) -> Failed {
        let sp = self.span();
        self.report(
            Diagnostic::error(
                "ioco::txs::parse::too_deep",
                format!("expressions nest more than {MAX_DEPTH} levels deep"),
                sp,
                "too deeply nested",
            )
            .help("split the expression with FUNCDEF or PROCDEF definitions"),
        );
        Failed
    }
}

impl<'s> Parser<'s> {
    // ----- names and sorts -----------------------------------------------------------------

    /// A name (capitalised or not).
    fn id(&mut self, what: &str) -> PResult<Ident> {
        match self.peek() {
            Tok::CapId | Tok::SmallId => {
                let t = self.bump();
                Ok(self.ident_of(t))
            }
            k if k.is_keyword() => {
                let help = format!(
                    "`{}` is a keyword of TorXakis and cannot be used as a name",
                    self.text(self.span())
                );
                self.expected(what, Some(&help))
            }
            _ => self.expected(what, None),
        }
    }

    /// A sort: a capitalised name.
    fn sort(&mut self) -> PResult<Sort> {
        match self.peek() {
            Tok::CapId => {
                let t = self.bump();
                Ok(self.ident_of(t))
            }
            Tok::SmallId => self.expected(
                "a sort",
                Some("sorts are capitalised: `Int`, `Bool`, `String` or a TYPEDEF name"),
            ),
            _ => self.expected("a sort (`Int`, `Bool`, `String`, a TYPEDEF name)", None),
        }
    }

    /// `Sort # Sort # ..`
    fn sorts(&mut self) -> PResult<Vec<Sort>> {
        self.sep_by1(Tok::Sharp, Self::sort)
    }

    /// `:: Sort`
    fn of_sort(&mut self) -> PResult<Sort> {
        self.expect(Tok::SortOf, None)?;
        self.sort()
    }

    /// Counts one more link of a chain (`what`: how the chain is described) in `n` and in
    /// [`Parser::links`] (the links of all the chains being read, which bounds the tree's depth).
    fn link(&mut self, n: &mut usize, what: &str) -> PResult<()> {
        *n += 1;
        self.links += 1;
        if self.links > MAX_CHAIN {
            let sp = self.span();
            self.report(
                Diagnostic::error(
                    "ioco::txs::parse::too_long",
                    format!("more than {MAX_CHAIN} {what} in a row"),
                    sp,
                    "chain too long",
                )
                .help("split it with PROCDEF or FUNCDEF definitions (the chains it is nested in count too)"),
            );
            return Err(Failed);
        }
        Ok(())
    }

    // ----- definitions ---------------------------------------------------------------------

    fn file(&mut self) -> Vec<Def> {
        let mut defs = Vec::new();
        while self.peek() != Tok::Eof {
            if self.diags.len() >= MAX_ERRORS {
                break;
            }
            let start = self.pos;
            self.depth = 0;
            self.links = 0;
            let res = self.def(&mut defs);
            if res.is_err() {
                // Resynchronise at the next definition keyword.
                if self.pos == start {
                    self.bump();
                }
                self.skip_until(None, |c| c.peek().starts_def());
            }
        }
        defs
    }

    fn def(&mut self, defs: &mut Vec<Def>) -> PResult<()> {
        let kw = self.span();
        match self.peek() {
            Tok::TypeDef => {
                self.bump();
                for t in self.def_list(kw, "TYPEDEF", Self::type_def, |d| &mut d.span)? {
                    defs.push(Def::Type(t));
                }
            }
            Tok::FuncDef => {
                self.bump();
                for f in self.def_list(kw, "FUNCDEF", Self::func_def, |d| &mut d.span)? {
                    defs.push(Def::Func(f));
                }
            }
            Tok::ConstDef => {
                self.bump();
                let items = self.sep_by1(Tok::Semi, |p| {
                    let name = p.id("a constant name")?;
                    let sort = p.of_sort()?;
                    p.expect(Tok::IsDef, None)?;
                    let value = p.vexpr()?;
                    Ok(ConstDef { name, sort, value })
                })?;
                self.end_def("CONSTDEF")?;
                defs.push(Def::Const(items));
            }
            Tok::ProcDef => {
                self.bump();
                for p in self.def_list(kw, "PROCDEF", Self::proc_def, |d| &mut d.span)? {
                    defs.push(Def::Proc(p));
                }
            }
            Tok::StautDef => {
                self.bump();
                let s = self.staut_def(kw)?;
                defs.push(Def::StAut(s));
            }
            Tok::ChanDef => {
                self.bump();
                let name = self.id("a name for the channel definition")?;
                self.expect(Tok::IsDef, None)?;
                let chans = self.chan_decls(&[Tok::EndDef])?;
                self.end_def("CHANDEF")?;
                defs.push(Def::Chan(ChanDef { name, chans }));
            }
            Tok::ModelDef | Tok::MapperDef => {
                let mapper = self.bump().kind == Tok::MapperDef;
                let m = self.model_def(kw, if mapper { "MAPPERDEF" } else { "MODELDEF" })?;
                defs.push(if mapper {
                    Def::Mapper(m)
                } else {
                    Def::Model(m)
                });
            }
            Tok::PurpDef => {
                self.bump();
                let p = self.purp_def(kw)?;
                defs.push(Def::Purp(p));
            }
            Tok::CnectDef => {
                self.bump();
                let c = self.cnect_def(kw)?;
                defs.push(Def::Cnect(c));
            }
            _ => {
                return self.expected(
                    "a definition",
                    Some(&format!(
                    "a .txs file is a list of definitions: {DEF_KEYWORDS}, each ending in ENDDEF"
                )),
                )
            }
        }
        Ok(())
    }

    /// `ENDDEF` (closing the definition opened by `kw`); its span.
    /// `KW a; b; c ENDDEF` (several definitions of one kind after one keyword): each read by
    /// `item` from where it starts (the first from the keyword `kw`, the next ones from their
    /// names); a single one spans from the keyword to `ENDDEF`.
    fn def_list<T>(
        &mut self,
        kw: Span,
        what: &str,
        item: fn(&mut Self, Span) -> PResult<T>,
        span_of: fn(&mut T) -> &mut Span,
    ) -> PResult<Vec<T>> {
        let mut first = true;
        let mut items = self.sep_by1(Tok::Semi, |p| {
            let start = if first { kw } else { p.span() };
            first = false;
            item(p, start)
        })?;
        let end = self.end_def(what)?;
        if let [one] = items.as_mut_slice() {
            *span_of(one) = kw.to(end);
        }
        Ok(items)
    }

    /// The socket channel an `ENCODE`/`DECODE` names, if it names one.
    fn opt_chan(&mut self) -> PResult<Option<Ident>> {
        Ok(if matches!(self.peek(), Tok::CapId | Tok::SmallId) {
            Some(self.id("a channel name")?)
        } else {
            None
        })
    }

    fn end_def(&mut self, kw: &str) -> PResult<Span> {
        if self.peek() == Tok::EndDef {
            return Ok(self.bump().span);
        }
        let help = if self.peek().starts_def() {
            format!("every {kw} ends in ENDDEF")
        } else if matches!(self.peek(), Tok::CapId | Tok::SmallId) {
            format!("the {kw} should end here with ENDDEF; or is a `;` missing before this?")
        } else {
            format!("the {kw} should end here with ENDDEF")
        };
        self.expected("`ENDDEF`", Some(&help))
    }

    fn type_def(&mut self, kw: Span) -> PResult<TypeDef> {
        let name = self.id("a type name")?;
        self.expect(Tok::IsDef, None)?;
        let mut ctors = Vec::new();
        if matches!(self.peek(), Tok::CapId) {
            ctors = self.sep_by1(Tok::Bar, |p| {
                let name = p.id("a constructor name")?;
                let mut fields = Vec::new();
                if p.eat(Tok::LBrace) && !p.eat(Tok::RBrace) {
                    fields = p.var_decl_groups()?;
                    p.expect(
                        Tok::RBrace,
                        Some("fields are written `{ a, b :: Int; c :: Bool }`"),
                    )?;
                }
                Ok(CtorDecl { name, fields })
            })?;
        } else if !matches!(self.peek(), Tok::EndDef | Tok::Semi) {
            return self.expected("a constructor name", Some("constructors are capitalised"));
        }
        let end = self.prev_span();
        Ok(TypeDef {
            name,
            ctors,
            span: kw.to(end),
        })
    }

    /// `a, b :: Sort; c :: Sort` split into one declaration per name.
    fn var_decl_groups(&mut self) -> PResult<Vec<VarDecl>> {
        let groups = self.sep_by1(Tok::Semi, Self::var_decls)?;
        Ok(groups.into_iter().flatten().collect())
    }

    /// `a, b :: Sort` split into one declaration per name.
    fn var_decls(&mut self) -> PResult<Vec<VarDecl>> {
        let names = self.sep_by1(Tok::Comma, |p| p.id("a variable name"))?;
        let sort = self.of_sort()?;
        Ok(names
            .into_iter()
            .map(|name| VarDecl {
                name,
                sort: sort.clone(),
            })
            .collect())
    }

    /// `( x, y :: Int; z :: Bool )` (may be empty: `()`).
    fn formal_vars(&mut self) -> PResult<Vec<VarDecl>> {
        self.expect(
            Tok::LParen,
            Some("the parameters are written `(x, y :: Int; z :: Bool)`, or `()` for none"),
        )?;
        let mut vars = Vec::new();
        if !self.eat(Tok::RParen) {
            vars = self.var_decl_groups()?;
            self.expect(Tok::RParen, Some("parameters are separated by `;`"))?;
        }
        Ok(vars)
    }

    /// `A, B :: Int # Bool; C` until one of `end` (not consumed); may be empty.
    fn chan_decls(&mut self, end: &[Tok]) -> PResult<Vec<ChanDecl>> {
        if end.contains(&self.peek()) {
            return Ok(Vec::new());
        }
        let groups = self.sep_by1(Tok::Semi, |p| {
            let names = p.sep_by1(Tok::Comma, |p| p.id("a channel name"))?;
            let mut sorts = Vec::new();
            if p.eat(Tok::SortOf) {
                sorts = p.sorts()?;
            }
            Ok(names.into_iter().map(move |name| ChanDecl {
                name,
                sorts: sorts.clone(),
            }))
        })?;
        Ok(groups.into_iter().flatten().collect())
    }

    /// `[ A :: Int; B ]` (may be empty: `[]`).
    fn formal_chans(&mut self) -> PResult<Vec<ChanDecl>> {
        self.expect(
            Tok::LBracket,
            Some("the channel parameters are written `[A :: Int; B]`, or `[]` for none"),
        )?;
        let chans = self.chan_decls(&[Tok::RBracket])?;
        self.expect(
            Tok::RBracket,
            Some("channel declarations are separated by `;`"),
        )?;
        Ok(chans)
    }

    /// `EXIT Int # Bool`, `HIT`, `NOEXIT` or nothing.
    fn exit_kind(&mut self) -> PResult<ExitKind> {
        match self.peek() {
            Tok::Exit => {
                self.bump();
                let mut sorts = Vec::new();
                if self.peek() == Tok::CapId {
                    sorts = self.sorts()?;
                }
                Ok(ExitKind::Exit(sorts))
            }
            Tok::Hit => {
                self.bump();
                Ok(ExitKind::Hit)
            }
            Tok::NoExit => {
                self.bump();
                Ok(ExitKind::NoExit)
            }
            _ => Ok(ExitKind::NoExit),
        }
    }

    fn func_def(&mut self, kw: Span) -> PResult<FuncDef> {
        let name = if self.peek() == Tok::Op {
            let t = self.bump();
            self.ident_of(t)
        } else {
            self.id("a function name (or an operator)")?
        };
        let params = self.formal_vars()?;
        self.expect(
            Tok::SortOf,
            Some("a function declares its result sort: `FUNCDEF f (x :: Int) :: Int ::= ..`"),
        )?;
        let ret = self.sort()?;
        self.expect(Tok::IsDef, None)?;
        let body = self.vexpr()?;
        Ok(FuncDef {
            name,
            params,
            ret,
            span: kw.to(body.span),
            body,
        })
    }

    fn proc_def(&mut self, kw: Span) -> PResult<ProcDef> {
        let name = self.id("a process name")?;
        let gates = self.formal_chans()?;
        let params = self.formal_vars()?;
        let exit = self.exit_kind()?;
        self.expect(
            Tok::IsDef,
            Some(
                "a process is written `PROCDEF p [G :: Int] (x :: Int) EXIT ::= behaviour ENDDEF`",
            ),
        )?;
        let body = self.bexpr()?;
        Ok(ProcDef {
            name,
            gates,
            params,
            exit,
            span: kw.to(body.span),
            body,
        })
    }

    fn staut_def(&mut self, kw: Span) -> PResult<StAutDef> {
        let name = self.id("a name for the state automaton")?;
        let gates = self.formal_chans()?;
        let params = self.formal_vars()?;
        let exit = self.exit_kind()?;
        self.expect(Tok::IsDef, None)?;
        let mut states = Vec::new();
        let mut vars = Vec::new();
        let mut init: Option<Ident> = None;
        let mut init_values = Vec::new();
        let mut trans = Vec::new();
        loop {
            match self.peek() {
                Tok::State => {
                    self.bump();
                    states.extend(self.sep_by1(Tok::Comma, |p| p.id("a state name"))?);
                }
                Tok::Var => {
                    self.bump();
                    if matches!(self.peek(), Tok::SmallId | Tok::CapId) {
                        vars.extend(self.var_decl_groups()?);
                    }
                }
                Tok::Init => {
                    self.bump();
                    init = Some(self.id("the initial state")?);
                    init_values.extend(self.updates()?);
                }
                Tok::Trans => {
                    self.bump();
                    loop {
                        match (self.peek(), self.peek_at(1)) {
                            (Tok::SmallId | Tok::CapId, Tok::Arrow) => {
                                trans.push(self.transition()?);
                            }
                            (Tok::Semi, _) if !trans.is_empty() => {
                                self.bump();
                            }
                            _ => break,
                        }
                    }
                }
                Tok::EndDef => break,
                _ => return self.expected(
                    "`STATE`, `VAR`, `INIT`, `TRANS` or `ENDDEF`",
                    Some("a transition is written `from -> Gate ? x [[ guard ]] { v := e } -> to`"),
                ),
            }
        }
        let end = self.end_def("STAUTDEF")?;
        let init = match init {
            Some(i) => i,
            None => {
                self.report(
                    Diagnostic::error(
                        "ioco::txs::parse::no_init",
                        format!("the state automaton `{}` has no INIT", name.name),
                        name.span,
                        "no `INIT` state",
                    )
                    .help("add `INIT s0 { x := 0 }` naming the initial state"),
                );
                return Err(Failed);
            }
        };
        Ok(StAutDef {
            name,
            gates,
            params,
            exit,
            states,
            vars,
            init,
            init_values,
            trans,
            span: kw.to(end),
        })
    }

    /// `{ x, y := e; z := f }`, `{ }` or nothing.
    fn updates(&mut self) -> PResult<Vec<(Ident, VExpr)>> {
        if !self.eat(Tok::LBrace) || self.eat(Tok::RBrace) {
            return Ok(Vec::new());
        }
        let groups = self.sep_by1(Tok::Semi, |p| {
            let names = p.sep_by1(Tok::Comma, |p| p.id("a variable name"))?;
            p.expect(
                Tok::Assign,
                Some("an update is written `{ x := e; y := f }`"),
            )?;
            let e = p.vexpr()?;
            Ok(names.into_iter().map(move |n| (n, e.clone())))
        })?;
        self.expect(Tok::RBrace, Some("updates are separated by `;`"))?;
        Ok(groups.into_iter().flatten().collect())
    }

    /// `s -> offers [[c]] {upd} -> t`
    fn transition(&mut self) -> PResult<Trans> {
        let start = self.span();
        let from = self.id("a state name")?;
        self.expect(Tok::Arrow, None)?;
        let (offers, guard) = self.action()?;
        let updates = self.updates()?;
        self.expect(
            Tok::Arrow,
            Some("a transition is written `from -> Gate ? x [[ guard ]] { v := e } -> to`"),
        )?;
        let to = self.id("the target state")?;
        Ok(Trans {
            from,
            offers,
            guard,
            updates,
            span: start.to(to.span),
            to,
        })
    }

    /// `A, B` (comma list of names, possibly empty) up to a token that cannot continue it.
    fn id_list(&mut self) -> PResult<Vec<Ident>> {
        if !matches!(self.peek(), Tok::CapId | Tok::SmallId) {
            return Ok(Vec::new());
        }
        self.sep_by1(Tok::Comma, |p| p.id("a channel name"))
    }

    /// `CHAN IN ids CHAN OUT ids [SYNC {A | B}, {C}]`
    #[allow(clippy::type_complexity)]
    fn chan_in_out(&mut self) -> PResult<(Vec<Ident>, Vec<Ident>, Option<Vec<Vec<Ident>>>)> {
        let help =
            Some("the channels are declared `CHAN IN A, B  CHAN OUT C` (lists may be empty)");
        self.expect(Tok::Chan, help)?;
        self.expect(Tok::In, help)?;
        let chan_in = self.id_list()?;
        self.expect(Tok::Chan, help)?;
        self.expect(Tok::Out, help)?;
        let chan_out = self.id_list()?;
        let sync = if self.eat(Tok::SyncKw) {
            let sets = self.sep_by1(Tok::Comma, |p| {
                p.expect(
                    Tok::LBrace,
                    Some("synchronised channels are written `SYNC {A | B}, {C}`"),
                )?;
                p.closed_list(
                    Tok::RBrace,
                    Tok::Bar,
                    Some("channels of one set are separated by `|`"),
                    |p| p.id("a channel name"),
                )
            })?;
            Some(sets)
        } else {
            None
        };
        Ok((chan_in, chan_out, sync))
    }

    fn model_def(&mut self, kw: Span, what: &str) -> PResult<ModelDef> {
        let name = self.id("a model name")?;
        self.expect(Tok::IsDef, None)?;
        let (chan_in, chan_out, sync) = self.chan_in_out()?;
        self.expect(Tok::Behaviour, None)?;
        let behaviour = self.bexpr()?;
        let end = self.end_def(what)?;
        Ok(ModelDef {
            name,
            chan_in,
            chan_out,
            sync,
            behaviour,
            span: kw.to(end),
        })
    }

    fn purp_def(&mut self, kw: Span) -> PResult<PurpDef> {
        let name = self.id("a test purpose name")?;
        self.expect(Tok::IsDef, None)?;
        let (chan_in, chan_out, sync) = self.chan_in_out()?;
        let mut goals = Vec::new();
        while self.eat(Tok::Goal) {
            let g = self.id("a goal name")?;
            self.expect(
                Tok::IsDef,
                Some("a goal is written `GOAL name ::= behaviour`"),
            )?;
            let b = self.bexpr()?;
            goals.push((g, b));
        }
        let end = self.end_def("PURPDEF")?;
        Ok(PurpDef {
            name,
            chan_in,
            chan_out,
            sync,
            goals,
            span: kw.to(end),
        })
    }

    fn cnect_def(&mut self, kw: Span) -> PResult<CnectDef> {
        let name = self.id("a connection name")?;
        self.expect(Tok::IsDef, None)?;
        let kind =
            match self.peek() {
                Tok::ClientSock => CnectKind::Client,
                Tok::ServerSock => CnectKind::Server,
                _ => return self.expected(
                    "`CLIENTSOCK` or `SERVERSOCK`",
                    Some("CLIENTSOCK: TorXakis connects to the SUT; SERVERSOCK: TorXakis listens"),
                ),
            };
        self.bump();
        let mut chans = Vec::new();
        let mut encodes = Vec::new();
        let mut decodes = Vec::new();
        loop {
            let start = self.span();
            match self.peek() {
                Tok::Chan => {
                    self.bump();
                    let dir = match self.peek() {
                        Tok::In => CnectDir::In,
                        Tok::Out => CnectDir::Out,
                        _ => return self.expected("`IN` or `OUT`", None),
                    };
                    self.bump();
                    let names = self.id_list()?;
                    if names.is_empty() {
                        return self.expected("a channel name", None);
                    }
                    self.expect(
                        Tok::Host,
                        Some("a socket is written `CHAN OUT A HOST \"localhost\" PORT 7890`"),
                    )?;
                    let h = self.expect(Tok::Str, None)?;
                    let host = lexer::unescape(self.text(h.span)).0;
                    self.expect(Tok::Port, None)?;
                    let p = self.expect(Tok::Int, None)?;
                    let port = match self.text(p.span).parse::<u16>() {
                        Ok(n) => n,
                        Err(_) => {
                            self.report(
                                Diagnostic::error(
                                    "ioco::txs::parse::port",
                                    format!("port `{}` is out of range", self.text(p.span)),
                                    p.span,
                                    "not a port number",
                                )
                                .help("ports go from 0 to 65535"),
                            );
                            return Err(Failed);
                        }
                    };
                    for chan in names {
                        chans.push(CnectChan {
                            dir,
                            chan,
                            host: host.clone(),
                            port,
                            span: start.to(p.span),
                        });
                    }
                }
                Tok::Encode => {
                    self.bump();
                    let offer = self.offer()?;
                    self.expect(
                        Tok::Arrow,
                        Some("an encoding is written `ENCODE A ? x -> ! toString(x)`"),
                    )?;
                    let chan = self.opt_chan()?;
                    self.expect(
                        Tok::Bang,
                        Some("an encoding is written `ENCODE A ? x -> ! toString(x)`"),
                    )?;
                    let value = self.vexpr()?;
                    encodes.push(Encode {
                        offer,
                        chan,
                        span: start.to(value.span),
                        value,
                    });
                }
                Tok::Decode => {
                    self.bump();
                    let offer = self.offer()?;
                    self.expect(
                        Tok::BArrow,
                        Some("a decoding is written `DECODE A ! fromString(s) <- ? s`"),
                    )?;
                    let chan = self.opt_chan()?;
                    self.expect(
                        Tok::Question,
                        Some("a decoding is written `DECODE A ! fromString(s) <- ? s`"),
                    )?;
                    let var = self.id("a variable name")?;
                    if self.eat(Tok::SortOf) {
                        self.sort()?;
                    }
                    decodes.push(Decode {
                        offer,
                        chan,
                        span: start.to(var.span),
                        var,
                    });
                }
                Tok::EndDef => break,
                _ => return self.expected("`CHAN`, `ENCODE`, `DECODE` or `ENDDEF`", None),
            }
        }
        let end = self.end_def("CNECTDEF")?;
        Ok(CnectDef {
            name,
            kind,
            chans,
            encodes,
            decodes,
            span: kw.to(end),
        })
    }

    // ----- behaviour expressions -----------------------------------------------------------

    /// Level 1: `>>>` (with `ACCEPT`), `[>>`, `[><`.
    fn bexpr(&mut self) -> PResult<BExpr> {
        let mut left = self.bpar()?;
        let mut n = 0;
        loop {
            if matches!(self.peek(), Tok::Enable | Tok::Disable | Tok::Interrupt) {
                self.link(&mut n, "`>>>`, `[>>` or `[><` operators")?;
            }
            match self.peek() {
                Tok::Enable => {
                    self.bump();
                    let mut accept = Vec::new();
                    let right = if self.eat(Tok::Accept) {
                        while self.eat(Tok::Question) {
                            let name = self.id("a variable name")?;
                            // Without a sort, the sort's name is empty: it is the sort the
                            // left side exits with (see `ast::BKind::Enable`).
                            let sort = if self.eat(Tok::SortOf) {
                                self.sort()?
                            } else {
                                Ident {
                                    name: String::new(),
                                    span: Span::new(
                                        self.file,
                                        name.span.end as usize,
                                        name.span.end as usize,
                                    ),
                                }
                            };
                            accept.push(VarDecl { name, sort });
                        }
                        if accept.is_empty() {
                            return self.expected(
                                "`?`",
                                Some(
                                    "the values accepted are declared `ACCEPT ? x :: Int IN .. NI`",
                                ),
                            );
                        }
                        self.expect(
                            Tok::In,
                            Some("an enabling with values is `b >>> ACCEPT ? x :: Int IN b NI`"),
                        )?;
                        let r = self.bexpr()?;
                        let ni = self.expect(Tok::Ni, Some("`ACCEPT .. IN ..` ends with `NI`"))?;
                        BExpr {
                            span: r.span.to(ni.span),
                            ..r
                        }
                    } else {
                        self.bpar()?
                    };
                    left = BExpr {
                        span: left.span.to(right.span),
                        kind: BKind::Enable {
                            left: Box::new(left),
                            accept,
                            right: Box::new(right),
                        },
                    };
                }
                Tok::Disable | Tok::Interrupt => {
                    let dis = self.bump().kind == Tok::Disable;
                    let right = self.bpar()?;
                    let span = left.span.to(right.span);
                    let (l, r) = (Box::new(left), Box::new(right));
                    left = BExpr {
                        span,
                        kind: if dis {
                            BKind::Disable(l, r)
                        } else {
                            BKind::Interrupt(l, r)
                        },
                    };
                }
                _ => {
                    self.links -= n;
                    return Ok(left);
                }
            }
        }
    }

    /// Level 2: `||`, `|||`, `|[ G ]|`.
    fn bpar(&mut self) -> PResult<BExpr> {
        let mut left = self.bchoice()?;
        let mut n = 0;
        loop {
            if matches!(self.peek(), Tok::Sync | Tok::Interleave | Tok::LComm) {
                self.link(&mut n, "parallel operators")?;
            }
            let op = match self.peek() {
                Tok::Sync => {
                    self.bump();
                    ParOp::Full
                }
                Tok::Interleave => {
                    self.bump();
                    ParOp::Interleave
                }
                Tok::LComm => {
                    self.bump();
                    let gates = self.id_list()?;
                    self.expect(
                        Tok::RComm,
                        Some("synchronisation is written `b1 |[ A, B ]| b2`"),
                    )?;
                    ParOp::Gates(gates)
                }
                _ => {
                    self.links -= n;
                    return Ok(left);
                }
            };
            let right = self.bchoice()?;
            left = BExpr {
                span: left.span.to(right.span),
                kind: BKind::Par(op, Box::new(left), Box::new(right)),
            };
        }
    }

    /// Level 3: `##`.
    fn bchoice(&mut self) -> PResult<BExpr> {
        let first = self.bterm()?;
        if self.peek() != Tok::Choice {
            return Ok(first);
        }
        self.bump();
        let mut alts = vec![first];
        alts.extend(self.sep_by1(Tok::Choice, Self::bterm)?);
        let span = alts[0].span.to(alts[alts.len() - 1].span);
        Ok(BExpr {
            kind: BKind::Choice(alts),
            span,
        })
    }

    /// Level 4: prefixes and guards (a chain is read in a loop), and the closed forms.
    fn bterm(&mut self) -> PResult<BExpr> {
        self.nested(Self::bterm_inner)
    }

    fn bterm_inner(&mut self) -> PResult<BExpr> {
        // The chain `a >-> [[c]] =>> b >-> .. last`, folded from the right at the end.
        enum Link {
            Prefix(Span, Vec<Offer>, Option<VExpr>),
            Guard(Span, VExpr),
        }
        let mut chain = Vec::new();
        let mut n = 0;
        let last = loop {
            self.link(&mut n, "actions and guards")?;
            let start = self.span();
            match self.peek() {
                Tok::OpenPred => {
                    self.bump();
                    let c = self.constraint()?;
                    self.expect(Tok::ClosePred, None)?;
                    self.expect(
                        Tok::GuardArrow,
                        Some("a guarded behaviour is written `[[ condition ]] =>> behaviour`"),
                    )?;
                    chain.push(Link::Guard(start, c));
                }
                Tok::Stop => {
                    self.bump();
                    break BExpr {
                        kind: BKind::Stop,
                        span: start,
                    };
                }
                Tok::LParen => {
                    self.bump();
                    let b = self.bexpr()?;
                    let close = self.expect(Tok::RParen, None)?;
                    break BExpr {
                        span: start.to(close.span),
                        ..b
                    };
                }
                Tok::Let => {
                    self.bump();
                    let binds = self.let_binds()?;
                    self.expect(Tok::In, Some("`LET x = e IN behaviour NI`"))?;
                    let b = self.bexpr()?;
                    let ni = self.expect(Tok::Ni, Some("`LET .. IN ..` ends with `NI`"))?;
                    break BExpr {
                        kind: BKind::Let(binds, Box::new(b)),
                        span: start.to(ni.span),
                    };
                }
                Tok::Hide => {
                    self.bump();
                    let chans = self.formal_chans()?;
                    self.expect(Tok::In, Some("`HIDE [ H :: Int ] IN behaviour NI`"))?;
                    let b = self.bexpr()?;
                    let ni = self.expect(Tok::Ni, Some("`HIDE .. IN ..` ends with `NI`"))?;
                    break BExpr {
                        kind: BKind::Hide(chans, Box::new(b)),
                        span: start.to(ni.span),
                    };
                }
                Tok::CapId | Tok::SmallId if self.peek_at(1) == Tok::LBracket => {
                    break self.inst()?;
                }
                Tok::CapId | Tok::SmallId if self.peek_at(1) == Tok::LParen => {
                    let t = self.bump();
                    let name = self.text(t.span).to_string();
                    return self.expected(
                        "`[`",
                        Some(&format!(
                            "a process instantiation lists its channels, even none: `{name} [] (..)`"
                        )),
                    );
                }
                Tok::CapId
                | Tok::SmallId
                | Tok::Exit
                | Tok::IStep
                | Tok::QStep
                | Tok::HStep
                | Tok::Hit
                | Tok::Miss
                | Tok::LBrace => {
                    let (offers, guard) = self.action()?;
                    if self.eat(Tok::Prefix) {
                        chain.push(Link::Prefix(start, offers, guard));
                        continue;
                    }
                    break self.action_alone(start, offers, guard);
                }
                _ => {
                    return self.expected(
                        "a behaviour",
                        Some("a behaviour starts with an action (`A ? x`), `STOP`, `EXIT`, `[[ guard ]] =>>`, `LET`, `HIDE`, `(` or a process `p [..] (..)`"),
                    )
                }
            }
        };
        self.links -= n;
        let mut b = last;
        while let Some(link) = chain.pop() {
            b = match link {
                Link::Prefix(start, offers, guard) => BExpr {
                    span: start.to(b.span),
                    kind: BKind::Prefix {
                        offers,
                        guard,
                        then: Box::new(b),
                    },
                },
                Link::Guard(start, c) => BExpr {
                    span: start.to(b.span),
                    kind: BKind::Guard(c, Box::new(b)),
                },
            };
        }
        Ok(b)
    }

    /// An action without `>->`: `EXIT ..`, `HIT`, `MISS` alone become their own kinds, the
    /// rest is followed by `STOP`.
    fn action_alone(&mut self, start: Span, offers: Vec<Offer>, guard: Option<VExpr>) -> BExpr {
        let span = start.to(self.prev_span());
        if let ([o], None) = (&offers[..], &guard) {
            let kind = match o.gate.name.as_str() {
                "HIT" if o.items.is_empty() => Some(BKind::Hit),
                "MISS" if o.items.is_empty() => Some(BKind::Miss),
                // `EXIT ? x` without a sort stays an action on the gate `EXIT`.
                "EXIT" => o
                    .items
                    .iter()
                    .map(|i| match i {
                        OfferItem::Send(e) => Some(ExitItem::Send(e.clone())),
                        OfferItem::Recv(x, Some(s)) => Some(ExitItem::Recv(x.clone(), s.clone())),
                        OfferItem::Recv(_, None) => None,
                    })
                    .collect::<Option<Vec<_>>>()
                    .map(BKind::Exit),
                _ => None,
            };
            if let Some(kind) = kind {
                return BExpr { kind, span };
            }
        }
        BExpr {
            kind: BKind::Prefix {
                offers,
                guard,
                then: Box::new(BExpr {
                    kind: BKind::Stop,
                    span: Span::new(self.file, span.end as usize, span.end as usize),
                }),
            },
            span,
        }
    }

    /// `p [G, H] (e, f)`
    fn inst(&mut self) -> PResult<BExpr> {
        let name = self.id("a process name")?;
        self.expect(Tok::LBracket, None)?;
        let gates = self.id_list()?;
        self.expect(Tok::RBracket, Some("the channels are separated by `,`"))?;
        self.expect(
            Tok::LParen,
            Some(&format!(
                "a process instantiation lists its arguments, even none: `{} [..] ()`",
                name.name
            )),
        )?;
        let args = self.args()?;
        let span = name.span.to(self.prev_span());
        Ok(BExpr {
            kind: BKind::Inst { name, gates, args },
            span,
        })
    }

    /// `e, f)`: the arguments after `(`.
    fn args(&mut self) -> PResult<Vec<VExpr>> {
        self.closed_list(
            Tok::RParen,
            Tok::Comma,
            Some("the arguments are separated by `,`"),
            Self::vexpr,
        )
    }

    /// A multi-action `A ? x | B ! e` (or `{ .. }`) and its constraint `[[ c ]]`.
    fn action(&mut self) -> PResult<(Vec<Offer>, Option<VExpr>)> {
        let braced = self.eat(Tok::LBrace);
        let offers = self.sep_by1(Tok::Bar, Self::offer)?;
        if braced {
            self.expect(
                Tok::RBrace,
                Some("the offers of a multi-action are separated by `|`"),
            )?;
        }
        let guard = if self.eat(Tok::OpenPred) {
            let c = self.constraint()?;
            self.expect(Tok::ClosePred, None)?;
            Some(c)
        } else {
            None
        };
        Ok((offers, guard))
    }

    /// `G ? x :: Int ! e` (`ISTEP`, `QSTEP`, `HSTEP`, `HIT`, `MISS`, `EXIT` as the gate).
    fn offer(&mut self) -> PResult<Offer> {
        let gate = match self.peek() {
            Tok::CapId
            | Tok::SmallId
            | Tok::Exit
            | Tok::IStep
            | Tok::QStep
            | Tok::HStep
            | Tok::Hit
            | Tok::Miss => {
                let t = self.bump();
                self.ident_of(t)
            }
            _ => {
                return self.expected(
                    "a channel name",
                    Some("an action is written `Gate ? x :: Int ! e`"),
                )
            }
        };
        let simple = matches!(
            gate.name.as_str(),
            "ISTEP" | "QSTEP" | "HSTEP" | "HIT" | "MISS"
        );
        let mut items = Vec::new();
        if !simple {
            loop {
                if self.eat(Tok::Question) {
                    let x = self.id("a variable name")?;
                    let s = if self.eat(Tok::SortOf) {
                        Some(self.sort()?)
                    } else {
                        None
                    };
                    items.push(OfferItem::Recv(x, s));
                } else if self.eat(Tok::Bang) {
                    items.push(OfferItem::Send(self.vexpr()?));
                } else {
                    break;
                }
            }
        }
        Ok(Offer { gate, items })
    }

    /// `x = e, y :: Int = f; z = g` (flattened).
    fn let_binds(&mut self) -> PResult<Vec<(Ident, Option<Sort>, VExpr)>> {
        let mut out = Vec::new();
        loop {
            let x = self.id("a variable name")?;
            let s = if self.eat(Tok::SortOf) {
                Some(self.sort()?)
            } else {
                None
            };
            self.expect(
                Tok::Equal,
                Some("a binding is written `x = e` or `x :: Int = e`"),
            )?;
            let e = self.vexpr()?;
            out.push((x, s, e));
            if !(self.eat(Tok::Comma) || self.eat(Tok::Semi)) {
                break;
            }
        }
        Ok(out)
    }

    // ----- value expressions ---------------------------------------------------------------

    /// `c1, c2, ..` (in `[[ ]]` and after `IF`): the conjunction `c1 /\ c2 /\ ..`, the comma
    /// read as the operator `/\`.
    fn constraint(&mut self) -> PResult<VExpr> {
        let mut c = self.vexpr()?;
        while self.peek() == Tok::Comma {
            let comma = self.bump();
            let right = self.vexpr()?;
            let op = Ident {
                name: "/\\".to_string(),
                span: comma.span,
            };
            c = VExpr {
                span: c.span.to(right.span),
                kind: VKind::Binary(op, Box::new(c), Box::new(right)),
            };
        }
        Ok(c)
    }

    /// Infix operators: one precedence level, left-associative. A chain that the usual
    /// precedences would read otherwise gets the warning `ioco::txs::parse::no_precedence`.
    fn vexpr(&mut self) -> PResult<VExpr> {
        let mut left = self.vunary()?;
        let mut n = 0;
        let mut operands = vec![left.span];
        let mut ops: Vec<String> = Vec::new();
        while self.peek() == Tok::Op {
            self.link(&mut n, "infix operators")?;
            let t = self.bump();
            let op = self.ident_of(t);
            ops.push(op.name.clone());
            let right = self.vunary()?;
            operands.push(right.span);
            left = VExpr {
                span: left.span.to(right.span),
                kind: VKind::Binary(op, Box::new(left), Box::new(right)),
            };
        }
        self.links -= n;
        if ops.len() >= 2 {
            self.precedence_warning(&operands, &ops, left.span);
        }
        Ok(left)
    }

    /// The warning for a chain of infix operators that the usual precedences (`*` over `+`
    /// over comparisons over `/\` over `\/` over `=>`) would group otherwise than TorXakis,
    /// which reads them left to right (TorXakis issue #268): both readings, to parenthesise.
    fn precedence_warning(&mut self, operands: &[Span], ops: &[String], sp: Span) {
        let Some(prec) = ops
            .iter()
            .map(|o| usual_precedence(o))
            .collect::<Option<Vec<u8>>>()
        else {
            return; // a user-defined operator: no usual precedence to compare with
        };
        // left to right is the usual reading while the precedences never rise
        let mut lowest = prec[0];
        let differs = prec[1..].iter().any(|&p| {
            let rises = p > lowest;
            lowest = lowest.min(p);
            rises
        });
        if !differs {
            return;
        }
        let texts: Vec<String> = operands
            .iter()
            .map(|&o| {
                self.text(o)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let mut d = Diagnostic::warning(
            "ioco::txs::parse::no_precedence",
            "TorXakis operators have no precedence: this chain is read left to right",
            sp,
            "read left to right",
        );
        if texts.iter().map(|t| t.len() + 4).sum::<usize>() <= 160 {
            let left = left_to_right(&texts, ops);
            let usual = by_precedence(&texts, ops, &prec);
            d = d.help(format!(
                "it means `{left}` (as in TorXakis); write `{usual}` if that is what you mean"
            ));
        } else {
            d = d.help("parenthesise it to say which operator applies first");
        }
        self.report(d);
    }

    /// Prefix operators (read in a loop) before a term.
    fn vunary(&mut self) -> PResult<VExpr> {
        let mut ops = Vec::new();
        while self.peek() == Tok::Op {
            if ops.len() + self.depth >= MAX_DEPTH {
                // Each prefix operator nests one level, as parentheses do.
                return Err(self.too_deep());
            }
            let t = self.bump();
            ops.push(self.ident_of(t));
        }
        // `-5` is the literal -5 (this is how -9223372036854775808 fits in 64 bits).
        let neg = self.peek() == Tok::Int && ops.last().is_some_and(|o| o.name == "-");
        let neg_op = if neg { ops.pop() } else { None };
        let mut e = self.vterm_neg(neg)?;
        if let Some(op) = neg_op {
            if let VKind::Typed(inner, _) = &mut e.kind {
                inner.span = op.span.to(inner.span);
            }
            e.span = op.span.to(e.span);
        }
        while let Some(op) = ops.pop() {
            e = VExpr {
                span: op.span.to(e.span),
                kind: VKind::Unary(op, Box::new(e)),
            };
        }
        Ok(e)
    }

    /// A term with its optional `:: Sort`; `neg`: it follows a prefix `-` (an integer literal is then read negated).
    fn vterm_neg(&mut self, neg: bool) -> PResult<VExpr> {
        let e = self.nested(|p| p.vprimary(neg))?;
        if self.eat(Tok::SortOf) {
            let s = self.sort()?;
            return Ok(VExpr {
                span: e.span.to(s.span),
                kind: VKind::Typed(Box::new(e), s),
            });
        }
        Ok(e)
    }

    fn vprimary(&mut self, neg: bool) -> PResult<VExpr> {
        let start = self.span();
        let kind = match self.peek() {
            Tok::Int => {
                self.bump();
                let digits = self.text(start);
                let value = if neg {
                    format!("-{digits}").parse::<i64>()
                } else {
                    digits.parse::<i64>()
                };
                match value {
                    Ok(n) => VKind::Int(n),
                    Err(_) => {
                        let (n, bound) = if neg {
                            (i64::MIN, "-9223372036854775808")
                        } else {
                            (i64::MAX, "9223372036854775807")
                        };
                        self.report(
                            Diagnostic::warning(
                                "ioco::txs::parse::int_clamped",
                                format!(
                                    "the integer `{}{digits}` does not fit in 64 bits: read as {bound}",
                                    if neg { "-" } else { "" }
                                ),
                                start,
                                "too large for 64 bits",
                            )
                            .help("TorXakis integers are unbounded, the models run by ioco use 64-bit integers; a comparison with this bound is unchanged for 64-bit values"),
                        );
                        VKind::Int(n)
                    }
                }
            }
            Tok::True => {
                self.bump();
                VKind::Bool(true)
            }
            Tok::False => {
                self.bump();
                VKind::Bool(false)
            }
            Tok::Str => {
                self.bump();
                let (s, bad) = lexer::unescape(self.text(start));
                if let Some(at) = bad {
                    let sp = Span::new(
                        self.file,
                        start.start as usize + at,
                        start.start as usize + at + 1,
                    );
                    self.report(
                        Diagnostic::error(
                            "ioco::txs::parse::escape",
                            "unknown escape in a string",
                            sp,
                            "not an escape",
                        )
                        .help("escapes are `\\n`, `\\t`, `\\\"`, `\\\\`, `\\65`, `\\x41`, `\\o101`, `\\NUL`, .."),
                    );
                }
                VKind::Str(s)
            }
            Tok::Regex => {
                self.bump();
                let help = Some("a regular expression is written `REGEX('[a-z]*')`");
                self.expect(Tok::LParen, help)?;
                let r = self.expect(Tok::RegexVal, help)?;
                self.expect(Tok::RParen, help)?;
                let t = self.text(r.span);
                VKind::Regex(t[1..t.len() - 1].to_string())
            }
            Tok::Any => {
                let t = self.bump();
                VKind::Name(self.ident_of(t))
            }
            Tok::LParen => {
                self.bump();
                let e = self.vexpr()?;
                let close = self.expect(Tok::RParen, None)?;
                return Ok(VExpr {
                    span: start.to(close.span),
                    ..e
                });
            }
            Tok::If => {
                self.bump();
                let c = self.constraint()?;
                self.expect(Tok::Then, Some("`IF c THEN a ELSE b FI`"))?;
                let a = self.vexpr()?;
                self.expect(
                    Tok::Else,
                    Some("`IF c THEN a ELSE b FI` (ELSE is required)"),
                )?;
                let b = self.vexpr()?;
                self.expect(Tok::Fi, Some("`IF .. THEN .. ELSE ..` ends with `FI`"))?;
                VKind::If(Box::new(c), Box::new(a), Box::new(b))
            }
            Tok::Let => {
                self.bump();
                let binds = self.let_binds()?;
                self.expect(Tok::In, Some("`LET x = e IN expression NI`"))?;
                let body = self.vexpr()?;
                self.expect(Tok::Ni, Some("`LET .. IN ..` ends with `NI`"))?;
                VKind::Let(binds, Box::new(body))
            }
            Tok::CapId | Tok::SmallId => {
                let t = self.bump();
                let name = self.ident_of(t);
                if self.eat(Tok::LParen) {
                    VKind::Call(name, self.args()?)
                } else {
                    VKind::Name(name)
                }
            }
            _ => return self.expected("a value expression", None),
        };
        Ok(VExpr {
            kind,
            span: start.to(self.prev_span()),
        })
    }
}

/// The usual precedence of a TorXakis infix operator (higher binds tighter); `None` for a
/// user-defined one.
fn usual_precedence(op: &str) -> Option<u8> {
    Some(match op {
        "*" | "/" | "%" => 7,
        "+" | "-" | "++" => 6,
        "==" | "<>" | "<" | "<=" | ">" | ">=" => 4,
        "/\\" => 3,
        "\\/" => 2,
        "=>" => 1,
        _ => return None,
    })
}

/// An operand of a rendered chain: parenthesised when it is itself an application.
fn operand((text, compound): (String, bool)) -> String {
    if compound {
        format!("({text})")
    } else {
        text
    }
}

/// `a op b op c` grouped left to right: `(a op b) op c`.
fn left_to_right(texts: &[String], ops: &[String]) -> String {
    let mut acc = (texts[0].clone(), false);
    for (op, t) in ops.iter().zip(&texts[1..]) {
        acc = (format!("{} {op} {}", operand(acc), t), true);
    }
    acc.0
}

/// `a op b op c` grouped by the usual precedences (precedence climbing, equal precedences
/// to the left).
fn by_precedence(texts: &[String], ops: &[String], prec: &[u8]) -> String {
    fn climb(
        lhs: (String, bool),
        min: u8,
        k: &mut usize,
        texts: &[String],
        ops: &[String],
        prec: &[u8],
    ) -> (String, bool) {
        let mut lhs = lhs;
        while *k < ops.len() && prec[*k] >= min {
            let i = *k;
            *k += 1;
            let mut rhs = (texts[i + 1].clone(), false);
            while *k < ops.len() && prec[*k] > prec[i] {
                rhs = climb(rhs, prec[i] + 1, k, texts, ops, prec);
            }
            lhs = (
                format!("{} {} {}", operand(lhs), ops[i], operand(rhs)),
                true,
            );
        }
        lhs
    }
    let mut k = 0;
    climb((texts[0].clone(), false), 0, &mut k, texts, ops, prec).0
}
