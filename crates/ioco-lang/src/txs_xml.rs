//! TorXakis's XML text of values: `toXml` and `fromXml` (`ENCODE Customer ? c -> ! toXml(c)`,
//! `DECODE Report ! fromXml(s) <- ? s`), one line per value.
//!
//! What TorXakis writes: the value in an element `TorXakisMsg`; a constructor as an element
//! of its name holding one element per field, named after the field; an `Int` as its decimal
//! text, a `Bool` as `true` or `false`, a `String` as its text with `&` and `<` as `&amp;` and
//! `&lt;` and each control character (but tab) as `<char>N</char>` (N decimal), so that a value
//! is one line. No blanks between elements, no attributes:
//! `<TorXakisMsg><Plus><p1>4</p1><p2>-7</p2></Plus></TorXakisMsg>`.
//!
//! What is read: the same, leniently: blanks between elements, an `<?xml ...?>` prolog,
//! self-closing empty elements (`<Nil/>`) and the five predefined entities and character
//! references (`&#65;`, `&#x41;`) are accepted; element names are checked against the
//! expected field names; a `Bool` is `true` exactly (anything else is `false`, as TorXakis
//! reads it). Errors give the column of the element or text in question.

use crate::ir::{Defs, Type, Value};
use crate::txs_text::TextError;

/// The root element's name.
pub const ROOT: &str = "TorXakisMsg";

/// `toXml(v)`.
pub fn to_xml(defs: &Defs, v: &Value) -> String {
    let mut out = String::new();
    node(defs, ROOT, v, &mut out);
    out
}

fn node(defs: &Defs, name: &str, v: &Value, out: &mut String) {
    use std::fmt::Write;
    let _ = write!(out, "<{name}>");
    match v {
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Str(s) => write_xml_text(s, out),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Adt(t, c, fields) => {
            let ctor = &defs.types[*t as usize].ctors[*c as usize];
            let _ = write!(out, "<{}>", ctor.name);
            for ((fname, _), f) in ctor.fields.iter().zip(fields.iter()) {
                node(defs, fname, f, out);
            }
            let _ = write!(out, "</{}>", ctor.name);
        }
    }
    let _ = write!(out, "</{name}>");
}

/// Appends `s` as XML text as TorXakis writes it (`&amp;`, `&lt;`, `<char>N</char>`).
pub fn write_xml_text(s: &str, out: &mut String) {
    use std::fmt::Write;
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            c if (c as u32) < 0x20 && c != '\t' => {
                let _ = write!(out, "<char>{}</char>", c as u32);
            }
            c => out.push(c),
        }
    }
}

/// A parsed XML node.
#[derive(Debug)]
enum Node {
    /// An element: name, children, byte offset of its `<`.
    Element(String, Vec<Node>, usize),
    /// Text (entities resolved), byte offset.
    Text(String, usize),
}

/// `fromXml(text)` for a value of type `ty`.
pub fn from_xml(defs: &Defs, ty: Type, text: &str) -> Result<Value, TextError> {
    let mut p = Xml { s: text, pos: 0 };
    p.ws();
    if p.rest().starts_with("<?") {
        match p.rest().find("?>") {
            Some(n) => p.pos += n + 2,
            None => return Err(p.error("an `<?xml` prolog without its `?>`".into())),
        }
    }
    p.ws();
    let root = p.element(0)?;
    p.ws();
    if p.pos < text.len() {
        return Err(p.error("unexpected text after the root element".into()));
    }
    let v = value(defs, ty, ROOT, &root, text)?;
    if !defs.contains(ty, &v) {
        return Err(TextError {
            message: format!(
                "{} is not a value of {}",
                crate::txs_text::to_string(defs, &v),
                defs.type_name(ty)
            ),
            column: 1,
            too_big: false,
        });
    }
    Ok(v)
}

fn column(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].chars().count() + 1
}

