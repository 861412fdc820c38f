//! TorXakis users, all the way (issue #34), through the installed binary: `--entry` and
//! `--cnect` choose the model and its connection together, a TorXakis SUT is started per run
//! and reached through the file's `CNECTDEF`, TorXakis's defaults, composed purposes.

mod common;
use common::{ioco, outcome, KillOnDrop};
use std::io::BufRead;
use std::process::Stdio;

/// A file of TorXakis's corpus, or `None` when the corpus is not here (the test is recorded
/// as skipped and returns).
fn corpus(rel: &str) -> Option<String> {
    common::corpus_file(&format!("torxakis/{rel}"))
}

/// `txs-sut EXAMPLE --port 0 --mode MODE` (our systems for TorXakis's examples), serving
/// sessions until it is dropped, and the `--txs-ports` map from the `.txs` ports (in the order
/// the example lists them) to the ports it listens on.
fn txs_sut(example: &str, mode: &str, txs_ports: &[u16]) -> (KillOnDrop, String) {
    let mut child = KillOnDrop(
        std::process::Command::new(common::example_bin("txs-sut"))
            .args([example, "--port", "0", "--mode", mode])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap(),
    );
    let mut out = std::io::BufReader::new(child.0.stdout.take().unwrap());
    let mut map = Vec::new();
    for p in txs_ports {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        let port = line
            .trim()
            .rsplit(':')
            .next()
            .unwrap_or_default()
            .to_string();
        assert!(port.parse::<u16>().is_ok(), "txs-sut said {line:?}");
        map.push(format!("{p}={port}"));
    }
    (child, map.join(","))
}

/// The two-models-two-connections file (`examples/torxakis/two-models.txs`): the second
/// model is tested through the second CNECTDEF, whether `--entry`, `--cnect` or both name
/// them; a CNECTDEF that does not connect the model named is a clear error that says which
/// model it connects.
#[test]
fn entry_and_cnect_choose_the_model_and_its_connection_together() {
    let file = "examples/torxakis/two-models.txs";
    for mode in ["correct", "wrong"] {
        let (_sut, map) = txs_sut("adder", mode, &[7890]);
        let map = map.replace("7890=", "7002=");
        for choice in [
            &["--entry", "Second", "--cnect", "Sut2"][..],
            &["--cnect", "Sut2"],
            &["--entry", "Second"],
        ] {
            let (code, out) = outcome(
                ioco()
                    .args(["test", file])
                    .args(choice)
                    .args(["--txs-ports", &map, "--runs", "2", "--steps", "12"])
                    .args(["--seed", "4", "--timeout", "300"])
                    .timeout(std::time::Duration::from_secs(300)),
            );
            let want = if mode == "correct" { 0 } else { 1 };
            assert_eq!(code, want, "{choice:?} against the {mode} adder:\n{out}");
            assert!(out.contains("sut: the CNECTDEF Sut2 of"), "{out}");
        }
    }
    let (code, out) = outcome(ioco().args([
        "test", file, "--entry", "First", "--cnect", "Sut2", "--runs", "1",
    ]));
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("CNECTDEF Sut2 (ENCODE Action; DECODE")
            && out.contains("does not connect")
            && out.contains("--entry Second"),
        "{out}"
    );
    // a simulator's connection is named as such
    let adder = match corpus("examps/Adder/Adder.txs") {
        Some(a) => a,
        None => return,
    };
    let (code, out) = outcome(ioco().args(["test", &adder, "--cnect", "Sim"]));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("connection of TorXakis's simulator"), "{out}");
    // --cnect is for a .txs model
    let (code, out) = outcome(ioco().args([
        "test",
        "examples/torxakis/adder.ioco",
        "--cnect",
        "Sut3",
        "--runs",
        "1",
    ]));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("not a .txs file"), "{out}");
}

