//! The files of a class as fingerprinted documents, and every pair of two
//! students' files for the same problem (in the same language) ranked by
//! how much of one is found in the other.
//!
//! Three signals: runs of normalised tokens (fingerprints), canonical
//! statements (`structure.rs`), literals as spelled. Of each, a
//! pair has two shares: the weight of what the files share over the
//! weight of each. A pair's score weighs the larger share of each signal
//! together ([`WEIGHTS`]), so a copy padded with code of its own still
//! scores as high as the original it contains. Hashes of the starter code (`--base`) are removed first; those
//! most files of a problem hold count for less (`common.rs`), never for
//! nothing, so two identical files always score 100%.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use super::common::{self, Bag, Commonness};
use super::tokens::{self, Language, Token};
use super::winnow::{self, Fingerprint};
use super::{structure, syntax};

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
    /// The fingerprints' hashes, counted.
    pub bag: Bag,
    /// The canonical statements' hashes, each counted by its size.
    pub structure: Bag,
    /// The literals as spelled (strings, numbers, characters).
    pub literals: Bag,
}

impl Document {
    /// Reads `source` into its tokens and fingerprints, leaving out the
    /// starter code's.
    pub fn new(
        (student, problem, shown): (String, String, String),
        language: Language,
        source: Vec<u8>,
        base: &HashSet<u64>,
    ) -> Document {
        let tree = syntax::parse(language, &source);
        let (tokens, items) = match &tree {
            Some(tree) => (
                tokens::from_tree(language, tree, &source),
                structure::items(language, tree, &source),
            ),
            None => (Vec::new(), Vec::new()),
        };
        let prints: Vec<Fingerprint> = winnow::fingerprints(&tokens)
            .into_iter()
            .filter(|f| !base.contains(&f.hash))
            .collect();
        let bag = common::bag(prints.iter().map(|f| f.hash));
        let structure = common::weighed(
            items
                .into_iter()
                .filter(|c| !base.contains(&c.hash))
                .map(|c| (c.hash, c.size)),
        );
        let literals = common::bag(
            spelled(&tokens, &source)
                .into_iter()
                .filter(|h| !base.contains(h)),
        );
        Document {
            student,
            problem,
            shown,
            language,
            source,
            tokens,
            prints,
            bag,
            structure,
            literals,
        }
    }
}

/// The hash of each literal of `tokens` as spelled in `source`.
fn spelled(tokens: &[Token], source: &[u8]) -> Vec<u64> {
    let lit = tokens::stable_hash(b"LIT");
    tokens
        .iter()
        .filter(|t| t.kind == lit)
        .map(|t| tokens::stable_hash(source.get(t.bytes.clone()).unwrap_or_default()))
        .collect()
}

/// A file to compare: (student, problem, path, shown).
pub type Input = (String, String, PathBuf, String);

/// Every k-gram hash of the starter code's files under `dir` (all of them,
/// not only the winnowed: a student's file may keep other positions), and
/// the hash of each of their canonical statements.
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
        if let Some(tree) = syntax::parse(language, &source) {
            let tokens = tokens::from_tree(language, &tree, &source);
            hashes.extend(winnow::kgram_hashes(&tokens));
            hashes.extend(spelled(&tokens, &source));
            hashes.extend(
                structure::items(language, &tree, &source)
                    .iter()
                    .map(|c| c.hash),
            );
        }
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
        match crate::untrusted::read(&path, crate::untrusted::Links::Refuse, FILE_LIMIT) {
            Ok(source) => documents.push(Document::new(
                (student, problem, shown),
                language,
                source,
                base,
            )),
            Err(e) => skipped.push((shown, e.to_string())),
        }
    }
    (documents, skipped)
}

/// How much of each of two files is found in the other: the weight of
/// what they share over the weight of each.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Shares {
    /// The share of the pair's first file found in the second.
    pub a: f64,
    /// The share of the second found in the first.
    pub b: f64,
}

impl Shares {
    pub fn larger(self) -> f64 {
        self.a.max(self.b)
    }

    pub fn smaller(self) -> f64 {
        self.a.min(self.b)
    }
}

/// Two documents (by index) and what they share.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    pub a: usize,
    pub b: usize,
    /// Of their fingerprints (runs of tokens).
    pub tokens: Shares,
    /// Of their canonical statements.
    pub structure: Shares,
    /// Of their literals as spelled.
    pub literals: Shares,
}

