//! Issue #35 item 3: reports written from a spool, the session keeping only the runs that did
//! not pass, are the reports of the summary that keeps every run — byte for byte, for every
//! format (JSON, JUnit, Markdown, HTML, the verbose text) and for the coverage walked over the
//! model.

use ioco_engine::result::{
    Collector, CoverageSummary, Failure, Keep, RunResult, RunVerdict, Shrunk, Summary,
};
use ioco_model::{Alphabet, Lts, LtsBuilder, QuiescencePolicy};
use ioco_report::{html, junit, markdown, text, walk, Results, Spool};

/// The run `k` of a session of the machine `0 -coin?-> 1 -tea!-> 0`: mostly passing, with
/// failures, errors and inconclusive runs among them, and texts that need escaping in every
/// format (markup, quotes, control characters, an ANSI escape, non-ASCII).
fn run(k: usize) -> RunResult {
    let mut r = RunResult::new(k, (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    r.trace = ["coin?", "tea!", "δ", "coin?", "tea!"][..1 + k % 5]
        .iter()
        .copied()
        .collect();
    r.steps = r.trace.len();
    r.duration_ms = 0.1 + k as f64 / 7.0;
    r.quiescence.process = (k % 3) as u32;
    if k.is_multiple_of(4) {
        r.step_ms = (0..r.steps).map(|i| i as f32 * 0.3 + 0.01).collect();
    }
    if k.is_multiple_of(11) {
        r.test = Some(format!("t{k} <a & \"b\"> 'c'\u{1b}[31m red"));
    }
    match k % 97 {
        13 => {
            r.verdict = RunVerdict::Fail;
            r.trace = ["coin?", "δ"].into_iter().collect();
            r.steps = 2;
            let f = Failure {
                observed: "δ".into(),
                allowed: vec!["tea!".into()],
                reason: "quiescence where <tea!> & \"more\" is required\n\u{7}".into(),
            };
            r.failure = Some(f.clone());
            r.shrunk = Some(Shrunk {
                inputs: vec!["coin?".into()],
                trace: ["coin?", "δ"].into_iter().collect(),
                failure: Some(f),
                replays: 3,
                stopped: k
                    .is_multiple_of(2)
                    .then(|| "the time budget was spent".into()),
            });
        }
        29 => {
            r.verdict = RunVerdict::Error;
            r.error = Some("the SUT exited: status 101 ]]> <x/>".into());
            r.stderr = Some("panicked at 'boom' \u{0}\u{1b}[0m\nline two\n".into());
        }
        61 => {
            r.verdict = RunVerdict::Inconclusive;
            r.note = Some("left the purpose — ünïcode".into());
        }
        _ => {}
    }
    r
}

fn machine() -> Lts {
    let mut b = LtsBuilder::new(Alphabet::new());
    let s = b.add_states(2);
    b.add_initial(s);
    let coin = b.alphabet_mut().input("coin").unwrap();
    let tea = b.alphabet_mut().output("tea").unwrap();
    b.add_transition(s, coin, s + 1);
    b.add_transition(s + 1, tea, s);
    b.build().unwrap()
}

/// A session of `n` runs collected by two workers as `ioco run` collects them: every run
/// written to a spool as it arrives (out of run order), only the runs that did not pass kept.
/// Returns that summary, its spool, and the summary that keeps every run.
fn session(n: usize) -> (Summary, Spool, Summary) {
    let spool = Spool::new().unwrap();
    let mut parts = [
        Collector::new(Keep::Failures),
        Collector::new(Keep::Failures),
    ];
    // worker 0 takes the even runs, worker 1 the odd ones; they interleave unevenly
    let (even, odd): (Vec<usize>, Vec<usize>) = (0..n).partition(|k| k.is_multiple_of(2));
    let (mut e, mut o) = (even.into_iter().peekable(), odd.into_iter().peekable());
    let mut turn = 0usize;
    while e.peek().is_some() || o.peek().is_some() {
        turn += 1;
        let w = if turn % 5 < 3 { 0 } else { 1 };
        let next = if w == 0 {
            e.next().or_else(|| o.next())
        } else {
            o.next().or_else(|| e.next())
        };
        let k = next.unwrap();
        let r = run(k);
        spool.add(&r);
        parts[k % 2].add(r);
    }
    let [mut c, other] = parts;
    c.merge(other);
    let (runs, omitted) = c.finish();
    let mut lean = Summary::new("suite", 7, runs);
    lean.omitted = omitted;
    let mut full = Summary::new("suite", 7, (0..n).map(run).collect());
    for s in [&mut lean, &mut full] {
        s.duration_ms = 1234.5678;
        s.coverage = CoverageSummary {
            states_visited: 2,
            states_total: 2,
            transitions_visited: 2,
            transitions_total: 2,
            suspension_states: 3,
        };
        s.parameters.insert("model".into(), "tea.aut".into());
        s.parameters.insert("suite".into(), "w <2>.json".into());
        s.replay_options = vec!["--sim".into(), "tea.aut".into()];
    }
    assert_eq!(lean.verdict, full.verdict);
    (lean, spool, full)
}

fn bytes(f: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> String {
    let mut v = Vec::new();
    f(&mut v).unwrap();
    String::from_utf8(v).unwrap()
}

#[test]
fn every_report_from_a_spool_is_the_report_of_every_run_kept() {
    let n = 5_000;
    let (lean, spool, full) = session(n);
    assert!(
        lean.runs.len() < n / 20,
        "only the runs that did not pass are kept"
    );
    assert_eq!(spool.len(), n);
    let spooled = Results::spooled(&lean, &spool);
    assert!(spooled.is_spooled() && spooled.every_run());

    // JSON: the same bytes as the whole summary pretty-printed, and it reads back
    let json = bytes(|w| ioco_report::write_json(&spooled, w));
    assert_eq!(json, ioco_report::to_json(&full) + "\n");
    assert_eq!(ioco_report::from_json(&json).unwrap(), full);
    // the summary's own runs through the same writer: the same as before too
    let own = bytes(|w| ioco_report::write_json(&Results::new(&full), w));
    assert_eq!(own, json);
    let lean_own = bytes(|w| ioco_report::write_json(&Results::new(&lean), w));
    assert_eq!(lean_own, ioco_report::to_json(&lean) + "\n");

    // JUnit: the bytes quick-junit writes for the whole report
    let xml = bytes(|w| junit::write(&spooled, w));
    assert_eq!(xml, junit::render(&full).unwrap());
    assert_eq!(xml.matches("<testcase ").count(), n);
    let lean_xml = bytes(|w| junit::write(&Results::new(&lean), w));
    assert_eq!(lean_xml, junit::render(&lean).unwrap());

    // Markdown (more runs than its table lists: the same either way)
    assert_eq!(
        markdown::render_results(&spooled).unwrap(),
        markdown::render(&full)
    );

    // the verbose text lists every passing run
    let opts = text::TextOptions {
        verbose: true,
        ..Default::default()
    };
    let t = bytes(|w| text::write(&spooled, &opts, w));
    assert_eq!(t, text::render(&full, &opts));
    assert!(t.lines().count() > n - lean.runs.len());

    // HTML with the coverage walked over the model from the spool
    let lts = machine();
    let walked =
        walk::explicit_runs(&lts, QuiescencePolicy::Stable, &spooled, spooled.focus()).unwrap();
    assert_eq!(
        walked,
        walk::explicit(&lts, QuiescencePolicy::Stable, &full.runs)
    );
    assert!(walked.focus.is_some());
    let cx = html::Context {
        command: Some("ioco run tea.aut w2.json --sim tea.aut --html r.html".into()),
        focus: walked.focus.clone(),
        ..Default::default()
    };
    assert_eq!(
        html::render_results(&spooled, &cx).unwrap(),
        html::render(&full, &cx)
    );
    let plain = html::Context::default();
    assert_eq!(
        html::render_results(&spooled, &plain).unwrap(),
        html::render(&full, &plain)
    );
}

/// A session of at most the Markdown table's runs lists every run in it, read from the spool;
/// a session that passed entirely follows its first run.
#[test]
fn small_and_passing_sessions_from_a_spool() {
    let (lean, spool, full) = session(40);
    let spooled = Results::spooled(&lean, &spool);
    let md = markdown::render_results(&spooled).unwrap();
    assert_eq!(md, markdown::render(&full));
    assert!(md.contains("| run 39 |"), "{md}");

    let spool = Spool::new().unwrap();
    let mut c = Collector::new(Keep::Failures);
    for k in (0..30).filter(|k| k % 97 != 13 && k % 97 != 29) {
        let r = run(k);
        spool.add(&r);
        c.add(r);
    }
    let (runs, omitted) = c.finish();
    let mut lean = Summary::new("online", 1, runs);
    lean.omitted = omitted;
    assert!(lean.runs.is_empty());
    let full = Summary::new(
        "online",
        1,
        (0..30)
            .filter(|k| k % 97 != 13 && k % 97 != 29)
            .map(run)
            .collect(),
    );
    let spooled = Results::spooled(&lean, &spool);
    assert_eq!(spooled.focus(), Some(0));
    assert_eq!(spooled.run_at(0).unwrap(), Some(run(0)));
    assert_eq!(
        html::render_results(&spooled, &Default::default()).unwrap(),
        html::render(&full, &Default::default())
    );
    assert_eq!(
        bytes(|w| ioco_report::write_json(&spooled, w)),
        ioco_report::to_json(&full) + "\n"
    );
}

/// A spool that does not hold the session's runs (some did not pass through it) is not
/// used: the reports list what the summary holds and count the rest.
#[test]
fn a_spool_missing_runs_is_not_used() {
    let (lean, spool, _) = session(300);
    spool.add(&run(300));
    let r = Results::spooled(&lean, &spool);
    assert!(!r.is_spooled() && !r.every_run());
    assert_eq!(
        bytes(|w| ioco_report::write_json(&r, w)),
        ioco_report::to_json(&lean) + "\n"
    );
}

/// Every report of `r`, as bytes: JSON, JUnit, Markdown, the verbose text, and HTML without
/// and with the coverage walked over the model.
fn all_reports(r: &Results<'_>) -> (walk::Visits, Vec<String>) {
    let opts = text::TextOptions {
        verbose: true,
        ..Default::default()
    };
    let lts = machine();
    let walked = walk::explicit_runs(&lts, QuiescencePolicy::Stable, r, r.focus()).unwrap();
    let cx = html::Context {
        command: Some("ioco run tea.aut w2.json --sim tea.aut --html r.html".into()),
        result_file: Some("r.json".into()),
        focus: walked.focus.clone(),
        ..Default::default()
    };
    let mut out = vec![];
    for f in ioco_report::Format::ALL {
        out.push(bytes(|w| f.write(r, None, w)));
        if f == ioco_report::Format::Html {
            out.push(bytes(|w| f.write(r, Some(&cx), w)));
        }
    }
    out.push(bytes(|w| text::write(r, &opts, w)));
    (walked, out)
}

/// The reports `a` and `b` are the same (the first that differs shown, cut short).
fn same(a: (walk::Visits, Vec<String>), b: (walk::Visits, Vec<String>), what: &str) {
    assert!(a.0 == b.0, "{what}: the walks differ");
    assert_eq!(a.1.len(), b.1.len());
    for (i, (x, y)) in a.1.iter().zip(&b.1).enumerate() {
        assert!(
            x == y,
            "{what}: report {i} differs:\n{x:.3000}\n---\n{y:.3000}"
        );
    }
}

fn write_file(dir: &std::path::Path, name: &str, s: &Summary) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, ioco_report::to_json(s) + "\n").unwrap();
    p
}

/// Issue #35, the reading side: a results file read one run at a time (the passing runs to a
/// spool, the others kept) gives every report the file read whole gives, byte for byte.
#[test]
fn a_results_file_read_one_run_at_a_time_gives_the_reports_of_the_whole_file() {
    use ioco_report::read;
    let dir = tempfile::tempdir().unwrap();
    let (lean, _, full) = session(3_000);
    let path = write_file(dir.path(), "r.json", &full);
    let loaded = read::load(std::slice::from_ref(&path)).unwrap();
    assert!(loaded.is_spooled());
    // what the session had when it spooled: the runs that did not pass, the others counted
    assert_eq!(loaded.summary, lean);
    let whole = ioco_report::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(whole, full);
    let streamed = all_reports(&loaded.results());
    // the JSON written back is the file
    assert!(streamed.1[0] == std::fs::read_to_string(&path).unwrap());
    // the summary alone, the passing runs not even spooled: the same summary and text
    let counted = read::load_summary(std::slice::from_ref(&path)).unwrap();
    assert!(!counted.is_spooled() && !counted.results().every_run());
    assert_eq!(counted.summary, lean);
    let plain = text::TextOptions::default();
    assert_eq!(
        text::render(&counted.summary, &plain),
        text::render(&whole, &plain)
    );
    same(streamed, all_reports(&Results::new(&whole)), "r.json");

    // files the spool cannot stand for are read whole: one that omits runs, runs out of order
    let odd = {
        let mut s = full.clone();
        s.runs.swap(3, 4);
        s
    };
    for (name, s) in [("lean.json", &lean), ("odd.json", &odd)] {
        let p = write_file(dir.path(), name, s);
        let l = read::load(std::slice::from_ref(&p)).unwrap();
        assert!(!l.is_spooled(), "{name}");
        assert_eq!(&l.summary, s);
        same(
            all_reports(&l.results()),
            all_reports(&Results::new(s)),
            name,
        );
    }
    // a session in which every run passed, and one without runs
    for n in [0, 5] {
        let s = Summary::new(
            "online",
            3,
            (0..n).map(|k| RunResult::new(k, k as u64)).collect(),
        );
        let p = write_file(dir.path(), "p.json", &s);
        let l = read::load(std::slice::from_ref(&p)).unwrap();
        assert_eq!(l.is_spooled(), n > 0);
        same(
            all_reports(&l.results()),
            all_reports(&Results::new(&s)),
            "p.json",
        );
    }
}

/// The shards of a session read one run at a time merge into the summary that merging them
/// whole gives: the same reports, and the same refusals with the same messages.
#[test]
fn shards_read_one_run_at_a_time_merge_as_whole_ones() {
    use ioco_report::{merge, read};
    let dir = tempfile::tempdir().unwrap();
    let (_, _, full) = session(2_000);
    let shard = |k: usize, seed: u64, extra: Option<usize>| {
        let mut s = full.clone();
        s.seed = seed;
        s.runs.retain(|r| r.run % 3 == k || Some(r.run) == extra);
        s.verdict = s
            .runs
            .iter()
            .fold(RunVerdict::Pass, |v, r| v.worst(r.verdict));
        s.parameters
            .insert("shard".into(), format!("{}/3", k + 1).into());
        s.duration_ms = 100.0 * k as f64;
        s
    };
    let paths: Vec<_> = (0..3)
        .map(|k| write_file(dir.path(), &format!("s{k}.json"), &shard(k, 7, None)))
        .collect();
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let loaded = read::load(&paths).unwrap();
    assert!(loaded.is_spooled());
    let merged = merge::merge((0..3).map(|k| shard(k, 7, None)).collect(), &names).unwrap();
    assert_eq!(merged.runs.len(), full.runs.len());
    same(
        all_reports(&loaded.results()),
        all_reports(&Results::new(&merged)),
        "merged",
    );
    let whole = read::load_whole(&paths).unwrap();
    assert_eq!(whole.summary, merged);

    // refusals: a run in two shards (run 1 also in the third), another seed (said first)
    let msg = |paths: &[std::path::PathBuf]| match read::load(paths).unwrap_err() {
        read::LoadError::Merge(m) => m,
        e => panic!("{e:?}"),
    };
    let twice = write_file(dir.path(), "t.json", &shard(2, 7, Some(1)));
    let other = write_file(dir.path(), "o.json", &shard(2, 8, None));
    for set in [
        vec![paths[0].clone(), paths[1].clone(), twice.clone()],
        vec![paths[1].clone(), twice.clone(), other.clone()],
        vec![paths[1].clone(), paths[1].clone()],
    ] {
        let names: Vec<String> = set.iter().map(|p| p.display().to_string()).collect();
        let parts = set
            .iter()
            .map(|p| ioco_report::from_json(&std::fs::read_to_string(p).unwrap()).unwrap())
            .collect();
        let expected = merge::merge(parts, &names).unwrap_err();
        assert_eq!(msg(&set), expected);
    }
    assert!(msg(&[paths[0].clone(), paths[1].clone(), twice.clone()]).starts_with("run 1 is in "));
    assert!(msg(&[paths[1].clone(), twice, other]).contains("is of another session"));
}

/// A file that is not a results file gives the error (message, line, column) reading it
/// whole gives; unknown fields are ignored and fields may come in any order, as before.
#[test]
fn a_malformed_results_file_gives_the_error_of_reading_it_whole() {
    use ioco_report::read;
    let dir = tempfile::tempdir().unwrap();
    let (_, _, full) = session(30);
    let good = ioco_report::to_json(&full);
    let runs_at = good.find("\"runs\": [").unwrap();
    let cases: Vec<String> = vec![
        String::new(),
        "[]".into(),
        "{}".into(),
        "null".into(),
        good[..good.len() / 2].to_string(),
        good.clone() + " x",
        good.replacen("\"mode\"", "\"mode\": \"a\", \"mode\"", 1),
        good.replacen("\"runs\": [", "\"runs\": [], \"runs\": [", 1),
        good.replacen("\"seed\": 7", "\"seed\": -7", 1),
        good.replacen("\"verdict\": \"pass\"", "\"verdict\": \"maybe\"", 1),
        good.replacen("\"steps\": 2", "\"steps\": \"two\"", 1),
        good.replacen("\"runs\": [", "\"runs\": null, \"x\": [", 1),
        good.replacen("\"duration_ms\"", "\"duration\"", 1),
        // valid: an unknown field, the runs last
        good.replacen("{", "{\"extra\": [1, {\"runs\": 2}],", 1),
        format!(
            "{{{}, {}",
            &good[runs_at..good.len() - 2].replacen("\n  \"coverage\"", "\"coverage\"", 1),
            &good[1..runs_at]
        ),
        // a trailing comma in the runs, no runs, a key written with an escape, a runs
        // field inside another field, runs twice
        good.replacen("\n  ],\n  \"coverage\"", ",\n  ],\n  \"coverage\"", 1),
        good.replacen("\"runs\": [", "\"runs\" : [ ], \"x\": [", 1),
        good.replacen("\"runs\": [", "\"\\u0072uns\": [", 1),
        good.replacen(
            "{",
            "{\"p\": {\"runs\": [1, \"]\"]}, \"q\": \"\\\"runs\\\": [\",",
            1,
        ),
        good.replacen("{", "{\"runs\": [],", 1),
        good.replacen("{", "[", 1),
        // the array form of the derive
        serde_json::to_string(&(
            "online",
            7,
            "pass",
            Vec::<RunResult>::new(),
            CoverageSummary::default(),
            1.5,
        ))
        .unwrap(),
        serde_json::to_string(&("online", 7)).unwrap(),
    ];
    for (i, text) in cases.iter().enumerate() {
        let p = dir.path().join(format!("m{i}.json"));
        std::fs::write(&p, text).unwrap();
        // the visitor reads as the derive reads from the same reader: the same summary, or
        // the same error at the same place
        let derived = serde_json::from_reader::<_, Summary>(text.as_bytes());
        let visited = read::summary_from_reader(text.as_bytes(), &mut Some);
        match (&derived, &visited) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "case {i}"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "case {i}"),
            _ => panic!("case {i}: derived {derived:?}, visited {visited:?}"),
        }
        // split into its runs, when it is: the same summary, each run from its own line
        let split = read::split_runs(text.as_bytes(), &mut |r, line| {
            assert!(line.ends_with(b"\n") && !line[..line.len() - 1].contains(&b'\n'));
            assert_eq!(serde_json::from_slice::<RunResult>(&line).unwrap(), r);
            Some(r)
        });
        match (&derived, split) {
            (Ok(a), Some(b)) => assert_eq!(a, &b, "case {i}"),
            (Err(e), Some(_)) => panic!("case {i}: split, but {e}"),
            // not split: not valid, or a key with an escape, or not an object
            (Ok(_), None) => assert!(
                text.starts_with('[') || text.contains("\\u0072uns"),
                "case {i} not split"
            ),
            (Err(_), None) => {}
        }
        if i == cases.len() - 1 {
            assert!(
                read::split_runs(good.as_bytes(), &mut |r, _| Some(r)).is_some(),
                "a results file is split"
            );
        }
        let whole = ioco_report::from_json(text);
        let streamed = read::load(std::slice::from_ref(&p));
        match (whole, streamed) {
            (Ok(s), Ok(l)) => same(
                all_reports(&l.results()),
                all_reports(&Results::new(&s)),
                &format!("case {i}"),
            ),
            (Err(w), Err(read::LoadError::Parse { error, path })) => {
                assert_eq!(path, p);
                assert_eq!(
                    (error.to_string(), error.line(), error.column()),
                    (w.to_string(), w.line(), w.column()),
                    "case {i}: {text:.300}"
                );
            }
            (w, s) => panic!("case {i}: whole {w:?}, streamed {s:?}"),
        }
    }
    assert!(matches!(
        read::load(&[dir.path().join("none.json")]),
        Err(read::LoadError::Read { .. })
    ));
}

