//! The `.txs` parser on the TorXakis corpus, on small snippets and on bad input.

use ioco_txs::ast::*;
use ioco_txs::corpus::txs_files;
use ioco_txs::parser::parse;
use std::path::PathBuf;

/// The TorXakis corpus (`torxakis/` in the public corpus); `None` once the calling test is
/// recorded as skipped for want of it (a failure under `IOCO_NO_SKIP=1`): see `ioco_testkit`.
fn corpus() -> Option<PathBuf> {
    ioco_testkit::corpus().map(|c| c.join("torxakis"))
}

fn render(src: &str, diags: &[ioco_lang::Diagnostic]) -> String {
    let mut map = ioco_lang::SourceMap::new();
    map.add("t.txs", src);
    let mut diags = diags.to_vec();
    for d in &mut diags {
        d.attach(&map);
    }
    ioco_lang::render_plain(&diags)
}

#[test]
fn corpus_parses() {
    let Some(dir) = corpus() else { return };
    let files = txs_files(&dir);
    let mut failed = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let (file, diags) = parse(0, &src);
        if diags.iter().any(|d| d.is_error()) {
            failed.push(format!("{}:\n{}", f.display(), render(&src, &diags)));
        }
        // Every definition keyword gave at least one definition (`;` lists give several).
        let (toks, _) = ioco_txs::lexer::lex(0, &src);
        let keywords = toks.iter().filter(|t| t.kind.starts_def()).count();
        assert!(
            file.defs.len() >= keywords && keywords > 0,
            "{}: {} definitions for {keywords} keywords",
            f.display(),
            file.defs.len()
        );
    }
    assert!(
        failed.is_empty(),
        "{} files fail:\n{}",
        failed.len(),
        failed.join("\n")
    );
    assert_eq!(files.len(), 59, "the corpus has 59 .txs files");
}

// ----- exact trees, printed as s-expressions ------------------------------------------------

fn v(e: &VExpr) -> String {
    match &e.kind {
        VKind::Int(n) => n.to_string(),
        VKind::Bool(b) => b.to_string(),
        VKind::Str(s) => format!("{s:?}"),
        VKind::Regex(r) => format!("regex'{r}'"),
        VKind::Name(x) => x.name.clone(),
        VKind::Call(f, args) => {
            format!(
                "{}({})",
                f.name,
                args.iter().map(v).collect::<Vec<_>>().join(", ")
            )
        }
        VKind::Unary(op, a) => format!("({}{})", op.name, v(a)),
        VKind::Binary(op, a, b) => format!("({} {} {})", v(a), op.name, v(b)),
        VKind::If(c, a, b) => format!("(if {} {} {})", v(c), v(a), v(b)),
        VKind::Let(binds, body) => format!("(let [{}] {})", binds_str(binds), v(body)),
        VKind::Typed(a, s) => format!("({} :: {})", v(a), s.name),
    }
}

