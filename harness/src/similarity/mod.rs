//! Who copied: per problem, pairs of students ranked by how alike their
//! files are once what a copier changes cheaply is set aside.
//!
//! `syntax.rs` says what each language's tree-sitter nodes mean;
//! `tokens.rs` reads a file into normalised tokens (identifiers, literals,
//! comments, layout, imports, optional braces do not count) and
//! `winnow.rs` keeps fingerprints of runs of them; `structure.rs` reads it
//! into canonical statements (their order, `for` or `while`, the direction
//! of a condition do not count); `common.rs` discounts what most of a
//! class holds; `pairs.rs` compares both multisets and ranks the pairs,
//! and `page.rs` draws a pair side by side.
//! Used by `judge similarity` and by a section of `judge grade --class`.

pub mod common;
pub mod page;
pub mod pairs;
pub mod ranking;
pub mod structure;
pub mod syntax;
pub mod tokens;
pub mod winnow;

#[cfg(test)]
mod tests;

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::Path;

use pairs::{Discount, Document, Input, Pair};
use ranking::{Distribution, Group};

use crate::escape;

/// A file not compared (as reports show it) and why.
pub type Skipped = (String, String);

/// The documents of a class and their pairs, ranked.
pub struct Similarity {
    pub documents: Vec<Document>,
    pub pairs: Vec<Pair>,
    /// What the common-code rule discounted, per problem and language.
    pub discounts: Vec<Discount>,
    /// How each problem's scores are spread, and who stands out.
    pub distributions: Vec<Distribution>,
    pub groups: Vec<Group>,
    pub skipped: Vec<Skipped>,
}

impl Similarity {
    pub fn compute(inputs: Vec<Input>, base: &HashSet<u64>) -> Similarity {
        let (documents, skipped) = pairs::load(inputs, base);
        let (pairs, discounts) = pairs::rank(&documents);
        let distributions = ranking::distributions(&documents, &pairs);
        let groups = ranking::groups(&documents, &pairs, &distributions);
        Similarity {
            documents,
            pairs,
            discounts,
            distributions,
            groups,
            skipped,
        }
    }

    /// The pairs scoring at least `min` percent, at most `top` of them.
    pub fn listed(&self, min: u32, top: usize) -> &[Pair] {
        let above = self.pairs.iter().take_while(|p| p.percent() >= min).count();
        &self.pairs[..above.min(top)]
    }

    /// One pair a line, most similar first: the percentage, the problem,
    /// both students (escaped), and each signal's two shares.
    pub fn write_lines(&self, out: &mut dyn Write, pairs: &[Pair]) -> io::Result<()> {
        for pair in pairs {
            let (a, b) = (&self.documents[pair.a], &self.documents[pair.b]);
            writeln!(
                out,
                "{:>3}%  {}  {} ~ {}  (tokens {:.0}% / {:.0}%, statements {:.0}% / {:.0}%, \
                 literals {:.0}% / {:.0}% of each in the other){}",
                pair.percent(),
                a.problem,
                escape::name(&a.student),
                escape::name(&b.student),
                pair.tokens.a * 100.0,
                pair.tokens.b * 100.0,
                pair.structure.a * 100.0,
                pair.structure.b * 100.0,
                pair.literals.a * 100.0,
                pair.literals.b * 100.0,
                if self.stands_out(pair) {
                    "  stands out"
                } else {
                    ""
                },
            )?;
        }
        Ok(())
    }

    pub fn stands_out(&self, pair: &Pair) -> bool {
        ranking::stands_out(&self.documents, &self.distributions, pair)
    }

    /// Per problem, how its scores are spread and how many pairs stand
    /// out; then each group of three or more students sharing code.
    pub fn write_ranking(&self, out: &mut dyn Write) -> io::Result<()> {
        for d in self.distributions.iter().filter(|d| d.pairs > 0) {
            writeln!(
                out,
                "spread: {} ({}, {} files, {} pairs): median {:.0}%, 9 in 10 below {:.0}%; {}",
                d.problem,
                d.language.name(),
                d.files,
                d.pairs,
                d.median * 100.0,
                d.p90 * 100.0,
                match d.standing {
                    0 => "none stands out".to_string(),
                    1 => format!("1 stands out (from {:.0}%)", d.threshold * 100.0),
                    n => format!("{n} stand out (from {:.0}%)", d.threshold * 100.0),
                }
            )?;
        }
        for g in &self.groups {
            let names: Vec<String> = g.students.iter().map(|s| escape::name(s)).collect();
            writeln!(
                out,
                "group: {}: {} ({} students, {} pairs that stand out, {:.0}–{:.0}%)",
                g.problem,
                names.join(", "),
                g.students.len(),
                g.pairs,
                g.lowest * 100.0,
                g.highest * 100.0
            )?;
        }
        Ok(())
    }

    /// One line per group of files whose common code was discounted:
    /// how much, and why.
    pub fn write_discounts(&self, out: &mut dyn Write) -> io::Result<()> {
        for discount in self.discounts.iter().filter(|d| d.common > 0) {
            writeln!(
                out,
                "common code: {} ({}, {} files): {} of {} fingerprints are in more than {} \
                 of the files, code most of the class wrote alike; each counts {} of one \
                 of a student's own",
                discount.problem,
                discount.language.name(),
                discount.files,
                discount.common,
                discount.distinct,
                common::limit(discount.files),
                common::DISCOUNT
            )?;
        }
        Ok(())
    }
}

/// The files of a class folder to compare: each student's folder's
/// regular files in a language with a grammar, the problem named by the
/// file's stem (only `problems` when some are given). Links are not
/// followed; what is left out is said.
pub fn scan_class(dir: &Path, problems: &[String]) -> io::Result<(Vec<Input>, Vec<Skipped>)> {
    let mut inputs = Vec::new();
    let mut skipped = Vec::new();
    let mut students: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    students.sort_by_key(|e| e.file_name());
    for student in students {
        let name = student.file_name().to_string_lossy().into_owned();
        if !student.file_type()?.is_dir() {
            continue;
        }
        let mut files: Vec<_> = std::fs::read_dir(student.path())?.collect::<Result<_, _>>()?;
        files.sort_by_key(|e| e.file_name());
        for file in files {
            let path = file.path();
            let shown = format!("{name}/{}", file.file_name().to_string_lossy());
            let Some(_) = tokens::Language::of(&path) else {
                continue;
            };
            if !file.file_type()?.is_file() {
                skipped.push((shown, "not a regular file: not read".into()));
                continue;
            }
            let problem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            if problems.is_empty() || problems.contains(&problem) {
                inputs.push((name.clone(), problem, path, shown));
            }
        }
    }
    Ok((inputs, skipped))
}
