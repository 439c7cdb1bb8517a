//! BAPCtools' `generators/generators.yaml`: `judge generate` makes the
//! tests it describes (again only where a recipe changed) and `judge
//! verify` checks that the package holds what it makes, every generator
//! run twice.

use crate::ecosystem::{lacks, root_with, verify_package};
use crate::support::*;

#[test]
fn a_generators_yaml_package_verifies_and_is_made_again_only_where_it_changed() {
    let Some(stdout) = verify_package("sumgen", &["python3"], 2) else {
        return;
    };
    assert!(
        stdout.contains("6 cases of generators.yaml made again, generators deterministic"),
        "{stdout}"
    );
    let root = root_with("sumgen");
    let package = root.path().join("problems/sumgen");
    let (code, stdout) = judge_output(root.path(), ["generate", "sumgen"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("sumgen: 6 cases made by generators.yaml, 0 unchanged"),
        "{stdout}"
    );
    let (_, stdout) = judge_output(root.path(), ["generate", "sumgen"]);
    assert!(
        stdout.contains("sumgen: 0 cases made by generators.yaml, 6 unchanged"),
        "{stdout}"
    );
    // A changed generator makes its four cases again, and only those.
    let generator = package.join("generators/gen.py");
    let text = std::fs::read_to_string(&generator).unwrap();
    std::fs::write(&generator, format!("{text}# changed\n")).unwrap();
    let (_, stdout) = judge_output(root.path(), ["generate", "sumgen"]);
    assert!(
        stdout.contains("sumgen: 4 cases made by generators.yaml, 2 unchanged"),
        "{stdout}"
    );
    // So does a test file changed by hand.
    std::fs::write(package.join("data/secret/1-edge.in"), "5 5\n").unwrap();
    let (_, stdout) = judge_output(root.path(), ["generate", "sumgen"]);
    assert!(
        stdout.contains("sumgen: 1 cases made by generators.yaml, 5 unchanged"),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read_to_string(package.join("data/secret/1-edge.in")).unwrap(),
        "0 0\n"
    );
}

#[test]
fn a_drifted_test_and_a_generator_that_is_not_deterministic_fail_verify() {
    if lacks(&["python3"]) {
        return;
    }
    let root = root_with("sumgen");
    let package = root.path().join("problems/sumgen");
    std::fs::write(package.join("data/secret/1-edge.in"), "5 5\n").unwrap();
    std::fs::write(package.join("data/secret/1-edge.ans"), "10\n").unwrap();
    let (code, stdout) = judge_output(root.path(), ["verify", "sumgen"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("data/secret/1-edge.in: differs from what generators.yaml makes"),
        "{stdout}"
    );

    let root = root_with("sumgen");
    let generator = root.path().join("problems/sumgen/generators/gen.py");
    let text = std::fs::read_to_string(&generator).unwrap();
    std::fs::write(
        &generator,
        text.replace("random.Random(seed)", "random.Random()"),
    )
    .unwrap();
    let (code, stdout) = judge_output(root.path(), ["verify", "sumgen"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("`gen.py {seed} 1000 1` is not deterministic"),
        "{stdout}"
    );
}

#[test]
fn an_input_visualizer_draws_each_case_generate_makes_and_a_broken_one_is_a_warning() {
    if lacks(&["python3"]) {
        return;
    }
    let root = root_with("sumgen");
    let package = root.path().join("problems/sumgen");
    let visualizer = package.join("input_visualizer");
    std::fs::create_dir_all(&visualizer).unwrap();
    // As the specification's example draws: an SVG of the input's text,
    // here with its arguments (`input_visualizer_args`).
    std::fs::write(
        visualizer.join("draw.py"),
        "import sys\nwith open('testcase.svg', 'w') as f:\n    f.write('<svg><text>' + ' '.join([open(sys.argv[1]).read().strip()] + sys.argv[3:]) + '</text></svg>')\n",
    )
    .unwrap();
    let yaml = package.join("generators/generators.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(
        &yaml,
        text.replace(
            "      output_validator_args: [space_change_sensitive]\n",
            "      output_validator_args: [space_change_sensitive]\n      input_visualizer_args: [--scale, \"3\"]\n",
        ),
    )
    .unwrap();
    let (code, stdout) = judge_output(root.path(), ["generate", "sumgen"]);
    assert_eq!(code, Some(0), "{stdout}");
    // (sumgen has no `version:`: the one warning says BAPCtools numbers
    // its lists otherwise.)
    assert!(!stdout.contains("warning: input visualizer"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(package.join("data/secret/1-edge.svg")).unwrap(),
        "<svg><text>0 0 --scale 3</text></svg>"
    );
    // A visualizer that fails draws nothing; the cases are made all the same.
    std::fs::write(visualizer.join("draw.py"), "raise SystemExit(3)\n").unwrap();
    std::fs::write(package.join("data/secret/1-edge.in"), "5 5\n").unwrap();
    let (code, stdout) = judge_output(root.path(), ["generate", "sumgen"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("warning: input visualizer on secret/1-edge: exit code 3"),
        "{stdout}"
    );
}

#[test]
fn constants_reach_generate_commands_and_the_generators_sources() {
    if lacks(&["python3"]) {
        return;
    }
    let root = root_with("echoshow");
    let package = root.path().join("problems/echoshow");
    let yaml = package.join("problem.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(
        &yaml,
        format!("{text}constants:\n  top:\n    value: 1000\n    half: 500\n"),
    )
    .unwrap();
    // As BAPCtools' `constants` checks it: the command's and the source's
    // substituted values must agree.
    std::fs::write(
        package.join("generators/twice.py"),
        "import sys\nassert sys.argv[1] == '{{top}}' == '{{top.value}}'\nprint({{top.half}})\n",
    )
    .unwrap();
    let generators = package.join("generators/generators.yaml");
    let text = std::fs::read_to_string(&generators).unwrap();
    std::fs::write(
        &generators,
        text.replace(
            "      - big: {in: \"1000\"}",
            "      - big: twice.py {{top}}",
        ),
    )
    .unwrap();
    let (code, stdout) = judge_output(root.path(), ["generate", "echoshow"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(package.join("data/secret/2-big.in")).unwrap(),
        "500\n"
    );
}

#[test]
fn stress_out_adds_the_counterexample_to_generators_yaml_where_generate_keeps_it() {
    if lacks(&["python3"]) {
        return;
    }
    let root = root_with("sumgen");
    let package = root.path().join("problems/sumgen");
    // `--gen` names a generator of generators/; the reference is the
    // root's `solution`.
    let (code, stdout) = judge_output(
        root.path(),
        [
            "stress",
            "sumgen",
            "wrong_answer/difference.py",
            "--gen",
            "gen.py {seed} 10",
            "--seed",
            "3",
            "--out",
        ],
    );
    assert_eq!(code, Some(1), "{stdout}");
    let added = stdout
        .lines()
        .find_map(|l| l.strip_prefix("added to generators/generators.yaml as "))
        .unwrap_or_else(|| panic!("{stdout}"));
    // The list's next number.
    assert!(added.starts_with("secret/4-stress-"), "{stdout}");
    let seed = added.trim_start_matches("secret/4-");
    let yaml = std::fs::read_to_string(package.join("generators/generators.yaml")).unwrap();
    assert!(
        yaml.ends_with(&format!("      - {seed}: {{copy: stress/{seed}}}\n")),
        "{yaml}"
    );
    let test = package.join(format!("data/{added}.in"));
    let input = std::fs::read_to_string(&test).unwrap();
    // generate makes it again from the entry, the same bytes; verify agrees.
    std::fs::remove_file(&test).unwrap();
    let (code, stdout) = judge_output(root.path(), ["generate", "sumgen"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert_eq!(std::fs::read_to_string(&test).unwrap(), input);
    let (code, stdout) = judge_output(root.path(), ["verify", "sumgen"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("7 cases of generators.yaml made again"),
        "{stdout}"
    );
}
