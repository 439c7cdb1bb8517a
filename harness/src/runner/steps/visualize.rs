//! 2025-09 output visualizers: after a test's output is judged, the
//! package's `output_visualizer/` runs with the output validator's
//! arguments (`input answer feedback_dir/`), `output_visualizer_args`
//! instead of the validator's, and the output on stdin, in the feedback
//! folder the validator left. In an interactive test (multi-pass or not)
//! its stdin is empty and the feedback folder is the interactor's; in a
//! multi-pass test it runs once, after the last pass, on that pass's
//! output, with the test's own input. The images it leaves there
//! (`teamimage.<ext>`, `judgeimage.<ext>`, and `-<id>` variants) are
//! kept under `<into>/<test name>/`; nothing it does is judged: a
//! visualizer that fails, or runs past its limits, only draws nothing
//! (the specification says so).

use std::path::{Path, PathBuf};

use crate::checker::feedback_arg;
use crate::compile::Executable;
use crate::sandbox::TOOL_LIMITS;
use crate::sandbox::{Containment, RunRequest};

use super::TestRun;

/// The built output visualizer and where its images go.
#[derive(Debug, Clone)]
pub struct OutputVisualization {
    pub visualizer: Executable,
    /// The submission's folder of images: one folder per test below it.
    pub into: PathBuf,
}

const IMAGE_EXTENSIONS: &[&str] = &["png", "jpg", "jpeg", "svg"];

/// Whether `name` is an image a visualizer may leave: `teamimage.<ext>`,
/// `judgeimage-<id>.<ext>`, ...
fn is_image(name: &str) -> bool {
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return false;
    };
    let base = stem.split_once('-').map_or(stem, |(base, _)| base);
    ["teamimage", "judgeimage"].contains(&base) && IMAGE_EXTENSIONS.contains(&ext)
}

/// Runs the visualizer of `run` on `output` with the feedback folder
/// `feedback` the validator (or interactor) left, writing the output it
/// reads into the judge's folder `scratch`; keeps its images. Returns the
/// images kept. The input it is given is the test's own `.in`, in every
/// kind (the specification: not a multi-pass problem's later passes').
pub(crate) fn visualize(
    run: &TestRun<'_>,
    output: &[u8],
    scratch: &Path,
    feedback: &Path,
) -> Vec<PathBuf> {
    let Some(visualization) = run.output_visualization else {
        return Vec::new();
    };
    let team_output = scratch.join("visualized_output");
    if std::fs::create_dir_all(feedback).is_err() || std::fs::write(&team_output, output).is_err() {
        return Vec::new();
    }
    let args = run
        .problem
        .package
        .as_deref()
        .and_then(|p| p.tests.iter().find(|t| t.name == run.test.name))
        .map(|t| t.output_visualizer_args.clone())
        .unwrap_or_default();
    let mut words = vec![
        run.test.input.clone().into_os_string(),
        run.test.answer.clone().into_os_string(),
        feedback_arg(feedback),
    ];
    words.extend(args.into_iter().map(Into::into));
    let ran = run.sandbox.run(&RunRequest {
        stdin: Some(team_output),
        ..visualization
            .visualizer
            .with_args(words)
            .request(scratch, TOOL_LIMITS, Containment::Tool)
    });
    if ran.is_err() {
        return Vec::new();
    }
    keep_images(feedback, &visualization.into.join(&run.test.name))
}

/// Copies the images of `feedback` into `into` (made anew).
fn keep_images(feedback: &Path, into: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(feedback) else {
        return Vec::new();
    };
    let mut images: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| e.file_name().to_str().is_some_and(is_image))
        .map(|e| e.path())
        .collect();
    images.sort();
    let _ = std::fs::remove_dir_all(into);
    if images.is_empty() || std::fs::create_dir_all(into).is_err() {
        return Vec::new();
    }
    images
        .iter()
        .filter_map(|image| {
            let kept = into.join(image.file_name()?);
            std::fs::copy(image, &kept).ok().map(|_| kept)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::is_image;

    #[test]
    fn only_the_specifications_image_names_are_kept() {
        for name in [
            "teamimage.png",
            "judgeimage.svg",
            "teamimage-01.jpg",
            "judgeimage-a-b.jpeg",
        ] {
            assert!(is_image(name), "{name}");
        }
        for name in [
            "score.txt",
            "teamimage.gif",
            "image.png",
            "teamimage",
            "judgemessage.txt",
        ] {
            assert!(!is_image(name), "{name}");
        }
    }
}
