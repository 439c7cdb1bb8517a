//! The generator is deterministic and rejects bad arguments.

use std::process::Command;

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_stone-game-vi-generator"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn same_args_same_bytes() {
    for args in [
        ["random", "1000", "100", "7"],
        ["nudge", "1000", "3", "7"],
        ["const-sum", "999", "100", "7"],
    ] {
        let (a, b) = (run(&args), run(&args));
        assert!(a.status.success());
        assert_eq!(a.stdout, b.stdout, "{args:?}");
    }
    assert_ne!(
        run(&["random", "50", "100", "1"]).stdout,
        run(&["random", "50", "100", "2"]).stdout
    );
}

#[test]
fn rejects_bad_args() {
    for args in [
        &["random", "0", "100", "1"][..],
        &["random", "10", "101", "1"],
        &["draw", "7", "100", "1"],
        &["bogus", "10", "100", "1"],
        &["random", "10", "100"],
    ] {
        assert!(!run(args).status.success(), "{args:?}");
    }
}
