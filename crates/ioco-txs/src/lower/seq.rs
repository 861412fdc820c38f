//! Sequential processes as automata (see the module documentation of [`super`]): a location
//! per behaviour reached after an action, a location variable per value the rest of the
//! behaviour reads, assigned on the switch that enters the location; a call in tail position
//! is a jump with the callee's parameters assigned, a call in a choice contributes the
//! callee's first actions with the arguments substituted; values the target location does not
//! read are reset, so that a state is its location and its live values.

use super::*;

/// The behaviour `EXIT` of the location a model exits from before the composition it continues
/// with.
pub(super) static EXIT_ONLY: t::BExpr = t::BExpr {
    kind: BKind::Exit(Vec::new()),
    span: Span {
        file: 0,
        start: 0,
        end: 0,
    },
};

/// Free value names of a behaviour (those it reads from its context).
pub(super) fn free_b(b: &t::BExpr, bound: &mut Vec<String>, out: &mut Vec<String>) {
    match &b.kind {
        BKind::Stop | BKind::Hit | BKind::Miss => {}
        BKind::Exit(items) => {
            for i in items {
                if let t::ExitItem::Send(e) = i {
                    free_v(e, bound, out);
                }
            }
        }
        BKind::Prefix {
            offers,
            guard,
            then,
        } => {
            let n = bound.len();
            for o in offers {
                for i in &o.items {
                    if let t::OfferItem::Send(e) = i {
                        free_v(e, bound, out);
                    }
                }
            }
            for o in offers {
                for i in &o.items {
                    if let t::OfferItem::Recv(x, _) = i {
                        bound.push(x.name.clone());
                    }
                }
            }
            if let Some(g) = guard {
                free_v(g, bound, out);
            }
            free_b(then, bound, out);
            bound.truncate(n);
        }
        BKind::Guard(c, x) => {
            free_v(c, bound, out);
            free_b(x, bound, out);
        }
        BKind::Choice(xs) => {
            for x in xs {
                free_b(x, bound, out);
            }
        }
        BKind::Par(_, a, b2) | BKind::Disable(a, b2) | BKind::Interrupt(a, b2) => {
            free_b(a, bound, out);
            free_b(b2, bound, out);
        }
        BKind::Enable {
            left,
            accept,
            right,
        } => {
            free_b(left, bound, out);
            let n = bound.len();
            bound.extend(accept.iter().map(|v| v.name.name.clone()));
            free_b(right, bound, out);
            bound.truncate(n);
        }
        BKind::Hide(_, x) => free_b(x, bound, out),
        BKind::Let(binds, x) => {
            for (_, _, v) in binds {
                free_v(v, bound, out);
            }
            let n = bound.len();
            bound.extend(binds.iter().map(|b| b.0.name.clone()));
            free_b(x, bound, out);
            bound.truncate(n);
        }
        BKind::Inst { args, .. } => {
            for a in args {
                free_v(a, bound, out);
            }
        }
    }
}

/// Free value names of an expression (those not in `bound`).
pub(super) fn free_v(e: &t::VExpr, bound: &mut Vec<String>, out: &mut Vec<String>) {
    match &e.kind {
        VKind::Int(_) | VKind::Bool(_) | VKind::Str(_) | VKind::Regex(_) => {}
        VKind::Name(n) => {
            if !bound.contains(&n.name) && !out.contains(&n.name) {
                out.push(n.name.clone());
            }
        }
        VKind::Call(_, xs) => {
            for x in xs {
                free_v(x, bound, out);
            }
        }
        VKind::Unary(_, x) | VKind::Typed(x, _) => free_v(x, bound, out),
        VKind::Binary(_, a, b) => {
            free_v(a, bound, out);
            free_v(b, bound, out);
        }
        VKind::If(a, b, c) => {
            free_v(a, bound, out);
            free_v(b, bound, out);
            free_v(c, bound, out);
        }
        VKind::Let(binds, x) => {
            for (_, _, v) in binds {
                free_v(v, bound, out);
            }
            let n = bound.len();
            bound.extend(binds.iter().map(|b| b.0.name.clone()));
            free_v(x, bound, out);
            bound.truncate(n);
        }
    }
}

/// A location of a sequential model under construction: the behaviour it stands for, its
/// channel environment and the variables holding the values the behaviour reads.
pub(super) struct Loc<'a> {
    pub(super) name: String,
    pub(super) b: &'a t::BExpr,
    pub(super) genv: GEnv,
    /// TorXakis name → model variable.
    pub(super) vars: BTreeMap<String, String>,
    /// TorXakis name → sort.
    pub(super) sorts: BTreeMap<String, String>,
}

