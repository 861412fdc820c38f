//! A self-contained HTML report: one file with inline CSS, SVG and a little script, no
//! network, readable offline and attachable as a CI artefact.
//!
//! It shows the verdict, the command, the seed and how to replay the failing run; the model
//! as a graph ([`crate::svg`]) with the coverage of the runs and the failing observation in
//! red; the followed run (the first Fail, else the first non-pass run) as a sequence chart
//! between the tester and the system under test, with the states the model may be in after
//! every step, the observation that failed and what was allowed; the shrunk trace; a table of
//! the runs; the parameters (switch coverage of data sessions and suites among them).
//!
//! Every text from a model, a system under test or a command line goes through
//! [`crate::esc`]; the script reads only `data-` attributes, never text of the page as code.
//! Invariants the browser test checks: the failing step has class `step failing`; the script
//! marks the nodes the model was in before it `current` and sets `data-ready` on `<body>`.

use crate::graph::Graph;
use crate::walk::Focus;
use crate::{counts, duration, esc, has_coverage, param, run_name};
use ioco_engine::result::{RunResult, RunVerdict, Summary};
use std::fmt::Write;

/// Steps of the followed run drawn in the sequence chart (the last ones, when it is longer).
pub const MAX_CHART_STEPS: usize = 400;
/// Runs listed in the table (the non-passing ones first).
pub const MAX_TABLE_RUNS: usize = 500;
/// Failing runs drawn as sequence charts (the followed run first, then in run order).
pub const MAX_CHARTS: usize = 20;
/// Rows of the runs table shown at once (the script pages through the rest).
pub const TABLE_PAGE: usize = 50;

/// What the report knows besides the summary.
#[derive(Clone, Debug, Default)]
pub struct Context {
    /// The command line that made the results.
    pub command: Option<String>,
    /// Where the JSON of the results is (for the replay command).
    pub result_file: Option<String>,
    /// The model with coverage, when it could be drawn.
    pub graph: Option<Graph>,
    /// Why there is no picture of the model (too large, not readable, ...).
    pub no_graph: Option<String>,
    /// The followed run, step by step (node indices of `graph`).
    pub focus: Option<Focus>,
    /// Runs whose steps the model did not follow to their end (the model changed?).
    pub diverged: usize,
    /// Runs not counted in the coverage (the walk's budget was spent).
    pub unwalked: usize,
}

