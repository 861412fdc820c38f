//! Hand-written recursive-descent parser with error recovery.
//!
//! Grammar (EBNF; `{}` repetition, `[]` option):
//! ```text
//! file    = { attr } item ...
//! item    = "import" STRING | typedef | fndef | model | system
//! typedef = "type" NAME "=" ( type | ctor { "|" ctor } )
//! ctor    = NAME [ "{" [ param { "," param } ] "}" ]
//! type    = "int" [ "[" expr ".." expr "]" ] | "bool" | NAME
//!         | "string" [ "[" expr ".." expr "]" ] [ REGEX ]       REGEX = "/" … "/"
//! fndef   = "fn" NAME "(" [ params ] ")" ":" type "=" expr
//! model   = "model" NAME [ "(" params ")" ] "{" { { attr } member } "}"
//! member  = ("input" | "output") gate { "," gate } | "var" var { "," var }
//!         | "init" NAME | "location" NAME { "," NAME } | switch
//! gate    = NAME [ "(" [ params ] ")" ]          var = NAME ":" type "=" expr
//! switch  = NAME "--" action [ "[" expr "]" ] [ "{" { NAME "=" expr [","|";"] } "}" ] "-->" NAME
//! action  = "tau" | NAME ("?" | "!") [ "(" arg { "," arg } ")" ]     arg = NAME | "=" expr
//! system  = "system" NAME "{" comp "}"
//! comp    = "hide" NAME { "," NAME } "in" comp | post { parop post }
//! parop   = "|||" | "||" | "|" "[" NAME { "," NAME } "]" "|"
//! post    = atom { "[" NAME "->" NAME { "," NAME "->" NAME } "]" }
//! atom    = NAME [ "(" [ expr { "," expr } ] ")" ] | "(" comp ")"
//! attr    = "@" NAME [ "(" [ attrarg { "," attrarg } ] ")" ]
//! expr    = precedence climbing over => (right), ||, &&, comparisons and `is`, + -, * / %,
//!           unary ! -, postfix .field, `e matches REGEX` (at the level of `is`), `++` (at
//!           the level of `+`); primaries: numbers, strings, true, false, names, calls,
//!           if-then-else, parentheses
//! ```
//! Recovery: an error inside a model member skips to the next token that starts a line and can
//! start a member (or the closing `}`); an error in an item skips to the next line starting an
//! item. So one run reports several independent errors.

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::kit::{Cursor, Failed, Grammar, PResult};
use crate::lexer::{lex, Tok, Token};
use crate::span::FileId;

/// Parses a file. Returns the tree (as complete as recovery allowed) and the diagnostics.
pub fn parse(file: FileId, src: &str) -> (File, Vec<Diagnostic>) {
    let (toks, comments, diags) = lex(file, src);
    let mut p = Parser {
        c: Cursor::new(file, src, toks, diags),
        comp_ops: 0,
    };
    let items = p.file();
    (File { items, comments }, p.c.diags)
}

/// Parses a single expression (used by tests and tools).
pub fn parse_expr(file: FileId, src: &str) -> Result<Expr, Vec<Diagnostic>> {
    let (toks, _, diags) = lex(file, src);
    let mut p = Parser {
        c: Cursor::new(file, src, toks, diags),
        comp_ops: 0,
    };
    let e = p.expr();
    if e.is_ok() && p.peek() != Tok::Eof {
        let _: PResult<()> = p.expected("the end of the expression", None);
    }
    match e {
        Ok(e) if p.diags.is_empty() => Ok(e),
        _ => Err(p.c.diags),
    }
}

struct Parser<'a> {
    /// The tokens, the diagnostics, the nesting depth.
    c: Cursor<'a, Tok>,
    /// Composition operators (`|||`, `||`, `|[..]|`, `>>>`, renamings) in the current system.
    comp_ops: usize,
}

/// Deepest nesting of expressions or compositions accepted (keeps recursion bounded).
const MAX_NESTING: usize = 128;

/// Highest expression tree accepted. Operator chains (`a + b + …`, `x.f.g…`) are parsed in a
/// loop, but the checker, the evaluators, the translation and the formatter walk expressions
/// recursively: a higher tree is refused with an error that says so, never a stack overflow.
const MAX_HEIGHT: usize = 256;

/// Most composition operators in one system (the composition is checked and lowered
/// recursively, and each component multiplies the state space).
const MAX_COMP_OPS: usize = 256;

const MAX_DEPTH_ERRORS: usize = 200;

crate::cursor_deref!(Parser, Tok);

