//! The HTML report (`--html` on `ioco test`, and `ioco report RESULT.json --html`), from the
//! binary on the bundled coffee machines with faulty programs, and loaded in a real headless
//! browser (Chromium): its script runs, the failing step is selected and the model states it
//! failed in are highlighted in the picture of the model. A screenshot is kept when the
//! browser check fails. Where no Chromium is installed, the browser check alone is skipped and
//! the skip counted (`ioco_testkit::skip_part`; a failure under `IOCO_NO_SKIP=1`, as in CI,
//! which installs Chromium: `.ci/apt-packages`).

mod common;

use common::{example_bin, ioco, ioco_data};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The opening tag of the element with `attr` (e.g. `data-name="s3"`) in `page`.
fn tag_with<'a>(page: &'a str, attr: &str) -> Option<&'a str> {
    let at = page.find(attr)?;
    let start = page[..at].rfind('<')?;
    let end = at + page[at..].find('>')?;
    Some(&page[start..=end])
}

/// Checks every HTML report must pass, whatever made it.
fn self_contained(page: &str) {
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    for remote in ["src=\"http", "href=\"http", "url(http", "@import", "<link"] {
        assert!(!page.contains(remote), "the report loads {remote}…: {page}");
    }
    assert_eq!(page.matches("<script>").count(), 1);
}

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome", "chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|d| d.join(name))
                    .find(|p| p.is_file())
            })
        })
}

/// Chromium in headless mode on `page` with `what` (`--dump-dom`, `--screenshot=…`); its
/// standard output. Generous time-out; a fresh profile directory each time.
fn headless(browser: &Path, page: &Path, what: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1300,2000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(what)
        .arg(format!("file://{}", page.display()))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start chromium");
    let mut out = String::new();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut { stdout }, &mut s);
        s
    });
    let t0 = std::time::Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if t0.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within 120 s on {}", page.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    out.push_str(&reader.join().unwrap());
    out
}

/// Load `page` in the browser and check its DOM after the script ran; keep a screenshot next
/// to the page when a check fails.
fn in_browser(page: &Path, failing_states: &[&str], model_states: &[&str]) {
    let Some(browser) = chromium() else {
        // the rest of the test ran: only this check is skipped, counted by scripts/test.sh (a
        // failure under IOCO_NO_SKIP=1)
        ioco_testkit::skip_part(
            &format!(
                "the browser check of {}",
                page.file_name().unwrap().to_string_lossy()
            ),
            "Chromium is not installed (apt-get install chromium): none of chromium, \
             chromium-browser, google-chrome, chrome on PATH",
        );
        return;
    };
    let dom = headless(&browser, page, "--dump-dom");
    let problems = check_dom(&dom, failing_states, model_states);
    if !problems.is_empty() {
        let shot = page.with_extension("png");
        headless(&browser, page, &format!("--screenshot={}", shot.display()));
        let kept = std::env::temp_dir().join(format!(
            "ioco-html-test-{}.png",
            page.file_stem().unwrap().to_string_lossy()
        ));
        let _ = std::fs::copy(&shot, &kept);
        panic!(
            "the report in the browser: {}\nscreenshot: {}\nDOM:\n{dom}",
            problems.join("; "),
            kept.display()
        );
    }
}

fn check_dom(dom: &str, failing_states: &[&str], model_states: &[&str]) -> Vec<String> {
    let mut problems = Vec::new();
    if !dom.contains("data-ready=\"yes\"") {
        problems.push("the report's script did not run (no data-ready on <body>)".into());
    }
    match tag_with(dom, "class=\"step failing") {
        Some(t) if t.contains("selected") => {}
        Some(t) => problems.push(format!("the failing step is not selected: {t}")),
        None => problems.push("no failing step in the sequence chart".into()),
    }
    for s in model_states {
        if tag_with(dom, &format!("data-name=\"{s}\"")).is_none() {
            problems.push(format!("the picture has no state {s}"));
        }
    }
    for s in failing_states {
        match tag_with(dom, &format!("data-name=\"{s}\"")) {
            Some(t) if t.contains("current") => {}
            Some(t) => problems.push(format!("state {s} is not highlighted: {t}")),
            None => problems.push(format!("no state {s}")),
        }
    }
    // the script appends `current` to the class of the highlighted nodes of the picture
    let current = dom.matches(" current\" id=\"model-n").count();
    if current != failing_states.len() {
        problems.push(format!(
            "{current} states highlighted, expected {}",
            failing_states.len()
        ));
    }
    problems
}

