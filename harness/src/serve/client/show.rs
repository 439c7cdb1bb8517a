//! What `judge submit` shows: the submission's status while it is judged
//! and then its result, as the server's API gives it. On a terminal the
//! status is one line, redrawn at each change (a submission of 38 tests
//! once scrolled 38 lines past); elsewhere (a pipe, a log) each change is
//! a line of its own. The result names the verdict and the first test
//! that failed, lists only the tests that failed (with their time and
//! memory as the session shows them: exact on samples, `within limit` on
//! secret tests), the first difference and the diff the API gives for a
//! sample, and the address of the submission's page.
//!
//! Everything from the server passes the judge's escaping: a status, a
//! test's name or a diff never moves the cursor or starts a forged line.

use std::io::Write;

use serde_json::Value;

use crate::escape;
use crate::report::Styles;
use crate::verdict::Verdict;

/// How many lines of a diff are shown; the page has the rest.
const DIFF_LINES: usize = 24;
/// How many lines of a compiler's message are shown.
const MESSAGE_LINES: usize = 40;
/// The longest status shown on the live line, so that it never wraps
/// (a wrapped line can no longer be redrawn in place).
const STATUS_WIDTH: usize = 60;
/// Back to the start of the line, and the line erased.
const ERASE_LINE: &str = "\r\x1b[2K";

/// Where and how `judge submit` shows what happens.
pub(crate) struct Shown<'a> {
    out: &'a mut dyn Write,
    /// A terminal: the status is one line, redrawn.
    live: bool,
    styles: Styles,
    /// The status shown last, and whether it is a live line still drawn.
    status: String,
    drawn: bool,
}

