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

/// The machine-readable reports of one grading: a WA and an AC submission
/// on `sum`. Measured figures are redacted; every field and its shape is in
/// the snapshot, so a change to either format shows up in review.
#[test]
fn graders_get_json_and_junit_reports() {
    let json = tempfile::NamedTempFile::new().unwrap();
    let junit = tempfile::NamedTempFile::new().unwrap();
    judge_fixtures()
        .args(["-j", "1", "grade", "sum"])
        .arg(fixtures().join("submissions/sum/WA/off_by_one.rs"))
        .arg(fixtures().join("submissions/sum/AC/sum.rs"))
        .arg("--json")
        .arg(json.path())
        .arg("--junit")
        .arg(junit.path())
        .assert()
        .code(1);
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(
        &regex_escape(&fixtures().display().to_string()),
        "[FIXTURES]",
    );
    settings.add_filter(
        r#""(cpu_ms|wall_ms|waited_ms|memory_kib)": \d+"#,
        r#""$1": "[N]""#,
    );
    settings.add_filter(r#""isolation": "[^"]*""#, r#""isolation": "[ISOLATION]""#);
    settings.add_filter(r#""version": "[^"]*""#, r#""version": "[VERSION]""#);
    settings.add_filter(r#"time="[0-9.]+""#, r#"time="[TIME]""#);
    settings.add_filter(r#"timestamp="[^"]*""#, r#"timestamp="[TIME]""#);
    settings.add_filter(r"\d+(\.\d+)? (ms|s|KiB|MiB)\b", "[MEASURED]");
    settings.set_snapshot_path("snapshots");
    let json_text = serde_json::to_string_pretty(&read_json(json.path())).unwrap();
    let junit_text = std::fs::read_to_string(junit.path()).unwrap();
    settings.bind(|| {
        insta::assert_snapshot!("grade_json", json_text);
        insta::assert_snapshot!("grade_junit", junit_text);
    });
}
