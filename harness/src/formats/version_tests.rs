//! The three Kattis versions, each with its own names, and the names of
//! other versions that published packages still use: read with a warning
//! naming the file and the modern name, never refused.

use std::path::Path;

use super::malformed_tests::{copy_fixture, error_of, replace};
use super::tests::{assert_two_pass_with_validator, names, read, submission};
use super::*;
use crate::verdict::Verdict;

fn read_dir(dir: &Path) -> Package {
    match read_package(dir) {
        Some(Ok(package)) => package,
        Some(Err(error)) => panic!("{error}"),
        None => panic!("{} is no package", dir.display()),
    }
}

/// Asserts some warning contains every one of `words`.
fn assert_warned(package: &Package, words: &[&str]) {
    assert!(
        package
            .warnings
            .iter()
            .any(|w| words.iter().all(|word| w.contains(word))),
        "no warning with {words:?}: {:#?}",
        package.warnings
    );
}

#[test]
fn a_draft_package_is_read_as_problemtools_reads_it() {
    let package = read("anyfactor");
    assert_eq!(package.format, PackageFormat::Kattis2023Draft);
    assert_eq!(package.name, "Any Factor");
    // The draft's defaults, with the package's own multiplier.
    let TimeLimitRule::FromSubmissions {
        ac_to_time_limit,
        time_limit_to_tle,
        margin_is_error,
        ..
    } = &package.limits.time
    else {
        panic!("{:?}", package.limits.time)
    };
    assert_eq!((*ac_to_time_limit, *time_limit_to_tle), (3.0, 1.5));
    assert!(!margin_is_error, "problemtools only warns in the draft");
    // The only folder inside output_validator/ is the validator.
    let OutputJudging::KattisValidator(validator) = &package.output else {
        panic!("{:?}", package.output)
    };
    assert_eq!(validator.name, "factor_validator");
    assert_eq!(validator.language, "python3");
    // Legacy groups: every folder is one, testdata.yaml inherited down.
    let groups: Vec<&str> = package.groups.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(groups, ["sample", "secret", "secret/small"]);
    assert_eq!(
        names(&package),
        [
            "sample/1",
            "sample/2",
            "secret/01-prime",
            "secret/02-big-prime",
            "secret/03-power",
            "secret/small/01-six",
            "secret/small/02-seven-thirteen",
        ]
    );
    let test = |name: &str| package.tests.iter().find(|t| t.name == name).unwrap();
    assert_eq!(
        test("secret/01-prime").input_validator_args,
        ValidatorArgs::Same(vec!["max=1000000".into()])
    );
    assert_eq!(
        test("secret/small/01-six").input_validator_args,
        ValidatorArgs::Same(vec!["max=100".into()])
    );
    assert_eq!(test("sample/1").output_validator_args, ["strict"]);
    // Legacy folders keep their overall verdict; the draft's rejected/
    // gets 2025-09's default rule.
    assert_eq!(
        submission(&package, "wrong_answer/half.py").expectation,
        Expectation::Overall {
            verdict: Verdict::WrongAnswer,
            partial: false
        }
    );
    let Expectation::Rules(rules) = &submission(&package, "rejected/no_newline.py").expectation
    else {
        panic!("rejected/ has rules")
    };
    assert_eq!(rules[0].required.as_ref().unwrap().len(), 3);
    assert_warned(&package, &["problem.yaml", "`uuid` is missing"]);
}

#[test]
fn draft_spellings_of_the_version_and_of_test_group_files() {
    let (_temp, dir) = copy_fixture("anyfactor");
    replace(
        &dir.join("problem.yaml"),
        "problem_format_version: 2023-07-draft",
        "problem_format_version: 2023-07",
    );
    // The draft's later name for the settings file.
    let small = dir.join("data/secret/small");
    std::fs::rename(small.join("testdata.yaml"), small.join("test_group.yaml")).unwrap();
    let package = read_dir(&dir);
    assert_eq!(package.format, PackageFormat::Kattis2023Draft);
    let six = package
        .tests
        .iter()
        .find(|t| t.name == "secret/small/01-six")
        .unwrap();
    assert_eq!(
        six.input_validator_args,
        ValidatorArgs::Same(vec!["max=100".into()])
    );
}

