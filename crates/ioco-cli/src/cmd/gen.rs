//! `ioco gen`: generate a test suite (JSON, the format `ioco run` executes).
//!
//! Methods and the crate that implements each:
//! - `random`, `batch`: tutorial Alg. 1 (ioco-gen), seeded;
//! - `n-complete`: thesis Def. 2.37, T(S, n) with nested merge suites (ioco-complete), after a
//!   size estimate; `adg`: access sequences + adaptive distinguishing graphs (thesis ch. 3);
//! - `w`, `wp`, `hsi`, `h`, `hads`: complete suites for Mealy machines with `--extra-states k`
//!   (ioco-fsm);
//! - `reach`, `joker`: winning / joker strategies of the test game for `--goal` under
//!   `--assume` (ioco-games); `purpose`: a TGV-style test purpose (`--purpose FILE`);
//! - `switch-coverage` (a model with data): one purpose per switch of the symbolic execution
//!   graph up to `--depth` (TAP19 §4, thesis Def. 4.16; `ioco_symbolic::seg::select_purposes`),
//!   written in the format `ioco-sts-suite/1` (`ioco_exec::sts_suite`); switches that are not
//!   covered are reported by name with the reason, and the a priori switch coverage is printed.

pub use super::args::{GenArgs as Args, MethodArg};
use super::{emit, Outcome};
use crate::load::Loader;
use ioco_formats::Model;
use ioco_gen::Suite;
use ioco_model::QuiescencePolicy;
use miette::{miette, IntoDiagnostic, Result};

fn suspension(args: &Args, ld: &Loader) -> Result<ioco_model::Lts> {
    let lts = ld.load_lts(&args.model)?;
    args.budgets.suspension_for(
        &lts,
        QuiescencePolicy::from(args.policy),
        args.relation.into(),
        &args.model,
    )
}

fn need<'a, T>(v: &'a Option<T>, flag: &str, method: &str) -> Result<&'a T> {
    v.as_ref().ok_or_else(|| {
        miette!(
            help = format!("e.g. `ioco gen MODEL --method {method} {flag} ...`"),
            "--method {method} needs {flag}"
        )
    })
}