/// `ioco replay` reads the run it replays without keeping the others.
#[test]
fn the_run_to_replay_is_found_reading_one_run_at_a_time() {
    use ioco_report::read::find_run;
    let (_, _, full) = session(300);
    let json = ioco_report::to_json(&full);
    let (r, n) = find_run(json.as_bytes(), Some(200)).unwrap();
    assert_eq!((r, n), (Some(run(200)), 300));
    let (r, _) = find_run(json.as_bytes(), None).unwrap();
    assert_eq!(r.as_ref(), full.first_failure());
    assert_eq!(find_run(json.as_bytes(), Some(300)).unwrap(), (None, 300));
    let passing = Summary::new("online", 1, (4..6).map(|k| RunResult::new(k, 0)).collect());
    let (r, _) = find_run(ioco_report::to_json(&passing).as_bytes(), None).unwrap();
    assert_eq!(r.map(|r| r.run), Some(4));
    assert!(find_run(&b"{\"mode\": 1"[..], None).is_err());
    // from a file, split into its runs: the same
    let dir = tempfile::tempdir().unwrap();
    let path = write_file(dir.path(), "r.json", &full);
    for k in [None, Some(0), Some(200), Some(300)] {
        assert_eq!(
            ioco_report::read::find_run_in(&path, k).unwrap(),
            find_run(json.as_bytes(), k).unwrap()
        );
    }
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, &json[..json.len() / 2]).unwrap();
    assert!(ioco_report::read::find_run_in(&bad, None).is_err());
}
