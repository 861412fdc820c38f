//! Systems under test for TorXakis's examples, speaking their `.txs` `CNECTDEF` protocols
//! (TCP, one line per message, TorXakis's value text), written from the models, not from
//! TorXakis's own SUTs. The binary `txs-sut` runs them; its documentation describes every
//! protocol and faulty mode.
//!
//! A SUT listens on each port of its example (TorXakis's `CLIENTSOCK`: the tester connects)
//! and serves *sessions*: a session is one connection on every port, from its start to the
//! first connection that closes; each session starts from the initial state (a tester resets
//! by reconnecting).

use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A TorXakis value as text: `42`, `-7`, `True`, `"text"`, `Plus(4,7)`, `Nil`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A string (a literal inside a constructor).
    Str(String),
    /// A constructor and its fields.
    Ctor(String, Vec<Term>),
}

impl Term {
    /// Reads a term: blanks between tokens are allowed; strings are literals with `\"`, `\\`,
    /// `\n`, `\t` and decimal `\DDD` escapes.
    pub fn parse(text: &str) -> Result<Term, String> {
        let chars: Vec<char> = text.chars().collect();
        let mut pos = 0;
        let t = term(&chars, &mut pos, 0)?;
        skip_ws(&chars, &mut pos);
        if pos < chars.len() {
            return Err(format!("unexpected text at column {}", pos + 1));
        }
        Ok(t)
    }

    /// The integer, if it is one.
    pub fn int(&self) -> Option<i64> {
        match self {
            Term::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The fields of constructor `name`, if it is one.
    pub fn ctor(&self, name: &str) -> Option<&[Term]> {
        match self {
            Term::Ctor(n, f) if n == name => Some(f),
            _ => None,
        }
    }
}

impl std::fmt::Display for Term {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Term::Int(i) => write!(f, "{i}"),
            Term::Bool(b) => f.write_str(if *b { "True" } else { "False" }),
            Term::Str(s) => {
                f.write_str("\"")?;
                for c in s.chars() {
                    match c {
                        '"' => f.write_str("\\\"")?,
                        '\\' => f.write_str("\\\\")?,
                        '\n' => f.write_str("\\n")?,
                        c => write!(f, "{c}")?,
                    }
                }
                f.write_str("\"")
            }
            Term::Ctor(n, fields) => {
                f.write_str(n)?;
                if !fields.is_empty() {
                    f.write_str("(")?;
                    for (i, t) in fields.iter().enumerate() {
                        if i > 0 {
                            f.write_str(",")?;
                        }
                        write!(f, "{t}")?;
                    }
                    f.write_str(")")?;
                }
                Ok(())
            }
        }
    }
}

fn skip_ws(c: &[char], pos: &mut usize) {
    while *pos < c.len() && c[*pos].is_whitespace() {
        *pos += 1;
    }
}

