//! A [`Graph`] as an SVG drawing, laid out by [`crate::layout`]: states as ellipses (verdict
//! leaves and the failing point as boxes), the initial ones with a thick border and an arrow
//! in; inputs solid blue (`?`), outputs dashed green (`!`), δ dotted grey, τ grey; with
//! coverage, visited parts filled or thickened by how often (counts in the tooltips and as
//! `×N`), unvisited ones faint; the failing observation red.
//!
//! Every text comes from a model or a system under test and is escaped ([`crate::esc`]).
//! Elements carry what the report's script needs: `class` (`node`, `edge`, the kind,
//! `visited`, `unvisited`, `failing`), `data-node` on nodes, `data-from`/`data-to` on edges.

use crate::esc;
use crate::graph::{Graph, Kind, Mark};
use crate::layout::{layout, Input, Layout};
use std::collections::HashMap;
use std::fmt::Write;

/// Nodes above this are not drawn (the page would be unreadable and slow).
pub const MAX_NODES: usize = 400;
/// Edges above this are not drawn.
pub const MAX_EDGES: usize = 2000;
/// Characters of a node name shown (the whole name is in the tooltip).
const NAME_CHARS: usize = 32;
/// Characters of an edge label shown.
const LABEL_CHARS: usize = 48;
const HEIGHT: f64 = 34.0;

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
    let roots: Vec<usize> = (0..g.nodes.len()).filter(|&i| g.nodes[i].initial).collect();
    let lay = layout(&Input {
        widths: &widths,
        height: HEIGHT,
        edges: &edges,
        roots: &roots,
    });
    draw(g, &lay, &widths, id)
}

const COLOURS: [(&str, &str); 6] = [
    ("in", "#0969da"),
    ("out", "#1a7f37"),
    ("delta", "#6e7781"),
    ("tau", "#8c959f"),
    ("fail", "#cf222e"),
    ("dim", "#c8ccd1"),
];

fn draw(g: &Graph, lay: &Layout, widths: &[f64], id: &str) -> String {
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
    let (mut min_x, mut max_x) = (0.0f64, lay.size.0);
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
    // parallel edges (either direction) are fanned out
    let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
    let mut loops: HashMap<usize, usize> = HashMap::new();
    for e in &g.edges {
        if e.from >= g.nodes.len() || e.to >= g.nodes.len() {
            continue;
        }
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
        let (x0, y0) = lay.pos[e.from];
        let (x1, y1) = lay.pos[e.to];
        let (rx0, ry0) = (widths[e.from] / 2.0, HEIGHT / 2.0);
        let (rx1, ry1) = (widths[e.to] / 2.0, HEIGHT / 2.0);
        let anchor = if lx_left(&lay.layer, e) && (x0 + x1) / 2.0 < centre {
            "end"
        } else {
            "start"
        };
        let (path, lx, ly) = if e.from == e.to {
            let k = loops.entry(e.from).or_default();
            let r = 28.0 + 18.0 * *k as f64;
            *k += 1;
            let (ax, ay) = (x0 + rx0 * 0.8, y0 - ry0 * 0.6);
            let (bx, by) = (x0 + rx0 * 0.8, y0 + ry0 * 0.6);
            (
                format!(
                    "M{ax:.1},{ay:.1} C{:.1},{:.1} {:.1},{:.1} {bx:.1},{by:.1}",
                    x0 + rx0 + r,
                    y0 - r,
                    x0 + rx0 + r,
                    y0 + r
                ),
                x0 + rx0 + r * 0.75 + 4.0,
                y0 + 4.0,
            )
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
            min_x =
                min_x.min(side - 12.0 * LABEL_CHARS.min(e.label.chars().count() + 4) as f64 * 0.62);
            max_x =
                max_x.max(side + 12.0 * LABEL_CHARS.min(e.label.chars().count() + 4) as f64 * 0.62);
            let (sx, sy) = towards((x0, y0), (side, y0), rx0, ry0);
            let (tx, ty) = towards((x1, y1), (side, y1), rx1, ry1);
            let (mx, my) = (
                0.125 * sx + 0.75 * side + 0.125 * tx,
                0.125 * sy + 0.375 * y0 + 0.375 * y1 + 0.125 * ty,
            );
            (
                format!("M{sx:.1},{sy:.1} C{side:.1},{y0:.1} {side:.1},{y1:.1} {tx:.1},{ty:.1}"),
                if on_left { mx - 4.0 } else { mx + 4.0 },
                // labels of neighbouring lanes one above the other
                my + 14.0 * (lane % 4) as f64 - 14.0,
            )
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
            let (cx, cy) = ((x0 + x1) / 2.0 + nx * bend, (y0 + y1) / 2.0 + ny * bend);
            let (sx, sy) = towards((x0, y0), (cx, cy), rx0, ry0);
            let (tx, ty) = towards((x1, y1), (cx, cy), rx1, ry1);
            let (mx, my) = (
                0.25 * sx + 0.5 * cx + 0.25 * tx,
                0.25 * sy + 0.5 * cy + 0.25 * ty,
            );
            (
                format!("M{sx:.1},{sy:.1} Q{cx:.1},{cy:.1} {tx:.1},{ty:.1}"),
                mx + 4.0,
                my - 4.0,
            )
        };
        let count = match e.visits {
            Some(v) => format!(" ×{v}"),
            None => String::new(),
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
        let _ = writeln!(
            o,
            r#"<g class="{}" data-from="{}" data-to="{}"><title>{}</title><path d="{path}" fill="none" stroke="{colour}" stroke-width="{stroke:.1}" stroke-dasharray="{dash}" marker-end="url(#{id}-arr-{class})"/><text x="{lx:.1}" y="{ly:.1}" fill="{colour}" text-anchor="{anchor}">{}{}</text></g>"#,
            classes.join(" "),
            e.from,
            e.to,
            esc(&tip),
            esc(&clip(&e.label, LABEL_CHARS)),
            esc(&count)
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
            format!(
                r#"<path d="M{:.1},{:.1} L{:.1},{:.1}" stroke="{stroke}" stroke-width="1.5" marker-end="url(#{id}-arr-tau)"/>"#,
                x - rx - 26.0,
                y - ry - 14.0,
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
    let (w, h) = (max_x - min_x + 160.0, lay.size.1 + 20.0);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"graph\" id=\"{id}\" viewBox=\"{min_x:.0} 0 {w:.0} {h:.0}\" width=\"{w:.0}\" height=\"{h:.0}\" role=\"img\" aria-label=\"{}\">\n{o}",
        esc(&g.title)
    )
}

/// Whether an edge is routed around the layers (and its label written to the left of its
/// lane when the lane is on the left).
fn lx_left(layer: &[usize], e: &crate::graph::Edge) -> bool {
    e.from != e.to && (layer[e.to] < layer[e.from] || layer[e.to] > layer[e.from] + 1)
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
            let l = layout(&Input { widths: &widths, height: HEIGHT, edges: &es, roots: &roots });
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
