//! The formatter: prints a file in the canonical layout. Its output parses to the same model
//! (property-tested) and formatting is idempotent.
//!
//! Layout: two-space indentation; one declaration or switch per line; the `--` of consecutive
//! switches aligned; attributes on their own line; single spaces around binary operators;
//! parentheses as written; at most one blank line kept where the source had blank lines.
//! Comments are kept: a comment on its own line stays on its own line before the next
//! declaration, a comment at the end of a line stays at the end of that line. A comment written
//! *inside* a declaration spanning several lines moves before the following declaration.

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::lexer::Comment;
use crate::parser::parse;
use crate::span::SourceMap;

const WIDTH: usize = 100;

/// Formats source text. Fails (with the diagnostics, attached to a source named `<input>`) when
/// the text does not parse.
pub fn format(src: &str) -> Result<String, Vec<Diagnostic>> {
    format_named("<input>", src)
}

/// As [`format()`], naming the source in diagnostics.
pub fn format_named(name: &str, src: &str) -> Result<String, Vec<Diagnostic>> {
    let mut map = SourceMap::new();
    let fid = map.add(name, src);
    let (file, diags) = parse(fid, src);
    if diags.iter().any(|d| d.is_error()) {
        let mut diags = crate::diag::cap_per_kind(diags);
        for d in &mut diags {
            d.attach(&map);
        }
        return Err(diags);
    }
    let mut f = Fmt {
        src,
        out: String::new(),
        comments: &file.comments,
        next_comment: 0,
        last_end: 0,
        indent: 0,
    };
    for (i, item) in file.items.iter().enumerate() {
        if i > 0 {
            f.blank_line();
        }
        f.flush_comments(item.span.start as usize);
        f.item(item);
    }
    f.flush_comments(src.len() + 1);
    let mut out = f.out.trim_end().to_string();
    out.push('\n');
    Ok(out)
}

/// Prints a syntax tree built by a program (not parsed from text: no comments to keep), in the
/// canonical layout. The text parses back to the same tree (the front end of TorXakis models
/// uses it for `ioco translate`).
pub fn print_file(file: &File) -> String {
    let mut f = Fmt {
        src: "",
        out: String::new(),
        comments: &[],
        next_comment: 0,
        last_end: 0,
        indent: 0,
    };
    for (i, item) in file.items.iter().enumerate() {
        if i > 0 {
            f.blank_line();
        }
        f.item(item);
    }
    let mut out = f.out.trim_end().to_string();
    out.push('\n');
    out
}

struct Fmt<'a> {
    src: &'a str,
    out: String,
    comments: &'a [Comment],
    next_comment: usize,
    last_end: usize,
    indent: usize,
}

