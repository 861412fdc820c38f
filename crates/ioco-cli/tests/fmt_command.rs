//! `ioco fmt`: formats .ioco files, `--check` exits 1 on unformatted files, 2 on bad input.

mod common;

use common::{ioco, root, write};
use predicates::str::contains;

#[test]
fn fmt_prints_check_and_write() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "m.ioco",
        "model M{input a // stimulus\ninit s s--a?-->s}\n",
    );
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
    let p = write(
        dir.path(),
        "bad.ioco",
        "model M {\n  input a\n  init s\n  s -> a? --> s\n}\n",
    );
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
    let examples = root().join("examples");
    ioco()
        .args(["fmt", "--check"])
        .arg(examples.join("coffee/coffee.ioco"))
        .arg(examples.join("coffee/coffee-sts.ioco"))
        .arg(examples.join("torxakis/moving-arms.ioco"))
        .assert()
        .code(0);
}
