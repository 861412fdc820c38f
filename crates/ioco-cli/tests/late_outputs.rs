//! Late outputs over real processes (issue #30 item 1): δ is recorded only when quiescence is
//! established (the marker, or a whole time-out without output), also where the specification
//! allows only δ; an input is given only once the system has settled; a run that ends after an
//! input lets that reaction settle. So an output that comes late, within the time-out, is
//! judged in the state it belongs to:
//! * a coffee machine that brews 0.1 s after `water?` (only δ allowed there) fails for every
//!   seed, in both engines, with and without a marker, and no trace holds `water? δ`;
//! * a system that answers every stimulus twice (50 ms and 600 ms later) fails;
//! * properties over random models played by a real child process with random output delays
//!   (`sim-sut`): conforming implementations (τ-cycles, nondeterminism) never fail, and an
//!   output added where the specification allows only δ, delayed, is always a Fail where it
//!   is reached, with no δ before it.
//!
//! Each in three ways: with a quiescence marker, by observing the process, by whole time-outs.
//! The delays are far inside the time-outs (a loaded machine cannot turn them into δ).

mod common;
use common::{example_bin, ioco, write};
use std::path::Path;

const LATEOUT: &str = "crates/ioco-cli/tests/suts/lateout.py";
const TWICE: &str = "crates/ioco-cli/tests/suts/twice.py";

/// The runs of a `--json` result: (verdict, trace).
fn runs(path: &Path) -> Vec<(String, Vec<String>)> {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let trace = r["trace"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect();
            (r["verdict"].as_str().unwrap().to_string(), trace)
        })
        .collect()
}

/// How quiescence is established in a test.
#[derive(Copy, Clone, Debug, PartialEq)]
enum How {
    /// The system prints `#quiet`.
    Marker,
    /// `--quiescence process`: observing the process.
    Process,
    /// `--quiescence timeout`: whole time-outs only.
    Timeout,
}

impl How {
    /// For case `k`: the marker and the process in turn, whole time-outs once in six (each
    /// input there waits a whole second).
    fn nth(k: u64) -> How {
        [
            How::Timeout,
            How::Marker,
            How::Process,
            How::Marker,
            How::Process,
            How::Process,
        ][(k % 6) as usize]
    }

    /// Adds the options, and `--ack` to the system's command line for the marker.
    fn apply(self, args: &mut Vec<String>, sut: &mut String) {
        match self {
            How::Marker => {
                sut.push_str(" --ack");
                args.extend(["--quiescence-marker".into(), "#quiet".into()]);
            }
            How::Process => args.extend(["--quiescence".into(), "process".into()]),
            How::Timeout => args.extend(["--quiescence".into(), "timeout".into()]),
        }
    }
}

/// The brewing-too-early machine against `model`, for seeds 1..=`seeds`: a run that gives
/// `water?` fails with `coffee!` right after it; no trace holds `water? δ`.
fn coffee_too_early(model: &str, engine: &str, how: How, seeds: u64) {
    let dir = tempfile::tempdir().unwrap();
    let mut failed = 0;
    for seed in 1..=seeds {
        let json = dir.path().join(format!("r{seed}.json"));
        let mut sut = format!("python3 {LATEOUT} 0.1");
        let mut args: Vec<String> = vec![
            "test".into(),
            model.into(),
            "--engine".into(),
            engine.into(),
            "--runs".into(),
            "1".into(),
            "--steps".into(),
            "8".into(),
            "--seed".into(),
            seed.to_string(),
            "--json".into(),
            json.display().to_string(),
        ];
        how.apply(&mut args, &mut sut);
        args.extend(["--sut".into(), sut]);
        let out = ioco().args(&args).output().unwrap();
        let code = out.status.code();
        let rs = runs(&json);
        let stdout = String::from_utf8_lossy(&out.stdout);
        for (verdict, trace) in &rs {
            let text = trace.join(" ");
            assert!(
                !text.contains("water? δ"),
                "seed {seed}: δ recorded while coffee was on its way: {text}"
            );
            if text.contains("water?") {
                assert_eq!(verdict, "fail", "seed {seed}: {text}\n{stdout}");
                let at = trace.iter().position(|l| l == "water?").unwrap();
                assert_eq!(
                    trace.get(at + 1).map(String::as_str),
                    Some("coffee!"),
                    "{text}"
                );
            }
            if verdict == "fail" {
                failed += 1;
                assert_eq!(code, Some(1), "{stdout}");
            }
        }
    }
    assert!(
        failed * 2 >= seeds,
        "most seeds give water? and fail: {failed}"
    );
}

