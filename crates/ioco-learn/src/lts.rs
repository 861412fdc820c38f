//! A learned machine over reactions (outputs until quiescence, [`crate::system`]) as an
//! input/output LTS, usable as an ioco specification: `s -i?-> m₁ -o₁!-> … -oₙ!-> t` for a
//! transition whose reaction is `o₁ … oₙ`, and `s -i?-> t` for quiescence (δ). The Mealy states
//! are exactly the states without outputs, so they are the quiescent ones (δ is implicit, as in
//! every model the tool reads); the outputs the system gives at start-up lead from the initial
//! state to the machine's initial state. A transition the machine leaves out (a budget ran out
//! first) is an input the specification leaves unspecified.
//!
//! When every reaction is exactly one output, the machine is also an ordinary Mealy machine
//! ([`is_plain`]), written in the corpus's DOT dialect. [`to_ioco`] writes the LTS in the
//! `.ioco` language (when its labels are names of the language).

use crate::system::QUIESCENCE;
use ioco_model::{Alphabet, LabelKind, Lts, LtsBuilder, Mealy};

/// True when every output is one output line (no quiescence, no sequence) and there is no
/// start-up output: the machine is a plain Mealy machine.
pub fn is_plain(m: &Mealy, startup: &[String]) -> bool {
    startup.is_empty()
        && m.outputs
            .iter()
            .all(|o| o != QUIESCENCE && !o.contains('\n'))
}

/// The LTS of `m` with its start-up outputs `startup` (see the module documentation).
pub fn to_lts(m: &Mealy, startup: &[String]) -> Result<Lts, String> {
    let mut alphabet = Alphabet::new();
    let ins = m
        .inputs
        .iter()
        .map(|n| alphabet.intern(n, LabelKind::Input))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let mut b = LtsBuilder::new(alphabet);
    let n = m.num_states();
    b.add_states(n);
    let mut names: Vec<String> = m.state_names.clone();
    let chain = |b: &mut LtsBuilder,
                 names: &mut Vec<String>,
                 from: u32,
                 outs: &[&str],
                 to: u32,
                 name: &str|
     -> Result<(), String> {
        let mut at = from;
        for (k, o) in outs.iter().enumerate() {
            let l = b
                .alphabet_mut()
                .intern(o, LabelKind::Output)
                .map_err(|e| e.to_string())?;
            let next = if k + 1 == outs.len() {
                to
            } else {
                names.push(format!("{name}·{}", k + 1));
                b.add_state()
            };
            b.add_transition(at, l, next);
            at = next;
        }
        Ok(())
    };
    if startup.is_empty() {
        b.add_initial(m.initial);
    } else {
        let init = b.add_state();
        names.push("start".into());
        b.add_initial(init);
        let outs: Vec<&str> = startup.iter().map(String::as_str).collect();
        chain(&mut b, &mut names, init, &outs, m.initial, "start")?;
    }
    for s in 0..n as u32 {
        for i in 0..m.num_inputs() as u32 {
            let Some((t, o)) = m.step(s, i) else {
                continue;
            };
            let reaction = &m.outputs[o as usize];
            if reaction == QUIESCENCE {
                b.add_transition(s, ins[i as usize], t);
                continue;
            }
            let mid = b.add_state();
            let name = format!("{}·{}", m.state_names[s as usize], m.inputs[i as usize]);
            names.push(name.clone());
            b.add_transition(s, ins[i as usize], mid);
            let outs: Vec<&str> = reaction.split('\n').collect();
            chain(&mut b, &mut names, mid, &outs, t, &name)?;
        }
    }
    b.set_state_names(names);
    b.build().map_err(|e| e.to_string())
}

/// The keywords of the `.ioco` language (docs/language.md §1), which are no gate names.
const KEYWORDS: [&str; 21] = [
    "model", "system", "type", "fn", "import", "input", "output", "var", "init", "location", "tau",
    "hide", "in", "if", "then", "else", "true", "false", "int", "bool", "is",
];

