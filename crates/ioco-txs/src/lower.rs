//! The lowering of a TorXakis model ([`crate::ast`]) into the syntax tree of the `.ioco`
//! language ([`ioco_lang::ast`]), which the `.ioco` checker turns into the one IR.
//!
//! TorXakis semantics followed (TorXakis user manual; Tretmans, *Model-based testing with
//! labelled transition systems*, 2008, §3 for the process operators):
//!
//! * `TYPEDEF` → `type` (algebraic data types, records, recursive types); `FUNCDEF` → `fn`;
//!   `CONSTDEF` constants are substituted where they are used; `isC(x)` → `x is C`, the accessor
//!   `f(x)` → `x.f`, `not(x)` → `!x`, `/\` `\/` `<>` → `&&` `||` `!=`; value `LET` is
//!   substituted.
//! * A **sequential process** (one built from action prefix `>->`, choice `##`, guards `=>>`,
//!   `STOP`, `EXIT`, `LET` and calls of sequential processes) becomes one `model`: a location per
//!   behaviour reached after an action, a location variable per value the rest of the behaviour
//!   reads (process parameters and the variables bound by `?x`), assigned on the switch that
//!   enters the location; a call in tail position jumps to the callee's location with its
//!   parameters assigned; a call in a choice contributes the callee's first actions with the
//!   arguments substituted. Variables the target location does not read are reset to a default
//!   value, so that a state is its location and the values still needed (no stale data).
//! * A **structural process** (`|||`, `||`, `|[G]|`, `HIDE`, `>>>`) becomes a composition in a
//!   `system`: its calls are inlined with their channel arguments; the one recursion allowed is
//!   TorXakis's loop `p ::= B >>> p` (the `.ioco` loop `system p { B >>> p }`). Values passed
//!   on `EXIT` to `B >>> ACCEPT ? x IN C NI` are computed at import and substituted in `C`
//!   (module `exit`), so that `p(v) ::= B >>> ACCEPT ? w IN p(w) NI` is a loop too.
//! * A composition started with values computed at run time, or met in a choice, makes the
//!   whole behaviour **one model, the product of its parts** (module `product`), `>>>` exit
//!   values bound at run time; a recursion through `|||` (a process that creates processes)
//!   keeps its pending copies in a bag variable there.
//! * Channel directions come from the `MODELDEF`'s `CHAN IN` (inputs of the SUT) and `CHAN OUT`
//!   (its outputs); hidden channels are outputs of every process using them (they synchronise
//!   and become τ).
//! * `MODELDEF` → `system` (the first one is the entry point `@main`), with `SYNC` as `@sync`;
//!   `STAUTDEF` → `model`; `PURPDEF`'s goals → one purpose model each (`HIT` → a location
//!   `accept…`, `MISS` → `refuse…`); `CNECTDEF`s are kept for the adapter ([`Lowered::cnects`]).
//!
//! What cannot be lowered is reported with the TorXakis construct named, at its `file:line:col`,
//! with a hint where a workaround exists — never silently changed.

use crate::ast::{self as t, BKind, VKind};
use ioco_lang::ast::{self as o, Ident};
use ioco_lang::{Diagnostic, Span};
use seq::SeqBuilder;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

mod exit;
mod multi_exit;
mod product;
mod seq;

/// The result of lowering.
#[derive(Clone, Debug, Default)]
pub struct Lowered {
    /// The `.ioco` syntax tree (spans point into the `.txs` files).
    pub file: o::File,
    /// The models (`MODELDEF`), in order: TorXakis name, `.ioco` system name, inputs, outputs.
    pub models: Vec<ModelInfo>,
    /// The `PURPDEF` goals lowered to purpose models: (purpose, goal, `.ioco` model name).
    pub goals: Vec<(String, String, String)>,
    /// The connections (`CNECTDEF`), as written.
    pub cnects: Vec<t::CnectDef>,
    /// Notes on constructs whose lowering lost information (for `ioco translate`):
    /// where, and what.
    pub notes: Vec<(Span, String)>,
    /// Warnings: definitions left out (see [`lower`]).
    pub warnings: Vec<Diagnostic>,
    /// The `CONSTDEF` constants that are string literals (the separators `ENCODE`s use).
    pub string_consts: BTreeMap<String, String>,
    /// Constructors renamed because TorXakis overloads them (`Nil` of two list types):
    /// `.ioco` name → TorXakis name (the adapter writes and reads TorXakis's names).
    pub renamed_ctors: BTreeMap<String, String>,
}

/// A lowered `MODELDEF`.
#[derive(Clone, Debug)]
pub struct ModelInfo {
    /// Its TorXakis name.
    pub txs_name: String,
    /// The name of the `system` it became.
    pub ioco_name: String,
    /// `CHAN IN` (the SUT's inputs).
    pub inputs: Vec<String>,
    /// `CHAN OUT` (the SUT's outputs).
    pub outputs: Vec<String>,
}

/// Lowers the definitions of several `.txs` files (one namespace, as TorXakis loads them).
pub fn lower(files: &[&t::File]) -> Result<Lowered, Vec<Diagnostic>> {
    lower_with(files, false)
}

/// [`lower`]; with `one_automaton`, a `MODELDEF` whose behaviour is a composition (`|||`,
/// `|[G]|`, `>>>`, …) is lowered as **one** sequential model, the product of its parts
/// (module `product`, the exact unfolding a `GOAL` gets), as symbolic test purposes need
/// the specification; where that product cannot be built, the composition is kept.
pub fn lower_with(files: &[&t::File], one_automaton: bool) -> Result<Lowered, Vec<Diagnostic>> {
    // `A ? x | EXIT ? y` on the left of `>>>` first becomes `A ? x >-> EXIT ! e` (`multi_exit`)
    let mut moved = Vec::new();
    let owned: Vec<t::File> = files
        .iter()
        .map(|f| {
            let mut f = (*f).clone();
            for d in &mut f.defs {
                match d {
                    t::Def::Proc(p) => multi_exit::rewrite(&mut p.body, &mut moved),
                    t::Def::Model(m) => multi_exit::rewrite(&mut m.behaviour, &mut moved),
                    t::Def::Purp(p) => {
                        for (_, g) in &mut p.goals {
                            multi_exit::rewrite(g, &mut moved);
                        }
                    }
                    _ => {}
                }
            }
            f
        })
        .collect();
    let files: Vec<&t::File> = owned.iter().collect();
    let files = files.as_slice();
    let mut l = Lowerer {
        one_automaton,
        ..Lowerer::default()
    };
    for at in moved {
        l.out.notes.push((
            at,
            "this `EXIT` of a multi-action exits after the action (`A ? x >-> EXIT ! e`): `>>>` makes the exit an internal step, the same specification for ioco".into(),
        ));
    }
    for f in files {
        for d in &f.defs {
            l.collect(d);
        }
    }
    if !l.diags.is_empty() {
        return Err(l.diags);
    }
    l.run(files);
    if l.diags.iter().any(|d| d.is_error()) {
        Err(l.diags)
    } else {
        Ok(l.out)
    }
}

/// How deep calls of composed processes are inlined (recursion with constant arguments that
/// decrease, such as `parallelN(n) ::= p ||| [[n > 1]] =>> parallelN(n - 1)`).
const MAX_INLINE: usize = 64;

/// A composition a sequential model continues with (after its `exit`): the behaviour, its
/// channels and its (constant) values.
type Cont<'a> = (&'a t::BExpr, GEnv, Scope);

const IOCO_KEYWORDS: &[&str] = &[
    "model", "system", "type", "fn", "import", "input", "output", "var", "init", "location", "tau",
    "hide", "in", "if", "then", "else", "true", "false", "int", "bool", "is", "string", "exit",
];

/// A TorXakis name as a `.ioco` name (a `.ioco` keyword gets a `_`): the gate names of the
/// lowered model are the channels' names through this.
pub fn safe(name: &str) -> String {
    if IOCO_KEYWORDS.contains(&name) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

/// [`safe`] of an identifier.
fn safe_id(i: &Ident) -> Ident {
    Ident {
        name: safe(&i.name),
        span: i.span,
    }
}

fn ident(name: impl Into<String>, span: Span) -> Ident {
    Ident {
        name: name.into(),
        span,
    }
}

fn ex(kind: o::ExprKind, span: Span) -> o::Expr {
    o::Expr { kind, span }
}

fn name_expr(name: &str, span: Span) -> o::Expr {
    ex(o::ExprKind::Name(ident(name, span)), span)
}

/// Wraps `e` in parentheses when it is an operator application or a conditional, so that the
/// tree prints as it is structured.
fn paren(e: o::Expr) -> o::Expr {
    match e.kind {
        o::ExprKind::Binary(..)
        | o::ExprKind::If(..)
        | o::ExprKind::Unary(..)
        | o::ExprKind::Is(..) => {
            let span = e.span;
            ex(o::ExprKind::Paren(Box::new(e)), span)
        }
        _ => e,
    }
}

fn and(a: o::Expr, b: o::Expr) -> o::Expr {
    let span = a.span;
    ex(
        o::ExprKind::Binary(o::BinOp::And, Box::new(paren(a)), Box::new(paren(b))),
        span,
    )
}

/// A channel as seen inside a process: its `.ioco` gate name, direction and sorts.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Gate {
    name: String,
    input: bool,
    sorts: Vec<String>,
}

type GEnv = BTreeMap<String, Gate>;

/// A value in scope: its `.ioco` expression in the current context and its TorXakis sort.
#[derive(Clone, Debug)]
struct Val {
    expr: o::Expr,
    sort: String,
}

type Scope = BTreeMap<String, Val>;

/// What lowering a definition adds, to take it back when the definition fails.
struct Snapshot<'a> {
    items: usize,
    models: usize,
    goals: usize,
    notes: usize,
    globals: HashSet<String>,
    seq_models: HashMap<String, String>,
    loops: HashMap<String, String>,
    conts: HashMap<String, Cont<'a>>,
    hidden_in_model: HashMap<String, Vec<String>>,
}

#[derive(Default)]
struct Lowerer<'a> {
    types: HashMap<String, &'a t::TypeDef>,
    /// Constructors by name: (type, declaration) for each type defining one of that name.
    ctors: HashMap<String, Vec<(String, &'a t::CtorDecl)>>,
    /// (TorXakis type, constructor) → `.ioco` constructor name (renamed when overloaded).
    ctor_names: HashMap<(String, String), String>,
    /// The sort the context expects of the value expression about to be lowered (set by
    /// `vexpr_as`, taken by `vexpr`): it chooses among overloaded constructors.
    expect: Option<String>,
    fields: HashMap<String, String>,
    /// Functions by name (TorXakis overloads them by their parameters' sorts).
    funcs: HashMap<String, Vec<&'a t::FuncDef>>,
    consts: HashMap<String, &'a t::ConstDef>,
    procs: HashMap<String, &'a t::ProcDef>,
    stauts: HashMap<String, &'a t::StAutDef>,
    chans: HashMap<String, &'a t::ChanDecl>,
    /// Names used at the top level of the `.ioco` file.
    globals: HashSet<String>,
    /// TorXakis function → `.ioco` function name.
    fn_names: HashMap<*const t::FuncDef, String>,
    /// TorXakis type → `.ioco` type name.
    type_names: HashMap<String, String>,
    /// Sequential models made so far: (process, gates, arguments) → model name.
    seq_models: HashMap<String, String>,
    /// Structural loops being lowered: (process, gates) → system name.
    loops: HashMap<String, String>,
    /// Processes being inlined (recursion check).
    stack: Vec<String>,
    /// Loops whose recursive call was met while lowering their body.
    loop_used: HashSet<String>,
    /// The gates of every model and system made.
    item_gates: HashMap<String, BTreeSet<String>>,
    /// Continuations of sequential models: model name → the composition it ends in.
    conts: HashMap<String, Cont<'a>>,
    out: Lowered,
    diags: Vec<Diagnostic>,
    /// Depth of value-expression lowering (bounded).
    depth: u32,
    /// True while lowering the left side of `>>> ACCEPT`, whose exit values were computed at
    /// import and substituted on the right (see `exit`): its `EXIT ! e` are plain exits.
    exit_passed: bool,
    /// Set by the sequential builder when the behaviour needs the product of its parts
    /// (a composition started with run-time values, or in a choice): see `product`.
    needs_product: bool,
    /// Continuations found to lead back to their model (a process that creates processes):
    /// the model is made again as a product (`product`).
    recreate: HashSet<String>,
    /// Set by `exit_values` when an `EXIT` value is received at run time (its span).
    exit_dyn: Option<Span>,
    /// Set before `seq_model` to make the behaviour the product of its parts at once.
    force_product: bool,
    /// Default values of the types made by the lowering (the bags of `product`).
    extra_defaults: HashMap<String, o::Expr>,
    /// The gates a product model hides (`HIDE` inside it): its instances are wrapped in `hide`.
    hidden_in_model: HashMap<String, Vec<String>>,
    /// A composed `MODELDEF` is lowered as one sequential model ([`lower_with`]).
    one_automaton: bool,
}

