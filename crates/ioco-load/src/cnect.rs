//! A TorXakis `CNECTDEF` (as parsed by `ioco-txs`) as the configuration of the TorXakis socket
//! adapter ([`TxsSocketConfig`]), so that `ioco test MODEL.txs` reaches the SUT as
//! TorXakis does. The mapping is described in `ioco_sut::txs`'s module documentation; this file
//! reads the `CNECTDEF`'s channels, `ENCODE`s and `DECODE`s into it (`toString`/`fromString`
//! and `toXml`/`fromXml`), and says clearly what it cannot read (an `ENCODE` that computes
//! more than concatenating values and constants).

use ioco_lang::ir::{Direction, Spec, Type};
use ioco_sut::txs::{TxsDecode, TxsEncode, TxsPart, TxsSide, TxsSocketConfig};
use ioco_txs::ast::{CnectDef, CnectDir, CnectKind, OfferItem, VExpr, VKind};
use ioco_txs::lower::{safe, Lowered};

/// The gates a `CNECTDEF` connects, as the tester sees them: the model inputs it `ENCODE`s
/// (its `CHAN OUT`s) and the model outputs it `DECODE`s (its `CHAN IN`s), by their `.ioco`
/// names.
fn connected(c: &CnectDef) -> (Vec<String>, Vec<String>) {
    let enc = c.encodes.iter().map(|e| safe(&e.offer.gate.name)).collect();
    let dec = c.decodes.iter().map(|d| safe(&d.offer.gate.name)).collect();
    (enc, dec)
}

/// Whether `c` connects a tester to a model with these `inputs` and `outputs`: it is a
/// `CLIENTSOCK` or `SERVERSOCK` one that `ENCODE`s every input and only inputs, and
/// `DECODE`s only outputs.
fn fits(c: &CnectDef, inputs: &[String], outputs: &[String]) -> bool {
    let (enc, dec) = connected(c);
    enc.iter().all(|g| inputs.contains(g))
        && dec.iter().all(|g| outputs.contains(g))
        && inputs.iter().all(|g| enc.contains(g))
}

/// A model's inputs and outputs (`.ioco` names).
fn gates_of(spec: &Spec) -> (Vec<String>, Vec<String>) {
    let of = |d: Direction| {
        spec.gates
            .iter()
            .filter(|g| g.dir == d)
            .map(|g| g.name.clone())
            .collect()
    };
    (of(Direction::Input), of(Direction::Output))
}

/// What a `CNECTDEF` connects, for messages: `ENCODE Action1, Action2; DECODE Result1`.
fn describe(c: &CnectDef) -> String {
    let (enc, dec) = connected(c);
    let list = |v: &[String]| {
        if v.is_empty() {
            "nothing".to_string()
        } else {
            v.join(", ")
        }
    };
    format!("ENCODE {}; DECODE {}", list(&enc), list(&dec))
}

/// Whether `c` is a connection of TorXakis's simulator (it `ENCODE`s outputs of a model and
/// `DECODE`s its inputs: the model plays the SUT).
fn is_simulator_side(c: &CnectDef, lowered: &Lowered) -> bool {
    let (enc, dec) = connected(c);
    lowered.models.iter().any(|m| {
        let ins: Vec<String> = m.inputs.iter().map(|g| safe(g)).collect();
        let outs: Vec<String> = m.outputs.iter().map(|g| safe(g)).collect();
        !enc.is_empty()
            && enc.iter().all(|g| outs.contains(g))
            && dec.iter().all(|g| ins.contains(g))
    })
}

/// The names of the `CNECTDEF`s of the files, for messages.
fn all_names(lowered: &Lowered) -> String {
    let all: Vec<&str> = lowered
        .cnects
        .iter()
        .map(|c| c.name.name.as_str())
        .collect();
    if all.is_empty() {
        "none".into()
    } else {
        all.join(", ")
    }
}

/// The `CNECTDEF` named `name`, or an error that lists those of the files.
pub fn named<'a>(lowered: &'a Lowered, name: &str) -> Result<&'a CnectDef, String> {
    lowered
        .cnects
        .iter()
        .find(|c| c.name.name == name)
        .ok_or_else(|| {
            format!(
                "no CNECTDEF named `{name}` (the files have: {})",
                all_names(lowered)
            )
        })
}

