//! The generator is deterministic, stays within the limits and rejects bad
//! arguments.

use std::process::Command;

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_grid-game-large-generator"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn same_args_same_bytes() {
    for kind in ["random", "equal", "extremes", "rowcol", "product", "decoy"] {
        let args = [kind, "5", "1", "60", "-1000000000", "1000000000", "7"];
        let (a, b) = (run(&args), run(&args));
        assert!(a.status.success(), "{args:?}");
        assert_eq!(a.stdout, b.stdout, "{args:?}");
    }
    assert_ne!(
        run(&["random", "5", "30", "30", "-1000000000", "1000000000", "1"]).stdout,
        run(&["random", "5", "30", "30", "-1000000000", "1000000000", "2"]).stdout
    );
}

#[test]
fn rejects_bad_args() {
    for args in [
        &["random", "0", "1", "8", "-10", "10", "1"][..],
        &["random", "6", "1", "8", "-10", "10", "1"],
        &["random", "5", "0", "8", "-10", "10", "1"],
        &["random", "5", "1", "501", "-10", "10", "1"],
        &["random", "5", "5", "4", "-10", "10", "1"],
        &["random", "5", "1", "8", "-1000000001", "10", "1"],
        &["random", "5", "1", "8", "0", "1000000001", "1"],
        &["random", "5", "1", "8", "10", "-10", "1"],
        &["bogus", "5", "1", "8", "-10", "10", "1"],
        &["random", "5", "1", "8", "-10", "10"],
    ] {
        assert!(!run(args).status.success(), "{args:?}");
    }
}
