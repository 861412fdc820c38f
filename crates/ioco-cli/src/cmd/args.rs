//! The arguments of the commands that have an engine for models with data besides the
//! explicit one (`test`, `gen`, `run`): one file per command reads them for both engines, and
//! `purpose.rs` for test purposes.

use super::sut::{ReportArgs, SutArgs};
use super::PolicyArg;
use std::path::PathBuf;

/// `--strategy`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum StrategyArg {
    /// Observe or give an enabled input, uniformly.
    #[default]
    Uniform,
    /// By the weights of --weight.
    Weighted,
    /// Prefer transitions of the model not covered yet.
    Coverage,
}

/// Arguments of `ioco test`.
#[derive(clap::Args)]
pub struct TestArgs {
    /// The specification model.
    pub model: PathBuf,
    #[command(flatten)]
    pub sut: SutArgs,
    /// Number of runs.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub runs: usize,
    /// Steps (inputs and observations) per run.
    #[arg(long, visible_alias = "steps", value_name = "N", default_value_t = 50)]
    pub depth: usize,
    /// Master seed (default: from the clock; always printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// SUT instances in parallel.
    #[arg(long, short, value_name = "N", default_value_t = 1)]
    pub jobs: usize,
    /// Choice strategy.
    #[arg(long, value_enum, default_value_t = StrategyArg::Uniform)]
    pub strategy: StrategyArg,
    /// The probability of observing (waiting for an output or quiescence) where an input could
    /// be given, for both engines (uniform strategy; solver-chosen inputs with data).
    #[arg(long, value_name = "P", default_value_t = 0.5)]
    pub observe: f64,
    /// How the symbolic engine chooses input values: mixed (default: one of the others at
    /// random per input), random, small (-10..10), partition (sign; bounds and interior of a
    /// range), boundary (the guard's constants ± 1), growing, or model (the solver's witness).
    /// Every integer of every parameter and field gets a value; the seed fixes them all. Only
    /// for the symbolic engine (the explicit one enumerates the model's finitely many values).
    #[arg(long, value_name = "STRATEGY")]
    pub values: Option<ioco_symbolic::pick::Strategy>,
    /// The relation tested for: ioco, or uioco (the strategies give only inputs that extend a
    /// Utrace: no state the specification may be in leaves the input unspecified).
    #[arg(long, value_enum, default_value_t = super::RelationArg::Ioco)]
    pub relation: super::RelationArg,
    /// A weight for --strategy weighted: `coin?=3` or `δ=1` (observe); repeatable.
    #[arg(long, value_name = "LABEL=W")]
    pub weight: Vec<String>,
    /// Stop after this many seconds (runs in progress end with the verdict so far).
    #[arg(long, value_name = "SECS")]
    pub time_budget: Option<f64>,
    /// Go on after a failing run.
    #[arg(long)]
    pub keep_going: bool,
    /// Run only shard K of N (runs k with k mod N = K−1, each with the seed it has in the
    /// whole session): N machines with the same seed and --keep-going run exactly the runs of
    /// one; `ioco report A.json B.json … --json all.json` merges their results.
    /// `auto`: K and N from the CI job's variables (IOCO_SHARD_INDEX/IOCO_SHARD_TOTAL,
    /// GitLab's CI_NODE_INDEX/CI_NODE_TOTAL, Buildkite's BUILDKITE_PARALLEL_JOB/_COUNT,
    /// CircleCI's CIRCLE_NODE_INDEX/_TOTAL, a Kubernetes indexed Job's JOB_COMPLETION_INDEX
    /// with IOCO_SHARD_TOTAL).
    #[arg(long, value_name = "K/N|auto", value_parser = parse_shard)]
    pub shard: Option<ioco_exec::shard::Shard>,
    #[command(flatten)]
    pub shrinking: super::sut::ShrinkArgs,
    /// The engine: `explicit` (the model translated to an LTS; needs finite data: bounded
    /// types such as `int[0..10]`) or `symbolic` (Z3 over the .ioco model as it is, any data).
    /// Default: explicit for finite models, symbolic for .ioco models with infinite data (e.g.
    /// `int` parameters).
    #[arg(long, value_enum, value_name = "ENGINE")]
    pub engine: Option<super::EngineArg>,
    /// The same as `--engine symbolic`.
    #[arg(long, conflicts_with = "engine")]
    pub symbolic: bool,
    /// Steer the runs towards this test purpose (states named `accept…`/`refuse…`): Pass when
    /// accept is reached, Inconclusive when it no longer can be (see `cmd::purpose`).
    #[arg(long, value_name = "FILE")]
    pub purpose: Option<PathBuf>,
    #[command(flatten)]
    pub stg: StgArgs,
    #[command(flatten)]
    pub report: ReportArgs,
}

