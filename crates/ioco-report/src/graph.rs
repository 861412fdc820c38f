//! A picture of a model, neutral of where it came from: nodes (states, locations, test-case
//! nodes) and edges labelled with actions of a kind (input, output, δ, τ), optionally with
//! how often runs visited them ([`crate::walk::Visits`]) and the point where a run failed.
//! Built from an LTS ([`from_lts`]) or a data model ([`from_sts`]); drawn as SVG by
//! [`crate::svg`] after [`crate::layout`], or written as Graphviz DOT by [`to_dot`].

use crate::walk::Visits;
use ioco_lang::ir::{Direction, Spec};
use ioco_model::{LabelKind, Lts};
use std::fmt::Write;

/// What an edge's action is: drawn differently (colour, line style, `?`/`!`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An input (`?`): the tester's stimulus.
    Input,
    /// An output (`!`): the system's response.
    Output,
    /// Quiescence (δ).
    Quiescence,
    /// An internal step (τ), or an edge without an action.
    Internal,
}

impl Kind {
    /// The CSS class of the kind.
    pub fn class(self) -> &'static str {
        match self {
            Kind::Input => "in",
            Kind::Output => "out",
            Kind::Quiescence => "delta",
            Kind::Internal => "tau",
        }
    }
}

/// How a node ends a test, for pictures of test cases.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Mark {
    /// An ordinary node.
    #[default]
    None,
    /// A verdict leaf Pass.
    Pass,
    /// A verdict leaf Fail.
    Fail,
    /// A verdict leaf Inconclusive.
    Inconclusive,
    /// The place where the followed run failed (what it observed is not a transition).
    Failed,
}

/// A node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Node {
    /// The name shown (a state, a location, a verdict).
    pub name: String,
    /// An initial state.
    pub initial: bool,
    /// How often runs were here (`None`: no coverage is drawn).
    pub visits: Option<u64>,
    /// What kind of end it is.
    pub mark: Mark,
    /// The group it belongs to (the automaton of a location), shown in its tooltip.
    pub group: Option<String>,
}

/// An edge.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    /// Source node.
    pub from: usize,
    /// Target node.
    pub to: usize,
    /// The action as written (`coin?`, `coffee!`, `water?(w) [w > 0]`).
    pub label: String,
    /// Its kind.
    pub kind: Kind,
    /// How often runs took it (`None`: no coverage is drawn).
    pub visits: Option<u64>,
    /// The observation the followed run failed with (not a transition of the model).
    pub failing: bool,
}

/// A picture of a model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graph {
    /// Its title.
    pub title: String,
    /// The nodes.
    pub nodes: Vec<Node>,
    /// The edges.
    pub edges: Vec<Edge>,
}

impl Graph {
    /// Add a node; its index.
    pub fn node(&mut self, name: impl Into<String>) -> usize {
        self.nodes.push(Node {
            name: name.into(),
            ..Node::default()
        });
        self.nodes.len() - 1
    }

    /// Add an edge.
    pub fn edge(&mut self, from: usize, to: usize, label: impl Into<String>, kind: Kind) {
        self.edges.push(Edge {
            from,
            to,
            label: label.into(),
            kind,
            visits: None,
            failing: false,
        });
    }

    /// (visited, total) over the nodes, when coverage is drawn.
    pub fn node_coverage(&self) -> Option<(usize, usize)> {
        let model: Vec<&Node> = self
            .nodes
            .iter()
            .filter(|n| n.mark != Mark::Failed)
            .collect();
        model.first()?.visits?;
        let seen = model.iter().filter(|n| n.visits.unwrap_or(0) > 0).count();
        Some((seen, model.len()))
    }

    /// (visited, total) over the edges of the model (the failing observation not counted),
    /// when coverage is drawn.
    pub fn edge_coverage(&self) -> Option<(usize, usize)> {
        let model: Vec<&Edge> = self.edges.iter().filter(|e| !e.failing).collect();
        model.first()?.visits?;
        let seen = model.iter().filter(|e| e.visits.unwrap_or(0) > 0).count();
        Some((seen, model.len()))
    }

    /// Mark where the followed run of `visits` failed: its nodes before the refused step,
    /// and an edge from each to a new node for what was `observed` (drawn in red).
    pub fn mark_failure(&mut self, visits: &Visits, observed: &str) {
        let Some((_, before)) = visits.focus.as_ref().and_then(|f| f.refused.as_ref()) else {
            return;
        };
        if before.is_empty() {
            return;
        }
        let x = self.node(format!("✗ {observed}"));
        self.nodes[x].mark = Mark::Failed;
        let kind = if observed == "δ" {
            Kind::Quiescence
        } else {
            Kind::Output
        };
        for &n in before {
            if (n as usize) < x {
                self.edges.push(Edge {
                    from: n as usize,
                    to: x,
                    label: observed.to_string(),
                    kind,
                    visits: None,
                    failing: true,
                });
            }
        }
    }
}

fn kind_of(k: LabelKind) -> Kind {
    match k {
        LabelKind::Input => Kind::Input,
        LabelKind::Output => Kind::Output,
        LabelKind::Quiescence => Kind::Quiescence,
        LabelKind::Internal => Kind::Internal,
    }
}

