//! Every command docs/torxakis.md gives a TorXakis user, run from the installed binary (issue
//! #34, item 4): the commands are read from the guide (its `text` blocks and the `ioco …`
//! spans of its prose), each must be in [`COMMANDS`] (so the guide cannot gain a command no
//! test runs), and each is run in a folder holding the corpus files under the names the guide
//! uses, against the system the guide says (our stand-in `txs-sut` for a `CNECTDEF`, the Java
//! Adder compiled from examples/torxakis/Adder.java, `control-loop-sut`). A command against a
//! SUT without `--runs`, `--steps` or `--timeout` gets `--runs 2`, `--steps 10`,
//! `--timeout 500` (the stand-ins answer at once), for time only. Without the corpus the test
//! is skipped (a failure under `IOCO_NO_SKIP=1`).

mod common;
use common::{ioco, outcome, KillOnDrop};
use std::io::BufRead;
use std::path::Path;
use std::process::Stdio;

/// How the system a command tests is provided.
#[derive(Clone, Copy)]
enum Setup {
    /// Nothing (checking, translating, a simulated SUT).
    None,
    /// `txs-sut EXAMPLE` serving its sessions on free ports, given to the command with
    /// `--txs-ports` (or in place of the port the command names, `--txs-ports 7890=41234`).
    StandIn(&'static str, &'static [u16]),
    /// The Java Adder compiled into `sut/` (skipped without a JDK).
    JavaAdder,
    /// `./adders P1 P2 P3`: a script that starts the stand-in of three adders on those ports.
    AddersScript,
    /// `control-loop-sut` on `PATH`.
    ControlLoop,
}

/// The guide's commands: (as written, the concrete command for a generic one, the system).
const COMMANDS: &[(&str, Option<&str>, Setup)] = &[
    ("ioco check Adder.txs", None, Setup::None),
    ("ioco test Adder.txs", None, Setup::StandIn("adder", &[7890])),
    (
        "ioco test Queue.txs --sim Queue.txs --steps 100 --runs 1",
        None,
        Setup::None,
    ),
    (
        "ioco check Adder.txs --with AdderPurposes.txs",
        None,
        Setup::None,
    ),
    ("ioco check Adder.txs --entry Adder3", None, Setup::None),
    ("ioco translate Queue.txs -o queue.ioco", None, Setup::None),
    (
        "ioco test Adder.txs --cnect Sut3",
        None,
        Setup::StandIn("adder3", &[7891, 7892, 7893]),
    ),
    // a model with `>>>` (the claim: it conforms to itself)
    (
        "ioco compare M.txs M.txs",
        Some("ioco compare Enable.txs Enable.txs"),
        Setup::None,
    ),
    (
        "ioco test MODEL.txs",
        Some("ioco test Echo.txs"),
        Setup::StandIn("echo", &[9999]),
    ),
    (
        "ioco test X.txs",
        Some("ioco test Point.txs"),
        Setup::StandIn("point", &[9999]),
    ),
    (
        "ioco test Adder.txs --steps 100 --runs 1",
        None,
        Setup::StandIn("adder", &[7890]),
    ),
    (
        "ioco test Adder.txs --entry Adder3 --cnect Sut3",
        None,
        Setup::StandIn("adder3", &[7891, 7892, 7893]),
    ),
    (
        "ioco test Adder.txs --txs-ports 7890=41234",
        None,
        Setup::StandIn("adder", &[7890]),
    ),
    (
        "ioco test Adder.txs --sut \"java -cp sut Adder {port}\" --runs 20",
        None,
        Setup::JavaAdder,
    ),
    (
        "ioco test Adder.txs --cnect Sut3 --sut \"./adders {port:7891} {port:7892} {port:7893}\"",
        None,
        Setup::AddersScript,
    ),
    (
        "ioco test examples/torxakis/control-loop.ioco --sut \"control-loop-sut --bounded\"",
        None,
        Setup::ControlLoop,
    ),
    (
        "ioco test ControlLoopModel.txs --sut \"control-loop-sut --mode MODE\"",
        Some("ioco test ControlLoopModel.txs --sut \"control-loop-sut --mode correct\""),
        Setup::ControlLoop,
    ),
    (
        "ioco test Adder.txs --with AdderPurposes.txs --purpose Adder.txs --goal Purp1.m1 --sim Adder.txs --runs 3",
        None,
        Setup::None,
    ),
    (
        "ioco test LuckyPeople.txs --purpose PurposeLuckyByGender.txs --steps 60 --runs 1 --timeout 300",
        None,
        Setup::StandIn("lucky-people", &[7777]),
    ),
    (
        "ioco test MovingArms.txs --purpose RestrictedAxisPurpose.txs --goal restrictedAxis --sim MovingArms.txs --steps 20 --runs 1",
        None,
        Setup::None,
    ),
    (
        "ioco … A.txs --with B.txs",
        Some("ioco check Adder.txs --with AdderPurposes.txs"),
        Setup::None,
    ),
    (
        "ioco test Parallel.txs --with SingleActionSequence.txs --entry Parallel4 --sim Parallel.txs --steps 100 --runs 1",
        None,
        Setup::None,
    ),
    (
        "ioco explore Parallel.txs --entry Parallel4",
        Some("ioco explore Parallel.txs --with SingleActionSequence.txs --entry Parallel4"),
        Setup::None,
    ),
    (
        "ioco test Model.txs --purpose Purposes.txs --goal Purp.goal",
        Some("ioco test Adder.txs --purpose AdderPurposes.txs --goal Purp1.m5"),
        Setup::StandIn("adder", &[7890]),
    ),
    (
        "ioco translate MODEL.txs -o MODEL.ioco",
        Some("ioco translate Echo.txs -o Echo.ioco"),
        Setup::None,
    ),
];

