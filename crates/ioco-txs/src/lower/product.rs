//! A behaviour whose compositions are started with values computed at run time
//! (`In ? id >-> ((P(id) |[G]| Q(id)) >>> ACCEPT ? n IN loop(n) NI)`), or written in a
//! choice, as **one** sequential model: the product of its parts, unfolded by the structural
//! operational semantics of the process operators (Tretmans, *Model-based testing with
//! labelled transition systems*, 2008, §3; TorXakis user manual):
//!
//! * a **location** per *shape* of the behaviour reached: which sequential behaviour each part
//!   is in and which `>>>` are still pending ([`Pt`]); a **variable** per value a part reads,
//!   per part (two parts reading their own `id` get two variables);
//! * `P |[G]| Q`: a step of either side on a channel outside `G` (τ included), or one step of
//!   both on the same channel of `G` with the same values (a value sent by one side is the
//!   other's received value; two sent values must be equal); `|||` synchronises nothing and
//!   `||` every channel;
//! * `EXIT`: both sides of a composition exit together, passing the value one side sends
//!   (sent values must agree); `B >>> ACCEPT ? x IN C NI`: B's exit is an internal step into
//!   C with `x` bound to the value passed, so `p(v) ::= B(v) >>> ACCEPT ? w IN p(w) NI` is a
//!   loop of the product;
//! * a composition in a choice takes part in the choice with its first steps;
//! * `B1 [>> B2` and `B1 [>< B2` ([`Pt::Over`]): `B2`'s first step ends `B1` (disable) or
//!   pauses it until `B2` exits, an internal step back into `B1` (interrupt); `B1`'s exit
//!   ends both.
//!
//! Everything stays exact: a step of the product is a step of the TorXakis behaviour and back.
//! * `HIDE [h] IN B NI`: `h` becomes a gate of its own (named apart), and the model's instance
//!   is wrapped in `hide` of it: its steps are internal, with their values.
//!
//! A multi-action synchronises as in TorXakis: its actions on the synchronised channels meet
//! the same channels of the other side in one step (the step is the union of both sides).
//!
//! What is not unfolded is reported ([`Lowerer::unsupported`]): an `EXIT ? x` whose value nobody
//! sends, and a process that creates processes through a synchronised composition (the shapes
//! would grow without bound; [`MAX_DEPTH`]).

use super::seq::{free_b, Edge, Loc, SeqBuilder, MAX_LOCATIONS};
use super::*;
use std::rc::Rc;

/// Deepest nesting of compositions in one shape (a process that creates processes nests
/// deeper at every step).
const MAX_DEPTH: usize = 24;

/// The state of a behaviour in the product (module documentation). In a location, the
/// values are the model's variables; in a step's target, expressions of the step.
#[derive(Clone)]
enum Pt<'a> {
    /// A sequential behaviour, its channels, and the values of the names it reads.
    Leaf {
        b: &'a t::BExpr,
        genv: Rc<GEnv>,
        vals: Vec<(String, Val)>,
    },
    /// `l |[sync]| r` (`.ioco` gate names); `node` is the composition in the TorXakis text.
    Par {
        node: usize,
        sync: Vec<String>,
        l: Box<Pt<'a>>,
        r: Box<Pt<'a>>,
    },
    /// `l >>> ACCEPT ? accept IN right NI`, with the values `right` reads besides `accept`.
    Enable {
        l: Box<Pt<'a>>,
        accept: &'a [t::VarDecl],
        right: &'a t::BExpr,
        genv: Rc<GEnv>,
        vals: Vec<(String, Val)>,
    },
    /// `l [>> right` (`interrupt` false): a first step of `right` ends `l`; or
    /// `l [>< right` (`interrupt` true): a first step of `right` pauses `l` until `right`
    /// exits (`r`: the interrupter while it runs), and `right` can interrupt again. `l`'s
    /// exit ends both. `vals`: the values `right` reads.
    Over {
        interrupt: bool,
        l: Box<Pt<'a>>,
        r: Option<Box<Pt<'a>>>,
        right: &'a t::BExpr,
        genv: Rc<GEnv>,
        vals: Vec<(String, Val)>,
    },
    /// The copies a process that creates processes has made so far (`bag`, a list of
    /// [`BagInfo`] `node`'s type), interleaved with the process that goes on (`rest`).
    Bag {
        node: usize,
        bag: Val,
        rest: Box<Pt<'a>>,
    },
    /// `STOP`.
    Stop,
}

/// A composition `X ||| P` through which a process creates processes: its pending copies of
/// `X` are kept in a list (a `.ioco` type of its own, a constructor per kind of copy).
struct BagInfo<'a> {
    node: usize,
    /// The list type (also its sort in [`Val`]s) and its empty constructor.
    ty: String,
    empty: String,
    kinds: Vec<Kind<'a>>,
    span: Span,
}

/// A kind of pending copy: a sequential behaviour and the names it reads.
struct Kind<'a> {
    key: String,
    b: &'a t::BExpr,
    genv: Rc<GEnv>,
    names: Vec<(String, String)>,
    /// Per name, when the copy reads only some fields of a record: the record kept with the
    /// others at their default (see [`Proj`]).
    proj: Vec<Option<Proj>>,
    ctor: String,
    /// The functions "is there a copy with these values" and "without one such copy".
    has: String,
    remove: String,
}

/// A record value a pending copy reads only some fields of (`recipeId(produceCmd)`): the bag
/// keeps the record with the fields it does not read at their default, so that copies that
/// behave the same are equal, and a step fixes the copy by the fields it reads.
#[derive(Clone, Debug)]
struct Proj {
    /// The record's `.ioco` constructor.
    ctor: String,
    /// Its fields in order: `.ioco` name, and `None` when read, else the default kept.
    fields: Vec<(String, Option<o::Expr>)>,
}

impl Proj {
    /// The record of field values `read` (by field name) and defaults.
    fn build(&self, read: impl Fn(&str) -> o::Expr, sp: Span) -> o::Expr {
        let xs = self
            .fields
            .iter()
            .map(|(f, d)| d.clone().unwrap_or_else(|| read(f)))
            .collect();
        ex(o::ExprKind::Call(ident(self.ctor.clone(), sp), xs), sp)
    }
}

/// Whether `b` reads `n` only through accessors among `fields` (collected in `out`).
fn only_fields_b(b: &t::BExpr, n: &str, fields: &[String], out: &mut BTreeSet<String>) -> bool {
    let v = |e: &t::VExpr, out: &mut BTreeSet<String>| only_fields_v(e, n, fields, out);
    match &b.kind {
        BKind::Stop | BKind::Hit | BKind::Miss => true,
        BKind::Exit(items) => items.iter().all(|i| match i {
            t::ExitItem::Send(e) => v(e, out),
            t::ExitItem::Recv(x, _) => x.name != n,
        }),
        BKind::Prefix {
            offers,
            guard,
            then,
        } => {
            let mut rebinds = false;
            for o in offers {
                for i in &o.items {
                    match i {
                        t::OfferItem::Send(e) => {
                            if !v(e, out) {
                                return false;
                            }
                        }
                        t::OfferItem::Recv(x, _) => rebinds |= x.name == n,
                    }
                }
            }
            // a `? n` hides the value: conservatively not a projection
            !rebinds
                && guard.as_ref().is_none_or(|g| v(g, out))
                && only_fields_b(then, n, fields, out)
        }
        BKind::Guard(c, x) => v(c, out) && only_fields_b(x, n, fields, out),
        BKind::Choice(xs) => xs.iter().all(|x| only_fields_b(x, n, fields, out)),
        BKind::Par(_, a, c) | BKind::Disable(a, c) | BKind::Interrupt(a, c) => {
            only_fields_b(a, n, fields, out) && only_fields_b(c, n, fields, out)
        }
        BKind::Enable {
            left,
            accept,
            right,
        } => {
            only_fields_b(left, n, fields, out)
                && !accept.iter().any(|a| a.name.name == n)
                && only_fields_b(right, n, fields, out)
        }
        BKind::Hide(_, x) => only_fields_b(x, n, fields, out),
        BKind::Let(binds, x) => {
            binds.iter().all(|(m, _, e)| m.name != n && v(e, out))
                && only_fields_b(x, n, fields, out)
        }
        BKind::Inst { args, .. } => args.iter().all(|e| v(e, out)),
    }
}

fn only_fields_v(e: &t::VExpr, n: &str, fields: &[String], out: &mut BTreeSet<String>) -> bool {
    let v = |e: &t::VExpr, out: &mut BTreeSet<String>| only_fields_v(e, n, fields, out);
    match &e.kind {
        VKind::Int(_) | VKind::Bool(_) | VKind::Str(_) | VKind::Regex(_) => true,
        VKind::Name(m) => m.name != n,
        VKind::Call(f, args) => match args.as_slice() {
            [a] if matches!(&a.kind, VKind::Name(m) if m.name == n) && fields.contains(&f.name) => {
                out.insert(f.name.clone());
                true
            }
            _ => args.iter().all(|a| v(a, out)),
        },
        VKind::Unary(_, a) | VKind::Typed(a, _) => v(a, out),
        VKind::Binary(_, a, b) => v(a, out) && v(b, out),
        VKind::If(c, a, b) => v(c, out) && v(a, out) && v(b, out),
        VKind::Let(binds, body) => {
            binds.iter().all(|(m, _, x)| m.name != n && v(x, out)) && v(body, out)
        }
    }
}