impl<'a> Grammar<'a, Tok> for Parser<'a> {
    const EXPECTED: &'static str = "ioco::parse::expected";
    const MAX_DEPTH: usize = MAX_NESTING;

    fn found(&self, t: Token) -> Option<String> {
        Some(match t.kind {
            Tok::Ident | Tok::Number => format!("`{}`", self.text(t.span)),
            k => k.describe().to_string(),
        })
    }

    fn hint(&self, _: &str, help: Option<&str>) -> Option<String> {
        help.map(str::to_string).or_else(|| {
            let t = self.tok();
            if t.kind.is_keyword() {
                return Some(format!(
                    "{} is a keyword and cannot be used as a name",
                    t.kind.describe()
                ));
            }
            match (t.kind, self.text(t.span)) {
                (Tok::Ident, "and") => Some("logical and is written `&&`".into()),
                (Tok::Ident, "or") => Some("logical or is written `||`".into()),
                (Tok::Ident, "not") => Some("negation is written `!`".into()),
                (Tok::Eof, _) => Some("the file ends too early: is a `}` or `)` missing?".into()),
                _ => None,
            }
        })
    }

    fn report(&mut self, d: Diagnostic) {
        // a bad character already reported on this line explains the parse error that follows
        let same_line = |a: u32, b: u32| {
            let (lo, hi) = (a.min(b) as usize, a.max(b) as usize);
            !self
                .src
                .get(lo..hi.min(self.src.len()))
                .is_some_and(|t| t.contains('\n'))
        };
        if self
            .diags
            .iter()
            .any(|x| x.code.starts_with("ioco::lex") && same_line(x.span.start, d.span.start))
        {
            return;
        }
        if self.diags.len() < MAX_DEPTH_ERRORS {
            self.c.diags.push(d);
        }
    }

    fn too_deep(&mut self) -> Failed {
        let t = self.tok();
        self.report(
            Diagnostic::error(
                "ioco::parse::nesting",
                format!("nested more than {} levels deep", MAX_NESTING),
                t.span,
                "too deep",
            )
            .help("split the expression with a helper `fn`"),
        );
        Failed
    }
}

impl<'a> Parser<'a> {
    fn ident(&mut self, what: &str) -> PResult<Ident> {
        let t = self.tok();
        if t.kind == Tok::Ident {
            self.bump();
            Ok(Ident {
                name: self.text(t.span).to_string(),
                span: t.span,
            })
        } else {
            self.expected(what, None)
        }
    }

    // ----- recovery -----

    /// Skips to the next token that starts a line and satisfies `stop`, or to an unbalanced `}`
    /// or the end of the file. Balanced braces are skipped whole.
    fn recover(&mut self, stop: fn(&Cursor<Tok>) -> bool) {
        let start = self.pos;
        self.skip_until(Some((Tok::LBrace, Tok::RBrace)), |c| {
            c.pos > start && c.tok().line_start && stop(c)
        });
    }

    // ----- items -----

    fn file(&mut self) -> Vec<Item> {
        let mut items = Vec::new();
        while self.peek() != Tok::Eof {
            let before = self.pos;
            match self.item() {
                Ok(it) => items.push(it),
                Err(Failed) => {
                    self.recover(at_item_start);
                    if self.peek() == Tok::RBrace {
                        self.bump();
                    }
                }
            }
            if self.pos == before {
                self.bump();
            }
        }
        items
    }

    fn attrs(&mut self) -> PResult<Vec<Attr>> {
        let mut out = Vec::new();
        while self.peek() == Tok::At {
            let at = self.bump();
            let name = self.ident("an attribute name such as `timeout`")?;
            let mut args = Vec::new();
            if self.eat(Tok::LParen) {
                args = self.closed_list(Tok::RParen, Tok::Comma, None, Self::attr_arg)?;
            }
            out.push(Attr {
                name,
                args,
                span: at.span.to(self.prev_span()),
            });
        }
        Ok(out)
    }

    fn attr_arg(&mut self) -> PResult<AttrArg> {
        let t = self.tok();
        match t.kind {
            Tok::Number => {
                let v = self.number(t)?;
                self.bump();
                Ok(AttrArg::Int(v, t.span))
            }
            Tok::Duration => {
                self.bump();
                let text = self.text(t.span);
                let digits: String = text.chars().take_while(|c| c.is_ascii_digit()).collect();
                let unit = &text[digits.len()..];
                let mult: u64 = match unit {
                    "us" => 1,
                    "ms" => 1_000,
                    "s" => 1_000_000,
                    _ => 60_000_000,
                };
                match digits.parse::<u64>().ok().and_then(|v| v.checked_mul(mult)) {
                    Some(v) => Ok(AttrArg::Duration(v, t.span)),
                    None => {
                        self.report(Diagnostic::error(
                            "ioco::parse::number",
                            "duration too large",
                            t.span,
                            "does not fit in 64 bits of microseconds",
                        ));
                        Err(Failed)
                    }
                }
            }
            Tok::Str => {
                self.bump();
                Ok(AttrArg::Str(unescape(self.text(t.span)), t.span))
            }
            Tok::Ident => {
                let first = self.ident("a name")?;
                if self.peek() != Tok::Pipe {
                    return Ok(AttrArg::Name(first));
                }
                let mut names = vec![first];
                while self.eat(Tok::Pipe) {
                    names.push(self.ident("a gate name")?);
                }
                let span = names[0].span.to(self.prev_span());
                Ok(AttrArg::Gates(names, span))
            }
            _ => self.expected(
                "an attribute argument (number, duration, string or name)",
                Some("for example `@timeout(500ms)`"),
            ),
        }
    }

    fn number(&mut self, t: Token) -> PResult<i64> {
        match self.text(t.span).parse::<i64>() {
            Ok(v) => Ok(v),
            Err(_) => {
                self.report(
                    Diagnostic::error(
                        "ioco::parse::number",
                        "integer literal too large",
                        t.span,
                        "does not fit in a 64-bit signed integer",
                    )
                    .help("integer values range over -9223372036854775808..9223372036854775807"),
                );
                Err(Failed)
            }
        }
    }