fn sort_text(s: &t::Sort) -> String {
    s.name.clone()
}

impl<'a> Lowerer<'a> {
    fn error(&mut self, code: &'static str, msg: impl Into<String>, span: Span, label: &str) {
        self.diags
            .push(Diagnostic::error(code, msg.into(), span, label.to_string()));
    }

    fn error_help(
        &mut self,
        code: &'static str,
        msg: impl Into<String>,
        span: Span,
        label: &str,
        help: impl Into<String>,
    ) {
        self.diags
            .push(Diagnostic::error(code, msg.into(), span, label.to_string()).help(help.into()));
    }

    fn unsupported(&mut self, what: &str, span: Span, help: &str) {
        self.error_help(
            "ioco::txs::unsupported",
            format!("{} cannot be imported yet", what),
            span,
            "not supported",
            help,
        );
    }

    /// A fresh top-level `.ioco` name based on `want`.
    fn global(&mut self, want: &str) -> String {
        let mut base = want.to_string();
        if IOCO_KEYWORDS.contains(&base.as_str()) {
            base.push('_');
        }
        let mut name = base.clone();
        let mut k = 2;
        while self.globals.contains(&name) {
            name = format!("{}_{}", base, k);
            k += 1;
        }
        self.globals.insert(name.clone());
        name
    }

    fn collect(&mut self, d: &'a t::Def) {
        fn dup<T>(
            l: &mut Vec<Diagnostic>,
            map: &HashMap<String, T>,
            name: &Ident,
            what: &str,
        ) -> bool {
            if map.contains_key(&name.name) {
                l.push(
                    Diagnostic::error(
                        "ioco::txs::duplicate",
                        format!("{} `{}` is defined twice", what, name.name),
                        name.span,
                        "defined again here",
                    )
                    .help("TorXakis reads all files into one namespace: rename one of them, or load fewer files"),
                );
                return true;
            }
            false
        }
        match d {
            t::Def::Type(td) => {
                if !dup(&mut self.diags, &self.types, &td.name, "type") {
                    self.types.insert(td.name.name.clone(), td);
                    for c in &td.ctors {
                        let same_type = self
                            .ctors
                            .get(&c.name.name)
                            .and_then(|cs| cs.iter().find(|(ty, _)| *ty == td.name.name));
                        if let Some((_, prev)) = same_type {
                            let at = prev.name.span;
                            self.diags.push(
                                Diagnostic::error(
                                    "ioco::txs::duplicate",
                                    format!(
                                        "constructor `{}` is defined twice in `{}`",
                                        c.name.name, td.name.name
                                    ),
                                    c.name.span,
                                    "defined again here",
                                )
                                .label(at, "first defined here")
                                .help("rename one of them"),
                            );
                            continue;
                        }
                        // TorXakis overloads constructors across types (`Nil` of every list
                        // type) and tells them apart by the sort the context expects; so does
                        // the lowering (`ctor`), renaming all but the first for `.ioco`
                        self.ctors
                            .entry(c.name.name.clone())
                            .or_default()
                            .push((td.name.name.clone(), c));
                        for f in &c.fields {
                            self.fields
                                .insert(f.name.name.clone(), td.name.name.clone());
                        }
                    }
                }
            }
            t::Def::Func(fd) => {
                let sorts = |f: &t::FuncDef| -> Vec<String> {
                    f.params.iter().map(|p| p.sort.name.clone()).collect()
                };
                let same = self
                    .funcs
                    .get(&fd.name.name)
                    .is_some_and(|fs| fs.iter().any(|g| sorts(g) == sorts(fd)));
                if same {
                    self.diags.push(
                        Diagnostic::error(
                            "ioco::txs::duplicate",
                            format!(
                                "function `{}({})` is defined twice",
                                fd.name.name,
                                sorts(fd).join(", ")
                            ),
                            fd.name.span,
                            "defined again here",
                        )
                        .help("TorXakis reads all files into one namespace: rename one of them, or load fewer files"),
                    );
                } else {
                    self.funcs.entry(fd.name.name.clone()).or_default().push(fd);
                }
            }
            t::Def::Const(cs) => {
                for c in cs {
                    if !dup(&mut self.diags, &self.consts, &c.name, "constant") {
                        if let VKind::Str(text) = &c.value.kind {
                            self.out
                                .string_consts
                                .insert(c.name.name.clone(), text.clone());
                        }
                        self.consts.insert(c.name.name.clone(), c);
                    }
                }
            }
            t::Def::Proc(p) => {
                if !dup(&mut self.diags, &self.procs, &p.name, "process") {
                    self.procs.insert(p.name.name.clone(), p);
                }
            }
            t::Def::StAut(s) => {
                if !dup(&mut self.diags, &self.stauts, &s.name, "state automaton") {
                    self.stauts.insert(s.name.name.clone(), s);
                }
            }
            t::Def::Chan(cd) => {
                for c in &cd.chans {
                    if !dup(&mut self.diags, &self.chans, &c.name, "channel") {
                        self.chans.insert(c.name.name.clone(), c);
                    }
                }
            }
            t::Def::Model(_) | t::Def::Purp(_) | t::Def::Mapper(_) => {}
            t::Def::Cnect(c) => self.out.cnects.push(c.clone()),
        }
    }

    fn run(&mut self, files: &[&'a t::File]) {
        // types first (their names are needed by everything else), then functions
        let mut types: Vec<&t::TypeDef> = self.types.values().copied().collect();
        types.sort_by_key(|t| (t.span.file, t.span.start));
        for td in &types {
            let n = self.global(&td.name.name);
            self.type_names.insert(td.name.name.clone(), n);
        }
        // constructors: the first of a name keeps it, one that overloads it is renamed
        // `{ctor}_{type}` (`.ioco` constructors share one namespace)
        for td in &types {
            for c in &td.ctors {
                let first = self.ctors[&c.name.name][0].0 == td.name.name;
                let n = if first {
                    self.globals.insert(c.name.name.clone());
                    safe(&c.name.name)
                } else {
                    let n = self.global(&format!("{}_{}", c.name.name, td.name.name));
                    self.out
                        .renamed_ctors
                        .insert(n.clone(), c.name.name.clone());
                    self.out.notes.push((
                        c.name.span,
                        format!(
                            "constructor `{}` of `{}` is `{}` here: TorXakis overloads constructors, `.ioco` does not",
                            c.name.name, td.name.name, n
                        ),
                    ));
                    n
                };
                self.ctor_names
                    .insert((td.name.name.clone(), c.name.name.clone()), n);
            }
        }
        for td in &types {
            let mut ctors = Vec::new();
            for c in &td.ctors {
                let mut fields = Vec::new();
                for f in &c.fields {
                    if let Some(ty) = self.type_expr(&f.sort) {
                        fields.push(o::Param {
                            name: safe_id(&f.name),
                            ty,
                        });
                    }
                }
                let name = self.ctor_names[&(td.name.name.clone(), c.name.name.clone())].clone();
                ctors.push(o::Ctor {
                    name: ident(name, c.name.span),
                    fields,
                });
            }
            let name = ident(self.type_names[&td.name.name].clone(), td.name.span);
            self.push_item(
                o::ItemKind::Type(o::TypeDef {
                    name,
                    body: o::TypeBody::Adt(ctors),
                }),
                td.span,
                Vec::new(),
            );
        }
        let mut funcs: Vec<&t::FuncDef> = self.funcs.values().flatten().copied().collect();
        funcs.sort_by_key(|f| (f.span.file, f.span.start));
        for f in &funcs {
            let n = if f.name.name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                self.global(&f.name.name)
            } else {
                self.global("op")
            };
            self.fn_names.insert(*f as *const t::FuncDef, n);
        }
        for f in &funcs {
            self.func(f);
        }
        // A MODELDEF (or a goal) that cannot be lowered is left out with a warning when others
        // of the files can be: the file loads, and the warning names the construct.
        let mut first = true;
        let mut any_ok = false;
        let mut failed: Vec<(String, Vec<Diagnostic>)> = Vec::new();
        for file in files {
            for d in &file.defs {
                let snap = self.snapshot();
                let n = self.diags.len();
                let what = match d {
                    t::Def::Model(m) => {
                        if self.modeldef(m, first, false) {
                            first = false;
                        }
                        format!("MODELDEF {}", m.name.name)
                    }
                    t::Def::Mapper(m) => {
                        // ioco has no mappers: the adapter turns actions into lines
                        self.out.warnings.push(
                            Diagnostic::warning(
                                "ioco::txs::left_out",
                                format!("MAPPERDEF {} is left out: ioco does not map actions between a model and its adapter", m.name.name),
                                m.name.span,
                                "not imported",
                            )
                            .help("test the MODELDEF; the CNECTDEF's ENCODE/DECODE turn its actions into lines"),
                        );
                        continue;
                    }
                    t::Def::Purp(p) => {
                        self.purpdef(p);
                        format!("PURPDEF {}", p.name.name)
                    }
                    _ => continue,
                };
                if self.diags.len() > n {
                    let ds = self.diags.split_off(n);
                    self.restore(snap);
                    failed.push((what, ds));
                } else {
                    any_ok = true;
                }
            }
        }
        for (what, ds) in failed {
            if !any_ok {
                self.diags.extend(ds);
                continue;
            }
            let Some(e) = ds.iter().find(|d| d.is_error()) else {
                continue;
            };
            let mut w = Diagnostic::warning(
                "ioco::txs::left_out",
                format!("{} is left out: {}", what, e.message),
                e.span,
                "cannot be imported",
            );
            w =
                w.help(format!(
                "{}the other definitions of the files load; `--deny-warnings` makes this an error",
                e.help.as_ref().map(|h| format!("{h}; ")).unwrap_or_default()
            ));
            self.out.warnings.push(w);
        }
    }

