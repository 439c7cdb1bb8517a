//! Labelled sets of small programs (originals, their copies disguised at
//! one of the six levels of Faidhi & Robinson, and independent solutions
//! of the same task) and how well a tool's scores separate copies from
//! independent work: ROC-AUC per level, precision at k. Our scores come
//! from `judge similarity`'s library; Dolos's and copydetect's from those
//! tools when they are installed (`DOLOS`, a command with the Dolos CLI's
//! `run -f csv -o DIR -l LANG FILES`, else `dolos` on PATH;
//! `COPYDETECT_PYTHON`, a Python with copydetect, else `python3`).
//! Shared by the similarity test and the similarity bench.

#![allow(dead_code)] // each user reads a part

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use harness::similarity::Similarity;

/// Which original a file comes from, and how it was disguised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Label {
    /// Files of one family come from one original; independent solutions
    /// are each a family of their own.
    pub family: usize,
    /// The level of disguise (1 to 6); none for an original or an
    /// independent solution.
    pub level: Option<u8>,
}

/// One task: the files handed in for it, in one language.
#[derive(Debug, Clone)]
pub struct Case {
    pub name: String,
    /// The files' extension (`java`, `c`, `cpp`, `py`).
    pub ext: &'static str,
    /// (file name, source, label).
    pub files: Vec<(String, String, Label)>,
}

/// Each two files' score (indices `i < j`).
pub type Scores = HashMap<(usize, usize), f64>;

/// Reads IR-Plag (Karnalim et al., 2019): `case-NN/original/*.java`,
/// `case-NN/plagiarized/L1..L6/NN/*.java`, `case-NN/non-plagiarized/NN/*.java`.
pub fn irplag(dir: &Path) -> std::io::Result<Vec<Case>> {
    let mut cases = Vec::new();
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    names.sort();
    for case in names.into_iter().filter(|p| p.join("original").is_dir()) {
        let mut files = Vec::new();
        for (path, label) in walk_java(&case.join("original"))?.into_iter().map(|p| {
            (
                p,
                Label {
                    family: 0,
                    level: None,
                },
            )
        }) {
            files.push((path, label));
        }
        for level in 1..=6u8 {
            for path in walk_java(&case.join("plagiarized").join(format!("L{level}")))? {
                files.push((
                    path,
                    Label {
                        family: 0,
                        level: Some(level),
                    },
                ));
            }
        }
        for (i, path) in walk_java(&case.join("non-plagiarized"))?
            .into_iter()
            .enumerate()
        {
            files.push((
                path,
                Label {
                    family: i + 1,
                    level: None,
                },
            ));
        }
        let files = files
            .into_iter()
            .map(|(path, label)| {
                let name = path.strip_prefix(&case).unwrap().display().to_string();
                let source = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
                (name, source, label)
            })
            .collect();
        cases.push(Case {
            name: case.file_name().unwrap().to_string_lossy().into_owned(),
            ext: "java",
            files,
        });
    }
    Ok(cases)
}

/// The labelled set of our own (harness/tests/fixtures/similarity/): per
/// task folder and language, each independent solution `aN.EXT` and its
/// copies at levels 1 to 6 made by `levels.rs`, one case per task and
/// language.
pub fn own_set(dir: &Path) -> Vec<Case> {
    let mut tasks: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    tasks.sort();
    let mut cases = Vec::new();
    for task in tasks {
        for ext in ["c", "cpp", "java", "py"] {
            let mut originals: Vec<PathBuf> = std::fs::read_dir(&task)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == ext))
                .collect();
            originals.sort();
            let mut files = Vec::new();
            for (family, path) in originals.iter().enumerate() {
                let source = std::fs::read_to_string(path).unwrap();
                let stem = path.file_stem().unwrap().to_string_lossy();
                for level in 1..=6u8 {
                    let seed = harness::similarity::tokens::stable_hash(
                        format!("{}/{stem}.{ext}/{level}", task.display()).as_bytes(),
                    );
                    let copy = super::levels::disguise(&source, ext, level, seed);
                    files.push((
                        format!("{stem}-L{level}.{ext}"),
                        copy,
                        Label {
                            family,
                            level: Some(level),
                        },
                    ));
                }
                files.push((
                    format!("{stem}.{ext}"),
                    source,
                    Label {
                        family,
                        level: None,
                    },
                ));
            }
            cases.push(Case {
                name: format!("{}.{ext}", task.file_name().unwrap().to_string_lossy()),
                ext,
                files,
            });
        }
    }
    cases
}