#[test]
fn html_report_of_a_failing_coffee_machine_in_a_browser() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("result.json");
    let html = dir.path().join("report.html");
    let sut = format!("{} --mode silent --ack", example_bin("coffee-sut"));
    ioco()
        .args(["test", "examples/coffee/coffee.ioco", "--sut", &sut])
        .args(["--quiescence-marker", "#quiet", "--seed", "7", "--shrink"])
        .arg("--json")
        .arg(&json)
        .arg("--html")
        .arg(&html)
        .timeout(Duration::from_secs(300))
        .assert()
        .code(1);
    let page = std::fs::read_to_string(&html).unwrap();
    self_contained(&page);
    // the verdict, the replay command, the model's six states, the failing step, the shrunk
    // trace and the allowed outputs
    assert!(page.contains("<body data-verdict=\"fail\">"));
    assert!(page.contains(&format!(
        "ioco replay examples/coffee/coffee.ioco {} --run 0",
        json.display()
    )));
    for s in ["s0", "s1", "s2", "s3", "e0", "e1"] {
        assert!(page.contains(&format!("data-name=\"{s}\"")), "state {s}");
    }
    // the silent machine never brews: quiescence after button? in s3 fails
    let step = tag_with(&page, "class=\"step failing").expect("a failing step");
    assert!(step.contains("data-at-names=\"s3\""), "{step}");
    assert!(page.contains("id=\"shrunk\">δ water? δ pad? δ button? δ</pre>"));
    assert!(page.contains("allowed <code>coffee!, error!</code>"));
    // when each step was seen (the δ steps are the quiescence markers of the --ack machine)
    assert_eq!(page.matches("<text class=\"time\"").count(), 11, "{page}");
    // the failing observation is drawn from s3, in red
    let failing_edge = tag_with(&page, "class=\"edge delta failing\"").expect("failing δ edge");
    let s3 = tag_with(&page, "data-name=\"s3\"").unwrap();
    let s3 = s3
        .split("data-node=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    assert!(
        failing_edge.contains(&format!("data-from=\"{s3}\"")),
        "{failing_edge}"
    );
    in_browser(&html, &["s3"], &["s0", "s1", "s2", "s3", "e0", "e1"]);

    // the same report from the saved results
    let again = dir.path().join("again.html");
    ioco()
        .args(["report"])
        .arg(&json)
        .arg("--html")
        .arg(&again)
        .assert()
        .code(1); // the results' verdict, Fail

    let page2 = std::fs::read_to_string(&again).unwrap();
    self_contained(&page2);
    assert_eq!(
        tag_with(&page2, "class=\"step failing"),
        tag_with(&page, "class=\"step failing")
    );
    in_browser(&again, &["s3"], &["s0", "s3", "e1"]);
}

#[test]
fn html_report_of_a_data_model_draws_locations_and_switches() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("result.json");
    let html = dir.path().join("report.html");
    let sut = format!("{} --ack --mode wrong-value", example_bin("coffee-sts-sut"));
    ioco_data()
        .args(["test", "examples/coffee/coffee-sts.ioco", "--sut", &sut])
        .args([
            "--quiescence-marker",
            "#quiet",
            "--steps",
            "100",
            "--seed",
            "7",
        ])
        .arg("--json")
        .arg(&json)
        .arg("--html")
        .arg(&html)
        .timeout(Duration::from_secs(300))
        .assert()
        .code(1);
    let page = std::fs::read_to_string(&html).unwrap();
    self_contained(&page);
    // the session's switch coverage, and switches drawn with their guards; some were taken,
    // the failing step is marked
    assert!(
        page.contains("<p class=\"legend\">switch coverage "),
        "{page}"
    );
    assert!(page.contains("class=\"edge in visited\""), "{page}");
    assert!(page.contains("class=\"node visited initial\""), "{page}");
    let step = tag_with(&page, "class=\"step failing").expect("a failing step");
    assert!(!step.contains("data-at=\"\""), "{step}");
    // when each step was seen, for data runs too
    assert_eq!(
        page.matches("<text class=\"time\"").count(),
        page.matches("<g class=\"step").count(),
        "{page}"
    );
    let failing = tag_with(&page, "failing\" data-from=").expect("a failing edge");
    assert!(failing.contains("class=\"edge out failing\""), "{failing}");
    let names: Vec<String> = step
        .split("data-at-names=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap()
        .split(", ")
        .map(str::to_string)
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    in_browser(&html, &names, &names);
}

#[test]
fn report_needs_a_result_file() {
    ioco()
        .args([
            "report",
            "examples/coffee/coffee.ioco",
            "--html",
            "/dev/null",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "coffee.ioco:1:1: not a result file",
        ));
    // without an output option the summary is printed (papercuts.rs): the file must exist
    ioco()
        .args(["report", "whatever.json"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot read whatever.json"));
}
