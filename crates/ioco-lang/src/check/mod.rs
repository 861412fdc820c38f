//! Name resolution, type checking and lowering of the syntax tree to the [`crate::ir`].
//!
//! All files (the main file and its imports) share one global namespace of types,
//! constructors, functions, models and systems. Inside a model, names are looked up in this
//! order: switch parameters, location variables, model parameters, nullary constructors.
//! Every unknown name gets a "did you mean" from the names in scope; every type mismatch points
//! at both the offending expression and the declaration that fixed the expected type.
//!
//! One job per file: this one holds the checker's state, the global namespace (collection of
//! declarations, attributes, "did you mean") and the entry point [`check`]; `types.rs` checks
//! types, functions and expressions; `model.rs` lowers a model to an automaton template;
//! `system.rs` lowers process terms (composition, hiding, renaming, `>>>`) to a composition.

use crate::ast::{
    self, Arg, AttrArg, BinOp, CompKind, Dir, ExprKind as AK, ItemKind, MemberKind, ParOp, UnOp,
};
use crate::diag::{did_you_mean, Diagnostic};
use crate::ir::{self, Composition, Defs, Direction, Env, Expr, ExprKind, Gate, Spec, Type, Value};
use crate::span::Span;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

mod model;
mod system;
mod types;

use system::finish_root;

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