impl Fmt<'_> {
    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn blank_line(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with("\n\n") && !self.out.ends_with("{\n") {
            self.out.push('\n');
        }
    }

    /// Was there an empty line in the source between the last printed thing and `pos`? (Only
    /// whitespace lies there: comments before `pos` were printed already.)
    fn had_blank(&self, pos: usize) -> bool {
        let pos = pos.min(self.src.len());
        let gap = &self.src[self.last_end.min(pos)..pos];
        let parts: Vec<&str> = gap.split('\n').collect();
        parts.len() > 2
            && parts[1..parts.len() - 1]
                .iter()
                .any(|l| l.trim().is_empty())
    }

    /// Prints the comments that start before `pos`.
    fn flush_comments(&mut self, pos: usize) {
        while let Some(c) = self.comments.get(self.next_comment) {
            let start = c.span.start as usize;
            if start >= pos {
                break;
            }
            let text = self.src[start..c.span.end as usize].trim_end().to_string();
            if !c.own_line && !self.out.is_empty() && self.out.ends_with('\n') {
                self.out.pop();
                self.out.push(' ');
                self.out.push_str(&text);
                self.out.push('\n');
            } else {
                if self.had_blank(start) {
                    self.blank_line();
                }
                // block comments spanning lines are printed as written
                let mut first = true;
                for l in text.lines() {
                    if first {
                        self.line(l.trim_end());
                        first = false;
                    } else {
                        self.out.push_str(l.trim_end());
                        self.out.push('\n');
                    }
                }
            }
            self.last_end = c.span.end as usize;
            self.next_comment += 1;
        }
    }

    fn has_comment_in(&self, span: crate::span::Span) -> bool {
        self.comments[self.next_comment..]
            .iter()
            .any(|c| c.span.start >= span.start && c.span.end <= span.end)
    }

    fn attrs(&mut self, attrs: &[Attr]) {
        for a in attrs {
            let s = attr(a);
            self.line(&s);
        }
    }

    fn item(&mut self, item: &Item) {
        self.attrs(&item.attrs);
        match &item.kind {
            ItemKind::Import(p, _) => self.line(&format!("import {}", quote(p))),
            ItemKind::Type(t) => {
                let one = format!("type {} = {}", t.name.name, type_body(&t.body, " | "));
                let multi = matches!(&t.body, TypeBody::Adt(cs) if cs.len() > 1);
                if one.len() <= WIDTH && !(multi && self.has_comment_in(item.span)) {
                    self.line(&one);
                } else if let TypeBody::Adt(cs) = &t.body {
                    self.line(&format!("type {} =", t.name.name));
                    self.indent += 1;
                    for c in cs {
                        self.flush_comments(c.name.span.start as usize);
                        self.line(&format!("| {}", ctor(c)));
                    }
                    self.indent -= 1;
                }
            }
            ItemKind::Fn(fd) => {
                let head = format!(
                    "fn {}({}): {} =",
                    fd.name.name,
                    params(&fd.params),
                    ty(&fd.ret)
                );
                let body = expr(&fd.body);
                if head.len() + body.len() < WIDTH {
                    self.line(&format!("{} {}", head, body));
                } else {
                    self.line(&head);
                    self.indent += 1;
                    self.line(&body);
                    self.indent -= 1;
                }
            }
            ItemKind::Model(m) => self.model(m),
            ItemKind::System(s) => {
                let body = comp(&s.body);
                if body.len() + s.name.name.len() + 12 <= WIDTH && !self.has_comment_in(item.span) {
                    self.line(&format!("system {} {{ {} }}", s.name.name, body));
                } else {
                    self.line(&format!("system {} {{", s.name.name));
                    self.indent += 1;
                    self.comp_lines(&s.body);
                    self.indent -= 1;
                    self.line("}");
                }
            }
        }
        self.last_end = item.span.end as usize;
    }

    fn comp_lines(&mut self, c: &Comp) {
        match &c.kind {
            CompKind::Hide(gs, body) => {
                let names: Vec<&str> = gs.iter().map(|g| g.name.as_str()).collect();
                self.line(&format!("hide {} in", names.join(", ")));
                self.indent += 1;
                self.comp_lines(body);
                self.indent -= 1;
            }
            CompKind::Par(..) => {
                // flatten the left-leaning chain
                let mut chain = Vec::new();
                let mut cur = c;
                while let CompKind::Par(op, l, r) = &cur.kind {
                    chain.push((Some(op), &**r));
                    cur = l;
                }
                chain.push((None, cur));
                chain.reverse();
                // operators in a left column, operands aligned after them
                let w = chain
                    .iter()
                    .filter_map(|(op, _)| op.map(|o| parop(o).len()))
                    .max()
                    .unwrap_or(0);
                for (op, operand) in chain {
                    self.flush_comments(operand.span.start as usize);
                    match op {
                        None => self.line(&format!("{:w$} {}", "", comp(operand), w = w)),
                        Some(op) => {
                            self.line(&format!("{:>w$} {}", parop(op), comp(operand), w = w))
                        }
                    }
                }
            }
            _ => self.line(&comp(c)),
        }
    }

    fn model(&mut self, m: &Model) {
        let ps = if m.params.is_empty() {
            String::new()
        } else {
            format!("({})", params(&m.params))
        };
        self.line(&format!("model {}{} {{", m.name.name, ps));
        self.last_end = m.name.span.end as usize;
        self.indent += 1;
        // width of the source column for aligned runs of switches
        let mut widths = vec![0usize; m.members.len()];
        let mut i = 0;
        while i < m.members.len() {
            let mut j = i;
            let mut w = 0;
            while j < m.members.len() {
                match &m.members[j].kind {
                    MemberKind::Switch(s) if m.members[j].attrs.is_empty() => {
                        w = w.max(s.from.name.len());
                        j += 1;
                    }
                    _ => break,
                }
            }
            for k in widths.iter_mut().take(j).skip(i) {
                *k = w;
            }
            i = j.max(i + 1);
        }
        for (mi, mem) in m.members.iter().enumerate() {
            self.flush_comments(mem.span.start as usize);
            if self.had_blank(mem.span.start as usize) {
                self.blank_line();
            }
            self.attrs(&mem.attrs);
            let text = match &mem.kind {
                MemberKind::Gates(d, gs) => {
                    let kw = if *d == Dir::Input { "input" } else { "output" };
                    let list: Vec<String> = gs
                        .iter()
                        .map(|g| {
                            if g.params.is_empty() {
                                g.name.name.clone()
                            } else {
                                format!("{}({})", g.name.name, params(&g.params))
                            }
                        })
                        .collect();
                    format!("{} {}", kw, list.join(", "))
                }
                MemberKind::Vars(vs) => {
                    let list: Vec<String> = vs
                        .iter()
                        .map(|v| format!("{}: {} = {}", v.name.name, ty(&v.ty), expr(&v.init)))
                        .collect();
                    format!("var {}", list.join(", "))
                }
                MemberKind::Init(l) => format!("init {}", l.name),
                MemberKind::Locations(ls) => {
                    let list: Vec<&str> = ls.iter().map(|l| l.name.as_str()).collect();
                    format!("location {}", list.join(", "))
                }
                MemberKind::Switch(s) => switch(s, widths[mi]),
            };
            if text.len() + 2 * self.indent > WIDTH {
                if let MemberKind::Switch(s) = &mem.kind {
                    // long switch: the guard, the update and the target on their own lines
                    let parts = switch_parts(s, widths[mi]);
                    self.line(&parts[0]);
                    self.indent += 2;
                    for p in &parts[1..] {
                        self.line(p);
                    }
                    self.indent -= 2;
                    self.last_end = mem.span.end as usize;
                    continue;
                }
            }
            self.line(&text);
            self.last_end = mem.span.end as usize;
        }
        self.flush_comments(m.end.start as usize);
        self.indent -= 1;
        self.line("}");
    }
}

