//! The rest of Kattis 2025-09 and BAPCtools' additions: answer validation
//! (`answer_validators/`, `data/invalid_answer/`), the limits keys,
//! `allow_file_writing`, visualizers. Each check has a fixture that passes
//! it and a broken copy that must fail it.

use crate::ecosystem::{lacks, root_with, verify_package};
use crate::support::*;

#[test]
fn answer_validators_check_every_answer_and_reject_the_invalid_answers() {
    let Some(stdout) = verify_package("squarepair", &["python3"], 3) else {
        return;
    };
    assert!(
        stdout.contains("3 answers valid (1 answer validators)"),
        "{stdout}"
    );
    assert!(stdout.contains("2 invalid answers rejected"), "{stdout}");

    // A wrong answer in the test data fails the package.
    let root = root_with("squarepair");
    let package = root.path().join("problems/squarepair");
    std::fs::write(package.join("data/secret/01.ans"), "3 3\n").unwrap();
    let (code, stdout) = judge_output(root.path(), ["verify", "squarepair"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("secret/01: answer validator answer.py rejects the answer"),
        "{stdout}"
    );

    // So does an invalid answer that every answer validator accepts.
    std::fs::write(package.join("data/secret/01.ans"), "3 4\n").unwrap();
    std::fs::write(package.join("data/invalid_answer/sum-off.ans"), "4 3\n").unwrap();
    let (code, stdout) = judge_output(root.path(), ["verify", "squarepair"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "invalid_answer/sum-off: the invalid answer is accepted by every answer validator"
        ),
        "{stdout}"
    );
}

#[test]
fn invalid_answers_without_an_answer_validator_fail_the_package() {
    if lacks(&["python3"]) {
        return;
    }
    let root = root_with("squarepair");
    let package = root.path().join("problems/squarepair");
    std::fs::remove_dir_all(package.join("answer_validators")).unwrap();
    let (code, stdout) = judge_output(root.path(), ["verify", "squarepair"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("data/invalid_answer: 2 cases, and no answer validator"),
        "{stdout}"
    );
}

#[test]
fn a_sample_given_only_by_its_statement_files_is_made_shown_and_never_run() {
    // Sample 3 of `echoshow` has only `.in.statement`, `.ans.statement` and
    // the two download files: generate makes them, verify runs the other
    // four tests (the problem line counts 4) and agrees with generate,
    // which makes them again (no record of what it made is kept here).
    let Some(stdout) = verify_package("echoshow", &["python3"], 2) else {
        return;
    };
    assert!(stdout.contains("package; 4 tests;"), "{stdout}");
    assert!(
        stdout.contains("5 cases of generators.yaml made again"),
        "{stdout}"
    );
    let root = root_with("echoshow");
    let sample = root.path().join("problems/echoshow/data/sample");
    for ext in [
        "in.statement",
        "ans.statement",
        "in.download",
        "ans.download",
    ] {
        std::fs::remove_file(sample.join(format!("3.{ext}"))).unwrap();
    }
    let (code, stdout) = judge_output(root.path(), ["generate", "echoshow"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("echoshow: 5 cases made by generators.yaml, 0 unchanged"),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read_to_string(sample.join("3.in.download")).unwrap(),
        "3\n"
    );
    assert!(!sample.join("3.in").exists());
}

#[test]
fn folders_with_and_without_test_group_yaml_are_read_as_bapctools_reads_them() {
    // The validator needs the `--max` its folder's settings give: every
    // input valid means every folder got the settings BAPCtools gives it.
    let Some(stdout) = verify_package("mixgroups", &["python3"], 2) else {
        return;
    };
    assert!(stdout.contains("5 inputs valid"), "{stdout}");
    assert!(stdout.contains("2 invalid inputs rejected"), "{stdout}");
    assert!(
        stdout.contains("general: no test_group.yaml beside folders with one"),
        "{stdout}"
    );
}

/// `echoshow` with `text` added to its `problem.yaml`.
fn echoshow_with(yaml: &str) -> tempfile::TempDir {
    let root = root_with("echoshow");
    let path = root.path().join("problems/echoshow/problem.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("{text}{yaml}")).unwrap();
    root
}

#[test]
fn a_submission_that_writes_in_its_folder_is_rte_unless_file_writing_is_allowed() {
    if lacks(&["python3"]) {
        return;
    }
    let writes = "open('note.txt', 'w').write('x')\nprint(int(input()))\n";
    // The default, allow_file_writing: false.
    let root = echoshow_with("");
    let file = root.path().join("writes.py");
    std::fs::write(&file, writes).unwrap();
    let (code, stdout) = judge_output(root.path(), ["test", "echoshow", file.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("wrote in its working folder (note.txt), which is read-only"),
        "{stdout}"
    );
    // A submission that only reads is accepted all the same.
    let reads = root.path().join("reads.py");
    std::fs::write(&reads, "print(int(input()))\n").unwrap();
    let (code, stdout) = judge_output(root.path(), ["test", "echoshow", reads.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stdout}");

    let root = echoshow_with("allow_file_writing: true\n");
    let file = root.path().join("writes.py");
    std::fs::write(&file, writes).unwrap();
    let (code, stdout) = judge_output(root.path(), ["test", "echoshow", file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stdout}");
}

#[test]
fn a_submission_in_a_language_the_problem_does_not_list_is_refused_naming_the_listed_ones() {
    if lacks(&["python3"]) {
        return;
    }
    let root = echoshow_with("languages: [python3, java]\n");
    let c = root.path().join("echo.c");
    std::fs::write(&c, "int main(void) { return 0; }\n").unwrap();
    let (code, stdout) = judge_output(root.path(), ["test", "echoshow", c.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("CE"), "{stdout}");
    assert!(
        stdout.contains("the submission is in c; this problem accepts only python3, java"),
        "{stdout}"
    );
    let py = root.path().join("echo.py");
    std::fs::write(&py, "print(int(input()))\n").unwrap();
    let (code, stdout) = judge_output(root.path(), ["test", "echoshow", py.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stdout}");

    // `all`, as without the key: any language.
    let root = echoshow_with("languages: all\n");
    let c = root.path().join("echo.c");
    std::fs::write(&c, "int main(void) { return 0; }\n").unwrap();
    let (_, stdout) = judge_output(root.path(), ["test", "echoshow", c.to_str().unwrap()]);
    assert!(!stdout.contains("accepts only"), "{stdout}");
}

#[test]
fn a_source_over_the_code_limit_is_ce_with_the_limit_named() {
    if lacks(&["python3"]) {
        return;
    }
    let root = echoshow_with("limits:\n  code: 1\n");
    let small = root.path().join("small.py");
    std::fs::write(&small, "print(int(input()))\n").unwrap();
    let (code, stdout) = judge_output(root.path(), ["test", "echoshow", small.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stdout}");
    // 1 KiB and one byte: over by a byte, and never built.
    let big = root.path().join("big.py");
    let padding = "#".repeat(1024 - 20);
    std::fs::write(&big, format!("print(int(input()))\n{padding}\n")).unwrap();
    assert_eq!(std::fs::metadata(&big).unwrap().len(), 1025);
    let (code, stdout) = judge_output(root.path(), ["test", "echoshow", big.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("CE"), "{stdout}");
    assert!(
        stdout.contains("the submission is 2 KiB, above the code limit of 1 KiB (limits.code)"),
        "{stdout}"
    );
}

#[test]
fn a_static_validator_judges_the_submissions_files_as_a_test_of_its_group() {
    let Some(stdout) = verify_package("staticecho", &["python3"], 2) else {
        return;
    };
    // The static case is a test of secret worth 20; the others share 80.
    assert!(stdout.contains("AC  100"), "{stdout}");
    assert!(stdout.contains("WA  80"), "{stdout}");
    assert!(
        stdout.contains("ok on secret/static_validation"),
        "{stdout}"
    );

    // A static validator that breaks its protocol is the judge's failure.
    let root = root_with("staticecho");
    let validator = root
        .path()
        .join("problems/staticecho/static_validator/validate.py");
    std::fs::write(&validator, "import sys\nsys.exit(0)\n").unwrap();
    let (code, stdout) = judge_output(root.path(), ["verify", "staticecho"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("JE"), "{stdout}");
}

/// Every file named `name` below `dir`.
fn found(dir: &std::path::Path, name: &str) -> Vec<std::path::PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_name() == name)
        .map(|e| e.into_path())
        .collect()
}

#[test]
fn an_output_visualizer_draws_each_output_beside_the_results_and_is_never_judged() {
    if lacks(&["python3"]) {
        return;
    }
    let root = echoshow_with("");
    let package = root.path().join("problems/echoshow");
    let visualizer = package.join("output_visualizer");
    std::fs::create_dir_all(&visualizer).unwrap();
    // As the specification invokes it: input answer feedback_dir/ [args] < output.
    std::fs::write(
        visualizer.join("draw.py"),
        "import sys\nout = sys.stdin.read().strip()\n\
         open(sys.argv[3] + 'teamimage.svg', 'w').write('<svg><text>' + out + ' ' + ' '.join(sys.argv[4:]) + '</text></svg>')\n\
         open(sys.argv[3] + 'notes.txt', 'w').write('not an image')\n",
    )
    .unwrap();
    std::fs::write(
        package.join("data/secret/1-zero.yaml"),
        "output_visualizer_args: [--zoom, \"2\"]\n",
    )
    .unwrap();
    let file = root.path().join("twice.py");
    std::fs::write(&file, "print(2 * int(input()))\n").unwrap();
    let (code, stdout) = judge_output(root.path(), ["test", "echoshow", file.to_str().unwrap()]);
    // Judged as without a visualizer: WA on sample 1.
    assert_eq!(code, Some(1), "{stdout}");
    let images = root.path().join("visualizations/echoshow");
    let drawn = found(&images, "teamimage.svg");
    let zero = drawn
        .iter()
        .find(|p| p.ends_with("secret/1-zero/teamimage.svg"))
        .unwrap_or_else(|| panic!("{drawn:?}\n{stdout}"));
    assert_eq!(
        std::fs::read_to_string(zero).unwrap(),
        "<svg><text>0 --zoom 2</text></svg>"
    );
    // Only images are kept.
    assert!(found(&images, "notes.txt").is_empty());

    // `verify` draws the runs it makes to settle the time limit too: the
    // accepted submission's, which it does not run again.
    std::fs::remove_dir_all(&images).unwrap();
    let (code, stdout) = judge_output(root.path(), ["verify", "echoshow"]);
    assert_eq!(code, Some(0), "{stdout}");
    let drawn = found(&images, "teamimage.svg");
    assert!(
        drawn
            .iter()
            .any(|p| p.to_string_lossy().contains("echo")
                && p.ends_with("secret/2-big/teamimage.svg")),
        "{drawn:?}\n{stdout}"
    );

    // A visualizer that fails draws nothing and changes no verdict.
    std::fs::write(visualizer.join("draw.py"), "raise SystemExit(3)\n").unwrap();
    std::fs::remove_dir_all(&images).unwrap();
    let reads = root.path().join("reads.py");
    std::fs::write(&reads, "print(int(input()))\n").unwrap();
    let (code, stdout) = judge_output(root.path(), ["test", "echoshow", reads.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(found(&images, "teamimage.svg").is_empty());
}