/// Run `ioco gen`.
pub fn run(args: Args, ld: &Loader) -> Result<Outcome> {
    let policy = QuiescencePolicy::from(args.policy);
    let method = args.method.unwrap_or(MethodArg::Purpose);
    if args.engine.is_some() && method != MethodArg::Purpose {
        return Err(miette!(
            help = "--method switch-coverage is symbolic; the other methods are explicit",
            "--engine chooses the engine of --method purpose only"
        ));
    }
    // A long generation shows that it is working (a spinner with the elapsed time, on a
    // terminal only; hidden in CI and pipes).
    if args.relation == super::RelationArg::Uioco
        && matches!(method, MethodArg::Random | MethodArg::Batch)
    {
        return Err(miette!(
            help = "use a method built on the suspension automaton (n-complete, adg, ...), or                     test online: ioco test --relation uioco",
            "--relation uioco does not apply to --method {}",
            if method == MethodArg::Random { "random" } else { "batch" }
        ));
    }
    let spinner = spinner(&format!("generating ({method:?})"));
    let suite: Suite = match method {
        MethodArg::Random | MethodArg::Batch => {
            let lts = ld.load_lts(&args.model)?;
            spinner.suspend(|| errln!("seed: {}", args.seed));
            if method == MethodArg::Random {
                ioco_gen::generate_random(&lts, policy, args.tests, args.depth, args.seed)
            } else {
                let opts = ioco_gen::BatchOptions {
                    policy,
                    depth: args.depth,
                    ..Default::default()
                };
                let mut strategy = ioco_gen::CoverageGuided::default();
                ioco_gen::generate(&lts, opts, args.tests, &mut strategy, args.seed)
            }
        }
        MethodArg::NComplete => {
            let n = *need(&args.n, "--n N", "n-complete")?;
            let sa = suspension(&args, ld)?;
            let est = ioco_complete::estimate(&sa, n).map_err(|e| miette!("{e}"))?;
            // A count as users read it: never negative (−0 from cancelling sums) nor infinite
            // (sizing stops past the test limit, the largest suite that would be generated).
            let limit = ioco_complete::NCompleteOptions::default().max_tests;
            let count = |x: f64| -> String {
                if x.is_finite() && x <= limit as f64 {
                    plain_count(x)
                } else {
                    format!("more than {limit} (the limit)")
                }
            };
            let over = !(est.total_tests.is_finite() && est.total_tests <= limit as f64);
            let line = if over {
                // sizing stopped at the limit: the nested part is not counted further
                format!(
                    "T(S, {n}): more than {limit} test cases, the limit ({} access sequences, {} \
                     outer tests); it would be refused: use a smaller --n, or --method adg",
                    count(est.access_sequences),
                    count(est.outer_tests),
                )
            } else {
                format!(
                    "T(S, {n}): {} {} test cases ({} access sequences, {} outer, {} nested; {} \
                     fallbacks to U)",
                    if est.lower_bound {
                        "at least (the nested suites pass the --max-pairs budget)"
                    } else {
                        "about"
                    },
                    count(est.total_tests),
                    count(est.access_sequences),
                    count(est.outer_tests),
                    count(est.nested_tests),
                    est.fallbacks
                )
            };
            spinner.suspend(|| errln!("{line}"));
            if args.estimate {
                return Ok(Outcome::Ok);
            }
            // written as it is generated (a large suite never held whole)
            let w = ioco_complete::write::n_complete_json(
                &sa,
                n,
                &Default::default(),
                &model_parameter(&args),
                &mut output(args.output.as_deref()),
            );
            spinner.finish_and_clear();
            return written(w, args.output.as_deref());
        }
        MethodArg::Adg => {
            let sa = suspension(&args, ld)?;
            let w = ioco_complete::write::adg_json(
                &sa,
                &Default::default(),
                &model_parameter(&args),
                &mut output(args.output.as_deref()),
            );
            spinner.finish_and_clear();
            return written(w, args.output.as_deref());
        }
        MethodArg::W | MethodArg::Wp | MethodArg::Hsi | MethodArg::H | MethodArg::Hads => {
            let mealy = match ld.load_model(&args.model)? {
                Model::Mealy(m) => m,
                Model::Lts(_) => {
                    return Err(miette!(
                        help = "W, Wp, HSI, H and hybrid-ADS work on Mealy machines: a DOT file with `in/out` edge labels",
                        "{} is an LTS, not a Mealy machine",
                        args.model.display()
                    ))
                }
            };
            let method: ioco_fsm::Method = match method {
                MethodArg::W => ioco_fsm::Method::W,
                MethodArg::Wp => ioco_fsm::Method::Wp,
                MethodArg::Hsi => ioco_fsm::Method::Hsi,
                MethodArg::H => ioco_fsm::Method::H,
                _ => ioco_fsm::Method::Hads,
            };
            let s = ioco_fsm::generate(&mealy, method, args.extra_states)
                .map_err(|e| miette!("{e}"))?;
            let st = s.stats();
            spinner.suspend(|| errln!("{method}: {st}"));
            if st.symbols > 50_000_000 {
                // about 33 bytes a symbol on disk (its input and output labels, quoted)
                errln!(
                    "warning: a large suite: {} input symbols, a file of roughly {} MB",
                    st.symbols,
                    st.symbols / 30_000
                );
            }
            // streamed to the output one test at a time (a large suite never held whole)
            let mut header = s.header();
            header
                .parameters
                .insert("model".into(), args.model.display().to_string().into());
            drop(spinner);
            errln!("{} test case(s), method {}", st.tests, header.method);
            if st.tests == 0 {
                errln!("warning: the suite has no test case; `ioco run` refuses an empty suite");
            }
            write_streaming(args.output.as_deref(), |w| s.write_json(&header, w))?;
            return Ok(Outcome::Ok);
        }
        MethodArg::Reach | MethodArg::Joker => {
            let name = if method == MethodArg::Reach {
                "reach"
            } else {
                "joker"
            };
            let goal_text = need(&args.goal, "--goal GOAL", name)?;
            let sa = suspension(&args, ld)?;
            let goal = ioco_games::Goal::parse(goal_text, &sa).map_err(|e| miette!("{e}"))?;
            let assume: ioco_games::Assumption = args.assume.parse().map_err(|e| {
                miette!(
                    help = "one of input-eager, output-eager, nondeterministic, input-fair",
                    "{e}"
                )
            })?;
            if method == MethodArg::Reach {
                let r = ioco_games::reach(&sa, &goal, assume).map_err(|e| miette!("{e}"))?;
                spinner.suspend(|| {
                    errln!(
                        "goal {goal_text} is winnable under {}: at most {} moves",
                        args.assume,
                        r.moves
                    )
                });
                r.into_suite()
            } else {
                let prices = args
                    .joker_prices
                    .map_or(ioco_games::Prices::UNIT, |(o, s)| ioco_games::Prices {
                        output: o,
                        successor: s,
                    });
                let opts = ioco_games::GameOptions {
                    per_level_moves: args.per_level_moves,
                    prices,
                    ..Default::default()
                };
                let r = ioco_games::joker_with(&sa, &goal, assume, &opts)
                    .map_err(|e| miette!("{e}"))?;
                let admissible = if args.admissible {
                    Some(spinner.suspend(|| admissibility(&sa, &goal, assume, &r.strategy))?)
                } else {
                    None
                };
                spinner.suspend(|| match args.joker_prices {
                    Some((o, s)) => errln!(
                        "goal {goal_text}: help priced {} (output {o}, successor {s}), at most {} \
                         moves",
                        r.jokers,
                        r.moves
                    ),
                    None => errln!(
                        "goal {goal_text}: {} joker(s), at most {} moves",
                        r.jokers,
                        r.moves
                    ),
                });
                let mut suite = r.into_suite();
                if let Some(a) = admissible {
                    suite.parameters.insert("admissible".into(), a.into());
                }
                suite
            }
        }
        MethodArg::SwitchCoverage => return switch_coverage(&args, ld),
        MethodArg::Purpose => {
            let p = need(&args.purpose, "--purpose FILE", "purpose")?;
            if ld.engine_spec(&args.model, args.engine)?.is_some() {
                return super::purpose::gen_symbolic(
                    &args.model,
                    p,
                    args.output.as_deref(),
                    args.stg,
                    ld,
                );
            }
            let sa = suspension(&args, ld)?;
            let purpose = super::purpose::load_purpose(p, ld)?;
            let test = ioco_games::purpose_test(&sa, &purpose)
                .map_err(|e| miette!("{}: {e}", p.display()))?;
            let mut s = Suite::new("purpose");
            s.parameters
                .insert("purpose".into(), p.display().to_string().into());
            s.tests.push(ioco_gen::NamedTest {
                name: "purpose".into(),
                purpose: Some(format!("reach an accepting state of {}", p.display())),
                test,
            });
            s
        }
    };
    spinner.finish_and_clear();
    let mut suite = suite;
    suite
        .parameters
        .entry("model".to_string())
        .or_insert_with(|| args.model.display().to_string().into());
    if matches!(method, MethodArg::Random | MethodArg::Batch) {
        suite.parameters.insert("seed".into(), args.seed.into());
    }
    errln!(
        "{} test case(s), method {}",
        suite.num_tests(),
        suite.method
    );
    if suite.method == "adg" {
        errln!("  {}", adg_summary(&suite.parameters));
    }
    if suite.num_tests() == 0 {
        errln!(
            "warning: the suite has no test case (nothing in the specification to test with \
             this method, e.g. no output to observe); `ioco run` refuses an empty suite"
        );
    }
    let text = serde_json::to_string_pretty(&suite).into_diagnostic()?;
    emit(&(text + "\n"), args.output.as_deref())?;
    Ok(Outcome::Ok)
}

