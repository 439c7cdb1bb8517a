//! `judge similarity DIR [ID...]` and the similarity section of `judge
//! grade --class`.

use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

use super::Context;
use crate::cli::SimilarityArgs;
use crate::errors::{Error, Result};
use crate::similarity::{Similarity, page, pairs};

fn failed(what: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Report {
        what: what.display().to_string(),
        source,
    }
}

fn output(source: std::io::Error) -> Error {
    Error::Report {
        what: "the output".into(),
        source,
    }
}

/// The starter code's fingerprints, if any.
pub(super) fn base(dir: Option<&Path>) -> Result<HashSet<u64>> {
    match dir {
        Some(dir) => pairs::base_hashes(dir)
            .map_err(|source| Error::Usage(format!("--base {}: {source}", dir.display()))),
        None => Ok(HashSet::new()),
    }
}

pub(super) fn similarity(ctx: &mut Context, args: &SimilarityArgs) -> Result<u8> {
    let base = base(args.base.as_deref())?;
    let (inputs, mut skipped) = crate::similarity::scan_class(&args.class, &args.ids)
        .map_err(|source| Error::Usage(format!("{}: {source}", args.class.display())))?;
    let found = Similarity::compute(inputs, &base);
    skipped.extend(found.skipped.iter().cloned());
    let listed = found.listed(args.min, args.top);
    writeln!(
        ctx.out,
        "{} files compared, {} pairs share code; {} at least {}% similar:",
        found.documents.len(),
        found.pairs.len(),
        listed.len(),
        args.min
    )
    .map_err(output)?;
    found.write_lines(&mut ctx.out, listed).map_err(output)?;
    found.write_ranking(&mut ctx.out).map_err(output)?;
    found.write_discounts(&mut ctx.out).map_err(output)?;
    for (file, why) in &skipped {
        writeln!(
            ctx.out,
            "not compared: {}: {}",
            crate::escape::name(file),
            crate::escape::name(why)
        )
        .map_err(output)?;
    }
    if let Some(dir) = &args.html {
        let index = page::write_pages(dir, &found, listed).map_err(failed(dir))?;
        writeln!(ctx.out, "pages: {}", index.display()).map_err(output)?;
    }
    Ok(ctx.exit_code(true))
}

/// `grade --class`'s section: the most similar pairs of the graded files.
pub(super) fn class_section(
    ctx: &mut Context,
    inputs: Vec<pairs::Input>,
    base: &HashSet<u64>,
) -> Result<()> {
    const MIN: u32 = 60;
    const TOP: usize = 10;
    let found = Similarity::compute(inputs, base);
    let listed = found.listed(MIN, TOP);
    writeln!(
        ctx.out,
        "similarity: {} at least {MIN}% alike{}",
        match listed.len() {
            1 => "1 pair".to_string(),
            n => format!("{n} pairs"),
        },
        if listed.is_empty() {
            ""
        } else {
            " (judge similarity shows them side by side):"
        }
    )
    .map_err(output)?;
    found.write_lines(&mut ctx.out, listed).map_err(output)
}