/// The projection of the value `n` of sort `sort` that `b` reads: a record type (one
/// constructor) of which `b` reads only some fields, through accessors.
fn projection(l: &mut Lowerer<'_>, b: &t::BExpr, n: &str, sort: &str) -> Option<Proj> {
    let td = l.types.get(sort).copied()?;
    let [c] = td.ctors.as_slice() else {
        return None;
    };
    let names: Vec<String> = c.fields.iter().map(|f| f.name.name.clone()).collect();
    let mut read = BTreeSet::new();
    // (all fields read: the record is rebuilt from them, so a step fixes it by its fields)
    if !only_fields_b(b, n, &names, &mut read) {
        return None;
    }
    let mut fields = Vec::new();
    for f in &c.fields {
        let d = if read.contains(&f.name.name) {
            None
        } else {
            Some(l.default_value(&f.sort.name, f.name.span, 0)?)
        };
        fields.push((safe(&f.name.name), d));
    }
    Some(Proj {
        ctor: l.ctor_name(sort, &c.name.name),
        fields,
    })
}

/// A step of a shape: its action(s), guard and target.
struct Tr<'a> {
    action: o::Action,
    also: Vec<o::Action>,
    guard: Option<o::Expr>,
    next: Pt<'a>,
    span: Span,
}

/// An exit of a shape: the values passed (a sent value and its sort, or `None` for `? x`).
struct ExitTr {
    vals: Vec<(Option<o::Expr>, String)>,
    guard: Option<o::Expr>,
    span: Span,
}

fn conj(a: Option<o::Expr>, b: Option<o::Expr>) -> Option<o::Expr> {
    match (a, b) {
        (Some(x), Some(y)) => Some(and(x, y)),
        (x, y) => x.or(y),
    }
}

fn eq(a: o::Expr, b: o::Expr) -> o::Expr {
    let span = a.span;
    ex(
        o::ExprKind::Binary(o::BinOp::Eq, Box::new(paren(a)), Box::new(paren(b))),
        span,
    )
}

fn action_gates(a: &o::Action, also: &[o::Action]) -> Vec<String> {
    std::iter::once(a)
        .chain(also)
        .filter_map(|x| match x {
            o::Action::Gate { name, .. } => Some(name.name.clone()),
            _ => None,
        })
        .collect()
}

fn binds_of(a: &o::Action, out: &mut Vec<String>) {
    if let o::Action::Gate { args, .. } = a {
        for x in args {
            if let o::Arg::Bind(i) = x {
                out.push(i.name.clone());
            }
        }
    }
}

fn rename_action(a: &mut o::Action, map: &[(String, String)]) {
    if let o::Action::Gate { args, .. } = a {
        for x in args.iter_mut() {
            match x {
                o::Arg::Bind(i) => {
                    if let Some((_, n)) = map.iter().find(|(f, _)| *f == i.name) {
                        i.name = n.clone();
                    }
                }
                o::Arg::Value(e) => rename_expr(e, map),
            }
        }
    }
}

fn rename_vals(vals: &mut [(String, Val)], map: &[(String, String)]) {
    for (_, v) in vals {
        rename_expr(&mut v.expr, map);
    }
}

fn rename_pt(p: &mut Pt, map: &[(String, String)]) {
    match p {
        Pt::Leaf { vals, .. } => rename_vals(vals, map),
        Pt::Par { l, r, .. } => {
            rename_pt(l, map);
            rename_pt(r, map);
        }
        Pt::Enable { l, vals, .. } => {
            rename_pt(l, map);
            rename_vals(vals, map);
        }
        Pt::Over { l, r, vals, .. } => {
            rename_pt(l, map);
            if let Some(r) = r {
                rename_pt(r, map);
            }
            rename_vals(vals, map);
        }
        Pt::Bag { bag, rest, .. } => {
            rename_expr(&mut bag.expr, map);
            rename_pt(rest, map);
        }
        Pt::Stop => {}
    }
}

/// The shape of `p` (its location key): everything but the values.
fn shape(p: &Pt, out: &mut String) {
    use std::fmt::Write;
    match p {
        Pt::Leaf { b, genv, vals } => {
            let names: Vec<&str> = vals.iter().map(|v| v.0.as_str()).collect();
            let _ = write!(out, "L{:p}", *b);
            genv_key(genv, out);
            let _ = write!(out, "{:?}", names);
        }
        Pt::Par { sync, l, r, .. } => {
            let _ = write!(out, "P{:?}(", sync);
            shape(l, out);
            out.push(',');
            shape(r, out);
            out.push(')');
        }
        Pt::Enable {
            l,
            right,
            genv,
            vals,
            ..
        } => {
            out.push_str("E(");
            shape(l, out);
            let names: Vec<&str> = vals.iter().map(|v| v.0.as_str()).collect();
            let _ = write!(out, ">>>{:p}", *right);
            genv_key(genv, out);
            let _ = write!(out, "{:?})", names);
        }
        Pt::Over {
            interrupt,
            l,
            r,
            right,
            genv,
            vals,
        } => {
            out.push_str(if *interrupt { "I(" } else { "D(" });
            shape(l, out);
            if let Some(r) = r {
                out.push('|');
                shape(r, out);
            }
            let names: Vec<&str> = vals.iter().map(|v| v.0.as_str()).collect();
            let _ = write!(out, "/{:p}", *right);
            genv_key(genv, out);
            let _ = write!(out, "{:?})", names);
        }
        Pt::Bag { node, rest, .. } => {
            let _ = write!(out, "B{}(", node);
            shape(rest, out);
            out.push(')');
        }
        Pt::Stop => out.push('S'),
    }
}

/// The channels of a part, for its shape: each formal name and the gate it stands for (a
/// gate's direction and sorts follow from its name).
fn genv_key(genv: &GEnv, out: &mut String) {
    out.push('[');
    for (k, g) in genv {
        out.push_str(k);
        out.push('=');
        out.push_str(&g.name);
        out.push(',');
    }
    out.push(']');
}

/// The purpose verdict of a shape whose behaviour is `HIT` or `MISS` (also with a `>>>`
/// pending, which never starts: the verdict ends the goal).
fn verdict(p: &Pt) -> Option<&'static str> {
    match p {
        Pt::Leaf { b, .. } => match b.kind {
            BKind::Hit => Some("accept"),
            BKind::Miss => Some("refuse"),
            _ => None,
        },
        Pt::Enable { l, .. } => verdict(l),
        _ => None,
    }
}

fn depth(p: &Pt) -> usize {
    match p {
        Pt::Par { l, r, .. } => 1 + depth(l).max(depth(r)),
        Pt::Enable { l, .. } | Pt::Bag { rest: l, .. } => 1 + depth(l),
        Pt::Over { l, r, .. } => 1 + depth(l).max(r.as_ref().map_or(0, |r| depth(r))),
        _ => 0,
    }
}

/// The values of the names `b` reads, from `scope`.
fn leaf_vals(b: &t::BExpr, scope: &Scope) -> Vec<(String, Val)> {
    let mut free = Vec::new();
    free_b(b, &mut Vec::new(), &mut free);
    free.into_iter()
        .filter_map(|n| scope.get(&n).map(|v| (n.clone(), v.clone())))
        .collect()
}

/// The one sequential model of behaviour `b` (module documentation).
pub(super) fn build<'a>(
    l: &mut Lowerer<'a>,
    name: &str,
    b: &'a t::BExpr,
    genv: &GEnv,
    scope: &Scope,
    sp: Span,
) -> Option<o::Model> {
    build_as(l, name, b, genv, scope, sp, false)
}

/// [`build`] for a purpose's `GOAL`: the internal steps of the product that only pass
/// control (`>>>`'s exit into its right side) are absorbed into the steps that lead to them
/// ([`absorb_internal`]), because a symbolic test purpose observes visible steps only.
pub(super) fn build_goal<'a>(
    l: &mut Lowerer<'a>,
    name: &str,
    b: &'a t::BExpr,
    genv: &GEnv,
    scope: &Scope,
    sp: Span,
) -> Option<o::Model> {
    build_as(l, name, b, genv, scope, sp, true)
}

/// [`build`], or [`build_goal`] with `goal`.
fn build_as<'a>(
    l: &mut Lowerer<'a>,
    name: &str,
    b: &'a t::BExpr,
    genv: &GEnv,
    scope: &Scope,
    sp: Span,
    goal: bool,
) -> Option<o::Model> {
    let mut pb = Product {
        sb: SeqBuilder::default(),
        pts: Vec::new(),
        unfolding: Vec::new(),
        failed: false,
        bags: Vec::new(),
        kinds_changed: false,
        hidden: Vec::new(),
        in_choice: 0,
    };
    // the kinds of pending copies are found while exploring; the steps of the copies are
    // those of every kind, so the exploration starts again until no kind is new
    for _ in 0..8 {
        pb.sb = SeqBuilder {
            name: name.to_string(),
            gates: genv.values().cloned().collect(),
            ..Default::default()
        };
        pb.pts.clear();
        pb.kinds_changed = false;
        let genv = Rc::new(genv.clone());
        let start = pb.state_of(l, b, &genv, scope, 0)?;
        let (entry, assign) = pb.place(l, &start, sp)?;
        let inits: BTreeMap<String, o::Expr> = assign.into_iter().collect();
        while let Some(i) = pb.sb.todo.pop() {
            pb.expand(l, i);
            if pb.failed {
                return None;
            }
        }
        if pb.kinds_changed {
            continue;
        }
        pb.bag_items(l)?;
        if !pb.hidden.is_empty() {
            let names = pb.hidden.iter().map(|h| h.2.name.clone()).collect();
            l.hidden_in_model.insert(name.to_string(), names);
        }
        if goal {
            absorb_internal(&mut pb.sb.edges, entry);
        }
        let sb = std::mem::take(&mut pb.sb);
        return sb.finish(l, entry, inits, sp);
    }
    l.unsupported(
        "a process that creates processes of too many kinds",
        sp,
        "keep the pending behaviour in a variable of a sequential process (docs/language.md §13)",
    );
    None
}

