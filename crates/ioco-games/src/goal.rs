//! Reachability goals (thesis Def. 5.3 / 6.5: a set R of positions) over the states and labels
//! of a suspension automaton, written `state:NAME|label:NAME|...`.
//!
//! * `state:NAME` — reach a state of the suspension automaton named `NAME`. A suspension state
//!   built from an LTS is named after its set of LTS states, `{s1,s3}`; `state:s3` means every
//!   suspension state whose set contains `s3` ("the specification may be in s3"), and
//!   `state:{s1,s3}` names that one suspension state. For a deterministic LTS both coincide.
//! * `label:NAME` — execute the label `NAME` (an input `a?`, an output `b!`, or `δ`/`delta`);
//!   the `?`/`!` suffix is optional and checked when given.
//!
//! Alternatives are separated by `|` (a disjunction: reaching any one wins). Unknown names are
//! errors with the column and a "did you mean" hint.

use ioco_model::{Label, LabelKind, Lts, State};
use std::fmt;

/// A parsed goal: a set of states and a set of labels (reaching any one wins).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Goal {
    /// `states[q]`: state `q` of the suspension automaton is a goal.
    pub states: Vec<bool>,
    /// Goal labels: executing one wins.
    pub labels: Vec<Label>,
    /// The text the goal was parsed from (for messages).
    pub text: String,
}

/// A goal that does not parse, with the 1-based column of the offending item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalError {
    /// What is wrong.
    pub message: String,
    /// 1-based column in the goal text.
    pub column: usize,
    /// How to fix it.
    pub hint: Option<String>,
}

impl fmt::Display for GoalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "goal, column {}: {}", self.column, self.message)?;
        if let Some(h) = &self.hint {
            write!(f, " (hint: {h})")?;
        }
        Ok(())
    }
}

impl std::error::Error for GoalError {}

fn did_you_mean<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    let mut best: Option<(f64, &str)> = None;
    let w = word.to_lowercase();
    for c in candidates {
        let cl = c.to_lowercase();
        let close = strsim::levenshtein(&w, &cl) <= (w.chars().count() / 3).max(1);
        let score = strsim::jaro_winkler(&w, &cl) + if close { 1.0 } else { 0.0 };
        if score > 0.8 && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| format!("did you mean `{c}`?"))
}

/// The LTS-state names a suspension state name stands for: `{a,b}` → `[a, b]`, `s` → `[s]`.
fn members(name: &str) -> Vec<&str> {
    match name.strip_prefix('{').and_then(|n| n.strip_suffix('}')) {
        Some(inner) => inner.split(',').map(str::trim).collect(),
        None => vec![name],
    }
}

impl Goal {
    /// A goal of the given states (by index), for programmatic use.
    pub fn of_states(sa: &Lts, states: &[State]) -> Goal {
        let mut v = vec![false; sa.num_states()];
        for &s in states {
            v[s as usize] = true;
        }
        let text = states
            .iter()
            .map(|&s| format!("state:{}", sa.state_name(s)))
            .collect::<Vec<_>>()
            .join("|");
        Goal {
            states: v,
            labels: Vec::new(),
            text,
        }
    }

    /// True when state `q` is a goal state.
    pub fn has_state(&self, q: State) -> bool {
        self.states.get(q as usize).copied().unwrap_or(false)
    }

    /// True when `l` is a goal label.
    pub fn has_label(&self, l: Label) -> bool {
        self.labels.contains(&l)
    }

    /// Parse `state:NAME|label:NAME|...` against a suspension automaton.
    pub fn parse(text: &str, sa: &Lts) -> Result<Goal, GoalError> {
        let mut goal = Goal {
            states: vec![false; sa.num_states()],
            labels: Vec::new(),
            text: text.to_string(),
        };
        if text.trim().is_empty() {
            return Err(GoalError {
                message: "the goal is empty".into(),
                column: 1,
                hint: Some(
                    "write e.g. `state:s3` or `label:coffee!`, alternatives joined by `|`".into(),
                ),
            });
        }
        let mut col = 1;
        for raw in text.split('|') {
            let lead = raw.len() - raw.trim_start().len();
            let item = raw.trim();
            let column = col + lead;
            col += raw.chars().count() + 1;
            let err = |message: String, hint: Option<String>| GoalError {
                message,
                column,
                hint,
            };
            let Some((kind, name)) = item.split_once(':') else {
                return Err(err(
                    format!("`{item}` is neither `state:NAME` nor `label:NAME`"),
                    Some("prefix each alternative with `state:` or `label:`".into()),
                ));
            };
            let name = name.trim();
            match kind.trim() {
                "state" => {
                    let mut found = false;
                    for q in sa.states() {
                        let n = sa.state_name(q);
                        if n == name || members(&n).contains(&name) {
                            goal.states[q as usize] = true;
                            found = true;
                        }
                    }
                    if !found {
                        let names: Vec<String> = sa.states().map(|q| sa.state_name(q)).collect();
                        let mut cands: Vec<&str> = Vec::new();
                        for n in &names {
                            cands.push(n);
                            cands.extend(members(n));
                        }
                        let hint = did_you_mean(name, cands.into_iter()).or_else(|| {
                            let shown: Vec<&str> =
                                names.iter().take(8).map(|s| s.as_str()).collect();
                            Some(format!(
                                "states are {}{}",
                                shown.join(", "),
                                if names.len() > 8 { ", ..." } else { "" }
                            ))
                        });
                        return Err(err(format!("unknown state `{name}`"), hint));
                    }
                }
                "label" => {
                    let a = sa.alphabet();
                    let (base, want) = if let Some(b) = name.strip_suffix('?') {
                        (b, Some(LabelKind::Input))
                    } else if let Some(b) = name.strip_suffix('!') {
                        (b, Some(LabelKind::Output))
                    } else {
                        (name, None)
                    };
                    let l = if matches!(base, "δ" | "delta" | "quiescence") {
                        Label::DELTA
                    } else {
                        match want
                            .and_then(|k| a.lookup_kind(base, k))
                            .or_else(|| a.lookup(base))
                        {
                            Some(l) => l,
                            None => {
                                let names: Vec<String> =
                                    a.visible().map(|l| a.display(l)).collect();
                                let hint = did_you_mean(name, names.iter().map(|s| s.as_str()))
                                    .or_else(|| Some(format!("labels are {}", names.join(", "))));
                                return Err(err(format!("unknown label `{name}`"), hint));
                            }
                        }
                    };
                    if let Some(k) = want {
                        if a.kind(l) != k {
                            return Err(err(
                                format!("`{base}` is {}, not {}", a.display(l), name),
                                Some(format!("write `label:{}`", a.display(l))),
                            ));
                        }
                    }
                    if !goal.labels.contains(&l) {
                        goal.labels.push(l);
                    }
                }
                other => {
                    return Err(err(
                        format!("unknown goal kind `{other}`"),
                        did_you_mean(other, ["state", "label"].into_iter())
                            .or_else(|| Some("use `state:NAME` or `label:NAME`".into())),
                    ))
                }
            }
        }
        Ok(goal)
    }
}
