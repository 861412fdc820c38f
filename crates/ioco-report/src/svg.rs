//! A [`Graph`] as an SVG drawing, laid out by [`crate::layout`]: states as ellipses (verdict
//! leaves and the failing point as boxes), the initial ones with a thick border and an arrow
//! in; inputs solid blue (`?`), outputs dashed green (`!`), δ dotted grey, τ grey; with
//! coverage, visited parts filled or thickened by how often (counts in the tooltips and as
//! `×N`), unvisited ones faint; the failing observation red; the arrow into an initial state
//! in a colour of its own (near black), none of an action's.
//!
//! Edge labels are placed by [`crate::labels`] clear of every node and of each other (the
//! layout leaves room for them); a label placed away from its edge gets a dotted leader line
//! to it. A long label (the guard and update of a data model's switch) is wrapped: its guard
//! and its update on lines of their own, at most [`MAX_LINES`] lines of [`LINE_CHARS`]
//! characters; the whole label is in the edge's tooltip (`<title>`).
//!
//! Every text comes from a model or a system under test and is escaped ([`crate::esc`]).
//! Elements carry what the report's script needs: `class` (`node`, `edge`, the kind,
//! `visited`, `unvisited`, `failing`), `data-node` on nodes, `data-from`/`data-to` on edges.

use crate::esc;
use crate::graph::{Graph, Kind, Mark};
use crate::labels::{place, Placed, Rect, Request};
use crate::layout::{layout, Input, Layout, LOOP_R, LOOP_STEP};
use std::collections::HashMap;
use std::fmt::Write;

/// Nodes above this are not drawn (the page would be unreadable and slow).
pub const MAX_NODES: usize = 400;
/// Edges above this are not drawn.
pub const MAX_EDGES: usize = 2000;
/// Characters of a node name shown (the whole name is in the tooltip).
const NAME_CHARS: usize = 32;
/// Characters of a line of an edge label: longer labels (the guards and updates of a data
/// model) are wrapped at their guard, their update and spaces.
pub const LINE_CHARS: usize = 36;
/// Lines of an edge label shown (the whole label is in the tooltip).
pub const MAX_LINES: usize = 4;
const HEIGHT: f64 = 34.0;
/// The width of a character of the pictures' text, 12 px monospace (0.6 em, and a little
/// more: the boxes of labels err on the large side).
pub const CHAR_W: f64 = 7.4;
/// The distance between the lines of a label.
pub const LINE_H: f64 = 15.0;
/// The first baseline of a label below the top of its box.
pub const ASCENT: f64 = 11.0;
/// The colour of the arrow into an initial state: none of an action's.
const START: &str = "#24292f";

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n - 1).collect::<String>() + "…"
    }
}

fn width(name: &str, visits: Option<u64>) -> f64 {
    let extra = visits
        .map(|v| format!(" ×{v}").chars().count())
        .unwrap_or(0);
    ((clip(name, NAME_CHARS).chars().count() + extra) as f64 * 7.4 + 28.0).max(44.0)
}

