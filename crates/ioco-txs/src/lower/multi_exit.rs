//! An `EXIT` inside a multi-action on the left of `>>>`: `A ? x | EXIT ? y [[ g /\ y == e ]]`
//! becomes `A ? x [[ g[y := e] ]] >-> EXIT ! e`, before the lowering proper.
//!
//! In TorXakis's semantics (user manual, "Enable"), `>>>` hides the `EXIT` of its left side:
//! the multi-action `{A, EXIT}` is the visible step `A` straight into the right side, with the
//! `ACCEPT`ed variables bound to the exit values. After the rewrite the step `A` is followed by
//! the internal step of `>>>`: the traces are the same, and the state between the two steps is
//! unstable (it has the internal step and nothing else), so it is never quiescent and its
//! outputs are those after the internal step. For ioco (tutorial Def. 4.5: `out` of the states
//! after a trace, quiescence only in stable states) the two are the same specification.
//!
//! Only where the `EXIT` is taken by a `>>>` directly: through choices, guards, `LET` and
//! action prefixes of its left side, never through a parallel composition (there `EXIT`
//! synchronises both sides in the same step as `A`, and moving it after `A` would let `A`
//! happen before the other side can exit) or a call. An exit value must be fixed by the
//! constraint (a conjunct `y == e` whose `e` does not read the exit's own variables); else the
//! multi-action is left as it is, and the lowering reports it.

use crate::ast::{self as t, BKind, ExitItem, OfferItem, VKind};
use ioco_lang::Span;

/// Rewrites every such multi-action of `b`; returns where it did (for `ioco translate`'s notes).
pub(super) fn rewrite(b: &mut t::BExpr, done: &mut Vec<Span>) {
    match &mut b.kind {
        BKind::Stop | BKind::Exit(_) | BKind::Hit | BKind::Miss | BKind::Inst { .. } => {}
        BKind::Prefix { then, .. } => rewrite(then, done),
        BKind::Guard(_, x) | BKind::Hide(_, x) | BKind::Let(_, x) => rewrite(x, done),
        BKind::Choice(xs) => xs.iter_mut().for_each(|x| rewrite(x, done)),
        BKind::Par(_, a, c) | BKind::Disable(a, c) | BKind::Interrupt(a, c) => {
            rewrite(a, done);
            rewrite(c, done);
        }
        BKind::Enable { left, right, .. } => {
            exits_of_left(left, done);
            rewrite(left, done);
            rewrite(right, done);
        }
    }
}

/// The left side of a `>>>`: its multi-actions with `EXIT`, through choices, guards, `LET`
/// and prefixes.
fn exits_of_left(b: &mut t::BExpr, done: &mut Vec<Span>) {
    match &mut b.kind {
        BKind::Prefix {
            offers,
            guard,
            then,
        } => {
            if offers.len() > 1 && matches!(then.kind, BKind::Stop) {
                if let Some(k) = offers.iter().position(|o| o.gate.name == "EXIT") {
                    if let Some((items, g)) = solve(&offers[k], guard.as_ref()) {
                        let exit = offers.remove(k);
                        *guard = g;
                        then.kind = BKind::Exit(items);
                        then.span = exit.gate.span;
                        done.push(exit.gate.span);
                        return;
                    }
                }
            }
            exits_of_left(then, done);
        }
        BKind::Guard(_, x) | BKind::Let(_, x) => exits_of_left(x, done),
        BKind::Choice(xs) => xs.iter_mut().for_each(|x| exits_of_left(x, done)),
        _ => {}
    }
}