/// The source of a regular expression as it can stand between slashes on one line: a `/` not
/// already escaped becomes `\/`, a tab or line break its escape (the same expression; a
/// front end such as TorXakis's `REGEX('a/b')` may hand over either).
fn regex_text(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push('\\');
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            '/' => out.push_str("\\/"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out
}

fn quote(s: &str) -> String {
    crate::ir::quote(s)
}

fn duration(us: u64) -> String {
    if us == 0 {
        return "0ms".into();
    }
    if us.is_multiple_of(60_000_000) {
        format!("{}min", us / 60_000_000)
    } else if us.is_multiple_of(1_000_000) {
        format!("{}s", us / 1_000_000)
    } else if us.is_multiple_of(1_000) {
        format!("{}ms", us / 1_000)
    } else {
        format!("{}us", us)
    }
}

fn attr(a: &Attr) -> String {
    if a.args.is_empty() {
        return format!("@{}", a.name.name);
    }
    let args: Vec<String> = a
        .args
        .iter()
        .map(|x| match x {
            AttrArg::Int(v, _) => v.to_string(),
            AttrArg::Duration(us, _) => duration(*us),
            AttrArg::Str(s, _) => quote(s),
            AttrArg::Name(n) => n.name.clone(),
            AttrArg::Gates(ns, _) => ns
                .iter()
                .map(|n| n.name.as_str())
                .collect::<Vec<_>>()
                .join(" | "),
        })
        .collect();
    format!("@{}({})", a.name.name, args.join(", "))
}

fn ty(t: &TypeExpr) -> String {
    match &t.kind {
        TypeExprKind::Bool => "bool".into(),
        TypeExprKind::Int(None) => "int".into(),
        TypeExprKind::Int(Some((lo, hi))) => format!("int[{}..{}]", expr(lo), expr(hi)),
        TypeExprKind::Named(n) => n.name.clone(),
        TypeExprKind::Str(range, re) => {
            let mut s = String::from("string");
            if let Some((lo, hi)) = range {
                s.push_str(&format!("[{}..{}]", expr(lo), expr(hi)));
            }
            if let Some(r) = re {
                s.push_str(&format!(" /{}/", regex_text(&r.source)));
            }
            s
        }
    }
}

fn params(ps: &[Param]) -> String {
    ps.iter()
        .map(|p| format!("{}: {}", p.name.name, ty(&p.ty)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn ctor(c: &Ctor) -> String {
    if c.fields.is_empty() {
        c.name.name.clone()
    } else {
        format!("{} {{ {} }}", c.name.name, params(&c.fields))
    }
}

fn type_body(b: &TypeBody, sep: &str) -> String {
    match b {
        TypeBody::Alias(t) => ty(t),
        TypeBody::Adt(cs) => cs.iter().map(ctor).collect::<Vec<_>>().join(sep),
    }
}

fn switch(s: &Switch, width: usize) -> String {
    switch_parts(s, width).join(" ")
}

/// The head (`from -- action`), the guard, the update and `--> to`.
fn switch_parts(s: &Switch, width: usize) -> Vec<String> {
    let full = switch_one(s, width);
    let mut parts = Vec::new();
    let head_end = full
        .find(" [")
        .or_else(|| full.find(" {"))
        .or_else(|| full.rfind(" -->"))
        .unwrap_or(full.len());
    parts.push(full[..head_end].to_string());
    if let Some(g) = &s.guard {
        parts.push(format!("[{}]", expr(g)));
    }
    if !s.updates.is_empty() {
        let u: Vec<String> = s
            .updates
            .iter()
            .map(|(v, e)| format!("{} = {}", v.name, expr(e)))
            .collect();
        parts.push(format!("{{ {} }}", u.join(", ")));
    }
    if !matches!(s.action, Action::Exit(_)) {
        parts.push(format!("--> {}", s.to.name));
    }
    parts
}

fn action(a: &Action) -> String {
    match a {
        Action::Tau(_) => "tau".into(),
        Action::Exit(_) => "exit".into(),
        Action::Gate {
            name, dir, args, ..
        } => {
            let mut out = name.name.clone();
            out.push(if *dir == Dir::Input { '?' } else { '!' });
            if !args.is_empty() {
                let a: Vec<String> = args
                    .iter()
                    .map(|a| match a {
                        Arg::Bind(i) => i.name.clone(),
                        Arg::Value(e) => format!("={}", expr(e)),
                    })
                    .collect();
                out.push_str(&format!("({})", a.join(", ")));
            }
            out
        }
    }
}

fn switch_one(s: &Switch, width: usize) -> String {
    let mut out = format!("{:<w$} -- ", s.from.name, w = width);
    out.push_str(&action(&s.action));
    for a in &s.also {
        out.push_str(" | ");
        out.push_str(&action(a));
    }
    if let Some(g) = &s.guard {
        out.push_str(&format!(" [{}]", expr(g)));
    }
    if !s.updates.is_empty() {
        let u: Vec<String> = s
            .updates
            .iter()
            .map(|(v, e)| format!("{} = {}", v.name, expr(e)))
            .collect();
        out.push_str(&format!(" {{ {} }}", u.join(", ")));
    }
    if !matches!(s.action, Action::Exit(_)) {
        out.push_str(&format!(" --> {}", s.to.name));
    }
    out
}

fn parop(op: &ParOp) -> String {
    match op {
        ParOp::Interleave => "|||".into(),
        ParOp::Full => "||".into(),
        ParOp::Gates(gs) => {
            let names: Vec<&str> = gs.iter().map(|g| g.name.as_str()).collect();
            format!("|[{}]|", names.join(", "))
        }
    }
}

/// One-line rendering of a composition.
pub fn comp(c: &Comp) -> String {
    match &c.kind {
        CompKind::Inst(n, args) => {
            if args.is_empty() {
                n.name.clone()
            } else {
                let a: Vec<String> = args.iter().map(expr).collect();
                format!("{}({})", n.name, a.join(", "))
            }
        }
        CompKind::Par(op, l, r) => {
            let rs = comp(r);
            // a right operand that is itself a parallel composition was parenthesised
            format!("{} {} {}", comp(l), parop(op), rs)
        }
        CompKind::Hide(gs, b) => {
            let names: Vec<&str> = gs.iter().map(|g| g.name.as_str()).collect();
            format!("hide {} in {}", names.join(", "), comp(b))
        }
        CompKind::Rename(b, map) => {
            let m: Vec<String> = map
                .iter()
                .map(|(a, b)| format!("{} -> {}", a.name, b.name))
                .collect();
            format!("{}[{}]", comp(b), m.join(", "))
        }
        CompKind::Paren(b) => format!("({})", comp(b)),
        CompKind::Seq(a, b) => format!("{} >>> {}", comp(a), comp(b)),
    }
}

/// One-line rendering of an expression (parentheses as in the tree).
pub fn expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(v) => v.to_string(),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Str(s) => quote(s),
        ExprKind::Name(n) => n.name.clone(),
        ExprKind::Call(n, args) => {
            let a: Vec<String> = args.iter().map(expr).collect();
            format!("{}({})", n.name, a.join(", "))
        }
        ExprKind::Unary(UnOp::Not, a) => format!("!{}", expr(a)),
        ExprKind::Unary(UnOp::Neg, a) => {
            let inner = expr(a);
            // `- -x` must not print as `--x` (a different token)
            if inner.starts_with('-') {
                format!("- {}", inner)
            } else {
                format!("-{}", inner)
            }
        }
        ExprKind::Binary(op, a, b) => format!("{} {} {}", expr(a), op.symbol(), expr(b)),
        ExprKind::If(c, a, b) => format!("if {} then {} else {}", expr(c), expr(a), expr(b)),
        ExprKind::Field(a, f) => format!("{}.{}", expr(a), f.name),
        ExprKind::Is(a, c) => format!("{} is {}", expr(a), c.name),
        ExprKind::Matches(a, r) => format!("{} matches /{}/", expr(a), regex_text(&r.source)),
        ExprKind::Paren(a) => format!("({})", expr(a)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_the_sketch() {
        let src = "// the machine\nmodel CoffeeMachine{input water(ml:int),pad\noutput coffee(ml: int)\nvar total:int=0 init idle\n\n\n  idle--water?(w)[w>0&&total+w<150]{total=total+w}-->idle // add\n brewing -- coffee!(c) [c >= total - 50] { total = 0 } --> idle\n}";
        let out = format(src).unwrap();
        let want = "// the machine\nmodel CoffeeMachine {\n  input water(ml: int), pad\n  output coffee(ml: int)\n  var total: int = 0\n  init idle\n\n  idle    -- water?(w) [w > 0 && total + w < 150] { total = total + w } --> idle // add\n  brewing -- coffee!(c) [c >= total - 50] { total = 0 } --> idle\n}\n";
        assert_eq!(out, want);
        assert_eq!(format(&out).unwrap(), out);
    }

    #[test]
    fn refuses_bad_input() {
        assert!(format("model {").is_err());
    }
}
