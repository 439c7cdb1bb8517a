//! [`Tokens`]: whitespace-separated tokens of a whole text, for checkers
//! reading a submission's output and for anyone reading a test file loosely.

use crate::parse::{lenient, shown};

/// The whitespace of the Kattis default output validator: space, tab, line
/// feed, vertical tab, form feed, carriage return.
pub(crate) fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Whitespace-separated tokens of a text, with line numbers for messages.
/// Any run of whitespace separates tokens (as the Kattis default validator
/// reads output); numbers are read leniently (see [`Tokens::next_int_in`]).
#[derive(Debug, Clone)]
pub struct Tokens<'a> {
    text: &'a str,
    /// Byte offset of the first unread byte.
    at: usize,
    /// Line (1-based) of `at`.
    line: usize,
    taken: usize,
}

impl<'a> Tokens<'a> {
    pub fn new(text: &'a str) -> Tokens<'a> {
        Tokens {
            text,
            at: 0,
            line: 1,
            taken: 0,
        }
    }

    /// Moves past whitespace, counting lines.
    fn skip_space(&mut self) {
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.at).filter(|&&b| is_space(b)) {
            self.line += usize::from(b == b'\n');
            self.at += 1;
        }
    }

    /// The next token; `what` names it in the message when there is none
    /// (`line 3: expected the board size, found end of input`).
    pub fn next(&mut self, what: &str) -> Result<&'a str, String> {
        self.skip_space();
        let rest = &self.text[self.at..];
        if rest.is_empty() {
            return Err(format!(
                "line {}: expected {what}, found end of input",
                self.line
            ));
        }
        let len = rest.bytes().position(is_space).unwrap_or(rest.len());
        self.at += len;
        self.taken += 1;
        Ok(&rest[..len])
    }

    /// The next token as an integer: an optional `-`, then digits (leading
    /// zeros allowed, no `+`), within `i64`. For callers with their own
    /// range rules and messages; most want [`Tokens::next_int_in`].
    pub fn next_int(&mut self, what: &str) -> Result<i64, String> {
        let token = self.next(what)?;
        lenient(token).ok_or_else(|| {
            format!(
                "line {}: expected {what} (an integer), found {}",
                self.line,
                shown(token)
            )
        })
    }

    /// The next token as an integer in `lo..=hi`, read as [`Tokens::next_int`]
    /// reads it; a number too large for `i64` is out of range too.
    pub fn next_int_in(&mut self, lo: i64, hi: i64, what: &str) -> Result<i64, String> {
        let token = self.next(what)?;
        match lenient(token) {
            Some(v) if (lo..=hi).contains(&v) => Ok(v),
            _ => Err(format!(
                "line {}: expected {what} in {lo}..={hi}, found {}",
                self.line,
                shown(token)
            )),
        }
    }

    /// Checks that only whitespace is left.
    pub fn expect_end(&mut self) -> Result<(), String> {
        self.skip_space();
        if self.at == self.text.len() {
            return Ok(());
        }
        let line = self.line;
        let token = self.next("")?;
        Err(format!(
            "line {line}: expected nothing more, found {}",
            shown(token)
        ))
    }

    /// How many tokens were read so far.
    pub fn taken(&self) -> usize {
        self.taken
    }

    /// The line of the last token read (1 before any).
    pub fn line(&self) -> usize {
        self.line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tokens_across_any_whitespace() {
        let mut t = Tokens::new("  3\r\n1\t2\x0b\x0c 3\n");
        assert_eq!(t.next_int_in(1, 10, "n"), Ok(3));
        assert_eq!(t.line(), 1);
        assert_eq!(t.next("a"), Ok("1"));
        assert_eq!(t.line(), 2);
        assert_eq!(t.next_int_in(0, 5, "b"), Ok(2));
        assert_eq!(t.next("c"), Ok("3"));
        assert_eq!(t.taken(), 4);
        assert_eq!(t.expect_end(), Ok(()));
    }

    #[test]
    fn end_of_input_names_what_and_line() {
        let mut t = Tokens::new("1\n\n");
        t.next("x").unwrap();
        assert_eq!(
            t.next("the board size"),
            Err("line 3: expected the board size, found end of input".into())
        );
        assert_eq!(
            Tokens::new("").next("n"),
            Err("line 1: expected n, found end of input".into())
        );
    }

    #[test]
    fn integers_out_of_range_or_malformed_are_rejected() {
        for bad in ["0", "11", "+5", "5.0", "x", "99999999999999999999999"] {
            let message = Tokens::new(bad).next_int_in(1, 10, "a column").unwrap_err();
            assert!(
                message.starts_with("line 1: expected a column in 1..=10, found `"),
                "{message}"
            );
        }
        assert_eq!(Tokens::new("007").next_int_in(1, 10, "x"), Ok(7));
        assert_eq!(Tokens::new("-3").next_int_in(-5, 10, "x"), Ok(-3));
        assert_eq!(Tokens::new(" -09").next_int("x"), Ok(-9));
        assert_eq!(
            Tokens::new("\n\n1x").next_int("n"),
            Err("line 3: expected n (an integer), found `1x`".into())
        );
    }

    #[test]
    fn trailing_tokens_are_reported() {
        let mut t = Tokens::new("1\n2 \n");
        t.next("x").unwrap();
        assert_eq!(
            t.expect_end(),
            Err("line 2: expected nothing more, found `2`".into())
        );
    }
}
