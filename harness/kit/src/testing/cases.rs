//! The tests every generator and every validator has, written once: a
//! package states its binary and its cases, and `generator_tests!` or
//! `validator_tests!` writes the test functions that check them.

use std::path::Path;

use super::{
    assert_accepts_committed, assert_accepts_inputs, assert_deterministic, assert_rejects_args,
    assert_rejects_inputs,
};

/// A generator's cases: argument lists that give the same bytes every
/// time, two that give different bytes (the seed apart), and lists it
/// must refuse, saying why.
#[derive(Debug, Clone, Default)]
pub struct GeneratorCases {
    pub same: Vec<Vec<String>>,
    pub differ: [Vec<String>; 2],
    pub bad: Vec<Vec<String>>,
}

fn owned(lists: &[&[&str]]) -> Vec<Vec<String>> {
    lists
        .iter()
        .map(|args| args.iter().map(|arg| arg.to_string()).collect())
        .collect()
}

fn borrowed(lists: &[Vec<String>]) -> Vec<Vec<&str>> {
    lists
        .iter()
        .map(|args| args.iter().map(String::as_str).collect())
        .collect()
}

impl GeneratorCases {
    pub fn new(same: &[&[&str]], differ: [&[&str]; 2], bad: &[&[&str]]) -> GeneratorCases {
        GeneratorCases {
            same: owned(same),
            differ: differ.map(|args| args.iter().map(|arg| arg.to_string()).collect()),
            bad: owned(bad),
        }
    }

    /// More lists it must refuse.
    pub fn refusing(mut self, bad: &[&[&str]]) -> GeneratorCases {
        self.bad.extend(owned(bad));
        self
    }

    pub fn assert_deterministic(&self, bin: impl AsRef<Path>) {
        assert!(!self.same.is_empty(), "no arguments to run twice");
        let same = borrowed(&self.same);
        let same: Vec<&[&str]> = same.iter().map(Vec::as_slice).collect();
        let differ = borrowed(&self.differ);
        assert_deterministic(bin, &same, [&differ[0], &differ[1]]);
    }

    pub fn assert_refuses(&self, bin: impl AsRef<Path>) {
        assert!(!self.bad.is_empty(), "no arguments to refuse");
        let bad = borrowed(&self.bad);
        let bad: Vec<&[&str]> = bad.iter().map(Vec::as_slice).collect();
        assert_rejects_args(bin, &bad);
    }
}

/// A validator's cases: how many committed inputs it must at least find
/// (and accept), inputs at the limits it accepts, and described inputs it
/// rejects, saying why.
#[derive(Debug, Clone, Default)]
pub struct ValidatorCases {
    pub committed: usize,
    pub good: Vec<Vec<u8>>,
    pub bad: Vec<(String, Vec<u8>)>,
}

impl ValidatorCases {
    /// At least `committed` committed inputs, each accepted.
    pub fn new(committed: usize) -> ValidatorCases {
        ValidatorCases {
            committed,
            ..ValidatorCases::default()
        }
    }

    /// Inputs it accepts besides the committed ones.
    pub fn accepting<S: AsRef<[u8]>>(mut self, good: &[S]) -> ValidatorCases {
        self.good
            .extend(good.iter().map(|input| input.as_ref().to_vec()));
        self
    }

    /// Inputs it rejects, each with what is wrong with it.
    pub fn rejecting<S: AsRef<[u8]>>(mut self, bad: &[(&str, S)]) -> ValidatorCases {
        self.bad.extend(
            bad.iter()
                .map(|(what, input)| (what.to_string(), input.as_ref().to_vec())),
        );
        self
    }

    pub fn assert_accepts_committed(&self, bin: impl AsRef<Path>, package_dir: &str) {
        assert_accepts_committed(bin, package_dir, self.committed);
    }

    pub fn assert_accepts(&self, bin: impl AsRef<Path>) {
        assert!(!self.good.is_empty(), "no input at the limits to accept");
        assert_accepts_inputs(bin, &self.good);
    }

    pub fn assert_rejects(&self, bin: impl AsRef<Path>) {
        assert!(!self.bad.is_empty(), "no input to reject");
        let bad: Vec<(&str, &[u8])> = self
            .bad
            .iter()
            .map(|(what, input)| (what.as_str(), input.as_slice()))
            .collect();
        assert_rejects_inputs(bin, &bad);
    }
}

/// The tests of a generator: `generator_tests!(BIN, cases())` with its
/// binary's path and an expression giving its `GeneratorCases`.
#[macro_export]
macro_rules! generator_tests {
    ($bin:expr, $cases:expr $(,)?) => {
        #[test]
        fn same_args_same_bytes() {
            $crate::testing::GeneratorCases::assert_deterministic(&$cases, $bin);
        }

        #[test]
        fn rejects_bad_args() {
            $crate::testing::GeneratorCases::assert_refuses(&$cases, $bin);
        }
    };
}

/// The tests of a validator: `validator_tests!(BIN, cases())` with its
/// binary's path and an expression giving its `ValidatorCases`; the
/// committed inputs are those of the calling package.
#[macro_export]
macro_rules! validator_tests {
    ($bin:expr, $cases:expr $(,)?) => {
        #[test]
        fn accepts_every_committed_input() {
            let cases: $crate::testing::ValidatorCases = $cases;
            cases.assert_accepts_committed($bin, env!("CARGO_MANIFEST_DIR"));
        }

        #[test]
        fn accepts_the_limits() {
            let cases: $crate::testing::ValidatorCases = $cases;
            cases.assert_accepts($bin);
        }

        #[test]
        fn rejects_malformed_inputs() {
            let cases: $crate::testing::ValidatorCases = $cases;
            cases.assert_rejects($bin);
        }
    };
}
