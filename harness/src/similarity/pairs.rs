//! The files of a class as fingerprinted documents, and every pair of two
//! students' files for the same problem (in the same language) ranked by
//! how much of one is found in the other.
//!
//! A pair's score is the larger of its two shares: the share of one
//! file's fingerprints that the other file has too. So a copy padded with
//! code of its own still scores as high as the original it contains.
//! Fingerprints of the starter code (`--base`) are removed first, and so
//! are those most files of a problem share (what the problem makes
//! everybody write), so they raise no pair.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::tokens::{Language, Token, tokenize};
use super::winnow::{self, Fingerprint};

/// The largest file read (a source file of a class is far smaller).
pub const FILE_LIMIT: u64 = 1 << 20;

/// One student's file for one problem.
#[derive(Debug, Clone)]
pub struct Document {
    pub student: String,
    pub problem: String,
    /// The file as reports show it (`alice/sum.c`).
    pub shown: String,
    pub language: Language,
    pub source: Vec<u8>,
    pub tokens: Vec<Token>,
    /// Winnowed, starter code removed.
    pub prints: Vec<Fingerprint>,
}

/// A file to compare: (student, problem, path, shown).
pub type Input = (String, String, PathBuf, String);

/// Every k-gram hash of the starter code's files under `dir` (all of them,
/// not only the winnowed: a student's file may keep other positions).
pub fn base_hashes(dir: &Path) -> std::io::Result<HashSet<u64>> {
    let mut hashes = HashSet::new();
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        let entry = entry.map_err(std::io::Error::other)?;
        if !entry.file_type().is_file() {
            continue;
        }
        let Some(language) = Language::of(entry.path()) else {
            continue;
        };
        let source =
            crate::untrusted::read(entry.path(), crate::untrusted::Links::Refuse, FILE_LIMIT)
                .map_err(std::io::Error::other)?;
        hashes.extend(winnow::kgram_hashes(&tokenize(language, &source)));
    }
    Ok(hashes)
}

/// Reads and fingerprints `inputs`; the files that could not be, with why.
pub fn load(inputs: Vec<Input>, base: &HashSet<u64>) -> (Vec<Document>, Vec<super::Skipped>) {
    let mut documents = Vec::new();
    let mut skipped = Vec::new();
    for (student, problem, path, shown) in inputs {
        let Some(language) = Language::of(&path) else {
            skipped.push((shown, "no grammar for its language".into()));
            continue;
        };
        let source =
            match crate::untrusted::read(&path, crate::untrusted::Links::Refuse, FILE_LIMIT) {
                Ok(source) => source,
                Err(e) => {
                    skipped.push((shown, e.to_string()));
                    continue;
                }
            };
        let tokens = tokenize(language, &source);
        let prints = winnow::fingerprints(&tokens)
            .into_iter()
            .filter(|f| !base.contains(&f.hash))
            .collect();
        documents.push(Document {
            student,
            problem,
            shown,
            language,
            source,
            tokens,
            prints,
        });
    }
    (documents, skipped)
}

/// Two documents (by index) and what they share.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    pub a: usize,
    pub b: usize,
    /// The fingerprints (distinct hashes) both have.
    pub shared: HashSet<u64>,
    /// The share of `a`'s distinct fingerprints found in `b`, and back.
    pub share_a: f64,
    pub share_b: f64,
}

impl Pair {
    pub fn score(&self) -> f64 {
        self.share_a.max(self.share_b)
    }

    pub fn percent(&self) -> u32 {
        (self.score() * 100.0).round() as u32
    }
}

/// How many files of a group may share a fingerprint before it counts as
/// what the problem makes everybody write.
fn common_limit(files: usize) -> usize {
    (files / 2).max(10)
}

/// Every pair of different students' documents of the same problem and
/// language that share a fingerprint, most similar first (ties by names).
pub fn rank(documents: &[Document]) -> Vec<Pair> {
    let mut groups: BTreeMap<(&str, Language), Vec<usize>> = BTreeMap::new();
    for (i, document) in documents.iter().enumerate() {
        groups
            .entry((document.problem.as_str(), document.language))
            .or_default()
            .push(i);
    }
    let distinct: Vec<HashSet<u64>> = documents
        .iter()
        .map(|d| d.prints.iter().map(|f| f.hash).collect())
        .collect();
    let mut pairs = Vec::new();
    for members in groups.values() {
        let mut holders: HashMap<u64, Vec<usize>> = HashMap::new();
        for &i in members {
            for &hash in &distinct[i] {
                holders.entry(hash).or_default().push(i);
            }
        }
        let limit = common_limit(members.len());
        let mut shared: HashMap<(usize, usize), HashSet<u64>> = HashMap::new();
        for (hash, holding) in &holders {
            if holding.len() < 2 || holding.len() > limit {
                continue;
            }
            for (x, &a) in holding.iter().enumerate() {
                for &b in &holding[x + 1..] {
                    if documents[a].student != documents[b].student {
                        shared
                            .entry((a.min(b), a.max(b)))
                            .or_default()
                            .insert(*hash);
                    }
                }
            }
        }
        let counted = |i: usize| {
            distinct[i]
                .iter()
                .filter(|h| holders[h].len() <= limit)
                .count()
                .max(1) as f64
        };
        for ((a, b), hashes) in shared {
            pairs.push(Pair {
                a,
                b,
                share_a: hashes.len() as f64 / counted(a),
                share_b: hashes.len() as f64 / counted(b),
                shared: hashes,
            });
        }
    }
    let name = |p: &Pair| {
        (
            documents[p.a].problem.clone(),
            documents[p.a].student.clone(),
            documents[p.b].student.clone(),
        )
    };
    pairs.sort_by(|x, y| {
        y.score()
            .total_cmp(&x.score())
            .then_with(|| name(x).cmp(&name(y)))
    });
    pairs
}

/// The byte ranges of `document` that a pair's shared fingerprints cover,
/// merged where they touch, each with one of its hashes (to find the
/// matching region in the other file).
pub fn regions(document: &Document, shared: &HashSet<u64>) -> Vec<(std::ops::Range<usize>, u64)> {
    let mut covered: Vec<Option<u64>> = vec![None; document.tokens.len()];
    for print in document.prints.iter().filter(|f| shared.contains(&f.hash)) {
        for slot in covered.iter_mut().skip(print.at).take(winnow::K) {
            slot.get_or_insert(print.hash);
        }
    }
    let mut regions: Vec<(std::ops::Range<usize>, u64)> = Vec::new();
    let mut previous = false;
    for (token, hash) in document.tokens.iter().zip(&covered) {
        match (hash, regions.last_mut()) {
            (Some(_), Some((range, _))) if previous => range.end = token.bytes.end,
            (Some(hash), _) => regions.push((token.bytes.clone(), *hash)),
            (None, _) => {}
        }
        previous = hash.is_some();
    }
    regions
}
