//! `ioco schema FORMAT`: the JSON Schema (draft 2020-12, generated from the types by `schemars`)
//! of a file format the tool writes: `result` (`--json` of `test`, `run`, `replay`), `suite`
//! (`ioco gen`'s `ioco-suite/1`), `sts-suite` (`ioco gen --method switch-coverage`). The same
//! schemas are published in `docs/schemas/`, and a test keeps them equal.

use super::Outcome;
use miette::Result;

/// The file formats with a schema.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// What `--json` of `test`, `run` and `replay` writes.
    Result,
    /// A test suite (`ioco-suite/1`).
    Suite,
    /// A switch-coverage suite (`ioco-sts-suite/1`).
    StsSuite,
}

/// Arguments of `ioco schema`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The file format.
    #[arg(value_enum)]
    pub format: Format,
}

/// The schema of `format`, as pretty JSON.
pub fn schema(format: Format) -> String {
    let s = match format {
        Format::Result => schemars::schema_for!(ioco_exec::Summary),
        Format::Suite => schemars::schema_for!(ioco_gen::Suite),
        Format::StsSuite => schemars::schema_for!(ioco_exec::sts_suite::StsSuite),
    };
    serde_json::to_string_pretty(&s).unwrap_or_default() + "\n"
}

/// Run `ioco schema`.
pub fn run(args: Args) -> Result<Outcome> {
    // a reader that went away (`ioco schema result | head`) is no error (see `emit`)
    super::emit(&schema(args.format), None)?;
    Ok(Outcome::Ok)
}
