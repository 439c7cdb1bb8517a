//! The generator is deterministic and rejects bad arguments.

use std::process::Command;

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_stone-game-vi-large-generator"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn same_args_same_bytes() {
    for args in [
        ["random", "100", "1-20", "1000000000", "7"],
        ["nudge", "3", "999", "1000000000", "7"],
        ["const-sum", "5", "100", "100", "7"],
    ] {
        let (a, b) = (run(&args), run(&args));
        assert!(a.status.success());
        assert_eq!(a.stdout, b.stdout, "{args:?}");
    }
    assert_ne!(
        run(&["random", "5", "50", "100", "1"]).stdout,
        run(&["random", "5", "50", "100", "2"]).stdout
    );
}

#[test]
fn rejects_bad_args() {
    for args in [
        &["random", "0", "5", "100", "1"][..],
        &["random", "1", "0", "100", "1"],
        &["random", "1", "5-3", "100", "1"],
        &["random", "1", "5", "1000000001", "1"],
        &["random", "2", "600000", "100", "1"],
        &["bogus", "1", "5", "100", "1"],
        &["random", "1", "5", "100"],
    ] {
        assert!(!run(args).status.success(), "{args:?}");
    }
}
