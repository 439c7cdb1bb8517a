//! The grading policy's tests: reading, errors by line and key, totals.

use super::*;

fn parse(text: &str) -> Result<Policy, PolicyError> {
    Policy::parse(text, Path::new("grading.toml"))
}

#[test]
fn a_full_policy_reads() {
    let policy = parse(
        "out-of = 100\ndecimals = 1\nrounding = \"down\"\nlate = \"10%/day\"\nlate-cap = \"50%\"\n\
         [problems.sum]\nweight = 2\n[problems.guess]\ncount = \"points\"\nmax = 40\n",
    )
    .unwrap();
    assert_eq!(policy.out_of, Some(100.0));
    assert_eq!(policy.decimals, 1);
    assert_eq!(policy.rounding, Rounding::Down);
    assert_eq!(
        policy.late,
        Some(LateRule {
            per_day: 0.1,
            cap: 0.5
        })
    );
    assert_eq!(policy.rule("sum").weight, 2.0);
    assert_eq!(policy.rule("guess").count, Count::Points { max: 40.0 });
    assert_eq!(policy.rule("other"), ProblemRule::default());
}

#[test]
fn errors_name_the_file_line_and_key() {
    let error = parse("decimals = 1\n[problems.sum]\nweight = -2\n")
        .unwrap_err()
        .to_string();
    assert_eq!(
        error,
        "grading.toml:3: key `problems.sum.weight`: -2: a number from 0 up"
    );
    let error = parse("[problems.sum]\ncount = \"points\"\n")
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with("grading.toml:2: key `problems.sum.count`"),
        "{error}"
    );
    let error = parse("late = \"10%/week\"\n").unwrap_err().to_string();
    assert!(error.starts_with("grading.toml:1: key `late`"), "{error}");
    let error = parse("late = \"10%/day\"\nlate-cap = \"150%\"\n")
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with("grading.toml:2: key `late-cap`"),
        "{error}"
    );
    let error = parse("\n\nweigth = 2\n").unwrap_err().to_string();
    assert!(
        error.starts_with("grading.toml:3:") && error.contains("weigth"),
        "{error}"
    );
}

#[test]
fn late_penalties_count_started_days_up_to_the_cap() {
    let rule = LateRule::parse("10%/day", Some("25%")).unwrap();
    assert_eq!(rule.penalty(0), 0.0);
    assert_eq!(rule.penalty(-5), 0.0);
    assert!((rule.penalty(1) - 0.1).abs() < 1e-12);
    assert!((rule.penalty(86_400) - 0.1).abs() < 1e-12);
    assert!((rule.penalty(86_401) - 0.2).abs() < 1e-12);
    assert_eq!(rule.penalty(10 * 86_400), 0.25);
    assert_eq!(LateRule::from_stored(&rule.to_stored()), Some(rule));
}

fn submission(verdict: Verdict, score: Option<f64>, late: Option<i64>) -> Submission {
    Submission {
        path: "x".into(),
        language: None,
        content_hash: None,
        report: crate::runner::TaskReport {
            problem: String::new(),
            submission: "x".into(),
            owner: crate::owner::Owner::File { path: "x".into() },
            verdict,
            score,
            message: None,
            tests: Vec::new(),
            skipped: 0,
        },
        reused: Vec::new(),
        handin: late.map(|late_seconds| super::super::gradebook::Handin {
            commit: None,
            at: String::new(),
            from: "commit".into(),
            late_seconds: Some(late_seconds),
        }),
    }
}

fn book() -> Gradebook {
    let problem = |id: &str| super::super::gradebook::ProblemInfo {
        id: id.into(),
        title: id.into(),
        time_ms: 1000,
        wall_ms: 2000,
        memory_kib: 1024,
        tests: 1,
    };
    Gradebook::assemble(
        Default::default(),
        vec![problem("scored"), problem("sum")],
        vec![
            (
                "ann".into(),
                "scored".into(),
                Some(submission(Verdict::WrongAnswer, Some(99.9), None)),
            ),
            (
                "ann".into(),
                "sum".into(),
                Some(submission(Verdict::Accepted, None, Some(90_000))),
            ),
            ("bob".into(), "scored".into(), None),
            (
                "bob".into(),
                "sum".into(),
                Some(submission(Verdict::WrongAnswer, Some(-0.0), None)),
            ),
        ],
        Vec::new(),
    )
}

#[test]
fn a_scored_problem_counts_its_share_and_late_cells_lose_their_penalty() {
    let policy = parse(
        "out-of = 100
late = \"10%/day\"
[problems.scored]
count = \"points\"
max = 100
",
    )
    .unwrap();
    let totals = policy.apply(&book());
    assert_eq!(totals.out_of, 100.0);
    // 99.9 of 100 on one half, AC two started days late (80%) on the other.
    assert_eq!(policy.format(totals.rows[0].cells[0].points), "49.95");
    assert_eq!(policy.format(totals.rows[0].cells[1].points), "40");
    assert!((totals.rows[0].cells[1].penalty - 0.2).abs() < 1e-12);
    assert_eq!(policy.format(totals.rows[0].total), "89.95");
    assert_eq!(policy.format(totals.rows[1].total), "0");
}

#[test]
fn numbers_round_as_asked_and_never_show_minus_zero() {
    let policy = parse("decimals = 2\n").unwrap();
    assert_eq!(policy.format(2.675), "2.68");
    assert_eq!(policy.format(-0.0001), "0");
    assert_eq!(policy.format(100.9), "100.9");
    assert_eq!(number(-0.0), "0");
    let down = parse("decimals = 0\nrounding = \"down\"\n").unwrap();
    assert_eq!(down.format(7.99), "7");
    let up = parse("decimals = 0\nrounding = \"up\"\n").unwrap();
    assert_eq!(up.format(7.01), "8");
    assert_eq!(up.format(7.0), "7");
}
