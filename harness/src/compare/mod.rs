//! Pure output comparison: no I/O. `tokens` follows the Kattis default
//! output validator exactly; `exact` is byte-for-byte. Both return a
//! `Comparison` whose `FirstDifference` the reporters show.

mod diff;
mod exact;
mod tokens;

pub(crate) use exact::compare_exact;
pub(crate) use tokens::{TokenOptions, compare_tokens};

/// The judgement on an output that ran cleanly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judgement {
    Accepted,
    WrongAnswer,
    /// Right tokens, wrong whitespace: only where whitespace is judged
    /// (`exact`, or `tokens` with `space-change-sensitive`).
    PresentationError,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub judgement: Judgement,
    pub difference: Option<FirstDifference>,
    /// A checker's message (judgemessage.txt).
    pub message: Option<String>,
    /// A checker's score (score.txt).
    pub score: Option<f64>,
}

impl Comparison {
    pub fn accepted() -> Comparison {
        Comparison {
            judgement: Judgement::Accepted,
            difference: None,
            message: None,
            score: None,
        }
    }

    pub(crate) fn differs(judgement: Judgement, difference: FirstDifference) -> Comparison {
        Comparison {
            judgement,
            difference: Some(difference),
            message: None,
            score: None,
        }
    }
}

/// Where the output first departs from the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstDifference {
    /// 1-based line in the contestant's output.
    pub line: usize,
    /// 1-based token index (0 for whitespace or byte differences).
    pub token: usize,
    pub expected: String,
    pub actual: String,
    /// A short unified diff around the difference.
    pub diff: String,
}

/// Shortens a token or line for display.
/// Control characters are made visible: the bytes come from a submission.
pub(crate) fn shorten(bytes: &[u8], max: usize) -> String {
    let text = crate::escape::visible_bytes(bytes);
    if text.chars().count() <= max {
        text
    } else {
        let head: String = text.chars().take(max).collect();
        format!("{head}…")
    }
}
