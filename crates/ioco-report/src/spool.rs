//! Runs written as they arrive (issue #35 item 3: memory that does not grow with the suite
//! when a report lists every run). A session hands every finished run to a [`Spool`], which
//! writes it as one compact JSON line to an anonymous temporary file (deleted by the system
//! when the spool is dropped, or the process ends) and remembers only where it is: 16 bytes
//! a run instead of the run. The session itself keeps the runs that did not pass and counts
//! the others ([`ioco_engine::Keep::Failures`]); the reports that list every run read them
//! back one at a time, in run order, through [`Results`].
//!
//! Workers finish runs out of order: the spool keeps `(run index, offset)` per run and sorts
//! that index (stably) before reading, so the reports list the runs in run order, as the
//! session's own collector does.

use ioco_engine::result::{Omitted, RunResult, RunVerdict, Summary};
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Seek, SeekFrom, Write};
use std::sync::Mutex;

/// Runs of a session in run order, one at a time, for the reports that list every run.
pub trait Runs {
    /// Hand every run, in run order, to `f`; stops at the first error (`f`'s or reading's).
    fn each(&self, f: &mut dyn FnMut(&RunResult) -> io::Result<()>) -> io::Result<()>;
}

impl Runs for &[RunResult] {
    fn each(&self, f: &mut dyn FnMut(&RunResult) -> io::Result<()>) -> io::Result<()> {
        self.iter().try_for_each(f)
    }
}

/// Finished runs on disk: one compact JSON line each, in an anonymous temporary file.
pub struct Spool {
    inner: Mutex<Inner>,
}

struct Inner {
    out: BufWriter<File>,
    /// Bytes written so far (the offset of the next line).
    end: u64,
    /// `(run index, offset of its line)`, in arrival order until read.
    index: Vec<(usize, u64)>,
    /// The first error writing a run: every later read reports it.
    error: Option<String>,
}

impl std::fmt::Debug for Spool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Spool({} runs)", self.len())
    }
}

