//! Graphviz DOT: the Mealy dialect of AALpy, LearnLib and hybrid-ADS, and an LTS dialect.
//!
//! The reader is a hand-written parser of the DOT language subset that model files use (so
//! that errors point at the exact token): `[strict] digraph [name] { ... }`, node statements
//! with attribute lists, edge statements (chains `a -> b -> c` included), `node [...]`,
//! `edge [...]` and `graph [...]` defaults, `key = value` statements, `subgraph [name] { ... }`
//! blocks (flattened), ports (`n:p`, ignored), `//`, `/* */` and `#` comments. IDs are plain
//! identifiers, numerals, double-quoted strings (`\"` is a quote, `\\` a backslash, a backslash
//! before a newline continues the line) or HTML strings `<...>`.
//!
//! # States and the initial state
//! States are the node IDs (not their `label` attribute: AALpy writes `6 [label="s6"]` and
//! `s0 [label="0"]`, and car_alarm's labels repeat) in order of first appearance. Nodes whose ID
//! starts with `__start` are not states: an edge `__start0 -> s` makes `s` initial (AALpy,
//! LearnLib). **Without such an edge, the first state of the file is initial.**
//!
//! # Mealy dialect (auto-detected when some edge label contains `/` or is an HTML label)
//! * `s0 -> s1 [label="in/out"]`: split at the **first** `/`, both sides trimmed
//!   (`"coin/ beep"` and hybrid-ADS's `"a / 0"` work; an input name cannot contain `/`).
//! * LearnLib's HTML labels `label=<in1 | in2<br />out>`: one transition per input, all with
//!   the output after `<br/>` (which may itself contain `/`); `&amp;`-style entities decoded.
//! * An edge label with no output (`label="d"`) is read the Moore way: its output is the
//!   target state's output, which is the part after `|` of the node's label (AALpy Moore
//!   machines, `label="s0|out"`); else, in a file with `doublecircle` nodes (AALpy DFAs),
//!   `accept` or `reject`; else the node's whole label (car_alarm's `label="N"`). This is the
//!   standard Moore-to-Mealy translation. AALpy's `arithmetics.dot` (a visibly pushdown
//!   automaton) reads as a 2-state Mealy machine whose `push`/`pop` stack operations are plain
//!   outputs; its stack is not modelled.
//! * A second transition for the same state and input with another target or output is an
//!   error (a Mealy machine is deterministic); an identical repeat is ignored.
//!
//! # LTS dialect (auto-detected when no label is Mealy-like and some label has a direction)
//! Edge labels follow [`crate::label`]: `a?`, `b!`, `tau`, `delta`. Several `__start` edges
//! give several initial states.
//!
//! A file whose labels have neither `/` nor a direction marker is read as a Moore machine, as
//! above; use [`parse_lts`] to force the LTS reading (which then reports the unmarked label).

use crate::error::FormatError;
use crate::label::{classify, written, Classified, UNMARKED_HINT};
use crate::Model;
use ioco_model::{Alphabet, Label, Lts, LtsBuilder, Mealy};
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::fmt::Write;

// ---------------------------------------------------------------------------------------------
// Lexer

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum T {
    Id,
    Html,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Semi,
    Comma,
    Eq,
    Arrow,
    DashDash,
    Colon,
    Eof,
}

#[derive(Clone, Debug)]
struct Tok<'a> {
    t: T,
    a: usize,
    z: usize,
    text: Cow<'a, str>,
}

struct Lexer<'a> {
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    file: &'a str,
}

fn is_id_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c >= 0x80
}

impl<'a> Lexer<'a> {
    fn err(&self, a: usize, z: usize, msg: impl Into<String>) -> FormatError {
        FormatError::at(self.file, self.src, a, z, msg)
    }

    fn skip_trivia(&mut self) -> Result<(), FormatError> {
        let b = self.b;
        loop {
            while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if self.pos >= b.len() {
                return Ok(());
            }
            let at_line_start = self.pos == 0 || b[self.pos - 1] == b'\n';
            if (b[self.pos] == b'#' && at_line_start) || b[self.pos..].starts_with(b"//") {
                while self.pos < b.len() && b[self.pos] != b'\n' {
                    self.pos += 1;
                }
            } else if b[self.pos..].starts_with(b"/*") {
                let start = self.pos;
                match self.src[self.pos + 2..].find("*/") {
                    Some(k) => self.pos += 2 + k + 2,
                    None => {
                        return Err(self
                            .err(start, start + 2, "unterminated comment")
                            .expected("`*/`"))
                    }
                }
            } else {
                return Ok(());
            }
        }
    }

