//! The generator is deterministic and refuses arguments outside the limits.

use std::process::Command;

fn generate(args: &[&str]) -> Vec<u8> {
    let output = Command::new(env!("CARGO_BIN_EXE_caos3-large-generator"))
        .args(args)
        .output()
        .expect("spawn generator");
    assert!(output.status.success(), "generator failed on {args:?}");
    output.stdout
}

#[test]
fn same_arguments_same_bytes() {
    for args in [
        &["random", "10", "1", "40", "1", "40", "0", "100", "9"][..],
        &["refute", "parity", "10", "5", "12", "70", "100", "14", "9"],
        &["holes", "10", "40", "40", "0", "40", "9"],
    ] {
        assert_eq!(generate(args), generate(args), "{args:?}");
    }
    // The trailing seed word matters.
    assert_ne!(
        generate(&["random", "3", "5", "9", "5", "9", "80", "100", "1"]),
        generate(&["random", "3", "5", "9", "5", "9", "80", "100", "2"])
    );
}

#[test]
fn rejects_bad_arguments() {
    for args in [
        &["full", "41x5"][..],
        &["random", "11", "1", "20", "1", "20", "0", "100", "1"],
        &["holes", "10", "20", "20", "0"],
        &["nonsense"],
    ] {
        let status = Command::new(env!("CARGO_BIN_EXE_caos3-large-generator"))
            .args(args)
            .output()
            .unwrap()
            .status;
        assert!(!status.success(), "accepted {args:?}");
    }
}
