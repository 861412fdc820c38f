//! Soundness property (tutorial Thm. 8.1): online testing never fails an implementation that
//! conforms. Specifications are random small LTSs (with τ, nondeterminism, not input-enabled);
//! implementations are
//! * the angelic completion of det(δ(spec)) (tutorial Lemma A.1: always conforming), and
//! * random variants of the specification (transitions dropped or added, angelically completed)
//!   that `ioco_model::compare` finds conforming,
//!
//! each run through the simulator with random output choices and races. Also: the same seed
//! gives the same traces, and the non-conforming variants that do get a Fail are failed with an
//! observation outside out(σ) of the specification (checked independently).

use ioco_exec::{parse_trace, run_online, OnlineOptions, RunVerdict, Summary, SutError};
use ioco_gen::StrategySpec;
use ioco_model::{
    compare, Alphabet, CompareOptions, Label, Lts, LtsBuilder, QuiescencePolicy, Suspension,
    SuspensionAutomaton,
};
use ioco_sut::sim::SimOptions;
use ioco_sut::Sut;
use proptest::prelude::*;

/// (source, label index 0..=4 where 0 = τ, 1,2 inputs a,b, 3,4 outputs x,y, target)
type RawEdge = (usize, usize, usize);

fn build(n: usize, edges: &[RawEdge]) -> Lts {
    build_with(n, edges, false)
}

/// [`build`], with τ-edges in every direction when `cycles` (τ-loops and τ-cycles: divergence).
fn build_with(n: usize, edges: &[RawEdge], cycles: bool) -> Lts {
    let mut al = Alphabet::new();
    let a = al.input("a").unwrap();
    let b = al.input("b").unwrap();
    let x = al.output("x").unwrap();
    let y = al.output("y").unwrap();
    let labels = [Label::TAU, a, b, x, y];
    let mut bl = LtsBuilder::new(al);
    bl.add_states(n);
    bl.add_initial(0);
    for &(s, l, t) in edges {
        let (s, t) = (s % n, t % n);
        if l == 0 && s >= t && !cycles {
            continue; // τ only forward: no divergence
        }
        bl.add_transition(s as u32, labels[l], t as u32);
    }
    bl.build().unwrap()
}

fn spec_strategy() -> impl Strategy<Value = (usize, Vec<RawEdge>)> {
    (1usize..6).prop_flat_map(|n| {
        (
            Just(n),
            prop::collection::vec((0..n, 0usize..5, 0..n), 1..14),
        )
    })
}

fn sim_factory(
    imp: Lts,
    spec: &Lts,
) -> impl Fn(usize) -> Result<Box<dyn Sut + Send>, SutError> + Sync {
    ioco_sut::sim::factory(
        imp,
        spec.alphabet(),
        SimOptions {
            race: 0.3,
            ..SimOptions::default()
        },
    )
}

fn opts(seed: u64, strategy: StrategySpec) -> OnlineOptions {
    OnlineOptions {
        runs: 25,
        depth: 12,
        seed,
        strategy,
        stop_on_failure: true,
        ..OnlineOptions::default()
    }
}

