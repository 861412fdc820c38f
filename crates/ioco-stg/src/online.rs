//! The steering of a symbolic test graph with data (seed 004 §5, L850-877; notes §B2.3): the
//! tester's state in the product is concrete (the product location and the values of all
//! variables); inputs are **controlled**: their values are chosen inside the strengthened guard
//! `G ∧ K_t` (the abstract value bounds each parameter; every candidate is checked against the
//! exact guards of the specification and the purpose); outputs move the product or leave the
//! states that can reach accept.
//!
//! [`Steering`] is what a tester asks at each step; the run itself is the one loop of
//! `ioco_exec::engine` (its purpose selection), where the conformance oracle of
//! `ioco-symbolic` judges every output, so the steering never gives Fail:
//! * **Pass** when the product reaches an accept location;
//! * **Inconclusive** at a refuse location, when an output leaves `coreach^α` (rule Inconc of
//!   Table 3), when no input keeps accept reachable and the system stays quiescent, at the
//!   step bound, or when the concrete tracking is ambiguous (the paper assumes deterministic
//!   specifications: two switches enabled by one event end the run without a verdict).

use crate::domain::Domain;
use crate::select::TestGraph;
use ioco_lang::ast::BinOp;
use ioco_lang::ir::{Automaton, Defs, Direction, Env, Type, Value};
use ioco_lang::Model;
use ioco_symbolic::pick::Picker;
use ioco_symbolic::solver::Checker;
use ioco_symbolic::term::{instantiate, value_in_type, SymVar, Term, T};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The concrete state of the tester in the product `S × TP` (see the module documentation).
pub struct Steering<'a, D> {
    g: &'a TestGraph<D>,
    a: &'a Automaton,
    b: &'a Automaton,
    defs: &'a Defs,
    loc: usize,
    avals: Vec<Value>,
    bvals: Vec<Value>,
}

impl<'a, D: Domain> Steering<'a, D> {
    /// At the initial location of `g`, built from `spec` and `purpose`, with the initial values.
    pub fn new(g: &'a TestGraph<D>, spec: &'a Model, purpose: &'a Model) -> Result<Self, String> {
        let (Some(sa), Some(pa)) = (spec.entry(), purpose.entry()) else {
            return Err("no entry model".into());
        };
        let (Some(a), Some(b)) = (sa.as_single(), pa.as_single()) else {
            return Err("compositions are not supported".into());
        };
        Ok(Steering {
            g,
            a,
            b,
            defs: &sa.defs,
            loc: g.product.initial,
            avals: a.vars.iter().map(|v| v.init.clone()).collect(),
            bvals: b.vars.iter().map(|v| v.init.clone()).collect(),
        })
    }

    /// Back to the initial location and values.
    pub fn restart(&mut self) {
        self.loc = self.g.product.initial;
        self.avals = self.a.vars.iter().map(|v| v.init.clone()).collect();
        self.bvals = self.b.vars.iter().map(|v| v.init.clone()).collect();
    }

    /// The name of the current product location.
    pub fn location(&self) -> &str {
        &self.g.product.locations[self.loc].name
    }

    /// The current values of the specification's and the purpose's variables.
    pub fn values(&self) -> (&[Value], &[Value]) {
        (&self.avals, &self.bvals)
    }

    /// Whether the current location is an accept location of the purpose.
    pub fn accepted(&self) -> bool {
        self.g.product.locations[self.loc].accept
    }

    /// Whether the purpose only steers (no accept, [`crate::Product::steering`]).
    pub fn steering(&self) -> bool {
        self.g.product.steering
    }

    /// Whether the current location is a refuse location of the purpose.
    pub fn refused(&self) -> bool {
        self.g.product.locations[self.loc].refuse
    }

    /// Whether accept may still be reached with the current values (`coreach^α`).
    pub fn may_accept(&self) -> bool {
        self.point(&[])
            .is_none_or(|pt| self.g.coreach.values[self.loc].contains(&pt))
    }

    /// Whether firing transition `t` with `args` stays inside the states that can reach accept.
    pub fn stays_inside(&self, t: usize, args: &[Value]) -> bool {
        self.point(args)
            .is_none_or(|pt| self.g.kept[t].iter().any(|k| k.contains(&pt)))
    }

    fn purpose_env_vars(&self) -> Vec<Value> {
        self.bvals
            .iter()
            .enumerate()
            .map(
                |(i, v)| match self.g.product.observes.get(i).copied().flatten() {
                    Some(j) => self.avals[j].clone(),
                    None => v.clone(),
                },
            )
            .collect()
    }

    fn holds(&self, e: &ioco_lang::ir::Expr, vars: &[Value], params: &[Value]) -> bool {
        let env = Env {
            vars,
            params,
            locals: &[],
        };
        self.defs.eval(e, &env).ok().and_then(|v| v.as_bool()) == Some(true)
    }