fn walk_java(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut found: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "java"))
        .map(|e| e.into_path())
        .collect();
    found.sort();
    Ok(found)
}

/// Writes a case's files into `dir`, one folder per file (a student
/// each, as `judge similarity` reads a class); their paths, in order.
pub fn write_case(dir: &Path, case: &Case) -> Vec<PathBuf> {
    case.files
        .iter()
        .enumerate()
        .map(|(i, (_, source, _))| {
            let folder = dir.join(format!("f{i:04}"));
            std::fs::create_dir_all(&folder).unwrap();
            let path = folder.join(format!("task.{}", case.ext));
            std::fs::write(&path, source).unwrap();
            path
        })
        .collect()
}

/// `judge similarity`'s scores (0 for a pair it does not list).
pub fn ours(dir: &Path, _paths: &[PathBuf]) -> Scores {
    let (inputs, _) = harness::similarity::scan_class(dir, &[]).unwrap();
    let found = Similarity::compute(inputs, &HashSet::new());
    let index = |d: usize| -> usize { found.documents[d].student[1..].parse().unwrap() };
    found
        .pairs
        .iter()
        .map(|p| {
            let (i, j) = (index(p.a), index(p.b));
            ((i.min(j), i.max(j)), p.score())
        })
        .collect()
}

/// A tool found on this machine, and how to run it.
pub struct Tool {
    pub name: &'static str,
    pub command: Option<PathBuf>,
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

pub fn dolos_tool() -> Tool {
    let command = std::env::var_os("DOLOS")
        .map(PathBuf::from)
        .or_else(|| on_path("dolos"))
        .filter(|p| p.is_file());
    Tool {
        name: "Dolos",
        command,
    }
}

pub fn copydetect_tool() -> Tool {
    let python = std::env::var_os("COPYDETECT_PYTHON")
        .map(PathBuf::from)
        .or_else(|| on_path("python3"));
    let works = python.as_ref().is_some_and(|p| p.is_file())
        && python.as_ref().is_some_and(|p| {
            Command::new(p)
                .args(["-c", "import copydetect"])
                .output()
                .is_ok_and(|o| o.status.success())
        });
    Tool {
        name: "copydetect",
        command: python.filter(|_| works),
    }
}

fn dolos_language(ext: &str) -> &'static str {
    match ext {
        "c" => "c",
        "cpp" => "cpp",
        "py" => "python",
        _ => "java",
    }
}

/// Dolos's scores, from its `pairs.csv` (columns by header).
pub fn dolos(command: &Path, dir: &Path, paths: &[PathBuf], ext: &str) -> Scores {
    let out = dir.join("dolos-report");
    let status = Command::new(command)
        .args(["run", "-f", "csv", "-o"])
        .arg(&out)
        .args(["-l", dolos_language(ext)])
        .args(paths)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "dolos failed: {status}");
    let text = std::fs::read_to_string(out.join("pairs.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (left, right, similarity) = (
        column("leftFilePath"),
        column("rightFilePath"),
        column("similarity"),
    );
    let index: HashMap<String, usize> = paths
        .iter()
        .enumerate()
        .map(|(i, p)| (p.display().to_string(), i))
        .collect();
    let mut scores = Scores::new();
    for line in lines {
        let fields: Vec<&str> = line.split(',').map(|f| f.trim_matches('"')).collect();
        let (i, j) = (index[fields[left]], index[fields[right]]);
        scores.insert((i.min(j), i.max(j)), fields[similarity].parse().unwrap());
    }
    scores
}