/// A switch under construction.
pub(super) struct Edge {
    pub(super) from: usize,
    pub(super) action: o::Action,
    pub(super) also: Vec<o::Action>,
    pub(super) guard: Option<o::Expr>,
    /// Assignments of the target's variables (from the switch context).
    pub(super) assign: Vec<(String, o::Expr)>,
    /// None: `exit`; Some(i): location i.
    pub(super) to: Option<usize>,
    pub(super) span: Span,
}

/// The builder of one sequential model (see the module documentation).
#[derive(Default)]
pub(super) struct SeqBuilder<'a> {
    pub(super) name: String,
    pub(super) gates: Vec<Gate>,
    pub(super) locs: Vec<Loc<'a>>,
    pub(super) index: HashMap<String, usize>,
    /// Model variables: name → TorXakis sort.
    pub(super) vars: BTreeMap<String, String>,
    /// (TorXakis name, sort) → model variable.
    pub(super) var_of: HashMap<(String, String), String>,
    pub(super) edges: Vec<Edge>,
    pub(super) todo: Vec<usize>,
    /// Locations that are purpose verdicts: index → `accept`/`refuse`.
    pub(super) verdict: HashMap<usize, &'static str>,
    /// Processes being unfolded for their first actions (unguarded recursion check).
    pub(super) unfolding: Vec<String>,
    /// The composition the model continues with after `exit` (its key and itself).
    pub(super) cont: Option<(String, Cont<'a>)>,
    /// True when the model has `EXIT`s of its own.
    pub(super) exits: bool,
}

pub(super) const MAX_LOCATIONS: usize = 100_000;

impl<'a> SeqBuilder<'a> {
    /// The model `name` of the sequential behaviour `b` (its free names constants of `scope`),
    /// and the composition it continues with after its `exit`, if any.
    pub(super) fn build(
        l: &mut Lowerer<'a>,
        name: &str,
        b: &'a t::BExpr,
        genv: &GEnv,
        scope: &Scope,
        sp: Span,
    ) -> Option<(o::Model, Option<Cont<'a>>)> {
        let mut sb = SeqBuilder {
            name: name.to_string(),
            gates: genv.values().cloned().collect(),
            ..Default::default()
        };
        let entry = sb.location(l, b, genv, scope, sp)?;
        // the initial values: the entry location's variables, from the (constant) scope
        let mut inits = BTreeMap::new();
        for (x, var) in sb.locs[entry].vars.clone() {
            let v = &scope[&x];
            inits.insert(var, v.expr.clone());
        }
        while let Some(i) = sb.todo.pop() {
            sb.expand(l, i);
        }
        let cont = sb.cont.take().map(|(_, c)| c);
        if cont.is_some() && sb.exits {
            l.unsupported(
                "a process that may both EXIT and continue with a composition",
                sp,
                "end every branch the same way: all with EXIT, or all with the call of the composed process",
            );
            return None;
        }
        let model = sb.finish(l, entry, inits, sp)?;
        Some((model, cont))
    }

    /// The location for behaviour `b` (created and queued if new); `scope` gives the sorts of
    /// the free names.
    fn location(
        &mut self,
        l: &mut Lowerer<'a>,
        b: &'a t::BExpr,
        genv: &GEnv,
        scope: &Scope,
        sp: Span,
    ) -> Option<usize> {
        let mut free = Vec::new();
        free_b(b, &mut Vec::new(), &mut free);
        // names bound in the scope (constants and constructors are resolved globally)
        free.retain(|n| scope.contains_key(n));
        let key = format!("{:p} {:?} {:?}", b, genv, free);
        if let Some(&i) = self.index.get(&key) {
            return Some(i);
        }
        if self.locs.len() >= MAX_LOCATIONS {
            l.error(
                "ioco::txs::too_big",
                format!("the process has more than {} locations", MAX_LOCATIONS),
                sp,
                "here",
            );
            return None;
        }
        let mut vars = BTreeMap::new();
        let mut sorts = BTreeMap::new();
        for n in &free {
            let sort = scope[n].sort.clone();
            if sort.is_empty() {
                l.error(
                    "ioco::txs::sort",
                    format!("cannot tell the sort of `{}`", n),
                    sp,
                    "used after this action",
                );
                return None;
            }
            let k = (n.clone(), sort.clone());
            let var = self.var_for(k, n);
            vars.insert(n.clone(), var);
            sorts.insert(n.clone(), sort);
        }
        let i = self.locs.len();
        let name = match &b.kind {
            BKind::Inst { name, .. } if !self.locs.iter().any(|x| x.name == name.name) => {
                name.name.clone()
            }
            _ => format!("s{}", i),
        };
        self.locs.push(Loc {
            name,
            b,
            genv: genv.clone(),
            vars,
            sorts,
        });
        self.index.insert(key, i);
        self.todo.push(i);
        let _ = l;
        Some(i)
    }

