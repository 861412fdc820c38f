//! Model loading for every command: by extension, with diagnostics rendered by miette.
//!
//! `.aut`, `.dot`/`.gv` and `.json` go to `ioco-formats`. `.ioco` (the modelling language of
//! `ioco-lang`) is dispatched here, before `ioco_formats::load`, once that crate provides a
//! loader: add the arm in [`load_model`].

use ioco_formats::Model;
use ioco_model::Lts;
use miette::{Report, Result};
use std::path::Path;

/// Load a model file (an LTS or a Mealy machine).
pub fn load_model(path: &Path) -> Result<Model> {
    // `.ioco` files: the modelling language of ioco-lang (its entry point, as an explicit LTS).
    if path.extension().is_some_and(|e| e == "ioco") {
        return ioco_lang::load_lts(path).map(Model::Lts);
    }
    ioco_formats::load(path).map_err(Report::new)
}

/// Load a model file and read it as an LTS (a Mealy machine via its input/output reading).
pub fn load_lts(path: &Path) -> Result<Lts> {
    load_model(path)?.into_lts().map_err(Report::new)
}