#[test]
fn a_2025_package_with_testdata_yaml_and_an_older_drafts_scoring_keys() {
    let (_temp, dir) = copy_fixture("subtraction");
    let secret = dir.join("data/secret");
    // As the specification's own scoring example writes them.
    std::fs::remove_file(secret.join("group1/test_group.yaml")).unwrap();
    std::fs::write(
        secret.join("group1/testdata.yaml"),
        "scoring:\n  score: 40\ninput_validator_flags:\n  bounds: --max-n {{small_n}}\n",
    )
    .unwrap();
    std::fs::remove_file(secret.join("group2/test_group.yaml")).unwrap();
    std::fs::write(
        secret.join("group2/testdata.yaml"),
        "scoring:\n  score: 60\n  aggregation: sum\n  require_pass: [sample, secret/group1]\n\
         output_validator_flags: case_sensitive\non_reject: continue\n",
    )
    .unwrap();
    let package = read_dir(&dir);
    let original = read("subtraction");
    assert_eq!(package.groups, original.groups);
    for (test, before) in package.tests.iter().zip(&original.tests) {
        assert_eq!(test.input_validator_args, before.input_validator_args);
        assert_eq!(test.output_validator_args, before.output_validator_args);
    }
    assert_warned(
        &package,
        &["group1/testdata.yaml", "read as test_group.yaml"],
    );
    assert_warned(
        &package,
        &["group2/testdata.yaml:1", "`scoring`", "max_score"],
    );
    assert_warned(
        &package,
        &[
            "group2/testdata.yaml:5",
            "`output_validator_flags`",
            "output_validator_args",
        ],
    );
    assert_warned(&package, &["`on_reject` is a legacy grader key"]);
}

#[test]
fn legacy_names_in_a_2025_package_are_read_with_warnings() {
    let (_temp, dir) = copy_fixture("nimrounds");
    let yaml = dir.join("problem.yaml");
    replace(&yaml, "type: multi-pass", "validation: custom multi-pass");
    replace(
        &yaml,
        "  memory: 256",
        "  memory: 256\n  time_multiplier: 4\n  time_safety_margin: 3",
    );
    std::fs::rename(dir.join("statement"), dir.join("problem_statement")).unwrap();
    std::fs::create_dir(dir.join("output_validators")).unwrap();
    std::fs::rename(
        dir.join("output_validator"),
        dir.join("output_validators/play"),
    )
    .unwrap();
    std::fs::rename(
        dir.join("input_validators"),
        dir.join("input_format_validators"),
    )
    .unwrap();
    let package = read_dir(&dir);
    assert_two_pass_with_validator(&package, "play");
    assert_eq!(package.input_validators.len(), 1);
    let TimeLimitRule::FromSubmissions {
        ac_to_time_limit,
        time_limit_to_tle,
        ..
    } = &package.limits.time
    else {
        panic!()
    };
    assert_eq!((*ac_to_time_limit, *time_limit_to_tle), (4.0, 3.0));
    assert_warned(&package, &["problem.yaml:", "`validation`", "read as type"]);
    assert_warned(
        &package,
        &[
            "`limits.time_multiplier`",
            "time_multipliers.ac_to_time_limit",
        ],
    );
    assert_warned(&package, &["output_validators: read as output_validator"]);
    assert_warned(
        &package,
        &["input_format_validators: read as input_validators"],
    );
    assert_warned(&package, &["problem_statement: read as statement/"]);
}

#[test]
fn a_legacy_package_with_the_old_names_of_its_own_version() {
    let (_temp, dir) = copy_fixture("nimmove");
    std::fs::rename(
        dir.join("input_validators"),
        dir.join("input_format_validators"),
    )
    .unwrap();
    let package = read_dir(&dir);
    let [InputValidator::Program { program, .. }] = package.input_validators.as_slice() else {
        panic!("{:?}", package.input_validators)
    };
    assert!(
        program
            .path
            .starts_with(dir.join("input_format_validators"))
    );
    assert_warned(
        &package,
        &["input_format_validators: read as input_validators"],
    );
}

#[test]
fn legacy_multi_pass_is_spelled_in_validation() {
    let (_temp, dir) = copy_fixture("nimrounds");
    let yaml = dir.join("problem.yaml");
    replace(&yaml, "problem_format_version: 2025-09\n", "");
    replace(&yaml, "type: multi-pass", "validation: custom multi-pass");
    replace(
        &yaml,
        "credits:\n  authors: Game Judge fixtures",
        "author: Game Judge fixtures",
    );
    replace(
        &yaml,
        "keywords: [games, nim, multi-pass]",
        "keywords: games nim",
    );
    replace(&yaml, "validation_passes: 2", "validation_passes: 3");
    std::fs::create_dir(dir.join("output_validators")).unwrap();
    std::fs::rename(
        dir.join("output_validator"),
        dir.join("output_validators/play"),
    )
    .unwrap();
    std::fs::remove_file(dir.join("submissions/submissions.yaml")).unwrap();
    let package = read_dir(&dir);
    assert_eq!(package.format, PackageFormat::KattisLegacy);
    assert_eq!(
        package.interaction,
        Interaction::MultiPass {
            passes: 3,
            interactive: false
        }
    );
    assert!(matches!(package.output, OutputJudging::KattisValidator(_)));
}

