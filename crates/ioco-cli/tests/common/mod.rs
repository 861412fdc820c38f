//! Set-up shared by the end-to-end tests of the `ioco` binary (each test file has `mod common;`).
//!
//! Every test file is its own crate and uses only some of these helpers, hence the
//! `allow(dead_code)` for this module.
#![allow(dead_code)]

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Runs `cmd` to its end: its exit code (-1 when killed) and its standard output followed by
/// its standard error.
pub fn outcome(cmd: &mut Command) -> (i32, String) {
    let out = cmd.output().expect("the command runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

/// The repository root: the example models' paths in the tests are relative to it.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A file of the public corpus (`rel` below it), as an argument of `ioco` ([`from_root`]);
/// `None` once the calling test is recorded as skipped for want of the corpus (it returns at
/// once; under `IOCO_NO_SKIP=1` a failure instead). See `ioco_testkit`.
pub fn corpus_file(rel: &str) -> Option<String> {
    ioco_testkit::corpus().map(|c| from_root(&c.join(rel)))
}

/// `path` (absolute) as a path from the repository root, where `ioco` runs: a corpus file
/// where CI has it is `../shared/corpus/…`, as short in `ioco`'s messages (which wrap at 80
/// columns) as the tests expect.
pub fn from_root(path: &Path) -> String {
    let root = root().canonicalize().expect("the repository root");
    let common = root
        .components()
        .zip(path.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut rel = PathBuf::new();
    for _ in common..root.components().count() {
        rel.push("..");
    }
    rel.extend(path.components().skip(common));
    rel.display().to_string()
}

/// The `ioco` binary under test, run in the repository root.
pub fn ioco() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ioco"));
    c.current_dir(root());
    c
}

/// [`ioco`] for tests with real programs with data: a panicking SUT exits at once (a
/// backtrace takes longer than the quiescence time-out) and the default solver is used
/// whatever `IOCO_SOLVER` says in the environment.
pub fn ioco_data() -> Command {
    Command::from_std(ioco_data_process())
}

/// [`ioco_data`] as a plain process, for a test that talks to `ioco` while it runs.
pub fn ioco_data_process() -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_ioco"));
    c.current_dir(root());
    c.env("RUST_BACKTRACE", "0");
    c.env_remove("IOCO_SOLVER");
    c
}

/// A child process that is killed (and reaped) when dropped, so that a failing test leaves
/// no process behind.
pub struct KillOnDrop(pub std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The path of an `ioco-examples` binary (`coffee-sts-sut`, `brp-sut`, ...), built once if
/// needed into the same target directory as `ioco`.
pub fn example_bin(name: &str) -> String {
    static BUILT: OnceLock<()> = OnceLock::new();
    let dir = Path::new(env!("CARGO_BIN_EXE_ioco"))
        .parent()
        .expect("bin dir")
        .to_path_buf();
    BUILT.get_or_init(|| {
        let target = dir.parent().expect("target dir");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut cmd = std::process::Command::new(cargo);
        cmd.args(["build", "-q", "-p", "ioco-examples", "--bins"])
            .env("CARGO_TARGET_DIR", target)
            .current_dir(root());
        if dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        let st = cmd.status().expect("cargo build");
        assert!(st.success(), "building the example programs failed");
    });
    dir.join(name).display().to_string()
}

/// Writes `text` to `dir/name` (a model, a suite, ...) and returns the path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// The JSON summary that `--json PATH` wrote.
pub fn summary(path: &Path) -> ioco_exec::Summary {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Runs `ioco IOCO_ARGS` (with `--listen 0` among them) and, once ioco says where it listens,
/// the example program `sut` (see [`example_bin`]) with `SUT_ARGS --connect ADDR`; the program
/// connects again for every run and every replay. Returns ioco's exit code and its output
/// (standard output, then standard error). Asserts that the program ends by itself once ioco
/// has ended (its next connection is refused); neither process outlives the call.
pub fn ioco_listening(ioco_args: &[&str], sut: &str, sut_args: &[&str]) -> (i32, String) {
    use std::io::{BufRead, Read};
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let sut = example_bin(sut); // built before ioco starts waiting for it
    let mut ioco = KillOnDrop(
        ioco_data_process()
            .args(ioco_args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut stderr = std::io::BufReader::new(ioco.0.stderr.take().unwrap());
    let mut err = String::new();
    let addr = loop {
        let mut line = String::new();
        if stderr.read_line(&mut line).unwrap() == 0 {
            panic!("ioco ended without listening:\n{err}");
        }
        err += &line;
        if let Some(a) = line.trim().strip_prefix("ioco: listening on ") {
            break a.to_string();
        }
    };
    let mut sut = KillOnDrop(
        std::process::Command::new(sut)
            .args(sut_args)
            .args(["--connect", &addr])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let rest = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let mut out = String::new();
    let _ = ioco.0.stdout.take().unwrap().read_to_string(&mut out);
    let code = ioco.0.wait().unwrap().code().expect("ioco exited");
    let text = out + &err + &rest.join().unwrap();
    // a generous bound: the program only has to notice the closed connection and reconnect
    let deadline = Instant::now() + Duration::from_secs(10);
    while sut.0.try_wait().unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "the SUT is still running 10 s after ioco ended:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    (code, text)
}

/// Gone, or a zombie waiting for a reaper that is not ioco (a container's init may not reap).
pub fn gone(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// Live processes that carry the mark of a SUT of the `ioco` process `pid`
/// (`IOCO_SUT_TOKEN=<pid>.<k>`, see `ioco_sut::process`; Linux).
pub fn marked_by(pid: u32) -> Vec<u32> {
    let needle = format!("IOCO_SUT_TOKEN={pid}.");
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            !gone(&p.to_string())
                && std::fs::read(format!("/proc/{p}/environ")).is_ok_and(|env| {
                    env.split(|&b| b == 0)
                        .any(|v| v.starts_with(needle.as_bytes()))
                })
        })
        .collect()
}
