//! Placing edge labels so that none overlaps another or a node (the point-feature and
//! line-feature label placement of cartography, in its greedy form: Christensen, Marks and
//! Shieber, "An Empirical Study of Algorithms for Point-Feature Label Placement", 1995, the
//! greedy baseline; candidate positions along each line as in Imhof's rules):
//!
//! 1. the boxes of the nodes (and anything else that must stay free) are obstacles;
//! 2. labels are placed one by one in the order given; for each, candidate boxes beside
//!    points of its edge, from the middle outwards (right of the point, left, above, below),
//!    next to the edge first, then a little farther; of those that meet no obstacle and no
//!    label placed before, the cheapest is taken: 1 for each other edge the box crosses and
//!    [`FAR_COST`] for each step away from the edge (ties: the one found first);
//! 3. when every candidate is taken, the nearest free place in the rows of label height
//!    around the middle of the edge is taken (a row always has room past its last box, so a
//!    label always finds a place), and the caller draws a leader line to it.
//!
//! Boxes are kept in a grid of buckets, so a test costs the boxes near the place, not all of
//! them: placing n labels among m nodes takes about (n + m) × candidates. Deterministic: the
//! result depends only on the input and its order.

use std::collections::HashMap;

/// An axis-parallel box: left, top, right, bottom.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rect {
    /// Left.
    pub x0: f64,
    /// Top.
    pub y0: f64,
    /// Right.
    pub x1: f64,
    /// Bottom.
    pub y1: f64,
}

impl Rect {
    /// The box of width `w` and height `h` whose top left corner is (`x`, `y`).
    pub fn at(x: f64, y: f64, w: f64, h: f64) -> Rect {
        Rect {
            x0: x,
            y0: y,
            x1: x + w,
            y1: y + h,
        }
    }

    /// Whether the two boxes share more than a border.
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    /// The box grown by `d` on every side.
    pub fn grow(&self, d: f64) -> Rect {
        Rect {
            x0: self.x0 - d,
            y0: self.y0 - d,
            x1: self.x1 + d,
            y1: self.y1 + d,
        }
    }

    fn centre(&self) -> (f64, f64) {
        ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)
    }
}

/// A label to place: the points of its edge (in order along it) and its size.
#[derive(Clone, Debug)]
pub struct Request {
    /// Points along the edge, from its source to its target.
    pub path: Vec<(f64, f64)>,
    /// Width and height of the label.
    pub size: (f64, f64),
}

/// Where a label went.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Placed {
    /// Its box.
    pub rect: Rect,
    /// The point of its edge it belongs to, when it is away from its edge (draw a leader
    /// line from the box to it).
    pub leader: Option<(f64, f64)>,
}

/// Free space kept between a label and anything else.
const PAD: f64 = 2.0;
/// Distance between a point of the edge and its label.
const OFF: f64 = 4.0;
/// Farther distances tried when every place next to the edge meets a box or crosses an
/// edge.
const FAR: [f64; 3] = [22.0, 44.0, 72.0];
/// What each step farther from the edge costs, against 1 for each edge a label crosses.
pub const FAR_COST: f64 = 0.6;
const CELL: f64 = 64.0;

/// Boxes in buckets of a grid.
struct Grid {
    boxes: Vec<Rect>,
    cells: HashMap<(i64, i64), Vec<usize>>,
}

impl Grid {
    fn range(r: &Rect) -> (i64, i64, i64, i64) {
        (
            (r.x0 / CELL).floor() as i64,
            (r.y0 / CELL).floor() as i64,
            (r.x1 / CELL).floor() as i64,
            (r.y1 / CELL).floor() as i64,
        )
    }

    fn add(&mut self, r: Rect) {
        let i = self.boxes.len();
        self.boxes.push(r);
        let (a, b, c, d) = Grid::range(&r);
        for x in a..=c {
            for y in b..=d {
                self.cells.entry((x, y)).or_default().push(i);
            }
        }
    }

