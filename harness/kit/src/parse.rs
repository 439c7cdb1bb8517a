//! Integer syntax and how a token is shown in a message: one place, so every
//! reader accepts the same numbers and quotes tokens the same way.

/// An integer as a judge writes it: an optional `-`, then digits without
/// leading zeros (`0` itself is fine, `-0` and `+1` are not). Used for inputs,
/// which the package writes itself and can be exact about.
pub(crate) fn canonical(token: &str) -> Option<i64> {
    let digits = token.strip_prefix('-').unwrap_or(token);
    let plain = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
        && token != "-0";
    plain.then(|| token.parse().ok()).flatten()
}

/// An integer as a submission may write it: an optional `-`, then digits
/// (leading zeros allowed, no `+`). Anything out of `i64` is `None`, which the
/// callers report as out of range, so a huge number costs nothing.
pub(crate) fn lenient(token: &str) -> Option<i64> {
    let digits = token.strip_prefix('-').unwrap_or(token);
    let plain = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    plain.then(|| token.parse().ok()).flatten()
}

/// The longest part of a token quoted in a message.
const SHOWN_CHARS: usize = 24;

/// A token quoted for a message: in backticks, control characters escaped,
/// cut after 24 characters so a flood of garbage cannot flood the message.
pub(crate) fn shown(token: &str) -> String {
    let mut out = String::from("`");
    for c in token.chars().take(SHOWN_CHARS) {
        out.extend(c.escape_debug());
    }
    if token.chars().nth(SHOWN_CHARS).is_some() {
        out.push_str("...");
    }
    out.push('`');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_integers_only() {
        for (token, value) in [
            ("0", 0),
            ("7", 7),
            ("-7", -7),
            ("1000000000", 1_000_000_000),
        ] {
            assert_eq!(canonical(token), Some(value), "{token}");
        }
        let huge = "9223372036854775808";
        for token in [
            "", "-", "-0", "+1", "01", "-01", "1.0", "1e3", " 1", "x", huge,
        ] {
            assert_eq!(canonical(token), None, "{token:?}");
        }
        assert_eq!(canonical("-9223372036854775808"), Some(i64::MIN));
    }

    #[test]
    fn lenient_integers_allow_leading_zeros() {
        assert_eq!(lenient("007"), Some(7));
        assert_eq!(lenient("-0"), Some(0));
        for token in ["", "-", "+1", "1.0", "x1", "123456789012345678901234567890"] {
            assert_eq!(lenient(token), None, "{token:?}");
        }
    }

    #[test]
    fn shown_tokens_are_short_and_escaped() {
        assert_eq!(shown("abc"), "`abc`");
        assert_eq!(shown("a\u{1b}b"), "`a\\u{1b}b`");
        assert_eq!(shown(&"x".repeat(100)), format!("`{}...`", "x".repeat(24)));
        assert_eq!(shown(&"x".repeat(24)), format!("`{}`", "x".repeat(24)));
    }
}