    /// The model variable of `key` (a TorXakis name, or a part's name, and its sort), made if
    /// new: `name` (`name_` for a `.ioco` keyword), or `name_2`, ... when that is taken.
    pub(super) fn var_for(&mut self, key: (String, String), name: &str) -> String {
        if let Some(v) = self.var_of.get(&key) {
            return v.clone();
        }
        let base = safe(name);
        let mut v = base.clone();
        let mut j = 2;
        while self.vars.contains_key(&v) {
            v = format!("{}_{}", base, j);
            j += 1;
        }
        self.vars.insert(v.clone(), key.1.clone());
        self.var_of.insert(key, v.clone());
        v
    }

    /// Computes the switches of location `i`.
    fn expand(&mut self, l: &mut Lowerer<'a>, i: usize) {
        let (b, genv) = (self.locs[i].b, self.locs[i].genv.clone());
        let mut scope = Scope::new();
        for (n, v) in &self.locs[i].vars {
            scope.insert(
                n.clone(),
                Val {
                    expr: name_expr(v, b.span),
                    sort: self.locs[i].sorts[n].clone(),
                },
            );
        }
        let taken: HashSet<String> = self.vars.keys().cloned().collect();
        match &b.kind {
            BKind::Hit => {
                self.verdict.insert(i, "accept");
            }
            BKind::Miss => {
                self.verdict.insert(i, "refuse");
            }
            _ => {}
        }
        self.initials(l, i, b, &genv, &scope, None, &taken);
    }

    /// Adds the switches from location `from` for the first actions of `b`, under `guard`.
    #[allow(clippy::too_many_arguments)]
    fn initials(
        &mut self,
        l: &mut Lowerer<'a>,
        from: usize,
        b: &'a t::BExpr,
        genv: &GEnv,
        scope: &Scope,
        guard: Option<o::Expr>,
        taken: &HashSet<String>,
    ) {
        let sp = b.span;
        match &b.kind {
            BKind::Stop => {}
            BKind::Hit | BKind::Miss => {
                if !std::ptr::eq(self.locs[from].b, b) {
                    // a verdict reached without an action in between: go there silently
                    // (cannot happen in TorXakis purposes, where HIT ends a prefix)
                    l.unsupported(
                        "`HIT`/`MISS` in a choice",
                        sp,
                        "end a goal's branch with `>-> HIT` or `>-> MISS`",
                    );
                }
            }
            BKind::Exit(items) => {
                // values passed on to `>>> ACCEPT` were substituted there (see `exit`)
                if !items.is_empty() && !l.exit_passed {
                    l.unsupported(
                        "`EXIT` with values",
                        sp,
                        "pass the values over a hidden channel synchronised with the process that continues (docs/language.md §13)",
                    );
                    return;
                }
                if !std::ptr::eq(b, &EXIT_ONLY) {
                    self.exits = true;
                }
                self.edges.push(Edge {
                    from,
                    action: o::Action::Exit(sp),
                    also: Vec::new(),
                    guard,
                    assign: Vec::new(),
                    to: None,
                    span: sp,
                });
            }
            BKind::Prefix {
                offers,
                guard: g2,
                then,
            } => {
                let mut sc = scope.clone();
                let Some((action, also, g)) =
                    l.offers(offers, g2.as_ref(), genv, &mut sc, sp, taken)
                else {
                    return;
                };
                let guard = match (guard, g) {
                    (Some(a), Some(b2)) => Some(and(a, b2)),
                    (a, b2) => a.or(b2),
                };
                let Some((to, assign)) = self.target(l, then, genv, &sc, sp) else {
                    return;
                };
                self.edges.push(Edge {
                    from,
                    action,
                    also,
                    guard,
                    assign,
                    to: Some(to),
                    span: sp,
                });
            }
            BKind::Guard(c, x) => {
                let Some(c) = l.vexpr(c, scope) else {
                    return;
                };
                let guard = Some(match guard {
                    Some(a) => and(a, c),
                    None => c,
                });
                self.initials(l, from, x, genv, scope, guard, taken);
            }
            BKind::Choice(xs) => {
                for x in xs {
                    self.initials(l, from, x, genv, scope, guard.clone(), taken);
                }
            }
            BKind::Let(binds, x) => {
                let Some(sc) = l.bind_lets(binds, scope) else {
                    return;
                };
                self.initials(l, from, x, genv, &sc, guard, taken);
            }
            BKind::Inst { name, gates, args } => {
                let Some(p) = l.procs.get(&name.name).copied() else {
                    if l.stauts.contains_key(&name.name) {
                        l.unsupported(
                            &format!(
                                "a call of the state automaton `{}` inside a process",
                                name.name
                            ),
                            sp,
                            "call it from the MODELDEF's BEHAVIOUR or from a parallel composition",
                        );
                    } else {
                        l.unknown_proc(name);
                    }
                    return;
                };
                if is_structural(&p.body) {
                    // a composed process in a choice: the product of the parts (`product`)
                    l.needs_product = true;
                    return;
                }
                let Some((g2, sc2)) = l.bind_call(p, gates, args, genv, scope, sp) else {
                    return;
                };
                let key = format!("{} {:?}", p.name.name, g2);
                if self.unfolding.contains(&key) {
                    l.unguarded(p, sp);
                    return;
                }
                self.unfolding.push(key);
                self.initials(l, from, &p.body, &g2, &sc2, guard, taken);
                self.unfolding.pop();
            }
            BKind::Par(..)
            | BKind::Hide(..)
            | BKind::Enable { .. }
            | BKind::Disable(..)
            | BKind::Interrupt(..) => {
                // a composition in a choice: the product of the parts (`product`)
                l.needs_product = true;
            }
        }
    }

