//! A test suite as one picture: the prefix tree of its test cases (tutorial Def. 5.1 trees,
//! merged where they share a prefix), inputs and outputs drawn as the model's, verdict leaves
//! as boxes. An observation a node does not list gets the node's `otherwise` verdict; it is
//! drawn as an edge `otherwise` only when that verdict is not Fail (Fail is the rule of ioco
//! tests, said in the title).

use crate::graph::{Graph, Kind, Mark};
use ioco_gen::{Suite, TestCase, Verdict};
use std::collections::HashMap;

/// Nodes above which a suite is not drawn.
pub const MAX_TREE_NODES: usize = 200_000;

fn mark(v: Verdict) -> Mark {
    match v {
        Verdict::Pass => Mark::Pass,
        Verdict::Fail => Mark::Fail,
        Verdict::Inconclusive => Mark::Inconclusive,
    }
}

fn kind(label: &str) -> Kind {
    if label == ioco_gen::testcase::DELTA {
        Kind::Quiescence
    } else if label.ends_with('?') {
        Kind::Input
    } else {
        Kind::Output
    }
}

struct Tree {
    g: Graph,
    /// (node, label) → child: the prefix tree's sharing.
    child: HashMap<(usize, String), usize>,
}

impl Tree {
    fn to(&mut self, from: usize, label: &str) -> Result<usize, String> {
        if let Some(&c) = self.child.get(&(from, label.to_string())) {
            return Ok(c);
        }
        if self.g.nodes.len() >= MAX_TREE_NODES {
            return Err(format!(
                "the suite's tree has more than {MAX_TREE_NODES} nodes; draw one test with --test NAME"
            ));
        }
        let c = self.g.node(String::new());
        self.g.edge(from, c, label, kind(label));
        self.child.insert((from, label.to_string()), c);
        Ok(c)
    }

    fn add(&mut self, at: usize, t: &TestCase) -> Result<(), String> {
        match t {
            TestCase::Leaf { verdict, .. } => {
                let n = &mut self.g.nodes[at];
                if n.mark == Mark::None {
                    n.mark = mark(*verdict);
                    n.name = verdict_name(*verdict).into();
                }
            }
            TestCase::Observe {
                branches,
                otherwise,
            } => {
                for b in branches {
                    let c = self.to(at, &b.label)?;
                    self.add(c, &b.then)?;
                }
                self.otherwise(at, *otherwise)?;
            }
            TestCase::Stimulate {
                input,
                after,
                branches,
                otherwise,
            } => {
                let c = self.to(at, input)?;
                self.add(c, after)?;
                for b in branches {
                    let c = self.to(at, &b.label)?;
                    self.add(c, &b.then)?;
                }
                if !branches.is_empty() {
                    self.otherwise(at, *otherwise)?;
                }
            }
        }
        Ok(())
    }

    fn otherwise(&mut self, at: usize, v: Verdict) -> Result<(), String> {
        if v != Verdict::Fail {
            let c = self.to(at, "otherwise")?;
            if let Some(e) = self.g.edges.iter_mut().find(|e| e.to == c) {
                e.kind = Kind::Internal;
            }
            let n = &mut self.g.nodes[c];
            n.mark = mark(v);
            n.name = verdict_name(v).into();
        }
        Ok(())
    }
}

fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Pass => "pass",
        Verdict::Fail => "fail",
        Verdict::Inconclusive => "inconc",
    }
}

/// The prefix tree of `suite`'s tests (nested suites included), or of its test named `only`.
pub fn suite_tree(suite: &Suite, only: Option<&str>) -> Result<Graph, String> {
    let mut tree = Tree {
        g: Graph::default(),
        child: HashMap::new(),
    };
    let root = tree.g.node("start");
    tree.g.nodes[root].initial = true;
    let mut n = 0;
    let mut stack = vec![suite];
    let mut names = Vec::new();
    while let Some(s) = stack.pop() {
        for t in &s.tests {
            names.push(t.name.as_str());
            if only.is_none_or(|o| o == t.name) {
                tree.add(root, &t.test)?;
                n += 1;
            }
        }
        stack.extend(s.suites.iter().rev());
    }
    if n == 0 {
        return Err(match only {
            Some(o) => {
                names.truncate(20);
                format!(
                    "the suite has no test `{o}` (its tests: {})",
                    names.join(", ")
                )
            }
            None => "the suite has no tests".into(),
        });
    }
    // a test that ends where another goes on: the node is an inner one
    let mut inner = vec![false; tree.g.nodes.len()];
    for e in &tree.g.edges {
        inner[e.from] = true;
    }
    for (i, node) in tree.g.nodes.iter_mut().enumerate().skip(1) {
        if inner[i] {
            node.mark = Mark::None;
            node.name.clear();
        }
    }
    // inner nodes get their depth-first number, so that a node can be named
    let mut k = 0;
    for node in tree.g.nodes.iter_mut().skip(1) {
        if node.name.is_empty() {
            k += 1;
            node.name = format!("t{k}");
        }
    }
    tree.g.title = match only {
        Some(o) => format!(
            "test {o} of a {} suite (other observations: fail)",
            suite.method
        ),
        None => format!(
            "{n} tests of a {} suite as a prefix tree (other observations: fail)",
            suite.method
        ),
    };
    Ok(tree.g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ioco_gen::NamedTest;

    #[test]
    fn shared_prefixes_are_drawn_once() {
        let mut s = Suite::new("w");
        for (name, steps) in [("a", vec!["a?", "x!"]), ("b", vec!["a?", "y!"])] {
            let steps: Vec<String> = steps.into_iter().map(String::from).collect();
            s.tests.push(NamedTest {
                name: name.into(),
                purpose: None,
                test: TestCase::word(&steps),
            });
        }
        let g = suite_tree(&s, None).unwrap();
        // start, after a?, after x! (pass), after y! (pass)
        assert_eq!(g.nodes.len(), 4);
        assert_eq!(g.edges.len(), 3);
        assert_eq!(g.edges[0].kind, Kind::Input);
        assert_eq!(g.nodes.iter().filter(|n| n.mark == Mark::Pass).count(), 2);
        let one = suite_tree(&s, Some("b")).unwrap();
        assert_eq!(one.nodes.len(), 3);
        assert!(suite_tree(&s, Some("c"))
            .unwrap_err()
            .contains("its tests: a, b"));
    }
}
