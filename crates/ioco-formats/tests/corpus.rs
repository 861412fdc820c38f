//! Every DOT model of the shared corpus (AALpy's and hybrid-ADS's) loads, with the number of
//! states, transitions and inputs that the corpus README states (TCP) or that a count of the
//! files' lines gives (the others). A new file in the corpus without an entry here fails the
//! test, so the table stays complete.

use ioco_formats::{load, Model};
use ioco_model::QuiescencePolicy;
use std::path::{Path, PathBuf};

/// (path under the corpus, states, Mealy transitions, inputs, complete?)
const EXPECTED: &[(&str, usize, usize, usize, bool)] = &[
    (
        "hybrid-ads/lee_yannakakis_distinguishable.dot",
        6,
        12,
        2,
        true,
    ),
    ("mealy-aalpy/Angluin_Mealy.dot", 4, 8, 2, true),
    (
        "mealy-aalpy/Bluetooth/CC2640R2-no-feature-req.dot",
        11,
        88,
        8,
        true,
    ),
    (
        "mealy-aalpy/Bluetooth/CC2640R2-no-pairing-req.dot",
        6,
        48,
        8,
        true,
    ),
    ("mealy-aalpy/Bluetooth/CC2650.dot", 5, 45, 9, true),
    ("mealy-aalpy/Bluetooth/CYBLE-416045-02.dot", 3, 27, 9, true),
    ("mealy-aalpy/Bluetooth/CYW43455.dot", 16, 112, 7, true),
    ("mealy-aalpy/Bluetooth/bluetooth_model.dot", 3, 27, 9, true),
    (
        "mealy-aalpy/Bluetooth/bluetooth_reduced.dot",
        3,
        27,
        9,
        true,
    ),
    ("mealy-aalpy/Bluetooth/cc2652r1.dot", 4, 28, 7, true),
    ("mealy-aalpy/Bluetooth/nRF52832.dot", 5, 45, 9, true),
    (
        "mealy-aalpy/MQTT/ActiveMQ__two_client_will_retain.dot",
        18,
        162,
        9,
        true,
    ),
    (
        "mealy-aalpy/MQTT/VerneMQ__two_client_will_retain.dot",
        17,
        153,
        9,
        true,
    ),
    (
        "mealy-aalpy/MQTT/emqtt__two_client_will_retain.dot",
        18,
        162,
        9,
        true,
    ),
    (
        "mealy-aalpy/MQTT/hbmqtt__two_client_will_retain.dot",
        17,
        153,
        9,
        true,
    ),
    (
        "mealy-aalpy/MQTT/mosquitto__two_client_will_retain.dot",
        18,
        162,
        9,
        true,
    ),
    ("mealy-aalpy/SimpleABC/simple_abc_mealy.dot", 1, 3, 3, true),
    // README: "TCP Linux client 15 / 150"
    ("mealy-aalpy/TCP/TCP_Linux_Client.dot", 15, 150, 10, true),
    // README: "TCP servers (bsd 55 states / 715 transitions, ubuntu 57 / 684, windows 38 / 494)"
    (
        "mealy-aalpy/TCP/tcp_server_bsd_trans.dot",
        55,
        715,
        13,
        true,
    ),
    (
        "mealy-aalpy/TCP/tcp_server_ubuntu_trans.dot",
        57,
        684,
        12,
        true,
    ),
    (
        "mealy-aalpy/TCP/tcp_server_windows_trans.dot",
        38,
        494,
        13,
        true,
    ),
    // LearnLib HTML labels with several inputs per edge
    (
        "mealy-aalpy/TLS/JSSE_1.8.0_25_server_regular.dot",
        9,
        72,
        8,
        true,
    ),
    (
        "mealy-aalpy/TLS/NSS_3.17.4_server_regular.dot",
        8,
        64,
        8,
        true,
    ),
    (
        "mealy-aalpy/TLS/OpenSSL_1.0.2_server_regular.dot",
        7,
        49,
        7,
        true,
    ),
    (
        "mealy-aalpy/TLS/RSA_BSAFE_C_4.0.4_server_regular.dot",
        9,
        72,
        8,
        true,
    ),
    (
        "mealy-aalpy/TLS/miTLS_0.1.3_server_regular.dot",
        6,
        48,
        8,
        true,
    ),
    // a visibly pushdown automaton: its finite control, partial
    ("mealy-aalpy/arithmetics.dot", 2, 4, 4, false),
    // a Moore machine (outputs on states)
    ("mealy-aalpy/car_alarm.dot", 6, 12, 2, true),
    ("mealy-aalpy/coffee_mealy.dot", 2, 4, 2, true),
];

/// The public corpus, or `None` once the calling test is recorded as skipped (a failure under
/// `IOCO_NO_SKIP=1`): see `ioco_testkit`.
fn corpus_dir() -> Option<PathBuf> {
    ioco_testkit::corpus()
}

fn dot_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            dot_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "dot") {
            out.push(p);
        }
    }
}

