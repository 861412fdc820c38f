//! A short seeded fuzzing pass over the bundled examples and the shared corpus, in CI: no
//! panic (miette rendering included), no abort, no execution over 5 s. The long run is
//! `cargo run --release -p ioco-fuzz -- --execs 1000000` (RELIABILITY.md).

use std::path::PathBuf;
use std::time::Duration;

#[test]
fn a_short_seeded_pass_finds_no_panic_and_no_time_out() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut dirs = vec![root.join("examples")];
    // without the corpus, the examples only: that part is recorded as skipped (a failure under
    // IOCO_NO_SKIP=1)
    dirs.extend(ioco_testkit::corpus_part("its corpus seeds"));
    let seeds = ioco_fuzz::seeds(&dirs);
    assert!(seeds.len() > 20, "{} seeds", seeds.len());
    let r = ioco_fuzz::run(&seeds, 20261124, 3_000, Duration::from_secs(240));
    assert!(r.execs >= 300, "only {} executions", r.execs);
    if let Some((name, msg, input)) = r.panics.first() {
        panic!("panic on a mutation of {name}: {msg}\n---\n{input}");
    }
    assert!(
        r.slow.is_empty(),
        "{:?}",
        r.slow.first().map(|s| (&s.0, s.1))
    );
}
