//! Real child processes (`sh -c` scripts) as SUTs: conforming, crashing, hanging, garbage,
//! partial lines, floods, exits. Each ends in a verdict or error, and no process is left.

use ioco_exec::{run_online_with, OnlineOptions, RunResult, RunVerdict, Summary};
use ioco_model::{Alphabet, LabelKind::*, Lts, LtsBuilder};
use ioco_sut::process::{ProcessAdapter, ProcessConfig, ResetMode};
use ioco_sut::{Observation, Sent, Sut, SutError};
use std::path::PathBuf;
use std::time::Duration;

/// coin? then coffee!, forever. `tea` is a known output that is never allowed.
fn spec() -> Lts {
    let mut b = LtsBuilder::new(Alphabet::new());
    b.add_states(2);
    b.add_initial(0);
    b.add(0, "coin", Input, 1).unwrap();
    b.add(1, "coffee", Output, 0).unwrap();
    b.alphabet_mut().output("tea").unwrap();
    b.build().unwrap()
}

/// A spec that ends: coin? then coffee! then nothing more.
fn one_shot() -> Lts {
    let mut b = LtsBuilder::new(Alphabet::new());
    b.add_states(3);
    b.add_initial(0);
    b.add(0, "coin", Input, 1).unwrap();
    b.add(1, "coffee", Output, 2).unwrap();
    b.build().unwrap()
}

struct PidFile(PathBuf);

impl PidFile {
    fn new(tag: &str) -> PidFile {
        let p =
            std::env::temp_dir().join(format!("ioco-exec-test-{tag}-{}.pids", std::process::id()));
        let _ = std::fs::remove_file(&p);
        PidFile(p)
    }

    fn pids(&self) -> Vec<i32> {
        std::fs::read_to_string(&self.0)
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|s| s.parse().ok())
            .collect()
    }

    /// Every recorded process (the SUT shells and their background children) is gone.
    fn assert_all_gone(&self) {
        let pids = self.pids();
        assert!(!pids.is_empty(), "the SUT did not record its pid");
        for pid in pids {
            let mut gone = false;
            for _ in 0..200 {
                if !alive(pid) {
                    gone = true;
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            assert!(gone, "process {pid} was left behind");
        }
    }
}

impl Drop for PidFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// `kill -0 pid` succeeds and the process is not a zombie waiting for a reaper.
fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks for existence.
    let exists = unsafe { libc::kill(pid, 0) } == 0;
    if !exists {
        return false;
    }
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat
        .rsplit(')')
        .next()
        .and_then(|s| s.split_whitespace().next());
    !matches!(state, Some("Z") | Some("X") | None)
}

/// A shell SUT: records its pid and a background child's pid, then runs `body`.
fn sh(pids: &PidFile, body: &str, marker: bool) -> ProcessConfig {
    let script = format!(
        "echo $$ >> '{p}'; sleep 1000 & echo $! >> '{p}'; {body}",
        p = pids.0.display()
    );
    let mut cfg = ProcessConfig::from_command_line("sh -c x").unwrap();
    cfg.argv[2] = script;
    if marker {
        cfg.wire.marker = Some("#quiet".into());
    }
    cfg
}

fn run(spec: &Lts, cfg: ProcessConfig, runs: usize, depth: usize) -> Summary {
    let mut a = ProcessAdapter::new(spec.alphabet(), cfg).unwrap();
    let opts = OnlineOptions {
        runs,
        depth,
        seed: 5,
        // Long enough for `sh` to answer on a loaded CI machine (outputs are immediate; a
        // marker ends the wait early): 100 ms was once too short for the script's `coffee`.
        quiescence_timeout: Duration::from_millis(500),
        ..OnlineOptions::default()
    };
    run_online_with(spec, &opts, &mut a).unwrap()
}

fn only_failure(s: &Summary) -> &RunResult {
    s.first_failure()
        .unwrap_or_else(|| panic!("expected a failure: {s:#?}"))
}

const GOOD: &str = "echo '#quiet'; while IFS= read -r l; do \
    case \"$l\" in coin) echo coffee;; esac; echo '#quiet'; done";

