//! `judge export ID --kattis DIR`: a problem as a Kattis package.

use std::io::Write;
use std::path::Path;

use super::Context;
use crate::errors::{Error, Result};
use crate::exit_codes;
use crate::export;

pub(super) fn export(ctx: &mut Context, id: &str, dir: &Path, force: bool) -> Result<u8> {
    let problem = ctx.load_one(id)?;
    let plan = export::plan(&problem, &ctx.root, ctx.scratch.path()).map_err(|e| {
        // Name files relative to the root, as every other message does.
        match e {
            Error::Spec(crate::spec::SpecError::Export { path, message }) => {
                let root = format!("{}/", ctx.root.display());
                Error::Spec(crate::spec::SpecError::Export {
                    path: path.strip_prefix(&ctx.root).unwrap_or(&path).to_path_buf(),
                    message: message.replace(&root, ""),
                })
            }
            other => other,
        }
    })?;
    export::write(&plan, dir, force)?;

    let io = |source| Error::Report {
        what: "the output".into(),
        source,
    };
    writeln!(
        ctx.out,
        "{id} → {} (Kattis problem package, legacy format)",
        dir.display()
    )
    .map_err(io)?;
    for line in &plan.written {
        writeln!(ctx.out, "  {line}").map_err(io)?;
    }
    for note in &plan.notes {
        writeln!(ctx.out, "  {}", ctx.styles.dim(&format!("note: {note}"))).map_err(io)?;
    }
    let short_name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if short_name.is_empty()
        || !short_name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    {
        let suggested: String = id.chars().filter(char::is_ascii_alphanumeric).collect();
        writeln!(
            ctx.out,
            "  {}",
            ctx.styles.bad(&format!(
                "warning: Kattis takes the folder name `{short_name}` as the problem's short name, which must be lowercase letters and digits (e.g. `{suggested}`)"
            ))
        )
        .map_err(io)?;
    }
    writeln!(
        ctx.out,
        "check it: verifyproblem {} -p config data submissions validators",
        dir.display()
    )
    .map_err(io)?;
    Ok(exit_codes::OK)
}