/// `text` in lines of at most `n` characters, broken at spaces (a longer word is clipped).
fn break_at_spaces(text: &str, n: usize, out: &mut Vec<String>) {
    let mut line = String::new();
    for word in text.split(' ') {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > n {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push(line);
    }
    for l in out.iter_mut() {
        *l = clip(l, n);
    }
}

/// An edge label as the lines drawn: a short one as it is; a long one with its guard
/// (`[…]`) and its update (`{…}`) on lines of their own, lines broken at spaces, at most
/// [`MAX_LINES`] of them (the last ending in `…` when there is more).
pub fn label_lines(label: &str) -> Vec<String> {
    if label.chars().count() <= LINE_CHARS {
        return vec![label.to_string()];
    }
    let mut parts: Vec<String> = Vec::new();
    let mut rest = label;
    // break before ` [` (a guard) and ` {` (an update), not at the very start
    while let Some(i) = rest
        .match_indices(" [")
        .chain(rest.match_indices(" {"))
        .map(|m| m.0)
        .filter(|&i| i > 0)
        .min()
    {
        parts.push(rest[..i].to_string());
        rest = &rest[i + 1..];
    }
    parts.push(rest.to_string());
    let mut lines = Vec::new();
    for p in parts {
        break_at_spaces(p.trim(), LINE_CHARS, &mut lines);
    }
    if lines.len() > MAX_LINES {
        lines.truncate(MAX_LINES);
        let last = &mut lines[MAX_LINES - 1];
        *last = clip(last, LINE_CHARS - 1) + "…";
        if last.ends_with("……") {
            last.pop();
        }
    }
    lines
}

/// The lines of an edge's label as drawn (with its count) and the size of their box.
fn edge_text(e: &crate::graph::Edge) -> (Vec<String>, (f64, f64)) {
    let mut lines = label_lines(&e.label);
    if let Some(v) = e.visits {
        let last = lines.len() - 1;
        lines[last].push_str(&format!(" ×{v}"));
    }
    let chars = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let size = (chars as f64 * CHAR_W, lines.len() as f64 * LINE_H);
    (lines, size)
}

/// Why a graph is not drawn, if it is too large.
pub fn too_large(g: &Graph) -> Option<String> {
    if g.nodes.len() > MAX_NODES || g.edges.len() > MAX_EDGES {
        Some(format!(
            "the model has {} states and {} transitions; pictures are drawn up to {MAX_NODES} \
             states and {MAX_EDGES} transitions",
            g.nodes.len(),
            g.edges.len()
        ))
    } else {
        None
    }
}

/// The graph as an `<svg>` element; `id` makes its marker ids unique in a page.
pub fn render(g: &Graph, id: &str) -> String {
    let widths: Vec<f64> = g.nodes.iter().map(|n| width(&n.name, n.visits)).collect();
    let edges: Vec<(usize, usize)> = g.edges.iter().map(|e| (e.from, e.to)).collect();
    let texts: Vec<(Vec<String>, (f64, f64))> = g.edges.iter().map(edge_text).collect();
    let sizes: Vec<(f64, f64)> = texts.iter().map(|t| t.1).collect();
    let roots: Vec<usize> = (0..g.nodes.len()).filter(|&i| g.nodes[i].initial).collect();
    let lay = layout(&Input {
        widths: &widths,
        height: HEIGHT,
        edges: &edges,
        roots: &roots,
        labels: &sizes,
    });
    draw(g, &lay, &widths, &texts, id)
}

const COLOURS: [(&str, &str); 7] = [
    ("in", "#0969da"),
    ("out", "#1a7f37"),
    ("delta", "#6e7781"),
    ("tau", "#8c959f"),
    ("fail", "#cf222e"),
    ("dim", "#c8ccd1"),
    ("start", START),
];

/// Points along a quadratic (3 points) or cubic (4 points) Bézier curve.
fn bezier(p: &[(f64, f64)]) -> Vec<(f64, f64)> {
    (0..=16)
        .map(|i| {
            let t = i as f64 / 16.0;
            let u = 1.0 - t;
            if p.len() == 3 {
                (
                    u * u * p[0].0 + 2.0 * u * t * p[1].0 + t * t * p[2].0,
                    u * u * p[0].1 + 2.0 * u * t * p[1].1 + t * t * p[2].1,
                )
            } else {
                let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
                (
                    a * p[0].0 + b * p[1].0 + c * p[2].0 + d * p[3].0,
                    a * p[0].1 + b * p[1].1 + c * p[2].1 + d * p[3].1,
                )
            }
        })
        .collect()
}

/// The box of node `i` and, for an initial node, the start of the arrow into it.
fn node_box(lay: &Layout, widths: &[f64], i: usize) -> Rect {
    let (x, y) = lay.pos[i];
    Rect::at(x - widths[i] / 2.0, y - HEIGHT / 2.0, widths[i], HEIGHT)
}

fn start_from(lay: &Layout, widths: &[f64], i: usize) -> (f64, f64) {
    let (x, y) = lay.pos[i];
    (x - widths[i] / 2.0 - 26.0, y - HEIGHT / 2.0 - 14.0)
}

fn draw(
    g: &Graph,
    lay: &Layout,
    widths: &[f64],
    texts: &[(Vec<String>, (f64, f64))],
    id: &str,
) -> String {
    let id = esc(id);
    // the horizontal extent of each layer's nodes, for routing edges around them
    let depth = lay.layer.iter().max().map_or(0, |m| m + 1);
    let mut extent = vec![(f64::MAX, f64::MIN); depth];
    for (i, &l) in lay.layer.iter().enumerate() {
        extent[l].0 = extent[l].0.min(lay.pos[i].0 - widths[i] / 2.0);
        extent[l].1 = extent[l].1.max(lay.pos[i].0 + widths[i] / 2.0);
    }
    let centre = lay.size.0 / 2.0;
    let (mut lanes_left, mut lanes_right) = (0usize, 0usize);
    // the extent of the drawing
    let mut bounds = Rect::at(0.0, 0.0, lay.size.0, lay.size.1);
    let mut grow = |r: &Rect| {
        bounds = Rect {
            x0: bounds.x0.min(r.x0),
            y0: bounds.y0.min(r.y0),
            x1: bounds.x1.max(r.x1),
            y1: bounds.y1.max(r.y1),
        };
    };
    // nodes, and the arrows into initial ones, are what labels must keep clear of
    let mut obstacles: Vec<Rect> = Vec::new();
    for (i, n) in g.nodes.iter().enumerate() {
        obstacles.push(node_box(lay, widths, i));
        if n.initial {
            let (sx, sy) = start_from(lay, widths, i);
            let (x, y) = lay.pos[i];
            let to = (x - widths[i] / 2.0 * 0.72, y - HEIGHT / 2.0 * 0.72);
            obstacles.push(Rect {
                x0: sx.min(to.0),
                y0: sy.min(to.1),
                x1: sx.max(to.0),
                y1: sy.max(to.1),
            });
        }
    }
    // the edges' paths: (SVG path, points along it)
    struct Route {
        path: String,
        points: Vec<(f64, f64)>,
    }
    let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
    let mut loops: HashMap<usize, usize> = HashMap::new();
    let mut routes: Vec<Option<Route>> = Vec::with_capacity(g.edges.len());
    for e in &g.edges {
        if e.from >= g.nodes.len() || e.to >= g.nodes.len() {
            routes.push(None);
            continue;
        }
        let (x0, y0) = lay.pos[e.from];
        let (x1, y1) = lay.pos[e.to];
        let (rx0, ry0) = (widths[e.from] / 2.0, HEIGHT / 2.0);
        let (rx1, ry1) = (widths[e.to] / 2.0, HEIGHT / 2.0);
        let route = if e.from == e.to {
            let k = loops.entry(e.from).or_default();
            let r = LOOP_R + LOOP_STEP * *k as f64;
            *k += 1;
            let a = (x0 + rx0 * 0.8, y0 - ry0 * 0.6);
            let b = (x0 + rx0 * 0.8, y0 + ry0 * 0.6);
            let (c1, c2) = ((x0 + rx0 + r, y0 - r), (x0 + rx0 + r, y0 + r));
            Route {
                path: format!(
                    "M{:.1},{:.1} C{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
                    a.0, a.1, c1.0, c1.1, c2.0, c2.1, b.0, b.1
                ),
                points: bezier(&[a, c1, c2, b]),
            }
        } else if lay.layer[e.to] < lay.layer[e.from] || lay.layer[e.to] > lay.layer[e.from] + 1 {
            // up, or down over layers: around the nodes of the layers it spans, on a lane
            // of its own on the nearer side
            let (lo, hi) = (
                lay.layer[e.from].min(lay.layer[e.to]),
                lay.layer[e.from].max(lay.layer[e.to]),
            );
            let (left, right) = extent[lo..=hi]
                .iter()
                .fold((f64::MAX, f64::MIN), |a, b| (a.0.min(b.0), a.1.max(b.1)));
            let on_left = (x0 + x1) / 2.0 < centre || (x0 + x1) / 2.0 == centre && e.from > e.to;
            let lane = if on_left {
                lanes_left += 1;
                lanes_left - 1
            } else {
                lanes_right += 1;
                lanes_right - 1
            };
            let off = 22.0 + 14.0 * (lane % 16) as f64;
            let side = if on_left { left - off } else { right + off };
            let s = towards((x0, y0), (side, y0), rx0, ry0);
            let t = towards((x1, y1), (side, y1), rx1, ry1);
            Route {
                path: format!(
                    "M{:.1},{:.1} C{side:.1},{y0:.1} {side:.1},{y1:.1} {:.1},{:.1}",
                    s.0, s.1, t.0, t.1
                ),
                points: bezier(&[s, (side, y0), (side, y1), t]),
            }
        } else {
            let key = (e.from.min(e.to), e.from.max(e.to));
            let k = seen.entry(key).or_default();
            let nth = *k;
            *k += 1;
            let adjacent = lay.layer[e.to] == lay.layer[e.from] + 1;
            let (dx, dy) = (x1 - x0, y1 - y0);
            let len = (dx * dx + dy * dy).sqrt().max(1.0);
            let (nx, ny) = (-dy / len, dx / len);
            let sign = if e.from < e.to { 1.0 } else { -1.0 };
            let bend = if adjacent && nth == 0 {
                0.0
            } else {
                let span = (lay.layer[e.to] as f64 - lay.layer[e.from] as f64).abs();
                sign * (26.0 + 22.0 * nth as f64 + 12.0 * span)
            };
            let c = ((x0 + x1) / 2.0 + nx * bend, (y0 + y1) / 2.0 + ny * bend);
            let s = towards((x0, y0), c, rx0, ry0);
            let t = towards((x1, y1), c, rx1, ry1);
            Route {
                path: format!(
                    "M{:.1},{:.1} Q{:.1},{:.1} {:.1},{:.1}",
                    s.0, s.1, c.0, c.1, t.0, t.1
                ),
                points: bezier(&[s, c, t]),
            }
        };
        for p in &route.points {
            grow(&Rect::at(p.0, p.1, 0.0, 0.0).grow(8.0));
        }
        routes.push(Some(route));
    }
    // the labels, placed clear of the nodes and of each other
    let drawn: Vec<usize> = (0..g.edges.len())
        .filter(|&i| routes[i].is_some())
        .collect();
    let requests: Vec<Request> = drawn
        .iter()
        .map(|&i| Request {
            path: routes[i]
                .as_ref()
                .map(|r| r.points.clone())
                .unwrap_or_default(),
            size: texts[i].1,
        })
        .collect();
    let mut placed: Vec<Option<Placed>> = vec![None; g.edges.len()];
    for (k, p) in place(&obstacles, &requests).into_iter().enumerate() {
        grow(&p.rect);
        placed[drawn[k]] = Some(p);
    }
    for r in &obstacles {
        grow(r);
    }
    let mut o = String::new();
    o.push_str("<defs>");
    for (k, c) in COLOURS {
        let _ = write!(
            o,
            r#"<marker id="{id}-arr-{k}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="{c}"/></marker>"#
        );
    }
    o.push_str("</defs>\n");
    let _ = writeln!(o, "<title>{}</title>", esc(&g.title));
    for (i, e) in g.edges.iter().enumerate() {
        let (Some(route), Some(at)) = (&routes[i], &placed[i]) else {
            continue;
        };
        let class = if e.failing {
            "fail"
        } else if e.visits == Some(0) {
            "dim"
        } else {
            e.kind.class()
        };
        let mut classes = vec!["edge", e.kind.class()];
        match e.visits {
            Some(0) => classes.push("unvisited"),
            Some(_) => classes.push("visited"),
            None => {}
        }
        if e.failing {
            classes.push("failing");
        }
        let stroke = match e.visits {
            Some(v) if v > 0 => 1.4 + (v as f64).log2().clamp(0.0, 4.0) * 0.6,
            _ => 1.4,
        } + if e.failing { 1.2 } else { 0.0 };
        let dash = match (e.kind, e.failing) {
            (_, true) => "6 3",
            (Kind::Output, _) => "7 4",
            (Kind::Quiescence, _) => "2 3",
            _ => "none",
        };
        let tip = match e.visits {
            Some(v) => format!(
                "{} — taken {v} time{}",
                e.label,
                if v == 1 { "" } else { "s" }
            ),
            None if e.failing => format!("{} — observed by the failing run, not allowed", e.label),
            None => e.label.clone(),
        };
        let colour = COLOURS
            .iter()
            .find(|c| c.0 == class)
            .map(|c| c.1)
            .unwrap_or("#000");
        let r = at.rect;
        let leader = match at.leader {
            Some((px, py)) => {
                let (cx, cy) = (px.clamp(r.x0, r.x1), py.clamp(r.y0, r.y1));
                format!(
                    r#"<path class="leader" d="M{cx:.1},{cy:.1} L{px:.1},{py:.1}" stroke="{colour}" stroke-width="0.8" stroke-dasharray="1 2" fill="none"/>"#
                )
            }
            None => String::new(),
        };
        let mut text = String::new();
        for (k, line) in texts[i].0.iter().enumerate() {
            let _ = write!(
                text,
                r#"<tspan x="{:.1}" dy="{}">{}</tspan>"#,
                r.x0,
                if k == 0 { 0.0 } else { LINE_H },
                esc(line)
            );
        }
        let _ = writeln!(
            o,
            r#"<g class="{}" data-from="{}" data-to="{}"><title>{}</title><path d="{}" fill="none" stroke="{colour}" stroke-width="{stroke:.1}" stroke-dasharray="{dash}" marker-end="url(#{id}-arr-{class})"/>{leader}<text class="label" x="{:.1}" y="{:.1}" fill="{colour}" stroke="white" stroke-width="3" paint-order="stroke">{text}</text></g>"#,
            classes.join(" "),
            e.from,
            e.to,
            esc(&tip),
            route.path,
            r.x0,
            r.y0 + ASCENT,
        );
    }
    for (i, n) in g.nodes.iter().enumerate() {
        let (x, y) = lay.pos[i];
        let (rx, ry) = (widths[i] / 2.0, HEIGHT / 2.0);
        let mut classes = vec!["node"];
        match n.visits {
            Some(0) => classes.push("unvisited"),
            Some(_) => classes.push("visited"),
            None => {}
        }
        if n.initial {
            classes.push("initial");
        }
        let (fill, stroke) = match n.mark {
            Mark::Failed | Mark::Fail => {
                classes.push("failing");
                ("#ffebe9", "#cf222e")
            }
            Mark::Pass => {
                classes.push("pass");
                ("#dafbe1", "#1a7f37")
            }
            Mark::Inconclusive => {
                classes.push("inconclusive");
                ("#fff8c5", "#9a6700")
            }
            Mark::None => match n.visits {
                Some(0) => ("#ffffff", "#afb8c1"),
                Some(_) => ("#dff3e4", "#1a7f37"),
                None => ("#f6f8fa", "#57606a"),
            },
        };
        let tip = match n.visits {
            Some(v) => format!(
                "{}{} — visited {v} time{}",
                n.group
                    .as_ref()
                    .map(|g| format!("{g}: "))
                    .unwrap_or_default(),
                n.name,
                if v == 1 { "" } else { "s" }
            ),
            None => n.name.clone(),
        };
        let sw = if n.initial { 2.6 } else { 1.3 };
        let shape = if n.mark == Mark::None {
            format!(
                r#"<ellipse cx="{x:.1}" cy="{y:.1}" rx="{rx:.1}" ry="{ry:.1}" fill="{fill}" stroke="{stroke}" stroke-width="{sw}"/>"#
            )
        } else {
            format!(
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="4" fill="{fill}" stroke="{stroke}" stroke-width="2"/>"#,
                x - rx,
                y - ry,
                2.0 * rx,
                2.0 * ry
            )
        };
        let start = if n.initial {
            let (sx, sy) = start_from(lay, widths, i);
            format!(
                r#"<path class="start" d="M{sx:.1},{sy:.1} L{:.1},{:.1}" stroke="{START}" stroke-width="1.5" marker-end="url(#{id}-arr-start)"/>"#,
                x - rx * 0.72,
                y - ry * 0.72
            )
        } else {
            String::new()
        };
        let count = match n.visits {
            Some(v) => format!(" ×{v}"),
            None => String::new(),
        };
        let _ = writeln!(
            o,
            r#"<g class="{}" id="{id}-n{i}" data-node="{i}" data-name="{}"><title>{}</title>{start}{shape}<text x="{x:.1}" y="{:.1}" text-anchor="middle">{}<tspan class="count">{}</tspan></text></g>"#,
            classes.join(" "),
            esc(&n.name),
            esc(&tip),
            y + 4.5,
            esc(&clip(&n.name, NAME_CHARS)),
            esc(&count)
        );
    }
    o.push_str("</svg>\n");
    let (x0, y0) = ((bounds.x0 - 12.0).floor(), (bounds.y0 - 12.0).floor());
    let (w, h) = (
        (bounds.x1 + 12.0).ceil() - x0,
        (bounds.y1 + 12.0).ceil() - y0,
    );
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"graph\" id=\"{id}\" viewBox=\"{x0:.0} {y0:.0} {w:.0} {h:.0}\" width=\"{w:.0}\" height=\"{h:.0}\" role=\"img\" aria-label=\"{}\" font-family=\"ui-monospace,SFMono-Regular,Menlo,Consolas,monospace\" font-size=\"12\">\n{o}",
        esc(&g.title)
    )
}

