//! The reference against exhaustive backtracking. The input is a single n and both
//! programs are deterministic, so instead of random inputs the tests take every n in a
//! range (the generator's own logic builds the inputs).

use judge_kit::testing::run_with_input;

use spies_any_n_tools::{Answer, board_size, feasible, find_defect, input, parse_answer};

fn run(bin: &str, n: u64) -> Answer {
    let args = ["fixed".to_string(), n.to_string()];
    let test = input(board_size(&args).expect("valid size"));
    let out = run_with_input(bin, &[], test.as_bytes());
    assert!(out.status.success(), "{bin} failed on n = {n}");
    parse_answer(&String::from_utf8_lossy(&out.stdout), true, 999)
        .unwrap_or_else(|e| panic!("{bin}, n = {n}: {e}"))
}

fn assert_valid(answer: &Answer, n: u64, who: &str) {
    match answer {
        Answer::Impossible => assert!(!feasible(n), "{who}: -1 for n = {n}"),
        Answer::Board(cols) => {
            assert_eq!(cols.len() as u64, n, "{who}: size");
            assert_eq!(find_defect(cols), None, "{who}: n = {n}");
        }
    }
}

#[test]
fn reference_agrees_with_backtracking_up_to_12() {
    for n in 1..=12 {
        let reference = run(env!("CARGO_BIN_EXE_spies-any-n"), n);
        let brute = run(env!("CARGO_BIN_EXE_spies-any-n-backtrack"), n);
        assert_eq!(
            matches!(reference, Answer::Impossible),
            matches!(brute, Answer::Impossible),
            "feasibility of n = {n}"
        );
        assert_eq!(matches!(brute, Answer::Impossible), !feasible(n), "n = {n}");
        assert_valid(&reference, n, "reference");
        assert_valid(&brute, n, "backtracking");
    }
}

#[test]
fn reference_boards_are_valid_up_to_100() {
    for n in 1..=100 {
        assert_valid(&run(env!("CARGO_BIN_EXE_spies-any-n"), n), n, "reference");
    }
}

#[test]
fn lexicographically_first_boards() {
    // problems.md lists them (found by exhaustive search); backtracking must reproduce them.
    for (n, want) in [
        (4, "2 4 1 3"),
        (8, "3 5 8 4 1 7 2 6"),
        (9, "2 4 7 1 3 9 6 8 5"),
        (10, "1 4 9 5 8 10 3 6 2 7"),
        (11, "2 4 7 1 8 11 5 3 9 6 10"),
        (12, "1 3 6 12 10 2 11 5 8 4 9 7"),
    ] {
        let want: Vec<u64> = want.split(' ').map(|t| t.parse().unwrap()).collect();
        assert_eq!(
            run(env!("CARGO_BIN_EXE_spies-any-n-backtrack"), n),
            Answer::Board(want),
            "n = {n}"
        );
    }
}
