//! Results files read back in bounded memory (issue #35, the reading side of [`crate::spool`]):
//! `ioco report big.json --junit x.xml` and `ioco replay` of a session of a million runs must
//! not hold the file, nor every run of it, in memory.
//!
//! A results file is the serde form of a [`Summary`] ([`crate::to_json`]). It is read with
//! serde_json's streaming deserializer from a large [`BufReader`], and the summary by a
//! visitor of its own ([`summary_from_reader`]) that deserialises each element of `runs`
//! alone and hands it to the caller, which keeps it or not; every other field is read as the
//! derived `Deserialize` of [`Summary`] reads it (the same fields, defaults, errors for a
//! missing or duplicate field, unknown fields ignored). Since serde_json reads a reader a
//! byte at a time, [`load`] first tries [`split_runs`], which cuts the bytes of the file at
//! the elements of `runs` and parses each piece from a slice, and falls back to the visitor
//! (which says where a file is wrong) when it cannot. [`load`] writes every run to a
//! [`Spool`] and keeps in the summary only the runs that did not pass, counting the others in
//! [`Summary::omitted`] as a session that keeps [`ioco_engine::Keep::Failures`] does: the
//! summary and spool read back are what the session had when it wrote the file, so every
//! report written from them ([`Loaded::results`]) is the report of the whole file.
//!
//! A file the spool cannot stand for — one that already omits runs, lists them out of run
//! order or twice, or has a passing run with a shrink record — is read whole, as before.

use crate::merge;
use crate::spool::{Results, Spool};
use ioco_engine::result::{CoverageSummary, Omitted, RunResult, RunVerdict, Summary};
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::fs::File;
use std::io::{self, BufReader};
use std::path::{Path, PathBuf};

/// The read buffer: serde_json reads a reader byte by byte, so through a large buffer.
const BUFFER: usize = 1 << 20;

/// Open a results file for [`summary_from_reader`], buffered.
pub fn open(path: &Path) -> io::Result<BufReader<File>> {
    Ok(BufReader::with_capacity(BUFFER, File::open(path)?))
}

/// Read a [`Summary`] from `reader` as [`crate::from_json`] reads it from a string, but hand
/// each run, in the order of the file, to `each`: the summary's `runs` are the runs `each`
/// gives back. The whole input must be the summary (white space after it only).
pub fn summary_from_reader<R: io::Read>(
    reader: R,
    each: &mut dyn FnMut(RunResult) -> Option<RunResult>,
) -> Result<Summary, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_reader(reader);
    let summary = SummarySeed { each }.deserialize(&mut de)?;
    de.end()?;
    Ok(summary)
}

/// The derived `Deserialize` of [`Summary`] with the runs handed to `each`.
struct SummarySeed<'a> {
    each: &'a mut dyn FnMut(RunResult) -> Option<RunResult>,
}

const FIELDS: &[&str] = &[
    "mode",
    "seed",
    "verdict",
    "runs",
    "coverage",
    "duration_ms",
    "parameters",
    "replay_options",
    "omitted",
];

/// A field of [`Summary`] (as the derive names them), or another one (ignored).
enum Field {
    Known(usize),
    Other,
}

impl<'de> de::Deserialize<'de> for Field {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Field, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Field;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("field identifier")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Field, E> {
                Ok(match v {
                    k if (k as usize) < FIELDS.len() => Field::Known(k as usize),
                    _ => Field::Other,
                })
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Field, E> {
                Ok(FIELDS
                    .iter()
                    .position(|f| *f == v)
                    .map_or(Field::Other, Field::Known))
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Field, E> {
                Ok(FIELDS
                    .iter()
                    .position(|f| f.as_bytes() == v)
                    .map_or(Field::Other, Field::Known))
            }
        }
        d.deserialize_identifier(V)
    }
}

impl<'de> DeserializeSeed<'de> for SummarySeed<'_> {
    type Value = Summary;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Summary, D::Error> {
        d.deserialize_struct("Summary", FIELDS, self)
    }
}

/// The fields read so far.
#[derive(Default)]
struct Parts {
    mode: Option<String>,
    seed: Option<u64>,
    verdict: Option<RunVerdict>,
    runs: Option<Vec<RunResult>>,
    coverage: Option<CoverageSummary>,
    duration_ms: Option<f64>,
    parameters: Option<serde_json::Map<String, serde_json::Value>>,
    replay_options: Option<Vec<String>>,
    omitted: Option<Omitted>,
}

