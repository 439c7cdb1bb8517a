use super::*;

fn parse(text: &str) -> Generators {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("generators")).unwrap();
    std::fs::write(dir.path().join("generators/generators.yaml"), text).unwrap();
    read(dir.path()).unwrap().unwrap()
}

#[test]
fn seeds_are_bapctools_seeds() {
    // Python: int(hashlib.sha512(text.encode()).hexdigest(), 16) % 2**31
    assert_eq!(seed_of("", None, "gen.py {seed}"), 217_127_397);
    assert_eq!(seed_of("abc", Some(2), "gen.py {seed:2} 2"), 1_472_267_506);
    assert_eq!(
        seed_tokens("a {seed} {seed:12} {seedx} {seed:}"),
        ["{seed}", "{seed:12}"]
    );
}

#[test]
fn cases_are_named_numbered_and_counted_as_bapctools_names_them() {
    let generators = parse(
        "solution: /submissions/accepted/sol.py\n\
         data:\n  sample:\n    data:\n      - '': {in: \"1 2\", ans: \"3\"}\n      - edge: {in: \"0 0\"}\n\
         \x20 secret:\n    test_group.yaml:\n      input_validator_args: [--big]\n\
         \x20   data:\n      random:\n        generate: gen.py {seed} {count}\n        count: 3\n\
         \x20     manual: manual/five.in\n      fixed: gen.py 7\n",
    );
    let names: Vec<&str> = generators.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "sample/1",
            "sample/2-edge",
            "secret/random-1",
            "secret/random-2",
            "secret/random-3",
            "secret/manual",
            "secret/fixed",
        ]
    );
    let Source::Generate { program, args, .. } = &generators.cases[3].source else {
        panic!("{:?}", generators.cases[3]);
    };
    assert_eq!(program, "gen.py");
    assert_eq!(args[1], "2");
    assert_eq!(args[0], seed_of("", Some(2), "gen.py {seed} 2").to_string());
    assert_eq!(
        generators.cases[5].source,
        Source::Copy("manual/five".into())
    );
    assert_eq!(
        generators.group_files["secret"],
        "{\"input_validator_args\": [\"--big\"]}\n"
    );
    assert_eq!(
        generators.cases[0].solution.as_deref(),
        Some("/submissions/accepted/sol.py")
    );
}

#[test]
fn a_bad_count_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("generators")).unwrap();
    std::fs::write(
        dir.path().join("generators/generators.yaml"),
        "data:\n  secret:\n    data:\n      a:\n        generate: g.py\n        count: lots\n",
    )
    .unwrap();
    let error = read(dir.path()).unwrap().unwrap_err().to_string();
    assert!(error.contains("generators.yaml:6"), "{error}");
    assert!(error.contains("expected a count"), "{error}");
}

#[test]
fn include_makes_named_cases_again_in_its_folder_and_link_copies_a_file() {
    let generators = parse(
        "data:\n  sample:\n    data:\n      - '': {in: \"1 2\", ans: \"3\", in.download: {link: in}}\n\
         \x20 secret:\n    include: [sample]\n    data:\n      big: gen.py 9\n",
    );
    let names: Vec<&str> = generators.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["sample/1", "secret/big", "secret/1"]);
    // Inline files end with a line break, as BAPCtools writes them.
    assert_eq!(generators.cases[2].inline["in"], "1 2\n");
    assert_eq!(generators.cases[0].inline["in.download"], "1 2\n");
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("generators")).unwrap();
    std::fs::write(
        dir.path().join("generators/generators.yaml"),
        "data:\n  secret:\n    include: [nothing]\n",
    )
    .unwrap();
    let error = read(dir.path()).unwrap().unwrap_err().to_string();
    assert!(
        error.contains("no test case or folder named `nothing`"),
        "{error}"
    );
}

#[test]
fn a_command_is_split_as_a_shell_splits_it() {
    let generators =
        parse("data:\n  secret:\n    data:\n      quoted: \"gen.py 't' \\\"a b\\\" 3\"\n");
    let Source::Generate { program, args, .. } = &generators.cases[0].source else {
        panic!("{:?}", generators.cases[0].source);
    };
    assert_eq!(program, "gen.py");
    assert_eq!(args, &["t", "a b", "3"]);
}