impl<'a> Shown<'a> {
    pub(crate) fn new(out: &'a mut dyn Write, live: bool, styles: Styles) -> Shown<'a> {
        Shown {
            out,
            live,
            styles,
            status: String::new(),
            drawn: false,
        }
    }

    /// A line that stays (the live status line, if drawn, is erased first).
    /// The output is the user's terminal: a write that fails there has
    /// nobody to tell, and judging goes on.
    pub(super) fn line(&mut self, text: &str) {
        self.erase();
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    fn erase(&mut self) {
        if self.drawn {
            let _ = write!(self.out, "{ERASE_LINE}");
            self.drawn = false;
        }
    }

    /// Submission `id`'s status now (`queued`, `compiling`, `test 3 of
    /// 38`): shown when it changed.
    pub(super) fn status(&mut self, id: i64, status: &str) {
        let status: String = escape::name(status).chars().take(STATUS_WIDTH).collect();
        if status == self.status {
            return;
        }
        let text = format!("submission {id}: {status}");
        self.status = status;
        if self.live {
            let _ = write!(self.out, "{ERASE_LINE}{}", self.styles.dim(&text));
            let _ = self.out.flush();
            self.drawn = true;
        } else {
            self.line(&text);
        }
    }

    fn verdict(&self, code: &str) -> String {
        match Verdict::from_short(code) {
            Some(verdict) => self.styles.verdict(verdict).trim_end().to_string(),
            None => escape::name(code),
        }
    }

    /// The judged submission as `GET /api/v1/submissions/ID` gives it,
    /// and the address of its page.
    pub(super) fn result(&mut self, result: &Value, page: &str) {
        let tests: &[Value] = result["tests"].as_array().map_or(&[], Vec::as_slice);
        let failed: Vec<&Value> = tests.iter().filter(|t| t["verdict"] != "AC").collect();
        let mut head = match result["verdict"].as_str() {
            Some(code) => format!("verdict: {}", self.verdict(code)),
            None => "verdict: not judged yet".to_string(),
        };
        if let Some(first) = failed.first() {
            head.push_str(&format!(" on {}", text_of(&first["test"])));
        }
        if !tests.is_empty() {
            let s = if tests.len() == 1 { "" } else { "s" };
            head.push_str(&format!(" · {} test{s} run", tests.len()));
        }
        if let Some(score) = result["score"].as_f64() {
            head.push_str(&format!(" · score {score}"));
        }
        self.line(&head);
        let width = failed
            .iter()
            .map(|t| text_of(&t["test"]).chars().count())
            .max()
            .unwrap_or(0);
        for test in &failed {
            let line = test_line(test, width, &self.verdict(text(&test["verdict"])));
            self.line(&line);
        }
        if let Some(diff) = failed
            .iter()
            .map(|t| text(&t["diff"]))
            .find(|d| !d.is_empty())
        {
            self.block(diff, DIFF_LINES, true);
        }
        let message = text(&result["message"]);
        if !message.is_empty() {
            self.block(message, MESSAGE_LINES, false);
        }
        let summary = text(&result["summary"]);
        if !summary.is_empty() {
            self.line(&escape::name(summary));
        }
        self.line(&format!("the submission's page: {}", escape::name(page)));
    }

    /// Indented lines of `text` (a diff dimmed), at most `most` of them.
    fn block(&mut self, text: &str, most: usize, dim: bool) {
        let lines: Vec<&str> = text.lines().collect();
        for line in lines.iter().take(most) {
            let line = escape::visible(line);
            let line = if dim { self.styles.dim(&line) } else { line };
            self.line(&format!("      {line}"));
        }
        if lines.len() > most {
            let more = lines.len() - most;
            self.line(&format!(
                "      ({more} more lines on the submission's page)"
            ));
        }
    }
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

/// A string of the API on one line.
fn text_of(value: &Value) -> String {
    escape::name(text(value))
}

/// `  WA  sample 1   1 ms   < 1 MiB   expected `3`, got `4``: a failed
/// test, its time and memory as the API gives them (an older server's
/// exact figures, else `-`).
fn test_line(test: &Value, width: usize, verdict: &str) -> String {
    let figure = |shown: &Value, exact: &Value, unit: &str| match (shown.as_str(), exact.as_u64()) {
        (Some(shown), _) => escape::name(shown),
        (None, Some(exact)) => format!("{exact} {unit}"),
        (None, None) => "-".to_string(),
    };
    let time = figure(&test["time"], &test["cpu_ms"], "ms");
    let memory = figure(&test["memory"], &test["memory_kib"], "KiB");
    let note = if text(&test["expected"]).is_empty() {
        escape::name(text(&test["detail"]).lines().next().unwrap_or_default())
    } else {
        format!(
            "expected {}, got {}",
            text_of(&test["expected"]),
            text_of(&test["actual"])
        )
    };
    let label = text_of(&test["test"]);
    let pad = " ".repeat(width.saturating_sub(label.chars().count()));
    // The verdict is padded before it is painted: colour codes have no width.
    let verdict_pad = " ".repeat(3usize.saturating_sub(text(&test["verdict"]).chars().count()));
    format!("  {verdict}{verdict_pad} {label}{pad}  {time:>12}  {memory:>12}  {note}")
        .trim_end()
        .to_string()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn shown(live: bool, run: impl FnOnce(&mut Shown<'_>)) -> String {
        let mut out = Vec::new();
        run(&mut Shown::new(&mut out, live, Styles { colour: false }));
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn on_a_terminal_the_status_is_one_line_redrawn() {
        let statuses = ["queued", "compiling", "test 1 of 38", "test 38 of 38"];
        let text = shown(true, |s| {
            for status in statuses {
                s.status(7, status);
            }
            s.line("verdict: AC");
        });
        assert_eq!(
            text,
            "\r\x1b[2Ksubmission 7: queued\r\x1b[2Ksubmission 7: compiling\
             \r\x1b[2Ksubmission 7: test 1 of 38\r\x1b[2Ksubmission 7: test 38 of 38\
             \r\x1b[2Kverdict: AC\n"
        );
        assert_eq!(text.matches('\n').count(), 1, "one line stays");
    }

    #[test]
    fn elsewhere_each_change_is_a_line_and_a_status_cannot_draw() {
        let text = shown(false, |s| {
            s.status(7, "compiling");
            s.status(7, "compiling");
            s.status(7, "test 1 of 3\u{1b}[2J\nforged");
        });
        assert_eq!(
            text,
            "submission 7: compiling\nsubmission 7: test 1 of 3\\x1b[2J\\nforged\n"
        );
    }

    #[test]
    fn a_wrong_answer_shows_its_test_its_first_difference_its_diff_and_the_page() {
        let result = json!({
            "verdict": "WA", "score": null, "message": "", "summary": "",
            "tests": [
                {"test": "sample 1", "verdict": "AC", "time": "1 ms", "memory": "< 1 MiB",
                 "cpu_ms": 1, "memory_kib": 512, "detail": "", "expected": "", "actual": "", "diff": ""},
                {"test": "sample 2", "verdict": "WA", "time": "2 ms", "memory": "< 1 MiB",
                 "cpu_ms": 2, "memory_kib": 512, "detail": "", "expected": "`3`", "actual": "`4`",
                 "diff": "--- expected\n+++ output\n@@ -1 +1 @@\n-3\n+4\n"},
            ]
        });
        let text = shown(false, |s| s.result(&result, "http://h:8080/submissions/2"));
        assert_eq!(
            text,
            "verdict: WA on sample 2 · 2 tests run\n\
             \x20 WA  sample 2          2 ms       < 1 MiB  expected `3`, got `4`\n\
             \x20     --- expected\n\
             \x20     +++ output\n\
             \x20     @@ -1 +1 @@\n\
             \x20     -3\n\
             \x20     +4\n\
             the submission's page: http://h:8080/submissions/2\n"
        );
    }

    #[test]
    fn a_secret_test_shows_what_the_session_allows_and_a_long_diff_is_cut() {
        let diff: String = (0..30).map(|i| format!("-{i}\n")).collect();
        let result = json!({
            "verdict": "TLE", "score": 40.0, "summary": "2 of 5 secret tests passed",
            "tests": [
                {"test": "secret test 3", "verdict": "TLE", "time": "over limit",
                 "memory": "within limit", "cpu_ms": null, "memory_kib": null},
                {"test": "s", "verdict": "WA", "cpu_ms": 5, "memory_kib": 900, "diff": diff,
                 "detail": "line 1\nline 2"},
            ]
        });
        let text = shown(false, |s| s.result(&result, "/p"));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "verdict: TLE on secret test 3 · 2 tests run · score 40"
        );
        assert_eq!(lines[1], "  TLE secret test 3    over limit  within limit");
        assert_eq!(
            lines[2],
            "  WA  s                      5 ms       900 KiB  line 1"
        );
        assert_eq!(lines[3], "      -0");
        assert_eq!(
            lines[3 + DIFF_LINES],
            "      (6 more lines on the submission's page)"
        );
        assert_eq!(lines[4 + DIFF_LINES], "2 of 5 secret tests passed");
        assert_eq!(lines[5 + DIFF_LINES], "the submission's page: /p");
    }

    #[test]
    fn a_compile_error_shows_the_compilers_message() {
        let result = json!({"verdict": "CE", "tests": [], "message": "x.c:1: error\n\u{1b}[31m"});
        let text = shown(false, |s| s.result(&result, "/p"));
        assert_eq!(
            text,
            "verdict: CE\n      x.c:1: error\n      \\x1b[31m\nthe submission's page: /p\n"
        );
    }
}
