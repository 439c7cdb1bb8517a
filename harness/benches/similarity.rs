//! `judge similarity` measured: how well planted copies are found, and how
//! long a class of 200 students × 5 problems takes.
//!
//! 1. The planted set: per problem, a class of independent C solutions
//!    (each student's own helper functions, drawn from a seed) among which
//!    some are copies disguised as a copier would (`support/planted.rs`):
//!    renamed (every identifier, the literals, comments and layout),
//!    reordered (renamed, and the functions in another order) and padded
//!    (renamed, and as much code again of the copier's own). Prints, over
//!    all problems: precision among the top k pairs (k = the copies
//!    planted), what the listing at 40% (`judge similarity`'s default) and
//!    60% (`grade --class`'s section) finds and wrongly lists, and the
//!    scores of each disguise against the best unrelated pair.
//! 2. The class: 200 students × 5 problems (1000 files, 10 copies a
//!    problem), compared in this process (median of 5), beside the
//!    baseline of only reading and tokenizing the same files with
//!    tree-sitter; then `judge similarity` end to end, pages included.
//!
//! Run: `cargo bench -p harness --bench similarity` (add `-- --students N`).
//! Prints a table; asserts nothing (timings belong in benchmarks).

#[path = "support/labelled.rs"]
mod labelled;
#[path = "support/levels.rs"]
mod levels;
#[path = "support/levels_flow.rs"]
mod levels_flow;
#[path = "support/planted.rs"]
mod planted;

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

use harness::similarity::{Similarity, scan_class, tokens};
use planted::Disguise;

const PROBLEMS: u64 = 5;

/// Writes `problem`'s files into the class folder (`sNNN/pK.c`).
fn write_problem(class: &Path, problem: &str, files: &[(String, String)]) {
    for (student, source) in files {
        let folder = class.join(student);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join(format!("{problem}.c")), source).unwrap();
    }
}

