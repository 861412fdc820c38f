//! A child process as a [`DataSut`] (a minimal driver, so that `ioco-exec` need not depend on
//! this crate).
//!
//! Wire format, one line per action, values written as in labels ([`Value::display`]: `42`,
//! `-1`, `true`, `Red`, `Plus(1,2)`, no spaces inside a value):
//! - tester → system: an input `gate arg1 arg2 …` on the child's standard input;
//! - system → tester: an output `gate arg1 arg2 …` on its standard output;
//! - quiescence: no output line within [`ProcessSut::timeout`];
//! - reset: the process group is killed and the program started again.
//!
//! An output line that does not parse (unknown gate, wrong number or sort of values) is
//! reported as [`Observed::Malformed`] (a Fail: it is not an output gate value of the spec). A
//! process that exits or closes its output is an error (Inconclusive), with its exit status.
//! The child runs in its own process group, killed with SIGKILL on reset and drop, and reaped.

use crate::online::{DataSut, Observed, Sent};
use ioco_lang::ir::{Defs, Direction, Gate, Type, Value};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::Arc;
use std::time::Duration;

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Drop for Running {
    fn drop(&mut self) {
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: a plain syscall on the process group we created; errors (gone) are ignored.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A child process speaking the line wire format.
pub struct ProcessSut {
    argv: Vec<String>,
    defs: Arc<Defs>,
    gates: Vec<Gate>,
    running: Option<Running>,
    /// How long to wait for an output before concluding quiescence.
    pub timeout: Duration,
}

impl ProcessSut {
    /// A driver for `argv` (program and arguments) speaking the gates of a spec.
    pub fn new(argv: Vec<String>, defs: Arc<Defs>, gates: Vec<Gate>) -> ProcessSut {
        ProcessSut {
            argv,
            defs,
            gates,
            running: None,
            timeout: Duration::from_millis(300),
        }
    }

    fn start(&mut self) -> Result<(), String> {
        self.running = None;
        let mut child = Command::new(&self.argv[0])
            .args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .process_group(0)
            .spawn()
            .map_err(|e| {
                format!(
                    "cannot start `{}`: {} (hint: give a path to an executable)",
                    self.argv[0], e
                )
            })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = sync_channel(1024);
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        self.running = Some(Running {
            child,
            stdin,
            lines: rx,
        });
        Ok(())
    }

    fn gone(&mut self) -> String {
        let status = match self.running.as_mut().map(|r| r.child.try_wait()) {
            Some(Ok(Some(st))) => format!("the system ended ({})", st),
            _ => "the system closed its standard output".to_string(),
        };
        self.running = None;
        status
    }

    /// Parses an output line into a gate value.
    pub fn parse_line(&self, line: &str) -> Observed {
        let mut words = line.split_whitespace();
        let Some(gate) = words.next() else {
            return Observed::Malformed(format!("empty output line {:?}", line));
        };
        let Some(decl) = self
            .gates
            .iter()
            .find(|g| g.name == gate && g.dir == Direction::Output)
        else {
            return Observed::Malformed(format!(
                "`{}` is not an output gate (line {:?})",
                gate, line
            ));
        };
        let args: Vec<&str> = words.collect();
        if args.len() != decl.params.len() {
            return Observed::Malformed(format!(
                "`{}` takes {} value(s), the line {:?} has {}",
                gate,
                decl.params.len(),
                line,
                args.len()
            ));
        }
        let mut vals = Vec::new();
        for ((_, ty), a) in decl.params.iter().zip(args) {
            match parse_value(&self.defs, *ty, a) {
                Ok(v) => vals.push(v),
                Err(e) => return Observed::Malformed(format!("line {:?}: {}", line, e)),
            }
        }
        Observed::Output(gate.to_string(), vals)
    }
}

impl DataSut for ProcessSut {
    fn reset(&mut self) -> Result<(), String> {
        self.start()
    }

    fn send(&mut self, gate: &str, args: &[Value]) -> Result<Sent, String> {
        if self.running.is_none() {
            self.start()?;
        }
        let r = self.running.as_mut().expect("running");
        match r.lines.try_recv() {
            Ok(line) => {
                return Ok(match self.parse_line(&line) {
                    Observed::Output(g, v) => Sent::Raced(g, v),
                    Observed::Malformed(m) => Sent::RacedMalformed(m),
                    Observed::Quiescent => unreachable!("a line is not quiescence"),
                })
            }
            Err(TryRecvError::Disconnected) => return Err(self.gone()),
            Err(TryRecvError::Empty) => {}
        }
        let mut line = gate.to_string();
        for a in args {
            line.push(' ');
            line.push_str(&a.display(&self.defs).to_string());
        }
        line.push('\n');
        if let Err(e) = r
            .stdin
            .write_all(line.as_bytes())
            .and_then(|_| r.stdin.flush())
        {
            let g = self.gone();
            return Err(format!("cannot write the input: {} ({})", e, g));
        }
        Ok(Sent::Sent)
    }

    fn observe(&mut self) -> Result<Observed, String> {
        if self.running.is_none() {
            self.start()?;
        }
        let r = self.running.as_mut().expect("running");
        match r.lines.recv_timeout(self.timeout) {
            Ok(line) => Ok(self.parse_line(&line)),
            Err(RecvTimeoutError::Timeout) => Ok(Observed::Quiescent),
            Err(RecvTimeoutError::Disconnected) => Err(self.gone()),
        }
    }
}

/// Parses a value of a type as written by [`Value::display`].
pub fn parse_value(defs: &Defs, ty: Type, s: &str) -> Result<Value, String> {
    let (v, rest) = parse_at(defs, ty, s.trim())?;
    if !rest.is_empty() {
        return Err(format!("unexpected {:?} after the value", rest));
    }
    if !crate::term::value_in_type(defs, ty, &v) {
        return Err(format!("{} is not a value of {}", s, defs.type_name(ty)));
    }
    Ok(v)
}

fn parse_at<'a>(defs: &Defs, ty: Type, s: &'a str) -> Result<(Value, &'a str), String> {
    match ty {
        Type::Bool => {
            for (w, b) in [("true", true), ("false", false)] {
                if let Some(rest) = s.strip_prefix(w) {
                    return Ok((Value::Bool(b), rest));
                }
            }
            Err(format!("expected true or false, found {:?}", s))
        }
        Type::Int | Type::Range(..) => {
            let end = s
                .char_indices()
                .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && c == '-')))
                .map(|(i, _)| i)
                .unwrap_or(s.len());
            let n: i64 = s[..end]
                .parse()
                .map_err(|_| format!("expected an integer, found {:?}", s))?;
            Ok((Value::Int(n), &s[end..]))
        }
        Type::Adt(a) => {
            let def = &defs.types[a as usize];
            let end = s
                .char_indices()
                .find(|&(_, c)| !(c.is_alphanumeric() || c == '_'))
                .map(|(i, _)| i)
                .unwrap_or(s.len());
            let name = &s[..end];
            let Some(ci) = def.ctors.iter().position(|c| c.name == name) else {
                return Err(format!("`{}` is not a constructor of {}", name, def.name));
            };
            let ctor = &def.ctors[ci];
            let mut rest = &s[end..];
            let mut fields = Vec::new();
            if !ctor.fields.is_empty() {
                rest = rest
                    .strip_prefix('(')
                    .ok_or_else(|| format!("expected `(` after {}", name))?;
                for (k, (_, fty)) in ctor.fields.iter().enumerate() {
                    if k > 0 {
                        rest = rest
                            .strip_prefix(',')
                            .ok_or_else(|| format!("expected `,` in {}", name))?;
                    }
                    let (v, r) = parse_at(defs, *fty, rest)?;
                    fields.push(v);
                    rest = r;
                }
                rest = rest
                    .strip_prefix(')')
                    .ok_or_else(|| format!("expected `)` after {}", name))?;
            }
            Ok((Value::Adt(a, ci as u32, fields.into()), rest))
        }
    }
}