/// The `MODELDEF` (its `.ioco` system name) that the `CNECTDEF` named `name` connects a
/// tester to, so that `--cnect NAME` without `--entry` tests the model it was written for (the
/// first `MODELDEF` whose inputs it `ENCODE`s and whose outputs it `DECODE`s). `None` when
/// the files have no `CNECTDEF` of that name (the connection's own choice reports it).
pub fn model_for(lowered: &Lowered, name: &str) -> Result<Option<String>, String> {
    let Ok(c) = named(lowered, name) else {
        return Ok(None);
    };
    let found = lowered.models.iter().find(|m| {
        let ins: Vec<String> = m.inputs.iter().map(|g| safe(g)).collect();
        let outs: Vec<String> = m.outputs.iter().map(|g| safe(g)).collect();
        fits(c, &ins, &outs)
    });
    match found {
        Some(m) => Ok(Some(m.ioco_name.clone())),
        None if is_simulator_side(c, lowered) => Err(simulator_refusal(c)),
        None => {
            let models: Vec<String> = lowered
                .models
                .iter()
                .map(|m| {
                    format!(
                        "{} (CHAN IN {}; CHAN OUT {})",
                        m.txs_name,
                        m.inputs.join(", "),
                        m.outputs.join(", ")
                    )
                })
                .collect();
            Err(format!(
                "CNECTDEF {name} ({}) connects no MODELDEF of the files: a MODELDEF's CHAN IN \
                 must be the CNECTDEF's ENCODEs and its CHAN OUT include the DECODEs (the \
                 MODELDEFs: {})",
                describe(c),
                if models.is_empty() {
                    "none".into()
                } else {
                    models.join("; ")
                }
            ))
        }
    }
}

fn simulator_refusal(c: &CnectDef) -> String {
    format!(
        "CNECTDEF {} is a connection of TorXakis's simulator (it ENCODEs the model's outputs \
         and DECODEs its inputs: the model plays the SUT); ioco tests through a tester's \
         CNECTDEF (CHAN OUT = the MODELDEF's CHAN IN) and does not serve a simulated model \
         on sockets (test a model against another with --sim IMPL.txs)",
        c.name.name
    )
}

/// The `CNECTDEF` to test `spec` with: the one named `name` (which must connect `spec`'s
/// gates), else the first whose channels are the model's gates (`CLIENTSOCK` first; a
/// `SERVERSOCK` one only when named).
pub fn pick<'a>(
    lowered: &'a Lowered,
    spec: &Spec,
    name: Option<&str>,
) -> Result<&'a CnectDef, String> {
    let (inputs, outputs) = gates_of(spec);
    if let Some(n) = name {
        let c = named(lowered, n)?;
        if fits(c, &inputs, &outputs) {
            return Ok(c);
        }
        if is_simulator_side(c, lowered) {
            return Err(simulator_refusal(c));
        }
        let hint = match lowered.models.iter().find(|m| {
            let ins: Vec<String> = m.inputs.iter().map(|g| safe(g)).collect();
            let outs: Vec<String> = m.outputs.iter().map(|g| safe(g)).collect();
            fits(c, &ins, &outs)
        }) {
            Some(m) => format!(
                "test the MODELDEF it connects with --entry {} (or leave out --entry: --cnect \
                 {n} picks it)",
                m.txs_name
            ),
            None => "choose a CNECTDEF that connects the model's channels".into(),
        };
        let name_of = lowered
            .models
            .iter()
            .find(|m| m.ioco_name == spec.name)
            .map_or(spec.name.as_str(), |m| m.txs_name.as_str());
        return Err(format!(
            "CNECTDEF {n} ({}) does not connect the model tested, {name_of} (inputs: {}; \
             outputs: {}): {hint}",
            describe(c),
            if inputs.is_empty() {
                "none".into()
            } else {
                inputs.join(", ")
            },
            if outputs.is_empty() {
                "none".into()
            } else {
                outputs.join(", ")
            },
        ));
    }
    let client = |c: &&CnectDef| c.kind == CnectKind::Client && fits(c, &inputs, &outputs);
    lowered.cnects.iter().find(client).ok_or_else(|| {
        if lowered.cnects.is_empty() {
            "the model has no CNECTDEF: give the SUT with --sut, --tcp, --listen, --http or --sim"
                .into()
        } else {
            format!(
                "no CLIENTSOCK CNECTDEF of the files ({}) encodes every input and decodes only \
                 outputs of `{}`: choose one with --cnect NAME, or give the SUT with --sut/--tcp",
                all_names(lowered),
                spec.name
            )
        }
    })
}