impl<'de> Visitor<'de> for SummarySeed<'_> {
    type Value = Summary;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("struct Summary")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Summary, A::Error> {
        let n = |i| de::Error::invalid_length(i, &"struct Summary with 9 elements");
        let mode = seq.next_element()?.ok_or_else(|| n(0))?;
        let seed = seq.next_element()?.ok_or_else(|| n(1))?;
        let verdict = seq.next_element()?.ok_or_else(|| n(2))?;
        let runs = seq
            .next_element_seed(RunsSeed { each: self.each })?
            .ok_or_else(|| n(3))?;
        let coverage = seq.next_element()?.ok_or_else(|| n(4))?;
        let duration_ms = seq.next_element()?.ok_or_else(|| n(5))?;
        Ok(Summary {
            mode,
            seed,
            verdict,
            runs,
            coverage,
            duration_ms,
            parameters: seq.next_element()?.unwrap_or_default(),
            replay_options: seq.next_element()?.unwrap_or_default(),
            omitted: seq.next_element()?.unwrap_or_default(),
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Summary, A::Error> {
        let mut p = Parts::default();
        // a duplicate field is an error before its value is read, as the derive has it
        macro_rules! field {
            ($slot:ident, $i:expr, $value:expr) => {{
                if p.$slot.is_some() {
                    return Err(de::Error::duplicate_field(FIELDS[$i]));
                }
                p.$slot = Some($value);
            }};
        }
        while let Some(key) = map.next_key::<Field>()? {
            match key {
                Field::Known(0) => field!(mode, 0, map.next_value()?),
                Field::Known(1) => field!(seed, 1, map.next_value()?),
                Field::Known(2) => field!(verdict, 2, map.next_value()?),
                Field::Known(3) => field!(
                    runs,
                    3,
                    map.next_value_seed(RunsSeed {
                        each: &mut *self.each,
                    })?
                ),
                Field::Known(4) => field!(coverage, 4, map.next_value()?),
                Field::Known(5) => field!(duration_ms, 5, map.next_value()?),
                Field::Known(6) => field!(parameters, 6, map.next_value()?),
                Field::Known(7) => field!(replay_options, 7, map.next_value()?),
                Field::Known(_) => field!(omitted, 8, map.next_value()?),
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let missing = |i: usize| <A::Error as de::Error>::missing_field(FIELDS[i]);
        Ok(Summary {
            mode: p.mode.ok_or_else(|| missing(0))?,
            seed: p.seed.ok_or_else(|| missing(1))?,
            verdict: p.verdict.ok_or_else(|| missing(2))?,
            runs: p.runs.ok_or_else(|| missing(3))?,
            coverage: p.coverage.ok_or_else(|| missing(4))?,
            duration_ms: p.duration_ms.ok_or_else(|| missing(5))?,
            parameters: p.parameters.unwrap_or_default(),
            replay_options: p.replay_options.unwrap_or_default(),
            omitted: p.omitted.unwrap_or_default(),
        })
    }
}

/// The `runs` of a summary, one run at a time to `each`.
struct RunsSeed<'a> {
    each: &'a mut dyn FnMut(RunResult) -> Option<RunResult>,
}

impl<'de> DeserializeSeed<'de> for RunsSeed<'_> {
    type Value = Vec<RunResult>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Vec<RunResult>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for RunsSeed<'_> {
    type Value = Vec<RunResult>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<RunResult>, A::Error> {
        let mut kept = Vec::new();
        while let Some(r) = seq.next_element::<RunResult>()? {
            if let Some(r) = (self.each)(r) {
                kept.push(r);
            }
        }
        Ok(kept)
    }
}

/// Results read from files: the summary (of several files, merged: [`merge`]) and, when it
/// omits the passing runs, the spool that holds every run.
#[derive(Debug)]
pub struct Loaded {
    /// The session: its counts, parameters and the runs that did not pass (or every run,
    /// when read whole).
    pub summary: Summary,
    spool: Option<Spool>,
}

impl Loaded {
    /// What the reports are written from: every run of the files.
    pub fn results(&self) -> Results<'_> {
        match &self.spool {
            Some(s) => Results::spooled(&self.summary, s),
            None => Results::new(&self.summary),
        }
    }

    /// Whether the runs are read from a spool (the file was not read whole).
    pub fn is_spooled(&self) -> bool {
        self.results().is_spooled()
    }
}

/// Why results could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// A file that cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// A file that is not a results file (the error has its line and column).
    Parse {
        /// The file.
        path: PathBuf,
        /// Why, where.
        error: serde_json::Error,
    },
    /// Files that do not merge ([`merge::merge`]'s message).
    Merge(String),
}

