//! An input as the shrinker sees it: lines of whitespace-separated tokens,
//! and the order in which one input is smaller than another.

/// An input file: lines of tokens. Rendering joins tokens with one space
/// and ends every line with a newline, the canonical layout strict
/// validators expect.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Case {
    pub(crate) lines: Vec<Vec<String>>,
}

/// How big an input is, compared field by field: fewer tokens first, then
/// fewer bytes, then smaller numbers, then the text itself (so replacing a
/// character by a smaller one counts). Every step the shrinker takes makes
/// this strictly smaller, so it always ends.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Size {
    pub tokens: usize,
    pub bytes: usize,
    pub magnitude: u128,
    pub text: String,
}

/// A token's integer value, if it is one (an optional `-`, then digits).
pub(crate) fn integer(token: &str) -> Option<i128> {
    let digits = token.strip_prefix('-').unwrap_or(token);
    if digits.is_empty() || digits.len() > 30 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    token.parse().ok()
}

impl Case {
    pub(crate) fn parse(text: &str) -> Case {
        Case {
            lines: text
                .lines()
                .map(|line| line.split_ascii_whitespace().map(String::from).collect())
                .collect(),
        }
    }

    pub(crate) fn render(&self) -> String {
        let mut text = String::new();
        for line in &self.lines {
            text.push_str(&line.join(" "));
            text.push('\n');
        }
        text
    }

    pub(crate) fn tokens(&self) -> usize {
        self.lines.iter().map(Vec::len).sum()
    }

    pub(crate) fn size(&self) -> Size {
        let text = self.render();
        Size {
            tokens: self.tokens(),
            bytes: text.len(),
            magnitude: self
                .lines
                .iter()
                .flatten()
                .filter_map(|t| integer(t))
                .map(|v| v.unsigned_abs())
                .fold(0u128, u128::saturating_add),
            text,
        }
    }

    /// What a line holds, for finding blocks of equal lines: its token count,
    /// or, for a line of one word that is not a number (a row of a map like
    /// `^#^^`), its character count.
    pub(crate) fn cells(&self, line: usize) -> Cells {
        match self.lines[line].as_slice() {
            [word] if integer(word).is_none() => Cells::Chars(word.chars().count()),
            tokens => Cells::Tokens(tokens.len()),
        }
    }

    /// The line's shape: its token count and whether they are all numbers.
    /// Lines shaped like line 1 are taken as the starts of the cases of a
    /// multi-case input (`T`, then a header like `R C` per case).
    pub(crate) fn signature(&self, line: usize) -> (usize, bool) {
        let tokens = &self.lines[line];
        (tokens.len(), tokens.iter().all(|t| integer(t).is_some()))
    }

    /// Maximal runs of consecutive lines with the same non-empty cells:
    /// `(first line, height, cells)`.
    pub(crate) fn blocks(&self) -> Vec<(usize, usize, Cells)> {
        let mut blocks: Vec<(usize, usize, Cells)> = Vec::new();
        for line in 0..self.lines.len() {
            let cells = self.cells(line);
            match blocks.last_mut() {
                Some((start, height, last)) if *last == cells && *start + *height == line => {
                    *height += 1
                }
                _ => blocks.push((line, 1, cells)),
            }
        }
        blocks.retain(|(_, _, cells)| cells.width() > 0);
        blocks
    }
}

/// The cells of a line: tokens, or the characters of a single word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cells {
    Tokens(usize),
    Chars(usize),
}

impl Cells {
    pub(crate) fn width(self) -> usize {
        match self {
            Cells::Tokens(n) | Cells::Chars(n) => n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_renders_canonically() {
        let case = Case::parse("3\n 1  2\t3 \r\n\nx\n");
        assert_eq!(case.lines.len(), 4);
        assert_eq!(case.render(), "3\n1 2 3\n\nx\n");
        assert_eq!(case.tokens(), 5);
    }

    #[test]
    fn integers_are_plain_decimal() {
        assert_eq!(integer("-17"), Some(-17));
        assert_eq!(integer("007"), Some(7));
        for word in ["", "-", "+3", "1.5", "1e3", "^^", "0x10"] {
            assert_eq!(integer(word), None, "{word}");
        }
    }

    #[test]
    fn fewer_tokens_beat_smaller_numbers() {
        let small = Case::parse("2\n9 9\n").size();
        let fewer = Case::parse("1\n999\n").size();
        assert!(fewer < small);
        assert!(Case::parse("2\n1 3\n").size() < Case::parse("2\n3 1\n").size());
        assert!(Case::parse("#^\n").size() < Case::parse("^^\n").size());
    }

    #[test]
    fn blocks_are_runs_of_equal_lines() {
        let case = Case::parse("1\n2 3\n^#^\n^^^\n2\n1 2\n3 4\n");
        assert_eq!(
            case.blocks(),
            vec![
                (0, 1, Cells::Tokens(1)),
                (1, 1, Cells::Tokens(2)),
                (2, 2, Cells::Chars(3)),
                (4, 1, Cells::Tokens(1)),
                (5, 2, Cells::Tokens(2)),
            ]
        );
        assert_eq!(case.signature(1), (2, true));
        assert_eq!(case.signature(2), (1, false));
    }
}