#[test]
fn conforming_machine_passes_with_marker_and_with_timeouts() {
    let spec = spec();
    let pids = PidFile::new("good");
    let s = run(&spec, sh(&pids, GOOD, true), 10, 20);
    assert_eq!(s.verdict, RunVerdict::Pass, "{s:#?}");
    assert_eq!(s.runs.len(), 10);
    assert!(s
        .runs
        .iter()
        .any(|r| r.trace.iter().any(|l| l == "coffee!")));
    assert_eq!(s.coverage.transitions_visited, 2);
    pids.assert_all_gone();

    // Without the marker, quiescence is a time-out; marker lines would be garbage, so use a
    // script that prints none.
    let pids = PidFile::new("good-timeout");
    let plain = "while IFS= read -r l; do case \"$l\" in coin) echo coffee;; esac; done";
    let s = run(&spec, sh(&pids, plain, false), 2, 6);
    assert_eq!(s.verdict, RunVerdict::Pass, "{s:#?}");
    pids.assert_all_gone();
}

#[test]
fn crash_is_a_fail_where_an_output_is_required() {
    let spec = spec();
    let pids = PidFile::new("crash");
    let body = "echo '#quiet'; read -r l; echo dying >&2; kill -SEGV $$";
    // A generous time-out: the crash must be seen as an exit, not as quiescence, even on a
    // loaded machine (the marker makes the other observations immediate).
    let mut a = ProcessAdapter::new(spec.alphabet(), sh(&pids, body, true)).unwrap();
    let opts = OnlineOptions {
        runs: 20,
        depth: 10,
        seed: 5,
        quiescence_timeout: Duration::from_secs(5),
        ..OnlineOptions::default()
    };
    let s = run_online_with(&spec, &opts, &mut a).unwrap();
    let r = only_failure(&s);
    let f = r.failure.as_ref().unwrap();
    assert_eq!(f.observed, "exit");
    assert!(f.reason.contains("SIGSEGV"), "{}", f.reason);
    assert!(f.reason.contains("requires an output"), "{}", f.reason);
    // (quiescence may be observed before the coin)
    assert_eq!(
        r.trace.iter().filter(|l| *l != "δ").collect::<Vec<_>>(),
        ["coin?"]
    );
    assert!(
        r.stderr.as_deref().unwrap_or("").contains("dying"),
        "{r:#?}"
    );
    pids.assert_all_gone();
}

#[test]
fn exit_rules_fail_or_error() {
    // Exits at once: the spec accepts coin? there (and allows δ): input-enabledness violated.
    let spec = spec();
    // Only observing (weight of coin? 0), so the exit is seen where coin? is enabled.
    let pids = PidFile::new("exit0");
    let mut a = ProcessAdapter::new(spec.alphabet(), sh(&pids, "exit 3", false)).unwrap();
    let opts = OnlineOptions {
        runs: 3,
        depth: 100, // observing until the exit is seen, however slow the machine
        quiescence_timeout: Duration::from_millis(100),
        strategy: ioco_gen::StrategySpec::Weighted(vec![("coin?".into(), 0.0)]),
        ..OnlineOptions::default()
    };
    let s = run_online_with(&spec, &opts, &mut a).unwrap();
    let r = only_failure(&s);
    let reason = &r.failure.as_ref().unwrap().reason;
    assert!(reason.contains("exited with status 3"), "{reason}");
    assert!(reason.contains("input-enabledness"), "{reason}");
    pids.assert_all_gone();

    // Exits after the one coffee of a specification that ends there: no evidence, Error.
    let spec = one_shot();
    let pids = PidFile::new("exit-end");
    let body = "echo '#quiet'; read -r l; echo coffee; exit 0";
    let s = run(&spec, sh(&pids, body, true), 5, 10);
    assert_eq!(s.first_failure(), None, "{s:#?}");
    let errors: Vec<_> = s
        .runs
        .iter()
        .filter(|r| r.verdict == RunVerdict::Error)
        .collect();
    assert!(!errors.is_empty(), "{s:#?}");
    assert!(errors[0]
        .error
        .as_ref()
        .unwrap()
        .contains("exited with status 0"));
    pids.assert_all_gone();
}