/// The point where the line from the centre `c` of an ellipse with radii `rx`, `ry` towards
/// `p` leaves it.
fn towards(c: (f64, f64), p: (f64, f64), rx: f64, ry: f64) -> (f64, f64) {
    let (dx, dy) = (p.0 - c.0, p.1 - c.1);
    let len = (dx * dx + dy * dy).sqrt();
    if len < 1e-9 {
        return c;
    }
    let (ux, uy) = (dx / len, dy / len);
    let t = 1.0 / ((ux / rx).powi(2) + (uy / ry).powi(2)).sqrt();
    (c.0 + ux * t, c.1 + uy * t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{Graph, Kind};
    use proptest::prelude::*;

    fn graph(n: usize, edges: &[(usize, usize, u8)], initial: usize) -> Graph {
        let mut g = Graph::default();
        for i in 0..n {
            g.node(format!("s{i}"));
        }
        if n > 0 {
            g.nodes[initial % n].initial = true;
        }
        for &(a, b, k) in edges {
            if n > 0 {
                let kind =
                    [Kind::Input, Kind::Output, Kind::Quiescence, Kind::Internal][k as usize % 4];
                g.edge(a % n, b % n, format!("l{k}"), kind);
            }
        }
        g
    }

    #[test]
    fn a_long_label_is_wrapped_at_its_guard_update_and_spaces() {
        assert_eq!(label_lines("coin?"), vec!["coin?"]);
        let l = "req?(n) [n > 0 && n <= 10] { len = n, i = 1, rn = 0, bit = false, k = 1 }";
        assert_eq!(
            label_lines(l),
            vec![
                "req?(n)",
                "[n > 0 && n <= 10]",
                "{ len = n, i = 1, rn = 0, bit =",
                "false, k = 1 }"
            ]
        );
        let long = format!("a? [{}]", "x && ".repeat(40));
        let lines = label_lines(&long);
        assert_eq!(lines.len(), MAX_LINES);
        assert!(lines[MAX_LINES - 1].ends_with('…'), "{lines:?}");
        assert!(lines.iter().all(|l| l.chars().count() <= LINE_CHARS));
        // the whole label stays in the tooltip
        let mut g = graph(2, &[], 0);
        g.edge(0, 1, long.clone(), Kind::Input);
        assert!(render(&g, "p").contains(&format!("<title>{}</title>", esc(&long))));
    }

    #[test]
    fn the_start_arrow_has_a_colour_of_its_own() {
        let mut g = graph(2, &[(0, 1, 1)], 0);
        g.nodes[0].visits = Some(1);
        let svg = render(&g, "p");
        let start = svg.split("class=\"start\"").nth(1).unwrap();
        assert!(start.contains(&format!("stroke=\"{START}\"")), "{svg}");
        assert!(start.contains("url(#p-arr-start)"), "{svg}");
        // no action is drawn in the colour of the start arrow
        assert_eq!(COLOURS.iter().filter(|c| c.1 == START).count(), 1);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        /// Any graph (loops, parallel edges, cycles, several components) is drawn with finite
        /// coordinates, every node and edge once, nodes of a layer apart.
        #[test]
        fn any_graph_is_drawn(n in 0usize..30, edges in proptest::collection::vec((0usize..30, 0usize..30, 0u8..4), 0..60), initial in 0usize..30) {
            let g = graph(n, &edges, initial);
            let svg = render(&g, "p");
            prop_assert!(!svg.contains("NaN") && !svg.contains("inf"), "{}", svg);
            prop_assert_eq!(svg.matches("<g class=\"node").count(), n);
            prop_assert_eq!(svg.matches("<g class=\"edge").count(), g.edges.len());
            let widths: Vec<f64> = g.nodes.iter().map(|x| width(&x.name, x.visits)).collect();
            let es: Vec<(usize, usize)> = g.edges.iter().map(|e| (e.from, e.to)).collect();
            let roots: Vec<usize> = (0..n).filter(|&i| g.nodes[i].initial).collect();
            let l = layout(&Input { widths: &widths, height: HEIGHT, edges: &es, roots: &roots, labels: &[] });
            for a in 0..n {
                for b in a + 1..n {
                    if l.layer[a] == l.layer[b] {
                        let d = (l.pos[a].0 - l.pos[b].0).abs();
                        prop_assert!(d + 1e-6 >= (widths[a] + widths[b]) / 2.0, "{} {} overlap", a, b);
                    }
                }
            }
        }
    }
}
