//! The LTS of a [`Machine`]: breadth-first exploration of its reachable states, so that a
//! program's behaviour can be checked against its specification with `ioco_model::compare`
//! (thesis Def. 2.3 / tutorial Def. 6.1) without running it.
//!
//! Every machine state becomes an LTS state; an input whose reaction prints outputs
//! `o1 … on` becomes `s -i?-> m1 -o1!-> … -on!-> t` through fresh intermediate states. The
//! process-level effects become the behaviour a tester observes: [`Effect::Garbage`] is an output
//! labelled with the printed line, [`Effect::Flood`] a state with an endless output self-loop,
//! [`Effect::Crash`] and [`Effect::Hang`] a dead state that ignores every input and never outputs
//! (quiescent forever).

use crate::wire::{Effect, Machine};
use ioco_model::{Alphabet, BuildError, LabelKind, Lts, LtsBuilder, State};
use std::collections::{HashMap, VecDeque};
use std::hash::Hash;

/// Why [`explore`] stopped.
#[derive(Debug)]
pub enum ExploreError {
    /// More than the given number of machine states are reachable.
    TooManyStates(usize),
    /// A printed line is an input label too.
    Build(String),
}

impl std::fmt::Display for ExploreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExploreError::TooManyStates(n) => write!(f, "more than {n} reachable machine states"),
            ExploreError::Build(e) => write!(f, "cannot build the LTS: {e}"),
        }
    }
}

impl std::error::Error for ExploreError {}

impl From<BuildError> for ExploreError {
    fn from(e: BuildError) -> Self {
        ExploreError::Build(e.to_string())
    }
}

struct Builder {
    b: LtsBuilder,
    names: Vec<String>,
    inputs: Vec<&'static str>,
    dead: Option<State>,
}

impl Builder {
    fn state(&mut self, name: String) -> State {
        self.names.push(name);
        self.b.add_state()
    }

    fn edge(
        &mut self,
        s: State,
        name: &str,
        kind: LabelKind,
        t: State,
    ) -> Result<(), ExploreError> {
        self.b.add(s, name, kind, t).map_err(|c| {
            ExploreError::Build(format!(
                "label `{}` is both {:?} and {:?}",
                c.name, c.existing, c.requested
            ))
        })
    }

    /// A state that ignores every input (self-loops) and has the given output self-loop.
    fn sink(&mut self, name: String, output: Option<&str>) -> Result<State, ExploreError> {
        let s = self.state(name);
        for i in self.inputs.clone() {
            self.edge(s, i, LabelKind::Input, s)?;
        }
        if let Some(o) = output {
            self.edge(s, o, LabelKind::Output, s)?;
        }
        Ok(s)
    }

    fn dead(&mut self) -> Result<State, ExploreError> {
        if let Some(d) = self.dead {
            return Ok(d);
        }
        let d = self.sink("dead".into(), None)?;
        self.dead = Some(d);
        Ok(d)
    }

    /// Add the path `from -first-> … effects … -> to`; the path ends in a sink instead of `to`
    /// when an effect ends the program's normal life (crash, hang, flood).
    fn reaction(
        &mut self,
        from: State,
        first: Option<&str>,
        effects: &[Effect],
        to: State,
        tag: &str,
    ) -> Result<(), ExploreError> {
        // hops: (label, kind) then a terminal target
        let mut hops: Vec<(&str, LabelKind)> = Vec::new();
        if let Some(i) = first {
            hops.push((i, LabelKind::Input));
        }
        let mut end = to;
        for e in effects {
            match e {
                Effect::Output(o) | Effect::Garbage(o) => hops.push((o, LabelKind::Output)),
                Effect::Line(o) => hops.push((o.as_str(), LabelKind::Output)),
                Effect::Crash(_) | Effect::Hang => {
                    end = self.dead()?;
                    break;
                }
                Effect::Flood(o) => {
                    end = self.sink(format!("flood {o}"), Some(o))?;
                    break;
                }
            }
        }
        if hops.is_empty() {
            // start-up with no visible effect but a crash or flood: τ into the sink
            self.b.add_transition(from, ioco_model::Label::TAU, end);
            return Ok(());
        }
        let mut cur = from;
        let n = hops.len();
        for (k, (l, kind)) in hops.into_iter().enumerate() {
            let next = if k + 1 == n {
                end
            } else {
                self.state(format!("{tag}.{k}"))
            };
            self.edge(cur, l, kind, next)?;
            cur = next;
        }
        Ok(())
    }
}

/// The LTS of `machine` (in its current state, before start-up) with at most `max_states`
/// machine states. The machine's `Debug` rendering names the states.
pub fn explore<M>(machine: M, max_states: usize) -> Result<Lts, ExploreError>
where
    M: Machine + Clone + Eq + Hash + std::fmt::Debug,
{
    let inputs = machine.inputs().to_vec();
    let mut alphabet = Alphabet::new();
    for i in &inputs {
        alphabet
            .input(i)
            .map_err(|c| ExploreError::Build(c.name.clone()))?;
    }
    let mut bld = Builder {
        b: LtsBuilder::new(alphabet),
        names: Vec::new(),
        inputs: inputs.clone(),
        dead: None,
    };
    let mut index: HashMap<M, State> = HashMap::new();
    let mut queue = VecDeque::new();
    let mut first = machine.clone();
    let effects = first.start();
    let s0 = bld.state(format!("{first:?}"));
    index.insert(first.clone(), s0);
    queue.push_back(first);
    if effects.is_empty() {
        bld.b.add_initial(s0);
    } else {
        let init = bld.state("start".into());
        bld.b.add_initial(init);
        bld.reaction(init, None, &effects, s0, "start")?;
    }
    while let Some(m) = queue.pop_front() {
        let s = index[&m];
        for &i in &inputs {
            let mut next = m.clone();
            let effects = next.react(i);
            let t = match index.get(&next) {
                Some(&t) => t,
                None => {
                    if index.len() >= max_states {
                        return Err(ExploreError::TooManyStates(max_states));
                    }
                    let t = bld.state(format!("{next:?}"));
                    index.insert(next.clone(), t);
                    queue.push_back(next);
                    t
                }
            };
            bld.reaction(s, Some(i), &effects, t, &format!("{s}.{i}"))?;
        }
    }
    let Builder { mut b, names, .. } = bld;
    b.set_state_names(names);
    Ok(b.build()?)
}