    fn next(&mut self) -> Result<Tok<'a>, FormatError> {
        self.skip_trivia()?;
        let b = self.b;
        let a = self.pos;
        if a >= b.len() {
            return Ok(Tok {
                t: T::Eof,
                a,
                z: a,
                text: Cow::Borrowed(""),
            });
        }
        let c = b[a];
        let single = |t| (t, a + 1);
        let (t, z) = match c {
            b'{' => single(T::LBrace),
            b'}' => single(T::RBrace),
            b'[' => single(T::LBracket),
            b']' => single(T::RBracket),
            b';' => single(T::Semi),
            b',' => single(T::Comma),
            b'=' => single(T::Eq),
            b':' => single(T::Colon),
            b'-' if b.get(a + 1) == Some(&b'>') => (T::Arrow, a + 2),
            b'-' if b.get(a + 1) == Some(&b'-') => (T::DashDash, a + 2),
            b'"' => return self.quoted(a),
            b'<' => return self.html(a),
            c if is_id_start(c) => {
                let mut z = a + 1;
                while z < b.len() && (is_id_start(b[z]) || b[z].is_ascii_digit()) {
                    z += 1;
                }
                (T::Id, z)
            }
            c if c.is_ascii_digit() || c == b'-' || c == b'.' => {
                let mut z = a + 1;
                while z < b.len() && (b[z].is_ascii_digit() || b[z] == b'.') {
                    z += 1;
                }
                if z == a + 1 && !c.is_ascii_digit() {
                    return Err(self
                        .err(a, a + 1, format!("unexpected `{}`", c as char))
                        .expected("an ID, `->` or a number"));
                }
                (T::Id, z)
            }
            _ => {
                let ch = self.src[a..].chars().next().unwrap_or('?');
                return Err(self
                    .err(a, a + ch.len_utf8(), format!("unexpected character `{ch}`"))
                    .hint(
                        "DOT IDs are identifiers, numbers, \"quoted strings\" or <html strings>",
                    ));
            }
        };
        self.pos = z;
        Ok(Tok {
            t,
            a,
            z,
            text: Cow::Borrowed(&self.src[a..z]),
        })
    }

    fn quoted(&mut self, a: usize) -> Result<Tok<'a>, FormatError> {
        let b = self.b;
        let mut i = a + 1;
        let mut owned: Option<String> = None;
        let mut seg = i;
        while i < b.len() {
            match b[i] {
                b'"' => {
                    let text = match owned {
                        Some(mut s) => {
                            s.push_str(&self.src[seg..i]);
                            Cow::Owned(s)
                        }
                        None => Cow::Borrowed(&self.src[a + 1..i]),
                    };
                    self.pos = i + 1;
                    return Ok(Tok {
                        t: T::Id,
                        a,
                        z: i + 1,
                        text,
                    });
                }
                b'\\' if i + 1 < b.len() && matches!(b[i + 1], b'"' | b'\\' | b'\n') => {
                    let s = owned.get_or_insert_with(String::new);
                    s.push_str(&self.src[seg..i]);
                    match b[i + 1] {
                        b'"' => s.push('"'),
                        b'\\' => s.push('\\'),
                        _ => {}
                    }
                    i += 2;
                    seg = i;
                }
                _ => i += 1,
            }
        }
        Err(self
            .err(a, a + 1, "unterminated string")
            .expected("a closing `\"`"))
    }

    fn html(&mut self, a: usize) -> Result<Tok<'a>, FormatError> {
        let b = self.b;
        let mut depth = 0usize;
        let mut i = a;
        while i < b.len() {
            match b[i] {
                b'<' => depth += 1,
                b'>' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos = i + 1;
                        return Ok(Tok {
                            t: T::Html,
                            a,
                            z: i + 1,
                            text: Cow::Borrowed(&self.src[a + 1..i]),
                        });
                    }
                }
                _ => {}
            }
            i += 1;
        }
        Err(self
            .err(a, a + 1, "unterminated HTML string")
            .expected("a closing `>`"))
    }
}

// ---------------------------------------------------------------------------------------------
// Parser (syntax only)

#[derive(Clone, Debug)]
struct Attr<'a> {
    key: Cow<'a, str>,
    value: Cow<'a, str>,
    /// Span of the value token.
    span: (usize, usize),
    html: bool,
}

#[derive(Clone, Debug)]
struct DEdge<'a> {
    from: usize,
    from_span: (usize, usize),
    to: usize,
    to_span: (usize, usize),
    attrs: Vec<Attr<'a>>,
}

#[derive(Debug, Default)]
struct Graph<'a> {
    /// Node IDs in order of first appearance.
    nodes: Vec<Cow<'a, str>>,
    node_spans: Vec<(usize, usize)>,
    node_attrs: Vec<Vec<Attr<'a>>>,
    index: FxHashMap<Cow<'a, str>, usize>,
    edges: Vec<DEdge<'a>>,
}

impl<'a> Graph<'a> {
    #[allow(clippy::ptr_arg)] // the Cow is cloned into the index without allocating
    fn node(&mut self, id: &Cow<'a, str>, span: (usize, usize)) -> usize {
        if let Some(&i) = self.index.get(id) {
            return i;
        }
        let i = self.nodes.len();
        self.nodes.push(id.clone());
        self.node_spans.push(span);
        self.node_attrs.push(Vec::new());
        self.index.insert(id.clone(), i);
        i
    }