/// The `model` parameter every suite records.
fn model_parameter(args: &Args) -> serde_json::Map<String, serde_json::Value> {
    let mut m = serde_json::Map::new();
    m.insert("model".into(), args.model.display().to_string().into());
    m
}

/// Opens the suite's output (standard output when `None`) when the suite is known to be made.
fn output(
    path: Option<&std::path::Path>,
) -> impl FnMut() -> std::io::Result<Box<dyn std::io::Write>> + '_ {
    move || -> std::io::Result<Box<dyn std::io::Write>> {
        Ok(match path {
            Some(p) => Box::new(std::io::BufWriter::new(std::fs::File::create(p).map_err(
                |e| std::io::Error::new(e.kind(), format!("cannot write {}: {e}", p.display())),
            )?)),
            None => Box::new(std::io::BufWriter::new(std::io::stdout())),
        })
    }
}

/// What `gen` says of a suite written as it was generated (a closed standard output is not
/// an error: `ioco gen ... | head`).
fn written(
    w: Result<ioco_complete::write::Written, ioco_complete::write::WriteError>,
    path: Option<&std::path::Path>,
) -> Result<Outcome> {
    use ioco_complete::write::WriteError;
    let w = match w {
        Ok(w) => w,
        Err(WriteError::Io(e)) if path.is_none() && e.kind() == std::io::ErrorKind::BrokenPipe => {
            return Ok(Outcome::Ok)
        }
        Err(e) => return Err(miette!("{e}")),
    };
    errln!("{} test case(s), method {}", w.tests, w.header.method);
    if w.header.method == "adg" {
        errln!("  {}", adg_summary(&w.header.parameters));
    }
    if w.tests == 0 {
        errln!(
            "warning: the suite has no test case (nothing in the specification to test with \
             this method, e.g. no output to observe); `ioco run` refuses an empty suite"
        );
    }
    Ok(Outcome::Ok)
}

