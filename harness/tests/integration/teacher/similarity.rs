//! `judge similarity`: a planted class (renamed, reordered and padded
//! copies among independent solutions of one problem) ranks every copy
//! above every unrelated pair; the labelled set (copies at the six levels
//! of disguise among independent solutions, in C, C++, Java and Python)
//! tells copies from independent work at every level; starter code
//! raises no pair; the pair pages work in headless Chromium with a
//! student's name that is markup; and `grade --class` has a similarity
//! section.

#[path = "../../../benches/support/labelled.rs"]
mod labelled;
#[path = "../../../benches/support/levels.rs"]
mod levels;
#[path = "../../../benches/support/levels_flow.rs"]
mod levels_flow;
#[path = "../../../benches/support/planted.rs"]
mod planted;

use predicates::prelude::*;

use super::*;

fn write_class(dir: &Path, files: &[(String, String)], problem: &str, ext: &str) {
    for (student, source) in files {
        let folder = dir.join(student);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join(format!("{problem}.{ext}")), source).unwrap();
    }
}

fn similarity(args: &[&std::ffi::OsStr]) -> assert_cmd::assert::Assert {
    let here = tempfile::tempdir().unwrap();
    judge()
        .current_dir(here.path())
        .arg("similarity")
        .args(args)
        .timeout(Duration::from_secs(120))
        .assert()
}

/// The student pairs of the listing's lines, in order.
fn listed_pairs(out: &str) -> Vec<(String, String)> {
    out.lines()
        .filter(|l| l.contains('%') && l.contains(" ~ "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "~").unwrap();
            (words[at - 1].to_string(), words[at + 1].to_string())
        })
        .collect()
}

#[test]
fn planted_copies_rank_above_every_unrelated_pair() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let (files, planted) = planted::planted_class(7, 40, 6);
    write_class(&class, &files, "sum", "c");
    let pages = dir.path().join("pages");
    let out = similarity(&[
        class.as_os_str(),
        "--min".as_ref(),
        "0".as_ref(),
        "--top".as_ref(),
        "1000".as_ref(),
        "--html".as_ref(),
        pages.as_os_str(),
    ])
    .success();
    let out = stdout_of(&out);
    assert!(out.contains("40 files compared"), "{out}");
    let pairs = listed_pairs(&out);
    let mut top: Vec<(String, String)> = pairs[..planted.len()].to_vec();
    top.sort();
    assert_eq!(top, planted, "the copies first:\n{out}");
    // Each copy well above the best unrelated pair.
    let percent = |line: &str| -> u32 {
        line.trim()
            .split('%')
            .next()
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    };
    let lines: Vec<&str> = out.lines().filter(|l| l.contains(" ~ ")).collect();
    let weakest_copy = percent(lines[planted.len() - 1]);
    let strongest_other = lines.get(planted.len()).map_or(0, |l| percent(l));
    assert!(weakest_copy >= 80, "{out}");
    assert!(strongest_other + 30 <= weakest_copy, "{out}");
    assert!(pages.join("index.html").is_file());
    assert!(pages.join("pair-0001.html").is_file());
}

/// Per language and level of disguise, the AUC of (original, copy) pairs
/// against (original, independent work) pairs, and the precision of each
/// task's ranking at k: asserted loosely (the figures, beside Dolos's and
/// copydetect's, are the similarity bench's). Before the normalised tokens
/// and the statement signal (issue 35) this failed: level 6 scored 0.966
/// in Java and 0.979 in C++, precision at k 0.908 in Java and 0.949 in
/// C++ (now at least 0.996 and 0.987).
#[test]
fn copies_at_every_level_of_disguise_rank_above_independent_work() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/similarity");
    let cases = labelled::own_set(&fixtures);
    assert_eq!(cases.len(), 12, "3 tasks in 4 languages");
    let mut report = String::new();
    let mut weakest = (1.0_f64, String::new());
    for ext in ["c", "cpp", "java", "py"] {
        let cases: Vec<labelled::Case> = cases.iter().filter(|c| c.ext == ext).cloned().collect();
        let scores: Vec<labelled::Scores> = cases
            .iter()
            .map(|case| {
                let dir = tempfile::tempdir().unwrap();
                let paths = labelled::write_case(dir.path(), case);
                labelled::ours(dir.path(), &paths)
            })
            .collect();
        let measured = labelled::measure(&cases, &scores);
        for (level, auc) in &measured.auc {
            report.push_str(&format!("{ext} L{level}: {auc:.3}\n"));
            if *auc < weakest.0 {
                weakest = (*auc, format!("{ext} L{level}"));
            }
        }
        report.push_str(&format!("{ext} P@k: {:.3}\n", measured.precision));
        assert!(measured.precision >= 0.95, "{report}");
    }
    assert!(weakest.0 >= 0.98, "weakest {}: {report}", weakest.1);
}

