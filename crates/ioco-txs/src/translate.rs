//! `ioco translate model.txs -o model.ioco`: the lowered model as `.ioco` text, to migrate for
//! good. Every item says which TorXakis definition it comes from (`file:line:col`); what the
//! lowering could not keep (connections, mappers, the different rounding of `/` and `%`, …) is
//! said in a comment at the top and next to the item concerned. The text parses and checks to
//! the same model (tested on the corpus).

use crate::TxsModel;
use ioco_lang::ast::{File, ItemKind};
use std::fmt::Write;

/// The `.ioco` text of a loaded TorXakis model.
pub fn to_ioco(m: &TxsModel) -> String {
    let src = &m.model.sources;
    let names: Vec<&str> = src.files().iter().map(|f| f.name.as_str()).collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Translated from TorXakis by `ioco translate` ({}).",
        names.join(", ")
    );
    out.push_str(
        "// TorXakis's `/` and `%` round towards minus infinity; .ioco's are Euclidean: they\n\
         // differ only for a negative divisor.\n",
    );
    for c in &m.lowered.cnects {
        let _ = writeln!(
            out,
            "// CNECTDEF {} ({}) is not part of a .ioco model: `ioco test` on the .txs file uses it; with this file, give the SUT with --tcp/--listen.",
            c.name.name,
            src.location(c.name.span)
        );
    }
    for (sp, note) in &m.lowered.notes {
        let _ = writeln!(out, "// {}: {}", src.location(*sp), note);
    }
    for (p, g, model) in &m.lowered.goals {
        let _ = writeln!(
            out,
            "// PURPDEF {p} GOAL {g} is the purpose model `{model}` (HIT: location accept…, MISS: refuse…): `ioco test … --purpose THIS.ioco --goal {model}`."
        );
    }
    for item in &m.lowered.file.items {
        out.push('\n');
        let what = match &item.kind {
            ItemKind::Type(_) => "TYPEDEF",
            ItemKind::Fn(_) => "FUNCDEF",
            ItemKind::Model(_) => "process",
            ItemKind::System(_) => "definition",
            ItemKind::Import(..) => "import",
        };
        let _ = writeln!(out, "// from the {} at {}", what, src.location(item.span));
        let one = File {
            items: vec![item.clone()],
            comments: Vec::new(),
        };
        out.push_str(&ioco_lang::fmt::print_file(&one));
    }
    out
}