/// Every Fail is a real one: the trace before the last observation is a suspension trace of
/// the specification and the last observation is not allowed after it.
fn check_failures_are_real(spec: &Lts, s: &Summary) {
    for r in s.runs.iter().filter(|r| r.verdict == RunVerdict::Fail) {
        let trace = parse_trace(spec, &r.trace).unwrap();
        let (last, prefix) = trace.split_last().unwrap();
        let mut sus = Suspension::new(spec, QuiescencePolicy::Stable);
        let q = sus.run(prefix).expect("the prefix is a suspension trace");
        assert!(sus.step(q, *last).is_none(), "{:?}", r.trace);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn determinised_angelic_completion_never_fails(
        (n, edges) in spec_strategy(),
        seed in any::<u64>(),
        which in 0usize..3,
    ) {
        let spec = build(n, &edges);
        let imp = SuspensionAutomaton::build(&spec, QuiescencePolicy::Stable)
            .lts
            .angelic_completion();
        let strategy = [StrategySpec::Uniform, StrategySpec::Coverage,
            StrategySpec::Weighted(vec![("a?".into(), 2.0)])][which].clone();
        let s = run_online(&spec, &opts(seed, strategy.clone()), sim_factory(imp.clone(), &spec)).unwrap();
        prop_assert_eq!(s.verdict, RunVerdict::Pass, "{:?}", s.first_failure());
        // same seed, same traces
        let again = run_online(&spec, &opts(seed, strategy), sim_factory(imp, &spec)).unwrap();
        let t1: Vec<_> = s.runs.iter().map(|r| &r.trace).collect();
        let t2: Vec<_> = again.runs.iter().map(|r| &r.trace).collect();
        prop_assert_eq!(t1, t2);
    }

    #[test]
    fn conforming_variants_never_fail(
        (n, edges) in spec_strategy(),
        drop_mask in any::<u16>(),
        extra in prop::collection::vec((0usize..6, 0usize..5, 0usize..6), 0..3),
        seed in any::<u64>(),
    ) {
        let spec = build(n, &edges);
        let mut variant: Vec<RawEdge> = edges
            .iter()
            .enumerate()
            .filter(|(i, _)| drop_mask >> (i % 16) & 1 == 0)
            .map(|(_, e)| *e)
            .collect();
        variant.extend(extra);
        let imp = build(n, &variant).angelic_completion();
        let cmp = compare(&imp, &spec, &CompareOptions::default()).unwrap();
        let s = run_online(&spec, &opts(seed, StrategySpec::Uniform), sim_factory(imp, &spec)).unwrap();
        if cmp.conforms() {
            prop_assert_eq!(s.verdict, RunVerdict::Pass, "{:?}", s.first_failure());
        } else {
            check_failures_are_real(&spec, &s);
        }
    }
}

/// A variant of the spec (edges dropped by `drop_mask`, `extra` added), with τ-cycles,
/// strictly completed or left as it is (`complete`), tested against the spec simulated:
/// `compare` and testing agree. A conforming implementation never fails; every Fail is
/// justified by both models (the trace is a suspension trace of the implementation as
/// `compare` completes it, its prefix one of the specification, the last observation not
/// allowed by the specification).
fn compare_and_the_simulator_agree(
    (n, edges): (usize, Vec<RawEdge>),
    drop_mask: u16,
    extra: Vec<RawEdge>,
    seed: u64,
    complete: bool,
) -> Result<(), TestCaseError> {
    let spec = build_with(n, &edges, true);
    let mut variant: Vec<RawEdge> = edges
        .iter()
        .enumerate()
        .filter(|(i, _)| drop_mask >> (i % 16) & 1 == 0)
        .map(|(_, e)| *e)
        .collect();
    variant.extend(extra);
    let mut imp = build_with(n, &variant, true);
    if complete {
        imp = imp.angelic_completion();
    }
    let cmp = compare(&imp, &spec, &CompareOptions::default()).unwrap();
    let s = run_online(
        &spec,
        &opts(seed, StrategySpec::Uniform),
        sim_factory(imp.clone(), &spec),
    )
    .unwrap();
    if cmp.conforms() {
        prop_assert_eq!(s.verdict, RunVerdict::Pass, "{:?}", s.first_failure());
    }
    check_failures_are_real(&spec, &s);
    let completed = imp.weak_angelic_completion();
    for r in s.runs.iter().filter(|r| r.verdict == RunVerdict::Fail) {
        let trace = parse_trace(&spec, &r.trace).unwrap();
        let names: Vec<String> = trace.iter().map(|&l| spec.alphabet().display(l)).collect();
        let names: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
        let in_imp = parse_trace(&completed, &names).unwrap();
        let mut sus = Suspension::new(&completed, QuiescencePolicy::Stable);
        prop_assert!(
            sus.run(&in_imp).is_some(),
            "not a trace of the implementation: {:?}",
            r.trace
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// With τ-cycles (divergence, issue #13 item 1), implementations completed strictly.
    #[test]
    fn with_tau_cycles_compare_and_the_simulator_agree(
        spec in spec_strategy(),
        drop_mask in any::<u16>(),
        extra in prop::collection::vec((0usize..6, 0usize..5, 0usize..6), 0..4),
        seed in any::<u64>(),
    ) {
        compare_and_the_simulator_agree(spec, drop_mask, extra, seed, true)?;
    }

    /// Implementations left as they are, with τ-cycles and inputs that some states take only
    /// after internal steps (input-enabled only weakly, tutorial Def. 4.3): `compare` completes
    /// them where an input is not enabled even after internal steps, the simulator takes those
    /// steps before such an input, and the two agree.
    #[test]
    fn weakly_input_enabled_implementations_compare_and_the_simulator_agree(
        spec in spec_strategy(),
        drop_mask in any::<u16>(),
        extra in prop::collection::vec((0usize..6, 0usize..5, 0usize..6), 0..4),
        seed in any::<u64>(),
    ) {
        compare_and_the_simulator_agree(spec, drop_mask, extra, seed, false)?;
    }
}

/// The other side: online testing does catch most non-conforming variants (completeness in the
/// limit, tutorial P1:L525), and each of its Fails is real.
#[test]
fn non_conforming_variants_are_mostly_caught() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let (mut wrong, mut caught) = (0, 0);
    for round in 0..300u64 {
        let n = rng.random_range(1..6);
        let edges: Vec<RawEdge> = (0..rng.random_range(1..14))
            .map(|_| {
                (
                    rng.random_range(0..n),
                    rng.random_range(0..5),
                    rng.random_range(0..n),
                )
            })
            .collect();
        let spec = build(n, &edges);
        let mut variant: Vec<RawEdge> = edges
            .iter()
            .copied()
            .filter(|_| rng.random_bool(0.8))
            .collect();
        variant.push((
            rng.random_range(0..n),
            rng.random_range(3..5),
            rng.random_range(0..n),
        ));
        let imp = build(n, &variant).angelic_completion();
        if compare(&imp, &spec, &CompareOptions::default())
            .unwrap()
            .conforms()
        {
            continue;
        }
        wrong += 1;
        let o = OnlineOptions {
            runs: 40,
            depth: 12,
            seed: round,
            ..OnlineOptions::default()
        };
        let s = run_online(&spec, &o, sim_factory(imp, &spec)).unwrap();
        check_failures_are_real(&spec, &s);
        if s.verdict == RunVerdict::Fail {
            caught += 1;
        }
    }
    eprintln!("non-conforming variants: {wrong}, caught: {caught}");
    assert!(
        wrong >= 50,
        "too few non-conforming variants ({wrong}) to say anything"
    );
    assert!(caught * 10 >= wrong * 9, "caught only {caught} of {wrong}");
}
