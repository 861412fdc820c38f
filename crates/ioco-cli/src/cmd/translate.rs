//! `ioco translate MODEL.txs [-o MODEL.ioco]`: a TorXakis model as `.ioco` text, to migrate for
//! good (the translation is `ioco_txs::translate`; this module reads and writes).

use super::Outcome;
use crate::load::Loader;
use miette::Result;
use std::path::PathBuf;

/// Arguments of `ioco translate`.
#[derive(clap::Args)]
pub struct Args {
    /// The TorXakis model (`.txs`); more files with `--with`.
    pub model: PathBuf,
    /// Write the `.ioco` text here (default: standard output).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// Run `ioco translate`.
pub fn run(a: Args, ld: &Loader) -> Result<Outcome> {
    if !crate::load::is_txs(&a.model) {
        return Err(miette::miette!(
            help = "`ioco fmt` prints a .ioco file in the canonical layout",
            "{}: `ioco translate` reads TorXakis .txs files",
            a.model.display()
        ));
    }
    let m = ld.parse_txs(&a.model)?;
    super::emit(&ioco_txs::translate::to_ioco(&m), a.output.as_deref())?;
    Ok(Outcome::Ok)
}
