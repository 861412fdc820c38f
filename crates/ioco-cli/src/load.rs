//! Model loading for every command: by extension, with diagnostics rendered by miette. The
//! options that steer it (`--entry`, `--goal`, `--cnect`, `--with`, `--deny-warnings`) are the
//! fields of one [`Loader`] value that `main` builds and passes to the command it runs.
//!
//! `.aut`, `.dot`/`.gv` and `.json` go to `ioco-formats`; `.ioco` (the modelling language of
//! `ioco-lang`) is parsed here by [`Loader::parse_ioco`], the one place every command reads a `.ioco`
//! file through: it prints the language's warnings (once per file, to standard error, rendered
//! like errors with `file:line:col`) or, with `--deny-warnings`, turns them into errors.
//!
//! A `.ioco` model whose data cannot be enumerated (`int` parameters or variables) has no
//! explicit LTS: [`Loader::load_model`] refuses it with the reason and the bounded type to use, for the
//! commands that need a finite model; the others ask [`Loader::data_spec`] first.

use ioco_formats::Model;
use ioco_lang::ir::Spec;
use ioco_model::Lts;
use miette::{miette, Report, Result};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub use ioco_load::engine::infinite_data;

/// The loading state of one command: its name, `--deny-warnings`, `--with`, `--entry`,
/// `--goal`, `--cnect`, built once by `main` and passed to the command as a value; every
/// model the command reads goes through its methods.
pub struct Loader {
    /// The command being run (`check`, `gen`, ...), for messages.
    command: &'static str,
    /// `--deny-warnings`: warnings of a `.ioco` model are errors.
    deny_warnings: bool,
    /// `--with FILE`: more `.txs` files read together with a `.txs` model (TorXakis loads all
    /// the files it is given into one namespace).
    with: Vec<PathBuf>,
    /// `--entry NAME`: the model or system to use.
    entry: Option<String>,
    /// `--goal NAME`: the purpose to use from the `--purpose` file.
    goal: Option<String>,
    /// `--cnect NAME`: the `CNECTDEF` of a `.txs` model to reach the SUT with; without
    /// `--entry` it also picks the `MODELDEF` it connects.
    cnect: Option<String>,
    /// `ioco test SPEC.txs --purpose P.txs`: the specification and the purpose file read with
    /// it (TorXakis reads a purpose file into the model's namespace, `torxakis M.txs P.txs`);
    /// not with the other models (a `--sim` implementation).
    purpose_with: Option<(PathBuf, PathBuf)>,
    /// Files whose warnings were printed already (a command may read a file twice).
    warned: Mutex<Vec<PathBuf>>,
    /// The `.txs` specification read last: a `.txs` purpose file is read together with it.
    spec_txs: Mutex<Option<PathBuf>>,
}

impl Clone for Loader {
    /// The same options, and the files warned about and the `.txs` specification read so far.
    fn clone(&self) -> Self {
        Loader {
            command: self.command,
            deny_warnings: self.deny_warnings,
            with: self.with.clone(),
            entry: self.entry.clone(),
            goal: self.goal.clone(),
            cnect: self.cnect.clone(),
            purpose_with: self.purpose_with.clone(),
            warned: Mutex::new(
                self.warned
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .clone(),
            ),
            spec_txs: Mutex::new(
                self.spec_txs
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .clone(),
            ),
        }
    }
}

/// True for the modelling languages read through [`Loader::parse_ioco`]: `.ioco`, and TorXakis's `.txs`
/// (lowered into the same IR by `ioco-txs`).
pub fn is_lang(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e == "ioco" || e.eq_ignore_ascii_case("txs"))
}

/// True for a TorXakis `.txs` file.
pub fn is_txs(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("txs"))
}

/// Which of the command's models a file holds: the entry of a purpose is chosen by `--goal`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Spec,
    Purpose,
}

