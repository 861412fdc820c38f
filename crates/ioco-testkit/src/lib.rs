//! Test support shared by the workspace's tests and benchmarks (a dev-dependency only, with no
//! dependencies of its own): where the public corpus is, and skips that are never silent.
//!
//! The corpus (AALpy's and hybrid-ADS's Mealy machines, TorXakis's examples) is not part of the
//! repository: it is the folder named by the environment variable `IOCO_CORPUS` (a relative
//! path is taken from the workspace root), or else `shared/corpus` beside the repository
//! (`../shared/corpus` from the workspace root, where CI has it).
//!
//! A test that needs something this machine lacks (the corpus, Chromium) skips *loudly*: it
//! prints `ioco-test-skip: TEST: REASON` to standard error and appends `TEST<tab>REASON` to
//! `test-skips.txt` in the target directory (`CARGO_TARGET_DIR`, else `target/` of the
//! workspace), which `scripts/test.sh` empties first and summarises at the end. With
//! `IOCO_NO_SKIP=1` (set by `.ci/run`), a skip is a failure instead: the test panics with the
//! reason.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The reason of a skip for want of the corpus.
pub const NO_CORPUS: &str =
    "the public corpus is not here (set IOCO_CORPUS or put shared/corpus beside the repository)";

/// The name of the skip log in the target directory.
pub const SKIP_LOG: &str = "test-skips.txt";

/// The workspace root (this crate is `crates/ioco-testkit`).
pub fn workspace_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}

/// Where the corpus is, without recording anything (for benchmarks and tools): `Err` says why
/// it is not there.
pub fn locate_corpus() -> Result<PathBuf, String> {
    corpus_in(&workspace_root(), std::env::var_os("IOCO_CORPUS"))
}

/// The corpus given `IOCO_CORPUS`'s value and the workspace root.
fn corpus_in(root: &Path, named: Option<OsString>) -> Result<PathBuf, String> {
    let (dir, named) = match named {
        Some(v) if !v.is_empty() => (root.join(PathBuf::from(v)), true),
        _ => (root.join("../shared/corpus"), false),
    };
    if dir.is_dir() {
        Ok(dir.canonicalize().unwrap_or(dir))
    } else if named {
        Err(format!(
            "IOCO_CORPUS names no folder ({}): the public corpus is not here",
            dir.display()
        ))
    } else {
        Err(NO_CORPUS.to_string())
    }
}

/// The corpus for the calling test, or `None` once the whole test is recorded as skipped (the
/// caller then returns at once). Under `IOCO_NO_SKIP=1` it panics instead of returning `None`.
pub fn corpus() -> Option<PathBuf> {
    locate_corpus().map_err(|why| skip(&why)).ok()
}

/// [`corpus`] for a test that runs without the corpus too, only less of it: `None` records
/// the skip of `part` of the calling test (e.g. "its corpus seeds"), and the test goes on.
pub fn corpus_part(part: &str) -> Option<PathBuf> {
    locate_corpus().map_err(|why| skip_part(part, &why)).ok()
}

/// Records that the calling test is skipped for `reason` (see the crate documentation): the
/// caller returns at once. Panics with the reason under `IOCO_NO_SKIP=1`.
pub fn skip(reason: &str) {
    record(&skip_log(), no_skip(), &test_name(), reason);
}

/// Records that `part` of the calling test is skipped for `reason`, the rest having run.
/// Panics with the reason under `IOCO_NO_SKIP=1`.
pub fn skip_part(part: &str, reason: &str) {
    let test = format!("{} ({part})", test_name());
    record(&skip_log(), no_skip(), &test, reason);
}

/// Whether skips are failures (`IOCO_NO_SKIP` set, and neither empty nor `0`).
pub fn no_skip() -> bool {
    std::env::var_os("IOCO_NO_SKIP").is_some_and(|v| !v.is_empty() && v != "0")
}

/// The skip log: `test-skips.txt` in `CARGO_TARGET_DIR` (relative to the workspace root) or
/// in the workspace's `target/`.
pub fn skip_log() -> PathBuf {
    skip_log_in(&workspace_root(), std::env::var_os("CARGO_TARGET_DIR"))
}

/// The skip log given the workspace root and `CARGO_TARGET_DIR`'s value.
fn skip_log_in(root: &Path, target_dir: Option<OsString>) -> PathBuf {
    match target_dir {
        Some(d) if !d.is_empty() => root.join(PathBuf::from(d)),
        _ => root.join("target"),
    }
    .join(SKIP_LOG)
}

