//! The Kattis default output validator: split both files on runs of space,
//! FF, LF, CR, HT and VT and compare token by token. ASCII case-insensitive
//! unless `case_sensitive`; whitespace-insensitive unless
//! `space_change_sensitive`; numeric answer tokens compared with tolerance
//! when a float tolerance is set (problemtools `default_validator.cc`).

use super::{Comparison, FirstDifference, Judgement, diff, shorten};

#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TokenOptions {
    pub case_sensitive: bool,
    pub space_change_sensitive: bool,
    pub float_absolute: Option<f64>,
    pub float_relative: Option<f64>,
}

/// A flag of the Kattis default validator that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FlagError {
    #[error("the flag `{flag}` needs a value")]
    NoValue { flag: String },
    #[error("`{flag} {value}`: the tolerance is not a number")]
    NotANumber { flag: String, value: String },
    #[error("unknown flag `{flag}` for the default validator")]
    Unknown { flag: String },
}

impl TokenOptions {
    /// The options of the Kattis default validator's command-line flags
    /// (`case_sensitive`, `space_change_sensitive`, `float_tolerance E`,
    /// `float_absolute_tolerance E`, `float_relative_tolerance E`). Flags
    /// may repeat and the last value counts; `Err` names an unknown flag or
    /// a tolerance that is not a number (a judge error, as in problemtools).
    pub fn from_kattis_flags(flags: &[String]) -> Result<TokenOptions, FlagError> {
        let mut options = TokenOptions::default();
        let mut flags = flags.iter();
        while let Some(flag) = flags.next() {
            let mut tolerance = || {
                let value = flags
                    .next()
                    .ok_or_else(|| FlagError::NoValue { flag: flag.clone() })?;
                parse_float(value.as_bytes()).ok_or_else(|| FlagError::NotANumber {
                    flag: flag.clone(),
                    value: value.clone(),
                })
            };
            match flag.as_str() {
                "case_sensitive" => options.case_sensitive = true,
                "space_change_sensitive" => options.space_change_sensitive = true,
                "float_absolute_tolerance" => options.float_absolute = Some(tolerance()?),
                "float_relative_tolerance" => options.float_relative = Some(tolerance()?),
                "float_tolerance" => {
                    let both = tolerance()?;
                    options.float_absolute = Some(both);
                    options.float_relative = Some(both);
                }
                other => {
                    return Err(FlagError::Unknown {
                        flag: other.to_string(),
                    });
                }
            }
        }
        Ok(options)
    }
}

fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\n' | b'\r' | b'\t' | 0x0b | 0x0c)
}

/// A token and the 1-based line it starts on.
struct Token<'a> {
    bytes: &'a [u8],
    line: usize,
}

/// Splits into alternating runs; whitespace runs are kept so that
/// `space_change_sensitive` can compare them too.
struct Runs<'a> {
    text: &'a [u8],
    pos: usize,
    line: usize,
}

