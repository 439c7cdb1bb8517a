//! Snapshots of what people read: the learner's failing test and the
//! setter's verify table. Times, sizes, paths and the machine-dependent
//! isolation line are redacted, so the snapshots hold on any machine.

use crate::support::*;

fn regex_escape(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '/' {
                c.to_string()
            } else {
                format!("\\{c}")
            }
        })
        .collect()
}

fn snapshot(name: &str, output: &[u8]) {
    let text = String::from_utf8_lossy(output).into_owned();
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(
        &regex_escape(&fixtures().display().to_string()),
        "[FIXTURES]",
    );
    settings.add_filter(r" +\d+(\.\d+)? (ms|s)\b", " [TIME]");
    settings.add_filter(r" +\d+(\.\d+)? (KiB|MiB)", " [SIZE]");
    settings.add_filter(r"\d+(\.\d+)? (ms|s)\b", "[TIME]");
    settings.add_filter(r"\d+(\.\d+)? (KiB|MiB)", "[SIZE]");
    settings.add_filter(r"(?m)^isolation: .*$", "[ISOLATION]");
    settings.set_snapshot_path("snapshots");
    settings.bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn learner_sees_a_wrong_answer() {
    let file = fixtures().join("submissions/sum/WA/off_by_one.rs");
    let output = judge_fixtures()
        .args(["test", "sum"])
        .arg(&file)
        .output()
        .unwrap();
    snapshot("test_wrong_answer", &output.stdout);
}

#[test]
fn setter_sees_the_verify_table() {
    let output = judge_fixtures()
        .args(["-j", "1", "verify", "sum"])
        .output()
        .unwrap();
    snapshot("verify_table", &output.stdout);
}