/// TorXakis's "Parallel Adders": `ioco test Adder.txs --entry Adder3 --cnect Sut3` against
/// three adders passes, and fails against a faulty one; `--cnect Sut3` alone picks `Adder3`.
#[test]
fn three_adders_through_sut3() {
    let Some(adder) = corpus("examps/Adder/Adder.txs") else {
        return;
    };
    for (mode, choice, want) in [
        ("correct", &["--entry", "Adder3", "--cnect", "Sut3"][..], 0),
        ("correct", &["--cnect", "Sut3"], 0),
        ("wrong", &["--entry", "Adder3", "--cnect", "Sut3"], 1),
    ] {
        let (_sut, map) = txs_sut("adder3", mode, &[7891, 7892, 7893]);
        let (code, out) = outcome(
            ioco()
                .args(["test", &adder])
                .args(choice)
                .args(["--txs-ports", &map, "--runs", "3", "--steps", "20"])
                .args(["--seed", "2", "--timeout", "300"])
                .timeout(std::time::Duration::from_secs(300)),
        );
        assert_eq!(code, want, "{choice:?} against the {mode} adders:\n{out}");
        assert!(out.contains("sut: the CNECTDEF Sut3 of"), "{out}");
    }
}

/// `Adder.java` (examples/torxakis: TorXakis's Adder as TorXakis runs it, one connection and
/// exit) compiled into `dir`; `None` (recorded as a skip) without a JDK.
fn java_adder(dir: &std::path::Path) -> Option<String> {
    if std::process::Command::new("javac")
        .arg("-version")
        .output()
        .is_err()
    {
        ioco_testkit::skip("no JDK (javac) on this machine");
        return None;
    }
    let st = std::process::Command::new("javac")
        .arg("-d")
        .arg(dir)
        .arg(common::root().join("examples/torxakis/Adder.java"))
        .status()
        .unwrap();
    assert!(st.success());
    Some(format!("java -cp {} Adder", dir.display()))
}

/// Per-run start in CNECTDEF mode (item 2): `ioco test Adder.txs --sut "java … Adder {port}"`
/// starts the one-shot Java SUT for every run, with a free port for the CNECTDEF's `PORT
/// 7890` each time (so `--jobs 2` works), and reaches it through the file's encodings: 20 of
/// 20 runs pass against the correct adder; the faulty ones fail.
#[test]
fn a_one_shot_java_sut_is_started_for_each_run_through_the_cnectdef() {
    let Some(adder) = corpus("examps/Adder/Adder.txs") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let Some(java) = java_adder(dir.path()) else {
        return;
    };
    for (mode, runs, want) in [
        ("correct", "20", 0),
        ("wrong", "6", 1),
        ("missing", "6", 1),
        ("extra", "6", 1),
    ] {
        let (code, out) = outcome(
            ioco()
                .args(["test", &adder, "--sut", &format!("{java} {{port}} {mode}")])
                .args(["--runs", runs, "--steps", "8", "--seed", "3", "--jobs", "2"])
                .args(["--timeout", "400"])
                .timeout(std::time::Duration::from_secs(900)),
        );
        assert_eq!(code, want, "the {mode} adder:\n{out}");
        assert!(
            out.contains("sut: the CNECTDEF SutConnection of")
                && out.contains("SUT started per run"),
            "{out}"
        );
        if want == 0 {
            assert!(out.contains("20 runs (20 pass)"), "{out}");
        }
    }
}

/// Many ports: `{port:N}` gives the CNECTDEF's `PORT N` a free port per start (TorXakis's
/// parallel adders, one SUT process serving three sockets once); `{port}` where the CNECTDEF
/// has three ports is an error that says what to write.
#[test]
fn each_port_of_the_cnectdef_gets_its_own_placeholder() {
    let Some(adder) = corpus("examps/Adder/Adder.txs") else {
        return;
    };
    let bin = common::example_bin("txs-sut");
    let sut = format!(
        "{bin} adder3 --once --ports 7891={{port:7891}},7892={{port:7892}},7893={{port:7893}}"
    );
    for (mode, want) in [("correct", 0), ("wrong", 1)] {
        let (code, out) = outcome(
            ioco()
                .args(["test", &adder, "--cnect", "Sut3"])
                .args(["--sut", &format!("{sut} --mode {mode}")])
                .args([
                    "--runs",
                    "4",
                    "--steps",
                    "12",
                    "--seed",
                    "2",
                    "--timeout",
                    "300",
                ])
                .timeout(std::time::Duration::from_secs(600)),
        );
        assert_eq!(code, want, "the {mode} adders:\n{out}");
    }
    let (code, out) = outcome(
        ioco()
            .args(["test", &adder, "--cnect", "Sut3", "--runs", "1"])
            .args(["--sut", &format!("{bin} adder3 --once --port {{port}}")]),
    );
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("{port:N}") && out.contains("7891"), "{out}");
}