#[test]
fn a_version_no_one_wrote_is_refused_with_its_line() {
    let (_temp, dir) = copy_fixture("anyfactor");
    let yaml = dir.join("problem.yaml");
    replace(
        &yaml,
        "problem_format_version: 2023-07-draft",
        "problem_format_version: draft",
    );
    let error = error_of(&dir);
    assert_eq!(error.path, yaml);
    assert_eq!(error.field.as_deref(), Some("problem_format_version"));
    assert!(error.message.contains("2023-07-draft"), "{error}");
}

#[test]
fn domjudge_expected_results_outside_the_standard_folders() {
    let package = read("pairsum");
    let got = |name: &str| &submission(&package, name).expectation;
    assert_eq!(
        got("mixed/no_negatives.py"),
        &Expectation::OneOf {
            verdicts: vec![Verdict::Accepted, Verdict::RuntimeError],
            score: None
        }
    );
    assert_eq!(
        got("mixed/silent.py"),
        &Expectation::OneOf {
            verdicts: vec![Verdict::WrongAnswer],
            score: None
        }
    );
    // In a standard folder the folder says it, as DOMjudge has it.
    assert_eq!(
        got("wrong_answer/difference.py"),
        &Expectation::Overall {
            verdict: Verdict::WrongAnswer,
            partial: false
        }
    );
    assert_warned(&package, &["difference.py:1", "@EXPECTED_RESULTS@ ignored"]);
    // A stray file and an untagged one in an unknown folder: not run.
    assert_warned(&package, &["submissions/README.txt", "not run"]);
    assert_warned(&package, &["extra/untagged.py", "no @EXPECTED_RESULTS@"]);
    // DOMjudge's @EXPECTED_SCORE@ tag, not a number: results.
    assert_eq!(
        got("mixed/score_tag.py"),
        &Expectation::OneOf {
            verdicts: vec![Verdict::Accepted],
            score: None
        }
    );
    assert_eq!(package.submissions.len(), 5);
    // DOMjudge's own settings file fixes the time limit.
    let TimeLimitRule::FromSubmissions {
        fixed: Some((limit, origin)),
        ..
    } = &package.limits.time
    else {
        panic!("{:?}", package.limits.time)
    };
    assert_eq!(limit.as_secs_f64(), 2.0);
    assert!(origin.contains("domjudge-problem.ini"), "{origin}");
}

#[test]
fn expected_results_in_a_2025_package_give_way_to_submissions_yaml() {
    let (_temp, dir) = copy_fixture("subtraction");
    let submissions = dir.join("submissions");
    // partial/ has rules in submissions.yaml: those stay.
    let dp = submissions.join("partial/dp.c");
    let text = std::fs::read_to_string(&dp).unwrap();
    std::fs::write(&dp, format!("// @EXPECTED_RESULTS@: CORRECT\n{text}")).unwrap();
    // A folder without rules: the line says it.
    std::fs::create_dir(submissions.join("mixed")).unwrap();
    std::fs::write(
        submissions.join("mixed/guess.py"),
        "# @EXPECTED_RESULTS@: WRONG_ANSWER, TIME_LIMIT_EXCEEDED\nprint(0)\n",
    )
    .unwrap();
    std::fs::write(submissions.join("stray.py"), "print(0)\n").unwrap();
    let package = read_dir(&dir);
    assert!(matches!(
        submission(&package, "partial/dp.c").expectation,
        Expectation::Rules(_)
    ));
    assert_warned(&package, &["dp.c:1", "submissions.yaml says"]);
    assert_eq!(
        submission(&package, "mixed/guess.py").expectation,
        Expectation::OneOf {
            verdicts: vec![Verdict::WrongAnswer, Verdict::TimeLimitExceeded],
            score: None
        }
    );
    assert_warned(&package, &["submissions/stray.py", "not run"]);
}

