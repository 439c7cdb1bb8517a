//! The last of Kattis 2025-09's rules: `allow_file_writing` in a
//! conversation, output visualizers run as the specification runs them
//! in interactive and multi-pass tests (an empty output for an
//! interactive test, the last pass's output for a multi-pass one, the
//! test's own input in both), the samples' shared files checked by the
//! output validator, and `score_multiplier.txt`.

use crate::ecosystem::{lacks, root_with, verify_package};
use crate::support::*;

#[test]
fn an_interactive_submission_that_writes_in_its_folder_is_rte_unless_file_writing_is_allowed() {
    // hilo's run_time_error/notes.py finds every number but keeps notes
    // in a file: RE, its message naming the file (submissions.yaml).
    let Some(stdout) = verify_package("hilo", &["python3"], 3) else {
        return;
    };
    assert!(stdout.contains("run_time_error/notes.py"), "{stdout}");

    let root = root_with("hilo");
    let package = root.path().join("problems/hilo");
    let yaml = package.join("problem.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(&yaml, format!("{text}allow_file_writing: true\n")).unwrap();
    let notes = package.join("submissions/run_time_error/notes.py");
    let (code, stdout) = judge_output(root.path(), ["test", "hilo", notes.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stdout}");
}

/// The image `name` drawn for `test` of `submission` under `root`.
fn drawn(root: &std::path::Path, problem: &str, submission: &str, test: &str) -> String {
    let path = root
        .join("visualizations")
        .join(problem)
        .join(submission)
        .join(test)
        .join("teamimage.svg");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn an_output_visualizer_draws_an_interactive_test_from_the_interactors_feedback_folder() {
    if lacks(&["python3"]) {
        return;
    }
    let root = root_with("hilo");
    let upward = root
        .path()
        .join("problems/hilo/submissions/wrong_answer/upward.py");
    let (code, stdout) = judge_output(root.path(), ["test", "hilo", upward.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stdout}");
    // The number of the test's input, the guesses the interactor kept in
    // its feedback folder, and nothing on stdin.
    assert_eq!(
        drawn(root.path(), "hilo", "upward.py", "secret/02-high"),
        "<svg><text>100: 1 2 3 4 5 6 7 (stdin 0)</text></svg>\n"
    );
    assert_eq!(
        drawn(root.path(), "hilo", "upward.py", "secret/01-low"),
        "<svg><text>1: 1 (stdin 0)</text></svg>\n"
    );
}

#[test]
fn an_output_visualizer_draws_a_multipass_test_once_from_its_last_pass() {
    if lacks(&["python3"]) {
        return;
    }
    let root = root_with("nimrounds");
    let package = root.path().join("problems/nimrounds");
    let visualizer = package.join("output_visualizer");
    std::fs::create_dir_all(&visualizer).unwrap();
    // The first line of its input file, the output on stdin, and how many
    // rounds the validator noted in the shared feedback folder.
    std::fs::write(
        visualizer.join("draw.py"),
        "import sys\n\
         first = open(sys.argv[1]).readline().strip()\n\
         out = sys.stdin.read().strip()\n\
         rounds = len(open(sys.argv[3] + 'judgemessage.txt').readlines())\n\
         open(sys.argv[3] + 'teamimage.svg', 'w').write(f'<svg>{first} | {out} | {rounds}</svg>')\n",
    )
    .unwrap();
    let xor = package.join("submissions/accepted/xor.py");
    let (code, stdout) = judge_output(root.path(), ["test", "nimrounds", xor.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stdout}");
    // Two passes: the input is the test's own `.in` (round 1), not the
    // second pass's nextpass.in; the output is the second pass's move.
    assert_eq!(
        drawn(root.path(), "nimrounds", "xor.py", "secret/01-small"),
        "<svg>1 2 | 2 1 | 2</svg>"
    );
}

#[test]
fn a_samples_out_and_shown_ans_must_pass_the_output_validator() {
    // echoshow's sample 2 has an `.out` (shown instead of its `.ans`),
    // sample 1 only its `.ans`: both are checked; sample 3 runs nowhere.
    let Some(stdout) = verify_package("echoshow", &["python3"], 2) else {
        return;
    };
    assert!(
        stdout.contains("2 sample outputs accepted by the output validator"),
        "{stdout}"
    );

    let root = root_with("echoshow");
    let sample = root.path().join("problems/echoshow/data/sample");
    std::fs::write(sample.join("2.out"), "3\n").unwrap();
    let (code, stdout) = judge_output(root.path(), ["verify", "echoshow"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("output validator on data/sample/2.out: expected AC, got WA"),
        "{stdout}"
    );
}

#[test]
fn a_score_multiplier_scales_the_tests_maximum_score() {
    // nearecho's off_by_one/plus_one.py is accepted on both secret tests
    // with a multiplier of 0.5: 50 of 100 (submissions.yaml), and the
    // sample's multiplier is ignored.
    let Some(stdout) = verify_package("nearecho", &["python3"], 2) else {
        return;
    };
    assert!(stdout.contains("AC  50"), "{stdout}");

    // A multiplier out of [0, 1] is the validator's failure.
    let root = root_with("nearecho");
    let validator = root
        .path()
        .join("problems/nearecho/output_validator/validate.py");
    let text = std::fs::read_to_string(&validator).unwrap();
    std::fs::write(
        &validator,
        text.replace("write(\"0.5\\n\")", "write(\"2\\n\")"),
    )
    .unwrap();
    let (code, stdout) = judge_output(root.path(), ["verify", "nearecho"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("wrote an unreadable score_multiplier.txt: \"2\" (a number from 0 to 1)"),
        "{stdout}"
    );

    // So is a multiplier written for an output it rejects.
    std::fs::write(
        &validator,
        text.replace(
            "open(feedback + \"judgemessage.txt\", \"w\").write(f\"{given}",
            "open(feedback + \"score_multiplier.txt\", \"w\").write(\"0\")\nopen(feedback + \"judgemessage.txt\", \"w\").write(f\"{given}",
        ),
    )
    .unwrap();
    let far = root.path().join("far.py");
    std::fs::write(&far, "print(-5)\n").unwrap();
    let (code, stdout) = judge_output(root.path(), ["test", "nearecho", far.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("rejected the output but wrote score_multiplier.txt"),
        "{stdout}"
    );
}
