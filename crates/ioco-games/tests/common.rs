//! Shared helpers for the integration tests (included with `mod common;`).
#![allow(dead_code)]

use ioco_model::{Alphabet, Label, LabelKind, Lts, LtsBuilder};

/// Build an LTS from `(source, label, target)` triples; labels end in `?`, `!`, or are `δ`/`τ`.
/// The first state mentioned is initial.
pub fn lts(edges: &[(&str, &str, &str)]) -> Lts {
    let mut names: Vec<String> = Vec::new();
    let id = |n: &str, names: &mut Vec<String>| -> u32 {
        match names.iter().position(|x| x == n) {
            Some(i) => i as u32,
            None => {
                names.push(n.to_string());
                (names.len() - 1) as u32
            }
        }
    };
    let mut triples = Vec::new();
    for &(s, l, t) in edges {
        let s = id(s, &mut names);
        let t = id(t, &mut names);
        triples.push((s, l.to_string(), t));
    }
    let mut b = LtsBuilder::new(Alphabet::new());
    b.add_states(names.len());
    b.add_initial(0);
    for (s, l, t) in triples {
        if l == "δ" {
            b.add_transition(s, Label::DELTA, t);
        } else if l == "τ" {
            b.add_transition(s, Label::TAU, t);
        } else if let Some(n) = l.strip_suffix('?') {
            b.add(s, n, LabelKind::Input, t).unwrap();
        } else if let Some(n) = l.strip_suffix('!') {
            b.add(s, n, LabelKind::Output, t).unwrap();
        } else {
            panic!("label {l} needs ? or !");
        }
    }
    b.set_state_names(names);
    b.build().unwrap()
}

/// The MP3 player SA (thesis Fig. 5.2 as rebuilt in the note, §7.2). Mixed states: q1, q3.
pub fn mp3() -> Lts {
    lts(&[
        ("q0", "δ", "q0"),
        ("q0", "play?", "q1"),
        ("q0", "repeat?", "q2"),
        ("q1", "song!", "q1"),
        ("q1", "endPlayList!", "q0"),
        ("q1", "quit?", "q0"),
        ("q1", "repeat?", "q3"),
        ("q2", "δ", "q2"),
        ("q2", "play?", "q3"),
        ("q2", "quitRepeat?", "q0"),
        ("q3", "song!", "q3"),
        ("q3", "quit?", "q2"),
        ("q3", "quitRepeat?", "q1"),
    ])
}

/// The printer SA (thesis Fig. 5.3, minimal rebuild of the note §7.3). Mixed: q1, q3.
pub fn printer() -> Lts {
    lts(&[
        ("q0", "δ", "q0"),
        ("q0", "print?", "q3"),
        ("q0", "scan?", "q1"),
        ("q3", "printed!", "q6"),
        ("q3", "scan?", "q4"),
        ("q1", "scanned!", "q2"),
        ("q1", "print?", "q4"),
        ("q4", "printed!", "q5"),
        ("q4", "scanned!", "q7"),
        ("q5", "scanned!", "q2"),
        ("q7", "printed!", "q6"),
        ("q6", "δ", "q6"),
        ("q2", "δ", "q2"),
    ])
}

/// The SA state named `name`.
pub fn st(sa: &Lts, name: &str) -> u32 {
    sa.states().find(|&q| sa.state_name(q) == name).unwrap()
}