    fn item(&mut self) -> PResult<Item> {
        let attrs = self.attrs()?;
        let start = attrs.first().map(|a| a.span).unwrap_or(self.tok().span);
        let kind = match self.peek() {
            Tok::Import => {
                self.bump();
                let t = self.tok();
                if t.kind != Tok::Str {
                    return self.expected(
                        "a file name in double quotes",
                        Some("write `import \"other.ioco\"`"),
                    );
                }
                self.bump();
                ItemKind::Import(unescape(self.text(t.span)), t.span)
            }
            Tok::Type => ItemKind::Type(self.typedef()?),
            Tok::Fn => ItemKind::Fn(self.fndef()?),
            Tok::Model => ItemKind::Model(self.model()?),
            Tok::System => ItemKind::System(self.system()?),
            Tok::Ident if self.peek_at(1) == Tok::DashDash => {
                return self.expected(
                    "`model`, `system`, `type`, `fn` or `import`",
                    Some("switches belong inside a `model Name { ... }` block"),
                )
            }
            _ => {
                return self.expected(
                    "`model`, `system`, `type`, `fn` or `import`",
                    Some("a file is a list of models, systems, types, functions and imports"),
                )
            }
        };
        Ok(Item {
            attrs,
            kind,
            span: start.to(self.prev_span()),
        })
    }

    fn typedef(&mut self) -> PResult<TypeDef> {
        self.expect(Tok::Type, None)?;
        let name = self.ident("a type name")?;
        self.expect(
            Tok::Eq,
            Some("write `type Name = int[0..10]` or `type Name = A | B { field: int }`"),
        )?;
        if matches!(self.peek(), Tok::Int | Tok::Bool | Tok::StringTy) {
            let ty = self.type_expr()?;
            return Ok(TypeDef {
                name,
                body: TypeBody::Alias(ty),
            });
        }
        self.eat(Tok::Pipe);
        let ctors = self.sep_by1(Tok::Pipe, |p| {
            let name = p.ident("a constructor name")?;
            let mut fields = Vec::new();
            if p.eat(Tok::LBrace) {
                if p.peek() != Tok::RBrace {
                    loop {
                        fields.push(p.param()?);
                        if !(p.eat(Tok::Comma) || p.eat(Tok::Semi)) || p.peek() == Tok::RBrace {
                            break;
                        }
                    }
                }
                p.expect(
                    Tok::RBrace,
                    Some("fields are written `{ name: type, ... }`"),
                )?;
            }
            Ok(Ctor { name, fields })
        })?;
        Ok(TypeDef {
            name,
            body: TypeBody::Adt(ctors),
        })
    }

    fn type_expr(&mut self) -> PResult<TypeExpr> {
        let t = self.tok();
        match t.kind {
            Tok::Int => {
                self.bump();
                let mut range = None;
                if self.eat(Tok::LBracket) {
                    let lo = self.expr_bp(5)?;
                    self.expect(
                        Tok::DotDot,
                        Some("a bounded integer is written `int[0..10]`"),
                    )?;
                    let hi = self.expr_bp(5)?;
                    self.expect(Tok::RBracket, None)?;
                    range = Some((Box::new(lo), Box::new(hi)));
                }
                Ok(TypeExpr {
                    kind: TypeExprKind::Int(range),
                    span: t.span.to(self.prev_span()),
                })
            }
            Tok::Bool => {
                self.bump();
                Ok(TypeExpr {
                    kind: TypeExprKind::Bool,
                    span: t.span,
                })
            }
            Tok::StringTy => {
                self.bump();
                let mut range = None;
                if self.eat(Tok::LBracket) {
                    let lo = self.expr_bp(5)?;
                    self.expect(
                        Tok::DotDot,
                        Some("a length range is written `string[0..8]`"),
                    )?;
                    let hi = self.expr_bp(5)?;
                    self.expect(Tok::RBracket, None)?;
                    range = Some((Box::new(lo), Box::new(hi)));
                }
                let re = self.regex_lit();
                Ok(TypeExpr {
                    kind: TypeExprKind::Str(range, re),
                    span: t.span.to(self.prev_span()),
                })
            }
            Tok::Ident => {
                let id = self.ident("a type")?;
                Ok(TypeExpr {
                    span: id.span,
                    kind: TypeExprKind::Named(id),
                })
            }
            _ => self.expected(
                "a type",
                Some(
                    "types are `int`, `int[lo..hi]`, `bool`, `string`, `string[lo..hi]`, `string /re/` or a name declared with `type`",
                ),
            ),
        }
    }

    /// A `/regex/` token, if one is next.
    fn regex_lit(&mut self) -> Option<RegexLit> {
        let t = self.tok();
        if t.kind != Tok::Regex {
            return None;
        }
        self.bump();
        let text = self.text(t.span);
        Some(RegexLit {
            source: text[1..text.len() - 1].to_string(),
            span: t.span,
        })
    }

    fn param(&mut self) -> PResult<Param> {
        let name = self.ident("a parameter name")?;
        self.expect(Tok::Colon, Some("parameters are written `name: type`"))?;
        let ty = self.type_expr()?;
        Ok(Param { name, ty })
    }

    fn params(&mut self) -> PResult<Vec<Param>> {
        self.sep_by(Tok::RParen, Tok::Comma, Self::param)
    }

    fn fndef(&mut self) -> PResult<FnDef> {
        self.expect(Tok::Fn, None)?;
        let name = self.ident("a function name")?;
        self.expect(Tok::LParen, None)?;
        let params = self.params()?;
        self.expect(Tok::RParen, None)?;
        self.expect(
            Tok::Colon,
            Some("give the result type: `fn f(x: int): bool = ...`"),
        )?;
        let ret = self.type_expr()?;
        self.expect(
            Tok::Eq,
            Some("the body follows `=`: `fn f(x: int): bool = x > 0`"),
        )?;
        let body = self.expr()?;
        Ok(FnDef {
            name,
            params,
            ret,
            body,
        })
    }

