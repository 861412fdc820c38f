//! The product of a specification STS and a symbolic test purpose (seed 004 Def. 7 and the
//! conventions of L523-537; Table 3 step 1), over linear integer abstractions of the guards
//! and updates ([`crate::linear`]).
//!
//! Both are `.ioco` models (one automaton each). The purpose:
//! * **observes** the specification's variables: a purpose variable with the name of a
//!   specification variable is that variable (it may be read, not assigned); other purpose
//!   variables are its own (proper) variables;
//! * marks its accept sinks by locations named `accept…` (Pass) and its refuse sinks by
//!   `refuse…`; both have no outgoing transitions in the product;
//! * is **completed** (004 Def. 4, "complete except in Accept"): at a purpose location, a gate
//!   with switches `g1 … gn` also stays where it is under `¬(g1 ∨ … ∨ gn)`, and a gate with no
//!   switch there stays under `true`. τ steps of the specification move alone.
//!
//! Parameters of bounded types (`int[lo..hi]`) are constrained to their range. Gate
//! parameters are matched by position (the purpose's `OK!(q)` names the same first
//! parameter as the specification's `OK!(p)`).
//!
//! Dimensions of the abstract values: the integer variables (specification, then the purpose's
//! own), then the gate parameters `p0, p1, …` (as many as the widest gate), then one scratch
//! dimension per variable (used for backward assignment, see [`crate::coreach`]).

use crate::linear::{dnf, dnf_none_of, linear, DimMap, Dnf, LinCons, LinExpr};
use ioco_lang::ir::{Automaton, Direction, Type};
use ioco_lang::Model;
use std::collections::HashMap;
use std::fmt;

/// A location of the product: a pair of a specification and a purpose location.
#[derive(Clone, Debug)]
pub struct Location {
    /// `(Spec,Purpose)` by name.
    pub name: String,
    /// The specification location.
    pub spec: u32,
    /// The purpose location.
    pub purpose: u32,
    /// The purpose accepts here (Pass).
    pub accept: bool,
    /// The purpose refuses here (Inconclusive).
    pub refuse: bool,
    /// A location the analysis steers towards (`coreach` of these): the accept locations, or,
    /// for a steering purpose ([`Product::steering`]), every location but refuse.
    pub target: bool,
}

/// A transition of the product: `gate(p) : guard ? assign` from `from` to `to`.
#[derive(Clone, Debug)]
pub struct Transition {
    /// Source location (index into [`Product::locations`]).
    pub from: usize,
    /// Target location.
    pub to: usize,
    /// The gate and its direction; `None` for τ.
    pub gate: Option<(String, Direction)>,
    /// The number of gate parameters.
    pub arity: usize,
    /// The guard (specification guard ∧ purpose guard), over-approximated.
    pub guard: Dnf,
    /// Simultaneous assignment: dimension := expression (`None`: not linear, any value).
    pub assign: Vec<(usize, Option<LinExpr>)>,
    /// The specification switch (index into its automaton's switches).
    pub spec_switch: usize,
    /// The purpose switch (`None`: the completion).
    pub purpose_switch: Option<usize>,
}

/// The product S × TP.
#[derive(Clone, Debug)]
pub struct Product {
    /// Names of the dimensions (variables, parameters `p0…`, scratch `'x…`).
    pub dims: Vec<String>,
    /// Number of variable dimensions.
    pub nvars: usize,
    /// Number of parameter dimensions.
    pub nparams: usize,
    /// Locations; `initial` is the pair of initial locations.
    pub locations: Vec<Location>,
    /// The initial location.
    pub initial: usize,
    /// The initial value of each variable dimension (`None`: not an integer constant).
    pub init: Vec<Option<i64>>,
    /// Transitions.
    pub transitions: Vec<Transition>,
    /// The dimension of each specification variable (`None`: not an integer).
    pub spec_var_dims: Vec<Option<usize>>,
    /// The dimension of each purpose variable (observed ones share the specification's).
    pub purpose_var_dims: Vec<Option<usize>>,
    /// For each purpose variable, the specification variable it observes.
    pub observes: Vec<Option<usize>>,
    /// A steering purpose: one without accept locations (a TorXakis `GOAL` without `HIT`,
    /// [`Product::new_steering`]). It is not completed: inputs are chosen among its steps
    /// and an output it does not offer leaves it (TorXakis: the goal is missed); no run
    /// reaches accept, a run that ends at its step bound inside the purpose passes, as a run
    /// without purpose does.
    pub steering: bool,
}

