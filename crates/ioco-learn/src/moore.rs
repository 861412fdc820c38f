//! Moore machines (outputs on states) from a learned machine of a Moore system.
//!
//! A Moore system shows its state's output at start-up and after every input. Learned as a
//! Mealy machine (each input's output is the output of the state it reaches), its initial
//! output is the start-up output. The Moore machine's states are the pairs (Mealy state,
//! output on entering it), reachable from (initial state, start-up output): the standard
//! Mealy-to-Moore construction. From a minimal Mealy machine it gives a minimal Moore machine
//! (two pairs with the same output and the same Mealy state are one pair, and Mealy states
//! are pairwise inequivalent), e.g. AALpy's car alarm: 5 Mealy states, 6 Moore states
//! (`q1_locked_closed` and `q3_locked_closed` differ only in their own output).
//!
//! [`Moore::to_dot`] writes AALpy's Moore dialect (`s0 [label="s0|out"]`, edges labelled
//! with the input only), which `ioco-formats` reads back as the Mealy machine above.

use crate::system::QUIESCENCE;
use ioco_model::Mealy;
use std::collections::HashMap;
use std::fmt::Write;

/// A Moore machine: states with outputs, transitions labelled with inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moore {
    /// The inputs.
    pub inputs: Vec<String>,
    /// Each state's output; state 0 is initial.
    pub outputs: Vec<String>,
    /// `next[s * inputs + i]`: the successor, `None` where the machine is partial.
    pub next: Vec<Option<u32>>,
}

impl Moore {
    /// The Moore machine of `m` with the initial output `initial` (see the module docs).
    pub fn from_mealy(m: &Mealy, initial: &str) -> Moore {
        let k = m.num_inputs();
        let mut index: HashMap<(u32, &str), u32> = HashMap::new();
        let mut pairs: Vec<(u32, &str)> = vec![(m.initial, initial)];
        index.insert((m.initial, initial), 0);
        let mut next = Vec::new();
        let mut s = 0;
        while s < pairs.len() {
            let (q, _) = pairs[s];
            for i in 0..k as u32 {
                next.push(m.step(q, i).map(|(t, o)| {
                    let key = (t, m.outputs[o as usize].as_str());
                    *index.entry(key).or_insert_with(|| {
                        pairs.push(key);
                        pairs.len() as u32 - 1
                    })
                }));
            }
            s += 1;
        }
        Moore {
            inputs: m.inputs.clone(),
            outputs: pairs.iter().map(|&(_, o)| o.to_string()).collect(),
            next,
        }
    }

    /// The number of states.
    pub fn num_states(&self) -> usize {
        self.outputs.len()
    }

    /// The successor of `s` on input `i`.
    pub fn step(&self, s: u32, i: u32) -> Option<u32> {
        self.next[s as usize * self.inputs.len() + i as usize]
    }

    /// Why the machine cannot be written in AALpy's Moore dialect: an output that is not one
    /// line (quiescence, or several outputs), or an input the reader would take for a Mealy or
    /// LTS label.
    pub fn dot_problem(&self) -> Option<String> {
        if let Some(o) = self
            .outputs
            .iter()
            .find(|o| *o == QUIESCENCE || o.contains('\n'))
        {
            return Some(format!(
                "a state's output is `{}`: a Moore machine in DOT has one output line per state",
                crate::system::show_output(o)
            ));
        }
        if let Some(i) = self
            .inputs
            .iter()
            .find(|i| i.contains('/') || i.ends_with('?') || i.ends_with('!'))
        {
            return Some(format!(
                "the input `{i}` would be read back as a Mealy or LTS label"
            ));
        }
        None
    }

    /// AALpy's Moore dialect of DOT (states `s0`, `s1`, ..., `s0` initial); see
    /// [`Moore::dot_problem`] for what it cannot hold.
    pub fn to_dot(&self) -> String {
        let q = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
        let mut out = String::from("digraph moore {\n");
        for (s, o) in self.outputs.iter().enumerate() {
            let _ = writeln!(out, "s{s} [label={}];", q(&format!("s{s}|{o}")));
        }
        for s in 0..self.num_states() as u32 {
            for (i, name) in self.inputs.iter().enumerate() {
                if let Some(t) = self.step(s, i as u32) {
                    let _ = writeln!(out, "s{s} -> s{t} [label={}];", q(name));
                }
            }
        }
        out.push_str("__start0 [label=\"\", shape=none];\n__start0 -> s0 [label=\"\"];\n}\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A light: `press` toggles it, `look` keeps it; the output is the light's state. As a
    /// Mealy machine (outputs of the states reached) `look` merges nothing, but a two-state
    /// Mealy machine whose transitions into one state carry two outputs splits in two.
    #[test]
    fn states_are_split_by_the_output_on_entering_them() {
        // one Mealy state, reached with `on` by `a` and with `off` by `b`
        let mut m = Mealy::new(
            1,
            vec!["a".into(), "b".into()],
            vec!["on".into(), "off".into()],
            0,
        );
        m.set(0, 0, 0, 0);
        m.set(0, 1, 0, 1);
        let moore = Moore::from_mealy(&m, "off");
        assert_eq!(moore.outputs, vec!["off", "on"]);
        assert_eq!(moore.step(0, 0), Some(1));
        assert_eq!(moore.step(1, 1), Some(0));
        assert_eq!(moore.dot_problem(), None);
        let dot = moore.to_dot();
        assert!(dot.contains("s1 [label=\"s1|on\"];"), "{dot}");
        assert!(dot.contains("s0 -> s1 [label=\"a\"];"), "{dot}");
        let q = Moore::from_mealy(&m, QUIESCENCE);
        assert!(q.dot_problem().unwrap().contains("`δ`"));
    }
}
