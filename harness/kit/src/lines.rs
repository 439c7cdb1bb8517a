//! [`Lines`]: the strict line reader for input validators. Test inputs are
//! written by the package itself, so their format can be exact: every line
//! ends with `\n`, tokens are separated by single spaces, no blank or
//! padded lines, no control characters (so no `\r`, no tabs), integers in
//! their canonical form.

use crate::parse::{canonical, shown};

/// Strict lines of a whole input, numbered from 1 for messages.
#[derive(Debug, Clone)]
pub struct Lines<'a> {
    rest: &'a str,
    /// Number of the last line returned (0 before any).
    line: usize,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str) -> Lines<'a> {
        Lines {
            rest: text,
            line: 0,
        }
    }

    /// The next line without its `\n`; `what` names what it should hold when
    /// there is none (`line 4: expected a map row, found end of input`).
    pub fn next_line(&mut self, what: &str) -> Result<&'a str, String> {
        let number = self.line + 1;
        if self.rest.is_empty() {
            return Err(format!(
                "line {number}: expected {what}, found end of input"
            ));
        }
        let Some((line, rest)) = self.rest.split_once('\n') else {
            return Err(format!("line {number}: no newline at the end"));
        };
        if let Some(c) = line.chars().find(|c| c.is_control()) {
            return Err(format!(
                "line {number}: control character {}",
                c.escape_debug()
            ));
        }
        self.rest = rest;
        self.line = number;
        Ok(line)
    }

    /// The words of a line (of this reader's current line, for the message),
    /// split on single spaces: an empty line, or a leading, trailing or
    /// doubled space, is an error.
    pub fn words(&self, line: &'a str) -> Result<Vec<&'a str>, String> {
        if line.is_empty() {
            return Err(format!("line {}: empty line", self.line));
        }
        let words: Vec<&str> = line.split(' ').collect();
        if words.iter().any(|w| w.is_empty()) {
            return Err(format!(
                "line {}: leading, trailing or doubled space",
                self.line
            ));
        }
        Ok(words)
    }

    /// A word of the current line as a canonical integer in `lo..=hi`.
    pub fn int_in(&self, word: &str, lo: i64, hi: i64, what: &str) -> Result<i64, String> {
        match canonical(word) {
            Some(v) if (lo..=hi).contains(&v) => {
                crate::bounds::record(what, v, lo, hi);
                Ok(v)
            }
            _ => Err(format!(
                "line {}: expected {what} in {lo}..={hi}, found {}",
                self.line,
                shown(word)
            )),
        }
    }

    /// The next line, which must hold exactly `count` integers in `lo..=hi`.
    pub fn ints_in(
        &mut self,
        count: usize,
        lo: i64,
        hi: i64,
        what: &str,
    ) -> Result<Vec<i64>, String> {
        let line = self.next_line(what)?;
        let words = self.words(line)?;
        if words.len() != count {
            let (line, found) = (self.line, words.len());
            return Err(if count == 1 {
                format!("line {line}: expected {what} alone, found {found} words")
            } else {
                format!("line {line}: expected {count} integers ({what}), found {found}")
            });
        }
        words.iter().map(|w| self.int_in(w, lo, hi, what)).collect()
    }

    /// The next line, which must hold one integer in `lo..=hi` alone.
    pub fn int_line(&mut self, lo: i64, hi: i64, what: &str) -> Result<i64, String> {
        Ok(self.ints_in(1, lo, hi, what)?[0])
    }

    /// True when every line has been read.
    pub fn is_at_end(&self) -> bool {
        self.rest.is_empty()
    }

    /// Checks that every line has been read.
    pub fn expect_end(&self) -> Result<(), String> {
        if self.is_at_end() {
            Ok(())
        } else {
            Err(format!(
                "line {}: expected end of input, found more lines",
                self.line + 1
            ))
        }
    }

    /// The number of the last line read (0 before any).
    pub fn line(&self) -> usize {
        self.line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_an_exact_input() {
        let mut lines = Lines::new("2\n-1 0\n^#\n");
        assert_eq!(lines.int_line(1, 5, "n"), Ok(2));
        assert_eq!(lines.ints_in(2, -5, 5, "values"), Ok(vec![-1, 0]));
        assert_eq!(lines.next_line("a row"), Ok("^#"));
        assert_eq!(lines.line(), 3);
        assert!(lines.is_at_end());
        assert_eq!(lines.expect_end(), Ok(()));
    }

    /// The first error each malformed input gives, reading `n` then a line of
    /// `n` values in 1..=9.
    fn first_error(input: &str) -> String {
        let mut lines = Lines::new(input);
        let result = lines.int_line(1, 3, "n").and_then(|n| {
            lines.ints_in(n as usize, 1, 9, "values")?;
            lines.expect_end()
        });
        result.unwrap_err()
    }

    #[test]
    fn rejects_every_deviation_with_its_line() {
        for (input, message) in [
            ("", "line 1: expected n, found end of input"),
            ("2\n", "line 2: expected values, found end of input"),
            ("2\n1 2", "line 2: no newline at the end"),
            ("2\r\n1 2\r\n", "line 1: control character \\r"),
            ("2\n1\t2\n", "line 2: control character \\t"),
            ("\n", "line 1: empty line"),
            ("2\n1  2\n", "line 2: leading, trailing or doubled space"),
            ("2\n1 2 \n", "line 2: leading, trailing or doubled space"),
            ("2\n 1 2\n", "line 2: leading, trailing or doubled space"),
            (
                "2\n1 2 3\n",
                "line 2: expected 2 integers (values), found 3",
            ),
            ("2 1\n", "line 1: expected n alone, found 2 words"),
            ("02\n", "line 1: expected n in 1..=3, found `02`"),
            ("4\n", "line 1: expected n in 1..=3, found `4`"),
            ("2\n1 +2\n", "line 2: expected values in 1..=9, found `+2`"),
            (
                "1\n1\n\n",
                "line 3: expected end of input, found more lines",
            ),
        ] {
            assert_eq!(first_error(input), message, "{input:?}");
        }
    }
}
