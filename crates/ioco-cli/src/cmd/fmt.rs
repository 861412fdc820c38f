//! `ioco fmt FILE... [--check | --write]`: print `.ioco` files in the canonical layout of
//! `ioco_lang::format` (the output parses to the same model; comments are kept).
//!
//! Without a flag the formatted text goes to standard output. `--check` prints nothing for
//! formatted files and names the others, exiting 1 if any is not formatted; `--write` rewrites
//! the files in place. A file that does not parse is an error (exit 2) with its diagnostics.

use super::Outcome;
use miette::{Report, Result};
use std::path::PathBuf;

/// Arguments of `ioco fmt`.
#[derive(clap::Args)]
pub struct Args {
    /// The .ioco files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Only check: exit 1 if a file is not formatted.
    #[arg(long, conflicts_with = "write")]
    pub check: bool,
    /// Rewrite the files in place.
    #[arg(long, short)]
    pub write: bool,
}

/// Run `ioco fmt`.
pub fn run(a: Args) -> Result<Outcome> {
    let mut outcome = Outcome::Ok;
    for path in &a.files {
        let src = std::fs::read_to_string(path)
            .map_err(|e| miette::miette!("cannot read {}: {e}", path.display()))?;
        let name = path.display().to_string();
        let out = ioco_lang::fmt::format_named(&name, &src).map_err(|diags| {
            Report::new(ioco_lang::Diagnostics {
                diags,
                file: name.clone(),
            })
        })?;
        if a.check {
            if out != src {
                outln!("{}: not formatted", path.display());
                outcome = Outcome::Fail;
            }
        } else if a.write {
            if out != src {
                std::fs::write(path, &out)
                    .map_err(|e| miette::miette!("cannot write {}: {e}", path.display()))?;
            }
        } else {
            super::emit(&out, None)?;
        }
    }
    Ok(outcome)
}