/// Read the results file `path` whole, as [`crate::from_json`] of its text.
fn whole(path: &Path) -> Result<Summary, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|error| LoadError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    crate::from_json(&text).map_err(|error| LoadError::Parse {
        path: path.to_path_buf(),
        error,
    })
}

/// Files up to this size that are not results files are read again whole for the error.
const WHOLE_ERROR_MAX: u64 = 64 << 20;

/// The error of parsing the file `path` whole with `parse`, when it is not larger than
/// [`WHOLE_ERROR_MAX`] and has one: the message, line and column of reading it from a string
/// (serde_json's reader counts the column of some errors one character further on).
pub fn whole_error<T>(
    path: &Path,
    parse: impl FnOnce(&str) -> Result<T, serde_json::Error>,
) -> Option<serde_json::Error> {
    // the size first: a larger file is not read into memory at all
    if !std::fs::metadata(path).is_ok_and(|m| m.len() <= WHOLE_ERROR_MAX) {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    parse(&text).err()
}

/// A serde_json error of reading `path`: a read error when the file could not be read.
fn parse_error(path: &Path, error: serde_json::Error) -> LoadError {
    let path = path.to_path_buf();
    if error.classify() == serde_json::error::Category::Io {
        LoadError::Read {
            path,
            error: error.into(),
        }
    } else {
        LoadError::Parse { path, error }
    }
}

/// Read the results files `paths` (several: the shards of one session, merged by
/// [`merge`]) with every passing run in a spool, not in memory; the same summary, runs and
/// errors as reading each whole with [`crate::from_json`] and merging them with
/// [`merge::merge`]. Each file is first split by [`split_runs`]; one that cannot be (not
/// valid) is read by [`summary_from_reader`], which says why. Files the spool cannot stand
/// for are read whole (see the module).
pub fn load(paths: &[PathBuf]) -> Result<Loaded, LoadError> {
    load_keeping(paths, true)
}

/// [`load`] for what needs only the summary (its counts and the runs that did not pass, as
/// the text summary without `--verbose`): the passing runs are counted and dropped, not
/// written to a spool. The reports that list every run cannot be written from it
/// ([`Results::every_run`] is false when runs passed).
pub fn load_summary(paths: &[PathBuf]) -> Result<Loaded, LoadError> {
    load_keeping(paths, false)
}

/// [`load`], with the passing runs in a spool when `spooled`.
fn load_keeping(paths: &[PathBuf], spooled: bool) -> Result<Loaded, LoadError> {
    match load_spooled(paths, true, spooled)? {
        Spooled::Loaded(l) => Ok(*l),
        Spooled::Slowly => match load_spooled(paths, false, spooled)? {
            Spooled::Loaded(l) => Ok(*l),
            Spooled::Slowly | Spooled::Whole => load_whole(paths),
        },
        Spooled::Whole => load_whole(paths),
    }
}

/// What [`load_spooled`] did.
enum Spooled {
    Loaded(Box<Loaded>),
    /// A file could not be split: read them with [`summary_from_reader`].
    Slowly,
    /// A file the spool cannot stand for: read them whole.
    Whole,
}

/// [`load`], splitting the files with [`split_runs`] when `fast`, the runs in a spool when
/// `spooled`.
fn load_spooled(paths: &[PathBuf], fast: bool, spooled: bool) -> Result<Spooled, LoadError> {
    let spool = match spooled.then(Spool::new) {
        Some(Ok(s)) => Some(s),
        // no temporary file: read as before
        Some(Err(_)) => return Ok(Spooled::Whole),
        None => None,
    };
    let mut parts = Vec::with_capacity(paths.len());
    // the run indices of each file, ascending, for merge's check that no run is in two
    let mut indices: Vec<Vec<usize>> = Vec::new();
    for path in paths {
        let file = open(path).map_err(|error| LoadError::Read {
            path: path.clone(),
            error,
        })?;
        let mut omitted = Omitted::default();
        let mut runs = Vec::new();
        let mut last: Option<usize> = None;
        let mut plain = true;
        let mut each = |r: RunResult, line: Option<Vec<u8>>| {
            if last.is_some_and(|l| r.run <= l)
                || (r.verdict == RunVerdict::Pass && r.shrunk.is_some())
            {
                plain = false;
            }
            last = Some(r.run);
            if paths.len() > 1 {
                runs.push(r.run);
            }
            match (&spool, line) {
                (Some(s), Some(line)) => s.push(r.run, line),
                (Some(s), None) => s.add(&r),
                (None, _) => {}
            }
            if r.verdict == RunVerdict::Pass {
                omitted.runs += 1;
                omitted.steps += r.steps;
                omitted.quiescence.add(r.quiescence);
                None
            } else {
                Some(r)
            }
        };
        let read = if fast {
            match split_runs(file, &mut |r, line| each(r, Some(line))) {
                Some(s) => s,
                None => return Ok(Spooled::Slowly),
            }
        } else {
            summary_from_reader(file, &mut |r| each(r, None)).map_err(|e| {
                match whole_error(path, |t| crate::from_json(t).map(drop)) {
                    Some(exact) => parse_error(path, exact),
                    None => parse_error(path, e),
                }
            })?
        };
        let mut s = read;
        if !plain || !s.omitted.is_empty() {
            return Ok(Spooled::Whole);
        }
        s.omitted = omitted;
        parts.push(s);
        indices.push(runs);
    }
    let summary = if parts.len() == 1 {
        parts.pop().expect("one")
    } else {
        merge::merge_sorted(parts, &names(paths), &indices).map_err(LoadError::Merge)?
    };
    Ok(Spooled::Loaded(Box::new(Loaded { summary, spool })))
}

/// A results file split into its runs and the rest, faster than [`summary_from_reader`]
/// (serde_json parses a slice several times faster than a reader): the bytes are scanned
/// for the top-level `runs` array (strings and nesting followed, white space outside strings
/// dropped), each element is parsed alone from its bytes ([`serde_json::from_slice`]) and
/// handed to `each` with those bytes (one compact line, what [`Spool::push`] takes); the
/// rest, `"runs": []` in place of the array, is parsed as the derived `Deserialize` of
/// [`Summary`] parses it. `None` when the file is not read so (not a valid results file,
/// a key with an escape, `runs` twice, a read error): [`summary_from_reader`] then reads it
/// and says why. Every piece parsed alone being valid, and the runs split only between
/// elements of the array, the file is valid JSON with these runs.
pub fn split_runs<R: io::BufRead>(
    mut reader: R,
    each: &mut dyn FnMut(RunResult, Vec<u8>) -> Option<RunResult>,
) -> Option<Summary> {
    const WS: [bool; 256] = {
        let mut t = [false; 256];
        t[b' ' as usize] = true;
        t[b'\n' as usize] = true;
        t[b'\r' as usize] = true;
        t[b'\t' as usize] = true;
        t
    };
    // the summary without its runs, the current run's bytes, the runs kept
    let (mut rest, mut element, mut kept) = (Vec::new(), Vec::new(), Vec::new());
    let (mut depth, mut in_str, mut esc) = (0u32, false, false);
    // inside the `runs` array; the runs read from it
    let (mut in_runs, mut elements) = (false, 0usize);
    // at depth 1: a key comes next; the key being read (None: a value's string)
    let (mut expect_key, mut key): (bool, Option<Vec<u8>>) = (false, None);
    // the last key was `runs` / its `:` came: its value comes next
    let (mut runs_key, mut runs_value, mut seen_runs, mut started) = (false, false, false, false);
    loop {
        let buf = reader.fill_buf().ok()?;
        if buf.is_empty() {
            break;
        }
        let n = buf.len();
        for &b in buf {
            if in_runs {
                if in_str {
                    element.push(b);
                    if esc {
                        esc = false;
                    } else if b == b'\\' {
                        esc = true;
                    } else if b == b'"' {
                        in_str = false;
                    }
                    continue;
                }
                if WS[b as usize] {
                    continue;
                }
                let end = match b {
                    b'"' => {
                        in_str = true;
                        false
                    }
                    b'{' | b'[' => {
                        depth += 1;
                        false
                    }
                    b'}' | b']' if depth > 2 => {
                        depth -= 1;
                        false
                    }
                    b']' => true,
                    b'}' => return None,
                    b',' if depth == 2 => true,
                    _ => false,
                };
                if !end {
                    element.push(b);
                    continue;
                }
                // an element ends (none in `[]`; an empty one is not valid)
                if element.is_empty() {
                    if b == b',' || elements > 0 {
                        return None;
                    }
                } else {
                    let r: RunResult = serde_json::from_slice(&element).ok()?;
                    let mut line = std::mem::replace(&mut element, Vec::with_capacity(256));
                    line.push(b'\n');
                    elements += 1;
                    if let Some(r) = each(r, line) {
                        kept.push(r);
                    }
                }
                if b == b']' {
                    in_runs = false;
                    depth = 1;
                    rest.extend_from_slice(b"[]");
                }
                continue;
            }
            rest.push(b);
            if in_str {
                if esc {
                    esc = false;
                } else if b == b'\\' {
                    esc = true;
                    if key.is_some() {
                        return None;
                    }
                } else if b == b'"' {
                    in_str = false;
                    if let Some(k) = key.take() {
                        runs_key = k == b"runs";
                    }
                    continue;
                }
                if let Some(k) = key.as_mut() {
                    k.push(b);
                }
                continue;
            }
            if WS[b as usize] {
                continue;
            }
            if depth == 0 {
                if started || b != b'{' {
                    return None;
                }
                started = true;
            }
            let value_of_runs = std::mem::take(&mut runs_value);
            match b {
                b'"' => {
                    in_str = true;
                    if depth == 1 && expect_key {
                        key = Some(Vec::new());
                        expect_key = false;
                    }
                }
                b'[' if value_of_runs => {
                    if seen_runs {
                        return None;
                    }
                    seen_runs = true;
                    rest.pop();
                    in_runs = true;
                    depth = 2;
                }
                b'{' | b'[' => {
                    depth += 1;
                    expect_key = depth == 1;
                }
                b'}' | b']' => depth -= 1,
                b',' => expect_key = depth == 1,
                b':' if depth == 1 => runs_value = std::mem::take(&mut runs_key),
                _ => {}
            }
        }
        reader.consume(n);
    }
    if in_runs || in_str || depth != 0 || !seen_runs {
        return None;
    }
    let mut summary: Summary = serde_json::from_slice(&rest).ok()?;
    summary.runs = kept;
    Some(summary)
}
/// [`load`] reading each file whole.
pub fn load_whole(paths: &[PathBuf]) -> Result<Loaded, LoadError> {
    let mut parts = paths
        .iter()
        .map(|p| whole(p))
        .collect::<Result<Vec<_>, _>>()?;
    let summary = if parts.len() == 1 {
        parts.pop().expect("one")
    } else {
        merge::merge(parts, &names(paths)).map_err(LoadError::Merge)?
    };
    Ok(Loaded {
        summary,
        spool: None,
    })
}

fn names(paths: &[PathBuf]) -> Vec<String> {
    paths.iter().map(|p| p.display().to_string()).collect()
}

/// The run `ioco replay` replays, read from a results file without keeping the others: run
/// `run` (the first with that index), or the first failing run, else the first run; and
/// how many runs the file lists.
pub fn find_run<R: io::Read>(
    reader: R,
    run: Option<usize>,
) -> Result<(Option<RunResult>, usize), serde_json::Error> {
    let mut pick = Pick::new(run);
    summary_from_reader(reader, &mut |r| {
        pick.add(r);
        None
    })?;
    Ok(pick.finish())
}

/// [`find_run`] of the file `path`, split by [`split_runs`] when it can be.
pub fn find_run_in(
    path: &Path,
    run: Option<usize>,
) -> Result<(Option<RunResult>, usize), serde_json::Error> {
    if let Ok(file) = open(path) {
        let mut pick = Pick::new(run);
        let split = split_runs(file, &mut |r, _| {
            pick.add(r);
            None
        });
        if split.is_some() {
            return Ok(pick.finish());
        }
    }
    find_run(open(path).map_err(serde_json::Error::io)?, run)
}

/// The run [`find_run`] looks for, among the runs seen so far.
struct Pick {
    run: Option<usize>,
    first: Option<RunResult>,
    fail: Option<RunResult>,
    count: usize,
}

impl Pick {
    fn new(run: Option<usize>) -> Pick {
        Pick {
            run,
            first: None,
            fail: None,
            count: 0,
        }
    }

    fn add(&mut self, r: RunResult) {
        self.count += 1;
        match self.run {
            Some(k) => {
                if r.run == k && self.first.is_none() {
                    self.first = Some(r);
                }
            }
            None => {
                if self.fail.is_none() && r.verdict == RunVerdict::Fail {
                    self.fail = Some(r);
                } else if self.first.is_none() {
                    self.first = Some(r);
                }
            }
        }
    }

    fn finish(self) -> (Option<RunResult>, usize) {
        (self.fail.or(self.first), self.count)
    }
}
