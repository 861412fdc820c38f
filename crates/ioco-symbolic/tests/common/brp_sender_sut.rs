//! The BRP sender of the Automata Wiki (`ioco-examples`, the program `brp-sender-sut`) as an
//! in-process system.
use ioco_examples::brp_sender::BrpSender;
use ioco_examples::data::{DataEffect, DataMachine, Val};
use ioco_lang::ir::Value;
use ioco_symbolic::online::InProcessSut;

/// The sender with a mutant (0 = correct), as in `brp-sender-sut --mutant N`.
pub fn brp_sender_sut(mutant: usize) -> InProcessSut<BrpSender> {
    InProcessSut::new(
        BrpSender::new(mutant),
        |s: &mut BrpSender, gate: &str, args: &[Value]| {
            let args: Vec<Val> = args
                .iter()
                .map(|v| match v {
                    Value::Bool(b) => Val::Bool(*b),
                    other => Val::Int(other.as_int().unwrap_or(0)),
                })
                .collect();
            s.react(gate, &args)
                .into_iter()
                .filter_map(|e| match e {
                    DataEffect::Out(g, vs) => Some((
                        g.to_string(),
                        vs.iter()
                            .map(|v| match v {
                                Val::Int(i) => Value::Int(*i),
                                Val::Bool(b) => Value::Bool(*b),
                            })
                            .collect(),
                    )),
                    _ => None,
                })
                .collect()
        },
        |_| None,
    )
}