/// What each signal weighs in a pair's score. The statements survive most
/// (reordered statements, a `for` as a `while`, code moved into a helper,
/// conditions rewritten); the tokens tell apart small programs alike
/// statement by statement but not in order; the literals as spelled tell a
/// copy, which prints what its original prints, from the same task solved
/// again with other words. Chosen on the labelled sets of
/// docs/benchmarks.md.
pub const WEIGHTS: Weights = Weights {
    tokens: 0.28,
    statements: 0.62,
    literals: 0.1,
};

/// The weight of each signal in a pair's score (they add up to 1).
#[derive(Debug, Clone, Copy)]
pub struct Weights {
    pub tokens: f64,
    pub statements: f64,
    pub literals: f64,
}

impl Pair {
    /// The larger share of each signal, weighed together.
    pub fn score(&self) -> f64 {
        self.weighed(Shares::larger)
    }

    /// The smaller share of each signal, weighed together: 1 only when
    /// the two files are alike both ways.
    pub fn both_ways(&self) -> f64 {
        self.weighed(Shares::smaller)
    }

    fn weighed(&self, side: fn(Shares) -> f64) -> f64 {
        WEIGHTS.tokens * side(self.tokens)
            + WEIGHTS.statements * side(self.structure)
            + WEIGHTS.literals * side(self.literals)
    }

    pub fn percent(&self) -> u32 {
        (self.score() * 100.0).round() as u32
    }
}

/// What the common-code rule discounted in one group of files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discount {
    pub problem: String,
    pub language: Language,
    pub files: usize,
    /// Distinct fingerprints held by more files than the limit.
    pub common: usize,
    /// Distinct fingerprints of the group.
    pub distinct: usize,
}

/// Every pair of different students' documents of the same problem and
/// language that share a fingerprint, most similar first (ties: the pair
/// alike both ways first, then by names); and what each group discounted.
pub fn rank(documents: &[Document]) -> (Vec<Pair>, Vec<Discount>) {
    let mut groups: BTreeMap<(&str, Language), Vec<usize>> = BTreeMap::new();
    for (i, document) in documents.iter().enumerate() {
        groups
            .entry((document.problem.as_str(), document.language))
            .or_default()
            .push(i);
    }
    let mut pairs = Vec::new();
    let mut discounts = Vec::new();
    for ((problem, language), members) in groups {
        let tokens = Signal::of(members.iter().map(|&i| &documents[i].bag).collect());
        let structure = Signal::of(members.iter().map(|&i| &documents[i].structure).collect());
        let literals = Signal::of(members.iter().map(|&i| &documents[i].literals).collect());
        let (discounted, distinct) = tokens.common.discounted();
        discounts.push(Discount {
            problem: problem.to_string(),
            language,
            files: members.len(),
            common: discounted,
            distinct,
        });
        for x in 0..members.len() {
            for y in x + 1..members.len() {
                let (a, b) = (members[x], members[y]);
                let pair = Pair {
                    a,
                    b,
                    tokens: tokens.shares(x, y),
                    structure: structure.shares(x, y),
                    literals: literals.shares(x, y),
                };
                if pair.score() > 0.0 && documents[a].student != documents[b].student {
                    pairs.push(pair);
                }
            }
        }
    }
    sort(&mut pairs, documents);
    (pairs, discounts)
}

/// One signal over a group of files: what each weighs, and what each two
/// share, under the common-code rule.
struct Signal {
    common: Commonness,
    totals: Vec<f64>,
    shared: Vec<f64>,
}

impl Signal {
    fn of(bags: Vec<&Bag>) -> Signal {
        let common = Commonness::of(bags.iter().copied());
        let totals = bags.iter().map(|b| common::weight(b, &common)).collect();
        let shared = common::shared(&bags, &common);
        Signal {
            common,
            totals,
            shared,
        }
    }

    /// The shares of files `x < y` of the group.
    fn shares(&self, x: usize, y: usize) -> Shares {
        let both = self.shared[x * self.totals.len() + y];
        let share = |total: f64| if total > 0.0 { both / total } else { 0.0 };
        Shares {
            a: share(self.totals[x]),
            b: share(self.totals[y]),
        }
    }
}

/// Most similar first; of two pairs alike, the one alike both ways (two
/// identical files before a file and one that contains it); then by
/// problem and names.
fn sort(pairs: &mut [Pair], documents: &[Document]) {
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
            .then_with(|| y.both_ways().total_cmp(&x.both_ways()))
            .then_with(|| name(x).cmp(&name(y)))
    });
}

/// The fingerprints two documents both hold.
pub fn shared_hashes(a: &Document, b: &Document) -> HashSet<u64> {
    let theirs: HashSet<u64> = b.prints.iter().map(|f| f.hash).collect();
    a.prints
        .iter()
        .map(|f| f.hash)
        .filter(|h| theirs.contains(h))
        .collect()
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