/// The abstract domain of the symbolic purpose analysis (seed 004 §4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DomainArg {
    /// Polyhedra with --forward-reach when the product is small (at most
    /// `ioco_stg::choice::AUTO_MAX_DIMS` dimensions and `AUTO_MAX_TRANSITIONS` transitions:
    /// 004 Figs. 4–5 as the paper computes them), octagons beyond.
    Auto,
    /// Boxes: one interval per variable (004 Fig. 6).
    Interval,
    /// Octagons: `±x ± y ≤ c` (keeps `p = x + 2` of the running example).
    Octagon,
    /// Convex polyhedra: any linear constraint, e.g. `p = y − x` (004 Fig. 4).
    Polyhedra,
}

/// The options of the symbolic purpose engine (`ioco-stg`), for a .ioco model with data.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct StgArgs {
    /// With --purpose on a model with data: the abstract domain of the coreachability
    /// analysis (seed 004 §4); `auto` chooses by the product's size.
    #[arg(long, value_enum, value_name = "DOMAIN", default_value_t = DomainArg::Auto)]
    pub domain: DomainArg,
    /// With --purpose on a model with data: simplify the test graph with a forward
    /// reachability analysis (seed 004 Fig. 4): transitions that never fire are deleted.
    #[arg(long)]
    pub forward_reach: bool,
}

/// Generation methods.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MethodArg {
    /// Random fail-fast, input-minimal tests (tutorial Alg. 1, uniform choices).
    Random,
    /// Batch tests (tutorial Alg. 1) steered to uncovered transitions.
    Batch,
    /// n-complete ioco suite T(S, n) (thesis Def. 2.37).
    NComplete,
    /// Access sequences + adaptive distinguishing graphs (thesis ch. 3).
    Adg,
    /// Chow's W method (Mealy machines).
    W,
    /// Wp method (Mealy machines).
    Wp,
    /// HSI method (Mealy machines).
    Hsi,
    /// H method (Mealy machines).
    H,
    /// Hybrid adaptive distinguishing sequences (Mealy machines).
    Hads,
    /// A winning strategy to reach `--goal` under `--assume` (thesis ch. 5).
    Reach,
    /// Fewest jokers, then fewest moves, to reach `--goal` (thesis ch. 6).
    Joker,
    /// A test case from a test purpose `--purpose FILE` (seed 004, TGV).
    Purpose,
    /// One test purpose per switch of a .ioco model with data (TAP19 Alg. 1; `--depth` bounds
    /// the symbolic execution graph); format ioco-sts-suite/1, run with `ioco run SUITE`.
    SwitchCoverage,
}

/// Arguments of `ioco gen`.
#[derive(clap::Args, Debug)]
pub struct GenArgs {
    /// The specification (.aut, .dot, .json, .ioco, .txs).
    pub model: PathBuf,
    /// How to generate (default with `--purpose`: purpose).
    #[arg(long, short, value_enum, required_unless_present = "purpose")]
    pub method: Option<MethodArg>,
    /// Write the suite here (default: standard output).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Number of tests (random, batch).
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub tests: usize,
    /// Maximal depth of a test in actions (random, batch).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub depth: usize,
    /// Seed (random, batch); printed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The bound n on implementation states (n-complete).
    #[arg(long, value_name = "N")]
    pub n: Option<usize>,
    /// Print the size estimate of T(S, n) and stop (n-complete).
    #[arg(long)]
    pub estimate: bool,
    /// Extra states k the implementation may have (w, wp, hsi, h, hads).
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub extra_states: usize,
    /// The goal: `state:NAME`, `label:NAME`, or several joined by `|` (reach, joker).
    #[arg(long)]
    pub goal: Option<String>,
    /// Test assumption: input-eager, output-eager, nondeterministic or input-fair (reach, joker).
    #[arg(long, default_value = "nondeterministic")]
    pub assume: String,
    /// Joker: minimise moves only inside each joker level, as the thesis' nested joker sets
    /// (Table 6.1) do; by default the fewest jokers, then the fewest moves over the whole game.
    #[arg(long)]
    pub per_level_moves: bool,
    /// Joker: prices of the system's help, `OUTPUT,SUCCESSOR` (each ≥ 1): choosing the output
    /// the tester asks for, and letting the tester's input win a race against the system's
    /// outputs; the joker count printed is then the least total price.
    #[arg(long, value_name = "OUTPUT,SUCCESSOR", value_parser = parse_prices)]
    pub joker_prices: Option<(u32, u32)>,
    /// Joker: decide whether the joker strategy is admissible (thesis Def. 6.36: no strategy
    /// wins against strictly more positional system strategies), exactly, for games small
    /// enough to enumerate; a dominated strategy is reported with one that dominates it.
    #[arg(long)]
    pub admissible: bool,
    /// The test purpose: an LTS whose states named `accept…`/`refuse…` mark accepting and
    /// refusing states (purpose).
    #[arg(long, value_name = "FILE")]
    pub purpose: Option<PathBuf>,
    /// With --purpose, the engine: `explicit` (a test case over the suspension automaton;
    /// needs finite data) or `symbolic` (the symbolic test graph, format `ioco-stg/1`; a .ioco
    /// model and purpose). Default: symbolic for .ioco models with infinite data.
    #[arg(long, value_enum, value_name = "ENGINE")]
    pub engine: Option<super::EngineArg>,
    #[command(flatten)]
    pub stg: StgArgs,
    /// The relation the suite tests for: ioco, or uioco (the methods built on the suspension
    /// automaton; not random and batch).
    #[arg(long, value_enum, default_value_t = super::RelationArg::Ioco)]
    pub relation: super::RelationArg,
    /// Quiescence policy of the specification.
    #[arg(long, value_enum, default_value_t = PolicyArg::Stable)]
    pub policy: PolicyArg,
    #[command(flatten)]
    pub budgets: super::Budgets,
}