impl<'a> Runs<'a> {
    fn new(text: &'a [u8]) -> Runs<'a> {
        Runs {
            text,
            pos: 0,
            line: 1,
        }
    }
}

impl<'a> Iterator for Runs<'a> {
    /// (is whitespace, token)
    type Item = (bool, Token<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let start = self.pos;
        let first = *self.text.get(start)?;
        let space = is_space(first);
        let len = self.text[start..]
            .iter()
            .position(|&b| is_space(b) != space)
            .unwrap_or(self.text.len() - start);
        let bytes = &self.text[start..start + len];
        let token = Token {
            bytes,
            line: self.line,
        };
        if space {
            self.line += bytes.iter().filter(|&&b| b == b'\n').count();
        }
        self.pos += len;
        Some((space, token))
    }
}

/// A token as the Kattis default validator reads a number: what
/// `sscanf(token, "%lf%10s") == 1` accepts with a finite result (glibc):
/// optional sign, decimal digits with an optional point or a hexadecimal
/// `0x` mantissa, an optional exponent (`e` or, for hex, `p`), where a
/// dangling `e`, `e+`, `p` is read as no exponent. `inf`, `nan` and values
/// beyond the double range are not numbers: they are compared as text.
fn parse_float(token: &[u8]) -> Option<f64> {
    let text = std::str::from_utf8(token).ok()?;
    let (negative, body) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let value = match body.get(..2) {
        Some("0x" | "0X") => parse_hex(&body[2..])?,
        _ => parse_decimal(body)?,
    };
    let value = if negative { -value } else { value };
    value.is_finite().then_some(value)
}

/// Splits `digits[.digits][<marker>[sign]digits]` into mantissa and exponent
/// digits (empty for a dangling marker); `None` when anything else is left.
fn split_number(
    body: &str,
    is_digit: fn(u8) -> bool,
    marker: [u8; 2],
) -> Option<(&str, &str, bool)> {
    let bytes = body.as_bytes();
    let mut end = 0;
    while end < bytes.len() && (is_digit(bytes[end]) || bytes[end] == b'.') {
        end += 1;
    }
    let mantissa = &body[..end];
    let digits = mantissa.bytes().filter(|&b| is_digit(b)).count();
    if digits == 0 || mantissa.len() - digits > 1 {
        return None;
    }
    let rest = &body[end..];
    if rest.is_empty() {
        return Some((mantissa, "", false));
    }
    if !marker.contains(&rest.as_bytes()[0]) {
        return None;
    }
    let (negative, exponent) = match rest.as_bytes().get(1) {
        Some(b'-') => (true, &rest[2..]),
        Some(b'+') => (false, &rest[2..]),
        _ => (false, &rest[1..]),
    };
    exponent
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then_some((mantissa, exponent, negative))
}

fn parse_decimal(body: &str) -> Option<f64> {
    let (mantissa, exponent, negative) = split_number(body, |b| b.is_ascii_digit(), [b'e', b'E'])?;
    let text = if exponent.is_empty() {
        mantissa.to_string()
    } else {
        format!("{mantissa}e{}{exponent}", if negative { "-" } else { "" })
    };
    text.parse().ok()
}

fn parse_hex(body: &str) -> Option<f64> {
    let (mantissa, exponent, negative) =
        split_number(body, |b| b.is_ascii_hexdigit(), [b'p', b'P'])?;
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut value = 0.0f64;
    for digit in whole.bytes() {
        value = value * 16.0 + f64::from((digit as char).to_digit(16)?);
    }
    let mut scale = 1.0 / 16.0;
    for digit in fraction.bytes() {
        value += f64::from((digit as char).to_digit(16)?) * scale;
        scale /= 16.0;
    }
    let power: i32 = if exponent.is_empty() {
        0
    } else {
        exponent.parse::<i32>().unwrap_or(i32::MAX)
    };
    Some(value * 2f64.powi(if negative { -power } else { power }))
}

fn tokens_match(expected: &[u8], actual: &[u8], options: &TokenOptions) -> bool {
    if options.float_absolute.is_some() || options.float_relative.is_some() {
        if let Some(answer) = parse_float(expected) {
            let Some(team) = parse_float(actual) else {
                return false;
            };
            let error = (team - answer).abs();
            return options.float_absolute.is_some_and(|eps| error <= eps)
                || options
                    .float_relative
                    .is_some_and(|eps| error <= eps * answer.abs());
        }
    }
    if options.case_sensitive {
        expected == actual
    } else {
        expected.eq_ignore_ascii_case(actual)
    }
}

pub(crate) fn compare_tokens(expected: &[u8], actual: &[u8], options: &TokenOptions) -> Comparison {
    let mut want = Runs::new(expected)
        .filter(|(space, _)| !space)
        .map(|(_, t)| t);
    let mut got = Runs::new(actual)
        .filter(|(space, _)| !space)
        .map(|(_, t)| t);
    let mut index = 0;
    loop {
        index += 1;
        match (want.next(), got.next()) {
            (None, None) => break,
            (Some(w), Some(g)) if tokens_match(w.bytes, g.bytes, options) => {}
            (w, g) => {
                let expected_line = w.as_ref().map_or_else(|| last_line(expected), |t| t.line);
                let line = g.as_ref().map_or_else(|| last_line(actual), |t| t.line);
                return Comparison::differs(
                    Judgement::WrongAnswer,
                    FirstDifference {
                        line,
                        token: index,
                        expected: w.map_or_else(
                            || "end of output".into(),
                            |t| format!("`{}`", shorten(t.bytes, 60)),
                        ),
                        actual: g.map_or_else(
                            || "end of output".into(),
                            |t| format!("`{}`", shorten(t.bytes, 60)),
                        ),
                        diff: diff::around(expected, actual, expected_line, line),
                    },
                );
            }
        }
    }
    if options.space_change_sensitive {
        return compare_whitespace(expected, actual);
    }
    Comparison::accepted()
}

/// With equal tokens, whitespace runs must also be equal (leading and trailing too).
fn compare_whitespace(expected: &[u8], actual: &[u8]) -> Comparison {
    let mut want = Runs::new(expected);
    let mut got = Runs::new(actual);
    loop {
        match (want.next(), got.next()) {
            (None, None) => return Comparison::accepted(),
            (Some((ws, w)), Some((gs, g))) if ws == gs && (!ws || w.bytes == g.bytes) => {}
            (w, g) => {
                let show = |run: Option<(bool, Token<'_>)>| match run {
                    Some((true, t)) => format!("whitespace {:?}", String::from_utf8_lossy(t.bytes)),
                    Some((false, t)) => {
                        format!("`{}` with no whitespace before it", shorten(t.bytes, 60))
                    }
                    None => "end of output".into(),
                };
                let expected_line = w
                    .as_ref()
                    .map_or_else(|| last_line(expected), |(_, t)| t.line);
                let line = g
                    .as_ref()
                    .map_or_else(|| last_line(actual), |(_, t)| t.line);
                return Comparison::differs(
                    Judgement::PresentationError,
                    FirstDifference {
                        line,
                        token: 0,
                        expected: show(w),
                        actual: show(g),
                        diff: diff::around(expected, actual, expected_line, line),
                    },
                );
            }
        }
    }
}

fn last_line(text: &[u8]) -> usize {
    text.iter().filter(|&&b| b == b'\n').count().max(1)
}

#[cfg(test)]
mod tests {
    //! Equivalents of problemtools' `tests/default_validator_tests/` cases.
    use super::*;