/// The exit items of `exit` as values, and the constraint left, when every `? y` is fixed by
/// a conjunct `y == e` of `guard`.
fn solve(exit: &t::Offer, guard: Option<&t::VExpr>) -> Option<(Vec<ExitItem>, Option<t::VExpr>)> {
    let mut conj = Vec::new();
    if let Some(g) = guard {
        conjuncts(g, &mut conj);
    }
    let exit_vars: Vec<&str> = exit
        .items
        .iter()
        .filter_map(|i| match i {
            OfferItem::Recv(y, _) => Some(y.name.as_str()),
            OfferItem::Send(_) => None,
        })
        .collect();
    let mut items = Vec::new();
    let mut used = vec![false; conj.len()];
    let mut binds: Vec<(String, t::VExpr)> = Vec::new();
    for i in &exit.items {
        match i {
            OfferItem::Send(e) => items.push(ExitItem::Send(e.clone())),
            OfferItem::Recv(y, _) => {
                let found = conj.iter().enumerate().find_map(|(n, c)| {
                    if used[n] {
                        return None;
                    }
                    let VKind::Binary(op, a, b) = &c.kind else {
                        return None;
                    };
                    if op.name != "==" {
                        return None;
                    }
                    let is_y = |v: &t::VExpr| matches!(&v.kind, VKind::Name(n) if n.name == y.name);
                    let free = |v: &t::VExpr| exit_vars.iter().all(|x| !mentions(v, x));
                    if is_y(a) && free(b) {
                        Some((n, (**b).clone()))
                    } else if is_y(b) && free(a) {
                        Some((n, (**a).clone()))
                    } else {
                        None
                    }
                });
                let (n, e) = found?;
                used[n] = true;
                items.push(ExitItem::Send(e.clone()));
                binds.push((y.name.clone(), e));
            }
        }
    }
    let rest: Vec<t::VExpr> = conj
        .into_iter()
        .zip(used)
        .filter(|(_, u)| !u)
        .map(|(mut c, _)| {
            for (y, e) in &binds {
                subst(&mut c, y, e);
            }
            c
        })
        .collect();
    let span = guard.map(|g| g.span);
    let g = rest.into_iter().reduce(|a, b| t::VExpr {
        span: span.unwrap_or(a.span),
        kind: VKind::Binary(
            t::Ident {
                name: "/\\".into(),
                span: span.unwrap_or(a.span),
            },
            Box::new(a),
            Box::new(b),
        ),
    });
    Some((items, g))
}

/// The conjuncts of `e` (`a /\ b /\ c`, through parentheses, which the parser leaves out).
fn conjuncts(e: &t::VExpr, out: &mut Vec<t::VExpr>) {
    match &e.kind {
        VKind::Binary(op, a, b) if op.name == "/\\" => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(e.clone()),
    }
}

/// Whether `e` reads the variable `x`.
fn mentions(e: &t::VExpr, x: &str) -> bool {
    let mut free = Vec::new();
    super::seq::free_v(e, &mut Vec::new(), &mut free);
    free.iter().any(|n| n == x)
}

/// `e[x := v]` (a `LET` that binds `x` again hides it).
fn subst(e: &mut t::VExpr, x: &str, v: &t::VExpr) {
    match &mut e.kind {
        VKind::Int(_) | VKind::Bool(_) | VKind::Str(_) | VKind::Regex(_) => {}
        VKind::Name(n) => {
            if n.name == x {
                // the tree keeps a substituted operator application whole
                *e = v.clone();
            }
        }
        VKind::Call(_, args) => args.iter_mut().for_each(|a| subst(a, x, v)),
        VKind::Unary(_, a) | VKind::Typed(a, _) => subst(a, x, v),
        VKind::Binary(_, a, b) => {
            subst(a, x, v);
            subst(b, x, v);
        }
        VKind::If(c, a, b) => {
            subst(c, x, v);
            subst(a, x, v);
            subst(b, x, v);
        }
        VKind::Let(binds, body) => {
            let shadows = binds.iter().any(|(n, _, _)| n.name == x);
            for (_, _, w) in binds.iter_mut() {
                subst(w, x, v);
            }
            if !shadows {
                subst(body, x, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    fn lowered_body(src: &str) -> String {
        let m = crate::load_str("m.txs", src).unwrap_or_else(|d| {
            panic!("{}", ioco_lang::render_plain(&d));
        });
        crate::translate::to_ioco(&m)
    }

    #[test]
    fn an_exit_fixed_by_the_constraint_follows_the_action() {
        let src = "CHANDEF C ::= A, B :: Int ENDDEF\n\
                   PROCDEF p [A, B :: Int] (n :: Int) ::=\n\
                   \x20 ( A ? x | EXIT ? y :: Int [[ (x > n) /\\ (y == (x + 1)) ]] )\n\
                   \x20 >>> ACCEPT ? z :: Int IN B ! z >-> p [A, B] (z) NI\n\
                   ENDDEF\n\
                   MODELDEF M ::= CHAN IN A CHAN OUT B BEHAVIOUR p [A, B] (0) ENDDEF\n";
        let t = lowered_body(src);
        assert!(t.contains("exits after the action"), "{t}");
        // the action, then the internal step of `>>>` with the exit value, then the right side
        assert!(t.contains("model p {"), "{t}");
        assert!(
            t.contains("-- A?(x_2) [x_2 > n] { x = x_2, n = 0 } -->"),
            "{t}"
        );
        assert!(t.contains("-- tau { z = x + 1, x = 0 } -->"), "{t}");
        assert!(t.contains("-- B!(=z) { n = z, z = 0 } -->"), "{t}");
    }
}