struct Product<'a> {
    sb: SeqBuilder<'a>,
    /// The shape of each location (values: the model's variables).
    pts: Vec<Pt<'a>>,
    /// Sequential processes being unfolded for their first actions (unguarded recursion).
    unfolding: Vec<String>,
    /// An error was reported.
    failed: bool,
    /// The bags of processes that create processes.
    bags: Vec<BagInfo<'a>>,
    /// A kind of pending copy was found since the exploration started (it starts again).
    kinds_changed: bool,
    /// The gates of the channels hidden inside (`HIDE [h] IN B NI`): the `HIDE`'s address,
    /// the channel's position in it, and its gate, named apart from every other gate of the
    /// model; the model's instance is wrapped in `hide` of them.
    hidden: Vec<(usize, usize, Gate)>,
    /// How deep the first steps of compositions in choices are nested now (`pt_steps`).
    in_choice: usize,
}

impl<'a> Product<'a> {
    fn unsupported(&mut self, l: &mut Lowerer<'a>, what: &str, sp: Span, help: &str) {
        l.unsupported(what, sp, help);
        self.failed = true;
    }

    /// The state of behaviour `b` with channels `genv` and values `scope`.
    fn state_of(
        &mut self,
        l: &mut Lowerer<'a>,
        b: &'a t::BExpr,
        genv: &Rc<GEnv>,
        scope: &Scope,
        d: usize,
    ) -> Option<Pt<'a>> {
        if d > MAX_DEPTH {
            self.unsupported(
                l,
                "a process that creates processes (recursion through a parallel composition)",
                b.span,
                "keep the pending behaviour in a variable (a counter or a list) of a sequential process (docs/language.md §13)",
            );
            return None;
        }
        let leaf = |b: &'a t::BExpr, genv: &Rc<GEnv>, scope: &Scope| Pt::Leaf {
            b,
            genv: genv.clone(),
            vals: leaf_vals(b, scope),
        };
        match &b.kind {
            BKind::Par(op, x, y) => {
                let sync = match op {
                    t::ParOp::Interleave => Vec::new(),
                    t::ParOp::Full => genv.values().map(|g| g.name.clone()).collect(),
                    t::ParOp::Gates(gs) => {
                        let mut out = Vec::new();
                        for g in gs {
                            match genv.get(&g.name) {
                                Some(x) => out.push(x.name.clone()),
                                None => {
                                    l.unknown_gate(g, genv);
                                    self.failed = true;
                                    return None;
                                }
                            }
                        }
                        out
                    }
                };
                let lp = self.state_of(l, x, genv, scope, d + 1)?;
                let rp = self.state_of(l, y, genv, scope, d + 1)?;
                Some(Pt::Par {
                    node: b as *const t::BExpr as usize,
                    sync,
                    l: Box::new(lp),
                    r: Box::new(rp),
                })
            }
            BKind::Enable {
                left,
                accept,
                right,
            } => {
                let lp = self.state_of(l, left, genv, scope, d + 1)?;
                let mut free = Vec::new();
                free_b(
                    right,
                    &mut accept.iter().map(|a| a.name.name.clone()).collect(),
                    &mut free,
                );
                let vals = free
                    .into_iter()
                    .filter_map(|n| scope.get(&n).map(|v| (n.clone(), v.clone())))
                    .collect();
                Some(Pt::Enable {
                    l: Box::new(lp),
                    accept,
                    right,
                    genv: genv.clone(),
                    vals,
                })
            }
            BKind::Let(binds, x) => {
                let sc = l.bind_lets(binds, scope)?;
                self.state_of(l, x, genv, &sc, d)
            }
            BKind::Stop => Some(Pt::Stop),
            BKind::Inst { name, gates, args } => match l.procs.get(&name.name).copied() {
                Some(p) => {
                    let (g2, sc2) = l.bind_call(p, gates, args, genv, scope, b.span)?;
                    let g2 = Rc::new(g2);
                    if is_structural(&p.body) {
                        self.state_of(l, &p.body, &g2, &sc2, d + 1)
                    } else {
                        Some(leaf(&p.body, &g2, &sc2))
                    }
                }
                None => {
                    self.unsupported(
                        l,
                        &format!(
                            "a call of `{}` inside a composition started with values computed at run time",
                            name.name
                        ),
                        b.span,
                        "call a PROCDEF here (a STAUTDEF can be called from the MODELDEF's BEHAVIOUR)",
                    );
                    None
                }
            },
            BKind::Disable(x, y) | BKind::Interrupt(x, y) => {
                let lp = self.state_of(l, x, genv, scope, d + 1)?;
                Some(Pt::Over {
                    interrupt: matches!(b.kind, BKind::Interrupt(..)),
                    l: Box::new(lp),
                    r: None,
                    right: y,
                    genv: genv.clone(),
                    vals: leaf_vals(y, scope),
                })
            }
            BKind::Hide(chans, x) => {
                // a gate per hidden channel, the same each time this HIDE is reached: two
                // copies of it running at once never synchronise on it, since only the
                // compositions inside it list the gate
                let mut g2 = (**genv).clone();
                for (k, c) in chans.iter().enumerate() {
                    let key = (b as *const t::BExpr as usize, k);
                    let gate = match self.hidden.iter().find(|h| (h.0, h.1) == key) {
                        Some(h) => h.2.clone(),
                        None => {
                            let taken: HashSet<&str> = (self.sb.gates.iter())
                                .chain(genv.values())
                                .chain(self.hidden.iter().map(|h| &h.2))
                                .map(|g| g.name.as_str())
                                .collect();
                            let base = safe(&c.name.name);
                            let mut n = format!("{base}_hidden");
                            let mut i = 1;
                            while taken.contains(n.as_str()) {
                                i += 1;
                                n = format!("{base}_hidden{i}");
                            }
                            let g = Gate {
                                name: n,
                                input: false,
                                sorts: c.sorts.iter().map(sort_text).collect(),
                            };
                            self.hidden.push((key.0, key.1, g.clone()));
                            g
                        }
                    };
                    if !self.sb.gates.iter().any(|g| g.name == gate.name) {
                        self.sb.gates.push(gate.clone());
                    }
                    g2.insert(c.name.name.clone(), gate);
                }
                self.state_of(l, x, &Rc::new(g2), scope, d + 1)
            }
            _ => Some(leaf(b, genv, scope)),
        }
    }

    /// The location of state `p` (created and queued if new) and the assignments of its
    /// variables from `p`'s values.
    fn place(
        &mut self,
        l: &mut Lowerer<'a>,
        p: &Pt<'a>,
        sp: Span,
    ) -> Option<(usize, Vec<(String, o::Expr)>)> {
        let p = &self.norm(l, p.clone())?;
        let mut key = String::new();
        shape(p, &mut key);
        let mut assign = Vec::new();
        if let Some(&i) = self.sb.index.get(&key) {
            self.assign(&self.pts[i], p, &mut assign);
            return Some((i, assign));
        }
        if self.sb.locs.len() >= MAX_LOCATIONS {
            l.error(
                "ioco::txs::too_big",
                format!("the process has more than {} locations", MAX_LOCATIONS),
                sp,
                "here",
            );
            self.failed = true;
            return None;
        }
        let mut vars = BTreeMap::new();
        let mut sorts = BTreeMap::new();
        let mut first: Option<&'a t::BExpr> = None;
        let placed = self.vars(l, p, "", &mut vars, &mut sorts, &mut first, sp)?;
        let i = self.sb.locs.len();
        self.sb.locs.push(Loc {
            name: format!("s{}", i),
            b: first.unwrap_or(&super::seq::EXIT_ONLY),
            genv: GEnv::new(),
            vars,
            sorts,
        });
        self.sb.index.insert(key, i);
        self.sb.todo.push(i);
        self.assign(&placed, p, &mut assign);
        self.pts.push(placed);
        Some((i, assign))
    }

    /// `p` with its values replaced by the model variables of its parts (made if new): part
    /// `path`'s name `x` is variable `x` (or `x_2`, ...).
    #[allow(clippy::too_many_arguments)]
    fn vars(
        &mut self,
        l: &mut Lowerer<'a>,
        p: &Pt<'a>,
        path: &str,
        vars: &mut BTreeMap<String, String>,
        sorts: &mut BTreeMap<String, String>,
        first: &mut Option<&'a t::BExpr>,
        sp: Span,
    ) -> Option<Pt<'a>> {
        Some(match p {
            Pt::Leaf { b, genv, vals } => {
                first.get_or_insert(b);
                Pt::Leaf {
                    b,
                    genv: genv.clone(),
                    vals: self.name_vals(l, vals, path, vars, sorts, sp)?,
                }
            }
            Pt::Par {
                node,
                sync,
                l: a,
                r: c,
            } => {
                let a2 = self.vars(l, a, &format!("{}l", path), vars, sorts, first, sp)?;
                let c2 = self.vars(l, c, &format!("{}r", path), vars, sorts, first, sp)?;
                Pt::Par {
                    node: *node,
                    sync: sync.clone(),
                    l: Box::new(a2),
                    r: Box::new(c2),
                }
            }
            Pt::Enable {
                l: a,
                accept,
                right,
                genv,
                vals,
            } => {
                let a2 = self.vars(l, a, &format!("{}e", path), vars, sorts, first, sp)?;
                Pt::Enable {
                    l: Box::new(a2),
                    accept,
                    right,
                    genv: genv.clone(),
                    vals: self.name_vals(l, vals, &format!("{}+", path), vars, sorts, sp)?,
                }
            }
            Pt::Over {
                interrupt,
                l: a,
                r,
                right,
                genv,
                vals,
            } => {
                let a2 = self.vars(l, a, &format!("{}o", path), vars, sorts, first, sp)?;
                let r2 = match r {
                    Some(r) => Some(Box::new(self.vars(
                        l,
                        r,
                        &format!("{}x", path),
                        vars,
                        sorts,
                        first,
                        sp,
                    )?)),
                    None => None,
                };
                Pt::Over {
                    interrupt: *interrupt,
                    l: Box::new(a2),
                    r: r2,
                    right,
                    genv: genv.clone(),
                    vals: self.name_vals(l, vals, &format!("{}^", path), vars, sorts, sp)?,
                }
            }
            Pt::Bag { node, bag, rest } => {
                let rest2 = self.vars(l, rest, &format!("{}b", path), vars, sorts, first, sp)?;
                let named = self.name_vals(
                    l,
                    &[("pending".to_string(), bag.clone())],
                    &format!("{}b", path),
                    vars,
                    sorts,
                    sp,
                )?;
                Pt::Bag {
                    node: *node,
                    bag: named[0].1.clone(),
                    rest: Box::new(rest2),
                }
            }
            Pt::Stop => Pt::Stop,
        })
    }

    /// The variables of part `path`'s values (made if new), as the values of a location.
    fn name_vals(
        &mut self,
        l: &mut Lowerer<'a>,
        vals: &[(String, Val)],
        path: &str,
        vars: &mut BTreeMap<String, String>,
        sorts: &mut BTreeMap<String, String>,
        sp: Span,
    ) -> Option<Vec<(String, Val)>> {
        let mut out = Vec::new();
        for (n, v) in vals {
            if v.sort.is_empty() {
                l.error(
                    "ioco::txs::sort",
                    format!("cannot tell the sort of `{}`", n),
                    sp,
                    "used after this action",
                );
                self.failed = true;
                return None;
            }
            let k = (format!("{}/{}", path, n), v.sort.clone());
            let var = self.sb.var_for(k.clone(), n);
            vars.insert(k.0.clone(), var.clone());
            sorts.insert(k.0, v.sort.clone());
            out.push((
                n.clone(),
                Val {
                    expr: name_expr(&var, sp),
                    sort: v.sort.clone(),
                },
            ));
        }
        Some(out)
    }

    /// The assignments `variable = value` from a placed shape and a state of that shape.
    fn assign(&self, placed: &Pt, p: &Pt, out: &mut Vec<(String, o::Expr)>) {
        fn pairs(a: &[(String, Val)], b: &[(String, Val)], out: &mut Vec<(String, o::Expr)>) {
            for ((_, x), (_, y)) in a.iter().zip(b) {
                if let o::ExprKind::Name(v) = &x.expr.kind {
                    out.push((v.name.clone(), y.expr.clone()));
                }
            }
        }
        match (placed, p) {
            (Pt::Leaf { vals: a, .. }, Pt::Leaf { vals: b, .. }) => pairs(a, b, out),
            (Pt::Par { l: a, r: c, .. }, Pt::Par { l: b, r: d, .. }) => {
                self.assign(a, b, out);
                self.assign(c, d, out);
            }
            (Pt::Enable { l: a, vals: va, .. }, Pt::Enable { l: b, vals: vb, .. }) => {
                self.assign(a, b, out);
                pairs(va, vb, out);
            }
            (
                Pt::Over {
                    l: a,
                    r: ra,
                    vals: va,
                    ..
                },
                Pt::Over {
                    l: b,
                    r: rb,
                    vals: vb,
                    ..
                },
            ) => {
                self.assign(a, b, out);
                if let (Some(x), Some(y)) = (ra, rb) {
                    self.assign(x, y, out);
                }
                pairs(va, vb, out);
            }
            (
                Pt::Bag {
                    bag: x, rest: a, ..
                },
                Pt::Bag {
                    bag: y, rest: b, ..
                },
            ) => {
                if let o::ExprKind::Name(v) = &x.expr.kind {
                    out.push((v.name.clone(), y.expr.clone()));
                }
                self.assign(a, b, out);
            }
            _ => {}
        }
    }

    /// The switches of location `i`.
    fn expand(&mut self, l: &mut Lowerer<'a>, i: usize) {
        let p = self.pts[i].clone();
        // a goal's verdict (`HIT`, `MISS`) ends the purpose: a sink named `accept…`/`refuse…`
        if let Some(v) = verdict(&p) {
            self.sb.verdict.insert(i, v);
            return;
        }
        let taken: HashSet<String> = self.sb.vars.keys().cloned().collect();
        let Some((trs, exits)) = self.steps(l, &p, &taken) else {
            self.failed = true;
            return;
        };
        for tr in trs {
            let Some((to, assign)) = self.place(l, &tr.next, tr.span) else {
                return;
            };
            self.sb.edges.push(Edge {
                from: i,
                action: tr.action,
                also: tr.also,
                guard: tr.guard,
                assign,
                to: Some(to),
                span: tr.span,
            });
        }
        for e in exits {
            if e.vals.iter().any(|v| v.0.is_some()) && !l.exit_passed {
                self.unsupported(
                    l,
                    "`EXIT` with values at the end of the behaviour",
                    e.span,
                    "pass the values over a hidden channel synchronised with the process that continues (docs/language.md §13)",
                );
                return;
            }
            self.sb.exits = true;
            self.sb.edges.push(Edge {
                from: i,
                action: o::Action::Exit(e.span),
                also: Vec::new(),
                guard: e.guard,
                assign: Vec::new(),
                to: None,
                span: e.span,
            });
        }
    }

    /// The steps and exits of state `p`.
    fn steps(
        &mut self,
        l: &mut Lowerer<'a>,
        p: &Pt<'a>,
        taken: &HashSet<String>,
    ) -> Option<(Vec<Tr<'a>>, Vec<ExitTr>)> {
        let mut trs = Vec::new();
        let mut exits = Vec::new();
        match p {
            Pt::Stop => {}
            Pt::Over { .. } => self.over_steps(l, p, taken, &mut trs, &mut exits)?,
            Pt::Leaf { b, genv, vals } => {
                let scope: Scope = vals.iter().cloned().collect();
                self.leaf_steps(l, b, genv, &scope, None, taken, &mut trs, &mut exits)?;
            }
            Pt::Bag { node, bag, rest } => {
                let (tr, er) = self.steps(l, rest, taken)?;
                for t in tr {
                    trs.push(Tr {
                        next: Pt::Bag {
                            node: *node,
                            bag: bag.clone(),
                            rest: Box::new(t.next),
                        },
                        ..t
                    });
                }
                if !er.is_empty() {
                    self.unsupported(
                        l,
                        "a process that creates processes and may EXIT",
                        er[0].span,
                        "end the process that creates processes with STOP or a recursive call",
                    );
                    return None;
                }
                self.bag_steps(l, *node, bag, rest, taken, &mut trs)?;
            }
            Pt::Par {
                node,
                sync,
                l: a,
                r: c,
            } => {
                let (ta, ea) = self.steps(l, a, taken)?;
                let (tc, ec) = self.steps(l, c, taken)?;
                let synced = |t: &Tr| {
                    action_gates(&t.action, &t.also)
                        .iter()
                        .any(|g| sync.contains(g))
                };
                // a step of one side alone, the other side unchanged
                let alone = |t: &Tr<'a>, left: bool| Tr {
                    action: t.action.clone(),
                    also: t.also.clone(),
                    guard: t.guard.clone(),
                    next: Pt::Par {
                        node: *node,
                        sync: sync.clone(),
                        l: if left {
                            Box::new(t.next.clone())
                        } else {
                            a.clone()
                        },
                        r: if left {
                            c.clone()
                        } else {
                            Box::new(t.next.clone())
                        },
                    },
                    span: t.span,
                };
                trs.extend(ta.iter().filter(|t| !synced(t)).map(|t| alone(t, true)));
                trs.extend(tc.iter().filter(|t| !synced(t)).map(|t| alone(t, false)));
                for t1 in ta.iter().filter(|t| synced(t)) {
                    for t2 in tc.iter().filter(|t| synced(t)) {
                        if let Some(t) = self.sync_step(l, *node, sync, t1, t2, taken) {
                            trs.push(t);
                        } else if self.failed {
                            return None;
                        }
                    }
                }
                for e1 in &ea {
                    for e2 in &ec {
                        let mut guard = conj(e1.guard.clone(), e2.guard.clone());
                        let mut vals = Vec::new();
                        for (x, y) in e1.vals.iter().zip(&e2.vals) {
                            vals.push(match (&x.0, &y.0) {
                                (Some(u), Some(w)) => {
                                    guard = conj(guard, Some(eq(u.clone(), w.clone())));
                                    (Some(u.clone()), x.1.clone())
                                }
                                (Some(u), None) | (None, Some(u)) => (Some(u.clone()), x.1.clone()),
                                (None, None) => (None, x.1.clone()),
                            });
                        }
                        exits.push(ExitTr {
                            vals,
                            guard,
                            span: e1.span,
                        });
                    }
                }
            }
            Pt::Enable {
                l: a,
                accept,
                right,
                genv,
                vals,
            } => {
                let (ta, ea) = self.steps(l, a, taken)?;
                for t in ta {
                    trs.push(Tr {
                        next: Pt::Enable {
                            l: Box::new(t.next),
                            accept,
                            right,
                            genv: genv.clone(),
                            vals: vals.clone(),
                        },
                        ..t
                    });
                }
                for e in ea {
                    // the exit is an internal step into the right side, the values accepted
                    let mut scope: Scope = vals.iter().cloned().collect();
                    if !accept.is_empty() && accept.len() != e.vals.len() {
                        self.unsupported(
                            l,
                            "an `ACCEPT` whose variables do not match the values of the `EXIT`",
                            e.span,
                            "accept as many values as the left side exits with",
                        );
                        return None;
                    }
                    for (a2, (v, sort)) in accept.iter().zip(&e.vals) {
                        let Some(v) = v else {
                            self.unsupported(
                                l,
                                "an `EXIT ? x` whose value no side sends, passed on to `ACCEPT`",
                                e.span,
                                "send the value on one side: `EXIT ! x`",
                            );
                            return None;
                        };
                        let sort = if a2.sort.name.is_empty() {
                            sort.clone()
                        } else {
                            sort_text(&a2.sort)
                        };
                        scope.insert(
                            a2.name.name.clone(),
                            Val {
                                expr: v.clone(),
                                sort,
                            },
                        );
                    }
                    let next = self.state_of(l, right, genv, &scope, 0)?;
                    trs.push(Tr {
                        action: o::Action::Tau(e.span),
                        also: Vec::new(),
                        guard: e.guard,
                        next,
                        span: e.span,
                    });
                }
            }
        }
        for t in &trs {
            if depth(&t.next) > MAX_DEPTH {
                self.unsupported(
                    l,
                    "a process that creates processes (recursion through a parallel composition)",
                    t.span,
                    "keep the pending behaviour in a variable (a counter or a list) of a sequential process (docs/language.md §13)",
                );
                return None;
            }
        }
        Some((trs, exits))
    }

    /// The steps and exits of `l [>> right` and `l [>< right` (see [`Pt::Over`]).
    fn over_steps(
        &mut self,
        l: &mut Lowerer<'a>,
        p: &Pt<'a>,
        taken: &HashSet<String>,
        trs: &mut Vec<Tr<'a>>,
        exits: &mut Vec<ExitTr>,
    ) -> Option<()> {
        let Pt::Over {
            interrupt,
            l: a,
            r,
            right,
            genv,
            vals,
        } = p
        else {
            return Some(());
        };
        let over = |l2: Pt<'a>, r2: Option<Pt<'a>>| Pt::Over {
            interrupt: *interrupt,
            l: Box::new(l2),
            r: r2.map(Box::new),
            right,
            genv: genv.clone(),
            vals: vals.clone(),
        };
        match r {
            None => {
                // the left side runs; its exit ends both
                let (ta, ea) = self.steps(l, a, taken)?;
                for t in ta {
                    let next = over(t.next.clone(), None);
                    trs.push(Tr { next, ..t });
                }
                exits.extend(ea);
                // a first step of the right side disables the left side, or interrupts it
                let scope: Scope = vals.iter().cloned().collect();
                let start = self.state_of(l, right, genv, &scope, 0)?;
                let (tr, er) = self.steps(l, &start, taken)?;
                for t in tr {
                    let next = if *interrupt {
                        over((**a).clone(), Some(t.next.clone()))
                    } else {
                        t.next.clone()
                    };
                    trs.push(Tr { next, ..t });
                }
                if let Some(e) = er.first() {
                    if *interrupt {
                        self.unsupported(
                            l,
                            "an interrupting behaviour that may EXIT before any action",
                            e.span,
                            "start the interrupting behaviour with an action",
                        );
                        return None;
                    }
                    exits.extend(er);
                }
            }
            Some(rr) => {
                // the interrupter runs, the left side paused; its exit resumes the left
                // side (an internal step), and it can interrupt again from its start
                let (tr, er) = self.steps(l, rr, taken)?;
                for t in tr {
                    let next = over((**a).clone(), Some(t.next.clone()));
                    trs.push(Tr { next, ..t });
                }
                for e in er {
                    trs.push(Tr {
                        action: o::Action::Tau(e.span),
                        also: Vec::new(),
                        guard: e.guard,
                        next: over((**a).clone(), None),
                        span: e.span,
                    });
                }
            }
        }
        Some(())
    }

    /// One step of both sides on the synchronised channels: `t1`'s received names are kept,
    /// `t2`'s are renamed apart, equal to `t1`'s values. A multi-action synchronises as in
    /// TorXakis: both sides' actions on the synchronised channels are the same set of
    /// channels, each pair unified, and the step is the union of both sides' actions
    /// (`Acquire | Up` meets a semaphore's `Acquire`: the step `Acquire | Up`).
    #[allow(clippy::too_many_arguments)]
    fn sync_step(
        &mut self,
        l: &mut Lowerer<'a>,
        node: usize,
        sync: &[String],
        t1: &Tr<'a>,
        t2: &Tr<'a>,
        taken: &HashSet<String>,
    ) -> Option<Tr<'a>> {
        let acts1: Vec<&o::Action> = std::iter::once(&t1.action).chain(&t1.also).collect();
        let acts2: Vec<&o::Action> = std::iter::once(&t2.action).chain(&t2.also).collect();
        let gate = |a: &o::Action| match a {
            o::Action::Gate { name, .. } => Some(name.name.clone()),
            _ => None,
        };
        let synced = |acts: &[&o::Action]| -> Option<Vec<String>> {
            let mut gs = Vec::new();
            for a in acts {
                let g = gate(a)?;
                if sync.contains(&g) {
                    gs.push(g);
                }
            }
            gs.sort();
            Some(gs)
        };
        let (Some(g1), Some(g2)) = (synced(&acts1), synced(&acts2)) else {
            return None;
        };
        if g1 != g2 || g1.is_empty() {
            return None;
        }
        if g1.windows(2).any(|w| w[0] == w[1]) {
            self.unsupported(
                l,
                "a multi-action with one synchronised channel twice inside a composition started with values computed at run time",
                t2.span,
                "synchronise each channel once per step",
            );
            return None;
        }
        // rename t2's received names apart from t1's and from the variables
        let mut used: Vec<String> = Vec::new();
        for a in &acts1 {
            binds_of(a, &mut used);
        }
        let mut mine = Vec::new();
        for a in &acts2 {
            binds_of(a, &mut mine);
        }
        let mut map = Vec::new();
        for n in &mine {
            let mut k = 2;
            let mut m = format!("{}_{}", n, k);
            while used.contains(&m) || mine.contains(&m) || taken.contains(&m) {
                k += 1;
                m = format!("{}_{}", n, k);
            }
            used.push(m.clone());
            map.push((n.clone(), m));
        }
        let mut acts2: Vec<o::Action> = acts2.into_iter().cloned().collect();
        for a in &mut acts2 {
            rename_action(a, &map);
        }
        let mut g2 = t2.guard.clone();
        if let Some(g) = &mut g2 {
            rename_expr(g, &map);
        }
        let mut next2 = t2.next.clone();
        rename_pt(&mut next2, &map);
        // unify each synchronised channel's values position by position
        let mut guard = conj(t1.guard.clone(), None);
        let mut same = Vec::new();
        let mut out: Vec<o::Action> = Vec::new();
        for a1 in &acts1 {
            let o::Action::Gate {
                name: n1,
                args: x1,
                dir,
                dir_span,
            } = a1
            else {
                return None;
            };
            if !sync.contains(&n1.name) {
                out.push((*a1).clone());
                continue;
            }
            let Some(o::Action::Gate { args: x2, .. }) = acts2
                .iter()
                .find(|a| gate(a).as_deref() == Some(n1.name.as_str()))
            else {
                return None;
            };
            if x1.len() != x2.len() {
                return None;
            }
            let mut args = Vec::new();
            for (x, y) in x1.iter().zip(x2) {
                match (x, y) {
                    (o::Arg::Bind(p), o::Arg::Bind(q)) => {
                        same.push((q.name.clone(), p.name.clone()));
                        args.push(o::Arg::Bind(p.clone()));
                    }
                    (o::Arg::Bind(p), o::Arg::Value(e)) | (o::Arg::Value(e), o::Arg::Bind(p)) => {
                        guard = conj(guard, Some(eq(name_expr(&p.name, p.span), e.clone())));
                        args.push(o::Arg::Bind(p.clone()));
                    }
                    (o::Arg::Value(e1), o::Arg::Value(e2)) => {
                        guard = conj(guard, Some(eq(e1.clone(), e2.clone())));
                        args.push(o::Arg::Value(e1.clone()));
                    }
                }
            }
            out.push(o::Action::Gate {
                name: n1.clone(),
                dir: *dir,
                dir_span: *dir_span,
                args,
            });
        }
        // t2's actions on channels it does not synchronise join the step
        for a2 in &acts2 {
            if gate(a2).is_some_and(|g| !sync.contains(&g)) {
                let mut a = a2.clone();
                rename_action(&mut a, &same);
                out.push(a);
            }
        }
        if let Some(g) = &mut g2 {
            rename_expr(g, &same);
        }
        rename_pt(&mut next2, &same);
        // a value bound on t1's side and sent on t2's: the guard above equates them
        guard = conj(guard, g2);
        let action = out.remove(0);
        Some(Tr {
            action,
            also: out,
            guard,
            next: Pt::Par {
                node,
                sync: sync.to_vec(),
                l: Box::new(t1.next.clone()),
                r: Box::new(next2),
            },
            span: t1.span,
        })
    }

    /// The steps and exits of the sequential behaviour `b` under `guard`.
    #[allow(clippy::too_many_arguments)]
    fn leaf_steps(
        &mut self,
        l: &mut Lowerer<'a>,
        b: &'a t::BExpr,
        genv: &Rc<GEnv>,
        scope: &Scope,
        guard: Option<o::Expr>,
        taken: &HashSet<String>,
        trs: &mut Vec<Tr<'a>>,
        exits: &mut Vec<ExitTr>,
    ) -> Option<()> {
        let sp = b.span;
        match &b.kind {
            BKind::Stop => {}
            BKind::Hit | BKind::Miss => {
                self.unsupported(
                    l,
                    "`HIT`/`MISS` inside a composition",
                    sp,
                    "end a goal's branch with `>-> HIT` or `>-> MISS` in a sequential process",
                );
                return None;
            }
            BKind::Exit(items) => {
                let mut vals = Vec::new();
                for i in items {
                    match i {
                        t::ExitItem::Send(e) => {
                            let x = l.vexpr(e, scope)?;
                            let sort = l.sort_of(e, scope).unwrap_or_default();
                            vals.push((Some(x), sort));
                        }
                        t::ExitItem::Recv(_, s) => vals.push((None, sort_text(s))),
                    }
                }
                exits.push(ExitTr {
                    vals,
                    guard,
                    span: sp,
                });
            }
            BKind::Prefix {
                offers,
                guard: g2,
                then,
            } => {
                let mut sc = scope.clone();
                let (action, also, g) = l.offers(offers, g2.as_ref(), genv, &mut sc, sp, taken)?;
                let next = self.state_of(l, then, genv, &sc, 0)?;
                trs.push(Tr {
                    action,
                    also,
                    guard: conj(guard, g),
                    next,
                    span: sp,
                });
            }
            BKind::Guard(c, x) => {
                let c = l.vexpr(c, scope)?;
                self.leaf_steps(l, x, genv, scope, conj(guard, Some(c)), taken, trs, exits)?;
            }
            BKind::Choice(xs) => {
                for x in xs {
                    self.leaf_steps(l, x, genv, scope, guard.clone(), taken, trs, exits)?;
                }
            }
            BKind::Let(binds, x) => {
                let sc = l.bind_lets(binds, scope)?;
                self.leaf_steps(l, x, genv, &sc, guard, taken, trs, exits)?;
            }
            BKind::Inst { name, gates, args } if l.procs.contains_key(&name.name) => {
                let p = l.procs[&name.name];
                if is_structural(&p.body) {
                    // a composition whose first steps need its own first steps again (`p ::=
                    // a >-> STOP ## (b >-> STOP ||| p)`) is unguarded recursion
                    let mut key = format!("structural {}", p.name.name);
                    genv_key(genv, &mut key);
                    if self.unfolding.contains(&key) {
                        l.unguarded(p, sp);
                        self.failed = true;
                        return None;
                    }
                    self.unfolding.push(key);
                    let r = self
                        .state_of(l, b, genv, scope, 0)
                        .and_then(|pt| self.pt_steps(l, &pt, sp, guard, taken, trs, exits));
                    self.unfolding.pop();
                    return r;
                }
                let (g2, sc2) = l.bind_call(p, gates, args, genv, scope, sp)?;
                let g2 = Rc::new(g2);
                let mut key = p.name.name.clone();
                genv_key(&g2, &mut key);
                if self.unfolding.contains(&key) {
                    l.unguarded(p, sp);
                    self.failed = true;
                    return None;
                }
                self.unfolding.push(key);
                let r = self.leaf_steps(l, &p.body, &g2, &sc2, guard, taken, trs, exits);
                self.unfolding.pop();
                r?;
            }
            _ => {
                let pt = self.state_of(l, b, genv, scope, 0)?;
                if matches!(pt, Pt::Leaf { .. }) {
                    // not a composition after all (an unknown process): reported by state_of
                    self.failed = true;
                    return None;
                }
                return self.pt_steps(l, &pt, sp, guard, taken, trs, exits);
            }
        }
        Some(())
    }

    /// The steps of a composition met in a choice, under `guard`.
    #[allow(clippy::too_many_arguments)]
    fn pt_steps(
        &mut self,
        l: &mut Lowerer<'a>,
        pt: &Pt<'a>,
        sp: Span,
        guard: Option<o::Expr>,
        taken: &HashSet<String>,
        trs: &mut Vec<Tr<'a>>,
        exits: &mut Vec<ExitTr>,
    ) -> Option<()> {
        // compositions met in choices, nested in their own first steps: bounded (a process
        // that starts compositions of itself before any action unfolds without end)
        if self.in_choice >= MAX_DEPTH {
            self.unsupported(
                l,
                "a composition whose first steps start compositions without bound",
                sp,
                "put an action before the composition in the choice",
            );
            return None;
        }
        self.in_choice += 1;
        let r = self.steps(l, pt, taken);
        self.in_choice -= 1;
        let (t, e) = r?;
        for mut x in t {
            x.guard = conj(guard.clone(), x.guard);
            trs.push(x);
        }
        for mut x in e {
            x.guard = conj(guard.clone(), x.guard);
            exits.push(x);
        }
        Some(())
    }
}