/// A one-shot SUT that ioco does not start serves the first run; the second run's refused
/// connection says why, and what to do.
#[test]
fn a_second_connection_refused_says_the_sut_is_one_shot() {
    let Some(adder) = corpus("examps/Adder/Adder.txs") else {
        return;
    };
    let mut child = KillOnDrop(
        std::process::Command::new(common::example_bin("txs-sut"))
            .args(["adder", "--port", "0", "--once"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap(),
    );
    let mut line = String::new();
    std::io::BufReader::new(child.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .trim()
        .rsplit(':')
        .next()
        .unwrap_or_default()
        .to_string();
    let (code, out) = outcome(
        ioco()
            .args(["test", &adder, "--txs-ports", &format!("7890={port}")])
            .args([
                "--runs",
                "2",
                "--steps",
                "4",
                "--seed",
                "1",
                "--timeout",
                "300",
            ])
            .args(["--connect-timeout", "1000"])
            .timeout(std::time::Duration::from_secs(300)),
    );
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains("serve one connection") && out.contains("{port}"),
        "{out}"
    );
}

/// The Lucky By Gender purpose (`PurposeLuckyByGender.txs`, read with `LuckyPeople.txs`): its
/// GOAL, a recursion through `>>>`, is flattened into one automaton (the product of its parts)
/// and, having no `HIT`, only steers, as in TorXakis: `test 60` passes against the LuckyPeople
/// system and fails against one that never finds people lucky by gender, at the 26th person
/// (the goal's runs of 1, 1, 2, 2, 3, 3, 4, 4, 5 people of one sex, then the other sex).
#[test]
fn the_lucky_by_gender_purpose_passes_against_lucky_people() {
    let (Some(model), Some(purpose)) = (
        corpus("examps/LuckyPeople/spec/LuckyPeople.txs"),
        corpus("examps/LuckyPeople/spec/PurposeLuckyByGender.txs"),
    ) else {
        return;
    };
    for mode in ["correct", "wrong"] {
        let (_sut, map) = txs_sut("lucky-people", mode, &[7777]);
        let (code, out) = outcome(
            ioco()
                .args(["test", &model, "--purpose", &purpose, "--txs-ports", &map])
                .args([
                    "--runs",
                    "1",
                    "--steps",
                    "60",
                    "--seed",
                    "1",
                    "--timeout",
                    "1500",
                ])
                .timeout(std::time::Duration::from_secs(300)),
        );
        assert!(out.contains("sut: the CNECTDEF Sut of"), "{out}");
        assert!(out.contains("steering only"), "{out}");
        if mode == "correct" {
            assert_eq!(code, 0, "against the correct LuckyPeople:\n{out}");
            assert!(out.contains("PASS: 1 run (1 pass)"), "{out}");
            assert!(
                out.contains("1 of 1 run(s) followed it to the step bound"),
                "{out}"
            );
        } else {
            assert_eq!(code, 1, "against LuckyPeople --mode wrong:\n{out}");
            assert!(out.contains("FAIL") && out.contains("52 steps"), "{out}");
            assert!(out.contains("isLuckyPerson(Person(Female"), "{out}");
        }
    }
}

/// A goal that is missed (an output it does not offer) ends the run Inconclusive, never Pass;
/// a `.txs` purpose without `HIT` reads as a steering purpose, where a `.ioco` purpose without
/// `accept` is still an error.
#[test]
fn a_steering_goal_that_is_missed_is_inconclusive() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.txs");
    std::fs::write(
        &model,
        "CHANDEF C ::= In :: Int; Out :: Int ENDDEF\n\
         PROCDEF p [In :: Int; Out :: Int] () ::= In ? x >-> Out ! x >-> p [In, Out] () ENDDEF\n\
         MODELDEF M ::= CHAN IN In CHAN OUT Out BEHAVIOUR p [In, Out] () ENDDEF\n",
    )
    .unwrap();
    let purpose = dir.path().join("p.txs");
    // inputs 1..3 steered; the goal offers `Out ! 0` only: every output misses it
    std::fs::write(
        &purpose,
        "PROCDEF g [In :: Int; Out :: Int] () ::= \
         (In ? x [[ (x > 0) /\\ (x < 4) ]] >-> EXIT) >>> Out ! 0 >-> g [In, Out] () ENDDEF\n\
         PURPDEF P ::= CHAN IN In CHAN OUT Out GOAL miss ::= g [In, Out] () ENDDEF\n",
    )
    .unwrap();
    let (m, p) = (model.to_str().unwrap(), purpose.to_str().unwrap());
    let (code, out) = outcome(ioco().args([
        "test",
        m,
        "--with",
        p,
        "--purpose",
        p,
        "--sim",
        m,
        "--runs",
        "2",
        "--steps",
        "10",
        "--seed",
        "2",
    ]));
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("INCONCLUSIVE"), "{out}");
    assert!(
        out.contains("is not offered by the test purpose (TorXakis: the goal is missed)"),
        "{out}"
    );
}