/// `PACKAGE/TARGET::TEST` of the running test: the package from `CARGO_PKG_NAME` (set by
/// `cargo test`), the test target from the executable's name (`learn-0123abcd` → `learn`) and
/// the test from the name of its thread (libtest names each test's thread after it).
fn test_name() -> String {
    let package = std::env::var("CARGO_PKG_NAME").unwrap_or_else(|_| "?".into());
    let target = std::env::current_exe()
        .ok()
        .and_then(|e| e.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .map(|s| match s.rsplit_once('-') {
            Some((name, hash)) if hash.chars().all(|c| c.is_ascii_hexdigit()) => name.into(),
            _ => s,
        })
        .unwrap_or_else(|| "?".into());
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("?");
    format!("{package}/{target}::{test}")
}

/// Prints the skip of `test` and appends it to `log`, or panics when `fail` (`IOCO_NO_SKIP`).
fn record(log: &Path, fail: bool, test: &str, reason: &str) {
    if fail {
        panic!("{test} cannot run (IOCO_NO_SKIP is set, so this is a failure): {reason}");
    }
    // straight to the standard error, past libtest's capture of `eprintln!`: seen at once
    let _ = writeln!(std::io::stderr(), "ioco-test-skip: {test}: {reason}");
    if let Some(dir) = log.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    // One write of one line, appended: the tests of several processes write at once.
    let line = format!("{test}\t{reason}\n");
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .and_then(|mut f| f.write_all(line.as_bytes()));
    if let Err(e) = written {
        eprintln!(
            "ioco-test-skip: could not record the skip in {}: {e}",
            log.display()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder under the system's temporary folder.
    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ioco-testkit-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn the_test_name_is_package_target_and_thread() {
        assert_eq!(
            test_name(),
            "ioco-testkit/ioco_testkit::tests::the_test_name_is_package_target_and_thread"
        );
    }

    #[test]
    fn the_corpus_is_named_by_ioco_corpus_or_sits_beside_the_repository() {
        let top = scratch("corpus");
        let root = top.join("repo");
        std::fs::create_dir_all(&root).unwrap();
        // nothing beside the repository, no IOCO_CORPUS
        assert_eq!(corpus_in(&root, None), Err(NO_CORPUS.to_string()));
        assert_eq!(
            corpus_in(&root, Some("".into())),
            Err(NO_CORPUS.to_string())
        );
        let beside = top.join("shared/corpus");
        std::fs::create_dir_all(&beside).unwrap();
        assert_eq!(corpus_in(&root, None), Ok(beside.canonicalize().unwrap()));
        // IOCO_CORPUS wins, absolute or relative to the workspace root
        let other = top.join("elsewhere");
        std::fs::create_dir_all(&other).unwrap();
        let other = other.canonicalize().unwrap();
        assert_eq!(
            corpus_in(&root, Some(other.clone().into())),
            Ok(other.clone())
        );
        assert_eq!(corpus_in(&root, Some("../elsewhere".into())), Ok(other));
        let why = corpus_in(&root, Some("../nowhere".into())).unwrap_err();
        assert!(why.starts_with("IOCO_CORPUS names no folder ("), "{why}");
        assert!(why.contains("nowhere"), "{why}");
        std::fs::remove_dir_all(&top).unwrap();
    }

    #[test]
    fn the_skip_log_is_in_the_target_directory() {
        let root = Path::new("/repo");
        assert_eq!(
            skip_log_in(root, None),
            Path::new("/repo/target/test-skips.txt")
        );
        assert_eq!(
            skip_log_in(root, Some("/t".into())),
            Path::new("/t/test-skips.txt")
        );
        assert_eq!(
            skip_log_in(root, Some("build".into())),
            Path::new("/repo/build/test-skips.txt")
        );
    }

    #[test]
    fn a_skip_appends_one_line_per_test() {
        let dir = scratch("log");
        let log = dir.join("sub").join(SKIP_LOG);
        record(&log, false, "p/t::a", "no corpus");
        record(&log, false, "p/t::b (its seeds)", "no corpus");
        assert_eq!(
            std::fs::read_to_string(&log).unwrap(),
            "p/t::a\tno corpus\np/t::b (its seeds)\tno corpus\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    #[should_panic(
        expected = "p/t::a cannot run (IOCO_NO_SKIP is set, so this is a failure): no corpus"
    )]
    fn under_ioco_no_skip_a_skip_is_a_failure_and_is_not_logged() {
        let dir = scratch("fail");
        let log = dir.join(SKIP_LOG);
        let r = std::panic::catch_unwind(|| record(&log, true, "p/t::a", "no corpus"));
        assert!(!log.exists());
        std::fs::remove_dir_all(&dir).unwrap();
        std::panic::resume_unwind(r.unwrap_err());
    }

    #[test]
    fn the_workspace_root_holds_the_workspace_manifest() {
        let manifest = std::fs::read_to_string(workspace_root().join("Cargo.toml")).unwrap();
        assert!(manifest.contains("[workspace]"), "{manifest}");
    }
}