    /// The product transitions from the current location that `gate(args)` fires.
    pub fn matching(&self, gate: &str, args: &[Value]) -> Vec<usize> {
        let p = &self.g.product;
        let bvars = self.purpose_env_vars();
        let pl = p.locations[self.loc].purpose;
        p.transitions_on(self.loc, gate)
            .into_iter()
            .filter(|&t| {
                let tr = &p.transitions[t];
                let s = &self.a.switches[tr.spec_switch];
                if !self.holds(&s.guard, &self.avals, args) {
                    return false;
                }
                match tr.purpose_switch {
                    Some(k) => self.holds(&self.b.switches[k].guard, &bvars, args),
                    None => !self.b.switches.iter().any(|s| {
                        s.from == pl
                            && s.gate
                                .is_some_and(|h| self.b.gates[h as usize].name == gate)
                            && self.holds(&s.guard, &bvars, args)
                    }),
                }
            })
            .collect()
    }

    /// The abstract point of the current variables and `args`.
    fn point(&self, args: &[Value]) -> Option<Vec<i64>> {
        let p = &self.g.product;
        let mut pt = vec![0; p.num_dims()];
        for (i, d) in p.spec_var_dims.iter().enumerate() {
            if let Some(d) = d {
                pt[*d] = self.avals[i].as_int()?;
            }
        }
        for (i, d) in p.purpose_var_dims.iter().enumerate() {
            if let (Some(d), None) = (d, p.observes.get(i).copied().flatten()) {
                pt[*d] = self.bvals[i].as_int()?;
            }
        }
        for (i, v) in args.iter().enumerate() {
            if let Some(x) = v.as_int() {
                pt[p.param_dim(i)] = x;
            }
        }
        Some(pt)
    }

    /// Fire transition `t` with `args`.
    pub fn fire(&mut self, t: usize, args: &[Value]) -> Result<(), String> {
        let tr = &self.g.product.transitions[t];
        let env_a = Env {
            vars: &self.avals,
            params: args,
            locals: &[],
        };
        let mut na = self.avals.clone();
        for (v, e) in &self.a.switches[tr.spec_switch].assign {
            na[*v as usize] = self.defs.eval(e, &env_a).map_err(|e| e.message)?;
        }
        if let Some(k) = tr.purpose_switch {
            let bvars = self.purpose_env_vars();
            let env_b = Env {
                vars: &bvars,
                params: args,
                locals: &[],
            };
            let mut nb = self.bvals.clone();
            for (v, e) in &self.b.switches[k].assign {
                nb[*v as usize] = self.defs.eval(e, &env_b).map_err(|e| e.message)?;
            }
            self.bvals = nb;
        }
        self.avals = na;
        self.loc = tr.to;
        Ok(())
    }

    /// An input transition and its values inside the strengthened guard, if any: for gates
    /// with integer parameters only, by the bounded search of [`TestGraph::choose_input`];
    /// otherwise (booleans, strings, data types), or when that search finds nothing, by the
    /// solver of `ioco-symbolic` (`checker`, with the `picker`'s hints, as its symbolic engine
    /// chooses inputs) under the specification's guard ∧ the purpose's guard (or the negation
    /// of the purpose's guards for its completion) ∧ one disjunct of `G ∧ K_t` on the integer
    /// parameters, every variable at its current value. Data-typed parameters have no
    /// dimension in the abstract domains (they are unconstrained there), so every candidate is
    /// checked against the exact guards and `coreach^α` before it is sent.
    pub fn choose_input_with(
        &self,
        checker: &mut Checker,
        picker: &mut Picker,
        rng: &mut ChaCha8Rng,
    ) -> Option<(usize, String, Vec<Value>)> {
        let p = &self.g.product;
        let pt = self.point(&[])?;
        // Transitions that move the purpose first (a purpose is completed by self-loops, which
        // keep accept reachable too but make no progress towards it), in product order.
        let here = p.locations[self.loc].purpose;
        let mut order: Vec<usize> = (0..p.transitions.len())
            .filter(|&t| p.transitions[t].from == self.loc)
            .collect();
        order.sort_by_key(|&t| {
            let tr = &p.transitions[t];
            (
                tr.purpose_switch.is_none(),
                p.locations[tr.to].purpose == here,
            )
        });
        for t in order {
            let tr = &p.transitions[t];
            let Some((gate, Direction::Input)) = &tr.gate else {
                continue;
            };
            if self.g.kept[t].is_empty() {
                continue;
            }
            if let Some(found) = self.choose_int(t, gate, &pt) {
                return Some(found);
            }
            if let Some(args) = self.choose_solved(t, gate, &pt, checker, picker, rng) {
                return Some((t, gate.clone(), args));
            }
        }
        None
    }