#[test]
fn constants_are_substituted_in_commands_before_the_seed_but_not_in_inline_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("generators")).unwrap();
    std::fs::write(
        dir.path().join("problem.yaml"),
        "problem_format_version: 2025-09\nname: constants\n\
         uuid: 8ee7605a-26db-897d-15c8-b72d4e1bfcbb\n\
         constants:\n  FIVE:\n    value: 5\n    WORD: five\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("generators/generators.yaml"),
        "data:\n  secret:\n    data:\n      a: gen.py {{FIVE}} {{FIVE.WORD}} {{nope}} {seed}\n\
         \x20     b:\n        generate: gen.py {{FIVE.value}} {count}\n        count: 2\n\
         \x20     c:\n        in: \"{{FIVE}}\"\n",
    )
    .unwrap();
    let generators = read(dir.path()).unwrap().unwrap();
    let Source::Generate { args, command, .. } = &generators.cases[0].source else {
        panic!("{:?}", generators.cases[0]);
    };
    assert_eq!(command, "gen.py 5 five {{nope}} {seed}");
    let seed = seed_of("", None, "gen.py 5 five {{nope}} {seed}").to_string();
    assert_eq!(args, &["5", "five", "{{nope}}", seed.as_str()]);
    let Source::Generate { args, .. } = &generators.cases[2].source else {
        panic!("{:?}", generators.cases[2]);
    };
    assert_eq!(args, &["5", "2"]);
    assert_eq!(generators.cases[3].inline["in"], "{{FIVE}}\n");

    // A legacy package has no constants: the command stays as written.
    std::fs::write(dir.path().join("problem.yaml"), "name: constants\n").unwrap();
    let generators = read(dir.path()).unwrap().unwrap();
    let Source::Generate { command, .. } = &generators.cases[0].source else {
        panic!("{:?}", generators.cases[0]);
    };
    assert_eq!(command, "gen.py {{FIVE}} {{FIVE.WORD}} {{nope}} {seed}");
}

#[test]
fn include_names_a_list_item_without_its_number() {
    // As BAPCtools' generatorincludes: `small` is the list's `1-small`.
    let generators = parse(
        "data:\n  secret:\n    data:\n      - small:\n          data:\n            a: gen.py 1\n\
         \x20     - general:\n          include: [small]\n          data:\n            b: gen.py 2\n",
    );
    let names: Vec<&str> = generators.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "secret/1-small/a",
            "secret/2-general/b",
            "secret/2-general/a"
        ]
    );
}

#[test]
fn with_a_version_list_cases_are_numbered_over_the_file_and_folders_by_list() {
    // 1 sample, then secret: a case, a counted case (3 values), a folder
    // in the list (whose own list continues the count) and one more case:
    // 7 numbered cases, one digit; the folders of secret's list by list.
    // `invalid_input` comes after `secret` although written first.
    let generators = parse(
        "version: 2026-01\n\
         data:\n  invalid_input:\n    data:\n      - bad: {in: \"x\"}\n\
         \x20 sample:\n    data:\n      - '': {in: \"1\", ans: \"1\"}\n\
         \x20 secret:\n    data:\n      - edge: {in: \"0\", ans: \"0\"}\n\
         \x20     - random:\n          generate: gen.py {seed} {count}\n          count: 3\n\
         \x20     - group:\n          data:\n            - inner: {in: \"5\", ans: \"5\"}\n\
         \x20     - last: {in: \"9\", ans: \"9\"}\n",
    );
    let names: Vec<&str> = generators.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "sample/1",
            "secret/2-edge",
            "secret/3-random-1",
            "secret/4-random-2",
            "secret/5-random-3",
            "secret/1-group/6-inner",
            "secret/7-last",
            "invalid_input/8-bad",
        ]
    );
    assert!(generators.warnings.is_empty(), "{:?}", generators.warnings);

    // Without a version: by list, as before.
    let by_list = parse(
        "data:\n  secret:\n    data:\n      - edge: {in: \"0\", ans: \"0\"}\n\
         \x20     - random:\n          generate: gen.py {seed} {count}\n          count: 2\n",
    );
    let names: Vec<&str> = by_list.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["secret/1-edge", "secret/2-random-1", "secret/2-random-2"]
    );
}

#[test]
fn without_a_version_a_list_bapctools_numbers_otherwise_is_a_warning() {
    let generators = parse(
        "data:\n  sample:\n    data:\n      - '': {in: \"1\", ans: \"1\"}\n\
         \x20 secret:\n    data:\n      - edge: {in: \"0\", ans: \"0\"}\n",
    );
    assert_eq!(
        generators.warnings,
        [
            "generators/generators.yaml: no `version:`, so list items are numbered per list (secret/1-edge); BAPCtools numbers a list's test cases over the whole file (secret/2-edge): add `version: 2025-12` to name them as it does"
        ]
    );
    // One list of plain cases: named alike, no warning.
    let one = parse("data:\n  secret:\n    data:\n      - edge: {in: \"0\", ans: \"0\"}\n");
    assert!(one.warnings.is_empty(), "{:?}", one.warnings);
}
