//! `ioco test MODEL --purpose PURPOSE --sut ...`: online testing steered towards a test
//! purpose (seed 004 §2 and §5: the product S × TP, coreachability of accept, Pass /
//! Inconclusive / Fail), and the purpose loading shared with `ioco gen --purpose`.
//!
//! The purpose is a model (`.ioco`, `.aut`, ...) whose states named `accept…` are the accept
//! sinks and `refuse…` the refuse sinks; a label a state does not mention leaves it where it
//! is. The engine is [`ioco_games::PurposeProduct`]: at every step it advises an input that
//! keeps accept reachable (fewest cooperations of the system, then fewest moves: the joker
//! strategy of the product, whose joker region is exactly coreach(accept)), or to wait; the
//! runs are `ioco_exec::purpose::run_purpose`. A TorXakis GOAL without HIT has no accept: it
//! restricts the test ([`ioco_games::Restricted`]: inputs among the goal's, an output it does
//! not offer is Inconclusive, Pass at the step bound). This module loads the models and
//! reports:
//! * **Pass**: the trace reached an accept state of the purpose;
//! * **Inconclusive**: a refuse state was reached, the purpose can no longer be accepted, or
//!   the step bound `--depth` was used up before accept;
//! * **Fail**: an output (or quiescence) the specification does not allow; a SUT that exits
//!   where the specification requires an output or still offers inputs (the rule of
//!   `ioco_exec::tester`).
//!
//! A specification **with data** (what `cmd::test` sends to the symbolic engine: `int`
//! parameters or variables) goes to the symbolic purpose engine `ioco-stg` (seed 004 Table 3):
//! the product of the two models, coreach(accept) over-approximated in the domain of
//! `--domain` (intervals, octagons by default, or convex polyhedra; `--forward-reach` adds the
//! forward simplification of 004 Fig. 4), guards strengthened, inputs chosen inside them
//! online, conformance judged by `ioco-symbolic`.
//! `ioco gen` then writes the symbolic test graph (`ioco-stg/1` JSON) instead of a suite.

use super::args::StgArgs;
use super::args::TestArgs as Args;
use super::sut::seed_or_clock;
use super::Outcome;
use crate::load::Loader;
use ioco_exec::{RunResult, RunVerdict, Summary};
use ioco_games::{Purpose, PurposeOptions, PurposeProduct, Restricted, Restriction};
use ioco_model::{Lts, QuiescencePolicy, SuspensionAutomaton};
use miette::{miette, Result};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Load a test purpose (any model format; `.ioco` included).
pub fn load_purpose(path: &Path, ld: &Loader) -> Result<Purpose> {
    purpose_of(ld.purpose_lts(path)?, path)
}

/// The purpose of the automaton read from `path`.
fn purpose_of(lts: Lts, path: &Path) -> Result<Purpose> {
    Purpose::from_lts(lts).map_err(|e| {
        if crate::load::is_txs(path) {
            // in TorXakis's terms: a GOAL is met at its HIT
            miette!(
                help = "a GOAL is met where it reaches `HIT`: give it a `>-> HIT` there; a \
                        GOAL without HIT only restricts the test, which `ioco test` runs \
                        (a test case or a picture of the product needs a HIT)",
                "{}: the GOAL has no HIT: {e}",
                path.display()
            )
        } else {
            miette!(
                help = "name the accepting states (locations) `accept…` and the refusing ones \
                        `refuse…`; labels a state does not mention leave it where it is",
                "{}: {e}",
                path.display()
            )
        }
    })
}

/// True when a state of the purpose automaton is named `accept…`.
fn has_accept(lts: &Lts) -> bool {
    lts.state_names()
        .is_some_and(|names| names.iter().any(|n| n.starts_with("accept")))
}

/// A product that cannot be built, with a hint.
fn product_error(e: ioco_games::PurposeError, purpose_path: &Path) -> miette::Report {
    miette!(
        help = "check that the purpose's labels are the specification's and that an \
                accept state can follow a trace of the specification",
        "{}: {e}",
        purpose_path.display()
    )
}

