//! The similarity pages: an index of the pairs listed, and one page per
//! pair with both files side by side, their matching regions highlighted
//! and numbered alike. Self-contained, no script, and a
//! Content-Security-Policy that loads nothing; every name and every byte
//! of the students' files is escaped.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::Similarity;
use super::pairs::{Document, Pair, Shares, WEIGHTS, regions, shared_hashes};
use crate::escape;
use crate::report::html::{CSS, esc};

const PAGE_CSS: &str = "\
.sides{display:grid;grid-template-columns:1fr 1fr;gap:1em}\
.sides pre{overflow-x:auto;max-height:none;border:1px solid #ccc;padding:.5em;font-size:12px;line-height:1.35}\
mark{background:#ffe08a}mark.m1{background:#b9e4ff}mark.m2{background:#c8f2c2}\
mark.m3{background:#f7c6e0}mark.m4{background:#e2d4ff}mark.m5{background:#ffd2b3}\
mark sup{font-size:9px;color:#555}";

fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{0}</title><style>{CSS}{PAGE_CSS}</style></head><body>\n<h1>{0}</h1>\n",
        esc(title)
    )
}

/// A student's name or file as page text.
fn name(text: &str) -> String {
    esc(&escape::name(text))
}

/// `document`'s text with its regions marked, numbered by `number(hash)`.
fn marked(
    document: &Document,
    shared: &std::collections::HashSet<u64>,
    number: &dyn Fn(u64) -> usize,
) -> String {
    let text = &document.source;
    let mut out = String::new();
    let mut at = 0;
    for (range, hash) in regions(document, shared) {
        let n = number(hash);
        out.push_str(&esc(&escape::visible_bytes(&text[at..range.start])));
        let _ = write!(
            out,
            "<mark class=\"m{}\" title=\"match {n}\"><sup>{n}</sup>{}</mark>",
            n % 6,
            esc(&escape::visible_bytes(&text[range.clone()]))
        );
        at = range.end;
    }
    out.push_str(&esc(&escape::visible_bytes(&text[at..])));
    out
}

/// The page of one pair.
pub fn pair_page(documents: &[Document], pair: &Pair) -> String {
    let (a, b) = (&documents[pair.a], &documents[pair.b]);
    let shared = shared_hashes(a, b);
    // Number the matches by their order in the first file; the second
    // file's regions take the number of the first region with their hash.
    let order: Vec<u64> = regions(a, &shared).into_iter().map(|(_, h)| h).collect();
    let number_a = |hash: u64| order.iter().position(|h| *h == hash).map_or(0, |i| i + 1);
    let covering: Vec<(std::ops::Range<usize>, u64)> = regions(a, &shared);
    let owner_of = |hash: u64| -> usize {
        // The region of `a` whose tokens hold `hash` as a fingerprint.
        a.prints
            .iter()
            .find(|f| f.hash == hash)
            .and_then(|f| a.tokens.get(f.at))
            .and_then(|t| {
                covering
                    .iter()
                    .position(|(r, _)| r.start <= t.bytes.start && t.bytes.start < r.end)
            })
            .map_or(0, |i| i + 1)
    };
    let mut page = head(&format!(
        "{} ~ {} ({}): {}%",
        escape::name(&a.student),
        escape::name(&b.student),
        a.problem,
        pair.percent()
    ));
    let _ = write!(
        page,
        "<p class=\"meta\">{} · {} shared fingerprints. Marked: runs of at least {} tokens \
         alike once identifiers, literals, comments and layout are set aside; matches with \
         the same number hold the same code.</p>\n{}\
         <div class=\"sides\"><div><h2>{}</h2><pre>{}</pre></div>\
         <div><h2>{}</h2><pre>{}</pre></div></div>\n</body></html>\n",
        a.language.name(),
        shared.len(),
        super::winnow::K,
        components(pair, &name(&a.student), &name(&b.student)),
        name(&a.shown),
        marked(a, &shared, &number_a),
        name(&b.shown),
        marked(b, &shared, &owner_of),
    );
    page
}

/// The table of the score's parts: each signal's two shares, the larger
/// of which counts, and what it weighs.
fn components(pair: &Pair, a: &str, b: &str) -> String {
    let row = |signal: &str, shares: Shares, weight: f64| {
        format!(
            "<tr><td>{signal}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{:.0}%</td><td class=\"num\">{}</td></tr>",
            percent(shares.a),
            percent(shares.b),
            weight * 100.0,
            percent(shares.larger() * weight)
        )
    };
    format!(
        "<table id=\"score\"><thead><tr><th>signal</th><th>of {a}'s in {b}'s</th>\
         <th>of {b}'s in {a}'s</th><th>weight</th><th>counts</th></tr></thead><tbody>{}{}{}\
         <tr><td>score</td><td></td><td></td><td></td><td class=\"num\">{}%</td></tr>\
         </tbody></table>\n<p class=\"meta\">Tokens: runs of normalised tokens \
         (fingerprints). Statements: each statement in a canonical form (order, <code>for</code> \
         or <code>while</code>, the direction of a condition do not count), weighed by its \
         size. Literals: strings, numbers and characters as spelled. Code most of the class holds counts a \
         tenth.</p>\n",
        row("tokens", pair.tokens, WEIGHTS.tokens),
        row("statements", pair.structure, WEIGHTS.statements),
        row("literals", pair.literals, WEIGHTS.literals),
        pair.percent()
    )
}