const CSS: &str = r#"
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
header{padding:18px 28px;color:#fff}
header.pass{background:#1a7f37}header.fail{background:#cf222e}header.error{background:#6e4a00}header.inconclusive{background:#9a6700}
header h1{margin:0;font-size:26px}header p{margin:4px 0 0}
main{padding:8px 28px 40px;max-width:1400px}
section{background:#fff;border:1px solid #d0d7de;border-radius:8px;margin:16px 0;padding:12px 18px;overflow-x:auto}
h2{font-size:18px;margin:4px 0 10px}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
pre{background:#f6f8fa;padding:8px 10px;border-radius:6px;white-space:pre-wrap;word-break:break-all}
table{border-collapse:collapse}td,th{border-bottom:1px solid #eaeef2;padding:3px 10px;text-align:left;vertical-align:top}
th{background:#f6f8fa}
.v-pass{color:#1a7f37;font-weight:600}.v-fail{color:#cf222e;font-weight:600}.v-error{color:#6e4a00;font-weight:600}.v-inconclusive{color:#9a6700;font-weight:600}
.legend span{margin-right:16px}.in{color:#0969da}.out{color:#1a7f37}.delta{color:#6e7781}.bad{color:#cf222e}.start{color:#24292f}
svg text{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
svg.graph .node{cursor:default}svg.graph .node.current ellipse,svg.graph .node.current rect{stroke:#bf8700;stroke-width:4;fill:#fff8c5}
svg.graph .edge text{paint-order:stroke;stroke:#fff;stroke-width:3px}
.chart .step{cursor:pointer}.chart .step:hover rect.row{fill:#f6f8fa}.chart .step.selected rect.row{fill:#fff8c5}
.chart .step.failing rect.row{fill:#ffebe9}.chart .step.failing.selected rect.row{fill:#ffd8d3}
.note{color:#57606a}
"#;

const SCRIPT: &str = r#"
(function(){
  var graph=document.querySelector('svg.graph');
  function select(step){
    document.querySelectorAll('.chart .step.selected').forEach(function(s){s.classList.remove('selected');});
    step.classList.add('selected');
    if(!graph)return;
    graph.querySelectorAll('.node.current').forEach(function(n){n.classList.remove('current');});
    var at=(step.getAttribute('data-at')||'').split(' ');
    at.forEach(function(k){if(k==='')return;var n=graph.querySelector('.node[data-node="'+k+'"]');if(n)n.classList.add('current');});
    var info=document.getElementById('at-info');
    if(info)info.textContent=step.getAttribute('data-at-names')||'';
  }
  document.querySelectorAll('.chart .step').forEach(function(s){s.addEventListener('click',function(){select(s);});});
  var first=document.querySelector('.chart .step.failing')||document.querySelector('.chart .step:last-of-type');
  if(first)select(first);
  // the runs table: filter by text and verdict, a page of rows at a time
  var table=document.getElementById('runs-table');
  if(table){
    var rows=Array.prototype.slice.call(table.querySelectorAll('tr.run'));
    var size=parseInt(table.getAttribute('data-page'),10)||50, page=0;
    var text=document.getElementById('runs-filter'), verdict=document.getElementById('runs-verdict');
    var shown=document.getElementById('runs-page');
    function matching(){
      var t=(text.value||'').toLowerCase(), v=verdict.value;
      return rows.filter(function(r){return (v===''||r.classList.contains(v))&&(t===''||r.textContent.toLowerCase().indexOf(t)>=0);});
    }
    function show(){
      var m=matching(), pages=Math.max(1,Math.ceil(m.length/size));
      if(page>=pages)page=pages-1;if(page<0)page=0;
      rows.forEach(function(r){r.hidden=true;});
      m.slice(page*size,(page+1)*size).forEach(function(r){r.hidden=false;});
      shown.textContent=m.length===0?'no run matches':('runs '+(page*size+1)+'–'+Math.min(m.length,(page+1)*size)+' of '+m.length+' (page '+(page+1)+' of '+pages+')');
      table.setAttribute('data-shown',String(Math.min(size,Math.max(0,m.length-page*size))));
    }
    text.addEventListener('input',function(){page=0;show();});
    verdict.addEventListener('change',function(){page=0;show();});
    document.getElementById('runs-prev').addEventListener('click',function(){page--;show();});
    document.getElementById('runs-next').addEventListener('click',function(){page++;show();});
    show();
  }
  document.body.setAttribute('data-ready','yes');
})();
"#;

fn verdict_span(v: RunVerdict) -> String {
    format!(r#"<span class="v-{v}">{v}</span>"#)
}

/// The summary as one HTML page.
pub fn render(summary: &Summary, cx: &Context) -> String {
    render_results(&crate::Results::new(summary), cx)
        .expect("runs in memory are read without error")
}

/// The results as one HTML page: the listed runs are read once, and only those the page
/// shows are kept (the followed run, [`MAX_CHARTS`] failing ones, the [`MAX_TABLE_RUNS`] rows
/// of the table and the runs that did not pass).
pub fn render_results(results: &crate::Results<'_>, cx: &Context) -> std::io::Result<String> {
    let summary = results.summary;
    let mut o = String::with_capacity(64 * 1024);
    let v = summary.verdict;
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>ioco: {} — {}</title><style>{CSS}</style></head>\n<body data-verdict=\"{v}\">\n",
        v.to_string().to_uppercase(),
        esc(&summary.parameters.get("model").map(param).unwrap_or_default())
    );
    let _ = writeln!(
        o,
        r#"<header class="{v}"><h1>{}</h1><p>{}, {} testing, seed {}, {} steps in {}</p></header><main>"#,
        v.to_string().to_uppercase(),
        esc(&counts(summary)),
        esc(&summary.mode),
        summary.seed,
        summary.total_steps(),
        duration(summary.duration_ms)
    );
    session(&mut o, summary, cx);
    model(&mut o, summary, cx);
    // one pass over the runs: the followed one, the other failing ones, the table's
    let followed = match &cx.focus {
        Some(f) => Some(f.index),
        None => results.focus(),
    };
    let passing_rows =
        MAX_TABLE_RUNS.saturating_sub(summary.run_count() - summary.count(RunVerdict::Pass));
    let mut focus_run = None;
    let mut others: Vec<RunResult> = Vec::new();
    let mut undrawn = 0usize;
    let mut bad: Vec<RunResult> = Vec::new();
    let mut good: Vec<RunResult> = Vec::new();
    results.each_indexed(&mut |i, r| {
        if Some(i) == followed {
            focus_run = Some(r.clone());
        } else if r.verdict == RunVerdict::Fail {
            if others.len() < MAX_CHARTS.saturating_sub(1) {
                others.push(r.clone());
            } else {
                undrawn += 1;
            }
        }
        if r.verdict != RunVerdict::Pass {
            bad.push(r.clone());
        } else if good.len() < passing_rows {
            good.push(r.clone());
        }
        Ok(())
    })?;
    // the followed run with the model states of every step, then every other failing run
    if let Some(r) = &focus_run {
        match &cx.focus {
            Some(f) => chart(&mut o, r, f, cx.graph.as_ref(), true),
            None => chart(&mut o, r, &Focus::default(), None, true),
        }
    }
    for r in &others {
        chart(&mut o, r, &Focus::default(), None, false);
    }
    if undrawn > 0 {
        let _ = writeln!(
            o,
            "<p class=\"note\">{undrawn} more failing runs are not drawn; their traces are in the table of runs.</p>"
        );
    }
    runs(
        &mut o,
        bad.iter().chain(&good),
        summary.run_count() - results.omitted().runs,
    );
    o.push_str("</main>\n<script>");
    o.push_str(SCRIPT);
    o.push_str("</script>\n</body></html>\n");
    Ok(o)
}

fn session(o: &mut String, summary: &Summary, cx: &Context) {
    o.push_str("<section id=\"session\"><h2>Session</h2><table>\n");
    if let Some(c) = &cx.command {
        let _ = writeln!(
            o,
            "<tr><th>command</th><td><code>{}</code></td></tr>",
            esc(c)
        );
    }
    let _ = writeln!(
        o,
        "<tr><th>seed</th><td><code>{}</code></td></tr>",
        summary.seed
    );
    // one coverage figure per page: the model section's, counted over the runs shown, when
    // the model is drawn with it; else the session's own, saying what it counts
    let drawn = cx
        .graph
        .as_ref()
        .is_some_and(|g| g.node_coverage().is_some() || g.edge_coverage().is_some());
    for (k, val) in &summary.parameters {
        // fractions of switch coverage (data sessions, switch-coverage suites) as
        // percentages, here or with the picture of the model
        let shown = match val.as_f64() {
            Some(x) if k.ends_with("_coverage") && (0.0..=1.0).contains(&x) => {
                if drawn {
                    continue;
                }
                format!("{:.1}%", 100.0 * x)
            }
            _ => param(val),
        };
        let _ = writeln!(
            o,
            "<tr><th>{}</th><td><code>{}</code></td></tr>",
            esc(&k.replace('_', " ")),
            esc(&shown)
        );
    }
    let c = &summary.coverage;
    if has_coverage(c) && !drawn {
        let _ = writeln!(
            o,
            "<tr><th>coverage{}</th><td>states {}/{} ({:.1}%), transitions {}/{} ({:.1}%), {} suspension states</td></tr>",
            esc(&crate::coverage_scope(summary)),
            c.states_visited,
            c.states_total,
            100.0 * c.state_ratio(),
            c.transitions_visited,
            c.transitions_total,
            100.0 * c.transition_ratio(),
            c.suspension_states
        );
    }
    o.push_str("</table>\n");
    let bad = summary
        .runs
        .iter()
        .find(|r| r.verdict == RunVerdict::Fail)
        .or_else(|| summary.runs.iter().find(|r| r.verdict != RunVerdict::Pass));
    if let Some(r) = bad {
        let (cmd, complete) = crate::replay_command(summary, r, cx.result_file.as_deref());
        let mut notes = Vec::new();
        if cx.result_file.is_none() {
            notes.push(if summary.parameters.contains_key("merged") {
                format!("RESULT.json: the result file that holds run {}", r.run)
            } else {
                "RESULT.json: the file written with --json".to_string()
            });
        }
        if !complete {
            notes.push(
                "these results do not record the options of the system under test: add the \
                 ones it was tested with (--quiescence-marker, --timeout, --map, ...)"
                    .to_string(),
            );
        }
        let _ = writeln!(
            o,
            "<p>Replay {} (seed {}) against the same system, from the directory the results were made in{}:</p><pre id=\"replay\">{}</pre>",
            esc(&run_name(r)),
            r.seed,
            if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", esc(&notes.join("; ")))
            },
            esc(&cmd)
        );
    }
    o.push_str("</section>\n");
}

fn model(o: &mut String, summary: &Summary, cx: &Context) {
    o.push_str("<section id=\"model\"><h2>Model and coverage</h2>\n");
    match (&cx.graph, &cx.no_graph) {
        (Some(g), _) => {
            let mut line = Vec::new();
            // switch coverage of data sessions and switch-coverage suites (TAP19 Alg. 1)
            let pct = |k: &str| {
                summary
                    .parameters
                    .get(k)
                    .and_then(|v| v.as_f64())
                    .map(|x| format!("{:.1}%", 100.0 * x))
            };
            if let Some(x) = pct("switch_coverage") {
                line.push(format!("switch coverage {x}"));
            }
            if let (Some(a), Some(b)) = (pct("apriori_coverage"), pct("aposteriori_coverage")) {
                line.push(format!("switch coverage a priori {a}, a posteriori {b}"));
            }
            if let Some((a, b)) = g.node_coverage() {
                line.push(format!("states visited {a}/{b}"));
            }
            if let Some((a, b)) = g.edge_coverage() {
                line.push(format!("transitions taken {a}/{b}"));
            }
            let shrunk = summary.runs.iter().any(|r| r.shrunk.is_some());
            let _ = writeln!(
                o,
                r#"<p class="legend">{} by {}{}. <span class="in">── input ?</span><span class="out">╌╌ output !</span><span class="delta">·· δ</span><span class="bad">╌╌ failing observation</span><span class="start">→ initial state</span> ×N: how often; faint: never.</p>"#,
                esc(&line.join(", ")),
                esc(&counts(summary)),
                if shrunk {
                    " (not counting the replays of shrinking)"
                } else {
                    ""
                }
            );
            if cx.diverged > 0 {
                let _ = writeln!(
                    o,
                    "<p class=\"note\">{} run(s) left the model before their end (a label or step the model does not have: was the model changed after the run?); their coverage stops there.</p>",
                    cx.diverged
                );
            }
            if cx.unwalked > 0 {
                let _ = writeln!(
                    o,
                    "<p class=\"note\">{} run(s) are not counted in this coverage: walking runs through a data model asks the solver at every step, and the budget of steps for one report was spent.</p>",
                    cx.unwalked
                );
            }
            match crate::svg::too_large(g) {
                Some(why) => {
                    let _ = writeln!(o, "<p class=\"note\">Not drawn: {}.</p>", esc(&why));
                }
                None => {
                    o.push_str("<div class=\"picture\">");
                    o.push_str(&crate::svg::render(g, "model"));
                    o.push_str("</div>\n<p class=\"note\">Model states at the selected step: <span id=\"at-info\"></span></p>\n");
                }
            }
        }
        (None, Some(why)) => {
            let _ = writeln!(
                o,
                "<p class=\"note\">No picture of the model: {}.</p>",
                esc(why)
            );
        }
        (None, None) => {
            o.push_str("<p class=\"note\">No picture of the model.</p>\n");
        }
    }
    o.push_str("</section>\n");
}

/// The followed run as a sequence chart: tester on the left, the system under test on the
/// right, inputs left to right, outputs right to left, δ as a time-out on the tester's line.
/// `primary`: the followed run, whose elements carry the ids (`run`, `failure`, `shrunk`);
/// the other failing runs' sections are `run-K`, without model states.
fn chart(o: &mut String, r: &RunResult, f: &Focus, g: Option<&Graph>, primary: bool) {
    let steps: Vec<&str> = r.trace.iter().collect();
    let id = |name: &str| {
        if primary {
            format!(" id=\"{name}\"")
        } else {
            String::new()
        }
    };
    let _ = writeln!(
        o,
        "<section class=\"run\" id=\"{}\"><h2>{}: {} (seed {}, {} steps, {})</h2>",
        if primary {
            "run".to_string()
        } else {
            format!("run-{}", r.run)
        },
        esc(&run_name(r)),
        verdict_span(r.verdict),
        r.seed,
        r.steps,
        duration(r.duration_ms)
    );
    if let Some(fl) = &r.failure {
        let allowed = if fl.allowed.is_empty() {
            "nothing".to_string()
        } else {
            fl.allowed.join(", ")
        };
        let _ = writeln!(
            o,
            "<p{}>Observed <code class=\"bad\">{}</code>; allowed <code>{}</code>. {}</p>",
            id("failure"),
            esc(&fl.observed),
            esc(&allowed),
            esc(&fl.reason)
        );
    }
    if let Some(e) = &r.error {
        let _ = writeln!(o, "<p>Error: {}</p>", esc(e));
    }
    if let Some(n) = &r.note {
        let _ = writeln!(o, "<p class=\"note\">{}</p>", esc(n));
    }
    if r.step_ms.len() == steps.len() && !steps.is_empty() {
        o.push_str("<p class=\"note\">Left: each step's number and when it was seen since the run began (δ: when the quiescence time-out ended or the marker came).</p>\n");
    }
    let skip = steps.len().saturating_sub(MAX_CHART_STEPS);
    if skip > 0 {
        let _ = writeln!(
            o,
            "<p class=\"note\">The first {skip} steps are not drawn (the whole trace is in the table of runs).</p>"
        );
    }
    let names = |nodes: &[u32]| -> String {
        match g {
            Some(g) => nodes
                .iter()
                .filter_map(|&n| g.nodes.get(n as usize).map(|x| x.name.as_str()))
                .collect::<Vec<_>>()
                .join(", "),
            None => String::new(),
        }
    };
    let ids = |nodes: &[u32]| {
        nodes
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let row = 30.0;
    let (tx, sx) = (130.0, 490.0);
    let col = 580.0;
    let timed = r.step_ms.len() == steps.len();
    let shown = steps.len() - skip;
    let h = 60.0 + row * (shown as f64 + 1.0);
    // the other failing runs' charts are folded: the page stays short with many of them
    if !primary {
        let _ = writeln!(
            o,
            "<details><summary>sequence chart ({} steps)</summary>",
            steps.len() - skip
        );
    }
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="1100" height="{h:.0}" viewBox="0 0 1100 {h:.0}"><defs><marker id="sq-arr" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0L10,5L0,10z" fill="context-stroke"/></marker></defs>"#
    );
    let _ = writeln!(
        o,
        r##"<text x="{tx}" y="20" text-anchor="middle" font-weight="bold">tester</text><text x="{sx}" y="20" text-anchor="middle" font-weight="bold">system under test</text><text x="{col}" y="20" font-weight="bold">model states after the step</text><line x1="{tx}" y1="28" x2="{tx}" y2="{:.0}" stroke="#57606a"/><line x1="{sx}" y1="28" x2="{sx}" y2="{:.0}" stroke="#57606a"/>"##,
        h - 10.0,
        h - 10.0
    );
    let failing_step = f.refused.as_ref().map(|(k, _)| *k).or(
        if r.verdict == RunVerdict::Fail && !steps.is_empty() {
            Some(steps.len() - 1)
        } else {
            None
        },
    );
    for (k, label) in steps.iter().enumerate().skip(skip) {
        let y = 50.0 + row * (k - skip) as f64;
        let failing = failing_step == Some(k);
        // the states to show: after the step, or before a refused one
        let at: Vec<u32> = if failing {
            f.refused
                .as_ref()
                .map(|(_, b)| b.clone())
                .unwrap_or_default()
        } else {
            f.after.get(k + 1).cloned().unwrap_or_default()
        };
        let at_names = names(&at);
        let (colour, x1, x2, dash) = if *label == "δ" {
            ("#6e7781", tx, tx, "2 3")
        } else if label.contains('?') && !label.contains('!') || label.ends_with('?') {
            ("#0969da", tx, sx, "none")
        } else {
            ("#1a7f37", sx, tx, "7 4")
        };
        let colour = if failing { "#cf222e" } else { colour };
        let _ = write!(
            o,
            r##"<g class="step{}" data-step="{k}" data-at="{}" data-at-names="{}"><rect class="row" x="0" y="{:.0}" width="1100" height="{row}" fill="transparent"/><text x="8" y="{:.0}" fill="#57606a">{}</text>"##,
            if failing { " failing" } else { "" },
            esc(&ids(&at)),
            esc(&at_names),
            y - 18.0,
            y,
            k + 1
        );
        if timed {
            let _ = write!(
                o,
                r##"<text class="time" x="34" y="{:.0}" fill="#57606a">{}</text>"##,
                y,
                step_time(r.step_ms[k])
            );
        }
        if x1 == x2 {
            let _ = write!(
                o,
                r#"<path d="M{tx},{:.0} h60 v14 h-60" fill="none" stroke="{colour}" stroke-dasharray="{dash}"/><text x="{:.0}" y="{:.0}" fill="{colour}">δ (no output: quiescence)</text>"#,
                y - 12.0,
                tx + 68.0,
                y
            );
        } else {
            let _ = write!(
                o,
                r#"<line x1="{x1}" y1="{:.0}" x2="{x2}" y2="{:.0}" stroke="{colour}" stroke-width="1.6" stroke-dasharray="{dash}" marker-end="url(#sq-arr)"/><text x="{:.0}" y="{:.0}" text-anchor="middle" fill="{colour}">{}</text>"#,
                y - 4.0,
                y - 4.0,
                (tx + sx) / 2.0,
                y - 9.0,
                esc(&clip(label, 52))
            );
        }
        let side = if failing {
            match &r.failure {
                Some(fl) => format!(
                    "✗ not allowed; allowed: {}",
                    if fl.allowed.is_empty() {
                        "nothing".into()
                    } else {
                        fl.allowed.join(", ")
                    }
                ),
                None => "✗".into(),
            }
        } else {
            at_names.clone()
        };
        let _ = writeln!(
            o,
            r#"<text x="{col}" y="{:.0}" fill="{}">{}</text><title>{}</title></g>"#,
            y - 4.0,
            if failing { "#cf222e" } else { "#57606a" },
            esc(&clip(&side, 90)),
            esc(&format!("step {}: {label}\n{side}", k + 1))
        );
    }
    o.push_str("</svg>\n");
    if !primary {
        o.push_str("</details>\n");
    }
    if let Some(s) = &r.shrunk {
        let _ = writeln!(
            o,
            "<h2>Shrunk: {} input(s) in {} replay(s){}</h2><pre{}>{}</pre>",
            s.inputs.len(),
            s.replays,
            s.stopped
                .as_ref()
                .map(|w| format!(" (not minimal: {})", esc(w)))
                .unwrap_or_default(),
            id("shrunk"),
            esc(&crate::trace(&s.trace))
        );
        if let Some(fl) = &s.failure {
            let _ = writeln!(
                o,
                "<p>The shrunk run observes <code class=\"bad\">{}</code>: {}</p>",
                esc(&fl.observed),
                esc(&fl.reason)
            );
        }
    }
    if let Some(e) = &r.stderr {
        let _ = writeln!(
            o,
            "<h2>Standard error of the SUT (tail)</h2><pre>{}</pre>",
            esc(e.trim_end())
        );
    }
    o.push_str("</section>\n");
}

/// The time of a step since the start of its run: "12.3 ms", "4.56 s".
fn step_time(ms: f32) -> String {
    if ms < 1000.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{:.2} s", ms / 1000.0)
    }
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n - 1).collect::<String>() + "…"
    }
}

/// The table of runs: `listed` (the runs that did not pass first), of `total` listed runs.
fn runs<'r>(o: &mut String, listed: impl Iterator<Item = &'r RunResult>, total: usize) {
    let _ = writeln!(
        o,
        "<section id=\"runs\"><h2>Runs</h2><p class=\"filter\"><label>Filter <input id=\"runs-filter\" type=\"search\" placeholder=\"verdict, label, seed…\"></label> <select id=\"runs-verdict\"><option value=\"\">all verdicts</option><option value=\"fail\">fail</option><option value=\"error\">error</option><option value=\"inconclusive\">inconclusive</option><option value=\"pass\">pass</option></select> <button type=\"button\" id=\"runs-prev\">◀</button> <span id=\"runs-page\"></span> <button type=\"button\" id=\"runs-next\">▶</button></p><table id=\"runs-table\" data-page=\"{TABLE_PAGE}\"><tr><th>run</th><th>seed</th><th>verdict</th><th>steps</th><th>time</th><th>observed</th><th>allowed</th><th>trace</th></tr>"
    );
    let mut shown = 0;
    for r in listed.take(MAX_TABLE_RUNS) {
        shown += 1;
        let (obs, allowed) = match &r.failure {
            Some(f) => (f.observed.clone(), f.allowed.join(" ")),
            None => (String::new(), String::new()),
        };
        let _ = writeln!(
            o,
            "<tr class=\"run {}\"><td>{}</td><td class=\"mono\">{}</td><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td><td><code>{}</code></td><td><details><summary>{} labels</summary><code>{}</code></details></td></tr>",
            r.verdict,
            esc(&run_name(r)),
            r.seed,
            verdict_span(r.verdict),
            r.steps,
            duration(r.duration_ms),
            esc(&obs),
            esc(&allowed),
            r.trace.len(),
            esc(&crate::trace(&r.trace))
        );
    }
    o.push_str("</table>\n");
    let more = total.saturating_sub(shown);
    if more > 0 {
        let _ = writeln!(
            o,
            "<p class=\"note\">{more} more passing runs are not listed.</p>"
        );
    }
    o.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{Graph, Kind};
    use ioco_engine::result::Failure;
    use proptest::prelude::*;

    fn failing(text: &str) -> Summary {
        let mut r = RunResult::new(0, 9);
        r.verdict = RunVerdict::Fail;
        r.test = Some(text.into());
        r.trace = ["a?", text, "δ"].into_iter().collect();
        r.failure = Some(Failure {
            observed: text.into(),
            allowed: vec![text.into(), "b!".into()],
            reason: text.into(),
        });
        r.note = Some(text.into());
        r.stderr = Some(text.into());
        r.step_ms = vec![1.0, 2.5, 2003.0];
        let mut s = Summary::new("online", 1, vec![r]);
        s.parameters.insert(text.into(), text.into());
        s.parameters.insert("model".into(), text.into());
        s.parameters
            .insert("sut".into(), format!("process: {text}").into());
        s
    }

    fn graph(text: &str) -> Graph {
        let mut g = Graph {
            title: text.into(),
            ..Graph::default()
        };
        let a = g.node(text);
        let b = g.node("b");
        g.nodes[a].initial = true;
        g.edge(a, b, text, Kind::Input);
        g.edge(b, a, "x!", Kind::Output);
        g.edge(b, b, text, Kind::Quiescence);
        g
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn every_outside_string_is_escaped(text in ".{0,40}", tag in "<(script|img|iframe|/style|/svg|/script)[^>]{0,8}>") {
            let t = format!("{text}{tag}\"'&\u{1b}\u{0}");
            let cx = Context {
                command: Some(t.clone()),
                graph: Some(graph(&t)),
                focus: Some(Focus { index: 0, after: vec![vec![0], vec![1], vec![1]], refused: Some((2, vec![1])) }),
                ..Context::default()
            };
            let page = render(&failing(&t), &cx);
            // the only script element is the report's own, and nothing from outside opens a tag
            prop_assert_eq!(page.matches("<script").count(), 1);
            prop_assert_eq!(page.matches("</script").count(), 1);
            prop_assert_eq!(page.matches("</style").count(), 1);
            if !tag.contains("script") && !tag.contains("style") && !tag.contains("svg") {
                prop_assert!(!page.contains(&tag));
            }
            prop_assert!(!page.chars().any(|c| c.is_control() && c != '\n'));
            prop_assert!(page.contains("&lt;"));
            prop_assert!(page.contains("&amp;"));
        }
    }

    #[test]
    fn failing_step_and_replay_command() {
        let cx = Context {
            graph: Some(graph("s0")),
            focus: Some(Focus {
                index: 0,
                after: vec![vec![0], vec![1], vec![1]],
                refused: Some((2, vec![1])),
            }),
            result_file: Some("out/r.json".into()),
            ..Context::default()
        };
        let page = render(&failing("x!"), &cx);
        assert!(
            page.contains(r#"<g class="step failing" data-step="2" data-at="1""#),
            "{page}"
        );
        assert!(
            page.contains("ioco replay &#39;x!&#39; out/r.json --run 0 --sut &#39;x!&#39;"),
            "{page}"
        );
        assert!(page.contains(r#"data-name="s0""#));
        assert!(page.contains("<body data-verdict=\"fail\">"));
        // when each step was seen
        assert!(
            page.contains(">2.5 ms</text>") && page.contains(">2.00 s</text>"),
            "{page}"
        );
    }
}
