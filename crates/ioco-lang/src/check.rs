//! Name resolution, type checking and lowering of the syntax tree to the [`crate::ir`].
//!
//! All files (the main file and its imports) share one global namespace of types,
//! constructors, functions, models and systems. Inside a model, names are looked up in this
//! order: switch parameters, location variables, model parameters, nullary constructors.
//! Every unknown name gets a "did you mean" from the names in scope; every type mismatch points
//! at both the offending expression and the declaration that fixed the expected type.

use crate::ast::{
    self, Arg, AttrArg, BinOp, CompKind, Dir, ExprKind as AK, ItemKind, MemberKind, ParOp, UnOp,
};
use crate::diag::{did_you_mean, Diagnostic};
use crate::ir::{self, Composition, Defs, Direction, Env, Expr, ExprKind, Gate, Spec, Type, Value};
use crate::span::Span;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// A model with value parameters, lowered once; [`Program::instantiate`] fixes the parameters.
#[derive(Clone, Debug)]
pub struct Template {
    /// Parameters (read as [`ExprKind::Local`] in the automaton's expressions).
    pub params: Vec<(String, Type)>,
    /// The automaton, with variable initial values still as expressions.
    pub automaton: ir::Automaton,
    /// Initial values of the variables (may read the parameters).
    pub var_inits: Vec<Expr>,
    /// The `model` item.
    pub span: Span,
}

/// A checked set of files: types, functions, models and systems.
#[derive(Clone, Debug)]
pub struct Program {
    /// Types and functions.
    pub defs: Arc<Defs>,
    /// Models by name (with or without parameters).
    pub templates: Vec<(String, Template)>,
    /// One spec per parameterless model and per system, in source order.
    pub specs: Vec<Spec>,
    /// Index in `specs` of the entry point: the item marked `@main`, else the last `system` or
    /// parameterless `model` of the main file.
    pub entry: Option<usize>,
    /// Warnings (the program is accepted).
    pub warnings: Vec<Diagnostic>,
}

impl Program {
    /// The spec with this name.
    pub fn spec(&self, name: &str) -> Option<&Spec> {
        self.specs.iter().find(|s| s.name == name)
    }

    /// The entry spec.
    pub fn entry_spec(&self) -> Option<&Spec> {
        self.entry.map(|i| &self.specs[i])
    }

    /// Instantiates the model template `name` with constant arguments.
    pub fn instantiate(&self, name: &str, args: &[Value]) -> Result<ir::Automaton, String> {
        let (_, t) = self
            .templates
            .iter()
            .find(|(n, _)| n == name)
            .ok_or_else(|| format!("no model named `{}`", name))?;
        instantiate(&self.defs, t, name, args)
    }
}

