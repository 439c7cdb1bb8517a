//! The problem setter's commands on whole packages: verify's package
//! stage (generators, validators), generate, broken packages, and the
//! other formats' folders beside ours.

use predicates::prelude::*;

use crate::support::*;

#[test]
fn verify_catches_a_generated_input_that_drifted() {
    let root = scratch_root_with_submissions("sum");
    let input = root.path().join("problems/sum/data/secret/04-generated.in");
    let text = std::fs::read_to_string(&input)
        .unwrap()
        .replacen('1', "2", 1);
    std::fs::write(&input, text).unwrap();
    judge_at(root.path())
        .args(["verify", "sum"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "04-generated.in: the generator's output differs from the committed file",
        ));
}

#[test]
fn generate_writes_inputs_and_the_references_answers() {
    let root = scratch_root_with_submissions("sum");
    let secret = root.path().join("problems/sum/data/secret");
    let (input, answer) = (
        secret.join("04-generated.in"),
        secret.join("04-generated.ans"),
    );
    let (want_in, want_ans) = (
        std::fs::read(&input).unwrap(),
        std::fs::read(&answer).unwrap(),
    );
    std::fs::remove_file(&input).unwrap();
    std::fs::remove_file(&answer).unwrap();
    judge_at(root.path())
        .args(["generate", "sum"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "sum: 1 inputs generated, 4 answers written by sum.rs",
        ));
    assert_eq!(
        std::fs::read(&input).unwrap(),
        want_in,
        "same arguments, same bytes"
    );
    assert_eq!(
        std::fs::read(&answer).unwrap(),
        want_ans,
        "the reference's answer"
    );
}

#[test]
fn verify_reports_a_broken_package_and_still_checks_the_others() {
    judge_fixtures()
        .args(["verify", "sum", "broken"])
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("broken package:")
                .and(predicate::str::contains("memroy"))
                .and(predicate::str::contains(
                    "3 solutions: 3 as expected, 0 unexpected",
                )),
        );
}

#[test]
fn kattis_and_polygon_folders_are_listed_and_broken_ones_reported() {
    let root = tempfile::tempdir().unwrap();
    let problems = root.path().join("problems");
    copy_dir(
        &fixtures().join("ecosystem/problems/nimmove"),
        &problems.join("nimmove"),
    );
    copy_dir(
        &fixtures().join("ecosystem/problems/pebbles"),
        &problems.join("pebbles"),
    );
    copy_dir(&fixtures().join("problems/sum"), &problems.join("sum"));
    std::fs::create_dir_all(problems.join("broken-yaml")).unwrap();
    std::fs::write(
        problems.join("broken-yaml/problem.yaml"),
        "name: x\nlimits:\n  time_multiplier: [oops\n",
    )
    .unwrap();
    let output = judge_at(root.path()).arg("list").output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stdout}{stderr}");
    assert!(
        stdout.contains("sum"),
        "the good package is still listed: {stdout}"
    );
    assert!(
        stdout.contains("nimmove") && stdout.contains("pebbles"),
        "Kattis and Polygon packages are listed like ours: {stdout}"
    );
    assert!(
        stderr.contains("broken-yaml/problem.yaml:4: invalid YAML"),
        "the file and line of a malformed manifest: {stderr}"
    );
}

#[test]
fn a_generator_that_crashes_is_a_broken_package_not_a_usage_error() {
    if !have(&["rustc"]) {
        return;
    }
    let root = scratch_root_with("sum");
    std::fs::write(
        root.path().join("problems/sum/generator.rs"),
        "fn main() { std::process::exit(7); }\n",
    )
    .unwrap();
    judge_at(root.path())
        .args(["generate", "sum"])
        .assert()
        .code(3)
        .stderr(predicates::str::contains("sum: "));
}

#[test]
fn verify_skips_a_solution_whose_language_this_machine_lacks() {
    let root = scratch_root_with("sum");
    let package = root.path().join("problems/sum");
    std::fs::copy(
        fixtures().join("submissions/sum/AC/sum.py"),
        package.join("other.py"),
    )
    .unwrap();
    let manifest = std::fs::read_to_string(package.join("problem.toml")).unwrap();
    // Only the Python reference, in a language this machine "lacks".
    let head = manifest.split("[[solution]]").next().unwrap();
    std::fs::write(
        package.join("problem.toml"),
        format!("{head}[[solution]]\nfile = \"other.py\"\nexpect = \"AC\"\n"),
    )
    .unwrap();
    std::fs::write(
        root.path().join("languages.toml"),
        "[python]\nname = \"Python 3\"\nextensions = [\"py\"]\nrun = [\"gj-no-such-python\", \"{source}\"]\n",
    )
    .unwrap();
    let output = judge_at(root.path())
        .args(["verify", "sum", "--fresh"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("other.py") && text.contains("skipped: no gj-no-such-python"),
        "{text}"
    );
    assert!(text.contains("1 skipped (tools missing)"), "{text}");
    assert_eq!(
        output.status.code(),
        Some(0),
        "a skip is not a failure: {text}"
    );
}
