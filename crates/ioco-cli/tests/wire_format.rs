//! One wire format for both engines (issue #12 item 4): a label of a `.ioco` data model is its
//! gate and values on the wire (`In 5`, `{"label":"In","args":[5]}`), whichever engine tests
//! it. Before, the explicit engine wrote and expected `In(5)` and the symbolic one `In 5`, so one
//! SUT passed one engine and failed the other.

mod common;
use common::{ioco, write};

const ECHO: &str = "examples/torxakis/echo.ioco"; // EchoDigits: In(x: int[0..9]), Out(x)

const SUT: &str = r#"import sys, json
mode, bug = sys.argv[1], len(sys.argv) > 2
for line in sys.stdin:
    if mode == "json":
        x = json.loads(line)["args"][0]
        print(json.dumps({"label": "Out", "args": [(x + 1) % 10 if bug else x]}), flush=True)
    else:
        gate, x = line.split()
        print("Out", (int(x) + 1) % 10 if bug else int(x), flush=True)
"#;

#[test]
fn the_same_program_passes_both_engines_in_both_formats_and_a_faulty_one_fails_both() {
    let dir = tempfile::tempdir().unwrap();
    let py = write(dir.path(), "echo.py", SUT);
    for engine in ["explicit", "symbolic"] {
        for (mode, flag) in [("lines", None), ("json", Some("--json-lines"))] {
            for (bug, code) in [("", 0), (" bug", 1)] {
                let sut = format!("python3 {} {mode}{bug}", py.display());
                let mut cmd = ioco();
                cmd.args(["test", ECHO, "--engine", engine, "--sut", &sut])
                    .args(["--runs", "3", "--steps", "8", "--seed", "4"]);
                if let Some(f) = flag {
                    cmd.arg(f);
                }
                let out = cmd
                    .timeout(std::time::Duration::from_secs(300))
                    .output()
                    .unwrap();
                assert_eq!(
                    out.status.code(),
                    Some(code),
                    "{engine} {mode}{bug}: {}",
                    String::from_utf8_lossy(&out.stdout)
                );
            }
        }
    }
}