    fn attr(&self, node: usize, key: &str) -> Option<&Attr<'a>> {
        self.node_attrs[node].iter().rev().find(|a| a.key == key)
    }
}

fn edge_attr<'b, 'a>(e: &'b DEdge<'a>, key: &str) -> Option<&'b Attr<'a>> {
    e.attrs.iter().rev().find(|a| a.key == key)
}

const MAX_DEPTH: usize = 64;

struct Parser<'a> {
    lx: Lexer<'a>,
    tok: Tok<'a>,
    g: Graph<'a>,
}

impl<'a> Parser<'a> {
    fn bump(&mut self) -> Result<Tok<'a>, FormatError> {
        let next = self.lx.next()?;
        Ok(std::mem::replace(&mut self.tok, next))
    }

    fn err_here(&self, msg: impl Into<String>, expected: &str) -> FormatError {
        let t = &self.tok;
        let z = if t.z > t.a { t.z } else { t.a + 1 };
        self.lx.err(t.a, z, msg).expected(expected.to_string())
    }

    fn unexpected(&self, expected: &str) -> FormatError {
        let what = match self.tok.t {
            T::Eof => "unexpected end of file".to_string(),
            _ => format!("unexpected `{}`", self.tok.text),
        };
        self.err_here(what, expected)
    }

    fn expect(&mut self, t: T, expected: &str) -> Result<Tok<'a>, FormatError> {
        if self.tok.t == t {
            self.bump()
        } else {
            Err(self.unexpected(expected))
        }
    }

    fn is_kw(&self, kw: &str) -> bool {
        self.tok.t == T::Id
            && self.tok.text.eq_ignore_ascii_case(kw)
            && self.lx.b[self.tok.a] != b'"'
    }

    fn graph(&mut self) -> Result<(), FormatError> {
        if self.is_kw("strict") {
            self.bump()?;
        }
        if self.is_kw("graph") {
            return Err(self
                .err_here("undirected graphs are not models", "`digraph`")
                .hint("write `digraph name { ... }` with `->` edges"));
        }
        if !self.is_kw("digraph") {
            return Err(self
                .unexpected("`digraph`")
                .hint("a DOT model file starts with `digraph name {`"));
        }
        self.bump()?;
        if matches!(self.tok.t, T::Id | T::Html) {
            self.bump()?;
        }
        self.expect(T::LBrace, "`{`")?;
        let mut edge_defaults = Vec::new();
        let mut node_defaults = Vec::new();
        self.stmt_list(&mut edge_defaults, &mut node_defaults, 0)?;
        self.expect(T::RBrace, "`}`")?;
        if self.tok.t != T::Eof {
            return Err(self
                .unexpected("the end of the file")
                .hint("a file holds one `digraph { ... }`"));
        }
        Ok(())
    }

    fn attr_lists(&mut self, out: &mut Vec<Attr<'a>>) -> Result<(), FormatError> {
        while self.tok.t == T::LBracket {
            self.bump()?;
            while self.tok.t != T::RBracket {
                let key = self.expect(T::Id, "an attribute name or `]`")?;
                if self.tok.t != T::Eq {
                    return Err(self
                        .lx
                        .err(
                            key.a,
                            key.z,
                            format!("attribute `{}` has no value", key.text),
                        )
                        .expected("`=` after the name, or a `]` before it to close the list"));
                }
                self.bump()?;
                if !matches!(self.tok.t, T::Id | T::Html) {
                    return Err(self.unexpected("an attribute value"));
                }
                let v = self.bump()?;
                out.push(Attr {
                    key: key.text,
                    html: v.t == T::Html,
                    span: (v.a, v.z),
                    value: v.text,
                });
                if matches!(self.tok.t, T::Comma | T::Semi) {
                    self.bump()?;
                }
            }
            self.bump()?;
        }
        Ok(())
    }

    fn node_id(&mut self) -> Result<Tok<'a>, FormatError> {
        let id = self.expect(T::Id, "a node ID")?;
        // Ports and compass points are irrelevant for models.
        while self.tok.t == T::Colon {
            self.bump()?;
            self.expect(T::Id, "a port name")?;
        }
        Ok(id)
    }

    fn stmt_list(
        &mut self,
        edge_defaults: &mut Vec<Attr<'a>>,
        node_defaults: &mut Vec<Attr<'a>>,
        depth: usize,
    ) -> Result<(), FormatError> {
        if depth > MAX_DEPTH {
            return Err(self.err_here("subgraphs nested too deeply", "`}`"));
        }
        loop {
            match self.tok.t {
                T::RBrace | T::Eof => return Ok(()),
                T::Semi => {
                    self.bump()?;
                    continue;
                }
                T::LBrace => {
                    self.bump()?;
                    self.subgraph_body(edge_defaults, node_defaults, depth)?;
                    continue;
                }
                T::Id => {}
                _ => return Err(self.unexpected("a statement")),
            }
            if self.is_kw("subgraph") {
                self.bump()?;
                if self.tok.t == T::Id {
                    self.bump()?;
                }
                self.expect(T::LBrace, "`{`")?;
                self.subgraph_body(edge_defaults, node_defaults, depth)?;
                continue;
            }
            if self.is_kw("node") || self.is_kw("edge") || self.is_kw("graph") {
                let kw = self.bump()?;
                if self.tok.t == T::LBracket {
                    let mut attrs = Vec::new();
                    self.attr_lists(&mut attrs)?;
                    if kw.text.eq_ignore_ascii_case("edge") {
                        edge_defaults.extend(attrs);
                    } else if kw.text.eq_ignore_ascii_case("node") {
                        node_defaults.extend(attrs);
                    }
                    continue;
                }
                return Err(self.unexpected("`[`"));
            }
            let first = self.node_id()?;
            match self.tok.t {
                T::Eq => {
                    // graph attribute `key = value`
                    self.bump()?;
                    if !matches!(self.tok.t, T::Id | T::Html) {
                        return Err(self.unexpected("a value"));
                    }
                    self.bump()?;
                }
                T::Arrow | T::DashDash => {
                    let mut chain = vec![first];
                    while matches!(self.tok.t, T::Arrow | T::DashDash) {
                        if self.tok.t == T::DashDash {
                            return Err(self
                                .err_here("undirected edge in a digraph", "`->`")
                                .hint("transitions are written `from -> to`"));
                        }
                        self.bump()?;
                        if self.tok.t == T::LBrace || self.is_kw("subgraph") {
                            return Err(self
                                .err_here("edges to subgraphs are not supported", "a node ID")
                                .hint("write one edge per pair of states"));
                        }
                        chain.push(self.node_id()?);
                    }
                    let mut attrs = edge_defaults.clone();
                    self.attr_lists(&mut attrs)?;
                    let ids: Vec<(usize, (usize, usize))> = chain
                        .iter()
                        .map(|t| {
                            let i = self.g.node(&t.text, (t.a, t.z));
                            (i, (t.a, t.z))
                        })
                        .collect();
                    for w in ids.windows(2) {
                        self.g.edges.push(DEdge {
                            from: w[0].0,
                            from_span: w[0].1,
                            to: w[1].0,
                            to_span: w[1].1,
                            attrs: attrs.clone(),
                        });
                    }
                }
                _ => {
                    let i = self.g.node(&first.text, (first.a, first.z));
                    let mut attrs = node_defaults.clone();
                    self.attr_lists(&mut attrs)?;
                    self.g.node_attrs[i].extend(attrs);
                }
            }
        }
    }

    fn subgraph_body(
        &mut self,
        edge_defaults: &[Attr<'a>],
        node_defaults: &[Attr<'a>],
        depth: usize,
    ) -> Result<(), FormatError> {
        let mut e = edge_defaults.to_vec();
        let mut n = node_defaults.to_vec();
        self.stmt_list(&mut e, &mut n, depth + 1)?;
        self.expect(T::RBrace, "`}`")?;
        Ok(())
    }
}

fn syntax<'a>(src: &'a str, file: &'a str) -> Result<Graph<'a>, FormatError> {
    let mut lx = Lexer {
        src,
        b: src.as_bytes(),
        pos: 0,
        file,
    };
    let tok = lx.next()?;
    let mut p = Parser {
        lx,
        tok,
        g: Graph::default(),
    };
    p.graph()?;
    Ok(p.g)
}

// ---------------------------------------------------------------------------------------------
// Interpretation

fn is_start(id: &str) -> bool {
    id.starts_with("__start")
}

/// States (non-start nodes) and initial states.
struct Frame {
    /// node index -> state index (u32::MAX for start nodes)
    state_of: Vec<u32>,
    names: Vec<String>,
    initial: Vec<u32>,
}

fn frame(g: &Graph, src: &str, file: &str) -> Result<Frame, FormatError> {
    let mut state_of = vec![u32::MAX; g.nodes.len()];
    let mut names = Vec::new();
    for (i, id) in g.nodes.iter().enumerate() {
        if !is_start(id) {
            state_of[i] = names.len() as u32;
            names.push(id.to_string());
        }
    }
    if names.is_empty() {
        return Err(
            FormatError::at(file, src, 0, src.len().min(1), "the graph has no states")
                .hint("declare states as nodes and transitions as edges `s0 -> s1 [label=\"a?\"]`"),
        );
    }
    let mut initial = Vec::new();
    for e in &g.edges {
        let (f, t) = (state_of[e.from], state_of[e.to]);
        if t == u32::MAX {
            return Err(FormatError::at(
                file,
                src,
                e.to_span.0,
                e.to_span.1,
                "an edge into a start marker",
            )
            .hint("`__start*` nodes only point at initial states: `__start0 -> s0`"));
        }
        if f == u32::MAX && !initial.contains(&t) {
            initial.push(t);
        }
    }
    if initial.is_empty() {
        initial.push(0);
    }
    Ok(Frame {
        state_of,
        names,
        initial,
    })
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Dialect {
    Mealy,
    Lts,
}

fn is_mealy_label(a: &Attr) -> bool {
    a.html || a.value.contains('/')
}

fn detect(g: &Graph) -> Dialect {
    let labels = || {
        g.edges
            .iter()
            .filter(|e| !is_start(&g.nodes[e.from]))
            .filter_map(|e| edge_attr(e, "label"))
    };
    if labels().any(is_mealy_label) {
        return Dialect::Mealy;
    }
    let marked = labels().any(|a| {
        !matches!(
            classify(&a.value),
            Classified::Unmarked(_) | Classified::Empty
        )
    });
    if marked || g.edges.iter().all(|e| is_start(&g.nodes[e.from])) {
        Dialect::Lts
    } else {
        Dialect::Mealy
    }
}

/// Read a DOT file, choosing the Mealy or the LTS dialect by its labels (see the module docs).
pub fn parse(src: &str, file: &str) -> Result<Model, FormatError> {
    let g = syntax(src, file)?;
    match detect(&g) {
        Dialect::Mealy => mealy_of(&g, src, file).map(Model::Mealy),
        Dialect::Lts => lts_of(&g, src, file).map(Model::Lts),
    }
}

/// Read a DOT file in the LTS dialect.
pub fn parse_lts(src: &str, file: &str) -> Result<Lts, FormatError> {
    let g = syntax(src, file)?;
    lts_of(&g, src, file)
}

/// Read a DOT file in the Mealy dialect.
pub fn parse_mealy(src: &str, file: &str) -> Result<Mealy, FormatError> {
    let g = syntax(src, file)?;
    mealy_of(&g, src, file)
}

fn lts_of(g: &Graph, src: &str, file: &str) -> Result<Lts, FormatError> {
    let fr = frame(g, src, file)?;
    let mut b = LtsBuilder::new(Alphabet::new());
    b.add_states(fr.names.len());
    for &i in &fr.initial {
        b.add_initial(i);
    }
    let mut cache: FxHashMap<&str, Label> = FxHashMap::default();
    for e in &g.edges {
        let f = fr.state_of[e.from];
        if f == u32::MAX {
            continue;
        }
        let t = fr.state_of[e.to];
        let Some(attr) = edge_attr(e, "label") else {
            return Err(FormatError::at(
                file,
                src,
                e.from_span.0,
                e.to_span.1,
                "a transition without a label",
            )
            .expected("`[label=\"a?\"]`")
            .hint(UNMARKED_HINT));
        };
        let (a, z) = attr.span;
        let l = match cache.get(attr.value.as_ref()) {
            Some(&l) => l,
            None => {
                let cl = classify(&attr.value);
                let l = match cl.kind_and_name() {
                    Some((kind, name)) => b.alphabet_mut().intern(name, kind).map_err(|k| {
                        FormatError::at(file, src, a, z, k.to_string())
                            .hint("a name is either an input or an output in the whole model")
                    })?,
                    None => {
                        let e = FormatError::at(
                            file,
                            src,
                            a,
                            z,
                            match cl {
                                Classified::Unmarked(n) => {
                                    format!("label `{n}` has no direction")
                                }
                                Classified::Conflicting => format!(
                                    "label `{}` is marked both as input and as output",
                                    attr.value
                                ),
                                _ => "empty label".to_string(),
                            },
                        );
                        return Err(e.expected("`a?`, `b!`, `tau` or `delta`").hint(format!(
                            "{UNMARKED_HINT}; a Mealy machine writes `input/output`"
                        )));
                    }
                };
                cache.insert(attr.value.as_ref(), l);
                l
            }
        };
        b.add_transition(f, l, t);
    }
    b.set_state_names(fr.names);
    b.build()
        .map_err(|e| FormatError::file(file, e.to_string()))
}

fn decode_entities(s: &str) -> Cow<'_, str> {
    if !s.contains('&') {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let end = rest.find(';').filter(|&e| e <= 10);
        let rep = end.and_then(|e| {
            let ent = &rest[1..e];
            let c = match ent {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some(' '),
                _ => ent
                    .strip_prefix('#')
                    .and_then(|n| {
                        n.strip_prefix('x')
                            .map_or_else(|| n.parse().ok(), |h| u32::from_str_radix(h, 16).ok())
                    })
                    .and_then(char::from_u32),
            };
            c.map(|c| (c, e + 1))
        });
        match rep {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Remove HTML tags from `s`.
fn strip_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Split a Mealy edge label into inputs and an optional output.
fn mealy_label(a: &Attr) -> (Vec<String>, Option<String>) {
    if a.html {
        let v: &str = &a.value;
        let lower = v.to_ascii_lowercase();
        if let Some(i) = lower.find("<br") {
            let after = v[i..].find('>').map_or(v.len(), |k| i + k + 1);
            let ins = decode_entities(&strip_tags(&v[..i]))
                .split('|')
                .map(|s| s.trim().to_string())
                .collect();
            let out = decode_entities(&strip_tags(&v[after..])).trim().to_string();
            return (ins, Some(out));
        }
        let text = decode_entities(&strip_tags(v)).into_owned();
        return split_slash(&text);
    }
    split_slash(&a.value)
}

fn split_slash(v: &str) -> (Vec<String>, Option<String>) {
    match v.split_once('/') {
        Some((i, o)) => (vec![i.trim().to_string()], Some(o.trim().to_string())),
        None => (vec![v.trim().to_string()], None),
    }
}

fn moore_output(g: &Graph, node: usize, dfa: bool) -> Option<String> {
    let label = g.attr(node, "label").map(|a| a.value.as_ref());
    if let Some((_, out)) = label.and_then(|l| l.split_once('|')) {
        return Some(out.trim().to_string());
    }
    if dfa {
        let acc = g
            .attr(node, "shape")
            .is_some_and(|a| a.value.contains("doublecircle"));
        return Some(if acc { "accept" } else { "reject" }.to_string());
    }
    label
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
}

/// (target, output, span of the label) of a Mealy transition.
type MealyEntry = (u32, u32, (usize, usize));

fn mealy_of(g: &Graph, src: &str, file: &str) -> Result<Mealy, FormatError> {
    let fr = frame(g, src, file)?;
    if fr.initial.len() > 1 {
        let e = g
            .edges
            .iter()
            .filter(|e| fr.state_of[e.from] == u32::MAX)
            .nth(1)
            .expect("two start edges");
        return Err(FormatError::at(
            file,
            src,
            e.to_span.0,
            e.to_span.1,
            "a Mealy machine has one initial state",
        )
        .hint("keep a single `__start0 -> s` edge"));
    }
    let dfa = g
        .node_attrs
        .iter()
        .flatten()
        .any(|a| a.key == "shape" && a.value.contains("doublecircle"));
    let mut inputs: Vec<String> = Vec::new();
    let mut outputs: Vec<String> = Vec::new();
    let mut in_ix: FxHashMap<String, u32> = FxHashMap::default();
    let mut out_ix: FxHashMap<String, u32> = FxHashMap::default();
    // (state, input) -> (target, output, span)
    let mut table: FxHashMap<(u32, u32), MealyEntry> = FxHashMap::default();
    let mut order: Vec<(u32, u32)> = Vec::new();
    for e in &g.edges {
        let f = fr.state_of[e.from];
        if f == u32::MAX {
            continue;
        }
        let t = fr.state_of[e.to];
        let Some(attr) = edge_attr(e, "label") else {
            return Err(FormatError::at(
                file,
                src,
                e.from_span.0,
                e.to_span.1,
                "a transition without a label",
            )
            .expected("`[label=\"input/output\"]`"));
        };
        let (a, z) = attr.span;
        let (ins, out) = mealy_label(attr);
        let out = match out.or_else(|| moore_output(g, e.to, dfa)) {
            Some(o) => o,
            None => {
                return Err(FormatError::at(
                    file,
                    src,
                    a,
                    z,
                    format!("transition `{}` has no output", attr.value),
                )
                .expected("`input/output`")
                .hint("write Mealy labels as `input/output`, or give the target state a Moore output `label=\"name|output\"`"))
            }
        };
        if out.is_empty() {
            return Err(FormatError::at(file, src, a, z, "empty output").expected("`input/output`"));
        }
        let o = *out_ix.entry(out.clone()).or_insert_with(|| {
            outputs.push(out.clone());
            outputs.len() as u32 - 1
        });
        for inp in ins {
            if inp.is_empty() {
                return Err(
                    FormatError::at(file, src, a, z, "empty input").expected("`input/output`")
                );
            }
            let i = *in_ix.entry(inp.clone()).or_insert_with(|| {
                inputs.push(inp.clone());
                inputs.len() as u32 - 1
            });
            match table.get(&(f, i)) {
                Some(&(t0, o0, span0)) => {
                    if (t0, o0) != (t, o) {
                        let (line, _) = crate::error::line_col(src, span0.0);
                        return Err(FormatError::at(
                            file,
                            src,
                            a,
                            z,
                            format!(
                                "state `{}` already has a transition for input `{inp}` (line {line})",
                                fr.names[f as usize]
                            ),
                        )
                        .hint("a Mealy machine is deterministic: one target and output per state and input"));
                    }
                }
                None => {
                    table.insert((f, i), (t, o, (a, z)));
                    order.push((f, i));
                }
            }
        }
    }
    let mut m = Mealy::new(fr.names.len(), inputs, outputs, fr.initial[0]);
    for (f, i) in order {
        let (t, o, _) = table[&(f, i)];
        m.set(f, i, t, o);
    }
    m.state_names = fr.names;
    Ok(m)
}

// ---------------------------------------------------------------------------------------------
// Writers

/// Quote a DOT string.
fn q(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn state_ids(names: Option<&[String]>, n: usize) -> Vec<String> {
    if let Some(names) = names {
        let mut seen = rustc_hash::FxHashSet::default();
        if names.len() == n
            && names
                .iter()
                .all(|s| !s.is_empty() && !is_start(s) && seen.insert(s.as_str()))
        {
            return names.iter().map(|s| q(s)).collect();
        }
    }
    (0..n).map(|i| format!("s{i}")).collect()
}

/// Write an LTS in the DOT LTS dialect (`a?`, `b!`, `tau`, `delta`; `__startN` edges).
pub fn write_lts(lts: &Lts) -> String {
    let a = lts.alphabet();
    let ids = state_ids(lts.state_names(), lts.num_states());
    let labels: Vec<String> = a.all().map(|l| q(&written(a, l))).collect();
    let mut out = String::from("digraph lts {\n");
    for (k, &s) in lts.initial().iter().enumerate() {
        let _ = writeln!(out, "  __start{k} [label=\"\", shape=none];");
        let _ = writeln!(out, "  __start{k} -> {};", ids[s as usize]);
    }
    for s in lts.states() {
        let _ = writeln!(out, "  {} [shape=circle];", ids[s as usize]);
    }
    for (s, l, t) in lts.transitions() {
        let _ = writeln!(
            out,
            "  {} -> {} [label={}];",
            ids[s as usize],
            ids[t as usize],
            labels[l.index()]
        );
    }
    out.push_str("}\n");
    out
}

/// A name that AALpy, LearnLib, hybrid-ADS and Graphviz all read as a bare node ID: an ASCII
/// identifier that is no DOT keyword and no start marker.
fn is_plain_id(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_')
        && !is_start(s)
        && !["node", "edge", "graph", "digraph", "subgraph", "strict"]
            .iter()
            .any(|k| k.eq_ignore_ascii_case(s))
}

/// A node label AALpy's line reader takes as it is: not empty, no quote, backslash or control
/// character, and nothing its line tests look for (`->`, `__start0`).
fn is_plain_label(s: &str) -> bool {
    !s.is_empty()
        && !s.chars().any(|c| c == '"' || c == '\\' || c.is_control())
        && !s.contains("->")
        && !s.contains("__start0")
}

/// Write a Mealy machine in the Mealy dialect that AALpy (`load_automaton_from_file`, 2.0.0),
/// LearnLib (AutomataLib's `DOTParsers.mealy()`), hybrid-ADS and this crate read as they are:
///
/// ```text
/// digraph mealy {
///   s0 [label="s0"];
///   __start0 [label="", shape=none];
///   __start0 -> s0;
///   s0 -> s1 [comment="coin / beep", label="coin/beep"];
/// }
/// ```
///
/// - one statement per line (AALpy and hybrid-ADS read lines, not the DOT grammar);
/// - node IDs are bare identifiers (AALpy's edge pattern is `\w+ -> \w+`): the state names
///   when all of them are ASCII identifiers (unique, no keyword), else `s0`, `s1`, ... with the
///   names in the labels; every node line has a non-empty `label` (AALpy makes states from the
///   lines with a label);
/// - `label="in/out"` (AALpy splits at the first `/` and does not trim; LearnLib splits and
///   trims); hybrid-ADS reads the first quoted string of an edge line as the words `in`, `/`,
///   `out`, so each edge first carries that form as a `comment` (an attribute Graphviz ignores);
/// - the initial state's edges come first (hybrid-ADS's initial state is the first state it
///   reads) and `__start0 -> s` names it for the others.
///
/// The readers' own limits stay: AALpy and hybrid-ADS cannot read a `"` in a label, hybrid-ADS
/// no blank in a name, LearnLib no `/` in an output and no empty output, and no reader (this
/// one included) an input with `/`. State names come back (here) only when they are the IDs.
pub fn write_mealy(m: &Mealy) -> String {
    let n = m.num_states();
    let mut seen = rustc_hash::FxHashSet::default();
    let named = m.state_names.len() == n
        && m.state_names
            .iter()
            .all(|s| is_plain_id(s) && seen.insert(s.as_str()));
    let ids: Vec<String> = if named {
        m.state_names.clone()
    } else {
        (0..n).map(|i| format!("s{i}")).collect()
    };
    let mut out = String::from("digraph mealy {\n");
    for (s, id) in ids.iter().enumerate() {
        let label = m
            .state_names
            .get(s)
            .filter(|l| is_plain_label(l))
            .unwrap_or(id);
        let _ = writeln!(out, "  {id} [label={}, shape=circle];", q(label));
    }
    if n > 0 {
        let _ = writeln!(out, "  __start0 [label=\"\", shape=none];");
        let _ = writeln!(out, "  __start0 -> {};", ids[m.initial as usize]);
    }
    let order = std::iter::once(m.initial).chain((0..n as u32).filter(|&s| s != m.initial));
    for s in order.filter(|&s| (s as usize) < n) {
        for i in 0..m.num_inputs() as u32 {
            if let Some((t, o)) = m.step(s, i) {
                let (input, output) = (&m.inputs[i as usize], &m.outputs[o as usize]);
                let _ = writeln!(
                    out,
                    "  {} -> {} [comment={}, label={}];",
                    ids[s as usize],
                    ids[t as usize],
                    q(&format!("{input} / {output}")),
                    q(&format!("{input}/{output}"))
                );
            }
        }
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ioco_model::LabelKind;

    #[test]
    fn mealy_aalpy_style() {
        let src = r#"digraph coffee_mealy {
s0 [label="s0"];
s1 [label="s1"];
s0 -> s1  [label="coin/ beep"];
s0 -> s0  [label="button/ init"];
s1 -> s1  [label="coin/ beep"];
s1 -> s0  [label="button/ coffee"];
__start0 [label="", shape=none];
__start0 -> s1  [label=""];
}"#;
        let Model::Mealy(m) = parse(src, "c.dot").unwrap() else {
            panic!("expected Mealy")
        };
        assert_eq!(m.num_states(), 2);
        assert_eq!(m.inputs, vec!["coin", "button"]);
        assert_eq!(m.outputs, vec!["beep", "init", "coffee"]);
        assert_eq!(m.initial, 1);
        assert!(m.is_complete());
        let text = write_mealy(&m);
        let back = parse_mealy(&text, "w.dot").unwrap();
        // the initial state's edges come first, so outputs are numbered in another order
        assert_eq!(
            (&back.inputs, &back.state_names),
            (&m.inputs, &m.state_names)
        );
        assert_eq!(back.initial, m.initial);
        for s in 0..2 {
            for i in 0..2 {
                let name = |x: &Mealy| {
                    x.step(s, i)
                        .map(|(t, o)| (t, x.outputs[o as usize].clone()))
                };
                assert_eq!(name(&back), name(&m), "{text}");
            }
        }
    }

    #[test]
    fn html_labels_split_inputs() {
        let src = "digraph g { s0 -> s1 [label=<a | b<br />x / y &amp; z>]; s1 -> s1 [label=<a | b<br/>w>]; }";
        let m = parse_mealy(src, "h.dot").unwrap();
        assert_eq!(m.inputs, vec!["a", "b"]);
        assert_eq!(m.outputs, vec!["x / y & z", "w"]);
        assert_eq!(m.step(0, 1), Some((1, 0)));
        assert_eq!(m.initial, 0);
    }

    #[test]
    fn moore_reading() {
        let src = "digraph m { q0 [label=\"N\"]; q1 [label=\"A\"]; q0 -> q1 [label=\"d\"]; q1 -> q0 [label=d]; }";
        let m = parse_mealy(src, "m.dot").unwrap();
        assert_eq!(
            m.step(0, 0),
            Some((1, m.outputs.iter().position(|o| o == "A").unwrap() as u32))
        );
        assert!(matches!(parse(src, "m.dot").unwrap(), Model::Mealy(_)));
    }

    #[test]
    fn lts_dialect_with_comments_chains_and_multiple_initial() {
        let src = r#"/* music */ digraph "p" {
  // states
  node [shape=circle];
  __start0 -> s0; __start1 -> s2
  s0 -> s1 [label="shuffle?"]
  s1 -> s2 -> s0 [label = "done!"]
# preprocessor line
  s2 -> s2 [label=tau]
}"#;
        let Model::Lts(l) = parse(src, "p.dot").unwrap() else {
            panic!("expected LTS")
        };
        assert_eq!(l.num_states(), 3);
        assert_eq!(l.num_transitions(), 4);
        assert_eq!(l.initial(), &[0, 1]); // s0 and s2, the second state of the file
        let a = l.alphabet();
        assert_eq!(a.kind(a.lookup("shuffle").unwrap()), LabelKind::Input);
        let back = parse_lts(&write_lts(&l), "w.dot").unwrap();
        assert_eq!(back, l);
    }

    #[test]
    fn strict_subgraphs_ports_and_edge_defaults() {
        let src = r#"strict digraph {
  graph [rankdir=LR]; rankdir = LR
  subgraph cluster_0 { edge [label="a?"]; s0:n -> s1:sw:s }
  { s1 -> s0 [label="b!", color=red] }
  s1 -> s1 [label=<tau>]
}"#;
        let l = parse_lts(src, "s.dot").unwrap();
        assert_eq!(l.num_states(), 2);
        assert_eq!(l.num_transitions(), 3);
        assert!(l.enables(1, Label::TAU));
        let a = l.alphabet();
        assert!(l.enables(0, a.lookup("a").unwrap()));
        assert!(l.enables(1, a.lookup("b").unwrap()));
    }

    #[test]
    fn nondeterministic_mealy_is_an_error_with_both_lines() {
        let src = "digraph g {\ns0 -> s1 [label=\"a/x\"]\ns0 -> s0 [label=\"a/y\"]\n}";
        let e = parse(src, "n.dot").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("line 2"), "{e}");
    }
}