#[test]
fn hanging_sut_ends_by_quiescence_timeout() {
    let spec = spec();
    // Reads inputs but never answers: δ where coffee! is required.
    let pids = PidFile::new("hang");
    let s = run(
        &spec,
        sh(&pids, "while read -r l; do :; done", false),
        5,
        10,
    );
    let f = only_failure(&s).failure.clone().unwrap();
    assert_eq!(f.observed, "δ");
    assert_eq!(f.allowed, vec!["coffee!".to_string()]);
    pids.assert_all_gone();
    // Does not even read its input.
    let pids = PidFile::new("deaf");
    let s = run(&spec, sh(&pids, "sleep 1000", false), 5, 10);
    assert_eq!(only_failure(&s).failure.as_ref().unwrap().observed, "δ");
    pids.assert_all_gone();
}

#[test]
fn garbage_is_a_fail_and_bad_bytes_are_errors() {
    let spec = spec();
    let pids = PidFile::new("garbage");
    let body = "echo '#quiet'; read -r l; echo 'cofee please'; sleep 1000";
    let s = run(&spec, sh(&pids, body, true), 10, 10);
    let f = only_failure(&s).failure.clone().unwrap();
    assert_eq!(f.observed, "cofee please");
    assert!(f.reason.contains("not an output of the model"));
    pids.assert_all_gone();

    // A known output that is not allowed: tea! after coin?.
    let pids = PidFile::new("tea");
    let body = "echo '#quiet'; while read -r l; do echo tea; echo '#quiet'; done";
    let s = run(&spec, sh(&pids, body, true), 10, 10);
    let f = only_failure(&s).failure.clone().unwrap();
    assert_eq!(f.observed, "tea!");
    assert_eq!(f.allowed, vec!["coffee!".to_string()]);
    pids.assert_all_gone();

    for (tag, body, needle) in [
        (
            "utf8",
            "echo '#quiet'; read -r l; printf '\\377\\376\\n'; sleep 1000",
            "UTF-8",
        ),
        (
            "partial",
            "echo '#quiet'; read -r l; printf coff; sleep 1000",
            "unterminated",
        ),
        (
            "longline",
            "echo '#quiet'; read -r l; head -c 3000000 /dev/zero | tr '\\0' a; sleep 1000",
            "longer than",
        ),
    ] {
        let pids = PidFile::new(tag);
        let s = run(&spec, sh(&pids, body, true), 10, 10);
        assert_eq!(s.first_failure(), None, "{tag}: {s:#?}");
        let e = s
            .runs
            .iter()
            .find(|r| r.verdict == RunVerdict::Error)
            .unwrap_or_else(|| panic!("{tag}: no error: {s:#?}"));
        assert!(
            e.error.as_ref().unwrap().contains(needle),
            "{tag}: {:?}",
            e.error
        );
        pids.assert_all_gone();
    }
}

#[test]
fn a_flood_ends_in_a_verdict() {
    let spec = spec();
    let pids = PidFile::new("flood");
    let body = "echo '#quiet'; read -r l; yes coffee";
    let s = run(&spec, sh(&pids, body, true), 10, 50);
    let r = only_failure(&s);
    let f = r.failure.as_ref().unwrap();
    assert_eq!(f.observed, "coffee!");
    assert_eq!(f.allowed, vec!["δ".to_string()]);
    pids.assert_all_gone();
}

#[test]
fn adapter_level_race_reset_line_and_close() {
    let spec = spec();
    let coin = spec.alphabet().lookup("coin").unwrap();
    let coffee = spec.alphabet().lookup("coffee").unwrap();
    let pids = PidFile::new("race");
    // Two coffees per coin, then the marker; a reset line empties the queue.
    let body = "echo '#quiet'; while IFS= read -r l; do case \"$l\" in \
        coin) echo coffee; echo coffee;; '#reset') echo '#quiet'; continue;; esac; \
        echo '#quiet'; done";
    let mut cfg = sh(&pids, body, true);
    cfg.reset = ResetMode::Line("#reset".into());
    let mut a = ProcessAdapter::new(spec.alphabet(), cfg).unwrap();
    a.reset().unwrap();
    let first = a.pid().unwrap();
    assert_eq!(
        a.observe(Some(Duration::from_millis(500))).unwrap(),
        Observation::Quiescent
    );
    assert_eq!(a.send(coin).unwrap(), Sent::Accepted);
    // The coffees are pending: the next input is not given, the output races ahead.
    assert_eq!(a.send(coin).unwrap(), Sent::Raced(coffee));
    assert_eq!(
        a.observe(Some(Duration::from_millis(500))).unwrap(),
        Observation::Output(coffee)
    );
    assert_eq!(
        a.observe(Some(Duration::from_millis(500))).unwrap(),
        Observation::Quiescent
    );
    // Immediately quiescent again (marker seen), no waiting needed.
    assert_eq!(
        a.observe(Some(Duration::from_secs(60))).unwrap(),
        Observation::Quiescent
    );
    a.reset().unwrap();
    assert_eq!(a.pid(), Some(first), "a reset line keeps the process");
    a.close().unwrap();
    assert_eq!(a.pid(), None);
    pids.assert_all_gone();

    // Dropping the adapter kills the process too.
    let pids = PidFile::new("drop");
    let mut a = ProcessAdapter::new(spec.alphabet(), sh(&pids, GOOD, true)).unwrap();
    a.reset().unwrap();
    // Wait for the marker: the shell has recorded its pids by then.
    assert_eq!(
        a.observe(Some(Duration::from_secs(5))).unwrap(),
        Observation::Quiescent
    );
    drop(a);
    pids.assert_all_gone();
}