fn err(text: &str, at: usize, message: String) -> TextError {
    TextError {
        message,
        column: column(text, at),
        too_big: false,
    }
}

/// The text of a leaf element's children (`<char>N</char>` resolved).
fn leaf_text(children: &[Node], text: &str) -> Result<String, TextError> {
    let mut s = String::new();
    for c in children {
        match c {
            Node::Text(t, _) => s.push_str(t),
            Node::Element(n, kids, at) if n == "char" => {
                let code = leaf_text(kids, text)?;
                let ch = code
                    .trim()
                    .parse::<u32>()
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| {
                        err(text, *at, format!("`<char>{code}</char>` is no character"))
                    })?;
                s.push(ch);
            }
            Node::Element(n, _, at) => {
                return Err(err(
                    text,
                    *at,
                    format!("unexpected element <{n}> in a text value"),
                ))
            }
        }
    }
    Ok(s)
}

fn value(defs: &Defs, ty: Type, name: &str, node: &Node, text: &str) -> Result<Value, TextError> {
    let Node::Element(n, children, at) = node else {
        let Node::Text(_, at) = node else {
            unreachable!()
        };
        return Err(err(
            text,
            *at,
            format!("expected the element <{name}>, found text"),
        ));
    };
    if n != name {
        return Err(err(
            text,
            *at,
            format!("expected the element <{name}>, found <{n}>"),
        ));
    }
    match ty {
        Type::Str(..) => Ok(Value::Str(leaf_text(children, text)?.into())),
        Type::Bool => Ok(Value::Bool(leaf_text(children, text)? == "true")),
        Type::Int | Type::Range(..) => {
            let t = leaf_text(children, text)?;
            let inner = at + n.len() + 2;
            crate::txs_text::from_string(defs, Type::Int, &t).map_err(|mut e| {
                e.column = column(text, inner);
                e.message = format!("in <{name}>: {}", e.message);
                e
            })
        }
        Type::Adt(t) => {
            let def = &defs.types[t as usize];
            let elements: Vec<&Node> = children
                .iter()
                .filter(|c| !matches!(c, Node::Text(s, _) if s.trim().is_empty()))
                .collect();
            let [Node::Element(cname, fields, cat)] = elements[..] else {
                return Err(err(
                    text,
                    *at,
                    format!(
                        "<{name}> must hold one element, a constructor of {}",
                        def.name
                    ),
                ));
            };
            let Some(ci) = def.ctors.iter().position(|c| &c.name == cname) else {
                let names: Vec<&str> = def.ctors.iter().map(|c| c.name.as_str()).collect();
                return Err(err(
                    text,
                    *cat,
                    format!(
                        "<{cname}> is no constructor of {} (there are: {})",
                        def.name,
                        names.join(", ")
                    ),
                ));
            };
            let ctor = &def.ctors[ci];
            let fields: Vec<&Node> = fields
                .iter()
                .filter(|c| !matches!(c, Node::Text(s, _) if s.trim().is_empty()))
                .collect();
            if fields.len() != ctor.fields.len() {
                return Err(err(
                    text,
                    *cat,
                    format!(
                        "<{cname}> has {} field(s), found {}",
                        ctor.fields.len(),
                        fields.len()
                    ),
                ));
            }
            let mut vals = Vec::with_capacity(fields.len());
            for ((fname, fty), f) in ctor.fields.iter().zip(fields) {
                vals.push(value(defs, *fty, fname, f, text)?);
            }
            Ok(Value::Adt(t, ci as u32, vals.into()))
        }
    }
}