fn term(c: &[char], pos: &mut usize, depth: usize) -> Result<Term, String> {
    if depth > 100 {
        return Err("nested too deeply".into());
    }
    skip_ws(c, pos);
    let Some(&first) = c.get(*pos) else {
        return Err("a value is missing at the end of the line".into());
    };
    if first == '(' {
        *pos += 1;
        let t = term(c, pos, depth + 1)?;
        skip_ws(c, pos);
        if c.get(*pos) != Some(&')') {
            return Err(format!("expected `)` at column {}", *pos + 1));
        }
        *pos += 1;
        return Ok(t);
    }
    if first == '-' || first.is_ascii_digit() {
        let start = *pos;
        if first == '-' {
            *pos += 1;
            skip_ws(c, pos);
        }
        let digits_from = *pos;
        while *pos < c.len() && c[*pos].is_ascii_digit() {
            *pos += 1;
        }
        let digits: String = c[digits_from..*pos].iter().collect();
        let text = if first == '-' {
            format!("-{digits}")
        } else {
            digits
        };
        return text
            .parse()
            .map(Term::Int)
            .map_err(|_| format!("not an integer at column {}", start + 1));
    }
    if first == '"' {
        *pos += 1;
        let mut s = String::new();
        loop {
            let Some(&ch) = c.get(*pos) else {
                return Err("a string without its closing quote".into());
            };
            *pos += 1;
            match ch {
                '"' => return Ok(Term::Str(s)),
                '\\' => {
                    let Some(&e) = c.get(*pos) else {
                        return Err("a `\\` at the end of the line".into());
                    };
                    *pos += 1;
                    match e {
                        'n' => s.push('\n'),
                        't' => s.push('\t'),
                        'r' => s.push('\r'),
                        '&' => {}
                        d if d.is_ascii_digit() => {
                            let mut n = d.to_digit(10).unwrap_or(0);
                            while let Some(d) = c.get(*pos).and_then(|d| d.to_digit(10)) {
                                n = n.saturating_mul(10).saturating_add(d);
                                *pos += 1;
                            }
                            s.push(char::from_u32(n).ok_or("a bad character code")?);
                        }
                        other => s.push(other),
                    }
                }
                ch => s.push(ch),
            }
        }
    }
    if first.is_alphabetic() {
        let start = *pos;
        while *pos < c.len() && (c[*pos].is_alphanumeric() || c[*pos] == '_') {
            *pos += 1;
        }
        let name: String = c[start..*pos].iter().collect();
        match name.as_str() {
            "True" => return Ok(Term::Bool(true)),
            "False" => return Ok(Term::Bool(false)),
            _ => {}
        }
        let mut fields = Vec::new();
        let save = *pos;
        skip_ws(c, pos);
        if c.get(*pos) == Some(&'(') {
            *pos += 1;
            skip_ws(c, pos);
            if c.get(*pos) == Some(&')') {
                *pos += 1;
            } else {
                loop {
                    fields.push(term(c, pos, depth + 1)?);
                    skip_ws(c, pos);
                    match c.get(*pos) {
                        Some(',') => *pos += 1,
                        Some(')') => {
                            *pos += 1;
                            break;
                        }
                        _ => return Err(format!("expected `,` or `)` at column {}", *pos + 1)),
                    }
                }
            }
        } else {
            *pos = save;
        }
        return Ok(Term::Ctor(name, fields));
    }
    Err(format!("unexpected `{first}` at column {}", *pos + 1))
}

/// Where a SUT writes its output lines: the connections of a session, by port index.
pub struct Out<'a> {
    streams: &'a mut [TcpStream],
}

impl Out<'_> {
    /// Writes `line` (and a newline) on port `port` (an index into [`Example::ports`]).
    pub fn line(&mut self, port: usize, line: &str) {
        let s = &mut self.streams[port];
        let _ = s.write_all(format!("{line}\n").as_bytes());
        let _ = s.flush();
    }
}

/// One example's behaviour.
pub trait Example: Send {
    /// The `.txs` ports it listens on, in order (the indices of [`Out::line`]).
    fn ports(&self) -> Vec<u16>;
    /// Back to the initial state (a new session).
    fn reset(&mut self);
    /// A session has started (after [`Example::reset`]): outputs it gives unasked.
    fn start(&mut self, _out: &mut Out) {}
    /// A line read on port `port`.
    fn input(&mut self, port: usize, line: &str, out: &mut Out);
    /// When it wants to act on its own next (a moving arm that arrives).
    fn wake_at(&self) -> Option<Instant> {
        None
    }
    /// Act on its own ([`Example::wake_at`] has come).
    fn wake(&mut self, _out: &mut Out) {}
}

/// The examples: (name, modes, one line of description).
pub const EXAMPLES: &[(&str, &[&str])] = &[
    ("echo", &["correct", "wrong", "missing", "extra"]),
    ("echo-xml", &["correct", "wrong", "missing", "extra"]),
    ("adder", &["correct", "wrong", "missing", "extra"]),
    ("adder3", &["correct", "wrong", "missing", "extra"]),
    ("queue", &["correct", "wrong", "missing", "extra"]),
    (
        "stimulus-response",
        &["correct", "missing", "extra", "once"],
    ),
    ("point", &["correct", "wrong", "missing", "extra"]),
    ("lucky-people", &["correct", "wrong", "missing"]),
    ("lucky-people-xml", &["correct", "wrong", "missing"]),
    (
        "dispatch-process",
        &["correct", "wrong", "missing", "extra"],
    ),
    (
        "customers-orders",
        &["correct", "wrong", "missing", "extra"],
    ),
    ("moving-arm", &["correct", "wrong", "missing"]),
    ("moving-arms", &["correct", "wrong", "missing"]),
];