    fn model(&mut self) -> PResult<Model> {
        self.expect(Tok::Model, None)?;
        let name = self.ident("a model name")?;
        let mut params = Vec::new();
        if self.eat(Tok::LParen) {
            params = self.params()?;
            self.expect(Tok::RParen, None)?;
        }
        self.expect(Tok::LBrace, Some("the model body is written in `{ ... }`"))?;
        let mut members = Vec::new();
        loop {
            match self.peek() {
                Tok::RBrace => break,
                Tok::Eof => {
                    let d = Diagnostic::error(
                        "ioco::parse::unclosed",
                        format!("model `{}` is not closed", name.name),
                        self.prev_span(),
                        "the file ends after this",
                    )
                    .label(name.span, "model starts here")
                    .help("add `}` after the last switch");
                    self.report(d);
                    return Err(Failed);
                }
                _ => {}
            }
            let before = self.pos;
            match self.member() {
                Ok(m) => members.push(m),
                Err(Failed) => self.recover(at_member_start),
            }
            if self.pos == before {
                self.bump();
            }
        }
        let end = self.bump().span;
        Ok(Model {
            name,
            params,
            members,
            end,
        })
    }

    fn member(&mut self) -> PResult<Member> {
        let attrs = self.attrs()?;
        let start = attrs.first().map(|a| a.span).unwrap_or(self.tok().span);
        let kind = match self.peek() {
            Tok::Input | Tok::Output => {
                let dir = if self.bump().kind == Tok::Input {
                    Dir::Input
                } else {
                    Dir::Output
                };
                let gates = self.sep_by1(Tok::Comma, |p| {
                    let name = p.ident("a gate name")?;
                    let mut params = Vec::new();
                    if p.eat(Tok::LParen) {
                        params = p.params()?;
                        p.expect(Tok::RParen, None)?;
                    }
                    Ok(GateDecl { name, params })
                })?;
                MemberKind::Gates(dir, gates)
            }
            Tok::Var => {
                self.bump();
                let vars = self.sep_by1(Tok::Comma, |p| {
                    let name = p.ident("a variable name")?;
                    p.expect(
                        Tok::Colon,
                        Some("variables are declared `var name: type = value`"),
                    )?;
                    let ty = p.type_expr()?;
                    if p.peek() == Tok::EqEq {
                        return p.expected("`=`", Some("the initial value follows a single `=`"));
                    }
                    p.expect(
                        Tok::Eq,
                        Some("every variable needs an initial value: `var name: type = value`"),
                    )?;
                    let init = p.expr()?;
                    Ok(VarDecl { name, ty, init })
                })?;
                MemberKind::Vars(vars)
            }
            Tok::Init => {
                self.bump();
                MemberKind::Init(self.ident("the initial location")?)
            }
            Tok::Location => {
                self.bump();
                let locs = self.sep_by1(Tok::Comma, |p| p.ident("a location name"))?;
                MemberKind::Locations(locs)
            }
            Tok::Ident => MemberKind::Switch(self.switch()?),
            _ => {
                return self.expected(
                    "a switch or a declaration (`input`, `output`, `var`, `init`, `location`)",
                    Some("a switch is written `from -- gate?(x) [guard] { x = e } --> to`"),
                )
            }
        };
        Ok(Member {
            attrs,
            kind,
            span: start.to(self.prev_span()),
        })
    }

    fn switch(&mut self) -> PResult<Switch> {
        let from = self.ident("the source location")?;
        if self.peek() == Tok::Arrow || self.peek() == Tok::Minus {
            return self.expected(
                "`--`",
                Some("a switch is written `from -- gate? --> to` (two dashes before the action)"),
            );
        }
        self.expect(
            Tok::DashDash,
            Some("a switch is written `from -- gate? --> to`"),
        )?;
        let action = self.action()?;
        let mut also = Vec::new();
        while self.peek() == Tok::Pipe {
            let bar = self.bump().span;
            let a = self.action()?;
            match (&action, &a) {
                (Action::Gate { .. }, Action::Gate { .. }) => also.push(a),
                _ => {
                    let what = match (&action, &a) {
                        (Action::Tau(_), _) | (_, Action::Tau(_)) => "`tau`",
                        _ => "`exit`",
                    };
                    self.report(
                        Diagnostic::error(
                            "ioco::parse::multi_action",
                            format!("{} cannot be part of a multi-action", what),
                            bar.to(self.prev_span()),
                            "combined here",
                        )
                        .help("a multi-action `a? | b!` combines gates only; write a separate switch for `tau` or `exit`"),
                    );
                    return Err(Failed);
                }
            }
        }
        let mut guard = None;
        if self.eat(Tok::LBracket) {
            guard = Some(self.expr()?);
            if self.peek() == Tok::Eq {
                return self.expected("`]`", Some("equality is written `==`"));
            }
            self.expect(Tok::RBracket, Some("the guard is closed by `]`"))?;
        }
        let mut updates = Vec::new();
        if self.eat(Tok::LBrace) {
            while self.peek() != Tok::RBrace {
                let var = self.ident("a variable to assign")?;
                if self.peek() == Tok::Colon && self.peek_at(1) == Tok::Eq {
                    return self
                        .expected("`=`", Some("assignments are written `x = e` (not `:=`)"));
                }
                self.expect(Tok::Eq, Some("assignments are written `x = e`"))?;
                let e = self.expr()?;
                updates.push((var, e));
                if !(self.eat(Tok::Comma) || self.eat(Tok::Semi)) {
                    break;
                }
            }
            self.expect(Tok::RBrace, Some("separate assignments with `,` or `;`"))?;
        }
        if let Action::Exit(sp) = action {
            if let Some((v, _)) = updates.first() {
                self.report(
                    Diagnostic::error(
                        "ioco::parse::exit",
                        "`exit` cannot assign variables",
                        v.span,
                        "assigned here",
                    )
                    .help("the process ends with `exit`: its variables are not read afterwards"),
                );
                return Err(Failed);
            }
            if self.peek() == Tok::LongArrow {
                let t = self.bump().span;
                self.report(
                    Diagnostic::error(
                        "ioco::parse::exit",
                        "`exit` has no target location",
                        t.to(if self.peek() == Tok::Ident { self.tok().span } else { t }),
                        "remove this",
                    )
                    .help("`from -- exit` ends the process (TorXakis `EXIT`); what follows is given by `>>>` in a system"),
                );
                return Err(Failed);
            }
            return Ok(Switch {
                from,
                action,
                also,
                guard,
                updates,
                to: Ident {
                    name: String::new(),
                    span: sp,
                },
            });
        }
        if self.peek() == Tok::Arrow {
            return self.expected("`-->`", Some("the target follows a long arrow `-->`"));
        }
        self.expect(Tok::LongArrow, Some("a switch ends with `--> target`"))?;
        let to = self.ident("the target location")?;
        Ok(Switch {
            from,
            action,
            also,
            guard,
            updates,
            to,
        })
    }