/// A class of 40 independent solutions in which three students hand in
/// one program (as written, renamed, reordered): their three pairs stand
/// out of the problem's spread, and they are one group.
#[test]
fn three_students_sharing_a_program_stand_out_as_one_group() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let (mut files, _) = planted::planted_class(21, 40, 0);
    let shared = planted::solution(4242);
    files.push(("x1".into(), shared.original()));
    files.push(("x2".into(), shared.disguised(planted::Disguise::Renamed, 5)));
    files.push((
        "x3".into(),
        shared.disguised(planted::Disguise::Reordered, 9),
    ));
    write_class(&class, &files, "sum", "c");
    let out =
        stdout_of(&similarity(&[class.as_os_str(), "--min".as_ref(), "0".as_ref()]).success());
    let standing: Vec<(String, String)> = out
        .lines()
        .filter(|l| l.ends_with("stands out"))
        .flat_map(listed_pairs)
        .collect();
    assert_eq!(
        standing,
        [("x1", "x2"), ("x1", "x3"), ("x2", "x3")].map(|(a, b)| (a.to_string(), b.to_string())),
        "{out}"
    );
    assert!(
        out.contains("spread: sum (C, 43 files, 903 pairs): median ")
            && out.contains("; 3 stand out (from "),
        "{out}"
    );
    let groups: Vec<&str> = out.lines().filter(|l| l.starts_with("group: ")).collect();
    assert_eq!(groups.len(), 1, "{out}");
    assert!(
        groups[0].starts_with("group: sum: x1, x2, x3 (3 students, 3 pairs that stand out, "),
        "{out}"
    );
}

#[test]
fn starter_code_raises_no_pair() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let starter = planted::solution(99).original();
    let (files, _) = planted::planted_class(11, 3, 0);
    // Every student's file: the starter code, then their own work.
    let files: Vec<(String, String)> = files
        .into_iter()
        .map(|(s, own)| {
            (
                s,
                format!("{starter}\n{}", own.replace("#include <stdio.h>\n", "")),
            )
        })
        .collect();
    write_class(&class, &files, "sum", "c");
    let base = dir.path().join("base");
    std::fs::create_dir(&base).unwrap();
    std::fs::write(base.join("sum.c"), &starter).unwrap();
    let without =
        stdout_of(&similarity(&[class.as_os_str(), "--min".as_ref(), "50".as_ref()]).success());
    assert_eq!(
        listed_pairs(&without).len(),
        3,
        "the starter code alone makes them alike: {without}"
    );
    let with = stdout_of(
        &similarity(&[
            class.as_os_str(),
            "--min".as_ref(),
            "50".as_ref(),
            "--base".as_ref(),
            base.as_os_str(),
        ])
        .success(),
    );
    assert!(listed_pairs(&with).is_empty(), "{with}");
}

#[test]
fn a_pair_page_shows_both_files_escaped_in_headless_chromium() {
    let Some(browser) = chromium() else {
        skipped("chromium");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let original = planted::solution(5);
    let hostile = "<img src=x onerror=alert(1)>";
    let mut source = original.disguised(planted::Disguise::Reordered, 3);
    source.push_str("// </pre><script>alert(2)</script>\n");
    write_class(
        &class,
        &[
            ("ann".to_string(), original.original()),
            (hostile.to_string(), source),
        ],
        "sum",
        "c",
    );
    let pages = dir.path().join("pages");
    let out = similarity(&[class.as_os_str(), "--html".as_ref(), pages.as_os_str()])
        .success()
        .stdout(predicate::str::contains(
            "<img src=x onerror=alert(1)> ~ ann",
        ));
    assert_eq!(listed_pairs(&stdout_of(&out)).len(), 1);
    let (dom, log) = headless_dom(&browser, &pages.join("pair-0001.html"));
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "console messages: {console:?}");
    assert!(
        dom.contains("&lt;img src=x onerror=alert(1)&gt; ~ ann"),
        "{dom}"
    );
    assert!(
        !dom.contains("<img") && !dom.contains("<script"),
        "markup from a student: {dom}"
    );
    assert!(
        dom.matches("<mark").count() >= 2,
        "matching regions marked on both sides"
    );
    assert!(
        dom.contains("&lt;/pre&gt;&lt;script&gt;"),
        "the file's text, escaped"
    );
    let (index, _) = headless_dom(&browser, &pages.join("index.html"));
    assert!(index.contains("href=\"pair-0001.html\""), "{index}");
}

#[test]
fn grade_class_has_a_similarity_section() {
    if class_tools_missing() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    copy_dir(&class_dir(), &class);
    // frank hands in alice's sum.py with other names and comments.
    std::fs::create_dir(class.join("frank")).unwrap();
    let alice = std::fs::read_to_string(class.join("alice/sum.py")).unwrap();
    std::fs::write(class.join("frank/sum.py"), format!("# mine\n{alice}")).unwrap();
    let out = stdout_of(&grade(&class, &dir.path().join("judge.db"), &[]).success());
    assert!(out.contains("similarity: "), "{out}");
    assert!(
        out.lines().any(|l| l.contains("sum  alice ~ frank")),
        "{out}"
    );
}