/// The faulty behaviours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Conforms to the model.
    Correct,
    /// A wrong output value.
    Wrong,
    /// An output the model requires is not given.
    Missing,
    /// An output the model does not allow after another.
    Extra,
    /// Answers the first input of a session only (`stimulus-response`: TorXakis's
    /// `StimulusResponse` SUT, against the model of a loop).
    Once,
}

/// The example `name` in `mode`.
pub fn example(name: &str, mode: &str, travel: Duration) -> Result<Box<dyn Example>, String> {
    let Some((_, modes)) = EXAMPLES.iter().find(|(n, _)| *n == name) else {
        let names: Vec<&str> = EXAMPLES.iter().map(|(n, _)| *n).collect();
        return Err(format!(
            "no example `{name}` (there are: {})",
            names.join(", ")
        ));
    };
    if !modes.contains(&mode) {
        return Err(format!(
            "`{name}` has no mode `{mode}` (it has: {})",
            modes.join(", ")
        ));
    }
    let m = match mode {
        "correct" => Mode::Correct,
        "wrong" => Mode::Wrong,
        "missing" => Mode::Missing,
        "once" => Mode::Once,
        _ => Mode::Extra,
    };
    Ok(match name {
        "echo" => Box::new(Echo {
            mode: m,
            count: 0,
            xml: false,
        }),
        "echo-xml" => Box::new(Echo {
            mode: m,
            count: 0,
            xml: true,
        }),
        "adder" => Box::new(Adder::new(m, &[7890])),
        "adder3" => Box::new(Adder::new(m, &[7891, 7892, 7893])),
        "queue" => Box::new(Queue {
            mode: m,
            items: Vec::new(),
            enqueued: 0,
        }),
        "stimulus-response" => Box::new(StimulusResponse {
            mode: m,
            answered: false,
        }),
        "point" => Box::new(Point { mode: m, count: 0 }),
        "lucky-people" => Box::new(LuckyPeople::new(m, false)),
        "lucky-people-xml" => Box::new(LuckyPeople::new(m, true)),
        "dispatch-process" => Box::new(Dispatch {
            mode: m,
            count: 0,
            robust: false,
        }),
        "dispatch-robust" => Box::new(Dispatch {
            mode: m,
            count: 0,
            robust: true,
        }),
        "customers-orders" => Box::new(CustomersOrders {
            mode: m,
            customers: Vec::new(),
            orders: Vec::new(),
        }),
        "moving-arm" => Box::new(Arms::new(m, travel, &[ONE_ARM])),
        _ => Box::new(Arms::new(m, travel, &THREE_ARMS)),
    })
}

/// Echo (`Echo.txs`, port 9999; with `xml`, its `Xut` CNECTDEF: `toXml`/`fromXml`).
struct Echo {
    mode: Mode,
    count: u32,
    xml: bool,
}

/// `<TorXakisMsg>text</TorXakisMsg>` → `text`.
fn xml_leaf(line: &str) -> Option<&str> {
    let inner = line.trim().strip_prefix("<TorXakisMsg>")?;
    Some(inner.strip_suffix("</TorXakisMsg>")?.trim())
}

impl Example for Echo {
    fn ports(&self) -> Vec<u16> {
        vec![9999]
    }
    fn reset(&mut self) {
        self.count = 0;
    }
    fn input(&mut self, _: usize, line: &str, out: &mut Out) {
        let text = if self.xml { xml_leaf(line) } else { Some(line) };
        let Some(x) = text.and_then(|t| Term::parse(t).ok()).and_then(|t| t.int()) else {
            return;
        };
        self.count += 1;
        let xml = self.xml;
        let show = |v: i64| {
            if xml {
                format!("<TorXakisMsg>{v}</TorXakisMsg>")
            } else {
                v.to_string()
            }
        };
        match (self.mode, self.count) {
            (Mode::Wrong, _) => out.line(0, &show(x.wrapping_add(1))),
            (Mode::Missing, 3) => {}
            (Mode::Extra, 2) => {
                out.line(0, &show(x));
                out.line(0, &show(x));
            }
            _ => out.line(0, &show(x)),
        }
    }
}

