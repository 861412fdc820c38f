//! Which engine tests a model, chosen once, by what runs (issue #31): the explicit engine (the
//! model's LTS and its suspension automaton, tutorial §6) wherever the model has one, the
//! symbolic engine (TAP19: Z3 chooses input values, outputs are judged against the guards)
//! where it has not.
//!
//! A model whose types have finitely many values has an LTS. A model with a type of infinitely
//! many values (`int`, a string, a recursive type such as a list) may still reach finitely
//! many: TorXakis's DisPro12, with a set of job ids as a recursive type, reaches 195 states.
//! Its LTS is explored within [`PROBE`] (a bounded exploration, a few milliseconds where it
//! fails early and well under a second where it does not); when it is found, the explicit
//! engine runs it, which is much faster than solving every step (38× on DisPro12). A model
//! that reaches more than the probe's bounds, or values that cannot be enumerated, is tested
//! symbolically. `--engine` overrides the choice.

use ioco_lang::ir::{Spec, Type};
use ioco_lang::translate;
use std::sync::Arc;

/// An engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The model as an explicit LTS (suspension automaton).
    Explicit,
    /// The model symbolically (Z3).
    Symbolic,
}

impl Engine {
    /// `explicit` or `symbolic`.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Symbolic => "symbolic",
            Engine::Explicit => "explicit",
        }
    }
}

/// What runs a model, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The engine that tests the model.
    pub engine: Engine,
    /// The first gate parameter or variable whose type has infinitely many values, if any.
    pub infinite: Option<String>,
    /// The number of states of the model's LTS, where the probe found it (always for a model
    /// with finite types: then it was not probed and this is `None` too).
    pub explicit_states: Option<usize>,
    /// Why the symbolic engine does not take the model, if it does not.
    pub symbolic_refuses: Option<String>,
}

impl Choice {
    /// Which engine tests the model and whether the other applies, in words (`ioco check`);
    /// `explicit`: the model has an explicit LTS within the translation's bounds.
    pub fn describe(&self, explicit: bool) -> String {
        let symbolic = "symbolic (Z3 chooses input values and judges outputs against the guards)";
        match (
            &self.infinite,
            &self.symbolic_refuses,
            self.engine,
            explicit,
        ) {
            (Some(_), None, Engine::Symbolic, false) => {
                format!("{symbolic}; the explicit engine needs finite data")
            }
            (Some(_), None, Engine::Symbolic, true) => format!(
                "{symbolic}; `--engine explicit` also applies (the values reached are finitely \
                 many, but more than the default choice explores)"
            ),
            (Some(_), None, Engine::Explicit, _) => format!(
                "explicit: the types have infinitely many values, but the values reached are \
                 finitely many ({} states); `--engine symbolic` also applies",
                self.explicit_states.unwrap_or_default()
            ),
            (Some(_), Some(_), _, true) => "explicit (the values reached are finitely many; \
                                             the symbolic engine does not apply: see above)"
                .into(),
            (Some(_), Some(_), _, false) => {
                "none: the data is infinite and the symbolic engine does not apply (see above)"
                    .into()
            }
            (None, None, _, _) => "explicit (`--engine symbolic` also applies)".into(),
            (None, Some(_), _, _) => {
                "explicit (the symbolic engine does not apply, see above)".into()
            }
        }
    }
}

/// The bounds within which the LTS of a model with infinite types is looked for: a model that
/// reaches more is tested symbolically (`--engine explicit` translates it within the
/// translation's own, larger bounds).
pub const PROBE: translate::Options = translate::Options {
    max_states: 100_000,
    max_transitions: 1_000_000,
    max_state_cells: 2_000_000,
    max_values: 10_000,
    state_names: false,
};

/// Why a spec's data is infinite: the first gate parameter or variable whose values cannot be
/// enumerated, or `None`.
pub fn infinite_data(spec: &Spec) -> Option<String> {
    let finite = |ty: Type| spec.defs.enumerate(ty, 100_000).err();
    for g in &spec.gates {
        for (p, ty) in &g.params {
            if let Some(why) = finite(*ty) {
                return Some(format!("parameter `{p}` of gate `{}`: {why}", g.name));
            }
        }
    }
    for a in &spec.automata {
        for v in &a.vars {
            if let Some(why) = finite(v.ty) {
                return Some(format!("variable `{}` of `{}`: {why}", v.name, a.name));
            }
        }
    }
    None
}

/// The engine that tests `spec` by default: explicit for finite types, explicit for infinite
/// types when the values reached are finitely many (within [`PROBE`]), else symbolic when the
/// symbolic engine takes the model, else explicit (whose translation then says why it cannot).
pub fn choose(spec: &Arc<Spec>) -> Choice {
    let infinite = infinite_data(spec);
    let symbolic_refuses = || ioco_symbolic::System::new(spec.clone()).err();
    let Some(why) = infinite else {
        return Choice {
            engine: Engine::Explicit,
            infinite: None,
            explicit_states: None,
            symbolic_refuses: symbolic_refuses(),
        };
    };
    let explicit_states = translate::to_lts_timed(spec, &PROBE)
        .ok()
        .map(|(lts, _)| lts.num_states());
    let symbolic_refuses = symbolic_refuses();
    let engine = if explicit_states.is_none() && symbolic_refuses.is_none() {
        Engine::Symbolic
    } else {
        Engine::Explicit
    };
    Choice {
        engine,
        infinite: Some(why),
        explicit_states,
        symbolic_refuses,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> Arc<Spec> {
        let m = ioco_lang::parse_str("t.ioco", text).expect("a valid model");
        Arc::new(m.entry().expect("an entry").clone())
    }

    #[test]
    fn finite_types_run_explicitly() {
        let s =
            spec("model M {\n input a\n output b\n init s\n s -- a? --> t\n t -- b! --> s\n}\n");
        let c = choose(&s);
        assert_eq!((c.engine, c.infinite), (Engine::Explicit, None));
    }

    #[test]
    fn an_int_input_runs_symbolically() {
        let s = spec(
            "model Adder {\n input x(n: int)\n output y(n: int)\n var t: int = 0\n init s\n \
             s -- x?(n) { t = n } --> u\n u -- y!(=t) --> s\n}\n",
        );
        let c = choose(&s);
        assert_eq!(c.engine, Engine::Symbolic, "{c:?}");
        assert!(c.infinite.is_some() && c.explicit_states.is_none());
    }

    #[test]
    fn infinite_types_that_reach_finitely_many_values_run_explicitly() {
        // a counter of type int that never passes 3
        let s = spec(
            "model C {\n input up\n output full\n var n: int = 0\n init s\n \
             s -- up? [n < 3] { n = n + 1 } --> s\n s -- full! [n == 3] { n = 0 } --> s\n}\n",
        );
        let c = choose(&s);
        assert_eq!(c.engine, Engine::Explicit, "{c:?}");
        assert!(c.infinite.is_some());
        assert_eq!(c.explicit_states, Some(4));
    }
}