#[test]
fn data_test_group_yaml_reaches_every_folder_as_bapctools_reads_it() {
    let (_temp, dir) = copy_fixture("subtraction");
    let data = dir.join("data/test_group.yaml");
    std::fs::write(
        &data,
        "output_validator_args: [float_tolerance, \"1e-6\"]\n",
    )
    .unwrap();
    let package = read_dir(&dir);
    let args = |name: &str| {
        let test = package.tests.iter().find(|t| t.name == name).unwrap();
        test.output_validator_args.clone()
    };
    assert_eq!(args("sample/1"), ["float_tolerance", "1e-6"]);
    assert_eq!(args("secret/group1/01-bachet"), ["float_tolerance", "1e-6"]);
    // A group's own arguments still replace what it inherits.
    assert_eq!(args("secret/group2/02-medium"), ["case_sensitive"]);
    assert_warned(
        &package,
        &["data/test_group.yaml", "as BAPCtools reads them"],
    );
    // Scores belong to secret and its groups.
    std::fs::write(&data, "max_score: 50\n").unwrap();
    let error = error_of(&dir);
    assert_eq!(error.path, data);
    assert!(error.message.contains("not allowed in data/"), "{error}");
}

#[test]
fn a_package_of_samples_only_is_judged_on_them_with_a_warning() {
    let (_temp, dir) = copy_fixture("pairsum");
    std::fs::remove_dir_all(dir.join("data/secret")).unwrap();
    let package = read_dir(&dir);
    assert_eq!(names(&package), ["sample/1"]);
    assert_warned(&package, &["no data/secret folder", "samples only"]);
    std::fs::remove_dir_all(dir.join("data/sample")).unwrap();
    assert!(error_of(&dir).message.contains("no test cases"));
}

#[test]
fn legacy_hint_and_desc_files_in_a_2025_package_are_read_with_a_warning() {
    let (_temp, dir) = copy_fixture("subtraction");
    std::fs::write(dir.join("data/sample/1.desc"), "the smallest game\n").unwrap();
    let package = read_dir(&dir);
    let sample = package.tests.iter().find(|t| t.name == "sample/1").unwrap();
    assert_eq!(sample.description.as_deref(), Some("the smallest game"));
    assert_warned(&package, &["sample/1.desc", "read as `description`"]);
}

#[test]
fn legacy_problem_yaml_grading_keys_override_every_group() {
    let (_temp, dir) = copy_fixture("pickmax");
    replace(
        &dir.join("problem.yaml"),
        "  show_test_data_groups: true",
        "  show_test_data_groups: true\n  on_reject: first_error\n  reject_score: -1\n  range: 0 1000",
    );
    let package = read_dir(&dir);
    let gradings = package
        .legacy_root
        .iter()
        .chain(package.groups.iter().filter_map(|g| g.legacy.as_ref()));
    // The testdata.yaml files say `continue`; problem.yaml's first_error wins.
    for grading in gradings {
        assert!(grading.stop_on_reject, "{grading:?}");
        assert_eq!(grading.reject_score, -1.0);
        assert_eq!(grading.range, (0.0, 1000.0));
    }
    // testdata.yaml's own accept_score stays where problem.yaml gives none.
    let group1 = package
        .groups
        .iter()
        .find(|g| g.name == "secret/group1")
        .unwrap();
    assert_eq!(group1.legacy.as_ref().unwrap().accept_score, 40.0);
}

#[test]
fn the_sample_display_rules_are_2025s_and_warn_of_nothing_in_older_packages() {
    // nimduel (legacy) has `.interaction` logs beside its `.in`, without
    // the download files 2025-09 asks for; so has a draft package.
    let (_temp, dir) = copy_fixture("nimduel");
    let package = read_dir(&dir);
    assert!(
        !package.warnings.iter().any(|w| w.contains("data/sample")),
        "{:#?}",
        package.warnings
    );
    let (_temp, dir) = copy_fixture("hilo");
    std::fs::write(dir.join("data/sample/1.interaction"), "> 50\n< lower\n").unwrap();
    assert_warned(
        &read_dir(&dir),
        &["data/sample/1: its input is overridden for the statement but not for download"],
    );
}

#[test]
fn a_package_without_data_is_refused_saying_what_every_version_requires() {
    // As the format's own skeleton examples of interactive, multi-pass
    // and submit-answer problems are published: no data/ at all.
    let (_temp, dir) = copy_fixture("hilo");
    std::fs::remove_dir_all(dir.join("data")).unwrap();
    let error = error_of(&dir).to_string();
    assert!(error.contains("data"), "{error}");
    assert!(
        error.contains("no data/ folder: a package's tests are in data/secret/, which every version of the format requires"),
        "{error}"
    );
    // A package whose data generators.yaml makes is told how to make it.
    let (_temp, dir) = copy_fixture("sumgen");
    std::fs::remove_dir_all(dir.join("data")).unwrap();
    let error = error_of(&dir).to_string();
    assert!(
        error.contains("`judge generate` makes it from generators/generators.yaml"),
        "{error}"
    );
}
