//! The input validator accepts every committed input and rejects malformed ones; the
//! generator is deterministic and agrees with the committed inputs.

use judge_kit::testing::{ValidatorCases, assert_accepts_inputs, assert_deterministic, generate};

const VALIDATOR: &str = env!("CARGO_BIN_EXE_spies-any-n-validator");
const GENERATOR: &str = env!("CARGO_BIN_EXE_spies-any-n-generator");

judge_kit::validator_tests!(VALIDATOR, {
    let bad: &[&[u8]] = &[
        b"",
        b"\n",
        b"0\n",
        b"1000\n",
        b"-1\n",
        b"+5\n",
        b"007\n",
        b"5",
        b"5\n\n",
        b" 5\n",
        b"5 \n",
        b"5 6\n",
        b"five\n",
        b"99999999999999999999999\n",
    ];
    let described: Vec<(&str, &[u8])> = bad.iter().map(|input| ("a bad input", *input)).collect();
    ValidatorCases::new(40)
        .accepting(&["999\n", "1\n"])
        .rejecting(&described)
});

#[test]
fn generator_is_deterministic() {
    let cases: &[&[&str]] = &[
        &["random", "40", "300", "3"],
        &["random", "1", "999", "42"],
        &["fixed", "999"],
    ];
    assert_deterministic(
        GENERATOR,
        cases,
        [&["random", "1", "999", "1"], &["random", "1", "999", "2"]],
    );
    for args in cases {
        assert_accepts_inputs(VALIDATOR, &[generate(GENERATOR, args)]);
    }
    assert_eq!(generate(GENERATOR, &["fixed", "904"]), b"904\n");
}
