//! `judge play`, the whole verb: what is decided before the game, how the
//! referee is started, and what its end prints. In the real verb the game
//! is a person at the terminal against the referee, a process of its own
//! with the terminal as its stdin (`play::referee`; the integration tests
//! `a_person_plays_*` start it for real). Here the test takes the seat:
//! it is handed the referee's command, leaves what a referee would leave
//! in its folder, and says how it ended. A testlib referee's output file
//! is judged by the problem's checker in the fake box.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

use super::{Bench, assert_shows, double, double_script, double_with};
use crate::commands::fake::Answer;
use crate::commands::play::{find_test, play, play_at};
use crate::runner::game_result;
use crate::sandbox::Termination;
use crate::verdict::Verdict;

/// `double` played against a testlib referee, `referee.py`, whose output
/// file the testlib checker `check.py` judges.
fn refereed(root: &std::path::Path) {
    let toml = "\n[interactor]\nfile = \"referee.py\"\nprotocol = \"testlib\"\n\n\
                [checker]\nfile = \"check.py\"\nprotocol = \"testlib\"\n\n\
                [compare]\nmode = \"checker\"\n";
    double_with(root, toml, &["referee.py", "check.py"]);
}

/// `double` played against a Kattis referee, `referee.py`, which judges
/// alone (exit 42 or 43, `judgemessage.txt` in its feedback folder).
fn kattis_refereed(root: &std::path::Path) {
    double_with(
        root,
        "\n[interactor]\nfile = \"referee.py\"\n",
        &["referee.py"],
    );
}

/// What a referee was started as: its program, its arguments and whether
/// it was told a person plays.
fn started_as(command: &std::process::Command) -> (String, Vec<String>, bool) {
    let args = command.get_args();
    let told = command
        .get_envs()
        .any(|(key, value)| key == "JUDGE_PLAY" && value == Some("1".as_ref()));
    (
        command.get_program().to_string_lossy().into_owned(),
        args.map(|a| a.to_string_lossy().into_owned()).collect(),
        told,
    )
}

/// `check.py` accepts the referee's output file (its stdin) when it says
/// 2, the answer of test 1 (testlib: exit 0 OK, 1 WA).
fn checking(program: &str, input: &str) -> Answer {
    match program {
        "check.py" => Answer {
            termination: Termination::Exited(if input == "2" { 0 } else { 1 }),
            ..Answer::prints("")
        },
        _ => double_script(program, input),
    }
}

#[test]
fn play_refuses_before_the_game_what_cannot_be_played() {
    let mut bench = Bench::new(refereed, checking);
    let error = play(&mut bench.ctx, "double", Some("secret/9")).unwrap_err();
    assert_shows(
        &error.to_string(),
        "double has no test `secret/9`; its tests: secret/1, secret/2, secret/3",
    );

    let mut bench = Bench::new(double, double_script);
    let error = play(&mut bench.ctx, "double", None).unwrap_err();
    assert_shows(&error.to_string(), "double is not interactive");

    let mut bench = Bench::new(refereed, checking).compile_errors(&["referee.py"]);
    let error = play(&mut bench.ctx, "double", None).unwrap_err();
    assert_shows(&error.to_string(), "the interactor did not build");
    assert_eq!(bench.boxes.runs(), 0, "no game started");
}