/// Adder (`Adder.txs`: 7890; Adder3: 7891, 7892, 7893, one adder each).
struct Adder {
    mode: Mode,
    ports: Vec<u16>,
    count: u32,
}

impl Adder {
    fn new(mode: Mode, ports: &[u16]) -> Adder {
        Adder {
            mode,
            ports: ports.to_vec(),
            count: 0,
        }
    }
}

impl Example for Adder {
    fn ports(&self) -> Vec<u16> {
        self.ports.clone()
    }
    fn reset(&mut self) {
        self.count = 0;
    }
    fn input(&mut self, port: usize, line: &str, out: &mut Out) {
        let Ok(t) = Term::parse(line) else { return };
        let ints = |f: &[Term]| Some((f.first()?.int()?, f.get(1)?.int()?));
        let r = if let Some((a, b)) = t.ctor("Plus").and_then(ints) {
            a.wrapping_add(b)
        } else if let Some((a, b)) = t.ctor("Minus").and_then(ints) {
            if self.mode == Mode::Wrong {
                b.wrapping_sub(a)
            } else {
                a.wrapping_sub(b)
            }
        } else {
            return;
        };
        self.count += 1;
        match (self.mode, self.count) {
            (Mode::Missing, 3) => {}
            (Mode::Extra, 2) => {
                out.line(port, &r.to_string());
                out.line(port, &r.to_string());
            }
            _ => out.line(port, &r.to_string()),
        }
    }
}

/// Queue (`Queue.txs`, port 7890).
struct Queue {
    mode: Mode,
    items: Vec<i64>,
    enqueued: u32,
}

impl Example for Queue {
    fn ports(&self) -> Vec<u16> {
        vec![7890]
    }
    fn reset(&mut self) {
        self.items.clear();
        self.enqueued = 0;
    }
    fn input(&mut self, _: usize, line: &str, out: &mut Out) {
        let Ok(t) = Term::parse(line) else { return };
        if let Some(v) = t.ctor("Enq").and_then(|f| f.first()?.int()) {
            self.enqueued += 1;
            if !(self.mode == Mode::Missing && self.enqueued == 2) {
                self.items.push(v);
            }
        } else if t.ctor("Deq").is_some() {
            let next = if self.mode == Mode::Wrong {
                self.items.pop()
            } else if self.items.is_empty() {
                None
            } else {
                Some(self.items.remove(0))
            };
            match next {
                Some(v) => out.line(0, &v.to_string()),
                None if self.mode == Mode::Extra => out.line(0, "0"),
                None => {}
            }
        }
    }
}

/// StimulusResponse (`StimulusResponse.txs` and `StimulusResponseLoop.txs`, port 7890).
struct StimulusResponse {
    mode: Mode,
    /// A stimulus was answered in this session.
    answered: bool,
}

impl Example for StimulusResponse {
    fn ports(&self) -> Vec<u16> {
        vec![7890]
    }
    fn reset(&mut self) {
        self.answered = false;
    }
    fn input(&mut self, _: usize, _line: &str, out: &mut Out) {
        let first = !self.answered;
        self.answered = true;
        match self.mode {
            Mode::Missing => {}
            Mode::Once if !first => {}
            Mode::Extra => {
                out.line(0, "response");
                out.line(0, "response");
            }
            _ => out.line(0, "response"),
        }
    }
}

/// Point (`Point.txs`, port 9999).
struct Point {
    mode: Mode,
    count: u32,
}

