//! `judge doctor`: which tools and which isolation this machine offers.

use std::io::Write;

use super::Context;
use crate::errors::{Error, Result};
use crate::exit_codes;

pub(super) fn doctor(ctx: &mut Context) -> Result<u8> {
    let io = |source| Error::Report {
        what: "the output".into(),
        source,
    };
    writeln!(ctx.out, "root: {}", ctx.root.display()).map_err(io)?;
    writeln!(ctx.out, "{}", ctx.sandbox.describe()).map_err(io)?;
    let languages: Vec<(String, String, Option<String>)> = ctx
        .builder
        .languages()
        .iter()
        .map(|(key, lang)| {
            let tool = lang.compile.first().unwrap_or(&lang.run[0]).clone();
            let found = which::which(&tool).ok().map(|p| p.display().to_string());
            (format!("{key} ({})", lang.name), tool, found)
        })
        .collect();
    for (name, tool, found) in languages {
        let status = match found {
            Some(path) => ctx.styles.good(&format!("{tool} at {path}")),
            None => ctx.styles.bad(&format!(
                "{tool} not found: submissions in this language get JE"
            )),
        };
        writeln!(ctx.out, "language {name}: {status}").map_err(io)?;
    }
    Ok(exit_codes::OK)
}