fn binds_str(binds: &[(Ident, Option<Sort>, VExpr)]) -> String {
    binds
        .iter()
        .map(|(x, s, e)| match s {
            Some(s) => format!("{} :: {} = {}", x.name, s.name, v(e)),
            None => format!("{} = {}", x.name, v(e)),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn offer(o: &Offer) -> String {
    let mut s = o.gate.name.clone();
    for i in &o.items {
        match i {
            OfferItem::Send(e) => s += &format!(" !{}", v(e)),
            OfferItem::Recv(x, None) => s += &format!(" ?{}", x.name),
            OfferItem::Recv(x, Some(t)) => s += &format!(" ?{}::{}", x.name, t.name),
        }
    }
    s
}

fn offers(os: &[Offer], guard: &Option<VExpr>) -> String {
    let mut s = os.iter().map(offer).collect::<Vec<_>>().join(" | ");
    if let Some(g) = guard {
        s += &format!(" [[{}]]", v(g));
    }
    s
}

fn names(ids: &[Ident]) -> String {
    ids.iter()
        .map(|i| i.name.clone())
        .collect::<Vec<_>>()
        .join(",")
}

fn b(e: &BExpr) -> String {
    match &e.kind {
        BKind::Stop => "STOP".into(),
        BKind::Exit(items) => {
            let mut s = "EXIT".to_string();
            for i in items {
                match i {
                    ExitItem::Send(e) => s += &format!(" !{}", v(e)),
                    ExitItem::Recv(x, t) => s += &format!(" ?{}::{}", x.name, t.name),
                }
            }
            s
        }
        BKind::Hit => "HIT".into(),
        BKind::Miss => "MISS".into(),
        BKind::Prefix {
            offers: os,
            guard,
            then,
        } => format!("({} >-> {})", offers(os, guard), b(then)),
        BKind::Guard(c, body) => format!("([[{}]] =>> {})", v(c), b(body)),
        BKind::Choice(alts) => format!("({})", alts.iter().map(b).collect::<Vec<_>>().join(" ## ")),
        BKind::Par(op, l, r) => {
            let op = match op {
                ParOp::Interleave => "|||".to_string(),
                ParOp::Full => "||".to_string(),
                ParOp::Gates(g) => format!("|[{}]|", names(g)),
            };
            format!("({} {op} {})", b(l), b(r))
        }
        BKind::Enable {
            left,
            accept,
            right,
        } => {
            if accept.is_empty() {
                format!("({} >>> {})", b(left), b(right))
            } else {
                let acc: Vec<_> = accept
                    .iter()
                    .map(|d| format!("?{}::{}", d.name.name, d.sort.name))
                    .collect();
                format!("({} >>> ACCEPT {} IN {})", b(left), acc.join(" "), b(right))
            }
        }
        BKind::Disable(l, r) => format!("({} [>> {})", b(l), b(r)),
        BKind::Interrupt(l, r) => format!("({} [>< {})", b(l), b(r)),
        BKind::Hide(chans, body) => format!("(HIDE [{}] {})", chans_str(chans), b(body)),
        BKind::Let(binds, body) => format!("(LET [{}] {})", binds_str(binds), b(body)),
        BKind::Inst { name, gates, args } => format!(
            "{}[{}]({})",
            name.name,
            names(gates),
            args.iter().map(v).collect::<Vec<_>>().join(", ")
        ),
    }
}

fn chans_str(chans: &[ChanDecl]) -> String {
    chans
        .iter()
        .map(|c| format!("{}::{}", c.name.name, names(&c.sorts).replace(',', "#")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Parses `src` and fails on any error.
fn ok(src: &str) -> File {
    let (f, diags) = parse(0, src);
    assert!(
        diags.iter().all(|d| !d.is_error()),
        "{}",
        render(src, &diags)
    );
    f
}

/// The body of the one PROCDEF of `src`.
fn proc_body(src: &str) -> String {
    let f = ok(&format!(
        "PROCDEF p [A, B, C, D :: Int] () ::= {src} ENDDEF"
    ));
    match &f.defs[..] {
        [Def::Proc(p)] => b(&p.body),
        _ => panic!("one PROCDEF expected"),
    }
}

/// The body of the one FUNCDEF of `src`.
fn func_body(src: &str) -> String {
    let f = ok(&format!(
        "FUNCDEF f (x, y, z :: Int) :: Int ::= {src} ENDDEF"
    ));
    match &f.defs[..] {
        [Def::Func(f)] => v(&f.body),
        _ => panic!("one FUNCDEF expected"),
    }
}

#[test]
fn value_operators_all_have_one_precedence_left_assoc() {
    assert_eq!(func_body("1 + 2 * 3"), "((1 + 2) * 3)");
    assert_eq!(func_body("x == y /\\ z"), "((x == y) /\\ z)");
    assert_eq!(func_body("x - y - z"), "((x - y) - z)");
    assert_eq!(func_body("x + (y * z)"), "(x + (y * z))");
    assert_eq!(func_body("- x + y"), "((-x) + y)");
    assert_eq!(func_body("x <> -1"), "(x <> -1)");
    assert_eq!(func_body("-9223372036854775808"), "-9223372036854775808");
    assert_eq!(func_body("x ++ y <+> z"), "((x ++ y) <+> z)");
    assert_eq!(func_body("ANY :: Int"), "(ANY :: Int)");
    assert_eq!(func_body("x :: Int + 1"), "((x :: Int) + 1)");
    assert_eq!(
        func_body("IF x > 0, y > 0 THEN f(x, g()) ELSE Nil FI"),
        "(if ((x > 0) /\\ (y > 0)) f(x, g()) Nil)"
    );
    assert_eq!(
        func_body("LET a = 1, b :: Int = 2; c = a + b IN c NI"),
        "(let [a = 1; b :: Int = 2; c = (a + b)] c)"
    );
    assert_eq!(
        func_body(r#"strinre("a\tb\"", REGEX('[a-z]*'))"#),
        r#"strinre("a\tb\"", regex'[a-z]*')"#
    );
}

#[test]
fn behaviour_operator_precedence() {
    assert_eq!(
        proc_body("A >-> B ## C ||| D >>> E"),
        "((((A >-> (B >-> STOP)) ## (C >-> STOP)) ||| (D >-> STOP)) >>> (E >-> STOP))"
    );
    assert_eq!(
        proc_body("A ||| B || C |[ A, B ]| D"),
        "((((A >-> STOP) ||| (B >-> STOP)) || (C >-> STOP)) |[A,B]| (D >-> STOP))"
    );
    assert_eq!(
        proc_body("A [>> B [>< C >>> D"),
        "((((A >-> STOP) [>> (B >-> STOP)) [>< (C >-> STOP)) >>> (D >-> STOP))"
    );
    assert_eq!(
        proc_body(
            "A ? x :: Int ! 1 | B ? y [[ x < y ]] >-> [[ x > 0 ]] =>> STOP ## p [A, B] (x, 1)"
        ),
        "((A ?x::Int !1 | B ?y [[(x < y)]] >-> ([[(x > 0)]] =>> STOP)) ## p[A,B](x, 1))"
    );
    assert_eq!(
        proc_body("ISTEP >-> { A | QSTEP } >-> q [] ()"),
        "(ISTEP >-> (A | QSTEP >-> q[]()))"
    );
    assert_eq!(
        proc_body("HIDE [ H :: Int # Bool; G ] IN LET n = 1 IN H ! n ! True >-> G NI NI"),
        "(HIDE [H::Int#Bool; G::] (LET [n = 1] (H !n !true >-> (G >-> STOP))))"
    );
}

#[test]
fn exit_and_accept() {
    assert_eq!(proc_body("EXIT"), "EXIT");
    assert_eq!(
        proc_body("A >-> EXIT ! 1 ? y :: Int"),
        "(A >-> EXIT !1 ?y::Int)"
    );
    assert_eq!(proc_body("EXIT ? y >-> STOP"), "(EXIT ?y >-> STOP)");
    assert_eq!(
        proc_body("(A >-> EXIT ! 1) >>> ACCEPT ? x :: Int ? y IN B ! x NI"),
        "((A >-> EXIT !1) >>> ACCEPT ?x::Int ?y:: IN (B !x >-> STOP))"
    );
    assert_eq!(proc_body("A >-> HIT ## MISS"), "((A >-> HIT) ## MISS)");
    let f = ok(
        "PROCDEF p [] () EXIT Int # Bool ::= EXIT ! 1 ! True ENDDEF \
                PROCDEF q [] () HIT ::= HIT ENDDEF PROCDEF r [] () ::= STOP ENDDEF \
                PROCDEF s [] () EXIT ::= EXIT ENDDEF",
    );
    let exits: Vec<String> = f
        .defs
        .iter()
        .map(|d| match d {
            Def::Proc(p) => format!("{:?}", p.exit).replace(['"', ' '], ""),
            _ => panic!(),
        })
        .collect();
    assert_eq!(exits.len(), 4);
    assert!(exits[0].starts_with("Exit([Ident{name:Int"), "{}", exits[0]);
    assert_eq!(exits[1], "Hit");
    assert_eq!(exits[2], "NoExit");
    assert_eq!(exits[3], "Exit([])");
}

#[test]
fn definitions() {
    let f = ok(
        "TYPEDEF Op ::= Plus { p1, p2 :: Int } | Neg { n :: Int; b :: Bool } | Nop ENDDEF
        CONSTDEF c :: Int ::= 1; d :: Bool ::= True ENDDEF
        FUNCDEF ++ (s, t :: String) :: String ::= s ENDDEF
        CHANDEF Chans ::= A, B :: Int # Int; C ENDDEF
        MODELDEF M ::= CHAN IN A, B CHAN OUT SYNC {A | B}, {C} BEHAVIOUR p [A, B, C] () ENDDEF
        MAPPERDEF Map ::= CHAN IN CHAN OUT A BEHAVIOUR STOP ENDDEF",
    );
    let Def::Type(t) = &f.defs[0] else { panic!() };
    assert_eq!(t.name.name, "Op");
    let ctors: Vec<String> = t
        .ctors
        .iter()
        .map(|c| {
            format!(
                "{}{{{}}}",
                c.name.name,
                c.fields
                    .iter()
                    .map(|d| format!("{}:{}", d.name.name, d.sort.name))
                    .collect::<Vec<_>>()
                    .join(",")
            )
        })
        .collect();
    assert_eq!(ctors, ["Plus{p1:Int,p2:Int}", "Neg{n:Int,b:Bool}", "Nop{}"]);
    let Def::Const(cs) = &f.defs[1] else { panic!() };
    assert_eq!(cs.len(), 2);
    assert_eq!(cs[1].name.name, "d");
    let Def::Func(fd) = &f.defs[2] else { panic!() };
    assert_eq!(
        (fd.name.name.as_str(), fd.params.len(), fd.ret.name.as_str()),
        ("++", 2, "String")
    );
    let Def::Chan(ch) = &f.defs[3] else { panic!() };
    assert_eq!(chans_str(&ch.chans), "A::Int#Int; B::Int#Int; C::");
    let Def::Model(m) = &f.defs[4] else { panic!() };
    assert_eq!(
        (names(&m.chan_in), names(&m.chan_out)),
        ("A,B".to_string(), String::new())
    );
    let sync: Vec<String> = m.sync.as_ref().unwrap().iter().map(|s| names(s)).collect();
    assert_eq!(sync, ["A,B", "C"]);
    assert_eq!(b(&m.behaviour), "p[A,B,C]()");
    let Def::Mapper(mm) = &f.defs[5] else {
        panic!()
    };
    assert!(mm.sync.is_none());
    assert_eq!(names(&mm.chan_out), "A");
}

#[test]
fn stautdef() {
    let f = ok(
        "STAUTDEF adder [ Act :: Operation; Res :: Int ] ( n :: Int ) ::=
          STATE idle, calc
          VAR v :: Int; l :: IntList
          INIT idle { v := 0; l := Nil }
          TRANS idle -> Act ? opn [[ isPlus(opn) ]] { v := p1(opn) + p2(opn) } -> calc
                calc -> Res ! v { } -> idle ;
                calc -> ISTEP -> idle
        ENDDEF",
    );
    let Def::StAut(s) = &f.defs[0] else { panic!() };
    assert_eq!(names(&s.states), "idle,calc");
    assert_eq!(s.vars.len(), 2);
    assert_eq!(s.init.name, "idle");
    assert_eq!(s.init_values.len(), 2);
    assert_eq!(s.params.len(), 1);
    let trans: Vec<String> = s
        .trans
        .iter()
        .map(|t| {
            let ups: Vec<String> = t
                .updates
                .iter()
                .map(|(x, e)| format!("{} := {}", x.name, v(e)))
                .collect();
            format!(
                "{} -> {} {{{}}} -> {}",
                t.from.name,
                offers(&t.offers, &t.guard),
                ups.join("; "),
                t.to.name
            )
        })
        .collect();
    assert_eq!(
        trans,
        [
            "idle -> Act ?opn [[isPlus(opn)]] {v := (p1(opn) + p2(opn))} -> calc",
            "calc -> Res !v {} -> idle",
            "calc -> ISTEP {} -> idle",
        ]
    );
}

#[test]
fn cnectdef_and_purpdef() {
    let src = r#"CNECTDEF Sut ::= CLIENTSOCK
        CHAN OUT Action HOST "localhost" PORT 7890
        ENCODE Action ? opn -> ! toString(opn)
        CHAN IN Result HOST "localhost" PORT 7891
        DECODE Result ! fromString(s) <- ? s
    ENDDEF
    PURPDEF P ::= CHAN IN Action CHAN OUT Result
        GOAL g1 ::= Action ? x >-> HIT
        GOAL g2 ::= p [Action] () ||| MISS
    ENDDEF"#;
    let f = ok(src);
    let Def::Cnect(c) = &f.defs[0] else { panic!() };
    assert_eq!(c.kind, CnectKind::Client);
    let chans: Vec<String> = c
        .chans
        .iter()
        .map(|ch| format!("{:?} {} {} {}", ch.dir, ch.chan.name, ch.host, ch.port))
        .collect();
    assert_eq!(
        chans,
        ["Out Action localhost 7890", "In Result localhost 7891"]
    );
    assert_eq!(c.encodes.len(), 1);
    assert_eq!(offer(&c.encodes[0].offer), "Action ?opn");
    assert_eq!(v(&c.encodes[0].value), "toString(opn)");
    assert!(c.encodes[0].chan.is_none());
    assert_eq!(offer(&c.decodes[0].offer), "Result !fromString(s)");
    assert_eq!(c.decodes[0].var.name, "s");
    let Def::Purp(p) = &f.defs[1] else { panic!() };
    let goals: Vec<String> = p
        .goals
        .iter()
        .map(|(g, be)| format!("{} ::= {}", g.name, b(be)))
        .collect();
    assert_eq!(
        goals,
        [
            "g1 ::= (Action ?x >-> HIT)",
            "g2 ::= (p[Action]() ||| MISS)"
        ]
    );
    // The span of a definition runs from its keyword to ENDDEF.
    assert_eq!(
        &src[c.span.start as usize..c.span.end as usize][..8],
        "CNECTDEF"
    );
    assert!(src[..p.span.end as usize].ends_with("ENDDEF"));
}

#[test]
fn comments_nest() {
    let f = ok("{- a {- nested -} comment -} CONSTDEF c :: Int ::= 1 -- line\n ENDDEF -- end");
    assert_eq!(f.defs.len(), 1);
}

// ----- errors ----------------------------------------------------------------------------------

/// The first line of each error rendered, with `line:col`.
fn errors(src: &str) -> Vec<String> {
    let (_, diags) = parse(0, src);
    let mut map = ioco_lang::SourceMap::new();
    map.add("t.txs", src);
    diags
        .into_iter()
        .filter(|d| d.is_error())
        .map(|mut d| {
            d.attach(&map);
            format!("{}: {}", d.location, d.message)
        })
        .collect()
}

#[test]
fn missing_enddef_and_recovery() {
    let src = "PROCDEF p [A] () ::= A >-> STOP\n\nPROCDEF q [A] () ::= A >-> ENDDEF\nCONSTDEF c :: Int ::= ENDDEF\n";
    assert_eq!(
        errors(src),
        [
            "t.txs:3:1: expected `ENDDEF`, found the keyword `PROCDEF`",
            "t.txs:3:28: expected a behaviour, found the keyword `ENDDEF`",
            "t.txs:4:23: expected a value expression, found the keyword `ENDDEF`",
        ]
    );
    let (_, diags) = parse(0, src);
    assert_eq!(diags[0].code, "ioco::txs::parse::expected");
    assert_eq!(
        diags[0].help.as_deref(),
        Some("every PROCDEF ends in ENDDEF")
    );
    let text = render(src, &diags);
    assert!(text.contains("expected `ENDDEF` here"), "{text}");
}

#[test]
fn bad_input_messages() {
    assert_eq!(
        errors("PROCDEF p [A] () ::= p (1) ENDDEF"),
        ["t.txs:1:24: expected `[`, found `(`"]
    );
    let (_, d) = parse(0, "PROCDEF p [A] () ::= p (1) ENDDEF");
    assert_eq!(
        d[0].help.as_deref(),
        Some("a process instantiation lists its channels, even none: `p [] (..)`")
    );
    assert_eq!(
        errors("FUNCDEF f (x :: int) :: Int ::= x ENDDEF"),
        ["t.txs:1:17: expected a sort, found the name `int`"]
    );
    assert_eq!(
        errors("MODELDEF M ::= CHAN OUT A BEHAVIOUR STOP ENDDEF"),
        ["t.txs:1:21: expected `IN`, found the keyword `OUT`"]
    );
    assert_eq!(
        errors("TYPEDEF T ::= A | B ENDDEF\nhello"),
        ["t.txs:2:1: expected a definition, found the name `hello`"]
    );
    assert_eq!(
        errors("CONSTDEF s :: String ::= \"abc ENDDEF"),
        ["t.txs:1:26: this string is not closed"]
    );
    assert_eq!(
        errors("{- open"),
        ["t.txs:1:1: this block comment is not closed"]
    );
    assert_eq!(
        errors("CONSTDEF c :: Int ::= 1 $ 2 ENDDEF"),
        ["t.txs:1:25: unexpected character `$`"]
    );
    assert_eq!(
        errors("STAUTDEF s [] () ::= STATE a TRANS a -> A ENDDEF"),
        ["t.txs:1:43: expected `->`, found the keyword `ENDDEF`"]
    );
    let (_, d) = parse(0, "PROCDEF p [A] () ::= A >-> STOP [] STOP ENDDEF");
    assert_eq!(d[0].message, "expected `ENDDEF`, found `[`");
    assert_eq!(
        d[0].help.as_deref(),
        Some("choice is written `##` in TorXakis (`[]` is not an operator)")
    );
    let (_, d) = parse(
        0,
        "PROCDEF p [A :: Int] () ::= A ? x [[ x > 0 || x < 5 ]] ENDDEF",
    );
    assert_eq!(d[0].message, "expected `]]`, found `||`");
    assert_eq!(
        d[0].help.as_deref(),
        Some("in a value expression, `or` is written `\\/` (and `and` is `/\\`)")
    );
    let (_, d) = parse(0, "CHANDEF C ::= A :: Int B ENDDEF");
    assert_eq!(
        d[0].help.as_deref(),
        Some("the CHANDEF should end here with ENDDEF; or is a `;` missing before this?")
    );
    assert_eq!(
        errors("PROCDEF IN [] () ::= STOP ENDDEF"),
        ["t.txs:1:9: expected a process name, found the keyword `IN`"]
    );
}

#[test]
fn nesting_limit() {
    let deep = format!(
        "CONSTDEF c :: Int ::= {}1{} ENDDEF",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let e = errors(&deep);
    assert_eq!(e.len(), 1);
    assert!(
        e[0].ends_with("expressions nest more than 256 levels deep"),
        "{e:?}"
    );
    let ok_deep = format!(
        "CONSTDEF c :: Int ::= {}1{} ENDDEF",
        "(".repeat(250),
        ")".repeat(250)
    );
    ok(&ok_deep);
    let deep_b = format!(
        "PROCDEF p [A] () ::= {}STOP{} ENDDEF",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    assert!(errors(&deep_b)[0].ends_with("expressions nest more than 256 levels deep"));
    let ok_b = format!(
        "PROCDEF p [A] () ::= {}A >-> STOP{} ENDDEF",
        "(LET x = (1) IN ".repeat(127),
        " NI)".repeat(127)
    );
    ok(&ok_b);
    let minus = format!("CONSTDEF c :: Int ::= {}1 ENDDEF", "- ".repeat(100_000));
    assert!(errors(&minus)[0].ends_with("expressions nest more than 256 levels deep"));
    // Long chains are read in a loop, up to a bound.
    ok(&format!(
        "PROCDEF p [A] () ::= {}STOP ENDDEF",
        "A ! 1 >-> ".repeat(4000)
    ));
    ok(&format!(
        "CONSTDEF c :: Int ::= 1{} ENDDEF",
        " + 1".repeat(4000)
    ));
    // Chains nested in chains count together.
    let nested = format!(
        "PROCDEF p [A] () ::= {}STOP{} ENDDEF",
        format!("{}(", "A >-> ".repeat(30)).repeat(200),
        ")".repeat(200)
    );
    assert!(errors(&nested)[0].ends_with("more than 4096 actions and guards in a row"));
    let long = format!(
        "PROCDEF p [A] () ::= {}STOP ENDDEF",
        "A >-> ".repeat(100_000)
    );
    assert!(errors(&long)[0].ends_with("more than 4096 actions and guards in a row"));
}

// ----- no panic on any input -------------------------------------------------------------------

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    /// Corpus texts and a small built-in model. Without the corpus, the built-in model only:
    /// the corpus part of the calling test is recorded as skipped (a failure under
    /// `IOCO_NO_SKIP=1`), once, before its cases run.
    fn texts() -> Vec<String> {
        let mut out = Vec::new();
        if let Some(dir) = ioco_testkit::corpus_part("its corpus texts") {
            let dir = dir.join("torxakis");
            let files = txs_files(&dir);
            out.extend(files.iter().map(|f| std::fs::read_to_string(f).unwrap()));
        }
        out.push(
            "TYPEDEF T ::= A { x :: Int } | B ENDDEF PROCDEF p [G :: Int] (n :: Int) EXIT ::= \
             G ! n >-> ([[ n > 0 ]] =>> p [G] (n - 1) ## EXIT) >>> ACCEPT ? x IN STOP NI ENDDEF"
                .to_string(),
        );
        out
    }

    const PIECES: &[&str] = &[
        "TYPEDEF",
        "PROCDEF",
        "STAUTDEF",
        "MODELDEF",
        "CNECTDEF",
        "PURPDEF",
        "ENDDEF",
        "::=",
        "::",
        ":=",
        ">->",
        "##",
        "|||",
        "||",
        "|[",
        "]|",
        "[[",
        "]]",
        "=>>",
        ">>>",
        "[>>",
        "[><",
        "->",
        "<-",
        "!",
        "?",
        "#",
        ";",
        ",",
        "|",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        "=",
        "+",
        "-",
        "LET",
        "IN",
        "NI",
        "IF",
        "THEN",
        "ELSE",
        "FI",
        "HIDE",
        "EXIT",
        "ACCEPT",
        "STOP",
        "HIT",
        "GOAL",
        "CHAN",
        "OUT",
        "SYNC",
        "BEHAVIOUR",
        "STATE",
        "VAR",
        "INIT",
        "TRANS",
        "A",
        "x",
        "Int",
        "1",
        "99999999999999999999",
        "\"s\\q\"",
        "\"",
        "REGEX",
        "'a'",
        "{-",
        "-}",
        "--",
        "\n",
        " ",
        "é",
        "$",
    ];

    fn config() -> ProptestConfig {
        ProptestConfig {
            cases: 400,
            ..ProptestConfig::default()
        }
    }

    /// Truncated corpus files.
    #[test]
    fn truncated() {
        let texts = texts();
        proptest!(config(), |(which in any::<prop::sample::Index>(), cut in any::<prop::sample::Index>())| {
            let t = &texts[which.index(texts.len())];
            let mut at = cut.index(t.len() + 1);
            while !t.is_char_boundary(at) {
                at -= 1;
            }
            let start = std::time::Instant::now();
            let _ = parse(0, &t[..at]);
            prop_assert!(start.elapsed().as_secs() < 5);
        });
    }

    /// Corpus files with a slice cut out.
    #[test]
    fn spliced() {
        let texts = texts();
        proptest!(config(), |(which in any::<prop::sample::Index>(), a in any::<prop::sample::Index>(), n in 0usize..200)| {
            let t = &texts[which.index(texts.len())];
            let mut from = a.index(t.len() + 1);
            while !t.is_char_boundary(from) {
                from -= 1;
            }
            let mut to = (from + n).min(t.len());
            while !t.is_char_boundary(to) {
                to += 1;
            }
            let s = format!("{}{}", &t[..from], &t[to..]);
            let _ = parse(0, &s);
        });
    }

    proptest! {
        #![proptest_config(config())]

        /// Random sequences of tokens.
        #[test]
        fn token_soup(picks in prop::collection::vec(any::<prop::sample::Index>(), 0..300)) {
            let s: Vec<&str> = picks.iter().map(|i| PIECES[i.index(PIECES.len())]).collect();
            let _ = parse(0, &s.join(" "));
            let _ = parse(0, &s.concat());
        }

        /// Arbitrary text.
        #[test]
        fn any_text(s in ".{0,400}") {
            let _ = parse(0, &s);
        }
    }
}