/// The picture of an LTS (its states and transitions), with the coverage of `visits`.
pub fn from_lts(lts: &Lts, title: &str, visits: Option<&Visits>) -> Graph {
    let a = lts.alphabet();
    let mut g = Graph {
        title: title.to_string(),
        ..Graph::default()
    };
    for s in lts.states() {
        let n = g.node(lts.state_name(s));
        g.nodes[n].visits = visits.map(|v| v.nodes.get(s as usize).copied().unwrap_or(0));
    }
    for &s in lts.initial() {
        g.nodes[s as usize].initial = true;
    }
    for (s, l, t) in lts.transitions() {
        g.edges.push(Edge {
            from: s as usize,
            to: t as usize,
            label: a.display(l),
            kind: kind_of(a.kind(l)),
            visits: visits.map(|v| v.edges.get(&(s, l.0, t)).copied().unwrap_or(0)),
            failing: false,
        });
    }
    g
}

/// The picture of a data model: the locations of its automata (named `Automaton.location`
/// when it has several) and its switches labelled as `ioco show --sts` writes them, with the
/// coverage of `visits` (nodes numbered as [`crate::walk::location_node`]).
pub fn from_sts(spec: &Spec, visits: Option<&Visits>) -> Graph {
    let mut g = Graph {
        title: spec.name.clone(),
        ..Graph::default()
    };
    let many = spec.automata.len() > 1;
    let mut first = Vec::new();
    for a in &spec.automata {
        first.push(g.nodes.len());
        for l in &a.locations {
            let name = if many {
                format!("{}.{}", a.name, l.name)
            } else {
                l.name.clone()
            };
            let n = g.node(name);
            g.nodes[n].group = Some(a.name.clone());
            g.nodes[n].visits = visits.map(|v| v.nodes.get(n).copied().unwrap_or(0));
        }
        if !a.locations.is_empty() {
            let i = first[first.len() - 1] + a.initial as usize;
            g.nodes[i].initial = true;
        }
    }
    for (ai, a) in spec.automata.iter().enumerate() {
        for (si, sw) in a.switches.iter().enumerate() {
            let kind = match sw.gate.and_then(|gid| a.gates.get(gid as usize)) {
                None => Kind::Internal,
                Some(gate) if gate.dir == Direction::Input => Kind::Input,
                Some(_) => Kind::Output,
            };
            g.edges.push(Edge {
                from: first[ai] + sw.from as usize,
                to: first[ai] + sw.to as usize,
                label: ioco_symbolic::draw::switch_label(spec, a, sw),
                kind,
                visits: visits.map(|v| {
                    v.edges
                        .get(&(ai as u32, si as u32, 0))
                        .copied()
                        .unwrap_or(0)
                }),
                failing: false,
            });
        }
    }
    g
}

fn dot_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                o.push('\\');
                o.push(c);
            }
            '\n' => o.push_str("\\n"),
            c if c.is_control() => o.push_str(&c.escape_default().to_string()),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The picture as Graphviz DOT: inputs solid blue, outputs dashed green, δ dotted grey, τ
/// grey; verdict leaves as boxes (pass green, fail red); with coverage, visit counts in the
/// labels and unvisited parts grey.
pub fn to_dot(g: &Graph) -> String {
    let mut o = String::from("digraph ioco {\n  rankdir=TB;\n  node [shape=ellipse, fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n");
    let _ = writeln!(o, "  label={};", dot_str(&g.title));
    for (i, n) in g.nodes.iter().enumerate() {
        let mut label = n.name.clone();
        let mut attrs = Vec::new();
        if let Some(v) = n.visits {
            let _ = write!(label, "\n×{v}");
            if v == 0 {
                attrs.push("color=gray, fontcolor=gray".to_string());
            } else {
                attrs.push("style=filled, fillcolor=\"#dff3e4\"".to_string());
            }
        }
        match n.mark {
            Mark::None => {}
            Mark::Pass => attrs.push("shape=box, color=\"#1a7f37\", fontcolor=\"#1a7f37\"".into()),
            Mark::Fail | Mark::Failed => {
                attrs.push("shape=box, color=\"#cf222e\", fontcolor=\"#cf222e\", penwidth=2".into())
            }
            Mark::Inconclusive => attrs.push("shape=box, color=\"#9a6700\"".into()),
        }
        if n.initial {
            attrs.push("penwidth=2".into());
            let _ = writeln!(o, "  __start{i} [label=\"\", shape=point];");
            let _ = writeln!(o, "  __start{i} -> n{i};");
        }
        attrs.insert(0, format!("label={}", dot_str(&label)));
        let _ = writeln!(o, "  n{i} [{}];", attrs.join(", "));
    }
    for e in &g.edges {
        let mut label = e.label.clone();
        let mut attrs = vec![match e.kind {
            Kind::Input => "color=\"#0969da\", fontcolor=\"#0969da\"".to_string(),
            Kind::Output => "color=\"#1a7f37\", fontcolor=\"#1a7f37\", style=dashed".to_string(),
            Kind::Quiescence => "color=gray40, fontcolor=gray40, style=dotted".to_string(),
            Kind::Internal => "color=gray60, fontcolor=gray60".to_string(),
        }];
        if let Some(v) = e.visits {
            let _ = write!(label, " ×{v}");
            if v == 0 {
                attrs.push("color=gray80".into());
            } else {
                attrs.push(format!("penwidth={:.1}", 1.0 + (v as f64).log2().min(4.0)));
            }
        }
        if e.failing {
            attrs.push("color=\"#cf222e\", fontcolor=\"#cf222e\", penwidth=2.5".into());
        }
        attrs.insert(0, format!("label={}", dot_str(&label)));
        let _ = writeln!(o, "  n{} -> n{} [{}];", e.from, e.to, attrs.join(", "));
    }
    o.push_str("}\n");
    o
}
