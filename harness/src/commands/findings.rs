//! `judge verify --constraints` and `--invalid-inputs`: one package
//! check (`checks::constraints`, `checks::invalid_inputs`) on every
//! problem, its findings printed under the problem's name.

use std::io::Write;

use super::Context;
use crate::checks::{Finding, Severity};
use crate::errors::{Error, Result};
use crate::plan::Means;
use crate::spec::ProblemSpec;

/// `judge verify --CHECK [ID...]`: runs `check` on every problem and prints
/// its findings under the problem's name; fails when one is an error.
pub(super) fn report(
    ctx: &mut Context,
    ids: &[String],
    check: fn(&mut Means<'_>, &ProblemSpec) -> Vec<Finding>,
) -> Result<u8> {
    let (problems, broken) = ctx.load_and_build(ids)?;
    let io = |source| Error::Report {
        what: "the output".into(),
        source,
    };
    let mut errors = !broken.is_empty();
    for problem in &problems {
        writeln!(ctx.out, "{}", ctx.styles.bold(&problem.id)).map_err(io)?;
        for finding in check(&mut ctx.means(), problem) {
            errors |= finding.severity == Severity::Error;
            let line = finding.line();
            let line = match finding.severity {
                Severity::Error => ctx.styles.bad(&line),
                Severity::Warning => ctx.styles.bold(&line),
                Severity::Passed => ctx.styles.good(&line),
                Severity::Skipped => ctx.styles.dim(&line),
            };
            writeln!(ctx.out, "  {line}").map_err(io)?;
        }
    }
    Ok(ctx.exit_code(!errors))
}
