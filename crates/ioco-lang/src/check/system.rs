//! Systems: process terms (parallel composition with synchronisation sets, hiding,
//! renaming, `>>>` sequencing, loops) lowered to a [`Composition`] of automata.

use super::*;

pub(super) fn unparen(c: &ast::Comp) -> &ast::Comp {
    match &c.kind {
        CompKind::Paren(x) => unparen(x),
        _ => c,
    }
}

/// Hides the exit of the root: a system that has exited is simply stopped.
pub(super) fn finish_root(root: &mut Composition, gates: &mut Vec<Gate>) {
    if let Some(i) = gates.iter().position(|g| g.name == ir::EXIT_GATE) {
        gates.remove(i);
        let body = std::mem::replace(root, Composition::Leaf(0));
        *root = Composition::Hide {
            gates: vec![ir::EXIT_GATE.into()],
            body: Box::new(body),
        };
    }
}

/// Adds a gate to the synchronisation set of every parallel composition in `c`.
pub(super) fn add_sync(c: &mut Composition, gate: &str) {
    match c {
        Composition::Leaf(_) => {}
        Composition::Par { sync, left, right } => {
            if !sync.iter().any(|g| g == gate) {
                sync.push(gate.into());
            }
            add_sync(left, gate);
            add_sync(right, gate);
        }
        Composition::Hide { body, .. } | Composition::Rename { body, .. } => add_sync(body, gate),
    }
}

/// Renames a gate in every synchronisation set of `c`.
pub(super) fn rename_sync(c: &mut Composition, from: &str, to: &str) {
    match c {
        Composition::Leaf(_) => {}
        Composition::Par { sync, left, right } => {
            for g in sync.iter_mut().filter(|g| *g == from) {
                *g = to.into();
            }
            rename_sync(left, from, to);
            rename_sync(right, from, to);
        }
        Composition::Hide { body, .. } | Composition::Rename { body, .. } => {
            rename_sync(body, from, to)
        }
    }
}

/// `P >>> Q`, an automaton of P: its exits become the hidden step `seq` into a new location
/// `#done<k>`, from which it exits again together with Q (so that the whole exits together).
pub(super) fn seq_first(a: &mut ir::Automaton, seq: &str, k: u32) {
    let Some(eg) = a.gate(ir::EXIT_GATE) else {
        return;
    };
    let span = a.gates[eg as usize].span;
    let sg = push_gate(a, seq, Direction::Output, span);
    let done = push_location(a, format!("#done{}", k), span);
    let end = a
        .locations
        .iter()
        .position(|l| l.name == END_LOC)
        .unwrap_or(done as usize) as u32;
    for sw in a.switches.iter_mut().filter(|sw| sw.gate == Some(eg)) {
        sw.gate = Some(sg);
        sw.to = done;
    }
    push_step(a, done, eg, end, span);
}

/// `P >>> Q`, an automaton of Q: it waits in a new initial location `#wait<k>` for the step
/// `seq` (P's exit).
pub(super) fn seq_then(a: &mut ir::Automaton, seq: &str, k: u32) {
    let span = a.span;
    let sg = push_gate(a, seq, Direction::Input, span);
    let wait = push_location(a, format!("#wait{}", k), span);
    push_step(a, wait, sg, a.initial, span);
    a.initial = wait;
}

/// Adds a parameterless gate used by the lowering of `>>>`; its index.
pub(super) fn push_gate(a: &mut ir::Automaton, name: &str, dir: Direction, span: Span) -> u32 {
    a.gates.push(Gate {
        name: name.into(),
        dir,
        params: Vec::new(),
        timeout: None,
        span,
    });
    (a.gates.len() - 1) as u32
}

/// Adds a location used by the lowering of `>>>`; its index.
pub(super) fn push_location(a: &mut ir::Automaton, name: String, span: Span) -> u32 {
    a.locations.push(ir::Location {
        name,
        timeout: None,
        span,
    });
    (a.locations.len() - 1) as u32
}

/// Adds an unguarded switch `from -- gate --> to` without parameters or assignments.
pub(super) fn push_step(a: &mut ir::Automaton, from: u32, gate: u32, to: u32, span: Span) {
    a.switches.push(ir::Switch {
        from,
        gate: Some(gate),
        also: Vec::new(),
        params: Vec::new(),
        guard: Expr::tru(span),
        assign: Vec::new(),
        to,
        span,
    });
}