#[test]
fn brewing_too_early_fails_explicit() {
    coffee_too_early("examples/models/coffee.aut", "explicit", How::Marker, 12);
    coffee_too_early("examples/models/coffee.aut", "explicit", How::Process, 12);
    coffee_too_early("examples/models/coffee.aut", "explicit", How::Timeout, 2);
}

#[test]
fn brewing_too_early_fails_symbolic() {
    coffee_too_early("examples/coffee/coffee.ioco", "symbolic", How::Marker, 12);
    coffee_too_early("examples/coffee/coffee.ioco", "symbolic", How::Process, 12);
    coffee_too_early("examples/coffee/coffee.ioco", "symbolic", How::Timeout, 2);
}

const STIMULUS: &str = "des (0, 2, 2)\n(0, \"Stimulus?\", 1)\n(1, \"Response!\", 0)\n";

/// Every stimulus answered twice, 50 ms and 600 ms later: the second answer is within the
/// 2 s time-out, so it is a Fail (it used to pass 10 runs of 10).
#[test]
fn a_second_answer_within_the_time_out_fails() {
    let dir = tempfile::tempdir().unwrap();
    let spec = write(dir.path(), "sr.aut", STIMULUS);
    for how in [How::Marker, How::Process, How::Timeout] {
        let mut args = vec![
            "test".to_string(),
            spec.display().to_string(),
            "--timeout".into(),
            "2000".into(),
            "--runs".into(),
            "10".into(),
            "--steps".into(),
            "10".into(),
            "--seed".into(),
            "3".into(),
        ];
        let mut sut = format!("python3 {TWICE} 0.05 0.6");
        how.apply(&mut args, &mut sut);
        args.extend(["--sut".into(), sut]);
        let out = ioco().args(&args).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{how:?}: {stdout}");
        assert!(stdout.contains("Stimulus? Response! Response!"), "{stdout}");
    }
}

/// A tiny deterministic generator (xorshift), so that each case is reproducible from its seed.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const LABELS: [&str; 5] = ["tau", "a?", "b?", "x!", "y!"];

/// A random LTS in `.aut`: `n` states, edges (source, label index of [`LABELS`], target).
fn aut(n: usize, edges: &[(usize, usize, usize)]) -> String {
    let mut s = format!("des (0, {}, {n})\n", edges.len());
    for &(a, l, b) in edges {
        s.push_str(&format!("({a}, \"{}\", {b})\n", LABELS[l]));
    }
    s
}

/// Random edges; outputs only go forward (to a higher state), so that no reaction is endless
/// (τ-cycles stay: divergence).
fn random_edges(g: &mut Gen, n: usize, count: usize) -> Vec<(usize, usize, usize)> {
    (0..count)
        .map(|_| (g.below(n), g.below(5), g.below(n)))
        .filter(|&(s, l, t)| l < 3 || s < t)
        .collect()
}

/// Conforming implementations of random specifications (τ-cycles, nondeterminism; `ioco
/// compare` decides conformance), played by a real child process whose outputs come after
/// random delays of up to 250 ms, never fail: with a 1 s time-out, and with a marker.
#[test]
fn conforming_implementations_with_late_outputs_never_fail() {
    let sim = example_bin("sim-sut");
    let dir = tempfile::tempdir().unwrap();
    let (mut tried, mut conforming) = (0, 0);
    for case in 0u64..40 {
        if conforming >= 12 {
            break;
        }
        let mut g = Gen(0x9e37_79b9_7f4a_7c15 ^ (case + 1).wrapping_mul(0x1000_0001));
        let n = 1 + g.below(4);
        let count = 2 + g.below(8);
        let edges = random_edges(&mut g, n, count);
        let mut variant: Vec<_> = edges.iter().copied().filter(|_| g.below(4) != 0).collect();
        if g.below(2) == 0 {
            variant.extend(random_edges(&mut g, n, 1));
        }
        let spec = write(dir.path(), &format!("s{case}.aut"), &aut(n, &edges));
        let imp = write(dir.path(), &format!("i{case}.aut"), &aut(n, &variant));
        let cmp = ioco()
            .args(["compare", &spec.display().to_string()])
            .arg(imp.display().to_string())
            .output()
            .unwrap();
        tried += 1;
        if cmp.status.code() != Some(0) {
            continue;
        }
        let how = How::nth(conforming);
        conforming += 1;
        let mut sut = format!("{sim} {} --seed {case} --delay-max 250", imp.display());
        let mut args = vec![
            "test".to_string(),
            spec.display().to_string(),
            "--runs".into(),
            "2".into(),
            "--steps".into(),
            "8".into(),
            "--seed".into(),
            case.to_string(),
            "--timeout".into(),
            "1000".into(),
        ];
        how.apply(&mut args, &mut sut);
        args.extend(["--sut".into(), sut]);
        let out = ioco().args(&args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "case {case} ({how:?}): a conforming implementation failed\nspec:\n{}\nimpl:\n{}\n{}",
            aut(n, &edges),
            aut(n, &variant),
            String::from_utf8_lossy(&out.stdout)
        );
    }
    assert!(conforming >= 4, "{conforming} conforming of {tried}");
}