impl Loader {
    /// The loader of `command`, with `--deny-warnings` and the `--with` files; `--entry`,
    /// `--goal`, `--cnect` and a `.txs` purpose are set with the methods that follow.
    pub fn new(command: &'static str, deny_warnings: bool, with: Vec<PathBuf>) -> Loader {
        Loader {
            command,
            deny_warnings,
            with,
            entry: None,
            goal: None,
            cnect: None,
            purpose_with: None,
            warned: Mutex::new(Vec::new()),
            spec_txs: Mutex::new(None),
        }
    }

    /// `--entry NAME`.
    pub fn with_entry(mut self, name: Option<String>) -> Loader {
        self.entry = name;
        self
    }

    /// `--goal NAME`.
    pub fn with_goal(mut self, name: Option<String>) -> Loader {
        self.goal = name;
        self
    }

    /// `--cnect NAME` (the commands that reach a SUT).
    pub fn with_cnect(mut self, name: Option<String>) -> Loader {
        self.cnect = name;
        self
    }

    /// `ioco test SPEC --purpose PURPOSE`: when both are `.txs` files, the purpose file is read
    /// with the specification (TorXakis reads a purpose file into the model's namespace,
    /// `torxakis M.txs P.txs`), and with no other model (a `--sim` implementation).
    pub fn with_txs_purpose(mut self, spec: &Path, purpose: &Path) -> Loader {
        if is_txs(spec) && is_txs(purpose) {
            self.purpose_with = Some((spec.to_path_buf(), purpose.to_path_buf()));
        }
        self
    }

    /// The files read with the `.txs` file `path`: the `--with` files, and the `.txs` purpose
    /// when `path` is the specification it is tested against (a file named twice is read once).
    fn with_of(&self, path: &Path) -> Vec<PathBuf> {
        let mut with = self.with.clone();
        if let Some((spec, purpose)) = &self.purpose_with {
            let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
            if canon(spec) == canon(path) {
                with.push(purpose.clone());
            }
        }
        with
    }

    /// Reads, parses and lowers a `.txs` file (and the files given with `--with`).
    pub fn parse_txs(&self, path: &Path) -> Result<ioco_txs::TxsModel> {
        self.parse_txs_with(path, None, false)
    }

    /// [`Loader::parse_txs`] of a purpose file, read after the specification `spec`; a file named twice is read once (TorXakis reads all
    /// the files it is given into one namespace).
    fn parse_txs_with(
        &self,
        path: &Path,
        spec: Option<PathBuf>,
        one_automaton: bool,
    ) -> Result<ioco_txs::TxsModel> {
        // a purpose file comes after the specification's files, so that the purpose declares the
        // specification's types and functions first, in its order, and then its own
        let paths: Vec<PathBuf> = match spec {
            Some(spec) => [
                vec![spec.clone()],
                self.with_of(&spec),
                vec![path.to_path_buf()],
            ]
            .concat(),
            None => [vec![path.to_path_buf()], self.with_of(path)].concat(),
        };
        let mut paths = paths;
        let mut seen = std::collections::HashSet::new();
        paths.retain(|p| seen.insert(std::fs::canonicalize(p).unwrap_or_else(|_| p.clone())));
        let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        ioco_txs::load_files_with(&refs, one_automaton).map_err(|diags| {
            Report::new(ioco_lang::Diagnostics {
                diags,
                file: path.display().to_string(),
            })
        })
    }

    /// Reads, parses and checks a `.ioco` file (and its imports), or a TorXakis `.txs` file. Its
    /// warnings are printed to standard error the first time the file is read, or are an error
    /// with `--deny-warnings`.
    pub fn parse_ioco(&self, path: &Path) -> Result<ioco_lang::Model> {
        self.parse_as(path, Role::Spec, false)
    }

    /// [`Loader::parse_ioco`] for a symbolic test purpose, which needs the specification as one
    /// automaton: a `.txs` `MODELDEF` whose behaviour is a composition is read as the product of
    /// its parts where that can be built (`ioco_txs::load_files_with`); a `.ioco` file as it is.
    pub fn parse_ioco_one_automaton(&self, path: &Path) -> Result<ioco_lang::Model> {
        self.parse_as(path, Role::Spec, true)
    }

