//! One place for colours, so every reporter paints verdicts alike.

use owo_colors::OwoColorize;

use crate::verdict::Verdict;

#[derive(Debug, Clone, Copy)]
pub struct Styles {
    pub colour: bool,
}

impl Styles {
    pub fn verdict(&self, verdict: Verdict) -> String {
        let text = format!("{:<3}", verdict.short());
        if !self.colour {
            return text;
        }
        match verdict {
            Verdict::Accepted => text.green().bold().to_string(),
            Verdict::JudgeError => text.magenta().bold().to_string(),
            Verdict::TimeLimitExceeded
            | Verdict::MemoryLimitExceeded
            | Verdict::OutputLimitExceeded => text.yellow().bold().to_string(),
            _ => text.red().bold().to_string(),
        }
    }

    pub fn good(&self, text: &str) -> String {
        if self.colour {
            text.green().to_string()
        } else {
            text.to_string()
        }
    }

    pub fn bad(&self, text: &str) -> String {
        if self.colour {
            text.red().bold().to_string()
        } else {
            text.to_string()
        }
    }

    pub fn dim(&self, text: &str) -> String {
        if self.colour {
            text.dimmed().to_string()
        } else {
            text.to_string()
        }
    }

    pub fn bold(&self, text: &str) -> String {
        if self.colour {
            text.bold().to_string()
        } else {
            text.to_string()
        }
    }
}
