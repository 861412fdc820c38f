//! Values passed on `EXIT` to `>>> ACCEPT ? x IN .. NI`.
//!
//! TorXakis semantics: `B >>> ACCEPT ? x IN C NI` runs `B`; when `B` exits with values `v`
//! (an internal step) `C` starts with `x = v`. The processes of a parallel composition exit
//! together, and their `EXIT` offers combine position by position as offers of a synchronised
//! action do: `! e` on one side meets `? y` on the other (the value is `e`), `! e` on both
//! sides requires equal values, `? y` on both sides leaves the value free.
//!
//! The lowering computes the values `B` exits with at import ([`Lowerer::exit_values`]): every
//! `EXIT` of `B` (through choices, guards, `LET`, calls, compositions and nested `>>>`) must
//! exit with the same values, each one given by a `!` offer whose expression reads only the
//! (constant) values of the composition — never a value received on a channel. Then `x` is
//! that value in `C`, and `B`'s exits carry no value any more (`B >>> C` with `x` substituted),
//! which is exactly TorXakis's behaviour: the exit step is the same internal step, and the
//! values it would pass are the ones substituted. The loop `p(v) ::= B >>> ACCEPT ? w IN p(w)
//! NI` becomes a `.ioco` loop when the values passed are the ones `p` started with.
//!
//! Values known only at run time (received on a channel before the `EXIT`, different on
//! different branches, `!` offers of two sides that are equal or not depending on the run) set
//! `exit_dyn`: the caller then makes the behaviour one model, the product of its parts
//! (module `product`), which binds the `ACCEPT`ed variables on the exit step itself. A value
//! that no side offers with `!` (a free choice) is reported, never changed.

use super::*;

/// What an `EXIT` gives at one position.
#[derive(Clone, Debug)]
pub(super) enum ExitVal {
    /// `! e`: the value (an expression of constants) and its sort.
    Val(o::Expr, String),
    /// `? x :: S`: any value of the sort.
    Any(String),
}

/// The name that stands for a value known only at run time (not a TorXakis name).
const DYN: &str = "#run-time";

fn mentions_dyn(e: &o::Expr) -> bool {
    ioco_lang::fmt::expr(e).contains(DYN)
}

fn same_val(a: &o::Expr, b: &o::Expr) -> Option<bool> {
    match (const_eval(a), const_eval(b)) {
        (Some(x), Some(y)) => Some(x == y),
        _ if ioco_lang::fmt::expr(a) == ioco_lang::fmt::expr(b) => Some(true),
        _ => None,
    }
}