#[test]
fn start_errors_are_clear() {
    let spec = spec();
    let mut a = ProcessAdapter::new(
        spec.alphabet(),
        ProcessConfig::from_command_line("/nonexistent/sut --x").unwrap(),
    )
    .unwrap();
    match a.reset() {
        Err(SutError::Start(m)) => assert!(m.contains("/nonexistent/sut"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert!(ProcessConfig::from_command_line("sut 'unclosed").is_err());
    assert!(ProcessConfig::from_command_line("  ").is_err());
    let s = run_online_with(
        &spec,
        &OnlineOptions {
            runs: 3,
            retries: 1,
            ..Default::default()
        },
        &mut a,
    )
    .unwrap();
    assert_eq!(s.verdict, RunVerdict::Error);
    assert!(s.runs[0]
        .error
        .as_ref()
        .unwrap()
        .contains("could not reset"));
}

#[test]
fn parallel_jobs_run_separate_processes_and_leave_none() {
    use ioco_exec::run_online;
    let spec = spec();
    let pids = PidFile::new("jobs");
    let cfg = sh(&pids, GOOD, true);
    let alphabet = spec.alphabet().clone();
    let opts = OnlineOptions {
        runs: 12,
        depth: 10,
        jobs: 3,
        seed: 8,
        ..OnlineOptions::default()
    };
    let s = run_online(&spec, &opts, |_| {
        Ok(Box::new(ProcessAdapter::new(&alphabet, cfg.clone())?)
            as Box<dyn ioco_exec::Sut + Send>)
    })
    .unwrap();
    assert_eq!(s.verdict, RunVerdict::Pass, "{s:#?}");
    assert_eq!(s.runs.len(), 12);
    assert!(s.runs.iter().enumerate().all(|(k, r)| r.run == k));
    // one shell and one background sleep per run (each run restarts its process)
    assert!(pids.pids().len() >= 2 * 12);
    pids.assert_all_gone();
}

#[test]
fn json_lines_and_label_mapping() {
    use ioco_sut::wire::{Format, Mapping};
    let spec = spec();
    let pids = PidFile::new("json");
    // Speaks JSON lines; the model's coffee is COFFEE on the wire.
    let body = "echo '{\"label\":\"#quiet\"}'; while IFS= read -r l; do \
        case \"$l\" in *'\"coin\"'*) echo '{\"label\":\"COFFEE\",\"args\":[]}';; esac; \
        echo '{\"label\":\"#quiet\"}'; done";
    let mut cfg = sh(&pids, body, true);
    cfg.wire.format = Format::JsonLines;
    cfg.wire.mapping = Mapping::from_json(r#"{"coffee!": "COFFEE"}"#).unwrap();
    let s = run(&spec, cfg, 5, 12);
    assert_eq!(s.verdict, RunVerdict::Pass, "{s:#?}");
    assert!(s
        .runs
        .iter()
        .any(|r| r.trace.iter().any(|l| l == "coffee!")));
    pids.assert_all_gone();
    // Without the mapping, COFFEE is an unknown output: a Fail naming it.
    let pids = PidFile::new("json-nomap");
    let mut cfg = sh(&pids, body, true);
    cfg.wire.format = Format::JsonLines;
    let s = run(&spec, cfg, 5, 12);
    assert_eq!(
        only_failure(&s).failure.as_ref().unwrap().observed,
        "COFFEE"
    );
    pids.assert_all_gone();
}