/// Run `ioco test MODEL --purpose FILE`.
pub fn run_test(args: Args, purpose_path: &Path, ld: &Loader) -> Result<Outcome> {
    let engine = super::EngineArg::pick(args.engine, args.symbolic);
    if let Some((spec, _)) = ld.engine_spec(&args.model, engine)? {
        return run_symbolic(args, purpose_path, spec, ld);
    }
    let spec = ld.load_lts(&args.model)?;
    let policy: QuiescencePolicy = args.sut.policy.into();
    let plts = ld.purpose_lts(purpose_path)?;
    if crate::load::is_txs(purpose_path) && !has_accept(&plts) {
        // a TorXakis GOAL without HIT restricts the test to the inputs it offers
        let r = Restriction::new(spec.alphabet(), &plts).map_err(|e| {
            miette!(
                help = "a GOAL synchronises with the MODELDEF on the channels they share: \
                        give it the MODELDEF's channels, in the same directions",
                "{}: {e}",
                purpose_path.display()
            )
        })?;
        let header = format!(
            "purpose {} (a GOAL without HIT: the test restricted to its inputs; {} goal states)",
            purpose_path.display(),
            r.num_states()
        );
        let observe = args.observe;
        let steer = || Restricted::new(&r, observe);
        let strategy = "purpose: a GOAL without HIT restricts the test (inputs among the \
                        goal's, an output it does not offer is Inconclusive, Pass at the step \
                        bound inside it)";
        return run_explicit(
            &args,
            purpose_path,
            &spec,
            steer,
            &header,
            strategy,
            None,
            ld,
        );
    }
    let purpose = purpose_of(plts, purpose_path)?;
    let sa = SuspensionAutomaton::build(&spec, policy).lts;
    let prod = PurposeProduct::build(&sa, &purpose, &PurposeOptions::default())
        .map_err(|e| product_error(e, purpose_path))?;
    let header = format!(
        "purpose {} ({} product states, {} joker(s) from the start)",
        purpose_path.display(),
        prod.lts.num_states(),
        prod.jokers
    );
    let steer = || ioco_games::steered::Steered::new(&prod);
    let strategy = "purpose: joker strategy of S × TP towards accept (coreachability steering)";
    run_explicit(
        &args,
        purpose_path,
        &spec,
        steer,
        &header,
        strategy,
        Some(prod.jokers),
        ld,
    )
}

/// The runs of an explicit purpose session steered by `steer()` (one selection per run).
#[allow(clippy::too_many_arguments)]
fn run_explicit<L>(
    args: &Args,
    purpose_path: &Path,
    spec: &Lts,
    steer: impl Fn() -> L,
    header: &str,
    strategy: &str,
    jokers: Option<u32>,
    ld: &Loader,
) -> Result<Outcome>
where
    L: for<'t, 'o> ioco_exec::engine::Selection<ioco_exec::engine::explicit::Explicit<'t, 'o>>,
{
    let policy: QuiescencePolicy = args.sut.policy.into();
    args.sut.for_model(&args.model);
    let factory = args.sut.factory(spec, ld)?;
    let seed = seed_or_clock(args.seed);
    errln!("ioco test: seed {seed}; {header}");
    let timeout = Duration::from_millis(args.sut.timeout_ms());
    let t0 = Instant::now();
    let opts = ioco_exec::OnlineOptions {
        runs: args.runs,
        depth: args.depth,
        quiescence_timeout: timeout,
        retries: args.sut.retries,
        stop_on_failure: !args.keep_going,
        time_budget: args.time_budget.map(Duration::from_secs_f64),
        ..ioco_exec::OnlineOptions::default()
    };
    let runs = match factory(0) {
        Err(e) => {
            let mut r = RunResult::new(0, seed);
            r.verdict = RunVerdict::Error;
            r.error = Some(format!("could not start the SUT: {e}"));
            vec![r]
        }
        Ok(mut adapter) => {
            let runs =
                ioco_exec::purpose::run_purpose(spec, policy, steer, &mut *adapter, seed, &opts);
            let _ = adapter.close();
            runs
        }
    };
    finish(
        args,
        purpose_path,
        runs,
        seed,
        t0,
        strategy,
        jokers,
        jokers.is_none(),
        ld,
    )
}