/// A product that cannot be built (with the source location where there is one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProductError {
    /// What is wrong, with `file:line:col` where known.
    pub message: String,
    /// How to fix it.
    pub hint: String,
}

impl fmt::Display for ProductError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\nhint: {}", self.message, self.hint)
    }
}

impl std::error::Error for ProductError {}

#[derive(Clone)]
struct Dims {
    vars: Vec<Option<usize>>,
    params_at: usize,
    /// Per parameter of the gate at hand: an integer (it has a dimension). Parameters of
    /// other types (booleans, strings, data types) have none: every atom on them is `true`.
    int_params: Vec<bool>,
}

impl DimMap for Dims {
    fn var(&self, v: u32) -> Option<usize> {
        self.vars.get(v as usize).copied().flatten()
    }
    fn param(&self, i: u32) -> Option<usize> {
        self.int_params
            .get(i as usize)
            .copied()
            .unwrap_or(false)
            .then_some(self.params_at + i as usize)
    }
}

impl Dims {
    /// This map for the parameters of `gate` (none for τ).
    fn at(&self, gate: Option<&ioco_lang::ir::Gate>) -> Dims {
        Dims {
            int_params: gate
                .map(|g| g.params.iter().map(|(_, t)| is_int(*t)).collect())
                .unwrap_or_default(),
            ..self.clone()
        }
    }
}

fn is_int(t: Type) -> bool {
    matches!(t, Type::Int | Type::Range(..))
}

fn single<'a>(m: &'a Model, what: &str) -> Result<&'a Automaton, ProductError> {
    let spec = m.entry().ok_or_else(|| ProductError {
        message: format!("the {what} file has no model"),
        hint: "add a `model` without parameters, or mark one with `@main`".into(),
    })?;
    if !spec.sync.is_empty() {
        return Err(ProductError {
            message: format!(
                "the {what} `{}` declares `@sync` multi-actions, which symbolic test purposes do not support",
                spec.name
            ),
            hint: "test the model with the explicit engine (`ioco test`)".into(),
        });
    }
    let a = spec.as_single().ok_or_else(|| ProductError {
        message: format!(
            "the {what} `{}` is a composition; symbolic test purposes need one automaton",
            spec.name
        ),
        hint: "select a single model with `@main`; for a TorXakis GOAL, write it as one \
               sequential process (`>->`, `##`, guards and recursion), without `|||`, `||`, \
               `|[...]|`, `HIDE`, `>>>`, `[>>` or `[><` (for `P >>> Q`, put Q after each `EXIT` \
               of P)"
            .into(),
    })?;
    if let Some(sw) = a.switches.iter().find(|sw| !sw.also.is_empty()) {
        return Err(ProductError {
            message: format!(
                "{}: the {what} `{}` has a multi-action (`a? | b?`), which symbolic test purposes do not support",
                m.sources.location(sw.span),
                a.name
            ),
            hint: "write the gates as consecutive switches, or test the model with the explicit engine (`ioco test`)".into(),
        });
    }
    Ok(a)
}

impl Product {
    /// Build the product of the entry models of two checked `.ioco` files.
    pub fn new(spec: &Model, purpose: &Model) -> Result<Product, ProductError> {
        Product::new_steering(spec, purpose, false)
    }

    /// [`Product::new`]; with `steer`, a purpose without accept locations is a steering
    /// purpose ([`Product::steering`]) rather than an error (TorXakis's goals that only
    /// steer, such as LuckyPeople's `luckyByGender`).
    pub fn new_steering(
        spec: &Model,
        purpose: &Model,
        steer: bool,
    ) -> Result<Product, ProductError> {
        Product::build(spec, purpose, steer, true)
    }

    /// The product of a TorXakis `GOAL` with its `MODELDEF` ([`Product::new_steering`] with
    /// `steer`): a goal has a scope of its own, so its variables observe nothing of the
    /// specification, even where their names meet (a goal `output(n)` over a model whose
    /// process has a parameter `n` has two variables `n`).
    pub fn new_torxakis(spec: &Model, purpose: &Model) -> Result<Product, ProductError> {
        Product::build(spec, purpose, true, false)
    }

