//! Fixtures from the papers, used by the tests of this crate and of `ioco-exec`.
//!
//! [`music_player`]: the tutorial's music player (P1 Examples 2.1-2.4; the figures are lost,
//! this is the reconstruction of note §3.4) with seven implementations and their expected ioco
//! verdicts.

/// The music player of tutorial Examples 2.1-2.4 (reconstruction, note §3.4).
pub mod music_player {
    use ioco_model::{Alphabet, LabelKind, Lts, LtsBuilder};

    fn build(n: usize, edges: &[(u32, &str, u32)]) -> Lts {
        let mut a = Alphabet::new();
        a.input("shuffle").unwrap();
        for o in ["playA", "playB", "done"] {
            a.output(o).unwrap();
        }
        let mut b = LtsBuilder::new(a);
        b.add_states(n);
        b.add_initial(0);
        for &(s, l, t) in edges {
            let (name, kind) = match l.strip_suffix('?') {
                Some(n) => (n, LabelKind::Input),
                None => (l.trim_end_matches('!'), LabelKind::Output),
            };
            b.add(s, name, kind, t).unwrap();
        }
        b.build().unwrap()
    }

    /// The specification: s0 -shuffle?-> s1 -playA!/playB!-> s2/s3 -done!-> s0, and shuffle?
    /// in s2, s3 starts a new song. Not input-enabled (s1 does not take shuffle?).
    pub fn spec() -> Lts {
        build(
            4,
            &[
                (0, "shuffle?", 1),
                (1, "playA!", 2),
                (1, "playB!", 3),
                (2, "done!", 0),
                (2, "shuffle?", 1),
                (3, "done!", 0),
                (3, "shuffle?", 1),
            ],
        )
    }

    const A_ONLY: &[(u32, &str, u32)] = &[
        (0, "shuffle?", 1),
        (1, "shuffle?", 1),
        (1, "playA!", 2),
        (2, "done!", 0),
        (2, "shuffle?", 1),
    ];

    /// The seven implementations of note §3.4: `(name, LTS, conforms?)`. All input-enabled.
    pub fn implementations() -> Vec<(&'static str, Lts, bool)> {
        let mut early = A_ONLY.to_vec();
        early.push((0, "playA!", 2));
        let nodone: Vec<_> = A_ONLY
            .iter()
            .copied()
            .filter(|e| *e != (2, "done!", 0))
            .collect();
        vec![
            ("A-only", build(3, A_ONLY), true),
            (
                "full",
                build(
                    4,
                    &[
                        (0, "shuffle?", 1),
                        (1, "shuffle?", 1),
                        (1, "playA!", 2),
                        (1, "playB!", 3),
                        (2, "done!", 0),
                        (2, "shuffle?", 1),
                        (3, "done!", 0),
                        (3, "shuffle?", 1),
                    ],
                ),
                true,
            ),
            ("silent", build(1, &[(0, "shuffle?", 0)]), false),
            ("early", build(3, &early), false),
            (
                "err",
                build(
                    3,
                    &[
                        (0, "playA!", 1),
                        (0, "shuffle?", 2),
                        (2, "shuffle?", 2),
                        (1, "done!", 0),
                        (1, "shuffle?", 2),
                    ],
                ),
                false,
            ),
            ("nodone", build(3, &nodone), false),
            (
                "double",
                build(
                    4,
                    &[
                        (0, "shuffle?", 1),
                        (1, "shuffle?", 1),
                        (1, "playA!", 2),
                        (2, "playA!", 3),
                        (2, "shuffle?", 1),
                        (3, "done!", 0),
                        (3, "shuffle?", 1),
                    ],
                ),
                false,
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::music_player;
    use ioco_model::{compare, CompareOptions};

    #[test]
    fn expected_ioco_verdicts_hold() {
        let spec = music_player::spec();
        for (name, imp, conforms) in music_player::implementations() {
            assert!(imp.is_input_enabled(), "{name}");
            let c = compare(&imp, &spec, &CompareOptions::default()).unwrap();
            assert_eq!(c.conforms(), conforms, "{name}: {:?}", c.counterexample);
        }
    }
}