/// copydetect's scores (its defaults: noise and guarantee thresholds of
/// 25 characters), each pair's larger share, as its report shows.
pub fn copydetect(python: &Path, paths: &[PathBuf]) -> Scores {
    const SCRIPT: &str = "import sys, itertools
from copydetect import CodeFingerprint, compare_files
files = sys.argv[1:]
prints = [CodeFingerprint(f, 25, 1) for f in files]
for i, j in itertools.combinations(range(len(files)), 2):
    _, shares, _ = compare_files(prints[i], prints[j])
    print(i, j, max(shares))
";
    let out = Command::new(python)
        .args(["-c", SCRIPT])
        .args(paths)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                (f[0].parse().unwrap(), f[1].parse().unwrap()),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

/// The (positive, negative) scores of a case, positives by level: an
/// original is a file that has copies; a positive is an original and its
/// copy, a negative an original and any file of another family (so an
/// independent solution, or another original's copy).
pub fn labelled_scores(case: &Case, scores: &Scores) -> (BTreeMap<u8, Vec<f64>>, Vec<f64>) {
    let copied: HashSet<usize> = case
        .files
        .iter()
        .filter(|f| f.2.level.is_some())
        .map(|f| f.2.family)
        .collect();
    let mut positives: BTreeMap<u8, Vec<f64>> = BTreeMap::new();
    let mut negatives = Vec::new();
    for (i, (_, _, a)) in case.files.iter().enumerate() {
        for (j, (_, _, b)) in case.files.iter().enumerate() {
            if i == j || a.level.is_some() || !copied.contains(&a.family) {
                continue;
            }
            let score = scores.get(&(i.min(j), i.max(j))).copied().unwrap_or(0.0);
            if a.family == b.family {
                positives
                    .entry(b.level.unwrap_or(0))
                    .or_default()
                    .push(score);
            } else if !copied.contains(&b.family) || b.level.is_some() || i < j {
                negatives.push(score);
            }
        }
    }
    (positives, negatives)
}

/// The probability that a positive scores above a negative (ties half).
pub fn auc(positives: &[f64], negatives: &[f64]) -> f64 {
    if positives.is_empty() || negatives.is_empty() {
        return f64::NAN;
    }
    let mut sorted = negatives.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mut total = 0.0;
    for &p in positives {
        let below = sorted.partition_point(|&n| n < p);
        let equal = sorted[below..].partition_point(|&n| n <= p);
        total += below as f64 + equal as f64 / 2.0;
    }
    total / (positives.len() * negatives.len()) as f64
}

/// Of all pairs of a case ranked by score, the share of the top k that
/// are copies of one original (k = the number of such pairs).
pub fn precision_at_k(case: &Case, scores: &Scores) -> f64 {
    let n = case.files.len();
    let mut ranked: Vec<(f64, bool)> = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let same = case.files[i].2.family == case.files[j].2.family;
            ranked.push((scores.get(&(i, j)).copied().unwrap_or(0.0), same));
        }
    }
    let k = ranked.iter().filter(|r| r.1).count();
    // Ties broken against the tool: a negative first.
    ranked.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    ranked[..k].iter().filter(|r| r.1).count() as f64 / k.max(1) as f64
}

/// A tool's AUC per level (and over all levels, key 0) and mean precision
/// at k, over `cases`.
pub struct Measure {
    pub auc: BTreeMap<u8, f64>,
    pub precision: f64,
}

pub fn measure(cases: &[Case], scores: &[Scores]) -> Measure {
    let mut positives: BTreeMap<u8, Vec<f64>> = BTreeMap::new();
    let mut negatives = Vec::new();
    let mut precision = 0.0;
    for (case, scores) in cases.iter().zip(scores) {
        let (p, n) = labelled_scores(case, scores);
        for (level, scores) in p {
            positives.entry(0).or_default().extend(&scores);
            positives.entry(level).or_default().extend(scores);
        }
        negatives.extend(n);
        precision += precision_at_k(case, scores);
    }
    Measure {
        auc: positives
            .iter()
            .map(|(l, p)| (*l, auc(p, &negatives)))
            .collect(),
        precision: precision / cases.len().max(1) as f64,
    }
}
