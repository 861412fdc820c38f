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
    // one coverage figure, no internal values (issue #32): the switch coverage is not in the
    // session table as a raw fraction
    assert!(!page.contains("switch_coverage"), "{page}");
    assert!(!page.contains("<th>switch coverage"), "{page}");
    assert!(!page.contains("<th>coverage"), "{page}");
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

/// The text of `<pre id="ID">…</pre>` in `page`, unescaped as a browser shows it.
fn pre_text(page: &str, id: &str) -> Option<String> {
    let open = format!("<pre id=\"{id}\">");
    let start = page.find(&open)? + open.len();
    let end = start + page[start..].find("</pre>")?;
    Some(
        page[start..end]
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&"),
    )
}

/// Runs `command` in a POSIX shell in the repository root, with the `ioco` under test first
/// on PATH (as a user pastes it): its exit code and output.
fn in_shell(command: &str) -> (i32, String) {
    let bin = Path::new(env!("CARGO_BIN_EXE_ioco")).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let mut c = assert_cmd::Command::new("sh");
    c.args(["-c", command])
        .current_dir(common::root())
        .env("PATH", path)
        .timeout(Duration::from_secs(300));
    common::outcome(&mut c)
}

/// Issue #32: the replay command of the HTML report, pasted into a shell, reproduces the Fail:
/// it carries the quiescence marker (without it the SUT's `#quiet` line is an output the model
/// does not have: a spurious Fail) and the other options of the system. The page of merged
/// shards, which shows no command line, shows the same whole replay command.
#[test]
fn html_replay_command_reproduces_the_failure() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("result.json");
    let html = dir.path().join("report.html");
    let sut = format!("{} --mode silent --ack", example_bin("coffee-sut"));
    let test = |extra: &[&str], json: &Path, html: Option<&Path>| {
        let mut c = ioco();
        c.args(["test", "examples/coffee/coffee.ioco", "--sut", &sut])
            .args(["--quiescence-marker", "#quiet", "--timeout", "20000"])
            .args(["--seed", "7", "--runs", "4"])
            .args(extra)
            .arg("--json")
            .arg(json);
        if let Some(html) = html {
            c.arg("--html").arg(html);
        }
        c.timeout(Duration::from_secs(300)).assert().code(1);
    };
    test(&[], &json, Some(&html));
    let page = std::fs::read_to_string(&html).unwrap();
    let replay = pre_text(&page, "replay").expect("a replay command");
    assert!(
        replay.contains("--quiescence-marker '#quiet'") && replay.contains("--timeout 20000"),
        "{replay}"
    );
    assert!(!page.contains("of the command above"), "{page}");
    let recorded = common::summary(&json);
    let failed = recorded.first_failure().expect("a failing run");
    let observed = &failed.failure.as_ref().unwrap().observed;
    let (code, out) = in_shell(&replay);
    assert_eq!(code, 1, "the replay reproduces the Fail: {replay}\n{out}");
    assert!(!out.contains("#quiet"), "a spurious Fail: {out}");
    assert!(
        out.contains(&format!("observed  {observed}")),
        "the same failing observation {observed}: {out}"
    );
    // the replay command in the results records the options: replaying works without the
    // report too (`ioco report` of the JSON shows the same command)
    assert_eq!(
        recorded.replay_options,
        [
            "--sut",
            sut.as_str(),
            "--quiescence-marker",
            "#quiet",
            "--timeout",
            "20000"
        ]
    );

    // two shards of a session with --keep-going, saved as JSON only and merged: the same
    // replay command, no "command above", and the step times kept (the JSON records them)
    let parts: Vec<PathBuf> = (1..=2)
        .map(|k| {
            let part = dir.path().join(format!("part{k}.json"));
            let shard = format!("{k}/2");
            test(&["--keep-going", "--shard", &shard], &part, None);
            part
        })
        .collect();
    let merged = dir.path().join("merged.html");
    ioco()
        .arg("report")
        .args(&parts)
        .arg("--html")
        .arg(&merged)
        .assert()
        .code(1);
    let page = std::fs::read_to_string(&merged).unwrap();
    self_contained(&page);
    assert!(!page.contains("of the command above"), "{page}");
    let replay = pre_text(&page, "replay").expect("a replay command");
    assert!(
        replay.contains("--quiescence-marker '#quiet'") && !replay.contains("--shard"),
        "{replay}"
    );
    assert!(page.contains("<text class=\"time\""), "step times: {page}");
}

/// Issue #32: one coverage figure per page, saying what it counts. With --shrink the session's
/// coverage counts the shrink replays (the tester walks them too): the terminal says so; the
/// HTML page shows only the model section's figure, counted over the runs, and says that the
/// replays are not counted. No raw fraction or internal note in the Session table.
#[test]
fn one_coverage_figure_saying_what_it_counts() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report.html");
    let sut = format!("{} --mode silent --ack", example_bin("coffee-sut"));
    let out = ioco()
        .args(["test", "examples/coffee/coffee.ioco", "--sut", &sut])
        .args(["--quiescence-marker", "#quiet", "--seed", "7", "--shrink"])
        .arg("--html")
        .arg(&html)
        .timeout(Duration::from_secs(300))
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8_lossy(&out);
    let line = out
        .lines()
        .find(|l| l.starts_with("coverage"))
        .expect("a coverage line");
    assert!(line.contains("shrink replays): states "), "{out}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page.matches("states visited").count(), 1, "{page}");
    assert!(!page.contains("<th>coverage"), "{page}");
    assert!(
        page.contains("(not counting the replays of shrinking)"),
        "{page}"
    );
    for internal in ["coverage_note", "_ms</th>", "0.6666"] {
        assert!(!page.contains(internal), "{internal}: {page}");
    }
}