/// The corpus files the guide names by their bare names.
const FILES: &[&str] = &[
    "examps/Adder/Adder.txs",
    "examps/Adder/AdderPurposes.txs",
    "examps/Queue/Queue.txs",
    "examps/Echo/Echo.txs",
    "examps/Point/Point.txs",
    "test/sqatt/data/bench/Enable/Enable.txs",
    "examps/LuckyPeople/spec/LuckyPeople.txs",
    "examps/LuckyPeople/spec/PurposeLuckyByGender.txs",
    "examps/MovingArms/MovingArms.txs",
    "examps/MovingArms/RestrictedAxisPurpose.txs",
    "examps/ControlLoop/ControlLoopModel.txs",
    "test/sqatt/data/bench/Parallel/Parallel.txs",
    "test/sqatt/data/bench/Sequence/SingleActionSequence.txs",
];

/// The `ioco …` commands of the guide: the lines of its `text` blocks (without `# …`) and
/// the code spans of its prose, whitespace collapsed.
fn guide_commands(text: &str) -> Vec<String> {
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = Vec::new();
    let mut prose = String::new();
    let mut in_block = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            if t.starts_with("ioco ") {
                let cmd = t.split(" # ").next().unwrap_or(t);
                out.push(norm(cmd));
            }
        } else {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    // code spans: `ioco SUBCOMMAND ARG…` (two words or more after `ioco`)
    for (i, span) in prose.split('`').enumerate() {
        let s = norm(span);
        if i % 2 == 1 && s.starts_with("ioco ") && s.split(' ').count() >= 3 {
            out.push(s);
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Splits a command line at spaces, keeping `"…"` together (without the quotes).
fn words(cmd: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in cmd.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `txs-sut EXAMPLE --port 0` serving sessions (until dropped) and the ports it listens on.
fn stand_in(example: &str, n: usize) -> (KillOnDrop, Vec<u16>) {
    let mut child = KillOnDrop(
        std::process::Command::new(common::example_bin("txs-sut"))
            .args([example, "--port", "0"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap(),
    );
    let mut out = std::io::BufReader::new(child.0.stdout.take().unwrap());
    let ports = (0..n)
        .map(|_| {
            let mut line = String::new();
            out.read_line(&mut line).unwrap();
            line.trim()
                .rsplit(':')
                .next()
                .and_then(|p| p.parse().ok())
                .unwrap_or_else(|| panic!("txs-sut said {line:?}"))
        })
        .collect();
    (child, ports)
}

/// Compiles examples/torxakis/Adder.java into `dir/sut`; false (a recorded skip) without a
/// JDK.
fn java_adder(dir: &Path) -> bool {
    if std::process::Command::new("javac")
        .arg("-version")
        .output()
        .is_err()
    {
        ioco_testkit::skip_part("the Java Adder", "no JDK (javac) on this machine");
        return false;
    }
    let st = std::process::Command::new("javac")
        .arg("-d")
        .arg(dir.join("sut"))
        .arg(common::root().join("examples/torxakis/Adder.java"))
        .status()
        .unwrap();
    assert!(st.success());
    true
}

#[test]
fn every_command_of_the_torxakis_guide_runs() {
    let Some(corpus) = ioco_testkit::corpus_part("torxakis") else {
        return;
    };
    let guide = std::fs::read_to_string(common::root().join("docs/torxakis.md")).unwrap();
    let found = guide_commands(&guide);
    let known: Vec<&str> = COMMANDS.iter().map(|c| c.0).collect();
    let untested: Vec<&String> = found
        .iter()
        .filter(|c| !known.contains(&c.as_str()))
        .collect();
    assert!(
        untested.is_empty(),
        "commands of docs/torxakis.md that this test does not run: {untested:#?}"
    );
    let gone: Vec<&&str> = known
        .iter()
        .filter(|k| !found.iter().any(|f| f == *k))
        .collect();
    assert!(gone.is_empty(), "no longer in the guide: {gone:#?}");

    let dir = tempfile::tempdir().unwrap();
    for f in FILES {
        let name = Path::new(f).file_name().unwrap();
        std::fs::copy(corpus.join("torxakis").join(f), dir.path().join(name)).unwrap();
    }
    std::os::unix::fs::symlink(common::root().join("examples"), dir.path().join("examples"))
        .unwrap();
    let bins = Path::new(&common::example_bin("txs-sut"))
        .parent()
        .unwrap()
        .to_path_buf();
    let adders = dir.path().join("adders");
    std::fs::write(
        &adders,
        format!(
            "#!/bin/sh\nexec '{}' adder3 --once --ports 7891=$1,7892=$2,7893=$3\n",
            common::example_bin("txs-sut")
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&adders, std::fs::Permissions::from_mode(0o755)).unwrap();
    let java = java_adder(dir.path());

    let mut failed = Vec::new();
    for (written, concrete, setup) in COMMANDS {
        let cmd = concrete.unwrap_or(written);
        let mut argv = words(cmd);
        assert_eq!(argv.remove(0), "ioco");
        let mut _sut = None;
        match setup {
            Setup::StandIn(example, txs_ports) => {
                let (child, ports) = stand_in(example, txs_ports.len());
                _sut = Some(child);
                if let Some(i) = argv.iter().position(|a| a == "7890=41234") {
                    argv[i] = format!("7890={}", ports[0]);
                } else {
                    let map: Vec<String> = txs_ports
                        .iter()
                        .zip(&ports)
                        .map(|(t, p)| format!("{t}={p}"))
                        .collect();
                    argv.extend(["--txs-ports".into(), map.join(",")]);
                }
            }
            Setup::JavaAdder if !java => continue,
            _ => {}
        }
        let against_sut = !matches!(setup, Setup::None);
        if argv[0] == "test" && against_sut {
            for (opt, v) in [("--runs", "2"), ("--steps", "10"), ("--timeout", "500")] {
                if !argv.iter().any(|a| a == opt) {
                    argv.extend([opt.to_string(), v.to_string()]);
                }
            }
        }
        let path = format!(
            "{}:{}",
            bins.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let (code, out) = outcome(
            ioco()
                .current_dir(dir.path())
                .env("PATH", path)
                .args(&argv)
                .write_stdin("")
                .timeout(std::time::Duration::from_secs(600)),
        );
        if code != 0 {
            failed.push(format!(
                "{written}\n  ran: ioco {}\n  exit {code}:\n{out}",
                argv.join(" ")
            ));
        } else if argv[0] == "test" {
            assert!(out.contains("PASS"), "{written}:\n{out}");
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
    // what `translate` wrote checks
    for f in ["queue.ioco", "Echo.ioco"] {
        assert!(dir.path().join(f).exists(), "{f} not written");
    }
}