/// The summary of a purpose session: it names the purpose and the strategy and counts the
/// runs that reached accept.
#[allow(clippy::too_many_arguments)]
fn finish(
    args: &Args,
    purpose_path: &Path,
    runs: Vec<RunResult>,
    seed: u64,
    t0: Instant,
    strategy: &str,
    jokers: Option<u32>,
    steering: bool,
    ld: &Loader,
) -> Result<Outcome> {
    let accepted = runs
        .iter()
        .filter(|r| r.verdict == RunVerdict::Pass)
        .count();
    let total = runs.len();
    let mut summary = Summary::new("purpose", seed, runs);
    if accepted > 0 && summary.verdict == RunVerdict::Inconclusive {
        // The purpose was reached (and nothing failed): the runs that left it on the way are
        // Inconclusive each, the session is a Pass.
        summary.verdict = RunVerdict::Pass;
    }
    summary.duration_ms = t0.elapsed().as_secs_f64() * 1e3;
    let p = &mut summary.parameters;
    p.insert("model".into(), args.model.display().to_string().into());
    p.insert("sut".into(), args.sut.describe().into());
    p.insert("purpose".into(), purpose_path.display().to_string().into());
    p.insert("strategy".into(), strategy.into());
    if let Some(j) = jokers {
        p.insert("jokers".into(), j.into());
    }
    p.insert("accepted_runs".into(), accepted.into());
    p.insert("runs".into(), args.runs.into());
    p.insert("depth".into(), args.depth.into());
    if steering {
        errln!(
            "purpose {}: no accept (a GOAL without HIT steers only); {accepted} of {total} run(s) followed it to the step bound",
            purpose_path.display()
        );
    } else {
        errln!(
            "purpose {}: accept reached in {accepted} of {total} run(s)",
            purpose_path.display()
        );
    }
    args.report.finish(&summary, ld)
}

/// A symbolic test graph with the two models it was built from.
pub type SymbolicGraph<D> = (ioco_lang::Model, ioco_lang::Model, ioco_stg::TestGraph<D>);

/// Call `$f::<D>($args…)` with the domain `D` that `$stg.domain` names.
macro_rules! in_domain {
    ($stg:expr, $f:ident ( $($a:expr),* )) => {
        match $stg.domain {
            super::args::DomainArg::Interval => $f::<ioco_stg::Interval>($($a),*),
            super::args::DomainArg::Octagon => $f::<ioco_stg::Octagon>($($a),*),
            super::args::DomainArg::Polyhedra => $f::<ioco_stg::Polyhedra>($($a),*),
            super::args::DomainArg::Auto => unreachable!("resolved by `resolve_domain`"),
        }
    };
}

/// `--domain auto`: the domain and forward simplification `ioco_stg::auto` chooses for the
/// product.
fn resolve_domain(mut stg: StgArgs, product: &ioco_stg::Product) -> StgArgs {
    if stg.domain != super::args::DomainArg::Auto {
        return stg;
    }
    let (domain, forward) = ioco_stg::auto(product);
    stg.domain = match domain {
        ioco_stg::DomainChoice::Interval => super::args::DomainArg::Interval,
        ioco_stg::DomainChoice::Octagon => super::args::DomainArg::Octagon,
        ioco_stg::DomainChoice::Polyhedra => super::args::DomainArg::Polyhedra,
    };
    stg.forward_reach |= forward;
    stg
}

/// The analysis options of `--forward-reach`.
fn stg_options(stg: StgArgs) -> ioco_stg::Options {
    ioco_stg::Options {
        forward: stg.forward_reach,
        ..Default::default()
    }
}

/// The specification and the purpose of a symbolic purpose session. A TorXakis MODELDEF
/// that is a composition is read again as one automaton, the product of its parts where that
/// can be built (`ioco_txs::load_files_with`), and the purpose with it (a `.txs` purpose is
/// read with the specification's files, lowered alike).
fn spec_and_purpose(
    model: &Path,
    purpose_path: &Path,
    ld: &Loader,
) -> Result<(ioco_lang::Model, ioco_lang::Model)> {
    let sm = ld.parse_ioco(model)?;
    let composed = sm
        .entry()
        .is_some_and(|s| s.as_single().is_none() && s.sync.is_empty());
    if crate::load::is_txs(model) && composed {
        let sm = ld.parse_ioco_one_automaton(model)?;
        let pm = ld.parse_purpose_one_automaton(purpose_path)?;
        return Ok((sm, pm));
    }
    Ok((sm, ld.parse_purpose(purpose_path)?))
}

