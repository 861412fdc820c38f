//! A layered drawing of a directed graph (after Sugiyama, Tagawa and Toda), small and
//! deterministic, so that no Graphviz binary is needed:
//!
//! 1. **layers**: breadth-first distance from the initial nodes (nodes not reached from them
//!    start a search of their own, in index order), so edges that go "forward" go down;
//! 2. **order** within a layer: a few sweeps of the barycentre heuristic, down (by the
//!    positions of predecessors in the layer above) and up (successors below), ties kept in
//!    discovery order;
//! 3. **coordinates**: nodes left to right with their widths and a gap, each layer centred
//!    on the widest one; layers top to bottom.
//!
//! Edge labels are part of the layout (as Graphviz's `dot` makes room for them): a node
//! with loops is as wide as its loops and their labels reach to its right, and the gap
//! between two layers grows with the area of the labels of the edges between them, so that
//! [`crate::labels`] finds free places for them next to their edges.
//!
//! Edges are routed by [`crate::svg`]: straight between adjacent layers, curved otherwise,
//! loops beside their node. Time and memory are linear in the graph per sweep.

use std::collections::VecDeque;

/// The size of a node and the edges, as the layout sees them.
#[derive(Clone, Debug)]
pub struct Input<'a> {
    /// Width of each node.
    pub widths: &'a [f64],
    /// Height of every node.
    pub height: f64,
    /// Edges (from, to).
    pub edges: &'a [(usize, usize)],
    /// Nodes the layers start from (none: node 0).
    pub roots: &'a [usize],
    /// Width and height of each edge's label (empty: no labels).
    pub labels: &'a [(f64, f64)],
}

/// Where the nodes are.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Centre of each node.
    pub pos: Vec<(f64, f64)>,
    /// Layer of each node.
    pub layer: Vec<usize>,
    /// Width and height of the drawing.
    pub size: (f64, f64),
}

/// Horizontal gap between nodes of a layer.
pub const GAP_X: f64 = 64.0;
/// Vertical distance between layers.
pub const GAP_Y: f64 = 90.0;
/// Margin around the drawing.
pub const MARGIN: f64 = 40.0;
const SWEEPS: usize = 6;
/// The largest gap between two layers, however many labels are between them.
const MAX_GAP_Y: f64 = 480.0;

/// Where the first loop of a node starts beside it, and how far each further loop reaches.
pub const LOOP_R: f64 = 28.0;
/// How much further each further loop of a node reaches.
pub const LOOP_STEP: f64 = 18.0;

/// The room right of each node that its loops and their labels take.
fn loop_room(input: &Input<'_>) -> Vec<f64> {
    let mut room = vec![0.0f64; input.widths.len()];
    let mut k = vec![0usize; input.widths.len()];
    for (i, &(a, b)) in input.edges.iter().enumerate() {
        if a == b && a < room.len() {
            let r = LOOP_R + LOOP_STEP * k[a] as f64;
            k[a] += 1;
            let w = input.labels.get(i).map_or(0.0, |l| l.0);
            room[a] = room[a].max(0.75 * r + 8.0 + w);
        }
    }
    room
}

/// The vertical centre of each layer: the gap below a layer grows with the area of the labels
/// of the edges down to the next one.
fn layer_ys(input: &Input<'_>, layer: &[usize], depth: usize, widest: f64) -> Vec<f64> {
    let mut area = vec![0.0f64; depth];
    let mut widest_label = 0.0f64;
    for (i, &(a, b)) in input.edges.iter().enumerate() {
        let Some(&(w, h)) = input.labels.get(i) else {
            break;
        };
        if a < layer.len() && b < layer.len() && layer[b] == layer[a] + 1 {
            area[layer[a]] += (w + 8.0) * (h + 4.0);
            widest_label = widest_label.max(w);
        }
    }
    // about half of a band is free for labels: the rest is edges and their surroundings
    let usable = 0.5 * widest.max(2.0 * widest_label).max(1.0);
    let mut ys = Vec::with_capacity(depth);
    let mut y = MARGIN + input.height / 2.0;
    for a in area {
        ys.push(y);
        y += (input.height + (a / usable).max(GAP_Y - input.height)).min(MAX_GAP_Y);
    }
    ys
}