fn instantiate(
    defs: &Defs,
    t: &Template,
    name: &str,
    args: &[Value],
) -> Result<ir::Automaton, String> {
    if args.len() != t.params.len() {
        return Err(format!(
            "model `{}` takes {} argument(s), {} given",
            name,
            t.params.len(),
            args.len()
        ));
    }
    for ((pn, pt), v) in t.params.iter().zip(args) {
        if !defs.contains(*pt, v) {
            return Err(format!(
                "argument {} for `{}` is not a value of `{}`",
                v.display(defs),
                pn,
                defs.type_name(*pt)
            ));
        }
    }
    let mut a = t.automaton.clone();
    if !args.is_empty() {
        a.name = format!(
            "{}({})",
            name,
            args.iter()
                .map(|v| v.display(defs).to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
    }
    let env = Env {
        vars: &[],
        params: &[],
        locals: args,
    };
    for (v, e) in a.vars.iter_mut().zip(&t.var_inits) {
        let val = defs
            .eval(e, &env)
            .map_err(|e| format!("initial value of `{}`: {}", v.name, e.message))?;
        if !defs.contains(v.ty, &val) {
            return Err(format!(
                "initial value {} of `{}` is not in `{}`",
                val.display(defs),
                v.name,
                defs.type_name(v.ty)
            ));
        }
        v.init = val;
    }
    if !args.is_empty() {
        for s in &mut a.switches {
            subst(&mut s.guard, args);
            for (_, e) in &mut s.assign {
                subst(e, args);
            }
        }
    }
    Ok(a)
}

/// Replaces model parameters (`Local`) by their values.
fn subst(e: &mut Expr, args: &[Value]) {
    match &mut e.kind {
        ExprKind::Local(i) => e.kind = ExprKind::Const(args[*i as usize].clone()),
        ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Param(_) => {}
        ExprKind::Unary(_, a)
        | ExprKind::Field(a, ..)
        | ExprKind::Is(a, ..)
        | ExprKind::Matches(a, _) => subst(a, args),
        ExprKind::Binary(_, a, b) => {
            subst(a, args);
            subst(b, args);
        }
        ExprKind::If(a, b, c) => {
            subst(a, args);
            subst(b, args);
            subst(c, args);
        }
        ExprKind::Ctor(_, _, xs) | ExprKind::Call(_, xs) | ExprKind::Builtin(_, xs) => {
            xs.iter_mut().for_each(|x| subst(x, args))
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Global {
    Adt(u32),
    Alias(Type),
    Ctor(u32, u32),
    Fn(u32),
    Model(usize),
    System(usize),
}

/// Names visible in an expression.
#[derive(Default)]
struct Scope<'a> {
    /// Switch parameters: name, type, span of the binder.
    params: Vec<(String, Type, Span)>,
    /// Location variables.
    vars: Option<&'a [(String, Type, Span)]>,
    /// Model or function parameters.
    locals: Vec<(String, Type, Span)>,
}

struct Checker<'a> {
    files: &'a [(u32, &'a ast::File)],
    main: u32,
    diags: Vec<Diagnostic>,
    globals: HashMap<String, (Global, Span)>,
    /// Types live in their own namespace (a record type may share its constructor's name).
    type_names: HashMap<String, (Global, Span)>,
    defs: Defs,
    fn_sigs: Vec<(Vec<(String, Type)>, Type)>,
    models: Vec<&'a ast::Item>,
    systems: Vec<&'a ast::Item>,
    templates: Vec<Option<Template>>,
    /// Counter for the hidden gates of `>>>` and loops.
    fresh: u32,
}

/// The location an automaton is in after `exit`.
const END_LOC: &str = "#end";

const KNOWN_ATTRS: [&str; 3] = ["timeout", "main", "sync"];

/// Checks the files (the first is the main file) and lowers them to a [`Program`].
pub fn check(files: &[(u32, &ast::File)]) -> Result<Program, Vec<Diagnostic>> {
    let mut c = Checker {
        files,
        main: files.first().map_or(0, |f| f.0),
        diags: Vec::new(),
        globals: HashMap::new(),
        type_names: HashMap::new(),
        defs: Defs::default(),
        fn_sigs: Vec::new(),
        models: Vec::new(),
        systems: Vec::new(),
        templates: Vec::new(),
        fresh: 0,
    };
    c.collect();
    c.types();
    c.functions();
    for i in 0..c.models.len() {
        let t = c.model(c.models[i]);
        c.templates.push(t);
    }
    let defs = Arc::new(std::mem::take(&mut c.defs));
    let mut specs = Vec::new();
    let mut entry = None;
    let mut last_main_file = None;
    // warnings for multi-actions a model alone never shows (reported for the entry point only:
    // other parameterless models are usually components of systems)
    let mut lone_multi: Vec<(Diagnostic, usize)> = Vec::new();
    // specs in source order: walk items again
    for (fid, f) in files {
        for item in &f.items {
            let is_main_attr = item.attrs.iter().any(|a| a.name.name == "main");
            let spec = match &item.kind {
                ItemKind::Model(m) if m.params.is_empty() => {
                    let idx = c
                        .models
                        .iter()
                        .position(|x| std::ptr::eq(*x, item))
                        .unwrap();
                    match &c.templates[idx] {
                        Some(t) => match instantiate(&defs, t, &m.name.name, &[]) {
                            Ok(a) => {
                                let mut gates = a.gates.clone();
                                let mut root = Composition::Leaf(0);
                                finish_root(&mut root, &mut gates);
                                let sync = c.sync_sets(&item.attrs, &gates);
                                for sw in a.switches.iter().filter(|sw| !sw.also.is_empty()) {
                                    let mut set: Vec<String> = std::iter::once(sw.gate)
                                        .flatten()
                                        .chain(sw.also.iter().copied())
                                        .map(|g| a.gates[g as usize].name.clone())
                                        .collect();
                                    set.sort();
                                    if !sync.contains(&set) {
                                        let list = set.join(" | ");
                                        lone_multi.push((
                                            Diagnostic::warning(
                                                "ioco::check::multi_action",
                                                format!("the multi-action `{}` can never happen", list),
                                                sw.span,
                                                "not shown by this model",
                                            )
                                            .help(format!("a model shows single gates only, unless `@sync` lists the set: add `@sync({})` before `model {}`, or compose the model with others that take part in this step", list, m.name.name)),
                                            specs.len(),
                                        ));
                                    }
                                }
                                Some(Spec {
                                    name: m.name.name.clone(),
                                    defs: defs.clone(),
                                    gates: sorted(gates),
                                    automata: vec![a],
                                    root,
                                    sync,
                                })
                            }
                            Err(msg) => {
                                c.diags.push(Diagnostic::error(
                                    "ioco::check::init",
                                    msg,
                                    m.name.span,
                                    "in this model",
                                ));
                                None
                            }
                        },
                        None => None,
                    }
                }
                ItemKind::Model(m) => {
                    if is_main_attr {
                        c.diags.push(
                            Diagnostic::error(
                                "ioco::check::main",
                                "a model with parameters cannot be the entry point",
                                m.name.span,
                                "has parameters",
                            )
                            .help("write a `system Main { Name(args) }` marked `@main` instead"),
                        );
                    }
                    None
                }
                ItemKind::System(s) => c.system(&defs, s, &item.attrs),
                _ => None,
            };
            if let Some(s) = spec {
                // `@main` counts in the main file only (imported files may have their own)
                if is_main_attr && *fid == c.main {
                    entry = Some(specs.len());
                }
                if *fid == c.main {
                    last_main_file = Some(specs.len());
                }
                specs.push(s);
            } else if matches!(item.kind, ItemKind::System(_)) && is_main_attr {
                entry = None;
            }
        }
    }
    let entry = entry.or(last_main_file);
    c.diags.extend(
        lone_multi
            .into_iter()
            .filter(|(_, i)| Some(*i) == entry)
            .map(|(d, _)| d),
    );
    let (errors, warnings): (Vec<_>, Vec<_>) = c.diags.into_iter().partition(|d| d.is_error());
    if !errors.is_empty() {
        let mut all = errors;
        all.extend(warnings);
        all.sort_by_key(|d| (d.span.file, d.span.start));
        return Err(all);
    }
    let templates = c
        .models
        .iter()
        .zip(c.templates)
        .filter_map(|(item, t)| match (&item.kind, t) {
            (ItemKind::Model(m), Some(t)) => Some((m.name.name.clone(), t)),
            _ => None,
        })
        .collect();
    Ok(Program {
        defs,
        templates,
        specs,
        entry,
        warnings,
    })
}

fn unparen(c: &ast::Comp) -> &ast::Comp {
    match &c.kind {
        CompKind::Paren(x) => unparen(x),
        _ => c,
    }
}

/// Hides the exit of the root: a system that has exited is simply stopped.
fn finish_root(root: &mut Composition, gates: &mut Vec<Gate>) {
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
fn add_sync(c: &mut Composition, gate: &str) {
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
fn rename_sync(c: &mut Composition, from: &str, to: &str) {
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
fn seq_first(a: &mut ir::Automaton, seq: &str, k: u32) {
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
fn seq_then(a: &mut ir::Automaton, seq: &str, k: u32) {
    let span = a.span;
    let sg = push_gate(a, seq, Direction::Input, span);
    let wait = push_location(a, format!("#wait{}", k), span);
    push_step(a, wait, sg, a.initial, span);
    a.initial = wait;
}

/// Adds a parameterless gate used by the lowering of `>>>`; its index.
fn push_gate(a: &mut ir::Automaton, name: &str, dir: Direction, span: Span) -> u32 {
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
fn push_location(a: &mut ir::Automaton, name: String, span: Span) -> u32 {
    a.locations.push(ir::Location {
        name,
        timeout: None,
        span,
    });
    (a.locations.len() - 1) as u32
}

/// Adds an unguarded switch `from -- gate --> to` without parameters or assignments.
fn push_step(a: &mut ir::Automaton, from: u32, gate: u32, to: u32, span: Span) {
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

fn sorted(mut gates: Vec<Gate>) -> Vec<Gate> {
    gates.sort_by(|a, b| a.name.cmp(&b.name));
    gates
}

fn dir_of(d: Dir) -> Direction {
    match d {
        Dir::Input => Direction::Input,
        Dir::Output => Direction::Output,
    }
}

fn dir_word(d: Direction) -> &'static str {
    match d {
        Direction::Input => "an input",
        Direction::Output => "an output",
    }
}

impl<'a> Checker<'a> {
    fn err(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn tn(&self, t: Type) -> String {
        self.defs.type_name(t)
    }

    // ----- globals -----

    fn declare(&mut self, name: &ast::Ident, g: Global) {
        let is_type = matches!(g, Global::Adt(_) | Global::Alias(_));
        let map = if is_type {
            &self.type_names
        } else {
            &self.globals
        };
        if let Some((_, prev)) = map.get(&name.name) {
            let prev = *prev;
            self.err(
                Diagnostic::error(
                    "ioco::check::duplicate",
                    format!("`{}` is declared twice", name.name),
                    name.span,
                    "second declaration",
                )
                .label(prev, "first declaration")
                .help(if is_type {
                    "types must have distinct names: rename one of them"
                } else {
                    "constructors, functions, models and systems share one namespace: rename one of them"
                }),
            );
        } else if is_type {
            self.type_names.insert(name.name.clone(), (g, name.span));
        } else {
            self.globals.insert(name.name.clone(), (g, name.span));
        }
    }

    fn collect(&mut self) {
        let files = self.files;
        for (_, f) in files {
            for item in &f.items {
                let allowed: &[&str] = match &item.kind {
                    ItemKind::Model(_) => &["main", "timeout", "sync"],
                    ItemKind::System(_) => &["main", "sync"],
                    _ => &[],
                };
                self.check_attrs(&item.attrs, allowed, item_kind_word(&item.kind));
                match &item.kind {
                    ItemKind::Type(t) => match &t.body {
                        ast::TypeBody::Alias(_) => self.declare(&t.name, Global::Alias(Type::Int)),
                        ast::TypeBody::Adt(ctors) => {
                            let id = self.defs.types.len() as u32;
                            self.defs.types.push(ir::AdtDef {
                                name: t.name.name.clone(),
                                ctors: Vec::new(),
                                span: t.name.span,
                            });
                            self.declare(&t.name, Global::Adt(id));
                            for (ci, c) in ctors.iter().enumerate() {
                                self.declare(&c.name, Global::Ctor(id, ci as u32));
                            }
                        }
                    },
                    ItemKind::Fn(fd) => {
                        let id = self.fn_sigs.len() as u32;
                        self.fn_sigs.push((Vec::new(), Type::Bool));
                        self.declare(&fd.name, Global::Fn(id));
                    }
                    ItemKind::Model(m) => {
                        self.declare(&m.name, Global::Model(self.models.len()));
                        self.models.push(item);
                    }
                    ItemKind::System(s) => {
                        self.declare(&s.name, Global::System(self.systems.len()));
                        self.systems.push(item);
                    }
                    ItemKind::Import(..) => {}
                }
            }
        }
    }

    fn check_attrs(&mut self, attrs: &[ast::Attr], allowed: &[&str], what: &str) {
        for a in attrs {
            let n = a.name.name.as_str();
            if !KNOWN_ATTRS.contains(&n) {
                let d = Diagnostic::error(
                    "ioco::check::attribute",
                    format!("unknown attribute `@{}`", n),
                    a.name.span,
                    "not a known attribute",
                )
                .help(match did_you_mean(n, KNOWN_ATTRS) {
                    Some(s) => format!("did you mean `@{}`?", s),
                    None => {
                        "known attributes: `@timeout(duration)`, `@main`, `@sync(a | b)`".into()
                    }
                });
                self.err(d);
            } else if !allowed.contains(&n) {
                self.err(
                    Diagnostic::error(
                        "ioco::check::attribute",
                        format!("`@{}` does not apply to {}", n, what),
                        a.span,
                        "misplaced attribute",
                    )
                    .help("`@timeout` goes on a model, a gate declaration or a `location` declaration; `@main` and `@sync` on a model or system"),
                );
            } else if n == "main" && !a.args.is_empty() {
                self.err(Diagnostic::error(
                    "ioco::check::attribute",
                    "`@main` takes no arguments",
                    a.span,
                    "remove the arguments",
                ));
            } else if n == "sync"
                && (a.args.is_empty()
                    || a.args
                        .iter()
                        .any(|x| !matches!(x, AttrArg::Gates(..) | AttrArg::Name(_))))
            {
                self.err(
                    Diagnostic::error(
                        "ioco::check::attribute",
                        "`@sync` takes sets of gates",
                        a.span,
                        "expected gate sets such as `a | b`",
                    )
                    .help("for example `@sync(a | b, a | b | c)`: each set may happen as one multi-action step"),
                );
            } else if n == "timeout" && !matches!(a.args.as_slice(), [AttrArg::Duration(..)]) {
                self.err(
                    Diagnostic::error(
                        "ioco::check::attribute",
                        "`@timeout` takes one duration",
                        a.span,
                        "expected one duration argument",
                    )
                    .help("for example `@timeout(500ms)`; units are us, ms, s, min"),
                );
            }
        }
    }

    fn timeout(attrs: &[ast::Attr]) -> Option<Duration> {
        attrs
            .iter()
            .find(|a| a.name.name == "timeout")
            .and_then(|a| match a.args.as_slice() {
                [AttrArg::Duration(us, _)] => Some(Duration::from_micros(*us)),
                _ => None,
            })
    }

    fn unknown(
        &mut self,
        what: &str,
        name: &ast::Ident,
        candidates: Vec<String>,
        extra: Option<String>,
    ) {
        let sugg = did_you_mean(&name.name, candidates.iter().map(String::as_str));
        let help = match (sugg, extra) {
            (Some(s), _) => Some(format!("did you mean `{}`?", s)),
            (None, e) => e,
        };
        self.err(
            Diagnostic::error(
                "ioco::check::unknown",
                format!("unknown {} `{}`", what, name.name),
                name.span,
                format!("no {} of this name", what),
            )
            .maybe_help(help),
        );
    }

    fn global_names(&self, pred: impl Fn(&Global) -> bool) -> Vec<String> {
        let mut v: Vec<String> = self
            .globals
            .iter()
            .filter(|(_, (g, _))| pred(g))
            .map(|(n, _)| n.clone())
            .collect();
        v.sort();
        v
    }

    // ----- types -----

    fn const_int(&mut self, e: &ast::Expr) -> Option<i64> {
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
    fn regex(&mut self, lit: &ast::RegexLit) -> Option<ir::RegexId> {
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

    fn ty(&mut self, t: &ast::TypeExpr) -> Option<Type> {
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

    fn types(&mut self) {
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
    fn inhabited(&mut self, declared: &[(u32, Span)]) {
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

    fn functions(&mut self) {
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

    fn mismatch(
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

    fn expr(&mut self, e: &ast::Expr, sc: &Scope) -> Option<Expr> {
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

    fn expect_type(
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

    // ----- models -----

    fn model(&mut self, item: &ast::Item) -> Option<Template> {
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
    fn switch(
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

    // ----- systems -----

    fn system(&mut self, defs: &Arc<Defs>, s: &ast::System, attrs: &[ast::Attr]) -> Option<Spec> {
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
    fn sync_sets(&mut self, attrs: &[ast::Attr], gates: &[Gate]) -> Vec<Vec<String>> {
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
    fn system_body(
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

    fn comp(
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

    fn defs_eval(&mut self, defs: &Defs, x: &Expr) -> Option<Value> {
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

fn item_kind_word(k: &ItemKind) -> &'static str {
    match k {
        ItemKind::Import(..) => "an import",
        ItemKind::Type(_) => "a type",
        ItemKind::Fn(_) => "a function",
        ItemKind::Model(_) => "a model",
        ItemKind::System(_) => "a system",
    }
}

fn global_word(g: &Global) -> &'static str {
    match g {
        Global::Adt(_) | Global::Alias(_) => "a type",
        Global::Ctor(..) => "a constructor",
        Global::Fn(_) => "a function",
        Global::Model(_) => "a model",
        Global::System(_) => "a system",
    }
}
