//! CLI conventions (issue #15 item 6): shell completions and a manual page generated from the
//! same clap definition as the commands, and generation statistics as text.

mod common;
use common::ioco;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

#[test]
fn completions_and_the_manual_page_list_every_command() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        ioco()
            .args(["completions", shell])
            .assert()
            .code(0)
            .stdout(contains("ioco"))
            .stdout(contains("replay"))
            .stdout(contains("shrink-time"));
    }
    ioco()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(contains("possible values"));
    ioco()
        .arg("man")
        .assert()
        .code(0)
        .stdout(contains(".TH ioco"))
        .stdout(contains("compare"))
        .stdout(contains("completions"));
}

#[test]
fn gen_prints_its_statistics_as_text() {
    let Some(model) = common::corpus_file("mealy-aalpy/coffee_mealy.dot") else {
        return;
    };
    ioco()
        .args(["gen", &model, "--method", "hads"])
        .args(["-o", "/dev/null"])
        .assert()
        .code(0)
        .stderr(contains("hads: 3 tests, 8 input symbols"))
        .stderr(contains("Stats {").not());
}