struct Xml<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Xml<'a> {
    fn rest(&self) -> &'a str {
        &self.s[self.pos..]
    }

    fn ws(&mut self) {
        let r = self.rest();
        self.pos += r.len() - r.trim_start().len();
    }

    fn error(&self, message: String) -> TextError {
        err(self.s, self.pos, message)
    }

    fn name(&mut self) -> Result<&'a str, TextError> {
        let r = self.rest();
        let n = r
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':')))
            .unwrap_or(r.len());
        if n == 0 {
            return Err(self.error("expected an element name".into()));
        }
        self.pos += n;
        Ok(&r[..n])
    }

    /// An element at the current position (`<`).
    fn element(&mut self, depth: usize) -> Result<Node, TextError> {
        if depth > 200 {
            return Err(self.error("elements nested deeper than 200 levels".into()));
        }
        let at = self.pos;
        if !self.rest().starts_with('<') {
            return Err(self.error("expected an element `<...>`".into()));
        }
        self.pos += 1;
        let name = self.name()?;
        self.ws();
        if self.rest().starts_with("/>") {
            self.pos += 2;
            return Ok(Node::Element(name.to_string(), Vec::new(), at));
        }
        if !self.rest().starts_with('>') {
            return Err(self.error(format!(
                "expected `>` after <{name} (TorXakis's XML has no attributes)"
            )));
        }
        self.pos += 1;
        let mut children = Vec::new();
        loop {
            let r = self.rest();
            if r.is_empty() {
                return Err(err(self.s, at, format!("<{name}> is not closed")));
            }
            if r.starts_with("</") {
                self.pos += 2;
                let close = self.name()?;
                if close != name {
                    return Err(self.error(format!("expected </{name}>, found </{close}>")));
                }
                self.ws();
                if !self.rest().starts_with('>') {
                    return Err(self.error(format!("expected `>` in </{name}>")));
                }
                self.pos += 1;
                return Ok(Node::Element(name.to_string(), children, at));
            }
            if r.starts_with('<') {
                children.push(self.element(depth + 1)?);
                continue;
            }
            let start = self.pos;
            let n = r.find('<').unwrap_or(r.len());
            let raw = &r[..n];
            self.pos += n;
            children.push(Node::Text(self.entities(raw, start)?, start));
        }
    }

    fn entities(&self, raw: &str, start: usize) -> Result<String, TextError> {
        let mut out = String::new();
        let mut rest = raw;
        while let Some(i) = rest.find('&') {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            let Some(end) = after.find(';') else {
                return Err(err(
                    self.s,
                    start + (raw.len() - rest.len()) + i,
                    "an `&` without `;`".into(),
                ));
            };
            let ent = &after[..end];
            let ch = match ent {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                _ => ent
                    .strip_prefix("#x")
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .or_else(|| ent.strip_prefix('#').and_then(|d| d.parse().ok()))
                    .and_then(char::from_u32),
            };
            let Some(ch) = ch else {
                return Err(err(
                    self.s,
                    start + (raw.len() - rest.len()) + i,
                    format!("unknown entity `&{ent};`"),
                ));
            };
            out.push(ch);
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{AdtDef, CtorDef};
    use crate::span::Span;

    fn defs() -> Defs {
        let ctor = |n: &str, f: &[(&str, Type)]| CtorDef {
            name: n.into(),
            fields: f.iter().map(|(n, t)| (n.to_string(), *t)).collect(),
        };
        Defs {
            types: vec![
                AdtDef {
                    name: "Operation".into(),
                    ctors: vec![
                        ctor("Plus", &[("p1", Type::Int), ("p2", Type::Int)]),
                        ctor("Minus", &[("m1", Type::Int), ("m2", Type::Int)]),
                    ],
                    span: Span::default(),
                },
                AdtDef {
                    name: "IntList".into(),
                    ctors: vec![
                        ctor("Nil", &[]),
                        ctor("Cons", &[("hd", Type::Bool), ("tl", Type::Adt(1))]),
                    ],
                    span: Span::default(),
                },
            ],
            functions: vec![],
            ..Defs::default()
        }
    }

    #[test]
    fn torxakis_xml_of_values_reads_back() {
        let d = defs();
        let plus = Value::Adt(0, 0, vec![Value::Int(4), Value::Int(-7)].into());
        let xml = to_xml(&d, &plus);
        assert_eq!(
            xml,
            "<TorXakisMsg><Plus><p1>4</p1><p2>-7</p2></Plus></TorXakisMsg>"
        );
        assert_eq!(from_xml(&d, Type::Adt(0), &xml), Ok(plus.clone()));
        let loose = "<?xml version=\"1.0\"?> <TorXakisMsg>\n <Plus> <p1> 4 </p1><p2>-7</p2> </Plus></TorXakisMsg> ";
        assert_eq!(from_xml(&d, Type::Adt(0), loose), Ok(plus));
        let nil = Value::Adt(1, 0, vec![].into());
        let l = Value::Adt(1, 1, vec![Value::Bool(true), nil].into());
        let xml = to_xml(&d, &l);
        assert_eq!(
            xml,
            "<TorXakisMsg><Cons><hd>true</hd><tl><Nil></Nil></tl></Cons></TorXakisMsg>"
        );
        assert_eq!(from_xml(&d, Type::Adt(1), &xml), Ok(l.clone()));
        let short = "<TorXakisMsg><Cons><hd>true</hd><tl><Nil/></tl></Cons></TorXakisMsg>";
        assert_eq!(from_xml(&d, Type::Adt(1), short), Ok(l));
        assert_eq!(
            from_xml(&d, Type::Int, "<TorXakisMsg>&#45;12</TorXakisMsg>"),
            Ok(Value::Int(-12))
        );
        let mut s = String::new();
        write_xml_text("a&b<c\nd\te", &mut s);
        assert_eq!(s, "a&amp;b&lt;c<char>10</char>d\te");
        let kids = vec![
            Node::Text("a".into(), 0),
            Node::Element("char".into(), vec![Node::Text("10".into(), 0)], 0),
        ];
        assert_eq!(leaf_text(&kids, "").unwrap(), "a\n");
    }

    #[test]
    fn xml_errors_say_where() {
        let d = defs();
        let op = Type::Adt(0);
        let e = from_xml(
            &d,
            op,
            "<TorXakisMsg><Times><p1>1</p1></Times></TorXakisMsg>",
        )
        .unwrap_err();
        assert!(
            e.message.contains("<Times> is no constructor of Operation"),
            "{e}"
        );
        assert_eq!(e.column, 14);
        let e = from_xml(
            &d,
            op,
            "<TorXakisMsg><Plus><p1>1</p1><q>2</q></Plus></TorXakisMsg>",
        )
        .unwrap_err();
        assert!(
            e.message.contains("expected the element <p2>, found <q>"),
            "{e}"
        );
        let e = from_xml(
            &d,
            op,
            "<TorXakisMsg><Plus><p1>x</p1><p2>2</p2></Plus></TorXakisMsg>",
        )
        .unwrap_err();
        assert!(e.message.contains("in <p1>: expected an Int"), "{e}");
        let e = from_xml(&d, op, "<TorXakisMsg><Plus><p1>1</p1></Plus></TorXakisMsg>").unwrap_err();
        assert!(e.message.contains("2 field(s), found 1"), "{e}");
        let e = from_xml(&d, op, "<TorXakisMsg><Plus>").unwrap_err();
        assert!(e.message.contains("is not closed"), "{e}");
        let e = from_xml(&d, op, "<Msg a=\"1\"></Msg>").unwrap_err();
        assert!(e.message.contains("no attributes"), "{e}");
        let e = from_xml(&d, Type::Int, "<Msg>1</Msg>").unwrap_err();
        assert!(
            e.message
                .contains("expected the element <TorXakisMsg>, found <Msg>"),
            "{e}"
        );
        let e = from_xml(&d, Type::Int, "<TorXakisMsg>1</TorXakisMsg> x").unwrap_err();
        assert!(e.message.contains("after the root"), "{e}");
        let deep = "<a>".repeat(1000);
        assert!(from_xml(&d, Type::Int, &deep)
            .unwrap_err()
            .message
            .contains("deeper"));
    }
}