    /// The solver's choice for input transition `t` (see [`Steering::choose_input_with`]).
    fn choose_solved(
        &self,
        t: usize,
        gate: &str,
        pt: &[i64],
        checker: &mut Checker,
        picker: &mut Picker,
        rng: &mut ChaCha8Rng,
    ) -> Option<Vec<Value>> {
        let p = &self.g.product;
        let tr = &p.transitions[t];
        let gi = self.a.gate(gate)? as usize;
        let types: Vec<Type> = self.a.gates[gi].params.iter().map(|(_, ty)| *ty).collect();
        let syms: Vec<SymVar> = types
            .iter()
            .enumerate()
            .map(|(i, ty)| SymVar::at(&format!("stg_p{i}"), 0, *ty))
            .collect();
        let params: Vec<T> = syms.iter().cloned().map(Term::sym).collect();
        let consts = |vs: &[Value]| -> Vec<T> { vs.iter().cloned().map(Term::val).collect() };
        let defs = self.defs;
        let spec_guard = instantiate(
            defs,
            &self.a.switches[tr.spec_switch].guard,
            &consts(&self.avals),
            &params,
        );
        let bvars = consts(&self.purpose_env_vars());
        let pl = p.locations[self.loc].purpose;
        let purpose_guard = match tr.purpose_switch {
            Some(k) => instantiate(defs, &self.b.switches[k].guard, &bvars, &params),
            None => Term::and_all(
                self.b
                    .switches
                    .iter()
                    .filter(|s| {
                        s.from == pl
                            && s.gate
                                .is_some_and(|h| self.b.gates[h as usize].name == gate)
                    })
                    .map(|s| Term::negate(instantiate(defs, &s.guard, &bvars, &params))),
            ),
        };
        let base = Term::and(spec_guard, purpose_guard);
        for k in &self.g.kept[t] {
            let phi = Term::and(base.clone(), self.linear_term(k, pt, &types, &params));
            let Ok(args) = checker.values_pooled(defs, &phi, &syms, rng, |rng| {
                picker.hints(defs, &phi, &syms, rng)
            }) else {
                continue;
            };
            let fits = types
                .iter()
                .zip(&args)
                .all(|(ty, v)| value_in_type(defs, *ty, v));
            if fits && self.matching(gate, &args) == vec![t] && self.stays_inside(t, &args) {
                return Some(args);
            }
        }
        None
    }

    /// The constraints of the abstract value `k` on the integer parameters, the variables at
    /// the point `pt`, as a term (a constraint on anything else is left out: the candidate is
    /// checked against `k` afterwards).
    fn linear_term(&self, k: &D, pt: &[i64], types: &[Type], params: &[T]) -> T {
        let p = &self.g.product;
        let mut out = Vec::new();
        'cons: for c in k.constraints() {
            let mut constant = c.expr.constant;
            let mut sum: Option<T> = None;
            for &(d, a) in &c.expr.terms {
                if d < p.nvars {
                    match a.checked_mul(pt[d]).and_then(|x| constant.checked_add(x)) {
                        Some(x) => constant = x,
                        None => continue 'cons,
                    }
                    continue;
                }
                let i = d - p.nvars;
                if d >= p.nvars + p.nparams
                    || !matches!(types.get(i), Some(Type::Int | Type::Range(..)))
                {
                    continue 'cons;
                }
                let x = Arc::new(Term::Binary(BinOp::Mul, Term::int(a), params[i].clone()));
                sum = Some(match sum {
                    None => x,
                    Some(s) => Arc::new(Term::Binary(BinOp::Add, s, x)),
                });
            }
            let Some(sum) = sum else {
                continue;
            };
            // Σ a·p + constant ≤ 0
            out.push(Arc::new(Term::Binary(
                BinOp::Le,
                sum,
                Term::int(constant.checked_neg().unwrap_or(i64::MAX)),
            )));
        }
        Term::and_all(out)
    }

    /// The bounded search of [`TestGraph::choose_input`] for transition `t` when all the
    /// parameters of its gate are integers.
    fn choose_int(&self, t: usize, gate: &str, pt: &[i64]) -> Option<(usize, String, Vec<Value>)> {
        let p = &self.g.product;
        let gi = self.a.gate(gate)? as usize;
        if self.a.gates[gi]
            .params
            .iter()
            .any(|(_, ty)| !matches!(ty, Type::Int | Type::Range(..)))
        {
            return None;
        }
        let ps = self.g.choose_input(t, &pt[..p.nvars], |ps| {
            let args: Vec<Value> = ps.iter().map(|&x| Value::Int(x)).collect();
            self.a.gates[gi]
                .params
                .iter()
                .zip(&args)
                .all(|((_, ty), v)| self.defs.contains(*ty, v))
                && self.matching(gate, &args) == vec![t]
        })?;
        Some((
            t,
            gate.to_string(),
            ps.into_iter().map(Value::Int).collect(),
        ))
    }

    /// An input transition and its values inside the strengthened guard, if any, for gates
    /// whose parameters are all integers (without a solver; see
    /// [`Steering::choose_input_with`] for the others).
    pub fn choose_input(&self) -> Option<(usize, String, Vec<Value>)> {
        let p = &self.g.product;
        let pt = self.point(&[])?;
        (0..p.transitions.len()).find_map(|t| {
            let tr = &p.transitions[t];
            match &tr.gate {
                Some((gate, Direction::Input))
                    if tr.from == self.loc && !self.g.kept[t].is_empty() =>
                {
                    self.choose_int(t, gate, &pt)
                }
                _ => None,
            }
        })
    }
}