/// A GOAL without HIT over a model without data (the explicit engine) restricts the test to
/// the inputs it offers, through its internal steps (`ISTEP`), and passes at the step bound
/// inside it; an output it does not offer ends the run Inconclusive, never Pass.
#[test]
fn a_goal_without_hit_restricts_an_explicit_test() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.txs");
    std::fs::write(
        &model,
        "CHANDEF C ::= A, B, X, Y ENDDEF\n\
         PROCDEF p [A, B, X, Y] () ::= A >-> X >-> p [A, B, X, Y] () \
         ## B >-> Y >-> p [A, B, X, Y] () ENDDEF\n\
         MODELDEF M ::= CHAN IN A, B CHAN OUT X, Y BEHAVIOUR p [A, B, X, Y] () ENDDEF\n",
    )
    .unwrap();
    let purpose = dir.path().join("p.txs");
    // `onlyA` never offers B (and takes an internal step after X); `wrongOut` expects Y after A
    std::fs::write(
        &purpose,
        "PROCDEF g [A, X] () HIT ::= A >-> X >-> ISTEP >-> g [A, X] () ENDDEF\n\
         PROCDEF w [A, Y] () HIT ::= A >-> Y >-> w [A, Y] () ENDDEF\n\
         PURPDEF P ::= CHAN IN A, B CHAN OUT X, Y \
         GOAL onlyA ::= g [A, X] () GOAL wrongOut ::= w [A, Y] () ENDDEF\n",
    )
    .unwrap();
    let json = dir.path().join("r.json");
    let (m, p) = (model.to_str().unwrap(), purpose.to_str().unwrap());
    let run = |goal: &str| {
        outcome(
            ioco()
                .args(["test", m, "--purpose", p, "--goal", goal, "--sim", m])
                .args([
                    "--runs",
                    "5",
                    "--steps",
                    "12",
                    "--seed",
                    "3",
                    "--timeout",
                    "200",
                    "--json",
                    json.to_str().unwrap(),
                ]),
        )
    };
    let (code, out) = run("onlyA");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("PASS: 5 runs (5 pass)"), "{out}");
    assert!(out.contains("GOAL without HIT"), "{out}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let labels: Vec<String> = report["runs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["trace"].as_array().unwrap().clone())
        .map(|l| l.as_str().unwrap().to_string())
        .collect();
    assert!(labels.iter().any(|l| l == "A?"), "{labels:?}");
    assert!(!labels.iter().any(|l| l == "B?" || l == "Y!"), "{labels:?}");
    let (code, out) = run("wrongOut");
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("INCONCLUSIVE"), "{out}");
    assert!(
        out.contains("X! at")
            && out.contains("is not offered by the test purpose (TorXakis: the goal is missed)"),
        "{out}"
    );
}