/// The product of a specification and a purpose; `txs`: a TorXakis GOAL (it may only steer,
/// and its variables are its own, `ioco_stg::Product::new_torxakis`).
fn product_of(
    sm: &ioco_lang::Model,
    pm: &ioco_lang::Model,
    txs: bool,
) -> Result<ioco_stg::Product, ioco_stg::ProductError> {
    if txs {
        ioco_stg::Product::new_torxakis(sm, pm)
    } else {
        ioco_stg::Product::new(sm, pm)
    }
}

/// A data specification and a purpose, parsed, with their product.
pub type Parsed = (ioco_lang::Model, ioco_lang::Model, ioco_stg::Product);

/// Parse a data specification and a purpose and build their product (read once: the product
/// chooses `--domain auto`'s domain, then the symbolic test graph is built from it).
fn parse_product(model: &Path, purpose_path: &Path, ld: &Loader) -> Result<Parsed> {
    if !crate::load::is_lang(purpose_path) {
        return Err(miette!(
            help = "write the purpose as a .ioco model with locations named accept…/refuse…",
            "{}: a purpose for a specification with data must be a .ioco model",
            purpose_path.display()
        ));
    }
    let (sm, pm) = spec_and_purpose(model, purpose_path, ld)?;
    // a TorXakis GOAL without HIT only steers (`test N` passes after N steps inside it)
    let steer = crate::load::is_txs(purpose_path);
    let product = product_of(&sm, &pm, steer).map_err(|e| {
        let hint =
            if steer && e.message.contains("specification") && e.message.contains("composition") {
                // in TorXakis's terms: the MODELDEF's BEHAVIOUR composes processes
                "a test purpose over data needs the MODELDEF's BEHAVIOUR as one automaton: a \
             composition (`|||`, `|[...]|`, `>>>`) is unfolded into the product of its parts \
             where that can be built, which failed here (a `HIDE` in it, or processes created \
             without bound); write it as one sequential process (a PROCDEF with `>->`, `##`, \
             guards and recursion), or test the MODELDEF without the purpose"
                    .to_string()
            } else {
                e.hint.clone()
            };
        miette!(help = hint, "{}: {}", purpose_path.display(), e.message)
    })?;
    Ok((sm, pm, product))
}

/// The symbolic test graph of a parsed data specification and purpose, in domain `D`.
pub fn symbolic_graph<D: ioco_stg::Domain>(
    (sm, pm, product): Parsed,
    purpose_path: &Path,
    stg: StgArgs,
) -> Result<SymbolicGraph<D>> {
    let g = ioco_stg::TestGraph::new(product, &stg_options(stg)).map_err(|e| {
        miette!(
            help = "the analysis over-approximates: a purpose it rejects can certainly not be met",
            "{}: {e}",
            purpose_path.display()
        )
    })?;
    Ok((sm, pm, g))
}

/// The analysis in words, for the log and the summary (`octagon`, `polyhedra, forward
/// reachability`).
fn analysis_name<D: ioco_stg::Domain>(stg: StgArgs) -> String {
    if stg.forward_reach {
        format!("{}, forward reachability", D::NAME)
    } else {
        D::NAME.to_string()
    }
}

/// `ioco test` of a specification with data against a purpose.
fn run_symbolic(
    args: Args,
    purpose_path: &Path,
    spec: Arc<ioco_lang::ir::Spec>,
    ld: &Loader,
) -> Result<Outcome> {
    let parsed = parse_product(&args.model, purpose_path, ld)?;
    let stg = resolve_domain(args.stg, &parsed.2);
    let args = Args { stg, ..args };
    in_domain!(stg, run_symbolic_in(args, purpose_path, spec, parsed, ld))
}