impl Checker<'_> {
    pub(super) fn system(
        &mut self,
        defs: &Arc<Defs>,
        s: &ast::System,
        attrs: &[ast::Attr],
    ) -> Option<Spec> {
        let mut automata = Vec::new();
        let mut stack = vec![s.name.name.clone()];
        let (mut root, mut gates) =
            self.system_body(defs, &s.name, &s.body, &mut automata, &mut stack)?;
        finish_root(&mut root, &mut gates);
        let sync = self.sync_sets(attrs, &gates);
        Some(Spec {
            name: s.name.name.clone(),
            defs: defs.clone(),
            automata,
            root,
            gates: sorted(gates),
            sync,
        })
    }

    /// The multi-action sets of `@sync(..)` attributes, checked against the interface.
    pub(super) fn sync_sets(&mut self, attrs: &[ast::Attr], gates: &[Gate]) -> Vec<Vec<String>> {
        let mut out: Vec<Vec<String>> = Vec::new();
        for a in attrs.iter().filter(|a| a.name.name == "sync") {
            for arg in &a.args {
                let AttrArg::Gates(names, span) = arg else {
                    continue;
                };
                let mut set: Vec<String> = Vec::new();
                let mut first: Option<&Gate> = None;
                for n in names {
                    let Some(g) = gates.iter().find(|g| g.name == n.name) else {
                        let cands = gates
                            .iter()
                            .filter(|g| !g.name.starts_with('#'))
                            .map(|g| g.name.clone())
                            .collect();
                        self.unknown(
                            "gate",
                            n,
                            cands,
                            Some("`@sync` lists visible gates of the model or system".into()),
                        );
                        continue;
                    };
                    if let Some(f) = first {
                        if f.dir != g.dir {
                            self.err(
                                Diagnostic::error(
                                    "ioco::check::sync",
                                    format!(
                                        "`{}` is {} but `{}` is {}: a multi-action is all inputs or all outputs",
                                        f.name,
                                        dir_word(f.dir),
                                        g.name,
                                        dir_word(g.dir)
                                    ),
                                    *span,
                                    "in this set",
                                )
                                .help("a tester can send several inputs at once or observe several outputs at once, not both"),
                            );
                        }
                    } else {
                        first = Some(g);
                    }
                    if !set.contains(&g.name) {
                        set.push(g.name.clone());
                    }
                }
                set.sort();
                if set.len() >= 2 && !out.contains(&set) {
                    out.push(set);
                }
            }
        }
        out
    }

    /// The body of a system; `P >>> S` inside `system S` is a loop (P, then P again).
    pub(super) fn system_body(
        &mut self,
        defs: &Arc<Defs>,
        name: &ast::Ident,
        body: &ast::Comp,
        automata: &mut Vec<ir::Automaton>,
        stack: &mut Vec<String>,
    ) -> Option<(Composition, Vec<Gate>)> {
        let CompKind::Seq(l, r) = &unparen(body).kind else {
            return self.comp(defs, body, automata, stack);
        };
        if !matches!(&unparen(r).kind, CompKind::Inst(n, args) if n.name == name.name && args.is_empty())
        {
            return self.comp(defs, body, automata, stack);
        }
        let p0 = automata.len();
        let (mut bc, mut bg) = self.comp(defs, l, automata, stack)?;
        let Some(ei) = bg.iter().position(|g| g.name == ir::EXIT_GATE) else {
            self.err(
                Diagnostic::error(
                    "ioco::check::exit",
                    format!("the body of the loop `{}` never exits", name.name),
                    l.span,
                    "no `exit` in here",
                )
                .help("end the processes of the body with a switch `from -- exit`; then the body starts again"),
            );
            return None;
        };
        bg.remove(ei);
        self.fresh += 1;
        let gate = format!("#loop{}", self.fresh);
        for a in &mut automata[p0..] {
            let Some(eg) = a.gate(ir::EXIT_GATE) else {
                continue;
            };
            a.gates[eg as usize].name = gate.clone();
            let reset: Vec<(u32, Expr)> = a
                .vars
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    (
                        i as u32,
                        Expr {
                            kind: ExprKind::Const(v.init.clone()),
                            ty: v.ty,
                            span: v.span,
                        },
                    )
                })
                .collect();
            let init = a.initial;
            for sw in a.switches.iter_mut().filter(|sw| sw.gate == Some(eg)) {
                sw.to = init;
                sw.assign = reset.clone();
            }
        }
        rename_sync(&mut bc, ir::EXIT_GATE, &gate);
        Some((
            Composition::Hide {
                gates: vec![gate],
                body: Box::new(bc),
            },
            bg,
        ))
    }

    pub(super) fn comp(
        &mut self,
        defs: &Arc<Defs>,
        c: &ast::Comp,
        automata: &mut Vec<ir::Automaton>,
        stack: &mut Vec<String>,
    ) -> Option<(Composition, Vec<Gate>)> {
        match &c.kind {
            CompKind::Paren(x) => self.comp(defs, x, automata, stack),
            CompKind::Seq(l, r) => {
                let p0 = automata.len();
                let lres = self.comp(defs, l, automata, stack);
                let p1 = automata.len();
                let rres = self.comp(defs, r, automata, stack);
                let ((mut lc, lg), (mut rc, rg)) = (lres?, rres?);
                if !lg.iter().any(|g| g.name == ir::EXIT_GATE) {
                    self.err(
                        Diagnostic::error(
                            "ioco::check::exit",
                            "the left operand of `>>>` never exits",
                            l.span,
                            "no `exit` in here",
                        )
                        .label(r.span, "so this never starts")
                        .help("end the processes on the left with a switch `from -- exit`"),
                    );
                    return None;
                }
                let mut gates = lg.clone();
                for g in rg {
                    if let Some(prev) = gates.iter().find(|x| x.name == g.name) {
                        if prev.dir != g.dir
                            || prev
                                .params
                                .iter()
                                .map(|p| p.1)
                                .ne(g.params.iter().map(|p| p.1))
                        {
                            let (ps, gs) = (prev.span, g.span);
                            self.err(
                                Diagnostic::error(
                                    "ioco::check::direction",
                                    format!(
                                        "gate `{}` differs in direction or parameter types before and after `>>>`",
                                        g.name
                                    ),
                                    c.span,
                                    "in this sequence",
                                )
                                .label(ps, "declared here")
                                .label(gs, "and here")
                                .help("a gate keeps its direction and parameter types in the whole system; rename one side"),
                            );
                            return None;
                        }
                    } else {
                        gates.push(g);
                    }
                }
                self.fresh += 1;
                let k = self.fresh;
                let seq = format!("#seq{}", k);
                for a in &mut automata[p0..p1] {
                    seq_first(a, &seq, k);
                }
                for a in &mut automata[p1..] {
                    seq_then(a, &seq, k);
                }
                add_sync(&mut lc, &seq);
                add_sync(&mut rc, &seq);
                Some((
                    Composition::Hide {
                        gates: vec![seq.clone()],
                        body: Box::new(Composition::Par {
                            sync: vec![seq, ir::EXIT_GATE.into()],
                            left: Box::new(lc),
                            right: Box::new(rc),
                        }),
                    },
                    gates,
                ))
            }
            CompKind::Inst(name, args) => match self.globals.get(&name.name).copied() {
                Some((Global::Model(mi), sp)) => {
                    let t = self.templates[mi].clone()?;
                    let mut vals = Vec::new();
                    for a in args {
                        let x = self.expr(a, &Scope::default())?;
                        match self.defs_eval(defs, &x) {
                            Some(v) => vals.push((v, x.ty, a.span)),
                            None => return None,
                        }
                    }
                    if vals.len() != t.params.len() {
                        let sig = t
                            .params
                            .iter()
                            .map(|(n, ty)| format!("{}: {}", n, defs.type_name(*ty)))
                            .collect::<Vec<_>>()
                            .join(", ");
                        self.err(
                            Diagnostic::error(
                                "ioco::check::arity",
                                format!(
                                    "model `{}` takes {} argument(s), {} given",
                                    name.name,
                                    t.params.len(),
                                    vals.len()
                                ),
                                c.span,
                                "wrong number of arguments",
                            )
                            .label(sp, format!("declared as `{}({})`", name.name, sig)),
                        );
                        return None;
                    }
                    for ((v, ty, span), (pn, pt)) in vals.iter().zip(&t.params) {
                        if !pt.accepts(*ty) || !defs.contains(*pt, v) {
                            self.err(
                                Diagnostic::error(
                                    "ioco::check::type",
                                    format!(
                                        "argument for `{}` must be `{}`",
                                        pn,
                                        defs.type_name(*pt)
                                    ),
                                    *span,
                                    format!("this is {}", v.display(defs)),
                                )
                                .label(sp, "model declared here"),
                            );
                            return None;
                        }
                    }
                    let vals: Vec<Value> = vals.into_iter().map(|v| v.0).collect();
                    match instantiate(defs, &t, &name.name, &vals) {
                        Ok(a) => {
                            let gates = a.gates.clone();
                            automata.push(a);
                            Some((Composition::Leaf((automata.len() - 1) as u32), gates))
                        }
                        Err(msg) => {
                            self.err(Diagnostic::error(
                                "ioco::check::init",
                                msg,
                                c.span,
                                "in this instance",
                            ));
                            None
                        }
                    }
                }
                Some((Global::System(si), sp)) => {
                    if !args.is_empty() {
                        self.err(
                            Diagnostic::error(
                                "ioco::check::arity",
                                format!("system `{}` takes no arguments", name.name),
                                c.span,
                                "arguments given",
                            )
                            .label(sp, "declared here"),
                        );
                        return None;
                    }
                    if stack.contains(&name.name) {
                        self.err(
                            Diagnostic::error(
                                "ioco::check::recursive_system",
                                format!("system `{}` contains itself", name.name),
                                name.span,
                                "used inside its own definition",
                            )
                            .help("compositions are finite trees; the one recursion allowed is a loop `system S { P >>> S }` (P, then P again)"),
                        );
                        return None;
                    }
                    let ItemKind::System(s) = &self.systems[si].kind else {
                        return None;
                    };
                    stack.push(name.name.clone());
                    let r = self.system_body(defs, &s.name, &s.body, automata, stack);
                    stack.pop();
                    r
                }
                Some((g, sp)) => {
                    self.err(
                        Diagnostic::error(
                            "ioco::check::not_a_model",
                            format!(
                                "`{}` is {}, not a model or system",
                                name.name,
                                global_word(&g)
                            ),
                            name.span,
                            "expected a model",
                        )
                        .label(sp, "declared here"),
                    );
                    None
                }
                None => {
                    let cands =
                        self.global_names(|g| matches!(g, Global::Model(_) | Global::System(_)));
                    self.unknown("model", name, cands, None);
                    None
                }
            },
            CompKind::Hide(hs, body) => {
                let (b, mut gates) = self.comp(defs, body, automata, stack)?;
                let mut names = Vec::new();
                for h in hs {
                    match gates.iter().position(|g| g.name == h.name) {
                        Some(i) => {
                            gates.remove(i);
                            names.push(h.name.clone());
                        }
                        None => {
                            let cands = gates.iter().map(|g| g.name.clone()).collect();
                            self.unknown(
                                "gate",
                                h,
                                cands,
                                Some("only gates of the operand can be hidden".into()),
                            );
                            return None;
                        }
                    }
                }
                Some((
                    Composition::Hide {
                        gates: names,
                        body: Box::new(b),
                    },
                    gates,
                ))
            }
            CompKind::Rename(body, map) => {
                let (b, gates) = self.comp(defs, body, automata, stack)?;
                let mut pairs = Vec::new();
                for (old, new) in map {
                    if !gates.iter().any(|g| g.name == old.name) {
                        let cands = gates.iter().map(|g| g.name.clone()).collect();
                        self.unknown(
                            "gate",
                            old,
                            cands,
                            Some(
                                "renaming is written `P[old -> new]` with a gate of P on the left"
                                    .into(),
                            ),
                        );
                        return None;
                    }
                    if pairs.iter().any(|(o, _): &(String, String)| *o == old.name) {
                        self.err(Diagnostic::error(
                            "ioco::check::duplicate",
                            format!("gate `{}` is renamed twice", old.name),
                            old.span,
                            "second renaming",
                        ));
                        return None;
                    }
                    pairs.push((old.name.clone(), new.name.clone()));
                }
                let mut out: Vec<Gate> = Vec::new();
                for g in gates {
                    let mut g2 = g.clone();
                    if let Some((_, n)) = pairs.iter().find(|(o, _)| *o == g.name) {
                        g2.name = n.clone();
                    }
                    if let Some(prev) = out.iter().find(|x| x.name == g2.name) {
                        if prev.dir != g2.dir
                            || prev
                                .params
                                .iter()
                                .map(|p| p.1)
                                .ne(g2.params.iter().map(|p| p.1))
                        {
                            let sp = prev.span;
                            self.err(
                                Diagnostic::error(
                                    "ioco::check::rename",
                                    format!(
                                        "renaming merges two different gates into `{}`",
                                        g2.name
                                    ),
                                    c.span,
                                    "in this renaming",
                                )
                                .label(sp, "one declared here")
                                .label(g.span, "the other declared here")
                                .help(
                                    "merged gates must have the same direction and parameter types",
                                ),
                            );
                            return None;
                        }
                        continue;
                    }
                    out.push(g2);
                }
                Some((
                    Composition::Rename {
                        map: pairs,
                        body: Box::new(b),
                    },
                    out,
                ))
            }
            CompKind::Par(op, l, r) => {
                let lres = self.comp(defs, l, automata, stack);
                let rres = self.comp(defs, r, automata, stack);
                let ((lc, lg), (rc, rg)) = (lres?, rres?);
                let sync: Vec<String> = match op {
                    ParOp::Interleave => Vec::new(),
                    ParOp::Full => lg
                        .iter()
                        .filter(|g| rg.iter().any(|h| h.name == g.name))
                        .map(|g| g.name.clone())
                        .collect(),
                    ParOp::Gates(gs) => {
                        let mut out = Vec::new();
                        for g in gs {
                            let inl = lg.iter().any(|x| x.name == g.name);
                            let inr = rg.iter().any(|x| x.name == g.name);
                            if !inl && !inr {
                                let cands = lg.iter().chain(&rg).map(|x| x.name.clone()).collect();
                                self.unknown("gate", g, cands, None);
                                return None;
                            }
                            if !(inl && inr) {
                                let (side, sp) = if inl {
                                    ("right", r.span)
                                } else {
                                    ("left", l.span)
                                };
                                self.err(Diagnostic::error("ioco::check::sync", format!("gate `{}` is synchronised but the {} operand has no such gate", g.name, side), g.span, "synchronised here")
                                    .label(sp, format!("no `{}` here", g.name))
                                    .help("a synchronised gate must be offered by both sides, otherwise it is blocked forever; remove it from the list or rename a gate"));
                                return None;
                            }
                            out.push(g.name.clone());
                        }
                        out
                    }
                };
                let mut sync = sync;
                if (lg.iter().chain(&rg)).any(|g| g.name == ir::EXIT_GATE)
                    && !sync.iter().any(|g| g == ir::EXIT_GATE)
                {
                    // TorXakis: a parallel composition exits when both sides exit together
                    sync.push(ir::EXIT_GATE.into());
                }
                let mut gates = lg.clone();
                for g in rg {
                    if let Some(prev) = gates.iter_mut().find(|x| x.name == g.name) {
                        if prev
                            .params
                            .iter()
                            .map(|p| p.1)
                            .ne(g.params.iter().map(|p| p.1))
                        {
                            let (ps, gs) = (prev.span, g.span);
                            self.err(
                                Diagnostic::error(
                                    "ioco::check::sync",
                                    format!(
                                        "gate `{}` has different parameter types on the two sides",
                                        g.name
                                    ),
                                    c.span,
                                    "in this composition",
                                )
                                .label(ps, "declared here")
                                .label(gs, "and here"),
                            );
                            return None;
                        }
                        if sync.contains(&g.name) {
                            if g.dir == Direction::Output {
                                prev.dir = Direction::Output;
                            }
                        } else if prev.dir != g.dir {
                            let (ps, gs) = (prev.span, g.span);
                            self.err(Diagnostic::error("ioco::check::direction", format!("gate `{}` is an input on one side and an output on the other, but not synchronised", g.name), c.span, "in this composition").label(ps, "declared here").label(gs, "and here").help(format!("synchronise it with `|[{}]|` or rename one side", g.name)));
                            return None;
                        }
                    } else {
                        gates.push(g);
                    }
                }
                Some((
                    Composition::Par {
                        sync,
                        left: Box::new(lc),
                        right: Box::new(rc),
                    },
                    gates,
                ))
            }
        }
    }

    pub(super) fn defs_eval(&mut self, defs: &Defs, x: &Expr) -> Option<Value> {
        match defs.eval(
            x,
            &Env {
                vars: &[],
                params: &[],
                locals: &[],
            },
        ) {
            Ok(v) => Some(v),
            Err(e) => {
                self.err(Diagnostic::error(
                    "ioco::check::const",
                    e.message,
                    e.span,
                    "cannot be computed",
                ));
                None
            }
        }
    }
}