/// Arguments of `ioco run`.
#[derive(clap::Args)]
pub struct RunArgs {
    /// The specification model (for the labels, coverage and the exit rule); a
    /// switch-coverage suite (ioco-sts-suite/1) may come alone: it names its model.
    pub model: PathBuf,
    /// The test suite (JSON, format ioco-suite/1 or ioco-sts-suite/1).
    pub suite: Option<PathBuf>,
    #[command(flatten)]
    pub sut: SutArgs,
    /// Run each test at least N times (until it fails), to see rare nondeterministic outputs;
    /// the budget of tries becomes at least N.
    #[arg(long, value_name = "N")]
    pub repetitions: Option<usize>,
    /// A test the implementation did not follow (or that has branches not seen yet) is run
    /// again until a branch never seen is absent with this confidence: together with
    /// --min-branch-probability p it gives the budget k = ⌈ln(1−c)/ln(1−p)⌉ tries per test.
    #[arg(long, value_name = "C", default_value_t = 0.95)]
    pub confidence: f64,
    /// The fairness assumption: each output the implementation can give after a trace comes
    /// with at least this probability.
    #[arg(long, value_name = "P", default_value_t = 0.25)]
    pub min_branch_probability: f64,
    /// SUT instances in parallel.
    #[arg(long, short, value_name = "N", default_value_t = 1)]
    pub jobs: usize,
    /// Seed (for the simulator, the repetitions and the values of a switch-coverage suite;
    /// default: from the clock; always printed), as for `ioco test`.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Go on after a failing test.
    #[arg(long)]
    pub keep_going: bool,
    /// Run only shard K of N of the suite's tests (tests k with k mod N = K−1); `ioco report
    /// A.json B.json … --json all.json` merges the shards' results. The fairness rule counts
    /// its evidence over the shard.
    /// `auto`: K and N from the CI job's variables (IOCO_SHARD_INDEX/IOCO_SHARD_TOTAL,
    /// GitLab's CI_NODE_INDEX/CI_NODE_TOTAL, Buildkite's BUILDKITE_PARALLEL_JOB/_COUNT,
    /// CircleCI's CIRCLE_NODE_INDEX/_TOTAL, a Kubernetes indexed Job's JOB_COMPLETION_INDEX
    /// with IOCO_SHARD_TOTAL).
    #[arg(long, value_name = "K/N|auto", value_parser = parse_shard)]
    pub shard: Option<ioco_exec::shard::Shard>,
    #[command(flatten)]
    pub report: ReportArgs,
}

/// `--shard K/N`, or `--shard auto`: from the CI job's variables (said on standard error).
fn parse_shard(s: &str) -> Result<ioco_exec::shard::Shard, String> {
    if s.trim() == "auto" {
        let (shard, from) = ioco_exec::shard::Shard::from_ci(|k| std::env::var(k).ok())?;
        errln!("ioco: --shard auto: shard {shard}, from {from}");
        return Ok(shard);
    }
    ioco_exec::shard::Shard::parse(s)
}

/// `OUTPUT,SUCCESSOR`, both ≥ 1.
fn parse_prices(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("`{s}`: expected two prices OUTPUT,SUCCESSOR, each a whole number ≥ 1");
    let (a, b) = s.split_once(',').ok_or_else(bad)?;
    let a: u32 = a.trim().parse().map_err(|_| bad())?;
    let b: u32 = b.trim().parse().map_err(|_| bad())?;
    if a == 0 || b == 0 || a > 1_000_000 || b > 1_000_000 {
        return Err(bad());
    }
    Ok((a, b))
}
