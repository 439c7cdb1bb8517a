//! BAPCtools' `generators/generators.yaml`: how every test of a package is
//! made (`spec`), and the record of what was made from what (`manifest`),
//! so that `judge generate` makes again only the cases whose generator,
//! command, solution or inline text changed. Running the programs is the
//! package checks' (`checks::generators`).

pub(crate) mod manifest;
mod numbering;
pub(crate) mod spec;

pub(crate) use spec::{CaseRule, Generators, Source};
