//! Kattis and Polygon packages judged as they are: `judge verify` on each
//! fixture package gives every submission the verdict its folder, tag or
//! `submissions.yaml` asks for.

use crate::support::*;

/// A fresh root holding a copy of the ecosystem fixture `name` (verify
/// writes its result store beside `problems/`).
pub(crate) fn root_with(name: &str) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    copy_dir(
        &fixtures().join("ecosystem/problems").join(name),
        &root.path().join("problems").join(name),
    );
    root
}

/// Whether a tool of `tools` is missing (said as `skipped: no TOOL`, a
/// failure where `JUDGE_TEST_REQUIRE` lists it).
pub(crate) fn lacks(tools: &[&'static str]) -> bool {
    !have(tools)
}

/// Runs `judge verify NAME` and checks that every submission got what the
/// package expects; returns stdout.
pub(crate) fn verify_package(
    name: &str,
    tools: &[&'static str],
    expected: usize,
) -> Option<String> {
    if !have(tools) {
        return None;
    }
    let root = root_with(name);
    let output = judge_at(root.path())
        .args(["verify", name])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains(&format!(
            "{expected} solutions: {expected} as expected, 0 unexpected"
        )),
        "{stdout}"
    );
    Some(stdout)
}

#[test]
fn kattis_legacy_package_with_folder_validators() {
    let Some(stdout) = verify_package("nimmove", &["gcc", "g++", "python3"], 7) else {
        return;
    };
    // The limit comes from the accepted submissions, and says so.
    assert!(
        stdout.contains("time limit 1 s: slowest run that must not time out"),
        "{stdout}"
    );
    assert!(stdout.contains("inputs valid"), "{stdout}");
    // A folder with its own build script (which writes its run script).
    assert!(stdout.contains("accepted/scripted"), "{stdout}");
}

#[test]
fn kattis_2023_draft_package_as_problemtools_lays_it_out() {
    // The validator is the only folder in output_validator/, the groups
    // are legacy testdata.yaml ones, and rejected/ is the draft's folder.
    let Some(stdout) = verify_package("anyfactor", &["python3"], 4) else {
        return;
    };
    assert!(
        stdout.contains("Kattis (2023-07-draft) package"),
        "{stdout}"
    );
    assert!(stdout.contains("7 inputs valid"), "{stdout}");
    assert!(stdout.contains("`uuid` is missing"), "{stdout}");
}

#[test]
fn domjudge_submissions_are_checked_against_their_expected_results_line() {
    let Some(stdout) = verify_package("pairsum", &["python3"], 5) else {
        return;
    };
    assert!(stdout.contains("AC|RE"), "{stdout}");
    assert!(
        stdout.contains("from domjudge-problem.ini timelimit"),
        "{stdout}"
    );
    assert!(
        stdout.contains("submissions/README.txt: not in a folder"),
        "{stdout}"
    );
    // A line that does not allow what the submission gets is unexpected.
    let root = root_with("pairsum");
    let silent = root
        .path()
        .join("problems/pairsum/submissions/mixed/silent.py");
    let text = std::fs::read_to_string(&silent).unwrap();
    std::fs::write(&silent, text.replace("WRONG-ANSWER, NO-OUTPUT", "CORRECT")).unwrap();
    let output = judge_at(root.path())
        .args(["verify", "pairsum"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("expected one of AC, got WA"), "{stdout}");
}

#[test]
fn legacy_scoring_by_the_default_grader() {
    // The partially accepted submission fails a sample and group2: the
    // grader ignores samples and accepts secret when any group passes.
    let Some(stdout) = verify_package("pickmax", &["python3"], 3) else {
        return;
    };
    assert!(stdout.contains("AC partial  AC  40"), "{stdout}");
    // A learner's submission gets the same: AC with 40 points.
    let root = root_with("pickmax");
    let file =
        fixtures().join("ecosystem/problems/pickmax/submissions/partially_accepted/first_ten.py");
    let output = judge_at(root.path())
        .args(["test", "pickmax"])
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("first_ten.py: AC · score 40"), "{stdout}");
    // A group scoring beyond its range breaks the package's rule.
    let group1 = root
        .path()
        .join("problems/pickmax/data/secret/group1/testdata.yaml");
    let text = std::fs::read_to_string(&group1).unwrap();
    std::fs::write(&group1, text.replace("range: 0 40", "range: 0 30")).unwrap();
    let output = judge_at(root.path())
        .args(["verify", "pickmax"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("score 40 on secret/group1 is outside its range [0, 30]"),
        "{stdout}"
    );
}

#[test]
fn a_settled_time_limit_is_kept_in_the_result_store() {
    if !have(&["python3"]) {
        return;
    }
    let root = root_with("pickmax");
    let package = root.path().join("problems/pickmax");
    let file = package.join("submissions/wrong_answer/smallest.py");
    let test = || {
        let output = judge_at(root.path())
            .args(["test", "pickmax"])
            .arg(&file)
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    const STORED: &str = "(settled before, from the result store)";
    // The first call runs the accepted submission to settle the limit.
    let first = test();
    assert!(
        first.contains(
            "pickmax: time limit 1 s: slowest run that must not time out, accepted/largest.py"
        ),
        "{first}"
    );
    assert!(!first.contains(STORED), "{first}");
    // The second takes it from judge.db beside problems/.
    let second = test();
    assert!(second.contains(STORED), "{second}");
    assert!(root.path().join("judge.db").is_file());
    // A changed accepted submission settles the limit anew.
    let accepted = package.join("submissions/accepted/largest.py");
    let text = std::fs::read_to_string(&accepted).unwrap();
    std::fs::write(&accepted, format!("# faster now\n{text}")).unwrap();
    let third = test();
    assert!(!third.contains(STORED), "{third}");
    // verify settles it too, and test then reuses what verify settled.
    std::fs::write(package.join("data/secret/group1/01-one.ans"), "-5\n\n").unwrap();
    let output = judge_at(root.path())
        .args(["verify", "pickmax"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let fourth = test();
    assert!(fourth.contains(STORED), "{fourth}");
}

#[test]
fn legacy_input_format_validators_run() {
    if !have(&["gcc", "g++", "python3"]) {
        return;
    }
    let root = root_with("nimmove");
    let package = root.path().join("problems/nimmove");
    std::fs::rename(
        package.join("input_validators"),
        package.join("input_format_validators"),
    )
    .unwrap();
    // One input the validator must reject: it runs, not only is read.
    std::fs::write(package.join("data/secret/01-small-won.in"), "x\n").unwrap();
    let output = judge_at(root.path())
        .args(["verify", "nimmove"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("input_format_validators: read as input_validators"),
        "{stdout}"
    );
    assert!(
        stdout.contains("input validator nimmove_input rejects secret/01-small-won"),
        "{stdout}"
    );
    assert!(!stdout.contains("no input validators"), "{stdout}");
}

#[test]
fn kattis_legacy_interactive_package() {
    verify_package("nimduel", &["gcc", "g++", "python3"], 5);
}

#[test]
fn kattis_2025_scoring_package_with_groups_and_rules() {
    let Some(stdout) = verify_package("subtraction", &["gcc", "g++", "python3"], 7) else {
        return;
    };
    // valid_output/ and invalid_output/ (one with its own
    // output_validator_args) under the default output validator.
    assert!(stdout.contains("3 output validator tests pass"), "{stdout}");
    // Its `.ctd` validator (with `{{constants}}`) accepts every test input
    // (and the output cases' inputs) and rejects the unsorted invalid input; without checktestdata that input
    // is reported as not checked, never as passed.
    // .ci/run installs it: there its absence is a failure, not a skip.
    if present("checktestdata") {
        assert!(
            stdout.contains("12 inputs valid (2 validators), 2 invalid inputs rejected"),
            "{stdout}"
        );
    } else {
        skip("checktestdata", "the .ctd validator's own verdicts");
        assert!(
            stdout.contains("skipped: no checktestdata") && stdout.contains("not checked"),
            "{stdout}"
        );
    }
}

/// A file handed to `judge test` gets the package's `include/cpp/` files
/// (with its `{{constants}}` filled in), as the package's own submissions
/// do: its accepted `cycle.cpp`, copied outside, includes `subtraction.h`.
#[test]
fn a_file_handed_in_gets_the_packages_include_files() {
    if !have(&["g++"]) {
        return;
    }
    let root = root_with("subtraction");
    let mine = root.path().join("mine.cpp");
    std::fs::copy(
        root.path()
            .join("problems/subtraction/submissions/accepted/cycle.cpp"),
        &mine,
    )
    .unwrap();
    let report = root.path().join("report.json");
    judge_at(root.path())
        .args(["test", "subtraction"])
        .arg(&mine)
        .arg("--json")
        .arg(&report)
        .assert()
        .code(predicates::ord::le(1));
    let report = read_json(&report);
    assert_eq!(report["submissions"][0]["verdict"], "AC", "{report:#}");
}

#[test]
fn kattis_2025_multi_pass_package() {
    // The validator plays a reply and asks for a second pass; the
    // submission that only knows the opening fails there, the one that
    // crashes on its second run is RTE.
    verify_package("nimrounds", &["gcc", "python3"], 4);
}

#[test]
fn a_multi_pass_validator_may_not_ask_for_more_passes_than_allowed() {
    if !have(&["gcc", "python3"]) {
        return;
    }
    let root = root_with("nimrounds");
    let package = root.path().join("problems/nimrounds");
    // The answer file says how many rounds the validator plays: three.
    std::fs::write(package.join("data/secret/03-ten.ans"), "3\n").unwrap();
    let output = judge_at(root.path())
        .args(["verify", "nimrounds"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("JE  secret/03-ten")
            && stdout.contains("asked for pass 3 (nextpass.in), but limits.validation_passes is 2"),
        "{stdout}"
    );
    // Three passes allowed: the same game is accepted.
    let yaml = std::fs::read_to_string(package.join("problem.yaml")).unwrap();
    std::fs::write(
        package.join("problem.yaml"),
        yaml.replace("validation_passes: 2", "validation_passes: 3"),
    )
    .unwrap();
    let output = judge_at(root.path())
        .args(["verify", "nimrounds"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("4 as expected, 0 unexpected"), "{stdout}");
}

#[test]
fn a_legacy_multi_pass_package_spelled_in_validation_runs() {
    if !have(&["gcc", "python3"]) {
        return;
    }
    // nimrounds written as contest archives write legacy multi-pass
    // problems: `validation: custom multi-pass`, output_validators/.
    let root = root_with("nimrounds");
    let package = root.path().join("problems/nimrounds");
    let yaml = package.join("problem.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    let legacy = text
        .replace("problem_format_version: 2025-09\n", "")
        .replace("type: multi-pass", "validation: custom multi-pass")
        .replace(
            "credits:\n  authors: Game Judge fixtures",
            "author: Game Judge fixtures",
        )
        .replace("keywords: [games, nim, multi-pass]", "keywords: games nim");
    assert_ne!(text, legacy);
    std::fs::write(&yaml, legacy).unwrap();
    std::fs::create_dir(package.join("output_validators")).unwrap();
    std::fs::rename(
        package.join("output_validator"),
        package.join("output_validators/play"),
    )
    .unwrap();
    let output = judge_at(root.path())
        .args(["verify", "nimrounds"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("Kattis (legacy) package"), "{stdout}");
    assert!(stdout.contains("4 as expected, 0 unexpected"), "{stdout}");
}

#[test]
fn polygon_package_with_testlib_checker_validator_and_tags() {
    let Some(stdout) = verify_package("pebbles", &["g++", "python3"], 7) else {
        return;
    };
    assert!(
        stdout.contains("time limit") || stdout.contains("1.00 s"),
        "{stdout}"
    );
    // The checker's own tests: ok, wrong-answer and presentation-error.
    assert!(stdout.contains("3 checker tests pass"), "{stdout}");
}

#[test]
fn polygon_interactive_package_with_testlib_interactor() {
    verify_package("countdown", &["g++"], 5);
}

#[test]
fn a_learner_tests_a_file_on_a_kattis_package() {
    if !have(&["gcc", "g++", "python3"]) {
        return;
    }
    let root = root_with("nimmove");
    let accepted = fixtures().join("ecosystem/problems/nimmove/submissions/accepted");
    let file = std::fs::read_dir(&accepted)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "py"))
        .expect("a Python accepted submission");
    let output = judge_at(root.path())
        .args(["test", "nimmove"])
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("nimmove: time limit 1 s"), "{stdout}");
}

#[test]
fn a_submission_in_the_wrong_folder_is_unexpected() {
    if !have(&["gcc", "g++", "python3"]) {
        return;
    }
    let root = root_with("nimmove");
    let submissions = root.path().join("problems/nimmove/submissions");
    std::fs::rename(
        submissions.join("wrong_answer/take_one.py"),
        submissions.join("accepted/take_one.py"),
    )
    .unwrap();
    let output = judge_at(root.path())
        .args(["verify", "nimmove"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("accepted/take_one.py") && stdout.contains("expected AC, got WA"),
        "{stdout}"
    );
    assert!(stdout.contains("6 as expected, 1 unexpected"), "{stdout}");
}

#[test]
fn an_output_validator_test_with_another_verdict_fails_the_package() {
    if !have(&["gcc", "g++", "python3"]) {
        return;
    }
    let root = root_with("subtraction");
    // The "invalid" output now holds the right answer: the validator accepts it.
    let invalid = root
        .path()
        .join("problems/subtraction/data/invalid_output/01-other-player");
    std::fs::copy(invalid.with_extension("ans"), invalid.with_extension("out")).unwrap();
    // And a valid output's input is above the bound: it must be valid input.
    let valid = root
        .path()
        .join("problems/subtraction/data/valid_output/01-any-case.in");
    std::fs::write(valid, "2000000000000000000 2\n1 3\n").unwrap();
    let output = judge_at(root.path())
        .args(["verify", "subtraction"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("output validator on invalid_output/01-other-player: expected WA, got AC"),
        "{stdout}"
    );
    assert!(!stdout.contains("output validator tests pass"), "{stdout}");
    assert!(
        stdout.contains("input validator bounds rejects valid_output/01-any-case"),
        "{stdout}"
    );
}

#[test]
fn a_polygon_pypy_solution_runs_under_pypy_or_is_skipped_without_it() {
    if !have(&["g++", "python3"]) {
        return;
    }
    let root = root_with("pebbles");
    let xml = root.path().join("problems/pebbles/problem.xml");
    let text = std::fs::read_to_string(&xml).unwrap();
    let changed = text.replace(
        r#"<source path="solutions/ok.py" type="python.3"/>"#,
        r#"<source path="solutions/ok.py" type="python.pypy3"/>"#,
    );
    assert_ne!(text, changed, "the fixture names ok.py as Python 3");
    std::fs::write(&xml, changed).unwrap();
    let output = judge_at(root.path())
        .args(["verify", "pebbles"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    match which("pypy3") {
        Some(_) => assert!(stdout.contains("7 as expected"), "{stdout}"),
        None => {
            skip("pypy3", "checked that the judge reports it");
            assert!(
                stdout.contains("solutions/ok.py") && stdout.contains("skipped: no pypy3"),
                "{stdout}"
            );
        }
    }
}

/// VIVA is in no package registry, so its runner is checked against a
/// stand-in for problemtools' `viva.sh` (exit 42 valid): the judge must
/// pass it the script and the input, and read its exit code, or say it is
/// skipped when there is none.
#[test]
fn a_viva_validator_runs_through_viva_sh_or_is_skipped() {
    if !have(&["gcc", "g++", "python3"]) {
        return;
    }
    let root = root_with("subtraction");
    std::fs::write(
        root.path()
            .join("problems/subtraction/input_validators/shape.viva"),
        "* a VIVA pattern; the stand-in only checks that it is given one\n",
    )
    .unwrap();
    let verify = |path: &std::ffi::OsStr| {
        let output = judge_at(root.path())
            .env("PATH", path)
            .args(["verify", "subtraction"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let path = std::env::var_os("PATH").unwrap_or_default();
    let without = verify(&path);
    assert!(
        without.contains("input validator shape.viva: skipped: no viva"),
        "{without}"
    );

    let bin = tempfile::tempdir().unwrap();
    let stub = bin.path().join("viva.sh");
    std::fs::write(
        &stub,
        "#!/bin/sh\n# Stand-in: valid when given a .viva script and a first line of two numbers.\n\
         case \"$1\" in *.viva) ;; *) exit 2 ;; esac\n\
         read -r a b rest || exit 43\n\
         case \"$a$b\" in ''|*[!0-9]*) exit 43 ;; esac\n\
         exit 42\n",
    )
    .unwrap();
    // Runs see the tool's own folder, as the unprivileged run user.
    for path in [bin.path(), stub.as_path()] {
        std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
    }
    let mut with_stub = std::ffi::OsString::from(bin.path());
    with_stub.push(":");
    with_stub.push(&path);
    let with = verify(&with_stub);
    assert!(!with.contains("skipped: no viva"), "{with}");
    // `bounds`, the `.ctd` one where checktestdata is installed, and VIVA.
    let validators = 2 + usize::from(present("checktestdata"));
    assert!(
        with.contains(&format!("inputs valid ({validators} validators)")),
        "{with}"
    );
    // The stand-in rejects an input whose first line is not two numbers.
    let first = root.path().join("problems/subtraction/data/sample/1.in");
    std::fs::write(&first, "seven 2\n1 3\n").unwrap();
    let broken = verify(&with_stub);
    assert!(
        broken.contains("input validator shape.viva rejects sample/1"),
        "{broken}"
    );
}
