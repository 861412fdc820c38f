//! The BRP sender of `ioco-examples` (the program `brp-sut`) as an in-process system.
use ioco_examples::brp::Brp;
use ioco_examples::data::{DataEffect, DataMachine, Val};
use ioco_lang::ir::Value;
use ioco_symbolic::online::InProcessSut;

fn val(v: &Value) -> Val {
    match v {
        Value::Bool(b) => Val::Bool(*b),
        other => Val::Int(other.as_int().unwrap_or(0)),
    }
}

/// The sender with a mutant (0 = correct), as in `brp-sut --mutant N`.
pub fn brp_sut(mutant: usize) -> InProcessSut<Brp> {
    InProcessSut::new(
        Brp::new(mutant),
        |s: &mut Brp, gate: &str, args: &[Value]| {
            let args: Vec<Val> = args.iter().map(val).collect();
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