#[test]
fn every_corpus_mealy_machine_loads_with_the_documented_sizes() {
    let Some(root) = corpus_dir() else {
        return;
    };
    let mut files = Vec::new();
    dot_files(&root.join("mealy-aalpy"), &mut files);
    dot_files(&root.join("hybrid-ads"), &mut files);
    files.sort();
    assert_eq!(files.len(), EXPECTED.len(), "corpus changed: {files:?}");
    for f in &files {
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let &(_, states, trans, inputs, complete) = EXPECTED
            .iter()
            .find(|e| e.0 == rel)
            .unwrap_or_else(|| panic!("{rel} is not in the table"));
        let m = match load(f) {
            Ok(Model::Mealy(m)) => m,
            Ok(Model::Lts(_)) => panic!("{rel}: read as an LTS, expected a Mealy machine"),
            Err(e) => panic!("{rel}: {e}"),
        };
        let defined: usize = (0..m.num_states() as u32)
            .map(|s| {
                (0..m.num_inputs() as u32)
                    .filter(|&i| m.step(s, i).is_some())
                    .count()
            })
            .sum();
        assert_eq!(
            (m.num_states(), defined, m.num_inputs(), m.is_complete()),
            (states, trans, inputs, complete),
            "{rel}"
        );
        // The LTS reading: one intermediate state per Mealy transition, deterministic,
        // quiescent exactly in the Mealy states.
        let lts = Model::Mealy(m).into_lts().unwrap();
        assert_eq!(lts.num_states(), states + trans, "{rel}");
        assert_eq!(lts.num_transitions(), 2 * trans, "{rel}");
        assert!(lts.is_deterministic(), "{rel}");
        let quiescent = lts
            .states()
            .filter(|&s| lts.is_quiescent(s, QuiescencePolicy::Stable))
            .count();
        assert_eq!(quiescent, states, "{rel}");
    }
}

#[test]
fn initial_states_follow_the_start_marker() {
    let Some(root) = corpus_dir() else {
        return;
    };
    // OpenSSL: `__start0 -> 6`, and node 6 is declared first.
    let Model::Mealy(m) =
        load(&root.join("mealy-aalpy/TLS/OpenSSL_1.0.2_server_regular.dot")).unwrap()
    else {
        panic!()
    };
    assert_eq!(m.state_names[m.initial as usize], "6");
    // car_alarm: Moore outputs N/A on states become transition outputs.
    let Model::Mealy(m) = load(&root.join("mealy-aalpy/car_alarm.dot")).unwrap() else {
        panic!()
    };
    assert_eq!(m.state_names[m.initial as usize], "q1_locked_closed");
    let d = m.input_index("d").unwrap();
    let (t, o) = m.step(m.initial, d).unwrap();
    assert_eq!(m.state_names[t as usize], "q2_locked_open");
    assert_eq!(m.outputs[o as usize], "A");
    // hybrid-ADS has no start marker: the first state (s1) is initial.
    let Model::Mealy(m) =
        load(&root.join("hybrid-ads/lee_yannakakis_distinguishable.dot")).unwrap()
    else {
        panic!()
    };
    assert_eq!(m.state_names[m.initial as usize], "s1");
    // JSSE: an HTML label with 8 inputs on one edge.
    let Model::Mealy(m) =
        load(&root.join("mealy-aalpy/TLS/JSSE_1.8.0_25_server_regular.dot")).unwrap()
    else {
        panic!()
    };
    let s2 = m.state_names.iter().position(|n| n == "s2").unwrap() as u32;
    for i in 0..m.num_inputs() as u32 {
        let (t, o) = m.step(s2, i).unwrap();
        assert_eq!(
            (t, m.outputs[o as usize].as_str()),
            (s2, "ConnectionClosed")
        );
    }
}

#[test]
fn corpus_models_survive_a_write_read_round_trip() {
    let Some(root) = corpus_dir() else {
        return;
    };
    let f = root.join("mealy-aalpy/TCP/tcp_server_bsd_trans.dot");
    let Model::Mealy(m) = load(&f).unwrap() else {
        panic!()
    };
    let text = ioco_formats::dot::write_mealy(&m);
    let back = ioco_formats::dot::parse_mealy(&text, "w.dot").unwrap();
    assert_eq!(back, m);
    let lts = Model::Mealy(m).into_lts().unwrap();
    let aut = ioco_formats::aut::write(&lts).unwrap();
    let l2 = ioco_formats::aut::parse(&aut, "w.aut").unwrap();
    assert_eq!(l2.num_transitions(), lts.num_transitions());
    assert_eq!(
        l2.transitions().collect::<Vec<_>>(),
        lts.transitions().collect::<Vec<_>>()
    );
    let json = ioco_formats::json::write_lts(&lts);
    assert_eq!(ioco_formats::json::read_lts(&json, "w.json").unwrap(), lts);
    let dot = ioco_formats::dot::write_lts(&lts);
    assert_eq!(ioco_formats::dot::parse_lts(&dot, "w.dot").unwrap(), lts);
}

#[test]
fn a_name_used_as_input_and_output_keeps_it_in_both_namespaces() {
    use ioco_model::LabelKind;
    let Some(root) = corpus_dir() else {
        return;
    };
    let f = root.join("mealy-aalpy/TLS/JSSE_1.8.0_25_server_regular.dot");
    let lts = load(&f).unwrap().into_lts().unwrap();
    let a = lts.alphabet();
    let i = a.lookup_kind("ApplicationData", LabelKind::Input).unwrap();
    let o = a.lookup_kind("ApplicationData", LabelKind::Output).unwrap();
    assert_ne!(i, o);
    assert_eq!(a.display(i), "ApplicationData?");
    assert_eq!(a.display(o), "ApplicationData!");
    assert!(a.lookup("ApplicationData_out").is_none());
    // and the written forms read back with both labels (and every transition)
    let json = ioco_formats::json::write_lts(&lts);
    let aut = ioco_formats::aut::write(&lts).unwrap();
    for back in [
        ioco_formats::json::read_lts(&json, "w.json").unwrap(),
        ioco_formats::aut::parse(&aut, "w.aut").unwrap(),
    ] {
        let b = back.alphabet();
        let i = b.lookup_kind("ApplicationData", LabelKind::Input).unwrap();
        let o = b.lookup_kind("ApplicationData", LabelKind::Output).unwrap();
        assert_ne!(i, o);
        assert_eq!(back.num_transitions(), lts.num_transitions());
    }
}