    fn check(expected: &str, actual: &str, options: TokenOptions) -> Judgement {
        compare_tokens(expected.as_bytes(), actual.as_bytes(), &options).judgement
    }
    const AC: Judgement = Judgement::Accepted;
    const WA: Judgement = Judgement::WrongAnswer;
    const PE: Judgement = Judgement::PresentationError;
    fn default() -> TokenOptions {
        TokenOptions::default()
    }
    fn abs(eps: f64) -> TokenOptions {
        TokenOptions {
            float_absolute: Some(eps),
            ..default()
        }
    }
    fn rel(eps: f64) -> TokenOptions {
        TokenOptions {
            float_relative: Some(eps),
            ..default()
        }
    }
    fn both(eps: f64) -> TokenOptions {
        TokenOptions {
            float_absolute: Some(eps),
            float_relative: Some(eps),
            ..default()
        }
    }

    #[test]
    fn kattis_flags_become_options() {
        let flags = |text: &str| {
            TokenOptions::from_kattis_flags(
                &text
                    .split_whitespace()
                    .map(String::from)
                    .collect::<Vec<_>>(),
            )
        };
        assert_eq!(flags(""), Ok(default()));
        assert_eq!(
            flags("case_sensitive float_tolerance 1e-6 float_absolute_tolerance 0.5"),
            Ok(TokenOptions {
                case_sensitive: true,
                float_absolute: Some(0.5),
                float_relative: Some(1e-6),
                ..default()
            })
        );
        assert!(
            flags("space_change_sensitive")
                .unwrap()
                .space_change_sensitive
        );
        assert!(
            flags("float_tolerance")
                .unwrap_err()
                .to_string()
                .contains("needs a value")
        );
        assert!(
            flags("float_tolerance x")
                .unwrap_err()
                .to_string()
                .contains("not a number")
        );
        assert!(
            flags("ignore_case")
                .unwrap_err()
                .to_string()
                .contains("unknown flag")
        );
    }

