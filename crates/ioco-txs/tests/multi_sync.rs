//! A multi-action on a synchronised channel inside a composition that becomes one model (the
//! product of its parts, `lower/product.rs`): TorXakis's rule, both sides' actions on the
//! synchronised channels are the same channels, and the step is the union of both sides'
//! actions. MovingArms's "Single Axis" purpose is built so: a semaphore shared through hidden
//! `Acquire` / `Release`, taken by `Acquire | Up` and given back by `Release | Max`.

use ioco_lang::translate::{to_lts, Options};
use ioco_model::{Lts, QuiescencePolicy, SuspensionAutomaton};
use std::collections::BTreeSet;

/// Two axes; at most one moves at a time (the semaphore of SingleAxisPurpose.txs).
const SRC: &str = "\
CHANDEF C ::= Up1, Max1, Up2, Max2 ENDDEF
PROCDEF sem [Acq, Rel] () HIT ::= Acq >-> Rel >-> sem [Acq, Rel] () ENDDEF
PROCDEF mv [Acq, Rel, Up, Max] () HIT ::=
  (Acq | Up >-> Rel | Max >-> EXIT) >>> mv [Acq, Rel, Up, Max] ()
ENDDEF
PROCDEF one [Up1, Max1, Up2, Max2] () HIT ::=
  HIDE [Acq, Rel] IN
    sem [Acq, Rel] () |[Acq, Rel]| (mv [Acq, Rel, Up1, Max1] () ||| mv [Acq, Rel, Up2, Max2] ())
  NI
ENDDEF
PROCDEF free [Up1, Max1, Up2, Max2] () ::=
  Up1 >-> Max1 >-> free [Up1, Max1, Up2, Max2] () ## Up2 >-> Max2 >-> free [Up1, Max1, Up2, Max2] ()
ENDDEF
MODELDEF M ::= CHAN IN Up1, Up2 CHAN OUT Max1, Max2 BEHAVIOUR free [Up1, Max1, Up2, Max2] () ENDDEF
PURPDEF P ::= CHAN IN Up1, Up2 CHAN OUT Max1, Max2
  GOAL oneAxis ::= one [Up1, Max1, Up2, Max2] ()
ENDDEF
";

/// The visible traces of the goal's model up to `n` labels (quiescence left out).
fn goal_traces(src: &str, n: usize) -> BTreeSet<Vec<String>> {
    let m = ioco_txs::load_str("m.txs", src)
        .unwrap_or_else(|d| panic!("{}", ioco_lang::render_plain(&d)));
    assert!(
        m.lowered.warnings.is_empty(),
        "{}",
        ioco_lang::render_plain(&m.lowered.warnings)
    );
    let (_, _, name) = &m.lowered.goals[0];
    let spec = m.model.spec(name).expect("the goal's model");
    let lts: Lts = to_lts(spec, &Options::default()).expect("finite");
    let sa = SuspensionAutomaton::build(&lts, QuiescencePolicy::default()).lts;
    let mut out = BTreeSet::new();
    let mut todo = vec![(sa.initial()[0], Vec::<String>::new())];
    while let Some((s, t)) = todo.pop() {
        out.insert(t.clone());
        if t.len() == n {
            continue;
        }
        for e in sa.edges(s) {
            let l = sa.alphabet().name(e.label).to_string();
            if l == "delta" {
                continue;
            }
            let mut t2 = t.clone();
            t2.push(l);
            todo.push((e.target, t2));
        }
    }
    out
}

#[test]
fn a_multi_action_synchronises_its_synchronised_channels_and_keeps_the_others() {
    let t = goal_traces(SRC, 4);
    let tr = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    // each axis takes the semaphore with its Up and gives it back with its Max
    for ok in [
        tr(&["Up1", "Max1", "Up2", "Max2"]),
        tr(&["Up2", "Max2", "Up1", "Max1"]),
        tr(&["Up1", "Max1", "Up1", "Max1"]),
    ] {
        assert!(t.contains(&ok), "{ok:?} missing from {t:?}");
    }
    // never two axes moving: the semaphore is taken
    assert!(!t.contains(&tr(&["Up1", "Up2"])), "{t:?}");
    assert!(!t.contains(&tr(&["Up2", "Up1"])), "{t:?}");
    // and nothing but these labels (the hidden Acq / Rel are internal, joined to Up / Max)
    let labels: BTreeSet<&String> = t.iter().flatten().collect();
    assert_eq!(labels.len(), 4, "{labels:?}");
}

#[test]
fn a_multi_action_meeting_other_synchronised_channels_does_not_synchronise() {
    // the semaphore offers `Acq` where the axis offers `Acq | Rel`: the sets differ, so the
    // axis never starts (TorXakis: both sides' actions on the synchronised channels agree)
    let src = SRC.replace(
        "(Acq | Up >-> Rel | Max >-> EXIT)",
        "(Acq | Rel | Up >-> Max >-> EXIT)",
    );
    let t = goal_traces(&src, 2);
    assert_eq!(t, BTreeSet::from([Vec::new()]), "{t:?}");
}
