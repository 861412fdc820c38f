//! The papercuts of issue #32 (item 3), one test each: what a new user hit in a first hour.

mod common;

use common::ioco;

/// Standard output and error of a finished `ioco` run, with its exit code.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = ioco().args(args).output().expect("ioco runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A message as one line: miette's wrapping and its `│` margin taken out.
fn flat(s: &str) -> String {
    s.replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Papercut 1: the docs say `--sut`; the errors and `--help` say so too (`--cmd` still works).
#[test]
fn the_sut_option_is_named_sut_everywhere() {
    let (code, _, err) = run(&["test", "examples/coffee/coffee.ioco"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("give --sut, --tcp, --listen, --http or --sim"),
        "{err}"
    );
    assert!(!err.contains("--cmd"), "{err}");
    let (code, help, _) = run(&["test", "--help"]);
    assert_eq!(code, Some(0));
    assert!(help.contains("--sut <COMMAND>"), "{help}");
    assert!(!help.contains("--cmd <"), "{help}");
    // the old name is still accepted
    let (code, out, err) = run(&[
        "test",
        "examples/coffee/coffee.ioco",
        "--cmd",
        "/nonexistent/sut",
        "--runs",
        "1",
    ]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(!err.contains("unexpected argument"), "{err}");
}

/// `ioco ARGS | true`: the reader is gone before ioco writes (or, if ioco is faster, after
/// its first writes into the pipe buffer: the exit code must be 0 either way), as in
/// `closed_pipes.rs`.
fn into_a_closed_pipe(args: &[&str]) -> Option<i32> {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ioco"))
        .args(args)
        .current_dir(common::root())
        .env("RUST_BACKTRACE", "0")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("ioco starts");
    drop(child.stdout.take());
    child.wait().expect("ioco ends").code()
}

/// Papercut 3: `ioco completions zsh | head -1` exits 0 (it panicked with BrokenPipe, 101), as
/// do `man` and `schema`.
#[test]
fn completions_man_and_schema_into_a_closed_pipe_exit_zero() {
    for args in [
        &["completions", "zsh"][..],
        &["completions", "bash"],
        &["man"],
        &["man", "test"],
        &["schema", "result"],
    ] {
        assert_eq!(
            into_a_closed_pipe(args),
            Some(0),
            "ioco {args:?} | head -c 1"
        );
    }
}

/// Papercut 3: every page the main page names (`ioco-check(1)` …) is one `ioco man check`
/// prints; no `ioco-help(1)`.
#[test]
fn man_prints_every_page_it_names() {
    let (code, page, err) = run(&["man"]);
    assert_eq!(code, Some(0), "{err}");
    let named: Vec<String> = page
        .lines()
        .filter_map(|l| l.strip_prefix("ioco\\-")?.strip_suffix("(1)"))
        .map(str::to_string)
        .collect();
    assert!(named.len() >= 15, "{named:?}");
    assert!(!named.iter().any(|n| n == "help"), "{named:?}");
    for name in &named {
        let (code, sub, err) = run(&["man", name]);
        assert_eq!(code, Some(0), "ioco man {name}: {err}");
        assert!(sub.contains(&format!(".TH ioco-{name} 1")), "{sub}");
        assert!(sub.contains(&format!("ioco {name}")), "{sub}");
    }
    let (_, test, _) = run(&["man", "test"]);
    assert!(test.contains("\\-\\-quiescence\\-marker"), "{test}");
    let (code, _, err) = run(&["man", "nope"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("no command `nope`") && err.contains("check"),
        "{err}"
    );
}

/// Papercut 9: `--entry`, `--with`, `--goal` and `--deny-warnings` are options of the commands
/// that load a model, not of `completions`, `man` and `schema`; before the command they still
/// work.
#[test]
fn model_options_belong_to_the_commands_that_load_models() {
    for cmd in ["completions", "man", "schema"] {
        let (code, help, _) = run(&[cmd, "--help"]);
        assert_eq!(code, Some(0));
        for opt in ["--entry", "--with", "--goal", "--deny-warnings"] {
            assert!(!help.contains(opt), "ioco {cmd} --help shows {opt}: {help}");
        }
    }
    let (_, top, _) = run(&["--help"]);
    assert!(!top.contains("--entry"), "{top}");
    for cmd in [
        "check", "show", "test", "run", "gen", "replay", "explore", "report",
    ] {
        let (_, help, _) = run(&[cmd, "--help"]);
        for opt in ["--entry", "--with", "--deny-warnings"] {
            assert!(help.contains(opt), "ioco {cmd} --help lacks {opt}");
        }
    }
    let (_, help, _) = run(&["test", "--help"]);
    assert!(help.contains("--goal <NAME>"), "{help}");
    // a model with a warning: an error with --deny-warnings after or before the command
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.ioco");
    std::fs::write(
        &model,
        "model M {\n  input a\n  output b\n  init idle\n  idle -- a? --> busy\n  \
         busy -- b! --> idel\n}\n",
    )
    .unwrap();
    let m = model.to_str().unwrap();
    let (code, _, err) = run(&["check", m]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("did you mean `idle`"), "{err}");
    let (code, _, err) = run(&["check", m, "--deny-warnings"]);
    assert_eq!(code, Some(2), "{err}");
    let (code, _, err) = run(&["--deny-warnings", "check", m]);
    assert_eq!(code, Some(2), "{err}");
    let (code, _, err) = run(&["--entry", "M", "check", m]);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run(&["check", m, "--entry", "Nope"]);
    assert_eq!(code, Some(2), "{err}");
}

/// Papercut 11: n-complete's estimate is a plain integer (`about 4240 test cases`, not
/// `about 4.240e3`).
#[test]
fn the_n_complete_estimate_is_a_plain_integer() {
    let (code, _, err) = run(&[
        "gen",
        "examples/coffee/coffee.ioco",
        "--method",
        "n-complete",
        "--n",
        "2",
        "--estimate",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("about 4240 test cases ("), "{err}");
    assert!(!err.contains("e3"), "{err}");
}

/// Papercut 8: `--runs 0` is refused before anything runs (no `PASS: 0 runs` line).
#[test]
fn runs_zero_is_refused_before_running() {
    let (code, out, err) = run(&[
        "test",
        "examples/coffee/coffee.ioco",
        "--sim",
        "examples/models/coffee-ok.aut",
        "--runs",
        "0",
    ]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("--runs 0"), "{err}");
    assert!(!out.contains("PASS") && !err.contains("PASS"), "{out}{err}");
}

/// The seed a command printed (`…seed N…` on standard error).
fn printed_seed(err: &str) -> u64 {
    let at = err
        .find("seed ")
        .unwrap_or_else(|| panic!("no seed printed: {err}"))
        + 5;
    let digits: String = err[at..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or_else(|_| panic!("{err}"))
}

/// Papercut 8: `ioco test` and `ioco run` (both suite formats) pick a seed from the clock
/// unless `--seed` is given, and print it.
#[test]
fn test_and_run_print_the_seed_they_use() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.json");
    let sts = dir.path().join("sts.json");
    let (code, _, err) = run(&[
        "gen",
        "examples/coffee/coffee.ioco",
        "--method",
        "random",
        "--tests",
        "3",
        "-o",
        suite.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run(&[
        "gen",
        "examples/coffee/coffee-sts.ioco",
        "--method",
        "switch-coverage",
        "-o",
        sts.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let sessions: [Vec<&str>; 3] = [
        vec![
            "test",
            "examples/coffee/coffee.ioco",
            "--sim",
            "examples/models/coffee-ok.aut",
            "--runs",
            "2",
        ],
        vec![
            "run",
            "examples/coffee/coffee.ioco",
            suite.to_str().unwrap(),
            "--sim",
            "examples/models/coffee-ok.aut",
        ],
        vec![
            "run",
            sts.to_str().unwrap(),
            "--sim",
            "examples/coffee/coffee-sts.ioco",
        ],
    ];
    for args in &sessions {
        let (_, _, err) = run(args);
        let _ = printed_seed(&err);
        let mut fixed = args.clone();
        fixed.extend(["--seed", "4242"]);
        let (_, _, err) = run(&fixed);
        assert_eq!(printed_seed(&err), 4242, "{args:?}: {err}");
    }
    // from the clock: two sessions rarely share a seed; a few tries make a clash improbable
    let mut seeds: Vec<u64> = (0..4).map(|_| printed_seed(&run(&sessions[2]).2)).collect();
    seeds.dedup();
    assert!(
        seeds.len() > 1,
        "the seed of `ioco run SUITE` is fixed: {seeds:?}"
    );
}

/// Papercut 4: `ioco report A.json B.json` prints the merged summary and exits with its
/// verdict (1 for a Fail, as `ioco test`); no output option is needed.
#[test]
fn report_prints_the_merged_summary_and_exits_with_its_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let shard = |k: u32, sim: &str| {
        let out = dir.path().join(format!("{sim}-{k}.json"));
        let sim_model = format!("examples/models/{sim}.aut");
        let k = format!("{k}/2");
        let (code, _, err) = run(&[
            "test",
            "examples/coffee/coffee.ioco",
            "--sim",
            &sim_model,
            "--runs",
            "10",
            "--keep-going",
            "--seed",
            "3",
            "--shard",
            &k,
            "--json",
            out.to_str().unwrap(),
        ]);
        assert!(matches!(code, Some(0 | 1)), "{err}");
        out.to_str().unwrap().to_string()
    };
    let (a, b) = (shard(1, "coffee-bug"), shard(2, "coffee-bug"));
    let (code, out, err) = run(&["report", &a, &b]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.starts_with("FAIL: 10 runs"), "{out}");
    assert!(out.contains("merged=2 result files"), "{out}");
    // a report on standard output: the summary goes to standard error, the code is the same
    let (code, out, err) = run(&["report", &a, &b, "--json", "-"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        out.trim_start().starts_with('{') && err.contains("FAIL: 10 runs"),
        "{err}"
    );
    let (a, b) = (shard(1, "coffee-ok"), shard(2, "coffee-ok"));
    let (code, out, err) = run(&["report", &a, &b]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.starts_with("PASS: 10 runs"), "{out}");
}

/// Papercut 7: a suite or a result given where a model is expected is named as such, with the
/// command that takes it (not "unknown field `method`").
#[test]
fn a_suite_or_a_result_given_as_the_model_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.json");
    let result = dir.path().join("result.json");
    let (s, r) = (suite.to_str().unwrap(), result.to_str().unwrap());
    let (code, _, err) = run(&[
        "gen",
        "examples/coffee/coffee.ioco",
        "--method",
        "random",
        "--tests",
        "2",
        "-o",
        s,
    ]);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run(&[
        "test",
        "examples/coffee/coffee.ioco",
        "--sim",
        "examples/models/coffee-ok.aut",
        "--runs",
        "2",
        "--json",
        r,
    ]);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run(&["check", s]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("is a test suite (ioco-suite/1), not a model"),
        "{err}"
    );
    assert!(err.contains("ioco run MODEL"), "{err}");
    assert!(!err.contains("unknown field"), "{err}");
    let (code, _, err) = run(&["test", s, "--sim", "examples/models/coffee-ok.aut"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("is a test suite"), "{err}");
    let (code, _, err) = run(&["test", r, "--sim", "examples/models/coffee-ok.aut"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("is the result of a test session"), "{err}");
    assert!(
        err.contains("ioco replay MODEL") && err.contains("ioco report"),
        "{err}"
    );
    // a broken model is still reported by the parser
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, r#"{"format":"ioco-lts/1","foo":1}"#).unwrap();
    let (code, _, err) = run(&["check", bad.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("unknown field `foo`"), "{err}");
}

/// Papercut 2: the explicit engine on infinite data: the error and its help agree (the help no
/// longer says that `test` takes the model as it is); `--values` with the explicit engine and
/// the bounds of shrinking without `--shrink` are errors with a hint, not ignored.
#[test]
fn engine_values_and_shrink_bounds_say_what_they_need() {
    let (code, _, err) = run(&[
        "test",
        "examples/brp/brp.ioco",
        "--engine",
        "explicit",
        "--sim",
        "examples/brp/brp.ioco",
    ]);
    assert_eq!(code, Some(2), "{err}");
    let err = flat(&err);
    assert!(
        err.contains("the explicit engine of `ioco test` needs a model with finite data"),
        "{err}"
    );
    assert!(err.contains("leave out `--engine explicit`"), "{err}");
    assert!(!err.contains("`test`, `replay`"), "{err}");
    // a command without a symbolic engine still names those that take the model as it is
    let (code, _, err) = run(&["analyze", "examples/brp/brp.ioco"]);
    assert_eq!(code, Some(2), "{err}");
    let err = flat(&err);
    assert!(err.contains("take the model as it is"), "{err}");

    let coffee = [
        "examples/coffee/coffee.ioco",
        "--sim",
        "examples/models/coffee-ok.aut",
    ];
    let with = |extra: &[&str]| {
        let mut args = vec!["test"];
        args.extend(coffee);
        args.extend(["--runs", "1"]);
        args.extend(extra);
        run(&args)
    };
    // (without --engine, --values asks for the symbolic engine, which chooses values)
    let (code, out, err) = with(&["--engine", "explicit", "--values", "small"]);
    let err = flat(&err);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains("--values small is not used by the explicit engine"),
        "{err}"
    );
    assert!(err.contains("--engine symbolic"), "{err}");
    for bound in [
        &["--shrink-budget", "5"][..],
        &["--shrink-time", "5s"],
        &["--shrink-tries", "2"],
    ] {
        let (code, out, err) = with(bound);
        let err = flat(&err);
        assert_eq!(code, Some(2), "{bound:?}: {out}{err}");
        assert!(err.contains("which is off without --shrink"), "{err}");
        assert!(err.contains("add --shrink"), "{err}");
        let mut shrinking = bound.to_vec();
        shrinking.push("--shrink");
        let (code, _, err) = with(&shrinking);
        assert_eq!(code, Some(0), "{bound:?}: {err}");
    }
    // replay too
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let (code, _, err) = with(&["--json", json.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run(&[
        "replay",
        coffee[0],
        json.to_str().unwrap(),
        "--sim",
        coffee[2],
        "--shrink-budget",
        "3",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        flat(&err).contains("which is off without --shrink"),
        "{err}"
    );
}

/// Papercut 6: a target `s00` for `s0` gets "did you mean `s0`?" as `idel` gets "did you mean
/// `idle`?"; a numbered location that is meant (`s4` beside `s0`…`s3`) gets no suggestion.
#[test]
fn a_misspelt_numbered_location_gets_a_suggestion() {
    let dir = tempfile::tempdir().unwrap();
    let coffee = std::fs::read_to_string(common::root().join("examples/coffee/coffee.ioco"))
        .expect("the coffee model");
    let check = |name: &str, from: &str, to: &str| {
        let path = dir.path().join(name);
        assert!(coffee.contains(from));
        std::fs::write(&path, coffee.replace(from, to)).unwrap();
        run(&["check", path.to_str().unwrap()])
    };
    for (typo, meant) in [("s00", "s0"), ("s01", "s1")] {
        let (code, _, err) = check(
            "typo.ioco",
            "e1 -- error! --> s0",
            &format!("e1 -- error! --> {typo}"),
        );
        assert_eq!(code, Some(0), "{err}");
        assert!(
            err.contains(&format!("location `{typo}` is entered but never left")),
            "{err}"
        );
        assert!(err.contains(&format!("did you mean `{meant}`?")), "{err}");
    }
    let (code, _, err) = check("end.ioco", "s3 -- error! --> s0", "s3 -- error! --> s4");
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("did you mean"), "{err}");
    // and --deny-warnings makes the typo an error
    let path = dir.path().join("deny.ioco");
    std::fs::write(
        &path,
        coffee.replace("e1 -- error! --> s0", "e1 -- error! --> s00"),
    )
    .unwrap();
    let (code, _, _) = run(&["check", path.to_str().unwrap(), "--deny-warnings"]);
    assert_eq!(code, Some(2));
}

/// Papercut 5: a SUT that never prints its marker: a progress line every 5 s while ioco waits,
/// and an error that says how long it waited and what to change. --startup-timeout is one
/// budget for all the starts of a run (#35 item 6): the first start spends it, the second
/// (--retries 1) is not made, so the run costs one time-out, not one per start.
#[test]
fn waiting_for_a_marker_that_never_comes_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let sut = dir.path().join("never.sh");
    // reads its input, never prints (not even its quiescence marker)
    std::fs::write(&sut, "while read -r line; do :; done\n").unwrap();
    let sut = format!("sh {}", sut.display());
    // 8 s per start: the progress line at 5 s has 3 s to spare on a loaded machine
    let (code, out, err) = run(&[
        "test",
        "examples/coffee/coffee.ioco",
        "--sut",
        &sut,
        "--quiescence-marker",
        "#quiet",
        "--startup-timeout",
        "8s",
        "--retries",
        "1",
        "--runs",
        "1",
    ]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains(
            "ioco: waiting for the SUT's start-up quiescence marker `#quiet` (start 1 of 2, 5 s \
             of --startup-timeout 8 s)"
        ),
        "{err}"
    );
    assert!(!err.contains("(start 2 of 2"), "{err}");
    let out = flat(&out);
    assert!(
        out.contains("not ready after 8 s: its start-up quiescence marker `#quiet` did not come"),
        "{out}"
    );
    assert!(
        out.contains("check that the system prints `#quiet`")
            && out.contains("raise --startup-timeout")
            && out.contains(
                "not started again: --startup-timeout is one budget for all the \
                             starts of a run"
            ),
        "{out}"
    );
    // and --help says so
    let (_, help, _) = run(&["test", "--help"]);
    assert!(
        flat(&help).contains("One budget for all the starts of a run (--retries)"),
        "{help}"
    );
}

/// Papercut 10: the parameter of a value argument (`ans!(=last + 1)`) is shown as the gate's
/// parameter `r`, not by its internal name `r#0`, in pictures and in the reason of a Fail.
#[test]
fn value_arguments_are_shown_by_the_gate_parameter_name() {
    let dir = tempfile::tempdir().unwrap();
    let model = |name: &str, plus: u32| {
        let path = dir.path().join(name);
        std::fs::write(
            &path,
            format!(
                "model M {{\n  input ask(n: int)\n  output ans(r: int)\n  var last: int = 0\n  \
                 init idle\n  idle -- ask?(n) [n > 0] {{ last = n }} --> busy\n  \
                 busy -- ans!(=last + {plus}) --> idle\n}}\n"
            ),
        )
        .unwrap();
        path.to_str().unwrap().to_string()
    };
    let (spec, bug) = (model("spec.ioco", 1), model("bug.ioco", 2));
    let (code, dot, err) = run(&["show", &spec]);
    assert_eq!(code, Some(0), "{err}");
    assert!(dot.contains("ans!(r) [r == last + 1]"), "{dot}");
    assert!(!dot.contains("r#0"), "{dot}");
    let out = common::ioco_data()
        .args(["test", &spec, "--sim", &bug, "--runs", "3", "--seed", "1"])
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("allowed   ans!(r) [r == "), "{text}");
    assert!(!text.contains("r#0"), "{text}");
}
