//! The samples a problem's page shows.

use super::*;

#[test]
fn a_kattis_packages_samples_are_shown_by_their_display_and_download_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/ecosystem/problems/echoshow");
    let spec = crate::spec::load_problem(&dir).unwrap();
    let samples = samples(&spec);
    assert_eq!(samples.len(), 3, "{samples:?}");
    // Sample 2 shows and offers its `.out`, not its `.ans`.
    assert_eq!(samples[1].answer_bytes, b"2  \n");
    // Sample 3 has no `.in`: what the statement shows, and the downloads.
    assert_eq!(samples[2].input.trim(), "3");
    assert_eq!(samples[2].answer.trim(), "3");
    assert_eq!(samples[2].input_bytes, b"3\n");
    assert!(samples.iter().all(|s| !s.interaction));
}

#[test]
fn an_interactive_packages_samples_are_its_interaction_logs_and_offer_them() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/ecosystem/problems/nimduel");
    let spec = crate::spec::load_problem(&dir).unwrap();
    let samples = samples(&spec);
    assert_eq!(samples.len(), 2, "{samples:?}");
    for (n, sample) in samples.iter().enumerate() {
        let log = std::fs::read(dir.join(format!("data/sample/{}.interaction", n + 1))).unwrap();
        assert!(sample.interaction);
        assert_eq!(sample.log_bytes, log);
        assert_eq!(
            sample.input,
            crate::escape::visible(&String::from_utf8_lossy(&log))
        );
        assert!(sample.answer.is_empty());
    }
}
