//! `judge doctor`: which tools and which isolation this machine offers;
//! `judge cache`: the build cache's size, pruned on request.

use std::io::Write;

use super::Context;
use crate::cli::CacheAction;
use crate::errors::{Error, Result};
use crate::exit_codes;

pub(super) fn doctor(ctx: &mut Context) -> Result<u8> {
    let io = |source| Error::Report {
        what: "the output".into(),
        source,
    };
    writeln!(ctx.out, "root: {}", ctx.root.display()).map_err(io)?;
    writeln!(ctx.out, "{}", ctx.boxes.describe()).map_err(io)?;
    let languages: Vec<(String, String, Option<String>)> = ctx
        .builder
        .languages()
        .iter()
        .map(|(key, lang)| {
            let tool = lang
                .missing_tool()
                .unwrap_or_else(|| lang.compile.first().unwrap_or(&lang.run[0]).clone());
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

/// `judge cache info` and `judge cache prune [--max SIZE]`.
pub(super) fn cache(ctx: &mut Context, action: &CacheAction) -> Result<u8> {
    let io = |source| Error::Report {
        what: "the output".into(),
        source,
    };
    let dir = crate::compile::cache_dir(&ctx.root);
    let (budget, verb) = match action {
        // Pruning to more than the cache holds removes nothing.
        CacheAction::Info => (u64::MAX, None),
        CacheAction::Prune { max } => (
            max.map_or(crate::compile::CACHE_BUDGET, |size| size.as_u64()),
            Some("pruned"),
        ),
    };
    let pruned = crate::compile::prune_cache(&ctx.root, budget);
    if verb.is_some() {
        writeln!(
            ctx.out,
            "removed {} builds ({}) from {}",
            pruned.removed,
            bytesize::ByteSize(pruned.removed_bytes),
            dir.display()
        )
        .map_err(io)?;
    }
    writeln!(
        ctx.out,
        "{}: {} builds, {} (budget {}: the least recently used go first)",
        dir.display(),
        pruned.kept,
        bytesize::ByteSize(pruned.kept_bytes),
        bytesize::ByteSize(crate::compile::CACHE_BUDGET)
    )
    .map_err(io)?;
    Ok(exit_codes::OK)
}