impl Example for Point {
    fn ports(&self) -> Vec<u16> {
        vec![9999]
    }
    fn reset(&mut self) {
        self.count = 0;
    }
    fn input(&mut self, _: usize, line: &str, out: &mut Out) {
        let Ok(t) = Term::parse(line) else { return };
        let Some((x, y)) = t
            .ctor("Point")
            .and_then(|f| Some((f.first()?.int()?, f.get(1)?.int()?)))
        else {
            return;
        };
        self.count += 1;
        // same x, another non-zero y: in range and valid
        let answer = match self.mode {
            Mode::Wrong => format!("Point({},{})", x.wrapping_add(1), y.wrapping_add(1)),
            _ => format!("Point({},{})", x, y.wrapping_neg()),
        };
        match (self.mode, self.count) {
            (Mode::Missing, 2) => {}
            (Mode::Extra, 2) => {
                out.line(0, &answer);
                out.line(0, &answer);
            }
            _ => out.line(0, &answer),
        }
    }
}

/// LuckyPeople (`LuckyPeople.txs`, port 7777; with `xml`, its `Xut` CNECTDEF).
struct LuckyPeople {
    mode: Mode,
    xml: bool,
    last: String,
    n: i64,
}

impl LuckyPeople {
    fn new(mode: Mode, xml: bool) -> LuckyPeople {
        LuckyPeople {
            mode,
            xml,
            last: "Male".into(),
            n: 0,
        }
    }

    /// `sex@firstName@lastName@day@month` of a Person in TorXakis's XML.
    fn from_xml(line: &str) -> Option<String> {
        let sex = xml_field(line, "sex")?;
        let sex = sex.strip_prefix('<')?.split(['>', '/']).next()?;
        let f = |n| xml_field(line, n);
        Some(format!(
            "{sex}@{}@{}@{}@{}",
            f("firstName")?,
            f("lastName")?,
            f("dayOfBirth")?,
            f("monthOfBirth")?
        ))
    }
}

impl Example for LuckyPeople {
    fn ports(&self) -> Vec<u16> {
        vec![7777]
    }
    fn reset(&mut self) {
        self.last = "Male".into();
        self.n = 0;
    }
    fn input(&mut self, _: usize, line: &str, out: &mut Out) {
        let fields = if self.xml {
            LuckyPeople::from_xml(line)
        } else {
            Some(line.to_string())
        };
        let Some(line) = fields else { return };
        let f: Vec<&str> = line.split('@').collect();
        let [sex, first, last_name, day, month] = f[..] else {
            return;
        };
        let (Ok(day), Ok(month)) = (day.trim().parse::<i64>(), month.trim().parse::<i64>()) else {
            return;
        };
        let by_gender = sex != self.last && self.n >= 5 && self.mode != Mode::Wrong;
        let by_name = first.chars().next() == last_name.chars().next();
        let by_birthday = day == month;
        let lucky = by_gender || by_name || by_birthday;
        if sex == self.last {
            self.n += 1;
        } else {
            self.last = sex.to_string();
            self.n = 1;
        }
        if self.mode == Mode::Missing && by_name {
            return;
        }
        out.line(
            0,
            match (self.xml, lucky) {
                (false, true) => "True",
                (false, false) => "False",
                (true, true) => "<TorXakisMsg>true</TorXakisMsg>",
                (true, false) => "<TorXakisMsg>false</TorXakisMsg>",
            },
        );
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a.rem_euclid(b))
    }
}

/// DispatchProcess (`DisPro10-data.txs`; with `robust`, `DisPro11-robust.txs`; port 7890).
struct Dispatch {
    mode: Mode,
    count: u32,
    robust: bool,
}

/// `DisPro11-robust.txs`'s `isValidJob`.
fn valid_job(id: i64, description: &str, x: i64, y: i64) -> bool {
    let c: Vec<char> = description.chars().collect();
    let shape = c.len() >= 4
        && c[0].is_ascii_uppercase()
        && c[1].is_ascii_digit()
        && c[2].is_ascii_digit()
        && c[3..].iter().all(char::is_ascii_lowercase);
    let (lo, hi) = (x.min(y) as i128, x.max(y) as i128);
    id > 0 && id % 2 == 0 && shape && x > 0 && y > 0 && hi - lo < 100 * lo
}

