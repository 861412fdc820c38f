//! `ioco fmt`: formats .ioco files, `--check` exits 1 on unformatted files, 2 on bad input.

use assert_cmd::Command;
use predicates::str::contains;

fn ioco() -> Command {
    Command::cargo_bin("ioco").unwrap()
}

#[test]
fn fmt_prints_check_and_write() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("m.ioco");
    std::fs::write(&p, "model M{input a // stimulus\ninit s s--a?-->s}\n").unwrap();
    ioco()
        .args(["fmt"])
        .arg(&p)
        .assert()
        .code(0)
        .stdout("model M {\n  input a // stimulus\n  init s\n  s -- a? --> s\n}\n");
    ioco()
        .args(["fmt", "--check"])
        .arg(&p)
        .assert()
        .code(1)
        .stdout(contains("not formatted"));
    ioco().args(["fmt", "--write"]).arg(&p).assert().code(0);
    ioco().args(["fmt", "--check"]).arg(&p).assert().code(0);
    // the formatted file is still the same model
    ioco()
        .args(["check"])
        .arg(&p)
        .assert()
        .code(0)
        .stdout(contains("states:            1"));
}

#[test]
fn fmt_reports_parse_errors_with_location() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.ioco");
    std::fs::write(&p, "model M {\n  input a\n  init s\n  s -> a? --> s\n}\n").unwrap();
    ioco()
        .args(["fmt"])
        .arg(&p)
        .assert()
        .code(2)
        .stderr(contains("bad.ioco:4:5"))
        .stderr(contains("expected `--`"));
}

#[test]
fn example_ioco_files_are_formatted() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    ioco()
        .args(["fmt", "--check"])
        .arg(root.join("coffee/coffee.ioco"))
        .arg(root.join("coffee/coffee-sts.ioco"))
        .arg(root.join("torxakis/moving-arms.ioco"))
        .assert()
        .code(0);
}