/// Absorbs the internal steps out of locations that have nothing but internal steps: a step
/// `F --a [g] {A}--> X` and `X --τ [h] {B}--> Y` become `F --a [g ∧ h[A]] {B[A], A}--> Y`
/// (the assignments are simultaneous; `B` reads the values `A` gave, a variable `B` does not
/// assign keeps `A`'s). The traces of visible actions and the values reached stay the same;
/// a location left without incoming steps loses its internal steps. The entry location is
/// kept as it is (its internal steps remain).
fn absorb_internal(edges: &mut Vec<Edge>, entry: usize) {
    let is_tau = |e: &Edge| matches!(e.action, o::Action::Tau(_)) && e.also.is_empty();
    // a bound on the rounds: a cycle of internal steps is never absorbed away
    for _ in 0..64 {
        let froms: BTreeSet<usize> = edges.iter().map(|e| e.from).collect();
        let Some(x) = froms.into_iter().find(|&x| {
            x != entry
                && edges.iter().filter(|e| e.from == x).all(is_tau)
                && edges
                    .iter()
                    .filter(|e| e.from == x)
                    .all(|e| e.to != Some(x))
                && edges.iter().any(|e| e.to == Some(x))
        }) else {
            return;
        };
        let taus: Vec<Edge> = edges
            .iter()
            .filter(|e| e.from == x)
            .map(|e| Edge {
                from: e.from,
                action: e.action.clone(),
                also: Vec::new(),
                guard: e.guard.clone(),
                assign: e.assign.clone(),
                to: e.to,
                span: e.span,
            })
            .collect();
        let mut out = Vec::new();
        for e in edges.drain(..) {
            if e.from == x {
                continue;
            }
            if e.to != Some(x) {
                out.push(e);
                continue;
            }
            let map: HashMap<String, o::Expr> = e.assign.iter().cloned().collect();
            for t in &taus {
                let guard = conj(e.guard.clone(), t.guard.as_ref().map(|h| subst(h, &map)));
                let mut assign: Vec<(String, o::Expr)> = t
                    .assign
                    .iter()
                    .map(|(w, f)| (w.clone(), subst(f, &map)))
                    .collect();
                for (v, a) in &e.assign {
                    if !assign.iter().any(|(w, _)| w == v) {
                        assign.push((v.clone(), a.clone()));
                    }
                }
                out.push(Edge {
                    from: e.from,
                    action: e.action.clone(),
                    also: e.also.clone(),
                    guard,
                    assign,
                    to: t.to,
                    span: e.span,
                });
            }
        }
        *edges = out;
    }
}