/// The adapter configuration of a `CNECTDEF` for `spec`.
pub fn config(c: &CnectDef, lowered: &Lowered, spec: &Spec) -> Result<TxsSocketConfig, String> {
    let mut cfg = TxsSocketConfig::new(match c.kind {
        CnectKind::Client => TxsSide::Client,
        CnectKind::Server => TxsSide::Server,
    });
    cfg.wire_ctors.clone_from(&lowered.renamed_ctors);
    let socket_of = |cfg: &mut TxsSocketConfig, chan: &str, dir: CnectDir| -> Option<usize> {
        c.chans
            .iter()
            .find(|ch| ch.chan.name == chan && ch.dir == dir)
            .map(|ch| cfg.socket(&ch.host, ch.port))
    };
    for e in &c.encodes {
        let gate = safe(&e.offer.gate.name);
        let chan = e.chan.as_ref().unwrap_or(&e.offer.gate).name.clone();
        let socket = socket_of(&mut cfg, &chan, CnectDir::Out).ok_or_else(|| {
            format!(
                "ENCODE of `{}`: no `CHAN OUT {chan} HOST .. PORT ..` in CNECTDEF {}",
                e.offer.gate.name, c.name.name
            )
        })?;
        let vars: Vec<&str> = e
            .offer
            .items
            .iter()
            .filter_map(|i| match i {
                OfferItem::Recv(x, _) => Some(x.name.as_str()),
                OfferItem::Send(_) => None,
            })
            .collect();
        let types: Vec<Type> = spec
            .gates
            .iter()
            .find(|g| g.name == gate)
            .map(|g| g.params.iter().map(|p| p.1).collect())
            .unwrap_or_default();
        let mut parts = Vec::new();
        encode_parts(&e.value, &vars, &types, spec, lowered, &mut parts).map_err(|why| {
            format!(
                "ENCODE of `{}` in CNECTDEF {}: {why}",
                e.offer.gate.name, c.name.name
            )
        })?;
        cfg.encode.push(TxsEncode {
            gate,
            socket,
            parts,
        });
    }
    for d in &c.decodes {
        let gate = safe(&d.offer.gate.name);
        let chan = d.chan.as_ref().unwrap_or(&d.offer.gate).name.clone();
        let socket = socket_of(&mut cfg, &chan, CnectDir::In).ok_or_else(|| {
            format!(
                "DECODE of `{}`: no `CHAN IN {chan} HOST .. PORT ..` in CNECTDEF {}",
                d.offer.gate.name, c.name.name
            )
        })?;
        let values: Vec<&VExpr> = d
            .offer
            .items
            .iter()
            .filter_map(|i| match i {
                OfferItem::Send(e) => Some(e),
                OfferItem::Recv(..) => None,
            })
            .collect();
        let xml = |v: &VExpr| matches!(&v.kind, VKind::Call(f, _) if f.name == "fromXml");
        let decode = if values.len() <= 1 {
            if values.first().is_some_and(|v| xml(v)) {
                TxsDecode::xml(&gate)
            } else {
                TxsDecode::new(&gate)
            }
        } else {
            // `fromString(takeWhileNot(sep, s))`, ...: split at the separator characters
            let sep = values
                .iter()
                .find_map(|v| separator(v, lowered))
                .ok_or_else(|| {
                    format!(
                        "DECODE of `{}` in CNECTDEF {}: several values, but not split with takeWhileNot(separator, ..)",
                        d.offer.gate.name, c.name.name
                    )
                })?;
            TxsDecode::split(&gate, &sep)
        };
        if cfg.sockets[socket].decode.is_some() {
            return Err(format!(
                "CNECTDEF {}: two DECODEs read the same socket ({chan}); ioco reads one channel per socket",
                c.name.name
            ));
        }
        cfg.sockets[socket].decode = Some(decode);
    }
    Ok(cfg)
}

