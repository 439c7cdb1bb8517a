//! `judge play`: what is decided before and after the game. The game
//! itself is a person at the terminal against the referee, which `play`
//! starts as a process of its own with the terminal as its stdin (not in
//! a box): no fake stands in for that. What a finished game's referee
//! said is judged here, a testlib referee's output file by the
//! problem's checker in the fake box.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

use super::{Bench, assert_shows, double, double_script, double_with};
use crate::commands::fake::Answer;
use crate::commands::play::{find_test, game_result, play};
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