/// Run `ioco gen --method switch-coverage`.
fn switch_coverage(args: &Args, ld: &Loader) -> Result<Outcome> {
    use ioco_symbolic::seg::Uncovered;
    let spec = ld.load_spec(&args.model)?;
    let bytes = std::fs::read(&args.model)
        .map_err(|e| miette!("cannot read {}: {e}", args.model.display()))?;
    let sys = ioco_symbolic::System::new(spec.clone())
        .map_err(|e| miette!("{}: {e}", args.model.display()))?;
    let mut ck =
        ioco_symbolic::Checker::new(Box::new(ioco_symbolic::Z3Solver::new(spec.defs.clone())));
    let (suite, sel) =
        ioco_exec::sts_suite::generate(&sys, &mut ck, &args.model, &bytes, args.depth, args.seed);
    for (_, name, why) in &sel.uncovered {
        let why = match why {
            Uncovered::Unsatisfiable => "its guard is unsatisfiable".to_string(),
            Uncovered::Unreached => format!(
                "not reached within depth {} (hint: raise --depth)",
                args.depth
            ),
        };
        errln!("WARNING: switch not covered: {name} ({why})");
    }
    let ios: usize = suite.purposes.iter().map(|p| p.path.len()).sum();
    let covered = (sel.apriori() * sel.total as f64).round() as usize;
    errln!(
        "switch coverage of {}: {} purposes ({} steps, longest {}), {} SEG states within depth {}; a priori switch coverage {:.1}% ({}/{})",
        spec.name,
        suite.purposes.len(),
        ios,
        suite.purposes.iter().map(|p| p.path.len()).max().unwrap_or(0),
        sel.seg_nodes,
        args.depth,
        100.0 * sel.apriori(),
        covered,
        sel.total
    );
    let text = serde_json::to_string_pretty(&suite).map_err(|e| miette!("{e}"))? + "\n";
    emit(&text, args.output.as_deref())?;
    Ok(Outcome::Ok)
}

/// Write a suite to `path` (standard output when `None`) with `write`, which renders it as it
/// goes (e.g. [`ioco_fsm::FsmSuite::write_json`]); a closed standard output is not an error.
fn write_streaming(
    path: Option<&std::path::Path>,
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<usize>,
) -> Result<()> {
    match path {
        Some(p) => {
            let f = std::fs::File::create(p)
                .map_err(|e| miette!("cannot write {}: {e}", p.display()))?;
            write(&mut std::io::BufWriter::new(f))
                .map_err(|e| miette!("cannot write {}: {e}", p.display()))?;
        }
        None => {
            let _ = write(&mut std::io::BufWriter::new(std::io::stdout().lock()));
        }
    }
    Ok(())
}