/// A composed MODELDEF (`acc(0) |[ Add, Sum ]| small`, integers) under a symbolic purpose
/// (a GOAL with a HIT): the composition is read as one automaton for the product, the runs
/// are judged by the composition itself. A goal that is hit gives Pass; a faulty simulated
/// implementation (its sums go wrong past 5) gives Fail whatever the goal; a goal the step
/// bound leaves unreached gives Inconclusive, never Pass.
#[test]
fn a_composed_modeldef_runs_under_a_symbolic_purpose() {
    let dir = tempfile::tempdir().unwrap();
    let model = "CHANDEF C ::= Add, Sum :: Int ENDDEF\n\
                 PROCDEF acc [Add, Sum :: Int] (n :: Int) ::= \
                 Add ? d >-> Sum ! SUM >-> acc [Add, Sum] (n + d) ENDDEF\n\
                 PROCDEF small [Add, Sum :: Int] () ::= \
                 Add ? d [[ (d > 0) /\\ (d < 5) ]] >-> Sum ? s >-> small [Add, Sum] () ENDDEF\n\
                 MODELDEF M ::= CHAN IN Add CHAN OUT Sum \
                 BEHAVIOUR acc [Add, Sum] (0) |[ Add, Sum ]| small [Add, Sum] () ENDDEF\n";
    let m = dir.path().join("m.txs");
    std::fs::write(&m, model.replace("SUM", "n + d")).unwrap();
    let faulty = dir.path().join("faulty.txs");
    std::fs::write(
        &faulty,
        model.replace("SUM", "n + d + (IF n + d > 5 THEN 1 ELSE 0 FI)"),
    )
    .unwrap();
    let p = dir.path().join("p.txs");
    std::fs::write(
        &p,
        "PROCDEF reach [Add, Sum :: Int] (n :: Int) HIT ::= Sum ! n >-> HIT ENDDEF\n\
         PURPDEF P ::= CHAN IN Add CHAN OUT Sum \
         GOAL ten ::= reach [Add, Sum] (10) GOAL far ::= reach [Add, Sum] (40) ENDDEF\n",
    )
    .unwrap();
    let json = dir.path().join("r.json");
    let (m, p, j) = (
        m.to_str().unwrap(),
        p.to_str().unwrap(),
        json.to_str().unwrap(),
    );
    let run = |goal: &str, sim: &str| {
        outcome(
            ioco()
                .args(["test", m, "--purpose", p, "--goal", goal, "--sim", sim])
                .args(["--runs", "3", "--steps", "12", "--seed", "1"])
                .args(["--timeout", "200", "--json", j]),
        )
    };
    // 12 steps are 6 sums of 1..4 each: 10 is within reach, 40 is not
    let (code, out) = run("ten", m);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("symbolic purpose") && out.contains("accept reached in 3 of 3"),
        "{out}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    for r in report["runs"].as_array().unwrap() {
        let trace = r["trace"].as_array().unwrap();
        assert_eq!(
            trace.last().and_then(|l| l.as_str()),
            Some("Sum!(10)"),
            "{r}"
        );
    }
    let (code, out) = run("far", m);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("INCONCLUSIVE") && out.contains("step bound 12 reached before accept"),
        "{out}"
    );
    for goal in ["ten", "far"] {
        let (code, out) = run(goal, faulty.to_str().unwrap());
        assert_eq!(code, 1, "{goal}: {out}");
        assert!(
            out.contains("FAIL") && out.contains("is not allowed"),
            "{goal}: {out}"
        );
    }
}

/// TorXakis's ReadWriteConflict purpose `HitAll` over its composed MODELDEF (`cell(0) |[ Read,
/// Write ]| readWrite`, a `MemoryAccess` of a `String` and an `Int`): one run of `test 40`
/// meets a Final read every 8 steps, so at most 5 of the 7 goals are hit; each goal is a
/// Pass only where it is hit, the others are Inconclusive (never Pass, never Fail).
#[test]
fn read_write_hit_all_passes_only_the_goals_a_run_hits() {
    let Some(f) = corpus("examps/ReadWriteConflict/ReadWriteTestPurposes.txs") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let mut hit = 0;
    for n in 1..=7 {
        let goal = format!("HitAll.Hit{n}");
        let (code, out) = outcome(
            ioco()
                .args(["test", &f, "--purpose", &f, "--goal", &goal, "--sim", &f])
                .args([
                    "--runs",
                    "1",
                    "--steps",
                    "40",
                    "--seed",
                    "1",
                    "--timeout",
                    "500",
                ])
                .args(["--json", json.to_str().unwrap()]),
        );
        match code {
            0 => {
                hit += 1;
                let report: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
                let last = report["runs"][0]["trace"]
                    .as_array()
                    .unwrap()
                    .last()
                    .cloned();
                let want = format!("Read!(MemoryAccess(\"Final\",{n}))");
                assert_eq!(
                    last.as_ref().and_then(|l| l.as_str()),
                    Some(&*want),
                    "{out}"
                );
            }
            3 => assert!(
                out.contains("step bound 40 reached before accept"),
                "{goal}: {out}"
            ),
            _ => panic!("{goal}: exit {code}: {out}"),
        }
    }
    assert!(
        (1..=5).contains(&hit),
        "{hit} goals hit in one run of 40 steps"
    );
}