/// The separator of `fromString(takeWhileNot(sep, ..))` (a literal or a string constant).
fn separator(e: &VExpr, lowered: &Lowered) -> Option<String> {
    match &e.kind {
        VKind::Call(f, args) if f.name == "takeWhileNot" && args.len() == 2 => {
            text_of(&args[0], lowered)
        }
        VKind::Call(_, args) => args.iter().find_map(|a| separator(a, lowered)),
        _ => None,
    }
}

fn text_of(e: &VExpr, lowered: &Lowered) -> Option<String> {
    match &e.kind {
        VKind::Str(s) => Some(s.clone()),
        VKind::Name(n) => lowered.string_consts.get(&n.name).cloned(),
        _ => None,
    }
}

/// The parts of an `ENCODE` expression: `e1 ++ e2 ++ ..` of literals, string constants,
/// `toString(x)`, `toString(f(x))` and String values `x`, `f(x)`.
fn encode_parts(
    e: &VExpr,
    vars: &[&str],
    types: &[Type],
    spec: &Spec,
    lowered: &Lowered,
    out: &mut Vec<TxsPart>,
) -> Result<(), String> {
    match &e.kind {
        VKind::Binary(op, a, b) if op.name == "++" => {
            encode_parts(a, vars, types, spec, lowered, out)?;
            encode_parts(b, vars, types, spec, lowered, out)
        }
        VKind::Str(_) | VKind::Name(_) if text_of(e, lowered).is_some() => {
            out.push(TxsPart::Text(text_of(e, lowered).unwrap_or_default()));
            Ok(())
        }
        VKind::Call(f, args) if f.name == "toString" && args.len() == 1 => {
            out.push(value_part(&args[0], vars, types, spec)?);
            Ok(())
        }
        VKind::Call(f, args) if f.name == "toXml" && args.len() == 1 => {
            match value_part(&args[0], vars, types, spec)? {
                TxsPart::Value { arg, fields } => out.push(TxsPart::Xml { arg, fields }),
                other => out.push(other),
            }
            Ok(())
        }
        _ => value_part(e, vars, types, spec)
            .map(|p| out.push(p))
            .map_err(|_| "only `++` of literals, constants, `toString(x)` and `toXml(x)` of the offer's values (or their fields) can be sent".to_string()),
    }
}

/// `x` or `field(..(x))`: parameter `x` of the offer, through accessors.
fn value_part(e: &VExpr, vars: &[&str], types: &[Type], spec: &Spec) -> Result<TxsPart, String> {
    let mut path = Vec::new();
    let mut cur = e;
    loop {
        match &cur.kind {
            VKind::Name(n) => {
                let arg = vars
                    .iter()
                    .position(|v| *v == n.name)
                    .ok_or_else(|| format!("`{}` is not a value of the offer", n.name))?;
                path.reverse();
                // the accessors' (constructor, field) indices, from the parameter's type
                let mut ty = *types
                    .get(arg)
                    .ok_or_else(|| format!("the gate has no value {}", arg + 1))?;
                let mut fields = Vec::new();
                for f in path {
                    let Type::Adt(t) = ty else {
                        return Err(format!("`{f}` of a value that has no fields"));
                    };
                    let def = &spec.defs.types[t as usize];
                    let found = def.ctors.iter().enumerate().find_map(|(ci, c)| {
                        c.fields
                            .iter()
                            .position(|(n, _)| *n == safe(f))
                            .map(|fi| (ci as u32, fi as u32, c.fields[fi].1))
                    });
                    let Some((ci, fi, fty)) = found else {
                        return Err(format!("`{f}` is no field of `{}`", def.name));
                    };
                    fields.push((ci, fi));
                    ty = fty;
                }
                return Ok(TxsPart::Value { arg, fields });
            }
            VKind::Call(f, args) if args.len() == 1 => {
                path.push(f.name.as_str());
                cur = &args[0];
            }
            _ => return Err("not a value of the offer".into()),
        }
    }
}