/// [`run_symbolic`] in domain `D`.
fn run_symbolic_in<D: ioco_stg::Domain>(
    args: Args,
    purpose_path: &Path,
    spec: Arc<ioco_lang::ir::Spec>,
    parsed: Parsed,
    ld: &Loader,
) -> Result<Outcome> {
    let (sm, pm, g) = symbolic_graph::<D>(parsed, purpose_path, args.stg)?;
    let analysis = analysis_name::<D>(args.stg);
    let factory = args.sut.data_factory(&spec, ld)?;
    let seed = seed_or_clock(args.seed);
    errln!(
        "ioco test: seed {seed}; symbolic purpose {} ({} product locations, {analysis} analysis)",
        purpose_path.display(),
        g.product.locations.len()
    );
    let t0 = Instant::now();
    let opts = ioco_exec::OnlineOptions {
        runs: args.runs,
        depth: args.depth,
        quiescence_timeout: Duration::from_millis(args.sut.timeout_ms()),
        retries: args.sut.retries,
        stop_on_failure: !args.keep_going,
        time_budget: args.time_budget.map(Duration::from_secs_f64),
        ..ioco_exec::OnlineOptions::default()
    };
    let runs = match factory(seed) {
        Err(e) => {
            let mut r = RunResult::new(0, seed);
            r.verdict = RunVerdict::Error;
            r.error = Some(format!("could not start the SUT: {e}"));
            vec![r]
        }
        Ok(mut sut) => {
            let oracle = || ioco_exec::data_session::tracker(&spec);
            let steer = || {
                ioco_stg::online::Steering::new(&g, &sm, &pm)
                    .map(ioco_stg::steered::SteeredData::new)
            };
            ioco_exec::purpose::run_purpose_data(steer, &mut *sut, oracle, seed, &opts)
                .map_err(|e| miette!("{e}"))?
        }
    };
    let steering = g.product.steering;
    let strategy = if steering {
        "purpose: symbolic, steering only (the purpose has no accept: inputs among its steps, \
         Pass at the step bound inside it)"
            .to_string()
    } else {
        format!(
            "purpose: symbolic (seed 004 Table 3), {analysis} coreachability, inputs inside the \
             strengthened guards"
        )
    };
    finish(
        &args,
        purpose_path,
        runs,
        seed,
        t0,
        &strategy,
        None,
        steering,
        ld,
    )
}

/// `ioco gen` of a specification with data and a purpose: the symbolic test graph as JSON
/// (format `ioco-stg/1`): the domain and whether the forward simplification ran, coreach^α
/// per location, and per transition its strengthened guard and fate (keep / dropped input /
/// inconclusive output / unreachable, the last only with `--forward-reach`).
pub fn gen_symbolic(
    model: &Path,
    purpose_path: &Path,
    output: Option<&Path>,
    stg: StgArgs,
    ld: &Loader,
) -> Result<Outcome> {
    let parsed = parse_product(model, purpose_path, ld)?;
    let stg = resolve_domain(stg, &parsed.2);
    in_domain!(
        stg,
        gen_symbolic_in(model, parsed, purpose_path, output, stg)
    )
}

/// [`gen_symbolic`] in domain `D`.
fn gen_symbolic_in<D: ioco_stg::Domain>(
    model: &Path,
    parsed: Parsed,
    purpose_path: &Path,
    output: Option<&Path>,
    stg: StgArgs,
) -> Result<Outcome> {
    let (_, _, g) = symbolic_graph::<D>(parsed, purpose_path, stg)?;
    let p = &g.product;
    let locations: Vec<serde_json::Value> = p
        .locations
        .iter()
        .enumerate()
        .map(|(l, loc)| {
            serde_json::json!({
                "name": loc.name,
                "accept": loc.accept,
                "refuse": loc.refuse,
                "coreach": g.show(&g.coreach.values[l]),
            })
        })
        .collect();
    let transitions: Vec<serde_json::Value> = p
        .transitions
        .iter()
        .enumerate()
        .map(|(t, tr)| {
            let (gate, dir) = match &tr.gate {
                Some((n, ioco_lang::ir::Direction::Input)) => (n.as_str(), "input"),
                Some((n, ioco_lang::ir::Direction::Output)) => (n.as_str(), "output"),
                None => ("τ", "internal"),
            };
            serde_json::json!({
                "from": p.locations[tr.from].name,
                "to": p.locations[tr.to].name,
                "gate": gate,
                "direction": dir,
                "fate": g.fate(t),
                "strengthened_guard": g.kept[t].iter().map(|k| g.show(k)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let doc = serde_json::json!({
        "format": "ioco-stg/1",
        "model": model.display().to_string(),
        "purpose": purpose_path.display().to_string(),
        "domain": D::NAME,
        "forward_reach": stg.forward_reach,
        "dimensions": p.dims,
        "locations": locations,
        "transitions": transitions,
    });
    err!("{}", g.render());
    let text = serde_json::to_string_pretty(&doc).map_err(|e| miette!("{e}"))?;
    super::emit(&(text + "\n"), output)?;
    Ok(Outcome::Ok)
}