/// Which disguise the planted pair of copier `copy` used (as
/// `planted_class` assigns them).
fn disguise_of(copy: &str) -> Disguise {
    let s: usize = copy[1..].parse().unwrap();
    [Disguise::Renamed, Disguise::Reordered, Disguise::Padded][(s / 2) % 3]
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn planted_set(students: usize, copies: usize) {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let mut planted: HashSet<(String, String, String)> = HashSet::new();
    for p in 0..PROBLEMS {
        let problem = format!("p{p}");
        let (files, pairs) = planted::planted_class(100 + p, students, copies);
        write_problem(&class, &problem, &files);
        planted.extend(pairs.into_iter().map(|(a, b)| (problem.clone(), a, b)));
    }
    let (inputs, _) = scan_class(&class, &[]).unwrap();
    let found = Similarity::compute(inputs, &HashSet::new());
    let key = |pair: &harness::similarity::pairs::Pair| {
        let (a, b) = (&found.documents[pair.a], &found.documents[pair.b]);
        let (x, y) = if a.student < b.student {
            (&a.student, &b.student)
        } else {
            (&b.student, &a.student)
        };
        (a.problem.clone(), x.clone(), y.clone())
    };
    let mut per_problem_hits = 0;
    let mut by_disguise: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    let mut best_unrelated = 0;
    for p in 0..PROBLEMS {
        let problem = format!("p{p}");
        let ranked: Vec<_> = found
            .pairs
            .iter()
            .filter(|pair| found.documents[pair.a].problem == problem)
            .collect();
        let k = planted.iter().filter(|(q, _, _)| *q == problem).count();
        per_problem_hits += ranked
            .iter()
            .take(k)
            .filter(|pair| planted.contains(&key(pair)))
            .count();
        for pair in &ranked {
            let (problem, a, b) = key(pair);
            if planted.contains(&(problem, a, b.clone())) {
                let name = match disguise_of(&b) {
                    Disguise::Renamed => "renamed",
                    Disguise::Reordered => "reordered",
                    Disguise::Padded => "padded",
                };
                by_disguise.entry(name).or_default().push(pair.percent());
            } else {
                best_unrelated = best_unrelated.max(pair.percent());
            }
        }
    }
    let unrelated_pairs = PROBLEMS as usize * students * (students - 1) / 2 - planted.len();
    println!(
        "planted set: {PROBLEMS} problems × {students} students (C), {} copies planted, \
         {unrelated_pairs} unrelated pairs",
        planted.len()
    );
    println!(
        "  precision in each problem's top k (k = its copies): {per_problem_hits}/{} = {:.0}%",
        planted.len(),
        100.0 * per_problem_hits as f64 / planted.len() as f64
    );
    for min in [40, 60] {
        let listed: Vec<_> = found
            .pairs
            .iter()
            .filter(|pair| pair.percent() >= min)
            .collect();
        let hits = listed.iter().filter(|p| planted.contains(&key(p))).count();
        println!(
            "  listed at {min}%: {} pairs, {hits} of {} copies, {} unrelated",
            listed.len(),
            planted.len(),
            listed.len() - hits
        );
    }
    for (name, mut scores) in by_disguise {
        scores.sort();
        println!(
            "  {name:>9} copies: lowest {}%, median {}% ({} pairs)",
            scores[0],
            scores[scores.len() / 2],
            scores.len()
        );
    }
    println!("  best unrelated pair: {best_unrelated}%");
}

fn class_timing(students: usize) {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    for p in 0..PROBLEMS {
        let (files, _) = planted::planted_class(200 + p, students, 5);
        write_problem(&class, &format!("p{p}"), &files);
    }
    let (inputs, _) = scan_class(&class, &[]).unwrap();
    let bytes: u64 = inputs
        .iter()
        .map(|(_, _, path, _)| std::fs::metadata(path).unwrap().len())
        .sum();
    let (mut baseline, mut whole) = (Vec::new(), Vec::new());
    let mut counts = (0, 0, 0);
    for _ in 0..5 {
        // Interleaved, so a change in the machine's load touches both.
        let start = Instant::now();
        let mut token_count = 0;
        for (_, _, path, _) in &inputs {
            let source = std::fs::read(path).unwrap();
            let language = tokens::Language::of(path).unwrap();
            token_count += tokens::tokenize(language, &source).len();
        }
        baseline.push(start.elapsed());
        let start = Instant::now();
        let found = Similarity::compute(inputs.clone(), &HashSet::new());
        whole.push(start.elapsed());
        counts = (found.documents.len(), token_count, found.pairs.len());
    }
    let (baseline, whole) = (median(baseline), median(whole));
    println!(
        "class: {students} students × {PROBLEMS} problems: {} files, {} KiB, {} tokens, \
         {} pairs sharing a fingerprint",
        counts.0,
        bytes / 1024,
        counts.1,
        counts.2
    );
    println!(
        "  read + tokenize only (baseline): {:.2} s; compare (read, tokenize, winnow, rank): \
         {:.2} s = {:.2}× the baseline (medians of 5)",
        baseline.as_secs_f64(),
        whole.as_secs_f64(),
        whole.as_secs_f64() / baseline.as_secs_f64()
    );
    let pages = dir.path().join("pages");
    let start = Instant::now();
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
        .current_dir(dir.path())
        .arg("similarity")
        .arg(&class)
        .args(["--html".as_ref(), pages.as_os_str()])
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    println!(
        "  judge similarity end to end (pages for the top 100 pairs): {:.2} s ({status})",
        start.elapsed().as_secs_f64()
    );
}

/// Our scores and each tool's found here on `cases`: AUC per level and
/// precision at k, and the seconds each took.
fn labelled_section(title: &str, cases: &[labelled::Case]) {
    let files: usize = cases.iter().map(|c| c.files.len()).sum();
    println!("{title}: {} tasks, {files} files", cases.len());
    let dolos = labelled::dolos_tool();
    let copydetect = labelled::copydetect_tool();
    let mut rows: Vec<(&str, Option<(labelled::Measure, Duration)>)> = Vec::new();
    for tool in ["judge similarity", dolos.name, copydetect.name] {
        let mut all = Vec::new();
        let mut took = Duration::ZERO;
        for case in cases {
            let dir = tempfile::tempdir().unwrap();
            let paths = labelled::write_case(dir.path(), case);
            let start = Instant::now();
            let scores = match tool {
                "Dolos" => dolos
                    .command
                    .as_ref()
                    .map(|c| labelled::dolos(c, dir.path(), &paths, case.ext)),
                "copydetect" => copydetect
                    .command
                    .as_ref()
                    .map(|c| labelled::copydetect(c, &paths)),
                _ => Some(labelled::ours(dir.path(), &paths)),
            };
            took += start.elapsed();
            all.extend(scores);
        }
        let measured = (all.len() == cases.len()).then(|| (labelled::measure(cases, &all), took));
        rows.push((tool, measured));
    }
    println!(
        "  {:<18} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>8}",
        "ROC-AUC", "L1", "L2", "L3", "L4", "L5", "L6", "all", "P@k", "seconds"
    );
    for (tool, measured) in rows {
        let Some((m, took)) = measured else {
            println!("  {tool:<18} not found");
            continue;
        };
        let cell = |l: u8| m.auc.get(&l).map_or("-".to_string(), |a| format!("{a:.3}"));
        println!(
            "  {tool:<18} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6.3} {:>8.2}",
            cell(1),
            cell(2),
            cell(3),
            cell(4),
            cell(5),
            cell(6),
            cell(0),
            m.precision,
            took.as_secs_f64()
        );
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut students = 200;
    let mut irplag = std::env::var_os("IRPLAG_DIR").map(std::path::PathBuf::from);
    let mut only: Option<String> = None;
    let mut emit: Option<std::path::PathBuf> = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--students" => students = args.next().and_then(|n| n.parse().ok()).unwrap_or(200),
            "--irplag" => irplag = args.next().map(Into::into),
            "--only" => only = args.next(),
            "--emit" => emit = args.next().map(Into::into),
            _ => {}
        }
    }
    let runs = |section: &str| only.as_deref().is_none_or(|o| o == section);
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average: {}", load.trim());
    }
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/similarity");
    let own = labelled::own_set(&fixtures);
    if let Some(dir) = &emit {
        // The copies as files, to compile and run by hand.
        for case in &own {
            for (name, source, _) in &case.files {
                let folder = dir.join(&case.name);
                std::fs::create_dir_all(&folder).unwrap();
                std::fs::write(folder.join(name), source).unwrap();
            }
        }
        return;
    }
    if runs("own") {
        for ext in ["c", "cpp", "java", "py"] {
            let cases: Vec<labelled::Case> = own.iter().filter(|c| c.ext == ext).cloned().collect();
            labelled_section(&format!("our labelled set, {ext}"), &cases);
        }
        labelled_section("our labelled set, all languages", &own);
    }
    if runs("irplag") {
        match &irplag {
            Some(dir) => labelled_section(
                &format!("IR-Plag ({})", dir.display()),
                &labelled::irplag(dir).unwrap(),
            ),
            None => println!("IR-Plag: not found (give --irplag DIR or IRPLAG_DIR)"),
        }
    }
    if runs("planted") {
        planted_set(60, 9);
    }
    if runs("class") {
        class_timing(students);
    }
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average: {}", load.trim());
    }
}