#[test]
fn a_testlib_referees_game_is_judged_by_the_checker() {
    let mut bench = Bench::new(refereed, checking);
    let problem = bench.ctx.load_one("double").unwrap();
    let test = find_test(&problem, None).unwrap();
    let crate::spec::CompareMode::Checker(tool) = &problem.compare.mode else {
        panic!("a checker, not {:?}", problem.compare.mode);
    };
    let checker = bench.ctx.builder.build(&tool.program).into_program();
    let checker = checker.unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let game = |output: &str, exit: i32, said: &[u8]| {
        std::fs::write(scratch.path().join("interactor_output"), output).unwrap();
        game_result(
            bench.ctx.builder.worker(),
            &problem,
            Some(&checker),
            test,
            ExitStatus::from_raw(exit << 8),
            said,
            scratch.path(),
        )
    };

    // The referee says OK: its output file is the checker's to judge.
    assert_eq!(
        game("2\n", 0, b"ok the game is over\n").0,
        Verdict::Accepted
    );
    assert_eq!(game("3\n", 0, b"ok\n").0, Verdict::WrongAnswer);
    assert_eq!(bench.boxes.runs_of("check.py"), 2);
    // The referee says WA (exit 1): the checker is not asked.
    let (verdict, said) = game("2\n", 1, b"board\nwrong move 7\n");
    assert_eq!(
        (verdict, said.as_str()),
        (Verdict::WrongAnswer, "wrong move 7")
    );
    // A referee that breaks down is a judge error, never the player's.
    assert_eq!(game("", 9, b"").0, Verdict::JudgeError);
    assert_eq!(bench.boxes.runs_of("check.py"), 2);
}

#[test]
fn a_kattis_referee_is_started_on_the_test_and_its_verdict_told() {
    // (exit code, the referee's message, what is printed, the verb's code)
    let games = [
        (
            42,
            "found it in 3 moves",
            "You win (AC). found it in 3 moves",
            0,
        ),
        (
            43,
            "too many moves",
            "The referee wins (WA). too many moves",
            1,
        ),
        (
            7,
            "",
            "The referee broke down (exit status: 7): a judge error.",
            1,
        ),
    ];
    for (exit, message, told, code) in games {
        let mut bench = Bench::new(kattis_refereed, double_script);
        let mut started = None;
        let got = play_at(&mut bench.ctx, "double", Some("secret/2"), |command| {
            let folder = command.get_current_dir().unwrap().to_path_buf();
            started = Some((started_as(&command), folder.clone()));
            std::fs::write(folder.join("judgemessage.txt"), message).unwrap();
            Ok((ExitStatus::from_raw(exit << 8), Vec::new()))
        })
        .unwrap();
        let ((program, args, told_a_person_plays), folder) = started.expect("the game started");
        assert!(program.ends_with("double/referee.py"), "{program}");
        assert!(told_a_person_plays, "JUDGE_PLAY=1 is set");
        let data = bench.root.path().join("problems/double/data/secret");
        assert_eq!(
            args,
            [
                data.join("2.in").display().to_string(),
                data.join("2.ans").display().to_string(),
                format!("{}/", folder.display()),
            ]
        );
        let text = bench.text();
        assert_shows(
            &text,
            "double — Double: you play against the referee on secret/2.",
        );
        assert_shows(&text, told);
        assert_eq!(got, code, "{text}");
        assert!(!folder.exists(), "the game's folder is removed");
        assert_eq!(bench.boxes.runs(), 0, "a Kattis referee judges alone");
    }
}

#[test]
fn a_testlib_referees_output_file_is_judged_after_the_game() {
    for (output, told, code) in [
        ("2\n", "You win (AC).", 0),
        ("3\n", "The referee wins (WA).", 1),
    ] {
        let mut bench = Bench::new(refereed, checking);
        let got = play_at(&mut bench.ctx, "double", None, |command| {
            let (_, args, _) = started_as(&command);
            // testlib: input, the output file to write, answer.
            std::fs::write(&args[1], output).unwrap();
            Ok((ExitStatus::from_raw(0), b"ok the game is over\n".to_vec()))
        })
        .unwrap();
        let text = bench.text();
        assert_shows(&text, told);
        assert_eq!(got, code, "{text}");
        assert_eq!(bench.boxes.runs_of("check.py"), 1);
    }
}

#[test]
fn a_referee_that_cannot_start_is_the_judges_error_not_a_lost_game() {
    let mut bench = Bench::new(kattis_refereed, double_script);
    let error = play_at(&mut bench.ctx, "double", None, |_| {
        Err(crate::errors::Error::Report {
            what: "start referee.py".into(),
            source: std::io::Error::other("no such interpreter"),
        })
    })
    .unwrap_err();
    assert_shows(&error.to_string(), "start referee.py");
    assert!(!bench.text().contains("wins"), "{}", bench.text());
}
