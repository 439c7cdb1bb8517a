use super::*;

fn test(name: &str) -> TestCase {
    TestCase {
        name: name.into(),
        group: name.rsplit_once('/').map_or("", |(g, _)| g).into(),
        ..TestCase::default()
    }
}

fn set(dir: &Path, files: &[(&str, &str)]) -> AnswerSet {
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    AnswerSet::read(dir, Links::Refuse).unwrap()
}

#[test]
fn an_answer_file_names_its_test_by_its_whole_name_or_a_tail_no_other_test_shares() {
    assert!(names_test("secret/g1/01.ans", "secret/g1/01"));
    assert!(names_test("g1/01.out", "secret/g1/01"));
    assert!(names_test("01", "secret/g1/01"));
    assert!(!names_test("1.ans", "secret/g1/01"));
    assert!(!names_test("g1/01.ans", "secret/xg1/01"));
    assert!(!names_test(".ans", "secret/01"));

    let dir = tempfile::tempdir().unwrap();
    let tests = [test("sample/1"), test("secret/a/1"), test("secret/b/1")];
    let answers = set(
        dir.path(),
        &[
            ("sample/1.ans", "s"),
            ("a/1.out", "a"),
            ("1.ans", "ambiguous"),
        ],
    );
    assert_eq!(answers.answer_for(&tests[0], &tests).unwrap(), b"s");
    assert_eq!(answers.answer_for(&tests[1], &tests).unwrap(), b"a");
    // `1.ans` names three tests: it answers none of them.
    let missing = answers.answer_for(&tests[2], &tests).unwrap_err();
    assert_eq!(missing.to_string(), "no answer file for secret/b/1");
    assert_eq!(answers.unused(&tests), ["1.ans"]);
}

#[test]
fn a_lone_file_answers_a_problem_of_one_test_only() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("answer.txt");
    std::fs::write(&file, "42\n").unwrap();
    let answers = AnswerSet::read(&file, Links::Refuse).unwrap();
    let one = [test("secret/1")];
    assert_eq!(answers.answer_for(&one[0], &one).unwrap(), b"42\n");
    let two = [test("sample/1"), test("secret/1")];
    let why = answers.answer_for(&two[1], &two).unwrap_err().to_string();
    assert!(
        why.contains("is one file, and this problem has 2 tests"),
        "{why}"
    );
}

#[test]
fn a_submitted_set_is_read_without_following_links_and_hidden_files_are_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret.ans");
    std::fs::write(&secret, "the judge's answer").unwrap();
    let answers = dir.path().join("answers");
    std::fs::create_dir(&answers).unwrap();
    std::fs::write(answers.join(".DS_Store"), "x").unwrap();
    std::fs::write(answers.join("01.ans"), "1").unwrap();
    let read = AnswerSet::read(&answers, Links::Refuse).unwrap();
    assert_eq!(read.files.keys().collect::<Vec<_>>(), ["01.ans"]);

    std::os::unix::fs::symlink(&secret, answers.join("02.ans")).unwrap();
    let refused = AnswerSet::read(&answers, Links::Refuse).unwrap_err();
    assert!(refused.is_submitters(), "{refused}");
    assert!(refused.to_string().contains("symbolic link"), "{refused}");
    // A setter's set follows its links.
    let followed = AnswerSet::read(&answers, Links::Follow).unwrap();
    assert_eq!(followed.files["02.ans"], b"the judge's answer");

    // A linked folder inside a submitted set is refused too.
    std::fs::remove_file(answers.join("02.ans")).unwrap();
    std::os::unix::fs::symlink(dir.path(), answers.join("secret")).unwrap();
    assert!(AnswerSet::read(&answers, Links::Refuse).is_err());
}