/// Lay the graph out.
pub fn layout(input: &Input<'_>) -> Layout {
    let n = input.widths.len();
    if n == 0 {
        return Layout {
            pos: Vec::new(),
            layer: Vec::new(),
            size: (2.0 * MARGIN, 2.0 * MARGIN),
        };
    }
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut pred: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in input.edges {
        if a < n && b < n && a != b {
            succ[a].push(b);
            pred[b].push(a);
        }
    }
    // 1. layers by breadth-first search, discovery order kept
    let mut layer = vec![usize::MAX; n];
    let mut order: Vec<usize> = Vec::with_capacity(n);
    let mut queue = VecDeque::new();
    let starts = input
        .roots
        .iter()
        .copied()
        .filter(|&r| r < n)
        .chain(0..n)
        .collect::<Vec<_>>();
    for s in starts {
        if layer[s] != usize::MAX {
            continue;
        }
        // a new component starts at the top
        layer[s] = 0;
        queue.push_back(s);
        while let Some(x) = queue.pop_front() {
            order.push(x);
            for &y in &succ[x] {
                if layer[y] == usize::MAX {
                    layer[y] = layer[x] + 1;
                    queue.push_back(y);
                }
            }
        }
    }
    let depth = layer.iter().max().copied().unwrap_or(0) + 1;
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); depth];
    for &x in &order {
        rows[layer[x]].push(x);
    }
    if pred.iter().all(|p| p.len() <= 1) {
        let roots = roots_of(&rows, &pred);
        if forest(&succ, &roots) {
            return tree(input, &succ, &roots);
        }
    }
    // 2. barycentre sweeps
    let mut rank = vec![0.0f64; n];
    let index = |rows: &Vec<Vec<usize>>, rank: &mut Vec<f64>| {
        for row in rows {
            for (i, &x) in row.iter().enumerate() {
                rank[x] = i as f64;
            }
        }
    };
    index(&rows, &mut rank);
    for sweep in 0..SWEEPS {
        let down = sweep % 2 == 0;
        let ls: Vec<usize> = if down {
            (1..depth).collect()
        } else {
            (0..depth.saturating_sub(1)).rev().collect()
        };
        for l in ls {
            let near = if down { l - 1 } else { l + 1 };
            let mut keyed: Vec<(f64, f64, usize)> = rows[l]
                .iter()
                .map(|&x| {
                    let adj = if down { &pred[x] } else { &succ[x] };
                    let ps: Vec<f64> = adj
                        .iter()
                        .filter(|&&y| layer[y] == near)
                        .map(|&y| rank[y])
                        .collect();
                    let b = if ps.is_empty() {
                        rank[x]
                    } else {
                        ps.iter().sum::<f64>() / ps.len() as f64
                    };
                    (b, rank[x], x)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
            rows[l] = keyed.into_iter().map(|k| k.2).collect();
            for (i, &x) in rows[l].iter().enumerate() {
                rank[x] = i as f64;
            }
        }
    }
    // 3. coordinates
    let room = loop_room(input);
    let row_width = |row: &Vec<usize>| -> f64 {
        row.iter().map(|&x| input.widths[x] + room[x]).sum::<f64>()
            + GAP_X * row.len().saturating_sub(1) as f64
    };
    let widest = rows.iter().map(row_width).fold(0.0, f64::max);
    let ys = layer_ys(input, &layer, depth, widest);
    let mut pos = vec![(0.0, 0.0); n];
    for (l, row) in rows.iter().enumerate() {
        let mut x = MARGIN + (widest - row_width(row)) / 2.0;
        for &v in row {
            pos[v] = (x + input.widths[v] / 2.0, ys[l]);
            x += input.widths[v] + room[v] + GAP_X;
        }
    }
    Layout {
        pos,
        layer,
        size: (
            widest + 2.0 * MARGIN,
            ys[depth - 1] + input.height / 2.0 + MARGIN,
        ),
    }
}

/// The roots of a forest, in discovery order.
fn roots_of(rows: &[Vec<usize>], pred: &[Vec<usize>]) -> Vec<usize> {
    rows.iter()
        .flatten()
        .copied()
        .filter(|&x| pred[x].is_empty())
        .collect()
}

/// Whether every node is reached from `roots` (with at most one predecessor each: a forest,
/// not a ring).
fn forest(succ: &[Vec<usize>], roots: &[usize]) -> bool {
    let mut seen = vec![false; succ.len()];
    let mut stack = roots.to_vec();
    let mut n = 0;
    while let Some(v) = stack.pop() {
        if std::mem::replace(&mut seen[v], true) {
            continue;
        }
        n += 1;
        stack.extend(succ[v].iter().copied());
    }
    n == succ.len()
}

/// A forest (every node has at most one predecessor: a test case, a suite's prefix tree):
/// leaves left to right in depth-first order, each parent centred over its children, so
/// that every subtree has a band of its own and no edges cross.
fn tree(input: &Input<'_>, succ: &[Vec<usize>], roots: &[usize]) -> Layout {
    let n = input.widths.len();
    // layers: the depth in the tree (a breadth-first search from the initial nodes may have
    // reached a node before its parent)
    let mut layer = vec![0usize; n];
    let mut todo: Vec<usize> = roots.to_vec();
    while let Some(v) = todo.pop() {
        for &c in &succ[v] {
            layer[c] = layer[v] + 1;
            todo.push(c);
        }
    }
    let depth = layer.iter().max().copied().unwrap_or(0) + 1;
    let room = loop_room(input);
    let mut x = vec![0.0f64; n];
    let mut cursor = MARGIN;
    // iterative post-order: (node, children done)
    let mut stack: Vec<(usize, bool)> = roots.iter().rev().map(|&r| (r, false)).collect();
    let mut placed = vec![false; n];
    while let Some((v, done)) = stack.pop() {
        if placed[v] {
            continue;
        }
        let kids: Vec<usize> = succ[v]
            .iter()
            .copied()
            .filter(|&c| layer[c] == layer[v] + 1 && !placed[c])
            .collect();
        if !done && !kids.is_empty() {
            stack.push((v, true));
            stack.extend(kids.iter().rev().map(|&c| (c, false)));
            continue;
        }
        let w = input.widths[v];
        let below: Vec<f64> = succ[v]
            .iter()
            .filter(|&&c| placed[c] && layer[c] == layer[v] + 1)
            .map(|&c| x[c])
            .collect();
        x[v] = match (below.first(), below.last()) {
            (Some(a), Some(b)) => (a + b) / 2.0,
            _ => cursor + w / 2.0,
        };
        if below.is_empty() {
            cursor = x[v] + w / 2.0 + room[v] + GAP_X;
        } else {
            cursor = cursor.max(x[v] + w / 2.0 + room[v] + GAP_X);
        }
        placed[v] = true;
    }
    let width = (0..n)
        .map(|v| x[v] + input.widths[v] / 2.0 + room[v])
        .fold(0.0, f64::max)
        + MARGIN;
    let ys = layer_ys(input, &layer, depth, width - 2.0 * MARGIN);
    let pos: Vec<(f64, f64)> = (0..n).map(|v| (x[v], ys[layer[v]])).collect();
    Layout {
        pos,
        layer,
        size: (width, ys[depth - 1] + input.height / 2.0 + MARGIN),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_follow_breadth_first_distance_and_nodes_do_not_overlap() {
        // 0 -> 1 -> 2 -> 0, 0 -> 3, 4 alone
        let widths = [60.0, 80.0, 40.0, 50.0, 30.0];
        let edges = [(0, 1), (1, 2), (2, 0), (0, 3)];
        let l = layout(&Input {
            widths: &widths,
            height: 30.0,
            edges: &edges,
            roots: &[0],
            labels: &[],
        });
        assert_eq!(l.layer, vec![0, 1, 2, 1, 0]);
        for a in 0..5 {
            for b in a + 1..5 {
                if l.layer[a] == l.layer[b] {
                    let d = (l.pos[a].0 - l.pos[b].0).abs();
                    assert!(d >= (widths[a] + widths[b]) / 2.0 + GAP_X - 1e-9);
                }
            }
            assert!(l.pos[a].0 - widths[a] / 2.0 >= MARGIN - 1e-9);
            assert!(l.pos[a].0 + widths[a] / 2.0 <= l.size.0 - MARGIN + 1e-9);
        }
        assert!(l.pos[1].1 > l.pos[0].1 && l.pos[2].1 > l.pos[1].1);
    }

    #[test]
    fn a_tree_has_its_parents_over_their_children() {
        // 0 -> 1, 0 -> 2, 1 -> 3, 1 -> 4
        let widths = [40.0; 5];
        let edges = [(0, 1), (0, 2), (1, 3), (1, 4)];
        let l = layout(&Input {
            widths: &widths,
            height: 30.0,
            edges: &edges,
            roots: &[0],
            labels: &[],
        });
        assert!(l.pos[3].0 < l.pos[4].0 && l.pos[4].0 < l.pos[2].0);
        assert!((l.pos[1].0 - (l.pos[3].0 + l.pos[4].0) / 2.0).abs() < 1e-9);
        assert!((l.pos[0].0 - (l.pos[1].0 + l.pos[2].0) / 2.0).abs() < 1e-9);
        assert!(l.pos[4].0 - l.pos[3].0 >= 40.0 + GAP_X - 1e-9);
    }

    #[test]
    fn barycentres_untangle_a_crossing() {
        // layer 1: a, b (a discovered first); layer 2: children swapped
        // 0 -> 1, 0 -> 2, 1 -> 4, 2 -> 3 : 3 is discovered before 4 only through 2
        let widths = [40.0; 5];
        // (3, 4) makes it no tree
        let edges = [(0, 1), (0, 2), (2, 3), (1, 4), (3, 4)];
        let l = layout(&Input {
            widths: &widths,
            height: 30.0,
            edges: &edges,
            roots: &[0],
            labels: &[],
        });
        // children are in the order of their parents: no crossing
        assert_eq!(l.pos[1].0 < l.pos[2].0, l.pos[4].0 < l.pos[3].0);
    }
}