    #[test]
    fn simple_accept_and_reject() {
        assert_eq!(check("hello world\n", "hello world\n", default()), AC);
        assert_eq!(check("hello world\n", "hello there\n", default()), WA);
    }

    #[test]
    fn case_insensitive_by_default() {
        assert_eq!(check("Asuna\n", "ASUNA\n", default()), AC);
        let sensitive = TokenOptions {
            case_sensitive: true,
            ..default()
        };
        assert_eq!(check("Asuna\n", "ASUNA\n", sensitive), WA);
        assert_eq!(check("Asuna\n", "Asuna\n", sensitive), AC);
    }

    #[test]
    fn combined_flags() {
        let options = TokenOptions {
            case_sensitive: true,
            space_change_sensitive: true,
            ..abs(1e-6)
        };
        assert_eq!(check("Pi 3.1415927\n", "Pi 3.14159270001\n", options), AC);
        assert_eq!(check("Pi 3.1415927\n", "pi 3.1415927\n", options), WA);
        assert_eq!(check("Pi 3.1415927\n", "Pi  3.1415927\n", options), PE);
    }

    #[test]
    fn empty_output() {
        assert_eq!(check("", "", default()), AC);
        assert_eq!(check("42\n", "", default()), WA);
        assert_eq!(check("", "42\n", default()), WA);
        assert_eq!(check("\n", "  \n\n", default()), AC);
    }

    #[test]
    fn absolute_tolerance() {
        assert_eq!(check("1.0\n", "1.0000009\n", abs(1e-6)), AC);
        assert_eq!(check("1.0\n", "1.000002\n", abs(1e-6)), WA);
        assert_eq!(check("1000000\n", "1000000.0000005\n", abs(1e-6)), AC);
    }

    #[test]
    fn relative_tolerance() {
        assert_eq!(check("1000000\n", "1000000.5\n", rel(1e-6)), AC);
        assert_eq!(check("1000000\n", "1000002\n", rel(1e-6)), WA);
        assert_eq!(check("0.000001\n", "0.0000010000001\n", rel(1e-6)), AC);
    }

    #[test]
    fn either_tolerance_suffices() {
        // Absolute helps near zero, relative helps for large values.
        assert_eq!(check("0\n", "0.0000005\n", both(1e-6)), AC);
        assert_eq!(check("1e9\n", "1000000500\n", both(1e-6)), AC);
        assert_eq!(check("1\n", "1.1\n", both(1e-6)), WA);
    }

    #[test]
    fn zero_judge_value_with_relative_only() {
        assert_eq!(check("0\n", "0\n", rel(1e-6)), AC);
        assert_eq!(check("0\n", "0.0000000001\n", rel(1e-6)), WA);
    }

    #[test]
    fn inf_in_the_judge_answer_is_a_word_not_a_number() {
        assert_eq!(check("inf\n", "inf\n", abs(1e-6)), AC);
        assert_eq!(check("inf\n", "1e999\n", abs(1e-6)), WA);
        assert_eq!(check("nan\n", "NaN\n", abs(1e-6)), AC);
    }

    #[test]
    fn team_token_must_be_a_number_when_the_answer_is() {
        assert_eq!(check("1.5\n", "one-and-a-half\n", abs(1e-6)), WA);
        assert_eq!(
            check("2\n", "2.0000001\n", abs(1e-6)),
            AC,
            "integers compare as floats"
        );
    }