impl Example for Dispatch {
    fn ports(&self) -> Vec<u16> {
        vec![7890]
    }
    fn reset(&mut self) {
        self.count = 0;
    }
    fn input(&mut self, _: usize, line: &str, out: &mut Out) {
        let Ok(t) = Term::parse(line) else { return };
        let Some(f) = t.ctor("JobData") else { return };
        let (Some(id), Some(Term::Str(description)), Some(x), Some(y)) = (
            f.first().and_then(Term::int),
            f.get(1),
            f.get(2).and_then(Term::int),
            f.get(3).and_then(Term::int),
        ) else {
            return;
        };
        self.count += 1;
        let answer = if self.robust && !valid_job(id, description, x, y) {
            if self.mode == Mode::Missing {
                return;
            }
            Term::Ctor(
                "Error".into(),
                vec![Term::Str("Non-Valid Input Data".into())],
            )
            .to_string()
        } else {
            let g = if self.mode == Mode::Wrong {
                x.min(y)
            } else {
                gcd(x, y)
            };
            format!("JobOut({id},1,{g})")
        };
        match (self.mode, self.count) {
            (Mode::Missing, 2) if !self.robust => {}
            (Mode::Extra, 2) => {
                out.line(0, &answer);
                out.line(0, &answer);
            }
            _ => out.line(0, &answer),
        }
    }
}

/// CustomersOrders (`CustomersOrders.txs`, ports 7890 `Customer`, 7891 `Order` (read),
/// 7892 `Report` (written), all in TorXakis's XML). Customers and orders are kept as the XML
/// of their constructor element, newest first, and a report is built from them.
struct CustomersOrders {
    mode: Mode,
    /// (customerID, `<Customer>...</Customer>`), newest first.
    customers: Vec<(String, String)>,
    /// `<Order>...</Order>`, newest first.
    orders: Vec<String>,
}

/// The text of the first `<name>...</name>` in `xml`.
fn xml_field<'a>(xml: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<{name}>");
    let from = xml.find(&open)? + open.len();
    let to = xml[from..].find(&format!("</{name}>"))? + from;
    Some(xml[from..to].trim())
}

/// A TorXakis list (`Nil_X`, `Cstr_X { head; tail }`) of XML elements, in XML.
fn xml_list(ty: &str, items: &[&str]) -> String {
    let mut s = format!("<Nil_{ty}></Nil_{ty}>");
    for item in items.iter().rev() {
        s = format!("<Cstr_{ty}><head>{item}</head><tail>{s}</tail></Cstr_{ty}>");
    }
    s
}

impl CustomersOrders {
    fn report(&self, out: &mut Out) {
        let mut cs: Vec<&str> = self.customers.iter().map(|(_, c)| c.as_str()).collect();
        if self.mode == Mode::Wrong {
            cs.reverse();
        }
        let os: Vec<&str> = self.orders.iter().map(String::as_str).collect();
        out.line(
            2,
            &format!(
                "<TorXakisMsg><Report><customers>{}</customers><orders>{}</orders></Report></TorXakisMsg>",
                xml_list("Customer", &cs),
                xml_list("Order", &os)
            ),
        );
    }
}

impl Example for CustomersOrders {
    fn ports(&self) -> Vec<u16> {
        vec![7890, 7891, 7892]
    }
    fn reset(&mut self) {
        self.customers.clear();
        self.orders.clear();
    }
    fn start(&mut self, out: &mut Out) {
        self.report(out);
        if self.mode == Mode::Extra {
            self.report(out);
        }
    }
    fn input(&mut self, port: usize, line: &str, out: &mut Out) {
        let Some(inner) = line
            .trim()
            .strip_prefix("<TorXakisMsg>")
            .and_then(|r| r.strip_suffix("</TorXakisMsg>"))
        else {
            return;
        };
        let Some(id) = xml_field(inner, "customerID") else {
            return;
        };
        match port {
            0 if !self.customers.iter().any(|(c, _)| c == id) => {
                self.customers
                    .insert(0, (id.to_string(), inner.to_string()));
                self.report(out);
            }
            1 if self.customers.iter().any(|(c, _)| c == id) => {
                self.orders.insert(0, inner.to_string());
                if self.mode != Mode::Missing {
                    self.report(out);
                }
            }
            _ => {}
        }
    }
}