/// What the state identifiers of an `adg` suite are made of, and which pairs they separate.
fn adg_summary(p: &serde_json::Map<String, serde_json::Value>) -> String {
    let num = |k: &str| p.get(k).and_then(serde_json::Value::as_u64).unwrap_or(0);
    let covers = match p
        .get("pairwise_fallback")
        .and_then(serde_json::Value::as_str)
    {
        Some("undistinguished") => {
            "the incompatible pairs the graph leaves sharing an observation (the suite \
             separating every pair by an output would exceed the size limit)"
        }
        _ => "every incompatible pair of reachable states, separated by an output",
    };
    format!(
        "identifiers: one adaptive distinguishing graph, {} residual experiment(s), pairwise \
         graphs for {} pair(s); they cover {covers}",
        num("residual_experiments"),
        num("pairwise_pairs")
    )
}

/// A spinner on standard error with `msg` and the elapsed time, ticking on its own; hidden when
/// standard error is not a terminal.
fn spinner(msg: &str) -> indicatif::ProgressBar {
    // Not even a ticking thread when nobody sees it: starting and joining it costs as much as
    // generating a small suite.
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return indicatif::ProgressBar::hidden();
    }
    // Cleared when dropped too (an early return, an error).
    let bar =
        indicatif::ProgressBar::new_spinner().with_finish(indicatif::ProgressFinish::AndClear);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} [{elapsed}]") {
        bar.set_style(style);
    }
    bar.set_message(msg.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

/// A count as users read it: a plain integer below 10⁹ (`4240`), in scientific notation above
/// (`1.234e12`); never negative (−0 from cancelling sums).
fn plain_count(x: f64) -> String {
    let x = (x + 0.0).max(0.0);
    if x < 1e9 {
        format!("{}", x.round() as u64)
    } else {
        format!("{x:.3e}")
    }
}

/// `--admissible`: decide Def. 6.36 for the joker strategy and say so (the algorithm is
/// `ioco_games::admissible`).
fn admissibility(
    sa: &ioco_model::Lts,
    goal: &ioco_games::Goal,
    assume: ioco_games::Assumption,
    strategy: &ioco_games::Strategy,
) -> Result<bool> {
    let choose = |q: u32| match strategy.moves[q as usize] {
        Some(ioco_games::Move::Input(a)) => Some(Some(a)),
        Some(ioco_games::Move::Wait) => Some(None),
        None => None,
    };
    let a = match ioco_games::sa_admissibility(sa, goal, assume, choose, &Default::default()) {
        Ok(a) => a,
        Err(ioco_games::AdmissibleError::Winnable) => {
            errln!(
                "the joker strategy is admissible (thesis Def. 6.36): it is winning (no joker), \
                 and a winning strategy wins against every system strategy"
            );
            return Ok(true);
        }
        Err(e) => return Err(miette!("--admissible: {e}")),
    };
    let (adm, all) = a.count;
    errln!(
        "the joker strategy is {}admissible (thesis Def. 6.36, positional strategies): it wins \
         against {} of {} system strategies; {adm} of {all} tester strategies are admissible",
        if a.admissible { "" } else { "not " },
        a.wins,
        a.pairs
    );
    if let Some((moves, wins)) = &a.dominator {
        let alpha = sa.alphabet();
        let shown: Vec<String> = moves
            .iter()
            .map(|(q, l)| {
                let what = l.map_or("θ".to_string(), |l| alpha.display(l));
                format!("{} ↦ {what}", sa.state_name(*q))
            })
            .collect();
        errln!(
            "it is dominated by: {} (wins against {wins})",
            shown.join(", ")
        );
    }
    Ok(a.admissible)
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_are_plain_integers_below_a_billion() {
        assert_eq!(super::plain_count(4240.0), "4240");
        assert_eq!(super::plain_count(-0.0), "0");
        assert_eq!(super::plain_count(999_999_999.0), "999999999");
        assert_eq!(super::plain_count(1.5e12), "1.500e12");
    }
}
