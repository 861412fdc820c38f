//! Example systems under test **with data**, over the wire format of `ioco_sut::data`:
//! `gate arg1 arg2` per line (`water 120` in, `coffee 100` out), or with `--json-lines`
//! `{"label":"water","args":[120]}`. Integers and booleans only (what the examples need).
//!
//! A [`DataMachine`] reacts to gate values; [`DataWire`] turns it into a [`Machine`] of the
//! label-level driver [`crate::wire`], so acknowledgements (`#quiet`), the reset line, TCP
//! serving, crashes and hangs work exactly as for the label-level examples. A line that does
//! not parse as an input gate with the right number of values is ignored (input-enabled).

use crate::wire::{Effect, Machine};
use std::fmt;

/// A value on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Val {
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

impl Val {
    /// The integer, if it is one.
    pub fn int(&self) -> Option<i64> {
        match self {
            Val::Int(i) => Some(*i),
            Val::Bool(_) => None,
        }
    }

    fn parse(s: &str) -> Option<Val> {
        match s {
            "true" => Some(Val::Bool(true)),
            "false" => Some(Val::Bool(false)),
            _ => s.parse().ok().map(Val::Int),
        }
    }

    fn json(&self) -> serde_json::Value {
        match self {
            Val::Int(i) => (*i).into(),
            Val::Bool(b) => (*b).into(),
        }
    }

    fn from_json(v: &serde_json::Value) -> Option<Val> {
        match v {
            serde_json::Value::Bool(b) => Some(Val::Bool(*b)),
            serde_json::Value::Number(n) => n.as_i64().map(Val::Int),
            serde_json::Value::String(s) => Val::parse(s),
            _ => None,
        }
    }
}

impl fmt::Display for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Val::Int(i) => write!(f, "{i}"),
            Val::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// What a machine with data does in reaction to an input (or at start-up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataEffect {
    /// An output gate with values.
    Out(&'static str, Vec<Val>),
    /// A line that is no output of the interface.
    Garbage(&'static str),
    /// Panic (exit status 101).
    Crash(&'static str),
    /// Stop responding, stay alive.
    Hang,
}

/// A system under test with data.
pub trait DataMachine {
    /// Input gates and the number of values each takes.
    fn gates(&self) -> &'static [(&'static str, usize)];
    /// Effects at start-up.
    fn start(&mut self) -> Vec<DataEffect> {
        Vec::new()
    }
    /// React to an input gate value (the gate is one of [`DataMachine::gates`], with its arity).
    fn react(&mut self, gate: &str, args: &[Val]) -> Vec<DataEffect>;
}

/// A [`DataMachine`] on the line wire ([`Machine`]), plain or JSON lines.
#[derive(Clone, Debug)]
pub struct DataWire<M> {
    /// The machine.
    pub machine: M,
    /// Speak JSON lines.
    pub json: bool,
}

impl<M: DataMachine> DataWire<M> {
    /// Wraps `machine`.
    pub fn new(machine: M, json: bool) -> DataWire<M> {
        DataWire { machine, json }
    }

    fn parse(&self, line: &str) -> Option<(&'static str, Vec<Val>)> {
        let (gate, args): (String, Vec<Val>) = if self.json {
            let v: serde_json::Value = serde_json::from_str(line).ok()?;
            let gate = v.get("label")?.as_str()?.to_string();
            let args = match v.get("args") {
                None => Vec::new(),
                Some(a) => a
                    .as_array()?
                    .iter()
                    .map(Val::from_json)
                    .collect::<Option<_>>()?,
            };
            (gate, args)
        } else {
            let mut w = line.split_whitespace();
            let gate = w.next()?.to_string();
            (gate, w.map(Val::parse).collect::<Option<_>>()?)
        };
        let &(name, n) = self.machine.gates().iter().find(|g| g.0 == gate)?;
        (n == args.len()).then_some((name, args))
    }

    fn effects(&self, es: Vec<DataEffect>) -> Vec<Effect> {
        es.into_iter()
            .map(|e| match e {
                DataEffect::Out(g, args) => Effect::Line(if self.json {
                    let a: Vec<serde_json::Value> = args.iter().map(Val::json).collect();
                    serde_json::json!({"label": g, "args": a}).to_string()
                } else {
                    let mut s = g.to_string();
                    for a in &args {
                        s.push(' ');
                        s.push_str(&a.to_string());
                    }
                    s
                }),
                DataEffect::Garbage(l) => Effect::Garbage(l),
                DataEffect::Crash(m) => Effect::Crash(m),
                DataEffect::Hang => Effect::Hang,
            })
            .collect()
    }
}

/// The command-line options of a data example with mutants (`brp-sut`, `brp-sender-sut`),
/// after its own `--mutant` (flattened into each program's clap arguments).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct MutantArgs {
    /// The options every example program shares.
    #[command(flatten)]
    pub wire: crate::wire::WireArgs,
    /// Speak JSON lines.
    #[arg(long)]
    pub json_lines: bool,
    /// List the mutants and exit.
    #[arg(long)]
    pub list: bool,
}

impl MutantArgs {
    /// The `main` of a data example with mutants: with `--list` print `mutants` (`0: …` a
    /// line), else serve `machine()` on the wire ([`crate::wire::main_with`]).
    pub fn main_with<M>(&self, mutants: &[&str], machine: impl FnOnce() -> M)
    where
        M: DataMachine + Clone + Send + 'static,
    {
        if self.list {
            for (i, m) in mutants.iter().enumerate() {
                println!("{i}: {m}");
            }
            return;
        }
        crate::wire::main_with(DataWire::new(machine(), self.json_lines), &self.wire);
    }
}

impl<M: DataMachine> Machine for DataWire<M> {
    fn inputs(&self) -> &'static [&'static str] {
        &[]
    }

    fn accepts(&self, line: &str) -> bool {
        self.parse(line).is_some()
    }

    fn start(&mut self) -> Vec<Effect> {
        let es = self.machine.start();
        self.effects(es)
    }

    fn react(&mut self, input: &str) -> Vec<Effect> {
        match self.parse(input) {
            Some((g, args)) => {
                let es = self.machine.react(g, &args);
                self.effects(es)
            }
            None => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coffee_sts::{CoffeeSts, CoffeeStsMode};
    use crate::wire::serve;

    fn talk(json: bool, input: &str) -> String {
        let mut out = Vec::new();
        let mut m = DataWire::new(CoffeeSts::new(CoffeeStsMode::Correct), json);
        serve(&mut m, true, input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn lines_and_json_lines() {
        assert_eq!(
            talk(false, "water 100\nwater x\nwater 60\npad\nbutton\n"),
            "#quiet\n#quiet\n#quiet\n#quiet\n#quiet\ncoffee 160\n#quiet\n"
        );
        assert_eq!(
            talk(
                true,
                "{\"label\":\"water\",\"args\":[160]}\n{\"label\":\"pad\"}\n{\"label\":\"button\",\"args\":[]}\n"
            ),
            "#quiet\n#quiet\n#quiet\n{\"args\":[160],\"label\":\"coffee\"}\n#quiet\n"
        );
    }
}