/// ReadWriteAdvanced's `system` calls itself inside its own `|[ Memory ]|` (every round adds a
/// memory): the refusal names the process, the operator, and what to write instead.
#[test]
fn read_write_advanced_is_refused_with_what_to_write_instead() {
    let Some(model) = corpus("examps/ReadWriteConflict/ReadWriteAdvanced.txs") else {
        return;
    };
    let (code, out) = outcome(ioco().args(["check", &model]));
    assert_eq!(code, 2, "{out}");
    // the words, without the line breaks and frames of the report
    let words = out
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        words.contains("`system` is called again inside its own `|[ Memory ]|`")
            && out.contains("ReadWriteAdvanced.txs:50:15")
            && words.contains("`system ::= A |[ Memory ]| q`"),
        "{out}"
    );
}

/// The words of a report, without its line breaks and frames.
fn words(out: &str) -> String {
    out.replace(['│', '×', '⚠'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// With a `.txs` model the messages a TorXakis user reads are in TorXakis's terms (MODELDEF,
/// PURPDEF, GOAL, HIT), not in those of the lowered `.ioco` model: a file without MODELDEF
/// (ReplayProc.txs, an empty file), a wrong `--entry`, a `--goal` that names a PURPDEF of
/// several GOALs or no GOAL, a PURPDEF that could not be imported; a PURPDEF of one GOAL is
/// named as TorXakis's `tester` names it.
#[test]
fn messages_about_txs_models_are_in_torxakis_terms() {
    let (Some(adder), Some(replay), Some(purposes), Some(arms), Some(single)) = (
        corpus("examps/Adder/Adder.txs"),
        corpus("examps/Adder/ReplayProc.txs"),
        corpus("examps/Adder/AdderPurposes.txs"),
        corpus("examps/MovingArms/MovingArms.txs"),
        corpus("examps/MovingArms/SingleAxisPurpose.txs"),
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txs");
    std::fs::write(&empty, "").unwrap();
    for file in [replay.clone(), empty.display().to_string()] {
        let (code, out) = outcome(ioco().args(["check", &file]));
        let w = words(&out);
        assert_eq!(code, 2, "{out}");
        assert!(
            w.contains("has no MODELDEF to test") && w.contains("MODELDEF M ::= CHAN IN"),
            "{out}"
        );
        assert!(!w.contains("@main") && !w.contains("`model`"), "{out}");
    }
    let (code, out) = outcome(ioco().args(["check", &adder, "--entry", "Nope"]));
    let w = words(&out);
    assert_eq!(code, 2, "{out}");
    assert!(
        w.contains("has no MODELDEF named `Nope` (--entry)")
            && w.contains("the MODELDEFs of these files: Adder, Adder3"),
        "{out}"
    );
    assert!(!w.contains("adder_2"), "lowered names leak: {out}");

    let purpose_test = |goal: &str| {
        outcome(
            ioco()
                .args(["test", &adder, "--purpose", &purposes, "--goal", goal])
                .args([
                    "--sim", &adder, "--runs", "1", "--steps", "20", "--seed", "1",
                ]),
        )
    };
    let (code, out) = purpose_test("Purp1");
    let w = words(&out);
    assert_eq!(code, 2, "{out}");
    assert!(
        w.contains("`Purp1` is a PURPDEF of 6 GOALs")
            && w.contains("tester MODEL Purp1 SUT")
            && w.contains("--goal Purp1.m1"),
        "{out}"
    );
    let (code, out) = purpose_test("nosuch");
    let w = words(&out);
    assert_eq!(code, 2, "{out}");
    assert!(
        w.contains("no PURPDEF has a GOAL `nosuch` (--goal)") && w.contains("Purp4.m6"),
        "{out}"
    );
    // a PURPDEF of one GOAL, by its name
    let (code, out) = purpose_test("Purp2");
    assert_eq!(code, 0, "{out}");
    // a PURPDEF that could not be imported: the warning says why, the error in GOAL terms
    // (a HIT inside a composition; MovingArms's own purposes load)
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txs");
    std::fs::write(
        &bad,
        "PROCDEF h [A, B] () HIT ::= A >-> HIT ENDDEF\n\
         PURPDEF Bad ::= CHAN IN UpX, UpY CHAN OUT MaxX\n\
         GOAL bad ::= h [UpX, UpY] () ||| h [UpY, UpX] ()\nENDDEF\n",
    )
    .unwrap();
    let bad = bad.to_str().unwrap();
    let (code, out) = outcome(
        ioco()
            .args(["test", &arms, "--purpose", bad, "--goal", "bad"])
            .args(["--sim", &arms, "--runs", "1", "--steps", "5"]),
    );
    let w = words(&out);
    assert_eq!(code, 2, "{out}");
    assert!(
        w.contains("PURPDEF Bad is left out")
            && out.contains("bad.txs:1:35")
            && w.contains("no PURPDEF of these files has a GOAL `bad`"),
        "{out}"
    );
    // MovingArms's Single Axis purpose (a multi-action synchronised with a semaphore) loads
    let (code, out) = outcome(
        ioco()
            .args(["test", &arms, "--purpose", &single, "--goal", "singleAxis"])
            .args(["--sim", &arms, "--runs", "1", "--steps", "5"]),
    );
    assert_eq!(code, 0, "{out}");
}

/// TorXakis's default `Sut_deltaTime`, 2000 ms, is the quiescence time-out of a `.txs` model
/// without `--timeout` (the session's parameters say so); `--timeout` overrides it; a `.ioco`
/// model keeps ioco's 1000 ms.
#[test]
fn a_txs_model_waits_torxakis_default_for_quiescence() {
    let Some(adder) = corpus("examps/Adder/Adder.txs") else {
        return;
    };
    let (_sut, map) = txs_sut("adder", "correct", &[7890]);
    let run = |extra: &[&str]| {
        outcome(
            ioco()
                .args(["test", &adder, "--txs-ports", &map])
                .args(["--runs", "1", "--steps", "2", "--seed", "1"])
                .args(extra),
        )
    };
    let (code, out) = run(&[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("timeout_ms=2000"), "{out}");
    let (code, out) = run(&["--timeout", "700"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("timeout_ms=700"), "{out}");
    let ioco_model = common::root().join("examples/torxakis/adder.ioco");
    let (code, out) = outcome(
        ioco()
            .arg("test")
            .arg(&ioco_model)
            .arg("--sim")
            .arg(&ioco_model)
            .args(["--runs", "1", "--steps", "2"]),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("timeout_ms=1000"), "{out}");
}

/// A `.txs` file with the model and its purpose (`ioco test X.txs --purpose X.txs`) tested
/// against a simulated copy of itself (`--sim copy-of-X.txs`): the purpose file is read with
/// the specification only, not with the simulated implementation (whose definitions it would
/// define twice). A correct copy passes with the goal hit; a faulty copy fails.
#[test]
fn a_purpose_in_the_model_file_is_not_read_with_the_simulated_copy() {
    let dir = tempfile::tempdir().unwrap();
    let model = "CHANDEF C ::= Add, Sum :: Int ENDDEF\n\
                 PROCDEF acc [Add, Sum :: Int] (n :: Int) ::= \
                 Add ? d [[ (d > 0) /\\ (d < 5) ]] >-> Sum ! SUM >-> acc [Add, Sum] (n + d) \
                 ENDDEF\n\
                 MODELDEF M ::= CHAN IN Add CHAN OUT Sum BEHAVIOUR acc [Add, Sum] (0) ENDDEF\n\
                 PROCDEF reach [Add, Sum :: Int] (n :: Int) HIT ::= Sum ! n >-> HIT ENDDEF\n\
                 PURPDEF P ::= CHAN IN Add CHAN OUT Sum \
                 GOAL ten ::= reach [Add, Sum] (10) ENDDEF\n";
    let x = dir.path().join("x.txs");
    std::fs::write(&x, model.replace("SUM", "n + d")).unwrap();
    let copy = dir.path().join("copy-of-x.txs");
    std::fs::write(&copy, model.replace("SUM", "n + d")).unwrap();
    let faulty = dir.path().join("faulty-x.txs");
    std::fs::write(
        &faulty,
        model.replace("SUM", "n + d + (IF n + d > 5 THEN 1 ELSE 0 FI)"),
    )
    .unwrap();
    let x = x.to_str().unwrap();
    let run = |sim: &std::path::Path| {
        outcome(
            ioco()
                .args(["test", x, "--purpose", x, "--sim", sim.to_str().unwrap()])
                .args([
                    "--runs",
                    "3",
                    "--steps",
                    "12",
                    "--seed",
                    "1",
                    "--timeout",
                    "200",
                ]),
        )
    };
    let (code, out) = run(&copy);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("defined twice"), "{out}");
    assert!(out.contains("accept reached in 3 of 3"), "{out}");
    let (code, out) = run(&faulty);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAIL") && out.contains("is not allowed"),
        "{out}"
    );
}