    /// Cases measured against problemtools' own `default_validator`.
    #[test]
    fn numbers_read_as_the_kattis_default_validator_reads_them() {
        let tol = abs(1e-6);
        // Beyond the double range: not a number, so compared as text.
        assert_eq!(check("1e400\n", "1e400\n", tol), AC);
        assert_eq!(check("5\n", "1e400\n", tol), WA);
        assert_eq!(check("0\n", "1e-400\n", tol), AC);
        // Hexadecimal floats, with or without a binary exponent.
        assert_eq!(check("0x10\n", "16\n", tol), AC);
        assert_eq!(check("16\n", "0x10\n", tol), AC);
        assert_eq!(check("8\n", "0x1p3\n", tol), AC);
        assert_eq!(check("1.5\n", "0x1.8p0\n", tol), AC);
        assert_eq!(check("0.25\n", "0X1P-2\n", tol), AC);
        assert_eq!(check("1\n", "0x\n", tol), WA, "`0x` alone is no number");
        assert_eq!(check("1\n", "0x.p1\n", tol), WA);
        // A dangling exponent is read as none.
        assert_eq!(check("1.5\n", "1.5e\n", tol), AC);
        assert_eq!(check("1.5e\n", "1.5\n", tol), AC);
        assert_eq!(check("1\n", "1e+\n", tol), AC);
        assert_eq!(check("1\n", "0x1p\n", tol), AC);
        // Trailing garbage makes a word.
        assert_eq!(check("1\n", "1x\n", tol), WA);
        assert_eq!(check("1\n", "1..0\n", tol), WA);
    }

    #[test]
    fn without_tolerance_numbers_are_strings() {
        assert_eq!(check("1.0\n", "1.00\n", default()), WA);
        assert_eq!(check("-0\n", "0\n", default()), WA);
    }

    #[test]
    fn rocket() {
        let answer = "3\nthe rocket  lands\n";
        assert_eq!(check(answer, "3 the\trocket\r\nlands", default()), AC);
    }

    #[test]
    fn long_binary_token() {
        let long: String = "01".repeat(50_000);
        assert_eq!(check(&long, &long, default()), AC);
        let mut other = long.clone();
        other.replace_range(99_998..99_999, "1");
        let c = compare_tokens(long.as_bytes(), other.as_bytes(), &default());
        assert_eq!(c.judgement, WA);
        assert!(
            c.difference.unwrap().expected.len() < 100,
            "tokens are shortened for display"
        );
    }

    #[test]
    fn long_early_difference_and_trailing_output() {
        let answer: String = (0..10_000).map(|i| format!("{i}\n")).collect();
        let mut early = answer.clone();
        early.replace_range(0..1, "7");
        let c = compare_tokens(answer.as_bytes(), early.as_bytes(), &default());
        assert_eq!(c.judgement, WA);
        let d = c.difference.unwrap();
        assert_eq!((d.line, d.token), (1, 1));
        assert!(d.diff.lines().count() < 20, "the diff stays short");

        let trailing = format!("{answer}{answer}");
        let c = compare_tokens(answer.as_bytes(), trailing.as_bytes(), &default());
        assert_eq!(c.judgement, WA);
        assert_eq!(c.difference.unwrap().expected, "end of output");
    }

    #[test]
    fn short_output() {
        let c = compare_tokens(b"1 2 3\n", b"1 2\n", &default());
        assert_eq!(c.judgement, WA);
        let d = c.difference.unwrap();
        assert_eq!((d.token, d.actual.as_str()), (3, "end of output"));
    }

    #[test]
    fn whitespace_differences() {
        assert_eq!(check("1 2\n", "1\n\n2   ", default()), AC);
        assert_eq!(check("12\n", "1 2\n", default()), WA);
        let strict = TokenOptions {
            space_change_sensitive: true,
            ..default()
        };
        assert_eq!(check("1 2\n", "1 2\n", strict), AC);
        assert_eq!(
            check("1 2\n", "1 2", strict),
            PE,
            "trailing newline matters"
        );
        assert_eq!(
            check("1 2\n", " 1 2\n", strict),
            PE,
            "leading space matters"
        );
        assert_eq!(check("1 2\n", "1\t2\n", strict), PE);
    }

    #[test]
    fn first_difference_names_line_and_token() {
        let c = compare_tokens(b"5\n5\n-10\n", b"5\n5\n-9\n", &default());
        let d = c.difference.unwrap();
        assert_eq!((d.line, d.token), (3, 3));
        assert_eq!((d.expected.as_str(), d.actual.as_str()), ("`-10`", "`-9`"));
        assert!(
            d.diff.contains("--- expected") && d.diff.contains("-10") && d.diff.contains("+-9")
        );
    }
}