impl<'a> Lowerer<'a> {
    /// The values `b` exits with under the constant `scope`: `Ok(None)` when it never exits,
    /// `Err(())` when they cannot be determined at import (reported).
    pub(super) fn exit_values(
        &mut self,
        b: &'a t::BExpr,
        genv: &GEnv,
        scope: &Scope,
        stack: &mut Vec<String>,
    ) -> Result<Option<Vec<ExitVal>>, ()> {
        let sp = b.span;
        match &b.kind {
            BKind::Stop | BKind::Hit | BKind::Miss => Ok(None),
            BKind::Exit(items) => {
                let mut out = Vec::new();
                for i in items {
                    match i {
                        t::ExitItem::Recv(_, s) => out.push(ExitVal::Any(sort_text(s))),
                        t::ExitItem::Send(e) => {
                            let Some(x) = self.vexpr(e, scope) else {
                                return Err(());
                            };
                            if mentions_dyn(&x) {
                                // not known at import: the caller makes the behaviour the
                                // product of its parts, which binds it at run time
                                self.exit_dyn = Some(e.span);
                                return Err(());
                            }
                            let sort = self.sort_of(e, scope).unwrap_or_default();
                            out.push(ExitVal::Val(fold(x), sort));
                        }
                    }
                }
                Ok(Some(out))
            }
            BKind::Prefix { offers, then, .. } => {
                if let Some(o) = offers
                    .iter()
                    .find(|o| o.gate.name == "EXIT" && !genv.contains_key("EXIT"))
                {
                    self.exit_offer(offers, o.gate.span);
                    return Err(());
                }
                let mut sc = scope.clone();
                for o in offers {
                    let sorts = genv.get(&o.gate.name).map(|g| g.sorts.clone());
                    for (k, i) in o.items.iter().enumerate() {
                        if let t::OfferItem::Recv(x, s) = i {
                            let sort = s
                                .as_ref()
                                .map(sort_text)
                                .or_else(|| sorts.as_ref().and_then(|ss| ss.get(k).cloned()))
                                .unwrap_or_default();
                            sc.insert(
                                x.name.clone(),
                                Val {
                                    expr: name_expr(DYN, x.span),
                                    sort,
                                },
                            );
                        }
                    }
                }
                self.exit_values(then, genv, &sc, stack)
            }
            BKind::Guard(c, x) => {
                if self.const_bool(c, scope) == Some(false) {
                    return Ok(None);
                }
                self.exit_values(x, genv, scope, stack)
            }
            BKind::Choice(xs) => {
                let mut acc: Option<Vec<ExitVal>> = None;
                for x in xs {
                    let Some(v) = self.exit_values(x, genv, scope, stack)? else {
                        continue;
                    };
                    match &acc {
                        None => acc = Some(v),
                        Some(a) => {
                            let same = a.len() == v.len()
                                && a.iter().zip(&v).all(|p| match p {
                                    (ExitVal::Val(x, _), ExitVal::Val(y, _)) => {
                                        same_val(x, y) == Some(true)
                                    }
                                    (ExitVal::Any(s), ExitVal::Any(r)) => s == r,
                                    _ => false,
                                });
                            if !same {
                                // the value depends on the branch taken: bound at run time
                                // by the product of the parts (see `exit_dyn`)
                                self.exit_dyn = Some(x.span);
                                return Err(());
                            }
                        }
                    }
                }
                Ok(acc)
            }
            BKind::Par(_, l, r) => {
                let lv = self.exit_values(l, genv, scope, stack)?;
                let rv = self.exit_values(r, genv, scope, stack)?;
                let (Some(lv), Some(rv)) = (lv, rv) else {
                    // a side that never exits: the composition never exits
                    return Ok(None);
                };
                if lv.len() != rv.len() {
                    self.error(
                        "ioco::txs::exit_arity",
                        format!(
                            "the sides of this composition exit with {} and {} values",
                            lv.len(),
                            rv.len()
                        ),
                        sp,
                        "the EXITs of both sides synchronise",
                    );
                    return Err(());
                }
                let mut out = Vec::new();
                for (a, c) in lv.into_iter().zip(rv) {
                    out.push(match (a, c) {
                        (ExitVal::Val(x, s), ExitVal::Any(_))
                        | (ExitVal::Any(_), ExitVal::Val(x, s)) => ExitVal::Val(x, s),
                        (ExitVal::Any(s), ExitVal::Any(_)) => ExitVal::Any(s),
                        (ExitVal::Val(x, s), ExitVal::Val(y, _)) => match same_val(&x, &y) {
                            Some(true) => ExitVal::Val(x, s),
                            _ => {
                                // equal or not only at run time: the product of the parts
                                // synchronises the exits when the values are equal
                                self.exit_dyn = Some(sp);
                                return Err(());
                            }
                        },
                    });
                }
                Ok(Some(out))
            }
            BKind::Hide(chans, x) => {
                let mut g2 = genv.clone();
                for c in chans {
                    g2.insert(
                        c.name.name.clone(),
                        Gate {
                            name: c.name.name.clone(),
                            input: false,
                            sorts: c.sorts.iter().map(sort_text).collect(),
                        },
                    );
                }
                self.exit_values(x, &g2, scope, stack)
            }
            BKind::Let(binds, x) => {
                let Some(sc) = self.bind_lets(binds, scope) else {
                    return Err(());
                };
                self.exit_values(x, genv, &sc, stack)
            }
            BKind::Enable {
                left,
                accept,
                right,
            } => {
                let Some(lv) = self.exit_values(left, genv, scope, stack)? else {
                    return Ok(None);
                };
                let sc = self.accept_scope(accept, lv, scope, sp)?;
                self.exit_values(right, genv, &sc, stack)
            }
            BKind::Disable(..) | BKind::Interrupt(..) => {
                self.unsupported(
                    "`[>>` or `[><` on the left of `>>> ACCEPT`",
                    sp,
                    "model the disabling action as a choice in every state of the left side",
                );
                Err(())
            }
            BKind::Inst { name, gates, args } => {
                let Some(p) = self.procs.get(&name.name).copied() else {
                    // a STAUTDEF never exits
                    let sname = name.name.strip_prefix("stdi_").unwrap_or(&name.name);
                    if self.stauts.contains_key(sname) {
                        return Ok(None);
                    }
                    self.unknown_proc(name);
                    return Err(());
                };
                let Some((g2, sc2)) = self.bind_call(p, gates, args, genv, scope, sp) else {
                    return Err(());
                };
                let key = format!("{} {:?} {:?}", p.name.name, g2, scope_key(&sc2));
                if stack.contains(&key) {
                    // the same process again: it adds no exit the outer call does not have
                    return Ok(None);
                }
                if stack.len() >= MAX_INLINE {
                    self.unsupported(
                        &format!(
                            "the values `{}` exits with (recursion more than {} levels deep with changing arguments)",
                            p.name.name, MAX_INLINE
                        ),
                        sp,
                        "exit with values that do not depend on the recursion",
                    );
                    return Err(());
                }
                stack.push(key);
                let r = self.exit_values(&p.body, &g2, &sc2, stack);
                stack.pop();
                r
            }
        }
    }

    /// The scope of the right side of `>>> ACCEPT ? x .. IN`: `x` bound to the value exited
    /// with (`Err` when it is not determined, reported).
    pub(super) fn accept_scope(
        &mut self,
        accept: &[t::VarDecl],
        vals: Vec<ExitVal>,
        scope: &Scope,
        sp: Span,
    ) -> Result<Scope, ()> {
        if vals.len() != accept.len() {
            self.error(
                "ioco::txs::exit_arity",
                format!(
                    "`ACCEPT` takes {} value(s) but the left side exits with {}",
                    accept.len(),
                    vals.len()
                ),
                sp,
                "this `>>>`",
            );
            return Err(());
        }
        let mut sc = scope.clone();
        for (a, v) in accept.iter().zip(vals) {
            let want = sort_text(&a.sort);
            match v {
                ExitVal::Any(_) => {
                    self.unsupported(
                        &format!(
                            "a free choice of the value `{}` accepted (`EXIT ? x` on every side)",
                            a.name.name
                        ),
                        a.name.span,
                        "offer the value with `EXIT ! e` on one side, or bind it with `? x` on an action of the right side",
                    );
                    return Err(());
                }
                ExitVal::Val(e, sort) => {
                    if !want.is_empty() && !sort.is_empty() && want != sort {
                        self.error(
                            "ioco::txs::sort",
                            format!(
                                "`{}` is accepted as `{}` but the left side exits with a `{}`",
                                a.name.name, want, sort
                            ),
                            a.name.span,
                            "here",
                        );
                        return Err(());
                    }
                    let sort = if want.is_empty() { sort } else { want };
                    sc.insert(
                        a.name.name.clone(),
                        Val {
                            expr: paren(e),
                            sort,
                        },
                    );
                }
            }
        }
        Ok(sc)
    }
}