    fn snapshot(&self) -> Snapshot<'a> {
        Snapshot {
            items: self.out.file.items.len(),
            models: self.out.models.len(),
            goals: self.out.goals.len(),
            notes: self.out.notes.len(),
            globals: self.globals.clone(),
            seq_models: self.seq_models.clone(),
            loops: self.loops.clone(),
            conts: self.conts.clone(),
            hidden_in_model: self.hidden_in_model.clone(),
        }
    }

    fn restore(&mut self, s: Snapshot<'a>) {
        self.out.file.items.truncate(s.items);
        self.out.models.truncate(s.models);
        self.out.goals.truncate(s.goals);
        self.out.notes.truncate(s.notes);
        self.globals = s.globals;
        self.seq_models = s.seq_models;
        self.loops = s.loops;
        self.conts = s.conts;
        self.hidden_in_model = s.hidden_in_model;
        self.stack.clear();
        self.loop_used.clear();
    }

    fn push_item(&mut self, kind: o::ItemKind, span: Span, attrs: Vec<o::Attr>) {
        match &kind {
            o::ItemKind::Model(m) => {
                let mut gs = BTreeSet::new();
                for mem in &m.members {
                    if let o::MemberKind::Gates(_, decls) = &mem.kind {
                        gs.extend(decls.iter().map(|d| d.name.name.clone()));
                    }
                }
                self.item_gates.insert(m.name.name.clone(), gs);
            }
            o::ItemKind::System(sy) => {
                let gs = self.comp_gates(&sy.body);
                self.item_gates.insert(sy.name.name.clone(), gs);
            }
            _ => {}
        }
        self.out.file.items.push(o::Item { attrs, kind, span });
    }

    /// The gates of a composition (its components' gates, less the hidden ones).
    fn comp_gates(&self, c: &o::Comp) -> BTreeSet<String> {
        match &c.kind {
            o::CompKind::Inst(n, _) => self.item_gates.get(&n.name).cloned().unwrap_or_default(),
            o::CompKind::Par(_, a, b) | o::CompKind::Seq(a, b) => {
                let mut g = self.comp_gates(a);
                g.extend(self.comp_gates(b));
                g
            }
            o::CompKind::Hide(hs, x) => {
                let mut g = self.comp_gates(x);
                for h in hs {
                    g.remove(&h.name);
                }
                g
            }
            o::CompKind::Rename(x, _) | o::CompKind::Paren(x) => self.comp_gates(x),
        }
    }

    /// A process with the gate `g` that never uses it: composed with a side of `|[G]|` that
    /// lacks `g`, it blocks `g` on the other side, as TorXakis's synchronisation does.
    fn blocker(&mut self, g: &Gate, sp: Span) -> o::Comp {
        let want = format!("never_{}", g.name);
        self.inert(
            format!("block {:?}", g),
            &want,
            "never",
            std::slice::from_ref(g),
            sp,
        )
    }

    /// An instance of a model with `gates` and one location `loc`, no switch (made once per
    /// `key`): `STOP`, or the blocker of a channel.
    fn inert(&mut self, key: String, want: &str, loc: &str, gates: &[Gate], sp: Span) -> o::Comp {
        let name = match self.seq_models.get(&key) {
            Some(n) => n.clone(),
            None => {
                let n = self.global(want);
                self.seq_models.insert(key, n.clone());
                let mut members = Vec::new();
                self.gate_members(gates, sp, &mut members);
                members.push(member(o::MemberKind::Init(ident(loc, sp)), sp));
                members.push(member(o::MemberKind::Locations(vec![ident(loc, sp)]), sp));
                self.push_item(
                    o::ItemKind::Model(o::Model {
                        name: ident(n.clone(), sp),
                        params: Vec::new(),
                        members,
                        end: sp,
                    }),
                    sp,
                    Vec::new(),
                );
                n
            }
        };
        o::Comp {
            kind: o::CompKind::Inst(ident(name, sp), Vec::new()),
            span: sp,
        }
    }

    // ----- data -------------------------------------------------------------------------------

    fn type_expr(&mut self, s: &t::Sort) -> Option<o::TypeExpr> {
        let kind = match s.name.as_str() {
            "Int" => o::TypeExprKind::Int(None),
            "Bool" => o::TypeExprKind::Bool,
            "String" => o::TypeExprKind::Str(None, None),
            n => match self.type_names.get(n) {
                Some(m) => o::TypeExprKind::Named(ident(m.clone(), s.span)),
                None => {
                    let mut cands: Vec<&str> = self.types.keys().map(|k| k.as_str()).collect();
                    cands.extend(["Int", "Bool", "String"]);
                    cands.sort();
                    self.error_help(
                        "ioco::txs::unknown_sort",
                        format!("unknown sort `{}`", n),
                        s.span,
                        "not a sort",
                        format!("the sorts are {}; or give the file that defines it with `--with FILE` (TorXakis loads several files together)", cands.join(", ")),
                    );
                    return None;
                }
            },
        };
        Some(o::TypeExpr { kind, span: s.span })
    }

    fn func(&mut self, f: &'a t::FuncDef) {
        let mut params = Vec::new();
        let mut scope = Scope::new();
        for p in &f.params {
            let Some(ty) = self.type_expr(&p.sort) else {
                return;
            };
            params.push(o::Param {
                name: safe_id(&p.name),
                ty,
            });
            scope.insert(
                p.name.name.clone(),
                Val {
                    expr: name_expr(&safe(&p.name.name), p.name.span),
                    sort: sort_text(&p.sort),
                },
            );
        }
        let Some(ret) = self.type_expr(&f.ret) else {
            return;
        };
        let Some(body) = self.vexpr_as(&f.body, &scope, &f.ret.name) else {
            return;
        };
        let name = ident(
            self.fn_names[&(f as *const t::FuncDef)].clone(),
            f.name.span,
        );
        self.push_item(
            o::ItemKind::Fn(o::FnDef {
                name,
                params,
                ret,
                body,
            }),
            f.span,
            Vec::new(),
        );
    }

    /// The sort of a value expression, where it can be told without a full type checker.
    fn sort_of(&self, e: &t::VExpr, scope: &Scope) -> Option<String> {
        match &e.kind {
            VKind::Int(_) => Some("Int".into()),
            VKind::Bool(_) => Some("Bool".into()),
            VKind::Str(_) => Some("String".into()),
            VKind::Regex(_) => Some("Regex".into()),
            VKind::Name(n) => scope
                .get(&n.name)
                .map(|v| v.sort.clone())
                .or_else(|| self.consts.get(&n.name).map(|c| sort_text(&c.sort)))
                .or_else(|| match self.ctor(&n.name, None, Some(&[]), scope) {
                    Some(Ok((ty, _))) => Some(ty),
                    _ => None,
                }),
            VKind::Call(f, args) => {
                if let Ok(Some(fd)) = self.resolve_fn(&f.name, args, scope) {
                    return Some(sort_text(&fd.ret));
                }
                match self.ctor(&f.name, None, Some(args), scope) {
                    Some(Ok((ty, _))) => return Some(ty),
                    Some(Err(_)) => return None,
                    None => {}
                }
                if f.name == "not" || f.name.starts_with("is") || f.name == "strinre" {
                    return Some("Bool".into());
                }
                // an accessor: the field of the argument's type (field names repeat across types)
                let arg_ty = match args.as_slice() {
                    [a] => self.sort_of(a, scope),
                    _ => None,
                };
                let field_ty = arg_ty
                    .filter(|t| {
                        self.types.get(t).is_some_and(|td| {
                            td.ctors
                                .iter()
                                .any(|c| c.fields.iter().any(|fl| fl.name.name == f.name))
                        })
                    })
                    .or_else(|| self.fields.get(&f.name).cloned());
                if let Some(ty) = field_ty {
                    let ty = self.types.get(&ty)?;
                    for c in &ty.ctors {
                        if let Some(fl) = c.fields.iter().find(|fl| fl.name.name == f.name) {
                            return Some(sort_text(&fl.sort));
                        }
                    }
                }
                match f.name.as_str() {
                    "len" | "abs" => Some("Int".into()),
                    "at" | "takeWhile" | "takeWhileNot" | "dropWhile" | "dropWhileNot"
                    | "toString" => Some("String".into()),
                    _ => {
                        let _ = args;
                        None
                    }
                }
            }
            VKind::Unary(_, x) => self.sort_of(x, scope),
            VKind::Binary(op, a, _) => match op.name.as_str() {
                "+" | "-" | "*" | "/" | "%" => Some("Int".into()),
                "++" => Some("String".into()),
                "==" | "<>" | "<" | "<=" | ">" | ">=" | "/\\" | "\\/" | "=>" => Some("Bool".into()),
                _ => self
                    .funcs
                    .get(&op.name)
                    .and_then(|fs| fs.first())
                    .map(|f| sort_text(&f.ret))
                    .or_else(|| self.sort_of(a, scope)),
            },
            VKind::If(_, a, b) => self.sort_of(a, scope).or_else(|| self.sort_of(b, scope)),
            VKind::Let(binds, body) => {
                let mut sc = scope.clone();
                for (n, s, v) in binds {
                    let sort = s
                        .as_ref()
                        .map(sort_text)
                        .or_else(|| self.sort_of(v, scope))
                        .unwrap_or_default();
                    sc.insert(
                        n.name.clone(),
                        Val {
                            expr: name_expr(&n.name, n.span),
                            sort,
                        },
                    );
                }
                self.sort_of(body, &sc)
            }
            VKind::Typed(_, s) => Some(sort_text(s)),
        }
    }

    /// The constructor `name(args)` means: `None` when no type has one of that name; else the
    /// only one, or, when TorXakis overloads the name, the one of the sort the context
    /// expects, else the only one whose fields fit the arguments' sorts (`args`: `None` for a
    /// test `isC(x)`, which has none) (`Err`: the types still in question).
    fn ctor(
        &self,
        name: &str,
        expect: Option<&str>,
        args: Option<&[t::VExpr]>,
        scope: &Scope,
    ) -> Option<Result<(String, &'a t::CtorDecl), Vec<String>>> {
        let cs = self.ctors.get(name)?;
        if let [c] = cs.as_slice() {
            return Some(Ok(c.clone()));
        }
        if let Some(c) = cs.iter().find(|c| Some(c.0.as_str()) == expect) {
            return Some(Ok(c.clone()));
        }
        let Some(args) = args else {
            return Some(Err(cs.iter().map(|c| c.0.clone()).collect()));
        };
        let sorts: Vec<Option<String>> = args.iter().map(|a| self.sort_of(a, scope)).collect();
        let fits: Vec<&(String, &t::CtorDecl)> = cs
            .iter()
            .filter(|(_, c)| {
                c.fields.len() == args.len()
                    && c.fields
                        .iter()
                        .zip(&sorts)
                        .all(|(f, s)| s.as_ref().is_none_or(|s| *s == f.sort.name))
            })
            .collect();
        match fits.as_slice() {
            [c] => Some(Ok((*c).clone())),
            _ => Some(Err(cs.iter().map(|c| c.0.clone()).collect())),
        }
    }

    /// The `.ioco` name of the constructor `name` of `ty`.
    fn ctor_name(&self, ty: &str, name: &str) -> String {
        self.ctor_names
            .get(&(ty.to_string(), name.to_string()))
            .cloned()
            .unwrap_or_else(|| safe(name))
    }

    /// Reports a constructor whose type the context does not tell.
    fn ambiguous_ctor(&mut self, name: &str, types: &[String], span: Span) {
        self.error_help(
            "ioco::txs::overload",
            format!(
                "constructor `{}` is defined in {}: the context does not tell which is meant",
                name,
                types
                    .iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
            span,
            "which one?",
            format!(
                "TorXakis chooses by the sort the context expects; write it: `{} :: {}`",
                name, types[0]
            ),
        );
    }

    /// Lowers `e` where a value of sort `sort` is expected (see [`Lowerer::ctor`]).
    fn vexpr_as(&mut self, e: &t::VExpr, scope: &Scope, sort: &str) -> Option<o::Expr> {
        self.expect = Some(sort.to_string());
        self.vexpr(e, scope)
    }

    /// The function a call `name(args)` means: the one of that name, or, when TorXakis
    /// overloads the name, the one whose parameter sorts are the arguments' sorts.
    fn resolve_fn(
        &self,
        name: &str,
        args: &[t::VExpr],
        scope: &Scope,
    ) -> Result<Option<&'a t::FuncDef>, String> {
        let Some(fs) = self.funcs.get(name) else {
            return Ok(None);
        };
        // a function of another arity is not meant (TorXakis: `gcd(o)` the accessor of a
        // field `gcd`, beside a function `gcd(a, b)`)
        let fs: Vec<&'a t::FuncDef> = fs
            .iter()
            .copied()
            .filter(|f| f.params.len() == args.len())
            .collect();
        if fs.is_empty() {
            return Ok(None);
        }
        if fs.len() == 1 {
            return Ok(Some(fs[0]));
        }
        let sorts: Vec<Option<String>> = args.iter().map(|a| self.sort_of(a, scope)).collect();
        let fits: Vec<&'a t::FuncDef> = fs
            .iter()
            .copied()
            .filter(|f| {
                f.params.len() == args.len()
                    && f.params
                        .iter()
                        .zip(&sorts)
                        .all(|(p, s)| s.as_ref().is_none_or(|s| *s == p.sort.name))
            })
            .collect();
        match fits.len() {
            1 => Ok(Some(fits[0])),
            0 => Err(format!(
                "no function `{}` takes arguments of sorts ({})",
                name,
                sorts
                    .iter()
                    .map(|s| s.clone().unwrap_or_else(|| "?".into()))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            _ => Err(format!(
                "the call of `{}` fits {} functions of that name",
                name,
                fits.len()
            )),
        }
    }

    /// Lowers a value expression; names are looked up in `scope`, then among the constants and
    /// the nullary constructors.
    fn vexpr(&mut self, e: &t::VExpr, scope: &Scope) -> Option<o::Expr> {
        let expect = self.expect.take();
        if self.depth > 200 {
            self.error(
                "ioco::txs::depth",
                "expression nested too deeply (more than 200 levels)",
                e.span,
                "here",
            );
            return None;
        }
        self.depth += 1;
        let r = self.vexpr_inner(e, scope, expect);
        self.depth -= 1;
        r
    }

    /// Lowers `e`, of sort `expect` where the context tells it.
    fn vexpr_inner(
        &mut self,
        e: &t::VExpr,
        scope: &Scope,
        expect: Option<String>,
    ) -> Option<o::Expr> {
        use o::ExprKind as K;
        let sp = e.span;
        Some(match &e.kind {
            VKind::Int(i) => ex(K::Int(*i), sp),
            VKind::Bool(b) => ex(K::Bool(*b), sp),
            VKind::Str(t) => ex(K::Str(t.clone()), sp),
            VKind::Regex(_) => {
                self.error_help(
                    "ioco::txs::regex",
                    "a regular expression is a value only as the second argument of `strinre`",
                    sp,
                    "here",
                    "write `strinre(s, REGEX('..'))`",
                );
                return None;
            }
            VKind::Name(n) => {
                if let Some(v) = scope.get(&n.name) {
                    let mut x = v.expr.clone();
                    set_span(&mut x, sp);
                    return Some(x);
                }
                if let Some(c) = self.consts.get(&n.name).copied() {
                    if self.stack.iter().any(|s| s == &format!("const {}", n.name)) {
                        self.error(
                            "ioco::txs::recursive_const",
                            format!("constant `{}` is defined in terms of itself", n.name),
                            sp,
                            "here",
                        );
                        return None;
                    }
                    self.stack.push(format!("const {}", n.name));
                    let r = self.vexpr(&c.value, &Scope::new());
                    self.stack.pop();
                    return r.map(paren);
                }
                match self.ctor(&n.name, expect.as_deref(), Some(&[]), scope) {
                    Some(Ok((ty, _))) => {
                        return Some(name_expr(&self.ctor_name(&ty, &n.name), sp));
                    }
                    Some(Err(types)) => {
                        self.ambiguous_ctor(&n.name, &types, sp);
                        return None;
                    }
                    None => {}
                }
                let mut cands: Vec<String> = scope.keys().cloned().collect();
                cands.extend(self.consts.keys().cloned());
                self.error_help(
                    "ioco::txs::unknown",
                    format!("unknown name `{}`", n.name),
                    sp,
                    "not a variable, constant or constructor",
                    if cands.is_empty() {
                        "nothing is in scope here".to_string()
                    } else {
                        cands.sort();
                        cands.truncate(12);
                        format!("in scope: {}", cands.join(", "))
                    },
                );
                return None;
            }
            VKind::Call(f, args) => return self.call(f, args, scope, sp, expect.as_deref()),
            VKind::Unary(op, x) => {
                let x = self.vexpr(x, scope)?;
                match op.name.as_str() {
                    "-" => ex(K::Unary(o::UnOp::Neg, Box::new(paren(x))), sp),
                    "+" => x,
                    _ => {
                        self.error(
                            "ioco::txs::unknown_operator",
                            format!("unknown prefix operator `{}`", op.name),
                            op.span,
                            "here",
                        );
                        return None;
                    }
                }
            }
            VKind::Binary(op, a, b) => {
                let bin = match op.name.as_str() {
                    "+" => Some(o::BinOp::Add),
                    "-" => Some(o::BinOp::Sub),
                    "*" => Some(o::BinOp::Mul),
                    "/" => Some(o::BinOp::Div),
                    "%" => Some(o::BinOp::Mod),
                    "==" => Some(o::BinOp::Eq),
                    "<>" => Some(o::BinOp::Ne),
                    "<" => Some(o::BinOp::Lt),
                    "<=" => Some(o::BinOp::Le),
                    ">" => Some(o::BinOp::Gt),
                    ">=" => Some(o::BinOp::Ge),
                    "/\\" => Some(o::BinOp::And),
                    "\\/" => Some(o::BinOp::Or),
                    "=>" => Some(o::BinOp::Implies),
                    "++" => Some(o::BinOp::Concat),
                    _ => None,
                };
                match bin {
                    Some(bop) => {
                        // `x == Nil`: the operands of a comparison have one sort
                        let same = matches!(bop, o::BinOp::Eq | o::BinOp::Ne)
                            .then(|| self.sort_of(a, scope).or_else(|| self.sort_of(b, scope)))
                            .flatten();
                        if let Some(s) = &same {
                            self.expect = Some(s.clone());
                        }
                        let a = self.vexpr(a, scope);
                        if let Some(s) = same {
                            self.expect = Some(s);
                        }
                        let b = self.vexpr(b, scope);
                        ex(K::Binary(bop, Box::new(paren(a?)), Box::new(paren(b?))), sp)
                    }
                    None => {
                        return self.call(
                            op,
                            &[(**a).clone(), (**b).clone()],
                            scope,
                            sp,
                            expect.as_deref(),
                        );
                    }
                }
            }
            VKind::If(c, a, b) => {
                let c = self.vexpr(c, scope);
                self.expect.clone_from(&expect);
                let a = self.vexpr(a, scope);
                self.expect = expect;
                let b = self.vexpr(b, scope);
                ex(K::If(Box::new(c?), Box::new(a?), Box::new(b?)), sp)
            }
            VKind::Let(binds, body) => {
                let sc = self.bind_lets(binds, scope)?;
                self.expect = expect;
                return self.vexpr(body, &sc);
            }
            VKind::Typed(x, s) => {
                if matches!(&x.kind, VKind::Name(n) if n.name == "ANY") {
                    self.unsupported(
                        "`ANY` (an unspecified value)",
                        sp,
                        "bind the value with `?x` in an offer and constrain it with a guard",
                    );
                    return None;
                }
                return self.vexpr_as(x, scope, &s.name);
            }
        })
    }

    /// `scope` with the bindings of a `LET` (TorXakis binds simultaneously: every right-hand
    /// side sees the outer scope).
    fn bind_lets(
        &mut self,
        binds: &[(Ident, Option<t::Sort>, t::VExpr)],
        scope: &Scope,
    ) -> Option<Scope> {
        let mut sc = scope.clone();
        for (n, s, v) in binds {
            if let Some(s) = s {
                self.expect = Some(s.name.clone());
            }
            let x = self.vexpr(v, scope)?;
            let sort = s
                .as_ref()
                .map(sort_text)
                .or_else(|| self.sort_of(v, scope))
                .unwrap_or_default();
            sc.insert(
                n.name.clone(),
                Val {
                    expr: paren(x),
                    sort,
                },
            );
        }
        Some(sc)
    }

    fn call(
        &mut self,
        f: &Ident,
        args: &[t::VExpr],
        scope: &Scope,
        sp: Span,
        expect: Option<&str>,
    ) -> Option<o::Expr> {
        use o::ExprKind as K;
        // what is called, first: its parameters' sorts are what the arguments are expected
        // to be (they choose among overloaded constructors)
        let fd = match self.resolve_fn(&f.name, args, scope) {
            Ok(fd) => fd,
            Err(msg) => {
                self.error_help(
                    "ioco::txs::overload",
                    msg,
                    f.span,
                    "which one?",
                    "TorXakis chooses among functions of the same name by the sorts of the arguments; annotate an argument with its sort (`e :: Int`)",
                );
                return None;
            }
        };
        let ctor = match fd {
            Some(_) => None,
            None => match self.ctor(&f.name, expect, Some(args), scope) {
                Some(Ok(c)) => Some(c),
                Some(Err(types)) => {
                    self.ambiguous_ctor(&f.name, &types, f.span);
                    return None;
                }
                None => None,
            },
        };
        let param_sorts: Vec<String> = match (fd, &ctor) {
            (Some(fd), _) => fd.params.iter().map(|p| p.sort.name.clone()).collect(),
            (None, Some((_, c))) => c.fields.iter().map(|p| p.sort.name.clone()).collect(),
            _ => Vec::new(),
        };
        let mut xs = Vec::new();
        let mut ok = true;
        // `strinre(s, REGEX('..'))`: the regular expression is not a value
        let values = match (f.name.as_str(), args) {
            ("strinre", [s0, re]) if matches!(re.kind, VKind::Regex(_)) => std::slice::from_ref(s0),
            _ => args,
        };
        for (k, a) in values.iter().enumerate() {
            if let Some(s) = param_sorts.get(k) {
                self.expect = Some(s.clone());
            }
            match self.vexpr(a, scope) {
                Some(x) => xs.push(x),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        if let Some(fd) = fd {
            let n = &self.fn_names[&(fd as *const t::FuncDef)];
            if fd.params.len() != xs.len() {
                self.error(
                    "ioco::txs::arity",
                    format!(
                        "function `{}` takes {} argument(s), {} given",
                        f.name,
                        fd.params.len(),
                        xs.len()
                    ),
                    sp,
                    "here",
                );
                return None;
            }
            return Some(ex(K::Call(ident(n.clone(), f.span), xs), sp));
        }
        if let Some((ty, c)) = ctor {
            if c.fields.len() != xs.len() {
                self.error(
                    "ioco::txs::arity",
                    format!(
                        "constructor `{}` takes {} field(s), {} given",
                        f.name,
                        c.fields.len(),
                        xs.len()
                    ),
                    sp,
                    "here",
                );
                return None;
            }
            let name = self.ctor_name(&ty, &f.name);
            if xs.is_empty() {
                return Some(name_expr(&name, sp));
            }
            return Some(ex(K::Call(ident(name, f.span), xs), sp));
        }
        if xs.len() == 1 {
            let x = xs.pop().unwrap();
            if f.name == "not" {
                return Some(ex(K::Unary(o::UnOp::Not, Box::new(paren(x))), sp));
            }
            if let Some(c) = f.name.strip_prefix("is") {
                // `isNil(l)`: the constructor of the argument's sort
                let arg_sort = self.sort_of(&args[0], scope);
                match self.ctor(c, arg_sort.as_deref(), None, scope) {
                    Some(Ok((ty, _))) => {
                        let name = self.ctor_name(&ty, c);
                        return Some(ex(K::Is(Box::new(paren(x)), ident(name, f.span)), sp));
                    }
                    Some(Err(types)) => {
                        self.ambiguous_ctor(c, &types, f.span);
                        return None;
                    }
                    None => {}
                }
            }
            if self.fields.contains_key(&f.name) {
                return Some(ex(K::Field(Box::new(paren(x)), safe_id(f)), sp));
            }
            if f.name == "abs" {
                let neg = ex(
                    K::Binary(
                        o::BinOp::Lt,
                        Box::new(paren(x.clone())),
                        Box::new(ex(K::Int(0), sp)),
                    ),
                    sp,
                );
                let minus = ex(K::Unary(o::UnOp::Neg, Box::new(paren(x.clone()))), sp);
                return Some(ex(K::If(Box::new(neg), Box::new(minus), Box::new(x)), sp));
            }
            xs.push(x);
        }
        // TorXakis's string built-ins
        if f.name == "strinre" && args.len() == 2 {
            if let VKind::Regex(re) = &args[1].kind {
                let s0 = xs.remove(0);
                // the literal is `REGEX('..')`: its text starts 7 bytes in
                let at = args[1].span;
                let lit = o::RegexLit {
                    source: re.clone(),
                    span: Span {
                        file: at.file,
                        start: at.start + 6,
                        end: at.end.saturating_sub(1).max(at.start + 6),
                    },
                };
                return Some(ex(K::Matches(Box::new(paren(s0)), lit), sp));
            }
        }
        if [
            "len",
            "at",
            "takeWhile",
            "takeWhileNot",
            "dropWhile",
            "dropWhileNot",
        ]
        .contains(&f.name.as_str())
        {
            return Some(ex(K::Call(ident(f.name.clone(), f.span), xs), sp));
        }
        if ["toString", "fromString", "toXml", "fromXml"].contains(&f.name.as_str()) {
            self.unsupported(
                &format!("`{}` in a model", f.name),
                sp,
                "ioco converts values to text only at the adapter (CNECTDEF's ENCODE/DECODE)",
            );
            return None;
        }
        let mut cands: Vec<&str> = self.funcs.keys().map(|k| k.as_str()).collect();
        cands.extend(self.ctors.keys().map(|k| k.as_str()));
        cands.sort();
        cands.truncate(16);
        self.error_help(
            "ioco::txs::unknown",
            format!(
                "unknown function `{}` (with {} argument(s))",
                f.name,
                args.len()
            ),
            f.span,
            "not a function, constructor, accessor or test",
            format!("known: {}", cands.join(", ")),
        );
        None
    }

    // ----- models ------------------------------------------------------------------------------

    /// The gates of a `MODELDEF`: its channels with the direction of `CHAN IN`/`CHAN OUT`.
    fn chan_gate(&mut self, n: &Ident, input: bool) -> Option<Gate> {
        match self.chans.get(&n.name) {
            Some(c) => Some(Gate {
                name: safe(&n.name),
                input,
                sorts: c.sorts.iter().map(sort_text).collect(),
            }),
            None => {
                let mut cands: Vec<&str> = self.chans.keys().map(|k| k.as_str()).collect();
                cands.sort();
                self.error_help(
                    "ioco::txs::unknown_channel",
                    format!("channel `{}` is not declared in a CHANDEF", n.name),
                    n.span,
                    "unknown channel",
                    if cands.is_empty() {
                        format!("declare it (`CHANDEF Chans ::= {} :: Int ENDDEF`), or give the file that declares it with `--with FILE` (TorXakis loads several files together)", n.name)
                    } else {
                        format!("the channels are {}; or give the file that declares it with `--with FILE`", cands.join(", "))
                    },
                );
                None
            }
        }
    }

    fn modeldef(&mut self, m: &'a t::ModelDef, main: bool, mapper: bool) -> bool {
        let mut genv = GEnv::new();
        for (list, input) in [(&m.chan_in, true), (&m.chan_out, false)] {
            for c in list {
                if let Some(g) = self.chan_gate(c, input) {
                    genv.insert(c.name.clone(), g);
                }
            }
        }
        let nerr = self.diags.len();
        let name = self.global(&m.name.name);
        let flat = if self.one_automaton {
            // the product of the parts; where it cannot be built, the composition as it is
            let snap = self.snapshot();
            match self.one_model(&m.name.name, "flat", &m.behaviour, &genv, nerr) {
                Some(c) if self.diags.len() == nerr => Some(c),
                _ => {
                    self.diags.truncate(nerr);
                    self.restore(snap);
                    None
                }
            }
        } else {
            None
        };
        let Some(body) = flat.or_else(|| self.comp(&m.behaviour, &genv, &Scope::new())) else {
            return false;
        };
        if self.diags.len() > nerr {
            return false;
        }
        let mut attrs = Vec::new();
        if main {
            attrs.push(o::Attr {
                name: ident("main", m.name.span),
                args: Vec::new(),
                span: m.name.span,
            });
        }
        if let Some(sets) = &m.sync {
            let args: Vec<o::AttrArg> = sets
                .iter()
                .filter(|s| !s.is_empty())
                .map(|s| o::AttrArg::Gates(s.clone(), s[0].span))
                .collect();
            if !args.is_empty() {
                attrs.push(o::Attr {
                    name: ident("sync", m.span),
                    args,
                    span: m.span,
                });
            }
        }
        if mapper {
            self.out.notes.push((
                m.name.span,
                "MAPPERDEF: lowered as a system of its own; ioco does not map actions between a model and an adapter".into(),
            ));
        }
        self.push_item(
            o::ItemKind::System(o::System {
                name: ident(name.clone(), m.name.span),
                body,
            }),
            m.span,
            attrs,
        );
        if !mapper {
            self.out.models.push(ModelInfo {
                txs_name: m.name.name.clone(),
                ioco_name: name,
                inputs: m.chan_in.iter().map(|c| c.name.clone()).collect(),
                outputs: m.chan_out.iter().map(|c| c.name.clone()).collect(),
            });
        }
        true
    }

    fn purpdef(&mut self, p: &'a t::PurpDef) {
        let mut genv = GEnv::new();
        for (list, input) in [(&p.chan_in, true), (&p.chan_out, false)] {
            for c in list {
                if let Some(g) = self.chan_gate(c, input) {
                    genv.insert(c.name.clone(), g);
                }
            }
        }
        for (goal, b) in &p.goals {
            let want = format!("{}_{}", p.name.name, goal.name);
            let nerr = self.diags.len();
            if let Some(body) = self.one_model(&want, "goal", b, &genv, nerr) {
                if self.diags.len() == nerr {
                    let name = self.global(&want);
                    self.push_item(
                        o::ItemKind::System(o::System {
                            name: ident(name.clone(), goal.span),
                            body,
                        }),
                        b.span,
                        Vec::new(),
                    );
                    self.out.notes.push((
                        goal.span,
                        format!("GOAL {} of PURPDEF {}: an action the goal does not offer leaves the purpose where it is (ioco's purposes observe); in TorXakis it ends the goal", goal.name, p.name.name),
                    ));
                    self.out
                        .goals
                        .push((p.name.name.clone(), goal.name.clone(), name));
                }
            }
        }
    }

    /// A `GOAL` (or, with [`lower_with`]'s `one_automaton`, a `MODELDEF`'s behaviour) as one
    /// model, as symbolic test purposes need it: lowered as a model is ([`Self::comp`]); a
    /// behaviour that becomes a composition (`|||`, `||`, `|[G]|`, `>>>`, `[>>`, `[><`, a
    /// recursion through them) or cannot be lowered as one is taken back and built as the
    /// product of its parts (module `product`, named `{want}_{suffix}`), the composition
    /// flattened into one automaton with the same steps.
    fn one_model(
        &mut self,
        want: &str,
        suffix: &str,
        b: &'a t::BExpr,
        genv: &GEnv,
        nerr: usize,
    ) -> Option<o::Comp> {
        let items = self.out.file.items.len();
        let first = self.comp(b, genv, &Scope::new());
        if self.diags.len() == nerr {
            if let Some(c) = &first {
                // one model (not a system: a loop `p ::= B >>> p` is one)
                let model = |n: &str| {
                    self.out
                        .file
                        .items
                        .iter()
                        .any(|it| matches!(&it.kind, o::ItemKind::Model(x) if x.name.name == n))
                };
                if matches!(&c.kind, o::CompKind::Inst(n, _) if model(&n.name)) {
                    return first;
                }
            }
        }
        // what the first attempt made is taken back
        self.diags.truncate(nerr);
        let mut gone: HashSet<String> = HashSet::new();
        for it in self.out.file.items.drain(items..) {
            match &it.kind {
                o::ItemKind::Model(x) => gone.insert(x.name.name.clone()),
                o::ItemKind::System(x) => gone.insert(x.name.name.clone()),
                _ => false,
            };
        }
        self.seq_models.retain(|_, v| !gone.contains(v));
        self.loops.retain(|_, v| !gone.contains(v));
        self.conts.retain(|k, _| !gone.contains(k));
        let name = self.global(&format!("{want}_{suffix}"));
        let model = product::build_goal(self, &name, b, genv, &Scope::new(), b.span)?;
        self.push_item(o::ItemKind::Model(model), b.span, Vec::new());
        Some(self.model_inst(&name, b.span))
    }

    /// Lowers a behaviour at the level of compositions.
    fn comp(&mut self, b: &'a t::BExpr, genv: &GEnv, scope: &Scope) -> Option<o::Comp> {
        let sp = b.span;
        let mk = |kind| o::Comp { kind, span: sp };
        match &b.kind {
            BKind::Par(op, l, r) => {
                let op = match op {
                    t::ParOp::Interleave => o::ParOp::Interleave,
                    t::ParOp::Full => o::ParOp::Full,
                    t::ParOp::Gates(gs) => {
                        let mut out = Vec::new();
                        for g in gs {
                            match genv.get(&g.name) {
                                Some(x) => out.push(ident(x.name.clone(), g.span)),
                                None => {
                                    self.unknown_gate(g, genv);
                                    return None;
                                }
                            }
                        }
                        o::ParOp::Gates(out)
                    }
                };
                let (l, r) = (self.comp(l, genv, scope), self.comp(r, genv, scope));
                let (mut l, mut r) = (l?, r?);
                if let o::ParOp::Gates(gs) = &op {
                    // a side without a synchronised channel blocks it on the other side
                    let (lg, rg) = (self.comp_gates(&l), self.comp_gates(&r));
                    for g in gs {
                        let Some(gate) = genv.values().find(|x| x.name == g.name).cloned() else {
                            continue;
                        };
                        for (side, has) in [
                            (&mut l, lg.contains(&g.name)),
                            (&mut r, rg.contains(&g.name)),
                        ] {
                            if !has {
                                let blk = self.blocker(&gate, g.span);
                                let cur = std::mem::replace(side, blk.clone());
                                *side = o::Comp {
                                    span: cur.span,
                                    kind: o::CompKind::Par(
                                        o::ParOp::Interleave,
                                        Box::new(paren_comp(cur)),
                                        Box::new(blk),
                                    ),
                                };
                            }
                        }
                    }
                }
                Some(mk(o::CompKind::Par(
                    op,
                    Box::new(paren_comp(l)),
                    Box::new(paren_comp(r)),
                )))
            }
            BKind::Hide(chans, body) => {
                let mut g2 = genv.clone();
                let mut names = Vec::new();
                for c in chans {
                    let taken: HashSet<&str> = genv.values().map(|g| g.name.as_str()).collect();
                    let mut n = safe(&c.name.name);
                    let mut k = 2;
                    while taken.contains(n.as_str()) {
                        n = format!("{}_{}", c.name.name, k);
                        k += 1;
                    }
                    g2.insert(
                        c.name.name.clone(),
                        Gate {
                            name: n.clone(),
                            input: false,
                            sorts: c.sorts.iter().map(sort_text).collect(),
                        },
                    );
                    names.push(ident(n, c.name.span));
                }
                let body = self.comp(body, &g2, scope)?;
                Some(mk(o::CompKind::Hide(names, Box::new(paren_comp(body)))))
            }
            BKind::Enable {
                left,
                accept,
                right,
            } => {
                // the values passed on EXIT, computed at import (see `exit`); the left side's
                // EXITs then carry no value (`exit_passed`), the right side reads them as
                // constants
                let (passed, rscope) = if accept.is_empty() {
                    (false, scope.clone())
                } else {
                    let vals = match self.exit_values(left, genv, scope, &mut Vec::new()) {
                        Ok(v) => v,
                        Err(()) => {
                            // a value received at run time is passed on: the behaviour
                            // becomes one model, the product of its parts (`product`)
                            self.exit_dyn.take()?;
                            self.force_product = true;
                            let want = self.enclosing();
                            return self.seq_comp(&want, b, genv, scope, sp);
                        }
                    };
                    let Some(vals) = vals else {
                        // the left side never exits as a whole: the right side never starts,
                        // and no value is passed
                        let outer = std::mem::replace(&mut self.exit_passed, true);
                        let l = self.comp(left, genv, scope);
                        self.exit_passed = outer;
                        return l;
                    };
                    (true, self.accept_scope(accept, vals, scope, sp).ok()?)
                };
                let outer = std::mem::replace(&mut self.exit_passed, passed);
                let l = self.comp(left, genv, scope);
                self.exit_passed = outer;
                let r = self.comp(right, genv, &rscope);
                Some(mk(o::CompKind::Seq(
                    Box::new(paren_comp(l?)),
                    Box::new(paren_comp(r?)),
                )))
            }
            BKind::Disable(..) | BKind::Interrupt(..) => {
                // one model, the product of its parts (`product`: `Pt::Over`)
                self.force_product = true;
                let want = self.enclosing();
                self.seq_comp(&want, b, genv, scope, sp)
            }
            BKind::Let(binds, body) => {
                let sc = self.bind_lets(binds, scope)?;
                self.comp(body, genv, &sc)
            }
            BKind::Stop => Some(self.stop_comp(sp)),
            BKind::Guard(..) | BKind::Choice(..) => match self.effective(b, scope) {
                None => Some(self.stop_comp(sp)),
                Some(e) if !std::ptr::eq(e, b) => self.comp(e, genv, scope),
                Some(_) => {
                    let want = self.enclosing();
                    self.seq_comp(&want, b, genv, scope, sp)
                }
            },
            BKind::Inst { name, gates, args } => {
                if let Some(p) = self.procs.get(&name.name).copied() {
                    let (g2, sc2) = self.bind_call(p, gates, args, genv, scope, sp)?;
                    let eff = match self.effective(&p.body, &sc2) {
                        None => return Some(self.stop_comp(sp)),
                        Some(e) => e,
                    };
                    if !is_structural(eff) {
                        if std::ptr::eq(eff, &p.body) {
                            return self.seq_comp(&p.name.name, b, genv, scope, sp);
                        }
                        // constant guards decided: the branch left
                        return self.comp(eff, &g2, &sc2);
                    }
                    let key = format!("{} {:?} {:?}", p.name.name, g2, scope_key(&sc2));
                    if self.stack.contains(&key) {
                        // recursion: only as TorXakis's loop `p ::= B >>> p` (checked below)
                        let sys = match self.loops.get(&key) {
                            Some(s) => s.clone(),
                            None => {
                                let s = self.global(&p.name.name);
                                self.loops.insert(key.clone(), s.clone());
                                s
                            }
                        };
                        self.loop_used.insert(key);
                        return Some(mk(o::CompKind::Inst(ident(sys, name.span), Vec::new())));
                    }
                    if self.stack.len() >= MAX_INLINE {
                        self.unsupported(
                            &format!("the recursive process `{}` (a process that creates processes: recursion through a parallel composition, more than {} levels deep)", p.name.name, MAX_INLINE),
                            sp,
                            "keep the pending behaviour in a variable (a counter or a list) of a sequential process (docs/language.md §13)",
                        );
                        return None;
                    }
                    self.stack.push(key.clone());
                    let r = self.comp(eff, &g2, &sc2);
                    self.stack.pop();
                    let r = r?;
                    if self.loop_used.remove(&key) {
                        let sys = self.loops[&key].clone();
                        let Some(body) = split_loop(r, &sys) else {
                            let n = &p.name.name;
                            let op = match &eff.kind {
                                BKind::Par(t::ParOp::Interleave, ..) => "|||".to_string(),
                                BKind::Par(t::ParOp::Full, ..) => "||".to_string(),
                                BKind::Par(t::ParOp::Gates(gs), ..) => format!(
                                    "|[ {} ]|",
                                    gs.iter()
                                        .map(|g| g.name.as_str())
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                ),
                                _ => "composition".to_string(),
                            };
                            self.unsupported(
                                &format!("the recursive process `{n}` (recursion through a parallel composition: `{n}` is called again inside its own `{op}`, so every round adds a copy of the other side: a process that creates processes)"),
                                sp,
                                &format!("the one recursion through a composition that can be imported is the loop `p ::= B >>> p`: let the side that repeats call itself instead (`q ::= B >>> q`, or its recursive call moved from `{n}` to `q`) and compose once (`{n} ::= A {op} q`); or keep the pending behaviour in a variable (a counter or a list) of a sequential process (docs/language.md §13)"),
                            );
                            return None;
                        };
                        let sp2 = body.span;
                        self.push_item(
                            o::ItemKind::System(o::System {
                                name: ident(sys.clone(), p.name.span),
                                body: o::Comp {
                                    kind: o::CompKind::Seq(
                                        Box::new(paren_comp(body)),
                                        Box::new(o::Comp {
                                            kind: o::CompKind::Inst(
                                                ident(sys.clone(), p.name.span),
                                                Vec::new(),
                                            ),
                                            span: sp2,
                                        }),
                                    ),
                                    span: sp2,
                                },
                            }),
                            p.span,
                            Vec::new(),
                        );
                        return Some(mk(o::CompKind::Inst(ident(sys, name.span), Vec::new())));
                    }
                    return Some(paren_comp(r));
                }
                // `stdi_X` is TorXakis's name for the process of the STAUTDEF `X`
                let sname = name.name.strip_prefix("stdi_").unwrap_or(&name.name);
                if let Some(s) = self.stauts.get(sname).copied() {
                    let m = self.staut(s, gates, args, genv, scope, sp)?;
                    return Some(mk(o::CompKind::Inst(ident(m, name.span), Vec::new())));
                }
                self.unknown_proc(name);
                None
            }
            _ => {
                let want = self.enclosing();
                self.seq_comp(&want, b, genv, scope, sp)
            }
        }
    }

    /// A name for a model made of part of a composed process: the process being inlined
    /// (`behaviour` at the top of a MODELDEF).
    fn enclosing(&self) -> String {
        self.stack
            .iter()
            .rev()
            .find(|k| !k.starts_with("const "))
            .and_then(|k| k.split(' ').next())
            .unwrap_or("behaviour")
            .to_string()
    }

    /// The behaviour `b` stands for once guards that are constant under `scope` are decided
    /// (`[[ n > 1 ]] =>> ..` with `n` a constant argument): None for `STOP`.
    fn effective(&mut self, b: &'a t::BExpr, scope: &Scope) -> Option<&'a t::BExpr> {
        match &b.kind {
            BKind::Guard(c, x) => match self.const_bool(c, scope) {
                Some(true) => self.effective(x, scope),
                Some(false) => None,
                None => Some(b),
            },
            BKind::Choice(xs) => {
                let mut live = Vec::new();
                for x in xs {
                    if let Some(e) = self.effective(x, scope) {
                        live.push(e);
                    }
                }
                match live.len() {
                    0 => None,
                    1 => Some(live[0]),
                    _ => Some(b),
                }
            }
            BKind::Stop => None,
            _ => Some(b),
        }
    }

    /// The value of a condition when it is constant under `scope` (no diagnostics: a condition
    /// that does not lower is reported where it is used).
    fn const_bool(&mut self, c: &t::VExpr, scope: &Scope) -> Option<bool> {
        let n = self.diags.len();
        let x = self.vexpr(c, scope);
        self.diags.truncate(n);
        match const_eval(&x?) {
            Some(Const::Bool(b)) => Some(b),
            _ => None,
        }
    }

    /// A process that does nothing (`STOP` in a composition).
    fn stop_comp(&mut self, sp: Span) -> o::Comp {
        self.inert("stop".into(), "stop", "stopped", &[], sp)
    }

    /// An instance of model `m`, in `hide` of the gates it hides (a product with `HIDE`).
    fn model_inst(&self, m: &str, sp: Span) -> o::Comp {
        let inst = o::Comp {
            kind: o::CompKind::Inst(ident(m.to_string(), sp), Vec::new()),
            span: sp,
        };
        match self.hidden_in_model.get(m) {
            None => inst,
            Some(hs) => o::Comp {
                kind: o::CompKind::Hide(
                    hs.iter().map(|h| ident(h.clone(), sp)).collect(),
                    Box::new(paren_comp(inst)),
                ),
                span: sp,
            },
        }
    }

    /// A sequential behaviour in a composition: its model, followed (`>>>`) by the composition
    /// it ends in, if any.
    fn seq_comp(
        &mut self,
        want: &str,
        b: &'a t::BExpr,
        genv: &GEnv,
        scope: &Scope,
        sp: Span,
    ) -> Option<o::Comp> {
        let (m, cont) = self.seq_model(want, b, genv, scope, sp)?;
        let inst = self.model_inst(&m, sp);
        match cont {
            None => Some(inst),
            Some((cb, cg, cs)) => {
                // a composition written in place that leads back here creates processes
                // without bound (`p ::= In >-> (Out ||| p)`); a call of a composed process
                // leading back is a loop, found by the call's recursion check
                let key = format!("cont {}", m);
                if !matches!(cb.kind, BKind::Inst { .. }) && self.stack.contains(&key) {
                    // the outer lowering of this model makes it the product of its parts,
                    // which keeps the processes created in a bag (`product`)
                    self.recreate.insert(key);
                    return None;
                }
                let (before, items) = (self.diags.len(), self.out.file.items.len());
                self.stack.push(key.clone());
                let next = self.comp(cb, &cg, &cs);
                self.stack.pop();
                if self.recreate.remove(&key) {
                    // what the first attempt made is taken back
                    self.diags.truncate(before);
                    let mut gone: HashSet<String> = HashSet::from([m.clone()]);
                    for it in self.out.file.items.drain(items..) {
                        match &it.kind {
                            o::ItemKind::Model(x) => gone.insert(x.name.name.clone()),
                            o::ItemKind::System(x) => gone.insert(x.name.name.clone()),
                            _ => false,
                        };
                    }
                    self.out.file.items.retain(
                        |it| !matches!(&it.kind, o::ItemKind::Model(x) if x.name.name == m),
                    );
                    self.seq_models.retain(|_, v| !gone.contains(v));
                    self.loops.retain(|_, v| !gone.contains(v));
                    self.conts.retain(|k, _| !gone.contains(k));
                    let model = product::build(self, &m, b, genv, scope, sp)?;
                    self.push_item(o::ItemKind::Model(model), sp, Vec::new());
                    return Some(self.model_inst(&m, sp));
                }
                let next = next?;
                Some(o::Comp {
                    kind: o::CompKind::Seq(Box::new(inst), Box::new(paren_comp(next))),
                    span: sp,
                })
            }
        }
    }

    fn unknown_gate(&mut self, g: &Ident, genv: &GEnv) {
        let mut cands: Vec<&str> = genv.keys().map(|k| k.as_str()).collect();
        cands.sort();
        self.error_help(
            "ioco::txs::unknown_channel",
            format!("unknown channel `{}`", g.name),
            g.span,
            "not a channel in scope",
            if cands.is_empty() {
                "no channel is in scope here".to_string()
            } else {
                format!("in scope: {}", cands.join(", "))
            },
        );
    }

    /// Reports a call of `p` met again while unfolding its own first actions.
    fn unguarded(&mut self, p: &t::ProcDef, sp: Span) {
        self.error_help(
            "ioco::txs::unguarded",
            format!(
                "unguarded recursion: `{}` calls itself before any action",
                p.name.name
            ),
            sp,
            "this call",
            "put an action (or ISTEP) before the recursive call",
        );
    }

    fn unknown_proc(&mut self, name: &Ident) {
        let mut cands: Vec<&str> = self
            .procs
            .keys()
            .chain(self.stauts.keys())
            .map(|k| k.as_str())
            .collect();
        cands.sort();
        self.error_help(
            "ioco::txs::unknown_process",
            format!("unknown process `{}`", name.name),
            name.span,
            "not a PROCDEF or STAUTDEF",
            format!(
                "the processes are {}; or give the file that defines it with `--with FILE` (TorXakis loads several files together)",
                cands.join(", ")
            ),
        );
    }

    /// Reports an `EXIT` the parser left as an action (in a multi-action, or `? x` without a
    /// sort).
    fn exit_offer(&mut self, offers: &[t::Offer], sp: Span) {
        if offers.len() > 1 {
            self.unsupported(
                "`EXIT` in a multi-action (`A ? x | EXIT ? y`)",
                sp,
                "exit after the action: `A ? x >-> EXIT ! x`",
            );
        } else {
            self.unsupported(
                "`EXIT ? x` without a sort",
                sp,
                "give the sort: `EXIT ? x :: Int`",
            );
        }
    }

    /// The channel and value environment of a call `p [gates] (args)`.
    fn bind_call(
        &mut self,
        p: &'a t::ProcDef,
        gates: &[Ident],
        args: &[t::VExpr],
        genv: &GEnv,
        scope: &Scope,
        sp: Span,
    ) -> Option<(GEnv, Scope)> {
        self.bind(&p.name, &p.gates, &p.params, gates, args, genv, scope, sp)
    }

    #[allow(clippy::too_many_arguments)]
    fn bind(
        &mut self,
        name: &Ident,
        fgates: &[t::ChanDecl],
        fparams: &[t::VarDecl],
        gates: &[Ident],
        args: &[t::VExpr],
        genv: &GEnv,
        scope: &Scope,
        sp: Span,
    ) -> Option<(GEnv, Scope)> {
        if fgates.len() != gates.len() || fparams.len() != args.len() {
            self.error(
                "ioco::txs::arity",
                format!(
                    "`{}` takes {} channel(s) and {} value(s); {} and {} given",
                    name.name,
                    fgates.len(),
                    fparams.len(),
                    gates.len(),
                    args.len()
                ),
                sp,
                "in this call",
            );
            return None;
        }
        let mut g2 = GEnv::new();
        for (f, a) in fgates.iter().zip(gates) {
            let Some(g) = genv.get(&a.name) else {
                self.unknown_gate(a, genv);
                return None;
            };
            let fs: Vec<String> = f.sorts.iter().map(sort_text).collect();
            if fs != g.sorts {
                self.error(
                    "ioco::txs::channel_sort",
                    format!(
                        "channel `{}` carries `{}` but `{}` expects `{}`",
                        a.name,
                        g.sorts.join(" # "),
                        f.name.name,
                        fs.join(" # ")
                    ),
                    a.span,
                    "here",
                );
                return None;
            }
            g2.insert(f.name.name.clone(), g.clone());
        }
        let mut sc = Scope::new();
        for (f, a) in fparams.iter().zip(args) {
            let x = fold(self.vexpr_as(a, scope, &f.sort.name)?);
            sc.insert(
                f.name.name.clone(),
                Val {
                    expr: paren(x),
                    sort: sort_text(&f.sort),
                },
            );
        }
        Some((g2, sc))
    }

    /// A `STAUTDEF` instance as a model.
    fn staut(
        &mut self,
        s: &'a t::StAutDef,
        gates: &[Ident],
        args: &[t::VExpr],
        genv: &GEnv,
        scope: &Scope,
        sp: Span,
    ) -> Option<String> {
        let (g2, sc) = self.bind(&s.name, &s.gates, &s.params, gates, args, genv, scope, sp)?;
        let key = format!("staut {} {:?} {:?}", s.name.name, g2, scope_key(&sc));
        if let Some(m) = self.seq_models.get(&key) {
            return Some(m.clone());
        }
        let name = self.global(&s.name.name);
        self.seq_models.insert(key, name.clone());
        let mut members = Vec::new();
        let mut m_gates = Vec::new();
        for f in &s.gates {
            m_gates.push(g2[&f.name.name].clone());
        }
        self.gate_members(&m_gates, s.span, &mut members);
        // the variables, with the parameters' values substituted in their initial values
        let mut vscope = sc.clone();
        let mut vars = Vec::new();
        for v in &s.vars {
            let ty = self.type_expr(&v.sort)?;
            vscope.insert(
                v.name.name.clone(),
                Val {
                    expr: name_expr(&safe(&v.name.name), v.name.span),
                    sort: sort_text(&v.sort),
                },
            );
            let init = match s.init_values.iter().find(|(n, _)| n.name == v.name.name) {
                Some((_, e)) => self.vexpr_as(e, &sc, &v.sort.name)?,
                None => self.default_value(&v.sort.name, v.name.span, 0)?,
            };
            vars.push(o::VarDecl {
                name: safe_id(&v.name),
                ty,
                init,
            });
        }
        if !vars.is_empty() {
            members.push(member(o::MemberKind::Vars(vars), s.span));
        }
        members.push(member(o::MemberKind::Init(safe_id(&s.init)), s.init.span));
        members.push(member(
            o::MemberKind::Locations(s.states.iter().map(safe_id).collect()),
            s.span,
        ));
        let taken: HashSet<String> = s.vars.iter().map(|v| safe(&v.name.name)).collect();
        for tr in &s.trans {
            let mut sc = vscope.clone();
            let Some((action, also, guard)) =
                self.offers(&tr.offers, tr.guard.as_ref(), &g2, &mut sc, tr.span, &taken)
            else {
                continue;
            };
            let mut updates = Vec::new();
            for (n, e) in &tr.updates {
                if let Some(v) = s.vars.iter().find(|v| v.name.name == n.name) {
                    self.expect = Some(v.sort.name.clone());
                }
                if let Some(x) = self.vexpr(e, &sc) {
                    updates.push((safe_id(n), x));
                }
            }
            members.push(member(
                o::MemberKind::Switch(o::Switch {
                    from: safe_id(&tr.from),
                    action,
                    also,
                    guard,
                    updates,
                    to: safe_id(&tr.to),
                }),
                tr.span,
            ));
        }
        self.push_item(
            o::ItemKind::Model(o::Model {
                name: ident(name.clone(), s.name.span),
                params: Vec::new(),
                members,
                end: s.span,
            }),
            s.span,
            Vec::new(),
        );
        Some(name)
    }

    fn gate_members(&mut self, gates: &[Gate], span: Span, members: &mut Vec<o::Member>) {
        let mut seen = HashSet::new();
        for input in [true, false] {
            let mut decls = Vec::new();
            for g in gates.iter().filter(|g| g.input == input) {
                if !seen.insert(g.name.clone()) {
                    continue;
                }
                let mut params = Vec::new();
                for (i, s) in g.sorts.iter().enumerate() {
                    let sort = ident(s.clone(), span);
                    if let Some(ty) = self.type_expr(&sort) {
                        params.push(o::Param {
                            name: ident(format!("p{}", i + 1), span),
                            ty,
                        });
                    }
                }
                decls.push(o::GateDecl {
                    name: ident(g.name.clone(), span),
                    params,
                });
            }
            if !decls.is_empty() {
                let dir = if input { o::Dir::Input } else { o::Dir::Output };
                members.push(member(o::MemberKind::Gates(dir, decls), span));
            }
        }
    }

    /// A default value of a sort (for variables not yet assigned).
    fn default_value(&mut self, sort: &str, sp: Span, depth: u32) -> Option<o::Expr> {
        use o::ExprKind as K;
        match sort {
            "Int" => Some(ex(K::Int(0), sp)),
            "Bool" => Some(ex(K::Bool(false), sp)),
            "String" => Some(ex(K::Str(String::new()), sp)),
            _ => {
                if let Some(d) = self.extra_defaults.get(sort) {
                    return Some(d.clone());
                }
                let td = self.types.get(sort).copied()?;
                if depth > 8 {
                    return None;
                }
                for c in &td.ctors {
                    let mut fields = Vec::new();
                    let mut ok = true;
                    for f in &c.fields {
                        match self.default_value(&f.sort.name, sp, depth + 1) {
                            Some(x) => fields.push(x),
                            None => {
                                ok = false;
                                break;
                            }
                        }
                    }
                    if ok {
                        let name = self.ctor_name(sort, &c.name.name);
                        return Some(if fields.is_empty() {
                            name_expr(&name, sp)
                        } else {
                            ex(K::Call(ident(name, sp), fields), sp)
                        });
                    }
                }
                None
            }
        }
    }

    /// The action, further actions and guard of a (multi-)offer; binds the `?x` names in
    /// `scope` as switch parameters.
    fn offers(
        &mut self,
        offers: &[t::Offer],
        guard: Option<&t::VExpr>,
        genv: &GEnv,
        scope: &mut Scope,
        sp: Span,
        taken: &HashSet<String>,
    ) -> Option<(o::Action, Vec<o::Action>, Option<o::Expr>)> {
        let mut actions = Vec::new();
        let mut extra_guards = Vec::new();
        let mut bound: Vec<(String, String, String)> = Vec::new();
        for off in offers {
            let gname = off.gate.name.as_str();
            if gname == "ISTEP" {
                actions.push(o::Action::Tau(off.gate.span));
                continue;
            }
            if gname == "EXIT" && !genv.contains_key(gname) {
                self.exit_offer(offers, off.gate.span);
                return None;
            }
            if gname == "QSTEP" || gname == "HSTEP" {
                self.unsupported(
                    &format!("`{}` in a test purpose", gname),
                    off.gate.span,
                    "write the purpose's goal with the model's actions only",
                );
                return None;
            }
            let Some(g) = genv.get(gname).cloned() else {
                self.unknown_gate(&off.gate, genv);
                return None;
            };
            if g.sorts.len() != off.items.len() {
                self.error_help(
                    "ioco::txs::offer_arity",
                    format!(
                        "channel `{}` carries {} value(s), the offer has {}",
                        gname,
                        g.sorts.len(),
                        off.items.len()
                    ),
                    off.gate.span,
                    "here",
                    format!("`{}` is declared `{}`", gname, g.sorts.join(" # ")),
                );
                return None;
            }
            let mut args = Vec::new();
            for (item, sort) in off.items.iter().zip(&g.sorts) {
                match item {
                    t::OfferItem::Send(e) => {
                        let x = self.vexpr_as(e, scope, sort)?;
                        args.push(o::Arg::Value(x));
                    }
                    t::OfferItem::Recv(x, s) => {
                        if let Some(s) = s {
                            if &s.name != sort {
                                self.error(
                                    "ioco::txs::offer_sort",
                                    format!(
                                        "`?{} :: {}` on a channel of sort `{}`",
                                        x.name, s.name, sort
                                    ),
                                    s.span,
                                    "wrong sort",
                                );
                                return None;
                            }
                        }
                        let mut pn = x.name.clone();
                        if IOCO_KEYWORDS.contains(&pn.as_str()) {
                            pn.push('_');
                        }
                        let mut k = 2;
                        while taken.contains(&pn) || bound.iter().any(|b| b.1 == pn) {
                            pn = format!("{}_{}", x.name, k);
                            k += 1;
                        }
                        bound.push((x.name.clone(), pn.clone(), sort.clone()));
                        args.push(o::Arg::Bind(ident(pn, x.span)));
                    }
                }
            }
            actions.push(o::Action::Gate {
                name: ident(g.name.clone(), off.gate.span),
                dir: if g.input {
                    o::Dir::Input
                } else {
                    o::Dir::Output
                },
                dir_span: off.gate.span,
                args,
            });
        }
        for (x, pn, sort) in bound {
            scope.insert(
                x,
                Val {
                    expr: name_expr(&pn, sp),
                    sort,
                },
            );
        }
        let mut g = match guard {
            Some(e) => Some(self.vexpr(e, scope)?),
            None => None,
        };
        for eg in extra_guards.drain(..) {
            g = Some(match g {
                Some(x) => and(x, eg),
                None => eg,
            });
        }
        if actions.is_empty() {
            self.error(
                "ioco::txs::empty_offer",
                "an action with no offer",
                sp,
                "here",
            );
            return None;
        }
        let first = actions.remove(0);
        if matches!(first, o::Action::Tau(_)) && !actions.is_empty() {
            self.unsupported(
                "`ISTEP` in a multi-action",
                sp,
                "ISTEP happens alone: split the action",
            );
            return None;
        }
        Some((first, actions, g))
    }

    /// A sequential behaviour as a model; its name, and the composition it continues with
    /// after its `exit` (when it ends in a call of a composed process).
    fn seq_model(
        &mut self,
        want: &str,
        b: &'a t::BExpr,
        genv: &GEnv,
        scope: &Scope,
        sp: Span,
    ) -> Option<(String, Option<Cont<'a>>)> {
        let forced = std::mem::take(&mut self.force_product);
        let key = format!(
            "seq {:p} {:?} {:?} {}",
            b,
            genv,
            scope_key(scope),
            self.exit_passed
        );
        if let Some(m) = self.seq_models.get(&key) {
            return Some((m.clone(), self.conts.get(m).cloned()));
        }
        // a call: the model starts in the callee's body, its parameters given by the arguments
        let (b, genv, scope, want) = match &b.kind {
            BKind::Inst { name, gates, args } => match self.procs.get(&name.name).copied() {
                Some(p) if !is_structural(&p.body) => {
                    let (g2, sc2) = self.bind_call(p, gates, args, genv, scope, sp)?;
                    (&p.body, g2, sc2, name.name.clone())
                }
                _ => (b, genv.clone(), scope.clone(), name.name.clone()),
            },
            _ => (b, genv.clone(), scope.clone(), want.to_string()),
        };
        let (genv, scope) = (&genv, &scope);
        let key2 = format!(
            "seq {:p} {:?} {:?} {}",
            b,
            genv,
            scope_key(scope),
            self.exit_passed
        );
        if let Some(m) = self.seq_models.get(&key2) {
            let m = m.clone();
            self.seq_models.insert(key, m.clone());
            return Some((m.clone(), self.conts.get(&m).cloned()));
        }
        let name = self.global(&want);
        self.seq_models.insert(key, name.clone());
        self.seq_models.insert(key2, name.clone());
        let before = self.diags.len();
        let built = if forced {
            self.needs_product = true;
            None
        } else {
            SeqBuilder::build(self, &name, b, genv, scope, sp)
        };
        let (model, cont) = if std::mem::take(&mut self.needs_product) {
            // what the sequential builder said is said again by the product
            self.diags.truncate(before);
            (product::build(self, &name, b, genv, scope, sp)?, None)
        } else {
            built?
        };
        self.push_item(o::ItemKind::Model(model), sp, Vec::new());
        if let Some(c) = &cont {
            self.conts.insert(name.clone(), c.clone());
        }
        Some((name, cont))
    }
}

fn member(kind: o::MemberKind, span: Span) -> o::Member {
    o::Member {
        attrs: Vec::new(),
        kind,
        span,
    }
}

fn paren_comp(c: o::Comp) -> o::Comp {
    match c.kind {
        o::CompKind::Par(..) | o::CompKind::Seq(..) | o::CompKind::Hide(..) => {
            let span = c.span;
            o::Comp {
                kind: o::CompKind::Paren(Box::new(c)),
                span,
            }
        }
        _ => c,
    }
}

fn scope_key(s: &Scope) -> Vec<(String, String)> {
    s.iter()
        .map(|(k, v)| (k.clone(), ioco_lang::fmt::expr(&v.expr)))
        .collect()
}

/// A constant value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Const {
    Int(i64),
    Bool(bool),
}

/// The value of an expression made of literals and operators (None if it reads anything else,
/// or overflows).
fn const_eval(e: &o::Expr) -> Option<Const> {
    use o::BinOp as B;
    use o::ExprKind as K;
    use Const::*;
    Some(match &e.kind {
        K::Int(i) => Int(*i),
        K::Bool(b) => Bool(*b),
        K::Paren(x) => const_eval(x)?,
        K::Unary(o::UnOp::Neg, x) => match const_eval(x)? {
            Int(i) => Int(i.checked_neg()?),
            _ => return None,
        },
        K::Unary(o::UnOp::Not, x) => match const_eval(x)? {
            Bool(b) => Bool(!b),
            _ => return None,
        },
        K::If(c, a, b) => match const_eval(c)? {
            Bool(true) => const_eval(a)?,
            Bool(false) => const_eval(b)?,
            _ => return None,
        },
        K::Binary(op, a, b) => match (const_eval(a)?, const_eval(b)?) {
            (Int(x), Int(y)) => match op {
                B::Add => Int(x.checked_add(y)?),
                B::Sub => Int(x.checked_sub(y)?),
                B::Mul => Int(x.checked_mul(y)?),
                B::Div if y != 0 => Int(x.checked_div_euclid(y)?),
                B::Mod if y != 0 => Int(x.checked_rem_euclid(y)?),
                B::Eq => Bool(x == y),
                B::Ne => Bool(x != y),
                B::Lt => Bool(x < y),
                B::Le => Bool(x <= y),
                B::Gt => Bool(x > y),
                B::Ge => Bool(x >= y),
                _ => return None,
            },
            (Bool(x), Bool(y)) => match op {
                B::And => Bool(x && y),
                B::Or => Bool(x || y),
                B::Implies => Bool(!x || y),
                B::Eq => Bool(x == y),
                B::Ne => Bool(x != y),
                _ => return None,
            },
            _ => return None,
        },
        _ => return None,
    })
}

/// `e` with a constant value replaced by its literal.
fn fold(e: o::Expr) -> o::Expr {
    let span = e.span;
    match const_eval(&e) {
        Some(Const::Int(i)) if i >= 0 => ex(o::ExprKind::Int(i), span),
        Some(Const::Int(i)) => ex(
            o::ExprKind::Unary(o::UnOp::Neg, Box::new(ex(o::ExprKind::Int(-i), span))),
            span,
        ),
        Some(Const::Bool(b)) => ex(o::ExprKind::Bool(b), span),
        None => e,
    }
}

fn comp_mentions(c: &o::Comp, sys: &str) -> bool {
    match &c.kind {
        o::CompKind::Inst(n, _) => n.name == sys,
        o::CompKind::Par(_, a, b) | o::CompKind::Seq(a, b) => {
            comp_mentions(a, sys) || comp_mentions(b, sys)
        }
        o::CompKind::Hide(_, x) | o::CompKind::Rename(x, _) | o::CompKind::Paren(x) => {
            comp_mentions(x, sys)
        }
    }
}

/// `L` when `c` is `L >>> sys` (up to the associativity of `>>>`), `sys` nowhere in `L`.
fn split_loop(c: o::Comp, sys: &str) -> Option<o::Comp> {
    let span = c.span;
    match c.kind {
        o::CompKind::Paren(x) => split_loop(*x, sys),
        o::CompKind::Seq(l, r) => {
            if comp_mentions(&l, sys) {
                return None;
            }
            let mut r0 = &*r;
            while let o::CompKind::Paren(x) = &r0.kind {
                r0 = x;
            }
            if matches!(&r0.kind, o::CompKind::Inst(n, _) if n.name == sys) {
                return Some(*l);
            }
            let rest = split_loop(*r, sys)?;
            Some(o::Comp {
                kind: o::CompKind::Seq(Box::new(paren_comp(*l)), Box::new(paren_comp(rest))),
                span,
            })
        }
        _ => None,
    }
}

/// Renames names in an expression (`.ioco` expressions have no binders).
fn rename_expr(e: &mut o::Expr, map: &[(String, String)]) {
    use o::ExprKind as K;
    match &mut e.kind {
        K::Name(n) => {
            if let Some((_, to)) = map.iter().find(|(f, _)| *f == n.name) {
                n.name = to.clone();
            }
        }
        K::Int(_) | K::Bool(_) | K::Str(_) => {}
        K::Call(_, xs) => xs.iter_mut().for_each(|x| rename_expr(x, map)),
        K::Unary(_, x) | K::Field(x, _) | K::Is(x, _) | K::Paren(x) | K::Matches(x, _) => {
            rename_expr(x, map)
        }
        K::Binary(_, a, b) => {
            rename_expr(a, map);
            rename_expr(b, map);
        }
        K::If(a, b, c) => {
            rename_expr(a, map);
            rename_expr(b, map);
            rename_expr(c, map);
        }
    }
}

fn set_span(e: &mut o::Expr, sp: Span) {
    e.span = sp;
}

/// True when a process body is a composition (lowered to a `system`), not a sequential
/// behaviour (lowered to a `model`).
fn is_structural(b: &t::BExpr) -> bool {
    match &b.kind {
        BKind::Par(..)
        | BKind::Hide(..)
        | BKind::Enable { .. }
        | BKind::Disable(..)
        | BKind::Interrupt(..) => true,
        BKind::Let(_, x) => is_structural(x),
        _ => false,
    }
}
