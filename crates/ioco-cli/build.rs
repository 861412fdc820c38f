//! `ioco --version` names the commit it was built from: `0.1.0 (b023b06)`, with `-dirty` when
//! the work tree had changes, or `0.1.0` alone where git or the repository is not there (a
//! source tarball, a vendored build). Nothing fails without git.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn main() {
    let version = env!("CARGO_PKG_VERSION");
    let full = match git(&["rev-parse", "--short=8", "HEAD"]) {
        Some(hash) => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some();
            format!("{version} ({hash}{})", if dirty { "-dirty" } else { "" })
        }
        None => version.to_string(),
    };
    println!("cargo:rustc-env=IOCO_VERSION={full}");
    // rebuild when the commit changes (HEAD, the branch it points to, the index)
    for path in ["HEAD", "index"] {
        if let Some(p) = git(&["rev-parse", "--git-path", path]) {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    if let Some(r) = git(&["symbolic-ref", "-q", "HEAD"]) {
        if let Some(p) = git(&["rev-parse", "--git-path", &r]) {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