/// `e` with the names of `map` replaced by their expressions.
fn subst(e: &o::Expr, map: &HashMap<String, o::Expr>) -> o::Expr {
    use o::ExprKind as K;
    let b = |x: &o::Expr| Box::new(subst(x, map));
    let kind = match &e.kind {
        K::Name(n) => match map.get(&n.name) {
            Some(x) => return paren(x.clone()),
            None => K::Name(n.clone()),
        },
        K::Int(_) | K::Bool(_) | K::Str(_) => return e.clone(),
        K::Call(f, xs) => K::Call(f.clone(), xs.iter().map(|x| subst(x, map)).collect()),
        K::Unary(op, x) => K::Unary(*op, b(x)),
        K::Binary(op, x, y) => K::Binary(*op, b(x), b(y)),
        K::If(x, y, z) => K::If(b(x), b(y), b(z)),
        K::Field(x, f) => K::Field(b(x), f.clone()),
        K::Is(x, c) => K::Is(b(x), c.clone()),
        K::Matches(x, r) => K::Matches(b(x), r.clone()),
        K::Paren(x) => K::Paren(b(x)),
    };
    ex(kind, e.span)
}

fn mentions(e: &o::Expr, names: &[String]) -> bool {
    use o::ExprKind as K;
    match &e.kind {
        K::Name(n) => names.contains(&n.name),
        K::Int(_) | K::Bool(_) | K::Str(_) => false,
        K::Call(_, xs) => xs.iter().any(|x| mentions(x, names)),
        K::Unary(_, x) | K::Field(x, _) | K::Is(x, _) | K::Matches(x, _) | K::Paren(x) => {
            mentions(x, names)
        }
        K::Binary(_, x, y) => mentions(x, names) || mentions(y, names),
        K::If(x, y, z) => mentions(x, names) || mentions(y, names) || mentions(z, names),
    }
}

