//! Byte-for-byte comparison; tokens-equal but bytes-different is PE.

use super::tokens::{TokenOptions, compare_tokens};
use super::{Comparison, FirstDifference, Judgement, diff, shorten};

pub(crate) fn compare_exact(expected: &[u8], actual: &[u8]) -> Comparison {
    if expected == actual {
        return Comparison::accepted();
    }
    let by_tokens = compare_tokens(
        expected,
        actual,
        &TokenOptions {
            case_sensitive: true,
            ..TokenOptions::default()
        },
    );
    if by_tokens.judgement != Judgement::Accepted {
        return by_tokens;
    }
    let at = expected
        .iter()
        .zip(actual)
        .take_while(|(a, b)| a == b)
        .count();
    let line = actual[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let expected_line = expected[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let line_of = |text: &[u8]| {
        let start = text[..at.min(text.len())]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let end = text[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |i| start + i);
        format!("{:?}", shorten(&text[start..end], 60))
    };
    Comparison::differs(
        Judgement::PresentationError,
        FirstDifference {
            line,
            token: 0,
            expected: line_of(expected),
            actual: line_of(actual),
            diff: diff::around(expected, actual, expected_line, line),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_bytes_are_accepted() {
        assert_eq!(
            compare_exact(b"1 2\n", b"1 2\n").judgement,
            Judgement::Accepted
        );
    }

    #[test]
    fn whitespace_only_difference_is_presentation_error() {
        let c = compare_exact(b"1 2\n", b"1  2\n");
        assert_eq!(c.judgement, Judgement::PresentationError);
        assert_eq!(c.difference.unwrap().line, 1);
    }

    #[test]
    fn token_difference_is_wrong_answer() {
        assert_eq!(
            compare_exact(b"1 2\n", b"1 3\n").judgement,
            Judgement::WrongAnswer
        );
    }
}
