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