/// A deterministic specification without τ; the implementation adds `x!` (delayed 30-300 ms,
/// to a new state) at a state where the specification allows only δ. Every run that reaches that state fails
/// with `x!` right there (no δ before it); the runs that pass never reach it.
#[test]
fn an_output_added_where_only_quiescence_is_allowed_always_fails() {
    let sim = example_bin("sim-sut");
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for case in 0u64..60 {
        if checked >= 12 {
            break;
        }
        let mut g = Gen(0x2545_f491_4f6c_dd1d ^ (case + 7).wrapping_mul(0x3000_0003));
        let n = 2 + g.below(3);
        // deterministic, no τ: at most one edge per (state, label); outputs go forward
        let mut edges = Vec::new();
        for s in 0..n {
            for l in 1..5 {
                let t = g.below(n);
                if g.below(3) == 0 && (l < 3 || s < t) {
                    edges.push((s, l, t));
                }
            }
        }
        // states with no output: only δ allowed there
        let quiet: Vec<usize> = (0..n)
            .filter(|&s| !edges.iter().any(|&(a, l, _)| a == s && l >= 3))
            .collect();
        // the target: a quiet state other than the initial one, reachable by inputs and outputs
        let reach = reachable(n, &edges);
        let Some(&target) = quiet.iter().find(|&&s| s != 0 && reach[s]) else {
            continue;
        };
        let how = How::nth(checked);
        checked += 1;
        // to a new state without edges, so that no reaction is endless
        let mut imp = edges.clone();
        imp.push((target, 3, n));
        let spec = write(dir.path(), &format!("s{case}.aut"), &aut(n, &edges));
        let impl_path = write(dir.path(), &format!("i{case}.aut"), &aut(n + 1, &imp));
        let json = dir.path().join(format!("r{case}.json"));
        let mut sut = format!(
            "{sim} {} --seed {case} --delay-min 30 --delay-max 300",
            impl_path.display()
        );
        let mut args = vec![
            "test".to_string(),
            spec.display().to_string(),
            "--runs".into(),
            "3".into(),
            "--steps".into(),
            "10".into(),
            "--seed".into(),
            case.to_string(),
            "--timeout".into(),
            "1000".into(),
            "--keep-going".into(),
            "--json".into(),
            json.display().to_string(),
        ];
        how.apply(&mut args, &mut sut);
        args.extend(["--sut".into(), sut]);
        let out = ioco().args(&args).output().unwrap();
        for (verdict, trace) in runs(&json) {
            // walk the deterministic specification
            let mut s = 0;
            let mut reached = None;
            for (i, step) in trace.iter().enumerate() {
                if s == target && reached.is_none() {
                    reached = Some(i);
                }
                if step == "δ" {
                    continue;
                }
                match edges
                    .iter()
                    .find(|&&(a, l, _)| a == s && LABELS[l] == step.as_str())
                {
                    Some(&(_, _, t)) => s = t,
                    None => break,
                }
            }
            // reached only by the last output, read after the step bound as the run ended
            // (one look lets the last reaction settle): the run may end there
            let _ = s;
            let text = trace.join(" ");
            match reached {
                Some(i) => {
                    assert_eq!(
                        verdict,
                        "fail",
                        "case {case} ({how:?}): reached {target} at step {i} and passed: \
                         {text}\nspec:\n{}\n{}",
                        aut(n, &edges),
                        String::from_utf8_lossy(&out.stdout)
                    );
                    assert_eq!(
                        trace.get(i).map(String::as_str),
                        Some("x!"),
                        "case {case}: not x! where it came: {text}"
                    );
                }
                None => assert_ne!(verdict, "fail", "case {case}: {text}"),
            }
        }
    }
    assert!(
        checked >= 4,
        "only {checked} specifications had a quiet state"
    );
}

/// Which states are reachable from 0 (by any edge).
fn reachable(n: usize, edges: &[(usize, usize, usize)]) -> Vec<bool> {
    let mut seen = vec![false; n];
    seen[0] = true;
    let mut stack = vec![0];
    while let Some(s) = stack.pop() {
        for &(a, _, b) in edges {
            if a == s && !seen[b] {
                seen[b] = true;
                stack.push(b);
            }
        }
    }
    seen
}