    /// `tau`, `exit` or `gate?(args)` / `gate!(args)`.
    fn action(&mut self) -> PResult<Action> {
        if self.peek() == Tok::Tau {
            return Ok(Action::Tau(self.bump().span));
        }
        if self.peek() == Tok::Ident
            && self.text(self.span()) == "exit"
            && !matches!(self.peek_at(1), Tok::Question | Tok::Bang | Tok::NotEq)
        {
            return Ok(Action::Exit(self.bump().span));
        }
        let name = self.ident("a gate name, `tau` or `exit`")?;
        let (dir, dir_span) =
            match self.peek() {
                Tok::Question => (Dir::Input, self.bump().span),
                Tok::Bang => (Dir::Output, self.bump().span),
                Tok::NotEq => return self.expected(
                    "`?` or `!`",
                    Some(
                        "`!=` was read as one token: write `gate! [` with a space, or `gate!(=e)`",
                    ),
                ),
                _ => {
                    return self.expected(
                        "`?` or `!` after the gate name",
                        Some(&format!(
                            "write `{0}?` if `{0}` is an input, `{0}!` if it is an output",
                            name.name
                        )),
                    )
                }
            };
        let mut args = Vec::new();
        if self.eat(Tok::LParen) {
            args = self.closed_list(Tok::RParen, Tok::Comma, None, |p| {
                if p.eat(Tok::Eq) {
                    Ok(Arg::Value(p.expr()?))
                } else if p.peek() == Tok::Ident && matches!(p.peek_at(1), Tok::Comma | Tok::RParen)
                {
                    Ok(Arg::Bind(p.ident("a parameter name")?))
                } else {
                    let t = p.tok();
                    p.expected(
                        "a fresh name or `=expr`",
                        Some(&format!(
                            "to require a value write `=` before it, as in `{}(={})`",
                            name.name,
                            if t.kind == Tok::Eof {
                                "0"
                            } else {
                                p.text(t.span)
                            }
                        )),
                    )
                }
            })?;
        }
        Ok(Action::Gate {
            name,
            dir,
            dir_span,
            args,
        })
    }

    // ----- systems -----

    fn system(&mut self) -> PResult<System> {
        self.expect(Tok::System, None)?;
        let name = self.ident("a system name")?;
        self.comp_ops = 0;
        let body = if self.eat(Tok::Eq) {
            self.comp()?
        } else {
            self.expect(Tok::LBrace, Some("write `system Name { A || B }`"))?;
            let c = self.comp()?;
            self.expect(
                Tok::RBrace,
                Some("a system holds a single composition expression"),
            )?;
            c
        };
        Ok(System { name, body })
    }

    /// Counts one composition operator of the current system; past [`MAX_COMP_OPS`] an error.
    fn comp_op(&mut self) -> PResult<()> {
        self.comp_ops += 1;
        if self.comp_ops <= MAX_COMP_OPS {
            return Ok(());
        }
        let t = self.tok();
        self.report(
            Diagnostic::error(
                "ioco::parse::too_long",
                format!("composition too large: more than {MAX_COMP_OPS} operators in one system"),
                t.span,
                "one too many",
            )
            .help("compose fewer processes, or give the repeated part a data parameter"),
        );
        Err(Failed)
    }

    fn comp(&mut self) -> PResult<Comp> {
        self.nested(Self::comp_inner)
    }

    fn comp_inner(&mut self) -> PResult<Comp> {
        if self.peek() == Tok::Hide {
            let start = self.bump().span;
            let gates = self.sep_by1(Tok::Comma, |p| p.ident("a gate to hide"))?;
            self.expect(Tok::In, Some("write `hide a, b in P`"))?;
            let body = self.comp()?;
            return Ok(Comp {
                span: start.to(body.span),
                kind: CompKind::Hide(gates, Box::new(body)),
            });
        }
        let mut lhs = self.comp_par()?;
        while self.peek() == Tok::Enable {
            self.comp_op()?;
            self.bump();
            let rhs = if self.peek() == Tok::Hide {
                self.comp()?
            } else {
                self.comp_par()?
            };
            lhs = Comp {
                span: lhs.span.to(rhs.span),
                kind: CompKind::Seq(Box::new(lhs), Box::new(rhs)),
            };
        }
        Ok(lhs)
    }