fn percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

/// The file name of a pair's page: its rank, safe whatever the names.
pub fn pair_file(rank: usize) -> String {
    format!("pair-{:04}.html", rank + 1)
}

/// Writes the index and a page for each of `pairs` into `dir`; the index.
pub fn write_pages(dir: &Path, found: &Similarity, pairs: &[Pair]) -> std::io::Result<PathBuf> {
    let documents = &found.documents;
    std::fs::create_dir_all(dir)?;
    let mut index = head("Similarity");
    index.push_str(&spreads(found));
    index.push_str(
        "<h2>Pairs</h2>\n<table id=\"pairs\"><thead><tr><th>problem</th><th>similarity</th>\
         <th>student</th><th>student</th><th>tokens</th><th>statements</th><th></th></tr>\
         </thead><tbody>\n",
    );
    for (rank, pair) in pairs.iter().enumerate() {
        let (a, b) = (&documents[pair.a], &documents[pair.b]);
        std::fs::write(dir.join(pair_file(rank)), pair_page(documents, pair))?;
        let _ = writeln!(
            index,
            "<tr><td>{}</td><td class=\"num\"><a href=\"{}\">{}%</a></td><td>{}</td><td>{}</td>\
             <td>{} / {}</td><td>{} / {}</td><td>{}</td></tr>",
            name(&a.problem),
            pair_file(rank),
            pair.percent(),
            name(&a.student),
            name(&b.student),
            percent(pair.tokens.a),
            percent(pair.tokens.b),
            percent(pair.structure.a),
            percent(pair.structure.b),
            if found.stands_out(pair) {
                "stands out"
            } else {
                ""
            }
        );
    }
    index.push_str("</tbody></table>\n</body></html>\n");
    let path = dir.join("index.html");
    std::fs::write(&path, index)?;
    Ok(path)
}

/// Each problem's spread of scores (a bar per tenth), how many pairs
/// stand out, and the groups of students sharing code.
fn spreads(found: &Similarity) -> String {
    let mut out = String::from(
        "<h2>Per problem</h2>\n<table id=\"spread\"><thead><tr><th>problem</th><th>files</th>\
         <th>pairs</th><th>median</th><th>9 in 10 below</th><th>stand out from</th>\
         <th>stand out</th><th>pairs per tenth of the score, 0% to 100%</th></tr></thead><tbody>\n",
    );
    for d in &found.distributions {
        let most = d.histogram.iter().copied().max().unwrap_or(1).max(1) as f64;
        let bars: String = d
            .histogram
            .iter()
            .map(|&n| {
                // A bar's height grows with the log of its count, so a
                // tenth of one pair still shows beside thousands.
                let height = if n == 0 { 0.0 } else { 2.0 + 28.0 * (n as f64).ln_1p() / most.ln_1p() };
                format!(
                    "<span title=\"{n}\" style=\"display:inline-block;width:10px;height:{height:.0}px;\
                     background:#7a9cc6;margin-right:1px\"></span>"
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td style=\"vertical-align:bottom\">{bars}</td></tr>",
            name(&d.problem),
            d.files,
            d.pairs,
            percent(d.median),
            percent(d.p90),
            if d.standing > 0 {
                percent(d.threshold)
            } else {
                "-".to_string()
            },
            d.standing
        );
    }
    out.push_str("</tbody></table>\n");
    if !found.groups.is_empty() {
        out.push_str("<h2>Groups</h2>\n<ul id=\"groups\">\n");
        for g in &found.groups {
            let names: Vec<String> = g.students.iter().map(|s| name(s)).collect();
            let _ = writeln!(
                out,
                "<li>{}: {} ({} pairs that stand out, {}–{})</li>",
                name(&g.problem),
                names.join(", "),
                g.pairs,
                percent(g.lowest),
                percent(g.highest)
            );
        }
        out.push_str("</ul>\n");
    }
    out.push_str(&format!(
        "<p class=\"meta\">A pair stands out when its score is at least {}%, {} robust \
         deviations above its problem's median (every pair of two students counts, those sharing \
         nothing at 0), and above the widest drop among such scores. A group: three or more \
         students linked by pairs that stand out.</p>\n",
        super::ranking::FLOOR * 100.0,
        super::ranking::Z
    ));
    out
}
