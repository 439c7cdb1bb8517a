//! Input visualizers (2025-09 `input_visualizer/`), run as BAPCtools runs
//! them: `judge generate` gives every case it makes to the visualizer,
//! `visualizer CASE.in CASE.ans [input_visualizer_args]`, in a folder of its own where it writes
//! `testcase.<ext>` (`png`, `jpg`, `jpeg` or `svg`); that image is kept
//! beside the case as its illustration (`data/secret/01.svg`). It is never
//! judged: a visualizer that does not build, fails or draws nothing is a
//! warning, as the specification says a visualizer's errors are no judge
//! errors.

use std::path::Path;

use super::generators::{Files, Programs, run};
use crate::errors::{Error, Result};
use crate::formats::yaml::YamlFile;
use crate::generators::{CaseRule, Generators};
use crate::plan::Means;

/// The case's `input_visualizer_args`: the last said of the
/// `test_group.yaml` of `data/` and each folder down to the case (as
/// `generators.yaml` writes them), then its own `yaml:`. Settings that do
/// not read are left to `judge verify`, which reads them from the package.
fn visualizer_args(generators: &Generators, rule: &CaseRule) -> Vec<String> {
    let folders = rule.name.match_indices('/').map(|(at, _)| &rule.name[..at]);
    let texts = std::iter::once("")
        .chain(folders)
        .filter_map(|folder| generators.group_files.get(folder))
        .chain(rule.inline.get("yaml"));
    let mut args = Vec::new();
    for text in texts {
        let Ok(file) = YamlFile::parse(Path::new("generators.yaml"), text) else {
            continue;
        };
        if let Some(Ok(list)) = file
            .root()
            .get("input_visualizer_args")
            .map(|v| v.string_list())
        {
            args = list;
        }
    }
    args
}

/// The extensions of an illustration, in the order one is taken.
const IMAGES: &[&str] = &["svg", "png", "jpg", "jpeg"];

/// Draws the case `rule` made (`files`, already written under `dir/data/`)
/// when the package has an input visualizer and the case brought no image
/// of its own. `Ok(Some(warning))`: the visualizer did not draw it.
pub(crate) fn case(
    means: &mut Means<'_>,
    programs: &mut Programs<'_>,
    dir: &Path,
    rule: &CaseRule,
    files: &Files,
) -> Result<Option<String>> {
    if IMAGES.iter().any(|ext| files.contains_key(*ext)) {
        return Ok(None);
    }
    let exe = match programs.visualizer(means) {
        None => return Ok(None),
        Some(Ok((exe, _))) => exe,
        Some(Err(why)) => return Ok(Some(format!("input visualizer: {why}"))),
    };
    let case = |ext: &str| dir.join("data").join(format!("{}.{ext}", rule.name));
    let mut words = vec![case("in").into_os_string(), case("ans").into_os_string()];
    words.extend(
        visualizer_args(programs.generators(), rule)
            .into_iter()
            .map(Into::into),
    );
    let drawn = match run(means, &exe.with_args(words), None) {
        Ok((_, drawn)) => drawn,
        Err(why) => return Ok(Some(format!("input visualizer on {}: {why}", rule.name))),
    };
    let Some((ext, image)) = IMAGES
        .iter()
        .find_map(|ext| drawn.get(*ext).map(|bytes| (*ext, bytes)))
    else {
        return Ok(Some(format!(
            "input visualizer on {}: wrote no testcase.svg, .png, .jpg or .jpeg",
            rule.name
        )));
    };
    let path = case(ext);
    std::fs::write(&path, image).map_err(|source| Error::Report {
        what: path.display().to_string(),
        source,
    })?;
    Ok(None)
}
