//! The generator is deterministic and refuses arguments outside the limits.

use judge_kit::testing::{assert_rejects_args, generate};

const BIN: &str = env!("CARGO_BIN_EXE_caos3-large-generator");

#[test]
fn same_arguments_same_bytes() {
    for args in [
        &["random", "10", "1", "40", "1", "40", "0", "100", "9"][..],
        &["refute", "parity", "10", "5", "12", "70", "100", "14", "9"],
        &["holes", "10", "40", "40", "0", "40", "9"],
    ] {
        assert_eq!(generate(BIN, args), generate(BIN, args), "{args:?}");
    }
    // The trailing seed word matters.
    assert_ne!(
        generate(BIN, &["random", "3", "5", "9", "5", "9", "80", "100", "1"]),
        generate(BIN, &["random", "3", "5", "9", "5", "9", "80", "100", "2"])
    );
}

#[test]
fn rejects_bad_arguments() {
    assert_rejects_args(
        BIN,
        &[
            &["full", "41x5"],
            &["random", "11", "1", "20", "1", "20", "0", "100", "1"],
            &["holes", "10", "20", "20", "0"],
            &["nonsense"],
        ],
    );
}