    /// The location after an action and the assignments that enter it: a call in tail position
    /// goes to the callee's location with its parameters assigned.
    fn target(
        &mut self,
        l: &mut Lowerer<'a>,
        then: &'a t::BExpr,
        genv: &GEnv,
        scope: &Scope,
        sp: Span,
    ) -> Option<(usize, Vec<(String, o::Expr)>)> {
        let (b, genv2, scope2) = match &then.kind {
            BKind::Inst { name, gates, args } => match l.procs.get(&name.name).copied() {
                Some(p) if !is_structural(&p.body) => {
                    let (g2, sc2) = l.bind_call(p, gates, args, genv, scope, sp)?;
                    (&p.body, g2, sc2)
                }
                Some(p) => {
                    let (g2, sc2) = l.bind_call(p, gates, args, genv, scope, sp)?;
                    return self.continue_with(l, then, g2, sc2, genv, scope, sp);
                }
                None => (then, genv.clone(), scope.clone()),
            },
            BKind::Par(..) | BKind::Hide(..) | BKind::Enable { .. } => {
                return self.continue_with(l, then, genv.clone(), Scope::new(), genv, scope, sp);
            }
            _ => (then, genv.clone(), scope.clone()),
        };
        let to = self.location(l, b, &genv2, &scope2, sp)?;
        let assign = self.locs[to]
            .vars
            .iter()
            .map(|(n, v)| (v.clone(), scope2[n].expr.clone()))
            .collect();
        Some((to, assign))
    }

    /// An action followed by a composition: the model exits there, and the composition
    /// follows it (`>>>`). Only one such composition per model, with constant values.
    #[allow(clippy::too_many_arguments)]
    fn continue_with(
        &mut self,
        l: &mut Lowerer<'a>,
        then: &'a t::BExpr,
        g2: GEnv,
        sc2: Scope,
        genv: &GEnv,
        scope: &Scope,
        sp: Span,
    ) -> Option<(usize, Vec<(String, o::Expr)>)> {
        // the composition may read only constants
        let mut free = Vec::new();
        free_b(then, &mut Vec::new(), &mut free);
        let reads_state = match &then.kind {
            BKind::Inst { .. } => sc2.values().any(|v| const_eval(&v.expr).is_none()),
            _ => free.iter().any(|n| scope.contains_key(n)),
        };
        if reads_state {
            // the whole behaviour becomes one model, the product of its parts (`product`)
            l.needs_product = true;
            return None;
        }
        let key = format!("{:p} {:?} {:?}", then, g2, scope_key(&sc2));
        match &self.cont {
            Some((k, _)) if *k != key => {
                l.unsupported(
                    "a process that continues with different compositions",
                    then.span,
                    "give each composition a process of its own and choose between them at the top of the BEHAVIOUR",
                );
                return None;
            }
            Some(_) => {}
            None => self.cont = Some((key, (then, g2, sc2))),
        }
        let _ = genv;
        // the switch goes to a location that only exits (`a >-> P` is `a` then `EXIT >>> P`)
        let done = self.location(l, &EXIT_ONLY, &GEnv::new(), &Scope::new(), sp)?;
        Some((done, Vec::new()))
    }

