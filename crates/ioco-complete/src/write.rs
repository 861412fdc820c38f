//! Suites written as they are generated (issue #35 item 3): the n-complete suite `T(S, n)`
//! (thesis Def. 2.37) and the `adg` suite go to their JSON file test by test, so that memory
//! does not grow with the suite.
//!
//! The file is the one [`Suite`]'s serialisation would give (`ioco-suite/1`, read back by
//! `ioco run` as any suite), in the layout of [`Suite::write_streaming`]: the header, one test
//! per line, then the nested suites. The generators make their tests in an order the file
//! cannot follow: `T(S, n)` opens a nested merge suite in the middle of its outer tests
//! (depth first over the access sequences), and the `adg` suite knows its header's metrics
//! only after its last test. What the file needs later is kept in an anonymous temporary
//! file, not in memory: the nested suites (each one held whole while it is made, as
//! [`crate::n_complete`] holds the whole suite) and the `adg` suite's tests. The output is
//! opened only once the suite is known to be made (a refused `n` leaves no file behind).

use crate::suite::{self, Event};
use crate::{adg, AdgOptions, CompleteError, NCompleteOptions, Sa};
use ioco_gen::Suite;
use ioco_model::Lts;
use std::io::{self, Seek, Write};

/// A suite written: its header (without tests) and how many tests it has, nested ones
/// included.
#[derive(Debug)]
pub struct Written {
    /// Method and parameters, as written.
    pub header: Suite,
    /// Test cases written, those of nested suites included.
    pub tests: u64,
}

/// Why a suite was not written.
#[derive(Debug)]
pub enum WriteError {
    /// The suite was refused (too large, not a suspension automaton, a budget).
    Complete(CompleteError),
    /// Writing failed (the output, or the temporary file of what comes later).
    Io(io::Error),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Complete(e) => write!(f, "{e}"),
            WriteError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for WriteError {}

impl From<CompleteError> for WriteError {
    fn from(e: CompleteError) -> Self {
        WriteError::Complete(e)
    }
}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> Self {
        WriteError::Io(e)
    }
}

/// The output, opened when the suite is known to be made.
pub type Open<'a> = &'a mut dyn FnMut() -> io::Result<Box<dyn Write>>;