fn strip(e: &o::Expr) -> &o::Expr {
    match &e.kind {
        o::ExprKind::Paren(x) => strip(x),
        _ => e,
    }
}

fn conjuncts<'e>(e: &'e o::Expr, out: &mut Vec<&'e o::Expr>) {
    match &strip(e).kind {
        o::ExprKind::Binary(o::BinOp::And, a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(strip(e)),
    }
}

/// The `.ioco` constructors of record types (one constructor each) and their fields' names.
fn record_ctors(l: &Lowerer<'_>) -> HashMap<String, Vec<String>> {
    let mut out = HashMap::new();
    for (ty, td) in &l.types {
        if let [c] = td.ctors.as_slice() {
            out.insert(
                l.ctor_name(ty, &c.name.name),
                c.fields.iter().map(|f| safe(&f.name.name)).collect(),
            );
        }
    }
    out
}

/// `p == q` solved for the one placeholder `p` mentions, when `p` is it, or it plus or minus
/// an expression without placeholders (`n + 1 == v` gives `n = v - 1`), or a record built
/// with it (`C(n, 1) == v` gives `n = v.f1`; `inv`: the records' constructors and fields).
fn solve(
    p: &o::Expr,
    q: o::Expr,
    phs: &[String],
    inv: &HashMap<String, Vec<String>>,
) -> Option<(String, o::Expr)> {
    use o::BinOp as B;
    let bin = |op, a: o::Expr, b: o::Expr| {
        let span = a.span;
        ex(
            o::ExprKind::Binary(op, Box::new(paren(a)), Box::new(paren(b))),
            span,
        )
    };
    match &p.kind {
        o::ExprKind::Name(n) if phs.contains(&n.name) => Some((n.name.clone(), q)),
        o::ExprKind::Binary(op @ (B::Add | B::Sub), a, b) => {
            let (a, b) = (strip(a), strip(b));
            match (mentions(a, phs), mentions(b, phs)) {
                // a + b == q: a == q - b; a - b == q: a == q + b
                (true, false) => {
                    let op2 = if *op == B::Add { B::Sub } else { B::Add };
                    solve(a, bin(op2, q, b.clone()), phs, inv)
                }
                // a + b == q: b == q - a; a - b == q: b == a - q
                (false, true) => match op {
                    B::Add => solve(b, bin(B::Sub, q, a.clone()), phs, inv),
                    _ => solve(b, bin(B::Sub, a.clone(), q), phs, inv),
                },
                _ => None,
            }
        }
        o::ExprKind::Call(c, xs) => {
            let fields = inv.get(&c.name)?;
            let mut at = xs.iter().enumerate().filter(|(_, x)| mentions(x, phs));
            let (i, x) = at.next()?;
            if at.next().is_some() || fields.len() != xs.len() {
                return None;
            }
            let field = ex(
                o::ExprKind::Field(Box::new(paren(q)), ident(fields[i].clone(), x.span)),
                x.span,
            );
            solve(strip(x), field, phs, inv)
        }
        _ => None,
    }
}