    /// The boxes that may meet `r` (each once, in the order added).
    fn near(&self, r: &Rect) -> Vec<usize> {
        let (a, b, c, d) = Grid::range(r);
        let mut out = Vec::new();
        for x in a..=c {
            for y in b..=d {
                if let Some(v) = self.cells.get(&(x, y)) {
                    out.extend(v.iter().copied());
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    fn free(&self, r: &Rect) -> bool {
        let g = r.grow(PAD);
        let (a, b, c, d) = Grid::range(&g);
        for x in a..=c {
            for y in b..=d {
                if let Some(v) = self.cells.get(&(x, y)) {
                    if v.iter().any(|&i| self.boxes[i].overlaps(&g)) {
                        return false;
                    }
                }
            }
        }
        true
    }
}

/// The fractions of an edge's length its candidate points are at, middle first.
const ALONG: [f64; 11] = [
    0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.18, 0.82, 0.1, 0.9,
];

/// The point at fraction `t` of the length of `path`.
fn at(path: &[(f64, f64)], t: f64) -> (f64, f64) {
    let lens: Vec<f64> = path
        .windows(2)
        .map(|w| ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt())
        .collect();
    let total: f64 = lens.iter().sum();
    if path.len() < 2 || total <= 0.0 {
        return path.first().copied().unwrap_or((0.0, 0.0));
    }
    let mut goal = t * total;
    for (i, l) in lens.iter().enumerate() {
        if goal <= *l && *l > 0.0 {
            let f = goal / l;
            let (a, b) = (path[i], path[i + 1]);
            return (a.0 + f * (b.0 - a.0), a.1 + f * (b.1 - a.1));
        }
        goal -= l;
    }
    path[path.len() - 1]
}

/// The free place nearest to `p` for a box of size (`w`, `h`) in the rows of height `h`
/// around `p`: in each row, the gaps between the boxes there.
fn nearest_free(grid: &Grid, p: (f64, f64), w: f64, h: f64) -> Rect {
    let mut best: Option<(f64, Rect)> = None;
    for k in [0i64, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6] {
        let top = p.1 - h / 2.0 + k as f64 * (h + 2.0 * PAD);
        // the boxes that meet this row, grown by the padding, left to right
        let row = Rect {
            x0: f64::MIN / 4.0,
            y0: top - PAD,
            x1: f64::MAX / 4.0,
            y1: top + h + PAD,
        };
        let mut spans: Vec<(f64, f64)> = grid
            .boxes
            .iter()
            .filter(|b| b.grow(PAD).overlaps(&row))
            .map(|b| (b.x0 - PAD, b.x1 + PAD))
            .collect();
        spans.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        // free intervals between the spans; in each, the place nearest to p.x
        let mut free: Vec<(f64, f64)> = Vec::new();
        let mut from = f64::MIN / 4.0;
        for (a, b) in spans {
            if a > from {
                free.push((from, a));
            }
            from = from.max(b);
        }
        free.push((from, f64::MAX / 4.0));
        for (a, b) in free {
            if b - a < w {
                continue;
            }
            let x = (p.0 - w / 2.0).clamp(a, b - w);
            let r = Rect::at(x, top, w, h);
            let c = r.centre();
            let d = (c.0 - p.0).powi(2) + (c.1 - p.1).powi(2);
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, r));
            }
        }
    }
    best.map(|b| b.1)
        .expect("a row always has room past its last box")
}

/// Whether the segment from `a` to `b` meets the box `r` (Liang and Barsky's clipping).
fn crosses(r: &Rect, a: (f64, f64), b: (f64, f64)) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - r.x0),
        (dx, r.x1 - a.0),
        (-dy, a.1 - r.y0),
        (dy, r.y1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                lo = lo.max(t);
            } else {
                hi = hi.min(t);
            }
            if lo > hi {
                return false;
            }
        }
    }
    true
}

/// A piece of an edge: (edge, from, to).
type Segment = (usize, (f64, f64), (f64, f64));

/// The segments of the edges in buckets of a grid.
struct Lines {
    segs: Vec<Segment>,
    cells: HashMap<(i64, i64), Vec<usize>>,
}

impl Lines {
    fn new(requests: &[Request]) -> Lines {
        let mut l = Lines {
            segs: Vec::new(),
            cells: HashMap::new(),
        };
        for (e, req) in requests.iter().enumerate() {
            for w in req.path.windows(2) {
                let i = l.segs.len();
                l.segs.push((e, w[0], w[1]));
                let r = Rect {
                    x0: w[0].0.min(w[1].0),
                    y0: w[0].1.min(w[1].1),
                    x1: w[0].0.max(w[1].0),
                    y1: w[0].1.max(w[1].1),
                };
                let (a, b, c, d) = Grid::range(&r);
                for x in a..=c {
                    for y in b..=d {
                        l.cells.entry((x, y)).or_default().push(i);
                    }
                }
            }
        }
        l
    }

    /// How many edges other than `own` cross `r`.
    fn crossing(&self, r: &Rect, own: usize) -> usize {
        let (a, b, c, d) = Grid::range(r);
        let mut hit: Vec<usize> = Vec::new();
        for x in a..=c {
            for y in b..=d {
                for &i in self.cells.get(&(x, y)).into_iter().flatten() {
                    let (e, p, q) = self.segs[i];
                    if e != own && !hit.contains(&e) && crosses(r, p, q) {
                        hit.push(e);
                    }
                }
            }
        }
        hit.len()
    }
}