/// The ports of one arm: up, down, stop (read), stopped, min, max (written), and the names
/// of its messages' suffix (`X` in `upX`).
#[derive(Clone, Copy)]
struct ArmPorts {
    up: u16,
    down: u16,
    stop: u16,
    stopped: u16,
    min: u16,
    max: u16,
    suffix: &'static str,
}

const ONE_ARM: ArmPorts = ArmPorts {
    up: 9901,
    down: 9902,
    stop: 9903,
    stopped: 9904,
    min: 9905,
    max: 9906,
    suffix: "",
};

const THREE_ARMS: [ArmPorts; 3] = [
    ArmPorts {
        up: 9901,
        down: 9902,
        stop: 9903,
        min: 9904,
        max: 9905,
        stopped: 9926,
        suffix: "X",
    },
    ArmPorts {
        up: 9911,
        down: 9912,
        stop: 9913,
        min: 9914,
        max: 9915,
        stopped: 9927,
        suffix: "Y",
    },
    ArmPorts {
        up: 9921,
        down: 9922,
        stop: 9923,
        min: 9924,
        max: 9925,
        stopped: 9928,
        suffix: "Z",
    },
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Motion {
    Still,
    Up(Instant),
    Down(Instant),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Position {
    Min,
    Between,
    Max,
}

struct Arm {
    ports: ArmPorts,
    motion: Motion,
    at: Position,
}

/// MovingArm (`MovingArm.txs`, ports 9901..9906) and MovingArms (`MovingArms.txs`, three
/// arms).
struct Arms {
    mode: Mode,
    travel: Duration,
    arms: Vec<Arm>,
    /// All ports, in the order of [`Example::ports`].
    ports: Vec<u16>,
}

impl Arms {
    fn new(mode: Mode, travel: Duration, arms: &[ArmPorts]) -> Arms {
        let mut ports = Vec::new();
        for a in arms {
            ports.extend([a.up, a.down, a.stop, a.stopped, a.min, a.max]);
        }
        Arms {
            mode,
            travel,
            arms: arms
                .iter()
                .map(|p| Arm {
                    ports: *p,
                    motion: Motion::Still,
                    at: Position::Between,
                })
                .collect(),
            ports,
        }
    }

    fn index(&self, port: u16) -> usize {
        self.ports.iter().position(|p| *p == port).unwrap_or(0)
    }
}

impl Example for Arms {
    fn ports(&self) -> Vec<u16> {
        self.ports.clone()
    }
    fn reset(&mut self) {
        for a in &mut self.arms {
            a.motion = Motion::Still;
            a.at = Position::Between;
        }
    }
    fn input(&mut self, port: usize, _line: &str, out: &mut Out) {
        let port = self.ports[port];
        let now = Instant::now();
        let (mode, travel) = (self.mode, self.travel);
        let Some(i) = self
            .arms
            .iter()
            .position(|a| [a.ports.up, a.ports.down, a.ports.stop].contains(&port))
        else {
            return;
        };
        let stopped_port = self.index(self.arms[i].ports.stopped);
        let a = &mut self.arms[i];
        if port == a.ports.up && a.motion == Motion::Still && a.at != Position::Max {
            a.motion = Motion::Up(now + travel);
        } else if port == a.ports.down && a.motion == Motion::Still && a.at != Position::Min {
            a.motion = Motion::Down(now + travel);
        } else if port == a.ports.stop && a.motion != Motion::Still {
            a.motion = Motion::Still;
            a.at = Position::Between;
            if mode != Mode::Missing {
                out.line(stopped_port, &format!("stopped{}", a.ports.suffix));
            }
        }
    }
    fn wake_at(&self) -> Option<Instant> {
        self.arms
            .iter()
            .filter_map(|a| match a.motion {
                Motion::Up(t) | Motion::Down(t) => Some(t),
                Motion::Still => None,
            })
            .min()
    }
    fn wake(&mut self, out: &mut Out) {
        let now = Instant::now();
        let wrong = self.mode == Mode::Wrong;
        let mut writes = Vec::new();
        for a in &mut self.arms {
            match a.motion {
                Motion::Up(t) if t <= now => {
                    a.motion = Motion::Still;
                    a.at = Position::Max;
                    // wrong: says min on arriving at the top
                    let p = if wrong { a.ports.min } else { a.ports.max };
                    let word = if wrong { "min" } else { "max" };
                    writes.push((p, format!("{word}{}", a.ports.suffix)));
                }
                Motion::Down(t) if t <= now => {
                    a.motion = Motion::Still;
                    a.at = Position::Min;
                    writes.push((a.ports.min, format!("min{}", a.ports.suffix)));
                }
                _ => {}
            }
        }
        for (p, w) in writes {
            let i = self.index(p);
            out.line(i, &w);
        }
    }
}

/// Binds `127.0.0.1` on each port of `ports`, after `map` (a `.txs` port → port; 0 is an
/// ephemeral port).
pub fn bind(ports: &[u16], map: &[(u16, u16)]) -> std::io::Result<Vec<TcpListener>> {
    ports
        .iter()
        .map(|p| {
            let port = map
                .iter()
                .find(|(from, _)| from == p)
                .map(|(_, to)| *to)
                .unwrap_or(*p);
            TcpListener::bind(("127.0.0.1", port))
        })
        .collect()
}

enum Ev {
    Line(usize, String),
    Closed,
}

/// Serves sessions of `ex` on `listeners` (one per port of [`Example::ports`], in order):
/// forever, or one session when `once`.
pub fn serve(ex: &mut dyn Example, listeners: &[TcpListener], once: bool) -> std::io::Result<()> {
    loop {
        let mut streams = Vec::with_capacity(listeners.len());
        for l in listeners {
            let (s, _) = l.accept()?;
            s.set_nodelay(true)?;
            streams.push(s);
        }
        session(ex, &mut streams)?;
        for s in &streams {
            let _ = s.shutdown(Shutdown::Both);
        }
        if once {
            return Ok(());
        }
    }
}

fn session(ex: &mut dyn Example, streams: &mut [TcpStream]) -> std::io::Result<()> {
    ex.reset();
    ex.start(&mut Out { streams });
    let (tx, rx) = mpsc::channel();
    for (i, s) in streams.iter().enumerate() {
        let reader = BufReader::new(s.try_clone()?);
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in reader.lines() {
                let Ok(line) = line else { break };
                let line = line.strip_suffix('\r').unwrap_or(&line).to_string();
                if tx.send(Ev::Line(i, line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(Ev::Closed);
        });
    }
    drop(tx);
    loop {
        let wait = ex
            .wake_at()
            .map(|t| t.saturating_duration_since(Instant::now()))
            .unwrap_or(Duration::from_secs(3600));
        match rx.recv_timeout(wait) {
            Ok(Ev::Line(i, line)) => ex.input(i, &line, &mut Out { streams }),
            Ok(Ev::Closed) | Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
            Err(mpsc::RecvTimeoutError::Timeout) => ex.wake(&mut Out { streams }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_read_and_print() {
        for (text, shown) in [
            ("Plus(4,7)", "Plus(4,7)"),
            (" Plus ( 4 , - 7 ) ", "Plus(4,-7)"),
            ("Nil", "Nil"),
            ("Nil()", "Nil"),
            ("(42)", "42"),
            (r#"JobData(2,"AB1x\"y",3,4)"#, r#"JobData(2,"AB1x\"y",3,4)"#),
            ("Cons(1,Cons(2,Nil))", "Cons(1,Cons(2,Nil))"),
            ("True", "True"),
        ] {
            let t = Term::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(t.to_string(), shown, "{text}");
        }
        assert!(Term::parse("Plus(4 7)").is_err());
        assert!(Term::parse("\"open").is_err());
    }

    #[test]
    fn every_example_and_mode_exists() {
        for (name, modes) in EXAMPLES {
            for m in *modes {
                let ex = example(name, m, Duration::from_millis(10)).unwrap();
                assert!(!ex.ports().is_empty());
            }
        }
        assert!(example("nope", "correct", Duration::ZERO).is_err());
        assert!(example("echo", "nope", Duration::ZERO).is_err());
    }
}