/// The placeholder of a pending copy's value `n` while its steps are computed.
fn placeholder(n: &str) -> String {
    format!("__pending_{}", n)
}

impl<'a> Product<'a> {
    /// `p` with compositions through which a process creates processes turned into bags:
    /// `X ||| (Y ||| R)` of the same composition is the bag {X, Y} with R.
    fn norm(&mut self, l: &mut Lowerer<'a>, p: Pt<'a>) -> Option<Pt<'a>> {
        Some(match p {
            Pt::Par {
                node,
                sync,
                l: a,
                r,
            } => {
                let a = self.norm(l, *a)?;
                let r = self.norm(l, *r)?;
                match r {
                    Pt::Par {
                        node: n2,
                        l: b,
                        r: r2,
                        ..
                    } if n2 == node && sync.is_empty() => {
                        let empty = self.bag_info(l, node, r2.as_ref());
                        let mut bag = name_expr(&empty, Span::default());
                        bag = self.add(l, node, &b, bag)?;
                        bag = self.add(l, node, &a, bag)?;
                        let ty = self.bags[self.bag_index(node)].ty.clone();
                        return self.norm(
                            l,
                            Pt::Bag {
                                node,
                                bag: Val {
                                    expr: bag,
                                    sort: ty,
                                },
                                rest: r2,
                            },
                        );
                    }
                    Pt::Bag {
                        node: n2,
                        bag,
                        rest,
                    } if n2 == node && sync.is_empty() => {
                        let e = self.add(l, node, &a, bag.expr)?;
                        Pt::Bag {
                            node,
                            bag: Val {
                                expr: e,
                                sort: bag.sort,
                            },
                            rest,
                        }
                    }
                    r => Pt::Par {
                        node,
                        sync,
                        l: Box::new(a),
                        r: Box::new(r),
                    },
                }
            }
            Pt::Bag { node, bag, rest } => match self.norm(l, *rest)? {
                Pt::Par {
                    node: n2,
                    sync,
                    l: b,
                    r: r2,
                } if n2 == node && sync.is_empty() => {
                    let e = self.add(l, node, &b, bag.expr)?;
                    return self.norm(
                        l,
                        Pt::Bag {
                            node,
                            bag: Val {
                                expr: e,
                                sort: bag.sort,
                            },
                            rest: r2,
                        },
                    );
                }
                Pt::Bag { node: n2, .. } if n2 == node => {
                    self.unsupported(
                        l,
                        "a process that creates several processes in one step",
                        self.bags[self.bag_index(node)].span,
                        "create one process per action",
                    );
                    return None;
                }
                rest => Pt::Bag {
                    node,
                    bag,
                    rest: Box::new(rest),
                },
            },
            Pt::Enable {
                l: a,
                accept,
                right,
                genv,
                vals,
            } => Pt::Enable {
                l: Box::new(self.norm(l, *a)?),
                accept,
                right,
                genv,
                vals,
            },
            p => p,
        })
    }

    fn bag_index(&self, node: usize) -> usize {
        self.bags.iter().position(|b| b.node == node).unwrap_or(0)
    }

    /// The bag of composition `node` (made if new): its empty constructor.
    fn bag_info(&mut self, l: &mut Lowerer<'a>, node: usize, at: &Pt<'a>) -> String {
        if let Some(b) = self.bags.iter().find(|b| b.node == node) {
            return b.empty.clone();
        }
        let span = match at {
            Pt::Leaf { b, .. } => b.span,
            _ => Span::default(),
        };
        let ty = l.global(&format!("Pending_{}", self.sb.name));
        let empty = l.global(&format!("No{}", ty));
        l.type_names.insert(ty.clone(), ty.clone());
        l.extra_defaults
            .insert(ty.clone(), name_expr(&empty, Span::default()));
        self.bags.push(BagInfo {
            node,
            ty,
            empty: empty.clone(),
            kinds: Vec::new(),
            span,
        });
        empty
    }

    /// `bag` with the copies in `p` added.
    fn add(
        &mut self,
        l: &mut Lowerer<'a>,
        node: usize,
        p: &Pt<'a>,
        bag: o::Expr,
    ) -> Option<o::Expr> {
        match p {
            Pt::Stop => Some(bag),
            Pt::Par { sync, l: a, r, .. } if sync.is_empty() => {
                let bag = self.add(l, node, r, bag)?;
                self.add(l, node, a, bag)
            }
            Pt::Leaf { b, genv, vals } => {
                let names: Vec<(String, String)> = vals
                    .iter()
                    .map(|(n, v)| (n.clone(), v.sort.clone()))
                    .collect();
                let mut key = format!("{:p}", *b);
                genv_key(genv, &mut key);
                key.push_str(&format!("{:?}", names));
                let bi = self.bag_index(node);
                let k = match self.bags[bi].kinds.iter().position(|k| k.key == key) {
                    Some(k) => k,
                    None => {
                        let ty = self.bags[bi].ty.clone();
                        let ctor = l.global(&format!("{}_{}", ty, self.bags[bi].kinds.len()));
                        let has = l.global(&format!("has_{}", ctor));
                        let remove = l.global(&format!("remove_{}", ctor));
                        let proj = names
                            .iter()
                            .map(|(n, sort)| projection(l, b, n, sort))
                            .collect();
                        self.bags[bi].kinds.push(Kind {
                            key,
                            b,
                            genv: genv.clone(),
                            names,
                            proj,
                            ctor,
                            has,
                            remove,
                        });
                        self.kinds_changed = true;
                        self.bags[bi].kinds.len() - 1
                    }
                };
                // a record read only in part is kept with the other fields at their default
                let proj = self.bags[bi].kinds[k].proj.clone();
                let mut args: Vec<o::Expr> = vals
                    .iter()
                    .zip(&proj)
                    .map(|((_, v), p)| match p {
                        Some(p) => p.build(
                            |f| {
                                ex(
                                    o::ExprKind::Field(
                                        Box::new(paren(v.expr.clone())),
                                        ident(f, b.span),
                                    ),
                                    b.span,
                                )
                            },
                            b.span,
                        ),
                        None => v.expr.clone(),
                    })
                    .collect();
                args.push(bag);
                let ctor = self.bags[bi].kinds[k].ctor.clone();
                Some(ex(o::ExprKind::Call(ident(ctor, b.span), args), b.span))
            }
            _ => {
                self.unsupported(
                    l,
                    "a process that creates processes other than sequential ones or their interleaving",
                    self.bags[self.bag_index(node)].span,
                    "create sequential processes (`X ||| P` with X sequential)",
                );
                None
            }
        }
    }

    /// The steps of the pending copies in `bag`: a copy takes its step (and is gone) when the
    /// step's values tell which copy it is (every value the copy reads equals an expression of
    /// the step's values), so that all the copies that could take it are equal and the bag
    /// after it is one.
    fn bag_steps(
        &mut self,
        l: &mut Lowerer<'a>,
        node: usize,
        bag: &Val,
        rest: &Pt<'a>,
        taken: &HashSet<String>,
        trs: &mut Vec<Tr<'a>>,
    ) -> Option<()> {
        let bi = self.bag_index(node);
        let nkinds = self.bags[bi].kinds.len();
        for k in 0..nkinds {
            let (b, genv, names, proj) = {
                let kd = &self.bags[bi].kinds[k];
                (kd.b, kd.genv.clone(), kd.names.clone(), kd.proj.clone())
            };
            let phs: Vec<String> = names.iter().map(|(n, _)| placeholder(n)).collect();
            let inv = record_ctors(l);
            let scope: Scope = names
                .iter()
                .map(|(n, s)| {
                    (
                        n.clone(),
                        Val {
                            expr: name_expr(&placeholder(n), b.span),
                            sort: s.clone(),
                        },
                    )
                })
                .collect();
            let (mut ktrs, mut kex) = (Vec::new(), Vec::new());
            self.leaf_steps(l, b, &genv, &scope, None, taken, &mut ktrs, &mut kex)?;
            if let Some(e) = kex.first() {
                self.unsupported(
                    l,
                    "an EXIT of a process created by a recursion through `|||`",
                    e.span,
                    "end the created process with STOP",
                );
                return None;
            }
            for t in ktrs {
                if !matches!(t.next, Pt::Stop) {
                    self.unsupported(
                        l,
                        "a created process (`X` in `X ||| P` with P recursive) with more than one action",
                        t.span,
                        "keep the pending behaviour in a variable of a sequential process (docs/language.md §13)",
                    );
                    return None;
                }
                // values sent by the copy become received values equal to them
                let mut binds = Vec::new();
                binds_of(&t.action, &mut binds);
                for a in &t.also {
                    binds_of(a, &mut binds);
                }
                let mut guard = t.guard.clone();
                let mut acts = vec![t.action.clone()];
                acts.extend(t.also.iter().cloned());
                for a in &mut acts {
                    if let o::Action::Gate { args, .. } = a {
                        for x in args.iter_mut() {
                            if let o::Arg::Value(e) = x {
                                if mentions(e, &phs) {
                                    let mut v = "v".to_string();
                                    let mut j = 2;
                                    while binds.contains(&v) || taken.contains(&v) {
                                        v = format!("v_{}", j);
                                        j += 1;
                                    }
                                    binds.push(v.clone());
                                    guard = conj(guard, Some(eq(name_expr(&v, e.span), e.clone())));
                                    *x = o::Arg::Bind(ident(v, e.span));
                                }
                            }
                        }
                    }
                }
                // each value of the copy as an expression of the step's values
                let mut defs: HashMap<String, o::Expr> = HashMap::new();
                // fields of the records read in part (`ph.f == e`)
                let mut fdefs: HashMap<(String, String), o::Expr> = HashMap::new();
                if let Some(g) = &guard {
                    let mut cs = Vec::new();
                    conjuncts(g, &mut cs);
                    for c in cs {
                        if let o::ExprKind::Binary(o::BinOp::Eq, x, y) = &c.kind {
                            for (p, q) in [(x, y), (y, x)] {
                                if mentions(q, &phs) {
                                    continue;
                                }
                                if let Some((n, d)) = solve(strip(p), strip(q).clone(), &phs, &inv)
                                {
                                    defs.entry(n).or_insert(d);
                                } else if let o::ExprKind::Field(r, f) = &strip(p).kind {
                                    if let o::ExprKind::Name(n) = &strip(r).kind {
                                        if phs.contains(&n.name) {
                                            fdefs
                                                .entry((n.name.clone(), f.name.clone()))
                                                .or_insert(strip(q).clone());
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                for (ph, p) in phs.iter().zip(&proj) {
                    let Some(p) = p else { continue };
                    if defs.contains_key(ph)
                        || p.fields.iter().any(|(f, d)| {
                            d.is_none() && !fdefs.contains_key(&(ph.clone(), f.clone()))
                        })
                    {
                        continue;
                    }
                    let rec = p.build(|f| fdefs[&(ph.clone(), f.to_string())].clone(), t.span);
                    defs.insert(ph.clone(), rec);
                }
                if let Some(ph) = phs.iter().find(|p| !defs.contains_key(*p)) {
                    let n = &names[phs.iter().position(|p| p == ph).unwrap_or(0)].0;
                    self.unsupported(
                        l,
                        &format!(
                            "a created process whose step does not tell which copy takes it (its value `{}` is not fixed by the step)",
                            n
                        ),
                        t.span,
                        "make the step carry the value (`! x`, or `? y [[ y == x ]]`)",
                    );
                    return None;
                }
                let args: Vec<o::Expr> = phs.iter().map(|p| defs[p].clone()).collect();
                let (has, remove) = {
                    let kd = &self.bags[bi].kinds[k];
                    (kd.has.clone(), kd.remove.clone())
                };
                let mut call_args = vec![bag.expr.clone()];
                call_args.extend(args.iter().cloned());
                let has_call = ex(
                    o::ExprKind::Call(ident(has, t.span), call_args.clone()),
                    t.span,
                );
                let guard = Some(match guard {
                    Some(g) => and(has_call, subst(&g, &defs)),
                    None => has_call,
                });
                for a in &mut acts {
                    if let o::Action::Gate { args, .. } = a {
                        for x in args.iter_mut() {
                            if let o::Arg::Value(e) = x {
                                *e = subst(e, &defs);
                            }
                        }
                    }
                }
                let action = acts.remove(0);
                trs.push(Tr {
                    action,
                    also: acts,
                    guard,
                    next: Pt::Bag {
                        node,
                        bag: Val {
                            expr: ex(o::ExprKind::Call(ident(remove, t.span), call_args), t.span),
                            sort: bag.sort.clone(),
                        },
                        rest: Box::new(rest.clone()),
                    },
                    span: t.span,
                });
            }
        }
        Some(())
    }

    /// The types and functions of the bags.
    fn bag_items(&mut self, l: &mut Lowerer<'a>) -> Option<()> {
        use o::ExprKind as K;
        for bi in 0..self.bags.len() {
            let (ty, empty, sp) = {
                let b = &self.bags[bi];
                (b.ty.clone(), b.empty.clone(), b.span)
            };
            let tyx = |sp| o::TypeExpr {
                kind: o::TypeExprKind::Named(ident(ty.clone(), sp)),
                span: sp,
            };
            let mut ctors = vec![o::Ctor {
                name: ident(empty.clone(), sp),
                fields: Vec::new(),
            }];
            let mut kinds = Vec::new();
            for kd in &self.bags[bi].kinds {
                let mut fields = Vec::new();
                for (n, s) in &kd.names {
                    fields.push(o::Param {
                        name: ident(format!("{}_{}", kd.ctor, n), sp),
                        ty: l.type_expr(&ident(s.clone(), sp))?,
                    });
                }
                fields.push(o::Param {
                    name: ident(format!("{}_rest", kd.ctor), sp),
                    ty: tyx(sp),
                });
                ctors.push(o::Ctor {
                    name: ident(kd.ctor.clone(), sp),
                    fields: fields.clone(),
                });
                kinds.push((kd.ctor.clone(), kd.has.clone(), kd.remove.clone(), fields));
            }
            l.push_item(
                o::ItemKind::Type(o::TypeDef {
                    name: ident(ty.clone(), sp),
                    body: o::TypeBody::Adt(ctors),
                }),
                sp,
                Vec::new(),
            );
            let b = || name_expr("b", sp);
            let field = |f: &str| ex(K::Field(Box::new(b()), ident(f, sp)), sp);
            for (ctor, has, remove, fields) in &kinds {
                let n = fields.len() - 1;
                let mut params = vec![o::Param {
                    name: ident("b", sp),
                    ty: tyx(sp),
                }];
                for (i, f) in fields[..n].iter().enumerate() {
                    params.push(o::Param {
                        name: ident(format!("x{}", i), sp),
                        ty: f.ty.clone(),
                    });
                }
                let xs: Vec<o::Expr> = (0..n).map(|i| name_expr(&format!("x{}", i), sp)).collect();
                let mut matches = ex(K::Bool(true), sp);
                for (i, f) in fields[..n].iter().enumerate() {
                    let c = eq(field(&f.name.name), xs[i].clone());
                    matches = if i == 0 { c } else { and(matches, c) };
                }
                // has: this kind and the values, here or further on
                let mut has_body = ex(K::Bool(false), sp);
                let mut rm_body = b();
                for (c2, _, _, f2) in kinds.iter().rev() {
                    let rest = field(&f2.last().map(|f| f.name.name.clone()).unwrap_or_default());
                    let mut rec = vec![rest.clone()];
                    rec.extend(xs.iter().cloned());
                    let has_rec = ex(K::Call(ident(has.clone(), sp), rec.clone()), sp);
                    let rm_rec = ex(K::Call(ident(remove.clone(), sp), rec), sp);
                    let mut rebuilt: Vec<o::Expr> = f2[..f2.len() - 1]
                        .iter()
                        .map(|f| field(&f.name.name))
                        .collect();
                    rebuilt.push(rm_rec);
                    let rebuilt = ex(K::Call(ident(c2.clone(), sp), rebuilt), sp);
                    let (h, r) = if c2 == ctor {
                        (
                            ex(
                                K::Binary(
                                    o::BinOp::Or,
                                    Box::new(paren(matches.clone())),
                                    Box::new(has_rec),
                                ),
                                sp,
                            ),
                            ex(
                                K::If(Box::new(matches.clone()), Box::new(rest), Box::new(rebuilt)),
                                sp,
                            ),
                        )
                    } else {
                        (has_rec, rebuilt)
                    };
                    let is = ex(K::Is(Box::new(b()), ident(c2.clone(), sp)), sp);
                    has_body = ex(
                        K::If(Box::new(is.clone()), Box::new(h), Box::new(has_body)),
                        sp,
                    );
                    rm_body = ex(K::If(Box::new(is), Box::new(r), Box::new(rm_body)), sp);
                }
                l.push_item(
                    o::ItemKind::Fn(o::FnDef {
                        name: ident(has.clone(), sp),
                        params: params.clone(),
                        ret: o::TypeExpr {
                            kind: o::TypeExprKind::Bool,
                            span: sp,
                        },
                        body: has_body,
                    }),
                    sp,
                    Vec::new(),
                );
                l.push_item(
                    o::ItemKind::Fn(o::FnDef {
                        name: ident(remove.clone(), sp),
                        params,
                        ret: tyx(sp),
                        body: rm_body,
                    }),
                    sp,
                    Vec::new(),
                );
            }
        }
        Some(())
    }
}
