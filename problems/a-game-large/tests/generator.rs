//! The generator is deterministic and rejects bad arguments.

use std::process::Command;

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_a-game-large-generator"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn same_args_same_bytes() {
    for args in [
        ["random", "20000", "1000000000", "ragged", "7"],
        ["spikes", "999", "1000000000", "wrap7", "7"],
        ["const", "2", "1", "column", "7"],
    ] {
        let (a, b) = (run(&args), run(&args));
        assert!(a.status.success());
        assert_eq!(a.stdout, b.stdout, "{args:?}");
    }
    assert_ne!(
        run(&["random", "50", "1000000000", "line", "1"]).stdout,
        run(&["random", "50", "1000000000", "line", "2"]).stdout
    );
}

#[test]
fn layout_changes_lines_not_board() {
    let tokens = |layout| {
        let out = run(&["random", "30", "200", layout, "3"]).stdout;
        let text = String::from_utf8(out).unwrap();
        let lines = text.lines().count();
        let toks: Vec<String> = text.split_whitespace().map(String::from).collect();
        (toks, lines)
    };
    let (line, one) = tokens("line");
    let (column, thirty_one) = tokens("column");
    let (wrap, five) = tokens("wrap7");
    assert_eq!((one, thirty_one, five), (2, 31, 6));
    assert!(line == column && line == wrap);
}

#[test]
fn rejects_bad_args() {
    for args in [
        &["random", "1", "200", "line", "1"][..],
        &["random", "20001", "200", "line", "1"],
        &["random", "10", "1000000001", "line", "1"],
        &["random", "10", "200", "wrap0", "1"],
        &["random", "10", "200", "zigzag", "1"],
        &["bogus", "10", "200", "line", "1"],
        &["random", "10", "200", "line"],
    ] {
        assert!(!run(args).status.success(), "{args:?}");
    }
}