/// Write `T(S, n)` as it is generated; `extra` parameters join the header's (e.g. the model's
/// path). Refused as [`crate::n_complete`] refuses, before the output is opened.
pub fn n_complete_json(
    sa: &Lts,
    n: usize,
    opts: &NCompleteOptions,
    extra: &serde_json::Map<String, serde_json::Value>,
    open: Open<'_>,
) -> Result<Written, WriteError> {
    let (mut g, est) = suite::planned(Sa::from_lts(sa)?.within_budget()?, n, opts)?;
    let mut header = g.header(&est);
    for (k, v) in extra {
        header.parameters.insert(k.clone(), v.clone());
    }
    let mut out = open()?;
    header.write_head(&mut out)?;
    // the nested suites, whole, one after the other (JSON objects separated by commas)
    let mut later = io::BufWriter::new(tempfile()?);
    let mut nested_suites = 0u64;
    let mut own = 0u64;
    let mut nested_tests = 0u64;
    let mut open_suites: Vec<Suite> = Vec::new();
    let mut failed: Option<io::Error> = None;
    // the outer Begin and End are the stream's first and last events
    let mut depth = 0usize;
    g.stream(&est, &mut |e| {
        if failed.is_some() {
            return;
        }
        let r = match e {
            Event::Begin(s) => {
                depth += 1;
                if depth > 1 {
                    open_suites.push(s);
                }
                Ok(())
            }
            Event::Test(t) if depth == 1 => {
                let sep: &[u8] = if own == 0 { b"\n" } else { b",\n" };
                own += 1;
                out.write_all(sep)
                    .and_then(|()| serde_json::to_writer(&mut out, &t).map_err(io::Error::from))
            }
            Event::Test(t) => {
                nested_tests += 1;
                if let Some(s) = open_suites.last_mut() {
                    s.tests.push(t);
                }
                Ok(())
            }
            Event::End => {
                depth -= 1;
                match open_suites.pop() {
                    Some(done) => match open_suites.last_mut() {
                        Some(parent) => {
                            parent.suites.push(done);
                            Ok(())
                        }
                        None => {
                            let sep: &[u8] = if nested_suites == 0 { b"" } else { b"," };
                            nested_suites += 1;
                            later.write_all(sep).and_then(|()| {
                                serde_json::to_writer(&mut later, &done).map_err(io::Error::from)
                            })
                        }
                    },
                    None => Ok(()),
                }
            }
        };
        if let Err(e) = r {
            failed = Some(e);
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    out.write_all(b"\n]")?;
    if nested_suites > 0 {
        out.write_all(b",\"suites\":[")?;
        let mut later = later.into_inner().map_err(|e| e.into_error())?;
        later.rewind()?;
        io::copy(&mut later, &mut out)?;
        out.write_all(b"]")?;
    }
    out.write_all(b"}\n")?;
    out.flush()?;
    Ok(Written {
        header,
        tests: own + nested_tests,
    })
}

/// Write the `adg` suite as it is generated; `extra` parameters join the header's. Its tests
/// wait in a temporary file until the header (with the ADG's metrics) is known.
pub fn adg_json(
    sa: &Lts,
    opts: &AdgOptions,
    extra: &serde_json::Map<String, serde_json::Value>,
    open: Open<'_>,
) -> Result<Written, WriteError> {
    let mut later = io::BufWriter::new(tempfile()?);
    let mut tests = 0u64;
    let mut failed: Option<io::Error> = None;
    let mut header =
        adg::adg_suite_stream_sa(Sa::from_lts(sa)?.within_budget()?, opts, &mut |t| {
            if failed.is_some() {
                return;
            }
            let sep: &[u8] = if tests == 0 { b"\n" } else { b",\n" };
            tests += 1;
            if let Err(e) = later
                .write_all(sep)
                .and_then(|()| serde_json::to_writer(&mut later, &t).map_err(io::Error::from))
            {
                failed = Some(e);
            }
        })?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    for (k, v) in extra {
        header.parameters.insert(k.clone(), v.clone());
    }
    let mut later = later.into_inner().map_err(|e| e.into_error())?;
    later.rewind()?;
    let mut out = open()?;
    header.write_head(&mut out)?;
    io::copy(&mut later, &mut out)?;
    header.write_tail(&mut out)?;
    Ok(Written { header, tests })
}

/// An anonymous temporary file (gone when closed).
fn tempfile() -> io::Result<std::fs::File> {
    tempfile::tempfile()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ioco_model::{Alphabet, LabelKind::*, LtsBuilder};

    /// Thesis Fig. 3.1 (fixture F1).
    fn f1() -> Lts {
        let mut b = LtsBuilder::new(Alphabet::new());
        b.add_states(4);
        b.add_initial(0);
        for (s, l, k, t) in [
            (0, "a", Input, 2),
            (0, "x", Output, 0),
            (0, "y", Output, 0),
            (1, "a", Input, 3),
            (1, "x", Output, 3),
            (2, "x", Output, 3),
            (3, "y", Output, 1),
        ] {
            b.add(s, l, k, t).unwrap();
        }
        b.build().unwrap()
    }

    fn written(w: impl FnOnce(Open<'_>) -> Result<Written, WriteError>) -> (Suite, u64) {
        let buf = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0.borrow_mut().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let b2 = buf.clone();
        let mut open = move || -> io::Result<Box<dyn Write>> { Ok(Box::new(Shared(b2.clone()))) };
        let n = w(&mut open).unwrap().tests;
        let text = String::from_utf8(buf.borrow().clone()).unwrap();
        (serde_json::from_str(&text).unwrap(), n)
    }

    #[test]
    fn a_written_n_complete_suite_is_the_generated_one() {
        let sa = f1();
        for n in 1..=3 {
            for flatten_nested in [false, true] {
                let opts = NCompleteOptions {
                    flatten_nested,
                    ..Default::default()
                };
                let mut extra = serde_json::Map::new();
                extra.insert("model".into(), "f1.aut".into());
                let (read, count) = written(|o| n_complete_json(&sa, n, &opts, &extra, o));
                let mut made = crate::n_complete(&sa, n, &opts).unwrap();
                made.parameters.insert("model".into(), "f1.aut".into());
                assert_eq!(read, made, "n = {n}, flatten {flatten_nested}");
                // F1 has merge suites: the nested ones go through the temporary file
                assert_eq!(made.suites.is_empty(), flatten_nested);
                assert_eq!(count as usize, made.num_tests());
            }
        }
    }

    #[test]
    fn a_written_adg_suite_is_the_generated_one() {
        let sa = f1();
        let opts = AdgOptions::default();
        let (read, count) = written(|o| adg_json(&sa, &opts, &Default::default(), o));
        let made = crate::adg_suite(&sa, &opts).unwrap();
        assert_eq!(read, made);
        assert_eq!(count as usize, made.num_tests());
    }

    #[test]
    fn a_refused_suite_opens_no_output() {
        let sa = f1();
        let opts = NCompleteOptions {
            max_tests: 1,
            ..Default::default()
        };
        let mut opened = false;
        let mut open = || -> io::Result<Box<dyn Write>> {
            opened = true;
            Ok(Box::new(io::sink()))
        };
        let r = n_complete_json(&sa, 3, &opts, &Default::default(), &mut open);
        assert!(matches!(
            r,
            Err(WriteError::Complete(CompleteError::TooLarge { .. }))
        ));
        assert!(!opened);
    }
}