    fn comp_par(&mut self) -> PResult<Comp> {
        let mut lhs = self.comp_post()?;
        loop {
            let op = match self.peek() {
                Tok::Interleave => {
                    self.bump();
                    ParOp::Interleave
                }
                Tok::OrOr => {
                    self.bump();
                    ParOp::Full
                }
                Tok::Pipe => {
                    self.bump();
                    self.expect(
                        Tok::LBracket,
                        Some("synchronisation on gates is written `|[a, b]|`"),
                    )?;
                    let gates = self
                        .closed_list(Tok::RBracket, Tok::Comma, None, |p| p.ident("a gate name"))?;
                    self.expect(Tok::Pipe, Some("close the gate list with `]|`"))?;
                    ParOp::Gates(gates)
                }
                _ => break,
            };
            self.comp_op()?;
            let rhs = if self.peek() == Tok::Hide {
                self.comp()?
            } else {
                self.comp_post()?
            };
            lhs = Comp {
                span: lhs.span.to(rhs.span),
                kind: CompKind::Par(op, Box::new(lhs), Box::new(rhs)),
            };
        }
        Ok(lhs)
    }

    fn comp_post(&mut self) -> PResult<Comp> {
        let mut c = self.comp_atom()?;
        while self.peek() == Tok::LBracket {
            self.comp_op()?;
            self.bump();
            let map = self.sep_by1(Tok::Comma, |p| {
                let a = p.ident("a gate to rename")?;
                p.expect(Tok::Arrow, Some("renaming is written `P[old -> new]`"))?;
                let b = p.ident("the new gate name")?;
                Ok((a, b))
            })?;
            self.expect(Tok::RBracket, None)?;
            c = Comp {
                span: c.span.to(self.prev_span()),
                kind: CompKind::Rename(Box::new(c), map),
            };
        }
        Ok(c)
    }

    fn comp_atom(&mut self) -> PResult<Comp> {
        match self.peek() {
            Tok::LParen => {
                let start = self.bump().span;
                let c = self.comp()?;
                self.expect(Tok::RParen, None)?;
                Ok(Comp {
                    span: start.to(self.prev_span()),
                    kind: CompKind::Paren(Box::new(c)),
                })
            }
            Tok::Ident => {
                let name = self.ident("a model name")?;
                let mut args = Vec::new();
                if self.eat(Tok::LParen) {
                    args = self.closed_list(Tok::RParen, Tok::Comma, None, Self::expr)?;
                }
                Ok(Comp {
                    span: name.span.to(self.prev_span()),
                    kind: CompKind::Inst(name, args),
                })
            }
            _ => self.expected(
                "a model instance, `(` or `hide`",
                Some(
                    "compose models with `|||`, `||`, `|[gates]|`, `>>>`, `hide g in P` and `P[a -> b]`",
                ),
            ),
        }
    }

    // ----- expressions -----

    fn expr(&mut self) -> PResult<Expr> {
        let outermost = self.depth == 0;
        let e = self.expr_bp(0)?;
        if outermost {
            let h = height(&e);
            if h > MAX_HEIGHT {
                let span = e.span;
                dismantle(e);
                self.report(
                    Diagnostic::error(
                        "ioco::parse::too_long",
                        format!(
                            "expression too deep: its tree has {h} levels (at most {MAX_HEIGHT})"
                        ),
                        span,
                        "this expression",
                    )
                    .help("split a long chain of operators with a helper `fn` or a variable"),
                );
                // The error is recorded (the model is refused); parsing goes on after it.
                return Ok(Expr {
                    span,
                    kind: ExprKind::Int(0),
                });
            }
        }
        Ok(e)
    }

    /// The error for an operator chain that grows the tree past [`MAX_HEIGHT`] while parsing.
    fn too_long(&mut self, e: Expr) -> PResult<Expr> {
        let span = e.span;
        dismantle(e);
        // Skip the rest of the chain (operators and simple operands), so that parsing goes on
        // after it without a cascade of errors.
        while self.binop().is_some()
            || matches!(
                self.peek(),
                Tok::Is | Tok::Dot | Tok::Ident | Tok::Number | Tok::True | Tok::False
            )
        {
            self.bump();
        }
        self.report(
            Diagnostic::error(
                "ioco::parse::too_long",
                format!("expression too long: more than {MAX_HEIGHT} operators in a chain"),
                span,
                "this chain",
            )
            .help("split a long chain of operators with a helper `fn` or a variable"),
        );
        // The error is recorded (the model is refused); parsing goes on after the chain.
        Ok(Expr {
            span,
            kind: ExprKind::Int(0),
        })
    }

    fn binop(&self) -> Option<BinOp> {
        Some(match self.peek() {
            Tok::Plus => BinOp::Add,
            Tok::PlusPlus => BinOp::Concat,
            Tok::Minus => BinOp::Sub,
            Tok::Star => BinOp::Mul,
            Tok::Slash => BinOp::Div,
            Tok::Percent => BinOp::Mod,
            Tok::EqEq => BinOp::Eq,
            Tok::NotEq => BinOp::Ne,
            Tok::Lt => BinOp::Lt,
            Tok::Le => BinOp::Le,
            Tok::Gt => BinOp::Gt,
            Tok::Ge => BinOp::Ge,
            Tok::AndAnd => BinOp::And,
            Tok::OrOr => BinOp::Or,
            Tok::Implies => BinOp::Implies,
            _ => return None,
        })
    }

