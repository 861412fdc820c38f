//! # ioco-formats
//!
//! Interchange formats for models: Aldebaran `.aut` ([`aut`]), Graphviz DOT in its Mealy
//! dialect (AALpy, LearnLib, hybrid-ADS) and an LTS dialect ([`dot`]), and a documented JSON
//! format ([`json`]). Every reader reports bad input as a [`FormatError`] with `file:line:col`,
//! what was expected and a hint (a [`miette::Diagnostic`]); none panics on any input.
//!
//! The label conventions of `.aut`, DOT-LTS and JSON are JTorX's: see [`label`].
//!
//! ```
//! use ioco_formats::{aut, Model};
//! let lts = aut::parse("des (0, 2, 2)\n(0, \"coin?\", 1)\n(1, \"tea!\", 0)\n", "m.aut").unwrap();
//! assert_eq!(lts.num_transitions(), 2);
//! let m = Model::Lts(lts);
//! assert_eq!(m.into_lts().unwrap().num_states(), 2);
//! ```

pub mod aut;
pub mod dot;
pub mod error;
pub mod json;
pub mod label;

pub use error::FormatError;

use ioco_model::{Lts, Mealy};
use std::path::Path;

/// A model read from a file: an LTS, or a Mealy machine (kept as such so that FSM tools can
/// use it directly; [`Model::into_lts`] gives its input/output LTS reading).
#[derive(Clone, Debug)]
pub enum Model {
    /// A labelled transition system with inputs and outputs.
    Lts(Lts),
    /// A Mealy machine.
    Mealy(Mealy),
}

impl Model {
    /// The LTS reading of the model (Mealy machines via [`Mealy::to_lts`]).
    ///
    /// A Mealy machine may use one name on both sides (AALpy's JSSE model answers the input
    /// `ApplicationData` with the output `ApplicationData`): inputs and outputs are two
    /// namespaces, so they stay `ApplicationData?` and `ApplicationData!` (issue #19 item 2;
    /// a user's label is never renamed).
    pub fn into_lts(self) -> Result<Lts, FormatError> {
        match self {
            Model::Lts(l) => Ok(l),
            Model::Mealy(m) => m.to_lts().map_err(|k| {
                FormatError::file(
                    "<mealy>",
                    format!("cannot read the Mealy machine as an LTS: {k}"),
                )
            }),
        }
    }

    /// A short name of the kind of model: `"LTS"` or `"Mealy machine"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Model::Lts(_) => "LTS",
            Model::Mealy(_) => "Mealy machine",
        }
    }
}

/// The extensions [`load`] understands.
pub const EXTENSIONS: &str = ".aut, .dot, .gv, .json";

/// Read a model file, choosing the format by its extension: `.aut`, `.dot`/`.gv` (Mealy or LTS
/// dialect, detected from the labels), `.json` (`ioco-lts/1`). `.ioco` files are the language
/// of the `ioco-lang` crate, which the CLI dispatches to before calling this function.
pub fn load(path: &Path) -> Result<Model, FormatError> {
    let file = path.display().to_string();
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase());
    let reader: fn(&str, &str) -> Result<Model, FormatError> = match ext.as_deref() {
        Some("aut") => |s, f| aut::parse(s, f).map(Model::Lts),
        Some("dot") | Some("gv") => dot::parse,
        Some("json") => |s, f| json::read_lts(s, f).map(Model::Lts),
        Some("ioco") => {
            return Err(FormatError::file(
                &file,
                ".ioco files are handled by ioco-lang, not by ioco-formats",
            )
            .hint("load them through the `ioco` command line tool (or ioco-lang's API)"))
        }
        other => {
            let what = other.map_or("no extension".to_string(), |e| format!("extension `.{e}`"));
            return Err(
                FormatError::file(&file, format!("unknown model format ({what})")).hint(format!(
                    "supported extensions: {EXTENSIONS} (and .ioco through the CLI)"
                )),
            );
        }
    };
    let bytes = std::fs::read(path)
        .map_err(|e| FormatError::file(&file, format!("cannot read the file: {e}")))?;
    let src = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
        FormatError::at(&file, &lossy, at, at + 1, "the file is not valid UTF-8")
            .hint("save the model as UTF-8 text")
    })?;
    reader(&src, &file)
}
