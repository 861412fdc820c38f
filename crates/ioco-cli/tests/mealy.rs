//! The Mealy hypothesis (issue #30 item 3): for a Mealy model (a DOT Mealy file) or with
//! `--mealy`, `test` and `learn` read one output line per input and do not wait for δ; the
//! report says so. A system that answers twice, or not at all, gets a Fail (test) or an error
//! that names the hypothesis (learn). A plain child process without a marker, as AALpy and
//! LearnLib users write their systems.

mod common;

use common::{ioco, outcome, write};
use ioco_model::Mealy;
use std::path::Path;

/// A vending machine as a Mealy machine: `coin/ok` then `push/coffee`; anything else `nope`.
const DOT: &str = r#"digraph {
0 [label="s0"]
1 [label="s1"]
0 -> 1 [label="coin/ok"]
0 -> 0 [label="push/nope"]
1 -> 1 [label="coin/nope"]
1 -> 0 [label="push/coffee"]
__start0 [label="" shape="none"]
__start0 -> 0
}
"#;

/// A Python system over plain lines, no marker: `answers(state, input)` gives the lines it
/// writes (the conforming one: exactly one).
fn player(dir: &Path, name: &str, body: &str) -> String {
    let src = format!(
        "import sys\nstate = 0\nfor line in sys.stdin:\n    i = line.strip()\n{body}\n    \
         sys.stdout.flush()\n"
    );
    let p = write(dir, name, &src);
    format!("python3 {}", p.display())
}

const RIGHT: &str = "    if state == 0 and i == 'coin':\n        print('ok'); state = 1\n    \
                     elif state == 1 and i == 'push':\n        print('coffee'); state = 0\n    \
                     else:\n        print('nope')";

fn test(model: &Path, sut: &str, extra: &[&str]) -> (i32, String) {
    outcome(
        ioco()
            .arg("test")
            .arg(model)
            .args(["--sut", sut, "--runs", "10", "--steps", "20", "--seed", "4"])
            .args(extra),
    )
}

#[test]
fn a_mealy_model_is_tested_under_the_hypothesis_and_the_report_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let model = write(dir.path(), "vend.dot", DOT);
    let right = player(dir.path(), "right.py", RIGHT);
    let (code, out) = test(&model, &right, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("(the Mealy hypothesis: one output line per input)"),
        "{out}"
    );
    assert!(out.contains("by the Mealy hypothesis"), "{out}");
    assert!(!out.contains("by time-out"), "no δ waited for: {out}");
}

#[test]
fn a_second_output_or_none_fails_under_the_hypothesis() {
    let dir = tempfile::tempdir().unwrap();
    let model = write(dir.path(), "vend.dot", DOT);
    // coffee, and then a receipt nobody asked for (written at once)
    let twice = player(
        dir.path(),
        "twice.py",
        &RIGHT.replace(
            "print('coffee'); state = 0",
            "print('coffee'); print('nope'); state = 0",
        ),
    );
    let (code, out) = test(&model, &twice, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("observed  nope!"), "{out}");
    // no answer to a push in s0
    let silent = player(
        dir.path(),
        "silent.py",
        &RIGHT.replace(
            "    else:\n        print('nope')",
            "    else:\n        pass",
        ),
    );
    let (code, out) = test(&model, &silent, &["--timeout", "300"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("quiescence where the specification requires an output"),
        "{out}"
    );
}

#[test]
fn an_lts_model_uses_the_hypothesis_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let model = write(
        dir.path(),
        "vend.aut",
        "des (0, 6, 5)\n(0, \"coin?\", 1)\n(1, \"ok!\", 2)\n(2, \"push?\", 3)\n(3, \"coffee!\", 0)\n\
         (0, \"push?\", 4)\n(4, \"nope!\", 0)\n",
    );
    let right = player(dir.path(), "right.py", RIGHT);
    let (code, out) = test(&model, &right, &["--mealy"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("by the Mealy hypothesis"), "{out}");
    let (code, out) = test(&model, &right, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("Mealy hypothesis"), "{out}");
}

#[test]
fn learn_under_the_hypothesis_learns_a_plain_process_and_names_it_when_it_breaks() {
    let dir = tempfile::tempdir().unwrap();
    let model = write(dir.path(), "vend.dot", DOT);
    let learned = dir.path().join("learned.dot");
    let right = player(dir.path(), "right.py", RIGHT);
    let out = ioco()
        .args([
            "learn",
            "--inputs",
            "coin,push",
            "--mealy",
            "--seed",
            "1",
            "--sut",
            &right,
        ])
        .arg("-o")
        .arg(&learned)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let load = |p: &Path| -> Mealy {
        match ioco_formats::load(p).unwrap() {
            ioco_formats::Model::Mealy(m) => m,
            other => panic!("a {}", other.kind()),
        }
    };
    let (a, b) = (load(&model), load(&learned));
    assert_eq!(ioco_learn::compare::difference(&a, &b), None);
    assert_eq!(ioco_learn::compare::difference(&b, &a), None);
    // a system that stays silent on `push` in s0
    let silent = player(
        dir.path(),
        "silent.py",
        &RIGHT.replace(
            "    else:\n        print('nope')",
            "    else:\n        pass",
        ),
    );
    let out = ioco()
        .args([
            "learn",
            "--inputs",
            "coin,push",
            "--mealy",
            "--timeout",
            "300",
        ])
        .args(["--seed", "1", "--sut", &silent])
        .arg("-o")
        .arg(dir.path().join("x.dot"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("under the Mealy"), "{err}");
}
