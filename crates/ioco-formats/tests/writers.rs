//! Writers keep labels: what `aut::write` writes reads back as the same model, or (`.aut` has
//! no escapes) the writer refuses the label with an error, never a file that reads back as
//! another model; `json::write_lts` and `dot::write_lts` round-trip any label whose name has no
//! blank at its ends and does not begin with a direction marker (names are trimmed and
//! classified on reading).

use ioco_formats::{aut, dot, json};
use ioco_model::{Alphabet, LabelKind, Lts, LtsBuilder};
use proptest::prelude::*;

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-z0-9_]{0,6}",
        "\\PC{1,10}",
        "[ a-z&()\"'<>|`*_\\\\,?!\n\r\t]{1,8}",
        Just("a \"quoted\" name".to_string()),
        Just("ChangeCipherSpec & Finished".to_string()),
    ]
}

fn model() -> impl Strategy<Value = Lts> {
    proptest::collection::vec((name(), any::<bool>()), 1..5).prop_map(|labels| {
        let mut b = LtsBuilder::new(Alphabet::new());
        b.add_state();
        b.add_state();
        b.add_initial(0);
        for (n, input) in labels {
            let kind = if input {
                LabelKind::Input
            } else {
                LabelKind::Output
            };
            // A name that is already used with the other direction is skipped.
            let _ = b.add(0, &n, kind, 1);
        }
        b.build().unwrap()
    })
}

/// The visible labels as (kind, name), sorted.
fn labels(l: &Lts) -> Vec<(bool, String)> {
    let a = l.alphabet();
    let mut v: Vec<(bool, String)> = a
        .all()
        .filter(|&x| matches!(a.kind(x), LabelKind::Input | LabelKind::Output))
        .filter(|&x| l.transitions().any(|(_, y, _)| y == x))
        .map(|x| (a.is_input(x), a.name(x).to_string()))
        .collect();
    v.sort();
    v
}

/// No name with a blank or a control character at an end, or a direction marker first.
fn plain(l: &Lts) -> bool {
    labels(l).iter().all(|(_, n)| {
        n.trim() == n
            && !n.starts_with(['?', '!'])
            && !n.ends_with(['?', '!'])
            && !n.contains(['\n', '\r'])
            && !["tau", "i", "τ", "delta", "δ", "quiescence"].contains(&n.as_str())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn aut_round_trips_or_refuses(l in model()) {
        match aut::write(&l) {
            Ok(text) => {
                let back = aut::parse(&text, "w.aut");
                prop_assert!(back.is_ok(), "{:?}\n{}", back.err(), text);
                prop_assert_eq!(labels(&back.unwrap()), labels(&l));
            }
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(msg.contains("cannot be written in .aut"), "{}", msg);
            }
        }
    }

    #[test]
    fn json_round_trips(l in model().prop_filter("plain ends", plain)) {
        let text = json::write_lts(&l);
        let back = json::read_lts(&text, "w.json");
        prop_assert!(back.is_ok(), "{:?}\n{}", back.err(), text);
        prop_assert_eq!(labels(&back.unwrap()), labels(&l));
    }

    #[test]
    fn dot_round_trips(l in model().prop_filter("plain ends", plain)) {
        let text = dot::write_lts(&l);
        let back = dot::parse_lts(&text, "w.dot");
        prop_assert!(back.is_ok(), "{:?}\n{}", back.err(), text);
        prop_assert_eq!(labels(&back.unwrap()), labels(&l));
    }
}
