//! Types and expressions: type expressions, type declarations and their inhabitation,
//! functions, and the checking and lowering of expressions against an expected type.

use super::*;

impl Checker<'_> {
    pub(super) fn const_int(&mut self, e: &ast::Expr) -> Option<i64> {
        let scope = Scope::default();
        let x = self.expr(e, &scope)?;
        if !x.ty.is_int() {
            self.err(Diagnostic::error(
                "ioco::check::type",
                "a range bound must be an integer",
                e.span,
                format!("this is `{}`", self.tn(x.ty)),
            ));
            return None;
        }
        match self.defs.eval(
            &x,
            &Env {
                vars: &[],
                params: &[],
                locals: &[],
            },
        ) {
            Ok(v) => v.as_int(),
            Err(er) => {
                self.err(Diagnostic::error(
                    "ioco::check::const",
                    er.message,
                    er.span,
                    "cannot be computed",
                ));
                None
            }
        }
    }

    /// Parses a regular expression (once per distinct source text) into [`Defs::regexes`].
    pub(super) fn regex(&mut self, lit: &ast::RegexLit) -> Option<ir::RegexId> {
        if let Some(i) = self
            .defs
            .regexes
            .iter()
            .position(|r| r.source == lit.source)
        {
            return Some(i as u32);
        }
        match crate::regex::Regex::parse(&lit.source) {
            Ok(r) => {
                self.defs.regexes.push(Arc::new(r));
                Some(self.defs.regexes.len() as u32 - 1)
            }
            Err(e) => {
                let at = (lit.span.start as usize + 1 + e.offset).min(lit.span.end as usize);
                let end = (at + 1).min(lit.span.end as usize).max(at);
                self.err(
                    Diagnostic::error(
                        "ioco::check::regex",
                        format!("bad regular expression: {}", e.message),
                        Span::new(lit.span.file, at, end),
                        "here",
                    )
                    .help(e.hint),
                );
                None
            }
        }
    }

    pub(super) fn ty(&mut self, t: &ast::TypeExpr) -> Option<Type> {
        match &t.kind {
            ast::TypeExprKind::Bool => Some(Type::Bool),
            ast::TypeExprKind::Str(range, re) => {
                let len = match range {
                    None => None,
                    Some((lo, hi)) => {
                        let lo_v = self.const_int(lo)?;
                        let hi_v = self.const_int(hi)?;
                        let ok = |v: i64| u32::try_from(v).ok();
                        match (ok(lo_v), ok(hi_v)) {
                            (Some(l), Some(h)) if l <= h => Some((l, h)),
                            _ => {
                                self.err(
                                    Diagnostic::error(
                                        "ioco::check::range",
                                        format!("bad length range `string[{}..{}]`", lo_v, hi_v),
                                        t.span,
                                        "lengths are 0 to 4294967295, the lower bound first",
                                    )
                                    .help("both bounds are included: `string[1..8]` has 1 to 8 characters"),
                                );
                                return None;
                            }
                        }
                    }
                };
                let re = match re {
                    None => None,
                    Some(lit) => Some(self.regex(lit)?),
                };
                Some(Type::Str(len, re))
            }
            ast::TypeExprKind::Int(None) => Some(Type::Int),
            ast::TypeExprKind::Int(Some((lo, hi))) => {
                let lo_v = self.const_int(lo)?;
                let hi_v = self.const_int(hi)?;
                if lo_v > hi_v {
                    self.err(
                        Diagnostic::error(
                            "ioco::check::range",
                            format!("empty range `int[{}..{}]`", lo_v, hi_v),
                            t.span,
                            "the lower bound exceeds the upper bound",
                        )
                        .help("both bounds are included: `int[0..10]` has 11 values"),
                    );
                    return None;
                }
                Some(Type::Range(lo_v, hi_v))
            }
            ast::TypeExprKind::Named(n) => match self
                .type_names
                .get(&n.name)
                .or_else(|| self.globals.get(&n.name))
            {
                Some((Global::Adt(i), _)) => Some(Type::Adt(*i)),
                Some((Global::Alias(t), _)) => Some(*t),
                Some((g, sp)) => {
                    let (g, sp) = (*g, *sp);
                    let what = global_word(&g);
                    self.err(
                        Diagnostic::error(
                            "ioco::check::not_a_type",
                            format!("`{}` is {}, not a type", n.name, what),
                            n.span,
                            "expected a type",
                        )
                        .label(sp, "declared here"),
                    );
                    None
                }
                None => {
                    let mut cands: Vec<String> = self.type_names.keys().cloned().collect();
                    cands.sort();
                    cands.extend(["int".to_string(), "bool".to_string()]);
                    let extra = match n.name.as_str() {
                        "Int" | "integer" => Some("the integer type is written `int`".to_string()),
                        "Bool" | "boolean" => {
                            Some("the boolean type is written `bool`".to_string())
                        }
                        "String" => Some("the string type is written `string`".to_string()),
                        _ => None,
                    };
                    self.unknown("type", n, cands, extra);
                    None
                }
            },
        }
    }

    pub(super) fn types(&mut self) {
        let files = self.files;
        // aliases first (they only name built-in types), then ADT fields
        for (_, f) in files {
            for item in &f.items {
                if let ItemKind::Type(td) = &item.kind {
                    if let ast::TypeBody::Alias(t) = &td.body {
                        if let Some(ty) = self.ty(t) {
                            if let Some(e) = self.type_names.get_mut(&td.name.name) {
                                if matches!(e.0, Global::Alias(_)) && e.1 == td.name.span {
                                    e.0 = Global::Alias(ty);
                                }
                            }
                        }
                    }
                }
            }
        }
        let mut declared = Vec::new();
        for (_, f) in files {
            for item in &f.items {
                let ItemKind::Type(td) = &item.kind else {
                    continue;
                };
                let ast::TypeBody::Adt(ctors) = &td.body else {
                    continue;
                };
                let Some((Global::Adt(id), sp)) = self.type_names.get(&td.name.name).copied()
                else {
                    continue;
                };
                if sp != td.name.span {
                    continue;
                }
                let mut out = Vec::new();
                let mut seen: HashMap<String, Span> = HashMap::new();
                for c in ctors {
                    let mut fields = Vec::new();
                    for p in &c.fields {
                        if let Some(prev) = seen.insert(p.name.name.clone(), p.name.span) {
                            self.err(
                                Diagnostic::error(
                                    "ioco::check::duplicate",
                                    format!("field `{}` is declared twice in type `{}`", p.name.name, td.name.name),
                                    p.name.span,
                                    "second declaration",
                                )
                                .label(prev, "first declaration")
                                .help("field names must be unique within a type, across its constructors"),
                            );
                        }
                        let ty = self.ty(&p.ty).unwrap_or(Type::Int);
                        fields.push((p.name.name.clone(), ty));
                    }
                    out.push(ir::CtorDef {
                        name: c.name.name.clone(),
                        fields,
                    });
                }
                self.defs.types[id as usize].ctors = out;
                declared.push((id, td.name.span));
            }
        }
        self.inhabited(&declared);
    }

    /// Every data type must have a finite value: a constructor whose fields all have one
    /// (least fixpoint). `type S = Mk { s: S }` has none; the solver cannot declare it.
    pub(super) fn inhabited(&mut self, declared: &[(u32, Span)]) {
        let n = self.defs.types.len();
        let mut inhabited = vec![false; n];
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..n {
                if inhabited[i] {
                    continue;
                }
                let ok = self.defs.types[i].ctors.iter().any(|c| {
                    c.fields.iter().all(|(_, t)| match t {
                        Type::Adt(a) => inhabited.get(*a as usize).copied().unwrap_or(true),
                        _ => true,
                    })
                });
                if ok {
                    inhabited[i] = true;
                    changed = true;
                }
            }
        }
        for &(id, sp) in declared {
            if inhabited[id as usize] {
                continue;
            }
            let name = self.defs.types[id as usize].name.clone();
            self.err(
                Diagnostic::error(
                    "ioco::check::no_finite_value",
                    format!("data type `{}` has no finite value", name),
                    sp,
                    "every constructor of this type needs a value of a type without one",
                )
                .help(format!(
                    "add a constructor without recursive fields, e.g. `type {} = ... | Nil`",
                    name
                )),
            );
        }
    }

    pub(super) fn functions(&mut self) {
        let files = self.files;
        let mut fns = Vec::new();
        for (_, f) in files {
            for item in &f.items {
                if let ItemKind::Fn(fd) = &item.kind {
                    let Some((Global::Fn(id), sp)) = self.globals.get(&fd.name.name).copied()
                    else {
                        continue;
                    };
                    if sp != fd.name.span {
                        continue;
                    }
                    let params: Vec<(String, Type)> = fd
                        .params
                        .iter()
                        .map(|p| (p.name.name.clone(), self.ty(&p.ty).unwrap_or(Type::Int)))
                        .collect();
                    let ret = self.ty(&fd.ret).unwrap_or(Type::Bool);
                    self.fn_sigs[id as usize] = (params, ret);
                    fns.push((id, fd));
                }
            }
        }
        let mut bodies: Vec<Option<ir::Function>> = vec![None; self.fn_sigs.len()];
        for (id, fd) in fns {
            let (params, ret) = self.fn_sigs[id as usize].clone();
            let scope = Scope {
                locals: fd
                    .params
                    .iter()
                    .zip(&params)
                    .map(|(p, (n, t))| (n.clone(), *t, p.name.span))
                    .collect(),
                ..Scope::default()
            };
            let body = self.expr(&fd.body, &scope);
            if let Some(b) = &body {
                if !ret.accepts(b.ty) {
                    let d = Diagnostic::error(
                        "ioco::check::type",
                        format!(
                            "function `{}` returns `{}` but its body is `{}`",
                            fd.name.name,
                            self.tn(ret),
                            self.tn(b.ty)
                        ),
                        fd.body.span,
                        format!("this is `{}`", self.tn(b.ty)),
                    )
                    .label(
                        fd.ret.span,
                        format!("result type `{}` declared here", self.tn(ret)),
                    );
                    self.err(d);
                }
            }
            bodies[id as usize] = Some(ir::Function {
                name: fd.name.name.clone(),
                params,
                ret,
                body: body.unwrap_or_else(|| Expr::tru(fd.body.span)),
                span: fd.name.span,
            });
        }
        self.defs.functions = bodies
            .into_iter()
            .map(|b| {
                b.unwrap_or_else(|| ir::Function {
                    name: String::new(),
                    params: vec![],
                    ret: Type::Bool,
                    body: Expr::tru(Span::default()),
                    span: Span::default(),
                })
            })
            .collect();
    }

    // ----- expressions -----

    pub(super) fn mismatch(
        &mut self,
        msg: String,
        span: Span,
        found: Type,
        decl: Option<(Span, String)>,
        help: Option<String>,
    ) {
        let mut d = Diagnostic::error(
            "ioco::check::type",
            msg,
            span,
            format!("this is `{}`", self.tn(found)),
        );
        if let Some((s, t)) = decl {
            d = d.label(s, t);
        }
        self.err(d.maybe_help(help));
    }

    pub(super) fn expr(&mut self, e: &ast::Expr, sc: &Scope) -> Option<Expr> {
        let mk = |kind, ty| {
            Some(Expr {
                kind,
                ty,
                span: e.span,
            })
        };
        match &e.kind {
            AK::Int(v) => mk(ExprKind::Const(Value::Int(*v)), Type::Int),
            AK::Bool(b) => mk(ExprKind::Const(Value::Bool(*b)), Type::Bool),
            AK::Str(v) => mk(ExprKind::Const(Value::str(v)), Type::STRING),
            AK::Matches(a, lit) => {
                let x = self.expr(a, sc);
                let r = self.regex(lit);
                let (x, r) = (x?, r?);
                if !x.ty.is_str() {
                    self.mismatch(
                        "`matches` tests a string against a regular expression".into(),
                        a.span,
                        x.ty,
                        None,
                        None,
                    );
                    return None;
                }
                mk(ExprKind::Matches(Box::new(x), r), Type::Bool)
            }
            AK::Paren(x) => {
                let mut r = self.expr(x, sc)?;
                r.span = e.span;
                Some(r)
            }
            AK::Name(n) => {
                if let Some(i) = sc.params.iter().rposition(|p| p.0 == n.name) {
                    return mk(ExprKind::Param(i as u32), sc.params[i].1);
                }
                if let Some(vars) = sc.vars {
                    if let Some(i) = vars.iter().position(|p| p.0 == n.name) {
                        return mk(ExprKind::Var(i as u32), vars[i].1);
                    }
                }
                if let Some(i) = sc.locals.iter().position(|p| p.0 == n.name) {
                    return mk(ExprKind::Local(i as u32), sc.locals[i].1);
                }
                match self.globals.get(&n.name).copied() {
                    Some((Global::Ctor(t, c), sp)) => {
                        let nf = self.defs.types[t as usize]
                            .ctors
                            .get(c as usize)
                            .map_or(0, |c| c.fields.len());
                        if nf > 0 {
                            self.err(
                                Diagnostic::error(
                                    "ioco::check::arity",
                                    format!("constructor `{}` needs {} field value(s)", n.name, nf),
                                    n.span,
                                    "used without arguments",
                                )
                                .label(sp, "declared here"),
                            );
                            return None;
                        }
                        mk(
                            ExprKind::Const(Value::Adt(t, c, Arc::from(Vec::new()))),
                            Type::Adt(t),
                        )
                    }
                    Some((g, sp)) => {
                        self.err(
                            Diagnostic::error(
                                "ioco::check::not_a_value",
                                format!("`{}` is {}, not a value", n.name, global_word(&g)),
                                n.span,
                                "expected a value",
                            )
                            .label(sp, "declared here"),
                        );
                        None
                    }
                    None => {
                        let mut cands: Vec<String> =
                            sc.params.iter().map(|p| p.0.clone()).collect();
                        if let Some(v) = sc.vars {
                            cands.extend(v.iter().map(|p| p.0.clone()));
                        }
                        cands.extend(sc.locals.iter().map(|p| p.0.clone()));
                        cands.extend(self.global_names(|g| matches!(g, Global::Ctor(..))));
                        self.unknown("name", n, cands, None);
                        None
                    }
                }
            }
            AK::Call(n, args)
                if !self.globals.contains_key(&n.name)
                    && ir::Builtin::by_name(&n.name).is_some() =>
            {
                let b = ir::Builtin::by_name(&n.name).expect("checked");
                let lowered: Vec<Option<Expr>> = args.iter().map(|a| self.expr(a, sc)).collect();
                let (sig, ret) = b.signature();
                if sig.len() != args.len() {
                    let names: Vec<&str> = sig.iter().map(|p| p.0).collect();
                    self.err(
                        Diagnostic::error(
                            "ioco::check::arity",
                            format!(
                                "built-in `{}` takes {} argument(s), {} given",
                                n.name,
                                sig.len(),
                                args.len()
                            ),
                            e.span,
                            format!("{} argument(s) here", args.len()),
                        )
                        .help(format!(
                            "write `{}({})`",
                            n.name,
                            names.join(", ")
                        )),
                    );
                    return None;
                }
                let mut out = Vec::new();
                for ((a, x), (pn, pt)) in args.iter().zip(lowered).zip(sig) {
                    let x = x?;
                    if !pt.accepts(x.ty) {
                        let msg = format!(
                            "argument `{}` of built-in `{}` must be `{}`",
                            pn,
                            n.name,
                            self.tn(*pt)
                        );
                        self.mismatch(msg, a.span, x.ty, None, None);
                        return None;
                    }
                    out.push(x);
                }
                mk(ExprKind::Builtin(b, out), ret)
            }
            AK::Call(n, args) => {
                let lowered: Vec<Option<Expr>> = args.iter().map(|a| self.expr(a, sc)).collect();
                let (kind, sig, ret, sp) = match self.globals.get(&n.name).copied() {
                    Some((Global::Fn(f), sp)) => {
                        let (ps, r) = self.fn_sigs[f as usize].clone();
                        ("function", ps, r, (ExprKind::Call(f, vec![]), sp))
                    }
                    Some((Global::Ctor(t, c), sp)) => {
                        let ps = self.defs.types[t as usize]
                            .ctors
                            .get(c as usize)
                            .map(|c| c.fields.clone())
                            .unwrap_or_default();
                        (
                            "constructor",
                            ps,
                            Type::Adt(t),
                            (ExprKind::Ctor(t, c, vec![]), sp),
                        )
                    }
                    Some((g, sp)) => {
                        let hint = matches!(g, Global::Model(_))
                            .then(|| "models are instantiated in a `system`".to_string());
                        self.err(
                            Diagnostic::error(
                                "ioco::check::not_callable",
                                format!(
                                    "`{}` is {}, not a function or constructor",
                                    n.name,
                                    global_word(&g)
                                ),
                                n.span,
                                "cannot be called",
                            )
                            .label(sp, "declared here")
                            .maybe_help(hint),
                        );
                        return None;
                    }
                    None => {
                        let mut cands =
                            self.global_names(|g| matches!(g, Global::Fn(_) | Global::Ctor(..)));
                        cands.extend(ir::Builtin::ALL.iter().map(|b| b.name().to_string()));
                        self.unknown("function", n, cands, None);
                        return None;
                    }
                };
                let (mut kind_e, decl) = sp;
                if sig.len() != args.len() {
                    self.err(
                        Diagnostic::error(
                            "ioco::check::arity",
                            format!(
                                "{} `{}` takes {} argument(s), {} given",
                                kind,
                                n.name,
                                sig.len(),
                                args.len()
                            ),
                            e.span,
                            format!("{} argument(s) here", args.len()),
                        )
                        .label(decl, "declared here"),
                    );
                    return None;
                }
                let mut out = Vec::new();
                for ((a, x), (pn, pt)) in args.iter().zip(lowered).zip(&sig) {
                    let x = x?;
                    if !pt.accepts(x.ty) {
                        let msg = format!(
                            "argument `{}` of `{}` must be `{}`",
                            pn,
                            n.name,
                            self.tn(*pt)
                        );
                        let d = Some((decl, format!("`{}` declared here", n.name)));
                        self.mismatch(msg, a.span, x.ty, d, None);
                        return None;
                    }
                    out.push(x);
                }
                match &mut kind_e {
                    ExprKind::Call(_, v) | ExprKind::Ctor(_, _, v) => *v = out,
                    _ => {}
                }
                mk(kind_e, ret)
            }
            AK::Unary(op, a) => {
                let x = self.expr(a, sc)?;
                let (want, ok) = match op {
                    UnOp::Not => ("bool", x.ty == Type::Bool),
                    UnOp::Neg => ("int", x.ty.is_int()),
                };
                if !ok {
                    let sym = if *op == UnOp::Not { "!" } else { "-" };
                    self.mismatch(
                        format!("`{}` needs `{}`", sym, want),
                        a.span,
                        x.ty,
                        None,
                        None,
                    );
                    return None;
                }
                let ty = if *op == UnOp::Not {
                    Type::Bool
                } else {
                    Type::Int
                };
                mk(ExprKind::Unary(*op, Box::new(x)), ty)
            }
            AK::Binary(op, a, b) => {
                let x = self.expr(a, sc);
                let y = self.expr(b, sc);
                let (x, y) = (x?, y?);
                use BinOp::*;
                let (ok, ty, want) = match op {
                    Add | Sub | Mul | Div | Mod => {
                        (x.ty.is_int() && y.ty.is_int(), Type::Int, "two integers")
                    }
                    Concat => (x.ty.is_str() && y.ty.is_str(), Type::STRING, "two strings"),
                    Lt | Le | Gt | Ge => {
                        (x.ty.is_int() && y.ty.is_int(), Type::Bool, "two integers")
                    }
                    Eq | Ne => (
                        x.ty.accepts(y.ty),
                        Type::Bool,
                        "two values of the same type",
                    ),
                    And | Or | Implies => (
                        x.ty == Type::Bool && y.ty == Type::Bool,
                        Type::Bool,
                        "two booleans",
                    ),
                };
                if !ok {
                    let help = match (op, x.ty, y.ty) {
                        (Add, Type::Bool, _) | (Add, _, Type::Bool) => None,
                        (And | Or, _, _) if x.ty.is_int() || y.ty.is_int() => {
                            Some("compare the integer first, e.g. `x > 0 && ...`".to_string())
                        }
                        (Add, _, _) if x.ty.is_str() || y.ty.is_str() => {
                            Some("strings are concatenated with `++`".to_string())
                        }
                        (Concat, _, _) if x.ty.is_int() || y.ty.is_int() => Some(
                            "`++` joins strings; write the number as a string literal, e.g. `\"1\" ++ s`"
                                .to_string(),
                        ),
                        _ => None,
                    };
                    let d = Diagnostic::error(
                        "ioco::check::type",
                        format!(
                            "`{}` needs {}, found `{}` and `{}`",
                            op.symbol(),
                            want,
                            self.tn(x.ty),
                            self.tn(y.ty)
                        ),
                        b.span,
                        format!("this is `{}`", self.tn(y.ty)),
                    )
                    .label(a.span, format!("this is `{}`", self.tn(x.ty)))
                    .maybe_help(help);
                    self.err(d);
                    return None;
                }
                mk(ExprKind::Binary(*op, Box::new(x), Box::new(y)), ty)
            }
            AK::If(c, a, b) => {
                let cx = self.expr(c, sc);
                let ax = self.expr(a, sc);
                let bx = self.expr(b, sc);
                let (cx, ax, bx) = (cx?, ax?, bx?);
                if cx.ty != Type::Bool {
                    self.mismatch(
                        "the condition of `if` must be `bool`".into(),
                        c.span,
                        cx.ty,
                        None,
                        None,
                    );
                    return None;
                }
                if !ax.ty.accepts(bx.ty) {
                    let d = Diagnostic::error(
                        "ioco::check::type",
                        format!(
                            "the branches of `if` have different types `{}` and `{}`",
                            self.tn(ax.ty),
                            self.tn(bx.ty)
                        ),
                        b.span,
                        format!("this is `{}`", self.tn(bx.ty)),
                    )
                    .label(a.span, format!("this is `{}`", self.tn(ax.ty)));
                    self.err(d);
                    return None;
                }
                let ty = Type::join(ax.ty, bx.ty);
                mk(ExprKind::If(Box::new(cx), Box::new(ax), Box::new(bx)), ty)
            }
            AK::Field(a, f) => {
                let x = self.expr(a, sc)?;
                let Type::Adt(t) = x.ty else {
                    self.mismatch(
                        format!("`.{}` reads a field of a data type value", f.name),
                        a.span,
                        x.ty,
                        None,
                        None,
                    );
                    return None;
                };
                let def = &self.defs.types[t as usize];
                for (ci, c) in def.ctors.iter().enumerate() {
                    if let Some(fi) = c.fields.iter().position(|(n, _)| *n == f.name) {
                        let ty = c.fields[fi].1;
                        return mk(ExprKind::Field(Box::new(x), t, ci as u32, fi as u32), ty);
                    }
                }
                let cands: Vec<String> = def
                    .ctors
                    .iter()
                    .flat_map(|c| c.fields.iter().map(|f| f.0.clone()))
                    .collect();
                let tname = def.name.clone();
                let span = def.span;
                let sugg = did_you_mean(&f.name, cands.iter().map(String::as_str));
                self.err(
                    Diagnostic::error(
                        "ioco::check::unknown",
                        format!("type `{}` has no field `{}`", tname, f.name),
                        f.span,
                        "unknown field",
                    )
                    .label(span, format!("`{}` declared here", tname))
                    .maybe_help(
                        sugg.map(|s| format!("did you mean `{}`?", s)).or_else(|| {
                            (!cands.is_empty())
                                .then(|| format!("its fields are: {}", cands.join(", ")))
                        }),
                    ),
                );
                None
            }
            AK::Is(a, c) => {
                let x = self.expr(a, sc)?;
                let Type::Adt(t) = x.ty else {
                    self.mismatch(
                        "`is` tests the constructor of a data type value".into(),
                        a.span,
                        x.ty,
                        None,
                        None,
                    );
                    return None;
                };
                let def = &self.defs.types[t as usize];
                match def.ctors.iter().position(|k| k.name == c.name) {
                    Some(ci) => mk(ExprKind::Is(Box::new(x), t, ci as u32), Type::Bool),
                    None => {
                        let cands: Vec<String> = def.ctors.iter().map(|k| k.name.clone()).collect();
                        let tname = def.name.clone();
                        let sugg = did_you_mean(&c.name, cands.iter().map(String::as_str));
                        self.err(
                            Diagnostic::error(
                                "ioco::check::unknown",
                                format!("type `{}` has no constructor `{}`", tname, c.name),
                                c.span,
                                "unknown constructor",
                            )
                            .help(match sugg {
                                Some(s) => format!("did you mean `{}`?", s),
                                None => format!("its constructors are: {}", cands.join(", ")),
                            }),
                        );
                        None
                    }
                }
            }
        }
    }

    pub(super) fn expect_type(
        &mut self,
        x: &Expr,
        want: Type,
        what: &str,
        decl: Option<(Span, String)>,
    ) -> bool {
        if want.accepts(x.ty) {
            return true;
        }
        self.mismatch(
            format!("{} must be `{}`", what, self.tn(want)),
            x.span,
            x.ty,
            decl,
            None,
        );
        false
    }
}
