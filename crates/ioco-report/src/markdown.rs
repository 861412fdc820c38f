//! A Markdown report (GitHub flavoured): a table of the session, a table of the runs, and one
//! section per non-passing run with its trace, observation and shrunk trace.

use crate::{
    counts, duration, fraction, has_coverage, param, run_name, trace, visible, visible_lines,
};
use ioco_engine::result::{RunResult, RunVerdict, Summary};
use std::fmt::Write;

/// Runs listed in the table of runs when every run is listed; above this, only the
/// non-passing ones are.
pub const MAX_TABLE: usize = 50;

/// Text in a table cell: `|` and line breaks escaped.
fn cell(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('\n', " ")
}

/// Text from outside (a SUT's line, a test's name, a reason quoting either) in prose: control
/// characters written as escapes, HTML metacharacters and Markdown emphasis, link and code
/// characters as character references, so it renders as the text it is and never as markup.
fn prose(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in visible(s).chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            // Numeric references rather than backslash escapes: they cannot be undone by
            // a backslash before them, and `cell` finds no backslash to double.
            '`' | '*' | '_' | '[' | ']' | '~' | '\\' => {
                let _ = write!(o, "&#{};", c as u32);
            }
            c => o.push(c),
        }
    }
    o
}

/// An inline code span that survives backticks in `s` (control characters, line breaks
/// included, written as escapes: a code span is one line).
fn code(s: &str) -> String {
    let s = &visible(s);
    if s.is_empty() {
        // "``" would be a backtick run, not an empty span: it would pair with a later one.
        return "` `".into();
    }
    let mut longest = 0;
    let mut cur = 0;
    for ch in s.chars() {
        if ch == '`' {
            cur += 1;
            longest = longest.max(cur);
        } else {
            cur = 0;
        }
    }
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// A fenced block that survives backtick runs in `s` (control characters other than line
/// breaks written as escapes).
fn block(o: &mut String, s: &str) {
    let s = &visible_lines(s);
    let mut fence = "```".to_string();
    while s.contains(&fence) {
        fence.push('`');
    }
    let _ = writeln!(o, "{fence}text\n{s}\n{fence}");
}

fn verdict(v: RunVerdict) -> String {
    match v {
        RunVerdict::Pass => "pass".into(),
        other => format!("**{other}**"),
    }
}

/// The summary as Markdown, ending in a newline.
pub fn render(summary: &Summary) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "# ioco test report: {}\n",
        verdict(summary.verdict).to_uppercase()
    );
    let _ = writeln!(o, "| | |\n| --- | --- |");
    let _ = writeln!(o, "| mode | {} |", cell(&prose(&summary.mode)));
    let _ = writeln!(o, "| seed | {} |", summary.seed);
    let _ = writeln!(o, "| runs | {} |", counts(summary));
    let _ = writeln!(o, "| steps | {} |", summary.total_steps());
    let _ = writeln!(o, "| time | {} |", duration(summary.duration_ms));
    let c = &summary.coverage;
    if has_coverage(c) {
        let _ = writeln!(
            o,
            "| state coverage | {}{} |",
            fraction(c.states_visited, c.states_total, c.state_ratio()),
            crate::coverage_scope(summary)
        );
        let _ = writeln!(
            o,
            "| transition coverage | {}{} |",
            fraction(
                c.transitions_visited,
                c.transitions_total,
                c.transition_ratio()
            ),
            crate::coverage_scope(summary)
        );
        let _ = writeln!(o, "| suspension states | {} |", c.suspension_states);
    }
    for (k, v) in &summary.parameters {
        let _ = writeln!(o, "| {} | {} |", cell(&prose(k)), code(&cell(&param(v))));
    }

    // (passing runs the session did not keep are never listed)
    let all = summary.omitted.is_empty() && summary.runs.len() <= MAX_TABLE;
    let listed: Vec<&RunResult> = summary
        .runs
        .iter()
        .filter(|r| all || r.verdict != RunVerdict::Pass)
        .collect();
    if !listed.is_empty() {
        let _ = writeln!(o, "\n## Runs\n");
        if !all {
            let _ = writeln!(
                o,
                "{} passing runs are not listed.\n",
                summary.count(RunVerdict::Pass)
            );
        }
        let _ = writeln!(
            o,
            "| run | seed | verdict | steps | time | observed | allowed |\n| ---: | ---: | --- | ---: | ---: | --- | --- |"
        );
        for r in &listed {
            let (observed, allowed) = match &r.failure {
                Some(f) => (
                    code(&f.observed),
                    f.allowed
                        .iter()
                        .map(|a| code(a))
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
                None => (String::new(), String::new()),
            };
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} | {} | {} | {} |",
                cell(&prose(&run_name(r))),
                r.seed,
                verdict(r.verdict),
                r.steps,
                duration(r.duration_ms),
                cell(&observed),
                cell(&allowed)
            );
        }
    }
    for r in summary
        .runs
        .iter()
        .filter(|r| r.verdict != RunVerdict::Pass)
    {
        details(&mut o, r);
    }
    o
}

/// [`render`] of the results: the runs table lists every run of a session of at most
/// [`MAX_TABLE`] runs (read back from a spool), else the runs that did not pass, all of which
/// the summary holds.
pub fn render_results(results: &crate::Results<'_>) -> std::io::Result<String> {
    Ok(match results.materialise(MAX_TABLE)? {
        Some(all) => render(&all),
        None => render(results.summary),
    })
}

fn details(o: &mut String, r: &RunResult) {
    let title = prose(&run_name(r));
    let _ = writeln!(o, "\n## {title}: {} (seed {})\n", r.verdict, r.seed);
    if let Some(f) = &r.failure {
        let allowed = if f.allowed.is_empty() {
            "nothing".to_string()
        } else {
            f.allowed
                .iter()
                .map(|a| code(a))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            o,
            "Observed {}, allowed {allowed}: {}.\n",
            code(&f.observed),
            prose(f.reason.trim_end_matches('.'))
        );
    }
    if let Some(e) = &r.error {
        let _ = writeln!(o, "Error: {}\n", prose(e));
    }
    let _ = writeln!(o, "Trace ({} steps):\n", r.trace.len());
    block(o, &trace(&r.trace));
    if let Some(s) = &r.shrunk {
        let _ = writeln!(
            o,
            "\nShrunk to {} inputs in {} replays{}:\n",
            s.inputs.len(),
            s.replays,
            s.stopped
                .as_ref()
                .map(|w| format!(" (not minimal: {})", prose(w)))
                .unwrap_or_default()
        );
        block(o, &trace(&s.trace));
        if let Some(f) = s
            .failure
            .as_ref()
            .filter(|&f| Some(f) != r.failure.as_ref())
        {
            let _ = writeln!(
                o,
                "\nThe shrunk run observes {}: {}.",
                code(&f.observed),
                prose(f.reason.trim_end_matches('.'))
            );
        }
    }
    if let Some(n) = &r.note {
        let _ = writeln!(o, "\nNote: {}", prose(n));
    }
    if let Some(e) = &r.stderr {
        let _ = writeln!(o, "\nStandard error of the SUT (tail):\n");
        block(o, e.trim_end());
    }
}
