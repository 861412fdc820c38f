//! Set-up shared by the end-to-end tests of the `ioco` binary (each test file has `mod common;`).
//!
//! Every test file is its own crate and uses only some of these helpers, hence the
//! `allow(dead_code)` for this module.
#![allow(dead_code)]

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The repository root: the example models' paths in the tests are relative to it.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
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
    let mut c = ioco();
    c.env("RUST_BACKTRACE", "0");
    c.env_remove("IOCO_SOLVER");
    c
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