    /// The model.
    pub(super) fn finish(
        mut self,
        l: &mut Lowerer<'a>,
        entry: usize,
        inits: BTreeMap<String, o::Expr>,
        sp: Span,
    ) -> Option<o::Model> {
        let mut members = Vec::new();
        let gates = std::mem::take(&mut self.gates);
        l.gate_members(&gates, sp, &mut members);
        let mut vars = Vec::new();
        for (v, sort) in &self.vars {
            let ty = l.type_expr(&ident(sort.clone(), sp))?;
            let init = match inits.get(v) {
                Some(e) => e.clone(),
                None => match l.default_value(sort, sp, 0) {
                    Some(d) => d,
                    None => {
                        l.error(
                            "ioco::txs::no_default",
                            format!("no value of sort `{}` to start variable `{}` with", sort, v),
                            sp,
                            "in this process",
                        );
                        return None;
                    }
                },
            };
            vars.push(o::VarDecl {
                name: ident(v.clone(), sp),
                ty,
                init,
            });
        }
        if !vars.is_empty() {
            members.push(member(o::MemberKind::Vars(vars), sp));
        }
        // location names: verdicts of purposes are `accept…`/`refuse…`
        let mut names: Vec<String> = self.locs.iter().map(|x| x.name.clone()).collect();
        for (i, v) in &self.verdict {
            names[*i] = format!("{}{}", v, i);
        }
        let lspan = |i: usize| self.locs[i].b.span;
        members.push(member(
            o::MemberKind::Init(ident(names[entry].clone(), lspan(entry))),
            sp,
        ));
        members.push(member(
            o::MemberKind::Locations(
                names
                    .iter()
                    .enumerate()
                    .map(|(i, n)| ident(n.clone(), lspan(i)))
                    .collect(),
            ),
            sp,
        ));
        let defaults: BTreeMap<String, o::Expr> = self
            .vars
            .iter()
            .filter_map(|(v, s)| l.default_value(s, sp, 0).map(|d| (v.clone(), d)))
            .collect();
        for mut e in std::mem::take(&mut self.edges) {
            // switch parameters named like a variable made later: rename them
            let mut renames = Vec::new();
            for a in std::iter::once(&mut e.action).chain(e.also.iter_mut()) {
                if let o::Action::Gate { args, .. } = a {
                    for arg in args.iter_mut() {
                        if let o::Arg::Bind(id) = arg {
                            if self.vars.contains_key(&id.name) {
                                let mut k = 2;
                                let mut n = format!("{}_{}", id.name, k);
                                while self.vars.contains_key(&n) {
                                    k += 1;
                                    n = format!("{}_{}", id.name, k);
                                }
                                renames.push((id.name.clone(), n.clone()));
                                id.name = n;
                            }
                        }
                    }
                }
            }
            if !renames.is_empty() {
                for a in std::iter::once(&mut e.action).chain(e.also.iter_mut()) {
                    if let o::Action::Gate { args, .. } = a {
                        for arg in args.iter_mut() {
                            if let o::Arg::Value(x) = arg {
                                rename_expr(x, &renames);
                            }
                        }
                    }
                }
                if let Some(g) = &mut e.guard {
                    rename_expr(g, &renames);
                }
                for (_, x) in &mut e.assign {
                    rename_expr(x, &renames);
                }
            }
            let mut updates: Vec<(Ident, o::Expr)> = e
                .assign
                .iter()
                .map(|(v, x)| (ident(v.clone(), e.span), x.clone()))
                .collect();
            // reset what the target no longer reads (a state is its location and live values)
            if let Some(to) = e.to {
                let live: HashSet<&String> = self.locs[to].vars.values().collect();
                for v in self.locs[e.from].vars.values() {
                    if !live.contains(v) {
                        if let Some(d) = defaults.get(v) {
                            updates.push((ident(v.clone(), e.span), d.clone()));
                        }
                    }
                }
            }
            // drop identities `x = x`
            updates.retain(|(v, x)| !matches!(&x.kind, o::ExprKind::Name(n) if n.name == v.name));
            let to = match e.to {
                Some(i) => ident(names[i].clone(), lspan(i)),
                None => ident("", e.span),
            };
            members.push(member(
                o::MemberKind::Switch(o::Switch {
                    from: ident(names[e.from].clone(), e.span),
                    action: e.action,
                    also: e.also,
                    guard: e.guard,
                    updates,
                    to,
                }),
                e.span,
            ));
        }
        Some(o::Model {
            name: ident(self.name.clone(), sp),
            params: Vec::new(),
            members,
            end: sp,
        })
    }
}
