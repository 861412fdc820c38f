//! Models: parameters, locations and their variables, and switches (gate, parameters,
//! guard, assignments) checked and lowered to an [`ir::Automaton`] template.

use super::*;

impl Checker<'_> {
    pub(super) fn model(&mut self, item: &ast::Item) -> Option<Template> {
        let ItemKind::Model(m) = &item.kind else {
            return None;
        };
        let nerr = self.diags.iter().filter(|d| d.is_error()).count();
        let mut locals: Vec<(String, Type, Span)> = Vec::new();
        for p in &m.params {
            let ty = self.ty(&p.ty).unwrap_or(Type::Int);
            if locals.iter().any(|l| l.0 == p.name.name) {
                self.err(Diagnostic::error(
                    "ioco::check::duplicate",
                    format!("parameter `{}` is declared twice", p.name.name),
                    p.name.span,
                    "again here",
                ));
            }
            locals.push((p.name.name.clone(), ty, p.name.span));
        }
        let mut gates: Vec<Gate> = Vec::new();
        let mut vars: Vec<(String, Type, Span)> = Vec::new();
        let mut var_inits: Vec<(usize, &ast::Expr)> = Vec::new();
        let mut init: Option<&ast::Ident> = None;
        let mut declared_locs: Vec<(String, Option<Duration>, Span)> = Vec::new();
        let mut any_loc_decl = false;
        for mem in &m.members {
            match &mem.kind {
                MemberKind::Gates(dir, gs) => {
                    self.check_attrs(&mem.attrs, &["timeout"], "a gate declaration");
                    let to = Self::timeout(&mem.attrs);
                    for g in gs {
                        if let Some(prev) = gates.iter().find(|x| x.name == g.name.name) {
                            let prev = prev.span;
                            self.err(
                                Diagnostic::error(
                                    "ioco::check::duplicate",
                                    format!("gate `{}` is declared twice", g.name.name),
                                    g.name.span,
                                    "second declaration",
                                )
                                .label(prev, "first declaration"),
                            );
                            continue;
                        }
                        let params = g
                            .params
                            .iter()
                            .map(|p| (p.name.name.clone(), self.ty(&p.ty).unwrap_or(Type::Int)))
                            .collect();
                        gates.push(Gate {
                            name: g.name.name.clone(),
                            dir: dir_of(*dir),
                            params,
                            timeout: to,
                            span: g.name.span,
                        });
                    }
                }
                MemberKind::Vars(vs) => {
                    self.check_attrs(&mem.attrs, &[], "a variable");
                    for v in vs {
                        if let Some(prev) = vars
                            .iter()
                            .find(|x| x.0 == v.name.name)
                            .map(|x| x.2)
                            .or_else(|| locals.iter().find(|x| x.0 == v.name.name).map(|x| x.2))
                        {
                            self.err(
                                Diagnostic::error(
                                    "ioco::check::duplicate",
                                    format!("`{}` is declared twice", v.name.name),
                                    v.name.span,
                                    "second declaration",
                                )
                                .label(prev, "first declaration"),
                            );
                            continue;
                        }
                        let ty = self.ty(&v.ty).unwrap_or(Type::Int);
                        vars.push((v.name.name.clone(), ty, v.name.span));
                        var_inits.push((vars.len() - 1, &v.init));
                    }
                }
                MemberKind::Init(l) => {
                    self.check_attrs(&mem.attrs, &[], "`init`");
                    if let Some(prev) = init {
                        self.err(
                            Diagnostic::error(
                                "ioco::check::init",
                                "two initial locations",
                                l.span,
                                "second `init`",
                            )
                            .label(prev.span, "first `init`")
                            .help("a model has exactly one initial location"),
                        );
                    } else {
                        init = Some(l);
                    }
                }
                MemberKind::Locations(ls) => {
                    self.check_attrs(&mem.attrs, &["timeout"], "a location declaration");
                    any_loc_decl = true;
                    let to = Self::timeout(&mem.attrs);
                    for l in ls {
                        if let Some(prev) = declared_locs.iter().find(|x| x.0 == l.name) {
                            let prev = prev.2;
                            self.err(
                                Diagnostic::error(
                                    "ioco::check::duplicate",
                                    format!("location `{}` is declared twice", l.name),
                                    l.span,
                                    "second declaration",
                                )
                                .label(prev, "first declaration"),
                            );
                            continue;
                        }
                        declared_locs.push((l.name.clone(), to, l.span));
                    }
                }
                MemberKind::Switch(_) => self.check_attrs(&mem.attrs, &[], "a switch"),
            }
        }
        // initial values
        let init_scope = Scope {
            locals: locals.clone(),
            ..Scope::default()
        };
        let mut inits = Vec::new();
        for (vi, e) in &var_inits {
            let (vn, vt, vs) = vars[*vi].clone();
            match self.expr(e, &init_scope) {
                Some(x) => {
                    self.expect_type(
                        &x,
                        vt,
                        &format!("the initial value of `{}`", vn),
                        Some((vs, format!("`{}` declared here", vn))),
                    );
                    inits.push(x);
                }
                None => inits.push(Expr::tru(e.span)),
            }
        }
        // locations
        let mut locations: Vec<ir::Location> = declared_locs
            .iter()
            .map(|(n, t, s)| ir::Location {
                name: n.clone(),
                timeout: *t,
                span: *s,
            })
            .collect();
        let mut loc_uses: HashMap<String, (usize, usize)> = HashMap::new(); // (as source, as target)
        let resolve_loc =
            |c: &mut Self, l: &ast::Ident, locations: &mut Vec<ir::Location>| -> Option<u32> {
                if let Some(i) = locations.iter().position(|x| x.name == l.name) {
                    return Some(i as u32);
                }
                if any_loc_decl {
                    let cands: Vec<String> = locations.iter().map(|x| x.name.clone()).collect();
                    c.unknown(
                    "location",
                    l,
                    cands,
                    Some(
                        "this model declares its locations with `location`: declare this one too"
                            .into(),
                    ),
                );
                    return None;
                }
                locations.push(ir::Location {
                    name: l.name.clone(),
                    timeout: None,
                    span: l.span,
                });
                Some((locations.len() - 1) as u32)
            };
        let mut switches = Vec::new();
        let exit_span = m.members.iter().find_map(|mm| match &mm.kind {
            MemberKind::Switch(sw) => match sw.action {
                ast::Action::Exit(sp) => Some(sp),
                _ => None,
            },
            _ => None,
        });
        let mut end_loc = None;
        if let Some(sp) = exit_span {
            gates.push(Gate {
                name: ir::EXIT_GATE.into(),
                dir: Direction::Output,
                params: Vec::new(),
                timeout: None,
                span: sp,
            });
            locations.push(ir::Location {
                name: END_LOC.into(),
                timeout: None,
                span: sp,
            });
            end_loc = Some((locations.len() - 1) as u32);
        }
        for mem in &m.members {
            let MemberKind::Switch(sw) = &mem.kind else {
                continue;
            };
            let from = resolve_loc(self, &sw.from, &mut locations);
            let to = if matches!(sw.action, ast::Action::Exit(_)) {
                end_loc
            } else {
                resolve_loc(self, &sw.to, &mut locations)
            };
            loc_uses.entry(sw.from.name.clone()).or_default().0 += 1;
            loc_uses.entry(sw.to.name.clone()).or_default().1 += 1;
            let s = self.switch(sw, mem.span, &gates, &vars, &locals);
            if let (Some(from), Some(to), Some((gate, also, params, guard, assign))) = (from, to, s)
            {
                switches.push(ir::Switch {
                    from,
                    gate,
                    also,
                    params,
                    guard,
                    assign,
                    to,
                    span: mem.span,
                });
            }
        }
        let initial = match init {
            Some(l) => resolve_loc(self, l, &mut locations),
            None => {
                let first = m.members.iter().find_map(|mm| match &mm.kind {
                    MemberKind::Switch(s) => Some(s.from.name.clone()),
                    _ => None,
                });
                self.err(
                    Diagnostic::error(
                        "ioco::check::init",
                        format!("model `{}` has no initial location", m.name.name),
                        m.name.span,
                        "no `init` in this model",
                    )
                    .help(format!(
                        "add `init {}`",
                        first.as_deref().unwrap_or("start")
                    )),
                );
                None
            }
        };
        // locations only entered, never left, whose name is close to another: likely typos
        for (name, (src, tgt)) in &loc_uses {
            if *src == 0 && *tgt > 0 && !any_loc_decl && !name.is_empty() {
                let others: Vec<&str> = loc_uses
                    .iter()
                    .filter(|(n, (s, _))| *s > 0 && *n != name)
                    .map(|(n, _)| n.as_str())
                    .collect();
                let digitless = |x: &str| {
                    x.chars()
                        .filter(|c| !c.is_ascii_digit())
                        .collect::<String>()
                };
                // Names that differ only in their numbers (`s4` beside `s0`…`s3`) are usually
                // meant (numbered locations); the same numbers written otherwise (`s00` for
                // `s0`, `s01` for `s1`) are a typo.
                let numbers = |x: &str| {
                    x.split(|c: char| !c.is_ascii_digit())
                        .filter(|d| !d.is_empty())
                        .map(|d| d.trim_start_matches('0').to_string())
                        .collect::<Vec<_>>()
                };
                let same_numbers = others
                    .iter()
                    .find(|o| digitless(o) == digitless(name) && numbers(o) == numbers(name))
                    .map(|o| o.to_string());
                if let Some(s) = same_numbers.or_else(|| {
                    did_you_mean(name, others).filter(|s| digitless(s) != digitless(name))
                }) {
                    let sp = m
                        .members
                        .iter()
                        .find_map(|mm| match &mm.kind {
                            MemberKind::Switch(sw) if sw.to.name == *name => Some(sw.to.span),
                            _ => None,
                        })
                        .unwrap_or(m.name.span);
                    self.err(Diagnostic::warning("ioco::check::deadlock_location", format!("location `{}` is entered but never left", name), sp, "no switch leaves this location")
                        .help(format!("did you mean `{}`? (declare it with `location {}` to silence this warning)", s, name)));
                }
            }
        }
        if self.diags.iter().filter(|d| d.is_error()).count() > nerr {
            return None;
        }
        let initial = initial?;
        let automaton = ir::Automaton {
            name: m.name.name.clone(),
            gates,
            locations,
            initial,
            vars: vars
                .iter()
                .map(|(n, t, s)| ir::Var {
                    name: n.clone(),
                    ty: *t,
                    init: Value::Bool(false),
                    span: *s,
                })
                .collect(),
            switches,
            timeout: Self::timeout(&item.attrs),
            span: m.name.span,
        };
        Some(Template {
            params: locals.iter().map(|(n, t, _)| (n.clone(), *t)).collect(),
            automaton,
            var_inits: inits,
            span: m.name.span,
        })
    }

    #[allow(clippy::type_complexity)]
    pub(super) fn switch(
        &mut self,
        sw: &ast::Switch,
        span: Span,
        gates: &[Gate],
        vars: &[(String, Type, Span)],
        locals: &[(String, Type, Span)],
    ) -> Option<(
        Option<u32>,
        Vec<u32>,
        Vec<(String, Type)>,
        Expr,
        Vec<(u32, Expr)>,
    )> {
        let mut scope = Scope {
            params: Vec::new(),
            vars: Some(vars),
            locals: locals.to_vec(),
        };
        let mut gate_id = None;
        let mut also = Vec::new();
        let mut conj: Vec<Expr> = Vec::new();
        let mut ok = true;
        if matches!(sw.action, ast::Action::Exit(_)) {
            gate_id = gates
                .iter()
                .position(|g| g.name == ir::EXIT_GATE)
                .map(|i| i as u32);
        }
        let mut seen: Vec<(&str, Span)> = Vec::new();
        for act in std::iter::once(&sw.action).chain(&sw.also) {
            let ast::Action::Gate {
                name,
                dir,
                dir_span,
                args,
            } = act
            else {
                continue;
            };
            if let Some((_, prev)) = seen.iter().find(|(n, _)| *n == name.name) {
                let prev = *prev;
                self.err(
                    Diagnostic::error(
                        "ioco::check::multi_action",
                        format!("gate `{}` occurs twice in one multi-action", name.name),
                        name.span,
                        "second occurrence",
                    )
                    .label(prev, "first occurrence")
                    .help("a gate happens at most once per step; use one switch after another for two values"),
                );
                return None;
            }
            seen.push((&name.name, name.span));
            let Some(gi) = gates.iter().position(|g| g.name == name.name) else {
                let cands = gates.iter().map(|g| g.name.clone()).collect();
                let extra = Some(format!(
                    "declare it with `{} {}`",
                    if *dir == Dir::Input {
                        "input"
                    } else {
                        "output"
                    },
                    name.name
                ));
                self.unknown("gate", name, cands, extra);
                return None;
            };
            let g = &gates[gi];
            if gate_id.is_none() {
                gate_id = Some(gi as u32);
            } else {
                also.push(gi as u32);
            }
            if g.dir != dir_of(*dir) {
                let right = if g.dir == Direction::Input { "?" } else { "!" };
                self.err(
                    Diagnostic::error(
                        "ioco::check::direction",
                        format!(
                            "`{}` is {}, but used as {}",
                            name.name,
                            dir_word(g.dir),
                            dir_word(dir_of(*dir))
                        ),
                        *dir_span,
                        format!("used as {} here", dir_word(dir_of(*dir))),
                    )
                    .label(g.span, format!("declared as {} here", dir_word(g.dir)))
                    .help(format!("write `{}{}`", name.name, right)),
                );
                ok = false;
            }
            if g.params.len() != args.len() {
                let sig = g
                    .params
                    .iter()
                    .map(|(n, t)| format!("{}: {}", n, self.tn(*t)))
                    .collect::<Vec<_>>()
                    .join(", ");
                self.err(
                    Diagnostic::error(
                        "ioco::check::arity",
                        format!(
                            "gate `{}` has {} parameter(s), {} given",
                            name.name,
                            g.params.len(),
                            args.len()
                        ),
                        name.span.to(*dir_span),
                        format!("{} argument(s) here", args.len()),
                    )
                    .label(
                        g.span,
                        if g.params.is_empty() {
                            "declared without parameters here".to_string()
                        } else {
                            format!("declared as `{}({})` here", name.name, sig)
                        },
                    )
                    .help(if g.params.is_empty() {
                        format!(
                            "write `{}{}` without arguments",
                            name.name,
                            if *dir == Dir::Input { "?" } else { "!" }
                        )
                    } else {
                        "bind each parameter to a fresh name, or require a value with `=expr`"
                            .into()
                    }),
                );
                return None;
            }
            for (a, (pn, pt)) in args.iter().zip(&g.params) {
                match a {
                    Arg::Bind(id) => {
                        let clash = vars
                            .iter()
                            .find(|v| v.0 == id.name)
                            .map(|v| (v.2, "a location variable"))
                            .or_else(|| {
                                locals
                                    .iter()
                                    .find(|v| v.0 == id.name)
                                    .map(|v| (v.2, "a model parameter"))
                            })
                            .or_else(|| {
                                scope
                                    .params
                                    .iter()
                                    .find(|v| v.0 == id.name)
                                    .map(|v| (v.2, "already bound in this switch"))
                            });
                        if let Some((sp, what)) = clash {
                            self.err(Diagnostic::error("ioco::check::shadow", format!("`{}` is {}", id.name, what), id.span, "a parameter binder must be a fresh name")
                                .label(sp, "declared here")
                                .help(format!("to require the value of `{0}`, write `{1}{2}(={0})`; to bind a new value, pick a fresh name", id.name, name.name, if *dir == Dir::Input { "?" } else { "!" })));
                            ok = false;
                        }
                        scope.params.push((id.name.clone(), *pt, id.span));
                    }
                    Arg::Value(e) => {
                        let pname = format!("{}#{}", pn, scope.params.len());
                        scope.params.push((pname.clone(), *pt, e.span));
                        let idx = scope.params.len() - 1;
                        // the value expression may not read parameters bound later; it sees earlier ones
                        let sub = Scope {
                            params: scope.params[..idx].to_vec(),
                            vars: Some(vars),
                            locals: locals.to_vec(),
                        };
                        if let Some(x) = self.expr(e, &sub) {
                            if !pt.accepts(x.ty) {
                                let d = Some((
                                    g.span,
                                    format!(
                                        "parameter `{}` of `{}` is `{}`",
                                        pn,
                                        name.name,
                                        self.tn(*pt)
                                    ),
                                ));
                                self.mismatch(
                                    format!(
                                        "value for parameter `{}` must be `{}`",
                                        pn,
                                        self.tn(*pt)
                                    ),
                                    e.span,
                                    x.ty,
                                    d,
                                    None,
                                );
                                ok = false;
                            } else {
                                let p = Expr {
                                    kind: ExprKind::Param(idx as u32),
                                    ty: *pt,
                                    span: e.span,
                                };
                                conj.push(Expr {
                                    kind: ExprKind::Binary(BinOp::Eq, Box::new(p), Box::new(x)),
                                    ty: Type::Bool,
                                    span: e.span,
                                });
                            }
                        } else {
                            ok = false;
                        }
                    }
                }
            }
        }
        if let Some(gd) = &sw.guard {
            match self.expr(gd, &scope) {
                // the written guard first: the `=expr` values are read only where it holds, so a
                // value such as `q.head` guarded by `q is Cons` is never read from `Nil`
                Some(x) if x.ty == Type::Bool => conj.insert(0, x),
                Some(x) => {
                    let help =
                        x.ty.is_int()
                            .then(|| "a guard is a condition such as `x > 0`".to_string());
                    self.mismatch("a guard must be `bool`".into(), gd.span, x.ty, None, help);
                    ok = false;
                }
                None => ok = false,
            }
        }
        let mut assign: Vec<(u32, Expr)> = Vec::new();
        for (v, e) in &sw.updates {
            let x = self.expr(e, &scope);
            let Some(vi) = vars.iter().position(|x| x.0 == v.name) else {
                if let Some(p) = scope.params.iter().find(|p| p.0 == v.name) {
                    let sp = p.2;
                    self.err(
                        Diagnostic::error(
                            "ioco::check::assign",
                            format!("`{}` is a gate parameter and cannot be assigned", v.name),
                            v.span,
                            "not a location variable",
                        )
                        .label(sp, "bound here")
                        .help("declare a location variable with `var` to remember the value"),
                    );
                } else if let Some(p) = locals.iter().find(|p| p.0 == v.name) {
                    let sp = p.2;
                    self.err(
                        Diagnostic::error(
                            "ioco::check::assign",
                            format!("`{}` is a model parameter and cannot be assigned", v.name),
                            v.span,
                            "a constant",
                        )
                        .label(sp, "declared here"),
                    );
                } else {
                    let cands = vars.iter().map(|x| x.0.clone()).collect();
                    self.unknown(
                        "variable",
                        v,
                        cands,
                        Some(format!("declare it with `var {}: int = 0`", v.name)),
                    );
                }
                ok = false;
                continue;
            };
            if let Some((_, prev)) = assign.iter().find(|(i, _)| *i == vi as u32) {
                let sp = prev.span;
                self.err(
                    Diagnostic::error(
                        "ioco::check::assign",
                        format!("`{}` is assigned twice", v.name),
                        e.span,
                        "second assignment",
                    )
                    .label(sp, "first assignment")
                    .help("assignments are simultaneous: each variable at most once per switch"),
                );
                ok = false;
                continue;
            }
            let Some(x) = x else {
                ok = false;
                continue;
            };
            let (vn, vt, vs) = vars[vi].clone();
            if !self.expect_type(
                &x,
                vt,
                &format!("the value assigned to `{}`", vn),
                Some((vs, format!("`{}` declared as `{}` here", vn, self.tn(vt)))),
            ) {
                ok = false;
                continue;
            }
            assign.push((vi as u32, x));
        }
        if !ok {
            return None;
        }
        let guard = conj
            .into_iter()
            .reduce(|a, b| {
                let sp = a.span.to(b.span);
                Expr {
                    kind: ExprKind::Binary(BinOp::And, Box::new(a), Box::new(b)),
                    ty: Type::Bool,
                    span: sp,
                }
            })
            .unwrap_or_else(|| Expr::tru(span));
        let params = scope
            .params
            .iter()
            .map(|(n, t, _)| (n.clone(), *t))
            .collect();
        Some((gate_id, also, params, guard, assign))
    }
}