    /// Reads a test purpose file like [`Loader::parse_ioco`], its entry chosen by `--goal` (not `--entry`,
    /// which picks the specification): a TorXakis GOAL by its name or its model's name, or a model
    /// of a `.ioco` file; without `--goal`, a `.txs` file's only goal, else the file's entry.
    pub fn parse_purpose(&self, path: &Path) -> Result<ioco_lang::Model> {
        self.parse_as(path, Role::Purpose, false)
    }

    /// [`Loader::parse_purpose`] read with the specification as [`Loader::parse_ioco_one_automaton`] reads it
    /// (a `.txs` purpose file is read with the specification's files: both must lower them
    /// alike, so that the purpose declares the specification's types and functions).
    pub fn parse_purpose_one_automaton(&self, path: &Path) -> Result<ioco_lang::Model> {
        self.parse_as(path, Role::Purpose, true)
    }

    fn parse_as(&self, path: &Path, role: Role, one_automaton: bool) -> Result<ioco_lang::Model> {
        refuse_special(path)?;
        let file = path.display().to_string();
        let mut by_cnect = None;
        let mut modeldefs = None;
        let (model, goals) = if is_txs(path) {
            // a TorXakis purpose file is read with the model's files, as TorXakis reads them
            let spec_file = match role {
                Role::Spec => {
                    *self.spec_txs.lock().unwrap_or_else(|p| p.into_inner()) =
                        Some(path.to_path_buf());
                    None
                }
                Role::Purpose => match &self.purpose_with {
                    Some((spec, _)) => Some(spec.clone()),
                    None => self
                        .spec_txs
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .clone(),
                },
            };
            let t = self.parse_txs_with(path, spec_file, one_automaton)?;
            if role == Role::Spec {
                by_cnect = self.cnect_entry(&t.lowered, path)?;
                modeldefs = Some(modeldef_names(&t.lowered));
            }
            (t.model, t.lowered.goals)
        } else {
            let m = ioco_lang::parse_file(path).map_err(|diags| {
                Report::new(ioco_lang::Diagnostics {
                    diags,
                    file: file.clone(),
                })
            })?;
            (m, Vec::new())
        };
        let model = match role {
            Role::Spec => match self.entry.clone() {
                Some(e) => select_entry(model, path, Some(e), "--entry", modeldefs)?,
                None => select_entry(model, path, by_cnect, "--cnect", modeldefs)?,
            },
            Role::Purpose => match self.purpose_entry(&goals, path, is_txs(path)) {
                Ok(wanted) => select_entry(model, path, wanted, "--goal", None)?,
                Err(e) => {
                    // a PURPDEF left out says why before the goal is missed
                    for w in model.warnings() {
                        errln!("{:?}", Report::new(w.clone()));
                    }
                    return Err(e);
                }
            },
        };
        let warnings = model.warnings();
        if warnings.is_empty() {
            return Ok(model);
        }
        if self.deny_warnings {
            let diags = warnings
                .iter()
                .map(|w| {
                    let mut d = w.clone();
                    d.severity = ioco_lang::Severity::Error;
                    let help = match d.help.take() {
                        Some(h) => format!("{h}\n(a warning, made an error by --deny-warnings)"),
                        None => "a warning, made an error by --deny-warnings".to_string(),
                    };
                    d.help(help)
                })
                .collect();
            return Err(Report::new(ioco_lang::Diagnostics { diags, file }));
        }
        let first = {
            let mut seen = self.warned.lock().unwrap_or_else(|p| p.into_inner());
            let key = path.to_path_buf();
            if seen.contains(&key) {
                false
            } else {
                seen.push(key);
                true
            }
        };
        if first {
            for w in warnings {
                errln!("{:?}", Report::new(w.clone()));
            }
        }
        Ok(model)
    }