    /// Precedence climbing; `min` is the lowest precedence accepted.
    fn expr_bp(&mut self, min: u8) -> PResult<Expr> {
        self.nested(|p| p.expr_bp_inner(min))
    }

    fn expr_bp_inner(&mut self, min: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        let mut chain = 0;
        loop {
            chain += 1;
            if self.depth + chain > MAX_HEIGHT {
                return self.too_long(lhs);
            }
            // `matches` is an operator only where it can be one: before a regular expression,
            // or before anything else on its line but `--` (a location named `matches` may
            // start the next switch)
            let next = self.toks[(self.pos + 1).min(self.toks.len() - 1)];
            if self.peek() == Tok::Ident
                && self.text(self.span()) == "matches"
                && min <= 4
                && (next.kind == Tok::Regex || !next.line_start && next.kind != Tok::DashDash)
            {
                let m = self.bump();
                let Some(re) = self.regex_lit() else {
                    let _ = m;
                    return self.expected(
                        "a regular expression",
                        Some("write `s matches /[A-Z][a-z]*/`"),
                    );
                };
                lhs = Expr {
                    span: lhs.span.to(re.span),
                    kind: ExprKind::Matches(Box::new(lhs), re),
                };
                continue;
            }
            if self.peek() == Tok::Is && min <= 4 {
                self.bump();
                let c = self.ident("a constructor name")?;
                lhs = Expr {
                    span: lhs.span.to(c.span),
                    kind: ExprKind::Is(Box::new(lhs), c),
                };
                continue;
            }
            let Some(op) = self.binop() else { break };
            let prec = op.precedence();
            if prec < min {
                break;
            }
            let op_tok = self.bump();
            let next_min = if op == BinOp::Implies { prec } else { prec + 1 };
            let rhs = self.expr_bp(next_min)?;
            if prec == 4 {
                if let Some(op2) = self.binop() {
                    if op2.precedence() == 4 {
                        let t = self.tok();
                        self.report(
                            Diagnostic::error(
                                "ioco::parse::chained_comparison",
                                "comparisons cannot be chained",
                                t.span,
                                "second comparison",
                            )
                            .label(op_tok.span, "first comparison")
                            .help("write `a < b && b < c`"),
                        );
                        return Err(Failed);
                    }
                }
            }
            lhs = Expr {
                span: lhs.span.to(rhs.span),
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
            };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Expr> {
        let t = self.tok();
        let op = match t.kind {
            Tok::Bang => Some(UnOp::Not),
            Tok::Minus => Some(UnOp::Neg),
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            // `-9223372036854775808` is a literal (its digits alone do not fit in 64 bits)
            let n = self.tok();
            if op == UnOp::Neg && n.kind == Tok::Number {
                if let Ok(v) = format!("-{}", self.text(n.span)).parse::<i64>() {
                    self.bump();
                    return Ok(Expr {
                        kind: ExprKind::Int(v),
                        span: t.span.to(n.span),
                    });
                }
            }
            let e = self.nested(Self::unary)?;
            // fold `-5` into a literal so that int[-5..5] is a plain constant
            if let (UnOp::Neg, ExprKind::Int(v)) = (op, &e.kind) {
                if let Some(n) = v.checked_neg() {
                    return Ok(Expr {
                        kind: ExprKind::Int(n),
                        span: t.span.to(e.span),
                    });
                }
            }
            return Ok(Expr {
                span: t.span.to(e.span),
                kind: ExprKind::Unary(op, Box::new(e)),
            });
        }
        let mut e = self.primary()?;
        let mut chain = 0;
        while self.peek() == Tok::Dot {
            chain += 1;
            if self.depth + chain > MAX_HEIGHT {
                return self.too_long(e);
            }
            self.bump();
            let f = self.ident("a field name")?;
            e = Expr {
                span: e.span.to(f.span),
                kind: ExprKind::Field(Box::new(e), f),
            };
        }
        Ok(e)
    }

    fn primary(&mut self) -> PResult<Expr> {
        let t = self.tok();
        match t.kind {
            Tok::Number => {
                let v = self.number(t)?;
                self.bump();
                Ok(Expr {
                    kind: ExprKind::Int(v),
                    span: t.span,
                })
            }
            Tok::True | Tok::False => {
                self.bump();
                Ok(Expr {
                    kind: ExprKind::Bool(t.kind == Tok::True),
                    span: t.span,
                })
            }
            Tok::Str => {
                self.bump();
                Ok(Expr {
                    kind: ExprKind::Str(unescape(self.text(t.span))),
                    span: t.span,
                })
            }
            Tok::Ident => {
                let id = self.ident("a name")?;
                if self.eat(Tok::LParen) {
                    let args = self.closed_list(Tok::RParen, Tok::Comma, None, Self::expr)?;
                    Ok(Expr {
                        span: id.span.to(self.prev_span()),
                        kind: ExprKind::Call(id, args),
                    })
                } else {
                    Ok(Expr {
                        span: id.span,
                        kind: ExprKind::Name(id),
                    })
                }
            }
            Tok::If => {
                self.bump();
                let c = self.expr()?;
                self.expect(Tok::Then, Some("write `if c then a else b`"))?;
                let a = self.expr()?;
                self.expect(
                    Tok::Else,
                    Some("`if` needs an `else` branch: `if c then a else b`"),
                )?;
                let b = self.expr_bp(1)?;
                Ok(Expr {
                    span: t.span.to(b.span),
                    kind: ExprKind::If(Box::new(c), Box::new(a), Box::new(b)),
                })
            }
            Tok::LParen => {
                self.bump();
                let e = self.expr()?;
                self.expect(Tok::RParen, None)?;
                Ok(Expr {
                    span: t.span.to(self.prev_span()),
                    kind: ExprKind::Paren(Box::new(e)),
                })
            }
            Tok::Eq => self.expected("an expression", Some("equality is written `==`")),
            _ => self.expected("an expression", None),
        }
    }
}

/// True where an item can start (where [`Parser::file`] resynchronises).
fn at_item_start(c: &Cursor<Tok>) -> bool {
    matches!(
        c.peek(),
        Tok::Model | Tok::System | Tok::Type | Tok::Fn | Tok::Import | Tok::At
    )
}

/// True where a model member can start (where [`Parser::model`] resynchronises).
fn at_member_start(c: &Cursor<Tok>) -> bool {
    match c.peek() {
        Tok::Input | Tok::Output | Tok::Var | Tok::Init | Tok::Location | Tok::At => true,
        Tok::Ident => c.peek_at(1) == Tok::DashDash,
        _ => false,
    }
}

/// Resolves `\"`, `\\`, `\n`, `\t`, `\r`, `\0` and `\u{hex}` in a string literal (with its
/// quotes).
pub fn unescape(lit: &str) -> String {
    let inner = &lit[1..lit.len().saturating_sub(1).max(1)];
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('0') => out.push('\0'),
                Some('u') if chars.as_str().starts_with('{') => {
                    let rest = chars.as_str();
                    match rest.find('}').and_then(|end| {
                        let c = u32::from_str_radix(&rest[1..end], 16).ok()?;
                        Some((char::from_u32(c)?, end))
                    }) {
                        Some((c, end)) => {
                            out.push(c);
                            chars = rest[end + 1..].chars();
                        }
                        None => out.push('u'),
                    }
                }
                Some(c) => out.push(c),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The height of an expression tree, without recursion.
fn height(e: &Expr) -> usize {
    let mut max = 0;
    let mut stack = vec![(e, 1usize)];
    while let Some((e, h)) = stack.pop() {
        max = max.max(h);
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) | ExprKind::Name(_) => {}
            ExprKind::Call(_, args) => stack.extend(args.iter().map(|a| (a, h + 1))),
            ExprKind::Unary(_, a)
            | ExprKind::Matches(a, _)
            | ExprKind::Field(a, _)
            | ExprKind::Is(a, _)
            | ExprKind::Paren(a) => stack.push((a, h + 1)),
            ExprKind::Binary(_, a, b) => stack.extend([(&**a, h + 1), (&**b, h + 1)]),
            ExprKind::If(c, a, b) => stack.extend([(&**c, h + 1), (&**a, h + 1), (&**b, h + 1)]),
        }
    }
    max
}

/// Drops an expression tree without recursion (a refused tree may be too high for the
/// recursive drop).
fn dismantle(e: Expr) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match e.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) | ExprKind::Name(_) => {}
            ExprKind::Call(_, args) => stack.extend(args),
            ExprKind::Unary(_, a)
            | ExprKind::Matches(a, _)
            | ExprKind::Field(a, _)
            | ExprKind::Is(a, _)
            | ExprKind::Paren(a) => stack.push(*a),
            ExprKind::Binary(_, a, b) => stack.extend([*a, *b]),
            ExprKind::If(c, a, b) => stack.extend([*c, *a, *b]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coffee_sketch_parses() {
        let src = r#"
model CoffeeMachine {
  input water(ml: int), pad, button
  output coffee(ml: int), error
  var total: int = 0
  init idle
  idle   -- water?(w) [w > 0 && total + w < 150] { total = total + w } --> idle
  brewing -- coffee!(c) [c >= total - 50] { total = 0 } --> idle
  brewing -- error! --> idle
}"#;
        let (f, d) = parse(0, src);
        assert!(d.is_empty(), "{:?}", d);
        let ItemKind::Model(m) = &f.items[0].kind else {
            panic!()
        };
        assert_eq!(m.members.len(), 7);
    }

    #[test]
    fn several_errors_are_reported() {
        let src = "model M {\n  input a\n  s0 -> a? --> s0\n  s0 -- a --> s1\n  s1 -- a? [x = 1] --> s0\n}\n";
        let (f, d) = parse(0, src);
        assert_eq!(d.len(), 3, "{:?}", d);
        assert_eq!(f.items.len(), 1);
    }

    #[test]
    fn precedence() {
        let e = parse_expr(0, "a + b * c == d && !e || f => g").unwrap();
        let ExprKind::Binary(BinOp::Implies, l, _) = e.kind else {
            panic!()
        };
        let ExprKind::Binary(BinOp::Or, l, _) = l.kind else {
            panic!()
        };
        let ExprKind::Binary(BinOp::And, l, _) = l.kind else {
            panic!()
        };
        let ExprKind::Binary(BinOp::Eq, l, _) = l.kind else {
            panic!()
        };
        assert!(matches!(l.kind, ExprKind::Binary(BinOp::Add, _, _)));
        assert!(parse_expr(0, "a < b < c").is_err());
    }
}
