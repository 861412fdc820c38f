//! The benchmark models of thesis Tables 3.1/3.2 (issue #18 item 1, `docs/experiments.md`,
//! "Benchmarks of Tables 3.1/3.2"): `ioco analyze` on each pins the Table 3.1 statistics
//! (states, labels, transitions) and the Table 3.2 columns we get. Where the model meets the
//! thesis's figure the pinned value is the thesis's; the others are ours, explained in the
//! document. TCP and leader election have a model derived from the descriptions alone
//! (`tcp-rfc793.ioco`, `leader-election-derived.ioco`, issue #36: the tests named `derived`)
//! besides the fitted ones, kept as curiosities. LE-4 with the thesis's splitting rule (56 651 splitting-graph nodes) takes over
//! 10 s and is `#[ignore]`d:
//! `cargo test --release -p ioco-cli --test thesis_benchmarks -- --ignored`.

mod common;

use common::ioco;
use serde_json::Value;

/// `ioco analyze --json [--entry ENTRY] [EXTRA..] MODEL`.
fn analyze(model: &str, entry: Option<&str>, extra: &[&str]) -> Value {
    let mut cmd = ioco();
    if let Some(e) = entry {
        cmd.args(["--entry", e]);
    }
    let out = cmd
        .args(["analyze", "--json"])
        .args(extra)
        .arg(model)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "ioco analyze {model}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A row of thesis Table 3.1: states, inputs, outputs (δ included), transitions, input
/// transitions, output transitions (δ loops included).
type Table31 = (u64, u64, u64, u64, u64, u64);

/// A row of thesis Table 3.2 as `ioco analyze` prints it: ordered compatible pairs,
/// splitting-graph nodes, ADG depth, ordered incompatible pairs sharing an observation
/// (Table 3.2's "not distinguished"), the same plus those separated only by an input one of
/// the two states lacks ("not separated"), average and weighted average leaf size (2
/// decimals, as in the table).
type Table32 = (u64, u64, u64, u64, u64, &'static str, &'static str);

fn table_3_1(v: &Value) -> Table31 {
    let n = |k: &str| v[k].as_u64().unwrap();
    (
        n("states"),
        n("inputs"),
        n("outputs"),
        n("transitions"),
        n("input_transitions"),
        n("output_transitions"),
    )
}

fn table_3_2(v: &Value) -> (u64, u64, u64, u64, u64, String, String) {
    let a = &v["adg"];
    assert_eq!(a["splitting_graph_complete"], true);
    assert_eq!(a["truncated"], false);
    let n = |k: &str| a[k].as_u64().unwrap();
    let f = |k: &str| format!("{:.2}", a[k].as_f64().unwrap());
    (
        v["compatible_pairs"].as_u64().unwrap(),
        n("splitting_graph_nodes"),
        n("depth"),
        n("undistinguished_pairs"),
        n("unseparated_pairs"),
        f("average_leaf_size"),
        f("weighted_leaf_size"),
    )
}

fn check(model: &str, entry: Option<&str>, extra: &[&str], t31: Table31, t32: Table32) {
    let v = analyze(model, entry, extra);
    assert_eq!(table_3_1(&v), t31, "Table 3.1 of {model} {entry:?}");
    // The sums of Table 3.1 hold: transitions = input + output transitions.
    assert_eq!(t31.3, t31.4 + t31.5);
    let (c, s, d, u, p, a, w) = t32;
    assert_eq!(
        table_3_2(&v),
        (c, s, d, u, p, a.to_string(), w.to_string()),
        "Table 3.2 of {model} {entry:?} {extra:?}"
    );
    // The percentage is over the n(n−1) ordered pairs, as Table 3.2's.
    let n = t31.0 as f64;
    let pct = v["compatible_percent"].as_f64().unwrap();
    assert!((pct - 100.0 * c as f64 / (n * (n - 1.0))).abs() < 1e-9);
}

const LE: &str = "examples/thesis/leader-election.ioco";
const DROPBOX: &str = "examples/thesis/dropbox.ioco";
const EVERY: &[&str] = &["--non-enabling", "every-child"];

#[test]
fn le_3center_meets_table_3_1_and_the_compatible_pairs_of_table_3_2() {
    // Thesis: 97 states, 6 inputs, 8 outputs, 247 transitions (78 in, 169 out);
    // 284 compatible pairs (3.05 %), 493 nodes, depth 8, 98 not distinguished, 1.05, 1.13.
    let t31 = (97, 6, 8, 247, 78, 169);
    check(
        LE,
        Some("LE3Center"),
        &[],
        t31,
        (284, 166, 7, 180, 180, "1.26", "3.76"),
    );
    check(
        LE,
        Some("LE3Center"),
        EVERY,
        t31,
        (284, 448, 7, 164, 164, "1.20", "3.67"),
    );
    // Alg. 5 as printed (the first Table 3.2 of docs/experiments.md): it applies inputs some
    // current state lacks, so no pair shares an observation but 142 / 116 are separated only
    // by such an input.
    check(
        LE,
        Some("LE3Center"),
        &["--alg5-as-printed"],
        t31,
        (284, 166, 8, 0, 142, "1.02", "1.06"),
    );
    check(
        LE,
        Some("LE3Center"),
        &["--alg5-as-printed", "--non-enabling", "every-child"],
        t31,
        (284, 448, 7, 0, 116, "1.06", "1.15"),
    );
}

#[test]
fn le_3side_meets_table_3_1_and_the_compatible_pairs_of_table_3_2() {
    // Thesis: 147 states, 8 inputs, 10 outputs, 364 transitions (96 in, 268 out);
    // 946 compatible pairs (4.41 %), 8443 nodes, depth 9, 202 not distinguished, 1.04, 1.06.
    let t31 = (147, 8, 10, 364, 96, 268);
    check(
        LE,
        Some("LE3Side"),
        &[],
        t31,
        (946, 258, 8, 278, 278, "1.18", "4.26"),
    );
    check(
        LE,
        Some("LE3Side"),
        EVERY,
        t31,
        (946, 8446, 8, 278, 278, "1.18", "4.26"),
    );
}

#[test]
fn le_4_meets_table_3_1_and_the_compatible_pairs_of_table_3_2() {
    // Thesis: 793 states, 9 inputs, 11 outputs, 2906 transitions (869 in, 2037 out);
    // 4270 compatible pairs (0.68 %), 91577 nodes, depth 13, 2190 not distinguished, 1.03, 1.12.
    // With the thesis's splitting rule (`--non-enabling every-child`): the ignored test below.
    let t31 = (793, 9, 11, 2906, 869, 2037);
    check(
        LE,
        Some("LE4"),
        &[],
        t31,
        (4270, 1505, 11, 3390, 3390, "1.21", "8.69"),
    );
}

#[test]
#[ignore = "13 s with the test profile, a minute in a debug build: cargo test --release -p ioco-cli --test thesis_benchmarks -- --ignored"]
fn le_4_with_the_thesis_splitting_rule() {
    let t31 = (793, 9, 11, 2906, 869, 2037);
    check(
        LE,
        Some("LE4"),
        EVERY,
        t31,
        (4270, 56651, 12, 3038, 3038, "1.11", "8.37"),
    );
}

#[test]
fn dropbox_3_meets_table_3_1_but_one_input_label() {
    // Thesis: 752 states, 9 inputs, 16 outputs, 1520 transitions (641 in, 879 out);
    // 1142 compatible pairs (0.20 %), 1207 nodes, depth 6, 1436 not distinguished, 2.57, 2.03.
    let t31 = (752, 10, 16, 1520, 641, 879);
    check(
        DROPBOX,
        Some("Dropbox3"),
        &[],
        t31,
        (1144, 1119, 6, 1438, 1438, "2.57", "2.40"),
    );
    check(
        DROPBOX,
        Some("Dropbox3"),
        EVERY,
        t31,
        (1144, 1117, 6, 1438, 1438, "2.57", "2.40"),
    );
}

#[test]
fn dropbox_3_with_one_label_for_two_changedirs_meets_the_thesiss_labels_and_pairs() {
    // With two of the three ChangeDir inputs on one label, Table 3.1 (9 inputs) and the
    // compatible pairs (1142) are the thesis's; the pair that became incompatible is
    // separated only by an input one of the two lacks (not separated: 1438).
    let out = ioco()
        .args([
            "--entry",
            "Dropbox3",
            "show",
            "--suspension",
            "--format",
            "aut",
            DROPBOX,
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout)
        .unwrap()
        .replace("\"In1(ChangeDir)?\"", "\"In0(ChangeDir)?\"");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dropbox3.aut");
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    let t31 = (752, 9, 16, 1520, 641, 879);
    check(
        path,
        None,
        &[],
        t31,
        (1142, 1123, 6, 1440, 1440, "2.57", "2.40"),
    );
}

#[test]
fn dropbox_3_as_the_txs_hides_uploads_and_downloads() {
    // With Up/Down hidden, as in the .txs, the determinised automaton is not Table 3.1's: the
    // hidden steps leave many equivalent states (the suspension automaton is not minimised).
    let v = analyze(DROPBOX, Some("Dropbox3Hidden"), &[]);
    assert_eq!(table_3_1(&v), (675, 10, 10, 1415, 668, 747));
    assert_eq!(v["equivalent_pairs"], 54810);
}

#[test]
fn dropbox_4_meets_table_3_1_but_one_input_label() {
    // Thesis: 5050 states, 11 inputs, 20 outputs, 10685 transitions (4485 in, 6200 out);
    // 6652 compatible pairs (0.03 %), 9013 nodes, depth 8, 17738 not distinguished, 2.94, 2.84.
    let t31 = (5050, 12, 20, 10685, 4485, 6200);
    check(
        DROPBOX,
        Some("Dropbox4"),
        &[],
        t31,
        (6654, 8099, 8, 17740, 17740, "2.95", "3.14"),
    );
}

/// The transitions of an `.aut` file (`(from, "label", to)` lines).
fn aut(path: &str) -> Vec<(u32, String, u32)> {
    let text = std::fs::read_to_string(common::root().join(path)).unwrap();
    let mut ts: Vec<(u32, String, u32)> = text
        .lines()
        .skip(1)
        .map(|l| {
            let l = l.trim().trim_start_matches('(').trim_end_matches(')');
            let (a, rest) = l.split_once(", ").unwrap();
            let (lab, b) = rest.rsplit_once(", ").unwrap();
            (
                a.parse().unwrap(),
                lab.trim_matches('"').to_string(),
                b.parse().unwrap(),
            )
        })
        .collect();
    ts.sort();
    ts
}

#[test]
fn tcp_is_table_6_1s_automaton_closing_into_its_initial_state() {
    // examples/thesis/tcp.aut is examples/models/tcp-table6.1.aut (Fig. 6.5, rebuilt from
    // Table 6.1; `cargo test -p ioco-games --test short` checks every row) with the goal ☺
    // (state 0 there) merged into the initial state CLOSED (state 1 there), renumbered from 0.
    let merged = |q: u32| if q == 0 { 0 } else { q - 1 };
    let mut from_6_1: Vec<(u32, String, u32)> = aut("examples/models/tcp-table6.1.aut")
        .into_iter()
        .map(|(a, l, b)| (merged(a), l, merged(b)))
        .collect();
    from_6_1.sort();
    assert_eq!(aut("examples/thesis/tcp.aut"), from_6_1);
}

#[test]
fn tcp_meets_table_3_1s_states_and_labels_not_its_transitions() {
    // Thesis: 26 states, 7 inputs, 7 outputs, 53 transitions (25 in, 28 out); 78 compatible
    // pairs (12.0 %), 20 nodes, depth 4, 2 not distinguished, 2.00, 2.21.
    let t31 = (26, 7, 7, 45, 14, 31);
    let tcp = "examples/thesis/tcp.aut";
    check(tcp, None, &[], t31, (58, 27, 3, 12, 12, "1.89", "2.60"));
    check(tcp, None, EVERY, t31, (58, 25, 3, 12, 12, "1.89", "2.60"));
    let printed = &["--alg5-as-printed"];
    check(tcp, None, printed, t31, (58, 27, 4, 10, 10, "1.58", "1.88"));
}

/// Table 6.1 of the thesis on the ch. 6 form of a TCP automaton of ch. 3 (tcp.aut's state k
/// is Fig. 6.5's state k+1): the transitions that close the connection (Fig. 6.5's 19 TCB!,
/// 20 TCB!, 26 ACK?) go to the goal ☺ instead of CLOSED; then every row of Table 6.1 (joker
/// set, attractor set, strategy actions), the joker states, 2 jokers from state 1 and 11
/// moves must come out of the nested joker game.
fn check_table_6_1(path: &str) {
    use ioco_games::{joker_game, Arena, Assumption, Goal};
    let closing = [(18, "TCB!"), (19, "TCB!"), (25, "ACK?")];
    let ts: Vec<(u32, String, u32)> = aut(path)
        .into_iter()
        .map(|(a, l, b)| {
            let to_goal = b == 0 && closing.contains(&(a, l.as_str()));
            (a + 1, l, if to_goal { 0 } else { b + 1 })
        })
        .collect();
    // Fig. 6.5's numbering, ☺ = 0; the initial state is CLOSED (1).
    let mut text = format!("des (1, {}, 27)\n", ts.len());
    for (a, l, b) in &ts {
        text.push_str(&format!("({a}, \"{l}\", {b})\n"));
    }
    let lts = ioco_formats::aut::parse(&text, "tcp").unwrap();
    let sa = ioco_model::SuspensionAutomaton::build(&lts, ioco_model::QuiescencePolicy::Stable).lts;
    let name = |q: u32| {
        sa.state_name(q)
            .trim_matches(|c| c == '{' || c == '}')
            .to_string()
    };
    let state = |s: &str| sa.states().find(|&q| name(q) == s).unwrap();
    let goal = Goal::parse("state:0", &sa).unwrap();
    let arena = Arena::of_sa(&sa, &goal, Assumption::Nondeterministic);
    let j = joker_game(&arena);
    let rows: [(u32, u32, &[&str]); 14] = [
        (0, 0, &["0"]),
        (0, 1, &["19"]),
        (0, 2, &["18", "20"]),
        (0, 3, &["17", "21"]),
        (1, 0, &["16", "26"]),
        (1, 1, &["15", "22", "25"]),
        (1, 2, &["13", "24"]),
        (1, 3, &["14", "23"]),
        (1, 4, &["12"]),
        (2, 0, &["7", "8", "9"]),
        (2, 1, &["6", "10"]),
        (2, 2, &["4", "11"]),
        (2, 3, &["1", "2"]),
        (2, 4, &["3"]),
    ];
    for (jk, ak, states) in rows {
        for s in states {
            assert_eq!(j.rank(state(s)), Some((jk, ak)), "{path}: state {s}");
        }
    }
    assert!(!j.contains(state("5")), "{path}: 5 cannot reach ☺");
    assert_eq!(j.levels, 3);
    let mv = |s: &str| {
        arena
            .action_move(j.strategy[state(s) as usize] as usize)
            .display(arena.alphabet())
    };
    for (s, a) in [
        ("17", "FIN?"),
        ("26", "ACK?"),
        ("13", "CLOSE?"),
        ("24", "CLOSE?"),
        ("7", "SYNACK?"),
        ("8", "ACK?"),
        ("11", "SYN?"),
        ("1", "activeOpen?"),
        ("19", "θ"),
        ("18", "θ"),
        ("20", "θ"),
        ("21", "θ"),
        ("15", "θ"),
        ("22", "θ"),
        ("25", "θ"),
        ("14", "θ"),
        ("23", "θ"),
        ("12", "θ"),
        ("6", "θ"),
        ("10", "θ"),
        ("4", "θ"),
        ("2", "θ"),
        ("3", "θ"),
    ] {
        assert_eq!(mv(s), a, "{path}: state {s}");
    }
    assert!(["ACK?", "FIN?"].contains(&mv("16").as_str()));
    assert!(["CLOSE?", "ACK?"].contains(&mv("9").as_str()));
    let mut jokers: Vec<String> = sa
        .states()
        .filter(|&q| j.is_joker_state(q))
        .map(name)
        .collect();
    jokers.sort_by_key(|s| s.parse::<u32>().unwrap());
    assert_eq!(jokers, ["7", "8", "9", "16", "26"], "{path}");
    assert_eq!(j.moves[state("1") as usize], 11, "{path}");
}

#[test]
fn tcp_models_keep_every_row_of_table_6_1() {
    check_table_6_1("examples/thesis/tcp.aut");
    check_table_6_1("examples/thesis/tcp-table3.1.aut");
}

#[test]
fn tcp_table_3_1_meets_table_3_1_and_table_6_1() {
    // scripts/tcp_table31.py target/debug/ioco --seed 1 -o examples/thesis/tcp-table3.1.aut
    let t31 = (26, 7, 7, 53, 25, 28);
    let tcp = "examples/thesis/tcp-table3.1.aut";
    check(tcp, None, &[], t31, (58, 24, 3, 12, 12, "2.23", "2.69"));
}

// The models derived from the descriptions alone (issue #36 item 3): their rows are beside
// the thesis's in docs/experiments.md whatever they are; these tests keep the document and
// `ioco analyze` in step. The fitted models above are kept as curiosities.

const TCP_RFC: &str = "examples/thesis/tcp-rfc793.ioco";
const LE_DERIVED: &str = "examples/thesis/leader-election-derived.ioco";

#[test]
fn tcp_derived_from_rfc_793_rows() {
    // Thesis: 26, 7, 7, 53, 25, 28; 78 (12.0 %), 20, 4, 2 (0.35 %), 2.00, 2.21.
    // RFC 793 Figure 6 without RST: 23 states, 5 output labels and δ, 17 input transitions.
    let t31 = (23, 7, 6, 40, 17, 23);
    check(TCP_RFC, None, &[], t31, (70, 27, 3, 38, 38, "2.56", "2.92"));
    check(
        TCP_RFC,
        None,
        EVERY,
        t31,
        (70, 45, 3, 38, 38, "2.56", "2.92"),
    );
    // Alg. 5 as printed leaves the thesis's 2 pairs sharing an observation.
    let printed = &["--alg5-as-printed"];
    check(
        TCP_RFC,
        None,
        printed,
        t31,
        (70, 27, 6, 2, 18, "1.42", "1.33"),
    );
    let printed = &["--alg5-as-printed", "--non-enabling", "every-child"];
    check(
        TCP_RFC,
        None,
        printed,
        t31,
        (70, 45, 5, 2, 20, "1.33", "1.29"),
    );
}

#[test]
fn le_derived_rows() {
    // Thesis LE-3Center: 97, 6, 8, 247, 78, 169; 284, 493, 8, 98, 1.05, 1.13.
    let t31 = (148, 6, 8, 432, 168, 264);
    check(
        LE_DERIVED,
        Some("LE3Center"),
        &[],
        t31,
        (600, 149, 7, 190, 190, "1.62", "4.00"),
    );
    check(
        LE_DERIVED,
        Some("LE3Center"),
        EVERY,
        t31,
        (600, 201, 7, 140, 140, "1.56", "3.83"),
    );
    // Alg. 5 as printed (the first Table 3.2 of docs/experiments.md), both rules.
    check(
        LE_DERIVED,
        Some("LE3Center"),
        &["--alg5-as-printed"],
        t31,
        (600, 149, 7, 0, 170, "1.34", "1.60"),
    );
    check(
        LE_DERIVED,
        Some("LE3Center"),
        &["--alg5-as-printed", "--non-enabling", "every-child"],
        t31,
        (600, 201, 7, 0, 120, "1.39", "1.67"),
    );
    // Thesis LE-3Side: 147, 8, 10, 364, 96, 268; 946, 8443, 9, 202, 1.04, 1.06.
    let t31 = (192, 8, 10, 545, 166, 379);
    let row = (952, 134, 5, 0, 0, "1.43", "3.32");
    check(LE_DERIVED, Some("LE3Side"), &[], t31, row);
    check(LE_DERIVED, Some("LE3Side"), EVERY, t31, row);
    assert_eq!(
        analyze(LE_DERIVED, Some("LE3Side"), &[])["equivalent_pairs"],
        16
    );
}

#[test]
fn le_4_derived_row() {
    // Thesis LE-4: 793, 9, 11, 2906, 869, 2037; 4270, 91577, 13, 2190, 1.03, 1.12.
    let t31 = (1736, 9, 11, 7428, 3024, 4404);
    check(
        LE_DERIVED,
        Some("LE4"),
        &[],
        t31,
        (21380, 1561, 11, 8000, 8000, "1.74", "11.32"),
    );
    check(
        LE_DERIVED,
        Some("LE4"),
        &["--alg5-as-printed"],
        t31,
        (21380, 1561, 11, 0, 7460, "1.34", "1.68"),
    );
}

#[test]
fn le_derived_is_the_fitted_model_with_both_open_choices_the_other_way() {
    // Written afresh from the descriptions, the derived model has the automaton of the
    // fitted `Node` with `ordered` and `atomic` false (sends in any order, receipts at any
    // time): the same Table 3.1 row and compatible pairs for every instance.
    let fitted = std::fs::read_to_string(common::root().join(LE))
        .unwrap()
        .replace(", true, true)", ", false, false)");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("le-any-order.ioco");
    std::fs::write(&path, fitted).unwrap();
    let path = path.to_str().unwrap();
    for entry in ["LE3Center", "LE3Side"] {
        let a = analyze(path, Some(entry), &[]);
        let b = analyze(LE_DERIVED, Some(entry), &[]);
        assert_eq!(table_3_1(&a), table_3_1(&b), "{entry}");
        assert_eq!(a["compatible_pairs"], b["compatible_pairs"], "{entry}");
        assert_eq!(a["equivalent_pairs"], b["equivalent_pairs"], "{entry}");
    }
}

#[test]
#[ignore = "6 s with the test profile, minutes in a debug build: cargo test --release -p ioco-cli --test thesis_benchmarks -- --ignored"]
fn le_4_derived_with_the_thesis_splitting_rule() {
    let t31 = (1736, 9, 11, 7428, 3024, 4404);
    check(
        LE_DERIVED,
        Some("LE4"),
        EVERY,
        t31,
        (21380, 31025, 11, 6300, 6300, "1.62", "10.43"),
    );
    check(
        LE_DERIVED,
        Some("LE4"),
        &["--alg5-as-printed", "--non-enabling", "every-child"],
        t31,
        (21380, 31025, 11, 0, 5660, "1.44", "1.81"),
    );
}
