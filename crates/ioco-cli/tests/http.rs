//! The HTTP/JSON adapter (issue #31): `ioco test MODEL --http URL --map MAP.json` against a real
//! HTTP server program (examples/http/counter_service.py), conforming and faulty, with the
//! explicit and the symbolic engine; a map that does not fit the model, a missing map and a
//! service that cannot be reached are clear errors, never a Fail.

mod common;

use common::{ioco, outcome, root, write, KillOnDrop};
use predicates::str::contains;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

const MODEL: &str = "examples/http/counter.ioco";
const MAP: &str = "examples/http/counter-http.json";

/// Starts the counter service (`--faulty` when `faulty`) on a free port: the process (killed
/// when dropped) and its base URL.
fn service(faulty: bool) -> (KillOnDrop, String) {
    let mut c = Command::new("python3");
    c.arg(root().join("examples/http/counter_service.py"));
    if faulty {
        c.arg("--faulty");
    }
    let mut child = c
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("python3 starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("the service says where it listens: {line:?}"))
        .to_string();
    (KillOnDrop(child), url)
}

fn test(url: &str, engine: &str) -> (i32, String) {
    outcome(ioco().args([
        "test", MODEL, "--http", url, "--map", MAP, "--runs", "20", "--steps", "30", "--seed", "5",
        "--engine", engine,
    ]))
}

#[test]
fn a_conforming_service_passes_with_both_engines() {
    let (_s, url) = service(false);
    for engine in ["explicit", "symbolic"] {
        let (code, out) = test(&url, engine);
        assert_eq!(code, 0, "{engine}: {out}");
        assert!(out.contains("PASS: 20 runs (20 pass)"), "{engine}: {out}");
        assert!(
            out.contains(&format!("sut: http service at {url}")),
            "{out}"
        );
    }
}

#[test]
fn a_faulty_service_fails_with_both_engines_naming_the_response() {
    let (_s, url) = service(true);
    for engine in ["explicit", "symbolic"] {
        let (code, out) = test(&url, engine);
        assert_eq!(code, 1, "{engine}: {out}");
        // a total of exactly 9 is refused: `Full` where only `Value(9)` is allowed
        assert!(out.contains("observed  Full!"), "{engine}: {out}");
        assert!(out.contains("allowed   Value"), "{engine}: {out}");
    }
}

#[test]
fn a_response_no_rule_of_the_map_reads_is_a_fail_that_quotes_it() {
    let (_s, url) = service(false);
    let dir = tempfile::tempdir().unwrap();
    // the map forgets the 409 of a full counter
    let map = write(
        dir.path(),
        "map.json",
        r#"{"reset": {"path": "/reset"},
            "inputs": {"Inc": {"path": "/inc"}, "Total": {"method": "GET", "path": "/total"}},
            "outputs": [{"gate": "Value", "status": 200, "args": ["/value"]}]}"#,
    );
    let out = ioco()
        .args([
            "test",
            MODEL,
            "--http",
            &url,
            "--map",
            map.to_str().unwrap(),
        ])
        .args(["--runs", "30", "--steps", "40", "--seed", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("the SUT wrote `HTTP 409 {\"error\": \"full\"}`, which is not an output"),
        "{text}"
    );
}

#[test]
fn maps_that_do_not_fit_and_services_that_cannot_be_reached_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "bad.json", r#"{"inputs": {"Value": {}}}"#);
    ioco()
        .args([
            "test",
            MODEL,
            "--http",
            "http://127.0.0.1:9",
            "--map",
            bad.to_str().unwrap(),
        ])
        .assert()
        .code(2)
        .stderr(contains("the map names `Value`, which is no input gate"));
    ioco()
        .args(["test", MODEL, "--http", "http://127.0.0.1:9"])
        .assert()
        .code(2)
        .stderr(contains("--http needs --map FILE"));
    // nothing listens on the discard port: an Error, never a Fail
    let out = ioco()
        .args([
            "test",
            MODEL,
            "--http",
            "http://127.0.0.1:9",
            "--map",
            MAP,
            "--runs",
            "1",
        ])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("ERROR"), "{text}");
    assert!(!text.contains("FAIL"), "{text}");
}