impl Spool {
    /// An empty spool on a new anonymous temporary file.
    pub fn new() -> io::Result<Spool> {
        Ok(Spool {
            inner: Mutex::new(Inner {
                out: BufWriter::with_capacity(1 << 16, tempfile::tempfile()?),
                end: 0,
                index: Vec::new(),
                error: None,
            }),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Write one finished run (from any worker thread). A run that cannot be written (disk
    /// full) is remembered as an error that every later read reports.
    pub fn add(&self, r: &RunResult) {
        self.push(r.run, Spool::line(r));
    }

    /// The line [`Spool::add`] writes for `r` (to make before taking a lock).
    pub fn line(r: &RunResult) -> Vec<u8> {
        let mut line = serde_json::to_vec(r).expect("a RunResult always serialises");
        line.push(b'\n');
        line
    }

    /// Write the line of run `run` made by [`Spool::line`].
    pub fn push(&self, run: usize, line: Vec<u8>) {
        let mut g = self.lock();
        if g.error.is_some() {
            return;
        }
        match g.out.write_all(&line) {
            Ok(()) => {
                let at = g.end;
                g.index.push((run, at));
                g.end += line.len() as u64;
            }
            Err(e) => g.error = Some(format!("cannot write the runs' temporary file: {e}")),
        }
    }

    /// Runs written.
    pub fn len(&self) -> usize {
        self.lock().index.len()
    }

    /// No run written.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Read the runs back in run order (ties in the order they came), one at a time; the run
    /// at position `k` of that order goes to `f(k, run)`.
    fn read(&self, f: &mut dyn FnMut(usize, RunResult) -> io::Result<()>) -> io::Result<()> {
        let mut g = self.lock();
        if let Some(e) = &g.error {
            return Err(io::Error::other(e.clone()));
        }
        g.out.flush()?;
        g.index.sort_by_key(|&(run, _)| run);
        let Inner { out, index, .. } = &mut *g;
        let file = out.get_mut();
        let mut reader = BufReader::with_capacity(1 << 16, &*file);
        reader.seek(SeekFrom::Start(0))?;
        let mut pos = 0u64;
        let mut line = Vec::new();
        let result = (|| {
            for (k, &(_, at)) in index.iter().enumerate() {
                if at != pos {
                    // within the buffer when workers finished runs slightly out of order
                    reader.seek_relative(at as i64 - pos as i64)?;
                }
                line.clear();
                pos = at + reader.read_until(b'\n', &mut line)? as u64;
                let r: RunResult = serde_json::from_slice(&line).map_err(|e| {
                    io::Error::other(format!("the runs' temporary file is damaged: {e}"))
                })?;
                f(k, r)?;
            }
            Ok(())
        })();
        drop(reader);
        // further runs go after the last line
        file.seek(SeekFrom::End(0))?;
        result
    }
}

impl Runs for Spool {
    fn each(&self, f: &mut dyn FnMut(&RunResult) -> io::Result<()>) -> io::Result<()> {
        self.read(&mut |_, r| f(&r))
    }
}

/// What a report is rendered from: a session's [`Summary`] — its counts, its parameters and
/// the runs it kept, every run that did not pass among them — and, when the session kept only
/// those, the [`Spool`] that holds every run.
#[derive(Clone, Copy)]
pub struct Results<'a> {
    /// The session.
    pub summary: &'a Summary,
    spool: Option<&'a Spool>,
}

impl<'a> Results<'a> {
    /// The runs the summary holds.
    pub fn new(summary: &'a Summary) -> Results<'a> {
        Results {
            summary,
            spool: None,
        }
    }

    /// Every run of `summary` from `spool`, when the summary omits runs. A spool that does not
    /// hold exactly the session's runs (a session whose runs did not all pass through it) is
    /// not used: the reports then list the summary's own runs, and its counts say what was
    /// omitted.
    pub fn spooled(summary: &'a Summary, spool: &'a Spool) -> Results<'a> {
        // a summary that omits nothing holds every run itself
        let every = !summary.omitted.is_empty() && spool.len() == summary.run_count();
        Results {
            summary,
            spool: every.then_some(spool),
        }
    }

    /// Whether the spool is used.
    pub fn is_spooled(&self) -> bool {
        self.spool.is_some()
    }

    /// Whether every run of the session is listed (none counted without its run).
    pub fn every_run(&self) -> bool {
        self.spool.is_some() || self.summary.omitted.is_empty()
    }

    /// What the listed runs leave out (nothing when spooled).
    pub fn omitted(&self) -> Omitted {
        match self.spool {
            Some(_) => Omitted::default(),
            None => self.summary.omitted,
        }
    }

    /// The runs listed, in run order, with their position.
    pub fn each_indexed(
        &self,
        f: &mut dyn FnMut(usize, &RunResult) -> io::Result<()>,
    ) -> io::Result<()> {
        match self.spool {
            Some(s) => s.read(&mut |k, r| f(k, &r)),
            None => self
                .summary
                .runs
                .iter()
                .enumerate()
                .try_for_each(|(k, r)| f(k, r)),
        }
    }

    /// The position of the run a report follows: the first Fail, else the first non-Pass,
    /// else the first run ([`crate::walk::focus_run`] over the listed runs).
    pub fn focus(&self) -> Option<usize> {
        let Some(s) = self.spool else {
            return crate::walk::focus_run(&self.summary.runs);
        };
        // the runs that did not pass are all in the summary; their position in the spool is
        // their rank among the spooled run indices
        let kept = crate::walk::focus_run(&self.summary.runs)
            .and_then(|i| self.summary.runs.get(i))
            .filter(|r| r.verdict != RunVerdict::Pass)
            .map(|r| r.run);
        let g = s.lock();
        match kept {
            Some(run) => {
                let below = g.index.iter().filter(|&&(k, _)| k < run).count();
                Some(below)
            }
            None => (!g.index.is_empty()).then_some(0),
        }
    }

    /// The run at position `i` of the listing.
    pub fn run_at(&self, i: usize) -> io::Result<Option<RunResult>> {
        match self.spool {
            None => Ok(self.summary.runs.get(i).cloned()),
            Some(s) => {
                let mut found = None;
                let mut stop = |k: usize, r: RunResult| {
                    if k == i {
                        found = Some(r);
                        return Err(io::Error::other(FOUND));
                    }
                    Ok(())
                };
                match s.read(&mut stop) {
                    Err(e) if e.to_string() == FOUND => Ok(found),
                    other => other.map(|()| found),
                }
            }
        }
    }

    /// The whole summary, every run in it: what a report of at most `max` runs needs (`None`
    /// when there are more, or when runs are omitted without a spool).
    pub fn materialise(&self, max: usize) -> io::Result<Option<Summary>> {
        if self.summary.run_count() > max || !self.every_run() {
            return Ok(None);
        }
        let mut runs = Vec::new();
        self.each_indexed(&mut |_, r| {
            runs.push(r.clone());
            Ok(())
        })?;
        Ok(Some(with_runs(self.summary, runs, self.omitted())))
    }
}

const FOUND: &str = "ioco-report: run found";

impl Runs for Results<'_> {
    fn each(&self, f: &mut dyn FnMut(&RunResult) -> io::Result<()>) -> io::Result<()> {
        self.each_indexed(&mut |_, r| f(r))
    }
}

/// `summary` with `runs` and `omitted` in place of its own (its other fields cloned).
pub(crate) fn with_runs(summary: &Summary, runs: Vec<RunResult>, omitted: Omitted) -> Summary {
    Summary {
        mode: summary.mode.clone(),
        seed: summary.seed,
        verdict: summary.verdict,
        runs,
        coverage: summary.coverage.clone(),
        duration_ms: summary.duration_ms,
        parameters: summary.parameters.clone(),
        replay_options: summary.replay_options.clone(),
        omitted,
    }
}