    /// The purpose model `--goal` names among a `.txs` file's `goals` (purpose, goal, model): a
    /// goal by its own name (`Purp.goal`, or `goal` when only one purpose has it), a `PURPDEF`
    /// of one goal by its name (as TorXakis's `tester M Purp Sut`), or a goal's model by its
    /// name; anything else is an error in TorXakis's terms (PURPDEF, GOAL); without `--goal`, the file's only goal, or none (the file's entry) when it has no
    /// goals. Several goals and no `--goal`, or a goal name two purposes share, is an error that
    /// lists the candidates.
    fn purpose_entry(
        &self,
        goals: &[(String, String, String)],
        path: &Path,
        txs: bool,
    ) -> Result<Option<String>> {
        let qualified = |gs: &[&(String, String, String)]| -> String {
            gs.iter()
                .map(|(p, g, _)| format!("{p}.{g}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let all: Vec<&(String, String, String)> = goals.iter().collect();
        let Some(g) = self.goal.clone() else {
            return match all.as_slice() {
                [] => Ok(None),
                [(_, _, only)] => Ok(Some(only.clone())),
                _ => Err(miette!(
                    help = format!("name one with --goal: {}", qualified(&all)),
                    "{} has {} test purpose goals",
                    path.display(),
                    all.len()
                )),
            };
        };
        let hits: Vec<&(String, String, String)> = goals
            .iter()
            .filter(|(p, gl, _)| g == *gl || g == format!("{p}.{gl}"))
            .collect();
        match hits.as_slice() {
            // a goal model's own name (`Purp1_m1`) is taken as is
            [] if !txs || all.iter().any(|(_, _, m)| *m == g) => Ok(Some(g)),
            [] if all.is_empty() => Err(miette!(
                help = "a PURPDEF left out is named in a warning above; else give the file that \
                        has the PURPDEF with --purpose",
                "{}: no PURPDEF of these files has a GOAL `{g}` (--goal): they have no PURPDEF \
                 that loads",
                path.display()
            )),
            // a TorXakis purpose file: say it in its terms, with the PURPDEF's goals
            [] => {
                let of_purpose: Vec<&(String, String, String)> =
                    all.iter().copied().filter(|(p, _, _)| *p == g).collect();
                if let [(_, _, m)] = of_purpose.as_slice() {
                    // a PURPDEF of one GOAL, named as TorXakis's `tester` names it
                    Ok(Some(m.clone()))
                } else if of_purpose.is_empty() {
                    Err(miette!(
                        help = format!(
                            "the GOALs of the PURPDEFs (PURPDEF.GOAL): {}",
                            qualified(&all)
                        ),
                        "{}: no PURPDEF has a GOAL `{g}` (--goal)",
                        path.display()
                    ))
                } else {
                    Err(miette!(
                        help = format!(
                            "TorXakis's `tester MODEL {g} SUT` tests its goals together; ioco \
                             tests one GOAL per session: --goal {}",
                            qualified(&of_purpose).replace(", ", " or --goal ")
                        ),
                        "{}: `{g}` is a PURPDEF of {} GOALs; --goal names one of them",
                        path.display(),
                        of_purpose.len()
                    ))
                }
            }
            [(_, _, m)] => Ok(Some(m.clone())),
            _ => Err(miette!(
                help = format!("name it with its purpose: {}", qualified(&hits)),
                "{}: {} purposes have a goal `{g}` (--goal)",
                path.display(),
                hits.len()
            )),
        }
    }

    /// Without `--entry`, the `MODELDEF` that `--cnect NAME` connects, when `NAME` is a
    /// `CNECTDEF` of these files (`ioco test Adder.txs --cnect Sut3` tests `Adder3`).
    fn cnect_entry(
        &self,
        lowered: &ioco_txs::lower::Lowered,
        path: &Path,
    ) -> Result<Option<String>> {
        if self.entry.clone().is_some() {
            return Ok(None);
        }
        let Some(name) = self.cnect.clone() else {
            return Ok(None);
        };
        ioco_load::cnect::model_for(lowered, &name).map_err(|e| {
            miette!(
                help = "name the MODELDEF to test with --entry, and a CNECTDEF that connects it \
                        with --cnect",
                "{}: {e}",
                path.display()
            )
        })
    }

    /// A `.txs` model (with the `--with` files) and its entry as [`Loader::parse_ioco`] chooses it
    /// (`--entry`, else the `MODELDEF` `--cnect` connects, else the first `MODELDEF`): what the
    /// `CNECTDEF` adapter is made for, so that it serves the model every command tests.
    pub fn txs_entry(&self, path: &Path) -> Result<(ioco_txs::TxsModel, Arc<Spec>)> {
        let mut t = self.parse_txs(path)?;
        let wanted = match self.entry.clone() {
            Some(e) => Some(e),
            None => self.cnect_entry(&t.lowered, path)?,
        };
        let modeldefs = Some(modeldef_names(&t.lowered));
        t.model = select_entry(t.model, path, wanted, "--entry", modeldefs)?;
        let spec = entry(&t.model, path)?;
        Ok((t, spec))
    }
}

/// The TorXakis names of the `MODELDEF`s of lowered `.txs` files, sorted.
fn modeldef_names(lowered: &ioco_txs::lower::Lowered) -> Vec<String> {
    let mut names: Vec<String> = lowered.models.iter().map(|m| m.txs_name.clone()).collect();
    names.sort();
    names
}

/// Makes the model or system `wanted` (given with `flag`) the program's entry point; for a
/// `.txs` specification `modeldefs` are its `MODELDEF`s, named in the error instead of the
/// lowered models.
fn select_entry(
    mut model: ioco_lang::Model,
    path: &Path,
    wanted: Option<String>,
    flag: &str,
    modeldefs: Option<Vec<String>>,
) -> Result<ioco_lang::Model> {
    let Some(name) = wanted else {
        return Ok(model);
    };
    match model.program.specs.iter().position(|s| s.name == name) {
        Some(i) => {
            model.program.entry = Some(i);
            Ok(model)
        }
        None if modeldefs.is_some() => {
            let names = modeldefs.unwrap_or_default();
            Err(miette!(
                help = if names.is_empty() {
                    "these files have no MODELDEF: add one, or give the file that has it \
                     first and this one with --with"
                        .to_string()
                } else {
                    format!("the MODELDEFs of these files: {}", names.join(", "))
                },
                "{} has no MODELDEF named `{}` ({flag})",
                path.display(),
                name
            ))
        }
        None => {
            let mut names: Vec<&str> = model
                .program
                .specs
                .iter()
                .map(|s| s.name.as_str())
                .filter(|n| !n.starts_with('#'))
                .collect();
            names.sort();
            Err(miette!(
                help = format!("the models and systems of this file: {}", names.join(", ")),
                "{} has no model or system named `{}` ({flag})",
                path.display(),
                name
            ))
        }
    }
}

/// The entry point of a parsed `.ioco` model.
pub fn entry(model: &ioco_lang::Model, path: &Path) -> Result<Arc<Spec>> {
    let spec = model.entry().ok_or_else(|| {
        if is_txs(path) {
            // in TorXakis's terms: what is tested is a MODELDEF
            miette!(
                help = "add a `MODELDEF M ::= CHAN IN … CHAN OUT … BEHAVIOUR … ENDDEF` \
                        (its BEHAVIOUR may call a PROCDEF), or give the file that has one \
                        first and this one with --with",
                "{} has no MODELDEF to test",
                path.display()
            )
        } else {
            miette!(
                help = "add a `model` without parameters or a `system`, or mark one with `@main`",
                "{} has no model to test",
                path.display()
            )
        }
    })?;
    Ok(Arc::new(spec.clone()))
}

impl Loader {
    /// Loads the entry point of a `.ioco` file (warnings printed by [`Loader::parse_ioco`]).
    pub fn load_spec(&self, path: &Path) -> Result<Arc<Spec>> {
        entry(&self.parse_ioco(path)?, path)
    }

    /// The spec to test symbolically, with the reason: a `.ioco` or `.txs` model that the default
    /// choice (`ioco_load::engine::choose`: symbolic where the values reached are not finitely
    /// many) or `force` gives to the symbolic engine. A model that does not load is an error.
    pub fn data_spec(&self, path: &Path, force: bool) -> Result<Option<(Arc<Spec>, String)>> {
        if !is_lang(path) {
            if force {
                return Err(miette!(
                    help = "the symbolic engine reads .ioco models",
                    "--engine symbolic needs a .ioco model, not {}",
                    path.display()
                ));
            }
            return Ok(None);
        }
        let spec = self.load_spec(path)?;
        if force {
            let why = infinite_data(&spec).unwrap_or_else(|| "--engine symbolic".into());
            return Ok(Some((spec, why)));
        }
        let choice = ioco_load::engine::choose(&spec);
        match (choice.engine, choice.infinite) {
            (ioco_load::engine::Engine::Symbolic, Some(why)) => Ok(Some((spec, why))),
            (_, Some(_)) if choice.explicit_states.is_none() => {
                // The default engine for infinite data cannot take the model (a `@sync` set
                // mixing inputs and outputs): the explicit engine can when the values reached are
                // finitely many.
                errln!(
                    "note: {}: the symbolic engine does not apply ({}); testing with the explicit \
                     engine, which needs the values reached to be finitely many",
                    path.display(),
                    choice.symbolic_refuses.unwrap_or_default()
                );
                Ok(None)
            }
            _ => Ok(None),
        }
    }

    /// The spec for the symbolic engine under `--engine` (`None`: the default, chosen by what runs,
    /// `ioco_load::engine::choose`), or `None` for the explicit engine.
    pub fn engine_spec(
        &self,
        path: &Path,
        engine: Option<EngineArg>,
    ) -> Result<Option<(Arc<Spec>, String)>> {
        match engine {
            Some(EngineArg::Explicit) => Ok(None),
            Some(EngineArg::Symbolic) => self.data_spec(path, true),
            None => self.data_spec(path, false),
        }
    }

    /// The error of a command that needs an explicit (finite) model, given a `.ioco` model with
    /// infinite data: why, and what to do instead.
    pub fn needs_finite(&self, path: &Path, why: &str) -> Report {
        let bound = "bound the type (e.g. `int[0..10]` instead of `int`, docs/language.md §3) to \
                     get a finite model";
        match self.command {
            // these have a symbolic engine, which takes the model as it is: only their explicit
            // engine needs finite data
            c @ ("test" | "run" | "replay") => miette!(
                help = format!(
                    "the symbolic engine (the default for infinite data; `--engine symbolic`) takes \
                     the model as it is: leave out `--engine explicit`; or {bound}"
                ),
                "the explicit engine of `ioco {c}` needs a model with finite data, but {} has \
                 infinite data: {why}",
                path.display()
            ),
            c => miette!(
                help = format!(
                    "{bound}; `ioco check`, `show`, `test`, `replay`, `gen --method \
                     switch-coverage`, `gen --purpose` and `run` take the model as it is"
                ),
                "`ioco {c}` needs a model with finite data, but {} has infinite data: {why}",
                path.display()
            ),
        }
    }

    /// A `.ioco` model's entry point as an explicit LTS with its `@timeout`s. A model with types
    /// of infinitely many values translates when the values it reaches are finitely many; when it
    /// does not, the error says why and what to do.
    pub fn ioco_lts_timed(&self, path: &Path) -> Result<(Lts, ioco_lang::translate::Timing)> {
        let model = self.parse_ioco(path)?;
        ioco_lang::lts_timed_of(&model, &path.display().to_string()).map_err(|e| {
            match model.entry().and_then(infinite_data) {
                Some(why) => self.needs_finite(path, &format!("{why} ({e})")),
                None => e,
            }
        })
    }
}

/// A model must be a regular file: a FIFO (or socket, device) with no writer would block the
/// read forever, so it is refused at once (#35 item 6). A missing file is left to the reader's
/// own error.
pub fn refuse_special(path: &Path) -> Result<()> {
    use std::os::unix::fs::FileTypeExt;
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    let t = meta.file_type();
    let what = if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_dir() {
        "a directory"
    } else {
        return Ok(());
    };
    Err(miette!(
        help = "give a model file (.ioco, .aut, .dot, .json, .txs); to read a model from a \
                pipe, write it to a file first",
        "{} is {what}, not a regular file: ioco reads models from files only",
        path.display()
    ))
}

impl Loader {
    /// Load a model file (an LTS or a Mealy machine).
    pub fn load_model(&self, path: &Path) -> Result<Model> {
        refuse_special(path)?;
        if is_lang(path) {
            return self.ioco_lts_timed(path).map(|(lts, _)| Model::Lts(lts));
        }
        ioco_formats::load(path).map_err(|e| not_a_model(path).unwrap_or_else(|| Report::new(e)))
    }
}

/// Why a file ioco cannot read as a model is another file ioco writes (a test suite, a result,
/// a symbolic test graph), with the command that takes it; `None` for anything else (the
/// parser's own error then stands). Only asked after the model parser failed.
pub fn not_a_model(path: &Path) -> Option<Report> {
    let file = || std::fs::File::open(path).ok().map(std::io::BufReader::new);
    let shown = path.display();
    match ioco_gen::stream::format_of(file()?).as_deref() {
        Some(f @ "ioco-suite/1") => Some(miette!(
            help = format!(
                "run it with `ioco run MODEL {shown} --sut …` (MODEL: the specification it was \
                 generated from)"
            ),
            "{shown} is a test suite ({f}), not a model"
        )),
        Some(f @ "ioco-sts-suite/1") => Some(miette!(
            help = format!("run it with `ioco run {shown} --sut …` (it names its model)"),
            "{shown} is a switch-coverage test suite ({f}), not a model"
        )),
        Some(f)
            if f.starts_with("ioco-") && !f.starts_with("ioco-lts") && f != "ioco-suspension/1" =>
        {
            Some(miette!(
                help = "give the specification model (.ioco, .aut, .dot, .json of format \
                        ioco-lts/1, .txs)",
                "{shown} is a file of format {f}, not a model"
            ))
        }
        Some(_) => None,
        None => {
            // a result (`ioco test --json`) names no format: its fields tell it
            let v: serde_json::Value = serde_json::from_reader(file()?).ok()?;
            let o = v.as_object()?;
            (o.contains_key("verdict") && o.contains_key("runs")).then(|| {
                miette!(
                    help = format!(
                        "replay a run with `ioco replay MODEL {shown} --sut …`, or print its \
                         summary and reports with `ioco report {shown}`"
                    ),
                    "{shown} is the result of a test session (`--json`), not a model"
                )
            })
        }
    }
}

impl Loader {
    /// Load a model file and read it as an LTS (a Mealy machine via its input/output reading).
    pub fn load_lts(&self, path: &Path) -> Result<Lts> {
        self.load_model(path)?.into_lts().map_err(Report::new)
    }

    /// [`Loader::load_lts`] of a test purpose file: a `.ioco` or `.txs` one's entry is chosen by `--goal`
    /// ([`Loader::parse_purpose`]).
    pub fn purpose_lts(&self, path: &Path) -> Result<Lts> {
        if !is_lang(path) {
            return self.load_lts(path);
        }
        let model = self.parse_purpose(path)?;
        ioco_lang::lts_timed_of(&model, &path.display().to_string()).map(|(lts, _)| lts)
    }
}

/// `--engine`: which engine tests a model.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineArg {
    /// The model as an explicit LTS (suspension automaton); needs finite data.
    Explicit,
    /// The .ioco model symbolically (Z3 chooses input values, guards judge outputs).
    Symbolic,
}

impl EngineArg {
    /// The engine asked for: `--engine`, or `--symbolic` (its older spelling), or `None`
    /// (the default: explicit where the model's values reached are finitely many, else
    /// symbolic; `ioco_load::engine::choose`).
    pub fn pick(engine: Option<EngineArg>, symbolic: bool) -> Option<EngineArg> {
        engine.or(symbolic.then_some(EngineArg::Symbolic))
    }
}
