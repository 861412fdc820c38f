//! Property tests: every rendering copes with whatever a SUT may write (XML and Markdown
//! metacharacters, control characters, backticks, long lines) — JUnit always reads back with
//! the right counts, the Markdown table has one row per run, JSON round-trips.

use ioco_engine::result::{Failure, RunResult, RunVerdict, Shrunk, Summary};
use proptest::prelude::*;

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z_]{1,8}[?!]",
        Just("δ".to_string()),
        "\\PC{0,12}",
        "[<>&\"'|`*_\\\\\n\r\t\u{1b}\u{0}]{0,6}",
    ]
}

fn run(k: usize) -> impl Strategy<Value = RunResult> {
    (
        prop_oneof![
            Just(RunVerdict::Pass),
            Just(RunVerdict::Fail),
            Just(RunVerdict::Error),
            Just(RunVerdict::Inconclusive)
        ],
        any::<u64>(),
        proptest::collection::vec(text(), 0..8),
        text(),
        proptest::collection::vec(text(), 0..3),
        proptest::option::of(text()),
        proptest::option::of(prop_oneof![text(), "[a-z]{1,4}\n[a-z]{1,4}"]),
        any::<bool>(),
        0.0f64..1e7,
    )
        .prop_map(
            move |(verdict, seed, trace, observed, allowed, stderr, test, shrunk, ms)| {
                let mut r = RunResult::new(k, seed);
                r.verdict = verdict;
                r.steps = trace.len();
                r.trace = trace.iter().collect();
                r.duration_ms = ms;
                r.stderr = stderr;
                r.test = test;
                match verdict {
                    RunVerdict::Fail => {
                        let f = Failure {
                            observed,
                            allowed,
                            reason: "not allowed".into(),
                        };
                        if shrunk {
                            r.shrunk = Some(Shrunk {
                                inputs: trace
                                    .iter()
                                    .filter(|t| t.ends_with('?'))
                                    .cloned()
                                    .collect(),
                                trace: r.trace.clone(),
                                failure: Some(f.clone()),
                                replays: 3,
                                stopped: None,
                            });
                        }
                        r.failure = Some(f);
                    }
                    RunVerdict::Error => r.error = Some(observed),
                    RunVerdict::Inconclusive => r.note = Some(observed),
                    RunVerdict::Pass => {}
                }
                r
            },
        )
}

fn summary() -> impl Strategy<Value = Summary> {
    (0usize..6, any::<u64>())
        .prop_flat_map(|(n, seed)| {
            let runs: Vec<_> = (0..n).map(run).collect();
            (runs, Just(seed))
        })
        .prop_map(|(runs, seed)| Summary::new("online", seed, runs))
}

/// The Markdown text outside fenced blocks and code spans (CommonMark rules: a code span
/// ends at the next backtick run of the same length; a backslash escapes a backtick outside).
fn outside_code(md: &str) -> String {
    let mut out = String::new();
    let mut fence: Option<String> = None;
    for line in md.lines() {
        let run: String = line.chars().take_while(|&c| c == '`').collect();
        match &fence {
            Some(f) if line.trim_end() == f => fence = None,
            Some(_) => {}
            None if run.len() >= 3 => fence = Some(run),
            None => {
                let c: Vec<char> = line.chars().collect();
                let mut i = 0;
                while i < c.len() {
                    if c[i] == '\\' {
                        i += 2;
                        continue;
                    }
                    if c[i] == '`' {
                        let n = c[i..].iter().take_while(|&&x| x == '`').count();
                        let mut j = i + n;
                        let mut closed = None;
                        while j < c.len() {
                            if c[j] == '`' {
                                let m = c[j..].iter().take_while(|&&x| x == '`').count();
                                if m == n {
                                    closed = Some(j + m);
                                    break;
                                }
                                j += m;
                            } else {
                                j += 1;
                            }
                        }
                        match closed {
                            Some(end) => i = end,
                            None => i += n,
                        }
                        continue;
                    }
                    out.push(c[i]);
                    i += 1;
                }
                out.push('\n');
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn renderings_are_well_formed(s in summary()) {
        let xml = ioco_report::junit::render(&s).unwrap();
        let back = quick_junit::Report::deserialize_from_str(&xml).unwrap();
        prop_assert_eq!(back.tests, s.runs.len());
        prop_assert_eq!(back.failures, s.count(RunVerdict::Fail));
        prop_assert_eq!(back.errors, s.count(RunVerdict::Error));

        let md = ioco_report::markdown::render(&s);
        // One row per run, under the header row "| run | seed | ...".
        let rows = md.lines().filter(|l| l.starts_with("| run ")).count();
        let header = usize::from(!s.runs.is_empty());
        prop_assert_eq!(rows, s.runs.len() + header, "{}", md);
        // Every non-passing run has a section whose heading is one line.
        let sections = md.lines().filter(|l| l.starts_with("## run ")).count();
        prop_assert_eq!(sections, s.runs.iter().filter(|r| r.verdict != RunVerdict::Pass).count());
        // No control character, and no HTML outside code: a SUT's `<img onerror=…>` or ESC
        // bytes never become markup.
        prop_assert!(!md.chars().any(|c| c.is_control() && c != '\n'), "{:?}", md);
        let prose = outside_code(&md);
        prop_assert!(!prose.contains('<'), "raw `<` outside code in {:?}", md);

        let opts = ioco_report::text::TextOptions { verbose: true, ..Default::default() };
        let t = ioco_report::text::render(&s, &opts);
        // Nothing the SUT wrote reaches the terminal as a control character.
        prop_assert!(!t.chars().any(|c| c.is_control() && c != '\n'), "{:?}", t);
        let first_line = t.lines().next().unwrap_or_default().to_string();
        prop_assert!(first_line.starts_with(&s.verdict.to_string().to_uppercase()));

        let j = ioco_report::to_json(&s);
        prop_assert_eq!(ioco_report::from_json(&j).unwrap(), s);
    }
}