fn is_name(s: &str) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
        && !KEYWORDS.contains(&s)
}

/// `lts` (from [`to_lts`]) as a `.ioco` model named `name`: a gate per label, a location `qN`
/// per state. An error names a label that is no `.ioco` name (`ACK(V,V,0)`, a keyword) or that
/// is both an input and an output (a gate has one direction): write `.aut` then.
pub fn to_ioco(lts: &Lts, name: &str, comment: &str) -> Result<String, String> {
    use std::fmt::Write;
    let a = lts.alphabet();
    let (mut ins, mut outs) = (Vec::new(), Vec::new());
    for l in a.inputs() {
        ins.push(a.name(l));
    }
    for l in a.outputs() {
        outs.push(a.name(l));
    }
    for n in ins.iter().chain(&outs) {
        if !is_name(n) {
            return Err(format!(
                "the label `{n}` is not a name of the .ioco language (letters, digits and _, not a \
                 keyword); write .aut, .dot or .json instead"
            ));
        }
    }
    if let Some(n) = ins.iter().find(|n| outs.contains(n)) {
        return Err(format!(
            "`{n}` is both an input and an output, and a .ioco gate has one direction; write \
             .aut, .dot or .json instead"
        ));
    }
    let mut t = String::new();
    let _ = writeln!(t, "// {comment}");
    let _ = writeln!(t, "model {name} {{");
    if !ins.is_empty() {
        let _ = writeln!(t, "  input {}", ins.join(", "));
    }
    if !outs.is_empty() {
        let _ = writeln!(t, "  output {}", outs.join(", "));
    }
    let locs: Vec<String> = (0..lts.num_states()).map(|q| format!("q{q}")).collect();
    let _ = writeln!(t, "  location {}", locs.join(", "));
    let _ = writeln!(t, "  init q{}", lts.initial()[0]);
    let _ = writeln!(t);
    for (s, l, u) in lts.transitions() {
        let mark = if a.is_input(l) { "?" } else { "!" };
        let _ = writeln!(t, "  q{s} -- {}{mark} --> q{u}", a.name(l));
    }
    t.push_str("}\n");
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ioco_model::QuiescencePolicy;

    #[test]
    fn reactions_become_output_chains_and_delta_is_implicit() {
        // s0 -a/"x\ny"-> s1, s1 -a/δ-> s0
        let mut m = Mealy::new(2, vec!["a".into()], vec!["x\ny".into(), "".into()], 0);
        m.set(0, 0, 1, 0);
        m.set(1, 0, 0, 1);
        assert!(!is_plain(&m, &[]));
        let l = to_lts(&m, &["hello".into()]).unwrap();
        // 2 Mealy states, start, the state after a?, the one between x! and y!
        assert_eq!(l.num_states(), 5);
        assert_eq!(l.num_transitions(), 5);
        assert!(l.is_deterministic());
        assert!(l.is_quiescent(0, QuiescencePolicy::Stable));
        assert!(l.is_quiescent(1, QuiescencePolicy::Stable));
        assert!(!l.is_quiescent(l.initial()[0], QuiescencePolicy::Stable));
        let text = to_ioco(&l, "Learned", "learned").unwrap();
        assert!(text.contains("model Learned {"), "{text}");
        assert!(text.contains("  input a\n  output hello, x, y\n"), "{text}");
        assert!(text.contains(" -- x! --> "), "{text}");
        let mut bad = Mealy::new(1, vec!["ACK(V,V,0)".into()], vec!["x".into()], 0);
        bad.set(0, 0, 0, 0);
        let e = to_ioco(&to_lts(&bad, &[]).unwrap(), "L", "").unwrap_err();
        assert!(e.contains("`ACK(V,V,0)` is not a name"), "{e}");
        let mut p = Mealy::new(1, vec!["a".into()], vec!["x".into()], 0);
        p.set(0, 0, 0, 0);
        assert!(is_plain(&p, &[]));
        assert!(!is_plain(&p, &["hello".into()]));
    }
}