/// Place the labels of `requests` (in their order) away from `obstacles` and from each
/// other: one [`Placed`] per request.
pub fn place(obstacles: &[Rect], requests: &[Request]) -> Vec<Placed> {
    let mut grid = Grid {
        boxes: Vec::new(),
        cells: HashMap::new(),
    };
    for o in obstacles {
        grid.add(*o);
    }
    let lines = Lines::new(requests);
    let mut out = Vec::with_capacity(requests.len());
    for (e, req) in requests.iter().enumerate() {
        let (w, h) = req.size;
        // (edges crossed and distance, the box)
        let mut chosen: Option<(f64, Rect)> = None;
        let near = ALONG.iter().map(|&t| (t, OFF, 0.0));
        let far = FAR.iter().enumerate().flat_map(|(k, &d)| {
            ALONG
                .iter()
                .map(move |&t| (t, d, FAR_COST * (k + 1) as f64))
        });
        'search: for (t, d, cost) in near.chain(far) {
            let (x, y) = at(&req.path, t);
            for r in [
                Rect::at(x + d, y - h / 2.0, w, h),
                Rect::at(x - d - w, y - h / 2.0, w, h),
                Rect::at(x - w / 2.0, y - d - h, w, h),
                Rect::at(x - w / 2.0, y + d, w, h),
            ] {
                if grid.free(&r) {
                    let c = lines.crossing(&r, e) as f64 + cost;
                    if chosen.is_none_or(|(m, _)| c < m) {
                        chosen = Some((c, r));
                    }
                    if c == 0.0 {
                        break 'search;
                    }
                }
            }
        }
        let chosen = chosen.map(|(_, rect)| Placed { rect, leader: None });
        let placed = chosen.unwrap_or_else(|| {
            let p = at(&req.path, 0.5);
            let rect = nearest_free(&grid, p, w, h);
            // beside its edge after all: no leader line needed
            let near = rect.grow(OFF + 1.0);
            let touches = near.x0 <= p.0 && p.0 <= near.x1 && near.y0 <= p.1 && p.1 <= near.y1;
            Placed {
                rect,
                leader: (!touches).then_some(p),
            }
        });
        grid.add(placed.rect);
        out.push(placed);
    }
    debug_assert!(out.iter().enumerate().all(|(i, p)| grid
        .near(&p.rect)
        .iter()
        .all(|&j| j == obstacles.len() + i || !grid.boxes[j].overlaps(&p.rect))));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_label_goes_beside_the_middle_of_its_edge() {
        let p = place(
            &[],
            &[Request {
                path: vec![(0.0, 0.0), (0.0, 100.0)],
                size: (40.0, 14.0),
            }],
        );
        assert_eq!(p[0].rect, Rect::at(OFF, 43.0, 40.0, 14.0));
        assert_eq!(p[0].leader, None);
    }

    #[test]
    fn labels_of_parallel_edges_move_along_them_instead_of_overlapping() {
        // two edges side by side, 20 apart: the second label cannot go right of the middle
        let reqs: Vec<Request> = (0..2)
            .map(|i| Request {
                path: vec![(20.0 * i as f64, 0.0), (20.0 * i as f64, 200.0)],
                size: (60.0, 14.0),
            })
            .collect();
        let p = place(&[], &reqs);
        assert!(!p[0].rect.overlaps(&p[1].rect), "{p:?}");
        assert_eq!(p[1].leader, None, "{p:?}");
    }

    #[test]
    fn a_crowded_label_gets_the_nearest_free_place_and_a_leader() {
        // the edge runs inside a big obstacle: no candidate is free
        let wall = Rect::at(-500.0, -500.0, 1000.0, 1000.0);
        let p = place(
            &[wall],
            &[Request {
                path: vec![(0.0, 0.0), (0.0, 10.0)],
                size: (30.0, 14.0),
            }],
        );
        assert!(!p[0].rect.grow(PAD).overlaps(&wall), "{p:?}");
        assert!(p[0].leader.is_some());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Whatever the obstacles and edges, no label meets an obstacle or another label.
        #[test]
        fn no_label_overlaps(
            obst in proptest::collection::vec((0.0f64..400.0, 0.0f64..400.0, 10.0f64..80.0, 10.0f64..40.0), 0..20),
            edges in proptest::collection::vec((0.0f64..400.0, 0.0f64..400.0, 0.0f64..400.0, 0.0f64..400.0, 10.0f64..120.0), 0..60),
        ) {
            let obstacles: Vec<Rect> = obst.iter().map(|&(x, y, w, h)| Rect::at(x, y, w, h)).collect();
            let reqs: Vec<Request> = edges
                .iter()
                .map(|&(a, b, c, d, w)| Request { path: vec![(a, b), (c, d)], size: (w, 14.0) })
                .collect();
            let p = place(&obstacles, &reqs);
            prop_assert_eq!(p.len(), reqs.len());
            for (i, a) in p.iter().enumerate() {
                for o in &obstacles {
                    prop_assert!(!a.rect.overlaps(o), "{:?} meets {:?}", a, o);
                }
                for b in &p[i + 1..] {
                    prop_assert!(!a.rect.overlaps(&b.rect), "{:?} meets {:?}", a, b);
                }
            }
        }
    }
}
