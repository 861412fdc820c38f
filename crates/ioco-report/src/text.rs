//! The human summary printed at the end of a test session: the overall verdict and counts,
//! coverage, then every failing, erroneous or inconclusive run with its seed, the failing trace,
//! the observed and the allowed outputs, and the shrunk trace.

use crate::{counts, duration, fraction, has_coverage, param, run_name, trace, visible};
use ioco_engine::result::{RunResult, RunVerdict, Summary};
use std::fmt::Write;

/// How much [`render`] shows.
#[derive(Clone, Debug)]
pub struct TextOptions {
    /// At most this many non-passing runs are described (the rest are counted).
    pub max_runs: usize,
    /// Traces longer than this show only their last `max_trace` labels.
    pub max_trace: usize,
    /// Also list passing runs, one line each.
    pub verbose: bool,
}

impl Default for TextOptions {
    fn default() -> Self {
        TextOptions {
            max_runs: 5,
            max_trace: 40,
            verbose: false,
        }
    }
}

/// `s` with control characters escaped (`\u{1b}`, `\n`), so that what a SUT wrote cannot move
/// the cursor or recolour the user's terminal.
fn upper(v: RunVerdict) -> String {
    v.to_string().to_uppercase()
}

/// The summary as plain text (no colours), ending in a newline.
pub fn render(summary: &Summary, opts: &TextOptions) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{}: {}, {} testing, seed {}, {} steps in {}",
        upper(summary.verdict),
        counts(summary),
        summary.mode,
        summary.seed,
        summary.total_steps(),
        duration(summary.duration_ms)
    );
    // The model and the SUT on lines of their own, the other parameters on one line.
    let mut rest = Vec::new();
    for (k, v) in &summary.parameters {
        if matches!(k.as_str(), "model" | "spec" | "sut") {
            let _ = writeln!(o, "  {k}: {}", visible(&param(v)));
        } else {
            rest.push(format!("{k}={}", param(v)));
        }
    }
    if !rest.is_empty() {
        let _ = writeln!(o, "  with {}", visible(&rest.join(", ")));
    }
    let c = &summary.coverage;
    if has_coverage(c) {
        let _ = writeln!(
            o,
            "coverage{}: states {}, transitions {}, {} suspension states",
            crate::coverage_scope(summary),
            fraction(c.states_visited, c.states_total, c.state_ratio()),
            fraction(
                c.transitions_visited,
                c.transitions_total,
                c.transition_ratio()
            ),
            c.suspension_states
        );
    }
    let quiet = summary.quiescence();
    if !quiet.is_empty() {
        let _ = writeln!(o, "quiescence: δ established {}", quiet.describe());
    }
    let bad: Vec<&RunResult> = summary
        .runs
        .iter()
        .filter(|r| r.verdict != RunVerdict::Pass)
        .collect();
    // Failures first: they are what the user wants to see.
    let mut shown: Vec<&RunResult> = bad
        .iter()
        .copied()
        .filter(|r| r.verdict == RunVerdict::Fail)
        .chain(
            bad.iter()
                .copied()
                .filter(|r| r.verdict != RunVerdict::Fail),
        )
        .collect();
    let hidden = shown.len().saturating_sub(opts.max_runs);
    shown.truncate(opts.max_runs);
    for r in shown {
        o.push('\n');
        run(&mut o, r, opts);
    }
    if hidden > 0 {
        let _ = writeln!(
            o,
            "\n… and {hidden} more non-passing runs (see the JSON report)"
        );
    }
    if opts.verbose {
        let passing: Vec<&RunResult> = summary
            .runs
            .iter()
            .filter(|r| r.verdict == RunVerdict::Pass)
            .collect();
        if !passing.is_empty() {
            o.push('\n');
        }
        for r in passing {
            o.push_str(&passing_line(r));
        }
    }
    o
}

/// The line of a passing run in the verbose listing.
fn passing_line(r: &RunResult) -> String {
    format!(
        "{} pass (seed {}, {} steps, {})\n",
        visible(&run_name(r)),
        r.seed,
        r.steps,
        duration(r.duration_ms)
    )
}

/// [`render`] of the results to `w`: with a spool, the verbose listing of the passing runs
/// is read back one run at a time (the text of the summary that holds every run, without the
/// runs in memory).
pub fn write(
    results: &crate::Results<'_>,
    opts: &TextOptions,
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    w.write_all(render(results.summary, opts).as_bytes())?;
    if opts.verbose && results.is_spooled() && results.summary.count(RunVerdict::Pass) > 0 {
        w.write_all(b"\n")?;
        results.each_indexed(&mut |_, r| {
            if r.verdict == RunVerdict::Pass {
                w.write_all(passing_line(r).as_bytes())?;
            }
            Ok(())
        })?;
    }
    Ok(())
}

fn clipped(labels: &ioco_engine::Trace, max: usize) -> String {
    let t = if labels.len() <= max {
        trace(labels)
    } else {
        let skip = labels.len() - max;
        format!("… ({skip} earlier) {}", trace(labels.iter().skip(skip)))
    };
    visible(&t)
}

fn run(o: &mut String, r: &RunResult, opts: &TextOptions) {
    let _ = writeln!(
        o,
        "{} {} (seed {}, {} steps, {})",
        visible(&run_name(r)),
        upper(r.verdict),
        r.seed,
        r.steps,
        duration(r.duration_ms)
    );
    if let Some(e) = &r.error {
        let _ = writeln!(o, "  error     {}", visible(e));
    }
    let _ = writeln!(o, "  trace     {}", clipped(&r.trace, opts.max_trace));
    if let Some(f) = &r.failure {
        let _ = writeln!(o, "  observed  {}", visible(&f.observed));
        let allowed = if f.allowed.is_empty() {
            "-".to_string()
        } else {
            f.allowed.join(" ")
        };
        let _ = writeln!(o, "  allowed   {}", visible(&allowed));
        let _ = writeln!(o, "  reason    {}", visible(&f.reason));
    }
    if let Some(s) = &r.shrunk {
        let _ = writeln!(
            o,
            "  shrunk    {}  ({} inputs, {} replays{})",
            clipped(&s.trace, opts.max_trace),
            s.inputs.len(),
            s.replays,
            s.stopped
                .as_ref()
                .map(|w| format!("; not minimal: {w}"))
                .unwrap_or_default()
        );
        if let Some(f) = &s.failure {
            if Some(f) != r.failure.as_ref() {
                let _ = writeln!(
                    o,
                    "            observed {} — {}",
                    visible(&f.observed),
                    visible(&f.reason)
                );
            }
        }
    }
    if let Some(n) = &r.note {
        let _ = writeln!(o, "  note      {}", visible(n));
    }
    if let Some(e) = &r.stderr {
        let lines: Vec<&str> = e.lines().collect();
        let tail = &lines[lines.len().saturating_sub(5)..];
        let _ = writeln!(o, "  stderr    (last {} lines)", tail.len());
        for l in tail {
            let _ = writeln!(o, "    | {}", visible(l));
        }
    }
}