    /// [`Product::new_steering`]; `observe`: a purpose variable named as a specification
    /// variable is that variable.
    fn build(
        spec: &Model,
        purpose: &Model,
        steer: bool,
        observe: bool,
    ) -> Result<Product, ProductError> {
        let a = single(spec, "specification")?;
        let b = single(purpose, "test purpose")?;
        let adefs = &spec.entry().expect("checked by single").defs;
        let bdefs = &purpose.entry().expect("checked by single").defs;
        let loc = |m: &Model, span| m.sources.location(span);
        // Variables.
        let mut dims = Vec::new();
        let mut init = Vec::new();
        let mut avars = Vec::new();
        for v in &a.vars {
            if is_int(v.ty) {
                avars.push(Some(dims.len()));
                dims.push(v.name.clone());
                init.push(v.init.as_int());
            } else {
                avars.push(None);
            }
        }
        let mut bvars = Vec::new();
        let mut observed = Vec::new();
        let mut observes = Vec::new();
        for v in &b.vars {
            let same = a.vars.iter().position(|w| w.name == v.name);
            if let Some(i) = same.filter(|_| observe) {
                if a.vars[i].ty != v.ty && !(is_int(a.vars[i].ty) && is_int(v.ty)) {
                    return Err(ProductError {
                        message: format!(
                            "{}: purpose variable `{}` observes the specification's `{}`, but the types differ",
                            loc(purpose, v.span),
                            v.name,
                            v.name
                        ),
                        hint: "give it the specification's type, or another name".into(),
                    });
                }
                bvars.push(avars[i]);
                observed.push(true);
                observes.push(Some(i));
            } else if is_int(v.ty) {
                bvars.push(Some(dims.len()));
                // a name the specification has too is the purpose's own (`tp.n`)
                dims.push(match same {
                    Some(_) => format!("tp.{}", v.name),
                    None => v.name.clone(),
                });
                init.push(v.init.as_int());
                observed.push(false);
                observes.push(None);
            } else {
                bvars.push(None);
                observed.push(false);
                observes.push(None);
            }
        }
        let nvars = dims.len();
        let nparams = a
            .gates
            .iter()
            .chain(&b.gates)
            .map(|g| g.params.len())
            .max()
            .unwrap_or(0);
        for i in 0..nparams {
            dims.push(format!("p{i}"));
        }
        for i in 0..nvars {
            let n = format!("'{}", dims[i]);
            dims.push(n);
        }
        let amap = Dims {
            vars: avars,
            params_at: nvars,
            int_params: Vec::new(),
        };
        let bmap = Dims {
            vars: bvars,
            params_at: nvars,
            int_params: Vec::new(),
        };
        // Gates of the purpose must be gates of the specification.
        for g in &b.gates {
            match a.gate(&g.name).map(|i| &a.gates[i as usize]) {
                None => {
                    return Err(ProductError {
                        message: format!(
                            "{}: purpose gate `{}` is not a gate of the specification `{}`",
                            loc(purpose, g.span),
                            g.name,
                            a.name
                        ),
                        hint: format!(
                            "its gates are {}",
                            a.gates
                                .iter()
                                .map(|g| g.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    })
                }
                Some(h)
                    if h.dir != g.dir
                        || h.params.len() != g.params.len()
                        || h.params.iter().zip(&g.params).any(|((_, x), (_, y))| {
                            adefs.type_name(*x) != bdefs.type_name(*y)
                        }) =>
                {
                    return Err(ProductError {
                        message: format!(
                            "{}: purpose gate `{}` differs from the specification's (direction, number or types of parameters)",
                            loc(purpose, g.span),
                            g.name
                        ),
                        hint: format!("declare it as at {}", loc(spec, h.span)),
                    })
                }
                _ => {}
            }
        }
        for (m, aut) in [(spec, a), (purpose, b)] {
            if let Some(s) = aut.switches.iter().find(|s| !s.also.is_empty()) {
                return Err(ProductError {
                    message: format!(
                        "{}: multi-actions are not supported by symbolic test purposes",
                        loc(m, s.span)
                    ),
                    hint: "split the multi-action into single gates".into(),
                });
            }
        }
        for (i, s) in b.switches.iter().enumerate() {
            for (v, _) in &s.assign {
                if observed[*v as usize] {
                    return Err(ProductError {
                        message: format!(
                            "{}: the purpose assigns `{}`, a variable it observes in the specification",
                            loc(purpose, b.switches[i].span),
                            b.vars[*v as usize].name
                        ),
                        hint: "a purpose may only read the specification's variables".into(),
                    });
                }
            }
        }
        if let Some(m) = defs_mismatch(adefs, bdefs) {
            return Err(ProductError {
                message: format!(
                    "{}: the test purpose `{}` declares its data types or functions unlike the specification `{}` ({m})",
                    loc(purpose, b.span),
                    b.name,
                    a.name
                ),
                hint: "declare the specification's types and functions first, in its order (or import its file)".into(),
            });
        }
        let name_of = |sl: u32, pl: u32| {
            format!(
                "({},{})",
                a.locations[sl as usize].name, b.locations[pl as usize].name
            )
        };
        let accepting = |pl: u32| b.locations[pl as usize].name.starts_with("accept");
        let refusing = |pl: u32| b.locations[pl as usize].name.starts_with("refuse");
        let steering = steer && !(0..b.locations.len() as u32).any(accepting);
        if !steering && !(0..b.locations.len() as u32).any(accepting) {
            return Err(ProductError {
                message: format!(
                    "{}: the test purpose `{}` has no location named `accept…`",
                    loc(purpose, b.span),
                    b.name
                ),
                hint: "name the locations to reach `accept` (and those to avoid `refuse`)".into(),
            });
        }
        let mut p = Product {
            dims,
            nvars,
            nparams,
            locations: Vec::new(),
            initial: 0,
            init,
            transitions: Vec::new(),
            spec_var_dims: amap.vars.clone(),
            purpose_var_dims: bmap.vars.clone(),
            observes,
            steering,
        };
        let mut index: HashMap<(u32, u32), usize> = HashMap::new();
        let mut intern = |p: &mut Product, sl: u32, pl: u32| -> usize {
            *index.entry((sl, pl)).or_insert_with(|| {
                p.locations.push(Location {
                    name: name_of(sl, pl),
                    spec: sl,
                    purpose: pl,
                    accept: accepting(pl),
                    refuse: refusing(pl),
                    target: accepting(pl) || (steering && !refusing(pl)),
                });
                p.locations.len() - 1
            })
        };
        intern(&mut p, a.initial, b.initial);
        let assigns = |map: &Dims, aut: &Automaton, k: usize| -> Vec<(usize, Option<LinExpr>)> {
            aut.switches[k]
                .assign
                .iter()
                .filter_map(|(v, e)| map.var(*v).map(|d| (d, linear(e, map))))
                .collect()
        };
        let mut i = 0;
        while i < p.locations.len() {
            let (sl, pl) = (p.locations[i].spec, p.locations[i].purpose);
            let sink = p.locations[i].accept || p.locations[i].refuse;
            i += 1;
            if sink {
                continue;
            }
            let from = i - 1;
            for (k, s) in a.switches.iter().enumerate().filter(|(_, s)| s.from == sl) {
                let agate = s.gate.map(|g| &a.gates[g as usize]);
                let (amap, bmap) = (amap.at(agate), bmap.at(agate));
                let sg = dnf(&s.guard, false, &amap);
                if sg.is_empty() {
                    continue;
                }
                let sa = assigns(&amap, a, k);
                let Some(g) = s.gate else {
                    let to = intern(&mut p, s.to, pl);
                    p.transitions.push(Transition {
                        from,
                        to,
                        gate: None,
                        arity: 0,
                        guard: sg,
                        assign: sa,
                        spec_switch: k,
                        purpose_switch: None,
                    });
                    continue;
                };
                let gate = &a.gates[g as usize];
                // Parameters of bounded types stay in their range (a sound strengthening).
                let mut ranges = Vec::new();
                for (i, (_, ty)) in gate.params.iter().enumerate() {
                    if let Type::Range(lo, hi) = ty {
                        let d = LinExpr::var(nvars + i);
                        ranges.extend(LinCons::le(&LinExpr::constant(*lo), &d));
                        ranges.extend(LinCons::le(&d, &LinExpr::constant(*hi)));
                    }
                }
                let sg = conj(&sg, &vec![ranges]);
                let matching: Vec<(usize, &ioco_lang::ir::Switch)> = b
                    .switches
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| {
                        t.from == pl
                            && t.gate
                                .is_some_and(|h| b.gates[h as usize].name == gate.name)
                    })
                    .collect();
                let emit = |p: &mut Product, to, guard: Dnf, pk: Option<usize>| {
                    if guard.is_empty() {
                        return;
                    }
                    let mut assign = sa.clone();
                    if let Some(pk) = pk {
                        assign.extend(assigns(&bmap, b, pk));
                    }
                    p.transitions.push(Transition {
                        from,
                        to,
                        gate: Some((gate.name.clone(), gate.dir)),
                        arity: gate.params.len(),
                        guard,
                        assign,
                        spec_switch: k,
                        purpose_switch: pk,
                    });
                };
                for &(pk, t) in &matching {
                    let guard = conj(&sg, &dnf(&t.guard, false, &bmap));
                    let to = intern(&mut p, s.to, t.to);
                    emit(&mut p, to, guard, Some(pk));
                }
                let guards: Vec<&ioco_lang::ir::Expr> =
                    matching.iter().map(|(_, t)| &t.guard).collect();
                let rest = conj(&sg, &dnf_none_of(&guards, &bmap));
                if !steering {
                    let to = intern(&mut p, s.to, pl);
                    emit(&mut p, to, rest, None);
                }
            }
        }
        Ok(p)
    }

    /// Total number of dimensions (variables, parameters, scratch).
    pub fn num_dims(&self) -> usize {
        2 * self.nvars + self.nparams
    }

    /// The dimension of gate parameter `i`.
    pub fn param_dim(&self, i: usize) -> usize {
        self.nvars + i
    }

    /// The scratch dimension of variable dimension `v`.
    pub fn scratch_dim(&self, v: usize) -> usize {
        self.nvars + self.nparams + v
    }

    /// The location with this name (`(Spec,Purpose)`).
    pub fn location(&self, name: &str) -> Option<usize> {
        self.locations.iter().position(|l| l.name == name)
    }

    /// The transitions from location `from` on `gate`.
    pub fn transitions_on(&self, from: usize, gate: &str) -> Vec<usize> {
        (0..self.transitions.len())
            .filter(|&t| {
                self.transitions[t].from == from
                    && self.transitions[t]
                        .gate
                        .as_ref()
                        .is_some_and(|g| g.0 == gate)
            })
            .collect()
    }

    /// The initial valuation of the variables (unknown initial values as 0 are not allowed:
    /// `None` if some variable has no integer initial value).
    pub fn initial_point(&self) -> Option<Vec<i64>> {
        let mut v = vec![0; self.num_dims()];
        for (d, x) in self.init.iter().enumerate() {
            v[d] = (*x)?;
        }
        Some(v)
    }
}

fn conj(a: &Dnf, b: &Dnf) -> Dnf {
    let mut out = Vec::new();
    for x in a {
        for y in b {
            let mut c = x.clone();
            c.extend(y.iter().cloned());
            out.push(c);
        }
    }
    if out.len() > crate::linear::MAX_DISJUNCTS {
        vec![vec![]]
    } else {
        out
    }
}

/// Why the purpose's types and functions do not agree with the specification's, if they do
/// not: the purpose's guards are evaluated and handed to the solver with the specification's
/// definitions, so each type and function of the purpose must be the specification's one at
/// the same index.
fn defs_mismatch(a: &ioco_lang::ir::Defs, b: &ioco_lang::ir::Defs) -> Option<String> {
    for (i, t) in b.types.iter().enumerate() {
        match a.types.get(i) {
            Some(u) if u.name == t.name && u.ctors == t.ctors => {}
            Some(u) => return Some(format!("type `{}` where it has `{}`", t.name, u.name)),
            None => return Some(format!("type `{}` that it lacks", t.name)),
        }
    }
    for (i, f) in b.functions.iter().enumerate() {
        match a.functions.get(i) {
            Some(g) if g.name == f.name && g.params == f.params && g.ret == f.ret => {}
            Some(g) => return Some(format!("function `{}` where it has `{}`", f.name, g.name)),
            None => return Some(format!("function `{}` that it lacks", f.name)),
        }
    }
    for (i, r) in b.regexes.iter().enumerate() {
        if a.regexes.get(i) != Some(r) {
            return Some(format!(
                "regular expression /{}/ in another order",
                r.source
            ));
        }
    }
    None
}
